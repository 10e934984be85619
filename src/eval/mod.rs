//! Evaluation: values, scopes, expressions, catalog building.

pub mod value;

pub use value::{Map, Value};
