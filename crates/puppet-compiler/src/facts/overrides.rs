//! `--fact-override KEY=VALUE`, as octocatalog-diff reads it
//! (`OctocatalogDiff::API::V1::Override`): the key is a top-level fact's
//! name (a dot is part of the name, as there), or `/REGEX/`, which changes
//! or deletes the facts whose names match but adds none. The value's type
//! is guessed (`42` an Integer, `-1.5` a Float, `true`/`false` any case a
//! Boolean, anything else a String) unless it says it: `(string)42`,
//! `(fixnum)42`, `(float)1`, `(boolean)TRUE`, `(json){"a": [1]}`, and
//! `(nil)`, which deletes the fact.

use puppet_model::{Map, Value};

/// One parsed override.
#[derive(Clone, Debug)]
pub struct FactOverride {
    key: Key,
    /// `None`: delete the fact.
    value: Option<serde_json::Value>,
}

#[derive(Clone, Debug)]
enum Key {
    Name(String),
    Pattern(regex::Regex),
}

impl FactOverride {
    /// Parses `KEY=VALUE`; the error names the argument.
    pub fn parse(text: &str) -> Result<FactOverride, String> {
        let bad = |why: String| format!("--fact-override '{text}': {why}");
        let Some((k, v)) = text.trim().split_once('=') else {
            return Err(bad("not in 'key=(data type)value' format".into()));
        };
        let (k, v) = (k.trim(), v.trim());
        if k.is_empty() {
            return Err(bad("no fact name before '='".into()));
        }
        let key = match k.strip_prefix('/').and_then(|r| r.strip_suffix('/')) {
            Some(re) if !re.is_empty() => Key::Pattern(
                regex::Regex::new(re).map_err(|e| bad(format!("bad regular expression: {e}")))?,
            ),
            _ => Key::Name(k.to_string()),
        };
        let value = typed_value(v).map_err(bad)?;
        Ok(FactOverride { key, value })
    }

    /// Applies the override to a node's facts.
    pub fn apply(&self, facts: &mut Map) {
        let value = self.value.as_ref().map(super::from_json);
        match &self.key {
            Key::Name(name) => {
                let k = Value::string(name.as_str());
                match value {
                    Some(v) => {
                        facts.insert(k, v);
                    }
                    None => {
                        facts.shift_remove(&k);
                    }
                }
            }
            Key::Pattern(re) => {
                let matches = |k: &Value| k.as_str().is_some_and(|s| re.is_match(s));
                match value {
                    Some(v) => {
                        for (k, slot) in facts.iter_mut() {
                            if matches(k) {
                                *slot = v.clone();
                            }
                        }
                    }
                    None => facts.retain(|k, _| !matches(k)),
                }
            }
        }
    }

    /// [`FactOverride::apply`] on facts held as JSON (a control repo's node
    /// before it becomes a node object, so the Puppet oracle gets the same).
    pub fn apply_json(&self, facts: &mut serde_json::Map<String, serde_json::Value>) {
        match (&self.key, &self.value) {
            (Key::Name(name), Some(v)) => {
                facts.insert(name.clone(), v.clone());
            }
            (Key::Name(name), None) => {
                facts.shift_remove(name);
            }
            (Key::Pattern(re), Some(v)) => {
                for (k, slot) in facts.iter_mut() {
                    if re.is_match(k) {
                        *slot = v.clone();
                    }
                }
            }
            (Key::Pattern(re), None) => facts.retain(|k, _| !re.is_match(k)),
        }
    }
}

/// The value of an override: `(type)text`, or its type guessed.
fn typed_value(v: &str) -> Result<Option<serde_json::Value>, String> {
    use serde_json::Value as J;
    let explicit = v
        .strip_prefix('(')
        .and_then(|rest| rest.split_once(')'))
        .filter(|(t, _)| {
            !t.is_empty() && t.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        });
    if let Some((datatype, text)) = explicit {
        return match datatype.to_ascii_lowercase().as_str() {
            "string" => Ok(Some(J::from(text))),
            "nil" => Ok(None),
            "json" => serde_json::from_str(text)
                .map(Some)
                .map_err(|e| format!("Failed to parse JSON: input={text} error={e}")),
            "fixnum" => integer(text)
                .map(|i| Some(J::from(i)))
                .ok_or_else(|| format!("Illegal fixnum '{text}'")),
            "float" => float(text)
                .or_else(|| integer(text).map(|i| i as f64))
                .and_then(serde_json::Number::from_f64)
                .map(|n| Some(J::Number(n)))
                .ok_or_else(|| format!("Illegal float '{text}'")),
            "boolean" => boolean(text)
                .map(|b| Some(J::Bool(b)))
                .ok_or_else(|| format!("Illegal boolean '{text}'")),
            other => Err(format!("Unknown data type '{other}'")),
        };
    }
    if let Some(i) = integer(v) {
        return Ok(Some(J::from(i)));
    }
    if let Some(n) = float(v).and_then(serde_json::Number::from_f64) {
        return Ok(Some(J::Number(n)));
    }
    if let Some(b) = boolean(v) {
        return Ok(Some(J::Bool(b)));
    }
    Ok(Some(J::from(v)))
}

/// `-?\d+`.
fn integer(s: &str) -> Option<i64> {
    let digits = s.strip_prefix('-').unwrap_or(s);
    (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
        .then(|| s.parse().ok())
        .flatten()
}

/// `-?\d*\.\d+`.
fn float(s: &str) -> Option<f64> {
    let unsigned = s.strip_prefix('-').unwrap_or(s);
    let (int, frac) = unsigned.split_once('.')?;
    (int.bytes().all(|b| b.is_ascii_digit())
        && !frac.is_empty()
        && frac.bytes().all(|b| b.is_ascii_digit()))
    .then(|| s.parse().ok())
    .flatten()
}

fn boolean(s: &str) -> Option<bool> {
    if s.eq_ignore_ascii_case("true") {
        Some(true)
    } else if s.eq_ignore_ascii_case("false") {
        Some(false)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts() -> Map {
        let mut m = Map::default();
        for (k, v) in [
            ("ipaddress", "10.0.0.1"),
            ("ipaddress_eth0", "10.0.0.1"),
            ("additional_ipaddress", "x"),
        ] {
            m.insert(Value::string(k), Value::string(v));
        }
        m
    }

    fn get(m: &Map, k: &str) -> Option<Value> {
        m.get(&Value::string(k)).cloned()
    }

    #[test]
    fn values_are_typed_as_octocatalog_diff_types_them() {
        let cases = [
            ("a=42", Some(serde_json::json!(42))),
            ("a=-7", Some(serde_json::json!(-7))),
            ("a=.5", Some(serde_json::json!(0.5))),
            ("a=TRUE", Some(serde_json::json!(true))),
            ("a=1.2.3", Some(serde_json::json!("1.2.3"))),
            ("a=(string)42", Some(serde_json::json!("42"))),
            ("a=(float)3", Some(serde_json::json!(3.0))),
            (
                "a=(json){\"b\": [1, null]}",
                Some(serde_json::json!({"b": [1, null]})),
            ),
            ("a = (nil)whatever", None),
            ("a=", Some(serde_json::json!(""))),
        ];
        for (text, want) in cases {
            assert_eq!(FactOverride::parse(text).unwrap().value, want, "{text}");
        }
        for bad in [
            "a",
            "=1",
            "a=(fixnum)x",
            "a=(boolean)yes",
            "a=(json){",
            "a=(date)1",
            "/(/=1",
        ] {
            assert!(FactOverride::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(
            FactOverride::parse("a=(boolean)maybe").unwrap_err(),
            "--fact-override 'a=(boolean)maybe': Illegal boolean 'maybe'"
        );
    }

    #[test]
    fn names_set_or_delete_and_patterns_change_only_existing_facts() {
        let mut m = facts();
        FactOverride::parse("os.family=Debian")
            .unwrap()
            .apply(&mut m);
        assert_eq!(get(&m, "os.family"), Some(Value::string("Debian")));
        FactOverride::parse("/^ipaddress/=10.11.12.13")
            .unwrap()
            .apply(&mut m);
        assert_eq!(
            get(&m, "ipaddress_eth0"),
            Some(Value::string("10.11.12.13"))
        );
        assert_eq!(get(&m, "additional_ipaddress"), Some(Value::string("x")));
        FactOverride::parse("/^ipaddress/=(nil)")
            .unwrap()
            .apply(&mut m);
        assert_eq!(get(&m, "ipaddress"), None);
        FactOverride::parse("additional_ipaddress=(nil)")
            .unwrap()
            .apply(&mut m);
        assert_eq!(m.len(), 1);
        let mut j = serde_json::Map::new();
        FactOverride::parse("n=(json)[1]")
            .unwrap()
            .apply_json(&mut j);
        assert_eq!(serde_json::Value::Object(j), serde_json::json!({"n": [1]}));
    }
}
