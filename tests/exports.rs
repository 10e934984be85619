//! Exported resources (tests/fixtures/exports-repo): two web nodes export,
//! a monitoring node collects. The goldens are Puppet 7.23's catalogs
//! compiled against `puppetdb/resources.json` with storeconfigs (the
//! oracle driver's `pverify_exports` terminus); the in-run mode, which
//! needs no file, must give the same catalogs.

mod common;
use common::{copy_dir, edit, have, pverify, Need};

use std::path::Path;

const REPO: &str = "tests/fixtures/exports-repo";

/// A copy of the repo whose pverify.yaml names no exports file.
fn repo_without_file() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    copy_dir(Path::new(REPO), tmp.path());
    edit(
        &tmp.path().join("pverify.yaml"),
        "exports:\n  file: puppetdb/resources.json\n",
        "",
    );
    tmp
}

fn read_json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn pverify_collects_from_the_file_as_puppet_did() {
    let (code, out, err) = pverify(&["check", REPO]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out.lines().last(), Some("3 passed, 0 failed, 0 skipped"));
}

/// The file holds exactly what the web nodes' catalogs (Puppet's) export,
/// so the in-run mode must give the goldens too.
#[test]
fn the_file_is_what_the_web_nodes_export() {
    use puppet_compiler::facts::exports::Exports;
    let text = std::fs::read_to_string(Path::new(REPO).join("puppetdb/resources.json")).unwrap();
    let file = Exports::from_json_text(&text).unwrap();
    let mut theirs = Exports::default();
    for node in ["web1.example.com", "web2.example.com"] {
        let golden = read_json(&Path::new(REPO).join(format!("golden/{node}.json")));
        theirs.replace_node(node, Exports::of_catalog(node, &golden));
    }
    assert_eq!(file, theirs);
    assert!(file.resources.len() >= 6);
}

#[test]
fn the_in_run_mode_collects_the_other_nodes_exports() {
    let tmp = repo_without_file();
    let dir = tmp.path().to_str().unwrap();
    // Without exports the monitoring node collects only its own.
    let (code, out, _) = pverify(&["check", dir]);
    assert_ne!(code, 0);
    assert!(out.contains("2 passed, 1 failed"), "{out}");
    let (code, out, err) = pverify(&["check", dir, "--exports-run"]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out.lines().last(), Some("3 passed, 0 failed, 0 skipped"));
    // A filter selects what is reported, not whose exports are gathered.
    let (code, out, err) = pverify(&["check", dir, "--exports-run", "--filter", "mon"]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out.lines().last(), Some("1 passed, 0 failed, 0 skipped"));
    // The same from pverify.yaml.
    edit(
        &tmp.path().join("pverify.yaml"),
        "golden: golden\n",
        "golden: golden\nexports:\n  run: true\n",
    );
    let (code, out, err) = pverify(&["check", dir]);
    assert_eq!(code, 0, "{out}{err}");
}

/// `pverify compile` over node files: `--exports FILE` and `--exports-run`
/// give the monitoring node its golden catalog.
#[test]
fn compile_takes_exports_from_a_file_or_the_run() {
    let tmp = tempfile::tempdir().unwrap();
    let config: serde_json::Value = serde_json::to_value(
        puppet_model::yaml::from_str::<serde_json::Value>(
            &std::fs::read_to_string(Path::new(REPO).join("pverify.yaml")).unwrap(),
        )
        .unwrap(),
    )
    .unwrap();
    let mut files = Vec::new();
    for entry in config["nodes"]["matrix"].as_array().unwrap() {
        let name = entry["names"][0].as_str().unwrap();
        let path = tmp.path().join(format!("{name}.json"));
        let node = serde_json::json!({"name": name, "values": entry["facts"]});
        std::fs::write(&path, node.to_string()).unwrap();
        files.push(path.to_string_lossy().into_owned());
    }
    // Named as the goldens' environment.
    let env = tmp.path().join("production");
    copy_dir(Path::new(REPO), &env);
    let env = env.to_str().unwrap();
    let golden =
        std::fs::read_to_string(Path::new(REPO).join("golden/mon.example.com.json")).unwrap();
    let exports = format!("{REPO}/puppetdb/resources.json");
    for (i, extra) in [vec!["--exports", exports.as_str()], vec!["--exports-run"]]
        .into_iter()
        .enumerate()
    {
        let out_dir = tmp.path().join(format!("out{i}"));
        let mut args = vec!["compile", env, "--puppet", "7", "--out-dir"];
        args.push(out_dir.to_str().unwrap());
        args.extend(extra.iter().copied());
        args.push("--facts");
        args.extend(files.iter().map(String::as_str));
        let (code, out, err) = pverify(&args);
        assert_eq!(code, 0, "{args:?}: {out}{err}");
        let got = read_json(&out_dir.join("mon.example.com.json"));
        let canonical = pverify_harness::harness::canonicalize_catalog(&got, env);
        assert!(
            canonical.trim_end() == golden.trim_end(),
            "{extra:?}: mon.example.com is not its golden:\n{canonical}"
        );
    }
}

#[test]
fn a_bad_exports_file_is_named() {
    let tmp = repo_without_file();
    let bad = tmp.path().join("bad.json");
    std::fs::write(&bad, r#"[{"certname": "a", "type": "File"}]"#).unwrap();
    let dir = tmp.path().to_str().unwrap();
    let (code, _, err) = pverify(&["check", dir, "--exports", bad.to_str().unwrap()]);
    assert_eq!(code, 3, "{err}");
    assert!(
        err.contains("bad.json: resource 0: `title` is missing"),
        "{err}"
    );
}

/// Puppet 7.23 itself, as the goldens were made: from the file, and in the
/// in-run mode (Puppet compiles every node, then again with their exports).
#[test]
fn the_goldens_are_puppets_catalogs_both_ways() {
    if !have(&[Need::Puppet]) {
        return;
    }
    let (code, out, err) = pverify(&["check", REPO, "--oracle", "puppet"]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out.lines().last(), Some("3 passed, 0 failed, 0 skipped"));
    let tmp = repo_without_file();
    let dir = tmp.path().to_str().unwrap();
    let (code, out, err) = pverify(&["check", dir, "--exports-run", "--oracle", "puppet"]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out.lines().last(), Some("3 passed, 0 failed, 0 skipped"));
}

/// Puppet 8.10 makes the same catalogs from the file (the goldens are
/// 7.23's; the repo's code means the same to both), and so does pverify
/// compiling as Puppet 8.
#[test]
fn puppet_8_agrees() {
    let (code, out, err) = pverify(&["check", REPO, "--puppet", "8"]);
    assert_eq!(code, 0, "{out}{err}");
    if common::puppet8_reference("exports-repo").is_none() {
        return;
    }
    let (code, out, err) = pverify(&["check", REPO, "--puppet", "8", "--oracle", "puppet"]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out.lines().last(), Some("3 passed, 0 failed, 0 skipped"));
}

/// `pverify diff` of two trees whose exports files differ (another node
/// changed what it exports): the collecting node's catalog changes.
#[test]
fn diff_shows_a_change_of_another_nodes_export() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("from"), tmp.path().join("to"));
    copy_dir(Path::new(REPO), &a);
    copy_dir(Path::new(REPO), &b);
    let file = b.join("puppetdb/resources.json");
    let text = std::fs::read_to_string(&file).unwrap();
    // web1's first export is its monitoring host.
    std::fs::write(&file, text.replacen("\"192.0.2.21\"", "\"192.0.2.121\"", 1)).unwrap();
    let (code, out, err) = pverify(&[
        "diff",
        "--from",
        a.to_str().unwrap(),
        "--to",
        b.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(out.contains("3 nodes: 1 changed, 2 unchanged"), "{out}");
    assert!(out.contains("Monitoring::Host[web1.example.com]"), "{out}");
    assert!(out.contains("192.0.2.121"), "{out}");
}
