//! Writing a [`DiffReport`](super::DiffReport): human text grouped by
//! change, Markdown for a pull-request comment, JSON (schema in
//! docs/diff-json.md), JUnit XML, a self-contained HTML page.

pub mod html;
pub mod json;
pub mod junit;
pub mod markdown;
pub mod text;

/// The output formats of `pverify diff --format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Text,
    Markdown,
    Json,
    Junit,
    Html,
}

impl std::str::FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Format, String> {
        match s {
            "text" => Ok(Format::Text),
            "markdown" | "md" => Ok(Format::Markdown),
            "json" => Ok(Format::Json),
            "junit" => Ok(Format::Junit),
            "html" => Ok(Format::Html),
            _ => Err(format!(
                "unknown format '{s}' (expected text, markdown, json, junit or html)"
            )),
        }
    }
}

/// The report in `format`; `detail` adds each node's own changes.
pub fn render(report: &super::DiffReport, format: Format, detail: bool) -> String {
    match format {
        Format::Text => text::render(report, detail),
        Format::Markdown => markdown::render(report, detail),
        Format::Json => json::render(report),
        Format::Junit => junit::render(report),
        Format::Html => html::render(report),
    }
}

/// The report as Markdown within `max_bytes` (0: no limit), naming
/// `full_report` (a URL or path) when something had to be left out.
pub fn render_markdown(
    report: &super::DiffReport,
    detail: bool,
    max_bytes: usize,
    full_report: Option<String>,
) -> String {
    markdown::render_within(
        report,
        &markdown::Options {
            detail,
            max_bytes,
            full_report,
        },
    )
}

/// The error of a failed node as one text: `from: E` / `to: E`.
pub fn failure_text(from: &Option<String>, to: &Option<String>) -> String {
    let mut parts = Vec::new();
    if let Some(e) = from {
        parts.push(format!("from: {e}"));
    }
    if let Some(e) = to {
        parts.push(format!("to: {e}"));
    }
    parts.join("\n")
}
