//! Human text: a summary line, then each change once with the nodes that
//! show it ("File[/etc/motd] parameter mode changed on 12 nodes: web01,
//! ..."), then added, removed and failed nodes; `--detail` adds every
//! node's own list of changes.

use std::fmt::Write;

use super::failure_text;
use crate::diff::report::{name_list, DiffReport, NodeStatus};

/// How many node names a line lists before "and N more".
const NAMES: usize = 10;
/// How many distinct values of one change are shown.
const VARIANTS: usize = 5;

pub fn render(report: &DiffReport, detail: bool) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "pverify diff: {} -> {}",
        report.from_label, report.to_label
    );
    let _ = writeln!(s, "{}", summary_line(report));
    for g in report.groups() {
        let names: Vec<&str> = g.nodes.iter().map(|(n, _)| *n).collect();
        let _ = writeln!(
            s,
            "\n{} on {} node{}: {}",
            g.headline,
            names.len(),
            plural(names.len()),
            name_list(&names, NAMES)
        );
        let placeholders = g.placeholders();
        if !placeholders.is_empty() {
            let _ = writeln!(s, "  ({}: each node's own)", placeholders.join(", "));
        }
        let variants = g.variants();
        let many = variants.len() > 1;
        for (i, (d, ns)) in variants.iter().enumerate() {
            if i == VARIANTS {
                let _ = writeln!(
                    s,
                    "  ({} more variants; see --detail)",
                    variants.len() - VARIANTS
                );
                break;
            }
            if many {
                let _ = writeln!(s, "  on {}:", name_list(ns, NAMES));
            }
            indent(&mut s, d, if many { "    " } else { "  " });
        }
    }
    let added = report.with_status("added");
    if !added.is_empty() {
        let _ = writeln!(s, "\nNodes added:");
        for n in added {
            if let NodeStatus::Added { resources } = n.status {
                let _ = writeln!(s, "  {} ({resources} resources)", n.name);
            }
        }
    }
    let removed = report.with_status("removed");
    if !removed.is_empty() {
        let _ = writeln!(s, "\nNodes removed:");
        for n in removed {
            if let NodeStatus::Removed { resources } = n.status {
                let _ = writeln!(s, "  {} ({resources} resources)", n.name);
            }
        }
    }
    let failed = report.with_status("failed");
    if !failed.is_empty() {
        let _ = writeln!(s, "\nNodes failed:");
        for n in failed {
            if let NodeStatus::Failed { from, to } = &n.status {
                let _ = writeln!(s, "  {}:", n.name);
                indent(&mut s, &failure_text(from, to), "    ");
            }
        }
    }
    if detail {
        for n in &report.nodes {
            if let NodeStatus::Changed(changes) = &n.status {
                let _ = writeln!(s, "\n== {} ({} changes)", n.name, changes.len());
                for c in changes {
                    let _ = writeln!(s, "  {}", c.headline());
                    indent(&mut s, &c.detail(), "    ");
                }
            }
        }
    }
    s
}

/// `N nodes: a changed, b unchanged, ...`
pub fn summary_line(report: &DiffReport) -> String {
    format!(
        "{} node{}: {} changed, {} unchanged, {} added, {} removed, {} failed",
        report.nodes.len(),
        plural(report.nodes.len()),
        report.count("changed"),
        report.count("unchanged"),
        report.count("added"),
        report.count("removed"),
        report.count("failed"),
    )
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

fn indent(s: &mut String, text: &str, prefix: &str) {
    for line in text.lines() {
        let _ = writeln!(s, "{prefix}{line}");
    }
}
