//! pverify: a native Puppet 7 catalog compiler and verification harness.
//!
//! The library is what the CLI (`src/main.rs`), the tests and the xtasks use.
//! See ARCHITECTURE.md for the bird's-eye view.

pub mod catalog;
pub mod eval;
pub mod facts;
pub mod harness;
pub mod loader;
pub mod syntax;
pub mod types;
pub mod util;
