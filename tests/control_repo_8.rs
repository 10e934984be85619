//! The bundled Puppet 8 control repo (tests/fixtures/control-repo-8): roles
//! and profiles over Debian 13's module packages, read from the Debian 13
//! root through `basemodulepath:`; its goldens are Puppet 8.10's catalogs.

mod common;
use common::pverify;

const REPO: &str = "tests/fixtures/control-repo-8";

/// The root's resolved module copy must be there under CI (`.ci/run` builds
/// the root before the tests); elsewhere its absence skips with a note.
fn have_the_root() -> bool {
    let root = std::env::var_os("PVERIFY_PUPPET8_ROOT")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| "/var/tmp/pverify-puppet8-root".into());
    let ok = root.join("var/lib/pverify/modules/stdlib").is_dir();
    if !ok {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI=true but there is no Debian 13 root at {} (cargo xtask puppet8-root)",
            root.display()
        );
        eprintln!("note: no Debian 13 root at {}; skipping", root.display());
    }
    ok
}

#[test]
fn pverify_agrees_with_puppet_8() {
    if !have_the_root() {
        return;
    }
    let (code, out, err) = pverify(&["check", REPO]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out.lines().last(), Some("8 passed, 0 failed, 0 skipped"));
}
