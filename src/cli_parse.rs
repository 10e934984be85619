//! `pverify parse PATH...`: one line per failure, then `parsed N files, F failed`.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use rayon::prelude::*;

use puppet_compiler::files::{find_manifests, OsFiles};
use puppet_syntax as syntax;

#[derive(Args)]
pub struct ParseArgs {
    /// Files or directories (searched recursively for *.pp, following
    /// symlinks); a file named `*.epp` is parsed as an EPP template.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Print each file's syntax tree in Puppet's PN notation
    /// (as `puppet parser dump --format pn` prints it).
    #[arg(long)]
    dump: bool,
    /// Directories of modules (separated by ':'); files inside them also get
    /// Puppet's module-location checks, as `puppet parser validate` applies them
    /// to files on its modulepath.
    #[arg(long, value_delimiter = ':')]
    modulepath: Vec<PathBuf>,
    /// The Puppet version to compile as: 7 (7.23) or 8 (8.10).
    #[arg(long, value_parser = crate::cli_report::parse_puppet, default_value = "8")]
    puppet: pverify_harness::reference::PuppetVersion,
    /// A Puppet setting, `NAME=VALUE` (repeatable): `strict`, `max_errors`
    /// and `max_warnings` change validation.
    #[arg(long = "setting", value_name = "NAME=VALUE", value_parser = crate::cli_report::parse_setting)]
    settings: Vec<String>,
}

pub fn run(args: ParseArgs) -> ExitCode {
    let mut files = Vec::new();
    for p in &args.paths {
        match find_manifests(&OsFiles, p) {
            Ok(found) => files.extend(found),
            Err(e) => {
                eprintln!("{}: {e}", p.display());
                return ExitCode::from(crate::cli_report::EXIT_SETUP);
            }
        }
    }
    // Validation as a compile of this version with these settings reports.
    let mut node = puppet_compiler::eval::NodeInfo {
        puppet: args.puppet,
        ..Default::default()
    };
    for s in &args.settings {
        if let Err(e) = node.settings.set_assignment(s) {
            eprintln!("pverify parse: {e}");
            return ExitCode::from(crate::cli_report::EXIT_SETUP);
        }
    }
    let validation = node.validation();
    let results: Vec<Result<String, String>> = files
        .par_iter()
        .map(|f| {
            let name = f.display().to_string();
            let bytes = std::fs::read(f).map_err(|e| format!("{name}: {e}"))?;
            let namespace = syntax::namespace_for_file(f, &args.modulepath);
            // A template named on the command line parses as EPP.
            let program = if name.ends_with(".epp") {
                syntax::parse_epp(&name, &bytes)
            } else {
                syntax::parse_in(&name, &bytes, &namespace)
            }
            .and_then(|p| {
                let warnings = validation.report(&p)?;
                Ok((p, warnings))
            })
            .map_err(|e| {
                let e = validation.limit_errors(e);
                // Each logged validation error on its own line, then the count.
                let mut lines: Vec<String> = e.logged.iter().map(ToString::to_string).collect();
                lines.push(e.to_string());
                lines.join(
                    "
",
                )
            })?;
            let (program, warnings) = program;
            let mut text: Vec<String> = warnings.iter().map(|w| format!("Warning: {w}")).collect();
            if args.dump {
                text.push(format!(
                    "--- {name}\n{}",
                    syntax::pn::program_to_pn(&program.body)
                ));
            }
            Ok(text.join("\n"))
        })
        .collect();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut failed = 0;
    for r in &results {
        match r {
            Ok(dump) if !dump.is_empty() => {
                let _ = writeln!(out, "{dump}");
            }
            Ok(_) => {}
            Err(e) => {
                failed += 1;
                let _ = writeln!(out, "{e}");
            }
        }
    }
    let _ = writeln!(out, "parsed {} files, {failed} failed", results.len());
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
