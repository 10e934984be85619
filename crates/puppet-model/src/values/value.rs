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
    /// A Ruby Range of Integers that Ruby code handed to Puppet (a
    /// function returning `(1..n)`): Puppet keeps the Ruby object, a
    /// `Runtime[ruby, 'Range']` that iterates over its integers and prints
    /// as `1..n`; a catalog holding one gets that text (Puppet 7 warns,
    /// Puppet 8 fails). Boxed: a `Value` stays three words.
    Range(Arc<RubyRange>),
}

/// A Ruby Range of Integers: `first..last`, or `first...last` when
/// `exclusive` (the end left out).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RubyRange {
    pub first: i64,
    pub last: i64,
    pub exclusive: bool,
}

impl RubyRange {
    /// How many integers it holds.
    pub fn len(&self) -> u64 {
        let end = i128::from(self.last) + i128::from(!self.exclusive);
        (end - i128::from(self.first)).max(0) as u64
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Its smallest and largest integer, unless it is empty.
    pub fn bounds(&self) -> Option<(i64, i64)> {
        let last = if self.exclusive {
            self.last.checked_sub(1)?
        } else {
            self.last
        };
        (last >= self.first).then_some((self.first, last))
    }

    /// Its integers, in order.
    pub fn iter(&self) -> impl Iterator<Item = i64> {
        let first = self.first;
        (0..self.len()).map(move |i| first.wrapping_add(i as i64))
    }
}

impl fmt::Display for RubyRange {
    /// Ruby's `Range#to_s`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let dots = if self.exclusive { "..." } else { ".." };
        write!(f, "{}{dots}{}", self.first, self.last)
    }
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
        self.puppet_eq_within(other, NESTING_BY_RECURSION)
    }

    /// [`Value::puppet_eq`], `depth` more levels deep before it makes sure
    /// of stack (grown on the heap: data deeper than any stack compares).
    fn puppet_eq_within(&self, other: &Value, depth: u32) -> bool {
        if crate::budget::walk_stops_at(self) {
            return false;
        }
        if depth == 0 {
            return stacker::maybe_grow(256 << 10, 4 << 20, || {
                self.puppet_eq_within(other, NESTING_BY_RECURSION)
            });
        }
        let nested = |x: &Value, y: &Value| x.puppet_eq_within(y, depth - 1);
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
                a.len() == b.len() && a.iter().zip(b.iter()).all(|(x, y)| nested(x, y))
            }
            (Value::Hash(a), Value::Hash(b)) => {
                a.len() == b.len()
                    && a.iter()
                        .all(|(k, v)| b.iter().any(|(k2, v2)| nested(k, k2) && nested(v, v2)))
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

/// How deep `==` and `Hash` follow nested arrays and hashes by recursion.
/// Keys are shallow (a few levels), so they pay nothing more; data nested
/// deeper (a 100,000-deep array as a hash key, built by `reduce`) would
/// overflow the stack: past this depth `==` goes on with a work list of its
/// own, and `Hash` stops (values equal to this depth hash alike, so equal
/// values still do; deeper differences are left to `==`).
const NESTING_BY_RECURSION: u32 = 32;

impl PartialEq for Value {
    fn eq(&self, other: &Value) -> bool {
        self.eq_within(other, NESTING_BY_RECURSION)
    }
}

impl Value {
    /// `==`, recursing `depth` more levels, then by [`Value::eq_by_work_list`].
    fn eq_within(&self, other: &Value, depth: u32) -> bool {
        if crate::budget::walk_stops_at(self) {
            return false;
        }
        match (self, other) {
            (Value::Array(a), Value::Array(b)) => {
                Arc::ptr_eq(a, b)
                    || (a.len() == b.len()
                        && if depth == 0 {
                            self.eq_by_work_list(other)
                        } else {
                            a.iter()
                                .zip(b.iter())
                                .all(|(x, y)| x.eq_within(y, depth - 1))
                        })
            }
            (Value::Hash(a), Value::Hash(b)) => {
                Arc::ptr_eq(a, b)
                    || (a.len() == b.len()
                        && if depth == 0 {
                            self.eq_by_work_list(other)
                        } else {
                            a.iter().zip(b.iter()).all(|((k, v), (k2, v2))| {
                                k.eq_within(k2, depth - 1) && v.eq_within(v2, depth - 1)
                            })
                        })
            }
            _ => self.eq_scalar(other),
        }
    }

    /// `==` of arbitrarily deep data without recursion: the pairs still to
    /// compare are kept in a list.
    fn eq_by_work_list(&self, other: &Value) -> bool {
        let mut todo = vec![(self, other)];
        while let Some((x, y)) = todo.pop() {
            if crate::budget::walk_stops_at(x) {
                return false;
            }
            match (x, y) {
                (Value::Array(a), Value::Array(b)) => {
                    if Arc::ptr_eq(a, b) {
                        continue;
                    }
                    if a.len() != b.len() {
                        return false;
                    }
                    todo.extend(a.iter().zip(b.iter()));
                }
                (Value::Hash(a), Value::Hash(b)) => {
                    if Arc::ptr_eq(a, b) {
                        continue;
                    }
                    if a.len() != b.len() {
                        return false;
                    }
                    for ((k, v), (k2, v2)) in a.iter().zip(b.iter()) {
                        todo.push((k, k2));
                        todo.push((v, v2));
                    }
                }
                _ if !x.eq_scalar(y) => return false,
                _ => {}
            }
        }
        true
    }

    /// `==` of anything but two arrays or two hashes.
    fn eq_scalar(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Undef, Value::Undef) | (Value::Default, Value::Default) => true,
            (Value::Boolean(a), Value::Boolean(b)) => a == b,
            (Value::Integer(a), Value::Integer(b)) => a == b,
            (Value::Float(a), Value::Float(b)) => a.to_bits() == b.to_bits(),
            (Value::String(a), Value::String(b)) => a == b,
            (Value::Regexp(a), Value::Regexp(b)) => a == b,
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
            (Value::Range(a), Value::Range(b)) => a == b,
            _ => false,
        }
    }
}

impl Eq for Value {}

/// Ruby's `Array#flatten` of `values` into `out`: every value that is not
/// an Array, arrays opened at any depth, in order. Iterative, as Ruby's is
/// (its C loop keeps its own stack): data nested deeper than any stack
/// flattens. A walk that outgrows the compile's budget stops
/// (`budget::walk_stops`; the node then fails with the budget's text).
pub fn flatten_into(values: &[Value], out: &mut Vec<Value>) {
    if !values.iter().any(|v| matches!(v, Value::Array(_))) {
        out.extend_from_slice(values);
        return;
    }
    let mut open: Vec<std::slice::Iter<'_, Value>> = vec![values.iter()];
    while let Some(top) = open.last_mut() {
        match top.next() {
            None => {
                open.pop();
            }
            Some(Value::Array(items)) => {
                if crate::budget::walk_stops() {
                    return;
                }
                open.push(items.iter());
            }
            Some(other) => out.push(other.clone()),
        }
    }
}

impl Hash for Value {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.hash_within(state, NESTING_BY_RECURSION);
    }
}

impl Value {
    /// `Hash`, of `depth` more levels of arrays and hashes (their lengths
    /// below that).
    fn hash_within<H: Hasher>(&self, state: &mut H, depth: u32) {
        std::mem::discriminant(self).hash(state);
        match self {
            Value::Undef | Value::Default => {}
            Value::Boolean(b) => b.hash(state),
            Value::Integer(i) => i.hash(state),
            Value::Float(f) => f.to_bits().hash(state),
            Value::String(s) | Value::Regexp(s) => s.hash(state),
            Value::Array(a) => {
                a.len().hash(state);
                if depth > 0 && !crate::budget::walk_stops() {
                    for x in a.iter() {
                        x.hash_within(state, depth - 1);
                    }
                }
            }
            Value::Hash(h) => {
                h.len().hash(state);
                if depth > 0 && !crate::budget::walk_stops() {
                    for (k, v) in h.iter() {
                        k.hash_within(state, depth - 1);
                        v.hash_within(state, depth - 1);
                    }
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
            Value::Range(r) => r.hash(state),
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
            v if crate::budget::walk_stops_at(v) => Ok(()),
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
            Value::Range(r) => write!(f, "{r}"),
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
        Value::Uri(_) | Value::Range(_) => "Object".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nested(depth: usize, leaf: i64) -> Value {
        (0..depth).fold(Value::Integer(leaf), |v, _| Value::array(vec![v]))
    }

    /// Hashing and comparing a 100,000-deep value (a hash key built by
    /// `reduce`) fit in a small stack: `Hash` stops 32 levels down, `==`
    /// and Puppet's `==` go on without recursing through every level.
    #[test]
    fn deep_values_hash_and_compare_in_a_small_stack() {
        std::thread::Builder::new()
            .stack_size(256 << 10)
            .spawn(|| {
                let (a, b, c) = (nested(100_000, 1), nested(100_000, 1), nested(100_000, 2));
                assert_eq!(map_key_hash(&a), map_key_hash(&b));
                assert!(a == b && a != c);
                assert!(a.puppet_eq(&b) && !a.puppet_eq(&c));
                let mut m = Map::default();
                m.insert(a, Value::Integer(1));
                m.insert(c, Value::Integer(2));
                assert_eq!(m.get(&b), Some(&Value::Integer(1)));
                assert_eq!(m.len(), 2);
                // Dropped without recursion (values/drop.rs).
                drop(m);
            })
            .expect("spawn")
            .join()
            .expect("overflowed");
    }

    #[test]
    fn ruby_ranges() {
        let r = RubyRange {
            first: 1,
            last: 4,
            exclusive: true,
        };
        assert_eq!(
            (r.to_string(), r.len(), r.bounds()),
            ("1...4".into(), 3, Some((1, 3)))
        );
        assert_eq!(r.iter().collect::<Vec<_>>(), vec![1, 2, 3]);
        let empty = RubyRange {
            first: 5,
            last: 3,
            exclusive: false,
        };
        assert_eq!((empty.len(), empty.bounds()), (0, None));
    }
}
