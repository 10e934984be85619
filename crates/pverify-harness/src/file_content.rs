//! File content for `diff` and `check`: a `content` parameter as it is, a
//! `source => 'puppet:///modules/<module>/<path>'` read from the side's
//! modulepath (`<dir>/<module>/files/<path>`, as octocatalog-diff does), and
//! unified diffs of the two texts.
//!
//! Reading goes through the side's confined file system (its environment's
//! read roots, `puppet_compiler::loader::confine`): a path with `..` or an
//! empty segment is refused, and the file found must still lie inside its
//! module's `files/` directory once symlinks are resolved.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use puppet_compiler::files::{FileSystem, OsFiles};
use puppet_compiler::loader::confine::{ConfinedFiles, ReadRoots};

use serde_json::Value as J;

/// What a file's content is, as far as the diff can tell.
#[derive(Clone, Debug, PartialEq)]
pub enum Content {
    /// The text (a `content` parameter, or a resolved `source`).
    Text(String),
    /// A resolved `source` whose bytes are not UTF-8: compared by bytes.
    Binary(Vec<u8>),
}

/// Resolves a `source` value (a URL or an array of them, the first that
/// exists wins, as Puppet does) against a modulepath. `None` when no
/// element is a `puppet:///modules/...` URL that names an existing file.
pub fn resolve_source(
    source: &J,
    modulepath: &[PathBuf],
    files: &dyn FileSystem,
) -> Option<Content> {
    let urls: Vec<&str> = match source {
        J::String(s) => vec![s.as_str()],
        J::Array(a) => a.iter().filter_map(|v| v.as_str()).collect(),
        _ => return None,
    };
    urls.iter()
        .find_map(|u| read_module_file(u, modulepath, files))
}

/// `(module, path)` from `puppet:///modules/<module>/<path>` (any server).
pub fn module_file_url(url: &str) -> Option<(&str, &str)> {
    let rest = url.strip_prefix("puppet://")?;
    let slash = rest.find('/')?;
    let rest = rest[slash + 1..].strip_prefix("modules/")?;
    let (module, path) = rest.split_once('/')?;
    if module.is_empty() || path.is_empty() {
        return None;
    }
    if path
        .split('/')
        .any(|seg| seg.is_empty() || seg == "." || seg == "..")
        || module.contains("..")
        || module.contains('\\')
        || path.contains('\\')
    {
        return None;
    }
    Some((module, path))
}

fn read_module_file(url: &str, modulepath: &[PathBuf], files: &dyn FileSystem) -> Option<Content> {
    let (module, path) = module_file_url(url)?;
    // The first module of that name on the modulepath is the module, as
    // for manifests.
    let module_dir = modulepath
        .iter()
        .map(|d| d.join(module))
        .find(|d| files.is_dir(d))?;
    let files_dir = module_dir.join("files");
    let file = files_dir.join(path);
    let real_files = files.canonicalize(&files_dir).ok()?;
    let real = files.canonicalize(&file).ok()?;
    if !real.starts_with(&real_files) || !files.is_file(&real) {
        return None;
    }
    let bytes = files.read(&real).ok()?;
    Some(match String::from_utf8(bytes) {
        Ok(s) => Content::Text(s),
        Err(e) => Content::Binary(e.into_bytes()),
    })
}

/// A unified diff `from` → `to` with three lines of context, headed
/// `--- from` / `+++ to`.
pub fn unified_diff(old: &Content, new: &Content, label: &str) -> String {
    unified_diff_headed(
        old,
        new,
        &format!("{label} (from)"),
        &format!("{label} (to)"),
    )
}

/// A unified diff with three lines of context, headed `--- old_header` /
/// `+++ new_header`.
pub fn unified_diff_headed(
    old: &Content,
    new: &Content,
    old_header: &str,
    new_header: &str,
) -> String {
    match (old, new) {
        (Content::Text(a), Content::Text(b)) => similar::TextDiff::from_lines(a, b)
            .unified_diff()
            .context_radius(3)
            .header(old_header, new_header)
            .to_string(),
        _ => format!(
            "binary content differs: {} bytes -> {} bytes\n",
            len(old),
            len(new)
        ),
    }
}

fn len(c: &Content) -> usize {
    match c {
        Content::Text(s) => s.len(),
        Content::Binary(b) => b.len(),
    }
}

/// The machine's files inside the repo's `tree` and the operator's
/// `granted` directories (a side whose environment did not boot: its
/// tree; catalogs with `--from-modulepath`: the modulepath given).
pub fn confined_files(tree: &[PathBuf], granted: &[PathBuf]) -> Arc<dyn FileSystem> {
    let roots = ReadRoots::new(&OsFiles, tree, granted);
    Arc::new(ConfinedFiles::new(Arc::new(OsFiles), roots))
}

/// The modulepath of an environment directory when nothing else is known:
/// its `modules/` directory.
pub fn default_modulepath(env_dir: &Path) -> Vec<PathBuf> {
    vec![env_dir.join("modules")]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls() {
        assert_eq!(
            module_file_url("puppet:///modules/base/motd"),
            Some(("base", "motd"))
        );
        assert_eq!(
            module_file_url("puppet://srv/modules/base/a/b"),
            Some(("base", "a/b"))
        );
        assert_eq!(
            module_file_url("puppet:///modules/base/../../etc/passwd"),
            None
        );
        assert_eq!(module_file_url("puppet:///files/x"), None);
        assert_eq!(module_file_url("/etc/passwd"), None);
    }

    #[test]
    fn diffs() {
        let d = unified_diff(
            &Content::Text("a\nb\n".into()),
            &Content::Text("a\nc\n".into()),
            "File[/x]",
        );
        assert!(d.contains("-b\n+c\n"), "{d}");
    }
}
