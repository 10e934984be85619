//! The outcome of a whole `pverify diff` run: one [`NodeOutcome`] per node
//! (sorted by name), the grouping of changes across nodes, the exit code.

use std::collections::BTreeMap;

use rayon::prelude::*;
use serde_json::Value as J;

use super::compare::{compare, CompareContext};
use super::model::{is_rename, Change, ChangeKind};
use super::names::NodeNames;

/// A node's catalog on one side, or why there is none.
pub type SideCatalog = Result<J, String>;

#[derive(Clone, Debug, PartialEq)]
pub enum NodeStatus {
    /// Both catalogs compiled and are the same (after ignore rules).
    Unchanged,
    /// Both compiled; the changes, in catalog order.
    Changed(Vec<Change>),
    /// Only `to` has this node; its catalog's resource count.
    Added { resources: usize },
    /// Only `from` has this node.
    Removed { resources: usize },
    /// A side failed (compile error, unreadable catalog): never "no change".
    Failed {
        from: Option<String>,
        to: Option<String>,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct NodeOutcome {
    pub name: String,
    pub status: NodeStatus,
    /// The node's own names (certname, fqdn, hostname, addresses), which
    /// the grouping reads as placeholders.
    pub names: NodeNames,
}

impl NodeStatus {
    pub fn as_str(&self) -> &'static str {
        match self {
            NodeStatus::Unchanged => "unchanged",
            NodeStatus::Changed(_) => "changed",
            NodeStatus::Added { .. } => "added",
            NodeStatus::Removed { .. } => "removed",
            NodeStatus::Failed { .. } => "failed",
        }
    }
}

/// The whole run.
#[derive(Clone, Debug, PartialEq)]
pub struct DiffReport {
    /// What the sides were (a directory, a git revision, catalog files).
    pub from_label: String,
    pub to_label: String,
    pub nodes: Vec<NodeOutcome>,
}

/// Exit codes of `pverify diff` (documented in README.md).
pub const EXIT_UNCHANGED: u8 = 0;
pub const EXIT_ERROR: u8 = 1;
pub const EXIT_CHANGED: u8 = 2;

/// Nodes that share one [`ChangeKind`], with each node's change. Each
/// node's own names are placeholders in the kind, the headline and the
/// details (`File[/etc/<hostname>.conf]`), so a change that differs from
/// node to node only by their names is one group.
pub struct Group<'a> {
    pub kind: ChangeKind,
    pub headline: String,
    pub nodes: Vec<(&'a str, &'a Change)>,
    /// Each node's detail (values, diffs) with its names as placeholders,
    /// in the order of `nodes`.
    pub details: Vec<String>,
}

impl Group<'_> {
    /// Distinct details (values, diffs; names as placeholders) and the
    /// nodes showing each, in first-seen order.
    pub fn variants(&self) -> Vec<(String, Vec<&str>)> {
        let mut out: Vec<(String, Vec<&str>)> = Vec::new();
        let mut index: std::collections::HashMap<&str, usize> = Default::default();
        for ((node, _), d) in self.nodes.iter().zip(&self.details) {
            match index.get(d.as_str()) {
                Some(&i) => out[i].1.push(node),
                None => {
                    index.insert(d, out.len());
                    out.push((d.clone(), vec![node]));
                }
            }
        }
        out
    }

    /// The placeholders the group's texts use (`<fqdn>`, ...), sorted.
    pub fn placeholders(&self) -> Vec<&'static str> {
        crate::diff::names::PLACEHOLDERS
            .iter()
            .copied()
            .filter(|p| self.headline.contains(p) || self.details.iter().any(|d| d.contains(p)))
            .collect()
    }
}

impl DiffReport {
    /// Compares every node present on either side (in parallel). Nodes are
    /// matched by name.
    pub fn build(
        from_label: &str,
        to_label: &str,
        from: Vec<(String, SideCatalog)>,
        to: Vec<(String, SideCatalog)>,
        ctx: &CompareContext,
    ) -> DiffReport {
        let mut pairs: BTreeMap<String, (Option<SideCatalog>, Option<SideCatalog>)> =
            BTreeMap::new();
        for (n, c) in from {
            pairs.entry(n).or_default().0 = Some(c);
        }
        for (n, c) in to {
            pairs.entry(n).or_default().1 = Some(c);
        }
        let pairs: Vec<_> = pairs.into_iter().collect();
        let nodes = pairs
            .into_par_iter()
            .map(|(name, (a, b))| {
                let status = node_status(a, b, ctx);
                let names = NodeNames::certname(&name);
                NodeOutcome {
                    name,
                    status,
                    names,
                }
            })
            .collect();
        DiffReport {
            from_label: from_label.to_string(),
            to_label: to_label.to_string(),
            nodes,
        }
    }

    pub fn count(&self, status: &str) -> usize {
        self.nodes
            .iter()
            .filter(|n| n.status.as_str() == status)
            .count()
    }

    /// 1 when a node failed, else 2 when anything changed, else 0.
    pub fn exit_code(&self) -> u8 {
        if self.count("failed") > 0 {
            EXIT_ERROR
        } else if self.nodes.iter().any(|n| n.status != NodeStatus::Unchanged) {
            EXIT_CHANGED
        } else {
            EXIT_UNCHANGED
        }
    }

    /// Changes grouped by what changed (each node's own names as
    /// placeholders), in order of first appearance by node name (stable:
    /// nodes are sorted). A removed resource followed by its rename (see
    /// [`is_rename`]) is one `resource_renamed` change `A -> B`.
    pub fn groups(&self) -> Vec<Group<'_>> {
        /// One node's change in a group: the node, the change, its kind
        /// and detail as they are and with the node's names generalized.
        struct Member<'a> {
            node: &'a str,
            change: &'a Change,
            kind: ChangeKind,
            detail: String,
            general_detail: String,
        }
        let mut order: Vec<ChangeKind> = Vec::new();
        let mut by: BTreeMap<ChangeKind, Vec<Member<'_>>> = BTreeMap::new();
        for n in &self.nodes {
            let NodeStatus::Changed(changes) = &n.status else {
                continue;
            };
            let mut i = 0;
            while i < changes.len() {
                let c = &changes[i];
                let kind = match changes.get(i + 1) {
                    Some(next) if is_rename(c, next) => {
                        i += 1;
                        ChangeKind {
                            kind: "resource_renamed",
                            subject: format!("{} -> {}", c.kind().subject, next.kind().subject),
                            parameter: None,
                        }
                    }
                    _ => c.kind(),
                };
                i += 1;
                let general = kind.generalized(&n.names);
                let entry = by.entry(general.clone()).or_default();
                if entry.is_empty() {
                    order.push(general);
                }
                let detail = c.detail();
                entry.push(Member {
                    node: n.name.as_str(),
                    change: c,
                    general_detail: n.names.generalize(&detail),
                    kind,
                    detail,
                });
            }
        }
        order
            .into_iter()
            .map(|general| {
                let members = by.remove(&general).unwrap_or_default();
                // Placeholders only where the nodes' own texts differ: a
                // change the same on every node (or on one node) is shown
                // as it is.
                let kind = match members.first() {
                    Some(m) if members.iter().all(|x| x.kind == m.kind) => m.kind.clone(),
                    _ => general,
                };
                let mut raw_of: BTreeMap<&str, Option<&str>> = BTreeMap::new();
                for m in &members {
                    raw_of
                        .entry(m.general_detail.as_str())
                        .and_modify(|r| {
                            if *r != Some(m.detail.as_str()) {
                                *r = None;
                            }
                        })
                        .or_insert(Some(m.detail.as_str()));
                }
                let details = members
                    .iter()
                    .map(|m| match raw_of.get(m.general_detail.as_str()) {
                        Some(Some(raw)) => raw.to_string(),
                        _ => m.general_detail.clone(),
                    })
                    .collect();
                Group {
                    headline: kind.headline(),
                    kind,
                    nodes: members.iter().map(|m| (m.node, m.change)).collect(),
                    details,
                }
            })
            .collect()
    }

    pub fn with_status(&self, status: &str) -> Vec<&NodeOutcome> {
        self.nodes
            .iter()
            .filter(|n| n.status.as_str() == status)
            .collect()
    }
}

fn resource_count(c: &J) -> usize {
    c.get("resources").and_then(J::as_array).map_or(0, Vec::len)
}

/// A node's status from its two sides (`None`: the side has no such node).
pub fn node_status(
    a: Option<SideCatalog>,
    b: Option<SideCatalog>,
    ctx: &CompareContext,
) -> NodeStatus {
    match (a, b) {
        (Some(Ok(a)), Some(Ok(b))) => match compare(&a, &b, ctx) {
            Ok(changes) if changes.is_empty() => NodeStatus::Unchanged,
            Ok(changes) => NodeStatus::Changed(changes),
            // `compare` says which side is no catalog ("from: ..." or "to: ...").
            Err(e) => match e.strip_prefix("from: ") {
                Some(e) => NodeStatus::Failed {
                    from: Some(e.to_string()),
                    to: None,
                },
                None => NodeStatus::Failed {
                    from: None,
                    to: Some(e.trim_start_matches("to: ").to_string()),
                },
            },
        },
        (Some(Err(e)), b) => NodeStatus::Failed {
            from: Some(e),
            to: b.and_then(Result::err),
        },
        (a, Some(Err(e))) => NodeStatus::Failed {
            from: a.and_then(Result::err),
            to: Some(e),
        },
        (None, Some(Ok(b))) => NodeStatus::Added {
            resources: resource_count(&b),
        },
        (Some(Ok(a)), None) => NodeStatus::Removed {
            resources: resource_count(&a),
        },
        (None, None) => NodeStatus::Unchanged,
    }
}

/// `a, b, c` for up to `max` names, then `and N more`.
pub fn name_list(names: &[&str], max: usize) -> String {
    if names.len() <= max {
        names.join(", ")
    } else {
        format!(
            "{}, and {} more",
            names[..max].join(", "),
            names.len() - max
        )
    }
}
