//! Values and types are dropped without deep recursion.
//!
//! A manifest builds data as deep as it likes (`Integer[1, 200000].reduce([])
//! |$m, $i| { [$m] }`), and a type inferred from it is as deep. Rust's
//! generated drop recurses once per level, and a debug build's frames are
//! large: 200,000 levels overflowed a 64 MiB stack, which aborts the whole
//! run. So a drop that owns nested values looks at the stack it has left:
//! with more than [`STACK_RESERVE`] the generated drop goes on (each level
//! looks again), with less the value hands what it holds to a work-list,
//! and those are dropped one after another, each only after its own
//! contents were moved onto the list.
//!
//! On good input, which is never that deep, a drop costs a look at whether
//! the value owns anything (scalars, empty and shared collections do not)
//! and, when it does, a compare of the stack pointer with the thread's
//! limit. Earlier designs cost more: a scan of every child of every dropped
//! collection (about 2 % of a compile's instructions), then a per-thread
//! level counter with every part moved out and dropped by hand (about 3 %).
//! Looking at the stack itself also holds wherever the drop starts: on a
//! `stacker`-grown segment, or under a deep evaluation.
//!
//! Shared collections (an `Arc` still owned elsewhere) are left to their
//! other owners and cost one load.

use std::mem;
use std::sync::Arc;

use super::types::PType;
use super::value::Value;

/// Stack a drop keeps in hand before it switches to the work-list. A level
/// of the generated drop costs a few frames: in a debug build about 1 KiB,
/// several times that in a fuzzing build (coverage counters); the work-list
/// itself needs a few frames more. 128 KiB is also under the 256 KiB red
/// zone the evaluator's `stacker::maybe_grow` calls keep.
const STACK_RESERVE: usize = 128 << 10;

/// Whether a drop here must not recurse: less than [`STACK_RESERVE`] left
/// (or a thread whose stack limit is unknown).
#[inline]
pub fn stack_is_low() -> bool {
    stacker::remaining_stack().is_none_or(|left| left < STACK_RESERVE)
}

/// A value or a type waiting on the work-list: types hold values (bounds,
/// `Init` arguments) and values hold types, so either may nest in the other.
enum Owned {
    Value(Value),
    Type(PType),
}

/// Where [`detach_value`] and [`detach_type`] put what they take out.
trait Sink {
    fn put(&mut self, owned: Owned);
}

impl Sink for Vec<Owned> {
    #[inline]
    fn put(&mut self, owned: Owned) {
        self.push(owned)
    }
}

/// A value or a type, whose owned parts can be taken out.
trait Detach {
    fn detach(&mut self, out: &mut impl Sink);
}

impl Detach for Value {
    #[inline]
    fn detach(&mut self, out: &mut impl Sink) {
        detach_value(self, out)
    }
}

impl Detach for PType {
    #[inline]
    fn detach(&mut self, out: &mut impl Sink) {
        detach_type(self, out)
    }
}

/// Drops what `owner` holds through the work-list when the stack is low;
/// else the generated drop recurses, one level, and each level looks again.
#[inline]
fn dispose(owner: &mut impl Detach) {
    if stack_is_low() {
        let mut pending = Vec::new();
        owner.detach(&mut pending);
        drain(pending);
    }
}

impl Drop for Value {
    #[inline]
    fn drop(&mut self) {
        // Scalars and strings (most values dropped) own nothing: one test
        // of the variant, inlined into the generated drop, as are the tests
        // of collections and types (every type check drops some); the rare
        // kinds are tested in a call.
        let owns = match self {
            Value::Array(a) => sole(a) && !a.is_empty(),
            Value::Hash(h) => sole(h) && !h.is_empty(),
            Value::Type(t) => sole(t) && type_owns(t),
            Value::Sensitive(_) | Value::Deferred(_) | Value::Object(_) => value_owns(self),
            _ => false,
        };
        if owns {
            dispose(self)
        }
        // Else the generated drop frees only what holds no values or types.
    }
}

impl Drop for PType {
    #[inline]
    fn drop(&mut self) {
        if type_owns(self) {
            dispose(self)
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

#[inline]
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

/// Does dropping `t` drop types or values nested in it? (The variants
/// [`PType::for_each_child`] visits, and the values of bounds, URIs and
/// `Init` arguments.)
#[inline]
fn type_owns(t: &PType) -> bool {
    match t {
        PType::NotUndef(x)
        | PType::Optional(x)
        | PType::Iterable(x)
        | PType::Iterator(x)
        | PType::Type(x)
        | PType::Sensitive(x) => x.is_some(),
        PType::Array { .. } | PType::Hash { .. } => true,
        PType::Tuple { types, .. } | PType::Variant(types) => !types.is_empty(),
        PType::Struct(members) => !members.is_empty(),
        PType::Callable {
            params,
            block,
            return_type,
        } => params.is_some() || block.is_some() || return_type.is_some(),
        PType::Timestamp { from, to } | PType::Timespan { from, to } => {
            from.is_some() || to.is_some()
        }
        PType::Uri(u) => u.is_some(),
        PType::Init { type_, args } => type_.is_some() || !args.is_empty(),
        _ => false,
    }
}

/// Whether `v` holds values or types, shared or not. A part shared with a
/// sibling (data built as `[$m, {a => $m}]`) is moved out too: it becomes
/// its last holder's only when that sibling is gone, and left in place its
/// drop would then recurse through the generated drop glue, one level per
/// frame, past any stack (a fuzz finding).
fn value_may_own(v: &Value) -> bool {
    match v {
        Value::Array(a) => !a.is_empty(),
        Value::Hash(h) => !h.is_empty(),
        Value::Sensitive(_) | Value::Deferred(_) | Value::Object(_) | Value::Type(_) => true,
        _ => false,
    }
}

/// Moves `v` onto `out` when it holds something, leaving `Undef`.
fn take_value(v: &mut Value, out: &mut impl Sink) {
    if value_may_own(v) {
        out.put(Owned::Value(mem::replace(v, Value::Undef)))
    }
}

/// Moves `t` onto `out` when it owns something, leaving `Any`.
fn take_type(t: &mut PType, out: &mut impl Sink) {
    if type_owns(t) {
        out.put(Owned::Type(mem::replace(t, PType::Any)))
    }
}

/// Moves what `v` holds that owns something onto `out`. A hash's keys
/// cannot be replaced in place, so a hash is drained whole.
fn detach_value(v: &mut Value, out: &mut impl Sink) {
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
fn detach_type(t: &mut PType, out: &mut impl Sink) {
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

    /// Each level shares the one below with a sibling (`[$m, {a => $m}]`):
    /// the lower level is its holder's alone only once the sibling is gone.
    #[test]
    fn deep_data_shared_with_a_sibling() {
        drop_on_small_stack(nest(|v| {
            let mut m = Map::default();
            m.insert(Value::string("a"), v.clone());
            Value::array(vec![v, Value::hash(m)])
        }));
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
