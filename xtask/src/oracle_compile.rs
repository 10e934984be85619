//! `cargo xtask oracle-compile [--puppet 7|8]... [--write] [CASE_OR_DIR...]`:
//! compiles every spec-suite case with each reference (both by default:
//! Puppet 7.23 on the host, Puppet 8.10 per `pverify_harness::reference`)
//! through the driver (`crates/pverify-harness/puppet/compile.rb`) and checks
//! that its result is the case's expectation for that version: the catalog
//! in canonical form (`expect.json` / `expect@8.json`) or the error text
//! (`expect.error`), and the warnings (`expect.warnings`). With `--write`
//! that version's expectations are rewritten from Puppet's results instead
//! (one section for both versions when they agree; the rest of each case
//! file is kept as it is).
//!
//! Each case's environment is written to a fixed place,
//! `/tmp/pverify-oracle/<topic>/<name>/<environment>` (the environmentpath
//! is its parent), so that the paths Puppet reports are the same on every
//! run and every machine before they are made relative. The cases are
//! compiled in a few warm Ruby processes (one per core at most, each taking
//! a contiguous share of the cases); every case still gets a fresh Puppet
//! environment.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Instant;

use pverify_harness::harness::suite::compile_cases_with_puppet;
use pverify_harness::harness::{
    load_suite, replace_expectations, Case, Expect, PuppetVersion, FACTSETS_DIR,
};
use pverify_harness::reference::Reference;

/// Where cases are materialized for Puppet.
const ORACLE_ROOT: &str = "/tmp/pverify-oracle";

const USAGE: &str = "usage: oracle-compile [--puppet 7|8]... [--write] [CASE_OR_DIR...]";

pub fn run(args: &[String]) -> Result<(), String> {
    let mut write = false;
    let mut targets = Vec::new();
    let mut versions = Vec::new();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--write" => write = true,
            "--puppet" => {
                let v = it.next().ok_or(USAGE)?;
                versions.push(PuppetVersion::parse(v).ok_or(USAGE)?);
            }
            s if s.starts_with('-') => return Err(format!("unknown argument '{s}' ({USAGE})")),
            s => targets.push(PathBuf::from(s)),
        }
    }
    if versions.is_empty() {
        versions = PuppetVersion::ALL.to_vec();
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .ok_or("cannot locate the workspace root")?
        .to_path_buf();
    if targets.is_empty() {
        targets.push(root.join("spec-suite"));
    }
    let factsets = root.join(FACTSETS_DIR);

    let mut cases = Vec::new();
    for t in &targets {
        cases.extend(load_suite(t)?);
    }
    if cases.is_empty() {
        return Err(format!("no *.case files in {}", join_paths(&targets)));
    }
    let mut names = std::collections::HashSet::new();
    for c in &cases {
        if !names.insert(c.name()) {
            return Err(format!(
                "two cases are named {} (the oracle's directory is per <topic>/<name>)",
                c.name()
            ));
        }
    }
    let mut failed = Vec::new();
    for version in versions {
        let puppet = Reference::locate(version)?;
        if let Err(e) = check_version(&puppet, &mut cases, &factsets, write) {
            failed.push(e);
        }
    }
    if failed.is_empty() {
        Ok(())
    } else {
        Err(failed.join("; "))
    }
}

/// Compiles every case with one reference and compares its results with
/// that version's expectations (or, with `write`, records them).
fn check_version(
    puppet: &Reference,
    cases: &mut [Case],
    factsets: &Path,
    write: bool,
) -> Result<(), String> {
    let version = puppet.version;
    // A fresh place for every case's environment.
    for c in cases.iter() {
        let envpath = Path::new(ORACLE_ROOT).join(c.name());
        if envpath.exists() {
            fs::remove_dir_all(&envpath)
                .map_err(|e| format!("removing {}: {e}", envpath.display()))?;
        }
    }

    // Compile, in a few warm Ruby processes (the driver embedded in pverify).
    let started = Instant::now();
    let results = compile_cases_with_puppet(cases, Path::new(ORACLE_ROOT), factsets, puppet, 0)?;
    let wall = started.elapsed();

    // Compare (or write).
    let mut agree = 0;
    let mut disagree = Vec::new();
    let mut written = 0;
    let mut compile_millis = 0u64;
    for (c, got) in cases.iter_mut().zip(results) {
        compile_millis += got.millis;
        let same = got.agrees(c, version);
        let (expect, warnings) = (got.expect, got.warnings);
        if write {
            if !same {
                c.expect.set(version, expect.clone());
                c.expect_warnings.set(version, warnings.clone());
                let text = fs::read_to_string(&c.path)
                    .map_err(|e| format!("{}: {e}", c.path.display()))?;
                let new = replace_expectations(&text, &c.expect, &c.expect_warnings)
                    .map_err(|e| format!("{}: {e}", c.path.display()))?;
                fs::write(&c.path, new).map_err(|e| format!("{}: {e}", c.path.display()))?;
                println!(
                    "wrote {} ({}, Puppet {version})",
                    c.path.display(),
                    summary(&expect)
                );
                written += 1;
            }
            agree += 1;
        } else if same {
            agree += 1;
        } else {
            disagree.push(report(c, version, &expect, &warnings));
        }
    }

    for d in &disagree {
        println!("{d}");
    }
    let n = cases.len();
    let who = puppet.describe();
    eprintln!(
        "{who}: {n} cases in {:.2} s wall; compiling took {:.1} ms per case on average",
        wall.as_secs_f64(),
        compile_millis as f64 / n as f64
    );
    if write {
        println!("oracle-compile: wrote {written} case file(s) for {who}");
    }
    println!(
        "oracle-compile: {agree} cases agree with {who}, {} disagree",
        disagree.len()
    );
    if disagree.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} case(s) disagree with {who} (run `cargo xtask oracle-compile --puppet {version} --write` to take its results, after checking them)",
            disagree.len()
        ))
    }
}

fn summary(e: &Expect) -> &'static str {
    match e {
        Expect::Catalog(_) => "catalog",
        Expect::Error(_) => "error",
        Expect::None => "nothing",
    }
}

fn expect_text(e: &Expect) -> String {
    match e {
        Expect::Catalog(t) => format!("-- expect.json --\n{t}"),
        Expect::Error(t) => format!("-- expect.error --\n{t}"),
        Expect::None => "(no expectation)".to_string(),
    }
}

/// A readable account of one disagreement.
fn report(c: &Case, version: PuppetVersion, expect: &Expect, warnings: &[String]) -> String {
    let mut out = format!(
        "DISAGREE {} ({}) [Puppet {version}]",
        c.name(),
        c.path.display()
    );
    let want = c.expect.get(version);
    if *want == Expect::None {
        out.push_str("\n  the case has no expectation yet; run with --write");
    } else if expect != want {
        out.push_str("\n  expectation (-) vs Puppet (+):\n");
        out.push_str(&line_diff(&expect_text(want), &expect_text(expect)));
    }
    if warnings != c.expect_warnings.get(version).as_slice() {
        out.push_str("\n  warnings (-) vs Puppet's (+):\n");
        out.push_str(&line_diff(
            &c.expect_warnings.get(version).join("\n"),
            &warnings.join("\n"),
        ));
    }
    out
}

/// The lines between the common head and tail of two texts, as `-`/`+`
/// lines with a little context, at most 60 lines of each.
fn line_diff(old: &str, new: &str) -> String {
    let a: Vec<&str> = old.lines().collect();
    let b: Vec<&str> = new.lines().collect();
    let head = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let tail = a[head..]
        .iter()
        .rev()
        .zip(b[head..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let mut out = String::new();
    let ctx = 3;
    for l in &a[head.saturating_sub(ctx)..head] {
        out.push_str(&format!("      {l}\n"));
    }
    for (sign, lines) in [
        ("-", &a[head..a.len() - tail]),
        ("+", &b[head..b.len() - tail]),
    ] {
        for l in lines.iter().take(60) {
            out.push_str(&format!("    {sign} {l}\n"));
        }
        if lines.len() > 60 {
            out.push_str(&format!("    {sign} ... {} more lines\n", lines.len() - 60));
        }
    }
    for l in a[a.len() - tail..].iter().take(ctx) {
        out.push_str(&format!("      {l}\n"));
    }
    out.trim_end().to_string()
}

fn join_paths(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use pverify_harness::harness::oracle;

    #[test]
    fn line_diff_shows_the_changed_middle() {
        let d = line_diff("a\nb\nc\nd", "a\nB\nc\nd");
        assert_eq!(d, "      a\n    - b\n    + B\n      c\n      d");
        assert_eq!(line_diff("a", "a\nb"), "      a\n    + b");
    }

    #[test]
    fn observed_relativizes_paths() {
        let reply = serde_json::json!({"name": "n", "status": "failed",
            "error": "Boom (file: /tmp/p/production/manifests/site.pp, line: 1, column: 2) on node n",
            "warnings": ["W (file: /tmp/p/production/x.pp, line: 1, column: 1)"]});
        let (e, w) = oracle::observed(&reply, "/tmp/p/production").unwrap();
        assert_eq!(
            e,
            Expect::Error("Boom (file: manifests/site.pp, line: 1, column: 2) on node n".into())
        );
        assert_eq!(w, ["W (file: x.pp, line: 1, column: 1)"]);
    }
}
