//! Ruby values as an ERB template sees them, and Puppet's mapping of its
//! values into Ruby (undef → nil, Hash → Hash, ...) and back.

use std::sync::Arc;

use puppet_model::value::{Map, RubyRange, Value};
use puppet_model::yaml::SYMBOL_MARK;

#[derive(Clone, Debug)]
pub enum RValue {
    Nil,
    Bool(bool),
    Int(i64),
    /// An Integer beyond 64 bits (Ruby's are arbitrary precision): what
    /// `Int` arithmetic overflows into, and `"<md5 hex>".hex` reads as.
    /// Never a value that fits an `Int` (see `super::bigint::norm`).
    Big(Arc<num_bigint::BigInt>),
    Float(f64),
    /// Strings, arrays and hashes share their contents: reading a variable,
    /// passing an argument or yielding an element costs a reference count,
    /// not a deep copy. Values here behave as copies all the same: a
    /// mutating method builds the new value and stores it back into the
    /// variable, and the few in-place edits (`h.delete(k)`, `a[i] = v`) go
    /// through `Arc::make_mut`, which copies a shared payload first.
    Str(Arc<str>),
    /// A binary String (ASCII-8BIT: `Digest::SHA1.digest`'s bytes).
    Bytes(Arc<[u8]>),
    Sym(Arc<str>),
    Array(Arc<Vec<RValue>>),
    /// Insertion-ordered, as Ruby's hashes are.
    Hash(Arc<Vec<(RValue, RValue)>>),
    Range(i64, i64, bool),
    Regex(String),
    /// A Puppet value Ruby only prints (types, `default`, Sensitive).
    Opaque(Value),
    /// The template's `scope` (Puppet's `Puppet::Parser::Scope`).
    Scope,
    /// A class named by a constant (`String`, `Array`), for `is_a?` and `when`.
    Class(String),
    /// An Enumerator: what an iterating method returns without a block
    /// (`list.each_with_index`, `list.map`, `h.each_slice(2)`).
    Enumerator(Arc<Enumerator>),
    /// `proc { |a| ... }`, `lambda { ... }`, `Proc.new { ... }`: a block
    /// kept to be called later (it reads the locals of the code running it).
    Proc(Arc<super::parser::Block>),
    /// A resource of the catalog (`findresource`, a scope's `resource`).
    Resource(Arc<ResourceView>),
    /// One of Puppet's own objects (the compiler, an environment, a
    /// module): its class, its `to_s`, and the readers it answers.
    Object(Arc<RObject>),
}

#[derive(Clone, Debug)]
pub struct RObject {
    pub class: &'static str,
    pub text: String,
    pub attrs: Vec<(&'static str, RValue)>,
}

/// What Ruby sees of a catalog resource: its reference (`File[/a]`, its
/// `to_s`) and its parameters (`res[key]`).
#[derive(Clone, Debug, PartialEq)]
pub struct ResourceView {
    pub type_name: String,
    pub title: String,
    pub params: Vec<(String, Value)>,
}

impl ResourceView {
    pub fn reference(&self) -> String {
        format!("{}[{}]", self.type_name, self.title)
    }
}

/// An iteration not run yet: the method that made it, the values it would
/// yield one by one (a `[k, v]` pair per hash entry, `[x, i]` for
/// `each_with_index`), and its receiver (what `each` returns).
#[derive(Clone, Debug)]
pub struct Enumerator {
    pub method: String,
    pub items: Vec<RValue>,
    pub receiver: RValue,
}

impl RValue {
    /// [`crate::budget::walk_stops`] at this step of a walk over Ruby data,
    /// counted at arrays and hashes as Puppet values' walks count it
    /// (`budget::tick_at`): a part shared along many paths is walked once
    /// per path.
    pub fn walk_stops(&self) -> bool {
        matches!(self, RValue::Array(_) | RValue::Hash(_)) && crate::budget::walk_stops()
    }

    pub fn str(s: impl Into<Arc<str>>) -> RValue {
        RValue::Str(s.into())
    }

    pub fn sym(s: impl Into<Arc<str>>) -> RValue {
        RValue::Sym(s.into())
    }

    pub fn array(items: impl Into<Arc<Vec<RValue>>>) -> RValue {
        RValue::Array(items.into())
    }

    pub fn hash(pairs: impl Into<Arc<Vec<(RValue, RValue)>>>) -> RValue {
        RValue::Hash(pairs.into())
    }

    pub fn truthy(&self) -> bool {
        !matches!(self, RValue::Nil | RValue::Bool(false))
    }

    pub fn class_name(&self) -> &'static str {
        match self {
            RValue::Nil => "NilClass",
            RValue::Bool(true) => "TrueClass",
            RValue::Bool(false) => "FalseClass",
            RValue::Int(_) | RValue::Big(_) => "Integer",
            RValue::Float(_) => "Float",
            RValue::Str(_) | RValue::Bytes(_) => "String",
            RValue::Sym(_) => "Symbol",
            RValue::Array(_) => "Array",
            RValue::Hash(_) => "Hash",
            RValue::Range(..) => "Range",
            RValue::Regex(_) => "Regexp",
            RValue::Opaque(Value::Sensitive(_)) => "Puppet::Pops::Types::PSensitiveType::Sensitive",
            RValue::Opaque(Value::Default) => "Symbol",
            RValue::Opaque(Value::SemVer(_)) => "SemanticPuppet::Version",
            RValue::Opaque(Value::SemVerRange(_)) => "SemanticPuppet::VersionRange",
            RValue::Opaque(_) => "Puppet::Pops::Types::PAnyType",
            RValue::Scope => "Puppet::Parser::Scope",
            RValue::Class(_) => "Class",
            RValue::Enumerator(_) => "Enumerator",
            RValue::Proc(_) => "Proc",
            RValue::Resource(_) => "Puppet::Parser::Resource",
            RValue::Object(o) => o.class,
        }
    }

    /// Ruby's `to_s`.
    pub fn to_s(&self) -> String {
        match self {
            RValue::Nil => String::new(),
            RValue::Bool(b) => b.to_string(),
            RValue::Int(i) => i.to_string(),
            RValue::Big(b) => b.to_string(),
            RValue::Float(f) => puppet_syntax::ruby_float::ruby_float(*f),
            RValue::Str(s) => s.to_string(),
            RValue::Bytes(b) => crate::bad_bytes::binary_text(b).into_owned(),
            RValue::Sym(s) => s.to_string(),
            RValue::Array(_) | RValue::Hash(_) => self.inspect(),
            RValue::Range(a, b, excl) => format!("{a}{}{b}", if *excl { "..." } else { ".." }),
            RValue::Regex(s) => puppet_model::types::regex::ruby_to_s(s),
            RValue::Opaque(Value::Default) => "default".into(),
            RValue::Opaque(v) => v.to_string(),
            RValue::Scope => "Scope()".into(),
            RValue::Class(c) => c.clone(),
            RValue::Enumerator(e) => {
                format!("#<Enumerator: {}:{}>", e.receiver.inspect(), e.method)
            }
            RValue::Proc(_) => "#<Proc>".into(),
            RValue::Resource(r) => r.reference(),
            RValue::Object(o) => o.text.clone(),
        }
    }

    /// Ruby's `inspect`.
    pub fn inspect(&self) -> String {
        let mut out = String::new();
        self.inspect_into(&mut out);
        out
    }

    /// `inspect` appended to `out`: one buffer for the whole value, so that
    /// data 100,000 levels deep is written in linear time (each level
    /// building its own string and copying its child's was quadratic).
    fn inspect_into(&self, out: &mut String) {
        // Data sharing its parts at every level (`y = [y, y]` in a loop)
        // prints once per path, exponentially, as Ruby's does: the budget
        // ends it, counted at each array and hash.
        if self.walk_stops() {
            return;
        }
        deep(|| match self {
            RValue::Array(items) => {
                out.push('[');
                for (i, x) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    x.inspect_into(out);
                }
                out.push(']');
            }
            RValue::Hash(pairs) => {
                out.push('{');
                for (i, (k, v)) in pairs.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    k.inspect_into(out);
                    out.push_str("=>");
                    v.inspect_into(out);
                }
                out.push('}');
            }
            other => out.push_str(&other.inspect_scalar()),
        })
    }

    /// `inspect` of anything but an Array or a Hash.
    fn inspect_scalar(&self) -> String {
        match self {
            RValue::Nil => "nil".into(),
            RValue::Str(s) => puppet_model::names::ruby_inspect_str(s),
            RValue::Sym(s) => {
                let plain = s
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_alphabetic() || c == '_')
                    && s.chars()
                        .all(|c| c.is_alphanumeric() || c == '_' || c == '?' || c == '!');
                if plain {
                    format!(":{s}")
                } else {
                    format!(":{}", puppet_model::names::ruby_inspect_str(s))
                }
            }
            RValue::Array(_) | RValue::Hash(_) => self.inspect(),
            RValue::Regex(s) => format!("/{s}/"),
            // Ruby's inspect of binary: `\xNN` for all but printable ASCII.
            RValue::Bytes(b) => {
                let mut out = String::from("\"");
                for &x in b.iter() {
                    match x {
                        b'"' | b'\\' => {
                            out.push('\\');
                            out.push(x as char);
                        }
                        b'\n' => out.push_str("\\n"),
                        b'\t' => out.push_str("\\t"),
                        0x20..=0x7e => out.push(x as char),
                        _ => out.push_str(&format!("\\x{x:02X}")),
                    }
                }
                out.push('"');
                out
            }
            RValue::Opaque(Value::Default) => ":default".into(),
            RValue::Opaque(Value::Sensitive(_)) => "#<Sensitive [value redacted]>".into(),
            RValue::Opaque(Value::SemVerRange(r)) => r.inspect(),
            other => other.to_s(),
        }
    }

    /// Ruby's `==` (`eql?` for hash keys is close enough here: 1 == 1.0 only
    /// matters for lookups of floats, which templates do not do).
    #[allow(clippy::should_implement_trait)] // Ruby's `==`, not Rust's equality
    pub fn eq(&self, other: &RValue) -> bool {
        deep(|| self.eq_nested(other))
    }

    fn eq_nested(&self, other: &RValue) -> bool {
        if self.walk_stops() {
            return false;
        }
        match (self, other) {
            // Ruby's `Array#==` and `Hash#==` first ask whether the two are
            // one object (and shared data is compared once per path).
            (RValue::Array(a), RValue::Array(b)) if Arc::ptr_eq(a, b) => true,
            (RValue::Hash(a), RValue::Hash(b)) if Arc::ptr_eq(a, b) => true,
            (RValue::Nil, RValue::Nil) => true,
            (RValue::Bool(a), RValue::Bool(b)) => a == b,
            (RValue::Int(a), RValue::Int(b)) => a == b,
            (RValue::Int(a), RValue::Float(b)) | (RValue::Float(b), RValue::Int(a)) => {
                *a as f64 == *b
            }
            (RValue::Float(a), RValue::Float(b)) => a == b,
            (RValue::Big(a), RValue::Big(b)) => a == b,
            (RValue::Big(a), RValue::Float(b)) | (RValue::Float(b), RValue::Big(a)) => {
                super::bigint::to_f64(a) == *b
            }
            (RValue::Str(a), RValue::Str(b)) => a == b,
            (RValue::Bytes(a), RValue::Bytes(b)) => a == b,
            (RValue::Bytes(a), RValue::Str(b)) | (RValue::Str(b), RValue::Bytes(a)) => {
                **a == *b.as_bytes()
            }
            (RValue::Sym(a), RValue::Sym(b)) => a == b,
            (RValue::Array(a), RValue::Array(b)) => {
                a.len() == b.len() && a.iter().zip(b.iter()).all(|(x, y)| x.eq(y))
            }
            (RValue::Hash(a), RValue::Hash(b)) => {
                a.len() == b.len()
                    && a.iter()
                        .all(|(k, v)| b.iter().any(|(k2, v2)| k.eq(k2) && v.eq(v2)))
            }
            (RValue::Range(a, b, c), RValue::Range(d, e, f)) => a == d && b == e && c == f,
            (RValue::Regex(a), RValue::Regex(b)) => a == b,
            (RValue::Opaque(a), RValue::Opaque(b)) => a == b,
            (RValue::Scope, RValue::Scope) => true,
            (RValue::Class(a), RValue::Class(b)) => a == b,
            (RValue::Resource(a), RValue::Resource(b)) => a == b,
            (RValue::Object(a), RValue::Object(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }

    /// Ruby's `<=>`, `None` when the values do not compare.
    #[allow(clippy::should_implement_trait)] // Ruby's `<=>`, partial
    pub fn cmp(&self, other: &RValue) -> Option<std::cmp::Ordering> {
        deep(|| self.cmp_nested(other))
    }

    fn cmp_nested(&self, other: &RValue) -> Option<std::cmp::Ordering> {
        use std::cmp::Ordering;
        if self.walk_stops() {
            return None;
        }
        match (self, other) {
            (RValue::Int(a), RValue::Int(b)) => Some(a.cmp(b)),
            (RValue::Int(a), RValue::Float(b)) => (*a as f64).partial_cmp(b),
            (RValue::Float(a), RValue::Int(b)) => a.partial_cmp(&(*b as f64)),
            (RValue::Float(a), RValue::Float(b)) => a.partial_cmp(b),
            (RValue::Big(_), RValue::Int(_) | RValue::Big(_))
            | (RValue::Int(_), RValue::Big(_)) => {
                Some(super::bigint::of(self)?.cmp(&super::bigint::of(other)?))
            }
            (RValue::Big(a), RValue::Float(b)) => super::bigint::to_f64(a).partial_cmp(b),
            (RValue::Float(a), RValue::Big(b)) => a.partial_cmp(&super::bigint::to_f64(b)),
            (RValue::Str(a), RValue::Str(b)) | (RValue::Sym(a), RValue::Sym(b)) => {
                Some(a.as_bytes().cmp(b.as_bytes()))
            }
            (RValue::Array(a), RValue::Array(b)) => {
                for (x, y) in a.iter().zip(b.iter()) {
                    match x.cmp(y)? {
                        Ordering::Equal => {}
                        o => return Some(o),
                    }
                }
                Some(a.len().cmp(&b.len()))
            }
            _ if self.eq(other) => Some(Ordering::Equal),
            _ => None,
        }
    }

    pub fn hash_get(pairs: &[(RValue, RValue)], key: &RValue) -> Option<RValue> {
        pairs
            .iter()
            .find(|(k, _)| k.eq(key))
            .map(|(_, v)| v.clone())
    }
}

/// Runs a step of a walk over nested values on a stack grown on the heap
/// when this one runs low: data nested 200,000 deep (built by a loop,
/// handed from Puppet) is walked, never overflowing the node's stack.
pub(super) fn deep<T>(f: impl FnOnce() -> T) -> T {
    stacker::maybe_grow(256 << 10, 4 << 20, f)
}

/// A Puppet value as Puppet hands it to a template (`Puppet::Pops` maps
/// undef to nil; everything else is the Ruby object of the same kind).
pub fn from_puppet(v: &Value) -> RValue {
    from_puppet_nested(v, &mut Shared::default())
}

/// The arrays and hashes already converted in one [`from_puppet`], by the
/// address of their shared contents. Puppet hands a template its own
/// objects, so a collection held in two places is one object: converted
/// once here too, and the copy shared (`RValue`'s contents behave as
/// copies). Data built by a loop shares whole levels (`[$m, {a => $m}]`),
/// and a walk that copied each reference over would double per level.
#[derive(Default)]
pub(super) struct Shared(rustc_hash::FxHashMap<usize, RValue>);

impl Shared {
    /// `convert` once per collection that is held elsewhere too (a
    /// collection held once is met once, and is not remembered).
    pub(super) fn once<T>(
        &mut self,
        items: &Arc<T>,
        convert: impl FnOnce(&mut Self) -> RValue,
    ) -> RValue {
        if Arc::strong_count(items) == 1 {
            return convert(self);
        }
        let key = Arc::as_ptr(items) as *const u8 as usize;
        if let Some(done) = self.0.get(&key) {
            return done.clone();
        }
        let done = convert(self);
        self.0.insert(key, done.clone());
        done
    }
}

fn from_puppet_nested(v: &Value, shared: &mut Shared) -> RValue {
    if crate::budget::walk_stops_at(v) {
        return RValue::Nil;
    }
    deep(|| match v {
        Value::Undef => RValue::Nil,
        Value::Boolean(b) => RValue::Bool(*b),
        Value::Integer(i) => RValue::Int(*i),
        Value::Float(f) => RValue::Float(*f),
        // A binary String goes back into Ruby as one.
        Value::String(s) if crate::bad_bytes::is_binary_string(s) => {
            RValue::Bytes(puppet_model::bad_bytes::encode(s).into())
        }
        Value::String(s) => match s.strip_prefix(SYMBOL_MARK) {
            Some(name) => RValue::sym(name),
            // Puppet's string is shared as it is, not copied.
            None => RValue::Str(s.clone()),
        },
        Value::Regexp(s) => RValue::Regex(s.to_string()),
        Value::Range(r) => RValue::Range(r.first, r.last, r.exclusive),
        Value::Array(_) | Value::Hash(_) => collection(v, shared, from_puppet_nested),
        other => RValue::Opaque(other.clone()),
    })
}

/// An array or a hash converted once ([`Shared::once`]), each element and
/// key by `element`; anything else is nil.
pub(super) fn collection(
    v: &Value,
    shared: &mut Shared,
    element: fn(&Value, &mut Shared) -> RValue,
) -> RValue {
    match v {
        Value::Array(items) => shared.once(items, |shared| {
            RValue::array(items.iter().map(|i| element(i, shared)).collect::<Vec<_>>())
        }),
        Value::Hash(h) => shared.once(h, |shared| {
            RValue::hash(
                h.iter()
                    .map(|(k, v)| (element(k, shared), element(v, shared)))
                    .collect::<Vec<_>>(),
            )
        }),
        _ => RValue::Nil,
    }
}

/// A Ruby value as a Puppet function receives it back (symbols become
/// strings; a Range stays a Range, `Value::Range`).
pub fn to_puppet(v: &RValue) -> Value {
    convert(v, false)
}

/// A Ruby value kept in a Puppet variable for templates to read back
/// (`scope.lookupvar('x')[:k] = v`): symbols stay symbols, marked as
/// Hiera's loader marks them.
pub fn to_puppet_stored(v: &RValue) -> Value {
    convert(v, true)
}

/// A Ruby value as a Puppet 8 function returns it: binary Strings stay
/// Strings known to be binary (`crate::bad_bytes::binary_string`), which
/// Puppet 8's catalog writes as Binary values.
pub fn to_puppet_keeping_binary(v: &RValue) -> Value {
    if v.walk_stops() {
        return Value::Undef;
    }
    deep(|| match v {
        RValue::Bytes(b) => crate::bad_bytes::binary_string(b),
        RValue::Array(items) => Value::array(items.iter().map(to_puppet_keeping_binary).collect()),
        RValue::Hash(pairs) => {
            let mut m = Map::default();
            for (k, v) in pairs.iter() {
                m.insert(to_puppet(k), to_puppet_keeping_binary(v));
            }
            Value::hash(m)
        }
        other => to_puppet(other),
    })
}

fn convert(v: &RValue, keep_symbols: bool) -> Value {
    deep(|| convert_nested(v, keep_symbols))
}

fn convert_nested(v: &RValue, keep_symbols: bool) -> Value {
    let to_puppet = |v: &RValue| convert(v, keep_symbols);
    if v.walk_stops() {
        return Value::Undef;
    }
    match v {
        RValue::Sym(s) if keep_symbols => Value::string(format!("{SYMBOL_MARK}{s}")),
        RValue::Nil => Value::Undef,
        RValue::Bool(b) => Value::Boolean(*b),
        RValue::Int(i) => Value::Integer(*i),
        // Puppet's values here are 64-bit: a Bignum handed back is kept as
        // the nearest Float rather than wrapped or cut.
        RValue::Big(b) => Value::Float(super::bigint::to_f64(b)),
        RValue::Float(f) => Value::Float(*f),
        RValue::Str(s) | RValue::Sym(s) => Value::String(s.clone()),
        RValue::Bytes(b) => Value::string(crate::bad_bytes::binary_text(b).as_ref()),
        RValue::Regex(s) => Value::Regexp(Arc::from(s.as_str())),
        RValue::Array(items) => Value::array(items.iter().map(to_puppet).collect()),
        // Puppet keeps the Ruby object: a `Runtime[ruby, 'Range']` that
        // iterates lazily and prints as `1..n` (never a list cut short).
        RValue::Range(a, b, excl) => Value::Range(Arc::new(RubyRange {
            first: *a,
            last: *b,
            exclusive: *excl,
        })),
        RValue::Hash(pairs) => {
            let mut m = Map::default();
            for (k, v) in pairs.iter() {
                m.insert(to_puppet(k), to_puppet(v));
            }
            Value::hash(m)
        }
        RValue::Opaque(v) => v.clone(),
        RValue::Scope
        | RValue::Class(_)
        | RValue::Enumerator(_)
        | RValue::Proc(_)
        | RValue::Resource(_)
        | RValue::Object(_) => Value::string(v.to_s()),
    }
}
