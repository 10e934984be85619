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

/// How often a `puppet-varies` case is compiled before Puppet's
/// disagreement is taken as real. The one such case today fails Puppet's
/// usual way about 255 times in 256, so three tries all going the other way
/// is a one-in-16-million event.
pub const PUPPET_VARIES_TRIES: usize = 3;

/// What Puppet made of one case.
#[derive(Debug, Clone, PartialEq)]
pub struct PuppetResult {
    /// The catalog or error, paths relative to the environment directory.
    pub expect: Expect,
    /// The warnings it logged, paths relative likewise.
    pub warnings: Vec<String>,
    /// The compile's time as the driver measured it.
    pub millis: u64,
}

impl PuppetResult {
    /// Whether this is the case's expectation for `version`.
    pub fn agrees(&self, c: &Case, version: PuppetVersion) -> bool {
        self.expect == *c.expect.get(version) && self.warnings == *c.expect_warnings.get(version)
    }
}

/// Compiles every case with Puppet, each case's environment written under
/// `root/<topic>/<name>/` (which must not hold one yet), fact sets read
/// from `factsets`. A case marked `puppet-varies` whose result is not its
/// expectation is compiled again, up to [`PUPPET_VARIES_TRIES`] times in
/// all; no other case is.
pub fn compile_cases_with_puppet(
    cases: &[Case],
    root: &Path,
    factsets: &Path,
    puppet: &Reference,
    workers: usize,
) -> Result<Vec<PuppetResult>, String> {
    let mut nodes = Vec::new();
    for c in cases {
        let envpath = root.join(c.name());
        nodes.push(oracle::case_request(c, &envpath, factsets, puppet.version)?);
    }
    let read = |c: &Case, reply: &Value| -> Result<PuppetResult, String> {
        let env_dir = root.join(c.name()).join(&c.environment);
        let (expect, warnings) = oracle::observed(reply, &env_dir.to_string_lossy())
            .map_err(|e| format!("{}: bad reply from compile.rb: {e}", c.path.display()))?;
        let millis = reply["millis"].as_u64().unwrap_or(0);
        Ok(PuppetResult {
            expect,
            warnings,
            millis,
        })
    };
    let replies = oracle::compile_with_puppet(puppet, &nodes, workers)?;
    let mut out = cases
        .iter()
        .zip(&replies)
        .map(|(c, reply)| read(c, reply))
        .collect::<Result<Vec<_>, _>>()?;
    for _ in 1..PUPPET_VARIES_TRIES {
        let again: Vec<usize> = (0..cases.len())
            .filter(|&i| {
                cases[i].puppet_varies.is_some() && !out[i].agrees(&cases[i], puppet.version)
            })
            .collect();
        if again.is_empty() {
            break;
        }
        let requests: Vec<Value> = again.iter().map(|&i| nodes[i].clone()).collect();
        let replies = oracle::compile_with_puppet(puppet, &requests, workers)?;
        for (&i, reply) in again.iter().zip(&replies) {
            out[i] = read(&cases[i], reply)?;
        }
    }
    Ok(out)
}

/// Compiles every case with Puppet (environments under a temporary
/// directory) and returns, per case, the failures of the expectation
/// against Puppet's result (empty: Puppet agrees).
pub fn run_puppet(
    cases: &[Case],
    puppet: &Reference,
    workers: usize,
) -> Result<Vec<Vec<Failure>>, String> {
    let root = tempfile::Builder::new()
        .prefix("pverify-oracle-")
        .tempdir()
        .map_err(|e| format!("cannot make a temporary directory: {e}"))?;
    let results =
        compile_cases_with_puppet(cases, root.path(), Path::new(FACTSETS_DIR), puppet, workers)?;
    Ok(cases
        .iter()
        .zip(&results)
        .map(|(c, got)| puppet_verdict(c, got, puppet))
        .collect())
}

/// The failures of a case's expectation against Puppet's result for it:
/// empty exactly when [`PuppetResult::agrees`].
fn puppet_verdict(c: &Case, got: &PuppetResult, puppet: &Reference) -> Vec<Failure> {
    let mut fails = Vec::new();
    let want = c.expect.get(puppet.version);
    let want_warnings = c.expect_warnings.get(puppet.version);
    if got.expect != *want {
        fails.push(mismatch(
            "puppet",
            &format!(
                "{}'s result differs from the case's expectation",
                puppet.describe()
            ),
            want,
            &got.expect,
        ));
    }
    if got.warnings != *want_warnings {
        fails.push(Failure {
            against: "puppet".into(),
            message: format!(
                "{}'s warnings differ from the case's expected warnings",
                puppet.describe()
            ),
            changes: vec![],
            expected: Some(want_warnings.join("\n")),
            actual: Some(got.warnings.join("\n")),
        });
    }
    fails
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
