//! hiera-eyaml through the command line: redacted secrets in a diff, the
//! bad inputs (bad block, wrong key, missing key file) failing only the node
//! that reads them, and `--hiera-config` replacing the environment's
//! hiera.yaml. The key pairs and ciphertexts were made with Debian's
//! hiera-eyaml (`eyaml createkeys`, `eyaml encrypt`); the decryption itself
//! is checked against both Puppets by the spec-suite's `hiera/eyaml-*`
//! cases.

mod common;
use common::{have, Need};

use std::path::{Path, PathBuf};
use std::process::Command;

const TESTDATA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/crates/puppet-compiler/src/hiera/eyaml/testdata"
);

fn testdata(name: &str) -> String {
    std::fs::read_to_string(Path::new(TESTDATA).join(name)).unwrap()
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

const HIERA: &str = "version: 5
hierarchy:
  - name: secrets
    lookup_key: eyaml_lookup_key
    path: common.eyaml
    options:
      pkcs7_private_key: keys/private_key.pkcs7.pem
      pkcs7_public_key: keys/public_key.pkcs7.pem
";

const SITE: &str = "node 'web.example.com' { notify { 'db': message => lookup('db_password') } }
node 'bad.example.com' { notify { 'bad': message => lookup('bad_block') } }
node default { notify { 'plain': message => lookup('plain') } }
";

/// An environment whose `db_password` is `secret` (an ENC block), with the
/// test key pair when `keys` says so.
fn environment(dir: &Path, secret: &str, keys: Option<(&str, &str)>) {
    write(&dir.join("hiera.yaml"), HIERA);
    write(&dir.join("manifests/site.pp"), SITE);
    write(
        &dir.join("data/common.eyaml"),
        &format!(
            "plain: just text\ndb_password: {}\nbad_block: ENC[PKCS7,bm90IGEgcGtjczcgYmxvYg==]\n",
            secret.trim()
        ),
    );
    if let Some((private, public)) = keys {
        write(&dir.join("keys/private_key.pkcs7.pem"), &testdata(private));
        write(&dir.join("keys/public_key.pkcs7.pem"), &testdata(public));
    }
    for name in ["web", "bad", "plain"] {
        write(
            &dir.join(format!("nodes/{name}.json")),
            &format!("{{\"name\": \"{name}.example.com\", \"values\": {{}}}}"),
        );
    }
}

fn pverify(args: &[&std::ffi::OsStr]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_pverify"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn base64_of(enc: &str) -> String {
    enc.trim()
        .trim_start_matches("ENC[PKCS7,")
        .trim_end_matches(']')
        .to_string()
}

#[test]
fn redacted_secret_change_names_the_parameter_and_shows_no_value() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let (old, new) = (testdata("hunter2.enc"), testdata("s3cret.enc"));
    // No private key on either side, as in a CI without production keys.
    environment(&a, &old, None);
    environment(&b, &new, None);
    let args: Vec<&std::ffi::OsStr> = vec![
        "diff".as_ref(),
        "--from".as_ref(),
        a.as_os_str(),
        "--to".as_ref(),
        b.as_os_str(),
        "--nodes-dir".as_ref(),
        "nodes".as_ref(),
        "--detail".as_ref(),
        "--eyaml-missing-key".as_ref(),
        "redact".as_ref(),
    ];
    let (_, report, stderr) = pverify(&args);
    assert!(report.contains("Notify[db]"), "{report}{stderr}");
    assert!(report.contains("message"), "{report}");
    assert!(report.contains("[redacted:sha256:"), "{report}");
    for secret in ["hunter2", "s3cret"] {
        assert!(!report.contains(secret), "{report}");
    }
    for cipher in [base64_of(&old), base64_of(&new)] {
        // Any 24 characters past the common header would betray it.
        assert!(!report.contains(&cipher[100..124]), "{report}");
    }
    // The bad block is redacted too (no key to find it bad with), and the
    // plain node is unchanged.
    assert!(
        report.contains("3 nodes: 1 changed, 2 unchanged"),
        "{report}"
    );

    // The same diff without redaction fails the two nodes that read a
    // secret, naming the key file, and keeps the third.
    let (_, report, _) = pverify(&args[..args.len() - 2]);
    assert!(
        report.contains("3 nodes: 0 changed, 1 unchanged, 0 added, 0 removed, 2 failed"),
        "{report}"
    );
    assert!(
        report.contains("No such file or directory @ rb_sysopen - keys/private_key.pkcs7.pem")
            || report.contains("file keys/private_key.pkcs7.pem does not exist"),
        "{report}"
    );
}

/// Compiles the three nodes; returns the exit code, stderr, and the
/// catalogs written.
fn compile_all(env: &Path, out: &Path, puppet: &str) -> (i32, String, Vec<String>) {
    let nodes: Vec<PathBuf> = ["web", "bad", "plain"]
        .iter()
        .map(|n| env.join(format!("nodes/{n}.json")))
        .collect();
    let mut args: Vec<&std::ffi::OsStr> = vec![
        "compile".as_ref(),
        env.as_os_str(),
        "--puppet".as_ref(),
        puppet.as_ref(),
        "--out-dir".as_ref(),
        out.as_os_str(),
        "--facts".as_ref(),
    ];
    args.extend(nodes.iter().map(|p| p.as_os_str()));
    let (code, _, stderr) = pverify(&args);
    let mut written: Vec<String> = std::fs::read_dir(out)
        .map(|d| {
            d.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    // The run's report is not a catalog.
    written.retain(|n| n != "report.json");
    written.sort();
    (code, stderr, written)
}

#[test]
fn bad_block_fails_only_its_node_naming_the_file() {
    let tmp = tempfile::tempdir().unwrap();
    let env = tmp.path().join("env");
    environment(
        &env,
        &testdata("hunter2.enc"),
        Some(("private_key.pkcs7.pem", "public_key.pkcs7.pem")),
    );
    let (code, stderr, written) = compile_all(&env, &tmp.path().join("out"), "7");
    assert_ne!(code, 0);
    assert_eq!(
        written,
        ["plain.example.com.json", "web.example.com.json"],
        "{stderr}"
    );
    let errors: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("hiera-eyaml backend error"))
        .collect();
    assert_eq!(errors.len(), 1, "{stderr}");
    assert!(
        errors[0].contains("when looking up bad_block in ")
            && errors[0].contains("data/common.eyaml"),
        "{stderr}"
    );
    assert!(
        errors[0].contains("Error was Could not parse the PKCS7: no start line"),
        "{stderr}"
    );
    let web = std::fs::read_to_string(tmp.path().join("out/web.example.com.json")).unwrap();
    assert!(web.contains("\"message\": \"hunter2\""), "{web}");
}

#[test]
fn wrong_key_and_missing_key_fail_the_nodes_that_decrypt() {
    for (keys, want) in [
        (
            Some(("other_private_key.pkcs7.pem", "other_public_key.pkcs7.pem")),
            "Error was bad decrypt",
        ),
        (
            None,
            "Error was file keys/private_key.pkcs7.pem does not exist",
        ),
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let env = tmp.path().join("env");
        environment(&env, &testdata("hunter2.enc"), keys);
        let (code, stderr, written) = compile_all(&env, &tmp.path().join("out"), "8");
        assert_ne!(code, 0);
        // The plain node is kept; web and bad both need the key.
        assert_eq!(written, ["plain.example.com.json"], "{stderr}");
        let errors: Vec<&str> = stderr
            .lines()
            .filter(|l| l.contains("hiera-eyaml backend error"))
            .collect();
        assert_eq!(errors.len(), 2, "{stderr}");
        assert!(
            errors.iter().all(|e| e.contains("data/common.eyaml")),
            "{stderr}"
        );
        assert!(
            errors
                .iter()
                .any(|e| e.contains(want) && e.contains("looking up db_password")),
            "{stderr}"
        );
    }
}

#[test]
fn hiera_config_replaces_the_environments_hiera_yaml() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let keys = Some(("private_key.pkcs7.pem", "public_key.pkcs7.pem"));
    environment(&a, &testdata("hunter2.enc"), keys);
    environment(&b, &testdata("s3cret.enc"), keys);
    // The environment's own hiera.yaml names production's key, which CI
    // does not have; the test one (datadir relative to the environment,
    // as if it were there) names the test key.
    for env in [&a, &b] {
        write(
            &env.join("hiera.yaml"),
            &HIERA.replace("keys/", "/nonexistent/eyaml/"),
        );
        write(&env.join("spec/hiera.yaml"), HIERA);
    }
    let diff = |extra: &[&str]| {
        let mut args: Vec<&std::ffi::OsStr> = vec![
            "diff".as_ref(),
            "--from".as_ref(),
            a.as_os_str(),
            "--to".as_ref(),
            b.as_os_str(),
            "--nodes-dir".as_ref(),
            "nodes".as_ref(),
            "--detail".as_ref(),
        ];
        args.extend(extra.iter().map(std::ffi::OsStr::new));
        pverify(&args).1
    };
    let without = diff(&[]);
    assert!(without.contains("2 failed"), "{without}");
    let with = diff(&["--hiera-config", "spec/hiera.yaml"]);
    assert!(
        with.contains("Notify[db]") && with.contains("hunter2") && with.contains("s3cret"),
        "{with}"
    );
    assert!(
        with.contains("1 changed, 1 unchanged") && with.contains("1 failed"),
        "{with}"
    );
}

#[test]
fn pverify_yaml_hiera_config_is_puppets_too() {
    if !have(&[Need::Puppet, Need::Eyaml]) {
        return;
    }
    // The goldens are Puppet 7.23's (`bless --oracle puppet`, which hands
    // Puppet the replacement hiera.yaml through compile.rb's hook), and
    // pverify's check agrees with them.
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path();
    environment(
        repo,
        &testdata("hunter2.enc"),
        Some(("private_key.pkcs7.pem", "public_key.pkcs7.pem")),
    );
    std::fs::remove_file(repo.join("nodes/bad.json")).unwrap();
    write(
        &repo.join("hiera.yaml"),
        &HIERA.replace("keys/", "/nonexistent/eyaml/"),
    );
    write(&repo.join("spec/hiera.yaml"), HIERA);
    write(
        &repo.join("pverify.yaml"),
        "hiera_config: spec/hiera.yaml\nnodes:\n  files: [nodes/*.json]\n",
    );
    let dir = repo.as_os_str();
    let (code, out, err) = pverify(&[
        "bless".as_ref(),
        "--oracle".as_ref(),
        "puppet".as_ref(),
        "--puppet".as_ref(),
        "7".as_ref(),
        dir,
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let golden = std::fs::read_to_string(repo.join("golden/web.example.com.json")).unwrap();
    assert!(golden.contains("\"message\": \"hunter2\""), "{golden}");
    let (code, out, err) = pverify(&["check".as_ref(), "--puppet".as_ref(), "7".as_ref(), dir]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("2 passed, 0 failed"), "{out}");
}
