//! Puppet regular expressions are Ruby's (Onigmo). They run here on
//! `fancy-regex` (backtracking where needed: look-around, back-references,
//! atomic groups, possessive quantifiers, as Onigmo has them), after a
//! translation of the points where Ruby and Rust read the same text
//! differently:
//!
//! - `^` and `$` always match at line boundaries in Ruby: multi-line mode on.
//!   Ruby's `^` is never at the very end after a final newline; only the
//!   Ruby interpreter's expressions (`compile_ruby`: templates' `gsub(/^/,
//!   '  ')` over text ending in a newline) pay for that exactness, as the
//!   look-ahead it takes makes matching many times slower.
//! - Ruby's inline `m` flag is "dot matches newline": `(?m)` becomes `(?s)`.
//! - `\d`, `\w`, `\s`, `\h` are ASCII-only in Ruby: written as ASCII classes;
//!   POSIX bracket classes (`[[:alpha:]]`) are Unicode in Ruby: written with
//!   Unicode properties.
//! - `\Z` (end, or before a final newline) becomes `(?=\n?\z)`; `\/` is `/`;
//!   `(?#...)` comments are dropped.
//!
//! Compiled expressions are cached per thread.

use rustc_hash::FxHashMap as HashMap;
use std::cell::RefCell;
use std::sync::Arc;

pub use fancy_regex::Regex;

/// The translations of one source, each cached apart.
#[derive(Clone, Copy)]
enum Flavour {
    /// Puppet's expressions.
    Puppet = 0,
    /// The Ruby interpreter's (templates, functions): `^` exactly.
    Ruby = 1,
    /// Puppet's, only asked whether they match ([`is_match`]).
    MatchOnly = 2,
}

/// Compiled regexes by source, or the reason one does not compile.
type Compiled = HashMap<String, Result<Arc<Regex>, String>>;

thread_local! {
    /// Per [`Flavour`], keyed by source: a hit is a borrowed lookup, with
    /// no key built.
    static CACHE: RefCell<[Compiled; 3]> =
        RefCell::new(Default::default());
}

/// Compiles a Puppet (Ruby) regular expression given by its source.
pub fn compile(source: &str) -> Result<Arc<Regex>, String> {
    compile_cached(source, Flavour::Puppet)
}

/// `compile` for the Ruby code of templates and functions, with Ruby's `^`
/// exactly (not after a final line break).
pub fn compile_ruby(source: &str) -> Result<Arc<Regex>, String> {
    compile_cached(source, Flavour::Ruby)
}

fn compile_cached(source: &str, flavour: Flavour) -> Result<Arc<Regex>, String> {
    let slot = flavour as usize;
    CACHE.with(|c| {
        if let Some(r) = c.borrow()[slot].get(source) {
            return r.clone();
        }
        let translated = match flavour {
            Flavour::Puppet => translate_with(source, false),
            Flavour::Ruby => translate_with(source, true),
            Flavour::MatchOnly => consume_final_lookahead(translate_with(source, false)),
        };
        let compiled = Regex::new(&translated)
            .map(Arc::new)
            .map_err(|e| error_message(source, &e));
        let cache = &mut c.borrow_mut()[slot];
        if cache.len() > 10_000 {
            cache.clear();
        }
        cache.insert(source.to_string(), compiled.clone());
        compiled
    })
}

/// Does the expression match anywhere in `s` (Ruby's `Regexp#match`)?
/// An expression that does not compile, or runs out of backtracking, does
/// not match.
pub fn is_match(source: &str, s: &str) -> bool {
    match compile_cached(source, Flavour::MatchOnly) {
        Ok(re) => re.is_match(s).unwrap_or(false),
        Err(_) => false,
    }
}

/// For a yes/no match only: a final `\Z` look-ahead, `(?=\n?\z)` with
/// nothing after it but closing groups, made to consume what it looks at.
/// Nothing follows it, so whether there is a match does not change; but
/// with no look-around left the whole expression runs on the `regex`
/// crate's automata instead of fancy-regex's backtracking (Puppet's own
/// patterns end in `\Z`: `getvar`'s cost ~4,000 instructions a check).
fn consume_final_lookahead(translated: String) -> String {
    const LOOK: &str = "(?=\\n?\\z)";
    let Some(at) = translated.rfind(LOOK) else {
        return translated;
    };
    let rest = &translated[at + LOOK.len()..];
    // An odd number of backslashes before it makes its `(` a literal.
    let escaped = translated[..at]
        .bytes()
        .rev()
        .take_while(|&b| b == b'\\')
        .count()
        % 2
        == 1;
    if escaped || !rest.bytes().all(|b| b == b')') {
        return translated;
    }
    format!("{}\\n?\\z{rest}", &translated[..at])
}

/// The message Ruby gives for a bad expression, for the common mistakes;
/// otherwise the engine's own text. Both end with `: /source/`.
fn error_message(source: &str, e: &fancy_regex::Error) -> String {
    let text = e.to_string();
    let lower = text.to_lowercase();
    let msg = if lower.contains("opening parenthesis without closing")
        || lower.contains("unclosed group")
    {
        "end pattern with unmatched parenthesis".to_string()
    } else if lower.contains("closing parenthesis without opening")
        || lower.contains("unopened group")
    {
        "unmatched close parenthesis".to_string()
    } else if lower.contains("character class")
        && (lower.contains("unclosed") || lower.contains("invalid"))
    {
        "premature end of char-class".to_string()
    } else if lower.contains("repetition") || lower.contains("repeat") {
        "target of repeat operator is not specified".to_string()
    } else {
        text
    };
    format!("{msg}: /{source}/")
}

/// Onigmo's POSIX bracket classes on UTF-8 text (Unicode, unlike Rust's
/// ASCII ones), as the items of a nested class; a leading `^` marks the
/// classes defined by what they exclude.
fn posix_class(name: &str) -> Option<&'static str> {
    Some(match name {
        "alnum" => "\\p{L}\\p{M}\\p{Nd}",
        "alpha" => "\\p{L}\\p{M}",
        "blank" => "\\p{Zs}\\t",
        "cntrl" => "\\p{Cc}\\p{Cf}",
        "digit" => "\\p{Nd}",
        "lower" => "\\p{Ll}",
        "upper" => "\\p{Lu}",
        "punct" => "\\p{P}$+<=>\\^`|~",
        "space" => "\\s",
        "word" => "\\w",
        "xdigit" => "0-9A-Fa-f",
        "ascii" => "\\x00-\\x7F",
        "graph" => return Some("^\\s\\p{Cc}\\p{Cf}\\p{Cn}"),
        "print" => return Some("^\\p{Zl}\\p{Zp}\\p{Cc}\\p{Cf}\\p{Cn}\\t\\n\\r\\x0B\\f"),
        _ => return None,
    })
}

/// Rewrites Ruby regex syntax into the syntax `fancy-regex` reads the same way.
pub fn translate(src: &str) -> String {
    translate_with(src, false)
}

fn translate_with(src: &str, exact_caret: bool) -> String {
    let expanded = expand_subexp_calls(src);
    let chars: Vec<char> = expanded.chars().collect();
    let mut out = String::with_capacity(src.len() + 8);
    out.push_str("(?m)");
    let mut i = 0;
    let mut class_depth = 0usize;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\\' if i + 1 < chars.len() => {
                let n = chars[i + 1];
                i += 2;
                let inside = class_depth > 0;
                let rep: Option<&str> = match (n, inside) {
                    ('d', false) => Some("[0-9]"),
                    ('D', false) => Some("[^0-9]"),
                    ('w', false) => Some("[a-zA-Z0-9_]"),
                    ('W', false) => Some("[^a-zA-Z0-9_]"),
                    ('s', false) => Some("[\\t\\n\\x0B\\f\\r ]"),
                    ('S', false) => Some("[^\\t\\n\\x0B\\f\\r ]"),
                    ('h', false) => Some("[0-9a-fA-F]"),
                    ('H', false) => Some("[^0-9a-fA-F]"),
                    ('d', true) => Some("0-9"),
                    ('D', true) => Some("[^0-9]"),
                    ('w', true) => Some("a-zA-Z0-9_"),
                    ('W', true) => Some("[^a-zA-Z0-9_]"),
                    ('s', true) => Some("\\t\\n\\x0B\\f\\r "),
                    ('S', true) => Some("[^\\t\\n\\x0B\\f\\r ]"),
                    ('h', true) => Some("0-9a-fA-F"),
                    ('H', true) => Some("[^0-9a-fA-F]"),
                    ('Z', false) => Some("(?=\\n?\\z)"),
                    ('/', _) => Some("/"),
                    // Ruby's `\0` is NUL (stdlib's Stdlib::Unixpath has `[^\n\/\0]`).
                    ('0', _) if !chars.get(i).is_some_and(|c| ('0'..='7').contains(c)) => {
                        Some("\\x00")
                    }
                    _ => None,
                };
                match rep {
                    Some(r) => out.push_str(r),
                    None => {
                        out.push('\\');
                        out.push(n);
                    }
                }
            }
            '[' => {
                if class_depth > 0 && chars.get(i + 1) == Some(&':') {
                    // POSIX class [:alpha:] inside a bracket expression
                    if let Some(end) = find_seq(&chars, i + 2, &[':', ']']) {
                        let inner: String = chars[i + 2..end].iter().collect();
                        let (negated, name) = match inner.strip_prefix('^') {
                            Some(n) => (true, n),
                            None => (false, inner.as_str()),
                        };
                        match posix_class(name) {
                            Some(items) => {
                                // a nested class, negated when asked (graph and
                                // print are negations themselves)
                                let (items, negated) = match items.strip_prefix('^') {
                                    Some(rest) => (rest, !negated),
                                    None => (items, negated),
                                };
                                out.push('[');
                                if negated {
                                    out.push('^');
                                }
                                out.push_str(items);
                                out.push(']');
                            }
                            None => out.extend(&chars[i..end + 2]),
                        }
                        i = end + 2;
                        continue;
                    }
                }
                class_depth += 1;
                out.push('[');
                i += 1;
                // a leading ']' (after an optional '^') is a literal
                if chars.get(i) == Some(&'^') {
                    out.push('^');
                    i += 1;
                }
                if chars.get(i) == Some(&']') {
                    out.push_str("\\]");
                    i += 1;
                }
            }
            // Ruby's `^` is never at the end after a final line break
            // (`"a\n".gsub(/^/, '  ')` indents one line); Rust's would be.
            '^' if class_depth == 0 && exact_caret => {
                out.push_str("(?:^(?!\\z)|\\A)");
                i += 1;
            }
            ']' if class_depth > 0 => {
                class_depth -= 1;
                out.push(']');
                i += 1;
            }
            '(' if class_depth == 0 && chars.get(i + 1) == Some(&'?') => {
                // comment group
                if chars.get(i + 2) == Some(&'#') {
                    match chars[i..].iter().position(|&x| x == ')') {
                        Some(p) => {
                            i += p + 1;
                            continue;
                        }
                        None => {
                            out.extend(&chars[i..]);
                            break;
                        }
                    }
                }
                // inline flags (?imx-imx) or (?imx-imx:
                let mut j = i + 2;
                while j < chars.len() && matches!(chars[j], 'i' | 'm' | 'x' | '-') {
                    j += 1;
                }
                if j > i + 2 && j < chars.len() && (chars[j] == ')' || chars[j] == ':') {
                    out.push_str("(?");
                    for &f in &chars[i + 2..j] {
                        out.push(if f == 'm' { 's' } else { f });
                    }
                    i = j;
                } else {
                    out.push_str("(?");
                    i += 2;
                }
            }
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

/// Onigmo's subexpression calls `\g<name>` (Puppet's `SemVerQualifier`:
/// `(?<part>[0-9A-Za-z-]+)(?:\.\g<part>)*`), which fancy-regex lacks:
/// each becomes a copy of the named group's body, as a plain group. A
/// recursive call (the body calling itself) is left as it is, and fails to
/// compile as before.
fn expand_subexp_calls(src: &str) -> std::borrow::Cow<'_, str> {
    if !src.contains("\\g<") {
        return std::borrow::Cow::Borrowed(src);
    }
    let mut out = String::with_capacity(src.len() * 2);
    let mut rest = src;
    while let Some(i) = rest.find("\\g<") {
        // An escaped backslash before it (`\\g<`) is no call.
        let escaped = rest[..i].chars().rev().take_while(|c| *c == '\\').count() % 2 == 1;
        let after = &rest[i + 3..];
        let body = after
            .find('>')
            .map(|e| &after[..e])
            .filter(|name| !escaped && !name.is_empty())
            .and_then(|name| group_body(src, name).map(|b| (name, b)))
            .filter(|(name, b)| !b.contains(&format!("\\g<{name}>")));
        match body {
            Some((name, b)) => {
                out.push_str(&rest[..i]);
                out.push_str("(?:");
                out.push_str(b);
                out.push(')');
                rest = &after[name.len() + 1..];
            }
            None => {
                out.push_str(&rest[..i + 3]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    std::borrow::Cow::Owned(out)
}

/// The source between `(?<name>` and its closing parenthesis.
fn group_body<'a>(src: &'a str, name: &str) -> Option<&'a str> {
    let open = format!("(?<{name}>");
    let start = src.find(&open)? + open.len();
    let mut depth = 0usize;
    let mut in_class = false;
    let mut chars = src[start..].char_indices();
    while let Some((k, c)) = chars.next() {
        match c {
            '\\' => {
                chars.next();
            }
            '[' if !in_class => in_class = true,
            ']' if in_class => in_class = false,
            '(' if !in_class => depth += 1,
            ')' if !in_class && depth == 0 => return Some(&src[start..start + k]),
            ')' if !in_class => depth -= 1,
            _ => {}
        }
    }
    None
}

fn find_seq(chars: &[char], from: usize, seq: &[char]) -> Option<usize> {
    (from..chars.len().saturating_sub(seq.len() - 1)).find(|&k| chars[k..].starts_with(seq))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ruby_semantics() {
        // ^ and $ at line boundaries; dot not across lines unless (?m)
        assert!(is_match("^b$", "a\nb"));
        assert!(!is_match("\\Ab\\z", "a\nb"));
        assert!(is_match("b\\Z", "b\n"));
        // A final `\Z` is consumed for a yes/no match: the same answers.
        let getvar = "\\A(?:::)?(?:[a-z]\\w*::)*[a-z_]\\w*(?:\\.|\\Z)";
        assert!(consume_final_lookahead(translate_with(getvar, false)).ends_with("\\n?\\z)"));
        for (s, want) in [
            ("a::b", true),
            ("::a.b", true),
            ("a\n", true),
            ("a\nb", false),
            ("A", false),
            ("a-b", false),
            ("a b", false),
            ("", false),
        ] {
            assert_eq!(is_match(getvar, s), want, "{s:?}");
            assert_eq!(compile(getvar).unwrap().is_match(s).unwrap(), want, "{s:?}");
        }
        assert_eq!(
            consume_final_lookahead("\\(?=\\n?\\z)".into()),
            "\\(?=\\n?\\z)"
        );
        assert_eq!(
            consume_final_lookahead("(?=\\n?\\z)a".into()),
            "(?=\\n?\\z)a"
        );
        // subexpression calls, as Puppet's SemVerQualifier has them
        let q = "\\A(?<part>[0-9A-Za-z-]+)(?:\\.\\g<part>)*\\Z";
        assert!(is_match(q, "rc.1.a-b"));
        assert!(!is_match(q, "rc..1"));
        assert!(!is_match(q, "bad qualifier"));
        assert!(!is_match("a.b", "a\nb"));
        assert!(is_match("(?m)a.b", "a\nb"));
        // `^` at the start, after inner line breaks, not after a final one
        // (for the Ruby interpreter)
        let ruby = |p: &str, s: &str| compile_ruby(p).unwrap().is_match(s).unwrap();
        assert!(ruby("^$", ""));
        assert!(ruby("^$", "a\n\nb"));
        assert!(!ruby("^$", "a\n"));
        assert!(ruby("[^a]", "b"));
        assert!(is_match("^$", "a\n"));
        // ASCII \d \w \s, Unicode POSIX classes
        assert!(!is_match("^\\w$", "\u{e9}"));
        assert!(is_match("^[[:alpha:]]$", "\u{e9}"));
        assert!(is_match("^[^[:alpha:]]$", "1"));
        assert!(!is_match("^[^[:alpha:]]$", "x"));
        assert!(is_match("^[[:^alpha:]]$", "1"));
        assert!(is_match("^[\\d_]+$", "1_2"));
        assert!(!is_match("^[\\d]$", "\u{663}"));
        assert!(is_match("^[\\D]$", "x"));
        assert!(is_match("^\\h+$", "09af"));
        // slashes, back-references, look-around, comments
        assert!(is_match("a\\/b", "a/b"));
        assert!(is_match("(abc)\\1", "abcabc"));
        assert!(is_match("a(?=b)", "ab"));
        assert!(is_match("a(?#note)b", "ab"));
        assert!(is_match("(?i-mx:FOO)", "foo"));
        assert!(is_match("[]a]", "]"));
        assert_eq!(
            compile("a(").unwrap_err(),
            "end pattern with unmatched parenthesis: /a(/"
        );
    }
}

/// Ruby's `Regexp#to_s` of a regular expression whose source is `src` (and
/// no options of its own, as Puppet makes them): `(?-mix:src)`, with the
/// leading option groups folded in as Ruby's `rb_reg_to_s` folds them
/// (`(?i)a` is `(?i-mx:a)`, `(?m:a)` is `(?m-ix:a)`), and `/` escaped.
pub fn ruby_to_s(src: &str) -> String {
    let opt = |c: u8| match c {
        b'i' => 1u8,
        b'x' => 2,
        b'm' => 4,
        _ => 0,
    };
    let b = src.as_bytes();
    let (mut options, mut body) = (0u8, 0usize);
    // `(?on-off)` groups, then at most one `(?on-off:...)` around the rest.
    loop {
        let rest = &b[body..];
        if rest.len() < 4 || !rest.starts_with(b"(?") {
            break;
        }
        let (mut p, mut on) = (2, options);
        while p < rest.len() && opt(rest[p]) != 0 {
            on |= opt(rest[p]);
            p += 1;
        }
        if p + 1 < rest.len() && rest[p] == b'-' {
            p += 1;
            while p < rest.len() && opt(rest[p]) != 0 {
                on &= !opt(rest[p]);
                p += 1;
            }
        }
        match rest.get(p) {
            Some(b')') => {
                options = on;
                body += p + 1;
            }
            Some(b':') if rest.ends_with(b")") && group_closes_at_end(&rest[p + 1..]) => {
                options = on;
                return format_ruby_regexp(options, &src[body + p + 1..src.len() - 1]);
            }
            _ => break,
        }
    }
    format_ruby_regexp(options, &src[body..])
}

/// Whether the group opened before `inner` closes at its last byte (a
/// `(?i:a)|(b)` does not: Ruby then keeps the source as it is).
fn group_closes_at_end(inner: &[u8]) -> bool {
    let (mut depth, mut i, mut in_class) = (1usize, 0, false);
    while i < inner.len() {
        match inner[i] {
            b'\\' => i += 1,
            b'[' => in_class = true,
            b']' => in_class = false,
            b'(' if !in_class => depth += 1,
            b')' if !in_class => {
                depth -= 1;
                if depth == 0 {
                    return i == inner.len() - 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    false
}

fn format_ruby_regexp(options: u8, body: &str) -> String {
    let flags = |set: u8| -> String {
        [(4u8, 'm'), (1, 'i'), (2, 'x')]
            .iter()
            .filter(|(bit, _)| set & bit != 0)
            .map(|(_, c)| *c)
            .collect()
    };
    let mut out = format!("(?{}", flags(options));
    if options != 7 {
        out.push('-');
        out.push_str(&flags(!options & 7));
    }
    out.push(':');
    let mut escaped = false;
    for c in body.chars() {
        if c == '/' && !escaped {
            out.push('\\');
        }
        escaped = c == '\\' && !escaped;
        out.push(c);
    }
    out.push(')');
    out
}

#[cfg(test)]
mod ruby_to_s_tests {
    use super::ruby_to_s;

    /// Each expectation is Ruby 3.1's `Regexp.new(src).to_s`.
    #[test]
    fn folds_leading_option_groups_as_ruby() {
        for (src, ruby) in [
            ("a", "(?-mix:a)"),
            ("(?i)a", "(?i-mx:a)"),
            ("(?i:a)", "(?i-mx:a)"),
            ("(?m)a(?i)b", "(?m-ix:a(?i)b)"),
            ("(?i:a)|(b)", "(?-mix:(?i:a)|(b))"),
            ("(?mix)a", "(?mix:a)"),
            ("(?i-m)(?x)a", "(?ix-m:a)"),
            ("a/b", "(?-mix:a\\/b)"),
            ("^\\d+$", "(?-mix:^\\d+$)"),
        ] {
            assert_eq!(ruby_to_s(src), ruby, "{src}");
        }
    }
}
