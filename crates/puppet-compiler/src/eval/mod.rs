//! Evaluation: values, scopes, expressions, and the compilation of one node's
//! catalog (Puppet's `Parser::Compiler` and `Pops::Evaluator`).

mod arith;
mod builtins;
mod catalog_emit;
mod classes;
pub mod compile;
pub mod compiler;
mod constant_types;
pub mod error;
mod exports;
pub mod expr;
pub mod functions;
mod issues;
pub mod lookup;
pub mod resources;
mod rtypes;
mod ruby_functions;
mod runtime_values;
pub mod scope;
mod state;
mod templates_epp;
mod templates_erb;
mod typeops;

pub use crate::facts::mocks::FunctionMocks;
pub use crate::facts::node::NodeInfo;
pub use builtins::registry;
pub use compile::{compile, compile_pretty, Compiled, Written, CATALOG_BUFFER};
pub use error::EvalError;
// The value kinds live in puppet-model; re-exported for the evaluator's
// own modules, which name them as `super::value` and the like.
pub use puppet_model::{binary, semver, time, uri, value};
pub use value::{Map, Value};
