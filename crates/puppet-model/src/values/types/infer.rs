//! Inferring a value's type (`TypeCalculator#infer`, `#infer_set`) and the
//! common supertype of two types (`#common_type`).

use super::assignable::is_assignable;
use super::model::{IntRange, PType, StructMember};
use crate::values::Value;

use PType as T;

/// Puppet's `infer` (`type($x, 'reduced')`): the most specific type of a
/// value, collections reduced to their elements' common type (`[1, 'a']` is
/// `Array[ScalarData, 2, 2]`).
pub fn infer(v: &Value) -> PType {
    infer_at(v, 0)
}

/// How many arrays, hashes and Sensitives deep inference goes. Puppet's
/// inference recurses on Ruby's stack, and data nested deeper than it
/// goes ends the compile with `stack level too deep`: in a manifest's top
/// scope, Puppet 7.23 infers 2,501 arrays deep and fails at 2,601; 8.10
/// infers 2,701 and fails at 2,801 (`tests/limits.rs`). pverify stops past
/// this many and ends the compile so (`budget::stack_too_deep`); the types
/// it makes are never deeper, so no walk over a type can outgrow a stack.
pub const MAX_DEPTH: usize = 2_550;

/// Whether inference at `depth` is past [`MAX_DEPTH`] (the compile ends).
fn too_deep(depth: usize) -> bool {
    if depth > MAX_DEPTH {
        crate::budget::stack_too_deep();
        return true;
    }
    false
}

fn infer_at(v: &Value, depth: usize) -> PType {
    // Data nested deeper than any stack is inferred on a stack grown on the
    // heap, up to the limit.
    stacker::maybe_grow(256 << 10, 4 << 20, || infer_nested(v, depth))
}

fn infer_nested(v: &Value, depth: usize) -> PType {
    if crate::budget::walk_stops_at(v) || too_deep(depth) {
        return T::Any;
    }
    let infer = |x: &Value| infer_at(x, depth + 1);
    match v {
        Value::Undef => T::Undef,
        Value::Default => T::Default,
        Value::Boolean(b) => T::Boolean(Some(*b)),
        Value::Integer(i) => T::integer(*i, *i),
        Value::Float(x) => T::float(*x, *x),
        Value::String(s) => T::string_value(&**s),
        Value::Regexp(r) => T::Regexp(Some(r.to_string())),
        Value::Array(items) => {
            if items.is_empty() {
                T::empty_array()
            } else {
                let elem = reduce(items.iter().map(infer));
                T::array(elem, Some(IntRange::exact(items.len() as i64)))
            }
        }
        Value::Hash(map) => {
            if map.is_empty() {
                T::empty_hash()
            } else {
                let k = reduce(map.keys().map(infer));
                let v = reduce(map.values().map(infer));
                T::hash(k, v, Some(IntRange::exact(map.len() as i64)))
            }
        }
        Value::Type(t) => T::type_of((**t).clone()),
        Value::Sensitive(x) => T::sensitive(Some(infer(x))),
        Value::Deferred(_) => T::Object(Some("Deferred".to_string())),
        Value::Object(o) => T::ObjectDef(o.ty.inferred_for(o)),
        Value::Binary(_) => T::Binary,
        // The type of exactly this instant or span.
        Value::Timestamp(_) => T::Timestamp {
            from: Some(Box::new(v.clone())),
            to: Some(Box::new(v.clone())),
        },
        Value::Timespan(_) => T::Timespan {
            from: Some(Box::new(v.clone())),
            to: Some(Box::new(v.clone())),
        },
        // `infer_set_Version` (which `type()` shows): the range of exactly
        // this version, written by `VersionRange.new(v, v)` ('1.0.0 - 1.0.0').
        Value::SemVer(x) => T::SemVer(vec![crate::values::semver::VersionRange::from_bounds(
            (**x).clone(),
            (**x).clone(),
            false,
        )]),
        Value::SemVerRange(_) => T::SemVerRange,
        // `infer_set_URI`: `URI[uri_to_hash(uri)]`.
        Value::Uri(u) => crate::values::uri::infer_type(u),
        Value::Range(_) => T::Runtime {
            runtime: Some("ruby".into()),
            name: Some("Range".into()),
        },
    }
}

/// Puppet's `infer_set`: arrays as tuples and hashes with non-empty string
/// keys as structs, element by element. This is the "detailed" type the
/// mismatch messages describe a value with.
pub fn infer_set(v: &Value) -> PType {
    infer_set_at(v, 0)
}

fn infer_set_at(v: &Value, depth: usize) -> PType {
    stacker::maybe_grow(256 << 10, 4 << 20, || infer_set_nested(v, depth))
}

fn infer_set_nested(v: &Value, depth: usize) -> PType {
    if crate::budget::walk_stops_at(v) || too_deep(depth) {
        return T::Any;
    }
    let infer_set = |x: &Value| infer_set_at(x, depth + 1);
    match v {
        Value::Array(items) => {
            if items.is_empty() {
                T::empty_array()
            } else {
                T::tuple(items.iter().map(infer_set).collect(), None)
            }
        }
        Value::Hash(map) => {
            if map.is_empty() {
                T::empty_hash()
            } else if map
                .keys()
                .all(|k| matches!(k, Value::String(s) if !s.is_empty()))
            {
                T::Struct(
                    map.iter()
                        .map(|(k, x)| StructMember {
                            name: k.as_str().unwrap().to_string(),
                            optional_key: false,
                            value: infer_set(x),
                        })
                        .collect(),
                )
            } else {
                let k = unwrap_single_variant(T::variant(map.keys().map(infer_set).collect()));
                let x = unwrap_single_variant(T::variant(map.values().map(infer_set).collect()));
                T::hash(k, x, Some(IntRange::exact(map.len() as i64)))
            }
        }
        other => infer_at(other, depth),
    }
}

/// `infer` then `generalize`: `Integer`, `String`, `Array[Integer]`...
pub fn infer_generic(v: &Value) -> PType {
    infer(v).generalize()
}

fn unwrap_single_variant(mut t: PType) -> PType {
    match &mut t {
        T::Variant(types) if types.len() == 1 => types.pop().unwrap_or(T::Any),
        _ => t,
    }
}

fn reduce(types: impl Iterator<Item = PType>) -> PType {
    let mut acc: Option<PType> = None;
    for t in types {
        acc = Some(match acc {
            None => t,
            Some(a) => common_type(&a, &t),
        });
    }
    acc.unwrap_or(T::Undef)
}

fn is_numeric(t: &PType) -> bool {
    is_assignable(&T::Numeric, t)
}

/// Puppet's `common_type`: the narrowest type both are assignable to, of the
/// few Puppet knows to compute.
pub fn common_type(t1: &PType, t2: &PType) -> PType {
    if matches!(t1, T::Undef) {
        return t2.clone();
    }
    if matches!(t2, T::Undef) {
        return t1.clone();
    }
    if matches!(t1, T::Unit) {
        return t2.clone();
    }
    if matches!(t2, T::Unit) {
        return t1.clone();
    }
    if is_assignable(t1, t2) {
        return t1.clone();
    }
    if is_assignable(t2, t1) {
        return t2.clone();
    }
    match (t1, t2) {
        (T::Array { element: a, .. }, T::Array { element: b, .. }) => {
            return T::array(common_type(a, b), None);
        }
        (
            T::Hash {
                key: k1, value: v1, ..
            },
            T::Hash {
                key: k2, value: v2, ..
            },
        ) => {
            return T::hash(common_type(k1, k2), common_type(v1, v2), None);
        }
        (T::Class(_), T::Class(_)) => return T::Class(None),
        (T::Resource { type_name: a, .. }, T::Resource { type_name: b, .. }) => {
            return if a == b {
                T::Resource {
                    type_name: a.clone(),
                    title: None,
                }
            } else {
                T::Resource {
                    type_name: None,
                    title: None,
                }
            };
        }
        (T::Integer { from: a, to: b }, T::Integer { from: c, to: d }) => {
            return T::integer(*a.min(c), *b.max(d));
        }
        (T::Float { from: a, to: b }, T::Float { from: c, to: d }) => {
            return T::float(a.min(*c), b.max(*d));
        }
        (
            T::String {
                size: s1,
                value: v1,
            },
            T::String {
                size: s2,
                value: v2,
            },
        ) => {
            return match (s1, s2) {
                (Some(a), Some(b)) => {
                    T::string_sized(IntRange::new(a.from.min(b.from), a.to.max(b.to)))
                }
                _ => match (v1, v2) {
                    (Some(a), Some(b)) => T::enumeration(vec![a.clone(), b.clone()], false),
                    _ => T::STRING,
                },
            };
        }
        (T::String { value, .. }, T::Enum { values, .. })
        | (T::Enum { values, .. }, T::String { value, .. }) => {
            return match value {
                None => T::Enum {
                    values: Vec::new(),
                    case_insensitive: false,
                },
                Some(v) => {
                    let mut all = values.clone();
                    all.push(v.clone());
                    T::enumeration(all, false)
                }
            };
        }
        (T::Pattern(a), T::Pattern(b)) => {
            let mut all = a.clone();
            for p in b {
                if !all.contains(p) {
                    all.push(p.clone());
                }
            }
            return T::Pattern(all);
        }
        (T::Enum { values: a, .. }, T::Enum { values: b, .. }) => {
            let mut all = a.clone();
            all.extend(b.iter().cloned());
            return T::enumeration(all, false);
        }
        (T::Variant(a), T::Variant(b)) => {
            let mut all = a.clone();
            for t in b {
                if !all.contains(t) {
                    all.push(t.clone());
                }
            }
            return T::variant(all);
        }
        (T::Regexp(_), T::Regexp(_)) => return T::Regexp(None),
        (T::Callable { .. }, T::Callable { .. }) => {
            return T::Callable {
                params: None,
                block: None,
                return_type: None,
            };
        }
        _ => {}
    }
    if is_numeric(t1) && is_numeric(t2) {
        return T::Numeric;
    }
    if is_assignable(&T::ScalarData, t1) && is_assignable(&T::ScalarData, t2) {
        return T::ScalarData;
    }
    if is_assignable(&T::Scalar, t1) && is_assignable(&T::Scalar, t2) {
        return T::Scalar;
    }
    if is_assignable(&T::Data, t1) && is_assignable(&T::Data, t2) {
        return T::Data;
    }
    if let (T::Type(a), T::Type(b)) = (t1, t2) {
        let inner = match (a, b) {
            (Some(a), Some(b)) => Some(Box::new(common_type(a, b))),
            _ => None,
        };
        return T::Type(inner);
    }
    if is_assignable(&T::RichData, t1) && is_assignable(&T::RichData, t2) {
        return T::RichData;
    }
    T::Any
}
