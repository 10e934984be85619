//! Confinement: the one rule for what a compile may read (docs/safety.md,
//! "Confinement").
//!
//! A compile reads only inside its read roots: the repo's own tree (the
//! environment directory; a control repo's directory, which the harness
//! grants) and the directories the operator grants (`--grant DIR`, the
//! module cache, a `--hiera-config` file, `--modulepath`, `--manifest`, the
//! default basemodulepath, the reference's Debian module directory). The
//! repo's own files (environment.conf, hiera.yaml, pverify.yaml) cannot add
//! a root.
//!
//! Every read goes through [`ConfinedFiles`], the environment's
//! [`FileSystem`]: the path is resolved (symlinks included) and must then lie
//! inside a root; a path that does not is answered exactly as a missing one
//! (`ENOENT`, "not a file"), so a refusal tells nothing about what exists
//! outside. Only a granted directory's own entries count where they point
//! (Debian's `/usr/share/puppet/modules/NAME` are symlinks into
//! `modules.available`): the operator's symlinks, never the repo's.
//!
//! Cost: the roots are resolved once per environment; each distinct path
//! once per run, from its directory's resolution (one `lstat` when the last
//! name is no symlink; remembered and shared by every node and thread), so
//! a node's probes of the files every node probes cost a hash lookup. A
//! granted directory's entries are resolved as reads name them; the whole
//! list only for a path no named entry admits.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock, RwLock};

use rustc_hash::FxHashMap as HashMap;

use crate::files::FileSystem;
use crate::reads::{self, CONTENT, KIND, LISTING};

/// The directories a compile may read in, resolved once.
#[derive(Debug)]
pub struct ReadRoots {
    /// The roots as named, made absolute and `..`-free (for config entries,
    /// which are checked without touching the file system).
    named: Vec<PathBuf>,
    /// The roots that exist, symlinks resolved, sorted by their text.
    real: Vec<PathBuf>,
    /// The granted directories apart from the repo's tree (neither inside
    /// it nor holding it), whose entries count where they point: found on
    /// the first read that needs them.
    granted: Vec<PathBuf>,
    /// Every entry of the granted directories, resolved: listed on the
    /// first read that [`ReadRoots::entry_named`] does not settle.
    entries: OnceLock<Vec<PathBuf>>,
    /// The entries resolved one by one, as reads name them
    /// (`/usr/share/puppet/modules/stdlib/...` asks for `stdlib`'s target
    /// only).
    entry_targets: RwLock<HashMap<PathBuf, Option<PathBuf>>>,
}

impl ReadRoots {
    /// The repo's `tree` and the operator's `granted` directories (or files).
    pub fn new(files: &dyn FileSystem, tree: &[PathBuf], granted: &[PathBuf]) -> ReadRoots {
        let all: Vec<&PathBuf> = tree.iter().chain(granted).collect();
        let mut named: Vec<PathBuf> = all.iter().map(|p| normalize(p)).collect();
        named.sort();
        named.dedup();
        // The repo's own symlinks are never trusted, even in a granted
        // directory that holds the repo (a control repo's directory).
        let tree = resolve_sorted(files, tree.iter());
        let apart = |g: &PathBuf| {
            files
                .canonicalize(g)
                .is_ok_and(|g| !tree.iter().any(|t| t.starts_with(&g) || g.starts_with(t)))
        };
        ReadRoots {
            named,
            real: resolve_sorted(files, all.into_iter()),
            granted: granted.iter().filter(|g| apart(g)).cloned().collect(),
            entries: OnceLock::new(),
            entry_targets: RwLock::default(),
        }
    }

    /// Whether `real`, the resolved `path`, lies inside a root: one of the
    /// roots themselves, or where an entry of a granted directory points.
    /// The entry `path` is named through is looked at first; the whole
    /// list only when that does not admit it (a path named otherwise).
    fn admits(&self, files: &dyn FileSystem, path: &Path, real: &Path) -> bool {
        inside(real, &self.real)
            || self
                .entry_named(files, path)
                .is_some_and(|target| inside(real, &[target]))
            || inside(
                real,
                self.entries.get_or_init(|| {
                    let mut entries = Vec::new();
                    for dir in &self.granted {
                        if let Ok(e) = files.read_dir(dir) {
                            entries.extend(e);
                        }
                    }
                    resolve_sorted(files, entries.iter())
                }),
            )
    }

    /// The resolved target of the granted directory's entry that `path`
    /// is named through (`G/E/...` gives `G/E` resolved), if any.
    fn entry_named(&self, files: &dyn FileSystem, path: &Path) -> Option<PathBuf> {
        let (dir, rest) = self
            .granted
            .iter()
            .find_map(|g| path.strip_prefix(g).ok().map(|rest| (g, rest)))?;
        let entry = dir.join(rest.components().next()?);
        let known = self.entry_targets.read().unwrap_or_else(|p| p.into_inner());
        if let Some(target) = known.get(&entry) {
            return target.clone();
        }
        drop(known);
        let target = files.canonicalize(&entry).ok();
        self.entry_targets
            .write()
            .unwrap_or_else(|p| p.into_inner())
            .insert(entry, target.clone());
        target
    }

    /// `path` resolved, when it lies inside a root; otherwise the error of
    /// a missing file, whatever the reason (missing, outside, unreadable).
    pub fn resolve(&self, files: &dyn FileSystem, path: &Path) -> io::Result<PathBuf> {
        match files.canonicalize(path) {
            Ok(real) if self.admits(files, path, &real) => Ok(real),
            _ => Err(missing()),
        }
    }

    /// Whether a directory named by configuration (a modulepath entry, the
    /// manifest) lies inside a root as written (`..` resolved by name): so a
    /// refusal never depends on what exists. Where it leads through
    /// symlinks is checked on each read.
    pub fn covers(&self, path: &Path) -> bool {
        let p = normalize(path);
        self.named
            .iter()
            .chain(&self.real)
            .any(|r| p.starts_with(r))
    }
}

/// Every entry of a configured list of directories (`what` names the list
/// and the file it comes from) inside the roots, or an error naming the
/// first that is not (by name: the answer never depends on what exists).
pub fn check_entries(
    roots: &ReadRoots,
    entries: &[PathBuf],
    what: impl Fn() -> String,
) -> Result<(), String> {
    match entries.iter().find(|e| !roots.covers(e)) {
        Some(e) => Err(format!(
            "{} '{}' lies outside the repository and the granted read roots \
             (pverify reads no file outside them; grant a directory with --grant DIR)",
            what(),
            e.display()
        )),
        None => Ok(()),
    }
}

/// The error of a missing file, as the OS gives it.
fn missing() -> io::Error {
    io::Error::from_raw_os_error(2) // ENOENT: "No such file or directory"
}

/// Whether one of `real`'s ancestors (itself included) is in `roots`
/// (sorted by [`bytes`]). Both sides are resolved paths (absolute, no `.`,
/// `..` or doubled `/`), so an ancestor is the text up to a `/`: compared as
/// bytes, which costs a fraction of `Path`'s comparison by components.
fn inside(real: &Path, roots: &[PathBuf]) -> bool {
    let real = bytes(real);
    let is_root = |a: &[u8]| roots.binary_search_by(|r| bytes(r).cmp(a)).is_ok();
    is_root(real)
        || real
            .iter()
            .enumerate()
            .filter(|&(_, &b)| b == b'/')
            .any(|(i, _)| is_root(if i == 0 { b"/" } else { &real[..i] }))
}

/// A path's text.
fn bytes(path: &Path) -> &[u8] {
    path.as_os_str().as_encoded_bytes()
}

fn resolve_sorted<'a>(
    files: &dyn FileSystem,
    paths: impl Iterator<Item = &'a PathBuf>,
) -> Vec<PathBuf> {
    let mut real: Vec<PathBuf> = paths.filter_map(|p| files.canonicalize(p).ok()).collect();
    real.sort_by(|a, b| bytes(a).cmp(bytes(b)));
    real.dedup();
    real
}

/// `path` made absolute (against the working directory) with `.` and `..`
/// resolved by name.
pub fn normalize(path: &Path) -> PathBuf {
    crate::files::normalize(&std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()))
}

/// A file system that answers only inside its [`ReadRoots`]: every read of
/// a compile goes through it.
pub struct ConfinedFiles {
    inner: Arc<dyn FileSystem>,
    roots: ReadRoots,
    /// Whether `inner` resolves a path from its resolved directory
    /// ([`FileSystem::canonicalize_child`]).
    by_directory: bool,
    /// Each path's resolution, found once per run and shared by every node
    /// (they probe the same files: functions, autoloading, data) and every
    /// thread: the tree does not change during a run. Keyed by the path's
    /// bytes (hashing a `Path` walks its components).
    resolved: RwLock<HashMap<Box<[u8]>, Resolution>>,
}

/// What a path resolves to.
#[derive(Clone)]
struct Resolution {
    /// The path with every symlink resolved; `None` when it is missing (or
    /// unreadable).
    real: Option<Arc<Path>>,
    /// Whether `real` lies inside the roots; `None` until a read asks. The
    /// directories resolved on the way to a path (`/`, `/work`, ...) are
    /// never asked: answering for them would list every granted
    /// directory's entries (thousands of `readlink`s for Debian's modules)
    /// in a run that reads nothing there.
    admitted: Option<bool>,
}

impl ConfinedFiles {
    pub fn new(inner: Arc<dyn FileSystem>, roots: ReadRoots) -> ConfinedFiles {
        // A file system answers `None` to every question or to none.
        let by_directory = inner
            .canonicalize_child(Path::new("/"), std::ffi::OsStr::new("."))
            .is_some();
        ConfinedFiles {
            inner,
            roots,
            by_directory,
            resolved: RwLock::default(),
        }
    }

    pub fn roots(&self) -> &ReadRoots {
        &self.roots
    }

    /// `path` resolved, when it lies inside a root; otherwise the error of
    /// a missing file, whatever the reason (missing, outside, unreadable).
    fn resolve(&self, path: &Path) -> io::Result<Arc<Path>> {
        let r = self.resolution(path);
        let Some(real) = r.real else {
            return Err(missing());
        };
        let admitted = r.admitted.unwrap_or_else(|| {
            let admitted = self.roots.admits(&*self.inner, path, &real);
            self.remember(
                path,
                Resolution {
                    real: Some(real.clone()),
                    admitted: Some(admitted),
                },
            );
            admitted
        });
        if admitted {
            Ok(real)
        } else {
            Err(missing())
        }
    }

    /// Where `path` leads, found once per run.
    fn resolution(&self, path: &Path) -> Resolution {
        let known = self.resolved.read().unwrap_or_else(|p| p.into_inner());
        if let Some(r) = known.get(bytes(path)) {
            return r.clone();
        }
        drop(known);
        let r = Resolution {
            real: self.real_path(path),
            admitted: None,
        };
        self.remember(path, r.clone());
        r
    }

    fn remember(&self, path: &Path, r: Resolution) {
        self.resolved
            .write()
            .unwrap_or_else(|p| p.into_inner())
            .insert(bytes(path).into(), r);
    }

    /// `path` with every symlink resolved (`None`: missing). An absolute
    /// path is resolved from its directory's resolution (remembered too):
    /// the directory's real path joined with the last name, when that name
    /// is no symlink (one `lstat`); otherwise the whole path is resolved.
    fn real_path(&self, path: &Path) -> Option<Arc<Path>> {
        let by_directory = match (path.parent(), path.file_name()) {
            (Some(dir), Some(name)) if self.by_directory && path.is_absolute() => {
                // A missing directory holds nothing.
                let dir = self.resolution(dir).real?;
                self.inner.canonicalize_child(&dir, name)
            }
            _ => None,
        };
        by_directory
            .unwrap_or_else(|| self.inner.canonicalize(path))
            .ok()
            .map(Arc::from)
    }
}

impl FileSystem for ConfinedFiles {
    // Every question is noted for the node asking (`crate::reads`).
    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        reads::note(path, KIND | CONTENT);
        self.inner.read(&self.resolve(path)?)
    }

    fn read_to_string(&self, path: &Path) -> io::Result<String> {
        reads::note(path, KIND | CONTENT);
        self.inner.read_to_string(&self.resolve(path)?)
    }

    fn is_file(&self, path: &Path) -> bool {
        reads::note(path, KIND);
        self.resolve(path).is_ok_and(|p| self.inner.is_file(&p))
    }

    fn is_dir(&self, path: &Path) -> bool {
        reads::note(path, KIND);
        self.resolve(path).is_ok_and(|p| self.inner.is_dir(&p))
    }

    fn exists(&self, path: &Path) -> bool {
        reads::note(path, KIND);
        self.resolve(path).is_ok()
    }

    /// The entries keep the directory's spelling (module paths and messages
    /// name files as the modulepath does); each is checked when read.
    fn read_dir(&self, dir: &Path) -> io::Result<Vec<PathBuf>> {
        reads::note(dir, KIND | LISTING);
        let real = self.resolve(dir)?;
        Ok(self
            .inner
            .read_dir(&real)?
            .into_iter()
            .filter_map(|p| p.file_name().map(|n| dir.join(n)))
            .collect())
    }

    fn canonicalize(&self, path: &Path) -> io::Result<PathBuf> {
        reads::note(path, KIND);
        self.resolve(path).map(|p| p.to_path_buf())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::files::MemoryFiles;

    #[test]
    fn reads_only_inside_the_roots_and_outside_looks_missing() {
        let mut m = MemoryFiles::new();
        m.insert("/env/manifests/site.pp", "x");
        m.insert("/etc/passwd", "root");
        let inner: Arc<dyn FileSystem> = Arc::new(m);
        let roots = ReadRoots::new(&*inner, &[PathBuf::from("/env")], &[]);
        let fs = ConfinedFiles::new(inner, roots);
        assert!(fs.is_file(Path::new("/env/manifests/site.pp")));
        assert!(!fs.is_file(Path::new("/etc/passwd")));
        assert!(!fs.is_file(Path::new("/env/../etc/passwd")));
        let refused = fs.read(Path::new("/etc/passwd")).unwrap_err();
        let absent = fs.read(Path::new("/etc/none")).unwrap_err();
        assert_eq!(refused.to_string(), absent.to_string());
        assert!(fs.roots().covers(Path::new("/env/modules")));
        assert!(!fs.roots().covers(Path::new("/env/../etc")));
        assert!(!fs.roots().covers(Path::new("/")));
    }
}
