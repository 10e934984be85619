//! Markdown for a pull-request comment: a summary table, a table of the
//! changes (one row per change, with its node count), each change's values
//! in a collapsible `<details>` block, failed nodes with their errors, and
//! with `--detail` a collapsible block per node.

use std::fmt::Write;

use super::failure_text;
use crate::diff::report::{name_list, DiffReport, NodeStatus};

const NAMES: usize = 20;

pub fn render(report: &DiffReport, detail: bool) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "### pverify diff: `{}` → `{}`\n",
        report.from_label, report.to_label
    );
    let _ = writeln!(
        s,
        "| nodes | changed | unchanged | added | removed | failed |"
    );
    let _ = writeln!(s, "|---:|---:|---:|---:|---:|---:|");
    let _ = writeln!(
        s,
        "| {} | {} | {} | {} | {} | {} |",
        report.nodes.len(),
        report.count("changed"),
        report.count("unchanged"),
        report.count("added"),
        report.count("removed"),
        report.count("failed")
    );
    let groups = report.groups();
    if !groups.is_empty() {
        let _ = writeln!(s, "\n| change | nodes |\n|---|---:|");
        for g in &groups {
            let _ = writeln!(s, "| {} | {} |", cell(&g.headline), g.nodes.len());
        }
        for g in &groups {
            let names: Vec<&str> = g.nodes.iter().map(|(n, _)| *n).collect();
            let _ = writeln!(
                s,
                "\n<details><summary>{} ({} node{})</summary>\n",
                html(&g.headline),
                names.len(),
                if names.len() == 1 { "" } else { "s" }
            );
            let variants = g.variants();
            for (d, ns) in &variants {
                if variants.len() > 1 || d.is_empty() {
                    let _ = writeln!(s, "Nodes: {}\n", name_list(ns, NAMES));
                } else {
                    let _ = writeln!(s, "Nodes: {}\n", name_list(&names, NAMES));
                }
                if !d.is_empty() {
                    code_block(&mut s, d, g.kind.kind == "content_changed");
                }
            }
            let _ = writeln!(s, "</details>");
        }
    }
    for (status, title) in [("added", "Nodes added"), ("removed", "Nodes removed")] {
        let ns = report.with_status(status);
        if !ns.is_empty() {
            let _ = writeln!(s, "\n**{title}:**");
            for n in ns {
                if let NodeStatus::Added { resources } | NodeStatus::Removed { resources } =
                    n.status
                {
                    let _ = writeln!(s, "- `{}` ({resources} resources)", n.name);
                }
            }
        }
    }
    let failed = report.with_status("failed");
    if !failed.is_empty() {
        let _ = writeln!(s, "\n**Nodes failed:**\n");
        for n in failed {
            if let NodeStatus::Failed { from, to } = &n.status {
                let _ = writeln!(s, "- `{}`", n.name);
                let _ = writeln!(s);
                code_block(&mut s, &failure_text(from, to), false);
            }
        }
    }
    if detail {
        for n in &report.nodes {
            if let NodeStatus::Changed(changes) = &n.status {
                let _ = writeln!(
                    s,
                    "\n<details><summary>{} ({} changes)</summary>\n",
                    html(&n.name),
                    changes.len()
                );
                for c in changes {
                    let _ = writeln!(s, "- {}", html(&c.headline()));
                    let d = c.detail();
                    if !d.is_empty() {
                        let _ = writeln!(s);
                        code_block(
                            &mut s,
                            &d,
                            matches!(c, crate::diff::Change::ContentChanged { .. }),
                        );
                    }
                }
                let _ = writeln!(s, "</details>");
            }
        }
    }
    s
}

/// A fenced block whose fence is longer than any backtick run inside.
fn code_block(s: &mut String, text: &str, diff: bool) {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest.max(2) + 1);
    let _ = writeln!(s, "{fence}{}", if diff { "diff" } else { "" });
    let _ = write!(s, "{text}");
    if !text.ends_with('\n') {
        let _ = writeln!(s);
    }
    let _ = writeln!(s, "{fence}\n");
}

fn html(t: &str) -> String {
    t.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

fn cell(t: &str) -> String {
    html(t).replace('|', "\\|")
}
