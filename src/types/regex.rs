//! Puppet regular expressions are Ruby's (Onigmo). They run here on
//! `fancy-regex` (backtracking where needed: look-around, back-references,
//! atomic groups, possessive quantifiers, as Onigmo has them), after a
//! translation of the points where Ruby and Rust read the same text
//! differently:
//!
//! - `^` and `$` always match at line boundaries in Ruby: multi-line mode on.
//! - Ruby's inline `m` flag is "dot matches newline": `(?m)` becomes `(?s)`.
//! - `\d`, `\w`, `\s`, `\h` are ASCII-only in Ruby: written as ASCII classes.
//! - `\Z` (end, or before a final newline) becomes `(?=\n?\z)`; `\/` is `/`;
//!   `(?#...)` comments are dropped.
//!
//! Compiled expressions are cached per thread.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

pub use fancy_regex::Regex;

thread_local! {
    static CACHE: RefCell<HashMap<String, Result<Arc<Regex>, String>>> = RefCell::new(HashMap::new());
}

/// Compiles a Puppet (Ruby) regular expression given by its source.
pub fn compile(source: &str) -> Result<Arc<Regex>, String> {
    CACHE.with(|c| {
        if let Some(r) = c.borrow().get(source) {
            return r.clone();
        }
        let compiled = Regex::new(&translate(source))
            .map(Arc::new)
            .map_err(|e| error_message(source, &e));
        let mut cache = c.borrow_mut();
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
    match compile(source) {
        Ok(re) => re.is_match(s).unwrap_or(false),
        Err(_) => false,
    }
}

/// The message Ruby gives for a bad expression, for the common mistakes;
/// otherwise the engine's own text. Both end with `: /source/`.
fn error_message(source: &str, e: &fancy_regex::Error) -> String {
    let text = e.to_string();
    let lower = text.to_lowercase();
    let msg = if lower.contains("unclosed group") || lower.contains("unclosed open paren") {
        "end pattern with unmatched parenthesis".to_string()
    } else if lower.contains("unopened group") || lower.contains("unmatched close paren") {
        "unmatched close parenthesis".to_string()
    } else if lower.contains("unclosed character class") {
        "premature end of char-class".to_string()
    } else if lower.contains("repetition operator missing expression")
        || lower.contains("target of repeat operator is invalid")
    {
        "target of repeat operator is not specified".to_string()
    } else {
        text
    };
    format!("{msg}: /{source}/")
}

/// Rewrites Ruby regex syntax into the syntax `fancy-regex` reads the same way.
pub fn translate(src: &str) -> String {
    let chars: Vec<char> = src.chars().collect();
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
                    ('D', true) => Some("[:^digit:]"),
                    ('w', true) => Some("a-zA-Z0-9_"),
                    ('W', true) => Some("[:^word:]"),
                    ('s', true) => Some("\\t\\n\\x0B\\f\\r "),
                    ('S', true) => Some("[:^space:]"),
                    ('h', true) => Some("0-9a-fA-F"),
                    ('H', true) => Some("[:^xdigit:]"),
                    ('Z', false) => Some("(?=\\n?\\z)"),
                    ('/', _) => Some("/"),
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
                        out.extend(&chars[i..end + 2]);
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

fn find_seq(chars: &[char], from: usize, seq: &[char]) -> Option<usize> {
    (from..chars.len().saturating_sub(seq.len() - 1)).find(|&k| chars[k..].starts_with(seq))
}
