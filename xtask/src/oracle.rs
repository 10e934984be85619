//! `cargo xtask oracle-syntax [--puppet 7|8]... [--write]`: checks the syntax
//! fixtures against the real Puppets (`puppet parser validate` of Puppet 7.23
//! and of Puppet 8.10, both by default), the oracles for every diagnostic
//! pverify's parser must reproduce.
//!
//! * `tests/fixtures/syntax-errors/*.pp` must each be rejected by Puppet, and
//!   the first error Puppet reports must equal the file's expectation for
//!   that version (below). With `--write` the expectations of the versions
//!   run are rewritten from Puppet's output instead of being checked.
//! * `tests/fixtures/syntax-valid/*.pp` must all be accepted by Puppet.
//!
//! The expectations, as the spec-suite holds them (`expect.*` when both
//! Puppets agree, else `expect@7.*` and `expect@8.*`):
//!
//! * `expected.tsv`: the first error of every fixture on which Puppet 7.23 and
//!   Puppet 8.10 agree;
//! * `expected@7.tsv`, `expected@8.tsv`: each version's first error for the
//!   fixtures on which they differ (absent when there are none).
//!
//! Every fixture is in `expected.tsv` or in both `expected@*.tsv`, never in
//! both kinds. Format: one line per case, sorted by file name, no header:
//!
//! ```text
//! NAME.pp<TAB>LINE<TAB>COLUMN<TAB>MESSAGE
//! ```
//!
//! LINE and COLUMN are Puppet's (1-based, columns counted in characters), or `-`
//! when Puppet reports none (e.g. "Syntax error at end of input"). MESSAGE is
//! Puppet's message without the `Error: ` / `Could not parse for environment
//! production: ` prefixes and without the trailing ` (file: ..., line: ...,
//! column: ...)` location. Inside MESSAGE a backslash is written `\\`, a newline
//! `\n`, a carriage return `\r` and a tab `\t` (Puppet quotes source text, which
//! can span lines, into some messages). Any occurrence of the fixture's absolute
//! path inside a message is replaced by `NAME.pp`.
//!
//! Each error fixture is validated by its own `puppet` process (Puppet logs some
//! errors without a file name, so output from several files could not be told
//! apart); the processes run in parallel. The valid fixtures are validated in
//! one process, and one by one only if that fails, to name the culprits.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use crate::puppets::{self, Oracle, PuppetVersion};

const PARSE_PREFIX: &str = "Could not parse for environment production: ";
/// Level prefixes of Puppet's console log lines; any other line continues the
/// previous message.
const LOG_LEVELS: &[&str] = &[
    "Debug: ",
    "Info: ",
    "Notice: ",
    "Warning: ",
    "Error: ",
    "Critical: ",
    "Alert: ",
    "Emergency: ",
];

const USAGE: &str = "usage: oracle-syntax [--puppet 7|8]... [--write]";

pub fn run(args: &[String]) -> Result<(), String> {
    let (versions, rest) = puppets::take_versions(args, USAGE)?;
    let mut write = false;
    for arg in &rest {
        match arg.as_str() {
            "--write" => write = true,
            other => return Err(format!("unknown argument '{other}' ({USAGE})")),
        }
    }

    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .ok_or("cannot locate the workspace root")?
        .to_path_buf();
    let errors_dir = root.join("tests/fixtures/syntax-errors");
    let valid_dir = root.join("tests/fixtures/syntax-valid");

    let error_files = list_manifests(&errors_dir)?;
    let valid_files = list_manifests(&valid_dir)?;
    if error_files.is_empty() {
        return Err(format!("no *.pp files in {}", errors_dir.display()));
    }
    let names: Vec<String> = error_files.iter().map(|p| file_name(p)).collect();

    // Read the expectations first so that a missing file fails fast.
    let mut expected = Expectations::load(&errors_dir)?;
    let mut problems = expected.problems.clone();

    let mut summary = Vec::new();
    for version in versions {
        let oracle = Oracle::locate(version)?;
        let who = oracle.describe();
        let errors_seen: [&Path; 1] = [&errors_dir];
        let observed = parallel_map(&error_files, |p| first_error(&oracle, &errors_seen, p));
        let mut rows = BTreeMap::new();
        for (name, result) in names.iter().zip(observed) {
            match result {
                Ok(obs) => {
                    rows.insert(name.clone(), obs.to_tsv_row(name));
                }
                Err(e) => problems.push(format!("{name} ({who}): {e}")),
            }
        }
        let error_count = rows.len();
        if write {
            expected.set(version, rows);
        } else {
            problems.extend(expected.compare(version, &rows, &names));
        }
        problems.extend(check_valid(&oracle, &valid_dir, &valid_files)?);
        summary.push(format!(
            "{who}: {error_count} error cases {}, {} valid cases accepted",
            if write { "recorded" } else { "agree" },
            valid_files.len()
        ));
    }

    if write && problems.is_empty() {
        expected.retain(&names);
        problems.extend(expected.write(&errors_dir, &names)?);
    } else if !write && problems.is_empty() && !expected.is_canonical(&names) {
        problems.push(
            "expected*.tsv are not sorted / split by agreement; run with --write".to_string(),
        );
    }

    if !problems.is_empty() {
        for p in &problems {
            eprintln!("{p}");
        }
        return Err(format!("{} problem(s) found", problems.len()));
    }
    for line in summary {
        println!("oracle-syntax: {line}");
    }
    Ok(())
}

/// `tests/fixtures/syntax-valid`: every file accepted by this Puppet.
fn check_valid(oracle: &Oracle, dir: &Path, files: &[PathBuf]) -> Result<Vec<String>, String> {
    let mut problems = Vec::new();
    if files.is_empty() {
        return Ok(problems);
    }
    let who = oracle.describe();
    let seen: [&Path; 1] = [dir];
    let all = validate(oracle, &seen, files)?;
    if all.success {
        return Ok(problems);
    }
    // Name each rejected file (and catch cross-file interference).
    let singles = parallel_map(files, |p| validate(oracle, &seen, std::slice::from_ref(p)));
    for (path, res) in files.iter().zip(singles) {
        match res {
            Ok(out) if out.success => {}
            Ok(out) => problems.push(format!(
                "syntax-valid/{}: rejected by {who}:\n    {}",
                file_name(path),
                out.stderr.trim_end().replace('\n', "\n    ")
            )),
            Err(e) => problems.push(format!("syntax-valid/{} ({who}): {e}", file_name(path))),
        }
    }
    if problems.is_empty() {
        problems.push(format!(
            "syntax-valid: every file passes {who} alone but validating them together fails:\n    {}",
            all.stderr.trim_end().replace('\n', "\n    ")
        ));
    }
    Ok(problems)
}

/// The expectation files of the error fixtures, as each version's view:
/// fixture name to its row.
struct Expectations {
    views: BTreeMap<PuppetVersion, BTreeMap<String, String>>,
    /// The files as read (`expected.tsv`, `expected@7.tsv`, `expected@8.tsv`).
    on_disk: [String; 3],
    /// Malformed or contradictory lines.
    problems: Vec<String>,
}

const SHARED_FILE: &str = "expected.tsv";

fn version_file(v: PuppetVersion) -> String {
    format!("expected@{}.tsv", v.major())
}

impl Expectations {
    fn load(dir: &Path) -> Result<Expectations, String> {
        let shared_path = dir.join(SHARED_FILE);
        let shared = fs::read_to_string(&shared_path).map_err(|e| {
            format!(
                "reading {}: {e} (run `cargo xtask oracle-syntax --write`)",
                shared_path.display()
            )
        })?;
        let mut problems = Vec::new();
        let shared_rows = parse_rows(SHARED_FILE, &shared, &mut problems);
        let mut views = BTreeMap::new();
        let mut texts = vec![shared];
        for v in PuppetVersion::ALL {
            let file = version_file(v);
            let text = fs::read_to_string(dir.join(&file)).unwrap_or_default();
            let own = parse_rows(&file, &text, &mut problems);
            let mut view = shared_rows.clone();
            for (name, row) in own {
                if view.insert(name.clone(), row).is_some() {
                    problems.push(format!("{name}: in both {SHARED_FILE} and {file}"));
                }
            }
            views.insert(v, view);
            texts.push(text);
        }
        let on_disk = [texts.remove(0), texts.remove(0), texts.remove(0)];
        Ok(Expectations {
            views,
            on_disk,
            problems,
        })
    }

    /// What disagrees between Puppet's rows for `version` and the expectations.
    fn compare(
        &self,
        version: PuppetVersion,
        rows: &BTreeMap<String, String>,
        names: &[String],
    ) -> Vec<String> {
        let view = &self.views[&version];
        let file = version_file(version);
        let mut problems = Vec::new();
        for (name, row) in rows {
            match view.get(name) {
                None => problems.push(format!(
                    "{name}: no expectation for Puppet {version}; puppet says: {row}",
                    version = version.major()
                )),
                Some(exp) if exp != row => problems.push(format!(
                    "{name}: mismatch with Puppet {}\n    {SHARED_FILE}/{file}: {exp}\n    puppet: {row}",
                    version.major()
                )),
                Some(_) => {}
            }
        }
        for name in view.keys() {
            if !names.contains(name) {
                problems.push(format!(
                    "{name}: has an expectation but there is no such fixture"
                ));
            }
        }
        problems
    }

    fn set(&mut self, version: PuppetVersion, rows: BTreeMap<String, String>) {
        self.views.insert(version, rows);
    }

    /// Drops the expectations of fixtures that are gone.
    fn retain(&mut self, names: &[String]) {
        for view in self.views.values_mut() {
            view.retain(|n, _| names.contains(n));
        }
    }

    /// The three files' texts: rows both versions agree on, then each
    /// version's rows where they differ. `Err`: fixtures one version has no
    /// expectation for.
    fn render(&self, names: &[String]) -> Result<[String; 3], Vec<String>> {
        let [v7, v8] = PuppetVersion::ALL.map(|v| &self.views[&v]);
        let mut texts: [String; 3] = Default::default();
        let mut missing = Vec::new();
        for name in names {
            match (v7.get(name), v8.get(name)) {
                (Some(a), Some(b)) if a == b => push_line(&mut texts[0], a),
                (Some(a), Some(b)) => {
                    push_line(&mut texts[1], a);
                    push_line(&mut texts[2], b);
                }
                (a, _) => missing.push(format!(
                    "{name}: no expectation for Puppet {}; run --write with that --puppet too",
                    if a.is_none() { 7 } else { 8 }
                )),
            }
        }
        if missing.is_empty() {
            Ok(texts)
        } else {
            Err(missing)
        }
    }

    fn is_canonical(&self, names: &[String]) -> bool {
        let mut sorted = names.to_vec();
        sorted.sort();
        self.render(&sorted).is_ok_and(|t| t == self.on_disk)
    }

    /// Writes the files (a version's file only when it has rows); returns
    /// the fixtures it cannot write for.
    fn write(&self, dir: &Path, names: &[String]) -> Result<Vec<String>, String> {
        let mut sorted = names.to_vec();
        sorted.sort();
        let texts = match self.render(&sorted) {
            Ok(t) => t,
            Err(missing) => return Ok(missing),
        };
        let files = [
            SHARED_FILE.to_string(),
            version_file(PuppetVersion::V7),
            version_file(PuppetVersion::V8),
        ];
        for (i, (file, text)) in files.iter().zip(&texts).enumerate() {
            let path = dir.join(file);
            if i > 0 && text.is_empty() {
                if path.exists() {
                    fs::remove_file(&path)
                        .map_err(|e| format!("removing {}: {e}", path.display()))?;
                }
                continue;
            }
            fs::write(&path, text).map_err(|e| format!("writing {}: {e}", path.display()))?;
            println!("oracle-syntax: wrote {}", path.display());
        }
        Ok(Vec::new())
    }
}

fn push_line(text: &mut String, row: &str) {
    text.push_str(row);
    text.push('\n');
}

/// `NAME<TAB>LINE<TAB>COLUMN<TAB>MESSAGE` rows by name.
fn parse_rows(file: &str, text: &str, problems: &mut Vec<String>) -> BTreeMap<String, String> {
    let mut rows = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        let name = line.split('\t').next().unwrap_or("").to_string();
        if name.is_empty() || line.split('\t').count() != 4 {
            problems.push(format!("{file} line {}: malformed: {line:?}", i + 1));
            continue;
        }
        if rows.insert(name.clone(), line.to_string()).is_some() {
            problems.push(format!("{file} line {}: duplicate entry for {name}", i + 1));
        }
    }
    rows
}

/// Puppet's first reported error for one manifest.
#[derive(Debug, PartialEq, Eq)]
struct Observed {
    line: Option<u32>,
    column: Option<u32>,
    message: String,
}

impl Observed {
    fn to_tsv_row(&self, name: &str) -> String {
        let num = |n: Option<u32>| n.map_or_else(|| "-".to_string(), |n| n.to_string());
        format!(
            "{name}\t{}\t{}\t{}",
            num(self.line),
            num(self.column),
            escape(&self.message)
        )
    }
}

struct Output {
    success: bool,
    stderr: String,
}

fn validate(oracle: &Oracle, visible: &[&Path], files: &[PathBuf]) -> Result<Output, String> {
    let out = oracle
        .puppet(visible)
        .args(["parser", "validate", "--color=false"])
        .args(files)
        .output()
        .map_err(|e| format!("running {}: {e}", oracle.describe()))?;
    // Puppet logs to stderr, but be robust to either stream.
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    Ok(Output {
        success: out.status.success(),
        stderr: strip_ansi(&text),
    })
}

fn first_error(oracle: &Oracle, visible: &[&Path], path: &PathBuf) -> Result<Observed, String> {
    let out = validate(oracle, visible, std::slice::from_ref(path))?;
    if out.success {
        return Err("puppet accepts this file (it must be rejected)".to_string());
    }
    let record = log_records(&out.stderr)
        .into_iter()
        .find_map(|r| r.strip_prefix("Error: ").map(str::to_string))
        .ok_or_else(|| format!("puppet failed without an `Error:` line:\n{}", out.stderr))?;
    let record = record.trim_end_matches(['\r', '\n']);
    let record = record.strip_prefix(PARSE_PREFIX).unwrap_or(record);
    let (message, line, column) = split_location(record);
    let abs = path.to_string_lossy();
    let message = message.replace(abs.as_ref(), &file_name(path));
    Ok(Observed {
        line,
        column,
        message,
    })
}

/// Splits Puppet's console output into log records: a record starts with a
/// level prefix and runs until the next one (messages may contain newlines).
fn log_records(text: &str) -> Vec<String> {
    let mut records: Vec<String> = Vec::new();
    // Split on '\n' only: a '\r' before it belongs to the message (Puppet
    // quotes CRLF source text verbatim).
    for line in text.strip_suffix('\n').unwrap_or(text).split('\n') {
        if LOG_LEVELS.iter().any(|p| line.starts_with(p)) || records.is_empty() {
            records.push(line.to_string());
        } else {
            let last = records.last_mut().expect("non-empty");
            last.push('\n');
            last.push_str(line);
        }
    }
    records
}

/// Removes Puppet's trailing location, as produced by
/// `Puppet::Util::Errors.error_location`: ` (file: F, line: L, column: C)`,
/// ` (file: F, line: L)`, ` (line: L, column: C)`, ` (line: L)`, ` (file: F)`.
fn split_location(msg: &str) -> (String, Option<u32>, Option<u32>) {
    let whole = (msg.to_string(), None, None);
    if !msg.ends_with(')') {
        return whole;
    }
    let start = match msg.rfind(" (file: ").or_else(|| msg.rfind(" (line: ")) {
        Some(i) => i,
        None => return whole,
    };
    let mut inner = &msg[start + 2..msg.len() - 1];
    let mut column = None;
    if let Some(i) = inner.rfind(", column: ") {
        match inner[i + ", column: ".len()..].parse::<u32>() {
            Ok(c) => column = Some(c),
            Err(_) => return whole,
        }
        inner = &inner[..i];
    }
    let mut line = None;
    let line_text = if let Some(i) = inner.rfind(", line: ") {
        let t = &inner[i + ", line: ".len()..];
        inner = &inner[..i];
        Some(t)
    } else if let Some(t) = inner.strip_prefix("line: ") {
        inner = "";
        Some(t)
    } else {
        None
    };
    if let Some(t) = line_text {
        match t.parse::<u32>() {
            Ok(l) => line = Some(l),
            Err(_) => return whole,
        }
    }
    if !(inner.is_empty() || inner.starts_with("file: ")) || (column.is_some() && line.is_none()) {
        return whole;
    }
    (msg[..start].to_string(), line, column)
}

fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out
}

/// Drops ANSI escape sequences (`ESC [ ... letter`), in case colour leaks
/// through despite `--color=false`.
fn strip_ansi(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' && chars.peek() == Some(&'[') {
            chars.next();
            for d in chars.by_ref() {
                if d.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn list_manifests(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let entries = fs::read_dir(dir).map_err(|e| format!("reading {}: {e}", dir.display()))?;
    let mut files = Vec::new();
    for entry in entries {
        let path = entry
            .map_err(|e| format!("reading {}: {e}", dir.display()))?
            .path();
        if path.extension().is_some_and(|e| e == "pp") && path.is_file() {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Applies `f` to every item on a few threads, keeping the input order.
fn parallel_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let workers = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .clamp(1, 8);
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<R>>> = Mutex::new((0..items.len()).map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..workers.min(items.len().max(1)) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= items.len() {
                    break;
                }
                let r = f(&items[i]);
                results.lock().expect("no panics while locked")[i] = Some(r);
            });
        }
    });
    results
        .into_inner()
        .expect("no panics while locked")
        .into_iter()
        .map(|r| r.expect("every item processed"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn location_forms() {
        assert_eq!(
            split_location("Syntax error at '}' (file: /a/b.pp, line: 3, column: 7)"),
            ("Syntax error at '}'".to_string(), Some(3), Some(7))
        );
        assert_eq!(
            split_location("Syntax error at end of input (file: /a/b.pp)"),
            ("Syntax error at end of input".to_string(), None, None)
        );
        assert_eq!(
            split_location("x (file: /a.pp, line: 10)"),
            ("x".to_string(), Some(10), None)
        );
        assert_eq!(
            split_location("x (line: 2, column: 1)"),
            ("x".to_string(), Some(2), Some(1))
        );
        assert_eq!(
            split_location("no location"),
            ("no location".to_string(), None, None)
        );
        assert_eq!(
            split_location("odd (thing)"),
            ("odd (thing)".to_string(), None, None)
        );
    }

    #[test]
    fn records_and_escapes() {
        let text = "Warning: w\nError: Syntax error at ' two\n' (file: /x.pp, line: 3, column: 18)\nError: b\n";
        let recs = log_records(text);
        assert_eq!(recs.len(), 3);
        assert_eq!(
            recs[1],
            "Error: Syntax error at ' two\n' (file: /x.pp, line: 3, column: 18)"
        );
        let crlf = log_records("Error: at ' b\r\n' (file: /x.pp, line: 2, column: 13)\r\n");
        assert_eq!(
            crlf,
            vec!["Error: at ' b\r\n' (file: /x.pp, line: 2, column: 13)\r".to_string()]
        );
        assert_eq!(escape("a\\b\nc\td\r"), "a\\\\b\\nc\\td\\r");
        assert_eq!(strip_ansi("\u{1b}[1;31mError: x\u{1b}[0m"), "Error: x");
    }
}
