//! `cargo xtask fuzz TARGET [--seconds N] [--seed N] [--corpus DIR]`: a
//! stable-Rust fuzz driver for the targets of `puppet_compiler::fuzzing` (the same
//! functions the cargo-fuzz targets in `fuzz/` call). No coverage feedback:
//! it mutates the seed corpus (`fuzz/corpus/TARGET`, made by
//! `fuzz/seed-corpus.sh`) with a deterministic mutator (seeded xorshift), so
//! a run is repeatable. Each input runs on an 8 MiB stack (libFuzzer's main
//! thread); a panic is saved to `fuzz/artifacts/TARGET/crash-N` and the run
//! goes on; an input running over 10 s is saved as `hang-N` and ends the run;
//! a stack overflow kills the process, and the input is then in
//! `fuzz/artifacts/TARGET/last-input` (written before each run).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

const HANG: Duration = Duration::from_secs(10);

/// Pieces that matter to Puppet, YAML, JSON and interpolation.
const DICTIONARY: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    "(",
    ")",
    "${",
    "%{",
    "\"",
    "'",
    "\n",
    "\n  ",
    ": ",
    "- ",
    "|",
    ">",
    "&a ",
    "*a",
    "<<: ",
    "!!",
    "!ruby/object:",
    "---\n",
    "...\n",
    "\\",
    "@(E)\n",
    "\nE\n",
    "=>",
    "->",
    "$x",
    "::",
    "lookup('a')",
    "alias('a')",
    "scope('v')",
    "literal('%')",
    "facts.os",
    "0x",
    "1e3",
    "yes",
    "~",
    "null",
    "true",
    "#",
    ",",
    ";",
    "\t",
    "\u{feff}",
    "é",
    "\u{0}",
    "\r\n",
    "class a { }",
    "define d() { }",
    "include a",
    "d { 'x': }",
    "function f() { f() }",
    "[1,2].map |$x| { $x }",
    "sprintf('%99999999s', 'x')",
    "'x' * 1000",
    "Integer[1,2]",
];

use puppet_compiler::fuzzing::Rng;

/// One to eight stacked mutations of `input`, sometimes spliced with `other`.
fn mutate(rng: &mut Rng, input: &[u8], other: &[u8]) -> Vec<u8> {
    let mut m = input.to_vec();
    for _ in 0..1 + rng.below(8) {
        let at = rng.below(m.len() + 1);
        match rng.below(8) {
            0 if at < m.len() => m[at] ^= 1 << rng.below(8),
            1 if at < m.len() => {
                let end = (at + 1 + rng.below(16)).min(m.len());
                m.drain(at..end);
            }
            2 => {
                let piece = DICTIONARY[rng.below(DICTIONARY.len())].as_bytes();
                m.splice(at..at, piece.iter().copied());
            }
            3 if at < m.len() => {
                // Repeat a chunk: deep nesting and long runs.
                let end = (at + 1 + rng.below(8)).min(m.len());
                let chunk = m[at..end].to_vec();
                for _ in 0..1 + rng.below(64) {
                    m.splice(at..at, chunk.iter().copied());
                }
            }
            4 if !other.is_empty() => {
                let from = rng.below(other.len());
                let end = (from + 1 + rng.below(256)).min(other.len());
                m.splice(at..at, other[from..end].iter().copied());
            }
            5 => m.truncate(at),
            6 => m.insert(at, rng.next_u64() as u8),
            _ => {
                let piece = DICTIONARY[rng.below(DICTIONARY.len())].as_bytes();
                m.extend_from_slice(piece);
            }
        }
    }
    m.truncate(1 << 20);
    m
}

fn load_corpus(dir: &Path) -> Result<Vec<Vec<u8>>, String> {
    let mut files: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(rd) => rd.filter_map(Result::ok).map(|e| e.path()).collect(),
        Err(_) => Vec::new(),
    };
    files.sort();
    let mut out: Vec<Vec<u8>> = files
        .iter()
        .filter_map(|p| std::fs::read(p).ok())
        .filter(|b| b.len() <= 256 * 1024)
        .collect();
    if out.is_empty() {
        eprintln!(
            "xtask fuzz: no seeds in {} (run fuzz/seed-corpus.sh); starting from nothing",
            dir.display()
        );
        out.push(Vec::new());
    }
    Ok(out)
}

pub fn run(args: &[String]) -> Result<(), String> {
    let names: Vec<&str> = puppet_compiler::fuzzing::TARGETS
        .iter()
        .map(|t| t.0)
        .collect();
    let mut target = None;
    let mut seconds = 60u64;
    let mut seed = 1u64;
    let mut corpus = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |what: &str| it.next().cloned().ok_or(format!("{what} needs a value"));
        match a.as_str() {
            "--seconds" => seconds = value(a)?.parse().map_err(|e| format!("--seconds: {e}"))?,
            "--seed" => seed = value(a)?.parse().map_err(|e| format!("--seed: {e}"))?,
            "--corpus" => corpus = Some(PathBuf::from(value(a)?)),
            t if target.is_none() => target = Some(t.to_string()),
            other => return Err(format!("unexpected argument '{other}'")),
        }
    }
    let target = target.ok_or(format!("which target? one of {}", names.join(", ")))?;
    let Some(&(_, function)) = puppet_compiler::fuzzing::TARGETS
        .iter()
        .find(|t| t.0 == target)
    else {
        return Err(format!(
            "no target '{target}' (one of {})",
            names.join(", ")
        ));
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz");
    let corpus = corpus.unwrap_or_else(|| root.join("corpus").join(&target));
    let seeds = load_corpus(&corpus)?;
    let artifacts = root.join("artifacts").join(&target);
    std::fs::create_dir_all(&artifacts).map_err(|e| format!("{}: {e}", artifacts.display()))?;
    let last = artifacts.join("last-input");

    // Panics are expected findings: keep their messages off stderr's default
    // hook and report them ourselves.
    std::panic::set_hook(Box::new(|_| {}));
    let started_at = Arc::new(AtomicU64::new(0));
    let clock = Instant::now();
    {
        // The watchdog: an input running longer than HANG is a hang.
        let started_at = started_at.clone();
        let last = last.clone();
        let artifacts = artifacts.clone();
        std::thread::spawn(move || loop {
            std::thread::sleep(Duration::from_millis(500));
            let s = started_at.load(Ordering::SeqCst);
            if s != 0 && clock.elapsed().as_millis() as u64 - s > HANG.as_millis() as u64 {
                let to = artifacts.join(format!("hang-{s}"));
                let _ = std::fs::copy(&last, &to);
                eprintln!(
                    "xtask fuzz: HANG (over {} s): input saved to {}",
                    HANG.as_secs(),
                    to.display()
                );
                std::process::exit(3);
            }
        });
    }
    let mut rng = Rng::new(seed ^ 0x9E37_79B9_7F4A_7C15);
    let deadline = Duration::from_secs(seconds);
    let mut runs = 0u64;
    let mut crashes: BTreeSet<String> = BTreeSet::new();
    let mut i = 0usize;
    while clock.elapsed() < deadline {
        // Every seed as it is first, then mutations.
        let input = if i < seeds.len() {
            seeds[i].clone()
        } else {
            let a = &seeds[rng.below(seeds.len())];
            let b = &seeds[rng.below(seeds.len())];
            mutate(&mut rng, a, b)
        };
        i += 1;
        std::fs::write(&last, &input).map_err(|e| format!("{}: {e}", last.display()))?;
        started_at.store(clock.elapsed().as_millis().max(1) as u64, Ordering::SeqCst);
        let data = input.clone();
        let outcome = std::thread::Builder::new()
            .stack_size(8 << 20)
            .spawn(move || std::panic::catch_unwind(|| function(&data)))
            .map_err(|e| format!("spawning: {e}"))?
            .join();
        started_at.store(0, Ordering::SeqCst);
        runs += 1;
        if let Ok(Err(payload)) | Err(payload) = outcome {
            let message = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "non-string panic".into());
            if crashes.insert(message.clone()) {
                let to = artifacts.join(format!("crash-{}", crashes.len()));
                let _ = std::fs::write(&to, &input);
                eprintln!(
                    "xtask fuzz: PANIC '{message}': input saved to {}",
                    to.display()
                );
            }
        }
    }
    let secs = clock.elapsed().as_secs_f64();
    println!(
        "xtask fuzz {target}: {runs} runs in {secs:.0} s ({:.0}/s), {} seeds, {} distinct panic(s)",
        runs as f64 / secs,
        seeds.len(),
        crashes.len()
    );
    if crashes.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} distinct panic(s), inputs in {}",
            crashes.len(),
            artifacts.display()
        ))
    }
}
