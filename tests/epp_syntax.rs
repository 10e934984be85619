//! EPP templates parsed as Puppet 7.23 and Puppet 8.10 parse them.
//!
//! `tests/fixtures/epp-syntax/*.epp` are small templates at the edges of the
//! EPP scanner (tag forms, trimming, comments, `<%%`, parameters, unbalanced
//! tags, definitions in templates...). `expected.json` holds, per file, what
//! `puppet epp dump --format pn` printed: the PN dump, or `error: ` and
//! Puppet's error (`message (file: NAME, line: L, column: C)`); both Puppets
//! print the same for every file, so one file serves both. `cargo xtask
//! oracle-ast tests/fixtures/epp-syntax` re-checks pverify against both
//! Puppets themselves on the same files.

mod common;

use std::path::Path;

#[test]
fn epp_fixtures_parse_as_puppet_parses_them() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/epp-syntax");
    let text = std::fs::read_to_string(dir.join("expected.json")).expect("expected.json");
    let expected: std::collections::BTreeMap<String, String> =
        serde_json::from_str(&text).expect("a JSON object of strings");
    let mut failures = Vec::new();
    let mut count = 0;
    for (name, want) in &expected {
        let want = want.clone();
        let bytes = std::fs::read(dir.join(name)).expect("fixture");
        let got = match puppet_syntax::parse_epp(name, &bytes) {
            Ok(p) => puppet_syntax::pn::program_to_pn(&p.body),
            Err(e) => format!("error: {}", e.puppet_style()),
        };
        if got != want {
            failures.push(format!("{name}\n  pverify: {got}\n  puppet:  {want}"));
        }
        count += 1;
    }
    let on_disk = std::fs::read_dir(&dir)
        .expect("fixture dir")
        .filter(|e| {
            e.as_ref()
                .is_ok_and(|e| e.path().extension().is_some_and(|x| x == "epp"))
        })
        .count();
    assert_eq!(
        count, on_disk,
        "every template has an entry in expected.json"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn corpus_templates_parse() {
    // Debian's module packages; CI installs them.
    let root = Path::new("/usr/share/puppet/modules");
    let templates = puppet_compiler::files::find_templates(&puppet_compiler::files::OsFiles, root)
        .expect("module packages installed");
    assert!(templates.len() >= 50, "found {} templates", templates.len());
    for t in &templates {
        let bytes = std::fs::read(t).expect("readable");
        if let Err(e) = puppet_syntax::parse_epp(&t.display().to_string(), &bytes) {
            panic!("{e}");
        }
    }
}

/// `None` when the template parses or fails cleanly (a message, and a
/// 1-based position unless Puppet gives none); otherwise what went wrong.
fn epp_problem(bytes: &[u8]) -> Option<String> {
    let parsed = std::panic::catch_unwind(|| puppet_syntax::parse_epp("t.epp", bytes));
    let shown = String::from_utf8_lossy(bytes);
    match parsed {
        Err(_) => Some(format!("panicked on {shown:?}")),
        Ok(Ok(_)) => None,
        Ok(Err(e)) if e.message.is_empty() => Some(format!("empty message on {shown:?}")),
        Ok(Err(e)) if e.line == Some(0) || e.column == Some(0) => {
            Some(format!("0-based position in {e} on {shown:?}"))
        }
        Ok(Err(e)) if e.line.is_none() && !common::unlocated_in_puppet(&e) => {
            Some(format!("no position for {e} on {shown:?}"))
        }
        Ok(Err(_)) => None,
    }
}

/// Random sequences of EPP tags and code never panic; every truncation of
/// the fixtures and of the corpus templates fails cleanly.
#[test]
fn epp_inputs_never_panic() {
    const PIECES: &[&str] = &[
        "<%",
        "<%=",
        "<%-",
        "<%#",
        "<%%",
        "%>",
        "-%>",
        "%%>",
        "%",
        "-",
        "=",
        "#",
        "|",
        "$x",
        " ",
        "\n",
        "\r\n",
        "\t",
        "text",
        "{",
        "}",
        "(",
        ")",
        "'s'",
        "\"a${x}\"",
        "if ",
        "é",
        "@(E)\nx\nE\n",
        "1",
        "[",
        "]",
        ",",
    ];
    let mut state: u64 = 0x05EE_DE99;
    let mut next = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let mut problems = Vec::new();
    for _ in 0..3000 {
        let mut s = String::new();
        for _ in 0..next(30) {
            s.push_str(PIECES[next(PIECES.len())]);
        }
        problems.extend(epp_problem(s.as_bytes()));
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/epp-syntax");
    let mut sources: Vec<Vec<u8>> =
        puppet_compiler::files::find_templates(&puppet_compiler::files::OsFiles, &dir)
            .expect("fixtures")
            .iter()
            .map(|p| std::fs::read(p).expect("fixture"))
            .collect();
    if let Ok(corpus) = puppet_compiler::files::find_templates(
        &puppet_compiler::files::OsFiles,
        Path::new("/usr/share/puppet/modules"),
    ) {
        sources.extend(
            corpus
                .iter()
                .take(10)
                .map(|p| std::fs::read(p).expect("readable")),
        );
    }
    for src in &sources {
        for cut in (0..src.len()).step_by(7) {
            problems.extend(epp_problem(&src[..cut]));
        }
    }
    assert!(
        problems.is_empty(),
        "{} problem(s):\n{}",
        problems.len(),
        problems[..problems.len().min(20)].join("\n")
    );
}

/// A template is parsed once per run: every `parse_epp` of the same file (by
/// any node) returns the same shared tree.
#[test]
fn templates_are_parsed_once_per_environment() {
    let root = std::env::temp_dir().join(format!("pverify-epp-cache-{}", std::process::id()));
    let env_dir = root.join("production");
    let templates = env_dir.join("modules/m/templates");
    std::fs::create_dir_all(&templates).expect("mkdir");
    std::fs::create_dir_all(env_dir.join("manifests")).expect("mkdir");
    std::fs::write(templates.join("t.epp"), "<%- |$x| -%><%= $x %>\n").expect("write");
    let env =
        puppet_compiler::loader::Environment::boot(&env_dir, &Default::default()).expect("boot");
    let path = env.find_template("m/t.epp").expect("found");
    let first = env.parse_epp(&path).expect("parses");
    let second = env.parse_epp(&path).expect("parses");
    assert!(std::sync::Arc::ptr_eq(&first, &second));
    assert!(env.find_template("m/missing.epp").is_none());
    assert!(env.find_template("nomodule").is_none());
    let _ = std::fs::remove_dir_all(&root);
}

/// A template that renders itself ends in an error, never a stack overflow
/// (Puppet's own Ruby stack gives out: "stack level too deep"). Run on a
/// stack as large as the CLI's compile threads have.
#[test]
fn self_rendering_template_fails_cleanly() {
    let root = std::env::temp_dir().join(format!("pverify-epp-loop-{}", std::process::id()));
    let env_dir = root.join("production");
    let templates = env_dir.join("modules/m/templates");
    std::fs::create_dir_all(&templates).expect("mkdir");
    std::fs::create_dir_all(env_dir.join("manifests")).expect("mkdir");
    std::fs::write(templates.join("t.epp"), "x<%= epp('m/t.epp') %>\n").expect("write");
    std::fs::write(
        env_dir.join("manifests/site.pp"),
        "notify { 'a': message => epp('m/t.epp') }\n",
    )
    .expect("write");
    let result = std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || {
            let env = puppet_compiler::loader::Environment::boot(&env_dir, &Default::default())
                .expect("boot");
            let node = puppet_compiler::eval::NodeInfo {
                name: "node1.example.com".into(),
                puppet: puppet_compiler::version::PuppetVersion::V7,
                ..Default::default()
            };
            puppet_compiler::eval::compile(&env, node)
                .map(|_| ())
                .map_err(|e| e.for_node("node1.example.com"))
        })
        .expect("thread")
        .join()
        .expect("no panic");
    let _ = std::fs::remove_dir_all(&root);
    let err = result.expect_err("an error");
    assert!(err.contains("Too deep nesting"), "{err}");
}
