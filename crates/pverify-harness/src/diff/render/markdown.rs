//! Markdown for a pull-request comment: a summary table, the changed
//! resource types, a table of the changes (one row per change, with its
//! node count, biggest first), each change's values in a collapsible
//! `<details>` block, failed nodes with their errors, and with `--detail` a
//! collapsible block per node.
//!
//! Within a size budget (`--max-bytes`; a GitHub comment holds 65,536
//! characters) the report is built from whole blocks in that order, each
//! kept only if it still fits: a block is never cut in the middle, so code
//! fences, tables and `<details>` always close. What did not fit is said on
//! the last line, with where the full report is.

use std::fmt::Write;

use super::failure_text;
use crate::diff::report::{name_list, DiffReport, Group, NodeStatus};

const NAMES: usize = 20;
/// Distinct values of one change shown within a budget.
const VARIANTS: usize = 5;
/// Room kept for the closing line saying what was left out.
const CLOSING: usize = 600;

/// How to write the Markdown.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Add a block per node with its own changes.
    pub detail: bool,
    /// At most this many bytes (0: no limit).
    pub max_bytes: usize,
    /// Where the full report is (a URL or a path), named when something
    /// was left out.
    pub full_report: Option<String>,
}

/// The whole report, without a size limit.
pub fn render(report: &DiffReport, detail: bool) -> String {
    render_within(
        report,
        &Options {
            detail,
            ..Options::default()
        },
    )
}

/// Appends blocks while they fit the budget and counts those left out.
struct Budget {
    out: String,
    limit: usize,
    left_out: Vec<String>,
}

impl Budget {
    /// Appends `block` if it fits (keeping room for the closing line);
    /// false if it was left out.
    fn push(&mut self, block: &str) -> bool {
        if self.limit == 0 || self.out.len() + block.len() + CLOSING <= self.limit {
            self.out.push_str(block);
            true
        } else {
            false
        }
    }
}

pub fn render_within(report: &DiffReport, opts: &Options) -> String {
    let limited = opts.max_bytes > 0;
    let mut b = Budget {
        out: String::new(),
        limit: opts.max_bytes,
        left_out: Vec::new(),
    };
    b.out.push_str(&head(report));
    let mut groups = report.groups();
    if limited {
        // Biggest first (stable: ties keep their order of appearance).
        groups.sort_by_key(|g| std::cmp::Reverse(g.nodes.len()));
    }
    if !groups.is_empty() {
        let _ = writeln!(b.out, "\n**Changed types:** {}", changed_types(&groups));
    }
    // Failed nodes first within a budget: a reviewer must see them.
    let failed = report.with_status("failed");
    let failed_blocks: Vec<String> = failed
        .iter()
        .filter_map(|n| match &n.status {
            NodeStatus::Failed { from, to } => {
                let mut s = format!("- `{}`\n\n", n.name);
                code_block(&mut s, &failure_text(from, to), false);
                Some(s)
            }
            _ => None,
        })
        .collect();
    let emit_failed = |b: &mut Budget| {
        if failed_blocks.is_empty() {
            return;
        }
        if !b.push("\n**Nodes failed:**\n\n") {
            b.left_out
                .push(format!("{} failed nodes' errors", failed_blocks.len()));
            return;
        }
        let kept = failed_blocks.iter().filter(|f| b.push(f)).count();
        if kept < failed_blocks.len() {
            b.left_out.push(format!(
                "the errors of {} of {} failed nodes",
                failed_blocks.len() - kept,
                failed_blocks.len()
            ));
        }
    };
    if limited {
        emit_failed(&mut b);
    }
    if !groups.is_empty() {
        let mut rows = 0;
        if b.push("\n| change | nodes |\n|---|---:|\n") {
            for g in &groups {
                if !b.push(&format!("| {} | {} |\n", cell(&g.headline), g.nodes.len())) {
                    break;
                }
                rows += 1;
            }
        }
        if rows < groups.len() {
            b.left_out.push(format!(
                "{} of {} changes from the table",
                groups.len() - rows,
                groups.len()
            ));
        }
        let mut detailed = 0;
        let mut nodes_left: std::collections::BTreeSet<&str> = Default::default();
        for g in &groups {
            if b.push(&group_block(g, limited)) {
                detailed += 1;
            } else {
                nodes_left.extend(g.nodes.iter().map(|(n, _)| *n));
            }
        }
        if detailed < groups.len() {
            b.left_out.push(format!(
                "the values of {} of {} changes (on {} node{})",
                groups.len() - detailed,
                groups.len(),
                nodes_left.len(),
                if nodes_left.len() == 1 { "" } else { "s" }
            ));
        }
    }
    for (status, title) in [("added", "Nodes added"), ("removed", "Nodes removed")] {
        let ns = report.with_status(status);
        if ns.is_empty() {
            continue;
        }
        let mut s = format!("\n**{title}:**\n");
        for n in &ns {
            if let NodeStatus::Added { resources } | NodeStatus::Removed { resources } = n.status {
                let _ = writeln!(s, "- `{}` ({resources} resources)", n.name);
            }
        }
        if !b.push(&s) {
            b.left_out
                .push(format!("the list of {} {status} nodes", ns.len()));
        }
    }
    if !limited {
        emit_failed(&mut b);
    }
    if opts.detail {
        let changed: Vec<_> = report
            .nodes
            .iter()
            .filter(|n| matches!(n.status, NodeStatus::Changed(_)))
            .collect();
        let kept = changed
            .iter()
            .filter(|n| b.push(&node_block(n.name.as_str(), &n.status)))
            .count();
        if kept < changed.len() {
            b.left_out.push(format!(
                "the per-node detail of {} of {} changed nodes",
                changed.len() - kept,
                changed.len()
            ));
        }
    }
    if !b.left_out.is_empty() {
        let mut line = format!(
            "\n---\n**Left out to stay within {} bytes:** {}.",
            opts.max_bytes,
            b.left_out.join("; ")
        );
        match &opts.full_report {
            Some(at) => {
                // A URL stays a link; a path is code.
                let at = if at.contains("://") {
                    at.replace(['\n', '\r'], " ")
                } else {
                    inline(at)
                };
                let _ = write!(line, " The full report: {at}");
            }
            None => line.push_str(
                " Run `pverify diff` with `--max-bytes 0` (or another `--format`) for the full report.",
            ),
        }
        line.push('\n');
        // The closing room is reserved, but a long `--full-report-url` may
        // still not fit: then it is cut (never the Markdown around it).
        let room = opts.max_bytes.saturating_sub(b.out.len());
        if line.len() > room {
            let mut cut = room.saturating_sub(4);
            while !line.is_char_boundary(cut) {
                cut -= 1;
            }
            line.truncate(cut);
            line.push_str("…\n");
        }
        b.out.push_str(&line);
    }
    b.out
}

fn head(report: &DiffReport) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "### pverify diff: {} → {}\n",
        inline(&report.from_label),
        inline(&report.to_label)
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
    s
}

/// `` `File` (12), `Service` (1) ``: every changed resource type with its
/// number of changes, most first (classes and edges by their kind).
fn changed_types(groups: &[Group]) -> String {
    let mut counts: Vec<(String, usize)> = Vec::new();
    for g in groups {
        let t = match g.kind.kind {
            "class_added" | "class_removed" => "class".to_string(),
            "edge_added" | "edge_removed" => "containment edge".to_string(),
            _ => g
                .kind
                .subject
                .split_once('[')
                .map_or(g.kind.subject.clone(), |(t, _)| t.to_string()),
        };
        match counts.iter_mut().find(|(x, _)| *x == t) {
            Some((_, n)) => *n += 1,
            None => counts.push((t, 1)),
        }
    }
    counts.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    counts
        .iter()
        .map(|(t, n)| format!("{} ({n})", inline(t)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// One change's `<details>` block: its nodes and values.
fn group_block(g: &Group, limited: bool) -> String {
    let mut s = String::new();
    let names: Vec<&str> = g.nodes.iter().map(|(n, _)| *n).collect();
    let _ = writeln!(
        s,
        "\n<details><summary>{} ({} node{})</summary>\n",
        html(&g.headline),
        names.len(),
        if names.len() == 1 { "" } else { "s" }
    );
    let placeholders = g.placeholders();
    if !placeholders.is_empty() {
        let _ = writeln!(
            s,
            "{} stand{} for each node's own.\n",
            placeholders
                .iter()
                .map(|p| inline(p))
                .collect::<Vec<_>>()
                .join(", "),
            if placeholders.len() == 1 { "s" } else { "" }
        );
    }
    let variants = g.variants();
    for (i, (d, ns)) in variants.iter().enumerate() {
        if limited && i == VARIANTS {
            let _ = writeln!(
                s,
                "({} more variants; see the full report)\n",
                variants.len() - VARIANTS
            );
            break;
        }
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
    s
}

fn node_block(name: &str, status: &NodeStatus) -> String {
    let mut s = String::new();
    let NodeStatus::Changed(changes) = status else {
        return s;
    };
    let _ = writeln!(
        s,
        "\n<details><summary>{} ({} changes)</summary>\n",
        html(name),
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

/// Inline code whose backtick fence is longer than any run inside.
fn inline(t: &str) -> String {
    let t = t.replace(['\n', '\r'], " ");
    let longest = t.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if t.starts_with('`') || t.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{t}{pad}{fence}")
}

fn html(t: &str) -> String {
    t.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace(['\n', '\r'], " ")
}

fn cell(t: &str) -> String {
    html(t).replace('|', "\\|")
}
