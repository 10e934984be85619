//! Golden snapshots of a control repo: `pverify check` compiles the node
//! matrix of `pverify.yaml` and compares each catalog (canonical form) with
//! `golden/<node>.json`; `pverify bless` rewrites the goldens that changed.
//!
//! Each node is turned into the same node object a spec-suite case makes
//! (`harness::node_for`), so nodes compile exactly as cases do, and the
//! Puppet oracle gets the same request.

mod config;
mod exports;
pub mod init;
pub mod onceover;
pub mod sources;
mod stale;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use rayon::prelude::*;
use serde_json::{json, Value};

pub use config::{read_config, Config, ExportsConfig, MatrixEntry, Nodes, CONFIG_FILE};

use crate::catalog_diff::{catalog_diff, render_changes, Paint};
use crate::harness::suite::mismatch;
use crate::harness::{
    canonical_catalog_text, node_for, oracle, relativize_text, Case, Expect, Versioned,
};
use crate::output::OutDir;
use crate::puppetfile::{CacheOptions, Deployment};
use crate::reference::{debian_modules, puppet8_root_dir, PuppetVersion, Reference};
use crate::report::{Failure, Item, Status};
use puppet_compiler::eval;
use puppet_compiler::facts::certname;
use puppet_compiler::facts::overrides::FactOverride;
use puppet_compiler::loader::environments::{EnvironmentPath, Environments};
use puppet_compiler::loader::{Environment, Overrides};

/// A control repo and its config.
pub struct Repo {
    /// The directory of `pverify.yaml`.
    pub root: PathBuf,
    pub config: Config,
    /// The environment directory, absolute: the repo's one environment, or
    /// with `environmentpath:` the default environment's directory.
    pub env_dir: PathBuf,
    /// The environment's Puppetfile, deployed ([`Repo::deploy_modules`]).
    pub modules: Option<std::sync::Arc<Deployment>>,
    /// `--fact-override`s, applied to every node's facts.
    pub fact_overrides: Vec<FactOverride>,
    /// How long the config's ENC may run for one node.
    pub enc_timeout: std::time::Duration,
    /// Other nodes' exported resources every node's collectors see (the
    /// `exports:` file, then, in the in-run mode, the run's own exports).
    pub exports: Option<std::sync::Arc<puppet_compiler::facts::exports::Exports>>,
    /// Read roots the operator grants (`--grant DIR`, `--basemodulepath`),
    /// besides the repo's directory and the reference's Debian module
    /// directory.
    pub grants: Vec<PathBuf>,
}

/// One node of the matrix: its name (the golden's file stem) and the node
/// data, as a case without files.
#[derive(Debug, Clone)]
pub struct NodeSpec {
    /// `<certname>` or `<certname>@<factset>`.
    pub id: String,
    pub case: Case,
    /// Why the node cannot be compiled, found before compiling (its node
    /// file is unreadable, its ENC failed): the node's result on every side;
    /// the other nodes still compile.
    pub failed: Option<String>,
}

impl NodeSpec {
    pub fn new(id: String, case: Case) -> NodeSpec {
        NodeSpec {
            id,
            case,
            failed: None,
        }
    }

    /// The error the node has before it compiles: its own, or a certname
    /// or file name Puppet would refuse (docs/safety.md, "Writes").
    pub fn refusal(&self) -> Option<String> {
        if let Some(e) = &self.failed {
            return Some(e.clone());
        }
        certname::validate(&self.case.node)
            .and_then(|()| certname::validate_file_stem(&self.id))
            .err()
    }
}

/// What pverify made of one node: the canonical catalog, or the error.
#[derive(Debug, Clone)]
pub struct Compiled {
    pub id: String,
    pub result: Result<String, String>,
    pub millis: u64,
}

impl Repo {
    /// Reads `dir/pverify.yaml`.
    pub fn open(dir: &Path) -> Result<Repo, String> {
        let config = read_config(dir)?;
        let settings = serde_json::Value::Object(config.settings.clone().into_iter().collect());
        crate::harness::settings_of(Some(&settings)).map_err(|e| format!("pverify.yaml: {e}"))?;
        let root = std::fs::canonicalize(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let env_dir = Repo::env_dir_of(&root, &config)?;
        let mut repo = Repo {
            root,
            config,
            env_dir,
            modules: None,
            fact_overrides: Vec::new(),
            enc_timeout: puppet_compiler::facts::ENC_TIMEOUT,
            exports: None,
            grants: Vec::new(),
        };
        let file = repo.config.exports.as_ref().and_then(|e| e.file.clone());
        repo.set_exports(file.map(|f| repo.root.join(f)).as_deref(), false)
            .map_err(|e| format!("pverify.yaml: exports: {e}"))?;
        Ok(repo)
    }

    /// `--environmentpath` over the config's `environmentpath:`.
    pub fn set_environmentpath(&mut self, path: PathBuf) -> Result<(), String> {
        self.config.environmentpath = Some(path);
        self.env_dir = Repo::env_dir_of(&self.root, &self.config)?;
        Ok(())
    }

    /// The default environment's directory.
    fn env_dir_of(root: &Path, config: &Config) -> Result<PathBuf, String> {
        let dir = Repo::configured_env_dir(root, config)?;
        // The environments are part of the repo's tree: `environment: ..`
        // would make another tree readable.
        if !dir.starts_with(root) {
            let (key, named) = match &config.environmentpath {
                Some(p) => ("environmentpath", p),
                None => ("environment", &config.environment),
            };
            return Err(format!(
                "pverify.yaml: {key} '{}' lies outside the control repo",
                named.display()
            ));
        }
        Ok(dir)
    }

    fn configured_env_dir(root: &Path, config: &Config) -> Result<PathBuf, String> {
        Ok(match &config.environmentpath {
            // The default environment need not exist when every node names
            // its own.
            Some(path) => {
                let path = std::fs::canonicalize(root.join(path))
                    .map_err(|e| format!("environmentpath {}: {e}", root.join(path).display()))?;
                let dir = path.join(&config.environment_name);
                std::fs::canonicalize(&dir).unwrap_or(dir)
            }
            None => std::fs::canonicalize(root.join(&config.environment)).map_err(|e| {
                format!(
                    "environment {}: {e}",
                    root.join(&config.environment).display()
                )
            })?,
        })
    }

    /// Deploys the environment's Puppetfile, if it has one, into the
    /// module cache; the repo's environment then sees its modules. Modules
    /// that could not be deployed are reported on stderr and explain the
    /// errors of the nodes that fail.
    pub fn deploy_modules(&mut self, cache: &CacheOptions) -> Result<(), String> {
        let deployed = crate::puppetfile::deploy(&self.env_dir, cache)?;
        if let Some(d) = &deployed {
            for e in &d.errors {
                eprintln!("{e}");
            }
        }
        self.modules = deployed.map(std::sync::Arc::new);
        Ok(())
    }

    /// Applies `--setting NAME=VALUE`s over pverify.yaml's `settings:`.
    pub fn overlay_settings(&mut self, assignments: &[String]) -> Result<(), String> {
        let mut settings = Some(Value::Object(
            self.config.settings.clone().into_iter().collect(),
        ));
        crate::harness::overlay_settings(&mut settings, assignments)?;
        if let Some(Value::Object(m)) = settings {
            self.config.settings = m.into_iter().collect();
        }
        Ok(())
    }

    /// The Puppet version the repo compiles as (`puppet:`, default 8).
    pub fn puppet(&self) -> PuppetVersion {
        self.config.puppet.unwrap_or_default()
    }

    /// A node's compile error, with why modules are missing if any are.
    pub fn explain(&self, error: String) -> String {
        match &self.modules {
            Some(d) => d.explain(error),
            None => error,
        }
    }

    /// The golden file of a node, as the repo names it (for messages; the
    /// file is read and written only through [`Repo::golden_dir`]).
    pub fn golden_path(&self, id: &str) -> PathBuf {
        self.root
            .join(&self.config.golden)
            .join(format!("{id}.json"))
    }

    /// The golden directory (`golden:`), which must be inside the repo once
    /// symlinks are resolved; `create` makes it (bless).
    pub fn golden_dir(&self, create: bool) -> Result<OutDir, String> {
        OutDir::within(&self.root, &self.config.golden, create)
    }

    /// Every node of the config, sorted by name; duplicate names are an error.
    pub fn nodes(&self) -> Result<Vec<NodeSpec>, String> {
        let mut out = Vec::new();
        for pattern in &self.config.nodes.files {
            let full = self.root.join(pattern);
            let paths = glob::glob(&full.to_string_lossy())
                .map_err(|e| format!("nodes.files '{pattern}': {e}"))?;
            let mut matched = 0;
            for p in paths {
                let p = p.map_err(|e| format!("nodes.files '{pattern}': {e}"))?;
                matched += 1;
                out.extend(self.nodes_from_source(&p)?);
            }
            if matched == 0 {
                return Err(format!("nodes.files '{pattern}' matches no file"));
            }
        }
        for pattern in &self.config.nodes.inventory {
            let full = self.root.join(pattern);
            let paths = glob::glob(&full.to_string_lossy())
                .map_err(|e| format!("nodes.inventory '{pattern}': {e}"))?;
            let mut matched = 0;
            for p in paths {
                let p = p.map_err(|e| format!("nodes.inventory '{pattern}': {e}"))?;
                matched += 1;
                out.extend(self.nodes_from_source(&p)?);
            }
            if matched == 0 {
                return Err(format!("nodes.inventory '{pattern}' matches no file"));
            }
        }
        // Each fact set read and parsed once, however many nodes share it
        // (a fleet's matrix lists thousands of certnames per fact set).
        let mut factsets: HashMap<&str, serde_json::Map<String, Value>> = HashMap::new();
        for entry in &self.config.nodes.matrix {
            for fs in &entry.factsets {
                if !factsets.contains_key(fs.as_str()) {
                    let facts = crate::factsets::read(
                        &self.root.join(&self.config.factsets),
                        fs,
                        self.puppet(),
                    )?;
                    factsets.insert(fs, facts);
                }
            }
        }
        // Fact overrides apply to every node: to the nodes read so far one
        // by one, to a matrix entry's facts once per fact set, which all of
        // its certnames then share.
        for n in &mut out {
            self.override_facts(std::sync::Arc::make_mut(&mut n.case.facts));
        }
        for entry in &self.config.nodes.matrix {
            let shared = |fs: Option<&str>| {
                let mut facts = fs.map(|fs| factsets[fs].clone()).unwrap_or_default();
                for (k, v) in &entry.facts {
                    facts.insert(k.clone(), v.clone());
                }
                let mut facts = Value::Object(facts);
                self.override_facts(&mut facts);
                std::sync::Arc::new(facts)
            };
            if entry.factsets.is_empty() {
                let facts = shared(None);
                for name in &entry.names {
                    out.push(self.matrix_node(entry, name, None, facts.clone()));
                }
            }
            for fs in &entry.factsets {
                let facts = shared(Some(fs.as_str()));
                for name in &entry.names {
                    out.push(self.matrix_node(entry, name, Some(fs), facts.clone()));
                }
            }
        }
        if let Some(enc) = &self.config.enc {
            let enc = self.root.join(enc);
            out.par_iter_mut()
                .filter(|n| n.failed.is_none())
                .for_each(|n| {
                    if let Err(e) = apply_enc(&mut n.case, &enc, self.enc_timeout) {
                        n.failed = Some(e);
                    }
                });
        }
        out.sort_by(|a, b| a.id.cmp(&b.id));
        for w in out.windows(2) {
            if w[0].id == w[1].id {
                let (a, b) = (
                    self.relative(&w[0].case.path),
                    self.relative(&w[1].case.path),
                );
                let place = if a == b {
                    format!("in {a}")
                } else {
                    format!("in {a} and in {b}")
                };
                return Err(format!(
                    "node {} is listed twice: {place} (one node, one golden)",
                    w[0].id
                ));
            }
        }
        Ok(out)
    }

    fn base_case(&self, certname: &str) -> Case {
        let mut settings = serde_json::Map::new();
        for (k, v) in &self.config.settings {
            settings.insert(k.clone(), v.clone());
        }
        let exports = self.exports_store();
        if exports.is_some() && !settings.contains_key("storeconfigs") {
            settings.insert("storeconfigs".into(), Value::Bool(true));
        }
        Case {
            path: self.root.join(CONFIG_FILE),
            spec: vec![],
            description: String::new(),
            node: certname.to_string(),
            facts: json!({}).into(),
            factset: None,
            trusted: None,
            classes: None,
            parameters: None,
            environment: self.config.environment_name.clone(),
            settings: (!settings.is_empty()).then_some(Value::Object(settings)),
            exports: exports.map(|store| crate::harness::CaseExports { file: None, store }),
            pending: Versioned::default(),
            puppet_varies: None,
            files: vec![],
            expect: Versioned::both(Expect::None),
            expect_warnings: Versioned::default(),
            budget: self.config.budget(),
        }
    }

    /// `--fact-override`s applied to a node's facts.
    fn override_facts(&self, facts: &mut Value) {
        if let Value::Object(facts) = facts {
            for o in &self.fact_overrides {
                o.apply_json(facts);
            }
        }
    }

    /// A node of the matrix: certname `name` on fact set `fs`, with `facts`
    /// (the fact set's, the entry's own over them, overrides applied).
    fn matrix_node(
        &self,
        e: &MatrixEntry,
        name: &str,
        fs: Option<&String>,
        facts: std::sync::Arc<Value>,
    ) -> NodeSpec {
        let mut case = self.base_case(name);
        case.facts = facts;
        case.trusted = e.trusted.clone();
        case.classes = e.classes.clone();
        case.parameters = e.parameters.clone();
        if let Some(env) = &e.environment {
            case.environment = env.clone();
        }
        let id = match fs {
            None => name.to_string(),
            Some(fs) => format!("{name}@{fs}"),
        };
        NodeSpec::new(id, case)
    }

    /// The nodes of a node file, a server's fact cache or an inventory, read
    /// as `compile` and `diff --facts` read them (one reader); a node names
    /// its environment, else it is `environment_name`. A file that cannot be
    /// read is a failed node (named by the file's stem), not the run's.
    fn nodes_from_source(&self, path: &Path) -> Result<Vec<NodeSpec>, String> {
        let nodes = puppet_compiler::facts::sources::read_node_sources(path)?;
        Ok(nodes
            .into_iter()
            .map(|n| match n {
                Ok(node) => {
                    let doc = puppet_compiler::facts::node_to_json(&node);
                    let mut case = self.base_case(&node.name);
                    case.path = path.to_path_buf();
                    case.facts = doc["values"].clone().into();
                    case.classes = doc.get("classes").cloned();
                    case.parameters = doc.get("parameters").cloned();
                    case.trusted = doc.get("trusted").cloned();
                    if let Some(env) = node.environment {
                        case.environment = env;
                    }
                    NodeSpec::new(node.name, case)
                }
                Err((name, e)) => {
                    let mut case = self.base_case(&name);
                    case.path = path.to_path_buf();
                    NodeSpec {
                        failed: Some(relativize_text(&e, &self.root.to_string_lossy())),
                        ..NodeSpec::new(name, case)
                    }
                }
            })
            .collect())
    }

    /// The environments' overrides: `modulepath` and `manifest` relative
    /// to each environment's directory, the basemodulepath both compilers
    /// use, and its directories outside the repo granted for reading.
    fn overrides(&self) -> Overrides {
        let base = self.effective_basemodulepath();
        let mut overrides = Overrides {
            modulepath: self.config.modulepath.clone(),
            manifest: self.config.manifest.clone(),
            basemodulepath: Some(
                base.iter()
                    .map(|d| d.to_string_lossy())
                    .collect::<Vec<_>>()
                    .join(":"),
            ),
            // The repo's tree, the reference's Debian modules (system
            // configuration), and the operator's grants (`--grant`,
            // `--basemodulepath`, `--hiera-config`); never what pverify.yaml
            // names.
            grants: [self.root.clone(), debian_modules(self.puppet())]
                .into_iter()
                .chain(self.grants.iter().cloned())
                .collect(),
            hiera_config: self.hiera_config(),
            eyaml: puppet_compiler::hiera::eyaml::Settings {
                working_dir: None,
                missing_key: self.config.eyaml.missing_key,
            },
            ..Overrides::default()
        };
        if let Some(d) = &self.modules {
            d.apply(&mut overrides);
        }
        overrides
    }

    /// The basemodulepath pverify and `--oracle puppet` both use: the
    /// config's (or `--basemodulepath`), else the reference's Debian
    /// default ([`crate::reference::default_basemodulepath`]).
    pub fn effective_basemodulepath(&self) -> Vec<PathBuf> {
        self.basemodulepath()
            .unwrap_or_else(|| crate::reference::default_basemodulepath(self.puppet()))
    }

    /// Where the repo's environments are: its `environmentpath`, or the
    /// repo as the one environment.
    pub fn environment_path(&self) -> EnvironmentPath {
        match &self.config.environmentpath {
            Some(p) => EnvironmentPath::Directory(
                std::fs::canonicalize(self.root.join(p)).unwrap_or_else(|_| self.root.join(p)),
            ),
            None => EnvironmentPath::Single {
                name: self.config.environment_name.clone(),
                dir: self.env_dir.clone(),
            },
        }
    }

    /// The repo's environments, each booted on first use.
    pub fn environments(&self) -> Environments {
        self.environments_granting(&[])
    }

    /// [`Repo::environments`] with more read roots granted (a `diff` side's).
    pub fn environments_granting(&self, grants: &[PathBuf]) -> Environments {
        let mut overrides = self.overrides();
        overrides.grants.extend(grants.iter().cloned());
        Environments::new(
            self.environment_path(),
            &self.config.environment_name,
            overrides,
        )
    }

    /// The command line's `--hiera-config` (relative: to the environment
    /// directory) and `--eyaml-missing-key` over the config's.
    pub fn apply_hiera_options(
        &mut self,
        hiera_config: Option<PathBuf>,
        missing_key: Option<puppet_compiler::hiera::eyaml::MissingKey>,
    ) {
        if hiera_config.is_some() {
            self.config.hiera_config = hiera_config;
        }
        if let Some(m) = missing_key {
            self.config.eyaml.missing_key = m;
        }
    }

    /// The `hiera.yaml` replacing the environment's (`hiera_config:`),
    /// absolute.
    pub fn hiera_config(&self) -> Option<PathBuf> {
        let h = self.config.hiera_config.as_ref()?;
        Some(std::path::absolute(self.env_dir.join(h)).unwrap_or_else(|_| self.env_dir.join(h)))
    }

    /// The config's `basemodulepath`, as host directories: a leading
    /// `$PVERIFY_PUPPET8_ROOT` is the Debian 13 root's directory (so a repo
    /// can name the root's module copy wherever the root is), a relative
    /// path is relative to the config's directory.
    pub fn basemodulepath(&self) -> Option<Vec<PathBuf>> {
        let dirs = self.config.basemodulepath.as_ref()?;
        Some(
            dirs.iter()
                .map(|d| match d.strip_prefix("$PVERIFY_PUPPET8_ROOT") {
                    Some(rest) => puppet8_root_dir().join(rest.trim_start_matches('/')),
                    None => self.root.join(d),
                })
                .collect(),
        )
    }

    /// The repo's environment, booted as `check` compiles it (modulepath and
    /// manifest from the config, named `environment_name`).
    pub fn boot(&self) -> Result<Environment, String> {
        self.boot_granting(&[])
    }

    /// [`Repo::boot`] with more read roots granted (a `diff` side's).
    pub fn boot_granting(&self, grants: &[PathBuf]) -> Result<Environment, String> {
        let mut overrides = self.overrides();
        overrides.grants.extend(grants.iter().cloned());
        overrides.modulepath = overrides
            .modulepath
            .map(|m| m.iter().map(|p| self.env_dir.join(p)).collect());
        overrides.manifest = overrides.manifest.map(|m| self.env_dir.join(m));
        let mut env = Environment::boot(&self.env_dir, &overrides)?;
        // A control repo's directory is rarely named after its environment.
        env.name = self.config.environment_name.clone();
        Ok(env)
    }

    /// Compiles the nodes with pverify on the current rayon pool (the
    /// environment is booted once and shared); `tick` after each node.
    pub fn compile(
        &self,
        nodes: &[NodeSpec],
        tick: &(dyn Fn() + Sync),
    ) -> Result<Vec<Compiled>, String> {
        let envs = self.environments();
        // The repo's own environment failing to boot stops the run, as
        // before; another environment's failure is its nodes' error.
        if self.config.environmentpath.is_none() {
            envs.get(None)?;
        }
        let shown = envs.path().shown().to_string_lossy().into_owned();
        let mocks = match &self.config.mocks {
            Some(p) => Some(std::sync::Arc::new(eval::FunctionMocks::from_file(
                &self.root.join(p),
            )?)),
            None => None,
        };
        Ok(nodes
            .par_iter()
            .map(|n| {
                if let Some(e) = n.refusal() {
                    tick();
                    return Compiled {
                        id: n.id.clone(),
                        result: Err(e),
                        millis: 0,
                    };
                }
                let start = Instant::now();
                let facts = n.case.facts.clone();
                let mut node = node_for(&n.case, &facts, self.puppet());
                if let Some(m) = &mocks {
                    node.function_mocks = m.clone();
                }
                node.allow_generate = self.config.allow_generate;
                let name = node.name.clone();
                let env = envs.get(Some(&n.case.environment));
                let dir = envs
                    .dir_of(Some(&n.case.environment))
                    .map(|d| d.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let result = match env {
                    Err(e) => Err(relativize_text(&relativize_text(&e, &dir), &shown)),
                    Ok(env) => match eval::compile(&env, node) {
                        Ok(c) => Ok(canonical_catalog_text(c.catalog, &dir)),
                        Err(e) => Err(relativize_text(&self.explain(e.for_node(&name)), &dir)),
                    },
                };
                tick();
                Compiled {
                    id: n.id.clone(),
                    result,
                    millis: start.elapsed().as_millis() as u64,
                }
            })
            .collect())
    }

    /// Compiles the nodes with the reference Puppet of the repo's version:
    /// each environment the nodes name is copied to a temporary
    /// environmentpath (under its name, with `modulepath`/`manifest` written
    /// into its `environment.conf`); one that does not exist is not, so
    /// Puppet says so; Puppet's basemodulepath is the one pverify uses.
    pub fn compile_with_puppet(
        &self,
        nodes: &[NodeSpec],
        workers: usize,
    ) -> Result<Vec<Compiled>, String> {
        self.compile_with_puppet_as(nodes, workers, false)
    }

    /// As [`Repo::compile_with_puppet`], each Ruby process a server with
    /// `environment_timeout = unlimited` (when `cached_environment`): one
    /// cached environment object for all its nodes (compile.rb), instead
    /// of a fresh one per node.
    pub fn compile_with_puppet_as(
        &self,
        nodes: &[NodeSpec],
        workers: usize,
        cached_environment: bool,
    ) -> Result<Vec<Compiled>, String> {
        let puppet = Reference::locate(self.puppet())?;
        let tmp = tempfile::Builder::new()
            .prefix("pverify-check-")
            .tempdir()
            .map_err(|e| format!("cannot make a temporary directory: {e}"))?;
        let envpath = self.environment_path();
        let mut conf = Vec::new();
        if let Some(m) = &self.config.modulepath {
            let joined: Vec<String> = m.iter().map(|p| p.to_string_lossy().into_owned()).collect();
            conf.push(format!("modulepath = {}", joined.join(":")));
        }
        if let Some(m) = &self.config.manifest {
            conf.push(format!("manifest = {}", m.display()));
        }
        let mut names: Vec<&str> = nodes.iter().map(|n| n.case.environment.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        for name in names {
            let Some(dir) = envpath.dir_of(name) else {
                continue;
            };
            let env_dir = tmp.path().join(name);
            copy_dir(&dir, &env_dir).map_err(|e| format!("copying the environment: {e}"))?;
            // The reference reads real directories: the deployed modules are
            // copied into the environment's copy.
            if let Some(d) = self.modules.as_ref().filter(|_| dir == self.env_dir) {
                d.materialize(&self.env_dir, &env_dir)?;
            }
            if !conf.is_empty() {
                std::fs::write(env_dir.join("environment.conf"), conf.join("\n") + "\n")
                    .map_err(|e| format!("environment.conf: {e}"))?;
            }
        }
        let envpath_text = tmp.path().to_string_lossy().into_owned();
        // Puppet ignores a modulepath directory that does not exist; the
        // reference can only be shown one that does.
        let basemodulepath: Vec<Value> = self
            .effective_basemodulepath()
            .iter()
            .filter(|d| d.is_dir())
            .map(|d| Value::from(d.to_string_lossy().into_owned()))
            .collect();
        let asked: Vec<&NodeSpec> = nodes.iter().filter(|n| n.refusal().is_none()).collect();
        let requests: Vec<Value> = asked
            .iter()
            .map(|n| {
                let c = &n.case;
                let mut r = json!({"name": c.node, "facts": c.facts, "environmentpath": envpath_text,
                    "environment": c.environment, "basemodulepath": basemodulepath});
                for (k, v) in [
                    ("trusted", &c.trusted),
                    ("classes", &c.classes),
                    ("parameters", &c.parameters),
                ] {
                    if let Some(v) = v {
                        r[k] = v.clone();
                    }
                }
                if let Some(e) = &c.exports {
                    r["exports"] = e.store.to_json();
                }
                if let Some(Value::Object(s)) = &c.settings {
                    r["settings"] = Value::Object(s.clone());
                }
                if let Some(h) = self.hiera_config() {
                    r["environment_hiera_config"] = Value::from(h.to_string_lossy().into_owned());
                }
                if cached_environment {
                    r["environment_timeout"] = Value::from("unlimited");
                }
                r
            })
            .collect();
        let replies = oracle::compile_with_puppet(&puppet, &requests, workers)?;
        let mut replies = asked.iter().map(|n| n.id.as_str()).zip(replies);
        let mut out = Vec::with_capacity(nodes.len());
        for n in nodes {
            if let Some(e) = n.refusal() {
                out.push(Compiled {
                    id: n.id.clone(),
                    result: Err(e.clone()),
                    millis: 0,
                });
                continue;
            }
            let Some((_, reply)) = replies.next() else {
                return Err("the oracle answered for fewer nodes than asked".into());
            };
            let dir = tmp.path().join(&n.case.environment);
            let (got, _warnings) = oracle::observed(&reply, &dir.to_string_lossy())?;
            let result = match got {
                Expect::Catalog(c) => Ok(c),
                Expect::Error(e) => Err(relativize_text(&e, &envpath_text)),
                Expect::None => Err("no result".into()),
            };
            out.push(Compiled {
                id: n.id.clone(),
                result,
                millis: reply["millis"].as_u64().unwrap_or(0),
            });
        }
        Ok(out)
    }

    /// Compares compiled catalogs with the goldens: one report item per node.
    /// `against` names the compiler (`golden` for pverify, `puppet`).
    pub fn check(&self, compiled: &[Compiled], against: &str) -> Vec<Item> {
        let golden_dir = self.golden_dir(false);
        compiled
            .iter()
            .map(|c| {
                let mut item = Item {
                    name: c.id.clone(),
                    status: Status::Passed,
                    reason: None,
                    failures: vec![],
                    millis: c.millis,
                };
                // Read only inside the golden directory, never through a
                // link, and only for a node that compiled (so a refused
                // name is never looked up).
                let golden = match (&c.result, &golden_dir) {
                    (Err(_), _) => Err(String::new()),
                    (Ok(_), Err(e)) => Err(e.clone()),
                    (Ok(_), Ok(dir)) => match dir.read_node(&c.id) {
                        Ok(Some(text)) => Ok(text),
                        Ok(None) => Err("No such file or directory (os error 2)".into()),
                        Err(e) => Err(relativize_text(&e, &self.root.to_string_lossy())),
                    },
                };
                let fail = |message: String| Failure {
                    against: against.to_string(),
                    message,
                    changes: vec![],
                    expected: None,
                    actual: None,
                };
                match (&c.result, golden) {
                    (Err(e), _) => item.failures.push(Failure {
                        actual: Some(e.clone()),
                        ..fail("the node failed to compile".into())
                    }),
                    (Ok(_), Err(e)) => item.failures.push(fail(format!(
                        "no golden catalog {} ({e}); run `pverify bless`",
                        self.relative(&self.golden_path(&c.id))
                    ))),
                    // The catalog's own text is JSON, so a golden equal to
                    // it passes without being parsed (every node's golden
                    // passes here); only another is read as JSON.
                    (Ok(cat), Ok(g)) if g.trim_end() == cat.trim_end() => {}
                    (Ok(_), Ok(g)) if serde_json::from_str::<Value>(&g).is_err() => {
                        let e = serde_json::from_str::<Value>(&g).unwrap_err();
                        item.failures.push(fail(format!(
                            "{}:{}:{}: the golden catalog is not JSON ({e}); run `pverify bless`",
                            self.relative(&self.golden_path(&c.id)),
                            e.line(),
                            e.column()
                        )))
                    }
                    (Ok(cat), Ok(g)) => {
                        let want: Value = serde_json::from_str(&g).unwrap_or(Value::Null);
                        let got: Value = serde_json::from_str(cat).unwrap_or(Value::Null);
                        let changes = catalog_diff(&want, &got, &self.config.ignores);
                        let unignored = catalog_diff(&want, &got, &[]);
                        if !changes.is_empty() || unignored.is_empty() {
                            let mut f = mismatch(
                                against,
                                "the catalog differs from the golden (expected = golden)",
                                &Expect::Catalog(g.trim_end().to_string()),
                                &Expect::Catalog(cat.clone()),
                            );
                            if !changes.is_empty() {
                                f.changes = changes;
                            }
                            item.failures.push(f);
                        }
                    }
                }
                if !item.failures.is_empty() {
                    item.status = Status::Failed;
                }
                item
            })
            .collect()
    }

    /// Rewrites the goldens of the nodes that compiled and changed (a temp
    /// file, then a rename); never touches the golden of a node that failed. Returns
    /// the lines to print and whether any node failed.
    pub fn bless(&self, compiled: &[Compiled], paint: Paint) -> (String, bool) {
        let mut out = String::new();
        let mut failed = false;
        let (mut created, mut updated, mut same) = (0, 0, 0);
        let dir = match self.golden_dir(true) {
            Ok(d) => d,
            Err(e) => return (format!("{} {e}\n", paint.red("error")), true),
        };
        dir.remove_stale();
        for c in compiled {
            let path = self.golden_path(&c.id);
            let rel = self.relative(&path);
            match &c.result {
                Err(e) => {
                    failed = true;
                    out.push_str(&format!(
                        "{} {}: it failed to compile, {rel} is kept as it is\n    {e}\n",
                        paint.red("refused"),
                        c.id
                    ));
                }
                Ok(cat) => {
                    let text = format!("{cat}\n");
                    // A golden that is a link is replaced, never read
                    // through (its target's text would show in the diff).
                    let old = dir.read_node(&c.id).ok().flatten();
                    if old.as_deref() == Some(text.as_str()) {
                        same += 1;
                        continue;
                    }
                    if let Err(e) = dir.write_node(&c.id, text.as_bytes()) {
                        failed = true;
                        let e = relativize_text(&e, &self.root.to_string_lossy());
                        out.push_str(&format!("{} {rel}: {e}\n", paint.red("error")));
                        continue;
                    }
                    match old {
                        None => {
                            created += 1;
                            out.push_str(&format!("{} {rel}\n", paint.green("created")));
                        }
                        Some(old) => {
                            updated += 1;
                            let want: Value = serde_json::from_str(&old).unwrap_or(Value::Null);
                            let got: Value = serde_json::from_str(cat).unwrap_or(Value::Null);
                            let changes = catalog_diff(&want, &got, &[]);
                            out.push_str(&format!(
                                "{} {rel} ({} change{})\n",
                                paint.yellow("updated"),
                                changes.len(),
                                if changes.len() == 1 { "" } else { "s" }
                            ));
                            out.push_str(&render_changes(&changes, "    ", paint));
                        }
                    }
                }
            }
        }
        out.push_str(&format!(
            "bless: {created} created, {updated} updated, {same} unchanged, {} refused\n",
            compiled.iter().filter(|c| c.result.is_err()).count()
        ));
        (out, failed)
    }

    fn relative(&self, p: &Path) -> String {
        p.strip_prefix(&self.root)
            .unwrap_or(p)
            .display()
            .to_string()
    }
}

/// The nodes of shard `index` (1-based) of `count`: the nodes sorted by name,
/// every `count`-th from position `index - 1`. Every node is in exactly one
/// shard, the same one on every machine.
pub fn shard(nodes: Vec<NodeSpec>, index: usize, count: usize) -> Vec<NodeSpec> {
    shard_by(nodes, |n| n.id.as_str(), index, count)
}

/// The one selection rule of `--shard` (`check` and `diff`): `items`
/// sorted by their key, every `count`-th from position `index - 1`, in
/// key order.
pub fn shard_by<T>(items: Vec<T>, key: impl Fn(&T) -> &str, index: usize, count: usize) -> Vec<T> {
    let mut items = items;
    items.sort_by(|a, b| key(a).cmp(key(b)));
    items
        .into_iter()
        .enumerate()
        .filter(|(i, _)| count > 0 && i % count == index.wrapping_sub(1))
        .map(|(_, n)| n)
        .collect()
}

/// Parses `I/N` (1 <= I <= N).
pub fn parse_shard(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("--shard '{s}': expected I/N with 1 <= I <= N");
    let (i, n) = s.split_once('/').ok_or_else(bad)?;
    let (i, n): (usize, usize) = (
        i.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if i == 0 || n == 0 || i > n {
        return Err(bad());
    }
    Ok((i, n))
}

/// Runs the config's ENC for a node as `pverify compile --enc` does and
/// puts what it says into the node's case (so pverify and the oracle get
/// the same node): its classes replace the node's, its parameters go over
/// them, its environment selects the node's environment.
fn apply_enc(case: &mut Case, enc: &Path, timeout: std::time::Duration) -> Result<(), String> {
    let mut said = puppet_compiler::eval::NodeInfo {
        name: case.node.clone(),
        ..Default::default()
    };
    puppet_compiler::facts::apply_enc_within(&mut said, enc, timeout)?;
    let doc = puppet_compiler::facts::node_to_json(&said);
    if let Some(classes) = doc.get("classes") {
        case.classes = Some(classes.clone());
    }
    if let Some(Value::Object(params)) = doc.get("parameters") {
        let mut merged = match case.parameters.take() {
            Some(Value::Object(m)) => m,
            _ => serde_json::Map::new(),
        };
        for (k, v) in params {
            merged.insert(k.clone(), v.clone());
        }
        case.parameters = Some(Value::Object(merged));
    }
    if let Some(env) = said.environment {
        case.environment = env;
    }
    Ok(())
}
fn copy_dir(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        let meta = std::fs::metadata(entry.path())?;
        if meta.is_dir() {
            copy_dir(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), &target)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn basemodulepath_names_root_relative_and_absolute_dirs() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join(CONFIG_FILE),
            "basemodulepath: [$PVERIFY_PUPPET8_ROOT/var/lib/pverify/modules, /opt/m, local]\n\
             nodes: {matrix: [{names: [a]}]}\n",
        )
        .unwrap();
        let repo = Repo::open(dir.path()).unwrap();
        let dirs = repo.basemodulepath().unwrap();
        assert_eq!(
            dirs,
            vec![
                puppet8_root_dir().join("var/lib/pverify/modules"),
                PathBuf::from("/opt/m"),
                repo.root.join("local"),
            ]
        );
        let joined = repo.overrides().basemodulepath.unwrap();
        assert_eq!(joined.split(':').count(), 3);
    }

    #[test]
    fn shard_parsing() {
        assert_eq!(parse_shard("2/3"), Ok((2, 3)));
        assert!(parse_shard("0/3").is_err());
        assert!(parse_shard("4/3").is_err());
        assert!(parse_shard("x").is_err());
    }
}
