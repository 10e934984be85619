//! The benchmark's second Puppet (docs/benchmark.md, "Two Puppets, two
//! ratios"): compile.rb asked for `environment_timeout = unlimited` keeps one
//! cached environment for all its nodes, as a production server does. A
//! cached environment must change no catalog: each node's catalog and
//! warnings are Puppet's own with a fresh environment, node after node in
//! the one process (the second node onwards compiles against what the
//! first one parsed).

mod common;
use common::{have, Need};

use std::path::Path;

use pverify_harness::control::Repo;

#[test]
fn a_cached_environment_gives_the_fresh_environments_catalogs() {
    if !have(&[Need::Puppet]) {
        return;
    }
    let repo = Repo::open(Path::new("tests/fixtures/example-repo")).unwrap();
    let nodes = repo.nodes().unwrap();
    assert!(nodes.len() >= 4, "the example repo has its matrix");
    let fresh = repo.compile_with_puppet_as(&nodes, 1, false).unwrap();
    let cached = repo.compile_with_puppet_as(&nodes, 1, true).unwrap();
    for (f, c) in fresh.iter().zip(&cached) {
        assert_eq!(f.id, c.id);
        assert!(f.result.is_ok(), "{}: {:?}", f.id, f.result);
        assert_eq!(f.result, c.result, "{}: cached environment differs", f.id);
    }
}
