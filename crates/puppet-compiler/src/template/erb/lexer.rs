//! ERB's scanner (trim mode `-`, as Puppet uses it) and the lexer of the
//! Ruby subset templates use.
//!
//! The scanner cuts a template into text, code (`<% %>`), output
//! (`<%= %>`) and comments as Ruby's `ERB::Compiler` does: `<%-` at the start
//! of a line drops the line's indentation, `-%>` followed by a newline drops
//! the newline, `<%%` is a literal `<%` in text and `%%>` a literal `%>` in
//! code. The lexer then turns the whole template into one token stream in
//! which text and output markers are tokens, because a Ruby statement may
//! span several tags (`<% if x %>text<% end %>`).

#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    Int(i64),
    /// A decimal literal past 64 bits (a Bignum in Ruby), by its digits.
    BigInt(String),
    Float(f64),
    /// A string with its interpolations (`#{...}` kept as source).
    Str(Vec<Piece>),
    Sym(String),
    DSym(Vec<Piece>),
    Regex(Vec<Piece>, String),
    /// `%w[...]` words.
    Words(Vec<String>),
    Ident(String),
    Const(String),
    IVar(String),
    /// `$1`: a match group of the last regex match.
    GVar(String),
    /// `key:` in a hash or argument list.
    Label(String),
    Punct(&'static str),
    Newline,
    /// Template text between tags.
    Text(String),
    /// `<%=` ... `%>`.
    OutStart,
    OutEnd,
    Eof,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Piece {
    Lit(String),
    /// Source of an interpolation and its line.
    Code(String, usize),
}

#[derive(Clone, Debug)]
pub struct Token {
    pub tok: Tok,
    pub line: usize,
    /// Whitespace came right before the token (`foo [1]`, `x -1`, `a ?b`).
    pub space_before: bool,
}

pub type LexError = (String, usize);

enum Seg {
    Text(String),
    Code(String, usize),
    Out(String, usize),
}

/// ERB's trim-mode `-` scan of a template into segments.
fn scan(src: &str) -> Result<Vec<Seg>, LexError> {
    let mut segs = Vec::new();
    let mut text = String::new();
    let b = src.as_bytes();
    let mut i = 0;
    let mut line = 1;
    while i < b.len() {
        if b[i..].starts_with(b"<%%") {
            text.push_str("<%");
            i += 3;
            continue;
        }
        if b[i..].starts_with(b"<%") {
            let start_line = line;
            let mut j = i + 2;
            let mut kind = 0; // 0 code, 1 out, 2 comment
            if b.get(j) == Some(&b'-') {
                // `<%-`: drop this line's indentation when only blanks
                // precede the tag in the source (ERB's `^[ \t]*<%-`).
                let mut s = i;
                while s > 0 && (b[s - 1] == b' ' || b[s - 1] == b'\t') {
                    s -= 1;
                }
                if (s == 0 || b[s - 1] == b'\n') && text.len() >= i - s {
                    text.truncate(text.len() - (i - s));
                }
                j += 1;
            } else if b.get(j) == Some(&b'=') {
                kind = 1;
                j += 1;
            } else if b.get(j) == Some(&b'#') {
                kind = 2;
                j += 1;
            }
            // The code runs to the first `%>` not written `%%>`.
            let mut code = String::new();
            let mut k = j;
            let mut closed = false;
            let mut trim_newline = false;
            while k < b.len() {
                if b[k..].starts_with(b"%%>") {
                    code.push_str("%>");
                    k += 3;
                    continue;
                }
                if b[k..].starts_with(b"-%>") {
                    k += 3;
                    closed = true;
                    trim_newline = true;
                    break;
                }
                if b[k..].starts_with(b"%>") {
                    k += 2;
                    closed = true;
                    break;
                }
                let ch = src[k..].chars().next().unwrap_or(' ');
                code.push(ch);
                k += ch.len_utf8();
            }
            if !closed {
                return Err(("unterminated ERB tag (no '%>')".into(), start_line));
            }
            line += code.matches('\n').count();
            if trim_newline {
                if b[k..].starts_with(b"\n") {
                    k += 1;
                    line += 1;
                } else if b[k..].starts_with(b"\r\n") {
                    k += 2;
                    line += 1;
                }
            }
            if !text.is_empty() {
                segs.push(Seg::Text(std::mem::take(&mut text)));
            }
            match kind {
                0 => segs.push(Seg::Code(code, start_line)),
                1 => segs.push(Seg::Out(code, start_line)),
                _ => segs.push(Seg::Text(String::new())),
            }
            i = k;
            continue;
        }
        let ch = src[i..].chars().next().unwrap_or(' ');
        if ch == '\n' {
            line += 1;
        }
        text.push(ch);
        i += ch.len_utf8();
    }
    if !text.is_empty() {
        segs.push(Seg::Text(text));
    }
    Ok(segs)
}

/// The template as one token stream.
pub fn lex_template(src: &str) -> Result<Vec<Token>, LexError> {
    let mut out = Vec::new();
    let mut line = 1;
    for seg in scan(src)? {
        match seg {
            Seg::Text(t) => {
                let l = line;
                line += t.matches('\n').count();
                out.push(Token {
                    tok: Tok::Text(t),
                    line: l,
                    space_before: true,
                });
            }
            Seg::Code(c, l) => {
                line = l + c.matches('\n').count();
                lex_code(&c, l, &mut out)?;
                out.push(Token {
                    tok: Tok::Newline,
                    line,
                    space_before: true,
                });
            }
            Seg::Out(c, l) => {
                line = l + c.matches('\n').count();
                out.push(Token {
                    tok: Tok::OutStart,
                    line: l,
                    space_before: true,
                });
                lex_code(&c, l, &mut out)?;
                out.push(Token {
                    tok: Tok::OutEnd,
                    line,
                    space_before: true,
                });
            }
        }
    }
    out.push(Token {
        tok: Tok::Eof,
        line,
        space_before: true,
    });
    Ok(out)
}

const PUNCTS: [&str; 41] = [
    "**=", "**", "...", "<=>", "===", "||=", "&&=", "==", "!=", "=~", "!~", ">=", "<=", "&&", "||",
    "..", "::", "+=", "-=", "*=", "<<", ">>", "=>", "->", "&.", "+", "-", "*", "/", "%", "=", "<",
    ">", "!", "?", ":", ".", ",", "(", ")", "|",
];
const PUNCTS1: [&str; 6] = ["[", "]", "{", "}", ";", "&"];

fn ends_value(t: Option<&Token>) -> bool {
    matches!(
        t.map(|t| &t.tok),
        Some(
            Tok::Int(_)
                | Tok::BigInt(_)
                | Tok::Float(_)
                | Tok::Str(_)
                | Tok::Sym(_)
                | Tok::DSym(_)
                | Tok::Regex(..)
                | Tok::Words(_)
                | Tok::Ident(_)
                | Tok::Const(_)
                | Tok::IVar(_)
                | Tok::GVar(_)
                | Tok::Punct(")")
                | Tok::Punct("]")
                | Tok::Punct("}")
        )
    )
}

/// Tokens after which a newline does not end the statement.
fn continues(t: Option<&Token>) -> bool {
    match t.map(|t| &t.tok) {
        Some(Tok::Punct(p)) => !matches!(*p, ")" | "]" | "}" | ";"),
        Some(Tok::Newline) | Some(Tok::Label(_)) => true,
        Some(Tok::Ident(k)) => matches!(k.as_str(), "and" | "or" | "not"),
        None => true,
        _ => false,
    }
}

/// Keeps the bracket stack through `do ... end` blocks: inside one, even
/// within `(` or `[` (`Hash[list.map do |k| ... end]`), newlines end
/// statements again. Inside a `do` block (`d`), the other constructs that
/// close with `end` (`k`) are counted so that `end` closes the right one;
/// `if`/`unless`/`while`/`until` only where a statement starts (not as
/// modifiers).
fn track_keyword(brackets: &mut Vec<u8>, word: &str, prev: Option<&Token>) {
    let in_block = matches!(brackets.last(), Some(b'd' | b'k'));
    match word {
        "do" => brackets.push(b'd'),
        "end" if in_block => {
            brackets.pop();
        }
        "begin" | "case" | "def" | "class" | "module" if in_block => brackets.push(b'k'),
        "if" | "unless" | "while" | "until" if in_block => {
            let starts = match prev.map(|t| &t.tok) {
                None | Some(Tok::Newline) => true,
                Some(Tok::Punct(p)) => matches!(*p, ";" | "=" | "(" | "[" | "," | "{" | "||="),
                Some(Tok::Ident(k)) => {
                    matches!(k.as_str(), "then" | "else" | "do" | "return" | "begin")
                }
                _ => false,
            };
            if starts {
                brackets.push(b'k');
            }
        }
        _ => {}
    }
}

/// Lexes Ruby code starting at `line`, appending to `out`.
pub fn lex_code(src: &str, mut line: usize, out: &mut Vec<Token>) -> Result<(), LexError> {
    let b = src.as_bytes();
    let mut i = 0;
    // Open brackets: newlines inside `(` and `[` do not end statements,
    // inside `{` (blocks) they do.
    let mut brackets: Vec<u8> = Vec::new();
    let mut space = true;
    let base = out.len();
    while i < b.len() {
        let c = b[i];
        let prev = if out.len() > base { out.last() } else { None };
        let push = |out: &mut Vec<Token>, tok: Tok, line: usize, space: bool| {
            out.push(Token {
                tok,
                line,
                space_before: space,
            })
        };
        match c {
            b' ' | b'\t' | b'\r' => {
                i += 1;
                space = true;
                continue;
            }
            b'\\' if b.get(i + 1) == Some(&b'\n') => {
                i += 2;
                line += 1;
                space = true;
                continue;
            }
            b'\n' => {
                i += 1;
                line += 1;
                space = true;
                // A leading `.` on the next line continues the expression.
                let rest = src[i..].trim_start();
                let leading_dot =
                    rest.starts_with('.') && !rest.starts_with("..") || rest.starts_with("&.");
                if !matches!(brackets.last(), Some(b'(') | Some(b'['))
                    && !continues(prev)
                    && !leading_dot
                {
                    push(out, Tok::Newline, line - 1, true);
                }
                continue;
            }
            b'#' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            _ => {}
        }
        let start_line = line;
        let rest = &src[i..];
        // Radix literals: 0xff, 0b101, 0o17 (a leading-zero octal like 017
        // reads as decimal here).
        if c == b'0' && matches!(b.get(i + 1), Some(b'x' | b'X' | b'b' | b'B' | b'o' | b'O')) {
            let radix = match b[i + 1] {
                b'x' | b'X' => 16,
                b'b' | b'B' => 2,
                _ => 8,
            };
            let mut j = i + 2;
            while j < b.len() && ((b[j] as char).is_digit(radix) || b[j] == b'_') {
                j += 1;
            }
            let text: String = src[i + 2..j].chars().filter(|c| *c != '_').collect();
            let n = i64::from_str_radix(&text, radix).map_err(|_| {
                (
                    "numeric literal without digits or too large".to_string(),
                    line,
                )
            })?;
            push(out, Tok::Int(n), line, space);
            i = j;
            space = false;
            continue;
        }
        // Numbers.
        if c.is_ascii_digit() {
            let mut j = i;
            while j < b.len() && (b[j].is_ascii_digit() || b[j] == b'_') {
                j += 1;
            }
            let mut is_float = false;
            if j + 1 < b.len() && b[j] == b'.' && b[j + 1].is_ascii_digit() {
                is_float = true;
                j += 1;
                while j < b.len() && (b[j].is_ascii_digit() || b[j] == b'_') {
                    j += 1;
                }
            }
            if j < b.len() && (b[j] == b'e' || b[j] == b'E') {
                let mut k = j + 1;
                if k < b.len() && (b[k] == b'+' || b[k] == b'-') {
                    k += 1;
                }
                if k < b.len() && b[k].is_ascii_digit() {
                    is_float = true;
                    j = k;
                    while j < b.len() && b[j].is_ascii_digit() {
                        j += 1;
                    }
                }
            }
            let text: String = src[i..j].chars().filter(|c| *c != '_').collect();
            let tok = if is_float {
                Tok::Float(text.parse().map_err(|_| ("bad number".to_string(), line))?)
            } else {
                match text.parse() {
                    Ok(n) => Tok::Int(n),
                    Err(_) => Tok::BigInt(text),
                }
            };
            push(out, tok, line, space);
            i = j;
            space = false;
            continue;
        }
        if c == b'@' {
            let mut j = i + 1;
            if b.get(j) == Some(&b'@') {
                j += 1;
            }
            let s = j;
            while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
                j += 1;
            }
            push(out, Tok::IVar(src[s..j].to_string()), line, space);
            i = j;
            space = false;
            continue;
        }
        if c == b'$' {
            // `$1`..`$9` and `$~`: the last regex match.
            let mut j = i + 1;
            while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_' || b[j] == b'~') {
                j += 1;
            }
            push(out, Tok::GVar(src[i + 1..j].to_string()), line, space);
            i = j;
            space = false;
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' || c >= 0x80 {
            let mut j = i;
            while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_' || b[j] >= 0x80) {
                j += 1;
            }
            let after_dot = matches!(
                prev.map(|t| &t.tok),
                Some(Tok::Punct(".")) | Some(Tok::Punct("&."))
            );
            if j < b.len()
                && (b[j] == b'?' || b[j] == b'!')
                && b.get(j + 1) != Some(&b'=')
                && !(b[j] == b'?' && b.get(j + 1) == Some(&b':'))
            {
                j += 1;
            }
            let word = &src[i..j];
            // `key: value` (not `a ? b :c`, not `A::B`).
            if b.get(j) == Some(&b':')
                && b.get(j + 1) != Some(&b':')
                && !after_dot
                && !word.ends_with('?')
            {
                let ternary = out[base..]
                    .iter()
                    .rev()
                    .take_while(|t| t.tok != Tok::Newline)
                    .any(|t| t.tok == Tok::Punct("?"));
                if !ternary {
                    push(out, Tok::Label(word.to_string()), line, space);
                    i = j + 1;
                    space = true;
                    continue;
                }
            }
            let tok = if c.is_ascii_uppercase() && !after_dot {
                Tok::Const(word.to_string())
            } else {
                Tok::Ident(word.to_string())
            };
            if !after_dot {
                track_keyword(&mut brackets, word, prev);
            }
            push(out, tok, line, space);
            i = j;
            space = false;
            continue;
        }
        match c {
            b'\'' => {
                let (s, n, lines) = single_quoted(&src[i + 1..], '\'', '\'')
                    .ok_or(("unterminated string meets end of file".to_string(), line))?;
                push(out, Tok::Str(vec![Piece::Lit(s)]), line, space);
                line += lines;
                i += 1 + n;
                space = false;
                continue;
            }
            b'"' => {
                let (p, n, lines) = double_quoted(&src[i + 1..], '"', '"', line, false)
                    .ok_or(("unterminated string meets end of file".to_string(), line))?;
                push(out, Tok::Str(p), line, space);
                line += lines;
                i += 1 + n;
                space = false;
                continue;
            }
            b'`' => return Err(("backticks are not supported".into(), line)),
            b':' if b.get(i + 1) == Some(&b'"') => {
                let (p, n, lines) = double_quoted(&src[i + 2..], '"', '"', line, false)
                    .ok_or(("unterminated symbol".to_string(), line))?;
                push(out, Tok::DSym(p), line, space);
                line += lines;
                i += 2 + n;
                space = false;
                continue;
            }
            // `:'a::b'`: a symbol of any text.
            b':' if b.get(i + 1) == Some(&b'\'') && (space || !ends_value(prev)) => {
                let rest = &src[i + 2..];
                let Some(end) = rest.find('\'') else {
                    return Err(("unterminated symbol".to_string(), line));
                };
                push(out, Tok::Sym(rest[..end].to_string()), line, space);
                i += 3 + end;
                space = false;
                continue;
            }
            // `:+`, `:|`, `:<=>`...: an operator's method name (`reduce(:|)`).
            b':' if (space || !ends_value(prev))
                && [
                    "<=>", "==", "<<", ">>", "<=", ">=", "**", "+", "-", "*", "/", "%", "|", "&",
                    "<", ">",
                ]
                .iter()
                .any(|op| src[i + 1..].starts_with(op))
                && !src[i + 1..].starts_with("::") =>
            {
                let op = [
                    "<=>", "==", "<<", ">>", "<=", ">=", "**", "+", "-", "*", "/", "%", "|", "&",
                    "<", ">",
                ]
                .iter()
                .find(|op| src[i + 1..].starts_with(*op))
                .copied()
                .unwrap_or("+");
                push(out, Tok::Sym(op.to_string()), line, space);
                i += 1 + op.len();
                space = false;
                continue;
            }
            b':' if b
                .get(i + 1)
                .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_')
                && (space || !ends_value(prev)) =>
            {
                let mut j = i + 1;
                while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
                    j += 1;
                }
                if j < b.len()
                    && (b[j] == b'?' || b[j] == b'!' || b[j] == b'=')
                    && b.get(j + 1) != Some(&b'>')
                {
                    j += 1;
                }
                push(out, Tok::Sym(src[i + 1..j].to_string()), line, space);
                i = j;
                space = false;
                continue;
            }
            b'/' if !ends_value(prev)
                || (space
                    && matches!(prev.map(|t| &t.tok), Some(Tok::Ident(_)))
                    && !b.get(i + 1).is_some_and(|c| *c == b' ' || *c == b'=')) =>
            {
                let (p, n, lines) = double_quoted(&src[i + 1..], '/', '/', line, true)
                    .ok_or(("unterminated regexp meets end of file".to_string(), line))?;
                let mut j = i + 1 + n;
                let fs = j;
                while j < b.len() && matches!(b[j], b'i' | b'm' | b'x' | b'o' | b'u' | b'n') {
                    j += 1;
                }
                push(out, Tok::Regex(p, src[fs..j].to_string()), line, space);
                line += lines;
                i = j;
                space = false;
                continue;
            }
            b'%' if (!ends_value(prev) || space)
                && b.get(i + 1).is_some_and(|c| b"wWiqQr([{<|!/".contains(c)) =>
            {
                let (kind, open_at) = match b[i + 1] {
                    c if c.is_ascii_alphabetic() => (c, i + 2),
                    _ => (b'Q', i + 1),
                };
                let Some(open) = src.get(open_at..).and_then(|r| r.chars().next()) else {
                    return Err(("unterminated list meets end of file".to_string(), line));
                };
                let close = match open {
                    '(' => ')',
                    '[' => ']',
                    '{' => '}',
                    '<' => '>',
                    o => o,
                };
                let body_at = open_at + open.len_utf8();
                let tok;
                let consumed;
                match kind {
                    b'w' | b'W' | b'i' | b'q' => {
                        let (s, n, lines) = single_quoted(&src[body_at..], open, close)
                            .ok_or(("unterminated list meets end of file".to_string(), line))?;
                        line += lines;
                        consumed = n;
                        tok = match kind {
                            b'q' => Tok::Str(vec![Piece::Lit(s)]),
                            _ => Tok::Words(s.split_whitespace().map(String::from).collect()),
                        };
                        if kind == b'i' {
                            if let Tok::Words(w) = tok {
                                let mut elems = vec![Token {
                                    tok: Tok::Punct("["),
                                    line,
                                    space_before: space,
                                }];
                                for (n, w) in w.into_iter().enumerate() {
                                    if n > 0 {
                                        elems.push(Token {
                                            tok: Tok::Punct(","),
                                            line,
                                            space_before: false,
                                        });
                                    }
                                    elems.push(Token {
                                        tok: Tok::Sym(w),
                                        line,
                                        space_before: true,
                                    });
                                }
                                elems.push(Token {
                                    tok: Tok::Punct("]"),
                                    line,
                                    space_before: false,
                                });
                                out.extend(elems);
                                i = body_at + consumed;
                                space = false;
                                continue;
                            }
                        }
                    }
                    b'r' => {
                        let (p, n, lines) = double_quoted(&src[body_at..], open, close, line, true)
                            .ok_or(("unterminated regexp meets end of file".to_string(), line))?;
                        line += lines;
                        let mut j = body_at + n;
                        let fs = j;
                        while j < b.len() && matches!(b[j], b'i' | b'm' | b'x' | b'o') {
                            j += 1;
                        }
                        tok = Tok::Regex(p, src[fs..j].to_string());
                        consumed = j - body_at;
                    }
                    _ => {
                        let (p, n, lines) =
                            double_quoted(&src[body_at..], open, close, line, false).ok_or((
                                "unterminated string meets end of file".to_string(),
                                line,
                            ))?;
                        line += lines;
                        consumed = n;
                        tok = Tok::Str(p);
                    }
                }
                push(out, tok, start_line, space);
                i = body_at + consumed;
                space = false;
                continue;
            }
            b'?' if b.get(i + 1).is_some_and(|c| c.is_ascii_alphanumeric())
                && !b
                    .get(i + 2)
                    .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
                && !ends_value(prev) =>
            {
                // `?a`: a one-character string.
                push(
                    out,
                    Tok::Str(vec![Piece::Lit((b[i + 1] as char).to_string())]),
                    line,
                    space,
                );
                i += 2;
                space = false;
                continue;
            }
            _ => {}
        }
        let p = PUNCTS
            .iter()
            .chain(PUNCTS1.iter())
            .find(|p| rest.starts_with(**p))
            .copied();
        match p {
            Some(p) => {
                match p {
                    "(" | "[" | "{" => brackets.push(p.as_bytes()[0]),
                    ")" | "]" | "}" => {
                        // Past any `do` blocks left open by a construct
                        // misjudged below: back to the matching bracket.
                        while matches!(brackets.last(), Some(b'd' | b'k')) {
                            brackets.pop();
                        }
                        brackets.pop();
                    }
                    _ => {}
                }
                push(out, Tok::Punct(p), line, space);
                i += p.len();
                space = false;
            }
            None => {
                let ch = rest.chars().next().unwrap_or(' ');
                return Err((format!("syntax error, unexpected character '{ch}'"), line));
            }
        }
    }
    Ok(())
}

/// A single-quoted body up to `close` (nesting `open`): text, bytes used
/// (including the closing delimiter) and newlines crossed.
fn single_quoted(s: &str, open: char, close: char) -> Option<(String, usize, usize)> {
    let mut out = String::new();
    let mut depth = 0;
    let mut it = s.char_indices().peekable();
    let mut lines = 0;
    while let Some((k, c)) = it.next() {
        if c == '\\' {
            if let Some(&(_, n)) = it.peek() {
                if n == close || n == '\\' || n == open {
                    out.push(n);
                    it.next();
                    continue;
                }
            }
            out.push('\\');
            continue;
        }
        if c == '\n' {
            lines += 1;
        }
        // `k + c.len_utf8()`: the delimiter may be a multibyte character.
        if c == close && open != close {
            if depth == 0 {
                return Some((out, k + c.len_utf8(), lines));
            }
            depth -= 1;
        } else if c == close {
            return Some((out, k + c.len_utf8(), lines));
        } else if c == open {
            depth += 1;
        }
        out.push(c);
    }
    None
}

/// A double-quoted body (or a regex body when `close` is `/` or the
/// `%r` delimiter): pieces, bytes used and newlines crossed. Regex bodies
/// keep their escapes for the regex engine.
fn double_quoted(
    s: &str,
    open: char,
    close: char,
    line: usize,
    regex: bool,
) -> Option<(Vec<Piece>, usize, usize)> {
    let mut pieces = Vec::new();
    let mut lit = String::new();
    let b = s.as_bytes();
    let mut k = 0;
    let mut depth = 0;
    let mut lines = 0;
    while k < b.len() {
        let c = s[k..].chars().next()?;
        if c == '\\' {
            let n = s[k + 1..].chars().next()?;
            if regex {
                if n == close {
                    lit.push('/');
                } else {
                    lit.push('\\');
                    lit.push(n);
                }
            } else {
                match n {
                    'n' => lit.push('\n'),
                    't' => lit.push('\t'),
                    's' => lit.push(' '),
                    'r' => lit.push('\r'),
                    'e' => lit.push('\u{1b}'),
                    '0' => lit.push('\0'),
                    'a' => lit.push('\u{7}'),
                    '\n' => lines += 1,
                    o => lit.push(o),
                }
            }
            k += 1 + n.len_utf8();
            continue;
        }
        if c == '#' && b.get(k + 1) == Some(&b'{') {
            // Find the matching brace, skipping nested strings roughly.
            let mut d = 0;
            let mut j = k + 2;
            let mut quote: Option<u8> = None;
            while j < b.len() {
                let ch = b[j];
                if let Some(q) = quote {
                    if ch == b'\\' {
                        j += 2;
                        continue;
                    }
                    if ch == q {
                        quote = None;
                    }
                } else if ch == b'"' || ch == b'\'' {
                    quote = Some(ch);
                } else if ch == b'{' {
                    d += 1;
                } else if ch == b'}' {
                    if d == 0 {
                        break;
                    }
                    d -= 1;
                }
                j += 1;
            }
            if j >= b.len() {
                return None;
            }
            if !lit.is_empty() {
                pieces.push(Piece::Lit(std::mem::take(&mut lit)));
            }
            pieces.push(Piece::Code(s[k + 2..j].to_string(), line + lines));
            lines += s[k + 2..j].matches('\n').count();
            k = j + 1;
            continue;
        }
        if c == '#' && b.get(k + 1) == Some(&b'@') {
            let mut j = k + 2;
            while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
                j += 1;
            }
            if j > k + 2 {
                if !lit.is_empty() {
                    pieces.push(Piece::Lit(std::mem::take(&mut lit)));
                }
                pieces.push(Piece::Code(s[k + 1..j].to_string(), line + lines));
                k = j;
                continue;
            }
        }
        if c == '\n' {
            lines += 1;
        }
        if c == close && (open == close || depth == 0) {
            if !lit.is_empty() || pieces.is_empty() {
                pieces.push(Piece::Lit(lit));
            }
            // The closing delimiter may be a multibyte character (`%q…`).
            return Some((pieces, k + close.len_utf8(), lines));
        }
        if c == close {
            depth -= 1;
        } else if c == open && open != close {
            depth += 1;
        }
        lit.push(c);
        k += c.len_utf8();
    }
    None
}
