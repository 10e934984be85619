//! The HTML page of a `pverify check` (or `run`) report: every node with
//! its verdict and errors (compile errors with their file and line), and
//! the catalog differences from the goldens grouped across nodes as
//! `pverify diff` groups changes (the same grouping, through a
//! [`DiffReport`] of the failed nodes' changes).

use std::collections::HashMap;

use serde_json::{json, Value as J};

use crate::diff::names::NodeNames;
use crate::diff::report::{DiffReport, NodeOutcome, NodeStatus};
use crate::report::{Report, Status};

use super::{groups_data, page};

pub fn render(report: &Report) -> String {
    let title = format!("pverify {}: {}", report.command, report.target);
    let s = &report.summary;
    let summary = json!([
        ["total", s.total],
        ["passed", s.passed],
        ["failed", s.failed],
        ["skipped", s.skipped],
    ]);
    let mut nodes: Vec<J> = report
        .items
        .iter()
        .map(|item| {
            let errors: Vec<J> = item
                .failures
                .iter()
                .map(|f| {
                    json!({
                        "against": f.against,
                        "message": f.message,
                        "expected": f.expected,
                        "actual": f.actual,
                    })
                })
                .collect();
            let status = match item.status {
                Status::Passed => "passed",
                Status::Failed => "failed",
                Status::Skipped => "skipped",
            };
            json!({
                "name": item.name,
                "status": status,
                "note": item.reason,
                "changes": [],
                "errors": errors,
            })
        })
        .collect();
    // The changes of every item, as a diff from the expected (golden)
    // catalog to the one compiled, so they group as diff's do.
    let changed = DiffReport {
        from_label: "expected".into(),
        to_label: "actual".into(),
        nodes: report
            .items
            .iter()
            .filter_map(|item| {
                let changes: Vec<_> = item
                    .failures
                    .iter()
                    .flat_map(|f| f.changes.iter().cloned())
                    .collect();
                (!changes.is_empty()).then(|| NodeOutcome {
                    name: item.name.clone(),
                    status: NodeStatus::Changed(changes),
                    // check's items carry no facts: the certname is the
                    // one name the grouping can stand a placeholder for.
                    names: NodeNames::certname(&item.name),
                })
            })
            .collect(),
    };
    let index: HashMap<&str, usize> = report
        .items
        .iter()
        .enumerate()
        .map(|(i, item)| (item.name.as_str(), i))
        .collect();
    let groups = groups_data(&changed.groups(), &index, &mut nodes);
    page::page(
        &title,
        &json!({
            "command": report.command,
            "title": title,
            "summary": summary,
            "groups": groups,
            "nodes": nodes,
        }),
    )
}
