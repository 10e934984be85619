//! The module cache: content-addressed by source and resolved version or
//! commit, shared by every run and by both sides of a diff.
//!
//! ```text
//! DIR/forge/<source>/<owner>-<name>-<version>/<name>/...   a Forge release's tree
//! DIR/git/<source>/repo.git                                   a bare mirror of the remote
//! DIR/git/<source>/trees/<commit>/<name>/...                  a commit's tree, without .git
//! DIR/resolved/<source>/<what>                                the last resolution (offline use)
//! ```
//!
//! `<source>` is a readable slug of the URL and 16 hex digits of its
//! SHA-256, so two URLs never share a directory. Every tree is unpacked
//! beside its final place and renamed in, so a tree that exists is whole,
//! and two runs deploying at once both end with it.

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

/// Where the cache is and whether the network may be used.
#[derive(Clone, Debug, Default)]
pub struct CacheOptions {
    /// `--module-cache DIR`; default `$XDG_CACHE_HOME/pverify/modules`,
    /// else `~/.cache/pverify/modules`.
    pub dir: Option<PathBuf>,
    /// `--offline`: no network; `:latest`, unpinned Forge modules, branches
    /// and refs use the resolution the cache remembers.
    pub offline: bool,
}

impl CacheOptions {
    pub fn cache_dir(&self) -> PathBuf {
        if let Some(d) = &self.dir {
            return std::path::absolute(d).unwrap_or_else(|_| d.clone());
        }
        if let Some(x) = std::env::var_os("XDG_CACHE_HOME").filter(|x| !x.is_empty()) {
            return PathBuf::from(x).join("pverify/modules");
        }
        let home = std::env::var_os("HOME").unwrap_or_else(|| "/tmp".into());
        PathBuf::from(home).join(".cache/pverify/modules")
    }
}

/// The cache directory, made when missing and checked writable.
pub fn open(dir: &Path) -> Result<PathBuf, String> {
    let fail =
        |e: &dyn std::fmt::Display| format!("module cache {}: not writable: {e}", dir.display());
    std::fs::create_dir_all(dir).map_err(|e| fail(&e))?;
    tempfile::Builder::new()
        .prefix(".probe-")
        .tempfile_in(dir)
        .map_err(|e| fail(&e))?;
    Ok(dir.to_path_buf())
}

/// The directory name of a source URL.
pub fn source_key(url: &str) -> String {
    let digest = Sha256::digest(url.as_bytes());
    let hex: String = digest.iter().take(8).map(|b| format!("{b:02x}")).collect();
    let slug: String = url
        .rsplit(['/', ':'])
        .find(|s| !s.is_empty())
        .unwrap_or("source")
        .trim_end_matches(".git")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(40)
        .collect();
    format!("{slug}-{hex}")
}

/// Remembers a resolution (`:latest`'s version, a branch's commit) for
/// offline runs.
pub fn remember(cache: &Path, source: &str, what: &str, answer: &str) -> Result<(), String> {
    let dir = cache.join("resolved").join(source_key(source));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let path = dir.join(file_name(what));
    let tmp =
        tempfile::NamedTempFile::new_in(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    std::fs::write(tmp.path(), answer).map_err(|e| format!("{}: {e}", path.display()))?;
    tmp.persist(&path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(())
}

/// The resolution [`remember`] kept, if any.
pub fn recall(cache: &Path, source: &str, what: &str) -> Option<String> {
    let path = cache
        .join("resolved")
        .join(source_key(source))
        .join(file_name(what));
    std::fs::read_to_string(path)
        .ok()
        .map(|s| s.trim().to_string())
}

fn file_name(what: &str) -> String {
    let digest = Sha256::digest(what.as_bytes());
    let hex: String = digest.iter().take(4).map(|b| format!("{b:02x}")).collect();
    let readable: String = what
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '.' {
                c
            } else {
                '_'
            }
        })
        .take(60)
        .collect();
    format!("{readable}-{hex}")
}

/// Makes `dest` by filling a fresh directory beside it with `fill` and
/// renaming it in; an existing `dest` is kept (another run made it).
pub fn install_tree(
    dest: &Path,
    fill: impl FnOnce(&Path) -> Result<(), String>,
) -> Result<(), String> {
    if dest.is_dir() {
        return Ok(());
    }
    let parent = dest.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    let staging = tempfile::Builder::new()
        .prefix(".staging-")
        .tempdir_in(parent)
        .map_err(|e| format!("{}: {e}", parent.display()))?;
    fill(staging.path())?;
    match std::fs::rename(staging.path(), dest) {
        Ok(()) => {
            // Renamed away: nothing left for the guard to remove.
            let _ = staging.keep();
            Ok(())
        }
        Err(_) if dest.is_dir() => Ok(()),
        Err(e) => Err(format!("{}: {e}", dest.display())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn source_keys_are_readable_and_distinct() {
        let a = source_key("https://git.example/acme/motd.git");
        let b = source_key("https://git.example/other/motd.git");
        assert!(a.starts_with("motd-"), "{a}");
        assert_ne!(a, b);
    }
}
