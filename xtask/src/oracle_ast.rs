//! `cargo xtask oracle-ast [PATH...]`: the parser proven against Puppet. Every
//! manifest is dumped by `puppet parser dump --format pn` and by pverify; the two
//! dumps must be equal, and both must accept or reject the same files. Every EPP
//! template (`*.epp`) likewise through `puppet epp dump --format pn`; a template
//! both reject must get the same error (message, line, column).

use std::path::{Path, PathBuf};
use std::process::Command;

const DEFAULT_DIR: &str = "/usr/share/puppet/modules";
/// Files per Puppet process: one warm Ruby process dumps many files.
const BATCH: usize = 250;

pub fn run(args: &[String]) -> Result<(), String> {
    let roots: Vec<PathBuf> = if args.is_empty() {
        vec![PathBuf::from(DEFAULT_DIR)]
    } else {
        args.iter()
            .map(|a| std::path::absolute(a).unwrap_or_else(|_| PathBuf::from(a)))
            .collect()
    };
    let mut files = Vec::new();
    let mut templates = Vec::new();
    for r in &roots {
        let found = puppet_compiler::files::find_manifests(&puppet_compiler::files::OsFiles, r)
            .map_err(|e| format!("{}: {e}", r.display()))?;
        files.extend(found.into_iter().filter(|f| !is_template(f)));
        let found = puppet_compiler::files::find_templates(&puppet_compiler::files::OsFiles, r)
            .map_err(|e| format!("{}: {e}", r.display()))?;
        templates.extend(found.into_iter().filter(|f| is_template(f)));
    }
    if files.is_empty() && templates.is_empty() {
        return Err("no *.pp or *.epp files found".into());
    }
    let epp_result = compare_templates(&templates);
    if files.is_empty() {
        return epp_result;
    }
    let mut agree = 0;
    let mut both_reject = 0;
    let mut undumpable = Vec::new();
    let mut mismatches: Vec<String> = Vec::new();
    for batch in files.chunks(BATCH) {
        let puppet = puppet_dumps(batch)?;
        for (file, theirs) in batch.iter().zip(puppet) {
            let bytes = std::fs::read(file).map_err(|e| format!("{}: {e}", file.display()))?;
            let name = file.display().to_string();
            let ours = puppet_syntax::parse(&name, &bytes)
                .map(|p| puppet_syntax::pn::program_to_pn(&p.body));
            let theirs = match theirs {
                Dump::Text(t) => Some(t),
                Dump::Rejected => None,
                Dump::DumperCrashed => {
                    undumpable.push(name);
                    continue;
                }
            };
            match (ours, theirs) {
                (Ok(a), Some(b)) if a == b => agree += 1,
                (Err(_), None) => both_reject += 1,
                (Ok(a), Some(b)) => mismatches.push(format!(
                    "{name}: dumps differ at byte {}\n  pverify: {}\n  puppet:  {}",
                    common_prefix(&a, &b),
                    excerpt(&a, common_prefix(&a, &b)),
                    excerpt(&b, common_prefix(&a, &b))
                )),
                (Ok(_), None) => {
                    mismatches.push(format!("{name}: Puppet rejects it, pverify accepts it"))
                }
                (Err(e), Some(_)) => {
                    mismatches.push(format!("{name}: Puppet accepts it, pverify says {e}"))
                }
            }
        }
    }
    for m in mismatches.iter().take(30) {
        println!("{m}");
    }
    for u in &undumpable {
        println!("{u}: Puppet's PN dumper fails on this file (a `*$rest` parameter); not compared");
    }
    println!(
        "oracle-ast: {} files, {agree} identical ASTs, {both_reject} rejected by both, {} not dumpable by Puppet, {} disagree",
        files.len(),
        undumpable.len(),
        mismatches.len()
    );
    if !mismatches.is_empty() {
        return Err(format!("{} files disagree with Puppet", mismatches.len()));
    }
    epp_result
}

fn is_template(f: &Path) -> bool {
    f.extension().is_some_and(|x| x == "epp")
}

/// The templates through `puppet epp dump` and `puppet_syntax::parse_epp`.
fn compare_templates(templates: &[PathBuf]) -> Result<(), String> {
    if templates.is_empty() {
        return Ok(());
    }
    let mut agree = 0;
    let mut both_reject = 0;
    let mut mismatches = Vec::new();
    for batch in templates.chunks(BATCH) {
        let theirs = puppet_epp_dumps(batch)?;
        for (file, theirs) in batch.iter().zip(theirs) {
            let name = file.display().to_string();
            let bytes = std::fs::read(file).map_err(|e| format!("{name}: {e}"))?;
            let ours = puppet_syntax::parse_epp(&name, &bytes)
                .map(|p| puppet_syntax::pn::program_to_pn(&p.body))
                .map_err(|e| e.puppet_style());
            match (ours, theirs) {
                (Ok(a), Ok(b)) if a == b => agree += 1,
                (Err(a), Err(b)) if a == b => both_reject += 1,
                (a, b) => mismatches.push(format!(
                    "{name}\n  pverify: {}\n  puppet:  {}",
                    a.unwrap_or_else(|e| format!("error: {e}")),
                    b.unwrap_or_else(|e| format!("error: {e}"))
                )),
            }
        }
    }
    for m in mismatches.iter().take(30) {
        println!("{m}");
    }
    println!(
        "oracle-ast: {} templates, {agree} identical ASTs, {both_reject} rejected by both with the same error, {} disagree",
        templates.len(),
        mismatches.len()
    );
    if mismatches.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} templates disagree with Puppet",
            mismatches.len()
        ))
    }
}

/// Puppet's PN dump of each template, or its error (`message (file: F, line:
/// L, column: C)`, from the `Error:` line that names the file).
fn puppet_epp_dumps(files: &[PathBuf]) -> Result<Vec<Result<String, String>>, String> {
    let out = Command::new("puppet")
        .args(["epp", "dump", "--format", "pn", "--color=false"])
        .args(files)
        .output()
        .map_err(|e| format!("cannot run puppet (apt-get install puppet): {e}"))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let error_of = |f: &Path| -> String {
        let tag = format!("(file: {}", f.display());
        stderr
            .lines()
            .find(|l| l.contains(&tag))
            .map(|l| l.trim_start_matches("Error: ").to_string())
            .unwrap_or_else(|| "(no error reported)".to_string())
    };
    if files.len() == 1 {
        // One template is dumped without a `--- PATH` header.
        return Ok(vec![if out.status.success() {
            Ok(stdout.trim_end_matches('\n').to_string())
        } else {
            Err(error_of(&files[0]))
        }]);
    }
    Ok(split_dumps(&stdout, files)
        .into_iter()
        .zip(files)
        .map(|(d, f)| d.ok_or_else(|| error_of(f)))
        .collect())
}

#[derive(Clone)]
enum Dump {
    Text(String),
    /// Puppet reports a syntax or validation error.
    Rejected,
    /// Puppet's own PN transformer raises on this file (its `PN::Literal(true)`
    /// typo for definitions with a captures-rest parameter).
    DumperCrashed,
}

/// Puppet's PN dump of each file.
fn puppet_dumps(files: &[PathBuf]) -> Result<Vec<Dump>, String> {
    let out = Command::new("puppet")
        .args(["parser", "dump", "--format", "pn", "--color=false"])
        .args(files)
        .output()
        .map_err(|e| format!("cannot run puppet (apt-get install puppet): {e}"))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    if stderr.contains("undefined method `Literal'") {
        // One file crashed the dumper and took the batch with it: one by one.
        if files.len() == 1 {
            return Ok(vec![Dump::DumperCrashed]);
        }
        let mut all = Vec::with_capacity(files.len());
        for f in files {
            all.extend(puppet_dumps(std::slice::from_ref(f))?);
        }
        return Ok(all);
    }
    Ok(split_dumps(&stdout, files)
        .into_iter()
        .map(|d| d.map_or(Dump::Rejected, Dump::Text))
        .collect())
}

/// The dumps are concatenated, each behind `--- PATH`; a rejected file's is
/// absent (or empty).
fn split_dumps(stdout: &str, files: &[PathBuf]) -> Vec<Option<String>> {
    let mut marks: Vec<(usize, usize)> = Vec::new(); // (file index, offset after marker)
    let mut from = 0;
    for (i, f) in files.iter().enumerate() {
        let marker = format!("--- {}", f.display());
        if let Some(pos) = find_marker(stdout, &marker, from) {
            marks.push((i, pos + marker.len()));
            from = pos + marker.len();
        }
    }
    let mut result = vec![None; files.len()];
    for (k, (i, start)) in marks.iter().enumerate() {
        let end = marks
            .get(k + 1)
            .map(|(j, s)| s - format!("--- {}", files[*j].display()).len())
            .unwrap_or(stdout.len());
        let dump = stdout[*start..end].trim_end_matches('\n');
        result[*i] = Some(dump.trim_start_matches('\n').to_string()).filter(|d| !d.is_empty());
    }
    result
}

/// The marker followed by the start of a dump (`(`, `"`, a digit, `nil`...).
fn find_marker(haystack: &str, marker: &str, from: usize) -> Option<usize> {
    let mut at = from;
    while let Some(p) = haystack[at..].find(marker) {
        let pos = at + p;
        let next = haystack[pos + marker.len()..].chars().next();
        if !matches!(next, Some('/') | Some('.') | Some('_') | Some('-'))
            && !next.is_some_and(|c| c.is_alphanumeric() && Path::new(marker).extension().is_none())
        {
            return Some(pos);
        }
        at = pos + marker.len();
    }
    None
}

fn common_prefix(a: &str, b: &str) -> usize {
    a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count()
}

fn excerpt(s: &str, at: usize) -> String {
    let start = s.floor_char_boundary(at.saturating_sub(60));
    let end = s.floor_char_boundary((at + 100).min(s.len()));
    s[start..end].to_string()
}

/// `cargo xtask oracle-validate [PATH...]`: every manifest through
/// `puppet parser validate` and through pverify, with Puppet's own modulepath
/// (so module files get the location checks): both must accept the same files
/// and report the same first error, message, line and column.
pub fn run_validate(args: &[String]) -> Result<(), String> {
    let files = manifests(args)?;
    let modulepath = puppet_modulepath()?;
    let mut agree_ok = 0;
    let mut agree_err = 0;
    let mut mismatches = Vec::new();
    for batch in files.chunks(BATCH) {
        let theirs = puppet_first_errors(batch)?;
        for file in batch {
            let name = file.display().to_string();
            let bytes = std::fs::read(file).map_err(|e| format!("{name}: {e}"))?;
            let ns = puppet_syntax::namespace_for_file(file, &modulepath);
            let ours = puppet_syntax::parse_in(&name, &bytes, &ns)
                .err()
                .map(|e| e.puppet_style());
            let theirs = theirs.get(&name).cloned();
            match (ours, theirs) {
                (None, None) => agree_ok += 1,
                (Some(a), Some(b)) if a == b => agree_err += 1,
                (a, b) => mismatches.push(format!(
                    "{name}\n  pverify: {}\n  puppet:  {}",
                    a.as_deref().unwrap_or("(accepted)"),
                    b.as_deref().unwrap_or("(accepted)")
                )),
            }
        }
    }
    for m in mismatches.iter().take(30) {
        println!("{m}");
    }
    println!(
        "oracle-validate: {} files, {agree_ok} accepted by both, {agree_err} rejected by both with the same first error, {} disagree",
        files.len(),
        mismatches.len()
    );
    if mismatches.is_empty() {
        Ok(())
    } else {
        Err(format!("{} files disagree with Puppet", mismatches.len()))
    }
}

fn manifests(args: &[String]) -> Result<Vec<PathBuf>, String> {
    let roots: Vec<PathBuf> = if args.is_empty() {
        vec![PathBuf::from(DEFAULT_DIR)]
    } else {
        args.iter()
            .map(|a| std::path::absolute(a).unwrap_or_else(|_| PathBuf::from(a)))
            .collect()
    };
    let mut files = Vec::new();
    for r in &roots {
        files.extend(
            puppet_compiler::files::find_manifests(&puppet_compiler::files::OsFiles, r)
                .map_err(|e| format!("{}: {e}", r.display()))?,
        );
    }
    if files.is_empty() {
        return Err("no *.pp files found".into());
    }
    Ok(files)
}

fn puppet_modulepath() -> Result<Vec<PathBuf>, String> {
    let out = Command::new("puppet")
        .args(["config", "print", "modulepath"])
        .output()
        .map_err(|e| format!("cannot run puppet (apt-get install puppet): {e}"))?;
    Ok(String::from_utf8_lossy(&out.stdout)
        .trim()
        .split(':')
        .filter(|s| !s.is_empty())
        .map(PathBuf::from)
        .collect())
}

/// The first error `puppet parser validate` reports for each file, rendered as
/// `message (file: F, line: L, column: C)`.
fn puppet_first_errors(
    files: &[PathBuf],
) -> Result<std::collections::HashMap<String, String>, String> {
    let out = Command::new("puppet")
        .args(["parser", "validate", "--color=false"])
        .args(files)
        .output()
        .map_err(|e| format!("cannot run puppet (apt-get install puppet): {e}"))?;
    let mut first = std::collections::HashMap::new();
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    // With several validation errors Puppet logs each, then fails with their
    // count on a line without a location: that is the file's error. With
    // several files those lines come last, in file order.
    let mut files_in_order: Vec<String> = Vec::new();
    let mut located: std::collections::HashMap<String, usize> = Default::default();
    let mut giving_up: Vec<String> = Vec::new();
    for line in text.lines() {
        let Some(rest) = line.strip_prefix("Error: ") else {
            continue;
        };
        let rest = rest
            .strip_prefix("Could not parse for environment production: ")
            .unwrap_or(rest);
        if rest.starts_with("Language validation logged ") {
            giving_up.push(rest.to_string());
            continue;
        }
        let Some(i) = rest.rfind(" (file: ") else {
            continue;
        };
        let location = &rest[i + 8..];
        let file = location
            .split_once(", line: ")
            .map(|(f, _)| f)
            .unwrap_or_else(|| location.trim_end_matches(')'));
        let seen = located.entry(file.to_string()).or_insert(0);
        if *seen == 0 {
            files_in_order.push(file.to_string());
        }
        *seen += 1;
        first
            .entry(file.to_string())
            .or_insert_with(|| rest.to_string());
    }
    let several = files_in_order.iter().filter(|f| located[*f] > 1);
    for (file, message) in several.zip(giving_up) {
        first.insert(file.clone(), format!("{message} (file: {file})"));
    }
    Ok(first)
}
