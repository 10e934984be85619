//! Running a spec-suite: every case through pverify (in parallel) as one
//! Puppet version and, with the Puppet oracle, through that version's
//! reference as well, as report
//! items with per-resource and per-parameter differences.

use std::path::Path;
use std::time::Instant;

use rayon::prelude::*;
use serde_json::Value;

use super::{
    oracle, outcome, run_case_granted, Case, Expect, Outcome, PuppetVersion, FACTSETS_DIR,
};
use crate::catalog_diff::catalog_diff;
use crate::reference::Reference;
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
pub fn run_pverify(
    cases: &[Case],
    puppet: PuppetVersion,
    work: &Path,
    grants: &[std::path::PathBuf],
    tick: &(dyn Fn() + Sync),
) -> Vec<Item> {
    let mocks = puppet_compiler::eval::FunctionMocks::default();
    cases
        .par_iter()
        .map(|case| {
            let start = Instant::now();
            let got = run_case_granted(case, work, &mocks, puppet, grants);
            let millis = start.elapsed().as_millis() as u64;
            tick();
            let (status, reason, failures) = match outcome(case, puppet, &got) {
                Outcome::Passed => (Status::Passed, None, vec![]),
                Outcome::Pending(why) => (Status::Skipped, Some(why), vec![]),
                Outcome::Failed(why) => {
                    let f = match (case.expect.get(puppet), case.pending.get(puppet)) {
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
                            &format!(
                                "pverify's result differs from the expectation (Puppet {}'s)",
                                puppet.release()
                            ),
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
pub fn run_puppet(
    cases: &[Case],
    puppet: &Reference,
    workers: usize,
) -> Result<Vec<Vec<Failure>>, String> {
    let root = tempfile::Builder::new()
        .prefix("pverify-oracle-")
        .tempdir()
        .map_err(|e| format!("cannot make a temporary directory: {e}"))?;
    let mut nodes = Vec::new();
    for c in cases {
        let envpath = root.path().join(c.name());
        nodes.push(oracle::case_request(
            c,
            &envpath,
            Path::new(FACTSETS_DIR),
            puppet.version,
        )?);
    }
    let replies = oracle::compile_with_puppet(puppet, &nodes, workers)?;
    let mut out = Vec::new();
    for (c, reply) in cases.iter().zip(&replies) {
        let env_dir = root.path().join(c.name()).join(&c.environment);
        let (got, warnings) = oracle::observed(reply, &env_dir.to_string_lossy())
            .map_err(|e| format!("{}: bad reply from compile.rb: {e}", c.path.display()))?;
        let mut fails = Vec::new();
        let want = c.expect.get(puppet.version);
        let want_warnings = c.expect_warnings.get(puppet.version);
        if got != *want {
            fails.push(mismatch(
                "puppet",
                &format!(
                    "{}'s result differs from the case's expectation",
                    puppet.describe()
                ),
                want,
                &got,
            ));
        }
        if warnings != *want_warnings {
            fails.push(Failure {
                against: "puppet".into(),
                message: format!(
                    "{}'s warnings differ from the case's expected warnings",
                    puppet.describe()
                ),
                changes: vec![],
                expected: Some(want_warnings.join("\n")),
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
