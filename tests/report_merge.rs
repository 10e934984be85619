//! `pverify report merge`: the JSON reports of 3 shards put together equal
//! the report of one unsharded run, byte for byte, in every format, for
//! `check` (the bundled control repo with failures of every kind) and for
//! `diff` (two git revisions of the example repo); and what merge refuses.
//!
//! Timings: every format but JSON and JUnit is free of them. In those two
//! each node's `millis` / `time` is its own compile's, which no two runs
//! share; the comparison sets them to 0 (and only them). The merged JUnit's
//! totals are the sum of the items', as in a single run.

mod common;
use common::{copy_dir, edit, git, pverify, pverify_in};

use std::path::{Path, PathBuf};

const SHARDS: usize = 3;

/// The formats of each kind of report.
const CHECK_FORMATS: [&str; 4] = ["text", "json", "junit", "html"];
const DIFF_FORMATS: [&str; 5] = ["text", "markdown", "json", "junit", "html"];

/// Only the timings (see the module's text) set to 0.
fn without_timings(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    loop {
        let next = [("\"millis\": ", ""), (" time=\"", "\"")]
            .iter()
            .filter_map(|(start, end)| rest.find(start).map(|i| (i, *start, *end)))
            .min_by_key(|(i, _, _)| *i);
        let Some((i, start, end)) = next else { break };
        out.push_str(&rest[..i + start.len()]);
        out.push('0');
        let tail = &rest[i + start.len()..];
        let digits = tail
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(tail.len());
        assert!(
            digits > 0,
            "a timing without digits: {}",
            &tail[..20.min(tail.len())]
        );
        rest = &tail[digits..];
        assert!(rest.starts_with(end) || end.is_empty());
    }
    out.push_str(rest);
    out
}

/// Each shard's JSON report written to `dir/shard-I.json`; their paths.
/// `run` is the command's arguments before `--shard`. Each shard exits
/// as its own nodes say (0, 1 or 2), never 3.
fn shard_reports(dir: &Path, cwd: &Path, run: &[&str]) -> Vec<PathBuf> {
    (1..=SHARDS)
        .map(|i| {
            let shard = format!("{i}/{SHARDS}");
            let mut args = run.to_vec();
            args.extend(["--shard", &shard, "--format", "json"]);
            let (c, out, err) = pverify_in(cwd, &args);
            assert!((0..=2).contains(&c), "shard {shard}: exit {c}: {err}");
            let file = dir.join(format!("shard-{i}.json"));
            std::fs::write(&file, out).unwrap();
            file
        })
        .collect()
}

/// `report merge` of `files` in `format` (extra arguments after).
fn merge(files: &[PathBuf], format: &str, extra: &[&str]) -> (i32, String, String) {
    let mut args = vec!["report", "merge"];
    // Any order: the last shard first.
    let names: Vec<String> = files
        .iter()
        .rev()
        .map(|f| f.display().to_string())
        .collect();
    args.extend(names.iter().map(String::as_str));
    args.extend(["--format", format]);
    args.extend(extra);
    pverify(&args)
}

/// For every format: the unsharded run's report and the merge of the
/// shards' are the same bytes (timings aside), with the same exit code.
fn assert_merges_equal(
    cwd: &Path,
    run: &[&str],
    formats: &[&str],
    extra: &[&str],
    code: i32,
    shards: &[PathBuf],
) {
    for format in formats {
        let mut args = run.to_vec();
        args.extend(["--format", format]);
        args.extend(extra);
        let (c, whole, err) = pverify_in(cwd, &args);
        assert_eq!(c, code, "unsharded {format}: {err}");
        let (m, merged, err) = merge(shards, format, extra);
        assert_eq!(m, code, "merged {format}: {err}");
        assert!(err.is_empty(), "{err}");
        let (whole, merged) = match *format {
            "json" | "junit" => (without_timings(&whole), without_timings(&merged)),
            _ => (whole, merged),
        };
        assert!(
            whole == merged,
            "{format}: the merged report differs from the unsharded one\n--- unsharded\n{whole}\n--- merged\n{merged}"
        );
    }
}

/// The bundled control repo (25 nodes) with failures of every kind: a
/// Hiera value every node shows changed (catalog changes against the
/// goldens), one node that no longer compiles, and a stale golden
/// (`--strict-goldens`).
fn failing_control_repo(tmp: &Path) -> PathBuf {
    let repo = tmp.join("control-repo");
    copy_dir(Path::new("tests/fixtures/control-repo"), &repo);
    edit(
        &repo.join("data/common.yaml"),
        "profile::base::admin_contact: ops@example.com",
        "profile::base::admin_contact: platform@example.com",
    );
    std::fs::write(
        repo.join("data/nodes/files01.example.com.yaml"),
        "---\nprofile::base::motd_banner_width: wide\n",
    )
    .unwrap();
    std::fs::copy(
        repo.join("golden/base01.example.com@redhat-9.json"),
        repo.join("golden/old01.example.com@redhat-9.json"),
    )
    .unwrap();
    repo
}

#[test]
fn check_shards_merge_to_the_unsharded_report_in_every_format() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = failing_control_repo(tmp.path());
    let run = ["check", ".", "--strict-goldens"];
    let shards = shard_reports(tmp.path(), &repo, &run);
    assert_merges_equal(&repo, &run, &CHECK_FORMATS, &[], 1, &shards);
    // The merged report has every kind of failure in it.
    let (_, text, _) = merge(&shards, "text", &[]);
    for expected in [
        "platform@example.com",
        "files01.example.com@debian-11",
        "motd_banner_width",
        "golden/old01.example.com@redhat-9.json: node old01.example.com@redhat-9 is no longer in the matrix",
    ] {
        assert!(text.contains(expected), "{expected}\n{text}");
    }
    assert!(text.ends_with("failed, 0 skipped\n"), "{text}");
    // JUnit's totals are the sum of the shards' items.
    let item_millis: u64 = shards
        .iter()
        .flat_map(|f| {
            let doc: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(f).unwrap()).unwrap();
            doc["items"]
                .as_array()
                .unwrap()
                .iter()
                .map(|i| i["millis"].as_u64().unwrap())
                .collect::<Vec<_>>()
        })
        .sum();
    let (_, junit, _) = merge(&shards, "junit", &[]);
    let total = format!("time=\"{:.3}\"", item_millis as f64 / 1000.0);
    assert!(junit.contains(&total), "{total}\n{junit}");
}

/// The example repo in a git repository, with a commit that changes a
/// value on some nodes, a file's text by node name (placeholders), renames
/// a resource, adds nodes, removes nodes and makes new nodes fail.
fn example_repo_with_a_commit(tmp: &Path) -> PathBuf {
    let repo = tmp.join("repo");
    copy_dir(Path::new(common::EXAMPLE), &repo);
    // app01's own admin gone, so its banner changes as web01's does.
    std::fs::remove_file(repo.join("data/nodes/app01.example.com.yaml")).unwrap();
    git(&repo, &["init", "-q"]);
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-q", "-m", "base"]);
    edit(
        &repo.join("data/common.yaml"),
        "ops@example.com",
        "platform@example.com",
    );
    edit(
        &repo.join("modules/motd/manifests/banner.pp"),
        r#"content => "Managed by ${owner} (${dc})\n","#,
        r#"content => "Managed by ${owner} (${dc}) on ${trusted['certname']}\n","#,
    );
    edit(
        &repo.join("modules/profile/manifests/web.pp"),
        "String $docroot = '/srv/www'",
        "String $docroot = '/srv/web'",
    );
    edit(
        &repo.join("pverify.yaml"),
        "names: [web01.example.com, db01.example.com, app01.example.com]",
        "names: [web01.example.com, web02.example.com, db02.example.com, app01.example.com]",
    );
    std::fs::write(
        repo.join("data/nodes/web02.example.com.yaml"),
        "---\nprofile::base::admin: 42\n",
    )
    .unwrap();
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-q", "-m", "change"]);
    repo
}

#[test]
fn diff_shards_merge_to_the_unsharded_report_in_every_format() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = example_repo_with_a_commit(tmp.path());
    let run = ["diff", "--from", "HEAD~1", "--to", "HEAD"];
    let shards = shard_reports(tmp.path(), &repo, &run);
    assert_merges_equal(&repo, &run, &DIFF_FORMATS, &[], 1, &shards);
    // --detail, and Markdown cut to a small budget.
    assert_merges_equal(
        &repo,
        &run,
        &["text", "markdown"],
        &["--detail"],
        1,
        &shards,
    );
    assert_merges_equal(
        &repo,
        &run,
        &["markdown"],
        &[
            "--max-bytes",
            "2000",
            "--full-report-url",
            "https://ci.example/1",
        ],
        1,
        &shards,
    );
    let (_, text, _) = merge(&shards, "text", &[]);
    for expected in [
        "10 nodes: 4 changed, 0 unchanged, 2 added, 2 removed, 2 failed",
        "File[/srv/www] renamed to File[/srv/web]",
        "on <certname>",
        "file: modules/role/manifests/web.pp",
    ] {
        assert!(text.contains(expected), "{expected}\n{text}");
    }
    // Each shard's own nodes: a node on one side only is in one shard.
    let mut names: Vec<String> = shards
        .iter()
        .flat_map(|f| {
            let doc: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(f).unwrap()).unwrap();
            assert_eq!(doc["shard"]["count"], SHARDS);
            doc["nodes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|n| n["name"].as_str().unwrap().to_string())
                .collect::<Vec<_>>()
        })
        .collect();
    names.sort();
    let before = names.len();
    names.dedup();
    assert_eq!((before, names.len()), (10, 10), "{names:?}");
    // More shards than nodes: the empty one says so (exit 3), as check's.
    let (code, _, err) = pverify_in(
        &repo,
        &[
            "diff", "--from", "HEAD~1", "--to", "HEAD", "--shard", "11/11",
        ],
    );
    assert_eq!(code, 3, "{err}");
    assert!(
        err.contains("--shard 11/11 selects no node (the two sides have 10)"),
        "{err}"
    );
}

#[test]
fn merge_refuses_what_is_not_one_whole_run() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    // Three nodes changed alike, as catalog files.
    let sides = (t.join("from"), t.join("to"));
    for (side, dir) in [("from", &sides.0), ("to", &sides.1)] {
        std::fs::create_dir_all(dir).unwrap();
        for node in ["web01", "web02", "web03"] {
            std::fs::copy(
                format!("tests/fixtures/diff/puppet-7.23/{side}/web01.json"),
                dir.join(format!("{node}.json")),
            )
            .unwrap();
        }
    }
    let run = [
        "diff",
        "--from-catalogs",
        sides.0.to_str().unwrap(),
        "--to-catalogs",
        sides.1.to_str().unwrap(),
    ];
    let dir = t.join("diff");
    std::fs::create_dir_all(&dir).unwrap();
    let diffs = shard_reports(&dir, t, &run);
    let check_repo = t.join("example-repo");
    copy_dir(Path::new(common::EXAMPLE), &check_repo);
    let checks = shard_reports(t, &check_repo, &["check", "."]);
    let refused = |files: &[&PathBuf], extra: &[&str], says: &str| {
        let mut args = vec!["report", "merge"];
        let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
        args.extend(names.iter().map(String::as_str));
        args.extend(extra);
        let (code, out, err) = pverify(&args);
        assert_eq!(code, 3, "{args:?}: {out}{err}");
        assert!(out.is_empty(), "{out}");
        assert!(err.contains(says), "{args:?}: expected {says:?} in {err}");
    };
    // The complete set merges.
    let (code, _, err) = merge(&diffs, "text", &[]);
    assert_eq!(code, 2, "{err}");
    refused(&[&diffs[0], &diffs[2]], &[], "shard 2/3 missing");
    refused(&[&diffs[1]], &[], "shards 1/3, 3/3 missing");
    refused(
        &[&diffs[0], &diffs[1], &diffs[2]],
        &["--expect", "4"],
        "--expect 4: the reports are shards of 3",
    );
    refused(
        &[&diffs[0], &diffs[1], &diffs[2], &checks[0]],
        &[],
        "a check report and",
    );
    refused(
        &[&diffs[0], &diffs[0], &diffs[1], &diffs[2]],
        &[],
        "are the same shard 1/3",
    );
    // A node in two shards (a report edited, or two runs mixed).
    let twice = dir.join("twice.json");
    let text = std::fs::read_to_string(&diffs[0]).unwrap();
    std::fs::write(&twice, text.replace("\"index\": 1", "\"index\": 2")).unwrap();
    refused(&[&diffs[0], &twice, &diffs[2]], &[], " is in ");
    let other = dir.join("other.json");
    let text = std::fs::read_to_string(&diffs[1]).unwrap();
    let from = sides.0.display().to_string();
    std::fs::write(&other, text.replacen(&from, "/elsewhere", 1)).unwrap();
    refused(
        &[&diffs[0], &other, &diffs[2]],
        &[],
        "are of different runs",
    );
    refused(
        &[&checks[0], &checks[1], &checks[2]],
        &["--format", "markdown"],
        "has no Markdown form",
    );
    let junk = dir.join("junk.json");
    std::fs::write(&junk, "{\"schema\": \"something/1\"}").unwrap();
    refused(&[&junk], &[], "not a pverify JSON report");
    std::fs::write(&junk, "not json").unwrap();
    refused(&[&junk], &[], "not a JSON report");
}
