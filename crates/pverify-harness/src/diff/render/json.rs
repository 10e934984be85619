//! The JSON report, schema `pverify-diff/1` (docs/diff-json.md). Fields
//! are only ever added within one schema version.

use serde_json::{json, Value as J};

use crate::diff::model::changes_json;
use crate::diff::report::{DiffReport, NodeStatus};

pub const SCHEMA: &str = "pverify-diff/1";

pub fn to_value(report: &DiffReport) -> J {
    let nodes: Vec<J> = report
        .nodes
        .iter()
        .map(|n| {
            let mut o = json!({"name": n.name, "status": n.status.as_str()});
            match &n.status {
                NodeStatus::Changed(changes) => {
                    o["changes"] = changes_json(changes);
                    // What the grouping stood placeholders for (and what
                    // `pverify report merge` groups shards' changes by).
                    o["names"] = n
                        .names
                        .entries()
                        .map(
                            |(name, placeholder)| json!({"name": name, "placeholder": placeholder}),
                        )
                        .collect();
                }
                NodeStatus::Added { resources } | NodeStatus::Removed { resources } => {
                    o["resources"] = json!(resources);
                }
                NodeStatus::Failed { from, to } => {
                    o["error"] = json!({"from": from, "to": to});
                }
                NodeStatus::Unchanged => {}
            }
            o
        })
        .collect();
    let groups: Vec<J> = report
        .groups()
        .iter()
        .map(|g| {
            json!({
                "kind": g.kind.kind,
                "subject": g.kind.subject,
                "parameter": g.kind.parameter,
                "headline": g.headline,
                "nodes": g.nodes.iter().map(|(n, _)| *n).collect::<Vec<_>>(),
                "placeholders": g.placeholders(),
                "variants": g.variants().iter().map(|(detail, nodes)| {
                    json!({"detail": detail, "nodes": nodes})
                }).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({
        "schema": SCHEMA,
        "from": report.from_label,
        "to": report.to_label,
        "summary": {
            "nodes": report.nodes.len(),
            "changed": report.count("changed"),
            "unchanged": report.count("unchanged"),
            "added": report.count("added"),
            "removed": report.count("removed"),
            "failed": report.count("failed"),
            "exit_code": report.exit_code(),
        },
        "nodes": nodes,
        "groups": groups,
    })
}

pub fn render(report: &DiffReport) -> String {
    let mut s = serde_json::to_string_pretty(&to_value(report)).unwrap_or_default();
    s.push('\n');
    s
}

/// The report of one shard (`diff --shard I/N`): `shard` says which, for
/// `pverify report merge`.
pub fn render_shard(report: &DiffReport, (index, count): (usize, usize)) -> String {
    let mut v = to_value(report);
    v["shard"] = json!({"index": index, "count": count});
    let mut s = serde_json::to_string_pretty(&v).unwrap_or_default();
    s.push('\n');
    s
}
