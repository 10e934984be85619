//! Ruby's repeat operators where fancy-regex reads them otherwise.
//!
//! Onigmo takes a repeat of a repeat (`a**`, `a+*`, `a{2}*`, `a*{2}`,
//! `a*?*`) as a nested repeat, with a warning; fancy-regex refuses it. Each
//! becomes a repeat of a group, `(?:a*)*`, which matches as Onigmo's does.
//! A `?` after a repeat makes it lazy and a `+` after `*`, `+` or `?`
//! possessive, in both; but `{n,m}+` is possessive only in fancy-regex, in
//! Ruby a nested repeat (`(?:a{n,m})+`).
//!
//! Ruby's `{,m}` (zero to m) is written `{0,m}`, and a `{` that starts no
//! interval (`{,}`, `x{`) escaped: Onigmo takes it as itself.

use std::borrow::Cow;

/// The last item written, as far as a repeat after it cares.
#[derive(Clone, Copy, PartialEq)]
enum Last {
    /// Nothing a repeat applies to (the start, `(`, `|`).
    Nothing,
    /// An atom: a character, an escape, a class, a group.
    Atom,
    /// `*`, `+` or `?`.
    Simple,
    /// `{n,m}`.
    Interval,
    /// A repeat made lazy or possessive: any repeat after it nests.
    Modified,
}

/// The source with nested repeats grouped and `{,m}` written `{0,m}`
/// (borrowed when neither occurs).
pub(super) fn rewrite(src: &str) -> Cow<'_, str> {
    if !src.contains(['*', '+', '?', '{']) {
        return Cow::Borrowed(src);
    }
    let chars: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len() + 8);
    let mut changed = false;
    // Where in `out` the last atom starts, and the groups still open.
    let mut atom_start = 0;
    let mut groups: Vec<usize> = Vec::new();
    let mut last = Last::Nothing;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let repeat = match c {
            '*' | '+' | '?' => Some((Last::Simple, i + 1, None)),
            '{' => interval(&chars, i).map(|(end, lower)| (Last::Interval, end, lower)),
            _ => None,
        };
        if let Some((kind, end, lower)) = repeat {
            let modifier = matches!((last, c), (Last::Simple, '?' | '+') | (Last::Interval, '?'));
            if modifier {
                last = Last::Modified;
            } else {
                if matches!(last, Last::Simple | Last::Interval | Last::Modified) {
                    out.insert_str(atom_start, "(?:");
                    out.push(')');
                    changed = true;
                }
                last = if last == Last::Nothing {
                    Last::Nothing
                } else {
                    kind
                };
            }
            match lower {
                // `{,m}`: the bound Onigmo leaves out, written.
                Some(false) => {
                    out.push_str("{0");
                    out.extend(&chars[i + 1..end]);
                    changed = true;
                }
                _ => out.extend(&chars[i..end]),
            }
            i = end;
            continue;
        }
        let start = out.len();
        let end = match c {
            '\\' => escape_end(&chars, i),
            '[' => class_end(&chars, i),
            '{' => {
                // Not an interval: a plain character in Onigmo, which
                // fancy-regex would take for one (`{,}`).
                out.push_str("\\{");
                changed = true;
                atom_start = start;
                last = Last::Atom;
                i += 1;
                continue;
            }
            '(' if chars[i + 1..].starts_with(&['?', '#']) => {
                // A comment: nothing a repeat applies to.
                let end = comment_end(&chars, i);
                out.extend(&chars[i..end]);
                i = end;
                continue;
            }
            '(' => {
                groups.push(start);
                last = Last::Nothing;
                out.push(c);
                i += 1;
                continue;
            }
            ')' => {
                if let Some(open) = groups.pop() {
                    atom_start = open;
                    last = Last::Atom;
                }
                out.push(c);
                i += 1;
                continue;
            }
            '|' => {
                last = Last::Nothing;
                out.push(c);
                i += 1;
                continue;
            }
            _ => i + 1,
        };
        atom_start = start;
        last = Last::Atom;
        out.extend(&chars[i..end]);
        i = end;
    }
    if changed {
        Cow::Owned(out)
    } else {
        Cow::Borrowed(src)
    }
}

/// The end of the comment `(?#...)` at `chars[at]`, past its `)`.
pub(super) fn comment_end(chars: &[char], at: usize) -> usize {
    chars[at..]
        .iter()
        .position(|&c| c == ')')
        .map_or(chars.len(), |p| at + p + 1)
}

/// An interval starting at `chars[at]` (`{`): its end (past `}`) and
/// whether it has a lower bound. Onigmo's forms are `{n}`, `{n,}`,
/// `{,m}` and `{n,m}`; any other `{` is a plain character.
pub(super) fn interval(chars: &[char], at: usize) -> Option<(usize, Option<bool>)> {
    let digits = |from: usize| {
        chars[from..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count()
    };
    let lower = digits(at + 1);
    let mut i = at + 1 + lower;
    let mut upper = 0;
    if chars.get(i) == Some(&',') {
        upper = digits(i + 1);
        i += 1 + upper;
    }
    (chars.get(i) == Some(&'}') && lower + upper > 0).then_some((i + 1, Some(lower > 0)))
}

/// The end of the escape at `chars[at]` (`\`): the escaped character and
/// what belongs to it (`\p{Alpha}`, `\k<name>`, `\x41`, `\u00e9`, `\101`).
pub(super) fn escape_end(chars: &[char], at: usize) -> usize {
    let Some(&n) = chars.get(at + 1) else {
        return chars.len();
    };
    let after = at + 2;
    let close = match (n, chars.get(after)) {
        ('p' | 'P' | 'x' | 'u', Some('{')) => Some('}'),
        ('k' | 'g', Some('<')) => Some('>'),
        ('k' | 'g', Some('\'')) => Some('\''),
        _ => None,
    };
    if let Some(close) = close {
        return chars[after + 1..]
            .iter()
            .position(|&c| c == close)
            .map_or(chars.len(), |p| after + 1 + p + 1);
    }
    let (max, digit): (usize, fn(&char) -> bool) = match n {
        'x' => (2, char::is_ascii_hexdigit),
        'u' => (4, char::is_ascii_hexdigit),
        '0'..='7' => (2, |c| ('0'..='7').contains(c)),
        _ => (0, char::is_ascii_digit),
    };
    after
        + chars[after..]
            .iter()
            .take(max)
            .take_while(|c| digit(c))
            .count()
}

/// The end of the class at `chars[at]` (`[`), past its `]`: nested
/// classes, escapes, POSIX brackets and a leading `]` taken as Onigmo
/// takes them.
pub(super) fn class_end(chars: &[char], at: usize) -> usize {
    let mut depth = 0usize;
    let mut i = at;
    while i < chars.len() {
        match chars[i] {
            '\\' => {
                i = escape_end(chars, i);
                continue;
            }
            '[' if depth > 0 && chars.get(i + 1) == Some(&':') => {
                // `[:alpha:]`: to its `:]`, or a plain `[` without one.
                let close = (i + 2..chars.len().saturating_sub(1))
                    .find(|&k| chars[k] == ':' && chars[k + 1] == ']');
                i = close.map_or(i + 1, |k| k + 2);
                continue;
            }
            '[' => {
                depth += 1;
                i += 1;
                // A `]` first (after an optional `^`) is a character.
                if chars.get(i) == Some(&'^') {
                    i += 1;
                }
                if chars.get(i) == Some(&']') {
                    i += 1;
                }
                continue;
            }
            ']' => {
                depth = depth.saturating_sub(1);
                i += 1;
                if depth == 0 {
                    return i;
                }
                continue;
            }
            _ => i += 1,
        }
    }
    chars.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_repeats_become_groups() {
        for (ruby, rewritten) in [
            ("a**", "(?:a*)*"),
            ("a+*", "(?:a+)*"),
            ("a{2}*", "(?:a{2})*"),
            ("a{2,3}+", "(?:a{2,3})+"),
            ("a*{2}", "(?:a*){2}"),
            ("a**?", "(?:a*)*?"),
            ("a*?*", "(?:a*?)*"),
            ("a+?+", "(?:a+?)+"),
            ("a*+*", "(?:a*+)*"),
            ("(ab)**", "(?:(ab)*)*"),
            ("x[ab]*{2}", "x(?:[ab]*){2}"),
            ("\\d+*", "(?:\\d+)*"),
            ("\\p{Alpha}**", "(?:\\p{Alpha}*)*"),
            ("\\x41**", "(?:\\x41*)*"),
            ("a{,2}", "a{0,2}"),
            ("a{,}", "a\\{,}"),
            ("x{a}*", "x\\{a}*"),
            ("b|a***", "b|(?:(?:a*)*)*"),
        ] {
            assert_eq!(rewrite(ruby), rewritten, "{ruby}");
        }
    }

    #[test]
    fn what_both_read_alike_is_kept() {
        for same in [
            "a*",
            "a*?",
            "a*+",
            "a?+",
            "a{2}?",
            "[*+]*",
            "\\**",
            "(?#a**)b",
            "\\p{L}{2}",
            "[]*]+",
            "*a",
            "[:]+",
            "[[:alpha:]]*",
        ] {
            assert_eq!(rewrite(same), same, "{same}");
        }
    }

    /// The first match Ruby 3.1 (Onigmo) finds, as `Regexp.new(src).match(s)[0]`.
    #[test]
    fn matches_as_ruby_does() {
        for (src, s, ruby) in [
            ("a**", "aaa", "aaa"),
            ("a+*", "aaa", "aaa"),
            ("a?*", "", ""),
            ("a*+", "aaa", "aaa"),
            ("a++", "aaa", "aaa"),
            ("a?+", "a", "a"),
            ("a{2}*", "aaaa", "aaaa"),
            ("a{2}+", "aaaa", "aaaa"),
            ("a{2,3}+", "aaaaaa", "aaaaaa"),
            ("a{,2}", "aa", "aa"),
            ("(ab)**", "abab", "abab"),
            ("[ab]*{2}", "ab", "ab"),
            ("a*{2}", "aa", "aa"),
            ("a**?", "aa", ""),
            ("a*?*", "aa", ""),
            ("a+?+", "aa", "aa"),
            ("x{", "x{", "x{"),
            ("a{1,2}{3}", "aaa", "aaa"),
            ("a{,}", "a{,}", "a{,}"),
            ("a{}", "a{}", "a{}"),
            ("\\d{2}?", "12", "12"),
        ] {
            let re = fancy_regex::Regex::new(&super::super::translate(src))
                .unwrap_or_else(|e| panic!("{src}: {e}"));
            let found = re.find(s).ok().flatten().map(|m| m.as_str());
            assert_eq!(found, Some(ruby), "{src} on {s:?}");
        }
    }
}
