//! YAML as Ruby's Psych 4 (YAML 1.1) loads it with `safe_load` (what Puppet's
//! `yaml_data` uses): plain scalars resolve by Psych's `ScalarScanner`
//! (`yes`/`on` are true, `0755` is octal, `1e3` is a string, `1:30` is 5400),
//! quoted ones stay strings, `<<` merges mappings, anchors and aliases are
//! allowed, dates and timestamps are refused (`Tried to load unspecified
//! class: Date`). serde_yaml resolves YAML 1.2-style, hence this reader over
//! yaml-rust2's event stream, which keeps each scalar's raw text and style.

use rustc_hash::FxHashMap as HashMap;

use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser, Tag};
use yaml_rust2::scanner::{Marker, TScalarStyle};

use crate::values::{Map, Value};

mod errors;

/// A YAML error with its 1-based position (0 when unknown).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct YamlError {
    pub message: String,
    pub line: usize,
    pub column: usize,
    /// Whether Puppet names the file before the message (`(FILE): ...`):
    /// Psych's syntax errors and Puppet's disallowed-class wrapping do,
    /// Psych's `BadAlias` does not.
    pub names_file: bool,
}

impl std::fmt::Display for YamlError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line == 0 {
            f.write_str(&self.message)
        } else {
            write!(
                f,
                "{} at line {} column {}",
                self.message, self.line, self.column
            )
        }
    }
}

/// Loads the first document of `text` as data (node files, ENC output):
/// Psych's scalars, but dates and timestamps stay strings and Symbols
/// become their names. An empty stream is `Undef`.
pub fn load(text: &str) -> Result<Value, YamlError> {
    load_with(text, false)
}

/// Marks a Ruby Symbol in loaded data (Puppet's data has no Symbol; Hiera
/// rejects a value holding one when it is looked up).
pub const SYMBOL_MARK: &str = "\u{0}:symbol:";

/// Loads as Puppet's `safe_load(permitted_classes: [Symbol])` does for
/// Hiera: dates and timestamps are errors, Symbols are kept as strings
/// starting with [`SYMBOL_MARK`] so that lookups can reject them.
pub fn load_hiera(text: &str) -> Result<Value, YamlError> {
    load_with(text, true)
}

/// What Ruby's Psych 4 `safe_load` permits, for [`load_psych`].
#[derive(Clone, Copy, Debug)]
pub struct PsychOptions {
    /// `permitted_classes` holds `Symbol` (`:sym` loads as a Symbol,
    /// marked with [`SYMBOL_MARK`]); otherwise it is a `DisallowedClass`.
    pub symbols: bool,
    /// `aliases: true`; otherwise an alias is Psych's `BadAlias`.
    pub aliases: bool,
}

impl PsychOptions {
    /// `YAML.load` of Psych 4 (Ruby 3.1): `safe_load` with Symbols and
    /// without aliases.
    pub const LOAD: PsychOptions = PsychOptions {
        symbols: true,
        aliases: false,
    };
    /// `YAML.safe_load` with its defaults: neither.
    pub const SAFE_LOAD: PsychOptions = PsychOptions {
        symbols: false,
        aliases: false,
    };
}

/// Loads the first document of `text` as Ruby's Psych 4 `safe_load`
/// does with `opts` (what modules' Ruby calls: `YAML.load`,
/// `YAML.safe_load`): dates and timestamps are `DisallowedClass`
/// errors, Symbols are kept marked with [`SYMBOL_MARK`] when permitted.
/// An empty stream is `Undef` (Ruby's `nil`).
pub fn load_psych(text: &str, opts: PsychOptions) -> Result<Value, YamlError> {
    let mut builder = Builder {
        hiera: true,
        refuse_symbols: !opts.symbols,
        refuse_aliases: (!opts.aliases).then(|| text.to_string()),
        ..Builder::default()
    };
    run(text, &mut builder)?;
    finish(builder)
}

fn load_with(text: &str, hiera: bool) -> Result<Value, YamlError> {
    let mut builder = Builder {
        hiera,
        ..Builder::default()
    };
    run(text, &mut builder)?;
    finish(builder)
}

fn run(text: &str, builder: &mut Builder) -> Result<(), YamlError> {
    let mut parser = Parser::new_from_str(text);
    parser.load(builder, false).map_err(|e| {
        let (message, line, column) = errors::as_libyaml(
            text,
            e.info(),
            e.marker().line(),
            e.marker().col() + 1,
            &builder.open,
        );
        YamlError {
            names_file: !message.starts_with("Unknown alias: "),
            message,
            line,
            column,
        }
    })
}

fn finish(builder: Builder) -> Result<Value, YamlError> {
    if let Some(message) = builder.error {
        return Err(YamlError {
            names_file: !message.starts_with("Unknown alias: "),
            message,
            line: 0,
            column: 0,
        });
    }
    Ok(builder.docs.into_iter().next().unwrap_or(Value::Undef))
}

enum Frame {
    Seq(Vec<Value>, usize),
    Map(Map, Option<Value>, usize),
}

#[derive(Default)]
struct Builder {
    stack: Vec<Frame>,
    anchors: HashMap<usize, Value>,
    docs: Vec<Value>,
    error: Option<String>,
    /// Hiera's rules: dates refused, Symbols marked.
    hiera: bool,
    /// The collections open now, for placing a syntax error as libyaml does.
    open: Vec<errors::Open>,
    /// Symbols are a `DisallowedClass` (Psych's `safe_load` defaults).
    refuse_symbols: bool,
    /// Aliases are a `BadAlias` (`aliases: false`); the text, to name the
    /// alias as Psych does.
    refuse_aliases: Option<String>,
}

impl Builder {
    fn push_value(&mut self, v: Value, anchor: usize, is_merge_key: bool) {
        if anchor > 0 {
            self.anchors.insert(anchor, v.clone());
        }
        match self.stack.last_mut() {
            None => self.docs.push(v),
            Some(Frame::Seq(items, _)) => items.push(v),
            Some(Frame::Map(map, key, _)) => match key.take() {
                None => {
                    // `<<` (a plain scalar) is the merge key.
                    *key = Some(if is_merge_key {
                        Value::string("\u{0}<<")
                    } else {
                        v
                    });
                }
                // Psych's `hash.merge!` at the key's place: merged keys
                // overwrite earlier ones and later keys overwrite them.
                Some(k) if k.as_str() == Some("\u{0}<<") => match v {
                    Value::Hash(h) => {
                        for (k, x) in h.iter() {
                            map.insert(k.clone(), x.clone());
                        }
                    }
                    Value::Array(a) => {
                        let mut merged = Map::default();
                        for item in a.iter().rev() {
                            if let Value::Hash(h) = item {
                                for (k, x) in h.iter() {
                                    merged.insert(k.clone(), x.clone());
                                }
                            }
                        }
                        for (k, x) in merged {
                            map.insert(k, x);
                        }
                    }
                    other => {
                        map.insert(Value::string("<<"), other);
                    }
                },
                Some(k) => {
                    map.insert(k, v);
                }
            },
        }
    }
}

impl MarkedEventReceiver for Builder {
    fn on_event(&mut self, ev: Event, mark: Marker) {
        match ev {
            Event::SequenceStart(..) | Event::MappingStart(..) => {
                self.open.push(errors::Open {
                    seq: matches!(ev, Event::SequenceStart(..)),
                    line: mark.line(),
                    column: mark.col() + 1,
                })
            }
            Event::SequenceEnd | Event::MappingEnd => {
                self.open.pop();
            }
            _ => {}
        }
        if self.error.is_some() {
            return;
        }
        if self.hiera {
            // Psych's `ToRuby` resolves a Ruby class tag before the node's
            // content; `safe_load` permits none of those classes.
            let class = match &ev {
                Event::SequenceStart(_, Some(t)) | Event::MappingStart(_, Some(t)) => {
                    ruby_class_tag(t, false)
                }
                Event::Scalar(text, _, _, Some(t)) => {
                    ruby_class_tag(t, true).map(|c| if c.is_empty() { text.clone() } else { c })
                }
                _ => None,
            };
            if let Some(class) = class {
                self.error = Some(format!("Tried to load unspecified class: {class}"));
                return;
            }
        }
        match ev {
            Event::SequenceStart(anchor, _) => self.stack.push(Frame::Seq(Vec::new(), anchor)),
            Event::MappingStart(anchor, _) => {
                self.stack.push(Frame::Map(Map::default(), None, anchor))
            }
            Event::SequenceEnd => {
                if let Some(Frame::Seq(items, anchor)) = self.stack.pop() {
                    self.push_value(Value::array(items), anchor, false);
                }
            }
            Event::MappingEnd => {
                if let Some(Frame::Map(map, _, anchor)) = self.stack.pop() {
                    self.push_value(Value::hash(map), anchor, false);
                }
            }
            Event::Alias(_) if self.refuse_aliases.is_some() => {
                // `*name`: the name runs to a blank or a flow indicator.
                let text = self.refuse_aliases.as_deref().unwrap_or_default();
                let name: String = text
                    .chars()
                    .skip(mark.index() + 1)
                    .take_while(|c| !c.is_whitespace() && !",[]{}".contains(*c))
                    .collect();
                self.error = Some(format!("Unknown alias: {name}"));
            }
            Event::Alias(id) => {
                let v = self.anchors.get(&id).cloned().unwrap_or(Value::Undef);
                self.push_value(v, 0, false);
            }
            Event::Scalar(text, style, anchor, tag) => {
                let is_merge_key = style == TScalarStyle::Plain
                    && text == "<<"
                    && matches!(self.stack.last(), Some(Frame::Map(_, None, _)));
                let symbol = style == TScalarStyle::Plain
                    && text.starts_with(':')
                    && text.len() > 1
                    && plain_scalar(&text).is_ok_and(|v| v.as_str().is_some_and(|s| s != text));
                let tagged_symbol = tag.as_ref().is_some_and(|t| {
                    t.handle == "!" && matches!(t.suffix.as_str(), "ruby/sym" | "ruby/symbol")
                });
                if tagged_symbol && self.hiera {
                    if self.refuse_symbols {
                        self.error = Some("Tried to load unspecified class: Symbol".into());
                    } else {
                        let v = Value::string(format!("{SYMBOL_MARK}{text}"));
                        self.push_value(v, anchor, false);
                    }
                    return;
                }
                match resolve(&text, style, tag.as_ref()) {
                    Ok(Value::String(_)) if symbol && self.refuse_symbols => {
                        self.error = Some("Tried to load unspecified class: Symbol".into())
                    }
                    Ok(Value::String(name)) if symbol && self.hiera => self.push_value(
                        Value::string(format!("{SYMBOL_MARK}{name}")),
                        anchor,
                        false,
                    ),
                    Ok(v) => self.push_value(v, anchor, is_merge_key),
                    // Outside Hiera a date or timestamp is kept as written.
                    Err(_) if !self.hiera => self.push_value(Value::string(text), anchor, false),
                    Err(e) => self.error = Some(e),
                }
            }
            _ => {}
        }
    }
}

/// The Ruby class a `!ruby/...` tag makes Psych load (`safe_load` refuses
/// them all): `!ruby/object:Foo` and the like on collections, `!ruby/regexp`
/// and `!ruby/range` on scalars, `!ruby/class`/`!ruby/module` (an empty
/// name: the class is the scalar's text).
fn ruby_class_tag(t: &Tag, scalar: bool) -> Option<String> {
    if t.handle != "!" {
        return None;
    }
    let s = t.suffix.as_str();
    if scalar {
        return match s {
            "ruby/regexp" => Some("Regexp".into()),
            "ruby/range" => Some("Range".into()),
            "ruby/class" | "ruby/module" => Some(String::new()),
            _ => s
                .strip_prefix("ruby/object:")
                .filter(|c| matches!(*c, "BigDecimal" | "DateTime" | "Complex" | "Rational"))
                .map(str::to_string),
        };
    }
    let named = [
        "ruby/object:",
        "ruby/struct:",
        "ruby/hash:",
        "ruby/array:",
        "ruby/exception:",
        "ruby/hash-with-ivars:",
        "ruby/marshalable:",
        "map:",
        "seq:",
    ];
    named
        .iter()
        .find_map(|p| s.strip_prefix(p))
        .filter(|c| !c.is_empty())
        .map(str::to_string)
        .or_else(|| match s {
            "ruby/object" => Some("Object".into()),
            "ruby/struct" => Some("Struct".into()),
            "ruby/exception" => Some("Exception".into()),
            "ruby/range" => Some("Range".into()),
            "set" => Some("Psych::Set".into()),
            _ => None,
        })
}

fn resolve(text: &str, style: TScalarStyle, tag: Option<&Tag>) -> Result<Value, String> {
    if let Some(t) = tag {
        // `!!str 1` and friends; other tags keep the content (as facts caches need).
        if t.handle == "!!" || t.handle == "tag:yaml.org,2002:" {
            match t.suffix.as_str() {
                "str" => return Ok(Value::string(text)),
                "int" => {
                    if let Some(i) = parse_int(text) {
                        return Ok(Value::Integer(i));
                    }
                }
                "float" => {
                    if let Ok(f) = text.replace('_', "").parse::<f64>() {
                        return Ok(Value::Float(f));
                    }
                }
                _ => {}
            }
        }
    }
    if style != TScalarStyle::Plain {
        return Ok(Value::string(text));
    }
    plain_scalar(text)
}

/// Psych's `ScalarScanner#tokenize` for a plain scalar.
pub fn plain_scalar(s: &str) -> Result<Value, String> {
    if s.is_empty() {
        return Ok(Value::Undef);
    }
    if looks_like_word(s) || s.contains('\n') {
        if s.chars().count() > 5 {
            return Ok(Value::string(s));
        }
        let lower = s.to_lowercase();
        return Ok(match lower.as_str() {
            "~" | "null" => Value::Undef,
            "yes" | "true" | "on" => Value::Boolean(true),
            "no" | "false" | "off" => Value::Boolean(false),
            _ => Value::string(s),
        });
    }
    if is_time(s) {
        return Err("Tried to load unspecified class: Time".into());
    }
    if is_date(s) {
        return Err("Tried to load unspecified class: Date".into());
    }
    let lower = s.to_lowercase();
    if lower == ".inf" || lower == "+.inf" {
        return Ok(Value::Float(f64::INFINITY));
    }
    if lower == "-.inf" {
        return Ok(Value::Float(f64::NEG_INFINITY));
    }
    if lower == ".nan" {
        return Ok(Value::Float(f64::NAN));
    }
    if s.starts_with(':') && s.len() > 1 {
        // A Symbol; Puppet's data is a String with the symbol's name.
        let name = &s[1..];
        let name = if (name.starts_with('"') && name.ends_with('"') && name.len() >= 2)
            || (name.starts_with('\'') && name.ends_with('\'') && name.len() >= 2)
        {
            &name[1..name.len() - 1]
        } else {
            name
        };
        return Ok(Value::string(name));
    }
    if let Some(v) = sexagesimal(s) {
        return Ok(v);
    }
    if let Some(v) = sexagesimal_float(s) {
        return Ok(v);
    }
    if is_float(s) {
        let cleaned: String = s.chars().filter(|c| *c != ',' && *c != '_').collect();
        // Ruby's Float() needs a digit after '.'; Psych drops a bare '.'.
        let cleaned = cleaned
            .replace(".e", "e")
            .replace(".E", "E")
            .trim_end_matches('.')
            .to_string();
        let cleaned =
            if cleaned.starts_with('.') || cleaned.starts_with("-.") || cleaned.starts_with("+.") {
                cleaned.replacen('.', "0.", 1)
            } else {
                cleaned
            };
        if let Ok(f) = cleaned.parse::<f64>() {
            return Ok(Value::Float(f));
        }
        return Ok(Value::string(s));
    }
    if is_integer(s) {
        if let Some(i) = parse_int(s) {
            return Ok(Value::Integer(i));
        }
    }
    Ok(Value::string(s))
}

/// `^[^\d.:-]?[[:alpha:]_\s!@#$%\^&*(){}<>|/\\~;=]+`
fn looks_like_word(s: &str) -> bool {
    let word = |c: char| {
        c.is_alphabetic() || c == '_' || c.is_whitespace() || "!@#$%^&*(){}<>|/\\~;=".contains(c)
    };
    let mut chars = s.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    if word(first) {
        return true;
    }
    if first.is_ascii_digit() || first == '.' || first == ':' || first == '-' {
        return false;
    }
    chars.next().is_some_and(word)
}

fn digits(s: &str, min: usize, max: usize) -> Option<&str> {
    let n = s.chars().take_while(|c| c.is_ascii_digit()).count();
    if n >= min && n <= max {
        Some(&s[n..])
    } else {
        None
    }
}

/// `^\d{4}-(?:1[012]|0\d|\d)-(?:[12]\d|3[01]|0\d|\d)$`
fn is_date(s: &str) -> bool {
    let Some(r) = digits(s, 4, 4).and_then(|r| r.strip_prefix('-')) else {
        return false;
    };
    let Some(r) = digits(r, 1, 2).and_then(|r| r.strip_prefix('-')) else {
        return false;
    };
    digits(r, 1, 2) == Some("")
}

/// Psych's TIME: a date, `T` or blanks, then `h:mm:ss` (the rest is loose here).
fn is_time(s: &str) -> bool {
    let r = s.strip_prefix('-').unwrap_or(s);
    let Some(r) = digits(r, 4, 4).and_then(|r| r.strip_prefix('-')) else {
        return false;
    };
    let Some(r) = digits(r, 1, 2).and_then(|r| r.strip_prefix('-')) else {
        return false;
    };
    let Some(r) = digits(r, 1, 2) else {
        return false;
    };
    let r = if let Some(r) = r.strip_prefix(['T', 't']) {
        r
    } else {
        let t = r.trim_start();
        if t.len() == r.len() {
            return false;
        }
        t
    };
    let Some(r) = digits(r, 1, 2).and_then(|r| r.strip_prefix(':')) else {
        return false;
    };
    let Some(r) = digits(r, 2, 2).and_then(|r| r.strip_prefix(':')) else {
        return false;
    };
    digits(r, 2, 2).is_some()
}

/// `^[-+]?[0-9][0-9_]*(:[0-5]?[0-9]){1,2}$` → base-60 integer.
fn sexagesimal(s: &str) -> Option<Value> {
    let (neg, body) = match s.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let parts: Vec<&str> = body.split(':').collect();
    if parts.len() < 2 || parts.len() > 3 {
        return None;
    }
    let head = parts[0];
    if !head.starts_with(|c: char| c.is_ascii_digit())
        || !head.chars().all(|c| c.is_ascii_digit() || c == '_')
    {
        return None;
    }
    for p in &parts[1..] {
        let ok = match p.len() {
            1 => p.chars().all(|c| c.is_ascii_digit()),
            2 => {
                let b = p.as_bytes();
                (b'0'..=b'5').contains(&b[0]) && b[1].is_ascii_digit()
            }
            _ => false,
        };
        if !ok {
            return None;
        }
    }
    // Psych: each part's to_i times 60 ** |e - 2| (so 1:30 is 1*3600 + 30*60).
    let mut total: i64 = 0;
    for (e, p) in parts.iter().enumerate() {
        let n: i64 = p.replace('_', "").parse().ok()?;
        let pow = (e as i64 - 2).unsigned_abs() as u32;
        total = total.checked_add(n.checked_mul(60i64.checked_pow(pow)?)?)?;
    }
    let _ = neg; // Ruby's "-1".to_i keeps the sign on the first part only.
    if neg {
        let first: i64 = parts[0].replace('_', "").parse().ok()?;
        let pow = 2u32;
        total -= 2 * first * 60i64.pow(pow);
    }
    Some(Value::Integer(total))
}

/// `^[-+]?[0-9][0-9_]*(:[0-5]?[0-9]){1,2}\.[0-9_]*$` → base-60 float
/// (each part's `to_f` times 60 ** |e - 2|).
fn sexagesimal_float(s: &str) -> Option<Value> {
    let (whole, frac) = s.rsplit_once('.')?;
    if !frac.chars().all(|c| c.is_ascii_digit() || c == '_') {
        return None;
    }
    sexagesimal(whole)?;
    let parts: Vec<&str> = s.split(':').collect();
    let mut total = 0.0f64;
    for (e, p) in parts.iter().enumerate() {
        // Ruby's to_f: leading sign, digits, underscores between digits.
        let cleaned: String = p.chars().filter(|c| *c != '_').collect();
        let cleaned = cleaned.trim_end_matches('.');
        let n: f64 = cleaned.parse().unwrap_or(0.0);
        total += n * 60f64.powi((e as i32 - 2).abs());
    }
    Some(Value::Float(total))
}

/// Psych's FLOAT: `[-+]?([0-9][0-9_,]*)?\.[0-9]*([eE][-+][0-9]+)?`.
fn is_float(s: &str) -> bool {
    let r = s.strip_prefix(['-', '+']).unwrap_or(s);
    let mut chars = r.char_indices().peekable();
    let mut i = 0;
    if r.starts_with(|c: char| c.is_ascii_digit()) {
        while let Some((j, c)) = chars.peek().copied() {
            if c.is_ascii_digit() || c == '_' || c == ',' {
                chars.next();
                i = j + 1;
            } else {
                break;
            }
        }
    }
    let Some(r) = r[i..].strip_prefix('.') else {
        return false;
    };
    let n = r.chars().take_while(|c| c.is_ascii_digit()).count();
    let r = &r[n..];
    if r.is_empty() {
        // A lone "." (or "+.") is a string.
        return !(i == 0 && n == 0);
    }
    let Some(r) = r.strip_prefix(['e', 'E']) else {
        return false;
    };
    let Some(r) = r.strip_prefix(['-', '+']) else {
        return false;
    };
    !r.is_empty() && r.chars().all(|c| c.is_ascii_digit())
}

/// Psych's INTEGER (with `,` and `_` separators).
fn is_integer(s: &str) -> bool {
    let r = s.strip_prefix(['-', '+']).unwrap_or(s);
    if let Some(b) = r.strip_prefix("0b") {
        return !b.is_empty() && b.chars().all(|c| matches!(c, '0' | '1' | '_' | ','));
    }
    if let Some(h) = r.strip_prefix("0x") {
        return !h.is_empty()
            && h.chars()
                .all(|c| c.is_ascii_hexdigit() || c == '_' || c == ',');
    }
    if r == "0" {
        return true;
    }
    if let Some(o) = r.strip_prefix('0') {
        return !o.is_empty() && o.chars().all(|c| matches!(c, '0'..='7' | '_' | ','));
    }
    // [1-9](?:[0-9]|,[0-9]|_[0-9])*
    let b = r.as_bytes();
    if b.is_empty() || !(b'1'..=b'9').contains(&b[0]) {
        return false;
    }
    let mut i = 1;
    while i < b.len() {
        if b[i].is_ascii_digit() {
            i += 1;
        } else if (b[i] == b',' || b[i] == b'_') && i + 1 < b.len() && b[i + 1].is_ascii_digit() {
            i += 2;
        } else {
            return false;
        }
    }
    true
}

/// Ruby's `Integer(s.delete(',_'))`: 0b, 0x, leading-0 octal, decimal.
fn parse_int(s: &str) -> Option<i64> {
    let cleaned: String = s.chars().filter(|c| *c != ',' && *c != '_').collect();
    let (neg, r) = match cleaned.strip_prefix('-') {
        Some(r) => (true, r.to_string()),
        None => (
            false,
            cleaned.strip_prefix('+').unwrap_or(&cleaned).to_string(),
        ),
    };
    let v = if let Some(b) = r.strip_prefix("0b") {
        i64::from_str_radix(b, 2).ok()?
    } else if let Some(h) = r.strip_prefix("0x") {
        i64::from_str_radix(h, 16).ok()?
    } else if r.len() > 1 && r.starts_with('0') {
        i64::from_str_radix(&r[1..], 8).ok()?
    } else {
        r.parse::<i64>().ok()?
    };
    Some(if neg { -v } else { v })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(s: &str) -> Value {
        plain_scalar(s).unwrap()
    }

    /// Expectations from `ruby -ryaml` (Psych 4.0.3, Ruby 3.1):
    /// `Psych.safe_load(text, permitted_classes: [Symbol])`.
    #[test]
    fn psych_plain_scalars() {
        let t = Value::Boolean(true);
        let f = Value::Boolean(false);
        let s = |x: &str| Value::string(x);
        let cases: Vec<(&str, Value)> = vec![
            ("yes", t.clone()),
            ("no", f.clone()),
            ("on", t.clone()),
            ("off", f.clone()),
            ("y", s("y")),
            ("n", s("n")),
            ("Yes", t.clone()),
            ("NO", f.clone()),
            ("True", t.clone()),
            ("TRUE", t.clone()),
            ("tRue", t.clone()),
            ("~", Value::Undef),
            ("null", Value::Undef),
            ("Null", Value::Undef),
            ("NULL", Value::Undef),
            ("0755", Value::Integer(493)),
            ("0x1F", Value::Integer(31)),
            ("1_000", Value::Integer(1000)),
            ("1e3", s("1e3")),
            ("1.0e3", s("1.0e3")),
            ("1.5", Value::Float(1.5)),
            (".5", Value::Float(0.5)),
            ("+1", Value::Integer(1)),
            ("-0", Value::Integer(0)),
            ("0o17", s("0o17")),
            ("0b101", Value::Integer(5)),
            (":sym", s("sym")),
            ("1:30", Value::Integer(5400)),
            ("190:20:30", Value::Integer(685230)),
            ("1_0.5", Value::Float(10.5)),
            ("08", s("08")),
            ("09.5", Value::Float(9.5)),
            ("12e", s("12e")),
            ("1.0e+3", Value::Float(1000.0)),
            ("0.1e3", s("0.1e3")),
            ("1.", Value::Float(1.0)),
            ("1e-3", s("1e-3")),
            ("-1_000", Value::Integer(-1000)),
            ("0_7", Value::Integer(7)),
            ("", Value::Undef),
            ("1,000", Value::Integer(1000)),
            ("0.", Value::Float(0.0)),
            ("+.5", Value::Float(0.5)),
            ("hello world", s("hello world")),
            ("truely", s("truely")),
        ];
        for (text, want) in cases {
            let got = one(text);
            assert!(
                got == want || (got.to_string() == want.to_string() && text == "1."),
                "{text}: got {got:?}, want {want:?}"
            );
        }
        assert!(matches!(one(".inf"), Value::Float(f) if f == f64::INFINITY));
        assert!(matches!(one("-.inf"), Value::Float(f) if f == f64::NEG_INFINITY));
        assert!(matches!(one(".nan"), Value::Float(f) if f.is_nan()));
    }

    #[test]
    fn dates_are_refused() {
        assert_eq!(
            plain_scalar("2024-01-02").unwrap_err(),
            "Tried to load unspecified class: Date"
        );
        assert_eq!(
            plain_scalar("2024-01-02 10:00:00").unwrap_err(),
            "Tried to load unspecified class: Time"
        );
    }

    #[test]
    fn documents_quotes_merge_keys_and_aliases() {
        let v = load("base: &b {a: 1, b: 2}\nx:\n  <<: *b\n  b: 3\nq: 'yes'\nl: [*b]\n").unwrap();
        let Value::Hash(h) = v else { panic!() };
        let x = h.get(&Value::string("x")).unwrap().to_string();
        assert_eq!(x, "{a => 1, b => 3}");
        assert_eq!(h.get(&Value::string("q")), Some(&Value::string("yes")));
        assert_eq!(load("").unwrap(), Value::Undef);
    }
}
