//! Node files: Puppet's `puppet facts` format `{"name": certname, "values":
//! {facts}}` in JSON or YAML (including the YAML fact caches a Puppet server
//! writes, tagged `!ruby/object:Puppet::Node::Facts`), with the node data an
//! ENC gives: `classes`, `parameters`, `environment`, and `trusted`.

use std::path::Path;

pub mod certname;
pub mod exports;
pub mod mocks;
pub mod node;
pub mod overrides;
pub mod sources;

use node::NodeInfo;
use puppet_model::{Map, Value};

/// A JSON value as a Puppet value.
pub fn from_json(v: &serde_json::Value) -> Value {
    match v {
        serde_json::Value::Null => Value::Undef,
        serde_json::Value::Bool(b) => Value::Boolean(*b),
        serde_json::Value::Number(n) => match n.as_i64() {
            Some(i) => Value::Integer(i),
            None => Value::Float(n.as_f64().unwrap_or(0.0)),
        },
        serde_json::Value::String(s) => Value::string(s.as_str()),
        serde_json::Value::Array(a) => Value::array(a.iter().map(from_json).collect()),
        serde_json::Value::Object(o) => Value::hash(
            o.iter()
                .map(|(k, v)| (Value::string(k.as_str()), from_json(v)))
                .collect(),
        ),
    }
}

/// JSON text straight to a Puppet value, as [`from_json`] converts it but
/// without building a `serde_json::Value` first (reading node files was half
/// of `pverify compile`'s time per node).
pub fn parse_json(text: &str) -> Result<Value, serde_json::Error> {
    serde_json::from_str::<Direct>(text).map(|d| d.0)
}

/// A [`Value`] deserialized directly (see [`parse_json`]).
struct Direct(Value);

impl<'de> serde::Deserialize<'de> for Direct {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(DirectVisitor).map(Direct)
    }
}

struct DirectVisitor;

impl<'de> serde::de::Visitor<'de> for DirectVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Undef)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Undef)
    }
    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Boolean(b))
    }
    fn visit_i64<E>(self, i: i64) -> Result<Value, E> {
        Ok(Value::Integer(i))
    }
    fn visit_u64<E>(self, u: u64) -> Result<Value, E> {
        // As `from_json`: beyond i64 a number is a float.
        Ok(i64::try_from(u).map_or(Value::Float(u as f64), Value::Integer))
    }
    fn visit_f64<E>(self, f: f64) -> Result<Value, E> {
        Ok(Value::Float(f))
    }
    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(Value::string(s))
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(Direct(v)) = seq.next_element()? {
            items.push(v);
        }
        Ok(Value::array(items))
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut m = Map::with_capacity_and_hasher(map.size_hint().unwrap_or(0), Default::default());
        while let Some((k, Direct(v))) = map.next_entry::<String, Direct>()? {
            // A repeated key keeps its first place and its last value, as
            // serde_json's ordered map does.
            m.insert(Value::string(k), v);
        }
        Ok(Value::hash(m))
    }
}

fn as_map(v: Value) -> Map {
    match v.into_hash() {
        // Taken, not copied, when not shared (a node file's facts are not).
        Ok(h) => std::sync::Arc::unwrap_or_clone(h),
        Err(_) => Map::default(),
    }
}

/// Reads a node file (JSON, or YAML when it does not parse as JSON).
pub fn read_node_file(path: &Path) -> Result<NodeInfo, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    parse_node_text(path, &text)
}

/// A node file's text as a node (`path` names it in errors and says by its
/// extension whether a JSON position is the one to show).
pub fn parse_node_text(path: &Path, text: &str) -> Result<NodeInfo, String> {
    let doc = match parse_json(text) {
        Ok(v) => v,
        // YAML as Puppet (Ruby's Psych, YAML 1.1) reads it: `yes` is true,
        // `0755` octal (puppet_model::yaml).
        Err(json_err) => match puppet_model::yaml::load(text) {
            Ok(y) => y,
            Err(yaml_err) => {
                let loc = if yaml_err.line > 0 {
                    format!(":{}:{}", yaml_err.line, yaml_err.column)
                } else {
                    String::new()
                };
                let json_loc = format!(":{}:{}", json_err.line(), json_err.column());
                let loc = if path.extension().is_some_and(|e| e == "json") {
                    json_loc
                } else {
                    loc
                };
                return Err(format!(
                    "{}{loc}: not a node file (JSON: {json_err}; YAML: {yaml_err}) ({})",
                    path.display(),
                    sources::EXPECTED
                ));
            }
        },
    };
    check_node_keys(&doc).map_err(|e| format!("{}: {e}", path.display()))?;
    let node = node_from_value(doc)
        .map_err(|e| format!("{}: {e} ({})", path.display(), sources::EXPECTED))?;
    certname::validate(&node.name).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(node)
}

/// The keys a node file may have: those of Puppet's facts format
/// (`Puppet::Node::Facts#to_data_hash`: `name`, `values`, `timestamp`,
/// `expiration`), of its node format (`Puppet::Node#to_data_hash`: `name`,
/// `environment`, `classes`, `parameters`) and pverify's `trusted`.
pub const NODE_FILE_KEYS: [&str; 9] = [
    "name",
    "values",
    "timestamp",
    "expiration",
    "environment",
    "classes",
    "parameters",
    "trusted",
    "trusted_external",
];

/// A key a node file may not have is a typo (`"vals"` for `"values"`), an
/// error naming it rather than facts silently missing.
fn check_node_keys(doc: &Value) -> Result<(), String> {
    let Value::Hash(h) = doc else {
        return Ok(());
    };
    // A fact set (facterdb's format, rspec-puppet-facts'): the facts
    // themselves, with neither the certname nor `values` around them.
    let has = |k: &str| h.contains_key(&Value::string(k));
    if !has("name") && !has("values") && (has("os") || has("networking") || has("kernel")) {
        return Err(format!(
            "found a fact set (a bare hash of facts, facterdb's format), expected a node file \
             ({{\"name\": CERTNAME, \"values\": {{FACTS}}}}, `puppet facts` output): wrap the facts, \
             or name the set in a pverify.yaml matrix's `factsets:` ({} keys, e.g. {})",
            h.len(),
            h.keys()
                .take(3)
                .map(|k| k.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    for k in h.keys() {
        let known = k.as_str().is_some_and(|k| NODE_FILE_KEYS.contains(&k));
        if !known {
            return Err(format!(
                "unknown key {} in a node file (expected {})",
                puppet_model::names::ruby_inspect_str(&k.to_string()),
                NODE_FILE_KEYS.join(", ")
            ));
        }
    }
    Ok(())
}

/// The node object from a parsed node document.
pub fn node_from_value(doc: Value) -> Result<NodeInfo, String> {
    let Value::Hash(ref h) = doc else {
        return Err("expected a mapping with 'name' and 'values'".into());
    };
    let get = |k: &str| h.get(&Value::string(k)).cloned();
    let name = match get("name") {
        Some(Value::String(ref s)) => s.to_string(),
        _ => return Err("missing 'name' (the certname)".into()),
    };
    let mut facts = match get("values") {
        Some(Value::Hash(ref v)) => (**v).clone(),
        None | Some(Value::Undef) => Map::default(),
        _ => return Err("'values' must be a mapping of facts".into()),
    };
    // `trusted` is the extensions, or `{extensions, external}`.
    let (mut trusted_extensions, mut trusted_external) = match get("trusted") {
        Some(Value::Hash(ref t)) => match t.get(&Value::string("extensions")) {
            Some(x) => {
                let external = t.get(&Value::string("external")).cloned();
                (as_map(x.clone()), external.map(as_map).unwrap_or_default())
            }
            None => ((**t).clone(), Map::default()),
        },
        _ => (Map::default(), Map::default()),
    };
    // onceover's `trusted_external`: `$trusted['external']`.
    if let Some(Value::Hash(ref x)) = get("trusted_external") {
        trusted_external = (**x).clone();
    }
    // `values.trusted`: the trusted data PuppetDB keeps beside the facts
    // (`puppet facts --terminus puppetdb`, the inventory). Read as onceover
    // reads it: its `extensions` and `external`, each only where the
    // top level gave none. It is no fact: an agent never sends one.
    if let Some(Value::Hash(ref t)) = facts.shift_remove(&Value::string("trusted")) {
        if trusted_extensions.is_empty() {
            if let Some(x) = t.get(&Value::string("extensions")) {
                trusted_extensions = as_map(x.clone());
            }
        }
        if trusted_external.is_empty() {
            if let Some(x) = t.get(&Value::string("external")) {
                trusted_external = as_map(x.clone());
            }
        }
    }
    let classes = match get("classes") {
        Some(Value::Array(ref a)) => a.iter().map(|c| (c.to_string(), None)).collect(),
        Some(Value::Hash(ref m)) => m
            .iter()
            .map(|(k, v)| {
                let params = match v {
                    Value::Hash(p) => Some((**p).clone()),
                    _ => None,
                };
                (k.to_string(), params)
            })
            .collect(),
        _ => Vec::new(),
    };
    let parameters = get("parameters").map(as_map).unwrap_or_default();
    let environment = match get("environment") {
        Some(Value::String(ref s)) => Some(s.to_string()),
        _ => None,
    };
    Ok(NodeInfo {
        name,
        facts: std::sync::Arc::new(facts),
        trusted_extensions,
        trusted_external,
        classes,
        parameters,
        environment,
        ..NodeInfo::default()
    })
}

/// A value read from a node file as JSON data again: a key that is not a
/// string becomes its text, a Float that JSON cannot hold (NaN, infinite)
/// becomes null, anything else that is not data its text.
pub(crate) fn plain_json(v: &Value) -> serde_json::Value {
    use serde_json::Value as J;
    match v {
        Value::Undef => J::Null,
        Value::Boolean(b) => J::Bool(*b),
        Value::Integer(i) => J::from(*i),
        Value::Float(f) => serde_json::Number::from_f64(*f).map_or(J::Null, J::Number),
        Value::String(s) => J::from(&**s),
        Value::Array(items) => J::Array(items.iter().map(plain_json).collect()),
        Value::Hash(map) => J::Object(
            map.iter()
                .map(|(k, v)| {
                    let key = k.as_str().map_or_else(|| k.to_string(), str::to_string);
                    (key, plain_json(v))
                })
                .collect(),
        ),
        other => J::from(other.to_string()),
    }
}

/// A node as the JSON node file that reads back to it: `name`, `values`, and
/// the ENC data it has (`classes`, `parameters`, `trusted`, `environment`).
/// What `check` keeps of a node file (and hands to Puppet); a key that is
/// not a string becomes its text, as in any JSON.
pub fn node_to_json(node: &NodeInfo) -> serde_json::Value {
    use serde_json::Value as J;
    let json = |m: &Map| plain_json(&Value::hash(m.clone()));
    let mut doc = serde_json::Map::new();
    doc.insert("name".into(), J::from(node.name.as_str()));
    doc.insert("values".into(), json(&node.facts));
    if !node.classes.is_empty() {
        let classes = if node.classes.iter().all(|(_, p)| p.is_none()) {
            node.classes
                .iter()
                .map(|(c, _)| J::from(c.as_str()))
                .collect()
        } else {
            let with = |p: &Option<Map>| p.as_ref().map_or(J::Null, json);
            J::Object(
                node.classes
                    .iter()
                    .map(|(c, p)| (c.clone(), with(p)))
                    .collect(),
            )
        };
        doc.insert("classes".into(), classes);
    }
    if !node.parameters.is_empty() {
        doc.insert("parameters".into(), json(&node.parameters));
    }
    if !node.trusted_extensions.is_empty() || !node.trusted_external.is_empty() {
        let mut t = serde_json::Map::new();
        t.insert("extensions".into(), json(&node.trusted_extensions));
        if !node.trusted_external.is_empty() {
            t.insert("external".into(), json(&node.trusted_external));
        }
        doc.insert("trusted".into(), J::Object(t));
    }
    if let Some(e) = &node.environment {
        doc.insert("environment".into(), J::from(e.as_str()));
    }
    J::Object(doc)
}

/// How long an external node classifier may take before it counts as hung
/// (`--enc-timeout` changes it).
pub const ENC_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// Runs an external node classifier as Puppet does (the command, given the
/// certname as its one argument, prints YAML with `classes`, `parameters`,
/// `environment`) and merges what it says into the node.
pub fn apply_enc(node: &mut NodeInfo, command: &Path) -> Result<(), String> {
    apply_enc_within(node, command, ENC_TIMEOUT)
}

/// [`apply_enc`], killing the ENC when it runs longer than `timeout`.
pub fn apply_enc_within(
    node: &mut NodeInfo,
    command: &Path,
    timeout: std::time::Duration,
) -> Result<(), String> {
    use std::io::Read;
    let mut child = std::process::Command::new(command)
        .arg(&node.name)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map_err(|e| format!("{}: cannot run the ENC: {e}", command.display()))?;
    // Read while it runs: an ENC printing more than a pipe holds would
    // otherwise wait for us forever.
    let reader = child.stdout.take().map(|mut s| {
        std::thread::spawn(move || {
            let mut out = Vec::new();
            let _ = s.read_to_end(&mut out);
            out
        })
    });
    let started = std::time::Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break s,
            Ok(None) if started.elapsed() > timeout => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "{}: the ENC did not answer for {} within {} s",
                    command.display(),
                    node.name,
                    timeout.as_secs_f64()
                ));
            }
            Ok(None) => std::thread::sleep(std::time::Duration::from_millis(5)),
            Err(e) => return Err(format!("{}: {e}", command.display())),
        }
    };
    let out = reader
        .and_then(|r| r.join().ok())
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default();
    if !status.success() {
        return Err(format!(
            "{}: the ENC failed for {} ({status})",
            command.display(),
            node.name
        ));
    }
    let doc = puppet_model::yaml::load(&out).map_err(|e| {
        format!(
            "{}: the ENC printed no valid YAML for {}: {e}",
            command.display(),
            node.name
        )
    })?;
    let Value::Hash(ref h) = doc else {
        return Err(format!(
            "{}: the ENC's YAML is not a mapping",
            command.display()
        ));
    };
    let mut with_name = (**h).clone();
    with_name.insert(Value::string("name"), Value::string(node.name.as_str()));
    let enc = node_from_value(Value::hash(with_name))?;
    if !enc.classes.is_empty() {
        node.classes = enc.classes;
    }
    for (k, v) in enc.parameters {
        node.parameters.insert(k, v);
    }
    if enc.environment.is_some() {
        node.environment = enc.environment;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fact_set_given_as_a_node_file_is_named_as_such() {
        let e = parse_node_text(
            Path::new("debian.facts"),
            r#"{"os": {"family": "Debian"}, "kernel": "Linux"}"#,
        )
        .unwrap_err();
        assert!(
            e.starts_with("debian.facts: found a fact set (a bare hash of facts, facterdb's format), expected a node file"),
            "{e}"
        );
        // `puppet facts` output is a node file.
        let n = parse_node_text(
            Path::new("n.json"),
            r#"{"name": "n1.example.com", "values": {"os": {"family": "Debian"}}, "timestamp": "2026-01-01"}"#,
        )
        .unwrap();
        assert_eq!(n.name, "n1.example.com");
    }

    #[test]
    fn parse_json_converts_as_from_json() {
        let text = r#"{"b": 1, "a": [true, null, 1.5, -3, 18446744073709551615, "x"],
            "n": {"k": {}}, "b": 2, "e": []}"#;
        let direct = parse_json(text).map_err(|e| e.to_string());
        let via = serde_json::from_str::<serde_json::Value>(text)
            .map(|j| from_json(&j))
            .map_err(|e| e.to_string());
        assert_eq!(format!("{direct:?}"), format!("{via:?}"));
        assert!(parse_json("{\"a\": }").is_err());
    }

    /// `values.trusted` (PuppetDB's pseudo-fact) gives `$trusted` as
    /// onceover reads it: each part only where the top level gives none, and
    /// it is no fact.
    #[test]
    fn values_trusted_fills_what_the_top_level_leaves() {
        let text = r#"{"name": "n1", "trusted": {"pp_role": "web"},
            "values": {"a": 1, "trusted": {"certname": "n1",
                "extensions": {"pp_role": "db"}, "external": {"cmdb": {"team": "x"}}}}}"#;
        let node = parse_node_text(Path::new("n1.json"), text).unwrap();
        assert_eq!(
            node.trusted_extensions.get(&Value::string("pp_role")),
            Some(&Value::string("web"))
        );
        assert!(node.trusted_external.contains_key(&Value::string("cmdb")));
        assert_eq!(node.facts.len(), 1);
        let text = r#"{"name": "n1", "trusted_external": {"f": {}},
            "values": {"trusted": {"extensions": {"pp_role": "db"}, "external": {"g": {}}}}}"#;
        let node = parse_node_text(Path::new("n1.json"), text).unwrap();
        assert!(node
            .trusted_extensions
            .contains_key(&Value::string("pp_role")));
        assert!(node.trusted_external.contains_key(&Value::string("f")));
        assert!(!node.trusted_external.contains_key(&Value::string("g")));
    }

    /// YAML node files are read as Puppet (Psych, YAML 1.1) reads them, and
    /// `node_to_json` gives a node file that reads back to the same node.
    #[test]
    fn yaml_node_files_read_as_puppet_and_round_trip_through_json() {
        let text = "--- !ruby/object:Puppet::Node::Facts\nname: n1.example.com\nvalues:\n  \
            a: yes\n  b: no\n  c: On\n  d: OFF\n  e: 'yes'\n  mode: 0755\n  f: 1.5\n\
            classes: {role::web: {tier: prod}, base: ~}\nparameters: {team: ops}\n\
            trusted: {extensions: {pp_role: web}, external: {x: 1}}\nenvironment: staging\n";
        let node = parse_node_text(Path::new("n1.yaml"), text).unwrap();
        let fact = |k: &str| node.facts.get(&Value::string(k)).cloned();
        assert_eq!(fact("a"), Some(Value::Boolean(true)));
        assert_eq!(fact("b"), Some(Value::Boolean(false)));
        assert_eq!(fact("c"), Some(Value::Boolean(true)));
        assert_eq!(fact("d"), Some(Value::Boolean(false)));
        assert_eq!(fact("e"), Some(Value::string("yes")));
        assert_eq!(fact("mode"), Some(Value::Integer(493)));
        assert_eq!(
            node.trusted_external.get(&Value::string("x")),
            Some(&Value::Integer(1))
        );
        let json = serde_json::to_string(&node_to_json(&node)).unwrap();
        let again = parse_node_text(Path::new("n1.json"), &json).unwrap();
        assert_eq!(format!("{again:?}"), format!("{node:?}"));
    }
}
