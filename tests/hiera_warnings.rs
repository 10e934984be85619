//! The warnings pverify logs for the spec-suite's Hiera cases equal the ones
//! Puppet 7.23 logged (`expect.warnings`, recorded by `cargo xtask
//! oracle-compile`): deprecated `hiera*()` functions, undefined variables in
//! interpolation, module data keys outside the module's namespace.

use std::path::Path;

#[test]
fn hiera_case_warnings_agree_with_puppet() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let cases = pverify_harness::harness::load_suite(&root.join("spec-suite/hiera"))
        .expect("hiera cases load");
    assert!(cases.len() >= 30, "found {} hiera cases", cases.len());
    let work = std::env::temp_dir().join(format!("pverify-hiera-warn-{}", std::process::id()));
    let mut failures = Vec::new();
    use pverify_harness::reference::PuppetVersion;
    for (case, puppet) in cases
        .iter()
        .flat_map(|c| PuppetVersion::ALL.map(|v| (c, v)))
    {
        if case.pending.get(puppet).is_some() {
            continue;
        }
        let env_dir = work
            .join(case.name().replace('/', "__"))
            .join(&case.environment);
        pverify_harness::harness::materialize(case, &env_dir, puppet).expect("materialize");
        let facts = case
            .resolve_facts(&root.join("tests/fixtures/factsets"))
            .expect("facts");
        let env = puppet_compiler::loader::Environment::boot(&env_dir, &Default::default())
            .expect("boot");
        let node = pverify_harness::harness::node_for(case, &facts, puppet);
        let dir = env_dir.display().to_string();
        let got: Vec<String> = match puppet_compiler::eval::compile(&env, node) {
            Ok(c) => c
                .warnings
                .iter()
                .map(|w| pverify_harness::harness::relativize_text(w, &dir))
                .collect(),
            // A failing compile's warnings are not returned; skip those.
            Err(_) => continue,
        };
        if got != *case.expect_warnings.get(puppet) {
            failures.push(format!(
                "{} (Puppet {puppet}):\n  puppet:  {:?}\n  pverify: {:?}",
                case.name(),
                case.expect_warnings.get(puppet),
                got
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&work);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
