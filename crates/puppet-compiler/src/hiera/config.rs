//! `hiera.yaml` version 5: defaults, hierarchy levels and their locations.
//! A missing file means Puppet's default (`data/common.yaml`) for the global
//! layer; the environment and module layers exist only with a `hiera.yaml`.

use crate::files::FileSystem;
use std::path::{Path, PathBuf};

use puppet_model::Value;

#[derive(Clone, Debug)]
pub struct Config {
    /// The directory holding `hiera.yaml`: relative datadirs start here.
    pub root: PathBuf,
    /// The file itself (Puppet's errors about a level name it).
    pub file: PathBuf,
    pub levels: Vec<Level>,
    /// A version 3 file: ignored (with warnings) in environments and modules.
    pub version3: bool,
    /// A version 3 file Puppet's type check refuses: its error, raised
    /// after the deprecation warning, as Puppet does.
    pub version3_error: Option<String>,
}

#[derive(Clone, Debug)]
pub struct Level {
    pub name: String,
    /// The backend function's name (`yaml_data`, `json_data`).
    pub function: String,
    pub json: bool,
    /// `lookup_key: eyaml_lookup_key`: YAML files whose ENC blocks are
    /// decrypted with the keys `options` names.
    pub eyaml: bool,
    /// A backend function other than the built-in ones: its kind; the
    /// function is `function`, run as Puppet runs it (`None`: a built-in
    /// backend pverify reads natively).
    pub custom: Option<BackendKind>,
    /// The level's `options:` (or the defaults'), not yet interpolated.
    pub options: Option<puppet_model::Map>,
    pub datadir: PathBuf,
    pub locations: Vec<Location>,
}

/// The three kinds of Hiera 5 backend functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackendKind {
    /// `data_hash(options, context)`: all of a location's data at once.
    DataHash,
    /// `lookup_key(key, options, context)`: one root key's value.
    LookupKey,
    /// `data_dig(segments, options, context)`: one dotted key's value.
    DataDig,
}

impl BackendKind {
    /// The `hiera.yaml` key naming it, as Puppet's texts name the kind.
    pub fn tag(self) -> &'static str {
        match self {
            BackendKind::DataHash => "data_hash",
            BackendKind::LookupKey => "lookup_key",
            BackendKind::DataDig => "data_dig",
        }
    }
}

#[derive(Clone, Debug)]
pub enum Location {
    Path(String),
    Glob(String),
    /// `[variable, key, template]`.
    Mapped(String, String, String),
    /// `uri`/`uris` (custom backends only: passed as the `uri` option).
    Uri(String),
}

/// How Puppet's type check of a `hiera.yaml` names the file
/// (`The Lookup Configuration at 'PATH' has wrong type, ...`).
pub const TYPE_MISMATCH_SUBJECT: &str = "The Lookup Configuration at";

/// The default v5 configuration.
pub fn default_config(root: &Path) -> Config {
    Config {
        root: root.to_path_buf(),
        file: root.join("hiera.yaml"),
        version3: false,
        version3_error: None,
        levels: vec![Level {
            function: "yaml_data".into(),
            name: "Common".into(),
            json: false,
            eyaml: false,
            custom: None,
            options: None,
            datadir: root.join("data"),
            locations: vec![Location::Path("common.yaml".into())],
        }],
    }
}

fn get<'a>(h: &'a puppet_model::Map, k: &str) -> Option<&'a Value> {
    h.get(&Value::string(k))
}

/// Interprets a parsed `hiera.yaml` found at `path`.
pub fn parse(path: &Path, doc: &Value) -> Result<Config, String> {
    parse_rooted(path, path.parent().unwrap_or(Path::new("/")), doc)
}

/// [`parse`], with relative datadirs starting at `root`.
pub fn parse_rooted(path: &Path, root: &Path, doc: &Value) -> Result<Config, String> {
    let root = root.to_path_buf();
    let Value::Hash(h) = doc else {
        return Ok(Config {
            file: path.to_path_buf(),
            ..default_config(&root)
        });
    };
    let version = get(h, "version").map(|v| v.to_string());
    match version.as_deref() {
        Some("5") => super::config_type::check_v5(path, doc)?,
        None | Some("3") => {
            return Ok(Config {
                root,
                file: path.to_path_buf(),
                levels: Vec::new(),
                version3: true,
                version3_error: super::config_type::check_v3(path, doc).err(),
            })
        }
        Some(v) => {
            return Err(format!(
                "{}: pverify supports only hiera.yaml version 5 (got {v})",
                path.display()
            ))
        }
    }
    let defaults = match get(h, "defaults") {
        Some(Value::Hash(d)) => Some(d.clone()),
        _ => None,
    };
    let default_datadir = defaults
        .as_ref()
        .and_then(|d| get(d, "datadir"))
        .map(|v| v.to_string())
        .unwrap_or_else(|| "data".into());
    let default_backend = defaults.as_ref().and_then(|d| {
        ["data_hash", "lookup_key", "data_dig"]
            .iter()
            .find_map(|k| get(d, k).map(|v| (k.to_string(), v.to_string())))
    });
    let hierarchy = match get(h, "hierarchy") {
        Some(Value::Array(a)) => a.to_vec(),
        Some(_) => return Err(format!("{}: 'hierarchy' must be an array", path.display())),
        None => {
            let mut m = puppet_model::Map::default();
            m.insert(Value::string("name"), Value::string("Common"));
            m.insert(Value::string("path"), Value::string("common.yaml"));
            vec![Value::hash(m)]
        }
    };
    let mut levels = Vec::new();
    for entry in hierarchy {
        let Value::Hash(ref e) = entry else { continue };
        let name = get(e, "name").map(|v| v.to_string()).unwrap_or_default();
        let backend = ["data_hash", "lookup_key", "data_dig"]
            .iter()
            .find_map(|k| get(e, k).map(|v| (k.to_string(), v.to_string())))
            .or_else(|| default_backend.clone());
        // Puppet's default `defaults` (yaml_data) apply only without a
        // `defaults` section.
        let backend = match backend {
            Some(b) => b,
            None if defaults.is_none() => ("data_hash".into(), "yaml_data".into()),
            None => {
                return Err(format!(
                    "One of data_hash, lookup_key, data_dig, or hiera3_backend must be defined in hierarchy '{name}' (file: {})",
                    path.display()
                ))
            }
        };
        let (json, eyaml, custom) = match (backend.0.as_str(), backend.1.as_str()) {
            ("data_hash", "yaml_data") => (false, false, None),
            ("data_hash", "json_data") => (true, false, None),
            ("lookup_key", "eyaml_lookup_key") => (false, true, None),
            ("data_hash", _) => (false, false, Some(BackendKind::DataHash)),
            ("lookup_key", _) => (false, false, Some(BackendKind::LookupKey)),
            (_, _) => (false, false, Some(BackendKind::DataDig)),
        };
        let datadir = get(e, "datadir")
            .map(|v| v.to_string())
            .unwrap_or_else(|| default_datadir.clone());
        let strings = |v: &Value| -> Vec<String> {
            match v {
                Value::Array(a) => a.iter().map(|x| x.to_string()).collect(),
                other => vec![other.to_string()],
            }
        };
        let mut locations = Vec::new();
        if let Some(p) = get(e, "path") {
            locations.push(Location::Path(p.to_string()));
        }
        if let Some(p) = get(e, "paths") {
            locations.extend(strings(p).into_iter().map(Location::Path));
        }
        if let Some(p) = get(e, "glob") {
            locations.push(Location::Glob(p.to_string()));
        }
        if let Some(p) = get(e, "globs") {
            locations.extend(strings(p).into_iter().map(Location::Glob));
        }
        if custom.is_some() {
            if let Some(p) = get(e, "uri") {
                locations.push(Location::Uri(p.to_string()));
            }
            if let Some(p) = get(e, "uris") {
                locations.extend(strings(p).into_iter().map(Location::Uri));
            }
        }
        if let Some(Value::Array(m)) = get(e, "mapped_paths") {
            if m.len() == 3 {
                locations.push(Location::Mapped(
                    m[0].to_string(),
                    m[1].to_string(),
                    m[2].to_string(),
                ));
            }
        }
        let options =
            match get(e, "options").or_else(|| defaults.as_ref().and_then(|d| get(d, "options"))) {
                Some(Value::Hash(o)) => Some((**o).clone()),
                _ => None,
            };
        levels.push(Level {
            function: backend.1.clone(),
            name,
            json,
            eyaml,
            custom,
            options,
            datadir: root.join(datadir),
            locations,
        });
    }
    Ok(Config {
        root,
        file: path.to_path_buf(),
        levels,
        version3: false,
        version3_error: None,
    })
}

/// The files a glob pattern matches below `dir`, sorted (Ruby's `Dir.glob`).
/// Supports `*`, `?`, `**` and `{a,b}`.
pub fn glob(fs: &dyn FileSystem, dir: &Path, pattern: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for p in expand_braces(pattern) {
        let segs: Vec<&str> = p.split('/').filter(|s| !s.is_empty()).collect();
        walk(fs, dir, &segs, &mut out);
    }
    out.sort();
    out.dedup();
    out
}

fn expand_braces(p: &str) -> Vec<String> {
    let Some(open) = p.find('{') else {
        return vec![p.to_string()];
    };
    let Some(close) = p[open..].find('}').map(|c| c + open) else {
        return vec![p.to_string()];
    };
    let mut out = Vec::new();
    for alt in p[open + 1..close].split(',') {
        out.extend(expand_braces(&format!(
            "{}{}{}",
            &p[..open],
            alt,
            &p[close + 1..]
        )));
    }
    out
}

fn walk(fs: &dyn FileSystem, dir: &Path, segs: &[&str], out: &mut Vec<PathBuf>) {
    let Some((first, rest)) = segs.split_first() else {
        if fs.is_file(dir) {
            out.push(dir.to_path_buf());
        }
        return;
    };
    if *first == "**" {
        walk(fs, dir, rest, out);
        if let Ok(entries) = fs.read_dir(dir) {
            for e in entries {
                if fs.is_dir(&e) {
                    walk(fs, &e, segs, out);
                }
            }
        }
        return;
    }
    if !first.contains(['*', '?']) {
        walk(fs, &dir.join(first), rest, out);
        return;
    }
    if let Ok(entries) = fs.read_dir(dir) {
        for e in entries {
            let name = e
                .file_name()
                .map(|n| n.to_string_lossy().to_string())
                .unwrap_or_default();
            if !name.starts_with('.') && wildcard(first.as_bytes(), name.as_bytes()) {
                walk(fs, &e, rest, out);
            }
        }
    }
}

fn wildcard(p: &[u8], s: &[u8]) -> bool {
    match (p.first(), s.first()) {
        (None, None) => true,
        (Some(b'*'), _) => wildcard(&p[1..], s) || (!s.is_empty() && wildcard(p, &s[1..])),
        (Some(b'?'), Some(_)) => wildcard(&p[1..], &s[1..]),
        (Some(a), Some(b)) if a == b => wildcard(&p[1..], &s[1..]),
        _ => false,
    }
}

/// What `--hiera-config FILE` grants: the file and its levels' data
/// directories (the operator's configuration names them; the file's own
/// directory is not granted, as it may hold anything, e.g. Puppet's `ssl/`).
/// An unreadable or invalid file grants only itself: the compile then
/// reports it.
pub fn operator_grants(path: &Path) -> Vec<PathBuf> {
    let mut grants = vec![path.to_path_buf()];
    let Ok(text) = std::fs::read_to_string(path) else {
        return grants;
    };
    let Ok(doc) = puppet_model::yaml::load_hiera(&text) else {
        return grants;
    };
    if let Ok(c) = parse(path, &doc) {
        grants.extend(c.levels.into_iter().map(|l| l.datadir));
    }
    grants
}
