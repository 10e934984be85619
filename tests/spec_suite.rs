//! Every spec-suite case through pverify, compared with the catalog or error
//! Puppet 7.23 produced for it (recorded by `cargo xtask oracle-compile`, which
//! CI re-runs against Puppet).

use std::path::Path;

#[test]
fn every_case_agrees_with_puppet() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::env::set_current_dir(root).expect("repository root");
    let cases =
        pverify_harness::harness::load_suite(&root.join("spec-suite")).expect("spec-suite loads");
    assert!(
        cases.len() >= 30,
        "expected the bundled cases, found {}",
        cases.len()
    );
    let work = std::env::temp_dir().join(format!("pverify-spec-test-{}", std::process::id()));
    use pverify_harness::reference::PuppetVersion;
    let failures: Vec<String> = cases
        .iter()
        .flat_map(|c| PuppetVersion::ALL.map(|v| (c, v)))
        .filter_map(|(c, v)| {
            let got = pverify_harness::harness::run_case(c, &work, v);
            match pverify_harness::harness::outcome(c, v, &got) {
                pverify_harness::harness::Outcome::Failed(d) => {
                    Some(format!("{} (Puppet {v})\n{d}", c.name()))
                }
                _ => None,
            }
        })
        .collect();
    let _ = std::fs::remove_dir_all(&work);
    assert!(
        failures.is_empty(),
        "{} of {} cases disagree with Puppet:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
