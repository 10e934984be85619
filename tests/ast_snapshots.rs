//! The syntax tree of every construct, as insta snapshots in Puppet's PN
//! notation (`puppet parser dump --format pn`, re-indented).
//!
//! Each `tests/fixtures/syntax-valid/*.pp` focuses on one construct. The same
//! files are dumped by Puppet 7.23 and Puppet 8.10 themselves in CI (`cargo
//! xtask oracle-ast tests/fixtures/syntax-valid`, both versions), which must
//! agree character for character, so these snapshots are checked against
//! both oracles, not only against ourselves; one snapshot serves both, as
//! the two Puppets dump every construct alike.

use std::path::Path;

#[test]
fn ast_of_every_construct() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/syntax-valid");
    let files = puppet_compiler::files::find_manifests(&puppet_compiler::files::OsFiles, &dir)
        .expect("fixtures directory");
    assert!(
        files.len() >= 40,
        "expected the construct fixtures, found {}",
        files.len()
    );
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("snapshots/ast");
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| {
        for file in files {
            let name = file.file_stem().unwrap().to_string_lossy().to_string();
            let source = std::fs::read(&file).unwrap();
            let program = puppet_syntax::parse(&file.display().to_string(), &source)
                .unwrap_or_else(|e| panic!("{e}"));
            let pn = puppet_syntax::pn::program_to_pn(&program.body);
            let shown = format!(
                "{}\n---\n{}",
                String::from_utf8_lossy(&source).trim_end(),
                puppet_syntax::pn::pretty(&pn, 100)
            );
            insta::assert_snapshot!(name, shown);
        }
    });
}

#[test]
fn pretty_pn_is_only_whitespace() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/syntax-valid");
    for file in
        puppet_compiler::files::find_manifests(&puppet_compiler::files::OsFiles, &dir).unwrap()
    {
        let source = std::fs::read(&file).unwrap();
        let program = puppet_syntax::parse("x.pp", &source).unwrap();
        let pn = puppet_syntax::pn::program_to_pn(&program.body);
        // Line breaks become spaces; an opening bracket takes no space after it.
        let squash = |s: &str| {
            s.split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .replace("{ ", "{")
                .replace("[ ", "[")
        };
        assert_eq!(
            squash(&puppet_syntax::pn::pretty(&pn, 40)),
            squash(&pn),
            "{}",
            file.display()
        );
    }
}
