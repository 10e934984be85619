//! `cargo xtask puppet8-root [--dir DIR] [--rebuild]`: the second reference,
//! Puppet 8.10 (Debian 13's `puppet-agent`, Ruby 3.3, Facter 4.10), in a
//! Debian 13 root built from Debian's package archive and kept for later
//! runs.
//!
//! The root holds `puppet-agent`, `hiera-eyaml`, `r10k` and every
//! `puppet-module-*` package Debian 13 has; `chroot DIR puppet ...` runs it.
//! Debian's module directories are absolute symlinks through
//! `/etc/alternatives`, so they are resolved inside the root
//! (`chroot DIR readlink -f ...`), never from outside it (where they would
//! name the host's Debian 12 modules).
//!
//! A root is reused when its marker file names the same recipe; anything
//! else (no marker, another recipe, `--rebuild`) builds it anew next to the
//! old one and swaps it in, so an interrupted build never leaves a root that
//! looks finished. Building needs root (debootstrap, chroot) and the
//! network; reusing needs neither.

use std::path::{Path, PathBuf};
use std::process::Command;

use pverify_harness::reference::MODULES_MIRROR;

/// Where the root lives unless `--dir` or `PVERIFY_PUPPET8_ROOT` says.
const DEFAULT_DIR: &str = "/var/tmp/pverify-puppet8-root";

/// What the root is made of; a root built from another recipe is rebuilt.
const RECIPE: &str = "debootstrap --variant=minbase --include=puppet-agent trixie; \
                      apt-get install hiera-eyaml r10k puppet-module-*";

/// The marker a finished root carries (inside the root, so it moves with it).
const MARKER: &str = "etc/pverify-puppet8-root";

const USAGE: &str = "usage: cargo xtask puppet8-root [--dir DIR] [--rebuild]";

pub fn run(args: &[String]) -> Result<(), String> {
    let mut dir = std::env::var("PVERIFY_PUPPET8_ROOT")
        .map(PathBuf::from)
        .unwrap_or_else(|_| PathBuf::from(DEFAULT_DIR));
    let mut rebuild = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--dir" => dir = PathBuf::from(it.next().ok_or(USAGE)?),
            "--rebuild" => rebuild = true,
            _ => return Err(USAGE.into()),
        }
    }
    let root = ensure_root(&dir, rebuild)?;
    let mirror = ensure_modules_mirror(&root)?;
    let puppet = in_root(&root, "puppet --version")?;
    let facter = in_root(&root, "facter --version")?;
    let ruby = in_root(&root, "ruby -e 'print RUBY_VERSION'")?;
    let modules = in_root(&root, "ls /usr/share/puppet/modules | wc -l")?;
    println!(
        "puppet8-root: {}: Puppet {puppet}, Facter {facter}, Ruby {ruby}, {modules} module directories (resolved copy: {})",
        root.display(),
        mirror.display()
    );
    Ok(())
}

/// The finished root at `dir`, built first when it is missing, of another
/// recipe, or `rebuild` is asked.
pub fn ensure_root(dir: &Path, rebuild: bool) -> Result<PathBuf, String> {
    let marker = dir.join(MARKER);
    let current = std::fs::read_to_string(&marker).is_ok_and(|m| m.trim() == RECIPE);
    if current && !rebuild {
        return Ok(dir.to_path_buf());
    }
    let building = dir.with_extension("building");
    if building.exists() {
        std::fs::remove_dir_all(&building).map_err(|e| format!("{}: {e}", building.display()))?;
    }
    ensure_debootstrap()?;
    eprintln!(
        "puppet8-root: building {} (debootstrap trixie, then Debian 13's module packages)",
        building.display()
    );
    run_checked(
        Command::new("debootstrap")
            .args(["--variant=minbase", "--include=puppet-agent", "trixie"])
            .arg(&building)
            .arg("http://deb.debian.org/debian"),
        "debootstrap",
    )?;
    let install = "apt-get -qq update && DEBIAN_FRONTEND=noninteractive apt-get -qq install -y \
                   hiera-eyaml r10k $(apt-cache search --names-only '^puppet-module-' | cut -d' ' -f1)";
    run_checked(
        Command::new("chroot")
            .arg(&building)
            .args(["sh", "-c", install]),
        "installing the module packages in the root",
    )?;
    std::fs::write(building.join(MARKER), format!("{RECIPE}\n"))
        .map_err(|e| format!("{}: {e}", building.join(MARKER).display()))?;
    if dir.exists() {
        std::fs::remove_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::rename(&building, dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    Ok(dir.to_path_buf())
}

/// The root's Debian modules as plain directories (each module's
/// alternatives symlink, and every symlink inside it, resolved inside the
/// root), at `MODULES_MIRROR` inside the root: pverify reads them at that
/// host path, and `Reference::command` binds the same path into the root,
/// so Puppet 8 and pverify name every module file alike. Made once per
/// root (43 MB).
pub fn ensure_modules_mirror(root: &Path) -> Result<PathBuf, String> {
    let rel = MODULES_MIRROR.trim_start_matches('/');
    let mirror = root.join(rel);
    // Reused when it holds every module the root has, by name.
    let names = |dir: &Path| -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .map(|it| {
                it.filter_map(|e| e.ok())
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default();
        v.sort();
        v
    };
    let debian = root.join("usr/share/puppet/modules");
    if mirror.is_dir() && names(&mirror) == names(&debian) {
        return Ok(mirror);
    }
    in_root(root, &format!("rm -rf /{rel}"))?;
    let copy = format!(
        "rm -rf /{rel}.tmp && mkdir -p /{rel}.tmp && cp -rL /usr/share/puppet/modules/. /{rel}.tmp/ \
         && mv /{rel}.tmp /{rel}"
    );
    in_root(root, &copy)?;
    Ok(mirror)
}

/// Installs debootstrap on the host when it is missing (Debian's package).
fn ensure_debootstrap() -> Result<(), String> {
    if Command::new("debootstrap")
        .arg("--version")
        .output()
        .is_ok()
    {
        return Ok(());
    }
    run_checked(
        Command::new("apt-get").args(["install", "-y", "-qq", "debootstrap"]),
        "apt-get install debootstrap",
    )
}

/// A shell command's trimmed output, run inside the root.
fn in_root(root: &Path, command: &str) -> Result<String, String> {
    let out = Command::new("chroot")
        .arg(root)
        .args(["sh", "-c", command])
        .output()
        .map_err(|e| format!("chroot {}: {e}", root.display()))?;
    if !out.status.success() {
        return Err(format!(
            "in {}: `{command}` failed: {}",
            root.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn run_checked(cmd: &mut Command, what: &str) -> Result<(), String> {
    let status = cmd.status().map_err(|e| format!("{what}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{what} failed ({status})"))
    }
}
