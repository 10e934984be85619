//! The deployed modules as the compiler sees them: a [`FileSystem`] over
//! the machine's in which `<env>/<moduledir>/<name>` is the module's tree in
//! the cache. Nothing is written into the repo, and every path the
//! compiler reads, reports and puts in a catalog is the one r10k's
//! deployment would give (`<env>/modules/stdlib/manifests/init.pp`).
//!
//! The moduledir holds only the Puppetfile's modules and its `:local`
//! ones (r10k purges anything else there); another `install_path`
//! directory keeps what the repo has in it, with the deployed modules
//! added.

use std::collections::{BTreeMap, BTreeSet};
use std::io;
use std::path::{Path, PathBuf};

use puppet_compiler::files::{FileSystem, OsFiles};

#[derive(Debug, Default)]
pub struct ModuleOverlay {
    /// Virtual module directory (each spelling: as given and resolved) →
    /// the tree in the cache.
    modules: BTreeMap<PathBuf, PathBuf>,
    /// Virtual directories holding deployed modules: the names deployed
    /// there, and whether anything else in it is hidden (the moduledir).
    dirs: BTreeMap<PathBuf, Dir>,
}

#[derive(Debug, Default, Clone)]
struct Dir {
    deployed: BTreeSet<String>,
    /// `:local` modules kept in a purged directory.
    local: BTreeSet<String>,
    purged: bool,
}

enum Place {
    Real(PathBuf),
    Hidden,
}

impl ModuleOverlay {
    /// Adds module `name` in `dir` (a virtual directory), its tree at `real`.
    pub fn add(&mut self, dir: &Path, name: &str, real: &Path, purged: bool) {
        for spelling in spellings(dir) {
            let d = self.dirs.entry(spelling.clone()).or_default();
            d.deployed.insert(name.to_string());
            d.purged |= purged;
            self.modules.insert(spelling.join(name), real.to_path_buf());
        }
    }

    /// Makes `dir` hold only what is added or kept in it (the moduledir,
    /// which r10k purges).
    pub fn purge(&mut self, dir: &Path) {
        for spelling in spellings(dir) {
            self.dirs.entry(spelling).or_default().purged = true;
        }
    }

    /// Keeps the repo's own `dir/name` in a purged directory (`:local`).
    pub fn keep_local(&mut self, dir: &Path, name: &str, purged: bool) {
        for spelling in spellings(dir) {
            let d = self.dirs.entry(spelling).or_default();
            d.local.insert(name.to_string());
            d.purged |= purged;
        }
    }

    fn place(&self, path: &Path) -> Place {
        for a in path.ancestors() {
            if let Some(real) = self.modules.get(a) {
                let rest = path.strip_prefix(a).unwrap_or(Path::new(""));
                return Place::Real(if rest.as_os_str().is_empty() {
                    real.clone()
                } else {
                    real.join(rest)
                });
            }
            let (Some(parent), Some(name)) = (a.parent(), a.file_name()) else {
                continue;
            };
            if let Some(d) = self.dirs.get(parent) {
                if d.purged && !d.local.contains(&*name.to_string_lossy()) {
                    return Place::Hidden;
                }
            }
        }
        Place::Real(path.to_path_buf())
    }

    /// The virtual spelling of a real path inside a deployed tree.
    fn virtual_of(&self, real: &Path) -> Option<PathBuf> {
        self.modules.iter().find_map(|(virt, tree)| {
            let tree = std::fs::canonicalize(tree).ok()?;
            let rest = real.strip_prefix(&tree).ok()?;
            let base = self.canonical_dir(virt)?;
            Some(if rest.as_os_str().is_empty() {
                base
            } else {
                base.join(rest)
            })
        })
    }

    /// A virtual directory's resolved spelling: the disk's when it exists,
    /// else its parent's resolved with its name.
    fn canonical_dir(&self, virt: &Path) -> Option<PathBuf> {
        if !self.modules.contains_key(virt) && !self.dirs.contains_key(virt) {
            if let Ok(real) = std::fs::canonicalize(virt) {
                return Some(real);
            }
        }
        let parent = virt.parent()?;
        let name = virt.file_name()?;
        Some(self.canonical_dir(parent)?.join(name))
    }
}

/// A directory as given, and with its symlinks resolved when it exists
/// (or its nearest existing ancestor does).
fn spellings(dir: &Path) -> Vec<PathBuf> {
    let mut out = vec![dir.to_path_buf()];
    let mut tail = Vec::new();
    let mut probe = dir.to_path_buf();
    loop {
        if let Ok(real) = std::fs::canonicalize(&probe) {
            let mut r = real;
            for t in tail.iter().rev() {
                r.push(t);
            }
            if !out.contains(&r) {
                out.push(r);
            }
            break;
        }
        match (probe.file_name().map(|n| n.to_os_string()), probe.parent()) {
            (Some(n), Some(p)) => {
                tail.push(n);
                probe = p.to_path_buf();
            }
            _ => break,
        }
    }
    out
}

fn not_found(path: &Path) -> io::Error {
    io::Error::new(
        io::ErrorKind::NotFound,
        format!("{}: No such file or directory", path.display()),
    )
}

impl FileSystem for ModuleOverlay {
    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        match self.place(path) {
            Place::Real(p) => OsFiles.read(&p),
            Place::Hidden => Err(not_found(path)),
        }
    }

    fn read_to_string(&self, path: &Path) -> io::Result<String> {
        match self.place(path) {
            Place::Real(p) => OsFiles.read_to_string(&p),
            Place::Hidden => Err(not_found(path)),
        }
    }

    fn is_file(&self, path: &Path) -> bool {
        matches!(self.place(path), Place::Real(p) if p.is_file())
    }

    fn is_dir(&self, path: &Path) -> bool {
        self.dirs.contains_key(path) || matches!(self.place(path), Place::Real(p) if p.is_dir())
    }

    fn exists(&self, path: &Path) -> bool {
        self.is_dir(path) || matches!(self.place(path), Place::Real(p) if p.exists())
    }

    fn read_dir(&self, dir: &Path) -> io::Result<Vec<PathBuf>> {
        if let Some(d) = self.dirs.get(dir) {
            let mut names: BTreeSet<String> = d.deployed.clone();
            let on_disk = std::fs::read_dir(dir)
                .map(|it| {
                    it.filter_map(|e| e.ok())
                        .map(|e| e.file_name().to_string_lossy().into_owned())
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default();
            names.extend(
                on_disk
                    .into_iter()
                    .filter(|n| !d.purged || d.local.contains(n)),
            );
            return Ok(names.into_iter().map(|n| dir.join(n)).collect());
        }
        match self.place(dir) {
            Place::Real(real) => Ok(OsFiles
                .read_dir(&real)?
                .into_iter()
                .filter_map(|p| p.file_name().map(|n| dir.join(n)))
                .collect()),
            Place::Hidden => Err(not_found(dir)),
        }
    }

    fn canonicalize(&self, path: &Path) -> io::Result<PathBuf> {
        if self.dirs.contains_key(path) || self.modules.contains_key(path) {
            return self.canonical_dir(path).ok_or_else(|| not_found(path));
        }
        match self.place(path) {
            Place::Real(real) => {
                let resolved = std::fs::canonicalize(&real)?;
                if real == path {
                    return Ok(resolved);
                }
                // Inside a deployed tree: its virtual spelling, unless a
                // symlink led out of it (confinement then refuses it).
                Ok(self.virtual_of(&resolved).unwrap_or(resolved))
            }
            Place::Hidden => Err(not_found(path)),
        }
    }
}
