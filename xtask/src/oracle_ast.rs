//! `cargo xtask oracle-ast [--puppet 7|8]... [PATH...]`: the parser proven
//! against Puppet. Every manifest is dumped by `puppet parser dump --format
//! pn` and by pverify; the two dumps must be equal, and both must accept or
//! reject the same files. Every EPP template (`*.epp`) likewise through
//! `puppet epp dump --format pn`; a template both reject must get the same
//! error (message, line, column).
//!
//! Each reference asked for (`--puppet`, both by default) checks the PATHs
//! given, or else its own Debian module corpus (`crate::puppets`): Puppet
//! 7.23 Debian 12's modules, Puppet 8.10 Debian 13's.

use std::path::{Path, PathBuf};

use crate::puppets::{self, Oracle};

/// Files per Puppet process: one warm Ruby process dumps many files.
const BATCH: usize = 250;

const USAGE: &str = "usage: oracle-ast [--puppet 7|8]... [PATH...]";
const USAGE_VALIDATE: &str = "usage: oracle-validate [--puppet 7|8]... [PATH...]";

pub fn run(args: &[String]) -> Result<(), String> {
    let (versions, paths) = puppets::take_versions(args, USAGE)?;
    reject_options(&paths, USAGE)?;
    puppets::check_each(&versions, |oracle| compare_asts(oracle, &paths))
}

/// Any `-x` left after `--puppet` is taken is a mistake, not a path.
fn reject_options(paths: &[String], usage: &str) -> Result<(), String> {
    match paths.iter().find(|p| p.starts_with('-')) {
        Some(p) => Err(format!("unknown option '{p}' ({usage})")),
        None => Ok(()),
    }
}

/// The directories one reference checks: the PATHs given, or its corpus.
fn roots_for(oracle: &Oracle, paths: &[String]) -> Vec<PathBuf> {
    if paths.is_empty() {
        vec![oracle.debian_modules()]
    } else {
        puppets::absolute_all(paths)
    }
}

fn compare_asts(oracle: &Oracle, paths: &[String]) -> Result<(), String> {
    let roots = roots_for(oracle, paths);
    let who = oracle.describe();
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
        return Err(format!("no *.pp or *.epp files under {}", join(&roots)));
    }
    let visible: Vec<&Path> = roots.iter().map(PathBuf::as_path).collect();
    let epp_result = compare_templates(oracle, &visible, &templates);
    if files.is_empty() {
        return epp_result;
    }
    let version = oracle.version();
    let mut agree = 0;
    let mut both_reject = 0;
    let mut undumpable = Vec::new();
    let mut mismatches: Vec<String> = Vec::new();
    for batch in files.chunks(BATCH) {
        let puppet = puppet_dumps(oracle, &visible, batch)?;
        for (file, theirs) in batch.iter().zip(puppet) {
            let bytes = std::fs::read(file).map_err(|e| format!("{}: {e}", file.display()))?;
            let name = file.display().to_string();
            let ours = puppets::parse(version, &name, &bytes)
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
        "oracle-ast ({who}, {}): {} files, {agree} identical ASTs, {both_reject} rejected by both, {} not dumpable by Puppet, {} disagree",
        join(&roots),
        files.len(),
        undumpable.len(),
        mismatches.len()
    );
    if !mismatches.is_empty() {
        return Err(format!("{} files disagree", mismatches.len()));
    }
    epp_result
}

fn join(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn is_template(f: &Path) -> bool {
    f.extension().is_some_and(|x| x == "epp")
}

/// The templates through `puppet epp dump` and `puppet_syntax::parse_epp`.
fn compare_templates(
    oracle: &Oracle,
    visible: &[&Path],
    templates: &[PathBuf],
) -> Result<(), String> {
    if templates.is_empty() {
        return Ok(());
    }
    let mut agree = 0;
    let mut both_reject = 0;
    let mut mismatches = Vec::new();
    for batch in templates.chunks(BATCH) {
        let theirs = puppet_epp_dumps(oracle, visible, batch)?;
        for (file, theirs) in batch.iter().zip(theirs) {
            let name = file.display().to_string();
            let bytes = std::fs::read(file).map_err(|e| format!("{name}: {e}"))?;
            let ours = puppets::parse_epp(oracle.version(), &name, &bytes)
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
        "oracle-ast ({}): {} templates, {agree} identical ASTs, {both_reject} rejected by both with the same error, {} disagree",
        oracle.describe(),
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
fn puppet_epp_dumps(
    oracle: &Oracle,
    visible: &[&Path],
    files: &[PathBuf],
) -> Result<Vec<Result<String, String>>, String> {
    let out = oracle
        .puppet(visible)
        .args(["epp", "dump", "--format", "pn", "--color=false"])
        .args(files)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", oracle.describe()))?;
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
fn puppet_dumps(
    oracle: &Oracle,
    visible: &[&Path],
    files: &[PathBuf],
) -> Result<Vec<Dump>, String> {
    let out = oracle
        .puppet(visible)
        .args(["parser", "dump", "--format", "pn", "--color=false"])
        .args(files)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", oracle.describe()))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    if stderr.contains("undefined method `Literal'") {
        // A file crashed the dumper and took the batch with it: halves, until
        // the culprits stand alone (a few files among thousands, so a few
        // dozen runs instead of one per file).
        if files.len() == 1 {
            return Ok(vec![Dump::DumperCrashed]);
        }
        let (a, b) = files.split_at(files.len() / 2);
        let mut all = puppet_dumps(oracle, visible, a)?;
        all.extend(puppet_dumps(oracle, visible, b)?);
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

/// `cargo xtask oracle-validate [--puppet 7|8]... [PATH...]`: every manifest
/// through `puppet parser validate` and through pverify, with Puppet's own
/// modulepath (so module files get the location checks; for Puppet 8.10 in
/// its root, with the resolved copy of its Debian modules added, given to
/// Puppet by `--modulepath`): both must accept the same files and report the
/// same first error, message, line and column. Each reference checks the
/// PATHs given, or else its own Debian module corpus.
pub fn run_validate(args: &[String]) -> Result<(), String> {
    let (versions, paths) = puppets::take_versions(args, USAGE_VALIDATE)?;
    reject_options(&paths, USAGE_VALIDATE)?;
    puppets::check_each(&versions, |oracle| compare_first_errors(oracle, &paths))
}

fn compare_first_errors(oracle: &Oracle, paths: &[String]) -> Result<(), String> {
    let roots = roots_for(oracle, paths);
    let files = manifests(&roots)?;
    let (modulepath, pass_modulepath) = oracle.modulepath()?;
    let visible: Vec<&Path> = roots.iter().map(PathBuf::as_path).collect();
    let given_path = pass_modulepath
        .then(|| std::env::join_paths(&modulepath))
        .transpose()
        .map_err(|e| format!("modulepath: {e}"))?;
    let version = oracle.version();
    let mut agree_ok = 0;
    let mut agree_err = 0;
    let mut mismatches = Vec::new();
    for batch in files.chunks(BATCH) {
        let theirs = puppet_first_errors(oracle, &visible, given_path.as_deref(), batch)?;
        for file in batch {
            let name = file.display().to_string();
            let bytes = std::fs::read(file).map_err(|e| format!("{name}: {e}"))?;
            let ns = puppet_syntax::namespace_for_file(file, &modulepath);
            let ours = puppets::parse_in(version, &name, &bytes, &ns)
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
        "oracle-validate ({}, {}): {} files, {agree_ok} accepted by both, {agree_err} rejected by both with the same first error, {} disagree",
        oracle.describe(),
        join(&roots),
        files.len(),
        mismatches.len()
    );
    if mismatches.is_empty() {
        Ok(())
    } else {
        Err(format!("{} files disagree", mismatches.len()))
    }
}

fn manifests(roots: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for r in roots {
        files.extend(
            puppet_compiler::files::find_manifests(&puppet_compiler::files::OsFiles, r)
                .map_err(|e| format!("{}: {e}", r.display()))?,
        );
    }
    if files.is_empty() {
        return Err(format!("no *.pp files under {}", join(roots)));
    }
    Ok(files)
}

/// The first error `puppet parser validate` reports for each file, rendered as
/// `message (file: F, line: L, column: C)`.
fn puppet_first_errors(
    oracle: &Oracle,
    visible: &[&Path],
    modulepath: Option<&std::ffi::OsStr>,
    files: &[PathBuf],
) -> Result<std::collections::HashMap<String, String>, String> {
    let mut cmd = oracle.puppet(visible);
    cmd.args(["parser", "validate", "--color=false"]);
    if let Some(path) = modulepath {
        cmd.arg("--modulepath").arg(path);
    }
    let out = cmd
        .args(files)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", oracle.describe()))?;
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
