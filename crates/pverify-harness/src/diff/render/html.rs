//! A self-contained HTML page of a [`DiffReport`]: the changes grouped
//! across nodes first, then every node and every changed resource, file
//! contents as unified or side-by-side diffs with syntax colouring, a
//! filter box and collapsible groups. The page itself (skeleton, CSS, JS,
//! security) is [`page`], shared with `check`'s report ([`check`]); this
//! module only turns the report into the page's data.

pub mod check;
pub mod page;

use std::collections::HashMap;

use serde_json::{json, Value as J};

use crate::diff::report::{DiffReport, Group, NodeStatus};

use super::failure_text;

pub fn render(report: &DiffReport) -> String {
    let title = format!("pverify diff: {} -> {}", report.from_label, report.to_label);
    let summary = json!([
        ["nodes", report.nodes.len()],
        ["changed", report.count("changed")],
        ["unchanged", report.count("unchanged")],
        ["added", report.count("added")],
        ["removed", report.count("removed")],
        ["failed", report.count("failed")],
    ]);
    let mut nodes: Vec<J> = report
        .nodes
        .iter()
        .map(|n| {
            let (note, errors) = match &n.status {
                NodeStatus::Added { resources } => {
                    (Some(format!("only on the new side ({resources} resources)")), vec![])
                }
                NodeStatus::Removed { resources } => {
                    (Some(format!("only on the old side ({resources} resources)")), vec![])
                }
                NodeStatus::Failed { from, to } => (
                    None,
                    vec![json!({"against": "failed", "message": "the node has no catalog on a side", "actual": failure_text(from, to)})],
                ),
                _ => (None, vec![]),
            };
            json!({"name": n.name, "status": n.status.as_str(), "note": note, "changes": [], "errors": errors})
        })
        .collect();
    let index: HashMap<&str, usize> = report
        .nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.name.as_str(), i))
        .collect();
    let groups = groups_data(&report.groups(), &index, &mut nodes);
    page::page(
        &title,
        &json!({
            "command": "diff",
            "title": title,
            "summary": summary,
            "groups": groups,
            "nodes": nodes,
        }),
    )
}

/// The groups as the page's data, and each node's `changes` as
/// `[group, variant]` pairs (so a change's text is stored once).
pub(crate) fn groups_data(
    groups: &[Group<'_>],
    index: &HashMap<&str, usize>,
    nodes: &mut [J],
) -> Vec<J> {
    groups
        .iter()
        .enumerate()
        .map(|(gi, g)| {
            let (kind, title) = split_reference(&g.kind.subject);
            let content = g.kind.kind == "content_changed";
            let variants: Vec<J> = g
                .variants()
                .into_iter()
                .enumerate()
                .map(|(vi, (detail, names))| {
                    let ids: Vec<usize> =
                        names.iter().filter_map(|n| index.get(n).copied()).collect();
                    for &i in &ids {
                        if let Some(J::Array(changes)) = nodes[i].get_mut("changes") {
                            changes.push(json!([gi, vi]));
                        }
                    }
                    json!({"detail": detail, "content": content, "nodes": ids})
                })
                .collect();
            let ids: Vec<usize> = g
                .nodes
                .iter()
                .filter_map(|(n, _)| index.get(n).copied())
                .collect();
            json!({
                "headline": g.headline,
                "kind": g.kind.kind,
                "type": kind,
                "title": title,
                "parameter": g.kind.parameter,
                "nodes": ids,
                "variants": variants,
            })
        })
        .collect()
}

/// `File[/etc/motd]` → (`File`, `/etc/motd`); a class or an edge has no
/// brackets of its own and is its whole subject.
fn split_reference(subject: &str) -> (&str, &str) {
    match subject.find('[') {
        Some(open) if subject.ends_with(']') && !subject.contains(" -> ") => {
            (&subject[..open], &subject[open + 1..subject.len() - 1])
        }
        _ => ("", subject),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_split_into_type_and_title() {
        assert_eq!(split_reference("File[/etc/motd]"), ("File", "/etc/motd"));
        assert_eq!(split_reference("profile::base"), ("", "profile::base"));
        assert_eq!(split_reference("A[x] -> B[y]"), ("", "A[x] -> B[y]"));
    }
}
