//! Puppet's `instance?`: is a value an instance of a type? This is the
//! language's `$x =~ Type`, the check of typed parameters, and `case`/selector
//! matching on types.

use super::assignable::{is_assignable, is_iterable};
use super::model::{PType, StructMember};
use crate::values::Value;

use PType as T;

/// Puppet's `t.instance?(v)`.
pub fn is_instance(t: &PType, v: &Value) -> bool {
    Checker::default().check(t, v)
}

/// Guards against aliases that refer to themselves without consuming the
/// value (`type A = Variant[A, Integer]`): the same alias on the same value
/// again is not an instance (Puppet's `really_instance?` answering 0).
#[derive(Default)]
struct Checker {
    active: Vec<(usize, usize)>,
}

impl Checker {
    fn check(&mut self, t: &PType, v: &Value) -> bool {
        match t {
            T::Any | T::Unit => true,
            T::Undef => matches!(v, Value::Undef),
            T::Default => matches!(v, Value::Default),
            T::NotUndef(inner) => {
                !matches!(v, Value::Undef)
                    && match inner {
                        None => true,
                        Some(x) => self.check(x, v),
                    }
            }
            T::Data => is_data(v),
            T::RichData => is_rich_data(v),
            T::Scalar => matches!(
                v,
                Value::String(_)
                    | Value::Integer(_)
                    | Value::Float(_)
                    | Value::Boolean(_)
                    | Value::Regexp(_)
                    | Value::Timestamp(_)
                    | Value::Timespan(_)
                    | Value::SemVer(_)
                    | Value::SemVerRange(_)
            ),
            T::ScalarData => {
                matches!(
                    v,
                    Value::String(_) | Value::Integer(_) | Value::Float(_) | Value::Boolean(_)
                )
            }
            T::Numeric => matches!(v, Value::Integer(_) | Value::Float(_)),
            T::Integer { from, to } => matches!(v, Value::Integer(i) if i >= from && i <= to),
            T::Float { from, to } => matches!(v, Value::Float(x) if x >= from && x <= to),
            T::String { size, value } => match v {
                Value::String(s) => match (size, value) {
                    (Some(r), _) => r.contains(s.chars().count() as i64),
                    (None, Some(val)) => **s == **val,
                    (None, None) => true,
                },
                _ => false,
            },
            T::Enum {
                values,
                case_insensitive,
            } => match v {
                Value::String(s) => {
                    if *case_insensitive {
                        values.iter().any(|x| x.eq_ignore_ascii_case(s))
                    } else {
                        values.iter().any(|x| **x == **s)
                    }
                }
                _ => false,
            },
            T::Pattern(patterns) => match v {
                Value::String(s) => {
                    patterns.is_empty() || patterns.iter().any(|p| super::regex::is_match(p, s))
                }
                _ => false,
            },
            T::Regexp(p) => match v {
                Value::Regexp(r) => p.as_deref().is_none_or(|p| p == &**r),
                _ => false,
            },
            T::Boolean(b) => matches!(v, Value::Boolean(x) if b.is_none_or(|b| b == *x)),
            T::Array { element, size } => match v {
                Value::Array(items) => {
                    items.iter().all(|x| self.check(element, x))
                        && size.is_none_or(|r| r.contains(items.len() as i64))
                }
                _ => false,
            },
            T::Hash { key, value, size } => match v {
                Value::Hash(map) => {
                    map.keys().all(|k| self.check(key, k))
                        && map.values().all(|x| self.check(value, x))
                        && size.is_none_or(|r| r.contains(map.len() as i64))
                }
                _ => false,
            },
            T::Tuple { types, size } => match v {
                Value::Array(items) => {
                    match size {
                        Some(r) => {
                            if !r.contains(items.len() as i64) {
                                return false;
                            }
                        }
                        None => {
                            if !types.is_empty() && types.len() != items.len() {
                                return false;
                            }
                        }
                    }
                    types.is_empty()
                        || items.iter().enumerate().all(|(i, x)| {
                            let t = types.get(i).unwrap_or_else(|| types.last().unwrap());
                            self.check(t, x)
                        })
                }
                _ => false,
            },
            T::Struct(members) => match v {
                Value::Hash(map) => self.check_struct(members, map),
                _ => false,
            },
            T::Optional(inner) => {
                matches!(v, Value::Undef)
                    || match inner {
                        None => false,
                        Some(x) => self.check(x, v),
                    }
            }
            T::Variant(types) => types.iter().any(|x| self.check(x, v)),
            T::Collection { size } => match v {
                Value::Array(a) => size.is_none_or(|r| r.contains(a.len() as i64)),
                Value::Hash(h) => size.is_none_or(|r| r.contains(h.len() as i64)),
                _ => false,
            },
            T::Iterable(elem) => {
                let any_elem = elem.as_deref().is_none_or(|e| is_assignable(e, &T::Any));
                if any_elem {
                    match v {
                        Value::String(_) | Value::Array(_) | Value::Hash(_) => true,
                        Value::Range(_) => true,
                        Value::Integer(i) => *i >= 0,
                        Value::Type(t) => match &**t {
                            T::Enum { .. } => true,
                            T::Integer { from, to } => *from != i64::MIN && *to != i64::MAX,
                            T::TypeAlias { .. } => is_iterable(&T::type_of((**t).clone())),
                            _ => false,
                        },
                        _ => false,
                    }
                } else {
                    // A Range too is only by its type, `Runtime[ruby,
                    // 'Range']`: no `Iterable[Integer]` (7.23, 8.10).
                    is_assignable(t, &super::infer(v))
                }
            }
            // no iterator or callable values exist outside the evaluator
            T::Iterator(_) | T::Callable { .. } => false,
            T::Type(inner) => match v {
                Value::Type(x) => inner.as_deref().is_none_or(|i| is_assignable(i, x)),
                _ => false,
            },
            // only catalog resources are, and they are not values
            T::Class(_) | T::Resource { .. } | T::CatalogEntry => false,
            // The one Ruby object pverify keeps: by its inferred type.
            T::Runtime { .. } => matches!(v, Value::Range(_)) && is_assignable(t, &super::infer(v)),
            T::Sensitive(inner) => match v {
                Value::Sensitive(x) => inner.as_deref().is_none_or(|i| self.check(i, x)),
                _ => false,
            },
            T::SemVer(ranges) => match v {
                Value::SemVer(x) => ranges.is_empty() || ranges.iter().any(|r| r.includes(x)),
                _ => false,
            },
            T::SemVerRange => matches!(v, Value::SemVerRange(_)),
            // `PURIType#instance?`: each parameter matches its component
            // (`match?`: strings case-insensitively, regexps, types).
            T::Uri(p) => match (v, p.as_deref()) {
                (Value::Uri(_), None) => true,
                (Value::Uri(u), Some(Value::Hash(h))) => h.iter().all(|(k, pat)| {
                    let comp = k
                        .as_str()
                        .and_then(|n| u.component(n))
                        .unwrap_or(Value::Undef);
                    match (pat, &comp) {
                        (Value::Regexp(r), Value::String(s)) => super::regex::is_match(r, s),
                        (Value::Regexp(_), _) => false,
                        (Value::Type(t), _) => self.check(t, &comp),
                        _ => pat.puppet_eq(&comp),
                    }
                }),
                _ => false,
            },
            T::Timestamp { from, to } => matches!(v, Value::Timestamp(_)) && within(v, from, to),
            T::Timespan { from, to } => matches!(v, Value::Timespan(_)) && within(v, from, to),
            T::Binary => matches!(v, Value::Binary(_)),
            T::Init { type_, .. } => match type_ {
                None => is_rich_data(v),
                Some(x) => self.check(x, v),
            },
            // types are Puppet objects
            T::Object(name) => match name.as_deref() {
                None => matches!(v, Value::Type(_) | Value::Object(_)),
                Some("Deferred") => matches!(v, Value::Deferred(_)),
                Some(_) => false,
            },
            // An instance of the type or of a descendant.
            T::ObjectDef(o) => match v {
                Value::Object(x) => o.is_instance(x),
                _ => false,
            },
            T::TypeReference(_) => false,
            T::TypeAlias { resolved, .. } => {
                let Some(target) = resolved.get() else {
                    return false;
                };
                let key = (resolved.ptr(), v as *const Value as usize);
                if self.active.contains(&key) {
                    return false;
                }
                if alias_too_deep(self.active.len()) {
                    return false;
                }
                self.active.push(key);
                let r = self.check(target, v);
                self.active.pop();
                r
            }
        }
    }

    fn check_struct(&mut self, members: &[StructMember], map: &crate::values::Map) -> bool {
        let mut matched = 0;
        for m in members {
            match map.get(&Value::string(m.name.as_str())) {
                None => {
                    if !m.optional_key {
                        return false;
                    }
                }
                Some(x) => {
                    matched += 1;
                    if !self.check(&m.value, x) {
                        return false;
                    }
                }
            }
        }
        matched == map.len()
    }
}

/// How deep a value may nest for a check through a type alias that
/// recurses (`Data`, `RichData`, `type Tree = Variant[Integer,
/// Array[Tree]]`). Puppet's check recurses on Ruby's stack and ends the
/// compile with `stack level too deep` past what it holds: in a manifest's
/// top scope, `$d =~ Data` answers on data 651 arrays deep and fails at 701
/// in Puppet 7.23; 8.10 answers at 701 and fails at 751
/// (`tests/limits.rs`). pverify ends the compile so past this many.
pub const MAX_ALIAS_DEPTH: usize = 675;

/// An instance of `Data`: scalar data, undef, arrays of data, hashes of
/// string keys to data.
pub fn is_data(v: &Value) -> bool {
    data_within(v, 0)
}

/// Past [`MAX_ALIAS_DEPTH`], the compile ends ([`crate::budget::stack_too_deep`]).
fn alias_too_deep(depth: usize) -> bool {
    if depth >= MAX_ALIAS_DEPTH {
        crate::budget::stack_too_deep();
        return true;
    }
    false
}

fn data_within(v: &Value, depth: usize) -> bool {
    let is_data = |x: &Value| data_within(x, depth + 1);
    match v {
        Value::Undef
        | Value::String(_)
        | Value::Integer(_)
        | Value::Float(_)
        | Value::Boolean(_) => true,
        Value::Array(_) | Value::Hash(_) if alias_too_deep(depth) => false,
        Value::Array(items) => items.iter().all(is_data),
        Value::Hash(map) => map
            .iter()
            .all(|(k, x)| matches!(k, Value::String(_)) && is_data(x)),
        _ => false,
    }
}

/// An instance of `RichData`: any scalar, undef, default, types, sensitive
/// values, arrays of rich data, hashes of string or numeric keys to rich data.
pub fn is_rich_data(v: &Value) -> bool {
    rich_data_within(v, 0)
}

fn rich_data_within(v: &Value, depth: usize) -> bool {
    let is_rich_data = |x: &Value| rich_data_within(x, depth + 1);
    match v {
        Value::Undef
        | Value::Default
        | Value::String(_)
        | Value::Integer(_)
        | Value::Float(_)
        | Value::Boolean(_)
        | Value::Regexp(_)
        | Value::Type(_)
        | Value::Sensitive(_)
        | Value::Deferred(_)
        | Value::Object(_)
        | Value::Binary(_)
        | Value::Timestamp(_)
        | Value::Timespan(_)
        | Value::SemVer(_)
        | Value::SemVerRange(_)
        | Value::Uri(_) => true,
        Value::Range(_) => false,
        Value::Array(_) | Value::Hash(_) if alias_too_deep(depth) => false,
        Value::Array(items) => items.iter().all(is_rich_data),
        Value::Hash(map) => map.iter().all(|(k, x)| {
            matches!(k, Value::String(_) | Value::Integer(_) | Value::Float(_)) && is_rich_data(x)
        }),
    }
}

/// A Timestamp or Timespan between the bounds of its type (inclusive).
fn within(v: &Value, from: &Option<Box<Value>>, to: &Option<Box<Value>>) -> bool {
    use crate::values::time::nanos_of;
    let Some(n) = nanos_of(v) else { return false };
    let ns = |b: &Option<Box<Value>>| b.as_deref().and_then(nanos_of);
    ns(from).is_none_or(|f| f <= n) && ns(to).is_none_or(|t| n <= t)
}
