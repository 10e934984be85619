//! Expressions Onigmo refuses where fancy-regex would take them, or would
//! refuse them for a reason of its own, with Onigmo's text: each found by
//! reading the source as Onigmo reads it (outside escapes; classes, where
//! they matter, item by item).

use super::repeats::{class_end, comment_end, escape_end, interval};

/// Onigmo's largest repeat count (`ONIG_MAX_REPEAT_NUM`).
const MAX_REPEAT: u64 = 100_000;

/// POSIX bracket names Onigmo knows (`[[:alpha:]]`).
const POSIX: [&str; 14] = [
    "alnum", "alpha", "ascii", "blank", "cntrl", "digit", "graph", "lower", "print", "punct",
    "space", "upper", "xdigit", "word",
];

/// Onigmo's error text for `src`, for the refusals covered here.
pub(super) fn error(src: &str) -> Option<String> {
    let chars: Vec<char> = src.chars().collect();
    let groups = GroupNames::of(&chars);
    let mut i = 0;
    while i < chars.len() {
        i = match chars[i] {
            '(' if chars[i + 1..].starts_with(&['?', '#']) => comment_end(&chars, i),
            '\\' => {
                if let Some(e) = backref_error(&chars, i, &groups) {
                    return Some(e);
                }
                escape_end(&chars, i)
            }
            '[' => {
                let end = class_end(&chars, i);
                if let Some(e) = class_error(&chars[i..end]) {
                    return Some(e.into());
                }
                end
            }
            '{' => match interval(&chars, i) {
                Some((end, _)) => {
                    if let Some(e) = interval_error(&chars[i + 1..end - 1]) {
                        return Some(e.into());
                    }
                    end
                }
                None => i + 1,
            },
            _ => i + 1,
        };
    }
    None
}

/// An interval's body (`2,1` of `{2,1}`).
fn interval_error(body: &[char]) -> Option<&'static str> {
    let body: String = body.iter().collect();
    let bound = |s: &str| (!s.is_empty()).then(|| s.parse::<u64>().unwrap_or(u64::MAX));
    let (lo, hi) = match body.split_once(',') {
        Some((lo, hi)) => (bound(lo), bound(hi)),
        None => (bound(&body), None),
    };
    if lo.into_iter().chain(hi).any(|n| n > MAX_REPEAT) {
        return Some("too big number for repeat range");
    }
    match (lo, hi) {
        (Some(lo), Some(hi)) if hi < lo => Some("upper is smaller than lower in repeat range"),
        _ => None,
    }
}

/// A class's own refusals: a POSIX bracket Onigmo does not know, a range
/// of plain characters whose end comes before its start.
fn class_error(class: &[char]) -> Option<&'static str> {
    let mut i = 1;
    let mut prev: Option<char> = None;
    while i < class.len() {
        let c = class[i];
        match c {
            '\\' => {
                i = escape_end(class, i);
                prev = None;
                continue;
            }
            '[' if class.get(i + 1) == Some(&':') => {
                let close = (i + 2..class.len().saturating_sub(1))
                    .find(|&k| class[k] == ':' && class[k + 1] == ']');
                if let Some(k) = close {
                    let name: String = class[i + 2..k].iter().collect();
                    let name = name.strip_prefix('^').unwrap_or(&name);
                    if !POSIX.contains(&name) {
                        return Some("invalid POSIX bracket type");
                    }
                    i = k + 2;
                    prev = None;
                    continue;
                }
            }
            '-' => {
                if let (Some(start), Some(&end)) = (prev, class.get(i + 1)) {
                    if !matches!(end, '\\' | '[' | ']') && end < start {
                        return Some("empty range in char class");
                    }
                }
            }
            _ => {}
        }
        prev = (!matches!(c, '[' | ']' | '^' | '-')).then_some(c);
        i += 1;
    }
    None
}

/// The capture groups of an expression: how many, and their names.
struct GroupNames {
    count: usize,
    names: Vec<String>,
}

impl GroupNames {
    fn of(chars: &[char]) -> GroupNames {
        let mut groups = GroupNames {
            count: 0,
            names: Vec::new(),
        };
        let mut i = 0;
        while i < chars.len() {
            i = match chars[i] {
                '\\' => escape_end(chars, i),
                '[' => class_end(chars, i),
                '(' if chars[i + 1..].starts_with(&['?', '#']) => comment_end(chars, i),
                '(' => {
                    let rest = &chars[i + 1..];
                    let named = rest.starts_with(&['?', '<'])
                        && !rest.starts_with(&['?', '<', '='])
                        && !rest.starts_with(&['?', '<', '!']);
                    if named || rest.starts_with(&['?', '\'']) {
                        let close = if named { '>' } else { '\'' };
                        let name: String = rest[2..].iter().take_while(|&&c| c != close).collect();
                        groups.names.push(name);
                        groups.count += 1;
                    } else if rest.first() != Some(&'?') {
                        groups.count += 1;
                    }
                    i + 1
                }
                _ => i + 1,
            };
        }
        groups
    }
}

/// A back-reference to no group: `\k<name>` naming none, `\N` past the
/// groups there are (a digit 1 to 9 alone; longer ones may be octal).
fn backref_error(chars: &[char], at: usize, groups: &GroupNames) -> Option<String> {
    match chars.get(at + 1)? {
        'k' if matches!(chars.get(at + 2), Some('<' | '\'')) => {
            let close = if chars[at + 2] == '<' { '>' } else { '\'' };
            let name: String = chars[at + 3..]
                .iter()
                .take_while(|&&c| c != close)
                .collect();
            let numeric = name.trim_start_matches(['-', '+']);
            if !numeric.is_empty() && numeric.chars().all(|c| c.is_ascii_digit()) {
                return None;
            }
            (!groups.names.contains(&name)).then(|| format!("undefined name <{name}> reference"))
        }
        d @ '1'..='9' if !chars.get(at + 2).is_some_and(char::is_ascii_digit) => {
            let n = d.to_digit(10).unwrap_or(0) as usize;
            (n > groups.count && groups.names.is_empty())
                .then(|| "invalid backref number/name".to_string())
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::error;

    /// Ruby 3.1's `Regexp.new(src)` refusals (their text before `: /src/`).
    #[test]
    fn refused_as_onigmo_refuses() {
        for (src, ruby) in [
            ("a{2,1}", "upper is smaller than lower in repeat range"),
            ("[:]{2,1}]", "upper is smaller than lower in repeat range"),
            (
                "a{2,1}b{3,1}",
                "upper is smaller than lower in repeat range",
            ),
            ("a{99999999}", "too big number for repeat range"),
            ("a{100001}", "too big number for repeat range"),
            ("[b-a]", "empty range in char class"),
            ("[z-a]", "empty range in char class"),
            ("[[:foo:]]", "invalid POSIX bracket type"),
            ("(?<n>a)\\k<m>", "undefined name <m> reference"),
            ("\\k<m>", "undefined name <m> reference"),
            ("(a)\\2", "invalid backref number/name"),
            ("\\1", "invalid backref number/name"),
        ] {
            assert_eq!(error(src).as_deref(), Some(ruby), "{src}");
        }
    }

    #[test]
    fn taken_as_onigmo_takes() {
        for src in [
            "a{1,2}",
            "a{2}",
            "[{2,1}]",
            "\\{2,1}",
            "a{,1}",
            "a{3,}",
            "a{100000}",
            "[a-b]",
            "[a-]",
            "[-a]",
            "[[:alpha:][:^digit:]]",
            "(?<n>a)\\k<n>",
            "(a)\\1",
            "(?<n>a)(?<n>b)\\k<n>",
            "(?'n'a)\\k'n'",
            "(a)(?:b)\\1",
            "\\10",
            "x(?#\\1)",
        ] {
            assert_eq!(error(src), None, "{src}");
        }
    }
}
