//! A `pverify-diff/1` report read back from its JSON, and the shards of
//! one diff put together (nodes sorted by name, as one run sorts them).

use std::collections::HashMap;

use serde_json::{json, Value as J};

use super::{array, field, known, opt_string, same_run, short, string, strings, Shard};
use crate::catalog_changes::{Change, ATTRIBUTES};
use crate::diff::names::NodeNames;
use crate::diff::report::{DiffReport, NodeOutcome, NodeStatus};

pub(super) fn read(doc: &J) -> Result<DiffReport, String> {
    Ok(DiffReport {
        from_label: string(doc, "from")?,
        to_label: string(doc, "to")?,
        nodes: array(doc, "nodes")?
            .iter()
            .map(node)
            .collect::<Result<_, _>>()?,
    })
}

pub(super) fn merge(shards: Vec<Shard<DiffReport>>) -> Result<DiffReport, String> {
    same_run(
        &shards,
        |r| format!("{} -> {}", r.from_label, r.to_label),
        "sides",
    )?;
    let (from_label, to_label) = (
        shards[0].report.from_label.clone(),
        shards[0].report.to_label.clone(),
    );
    let mut from: HashMap<String, String> = HashMap::new();
    let mut nodes = Vec::new();
    for s in shards {
        let name = s.name();
        for n in s.report.nodes {
            if let Some(other) = from.insert(n.name.clone(), name.clone()) {
                return Err(format!("node {} is in {other} and in {name}", n.name));
            }
            nodes.push(n);
        }
    }
    nodes.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(DiffReport {
        from_label,
        to_label,
        nodes,
    })
}

fn node(v: &J) -> Result<NodeOutcome, String> {
    let name = string(v, "name")?;
    let count = || {
        field(v, "resources")?
            .as_u64()
            .map(|n| n as usize)
            .ok_or_else(|| format!("`resources` is not a number in {}", short(v)))
    };
    let mut names = NodeNames::certname(&name);
    let status = match string(v, "status")?.as_str() {
        "unchanged" => NodeStatus::Unchanged,
        "added" => NodeStatus::Added {
            resources: count()?,
        },
        "removed" => NodeStatus::Removed {
            resources: count()?,
        },
        "failed" => {
            let e = field(v, "error")?;
            NodeStatus::Failed {
                from: opt_string(e, "from")?,
                to: opt_string(e, "to")?,
            }
        }
        "changed" => {
            names = node_names(v)?;
            NodeStatus::Changed(changes(array(v, "changes")?)?)
        }
        other => return Err(format!("unknown node status '{other}' in {}", short(v))),
    };
    Ok(NodeOutcome {
        name,
        status,
        names,
    })
}

/// A changed node's `names` (required: a report without them was written
/// by a pverify that cannot be merged; its shard is to be run again).
fn node_names(v: &J) -> Result<NodeNames, String> {
    let entries = array(v, "names")
        .map_err(|e| format!("{e} (written by an older pverify? run the shard again)"))?
        .iter()
        .map(|e| Ok((string(e, "name")?, string(e, "placeholder")?)))
        .collect::<Result<Vec<(String, String)>, String>>()?;
    NodeNames::from_entries(entries.iter().map(|(n, p)| (n.as_str(), p.as_str())))
        .ok_or_else(|| format!("unknown placeholder in {}", short(v)))
}

/// A node's changes from their wire form (`diff::model::changes_json`).
///
/// Added and removed resources carry only their reference there, but the
/// grouping's one use of a resource's value is telling a rename from a
/// removal and an addition ([`crate::diff::model::is_rename`]); the report
/// names renames (`renamed_from`), so each read resource gets a stand-in
/// value: the same for the two halves of a rename, a distinct one
/// otherwise. No renderer shows these values.
fn changes(list: &[J]) -> Result<Vec<Change>, String> {
    let mut out: Vec<Change> = Vec::with_capacity(list.len());
    for (i, v) in list.iter().enumerate() {
        let side = |key: &str, null: &str| -> Option<J> {
            match v.get(key) {
                None | Some(J::Null) if v.get(null) == Some(&J::Bool(true)) => Some(J::Null),
                None | Some(J::Null) => None,
                Some(x) => Some(x.clone()),
            }
        };
        let stand_in = |id: usize| json!({"parameters": {"pverify stand-in": id}});
        let c = match string(v, "kind")?.as_str() {
            "resource_added" => {
                let resource = string(v, "resource")?;
                // The rename's removal is the change just before.
                let pair = match (opt_string(v, "renamed_from")?, out.last_mut()) {
                    (Some(old), Some(Change::ResourceRemoved { resource, value }))
                        if *resource == old =>
                    {
                        *value = stand_in(i);
                        true
                    }
                    (Some(old), _) => {
                        return Err(format!(
                            "{resource} is named the rename of {old}, which is not the change before it"
                        ))
                    }
                    (None, _) => false,
                };
                Change::ResourceAdded {
                    resource,
                    value: stand_in(if pair { i } else { list.len() + i }),
                }
            }
            "resource_removed" => Change::ResourceRemoved {
                resource: string(v, "resource")?,
                value: stand_in(list.len() * 2 + i),
            },
            "parameter_changed" => Change::ParameterChanged {
                resource: string(v, "resource")?,
                parameter: string(v, "parameter")?,
                from: side("old", "old_null"),
                to: side("new", "new_null"),
            },
            "attribute_changed" => Change::AttributeChanged {
                resource: string(v, "resource")?,
                attribute: known(&string(v, "attribute")?, &ATTRIBUTES, "attribute")?,
                from: side("old", "old_null"),
                to: side("new", "new_null"),
            },
            "catalog_key_changed" => Change::CatalogKeyChanged {
                key: string(v, "key")?,
                from: side("old", "old_null"),
                to: side("new", "new_null"),
            },
            "content_changed" => Change::ContentChanged {
                resource: string(v, "resource")?,
                parameter: string(v, "parameter")?,
                diff: string(v, "diff")?,
            },
            "relationship_changed" => Change::RelationshipChanged {
                resource: string(v, "resource")?,
                parameter: string(v, "parameter")?,
                added: strings(v, "added")?,
                removed: strings(v, "removed")?,
            },
            "edge_added" => Change::EdgeAdded {
                source: string(v, "source")?,
                target: string(v, "target")?,
            },
            "edge_removed" => Change::EdgeRemoved {
                source: string(v, "source")?,
                target: string(v, "target")?,
            },
            "class_added" => Change::ClassAdded {
                class: string(v, "class")?,
            },
            "class_removed" => Change::ClassRemoved {
                class: string(v, "class")?,
            },
            "order_changed" => Change::OrderChanged {
                of: known(&string(v, "of")?, &["resources", "edges"], "order")?,
            },
            other => return Err(format!("unknown change kind '{other}' in {}", short(v))),
        };
        out.push(c);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::model::{changes_json, is_rename};

    #[test]
    fn changes_read_back_with_renames_and_nulls() {
        let listen = |port: &str| json!({"type": "Apache::Listen", "title": port, "parameters": {"port": port, "ip": "*"}});
        let original = vec![
            Change::ResourceRemoved {
                resource: "Apache::Listen[8080]".into(),
                value: listen("8080"),
            },
            Change::ResourceAdded {
                resource: "Apache::Listen[9090]".into(),
                value: listen("9090"),
            },
            Change::ResourceRemoved {
                resource: "File[/a]".into(),
                value: json!({"type": "File", "title": "/a"}),
            },
            Change::ResourceAdded {
                resource: "File[/b]".into(),
                value: json!({"type": "File", "title": "/b", "parameters": {"mode": "0600"}}),
            },
            Change::ParameterChanged {
                resource: "File[/a]".into(),
                parameter: "mode".into(),
                from: Some(J::Null),
                to: None,
            },
            Change::CatalogKeyChanged {
                key: "code_id".into(),
                from: None,
                to: Some(J::Null),
            },
            Change::RelationshipChanged {
                resource: "File[/a]".into(),
                parameter: "require".into(),
                added: vec!["Package[x]".into()],
                removed: vec![],
            },
        ];
        let wire = changes_json(&original);
        let back = changes(wire.as_array().unwrap()).unwrap();
        assert_eq!(changes_json(&back), wire);
        assert!(is_rename(&back[0], &back[1]));
        assert!(!is_rename(&back[2], &back[3]));
        assert_eq!(back[4..], original[4..]);
    }
}
