//! The module cache options of every command that compiles an environment
//! (`compile`, `check`, `bless`, `diff`): where a Puppetfile's modules are
//! deployed, and whether the network may be used (docs/puppetfile.md).

use std::path::PathBuf;

use clap::Args;

use pverify_harness::puppetfile::CacheOptions;

#[derive(Args, Clone, Debug, Default)]
pub struct PuppetfileArgs {
    /// Where the environment's Puppetfile modules are deployed (default
    /// `$XDG_CACHE_HOME/pverify/modules`, else `~/.cache/pverify/modules`).
    #[arg(long = "module-cache", value_name = "DIR")]
    pub module_cache: Option<PathBuf>,
    /// No network for the Puppetfile: modules come from the module cache,
    /// and `:latest`, branches and refs resolve as they last did.
    #[arg(long)]
    pub offline: bool,
}

impl PuppetfileArgs {
    pub fn cache(&self) -> CacheOptions {
        CacheOptions {
            dir: self.module_cache.clone(),
            offline: self.offline,
        }
    }
}
