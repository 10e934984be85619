//! Golden snapshots of a control repo: `pverify check` compiles the node
//! matrix of `pverify.yaml` and compares each catalog (canonical form) with
//! `golden/<node>.json`; `pverify bless` rewrites the goldens that changed.
//!
//! Each node is turned into the same node object a spec-suite case makes
//! (`harness::node_for`), so nodes compile exactly as cases do, and the
//! Puppet oracle gets the same request.

mod config;

use std::path::{Path, PathBuf};
use std::time::Instant;

use rayon::prelude::*;
use serde_json::{json, Value};

pub use config::{read_config, Config, MatrixEntry, Nodes, CONFIG_FILE};

use crate::catalog_diff::{catalog_diff, render_changes, Paint};
use crate::harness::suite::mismatch;
use crate::harness::{
    canonicalize_catalog, node_for, oracle, relativize_text, Case, Expect, Versioned,
};
use crate::reference::{puppet8_root_dir, PuppetVersion, Reference};
use crate::report::{Failure, Item, Status};
use puppet_compiler::eval;
use puppet_compiler::loader::{Environment, Overrides};

/// A control repo and its config.
pub struct Repo {
    /// The directory of `pverify.yaml`.
    pub root: PathBuf,
    pub config: Config,
    /// The environment directory, absolute.
    pub env_dir: PathBuf,
}

/// One node of the matrix: its name (the golden's file stem) and the node
/// data, as a case without files.
#[derive(Debug, Clone)]
pub struct NodeSpec {
    /// `<certname>` or `<certname>@<factset>`.
    pub id: String,
    pub case: Case,
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
        let env_dir = std::fs::canonicalize(root.join(&config.environment)).map_err(|e| {
            format!(
                "environment {}: {e}",
                root.join(&config.environment).display()
            )
        })?;
        Ok(Repo {
            root,
            config,
            env_dir,
        })
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

    /// The golden file of a node.
    pub fn golden_path(&self, id: &str) -> PathBuf {
        self.root
            .join(&self.config.golden)
            .join(format!("{id}.json"))
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
                out.push(self.node_from_file(&p)?);
            }
            if matched == 0 {
                return Err(format!("nodes.files '{pattern}' matches no file"));
            }
        }
        for entry in &self.config.nodes.matrix {
            for name in &entry.names {
                if entry.factsets.is_empty() {
                    out.push(self.matrix_node(entry, name, None)?);
                }
                for fs in &entry.factsets {
                    out.push(self.matrix_node(entry, name, Some(fs))?);
                }
            }
        }
        out.sort_by(|a, b| a.id.cmp(&b.id));
        for w in out.windows(2) {
            if w[0].id == w[1].id {
                return Err(format!("node {} is listed twice", w[0].id));
            }
        }
        Ok(out)
    }

    fn base_case(&self, certname: &str) -> Case {
        let mut settings = serde_json::Map::new();
        for (k, v) in &self.config.settings {
            settings.insert(k.clone(), v.clone());
        }
        if let Some(h) = &self.config.hiera_config {
            settings.insert(
                "hiera_config".into(),
                Value::from(self.env_dir.join(h).to_string_lossy().into_owned()),
            );
        }
        Case {
            path: self.root.join(CONFIG_FILE),
            spec: vec![],
            description: String::new(),
            node: certname.to_string(),
            facts: json!({}),
            factset: None,
            trusted: None,
            classes: None,
            parameters: None,
            environment: self.config.environment_name.clone(),
            settings: (!settings.is_empty()).then_some(Value::Object(settings)),
            pending: Versioned::default(),
            files: vec![],
            expect: Versioned::both(Expect::None),
            expect_warnings: Versioned::default(),
            budget: self.config.budget(),
        }
    }

    fn matrix_node(
        &self,
        e: &MatrixEntry,
        name: &str,
        fs: Option<&String>,
    ) -> Result<NodeSpec, String> {
        let mut case = self.base_case(name);
        let mut facts = match fs {
            None => serde_json::Map::new(),
            Some(fs) => {
                let path = self
                    .root
                    .join(&self.config.factsets)
                    .join(format!("{fs}.facts"));
                let text = std::fs::read_to_string(&path)
                    .map_err(|e| format!("{}: factset '{fs}': {e}", path.display()))?;
                match serde_json::from_str::<Value>(&text) {
                    Ok(Value::Object(m)) => m,
                    Ok(_) => return Err(format!("{}: not a JSON object", path.display())),
                    Err(e) => return Err(format!("{}: not JSON: {e}", path.display())),
                }
            }
        };
        for (k, v) in &e.facts {
            facts.insert(k.clone(), v.clone());
        }
        case.facts = Value::Object(facts);
        case.trusted = e.trusted.clone();
        case.classes = e.classes.clone();
        case.parameters = e.parameters.clone();
        let id = match fs {
            None => name.to_string(),
            Some(fs) => format!("{name}@{fs}"),
        };
        Ok(NodeSpec { id, case })
    }

    /// A node file, read as `compile` and `diff --facts` read it (JSON, or
    /// YAML by Puppet's rules); the environment is the repo's.
    fn node_from_file(&self, path: &Path) -> Result<NodeSpec, String> {
        let node = puppet_compiler::facts::read_node_file(path)?;
        let doc = puppet_compiler::facts::node_to_json(&node);
        let mut case = self.base_case(&node.name);
        case.facts = doc["values"].clone();
        case.classes = doc.get("classes").cloned();
        case.parameters = doc.get("parameters").cloned();
        case.trusted = doc.get("trusted").cloned();
        Ok(NodeSpec {
            id: node.name,
            case,
        })
    }

    fn overrides(&self) -> Overrides {
        Overrides {
            modulepath: self
                .config
                .modulepath
                .as_ref()
                .map(|m| m.iter().map(|p| self.env_dir.join(p)).collect()),
            manifest: self.config.manifest.as_ref().map(|m| self.env_dir.join(m)),
            basemodulepath: self.basemodulepath().map(|dirs| {
                dirs.iter()
                    .map(|d| d.to_string_lossy())
                    .collect::<Vec<_>>()
                    .join(":")
            }),
        }
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
        let mut env = Environment::boot(&self.env_dir, &self.overrides())?;
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
        let env = self.boot()?;
        let dir = self.env_dir.to_string_lossy().into_owned();
        let mocks = match &self.config.mocks {
            Some(p) => Some(std::sync::Arc::new(eval::FunctionMocks::from_file(
                &self.root.join(p),
            )?)),
            None => None,
        };
        Ok(nodes
            .par_iter()
            .map(|n| {
                let start = Instant::now();
                let facts = n.case.facts.clone();
                let mut node = node_for(&n.case, &facts, self.puppet());
                if let Some(m) = &mocks {
                    node.function_mocks = m.clone();
                }
                node.allow_generate = self.config.allow_generate;
                let name = node.name.clone();
                let result = match eval::compile(&env, node) {
                    Ok(c) => Ok(canonicalize_catalog(&c.catalog, &dir)),
                    Err(e) => Err(relativize_text(&e.for_node(&name), &dir)),
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
    /// the environment is copied to a temporary environmentpath (under its
    /// `environment_name`, with `modulepath`/`manifest` written into its
    /// `environment.conf`); the config's `basemodulepath` is Puppet's.
    pub fn compile_with_puppet(
        &self,
        nodes: &[NodeSpec],
        workers: usize,
    ) -> Result<Vec<Compiled>, String> {
        let puppet = Reference::locate(self.puppet())?;
        let tmp = tempfile::Builder::new()
            .prefix("pverify-check-")
            .tempdir()
            .map_err(|e| format!("cannot make a temporary directory: {e}"))?;
        let env_dir = tmp.path().join(&self.config.environment_name);
        copy_dir(&self.env_dir, &env_dir).map_err(|e| format!("copying the environment: {e}"))?;
        let mut conf = Vec::new();
        if let Some(m) = &self.config.modulepath {
            let joined: Vec<String> = m.iter().map(|p| p.to_string_lossy().into_owned()).collect();
            conf.push(format!("modulepath = {}", joined.join(":")));
        }
        if let Some(m) = &self.config.manifest {
            conf.push(format!("manifest = {}", m.display()));
        }
        if !conf.is_empty() {
            std::fs::write(env_dir.join("environment.conf"), conf.join("\n") + "\n")
                .map_err(|e| format!("environment.conf: {e}"))?;
        }
        let envpath = tmp.path().to_string_lossy().into_owned();
        let basemodulepath = self.basemodulepath().map(|dirs| {
            dirs.iter()
                .map(|d| Value::from(d.to_string_lossy().into_owned()))
                .collect::<Vec<_>>()
        });
        let requests: Vec<Value> = nodes
            .iter()
            .map(|n| {
                let c = &n.case;
                let mut r = json!({"name": c.node, "facts": c.facts, "environmentpath": envpath,
                    "environment": c.environment});
                for (k, v) in [
                    ("trusted", &c.trusted),
                    ("classes", &c.classes),
                    ("parameters", &c.parameters),
                ] {
                    if let Some(v) = v {
                        r[k] = v.clone();
                    }
                }
                if let Some(dirs) = &basemodulepath {
                    r["basemodulepath"] = Value::Array(dirs.clone());
                }
                if let Some(Value::Object(s)) = &c.settings {
                    let mut s = s.clone();
                    if let Some(h) = &self.config.hiera_config {
                        s.insert(
                            "hiera_config".into(),
                            Value::from(env_dir.join(h).to_string_lossy().into_owned()),
                        );
                    }
                    r["settings"] = Value::Object(s);
                }
                r
            })
            .collect();
        let replies = oracle::compile_with_puppet(&puppet, &requests, workers)?;
        let dir = env_dir.to_string_lossy().into_owned();
        nodes
            .iter()
            .zip(&replies)
            .map(|(n, reply)| {
                let (got, _warnings) = oracle::observed(reply, &dir)?;
                let result = match got {
                    Expect::Catalog(c) => Ok(c),
                    Expect::Error(e) => Err(e),
                    Expect::None => Err("no result".into()),
                };
                Ok(Compiled {
                    id: n.id.clone(),
                    result,
                    millis: reply["millis"].as_u64().unwrap_or(0),
                })
            })
            .collect()
    }

    /// Compares compiled catalogs with the goldens: one report item per node.
    /// `against` names the compiler (`golden` for pverify, `puppet`).
    pub fn check(&self, compiled: &[Compiled], against: &str) -> Vec<Item> {
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
                let golden = std::fs::read_to_string(self.golden_path(&c.id));
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
                        if g.trim_end() != cat.trim_end() {
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
                    let old = std::fs::read_to_string(&path).ok();
                    if old.as_deref() == Some(text.as_str()) {
                        same += 1;
                        continue;
                    }
                    if let Err(e) = write_atomically(&path, &text) {
                        failed = true;
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
    let mut nodes = nodes;
    nodes.sort_by(|a, b| a.id.cmp(&b.id));
    nodes
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

/// A temporary file in the same directory renamed into place, so no reader
/// ever sees half a golden.
pub fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let mut tmp_name = path.file_name().unwrap_or_default().to_os_string();
    tmp_name.push(format!(".tmp{}", std::process::id()));
    let tmp = path.with_file_name(tmp_name);
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
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
