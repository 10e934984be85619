//! Developer tasks: `cargo xtask <task>`. Each task lives in its own module.

mod bench;
mod corpus;
mod oracle;
mod oracle_ast;
mod oracle_compile;

use std::process::ExitCode;

const USAGE: &str = "usage: cargo xtask <task>

tasks:
  corpus [--no-install|--install-only] [DIR]
                           install Debian's puppet-module-* packages and parse every *.pp
  bench-parse [DIR]        parse benchmark over the Debian module corpus (MB/s, one core)
  oracle-syntax [--write]  check tests/fixtures/syntax-* against `puppet parser validate`
  oracle-ast [PATH...]     compare pverify's AST with `puppet parser dump` for every *.pp
  oracle-validate [PATH...] compare first errors with `puppet parser validate` (its modulepath)
  oracle-compile [--write] [CASE_OR_DIR...]
                           compile spec-suite cases (default spec-suite/) with Puppet and
                           check (or --write) their expected catalogs, errors and warnings
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (task, rest) = match args.split_first() {
        Some((t, r)) => (t.as_str(), r),
        None => {
            eprint!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let result = match task {
        "corpus" => corpus::run(rest),
        "bench-parse" => bench::run(rest),
        "oracle-syntax" => oracle::run(rest),
        "oracle-ast" => oracle_ast::run(rest),
        "oracle-validate" => oracle_ast::run_validate(rest),
        "oracle-compile" => oracle_compile::run(rest),
        _ => {
            eprint!("unknown task '{task}'\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask {task}: {e}");
            ExitCode::FAILURE
        }
    }
}
