//! What every command shares about its outputs and its arguments' typos
//! (docs/safety.md, "Writes"): `--jobs 0` refused, paths given on the
//! command line that must exist, stdout written or the command fails, and
//! `compile --out-dir`'s claim on each output file name (one node per
//! certname, `report.json` the report's alone).

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use pverify_harness::output::REPORT_FILE;

/// `--jobs N`: at least one thread.
pub fn parse_jobs(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(0) => Err("0 threads compile nothing: give at least 1".into()),
        Ok(n) => Ok(n),
        Err(e) => Err(format!("'{text}': {e}")),
    }
}

/// A file or directory named by a flag must exist: a typo there would
/// otherwise compile something else (an empty catalog for a missing
/// `--manifest`, no global Hiera layer for a missing `--hiera-config`).
pub fn require_existing(flag: &str, path: Option<&Path>) -> Result<(), String> {
    match path {
        Some(p) if std::fs::metadata(p).is_err() => Err(format!(
            "{flag} {}: {}",
            p.display(),
            std::fs::metadata(p)
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default()
        )),
        _ => Ok(()),
    }
}

/// Writes to stdout; a failure (a closed pipe, a full disk) is the
/// command's error, not a silent success.
pub fn print_or_fail(bytes: &[u8]) -> Result<(), String> {
    let mut out = std::io::stdout().lock();
    out.write_all(bytes)
        .and_then(|()| out.flush())
        .map_err(|e| format!("cannot write to stdout: {e}"))
}

/// Which node file holds each certname written to an output directory, so
/// that a second file with the same certname is refused rather than
/// silently replacing the first's catalog.
#[derive(Default)]
pub struct Claims {
    owners: Mutex<HashMap<String, Vec<PathBuf>>>,
}

impl Claims {
    /// Claims `<name>.json` for the node of `file`; an error when the name
    /// is the report's or another file already has it (the first claim is
    /// then undone by [`Claims::duplicates`]).
    pub fn claim(&self, name: &str, file: &Path) -> Result<(), String> {
        if format!("{name}.json") == REPORT_FILE {
            return Err(format!(
                "{}: the certname '{name}' cannot be written to an output directory: \
                 {REPORT_FILE} is the run's report",
                file.display()
            ));
        }
        let mut owners = self.owners.lock().unwrap_or_else(|e| e.into_inner());
        let files = owners.entry(name.to_string()).or_default();
        files.push(file.to_path_buf());
        match files.first() {
            Some(first) if files.len() > 1 => Err(duplicate(name, first, file)),
            _ => Ok(()),
        }
    }

    /// Every certname more than one file claimed, with the error its first
    /// file's node gets (its catalog, written before the second came, is
    /// removed).
    pub fn duplicates(self) -> Vec<(String, PathBuf, String)> {
        let owners = self.owners.into_inner().unwrap_or_else(|e| e.into_inner());
        let mut out: Vec<_> = owners
            .into_iter()
            .filter(|(_, files)| files.len() > 1)
            .map(|(name, files)| {
                let e = duplicate(&name, &files[0], &files[1]);
                (name, files[0].clone(), e)
            })
            .collect();
        out.sort();
        out
    }
}

fn duplicate(name: &str, a: &Path, b: &Path) -> String {
    // Nodes claim in whatever order their threads get there: name the two
    // files in one order, so the text is the same whatever `--jobs`.
    let (a, b) = if a <= b { (a, b) } else { (b, a) };
    format!(
        "certname {name} is in two node files, {} and {}: neither catalog is written",
        a.display(),
        b.display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claims() {
        let c = Claims::default();
        assert!(c.claim("report", Path::new("r.json")).is_err());
        assert!(c.claim("a", Path::new("a1.json")).is_ok());
        assert!(c.claim("b", Path::new("b.json")).is_ok());
        let e = c.claim("a", Path::new("a2.json")).unwrap_err();
        assert!(e.contains("a1.json and a2.json"), "{e}");
        let d = c.duplicates();
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].1, Path::new("a1.json"));
        assert_eq!(parse_jobs("0").map_err(|_| ()), Err(()));
        assert_eq!(parse_jobs("3"), Ok(3));
    }
}
