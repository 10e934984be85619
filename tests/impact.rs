//! Impact-aware `pverify diff` (issue 29): between two revisions of the
//! bundled control repo (25 nodes), a node whose read set still holds is
//! not compiled on `to`. For a change of every kind, the default run
//! compiles on `to` only the nodes the change can reach (counted), its
//! report is byte for byte the report of `--verify-impact` (which compiles
//! every node, as `--full` does, and fails if a skipped node's catalog
//! changed), and `--verify-impact` passes. A recorder that forgets a file
//! makes `--verify-impact` fail, so the proof can fail; `--cache DIR`
//! reuses catalogs across runs, a corrupt entry being a miss.
//!
//! The repo gets a site module `impact` (an ERB and an EPP template, a
//! Puppet-language function, a 4.x Ruby function, a resource type), used
//! by `profile::redis`: the three `cache01` nodes.

mod common;
use common::{copy_dir, git, have, Need};

use std::path::{Path, PathBuf};
use std::process::Command;

const REPO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/control-repo");
const NODES: usize = 25;

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn replace(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{}: no {from:?}", path.display());
    std::fs::write(path, text.replacen(from, to, 1)).unwrap();
}

/// The control repo with the `impact` module, committed as `base`.
fn repo() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let r = tmp.path().join("repo");
    copy_dir(Path::new(REPO), &r);
    let _ = std::fs::remove_dir_all(r.join("golden"));
    let m = r.join("site/impact");
    write(
        &m.join("manifests/init.pp"),
        "# Every kind of file a change can touch.\n\
         class impact {\n\
         \x20 file { '/etc/impact-erb': content => template('impact/erb.conf.erb') }\n\
         \x20 file { '/etc/impact-epp': content => epp('impact/epp.conf.epp', { 'n' => 1 }) }\n\
         \x20 impact_thing { 'one': value => impact::double(2) }\n\
         \x20 notify { 'impact-ruby': message => String(impact_ruby(3)) }\n\
         }\n",
    );
    write(&m.join("templates/erb.conf.erb"), "erb=<%= 1 + 1 %>\n");
    write(
        &m.join("templates/epp.conf.epp"),
        "<%- | Integer $n | -%>\nepp=<%= $n %>\n",
    );
    write(
        &m.join("functions/double.pp"),
        "function impact::double(Integer $x) >> Integer {\n  $x * 2\n}\n",
    );
    write(
        &m.join("lib/puppet/functions/impact_ruby.rb"),
        "Puppet::Functions.create_function(:impact_ruby) do\n  dispatch :run do\n    param 'Integer', :x\n  end\n\n  def run(x)\n    x + 1\n  end\nend\n",
    );
    write(
        &m.join("lib/puppet/type/impact_thing.rb"),
        "Puppet::Type.newtype(:impact_thing) do\n  newparam(:name, :namevar => true)\n  newparam(:value)\nend\n",
    );
    replace(
        &r.join("site/profile/manifests/redis.pp"),
        ") {\n",
        ") {\n  include impact\n",
    );
    git(&r, &["init", "--quiet"]);
    git(&r, &["add", "."]);
    git(&r, &["commit", "--quiet", "-m", "base"]);
    git(&r, &["tag", "base"]);
    (tmp, r)
}

/// Commits `change` on a branch `name` off `base`.
fn branch(r: &Path, name: &str, change: impl FnOnce(&Path)) {
    branch_off(r, name, "base", change)
}

fn branch_off(r: &Path, name: &str, start: &str, change: impl FnOnce(&Path)) {
    git(r, &["checkout", "--quiet", "-b", name, start]);
    change(r);
    git(r, &["add", "-A"]);
    git(r, &["commit", "--quiet", "-m", name]);
}

struct Run {
    code: i32,
    report: String,
    err: String,
    from: usize,
    to: usize,
    skipped: usize,
    cached: usize,
}

fn diff(r: &Path, from: &str, to: &str, extra: &[&str], env: &[(&str, &str)]) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pverify"));
    cmd.current_dir(r)
        .args(["diff", "--from", from, "--to", to, "--jobs", "2"])
        .args(extra)
        .env("NO_COLOR", "1")
        .env_remove("PVERIFY_TEST_DROP_READ");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    let line = err
        .lines()
        .find_map(|l| l.strip_prefix("pverify diff: compiled: "))
        .unwrap_or_else(|| panic!("no compile counts in {err}"));
    // "N from, M to; skipped: K[; cached: C]"
    let nums: Vec<usize> = line
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap())
        .collect();
    Run {
        code: out.status.code().unwrap_or(-1),
        report: String::from_utf8_lossy(&out.stdout).into_owned(),
        err,
        from: nums[0],
        to: nums[1],
        skipped: nums[2],
        cached: nums.get(3).copied().unwrap_or(0),
    }
}

/// After `change`: the default run compiles `expected` nodes on `to` and
/// skips the rest; its report is `--verify-impact`'s, which passes.
fn check_kind(name: &str, expected: usize, change: impl FnOnce(&Path)) {
    if !have(&[Need::DebianModules]) {
        return;
    }
    let (_tmp, r) = repo();
    branch(&r, name, change);
    let impact = diff(&r, "base", name, &[], &[]);
    let verify = diff(&r, "base", name, &["--verify-impact"], &[]);
    assert_ne!(verify.code, 1, "{name}: {}\n{}", verify.err, verify.report);
    assert_eq!(impact.report, verify.report, "{name}");
    assert_eq!(impact.code, verify.code, "{name}");
    assert_eq!(
        (impact.from, impact.to, impact.skipped),
        (NODES, expected, NODES - expected),
        "{name}: {}",
        impact.err
    );
    // --verify-impact compiles everything; `skipped` counts the nodes the
    // default skips.
    assert_eq!(
        (verify.from, verify.to, verify.skipped),
        (NODES, NODES, NODES - expected),
        "{name}"
    );
}

/// A one-line change in `profile::redis` (the three `cache01` nodes).
fn change_the_profile(r: &Path) {
    replace(
        &r.join("site/profile/manifests/redis.pp"),
        "LimitNOFILE=65536",
        "LimitNOFILE=131072",
    )
}

/// A new text for the `impact` module's ERB template.
fn change_the_erb_template(r: &Path) {
    write(
        &r.join("site/impact/templates/erb.conf.erb"),
        "erb=<%= 2 + 2 %>\n",
    )
}

const CACHE_NODES: usize = 3;

#[test]
fn manifest_change_compiles_the_profiles_nodes() {
    check_kind("manifest", CACHE_NODES, change_the_profile);
}

#[test]
fn erb_template_change() {
    check_kind("erb", CACHE_NODES, change_the_erb_template);
}

#[test]
fn epp_template_change() {
    check_kind("epp", CACHE_NODES, |r| {
        replace(
            &r.join("site/impact/templates/epp.conf.epp"),
            "epp=",
            "EPP=",
        )
    });
}

#[test]
fn hiera_value_change_compiles_the_nodes_reading_it() {
    // lb01's own data file: its four fact sets.
    check_kind("hiera-data", 4, |r| {
        replace(
            &r.join("data/nodes/lb01.example.com.yaml"),
            "port: 8080",
            "port: 8081",
        )
    });
}

#[test]
fn new_data_file_where_nodes_probe() {
    // Nothing was there; web01's three nodes probed the path.
    check_kind("new-data-file", 3, |r| {
        write(
            &r.join("data/nodes/web01.example.com.yaml"),
            "---\nprofile::base::timesync: chrony\n",
        )
    });
}

#[test]
fn ruby_function_change() {
    check_kind("ruby-function", CACHE_NODES, |r| {
        replace(
            &r.join("site/impact/lib/puppet/functions/impact_ruby.rb"),
            "x + 1",
            "x + 2",
        )
    });
}

#[test]
fn puppet_function_change() {
    check_kind("puppet-function", CACHE_NODES, |r| {
        replace(
            &r.join("site/impact/functions/double.pp"),
            "$x * 2",
            "$x * 3",
        )
    });
}

#[test]
fn resource_type_change() {
    check_kind("type", CACHE_NODES, |r| {
        replace(
            &r.join("site/impact/lib/puppet/type/impact_thing.rb"),
            "  newparam(:value)\n",
            "  newparam(:value)\n  newparam(:extra)\n",
        )
    });
}

#[test]
fn global_changes_compile_every_node() {
    check_kind("site-pp", NODES, |r| {
        let site = r.join("manifests/site.pp");
        let text = std::fs::read_to_string(&site).unwrap();
        std::fs::write(&site, format!("# a comment\n{text}")).unwrap();
    });
    check_kind("hiera-yaml", NODES, |r| {
        replace(&r.join("hiera.yaml"), "name: \"Common\"", "name: \"All\"")
    });
}

#[test]
fn a_recorder_that_forgets_a_file_fails_the_proof() {
    if !have(&[Need::DebianModules]) {
        return;
    }
    let (_tmp, r) = repo();
    branch(&r, "erb", change_the_erb_template);
    let broken = [("PVERIFY_TEST_DROP_READ", "erb.conf.erb")];
    let verify = diff(&r, "base", "erb", &["--verify-impact"], &broken);
    assert_eq!(verify.code, 1, "{}", verify.err);
    for n in ["debian-11", "debian-12", "ubuntu-20.04"] {
        let line = format!(
            "pverify diff: --verify-impact: cache01.example.com@{n}: its read set held, but its catalog changed"
        );
        assert!(verify.err.contains(&line), "{}", verify.err);
    }
    // The default run, with the same broken recorder, misses the change.
    let impact = diff(&r, "base", "erb", &[], &broken);
    assert_eq!((impact.to, impact.code), (0, 0), "{}", impact.report);
}

#[test]
fn the_cache_reuses_catalogs_and_a_corrupt_entry_is_a_miss() {
    if !have(&[Need::DebianModules]) {
        return;
    }
    let (tmp, r) = repo();
    branch(&r, "manifest", change_the_profile);
    let cache = tmp.path().join("cache");
    let c = cache.to_str().unwrap();
    let first = diff(&r, "base", "manifest", &["--cache", c], &[]);
    assert_eq!(
        (first.from, first.to, first.cached),
        (NODES, CACHE_NODES, 0)
    );
    // Again: every catalog comes from the cache, nothing compiles.
    let second = diff(&r, "base", "manifest", &["--cache", c], &[]);
    assert_eq!(second.report, first.report);
    assert_eq!(
        (second.from, second.to, second.cached),
        (0, 0, NODES + CACHE_NODES)
    );
    // The changed revision on both sides: only the profile's nodes differ
    // from what `base` left in the cache, and they were cached as `to`.
    let same = diff(&r, "manifest", "manifest", &["--cache", c], &[]);
    assert_eq!((same.from, same.to, same.cached), (0, 0, NODES));
    assert_eq!(same.code, 0, "{}", same.report);

    // A corrupt catalog file is a miss for the nodes that need it: the
    // profile's three, compiled again on both sides (an unaffected node's
    // catalog without sources is not even read: its diff is empty).
    let catalogs: Vec<PathBuf> = std::fs::read_dir(cache.join("catalogs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    for f in &catalogs {
        std::fs::write(f, "{\"resources\": []}").unwrap();
    }
    let corrupt = diff(&r, "base", "manifest", &["--cache", c], &[]);
    assert_eq!(corrupt.report, first.report);
    assert_eq!(
        (corrupt.from, corrupt.to, corrupt.cached),
        (CACHE_NODES, CACHE_NODES, NODES - CACHE_NODES)
    );
    // A corrupt index is an empty cache.
    std::fs::write(cache.join("index.json"), "{\"format\": [").unwrap();
    let empty = diff(&r, "base", "manifest", &["--cache", c], &[]);
    assert_eq!(empty.report, first.report);
    assert_eq!((empty.from, empty.cached), (NODES, 0));

    // A changed file invalidates exactly the nodes that read it: the
    // cache now holds `base` and `manifest`; an ERB change on top of
    // `manifest` compiles the three cache01 nodes, on `from` none.
    branch_off(&r, "manifest-erb", "manifest", change_the_erb_template);
    let erb = diff(&r, "manifest", "manifest-erb", &["--cache", c], &[]);
    assert_eq!(
        (erb.from, erb.to, erb.skipped),
        (0, CACHE_NODES, NODES - CACHE_NODES)
    );
}
