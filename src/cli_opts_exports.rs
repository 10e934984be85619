//! `--exports FILE` and `--exports-run`: exported resources for
//! compile, check, bless and diff (docs/harness.md, "Exported resources").

use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;
use puppet_compiler::facts::exports::Exports;

#[derive(Args, Clone, Debug, Default)]
pub struct ExportsOpts {
    /// Other nodes' exported resources, for `<<| |>>`: a JSON array as
    /// PuppetDB's `/pdb/query/v4/resources` answers (a fleet snapshot).
    /// Turns the setting `storeconfigs` on.
    #[arg(long = "exports", value_name = "FILE")]
    pub exports: Option<PathBuf>,
    /// Let the nodes of this run collect each other's exported resources,
    /// as PuppetDB would once they had all run: compile every node, gather
    /// the exports, compile again the nodes they change. Turns
    /// `storeconfigs` on (not for `diff`).
    #[arg(long = "exports-run")]
    pub exports_run: bool,
}

impl ExportsOpts {
    /// The exports file read (`None` without `--exports`).
    pub fn read(&self) -> Result<Option<Arc<Exports>>, String> {
        let Some(path) = &self.exports else {
            return Ok(None);
        };
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Exports::from_json_text(&text)
            .map(|e| Some(Arc::new(e)))
            .map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Whether the options turn `storeconfigs` on.
    pub fn any(&self) -> bool {
        self.exports.is_some() || self.exports_run
    }
}
