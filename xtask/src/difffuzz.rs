//! `cargo xtask difffuzz`: differential fuzzing of pverify against Puppet 7.
//!
//! Generates random, self-contained Puppet environments from a seed
//! (`difffuzz/gen.rs`, a small model printed to Puppet source by
//! `difffuzz/ast.rs`), compiles each with Puppet 7.23 (the oracle's driver,
//! in warm Ruby processes, a batch of environments per process) and with
//! pverify, and compares the results as the spec-suite does: the canonical
//! catalogs, or the error texts. Each disagreement is shrunk by delta
//! debugging over the model (`difffuzz/reduce.rs`) while it keeps
//! disagreeing the same way, and written as a spec-suite candidate `.case`
//! with Puppet's result as its expectation.
//!
//! Usage: `cargo xtask difffuzz [--seed S] [--count N] [--no-reduce]
//! [--out DIR] [--batch B] [--reduce-limit R] [--known FILE]
//! [--allow-disagreements] [--show I]`.

mod ast;
mod gen;
mod reduce;

use pverify_harness::harness::Versioned;
use pverify_harness::reference::{PuppetVersion, Reference};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use pverify_harness::catalog_diff::{catalog_diff, ChangeKind, Reported};
use pverify_harness::harness::{oracle, run_case, write_case, Case, Expect};
use serde_json::Value;

use ast::Env;

const USAGE: &str =
    "usage: difffuzz [--puppet 7|8] [--seed S] [--count N] [--no-reduce] [--out DIR] [--batch B] \
[--reduce-limit R] [--known FILE] [--allow-disagreements] [--min-agree P] [--show I]";

/// How Puppet's and pverify's results compare.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Agree,
    CatalogDiffers,
    ErrorTextDiffers,
    OnlyPverifyFails,
    OnlyPuppetFails,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Agree => "agree",
            Kind::CatalogDiffers => "catalog-differs",
            Kind::ErrorTextDiffers => "error-text-differs",
            Kind::OnlyPverifyFails => "only-pverify-fails",
            Kind::OnlyPuppetFails => "only-puppet-fails",
        }
    }
}

struct Options {
    seed: u64,
    count: u64,
    reduce: bool,
    out: PathBuf,
    batch: usize,
    reduce_limit: usize,
    known: Option<PathBuf>,
    allow: bool,
    /// With `--min-agree P`: the run fails only when fewer than P percent
    /// of the environments agree (new groups are reported, not fatal).
    min_agree: Option<f64>,
    show: Option<u64>,
    /// The reference to compare with, and the version pverify compiles as.
    puppet: PuppetVersion,
}

fn parse_args(args: &[String]) -> Result<Options, String> {
    let root = workspace_root()?;
    let mut o = Options {
        seed: 1,
        count: 200,
        reduce: true,
        out: root.join("target/difffuzz/candidates"),
        batch: 200,
        reduce_limit: 20,
        known: None,
        allow: false,
        min_agree: None,
        show: None,
        puppet: PuppetVersion::default(),
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{name} needs a value ({USAGE})"))
        };
        let num = |s: String| s.parse::<u64>().map_err(|e| format!("'{s}': {e}"));
        match a.as_str() {
            "--seed" => o.seed = num(value("--seed")?)?,
            "--count" => o.count = num(value("--count")?)?,
            "--reduce" => o.reduce = true,
            "--no-reduce" => o.reduce = false,
            "--out" => o.out = PathBuf::from(value("--out")?),
            "--batch" => o.batch = num(value("--batch")?)?.max(1) as usize,
            "--reduce-limit" => o.reduce_limit = num(value("--reduce-limit")?)? as usize,
            "--known" => o.known = Some(PathBuf::from(value("--known")?)),
            "--allow-disagreements" => o.allow = true,
            "--min-agree" => {
                let v = value("--min-agree")?;
                o.min_agree = Some(
                    v.parse::<f64>()
                        .map_err(|_| format!("--min-agree takes a percentage, not '{v}'"))?,
                )
            }
            "--show" => o.show = Some(num(value("--show")?)?),
            "--puppet" => {
                let v = value("--puppet")?;
                o.puppet =
                    PuppetVersion::parse(&v).ok_or(format!("--puppet: 7 or 8, not '{v}'"))?;
            }
            s => return Err(format!("unknown argument '{s}' ({USAGE})")),
        }
    }
    Ok(o)
}

fn workspace_root() -> Result<PathBuf, String> {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .ok_or_else(|| "cannot locate the workspace root".to_string())
}

/// The case of an environment, named `difffuzz/<name>`.
fn to_case(env: &Env, name: &str) -> Case {
    Case {
        budget: Default::default(),
        path: PathBuf::from(format!("difffuzz/{name}.case")),
        spec: vec!["difffuzz".into()],
        description: String::new(),
        node: env.node.clone(),
        facts: env.facts.clone().into(),
        factset: None,
        trusted: None,
        classes: None,
        parameters: None,
        environment: "production".into(),
        settings: None,
        exports: None,
        pending: Versioned::default(),
        puppet_varies: None,
        files: env.render(),
        expect: Versioned::both(Expect::None),
        expect_warnings: Versioned::default(),
    }
}

/// Compiles environments with both compilers, in batches.
struct Runner {
    /// Where Puppet's environments are written.
    puppet_dir: tempfile::TempDir,
    /// Where pverify's are.
    pverify_dir: tempfile::TempDir,
    counter: AtomicUsize,
    /// The oracle's driver script, written out.
    driver: PathBuf,
    /// The reference Puppet (pverify compiles as its version).
    puppet: Reference,
    puppet_secs: f64,
    pverify_secs: f64,
    compiles: usize,
}

/// One environment's results: Puppet's, then pverify's.
type Pair = (Expect, Expect);

impl Runner {
    fn new(puppet: Reference) -> Result<Runner, String> {
        let mk = |p: &str| {
            tempfile::Builder::new()
                .prefix(p)
                .tempdir()
                .map_err(|e| format!("cannot make a temporary directory: {e}"))
        };
        let puppet_dir = mk("pverify-difffuzz-puppet-")?;
        let driver = puppet_dir.path().join("compile.rb");
        std::fs::write(&driver, oracle::DRIVER)
            .map_err(|e| format!("{}: {e}", driver.display()))?;
        Ok(Runner {
            driver,
            puppet,
            puppet_dir,
            pverify_dir: mk("pverify-difffuzz-ours-")?,
            counter: AtomicUsize::new(0),
            puppet_secs: 0.0,
            pverify_secs: 0.0,
            compiles: 0,
        })
    }

    /// Both results for each environment, in order.
    fn run(&mut self, envs: &[Env]) -> Result<Vec<Pair>, String> {
        let cases: Vec<Case> = envs
            .iter()
            .map(|e| {
                let n = self.counter.fetch_add(1, Ordering::Relaxed);
                to_case(e, &format!("c{n}"))
            })
            .collect();
        let factsets = workspace_root()?.join(pverify_harness::harness::FACTSETS_DIR);
        let mut nodes = Vec::new();
        for c in &cases {
            let envpath = self.puppet_dir.path().join(c.name());
            nodes.push(oracle::case_request(
                c,
                &envpath,
                &factsets,
                self.puppet.version,
            )?);
        }
        let work = self.pverify_dir.path().to_path_buf();
        let started = Instant::now();
        // pverify on a thread of its own (a big stack: generated programs
        // nest), while Puppet compiles.
        let reference = &self.puppet;
        let driver = &self.driver;
        let (ours, puppet, ours_secs) = std::thread::scope(|s| {
            let cases = &cases;
            let work = &work;
            let h = std::thread::Builder::new()
                .stack_size(256 << 20)
                .spawn_scoped(s, move || {
                    let t = Instant::now();
                    let r: Vec<Expect> = cases
                        .iter()
                        .map(|c| run_pverify(c, work, reference.version))
                        .collect();
                    (r, t.elapsed().as_secs_f64())
                })
                .expect("spawning pverify's thread");
            let puppet = puppet_results(reference, driver, &nodes);
            let (ours, secs) = h.join().unwrap_or_else(|_| (Vec::new(), 0.0));
            (ours, puppet, secs)
        });
        self.puppet_secs += started.elapsed().as_secs_f64();
        self.pverify_secs += ours_secs;
        self.compiles += cases.len();
        let mut out = Vec::new();
        for ((c, reply), ours) in cases.iter().zip(puppet).zip(ours) {
            let env_dir = self.puppet_dir.path().join(c.name()).join(&c.environment);
            let theirs = match reply {
                Some(r) => {
                    oracle::observed(&r, &env_dir.to_string_lossy())
                        .map_err(|e| format!("bad reply from compile.rb: {e}"))?
                        .0
                }
                None => Expect::None,
            };
            let _ = std::fs::remove_dir_all(self.puppet_dir.path().join(c.name()));
            let _ = std::fs::remove_dir_all(work.join(c.name().replace('/', "__")));
            out.push((theirs, ours));
        }
        Ok(out)
    }
}

/// pverify's result; a panic is an error text starting with `PANIC`.
fn run_pverify(c: &Case, work: &Path, puppet: PuppetVersion) -> Expect {
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run_case(c, work, puppet)));
    match r {
        Ok(e) => e,
        Err(p) => {
            let msg = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            Expect::Error(format!("PANIC: {msg}"))
        }
    }
}

/// Puppet's replies; a batch whose Ruby process fails is split in halves
/// until the culprit stands alone (its reply is `None`).
fn puppet_results(puppet: &Reference, driver: &Path, nodes: &[Value]) -> Vec<Option<Value>> {
    // Two processes (the machine's cores are shared), each over a half.
    if nodes.len() >= 20 {
        let (a, b) = nodes.split_at(nodes.len() / 2);
        let (ra, rb) = std::thread::scope(|s| {
            let h = s.spawn(|| puppet_batch(puppet, driver, a));
            let rb = puppet_batch(puppet, driver, b);
            (h.join().unwrap_or_else(|_| vec![None; a.len()]), rb)
        });
        let mut r = ra;
        r.extend(rb);
        return r;
    }
    puppet_batch(puppet, driver, nodes)
}

/// Puppet's replies for `nodes` in one process; when the process dies (a
/// crash, the memory or time limit) the replies printed so far are kept,
/// the node it died on gets `None`, and a new process takes the rest.
fn puppet_batch(puppet: &Reference, driver: &Path, nodes: &[Value]) -> Vec<Option<Value>> {
    let mut out: Vec<Option<Value>> = Vec::new();
    while out.len() < nodes.len() {
        let rest = &nodes[out.len()..];
        let (replies, err) = run_driver(puppet, driver, rest);
        let got = replies.len();
        out.extend(replies.into_iter().map(Some));
        if let Some(e) = err {
            if got < rest.len() {
                eprintln!(
                    "difffuzz: Puppet died on {}: {}",
                    rest[got]["environmentpath"].as_str().unwrap_or("?"),
                    first_line(&e)
                );
                out.push(None);
            }
        }
    }
    out
}

/// Runs the oracle's driver over `nodes` in one Ruby process, with its
/// memory (3 GB of address space) and time (20 s plus 1 s a node) limited:
/// a generated program may ask Ruby for a 2^63-bit Integer.
fn run_driver(puppet: &Reference, driver: &Path, nodes: &[Value]) -> (Vec<Value>, Option<String>) {
    use std::io::Write;
    use std::process::Stdio;
    let request = serde_json::json!({ "environment": "production", "nodes": nodes });
    let secs = 20 + nodes.len();
    // The environments sit beside the driver.
    let visible: Vec<&Path> = driver.parent().into_iter().collect();
    let spawned = puppet
        .command("sh", &visible)
        .arg("-c")
        .arg(format!(
            "ulimit -v 3000000; exec timeout -s KILL {secs} ruby \"$0\""
        ))
        .arg(driver)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match spawned {
        Ok(c) => c,
        Err(e) => return (Vec::new(), Some(format!("running ruby: {e}"))),
    };
    let Some(mut stdin) = child.stdin.take() else {
        return (Vec::new(), Some("ruby's stdin is not piped".into()));
    };
    let body = serde_json::to_vec(&request).unwrap_or_default();
    let writer = std::thread::spawn(move || stdin.write_all(&body));
    let out = match child.wait_with_output() {
        Ok(o) => o,
        Err(e) => return (Vec::new(), Some(format!("waiting for ruby: {e}"))),
    };
    let _ = writer.join();
    // Complete lines only: a killed process may leave half a line.
    let replies: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map_while(|l| serde_json::from_str(l).ok())
        .collect();
    if !out.status.success() || replies.len() != nodes.len() {
        let e = format!(
            "compile.rb failed ({}, {} of {} replies): {}",
            out.status,
            replies.len(),
            nodes.len(),
            String::from_utf8_lossy(&out.stderr).trim_end()
        );
        return (replies, Some(e));
    }
    (replies, None)
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}

fn classify(theirs: &Expect, ours: &Expect) -> Kind {
    match (theirs, ours) {
        (Expect::None, _) => Kind::Agree, // Puppet crashed: nothing to compare.
        (Expect::Catalog(a), Expect::Catalog(b)) if a == b => Kind::Agree,
        (Expect::Error(a), Expect::Error(b)) if a == b => Kind::Agree,
        (Expect::Catalog(_), Expect::Catalog(_)) => Kind::CatalogDiffers,
        (Expect::Error(_), Expect::Error(_)) => Kind::ErrorTextDiffers,
        (Expect::Catalog(_), _) => Kind::OnlyPverifyFails,
        (Expect::Error(_), _) => Kind::OnlyPuppetFails,
    }
}

/// An error text with numbers, positions and quoted values masked, so
/// that the same message about other values groups together.
fn mask(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars().peekable();
    let mut quote: Option<char> = None;
    while let Some(ch) = chars.next() {
        if let Some(q) = quote {
            if ch == q {
                out.push(q);
                quote = None;
            }
            continue;
        }
        match ch {
            '0'..='9' => {
                while chars.peek().is_some_and(|c| c.is_ascii_digit()) {
                    chars.next();
                }
                out.push('N');
            }
            '\'' => {
                out.push_str("'…");
                quote = Some('\'');
            }
            _ => out.push(ch),
        }
    }
    // Operand types vary with the values; the message is the cause.
    for (phrase, end) in [
        ("is not applicable to ", '.'),
        ("must result in a String value. Got ", '.'),
        ("Comparison of: ", ','),
    ] {
        if let Some(at) = out.find(phrase) {
            let from = at + phrase.len();
            if let Some(len) = out[from..].find(end) {
                out.replace_range(from..from + len, "T");
            }
        }
    }
    if out.chars().count() > 220 {
        out = out.chars().take(220).collect::<String>() + "…";
    }
    out
}

/// The first difference of two canonical catalogs, as (signature part,
/// readable detail).
fn first_catalog_change(a: &str, b: &str) -> (String, String) {
    let parse = |s: &str| serde_json::from_str::<Value>(s).unwrap_or(Value::Null);
    let changes = catalog_diff(&parse(a), &parse(b), &[]);
    match changes.first().map(Reported::of) {
        Some(c) => {
            let ty = c.resource.split('[').next().unwrap_or("");
            let kind = match c.kind {
                ChangeKind::Added => "only-pverify",
                ChangeKind::Removed => "only-puppet",
                ChangeKind::Changed => "changed",
            };
            let param = c.parameter.clone().unwrap_or_default();
            let sig = format!("{kind} {ty} {param}");
            let show = |v: &Option<Value>| {
                v.as_ref().map_or("-".to_string(), |v| {
                    v.to_string().chars().take(300).collect()
                })
            };
            let detail = format!(
                "{kind} {} {param}: puppet {} | pverify {}",
                c.resource,
                show(&c.expected),
                show(&c.actual)
            );
            (sig, detail)
        }
        None => {
            // Same content, another order.
            let line = a
                .lines()
                .zip(b.lines())
                .find(|(x, y)| x != y)
                .map(|(x, y)| format!("{} | {}", x.trim(), y.trim()))
                .unwrap_or_default();
            ("order".into(), format!("order: {line}"))
        }
    }
}

/// A disagreement's one-line signature (duplicates share it) and detail.
fn signature(kind: Kind, theirs: &Expect, ours: &Expect) -> (String, String) {
    let err = |e: &Expect| match e {
        Expect::Error(t) => t.clone(),
        _ => String::new(),
    };
    match kind {
        Kind::Agree => ("agree".into(), String::new()),
        Kind::CatalogDiffers => {
            let (Expect::Catalog(a), Expect::Catalog(b)) = (theirs, ours) else {
                return (kind.name().into(), String::new());
            };
            let (sig, detail) = first_catalog_change(a, b);
            (format!("{}: {sig}", kind.name()), detail)
        }
        Kind::ErrorTextDiffers => (
            format!(
                "{}: puppet `{}` | pverify `{}`",
                kind.name(),
                mask(&err(theirs)),
                mask(&err(ours))
            ),
            format!("puppet: {}\npverify: {}", err(theirs), err(ours)),
        ),
        Kind::OnlyPverifyFails => (
            format!("{}: `{}`", kind.name(), mask(&err(ours))),
            format!("pverify: {}", err(ours)),
        ),
        Kind::OnlyPuppetFails => (
            format!("{}: `{}`", kind.name(), mask(&err(theirs))),
            format!("puppet: {}", err(theirs)),
        ),
    }
}

/// A disagreement found by the run.
struct Found {
    index: u64,
    kind: Kind,
    sig: String,
    detail: String,
    env: Env,
    /// Puppet's result.
    theirs: Expect,
}

pub fn run(args: &[String]) -> Result<(), String> {
    let o = parse_args(args)?;
    if let Some(i) = o.show {
        let mut cov = gen::Coverage::new();
        let env = gen::generate(o.seed, i, &mut cov);
        print!(
            "{}",
            write_case(&to_case(&env, &format!("s{}-{i}", o.seed)))
        );
        return Ok(());
    }
    let known: Vec<String> = match &o.known {
        Some(p) => std::fs::read_to_string(p)
            .map_err(|e| format!("{}: {e}", p.display()))?
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(|l| match l.split_once(" | ") {
                Some((sig, reason)) if !reason.trim().is_empty() => Ok(sig.trim().to_string()),
                _ => Err(format!(
                    "{}: `{l}`: expected `SIGNATURE SUBSTRING | reason`",
                    p.display()
                )),
            })
            .collect::<Result<_, _>>()?,
        None => Vec::new(),
    };
    let puppet = Reference::locate(o.puppet)?;
    eprintln!("difffuzz: against {}", puppet.describe());
    let started = Instant::now();
    let mut cov = gen::Coverage::new();
    let mut runner = Runner::new(puppet)?;
    let mut counts: BTreeMap<Kind, usize> = BTreeMap::new();
    let mut found: Vec<Found> = Vec::new();
    let mut unparsable = 0;
    let mut i = 0;
    while i < o.count {
        let n = (o.count - i).min(o.batch as u64);
        let envs: Vec<Env> = (i..i + n)
            .map(|k| gen::generate(o.seed, k, &mut cov))
            .collect();
        for e in &envs {
            if !parses(e) {
                unparsable += 1;
            }
        }
        let results = runner.run(&envs)?;
        for (k, (env, (theirs, ours))) in envs.into_iter().zip(results).enumerate() {
            let kind = classify(&theirs, &ours);
            *counts.entry(kind).or_default() += 1;
            if kind != Kind::Agree {
                let (sig, detail) = signature(kind, &theirs, &ours);
                found.push(Found {
                    index: i + k as u64,
                    kind,
                    sig,
                    detail,
                    env,
                    theirs,
                });
            }
        }
        i += n;
        eprintln!(
            "difffuzz: {i}/{} compiled ({:.1} s), {} disagreements so far",
            o.count,
            started.elapsed().as_secs_f64(),
            found.len()
        );
    }
    let gen_secs = started.elapsed().as_secs_f64();

    // Group by signature.
    let mut groups: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (n, f) in found.iter().enumerate() {
        groups.entry(f.sig.clone()).or_default().push(n);
    }

    // Reduce one disagreement per group and write the candidates.
    let mut summary = String::new();
    let mut reduced_count = 0;
    if !found.is_empty() {
        std::fs::create_dir_all(&o.out).map_err(|e| format!("{}: {e}", o.out.display()))?;
    }
    // The most frequent groups first (they are reduced while the limit lasts).
    let mut ordered: Vec<(&String, &Vec<usize>)> = groups.iter().collect();
    ordered.sort_by_key(|(_, m)| std::cmp::Reverse(m.len()));
    for (sig, members) in ordered {
        let f = &found[members[0]];
        let name = format!("{}-s{}-{}", f.kind.name(), o.seed, f.index);
        let mut env = f.env.clone();
        let mut note = String::new();
        if o.reduce && reduced_count < o.reduce_limit {
            reduced_count += 1;
            let before = reduce::sites(&env);
            let t = Instant::now();
            let mut failed = None;
            let (small, rounds) =
                reduce::reduce(&env, 32, 40, &mut |cands| match runner.run(cands) {
                    Ok(r) => r
                        .iter()
                        .map(|(a, b)| {
                            let k = classify(a, b);
                            k == f.kind && signature(k, a, b).0 == *sig
                        })
                        .collect(),
                    Err(e) => {
                        failed = Some(e);
                        vec![false; cands.len()]
                    }
                });
            if let Some(e) = failed {
                eprintln!("difffuzz: reducing {name}: {}", first_line(&e));
            }
            let _ = write!(
                note,
                " (reduced from {before} to {} sites in {rounds} batches, {:.1} s)",
                reduce::sites(&small),
                t.elapsed().as_secs_f64()
            );
            env = small;
        }
        // Puppet's result on the final environment is the expectation.
        let (theirs, detail) = if note.is_empty() {
            (f.theirs.clone(), f.detail.clone())
        } else {
            let r = runner.run(std::slice::from_ref(&env))?;
            let (theirs, ours) = &r[0];
            let (_, detail) = signature(classify(theirs, ours), theirs, ours);
            (theirs.clone(), detail)
        };
        let mut case = to_case(&env, &name);
        case.spec = vec!["difffuzz".into()];
        case.description = format!("difffuzz seed {} #{}: {sig}", o.seed, f.index)
            .chars()
            .take(400)
            .collect();
        case.expect = Versioned::both(theirs);
        let path = o.out.join(format!("{name}.case"));
        std::fs::write(&path, write_case(&case)).map_err(|e| format!("{}: {e}", path.display()))?;
        let is_known = known.iter().any(|k| sig.contains(k.as_str()));
        let _ = writeln!(
            summary,
            "{}{sig}\n    {} occurrence(s); {}{note}\n    reduced: {}\n    first found: {}",
            if is_known { "[known] " } else { "" },
            members.len(),
            path.display(),
            detail.replace('\n', "\n    "),
            f.detail.replace('\n', "\n    ")
        );
    }

    // Report.
    let total = started.elapsed().as_secs_f64();
    println!(
        "difffuzz: seed {}, {} environments in {gen_secs:.1} s ({:.1}/s; Puppet+pverify batches {:.1} s, pverify alone {:.2} s), total with reduction {total:.1} s",
        o.seed,
        o.count,
        o.count as f64 / gen_secs.max(0.001),
        runner.puppet_secs,
        runner.pverify_secs
    );
    if unparsable > 0 {
        println!("  {unparsable} generated environment(s) do not parse with pverify");
    }
    for k in [
        Kind::Agree,
        Kind::CatalogDiffers,
        Kind::ErrorTextDiffers,
        Kind::OnlyPverifyFails,
        Kind::OnlyPuppetFails,
    ] {
        println!(
            "  {:<20} {}",
            k.name(),
            counts.get(&k).copied().unwrap_or(0)
        );
    }
    println!("constructs generated:");
    let mut line = String::new();
    for (name, n) in &cov {
        let item = format!("{name}={n}  ");
        if line.len() + item.len() > 100 {
            println!("  {}", line.trim_end());
            line.clear();
        }
        line.push_str(&item);
    }
    if !line.is_empty() {
        println!("  {}", line.trim_end());
    }
    if !groups.is_empty() {
        println!(
            "disagreements, grouped by signature ({} groups):",
            groups.len()
        );
        print!("{summary}");
        let sum_path = o.out.join(format!("summary-s{}.txt", o.seed));
        std::fs::write(&sum_path, &summary).map_err(|e| format!("{}: {e}", sum_path.display()))?;
        println!("summary written to {}", sum_path.display());
    }
    let unknown = groups
        .keys()
        .filter(|s| !known.iter().any(|k| s.contains(k.as_str())))
        .count();
    if let Some(min) = o.min_agree {
        let agree = counts.get(&Kind::Agree).copied().unwrap_or(0);
        let rate = 100.0 * agree as f64 / (o.count.max(1) as f64);
        println!("difffuzz: {rate:.1} % agree ({unknown} group(s) not in the known list); at least {min} % required");
        return if rate < min {
            Err(format!(
                "only {rate:.1} % of the environments agree with Puppet, below {min} %"
            ))
        } else {
            Ok(())
        };
    }
    if unknown > 0 && !o.allow {
        return Err(format!(
            "{} disagreement(s) in {unknown} new group(s) (--allow-disagreements to exit 0; --known FILE lists signature substrings to accept)",
            found.len()
        ));
    }
    Ok(())
}

/// Whether every manifest of the environment parses with pverify.
fn parses(env: &Env) -> bool {
    env.render()
        .iter()
        .all(|(p, text)| !p.ends_with(".pp") || puppet_syntax::parse(p, text.as_bytes()).is_ok())
}

#[cfg(test)]
mod tests;
