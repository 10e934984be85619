//! `pverify check` / `pverify bless` on the example control repo
//! (tests/fixtures/example-repo, goldens checked against Puppet 7.23 with
//! `pverify check --oracle puppet`), always on temporary copies when a test
//! changes something.

mod common;
use common::{edit, have, pverify, temp_example_repo, Need, EXAMPLE};

use std::path::Path;

use pverify_harness::control::{shard, Repo};
use serde_json::Value;

const DB_DEBIAN_CONF: &str = "File[/etc/postgresql/15/main/postgresql.conf]";
const DB_REDHAT_CONF: &str = "File[/var/lib/pgsql/data/postgresql.conf]";

fn goldens(repo: &Path) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = std::fs::read_dir(repo.join("golden"))
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read_to_string(e.path()).unwrap(),
            )
        })
        .collect();
    v.sort();
    v
}

#[test]
fn check_passes_on_the_example_repo() {
    let (code, out, err) = pverify(&["check", EXAMPLE]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out.lines().count(), 7, "{out}");
    assert_eq!(out.lines().last(), Some("6 passed, 0 failed, 0 skipped"));
}

#[test]
fn a_changed_hiera_value_fails_with_exactly_the_changed_parameters_and_bless_accepts_it() {
    let (_tmp, repo) = temp_example_repo();
    let repo_s = repo.to_str().unwrap();
    edit(
        &repo.join("data/common.yaml"),
        "profile::db::max_connections: 100",
        "profile::db::max_connections: 250",
    );
    let (code, out, _) = pverify(&["check", repo_s, "--format", "json"]);
    assert_eq!(code, 1, "{out}");
    let report: Value = serde_json::from_str(&out).unwrap();
    let mut changed = Vec::new();
    for item in report["items"].as_array().unwrap() {
        for f in item["failures"].as_array().into_iter().flatten() {
            for c in f["changes"].as_array().unwrap() {
                changed.push(format!(
                    "{} {} {} {}",
                    item["name"].as_str().unwrap(),
                    c["kind"].as_str().unwrap(),
                    c["resource"].as_str().unwrap(),
                    c["parameter"].as_str().unwrap_or("-")
                ));
            }
        }
    }
    assert_eq!(
        changed,
        [
            "db01.example.com@debian-12-x86_64 changed Class[Profile::Db] max_connections"
                .to_string(),
            format!("db01.example.com@debian-12-x86_64 changed {DB_DEBIAN_CONF} content"),
            "db01.example.com@redhat-9-x86_64 changed Class[Profile::Db] max_connections"
                .to_string(),
            format!("db01.example.com@redhat-9-x86_64 changed {DB_REDHAT_CONF} content"),
        ]
    );
    // The text report shows the content as a unified diff.
    let (code, out, _) = pverify(&["check", repo_s]);
    assert_eq!(code, 1);
    assert!(
        out.contains(&format!("~ {DB_DEBIAN_CONF} content:")),
        "{out}"
    );
    assert!(
        out.contains("-max_connections = 100") && out.contains("+max_connections = 250"),
        "{out}"
    );
    assert_eq!(out.lines().last(), Some("4 passed, 2 failed, 0 skipped"));

    let before = goldens(&repo);
    let (code, out, err) = pverify(&["bless", repo_s]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("updated golden/db01.example.com@debian-12-x86_64.json (2 changes)"),
        "{out}"
    );
    assert!(
        out.contains("bless: 0 created, 2 updated, 4 unchanged, 0 refused"),
        "{out}"
    );
    let after = goldens(&repo);
    let differing: Vec<&str> = before
        .iter()
        .zip(&after)
        .filter(|(a, b)| a != b)
        .map(|(a, _)| a.0.as_str())
        .collect();
    assert_eq!(
        differing,
        [
            "db01.example.com@debian-12-x86_64.json",
            "db01.example.com@redhat-9-x86_64.json"
        ]
    );
    let (code, out, _) = pverify(&["check", repo_s]);
    assert_eq!(code, 0, "{out}");
    // No temporary files are left behind.
    assert_eq!(std::fs::read_dir(repo.join("golden")).unwrap().count(), 6);
}

#[test]
fn ignores_leave_out_matching_differences() {
    let (_tmp, repo) = temp_example_repo();
    let repo_s = repo.to_str().unwrap();
    edit(
        &repo.join("data/common.yaml"),
        "profile::db::max_connections: 100",
        "profile::db::max_connections: 250",
    );
    edit(
        &repo.join("pverify.yaml"),
        "ignores: []",
        "ignores:\n  - resource: 'File[*postgresql.conf]'\n    parameter: content\n",
    );
    // The class parameter still differs.
    let (code, out, _) = pverify(&["check", repo_s]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("~ Class[Profile::Db] max_connections: 100 -> 250"),
        "{out}"
    );
    assert!(!out.contains("content"), "{out}");
    edit(
        &repo.join("pverify.yaml"),
        "    parameter: content\n",
        "    parameter: content\n  - resource: 'Class[Profile::Db]'\n",
    );
    let (code, out, _) = pverify(&["check", repo_s]);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn node_files_join_the_matrix_and_a_new_node_needs_bless() {
    let (_tmp, repo) = temp_example_repo();
    let repo_s = repo.to_str().unwrap();
    std::fs::create_dir_all(repo.join("nodes")).unwrap();
    std::fs::write(
        repo.join("nodes/lb01.yaml"),
        "name: lb01.example.com\nvalues:\n  os: {family: Debian}\ntrusted: {pp_datacenter: dc9}\n",
    )
    .unwrap();
    edit(
        &repo.join("pverify.yaml"),
        "nodes:\n",
        "nodes:\n  files: ['nodes/*.yaml']\n",
    );
    let (code, out, _) = pverify(&["check", repo_s]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains(
            "FAILED  lb01.example.com\n    [golden] no golden catalog golden/lb01.example.com.json"
        ),
        "{out}"
    );
    let (code, out, _) = pverify(&["bless", repo_s]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("created golden/lb01.example.com.json"),
        "{out}"
    );
    let golden = std::fs::read_to_string(repo.join("golden/lb01.example.com.json")).unwrap();
    assert!(
        golden.contains("Managed by ops@example.com (dc9)"),
        "{golden}"
    );
    assert_eq!(pverify(&["check", repo_s]).0, 0);
}

/// A YAML node file is the same node to every command: `compile`,
/// `bless`/`check` (`nodes.files`) and `diff` (`--facts`, and a control
/// repo's `nodes.files`) all read it as Puppet (Psych, YAML 1.1) does:
/// `yes`/`on` are true and `no`/`off` false.
#[test]
fn a_yaml_node_file_gives_the_same_facts_to_compile_check_and_diff() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = |side: &str, site: &str| {
        let dir = tmp.path().join(side);
        std::fs::create_dir_all(dir.join("manifests")).unwrap();
        std::fs::create_dir_all(dir.join("nodes")).unwrap();
        std::fs::write(dir.join("manifests/site.pp"), site).unwrap();
        std::fs::write(
            dir.join("nodes/n1.yaml"),
            "name: n1.example.com\nvalues:\n  a: yes\n  b: no\n  c: On\n  d: OFF\n  e: 'yes'\n",
        )
        .unwrap();
        std::fs::write(
            dir.join("pverify.yaml"),
            "nodes:\n  files: ['nodes/*.yaml']\n",
        )
        .unwrap();
        dir.to_str().unwrap().to_string()
    };
    let a = repo(
        "a",
        "notify { 'facts': message => [$facts['a'], $facts['b'], $facts['c'], $facts['d'], $facts['e']] }\n",
    );
    let b = repo("b", "notify { 'facts': message => 'marker' }\n");
    let node = format!("{a}/nodes/n1.yaml");
    let puppets = serde_json::json!([true, false, true, false, "yes"]);
    let message = |catalog: &str| -> Value {
        let catalog: Value = serde_json::from_str(catalog).unwrap();
        let notify = catalog["resources"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["type"] == "Notify" && r["title"] == "facts")
            .cloned()
            .unwrap_or_else(|| panic!("no Notify[facts]: {catalog}"));
        notify["parameters"]["message"].clone()
    };

    let out = tmp.path().join("out");
    std::fs::create_dir_all(&out).unwrap();
    let args = ["compile", &a, "--facts", &node, "--out-dir"];
    let (code, _, err) = pverify(&[&args[..], &[out.to_str().unwrap()]].concat());
    assert_eq!(code, 0, "{err}");
    let compiled = std::fs::read_to_string(out.join("n1.example.com.json")).unwrap();
    assert_eq!(message(&compiled), puppets, "compile");

    let (code, out, err) = pverify(&["bless", &a]);
    assert_eq!(code, 0, "{out}{err}");
    let golden = std::fs::read_to_string(Path::new(&a).join("golden/n1.example.com.json")).unwrap();
    assert_eq!(message(&golden), puppets, "bless");
    let (code, out, err) = pverify(&["check", &a]);
    assert_eq!(code, 0, "check: {out}{err}");

    for facts in [vec![], vec!["--facts", node.as_str()]] {
        let args = [
            &["diff", "--from", &a, "--to", &b, "--format", "json"][..],
            &facts,
        ]
        .concat();
        let (code, out, err) = pverify(&args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        let report: Value = serde_json::from_str(&out).unwrap();
        let change = &report["nodes"][0]["changes"][0];
        assert_eq!(change["parameter"], "message", "{args:?}: {out}");
        assert_eq!(change["old"], puppets, "{args:?}");
    }
}

#[test]
fn bless_refuses_a_failing_node_and_keeps_its_golden() {
    let (_tmp, repo) = temp_example_repo();
    let repo_s = repo.to_str().unwrap();
    // Every node changes; the RedHat web node no longer compiles.
    edit(
        &repo.join("modules/motd/manifests/banner.pp"),
        "Managed by ${owner}",
        "Managed by: ${owner}",
    );
    edit(
        &repo.join("modules/profile/manifests/web.pp"),
        "'RedHat': { $pkg = 'httpd' $svc = 'httpd' }",
        "'RedHat': { fail('no web on RedHat') }",
    );
    let before = goldens(&repo);
    let (code, out, _) = pverify(&["bless", repo_s]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("refused web01.example.com@redhat-9-x86_64"),
        "{out}"
    );
    assert!(out.contains("no web on RedHat"), "{out}");
    assert!(
        out.contains("bless: 0 created, 5 updated, 0 unchanged, 1 refused"),
        "{out}"
    );
    let after = goldens(&repo);
    for (b, a) in before.iter().zip(&after) {
        assert_eq!(b.0, a.0);
        if b.0 == "web01.example.com@redhat-9-x86_64.json" {
            assert_eq!(b.1, a.1, "the failing node's golden was rewritten");
        } else {
            assert_ne!(b.1, a.1, "{} was not blessed", b.0);
        }
    }
    // A golden of a failing node is never deleted either.
    std::fs::remove_file(repo.join("modules/profile/manifests/web.pp")).unwrap();
    let (code, _, _) = pverify(&["bless", repo_s]);
    assert_eq!(code, 1);
    assert_eq!(goldens(&repo).len(), 6);
}

#[test]
fn shards_cover_every_node_exactly_once() {
    let repo = Repo::open(Path::new(EXAMPLE)).unwrap();
    let all: Vec<String> = repo.nodes().unwrap().into_iter().map(|n| n.id).collect();
    assert_eq!(all.len(), 6);
    for count in 1..=8 {
        let mut seen: Vec<String> = Vec::new();
        for index in 1..=count {
            let part = shard(repo.nodes().unwrap(), index, count);
            // Deterministic: the same shard twice is the same nodes.
            let again = shard(repo.nodes().unwrap(), index, count);
            assert_eq!(
                part.iter().map(|n| &n.id).collect::<Vec<_>>(),
                again.iter().map(|n| &n.id).collect::<Vec<_>>()
            );
            seen.extend(part.into_iter().map(|n| n.id));
        }
        seen.sort();
        assert_eq!(seen, all, "{count} shards");
    }
    // And through the command line.
    let mut names = Vec::new();
    for i in 1..=4 {
        let (code, out, err) = pverify(&[
            "check",
            EXAMPLE,
            "--shard",
            &format!("{i}/4"),
            "--format",
            "json",
        ]);
        assert_eq!(code, 0, "{err}");
        let r: Value = serde_json::from_str(&out).unwrap();
        names.extend(
            r["items"]
                .as_array()
                .unwrap()
                .iter()
                .map(|i| i["name"].as_str().unwrap().to_string()),
        );
    }
    names.sort();
    assert_eq!(names, all);
    assert_eq!(pverify(&["check", EXAMPLE, "--shard", "5/4"]).0, 3);
}

#[test]
fn output_is_the_same_for_any_jobs() {
    let one = pverify(&["check", EXAMPLE, "--jobs", "1", "--format", "json"]).1;
    let two = pverify(&["check", EXAMPLE, "--jobs", "2", "--format", "json"]).1;
    let strip = |s: &str| {
        let mut v: Value = serde_json::from_str(s).unwrap();
        for i in v["items"].as_array_mut().unwrap() {
            i["millis"] = Value::from(0);
        }
        v
    };
    assert_eq!(strip(&one), strip(&two));
}

#[test]
fn config_errors_exit_3() {
    let tmp = tempfile::tempdir().unwrap();
    let (code, _, err) = pverify(&["check", tmp.path().to_str().unwrap()]);
    assert_eq!(code, 3);
    assert!(err.contains("pverify.yaml"), "{err}");
    std::fs::write(
        tmp.path().join("pverify.yaml"),
        "nodes: {matrix: [{names: [a], bogus: 1}]}\n",
    )
    .unwrap();
    let (code, _, err) = pverify(&["check", tmp.path().to_str().unwrap()]);
    assert_eq!(code, 3);
    assert!(err.contains("unknown field `bogus`"), "{err}");
}

#[test]
fn the_goldens_are_puppets_catalogs() {
    if !have(&[Need::Puppet]) {
        return;
    }
    let (code, out, err) = pverify(&["check", EXAMPLE, "--oracle", "puppet"]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out.lines().last(), Some("6 passed, 0 failed, 0 skipped"));
}
