//! `cargo xtask r10k-root [--dir DIR]`: Debian 12's `r10k` in a small root
//! of its own (`debootstrap --variant=minbase --include=r10k,git bookworm`),
//! for `tests/puppetfile.rs`, which checks that the tree pverify deploys
//! from a Puppetfile is the one `r10k puppetfile install` deploys.
//!
//! r10k never goes on the host or into Puppet 8's root: it pulls in
//! `ruby-oj` and `ruby-multi-json`, and Puppet then parses JSON through Oj,
//! which changes Puppet's own error texts (the oracles' answers). A root
//! is reused when its marker names the same recipe (about two minutes to
//! build, none to reuse); it is built beside its place and renamed in.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Where the root lives unless `--dir` or `PVERIFY_R10K_ROOT` says.
pub const DEFAULT_DIR: &str = "/var/tmp/pverify-r10k-root";

const RECIPE: &str = "debootstrap --variant=minbase --include=r10k,git bookworm";

const MARKER: &str = "etc/pverify-r10k-root";

const USAGE: &str = "usage: cargo xtask r10k-root [--dir DIR]";

pub fn run(args: &[String]) -> Result<(), String> {
    let mut dir = std::env::var("PVERIFY_R10K_ROOT")
        .map(PathBuf::from)
        .unwrap_or_else(|_| PathBuf::from(DEFAULT_DIR));
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--dir" => dir = PathBuf::from(it.next().ok_or(USAGE)?),
            _ => return Err(USAGE.into()),
        }
    }
    ensure_root(&dir)?;
    let out = Command::new("chroot")
        .arg(&dir)
        .args(["r10k", "version"])
        .output()
        .map_err(|e| format!("chroot {}: {e}", dir.display()))?;
    println!(
        "r10k-root: {}: {}",
        dir.display(),
        String::from_utf8_lossy(&out.stdout).trim()
    );
    Ok(())
}

fn ensure_root(dir: &Path) -> Result<(), String> {
    let current = std::fs::read_to_string(dir.join(MARKER)).is_ok_and(|m| m.trim() == RECIPE);
    if current {
        return Ok(());
    }
    let building = dir.with_extension("building");
    if building.exists() {
        std::fs::remove_dir_all(&building).map_err(|e| format!("{}: {e}", building.display()))?;
    }
    if Command::new("debootstrap")
        .arg("--version")
        .output()
        .is_err()
    {
        check(
            Command::new("apt-get").args(["install", "-y", "-qq", "debootstrap"]),
            "apt-get install debootstrap",
        )?;
    }
    eprintln!("r10k-root: building {} ({RECIPE})", building.display());
    check(
        Command::new("debootstrap")
            .args(["--variant=minbase", "--include=r10k,git", "bookworm"])
            .arg(&building)
            .arg("http://deb.debian.org/debian"),
        "debootstrap",
    )?;
    std::fs::write(building.join(MARKER), format!("{RECIPE}\n"))
        .map_err(|e| format!("{}: {e}", building.join(MARKER).display()))?;
    if dir.exists() {
        std::fs::remove_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::rename(&building, dir).map_err(|e| format!("{}: {e}", dir.display()))
}

fn check(cmd: &mut Command, what: &str) -> Result<(), String> {
    let status = cmd.status().map_err(|e| format!("{what}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{what} failed ({status})"))
    }
}
