//! The `pverify` command line: parses arguments, calls the library, sets exit codes.

#![forbid(unsafe_code)]

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cli_check;
mod cli_compile;
mod cli_diff;
mod cli_init;
mod cli_merge;
mod cli_opts_budgets;
mod cli_opts_compile;
mod cli_opts_exports;
mod cli_opts_eyaml;
mod cli_opts_fleet;
mod cli_opts_impact;
mod cli_opts_puppetfile;
mod cli_opts_reads;
mod cli_opts_review;
mod cli_opts_shards;
mod cli_parse;
mod cli_report;
mod cli_run;
mod cli_writes;

/// Compiling is allocation-heavy (half of a compile's instructions were in
/// glibc's malloc and free); mimalloc is markedly faster at it
/// (`pverify_alloc`).
#[global_allocator]
static ALLOCATOR: pverify_alloc::Allocator = pverify_alloc::Allocator;

#[derive(Parser)]
#[command(
    name = "pverify",
    version,
    about = "Native Puppet catalog compiler (as Puppet 8.10 or 7.23) and verification harness",
    after_help = cli_report::EXIT_CODES_HELP
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Parsed once per run: the size of its largest variant does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand)]
enum Command {
    /// Parse and validate manifests (files, or directories searched for *.pp).
    #[command(after_help = cli_report::EXIT_CODES_HELP)]
    Parse(cli_parse::ParseArgs),
    /// Compile catalogs for node files against an environment.
    #[command(after_help = cli_report::EXIT_CODES_HELP)]
    Compile(cli_compile::CompileArgs),
    /// Run spec-suite cases and compare with Puppet's recorded results.
    #[command(after_help = cli_report::EXIT_CODES_HELP)]
    Run(cli_run::RunArgs),
    /// Compile the node matrix of a control repo (pverify.yaml) and compare
    /// each catalog with its golden snapshot.
    #[command(after_help = cli_report::EXIT_CODES_HELP)]
    Check(cli_check::CheckArgs),
    /// Rewrite the golden snapshots of a control repo from fresh catalogs.
    #[command(after_help = cli_report::EXIT_CODES_HELP)]
    Bless(cli_check::BlessArgs),
    /// Compare every node's catalog between two environments, git revisions
    /// or catalog sets (exit 0 no change, 2 changes, 1 a node failed).
    #[command(after_help = cli_report::EXIT_CODES_HELP)]
    Diff(Box<cli_diff::DiffArgs>),
    /// Write a first pverify.yaml for a control repo: its roles and node
    /// definitions on a few fact sets (or onceover's spec tests).
    #[command(after_help = cli_report::EXIT_CODES_HELP)]
    Init(cli_init::InitArgs),
    /// Reports: `report merge` puts the JSON reports of a sharded check or
    /// diff together into one run's report, in any format.
    #[command(after_help = cli_report::EXIT_CODES_HELP)]
    Report(cli_merge::ReportArgs),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            // `--help` and `--version` are successes; every other error of
            // the command line is a usage error, never a result's code.
            return ExitCode::from(match e.exit_code() {
                0 => 0,
                _ => cli_report::EXIT_SETUP,
            });
        }
    };
    match cli.command {
        Command::Parse(args) => cli_parse::run(args),
        Command::Compile(args) => cli_compile::run(args),
        Command::Run(args) => cli_run::run(args),
        Command::Check(args) => cli_check::check(args),
        Command::Bless(args) => cli_check::bless(args),
        Command::Diff(args) => cli_diff::run(*args),
        Command::Init(args) => cli_init::run(args),
        Command::Report(args) => cli_merge::run(args),
    }
}
