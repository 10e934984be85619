//! The pre-merge review (issue 28): changes that differ only by each
//! node's own names are one group, renames are paired, the Markdown fits a
//! PR comment's budget and stays valid, `check` compares the text behind
//! `source` and `content` with unified diffs, stale goldens are reported.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use pverify_harness::diff::render::render_markdown;
use pverify_harness::diff::report::DiffReport;
use pverify_harness::diff::CompareContext;
use serde_json::{json, Value};

static COUNTER: AtomicUsize = AtomicUsize::new(0);

/// A scratch directory removed on drop.
struct Scratch(PathBuf);

impl Scratch {
    fn new(tag: &str) -> Scratch {
        let d = std::env::temp_dir().join(format!(
            "pverify-test-review-{tag}-{}-{}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        Scratch(d)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn pverify(args: &[&str], dir: &Path) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_pverify"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Two environments `from` and `to` with `site.pp` texts, and ten node
/// files `nodes/webNN.json` (each its own fqdn, hostname, address, uptime).
fn two_envs(s: &Scratch, from: &str, to: &str) {
    for (side, site) in [("from", from), ("to", to)] {
        write(&s.0.join(side).join("manifests/site.pp"), site);
        write(
            &s.0.join(side).join("modules/apache/manifests/listen.pp"),
            "define apache::listen() { }\n",
        );
    }
    for i in 1..=10 {
        let host = format!("web{i:02}");
        let fqdn = format!("{host}.example.com");
        let node = json!({"name": fqdn, "values": {
            "hostname": host, "fqdn": fqdn, "ipaddress": format!("10.0.0.{i}"),
            "networking": {"hostname": host, "fqdn": fqdn, "ip": format!("10.0.0.{i}")},
            "uptime_seconds": i * 100,
        }});
        write(
            &s.0.join(format!("nodes/{host}.json")),
            &serde_json::to_string_pretty(&node).unwrap(),
        );
    }
}

fn diff(s: &Scratch, extra: &[&str]) -> (i32, String) {
    let (from, to, nodes) = (s.0.join("from"), s.0.join("to"), s.0.join("nodes"));
    let mut args = vec![
        "diff",
        "--from",
        from.to_str().unwrap(),
        "--to",
        to.to_str().unwrap(),
        "--facts",
        nodes.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let (code, out, err) = pverify(&args, &s.0);
    // Only the line counting the compiles.
    assert!(
        err.lines()
            .all(|l| l.starts_with("pverify diff: compiled: ")),
        "{err}"
    );
    (code, out)
}

#[test]
fn a_change_by_each_nodes_own_names_is_one_group_and_other_values_stay_split() {
    let s = Scratch::new("names");
    two_envs(
        &s,
        "file { '/etc/motd': content => \"Hello\\n\" }\n\
         file { \"/etc/ssl/${facts['hostname']}.pem\": ensure => file }\n\
         notify { 'up': message => 'up' }\n",
        "file { '/etc/motd': content => \"Welcome to ${facts['fqdn']} (${facts['hostname']}, ${facts['ipaddress']})\\n\" }\n\
         file { \"/etc/ssl/${facts['hostname']}.pem\": ensure => file, mode => '0600' }\n\
         notify { 'up': message => \"up ${facts['uptime_seconds']}s\" }\n",
    );
    let (code, text) = diff(&s, &[]);
    assert_eq!(code, 2, "{text}");
    let body = text.split_once('\n').unwrap().1;
    let names = "web01.example.com, web02.example.com, web03.example.com, web04.example.com, \
                 web05.example.com, web06.example.com, web07.example.com, web08.example.com, \
                 web09.example.com, web10.example.com";
    assert_eq!(
        body,
        format!(
            "10 nodes: 10 changed, 0 unchanged, 0 added, 0 removed, 0 failed

File[/etc/motd] content changed on 10 nodes: {names}
  (<certname>, <hostname>, <ip>: each node's own)
  --- File[/etc/motd] (from)
  +++ File[/etc/motd] (to)
  @@ -1 +1 @@
  -Hello
  +Welcome to <certname> (<hostname>, <ip>)

File[/etc/ssl/<hostname>.pem] parameter mode changed on 10 nodes: {names}
  (<hostname>: each node's own)
  (absent) -> \"0600\"

Notify[up] parameter message changed on 10 nodes: {names}
  on web01.example.com:
    \"up\" -> \"up 100s\"
  on web02.example.com:
    \"up\" -> \"up 200s\"
  on web03.example.com:
    \"up\" -> \"up 300s\"
  on web04.example.com:
    \"up\" -> \"up 400s\"
  on web05.example.com:
    \"up\" -> \"up 500s\"
  (5 more variants; see --detail)
"
        )
    );
    // JSON: the group's placeholders and its one variant.
    let (_, json) = diff(&s, &["--format", "json"]);
    let v: Value = serde_json::from_str(&json).unwrap();
    let motd = &v["groups"][0];
    assert_eq!(motd["subject"], "File[/etc/motd]");
    assert_eq!(motd["nodes"].as_array().unwrap().len(), 10);
    assert_eq!(
        motd["placeholders"],
        json!(["<certname>", "<hostname>", "<ip>"])
    );
    assert_eq!(motd["variants"].as_array().unwrap().len(), 1);
    assert_eq!(v["groups"][1]["subject"], "File[/etc/ssl/<hostname>.pem]");
    assert_eq!(v["groups"][2]["variants"].as_array().unwrap().len(), 10);
    // Each node's own changes keep its real names.
    let web01 = &v["nodes"][0]["changes"][0]["diff"];
    assert!(web01
        .as_str()
        .unwrap()
        .contains("+Welcome to web01.example.com (web01, 10.0.0.1)"));
    // JUnit carries the grouped text beside the per-node cases.
    let (_, junit) = diff(&s, &["--format", "junit"]);
    assert!(
        junit.contains("File[/etc/ssl/&lt;hostname&gt;.pem] parameter mode changed on 10 nodes")
    );
}

#[test]
fn a_rename_is_listed_as_one() {
    let s = Scratch::new("rename");
    two_envs(
        &s,
        "apache::listen { '8080': }\nnotify { 'a': }\n",
        "notify { 'a': }\napache::listen { '9090': }\n",
    );
    let (code, text) = diff(&s, &[]);
    assert_eq!(code, 2);
    assert!(
        text.contains("\nApache::Listen[8080] renamed to Apache::Listen[9090] on 10 nodes:"),
        "{text}"
    );
    assert!(!text.contains("] added"), "{text}");
    // In a node's own list the two are next to each other.
    let (_, json) = diff(&s, &["--format", "json"]);
    let v: Value = serde_json::from_str(&json).unwrap();
    let kinds: Vec<&str> = v["nodes"][0]["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["kind"].as_str().unwrap())
        .collect();
    let at = kinds.iter().position(|k| *k == "resource_removed").unwrap();
    assert_eq!(kinds[at + 1], "resource_added", "{kinds:?}");
    assert_eq!(v["groups"][0]["kind"], "resource_renamed");
}

#[test]
fn markdown_output_file_gets_the_full_report_beside_it() {
    let s = Scratch::new("mdfile");
    two_envs(
        &s,
        "notify { 'up': message => 'up' }\n",
        "notify { 'up': message => \"the uptime of this node is ${facts['uptime_seconds']} seconds and counting\" }\n",
    );
    // Per-node values: ten variants, more than 2,000 bytes in full.
    let out = s.0.join("report.md");
    let (code, _) = diff(
        &s,
        &[
            "--format",
            "markdown",
            "--detail",
            "--max-bytes",
            "2000",
            "--output",
            out.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 2);
    let cut = std::fs::read_to_string(&out).unwrap();
    let full = std::fs::read_to_string(s.0.join("report.full.md")).unwrap();
    assert!(cut.len() <= 2000, "{}", cut.len());
    assert!(full.len() > 2000, "{}", full.len());
    check_markdown(&cut);
    assert!(cut.contains("The full report: `"), "{cut}");
    assert!(cut.contains("report.full.md`"), "{cut}");
    let (code, _, err) = pverify(
        &[
            "diff",
            "--from",
            "from",
            "--to",
            "to",
            "--facts",
            "nodes",
            "--format",
            "markdown",
            "--max-bytes",
            "100",
        ],
        &s.0,
    );
    assert_eq!(code, 3, "a usage error: the command could not run");
    assert!(err.contains("--max-bytes 100: at least 2000"), "{err}");
}

/// `n` nodes whose catalogs change in many ways: per-node files (one group
/// each), big content diffs, a few shared changes, and one rare type on a
/// single node.
fn big_report(n: usize) -> DiffReport {
    let catalog = |i: usize, to: bool| {
        let mut rs = vec![json!({"type": "Class", "title": "main", "parameters": {}})];
        let lines = |k: usize| -> String {
            (0..60)
                .map(|l| {
                    format!(
                        "setting_{l} = {}\n",
                        if to && l % 3 == 0 { k + l } else { l }
                    )
                })
                .collect()
        };
        rs.push(
            json!({"type": "File", "title": format!("/srv/data/{}", i * 7),
            "parameters": {"content": lines(i)}}),
        );
        rs.push(json!({"type": "Service", "title": "nginx",
            "parameters": {"ensure": if to { "running" } else { "stopped" }}}));
        rs.push(json!({"type": "Package", "title": format!("lib{}", i % 40),
            "parameters": {"ensure": if to { format!("2.{i}") } else { "1.0".to_string() }}}));
        if to && i == 0 {
            rs.push(json!({"type": "Cron", "title": "rare", "parameters": {"command": "true"}}));
        }
        json!({"name": format!("node{i:04}"), "resources": rs, "edges": [], "classes": ["main"]})
    };
    let side = |to: bool| {
        (0..n)
            .map(|i| (format!("node{i:04}"), Ok(catalog(i, to))))
            .collect::<Vec<_>>()
    };
    DiffReport::build(
        "main",
        "topic",
        side(false),
        side(true),
        &CompareContext::default(),
    )
}

/// Closed code fences, balanced `<details>`, tables whose rows all have the
/// header's number of cells.
fn check_markdown(md: &str) {
    let mut fence: Option<usize> = None;
    let mut details = 0i64;
    let mut table: Option<usize> = None;
    for (no, line) in md.lines().enumerate() {
        let ticks = line.chars().take_while(|c| *c == '`').count();
        if let Some(open) = fence {
            if ticks >= open && line.trim_end().chars().all(|c| c == '`') {
                fence = None;
            }
            continue;
        }
        if ticks >= 3 {
            fence = Some(ticks);
            table = None;
            continue;
        }
        details += line.matches("<details>").count() as i64;
        details -= line.matches("</details>").count() as i64;
        assert!(details >= 0, "line {no}: </details> without <details>");
        if line.starts_with('|') {
            let cells = line.replace("\\|", "").matches('|').count();
            match table {
                None => table = Some(cells),
                Some(c) => assert_eq!(c, cells, "line {no}: {line}"),
            }
        } else {
            table = None;
        }
    }
    assert_eq!(fence, None, "a code fence is not closed");
    assert_eq!(details, 0, "a <details> is not closed");
}

#[test]
fn markdown_fits_the_budget_at_300_and_1000_nodes() {
    for n in [300, 1000] {
        let report = big_report(n);
        let full = render_markdown(&report, true, 0, None);
        assert!(
            full.len() > 65_000,
            "{n} nodes: {} bytes in full",
            full.len()
        );
        check_markdown(&full);
        let md = render_markdown(
            &report,
            true,
            65_000,
            Some("https://ci.example.com/artifacts/diff.html".into()),
        );
        eprintln!(
            "{n} nodes: {} bytes in full, {} within the budget",
            full.len(),
            md.len()
        );
        assert!(md.len() <= 65_000, "{n} nodes: {} bytes", md.len());
        check_markdown(&md);
        // The summary, then the biggest groups first.
        assert!(
            md.contains(&format!("| {n} | {n} | 0 | 0 | 0 | 0 |")),
            "{md}"
        );
        let service = md.find("Service[nginx] parameter ensure changed").unwrap();
        let one_file = md.find("File[/srv/data/").unwrap();
        assert!(service < one_file);
        // Every changed resource type is named, the rare one included.
        let types: BTreeSet<&str> = ["File", "Service", "Package", "Cron"].into();
        for t in types {
            assert!(md.contains(&format!("`{t}` (")), "{t} missing");
        }
        assert!(
            md.contains("**Left out to stay within 65000 bytes:**"),
            "{md}"
        );
        assert!(md.contains("The full report: https://ci.example.com/artifacts/diff.html"));
        assert!(md.contains("changes (on "), "{md}");
    }
}

/// A control repo of one node whose catalog has a `source` and a
/// `content` file.
fn control_repo(s: &Scratch) -> PathBuf {
    let repo = s.0.join("repo");
    write(
        &repo.join("pverify.yaml"),
        "environment: env\ngolden: golden\nnodes:\n  matrix:\n    - names: [web01.example.com]\n",
    );
    write(
        &repo.join("env/manifests/site.pp"),
        "file { '/etc/motd': source => 'puppet:///modules/motd/motd' }\n\
         file { '/etc/issue': content => \"one\\n\" }\n",
    );
    write(&repo.join("env/modules/motd/files/motd"), "Hello\nworld\n");
    repo
}

#[test]
fn check_compares_the_text_behind_source_and_content() {
    let s = Scratch::new("sources");
    let repo = control_repo(&s);
    let (code, out, err) = pverify(&["bless", "."], &repo);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("recorded golden/sources/web01.example.com.json (1 source)"),
        "{out}"
    );
    let record: Value = serde_json::from_str(
        &std::fs::read_to_string(repo.join("golden/sources/web01.example.com.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(record["File[/etc/motd]"]["text"], "Hello\nworld\n");
    let (code, out, err) = pverify(&["check", "."], &repo);
    assert_eq!((code, err.as_str()), (0, ""), "{out}");

    // The module file changes: the catalog does not, the check fails.
    write(&repo.join("env/modules/motd/files/motd"), "Hello\nthere\n");
    let (code, out, _) = pverify(&["check", "."], &repo);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("~ File[/etc/motd] source: the text it names changed:"),
        "{out}"
    );
    assert!(
        out.contains("          -world\n          +there\n"),
        "{out}"
    );
    // A short `content` is a unified diff too.
    write(
        &repo.join("env/manifests/site.pp"),
        "file { '/etc/motd': source => 'puppet:///modules/motd/motd' }\n\
         file { '/etc/issue': content => \"two\\n\" }\n",
    );
    let (code, out, _) = pverify(&["check", "."], &repo);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("~ File[/etc/issue] content:\n"), "{out}");
    assert!(out.contains("-one\n") && out.contains("+two\n"), "{out}");
    let (_, json, _) = pverify(&["check", ".", "--format", "json"], &repo);
    assert!(json.contains("-world\\n+there"), "{json}");
    assert!(
        out_has_golden_header(&repo),
        "the diff is headed (golden) / (now)"
    );
    // Blessed again, both pass.
    let (code, out, _) = pverify(&["bless", "."], &repo);
    assert_eq!(code, 0, "{out}");
    let (code, out, _) = pverify(&["check", "."], &repo);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn stale_goldens_are_reported_and_pruned() {
    let s = Scratch::new("stale");
    let repo = control_repo(&s);
    let (code, _, _) = pverify(&["bless", "."], &repo);
    assert_eq!(code, 0);
    std::fs::copy(
        repo.join("golden/web01.example.com.json"),
        repo.join("golden/old01.example.com.json"),
    )
    .unwrap();
    let (code, out, err) = pverify(&["check", "."], &repo);
    assert_eq!(code, 0, "{out}");
    assert_eq!(
        err,
        "warning: stale golden golden/old01.example.com.json: node old01.example.com is no \
         longer in the matrix (`pverify bless --prune` removes it)\n"
    );
    let (code, out, _) = pverify(&["check", ".", "--strict-goldens"], &repo);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("FAILED  old01.example.com"), "{out}");
    let (code, out, _) = pverify(&["bless", "."], &repo);
    assert_eq!(code, 0);
    assert!(out.contains("stale golden/old01.example.com.json"), "{out}");
    assert!(repo.join("golden/old01.example.com.json").exists());
    let (code, out, _) = pverify(&["bless", ".", "--prune"], &repo);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("removed golden/old01.example.com.json"),
        "{out}"
    );
    assert!(!repo.join("golden/old01.example.com.json").exists());
    let (code, _, err) = pverify(&["check", ".", "--strict-goldens"], &repo);
    assert_eq!((code, err.as_str()), (0, ""));
}

/// Whether `check`'s source diff is headed `(golden)` / `(now)` (the repo
/// with a changed source and no new record).
fn out_has_golden_header(repo: &Path) -> bool {
    let (_, out, _) = pverify(&["check", "."], repo);
    out.contains("--- File[/etc/motd] (golden)\n") && out.contains("+++ File[/etc/motd] (now)\n")
}
