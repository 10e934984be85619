//! Confinement: what a manifest names is read only inside the read roots
//! (docs/safety.md). `file()` and `find_file()` find no absolute path elsewhere,
//! `..` escape or symlink pointing out (resolved, then checked; this is
//! pverify's policy, stricter than Puppet, which reads any path; the attacks
//! one by one are in tests/security.rs);
//! `generate()` runs a command only when allowed (`--allow-generate`), and
//! then as Puppet does; `source` contents for `diff` come only
//! from a module's `files/`.

mod common;

use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};

use puppet_compiler::eval::{self, NodeInfo};
use puppet_compiler::files::{FileSystem, OsFiles};
use puppet_compiler::loader::confine::ReadRoots;
use puppet_compiler::loader::{Environment, Overrides};

const NODE: &str = "n.example.com";

/// An environment with module `m` (`files/ok.txt`, a symlink `files/out`
/// to a file outside, a symlink `files/in` to `ok.txt`) and a secret file
/// next to the environment.
fn setup() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("tempdir");
    let env = dir.path().join("production");
    let files = env.join("modules/m/files");
    std::fs::create_dir_all(&files).unwrap();
    std::fs::create_dir_all(env.join("manifests")).unwrap();
    std::fs::write(files.join("ok.txt"), "inside\n").unwrap();
    std::fs::write(dir.path().join("secret.txt"), "secret\n").unwrap();
    symlink(dir.path().join("secret.txt"), files.join("out")).unwrap();
    symlink(files.join("ok.txt"), files.join("in")).unwrap();
    (dir, env)
}

fn compile(env_dir: &Path, manifest: &str) -> Result<String, String> {
    compile_allowing(env_dir, manifest, false)
}

fn compile_allowing(
    env_dir: &Path,
    manifest: &str,
    allow_generate: bool,
) -> Result<String, String> {
    compile_granting(env_dir, manifest, allow_generate, &[])
}

fn compile_granting(
    env_dir: &Path,
    manifest: &str,
    allow_generate: bool,
    grants: &[PathBuf],
) -> Result<String, String> {
    std::fs::write(env_dir.join("manifests/site.pp"), manifest).unwrap();
    let env = Environment::boot(
        env_dir,
        &Overrides {
            basemodulepath: Some(String::new()),
            grants: grants.to_vec(),
            ..Overrides::default()
        },
    )?;
    let node = NodeInfo {
        name: NODE.into(),
        allow_generate,
        // Expectations are Puppet 7.23's (the host's Puppet).
        puppet: puppet_compiler::version::PuppetVersion::V7,
        ..NodeInfo::default()
    };
    eval::compile(&env, node)
        .map(|c| c.catalog.to_string())
        .map_err(|e| e.for_node(NODE))
}

#[track_caller]
fn assert_refused(env: &Path, manifest: &str) {
    match compile(env, manifest) {
        Ok(_) => panic!("{manifest}: compiled, expected a confinement error"),
        // Refused as a missing file is (Puppet's text).
        Err(e) => assert!(
            e.contains("Could not find any files from"),
            "{manifest}: {e}"
        ),
    }
}

#[test]
fn file_reads_inside_the_module() {
    let (_d, env) = setup();
    let out = compile(&env, "notify { 'x': message => file('m/ok.txt') }\n").unwrap();
    assert!(out.contains("inside"), "{out}");
    // A symlink that stays inside is fine.
    let out = compile(&env, "notify { 'x': message => file('m/in') }\n").unwrap();
    assert!(out.contains("inside"), "{out}");
}

#[test]
fn a_module_that_is_a_symlink_counts_where_it_points_when_granted() {
    // The repo's symlink to a module outside reads only when the operator
    // grants where it points.
    let (d, env) = setup();
    let real = d.path().join("elsewhere/linked");
    std::fs::create_dir_all(real.join("files")).unwrap();
    std::fs::write(real.join("files/a.txt"), "linked module\n").unwrap();
    symlink(&real, env.join("modules/linked")).unwrap();
    let manifest = "notify { 'x': message => file('linked/a.txt') }\n";
    assert_refused(&env, manifest);
    let grants = [d.path().join("elsewhere")];
    let out = compile_granting(&env, manifest, false, &grants).unwrap();
    assert!(out.contains("linked module"), "{out}");
}

#[test]
fn file_refuses_an_absolute_path_outside() {
    let (d, env) = setup();
    let secret = d.path().join("secret.txt");
    assert_refused(
        &env,
        &format!(
            "notify {{ 'x': message => file('{}') }}\n",
            secret.display()
        ),
    );
}

#[test]
fn file_refuses_a_dotdot_escape() {
    let (_d, env) = setup();
    assert_refused(
        &env,
        "notify { 'x': message => file('m/../../../../secret.txt') }\n",
    );
}

#[test]
fn file_refuses_a_symlink_pointing_out() {
    let (_d, env) = setup();
    assert_refused(&env, "notify { 'x': message => file('m/out') }\n");
}

#[test]
fn find_file_refuses_outside_paths() {
    let (d, env) = setup();
    // Not found: undef, as for a missing file.
    let undef = |m: &str| {
        let c = compile(&env, m).unwrap();
        assert!(c.contains("\"message\":\"\""), "{m}: {c}");
    };
    undef("notify { 'x': message => String(find_file('m/out')) }\n");
    let secret = d.path().join("secret.txt");
    undef(&format!(
        "notify {{ 'x': message => String(find_file('{}')) }}\n",
        secret.display()
    ));
    let out = compile(&env, "notify { 'x': message => find_file('m/ok.txt') }\n").unwrap();
    assert!(out.contains("ok.txt"), "{out}");
}

#[test]
fn generate_never_runs_a_command() {
    let (d, env) = setup();
    let marker = d.path().join("ran");
    let manifest = format!(
        "notify {{ 'x': message => generate('/usr/bin/touch', '{}') }}\n",
        marker.display()
    );
    let err = compile(&env, &manifest).expect_err("generate must be refused");
    assert!(
        err.contains("pverify does not run generate() commands"),
        "{err}"
    );
    assert!(!marker.exists(), "generate ran its command");
}

/// An executable shell script `name` in `dir`.
fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

// The expectations below were checked with `puppet apply -e` (Puppet 7.23)
// and the same scripts.

#[test]
fn generate_runs_its_command_when_allowed() {
    let (d, env) = setup();
    let bin = d.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    // Output and errors together, in the command's directory.
    let gen = script(&bin, "gen", "echo \"out $1\"\necho err >&2\npwd\n");
    let manifest = format!(
        "notify {{ 'x': message => generate('{}', 'a b') }}\n",
        gen.display()
    );
    let catalog = compile_allowing(&env, &manifest, true).expect("compiles");
    let dir = bin.canonicalize().unwrap();
    let expected = format!("out a b\\nerr\\n{}\\n", dir.display());
    assert!(catalog.contains(&expected), "{catalog}");
}

#[test]
fn generate_failures_have_puppets_messages() {
    let (d, env) = setup();
    let bad = script(d.path(), "bad", "echo bad\nexit 3\n");
    let run = |command: &str| {
        let manifest = format!("notify {{ 'x': message => generate('{command}') }}\n");
        compile_allowing(&env, &manifest, true).expect_err("generate fails")
    };
    let bad = bad.display().to_string();
    let err = run(&bad);
    assert!(
        err.contains(&format!(
            "Failed to execute generator {bad}: Execution of '{bad}' returned 3: bad"
        )),
        "{err}"
    );
    let missing = d.path().join("missing").display().to_string();
    let err = run(&missing);
    assert!(
        err.contains(&format!(
            "Failed to execute generator {missing}: Execution of '{missing}' returned 1: \
             Error: Could not execute posix command: No such file or directory - {missing}"
        )),
        "{err}"
    );
    let err = run("gen");
    assert!(err.contains("Generators must be fully qualified"), "{err}");
    let err = run("/bin/../bin/echo");
    assert!(
        err.contains("Can not use generators with '..' in them."),
        "{err}"
    );
}

#[test]
fn compile_runs_generate_only_with_allow_generate() {
    let (d, env) = setup();
    let gen = script(d.path(), "hello", "echo hello\n");
    std::fs::write(
        env.join("manifests/site.pp"),
        format!(
            "notify {{ 'x': message => generate('{}') }}\n",
            gen.display()
        ),
    )
    .unwrap();
    let facts = d.path().join("node.json");
    std::fs::write(
        &facts,
        format!("{{\"name\": \"{NODE}\", \"values\": {{}}}}"),
    )
    .unwrap();
    let (env, facts) = (env.display().to_string(), facts.display().to_string());
    let (code, _, err) = common::pverify(&["compile", &env, "--facts", &facts]);
    assert_ne!(code, 0);
    assert!(
        err.contains("pverify does not run generate() commands"),
        "{err}"
    );
    let (code, out, err) =
        common::pverify(&["compile", &env, "--facts", &facts, "--allow-generate"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("hello\\n"), "{out}");
}

#[test]
fn read_roots_resolve_then_check() {
    let (d, env) = setup();
    let roots = ReadRoots::new(&OsFiles, std::slice::from_ref(&env), &[]);
    let fs: &dyn FileSystem = &OsFiles;
    let files = env.join("modules/m/files");
    assert!(roots.resolve(fs, &files.join("ok.txt")).is_ok());
    assert!(roots.resolve(fs, &files.join("in")).is_ok());
    let missing = roots
        .resolve(fs, &files.join("nope"))
        .unwrap_err()
        .to_string();
    for outside in [
        files.join("out"),
        files.join("../../../../secret.txt"),
        d.path().join("secret.txt"),
    ] {
        let e = roots.resolve(fs, &outside).unwrap_err();
        assert_eq!(e.to_string(), missing);
    }
}

#[test]
fn diff_source_contents_stay_in_the_modules_files() {
    let (_d, env) = setup();
    let modulepath = vec![env.join("modules")];
    let files = pverify_harness::diff::content::confined_files(std::slice::from_ref(&env), &[]);
    let read = |url: &str| {
        pverify_harness::diff::content::resolve_source(
            &serde_json::json!(url),
            &modulepath,
            &*files,
        )
        .is_some()
    };
    assert!(read("puppet:///modules/m/ok.txt"));
    assert!(!read("puppet:///modules/m/out"));
    assert!(!read("puppet:///modules/m/../../../secret.txt"));
    assert!(!read("puppet:///modules/m/%2e%2e/secret.txt"));
}

#[test]
fn bless_keeps_the_golden_of_a_node_that_fails() {
    let dir = tempfile::tempdir().unwrap();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    for d in ["example-repo", "factsets"] {
        let ok = std::process::Command::new("cp")
            .arg("-r")
            .arg(fixtures.join(d))
            .arg(dir.path().join(d))
            .status()
            .unwrap()
            .success();
        assert!(ok);
    }
    let repo = dir.path().join("example-repo");
    let site = repo.join("manifests/site.pp");
    let mut text = std::fs::read_to_string(&site).unwrap();
    text.push_str("\nif $trusted['certname'] == 'db01.example.com' { fail('broken') }\n");
    std::fs::write(&site, text).unwrap();
    let kept = repo.join("golden/db01.example.com@debian-12-x86_64.json");
    std::fs::write(&kept, "an old golden\n").unwrap();
    let other = repo.join("golden/web01.example.com@debian-12-x86_64.json");
    std::fs::write(&other, "stale\n").unwrap();
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_pverify"))
        .arg("bless")
        .arg(&repo)
        .output()
        .unwrap();
    assert!(!o.status.success(), "bless with a failing node must fail");
    assert_eq!(std::fs::read_to_string(&kept).unwrap(), "an old golden\n");
    assert!(std::fs::read_to_string(&other).unwrap().starts_with('{'));
    // No temporary file left behind.
    let leftovers: Vec<_> = std::fs::read_dir(repo.join("golden"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !n.ends_with(".json"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

/// `template()` and `epp()` of a file outside the tree: refused as a
/// missing template (so its text never reaches a catalog).
#[track_caller]
fn assert_template_refused(env: &Path, manifest: &str) {
    match compile(env, manifest) {
        Ok(c) => panic!("{manifest}: compiled, expected a refusal: {c}"),
        Err(e) => {
            assert!(e.contains("ould not find template"), "{manifest}: {e}");
        }
    }
}

/// `m/templates` with `ok.erb`/`ok.epp` and symlinks `out.erb`/`out.epp`
/// to the secret next to the environment.
fn template_setup() -> (tempfile::TempDir, PathBuf) {
    let (d, env) = setup();
    let t = env.join("modules/m/templates");
    std::fs::create_dir_all(&t).unwrap();
    std::fs::write(t.join("ok.erb"), "inside <%= 1 + 1 %>\n").unwrap();
    std::fs::write(t.join("ok.epp"), "inside <%= 1 + 1 %>\n").unwrap();
    symlink(d.path().join("secret.txt"), t.join("out.erb")).unwrap();
    symlink(d.path().join("secret.txt"), t.join("out.epp")).unwrap();
    (d, env)
}

#[test]
fn templates_read_inside_the_module() {
    let (_d, env) = template_setup();
    for f in ["template('m/ok.erb')", "epp('m/ok.epp')"] {
        let c = compile(&env, &format!("notify {{ 'x': message => {f} }}\n")).unwrap();
        assert!(c.contains("inside 2"), "{f}: {c}");
    }
}

#[test]
fn templates_refuse_paths_outside() {
    let (d, env) = template_setup();
    let secret = d.path().join("secret.txt");
    for f in [
        format!("template('{}')", secret.display()),
        format!("epp('{}')", secret.display()),
        "template('m/../../../../secret.txt')".to_string(),
        "epp('m/../../../../secret.txt')".to_string(),
        "template('m/out.erb')".to_string(),
        "epp('m/out.epp')".to_string(),
    ] {
        assert_template_refused(&env, &format!("notify {{ 'x': message => {f} }}\n"));
    }
}

#[test]
fn ruby_functions_reach_no_file_or_command() {
    let (dir, env) = setup();
    let fdir = env.join("modules/m/lib/puppet/functions/m");
    std::fs::create_dir_all(&fdir).unwrap();
    let secret = dir.path().join("secret.txt");
    for (name, body) in [
        ("read", format!("File.read('{}')", secret.display())),
        ("run", "system('touch /tmp/pverify-ruby-ran')".to_string()),
        ("tick", "`id`".to_string()),
    ] {
        std::fs::write(
            fdir.join(format!("{name}.rb")),
            format!(
                "Puppet::Functions.create_function(:'m::{name}') do\n  def {name}\n    {body}\n  end\nend\n"
            ),
        )
        .unwrap();
        let e = compile(&env, &format!("notify {{ m::{name}(): }}\n")).expect_err(name);
        if name == "read" {
            // A file outside is missing (Ruby's text), its content unread.
            assert!(
                e.contains("No such file or directory @ rb_sysopen"),
                "{name}: {e}"
            );
        } else {
            assert!(e.contains(&format!("m/{name}.rb")), "{name}: {e}");
        }
        assert!(!e.contains("secret\n"), "{name}: {e}");
    }
    assert!(!Path::new("/tmp/pverify-ruby-ran").exists());
}
