//! `JSON.parse` as Ruby's json extension does it: json 2.6 under Ruby 3.1
//! (Puppet 7.23), json 2.9 under Ruby 3.3 (Puppet 8.10). Puppet reads a
//! Hiera JSON data file with it (`json_data`), and templates and Ruby
//! functions call it.
//!
//! Both parsers are Ragel state machines, one per kind of value, and what
//! they accept and where they say they failed follow from that shape, not
//! from the JSON grammar:
//! - they take more than JSON: `/* */` and `//` comments between tokens
//!   (a `//` comment needs its newline), any escape (`\q` is `q`), a
//!   top-level scalar;
//! - an array that fails raises at the item it could not read; an object
//!   that fails only returns, so the error names the outermost object
//!   around the failure, or the array holding it (`unexpected token at
//!   '{"a":1,}'`);
//! - the message quotes the rest of the text from there (to a NUL byte, as
//!   C prints it), prefixed by json 2.6 with the line of its C source.
//!
//! Each rule here was seen with both Rubies (`tests/json_parse.rs` holds
//! their answers).

use crate::bad_bytes;
use crate::ruby::RubyVersion;
use crate::{Map, Value};

/// How deep arrays and objects may nest (`max_nesting`'s default).
pub const MAX_NESTING: usize = 100;

/// What `JSON.parse` raised.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JsonParseError {
    /// `JSON::ParserError`, with its message.
    Parser(String),
    /// `JSON::NestingError`, with its message.
    Nesting(String),
}

impl JsonParseError {
    /// The Ruby class raised.
    pub fn class(&self) -> &'static str {
        match self {
            JsonParseError::Parser(_) => "JSON::ParserError",
            JsonParseError::Nesting(_) => "JSON::NestingError",
        }
    }

    /// The exception's message.
    pub fn message(&self) -> &str {
        match self {
            JsonParseError::Parser(m) | JsonParseError::Nesting(m) => m,
        }
    }
}

impl std::fmt::Display for JsonParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.message())
    }
}

/// `JSON.parse(text)` with Ruby's default options. Text holding bad-byte
/// stand-ins ([`crate::bad_bytes`]) reads as Ruby reads those bytes: inside
/// a string they are kept, elsewhere they are a token it cannot read.
pub fn parse(text: &str, ruby: RubyVersion) -> Result<Value, JsonParseError> {
    Parser {
        b: text.as_bytes(),
        ruby,
        nesting: 0,
    }
    .document()
}

/// Where json 2.6 raised "unexpected token": the line of its `parser.c`
/// that its message starts with.
#[derive(Clone, Copy)]
enum Site {
    Document = 859,
    Array = 451,
    NaN = 225,
    Infinity = 232,
    MinusInfinity = 249,
    Surrogate = 521,
}

struct Parser<'a> {
    b: &'a [u8],
    ruby: RubyVersion,
    nesting: usize,
}

/// A value read: where the text goes on, and the value; `None` when the
/// value's machine failed without raising (its caller decides).
type Read = Result<Option<(usize, Value)>, JsonParseError>;

fn begins_value(c: u8) -> bool {
    matches!(
        c,
        b'n' | b'f' | b't' | b'"' | b'-' | b'[' | b'{' | b'N' | b'I'
    ) || c.is_ascii_digit()
}

impl Parser<'_> {
    fn document(&mut self) -> Result<Value, JsonParseError> {
        let at = self
            .ignore(0)
            .map_err(|at| self.unexpected(Site::Document, at))?;
        if !self.b.get(at).is_some_and(|&c| begins_value(c)) {
            return Err(self.unexpected(Site::Document, at));
        }
        let Some((end, value)) = self.value(at)? else {
            return Err(self.unexpected(Site::Document, at));
        };
        match self.ignore(end) {
            Ok(end) if end == self.b.len() => Ok(value),
            Ok(at) | Err(at) => Err(self.unexpected(Site::Document, at)),
        }
    }

    /// "unexpected token at '...'": the text from `at` to its end or its
    /// first NUL byte, as C prints it; json 2.9 quotes at most 32 bytes of
    /// it (and may cut a character in two).
    fn unexpected(&self, site: Site, at: usize) -> JsonParseError {
        self.raise(site, "unexpected token", at)
    }

    /// "WORDS at '...'", quoting as [`Self::unexpected`] does.
    fn raise(&self, site: Site, words: &str, at: usize) -> JsonParseError {
        let rest = std::str::from_utf8(&self.b[at.min(self.b.len())..]).unwrap_or_default();
        let raw = bad_bytes::encode(rest);
        let mut quoted = raw.split(|&c| c == 0).next().unwrap_or_default();
        if self.ruby == RubyVersion::V3_3 {
            quoted = &quoted[..quoted.len().min(32)];
        }
        let quoted = bad_bytes::decode(quoted);
        JsonParseError::Parser(match self.ruby {
            RubyVersion::V3_1 => format!("{}: {words} at '{quoted}'", site as u32),
            RubyVersion::V3_3 => format!("{words} at '{quoted}'"),
        })
    }

    /// Past whitespace and comments from `at`: where the next token starts,
    /// or `Err` with where a comment broke off (the end of the text for one
    /// left open).
    fn ignore(&self, mut at: usize) -> Result<usize, usize> {
        let b = self.b;
        loop {
            match b.get(at) {
                Some(b' ' | b'\t' | b'\r' | b'\n') => at += 1,
                Some(b'/') => match b.get(at + 1) {
                    Some(b'*') => {
                        let body = &b[at + 2..];
                        let close = body.windows(2).position(|w| w == b"*/");
                        at = close.map(|c| at + 2 + c + 2).ok_or(b.len())?;
                    }
                    Some(b'/') => {
                        let line = b[at + 2..].iter().position(|&c| c == b'\n');
                        at = line.map(|n| at + 2 + n + 1).ok_or(b.len())?;
                    }
                    Some(_) => return Err(at + 1),
                    None => return Err(b.len()),
                },
                _ => return Ok(at),
            }
        }
    }

    /// The value starting at `at` (its first character begins a value).
    fn value(&mut self, at: usize) -> Read {
        let rest = &self.b[at..];
        let literal = |word: &str, v: Value| {
            Ok(rest
                .starts_with(word.as_bytes())
                .then(|| (at + word.len(), v)))
        };
        match rest.first() {
            Some(b'n') => literal("null", Value::Undef),
            Some(b't') => literal("true", Value::Boolean(true)),
            Some(b'f') => literal("false", Value::Boolean(false)),
            Some(b'N') if rest.starts_with(b"NaN") => Err(self.unexpected(Site::NaN, at)),
            // json 2.6 quotes from one byte before the word: at the start
            // of the text, the byte before Ruby's buffer (seen: none).
            Some(b'I') if rest.starts_with(b"Infinity") => Err(self.unexpected(
                Site::Infinity,
                match (self.ruby, at) {
                    (RubyVersion::V3_1, 0) => self.b.len(),
                    (RubyVersion::V3_1, _) => at - 1,
                    (RubyVersion::V3_3, _) => at,
                },
            )),
            Some(b'"') => Ok(self.string(at)?.map(|(end, s)| (end, Value::string(s)))),
            Some(b'[' | b'{') => {
                self.nesting += 1;
                let read = if self.nesting > MAX_NESTING {
                    Err(JsonParseError::Nesting(format!(
                        "nesting of {} is too deep",
                        self.nesting
                    )))
                } else if rest[0] == b'[' {
                    self.array(at).map(Some)
                } else {
                    self.object(at)
                };
                self.nesting -= 1;
                read
            }
            Some(c) if *c == b'-' || c.is_ascii_digit() => self.number(at),
            _ => Ok(None),
        }
    }

    /// An array: it raises where it fails.
    fn array(&mut self, open: usize) -> Result<(usize, Value), JsonParseError> {
        let fail = |p: &Self, at| p.unexpected(Site::Array, at);
        let mut items = Vec::new();
        let mut at = self.ignore(open + 1).map_err(|at| fail(self, at))?;
        if self.b.get(at) == Some(&b']') {
            return Ok((at + 1, Value::array(items)));
        }
        loop {
            if !self.b.get(at).is_some_and(|&c| begins_value(c)) {
                return Err(fail(self, at));
            }
            let Some((end, item)) = self.value(at)? else {
                return Err(fail(self, at));
            };
            items.push(item);
            at = self.ignore(end).map_err(|at| fail(self, at))?;
            match self.b.get(at) {
                Some(b']') => return Ok((at + 1, Value::array(items))),
                Some(b',') => at = self.ignore(at + 1).map_err(|at| fail(self, at))?,
                _ => return Err(fail(self, at)),
            }
        }
    }

    /// An object: it does not raise where it fails (its caller does).
    fn object(&mut self, open: usize) -> Read {
        let mut map = Map::default();
        let Ok(mut at) = self.ignore(open + 1) else {
            return Ok(None);
        };
        if self.b.get(at) == Some(&b'}') {
            return Ok(Some((at + 1, Value::hash(map))));
        }
        loop {
            let Some((end, name)) = self.string(at)? else {
                return Ok(None);
            };
            let Ok(colon) = self.ignore(end) else {
                return Ok(None);
            };
            if self.b.get(colon) != Some(&b':') {
                return Ok(None);
            }
            let Ok(start) = self.ignore(colon + 1) else {
                return Ok(None);
            };
            if !self.b.get(start).is_some_and(|&c| begins_value(c)) {
                return Ok(None);
            }
            let Some((end, value)) = self.value(start)? else {
                return Ok(None);
            };
            // A repeated name keeps its first place and its last value.
            map.insert(Value::string(name), value);
            let Ok(next) = self.ignore(end) else {
                return Ok(None);
            };
            match self.b.get(next) {
                Some(b'}') => return Ok(Some((next + 1, Value::hash(map)))),
                Some(b',') => match self.ignore(next + 1) {
                    Ok(name) => at = name,
                    Err(_) => return Ok(None),
                },
                _ => return Ok(None),
            }
        }
    }

    /// A number. json 2.6 reads a float where one reads, else an integer,
    /// neither running into more of a number (`01`, `1.5.`): `1.5e` is the
    /// integer `1`, then a `.` it cannot read. json 2.9 reads one number
    /// whose failure anywhere is the whole number's.
    fn number(&self, at: usize) -> Read {
        if self.b[at..].starts_with(b"-Infinity") {
            return Err(self.unexpected(Site::MinusInfinity, at));
        }
        let end = match self.ruby {
            RubyVersion::V3_1 => self.float_end(at).or_else(|| self.integer_end(at)),
            RubyVersion::V3_3 => self.number_end(at),
        };
        let Some(end) = end else {
            return Ok(None);
        };
        let text = std::str::from_utf8(&self.b[at..end]).unwrap_or_default();
        let float = || Value::Float(text.parse().unwrap_or(0.0));
        let value = if text.contains(['.', 'e', 'E']) {
            float()
        } else {
            // Ruby's Integer has no bound; past 64 bits it is a Float here.
            text.parse().map(Value::Integer).unwrap_or_else(|_| float())
        };
        Ok(Some((end, value)))
    }

    /// An integer's end: not followed by a digit.
    fn integer_end(&self, at: usize) -> Option<usize> {
        let end = self.integer_digits(at)?;
        (!self.b.get(end).is_some_and(u8::is_ascii_digit)).then_some(end)
    }

    /// json 2.9's number: an integer part, a fraction, an exponent, not
    /// followed by `[0-9Ee.-]`.
    fn number_end(&self, at: usize) -> Option<usize> {
        let b = self.b;
        let mut end = self.integer_digits(at)?;
        if b.get(end) == Some(&b'.') {
            end = self.fraction_end(end)?;
        }
        if matches!(b.get(end), Some(b'e' | b'E')) {
            end = self.exponent_end(end)?;
        }
        self.number_ends(end)
    }

    /// `end` unless more of a number follows it.
    fn number_ends(&self, end: usize) -> Option<usize> {
        match self.b.get(end) {
            Some(c) if c.is_ascii_digit() || matches!(c, b'e' | b'E' | b'.' | b'-') => None,
            _ => Some(end),
        }
    }

    /// From a `.`: its digits' end.
    fn fraction_end(&self, dot: usize) -> Option<usize> {
        let n = digits(&self.b[dot + 1..]);
        (n > 0).then_some(dot + 1 + n)
    }

    /// From an `e`: a sign, then digits; their end.
    fn exponent_end(&self, e: usize) -> Option<usize> {
        let at = e + 1 + usize::from(matches!(self.b.get(e + 1), Some(b'+' | b'-')));
        let n = digits(&self.b[at..]);
        (n > 0).then_some(at + n)
    }

    /// `-? (0 | [1-9][0-9]*)`: where it ends.
    fn integer_digits(&self, at: usize) -> Option<usize> {
        let b = self.b;
        let at = at + usize::from(b.get(at) == Some(&b'-'));
        match b.get(at)? {
            b'0' => Some(at + 1),
            b'1'..=b'9' => Some(at + 1 + digits(&b[at + 1..])),
            _ => None,
        }
    }

    /// json 2.6's float: an integer part, then a fraction, an exponent or
    /// both, not followed by `[0-9Ee.-]`.
    fn float_end(&self, at: usize) -> Option<usize> {
        let mut end = self.integer_digits(at)?;
        let fraction = self.b.get(end) == Some(&b'.');
        if fraction {
            end = self.fraction_end(end)?;
        }
        if matches!(self.b.get(end), Some(b'e' | b'E')) {
            end = self.exponent_end(end)?;
        } else if !fraction {
            return None;
        }
        self.number_ends(end)
    }

    /// A string starting at the quote `at`: where it ends, and its text;
    /// `None` where its machine fails, an error where its escapes do.
    fn string(&self, at: usize) -> Result<Option<(usize, String)>, JsonParseError> {
        let Some(end) = self.string_end(at) else {
            return Ok(None);
        };
        match unescape(&self.b[at + 1..end]) {
            Ok(bytes) => Ok(Some((end + 1, bad_bytes::decode(&bytes).into_owned()))),
            Err(from) => {
                Err(self.raise(Site::Surrogate, "incomplete surrogate pair", at + 1 + from))
            }
        }
    }

    /// The closing quote of the string at `at`: any character but a control
    /// character, or an escape (`\u` with four hex digits).
    fn string_end(&self, at: usize) -> Option<usize> {
        let b = self.b;
        if b.get(at) != Some(&b'"') {
            return None;
        }
        let mut i = at + 1;
        loop {
            match *b.get(i)? {
                b'"' => return Some(i),
                b'\\' => match *b.get(i + 1)? {
                    b'u' => {
                        let hex = b.get(i + 2..i + 6)?;
                        if !hex.iter().all(u8::is_ascii_hexdigit) {
                            return None;
                        }
                        i += 6;
                    }
                    0..=0x1f => return None,
                    _ => i += 2,
                },
                0..=0x1f => return None,
                _ => i += 1,
            }
        }
    }
}

fn digits(b: &[u8]) -> usize {
    b.iter().take_while(|c| c.is_ascii_digit()).count()
}

/// A string's bytes between its quotes with its escapes undone, as json's
/// `json_string_unescape` does: `\u` pairs of surrogates are joined by its
/// arithmetic whether or not the second is a low surrogate, a high
/// surrogate not followed by `\u` is `?` and swallows the character after
/// it, a lone surrogate is written as three bytes that are not UTF-8, and
/// any other escaped character is itself. A high surrogate with fewer
/// than six bytes after it fails, quoting from where the run of plain text
/// before it began (`Err` with that offset).
fn unescape(s: &[u8]) -> Result<Vec<u8>, usize> {
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    // Where json's pending run of plain text starts.
    let mut run = 0;
    while i < s.len() {
        if s[i] != b'\\' {
            out.push(s[i]);
            i += 1;
            continue;
        }
        let Some(&e) = s.get(i + 1) else {
            break;
        };
        let simple = match e {
            b'n' => Some(b'\n'),
            b'r' => Some(b'\r'),
            b't' => Some(b'\t'),
            b'"' => Some(b'"'),
            b'\\' => Some(b'\\'),
            b'b' => Some(0x08),
            b'f' => Some(0x0c),
            _ => None,
        };
        if let Some(c) = simple {
            out.push(c);
            i += 2;
            run = i;
            continue;
        }
        if e != b'u' {
            // `\/`, `\q`: the character itself.
            i += 1;
            run = i;
            continue;
        }
        let mut ch = hex4(&s[i + 2..]);
        i += 6;
        if ch & 0xFC00 == 0xD800 {
            if s.len() < i + 6 {
                return Err(run);
            }
            if s[i] == b'\\' && s[i + 1] == b'u' {
                let low = hex4(&s[i + 2..]);
                ch = ((ch & 0x3F) << 10) | ((((ch >> 6) & 0xF) + 1) << 16) | (low & 0x3FF);
                i += 6;
            } else {
                out.push(b'?');
                i += 1;
                run = i;
                continue;
            }
        }
        utf8_bytes(ch, &mut out);
        run = i;
    }
    Ok(out)
}

/// Four hex digits' value; U+FFFD where one is not a hex digit.
fn hex4(s: &[u8]) -> u32 {
    let mut v = 0;
    for i in 0..4 {
        match s.get(i).and_then(|c| (*c as char).to_digit(16)) {
            Some(d) => v = (v << 4) | d,
            None => return 0xFFFD,
        }
    }
    v
}

/// `ch` in UTF-8's byte layout, surrogates included.
fn utf8_bytes(ch: u32, out: &mut Vec<u8>) {
    // Each `as u8` keeps bits masked to fit.
    match ch {
        0..=0x7F => out.push(ch as u8),
        0x80..=0x7FF => out.extend([0xC0 | (ch >> 6) as u8, 0x80 | (ch & 0x3F) as u8]),
        0x800..=0xFFFF => out.extend([
            0xE0 | (ch >> 12) as u8,
            0x80 | ((ch >> 6) & 0x3F) as u8,
            0x80 | (ch & 0x3F) as u8,
        ]),
        0x10000..=0x1F_FFFF => out.extend([
            0xF0 | (ch >> 18) as u8,
            0x80 | ((ch >> 12) & 0x3F) as u8,
            0x80 | ((ch >> 6) & 0x3F) as u8,
            0x80 | (ch & 0x3F) as u8,
        ]),
        _ => out.push(b'?'),
    }
}
