//! Per-node budgets (docs/safety.md): in every command that compiles, a run
//! of four nodes — one looping forever, one allocating without end, one
//! recursing deeply and one good — ends within the time budget with three
//! failures, one catalog and a complete report.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use serde_json::Value;

/// The time budget of each node (`--node-timeout`, `node_timeout:`).
const TIMEOUT_SECS: u64 = 2;
/// The memory budget (`--node-memory`, `node_memory:`).
const MEMORY: &str = "256M";
/// What a whole command may take beyond one node's budget: start-up, the
/// other nodes, a debug build on a loaded two-core CI machine.
const SLACK: Duration = Duration::from_secs(25);

const NODES: [&str; 4] = ["looping", "hungry", "deep", "good"];

/// The looping node hashes 64 KiB again and again: CPU, not memory (each
/// lambda call keeps its scope until the compile ends, so a tight empty
/// loop would meet the memory budget first).
const SITE: &str = r#"node 'looping' {
  $big = sprintf('%065536d', 0)
  100000.each |$i| { 100000.each |$j| { sha256($big) } }
}
node 'hungry' {
  $s = 64.reduce('x') |$m, $i| { "${m}${m}" }
  notify { $s: }
}
node 'deep' {
  notify { String(deep::down(0)): }
}
node 'good' {
  notify { 'fine': }
}
"#;

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn environment(dir: &Path) {
    write(&dir.join("manifests/site.pp"), SITE);
    write(
        &dir.join("modules/deep/functions/down.pp"),
        "function deep::down(Integer $n) { deep::down($n + 1) }\n",
    );
}

fn node_files(dir: &Path) -> Vec<PathBuf> {
    NODES
        .iter()
        .map(|n| {
            let p = dir.join(format!("{n}.json"));
            write(&p, &format!(r#"{{"name": "{n}", "values": {{}}}}"#));
            p
        })
        .collect()
}

fn budget_flags() -> [String; 4] {
    [
        "--node-timeout".into(),
        TIMEOUT_SECS.to_string(),
        "--node-memory".into(),
        MEMORY.into(),
    ]
}

/// Runs pverify, requiring that it end within the budget and its slack
/// and that it exit, not die of a signal.
fn pverify(args: &[&dyn AsRef<std::ffi::OsStr>], cwd: &Path) -> Output {
    let start = Instant::now();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pverify"));
    cmd.current_dir(cwd);
    for a in args {
        cmd.arg(a);
    }
    let out = cmd.output().unwrap();
    let took = start.elapsed();
    assert!(
        took < Duration::from_secs(TIMEOUT_SECS) + SLACK,
        "took {took:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.code().is_some(),
        "killed by a signal: {:?}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Each failing node's error, by node name, is the budget's or Puppet's
/// nesting limit.
fn check_errors(errors: &[(String, String)]) {
    let find = |n: &str| {
        errors
            .iter()
            .find(|(name, _)| name.contains(n))
            .map(|(_, e)| e.as_str())
            .unwrap_or_else(|| panic!("no error for {n}: {errors:?}"))
    };
    assert!(
        find("looping").contains(&format!(
            "the node exceeded its time budget of {TIMEOUT_SECS} s (--node-timeout)"
        )),
        "{errors:?}"
    );
    assert!(
        find("hungry").contains("the node exceeded its memory budget of 256 MiB (--node-memory)"),
        "{errors:?}"
    );
    assert!(find("deep").contains("Too deep nesting"), "{errors:?}");
    assert_eq!(errors.len(), 3, "{errors:?}");
}

#[test]
fn compile_out_dir_reports_every_node() {
    let tmp = tempfile::tempdir().unwrap();
    environment(&tmp.path().join("env"));
    let files = node_files(tmp.path());
    let out_dir = tmp.path().join("out");
    let mut args: Vec<&dyn AsRef<std::ffi::OsStr>> =
        vec![&"compile", &"env", &"--out-dir", &out_dir];
    let flags = budget_flags();
    for f in &flags {
        args.push(f);
    }
    args.push(&"--jobs");
    args.push(&"4");
    args.push(&"--facts");
    for f in &files {
        args.push(f);
    }
    let out = pverify(&args, tmp.path());
    assert_eq!(out.status.code(), Some(1));
    let report: Value =
        serde_json::from_slice(&std::fs::read(out_dir.join("report.json")).unwrap()).unwrap();
    let nodes = report["nodes"].as_array().unwrap();
    assert_eq!(nodes.len(), 4);
    let errors: Vec<(String, String)> = nodes
        .iter()
        .filter(|n| n["status"] == "failed")
        .map(|n| {
            (
                n["name"].as_str().unwrap().to_string(),
                n["error"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    check_errors(&errors);
    assert!(out_dir.join("good.json").is_file());
    assert!(!out_dir.join("looping.json").exists());
}

/// A control repo whose pverify.yaml sets the budgets (bless and check
/// read them from there; the command line wins over them).
fn control_repo(dir: &Path) {
    environment(&dir.join("env"));
    write(
        &dir.join("pverify.yaml"),
        &format!(
            "environment: env\nnode_timeout: {TIMEOUT_SECS}\nnode_memory: {MEMORY}\nnodes:\n  matrix:\n    - names: [looping, hungry, deep, good]\n"
        ),
    );
}

#[test]
fn bless_and_check_report_every_node() {
    let tmp = tempfile::tempdir().unwrap();
    control_repo(tmp.path());
    // The command line's budget over a looser config.
    let mut args: Vec<&dyn AsRef<std::ffi::OsStr>> = vec![&"bless", &"."];
    let flags = budget_flags();
    for f in &flags {
        args.push(f);
    }
    let out = pverify(&args, tmp.path());
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(tmp.path().join("golden/good.json").is_file());
    assert!(!tmp.path().join("golden/looping.json").exists());

    // The config's budget alone.
    let out = pverify(&[&"check", &".", &"--format", &"json"], tmp.path());
    assert_eq!(out.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let items = report["items"].as_array().unwrap();
    assert_eq!(items.len(), 4, "{report}");
    let passed: Vec<&str> = items
        .iter()
        .filter(|i| i["status"] == "passed")
        .map(|i| i["name"].as_str().unwrap())
        .collect();
    assert_eq!(passed, ["good"]);
    let errors: Vec<(String, String)> = items
        .iter()
        .filter(|i| i["status"] == "failed")
        .map(|i| {
            (
                i["name"].as_str().unwrap().to_string(),
                i["failures"].to_string(),
            )
        })
        .collect();
    check_errors(&errors);
}

#[test]
fn diff_reports_every_node() {
    let tmp = tempfile::tempdir().unwrap();
    environment(&tmp.path().join("a"));
    environment(&tmp.path().join("b"));
    let files = node_files(tmp.path());
    let mut args: Vec<&dyn AsRef<std::ffi::OsStr>> = vec![
        &"diff",
        &"--from",
        &"a",
        &"--to",
        &"b",
        &"--format",
        &"json",
    ];
    let flags = budget_flags();
    for f in &flags {
        args.push(f);
    }
    args.push(&"--facts");
    for f in &files {
        args.push(f);
    }
    let out = pverify(&args, tmp.path());
    assert_eq!(out.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let nodes = report["nodes"].as_array().unwrap();
    assert_eq!(nodes.len(), 4, "{report}");
    assert_eq!(report["summary"]["unchanged"], 1, "{report}");
    let errors: Vec<(String, String)> = nodes
        .iter()
        .filter(|n| n["status"] == "failed")
        .map(|n| {
            (
                n["name"].as_str().unwrap().to_string(),
                n["error"]["to"].to_string(),
            )
        })
        .collect();
    check_errors(&errors);
}

/// A spec-suite of the four nodes: the good case is a copy of an
/// oracle-recorded case; the others have no expectation (Puppet itself
/// would loop, allocate or overflow), so they fail, and only their timing
/// and the report's completeness are checked here.
#[test]
fn run_reports_every_case() {
    let tmp = tempfile::tempdir().unwrap();
    let suite = tmp.path().join("suite");
    let good = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("spec-suite/functions-core/assert-type-string.case"),
    )
    .unwrap();
    write(&suite.join("budgets/good.case"), &good);
    for (name, body) in [
        (
            "looping",
            "$big = sprintf('%065536d', 0)\n100000.each |$i| { 100000.each |$j| { sha256($big) } }\n",
        ),
        ("hungry", "$s = 64.reduce('x') |$m, $i| { \"${m}${m}\" }\nnotify { $s: }\n"),
        ("deep", "function down(Integer $n) { down($n + 1) }\nnotify { String(down(0)): }\n"),
    ] {
        write(
            &suite.join(format!("budgets/{name}.case")),
            &format!(
                "-- case.yaml --\nspec: budgets\ndescription: over budget\nnode: {name}\n-- manifests/site.pp --\n{body}"
            ),
        );
    }
    let mut args: Vec<&dyn AsRef<std::ffi::OsStr>> = vec![&"run", &suite, &"--format", &"json"];
    let flags = budget_flags();
    for f in &flags {
        args.push(f);
    }
    let out = pverify(&args, tmp.path());
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let items = report["items"].as_array().unwrap();
    assert_eq!(items.len(), 4, "{report}");
    let passed: Vec<&str> = items
        .iter()
        .filter(|i| i["status"] == "passed")
        .map(|i| i["name"].as_str().unwrap())
        .collect();
    assert_eq!(passed, ["budgets/good"], "{report}");
    assert_eq!(report["summary"]["failed"], 3, "{report}");
}

/// `--jobs` far beyond the nodes and cores starts no more threads than
/// help, and says so.
#[test]
fn jobs_beyond_what_helps_are_capped() {
    let tmp = tempfile::tempdir().unwrap();
    control_repo(tmp.path());
    write(
        &tmp.path().join("env/manifests/site.pp"),
        "notify { 'x': }\n",
    );
    let out = pverify(
        &[&"check", &".", &"--jobs", &"100000", &"--format", &"json"],
        tmp.path(),
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("pverify check: note: --jobs 100000 capped at 4 "),
        "{stderr}"
    );
}

/// Data shared many times over (each level held twice: `[$m, {a => $m}]`)
/// reaches a template as Puppet hands it over, its own objects: each
/// collection converted once, however often it is held. It used to be
/// copied once per path, exponentially, until the memory budget ended the
/// node (a fuzz finding); Puppet compiles this at once.
#[test]
fn shared_data_reaches_a_template_converted_once() {
    let (code, stderr) = compile_site(
        // Puppet 7.23 says `Array 4` (in 1.8 s).
        "$x = Integer[1, 100000].reduce([]) |$m, $i| { [$m, {a => $m}] }\n\
         $said = inline_template('<%= @x.class %> <%= @x.flatten(2).length %>')\n\
         if $said != 'Array 4' { fail(\"said ${said}\") }\n",
        &["--node-timeout", "20"],
    );
    assert_eq!(code, Some(0), "{stderr}");
}

/// A template's own data can share its parts at every level too (`y = [y,
/// y]` in a loop costs one array a level). Printing, flattening, joining,
/// comparing or sorting it walks it once per path, exponentially, as Ruby
/// does; each of those walks ticks the node's budget, which ends the node
/// with its text. `inspect` used to grow its string past every limit, to
/// the machine's memory (a fuzz finding).
#[test]
fn template_walks_of_shared_data_meet_the_budget() {
    for walk in [
        "y.inspect.length",
        "y.to_s.length",
        "y.flatten.length",
        "y.join.length",
        "y == z",
        "[y, z].sort.length",
        "[y].include?(z)",
    ] {
        let start = Instant::now();
        let (code, stderr) = compile_site(
            &format!(
                "notice(inline_template('<% y = [1]; z = [1]; 100.times {{ y = [y, y]; z = [z, z] }} %><%= {walk} %>'))\n"
            ),
            &["--node-timeout", "2"],
        );
        assert_over_a_budget(walk, code, &stderr);
        let took = start.elapsed();
        assert!(
            took < Duration::from_secs(30),
            "{walk}: ended after {took:?}"
        );
    }
}

/// A value sharing its parts at every level (`{k => $m, s => $m, t =>
/// [$m]}`, 30 levels) is walked once per path by type inference, hashing,
/// `==`, string conversion and JSON, exponentially, as Puppet walks it (it
/// runs for hours). Each walk ticks the node's budget, so the node fails
/// with the budget's text (a fuzz finding: `type()` ran past every limit).
#[test]
fn walks_of_shared_data_meet_the_budget() {
    for walk in [
        "notice(type($h))",
        "notice(type($h, 'reduced'))",
        "notice({ $h => 1 })",
        "notice($h == $g)",
        "notice(\"${h}\")",
        "notice(to_json($h))",
        "notice(to_json_pretty($h))",
        "notice(inline_epp(\"<%= $h %>\"))",
    ] {
        let (code, stderr) = compile_site(
            &format!(
                "$h = Integer[1, 30].reduce({{}}) |$m, $i| {{ {{ k => $m, s => $m, t => [$m] }} }}\n\
                 $g = Integer[1, 30].reduce({{}}) |$m, $i| {{ {{ k => $m, s => $m, t => [$m] }} }}\n\
                 {walk}\n"
            ),
            &["--node-timeout", "2"],
        );
        assert_over_a_budget(walk, code, &stderr);
    }
}

/// A template's `to_yaml` of shared data writes Ruby's copies, once per
/// path (Ruby does the same). That walk ticks the budget too: it used to
/// run on long past it (60 levels: 49 s with a 2 s time budget, 2.7 s now).
/// Here the memory budget is out of reach, so only the time budget can end
/// it, well before the bound asserted.
#[test]
fn erb_to_yaml_of_shared_data_meets_the_time_budget() {
    let start = Instant::now();
    let (code, stderr) = compile_site(
        "$h = Integer[1, 60].reduce([]) |$m, $i| { [$m, {a => $m}] }\n\
         notice(inline_template('<%= @h.to_yaml.length %>'))\n",
        &["--node-timeout", "2", "--node-memory", "16G"],
    );
    let took = start.elapsed();
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains("the node exceeded its time budget of 2 s (--node-timeout)"),
        "{stderr}"
    );
    assert!(took < Duration::from_secs(30), "ended after {took:?}");
}

/// The node of `walk` failed with the 2 s time budget's or the memory
/// budget's text.
fn assert_over_a_budget(walk: &str, code: Option<i32>, stderr: &str) {
    assert_eq!(code, Some(1), "{walk}: {stderr}");
    assert!(
        stderr.contains("the node exceeded its time budget of 2 s (--node-timeout)")
            || stderr.contains("the node exceeded its memory budget of 256 MiB (--node-memory)"),
        "{walk}: {stderr}"
    );
}

/// `pverify compile` of one node whose site manifest is `site`, under the
/// memory budget [`MEMORY`] (unless `extra` sets one) and `extra` flags:
/// its exit code and stderr.
fn compile_site(site: &str, extra: &[&str]) -> (Option<i32>, String) {
    let dir = tempfile::tempdir().unwrap();
    let env = dir.path().join("env");
    write(&env.join("manifests/site.pp"), site);
    let node = dir.path().join("n.json");
    write(&node, r#"{"name": "n", "values": {}}"#);
    let mut args: Vec<&dyn AsRef<std::ffi::OsStr>> = vec![&"compile", &env, &"--facts", &node];
    if !extra.contains(&"--node-memory") {
        args.extend([&"--node-memory" as &dyn AsRef<std::ffi::OsStr>, &MEMORY]);
    }
    args.extend(extra.iter().map(|a| a as &dyn AsRef<std::ffi::OsStr>));
    let out = pverify(&args, dir.path());
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
