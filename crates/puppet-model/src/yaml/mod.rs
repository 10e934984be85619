//! YAML as Ruby's Psych 4 (YAML 1.1) loads it with `safe_load` (what Puppet's
//! `yaml_data` uses): plain scalars resolve by Psych's `ScalarScanner`
//! (`yes`/`on` are true, `0755` is octal, `1e3` is a string, `1:30` is 5400),
//! quoted ones stay strings, `<<` merges mappings, anchors and aliases are
//! allowed, dates and timestamps are refused (`Tried to load unspecified
//! class: Date`). YAML 1.2 resolves otherwise, hence this reader over
//! yaml-rust2's event stream, which keeps each scalar's raw text and style.
//! pverify reads all its YAML with it: Hiera data, node files, mocks, and
//! its own config files ([`from_str`]).

use rustc_hash::FxHashMap as HashMap;

use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser, Tag};
use yaml_rust2::scanner::{Marker, TScalarStyle};

use crate::values::{Map, Value};

mod errors;
mod reader;

pub use reader::utf8_error;

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
    /// Psych's `BadAlias` (the message is Psych 4.0's, `Unknown alias:
    /// NAME`; Psych 5 words it by what went wrong:
    /// `puppet_model::ruby::RubyVersion::bad_alias`).
    pub bad_alias: Option<BadAlias>,
}

/// An alias Psych refused: one to an anchor the text never defines, or,
/// when aliases are not enabled (`YAML.load`, `safe_load` without
/// `aliases: true`), any alias.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadAlias {
    /// The alias's name (`*name`).
    pub name: String,
    /// Whether the load allowed aliases.
    pub aliases_enabled: bool,
}

const UNKNOWN_ALIAS: &str = "Unknown alias: ";

fn bad_alias(message: &str, aliases_enabled: bool) -> Option<BadAlias> {
    message.strip_prefix(UNKNOWN_ALIAS).map(|name| BadAlias {
        name: name.to_string(),
        aliases_enabled,
    })
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
            names_file: !message.starts_with(UNKNOWN_ALIAS),
            bad_alias: bad_alias(&message, builder.refuse_aliases.is_none()),
            message,
            line,
            column,
        }
    })
}

fn finish(builder: Builder) -> Result<Value, YamlError> {
    if let Some(message) = builder.error {
        return Err(YamlError {
            names_file: !message.starts_with(UNKNOWN_ALIAS),
            bad_alias: bad_alias(&message, builder.refuse_aliases.is_none()),
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

/// How many values a document may hold once its aliases are expanded.
/// Aliases share their value, so reading is cheap, but every later walk
/// (Hiera's interpolation, merges, type checks) sees the expanded tree: a
/// "billion laughs" file (each anchor ten aliases of the one before) would
/// hang the node. Psych reads such a file and Puppet 7.23 then hangs
/// checking the data; pverify refuses it when read.
pub const MAX_EXPANDED_VALUES: u64 = 1_000_000;

/// The error for a document over [`MAX_EXPANDED_VALUES`].
fn too_many_aliased_values() -> String {
    format!(
        "aliases expand this document to more than {MAX_EXPANDED_VALUES} values \
         (pverify's limit on YAML alias expansion)"
    )
}

#[derive(Default)]
struct Builder {
    stack: Vec<Frame>,
    /// Each anchor's value and how many values it holds when expanded.
    anchors: HashMap<usize, (Value, u64)>,
    /// Values seen so far, aliases counted expanded; and, per open
    /// collection, the count when it started (an anchor's size).
    expanded: u64,
    starts: Vec<u64>,
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
    /// Closes the innermost collection's count: the values it holds,
    /// itself included, aliases expanded.
    fn collection_size(&mut self) -> u64 {
        self.expanded += 1;
        self.expanded - self.starts.pop().unwrap_or(0)
    }

    fn push_value(&mut self, v: Value, anchor: usize, is_merge_key: bool) {
        self.push_sized(v, anchor, is_merge_key, 1)
    }

    /// [`Self::push_value`] of a value holding `size` values expanded.
    fn push_sized(&mut self, v: Value, anchor: usize, is_merge_key: bool, size: u64) {
        if anchor > 0 {
            self.anchors.insert(anchor, (v.clone(), size));
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
                Some(k) if k.as_str() == Some("\u{0}<<") => match &v {
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
                        map.insert(Value::string("<<"), other.clone());
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
            Event::SequenceStart(..) | Event::MappingStart(..) => self.open.push(errors::Open {
                seq: matches!(ev, Event::SequenceStart(..)),
                line: mark.line(),
                column: mark.col() + 1,
            }),
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
            Event::SequenceStart(anchor, _) => {
                self.starts.push(self.expanded);
                self.stack.push(Frame::Seq(Vec::new(), anchor))
            }
            Event::MappingStart(anchor, _) => {
                self.starts.push(self.expanded);
                self.stack.push(Frame::Map(Map::default(), None, anchor))
            }
            Event::SequenceEnd => {
                if let Some(Frame::Seq(items, anchor)) = self.stack.pop() {
                    let size = self.collection_size();
                    self.push_sized(Value::array(items), anchor, false, size);
                }
            }
            Event::MappingEnd => {
                if let Some(Frame::Map(map, _, anchor)) = self.stack.pop() {
                    let size = self.collection_size();
                    self.push_sized(Value::hash(map), anchor, false, size);
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
                self.error = Some(format!("{UNKNOWN_ALIAS}{name}"));
            }
            Event::Alias(id) => {
                let (v, size) = self.anchors.get(&id).cloned().unwrap_or((Value::Undef, 1));
                self.expanded = self.expanded.saturating_add(size);
                if self.expanded > MAX_EXPANDED_VALUES {
                    self.error = Some(too_many_aliased_values());
                    return;
                }
                self.push_sized(v, 0, false, size);
            }
            Event::Scalar(text, style, anchor, tag) => {
                self.expanded += 1;
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
                    Ok(Value::String(ref name)) if symbol && self.hiera => self.push_value(
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

/// Reads a config file of pverify's own (`pverify.yaml`, a case's
/// `case.yaml`) into a serde type: the values [`load`] gives (the same YAML
/// rules as node files: `yes` is true), and a value the type refuses is
/// placed at its line and column.
pub fn from_str<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, YamlError> {
    let value = load(text)?;
    let mut marks = MarkBuilder::default();
    // `load` succeeded, so the text parses.
    let _ = Parser::new_from_str(text).load(&mut marks, false);
    T::deserialize(De {
        value: &value,
        marks: marks.root.as_ref(),
    })
    .map_err(|e| {
        let (line, column) = e.at.unwrap_or((0, 0));
        YamlError {
            message: e.message,
            line,
            column,
            names_file: true,
            bad_alias: None,
        }
    })
}

/// Where a node of the document starts (1-based), and its children's.
struct Marks {
    line: usize,
    column: usize,
    kids: MarkKids,
}

enum MarkKids {
    Scalar,
    Seq(Vec<Marks>),
    /// Each entry's key as written, and the key's and the value's marks.
    Map(Vec<(String, Marks, Marks)>),
}

impl Marks {
    fn item(&self, i: usize) -> Option<&Marks> {
        match &self.kids {
            MarkKids::Seq(items) => items.get(i),
            _ => None,
        }
    }

    /// A key's and its value's marks (none for a key merged in by `<<`).
    fn entry(&self, key: &Value) -> (Option<&Marks>, Option<&Marks>) {
        match (&self.kids, key.as_str()) {
            (MarkKids::Map(entries), Some(k)) => entries
                .iter()
                .find(|(text, _, _)| text == k)
                .map_or((None, None), |(_, km, vm)| (Some(km), Some(vm))),
            _ => (None, None),
        }
    }
}

/// The first document's [`Marks`], from the parser's events.
#[derive(Default)]
struct MarkBuilder {
    /// Open collections, each with the key waiting for its value.
    stack: Vec<(Marks, Option<(String, Marks)>)>,
    root: Option<Marks>,
}

impl MarkBuilder {
    fn add(&mut self, m: Marks, text: Option<String>) {
        match self.stack.last_mut() {
            None => {
                if self.root.is_none() {
                    self.root = Some(m);
                }
            }
            Some((parent, key)) => match &mut parent.kids {
                MarkKids::Seq(items) => items.push(m),
                MarkKids::Map(entries) => match key.take() {
                    None => *key = Some((text.unwrap_or_default(), m)),
                    Some((k, km)) => entries.push((k, km, m)),
                },
                MarkKids::Scalar => {}
            },
        }
    }
}

impl MarkedEventReceiver for MarkBuilder {
    fn on_event(&mut self, ev: Event, mark: Marker) {
        let at = |kids| Marks {
            line: mark.line(),
            column: mark.col() + 1,
            kids,
        };
        match ev {
            Event::SequenceStart(..) => self.stack.push((at(MarkKids::Seq(Vec::new())), None)),
            Event::MappingStart(..) => self.stack.push((at(MarkKids::Map(Vec::new())), None)),
            Event::SequenceEnd | Event::MappingEnd => {
                if let Some((mut m, _)) = self.stack.pop() {
                    // A block mapping starts at its first key (the parser
                    // marks the key's `:`).
                    if let MarkKids::Map(entries) = &m.kids {
                        if let Some((_, k, _)) = entries.first() {
                            (m.line, m.column) = (m.line, m.column).min((k.line, k.column));
                        }
                    }
                    self.add(m, None);
                }
            }
            Event::Scalar(text, ..) => self.add(at(MarkKids::Scalar), Some(text)),
            Event::Alias(_) => self.add(at(MarkKids::Scalar), None),
            _ => {}
        }
    }
}

/// An error of [`from_str`]'s deserializer, at the innermost node that has
/// a place.
#[derive(Debug)]
struct DeError {
    message: String,
    at: Option<(usize, usize)>,
}

impl DeError {
    fn at(mut self, m: Option<&Marks>) -> DeError {
        if self.at.is_none() {
            self.at = m.map(|m| (m.line, m.column));
        }
        self
    }
}

impl std::fmt::Display for DeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for DeError {}

impl serde::de::Error for DeError {
    fn custom<T: std::fmt::Display>(msg: T) -> DeError {
        DeError {
            message: msg.to_string(),
            at: None,
        }
    }
}

/// A loaded value as serde data: Undef is unit, a Hash a map (keys as
/// strings), other values their string.
struct De<'a> {
    value: &'a Value,
    marks: Option<&'a Marks>,
}

impl<'de> serde::Deserializer<'de> for De<'_> {
    type Error = DeError;

    fn deserialize_any<V: serde::de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        let marks = self.marks;
        match self.value {
            Value::Undef => visitor.visit_unit(),
            Value::Boolean(b) => visitor.visit_bool(*b),
            Value::Integer(i) => visitor.visit_i64(*i),
            Value::Float(f) => visitor.visit_f64(*f),
            Value::String(s) => visitor.visit_str(s),
            Value::Array(items) => visitor.visit_seq(SeqDe {
                items: items.iter().enumerate(),
                marks,
            }),
            Value::Hash(map) => visitor.visit_map(MapDe {
                entries: map.iter(),
                marks,
                value: None,
            }),
            other => visitor.visit_str(&other.to_string()),
        }
        .map_err(|e| e.at(marks))
    }

    fn deserialize_option<V: serde::de::Visitor<'de>>(
        self,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        match self.value {
            Value::Undef => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_newtype_struct<V: serde::de::Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: serde::de::Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        // A unit variant by its name.
        match self.value {
            Value::String(s) => visitor
                .visit_enum(serde::de::value::StrDeserializer::<DeError>::new(s))
                .map_err(|e| e.at(self.marks)),
            _ => self.deserialize_any(visitor),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct seq tuple tuple_struct map struct
        identifier ignored_any
    }
}

struct SeqDe<'a, I> {
    items: I,
    marks: Option<&'a Marks>,
}

impl<'de, 'a, I: Iterator<Item = (usize, &'a Value)>> serde::de::SeqAccess<'de> for SeqDe<'a, I> {
    type Error = DeError;

    fn next_element_seed<T: serde::de::DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, DeError> {
        let Some((i, value)) = self.items.next() else {
            return Ok(None);
        };
        let marks = self.marks.and_then(|m| m.item(i));
        seed.deserialize(De { value, marks })
            .map(Some)
            .map_err(|e| e.at(marks))
    }
}

struct MapDe<'a, I> {
    entries: I,
    marks: Option<&'a Marks>,
    value: Option<(&'a Value, Option<&'a Marks>)>,
}

impl<'de, 'a, I: Iterator<Item = (&'a Value, &'a Value)>> serde::de::MapAccess<'de>
    for MapDe<'a, I>
{
    type Error = DeError;

    fn next_key_seed<K: serde::de::DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, DeError> {
        let Some((key, value)) = self.entries.next() else {
            return Ok(None);
        };
        let (key_marks, value_marks) = self.marks.map_or((None, None), |m| m.entry(key));
        self.value = Some((value, value_marks));
        // A key is a string, as in JSON (`1:` is "1").
        let text = match key {
            Value::String(s) => s.to_string(),
            other => other.to_string(),
        };
        seed.deserialize(serde::de::value::StringDeserializer::<DeError>::new(text))
            .map(Some)
            .map_err(|e| e.at(key_marks))
    }

    fn next_value_seed<V: serde::de::DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, DeError> {
        let (value, marks) = self
            .value
            .take()
            .ok_or_else(|| serde::de::Error::custom("a value without its key"))?;
        seed.deserialize(De { value, marks })
            .map_err(|e| e.at(marks))
    }
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
    fn from_str_fills_serde_types_and_places_what_they_refuse() {
        #[derive(serde::Deserialize, Debug, PartialEq)]
        #[serde(deny_unknown_fields)]
        struct C {
            name: String,
            #[serde(default)]
            flag: bool,
            #[serde(default)]
            list: Vec<i64>,
            #[serde(default)]
            opt: Option<String>,
            #[serde(default)]
            any: Option<serde_json::Value>,
        }
        let c: C =
            from_str("name: x\nflag: yes\nlist: [1, 0x10]\nany: {a: [~, 1.5, 'no']}\n").unwrap();
        assert_eq!(
            c,
            C {
                name: "x".into(),
                flag: true,
                list: vec![1, 16],
                opt: None,
                any: Some(serde_json::json!({"a": [null, 1.5, "no"]})),
            }
        );
        let at = |text: &str| {
            let e = from_str::<C>(text).unwrap_err();
            (e.line, e.column, e.message)
        };
        let (line, column, message) = at("name: x\nlist:\n  - 1\n  - two\n");
        assert_eq!((line, column), (4, 5), "{message}");
        assert!(
            message.starts_with("invalid type: string \"two\""),
            "{message}"
        );
        let (line, column, message) = at("name: x\nbogus: 1\n");
        assert_eq!((line, column), (2, 1), "{message}");
        assert!(message.starts_with("unknown field `bogus`"), "{message}");
        // Keys too are read by Psych's rules (`on:` is true).
        assert!(at("name: x\non: 1\n").2.starts_with("unknown field `true`"));
        // A missing field is placed at its mapping; a merged key at the
        // mapping it is merged into.
        let (line, column, message) = at("\n\nflag: no\n");
        assert_eq!((line, column), (3, 1), "{message}");
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct Outer {
            base: serde_json::Value,
            c: C,
        }
        let e = from_str::<Outer>("base: &b {flag: 3}\nc:\n  <<: *b\n  name: x\n").unwrap_err();
        assert_eq!((e.line, e.column), (3, 3), "{e}");
        let (line, _, message) = at("name: x\nopt: [1\n");
        assert!(line > 0, "{message}");
    }

    #[test]
    fn documents_quotes_merge_keys_and_aliases() {
        let v = load("base: &b {a: 1, b: 2}\nx:\n  <<: *b\n  b: 3\nq: 'yes'\nl: [*b]\n").unwrap();
        let Value::Hash(ref h) = v else { panic!() };
        let x = h.get(&Value::string("x")).unwrap().to_string();
        assert_eq!(x, "{a => 1, b => 3}");
        assert_eq!(h.get(&Value::string("q")), Some(&Value::string("yes")));
        assert_eq!(load("").unwrap(), Value::Undef);
    }
}
