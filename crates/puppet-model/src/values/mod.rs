//! Values and types, defined in terms of each other (a type is a value; a
//! type's parameters are values), and the value kinds Puppet adds to Ruby's.

pub mod binary;
mod drop;
pub mod semver;
pub mod time;
pub mod types;
pub mod uri;
pub mod value;

pub use drop::stack_is_low;
pub use value::{Map, Value};
