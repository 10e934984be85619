//! What `pverify run` and `pverify check` share: printing a report in the
//! chosen format, the progress bar, and the exit codes of every command.
//!
//! Exit codes (one scheme for every command, README "Exit codes"): 0
//! success (everything passed, no change), 1 failures (a node, case or file
//! failed), 2 changes (`diff` only: octocatalog-diff's and `terraform plan
//! -detailed-exitcode`'s code for "there are changes"), 3 the command could
//! not run (bad arguments, a filter or shard selecting nothing, an
//! unreadable config or input, Puppet missing for `--oracle puppet`). A
//! usage error is never 1 or 2, so it cannot read as a result.

use std::io::IsTerminal;
use std::process::ExitCode;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use pverify_harness::catalog_diff::Paint;
use pverify_harness::reference::PuppetVersion;
use pverify_harness::report::{Format, Report};

/// `--puppet 7|8`: the Puppet version to compile as (and, with `--oracle
/// puppet`, the reference to check against).
/// `--setting NAME=VALUE`: checked against the settings registry as the
/// command line is read, so a bad one is a setup error.
pub fn parse_setting(text: &str) -> Result<String, String> {
    let mut s = puppet_compiler::settings::Settings::default();
    s.set_assignment(text).map_err(|e| e.to_string())?;
    Ok(text.to_string())
}

pub fn parse_puppet(text: &str) -> Result<PuppetVersion, String> {
    PuppetVersion::parse(text).ok_or_else(|| format!("expected 7 or 8, got '{text}'"))
}

/// Exit code for usage and setup errors: the command could not run.
pub const EXIT_SETUP: u8 = 3;

/// The exit codes, for every command's `--help`.
pub const EXIT_CODES_HELP: &str = "Exit codes (every command):
  0  success: everything compiled and passed; diff: no change
  1  failures: a node, case or file failed (diff: a node failed on either side)
  2  changes: diff found catalog changes (octocatalog-diff's code)
  3  the command could not run: bad arguments, a filter or shard selecting
     nothing, an unreadable config or input, Puppet missing for --oracle";

/// Colour only when stdout is a terminal and `NO_COLOR` is unset.
pub fn paint() -> Paint {
    Paint(std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none())
}

/// A progress bar on stderr when it is a terminal (hidden otherwise, and for
/// fewer than 20 items, which finish before a bar is worth seeing); `len` 0
/// makes a spinner.
pub fn progress_bar(len: u64, what: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() || (len > 0 && len < 20) {
        return ProgressBar::hidden();
    }
    let bar = if len == 0 {
        let b = ProgressBar::new_spinner();
        b.enable_steady_tick(std::time::Duration::from_millis(120));
        b
    } else {
        ProgressBar::new(len)
    };
    bar.set_draw_target(ProgressDrawTarget::stderr());
    let style = if len == 0 {
        ProgressStyle::with_template("{spinner} {msg} {elapsed}")
    } else {
        ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} {elapsed}")
    };
    if let Ok(s) = style {
        bar.set_style(s.progress_chars("=> "));
    }
    bar.set_message(what.to_string());
    bar
}

/// Prints the report and returns the exit code (0 iff nothing failed).
pub fn emit(report: &Report, format: Format) -> ExitCode {
    let text = match format {
        Format::Text => report.to_text(paint()),
        Format::Json => report.to_json(),
        Format::Junit => report.to_junit(),
        Format::Html => pverify_harness::diff::render::html::check::render(report),
    };
    // A report that cannot be written is no evidence of success.
    if let Err(e) = crate::cli_writes::print_or_fail(text.as_bytes()) {
        eprintln!("pverify: {e}");
        return ExitCode::FAILURE;
    }
    if report.summary.failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
