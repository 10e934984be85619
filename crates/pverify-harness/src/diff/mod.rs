//! `pverify diff`: a semantic comparison of two catalogs per node, and the
//! reports built from it (grouped by change, not by node).
//!
//! - [`compare`]: two catalogs (Puppet's catalog JSON) of one node → a list
//!   of [`Change`]s: resources added/removed, parameters changed, file
//!   content (with `puppet:///modules/...` sources read from the modulepath),
//!   relationship metaparameters as sets, containment edges, classes.
//! - [`ignore`]: octocatalog-diff style `--ignore` rules and ignored tags.
//! - [`sides`]: where the catalogs come from: compiled from an environment
//!   directory or a git revision (nodes from a pluggable [`sides::NodeSource`]),
//!   or read from catalog files.
//! - [`report`]: the whole run: one [`report::NodeOutcome`] per node, the
//!   grouping, exit codes; [`render`] writes it as text, Markdown, JSON, JUnit.

pub mod cache;
pub mod compare;
pub mod content;
pub mod git;
pub mod ignore;
pub mod impact;
pub mod model;
pub mod names;
pub mod refs;
pub mod render;
pub mod report;
pub mod sides;

pub use compare::{compare, CompareContext};
pub use model::{Change, ChangeKind};
pub use report::{DiffReport, NodeOutcome, NodeStatus};
