//! One difference between the two catalogs of a node.

use serde::Serialize;
use serde_json::Value as J;

/// What changed. The variant names are the `kind` strings of the JSON
/// schema (docs/diff-json.md), which must stay stable.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Change {
    /// A resource only in `to`.
    ResourceAdded { resource: String },
    /// A resource only in `from`.
    ResourceRemoved { resource: String },
    /// A parameter added (`old` null), removed (`new` null) or changed.
    ParameterChanged {
        resource: String,
        parameter: String,
        old: Option<J>,
        new: Option<J>,
    },
    /// A file's content (its `content`, or the text its `source` names)
    /// changed; `diff` is a unified diff `from` → `to`.
    ContentChanged {
        resource: String,
        parameter: String,
        diff: String,
    },
    /// A relationship metaparameter (`before`, `require`, `notify`,
    /// `subscribe`) compared as a set of normalized references.
    RelationshipChanged {
        resource: String,
        parameter: String,
        added: Vec<String>,
        removed: Vec<String>,
    },
    /// A containment edge only in `to`.
    EdgeAdded { source: String, target: String },
    /// A containment edge only in `from`.
    EdgeRemoved { source: String, target: String },
    /// A class in `to`'s class list only.
    ClassAdded { class: String },
    /// A class in `from`'s class list only.
    ClassRemoved { class: String },
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

impl Change {
    pub fn kind(&self) -> ChangeKind {
        let (kind, subject, parameter) = match self {
            Change::ResourceAdded { resource } => ("resource_added", resource.clone(), None),
            Change::ResourceRemoved { resource } => ("resource_removed", resource.clone(), None),
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
        let k = self.kind();
        match (k.kind, &k.parameter) {
            ("resource_added", _) => format!("{} added", k.subject),
            ("resource_removed", _) => format!("{} removed", k.subject),
            ("parameter_changed", Some(p)) => format!("{} parameter {p} changed", k.subject),
            ("content_changed", Some(p)) => format!("{} content changed ({p})", k.subject),
            ("relationship_changed", Some(p)) => format!("{} relationship {p} changed", k.subject),
            ("edge_added", _) => format!("containment edge {} added", k.subject),
            ("edge_removed", _) => format!("containment edge {} removed", k.subject),
            ("class_added", _) => format!("class {} added", k.subject),
            ("class_removed", _) => format!("class {} removed", k.subject),
            _ => format!("{} {}", k.subject, k.kind),
        }
    }

    /// The values of the change on one line or a few (empty when the
    /// headline says everything).
    pub fn detail(&self) -> String {
        match self {
            Change::ParameterChanged { old, new, .. } => {
                format!("{} -> {}", show(old.as_ref()), show(new.as_ref()))
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
