//! Two catalogs of one node → the changes between them: `pverify diff`'s
//! rules for the shared walk ([`crate::catalog_changes`]), then its ignore
//! rules.
//!
//! Catalogs are Puppet's catalog JSON (`catalog_format` 2, as pverify and
//! Puppet write them). Resources are matched by their normalized reference
//! `Type[title]`. Compared: parameters (JSON equality; `tags`, `file`,
//! `line` are not compared), relationship metaparameters as sets of
//! normalized references, file content (see [`super::content`]),
//! containment edges between resources present on both sides (an edge into
//! or out of an added or removed resource is part of that change), and the
//! class list as a set.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Arc;

use puppet_compiler::files::FileSystem;

use serde_json::{Map, Value as J};

use super::content::{resolve_source, unified_diff, Content};
use super::ignore::Ignore;
use super::model::Change;
use super::refs;
use crate::catalog_changes::{self, parameters, Rules};

/// What the comparison needs besides the two catalogs.
#[derive(Clone, Default)]
pub struct CompareContext {
    /// Where `puppet:///modules/...` sources of the `from` side are read.
    pub from_modulepath: Vec<PathBuf>,
    /// The same for `to`.
    pub to_modulepath: Vec<PathBuf>,
    /// The files each side may read (its environment's confined file
    /// system); `None`: no source is read.
    pub from_files: Option<Arc<dyn FileSystem>>,
    pub to_files: Option<Arc<dyn FileSystem>>,
    pub ignore: Ignore,
}

const RELATIONSHIPS: [&str; 4] = ["before", "require", "notify", "subscribe"];

/// What a report shows instead of a sensitive value (Puppet's own text for
/// a `Sensitive`).
pub const REDACTED: &str = "Sensitive [value redacted]";

/// A resource's list of strings under `key` (`tags`, `sensitive_parameters`).
fn strings<'r>(r: &'r J, key: &str) -> impl Iterator<Item = &'r str> {
    r.get(key)
        .and_then(J::as_array)
        .into_iter()
        .flatten()
        .filter_map(J::as_str)
}

/// `sensitive_parameters` on either side: the values never appear in a
/// report.
fn sensitive(a: &J, b: &J, name: &str) -> bool {
    strings(a, "sensitive_parameters").any(|s| s == name)
        || strings(b, "sensitive_parameters").any(|s| s == name)
}

fn is_file(r: &J) -> bool {
    r.get("type")
        .and_then(J::as_str)
        .is_some_and(|t| t.eq_ignore_ascii_case("file"))
}

/// `pverify diff`'s rules for the shared walk.
struct Semantic<'c>(&'c CompareContext);

impl Rules for Semantic<'_> {
    fn requires_catalog(&self) -> bool {
        true
    }

    fn reference(&self, r: &J) -> Result<String, String> {
        match (
            r.get("type").and_then(J::as_str),
            r.get("title").and_then(J::as_str),
        ) {
            (Some(t), Some(title)) => Ok(refs::resource_ref(t, title)),
            _ => Err("not a catalog: a resource without 'type' and 'title'".into()),
        }
    }

    /// Resources carrying an ignored tag on either side.
    fn skips(&self, _reference: &str, from: Option<&J>, to: Option<&J>) -> bool {
        let ignore = &self.0.ignore;
        !ignore.tags.is_empty()
            && (from.is_some_and(|r| ignore.ignores_tags(strings(r, "tags")))
                || to.is_some_and(|r| ignore.ignores_tags(strings(r, "tags"))))
    }

    /// A file's content, when both sides' text is known: compared as text,
    /// not by how it was given (octocatalog-diff's rule: a `source` and a
    /// `content` with the same text are no change).
    fn resource(&self, reference: &str, a: &J, b: &J, out: &mut Vec<Change>) -> Vec<&'static str> {
        if !(is_file(a) && is_file(b)) {
            return Vec::new();
        }
        let ca = effective_content(
            parameters(a),
            &self.0.from_modulepath,
            self.0.from_files.as_deref(),
        );
        let cb = effective_content(
            parameters(b),
            &self.0.to_modulepath,
            self.0.to_files.as_deref(),
        );
        let (Some((ca, _)), Some((cb, pname))) = (ca, cb) else {
            return Vec::new();
        };
        if ca != cb {
            out.push(Change::ContentChanged {
                resource: reference.to_string(),
                parameter: pname.to_string(),
                diff: content_diff(reference, a, b, "content", &ca, &cb),
            });
        }
        vec!["content", "source"]
    }

    /// Relationship metaparameters as sets of normalized references,
    /// `content` strings as diffs, sensitive values redacted.
    fn parameter(
        &self,
        reference: &str,
        a: &J,
        b: &J,
        name: &str,
        va: Option<&J>,
        vb: Option<&J>,
    ) -> Option<Change> {
        if RELATIONSHIPS.contains(&name) {
            let sa = va.map(refs::reference_set).unwrap_or_default();
            let sb = vb.map(refs::reference_set).unwrap_or_default();
            return (sa != sb).then(|| Change::RelationshipChanged {
                resource: reference.to_string(),
                parameter: name.to_string(),
                added: sb.iter().filter(|r| !sa.contains(r)).cloned().collect(),
                removed: sa.iter().filter(|r| !sb.contains(r)).cloned().collect(),
            });
        }
        if let (Some(J::String(x)), Some(J::String(y))) = (va, vb) {
            if name == "content" {
                return Some(Change::ContentChanged {
                    resource: reference.to_string(),
                    parameter: name.to_string(),
                    diff: content_diff(
                        reference,
                        a,
                        b,
                        name,
                        &Content::Text(x.clone()),
                        &Content::Text(y.clone()),
                    ),
                });
            }
        }
        let redact = |v: Option<&J>| match v {
            Some(_) if sensitive(a, b, name) => Some(J::String(REDACTED.into())),
            v => v.cloned(),
        };
        Some(Change::ParameterChanged {
            resource: reference.to_string(),
            parameter: name.to_string(),
            from: redact(va),
            to: redact(vb),
        })
    }

    /// Edges between normalized references, each once.
    fn edges(&self, catalog: &J) -> Vec<(String, String)> {
        let mut seen = BTreeSet::new();
        let mut out = Vec::new();
        for e in catalog
            .get("edges")
            .and_then(J::as_array)
            .map(Vec::as_slice)
            .unwrap_or_default()
        {
            if let (Some(s), Some(t)) = (
                e.get("source").and_then(J::as_str),
                e.get("target").and_then(J::as_str),
            ) {
                let pair = (refs::normalize(s), refs::normalize(t));
                if seen.insert(pair.clone()) {
                    out.push(pair);
                }
            }
        }
        out
    }

    fn edges_between_kept_resources(&self) -> bool {
        true
    }

    /// The class list, each name once regardless of case.
    fn classes(&self, catalog: &J) -> Vec<String> {
        let mut seen = BTreeSet::new();
        catalog
            .get("classes")
            .and_then(J::as_array)
            .map(Vec::as_slice)
            .unwrap_or_default()
            .iter()
            .filter_map(J::as_str)
            .filter(|c| seen.insert(c.to_ascii_lowercase()))
            .map(str::to_string)
            .collect()
    }

    fn class_key(&self, class: &str) -> String {
        class.to_ascii_lowercase()
    }
}

/// The changes from `from` to `to`, ignore rules applied. An error when
/// either is not a catalog.
pub fn compare(from: &J, to: &J, ctx: &CompareContext) -> Result<Vec<Change>, String> {
    let mut changes = catalog_changes::compare(from, to, &Semantic(ctx))?;
    changes.retain(|c| !ctx.ignore.ignores(c));
    super::model::pair_renames(&mut changes);
    Ok(changes)
}

/// A file's content on one side: its `content` string, else its resolved
/// `source`; with the parameter it came from.
fn effective_content(
    params: &Map<String, J>,
    modulepath: &[PathBuf],
    files: Option<&dyn FileSystem>,
) -> Option<(Content, &'static str)> {
    if let Some(J::String(s)) = params.get("content") {
        return Some((Content::Text(s.clone()), "content"));
    }
    let source = params.get("source")?;
    resolve_source(source, modulepath, files?).map(|c| (c, "source"))
}

/// The unified diff of two contents, or only that they differ when the
/// parameter is sensitive.
fn content_diff(reference: &str, a: &J, b: &J, name: &str, x: &Content, y: &Content) -> String {
    if sensitive(a, b, name) {
        format!("{REDACTED}: content differs\n")
    } else {
        unified_diff(x, y, reference)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn cat(resources: J, edges: J, classes: J) -> J {
        json!({"name": "n", "resources": resources, "edges": edges, "classes": classes})
    }

    #[test]
    fn edges_between_kept_resources_and_classes() {
        let a = cat(
            json!([{"type": "Class", "title": "A"}, {"type": "Class", "title": "B"},
                   {"type": "File", "title": "/x"}]),
            json!([{"source": "Class[A]", "target": "File[/x]"}]),
            json!(["a", "b"]),
        );
        let b = cat(
            json!([{"type": "Class", "title": "A"}, {"type": "Class", "title": "B"},
                   {"type": "File", "title": "/x"}]),
            json!([{"source": "Class[b]", "target": "File[/x]"}]),
            json!(["a", "B", "c"]),
        );
        let changes = compare(&a, &b, &CompareContext::default()).unwrap();
        assert_eq!(
            changes,
            vec![
                Change::EdgeRemoved {
                    source: "Class[A]".into(),
                    target: "File[/x]".into()
                },
                Change::EdgeAdded {
                    source: "Class[B]".into(),
                    target: "File[/x]".into()
                },
                Change::ClassAdded { class: "c".into() },
            ]
        );
    }

    #[test]
    fn sensitive_values_are_redacted() {
        let r = |v: &str| {
            json!([{"type": "File", "title": "/k", "parameters": {"content": v, "owner": v},
                    "sensitive_parameters": ["content", "owner"]}])
        };
        let changes = compare(
            &cat(r("old"), json!([]), json!([])),
            &cat(r("new"), json!([]), json!([])),
            &CompareContext::default(),
        )
        .unwrap();
        let text = crate::diff::model::changes_json(&changes).to_string();
        assert!(
            !text.contains(":\"old\"") && !text.contains(":\"new\""),
            "{text}"
        );
        assert!(!text.contains("-old") && !text.contains("+new"), "{text}");
        assert_eq!(changes.len(), 2, "{text}");
    }

    #[test]
    fn content_and_source_with_the_same_text_are_no_change() {
        let dir = std::env::temp_dir().join(format!("pverify-unit-diff-{}", std::process::id()));
        let files = dir.join("m/files");
        std::fs::create_dir_all(&files).unwrap();
        std::fs::write(files.join("f"), "text\n").unwrap();
        // A symlink out of files/ is not followed.
        let _ = std::os::unix::fs::symlink("/etc/hostname", files.join("escape"));
        let a = cat(
            json!([{"type": "File", "title": "/x", "parameters": {"content": "text\n"}},
                   {"type": "File", "title": "/y", "parameters": {"source": "puppet:///modules/m/escape"}}]),
            json!([]),
            json!([]),
        );
        let b = cat(
            json!([{"type": "File", "title": "/x", "parameters": {"source": ["puppet:///modules/m/nosuch", "puppet:///modules/m/f"]}},
                   {"type": "File", "title": "/y", "parameters": {"content": "x"}}]),
            json!([]),
            json!([]),
        );
        let ctx = CompareContext {
            from_modulepath: vec![dir.clone()],
            to_modulepath: vec![dir.clone()],
            from_files: Some(super::super::content::confined_files(
                std::slice::from_ref(&dir),
                &[],
            )),
            to_files: Some(super::super::content::confined_files(
                std::slice::from_ref(&dir),
                &[],
            )),
            ..CompareContext::default()
        };
        let changes = compare(&a, &b, &ctx).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(
            changes,
            vec![
                Change::ParameterChanged {
                    resource: "File[/y]".into(),
                    parameter: "source".into(),
                    from: Some(json!("puppet:///modules/m/escape")),
                    to: None,
                },
                Change::ParameterChanged {
                    resource: "File[/y]".into(),
                    parameter: "content".into(),
                    from: None,
                    to: Some(json!("x")),
                },
            ]
        );
    }
}
