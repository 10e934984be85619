//! How Psych 4.0's `YAMLTree#visit_String` asks for a string: literal when
//! it has inner line breaks, quoted when its plain form would read back as
//! something else (`ScalarScanner#tokenize` gives a non-String), and libyaml
//! then picks the final style from the characters.
//!
//! Ruby's regexes here are line-anchored (`^`, `$` match at every line), so
//! they are kept multi-line; by this point a string has at most a trailing
//! line break or two, which is where that matters (`"true\n"` is quoted).

use std::sync::LazyLock;

use regex::Regex;

use super::{Scalar, Style};

fn re(pattern: &str) -> Regex {
    // The patterns are constants checked by the unit tests.
    Regex::new(pattern).unwrap_or_else(|_| Regex::new("$^").expect("empty regex"))
}

// `\s` and `\d` are Ruby's ASCII classes; `[[:alpha:]]`/`[[:word:]]` are
// Unicode in Ruby for UTF-8 strings.
static LEADING_NON_WORD: LazyLock<Regex> = LazyLock::new(|| re(r#"(?m)^[^\w][^"]*$"#));
static WORDISH: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?m)^[^0-9.:\-]?[\p{Alphabetic}_ \t\r\n\f\v!@#$%\^&*(){}<>|/\\~;=]+"));
static NOT_YTONF: LazyLock<Regex> = LazyLock::new(|| re(r"(?mi)^[^ytonf~]"));
static NULL: LazyLock<Regex> = LazyLock::new(|| re(r"(?mi)^null$"));
static BOOL: LazyLock<Regex> = LazyLock::new(|| re(r"(?mi)^(yes|true|on|no|false|off)$"));
static TIME: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?m)^-?[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt]|[ \t\r\n\f\v]+)[0-9]{1,2}:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?(?:[ \t\r\n\f\v]*(?:Z|[-+][0-9]{1,2}:?(?:[0-9][0-9])?))?$",
    )
});
static DATE: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?m)^([0-9]{4})-(1[012]|0[0-9]|[0-9])-([12][0-9]|3[01]|0[0-9]|[0-9])$"));
static SPECIAL_FLOAT: LazyLock<Regex> = LazyLock::new(|| re(r"(?mi)^\+?\.inf$|^-\.inf$|^\.nan$"));
static SYMBOL: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^:."));
static SEXAGESIMAL: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?m)^[-+]?[0-9][0-9_]*(:[0-5]?[0-9]){1,2}$|^[-+]?[0-9][0-9_]*(:[0-5]?[0-9]){1,2}\.[0-9_]*$",
    )
});
static FLOAT: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?m)^(?:[-+]?([0-9][0-9_,]*)?\.[0-9]*([eE][-+][0-9]+)?)$"));
static INTEGER: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?m)^(?:[-+]?0b[0-1_,]+|[-+]?0[0-7_,]+|[-+]?(?:0|[1-9](?:[0-9]|,[0-9]|_[0-9])*)|[-+]?0x[0-9a-fA-F_,]+)$",
    )
});
static OCTAL_LOOKALIKE: LazyLock<Regex> = LazyLock::new(|| re(r"\A0[0-7]*[89]"));

/// Psych's scalar for a Ruby String (UTF-8, no instance variables);
/// `fold_width` is Psych's `line_width` option.
pub fn string_scalar(s: &str, fold_width: Option<usize>) -> Scalar {
    let mut sc = Scalar {
        value: s.to_string(),
        anchor: None,
        tag: None,
        plain: true,
        quoted: true,
        style: Style::Plain,
    };
    if has_inner_break(s) {
        sc.style = Style::Literal;
    } else if s == "<<" {
        sc.style = Style::Single;
        sc.tag = Some("tag:yaml.org,2002:str".into());
        sc.plain = false;
        sc.quoted = false;
    } else if s == "y" || s == "n" {
        sc.style = Style::Double;
    } else if fold_width.is_some_and(|w| s.chars().count() > w) {
        sc.style = Style::Folded;
    } else if LEADING_NON_WORD.is_match(s) {
        sc.style = Style::Double;
    } else if !reads_as_string(s) || OCTAL_LOOKALIKE.is_match(s) {
        sc.style = Style::Single;
    }
    sc
}

/// Ruby's `s =~ /\n(?!\Z)/`: a line break that is not the last character,
/// nor the one before a final line break.
fn has_inner_break(s: &str) -> bool {
    let b = s.as_bytes();
    let n = b.len();
    b.iter()
        .enumerate()
        .any(|(i, &c)| c == b'\n' && i + 1 != n && !(i + 2 == n && b[n - 1] == b'\n'))
}

/// Whether `ScalarScanner#tokenize` leaves the text a String (else the
/// plain form would load as nil, a boolean, a number, a time, a symbol...).
fn reads_as_string(s: &str) -> bool {
    if s.is_empty() {
        return false;
    }
    if WORDISH.is_match(s) || s.contains('\n') {
        if s.chars().count() > 5 || NOT_YTONF.is_match(s) {
            return true;
        }
        return !(s == "~" || NULL.is_match(s) || BOOL.is_match(s));
    }
    if TIME.is_match(s) {
        return !time_valid(s);
    }
    if let Some(c) = DATE.captures(s) {
        let num = |i: usize| {
            c.get(i)
                .and_then(|m| m.as_str().parse::<i64>().ok())
                .unwrap_or(0)
        };
        // `Date.strptime(s, '%Y-%m-%d')` fails on a date that does not exist
        // (and on anything after it, like a final line break).
        return s.contains('\n') || !date_valid(num(1), num(2), num(3));
    }
    if SPECIAL_FLOAT.is_match(s) || SYMBOL.is_match(s) || SEXAGESIMAL.is_match(s) {
        return false;
    }
    if FLOAT.is_match(s) {
        // `+.`, `-.`, `.` stay strings.
        let t = s.strip_suffix('\n').unwrap_or(s);
        return matches!(t, "." | "+." | "-.");
    }
    !INTEGER.is_match(s)
}

/// `Date.strptime` validity: the Julian calendar before the 1582 reform
/// (Ruby's default `Date::ITALY`), Gregorian after, the ten dropped days
/// invalid.
fn date_valid(y: i64, m: i64, d: i64) -> bool {
    if !(1..=12).contains(&m) || d < 1 {
        return false;
    }
    let leap = if y < 1582 {
        y % 4 == 0
    } else {
        (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
    };
    let days = match m {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    };
    if y == 1582 && m == 10 && (5..=14).contains(&d) {
        return false;
    }
    d <= days
}

/// Whether `Time.utc` accepts the fields `parse_time` reads (it raises
/// ArgumentError on a month, day, hour, minute or second out of range,
/// and `tokenize` then keeps the string).
fn time_valid(s: &str) -> bool {
    let digits: Vec<i64> = s
        .trim_start_matches('-')
        .split(|c: char| !c.is_ascii_digit())
        .filter(|p| !p.is_empty())
        .take(6)
        .map(|p| p.parse().unwrap_or(i64::MAX))
        .collect();
    let [_, mon, day, hour, min, sec] = digits[..] else {
        return true;
    };
    (1..=12).contains(&mon) && (1..=31).contains(&day) && hour <= 24 && min <= 59 && sec <= 60
}
