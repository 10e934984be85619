//! Puppetfile deployment (docs/puppetfile.md): git modules from local
//! repositories the test makes, Forge modules from a Forge v3 server the
//! test runs on 127.0.0.1 (tarballs built from Debian's module packages),
//! the module cache and offline runs, errors naming the Puppetfile, a
//! git-revision diff of a module bump (confirmed by Puppet 7.23's
//! catalogs of both sides), and the deployed tree against r10k's.

mod common;
use common::modules::{r10k_install, r10k_root, serve_forge, sh, tree, write, Forge, Release};
use common::{git, pverify};

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::Ordering;

/// Debian's stdlib package, the Forge release the test server offers.
const STDLIB: &str = "/usr/share/puppet/modules/stdlib";

/// The `motd` module as a git repository: tag v1.0.0, then tag v2.0.0 on
/// branch `main` (which v2 bumps the motd text of and adds /etc/issue to).
/// Carries what a tree comparison must get right: an executable file, a
/// symlink, and an `export-ignore` attribute (a checkout keeps the file).
fn motd_repo(dir: &Path) -> PathBuf {
    let repo = dir.join("repos/motd");
    std::fs::create_dir_all(&repo).unwrap();
    git(&repo, &["init", "--quiet", "-b", "main"]);
    let v1 = "class motd (String $message = 'Welcome') {\n  file { '/etc/motd':\n    content => \"${message} (motd 1.0.0)\\n\",\n    mode    => '0644',\n  }\n}\n";
    write(&repo.join("manifests/init.pp"), v1);
    write(
        &repo.join("metadata.json"),
        r#"{"name": "acme-motd", "version": "1.0.0", "author": "acme", "license": "Apache-2.0", "source": "", "dependencies": []}"#,
    );
    write(&repo.join(".gitattributes"), "spec export-ignore\n");
    write(&repo.join("spec/classes/motd_spec.rb"), "# spec\n");
    write(&repo.join("files/run.sh"), "#!/bin/sh\necho motd\n");
    sh(Command::new("chmod")
        .arg("755")
        .arg(repo.join("files/run.sh")));
    std::os::unix::fs::symlink("manifests/init.pp", repo.join("init.pp")).unwrap();
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "--quiet", "-m", "motd 1.0.0"]);
    git(&repo, &["tag", "v1.0.0"]);
    let v2 = v1.replace("motd 1.0.0", "motd 2.0.0").replace(
        "  }\n}\n",
        "  }\n  file { '/etc/issue':\n    content => \"${message}\\n\",\n  }\n}\n",
    );
    write(&repo.join("manifests/init.pp"), &v2);
    git(&repo, &["commit", "--quiet", "-am", "motd 2.0.0"]);
    git(&repo, &["tag", "v2.0.0"]);
    repo
}

/// A Forge v3 server on 127.0.0.1 offering Debian's stdlib as
/// puppetlabs-stdlib 8.5.0, and acme-broken 1.0.0 whose checksum is wrong.
fn start_forge(dir: &Path) -> Forge {
    let stdlib = Release::from_dir(
        &dir.join("forge-build"),
        "puppetlabs-stdlib",
        "8.5.0",
        Path::new(STDLIB),
        &[],
    );
    let broken = stdlib.with_wrong_checksum("acme-broken", "1.0.0");
    serve_forge(vec![stdlib, broken])
}

/// An environment using stdlib (a Forge module) and motd (a git module),
/// with no modulepath beyond its moduledir, and two nodes' files.
fn environment(dir: &Path, puppetfile: &str) -> PathBuf {
    let env = dir.join("env");
    write(&env.join("environment.conf"), "modulepath = modules\n");
    write(&env.join("Puppetfile"), puppetfile);
    write(
        &env.join("manifests/site.pp"),
        "node /^web/ {\n  class { 'motd': message => join(['hello', $facts['hostname']], ' ') }\n}\nnode default {\n  notify { 'plain': }\n}\n",
    );
    for n in ["web01", "db01"] {
        write(
            &dir.join(format!("nodes/{n}.json")),
            &format!(r#"{{"name": "{n}.example.com", "values": {{"hostname": "{n}"}}}}"#),
        );
    }
    env
}

fn catalog_resource<'a>(
    catalog: &'a serde_json::Value,
    title: &str,
) -> Option<&'a serde_json::Value> {
    catalog["resources"]
        .as_array()?
        .iter()
        .find(|r| r["title"] == title)
}

#[test]
fn forge_and_git_modules_compile_from_the_cache_then_offline() {
    let tmp = tempfile::tempdir().unwrap();
    let forge = start_forge(tmp.path());
    let repo = motd_repo(tmp.path());
    let env = environment(
        tmp.path(),
        &format!(
            "forge '{}'\n\n# stdlib from the Forge, motd from git\nmod 'puppetlabs/stdlib', :latest\nmod 'motd',\n  git: '{}',\n  tag: 'v1.0.0'\n",
            forge.url,
            repo.display()
        ),
    );
    let cache = tmp.path().join("cache");
    let node = tmp.path().join("nodes/web01.json");
    let args = |offline: bool| {
        let mut a = vec![
            "compile".to_string(),
            env.display().to_string(),
            "--facts".into(),
            node.display().to_string(),
            "--module-cache".into(),
            cache.display().to_string(),
            "--puppet".into(),
            "7".into(),
        ];
        if offline {
            a.push("--offline".into());
        }
        a
    };
    let run = |offline: bool| {
        let a = args(offline);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        pverify(&a)
    };
    let (code, out, err) = run(false);
    assert_eq!(code, 0, "{err}");
    let catalog: serde_json::Value = serde_json::from_str(&out).unwrap();
    let motd = catalog_resource(&catalog, "/etc/motd").expect("File[/etc/motd]");
    assert_eq!(motd["parameters"]["content"], "hello web01 (motd 1.0.0)\n");
    // The module is where r10k would have put it, though nothing was written there.
    let file = motd["file"].as_str().unwrap();
    assert!(
        file.ends_with("/env/modules/motd/manifests/init.pp"),
        "{file}"
    );
    assert!(!env.join("modules").exists());
    // The Forge was asked for stdlib's newest release, the release and the tarball.
    assert_eq!(forge.requests.load(Ordering::SeqCst), 3);

    // Everything is in the cache: offline, the same catalog without a request.
    let (code, again, err) = run(true);
    assert_eq!(code, 0, "{err}");
    assert_eq!(again, out);
    assert_eq!(forge.requests.load(Ordering::SeqCst), 3);
}

#[test]
fn bad_modules_name_the_puppetfile_and_other_nodes_still_compile() {
    let tmp = tempfile::tempdir().unwrap();
    let forge = start_forge(tmp.path());
    let repo = motd_repo(tmp.path());
    let env = environment(
        tmp.path(),
        &format!(
            "forge '{}'\nmod 'acme/nosuch', '1.0.0'\nmod 'acme/broken', '1.0.0'\nmod 'motd', git: '{}', tag: 'v9.9.9'\n",
            forge.url,
            repo.display()
        ),
    );
    // A stale motd in the working tree's moduledir is not seen: r10k
    // would have purged it.
    write(
        &env.join("modules/motd/manifests/init.pp"),
        "class motd($message) { notify { 'stale': } }\n",
    );
    let cache = tmp.path().join("cache");
    let out = tmp.path().join("out");
    let pf = env.join("Puppetfile").display().to_string();
    let (code, _, err) = pverify(&[
        "compile",
        env.to_str().unwrap(),
        "--facts",
        tmp.path().join("nodes/web01.json").to_str().unwrap(),
        tmp.path().join("nodes/db01.json").to_str().unwrap(),
        "--out-dir",
        out.to_str().unwrap(),
        "--module-cache",
        cache.to_str().unwrap(),
        "--puppet",
        "7",
    ]);
    assert_ne!(code, 0);
    let expected = [
        format!("pverify compile: {pf}:2:1: mod 'acme/nosuch': the Forge has no release 1.0.0 (404 from {}/v3/releases/acme-nosuch-1.0.0)", forge.url),
        format!("pverify compile: {pf}:3:1: mod 'acme/broken' 1.0.0: checksum mismatch: the Forge's file_sha256 is {}, the download's is ", "0".repeat(64)),
        format!("pverify compile: {pf}:4:1: mod 'motd': {} has no tag 'v9.9.9'", repo.display()),
    ];
    for e in &expected {
        assert!(err.contains(e.as_str()), "missing {e:?} in:\n{err}");
    }
    // The node that needs no module compiled; the other failed on motd.
    assert!(out.join("db01.example.com.json").is_file(), "{err}");
    assert!(!out.join("web01.example.com.json").exists());

    // A cache that cannot be written: one error naming the Puppetfile.
    let blocker = tmp.path().join("a-file");
    write(&blocker, "");
    let (code, _, err) = pverify(&[
        "compile",
        env.to_str().unwrap(),
        "--facts",
        tmp.path().join("nodes/db01.json").to_str().unwrap(),
        "--module-cache",
        blocker.join("cache").to_str().unwrap(),
    ]);
    assert_eq!(code, 3);
    assert!(
        err.starts_with(&format!(
            "pverify compile: {pf}: module cache {}: not writable: ",
            blocker.join("cache").display()
        )),
        "{err}"
    );

    // A Puppetfile pverify cannot read: file, line and column.
    write(
        &env.join("Puppetfile"),
        "mod 'motd',\n  :git => 'x',\n  :tga => 'v1'\n",
    );
    let (code, _, err) = pverify(&[
        "compile",
        env.to_str().unwrap(),
        "--facts",
        tmp.path().join("nodes/db01.json").to_str().unwrap(),
        "--module-cache",
        cache.to_str().unwrap(),
    ]);
    assert_eq!(code, 3);
    assert_eq!(
        err,
        format!("pverify compile: {pf}:3:3: unknown module option `tga`\n")
    );
}

/// A control repo (pverify.yaml, Puppet 7) whose second commit bumps motd
/// from v1.0.0 to v2.0.0 in its Puppetfile; `modules/` is git-ignored.
fn control_repo(dir: &Path, motd: &Path) -> PathBuf {
    let ctl = dir.join("control");
    write(
        &ctl.join("pverify.yaml"),
        "puppet: 7\nenvironment: .\ngolden: golden\nnodes:\n  matrix:\n    - names: [web01.example.com]\n      facts: {hostname: web01}\n    - names: [db01.example.com]\n      facts: {hostname: db01}\n",
    );
    write(&ctl.join(".gitignore"), "modules/\ngolden/\n");
    write(&ctl.join("environment.conf"), "modulepath = modules\n");
    write(
        &ctl.join("manifests/site.pp"),
        "node /^web/ {\n  class { 'motd': message => \"hello ${facts['hostname']}\" }\n}\nnode default {\n  notify { 'plain': }\n}\n",
    );
    let puppetfile = |tag: &str| {
        format!(
            "mod 'acme/motd',\n  :git => '{}',\n  :tag => '{tag}'\n",
            motd.display()
        )
    };
    write(&ctl.join("Puppetfile"), &puppetfile("v1.0.0"));
    git(&ctl, &["init", "--quiet", "-b", "main"]);
    git(&ctl, &["add", "-A"]);
    git(&ctl, &["commit", "--quiet", "-m", "motd 1.0.0"]);
    write(&ctl.join("Puppetfile"), &puppetfile("v2.0.0"));
    git(&ctl, &["commit", "--quiet", "-am", "bump motd to 2.0.0"]);
    ctl
}

/// What a diff report says past its first line (which names the sides).
fn body(report: &str) -> String {
    report.lines().skip(1).collect::<Vec<_>>().join("\n")
}

#[test]
fn a_git_revision_diff_shows_a_module_bump_as_puppet_does() {
    let tmp = tempfile::tempdir().unwrap();
    let motd = motd_repo(tmp.path());
    let ctl = control_repo(tmp.path(), &motd);
    let cache = tmp.path().join("cache");
    let out = Command::new(env!("CARGO_BIN_EXE_pverify"))
        .current_dir(&ctl)
        .args(["diff", "--from", "HEAD~1", "--to", "HEAD", "--module-cache"])
        .arg(&cache)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(
        out.status.code(),
        Some(2),
        "{report}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        body(&report),
        "2 nodes: 1 changed, 1 unchanged, 0 added, 0 removed, 0 failed\n\n\
         File[/etc/motd] content changed on 1 node: web01.example.com\n  \
         --- File[/etc/motd] (from)\n  +++ File[/etc/motd] (to)\n  @@ -1 +1 @@\n  \
         -hello web01 (motd 1.0.0)\n  +hello web01 (motd 2.0.0)\n\n\
         File[/etc/issue] added on 1 node: web01.example.com",
        "{report}"
    );
    assert!(!ctl.join("modules").exists());

    // Puppet 7.23's catalogs of both revisions (each deployed from its
    // own Puppetfile) differ in exactly these resources.
    use pverify_harness::reference::{PuppetVersion, Reference};
    if let Err(e) = Reference::locate(PuppetVersion::V7) {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI needs Puppet 7.23: {e}"
        );
        eprintln!("not confirmed with Puppet 7.23: {e}");
        return;
    }
    let mut goldens = Vec::new();
    for (i, rev) in ["HEAD~1", "HEAD"].iter().enumerate() {
        let side = tmp.path().join(format!("side{i}"));
        git(
            &ctl,
            &[
                "worktree",
                "add",
                "--quiet",
                "--detach",
                side.to_str().unwrap(),
                rev,
            ],
        );
        let (code, _, err) = pverify(&[
            "bless",
            side.to_str().unwrap(),
            "--oracle",
            "puppet",
            "--module-cache",
            cache.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{err}");
        // pverify's catalogs of the side equal Puppet's.
        let (code, report, err) = pverify(&[
            "check",
            side.to_str().unwrap(),
            "--module-cache",
            cache.to_str().unwrap(),
            "--offline",
        ]);
        assert_eq!(code, 0, "{report}{err}");
        goldens.push(side.join("golden"));
    }
    let (code, puppet_report, err) = pverify(&[
        "diff",
        "--from-catalogs",
        goldens[0].to_str().unwrap(),
        "--to-catalogs",
        goldens[1].to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(body(&puppet_report), body(&report));
}

#[test]
fn the_deployed_tree_is_the_one_r10k_deploys() {
    let Some(root) = r10k_root() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let motd = motd_repo(tmp.path());
    let v1 = git(&motd, &["rev-parse", "v1.0.0"]).trim().to_string();
    let env = tmp.path().join("env");
    let m = motd.display();
    write(
        &env.join("Puppetfile"),
        &format!(
            "moduledir 'vendor'\n\
             mod 'motd', :git => '{m}', :tag => 'v1.0.0'\n\
             mod 'acme/issue', git: '{m}', branch: 'main'\n\
             mod 'acme-pinned', git: '{m}', commit: '{v1}'\n\
             mod 'byref', git: '{m}', ref: 'v2.0.0'\n\
             mod 'sitemod', git: '{m}', ref: 'main', install_path: 'site'\n"
        ),
    );
    let opts = pverify_harness::puppetfile::CacheOptions {
        dir: Some(tmp.path().join("cache")),
        offline: false,
    };
    let deployed = pverify_harness::puppetfile::deploy(&env, &opts)
        .unwrap()
        .expect("a Puppetfile");
    assert!(deployed.errors.is_empty(), "{:?}", deployed.errors);
    assert_eq!(deployed.modules.len(), 5);

    // r10k in its root, the test's directory bound at the same path.
    r10k_install(&root, tmp.path(), &env);
    for m in &deployed.modules {
        let r10k = tree(&m.dir);
        assert!(
            r10k.contains_key(Path::new("manifests/init.pp")),
            "{}",
            m.dir.display()
        );
        assert_eq!(tree(&m.tree), r10k, "{} differs from r10k's", m.name);
    }
    // Nothing else: r10k deployed exactly these modules.
    let mut dirs: Vec<String> = ["vendor", "site"]
        .iter()
        .flat_map(|d| std::fs::read_dir(env.join(d)).unwrap())
        .map(|e| {
            e.unwrap()
                .path()
                .strip_prefix(&env)
                .unwrap()
                .display()
                .to_string()
        })
        .collect();
    dirs.sort();
    assert_eq!(
        dirs,
        [
            "site/sitemod",
            "vendor/byref",
            "vendor/issue",
            "vendor/motd",
            "vendor/pinned"
        ]
    );
}

#[test]
fn check_keeps_the_nodes_a_failed_module_does_not_touch() {
    let tmp = tempfile::tempdir().unwrap();
    let motd = motd_repo(tmp.path());
    let ctl = control_repo(tmp.path(), &motd);
    let cache = tmp.path().join("cache");
    let (code, _, err) = pverify(&[
        "bless",
        ctl.to_str().unwrap(),
        "--module-cache",
        cache.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let puppetfile = ctl.join("Puppetfile");
    let text = std::fs::read_to_string(&puppetfile).unwrap();
    std::fs::write(&puppetfile, text.replace("v2.0.0", "v9.9.9")).unwrap();
    let (code, report, err) = pverify(&[
        "check",
        ctl.to_str().unwrap(),
        "--module-cache",
        cache.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{report}{err}");
    let missing = format!(
        "{}:1:1: mod 'acme/motd': {} has no tag 'v9.9.9'",
        puppetfile.display(),
        motd.display()
    );
    assert!(err.contains(&missing), "{err}");
    // db01 needs no module and still matches its golden; web01's error
    // says why motd is missing.
    assert!(report.contains("db01.example.com"), "{report}");
    let relative = format!(
        "Could not find declared class motd (file: manifests/site.pp, line: 2, column: 3) on node web01.example.com (Puppetfile deployment failed: Puppetfile:1:1: mod 'acme/motd': {} has no tag 'v9.9.9')",
        motd.display()
    );
    assert!(report.contains(&relative), "{report}");
    assert!(report.contains("1 passed, 1 failed"), "{report}");
}
