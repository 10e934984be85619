//! The environment: where manifests and modules are, and every file parsed at
//! most once per run, its tree shared by all nodes (`Arc`).
//!
//! Boot reads `environment.conf` (`manifest`, `modulepath` with
//! `$basemodulepath`), lists the initial manifests (a file, or every `*.pp`
//! below a directory in sorted path order), and answers the 3.x autoloader's
//! question: which files to import, in order, to find class `foo::bar::baz`.

pub mod confine;
pub mod environments;
mod parse_ahead;
mod templates;

use puppet_syntax::util::{FileNumber, NameStr as _, PathSlots};
use rustc_hash::FxHashMap as HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use puppet_syntax::{self as syntax, ast::Program, FileNamespace, SyntaxError};

use crate::files::{FileSystem, OsFiles};
use crate::reads::{self, Trace, CONTENT, KIND};
use confine::{ConfinedFiles, ReadRoots};

/// Puppet 7 on Debian: `$codedir/modules:/usr/share/puppet/modules`.
pub const DEFAULT_BASEMODULEPATH: &str = "/etc/puppet/code/modules:/usr/share/puppet/modules";

/// Overrides from the command line (`--modulepath`, `--manifest`).
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    pub modulepath: Option<Vec<PathBuf>>,
    pub manifest: Option<PathBuf>,
    /// `$basemodulepath` in `environment.conf` (default
    /// [`DEFAULT_BASEMODULEPATH`]); the spec-suite uses none, as its oracle.
    pub basemodulepath: Option<String>,
    /// Read roots the operator grants besides the environment directory
    /// (`--grant DIR`, a control repo's directory, the module cache, the
    /// reference's Debian module directory, a basemodulepath directory
    /// elsewhere, what `--modulepath`, `--manifest` and `--hiera-config`
    /// name): see [`confine`].
    pub grants: Vec<PathBuf>,
    /// The file system the environment is read through instead of the
    /// machine's: a deployed Puppetfile's overlay (its modules at the
    /// moduledir, every other path the machine's); confined all the same.
    pub files: Option<SharedFiles>,
    /// A `hiera.yaml` that replaces the environment's for this run (its
    /// relative datadirs still start at the environment directory, as if
    /// the file were there: onceover's test hiera.yaml).
    pub hiera_config: Option<PathBuf>,
    /// Where eyaml's relative key paths resolve and what a missing private
    /// key means.
    pub eyaml: crate::hiera::eyaml::Settings,
}

/// A file system shared by the environments of a run.
#[derive(Clone)]
pub struct SharedFiles(pub Arc<dyn FileSystem>);

impl std::fmt::Debug for SharedFiles {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SharedFiles")
    }
}

/// Autoload candidates: groups of files imported together, most specific
/// first.
type Candidates = Arc<[Vec<PathBuf>]>;

/// A parsed file, or why it could not be parsed.
pub type Parsed = Result<Arc<Program>, SyntaxError>;

pub struct Environment {
    /// This environment among all a process makes (caches that outlive
    /// one, such as `eval::constant_types`, tell them apart by it).
    pub id: u64,
    /// What Puppet warns of in `environment.conf` (unknown settings,
    /// sections), logged by every compile.
    pub conf_warnings: Vec<String>,
    /// Every file the compile reads is read through this.
    files: Arc<dyn FileSystem>,
    pub name: String,
    pub dir: PathBuf,
    /// The `manifest` setting: a file or a directory.
    pub manifest: PathBuf,
    /// The initial manifests in evaluation order.
    pub manifests: Vec<PathBuf>,
    pub modulepath: Vec<PathBuf>,
    cache: PathSlots<Parsed>,
    /// EPP templates, each parsed once per run like the manifests.
    templates: PathSlots<Parsed>,
    /// Each entry with the questions its probe asked (`crate::reads`), as
    /// every name-keyed cache below keeps them.
    modules: Mutex<HashMap<String, (Option<PathBuf>, Trace)>>,
    /// Files to parse ahead of the compile, on a spare thread.
    parse_ahead: parse_ahead::ParseAhead,
    /// Autoload candidates by class or define name: the files that exist,
    /// probed once per run rather than once per node.
    autoload: Mutex<HashMap<String, (Candidates, Trace)>>,
    /// Hiera's data and config files, each parsed once per run.
    pub hiera: crate::hiera::DataCache,
    /// Module resource types, each `lib/puppet/type/*.rb` read once per run.
    pub resource_types: crate::restypes::TypeCache,
    /// ERB templates, each file parsed once per run.
    pub erb: crate::template::erb::cache::Cache,
    /// Inline ERB templates, each text parsed once per run.
    pub erb_inline: crate::template::erb::cache::InlineCache,
    /// Modules' Ruby functions, each file parsed once per run.
    pub ruby_functions: crate::template::erb::cache::FunctionCache,
    /// Ruby files of modules' `lib` required by templates and functions.
    pub ruby_libs: crate::template::erb::cache::LibCache,
    /// Function names and the Ruby file each resolves to (or none), found
    /// once per run.
    pub ruby_function_paths: Mutex<HashMap<String, (Option<PathBuf>, Trace)>>,
    /// `template()`/`epp()` references and the file each names (or none):
    /// found once per run, not per call.
    pub template_files: Mutex<HashMap<String, (Option<PathBuf>, Trace)>>,
    /// Type aliases resolved from an autoloaded `types/*.pp` file whose
    /// definition reads no variable and calls no function: the same type for
    /// every node, so each compile after the first skips evaluating it
    /// (stdlib's nest several `Pattern`s deep). By lower-case name: the file
    /// and the type.
    pub resolved_type_aliases: Mutex<HashMap<String, (PathBuf, puppet_model::types::PType, Trace)>>,
    /// Type alias names and the `types/*.pp` file each autoloads from (or
    /// none), probed once per run: every resource reference such as
    /// `Apache::Mod['x']` first asks whether `apache/types/mod.pp` exists.
    type_alias_files: Mutex<HashMap<String, (Option<PathBuf>, Trace)>>,
    /// Manifest paths and the module each lies in (`$module_name`), found
    /// once per run: every class and define evaluation asks.
    module_names: Mutex<HashMap<String, Option<Arc<str>>>>,
    /// The environment layer's `hiera.yaml`: `<dir>/hiera.yaml` unless the
    /// run replaces it ([`Overrides::hiera_config`]).
    pub hiera_yaml: PathBuf,
    /// hiera-eyaml's settings for the run.
    pub eyaml: crate::hiera::eyaml::Settings,
    /// What booting asked of the file system (environment.conf, the
    /// manifests' directory): part of every node's read set.
    pub boot_reads: Trace,
    /// The answers to read-set questions, each found once per run.
    pub read_answers: reads::Memo,
}

impl std::fmt::Debug for Environment {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Environment")
            .field("name", &self.name)
            .field("dir", &self.dir)
            .finish()
    }
}

/// A file's bytes, or the error that names it.
fn read_source(files: &dyn FileSystem, path: &Path) -> Result<Vec<u8>, SyntaxError> {
    files.read(path).map_err(|e| SyntaxError {
        message: format!("Could not read file: {e}"),
        file: path.display().to_string(),
        line: None,
        column: None,
        logged: Vec::new(),
    })
}

/// `environment.conf` read: its settings and the warnings Puppet logs
/// about it (`Puppet::Settings::EnvironmentConf.validate`).
#[derive(Default)]
struct Conf {
    settings: HashMap<String, String>,
    warnings: Vec<String>,
}

/// The settings `environment.conf` may hold (Puppet's `VALID_SETTINGS`).
const ENVIRONMENT_CONF_SETTINGS: [&str; 7] = [
    "modulepath",
    "manifest",
    "config_version",
    "environment_timeout",
    "environment_data_provider",
    "static_catalogs",
    "rich_data",
];

/// `key = value` lines of `environment.conf`, an ini file whose settings
/// outside its main section Puppet ignores.
fn read_conf(files: &dyn FileSystem, path: &Path) -> Result<Conf, String> {
    let mut out = Conf::default();
    let text = match files.read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(out),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let mut sections: Vec<String> = Vec::new();
    let mut unknown: Vec<String> = Vec::new();
    let mut in_main = true;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
            continue;
        }
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            let name = name.trim();
            in_main = name == "main";
            if !in_main && !sections.iter().any(|s| s == name) {
                sections.push(name.to_string());
            }
            continue;
        }
        let Some((k, v)) = line.split_once('=') else {
            return Err(format!(
                "{}:{}: expected 'setting = value', got '{line}'",
                path.display(),
                i + 1
            ));
        };
        if !in_main {
            continue;
        }
        let k = k.trim();
        if !ENVIRONMENT_CONF_SETTINGS.contains(&k) && !unknown.iter().any(|u| u == k) {
            unknown.push(k.to_string());
        }
        out.settings.insert(k.to_string(), v.trim().to_string());
    }
    let p = path.display();
    if !sections.is_empty() {
        out.warnings.push(format!(
            "Invalid sections in environment.conf at '{p}'. Environment conf may not have sections. The following sections are being ignored: '{}'\n   (file & line not available)",
            sections.join(",")
        ));
    }
    if !unknown.is_empty() {
        out.warnings.push(format!(
            "Invalid settings in environment.conf at '{p}'. The following unknown setting(s) are being ignored: {}\n   (file & line not available)",
            unknown.join(", ")
        ));
    }
    Ok(out)
}

impl Environment {
    /// Boots the environment in `dir` on the machine's file system, named
    /// after its directory.
    pub fn boot(dir: &Path, overrides: &Overrides) -> Result<Environment, String> {
        let files = match &overrides.files {
            Some(f) => f.0.clone(),
            None => Arc::new(OsFiles),
        };
        Environment::boot_with(files, dir, overrides)
    }

    /// [`Environment::boot`] over any file system (an environment held in
    /// memory, for tests and fuzzing).
    pub fn boot_with(
        files: Arc<dyn FileSystem>,
        dir: &Path,
        overrides: &Overrides,
    ) -> Result<Environment, String> {
        let (env, trace) = reads::capture(|| Environment::boot_traced(files, dir, overrides));
        env.map(|mut env| {
            env.boot_reads = trace;
            env
        })
    }

    fn boot_traced(
        files: Arc<dyn FileSystem>,
        dir: &Path,
        overrides: &Overrides,
    ) -> Result<Environment, String> {
        if !files.is_dir(dir) {
            files.canonicalize(dir).map_err(|e| {
                format!("{}: cannot read environment directory: {e}", dir.display())
            })?;
            return Err(format!("{}: not a directory", dir.display()));
        }
        let dir = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
        let name = dir
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_else(|| "production".into());
        // The system's module directories (the default basemodulepath) are
        // configuration outside the repo: readable whether or not the
        // basemodulepath is set (a repo may name them itself).
        let mut grants = overrides.grants.clone();
        grants.extend(DEFAULT_BASEMODULEPATH.split(':').map(PathBuf::from));
        let roots = ReadRoots::new(&*files, std::slice::from_ref(&dir), &grants);
        let confined = Arc::new(ConfinedFiles::new(files, roots));
        let roots = confined.roots();
        let conf_path = dir.join("environment.conf");
        let Conf {
            settings: conf,
            warnings: conf_warnings,
        } = read_conf(&*confined, &conf_path)?;
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
                let base = overrides
                    .basemodulepath
                    .as_deref()
                    .unwrap_or(DEFAULT_BASEMODULEPATH);
                let entries = |setting: &str| -> Vec<PathBuf> {
                    setting
                        .split(':')
                        .filter(|s| !s.is_empty())
                        .map(resolve)
                        .collect()
                };
                let setting = conf
                    .get("modulepath")
                    .cloned()
                    .unwrap_or_else(|| "modules:$basemodulepath".into());
                let own = entries(&setting.replace("$basemodulepath", ""));
                confine::check_entries(roots, &own, || {
                    format!("{}: modulepath entry", conf_path.display())
                })?;
                confine::check_entries(roots, &entries(base), || {
                    "basemodulepath entry".to_string()
                })?;
                entries(&setting.replace("$basemodulepath", base))
            }
        };
        confine::check_entries(roots, &modulepath, || "modulepath entry".to_string())?;
        confine::check_entries(roots, std::slice::from_ref(&manifest), || {
            match (&overrides.manifest, conf.contains_key("manifest")) {
                (None, true) => format!("{}: manifest", conf_path.display()),
                _ => "manifest".to_string(),
            }
        })?;
        let files: Arc<dyn FileSystem> = confined.clone();
        let manifests = if files.is_dir(&manifest) {
            crate::files::find_manifests(&*files, &manifest)
                .map_err(|e| format!("{}: {e}", manifest.display()))?
        } else if files.is_file(&manifest) {
            vec![manifest.clone()]
        } else {
            Vec::new()
        };
        static IDS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        Ok(Environment {
            id: IDS.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            files,
            name,
            manifest,
            manifests,
            modulepath,
            cache: PathSlots::default(),
            templates: PathSlots::default(),
            modules: Mutex::new(HashMap::default()),
            autoload: Mutex::default(),
            parse_ahead: Default::default(),
            hiera: Default::default(),
            resource_types: Default::default(),
            erb: Default::default(),
            erb_inline: Default::default(),
            ruby_functions: Default::default(),
            ruby_libs: Default::default(),
            ruby_function_paths: Default::default(),
            template_files: Mutex::default(),
            resolved_type_aliases: Mutex::default(),
            type_alias_files: Mutex::default(),
            module_names: Mutex::default(),
            hiera_yaml: overrides
                .hiera_config
                .clone()
                .unwrap_or_else(|| dir.join("hiera.yaml")),
            // hiera-eyaml opens relative key paths against the working
            // directory: the environment's, as when Puppet runs from a control
            // repo's root (onceover; the oracle does the same).
            eyaml: crate::hiera::eyaml::Settings {
                working_dir: Some(
                    overrides
                        .eyaml
                        .working_dir
                        .clone()
                        .unwrap_or_else(|| dir.clone()),
                ),
                ..overrides.eyaml.clone()
            },
            dir,
            conf_warnings,
            boot_reads: Trace::default(),
            read_answers: Default::default(),
        })
    }

    /// The file system every read of this environment goes through
    /// ([`confine::ConfinedFiles`]).
    pub fn files(&self) -> &dyn FileSystem {
        &*self.files
    }

    /// [`Environment::files`], to keep beyond the environment (`diff` reads
    /// `source` contents through it).
    pub fn shared_files(&self) -> Arc<dyn FileSystem> {
        self.files.clone()
    }

    /// The file's tree, parsing it on first use only; later calls (from any
    /// node, any thread) share it.
    pub fn parse(&self, path: &Path) -> Parsed {
        self.parse_numbered(path).1
    }

    /// [`Environment::parse`], with the file's number in the run (the same
    /// for every spelling of its path): what a compile keys the files it
    /// loaded by.
    pub fn parse_numbered(&self, path: &Path) -> (FileNumber, Parsed) {
        reads::note(path, KIND | CONTENT);
        let (number, slot) = self.cache.slot(path);
        let parsed = slot.get_or_init(|| {
            let parsed = self.parse_uncached(path);
            if let (true, Ok(program)) = (self.parse_ahead.is_enabled(), &parsed) {
                self.queue_references(program);
            }
            parsed
        });
        (number, parsed.clone())
    }

    /// Lets [`Environment::parse_ahead_worker`] follow each parsed file's
    /// static references (see `parse_ahead`).
    pub fn enable_parse_ahead(&self) {
        self.parse_ahead.enable();
        self.parse_ahead.push(self.manifests.clone());
    }

    /// Parses queued files, for as long as the process runs (a detached
    /// thread: nothing waits for it).
    pub fn parse_ahead_worker(&self) -> ! {
        loop {
            let path = self.parse_ahead.next();
            let _ = self.parse(&path);
        }
    }

    fn queue_references(&self, program: &Program) {
        // A guess for later nodes, not a question of this one.
        reads::unrecorded(|| {
            let mut files = Vec::new();
            for name in parse_ahead::referenced_names(program) {
                files.extend(self.autoload_candidates(&name).iter().flatten().cloned());
            }
            self.parse_ahead.push(files);
        })
    }

    /// An EPP template's tree (`epp()`), parsed on first use only and shared.
    pub fn parse_epp(&self, path: &Path) -> Parsed {
        reads::note(path, KIND | CONTENT);
        let (_, slot) = self.templates.slot(path);
        slot.get_or_init(|| {
            let name = path.display().to_string();
            let bytes = read_source(&*self.files, path)?;
            syntax::parse_epp(&name, &bytes).map(Arc::new)
        })
        .clone()
    }

    fn parse_uncached(&self, path: &Path) -> Parsed {
        let name = path.display().to_string();
        let bytes = read_source(&*self.files, path)?;
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

    /// The module a manifest lies in: the first directory below the
    /// modulepath entry that holds it; `None` outside the modulepath.
    pub fn module_name_of(&self, manifest: &str) -> Option<Arc<str>> {
        let lock = || self.module_names.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(found) = lock().get(manifest) {
            return found.clone();
        }
        let file = Path::new(manifest);
        let found: Option<Arc<str>> = self.modulepath.iter().find_map(|dir| {
            let rel = file.strip_prefix(dir).ok()?;
            rel.components()
                .next()
                .map(|c| c.as_os_str().to_string_lossy().into())
        });
        lock().insert(manifest.to_string(), found.clone());
        found
    }

    /// The file a type alias autoloads from: `mod/types/a/b.pp` for
    /// `mod::a::b`, the environment's `types/` for `environment::`; `None`
    /// when the name has one segment or the file does not exist. `key` is
    /// the lower-case name without leading colons.
    pub fn type_alias_file(&self, key: &str) -> Option<PathBuf> {
        let lock = || {
            self.type_alias_files
                .lock()
                .unwrap_or_else(|p| p.into_inner())
        };
        if let Some((found, trace)) = lock().get(key) {
            reads::replay(trace);
            return found.clone();
        }
        let (found, trace) = reads::capture(|| self.probe_type_alias_file(key));
        lock().insert(key.to_string(), (found.clone(), trace));
        found
    }

    fn probe_type_alias_file(&self, key: &str) -> Option<PathBuf> {
        let segments: Vec<&str> = key.split_colons().collect();
        if segments.len() < 2 {
            return None;
        }
        let root = if segments[0] == "environment" {
            self.dir.clone()
        } else {
            self.module_dir(segments[0])?
        };
        let path = path_under(&root.join("types"), &segments[1..]);
        self.files.is_file(&path).then_some(path)
    }

    /// The files a Puppet-language function autoloads from, most specific
    /// first: `mod/functions/a/b.pp` for `mod::a::b`, then the
    /// environment's `functions/`. `key` is the lower-case name without
    /// leading colons.
    pub fn function_candidates(&self, key: &str) -> Vec<PathBuf> {
        let segments: Vec<&str> = key.split("::").collect();
        let mut candidates = Vec::new();
        if segments.len() >= 2 {
            if let Some(module) = self.module_dir(segments[0]) {
                candidates.push(path_under(&module.join("functions"), &segments[1..]));
            }
        }
        candidates.push(path_under(&self.dir.join("functions"), &segments));
        candidates
    }

    /// The directory of module `name`: the first on the modulepath. A module
    /// whose `metadata.json` lacks what Puppet requires is not a module.
    pub fn module_dir(&self, name: &str) -> Option<PathBuf> {
        if !valid_module_name(name) {
            return None;
        }
        let mut modules = self.modules.lock().unwrap_or_else(|p| p.into_inner());
        let (found, trace) = modules.entry(name.to_string()).or_insert_with(|| {
            reads::capture(|| {
                self.modulepath
                    .iter()
                    .map(|d| d.join(name))
                    .find(|d| self.files.is_dir(d))
                    .filter(|d| metadata_acceptable(&*self.files, &d.join("metadata.json")))
            })
        });
        reads::replay(trace);
        found.clone()
    }

    /// Puppet's 3.x autoload search for a class or defined type: for
    /// `foo::bar::baz`, the candidates `foo/bar/baz`, `foo/bar`, `foo`, most
    /// specific first; each names the files to import together, the module's
    /// `init.pp` always first among them.
    pub fn autoload_candidates(&self, name: &str) -> Arc<[Vec<PathBuf>]> {
        let name = name.trim_colons().to_lowercase();
        let lock = || self.autoload.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((found, trace)) = lock().get(&name) {
            reads::replay(trace);
            return found.clone();
        }
        let (found, trace) = reads::capture(|| self.probe_autoload_candidates(&name));
        let found: Arc<[Vec<PathBuf>]> = found.into();
        lock().insert(name, (found.clone(), trace));
        found
    }

    fn probe_autoload_candidates(&self, name: &str) -> Vec<Vec<PathBuf>> {
        let segments: Vec<&str> = name.split("::").collect();
        let Some(module) = self.module_dir(segments[0]) else {
            return Vec::new();
        };
        let manifests = module.join("manifests");
        let init = manifests.join("init.pp");
        let mut out = Vec::new();
        for n in (1..=segments.len()).rev() {
            let mut files = Vec::new();
            if self.files.is_file(&init) {
                files.push(init.clone());
            }
            if n > 1 {
                let mut p = manifests.clone();
                for s in &segments[1..n] {
                    p.push(s);
                }
                p.set_extension("pp");
                if self.files.is_file(&p) && !files.contains(&p) {
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
fn metadata_acceptable(files: &dyn FileSystem, path: &Path) -> bool {
    use puppet_model::Value;
    let Ok(text) = files.read_to_string(path) else {
        return true; // no metadata: fine
    };
    // Read by Ruby's json, which takes comments (both versions read alike
    // whatever they parse).
    let parsed = puppet_model::ruby::json_parse::parse(&text, Default::default());
    let Ok(Value::Hash(m)) = &parsed else {
        return true; // unparsable metadata is logged by Puppet, not fatal
    };
    if m.is_empty() {
        return true;
    }
    let given = |k: &str| m.get(&Value::string(k)).is_some_and(|v| *v != Value::Undef);
    ["source", "author", "version", "license"]
        .iter()
        .all(|k| given(k))
        && matches!(m.get(&Value::string("dependencies")), Some(Value::Array(_)))
}

/// Module directory names Puppet accepts.
fn valid_module_name(name: &str) -> bool {
    let mut b = name.bytes();
    b.next().is_some_and(|c| c.is_ascii_lowercase())
        && b.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'_')
}

/// `dir/a/b.pp` for the name segments `a`, `b` (the 4.x loaders' layout of
/// `functions/` and `types/`).
pub fn path_under(dir: &Path, segments: &[&str]) -> PathBuf {
    let mut p = dir.to_path_buf();
    for s in segments {
        p.push(s);
    }
    p.set_extension("pp");
    p
}
