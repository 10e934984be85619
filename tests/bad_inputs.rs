//! Bad inputs: each ends in one clear error line naming the file (with line
//! and column where there is one) and a non-zero exit, and in a matrix the
//! other nodes' catalogs are still written. Runs the `pverify` binary. The
//! tests assert what pverify promises (the file, the line and column, the
//! node), not Puppet's wording: Puppet 7.23 reports invalid UTF-8 without a
//! location, and words YAML errors as Psych does ("(F): did not find
//! expected '-' indicator while parsing a block collection at line 3 column
//! 3", the context's position), which pverify does not match yet.

use std::os::unix::fs::{symlink, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

struct Fixture {
    _dir: tempfile::TempDir,
    root: PathBuf,
}

impl Fixture {
    /// An environment `env` whose site manifest is `site`, and a good node
    /// file `good.json` (certname good.example.com).
    fn new(site: &[u8]) -> Fixture {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path().to_path_buf();
        std::fs::create_dir_all(root.join("env/manifests")).unwrap();
        std::fs::write(root.join("env/manifests/site.pp"), site).unwrap();
        std::fs::write(
            root.join("good.json"),
            r#"{"name": "good.example.com", "values": {"os": "Debian"}}"#,
        )
        .unwrap();
        Fixture { _dir: dir, root }
    }

    fn write(&self, rel: &str, text: &[u8]) -> PathBuf {
        let p = self.root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, text).unwrap();
        p
    }

    /// `pverify ARGS...` in the fixture's directory.
    fn pverify(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_pverify"))
            .current_dir(&self.root)
            .args(args)
            .output()
            .expect("running pverify")
    }

    /// `pverify compile env --out-dir out --facts good.json FACTS... EXTRA...`
    fn compile(&self, facts: &[&str], extra: &[&str]) -> Output {
        let mut args = vec!["compile", "env", "--out-dir", "out", "--facts", "good.json"];
        args.extend_from_slice(facts);
        args.extend_from_slice(extra);
        self.pverify(&args)
    }

    fn good_written(&self) -> bool {
        self.root.join("out/good.example.com.json").is_file()
    }
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The `Error:` lines of a run.
fn error_lines(o: &Output) -> Vec<String> {
    stderr(o)
        .lines()
        .filter(|l| l.starts_with("Error:"))
        .map(String::from)
        .collect()
}

/// One error line containing every piece, a failing exit, and the good
/// node's catalog written.
#[track_caller]
fn assert_one_error(f: &Fixture, o: &Output, pieces: &[&str]) {
    assert!(!o.status.success(), "exit 0: {}", stderr(o));
    let errors = error_lines(o);
    assert_eq!(errors.len(), 1, "{}", stderr(o));
    for p in pieces {
        assert!(errors[0].contains(p), "{:?} lacks {p:?}", errors[0]);
    }
    assert!(f.good_written(), "the good node's catalog is missing");
}

const SITE: &[u8] = b"notify { 'x': message => $facts['os'] }\n";

#[test]
fn missing_environment() {
    let f = Fixture::new(SITE);
    let o = f.pverify(&["compile", "nowhere", "--facts", "good.json"]);
    assert!(!o.status.success());
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("nowhere: cannot read environment directory"),
        "{err}"
    );
}

#[test]
fn environment_that_is_not_a_directory() {
    let f = Fixture::new(SITE);
    f.write("plain", b"x");
    let o = f.pverify(&["compile", "plain", "--facts", "good.json"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("plain: not a directory"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn malformed_facts_json() {
    let f = Fixture::new(SITE);
    f.write(
        "bad.json",
        b"{\"name\": \"bad\", \"values\": {\n  \"a\": }\n",
    );
    let o = f.compile(&["bad.json"], &[]);
    assert_one_error(&f, &o, &["bad.json:2:8: not a node file"]);
}

#[test]
fn malformed_facts_yaml() {
    let f = Fixture::new(SITE);
    f.write("bad.yaml", b"name: bad\nvalues:\n  a: [1,\n  b: }\n");
    let o = f.compile(&["bad.yaml"], &[]);
    // Psych: did not find expected node content while parsing a flow node at line 4 column 6.
    assert_one_error(
        &f,
        &o,
        &[
            "bad.yaml:4:6:",
            "not a node file",
            "did not find expected node content while parsing a flow node",
        ],
    );
}

#[test]
fn unreadable_facts_file() {
    let f = Fixture::new(SITE);
    let o = f.compile(&["absent.json"], &[]);
    assert_one_error(&f, &o, &["absent.json"]);
}

/// A node whose lookup reads `data/<certname>.yaml`, so one node's data can
/// be bad while the good node's is fine.
fn hiera_fixture(hiera_yaml: &[u8], bad_data: &[u8]) -> Fixture {
    let f = Fixture::new(b"notify { 'x': message => lookup('k', undef, undef, 'd') }\n");
    f.write("env/hiera.yaml", hiera_yaml);
    f.write("env/data/bad.example.com.yaml", bad_data);
    f.write("bad.json", br#"{"name": "bad.example.com", "values": {}}"#);
    f
}

const HIERA: &[u8] =
    b"version: 5\nhierarchy:\n  - name: node\n    path: \"%{trusted.certname}.yaml\"\n";

#[test]
fn malformed_hiera_data_file() {
    let f = hiera_fixture(HIERA, b"k: [1,\n  b: }\n");
    let o = f.compile(&["bad.json"], &[]);
    assert_one_error(
        &f,
        &o,
        &[
            "data/bad.example.com.yaml",
            // Psych's text and place (checked with Ruby's YAML.safe_load).
            "did not find expected node content while parsing a flow node at line 2 column 6",
            "on node bad.example.com",
        ],
    );
}

#[test]
fn malformed_hiera_yaml() {
    let f = Fixture::new(b"notify { 'x': message => lookup('k', undef, undef, 'd') }\n");
    f.write(
        "env/hiera.yaml",
        b"version: 5\nhierarchy:\n  - name: c\n   bad: [\n",
    );
    let o = f.pverify(&["compile", "env", "--facts", "good.json"]);
    assert!(!o.status.success());
    let errors = error_lines(&o);
    assert_eq!(errors.len(), 1, "{}", stderr(&o));
    // Psych's text and place (checked with Ruby's YAML.safe_load).
    assert!(
        errors[0].contains(
            "hiera.yaml): did not find expected '-' indicator while parsing a block collection at line 3 column 3"
        ),
        "{errors:?}"
    );
}

/// An ENC script: fine for good.example.com, `bad` for everyone else.
fn enc_fixture(bad: &str) -> Fixture {
    let f = Fixture::new(SITE);
    let script = format!(
        "#!/bin/sh\nif [ \"$1\" = good.example.com ]; then echo 'classes: []'; exit 0; fi\n{bad}\n"
    );
    let p = f.write("enc.sh", script.as_bytes());
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    f.write("bad.json", br#"{"name": "bad.example.com", "values": {}}"#);
    f
}

#[test]
fn enc_exiting_non_zero() {
    let f = enc_fixture("exit 3");
    let o = f.compile(&["bad.json"], &["--enc", "./enc.sh"]);
    assert_one_error(&f, &o, &["enc.sh: the ENC failed for bad.example.com"]);
}

#[test]
fn enc_printing_garbage() {
    let f = enc_fixture("echo 'classes: [a,'; exit 0");
    let o = f.compile(&["bad.json"], &["--enc", "./enc.sh"]);
    assert_one_error(
        &f,
        &o,
        &[
            "enc.sh: the ENC printed no valid YAML for bad.example.com",
            "line",
        ],
    );
}

#[test]
fn enc_hanging_is_timed_out() {
    let f = enc_fixture("sleep 30");
    let o = f.compile(
        &["bad.json"],
        &["--enc", "./enc.sh", "--enc-timeout", "0.5"],
    );
    assert_one_error(
        &f,
        &o,
        &["enc.sh: the ENC did not answer for bad.example.com within 0.5 s"],
    );
}

#[test]
fn invalid_utf8_in_a_manifest() {
    // Puppet 7.23: "Could not parse for environment ...: invalid byte
    // sequence in UTF-8" (no location); pverify adds the file and position.
    let f = Fixture::new(b"notice(\"\xff\")\n");
    let o = f.pverify(&["compile", "env", "--facts", "good.json"]);
    assert!(!o.status.success());
    let errors = error_lines(&o);
    assert_eq!(errors.len(), 1, "{}", stderr(&o));
    assert!(
        errors[0].contains("invalid byte sequence in UTF-8 (file: ")
            && errors[0].contains("site.pp, line: 1, column: 9)"),
        "{errors:?}"
    );
}

#[test]
fn invalid_utf8_in_templates() {
    // An EPP template fails the `epp()` call, at the call (Puppet 7.23 and
    // 8.10: "Error while evaluating a Function Call, invalid byte sequence
    // in UTF-8 (file: .../site.pp, line: 2, column: 30)"), before the ERB
    // one is reached (an ERB template's bytes fail only when they reach the
    // catalog, as Puppet cannot write them as JSON: tests/limits.rs).
    let f = Fixture::new(
        b"if $trusted['certname'] == 'bad.example.com' {\n  notify { 'epp': message => epp('m/t.epp') }\n  notify { 'erb': message => template('m/t.erb') }\n}\n",
    );
    f.write("env/modules/m/templates/t.epp", b"ok <%= 1 %> \xff\xfe\n");
    f.write("env/modules/m/templates/t.erb", b"ok <%= 1 %> \xff\xfe\n");
    f.write(
        "bad.json",
        br#"{"name": "bad.example.com", "values": {"os": "Debian"}}"#,
    );
    let o = f.compile(&["bad.json"], &[]);
    assert_one_error(
        &f,
        &o,
        &[
            "Error while evaluating a Function Call, invalid byte sequence in UTF-8",
            "site.pp, line: 2, column: 30)",
            "bad.example.com",
        ],
    );
}

#[test]
fn symlink_loop_in_the_modulepath() {
    let f = Fixture::new(b"include m\n");
    f.write(
        "env/modules/m/manifests/init.pp",
        b"class m { notify { 'm': } }\n",
    );
    symlink("..", f.root.join("env/modules/m/manifests/loop")).unwrap();
    symlink("loop2", f.root.join("env/modules/loop1")).unwrap();
    symlink("loop1", f.root.join("env/modules/loop2")).unwrap();
    let o = f.compile(&[], &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(f.good_written());
}

#[test]
fn golden_that_is_not_json() {
    let dir = tempfile::tempdir().unwrap();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let copy = |from: &Path, to: &Path| {
        let status = Command::new("cp")
            .arg("-r")
            .arg(from)
            .arg(to)
            .status()
            .unwrap();
        assert!(status.success());
    };
    copy(&fixtures.join("example-repo"), &dir.path().join("repo"));
    copy(&fixtures.join("factsets"), &dir.path().join("factsets"));
    let golden = dir
        .path()
        .join("repo/golden/db01.example.com@debian-12-x86_64.json");
    std::fs::write(&golden, "not json {\n").unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_pverify"))
        .args(["check"])
        .arg(dir.path().join("repo"))
        .output()
        .unwrap();
    assert!(!o.status.success());
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains(
            "golden/db01.example.com@debian-12-x86_64.json:1:2: the golden catalog is not JSON"
        ),
        "{out}"
    );
    // Every other node is still checked.
    assert_eq!(
        out.matches("\nok ").count() + out.starts_with("ok ") as usize,
        5,
        "{out}"
    );
}
