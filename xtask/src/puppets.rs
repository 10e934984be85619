//! The reference Puppets the parser oracles (`oracle-syntax`, `oracle-ast`,
//! `oracle-validate`) run: `--puppet 7|8` (repeatable; both by default), each
//! located and run through `pverify_harness::reference::Reference`, and each
//! version's own Debian module corpus (Puppet 7.23: Debian 12's
//! `/usr/share/puppet/modules` on the host; Puppet 8.10: Debian 13's modules,
//! resolved, inside its root).

use std::path::{Path, PathBuf};
use std::process::Command;

pub use pverify_harness::reference::PuppetVersion;
use pverify_harness::reference::Reference;

/// Splits `--puppet 7|8` (repeatable) off `args`: the versions asked for
/// (all of them when none is), and the other arguments in order.
pub fn take_versions(
    args: &[String],
    usage: &str,
) -> Result<(Vec<PuppetVersion>, Vec<String>), String> {
    let mut versions = Vec::new();
    let mut rest = Vec::new();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        if arg == "--puppet" {
            let v = it
                .next()
                .ok_or_else(|| format!("--puppet needs 7 or 8 ({usage})"))?;
            let v = PuppetVersion::parse(v)
                .ok_or_else(|| format!("--puppet {v}: not 7 or 8 ({usage})"))?;
            if !versions.contains(&v) {
                versions.push(v);
            }
        } else {
            rest.push(arg.clone());
        }
    }
    if versions.is_empty() {
        versions = PuppetVersion::ALL.to_vec();
    }
    versions.sort_by_key(|v| v.major());
    Ok((versions, rest))
}

/// One reference Puppet, ready to run on files under some host directories.
/// Runs `check` against each version's reference; every version is
/// checked even when one fails, and the failures come back together.
pub fn check_each(
    versions: &[PuppetVersion],
    check: impl Fn(&Oracle) -> Result<(), String>,
) -> Result<(), String> {
    let mut failed = Vec::new();
    for &version in versions {
        let oracle = Oracle::locate(version)?;
        if let Err(e) = check(&oracle) {
            failed.push(format!("{}: {e}", oracle.describe()));
        }
    }
    if failed.is_empty() {
        Ok(())
    } else {
        Err(failed.join("; "))
    }
}

pub struct Oracle {
    reference: Reference,
}

impl Oracle {
    pub fn locate(version: PuppetVersion) -> Result<Oracle, String> {
        Ok(Oracle {
            reference: Reference::locate(version)?,
        })
    }

    pub fn version(&self) -> PuppetVersion {
        self.reference.version
    }

    /// `Puppet 7.23`, `Puppet 8.10 (/var/tmp/pverify-puppet8-root)`.
    pub fn describe(&self) -> String {
        self.reference.describe()
    }

    /// `puppet` as this reference runs it, seeing the host directories
    /// `visible` (inside a root they are bind-mounted at their own paths, so
    /// every path given to it must be absolute).
    pub fn puppet(&self, visible: &[&Path]) -> Command {
        self.reference.command("puppet", visible)
    }

    /// The host path of this version's Debian module corpus (the path Puppet
    /// sees too): the default of the corpus oracles.
    pub fn debian_modules(&self) -> PathBuf {
        self.reference.debian_modules()
    }

    /// Puppet's modulepath, as host paths, with this version's Debian module
    /// corpus on it (in a root, Puppet's own modulepath names the root's
    /// `/usr/share/puppet/modules`, not the resolved copy pverify reads; the
    /// copy is added, so that its files get the module location checks).
    /// The second value is whether the corpus had to be added, in which case
    /// Puppet must be given the same path with `--modulepath`.
    pub fn modulepath(&self) -> Result<(Vec<PathBuf>, bool), String> {
        let out = self
            .puppet(&[])
            .args(["config", "print", "modulepath"])
            .output()
            .map_err(|e| format!("cannot run {}: {e}", self.describe()))?;
        if !out.status.success() {
            return Err(format!(
                "`puppet config print modulepath` failed under {}: {}",
                self.describe(),
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
        let mut path: Vec<PathBuf> = String::from_utf8_lossy(&out.stdout)
            .trim()
            .split(':')
            .filter(|s| !s.is_empty())
            .map(PathBuf::from)
            .collect();
        let corpus = self.debian_modules();
        let added = !path.contains(&corpus);
        if added {
            path.push(corpus);
        }
        Ok((path, added))
    }
}

/// `paths` made absolute (without resolving symlinks: Debian's module
/// directory is symlinks, and Puppet names files by the path it is given).
pub fn absolute_all(paths: &[String]) -> Vec<PathBuf> {
    paths
        .iter()
        .map(|a| std::path::absolute(a).unwrap_or_else(|_| PathBuf::from(a)))
        .collect()
}

/// pverify's parse of a manifest as `version` parses it.
pub fn parse(
    version: PuppetVersion,
    path: &str,
    source: &[u8],
) -> Result<puppet_syntax::ast::Program, puppet_syntax::SyntaxError> {
    parse_in(
        version,
        path,
        source,
        &puppet_syntax::FileNamespace::Unrestricted,
    )
}

/// pverify's parse of a manifest at its place in a module, as `version`
/// parses it.
pub fn parse_in(
    _version: PuppetVersion,
    path: &str,
    source: &[u8],
    namespace: &puppet_syntax::FileNamespace,
) -> Result<puppet_syntax::ast::Program, puppet_syntax::SyntaxError> {
    puppet_syntax::parse_in(path, source, namespace)
}

/// pverify's parse of an EPP template as `version` parses it.
pub fn parse_epp(
    _version: PuppetVersion,
    path: &str,
    source: &[u8],
) -> Result<puppet_syntax::ast::Program, puppet_syntax::SyntaxError> {
    puppet_syntax::parse_epp(path, source)
}
