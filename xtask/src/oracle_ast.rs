//! `cargo xtask oracle-ast [PATH...]`: the parser proven against Puppet. Every
//! manifest is dumped by `puppet parser dump --format pn` and by pverify; the two
//! dumps must be equal, and both must accept or reject the same files.

use std::path::{Path, PathBuf};
use std::process::Command;

const DEFAULT_DIR: &str = "/usr/share/puppet/modules";
/// Files per Puppet process: one warm Ruby process dumps many files.
const BATCH: usize = 250;

pub fn run(args: &[String]) -> Result<(), String> {
    let roots: Vec<PathBuf> = if args.is_empty() {
        vec![PathBuf::from(DEFAULT_DIR)]
    } else {
        args.iter().map(PathBuf::from).collect()
    };
    let mut files = Vec::new();
    for r in &roots {
        files
            .extend(pverify::util::find_manifests(r).map_err(|e| format!("{}: {e}", r.display()))?);
    }
    if files.is_empty() {
        return Err("no *.pp files found".into());
    }
    let mut agree = 0;
    let mut both_reject = 0;
    let mut mismatches: Vec<String> = Vec::new();
    for batch in files.chunks(BATCH) {
        let puppet = puppet_dumps(batch)?;
        for (file, theirs) in batch.iter().zip(puppet) {
            let bytes = std::fs::read(file).map_err(|e| format!("{}: {e}", file.display()))?;
            let name = file.display().to_string();
            let ours = pverify::syntax::parse(&name, &bytes)
                .map(|p| pverify::syntax::pn::program_to_pn(&p.body));
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
    println!(
        "oracle-ast: {} files, {agree} identical ASTs, {both_reject} rejected by both, {} disagree",
        files.len(),
        mismatches.len()
    );
    if mismatches.is_empty() {
        Ok(())
    } else {
        Err(format!("{} files disagree with Puppet", mismatches.len()))
    }
}

/// Puppet's PN dump of each file, `None` where Puppet rejects the file.
fn puppet_dumps(files: &[PathBuf]) -> Result<Vec<Option<String>>, String> {
    let out = Command::new("puppet")
        .args(["parser", "dump", "--format", "pn", "--color=false"])
        .args(files)
        .output()
        .map_err(|e| format!("cannot run puppet (apt-get install puppet): {e}"))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    // The dumps are concatenated, each behind `--- PATH`; rejected files are absent.
    let mut marks: Vec<(usize, usize)> = Vec::new(); // (file index, offset after marker)
    let mut from = 0;
    for (i, f) in files.iter().enumerate() {
        let marker = format!("--- {}", f.display());
        if let Some(pos) = find_marker(&stdout, &marker, from) {
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
        result[*i] = Some(stdout[*start..end].trim_end_matches('\n').to_string());
    }
    Ok(result)
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
