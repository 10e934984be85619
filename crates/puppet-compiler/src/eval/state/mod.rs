//! The parts of one node's compilation state, each with one job and its
//! fields private to it: [`Compiler`](super::compiler::Compiler) holds them
//! side by side (so two can be borrowed at once) with what belongs to the
//! whole compile (environment, node, warnings, evaluation depth).
//!
//! - scopes and variables: [`Scopes`](super::scope::Scopes);
//! - resources and the catalog: [`resources::CatalogState`];
//! - classes and definitions: [`classes::Definitions`];
//! - the function host: [`functions::FunctionHost`];
//! - Hiera's per-node state: [`HieraMemo`](crate::hiera::memo::HieraMemo).

pub mod classes;
pub mod functions;
pub mod resources;
