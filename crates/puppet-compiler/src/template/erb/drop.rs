//! Ruby values are dropped without deep recursion, as Puppet's are
//! (`puppet_model`'s `values/drop.rs`): a template sees `@x` 200,000 arrays
//! deep as Ruby arrays as deep, and the generated drop recursing once per
//! level overflowed a debug build's stack. A value that owns nested values
//! lets the generated drop recurse while the stack has room
//! ([`puppet_model::values::stack_is_low`]); with less, it hands its nested
//! arrays and hashes to a work-list instead. Good data is never that deep,
//! and pays only a look at whether a value owns anything and a compare of
//! the stack pointer (no scan of the children beforehand).

use std::mem;
use std::sync::Arc;

use puppet_model::values::stack_is_low;

use super::value::{Enumerator, RValue};

impl Drop for RValue {
    #[inline]
    fn drop(&mut self) {
        if !owns(self) || !stack_is_low() {
            // Nothing nested, or room for the generated drop's next level.
            return;
        }
        let mut pending = Vec::new();
        detach(self, &mut |v| pending.push(v));
        while let Some(mut v) = pending.pop() {
            detach(&mut v, &mut |x| pending.push(x));
            // `v` now holds nothing that holds more: a shallow drop.
        }
    }
}

#[inline]
fn sole<T>(a: &Arc<T>) -> bool {
    Arc::strong_count(a) == 1
}

/// `Arc::get_mut`, tried only when the count says it can succeed.
fn unique<T>(a: &mut Arc<T>) -> Option<&mut T> {
    if sole(a) {
        Arc::get_mut(a)
    } else {
        None
    }
}

/// Does dropping `v` drop Ruby values nested in it? (A Puppet value held
/// as `Opaque` drops itself without recursion.)
#[inline]
fn owns(v: &RValue) -> bool {
    match v {
        RValue::Array(a) => sole(a) && !a.is_empty(),
        RValue::Hash(h) => sole(h) && !h.is_empty(),
        RValue::Enumerator(e) => sole(e),
        _ => false,
    }
}

/// Moves `v` onto `out` when it holds values, shared or not, leaving
/// `nil`: a part shared with a sibling (`y = [y, y]`) left in place would
/// be dropped later through the generated glue, a frame per level
/// (`puppet_model::values::drop::value_may_own` has the same rule).
fn take(v: &mut RValue, out: &mut impl FnMut(RValue)) {
    let may_own = match v {
        RValue::Array(a) => !a.is_empty(),
        RValue::Hash(h) => !h.is_empty(),
        RValue::Enumerator(_) => true,
        _ => false,
    };
    if may_own {
        out(mem::replace(v, RValue::Nil))
    }
}

/// Moves what `v` holds that owns values onto `out`.
fn detach(v: &mut RValue, out: &mut impl FnMut(RValue)) {
    match v {
        RValue::Array(a) => {
            if let Some(items) = unique(a) {
                items.iter_mut().for_each(|x| take(x, out))
            }
        }
        RValue::Hash(h) => {
            if let Some(pairs) = unique(h) {
                for (k, v) in pairs.iter_mut() {
                    take(k, out);
                    take(v, out);
                }
            }
        }
        RValue::Enumerator(e) => {
            if let Some(Enumerator {
                items, receiver, ..
            }) = unique(e)
            {
                items.iter_mut().for_each(|x| take(x, out));
                take(receiver, out)
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::RValue;

    #[test]
    fn deep_ruby_values_drop_on_a_small_stack() {
        let mut a = RValue::Int(1);
        let mut h = RValue::Nil;
        for _ in 0..300_000 {
            a = RValue::array(vec![a, RValue::Nil]);
            h = RValue::hash(vec![
                (RValue::str("k"), h),
                (RValue::array(vec![]), RValue::Nil),
            ]);
        }
        std::thread::Builder::new()
            .stack_size(256 << 10)
            .spawn(move || drop((a, h)))
            .expect("spawn")
            .join()
            .expect("the drop overflowed or panicked");
    }
}
