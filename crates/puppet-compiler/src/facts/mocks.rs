//! Function mocks, as onceover has them: a function name and the value every
//! call of it returns, whatever its arguments. They stand in for functions a
//! test environment cannot run (a module's Ruby function that reads a
//! database, a custom function pverify does not implement).
//!
//! Loaded from YAML (onceover's `functions:` section of `spec/onceover.yaml`,
//! each function a mapping whose `returns` is the value; onceover turns it
//! into `function NAME (*$args) { from_json(RETURNS) }`, so a mapping
//! without `returns` returns undef):
//!
//! ```yaml
//! functions:
//!   query_resources:
//!     returns: []
//!   vault::lookup:
//!     returns: 'secret'
//! ```
//!
//! A value that is not a mapping is pverify's shorthand for `{returns:
//! VALUE}` (`query_resources: []`).
//!
//! A mock wins over every other function of that name, built-in or not,
//! since it replaces the function for the whole compilation.

use puppet_syntax::util::NameStr as _;
use std::collections::BTreeMap;
use std::path::Path;

use puppet_model::Value;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct FunctionMocks {
    values: BTreeMap<String, Value>,
}

impl FunctionMocks {
    /// Mocks from `{name: value}` pairs.
    pub fn new(pairs: impl IntoIterator<Item = (String, Value)>) -> FunctionMocks {
        FunctionMocks {
            values: pairs
                .into_iter()
                .map(|(k, v)| (k.trim_colons().to_string(), v))
                .collect(),
        }
    }

    /// Mocks from YAML text: a mapping with a `functions` mapping of name to
    /// value (a value may be any YAML; `~` is undef).
    pub fn from_yaml_str(text: &str) -> Result<FunctionMocks, String> {
        // As onceover's Ruby reads it (Psych: `yes` is true).
        let doc = puppet_model::yaml::load(text).map_err(|e| format!("function mocks: {e}"))?;
        let functions = match &doc {
            Value::Hash(m) => m.get(&Value::string("functions")),
            Value::Undef => None,
            _ => return Err("function mocks: expected a mapping with `functions`".into()),
        };
        let mut pairs = Vec::new();
        match functions {
            None | Some(Value::Undef) => {}
            Some(Value::Hash(m)) => {
                for (k, v) in m.iter() {
                    let Some(name) = k.as_str() else {
                        return Err(format!(
                            "function mocks: a function name must be a string, got {k:?}"
                        ));
                    };
                    pairs.push((name.to_string(), returned(name, v)?));
                }
            }
            Some(_) => return Err("function mocks: `functions` must be a mapping".into()),
        }
        Ok(FunctionMocks::new(pairs))
    }

    /// Mocks from a YAML file.
    pub fn from_file(path: &Path) -> Result<FunctionMocks, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("function mocks: {}: {e}", path.display()))?;
        Self::from_yaml_str(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// The value a call of `name` returns, when it is mocked.
    pub fn get(&self, name: &str) -> Option<&Value> {
        if self.values.is_empty() {
            return None;
        }
        self.values.get(name.trim_colons())
    }

    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.values.keys().map(String::as_str)
    }
}

/// The value a mock returns: onceover's `{returns: VALUE}` (older onceover
/// also wrote `type: rvalue`, which changes nothing), or the shorthand
/// `VALUE` when it is not a mapping.
fn returned(name: &str, v: &Value) -> Result<Value, String> {
    let Value::Hash(m) = v else {
        return Ok(v.clone());
    };
    for k in m.keys() {
        if !matches!(k.as_str(), Some("returns" | "type")) {
            return Err(format!(
                "function mocks: {name}: unknown key {}, expected onceover's `returns: VALUE`",
                k.as_str()
                    .map_or_else(|| format!("{k:?}"), |s| format!("'{s}'"))
            ));
        }
    }
    Ok(m.get(&Value::string("returns"))
        .cloned()
        .unwrap_or(Value::Undef))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_onceover_functions_section() {
        let m = FunctionMocks::from_yaml_str("functions:\n  foo: 1\n  '::bar::baz': [a]\n  q: ~\n")
            .expect("mocks");
        assert_eq!(m.get("foo"), Some(&Value::Integer(1)));
        assert_eq!(
            m.get("bar::baz"),
            Some(&Value::array(vec![Value::string("a")]))
        );
        assert_eq!(m.get("q"), Some(&Value::Undef));
        assert_eq!(m.get("nope"), None);
        assert!(FunctionMocks::from_yaml_str("functions: 3").is_err());
        assert!(FunctionMocks::from_yaml_str("").expect("empty").is_empty());
        // Ruby's YAML rules, as onceover reads the file.
        let m = FunctionMocks::from_yaml_str("functions: {flag: yes, mode: 0755}").expect("mocks");
        assert_eq!(m.get("flag"), Some(&Value::Boolean(true)));
        assert_eq!(m.get("mode"), Some(&Value::Integer(493)));
    }

    #[test]
    fn reads_onceovers_returns_format() {
        let m = FunctionMocks::from_yaml_str(
            "functions:\n  query_resources:\n    returns: []\n  lookup_secret:\n    type: rvalue\n    returns: {a: 1}\n  nothing: {}\n",
        )
        .expect("mocks");
        assert_eq!(m.get("query_resources"), Some(&Value::array(vec![])));
        let Some(Value::Hash(h)) = m.get("lookup_secret") else {
            panic!("a hash: {:?}", m.get("lookup_secret"));
        };
        assert_eq!(h.get(&Value::string("a")), Some(&Value::Integer(1)));
        // onceover's `from_json('null')`.
        assert_eq!(m.get("nothing"), Some(&Value::Undef));
        let e = FunctionMocks::from_yaml_str("functions:\n  f:\n    return: 1\n").unwrap_err();
        assert!(e.contains("f: unknown key 'return'"), "{e}");
    }
}
