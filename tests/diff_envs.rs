//! `pverify diff --from DIR --to DIR` on the fixture environment
//! `tests/fixtures/diff/env`: each test copies it twice, changes one thing on
//! the `to` side and checks the whole text report and the exit code.

mod common;
use common::{copy_dir, edit};

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/diff/env");

static COUNTER: AtomicUsize = AtomicUsize::new(0);

/// A scratch directory removed on drop.
struct Scratch(PathBuf);

impl Scratch {
    fn new(tag: &str) -> Scratch {
        let d = std::env::temp_dir().join(format!(
            "pverify-test-diff-{tag}-{}-{}",
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

/// Runs the diff with `change` applied to the `to` copy; returns (exit
/// code, report without its first line, which names the temporary dirs).
fn diff_with(change: impl FnOnce(&Path), extra: &[&str]) -> (i32, String) {
    let s = Scratch::new("env");
    let (a, b) = (s.0.join("from"), s.0.join("to"));
    copy_dir(Path::new(FIXTURE), &a);
    copy_dir(Path::new(FIXTURE), &b);
    change(&b);
    let out = Command::new(env!("CARGO_BIN_EXE_pverify"))
        .arg("diff")
        .arg("--from")
        .arg(&a)
        .arg("--to")
        .arg(&b)
        .args(["--nodes-dir", "nodes"])
        .args(extra)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let body = stdout
        .split_once('\n')
        .map(|x| x.1)
        .unwrap_or("")
        .to_string();
    (out.status.code().unwrap_or(-1), body)
}

#[test]
fn unchanged_exits_0() {
    let (code, report) = diff_with(|_| {}, &[]);
    assert_eq!(
        report,
        "3 nodes: 0 changed, 3 unchanged, 0 added, 0 removed, 0 failed\n"
    );
    assert_eq!(code, 0);
}

#[test]
fn reordered_relationship_array_is_no_change() {
    // Relationship metaparameters compare as sets.
    let (code, report) = diff_with(
        |b| {
            let p = b.join("modules/base/manifests/init.pp");
            edit(
                &p,
                "require => Package['ntp'],",
                "require => [Package['ntp'], Package['ntp']],",
            );
        },
        &[],
    );
    assert_eq!(code, 0, "{report}");
}

#[test]
fn parameter_value_change() {
    let (code, report) = diff_with(
        |b| {
            let p = b.join("modules/base/manifests/init.pp");
            edit(
                &p,
                "String $motd_mode = '0644'",
                "String $motd_mode = '0600'",
            );
        },
        &[],
    );
    assert_eq!(
        report,
        r#"3 nodes: 3 changed, 0 unchanged, 0 added, 0 removed, 0 failed

Class[Base] parameter motd_mode changed on 3 nodes: db01, web01, web02
  "0644" -> "0600"

File[/etc/motd] parameter mode changed on 3 nodes: db01, web01, web02
  "0644" -> "0600"
"#
    );
    assert_eq!(code, 2);
}

#[test]
fn ignore_rules_hide_changes() {
    let change = |b: &Path| {
        let p = b.join("modules/base/manifests/init.pp");
        edit(
            &p,
            "String $motd_mode = '0644'",
            "String $motd_mode = '0600'",
        );
    };
    let (code, report) = diff_with(
        change,
        &[
            "--ignore",
            "File[*]::parameters::mode",
            "--ignore",
            "class[Ba*]",
        ],
    );
    assert_eq!(code, 0, "{report}");
    let (code, report) = diff_with(change, &["--ignore", "File[/etc/motd]::mode"]);
    assert_eq!(code, 2);
    assert!(!report.contains("File[/etc/motd]"), "{report}");
    let (code, _) = diff_with(change, &["--ignore-tag", "base"]);
    assert_eq!(code, 0);
}

#[test]
fn module_file_source_change() {
    let (code, report) = diff_with(
        |b| {
            std::fs::write(
                b.join("modules/base/files/motd"),
                "This host is managed by Puppet.\nAuthorised access only.\n",
            )
            .unwrap();
        },
        &[],
    );
    assert_eq!(
        report,
        r#"3 nodes: 3 changed, 0 unchanged, 0 added, 0 removed, 0 failed

File[/etc/motd] source file content changed on 3 nodes: db01, web01, web02
  --- File[/etc/motd] (from)
  +++ File[/etc/motd] (to)
  @@ -1,2 +1,2 @@
   This host is managed by Puppet.
  -Unauthorised access is prohibited.
  +Authorised access only.
"#
    );
    assert_eq!(code, 2);
}

/// The text differs per node only by each node's own certname: one
/// change, shown once with `<certname>`; `--detail` keeps each node's text.
#[test]
fn inline_content_change_differs_per_node() {
    let (code, report) = diff_with(
        |b| {
            let p = b.join("modules/base/manifests/init.pp");
            edit(&p, "Welcome to ", "Hello from ");
        },
        &["--detail"],
    );
    assert_eq!(
        report,
        r#"3 nodes: 3 changed, 0 unchanged, 0 added, 0 removed, 0 failed

File[/etc/issue] content changed on 3 nodes: db01, web01, web02
  (<certname>: each node's own)
  --- File[/etc/issue] (from)
  +++ File[/etc/issue] (to)
  @@ -1 +1 @@
  -Welcome to <certname>
  +Hello from <certname>

== db01 (1 changes)
  File[/etc/issue] content changed
    --- File[/etc/issue] (from)
    +++ File[/etc/issue] (to)
    @@ -1 +1 @@
    -Welcome to db01
    +Hello from db01

== web01 (1 changes)
  File[/etc/issue] content changed
    --- File[/etc/issue] (from)
    +++ File[/etc/issue] (to)
    @@ -1 +1 @@
    -Welcome to web01
    +Hello from web01

== web02 (1 changes)
  File[/etc/issue] content changed
    --- File[/etc/issue] (from)
    +++ File[/etc/issue] (to)
    @@ -1 +1 @@
    -Welcome to web02
    +Hello from web02
"#
    );
    assert_eq!(code, 2);
}

#[test]
fn relationship_change() {
    let (code, report) = diff_with(
        |b| {
            let p = b.join("modules/base/manifests/init.pp");
            edit(
                &p,
                "require => Package['ntp'],",
                "require => [Package['ntp'], File['/etc/motd']],",
            );
        },
        &[],
    );
    assert_eq!(
        report,
        r#"3 nodes: 3 changed, 0 unchanged, 0 added, 0 removed, 0 failed

Service[ntp] relationship require changed on 3 nodes: db01, web01, web02
  + File[/etc/motd]
"#
    );
    assert_eq!(code, 2);
}

#[test]
fn class_removed() {
    let (code, report) = diff_with(
        |b| {
            let p = b.join("manifests/site.pp");
            edit(
                &p,
                "  if $facts['role'] == 'db' {\n    include db\n  }\n",
                "",
            );
        },
        &[],
    );
    assert_eq!(
        report,
        r#"3 nodes: 1 changed, 2 unchanged, 0 added, 0 removed, 0 failed

Class[Db] removed on 1 node: db01

Package[postgresql] removed on 1 node: db01

class db removed on 1 node: db01
"#
    );
    assert_eq!(code, 2);
}

#[test]
fn new_node() {
    let (code, report) = diff_with(
        |b| {
            std::fs::write(
                b.join("nodes/web03.json"),
                r#"{"name": "web03", "values": {"role": "web", "networking": {"hostname": "web03"}}}"#,
            )
            .unwrap();
        },
        &[],
    );
    assert_eq!(
        report,
        r#"4 nodes: 0 changed, 3 unchanged, 1 added, 0 removed, 0 failed

Nodes added:
  web03 (9 resources)
"#
    );
    assert_eq!(code, 2);
}

#[test]
fn compile_failure_on_to_exits_1_naming_node_and_error() {
    let (code, report) = diff_with(
        |b| {
            let p = b.join("modules/db/manifests/init.pp");
            edit(&p, "class db {\n", "class db {\n  include nosuch\n");
        },
        &[],
    );
    assert_eq!(code, 1, "{report}");
    assert!(
        report.starts_with("3 nodes: 0 changed, 2 unchanged, 0 added, 0 removed, 1 failed\n"),
        "{report}"
    );
    assert!(report.contains("\nNodes failed:\n  db01:\n    to: Evaluation Error: Error while evaluating a Function Call, Could not find class ::nosuch for db01"), "{report}");
    assert!(report.contains(" on node db01\n"), "{report}");
}

#[test]
fn json_markdown_and_junit_formats() {
    let change = |b: &Path| {
        let p = b.join("modules/base/manifests/init.pp");
        edit(
            &p,
            "String $motd_mode = '0644'",
            "String $motd_mode = '0600'",
        );
    };
    let s = Scratch::new("fmt");
    let (a, b) = (s.0.join("from"), s.0.join("to"));
    copy_dir(Path::new(FIXTURE), &a);
    copy_dir(Path::new(FIXTURE), &b);
    change(&b);
    let run = |format: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_pverify"))
            .args(["diff", "--nodes-dir", "nodes", "--format", format, "--from"])
            .arg(&a)
            .arg("--to")
            .arg(&b)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        String::from_utf8(out.stdout).unwrap()
    };
    let j: serde_json::Value = serde_json::from_str(&run("json")).unwrap();
    assert_eq!(j["schema"], "pverify-diff/1");
    assert_eq!(
        j["summary"],
        serde_json::json!({"nodes": 3, "changed": 3, "unchanged": 0, "added": 0,
                           "removed": 0, "failed": 0, "exit_code": 2})
    );
    assert_eq!(
        j["nodes"][1],
        serde_json::json!({"name": "web01", "status": "changed", "changes": [
            {"kind": "parameter_changed", "resource": "Class[Base]", "parameter": "motd_mode",
             "old": "0644", "new": "0600"},
            {"kind": "parameter_changed", "resource": "File[/etc/motd]", "parameter": "mode",
             "old": "0644", "new": "0600"}],
            "names": [{"name": "web01", "placeholder": "<certname>"}]})
    );
    assert_eq!(
        j["groups"][1],
        serde_json::json!({"kind": "parameter_changed", "subject": "File[/etc/motd]",
            "parameter": "mode", "headline": "File[/etc/motd] parameter mode changed",
            "nodes": ["db01", "web01", "web02"], "placeholders": [],
            "variants": [{"detail": "\"0644\" -> \"0600\"", "nodes": ["db01", "web01", "web02"]}]})
    );
    let md = run("markdown");
    assert!(
        md.contains("| File[/etc/motd] parameter mode changed | 3 |\n"),
        "{md}"
    );
    assert!(
        md.contains("<details><summary>File[/etc/motd] parameter mode changed (3 nodes)</summary>"),
        "{md}"
    );
    let junit = run("junit");
    assert!(
        junit
            .contains("<testsuites name=\"pverify diff\" tests=\"3\" failures=\"3\" errors=\"0\">"),
        "{junit}"
    );
    assert!(
        junit.contains("<testcase classname=\"pverify.diff\" name=\"web01\">"),
        "{junit}"
    );
}

#[test]
fn failure_in_json_and_junit() {
    let broken = |b: &Path| {
        let p = b.join("modules/db/manifests/init.pp");
        edit(&p, "class db {\n", "class db {\n  include nosuch\n");
    };
    let (code, body) = diff_with(broken, &["--format", "json"]);
    assert_eq!(code, 1);
    // diff_with drops the first line, which is "{" here.
    let j: serde_json::Value = serde_json::from_str(&format!("{{\n{body}")).unwrap();
    assert_eq!(j["summary"]["failed"], 1);
    assert_eq!(j["summary"]["exit_code"], 1);
    assert_eq!(j["nodes"][0]["name"], "db01");
    assert_eq!(j["nodes"][0]["status"], "failed");
    assert_eq!(j["nodes"][0]["error"]["from"], serde_json::Value::Null);
    assert!(j["nodes"][0]["error"]["to"]
        .as_str()
        .unwrap()
        .contains("Could not find class ::nosuch for db01"));
    let (code, body) = diff_with(broken, &["--format", "junit"]);
    assert_eq!(code, 1);
    assert!(
        body.contains("tests=\"3\" failures=\"0\" errors=\"1\""),
        "{body}"
    );
    assert!(body.contains("<testcase classname=\"pverify.diff\" name=\"db01\">\n      <error type=\"failed\" message=\"to: Evaluation Error:"), "{body}");
}

#[test]
fn unreadable_node_file_fails_that_node() {
    let (code, report) = diff_with(
        |b| std::fs::write(b.join("nodes/web02.json"), "{\"values\": {}}").unwrap(),
        &[],
    );
    assert_eq!(code, 1);
    assert!(
        report.contains("Nodes failed:\n  web02:\n    to: "),
        "{report}"
    );
    assert!(report.contains("missing 'name' (the certname)"), "{report}");
}

#[test]
fn no_nodes_is_an_error() {
    let s = Scratch::new("none");
    let out = Command::new(env!("CARGO_BIN_EXE_pverify"))
        .args([
            "diff",
            "--nodes-dir",
            "nosuch",
            "--from",
            FIXTURE,
            "--to",
            FIXTURE,
        ])
        .current_dir(&s.0)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "pverify diff: no nodes found on either side\n"
    );
    // A usage error is 3, never 1 ("failures") or 2 ("changes").
    let out = Command::new(env!("CARGO_BIN_EXE_pverify"))
        .args(["diff", "--from", FIXTURE])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
}
