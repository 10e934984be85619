//! Where a fleet's nodes come from, all read by the one node-file reader
//! ([`super::parse_node_text`]):
//!
//! - a node file (`puppet facts` JSON or YAML, with ENC data);
//! - a Puppet server's YAML fact cache (`<certname>.yaml`, tagged
//!   `!ruby/object:Puppet::Node::Facts`), which is the same shape;
//! - PuppetDB's inventory (the answer to `/pdb/query/v4/inventory`): a JSON
//!   array of `{certname, timestamp, environment, facts, trusted}`;
//! - a directory of any of these (`*.json`, `*.yaml`, `*.yml`, sorted).

use std::path::{Path, PathBuf};

use puppet_model::Value;

use super::node::NodeInfo;

/// What a node source that cannot be read is told to look like.
pub(super) const EXPECTED: &str =
    "expected a node file ({\"name\": CERTNAME, \"values\": {FACTS}}, JSON or \
     YAML), a Puppet server's YAML fact cache, or PuppetDB's inventory (a JSON array of \
     {\"certname\", \"environment\", \"facts\", \"trusted\"})";

/// One node of a source, or why it could not be read: the name to report
/// it under (the file's stem, or the inventory entry) and the error.
pub type SourceNode = Result<NodeInfo, (String, String)>;

/// Every node a path gives: a directory's node files in sorted order, an
/// inventory's entries in order, or a node file's one node. A file that
/// cannot be read is one failed node; a directory that cannot be listed is
/// an error.
pub fn read_node_sources(path: &Path) -> Result<Vec<SourceNode>, String> {
    if path.is_dir() {
        let mut out = Vec::new();
        for file in node_files_in(path)? {
            out.extend(read_file_nodes(&file));
        }
        return Ok(out);
    }
    Ok(read_file_nodes(path))
}

/// The node files of a directory (`*.json`, `*.yaml`, `*.yml`), sorted.
pub fn node_files_in(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.is_file()
                && p.extension()
                    .is_some_and(|e| e == "json" || e == "yaml" || e == "yml")
        })
        .collect();
    files.sort();
    Ok(files)
}

fn stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

/// The nodes of one file: an inventory's entries, or one node.
fn read_file_nodes(path: &Path) -> Vec<SourceNode> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => return vec![Err((stem(path), format!("{}: {e}", path.display())))],
    };
    if text.trim_start().starts_with('[') {
        return parse_inventory(path, &text);
    }
    vec![super::parse_node_text(path, &text).map_err(|e| (stem(path), e))]
}

/// PuppetDB's inventory: each entry a node named by its `certname`, with
/// its `facts`, its `environment` (the one the node last asked for, which
/// selects its environment as a Puppet server would) and its `trusted`
/// data (its `extensions` and `external`).
pub fn parse_inventory(path: &Path, text: &str) -> Vec<SourceNode> {
    let doc = match super::parse_json(text).map(Value::into_array) {
        Ok(Ok(items)) => items,
        Ok(Err(_)) => {
            return vec![Err((
                stem(path),
                format!("{}: not an inventory ({EXPECTED})", path.display()),
            ))]
        }
        Err(e) => {
            return vec![Err((
                stem(path),
                format!(
                    "{}:{}:{}: not JSON: {e} ({EXPECTED})",
                    path.display(),
                    e.line(),
                    e.column()
                ),
            ))]
        }
    };
    doc.iter()
        .enumerate()
        .map(|(i, entry)| {
            let what = format!("{}: inventory entry {}", path.display(), i + 1);
            inventory_node(entry).map_err(|e| {
                let name = match entry {
                    Value::Hash(h) => h
                        .get(&Value::string("certname"))
                        .and_then(Value::as_str)
                        .map_or_else(|| format!("{}#{}", stem(path), i + 1), str::to_string),
                    _ => format!("{}#{}", stem(path), i + 1),
                };
                (name, format!("{what}: {e}"))
            })
        })
        .collect()
}

/// One inventory entry as the node document the reader takes.
fn inventory_node(entry: &Value) -> Result<NodeInfo, String> {
    let Value::Hash(ref h) = entry else {
        return Err("expected {\"certname\", \"facts\", ...}".into());
    };
    let get = |k: &str| h.get(&Value::string(k)).cloned();
    let Some(Value::String(ref certname)) = get("certname") else {
        return Err("missing 'certname'".into());
    };
    let facts = match get("facts") {
        Some(f @ Value::Hash(_)) => f,
        None | Some(Value::Undef) => Value::hash(Default::default()),
        Some(_) => return Err("'facts' must be a mapping".into()),
    };
    let mut doc = puppet_model::Map::default();
    doc.insert(Value::string("name"), Value::String(certname.clone()));
    doc.insert(Value::string("values"), facts);
    if let Some(Value::Hash(ref t)) = get("trusted") {
        // The whole `$trusted` hash: only what a certificate and the
        // external data carry is the node's own.
        let mut trusted = puppet_model::Map::default();
        for key in ["extensions", "external"] {
            if let Some(v) = t.get(&Value::string(key)) {
                trusted.insert(Value::string(key), v.clone());
            }
        }
        trusted
            .entry(Value::string("extensions"))
            .or_insert_with(|| Value::hash(Default::default()));
        doc.insert(Value::string("trusted"), Value::hash(trusted));
    }
    if let Some(env @ Value::String(_)) = get("environment") {
        doc.insert(Value::string("environment"), env);
    }
    super::node_from_value(Value::hash(doc))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inventory_entries_are_nodes_with_environment_and_trusted_data() {
        let text = r#"[
          {"certname": "web01.example.com", "timestamp": "2024-05-01T10:00:00.000Z",
           "environment": "dev",
           "facts": {"os": {"family": "Debian"}, "trusted": {"certname": "web01.example.com"}},
           "trusted": {"authenticated": "remote", "certname": "web01.example.com",
                       "extensions": {"pp_role": "web"}, "hostname": "web01", "domain": "example.com"}},
          {"timestamp": "x"},
          {"certname": "db01.example.com", "facts": []}
        ]"#;
        let nodes = parse_inventory(Path::new("inv.json"), text);
        assert_eq!(nodes.len(), 3);
        let web = nodes[0].as_ref().unwrap();
        assert_eq!(web.name, "web01.example.com");
        assert_eq!(web.environment.as_deref(), Some("dev"));
        assert_eq!(
            web.trusted_extensions.get(&Value::string("pp_role")),
            Some(&Value::string("web"))
        );
        // PuppetDB's `trusted` pseudo-fact is no fact.
        assert!(web.facts.get(&Value::string("trusted")).is_none());
        let (name, e) = nodes[1].as_ref().unwrap_err();
        assert_eq!(name, "inv#2");
        assert_eq!(e, "inv.json: inventory entry 2: missing 'certname'");
        let (name, e) = nodes[2].as_ref().unwrap_err();
        assert_eq!(name, "db01.example.com");
        assert!(e.contains("'facts' must be a mapping"), "{e}");
    }

    #[test]
    fn a_file_that_is_no_node_names_the_expected_formats() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("n.json");
        std::fs::write(&p, "{\"values\": {}}").unwrap();
        let nodes = read_node_sources(dir.path()).unwrap();
        let (name, e) = nodes[0].as_ref().unwrap_err();
        assert_eq!(name, "n");
        assert!(
            e.contains("missing 'name'") && e.contains("PuppetDB's inventory"),
            "{e}"
        );
        std::fs::write(&p, "{\"a\": 1,").unwrap();
        std::fs::write(dir.path().join("inv.json"), "[1]").unwrap();
        let nodes = read_node_sources(dir.path()).unwrap();
        assert_eq!(nodes.len(), 2);
        assert!(nodes[0]
            .as_ref()
            .unwrap_err()
            .1
            .contains("inventory entry 1"));
    }
}
