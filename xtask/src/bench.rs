//! `cargo xtask bench-parse [DIR] [--runs N] [--puppet] [--batch N]`
//!
//! Single-threaded parse throughput over every `*.pp` under DIR (default
//! `/usr/share/puppet/modules`). All files are read into memory first, so only
//! `puppet_syntax::parse` (including dropping the AST) is timed: one warm-up
//! pass, then N timed passes (default 5); best and median are reported.
//!
//! `cargo xtask` builds xtask in the dev profile, which would make the numbers
//! meaningless, so a dev build re-runs itself as
//! `cargo run --release -p xtask -- bench-parse ...`.
//!
//! With `--puppet` (and `puppet` on PATH) it also times
//! `puppet parser validate` over the same files, in batches of `--batch` files
//! per process (default 500), and prints the ratio. Puppet's own start-up cost
//! is measured separately (one process on an empty file) and also reported.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use puppet_compiler::files::{find_manifests, OsFiles};

use crate::corpus::{parse_one, DEFAULT_DIR, PARSE_STACK};

const USAGE: &str = "usage: cargo xtask bench-parse [DIR] [--runs N] [--puppet] [--batch N]";

/// Set in the environment of the release re-run so it does not recurse.
pub(crate) const REEXEC_ENV: &str = "PVERIFY_XTASK_RELEASE";

struct Opts {
    dir: String,
    runs: usize,
    puppet: bool,
    batch: usize,
}

pub fn run(args: &[String]) -> Result<(), String> {
    let opts = parse_args(args)?;
    let Some(opts) = opts else { return Ok(()) };

    if cfg!(debug_assertions) {
        if std::env::var_os(REEXEC_ENV).is_none() {
            return reexec_release("bench-parse", args);
        }
        eprintln!("warning: {REEXEC_ENV} is set but this xtask is a dev build; numbers are not meaningful");
    }

    // Load everything first: the benchmark measures parsing, not I/O.
    let paths =
        find_manifests(&OsFiles, Path::new(&opts.dir)).map_err(|e| format!("{}: {e}", opts.dir))?;
    if paths.is_empty() {
        return Err(format!("no *.pp files under {}", opts.dir));
    }
    let mut inputs: Vec<(String, Vec<u8>)> = Vec::with_capacity(paths.len());
    for p in &paths {
        let src = std::fs::read(p).map_err(|e| format!("{}: {e}", p.display()))?;
        inputs.push((p.to_string_lossy().into_owned(), src));
    }
    let bytes: usize = inputs.iter().map(|(_, s)| s.len()).sum();
    let mb = bytes as f64 / 1e6;

    let runs = opts.runs;
    let (failures, times) = std::thread::Builder::new()
        .name("bench-parse".into())
        .stack_size(PARSE_STACK)
        .spawn(move || {
            // Warm-up pass doubles as the correctness count. A parser panic
            // ends the run here (release builds abort on panic); `cargo xtask
            // corpus`, unwinding in the dev profile, names the file.
            let failures: Vec<String> = inputs
                .iter()
                .filter_map(|(name, src)| parse_one(name, src).err())
                .collect();
            let mut times = Vec::with_capacity(runs);
            for _ in 0..runs {
                let t = Instant::now();
                for (name, src) in &inputs {
                    let _ = std::hint::black_box(puppet_syntax::parse(name, src));
                }
                times.push(t.elapsed());
            }
            (failures, times)
        })
        .map_err(|e| format!("cannot spawn bench thread: {e}"))?
        .join()
        .map_err(|_| "the bench thread failed".to_string())?;

    let mut sorted = times.clone();
    sorted.sort();
    let best = sorted[0].as_secs_f64();
    let median = sorted[sorted.len() / 2].as_secs_f64();

    for f in failures.iter().take(10) {
        println!("  {f}");
    }
    if failures.len() > 10 {
        println!("  ... and {} more", failures.len() - 10);
    }
    println!("pverify parse (release, one thread) over {}", opts.dir);
    println!("  files:    {}", paths.len());
    println!("  size:     {mb:.2} MB ({bytes} bytes)");
    println!("  failed:   {}", failures.len());
    println!("  runs:     {runs} after 1 warm-up: {}", fmt_times(&times));
    println!("  time:     best {best:.3} s, median {median:.3} s");
    println!(
        "  speed:    best {:.1} MB/s, median {:.1} MB/s",
        mb / best,
        mb / median
    );

    if opts.puppet {
        bench_puppet(&paths, opts.batch, mb, best)?;
    }
    Ok(())
}

fn parse_args(args: &[String]) -> Result<Option<Opts>, String> {
    let mut opts = Opts {
        dir: DEFAULT_DIR.to_string(),
        runs: 5,
        puppet: false,
        batch: 500,
    };
    let mut dir_seen = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--puppet" => opts.puppet = true,
            "--runs" | "--batch" => {
                let v = it
                    .next()
                    .ok_or_else(|| format!("{a} needs a number\n{USAGE}"))?;
                let n: usize = v
                    .parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or_else(|| format!("{a}: expected a positive number, got '{v}'"))?;
                if a == "--runs" {
                    opts.runs = n
                } else {
                    opts.batch = n
                }
            }
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(None);
            }
            s if s.starts_with('-') => return Err(format!("unknown option '{s}'\n{USAGE}")),
            s if !dir_seen => {
                opts.dir = s.to_string();
                dir_seen = true;
            }
            _ => return Err(format!("too many arguments\n{USAGE}")),
        }
    }
    Ok(Some(opts))
}

/// Re-runs `task` from a release build of xtask, passing the same arguments
/// (the benchmarks are meaningless from a dev build).
pub(crate) fn reexec_release(task: &str, args: &[String]) -> Result<(), String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .ok_or("xtask has no parent directory")?;
    eprintln!("(dev build of xtask: re-running {task} from `cargo run --release -p xtask`)");
    let status = Command::new(&cargo)
        .current_dir(workspace)
        .args([
            "run",
            "--release",
            "--quiet",
            "--package",
            "xtask",
            "--",
            task,
        ])
        .args(args)
        .env(REEXEC_ENV, "1")
        .status()
        .map_err(|e| format!("cannot run {cargo}: {e}"))?;
    // The release run has already printed its own result or error.
    std::process::exit(status.code().unwrap_or(1));
}

/// Seconds, three decimals, space-separated.
pub(crate) fn fmt_times(times: &[Duration]) -> String {
    times
        .iter()
        .map(|t| format!("{:.3}", t.as_secs_f64()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Times `puppet parser validate` over `paths` in batches of `batch` files per
/// process. Puppet keeps going after a bad file and exits 1 if any file had an
/// error, so a non-zero exit is reported, not treated as a failure of the task.
fn bench_puppet(paths: &[PathBuf], batch: usize, mb: f64, pverify_best: f64) -> Result<(), String> {
    let has_puppet = Command::new("puppet")
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if !has_puppet {
        return Err("--puppet given but `puppet` is not on PATH (apt-get install puppet)".into());
    }

    // Start-up cost: one process validating an empty manifest.
    let empty = std::env::temp_dir().join(format!("pverify-bench-empty-{}.pp", std::process::id()));
    std::fs::write(&empty, b"").map_err(|e| format!("{}: {e}", empty.display()))?;
    let t = Instant::now();
    let probe = validate(std::slice::from_ref(&empty));
    let startup = t.elapsed().as_secs_f64();
    let _ = std::fs::remove_file(&empty);
    probe?;

    let chunks: Vec<&[PathBuf]> = paths.chunks(batch).collect();
    let mut error_files = std::collections::BTreeSet::new();
    let mut nonzero = 0;
    let t = Instant::now();
    for chunk in &chunks {
        let (ok, output) = validate(chunk)?;
        if !ok {
            nonzero += 1;
        }
        // Error lines look like "Error: ... (file: /path.pp, line: 1, column: 1)"
        // or "Error: ... is unacceptable in file '/path.pp'".
        for line in output.lines().filter(|l| l.starts_with("Error:")) {
            if let Some(rest) = line.split("(file: ").nth(1) {
                error_files.insert(rest.split([',', ')']).next().unwrap_or(rest).to_string());
            } else if let Some(rest) = line.split(" in file '").nth(1) {
                error_files.insert(rest.split('\'').next().unwrap_or(rest).to_string());
            }
        }
    }
    let total = t.elapsed().as_secs_f64();
    let procs = chunks.len();
    let net = (total - startup * procs as f64).max(f64::EPSILON);

    println!(
        "puppet parser validate ({} processes of <= {batch} files)",
        procs
    );
    println!("  time:     {total:.2} s ({:.1} MB/s)", mb / total);
    println!(
        "  start-up: {startup:.2} s per process; without it {net:.2} s ({:.1} MB/s)",
        mb / net
    );
    println!(
        "  errors:   {} files reported, {nonzero} processes exited non-zero \
         (puppet also runs location-dependent validation that `parse` does not)",
        error_files.len()
    );
    println!(
        "ratio: pverify is {:.0}x faster than puppet ({:.0}x excluding puppet start-up)",
        total / pverify_best,
        net / pverify_best
    );
    Ok(())
}

/// Runs one `puppet parser validate` process; returns (exit ok, stdout+stderr).
fn validate(files: &[PathBuf]) -> Result<(bool, String), String> {
    let out = Command::new("puppet")
        .args(["parser", "validate", "--color=false"])
        .args(files)
        .output()
        .map_err(|e| format!("cannot run puppet: {e}"))?;
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    Ok((out.status.success(), text))
}
