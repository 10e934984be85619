//! pverify: a native Puppet 7 catalog compiler and verification harness.
//!
//! The library is what the CLI (`src/main.rs`), the tests and the xtasks use.
//! See ARCHITECTURE.md for the bird's-eye view.

pub mod alloc;
pub mod catalog;
pub mod control;
pub mod diff;
pub mod eval;
pub mod facts;
pub mod fuzzing;
pub mod harness;
pub mod hiera;
pub mod loader;
pub mod psych;
pub mod report;
pub mod restypes;
pub mod syntax;
pub mod template;
pub mod types;
pub mod util;
