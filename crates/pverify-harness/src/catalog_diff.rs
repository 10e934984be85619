//! Catalog differences as `run`, `check` and `bless` report them: the
//! shared walk ([`crate::catalog_changes`]) under rules that take the
//! catalog as written and count every difference (top-level keys, `tags`,
//! `file`, `line`, `exported`, order), seen as `added`/`removed`/`changed`
//! lines per resource and parameter ([`Reported`]). Long strings (file
//! content) are shown as `similar` unified diffs.

use serde::{Serialize, Serializer};
use serde_json::Value;

use crate::catalog_changes::{self, Change, Rules};

/// A change as `run` and `check` show it (text and the `changes` of
/// `pverify-report/1`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Reported {
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

/// Added, removed or changed by which side has a value.
fn kind_of(expected: &Option<Value>, actual: &Option<Value>) -> ChangeKind {
    match (expected, actual) {
        (None, _) => ChangeKind::Added,
        (_, None) => ChangeKind::Removed,
        _ => ChangeKind::Changed,
    }
}

impl Reported {
    pub fn of(change: &Change) -> Reported {
        let (resource, parameter) = subject(change);
        let (kind, expected, actual) = match change {
            Change::ResourceAdded { value, .. } => (ChangeKind::Added, None, Some(value.clone())),
            Change::ResourceRemoved { value, .. } => {
                (ChangeKind::Removed, Some(value.clone()), None)
            }
            Change::ParameterChanged { from, to, .. }
            | Change::AttributeChanged { from, to, .. } => {
                (kind_of(from, to), from.clone(), to.clone())
            }
            // A key only the expected catalog has is `changed` (to none).
            Change::CatalogKeyChanged { from: None, to, .. } => {
                (ChangeKind::Added, None, to.clone())
            }
            Change::CatalogKeyChanged { from, to, .. } => {
                (ChangeKind::Changed, from.clone(), to.clone())
            }
            // Not made by these rules (`pverify diff`'s): shown as changed.
            Change::ContentChanged { diff, .. } => {
                (ChangeKind::Changed, None, Some(Value::String(diff.clone())))
            }
            Change::RelationshipChanged { added, removed, .. } => (
                ChangeKind::Changed,
                Some(Value::from(removed.clone())),
                Some(Value::from(added.clone())),
            ),
            Change::EdgeAdded { .. } | Change::ClassAdded { .. } => (ChangeKind::Added, None, None),
            Change::EdgeRemoved { .. } | Change::ClassRemoved { .. } => {
                (ChangeKind::Removed, None, None)
            }
            Change::OrderChanged { .. } => (ChangeKind::Changed, None, None),
        };
        Reported {
            kind,
            resource,
            parameter,
            expected,
            actual,
        }
    }
}

/// What a change is about, as `run` and `check` name it: (resource,
/// parameter).
fn subject(change: &Change) -> (String, Option<String>) {
    match change {
        Change::ResourceAdded { resource, .. } | Change::ResourceRemoved { resource, .. } => {
            (resource.clone(), None)
        }
        Change::ParameterChanged {
            resource,
            parameter,
            ..
        }
        | Change::ContentChanged {
            resource,
            parameter,
            ..
        }
        | Change::RelationshipChanged {
            resource,
            parameter,
            ..
        } => (resource.clone(), Some(parameter.clone())),
        Change::AttributeChanged {
            resource,
            attribute,
            ..
        } => (resource.clone(), Some(format!("@{attribute}"))),
        Change::EdgeAdded { source, target } | Change::EdgeRemoved { source, target } => {
            ("edge".into(), Some(format!("{source} -> {target}")))
        }
        Change::ClassAdded { class } | Change::ClassRemoved { class } => {
            ("class".into(), Some(class.clone()))
        }
        Change::CatalogKeyChanged { key, .. } => ("catalog".into(), Some(key.clone())),
        Change::OrderChanged { of } => ("catalog".into(), Some(format!("{of} (order)"))),
    }
}

/// Changes serialized as `run` and `check` report them (for
/// `#[serde(serialize_with)]`).
pub fn serialize_changes<S: Serializer>(changes: &[Change], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(changes.iter().map(Reported::of))
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
    fn matches(&self, resource: &str, parameter: Option<&str>) -> bool {
        if !wildcard(&self.resource, resource) {
            return false;
        }
        match (&self.parameter, parameter) {
            (None, _) => true,
            (Some(p), Some(q)) => wildcard(p, q),
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

/// The rules of `run` and `check`: resources named `Type[title]` as
/// written, every difference counted, nothing required of a side.
struct AsWritten;

fn list<'c>(catalog: &'c Value, key: &str) -> &'c [Value] {
    catalog[key].as_array().map_or(&[], Vec::as_slice)
}

/// A string as it is, anything else as JSON.
fn text(v: &Value) -> String {
    v.as_str().map_or_else(|| v.to_string(), str::to_string)
}

impl Rules for AsWritten {
    fn requires_catalog(&self) -> bool {
        false
    }

    fn reference(&self, r: &Value) -> Result<String, String> {
        Ok(format!(
            "{}[{}]",
            r["type"].as_str().unwrap_or("?"),
            text(&r["title"])
        ))
    }

    fn whole_catalog(&self) -> bool {
        true
    }

    fn edges(&self, catalog: &Value) -> Vec<(String, String)> {
        let end = |v: &Value| v.as_str().unwrap_or("?").to_string();
        list(catalog, "edges")
            .iter()
            .map(|e| (end(&e["source"]), end(&e["target"])))
            .collect()
    }

    fn classes(&self, catalog: &Value) -> Vec<String> {
        list(catalog, "classes").iter().map(text).collect()
    }
}

/// The differences between two catalogs in Puppet's JSON form, in the
/// expected catalog's order (then what only the actual one has), without
/// those matched by `ignores`.
pub fn catalog_diff(expected: &Value, actual: &Value, ignores: &[Ignore]) -> Vec<Change> {
    // These rules accept any JSON as a catalog.
    let mut out = catalog_changes::compare(expected, actual, &AsWritten).unwrap_or_default();
    if !ignores.is_empty() {
        out.retain(|c| {
            let (resource, parameter) = subject(c);
            !ignores
                .iter()
                .any(|i| i.matches(&resource, parameter.as_deref()))
        });
    }
    out
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
    for change in changes {
        // The text behind a `source` (check's record): its diff as it is.
        if let Change::ContentChanged {
            resource,
            parameter,
            diff,
        } = change
        {
            out.push_str(&paint.yellow(&format!(
                "{indent}~ {resource} {parameter}: the text it names changed:"
            )));
            out.push('\n');
            out.push_str(&paint_diff(diff, &format!("{indent}    "), paint));
            continue;
        }
        let c = Reported::of(change);
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
            // A file's `content` is always a diff, however short.
            (ChangeKind::Changed, Some(Value::String(e)), Some(Value::String(a)))
                if e.len() > LONG
                    || a.len() > LONG
                    || e.contains('\n')
                    || a.contains('\n')
                    || c.parameter.as_deref() == Some("content") =>
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
    paint_diff(&diff, indent, paint)
}

/// A unified diff's lines indented, additions green, removals red.
fn paint_diff(diff: &str, indent: &str, paint: Paint) -> String {
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
        let d: Vec<Reported> = catalog_diff(&cat("a", false), &cat("b", true), &[])
            .iter()
            .map(Reported::of)
            .collect();
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
        let c = Change::ParameterChanged {
            resource: "File[/x]".into(),
            parameter: "content".into(),
            from: Some(json!("1\n2\n3\n")),
            to: Some(json!("1\nTWO\n3\n")),
        };
        let r = render_changes(&[c], "  ", Paint(false));
        assert!(r.contains("~ File[/x] content:"), "{r}");
        assert!(r.contains("-2") && r.contains("+TWO"), "{r}");
    }
}
