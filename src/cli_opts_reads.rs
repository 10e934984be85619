//! `--grant DIR`: read roots the operator grants besides the repo's own tree
//! (docs/safety.md, "Confinement"), on every command that compiles.

use std::path::PathBuf;

use clap::Args;

#[derive(Args, Clone, Debug, Default)]
pub struct ReadOpts {
    /// A directory (or file) the compile may read besides the repository's
    /// own tree, as the repo's modulepath, Hiera data or `file()` name it
    /// (repeatable). The repo's own configuration cannot grant one.
    #[arg(long = "grant", value_name = "DIR")]
    pub grants: Vec<PathBuf>,
}

/// What `--hiera-config FILE` grants: the file and its levels' data
/// directories (the operator's configuration names them; the file's own
/// directory is not granted, as it may hold anything, e.g. Puppet's `ssl/`).
/// An unreadable or invalid file grants only itself: the compile then
/// reports it.
pub fn hiera_config_grants(path: &std::path::Path) -> Vec<PathBuf> {
    use puppet_compiler::hiera::config;
    let mut grants = vec![path.to_path_buf()];
    let Ok(text) = std::fs::read_to_string(path) else {
        return grants;
    };
    let Ok(doc) = puppet_model::yaml::load_hiera(&text) else {
        return grants;
    };
    if let Ok(c) = config::parse(path, &doc) {
        grants.extend(c.levels.into_iter().map(|l| l.datadir));
    }
    grants
}
