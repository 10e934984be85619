//! Node files: Puppet's `puppet facts` format `{"name": certname, "values":
//! {facts}}` in JSON or YAML (including the YAML fact caches a Puppet server
//! writes, tagged `!ruby/object:Puppet::Node::Facts`), with the node data an
//! ENC gives: `classes`, `parameters`, `environment`, and `trusted`.

use std::path::Path;

use crate::eval::{Map, NodeInfo, Value};

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

/// A YAML value as a Puppet value (tags such as `!ruby/object:...` are ignored,
/// their content kept).
pub fn from_yaml(v: &serde_yaml::Value) -> Value {
    match v {
        serde_yaml::Value::Null => Value::Undef,
        serde_yaml::Value::Bool(b) => Value::Boolean(*b),
        serde_yaml::Value::Number(n) => match n.as_i64() {
            Some(i) => Value::Integer(i),
            None => Value::Float(n.as_f64().unwrap_or(0.0)),
        },
        serde_yaml::Value::String(s) => Value::string(s.as_str()),
        serde_yaml::Value::Sequence(a) => Value::array(a.iter().map(from_yaml).collect()),
        serde_yaml::Value::Mapping(m) => Value::hash(
            m.iter()
                .map(|(k, v)| {
                    let key = match k {
                        serde_yaml::Value::String(s) => Value::string(s.as_str()),
                        other => from_yaml(other),
                    };
                    (key, from_yaml(v))
                })
                .collect(),
        ),
        serde_yaml::Value::Tagged(t) => from_yaml(&t.value),
    }
}

fn as_map(v: Value) -> Map {
    match v {
        Value::Hash(h) => (*h).clone(),
        _ => Map::new(),
    }
}

/// Reads a node file (JSON, or YAML when it does not parse as JSON).
pub fn read_node_file(path: &Path) -> Result<NodeInfo, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let doc = match serde_json::from_str::<serde_json::Value>(&text) {
        Ok(j) => from_json(&j),
        Err(json_err) => match serde_yaml::from_str::<serde_yaml::Value>(&text) {
            Ok(y) => from_yaml(&y),
            Err(yaml_err) => {
                let loc = yaml_err
                    .location()
                    .map(|l| format!(":{}:{}", l.line(), l.column()))
                    .unwrap_or_default();
                let json_loc = format!(":{}:{}", json_err.line(), json_err.column());
                let loc = if path.extension().is_some_and(|e| e == "json") {
                    json_loc
                } else {
                    loc
                };
                return Err(format!(
                    "{}{loc}: not a node file (JSON: {json_err}; YAML: {yaml_err})",
                    path.display()
                ));
            }
        },
    };
    node_from_value(doc).map_err(|e| format!("{}: {e}", path.display()))
}

/// The node object from a parsed node document.
pub fn node_from_value(doc: Value) -> Result<NodeInfo, String> {
    let Value::Hash(h) = doc else {
        return Err("expected a mapping with 'name' and 'values'".into());
    };
    let get = |k: &str| h.get(&Value::string(k)).cloned();
    let name = match get("name") {
        Some(Value::String(s)) => s.to_string(),
        _ => return Err("missing 'name' (the certname)".into()),
    };
    let facts = match get("values") {
        Some(Value::Hash(v)) => (*v).clone(),
        None => Map::new(),
        _ => return Err("'values' must be a mapping of facts".into()),
    };
    let trusted_extensions = match get("trusted") {
        Some(Value::Hash(t)) => match t.get(&Value::string("extensions")) {
            Some(Value::Hash(x)) => (**x).clone(),
            _ => (*t).clone(),
        },
        _ => Map::new(),
    };
    let classes = match get("classes") {
        Some(Value::Array(a)) => a.iter().map(|c| (c.to_string(), None)).collect(),
        Some(Value::Hash(m)) => m
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
        Some(Value::String(s)) => Some(s.to_string()),
        _ => None,
    };
    Ok(NodeInfo {
        name,
        facts,
        trusted_extensions,
        classes,
        parameters,
        environment,
        ..NodeInfo::default()
    })
}

/// How long an external node classifier may take before it counts as hung.
pub const ENC_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(60);

/// Runs an external node classifier as Puppet does (the command, given the
/// certname as its one argument, prints YAML with `classes`, `parameters`,
/// `environment`) and merges what it says into the node.
pub fn apply_enc(node: &mut NodeInfo, command: &Path) -> Result<(), String> {
    use std::io::Read;
    let mut child = std::process::Command::new(command)
        .arg(&node.name)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| format!("{}: cannot run the ENC: {e}", command.display()))?;
    let started = std::time::Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break s,
            Ok(None) if started.elapsed() > ENC_TIMEOUT => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "{}: the ENC did not answer for {} within {} s",
                    command.display(),
                    node.name,
                    ENC_TIMEOUT.as_secs()
                ));
            }
            Ok(None) => std::thread::sleep(std::time::Duration::from_millis(5)),
            Err(e) => return Err(format!("{}: {e}", command.display())),
        }
    };
    let mut out = String::new();
    if let Some(mut s) = child.stdout.take() {
        let _ = s.read_to_string(&mut out);
    }
    if !status.success() {
        return Err(format!(
            "{}: the ENC failed for {} ({status})",
            command.display(),
            node.name
        ));
    }
    let doc: serde_yaml::Value = serde_yaml::from_str(&out).map_err(|e| {
        format!(
            "{}: the ENC printed no valid YAML for {}: {e}",
            command.display(),
            node.name
        )
    })?;
    let Value::Hash(h) = from_yaml(&doc) else {
        return Err(format!(
            "{}: the ENC's YAML is not a mapping",
            command.display()
        ));
    };
    let mut with_name = (*h).clone();
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
