//! Determinism: catalogs and reports are byte-identical across runs and for
//! every `--jobs` from 1 to 8: the example control repo's goldens rewritten
//! by `pverify bless`, its `check` report, and the spec-suite's `run`
//! report (timings left out: they are the only thing allowed to vary), and one
//! node's catalog with and without parsing ahead on a spare thread.

use std::path::{Path, PathBuf};
use std::process::Command;

fn pverify(args: &[&str], dir: &Path) -> (bool, Vec<u8>) {
    let o = Command::new(env!("CARGO_BIN_EXE_pverify"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("running pverify");
    (o.status.success(), o.stdout)
}

/// A JSON report without its `millis` fields.
fn without_timings(report: &[u8]) -> String {
    fn strip(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Object(o) => {
                o.remove("millis");
                o.values_mut().for_each(strip);
            }
            serde_json::Value::Array(a) => a.iter_mut().for_each(strip),
            _ => {}
        }
    }
    let mut v: serde_json::Value = serde_json::from_slice(report).expect("a JSON report");
    strip(&mut v);
    serde_json::to_string_pretty(&v).unwrap()
}

/// Every file below `dir`, by relative path, with its bytes.
fn files(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out: Vec<(PathBuf, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| {
            (
                p.strip_prefix(dir).unwrap().to_path_buf(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn example_repo_goldens_and_report_for_jobs_1_to_8() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let fixtures = root.join("tests/fixtures");
    let original = files(&fixtures.join("example-repo/golden"));
    let mut first_report: Option<String> = None;
    for jobs in 1..=8 {
        let tmp = tempfile::tempdir().unwrap();
        for d in ["example-repo", "factsets"] {
            let ok = Command::new("cp")
                .arg("-r")
                .arg(fixtures.join(d))
                .arg(tmp.path().join(d))
                .status()
                .unwrap()
                .success();
            assert!(ok);
        }
        let repo = tmp.path().join("example-repo");
        let j = jobs.to_string();
        // Blessing from nothing must give the very bytes of the goldens.
        std::fs::remove_dir_all(repo.join("golden")).unwrap();
        let (ok, _) = pverify(&["bless", ".", "--jobs", &j], &repo);
        assert!(ok, "bless --jobs {jobs} failed");
        assert!(
            files(&repo.join("golden")) == original,
            "goldens differ with --jobs {jobs}"
        );
        let (ok, out) = pverify(&["check", ".", "--jobs", &j, "--format", "json"], &repo);
        assert!(ok, "check --jobs {jobs} failed");
        let report = without_timings(&out);
        match &first_report {
            None => first_report = Some(report),
            Some(first) => assert_eq!(first, &report, "check report differs with --jobs {jobs}"),
        }
    }
}

#[test]
fn spec_suite_report_for_jobs_1_to_8_and_twice() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let run = |jobs: usize| {
        let (_, out) = pverify(
            &[
                "run",
                "spec-suite",
                "--jobs",
                &jobs.to_string(),
                "--format",
                "json",
            ],
            root,
        );
        without_timings(&out)
    };
    let first = run(1);
    assert!(first.contains("\"passed\""), "{first}");
    for jobs in (1..=8).chain([8]) {
        assert_eq!(first, run(jobs), "run report differs with --jobs {jobs}");
    }
}

/// One node's catalog is the same whether a spare thread parses ahead
/// (`--jobs` above the number of nodes) or not (`--jobs 1`): the web node
/// of the control repo, whose includes reach apache's big manifests.
#[test]
fn one_node_catalog_with_and_without_parse_ahead() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let repo = root.join("tests/fixtures/control-repo");
    let facts: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(repo.join("factsets/debian-12.facts")).expect("fact set"),
    )
    .expect("fact set JSON");
    let dir = std::env::temp_dir().join(format!("pverify-parse-ahead-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let node = dir.join("web01.json");
    let doc = serde_json::json!({"name": "web01.example.com", "values": facts});
    std::fs::write(&node, doc.to_string()).expect("node file");
    let compile = |jobs: &str| {
        let (ok, out) = pverify(
            &[
                "compile",
                &repo.to_string_lossy(),
                "--facts",
                &node.to_string_lossy(),
                "--jobs",
                jobs,
                // A Puppet 7 repo (Debian 12's modules).
                "--puppet",
                "7",
            ],
            root,
        );
        assert!(ok, "compile --jobs {jobs} failed");
        out
    };
    let alone = compile("1");
    assert!(alone.len() > 10_000, "a real catalog");
    for jobs in ["2", "4"] {
        assert!(alone == compile(jobs), "catalog differs with --jobs {jobs}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
