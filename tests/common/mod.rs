//! Helpers shared by the integration tests that drive the `pverify` binary
//! on temporary copies of the fixtures. Each test file uses a subset, hence
//! the `dead_code` allowance.
#![allow(dead_code)]

pub mod modules;

use std::path::{Path, PathBuf};
use std::process::Command;

/// The bundled example control repo (its goldens are Puppet 7.23's).
pub const EXAMPLE: &str = "tests/fixtures/example-repo";

/// Runs the built `pverify` binary without colour: (exit code, stdout, stderr).
pub fn pverify(args: &[&str]) -> (i32, String, String) {
    outcome(Command::new(env!("CARGO_BIN_EXE_pverify")).args(args))
}

/// [`pverify`], run in `dir`.
pub fn pverify_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    outcome(
        Command::new(env!("CARGO_BIN_EXE_pverify"))
            .args(args)
            .current_dir(dir),
    )
}

fn outcome(cmd: &mut Command) -> (i32, String, String) {
    let out = cmd.env("NO_COLOR", "1").output().expect("pverify runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `pverify diff`'s stderr without its line counting the compiles
/// (`compiled: N from, M to; skipped: K`).
pub fn without_compile_counts(err: &str) -> String {
    err.lines()
        .filter(|l| !l.starts_with("pverify diff: compiled: "))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// Copies a directory tree (files and directories only).
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).unwrap();
        }
    }
}

/// Replaces the first occurrence of `from` in a file, which must hold it.
pub fn edit(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{} has no {from:?}", path.display());
    std::fs::write(path, text.replacen(from, to, 1)).unwrap();
}

/// A temporary copy of the example repo beside a copy of the fact sets it
/// names (`factsets: ../factsets`); returns the guard and the repo's path.
pub fn temp_example_repo() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    copy_dir(Path::new(EXAMPLE), &tmp.path().join("example-repo"));
    copy_dir(
        Path::new("tests/fixtures/factsets"),
        &tmp.path().join("factsets"),
    );
    let repo = tmp.path().join("example-repo");
    (tmp, repo)
}

/// Runs git in `dir`, panicking with its stderr on failure; returns stdout.
pub fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Errors Puppet itself reports without a line: the end of input, a byte
/// order mark, and the count of several validation errors (whose logged
/// errors must each have their position).
pub fn unlocated_in_puppet(e: &puppet_syntax::SyntaxError) -> bool {
    e.message == "Syntax error at end of input"
        || e.message.contains("Byte Order mark")
        // Ruby's own exception from inside Puppet's parser (a regex literal
        // `Regexp.new` refuses, the checker's crash on `"${true}"`).
        || e.is_bare()
        || (e.message.starts_with("Language validation logged ")
            && e.logged
                .iter()
                .all(|l| l.line.is_some() && l.column.is_some()))
}

/// Puppet 8.10's reference (the Debian 13 root CI builds before the tests):
/// `None` outside CI when it is missing (the caller says it did not run);
/// under CI its absence fails the test.
pub fn puppet8_reference(what: &str) -> Option<pverify_harness::reference::Reference> {
    use pverify_harness::reference::{PuppetVersion, Reference};
    match Reference::locate(PuppetVersion::V8) {
        Ok(r) => Some(r),
        Err(e) if std::env::var_os("CI").is_none() => {
            eprintln!("{what}: not compared with Puppet 8's Ruby 3.3: {e}");
            None
        }
        Err(e) => panic!("CI needs Puppet 8's Ruby 3.3: {e}"),
    }
}

/// What a test needs from the machine beside the build (`.ci/run` installs
/// all of it).
#[derive(Clone, Copy, Debug)]
pub enum Need {
    /// Puppet 7.23, the host's `puppet`.
    Puppet,
    /// Debian's hiera-eyaml (`eyaml`).
    Eyaml,
    /// Debian's `puppet-module-*` packages under /usr/share/puppet/modules.
    DebianModules,
}

impl Need {
    fn present(self) -> bool {
        let runs = |program: &str, arg: &str| {
            Command::new(program)
                .arg(arg)
                .output()
                .is_ok_and(|o| o.status.success())
        };
        match self {
            Need::Puppet => runs("puppet", "--version"),
            Need::Eyaml => runs("eyaml", "version"),
            Need::DebianModules => Path::new("/usr/share/puppet/modules/stdlib").is_dir(),
        }
    }
}

/// Whether everything in `needs` is there. Elsewhere than CI a missing one
/// skips the test with a note; under CI (`CI` set) it fails the test.
pub fn have(needs: &[Need]) -> bool {
    let missing: Vec<Need> = needs.iter().copied().filter(|n| !n.present()).collect();
    if missing.is_empty() {
        return true;
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "CI=true but {missing:?} is missing (.ci/run installs puppet, hiera-eyaml and the puppet-module-* packages)"
    );
    eprintln!("note: {missing:?} missing; skipping");
    false
}
