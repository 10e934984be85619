//! Reports of `pverify run` and `pverify check`: one item per spec-suite
//! case or node, rendered as text (one line per item, readable diffs for
//! failures), JSON (schema `pverify-report/1`, documented in
//! `docs/harness.md`), JUnit XML (one `testcase` per item) or an HTML
//! page (docs/html-report.md).

use serde::Serialize;

use crate::catalog_changes::Change;
use crate::catalog_diff::{render_changes, text_diff, Paint};

/// An item's verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Passed,
    Failed,
    /// Not judged: a pending spec-suite case that fails as expected.
    Skipped,
}

/// Why an item failed, against one reference.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Failure {
    /// What disagreed: `pverify` (pverify's result vs the expectation),
    /// `puppet` (Puppet's result vs the expectation), `golden` (pverify's
    /// catalog vs the golden file), `compile` (the node did not compile).
    pub against: String,
    /// One line saying what is wrong.
    pub message: String,
    /// Per resource and parameter, when both sides are catalogs.
    #[serde(
        skip_serializing_if = "Vec::is_empty",
        serialize_with = "crate::catalog_diff::serialize_changes"
    )]
    pub changes: Vec<Change>,
    /// Expected and actual text (errors, warnings), when not catalogs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub actual: Option<String>,
}

/// One spec-suite case or node.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Item {
    pub name: String,
    pub status: Status,
    /// Why it was skipped (the pending note).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub failures: Vec<Failure>,
    pub millis: u64,
}

/// The whole run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// Always `pverify-report/1`.
    pub schema: &'static str,
    /// `run` or `check`.
    pub command: String,
    /// The suite directory or control repo.
    pub target: String,
    pub summary: Summary,
    pub items: Vec<Item>,
    /// Only in the report of one shard (`check --shard I/N`): what
    /// `pverify report merge` needs to put the shards back together.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shard: Option<ShardOf>,
}

/// Which shard a report is, and where its items stand in the unsharded
/// run's order (the matrix's order, which sorting by name would lose).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ShardOf {
    /// 1-based.
    pub index: usize,
    pub count: usize,
    /// For each item, its position in the unsharded report.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub positions: Vec<usize>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Summary {
    pub total: usize,
    pub passed: usize,
    pub failed: usize,
    pub skipped: usize,
}

pub const SCHEMA: &str = "pverify-report/1";

impl Report {
    pub fn new(command: &str, target: &str, items: Vec<Item>) -> Report {
        let count = |s| items.iter().filter(|i| i.status == s).count();
        let summary = Summary {
            total: items.len(),
            passed: count(Status::Passed),
            failed: count(Status::Failed),
            skipped: count(Status::Skipped),
        };
        Report {
            schema: SCHEMA,
            command: command.to_string(),
            target: target.to_string(),
            summary,
            items,
            shard: None,
        }
    }

    /// The last line of the text report.
    pub fn summary_line(&self) -> String {
        format!(
            "{} passed, {} failed, {} skipped",
            self.summary.passed, self.summary.failed, self.summary.skipped
        )
    }

    /// Text: one line per item, failures followed by their diffs, then
    /// `N passed, M failed, P skipped`.
    pub fn to_text(&self, paint: Paint) -> String {
        let mut out = String::new();
        for item in &self.items {
            out.push_str(&item_text(item, paint));
        }
        out.push_str(&self.summary_line());
        out.push('\n');
        out
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default() + "\n"
    }

    /// JUnit XML: one `testsuite` named after the command, one `testcase`
    /// per item (`classname` = the part of the name before the last `/`,
    /// or the command), `failure` with the text diff, `skipped` with the
    /// reason.
    pub fn to_junit(&self) -> String {
        let secs = |ms: u64| format!("{:.3}", ms as f64 / 1000.0);
        let total: u64 = self.items.iter().map(|i| i.millis).sum();
        let s = &self.summary;
        let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        out.push_str(&format!(
            "<testsuites name=\"pverify {}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\" time=\"{}\">\n",
            xml(&self.command), s.total, s.failed, s.skipped, secs(total)
        ));
        out.push_str(&format!(
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\" time=\"{}\">\n",
            xml(&self.target), s.total, s.failed, s.skipped, secs(total)
        ));
        for item in &self.items {
            let (class, name) = match item.name.rsplit_once('/') {
                Some((c, n)) => (c.to_string(), n.to_string()),
                None => (self.command.clone(), item.name.clone()),
            };
            out.push_str(&format!(
                "    <testcase classname=\"{}\" name=\"{}\" time=\"{}\"",
                xml(&class),
                xml(&name),
                secs(item.millis)
            ));
            match item.status {
                Status::Passed => out.push_str("/>\n"),
                Status::Skipped => out.push_str(&format!(
                    ">\n      <skipped message=\"{}\"/>\n    </testcase>\n",
                    xml(item.reason.as_deref().unwrap_or(""))
                )),
                Status::Failed => {
                    let message = item
                        .failures
                        .iter()
                        .map(|f| f.message.as_str())
                        .collect::<Vec<_>>()
                        .join("; ");
                    let body: String = item
                        .failures
                        .iter()
                        .map(|f| failure_text(f, Paint(false)))
                        .collect();
                    out.push_str(&format!(
                        ">\n      <failure message=\"{}\" type=\"mismatch\">{}</failure>\n    </testcase>\n",
                        xml(&message),
                        xml(&body)
                    ));
                }
            }
        }
        out.push_str("  </testsuite>\n</testsuites>\n");
        out
    }
}

/// One item's text: its line and, for a failure, what is wrong.
pub fn item_text(item: &Item, paint: Paint) -> String {
    match item.status {
        Status::Passed => format!("{}      {}\n", paint.green("ok"), item.name),
        Status::Skipped => format!(
            "{} {} ({})\n",
            paint.yellow("pending"),
            item.name,
            item.reason.as_deref().unwrap_or("")
        ),
        Status::Failed => {
            let mut out = format!("{}  {}\n", paint.red(&paint.bold("FAILED")), item.name);
            for f in &item.failures {
                out.push_str(&failure_text(f, paint));
            }
            out
        }
    }
}

fn failure_text(f: &Failure, paint: Paint) -> String {
    let mut out = format!("    [{}] {}\n", f.against, f.message);
    out.push_str(&render_changes(&f.changes, "      ", paint));
    match (&f.expected, &f.actual) {
        (Some(e), Some(a)) => out.push_str(&text_diff(
            &format!("{e}\n"),
            &format!("{a}\n"),
            "expected",
            "actual",
            "      ",
            paint,
        )),
        (Some(e), None) => out.push_str(&format!("      expected: {e}\n")),
        (None, Some(a)) => out.push_str(&format!("      actual: {a}\n")),
        (None, None) => {}
    }
    out
}

/// Text escaped for XML attributes and content; characters XML 1.0 does not
/// allow (most control characters) become `?` so the document stays well
/// formed.
pub fn xml(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' => out.push('\n'),
            '\t' => out.push('\t'),
            '\r' => out.push_str("&#13;"),
            c if (c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => out.push('?'),
            c => out.push(c),
        }
    }
    out
}

/// How a command prints its report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
    Junit,
    /// A self-contained page, drawn by `diff::render::html::check` (the
    /// page `pverify diff` writes; this module stays below `diff`).
    Html,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xml_escapes_and_drops_control_characters() {
        assert_eq!(xml("a<b>&\"'\u{1b}"), "a&lt;b&gt;&amp;&quot;&apos;?");
    }

    #[test]
    fn summary_counts() {
        let item = |s| Item {
            name: "t/x".into(),
            status: s,
            reason: None,
            failures: vec![],
            millis: 1,
        };
        let r = Report::new(
            "run",
            "spec-suite",
            vec![
                item(Status::Passed),
                item(Status::Failed),
                item(Status::Skipped),
            ],
        );
        assert_eq!(r.summary_line(), "1 passed, 1 failed, 1 skipped");
        assert!(r
            .to_junit()
            .contains("tests=\"3\" failures=\"1\" errors=\"0\" skipped=\"1\""));
    }
}
