//! Ruby's regular expressions (Onigmo), as Puppet's regex literals and
//! the Ruby code of templates and functions write them, rewritten for
//! `fancy-regex` (which runs them in `puppet-model`), and the errors Ruby
//! gives for the ones it refuses. The lexer asks [`literal_error`] of every
//! regex literal: Puppet's lexer makes each with `Regexp.new`, so a bad one
//! fails the whole file, evaluated or not.
//!
//! What the translation changes:
//!
//! - `^` and `$` always match at line boundaries in Ruby: multi-line mode on.
//!   Ruby's `^` is never at the very end after a final newline; only the
//!   Ruby interpreter's expressions (`exact_caret`: templates' `gsub(/^/,
//!   '  ')` over text ending in a newline) pay for that exactness, as the
//!   look-ahead it takes makes matching many times slower.
//! - Ruby's inline `m` flag is "dot matches newline": `(?m)` becomes `(?s)`.
//! - `\d`, `\w`, `\s`, `\h` are ASCII-only in Ruby: written as ASCII classes;
//!   POSIX bracket classes (`[[:alpha:]]`) are Unicode in Ruby: written with
//!   Unicode properties.
//! - `\Z` (end, or before a final newline) becomes `(?=\n?\z)`; `\/` is `/`;
//!   `(?#...)` comments are dropped.
//! - A repeat of a repeat (`a**`) becomes a repeat of a group, and `{,m}`
//!   is written `{0,m}` ([`repeats`]).

mod onigmo;
mod repeats;

/// The message Ruby gives for a bad expression, for the common mistakes;
/// otherwise the engine's own text. Both end with `: /source/`.
pub fn error_message(source: &str, e: &fancy_regex::Error) -> String {
    let text = e.to_string();
    let msg = ruby_error(&text).unwrap_or(&text);
    format!("{msg}: /{}/", described(source))
}

/// Ruby's `RegexpError` for a regex literal Onigmo refuses (`/a(/`), as
/// Puppet's lexer raises it from `Regexp.new`: `None` when the expression
/// compiles, and when the engine refuses it for a reason other than
/// Ruby's common ones (a construct the translation does not cover is then
/// an error of the evaluation that uses it, not of the file).
pub fn literal_error(source: &str) -> Option<String> {
    if let Some(e) = onigmo_only_error(source) {
        return Some(e);
    }
    let e = fancy_regex::Regex::new(&translate(source)).err()?;
    let msg = ruby_error(&e.to_string()).filter(|m| ruby_refuses(source, m))?;
    Some(format!("{msg}: /{}/", described(source)))
}

/// Ruby's `RegexpError` for an expression Onigmo refuses where the engine
/// would take it or refuse it in its own words ([`onigmo`]: intervals,
/// ranges and POSIX brackets of classes, back-references to no group).
pub fn onigmo_only_error(source: &str) -> Option<String> {
    let msg = onigmo::error(source)?;
    Some(format!("{msg}: /{}/", described(source)))
}

/// The source as Ruby's `rb_reg_desc` writes it into an error (UTF-8
/// throughout): as it is, unless it holds a `/` or an ASCII character that
/// is not printable (a line break, a tab); then each `/` is escaped, each
/// character beyond ASCII written `\uXXXX`, and each control character
/// other than white space `\xXX` (a backslash keeps the character after it).
fn described(source: &str) -> std::borrow::Cow<'_, str> {
    let plain = source
        .chars()
        .all(|c| !c.is_ascii() || (c != '/' && (' '..='~').contains(&c)));
    if plain {
        return std::borrow::Cow::Borrowed(source);
    }
    let mut out = String::with_capacity(source.len() + 8);
    let mut chars = source.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                out.push(c);
                if let Some(next) = chars.next() {
                    out.push(next);
                }
            }
            '/' => out.push_str("\\/"),
            ' '..='~' | '\t' | '\n' | '\x0B' | '\x0C' | '\r' => out.push(c),
            c if c.is_ascii() => out.push_str(&format!("\\x{:02X}", c as u32)),
            c if (c as u32) < 0x10000 => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push_str(&format!("\\u{{{:X}}}", c as u32)),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Onigmo's text for the engine's error `text`, where the two mean the
/// same mistake.
fn ruby_error(text: &str) -> Option<&'static str> {
    let lower = text.to_lowercase();
    if lower.contains("invalid hex escape") {
        Some("invalid hex escape")
    } else if lower.contains("unknown group flag") {
        Some("undefined group option")
    } else if lower.contains("opening parenthesis without closing")
        || lower.contains("unclosed group")
    {
        Some(UNMATCHED_OPEN)
    } else if lower.contains("closing parenthesis without opening")
        || lower.contains("unopened group")
        // fancy-regex stops its top level at a `)` it did not open.
        || lower.contains("end of string not reached")
    {
        Some("unmatched close parenthesis")
    } else if lower.contains("character class")
        && (lower.contains("unclosed") || lower.contains("invalid"))
    {
        Some(UNCLOSED_CLASS)
    } else if lower.contains("repetition") || lower.contains("repeat") {
        Some(NO_REPEAT_TARGET)
    } else {
        None
    }
}

const UNMATCHED_OPEN: &str = "end pattern with unmatched parenthesis";
const UNCLOSED_CLASS: &str = "premature end of char-class";
const NO_REPEAT_TARGET: &str = "target of repeat operator is not specified";

/// Whether Onigmo refuses the source as [`ruby_error`] names it, where
/// the engine's refusal is not a construct Onigmo takes and fancy-regex
/// does not: `[z-a]` (whose Ruby text differs) is left to the evaluation.
fn ruby_refuses(source: &str, msg: &str) -> bool {
    match msg {
        UNCLOSED_CLASS => !source.contains(']'),
        NO_REPEAT_TARGET => repeat_without_target(source),
        _ => true,
    }
}

/// A `*`, `+` or `?` at the start, or right after an unescaped `(` or `|`
/// outside a class.
fn repeat_without_target(source: &str) -> bool {
    let (mut prev, mut escaped, mut class) = (None, false, 0usize);
    for c in source.chars() {
        if escaped {
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else if c == '[' {
            class += 1;
        } else if c == ']' && class > 0 {
            class -= 1;
        } else if class == 0
            && matches!(c, '*' | '+' | '?')
            && matches!(prev, None | Some('(' | '|'))
        {
            return true;
        }
        prev = Some(c);
    }
    false
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

pub fn translate_with(src: &str, exact_caret: bool) -> String {
    let expanded = expand_subexp_calls(src);
    let expanded = repeats::rewrite(&expanded);
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
