//! The fact sets built into pverify (`factsets/README.md` beside this
//! crate): real facterdb sets, so `pverify init` and a matrix naming
//! `debian-12-x86_64` work without fact set files in the repo.

use std::path::Path;

use serde_json::{Map, Value};

use crate::reference::PuppetVersion;

/// One built-in set: its name (the facterdb file stem) and its JSON text.
pub struct BuiltinFactset {
    pub name: &'static str,
    pub text: &'static str,
}

macro_rules! set {
    ($dir:literal, $name:literal) => {
        BuiltinFactset {
            name: $name,
            text: include_str!(concat!("../factsets/", $dir, "/", $name, ".facts")),
        }
    };
}

/// Facter 4.10's sets (Puppet 8.10's Facter).
const FACTER_4_10: &[BuiltinFactset] = &[
    set!("facterdb-4.10", "debian-12-x86_64"),
    set!("facterdb-4.10", "debian-13-x86_64"),
    set!("facterdb-4.10", "ubuntu-24.04-x86_64"),
    set!("facterdb-4.10", "redhat-9-x86_64"),
];

/// Facter 4.3's sets (for Puppet 7).
const FACTER_4_3: &[BuiltinFactset] = &[
    set!("facterdb-4.3", "debian-12-x86_64"),
    set!("facterdb-4.3", "ubuntu-22.04-x86_64"),
    set!("facterdb-4.3", "redhat-9-x86_64"),
];

/// The built-in sets of a Puppet version's Facter, in the order `pverify
/// init` uses them.
pub fn for_version(puppet: PuppetVersion) -> &'static [BuiltinFactset] {
    match puppet {
        PuppetVersion::V7 => FACTER_4_3,
        PuppetVersion::V8 => FACTER_4_10,
    }
}

/// The built-in set of this name: the version's own Facter first, else the
/// other's.
pub fn builtin(name: &str, puppet: PuppetVersion) -> Option<&'static BuiltinFactset> {
    let other = match puppet {
        PuppetVersion::V7 => PuppetVersion::V8,
        PuppetVersion::V8 => PuppetVersion::V7,
    };
    [puppet, other]
        .into_iter()
        .flat_map(for_version)
        .find(|s| s.name == name)
}

/// Every built-in set's name, for messages.
pub fn names() -> Vec<&'static str> {
    let mut n: Vec<&str> = FACTER_4_10
        .iter()
        .chain(FACTER_4_3)
        .map(|s| s.name)
        .collect();
    n.sort_unstable();
    n.dedup();
    n
}

/// The facts of the fact set `name`: `<dir>/<name>.facts` (a facterdb
/// set: the facts hash), else `<dir>/<name>.json` (onceover's
/// `spec/factsets/`), else the built-in set of that name. A file in Puppet's
/// `puppet facts` format (`{"name": ..., "values": {...}}`, onceover's
/// factsets) is accepted: its `values` are the facts.
pub fn read(dir: &Path, name: &str, puppet: PuppetVersion) -> Result<Map<String, Value>, String> {
    let file = ["facts", "json"]
        .iter()
        .map(|ext| dir.join(format!("{name}.{ext}")))
        .find(|p| p.is_file());
    let (text, shown) = match (&file, builtin(name, puppet)) {
        (Some(p), _) => (
            std::fs::read_to_string(p).map_err(|e| format!("{}: factset '{name}': {e}", p.display()))?,
            p.display().to_string(),
        ),
        (None, Some(b)) => (b.text.to_string(), format!("built-in factset '{name}'")),
        (None, None) => {
            return Err(format!(
                "{}: no factset '{name}' ({name}.facts or {name}.json), and no built-in one (built in: {})",
                dir.display(),
                names().join(", ")
            ))
        }
    };
    match serde_json::from_str::<Value>(&text) {
        Ok(Value::Object(m)) if file.is_none() && puppet == PuppetVersion::V7 => {
            let mut m = unwrap_puppet_facts(m);
            add_legacy_facts(&mut m);
            Ok(m)
        }
        Ok(Value::Object(m)) => Ok(unwrap_puppet_facts(m)),
        Ok(other) => Err(format!(
            "{shown}: expected a fact set (a JSON object of facts, or `puppet facts`' {{\"name\": ..., \"values\": {{...}}}}), found {}",
            json_kind(&other)
        )),
        Err(e) => Err(format!("{shown}: not JSON: {e}")),
    }
}

/// The legacy flat facts Facter 4 still sends under Puppet 7
/// (`include_legacy_facts` is true there, false in Puppet 8), derived from
/// the structured facts facterdb keeps: a built-in set stands for what an
/// agent of that version sends.
fn add_legacy_facts(m: &mut Map<String, Value>) {
    let at = |path: &[&str]| -> Option<Value> {
        let mut v = m.get(path[0])?;
        for k in &path[1..] {
            v = v.get(k)?;
        }
        Some(v.clone())
    };
    let legacy: [(&str, &[&str]); 22] = [
        ("osfamily", &["os", "family"]),
        ("operatingsystem", &["os", "name"]),
        ("operatingsystemrelease", &["os", "release", "full"]),
        ("operatingsystemmajrelease", &["os", "release", "major"]),
        ("architecture", &["os", "architecture"]),
        ("hardwaremodel", &["os", "hardware"]),
        ("fqdn", &["networking", "fqdn"]),
        ("hostname", &["networking", "hostname"]),
        ("domain", &["networking", "domain"]),
        ("ipaddress", &["networking", "ip"]),
        ("ipaddress6", &["networking", "ip6"]),
        ("macaddress", &["networking", "mac"]),
        ("netmask", &["networking", "netmask"]),
        ("network", &["networking", "network"]),
        ("processorcount", &["processors", "count"]),
        ("rubyversion", &["ruby", "version"]),
        ("kernelrelease", &["kernelrelease"]),
        ("lsbdistid", &["os", "distro", "id"]),
        ("lsbdistcodename", &["os", "distro", "codename"]),
        ("lsbdistrelease", &["os", "distro", "release", "full"]),
        ("lsbmajdistrelease", &["os", "distro", "release", "major"]),
        ("lsbdistdescription", &["os", "distro", "description"]),
    ];
    let mut derived: Vec<(&str, Value)> = legacy
        .iter()
        .filter_map(|(name, path)| Some((*name, at(path)?)))
        .collect();
    let selinux = at(&["os", "selinux", "enabled"]).unwrap_or(Value::Bool(false));
    derived.push(("selinux", selinux));
    for (name, v) in derived {
        m.entry(name.to_string()).or_insert(v);
    }
}

/// `puppet facts` output (and onceover's factsets) wrap the facts:
/// `{"name", "values", "timestamp", "expiration"}` (onceover adds
/// `trusted`). Facts themselves never have a `values` fact holding a hash
/// beside only those keys, so the shape tells them apart.
fn unwrap_puppet_facts(mut m: Map<String, Value>) -> Map<String, Value> {
    const WRAPPER: [&str; 6] = [
        "name",
        "values",
        "timestamp",
        "expiration",
        "trusted",
        "trusted_external",
    ];
    let wrapped = matches!(m.get("values"), Some(Value::Object(_)))
        && m.keys().all(|k| WRAPPER.contains(&k.as_str()));
    if !wrapped {
        return m;
    }
    match m.remove("values") {
        Some(Value::Object(values)) => values,
        _ => m,
    }
}

fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_set_is_a_json_object_of_its_os() {
        for s in FACTER_4_10.iter().chain(FACTER_4_3) {
            let v: serde_json::Value = serde_json::from_str(s.text).expect(s.name);
            let os = v["os"]["name"].as_str().unwrap_or_default().to_lowercase();
            assert!(s.name.starts_with(&os), "{}: os.name {os}", s.name);
        }
        assert!(builtin("debian-13-x86_64", PuppetVersion::V7).is_some());
        assert_eq!(
            builtin("debian-12-x86_64", PuppetVersion::V8).map(|s| s.text),
            Some(FACTER_4_10[0].text)
        );
        assert!(builtin("nope", PuppetVersion::V8).is_none());
    }

    #[test]
    fn a_builtin_set_for_puppet_7_has_the_legacy_facts() {
        let dir = tempfile::tempdir().unwrap();
        let m7 = read(dir.path(), "redhat-9-x86_64", PuppetVersion::V7).unwrap();
        assert_eq!(m7["osfamily"], Value::from("RedHat"));
        assert_eq!(m7["operatingsystemmajrelease"], Value::from("9"));
        let m8 = read(dir.path(), "redhat-9-x86_64", PuppetVersion::V8).unwrap();
        assert!(m8.get("osfamily").is_none());
    }

    #[test]
    fn a_factset_is_a_file_of_facts_or_puppet_facts_output_or_built_in() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::write(d.join("plain.facts"), r#"{"os": {"family": "Debian"}}"#).unwrap();
        std::fs::write(
            d.join("wrapped.json"),
            r#"{"name": "n1", "values": {"os": {"family": "RedHat"}}, "timestamp": "x"}"#,
        )
        .unwrap();
        std::fs::write(d.join("list.facts"), "[1]").unwrap();
        let family = |name| read(d, name, PuppetVersion::V8).map(|m| m["os"]["family"].clone());
        assert_eq!(family("plain"), Ok(Value::from("Debian")));
        assert_eq!(family("wrapped"), Ok(Value::from("RedHat")));
        assert_eq!(family("debian-13-x86_64"), Ok(Value::from("Debian")));
        let e = read(d, "list", PuppetVersion::V8).unwrap_err();
        assert!(
            e.contains("expected a fact set") && e.ends_with("found an array"),
            "{e}"
        );
        let e = read(d, "nope", PuppetVersion::V8).unwrap_err();
        assert!(
            e.contains("no factset 'nope'") && e.contains("debian-13-x86_64"),
            "{e}"
        );
    }
}
