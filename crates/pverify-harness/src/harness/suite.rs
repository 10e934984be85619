//! Running a spec-suite: every case through pverify (in parallel) and, with
//! the Puppet oracle, through the installed Puppet 7 as well, as report
//! items with per-resource and per-parameter differences.

use std::path::Path;
use std::time::Instant;

use rayon::prelude::*;
use serde_json::Value;

use super::{oracle, outcome, run_case, Case, Expect, Outcome, FACTSETS_DIR};
use crate::catalog_diff::catalog_diff;
use crate::report::{Failure, Item, Status};

/// The failure describing a mismatch between two results.
pub fn mismatch(against: &str, message: &str, want: &Expect, got: &Expect) -> Failure {
    let mut f = Failure {
        against: against.to_string(),
        message: message.to_string(),
        changes: Vec::new(),
        expected: None,
        actual: None,
    };
    match (want, got) {
        (Expect::Catalog(a), Expect::Catalog(b)) => {
            let parse = |s: &str| serde_json::from_str::<Value>(s).unwrap_or(Value::Null);
            f.changes = catalog_diff(&parse(a), &parse(b), &[]);
            if f.changes.is_empty() {
                // Same content, different text (order): show the text.
                f.expected = Some(a.clone());
                f.actual = Some(b.clone());
            }
        }
        (want, got) => {
            let text = |e: &Expect| match e {
                Expect::Catalog(_) => "(a catalog)".to_string(),
                Expect::Error(e) => format!("error: {e}"),
                Expect::None => "(nothing)".to_string(),
            };
            f.expected = Some(text(want));
            f.actual = Some(text(got));
        }
    }
    f
}

/// Runs the cases through pverify on the current rayon pool; `tick` is
/// called once per finished case. Items come in the cases' order.
pub fn run_pverify(cases: &[Case], work: &Path, tick: &(dyn Fn() + Sync)) -> Vec<Item> {
    cases
        .par_iter()
        .map(|case| {
            let start = Instant::now();
            let got = run_case(case, work);
            let millis = start.elapsed().as_millis() as u64;
            tick();
            let (status, reason, failures) = match outcome(case, &got) {
                Outcome::Passed => (Status::Passed, None, vec![]),
                Outcome::Pending(why) => (Status::Skipped, Some(why), vec![]),
                Outcome::Failed(why) => {
                    let f = match (&case.expect, &case.pending) {
                        (Expect::None, _) => Failure {
                            against: "pverify".into(),
                            message: "no expectation recorded".into(),
                            changes: vec![],
                            expected: None,
                            actual: None,
                        },
                        (_, Some(_)) => Failure {
                            against: "pverify".into(),
                            message: why.trim().to_string(),
                            changes: vec![],
                            expected: None,
                            actual: None,
                        },
                        (want, None) => mismatch(
                            "pverify",
                            "pverify's result differs from the expectation (Puppet 7.23's)",
                            want,
                            &got,
                        ),
                    };
                    (Status::Failed, None, vec![f])
                }
            };
            Item {
                name: case.name(),
                status,
                reason,
                failures,
                millis,
            }
        })
        .collect()
}

/// Compiles every case with Puppet and returns, per case, the failures of
/// the expectation against Puppet's result (empty: Puppet agrees). The
/// cases' environments are written under a temporary directory.
pub fn run_puppet(cases: &[Case], workers: usize) -> Result<Vec<Vec<Failure>>, String> {
    oracle::check_puppet()?;
    let root = tempfile::Builder::new()
        .prefix("pverify-oracle-")
        .tempdir()
        .map_err(|e| format!("cannot make a temporary directory: {e}"))?;
    let mut nodes = Vec::new();
    for c in cases {
        let envpath = root.path().join(c.name());
        nodes.push(oracle::case_request(c, &envpath, Path::new(FACTSETS_DIR))?);
    }
    let replies = oracle::compile_with_puppet(&nodes, workers)?;
    let mut out = Vec::new();
    for (c, reply) in cases.iter().zip(&replies) {
        let env_dir = root.path().join(c.name()).join(&c.environment);
        let (got, warnings) = oracle::observed(reply, &env_dir.to_string_lossy())
            .map_err(|e| format!("{}: bad reply from compile.rb: {e}", c.path.display()))?;
        let mut fails = Vec::new();
        if got != c.expect {
            fails.push(mismatch(
                "puppet",
                "Puppet 7's result differs from the case's expectation",
                &c.expect,
                &got,
            ));
        }
        if warnings != c.expect_warnings {
            fails.push(Failure {
                against: "puppet".into(),
                message: "Puppet 7's warnings differ from the case's expect.warnings".into(),
                changes: vec![],
                expected: Some(c.expect_warnings.join("\n")),
                actual: Some(warnings.join("\n")),
            });
        }
        out.push(fails);
    }
    Ok(out)
}

/// Adds Puppet's verdicts to pverify's items: a case Puppet disagrees with
/// fails, pending or not (the expectation must be Puppet's either way).
pub fn merge_oracle(items: &mut [Item], puppet: Vec<Vec<Failure>>) {
    for (item, fails) in items.iter_mut().zip(puppet) {
        if !fails.is_empty() {
            item.status = Status::Failed;
            item.reason = None;
            item.failures.extend(fails);
        }
    }
}
