//! `pverify report merge FILE...`: the JSON reports of a sharded run's
//! shards (`check --shard I/N --format json`, `diff --shard I/N --format
//! json`) rendered as the one report an unsharded run would have written,
//! byte for byte, in any format (docs/ci.md).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Subcommand};

use pverify_harness::diff::render::{render, Format};
use pverify_harness::merge::{merge, Merged};

use crate::cli_report::{paint, EXIT_SETUP};

#[derive(Args)]
pub struct ReportArgs {
    #[command(subcommand)]
    command: ReportCommand,
}

#[derive(Subcommand)]
enum ReportCommand {
    /// Merge the JSON reports of a sharded check or diff (one per shard)
    /// into the report one unsharded run would have written. Exits as that
    /// run would (check: 0 or 1; diff: 0, 1 or 2); 3 when the reports are
    /// not the complete shards of one run.
    #[command(after_help = crate::cli_report::EXIT_CODES_HELP)]
    Merge(MergeArgs),
}

#[derive(Args)]
pub struct MergeArgs {
    /// The shards' JSON reports (any order).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// text, markdown (diff only), json, junit or html.
    #[arg(long, default_value = "text")]
    format: Format,
    /// Write the report here instead of stdout.
    #[arg(long)]
    output: Option<PathBuf>,
    /// The number of shards the run had: every report must say so.
    #[arg(long, value_name = "N")]
    expect: Option<usize>,
    /// diff: add every node's own list of changes (text and markdown).
    #[arg(long)]
    detail: bool,
    #[command(flatten)]
    review: crate::cli_opts_review::DiffReviewOpts,
}

fn fail(msg: impl std::fmt::Display) -> ExitCode {
    eprintln!("pverify report merge: {msg}");
    ExitCode::from(EXIT_SETUP)
}

pub fn run(args: ReportArgs) -> ExitCode {
    let ReportCommand::Merge(args) = args.command;
    let mut inputs = Vec::with_capacity(args.files.len());
    for f in &args.files {
        match std::fs::read_to_string(f) {
            Ok(text) => inputs.push((f.display().to_string(), text)),
            Err(e) => return fail(format!("{}: {e}", f.display())),
        }
    }
    let (text, code) = match merge(&inputs, args.expect) {
        Err(e) => return fail(e),
        Ok(Merged::Check(report)) => {
            let text = match args.format {
                Format::Text => report.to_text(paint()),
                Format::Json => report.to_json(),
                Format::Junit => report.to_junit(),
                Format::Html => pverify_harness::diff::render::html::check::render(&report),
                Format::Markdown => {
                    return fail(format!(
                        "a {} report has no Markdown form (text, json, junit or html)",
                        report.command
                    ))
                }
            };
            (text, u8::from(report.summary.failed > 0))
        }
        Ok(Merged::Diff(report)) => {
            let text = match args.format {
                Format::Markdown => match crate::cli_diff::markdown_within_budget(
                    &args.review,
                    args.output.as_ref(),
                    args.detail,
                    &report,
                ) {
                    Ok(t) => t,
                    Err(e) => return fail(e),
                },
                f => render(&report, f, args.detail),
            };
            (text, report.exit_code())
        }
    };
    // A report that cannot be written is a failed result (1), as on every
    // command.
    let written = match &args.output {
        Some(path) => std::fs::write(path, &text).map_err(|e| format!("{}: {e}", path.display())),
        None => crate::cli_writes::print_or_fail(text.as_bytes()),
    };
    if let Err(e) = written {
        eprintln!("pverify report merge: {e}");
        return ExitCode::FAILURE;
    }
    ExitCode::from(code)
}
