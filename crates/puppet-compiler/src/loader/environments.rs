//! A run's environments, as a Puppet server has them: a node's environment
//! (from its node file, the inventory or the ENC) selects the environment
//! whose code and settings (`environment.conf`) compile it. Each
//! environment is booted once per run, on first use, and shared by its
//! nodes.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use rustc_hash::FxHashMap as HashMap;

use super::{Environment, Overrides};

/// Where the environments are: Puppet's `environmentpath`.
#[derive(Clone, Debug)]
pub enum EnvironmentPath {
    /// One environment directory under one name (a control repo checked as
    /// one environment): a node naming another environment fails as it
    /// would on a server that has only this one.
    Single { name: String, dir: PathBuf },
    /// Every directory `<path>/<name>` is environment `name`.
    Directory(PathBuf),
    /// One environment directory that every node compiles in, under the
    /// environment name the node gives (`pverify compile ENV` and `diff`
    /// without `--environmentpath`: nothing says where other environments
    /// would be).
    Any(PathBuf),
}

impl EnvironmentPath {
    /// The directory of environment `name`, when there is one. Puppet's
    /// `Directories#get` takes only a directory whose name is a valid
    /// environment name (`Puppet::Node::Environment.valid_name?`), so an
    /// ENC's `../x` names none.
    pub fn dir_of(&self, name: &str) -> Option<PathBuf> {
        match self {
            EnvironmentPath::Single { name: own, dir } => (own == name).then(|| dir.clone()),
            EnvironmentPath::Directory(path) => {
                let valid = !name.is_empty()
                    && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
                let dir = path.join(name);
                (valid && dir.is_dir()).then_some(dir)
            }
            EnvironmentPath::Any(dir) => Some(dir.clone()),
        }
    }

    /// The directory Puppet's "not found" error names: the environmentpath,
    /// or for a single environment its own directory.
    pub fn shown(&self) -> &Path {
        match self {
            EnvironmentPath::Single { dir, .. } | EnvironmentPath::Any(dir) => dir,
            EnvironmentPath::Directory(path) => path,
        }
    }
}

/// Puppet's `Puppet::Environments::EnvironmentNotFound` (environments.rb,
/// the same in 7.23 and 8.10), raised when a node's environment is set
/// from its request or its ENC. Kept here, below the evaluator, because
/// it fails before any compile starts.
pub fn environment_not_found(name: &str, path: &Path) -> String {
    format!(
        "Could not find a directory environment named '{name}' anywhere in the path: {}. Does the directory exist?",
        path.display()
    )
}

type Slot = Arc<OnceLock<Result<Arc<Environment>, String>>>;

/// The environments of a run, booted once each on first use.
pub struct Environments {
    path: EnvironmentPath,
    default_name: String,
    overrides: Overrides,
    slots: Mutex<HashMap<String, Slot>>,
}

impl Environments {
    /// `default_name` is the environment of nodes that name none.
    /// `overrides`' relative `modulepath` and `manifest` entries are taken
    /// relative to each environment's directory.
    pub fn new(path: EnvironmentPath, default_name: &str, overrides: Overrides) -> Environments {
        Environments {
            path,
            default_name: default_name.to_string(),
            overrides,
            slots: Mutex::default(),
        }
    }

    /// An environment directory (`pverify compile ENV`, a side of `diff`)
    /// as the default environment, named after its directory; with an
    /// environmentpath, a node naming another environment compiles in
    /// `<environmentpath>/<name>`, without one in this directory.
    pub fn around(dir: &Path, path: Option<&Path>, overrides: Overrides) -> Environments {
        let abs = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
        let name = abs
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "production".into());
        let envpath = match path {
            Some(p) => EnvironmentPath::Directory(p.to_path_buf()),
            None => EnvironmentPath::Any(abs.clone()),
        };
        let env = Environments::new(envpath, &name, overrides);
        // The given directory is the default environment, wherever it is.
        let mut slots = env.slots.lock().unwrap_or_else(|p| p.into_inner());
        let slot: Slot = Arc::default();
        let _ = slot.set(env.boot(&name, &abs));
        slots.insert(name, slot);
        drop(slots);
        env
    }

    pub fn path(&self) -> &EnvironmentPath {
        &self.path
    }

    pub fn default_name(&self) -> &str {
        &self.default_name
    }

    /// The directory of environment `name` (`None`: the default), if any.
    pub fn dir_of(&self, name: Option<&str>) -> Option<PathBuf> {
        let name = name.unwrap_or(&self.default_name);
        if let Some(Ok(env)) = self.slot(name).get() {
            return Some(env.dir.clone());
        }
        self.path.dir_of(name)
    }

    /// Environment `name` (`None`: the default), booted on first use; the
    /// error when there is no such environment or it cannot boot.
    pub fn get(&self, name: Option<&str>) -> Result<Arc<Environment>, String> {
        let name = name.unwrap_or(&self.default_name);
        self.slot(name)
            .get_or_init(|| match self.path.dir_of(name) {
                Some(dir) => self.boot(name, &dir),
                None => Err(environment_not_found(name, self.path.shown())),
            })
            .clone()
    }

    fn slot(&self, name: &str) -> Slot {
        let mut slots = self.slots.lock().unwrap_or_else(|p| p.into_inner());
        slots.entry(name.to_string()).or_default().clone()
    }

    fn boot(&self, name: &str, dir: &Path) -> Result<Arc<Environment>, String> {
        let mut overrides = self.overrides.clone();
        if let Some(mp) = &mut overrides.modulepath {
            for p in mp.iter_mut() {
                *p = dir.join(&*p);
            }
        }
        if let Some(m) = &mut overrides.manifest {
            *m = dir.join(&*m);
        }
        let mut env = Environment::boot(dir, &overrides)?;
        // A control repo's directory is rarely named after its environment.
        env.name = name.to_string();
        Ok(Arc::new(env))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn environments_are_found_by_name_and_booted_once() {
        let root = tempfile::tempdir().unwrap();
        for env in ["production", "dev"] {
            std::fs::create_dir_all(root.path().join(env).join("manifests")).unwrap();
        }
        std::fs::create_dir_all(root.path().join("bad-name")).unwrap();
        let envs = Environments::new(
            EnvironmentPath::Directory(root.path().to_path_buf()),
            "production",
            Overrides::default(),
        );
        let prod = envs.get(None).unwrap();
        assert_eq!(prod.name, "production");
        assert!(Arc::ptr_eq(&prod, &envs.get(Some("production")).unwrap()));
        assert_eq!(envs.get(Some("dev")).unwrap().dir, root.path().join("dev"));
        for missing in ["staging", "bad-name", "..", ""] {
            assert_eq!(
                envs.get(Some(missing)).unwrap_err(),
                environment_not_found(missing, root.path())
            );
        }
        let single = Environments::new(
            EnvironmentPath::Single {
                name: "production".into(),
                dir: root.path().join("dev"),
            },
            "production",
            Overrides::default(),
        );
        assert_eq!(single.get(None).unwrap().name, "production");
        assert!(single.get(Some("dev")).is_err());
    }
}
