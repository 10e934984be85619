//! `cargo xtask bench [REPO] [--nodes N] [--jobs J] [--sample S] [--cold-runs K] [--no-puppet] [--sizes N,...] [--warm [--runs R]] [--fleet] [--fleet-nodes N]`
//!
//! (docs/benchmark.md)
//!
//! The compiler's benchmark, against Puppet 7.23 and 8.10 in the same run
//! (the repo's `puppet:` picks its reference; without REPO, the Puppet 8
//! control repo's warm ratio against 8.10 follows the Puppet 7 repo's
//! against 7.23):
//!
//! 1. **Throughput.** The node × factset matrix of REPO's `pverify.yaml`
//!    (default: the first of [`DEFAULT_REPOS`] that exists) is replicated to N
//!    nodes (default 1,000) under distinct certnames (`web01.example.com`
//!    becomes `web0100042.example.com`: digits appended to the host name, so
//!    node regexes such as `/^web\d+/` still match). Then
//!    - in-process, with the library on J threads (default 2): node object,
//!      `eval::compile`, catalog JSON as `pverify compile` writes it, each node
//!      timed: catalogs/s, per-catalog median and p95;
//!    - the real tool, `pverify compile ENV --facts (N files) --out-dir DIR
//!      --jobs J` (the release binary, built if needed): wall time and peak
//!      RSS (the child's own `VmHWM`, sampled while it runs).
//! 2. **Warm ratio** (with Puppet): S nodes of the same matrix (default 20)
//!    compiled by Puppet (`crates/pverify-harness/puppet/compile.rb`, the oracle driver) and
//!    by pverify on one thread with the environment already warm, timed in
//!    turns (`bench_paired.rs`: four Ruby processes, each compiling its
//!    quarter of the sample twice and timed on the second pass; pverify's
//!    whole sample for a second after each); Puppet median / pverify
//!    median, with and without converting the JSON facts, and how many of
//!    the S catalogs are equal.
//! 3. **Cold ratio** (with Puppet): K runs (default 3) of one `pverify compile`
//!    process for one node vs K runs of one Ruby process compiling that node
//!    (what `puppet catalog find --terminus compiler` does: boot Ruby and
//!    Puppet, compile, print); median / median.
//! 4. **Linearity.** Synthetic catalogs of 2,500 to 20,000 resources (defines,
//!    tags, collectors with overrides and relationships, chained edges), the
//!    median of as many compiles on one thread as fill [`LINEARITY_WINDOW`]
//!    (3 at least): time per resource must stay about constant.
//!
//! 5. **The Debian-module catalogs** of issue 4 (`bench_modules.rs`): every
//!    public class of the 14 module packages on two fact sets, warm, one
//!    thread; with Puppet, the ratio on the S biggest of them.
//! 6. **The fleet** (`bench_fleet.rs`): the matrix replicated to a 10,000-node
//!    control repo in git, a one-line change of a profile used by about 5 %
//!    of the nodes: full compile, full diff and impact-aware diff, each a
//!    `pverify` process (`--fleet` runs only this); with Puppet, a warm
//!    ratio on S nodes spread over the fleet.
//!
//! Every warm ratio is given twice: against Puppet with a fresh environment
//! per node (`environment_timeout = 0`) and with one cached environment
//! (`environment_timeout = unlimited`, as production servers run).
//!
//! `--warm` runs only the warm ratios (2, 5's and 6's), for checking a change
//! quickly; `--runs R` repeats them R times in one process and ends with
//! each ratio's lowest, median and highest value, since one run's ratio
//! moves with the machine's speed while Puppet and pverify take turns.
//!
//! Like bench-parse, a dev build re-runs itself from a release build. The
//! figures are only meaningful on an otherwise idle machine.

use pverify_harness::reference::{PuppetVersion, Reference};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde_json::json;

use puppet_compiler::eval;
use puppet_compiler::loader::{Environment, Overrides};
use pverify_harness::control::{NodeSpec, Repo};
use pverify_harness::harness::{canonicalize_catalog, node_for};

use crate::bench::{fmt_times, reexec_release, REEXEC_ENV};
use crate::bench_diff::peak_rss;

const USAGE: &str = "usage: cargo xtask bench [REPO] [--nodes N] [--jobs J] [--sample S] \
                     [--cold-runs K] [--no-puppet] [--sizes N,N,...] [--warm [--runs R]] \
                     [--fleet] [--fleet-nodes N] [--baseline OLD-PVERIFY [--rounds R]]";

/// Control repos tried in order when none is given (relative to the
/// workspace): the bigger bundled control repo when it is there, else the
/// example repo of the tests.
const DEFAULT_REPOS: &[&str] = &["tests/fixtures/control-repo", "tests/fixtures/example-repo"];

/// The Puppet 8 control repo, whose warm ratio against Puppet 8.10 a run
/// without REPO adds beside the Puppet 7 repo's against 7.23.
const PUPPET8_REPO: &str = "tests/fixtures/control-repo-8";

/// Threads for compiling (the main thread's default stack is too small for
/// deep manifests; `pverify compile` uses the same).
const STACK: usize = 64 << 20;

struct Opts {
    repo: Option<PathBuf>,
    nodes: usize,
    jobs: usize,
    sample: usize,
    cold_runs: usize,
    puppet: bool,
    sizes: Vec<usize>,
    /// Only the warm per-catalog measurements, control repo and Debian
    /// modules (Puppet's side too, unless `--no-puppet`): for checking a
    /// change quickly.
    warm_only: bool,
    /// With `--warm`: how many times to take the warm measurements.
    runs: usize,
    /// `--baseline`: another `pverify` binary to time this tree's against,
    /// in turns (`bench_baseline.rs`), instead of the other measurements.
    baseline: Option<PathBuf>,
    /// With `--baseline`: how many rounds of turns.
    rounds: usize,
    /// `--fleet`: only the fleet scenario (`bench_fleet.rs`).
    fleet_only: bool,
    /// The fleet's size (`--fleet-nodes`, default 10,000).
    fleet_nodes: usize,
}

pub fn run(args: &[String]) -> Result<(), String> {
    let Some(opts) = parse_args(args)? else {
        return Ok(());
    };
    if cfg!(debug_assertions) && std::env::var_os(REEXEC_ENV).is_none() {
        return reexec_release("bench", args);
    }
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .ok_or("xtask has no parent directory")?;
    let repo_dir = match &opts.repo {
        Some(r) => r.clone(),
        None => DEFAULT_REPOS
            .iter()
            .map(|r| workspace.join(r))
            .find(|r| r.join("pverify.yaml").is_file())
            .ok_or("no default control repo found")?,
    };
    let repo = Repo::open(&repo_dir)?;
    let bases = repo.nodes()?;
    if bases.is_empty() {
        return Err(format!("{}: the matrix has no nodes", repo_dir.display()));
    }
    let nodes = replicate(&bases, opts.nodes)?;
    let version = repo.puppet();
    let puppet = opts.puppet && Reference::locate(version).is_ok();
    // Without a REPO, the Puppet 8 control repo's warm ratio against
    // Puppet 8.10 comes beside the Puppet 7 repo's against 7.23.
    let second = match &opts.repo {
        None if opts.puppet => Some(workspace.join(PUPPET8_REPO))
            .filter(|r| r.join("pverify.yaml").is_file() && *r != repo_dir),
        _ => None,
    };
    println!(
        "pverify bench: {} ({} matrix nodes replicated to {}), {} threads, as Puppet {}",
        repo_dir.display(),
        bases.len(),
        nodes.len(),
        opts.jobs,
        version.major()
    );
    println!(
        "  machine: {} cores, load average {} (shared machines give noisy figures)",
        std::thread::available_parallelism().map_or(1, |n| n.get()),
        load_average()
    );

    if let Some(old) = &opts.baseline {
        let old = crate::bench_baseline::baseline_binary(old)?;
        let new = release_binary(workspace)?;
        let tmp = tempfile_dir("pverify-bench")?;
        let binaries = (new.as_path(), old.as_path());
        let result = crate::bench_baseline::run(
            workspace,
            binaries,
            &repo,
            &nodes,
            opts.jobs,
            opts.rounds,
            &tmp,
        );
        let _ = std::fs::remove_dir_all(&tmp);
        return result;
    }
    if opts.fleet_only {
        let binary = release_binary(workspace)?;
        return crate::bench_fleet::run(workspace, &binary, opts.fleet_nodes, opts.jobs);
    }
    let env = repo.boot()?;
    let tmp = tempfile_dir("pverify-bench")?;
    let result = (|| {
        if opts.warm_only {
            // Warm the environment as the throughput run does otherwise.
            compile_timed(&env, &nodes[..opts.sample.min(nodes.len())], 1, version)?;
            let mut ratios = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
            for run in 1..=opts.runs {
                if opts.runs > 1 {
                    println!("run {run} of {}:", opts.runs);
                }
                if puppet {
                    ratios.0.push(warm_ratio(&repo, &env, &nodes, opts.sample)?);
                } else {
                    warm_alone(&env, &nodes, opts.sample, version)?;
                }
                if let Some(dir) = &second {
                    if let Some(r) = other_repo_ratio(dir, opts.sample)? {
                        ratios.2.push(r);
                    }
                }
                if let Some(r) = crate::bench_modules::run(workspace, opts.sample, puppet)? {
                    ratios.1.push(r);
                }
                if puppet {
                    if let Some(r) = crate::bench_fleet::sample_ratio(workspace, opts.sample)? {
                        ratios.3.push(r);
                    }
                }
            }
            if opts.runs > 1 {
                print_spread(
                    &format!("control repo (Puppet {})", version.major()),
                    &ratios.0,
                );
                print_spread("control repo (Puppet 8)", &ratios.2);
                print_spread("debian modules", &ratios.1);
                print_spread("fleet sample", &ratios.3);
            }
            return Ok(());
        }
        throughput_in_process(&env, &nodes, opts.jobs, version)?;
        let binary = release_binary(workspace)?;
        let files = write_node_files(&repo, &nodes, &tmp.join("nodes"))?;
        throughput_tool(&binary, &repo, &files, &tmp.join("out"), opts.jobs)?;
        // The fleet early: its figures do not wait on Puppet's half hour,
        // and a failure there does not end the rest.
        if let Err(e) = crate::bench_fleet::run(workspace, &binary, opts.fleet_nodes, opts.jobs) {
            println!("fleet: failed: {e}");
        }
        if puppet {
            warm_ratio(&repo, &env, &nodes, opts.sample)?;
            if let Some(dir) = &second {
                other_repo_ratio(dir, opts.sample)?;
            }
            crate::bench_fleet::sample_ratio(workspace, opts.sample)?;
            cold_ratio(&binary, &repo, &nodes[0], &files[0], opts.cold_runs)?;
        } else {
            println!(
                "puppet: not run (--no-puppet, or no Puppet {} to run)",
                version.major()
            );
        }
        linearity(&tmp.join("synthetic"), &opts.sizes, &nodes[0])?;
        crate::bench_modules::run(workspace, opts.sample, puppet).map(|_| ())
    })();
    let _ = std::fs::remove_dir_all(&tmp);
    result
}

/// The warm ratio of another control repo against its own reference (the
/// Puppet 8 repo against Puppet 8.10): `None` when that Puppet is missing.
fn other_repo_ratio(dir: &Path, sample: usize) -> Result<Option<Ratios>, String> {
    let repo = Repo::open(dir)?;
    let version = repo.puppet();
    let reference = match Reference::locate(version) {
        Ok(r) => r,
        Err(e) => {
            println!("{}: warm ratio not run: {e}", dir.display());
            return Ok(None);
        }
    };
    let nodes = replicate(&repo.nodes()?, sample.max(2))?;
    let env = repo.boot()?;
    compile_timed(&env, &nodes, 1, version)?;
    println!(
        "{} (compiled as Puppet {}, against {}):",
        dir.display(),
        version.major(),
        reference.describe()
    );
    warm_ratio(&repo, &env, &nodes, sample).map(Some)
}

/// pverify's side of the warm measurement alone (`--warm --no-puppet`).
fn warm_alone(
    env: &Environment,
    nodes: &[NodeSpec],
    sample: usize,
    version: PuppetVersion,
) -> Result<(), String> {
    let sample: Vec<NodeSpec> = nodes.iter().take(sample.max(2)).cloned().collect();
    let warm = pverify_warm(env, &sample, WARM_WINDOW, version)?;
    println!(
        "warm, per catalog ({} nodes, repeated over {}s at least, one pverify thread): median {} \
         (node object + compile + catalog JSON); compile + catalog JSON alone {}; \
         the node object alone {}",
        sample.len(),
        WARM_WINDOW.as_secs(),
        ms(median_p95(&warm.with_node).0),
        ms(median_p95(&warm.compile_only).0),
        ms(warm.node_only_each())
    );
    Ok(())
}

/// One sample's two warm ratios over `--runs`: lowest, median, highest,
/// and each run's in order.
fn print_spread(what: &str, ratios: &[Ratios]) {
    let fresh: Vec<f64> = ratios.iter().map(|r| r.fresh).collect();
    let cached: Vec<f64> = ratios.iter().map(|r| r.cached).collect();
    print_spread_of(&format!("{what}, fresh environment"), &mut fresh.clone());
    print_spread_of(&format!("{what}, cached environment"), &mut cached.clone());
}

fn print_spread_of(what: &str, ratios: &mut [f64]) {
    if ratios.is_empty() {
        return;
    }
    let in_order: Vec<String> = ratios.iter().map(|r| format!("{r:.0}x")).collect();
    ratios.sort_by(f64::total_cmp);
    println!(
        "{what}: warm ratio over {} runs: lowest {:.0}x, median {:.0}x, highest {:.0}x ({})",
        ratios.len(),
        ratios[0],
        ratios[ratios.len() / 2],
        ratios[ratios.len() - 1],
        in_order.join(", ")
    );
}

fn parse_args(args: &[String]) -> Result<Option<Opts>, String> {
    let mut opts = Opts {
        repo: None,
        nodes: 1000,
        jobs: 2,
        sample: 20,
        cold_runs: 5,
        puppet: true,
        sizes: vec![2500, 5000, 10000, 20000],
        warm_only: false,
        runs: 1,
        baseline: None,
        rounds: 10,
        fleet_only: false,
        fleet_nodes: 10_000,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut num = |name: &str| -> Result<usize, String> {
            it.next()
                .and_then(|v| v.parse().ok())
                .filter(|&n| n > 0)
                .ok_or(format!("{name} needs a positive number\n{USAGE}"))
        };
        match a.as_str() {
            "--nodes" => opts.nodes = num("--nodes")?,
            "--jobs" => opts.jobs = num("--jobs")?,
            "--sample" => opts.sample = num("--sample")?,
            "--cold-runs" => opts.cold_runs = num("--cold-runs")?,
            "--no-puppet" => opts.puppet = false,
            "--warm" => opts.warm_only = true,
            "--runs" => opts.runs = num("--runs")?,
            "--rounds" => opts.rounds = num("--rounds")?,
            "--fleet" => opts.fleet_only = true,
            "--fleet-nodes" => opts.fleet_nodes = num("--fleet-nodes")?,
            "--baseline" => {
                let v = it
                    .next()
                    .ok_or(format!("--baseline needs a binary\n{USAGE}"))?;
                opts.baseline = Some(PathBuf::from(v));
            }
            "--sizes" => {
                let v = it.next().ok_or(format!("--sizes needs a list\n{USAGE}"))?;
                opts.sizes = v
                    .split(',')
                    .map(|s| s.trim().parse().ok().filter(|&n: &usize| n > 0))
                    .collect::<Option<_>>()
                    .ok_or(format!("--sizes: expected numbers, got '{v}'"))?;
            }
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(None);
            }
            s if s.starts_with('-') => return Err(format!("unknown option '{s}'\n{USAGE}")),
            s if opts.repo.is_none() => opts.repo = Some(PathBuf::from(s)),
            _ => return Err(format!("too many arguments\n{USAGE}")),
        }
    }
    if opts.runs > 1 && !opts.warm_only {
        return Err(format!("--runs needs --warm\n{USAGE}"));
    }
    if opts.fleet_only && opts.warm_only {
        return Err(format!("--fleet and --warm are two separate runs\n{USAGE}"));
    }
    Ok(Some(opts))
}

/// `n` nodes cycling through the matrix, each under its own certname: the
/// index appended to the host part, zero-padded so names sort in order.
pub(crate) fn replicate(bases: &[NodeSpec], n: usize) -> Result<Vec<NodeSpec>, String> {
    let mut seen = std::collections::HashSet::with_capacity(n);
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let base = &bases[i % bases.len()];
        let mut case = base.case.clone();
        let certname = match case.node.split_once('.') {
            Some((host, domain)) => format!("{host}{i:05}.{domain}"),
            None => format!("{}{i:05}", case.node),
        };
        if !seen.insert(certname.clone()) {
            return Err(format!("replicated certname {certname} is not unique"));
        }
        case.node = certname.clone();
        let id = match base.id.split_once('@') {
            Some((_, fs)) => format!("{certname}@{fs}"),
            None => certname,
        };
        out.push(NodeSpec::new(id, case));
    }
    Ok(out)
}

/// Per-node time of node object + compile + catalog JSON, on `jobs` threads,
/// and how many nodes failed (the caller decides whether that is an error:
/// the Debian-module classes fail where Puppet fails).
pub(crate) fn compile_timed(
    env: &Environment,
    nodes: &[NodeSpec],
    jobs: usize,
    version: PuppetVersion,
) -> Result<(Vec<Duration>, usize, usize), String> {
    let next = AtomicUsize::new(0);
    let times = Mutex::new(vec![Duration::ZERO; nodes.len()]);
    let failed = AtomicUsize::new(0);
    let resources = AtomicUsize::new(0);
    std::thread::scope(|s| -> Result<(), String> {
        let mut handles = Vec::new();
        for t in 0..jobs {
            // One buffer per thread, as `pverify compile --out-dir` keeps.
            let work = || {
                let mut text = Vec::with_capacity(eval::CATALOG_BUFFER);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(n) = nodes.get(i) else { break };
                    let start = Instant::now();
                    let node = node_for(&n.case, &n.case.facts, version);
                    text.clear();
                    match eval::compile_pretty(env, node, &mut text) {
                        Ok(w) => {
                            std::hint::black_box(&text);
                            resources.fetch_add(w.resources, Ordering::Relaxed);
                        }
                        Err(_) => {
                            failed.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                    let took = start.elapsed();
                    if let Ok(mut v) = times.lock() {
                        v[i] = took;
                    }
                }
            };
            handles.push(
                std::thread::Builder::new()
                    .name(format!("bench-{t}"))
                    .stack_size(STACK)
                    .spawn_scoped(s, work)
                    .map_err(|e| format!("cannot spawn a thread: {e}"))?,
            );
        }
        for h in handles {
            h.join().map_err(|_| "a compile thread panicked")?;
        }
        Ok(())
    })?;
    let times = times.into_inner().map_err(|_| "poisoned")?;
    Ok((times, failed.into_inner(), resources.into_inner()))
}

fn throughput_in_process(
    env: &Environment,
    nodes: &[NodeSpec],
    jobs: usize,
    version: PuppetVersion,
) -> Result<(), String> {
    let start = Instant::now();
    let (times, failed, resources) = compile_timed(env, nodes, jobs, version)?;
    let wall = start.elapsed().as_secs_f64();
    let (median, p95) = median_p95(&times);
    println!("in-process (library, {jobs} threads; node object + compile + catalog JSON):");
    println!(
        "  {} catalogs ({} failed), {} resources in all ({:.0} per catalog)",
        nodes.len(),
        failed,
        resources,
        resources as f64 / nodes.len().max(1) as f64
    );
    println!(
        "  wall {wall:.3} s, {:.0} catalogs/s; per catalog median {}, p95 {}",
        nodes.len() as f64 / wall,
        ms(median),
        ms(p95)
    );
    println!("  peak RSS of this process so far (VmHWM): {}", peak_rss());
    if failed > 0 {
        let first = nodes
            .iter()
            .find_map(|n| {
                eval::compile(env, node_for(&n.case, &n.case.facts, version))
                    .err()
                    .map(|e| format!("{}: {e}", n.id))
            })
            .unwrap_or_default();
        return Err(format!(
            "{failed} nodes failed to compile; the first: {first}"
        ));
    }
    Ok(())
}

/// `target/release/pverify`, built first (the xtask's own release build does
/// not build the binary).
pub(crate) fn release_binary(workspace: &Path) -> Result<PathBuf, String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(&cargo)
        .current_dir(workspace)
        .args(["build", "--release", "--quiet", "--bin", "pverify"])
        .status()
        .map_err(|e| format!("cannot run {cargo}: {e}"))?;
    if !status.success() {
        return Err("building the release pverify binary failed".into());
    }
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let bin = exe
        .parent()
        .map(|d| d.join("pverify"))
        .ok_or("xtask binary has no directory")?;
    if !bin.is_file() {
        return Err(format!("{} was not built", bin.display()));
    }
    Ok(bin)
}

/// One `pverify compile` node file per node (`{"name", "values", "trusted",
/// "classes", "parameters", "environment"}`).
pub(crate) fn write_node_files(
    repo: &Repo,
    nodes: &[NodeSpec],
    dir: &Path,
) -> Result<Vec<PathBuf>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut files = Vec::with_capacity(nodes.len());
    for n in nodes {
        let c = &n.case;
        let mut doc = json!({"name": c.node, "values": c.facts,
            "environment": repo.config.environment_name});
        for (k, v) in [
            ("trusted", &c.trusted),
            ("classes", &c.classes),
            ("parameters", &c.parameters),
        ] {
            if let Some(v) = v {
                doc[k] = v.clone();
            }
        }
        let path = dir.join(format!("{}.json", n.id));
        std::fs::write(&path, doc.to_string()).map_err(|e| format!("{}: {e}", path.display()))?;
        files.push(path);
    }
    Ok(files)
}

/// `pverify compile` for the repo's environment with `extra` arguments.
pub(crate) fn compile_command(binary: &Path, repo: &Repo, files: &[PathBuf]) -> Command {
    let mut cmd = Command::new(binary);
    // `compile` takes no pverify.yaml: the repo's version is given (its
    // default is Puppet 8).
    cmd.arg("compile")
        .arg(&repo.env_dir)
        .args(["--puppet", &repo.puppet().major().to_string()])
        .arg("--facts")
        .args(files);
    if let Some(m) = &repo.config.modulepath {
        let joined: Vec<String> = m
            .iter()
            .map(|p| repo.env_dir.join(p).to_string_lossy().into_owned())
            .collect();
        cmd.arg("--modulepath").arg(joined.join(":"));
    }
    if let Some(m) = &repo.config.manifest {
        cmd.arg("--manifest").arg(repo.env_dir.join(m));
    }
    if let Some(h) = &repo.config.hiera_config {
        cmd.arg("--hiera-config").arg(repo.env_dir.join(h));
    }
    cmd
}

fn throughput_tool(
    binary: &Path,
    repo: &Repo,
    files: &[PathBuf],
    out: &Path,
    jobs: usize,
) -> Result<(), String> {
    let mut cmd = compile_command(binary, repo, files);
    cmd.arg("--out-dir")
        .arg(out)
        .arg("--jobs")
        .arg(jobs.to_string());
    let Measured {
        wall,
        success: status,
        rss_kb,
        stderr,
        ..
    } = run_measured(&mut cmd)?;
    println!(
        "real tool: `pverify compile --out-dir DIR --jobs {jobs}` over {} node files:",
        files.len()
    );
    println!(
        "  wall {:.3} s ({:.0} catalogs/s, process start to exit), peak RSS {:.1} MB",
        wall.as_secs_f64(),
        files.len() as f64 / wall.as_secs_f64(),
        rss_kb as f64 / 1024.0
    );
    if !status {
        return Err(format!("pverify compile failed:\n{}", tail(&stderr)));
    }
    Ok(())
}

/// Runs `cmd` (stdout discarded) and returns its wall time, success, peak RSS
/// in KiB and stderr. The peak is the child's own `VmHWM`, sampled every
/// millisecond while it runs: `getrusage`/`wait4`'s `ru_maxrss` would report
/// this (much bigger) process's peak, which survives the child's `exec`.
pub(crate) fn run_measured(cmd: &mut Command) -> Result<Measured, String> {
    let start = Instant::now();
    let mut child = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {cmd:?}: {e}"))?;
    let status_file = format!("/proc/{}/status", child.id());
    let mut stderr_pipe = child.stderr.take().ok_or("stderr is not piped")?;
    // Drain stderr on a thread so a chatty child cannot block on a full pipe.
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut stderr_pipe, &mut s);
        s
    });
    let mut peak_kb = 0;
    let status = loop {
        if let Some(kb) = std::fs::read_to_string(&status_file)
            .ok()
            .as_deref()
            .and_then(vm_hwm_kb)
        {
            peak_kb = peak_kb.max(kb);
        }
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) => std::thread::sleep(Duration::from_millis(1)),
            Err(e) => return Err(format!("waiting for {cmd:?}: {e}")),
        }
    };
    let wall = start.elapsed();
    let stderr = reader.join().unwrap_or_default();
    Ok(Measured {
        wall,
        success: status.success(),
        code: status.code().unwrap_or(-1),
        rss_kb: peak_kb,
        stderr,
    })
}

/// One process's run as [`run_measured`] measures it.
pub(crate) struct Measured {
    /// Start to exit.
    pub wall: Duration,
    pub success: bool,
    /// The exit status (-1 when a signal ended it).
    pub code: i32,
    /// Peak RSS (`VmHWM`), KiB.
    pub rss_kb: u64,
    pub stderr: String,
}

/// `VmHWM` in KiB from the text of a /proc/PID/status file.
fn vm_hwm_kb(status: &str) -> Option<u64> {
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line["VmHWM:".len()..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()
}

pub(crate) fn warm_ratio(
    repo: &Repo,
    env: &Environment,
    nodes: &[NodeSpec],
    sample: usize,
) -> Result<Ratios, String> {
    // Spread the sample over the matrix: consecutive nodes cycle through it.
    let sample: Vec<NodeSpec> = nodes.iter().take(sample.max(2)).cloned().collect();
    let paired = crate::bench_paired::paired(repo, env, &sample)?;
    // Agreement on the sample, in canonical form.
    let dir = repo.env_dir.to_string_lossy().into_owned();
    let mut equal = 0;
    for (n, p) in sample.iter().zip(&paired.puppet) {
        let ours = eval::compile(env, node_for(&n.case, &n.case.facts, repo.puppet()))
            .map(|c| canonicalize_catalog(&c.catalog, &dir));
        if let (Ok(a), Ok(b)) = (&ours, &p.result) {
            equal += usize::from(a == b);
        }
    }
    println!(
        "warm, per catalog ({} nodes; Puppet in {} Ruby processes, pverify on one thread, \
         timed in turns):",
        sample.len(),
        paired.processes
    );
    Ok(print_paired(
        repo.puppet().release(),
        &paired,
        equal,
        sample.len(),
    ))
}

/// Puppet's warm time per catalog over pverify's, with Puppet a server
/// whose environment expires at once (`fresh`: a new environment object per
/// node, `environment_timeout = 0`) and one that caches it (`cached`:
/// `environment_timeout = unlimited`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ratios {
    pub fresh: f64,
    pub cached: f64,
}

/// The lines every warm sample prints from its paired timing, and its two
/// ratios (pverify's node object included, as Puppet's time includes
/// making its node and merging its facts: compile.rb).
pub(crate) fn print_paired(
    release: &str,
    paired: &crate::bench_paired::Paired,
    equal: usize,
    n: usize,
) -> Ratios {
    let (p_median, _) = median_p95(&paired.puppet_times);
    let (k_median, _) = median_p95(&paired.cached_times);
    let ours = &paired.ours;
    let (v_median, _) = median_p95(&ours.with_node);
    let (c_median, _) = median_p95(&ours.compile_only);
    println!(
        "  puppet {release}: median {} with a fresh environment per node (environment_timeout = 0, \
         a server's default), {} with one cached environment (environment_timeout = unlimited, \
         {}/{n} catalogs the same as the fresh environment's); each Ruby process compiles its \
         nodes twice and the second pass is timed inside Ruby (neither Ruby's start-up nor a \
         root's is counted)",
        ms(p_median),
        ms(k_median),
        paired.cached_equal,
    );
    println!(
        "  pverify: median {} (node object from JSON facts + compile + catalog JSON); \
         compile + catalog JSON alone {}; the node object alone {}",
        ms(v_median),
        ms(c_median),
        ms(ours.node_only_each())
    );
    let ratio = |p: Duration, d: Duration| p.as_secs_f64() / d.as_secs_f64().max(1e-9);
    let ratios = Ratios {
        fresh: ratio(p_median, v_median),
        cached: ratio(k_median, v_median),
    };
    println!(
        "  ratio puppet/pverify: {:.0}x against a fresh environment, {:.0}x against a cached one \
         ({:.0}x and {:.0}x for compile + catalog JSON alone); catalogs equal to Puppet's: \
         {equal}/{n}",
        ratios.fresh,
        ratios.cached,
        ratio(p_median, c_median),
        ratio(k_median, c_median),
    );
    ratios
}

/// Rounds of the warm sample pverify compiles at least, for a steadier median.
const WARM_ROUNDS: usize = 5;

/// The span pverify's warm sample is timed over at least when Puppet is not
/// run (`--warm --no-puppet`); with Puppet, the timing goes in turns with
/// Puppet's (`bench_paired`).
const WARM_WINDOW: Duration = Duration::from_secs(3);

/// The warm sample repeated for timing: [`WARM_ROUNDS`] rounds at least,
/// and as many as fill `window` (measured on one untimed round).
pub(crate) fn warm_rounds(
    env: &Environment,
    sample: &[NodeSpec],
    window: Duration,
    version: PuppetVersion,
) -> Result<Vec<NodeSpec>, String> {
    let start = Instant::now();
    compile_timed(env, sample, 1, version)?;
    let round = start.elapsed().max(Duration::from_micros(1));
    let rounds =
        ((window.as_secs_f64() / round.as_secs_f64()).ceil() as usize).clamp(WARM_ROUNDS, 1000);
    Ok((0..rounds).flat_map(|_| sample.iter().cloned()).collect())
}

/// pverify's warm per-catalog times on one thread, the environment already
/// warm.
#[derive(Default)]
pub(crate) struct PverifyWarm {
    /// Node object from JSON facts + compile + catalog JSON.
    pub with_node: Vec<Duration>,
    /// Compile + catalog JSON alone (as compile.rb is handed facts already
    /// parsed).
    pub compile_only: Vec<Duration>,
    /// Making all the node objects, and how many.
    node_only: (Duration, usize),
}

impl PverifyWarm {
    pub(crate) fn extend(&mut self, more: PverifyWarm) {
        self.with_node.extend(more.with_node);
        self.compile_only.extend(more.compile_only);
        self.node_only.0 += more.node_only.0;
        self.node_only.1 += more.node_only.1;
    }

    /// The node object alone, per node.
    pub(crate) fn node_only_each(&self) -> Duration {
        self.node_only.0 / self.node_only.1.max(1) as u32
    }
}

/// [`PverifyWarm`] over rounds of `sample` that fill `window`.
pub(crate) fn pverify_warm(
    env: &Environment,
    sample: &[NodeSpec],
    window: Duration,
    version: PuppetVersion,
) -> Result<PverifyWarm, String> {
    let rounds = warm_rounds(env, sample, window, version)?;
    let (with_node, _, _) = compile_timed(env, &rounds, 1, version)?;
    let compile_only = compile_only_times(env, &rounds, version)?;
    let start = Instant::now();
    for n in &rounds {
        std::hint::black_box(node_for(&n.case, &n.case.facts, version));
    }
    Ok(PverifyWarm {
        with_node,
        compile_only,
        node_only: (start.elapsed(), rounds.len()),
    })
}

/// Time of compile + catalog JSON per node on one thread, node objects made
/// beforehand.
fn compile_only_times(
    env: &Environment,
    nodes: &[NodeSpec],
    version: PuppetVersion,
) -> Result<Vec<Duration>, String> {
    let prepared: Vec<_> = nodes
        .iter()
        .map(|n| node_for(&n.case, &n.case.facts, version))
        .collect();
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(STACK)
            .spawn_scoped(s, || {
                let mut text = Vec::with_capacity(eval::CATALOG_BUFFER);
                prepared
                    .into_iter()
                    .map(|node| {
                        let start = Instant::now();
                        text.clear();
                        let _ = eval::compile_pretty(env, node, &mut text);
                        std::hint::black_box(&text);
                        start.elapsed()
                    })
                    .collect::<Vec<_>>()
            })
            .map_err(|e| format!("cannot spawn a thread: {e}"))?
            .join()
            .map_err(|_| "the compile thread panicked".to_string())
    })
}

fn cold_ratio(
    binary: &Path,
    repo: &Repo,
    node: &NodeSpec,
    file: &Path,
    runs: usize,
) -> Result<(), String> {
    // One untimed run of each first: both sides then start with the OS's
    // file cache warm (binary, Ruby's and Puppet's code, the modules), so
    // the figure is a cold process, not a cold disk.
    run_measured(&mut compile_command(binary, repo, &[file.to_path_buf()]))?;
    repo.compile_with_puppet(std::slice::from_ref(node), 1)?;
    let mut ours = Vec::with_capacity(runs);
    let mut rss = 0;
    for _ in 0..runs {
        let mut cmd = compile_command(binary, repo, &[file.to_path_buf()]);
        let Measured {
            wall,
            success: ok,
            rss_kb: kb,
            stderr,
            ..
        } = run_measured(&mut cmd)?;
        if !ok {
            return Err(format!("pverify compile failed:\n{}", tail(&stderr)));
        }
        ours.push(wall);
        rss = rss.max(kb);
    }
    let mut theirs = Vec::with_capacity(runs);
    for _ in 0..runs {
        let start = Instant::now();
        let r = repo.compile_with_puppet(std::slice::from_ref(node), 1)?;
        theirs.push(start.elapsed());
        if let Some(Err(e)) = r.first().map(|c| &c.result) {
            return Err(format!("puppet failed on {}: {e}", node.id));
        }
    }
    let (o, _) = median_p95(&ours);
    let (t, _) = median_p95(&theirs);
    println!("cold, one node per process ({runs} runs each after one untimed, median):");
    println!(
        "  pverify compile: {} (peak RSS {:.1} MB); runs {}",
        ms(o),
        rss as f64 / 1024.0,
        fmt_times(&ours)
    );
    println!(
        "  puppet (ruby compile.rb: boot Ruby and Puppet, compile, print): {}; runs {}",
        ms(t),
        fmt_times(&theirs)
    );
    println!(
        "  ratio puppet/pverify: {:.0}x",
        t.as_secs_f64() / o.as_secs_f64().max(1e-9)
    );
    Ok(())
}

/// The synthetic environment: `$count` items, each a define instance with a
/// tagged file and notify; the files are chained (`->`), and collectors
/// override and relate resources by tag.
fn synthetic_site(items: usize) -> String {
    format!(
        r#"define bench::item(Integer $idx) {{
  $group = "group${{$idx % 50}}"
  file {{ "/srv/bench/${{idx}}":
    ensure  => file,
    content => "item ${{idx}}\n",
    tag     => [$group, 'bench'],
  }}
  notify {{ "item ${{idx}}":
    message => "item ${{idx}} of ${{group}}",
    tag     => [$group],
  }}
  if $idx > 0 {{
    $prev = $idx - 1
    File["/srv/bench/${{prev}}"] -> File["/srv/bench/${{idx}}"]
  }}
}}

class bench {{
  $wanted = 'group1'
  package {{ 'benchpkg': ensure => installed }}
  Integer[0, {last}].each |$i| {{
    bench::item {{ "item${{i}}": idx => $i }}
  }}
  File <| tag == $wanted |> {{ mode => '0600' }}
  File <| tag == 'group2' |> -> Package['benchpkg']
  Notify <| tag == 'group3' or tag == 'group4' |> {{ loglevel => 'info' }}
  Package['benchpkg'] -> Notify <| tag == 'group5' |>
  Bench::Item <| idx == 7 |>
}}

include bench
"#,
        last = items.saturating_sub(1)
    )
}

/// How long each synthetic size is compiled over, again and again, for its
/// median time: the best of 3 compiles put the smallest catalog's 8 ms
/// anywhere from 7.7 to 14.9 ms between runs (docs/benchmark.md, stop 21),
/// and every other size's ratio to it with it. The median, not the best,
/// since a small catalog gets more compiles in the window than a big one,
/// and the best of more tries is lower.
const LINEARITY_WINDOW: Duration = Duration::from_secs(1);

fn linearity(dir: &Path, sizes: &[usize], template: &NodeSpec) -> Result<(), String> {
    println!(
        "linearity (synthetic catalogs, one thread; after one untimed compile, the median of \
         the compiles that fill {}s, 3 at least):",
        LINEARITY_WINDOW.as_secs()
    );
    let mut first: Option<f64> = None;
    for &size in sizes {
        // Each item makes three resources (the define instance, a file, a notify).
        let items = (size / 3).max(1);
        let env_dir = dir.join(format!("env{size}"));
        std::fs::create_dir_all(env_dir.join("manifests")).map_err(|e| e.to_string())?;
        std::fs::write(env_dir.join("manifests/site.pp"), synthetic_site(items))
            .map_err(|e| e.to_string())?;
        let env = Environment::boot(&env_dir, &Overrides::default())?;
        let node = synthetic_node(template);
        // The untimed compile parses the manifest and proves it compiles.
        let (_, failed, resources) =
            compile_timed(&env, std::slice::from_ref(&node), 1, PuppetVersion::V7)?;
        if failed > 0 {
            let err = eval::compile(
                &env,
                node_for(&node.case, &node.case.facts, PuppetVersion::V7),
            )
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
            return Err(format!("synthetic catalog of {size} failed: {err}"));
        }
        let mut times = Vec::new();
        let start = Instant::now();
        while times.len() < 3 || start.elapsed() < LINEARITY_WINDOW {
            times.extend(compile_timed(&env, std::slice::from_ref(&node), 1, PuppetVersion::V7)?.0);
        }
        let (median, _) = median_p95(&times);
        let per = median.as_secs_f64() * 1e6 / resources.max(1) as f64;
        let rel = per / *first.get_or_insert(per);
        println!(
            "  {resources:>6} resources: {:>8.1} ms, {per:.2} µs per resource ({rel:.2}x the \
             smallest; median of {})",
            median.as_secs_f64() * 1e3,
            times.len()
        );
    }
    Ok(())
}

/// The synthetic node: the template's facts, no ENC data, no settings.
fn synthetic_node(template: &NodeSpec) -> NodeSpec {
    let mut case = template.case.clone();
    case.node = "bench.example.com".into();
    case.trusted = None;
    case.classes = None;
    case.parameters = None;
    case.settings = None;
    case.environment = "production".into();
    NodeSpec::new(case.node.clone(), case)
}

pub(crate) fn median_p95(times: &[Duration]) -> (Duration, Duration) {
    if times.is_empty() {
        return (Duration::ZERO, Duration::ZERO);
    }
    let mut v = times.to_vec();
    v.sort();
    let p95 = ((v.len() as f64 * 0.95).ceil() as usize).clamp(1, v.len()) - 1;
    (v[v.len() / 2], v[p95])
}

pub(crate) fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1e3)
}

pub(crate) fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

pub(crate) fn tail(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(20)..].join("\n")
}

pub(crate) fn tempfile_dir(prefix: &str) -> Result<PathBuf, String> {
    let dir = std::env::temp_dir().join(format!("{prefix}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    Ok(dir)
}
