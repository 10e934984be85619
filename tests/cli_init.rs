//! `pverify init`: a first pverify.yaml for the bundled repos, a repo laid
//! out as puppetlabs/control-repo is, and an onceover repo
//! (`--from-onceover`), each then checked and blessed.

mod common;

use std::path::Path;

use common::{copy_dir, pverify, EXAMPLE};

/// A copy of a bundled repo without its pverify.yaml and goldens.
fn bare_copy(from: &str, to: &Path) {
    copy_dir(Path::new(from), to);
    std::fs::remove_file(to.join("pverify.yaml")).unwrap();
    let _ = std::fs::remove_dir_all(to.join("golden"));
}

fn write(root: &Path, path: &str, text: &str) {
    let p = root.join(path);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

fn last_line(s: &str) -> &str {
    s.lines().last().unwrap_or_default()
}

/// init, then check (every node compiled, none with a golden yet), then
/// bless and check again: the summary line of the last check.
fn init_check_bless(dir: &Path, init_flags: &[&str]) -> String {
    let d = dir.to_str().unwrap();
    let (code, out, err) = pverify(&[&["init", d][..], init_flags].concat());
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.starts_with(&format!("wrote {d}/pverify.yaml: ")),
        "{out}"
    );
    assert!(out.contains(&format!("pverify check {d}")), "{out}");
    let (code, out, _) = pverify(&["check", d]);
    assert_eq!(code, 1, "{out}");
    // Every node is there, reported: none hidden, none passing unchecked.
    assert!(last_line(&out).starts_with("0 passed, "), "{out}");
    let (_, out, _) = pverify(&["bless", d]);
    assert!(out.contains(" created, 0 updated"), "{out}");
    let (_, out, _) = pverify(&["check", d]);
    last_line(&out).to_string()
}

#[test]
fn init_on_the_example_repo() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("repo");
    bare_copy(EXAMPLE, &repo);
    // Three roles on the four built-in Facter 4.10 sets.
    assert_eq!(
        init_check_bless(&repo, &[]),
        "12 passed, 0 failed, 0 skipped"
    );
    let config = std::fs::read_to_string(repo.join("pverify.yaml")).unwrap();
    assert!(
        config.contains(
            "    - names: [role-web.example.com]\n      classes: [role::web]\n      factsets: [debian-12-x86_64, debian-13-x86_64, ubuntu-24.04-x86_64, redhat-9-x86_64]\n"
        ),
        "{config}"
    );
    // An existing config is kept without --force.
    let d = repo.to_str().unwrap();
    let (code, _, err) = pverify(&["init", d]);
    assert_eq!(code, 3);
    assert!(
        err.contains("pverify.yaml exists: give --force to replace it"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(repo.join("pverify.yaml")).unwrap(),
        config
    );
    // Puppet 7: Facter 4.3's sets.
    let (code, _, err) = pverify(&["init", d, "--force", "--puppet", "7"]);
    assert_eq!(code, 0, "{err}");
    let config = std::fs::read_to_string(repo.join("pverify.yaml")).unwrap();
    assert!(
        config.contains("puppet: 7\n") && config.contains("ubuntu-22.04-x86_64"),
        "{config}"
    );
}

#[test]
fn init_with_fact_sets_of_ones_own() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("repo");
    bare_copy(EXAMPLE, &repo);
    // `puppet facts` output is a fact set too.
    let facts = std::fs::read_to_string(repo.join("factsets/debian-12-x86_64.facts")).unwrap();
    write(
        &repo,
        "spec/sets/deb.json",
        &format!(r#"{{"name": "x.example.com", "values": {facts}}}"#),
    );
    assert_eq!(
        init_check_bless(
            &repo,
            &["--factsets", repo.join("spec/sets").to_str().unwrap()]
        ),
        "3 passed, 0 failed, 0 skipped"
    );
    let config = std::fs::read_to_string(repo.join("pverify.yaml")).unwrap();
    assert!(config.contains("factsets: spec/sets\n"), "{config}");
}

/// A repo as puppetlabs/control-repo lays it out: `site-modules` with
/// roles and profiles, `data/`, `manifests/site.pp` with a default node.
#[test]
fn init_on_a_puppetlabs_control_repo_layout() {
    let tmp = tempfile::tempdir().unwrap();
    let r = tmp.path();
    write(
        r,
        "environment.conf",
        "modulepath = site-modules:modules:$basemodulepath\n",
    );
    write(
        r,
        "hiera.yaml",
        "---\nversion: 5\ndefaults:\n  datadir: data\n  data_hash: yaml_data\nhierarchy:\n  - name: common\n    path: common.yaml\n",
    );
    write(
        r,
        "data/common.yaml",
        "---\nprofile::base::motd: 'managed by Puppet'\n",
    );
    write(r, "manifests/site.pp", "node default {\n}\n");
    write(
        r,
        "site-modules/profile/manifests/base.pp",
        "class profile::base(String $motd) {\n  file { '/etc/motd': content => \"${motd} on ${facts['os']['name']}\\n\" }\n}\n",
    );
    write(
        r,
        "site-modules/profile/manifests/webserver.pp",
        "class profile::webserver { package { 'nginx': ensure => installed } }\n",
    );
    write(
        r,
        "site-modules/profile/manifests/database.pp",
        "class profile::database { package { 'postgresql': ensure => installed } }\n",
    );
    write(
        r,
        "site-modules/role/manifests/example.pp",
        "class role::example { include profile::base }\n",
    );
    write(
        r,
        "site-modules/role/manifests/webserver.pp",
        "class role::webserver { include profile::base\n include profile::webserver }\n",
    );
    write(
        r,
        "site-modules/role/manifests/database_server.pp",
        "class role::database_server { include profile::base\n include profile::database }\n",
    );
    assert_eq!(init_check_bless(r, &[]), "12 passed, 0 failed, 0 skipped");
    let config = std::fs::read_to_string(r.join("pverify.yaml")).unwrap();
    for (name, class) in [
        ("role-database-server.example.com", "role::database_server"),
        ("role-example.example.com", "role::example"),
        ("role-webserver.example.com", "role::webserver"),
    ] {
        assert!(
            config.contains(&format!("- names: [{name}]\n      classes: [{class}]\n")),
            "{config}"
        );
    }
    // The profiles are no roles.
    assert!(!config.contains("profile::"), "{config}");
}

/// onceover's spec/onceover.yaml: the same (class, node) pairs onceover's
/// spec tests compile, with its factsets, mocks and test hiera.yaml.
#[test]
fn init_from_onceover_gives_onceovers_tests() {
    let tmp = tempfile::tempdir().unwrap();
    let r = tmp.path();
    write(
        r,
        "environment.conf",
        "modulepath = site:modules:$basemodulepath\n",
    );
    write(r, "manifests/site.pp", "");
    write(
        r,
        "site/role/manifests/web.pp",
        "class role::web { notify { 'web': message => vault_lookup('web/key') } }\n",
    );
    write(
        r,
        "site/role/manifests/db.pp",
        "class role::db { notify { 'db': message => lookup('db_message') } }\n",
    );
    write(
        r,
        "site/profile/manifests/base.pp",
        "class profile::base { }\n",
    );
    write(
        r,
        "spec/hiera.yaml",
        "---\nversion: 5\nhierarchy:\n  - name: test\n    datadir: spec\n    path: data.yaml\n",
    );
    write(
        r,
        "spec/data.yaml",
        "---\ndb_message: from the test hiera.yaml\n",
    );
    let debian =
        std::fs::read_to_string(format!("{EXAMPLE}/factsets/debian-12-x86_64.facts")).unwrap();
    let redhat =
        std::fs::read_to_string(format!("{EXAMPLE}/factsets/redhat-9-x86_64.facts")).unwrap();
    write(
        r,
        "spec/factsets/Debian-12.json",
        &format!(r#"{{"name": "debian12", "values": {debian}}}"#),
    );
    write(
        r,
        "spec/factsets/RHEL-9.json",
        &format!(r#"{{"name": "rhel9", "values": {redhat}}}"#),
    );
    write(
        r,
        "spec/onceover.yaml",
        "classes:\n  - /^role::/\nnodes:\n  - Debian-12\n  - RHEL-9\n\
         node_groups:\n  debian:\n    - Debian-12\n\
         class_groups:\n  web_only:\n    - role::web\n\
         test_matrix:\n  - all_nodes:\n      classes: web_only\n      tests: spec\n  \
         - debian:\n      classes: all_classes\n      tests: spec\n\
         functions:\n  vault_lookup:\n    returns: not-a-secret\n\
         before:\n  - \"Puppet::Util::Log.level = :debug\"\n",
    );
    let d = r.to_str().unwrap();
    let (code, out, err) = pverify(&["init", d, "--from-onceover"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("note: `before:` (rspec Ruby run around each test) is out of scope"),
        "{out}"
    );
    // onceover's tests: role::web on both nodes, role::db on Debian-12.
    let (_, out, _) = pverify(&["bless", d]);
    assert!(out.contains("3 created, 0 updated"), "{out}");
    for golden in [
        "role-web.example.com@Debian-12.json",
        "role-web.example.com@RHEL-9.json",
        "role-db.example.com@Debian-12.json",
    ] {
        assert!(r.join("golden").join(golden).is_file(), "{golden}");
    }
    let (code, out, _) = pverify(&["check", d]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(last_line(&out), "3 passed, 0 failed, 0 skipped");
    let web = std::fs::read_to_string(r.join("golden/role-web.example.com@RHEL-9.json")).unwrap();
    assert!(web.contains("\"message\": \"not-a-secret\""), "{web}");
    let db = std::fs::read_to_string(r.join("golden/role-db.example.com@Debian-12.json")).unwrap();
    assert!(
        db.contains("\"message\": \"from the test hiera.yaml\""),
        "{db}"
    );
}

/// A class pattern in pverify.yaml is refused with what to do, not
/// compiled as a class named `/^role::/`.
#[test]
fn a_class_pattern_in_the_matrix_says_what_to_do() {
    let tmp = tempfile::tempdir().unwrap();
    write(
        tmp.path(),
        "pverify.yaml",
        "nodes:\n  matrix:\n    - names: [a.example.com]\n      classes: ['/^role::/']\n",
    );
    let (code, _, err) = pverify(&["check", tmp.path().to_str().unwrap()]);
    assert_eq!(code, 3);
    assert!(
        err.contains("classes: /^role::/ is a pattern (onceover's)")
            && err.contains("pverify init --from-onceover"),
        "{err}"
    );
}

/// The bundled control repo (Puppet 7, Debian's module packages): every
/// node compiles but the one whose module refuses its OS, reported.
#[test]
fn init_on_the_bundled_control_repo() {
    if !Path::new("/usr/share/puppet/modules/stdlib").is_dir() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI=true but the puppet-module-* packages are not installed"
        );
        eprintln!("note: /usr/share/puppet/modules missing; skipping");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("repo");
    bare_copy("tests/fixtures/control-repo", &repo);
    let summary = init_check_bless(&repo, &["--puppet", "7"]);
    assert_eq!(summary, "20 passed, 1 failed, 0 skipped");
    let (_, out, _) = pverify(&["check", repo.to_str().unwrap()]);
    assert!(
        out.contains("FAILED  role-cache.example.com@redhat-9-x86_64\n    [golden] the node failed to compile\n"),
        "{out}"
    );
}
