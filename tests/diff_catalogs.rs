//! `pverify diff --from-catalogs A --to-catalogs B` on two catalogs compiled
//! by real Puppet 7.23 (see tests/fixtures/diff/puppet-7.23/README.md for
//! how they were made).

use std::process::Command;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/diff");

fn run(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_pverify"))
        .current_dir(DIR)
        .arg("diff")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn puppet_catalog_files_with_module_sources() {
    let (code, report) = run(&[
        "--from-catalogs",
        "puppet-7.23/from/web01.json",
        "--to-catalogs",
        "puppet-7.23/to/web01.json",
        "--from-modulepath",
        "env/modules",
        "--to-modulepath",
        "puppet-7.23/to-modules",
    ]);
    assert_eq!(
        report,
        r#"pverify diff: puppet-7.23/from/web01.json -> puppet-7.23/to/web01.json
1 node: 1 changed, 0 unchanged, 0 added, 0 removed, 0 failed

Class[Base] parameter motd_mode changed on 1 node: web01
  "0644" -> "0600"

File[/etc/motd] source file content changed on 1 node: web01
  --- File[/etc/motd] (from)
  +++ File[/etc/motd] (to)
  @@ -1,2 +1,2 @@
   This host is managed by Puppet.
  -Unauthorised access is prohibited.
  +Authorised access only.

File[/etc/motd] parameter mode changed on 1 node: web01
  "0644" -> "0600"

Service[ntp] relationship require changed on 1 node: web01
  - Package[ntp]

Service[ntp] relationship subscribe changed on 1 node: web01
  + Package[ntp]
"#
    );
    assert_eq!(code, 2);
}

#[test]
fn catalog_directories_and_identity() {
    // Without a modulepath the source URL is compared as a string (same).
    let (code, report) = run(&[
        "--from-catalogs",
        "puppet-7.23/from",
        "--to-catalogs",
        "puppet-7.23/to",
    ]);
    assert_eq!(code, 2);
    assert!(!report.contains("content changed"), "{report}");
    let (code, report) = run(&[
        "--from-catalogs",
        "puppet-7.23/from",
        "--to-catalogs",
        "puppet-7.23/from",
    ]);
    assert_eq!(code, 0, "{report}");
    assert!(report.ends_with("1 node: 0 changed, 1 unchanged, 0 added, 0 removed, 0 failed\n"));
}

#[test]
fn pverify_catalog_equals_puppet_catalog() {
    // The same node compiled by pverify and by Puppet 7.23: no change.
    let out = Command::new(env!("CARGO_BIN_EXE_pverify"))
        .current_dir(DIR)
        .args(["compile", "env", "--facts", "env/nodes/web01.json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let tmp =
        std::env::temp_dir().join(format!("pverify-test-diff-cat-{}.json", std::process::id()));
    std::fs::write(&tmp, &out.stdout).unwrap();
    let (code, report) = run(&[
        "--from-catalogs",
        "puppet-7.23/from/web01.json",
        "--to-catalogs",
        tmp.to_str().unwrap(),
        "--from-modulepath",
        "env/modules",
        "--to-modulepath",
        "env/modules",
    ]);
    let _ = std::fs::remove_file(&tmp);
    assert_eq!(code, 0, "{report}");
}

#[test]
fn unreadable_catalog_is_a_failure() {
    let (code, report) = run(&[
        "--from-catalogs",
        "puppet-7.23/from/web01.json",
        "--to-catalogs",
        "puppet-7.23/README.md",
    ]);
    assert_eq!(code, 1);
    assert!(
        report
            .contains("Nodes failed:\n  web01:\n    to: puppet-7.23/README.md:1:1: expected value"),
        "{report}"
    );
}

#[test]
fn directories_with_added_nodes_and_compile_reports() {
    let tmp = std::env::temp_dir().join(format!("pverify-test-diff-dirs-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).unwrap();
    let web01 = std::fs::read_to_string(format!("{DIR}/puppet-7.23/from/web01.json")).unwrap();
    std::fs::write(tmp.join("web01.json"), &web01).unwrap();
    std::fs::write(
        tmp.join("web02.json"),
        web01.replace("\"web01\"", "\"web02\""),
    )
    .unwrap();
    // `pverify compile --out-dir` records failed nodes in report.json.
    std::fs::write(
        tmp.join("report.json"),
        r#"{"nodes": [{"name": "web01", "status": "compiled"},
                      {"name": "db01", "status": "failed", "error": "Evaluation Error: boom on node db01"}]}"#,
    )
    .unwrap();
    let (code, report) = run(&[
        "--from-catalogs",
        "puppet-7.23/from",
        "--to-catalogs",
        tmp.to_str().unwrap(),
    ]);
    let _ = std::fs::remove_dir_all(&tmp);
    assert_eq!(code, 1, "{report}");
    let body = report.split_once('\n').unwrap().1;
    assert_eq!(
        body,
        "3 nodes: 0 changed, 1 unchanged, 1 added, 0 removed, 1 failed

Nodes added:
  web02 (9 resources)

Nodes failed:
  db01:
    to: Evaluation Error: boom on node db01
"
    );
}
