//! Two catalogs of one node → the changes between them.
//!
//! Catalogs are Puppet's catalog JSON (`catalog_format` 2, as pverify and
//! Puppet write them). Resources are matched by their normalized reference
//! `Type[title]`. Compared: parameters (JSON equality; `tags`, `file`,
//! `line` are not compared), relationship metaparameters as sets of
//! normalized references, file content (see [`super::content`]),
//! containment edges between resources present on both sides (an edge into
//! or out of an added or removed resource is part of that change), and the
//! class list as a set.

use rustc_hash::FxHashMap as HashMap;
use std::collections::BTreeSet;
use std::path::PathBuf;

use indexmap::IndexMap;
use serde_json::{Map, Value as J};

use super::content::{resolve_source, unified_diff, Content};
use super::ignore::Ignore;
use super::model::Change;
use super::refs;

/// What the comparison needs besides the two catalogs.
#[derive(Clone, Debug, Default)]
pub struct CompareContext {
    /// Where `puppet:///modules/...` sources of the `from` side are read.
    pub from_modulepath: Vec<PathBuf>,
    /// The same for `to`.
    pub to_modulepath: Vec<PathBuf>,
    pub ignore: Ignore,
}

const RELATIONSHIPS: [&str; 4] = ["before", "require", "notify", "subscribe"];

struct Res<'a> {
    type_name: &'a str,
    params: Option<&'a Map<String, J>>,
    tags: Vec<&'a str>,
    /// `sensitive_parameters`: their values never appear in a report.
    sensitive: Vec<&'a str>,
}

/// What a report shows instead of a sensitive value (Puppet's own text for
/// a `Sensitive`).
pub const REDACTED: &str = "Sensitive [value redacted]";

fn index(catalog: &J) -> Result<IndexMap<String, Res<'_>>, String> {
    let resources = catalog
        .get("resources")
        .and_then(J::as_array)
        .ok_or("not a catalog: no 'resources' array")?;
    let mut out = IndexMap::new();
    for r in resources {
        let (Some(t), Some(title)) = (
            r.get("type").and_then(J::as_str),
            r.get("title").and_then(J::as_str),
        ) else {
            return Err("not a catalog: a resource without 'type' and 'title'".into());
        };
        let strings = |key: &str| -> Vec<&str> {
            r.get(key)
                .and_then(J::as_array)
                .map(|a| a.iter().filter_map(J::as_str).collect())
                .unwrap_or_default()
        };
        let (tags, sensitive) = (strings("tags"), strings("sensitive_parameters"));
        out.insert(
            refs::resource_ref(t, title),
            Res {
                type_name: t,
                params: r.get("parameters").and_then(J::as_object),
                tags,
                sensitive,
            },
        );
    }
    Ok(out)
}

fn edges(catalog: &J) -> Vec<(String, String)> {
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

fn classes(catalog: &J) -> Vec<String> {
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

/// The changes from `from` to `to`, ignore rules applied. An error when
/// either is not a catalog.
pub fn compare(from: &J, to: &J, ctx: &CompareContext) -> Result<Vec<Change>, String> {
    let a = index(from).map_err(|e| format!("from: {e}"))?;
    let b = index(to).map_err(|e| format!("to: {e}"))?;
    let mut changes = Vec::new();
    let tag_ignored = |r: &str| {
        !ctx.ignore.tags.is_empty()
            && (a
                .get(r)
                .is_some_and(|x| ctx.ignore.ignores_tags(x.tags.iter().copied()))
                || b.get(r)
                    .is_some_and(|x| ctx.ignore.ignores_tags(x.tags.iter().copied())))
    };
    for (reference, ra) in &a {
        if tag_ignored(reference) {
            continue;
        }
        match b.get(reference) {
            None => changes.push(Change::ResourceRemoved {
                resource: reference.clone(),
            }),
            Some(rb) => compare_resource(reference, ra, rb, ctx, &mut changes),
        }
    }
    for reference in b.keys() {
        if !a.contains_key(reference) && !tag_ignored(reference) {
            changes.push(Change::ResourceAdded {
                resource: reference.clone(),
            });
        }
    }
    let (ea, eb) = (edges(from), edges(to));
    let on_both = |r: &str| a.contains_key(r) && b.contains_key(r) && !tag_ignored(r);
    let eb_set: BTreeSet<_> = eb.iter().collect();
    let ea_set: BTreeSet<_> = ea.iter().collect();
    for (s, t) in &ea {
        if !eb_set.contains(&(s.clone(), t.clone())) && on_both(s) && on_both(t) {
            changes.push(Change::EdgeRemoved {
                source: s.clone(),
                target: t.clone(),
            });
        }
    }
    for (s, t) in &eb {
        if !ea_set.contains(&(s.clone(), t.clone())) && on_both(s) && on_both(t) {
            changes.push(Change::EdgeAdded {
                source: s.clone(),
                target: t.clone(),
            });
        }
    }
    let (ca, cb) = (classes(from), classes(to));
    let lower =
        |v: &[String]| -> BTreeSet<String> { v.iter().map(|c| c.to_ascii_lowercase()).collect() };
    let (la, lb) = (lower(&ca), lower(&cb));
    for c in &ca {
        if !lb.contains(&c.to_ascii_lowercase()) {
            changes.push(Change::ClassRemoved { class: c.clone() });
        }
    }
    for c in &cb {
        if !la.contains(&c.to_ascii_lowercase()) {
            changes.push(Change::ClassAdded { class: c.clone() });
        }
    }
    changes.retain(|c| !ctx.ignore.ignores(c));
    Ok(changes)
}

/// A file's content on one side: its `content` string, else its resolved
/// `source`; with the parameter it came from.
fn effective_content(
    params: &Map<String, J>,
    modulepath: &[PathBuf],
) -> Option<(Content, &'static str)> {
    if let Some(J::String(s)) = params.get("content") {
        return Some((Content::Text(s.clone()), "content"));
    }
    let source = params.get("source")?;
    resolve_source(source, modulepath).map(|c| (c, "source"))
}

fn compare_resource(
    reference: &str,
    a: &Res<'_>,
    b: &Res<'_>,
    ctx: &CompareContext,
    out: &mut Vec<Change>,
) {
    let empty = Map::new();
    let pa = a.params.unwrap_or(&empty);
    let pb = b.params.unwrap_or(&empty);
    let mut skip: HashMap<&str, ()> = HashMap::default();
    let sensitive = |name: &str| a.sensitive.contains(&name) || b.sensitive.contains(&name);
    let redact = |name: &str, v: Option<&J>| match v {
        Some(_) if sensitive(name) => Some(J::String(REDACTED.into())),
        v => v.cloned(),
    };
    let content_diff = |name: &str, x: &Content, y: &Content| {
        if sensitive(name) {
            format!("{REDACTED}: content differs\n")
        } else {
            unified_diff(x, y, reference)
        }
    };
    let is_file =
        a.type_name.eq_ignore_ascii_case("file") && b.type_name.eq_ignore_ascii_case("file");
    if is_file {
        let ca = effective_content(pa, &ctx.from_modulepath);
        let cb = effective_content(pb, &ctx.to_modulepath);
        if let (Some((ca, _)), Some((cb, pname))) = (ca, cb) {
            // Both sides' text is known: compare it, not how it was given
            // (octocatalog-diff's rule: a source and a content with the
            // same text are no change).
            skip.insert("content", ());
            skip.insert("source", ());
            if ca != cb {
                out.push(Change::ContentChanged {
                    resource: reference.to_string(),
                    parameter: pname.to_string(),
                    diff: content_diff("content", &ca, &cb),
                });
            }
        }
    }
    let mut names: Vec<&String> = pa.keys().collect();
    names.extend(pb.keys().filter(|k| !pa.contains_key(*k)));
    for name in names {
        if skip.contains_key(name.as_str()) {
            continue;
        }
        let (va, vb) = (pa.get(name), pb.get(name));
        if RELATIONSHIPS.contains(&name.as_str()) {
            let sa = va.map(refs::reference_set).unwrap_or_default();
            let sb = vb.map(refs::reference_set).unwrap_or_default();
            if sa != sb {
                out.push(Change::RelationshipChanged {
                    resource: reference.to_string(),
                    parameter: name.clone(),
                    added: sb.iter().filter(|r| !sa.contains(r)).cloned().collect(),
                    removed: sa.iter().filter(|r| !sb.contains(r)).cloned().collect(),
                });
            }
            continue;
        }
        if va == vb {
            continue;
        }
        if let (Some(J::String(x)), Some(J::String(y))) = (va, vb) {
            if name == "content" {
                out.push(Change::ContentChanged {
                    resource: reference.to_string(),
                    parameter: name.clone(),
                    diff: content_diff(name, &Content::Text(x.clone()), &Content::Text(y.clone())),
                });
                continue;
            }
        }
        out.push(Change::ParameterChanged {
            resource: reference.to_string(),
            parameter: name.clone(),
            old: redact(name, va),
            new: redact(name, vb),
        });
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
        let text = serde_json::to_string(&changes).unwrap();
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
                    old: Some(json!("puppet:///modules/m/escape")),
                    new: None,
                },
                Change::ParameterChanged {
                    resource: "File[/y]".into(),
                    parameter: "content".into(),
                    old: None,
                    new: Some(json!("x")),
                },
            ]
        );
    }
}
