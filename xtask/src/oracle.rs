//! `cargo xtask oracle-syntax [--write]`: checks the syntax fixtures against the
//! real Puppet (`puppet parser validate`), which is the oracle for every
//! diagnostic pverify's parser must reproduce.
//!
//! * `tests/fixtures/syntax-errors/*.pp` must each be rejected by Puppet, and
//!   the first error Puppet reports must equal the file's line in
//!   `tests/fixtures/syntax-errors/expected.tsv`. With `--write` that file is
//!   regenerated from Puppet's output instead of being checked.
//! * `tests/fixtures/syntax-valid/*.pp` must all be accepted by Puppet.
//!
//! `expected.tsv` format: one line per case, sorted by file name, no header:
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
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

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

pub fn run(args: &[String]) -> Result<(), String> {
    let mut write = false;
    for arg in args {
        match arg.as_str() {
            "--write" => write = true,
            other => {
                return Err(format!(
                    "unknown argument '{other}' (usage: oracle-syntax [--write])"
                ))
            }
        }
    }

    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .ok_or("cannot locate the workspace root")?
        .to_path_buf();
    let errors_dir = root.join("tests/fixtures/syntax-errors");
    let valid_dir = root.join("tests/fixtures/syntax-valid");
    let tsv_path = errors_dir.join("expected.tsv");

    check_puppet()?;

    let error_files = list_manifests(&errors_dir)?;
    let valid_files = list_manifests(&valid_dir)?;
    if error_files.is_empty() {
        return Err(format!("no *.pp files in {}", errors_dir.display()));
    }

    // Read expected.tsv first so that a missing file fails fast.
    let expected_text = if write {
        None
    } else {
        Some(fs::read_to_string(&tsv_path).map_err(|e| {
            format!(
                "reading {}: {e} (run `cargo xtask oracle-syntax --write`)",
                tsv_path.display()
            )
        })?)
    };

    // --- error cases -------------------------------------------------------
    let observed = parallel_map(&error_files, first_error);
    let mut problems = Vec::new();
    let mut rows = BTreeMap::new();
    for (path, result) in error_files.iter().zip(observed) {
        let name = file_name(path);
        match result {
            Ok(obs) => {
                rows.insert(name.clone(), obs.to_tsv_row(&name));
            }
            Err(e) => problems.push(format!("{name}: {e}")),
        }
    }

    let error_count = rows.len();
    if write {
        if !problems.is_empty() {
            return Err(format!(
                "not writing {}: {} fixture(s) unusable:\n  {}",
                tsv_path.display(),
                problems.len(),
                problems.join("\n  ")
            ));
        }
        let mut text = String::new();
        for row in rows.values() {
            text.push_str(row);
            text.push('\n');
        }
        fs::write(&tsv_path, text).map_err(|e| format!("writing {}: {e}", tsv_path.display()))?;
        println!("oracle-syntax: wrote {}", tsv_path.display());
    } else {
        let text = expected_text.as_deref().unwrap_or_default();
        let mut expected = BTreeMap::new();
        let mut canonical = String::new();
        for (i, line) in text.lines().enumerate() {
            let name = line.split('\t').next().unwrap_or("").to_string();
            if name.is_empty() || line.split('\t').count() != 4 {
                problems.push(format!("expected.tsv line {}: malformed: {line:?}", i + 1));
                continue;
            }
            if expected.insert(name.clone(), line.to_string()).is_some() {
                problems.push(format!(
                    "expected.tsv line {}: duplicate entry for {name}",
                    i + 1
                ));
            }
        }
        for (name, row) in &rows {
            match expected.get(name) {
                None => problems.push(format!(
                    "{name}: missing from expected.tsv; puppet says: {row}"
                )),
                Some(exp) if exp != row => problems.push(format!(
                    "{name}: mismatch\n    expected.tsv: {exp}\n    puppet:       {row}"
                )),
                Some(_) => {}
            }
        }
        for name in expected.keys() {
            if !error_files.iter().any(|p| &file_name(p) == name) {
                problems.push(format!(
                    "{name}: listed in expected.tsv but there is no such fixture"
                ));
            }
        }
        for row in expected.values() {
            canonical.push_str(row);
            canonical.push('\n');
        }
        if problems.is_empty() && canonical != text {
            problems.push("expected.tsv is not sorted / canonical; run with --write".to_string());
        }
    }

    // --- valid cases -------------------------------------------------------
    let valid_count = valid_files.len();
    if !valid_files.is_empty() {
        let all = validate(&valid_files)?;
        if !all.success {
            // Name each rejected file (and catch cross-file interference).
            let singles = parallel_map(&valid_files, |p| validate(std::slice::from_ref(p)));
            let mut any = false;
            for (path, res) in valid_files.iter().zip(singles) {
                match res {
                    Ok(out) if out.success => {}
                    Ok(out) => {
                        any = true;
                        problems.push(format!(
                            "syntax-valid/{}: rejected by puppet:\n    {}",
                            file_name(path),
                            out.stderr.trim_end().replace('\n', "\n    ")
                        ));
                    }
                    Err(e) => {
                        any = true;
                        problems.push(format!("syntax-valid/{}: {e}", file_name(path)));
                    }
                }
            }
            if !any {
                problems.push(format!(
                    "syntax-valid: every file passes alone but validating them together fails:\n    {}",
                    all.stderr.trim_end().replace('\n', "\n    ")
                ));
            }
        }
    }

    if !problems.is_empty() {
        for p in &problems {
            eprintln!("{p}");
        }
        return Err(format!("{} problem(s) found", problems.len()));
    }
    if write {
        println!(
            "oracle-syntax: {error_count} error cases written, {valid_count} valid cases accepted"
        );
    } else {
        println!(
            "oracle-syntax: {error_count} error cases agree, {valid_count} valid cases accepted"
        );
    }
    Ok(())
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

fn check_puppet() -> Result<(), String> {
    match Command::new("puppet").arg("--version").output() {
        Ok(out) if out.status.success() => Ok(()),
        Ok(out) => Err(format!(
            "`puppet --version` failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        )),
        Err(e) => Err(format!("puppet is not installed or not on PATH ({e})")),
    }
}

fn validate(files: &[PathBuf]) -> Result<Output, String> {
    let out = Command::new("puppet")
        .args(["parser", "validate", "--color=false"])
        .args(files)
        .output()
        .map_err(|e| format!("running puppet: {e}"))?;
    // Puppet logs to stderr, but be robust to either stream.
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    Ok(Output {
        success: out.status.success(),
        stderr: strip_ansi(&text),
    })
}

fn first_error(path: &PathBuf) -> Result<Observed, String> {
    let out = validate(std::slice::from_ref(path))?;
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
