//! One way to run git for the xtasks that make or read repositories.

use std::path::Path;
use std::process::Command;

/// `git ARGS` in `dir`: its trimmed standard output, or its stderr as the
/// error. Commits are made under a fixed identity, unsigned, so that a
/// task works on a machine where git has no user configured.
pub fn git(dir: &Path, args: &[&str]) -> Result<String, String> {
    let out = Command::new("git")
        .current_dir(dir)
        .args([
            "-c",
            "user.name=pverify xtask",
            "-c",
            "user.email=xtask@example.invalid",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "git {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}
