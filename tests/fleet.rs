//! A fleet as a Puppet server sees it (tests/fixtures/fleet-repo): nodes'
//! environments select their environment's code, nodes from PuppetDB's
//! inventory and a server's YAML fact cache (trusted data in
//! `values.trusted`), the ENC of pverify.yaml, the basemodulepath on the
//! command line and `--fact-override`. Where Puppet's behaviour is
//! involved, Puppet 7.23 (`--oracle puppet`) gives the answer.

mod common;
use common::{copy_dir, have, pverify, Need};

use std::path::Path;

use pverify_harness::control::Repo;

const REPO: &str = "tests/fixtures/fleet-repo";

/// A scratch copy of the fleet repo (the ENC keeps its mode).
fn temp_fleet() -> (tempfile::TempDir, std::path::PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("fleet");
    copy_dir(Path::new(REPO), &dir);
    let enc = dir.join("enc.sh");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&enc, std::fs::Permissions::from_mode(0o755)).unwrap();
    (tmp, dir)
}

fn last_line(out: &str) -> &str {
    out.lines().last().unwrap_or_default()
}

/// The goldens are Puppet 7.23's: inventory nodes in `production` and
/// `dev`, a YAML fact cache with `values.trusted`, and the ENC moving
/// enc01 to `dev` with a class and a parameter.
#[test]
fn the_goldens_are_puppets_catalogs() {
    if !have(&[Need::Puppet, Need::DebianModules]) {
        return;
    }
    let (code, out, err) = pverify(&["check", REPO, "--oracle", "puppet"]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(last_line(&out), "4 passed, 0 failed, 0 skipped");
}

#[test]
fn pverify_agrees_with_puppet_on_the_fleet() {
    if !have(&[Need::Puppet, Need::DebianModules]) {
        return;
    }
    let (code, out, err) = pverify(&["check", REPO]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(last_line(&out), "4 passed, 0 failed, 0 skipped");
    // Each node compiled its own environment's code.
    let golden = |n: &str| std::fs::read_to_string(Path::new(REPO).join("golden").join(n)).unwrap();
    assert!(golden("enc01.example.com.json").contains("dev web on 8081"));
    assert!(golden("web02.example.com.json").contains("\"dev dev fra nobody\""));
    assert!(golden("web01.example.com.json").contains("production web on 80"));
    assert!(golden("cache01.example.com.json").contains("production cache"));
}

/// A node whose environment does not exist fails with Puppet's words, the
/// same on both sides; the other nodes are kept.
#[test]
fn an_unknown_environment_fails_as_on_a_puppet_server() {
    if !have(&[Need::Puppet, Need::DebianModules]) {
        return;
    }
    let (_tmp, dir) = temp_fleet();
    std::fs::write(
        dir.join("more.json"),
        r#"[{"certname": "ghost01.example.com", "environment": "staging", "facts": {}}]"#,
    )
    .unwrap();
    common::edit(
        &dir.join("pverify.yaml"),
        "inventory: [inventory.json]",
        "inventory: [inventory.json, more.json]",
    );
    let repo = Repo::open(&dir).unwrap();
    let nodes = repo.nodes().unwrap();
    let ours = repo.compile(&nodes, &|| {}).unwrap();
    let puppets = repo.compile_with_puppet(&nodes, 1).unwrap();
    let want = "Could not find a directory environment named 'staging' anywhere in the path: .. \
                Does the directory exist?";
    for compiled in [&ours, &puppets] {
        let ghost = compiled
            .iter()
            .find(|c| c.id == "ghost01.example.com")
            .unwrap();
        assert_eq!(ghost.result.as_ref().unwrap_err(), want);
        assert_eq!(compiled.iter().filter(|c| c.result.is_ok()).count(), 4);
    }
    // pverify names the real environmentpath.
    let (code, out, _) = pverify(&["check", dir.to_str().unwrap(), "--filter", "ghost"]);
    assert_eq!(code, 1);
    assert!(
        out.contains("named 'staging' anywhere in the path: ."),
        "{out}"
    );
}

/// `--fact-override` changes the facts both compilers get: goldens blessed
/// by pverify with the override are Puppet's catalogs with it too.
#[test]
fn fact_overrides_reach_both_compilers() {
    if !have(&[Need::Puppet, Need::DebianModules]) {
        return;
    }
    let (_tmp, dir) = temp_fleet();
    let d = dir.to_str().unwrap();
    let flags = [
        "--fact-override",
        "datacenter=(string)lis",
        "--fact-override",
        "/^os$/=(nil)",
    ];
    let (code, out, err) = pverify(&[&["bless", d][..], &flags].concat());
    assert_eq!(code, 0, "{out}{err}");
    let web01 = std::fs::read_to_string(dir.join("golden/web01.example.com.json")).unwrap();
    assert!(web01.contains("\"production production lis\""), "{web01}");
    let (code, out, err) = pverify(&[&["check", d, "--oracle", "puppet"][..], &flags].concat());
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(last_line(&out), "4 passed, 0 failed, 0 skipped");
    // Without the override the goldens no longer match.
    let (code, _, _) = pverify(&["check", d]);
    assert_eq!(code, 1);
}

/// `--basemodulepath` is the basemodulepath of pverify and of the oracle:
/// a module found only there compiles on both sides, and without it on
/// neither.
#[test]
fn basemodulepath_on_the_command_line_reaches_the_oracle() {
    if !have(&[Need::Puppet, Need::DebianModules]) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("repo");
    let base = tmp.path().join("base");
    std::fs::create_dir_all(repo.join("manifests")).unwrap();
    std::fs::create_dir_all(base.join("extra/manifests")).unwrap();
    std::fs::write(
        repo.join("pverify.yaml"),
        "puppet: 7\nnodes: {matrix: [{names: [n1.example.com]}]}\n",
    )
    .unwrap();
    std::fs::write(repo.join("manifests/site.pp"), "include extra\n").unwrap();
    std::fs::write(
        base.join("extra/manifests/init.pp"),
        "class extra { notify { \"extra ${pick(undef, 'via stdlib')}\": } }\n",
    )
    .unwrap();
    let r = repo.to_str().unwrap();
    let dirs = format!("{}:/usr/share/puppet/modules", base.display());
    let (code, out, err) = pverify(&["bless", r, "--basemodulepath", &dirs]);
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, err) = pverify(&["check", r, "--oracle", "puppet", "--basemodulepath", &dirs]);
    assert_eq!(code, 0, "{out}{err}");
    for oracle in [&[][..], &["--oracle", "puppet"][..]] {
        let (code, out, _) = pverify(&[&["check", r][..], oracle].concat());
        assert_eq!(code, 1, "{oracle:?}");
        assert!(
            out.contains("Could not find class ::extra"),
            "{oracle:?} {out}"
        );
    }
}

/// `pverify compile` reads an inventory, a directory of node files and the
/// server's fact cache; a node's environment selects
/// `<environmentpath>/<name>`.
#[test]
fn compile_reads_inventories_and_directories_and_selects_environments() {
    if !have(&[Need::Puppet, Need::DebianModules]) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let envs = format!("{REPO}/environments");
    let (code, o, e) = pverify(&[
        "compile",
        &format!("{envs}/production"),
        "--puppet",
        "7",
        "--environmentpath",
        &envs,
        "--facts",
        &format!("{REPO}/inventory.json"),
        &format!("{REPO}/nodes"),
        "--fact-override",
        "datacenter=osl",
        "--out-dir",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{o}{e}");
    let catalog = |n: &str| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(out.join(format!("{n}.json"))).unwrap())
            .unwrap()
    };
    let message = |c: &serde_json::Value| {
        c["resources"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["title"] == "where")
            .map(|r| r["parameters"]["message"].as_str().unwrap().to_string())
    };
    let web02 = catalog("web02.example.com");
    assert_eq!(web02["environment"], "dev");
    assert_eq!(message(&web02).unwrap(), "dev dev osl nobody");
    let cache01 = catalog("cache01.example.com");
    assert_eq!(message(&cache01).unwrap(), "production production osl");
    assert!(cache01.to_string().contains("production cache"));

    // An inventory holds several nodes: one catalog to stdout is refused.
    let (code, _, e) = pverify(&[
        "compile",
        &format!("{envs}/production"),
        "--facts",
        &format!("{REPO}/inventory.json"),
    ]);
    assert_eq!(code, 3);
    assert!(e.contains("several nodes need --out-dir"), "{e}");
}

/// In `pverify diff`, each node compiles in its environment on each side:
/// a change to dev's code shows on the dev nodes only (web02 from the
/// inventory, enc01 moved there by the ENC of pverify.yaml).
#[test]
fn diff_compiles_each_node_in_its_environment() {
    if !have(&[Need::Puppet, Need::DebianModules]) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let from = tmp.path().join("from");
    let to = tmp.path().join("to");
    for side in [&from, &to] {
        copy_dir(Path::new(REPO), side);
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(side.join("enc.sh"), std::fs::Permissions::from_mode(0o755))
            .unwrap();
    }
    common::edit(
        &to.join("environments/dev/site/role/manifests/web.pp"),
        "192.0.2.20",
        "192.0.2.21",
    );
    let (code, out, err) = pverify(&[
        "diff",
        "--from",
        from.to_str().unwrap(),
        "--to",
        to.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(code, 2, "{out}{err}");
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    let changed: Vec<&str> = report["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["status"] == "changed")
        .map(|n| n["name"].as_str().unwrap())
        .collect();
    assert_eq!(changed, ["enc01.example.com", "web02.example.com"], "{out}");
}

/// Node sources that are not what they claim fail with their file named
/// and the formats pverify reads; the other nodes are kept.
#[test]
fn a_bad_node_source_names_its_file_and_the_expected_formats() {
    if !have(&[Need::Puppet, Need::DebianModules]) {
        return;
    }
    let (_tmp, dir) = temp_fleet();
    std::fs::write(dir.join("nodes/broken.yaml"), "values: [1, 2]\n").unwrap();
    let (code, out, _) = pverify(&["check", dir.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(
        out.contains("nodes/broken.yaml: missing 'name' (the certname) (expected a node file"),
        "{out}"
    );
    assert!(out.contains("PuppetDB's inventory"), "{out}");
    assert!(out.contains("4 passed, 1 failed"), "{out}");
}

/// pverify.yaml's ENC runs under `--enc-timeout`: a hung ENC fails its node
/// only, and an ENC's environment that does not exist fails as Puppet does.
#[test]
fn the_config_enc_is_timed_and_its_environment_checked() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path();
    std::fs::create_dir_all(repo.join("manifests")).unwrap();
    std::fs::write(repo.join("manifests/site.pp"), "notify { $environment: }\n").unwrap();
    std::fs::write(
        repo.join("enc.sh"),
        "#!/bin/sh\ncase \"$1\" in\n  slow*) sleep 5 ;;\n  moved*) echo 'environment: qa'; exit 0 ;;\nesac\necho '{}'\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(repo.join("enc.sh"), std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::write(
        repo.join("pverify.yaml"),
        "enc: enc.sh\nnodes: {matrix: [{names: [fast.example.com, slow.example.com, moved.example.com]}]}\n",
    )
    .unwrap();
    let r = repo.to_str().unwrap();
    let (code, out, err) = pverify(&["bless", r, "--enc-timeout", "0.5"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("created golden/fast.example.com.json"),
        "{out}"
    );
    assert!(
        out.contains("the ENC did not answer for slow.example.com within 0.5 s"),
        "{out}"
    );
    assert!(
        out.contains("Could not find a directory environment named 'qa' anywhere in the path: ."),
        "{out}"
    );
}
