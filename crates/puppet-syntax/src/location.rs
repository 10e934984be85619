//! Where a manifest sits decides what it may contain. Files of a module on the
//! modulepath may only define names in their own namespace
//! (`apache/manifests/mod/ssl.pp` defines `apache::mod::ssl...`) and may hold
//! nothing but definitions at top level (Puppet's `namespace_for_file`).

use std::path::{Component, Path, PathBuf};

/// The namespace a file's definitions must be in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileNamespace {
    /// Not a module file (the environment's own manifests, or off the modulepath):
    /// anything goes.
    Unrestricted,
    /// Inside a module, but not under `manifests`, `functions`, `types` or `plans`:
    /// nothing may be defined there.
    BadModuleFile,
    /// `module::dir::file`, lower-cased.
    Name(String),
}

/// Puppet's `namespace_for_file`: the namespace of `file` relative to the first
/// modulepath directory containing it. Paths are made absolute but symlinks
/// are not resolved, as Puppet does.
pub fn namespace_for_file(file: &Path, modulepath: &[PathBuf]) -> FileNamespace {
    if file.extension().is_none_or(|e| e != "pp") {
        return FileNamespace::Unrestricted;
    }
    let file = clean(&std::path::absolute(file).unwrap_or_else(|_| file.to_path_buf()));
    let Some(relative) = modulepath.iter().find_map(|dir| {
        let dir = clean(&std::path::absolute(dir).unwrap_or_else(|_| dir.clone()));
        file.strip_prefix(&dir).ok().map(Path::to_path_buf)
    }) else {
        return FileNamespace::Unrestricted;
    };
    let parts: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().to_lowercase())
        .collect();
    if parts.len() < 2
        || !matches!(
            parts[1].as_str(),
            "manifests" | "functions" | "types" | "plans"
        )
    {
        return FileNamespace::BadModuleFile;
    }
    let mut names = vec![parts[0].clone()];
    if parts.len() > 3 {
        names.extend(parts[2..parts.len() - 1].iter().cloned());
    }
    let file_name = &parts[parts.len() - 1];
    if !(parts.len() == 3 && file_name == "init.pp") {
        names.push(file_name.trim_end_matches(".pp").to_string());
    }
    FileNamespace::Name(names.join("::"))
}

/// Ruby's `Pathname#cleanpath`: drops `.` and folds `..` lexically.
fn clean(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}
