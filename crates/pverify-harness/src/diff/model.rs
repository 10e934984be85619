//! How `pverify diff` sees a change of the shared model
//! ([`crate::catalog_changes::Change`]): its kind and subject (what changes
//! are grouped by across nodes), its headline and detail, and its JSON.

use serde::Serialize;
use serde_json::Value as J;

use super::names::NodeNames;

pub use crate::catalog_changes::Change;

/// A change in the JSON of `pverify diff`. The variant names are the
/// `kind` strings of the schema (docs/diff-json.md), which must stay
/// stable. The last three are never made by diff's rules (they are `run`
/// and `check`'s), named here only so that every change has a shape.
#[derive(Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Wire<'a> {
    ResourceAdded {
        resource: &'a str,
    },
    ResourceRemoved {
        resource: &'a str,
    },
    ParameterChanged {
        resource: &'a str,
        parameter: &'a str,
        old: &'a Option<J>,
        new: &'a Option<J>,
    },
    ContentChanged {
        resource: &'a str,
        parameter: &'a str,
        diff: &'a str,
    },
    RelationshipChanged {
        resource: &'a str,
        parameter: &'a str,
        added: &'a [String],
        removed: &'a [String],
    },
    EdgeAdded {
        source: &'a str,
        target: &'a str,
    },
    EdgeRemoved {
        source: &'a str,
        target: &'a str,
    },
    ClassAdded {
        class: &'a str,
    },
    ClassRemoved {
        class: &'a str,
    },
    AttributeChanged {
        resource: &'a str,
        attribute: &'a str,
        old: &'a Option<J>,
        new: &'a Option<J>,
    },
    CatalogKeyChanged {
        key: &'a str,
        old: &'a Option<J>,
        new: &'a Option<J>,
    },
    OrderChanged {
        of: &'a str,
    },
}

impl<'a> From<&'a Change> for Wire<'a> {
    fn from(c: &'a Change) -> Wire<'a> {
        match c {
            Change::ResourceAdded { resource, .. } => Wire::ResourceAdded { resource },
            Change::ResourceRemoved { resource, .. } => Wire::ResourceRemoved { resource },
            Change::ParameterChanged {
                resource,
                parameter,
                from,
                to,
            } => Wire::ParameterChanged {
                resource,
                parameter,
                old: from,
                new: to,
            },
            Change::ContentChanged {
                resource,
                parameter,
                diff,
            } => Wire::ContentChanged {
                resource,
                parameter,
                diff,
            },
            Change::RelationshipChanged {
                resource,
                parameter,
                added,
                removed,
            } => Wire::RelationshipChanged {
                resource,
                parameter,
                added,
                removed,
            },
            Change::EdgeAdded { source, target } => Wire::EdgeAdded { source, target },
            Change::EdgeRemoved { source, target } => Wire::EdgeRemoved { source, target },
            Change::ClassAdded { class } => Wire::ClassAdded { class },
            Change::ClassRemoved { class } => Wire::ClassRemoved { class },
            Change::AttributeChanged {
                resource,
                attribute,
                from,
                to,
            } => Wire::AttributeChanged {
                resource,
                attribute,
                old: from,
                new: to,
            },
            Change::CatalogKeyChanged { key, from, to } => Wire::CatalogKeyChanged {
                key,
                old: from,
                new: to,
            },
            Change::OrderChanged { of } => Wire::OrderChanged { of },
        }
    }
}

/// Changes as the `changes` of a node in `pverify-diff/1`. Besides each
/// change's wire form: `renamed_from` on an added resource that is the
/// rename of the removed one just before it ([`is_rename`]), and
/// `old_null`/`new_null` where a side's value is JSON `null` rather than
/// absent (both are `null` in `old`/`new`), so the report can be read
/// back exactly (`pverify report merge`).
pub fn changes_json(changes: &[Change]) -> J {
    let mut out = Vec::with_capacity(changes.len());
    for (i, c) in changes.iter().enumerate() {
        let mut v = serde_json::to_value(Wire::from(c)).unwrap_or(J::Null);
        if let Some(prev) = i.checked_sub(1).map(|p| &changes[p]) {
            if is_rename(prev, c) {
                v["renamed_from"] = J::String(prev.kind().subject);
            }
        }
        if let Change::ParameterChanged { from, to, .. }
        | Change::AttributeChanged { from, to, .. }
        | Change::CatalogKeyChanged { from, to, .. } = c
        {
            for (key, side) in [("old_null", from), ("new_null", to)] {
                if side == &Some(J::Null) {
                    v[key] = J::Bool(true);
                }
            }
        }
        out.push(v);
    }
    J::Array(out)
}

/// The change without its values: what changes are grouped by across nodes.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct ChangeKind {
    /// The `kind` string.
    pub kind: &'static str,
    /// The resource (`Type[title]`), the class, or the edge `A -> B`.
    pub subject: String,
    /// The parameter, when there is one.
    pub parameter: Option<String>,
}

impl ChangeKind {
    /// The heading of a change of this kind (names may be placeholders).
    pub fn headline(&self) -> String {
        let k = self;
        match (k.kind, &k.parameter) {
            ("resource_added", _) => format!("{} added", k.subject),
            ("resource_removed", _) => format!("{} removed", k.subject),
            ("resource_renamed", _) => match k.subject.split_once(" -> ") {
                Some((a, b)) => format!("{a} renamed to {b}"),
                None => format!("{} renamed", k.subject),
            },
            ("parameter_changed", Some(p)) => format!("{} parameter {p} changed", k.subject),
            // `content` is the parameter itself; `source` says where the
            // text came from.
            ("content_changed", Some(p)) if p == "content" => {
                format!("{} content changed", k.subject)
            }
            ("content_changed", Some(p)) => format!("{} {p} file content changed", k.subject),
            ("relationship_changed", Some(p)) => format!("{} relationship {p} changed", k.subject),
            ("edge_added", _) => format!("containment edge {} added", k.subject),
            ("edge_removed", _) => format!("containment edge {} removed", k.subject),
            ("class_added", _) => format!("class {} added", k.subject),
            ("class_removed", _) => format!("class {} removed", k.subject),
            _ => format!("{} {}", k.subject, k.kind),
        }
    }

    /// The kind with the node's own names in subject and parameter
    /// replaced by placeholders.
    pub fn generalized(&self, names: &NodeNames) -> ChangeKind {
        ChangeKind {
            kind: self.kind,
            subject: names.generalize(&self.subject),
            parameter: self.parameter.as_ref().map(|p| names.generalize(p)),
        }
    }
}

/// What an added or removed resource is, apart from its title: its type
/// and its parameters once those holding its own title (its namevar) are
/// left out. `None` for other changes and for classes (another class is
/// not a rename).
pub fn rename_key(change: &Change) -> Option<String> {
    let (Change::ResourceRemoved { resource, value } | Change::ResourceAdded { resource, value }) =
        change
    else {
        return None;
    };
    let (ty, _) = resource.split_once('[')?;
    if matches!(ty, "Class" | "Node" | "Stage") {
        return None;
    }
    let title = value.get("title").cloned().unwrap_or(J::Null);
    let own: std::collections::BTreeMap<&String, &J> = crate::catalog_changes::parameters(value)
        .iter()
        .filter(|(_, p)| **p != title)
        .collect();
    Some(format!(
        "{ty}\n{}",
        serde_json::to_string(&own).unwrap_or_default()
    ))
}

/// Is `added` the resource `removed` under another title (see
/// [`rename_key`])?
pub fn is_rename(removed: &Change, added: &Change) -> bool {
    matches!(removed, Change::ResourceRemoved { .. })
        && matches!(added, Change::ResourceAdded { .. })
        && rename_key(removed).is_some_and(|k| Some(k) == rename_key(added))
}

/// Puts each added resource that is the rename of a removed one right
/// after it, so that reports list the two together. Only unambiguous pairs
/// move: one removed and one added resource of that type and parameters.
pub fn pair_renames(changes: &mut Vec<Change>) {
    use std::collections::HashMap;
    let mut by_key: HashMap<String, (Vec<usize>, Vec<usize>)> = HashMap::new();
    for (i, c) in changes.iter().enumerate() {
        if let Some(k) = rename_key(c) {
            let e = by_key.entry(k).or_default();
            match c {
                Change::ResourceRemoved { .. } => e.0.push(i),
                _ => e.1.push(i),
            }
        }
    }
    let mut partner: HashMap<usize, usize> = HashMap::new();
    for (removed, added) in by_key.values() {
        if let ([r], [a]) = (removed.as_slice(), added.as_slice()) {
            partner.insert(*r, *a);
        }
    }
    if partner.is_empty() {
        return;
    }
    let moved: std::collections::HashSet<usize> = partner.values().copied().collect();
    let mut slots: Vec<Option<Change>> = std::mem::take(changes).into_iter().map(Some).collect();
    let mut out = Vec::with_capacity(slots.len());
    for i in 0..slots.len() {
        if moved.contains(&i) {
            continue;
        }
        if let Some(c) = slots[i].take() {
            out.push(c);
        }
        if let Some(a) = partner.get(&i).and_then(|a| slots[*a].take()) {
            out.push(a);
        }
    }
    *changes = out;
}

/// `pverify diff`'s view of a change (defined here, beside its JSON).
impl Change {
    pub fn kind(&self) -> ChangeKind {
        let (kind, subject, parameter) = match self {
            Change::ResourceAdded { resource, .. } => ("resource_added", resource.clone(), None),
            Change::ResourceRemoved { resource, .. } => {
                ("resource_removed", resource.clone(), None)
            }
            Change::ParameterChanged {
                resource,
                parameter,
                ..
            } => (
                "parameter_changed",
                resource.clone(),
                Some(parameter.clone()),
            ),
            Change::ContentChanged {
                resource,
                parameter,
                ..
            } => ("content_changed", resource.clone(), Some(parameter.clone())),
            Change::RelationshipChanged {
                resource,
                parameter,
                ..
            } => (
                "relationship_changed",
                resource.clone(),
                Some(parameter.clone()),
            ),
            Change::EdgeAdded { source, target } => {
                ("edge_added", format!("{source} -> {target}"), None)
            }
            Change::EdgeRemoved { source, target } => {
                ("edge_removed", format!("{source} -> {target}"), None)
            }
            Change::ClassAdded { class } => ("class_added", class.clone(), None),
            Change::ClassRemoved { class } => ("class_removed", class.clone(), None),
            Change::AttributeChanged {
                resource,
                attribute,
                ..
            } => (
                "attribute_changed",
                resource.clone(),
                Some(format!("@{attribute}")),
            ),
            Change::CatalogKeyChanged { key, .. } => {
                ("catalog_key_changed", "catalog".into(), Some(key.clone()))
            }
            Change::OrderChanged { of } => ("order_changed", of.to_string(), None),
        };
        ChangeKind {
            kind,
            subject,
            parameter,
        }
    }

    /// A one-line heading without the node list: `File[/etc/motd] parameter
    /// mode changed`.
    pub fn headline(&self) -> String {
        self.kind().headline()
    }

    /// The values of the change on one line or a few (empty when the
    /// headline says everything).
    pub fn detail(&self) -> String {
        match self {
            Change::ParameterChanged { from, to, .. }
            | Change::AttributeChanged { from, to, .. }
            | Change::CatalogKeyChanged { from, to, .. } => {
                format!("{} -> {}", show(from.as_ref()), show(to.as_ref()))
            }
            Change::ContentChanged { diff, .. } => diff.clone(),
            Change::RelationshipChanged { added, removed, .. } => {
                let mut parts = Vec::new();
                if !added.is_empty() {
                    parts.push(format!("+ {}", added.join(", ")));
                }
                if !removed.is_empty() {
                    parts.push(format!("- {}", removed.join(", ")));
                }
                parts.join("; ")
            }
            _ => String::new(),
        }
    }
}

/// A parameter value as compact JSON, `(absent)` for none.
pub fn show(v: Option<&J>) -> String {
    match v {
        None => "(absent)".into(),
        Some(v) => serde_json::to_string(v).unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn added(r: &str, v: J) -> Change {
        Change::ResourceAdded {
            resource: r.into(),
            value: v,
        }
    }

    fn removed(r: &str, v: J) -> Change {
        Change::ResourceRemoved {
            resource: r.into(),
            value: v,
        }
    }

    #[test]
    fn a_rename_moves_next_to_its_removal() {
        let listen = |port: &str| json!({"type": "Apache::Listen", "title": port, "parameters": {"port": port, "ip": "*"}});
        let mut changes = vec![
            removed("Apache::Listen[8080]", listen("8080")),
            removed("Notify[x]", json!({"type": "Notify", "title": "x"})),
            added("Apache::Listen[9090]", listen("9090")),
        ];
        pair_renames(&mut changes);
        assert!(is_rename(&changes[0], &changes[1]), "{changes:?}");
        assert!(
            matches!(&changes[2], Change::ResourceRemoved { resource, .. } if resource == "Notify[x]")
        );
    }

    #[test]
    fn no_rename_when_parameters_differ_or_the_pair_is_ambiguous_or_a_class() {
        let file =
            |t: &str, mode: &str| json!({"type": "File", "title": t, "parameters": {"mode": mode}});
        assert!(!is_rename(
            &removed("File[/a]", file("/a", "0644")),
            &added("File[/b]", file("/b", "0600"))
        ));
        let mut two = vec![
            removed("File[/a]", file("/a", "0644")),
            removed("File[/b]", file("/b", "0644")),
            added("File[/c]", file("/c", "0644")),
        ];
        let before = two.clone();
        pair_renames(&mut two);
        assert_eq!(two, before);
        let class = |t: &str| json!({"type": "Class", "title": t});
        assert!(!is_rename(
            &removed("Class[A]", class("A")),
            &added("Class[B]", class("B"))
        ));
    }
}
