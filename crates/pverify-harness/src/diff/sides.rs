//! Where each side's catalogs come from.
//!
//! A REF is a directory (an environment) or a git revision of the current
//! repository (checked out with [`super::git::Worktree`]; the environment is
//! `--env-subdir` inside it). Its nodes come from a [`NodeSource`], which is
//! the extension point for other node lists (such as a `pverify.yaml`
//! matrix): [`FactsFiles`] gives the same node files to both sides,
//! [`NodesDir`] reads the node files each side has in a directory of its own
//! tree, so a node can appear or disappear between revisions. Both sides
//! compile in one rayon pool, in parallel, through the same library calls
//! as `pverify compile`.
//!
//! Catalog files (from real Puppet, PuppetDB or earlier runs) are read with
//! [`read_catalogs`].

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;
use serde_json::Value as J;

use std::sync::atomic::{AtomicUsize, Ordering};

use super::cache::{Entry, ImpactCache};
use super::compare::CompareContext;
use super::git::Worktree;
use super::ignore::Ignore;
use super::impact::{self, ImpactStats, Mode, ReadSet, Table};
use super::names::NodeNames;
use super::report::{node_status, DiffReport, NodeOutcome, NodeStatus, SideCatalog};
use crate::control::{Repo, CONFIG_FILE};
use crate::reference::PuppetVersion;
use puppet_compiler::budget::Limits;
use puppet_compiler::eval::{FunctionMocks, NodeInfo};
use puppet_compiler::facts::overrides::FactOverride;
use puppet_compiler::loader::environments::Environments;
use puppet_compiler::loader::{Environment, Overrides};

/// A node to compile, or a node file that could not be read (named by its
/// file stem, so it pairs with the other side's node of that name).
pub type NodeSpec = Result<NodeInfo, (String, String)>;

/// The nodes of one side, each under the key that pairs it with the other
/// side's node (the certname, or `<certname>@<factset>` in a matrix).
pub trait NodeSource: Sync {
    fn nodes(&self, side: &Prepared) -> Vec<(String, NodeSpec)>;
}

/// The nodes of node files, keyed; two files with one certname are that
/// node's error, naming both files (neither silently wins).
fn keyed_files(
    files: &[PathBuf],
    enc: Option<&Path>,
    timeout: Option<std::time::Duration>,
) -> Vec<(String, NodeSpec)> {
    let mut out: Vec<(String, NodeSpec)> = Vec::new();
    let mut first_file: BTreeMap<String, (usize, &Path)> = BTreeMap::new();
    for f in files {
        for spec in read_nodes(f, enc, timeout) {
            let key = spec_name(&spec).to_string();
            match first_file.get(&key) {
                Some(&(at, first)) => {
                    let e = format!(
                        "certname {key} is in two node files, {} and {}",
                        first.display(),
                        f.display()
                    );
                    out[at].1 = Err((key, e));
                }
                None => {
                    first_file.insert(key.clone(), (out.len(), f));
                    out.push((key, spec));
                }
            }
        }
    }
    out
}

fn stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

/// The nodes of a node file, a directory of them, a server's fact cache
/// or a PuppetDB inventory (the one reader), each through the ENC if any.
fn read_nodes(
    path: &Path,
    enc: Option<&Path>,
    timeout: Option<std::time::Duration>,
) -> Vec<NodeSpec> {
    let nodes = match puppet_compiler::facts::sources::read_node_sources(path) {
        Ok(n) => n,
        Err(e) => return vec![Err((stem(path), e))],
    };
    nodes
        .into_iter()
        .map(|n| {
            let mut node = n?;
            if let Some(enc) = enc {
                let timeout = timeout.unwrap_or(puppet_compiler::facts::ENC_TIMEOUT);
                puppet_compiler::facts::apply_enc_within(&mut node, enc, timeout)
                    .map_err(|e| (node.name.clone(), e))?;
            }
            Ok(node)
        })
        .collect()
}

/// The same node files (`--facts`: files, directories, inventories) for
/// both sides.
pub struct FactsFiles {
    pub files: Vec<PathBuf>,
    pub enc: Option<PathBuf>,
    /// How long the ENC may run for one node (default 10 s).
    pub enc_timeout: Option<std::time::Duration>,
}

impl NodeSource for FactsFiles {
    fn nodes(&self, _side: &Prepared) -> Vec<(String, NodeSpec)> {
        keyed_files(&self.files, self.enc.as_deref(), self.enc_timeout)
    }
}

/// Every `*.json`, `*.yaml`, `*.yml` file in `<root>/<dir>` (`--nodes-dir`).
pub struct NodesDir {
    pub dir: PathBuf,
    pub enc: Option<PathBuf>,
    /// How long the ENC may run for one node (default 10 s).
    pub enc_timeout: Option<std::time::Duration>,
}

impl NodeSource for NodesDir {
    fn nodes(&self, side: &Prepared) -> Vec<(String, NodeSpec)> {
        let dir = side.root.join(&self.dir);
        // No directory on this side: no nodes (all added or removed).
        let files = puppet_compiler::facts::sources::node_files_in(&dir).unwrap_or_default();
        keyed_files(&files, self.enc.as_deref(), self.enc_timeout)
    }
}

/// The node matrix of each side's own `pverify.yaml` (so a node added to
/// the matrix on one side shows as a new node). A side whose config cannot
/// be read has no nodes; its error is the side's boot error.
pub struct ControlMatrix;

impl NodeSource for ControlMatrix {
    fn nodes(&self, side: &Prepared) -> Vec<(String, NodeSpec)> {
        let Some(Ok(repo)) = &side.control else {
            return Vec::new();
        };
        // Nodes sharing one facts value (a matrix entry's certnames on one
        // fact set: `Repo::nodes` builds it once) share one converted map.
        // The value is kept beside its conversion, so that its address,
        // the key, stays its own while the nodes before it are dropped.
        let mut converted: HashMap<*const J, SharedFacts> = HashMap::new();
        match repo.nodes() {
            Ok(specs) => specs
                .into_iter()
                .map(|n| {
                    if let Some(e) = n.refusal() {
                        return (n.id.clone(), Err((n.id, e)));
                    }
                    let shared = &n.case.facts;
                    let facts = if Arc::strong_count(shared) > 1 {
                        let (_, facts) = converted
                            .entry(Arc::as_ptr(shared))
                            .or_insert_with(|| (shared.clone(), crate::harness::facts_of(shared)));
                        facts.clone()
                    } else {
                        crate::harness::facts_of(shared)
                    };
                    let mut node = crate::harness::node_with_facts(&n.case, facts, repo.puppet());
                    // The node's environment selects its environment's code.
                    node.environment = Some(n.case.environment.clone());
                    (n.id, Ok(node))
                })
                .collect(),
            Err(e) => vec![("pverify.yaml".to_string(), Err(("pverify.yaml".into(), e)))],
        }
    }
}

/// A facts value several nodes share, and its conversion to Puppet values.
type SharedFacts = (Arc<J>, Arc<puppet_compiler::eval::Map>);

/// One side as given on the command line.
#[derive(Clone, Debug)]
pub enum Ref {
    Dir(PathBuf),
    Git(String),
}

impl Ref {
    /// A directory when one exists at `text`, else a git revision.
    pub fn parse(text: &str) -> Ref {
        let p = Path::new(text);
        if p.is_dir() {
            Ref::Dir(p.to_path_buf())
        } else {
            Ref::Git(text.to_string())
        }
    }
}

/// Options shared by both sides of a REF diff.
#[derive(Clone, Debug, Default)]
pub struct RefOptions {
    /// The repository git REFs are revisions of (default: the one holding
    /// the current directory).
    pub repo: Option<PathBuf>,
    /// Where the environment lives inside each side's tree (a git checkout,
    /// or a directory REF such as `.` for the working tree).
    pub env_subdir: Option<PathBuf>,
    pub overrides: Overrides,
    pub jobs: Option<usize>,
    /// Lets `generate()` run its command on both sides (`--allow-generate`).
    pub allow_generate: bool,
    /// The Puppet version both sides compile as (`--puppet`); `None`: each
    /// side's `pverify.yaml`, else 8.
    pub puppet: Option<PuppetVersion>,
    /// `--setting NAME=VALUE`s over each node's settings, on both sides
    /// (checked when the command line was read).
    pub settings: Vec<String>,
    /// The module cache each side deploys its own Puppetfile into.
    pub modules: crate::puppetfile::CacheOptions,
    /// `--fact-override`s, on both sides.
    pub fact_overrides: Vec<FactOverride>,
    /// `--environmentpath`: where a node's environment is looked up (a
    /// directory side: default its parent; a control repo: its config's).
    pub environmentpath: Option<PathBuf>,
    /// `--basemodulepath` as given, over a control repo's config.
    pub basemodulepath: Option<Vec<String>>,
    /// How long a control repo's ENC may run for one node.
    pub enc_timeout: Option<std::time::Duration>,
    /// `--exports FILE`: other nodes' exported resources for both sides'
    /// nodes (turns `storeconfigs` on unless a setting says otherwise).
    pub exports: Option<std::sync::Arc<puppet_compiler::facts::exports::Exports>>,
    /// `--hiera-config`: a hiera.yaml replacing each side's environment's
    /// (relative: to the side's environment directory).
    pub hiera_config: Option<PathBuf>,
    /// `--eyaml-missing-key`.
    pub eyaml_missing_key: Option<puppet_compiler::hiera::eyaml::MissingKey>,
    /// `--node-timeout` seconds and `--node-memory` bytes, over each side's
    /// `pverify.yaml` (`puppet_compiler::budget::Limits::resolve`).
    pub node_timeout: Option<f64>,
    pub node_memory: Option<u64>,
    /// `--mock-functions`: onceover's function mocks, on both sides (over
    /// a control repo's `mocks:`).
    pub mocks: Option<PathBuf>,
    /// `--enc`: over a control repo side's `enc:` (node files take it
    /// through [`FactsFiles`] and [`NodesDir`]).
    pub enc: Option<PathBuf>,
    /// `--shard I/N`: only the nodes of that shard of both sides' nodes
    /// (`control::shard_by`, over the union, so a node on one side only is
    /// in one shard too).
    pub shard: Option<(usize, usize)>,
}

/// A side ready to compile; holds its worktree (deleted on drop).
pub struct Prepared {
    pub label: String,
    pub root: PathBuf,
    pub env_dir: PathBuf,
    /// The side's control repo, when its tree (at `--env-subdir`) holds a
    /// `pverify.yaml`: it gives the environment, its settings and the nodes.
    pub control: Option<Result<Repo, String>>,
    /// The side's Puppetfile deployed (without a control repo; with one,
    /// the repo holds it), or why it could not be.
    pub modules: Option<Result<std::sync::Arc<crate::puppetfile::Deployment>, String>>,
    /// The function mocks this side's nodes compile with (`--mock-functions`,
    /// else the control repo's `mocks:`), or why they could not be read.
    mocks: Result<Option<std::sync::Arc<FunctionMocks>>, String>,
    _worktree: Option<Worktree>,
}

impl Prepared {
    /// An error's paths inside a git revision's temporary checkout made
    /// relative to the revision's tree (`modules/x/manifests/init.pp`):
    /// the checkout's name means nothing to a reader and differs from run
    /// to run (and from shard to shard, which `report merge` relies on not).
    fn within_tree(&self, text: String) -> String {
        match &self._worktree {
            Some(_) => text.replace(&format!("{}/", self.root.display()), ""),
            None => text,
        }
    }

    pub fn new(r: &Ref, opts: &RefOptions) -> Result<Prepared, String> {
        match r {
            Ref::Dir(d) => Ok(Prepared {
                label: d.display().to_string(),
                root: d.clone(),
                env_dir: match &opts.env_subdir {
                    Some(s) => d.join(s),
                    None => d.clone(),
                },
                control: None,
                modules: None,
                mocks: Ok(None),
                _worktree: None,
            }
            .with_control(opts)
            .with_hiera_options(opts)
            .with_modules(opts)
            .with_mocks(opts)),
            Ref::Git(rev) => {
                let cwd = std::env::current_dir().map_err(|e| e.to_string())?;
                let repo = super::git::toplevel(opts.repo.as_deref().unwrap_or(&cwd))?;
                let wt = Worktree::add(&repo, rev)?;
                let root = wt.dir.clone();
                let env_dir = match &opts.env_subdir {
                    Some(s) => root.join(s),
                    None => root.clone(),
                };
                Ok(Prepared {
                    label: format!("{rev} ({})", &wt.commit[..wt.commit.len().min(12)]),
                    root,
                    env_dir,
                    control: None,
                    modules: None,
                    mocks: Ok(None),
                    _worktree: Some(wt),
                }
                .with_control(opts)
                .with_hiera_options(opts)
                .with_modules(opts)
                .with_mocks(opts))
            }
        }
    }

    /// Reads the control repo config when the environment directory holds
    /// one; the environment is then the config's.
    fn with_control(mut self, opts: &RefOptions) -> Prepared {
        if self.env_dir.join(CONFIG_FILE).is_file() {
            let repo = Repo::open(&self.env_dir).map(|mut r| {
                if let Some(dirs) = &opts.basemodulepath {
                    // The operator's directories: read roots too.
                    r.grants.extend(dirs.iter().map(PathBuf::from));
                    r.config.basemodulepath = Some(dirs.clone());
                }
                if let Some(t) = opts.enc_timeout {
                    r.enc_timeout = t;
                }
                // The command line's compile options over the config's
                // (absolute paths: the config's relative joins keep them).
                if let Some(m) = &opts.overrides.modulepath {
                    r.config.modulepath = Some(m.clone());
                }
                if let Some(m) = &opts.overrides.manifest {
                    r.config.manifest = Some(m.clone());
                }
                if let Some(e) = &opts.enc {
                    r.config.enc = Some(e.clone());
                }
                r
            });
            if let Ok(r) = &repo {
                self.env_dir = r.env_dir.clone();
            }
            self.control = Some(repo);
        }
        self
    }

    /// Reads the function mocks once for every node of this side.
    fn with_mocks(mut self, opts: &RefOptions) -> Prepared {
        let path = match (&opts.mocks, &self.control) {
            (Some(m), _) => Some(m.clone()),
            (None, Some(Ok(repo))) => repo.config.mocks.as_ref().map(|m| repo.root.join(m)),
            _ => None,
        };
        self.mocks = path
            .map(|p| FunctionMocks::from_file(&p).map(std::sync::Arc::new))
            .transpose();
        self
    }

    /// Deploys this side's own Puppetfile (each side of a diff has its
    /// own, so a module bump shows as the catalog changes it causes).
    fn with_modules(mut self, opts: &RefOptions) -> Prepared {
        match &mut self.control {
            Some(Ok(repo)) => {
                if let Err(e) = repo.deploy_modules(&opts.modules) {
                    self.control = Some(Err(e));
                }
            }
            Some(Err(_)) => {}
            None => {
                self.modules = crate::puppetfile::deploy(&self.env_dir, &opts.modules)
                    .map(|d| {
                        if let Some(d) = &d {
                            for e in &d.errors {
                                eprintln!("{}: {e}", self.label);
                            }
                        }
                        d.map(std::sync::Arc::new)
                    })
                    .transpose();
            }
        }
        self
    }

    /// `--hiera-config` and `--eyaml-missing-key` over a control repo's
    /// config.
    fn with_hiera_options(mut self, opts: &RefOptions) -> Prepared {
        if let Some(Ok(repo)) = &mut self.control {
            repo.apply_hiera_options(opts.hiera_config.clone(), opts.eyaml_missing_key);
        }
        self
    }

    fn deployment(&self) -> Option<&crate::puppetfile::Deployment> {
        match (&self.control, &self.modules) {
            (Some(Ok(repo)), _) => repo.modules.as_deref(),
            (_, Some(Ok(d))) => Some(d),
            _ => None,
        }
    }

    /// The overrides a side without a control repo boots with: the
    /// command line's, with its Hiera options.
    fn side_overrides(&self, opts: &RefOptions) -> Overrides {
        let mut o = opts.overrides.clone();
        if let Some(h) = &opts.hiera_config {
            let h = self.env_dir.join(h);
            // The operator names it: the file and its levels' data
            // directories are read roots, not its whole directory.
            if !h.starts_with(&self.root) {
                o.grants
                    .extend(puppet_compiler::hiera::config::operator_grants(&h));
            }
            o.hiera_config = Some(h);
        }
        if let Some(m) = opts.eyaml_missing_key {
            o.eyaml.missing_key = m;
        }
        o
    }

    /// Whether `generate()` may run its command on this side: `--allow-generate`,
    /// or the side's control repo config.
    fn allows_generate(&self, opts: &RefOptions) -> bool {
        opts.allow_generate || matches!(&self.control, Some(Ok(repo)) if repo.config.allow_generate)
    }

    /// The Puppet version this side compiles as: `--puppet`, or the side's
    /// control repo config, or 8.
    fn puppet(&self, opts: &RefOptions) -> PuppetVersion {
        match (opts.puppet, &self.control) {
            (Some(v), _) => v,
            (None, Some(Ok(repo))) => repo.puppet(),
            _ => PuppetVersion::default(),
        }
    }

    /// The nodes' time and memory budget on this side: the command line's,
    /// else the side's control repo config, else the defaults.
    fn budget(&self, opts: &RefOptions) -> Limits {
        let (timeout, memory) = match &self.control {
            Some(Ok(repo)) => (repo.config.node_timeout, repo.config.node_memory),
            _ => (None, None),
        };
        Limits::resolve(opts.node_timeout.or(timeout), opts.node_memory.or(memory))
    }

    /// The environment (or why it cannot boot: every node of this side
    /// then fails with that error), and the directories
    /// `puppet:///modules/...` sources resolve in: its modulepath, else
    /// `<env>/modules`.
    fn boot(&self, opts: &RefOptions) -> Booted {
        let envs = match &self.control {
            Some(Ok(repo)) => Ok(repo.environments_granting(&opts.overrides.grants)),
            Some(Err(e)) => Err(e.clone()),
            // `--environmentpath` is a directory of each side's tree.
            None => match &self.modules {
                Some(Err(e)) => Err(e.clone()),
                modules => {
                    let mut overrides = self.side_overrides(opts);
                    if let Some(Ok(d)) = modules {
                        d.apply(&mut overrides);
                    }
                    Ok(Environments::around(
                        &self.env_dir,
                        opts.environmentpath
                            .as_ref()
                            .map(|p| self.root.join(p))
                            .as_deref(),
                        overrides,
                    ))
                }
            },
        };
        // The default environment's boot error is every default node's.
        let default = envs.as_ref().map(|e| e.get(None));
        let (mut modulepath, files) = match &default {
            Ok(Ok(e)) => (e.modulepath.clone(), e.shared_files()),
            _ => (
                super::content::default_modulepath(&self.env_dir),
                super::content::confined_files(std::slice::from_ref(&self.env_dir), &[]),
            ),
        };
        // `puppet:///modules/` sources of deployed modules are read from
        // their trees in the cache.
        if let Some(d) = self.deployment() {
            let mut trees = d.tree_parents();
            trees.append(&mut modulepath);
            modulepath = trees;
        }
        (envs, modulepath, files)
    }
}

/// A side's environment (or why it did not boot), and where and through
/// what its `source` contents are read.
type Booted = (
    Result<Environments, String>,
    Vec<PathBuf>,
    std::sync::Arc<dyn puppet_compiler::files::FileSystem>,
);

fn spec_name(spec: &NodeSpec) -> &str {
    match spec {
        Ok(n) => &n.name,
        Err((name, _)) => name,
    }
}

/// A node made ready to compile on `side`: the side's mocks, budget,
/// Puppet version, `--setting`s, fact overrides and exports applied.
fn prepare_node(
    side: &Prepared,
    spec: NodeSpec,
    allow_generate: bool,
    puppet: PuppetVersion,
    opts: &RefOptions,
    budget: Limits,
) -> Result<NodeInfo, String> {
    let mut node = spec.map_err(|(_, e)| e)?;
    if let Some(m) = side.mocks.as_ref().map_err(Clone::clone)? {
        node.function_mocks = m.clone();
    }
    node.allow_generate = allow_generate;
    node.budget = budget;
    node.puppet = puppet;
    if let Some(store) = &opts.exports {
        node.exports = store.clone();
        node.settings.storeconfigs.get_or_insert(true);
    }
    for s in &opts.settings {
        node.settings.set_assignment(s).map_err(|e| e.to_string())?;
    }
    for o in &opts.fact_overrides {
        o.apply(std::sync::Arc::make_mut(&mut node.facts));
    }
    Ok(node)
}

/// One node's catalog, compiled as `pverify compile` does.
fn compile_prepared(side: &Prepared, env: &Environment, node: NodeInfo) -> SideCatalog {
    let name = node.name.clone();
    puppet_compiler::eval::compile(env, node)
        .map(|c| c.catalog)
        .map_err(|e| match side.deployment() {
            Some(d) => d.explain(e.for_node(&name)),
            None => e.for_node(&name),
        })
        .map_err(|e| side.within_tree(e))
}

impl Prepared {
    /// A node of this side made ready to compile.
    fn prepare(&self, spec: NodeSpec, opts: &RefOptions) -> Result<NodeInfo, String> {
        prepare_node(
            self,
            spec,
            self.allows_generate(opts),
            self.puppet(opts),
            opts,
            self.budget(opts),
        )
    }
}

/// One node's catalog, compiled as `pverify compile` does.
fn compile_node(
    side: &Prepared,
    envs: &Result<Environments, String>,
    spec: NodeSpec,
    opts: &RefOptions,
) -> SideCatalog {
    let node = side.prepare(spec, opts)?;
    let envs = envs.as_ref().map_err(Clone::clone)?;
    let env = envs.get(node.environment.as_deref())?;
    compile_prepared(side, &env, node)
}

/// A side's catalog: compiled, or a cache entry whose catalog is read
/// only when needed (an unaffected node's without sources never is).
enum Got {
    Compiled(SideCatalog),
    Cached(Entry),
}

/// Which side of the diff a compile is for (counted apart).
#[derive(Clone, Copy)]
enum Which {
    From,
    To,
}

/// Whether a catalog may come from the cache or must be compiled.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Lookup {
    CacheFirst,
    CompileOnly,
}

/// What the recorded compiles of a run share: the options, the
/// observations' table, the cache, the counters.
struct Recorder<'r> {
    opts: &'r RefOptions,
    table: &'r Table,
    cache: Option<&'r ImpactCache>,
    counters: &'r Counters,
}

impl Recorder<'_> {
    /// Node `id`'s catalog on `side` with its read set (`None` when the
    /// catalog cannot stand for another side's: the compile failed, or
    /// the catalog names its side's tree): from the cache when a cached
    /// read set still holds (and `lookup` allows), else compiled (and
    /// cached).
    fn get(
        &self,
        id: &str,
        side: &Prepared,
        envs: &Result<Environments, String>,
        spec: &NodeSpec,
        lookup: Lookup,
        which: Which,
    ) -> (Got, Option<ReadSet>) {
        let node = match side.prepare(spec.clone(), self.opts) {
            Ok(n) => n,
            Err(e) => return (Got::Compiled(Err(e)), None),
        };
        let env = match envs
            .as_ref()
            .map_err(Clone::clone)
            .and_then(|e| e.get(node.environment.as_deref()))
        {
            Ok(e) => e,
            Err(e) => return (Got::Compiled(Err(e)), None),
        };
        let key = self.table.inputs_key(&node, &env, &side.root);
        // Cached by the key pairing the sides' nodes (a matrix has one
        // certname on several fact sets).
        let hit = match self.cache {
            Some(c) if lookup == Lookup::CacheFirst => c.lookup(id, key, &env, &side.root),
            _ => None,
        };
        if let Some(entry) = hit {
            self.counters.cached.fetch_add(1, Ordering::Relaxed);
            let reads = entry.reads.clone();
            return (Got::Cached(entry), Some(reads));
        }
        let (catalog, questions) = puppet_compiler::reads::record(|| {
            puppet_compiler::reads::replay(&env.boot_reads);
            compile_prepared(side, &env, node)
        });
        let count = match which {
            Which::From => &self.counters.from,
            Which::To => &self.counters.to,
        };
        count.fetch_add(1, Ordering::Relaxed);
        let reads = match &catalog {
            Ok(c) if !impact::names_tree(c, &side.root) => {
                let reads = self.table.answer(key, questions, &env, &side.root);
                if let Some(cache) = self.cache {
                    cache.store(id, &reads, c);
                }
                Some(reads)
            }
            _ => None,
        };
        (Got::Compiled(catalog), reads)
    }

    /// The catalog of `got`: a cached one read (compiled again when its
    /// file is gone or corrupt).
    #[allow(clippy::too_many_arguments)]
    fn catalog(
        &self,
        got: Got,
        id: &str,
        side: &Prepared,
        envs: &Result<Environments, String>,
        spec: &NodeSpec,
        which: Which,
    ) -> SideCatalog {
        match got {
            Got::Compiled(c) => c,
            Got::Cached(entry) => match self.cache.and_then(|c| c.catalog(&entry.catalog)) {
                Some(c) => Ok(c),
                None => {
                    // Counted as a hit when found; it is a compile after all.
                    self.counters.cached.fetch_sub(1, Ordering::Relaxed);
                    match self.get(id, side, envs, spec, Lookup::CompileOnly, which).0 {
                        Got::Compiled(c) => c,
                        Got::Cached(_) => Err("cache".into()),
                    }
                }
            },
        }
    }

    /// Whether `reads` (a `from` catalog's) still holds for the node `spec`
    /// on `side`: its catalog then stands for this side's.
    fn still_holds(
        &self,
        reads: &ReadSet,
        side: &Prepared,
        envs: &Result<Environments, String>,
        spec: &NodeSpec,
    ) -> bool {
        let Ok(node) = side.prepare(spec.clone(), self.opts) else {
            return false;
        };
        let Ok(env) = envs
            .as_ref()
            .map_err(Clone::clone)
            .and_then(|e| e.get(node.environment.as_deref()))
        else {
            return false;
        };
        let key = self.table.inputs_key(&node, &env, &side.root);
        self.table.still_holds(reads, key, &env, &side.root)
    }
}

/// The compiles of a run, counted from parallel workers.
#[derive(Default)]
struct Counters {
    from: AtomicUsize,
    to: AtomicUsize,
    skipped: AtomicUsize,
    cached: AtomicUsize,
}

/// Compiles both sides and compares them, node by node: each node's two
/// catalogs compile in parallel (`rayon::join`), nodes run in parallel, and
/// a node's catalogs are dropped as soon as they are compared, so memory
/// does not grow with the number of nodes.
///
/// In `mode` ([`impact`]): by default a node whose `from`
/// read set still holds on `to` is not compiled on `to` (its `from`
/// catalog stands for it); with a `cache`, `from` catalogs whose read set
/// still holds are not compiled either.
pub fn diff_refs(
    from: &Prepared,
    to: &Prepared,
    nodes: &dyn NodeSource,
    opts: &RefOptions,
    ignore: Ignore,
    mode: Mode,
    cache: Option<&ImpactCache>,
) -> Result<(DiffReport, ImpactStats), String> {
    if mode != Mode::Full || cache.is_some() {
        puppet_compiler::reads::enable();
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.jobs.unwrap_or(0))
        // Deep manifests recurse in the evaluator, as in `pverify compile`.
        .stack_size(64 << 20)
        .build()
        .map_err(|e| e.to_string())?;
    let counters = Counters::default();
    let wrong_skips = std::sync::Mutex::new(Vec::new());
    let own_table = Table::default();
    let rec = Recorder {
        opts,
        table: cache.map_or(&own_table, |c| &c.table),
        cache,
        counters: &counters,
    };
    let report = pool.install(|| {
        let ((env_a, ma, fa), (env_b, mb, fb)) = rayon::join(|| from.boot(opts), || to.boot(opts));
        let mut pairs: BTreeMap<String, (Option<NodeSpec>, Option<NodeSpec>)> = BTreeMap::new();
        for (key, spec) in nodes.nodes(from) {
            pairs.entry(key).or_default().0 = Some(spec);
        }
        for (key, spec) in nodes.nodes(to) {
            pairs.entry(key).or_default().1 = Some(spec);
        }
        let total = pairs.len();
        let pairs: Vec<_> = match opts.shard {
            Some((i, n)) => {
                crate::control::shard_by(pairs.into_iter().collect(), |p| p.0.as_str(), i, n)
            }
            None => pairs.into_iter().collect(),
        };
        if let (Some(shard), true) = (opts.shard, pairs.is_empty() && total > 0) {
            return Err(empty_shard(shard, total));
        }
        let ctx = CompareContext {
            from_modulepath: ma,
            to_modulepath: mb,
            from_files: Some(fa),
            to_files: Some(fb),
            ignore,
        };
        let outcomes = pairs
            .into_par_iter()
            .map(|(name, (a, b))| {
                // The new side's names, else the old side's.
                let names = match (&b, &a) {
                    (Some(Ok(node)), _) | (_, Some(Ok(node))) => {
                        NodeNames::of_node(&node.name, &node.facts)
                    }
                    _ => NodeNames::certname(&name),
                };
                if mode == Mode::Full && cache.is_none() {
                    let (ca, cb) = rayon::join(
                        || a.map(|s| compile_node(from, &env_a, s, opts)),
                        || b.map(|s| compile_node(to, &env_b, s, opts)),
                    );
                    counters
                        .from
                        .fetch_add(ca.is_some() as usize, Ordering::Relaxed);
                    counters
                        .to
                        .fetch_add(cb.is_some() as usize, Ordering::Relaxed);
                    NodeOutcome {
                        name,
                        status: node_status(ca, cb, &ctx),
                        names,
                    }
                } else {
                    let status = impact_node(
                        &rec,
                        &name,
                        (from, &env_a, a),
                        (to, &env_b, b),
                        mode,
                        &ctx,
                        &wrong_skips,
                    );
                    NodeOutcome {
                        name,
                        status,
                        names,
                    }
                }
            })
            .collect();
        Ok(DiffReport {
            from_label: from.label.clone(),
            to_label: to.label.clone(),
            nodes: outcomes,
        })
    })?;
    let mut wrong_skips = wrong_skips.into_inner().unwrap_or_else(|p| p.into_inner());
    wrong_skips.sort();
    let stats = ImpactStats {
        compiled_from: counters.from.into_inner(),
        compiled_to: counters.to.into_inner(),
        skipped: counters.skipped.into_inner(),
        cached: counters.cached.into_inner(),
        wrong_skips,
    };
    if let Some(c) = cache {
        c.save()?;
    }
    Ok((report, stats))
}

/// One node's status in impact mode (or under a cache): `from` compiled
/// (or cached) with its read set; `to` compiled only when the read set no
/// longer holds there (always under `--verify-impact`, which then checks
/// that a node whose read set held kept its catalog).
fn impact_node(
    rec: &Recorder<'_>,
    id: &str,
    (from, env_a, a): (&Prepared, &Result<Environments, String>, Option<NodeSpec>),
    (to, env_b, b): (&Prepared, &Result<Environments, String>, Option<NodeSpec>),
    mode: Mode,
    ctx: &CompareContext,
    wrong_skips: &std::sync::Mutex<Vec<String>>,
) -> NodeStatus {
    let (got_a, reads) = match &a {
        Some(s) => {
            let (g, r) = rec.get(id, from, env_a, s, Lookup::CacheFirst, Which::From);
            (Some(g), r)
        }
        None => (None, None),
    };
    let holds = match (&reads, &b) {
        (Some(r), Some(spec)) => rec.still_holds(r, to, env_b, spec),
        _ => false,
    };
    if holds && mode == Mode::Impact {
        rec.counters.skipped.fetch_add(1, Ordering::Relaxed);
        let catalog = match got_a {
            // Unaffected and nothing read from the sides' files: no change,
            // without reading the catalog.
            Some(Got::Cached(e)) if !e.sources => return NodeStatus::Unchanged,
            Some(got) => rec.catalog(got, id, from, env_a, a.as_ref().expect("from"), Which::From),
            None => unreachable_status(),
        };
        // Compared with itself: a `source` read from each side may differ.
        return node_status(Some(catalog.clone()), Some(catalog), ctx);
    }
    let ca = match (got_a, &a) {
        (Some(got), Some(spec)) => Some(rec.catalog(got, id, from, env_a, spec, Which::From)),
        _ => None,
    };
    let cb = b.as_ref().map(|spec| {
        // `--verify-impact` proves the skips with fresh compiles.
        let lookup = match mode {
            Mode::Verify => Lookup::CompileOnly,
            _ => Lookup::CacheFirst,
        };
        let (got, _) = rec.get(id, to, env_b, spec, lookup, Which::To);
        rec.catalog(got, id, to, env_b, spec, Which::To)
    });
    if holds && mode == Mode::Verify {
        // `skipped` counts the nodes the default would have skipped.
        rec.counters.skipped.fetch_add(1, Ordering::Relaxed);
    }
    if holds && !same_catalog(ca.as_ref(), cb.as_ref()) {
        wrong_skips
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(id.to_string());
    }
    node_status(ca, cb, ctx)
}

/// A `from` side that was there (`holds` needs its read set).
fn unreachable_status() -> SideCatalog {
    Err("no catalog".into())
}

/// Whether a skipped node's `to` catalog is its `from` catalog: no change
/// at all between them (no ignore rule, sources compared by name).
fn same_catalog(a: Option<&SideCatalog>, b: Option<&SideCatalog>) -> bool {
    match (a, b) {
        (Some(Ok(a)), Some(Ok(b))) => {
            super::compare::compare(a, b, &CompareContext::default()).is_ok_and(|c| c.is_empty())
        }
        _ => false,
    }
}

/// An empty shard compares nothing: no evidence of "no change", as
/// `check --shard` says of its own.
fn empty_shard((i, n): (usize, usize), total: usize) -> String {
    format!("--shard {i}/{n} selects no node (the two sides have {total})")
}

/// One side's catalogs by node name.
pub type Catalogs = Vec<(String, SideCatalog)>;

/// `--shard I/N` over catalog sets: the nodes of that shard of the union
/// of both sides' names.
pub fn shard_catalogs(
    from: Catalogs,
    to: Catalogs,
    (i, n): (usize, usize),
) -> Result<(Catalogs, Catalogs), String> {
    let union: std::collections::BTreeSet<String> =
        from.iter().chain(&to).map(|(k, _)| k.clone()).collect();
    let total = union.len();
    let kept: std::collections::HashSet<String> =
        crate::control::shard_by(union.into_iter().collect(), |k| k.as_str(), i, n)
            .into_iter()
            .collect();
    if kept.is_empty() && total > 0 {
        return Err(empty_shard((i, n), total));
    }
    let keep = |side: Catalogs| -> Catalogs {
        side.into_iter().filter(|(k, _)| kept.contains(k)).collect()
    };
    Ok((keep(from), keep(to)))
}

/// Catalogs from a file (one node) or a directory of `<node>.json` files.
/// A directory written by `pverify compile --out-dir` also has
/// `report.json`, whose failed nodes become failed catalogs here.
/// Accepted shapes: Puppet's catalog JSON, the older wrapper
/// `{"document_type": "Catalog", "data": {...}}`, and PuppetDB's export
/// (`certname`, edges with `{"type", "title"}` objects).
pub fn read_catalogs(path: &Path) -> Result<Vec<(String, SideCatalog)>, String> {
    if path.is_file() {
        let c = read_catalog(path);
        let name = c
            .as_ref()
            .ok()
            .and_then(catalog_name)
            .unwrap_or_else(|| stem(path));
        return Ok(vec![(name, c)]);
    }
    let rd = std::fs::read_dir(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut files: Vec<PathBuf> = rd
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        if f.file_name().is_some_and(|n| n == "report.json") {
            out.extend(failed_from_report(&f));
            continue;
        }
        out.push((stem(&f), read_catalog(&f)));
    }
    Ok(out)
}

fn catalog_name(c: &J) -> Option<String> {
    c.get("name")
        .or_else(|| c.get("certname"))
        .and_then(J::as_str)
        .map(str::to_string)
}

fn failed_from_report(path: &Path) -> Vec<(String, SideCatalog)> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Vec::new();
    };
    let Ok(doc) = serde_json::from_str::<J>(&text) else {
        return Vec::new();
    };
    doc.get("nodes")
        .and_then(J::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .filter(|n| n.get("status").and_then(J::as_str) == Some("failed"))
        .filter_map(|n| {
            let name = n.get("name")?.as_str()?.to_string();
            let e = n
                .get("error")
                .and_then(J::as_str)
                .unwrap_or("failed")
                .to_string();
            Some((name, Err(e)))
        })
        .collect()
}

fn read_catalog(path: &Path) -> SideCatalog {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let doc: J = serde_json::from_str(&text)
        .map_err(|e| format!("{}:{}:{}: {e}", path.display(), e.line(), e.column()))?;
    let mut doc = match doc {
        J::Object(mut o) if o.get("document_type").and_then(J::as_str) == Some("Catalog") => {
            o.remove("data").unwrap_or(J::Null)
        }
        other => other,
    };
    // PuppetDB: edges name their ends as objects.
    if let Some(edges) = doc.get_mut("edges").and_then(J::as_array_mut) {
        for e in edges {
            for end in ["source", "target"] {
                if let Some(J::Object(o)) = e.get(end) {
                    let t = o.get("type").and_then(J::as_str).unwrap_or_default();
                    let title = o.get("title").and_then(J::as_str).unwrap_or_default();
                    e[end] = J::String(format!("{t}[{title}]"));
                }
            }
        }
    }
    if doc.get("resources").and_then(J::as_array).is_none() {
        return Err(format!(
            "{}: not a catalog (no 'resources' array)",
            path.display()
        ));
    }
    Ok(doc)
}
