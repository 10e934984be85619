//! Where pverify writes, and how, when the code it compiles is untrusted
//! (docs/safety.md, "Writes"): every per-node file is `<name>.json` directly
//! inside one output directory (`compile --out-dir`, a control repo's
//! `golden/`), the name checked first (`facts::certname`), so no node name
//! reaches outside it; each file is written to a temporary file created
//! exclusively beside it (`O_CREAT|O_EXCL`, so a planted symlink is never
//! followed) and renamed into place, so no reader sees half a file and a
//! symlink at the target is replaced, not written through; a file is read
//! back only with `O_NOFOLLOW`.
//!
//! Temporary files are `.pverify-XXXXXX.tmp`: they never end in `.json`, so
//! they cannot be mistaken for (or be) any node's file, and one left by a
//! killed run is recognised and removed by the next ([`OutDir::remove_stale`]).

use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use puppet_compiler::facts::certname;

/// What a temporary file's name starts with.
pub const TEMP_PREFIX: &str = ".pverify-";
/// What a temporary file's name ends with.
pub const TEMP_SUFFIX: &str = ".tmp";
/// The run's report in a `compile --out-dir` directory; the node named
/// `report` is refused there, so its catalog cannot replace the report.
pub const REPORT_FILE: &str = "report.json";

/// A directory per-node files are written into and read from.
#[derive(Debug, Clone)]
pub struct OutDir {
    /// Canonical (symlinks resolved), so what is inside it is decided once.
    dir: PathBuf,
}

impl OutDir {
    /// The operator's output directory (`--out-dir`), created if missing.
    pub fn create(dir: &Path) -> Result<OutDir, String> {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let dir = std::fs::canonicalize(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        Ok(OutDir { dir })
    }

    /// A directory the repo names (`golden:` of pverify.yaml), which must
    /// stay inside the repo `root` once symlinks are resolved: the repo's
    /// own config cannot send writes (or golden reads) elsewhere. Created
    /// when `create` is set (bless); else it may be missing (check).
    pub fn within(root: &Path, relative: &Path, create: bool) -> Result<OutDir, String> {
        let root = std::fs::canonicalize(root).map_err(|e| format!("{}: {e}", root.display()))?;
        let wanted = root.join(relative);
        let outside = || {
            format!(
                "golden directory {}: outside the control repo {}",
                relative.display(),
                root.display()
            )
        };
        // The deepest part that exists, resolved, must be inside the root
        // before anything is created under it.
        let mut existing = wanted.as_path();
        while !existing.exists() {
            existing = existing.parent().ok_or_else(outside)?;
        }
        let resolved =
            std::fs::canonicalize(existing).map_err(|e| format!("{}: {e}", existing.display()))?;
        let rest = wanted.strip_prefix(existing).unwrap_or(Path::new(""));
        if !resolved.starts_with(&root)
            || rest
                .components()
                .any(|c| !matches!(c, std::path::Component::Normal(_)))
        {
            return Err(outside());
        }
        if create {
            std::fs::create_dir_all(&wanted).map_err(|e| format!("{}: {e}", wanted.display()))?;
            let dir =
                std::fs::canonicalize(&wanted).map_err(|e| format!("{}: {e}", wanted.display()))?;
            if !dir.starts_with(&root) {
                return Err(outside());
            }
            return Ok(OutDir { dir });
        }
        Ok(OutDir {
            dir: resolved.join(rest),
        })
    }

    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// The file of a node: `<name>.json`, after the name is checked as a
    /// file stem (no separator, no leading `..`, printable ASCII).
    pub fn node_file(&self, name: &str) -> Result<PathBuf, String> {
        certname::validate_file_stem(name)?;
        Ok(self.dir.join(format!("{name}.json")))
    }

    /// Writes `<name>.json` (see [`write_replacing`]).
    pub fn write_node(&self, name: &str, bytes: &[u8]) -> Result<PathBuf, String> {
        let path = self.node_file(name)?;
        write_replacing(&path, bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(path)
    }

    /// Reads `<name>.json` without following a symlink: a golden that is a
    /// link (to `/etc/passwd`, or anywhere) is an error, never read through.
    /// `Ok(None)` when there is no such file; an error does not repeat the
    /// path.
    pub fn read_node(&self, name: &str) -> Result<Option<String>, String> {
        let path = self.node_file(name)?;
        read_no_follow(&path).map_err(|e| e.to_string())
    }

    /// The names of the node files in the directory (`<name>.json`, regular
    /// files or links, not temporary files), sorted.
    pub fn node_names(&self) -> Vec<String> {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        let mut out: Vec<String> = entries
            .flatten()
            .filter(|e| e.file_type().is_ok_and(|t| !t.is_dir()))
            .filter_map(|e| e.file_name().to_str().map(str::to_string))
            .filter(|n| !is_temp_name(n))
            .filter_map(|n| n.strip_suffix(".json").map(str::to_string))
            .filter(|n| certname::validate_file_stem(n).is_ok())
            .collect();
        out.sort();
        out
    }

    /// Removes `<name>.json` (a link is removed, not followed).
    pub fn remove_node(&self, name: &str) -> Result<(), String> {
        let path = self.node_file(name)?;
        std::fs::remove_file(&path).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Removes the temporary files earlier runs left (killed mid-write):
    /// pverify's `.pverify-*.tmp`, and the names older versions used
    /// (`<name>.json.tmp`, `<name>.json.tmp<pid>`). Links are removed, not
    /// followed. Returns how many were removed.
    pub fn remove_stale(&self) -> usize {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return 0;
        };
        let mut removed = 0;
        for e in entries.flatten() {
            let name = e.file_name();
            let Some(name) = name.to_str() else { continue };
            let is_dir = e.file_type().is_ok_and(|t| t.is_dir());
            if !is_dir && is_temp_name(name) && std::fs::remove_file(e.path()).is_ok() {
                removed += 1;
            }
        }
        removed
    }
}

/// Whether a file name is one of pverify's temporary files (this scheme's
/// or an older one's).
pub fn is_temp_name(name: &str) -> bool {
    if name.starts_with(TEMP_PREFIX) && name.ends_with(TEMP_SUFFIX) {
        return true;
    }
    match name.rsplit_once(".json.tmp") {
        Some((stem, pid)) => !stem.is_empty() && pid.bytes().all(|b| b.is_ascii_digit()),
        None => false,
    }
}

/// Writes a file through a temporary file created exclusively in the same
/// directory (never a link's target) and renamed over `path` (a link there
/// is replaced, its target untouched). The file's mode is as a plain
/// create's (0666 less the umask). Any failure is an error.
///
/// The rename makes the write atomic for readers; the data is not forced to
/// disk (no `fdatasync`). Everything written here is derived and written
/// again by the next run (catalogs, reports, goldens under git, the cache,
/// which checks every file's digest), as git writes a working tree: a
/// per-file sync waited on the disk once per catalog and was about 40 % of
/// a 2,000-node `compile --out-dir`'s wall time.
pub fn write_replacing(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::Builder::new()
        .prefix(TEMP_PREFIX)
        .suffix(TEMP_SUFFIX)
        .permissions(std::fs::Permissions::from_mode(0o666))
        .tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    // On failure the temporary file is dropped, which removes it.
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Reads a regular file without following a final symlink; `Ok(None)` when
/// nothing is there. A link, a directory or a device is an error.
pub fn read_no_follow(path: &Path) -> std::io::Result<Option<String>> {
    use std::os::unix::fs::OpenOptionsExt;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path);
    let mut file: File = match file {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => {
            return Err(std::io::Error::other("a symbolic link, not read"))
        }
        Err(e) => return Err(e),
    };
    if !file.metadata()?.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    let mut text = String::new();
    file.read_to_string(&mut text)?;
    Ok(Some(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temp_names() {
        assert!(is_temp_name(".pverify-abc123.tmp"));
        assert!(is_temp_name("n1.json.tmp"));
        assert!(is_temp_name("n1.json.tmp4242"));
        assert!(!is_temp_name("n1.json"));
        assert!(!is_temp_name("n1.json.tmpx"));
        assert!(!is_temp_name(".pverify-abc.json"));
        assert!(!is_temp_name(REPORT_FILE));
    }

    #[test]
    fn writes_replace_links_and_reads_refuse_them() {
        let tmp = tempfile::tempdir().unwrap();
        let outside = tmp.path().join("outside");
        std::fs::write(&outside, "secret").unwrap();
        let dir = OutDir::create(&tmp.path().join("out")).unwrap();
        std::os::unix::fs::symlink(&outside, dir.path().join("n.json")).unwrap();
        assert!(dir.read_node("n").unwrap_err().contains("symbolic link"));
        dir.write_node("n", b"{}").unwrap();
        assert_eq!(std::fs::read_to_string(&outside).unwrap(), "secret");
        assert_eq!(dir.read_node("n").unwrap().as_deref(), Some("{}"));
        assert_eq!(dir.read_node("missing").unwrap(), None);
        assert!(dir.node_file("../x").is_err());
        assert!(dir.node_file("/tmp/x").is_err());
    }

    #[test]
    fn a_repo_directory_stays_inside_the_repo() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("repo");
        std::fs::create_dir_all(&root).unwrap();
        std::os::unix::fs::symlink(tmp.path(), root.join("up")).unwrap();
        for bad in ["..", "../x", "/tmp", "up", "up/golden", "a/../../x"] {
            assert!(
                OutDir::within(&root, Path::new(bad), false).is_err(),
                "{bad}"
            );
        }
        let g = OutDir::within(&root, Path::new("golden"), true).unwrap();
        assert!(g.path().ends_with("repo/golden"));
        assert!(OutDir::within(&root, Path::new("golden/sub"), false).is_ok());
    }
}
