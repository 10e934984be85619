//! Puppet regular expressions are Ruby's (Onigmo). They run here on
//! `fancy-regex` (backtracking where needed: look-around, back-references,
//! atomic groups, possessive quantifiers, as Onigmo has them), after
//! `puppet_syntax::ruby_regex` has translated the points where Ruby and
//! Rust read the same text differently.
//!
//! Compiled expressions are cached per thread.

use rustc_hash::FxHashMap as HashMap;
use std::cell::RefCell;
use std::sync::Arc;

pub use fancy_regex::Regex;
pub use puppet_syntax::ruby_regex::translate;
use puppet_syntax::ruby_regex::{error_message, onigmo_only_error, translate_with};

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
        let compiled = match onigmo_only_error(source) {
            Some(e) => Err(e),
            None => Regex::new(&translated)
                .map(Arc::new)
                .map_err(|e| error_message(source, &e)),
        };
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
