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
