//! `cargo xtask same-catalogs [--base REV] [--pverify-new PATH]
//! [--pverify-base PATH] [--jobs N]`: proves that two pverify binaries make
//! byte-identical catalogs (or error texts) for every node of the bundled
//! control repos (`tests/fixtures/*/pverify.yaml`) and every spec-suite case
//! (`spec-suite/**/*.case`). Meant for refactorings that must not change
//! behaviour: the base binary is built from the last commit before the
//! change, the new one from the working tree.
//!
//! Only the command line of pverify is used, as it is at ff18754, so that any
//! revision since can be the base:
//!
//! - A control repo is compiled with `pverify bless` against a copy of its
//!   `pverify.yaml` whose goldens go to an empty directory: each node's
//!   golden is its catalog in canonical form, exactly the text `pverify
//!   check` compares. Nodes that fail to compile get no golden; their error
//!   text is taken from `pverify check --format json` (the report's `actual`).
//! - A spec-suite case is written out as a one-node control repo: its files
//!   as the environment directory, its `case.yaml` (node, fact set, facts,
//!   trusted, classes, parameters, settings, environment) as the node matrix.
//!   `check` compiles a node the way `pverify run` compiles a case
//!   (`harness::node_for`); the one difference, the modulepath's
//!   `$basemodulepath` (`run` makes it empty, so that no module installed on
//!   the machine leaks into a case), is reproduced by giving the config the
//!   modulepath `run` would use. So the result is the catalog or error text
//!   `pverify run` compares with the case's expectation.
//!
//! The inputs are the working tree's (fixtures, fact sets, cases), the same
//! for both binaries, written to the same paths for both, so that a path in
//! a catalog cannot differ. Warnings are not compared (neither `bless` nor
//! `check` reports them).
//!
//! Everything lives under `<target dir>/same-catalogs/`: `base-<commit>/pverify`
//! (the base binary, built once per commit in a temporary git worktree
//! `src-<commit>` with its own target dir `base-target`), `work/` (the
//! generated repos) and `out/{base,new}/<group>/<name>.{json,error}` (every
//! catalog and error text, for diffing by hand).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use crate::git::git;
use serde_json::{json, Map, Value};

const USAGE: &str = "usage: cargo xtask same-catalogs [--base REV] [--pverify-new PATH] [--pverify-base PATH] [--jobs N]

Compiles every node of tests/fixtures/*/pverify.yaml and every spec-suite case
with two pverify binaries and compares the catalogs (canonical form) and error
texts byte for byte; exits 1 on any difference.

  --base REV           the revision to build the base binary from (default: the
                       merge-base of HEAD and main); built once per commit
  --pverify-base PATH  use this binary as the base instead of building one
  --pverify-new PATH   use this binary as the new side instead of building the
                       working tree's (`cargo build --release --bin pverify`)
  --jobs N             parallel compiles (default: all cores)";

/// Differences printed in full; the rest are counted.
const SHOWN_DIFFERENCES: usize = 100;

/// What a binary made of one node or case.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Outcome {
    /// The catalog file's bytes (canonical form and a final newline).
    Catalog(Vec<u8>),
    /// The error text.
    Error(String),
}

/// Results by node id or case name.
type Results = BTreeMap<String, Outcome>;

struct Options {
    base: Option<String>,
    pverify_base: Option<PathBuf>,
    pverify_new: Option<PathBuf>,
    jobs: usize,
}

fn parse_args(args: &[String]) -> Result<Option<Options>, String> {
    let mut o = Options {
        base: None,
        pverify_base: None,
        pverify_new: None,
        jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{name} needs a value\n{USAGE}"))
        };
        match a.as_str() {
            "--base" => o.base = Some(value("--base")?),
            "--pverify-base" => o.pverify_base = Some(PathBuf::from(value("--pverify-base")?)),
            "--pverify-new" => o.pverify_new = Some(PathBuf::from(value("--pverify-new")?)),
            "--jobs" => {
                let v = value("--jobs")?;
                o.jobs = v
                    .parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or_else(|| format!("--jobs '{v}': expected a positive number"))?;
            }
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(None);
            }
            _ => return Err(format!("unknown argument '{a}'\n{USAGE}")),
        }
    }
    if o.base.is_some() && o.pverify_base.is_some() {
        return Err("give --base or --pverify-base, not both".into());
    }
    Ok(Some(o))
}

pub fn run(args: &[String]) -> Result<(), String> {
    let Some(opts) = parse_args(args)? else {
        return Ok(());
    };
    let start = Instant::now();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .ok_or("cannot locate the workspace root")?
        .to_path_buf();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let home = target_dir(&cargo, &root)?.join("same-catalogs");
    mkdir(&home)?;

    let (base_bin, base_label) = match &opts.pverify_base {
        Some(p) => (existing_binary(p)?, p.display().to_string()),
        None => {
            let rev = match &opts.base {
                Some(r) => r.clone(),
                None => default_base(&root)?,
            };
            let commit = git(
                &root,
                &["rev-parse", "--verify", &format!("{rev}^{{commit}}")],
            )?;
            let (bin, cached) = base_binary(&cargo, &root, &home, &commit)?;
            let short = &commit[..commit.len().min(10)];
            let how = if cached { "cached" } else { "built" };
            (bin, format!("{rev} = {short} ({how})"))
        }
    };
    let (new_bin, new_label) = match &opts.pverify_new {
        Some(p) => (existing_binary(p)?, p.display().to_string()),
        None => {
            let bin = new_binary(&cargo, &root)?;
            let head = git(&root, &["rev-parse", "--short=10", "HEAD"])?;
            let tree = if dirty(&root)? {
                " + uncommitted changes"
            } else {
                ""
            };
            (bin, format!("working tree ({head}{tree})"))
        }
    };
    println!("base: {base_label}: {}", base_bin.display());
    println!("new:  {new_label}: {}", new_bin.display());
    let sides = [Side::new("base", base_bin), Side::new("new", new_bin)];

    let work = home.join("work");
    let out = home.join("out");
    for d in [&work, &out] {
        remove_dir(d)?;
        mkdir(d)?;
    }

    let mut groups: Vec<(String, String, [Results; 2])> = Vec::new();
    for (name, dir) in control_repos(&root)? {
        let wrapper = work.join(&name);
        wrap_control_repo(&dir, &wrapper)?;
        let mut results: [Results; 2] = Default::default();
        for (side, r) in sides.iter().zip(results.iter_mut()) {
            *r = side.compile_repo(&wrapper, opts.jobs)?;
        }
        groups.push((name, "nodes".into(), results));
    }
    let suite = run_suite(&root, &work.join("spec-suite"), &sides, opts.jobs)?;
    groups.push(("spec-suite".into(), "cases".into(), suite));

    let mut differences = Vec::new();
    for (group, unit, results) in &groups {
        for (side, r) in sides.iter().zip(results) {
            write_results(&out.join(side.name).join(group), r)?;
        }
        let (summary, diffs) = compare(group, unit, &results[0], &results[1]);
        println!("{summary}");
        differences.extend(diffs);
    }
    for d in differences.iter().take(SHOWN_DIFFERENCES) {
        println!("{d}");
    }
    if differences.len() > SHOWN_DIFFERENCES {
        println!(
            "... and {} more differences",
            differences.len() - SHOWN_DIFFERENCES
        );
    }
    println!(
        "catalogs and errors: {}/{{base,new}}/<group>/",
        out.display()
    );
    let took = start.elapsed().as_secs_f64();
    if differences.is_empty() {
        println!("all identical ({took:.0}s)");
        Ok(())
    } else {
        Err(format!(
            "{} node(s) or case(s) differ ({took:.0}s)",
            differences.len()
        ))
    }
}

/// The merge-base of HEAD and main: the commit a branch forked from, or,
/// on main with uncommitted changes, HEAD. A clean tree at that commit would
/// only be compared with itself, so then a base must be given.
fn default_base(root: &Path) -> Result<String, String> {
    let base = git(root, &["merge-base", "HEAD", "main"])
        .map_err(|e| format!("no default base ({e}); give --base REV"))?;
    let head = git(root, &["rev-parse", "HEAD"])?;
    if base == head && !dirty(root)? {
        return Err(
            "the merge-base of HEAD and main is HEAD and nothing is changed: \
             give --base REV (the last commit before the change)"
                .into(),
        );
    }
    Ok(base)
}

/// Whether the working tree differs from HEAD (untracked files included).
fn dirty(root: &Path) -> Result<bool, String> {
    Ok(!git(root, &["status", "--porcelain"])?.is_empty())
}

/// Cargo's target directory for the workspace (honours `CARGO_TARGET_DIR`
/// and `build.target-dir`).
fn target_dir(cargo: &str, root: &Path) -> Result<PathBuf, String> {
    let out = Command::new(cargo)
        .current_dir(root)
        .args(["metadata", "--format-version", "1", "--no-deps"])
        .output()
        .map_err(|e| format!("cannot run {cargo}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "cargo metadata: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    let meta: Value =
        serde_json::from_slice(&out.stdout).map_err(|e| format!("cargo metadata: {e}"))?;
    meta["target_directory"]
        .as_str()
        .map(PathBuf::from)
        .ok_or_else(|| "cargo metadata: no target_directory".into())
}

fn existing_binary(p: &Path) -> Result<PathBuf, String> {
    if !p.is_file() {
        return Err(format!("{}: no such file", p.display()));
    }
    std::path::absolute(p).map_err(|e| format!("{}: {e}", p.display()))
}

/// The base binary of `commit`: `home/base-<commit>/pverify`, built first
/// if it is not there (in a git worktree `home/src-<commit>`, removed
/// afterwards, with the target dir `home/base-target` kept for the next
/// commit). Returns it and whether it was already there.
fn base_binary(
    cargo: &str,
    root: &Path,
    home: &Path,
    commit: &str,
) -> Result<(PathBuf, bool), String> {
    let cached = home.join(format!("base-{commit}")).join("pverify");
    if cached.is_file() {
        return Ok((cached, true));
    }
    let src = home.join(format!("src-{commit}"));
    let src_arg = src.to_string_lossy().into_owned();
    if src.exists() {
        // Left by an interrupted run.
        let _ = git(root, &["worktree", "remove", "--force", &src_arg]);
        remove_dir(&src)?;
        let _ = git(root, &["worktree", "prune"]);
    }
    eprintln!(
        "building the base pverify at {commit} (in {})",
        src.display()
    );
    git(root, &["worktree", "add", "--detach", &src_arg, commit])?;
    let target = home.join("base-target");
    let status = Command::new(cargo)
        .current_dir(&src)
        .env("CARGO_TARGET_DIR", &target)
        .args(["build", "--release", "--bin", "pverify"])
        .status()
        .map_err(|e| format!("cannot run {cargo}: {e}"));
    let built = target.join("release").join("pverify");
    let result = match status {
        Ok(s) if s.success() && built.is_file() => {
            let dir = cached.parent().unwrap_or(home);
            mkdir(dir)?;
            // Copied under a temporary name and renamed: a half-copied binary
            // is never taken for a cached one.
            let tmp = dir.join("pverify.tmp");
            std::fs::copy(&built, &tmp)
                .and_then(|_| std::fs::rename(&tmp, &cached))
                .map_err(|e| format!("{}: {e}", cached.display()))
        }
        Ok(_) => Err(format!("building pverify at {commit} failed")),
        Err(e) => Err(e),
    };
    if let Err(e) = git(root, &["worktree", "remove", "--force", &src_arg]) {
        eprintln!("warning: {e}");
    }
    result.map(|()| (cached, false))
}

/// The working tree's release binary, built (or brought up to date) first.
fn new_binary(cargo: &str, root: &Path) -> Result<PathBuf, String> {
    let status = Command::new(cargo)
        .current_dir(root)
        .args(["build", "--release", "--bin", "pverify"])
        .status()
        .map_err(|e| format!("cannot run {cargo}: {e}"))?;
    if !status.success() {
        return Err("building the working tree's pverify failed".into());
    }
    let bin = target_dir(cargo, root)?.join("release").join("pverify");
    existing_binary(&bin)
}

/// One pverify binary.
struct Side {
    name: &'static str,
    bin: PathBuf,
}

impl Side {
    fn new(name: &'static str, bin: PathBuf) -> Side {
        Side { name, bin }
    }

    /// Compiles every node of the control repo `dir` (whose config sends
    /// goldens to `dir/golden`): the catalogs `bless` writes, and for the
    /// nodes that fail, the error `check` reports. A setup error (pverify
    /// exits 2: bad config, environment that does not boot) is the result of
    /// a node named `(setup)`.
    fn compile_repo(&self, dir: &Path, jobs: usize) -> Result<Results, String> {
        let golden = dir.join("golden");
        remove_dir(&golden)?;
        let jobs = jobs.to_string();
        let bless = self.pverify(&["bless", &dir.to_string_lossy(), "--jobs", &jobs])?;
        let mut results = Results::new();
        match bless.status.code() {
            Some(0 | 1) => {}
            // A setup error: 3, or 2 in a base revision from before the
            // one exit-code scheme.
            Some(2 | 3) => {
                let text = String::from_utf8_lossy(&bless.stderr);
                let text = text.trim_end();
                let text = text.strip_prefix("pverify bless: ").unwrap_or(text);
                results.insert("(setup)".into(), Outcome::Error(text.to_string()));
                return Ok(results);
            }
            _ => {
                results.insert("(crash)".into(), Outcome::Error(crash_text(&bless)));
                return Ok(results);
            }
        }
        if let Ok(entries) = std::fs::read_dir(&golden) {
            for e in entries.flatten() {
                let name = e.file_name().to_string_lossy().into_owned();
                if let Some(id) = name.strip_suffix(".json") {
                    let bytes = std::fs::read(e.path()).map_err(|e| format!("{name}: {e}"))?;
                    results.insert(id.to_string(), Outcome::Catalog(bytes));
                }
            }
        }
        if bless.status.success() {
            return Ok(results);
        }
        // Some node failed: the goldens of the others are written now, so
        // `check` fails exactly the nodes that do not compile.
        let check = self.pverify(&[
            "check",
            &dir.to_string_lossy(),
            "--jobs",
            &jobs,
            "--format",
            "json",
        ])?;
        let report: Value = match serde_json::from_slice(&check.stdout) {
            Ok(v) => v,
            Err(_) => {
                results.insert("(crash)".into(), Outcome::Error(crash_text(&check)));
                return Ok(results);
            }
        };
        for item in report["items"].as_array().into_iter().flatten() {
            let id = item["name"].as_str().unwrap_or_default().to_string();
            let failures = item["failures"].as_array().cloned().unwrap_or_default();
            let compile_error = failures
                .iter()
                .find(|f| f["message"] == "the node failed to compile");
            match (compile_error, results.contains_key(&id)) {
                (Some(f), false) => {
                    let text = f["actual"].as_str().unwrap_or_default().to_string();
                    results.insert(id, Outcome::Error(text));
                }
                (None, true) if failures.is_empty() => {}
                _ => {
                    // bless and check disagree: the compile is not
                    // deterministic, which is a finding in itself.
                    results.insert(
                        id,
                        Outcome::Error(format!(
                            "(unstable: bless and check disagree) {}",
                            Value::Array(failures)
                        )),
                    );
                }
            }
        }
        Ok(results)
    }

    fn pverify(&self, args: &[&str]) -> Result<std::process::Output, String> {
        Command::new(&self.bin)
            .args(args)
            .env("NO_COLOR", "1")
            .output()
            .map_err(|e| format!("cannot run {}: {e}", self.bin.display()))
    }
}

/// What to say about a run that did not exit normally.
fn crash_text(out: &std::process::Output) -> String {
    format!(
        "pverify did not finish ({}): {}",
        out.status,
        String::from_utf8_lossy(&out.stderr).trim()
    )
}

/// The bundled control repos: every `tests/fixtures/*/pverify.yaml`, by name.
fn control_repos(root: &Path) -> Result<Vec<(String, PathBuf)>, String> {
    let fixtures = root.join("tests/fixtures");
    let entries =
        std::fs::read_dir(&fixtures).map_err(|e| format!("{}: {e}", fixtures.display()))?;
    let mut out: Vec<(String, PathBuf)> = entries
        .flatten()
        .filter(|e| e.path().join("pverify.yaml").is_file())
        .map(|e| (e.file_name().to_string_lossy().into_owned(), e.path()))
        .collect();
    out.sort();
    if out.is_empty() {
        return Err(format!("no {}/*/pverify.yaml", fixtures.display()));
    }
    Ok(out)
}

/// Writes `wrapper/pverify.yaml`: the repo's config with every path that is
/// relative to the config's directory made absolute, and the goldens sent
/// to `wrapper/golden`. The environment is the repo's own, so catalogs and
/// errors are those `pverify check` makes of it.
fn wrap_control_repo(repo: &Path, wrapper: &Path) -> Result<(), String> {
    use serde_json::Value as Y;
    let path = repo.join("pverify.yaml");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut config: Y =
        puppet_model::yaml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let repo = std::fs::canonicalize(repo).map_err(|e| format!("{}: {e}", repo.display()))?;
    let Y::Object(m) = &mut config else {
        return Err(format!("{}: not a mapping", path.display()));
    };
    let abs = |v: &str| {
        let p = if v == "." { repo.clone() } else { repo.join(v) };
        Y::from(p.to_string_lossy().into_owned())
    };
    let environment = m
        .get("environment")
        .and_then(Y::as_str)
        .unwrap_or(".")
        .to_string();
    m.insert("environment".into(), abs(&environment));
    let factsets = m
        .get("factsets")
        .and_then(Y::as_str)
        .unwrap_or("factsets")
        .to_string();
    m.insert("factsets".into(), abs(&factsets));
    if let Some(mocks) = m.get("mocks").and_then(Y::as_str).map(str::to_string) {
        m.insert("mocks".into(), abs(&mocks));
    }
    if let Some(Y::Array(files)) = m.get_mut("nodes").and_then(|n| n.get_mut("files")) {
        for f in files.iter_mut() {
            if let Some(s) = f.as_str().map(str::to_string) {
                *f = abs(&s);
            }
        }
    }
    m.insert("golden".into(), "golden".into());
    // JSON is YAML: pverify.yaml is read by the Psych reader, which takes it.
    let text = serde_json::to_string_pretty(&config).map_err(|e| e.to_string())?;
    mkdir(wrapper)?;
    write(&wrapper.join("pverify.yaml"), text.as_bytes())
}

/// Compiles every spec-suite case with both sides, `jobs` cases at a time;
/// each case is written once, to the same place for both.
fn run_suite(
    root: &Path,
    work: &Path,
    sides: &[Side; 2],
    jobs: usize,
) -> Result<[Results; 2], String> {
    let suite = root.join("spec-suite");
    let mut paths = Vec::new();
    find_cases(&suite, &mut paths).map_err(|e| format!("{}: {e}", suite.display()))?;
    paths.sort();
    if paths.is_empty() {
        return Err(format!("no *.case files in {}", suite.display()));
    }
    let factsets = root.join("tests/fixtures/factsets");
    let next = AtomicUsize::new(0);
    let results: Mutex<[Results; 2]> = Mutex::default();
    let failure: Mutex<Option<String>> = Mutex::default();
    std::thread::scope(|s| {
        for _ in 0..jobs.min(paths.len()) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= paths.len() || failure.lock().is_ok_and(|f| f.is_some()) {
                    break;
                }
                let path = &paths[i];
                let name = case_name(&suite, path);
                let done = write_case_repo(path, &work.join(&name), &factsets).and_then(|dir| {
                    let mut got = Vec::new();
                    for side in sides {
                        let r = side.compile_repo(&dir, 1)?;
                        got.push(one_result(r));
                    }
                    Ok(got)
                });
                match done {
                    Ok(got) => {
                        let mut all = results.lock().unwrap_or_else(|e| e.into_inner());
                        for (r, o) in all.iter_mut().zip(got) {
                            r.insert(name.clone(), o);
                        }
                    }
                    Err(e) => {
                        let mut f = failure.lock().unwrap_or_else(|e| e.into_inner());
                        f.get_or_insert(format!("{name}: {e}"));
                    }
                }
            });
        }
    });
    if let Some(e) = failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    Ok(results.into_inner().unwrap_or_else(|e| e.into_inner()))
}

/// The single node's result of a one-node repo.
fn one_result(r: Results) -> Outcome {
    let n = r.len();
    match r.into_values().next() {
        Some(o) if n == 1 => o,
        _ => Outcome::Error(format!("(expected one result, got {n})")),
    }
}

fn find_cases(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let p = entry?.path();
        if p.is_dir() {
            find_cases(&p, out)?;
        } else if p.extension().is_some_and(|x| x == "case") {
            out.push(p);
        }
    }
    Ok(())
}

/// A case's name: its path below the suite, without `.case`.
fn case_name(suite: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(suite).unwrap_or(path);
    rel.with_extension("").to_string_lossy().into_owned()
}

/// Writes a case as a one-node control repo in `dir` (`dir/<environment>/`
/// holds the case's files) and returns `dir`. The format is the one of
/// `spec-suite/README.md`: `-- NAME --` sections, `case.yaml` first, then the
/// environment's files, then `expect.*` (ignored here).
fn write_case_repo(path: &Path, dir: &Path, factsets: &Path) -> Result<PathBuf, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let sections = sections(&text);
    let Some(("case.yaml", header)) = sections.first().copied() else {
        return Err(format!("{}: no leading `-- case.yaml --`", path.display()));
    };
    let header: Value = puppet_model::yaml::from_str(header)
        .map_err(|e| format!("{}: case.yaml: {e}", path.display()))?;
    let field = |k: &str| header.get(k).filter(|v| !v.is_null()).cloned();
    let environment = field("environment")
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_else(|| "production".into());
    let env_dir = dir.join(&environment);
    let mut conf = String::new();
    for &(name, body) in &sections[1..] {
        if name.starts_with("expect.") {
            continue;
        }
        if name
            .split('/')
            .any(|c| c.is_empty() || c == "." || c == "..")
        {
            return Err(format!("{}: bad file name '{name}'", path.display()));
        }
        let file = env_dir.join(name);
        if let Some(parent) = file.parent() {
            mkdir(parent)?;
        }
        write(&file, body.as_bytes())?;
        if name == "environment.conf" {
            conf = body.to_string();
        }
    }
    mkdir(&env_dir)?;

    let mut entry = Map::new();
    let node = field("node").ok_or_else(|| format!("{}: no `node`", path.display()))?;
    entry.insert("names".into(), json!([node]));
    if let Some(fs) = field("factset") {
        entry.insert("factsets".into(), json!([fs]));
    }
    for key in ["facts", "trusted", "classes", "parameters"] {
        if let Some(v) = field(key) {
            entry.insert(key.into(), v);
        }
    }
    let mut config = json!({
        "environment": environment,
        "environment_name": environment,
        "modulepath": run_modulepath(&conf),
        "factsets": factsets.to_string_lossy(),
        "golden": "golden",
        "nodes": {"matrix": [entry]},
    });
    if let Some(s) = field("settings") {
        config["settings"] = s;
    }
    // JSON is YAML: no quoting rules to get wrong.
    let text = serde_json::to_string_pretty(&config).map_err(|e| e.to_string())?;
    write(&dir.join("pverify.yaml"), text.as_bytes())?;
    Ok(dir.to_path_buf())
}

/// The modulepath `pverify run` boots a case's environment with: the
/// `modulepath` of its `environment.conf` (default `modules:$basemodulepath`)
/// with `$basemodulepath` empty, as pverify's loader reads the file.
fn run_modulepath(conf: &str) -> Vec<String> {
    let mut setting = "modules:$basemodulepath".to_string();
    for line in conf.lines() {
        let line = line.trim();
        if line.starts_with(['#', ';', '[']) {
            continue;
        }
        if let Some((k, v)) = line.split_once('=') {
            if k.trim() == "modulepath" {
                setting = v.trim().to_string();
            }
        }
    }
    setting
        .replace("$basemodulepath", "")
        .split(':')
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

/// A case file's `-- NAME --` sections: names and bodies (each line with its
/// newline). Text before the first marker is dropped.
fn sections(text: &str) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    let mut open: Option<(&str, usize)> = None;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let bare = line.strip_suffix('\n').unwrap_or(line);
        let bare = bare.strip_suffix('\r').unwrap_or(bare);
        let marker = bare
            .strip_prefix("-- ")
            .and_then(|l| l.strip_suffix(" --"))
            .map(str::trim)
            .filter(|n| !n.is_empty());
        if let Some(name) = marker {
            if let Some((prev, from)) = open {
                out.push((prev, &text[from..offset]));
            }
            open = Some((name, offset + line.len()));
        }
        offset += line.len();
    }
    if let Some((name, from)) = open {
        out.push((name, &text[from..]));
    }
    out
}

/// Writes each result as `<name>.json` (a catalog) or `<name>.error`.
fn write_results(dir: &Path, results: &Results) -> Result<(), String> {
    for (name, outcome) in results {
        let (ext, bytes) = match outcome {
            Outcome::Catalog(b) => ("json", b.as_slice()),
            Outcome::Error(e) => ("error", e.as_bytes()),
        };
        let file = dir.join(format!("{name}.{ext}"));
        if let Some(parent) = file.parent() {
            mkdir(parent)?;
        }
        write(&file, bytes)?;
    }
    Ok(())
}

/// The group's summary line and one line per difference.
fn compare(group: &str, unit: &str, base: &Results, new: &Results) -> (String, Vec<String>) {
    let mut names: Vec<&String> = base.keys().chain(new.keys()).collect();
    names.sort();
    names.dedup();
    let (mut same, mut catalogs, mut errors) = (0, 0, 0);
    let mut diffs = Vec::new();
    for name in &names {
        match (base.get(*name), new.get(*name)) {
            (Some(a), Some(b)) if a == b => same += 1,
            (a, b) => diffs.push(format!("DIFFERS {group}/{name}: {}", describe(a, b))),
        }
        match base.get(*name) {
            Some(Outcome::Catalog(_)) => catalogs += 1,
            Some(Outcome::Error(_)) => errors += 1,
            None => {}
        }
    }
    let summary = format!(
        "{group}: {} {unit}, {same} identical (base: {catalogs} catalogs, {errors} errors)",
        names.len()
    );
    (summary, diffs)
}

/// Where two results part: the first differing line of two catalogs or two
/// errors, else what each side made.
fn describe(base: Option<&Outcome>, new: Option<&Outcome>) -> String {
    let kind = |o: Option<&Outcome>| match o {
        None => "nothing".to_string(),
        Some(Outcome::Catalog(_)) => "a catalog".to_string(),
        Some(Outcome::Error(e)) => format!("error {:?}", first_line(e)),
    };
    match (base, new) {
        (Some(Outcome::Catalog(a)), Some(Outcome::Catalog(b))) => {
            first_difference(&String::from_utf8_lossy(a), &String::from_utf8_lossy(b))
        }
        (Some(Outcome::Error(a)), Some(Outcome::Error(b))) => {
            format!("error text, {}", first_difference(a, b))
        }
        _ => format!("base made {}, new made {}", kind(base), kind(new)),
    }
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}

/// `line N: base "..." / new "..."` for the first line that differs.
fn first_difference(a: &str, b: &str) -> String {
    let (mut la, mut lb) = (a.split_inclusive('\n'), b.split_inclusive('\n'));
    let mut n = 1;
    loop {
        match (la.next(), lb.next()) {
            (Some(x), Some(y)) if x == y => n += 1,
            (None, None) => return "same lines, different bytes".into(),
            (x, y) => {
                let show = |l: Option<&str>| match l {
                    Some(l) => format!("{l:?}"),
                    None => "(end)".into(),
                };
                return format!("line {n}: base {} / new {}", show(x), show(y));
            }
        }
    }
}

fn mkdir(dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))
}

fn remove_dir(dir: &Path) -> Result<(), String> {
    match std::fs::remove_dir_all(dir) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(format!("{}: {e}", dir.display()))
        }
        _ => Ok(()),
    }
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), String> {
    std::fs::write(path, bytes).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modulepath_as_run_boots_it() {
        assert_eq!(run_modulepath(""), ["modules"]);
        assert_eq!(
            run_modulepath("# c\nmodulepath = site:modules:$basemodulepath\n"),
            ["site", "modules"]
        );
        assert_eq!(
            run_modulepath("modulepath = modules:/usr/share/puppet/modules\n"),
            ["modules", "/usr/share/puppet/modules"]
        );
    }

    #[test]
    fn sections_keep_bodies_verbatim() {
        let s = sections("-- case.yaml --\nnode: n\n-- a/b.pp --\nx\n\n-- expect.error --\ne\n");
        assert_eq!(
            s,
            [
                ("case.yaml", "node: n\n"),
                ("a/b.pp", "x\n\n"),
                ("expect.error", "e\n")
            ]
        );
    }

    #[test]
    fn first_difference_names_the_line() {
        assert_eq!(
            first_difference("a\nb\nc\n", "a\nB\nc\n"),
            "line 2: base \"b\\n\" / new \"B\\n\""
        );
        assert_eq!(
            first_difference("a\n", "a\nb\n"),
            "line 2: base (end) / new \"b\\n\""
        );
    }
}
