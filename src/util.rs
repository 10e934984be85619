//! Small helpers shared by the CLI, tests and xtasks.

use std::io;
use std::path::{Path, PathBuf};

/// `*.pp` files under `path` (or `path` itself when it is a file), sorted,
/// following symlinks and guarding against symlink loops.
pub fn find_manifests(path: &Path) -> io::Result<Vec<PathBuf>> {
    let meta = std::fs::metadata(path)?;
    if meta.is_file() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    walk(path, &mut out, &mut seen)?;
    out.sort();
    Ok(out)
}

fn walk(
    dir: &Path,
    out: &mut Vec<PathBuf>,
    seen: &mut std::collections::HashSet<PathBuf>,
) -> io::Result<()> {
    // A directory reached twice (through a symlink loop) is walked once.
    let real = std::fs::canonicalize(dir)?;
    if !seen.insert(real) {
        return Ok(());
    }
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.filter_map(Result::ok).collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let p = entry.path();
        let Ok(meta) = std::fs::metadata(&p) else {
            continue; // dangling symlink
        };
        if meta.is_dir() {
            walk(&p, out, seen)?;
        } else if p.extension().is_some_and(|x| x == "pp") {
            out.push(p);
        }
    }
    Ok(())
}
