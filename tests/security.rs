//! Reads a repo can cause, tried as an attacker would (issue 27; the model:
//! docs/safety.md, "Confinement"). Each test sets up a secret outside the
//! repo, compiles the attack, checks the secret never reaches the result,
//! then deletes the secret and compiles again: the two results must be the
//! same, so a refusal reads exactly as a missing file (no oracle of what
//! exists). Paths outside the repo are all in a temporary directory, except
//! the well-known /etc/passwd.

use std::os::unix::fs::symlink;
use std::path::PathBuf;

use puppet_compiler::eval::{self, NodeInfo};
use puppet_compiler::loader::{Environment, Overrides};

const NODE: &str = "n.example.com";
const SECRET: &str = "SECRET-7f3a";

/// A repo `env` and, beside it, `outside/` holding the secret as a text
/// file, a template, YAML and JSON Hiera data (top-level and module keys),
/// a module `evil` and a global hiera.yaml.
struct Setup {
    _dir: tempfile::TempDir,
    env: PathBuf,
    outside: PathBuf,
}

fn setup() -> Setup {
    let dir = tempfile::tempdir().expect("tempdir");
    let base = dir.path().canonicalize().unwrap();
    let env = base.join("env");
    let outside = base.join("outside");
    for d in [
        env.join("manifests"),
        env.join("modules/m/files"),
        env.join("modules/m/templates"),
        env.join("data"),
        outside.join("data"),
        outside.join("evil/files"),
        outside.join("evil/templates"),
    ] {
        std::fs::create_dir_all(d).unwrap();
    }
    let write = |p: PathBuf, text: String| std::fs::write(p, text).unwrap();
    write(outside.join("secret.txt"), format!("{SECRET}\n"));
    write(outside.join("secret.erb"), format!("{SECRET}\n"));
    write(outside.join("secret.epp"), format!("{SECRET}\n"));
    write(outside.join("evil/files/secret.txt"), format!("{SECRET}\n"));
    write(outside.join("evil/templates/s.erb"), format!("{SECRET}\n"));
    write(
        outside.join("data/common.yaml"),
        format!("secret: {SECRET}\nm::secret: {SECRET}\n"),
    );
    write(
        outside.join("data/common.json"),
        format!("{{\"secret\": \"{SECRET}\"}}"),
    );
    write(
        outside.join("hiera.yaml"),
        "version: 5\nhierarchy:\n  - name: g\n    path: common.yaml\n".into(),
    );
    write(env.join("modules/m/files/ok.txt"), "inside\n".into());
    Setup {
        _dir: dir,
        env,
        outside,
    }
}

impl Setup {
    fn write(&self, rel: &str, text: &str) {
        let p = self.env.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    fn out(&self, rel: &str) -> String {
        self.outside.join(rel).display().to_string()
    }

    fn compile_with(
        &self,
        manifest: &str,
        overrides: &Overrides,
        node: NodeInfo,
    ) -> Result<String, String> {
        std::fs::write(self.env.join("manifests/site.pp"), manifest).unwrap();
        let env = Environment::boot(&self.env, overrides)?;
        eval::compile(&env, node)
            .map(|c| c.catalog.to_string())
            .map_err(|e| e.for_node(NODE))
    }

    fn compile(&self, manifest: &str) -> Result<String, String> {
        self.compile_with(manifest, &no_base(), node())
    }

    /// Compiles `manifest` with the secret present, then without all of
    /// `outside/`: the secret never shows and both results are the same.
    /// Returns the result.
    #[track_caller]
    fn refused_like_missing(&self, manifest: &str) -> Result<String, String> {
        self.refused_like_missing_with(manifest, &no_base(), &node)
    }

    #[track_caller]
    fn refused_like_missing_with(
        &self,
        manifest: &str,
        overrides: &Overrides,
        node: &dyn Fn() -> NodeInfo,
    ) -> Result<String, String> {
        let present = self.compile_with(manifest, overrides, node());
        let text = match &present {
            Ok(c) | Err(c) => c.clone(),
        };
        assert!(
            !text.contains(SECRET),
            "{manifest}: the secret leaked: {text}"
        );
        let moved = self.outside.with_extension("moved");
        std::fs::rename(&self.outside, &moved).unwrap();
        let absent = self.compile_with(manifest, overrides, node());
        std::fs::rename(&moved, &self.outside).unwrap();
        assert_eq!(
            present, absent,
            "{manifest}: a refusal differs from a missing file"
        );
        present
    }
}

fn no_base() -> Overrides {
    Overrides {
        basemodulepath: Some(String::new()),
        ..Overrides::default()
    }
}

fn node() -> NodeInfo {
    NodeInfo {
        name: NODE.into(),
        ..NodeInfo::default()
    }
}

#[track_caller]
fn assert_err_contains(r: &Result<String, String>, text: &str) {
    match r {
        Ok(c) => panic!("compiled, expected an error with {text:?}: {c}"),
        Err(e) => assert!(e.contains(text), "expected {text:?} in: {e}"),
    }
}

// --- modules and the modulepath ---

#[test]
fn a_module_symlinked_out_of_the_repo_is_missing() {
    let s = setup();
    symlink(s.outside.join("evil"), s.env.join("modules/evil")).unwrap();
    let r = s.refused_like_missing("notify { 'x': message => file('evil/secret.txt') }\n");
    assert_err_contains(&r, "Could not find any files from evil/secret.txt");
}

#[test]
fn a_module_symlinked_to_the_root_opens_nothing() {
    // `ln -s / modules/evil` made `/` a root: `file('/etc/passwd')` read it.
    let s = setup();
    symlink("/", s.env.join("modules/evil")).unwrap();
    let passwd = s.compile("notify { 'x': message => file('/etc/passwd') }\n");
    assert_err_contains(&passwd, "Could not find any files from /etc/passwd");
    let none = s.compile("notify { 'x': message => file('/etc/pverify-no-such-file') }\n");
    assert_eq!(
        passwd.unwrap_err().replace("/etc/passwd", "F"),
        none.unwrap_err().replace("/etc/pverify-no-such-file", "F")
    );
    let r = s.refused_like_missing(&format!(
        "notify {{ 'x': message => file('{}') }}\n",
        s.out("secret.txt")
    ));
    assert_err_contains(&r, "Could not find any files from");
}

#[test]
fn a_module_manifest_symlinked_out_is_not_loaded() {
    let s = setup();
    std::fs::write(
        s.outside.join("init.pp"),
        "class m { notify { 'loaded': } }\n",
    )
    .unwrap();
    std::fs::create_dir_all(s.env.join("modules/m/manifests")).unwrap();
    symlink(
        s.outside.join("init.pp"),
        s.env.join("modules/m/manifests/init.pp"),
    )
    .unwrap();
    let r = s.refused_like_missing("include m\n");
    assert_err_contains(&r, "Could not find class");
}

#[test]
fn environment_conf_cannot_add_the_root_to_the_modulepath() {
    let s = setup();
    s.write("environment.conf", "modulepath = modules:/\n");
    let r = s.refused_like_missing("notify { 'x': message => file('/etc/passwd') }\n");
    assert_err_contains(&r, "environment.conf: modulepath entry '/' lies outside");
}

#[test]
fn environment_conf_cannot_name_directories_outside() {
    let s = setup();
    for (conf, entry) in [
        (
            format!("modulepath = modules:{}\n", s.out("")),
            "modulepath entry",
        ),
        ("modulepath = ../outside\n".to_string(), "modulepath entry"),
        (format!("manifest = {}\n", s.out("secret.txt")), "manifest"),
        ("manifest = ../outside/secret.txt\n".to_string(), "manifest"),
    ] {
        s.write("environment.conf", &conf);
        let r = s.refused_like_missing("notice(1)\n");
        assert_err_contains(&r, &format!("environment.conf: {entry} '"));
        assert_err_contains(&r, "lies outside the repository and the granted read roots");
    }
}

#[test]
fn a_repo_basemodulepath_outside_is_refused() {
    // pverify.yaml's `basemodulepath:` reaches the loader as this override.
    let s = setup();
    let overrides = Overrides {
        basemodulepath: Some(format!("{}:/", s.out(""))),
        ..Overrides::default()
    };
    let r = s.refused_like_missing_with("notice(1)\n", &overrides, &node);
    assert_err_contains(&r, "basemodulepath entry '");
}

#[test]
fn granted_directories_are_read_with_their_module_symlinks() {
    // As Debian's /usr/share/puppet/modules/NAME -> modules.available/...:
    // a granted directory's entries count where they point.
    let s = setup();
    let sys = s.outside.join("sys");
    std::fs::create_dir_all(&sys).unwrap();
    symlink(s.outside.join("evil"), sys.join("evil")).unwrap();
    let overrides = Overrides {
        basemodulepath: Some(sys.display().to_string()),
        grants: vec![sys.clone()],
        ..Overrides::default()
    };
    // The repo's own symlink to where a granted entry points reads there
    // too (not named through the entry, so the whole list of entries
    // settles it), and so does its symlink to a granted module.
    symlink(s.outside.join("evil"), s.env.join("modules/linked")).unwrap();
    let module = Overrides {
        grants: vec![s.outside.join("evil")],
        ..no_base()
    };
    for (reference, overrides) in [
        ("evil/secret.txt", &overrides),
        ("linked/secret.txt", &overrides),
        ("linked/secret.txt", &module),
    ] {
        let c = s
            .compile_with(
                &format!("notify {{ 'x': message => file('{reference}') }}\n"),
                overrides,
                node(),
            )
            .unwrap();
        assert!(c.contains(SECRET), "{reference}: {c}");
    }
}

// --- functions that read files ---

#[test]
fn file_refuses_absolute_dotdot_and_symlinked_paths() {
    let s = setup();
    symlink(
        s.outside.join("secret.txt"),
        s.env.join("modules/m/files/link"),
    )
    .unwrap();
    for reference in [
        s.out("secret.txt"),
        "m/../../../../outside/secret.txt".to_string(),
        "m/link".to_string(),
    ] {
        let r = s.refused_like_missing(&format!(
            "notify {{ 'x': message => file('{reference}') }}\n"
        ));
        assert_err_contains(&r, &format!("Could not find any files from {reference}"));
    }
    // Inside is fine.
    assert!(s
        .compile("notify { 'x': message => file('m/ok.txt') }\n")
        .unwrap()
        .contains("inside"));
}

#[test]
fn find_file_answers_undef_outside() {
    let s = setup();
    symlink(
        s.outside.join("secret.txt"),
        s.env.join("modules/m/files/link"),
    )
    .unwrap();
    for reference in [
        s.out("secret.txt"),
        "m/../../../../outside/secret.txt".into(),
        "m/link".into(),
    ] {
        let c = s
            .refused_like_missing(&format!(
                "notify {{ 'x': message => String(find_file('{reference}')) }}\n"
            ))
            .unwrap();
        assert!(c.contains("\"message\":\"\""), "{reference}: {c}");
    }
}

#[test]
fn binary_file_refuses_outside() {
    let s = setup();
    let r = s.refused_like_missing(&format!(
        "notify {{ 'x': message => String(binary_file('{}')) }}\n",
        s.out("secret.txt")
    ));
    assert_err_contains(&r, "does not exist");
}

#[test]
fn templates_refuse_absolute_dotdot_and_symlinked_paths() {
    let s = setup();
    symlink(
        s.outside.join("secret.erb"),
        s.env.join("modules/m/templates/link.erb"),
    )
    .unwrap();
    symlink(
        s.outside.join("secret.epp"),
        s.env.join("modules/m/templates/link.epp"),
    )
    .unwrap();
    symlink(s.outside.join("evil"), s.env.join("modules/evil")).unwrap();
    for call in [
        format!("template('{}')", s.out("secret.erb")),
        format!("epp('{}')", s.out("secret.epp")),
        "template('m/../../../../outside/secret.erb')".into(),
        "epp('m/../../../../outside/secret.epp')".into(),
        "template('m/link.erb')".into(),
        "epp('m/link.epp')".into(),
        "template('evil/s.erb')".into(),
        format!("inline_epp(\"<%= file('{}') %>\")", s.out("secret.txt")),
    ] {
        let r = s.refused_like_missing(&format!("notify {{ 'x': message => {call} }}\n"));
        assert!(r.is_err(), "{call}: {r:?}");
    }
}

#[test]
fn erb_ruby_reads_and_probes_nothing_outside() {
    let s = setup();
    let secret = s.out("secret.txt");
    let r = s.refused_like_missing(&format!(
        "notify {{ 'x': message => inline_template(\"<%= File.read('{secret}') %>\") }}\n"
    ));
    assert_err_contains(&r, "No such file or directory");
    let c = s
        .refused_like_missing(&format!(
            "notify {{ 'x': message => inline_template(\"<%= File.exist?('{secret}') %>\") }}\n"
        ))
        .unwrap();
    assert!(c.contains("\"message\":\"false\""), "{c}");
    let c = s
        .compile(
            "notify { 'x': message => inline_template(\"<%= File.exist?('/etc/passwd') %>\") }\n",
        )
        .unwrap();
    assert!(c.contains("\"message\":\"false\""), "{c}");
}

// --- Hiera ---

const LOOKUP: &str = "notify { 'x': message => lookup('secret', undef, undef, 'default') }\n";

/// The environment's hiera.yaml with one level of `body` (indented keys).
fn env_hiera(s: &Setup, body: &str) {
    s.write(
        "hiera.yaml",
        &format!("version: 5\nhierarchy:\n  - name: l\n{body}"),
    );
}

#[track_caller]
fn lookup_refused(s: &Setup, manifest: &str) {
    let c = s.refused_like_missing(manifest).unwrap();
    assert!(c.contains("\"message\":\"default\""), "{c}");
}

#[test]
fn hiera_datadir_absolute_or_dotdot_reads_nothing() {
    let s = setup();
    for datadir in [
        s.out("data"),
        "../outside/data".into(),
        "data/../../outside/data".into(),
    ] {
        env_hiera(
            &s,
            &format!("    datadir: {datadir}\n    path: common.yaml\n"),
        );
        lookup_refused(&s, LOOKUP);
    }
}

#[test]
fn hiera_paths_absolute_or_dotdot_read_nothing() {
    let s = setup();
    let abs = s.out("data/common.yaml");
    for level in [
        format!("    path: {abs}\n"),
        "    path: ../../outside/data/common.yaml\n".into(),
        format!("    paths: [nothing.yaml, {abs}]\n"),
        "    paths: [../../outside/data/common.yaml]\n".into(),
        "    glob: ../../outside/data/*.yaml\n".into(),
        format!("    glob: {}\n", s.out("data/*.yaml")),
        "    globs: [../../outside/*/*.yaml]\n".into(),
        "    mapped_paths: [names, n, '../../outside/data/%{n}.yaml']\n".into(),
    ] {
        env_hiera(&s, &level);
        lookup_refused(&s, &format!("$names = ['common']\n{LOOKUP}"));
    }
}

#[test]
fn hiera_symlinked_data_file_and_json_read_nothing() {
    let s = setup();
    symlink(
        s.outside.join("data/common.yaml"),
        s.env.join("data/common.yaml"),
    )
    .unwrap();
    env_hiera(&s, "    path: common.yaml\n");
    lookup_refused(&s, LOOKUP);
    symlink(
        s.outside.join("data/common.json"),
        s.env.join("data/common.json"),
    )
    .unwrap();
    env_hiera(&s, "    data_hash: json_data\n    path: common.json\n");
    lookup_refused(&s, LOOKUP);
    env_hiera(
        &s,
        &format!(
            "    data_hash: json_data\n    path: {}\n",
            s.out("data/common.json")
        ),
    );
    lookup_refused(&s, LOOKUP);
    // A data directory that is a symlink out.
    std::fs::remove_file(s.env.join("data/common.yaml")).unwrap();
    std::fs::remove_file(s.env.join("data/common.json")).unwrap();
    std::fs::remove_dir(s.env.join("data")).unwrap();
    symlink(s.outside.join("data"), s.env.join("data")).unwrap();
    env_hiera(&s, "    path: common.yaml\n");
    lookup_refused(&s, LOOKUP);
}

#[test]
fn hiera_yaml_symlinked_out_is_missing() {
    let s = setup();
    symlink(s.outside.join("hiera.yaml"), s.env.join("hiera.yaml")).unwrap();
    std::fs::create_dir_all(s.env.join("data")).unwrap();
    lookup_refused(&s, LOOKUP);
}

#[test]
fn module_data_reads_nothing_outside() {
    let s = setup();
    let manifest = "notify { 'x': message => lookup('m::secret', undef, undef, 'default') }\n";
    for level in [
        format!("    datadir: {}\n    path: common.yaml\n", s.out("data")),
        "    path: ../../../outside/data/common.yaml\n".into(),
        "    glob: ../../../outside/data/*.yaml\n".into(),
    ] {
        s.write(
            "modules/m/hiera.yaml",
            &format!("version: 5\nhierarchy:\n  - name: l\n{level}"),
        );
        lookup_refused(&s, manifest);
    }
    // The module's hiera.yaml itself a symlink out.
    std::fs::remove_file(s.env.join("modules/m/hiera.yaml")).unwrap();
    std::fs::write(
        s.outside.join("mod-hiera.yaml"),
        format!(
            "version: 5\nhierarchy:\n  - name: l\n    datadir: {}\n    path: common.yaml\n",
            s.out("data")
        ),
    )
    .unwrap();
    symlink(
        s.outside.join("mod-hiera.yaml"),
        s.env.join("modules/m/hiera.yaml"),
    )
    .unwrap();
    lookup_refused(&s, manifest);
}

#[test]
fn a_repo_hiera_config_outside_reads_nothing() {
    // `hiera_config` from the repo (pverify.yaml's settings) names a file
    // outside: it is missing, so the global layer is Hiera's default.
    let s = setup();
    let path = s.out("hiera.yaml");
    let with_config = || {
        let mut n = node();
        n.settings
            .set_assignment(&format!("hiera_config={path}"))
            .unwrap();
        n
    };
    let c = s
        .refused_like_missing_with(LOOKUP, &no_base(), &with_config)
        .unwrap();
    assert!(c.contains("\"message\":\"default\""), "{c}");
}

#[test]
fn a_granted_hiera_config_is_read() {
    let s = setup();
    let mut n = node();
    n.settings
        .set_assignment(&format!("hiera_config={}", s.out("hiera.yaml")))
        .unwrap();
    let overrides = Overrides {
        grants: vec![s.outside.clone()],
        ..no_base()
    };
    let c = s.compile_with(LOOKUP, &overrides, n).unwrap();
    assert!(c.contains(SECRET), "{c}");
}

// --- the command line ---

fn pverify(args: &[&str]) -> (i32, String, String) {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_pverify"))
        .args(args)
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn grant_opens_a_directory_to_compile() {
    let s = setup();
    std::fs::write(
        s.env.join("manifests/site.pp"),
        format!(
            "notify {{ 'x': message => file('{}') }}\n",
            s.out("secret.txt")
        ),
    )
    .unwrap();
    let facts = s.env.join("node.json");
    std::fs::write(
        &facts,
        format!("{{\"name\": \"{NODE}\", \"values\": {{}}}}"),
    )
    .unwrap();
    let env = s.env.display().to_string();
    let facts = facts.display().to_string();
    let (code, _, err) = pverify(&["compile", &env, "--facts", &facts]);
    assert_ne!(code, 0);
    assert!(err.contains("Could not find any files from"), "{err}");
    let outside = s.outside.display().to_string();
    let (code, out, err) = pverify(&["compile", &env, "--facts", &facts, "--grant", &outside]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(SECRET), "{out}");
}

#[test]
fn a_control_repo_cannot_widen_its_roots() {
    let s = setup();
    std::fs::write(
        s.env.join("pverify.yaml"),
        format!(
            "environment: .\nbasemodulepath: [{}]\nnodes:\n  files: [node.json]\n",
            s.out("")
        ),
    )
    .unwrap();
    std::fs::write(
        s.env.join("node.json"),
        format!("{{\"name\": \"{NODE}\", \"values\": {{}}}}"),
    )
    .unwrap();
    s.write("manifests/site.pp", "notice(1)\n");
    let env = s.env.display().to_string();
    let (code, out, err) = pverify(&["check", &env]);
    assert_ne!(code, 0);
    assert!(
        format!("{out}{err}").contains("basemodulepath entry"),
        "{out}{err}"
    );
    std::fs::write(
        s.env.join("pverify.yaml"),
        "environment: ..\nnodes:\n  files: [node.json]\n",
    )
    .unwrap();
    let (code, out, err) = pverify(&["check", &env]);
    assert_ne!(code, 0);
    assert!(
        format!("{out}{err}").contains("environment '..' lies outside the control repo"),
        "{out}{err}"
    );
}

#[test]
fn diff_reads_no_source_outside() {
    let s = setup();
    std::fs::create_dir_all(s.env.join("modules/m/files")).unwrap();
    symlink(&s.outside, s.env.join("modules/m/files/out")).unwrap();
    let files = puppet_compiler::loader::Environment::boot(&s.env, &no_base())
        .unwrap()
        .shared_files();
    let modulepath = vec![s.env.join("modules")];
    let read = |url: &str| {
        pverify_harness::diff::content::resolve_source(
            &serde_json::json!(url),
            &modulepath,
            &*files,
        )
    };
    assert!(read("puppet:///modules/m/ok.txt").is_some());
    assert!(read("puppet:///modules/m/out/secret.txt").is_none());
    symlink(s.outside.join("evil"), s.env.join("modules/evil")).unwrap();
    assert!(read("puppet:///modules/evil/secret.txt").is_none());
}
