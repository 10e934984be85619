//! Puppet's type system (`pops/types`): types as values, instance checks,
//! assignability, inference, parameterisation by `[]`, and the texts of
//! type-mismatch errors, each matching Puppet 7.23.
//!
//! - [`model`]: the [`PType`] enum and its normalising constructors,
//!   `generalize`, `normalize`, equality.
//! - [`parse`]: [`type_by_name`], [`access`] / [`parameterize`] (the `[]`
//!   operator on types, including resource and class references).
//! - [`instance`]: [`is_instance`] (`=~`, typed parameters, `case`).
//! - [`assignable`]: [`is_assignable`] (type `<=`, `<`, `==`).
//! - [`infer`]: [`infer`], [`infer_set`], [`common_type`].
//! - [`format`]: `Display` as Puppet prints types.
//! - [`mismatch`]: [`describe_mismatch`], [`validate_parameters`].
//! - [`object`]: Object types and their instances.
//! - [`regex`]: Puppet's (Ruby's) regular expressions on `fancy-regex`.

pub mod assignable;
pub mod format;
pub mod infer;
pub mod instance;
pub mod mismatch;
pub mod model;
pub mod object;
pub mod parse;
pub mod regex;
pub mod text;

#[cfg(test)]
mod tests;

pub use assignable::is_assignable;
pub use format::{capitalize_segments, puppet_double_quote, puppet_quote};
pub use infer::{common_type, infer, infer_generic, infer_set};
pub use instance::{is_data, is_instance, is_rich_data};
pub use mismatch::{
    describe, describe_mismatch, describe_mismatch_named, resource_params, validate_parameters,
    Mismatch, MismatchKind, ParamSpec, PathElement,
};
pub use model::{reaches_real_type, AliasTarget, IntRange, PType, StructMember};
pub use parse::{access, parameterize, type_by_name, AccessError};

use std::cmp::Ordering;

/// The language's ordering of types: `a <= b` is `b.assignable?(a)`,
/// `a < b` adds "and not [`types_equal`]". `Less` when only `b` takes `a`,
/// `Equal` when each takes the other, `None` when neither does.
pub fn compare_types(a: &PType, b: &PType) -> Option<Ordering> {
    if a == b {
        return Some(Ordering::Equal);
    }
    let le = is_assignable(b, a);
    let ge = is_assignable(a, b);
    match (le, ge) {
        (true, true) => Some(Ordering::Equal),
        (true, false) => Some(Ordering::Less),
        (false, true) => Some(Ordering::Greater),
        (false, false) => None,
    }
}

/// The language's `==` (and `!=`) with a type on the left
/// (`TypeCalculator#equals`): equal, or each assignable to the other
/// (`Optional[Integer] == Variant[Integer, Undef]`). Inside arrays and as
/// hash keys Puppet compares types with `eql?`, which is `PType`'s `==`.
pub fn types_equal(a: &PType, b: &PType) -> bool {
    a == b || (is_assignable(a, b) && is_assignable(b, a))
}
