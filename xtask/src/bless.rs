//! `cargo xtask bless [--oracle puppet] [REPO...]`: `pverify bless` over the
//! bundled control repos (every `tests/fixtures/*/pverify.yaml`), with a
//! debug build of pverify. Fails if any node fails to compile (its golden is
//! kept). `--oracle puppet` writes Puppet 7.23's catalogs instead, which is
//! how the goldens of `tests/fixtures/control-repo` are made.

use std::path::Path;
use std::process::Command;

pub fn run(args: &[String]) -> Result<(), String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .ok_or("cannot locate the workspace root")?
        .to_path_buf();
    let mut oracle: Vec<String> = Vec::new();
    let mut repos: Vec<std::path::PathBuf> = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "--oracle" {
            let which = it.next().ok_or("--oracle needs a value (puppet)")?;
            oracle = vec!["--oracle".into(), which.clone()];
        } else {
            repos.push(root.join(a));
        }
    }
    if repos.is_empty() {
        let fixtures = root.join("tests/fixtures");
        let entries =
            std::fs::read_dir(&fixtures).map_err(|e| format!("{}: {e}", fixtures.display()))?;
        for e in entries.flatten() {
            if e.path().join("pverify.yaml").is_file() {
                repos.push(e.path());
            }
        }
        repos.sort();
    }
    if repos.is_empty() {
        return Err("no tests/fixtures/*/pverify.yaml".into());
    }
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut failed = Vec::new();
    for repo in &repos {
        println!("== {}", repo.strip_prefix(&root).unwrap_or(repo).display());
        let status = Command::new(&cargo)
            .current_dir(&root)
            .args(["run", "--quiet", "--bin", "pverify", "--", "bless"])
            .arg(repo)
            .args(&oracle)
            .status()
            .map_err(|e| format!("running pverify: {e}"))?;
        if !status.success() {
            failed.push(repo.display().to_string());
        }
    }
    if failed.is_empty() {
        Ok(())
    } else {
        Err(format!("bless refused or failed in: {}", failed.join(", ")))
    }
}
