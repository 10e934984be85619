//! `pverify run [SUITE_DIR] [FILTER]`: runs spec-suite cases in parallel as
//! one Puppet version (`--puppet`, default 8) and compares each with the
//! expectation that version's reference recorded for it; with `--oracle
//! puppet`, also checks every expectation against the reference itself
//! (Puppet 7.23 or 8.10, see `pverify_harness::reference`).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};

use pverify_harness::harness::{self, suite};
use pverify_harness::report::{Format, Report};

use crate::cli_report::{emit, parse_puppet, progress_bar, EXIT_SETUP};
use pverify_harness::reference::{PuppetVersion, Reference};

#[derive(Args)]
pub struct RunArgs {
    /// The suite directory.
    #[arg(default_value = "spec-suite")]
    suite: PathBuf,
    /// Only cases whose name (`topic/name`) contains this.
    filter: Option<String>,
    /// Threads (default: all cores).
    #[arg(long, value_parser = crate::cli_writes::parse_jobs)]
    jobs: Option<usize>,
    /// Report format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Also compile every case with this reference and report each case
    /// whose expectation it does not meet.
    #[arg(long, value_enum)]
    oracle: Option<Oracle>,
    /// The Puppet version to compile as and check against: 7 (7.23) or 8
    /// (8.10).
    #[arg(long, value_parser = parse_puppet, default_value = "8")]
    puppet: PuppetVersion,
    /// A Puppet setting applied over each case's own `settings:`,
    /// `NAME=VALUE` (repeatable; docs/settings.md lists them).
    #[arg(long = "setting", value_name = "NAME=VALUE", value_parser = crate::cli_report::parse_setting)]
    settings: Vec<String>,
    #[command(flatten)]
    reads: crate::cli_opts_reads::ReadOpts,
    #[command(flatten)]
    budgets: crate::cli_opts_budgets::BudgetArgs,
}

/// A reference implementation to check expectations against.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Oracle {
    /// The reference Puppet of `--puppet`: 7.23 is `puppet` on PATH; 8.10
    /// is `puppet` on PATH when that is 8.x, else the Debian 13 root of
    /// `cargo xtask puppet8-root` (`$PVERIFY_PUPPET8_ROOT`).
    Puppet,
}

pub fn run(args: RunArgs) -> ExitCode {
    let mut cases = match harness::load_suite(&args.suite) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("pverify run: {e}");
            return ExitCode::from(EXIT_SETUP);
        }
    };
    if let Some(f) = &args.filter {
        let before = cases.len();
        cases.retain(|c| c.name().contains(f.as_str()));
        // Nothing run is no evidence of a pass.
        if cases.is_empty() {
            eprintln!(
                "pverify run: the filter '{f}' matches no case (of {before} in {}; a case is `topic/name`)",
                args.suite.display()
            );
            return ExitCode::from(EXIT_SETUP);
        }
    }
    let budget = args.budgets.limits(None, None);
    for c in &mut cases {
        c.budget = budget;
        if let Err(e) = harness::overlay_settings(&mut c.settings, &args.settings) {
            eprintln!("pverify run: {}: {e}", c.path.display());
            return ExitCode::from(EXIT_SETUP);
        }
    }
    // Created exclusively (not a predictable `/tmp` name another user could
    // have planted) and removed when dropped.
    let work = match tempfile::Builder::new().prefix("pverify-run-").tempdir() {
        Ok(w) => w,
        Err(e) => {
            eprintln!("pverify run: cannot make a temporary directory: {e}");
            return ExitCode::from(EXIT_SETUP);
        }
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(crate::cli_opts_budgets::threads(
            "run",
            args.jobs,
            cases.len(),
        ))
        .stack_size(64 << 20)
        .build();
    let Ok(pool) = pool else {
        eprintln!("pverify run: cannot start threads");
        return ExitCode::from(EXIT_SETUP);
    };
    let bar = progress_bar(cases.len() as u64, "pverify");
    let mut items = pool.install(|| {
        suite::run_pverify(
            &cases,
            args.puppet,
            work.path(),
            &args.reads.grants,
            &|| bar.inc(1),
        )
    });
    bar.finish_and_clear();
    drop(work);
    if args.oracle == Some(Oracle::Puppet) {
        let reference = match Reference::locate(args.puppet) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("pverify run --oracle puppet: {e}");
                return ExitCode::from(EXIT_SETUP);
            }
        };
        let spinner = progress_bar(0, "puppet");
        let verdicts = suite::run_puppet(&cases, &reference, args.jobs.unwrap_or(0));
        spinner.finish_and_clear();
        match verdicts {
            Ok(v) => suite::merge_oracle(&mut items, v),
            Err(e) => {
                eprintln!("pverify run --oracle puppet: {e}");
                return ExitCode::from(EXIT_SETUP);
            }
        }
    }
    let report = Report::new("run", &args.suite.display().to_string(), items);
    emit(&report, args.format)
}
