//! Values as Ruby sees them: `to_s`, `inspect`, `<=>`, `==`, class names.

use crate::eval::value::Value;
use puppet_model::ruby::ruby_inspect;
use puppet_model::types::PType;
use std::sync::Arc;

/// The most elements an iteration may produce here (a larger Integer range
/// would not fit in memory; Puppet would take hours over it).
pub(super) const MAX_ITERATION: i64 = 50_000_000;

/// Puppet's `Iterable.on`: the elements, and whether they are hash entries
/// (`[key, value]` pairs). `None` for a value that is not iterable.
pub(super) fn iterable(v: &Value) -> Option<(Vec<Value>, bool)> {
    match v {
        Value::Array(a) => Some((a.to_vec(), false)),
        Value::Hash(h) => Some((
            h.iter()
                .map(|(k, v)| Value::array(vec![k.clone(), v.clone()]))
                .collect(),
            true,
        )),
        Value::String(s) => Some((
            crate::bad_bytes::parts_in_encoding_of(
                s,
                s.chars().map(|c| Value::string(c.to_string())).collect(),
            ),
            false,
        )),
        Value::Integer(n) if *n >= 0 && *n <= MAX_ITERATION => {
            Some(((0..*n).map(Value::Integer).collect(), false))
        }
        // A Ruby Range (a Ruby function's value): its integers.
        Value::Range(r) if r.len() <= MAX_ITERATION as u64 => {
            Some((r.iter().map(Value::Integer).collect(), false))
        }
        Value::Type(t) => type_iterable(t),
        _ => None,
    }
}

pub(super) fn type_iterable(t: &PType) -> Option<(Vec<Value>, bool)> {
    match t {
        PType::Integer { from, to }
            if *from != i64::MIN
                && *to != i64::MAX
                && to >= from
                && to.saturating_sub(*from) < MAX_ITERATION =>
        {
            Some(((*from..=*to).map(Value::Integer).collect(), false))
        }
        PType::Enum { values, .. } => Some((
            values.iter().map(|s| Value::string(s.as_str())).collect(),
            false,
        )),
        PType::TypeAlias { .. } => t.alias_target().and_then(|r| type_iterable(&r)),
        _ => None,
    }
}

/// The name of a value's Ruby class, or its `inspect` for Ruby's special
/// constants, as `rb_cmperr` shows the right operand.
pub(super) fn ruby_cmp_operand(v: &Value) -> String {
    match v {
        Value::Undef | Value::Boolean(_) | Value::Integer(_) | Value::Float(_) | Value::Default => {
            ruby_inspect(v)
        }
        other => puppet_model::types::parse::ruby_class(other),
    }
}

/// Ruby's `<=>` on the values Puppet passes to Ruby.
pub(super) fn ruby_cmp(a: &Value, b: &Value) -> Option<std::cmp::Ordering> {
    use std::cmp::Ordering;
    match (a, b) {
        (Value::Integer(x), Value::Integer(y)) => Some(x.cmp(y)),
        (Value::Integer(x), Value::Float(y)) => (*x as f64).partial_cmp(y),
        (Value::Float(x), Value::Integer(y)) => x.partial_cmp(&(*y as f64)),
        (Value::Float(x), Value::Float(y)) => x.partial_cmp(y),
        (Value::String(x), Value::String(y)) => Some(x.as_bytes().cmp(y.as_bytes())),
        (Value::Array(x), Value::Array(y)) => {
            for (p, q) in x.iter().zip(y.iter()) {
                match ruby_cmp(p, q)? {
                    Ordering::Equal => {}
                    o => return Some(o),
                }
            }
            Some(x.len().cmp(&y.len()))
        }
        (Value::Timestamp(_) | Value::Timespan(_), _)
        | (_, Value::Timestamp(_) | Value::Timespan(_)) => puppet_model::time::compare(a, b),
        (Value::SemVer(x), Value::SemVer(y)) => Some(x.cmp_ruby(y)),
        _ if ruby_eq(a, b) => Some(Ordering::Equal),
        _ => None,
    }
}

pub(super) fn cmp_error(a: &Value, b: &Value) -> String {
    format!(
        "comparison of {} with {} failed",
        puppet_model::types::parse::ruby_class(a),
        ruby_cmp_operand(b)
    )
}

/// Ruby's `==` on the values Puppet passes to Ruby (`1 == 1.0`, strings
/// case-sensitively).
pub(super) fn ruby_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Integer(x), Value::Float(y)) | (Value::Float(y), Value::Integer(x)) => {
            (*x as f64) == *y
        }
        (Value::Float(x), Value::Float(y)) => x == y,
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| ruby_eq(p, q))
        }
        (Value::Hash(x), Value::Hash(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| ruby_eq(v, w)))
        }
        _ => a == b,
    }
}

/// Sorts by Ruby's `<=>`, failing as Ruby does on incomparable elements.
pub(super) fn ruby_sort(items: &mut [Value]) -> Result<(), String> {
    for w in items.windows(2) {
        if ruby_cmp(&w[0], &w[1]).is_none() {
            return Err(cmp_error(&w[0], &w[1]));
        }
    }
    let mut bad = None;
    items.sort_by(|a, b| match ruby_cmp(a, b) {
        Some(o) => o,
        None => {
            if bad.is_none() {
                bad = Some(cmp_error(a, b));
            }
            std::cmp::Ordering::Equal
        }
    });
    match bad {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// The Ruby class name of a value, as `%{klass}` shows it.
pub(super) fn ruby_class(v: &Value) -> String {
    puppet_model::types::parse::ruby_class(v)
}

pub(super) fn type_value(t: PType) -> Value {
    Value::Type(Arc::new(t))
}

pub(super) fn label(v: &Value) -> String {
    puppet_model::types::parse::label_value(v)
}
