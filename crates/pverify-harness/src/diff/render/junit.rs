//! JUnit XML: one test case per node. A changed, added or removed node is
//! a `<failure>` (its changes as text), a failed node an `<error>`, an
//! unchanged node passes.

use std::fmt::Write;

use super::failure_text;
use crate::diff::report::{DiffReport, NodeStatus};

pub fn render(report: &DiffReport) -> String {
    let tests = report.nodes.len();
    let errors = report.count("failed");
    let failures = tests - errors - report.count("unchanged");
    let mut s = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let suite = format!("pverify diff {} -> {}", report.from_label, report.to_label);
    let _ = writeln!(
        s,
        "<testsuites name=\"pverify diff\" tests=\"{tests}\" failures=\"{failures}\" errors=\"{errors}\">"
    );
    let _ = writeln!(
        s,
        "  <testsuite name=\"{}\" tests=\"{tests}\" failures=\"{failures}\" errors=\"{errors}\">",
        xml(&suite)
    );
    for n in &report.nodes {
        let _ = write!(
            s,
            "    <testcase classname=\"pverify.diff\" name=\"{}\"",
            xml(&n.name)
        );
        match &n.status {
            NodeStatus::Unchanged => {
                let _ = writeln!(s, "/>");
                continue;
            }
            NodeStatus::Changed(changes) => {
                let body: Vec<String> = changes
                    .iter()
                    .map(|c| {
                        let d = c.detail();
                        if d.is_empty() {
                            c.headline()
                        } else {
                            format!("{}\n{d}", c.headline())
                        }
                    })
                    .collect();
                let _ = writeln!(
                    s,
                    ">\n      <failure type=\"changed\" message=\"{} changes\">{}</failure>\n    </testcase>",
                    changes.len(),
                    xml(&body.join("\n"))
                );
            }
            NodeStatus::Added { resources } | NodeStatus::Removed { resources } => {
                let _ = writeln!(
                    s,
                    ">\n      <failure type=\"{}\" message=\"node {} ({resources} resources)\"/>\n    </testcase>",
                    n.status.as_str(),
                    n.status.as_str()
                );
            }
            NodeStatus::Failed { from, to } => {
                let text = failure_text(from, to);
                let first = text.lines().next().unwrap_or_default();
                let _ = writeln!(
                    s,
                    ">\n      <error type=\"failed\" message=\"{}\">{}</error>\n    </testcase>",
                    xml(first),
                    xml(&text)
                );
            }
        }
    }
    // The changes grouped across nodes (names as placeholders), as the
    // text report shows them: what a CI test tab shows beside the cases.
    if !report.groups().is_empty() {
        let _ = writeln!(
            s,
            "    <system-out>{}</system-out>",
            xml(&super::text::render(report, false))
        );
    }
    let _ = writeln!(s, "  </testsuite>\n</testsuites>");
    s
}

fn xml(t: &str) -> String {
    t.chars()
        .filter(|c| matches!(c, '\t' | '\n' | '\r') || (*c as u32) >= 0x20)
        .collect::<String>()
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
