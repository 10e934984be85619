//! Puppet runtime values. Collections are reference counted so that passing a
//! value around (parameters, scopes, catalogs) never deep-copies it.
//!
//! Rust equality (`Eq`, `Hash`) is structural and case-sensitive, as Puppet's
//! hash keys are; Puppet's `==` operator (case-insensitive strings, 1 == 1.0)
//! is [`Value::puppet_eq`].

use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use indexmap::IndexMap;

use super::time::Nanos;
use crate::values::types::PType;

/// An ordered hash, as Puppet's hashes keep insertion order.
pub type Map = IndexMap<Value, Value, MapHasher>;

/// [`Map`]'s hasher: stateless, so every map hashes a key alike.
pub type MapHasher = rustc_hash::FxBuildHasher;

/// A key's hash in any [`Map`]: for looking one key up in many maps
/// (`Map::raw_entry_v1().from_hash`) with one hashing.
pub fn map_key_hash(key: &Value) -> u64 {
    use std::hash::BuildHasher;
    MapHasher::default().hash_one(key)
}

/// Named parameters in the order they were set (resources, classes).
pub type Params = IndexMap<Name, Value, rustc_hash::FxBuildHasher>;
pub use puppet_syntax::ast::Name;

#[derive(Clone, Debug)]
pub enum Value {
    Undef,
    Default,
    Boolean(bool),
    Integer(i64),
    Float(f64),
    String(Arc<str>),
    /// A regular expression, by its source (Puppet's `/.../` without slashes).
    Regexp(Arc<str>),
    Array(Arc<Vec<Value>>),
    Hash(Arc<Map>),
    /// A type, including resource and class references (`File['/x']`, `Class[foo]`).
    Type(Arc<PType>),
    Sensitive(Arc<Value>),
    /// `Deferred(name, arguments)`: a function call the agent makes; the
    /// compiler only carries it into the catalog.
    Deferred(Arc<Deferred>),
    /// A Binary (`binary_file`, `Binary.new`): bytes, printed as base64.
    Binary(Arc<[u8]>),
    /// A Timestamp: nanoseconds since the epoch (`super::time`).
    Timestamp(Nanos),
    /// A Timespan: signed nanoseconds.
    Timespan(Nanos),
    /// An instance of a declared Object type (`Point.new(1, 2)`).
    Object(Arc<crate::values::types::object::ObjectValue>),
    /// A SemVer (`SemanticPuppet::Version`, `super::semver`).
    SemVer(Arc<super::semver::Version>),
    /// A SemVerRange (`SemanticPuppet::VersionRange`).
    SemVerRange(Arc<super::semver::VersionRange>),
    /// A URI (Ruby's `URI::Generic` and subclasses, `super::uri`).
    Uri(Arc<super::uri::Uri>),
}

/// A deferred function call: the function's name and, when given, its
/// arguments.
#[derive(Clone, Debug)]
pub struct Deferred {
    pub name: Arc<str>,
    pub arguments: Option<Vec<Value>>,
}

impl Deferred {
    /// Its attributes as Puppet's Object init hash: `name`, then
    /// `arguments` when given.
    pub fn init_hash(&self) -> Value {
        let mut m = Map::default();
        m.insert(Value::string("name"), Value::String(self.name.clone()));
        if let Some(a) = &self.arguments {
            m.insert(Value::string("arguments"), Value::array(a.clone()));
        }
        Value::hash(m)
    }
}

impl Value {
    pub fn string(s: impl Into<Arc<str>>) -> Value {
        Value::String(s.into())
    }

    pub fn array(items: Vec<Value>) -> Value {
        Value::Array(Arc::new(items))
    }

    pub fn hash(map: Map) -> Value {
        Value::Hash(Arc::new(map))
    }

    /// The array's items, taken without copying (a `Value` has a `Drop`,
    /// so no pattern can move its fields out); else the value back.
    pub fn into_array(mut self) -> Result<Arc<Vec<Value>>, Value> {
        match &mut self {
            Value::Array(a) => Ok(std::mem::take(a)),
            _ => Err(self),
        }
    }

    /// [`Value::into_array`] for a hash.
    pub fn into_hash(mut self) -> Result<Arc<Map>, Value> {
        match &mut self {
            Value::Hash(h) => Ok(std::mem::take(h)),
            _ => Err(self),
        }
    }

    pub fn is_undef(&self) -> bool {
        matches!(self, Value::Undef)
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// Puppet's truthiness: only `undef` and `false` are false.
    pub fn is_truthy(&self) -> bool {
        !matches!(self, Value::Undef | Value::Boolean(false))
    }

    /// Puppet's `==`: strings case-insensitively, numbers by value, collections
    /// element-wise.
    pub fn puppet_eq(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::String(a), Value::String(b)) => str_puppet_eq(a, b),
            (Value::Integer(a), Value::Float(b)) | (Value::Float(b), Value::Integer(a)) => {
                (*a as f64) == *b
            }
            // Ruby's Numeric#==: a Timestamp or Timespan equals its seconds.
            (Value::Timestamp(t) | Value::Timespan(t), Value::Integer(i))
            | (Value::Integer(i), Value::Timestamp(t) | Value::Timespan(t)) => {
                t.as_secs_floor() == i128::from(*i)
            }
            (Value::Timestamp(t) | Value::Timespan(t), Value::Float(f))
            | (Value::Float(f), Value::Timestamp(t) | Value::Timespan(t)) => t.as_f64() == *f,
            (Value::Array(a), Value::Array(b)) => {
                a.len() == b.len() && a.iter().zip(b.iter()).all(|(x, y)| x.puppet_eq(y))
            }
            (Value::Hash(a), Value::Hash(b)) => {
                a.len() == b.len()
                    && a.iter()
                        .all(|(k, v)| b.iter().any(|(k2, v2)| k.puppet_eq(k2) && v.puppet_eq(v2)))
            }
            _ => self == other,
        }
    }
}

/// Puppet's `==` on two strings: equal but for case. Compared without
/// allocating: collectors call this per resource.
pub fn str_puppet_eq(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.chars()
            .flat_map(char::to_lowercase)
            .eq(b.chars().flat_map(char::to_lowercase))
}

impl PartialEq for Value {
    fn eq(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Undef, Value::Undef) | (Value::Default, Value::Default) => true,
            (Value::Boolean(a), Value::Boolean(b)) => a == b,
            (Value::Integer(a), Value::Integer(b)) => a == b,
            (Value::Float(a), Value::Float(b)) => a.to_bits() == b.to_bits(),
            (Value::String(a), Value::String(b)) => a == b,
            (Value::Regexp(a), Value::Regexp(b)) => a == b,
            (Value::Array(a), Value::Array(b)) => a == b,
            (Value::Hash(a), Value::Hash(b)) => {
                a.len() == b.len() && a.iter().zip(b.iter()).all(|(x, y)| x == y)
            }
            (Value::Type(a), Value::Type(b)) => a == b,
            (Value::Sensitive(a), Value::Sensitive(b)) => Arc::ptr_eq(a, b),
            (Value::Binary(a), Value::Binary(b)) => a == b,
            (Value::Timestamp(a), Value::Timestamp(b))
            | (Value::Timespan(a), Value::Timespan(b)) => a == b,
            (Value::Object(a), Value::Object(b)) => a == b,
            // Ruby's `eql?`: the build metadata counts; ranges by matchers.
            (Value::SemVer(a), Value::SemVer(b)) => a == b,
            (Value::SemVerRange(a), Value::SemVerRange(b)) => a == b,
            // Ruby's `URI#==`: the normalized components and the class.
            (Value::Uri(a), Value::Uri(b)) => a == b,
            _ => false,
        }
    }
}

impl Eq for Value {}

impl Hash for Value {
    fn hash<H: Hasher>(&self, state: &mut H) {
        std::mem::discriminant(self).hash(state);
        match self {
            Value::Undef | Value::Default => {}
            Value::Boolean(b) => b.hash(state),
            Value::Integer(i) => i.hash(state),
            Value::Float(f) => f.to_bits().hash(state),
            Value::String(s) | Value::Regexp(s) => s.hash(state),
            Value::Array(a) => a.hash(state),
            Value::Hash(h) => {
                for (k, v) in h.iter() {
                    k.hash(state);
                    v.hash(state);
                }
            }
            Value::Type(t) => t.hash(state),
            Value::Sensitive(s) => (Arc::as_ptr(s) as usize).hash(state),
            Value::Deferred(d) => d.name.hash(state),
            // Nothing more: equal Objects may differ in type
            // (`equality_include_type => false`) or in attributes outside
            // their `equality`.
            Value::Object(_) => {}
            Value::Binary(b) => b.hash(state),
            Value::Timestamp(n) | Value::Timespan(n) => n.hash(state),
            Value::SemVer(v) => v.hash(state),
            Value::SemVerRange(r) => r.hash(state),
            Value::Uri(u) => u.hash(state),
        }
    }
}

impl fmt::Display for Value {
    /// Puppet's string conversion (as in interpolation): undef is empty, arrays
    /// and hashes in Puppet's literal syntax.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Undef => Ok(()),
            Value::Default => f.write_str("default"),
            Value::Boolean(b) => write!(f, "{b}"),
            Value::Integer(i) => write!(f, "{i}"),
            Value::Float(x) => f.write_str(&puppet_syntax::pn::ruby_float(*x)),
            Value::String(s) => f.write_str(s),
            Value::Regexp(r) => write!(f, "/{r}/"),
            Value::Array(items) => {
                f.write_str("[")?;
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    v.fmt_quoted(f)?;
                }
                f.write_str("]")
            }
            Value::Hash(map) => {
                f.write_str("{")?;
                for (i, (k, v)) in map.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    k.fmt_quoted(f)?;
                    f.write_str(" => ")?;
                    v.fmt_quoted(f)?;
                }
                f.write_str("}")
            }
            Value::Type(t) => write!(f, "{t}"),
            Value::Sensitive(_) => f.write_str("Sensitive [value redacted]"),
            // Puppet's Object#to_s: the type name and the init hash.
            Value::Deferred(_) | Value::Object(_) => {
                f.write_str(&crate::values::types::format::format_value(self))
            }
            // Binary#to_s: strict base64.
            Value::Binary(b) => f.write_str(&super::binary::strict_encode(b)),
            Value::Timestamp(n) => f.write_str(&super::time::timestamp_to_s(*n)),
            Value::Timespan(n) => f.write_str(&super::time::timespan_to_s(*n)),
            Value::SemVer(v) => write!(f, "{v}"),
            Value::SemVerRange(r) => write!(f, "{r}"),
            Value::Uri(u) => write!(f, "{u}"),
        }
    }
}

impl Value {
    /// Inside arrays and hashes, as interpolation shows them: strings as they
    /// are, undef as nothing (`"${['a', undef]}"` is `[a, ]`).
    fn fmt_quoted(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Puppet's label for a value in operator errors (`a String`, `an Undef Value`).
pub fn value_label(v: &Value) -> String {
    match v {
        Value::Undef => "Undef Value".into(),
        // `:default` is a Ruby Symbol, labelled as any Object.
        Value::Default => "Object".into(),
        Value::Boolean(_) => "Boolean".into(),
        Value::Integer(_) => "Integer".into(),
        Value::Float(_) => "Float".into(),
        Value::String(_) => "String".into(),
        Value::Regexp(_) => "Regexp".into(),
        Value::Array(_) => "Array".into(),
        Value::Hash(_) => "Hash".into(),
        Value::Type(t) => super::types::parse::type_label(t),
        Value::Sensitive(_) => "Sensitive".into(),
        Value::Deferred(_) => "Deferred".into(),
        Value::Object(_) => "Object".into(),
        Value::Binary(_) => "Binary".into(),
        Value::Timestamp(_) => "Timestamp".into(),
        Value::Timespan(_) => "Timespan".into(),
        Value::SemVer(_) => "Semver".into(),
        Value::SemVerRange(_) => "SemverRange".into(),
        // Puppet's label of a Ruby object that is no Puppet value.
        Value::Uri(_) => "Object".into(),
    }
}
