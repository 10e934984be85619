//! What one compile remembers between lookups, as Puppet's `LookupAdapter`
//! does: the layers of each module, the merged `lookup_options`, and each
//! hierarchy level's resolved files.
//!
//! Automatic parameter lookup makes a lookup per class parameter, and every
//! lookup walks every level of up to three layers. Interpolating each
//! level's paths and finding its files again each time was a quarter of a
//! warm compile. Puppet keeps its data providers for the compile and
//! re-creates them only when a variable their paths interpolated has changed
//! (`HieraConfig#scope_interpolations_stable?`); so does this memo: a level's
//! files are reused while every variable its paths read still has the value
//! it had. `facts` and `trusted` cannot change during a compile, so they are
//! not even re-read.

use puppet_syntax::util::NameStr as _;
use rustc_hash::FxHashMap as HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use super::config::{Config, Level};
use super::FileData;
use puppet_model::{Map, Value};

/// A level's files with their data, in location order.
pub type LevelFiles = Arc<[(PathBuf, FileData)]>;

/// The per-compile memo of Hiera lookups (a field of the compiler).
#[derive(Default)]
pub struct HieraMemo {
    /// Merged `lookup_options` per module name (`""`: keys without one).
    lookup_options: HashMap<String, Option<Arc<Map>>>,
    /// The layers searched for keys of a module (`""`: keys without one).
    layers: HashMap<String, Arc<Vec<Layer>>>,
    /// Resolved levels by the level's address (levels live in configs the
    /// environment holds for the whole run).
    levels: HashMap<usize, ResolvedLevel>,
    /// While a level's paths are interpolated: the variables read.
    recording: Option<Recording>,
    /// Module data files whose keys were checked for the module's prefix
    /// (Puppet warns once about keys of other namespaces). By the path's
    /// bytes: asked for every module-data file of every lookup, and a
    /// `PathBuf` hashes component by component, several times slower.
    prefix_checked: rustc_hash::FxHashSet<std::ffi::OsString>,
    /// Custom backends' function contexts, by level and location.
    pub backends: BackendContexts,
}

/// Puppet's `FunctionContext`s: one per custom hierarchy level and
/// location, living as long as the compile (what a backend caches stays
/// for every later lookup), and the calls running now.
#[derive(Default)]
pub struct BackendContexts {
    contexts: Vec<BackendContext>,
    ids: HashMap<(usize, Option<PathBuf>, Option<String>), usize>,
    /// The backend calls in progress, innermost last: what a
    /// `Puppet::LookupContext` method acts on.
    pub calls: Vec<BackendCall>,
    /// A backend called `not_found`: Puppet's `throw :no_such_key`, which
    /// unwinds the function whatever it was doing.
    pub not_found_thrown: bool,
}

/// One backend call in progress.
pub struct BackendCall {
    pub context: usize,
    /// The lookup's scope and key chain (for `interpolate`).
    pub scope: usize,
    pub chain: Vec<String>,
    pub module: Option<String>,
}

/// A `FunctionContext`'s state.
#[derive(Default)]
pub struct BackendContext {
    /// data_hash: the function's answer, kept for the compile.
    pub data: Option<Arc<Map>>,
    /// lookup_key and data_dig: the values found, by key.
    pub found: HashMap<String, Value>,
    /// The context's cache (`cache`, `cached_value`, ...), in insertion order.
    pub cache: Map,
}

impl BackendContexts {
    /// The context of `level` at a location (`path` or `uri`), made on
    /// first use.
    pub fn id(
        &mut self,
        level: &Level,
        path: Option<&std::path::Path>,
        uri: Option<&str>,
    ) -> usize {
        let key = (
            level_key(level),
            path.map(|p| p.to_path_buf()),
            uri.map(str::to_string),
        );
        if let Some(id) = self.ids.get(&key) {
            return *id;
        }
        self.contexts.push(BackendContext::default());
        let id = self.contexts.len() - 1;
        self.ids.insert(key, id);
        id
    }

    pub fn get(&mut self, id: usize) -> &mut BackendContext {
        &mut self.contexts[id]
    }
}

struct ResolvedLevel {
    files: LevelFiles,
    /// Variables read (other than `facts` and `trusted`) and their values.
    reads: Reads,
}

/// Variables a level's paths read, and the values they had.
pub type Reads = Arc<[(String, Value)]>;

/// The variables read while a level's paths are interpolated.
#[derive(Default)]
pub struct Recording {
    reads: Vec<(String, Value)>,
    /// A path called `lookup()`: its result is not a variable to compare.
    uncacheable: bool,
}

fn level_key(level: &Level) -> usize {
    level as *const Level as usize
}

/// Does the variable stay the same for the whole compile?
fn is_immutable(expr: &str) -> bool {
    let root = expr.trim_colons();
    let root = root.split(['.', ':']).next().unwrap_or(root);
    matches!(root, "facts" | "trusted" | "server_facts")
}

impl HieraMemo {
    /// The layers found for a module's keys (`""`: keys without one).
    #[inline]
    pub fn layers(&self, module: &str) -> Option<&Arc<Vec<Layer>>> {
        self.layers.get(module)
    }

    #[inline]
    pub fn set_layers(&mut self, module: String, layers: Arc<Vec<Layer>>) {
        self.layers.insert(module, layers);
    }

    /// The merged `lookup_options` of a module (`""`: keys without one),
    /// if read yet.
    #[inline]
    pub fn lookup_options(&self, module: &str) -> Option<&Option<Arc<Map>>> {
        self.lookup_options.get(module)
    }

    #[inline]
    pub fn set_lookup_options(&mut self, module: String, options: Option<Arc<Map>>) {
        self.lookup_options.insert(module, options);
    }

    /// Whether module data file `file` is to be checked for keys outside
    /// the module's namespace: the first time only.
    #[inline]
    pub fn first_prefix_check(&mut self, file: &std::ffi::OsStr) -> bool {
        !self.prefix_checked.contains(file) && self.prefix_checked.insert(file.to_owned())
    }

    /// The level's remembered files and the variables to re-check.
    pub fn level(&self, level: &Level) -> Option<(LevelFiles, Reads)> {
        let r = self.levels.get(&level_key(level))?;
        Some((r.files.clone(), r.reads.clone()))
    }

    pub fn start_recording(&mut self) {
        self.recording = Some(Recording::default());
    }

    /// Stops recording and remembers the level's files when nothing made
    /// them uncacheable.
    pub fn finish_recording(&mut self, level: &Level, files: Option<&LevelFiles>) {
        let Some(rec) = self.recording.take() else {
            return;
        };
        match files {
            Some(files) if !rec.uncacheable => {
                self.levels.insert(
                    level_key(level),
                    ResolvedLevel {
                        files: files.clone(),
                        reads: rec.reads.into(),
                    },
                );
            }
            _ => {
                self.levels.remove(&level_key(level));
            }
        }
    }

    /// A variable read while interpolating, and its value.
    pub fn record_read(&mut self, expr: &str, value: &Value) {
        if let Some(rec) = &mut self.recording {
            if !is_immutable(expr) {
                rec.reads.push((expr.to_string(), value.clone()));
            }
        }
    }

    /// A read whose value is not a variable's (a nested lookup).
    pub fn record_uncacheable(&mut self) {
        if let Some(rec) = &mut self.recording {
            rec.uncacheable = true;
        }
    }

    /// Pauses recording (for a nested lookup), to be resumed with
    /// [`HieraMemo::resume`].
    pub fn pause(&mut self) -> Option<Recording> {
        self.recording.take()
    }

    pub fn resume(&mut self, r: Option<Recording>) {
        self.recording = r;
    }
}

/// A layer to search: its configuration and, for a module, the module's name.
pub struct Layer {
    pub config: Arc<Config>,
    pub module: Option<String>,
    pub global: bool,
}

#[cfg(test)]
mod tests {
    use super::is_immutable;

    #[test]
    fn facts_and_trusted_are_immutable_other_variables_are_not() {
        for e in [
            "facts.os.family",
            "::facts.os.family",
            "trusted.certname",
            "::trusted",
        ] {
            assert!(is_immutable(e), "{e}");
        }
        for e in ["role", "::role", "profile::x", "factsx", "fact"] {
            assert!(!is_immutable(e), "{e}");
        }
    }
}
