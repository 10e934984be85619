//! Puppet's values and its type system, and the Ruby behaviour they carry.
//!
//! - [`values`]: [`Value`] and the type system ([`types`]), which are
//!   defined in terms of each other as in Puppet's Pops (a type is a value;
//!   `Enum`, `Pattern` and `Timestamp[...]` types hold values), with the
//!   values' own kinds: SemVer, Timestamp/Timespan, URI, Binary.
//! - [`names`]: Puppet's capitalised names and references, Ruby's
//!   `String#inspect`.
//! - [`yaml`]: YAML read as Ruby's Psych reads it (YAML 1.1 scalars,
//!   libyaml's error texts); [`psych`]: Ruby's `to_yaml` byte for byte.
//!
//! - [`budget`]: a node's time and memory budget (the compiler enters it
//!   for each node); the walks here that a shared value can make
//!   exponential (type inference, hashing, `==`, formatting) tick it.
//!
//! Depends only on `puppet-syntax` (for names shared with the tree and
//! Ruby's float text) and `pverify-alloc` (the budget's allocation count).
//! Does no I/O.

#![forbid(unsafe_code)]

pub mod bad_bytes;
pub mod budget;
pub mod names;
pub mod psych;
pub mod ruby;
pub mod values;
pub mod yaml;

pub use values::value::{self as value, Deferred, Map, Name, Params, Value};
pub use values::{binary, semver, time, types, uri};
