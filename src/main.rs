//! The `pverify` command line: parses arguments, calls the library, sets exit codes.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cli_compile;
mod cli_parse;
mod cli_run;

#[derive(Parser)]
#[command(
    name = "pverify",
    version,
    about = "Native Puppet 7 catalog compiler and verification harness"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Parse and validate manifests (files, or directories searched for *.pp).
    Parse(cli_parse::ParseArgs),
    /// Compile catalogs for node files against an environment.
    Compile(cli_compile::CompileArgs),
    /// Run spec-suite cases and compare with Puppet's recorded results.
    Run(cli_run::RunArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Parse(args) => cli_parse::run(args),
        Command::Compile(args) => cli_compile::run(args),
        Command::Run(args) => cli_run::run(args),
    }
}
