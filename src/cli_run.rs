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
    let results: Vec<(String, harness::Outcome)> = pool.install(|| {
        cases
            .par_iter()
            .map(|case| {
                let got = harness::run_case(case, &work);
                (case.name(), harness::outcome(case, &got))
            })
            .collect()
    });
    let _ = std::fs::remove_dir_all(&work);
    let (mut passed, mut failed, mut pending) = (0, 0, 0);
    for (name, v) in &results {
        match v {
            harness::Outcome::Passed => {
                passed += 1;
                println!("ok      {name}");
            }
            harness::Outcome::Pending(why) => {
                pending += 1;
                println!("pending {name} ({why})");
            }
            harness::Outcome::Failed(why) => {
                failed += 1;
                println!("FAILED  {name}\n{why}");
            }
        }
    }
    println!("{passed} passed, {failed} failed, {pending} skipped");
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
