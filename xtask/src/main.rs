//! Developer tasks: `cargo xtask <task>`. Each task lives in its own module.

mod bench;
mod bench_baseline;
mod bench_compile;
mod bench_diff;
mod bench_fleet;
mod bench_module_fleet;
mod bench_modules;
mod bench_paired;
mod bless;
mod corpus;
mod coverage;
mod difffuzz;
mod fuzz;
mod git;
mod oracle;
mod oracle_ast;
mod oracle_compile;
mod oracle_modules;
mod oracle_types;
mod puppet8_root;
mod puppets;
mod r10k_root;
mod same_catalogs;

use std::process::ExitCode;

/// The allocator of the `pverify` binary, so that in-process benchmarks
/// measure what the tool does.
#[global_allocator]
static ALLOCATOR: pverify_alloc::Allocator = pverify_alloc::Allocator;

const USAGE: &str = "usage: cargo xtask <task>

tasks:
  corpus [--no-install|--install-only] [DIR]
                           install Debian's puppet-module-* packages and parse every *.pp
                           (default: Debian 12's modules and, when the Puppet 8 root exists,
                           Debian 13's; under CI=true a missing root is an error)
  bench [REPO] [--nodes N] [--jobs J] [--sample S] [--cold-runs K] [--no-puppet] [--baseline OLD [--rounds R]]
        [--warm [--runs R]] [--fleet] [--fleet-nodes N]
                           compile benchmark: a control repo's matrix replicated to N nodes
                           (default 1000), warm and cold ratios to Puppet (fresh and cached
                           environment), linearity, the 10,000-node fleet's compile and diffs
  bench-parse [DIR]        parse benchmark over the Debian module corpus (MB/s, one core)
  bench-diff [--nodes N] [--resources N] [--jobs N]
                           compile both sides of an N-node matrix (default 1000) and diff
                           them: wall time and peak RSS
  oracle-syntax [--puppet 7|8]... [--write]
                           check tests/fixtures/syntax-* against `puppet parser validate`
                           (expected.tsv where 7.23 and 8.10 agree, expected@7|8.tsv where not)
  oracle-ast [--puppet 7|8]... [PATH...]
                           compare pverify's AST with `puppet parser dump` / `puppet epp dump`
                           for every *.pp and *.epp under PATH, or else each version's own
                           corpus: Puppet 7.23 Debian 12's modules, Puppet 8.10 Debian 13's
  oracle-validate [--puppet 7|8]... [PATH...]
                           compare first errors with `puppet parser validate` (its modulepath),
                           same PATH defaults
                           (--puppet: the references to run, both by default)
  bless                    rewrite the goldens of the bundled control repos (pverify bless; --oracle puppet: Puppet's catalogs)
  coverage [--check]       write spec-suite/COVERAGE.md (seed rules and the cases that check them)
  oracle-compile [--write] [CASE_OR_DIR...]
                           compile spec-suite cases (default spec-suite/) with Puppet and
                           check (or --write) their expected catalogs, errors and warnings
  oracle-modules [--factset NAME] [--verbose] [MODULE...]
                           compile every public class of Debian's module packages alone with
                           Puppet and pverify (debian-12, redhat-9); per-module agreement,
                           checked against xtask/data/known-module-diffs.txt
  fuzz TARGET [--seconds N] [--seed N] [--corpus DIR]
                           stable-Rust fuzzing of a puppet_compiler::fuzzing target (fuzz/README.md)
  difffuzz [--seed S] [--count N] [--no-reduce] [--out DIR] [--allow-disagreements]
                           differential fuzzing: random environments compiled by Puppet and
                           pverify; disagreements reduced and written as spec-suite candidates
  oracle-types [MODULES_DIR...]
                           compare the resource types pverify reads (Puppet's own and the
                           modules' lib/puppet/type/*.rb) with what Puppet 7.23 loads
  same-catalogs [--base REV] [--pverify-new PATH] [--pverify-base PATH] [--jobs N]
                           byte-compare two pverify binaries' catalogs and errors over the
                           bundled control repos and the spec-suite (base: built from REV)
  puppet8-root [--dir DIR] [--rebuild]
                           build (once) and check the second reference: a Debian 13 root with
                           Puppet 8.10, hiera-eyaml, r10k and every puppet-module-* package
  r10k-root [--dir DIR]
                           build (once) Debian 12's r10k in a root of its own, for
                           tests/puppetfile.rs (never on the host: it changes Puppet's JSON)
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
        "bench" => bench_compile::run(rest),
        "bench-parse" => bench::run(rest),
        "bench-diff" => bench_diff::run(rest),
        "oracle-syntax" => oracle::run(rest),
        "oracle-ast" => oracle_ast::run(rest),
        "oracle-validate" => oracle_ast::run_validate(rest),
        "oracle-compile" => oracle_compile::run(rest),
        "bless" => bless::run(rest),
        "coverage" => coverage::run(rest),
        "oracle-types" => oracle_types::run(rest),
        "oracle-modules" => oracle_modules::run(rest),
        "fuzz" => fuzz::run(rest),
        "difffuzz" => difffuzz::run(rest),
        "same-catalogs" => same_catalogs::run(rest),
        "puppet8-root" => puppet8_root::run(rest),
        "r10k-root" => r10k_root::run(rest),
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
