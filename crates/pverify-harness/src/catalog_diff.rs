//! Catalog differences per resource and parameter, for failure reports:
//! which resources were added or removed, which parameters (and which of
//! `tags`, `file`, `line`, `exported`) changed, which edges and classes
//! differ. Long strings (file content) are shown as `similar` unified diffs.

use serde::Serialize;
use serde_json::Value;

/// One difference between an expected and an actual catalog.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Change {
    /// `added` (only in actual), `removed` (only in expected) or `changed`.
    pub kind: ChangeKind,
    /// `Type[title]` for a resource change; `edge` for an edge; `class` for
    /// a class; `catalog` for a top-level key.
    pub resource: String,
    /// The parameter (or `@tags`, `@file`, `@line`, `@exported`, the
    /// catalog key, the edge or class), absent for a whole resource.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parameter: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub actual: Option<Value>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ChangeKind {
    Added,
    Removed,
    Changed,
}

/// A pattern of differences to leave out: resources matching `resource`
/// (a pattern over `Type[title]`, e.g. `File[/etc/*]`: `*` and `?` are
/// wildcards, brackets are literal), and if `parameter` is given only that
/// parameter (a pattern too, e.g. `@tags`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize, Serialize)]
pub struct Ignore {
    pub resource: String,
    #[serde(default)]
    pub parameter: Option<String>,
}

impl Ignore {
    fn matches(&self, c: &Change) -> bool {
        let glob = |pat: &str, s: &str| wildcard(pat, s);
        if !glob(&self.resource, &c.resource) {
            return false;
        }
        match (&self.parameter, &c.parameter) {
            (None, _) => true,
            (Some(p), Some(q)) => glob(p, q),
            (Some(_), None) => false,
        }
    }
}

/// `*` (any run of characters) and `?` (one character) match; everything
/// else, `[` and `]` of `Type[title]` included, is literal.
fn wildcard(pat: &str, s: &str) -> bool {
    let (p, t): (Vec<char>, Vec<char>) = (pat.chars().collect(), s.chars().collect());
    // Iterative matching with one backtrack point (the last `*`).
    let (mut pi, mut ti, mut star, mut mark) = (0, 0, None, 0);
    while ti < t.len() {
        if pi < p.len() && (p[pi] == '?' || p[pi] == t[ti]) {
            pi += 1;
            ti += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some(pi);
            mark = ti;
            pi += 1;
        } else if let Some(sp) = star {
            pi = sp + 1;
            mark += 1;
            ti = mark;
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|c| *c == '*')
}

fn resource_ref(r: &Value) -> String {
    format!(
        "{}[{}]",
        r["type"].as_str().unwrap_or("?"),
        r["title"]
            .as_str()
            .map_or_else(|| r["title"].to_string(), str::to_string)
    )
}

/// The differences between two catalogs in Puppet's JSON form, in the
/// expected catalog's order (then what only the actual one has), without
/// those matched by `ignores`.
pub fn catalog_diff(expected: &Value, actual: &Value, ignores: &[Ignore]) -> Vec<Change> {
    let mut out = Vec::new();
    let mut push =
        |kind, resource: &str, parameter: Option<String>, e: Option<&Value>, a: Option<&Value>| {
            out.push(Change {
                kind,
                resource: resource.to_string(),
                parameter,
                expected: e.cloned(),
                actual: a.cloned(),
            })
        };
    // Top-level keys other than those compared below.
    let (eo, ao) = (obj(expected), obj(actual));
    for (k, v) in &eo {
        if matches!(*k, "resources" | "edges" | "classes") {
            continue;
        }
        match ao.iter().find(|(x, _)| x == k) {
            Some((_, w)) if w == v => {}
            w => push(
                ChangeKind::Changed,
                "catalog",
                Some(k.to_string()),
                Some(v),
                w.map(|x| x.1),
            ),
        }
    }
    for (k, w) in &ao {
        if !matches!(*k, "resources" | "edges" | "classes") && !eo.iter().any(|(x, _)| x == k) {
            push(
                ChangeKind::Added,
                "catalog",
                Some(k.to_string()),
                None,
                Some(w),
            );
        }
    }
    // Resources, by Type[title].
    let list = |v: &Value, k: &str| v[k].as_array().cloned().unwrap_or_default();
    let (er, ar) = (list(expected, "resources"), list(actual, "resources"));
    let index = |rs: &[Value]| -> indexmap::IndexMap<String, Value> {
        rs.iter().map(|r| (resource_ref(r), r.clone())).collect()
    };
    let (ei, ai) = (index(&er), index(&ar));
    for (name, e) in &ei {
        let Some(a) = ai.get(name) else {
            push(ChangeKind::Removed, name, None, Some(e), None);
            continue;
        };
        let (ep, ap) = (obj(&e["parameters"]), obj(&a["parameters"]));
        for (k, v) in &ep {
            match ap.iter().find(|(x, _)| x == k) {
                Some((_, w)) if w == v => {}
                Some((_, w)) => push(
                    ChangeKind::Changed,
                    name,
                    Some(k.to_string()),
                    Some(v),
                    Some(w),
                ),
                None => push(
                    ChangeKind::Removed,
                    name,
                    Some(k.to_string()),
                    Some(v),
                    None,
                ),
            }
        }
        for (k, w) in &ap {
            if !ep.iter().any(|(x, _)| x == k) {
                push(ChangeKind::Added, name, Some(k.to_string()), None, Some(w));
            }
        }
        for key in ["tags", "file", "line", "exported"] {
            let (v, w) = (e.get(key), a.get(key));
            if v != w {
                let kind = match (v, w) {
                    (None, _) => ChangeKind::Added,
                    (_, None) => ChangeKind::Removed,
                    _ => ChangeKind::Changed,
                };
                push(kind, name, Some(format!("@{key}")), v, w);
            }
        }
    }
    for (name, a) in &ai {
        if !ei.contains_key(name) {
            push(ChangeKind::Added, name, None, None, Some(a));
        }
    }
    // Edges and classes, as sets.
    let edge = |e: &Value| {
        format!(
            "{} -> {}",
            e["source"].as_str().unwrap_or("?"),
            e["target"].as_str().unwrap_or("?")
        )
    };
    let (ee, ae): (Vec<String>, Vec<String>) = (
        list(expected, "edges").iter().map(edge).collect(),
        list(actual, "edges").iter().map(edge).collect(),
    );
    for e in ee.iter().filter(|e| !ae.contains(e)) {
        push(ChangeKind::Removed, "edge", Some(e.clone()), None, None);
    }
    for e in ae.iter().filter(|e| !ee.contains(e)) {
        push(ChangeKind::Added, "edge", Some(e.clone()), None, None);
    }
    let names = |v: &Value| -> Vec<String> {
        list(v, "classes")
            .iter()
            .map(|c| c.as_str().map_or_else(|| c.to_string(), str::to_string))
            .collect()
    };
    let (ec, ac) = (names(expected), names(actual));
    for c in ec.iter().filter(|c| !ac.contains(c)) {
        push(ChangeKind::Removed, "class", Some(c.clone()), None, None);
    }
    for c in ac.iter().filter(|c| !ec.contains(c)) {
        push(ChangeKind::Added, "class", Some(c.clone()), None, None);
    }
    let edge_order =
        ee != ae && !ee.iter().any(|e| !ae.contains(e)) && !ae.iter().any(|e| !ee.contains(e));
    if edge_order {
        push(
            ChangeKind::Changed,
            "catalog",
            Some("edges (order)".into()),
            None,
            None,
        );
    }
    if ei.len() == ai.len() && ei.keys().all(|k| ai.contains_key(k)) && ei.keys().ne(ai.keys()) {
        push(
            ChangeKind::Changed,
            "catalog",
            Some("resources (order)".into()),
            None,
            None,
        );
    }
    out.retain(|c| !ignores.iter().any(|i| i.matches(c)));
    out
}

fn obj(v: &Value) -> Vec<(&str, &Value)> {
    v.as_object()
        .map(|m| m.iter().map(|(k, v)| (k.as_str(), v)).collect())
        .unwrap_or_default()
}

/// ANSI colours, or none.
#[derive(Debug, Clone, Copy)]
pub struct Paint(pub bool);

impl Paint {
    pub fn red(self, s: &str) -> String {
        self.wrap("31", s)
    }
    pub fn green(self, s: &str) -> String {
        self.wrap("32", s)
    }
    pub fn yellow(self, s: &str) -> String {
        self.wrap("33", s)
    }
    pub fn bold(self, s: &str) -> String {
        self.wrap("1", s)
    }
    fn wrap(self, code: &str, s: &str) -> String {
        if self.0 {
            format!("\x1b[{code}m{s}\x1b[0m")
        } else {
            s.to_string()
        }
    }
}

/// A string longer than this, or with a line break, is shown as a diff.
const LONG: usize = 60;

fn short(v: &Value) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

/// Readable lines for the changes, each indented by `indent`.
pub fn render_changes(changes: &[Change], indent: &str, paint: Paint) -> String {
    let mut out = String::new();
    for c in changes {
        let what = match &c.parameter {
            Some(p) => format!("{} {p}", c.resource),
            None => c.resource.clone(),
        };
        match (c.kind, &c.expected, &c.actual) {
            (ChangeKind::Added, _, a) => {
                let v = if c.parameter.is_some() {
                    a.as_ref().map(short)
                } else {
                    None
                };
                out.push_str(&paint.green(&format!(
                    "{indent}+ {what}{}",
                    v.map(|v| format!(" = {}", clip(&v))).unwrap_or_default()
                )));
                out.push('\n');
            }
            (ChangeKind::Removed, e, _) => {
                let v = if c.parameter.is_some() {
                    e.as_ref().map(short)
                } else {
                    None
                };
                out.push_str(&paint.red(&format!(
                    "{indent}- {what}{}",
                    v.map(|v| format!(" (was {})", clip(&v))).unwrap_or_default()
                )));
                out.push('\n');
            }
            (ChangeKind::Changed, Some(Value::String(e)), Some(Value::String(a)))
                if e.len() > LONG || a.len() > LONG || e.contains('\n') || a.contains('\n') =>
            {
                out.push_str(&paint.yellow(&format!("{indent}~ {what}:")));
                out.push('\n');
                out.push_str(&text_diff(
                    e,
                    a,
                    "expected",
                    "actual",
                    &format!("{indent}    "),
                    paint,
                ));
            }
            (ChangeKind::Changed, e, a) => {
                let show = |v: &Option<Value>| {
                    v.as_ref().map_or("(none)".to_string(), |v| clip(&short(v)))
                };
                out.push_str(&paint.yellow(&format!(
                    "{indent}~ {what}: {} -> {}",
                    show(e),
                    show(a)
                )));
                out.push('\n');
            }
        }
    }
    out
}

fn clip(s: &str) -> String {
    if s.chars().count() > 200 {
        format!("{}...", s.chars().take(200).collect::<String>())
    } else {
        s.to_string()
    }
}

/// A unified diff of two texts (`similar`), each line indented.
pub fn text_diff(
    old: &str,
    new: &str,
    old_name: &str,
    new_name: &str,
    indent: &str,
    paint: Paint,
) -> String {
    let diff = similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(old_name, new_name)
        .to_string();
    let mut out = String::new();
    for l in diff.lines() {
        let line = format!("{indent}{l}");
        let line = if l.starts_with('+') && !l.starts_with("+++") {
            paint.green(&line)
        } else if l.starts_with('-') && !l.starts_with("---") {
            paint.red(&line)
        } else {
            line
        };
        out.push_str(&line);
        out.push('\n');
    }
    if !old.ends_with('\n') || !new.ends_with('\n') {
        // similar marks a missing final newline itself; nothing to add.
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn cat(msg: &str, extra: bool) -> Value {
        let mut rs = vec![
            json!({"type": "Notify", "title": "a", "tags": ["notify"], "parameters": {"message": msg}}),
        ];
        if extra {
            rs.push(json!({"type": "File", "title": "/x", "parameters": {"content": "1\n2\n"}}));
        }
        json!({"tags": [], "name": "n", "resources": rs, "edges": [], "classes": ["main"]})
    }

    #[test]
    fn names_changed_parameters_and_resources() {
        let d = catalog_diff(&cat("a", false), &cat("b", true), &[]);
        assert_eq!(d.len(), 2);
        assert_eq!(d[0].resource, "Notify[a]");
        assert_eq!(d[0].parameter.as_deref(), Some("message"));
        assert_eq!(d[0].kind, ChangeKind::Changed);
        assert_eq!(
            (d[1].resource.as_str(), d[1].kind),
            ("File[/x]", ChangeKind::Added)
        );
        let ig = [Ignore {
            resource: "File[*]".into(),
            parameter: None,
        }];
        assert_eq!(
            catalog_diff(&cat("a", false), &cat("b", true), &ig).len(),
            1
        );
        let ig = [Ignore {
            resource: "Notify[a]".into(),
            parameter: Some("mess*".into()),
        }];
        assert_eq!(
            catalog_diff(&cat("a", false), &cat("b", false), &ig),
            vec![]
        );
    }

    #[test]
    fn wildcards_keep_brackets_literal() {
        assert!(wildcard("File[*]", "File[/etc/motd]"));
        assert!(wildcard("File[/etc/*]", "File[/etc/motd]"));
        assert!(!wildcard("File[/etc/*]", "File[/var/x]"));
        assert!(wildcard("*", "anything"));
        assert!(wildcard("@t?gs", "@tags"));
        assert!(!wildcard("Notify[a]", "Notify[ab]"));
        assert!(wildcard("a*b*c", "aXbYbc"));
    }

    #[test]
    fn long_strings_render_as_unified_diffs() {
        let c = Change {
            kind: ChangeKind::Changed,
            resource: "File[/x]".into(),
            parameter: Some("content".into()),
            expected: Some(json!("1\n2\n3\n")),
            actual: Some(json!("1\nTWO\n3\n")),
        };
        let r = render_changes(&[c], "  ", Paint(false));
        assert!(r.contains("~ File[/x] content:"), "{r}");
        assert!(r.contains("-2") && r.contains("+TWO"), "{r}");
    }
}
