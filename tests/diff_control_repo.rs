//! `pverify diff` on the bundled control repo (tests/fixtures/example-repo,
//! whose goldens are Puppet 7.23's catalogs): both sides' nodes come from
//! each side's `pverify.yaml` matrix. Each test copies the repo twice,
//! changes one thing on the `to` side and checks the whole report.

mod common;
use common::{copy_dir, edit, git, pverify, EXAMPLE};

use std::path::Path;

/// Two copies of the example repo (`from`, `to`) beside the fact sets.
fn sides() -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    copy_dir(
        Path::new("tests/fixtures/factsets"),
        &tmp.path().join("factsets"),
    );
    let (a, b) = (tmp.path().join("from"), tmp.path().join("to"));
    copy_dir(Path::new(EXAMPLE), &a);
    copy_dir(Path::new(EXAMPLE), &b);
    (tmp, a, b)
}

/// The diff of the two copies after `change` on `to`: exit code and the
/// report without its first line (which names the temporary directories).
fn diff_after(change: impl FnOnce(&Path)) -> (i32, String) {
    let (_tmp, a, b) = sides();
    change(&b);
    let (code, out, err) = pverify(&[
        "diff",
        "--from",
        a.to_str().unwrap(),
        "--to",
        b.to_str().unwrap(),
    ]);
    assert!(common::without_compile_counts(&err).is_empty(), "{err}");
    let body = out.split_once('\n').map(|x| x.1).unwrap_or("").to_string();
    (code, body)
}

#[test]
fn unchanged_tree_exits_0() {
    let (code, out) = diff_after(|_| {});
    assert_eq!(code, 0, "{out}");
    assert_eq!(
        out,
        "6 nodes: 0 changed, 6 unchanged, 0 added, 0 removed, 0 failed\n"
    );
}

#[test]
fn hiera_value_change() {
    let (code, out) = diff_after(|b| {
        edit(
            &b.join("data/common.yaml"),
            "profile::db::max_connections: 100",
            "profile::db::max_connections: 250",
        )
    });
    assert_eq!(code, 2, "{out}");
    let conf = |path: &str, node: &str| {
        format!(
            "File[{path}] content changed on 1 node: {node}
  --- File[{path}] (from)
  +++ File[{path}] (to)
  @@ -1,4 +1,4 @@
   # managed by Puppet
   listen_addresses = '10.0.2.15'
  -max_connections = 100
  +max_connections = 250
   shared_buffers = 128MB
"
        )
    };
    let expected = format!(
        "6 nodes: 2 changed, 4 unchanged, 0 added, 0 removed, 0 failed

Class[Profile::Db] parameter max_connections changed on 2 nodes: db01.example.com@debian-12-x86_64, db01.example.com@redhat-9-x86_64
  100 -> 250

{}
{}",
        conf(
            "/etc/postgresql/15/main/postgresql.conf",
            "db01.example.com@debian-12-x86_64"
        ),
        conf(
            "/var/lib/pgsql/data/postgresql.conf",
            "db01.example.com@redhat-9-x86_64"
        ),
    );
    assert_eq!(out, expected);
}

#[test]
fn node_specific_hiera_value_change() {
    let (code, out) = diff_after(|b| {
        edit(
            &b.join("data/nodes/app01.example.com.yaml"),
            "app-team@example.com",
            "apps@example.com",
        )
    });
    assert_eq!(code, 2, "{out}");
    assert!(
        out.starts_with("6 nodes: 2 changed, 4 unchanged, 0 added, 0 removed, 0 failed\n"),
        "{out}"
    );
    assert!(out.contains(
        "Class[Profile::Base] parameter admin changed on 2 nodes: app01.example.com@debian-12-x86_64, app01.example.com@redhat-9-x86_64\n  \"app-team@example.com\" -> \"apps@example.com\""
    ), "{out}");
    assert!(out.contains(
        "Motd::Banner[main] parameter owner changed on 2 nodes: app01.example.com@debian-12-x86_64, app01.example.com@redhat-9-x86_64"
    ), "{out}");
}

#[test]
fn relationship_change() {
    let (code, out) = diff_after(|b| {
        edit(
            &b.join("modules/profile/manifests/web.pp"),
            "  -> file { $docroot:",
            "  file { $docroot:",
        )
    });
    assert_eq!(code, 2, "{out}");
    assert_eq!(
        out,
        "6 nodes: 2 changed, 4 unchanged, 0 added, 0 removed, 0 failed

Package[apache2] relationship before changed on 1 node: web01.example.com@debian-12-x86_64
  - File[/srv/www]

Package[httpd] relationship before changed on 1 node: web01.example.com@redhat-9-x86_64
  - File[/var/www/html]
"
    );
}

#[test]
fn class_removed() {
    let (code, out) = diff_after(|b| {
        edit(
            &b.join("modules/role/manifests/db.pp"),
            "  include profile::db\n",
            "",
        )
    });
    assert_eq!(code, 2, "{out}");
    assert!(
        out.starts_with("6 nodes: 2 changed, 4 unchanged, 0 added, 0 removed, 0 failed\n"),
        "{out}"
    );
    for removed in [
        "Class[Profile::Db] removed on 2 nodes",
        "Package[postgresql-server] removed on 2 nodes",
        "File[/etc/postgresql/15/main/postgresql.conf] removed on 1 node: db01.example.com@debian-12-x86_64",
        "File[/var/lib/pgsql/data/postgresql.conf] removed on 1 node: db01.example.com@redhat-9-x86_64",
    ] {
        assert!(out.contains(removed), "{removed}\n{out}");
    }
    assert!(out.contains("class profile::db removed"), "{out}");
}

#[test]
fn new_node_in_the_matrix() {
    let (code, out) = diff_after(|b| {
        edit(
            &b.join("pverify.yaml"),
            "app01.example.com]",
            "app01.example.com, web02.example.com]",
        )
    });
    assert_eq!(code, 2, "{out}");
    assert_eq!(
        out,
        "8 nodes: 0 changed, 6 unchanged, 2 added, 0 removed, 0 failed

Nodes added:
  web02.example.com@debian-12-x86_64 (14 resources)
  web02.example.com@redhat-9-x86_64 (14 resources)
"
    );
}

#[test]
fn compile_failure_on_to_exits_1_naming_node_and_error() {
    let (code, out) = diff_after(|b| {
        edit(
            &b.join("modules/profile/manifests/web.pp"),
            "'RedHat': { $pkg = 'httpd' $svc = 'httpd' }",
            "'RedHat': { fail('no web on RedHat') }",
        )
    });
    assert_eq!(code, 1, "{out}");
    assert!(
        out.starts_with("6 nodes: 0 changed, 5 unchanged, 0 added, 0 removed, 1 failed\n"),
        "{out}"
    );
    assert!(out.contains("web01.example.com@redhat-9-x86_64"), "{out}");
    assert!(out.contains("no web on RedHat"), "{out}");
}

#[test]
fn ignores_come_from_pverify_yaml() {
    let (code, out) = diff_after(|b| {
        edit(
            &b.join("data/common.yaml"),
            "profile::db::max_connections: 100",
            "profile::db::max_connections: 250",
        );
        edit(
            &b.join("pverify.yaml"),
            "ignores: []",
            "ignores:\n  - resource: 'File[*postgresql.conf]'\n    parameter: content\n  - resource: 'Class[Profile::Db]'\n",
        );
    });
    assert_eq!(code, 0, "{out}");
}

#[test]
fn two_git_revisions_of_a_control_repo() {
    let tmp = tempfile::tempdir().unwrap();
    let origin = tmp.path().join("origin");
    copy_dir(Path::new(EXAMPLE), &origin.join("control"));
    copy_dir(
        Path::new("tests/fixtures/factsets"),
        &origin.join("factsets"),
    );
    git(&origin, &["init", "--quiet"]);
    git(&origin, &["add", "."]);
    git(&origin, &["commit", "--quiet", "-m", "one"]);
    edit(
        &origin.join("control/data/common.yaml"),
        "profile::db::max_connections: 100",
        "profile::db::max_connections: 250",
    );
    git(&origin, &["commit", "--quiet", "-am", "two"]);
    let clone = tmp.path().join("clone");
    git(
        tmp.path(),
        &["clone", "--quiet", origin.to_str().unwrap(), "clone"],
    );
    let (code, out, err) = pverify(&[
        "diff",
        "--repo",
        clone.to_str().unwrap(),
        "--env-subdir",
        "control",
        "--from",
        "HEAD~1",
        "--to",
        "HEAD",
    ]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(out.contains("6 nodes: 2 changed, 4 unchanged"), "{out}");
    assert!(
        out.contains("Class[Profile::Db] parameter max_connections changed on 2 nodes"),
        "{out}"
    );
    // The clone's working tree is untouched and no worktree is left behind.
    assert_eq!(git(&clone, &["status", "--porcelain"]), "");
    assert_eq!(git(&clone, &["worktree", "list"]).lines().count(), 1);
}

#[test]
fn template_change() {
    let (code, out) = diff_after(|b| {
        edit(
            &b.join("modules/profile/templates/index.html.epp"),
            "<p>port <%= $port %></p>",
            "<p>listening on port <%= $port %></p>",
        )
    });
    assert_eq!(code, 2, "{out}");
    let page = |path: &str, node: &str| {
        format!(
            "File[{path}] content changed on 1 node: {node}
  --- File[{path}] (from)
  +++ File[{path}] (to)
  @@ -1,2 +1,2 @@
   <h1>web01.example.com</h1>
  -<p>port 8080</p>
  +<p>listening on port 8080</p>
"
        )
    };
    assert_eq!(
        out,
        format!(
            "6 nodes: 2 changed, 4 unchanged, 0 added, 0 removed, 0 failed\n\n{}\n{}",
            page("/srv/www/index.html", "web01.example.com@debian-12-x86_64"),
            page(
                "/var/www/html/index.html",
                "web01.example.com@redhat-9-x86_64"
            ),
        )
    );
}
