//! onceover's `spec/onceover.yaml` read as onceover reads it
//! (`Onceover::TestConfig`): `classes` (a `/regex/` entry stands for every
//! class of the repo it matches), `nodes` (fact set names), `node_groups`
//! and `class_groups` (lists of members or groups, or `{include, exclude}`),
//! the default groups `all_nodes` and `all_classes`, and `test_matrix`'s
//! spec tests, deduplicated to (node, class) pairs in onceover's order.
//! `functions` (mocks) are read by `FunctionMocks`; `before`/`after`
//! (rspec Ruby) and `spec/pre_conditions` are out of scope.

use std::collections::BTreeSet;
use std::path::Path;

use puppet_model::Value;

/// One spec test: a class compiled on a node's fact set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecTest {
    pub class: String,
    pub node: String,
}

/// What `spec/onceover.yaml` asks for.
#[derive(Clone, Debug, Default)]
pub struct Onceover {
    pub tests: Vec<SpecTest>,
    /// Whether it has function mocks (`functions:`).
    pub has_mocks: bool,
    /// What it holds that pverify does not apply.
    pub notes: Vec<String>,
}

/// A member of a group: classes and nodes are told apart, as onceover's
/// groups must hold one kind.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Member {
    Class(String),
    Node(String),
}

struct Groups {
    classes: Vec<String>,
    nodes: Vec<String>,
    /// Named groups, in definition order (`all_nodes`, `all_classes`
    /// first).
    groups: Vec<(String, Vec<Member>)>,
}

fn is_regex(s: &str) -> bool {
    s.len() >= 2 && s.starts_with('/') && s.ends_with('/')
}

/// The repo classes a `/regex/` entry matches (Ruby's `=~`, unanchored).
fn regex_matches(pattern: &str, classes: &[String]) -> Result<Vec<String>, String> {
    let source = &pattern[1..pattern.len() - 1];
    let re = puppet_model::values::types::regex::compile_ruby(source)
        .map_err(|e| format!("onceover.yaml: class pattern {pattern}: {e}"))?;
    Ok(classes
        .iter()
        .filter(|c| re.is_match(c).unwrap_or(false))
        .cloned()
        .collect())
}

impl Groups {
    fn group(&self, name: &str) -> Option<&Vec<Member>> {
        self.groups.iter().find(|(n, _)| n == name).map(|(_, m)| m)
    }

    /// onceover's `TestConfig.find_list`: a group, else a class (a regex:
    /// the classes it matches), else a node.
    fn find_list(&self, thing: &str) -> Result<Vec<Member>, String> {
        if let Some(m) = self.group(thing) {
            return Ok(m.clone());
        }
        if is_regex(thing) {
            let found: Vec<Member> = regex_matches(thing, &self.classes)?
                .into_iter()
                .map(Member::Class)
                .collect();
            if !found.is_empty() {
                return Ok(found);
            }
        } else if self.classes.iter().any(|c| c == thing) {
            return Ok(vec![Member::Class(thing.to_string())]);
        }
        if self.nodes.iter().any(|n| n == thing) {
            return Ok(vec![Member::Node(thing.to_string())]);
        }
        Err(format!(
            "onceover.yaml: could not find {thing} in list of classes, nodes or groups"
        ))
    }

    /// A group's or a test's member list: a name, a list of names, or
    /// `{include: X, exclude: Y}`.
    fn members(&self, v: &Value) -> Result<Vec<Member>, String> {
        match v {
            Value::Undef => Ok(Vec::new()),
            Value::String(s) => self.find_list(s),
            Value::Array(a) => {
                let mut out = Vec::new();
                for m in a.iter() {
                    out.extend(self.members(m)?);
                }
                Ok(out)
            }
            Value::Hash(h) => {
                let get = |k: &str| h.get(&Value::string(k)).cloned().unwrap_or(Value::Undef);
                let include = self.members(&get("include"))?;
                let exclude = self.members(&get("exclude"))?;
                Ok(include
                    .into_iter()
                    .filter(|m| !exclude.contains(m))
                    .collect())
            }
            other => Err(format!("onceover.yaml: unexpected group member {other:?}")),
        }
    }
}

fn strings(v: Option<&Value>) -> Vec<String> {
    match v {
        Some(Value::Array(a)) => a
            .iter()
            .filter_map(|s| s.as_str().map(str::to_string))
            .collect(),
        _ => Vec::new(),
    }
}

/// Reads `spec/onceover.yaml` of the repo; `repo_classes` are the classes
/// its regexes are matched against.
pub fn read(dir: &Path, repo_classes: &BTreeSet<String>) -> Result<Onceover, String> {
    let path = dir.join("spec/onceover.yaml");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let doc = puppet_model::yaml::load(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let Ok(doc) = doc.into_hash() else {
        return Err(format!("{}: expected a mapping", path.display()));
    };
    let get = |k: &str| doc.get(&Value::string(k));
    let repo_classes: Vec<String> = repo_classes.iter().cloned().collect();
    // `classes`: each entry a class, or a regex standing for the repo's
    // classes it matches.
    let mut classes = Vec::new();
    for c in strings(get("classes")) {
        if is_regex(&c) {
            for m in regex_matches(&c, &repo_classes)? {
                if !classes.contains(&m) {
                    classes.push(m);
                }
            }
        } else if !classes.contains(&c) {
            classes.push(c);
        }
    }
    let nodes = strings(get("nodes"));
    let mut g = Groups {
        groups: vec![
            (
                "all_nodes".into(),
                nodes.iter().cloned().map(Member::Node).collect(),
            ),
            (
                "all_classes".into(),
                classes.iter().cloned().map(Member::Class).collect(),
            ),
        ],
        classes,
        nodes,
    };
    for key in ["node_groups", "class_groups"] {
        if let Some(Value::Hash(groups)) = get(key) {
            for (name, members) in groups.iter() {
                let name = name.as_str().unwrap_or_default().to_string();
                let m = g.members(members)?;
                g.groups.push((name, m));
            }
        }
    }
    let mut out = Onceover::default();
    let mut seen: Vec<SpecTest> = Vec::new();
    if let Some(Value::Array(matrix)) = get("test_matrix") {
        for row in matrix.iter() {
            let Value::Hash(row) = row else { continue };
            for (on, settings) in row.iter() {
                let Value::Hash(settings) = settings else {
                    continue;
                };
                let tests = settings
                    .get(&Value::string("tests"))
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                if tests == "acceptance" {
                    out.notes.push(format!(
                        "test_matrix: {}'s acceptance tests are out of scope",
                        on.as_str().unwrap_or_default()
                    ));
                    continue;
                }
                if tests != "spec" && tests != "all_tests" {
                    continue;
                }
                let on = on.as_str().unwrap_or_default();
                let test_nodes = match g.group(on) {
                    Some(m) => m.clone(),
                    None if g.nodes.iter().any(|n| n == on) => vec![Member::Node(on.into())],
                    None => {
                        return Err(format!(
                            "onceover.yaml: test_matrix: {on} was not found in the list of nodes or groups!"
                        ))
                    }
                };
                let what = settings
                    .get(&Value::string("classes"))
                    .cloned()
                    .unwrap_or(Value::Undef);
                let test_classes = g.members(&what)?;
                for n in &test_nodes {
                    let Member::Node(node) = n else {
                        return Err(format!(
                            "onceover.yaml: test_matrix: {on} holds a class, not nodes"
                        ));
                    };
                    for c in &test_classes {
                        let Member::Class(class) = c else {
                            return Err(format!(
                                "onceover.yaml: test_matrix: the classes of {on} hold a node"
                            ));
                        };
                        let t = SpecTest {
                            class: class.clone(),
                            node: node.clone(),
                        };
                        if !seen.contains(&t) {
                            seen.push(t);
                        }
                    }
                }
            }
        }
    }
    out.tests = seen;
    out.has_mocks = matches!(get("functions"), Some(Value::Hash(_)));
    for key in ["before", "after"] {
        if get(key).is_some() {
            out.notes.push(format!(
                "`{key}:` (rspec Ruby run around each test) is out of scope: not applied"
            ));
        }
    }
    if dir.join("spec/pre_conditions").is_dir() {
        out.notes.push(
            "spec/pre_conditions/*.pp are out of scope: not compiled before the class".into(),
        );
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regexes_groups_and_the_matrix_as_onceover_expands_them() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("spec")).unwrap();
        std::fs::write(
            dir.path().join("spec/onceover.yaml"),
            "classes:\n  - /^role::/\n  - profile::extra\nnodes:\n  - Debian-12\n  - RHEL-9\n  - Win\n\
             node_groups:\n  linux:\n    include: all_nodes\n    exclude: Win\n\
             class_groups:\n  web: [role::web]\n\
             test_matrix:\n  - linux:\n      classes: all_classes\n      tests: spec\n  \
             - Win:\n      classes: web\n      tests: all_tests\n  - all_nodes:\n      classes: web\n      tests: acceptance\n\
             functions:\n  f:\n    returns: 1\nbefore:\n  - 'x'\n",
        )
        .unwrap();
        let repo: BTreeSet<String> = ["role::web", "role::db", "profile::base", "myrole::x"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let o = read(dir.path(), &repo).unwrap();
        let pairs: Vec<(&str, &str)> = o
            .tests
            .iter()
            .map(|t| (t.node.as_str(), t.class.as_str()))
            .collect();
        assert_eq!(
            pairs,
            [
                ("Debian-12", "role::db"),
                ("Debian-12", "role::web"),
                ("Debian-12", "profile::extra"),
                ("RHEL-9", "role::db"),
                ("RHEL-9", "role::web"),
                ("RHEL-9", "profile::extra"),
                ("Win", "role::web"),
            ]
        );
        assert!(o.has_mocks);
        assert_eq!(o.notes.len(), 2, "{:?}", o.notes);
    }
}
