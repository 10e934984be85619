//! Evaluation: values, scopes, expressions, and the compilation of one node's
//! catalog (Puppet's `Parser::Compiler` and `Pops::Evaluator`).

pub mod builtin_types;
mod builtins;
mod classes;
pub mod compile;
pub mod compiler;
pub mod error;
pub mod expr;
pub mod functions;
pub mod node;
pub mod resources;
pub mod scope;
mod typeops;
pub mod value;

pub use compile::{compile, Compiled};
pub use error::EvalError;
pub use node::NodeInfo;
pub use value::{Map, Value};
