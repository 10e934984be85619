//! The two references pverify is checked against, as programs to run:
//! Puppet 7.23 (Debian 12's `puppet`, installed on the host) and Puppet 8.10
//! (Debian 13's `puppet-agent`). Puppet 8 is the host's own `puppet` when
//! that is an 8.x, or else runs inside a Debian 13 root that
//! `cargo xtask puppet8-root` builds (`$PVERIFY_PUPPET8_ROOT`, by default
//! `/var/tmp/pverify-puppet8-root`).
//!
//! Inside a root, Puppet sees the root's files plus the host directories a
//! command names (always the temporary directory): each is bind-mounted at
//! its own path in a private mount namespace (`unshare --mount`), so paths
//! mean the same on both sides and nothing stays mounted after the command.
//! Running in a root needs root privileges (chroot and mount).

use std::path::{Path, PathBuf};
use std::process::Command;

pub use puppet_compiler::version::PuppetVersion;

/// Where `cargo xtask puppet8-root` keeps the Debian 13 root by default.
pub const DEFAULT_PUPPET8_ROOT: &str = "/var/tmp/pverify-puppet8-root";

/// Where Debian installs its `puppet-module-*` packages (inside each
/// reference's system).
pub const DEBIAN_MODULES: &str = "/usr/share/puppet/modules";

/// Inside a Debian 13 root: its Debian modules copied with every symlink
/// resolved inside the root (`cargo xtask puppet8-root` makes it). pverify
/// reads it at its host path, and [`Reference::command`] binds it into the
/// root at that same host path, so both name every module file alike.
pub const MODULES_MIRROR: &str = "/var/lib/pverify/modules";

/// A reference Puppet that can be run.
#[derive(Clone, Debug)]
pub struct Reference {
    pub version: PuppetVersion,
    /// The Debian 13 root it runs in; `None`: the host's `puppet`.
    root: Option<PathBuf>,
}

impl Reference {
    /// Finds the reference for `version`: the host's `puppet` when its major
    /// version is `version`'s, else (for 8) the Debian 13 root.
    pub fn locate(version: PuppetVersion) -> Result<Reference, String> {
        let host = Reference {
            version,
            root: None,
        };
        if host
            .puppet_version()
            .is_ok_and(|v| PuppetVersion::parse(&v) == Some(version))
        {
            return Ok(host);
        }
        if version == PuppetVersion::V8 {
            let dir = puppet8_root_dir();
            if dir.join("usr/bin/puppet").exists() {
                let r = Reference {
                    version,
                    root: Some(dir.clone()),
                };
                return match r.puppet_version() {
                    Ok(v) if PuppetVersion::parse(&v) == Some(version) => Ok(r),
                    Ok(v) => Err(format!("{} holds Puppet {v}, not 8", dir.display())),
                    Err(e) => Err(format!("Puppet 8 in {}: {e}", dir.display())),
                };
            }
            return Err(format!(
                "no Puppet 8: `puppet` is not 8.x and there is no Debian 13 root at {} \
                 (build it with `cargo xtask puppet8-root`, or set PVERIFY_PUPPET8_ROOT)",
                dir.display()
            ));
        }
        Err(format!(
            "no Puppet {}: `puppet --version` on PATH is {} (install Debian 12's `puppet`)",
            version.major(),
            host.puppet_version().unwrap_or_else(|e| e)
        ))
    }

    /// The Debian 13 root this reference runs in, if any.
    pub fn root(&self) -> Option<&Path> {
        self.root.as_deref()
    }

    /// `program` with `args` run as this reference runs it: on the host, or
    /// inside its root with `visible` host directories (and the temporary
    /// directory) bind-mounted at their own paths. The locale is fixed at
    /// C.UTF-8 (glibc's built-in): Ruby takes its default encoding from it,
    /// and under C or an unset locale Puppet 7.23 counts a template's
    /// bytes, not its characters (`spec-suite/templates/utf8-replacement-character`).
    pub fn command(&self, program: &str, visible: &[&Path]) -> Command {
        let mut cmd = self.command_in_any_locale(program, visible);
        cmd.env("LC_ALL", "C.UTF-8").env("LANG", "C.UTF-8");
        cmd
    }

    fn command_in_any_locale(&self, program: &str, visible: &[&Path]) -> Command {
        let Some(root) = &self.root else {
            return Command::new(program);
        };
        let tmp = std::env::temp_dir();
        let mut dirs: Vec<PathBuf> = vec![tmp];
        let mirror = root.join(MODULES_MIRROR.trim_start_matches('/'));
        if mirror.is_dir() {
            dirs.push(mirror);
        }
        for d in visible {
            let d = d.canonicalize().unwrap_or_else(|_| d.to_path_buf());
            if !dirs.iter().any(|x| d.starts_with(x)) {
                dirs.push(d);
            }
        }
        // `unshare --propagation unchanged` then an explicit
        // `mount --make-rprivate /`: unshare's own propagation change failed
        // with EINVAL here under some environments; absolute paths keep the
        // script independent of PATH.
        let mut script = String::from("/usr/bin/mount --make-rprivate / || exit 125; r=\"$0\"; ");
        script.push_str("while [ \"$1\" != -- ]; do mkdir -p \"$r$1\" && /usr/bin/mount --bind \"$1\" \"$r$1\" || exit 125; shift; done; shift; ");
        script.push_str("exec /usr/sbin/chroot \"$r\" \"$@\"");
        let mut cmd = Command::new("/usr/bin/unshare");
        cmd.args([
            "--mount",
            "--propagation",
            "unchanged",
            "--",
            "/bin/sh",
            "-c",
        ])
        .arg(script)
        .arg(root)
        .args(&dirs)
        .arg("--")
        .arg(program);
        // chroot starts in the root's /; keep a working directory that exists there.
        cmd.current_dir("/");
        cmd
    }

    /// `puppet --version` of this reference.
    pub fn puppet_version(&self) -> Result<String, String> {
        match self.command("puppet", &[]).arg("--version").output() {
            Ok(out) if out.status.success() => {
                Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
            }
            Ok(out) => Err(format!(
                "`puppet --version` failed: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            )),
            Err(e) => Err(format!("puppet is not installed or not on PATH ({e})")),
        }
    }

    /// The host path of the reference's Debian module directory, the same
    /// path Puppet sees: the host's own, or in a root its resolved copy
    /// ([`MODULES_MIRROR`]).
    pub fn debian_modules(&self) -> PathBuf {
        match &self.root {
            None => PathBuf::from(DEBIAN_MODULES),
            Some(root) => root.join(MODULES_MIRROR.trim_start_matches('/')),
        }
    }

    /// `path` (a path of the reference's system) as a host path: inside a
    /// root, symlinks are followed inside the root (`readlink -f` there), as
    /// Debian's module symlinks are absolute.
    pub fn host_path(&self, path: &Path) -> Result<PathBuf, String> {
        let Some(root) = &self.root else {
            return path
                .canonicalize()
                .map_err(|e| format!("{}: {e}", path.display()));
        };
        let out = self
            .command("readlink", &[])
            .arg("-f")
            .arg(path)
            .output()
            .map_err(|e| format!("readlink in {}: {e}", root.display()))?;
        if !out.status.success() {
            return Err(format!(
                "readlink -f {} in {}: {}",
                path.display(),
                root.display(),
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
        let inside = String::from_utf8_lossy(&out.stdout).trim().to_string();
        Ok(root.join(inside.trim_start_matches('/')))
    }

    /// A host path as the reference names it (inside a root: without the
    /// root's prefix; host directories bound by [`Reference::command`] keep
    /// their paths).
    pub fn inside_path(&self, host: &Path) -> PathBuf {
        match &self.root {
            Some(root) => match host.strip_prefix(root) {
                Ok(rest) => Path::new("/").join(rest),
                Err(_) => host.to_path_buf(),
            },
            None => host.to_path_buf(),
        }
    }

    /// How reports name it: `Puppet 8.10 (/var/tmp/pverify-puppet8-root)`.
    pub fn describe(&self) -> String {
        let v = self.version.release();
        let short = v.rsplit_once('.').map_or(v, |(a, _)| a);
        match &self.root {
            Some(r) => format!("Puppet {short} ({})", r.display()),
            None => format!("Puppet {short}"),
        }
    }
}

/// The host path of the Debian module packages of `version`'s reference
/// system: Debian 12's on the host for 7; for 8 the root's resolved copy
/// (the host's own when its `puppet` is 8.x).
pub fn debian_modules(version: PuppetVersion) -> PathBuf {
    match version {
        PuppetVersion::V7 => PathBuf::from(DEBIAN_MODULES),
        PuppetVersion::V8 => puppet8_root_dir().join(MODULES_MIRROR.trim_start_matches('/')),
    }
}

/// The Debian 13 root's directory: `$PVERIFY_PUPPET8_ROOT` or the default.
pub fn puppet8_root_dir() -> PathBuf {
    std::env::var_os("PVERIFY_PUPPET8_ROOT")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(DEFAULT_PUPPET8_ROOT))
}

/// The basemodulepath a control repo compiles with when it names none, for
/// pverify and the oracle alike: Debian's default
/// (`$codedir/modules:/usr/share/puppet/modules`) on the version's reference
/// system: for 8 the Debian 13 root's resolved module copy when there is a
/// root (else the host's own Debian modules, as on a Debian 13 host).
pub fn default_basemodulepath(version: PuppetVersion) -> Vec<PathBuf> {
    let debian = match version {
        PuppetVersion::V7 => PathBuf::from(DEBIAN_MODULES),
        PuppetVersion::V8 => {
            let mirror = debian_modules(PuppetVersion::V8);
            if mirror.is_dir() {
                mirror
            } else {
                PathBuf::from(DEBIAN_MODULES)
            }
        }
    };
    vec![PathBuf::from("/etc/puppet/code/modules"), debian]
}
