//! `cargo xtask bench --baseline OLD [--rounds R] [--nodes N] [--jobs J]`:
//! this tree's `pverify` against another build of it, in the same run.
//!
//! Why: a change's cost on good input (issue 27: "the budgets and
//! confinement cost nothing") is a few per cent, and this shared machine's
//! speed moves by more than that between two runs of the benchmark. Timed
//! in turns, both binaries see the same stretch of the machine.
//!
//! How: each scenario is a `pverify` process (the real tool, start to
//! exit). Each round runs every scenario once with each binary, the old one
//! first in odd rounds and the new one first in even ones, so neither side
//! always gets the warmer cache or the later, busier moment. One untimed
//! round first warms the OS's file cache. Per scenario it prints both
//! medians, their ratio (new / old) and the median of the rounds' own
//! ratios (each pairs two runs taken back to back).
//!
//! The scenarios: `check REPO --jobs 1` on each bundled repo (the whole
//! command, goldens compared; both binaries must agree on its exit status),
//! `compile` of one node (start-up, environment boot and one catalog), and
//! `compile --out-dir --jobs J` over the repo's matrix replicated to N nodes.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use pverify_harness::control::{NodeSpec, Repo};

use crate::bench_compile::{compile_command, median_p95, ms, write_node_files};

/// The bundled repos whose `check` is timed (relative to the workspace).
const CHECK_REPOS: &[&str] = &[
    "tests/fixtures/control-repo",
    "tests/fixtures/example-repo",
    "tests/fixtures/control-repo-8",
];

/// A scenario's command for a binary and its side ("new" or "old").
type CommandFor<'a> = Box<dyn Fn(&Path, &str) -> Command + 'a>;

/// One timed command, run by both binaries.
struct Scenario<'a> {
    name: String,
    /// The command for a binary; the second argument ("new" or "old")
    /// keeps the two binaries' outputs apart.
    args: CommandFor<'a>,
}

/// Times the scenarios with the `(new, old)` binaries in turns over
/// `rounds` rounds.
pub(crate) fn run(
    workspace: &Path,
    (new, old): (&Path, &Path),
    repo: &Repo,
    nodes: &[NodeSpec],
    jobs: usize,
    rounds: usize,
    tmp: &Path,
) -> Result<(), String> {
    let old = std::fs::canonicalize(old).map_err(|e| format!("{}: {e}", old.display()))?;
    let mut scenarios = Vec::new();
    for r in CHECK_REPOS {
        let dir = workspace.join(r);
        if dir.join("pverify.yaml").is_file() {
            scenarios.push(Scenario {
                name: format!("check {r} --jobs 1"),
                args: Box::new(move |bin, _| {
                    let mut cmd = Command::new(bin);
                    cmd.arg("check").arg(&dir).args(["--jobs", "1"]);
                    cmd
                }),
            });
        }
    }
    let files = write_node_files(repo, nodes, &tmp.join("nodes"))?;
    let one = files[..1].to_vec();
    scenarios.push(Scenario {
        name: "compile, one node".into(),
        args: Box::new(move |bin, _| compile_command(bin, repo, &one)),
    });
    let out = tmp.join("out");
    scenarios.push(Scenario {
        name: format!("compile --out-dir --jobs {jobs}, {} nodes", files.len()),
        args: Box::new(move |bin, side| {
            let mut cmd = compile_command(bin, repo, &files);
            cmd.arg("--out-dir")
                .arg(out.join(side))
                .args(["--jobs", &jobs.to_string()]);
            cmd
        }),
    });

    println!(
        "baseline: {} (new) against {} (old), {rounds} rounds in turns after one untimed",
        new.display(),
        old.display()
    );
    // times[scenario] = (new, old) per round.
    let mut times: Vec<(Vec<Duration>, Vec<Duration>)> = vec![Default::default(); scenarios.len()];
    for round in 0..=rounds {
        for (s, t) in scenarios.iter().zip(&mut times) {
            let new_first = round % 2 == 0;
            let order = if new_first {
                [(new, "new"), (&*old, "old")]
            } else {
                [(&*old, "old"), (new, "new")]
            };
            let mut took = [Duration::ZERO; 2];
            let mut ok = [false; 2];
            for (i, (bin, side)) in order.iter().enumerate() {
                (took[i], ok[i]) = time_one(&mut (s.args)(bin, side))?;
            }
            if ok[0] != ok[1] {
                return Err(format!(
                    "{}: the two binaries disagree on success ({} {}, {} {})",
                    s.name, order[0].1, ok[0], order[1].1, ok[1]
                ));
            }
            if round == 0 {
                continue; // The untimed round: the file cache warms.
            }
            let (n, o) = if new_first {
                (took[0], took[1])
            } else {
                (took[1], took[0])
            };
            t.0.push(n);
            t.1.push(o);
        }
    }
    println!("  scenario: new median, old median, new/old (medians), new/old (median of rounds)");
    for (s, (n, o)) in scenarios.iter().zip(&times) {
        let (nm, _) = median_p95(n);
        let (om, _) = median_p95(o);
        let mut paired: Vec<f64> = n
            .iter()
            .zip(o)
            .map(|(n, o)| n.as_secs_f64() / o.as_secs_f64().max(1e-9))
            .collect();
        paired.sort_by(f64::total_cmp);
        println!(
            "  {}: {}, {}, {:.3}, {:.3}",
            s.name,
            ms(nm),
            ms(om),
            nm.as_secs_f64() / om.as_secs_f64().max(1e-9),
            paired[paired.len() / 2]
        );
    }
    Ok(())
}

/// Wall time and success of one process, its output discarded.
fn time_one(cmd: &mut Command) -> Result<(Duration, bool), String> {
    let start = Instant::now();
    let status = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map_err(|e| format!("cannot run {cmd:?}: {e}"))?;
    Ok((start.elapsed(), status.success()))
}

/// The path given to `--baseline`, checked to be a file.
pub(crate) fn baseline_binary(path: &Path) -> Result<PathBuf, String> {
    if path.is_file() {
        Ok(path.to_path_buf())
    } else {
        Err(format!("--baseline {}: no such binary", path.display()))
    }
}
