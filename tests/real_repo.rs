//! The realistic control repo (tests/fixtures/real-repo, docs/real-repo.md):
//! a Puppetfile with Forge releases (served on 127.0.0.1, tarballs built
//! from Debian's module packages) and git modules (repositories made here),
//! hiera-eyaml secrets with a test-only key pair, a Hiera data_hash
//! backend in the Puppet language, two web nodes exporting
//! what the monitoring node collects, facts from PuppetDB's inventory. Its
//! goldens are Puppet 7.23's catalogs; pverify must match them, Puppet must
//! still make them, r10k must deploy the same git modules, and a Forge bump
//! must change what Puppet's catalogs say it changes.

mod common;
use common::modules::{
    git_module, r10k_install, r10k_root, serve_forge, tree, write, Forge, Release, DEBIAN_MODULES,
};
use common::{copy_dir, edit, git, have, pverify, Need};

use std::path::{Path, PathBuf};
use std::process::Command;

const FIXTURE: &str = "tests/fixtures/real-repo";

/// concat's default mode, which the 7.3.2 the test Forge makes changes.
const CONCAT_MODE: &str = "$mode                    = '0644'";

/// A copy of the fixture's control repo with its modules served: the Forge
/// (stdlib 8.5.0, concat 7.3.1 and a 7.3.2 whose default mode is 0640,
/// host_core 1.1.0, acme-broken 1.0.0 with a wrong checksum) and the git repositories.
struct RealRepo {
    tmp: tempfile::TempDir,
    ctl: PathBuf,
    cache: PathBuf,
    forge: Forge,
}

impl RealRepo {
    /// `None` (outside CI) without Debian's module packages.
    fn new() -> Option<RealRepo> {
        if !have(&[Need::DebianModules]) {
            return None;
        }
        let tmp = tempfile::tempdir().unwrap();
        let staging = tmp.path().join("forge-build");
        let debian = Path::new(DEBIAN_MODULES);
        let stdlib = Release::from_dir(
            &staging,
            "puppetlabs-stdlib",
            "8.5.0",
            &debian.join("stdlib"),
            &[],
        );
        let concat = Release::from_dir(
            &staging,
            "puppetlabs-concat",
            "7.3.1",
            &debian.join("concat"),
            &[],
        );
        let bumped = Release::from_dir(
            &staging,
            "puppetlabs-concat",
            "7.3.2",
            &debian.join("concat"),
            &[(
                "manifests/init.pp",
                CONCAT_MODE,
                &CONCAT_MODE.replace("0644", "0640"),
            )],
        );
        let host_core = Release::from_dir(
            &staging,
            "puppetlabs-host_core",
            "1.1.0",
            &debian.join("host_core"),
            &[],
        );
        let broken = host_core.with_wrong_checksum("acme-broken", "1.0.0");
        let forge = serve_forge(vec![stdlib, concat, bumped, host_core, broken]);

        let repos = tmp.path().join("git");
        git_module(
            &repos.join("motd"),
            &Path::new(FIXTURE).join("git-modules/motd"),
            &["v1.0.0"],
        );
        git_module(&repos.join("inifile"), &debian.join("inifile"), &[]);

        let ctl = tmp.path().join("control");
        copy_dir(&Path::new(FIXTURE).join("control"), &ctl);
        let puppetfile = ctl.join("Puppetfile");
        let text = std::fs::read_to_string(&puppetfile).unwrap();
        std::fs::write(
            &puppetfile,
            text.replace("@FORGE@", &forge.url)
                .replace("@GIT@", repos.to_str().unwrap()),
        )
        .unwrap();
        let cache = tmp.path().join("cache");
        Some(RealRepo {
            tmp,
            ctl,
            cache,
            forge,
        })
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.ctl.join(rel)
    }

    /// `pverify COMMAND <ctl> ARGS... --module-cache <cache>`.
    fn run(&self, command: &str, args: &[&str]) -> (i32, String, String) {
        let mut all = vec![command, self.ctl.to_str().unwrap()];
        all.extend_from_slice(args);
        all.extend_from_slice(&["--module-cache", self.cache.to_str().unwrap()]);
        pverify(&all)
    }

    /// Makes the copy a git repository (its first commit) and returns a
    /// function committing the working tree.
    fn commit(&self, message: &str) {
        if !self.ctl.join(".git").exists() {
            git(&self.ctl, &["init", "--quiet", "-b", "main"]);
        }
        git(&self.ctl, &["add", "-A"]);
        git(&self.ctl, &["commit", "--quiet", "-m", message]);
    }

    /// `pverify diff --from HEAD~1 --to HEAD` in the repository.
    fn diff_last_commit(&self, extra: &[&str]) -> (i32, String, String) {
        let out = Command::new(env!("CARGO_BIN_EXE_pverify"))
            .current_dir(&self.ctl)
            .args(["diff", "--from", "HEAD~1", "--to", "HEAD", "--module-cache"])
            .arg(&self.cache)
            .args(extra)
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }
}

const NODES: [&str; 4] = [
    "web01.example.com",
    "web02.example.com",
    "mon01.example.com",
    "ns01.example.com",
];

fn golden(node: &str) -> serde_json::Value {
    let path = Path::new(FIXTURE).join(format!("control/golden/{node}.json"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The goldens hold what the fixture is about: every node has its
/// resources, the monitoring node the web nodes' exports, the web nodes
/// their decrypted secret.
#[test]
fn the_goldens_show_modules_secrets_and_exports() {
    for node in NODES {
        let resources = golden(node)["resources"].as_array().unwrap().len();
        assert!(resources > 15, "{node}: {resources} resources");
    }
    let titles = |node: &str| -> Vec<String> {
        golden(node)["resources"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                format!(
                    "{}[{}]",
                    r["type"].as_str().unwrap(),
                    r["title"].as_str().unwrap()
                )
            })
            .collect()
    };
    let mon = titles("mon01.example.com");
    for t in [
        "Concat::Fragment[monitoring host web01.example.com]",
        "Concat::Fragment[monitoring host web02.example.com]",
        "Host[web01.example.com]",
        "Host[web02.example.com]",
        "Concat_file[/etc/monitoring/hosts.cfg]",
    ] {
        assert!(mon.contains(&t.to_string()), "mon01 lacks {t}: {mon:?}");
    }
    let web = titles("web01.example.com");
    for t in [
        "File[/etc/motd]",
        "Ini_setting[app db password]",
        "User[alice]",
    ] {
        assert!(web.contains(&t.to_string()), "web01 lacks {t}: {web:?}");
    }
    let text = serde_json::to_string(&golden("web01.example.com")).unwrap();
    assert!(text.contains("app-db-pass-v1"), "the secret is decrypted");
    // The Puppet-language data_hash backend's value, interpolated.
    assert!(
        text.contains("# web01.example.com in example.com"),
        "the site data"
    );
}

#[test]
fn pverify_matches_puppets_goldens_and_puppet_still_makes_them() {
    let Some(repo) = RealRepo::new() else { return };
    let (code, out, err) = repo.run("check", &[]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out.lines().last(), Some("4 passed, 0 failed, 0 skipped"));
    if !have(&[Need::Puppet, Need::Eyaml]) {
        return;
    }
    let (code, out, err) = repo.run("check", &["--oracle", "puppet", "--offline"]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out.lines().last(), Some("4 passed, 0 failed, 0 skipped"));
}

/// Puppet 8.10 (with Debian 13's hiera-eyaml 4.2) makes the same catalogs
/// as 7.23 from this repo, and so does pverify compiling as Puppet 8.
#[test]
fn puppet_8_agrees() {
    let Some(repo) = RealRepo::new() else { return };
    let (code, out, err) = repo.run("check", &["--puppet", "8"]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out.lines().last(), Some("4 passed, 0 failed, 0 skipped"));
    if common::puppet8_reference("real-repo").is_none() {
        return;
    }
    let (code, out, err) = repo.run(
        "check",
        &["--puppet", "8", "--oracle", "puppet", "--offline"],
    );
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out.lines().last(), Some("4 passed, 0 failed, 0 skipped"));
}

/// The Puppetfile's git modules as pverify deploys them and as Debian's
/// r10k does (`r10k puppetfile install` in its own root), file for file.
#[test]
fn the_git_modules_deploy_as_r10k_deploys_them() {
    let Some(root) = r10k_root() else { return };
    let Some(repo) = RealRepo::new() else { return };
    let env = repo.tmp.path().join("r10k-env");
    let puppetfile = std::fs::read_to_string(repo.path("Puppetfile")).unwrap();
    let git_mods: String = puppetfile
        .lines()
        .filter(|l| l.starts_with("mod ") && l.contains("git"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(git_mods.lines().count(), 2, "{puppetfile}");
    write(&env.join("Puppetfile"), &git_mods);
    let opts = pverify_harness::puppetfile::CacheOptions {
        dir: Some(repo.cache.clone()),
        offline: false,
    };
    let deployed = pverify_harness::puppetfile::deploy(&env, &opts)
        .unwrap()
        .expect("a Puppetfile");
    assert!(deployed.errors.is_empty(), "{:?}", deployed.errors);
    r10k_install(&root, repo.tmp.path(), &env);
    let mut names = Vec::new();
    for m in &deployed.modules {
        let r10k = tree(&m.dir);
        assert!(r10k.len() > 3, "{}", m.dir.display());
        assert_eq!(tree(&m.tree), r10k, "{} differs from r10k's", m.name);
        names.push(m.name.clone());
    }
    names.sort();
    assert_eq!(names, ["inifile", "motd"]);
}

/// The diff body past its first line (which names the sides).
fn body(report: &str) -> String {
    report.lines().skip(1).collect::<Vec<_>>().join("\n")
}

/// A commit bumping concat (a Forge module) from 7.3.1 to 7.3.2 changes
/// what Puppet's catalogs of the two revisions say it changes: the
/// monitoring node's hosts file takes concat's new default mode.
#[test]
fn a_forge_bump_diffs_as_puppets_catalogs_do() {
    let Some(repo) = RealRepo::new() else { return };
    std::fs::remove_dir_all(repo.path("golden")).unwrap();
    repo.commit("concat 7.3.1");
    edit(&repo.path("Puppetfile"), "'7.3.1'", "'7.3.2'");
    repo.commit("bump concat to 7.3.2");
    let (code, report, err) = repo.diff_last_commit(&[]);
    assert_eq!(code, 2, "{report}{err}");
    assert!(
        body(&report).starts_with("4 nodes: 1 changed, 3 unchanged, 0 added, 0 removed, 0 failed"),
        "{report}"
    );
    assert!(
        report.contains("Concat_file[/etc/monitoring/hosts.cfg]"),
        "{report}"
    );
    if !have(&[Need::Puppet, Need::Eyaml]) {
        return;
    }
    // Puppet's catalogs of the new revision against the goldens (Puppet's
    // catalogs of the old one).
    let (code, out, err) = repo.run("bless", &["--oracle", "puppet", "--offline"]);
    assert_eq!(code, 0, "{out}{err}");
    let (code, puppet_report, err) = pverify(&[
        "diff",
        "--from-catalogs",
        &format!("{FIXTURE}/control/golden"),
        "--to-catalogs",
        repo.path("golden").to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(body(&puppet_report), body(&report));
}

/// The secret-rotation commit of a CI without the private key: the diff
/// names the resource and parameter, shows neither secret nor ciphertext.
#[test]
fn a_rotated_secret_diffs_redacted() {
    let Some(repo) = RealRepo::new() else { return };
    std::fs::remove_file(repo.path("keys/test-only-private_key.pkcs7.pem")).unwrap();
    repo.commit("without the private key");
    let data = repo.path("data/secrets.eyaml");
    let text = std::fs::read_to_string(&data).unwrap();
    let old = text
        .lines()
        .find_map(|l| l.strip_prefix("profile::app::db_password: "))
        .unwrap()
        .to_string();
    let new = std::fs::read_to_string(Path::new(FIXTURE).join("rotated-db_password.enc")).unwrap();
    std::fs::write(&data, text.replace(&old, new.trim())).unwrap();
    repo.commit("rotate the database password");
    let (code, report, err) = repo.diff_last_commit(&["--eyaml-missing-key", "redact"]);
    assert_eq!(code, 2, "{report}{err}");
    assert!(
        body(&report).starts_with("4 nodes: 2 changed, 2 unchanged, 0 added, 0 removed, 0 failed"),
        "{report}"
    );
    assert!(
        report.contains(
            "Ini_setting[app db password] parameter value changed on 2 nodes: web01.example.com, web02.example.com"
        ),
        "{report}"
    );
    assert!(
        report.contains("Class[Profile::App] parameter db_password changed on 2 nodes"),
        "{report}"
    );
    assert!(report.contains("[redacted:sha256:"), "{report}");
    for secret in ["app-db-pass-v1", "app-db-pass-v2"] {
        assert!(!report.contains(secret), "{report}");
    }
    for cipher in [&old, new.trim()] {
        // Any 24 characters past the common header would betray it.
        assert!(!report.contains(&cipher[100..124]), "{report}");
    }
}

/// Each bad input: one error naming the file, the other nodes' results kept.
#[test]
fn bad_inputs_name_their_file_and_keep_the_other_nodes() {
    let Some(repo) = RealRepo::new() else { return };
    let pf = repo.path("Puppetfile");
    let pf_name = pf.display().to_string();

    // An unknown module, a checksum mismatch and a bad ref (motd: the web
    // nodes fail, the others still match their goldens).
    let original = std::fs::read_to_string(&pf).unwrap();
    std::fs::write(
        &pf,
        format!("{original}mod 'acme/nosuch', '1.0.0'\nmod 'acme/broken', '1.0.0'\n")
            .replace("tag: 'v1.0.0'", "tag: 'v9.9.9'"),
    )
    .unwrap();
    let (code, out, err) = repo.run("check", &[]);
    assert_eq!(code, 1, "{out}{err}");
    let url = &repo.forge.url;
    for e in [
        format!("{pf_name}:13:1: mod 'acme/nosuch': the Forge has no release 1.0.0 (404 from {url}/v3/releases/acme-nosuch-1.0.0)"),
        format!("{pf_name}:14:1: mod 'acme/broken' 1.0.0: checksum mismatch: the Forge's file_sha256 is {}, the download's is ", "0".repeat(64)),
        format!("{pf_name}:11:1: mod 'acme/motd': "),
    ] {
        assert!(err.contains(&e), "missing {e:?} in:\n{err}");
    }
    assert!(err.contains("has no tag 'v9.9.9'"), "{err}");
    // ns01 matches its golden; the web nodes fail without motd; mon01
    // compiles, lacking only what the failed web nodes would have exported.
    assert!(out.contains("ok      ns01.example.com"), "{out}");
    assert!(out.contains("1 passed, 3 failed"), "{out}");
    assert!(
        out.contains("Could not find class ::motd for web01.example.com"),
        "{out}"
    );
    let mon = out.split("FAILED  mon01.example.com").nth(1).unwrap();
    let mon = mon.split("FAILED  ").next().unwrap();
    assert!(mon.contains("- Host[web01.example.com]"), "{out}");
    assert!(!mon.contains("failed to compile"), "{out}");
    std::fs::write(&pf, &original).unwrap();

    // A bad eyaml block: only the node looking it up fails.
    let data = repo.path("data/secrets.eyaml");
    let secrets = std::fs::read_to_string(&data).unwrap();
    let token = secrets
        .lines()
        .find_map(|l| l.strip_prefix("profile::monitoring::api_token: "))
        .unwrap();
    std::fs::write(
        &data,
        secrets.replace(token, "ENC[PKCS7,bm90IGEgcGtjczcgYmxvYg==]"),
    )
    .unwrap();
    let (code, out, err) = repo.run("check", &[]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("3 passed, 1 failed"), "{out}");
    assert!(
        out.contains("when looking up profile::monitoring::api_token in")
            && out.contains("data/secrets.eyaml")
            && out.contains("Could not parse the PKCS7"),
        "{out}"
    );
    std::fs::write(&data, &secrets).unwrap();

    // A wrong key pair: the nodes with a secret fail, ns01 has none.
    let testdata = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("crates/puppet-compiler/src/hiera/eyaml/testdata");
    for kind in ["private", "public"] {
        std::fs::copy(
            testdata.join(format!("other_{kind}_key.pkcs7.pem")),
            repo.path(&format!("keys/test-only-{kind}_key.pkcs7.pem")),
        )
        .unwrap();
    }
    let (code, out, err) = repo.run("check", &[]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("1 passed, 3 failed"), "{out}");
    assert!(
        out.contains("data/secrets.eyaml") && out.contains("bad decrypt"),
        "{out}"
    );

    // A module cache that cannot be used stops the run, naming the
    // Puppetfile and the cache.
    let blocker = repo.tmp.path().join("a-file");
    write(&blocker, "");
    let cache = blocker.join("cache");
    let (code, _, err) = pverify(&[
        "check",
        repo.ctl.to_str().unwrap(),
        "--module-cache",
        cache.to_str().unwrap(),
    ]);
    assert_eq!(code, 3, "the run could not start: {err}");
    assert!(
        err.contains(&format!(
            "{pf_name}: module cache {}: not writable: ",
            cache.display()
        )),
        "{err}"
    );
}
