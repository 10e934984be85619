//! `--shard I/N` of `diff` (issue 29): the same selection as `check
//! --shard` (`control::shard_by`), over the union of both sides' nodes.

use clap::Args;

#[derive(Args, Clone, Debug, Default)]
pub struct DiffShardOpts {
    /// Only shard I of N (1-based): the nodes of both sides sorted by
    /// name, every N-th (as `check --shard`). With `--format json` the
    /// report says which shard it is, for `pverify report merge`.
    #[arg(long, value_name = "I/N")]
    shard: Option<String>,
}

impl DiffShardOpts {
    /// (I, N), checked, or none.
    pub fn shard(&self) -> Result<Option<(usize, usize)>, String> {
        self.shard
            .as_deref()
            .map(pverify_harness::control::parse_shard)
            .transpose()
    }
}
