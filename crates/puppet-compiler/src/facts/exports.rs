//! Exported resources as PuppetDB holds them: the answer of its resources
//! endpoint (`/pdb/query/v4/resources`), an array of
//! `{certname, type, title, exported, parameters, tags, file, line,
//! environment, resource}`, read from a snapshot of a fleet or gathered from
//! the catalogs of the nodes compiled in the same run.
//!
//! [`Exports::search`] answers an exported collector (`Type <<| query |>>`)
//! as puppetdb-termini's `Puppet::Resource::Puppetdb#search` asks PuppetDB:
//!
//! ```text
//! ['and', ['=', 'type', TYPE], ['=', 'exported', true],
//!         ['not', ['=', 'certname', HOST]], FILTER]
//! ```
//!
//! so a node never collects its own exports from the store (it collects
//! them from its own catalog), resources of every environment are found,
//! and the collector's query becomes [`Filter`]: `tag == v` compares the
//! downcased `v` with the resource's tags, `title == v` the title, any other
//! `name == v` is PuppetDB's `['=', ['parameter', name], v]`, which PuppetDB
//! 7 and 8 compile to JSON containment (`parameters @> {name: v}`: equal
//! scalars of the same JSON type, so `"22"` is not `22`, and an array
//! parameter is not matched by one of its elements); `!=` is `not` of `==`.

use puppet_model::Value;

/// One resource of PuppetDB's answer.
#[derive(Clone, Debug, PartialEq)]
pub struct ExportedResource {
    pub certname: String,
    /// As PuppetDB spells it: each `::` segment capitalised (`Nagios_host`,
    /// `Ssh::Key`).
    pub type_name: String,
    pub title: String,
    pub exported: bool,
    /// In PuppetDB's order (a collected resource takes them in this order).
    pub parameters: serde_json::Map<String, serde_json::Value>,
    pub tags: Vec<String>,
}

/// Exported resources of a fleet, in the order given (collectors collect
/// in this order).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Exports {
    pub resources: Vec<ExportedResource>,
}

/// A collector's query as PuppetDB's filter (see the module's text).
#[derive(Clone, Debug, PartialEq)]
pub enum Filter {
    Tag(serde_json::Value),
    Title(serde_json::Value),
    Parameter(String, serde_json::Value),
    Not(Box<Filter>),
    And(Box<Filter>, Box<Filter>),
    Or(Box<Filter>, Box<Filter>),
    /// A query that matches nothing (one pverify's collector never matches).
    Nothing,
}

impl Exports {
    /// PuppetDB's JSON answer; an error says which entry is wrong and why.
    pub fn from_json_text(text: &str) -> Result<Exports, String> {
        let v: serde_json::Value =
            serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
        Exports::from_json(&v)
    }

    /// See [`Exports::from_json_text`].
    pub fn from_json(v: &serde_json::Value) -> Result<Exports, String> {
        let items = v.as_array().ok_or(
            "expected an array of resources, as PuppetDB's /pdb/query/v4/resources answers",
        )?;
        let mut resources = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let at = |what: &str| format!("resource {i}: {what}");
            let obj = item.as_object().ok_or_else(|| at("not an object"))?;
            let text = |key: &str| -> Result<String, String> {
                obj.get(key)
                    .and_then(|v| v.as_str())
                    .map(str::to_string)
                    .ok_or_else(|| at(&format!("`{key}` is missing or not a string")))
            };
            let parameters = match obj.get("parameters") {
                None | Some(serde_json::Value::Null) => serde_json::Map::new(),
                Some(serde_json::Value::Object(p)) => p.clone(),
                Some(_) => return Err(at("`parameters` is not an object")),
            };
            let tags = match obj.get("tags") {
                None | Some(serde_json::Value::Null) => Vec::new(),
                Some(serde_json::Value::Array(t)) => t
                    .iter()
                    .map(|t| t.as_str().map(str::to_string))
                    .collect::<Option<_>>()
                    .ok_or_else(|| at("a tag is not a string"))?,
                Some(_) => return Err(at("`tags` is not an array")),
            };
            let (certname, type_name, title) = (text("certname")?, text("type")?, text("title")?);
            let exported = match obj.get("exported") {
                Some(serde_json::Value::Bool(b)) => *b,
                _ => return Err(at("`exported` is missing or not a boolean")),
            };
            resources.push(ExportedResource {
                certname,
                type_name,
                title,
                exported,
                parameters,
                tags,
            });
        }
        Ok(Exports { resources })
    }

    /// The resources an exported collector of `type_name` (capitalised as
    /// PuppetDB spells types) on node `host` finds, in store order.
    pub fn search<'a>(
        &'a self,
        type_name: &'a str,
        host: &'a str,
        filter: Option<&'a Filter>,
    ) -> impl Iterator<Item = &'a ExportedResource> + 'a {
        self.resources.iter().filter(move |r| {
            r.type_name == type_name
                && r.exported
                && r.certname != host
                && filter.is_none_or(|f| f.matches(r))
        })
    }

    /// The store with every resource of `certname` replaced by `theirs`
    /// (a node compiled in this run replaces its snapshot, as PuppetDB
    /// replaces a node's resources with each catalog it stores).
    pub fn replace_node(&mut self, certname: &str, theirs: Vec<ExportedResource>) {
        self.resources.retain(|r| r.certname != certname);
        self.resources.extend(theirs);
    }

    /// A catalog's exported resources (`"exported": true`) as PuppetDB
    /// stores them for node `certname`.
    pub fn of_catalog(certname: &str, catalog: &serde_json::Value) -> Vec<ExportedResource> {
        let Some(resources) = catalog["resources"].as_array() else {
            return Vec::new();
        };
        resources
            .iter()
            .filter(|r| r["exported"] == serde_json::Value::Bool(true))
            .filter_map(|r| {
                Some(ExportedResource {
                    certname: certname.to_string(),
                    type_name: r["type"].as_str()?.to_string(),
                    title: r["title"].as_str()?.to_string(),
                    exported: true,
                    parameters: r["parameters"].as_object().cloned().unwrap_or_default(),
                    tags: r["tags"]
                        .as_array()
                        .map(|t| {
                            t.iter()
                                .filter_map(|t| t.as_str().map(str::to_string))
                                .collect()
                        })
                        .unwrap_or_default(),
                })
            })
            .collect()
    }

    /// The resources as PuppetDB's answer (the keys pverify reads).
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::Value::Array(
            self.resources
                .iter()
                .map(|r| {
                    serde_json::json!({
                        "certname": r.certname,
                        "type": r.type_name,
                        "title": r.title,
                        "exported": r.exported,
                        "parameters": r.parameters,
                        "tags": r.tags,
                    })
                })
                .collect(),
        )
    }
}

impl Filter {
    /// `field == value` as PuppetDB's predicate.
    pub fn equal(field: &str, value: &Value) -> Filter {
        let value = super::plain_json(value);
        match field {
            "tag" => Filter::Tag(value),
            "title" => Filter::Title(value),
            _ => Filter::Parameter(field.to_string(), value),
        }
    }

    pub fn matches(&self, r: &ExportedResource) -> bool {
        match self {
            Filter::Tag(v) => match v {
                // PuppetDB's tags are case-insensitive: the terminus
                // downcases the value (Ruby's `downcase`: full Unicode).
                serde_json::Value::String(s) => {
                    let s = s.to_lowercase();
                    r.tags.contains(&s)
                }
                _ => false,
            },
            Filter::Title(v) => v.as_str() == Some(r.title.as_str()),
            Filter::Parameter(name, v) => r
                .parameters
                .get(name)
                .is_some_and(|have| json_contains(have, v)),
            Filter::Not(f) => !f.matches(r),
            Filter::And(a, b) => a.matches(r) && b.matches(r),
            Filter::Or(a, b) => a.matches(r) || b.matches(r),
            Filter::Nothing => false,
        }
    }
}

/// PostgreSQL's `jsonb @>` below the top level: objects contain objects
/// key by key, arrays contain arrays element by element (in any order),
/// scalars must be equal and of the same JSON type (numbers by value).
fn json_contains(have: &serde_json::Value, want: &serde_json::Value) -> bool {
    use serde_json::Value as J;
    match (have, want) {
        (J::Object(h), J::Object(w)) => w
            .iter()
            .all(|(k, wv)| h.get(k).is_some_and(|hv| json_contains(hv, wv))),
        (J::Array(h), J::Array(w)) => w.iter().all(|wv| h.iter().any(|hv| json_contains(hv, wv))),
        (J::Number(h), J::Number(w)) => match (h.as_i64(), w.as_i64()) {
            (Some(a), Some(b)) => a == b,
            _ => h.as_f64() == w.as_f64(),
        },
        (J::Object(_) | J::Array(_), _) | (_, J::Object(_) | J::Array(_)) => false,
        (h, w) => h == w,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn store() -> Exports {
        Exports::from_json(&json!([
            {"certname": "a", "type": "Notify", "title": "x", "exported": true,
             "parameters": {"port": 22, "list": ["p", "q"]}, "tags": ["mon", "notify"]},
            {"certname": "b", "type": "Notify", "title": "y", "exported": true,
             "parameters": {"port": "22"}, "tags": ["notify"]},
            {"certname": "c", "type": "Notify", "title": "z", "exported": false,
             "parameters": {}, "tags": []},
        ]))
        .unwrap()
    }

    fn titles(f: Option<&Filter>, host: &str) -> Vec<String> {
        let s = store();
        s.search("Notify", host, f)
            .map(|r| r.title.clone())
            .collect()
    }

    #[test]
    fn own_and_unexported_resources_are_not_found() {
        assert_eq!(titles(None, "a"), ["y"]);
        assert_eq!(titles(None, "nobody"), ["x", "y"]);
    }

    #[test]
    fn parameters_compare_as_json_containment() {
        let f = Filter::equal("port", &Value::Integer(22));
        assert_eq!(titles(Some(&f), "n"), ["x"]);
        let f = Filter::equal("list", &Value::string("p"));
        assert!(titles(Some(&f), "n").is_empty());
        let f = Filter::equal("list", &Value::array(vec![Value::string("q")]));
        assert_eq!(titles(Some(&f), "n"), ["x"]);
        let f = Filter::Not(Box::new(Filter::equal("port", &Value::Integer(22))));
        assert_eq!(titles(Some(&f), "n"), ["y"]);
    }

    #[test]
    fn tags_are_case_insensitive() {
        let f = Filter::equal("tag", &Value::string("MON"));
        assert_eq!(titles(Some(&f), "n"), ["x"]);
    }

    #[test]
    fn bad_entries_are_named() {
        let e = Exports::from_json(&json!([{"certname": "a"}])).unwrap_err();
        assert!(e.starts_with("resource 0: "), "{e}");
        assert!(Exports::from_json(&json!({})).is_err());
    }
}
