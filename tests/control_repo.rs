//! The bundled example control repo (tests/fixtures/control-repo): roles and
//! profiles over Debian's module packages, whose goldens are Puppet 7.23's
//! catalogs (`pverify bless --oracle puppet`).

mod common;
use common::{have, pverify, Need};

use std::path::Path;

const REPO: &str = "tests/fixtures/control-repo";

#[test]
fn the_repo_has_its_shape() {
    // At least 20 nodes over at least 7 fact sets, most catalogs over 50
    // resources, at least 10 of Debian's module packages in use.
    let golden = Path::new(REPO).join("golden");
    let mut nodes = 0;
    let mut big = 0;
    let mut factsets = std::collections::BTreeSet::new();
    let mut modules = std::collections::BTreeSet::new();
    for e in std::fs::read_dir(&golden).unwrap() {
        let path = e.unwrap().path();
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        let (_, fs) = stem.split_once('@').expect("node@factset");
        factsets.insert(fs.to_string());
        let cat: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let resources = cat["resources"].as_array().unwrap();
        nodes += 1;
        if resources.len() > 50 {
            big += 1;
        }
        for r in resources {
            if let Some(f) = r["file"].as_str() {
                if let Some(rest) = f.strip_prefix("/usr/share/puppet/modules/") {
                    modules.insert(rest.split('/').next().unwrap().to_string());
                }
            }
        }
    }
    assert!(nodes >= 20, "{nodes} nodes");
    assert!(factsets.len() >= 7, "{factsets:?}");
    assert!(
        big * 2 > nodes,
        "{big} of {nodes} catalogs over 50 resources"
    );
    assert!(modules.len() >= 10, "{modules:?}");
}

#[test]
fn the_goldens_are_puppets_catalogs() {
    if !have(&[Need::Puppet, Need::DebianModules]) {
        return;
    }
    let (code, out, err) = pverify(&["check", REPO, "--oracle", "puppet"]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out.lines().last(), Some("25 passed, 0 failed, 0 skipped"));
}

/// pverify's own catalogs equal the goldens (Puppet's) on every node:
/// templates, Hiera, module functions and types included.
#[test]
fn pverify_agrees_with_puppet() {
    if !have(&[Need::Puppet, Need::DebianModules]) {
        return;
    }
    let (code, out, err) = pverify(&["check", REPO]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out.lines().last(), Some("25 passed, 0 failed, 0 skipped"));
}
