//! The impact flags of `diff` (issue 29): which nodes compile on each side,
//! the proof that skipping was right, the catalog cache across runs.

use std::path::PathBuf;

use clap::Args;
use pverify_harness::diff::impact::Mode;

#[derive(Args, Clone, Debug, Default)]
pub struct ImpactOpts {
    /// Compile every node on both sides (by default a node whose `from`
    /// read set still holds on `to` is not compiled on `to`: its `from`
    /// catalog stands for it).
    #[arg(long, conflicts_with = "verify_impact")]
    pub full: bool,
    /// Compile every node on both sides and fail (exit 1) when a node the
    /// default would have skipped has another `to` catalog.
    #[arg(long)]
    pub verify_impact: bool,
    /// Keep catalogs with their read sets in DIR across runs: a side whose
    /// nodes' read sets still hold reuses them instead of compiling
    /// (docs/ci.md, "Caching catalogs").
    #[arg(long, value_name = "DIR")]
    pub cache: Option<PathBuf>,
}

impl ImpactOpts {
    pub fn mode(&self) -> Mode {
        if self.verify_impact {
            Mode::Verify
        } else if self.full {
            Mode::Full
        } else {
            Mode::Impact
        }
    }
}
