//! `pverify.yaml`: how a control repo describes its check (the schema is
//! documented in `docs/harness.md`). Paths are relative to the directory of
//! the config file unless said otherwise.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::Value;

use crate::catalog_diff::Ignore;
use crate::reference::PuppetVersion;

/// The config file's name in a control repo.
pub const CONFIG_FILE: &str = "pverify.yaml";

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// The environment directory (`manifests/`, `modules/`,
    /// `environment.conf`); default `.`.
    #[serde(default = "dot")]
    pub environment: PathBuf,
    /// The environment's name (`$environment`); default `production`.
    #[serde(default = "production")]
    pub environment_name: String,
    /// A modulepath instead of `environment.conf`'s, relative to the
    /// environment directory.
    #[serde(default)]
    pub modulepath: Option<Vec<PathBuf>>,
    /// Puppet's `basemodulepath` (what `$basemodulepath` in
    /// `environment.conf` stands for, and the modulepath's tail when it has
    /// none): directories, absolute, relative to the config's directory, or
    /// starting with `$PVERIFY_PUPPET8_ROOT` (the Debian 13 root's
    /// directory). Default: pverify's Debian default for pverify, an empty
    /// directory for `--oracle puppet`.
    #[serde(default)]
    pub basemodulepath: Option<Vec<String>>,
    /// The main manifest instead of `environment.conf`'s, relative to the
    /// environment directory.
    #[serde(default)]
    pub manifest: Option<PathBuf>,
    /// A `hiera.yaml` that replaces the environment's for every node
    /// (onceover's test hiera.yaml), relative to the environment directory;
    /// its relative datadirs start at the environment directory, as if it
    /// were there. Puppet's own `hiera_config` setting (the global layer)
    /// is `settings: {hiera_config: FILE}`. docs/hiera.md.
    #[serde(default)]
    pub hiera_config: Option<PathBuf>,
    /// Where fact sets are (`<name>.facts` or `<name>.json`: a facts hash,
    /// or `puppet facts` output); default `factsets`. A name with no file
    /// there is pverify's built-in set of that name (`crate::factsets`).
    #[serde(default = "factsets")]
    pub factsets: PathBuf,
    /// Where golden catalogs are (`<node>.json`); default `golden`.
    #[serde(default = "golden")]
    pub golden: PathBuf,
    #[serde(default)]
    pub nodes: Nodes,
    /// Differences the comparison leaves out.
    #[serde(default)]
    pub ignores: Vec<Ignore>,
    /// A file of function mocks (onceover's `functions:` YAML), applied when
    /// pverify compiles (not with `--oracle puppet`).
    #[serde(default)]
    pub mocks: Option<PathBuf>,
    /// Lets `generate()` run its command (docs/safety.md); refused by default.
    #[serde(default)]
    pub allow_generate: bool,
    /// Puppet settings for every node (e.g. `strict_variables: true`).
    #[serde(default)]
    pub settings: BTreeMap<String, Value>,
    /// The Puppet version to compile as, `7` or `8` (default 8; `--puppet`
    /// overrides it).
    #[serde(default, deserialize_with = "puppet_version")]
    pub puppet: Option<PuppetVersion>,
    // Environment set-up as a Puppet server does it (issue 26).
    /// An external node classifier, relative to the config's directory:
    /// run with each certname as `pverify compile --enc` runs it (its
    /// `classes`, `parameters` and `environment` go into the node, for
    /// pverify and `--oracle puppet` alike).
    #[serde(default)]
    pub enc: Option<PathBuf>,
    /// Puppet's `environmentpath`, relative to the config's directory: each
    /// directory below it is an environment, and a node's environment
    /// selects the one that compiles it (`environment_name` for a node that
    /// names none). Default: the repo (`environment`) is the one
    /// environment, named `environment_name`.
    #[serde(default)]
    pub environmentpath: Option<PathBuf>,
    /// Exported resources (`@@`, `<<| |>>`; docs/harness.md): other nodes'
    /// exports from a PuppetDB resources answer, and/or those of the nodes
    /// compiled in the same run. Either turns `storeconfigs` on.
    #[serde(default)]
    pub exports: Option<ExportsConfig>,
    /// hiera-eyaml: `eyaml: {missing_key: fail|redact}` (docs/hiera.md).
    #[serde(default)]
    pub eyaml: EyamlConfig,
    /// Seconds one node may compile (default 60, 0 no limit;
    /// `--node-timeout` overrides it; `puppet_compiler::budget`).
    #[serde(default, deserialize_with = "node_timeout")]
    pub node_timeout: Option<f64>,
    /// Memory one node may allocate: `512M`, `2G`, a bare number in MiB
    /// (default 2G, 0 no limit; `--node-memory` overrides it).
    #[serde(default, deserialize_with = "node_memory")]
    pub node_memory: Option<u64>,
}

/// `exports:` of pverify.yaml.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExportsConfig {
    /// A PuppetDB `/pdb/query/v4/resources` answer (a fleet snapshot),
    /// relative to the config's directory.
    #[serde(default)]
    pub file: Option<PathBuf>,
    /// Collect the exports of the nodes compiled in this run: compile
    /// every node, gather their exports, and compile again the nodes whose
    /// view of the other nodes' exports changed.
    #[serde(default)]
    pub run: bool,
}

/// `eyaml:` in pverify.yaml.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EyamlConfig {
    /// Without the private key: `fail` as Puppet does (default), or
    /// `redact` each encrypted block to a digest of its ciphertext.
    #[serde(default, deserialize_with = "missing_key")]
    pub missing_key: puppet_compiler::hiera::eyaml::MissingKey,
}

fn missing_key<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<puppet_compiler::hiera::eyaml::MissingKey, D::Error> {
    let text = String::deserialize(d)?;
    text.parse().map_err(serde::de::Error::custom)
}

impl Config {
    /// The nodes' time and memory budget.
    pub fn budget(&self) -> puppet_compiler::budget::Limits {
        puppet_compiler::budget::Limits::resolve(self.node_timeout, self.node_memory)
    }
}

/// `node_timeout: 30` / `node_timeout: 2.5`.
fn node_timeout<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    let v = Value::deserialize(d)?;
    let text = match &v {
        Value::Number(n) => n.to_string(),
        other => other.to_string(),
    };
    puppet_compiler::budget::parse_seconds(&text)
        .map(Some)
        .map_err(|e| serde::de::Error::custom(format!("node_timeout: {e}")))
}

/// `node_memory: 2G` / `node_memory: 512` (MiB).
fn node_memory<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    let v = Value::deserialize(d)?;
    let text = match &v {
        Value::Number(n) => n.to_string(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    puppet_compiler::budget::parse_size(&text)
        .map(Some)
        .map_err(|e| serde::de::Error::custom(format!("node_memory: {e}")))
}

/// `puppet: 7` / `puppet: '8.10'`.
fn puppet_version<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<PuppetVersion>, D::Error> {
    let v = Value::deserialize(d)?;
    let text = match &v {
        Value::Number(n) => n.to_string(),
        Value::String(s) => s.clone(),
        _ => String::new(),
    };
    PuppetVersion::parse(&text)
        .map(Some)
        .ok_or_else(|| serde::de::Error::custom(format!("puppet: expected 7 or 8, got {v}")))
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Nodes {
    /// Node files (globs): Puppet's `puppet facts` format with optional ENC
    /// data, as `pverify compile --facts` reads them. The node is named by
    /// its certname.
    #[serde(default)]
    pub files: Vec<String>,
    /// Node names × fact sets.
    #[serde(default)]
    pub matrix: Vec<MatrixEntry>,
    /// PuppetDB inventories (globs; the answer to `/pdb/query/v4/inventory`,
    /// a JSON array of `{certname, environment, facts, trusted}`): each
    /// entry is a node named by its certname.
    #[serde(default)]
    pub inventory: Vec<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatrixEntry {
    /// Certnames.
    pub names: Vec<String>,
    /// Fact sets (file stems in `factsets`). Each name is compiled once per
    /// fact set, as node `<certname>@<factset>`; without fact sets, once, as
    /// `<certname>`, with `facts` only.
    #[serde(default)]
    pub factsets: Vec<String>,
    /// Facts over the fact set's (each top-level key replaces the fact set's).
    #[serde(default)]
    pub facts: serde_json::Map<String, Value>,
    /// `$trusted['extensions']` (and optionally `external`): `{extensions: {...}}`.
    #[serde(default)]
    pub trusted: Option<Value>,
    /// ENC classes: a list, or a mapping class => parameters.
    #[serde(default)]
    pub classes: Option<Value>,
    /// ENC parameters (top-scope variables).
    #[serde(default)]
    pub parameters: Option<Value>,
    /// The nodes' environment (default `environment_name`), as an ENC's
    /// `environment:`.
    #[serde(default)]
    pub environment: Option<String>,
}

fn dot() -> PathBuf {
    PathBuf::from(".")
}
fn production() -> String {
    "production".into()
}
fn factsets() -> PathBuf {
    PathBuf::from("factsets")
}
fn golden() -> PathBuf {
    PathBuf::from("golden")
}

/// Reads `dir/pverify.yaml`.
pub fn read_config(dir: &Path) -> Result<Config, String> {
    let path = dir.join(CONFIG_FILE);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    // The YAML rules of node files (Puppet's: `yes` is true).
    let config: Config = puppet_model::yaml::from_str(&text).map_err(|e| {
        let loc = match e.line {
            0 => String::new(),
            line => format!(":{line}:{}", e.column),
        };
        format!("{}{loc}: {}", path.display(), e.message)
    })?;
    // onceover's class patterns name many classes, each tested alone; a
    // matrix entry's classes are all declared on each of its nodes.
    for e in &config.nodes.matrix {
        let names: Vec<&str> = match &e.classes {
            Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).collect(),
            Some(Value::Object(m)) => m.keys().map(String::as_str).collect(),
            _ => Vec::new(),
        };
        if let Some(p) = names
            .iter()
            .find(|c| c.len() > 1 && c.starts_with('/') && c.ends_with('/'))
        {
            return Err(format!(
                "{}: classes: {p} is a pattern (onceover's): a matrix entry's classes are all \
                 declared on each of its nodes, so list them; `pverify init --from-onceover` \
                 expands onceover's patterns into one entry per class",
                path.display()
            ));
        }
    }
    if config.nodes.files.is_empty()
        && config.nodes.matrix.is_empty()
        && config.nodes.inventory.is_empty()
    {
        return Err(format!(
            "{}: no nodes (give `nodes: {{files: [...]}}`, `nodes: {{matrix: [...]}}` or `nodes: {{inventory: [...]}}`)",
            path.display()
        ));
    }
    Ok(config)
}
