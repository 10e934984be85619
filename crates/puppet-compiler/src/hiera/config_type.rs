//! The shape Puppet requires of a `hiera.yaml` (`HieraConfigV5.config_type`,
//! `HieraConfigV3.config_type` in `pops/lookup/hiera_config.rb`): a file
//! that is not an instance, such as one with a misspelt key, fails with
//! Puppet's `TypeAsserter` text, `The Lookup Configuration at 'PATH' has
//! wrong type, unrecognized key 'hierachy'`.

use std::path::Path;

use puppet_model::types::{describe_mismatch_named, infer_set, is_instance, text::ty, PType};
use puppet_model::yaml::SYMBOL_MARK;
use puppet_model::{Map, Value};

/// A hierarchy level of version 5 (`hierarchy`, `plan_hierarchy`,
/// `default_hierarchy`).
const V5_LEVEL: &str = "Struct[{
    'name' => String[1],
    Optional['options'] => Hash[Pattern[/\\A[A-Za-z](:?[0-9A-Za-z_-]*[0-9A-Za-z])?\\z/], Data],
    Optional['data_hash'] => String[1],
    Optional['lookup_key'] => String[1],
    Optional['hiera3_backend'] => String[1],
    Optional['hiera4_data_hash'] => String[1],
    Optional['data_dig'] => String[1],
    Optional['path'] => String[1],
    Optional['paths'] => Array[String[1], 1],
    Optional['glob'] => String[1],
    Optional['globs'] => Array[String[1], 1],
    Optional['uri'] => String[1],
    Optional['uris'] => Array[String[1], 1],
    Optional['mapped_paths'] => Array[String[1], 3, 3],
    Optional['datadir'] => String[1]
}]";

fn v5_type() -> PType {
    let level = format!("Array[{V5_LEVEL}]");
    ty(&format!(
        "Struct[{{
            'version' => Integer[5, 5],
            Optional['defaults'] => Struct[{{
                Optional['data_hash'] => String[1],
                Optional['lookup_key'] => String[1],
                Optional['data_dig'] => String[1],
                Optional['datadir'] => String[1],
                Optional['options'] => Hash[Pattern[/\\A[A-Za-z](:?[0-9A-Za-z_-]*[0-9A-Za-z])?\\z/], Data]
            }}],
            Optional['hierarchy'] => {level},
            Optional['plan_hierarchy'] => {level},
            Optional['default_hierarchy'] => {level}
        }}]"
    ))
}

/// Version 3's type: its fixed keys and one `Hash[String[1], Any]` per
/// backend the file names (each backend's own settings).
fn v3_type(backends: &[String]) -> PType {
    let mut members = String::from(
        "Optional['version'] => Integer[3, 3],
         Optional['backends'] => Variant[String[1], Array[String[1]]],
         Optional['logger'] => String[1],
         Optional['merge_behavior'] => Enum['deep', 'deeper', 'native'],
         Optional['deep_merge_options'] => Hash[String[1], Variant[String, Boolean]],
         Optional['hierarchy'] => Variant[String[1], Array[String[1]]]",
    );
    for b in backends {
        let quoted = b.replace('\\', "\\\\").replace('\'', "\\'");
        members.push_str(&format!(",\n Optional['{quoted}'] => Hash[String[1], Any]"));
    }
    ty(&format!("Struct[{{{members}}}]"))
}

/// Puppet's `symkeys_to_string`: Symbol keys (`:backends:`) become strings,
/// at every level.
fn symbol_keys_to_strings(v: &Value) -> Value {
    match v {
        Value::Hash(h) => {
            let mut out = Map::default();
            for (k, x) in h.iter() {
                let k = match k.as_str().and_then(|s| s.strip_prefix(SYMBOL_MARK)) {
                    Some(name) => Value::string(name),
                    None => k.clone(),
                };
                out.insert(k, symbol_keys_to_strings(x));
            }
            Value::hash(out)
        }
        Value::Array(a) => Value::array(a.iter().map(symbol_keys_to_strings).collect()),
        other => other.clone(),
    }
}

fn get<'a>(h: &'a Map, k: &str) -> Option<&'a Value> {
    h.get(&Value::string(k))
}

/// Checks a version 5 file against Puppet's type: `Err` is Puppet's text.
pub fn check_v5(path: &Path, doc: &Value) -> Result<(), String> {
    assert_instance(path, &v5_type(), &symbol_keys_to_strings(doc))
}

/// Checks a version 3 file (one without `version` too) as Puppet's
/// `HieraConfigV3#validate_config` does, after filling in its defaults.
pub fn check_v3(path: &Path, doc: &Value) -> Result<(), String> {
    let Value::Hash(ref h) = symbol_keys_to_strings(doc) else {
        return Ok(());
    };
    let mut config = (**h).clone();
    let defaults = [
        ("version", Value::Integer(3)),
        ("backends", Value::array(vec![Value::string("yaml")])),
        (
            "hierarchy",
            Value::array(vec![
                Value::string("nodes/%{::trusted.certname}"),
                Value::string("common"),
            ]),
        ),
        ("merge_behavior", Value::string("native")),
    ];
    for (k, v) in defaults {
        if get(&config, k).is_none_or(|x| matches!(x, Value::Undef)) {
            config.insert(Value::string(k), v);
        }
    }
    let backends: Vec<String> = match get(&config, "backends") {
        Some(Value::Array(a)) => a
            .iter()
            .filter_map(|b| b.as_str().map(String::from))
            .collect(),
        Some(v) => v.as_str().map(String::from).into_iter().collect(),
        None => Vec::new(),
    };
    assert_instance(path, &v3_type(&backends), &Value::hash(config))
}

fn assert_instance(path: &Path, t: &PType, v: &Value) -> Result<(), String> {
    if is_instance(t, v) {
        return Ok(());
    }
    Err(describe_mismatch_named(
        &format!(
            "{} '{}' has wrong type,",
            super::config::TYPE_MISMATCH_SUBJECT,
            path.display()
        ),
        t,
        &infer_set(v),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(yaml: &str) -> Value {
        puppet_model::yaml::load_hiera(yaml).expect("yaml")
    }

    #[test]
    fn a_misspelt_key_is_named() {
        // Texts: Puppet 7.23 (spec-suite/hiera/config-unknown-*.case).
        let e = check_v5(Path::new("h.yaml"), &doc("version: 5\nhierachy: []\n")).unwrap_err();
        assert_eq!(
            e,
            "The Lookup Configuration at 'h.yaml' has wrong type, unrecognized key 'hierachy'"
        );
        let e = check_v5(
            Path::new("h.yaml"),
            &doc("version: 5\nhierarchy:\n  - name: c\n    pth: x\n"),
        )
        .unwrap_err();
        assert_eq!(
            e,
            "The Lookup Configuration at 'h.yaml' has wrong type, entry 'hierarchy' index 0 unrecognized key 'pth'"
        );
    }

    #[test]
    fn good_files_pass() {
        let v5 = "version: 5\ndefaults:\n  datadir: data\n  data_hash: yaml_data\nhierarchy:\n  - name: c\n    paths: [a.yaml, b.yaml]\n";
        assert_eq!(check_v5(Path::new("h.yaml"), &doc(v5)), Ok(()));
        let v3 = ":backends:\n  - yaml\n:yaml:\n  :datadir: /x\n:hierarchy:\n  - common\n";
        assert_eq!(check_v3(Path::new("h.yaml"), &doc(v3)), Ok(()));
    }
}
