//! Every input the fuzzers (`cargo xtask fuzz`, `fuzz/`) or the limit work
//! found to crash or hang, run through its target again: each file in
//! `tests/fixtures/fuzz-regressions/<target>/` must return normally. Also
//! keeps every target in `puppet_compiler::fuzzing::TARGETS` exercised by `cargo
//! test`. Runs on a 64 MiB stack, what the CLI gives a node.

use std::path::Path;

#[test]
fn every_regression_input_returns() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fuzz-regressions");
    let mut ran = 0;
    for (name, target) in puppet_compiler::fuzzing::TARGETS {
        let dir = root.join(name);
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        assert!(!files.is_empty(), "no regression input for target {name}");
        for file in files {
            let data = std::fs::read(&file).unwrap();
            let target = *target;
            let shown = file.display().to_string();
            std::thread::Builder::new()
                .stack_size(64 << 20)
                .spawn(move || target(&data))
                .unwrap()
                .join()
                .unwrap_or_else(|_| panic!("{shown}: the target panicked"));
            ran += 1;
        }
    }
    assert!(ran >= 5);
}
