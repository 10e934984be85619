//! The environment: where manifests and modules are, and every file parsed at
//! most once per run, its tree shared by all nodes (`Arc`).
//!
//! Boot reads `environment.conf` (`manifest`, `modulepath` with
//! `$basemodulepath`), lists the initial manifests (a file, or every `*.pp`
//! below a directory in sorted path order), and answers the 3.x autoloader's
//! question: which files to import, in order, to find class `foo::bar::baz`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use crate::syntax::{self, ast::Program, FileNamespace, SyntaxError};

/// Puppet 7 on Debian: `$codedir/modules:/usr/share/puppet/modules`.
pub const DEFAULT_BASEMODULEPATH: &str = "/etc/puppet/code/modules:/usr/share/puppet/modules";

/// Overrides from the command line (`--modulepath`, `--manifest`).
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    pub modulepath: Option<Vec<PathBuf>>,
    pub manifest: Option<PathBuf>,
}

/// A parsed file, or why it could not be parsed.
pub type Parsed = Result<Arc<Program>, SyntaxError>;

pub struct Environment {
    pub name: String,
    pub dir: PathBuf,
    /// The `manifest` setting: a file or a directory.
    pub manifest: PathBuf,
    /// The initial manifests in evaluation order.
    pub manifests: Vec<PathBuf>,
    pub modulepath: Vec<PathBuf>,
    cache: Mutex<HashMap<PathBuf, Arc<OnceLock<Parsed>>>>,
    modules: Mutex<HashMap<String, Option<PathBuf>>>,
}

impl std::fmt::Debug for Environment {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Environment")
            .field("name", &self.name)
            .field("dir", &self.dir)
            .finish()
    }
}

/// `key = value` lines of `environment.conf` (an ini file without sections here).
fn read_conf(path: &Path) -> Result<HashMap<String, String>, String> {
    let mut out = HashMap::new();
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(out),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty()
            || line.starts_with('#')
            || line.starts_with(';')
            || line.starts_with('[')
        {
            continue;
        }
        let Some((k, v)) = line.split_once('=') else {
            return Err(format!(
                "{}:{}: expected 'setting = value', got '{line}'",
                path.display(),
                i + 1
            ));
        };
        out.insert(k.trim().to_string(), v.trim().to_string());
    }
    Ok(out)
}

impl Environment {
    /// Boots the environment in `dir`, named after its directory.
    pub fn boot(dir: &Path, overrides: &Overrides) -> Result<Environment, String> {
        let meta = std::fs::metadata(dir)
            .map_err(|e| format!("{}: cannot read environment directory: {e}", dir.display()))?;
        if !meta.is_dir() {
            return Err(format!("{}: not a directory", dir.display()));
        }
        let dir = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
        let name = dir
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_else(|| "production".into());
        let conf = read_conf(&dir.join("environment.conf"))?;
        let resolve = |p: &str| -> PathBuf {
            let p = Path::new(p);
            if p.is_absolute() {
                p.to_path_buf()
            } else {
                dir.join(p)
            }
        };
        let manifest = match &overrides.manifest {
            Some(m) => m.clone(),
            None => resolve(
                conf.get("manifest")
                    .map(String::as_str)
                    .unwrap_or("manifests"),
            ),
        };
        let modulepath = match &overrides.modulepath {
            Some(mp) => mp.clone(),
            None => {
                let setting = conf
                    .get("modulepath")
                    .cloned()
                    .unwrap_or_else(|| "modules:$basemodulepath".into());
                setting
                    .replace("$basemodulepath", DEFAULT_BASEMODULEPATH)
                    .split(':')
                    .filter(|s| !s.is_empty())
                    .map(resolve)
                    .collect()
            }
        };
        let manifests = if manifest.is_dir() {
            crate::util::find_manifests(&manifest)
                .map_err(|e| format!("{}: {e}", manifest.display()))?
        } else if manifest.is_file() {
            vec![manifest.clone()]
        } else {
            Vec::new()
        };
        Ok(Environment {
            name,
            dir,
            manifest,
            manifests,
            modulepath,
            cache: Mutex::new(HashMap::new()),
            modules: Mutex::new(HashMap::new()),
        })
    }

    /// The file's tree, parsing it on first use only; later calls (from any
    /// node, any thread) share it.
    pub fn parse(&self, path: &Path) -> Parsed {
        let slot = {
            let mut cache = self.cache.lock().unwrap_or_else(|p| p.into_inner());
            cache.entry(path.to_path_buf()).or_default().clone()
        };
        slot.get_or_init(|| self.parse_uncached(path)).clone()
    }

    fn parse_uncached(&self, path: &Path) -> Parsed {
        let name = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|e| SyntaxError {
            message: format!("Could not read file: {e}"),
            file: name.clone(),
            line: None,
            column: None,
        })?;
        // The initial manifests may define anything; module files only their namespace.
        let namespace = if self.is_initial_manifest(path) {
            FileNamespace::Unrestricted
        } else {
            syntax::namespace_for_file(path, &self.modulepath)
        };
        syntax::parse_in(&name, &bytes, &namespace).map(Arc::new)
    }

    fn is_initial_manifest(&self, path: &Path) -> bool {
        path.starts_with(&self.manifest)
    }

    /// The directory of module `name`: the first on the modulepath. A module
    /// whose `metadata.json` lacks what Puppet requires is not a module.
    pub fn module_dir(&self, name: &str) -> Option<PathBuf> {
        if !valid_module_name(name) {
            return None;
        }
        let mut modules = self.modules.lock().unwrap_or_else(|p| p.into_inner());
        modules
            .entry(name.to_string())
            .or_insert_with(|| {
                self.modulepath
                    .iter()
                    .map(|d| d.join(name))
                    .find(|d| d.is_dir())
                    .filter(|d| metadata_acceptable(&d.join("metadata.json")))
            })
            .clone()
    }

    /// Puppet's 3.x autoload search for a class or defined type: for
    /// `foo::bar::baz`, the candidates `foo/bar/baz`, `foo/bar`, `foo`, most
    /// specific first; each names the files to import together, the module's
    /// `init.pp` always first among them.
    pub fn autoload_candidates(&self, name: &str) -> Vec<Vec<PathBuf>> {
        let name = name.trim_start_matches("::").to_lowercase();
        let segments: Vec<&str> = name.split("::").collect();
        let Some(module) = self.module_dir(segments[0]) else {
            return Vec::new();
        };
        let manifests = module.join("manifests");
        let init = manifests.join("init.pp");
        let mut out = Vec::new();
        for n in (1..=segments.len()).rev() {
            let mut files = Vec::new();
            if init.is_file() {
                files.push(init.clone());
            }
            if n > 1 {
                let mut p = manifests.clone();
                for s in &segments[1..n] {
                    p.push(s);
                }
                p.set_extension("pp");
                if p.is_file() && !files.contains(&p) {
                    files.push(p);
                }
            }
            if !files.is_empty() {
                out.push(files);
            }
        }
        out
    }
}

/// Puppet's `Module#load_metadata`: a non-empty `metadata.json` must give
/// `source`, `author`, `version`, `license`, and `dependencies` as an array.
fn metadata_acceptable(path: &Path) -> bool {
    let Ok(text) = std::fs::read_to_string(path) else {
        return true; // no metadata: fine
    };
    let Ok(serde_json::Value::Object(m)) = serde_json::from_str::<serde_json::Value>(&text) else {
        return true; // unparsable metadata is logged by Puppet, not fatal
    };
    if m.is_empty() {
        return true;
    }
    ["source", "author", "version", "license"]
        .iter()
        .all(|k| m.get(*k).is_some_and(|v| !v.is_null()))
        && matches!(m.get("dependencies"), Some(serde_json::Value::Array(_)))
}

/// Module directory names Puppet accepts.
fn valid_module_name(name: &str) -> bool {
    let mut b = name.bytes();
    b.next().is_some_and(|c| c.is_ascii_lowercase())
        && b.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'_')
}
