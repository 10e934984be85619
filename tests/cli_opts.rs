//! The command line as a whole: every compiling command takes the one
//! `CompileOpts` set of flags with one meaning, and every command follows
//! the one exit-code scheme (README, "Exit codes").

mod common;

use common::{pverify, EXAMPLE};

/// The long flags a command's `--help` lists.
fn flags(command: &str) -> Vec<String> {
    let (code, out, err) = pverify(&[command, "--help"]);
    assert_eq!(code, 0, "{err}");
    let mut f: Vec<String> = out
        .lines()
        .filter_map(|l| {
            let l = l.trim_start();
            let l = l.strip_prefix("-h, ").unwrap_or(l);
            l.starts_with("--")
                .then(|| l.split([' ', '=', '<']).next().unwrap_or("").to_string())
        })
        .collect();
    f.sort();
    f
}

#[test]
fn every_compiling_command_takes_every_compile_flag() {
    let compile = flags("compile");
    // compile's own: where its nodes come from and where catalogs go.
    let compile_only = ["--facts", "--out-dir"];
    for command in ["check", "bless", "diff"] {
        let theirs = flags(command);
        let missing: Vec<&String> = compile
            .iter()
            .filter(|f| !compile_only.contains(&f.as_str()) && !theirs.contains(f))
            .collect();
        assert!(missing.is_empty(), "{command} lacks {missing:?}");
    }
    for f in [
        "--mock-functions",
        "--hiera-config",
        "--modulepath",
        "--manifest",
        "--enc",
        "--puppet",
        "--setting",
        "--grant",
        "--node-timeout",
    ] {
        assert!(compile.iter().any(|c| c == f), "compile lacks {f}");
    }
}

#[test]
fn help_documents_the_exit_codes() {
    for command in ["parse", "compile", "run", "check", "bless", "diff"] {
        let (_, out, _) = pverify(&[command, "--help"]);
        assert!(out.contains("Exit codes (every command):"), "{command}");
        assert!(out.contains("3  the command could not run"), "{command}");
    }
}

#[test]
fn bad_arguments_exit_3_on_every_command() {
    for args in [
        &["check", "--bogus"][..],
        &["diff", "--from", "x"][..],
        &["diff", "--bogus"][..],
        &["compile", "env"][..],
        &["run", "--puppet", "9"][..],
        &["parse"][..],
    ] {
        let (code, _, err) = pverify(args);
        assert_eq!(code, 3, "{args:?}: {err}");
    }
}

#[test]
fn a_filter_or_shard_selecting_nothing_is_an_error() {
    let (code, out, err) = pverify(&["check", EXAMPLE, "--filter", "nomatch"]);
    assert_eq!(code, 3, "{out}");
    assert_eq!(
        err,
        "pverify check: --filter 'nomatch' matches no node (of 6; a node is `<certname>` or `<certname>@<factset>`)\n"
    );
    assert!(!out.contains("0 passed"), "{out}");
    let (code, _, err) = pverify(&["bless", EXAMPLE, "--shard", "7/7"]);
    assert_eq!(code, 3);
    assert!(
        err.contains("--shard 7/7 selects no node (the matrix has 6)"),
        "{err}"
    );
    let (code, out, err) = pverify(&["run", "spec-suite", "nomatch"]);
    assert_eq!(code, 3, "{out}");
    assert!(
        err.starts_with("pverify run: the filter 'nomatch' matches no case (of "),
        "{err}"
    );
}

/// `diff` takes compile's `--mock-functions`, `--manifest` and
/// `--modulepath`: a function only a mock answers, a manifest and modules
/// outside the environments.
#[test]
fn diff_takes_compiles_flags() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    for side in ["a", "b"] {
        std::fs::create_dir_all(t.join(side).join("manifests")).unwrap();
        std::fs::write(t.join(side).join("manifests/site.pp"), "").unwrap();
    }
    std::fs::create_dir_all(t.join("mods/greet/manifests")).unwrap();
    std::fs::write(
        t.join("mods/greet/manifests/init.pp"),
        "class greet { notify { 'hi': message => secret_of('x') } }\n",
    )
    .unwrap();
    std::fs::write(t.join("main.pp"), "include greet\n").unwrap();
    std::fs::write(
        t.join("mocks.yaml"),
        "functions:\n  secret_of:\n    returns: not-a-secret\n",
    )
    .unwrap();
    std::fs::write(t.join("node.json"), r#"{"name": "n1", "values": {}}"#).unwrap();
    let path = |p: &str| t.join(p).to_string_lossy().into_owned();
    let args = [
        "diff",
        "--from",
        &path("a"),
        "--to",
        &path("b"),
        "--facts",
        &path("node.json"),
        "--manifest",
        &path("main.pp"),
        "--modulepath",
        &path("mods"),
    ];
    // Without the mock the function is unknown on both sides: a failure.
    let (code, out, _) = pverify(&args);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("Unknown function: 'secret_of'"), "{out}");
    let mocks = path("mocks.yaml");
    let with_mocks = [&args[..], &["--mock-functions", &mocks]].concat();
    let (code, out, err) = pverify(&with_mocks);
    assert_eq!(code, 0, "{out}{err}");
    // The same flags compile the node alone.
    let (code, out, err) = pverify(
        &[
            &["compile", &path("a"), "--facts", &path("node.json")][..],
            &with_mocks[7..],
        ]
        .concat(),
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"message\": \"not-a-secret\""), "{out}");
}
