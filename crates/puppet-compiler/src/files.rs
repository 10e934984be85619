//! The file system as the compiler sees it: the one interface through which
//! the loader, the evaluator, Hiera, templates and resource types read files.
//!
//! [`OsFiles`] is the machine's file system; [`MemoryFiles`] is an
//! environment held in memory, so a compile can run without touching the disk
//! (tests, fuzzing). Which files a compile may read (its read roots,
//! symlinks resolved) is decided in one place on top of this:
//! `loader::confine::ConfinedFiles`, the file system of every environment.

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsStr;
use std::io;
use std::path::{Component, Path, PathBuf};

/// Read-only access to files by path.
pub trait FileSystem: Send + Sync {
    /// The file's bytes.
    fn read(&self, path: &Path) -> io::Result<Vec<u8>>;

    /// The file's text; not UTF-8 is `InvalidData`, as `std::fs` says it.
    fn read_to_string(&self, path: &Path) -> io::Result<String> {
        String::from_utf8(self.read(path)?).map_err(|_| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                "stream did not contain valid UTF-8",
            )
        })
    }

    /// Whether `path` is a file (symlinks followed).
    fn is_file(&self, path: &Path) -> bool;

    /// Whether `path` is a directory (symlinks followed).
    fn is_dir(&self, path: &Path) -> bool;

    /// Whether `path` names anything (symlinks followed).
    fn exists(&self, path: &Path) -> bool {
        self.is_file(path) || self.is_dir(path)
    }

    /// The paths of a directory's entries (`dir` joined with each name), in
    /// no particular order.
    fn read_dir(&self, dir: &Path) -> io::Result<Vec<PathBuf>>;

    /// The absolute path with every symlink resolved.
    fn canonicalize(&self, path: &Path) -> io::Result<PathBuf>;

    /// What [`canonicalize`](FileSystem::canonicalize) answers for
    /// `real_dir` joined with `name`, given `real_dir` already canonical
    /// (absolute, no symlinks, no `.` or `..`), when this file system can
    /// say it more cheaply than resolving the whole path; `None` to have the
    /// whole path resolved. A file system answers `None` to every question
    /// or to none. (The confinement resolves a path from its resolved
    /// directory: one `lstat` instead of a `readlink` per component.)
    fn canonicalize_child(&self, _real_dir: &Path, _name: &OsStr) -> Option<io::Result<PathBuf>> {
        None
    }
}

/// The machine's file system.
#[derive(Clone, Copy, Debug, Default)]
pub struct OsFiles;

impl FileSystem for OsFiles {
    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        std::fs::read(path)
    }

    fn read_to_string(&self, path: &Path) -> io::Result<String> {
        std::fs::read_to_string(path)
    }

    fn is_file(&self, path: &Path) -> bool {
        path.is_file()
    }

    fn is_dir(&self, path: &Path) -> bool {
        path.is_dir()
    }

    fn exists(&self, path: &Path) -> bool {
        path.exists()
    }

    fn read_dir(&self, dir: &Path) -> io::Result<Vec<PathBuf>> {
        std::fs::read_dir(dir)?
            .map(|e| e.map(|e| e.path()))
            .collect()
    }

    fn canonicalize(&self, path: &Path) -> io::Result<PathBuf> {
        std::fs::canonicalize(path)
    }

    /// The entry itself when it is no symlink (its directory has none);
    /// a symlink is resolved in full.
    fn canonicalize_child(&self, real_dir: &Path, name: &OsStr) -> Option<io::Result<PathBuf>> {
        let path = real_dir.join(name);
        Some(match std::fs::symlink_metadata(&path) {
            Ok(m) if m.file_type().is_symlink() => std::fs::canonicalize(&path),
            Ok(_) => Ok(path),
            Err(e) => Err(e),
        })
    }
}

/// Files held in memory by absolute path; their directories exist
/// implicitly. No symlinks: a path's canonical form is the path with `.` and
/// `..` resolved.
#[derive(Clone, Debug, Default)]
pub struct MemoryFiles {
    files: BTreeMap<PathBuf, Vec<u8>>,
    dirs: BTreeSet<PathBuf>,
}

impl MemoryFiles {
    pub fn new() -> MemoryFiles {
        MemoryFiles::default()
    }

    /// Adds (or replaces) the file at the absolute `path`.
    pub fn insert(&mut self, path: impl AsRef<Path>, bytes: impl Into<Vec<u8>>) {
        let path = normalize(path.as_ref());
        let mut dir = path.parent();
        while let Some(d) = dir {
            self.dirs.insert(d.to_path_buf());
            dir = d.parent();
        }
        self.files.insert(path, bytes.into());
    }
}

/// `path` made absolute against `/`, with `.` and `..` resolved lexically.
pub(crate) fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::from("/");
    for c in path.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::Normal(n) => out.push(n),
            Component::RootDir | Component::CurDir | Component::Prefix(_) => {}
        }
    }
    out
}

/// What the OS says of a missing file (the same text as `std::fs`'s).
fn not_found(_path: &Path) -> io::Error {
    io::Error::new(
        io::ErrorKind::NotFound,
        "No such file or directory (os error 2)",
    )
}

impl FileSystem for MemoryFiles {
    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        self.files
            .get(&normalize(path))
            .cloned()
            .ok_or_else(|| not_found(path))
    }

    fn is_file(&self, path: &Path) -> bool {
        self.files.contains_key(&normalize(path))
    }

    fn is_dir(&self, path: &Path) -> bool {
        self.dirs.contains(&normalize(path))
    }

    fn read_dir(&self, dir: &Path) -> io::Result<Vec<PathBuf>> {
        let dir = normalize(dir);
        if !self.dirs.contains(&dir) {
            return Err(not_found(&dir));
        }
        let children = self
            .files
            .keys()
            .chain(self.dirs.iter())
            .filter(|p| p.parent() == Some(dir.as_path()))
            .cloned()
            .collect();
        Ok(children)
    }

    fn canonicalize(&self, path: &Path) -> io::Result<PathBuf> {
        let p = normalize(path);
        if self.exists(&p) {
            Ok(p)
        } else {
            Err(not_found(path))
        }
    }

    fn canonicalize_child(&self, real_dir: &Path, name: &OsStr) -> Option<io::Result<PathBuf>> {
        let p = real_dir.join(name);
        Some(if self.exists(&p) {
            Ok(p)
        } else {
            Err(not_found(&p))
        })
    }
}

/// `*.pp` files under `path` (or `path` itself when it is a file), sorted,
/// following symlinks as `find -L` does: a directory reached again through a
/// link is walked again (Debian's modules link fixtures to their own
/// manifests), but a link back to one of its own ancestors (a loop) is not.
pub fn find_manifests(fs: &dyn FileSystem, path: &Path) -> io::Result<Vec<PathBuf>> {
    find_with_extension(fs, path, "pp")
}

/// EPP templates (`*.epp`), found as [`find_manifests`] finds manifests.
pub fn find_templates(fs: &dyn FileSystem, path: &Path) -> io::Result<Vec<PathBuf>> {
    find_with_extension(fs, path, "epp")
}

fn find_with_extension(fs: &dyn FileSystem, path: &Path, ext: &str) -> io::Result<Vec<PathBuf>> {
    if fs.is_file(path) {
        return Ok(vec![path.to_path_buf()]);
    }
    if !fs.is_dir(path) {
        // The file system's own error for what is neither (missing, or a
        // special file that `walk` cannot list).
        fs.canonicalize(path)?;
    }
    let mut out = Vec::new();
    walk(fs, path, ext, &mut out, &mut Vec::new())?;
    // Sorted as strings, as Puppet sorts manifest paths: `b.pp` before `b/x.pp`.
    out.sort_by(|a, b| a.as_os_str().cmp(b.as_os_str()));
    Ok(out)
}

fn walk(
    fs: &dyn FileSystem,
    dir: &Path,
    ext: &str,
    out: &mut Vec<PathBuf>,
    ancestors: &mut Vec<PathBuf>,
) -> io::Result<()> {
    let real = fs.canonicalize(dir)?;
    if ancestors.contains(&real) {
        return Ok(());
    }
    ancestors.push(real);
    let mut entries = fs.read_dir(dir)?;
    entries.sort_by(|a, b| a.file_name().cmp(&b.file_name()));
    for p in entries {
        if fs.is_dir(&p) {
            walk(fs, &p, ext, out, ancestors)?;
        } else if fs.is_file(&p) && p.extension().is_some_and(|x| x == ext) {
            out.push(p);
        }
        // Anything else is a dangling symlink: skipped.
    }
    ancestors.pop();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_files_have_directories_and_sorted_manifests() {
        let mut fs = MemoryFiles::new();
        fs.insert("/env/manifests/b.pp", "notice(b)");
        fs.insert("/env/manifests/a/x.pp", "notice(x)");
        fs.insert("/env/manifests/a.pp", "notice(a)");
        fs.insert("/env/manifests/readme.md", "no");
        assert!(fs.is_dir(Path::new("/env/manifests/a")));
        assert!(fs.is_file(Path::new("/env/manifests/../manifests/b.pp")));
        assert_eq!(
            find_manifests(&fs, Path::new("/env/manifests")).unwrap(),
            [
                PathBuf::from("/env/manifests/a.pp"),
                PathBuf::from("/env/manifests/a/x.pp"),
                PathBuf::from("/env/manifests/b.pp"),
            ]
        );
        assert_eq!(
            fs.read_to_string(Path::new("/env/manifests/b.pp")).unwrap(),
            "notice(b)"
        );
        assert!(fs.read(Path::new("/env/none.pp")).is_err());
    }
}
