//! Syntax diagnostics checked against Puppet 7.23 and Puppet 8.10 themselves.
//!
//! `tests/fixtures/syntax-errors/*.pp` are invalid manifests; for each one the
//! expectation files record the first error that `puppet parser validate`
//! reports (`NAME.pp<TAB>LINE<TAB>COLUMN<TAB>MESSAGE`, `-` for an absent
//! line/column, MESSAGE with `\\`, `\n`, `\r`, `\t` escaped): `expected.tsv`
//! where both Puppets agree, `expected@7.tsv` and `expected@8.tsv` for the
//! fixtures where they differ. The files are generated, never edited:
//! `cargo xtask oracle-syntax --write` regenerates them and
//! `cargo xtask oracle-syntax` re-checks them against both Puppets.
//!
//! `tests/fixtures/syntax-valid/*.pp` are manifests both Puppets accept.
//!
//! Line, column and message must all match exactly. The one allowed message
//! difference is text that Puppet takes from Ruby's own JSON parser (the detail
//! of an invalid `@(END:json)` heredoc), which no reimplementation can repeat:
//! there the message must match up to that detail.

use std::fs;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

fn fixtures_dir(sub: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(sub)
}

struct Case {
    file: String,
    line: Option<u32>,
    column: Option<u32>,
    message: String,
}

fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('\\') => out.push('\\'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('t') => out.push('\t'),
            Some(other) => panic!("expected.tsv: unknown escape \\{other} in {s:?}"),
            None => panic!("expected.tsv: dangling backslash in {s:?}"),
        }
    }
    out
}

/// The reference versions, each with its own expectation file besides the
/// shared `expected.tsv`.
const VERSIONS: [u8; 2] = [7, 8];

fn read_rows(file: &str) -> Vec<Case> {
    let path = fixtures_dir("syntax-errors").join(file);
    let text = match fs::read_to_string(&path) {
        Ok(t) => t,
        // A version file exists only when the versions differ somewhere.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && file != "expected.tsv" => {
            String::new()
        }
        Err(e) => panic!("reading {}: {e}", path.display()),
    };
    let num = |field: &str, lineno: usize| -> Option<u32> {
        if field == "-" {
            None
        } else {
            Some(
                field
                    .parse()
                    .unwrap_or_else(|_| panic!("{file} line {lineno}: bad number {field:?}")),
            )
        }
    };
    text.lines()
        .enumerate()
        .map(|(i, line)| {
            let fields: Vec<&str> = line.split('\t').collect();
            assert_eq!(
                fields.len(),
                4,
                "{file} line {}: want 4 tab-separated fields: {line:?}",
                i + 1
            );
            Case {
                file: fields[0].to_string(),
                line: num(fields[1], i + 1),
                column: num(fields[2], i + 1),
                message: unescape(fields[3]),
            }
        })
        .collect()
}

/// Puppet `version`'s expectations: the shared rows and its own, by name.
fn load_cases(version: u8) -> Vec<Case> {
    let mut cases = read_rows("expected.tsv");
    let own = read_rows(&format!("expected@{version}.tsv"));
    for case in &own {
        assert!(
            !cases.iter().any(|c| c.file == case.file),
            "{} is in both expected.tsv and expected@{version}.tsv",
            case.file
        );
    }
    cases.extend(own);
    cases.sort_by(|a, b| a.file.cmp(&b.file));
    cases
}

fn manifests(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "pp"))
        .collect();
    files.sort();
    files
}

fn pos(line: Option<u32>, column: Option<u32>) -> String {
    let f = |n: Option<u32>| n.map_or_else(|| "-".to_string(), |n| n.to_string());
    format!("{}:{}", f(line), f(column))
}

/// Runs the parser, turning a panic into an `Err` description.
fn parse_caught(
    path: &str,
    bytes: &[u8],
) -> Result<Result<puppet_syntax::ast::Program, puppet_syntax::SyntaxError>, String> {
    catch_unwind(AssertUnwindSafe(|| puppet_syntax::parse(path, bytes))).map_err(|payload| {
        payload
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "non-string panic payload".to_string())
    })
}

/// Equal, or equal up to the quoted detail of Ruby's JSON parser.
fn same_message(ours: &str, puppets: &str) -> bool {
    const JSON: &str = "JSON syntax checker: Cannot parse invalid JSON string. \"";
    match (ours.split_once(JSON), puppets.split_once(JSON)) {
        (Some((a, _)), Some((b, _))) => a == b,
        _ => ours == puppets,
    }
}

#[test]
fn syntax_errors_match_puppet_7() {
    syntax_errors_match_puppet(7);
}

#[test]
fn syntax_errors_match_puppet_8() {
    syntax_errors_match_puppet(8);
}

/// pverify's parser has no version of its own: where 7.23 and 8.10 differ
/// on a fixture, the difference is text of Ruby's JSON parser, which
/// `same_message` leaves out.
fn syntax_errors_match_puppet(version: u8) {
    let dir = fixtures_dir("syntax-errors");
    let cases = load_cases(version);
    assert!(!cases.is_empty(), "no cases for Puppet {version}");

    let mut failures = Vec::new();
    let mut message_diffs = Vec::new();
    for case in &cases {
        let path = dir.join(&case.file);
        let bytes = match fs::read(&path) {
            Ok(b) => b,
            Err(e) => {
                failures.push(format!("{}: cannot read fixture: {e}", case.file));
                continue;
            }
        };
        let path_str = path.to_string_lossy().into_owned();
        let want = pos(case.line, case.column);
        match parse_caught(&path_str, &bytes) {
            Err(panic) => failures.push(format!(
                "{}: parser panicked: {panic} (puppet: {want} {})",
                case.file, case.message
            )),
            Ok(Ok(_)) => failures.push(format!(
                "{}: parsed OK, puppet rejects it at {want}: {}",
                case.file, case.message
            )),
            Ok(Err(err)) => {
                // The fixtures record Puppet's first error line: with several
                // validation errors, that is the first one logged.
                let err = err.logged.first().unwrap_or(&err);
                let got = pos(err.line, err.column);
                if (err.line, err.column) != (case.line, case.column) {
                    failures.push(format!(
                        "{}: position {got}, puppet {want}\n      ours:   {}\n      puppet: {}",
                        case.file, err.message, case.message
                    ));
                }
                // Messages are recorded with the fixture's path replaced by its name.
                let message = err.message.replace(&path_str, &case.file);
                if !same_message(&message, &case.message) {
                    message_diffs.push(format!(
                        "{}:\n      ours:   {message}\n      puppet: {}",
                        case.file, case.message
                    ));
                }
            }
        }
    }

    failures.extend(message_diffs);
    assert!(
        failures.is_empty(),
        "{} of {} syntax-error cases disagree with Puppet {version}:\n  {}",
        failures.len(),
        cases.len(),
        failures.join("\n  ")
    );
}

#[test]
fn syntax_valid_fixtures_parse() {
    let dir = fixtures_dir("syntax-valid");
    let files = manifests(&dir);
    assert!(!files.is_empty(), "no fixtures in {}", dir.display());

    let mut failures = Vec::new();
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = fs::read(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
        match parse_caught(&path.to_string_lossy(), &bytes) {
            Ok(Ok(_)) => {}
            Ok(Err(err)) => failures.push(format!(
                "{name}:{}: {}",
                pos(err.line, err.column),
                err.message
            )),
            Err(panic) => failures.push(format!("{name}: parser panicked: {panic}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} valid manifests were rejected:\n  {}",
        failures.len(),
        files.len(),
        failures.join("\n  ")
    );
}

/// Every error fixture has exactly one expectation for each version and vice
/// versa, in sorted order (the oracle writes them that way).
#[test]
fn expectations_list_every_error_fixture() {
    let dir = fixtures_dir("syntax-errors");
    let on_disk: Vec<String> = manifests(&dir)
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    for version in VERSIONS {
        let listed: Vec<String> = load_cases(version).into_iter().map(|c| c.file).collect();
        assert_eq!(
            listed, on_disk,
            "the expectations of Puppet {version} and tests/fixtures/syntax-errors/*.pp differ; run `cargo xtask oracle-syntax --write`"
        );
    }
}
