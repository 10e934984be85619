//! Write attacks of an untrusted repo (docs/safety.md, "Writes"): node
//! names that leave the output directory, planted links at temporary and
//! golden names, a node named `report`, two node files with one certname,
//! outputs that cannot be written; and the typos that were silent. Each
//! test proves the refusal and that nothing outside changed.

mod common;

use std::path::{Path, PathBuf};

use common::pverify;

/// A tree: `out/` (the output directory), `outside/` (what must not
/// change: `secret.txt` and whatever a traversal would create), `env/`
/// (an environment with one notify), `nodes/`.
struct Tree {
    _tmp: tempfile::TempDir,
    root: PathBuf,
}

const SECRET: &str = "TOP-SECRET-CONTENT";

impl Tree {
    fn new() -> Tree {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().to_path_buf();
        for d in ["out", "outside", "env/manifests", "nodes"] {
            std::fs::create_dir_all(root.join(d)).unwrap();
        }
        std::fs::write(root.join("outside/secret.txt"), SECRET).unwrap();
        std::fs::write(
            root.join("env/manifests/site.pp"),
            "notify { \"hello ${trusted['certname']}\": }\n",
        )
        .unwrap();
        Tree { _tmp: tmp, root }
    }

    fn p(&self, rel: &str) -> PathBuf {
        self.root.join(rel)
    }

    fn s(&self, rel: &str) -> String {
        self.p(rel).to_str().unwrap().to_string()
    }

    /// Writes `nodes/<file>` naming `certname`.
    fn node(&self, file: &str, certname: &str) -> String {
        let doc = serde_json::json!({"name": certname, "values": {"os": {"family": "Debian"}}});
        std::fs::write(self.p(&format!("nodes/{file}")), doc.to_string()).unwrap();
        self.s(&format!("nodes/{file}"))
    }

    /// `outside/` holds only the secret, unchanged (and the tree's top
    /// only what the test made).
    fn assert_outside_untouched(&self) {
        let names = |d: &Path| {
            let mut v: Vec<String> = std::fs::read_dir(d)
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            v.sort();
            v
        };
        assert_eq!(names(&self.p("outside")), ["secret.txt"]);
        assert_eq!(
            std::fs::read_to_string(self.p("outside/secret.txt")).unwrap(),
            SECRET
        );
        for top in names(&self.root) {
            assert!(
                ["out", "outside", "env", "nodes", "repo"].contains(&top.as_str()),
                "{top} appeared beside the output directory"
            );
        }
    }

    fn compile(&self, nodes: &[String]) -> (i32, String, String) {
        let env = self.s("env");
        let out = self.s("out");
        let mut args = vec![
            "compile",
            env.as_str(),
            "--out-dir",
            out.as_str(),
            "--facts",
        ];
        args.extend(nodes.iter().map(String::as_str));
        pverify(&args)
    }

    fn report(&self) -> serde_json::Value {
        let text = std::fs::read_to_string(self.p("out/report.json")).unwrap();
        serde_json::from_str(&text).unwrap()
    }

    fn status_of(&self, name_part: &str) -> (String, String) {
        let report = self.report();
        let node = report["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|n| n["name"].as_str() == Some(name_part))
            .or_else(|| {
                report["nodes"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|n| n["name"].as_str().unwrap().contains(name_part))
            })
            .unwrap_or_else(|| panic!("no {name_part} in {report}"))
            .clone();
        (
            node["status"].as_str().unwrap().to_string(),
            node["error"].as_str().unwrap_or_default().to_string(),
        )
    }

    /// A control repo `repo/` over `env/`'s manifest with `pverify.yaml`'s
    /// node list `nodes` (YAML) and extra keys.
    fn control_repo(&self, nodes: &str, extra: &str) -> String {
        let repo = self.p("repo");
        std::fs::create_dir_all(repo.join("manifests")).unwrap();
        std::fs::copy(
            self.p("env/manifests/site.pp"),
            repo.join("manifests/site.pp"),
        )
        .unwrap();
        std::fs::write(
            repo.join("pverify.yaml"),
            format!("nodes:\n{nodes}\n{extra}"),
        )
        .unwrap();
        self.s("repo")
    }
}

#[test]
fn a_node_named_by_an_absolute_path_is_refused_and_the_others_are_written() {
    let t = Tree::new();
    let evil_name = format!("{}/x", t.s("outside"));
    let nodes = [
        t.node("good.json", "good.example.com"),
        t.node("evil.json", &evil_name),
    ];
    let (code, _, err) = t.compile(&nodes);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("directory traversal"), "{err}");
    assert!(t.p("out/good.example.com.json").is_file());
    let (status, error) = t.status_of("evil");
    assert_eq!(status, "failed");
    assert!(error.contains("directory traversal"), "{error}");
    t.assert_outside_untouched();
}

#[test]
fn a_node_named_dot_dot_slash_is_refused() {
    let t = Tree::new();
    let nodes = [
        t.node("up.json", "../outside/x"),
        t.node("upup.json", "../../x"),
        t.node("good.json", "good.example.com"),
    ];
    let (code, _, err) = t.compile(&nodes);
    assert_eq!(code, 1, "{err}");
    assert_eq!(t.status_of("up").0, "failed");
    assert_eq!(t.status_of("upup").0, "failed");
    assert_eq!(t.status_of("good.example.com").0, "compiled");
    assert!(!t.root.parent().unwrap().join("x.json").exists());
    t.assert_outside_untouched();
}

/// Puppet's other certname rules: printable ASCII, lower case.
#[test]
fn unprintable_non_ascii_and_upper_case_certnames_are_refused() {
    let t = Tree::new();
    let nodes = [
        t.node("nl.json", "a\nb"),
        t.node("utf.json", "caf\u{e9}"),
        t.node("upper.json", "Web01"),
    ];
    let (code, _, err) = t.compile(&nodes);
    assert_eq!(code, 1);
    assert!(
        err.contains("Certname \"a\\nb\" must not contain unprintable or non-ASCII characters"),
        "{err}"
    );
    assert!(
        err.contains("Certname \"caf\u{e9}\" must not contain unprintable"),
        "{err}"
    );
    assert!(
        err.contains("Certificate names must be lower case"),
        "{err}"
    );
    let written: Vec<_> = std::fs::read_dir(t.p("out")).unwrap().collect();
    assert_eq!(written.len(), 1, "only report.json");
}

#[test]
fn a_node_named_report_cannot_replace_report_json() {
    let t = Tree::new();
    let nodes = [
        t.node("report.json", "report"),
        t.node("good.json", "good.example.com"),
    ];
    let (code, _, err) = t.compile(&nodes);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("report.json is the run's report"), "{err}");
    let report = t.report();
    assert_eq!(report["nodes"].as_array().unwrap().len(), 2, "{report}");
    assert_eq!(t.status_of("good.example.com").0, "compiled");
}

#[test]
fn two_node_files_with_one_certname_are_an_error_naming_both() {
    let t = Tree::new();
    let a = t.node("a.json", "same.example.com");
    let b = t.node("b.json", "same.example.com");
    let (code, _, err) = t.compile(&[a.clone(), b.clone(), t.node("c.json", "c.example.com")]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains(&format!(
            "certname same.example.com is in two node files, {a} and {b}"
        )),
        "{err}"
    );
    assert!(!t.p("out/same.example.com.json").exists());
    assert!(t.p("out/c.example.com.json").is_file());
    let failed = t.report()["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["status"] == "failed")
        .count();
    assert_eq!(failed, 2);

    // diff: the node fails on the side that has both files.
    let env = t.s("env");
    let (code, out, err) = pverify(&["diff", "--from", &env, "--to", &env, "--facts", &a, &b]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("is in two node files"), "{out}{err}");
}

/// Temporary names of older versions, now known and planted as links: they
/// are removed, never written through; nothing outside changes.
#[test]
fn planted_temporary_file_links_are_never_followed() {
    let t = Tree::new();
    let secret = t.p("outside/secret.txt");
    for planted in [
        "good.example.com.json.tmp",
        "good.example.com.json.tmp4242",
        ".pverify-AAAAAA.tmp",
    ] {
        std::os::unix::fs::symlink(&secret, t.p(&format!("out/{planted}"))).unwrap();
    }
    let (code, _, err) = t.compile(&[t.node("good.json", "good.example.com")]);
    assert_eq!(code, 0, "{err}");
    let mut left: Vec<String> = std::fs::read_dir(t.p("out"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["good.example.com.json", "report.json"]);
    t.assert_outside_untouched();

    // bless: the same in golden/.
    let repo = t.control_repo("  matrix: [{names: [good.example.com]}]", "");
    std::fs::create_dir_all(t.p("repo/golden")).unwrap();
    let pid_like = format!(
        "repo/golden/good.example.com.json.tmp{}",
        std::process::id()
    );
    std::os::unix::fs::symlink(&secret, t.p(&pid_like)).unwrap();
    let (code, out, _) = pverify(&["bless", &repo]);
    assert_eq!(code, 0, "{out}");
    assert!(!t.p(&pid_like).exists() && t.p(&pid_like).symlink_metadata().is_err());
    t.assert_outside_untouched();
}

/// A golden that is a link out: `check` never reads through it (its
/// target's text is not printed), `bless` replaces the link.
#[test]
fn a_symlinked_golden_is_not_read_and_bless_replaces_the_link() {
    let t = Tree::new();
    let repo = t.control_repo("  matrix: [{names: [good.example.com]}]", "");
    std::fs::create_dir_all(t.p("repo/golden")).unwrap();
    let secret_json = t.p("outside/secret.txt");
    std::os::unix::fs::symlink(&secret_json, t.p("repo/golden/good.example.com.json")).unwrap();
    for format in ["text", "json"] {
        let (code, out, err) = pverify(&["check", &repo, "--format", format]);
        assert_eq!(code, 1, "{out}{err}");
        assert!(out.contains("a symbolic link, not read"), "{out}");
        assert!(!out.contains(SECRET) && !err.contains(SECRET), "{out}{err}");
    }
    let (code, out, _) = pverify(&["bless", &repo]);
    assert_eq!(code, 0, "{out}");
    assert!(!out.contains(SECRET), "{out}");
    let golden = t.p("repo/golden/good.example.com.json");
    assert!(golden.symlink_metadata().unwrap().file_type().is_file());
    assert_eq!(pverify(&["check", &repo]).0, 0);
    t.assert_outside_untouched();
}

/// A check matrix naming nodes that leave `golden/`: each such node fails,
/// the planted outside JSON is never read, bless writes nothing outside.
#[test]
fn matrix_names_leaving_golden_are_refused_per_node() {
    let t = Tree::new();
    let planted = r#"{"resources": [], "secret": "TOP-SECRET-CONTENT"}"#;
    std::fs::write(t.p("outside/x.json"), planted).unwrap();
    let abs = format!("{}/x", t.s("outside"));
    let repo = t.control_repo(
        &format!("  matrix: [{{names: [good.example.com, '../../outside/x', '{abs}']}}]"),
        "",
    );
    let (code, out, _) = pverify(&["bless", &repo]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("created golden/good.example.com.json"),
        "{out}"
    );
    assert!(out.contains("directory traversal"), "{out}");
    let (code, out, _) = pverify(&["check", &repo]);
    assert_eq!(code, 1, "{out}");
    assert!(!out.contains(SECRET), "{out}");
    assert!(
        out.contains("PASSED  good.example.com") || out.contains("good.example.com"),
        "{out}"
    );
    assert_eq!(
        std::fs::read_to_string(t.p("outside/x.json")).unwrap(),
        planted
    );
}

/// `golden:` in the repo's own pverify.yaml cannot point out of the repo.
#[test]
fn a_golden_directory_outside_the_repo_is_refused() {
    let t = Tree::new();
    for golden in ["../outside", "/tmp", "up/outside"] {
        let repo = t.control_repo(
            "  matrix: [{names: [good.example.com]}]",
            &format!("golden: {golden}\n"),
        );
        let _ = std::fs::remove_file(t.p("repo/up"));
        std::os::unix::fs::symlink(&t.root, t.p("repo/up")).unwrap();
        let (code, out, err) = pverify(&["bless", &repo]);
        assert_eq!(code, 1, "{golden}: {out}{err}");
        assert!(out.contains("outside the control repo"), "{golden}: {out}");
        let (code, out, _) = pverify(&["check", &repo]);
        assert_eq!(code, 1, "{golden}: {out}");
        assert!(out.contains("outside the control repo"), "{golden}: {out}");
        t.assert_outside_untouched();
    }
}

#[test]
fn duplicate_certnames_in_check_name_both_files() {
    let t = Tree::new();
    let repo = t.control_repo("  files: ['nodes/*.json']", "");
    std::fs::create_dir_all(t.p("repo/nodes")).unwrap();
    for f in ["a", "b"] {
        std::fs::write(
            t.p(&format!("repo/nodes/{f}.json")),
            r#"{"name": "same.example.com", "values": {}}"#,
        )
        .unwrap();
    }
    let (code, _, err) = pverify(&["check", &repo]);
    assert_eq!(code, 3, "{err}");
    assert!(
        err.contains("node same.example.com is listed twice: in nodes/a.json and in nodes/b.json"),
        "{err}"
    );
    // A matrix naming one node twice.
    let repo = t.control_repo("  matrix: [{names: [a.example.com, a.example.com]}]", "");
    let (code, _, err) = pverify(&["bless", &repo]);
    assert_eq!(code, 3, "{err}");
    assert!(
        err.contains("node a.example.com is listed twice: in pverify.yaml"),
        "{err}"
    );
}

/// Outputs that cannot be written (here a directory where the file goes,
/// which holds even for root) make the exit code non-zero.
#[test]
fn outputs_that_cannot_be_written_fail_the_command() {
    let t = Tree::new();
    let node = t.node("good.json", "good.example.com");
    // report.json
    std::fs::create_dir_all(t.p("out/report.json/x")).unwrap();
    let (code, _, err) = t.compile(std::slice::from_ref(&node));
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("report.json"), "{err}");
    std::fs::remove_dir_all(t.p("out/report.json")).unwrap();
    // a catalog
    std::fs::remove_file(t.p("out/good.example.com.json")).unwrap();
    std::fs::create_dir_all(t.p("out/good.example.com.json/x")).unwrap();
    let (code, _, err) = t.compile(std::slice::from_ref(&node));
    assert_eq!(code, 1, "{err}");
    assert_eq!(t.status_of("good.example.com").0, "failed");
    // stdout
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_pverify"))
        .args(["compile", &t.s("env"), "--facts", &node])
        .stdout(full)
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(1));
    // a golden
    let repo = t.control_repo("  matrix: [{names: [good.example.com]}]", "");
    std::fs::create_dir_all(t.p("repo/golden/good.example.com.json/x")).unwrap();
    let (code, out, _) = pverify(&["bless", &repo]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("error golden/good.example.com.json"), "{out}");
    // diff --output
    let env = t.s("env");
    let (code, _, err) = pverify(&[
        "diff",
        "--from",
        &env,
        "--to",
        &env,
        "--facts",
        &node,
        "--output",
        &t.s("out"),
    ]);
    assert_eq!(code, 1, "{err}");
}

#[test]
fn typos_are_errors() {
    let t = Tree::new();
    let env = t.s("env");
    let node = t.node("good.json", "good.example.com");
    let (code, _, err) = pverify(&[
        "compile",
        &env,
        "--facts",
        &node,
        "--manifest",
        "/nonexistent.pp",
    ]);
    assert_eq!(code, 3);
    assert!(
        err.contains("--manifest /nonexistent.pp: No such file"),
        "{err}"
    );
    let (code, _, err) = pverify(&[
        "compile",
        &env,
        "--facts",
        &node,
        "--hiera-config",
        "/nonexistent.yaml",
    ]);
    assert_eq!(code, 3);
    assert!(
        err.contains("--hiera-config /nonexistent.yaml: No such file"),
        "{err}"
    );
    for cmd in [
        vec!["compile", &env, "--facts", &node, "--jobs", "0"],
        vec!["check", &env, "--jobs", "0"],
        vec!["bless", &env, "--jobs", "0"],
        vec!["run", "spec-suite", "--jobs", "0"],
    ] {
        let (code, _, err) = pverify(&cmd);
        assert_eq!(code, 3, "{cmd:?}");
        assert!(err.contains("0 threads compile nothing"), "{err}");
    }
    let (code, _, err) = pverify(&[
        "diff", "--from", &env, "--to", &env, "--facts", &node, "--jobs", "0",
    ]);
    assert_eq!(code, 3);
    assert!(err.contains("0 threads compile nothing"), "{err}");

    // A node file's unknown key names the file and the key.
    let vals = t.p("nodes/vals.json");
    std::fs::write(&vals, r#"{"name": "v.example.com", "vals": {"os": {}}}"#).unwrap();
    let (code, _, err) = pverify(&["compile", &env, "--facts", vals.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(
        err.contains(&format!(
            "{}: unknown key \"vals\" in a node file",
            vals.display()
        )),
        "{err}"
    );
    // Puppet's own keys are all accepted.
    let full = t.p("nodes/full.yaml");
    std::fs::write(
        &full,
        "--- !ruby/object:Puppet::Node::Facts\nname: f.example.com\nvalues: {a: 1}\n\
         timestamp: 2024-01-01 00:00:00.000000000 +00:00\nexpiration: 2024-01-01 00:30:00.000000000 +00:00\n\
         environment: production\nclasses: []\nparameters: {}\ntrusted: {}\n",
    )
    .unwrap();
    let (code, _, err) = pverify(&["compile", &env, "--facts", full.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
}
