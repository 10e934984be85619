//! Values and types are dropped without recursion.
//!
//! A manifest builds data as deep as it likes (`Integer[1, 200000].reduce([])
//! |$m, $i| { [$m] }`), and a type inferred from it is as deep. Rust's
//! generated drop recurses once per level, and a debug build's frames are
//! large: 200,000 levels overflowed a 64 MiB stack, which aborts the whole
//! run. So a value or type owned by nobody else that is three or more
//! levels deep hands what it holds to a work-list instead, and those are
//! dropped one after another, each only after its own contents were moved
//! onto the list.
//!
//! On good input this costs a look at the children of each dropped
//! collection; shared collections (an `Arc` still owned elsewhere) are
//! left to their other owners and cost one load.

use std::mem;
use std::sync::Arc;

use super::types::PType;
use super::value::Value;

/// A value or a type waiting on the work-list: types hold values (bounds,
/// `Init` arguments) and values hold types, so either may nest in the other.
enum Owned {
    Value(Value),
    Type(PType),
}

impl Drop for Value {
    fn drop(&mut self) {
        if value_is_deep(self) {
            let mut pending = Vec::new();
            detach_value(self, &mut pending);
            drain(pending);
        }
        // Else the generated drop recurses one level at most.
    }
}

impl Drop for PType {
    fn drop(&mut self) {
        if type_is_deep(self) {
            let mut pending = Vec::new();
            detach_type(self, &mut pending);
            drain(pending);
        }
    }
}

/// Drops the work-list's entries one by one, each after moving what it
/// holds onto the list, so that no drop recurses.
fn drain(mut pending: Vec<Owned>) {
    while let Some(mut owned) = pending.pop() {
        match &mut owned {
            Owned::Value(v) => detach_value(v, &mut pending),
            Owned::Type(t) => detach_type(t, &mut pending),
        }
    }
}

/// `Arc::get_mut`, tried only when the count says it can succeed (a plain
/// load, where `get_mut` is a compare-and-swap).
fn unique<T>(a: &mut Arc<T>) -> Option<&mut T> {
    if Arc::strong_count(a) == 1 {
        Arc::get_mut(a)
    } else {
        None
    }
}

fn sole<T>(a: &Arc<T>) -> bool {
    Arc::strong_count(a) == 1
}

/// Does dropping `v` drop values or types nested in it?
fn value_owns(v: &Value) -> bool {
    match v {
        Value::Array(a) => sole(a) && !a.is_empty(),
        Value::Hash(h) => sole(h) && !h.is_empty(),
        Value::Sensitive(s) => sole(s),
        Value::Deferred(d) => sole(d) && d.arguments.as_ref().is_some_and(|a| !a.is_empty()),
        Value::Object(o) => sole(o) && !o.values.is_empty(),
        Value::Type(t) => sole(t) && type_owns(t),
        _ => false,
    }
}

/// Does dropping `t` drop types or values nested in it?
fn type_owns(t: &PType) -> bool {
    let mut found = false;
    t.for_each_child(&mut |_| found = true);
    found
        || match t {
            PType::Timestamp { from, to } | PType::Timespan { from, to } => {
                from.is_some() || to.is_some()
            }
            PType::Uri(u) => u.is_some(),
            PType::Init { args, .. } => !args.is_empty(),
            _ => false,
        }
}

/// Does `v` hold something whose drop drops more (three levels)? A type
/// held is not looked into: its own drop is iterative.
fn value_is_deep(v: &Value) -> bool {
    match v {
        Value::Array(a) => sole(a) && a.iter().any(value_owns),
        Value::Hash(h) => sole(h) && h.iter().any(|(k, v)| value_owns(k) || value_owns(v)),
        Value::Sensitive(s) => sole(s) && value_owns(s),
        Value::Deferred(d) => sole(d) && d.arguments.iter().flatten().any(value_owns),
        Value::Object(o) => sole(o) && o.values.iter().any(|(_, v)| value_owns(v)),
        _ => false,
    }
}

/// [`value_is_deep`] for a type.
fn type_is_deep(t: &PType) -> bool {
    let mut found = false;
    t.for_each_child(&mut |c| found = found || type_owns(c));
    found
        || match t {
            PType::Timestamp { from, to } | PType::Timespan { from, to } => {
                [from, to].into_iter().flatten().any(|b| value_owns(b))
            }
            PType::Uri(Some(u)) => value_owns(u),
            PType::Init { args, .. } => args.iter().any(value_owns),
            _ => false,
        }
}

/// Moves `v` onto `out` when it owns something, leaving `Undef`.
fn take_value(v: &mut Value, out: &mut Vec<Owned>) {
    if value_owns(v) {
        out.push(Owned::Value(mem::replace(v, Value::Undef)))
    }
}

/// Moves `t` onto `out` when it owns something, leaving `Any`.
fn take_type(t: &mut PType, out: &mut Vec<Owned>) {
    if type_owns(t) {
        out.push(Owned::Type(mem::replace(t, PType::Any)))
    }
}

/// Moves what `v` holds that owns something onto `out`. A hash's keys
/// cannot be replaced in place, so a hash is drained whole.
fn detach_value(v: &mut Value, out: &mut Vec<Owned>) {
    match v {
        Value::Array(a) => {
            if let Some(items) = unique(a) {
                items.iter_mut().for_each(|x| take_value(x, out))
            }
        }
        Value::Hash(h) => {
            if let Some(map) = unique(h) {
                for (mut k, mut v) in map.drain(..) {
                    take_value(&mut k, out);
                    take_value(&mut v, out);
                }
            }
        }
        Value::Sensitive(s) => {
            if let Some(inner) = unique(s) {
                take_value(inner, out)
            }
        }
        Value::Deferred(d) => {
            if let Some(args) = unique(d).and_then(|d| d.arguments.as_mut()) {
                args.iter_mut().for_each(|x| take_value(x, out))
            }
        }
        Value::Object(o) => {
            if let Some(o) = unique(o) {
                o.values.iter_mut().for_each(|(_, x)| take_value(x, out))
            }
        }
        Value::Type(t) => {
            if let Some(t) = unique(t) {
                take_type(t, out)
            }
        }
        _ => {}
    }
}

/// Moves what `t` holds that owns something onto `out`.
fn detach_type(t: &mut PType, out: &mut Vec<Owned>) {
    match t {
        PType::NotUndef(Some(x))
        | PType::Optional(Some(x))
        | PType::Iterable(Some(x))
        | PType::Iterator(Some(x))
        | PType::Type(Some(x))
        | PType::Sensitive(Some(x)) => take_type(x, out),
        PType::Init { type_, args } => {
            if let Some(x) = type_ {
                take_type(x, out)
            }
            args.iter_mut().for_each(|x| take_value(x, out))
        }
        PType::Array { element, .. } => take_type(element, out),
        PType::Hash { key, value, .. } => {
            take_type(key, out);
            take_type(value, out)
        }
        PType::Tuple { types, .. } | PType::Variant(types) => {
            types.iter_mut().for_each(|x| take_type(x, out))
        }
        PType::Struct(members) => members
            .iter_mut()
            .for_each(|m| take_type(&mut m.value, out)),
        PType::Callable {
            params,
            block,
            return_type,
        } => {
            for x in [params, block, return_type].into_iter().flatten() {
                take_type(x, out)
            }
        }
        PType::Timestamp { from, to } | PType::Timespan { from, to } => {
            for b in [from, to].into_iter().flatten() {
                take_value(b, out)
            }
        }
        PType::Uri(Some(u)) => take_value(u, out),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::super::types::PType;
    use super::super::value::{Map, Value};

    /// Depth of the values built here: far past what a recursive drop
    /// survives on the small stack [`drop_on_small_stack`] gives it.
    const DEPTH: usize = 300_000;

    /// Drops `v` on a thread with a 256 KiB stack (a recursive drop of
    /// [`DEPTH`] levels needs hundreds of MiB).
    fn drop_on_small_stack<T: Send + 'static>(v: T) {
        std::thread::Builder::new()
            .stack_size(256 << 10)
            .spawn(move || drop(v))
            .expect("spawn")
            .join()
            .expect("the drop overflowed or panicked");
    }

    fn nest(mut wrap: impl FnMut(Value) -> Value) -> Value {
        let mut v = Value::Integer(1);
        for _ in 0..DEPTH {
            v = wrap(v);
        }
        v
    }

    #[test]
    fn deep_arrays() {
        drop_on_small_stack(nest(|v| Value::array(vec![v, Value::string("x")])));
    }

    #[test]
    fn deep_hash_values_and_keys() {
        drop_on_small_stack(nest(|v| {
            let mut m = Map::default();
            m.insert(Value::string("k"), v);
            Value::hash(m)
        }));
        // Keys through Sensitive, which hashes by identity: a key hashed
        // whole would make building this quadratic.
        drop_on_small_stack(nest(|v| {
            let mut m = Map::default();
            m.insert(Value::Sensitive(Arc::new(v)), Value::Integer(1));
            Value::hash(m)
        }));
    }

    #[test]
    fn deep_sensitive_and_mixed() {
        drop_on_small_stack(nest(|v| Value::Sensitive(Arc::new(v))));
        let mut i = 0;
        drop_on_small_stack(nest(|v| {
            i += 1;
            match i % 3 {
                0 => Value::Sensitive(Arc::new(v)),
                1 => Value::array(vec![v]),
                _ => Value::Type(Arc::new(PType::Init {
                    type_: None,
                    args: vec![v],
                })),
            }
        }));
    }

    #[test]
    fn deep_types() {
        let mut t = PType::Any;
        for i in 0..DEPTH {
            t = match i % 4 {
                0 => PType::Array {
                    element: Box::new(t),
                    size: None,
                },
                1 => PType::Tuple {
                    types: vec![t, PType::Any],
                    size: None,
                },
                2 => PType::Optional(Some(Box::new(t))),
                _ => PType::Hash {
                    key: Box::new(PType::STRING),
                    value: Box::new(t),
                    size: None,
                },
            };
        }
        drop_on_small_stack(t);
    }

    #[test]
    fn shared_parts_stay_with_their_other_owners() {
        let shared = nest(|v| Value::array(vec![v]));
        let outer = Value::array(vec![Value::array(vec![shared.clone()])]);
        drop_on_small_stack(outer);
        // Still whole.
        let mut depth = 0;
        let mut v = &shared;
        while let Value::Array(a) = v {
            depth += 1;
            v = &a[0];
        }
        assert_eq!(depth, DEPTH);
        drop_on_small_stack(shared);
    }
}
