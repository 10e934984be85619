//! One node's catalog, as Puppet's compiler makes it.
//!
//! From the bottom up (each module uses only those listed before it):
//! [`version`] (which Puppet a compile reproduces: 7.23 or 8.10),
//! [`budget`] (a node's time and memory budget, checked by the loops;
//! `puppet_model`'s, whose value walks tick it too),
//! [`files`] (the file system interface every read goes through),
//! [`reads`] (read sets: what a node's compile asked of the file system),
//! [`template`] (ERB's Ruby subset and EPP), [`restypes`] (resource types),
//! [`catalog`] (the index of titles, aliases and uniqueness keys; tags),
//! [`facts`] (node files and the node object), [`hiera`] (Hiera 5's
//! configuration, data and merges), [`loader`] (the environment: settings, modulepath, the parse
//! cache, confinement, the per-run caches), [`eval`] (the evaluator and the
//! compile sequence, writing the catalog JSON), [`fuzzing`] (fuzz targets).

// No `unsafe` but the SIMD catalog writer's three marked functions
// (`eval/catalog_emit.rs`), each with its SAFETY argument and tests.
#![deny(unsafe_code)]

pub mod bad_bytes;
pub use puppet_model::budget;
pub mod catalog;
pub mod eval;
pub mod facts;
pub mod files;
pub mod fuzzing;
pub mod hiera;
pub mod loader;
pub mod reads;
pub mod restypes;
pub mod settings;
pub mod template;
pub mod version;
