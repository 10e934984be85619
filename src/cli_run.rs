//! `pverify run [SUITE_DIR] [FILTER]`: runs spec-suite cases in parallel and
//! compares each with the expectation Puppet 7.23 recorded for it.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use rayon::prelude::*;

use pverify::harness;

#[derive(Args)]
pub struct RunArgs {
    /// The suite directory.
    #[arg(default_value = "spec-suite")]
    suite: PathBuf,
    /// Only cases whose name (`topic/name`) contains this.
    filter: Option<String>,
    /// Threads (default: all cores).
    #[arg(long)]
    jobs: Option<usize>,
}

pub fn run(args: RunArgs) -> ExitCode {
    let mut cases = match harness::load_suite(&args.suite) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("pverify run: {e}");
            return ExitCode::from(2);
        }
    };
    if let Some(f) = &args.filter {
        cases.retain(|c| c.name().contains(f.as_str()));
    }
    let work = std::env::temp_dir().join(format!("pverify-run-{}", std::process::id()));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.jobs.unwrap_or(0))
        .stack_size(64 << 20)
        .build();
    let Ok(pool) = pool else {
        eprintln!("pverify run: cannot start threads");
        return ExitCode::from(2);
    };
    let results: Vec<(String, Result<(), String>)> = pool.install(|| {
        cases
            .par_iter()
            .map(|case| {
                let got = harness::run_case(case, &work);
                (case.name(), harness::verdict(case, &got))
            })
            .collect()
    });
    let _ = std::fs::remove_dir_all(&work);
    let mut failed = 0;
    for (name, v) in &results {
        match v {
            Ok(()) => println!("ok     {name}"),
            Err(why) => {
                failed += 1;
                println!("FAILED {name}\n{why}");
            }
        }
    }
    println!("{} passed, {failed} failed", results.len() - failed);
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
