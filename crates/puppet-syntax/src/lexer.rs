//! The context-aware lexer: Puppet 7's `lexer2.rb` rules, reimplemented.
//!
//! One pass over the bytes. Strings with interpolation are flattened into
//! `DqPre`, the tokens of the embedded expression, `DqMid`..., `DqPost`. A heredoc
//! emits `Heredoc` and then the tokens of its text, lexed by a sub-lexer whose
//! offsets are mapped back into the file, and the main lexer jumps over the
//! heredoc's lines at the next newline.

use super::error::RawError;
use super::span::Span;
use super::token::{Tok, Token};
use crate::util::NameStr as _;

/// Lexes a whole manifest.
pub fn lex(src: &str) -> Result<Vec<Token>, RawError> {
    lex_file(src, false)
}

/// Lexes an EPP template: `EppStart`, then text as `RenderString`s and the code
/// of its tags (see `lexer/epp.rs`).
pub fn lex_epp(src: &str) -> Result<Vec<Token>, RawError> {
    lex_file(src, true)
}

fn lex_file(src: &str, epp: bool) -> Result<Vec<Token>, RawError> {
    lex_up_to_error(src, epp).map_err(|(e, _)| e)
}

/// The file's tokens, or its lexing error with the tokens lexed before it.
/// Puppet's parser pulls tokens from the lexer one at a time
/// (`yyparse(lexer, :scan)`), so a syntax error among the tokens before a
/// lexing error is the one Puppet reports.
pub fn lex_up_to_error(src: &str, epp: bool) -> Result<Vec<Token>, (RawError, Vec<Token>)> {
    if let Some(err) = bom_error(src.as_bytes()) {
        return Err((err, Vec::new()));
    }
    let mut lx = Lexer::new(src, Mode::Code);
    let lexed = if epp { lx.run_epp() } else { lx.run() };
    match lexed {
        Ok(()) => Ok(lx.out),
        Err(e) => Err((e, lx.out)),
    }
}

mod epp;
pub use epp::EppMode;

/// How the text is read: as code, or as the unquoted text of a heredoc.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Code,
    Heredoc { escapes: Escapes, interpolate: bool },
}

/// Which backslash escapes a string honours.
#[derive(Clone, Copy, PartialEq, Eq, Default)]
struct Escapes {
    t: bool,
    r: bool,
    n: bool,
    s: bool,
    u: bool,
    dollar: bool,
    newline: bool,
    single_quote: bool,
    double_quote: bool,
    backslash: bool,
}

impl Escapes {
    const DQ: Escapes = Escapes {
        t: true,
        r: true,
        n: true,
        s: true,
        u: true,
        dollar: true,
        newline: true,
        single_quote: true,
        double_quote: true,
        backslash: true,
    };

    fn maps(&self, c: char) -> Option<&'static str> {
        Some(match c {
            't' if self.t => "\t",
            'r' if self.r => "\r",
            'n' if self.n => "\n",
            's' if self.s => " ",
            '$' if self.dollar => "$",
            '\'' if self.single_quote => "'",
            '"' if self.double_quote => "\"",
            '\\' if self.backslash => "\\",
            '\n' if self.newline => "",
            _ => return None,
        })
    }
}

struct Lexer<'a> {
    src: &'a str,
    b: &'a [u8],
    pos: usize,
    out: Vec<Token>,
    mode: Mode,
    /// Whether a `/` after the last token starts a regex.
    regex_ok: bool,
    /// Whether the last token was `?` (then `{` is a selector brace).
    after_qmark: bool,
    brace_count: i64,
    /// Start of the current line, for `(` first on a line.
    line_start: usize,
    /// Where to continue at the next newline when heredocs were read ahead.
    newline_jump: Option<usize>,
    /// What Ruby's scanner matched last (`scn.matched`, a byte range), which
    /// Puppet names in `Unclosed quote after ...` when a string's tail is unclosed.
    matched: Option<(usize, usize)>,
    /// How many strings (interpolated or heredoc texts) enclose this point.
    depth: usize,
    /// In an EPP template: what the current tag is (`None` for manifests).
    epp: Option<EppMode>,
    /// Where the open EPP tag's code starts (Puppet's `epp_open_position`).
    epp_open: Option<usize>,
}

/// Strings nest through `${}` (and heredocs in them) by recursion; deeper nesting
/// than this, which no real manifest has, is refused rather than risking the stack
/// (about 7 KiB per level in a debug build).
pub const MAX_STRING_NESTING: usize = 100;

fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

fn is_blank(b: u8) -> bool {
    b == b' ' || b == b'\t' || b == b'\r'
}

/// Unicode space separators that Ruby's `[[:blank:]]` also matches.
fn unicode_blank_len(s: &str) -> usize {
    match s.chars().next() {
        Some(
            c @ ('\u{a0}'
            | '\u{1680}'
            | '\u{2000}'..='\u{200a}'
            | '\u{202f}'
            | '\u{205f}'
            | '\u{3000}'),
        ) => c.len_utf8(),
        _ => 0,
    }
}

impl<'a> Lexer<'a> {
    fn new(src: &'a str, mode: Mode) -> Lexer<'a> {
        Lexer {
            src,
            b: src.as_bytes(),
            pos: 0,
            out: Vec::with_capacity(src.len() / 4),
            mode,
            regex_ok: true,
            after_qmark: false,
            brace_count: 0,
            line_start: 0,
            newline_jump: None,
            matched: None,
            depth: 0,
            epp: None,
            epp_open: None,
        }
    }

    fn peek(&self, ahead: usize) -> u8 {
        *self.b.get(self.pos + ahead).unwrap_or(&0)
    }

    fn rest(&self) -> &'a str {
        &self.src[self.pos..]
    }

    fn push(&mut self, tok: Tok, start: usize, end: usize) {
        self.out.push(Token {
            tok,
            span: Span::new(start, end),
        });
    }

    fn emit(&mut self, tok: Tok, len: usize) {
        let start = self.pos;
        self.pos += len;
        self.push(tok, start, self.pos);
    }

    fn note_after_last(&mut self) {
        if let Some(t) = self.out.last() {
            self.regex_ok = Tok::regex_may_follow(Some(&t.tok));
            self.after_qmark = t.tok == Tok::QMark;
        }
    }

    fn run(&mut self) -> Result<(), RawError> {
        self.skip_ws();
        while self.pos < self.b.len() {
            let n = self.out.len();
            if let Err(e) = self.lex_token() {
                // A token Puppet's lexer had not finished (a string's
                // interpolation lexes all of it first) never reached the parser.
                self.out.truncate(n);
                return Err(e);
            }
            if self.out.len() > n {
                self.note_after_last();
            }
        }
        Ok(())
    }

    fn skip_ws(&mut self) -> bool {
        let start = self.pos;
        loop {
            if self.pos < self.b.len() && is_blank(self.b[self.pos]) {
                self.pos += 1;
            } else {
                let n = unicode_blank_len(self.rest());
                if n == 0 {
                    break;
                }
                self.pos += n;
            }
        }
        // Like Ruby's `skip`, a failed skip forgets the last match.
        self.matched = (self.pos > start).then_some((start, self.pos));
        self.pos > start
    }

    /// `format_quote(scn.matched)` of Puppet's unclosed-quote error.
    fn matched_quoted(&self) -> String {
        match self.matched.map(|(s, e)| &self.src[s..e]) {
            Some("'") => "\"'\"".to_string(),
            Some(m) => format!("'{m}'"),
            None => "''".to_string(),
        }
    }

    /// Where Puppet's slurp pattern `(?:[^\\]|^)(?:\\\\)*TERMINATOR`, scanning
    /// from `from`, starts its match for the terminator at `term`.
    fn slurp_match_start(&self, from: usize, term: usize) -> usize {
        let mut r = term;
        while r > from && self.b[r - 1] == b'\\' {
            r -= 1;
        }
        if r > from {
            r -= 1;
            while !self.src.is_char_boundary(r) {
                r -= 1;
            }
        }
        r
    }

    /// `followed_by` of Puppet's lexer errors: the next five characters.
    fn followed_by(&self, at: usize) -> String {
        if at >= self.b.len() {
            return "<eof>".to_string();
        }
        let s: String = self.src[at..].chars().take(5).collect();
        format!("{s}...")
            .replace('\t', "\\t")
            .replace('\n', "\\n")
            .replace('\r', "\\r")
    }

    /// Lexes one token (or a string's or heredoc's several), or skips one piece of
    /// whitespace or a comment.
    fn lex_token(&mut self) -> Result<(), RawError> {
        let c = self.b[self.pos];
        let la1 = self.peek(1);
        let la2 = self.peek(2);
        match c {
            b'.' => self.emit(Tok::Dot, 1),
            b',' => self.emit(Tok::Comma, 1),
            b'[' => {
                let prev = if self.pos == 0 {
                    None
                } else {
                    Some(self.b[self.pos - 1])
                };
                let list_start = match prev {
                    None => true,
                    Some(p) => is_blank(p) || p == b'\n' || self.prev_char_is_unicode_blank(),
                };
                self.emit(
                    if list_start {
                        Tok::ListStart
                    } else {
                        Tok::LBrack
                    },
                    1,
                )
            }
            b']' => self.emit(Tok::RBrack, 1),
            b'(' => {
                let mut p = self.line_start.min(self.pos);
                while p < self.pos {
                    let n = match self.b[p] {
                        b' ' | b'\t' | b'\r' => 1,
                        _ => unicode_blank_len(&self.src[p..]),
                    };
                    if n == 0 {
                        break;
                    }
                    p += n;
                }
                let first_on_line = p == self.pos;
                self.emit(
                    if first_on_line {
                        Tok::WsLParen
                    } else {
                        Tok::LParen
                    },
                    1,
                )
            }
            b')' => self.emit(Tok::RParen, 1),
            b';' => self.emit(Tok::Semic, 1),
            b'?' => self.emit(Tok::QMark, 1),
            b'*' => self.emit(Tok::Times, 1),
            b'%' if la1 == b'>' && self.epp.is_some() => self.epp_close(false)?,
            b'%' => self.emit(Tok::Modulo, 1),
            b'{' => {
                self.brace_count += 1;
                let t = if self.after_qmark {
                    Tok::SelBrace
                } else {
                    Tok::LBrace
                };
                self.emit(t, 1)
            }
            b'}' => {
                self.brace_count -= 1;
                self.emit(Tok::RBrace, 1)
            }
            b'@' => match la1 {
                b'@' => self.emit(Tok::AtAt, 2),
                b'(' => self.heredoc()?,
                _ => self.emit(Tok::At, 1),
            },
            b'|' => match (la1, la2) {
                (b'>', b'>') => self.emit(Tok::RRCollect, 3),
                (b'>', _) => self.emit(Tok::RCollect, 2),
                _ => self.emit(Tok::Pipe, 1),
            },
            b'=' => match la1 {
                b'=' => self.emit(Tok::IsEqual, 2),
                b'>' => self.emit(Tok::FArrow, 2),
                b'~' => self.emit(Tok::Match, 2),
                _ => self.emit(Tok::Equals, 1),
            },
            b'+' => match la1 {
                b'=' => self.emit(Tok::Appends, 2),
                b'>' => self.emit(Tok::PArrow, 2),
                _ => self.emit(Tok::Plus, 1),
            },
            b'-' if la1 == b'%' && la2 == b'>' && self.epp.is_some() => self.epp_close(true)?,
            b'-' => match la1 {
                b'>' => self.emit(Tok::InEdge, 2),
                b'=' => self.emit(Tok::Deletes, 2),
                _ => self.emit(Tok::Minus, 1),
            },
            b'!' => match la1 {
                b'=' => self.emit(Tok::NotEqual, 2),
                b'~' => self.emit(Tok::NoMatch, 2),
                _ => self.emit(Tok::Not, 1),
            },
            b'~' => match la1 {
                b'>' => self.emit(Tok::InEdgeSub, 2),
                _ => self.emit(Tok::Tilde, 1),
            },
            b'#' => {
                while self.pos < self.b.len() && self.b[self.pos] != b'\n' {
                    self.pos += 1;
                }
            }
            b'/' => {
                if la1 == b'*' {
                    match self.rest()[2..].find("*/") {
                        Some(i) => self.pos += 2 + i + 2,
                        None => return Err(RawError::at(self.pos, "Unclosed multiline comment")),
                    }
                } else if self.regex_ok {
                    self.regex()?
                } else {
                    self.emit(Tok::Div, 1)
                }
            }
            b'<' => match (la1, la2) {
                (b'<', b'|') => self.emit(Tok::LLCollect, 3),
                (b'<', _) => self.emit(Tok::LShift, 2),
                (b'=', _) => self.emit(Tok::LessEq, 2),
                (b'|', _) => self.emit(Tok::LCollect, 2),
                (b'-', _) => self.emit(Tok::OutEdge, 2),
                (b'~', _) => self.emit(Tok::OutEdgeSub, 2),
                _ => self.emit(Tok::Less, 1),
            },
            b'>' => match la1 {
                b'>' => self.emit(Tok::RShift, 2),
                b'=' => self.emit(Tok::GreaterEq, 2),
                _ => self.emit(Tok::Greater, 1),
            },
            b':' => self.colon()?,
            b'$' => self.variable(),
            b'"' => self.dq_string()?,
            b'\'' => self.sq_string()?,
            b'\n' => {
                match self.newline_jump.take() {
                    Some(p) => self.pos = p,
                    None => self.pos += 1,
                }
                self.line_start = self.pos;
            }
            b' ' | b'\t' | b'\r' => {
                self.skip_ws();
            }
            b'0'..=b'9' => self.number()?,
            b'a'..=b'z' | b'_' => self.bare_word()?,
            b'A'..=b'Z' => self.class_ref()?,
            _ => {
                if !self.skip_ws() {
                    // Puppet emits an OTHER token one byte long; the parser then
                    // reports `Syntax error at ''` there.
                    self.emit(Tok::Other, 1);
                    // Stay on a character boundary for the rest of the input.
                    while self.pos < self.b.len() && !self.src.is_char_boundary(self.pos) {
                        self.pos += 1;
                    }
                }
            }
        }
        Ok(())
    }

    fn prev_char_is_unicode_blank(&self) -> bool {
        self.src[..self.pos]
            .chars()
            .next_back()
            .is_some_and(|c| unicode_blank_len(c.encode_utf8(&mut [0; 4])) > 0)
    }

    /// A regex literal, or `/` when no closing slash follows; Ruby's error
    /// for an expression Onigmo refuses (Puppet's lexer runs `Regexp.new`).
    fn regex(&mut self) -> Result<(), RawError> {
        let start = self.pos;
        // `/[^/]*/`, extended while the closing slash is escaped.
        let body_start = start + 1;
        let mut end = match self.src[body_start..].find('/') {
            Some(i) => body_start + i,
            None => {
                self.matched = None;
                self.emit(Tok::Div, 1);
                return Ok(());
            }
        };
        self.matched = Some((start, end + 1));
        while escaped_end(&self.b[body_start..end]) {
            match self.src[end + 1..].find('/') {
                Some(i) => {
                    end = end + 1 + i;
                    self.matched = Some((end, end + 1));
                }
                None => {
                    self.matched = None;
                    self.emit(Tok::Div, 1);
                    return Ok(());
                }
            }
        }
        let source = self.src[body_start..end].replace("\\/", "/");
        if let Some(e) = crate::ruby_regex::literal_error(&source) {
            return Err(RawError::bare(e));
        }
        self.pos = end + 1;
        self.push(Tok::Regex(source), start, self.pos);
        Ok(())
    }

    fn colon(&mut self) -> Result<(), RawError> {
        let start = self.pos;
        if self.peek(1) != b':' {
            self.emit(Tok::Colon, 1);
            return Ok(());
        }
        let la2 = self.peek(2);
        if la2.is_ascii_uppercase() {
            let end = scan_class_ref(self.b, start);
            if end > start && !self.b[end..].starts_with(b"::") {
                self.pos = end;
                self.matched = Some((start, end));
                self.push(Tok::ClassRef(self.src[start..end].to_string()), start, end);
                Ok(())
            } else {
                // Puppet reports the position three past the scanned reference.
                Err(RawError::at(
                    (end + 3).min(self.b.len()),
                    "Illegal fully qualified class reference",
                ))
            }
        } else {
            let end = scan_bare_word(self.b, start);
            if end > start {
                self.pos = end;
                self.matched = Some((start, end));
                let text = &self.src[start..end];
                let tok = if is_name(text) {
                    Tok::Name(text.to_string())
                } else {
                    Tok::Word(text.to_string())
                };
                self.push(tok, start, end);
                Ok(())
            } else {
                Err(RawError::at(start + 2, "Illegal fully qualified name"))
            }
        }
    }

    fn variable(&mut self) {
        let start = self.pos;
        let end = scan_variable(self.b, start + 1);
        match end {
            Some(end) => {
                self.pos = end;
                self.matched = Some((start, end));
                self.push(
                    Tok::Variable(self.src[start + 1..end].to_string()),
                    start,
                    end,
                );
            }
            None => {
                self.matched = None;
                self.emit(Tok::Variable(String::new()), 1)
            }
        }
    }

    fn bare_word(&mut self) -> Result<(), RawError> {
        let start = self.pos;
        let end = scan_bare_word(self.b, start);
        if end == start {
            let fq = self.b[start + 1..].starts_with(b"::");
            return Err(RawError::at(
                start + 1,
                if fq {
                    "Illegal fully qualified name"
                } else {
                    "Illegal name or bare word"
                },
            ));
        }
        self.pos = end;
        self.matched = Some((start, end));
        let text = &self.src[start..end];
        let tok = if is_name(text) {
            Tok::keyword(text).unwrap_or_else(|| Tok::Name(text.to_string()))
        } else {
            Tok::Word(text.to_string())
        };
        self.push(tok, start, end);
        Ok(())
    }

    fn class_ref(&mut self) -> Result<(), RawError> {
        let start = self.pos;
        let end = scan_class_ref(self.b, start);
        if self.b[end..].starts_with(b"::") {
            // Puppet reports the position one past the scanned reference.
            return Err(RawError::at(end + 1, "Illegal class reference"));
        }
        self.pos = end;
        self.matched = Some((start, end));
        self.push(Tok::ClassRef(self.src[start..end].to_string()), start, end);
        Ok(())
    }

    fn number(&mut self) -> Result<(), RawError> {
        let start = self.pos;
        match match_number(self.b, start) {
            Some(end) => {
                let text = &self.src[start..end];
                assert_numeric(text, start)?;
                self.pos = end;
                self.matched = Some((start, end));
                self.push(Tok::Number(text.to_string()), start, end);
                Ok(())
            }
            None => {
                // The text up to the end of this run of word characters.
                let mut after = start;
                while after < self.b.len() && is_word(self.b[after]) {
                    after += 1;
                }
                let mut from = start;
                // `1.5e` lexed `1` and `.` already: report the whole number.
                if start > 1 && self.b[start - 1] == b'.' && self.b[start - 2].is_ascii_digit() {
                    from = start - 2;
                    while from > 0 && self.b[from - 1].is_ascii_digit() {
                        from -= 1;
                    }
                }
                let text = &self.src[from..after];
                assert_numeric(text, from)?;
                Err(RawError::at(from + 1, format!("Illegal number '{text}'")))
            }
        }
    }

    fn sq_string(&mut self) -> Result<(), RawError> {
        let start = self.pos;
        let body = start + 1;
        let mut i = body;
        if swallows_first(self.b, body, b'\'', b"'") {
            i += 1;
        }
        let mut backslashes = 0;
        loop {
            match self.b.get(i) {
                None => {
                    return Err(RawError::at(
                        body,
                        format!(
                            "Unclosed quote after \"'\" followed by '{}'",
                            self.followed_by(body)
                        ),
                    ))
                }
                Some(b'\\') => backslashes += 1,
                Some(b'\'') if backslashes % 2 == 0 => break,
                Some(_) => backslashes = 0,
            }
            if self.b[i] != b'\\' {
                backslashes = 0;
            }
            i += 1;
        }
        let raw = &self.src[body..i];
        let value = if raw.contains('\\') {
            unescape_sq(raw)
        } else {
            raw.to_string()
        };
        self.pos = i + 1;
        self.matched = Some((self.slurp_match_start(body, i), self.pos));
        self.push(Tok::Str(value), start, self.pos);
        Ok(())
    }

    /// Reads text up to an unescaped terminator: `"` (when `quote`), `$` or `${`,
    /// or the end (heredocs). Returns (raw text, terminator, terminator start).
    fn slurp(&mut self, quote: bool, dollar_escapable: bool) -> Option<(&'a str, Term, usize)> {
        let start = self.pos;
        let mut i = start;
        if quote
            && (swallows_first(self.b, start, b'"', b"\"$")
                || swallows_first(self.b, start, b'$', b"\"$"))
        {
            i += 1;
        }
        let mut backslashes = 0usize;
        while i < self.b.len() {
            let c = self.b[i];
            let escaped = backslashes % 2 == 1;
            if c == b'"' && quote && !escaped {
                self.pos = i + 1;
                return Some((&self.src[start..i], Term::Quote, i));
            }
            if c == b'$' && (!escaped || !dollar_escapable) {
                let brace = self.b.get(i + 1) == Some(&b'{');
                self.pos = i + if brace { 2 } else { 1 };
                let t = if brace {
                    Term::DollarBrace
                } else {
                    Term::Dollar
                };
                return Some((&self.src[start..i], t, i));
            }
            if c == b'\\' {
                backslashes += 1;
            } else {
                backslashes = 0;
            }
            i += 1;
        }
        if quote {
            None
        } else {
            self.pos = self.b.len();
            Some((&self.src[start..], Term::End, self.b.len()))
        }
    }

    fn string_escapes(&self) -> Escapes {
        match self.mode {
            Mode::Code => Escapes::DQ,
            Mode::Heredoc { escapes, .. } => escapes,
        }
    }

    fn unescape(&self, raw: &str, terminator: &str, at: usize) -> Result<String, RawError> {
        unescape(raw, terminator, self.string_escapes(), at)
    }

    /// A double-quoted string (or a heredoc's text): Puppet's interpolate_dq/uq.
    fn dq_string(&mut self) -> Result<(), RawError> {
        let start = self.pos;
        self.pos += 1;
        self.interpolate(start, true)
    }

    /// Lexes a string's parts, refusing strings nested (through interpolation and
    /// heredocs) deeper than [`MAX_STRING_NESTING`]: each level recurses.
    fn interpolate(&mut self, start: usize, quoted: bool) -> Result<(), RawError> {
        if self.depth >= MAX_STRING_NESTING {
            return Err(RawError::at(
                start,
                format!("String interpolation is nested deeper than {MAX_STRING_NESTING} levels"),
            ));
        }
        self.depth += 1;
        let result = self.interpolate_parts(start, quoted);
        self.depth -= 1;
        result
    }

    fn interpolate_parts(&mut self, start: usize, quoted: bool) -> Result<(), RawError> {
        let dollar_escapable = match self.mode {
            Mode::Code => true,
            Mode::Heredoc { escapes, .. } => escapes.dollar,
        };
        let mut seg_start = start;
        let mut first = true;
        let mut text = String::new();
        if quoted {
            // The opening quote.
            self.matched = Some((start, start + 1));
        }
        loop {
            let before = self.pos;
            let Some((raw, term, term_at)) = self.slurp(quoted, dollar_escapable) else {
                return Err(RawError::at(
                    before,
                    format!(
                        "Unclosed quote after {} followed by '{}'",
                        self.matched_quoted(),
                        self.followed_by(before)
                    ),
                ));
            };
            self.matched = Some((self.slurp_match_start(before, term_at), self.pos));
            let terminator = match term {
                Term::Quote => "\"",
                Term::Dollar => "$",
                Term::DollarBrace => "${",
                Term::End => "",
            };
            text.push_str(&self.unescape(raw, terminator, before)?);
            match term {
                Term::Quote | Term::End => {
                    let tok = if first {
                        Tok::Str(std::mem::take(&mut text))
                    } else {
                        Tok::DqPost(std::mem::take(&mut text))
                    };
                    self.push(tok, seg_start, self.pos);
                    return Ok(());
                }
                Term::DollarBrace => {
                    let tok = if first {
                        Tok::DqPre(std::mem::take(&mut text))
                    } else {
                        Tok::DqMid(std::mem::take(&mut text))
                    };
                    self.push(tok, seg_start, self.pos);
                    first = false;
                    let count = self.brace_count;
                    self.brace_count += 1;
                    self.lex_until_brace(count)?;
                    seg_start = self.pos;
                }
                Term::Dollar => match scan_plain_variable(self.b, self.pos) {
                    Some(end) => {
                        let tok = if first {
                            Tok::DqPre(std::mem::take(&mut text))
                        } else {
                            Tok::DqMid(std::mem::take(&mut text))
                        };
                        self.push(tok, seg_start, term_at);
                        first = false;
                        let name = self.src[self.pos..end].to_string();
                        self.matched = Some((self.pos, end));
                        self.push(Tok::Variable(name), term_at, end);
                        self.pos = end;
                        seg_start = end;
                    }
                    None => {
                        self.matched = None;
                        text.push('$')
                    }
                },
            }
        }
    }

    /// Lexes the expression of `${...}` up to its closing brace (not emitted),
    /// then turns a lone name (or the name before `.`/`[`) into a variable.
    fn lex_until_brace(&mut self, count: i64) -> Result<(), RawError> {
        self.skip_ws();
        let first = self.out.len();
        while self.pos < self.b.len() {
            let n = self.out.len();
            if let Err(e) = self.lex_token() {
                // A token Puppet's lexer had not finished (a string's
                // interpolation lexes all of it first) never reached the parser.
                self.out.truncate(n);
                return Err(e);
            }
            if self.out.len() == n {
                // Puppet skips whitespace after anything that produced no token.
                self.skip_ws();
            } else {
                let last = self.out.len() - 1;
                if self.out[last].tok == Tok::RBrace && self.brace_count == count {
                    self.out.pop();
                    // As after any `}`: a regex may follow, no selector brace.
                    self.regex_ok = true;
                    self.after_qmark = false;
                    let inner = self.out.len() - first;
                    if inner == 1
                        || (inner > 1 && matches!(self.out[first + 1].tok, Tok::Dot | Tok::LBrack))
                    {
                        to_variable(&mut self.out[first]);
                    }
                    return Ok(());
                }
                // A string with interpolation nested in this one leaves what
                // a `/` after it means as its own interpolation left it (a
                // closing `}` lets a regex follow): Puppet's `enqueue_until`
                // gets back the queue's head from such a string and skips
                // setting `ctx[:after]` from it.
                if !matches!(self.out[n].tok, Tok::DqPre(_)) {
                    self.note_after_last();
                }
            }
        }
        Ok(())
    }

    fn heredoc(&mut self) -> Result<(), RawError> {
        let start = self.pos;
        let Some(close) = self.rest().find(')') else {
            return Err(RawError::at(
                start,
                format!(
                    "Unclosed parenthesis after '@(' followed by '{}'",
                    self.followed_by(start)
                ),
            ));
        };
        let after_paren = start + close + 1;
        // Puppet matches PATTERN_HEREDOC anywhere in the text up to the first `)`:
        // the first `@(` there that starts a valid spec is the heredoc's.
        let region = &self.src[start..after_paren - 1];
        let spec = region
            .match_indices("@(")
            .find_map(|(i, _)| parse_heredoc_spec(&region[i + 2..]));
        let Some(spec) = spec else {
            return Err(RawError::at(
                after_paren,
                "Invalid syntax in heredoc expected @(endtag[:syntax][/escapes])",
            ));
        };
        let mut endtag = ruby_strip(spec.endtag);
        let mut dq_style = false;
        if endtag.len() >= 2 && endtag.starts_with('"') && endtag.ends_with('"') {
            dq_style = true;
            endtag = ruby_strip(&endtag[1..endtag.len() - 1]);
        }
        if endtag.is_empty() {
            return Err(RawError::at(after_paren, "Heredoc with an empty endtag"));
        }
        let mut escapes = Escapes::default();
        if let Some(flags) = spec.escapes {
            let flags = if flags.is_empty() { "trnsuL$" } else { flags };
            let mut seen = Vec::new();
            for ch in flags.chars() {
                if seen.contains(&ch) {
                    let list: Vec<String> = flags.chars().map(|c| c.to_string()).collect();
                    return Err(RawError::at(
                        after_paren,
                        format!(
                            "An escape char for @() may only appear once. Got '{}'",
                            list.join(", ")
                        ),
                    ));
                }
                seen.push(ch);
            }
            escapes.backslash = true;
            for ch in flags.chars() {
                match ch {
                    't' => escapes.t = true,
                    'r' => escapes.r = true,
                    'n' => escapes.n = true,
                    's' => escapes.s = true,
                    'u' => escapes.u = true,
                    '$' => escapes.dollar = true,
                    'L' => escapes.newline = true,
                    other => {
                        return Err(RawError::at(
                            after_paren,
                            format!(
                                "Invalid heredoc escape char. Only t, r, n, s,  u, L, $ allowed. Got '{other}'"
                            ),
                        ))
                    }
                }
            }
        }
        self.push(Tok::Heredoc(spec.syntax.to_string()), start, after_paren);

        // The text starts on the line after this one (or after the previous heredoc
        // started on this line).
        let text_start = match self.newline_jump {
            Some(p) => p,
            None => match self.src[after_paren..].find('\n') {
                Some(i) => after_paren + i + 1,
                None => {
                    return Err(RawError::at(
                        after_paren,
                        "Heredoc without any following lines of text",
                    ))
                }
            },
        };
        let mut lines: Vec<(usize, &str)> = Vec::new();
        let mut p = text_start;
        let end_line = loop {
            if p >= self.b.len() {
                // Reported where the heredoc's text starts.
                return Err(RawError::at(text_start, "Heredoc without end-tagged line"));
            }
            let line_end = match self.src[p..].find('\n') {
                Some(i) => p + i + 1,
                None => self.b.len(),
            };
            let line = &self.src[p..line_end];
            if let Some(m) = match_end_line(line, endtag) {
                break (m, line_end);
            }
            lines.push((p, line));
            p = line_end;
        };
        let (end_match, after_end) = end_line;
        self.newline_jump = Some(after_end);

        // Strip the margin, remembering how much each line lost.
        let mut text = String::new();
        let mut map: Vec<(usize, usize)> = Vec::with_capacity(lines.len());
        for (orig, line) in &lines {
            let margin = if end_match.has_margin
                && !end_match.leading.is_empty()
                && line.starts_with(end_match.leading)
            {
                end_match.leading.len()
            } else {
                0
            };
            map.push((text.len(), orig + margin));
            text.push_str(&line[margin..]);
        }
        if end_match.remove_break {
            if text.ends_with("\r\n") {
                text.truncate(text.len() - 2);
            } else if text.ends_with('\n') {
                text.truncate(text.len() - 1);
            }
        }
        let to_global = |o: usize| -> usize {
            if o == 0 {
                // Puppet's SubLocator maps the text's start to its first line's
                // start, margin included.
                return text_start;
            }
            match map.binary_search_by(|(s, _)| s.cmp(&o)) {
                Ok(i) => map[i].1,
                Err(0) => text_start,
                Err(i) => map[i - 1].1 + (o - map[i - 1].0),
            }
        };

        let mut sub = Lexer::new(
            &text,
            Mode::Heredoc {
                escapes,
                interpolate: dq_style,
            },
        );
        sub.depth = self.depth;
        let result = sub.heredoc_text();
        if let Err(e) = result {
            return Err(RawError {
                offset: e.offset.map(to_global),
                ..e
            });
        }
        for t in sub.out {
            let s = to_global(t.span.start as usize);
            let e = to_global(t.span.end as usize).max(s);
            self.push(t.tok, s, e);
        }
        self.pos = after_paren;
        Ok(())
    }

    /// Lexes this (sub-)lexer's whole text as a heredoc's text.
    fn heredoc_text(&mut self) -> Result<(), RawError> {
        let Mode::Heredoc {
            escapes,
            interpolate,
        } = self.mode
        else {
            return Ok(());
        };
        if interpolate {
            return self.interpolate(0, false);
        }
        let value = if escapes.backslash {
            unescape(self.src, "", escapes, 0)?
        } else {
            self.src.to_string()
        };
        self.pos = self.b.len();
        self.push(Tok::Str(value), 0, self.b.len());
        Ok(())
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Term {
    Quote,
    Dollar,
    DollarBrace,
    End,
}

/// Puppet's slurp patterns `(?:[^\\]|^)(?:\\\\)*TERMINATOR` prefer consuming one
/// character before the terminator, even at the scan position: a `quote` there is
/// taken as text when an even run of backslashes and a terminator follow it
/// (so three double quotes lex as the string `"`, and `"${x}""` ends with `"`).
fn swallows_first(b: &[u8], at: usize, quote: u8, terminators: &[u8]) -> bool {
    if b.get(at) != Some(&quote) {
        return false;
    }
    let mut j = at + 1;
    while j < b.len() && b[j] == b'\\' {
        j += 1;
    }
    (j - at - 1).is_multiple_of(2) && b.get(j).is_some_and(|c| terminators.contains(c))
}

/// Ruby's `String#strip`: only ASCII whitespace and NUL, not Unicode spaces.
fn ruby_strip(s: &str) -> &str {
    s.trim_matches(|c| matches!(c, '\0' | '\t' | '\n' | '\x0b' | '\x0c' | '\r' | ' '))
}

/// Puppet's `escaped_end`: is the regex's closing slash escaped by an odd number
/// of backslashes?
fn escaped_end(body: &[u8]) -> bool {
    let n = body.iter().rev().take_while(|b| **b == b'\\').count();
    n % 2 == 1
}

/// `((::)?[A-Z]\w*)+`; returns the end (== start when nothing matched).
fn scan_class_ref(b: &[u8], start: usize) -> usize {
    let mut p = start;
    loop {
        let mut q = p;
        if b[q..].starts_with(b"::") {
            q += 2;
        }
        if q < b.len() && b[q].is_ascii_uppercase() {
            q += 1;
            while q < b.len() && is_word(b[q]) {
                q += 1;
            }
            p = q;
        } else {
            return p;
        }
    }
}

/// `((::)?[a-z_]([\w-]*\w)?)+`; returns the end (== start when nothing matched).
fn scan_bare_word(b: &[u8], start: usize) -> usize {
    let mut p = start;
    loop {
        let mut q = p;
        if b[q..].starts_with(b"::") {
            q += 2;
        }
        if q < b.len() && (b[q].is_ascii_lowercase() || b[q] == b'_') {
            q += 1;
            let mut r = q;
            while r < b.len() && (is_word(b[r]) || b[r] == b'-') {
                r += 1;
            }
            while r > q && b[r - 1] == b'-' {
                r -= 1;
            }
            p = r;
        } else {
            return p;
        }
    }
}

/// Puppet's PATTERN_NAME: `(::)?[a-z]\w*(::[a-z]\w*)*`, the whole text.
fn is_name(text: &str) -> bool {
    let t = text.strip_prefix("::").unwrap_or(text);
    t.split_colons().all(|seg| {
        let mut bytes = seg.bytes();
        matches!(bytes.next(), Some(b'a'..=b'z')) && bytes.all(is_word)
    })
}

/// After `$`: `(::)?(\w+::)*\w+`. Returns the end of the name.
fn scan_variable(b: &[u8], start: usize) -> Option<usize> {
    let mut p = start;
    if b[p..].starts_with(b"::") {
        p += 2;
    }
    scan_qualified_words(b, p)
}

/// In strings, after `$`: `(::)?(\w+::)*\w+` as well.
fn scan_plain_variable(b: &[u8], start: usize) -> Option<usize> {
    scan_variable(b, start)
}

fn scan_qualified_words(b: &[u8], mut p: usize) -> Option<usize> {
    let mut end = None;
    loop {
        let s = p;
        while p < b.len() && is_word(b[p]) {
            p += 1;
        }
        if p == s {
            return end;
        }
        end = Some(p);
        if b[p..].starts_with(b"::") && b.get(p + 2).is_some_and(|c| is_word(*c)) {
            p += 2;
        } else {
            return end;
        }
    }
}

/// Puppet's PATTERN_NUMBER at `start` (a digit), with the regex's backtracking:
/// `\b(?:0[xX][0-9A-Fa-f]+|0?\d+(?:\.\d+)?(?:[eE]-?\d+)?)\b`.
fn match_number(b: &[u8], start: usize) -> Option<usize> {
    // Ruby's `\b` counts non-ASCII letters and digits as word characters.
    let boundary = |p: usize| {
        p >= b.len()
            || !(is_word(b[p])
                || (b[p] >= 0x80
                    && std::str::from_utf8(&b[p..(p + 4).min(b.len())])
                        .or_else(|e| std::str::from_utf8(&b[p..p + e.valid_up_to()]))
                        .ok()
                        .and_then(|s| s.chars().next())
                        .is_some_and(char::is_alphanumeric)))
    };
    let digits = |p: usize| {
        let mut q = p;
        while q < b.len() && b[q].is_ascii_digit() {
            q += 1;
        }
        q
    };
    if b[start] == b'0' && matches!(b.get(start + 1), Some(b'x' | b'X')) {
        let mut q = start + 2;
        while q < b.len() && b[q].is_ascii_hexdigit() {
            q += 1;
        }
        if q > start + 2 && boundary(q) {
            return Some(q);
        }
    }
    let int_end = digits(start);
    let frac_end = if b.get(int_end) == Some(&b'.') {
        let q = digits(int_end + 1);
        (q > int_end + 1).then_some(q)
    } else {
        None
    };
    let exp = |p: usize| -> Option<usize> {
        if matches!(b.get(p), Some(b'e' | b'E')) {
            let mut q = p + 1;
            if b.get(q) == Some(&b'-') {
                q += 1;
            }
            let r = digits(q);
            (r > q).then_some(r)
        } else {
            None
        }
    };
    let mut candidates = Vec::with_capacity(4);
    if let Some(f) = frac_end {
        if let Some(e) = exp(f) {
            candidates.push(e);
        }
        candidates.push(f);
    }
    if let Some(e) = exp(int_end) {
        candidates.push(e);
    }
    candidates.push(int_end);
    candidates.into_iter().find(|p| boundary(*p))
}

/// Puppet's `assert_numeric`: the errors for malformed hex, octal and decimals.
fn assert_numeric(text: &str, at: usize) -> Result<(), RawError> {
    let b = text.as_bytes();
    let all = |s: &[u8], f: fn(&u8) -> bool| !s.is_empty() && s.iter().all(f);
    if b.len() >= 2 && b[0] == b'0' && (b[1] == b'x' || b[1] == b'X') {
        if !all(&b[2..], u8::is_ascii_hexdigit) {
            return Err(RawError::at(at, format!("Not a valid hex number {text}")));
        }
    } else if b.len() >= 2 && b[0] == b'0' && b[1] != b'.' {
        if !all(&b[1..], |c| (b'0'..=b'7').contains(c)) {
            return Err(RawError::at(at, format!("Not a valid octal number {text}")));
        }
    } else {
        let int_len = b.iter().take_while(|c| c.is_ascii_digit()).count();
        if int_len > 0 && matches!(b.get(int_len), Some(b'e' | b'E' | b'.')) {
            if match_number(b, 0) != Some(b.len()) {
                return Err(RawError::at(
                    at,
                    format!("Not a valid decimal number {text}"),
                ));
            }
        } else if int_len != b.len() || int_len == 0 {
            return Err(RawError::at(at, format!("Illegal number '{text}'")));
        }
    }
    Ok(())
}

fn unescape_sq(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.peek() {
                Some('\\') | Some('\'') => out.push(chars.next().unwrap_or('\\')),
                _ => out.push('\\'),
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Backslash escapes of double-quoted strings and heredocs (Puppet's `slurp`),
/// for text that Puppet slurped together with `terminator` (`"`, `$`, `${` or
/// nothing): the escapes are applied to text and terminator, which is then cut off
/// again, as Puppet does. Unicode escapes come first, repeated until none is left
/// (so `\u005c` makes a backslash that escapes what follows), then the
/// one-character escapes; unknown ones are kept.
fn unescape(raw: &str, terminator: &str, escapes: Escapes, at: usize) -> Result<String, RawError> {
    if !raw.contains('\\') {
        return Ok(raw.to_string());
    }
    let mut text = format!("{raw}{terminator}");
    if escapes.u {
        // Puppet repeats until nothing changes; each pass is linear, and more than
        // two are only needed for escapes that spell further escapes (`\u005cu0041`),
        // so a bound keeps crafted input from taking quadratic time.
        for _ in 0..MAX_UNICODE_PASSES {
            match unicode_pass(&text) {
                Ok(Some(next)) => text = next,
                Ok(None) => break,
                Err(()) => {
                    return Err(RawError::at(
                        at,
                        "Unicode escape '\\u' was not followed by 4 hex digits or 1-6 hex digits in {} or was > 10ffff",
                    ))
                }
            }
        }
    }
    let mut out = String::with_capacity(text.len());
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c != b'\\' {
            let ch_len = utf8_len(c);
            out.push_str(&text[i..i + ch_len]);
            i += ch_len;
            continue;
        }
        // A backslash.
        let Some(&next) = b.get(i + 1) else {
            out.push('\\');
            i += 1;
            continue;
        };
        if next == b'\r' && b.get(i + 2) == Some(&b'\n') && escapes.newline {
            i += 3;
            continue;
        }
        let ch_len = utf8_len(next);
        let ch = text[i + 1..i + 1 + ch_len].chars().next().unwrap_or('\\');
        match escapes.maps(ch) {
            Some(s) => out.push_str(s),
            None => {
                out.push('\\');
                out.push(ch);
            }
        }
        i += 1 + ch_len;
    }
    // Cut the (unescaped) terminator off again, counting characters as Ruby does.
    for _ in terminator.chars() {
        out.pop();
    }
    Ok(out)
}

/// See `unescape`.
const MAX_UNICODE_PASSES: usize = 64;

/// One `gsub!` pass of Puppet's unicode escape pattern,
/// `((?:[^\\]|^)(?:\\\\)*)\\u(?:([\da-fA-F]{4})|\{([\da-fA-F]{1,6})\})`: matches do not
/// overlap, and each needs a character (not a backslash) before its backslashes
/// unless those start a line, so adjacent escapes take several passes.
/// `Ok(None)` when nothing matched; `Err` for a code point that is no character.
fn unicode_pass(s: &str) -> Result<Option<String>, ()> {
    let b = s.as_bytes();
    let mut out = String::new();
    let mut copied = 0;
    // Where the previous match ended; the next one cannot start before it.
    let mut last_end = 0;
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' {
            i += 1;
            continue;
        }
        let run_start = i;
        while i < b.len() && b[i] == b'\\' {
            i += 1;
        }
        if (i - run_start) % 2 == 0 || b.get(i) != Some(&b'u') {
            continue;
        }
        let can_start = run_start > last_end
            || (run_start == last_end && (run_start == 0 || b[run_start - 1] == b'\n'));
        if !can_start {
            continue;
        }
        let Some((ch, len)) = unicode_escape(&s[i + 1..]) else {
            continue;
        };
        let ch = ch.ok_or(())?;
        out.push_str(&s[copied..i - 1]);
        out.push(ch);
        i += 1 + len;
        copied = i;
        last_end = i;
    }
    if copied == 0 {
        return Ok(None);
    }
    out.push_str(&s[copied..]);
    Ok(Some(out))
}

fn utf8_len(first: u8) -> usize {
    match first {
        0xF0..=0xFF => 4,
        0xE0..=0xEF => 3,
        0xC0..=0xDF => 2,
        _ => 1,
    }
}

/// After `\u`: `XXXX` or `{X..XXXXXX}`. Returns the char (None if not a valid
/// code point) and the length consumed, or None when it is no unicode escape.
fn unicode_escape(s: &str) -> Option<(Option<char>, usize)> {
    let b = s.as_bytes();
    if b.first() == Some(&b'{') {
        let n = b[1..].iter().take_while(|c| c.is_ascii_hexdigit()).count();
        if (1..=6).contains(&n) && b.get(1 + n) == Some(&b'}') {
            let v = u32::from_str_radix(&s[1..1 + n], 16).ok()?;
            return Some((char::from_u32(v), n + 2));
        }
        return None;
    }
    if b.len() >= 4 && b[..4].iter().all(|c| c.is_ascii_hexdigit()) {
        let v = u32::from_str_radix(&s[..4], 16).ok()?;
        return Some((char::from_u32(v), 4));
    }
    None
}

fn to_variable(t: &mut Token) {
    let name = match &t.tok {
        Tok::Number(s) | Tok::Name(s) | Tok::Word(s) => s.clone(),
        Tok::Boolean(b) => crate::token::boolean_variable(*b),
        other => match other.keyword_text() {
            Some(k) => k.to_string(),
            None => return,
        },
    };
    t.tok = Tok::Variable(name);
}

struct HeredocSpec<'a> {
    endtag: &'a str,
    syntax: &'a str,
    escapes: Option<&'a str>,
}

/// The inside of `@(...)`: `endtag[:syntax][/escapes]`, as PATTERN_HEREDOC reads it.
fn parse_heredoc_spec(s: &str) -> Option<HeredocSpec<'_>> {
    let tag_end = s.find([':', '/']).unwrap_or(s.len());
    let endtag = &s[..tag_end];
    if endtag.is_empty() || endtag.contains(['\r', '\n']) {
        return None;
    }
    let mut rest = &s[tag_end..];
    let mut syntax = "";
    if let Some(r) = rest.strip_prefix(':') {
        let r = r.trim_start_matches([' ', '\t']);
        let n = r
            .bytes()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == b'_' || *c == b'+')
            .count();
        if n < 2 || !r.as_bytes()[0].is_ascii_lowercase() {
            return None;
        }
        syntax = &r[..n];
        rest = r[n..].trim_start_matches([' ', '\t']);
    }
    let mut escapes = None;
    if let Some(r) = rest.strip_prefix('/') {
        let n = r.bytes().take_while(|c| is_word(*c) || *c == b'$').count();
        escapes = Some(&r[..n]);
        rest = r[n..].trim_start_matches([' ', '\t']);
    }
    rest.is_empty().then_some(HeredocSpec {
        endtag,
        syntax,
        escapes,
    })
}

struct EndLine<'a> {
    leading: &'a str,
    has_margin: bool,
    remove_break: bool,
}

/// Puppet's end-line pattern, searched anywhere in the line:
/// `([[:blank:]]*)(?:([|])[[:blank:]]*)?(?:(\-)[[:blank:]]*)?TAG[[:blank:]]*\r?(?:\n|\z)`.
fn match_end_line<'a>(line: &'a str, tag: &str) -> Option<EndLine<'a>> {
    let blank = |c: u8| c == b' ' || c == b'\t';
    let b = line.as_bytes();
    let skip_blanks = |mut p: usize| {
        while p < b.len() && blank(b[p]) {
            p += 1;
        }
        p
    };
    // `TAG[[:blank:]]*\r?(?:\n|\z)` from `p`.
    let tag_ends_line = |p: usize| {
        if !line[p..].starts_with(tag) {
            return false;
        }
        let mut q = skip_blanks(p + tag.len());
        if b.get(q) == Some(&b'\r') {
            q += 1;
        }
        q == b.len() || (b[q] == b'\n' && q + 1 == b.len())
    };
    let mut start = 0;
    while start <= b.len() {
        let p = skip_blanks(start);
        let leading = &line[start..p];
        // The optional `|` and `-` are tried taken first, then not (the regex
        // backtracks: a tag may itself start with `|` or `-`).
        let margins: &[bool] = if b.get(p) == Some(&b'|') {
            &[true, false]
        } else {
            &[false]
        };
        for &has_margin in margins {
            let q = if has_margin { skip_blanks(p + 1) } else { p };
            let dashes: &[bool] = if b.get(q) == Some(&b'-') {
                &[true, false]
            } else {
                &[false]
            };
            for &remove_break in dashes {
                let r = if remove_break { skip_blanks(q + 1) } else { q };
                if tag_ends_line(r) {
                    return Some(EndLine {
                        leading,
                        has_margin,
                        remove_break,
                    });
                }
            }
        }
        // Starting anywhere in the blanks just skipped fails the same way, so
        // continue after them (keeping this linear in the line's length).
        start = p + 1;
        while start < b.len() && !line.is_char_boundary(start) {
            start += 1;
        }
    }
    None
}

/// Puppet refuses byte order marks with this message. (Puppet pads input shorter
/// than four bytes, so a file that is only a BOM is refused too.)
pub fn bom_error(b: &[u8]) -> Option<RawError> {
    let (name, n) =
        if b.starts_with(&[0x00, 0x00, 0xFE, 0xFF]) || b.starts_with(&[0xFF, 0xFE, 0x00, 0x00]) {
            ("UTF-32", 4)
        } else if b.starts_with(&[0x84, 0x31, 0x95, 0x33]) {
            ("GB-18030", 4)
        } else if b.starts_with(&[0xDD, 0x73, 0x66, 0x73]) {
            ("UTF-EBCDIC", 4)
        } else if b.starts_with(&[0x0E, 0xFE, 0xFF]) {
            ("SCSU", 3)
        } else if b.starts_with(&[0xEF, 0xBB, 0xBF]) {
            ("UTF-8", 3)
        } else if b.starts_with(&[0xF7, 0x64, 0x4C]) {
            ("UTF-1", 3)
        } else if b.starts_with(&[0xFB, 0xEE, 0x28]) {
            ("BOCU", 3)
        } else if b.starts_with(&[0xFE, 0xFF]) || b.starts_with(&[0xFF, 0xFE]) {
            ("UTF-16", 2)
        } else {
            return None;
        };
    let bytes: Vec<String> = b[..n].iter().map(|x| format!("{x:X}")).collect();
    Some(RawError {
        message: format!(
            "Illegal {name} Byte Order mark at beginning of input: [{}] - remove these from the puppet source",
            bytes.join(" ")
        ),
        offset: None,
        bare: false,
    })
}

#[cfg(test)]
mod tests;
