//! The verification harness: spec-suite cases and the canonical catalog form.
//!
//! A case is one `.case` file (format in `spec-suite/README.md`): the node,
//! the environment directory's files inline, and what Puppet 7.23 makes of
//! them: a catalog in canonical form (`expect.json`) or an error text
//! (`expect.error`). Every expectation comes from `cargo xtask
//! oracle-compile --write`, never from pverify.
//!
//! This module does no I/O except in [`load_suite`], [`materialize`] and
//! [`Case::resolve_facts`], which are handed their paths.

mod canonical;
mod case;
pub mod oracle;
mod run;
pub mod suite;

pub use canonical::{
    canonical_catalog_text, canonicalize_catalog, relativize_text, CANONICAL_UUID,
};
pub use case::{
    load_suite, materialize, parse_case, replace_expectations, write_case, Case, CaseExports,
    Expect, PuppetVersion, Versioned,
};
pub use run::{
    facts_of, node_for, node_with_facts, outcome, overlay_settings, run_case, run_case_granted,
    run_case_mocked, settings_of, verdict, Outcome,
};

/// The server facts both the oracle and pverify give every node:
/// `$serverversion`, `$servername` and `$serverip` as top-scope variables,
/// and `$server_facts` = these plus `environment`. Puppet takes servername and
/// serverip from the server's own Facter; fixed values keep catalogs
/// independent of the machine that compiles them.
pub const SERVER_FACTS: &[(&str, &str)] = &[
    ("serverversion", "7.23.0"),
    ("servername", "puppet.example.com"),
    ("serverip", "192.0.2.1"),
];

/// Where a case's `factset:` names are looked up, relative to the workspace.
pub const FACTSETS_DIR: &str = "tests/fixtures/factsets";
