//! Types from their text, as Puppet's `TypeParser` reads a type written in
//! a function's signature or a Ruby string (`Integer[0, default]`), with
//! the types Puppet's functions define locally.

use std::cell::RefCell;
use std::sync::Arc;

use rustc_hash::FxHashMap as HashMap;

use crate::values::types::{AliasTarget, PType};
use crate::values::{Map, Value};

thread_local! {
    static TYPES: RefCell<HashMap<String, std::rc::Rc<PType>>> = RefCell::new(HashMap::default());
}

/// The type a signature names (`Iterable[Variant[String, Numeric]]`), parsed
/// once per thread.
pub fn ty(src: &str) -> PType {
    (*shared_ty(src)).clone()
}

/// [`ty`] without copying the type: what checking each call's arguments
/// uses (a `Pattern` type's copy was most of a `getvar` call).
pub fn shared_ty(src: &str) -> std::rc::Rc<PType> {
    if let Some(t) = TYPES.with(|m| m.borrow().get(src).cloned()) {
        return t;
    }
    // Signatures of modules' Ruby functions come from files: the reader
    // takes ASCII only (anything else is `Any`) and never slices past the end.
    let t = std::rc::Rc::new(if !src.is_ascii() {
        PType::Any
    } else {
        match TypeParser::new(src).value() {
            Value::Type(ref t) => (**t).clone(),
            _ => PType::Any,
        }
    });
    TYPES.with(|m| m.borrow_mut().insert(src.to_string(), t.clone()));
    t
}

/// A type's source text as Puppet's `TypeParser#parse` reads it with a
/// scope for its loader: built-in type names resolve; the first other name
/// (an alias, a module's type) is `Err`, as Puppet would have to load it.
pub fn parse_builtin_type(src: &str) -> Result<PType, String> {
    let b = src.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            // Strings and regexes hold no type names.
            q @ (b'\'' | b'"' | b'/') => {
                i += 1;
                while i < b.len() && b[i] != q {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            c if c.is_ascii_alphabetic() || c == b'_' || c == b':' => {
                let start = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b':')
                {
                    i += 1;
                }
                let word = &src[start..i];
                let word = word.trim_start_matches("::");
                if word.starts_with(|c: char| c.is_ascii_uppercase())
                    && crate::values::types::type_by_name(word).is_none()
                {
                    return Err(word.to_string());
                }
            }
            _ => i += 1,
        }
    }
    Ok(ty(src))
}

/// Types the functions define locally (`local_types`).
pub fn local_type(name: &str) -> Option<PType> {
    Some(match name {
        // StringData = Variant[String, Numeric, Array[StringData], Hash[StringData, StringData]]
        "StringData" => {
            let target = AliasTarget::new();
            let alias = PType::alias("StringData", target.clone());
            let _ = target.set(PType::Variant(vec![
                PType::STRING,
                PType::Numeric,
                PType::array(alias.clone(), None),
                PType::hash(alias.clone(), alias.clone(), None),
            ]));
            alias
        }
        "Comparable" => PType::alias(
            "Comparable",
            AliasTarget::resolved(ty("Variant[String, SemVer, TimeComparable]")),
        ),
        "TreeArray" => PType::alias(
            "TreeArray",
            AliasTarget::resolved(ty("Array[Tuple[Array, Any], 1]")),
        ),
        "KeyValueArray" => PType::alias(
            "KeyValueArray",
            AliasTarget::resolved(ty("Array[Tuple[Any, Any], 1]")),
        ),
        "NewHashOption" => PType::alias(
            "NewHashOption",
            AliasTarget::resolved(ty("Enum[tree, hash_tree]")),
        ),
        // Pcore's name of a member (`annotate`'s init hashes).
        "Pcore::MemberName" => PType::alias(
            "Pcore::MemberName",
            AliasTarget::resolved(ty("Pattern[/\\A[a-z_]\\w*\\z/]")),
        ),
        "TimeComparable" => PType::alias(
            "TimeComparable",
            AliasTarget::resolved(ty("Variant[Numeric, Timespan, Timestamp]")),
        ),
        "OptionsType" => PType::alias(
            "OptionsType",
            AliasTarget::resolved(ty("Struct[{container_type => Optional[Type], \
                include_root => Optional[Boolean], include_containers => Optional[Boolean], \
                include_values => Optional[Boolean], \
                order => Optional[Enum[depth_first, breadth_first]], \
                include_refs => Optional[Boolean]}]")),
        ),
        // new_timestamp's and new_timespan's local types.
        "Formats" => PType::alias(
            "Formats",
            AliasTarget::resolved(ty("Variant[String[2],Array[String[2], 1]]")),
        ),
        "TimestampStringHash" => ty("Struct[{string => String[1], Optional[format] => Formats, \
             Optional[timezone] => String[1]}]"),
        "TimespanStringHash" => ty("Struct[{string => String[1], Optional[format] => Formats}]"),
        "TimespanFieldsHash" => ty(
            "Struct[{Optional[negative] => Boolean, Optional[days] => Integer, \
             Optional[hours] => Integer, Optional[minutes] => Integer, \
             Optional[seconds] => Integer, Optional[milliseconds] => Integer, \
             Optional[microseconds] => Integer, Optional[nanoseconds] => Integer}]",
        ),
        // new_Version's and new_VersionRange's local types.
        "PositiveInteger" => PType::alias(
            "PositiveInteger",
            AliasTarget::resolved(ty("Integer[0, default]")),
        ),
        "SemVerQualifier" => PType::alias(
            "SemVerQualifier",
            AliasTarget::resolved(ty(
                "Pattern[/\\A(?<part>[0-9A-Za-z-]+)(?:\\.\\g<part>)*\\Z/]",
            )),
        ),
        "SemVerPattern" => PType::alias(
            "SemVerPattern",
            AliasTarget::resolved(ty(
                "Pattern[/\\A(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\
                (?:-([0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*))?\
                (?:\\+([0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*))?\\Z/]",
            )),
        ),
        "SemVerHash" => PType::alias(
            "SemVerHash",
            AliasTarget::resolved(ty(
                "Struct[{major => PositiveInteger, minor => PositiveInteger, \
                patch => PositiveInteger, Optional[prerelease] => SemVerQualifier, \
                Optional[build] => SemVerQualifier}]",
            )),
        ),
        "SemVerRangeString" => {
            PType::alias("SemVerRangeString", AliasTarget::resolved(ty("String[1]")))
        }
        "SemVerRangeHash" => {
            PType::alias(
                "SemVerRangeHash",
                AliasTarget::resolved(ty("Struct[{min => Variant[Default, SemVer], \
                Optional[max] => Variant[Default, SemVer], Optional[exclude_max] => Boolean}]")),
            )
        }
        // new_Binary's local types.
        "ByteInteger" => PType::alias("ByteInteger", AliasTarget::resolved(ty("Integer[0, 255]"))),
        "Base64Format" => PType::alias(
            "Base64Format",
            AliasTarget::resolved(ty("Enum['%b', '%u', '%B', '%s', '%r']")),
        ),
        "StringHash" => PType::alias(
            "StringHash",
            AliasTarget::resolved(ty(
                "Struct[{value => String, 'format' => Optional[Base64Format]}]",
            )),
        ),
        "ArrayHash" => PType::alias(
            "ArrayHash",
            AliasTarget::resolved(ty("Struct[{value => Array[ByteInteger]}]")),
        ),
        "BinaryArgsHash" => PType::alias(
            "BinaryArgsHash",
            AliasTarget::resolved(ty("Variant[StringHash, ArrayHash]")),
        ),
        _ => return None,
    })
}

/// A tiny reader of Puppet type expressions: names, `[...]` arguments,
/// integers, quoted strings, regexes, `default`, bare words and `{k => v}`.
pub struct TypeParser<'s> {
    s: &'s [u8],
    src: &'s str,
    i: usize,
}

impl<'s> TypeParser<'s> {
    pub fn new(src: &'s str) -> Self {
        TypeParser {
            s: src.as_bytes(),
            src,
            i: 0,
        }
    }

    pub fn ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    pub fn peek(&mut self) -> u8 {
        self.ws();
        self.s.get(self.i).copied().unwrap_or(0)
    }

    pub fn list(&mut self, close: u8) -> Vec<Value> {
        let mut out = Vec::new();
        self.i += 1;
        while self.peek() != close && self.peek() != 0 {
            out.push(self.value());
            if self.peek() == b',' {
                self.i += 1;
            }
        }
        self.i += 1;
        out
    }

    pub fn value(&mut self) -> Value {
        match self.peek() {
            b'\'' => {
                let start = self.i + 1;
                let rest = self.src.get(start..).unwrap_or("");
                let end = start + rest.find('\'').unwrap_or(rest.len());
                self.i = end + 1;
                Value::string(self.src.get(start..end).unwrap_or(""))
            }
            b'/' => {
                let start = self.i + 1;
                let mut j = start;
                while j < self.s.len() && self.s[j] != b'/' {
                    if self.s[j] == b'\\' {
                        j += 1;
                    }
                    j += 1;
                }
                self.i = j + 1;
                Value::Regexp(
                    self.src
                        .get(start..j.min(self.s.len()))
                        .unwrap_or("")
                        .into(),
                )
            }
            b'{' => {
                self.i += 1;
                let mut m = Map::default();
                while self.peek() != b'}' && self.peek() != 0 {
                    let k = self.value();
                    self.ws();
                    if self.src.get(self.i..).is_some_and(|r| r.starts_with("=>")) {
                        self.i += 2;
                    }
                    let v = self.value();
                    m.insert(k, v);
                    if self.peek() == b',' {
                        self.i += 1;
                    }
                }
                self.i += 1;
                Value::hash(m)
            }
            c if c == b'-' || c.is_ascii_digit() => {
                let start = self.i;
                self.i += 1;
                while self.i < self.s.len() && self.s[self.i].is_ascii_digit() {
                    self.i += 1;
                }
                Value::Integer(
                    self.src
                        .get(start..self.i)
                        .unwrap_or("")
                        .parse()
                        .unwrap_or(0),
                )
            }
            _ => {
                let start = self.i;
                while self.i < self.s.len()
                    && (self.s[self.i].is_ascii_alphanumeric()
                        || self.s[self.i] == b'_'
                        || self.s[self.i] == b':')
                {
                    self.i += 1;
                }
                let word = self.src.get(start..self.i).unwrap_or("");
                if word == "default" {
                    return Value::Default;
                }
                if word.is_empty() {
                    self.i += 1;
                    return Value::Undef;
                }
                if !word.starts_with(|c: char| c.is_ascii_uppercase()) {
                    return Value::string(word);
                }
                let base = local_type(word)
                    .or_else(|| crate::values::types::type_by_name(word))
                    .unwrap_or(PType::Any);
                if self.peek() == b'[' {
                    let args = self.list(b']');
                    match crate::values::types::access(&base, &args) {
                        Ok(v) => v,
                        Err(_) => Value::Type(Arc::new(base)),
                    }
                } else {
                    Value::Type(Arc::new(base))
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Signatures and Puppet's texts for calls that match none.
