//! Per-node budgets and thread counts on the command line: `--node-timeout`
//! and `--node-memory` (flattened into every command that compiles), and
//! the cap on `--jobs` (docs/safety.md).

use clap::Args;

use puppet_compiler::budget::{self, Limits};

/// How long one node may compile and how much it may allocate.
#[derive(Args, Clone, Debug, Default)]
pub struct BudgetArgs {
    /// Seconds one node may compile before it fails with `the node exceeded
    /// its time budget` (0: no limit). Default pverify.yaml's
    /// `node_timeout`, else 60.
    #[arg(long = "node-timeout", value_name = "SECONDS", value_parser = budget::parse_seconds)]
    pub node_timeout: Option<f64>,
    /// Memory one node may allocate (`512M`, `2G`; a bare number is MiB; 0:
    /// no limit) before it fails with `the node exceeded its memory budget`.
    /// Default pverify.yaml's `node_memory`, else 2G.
    #[arg(long = "node-memory", value_name = "SIZE", value_parser = budget::parse_size)]
    pub node_memory: Option<u64>,
}

impl BudgetArgs {
    /// The limits: these flags, else the given configuration's, else the
    /// defaults.
    pub fn limits(&self, config_timeout: Option<f64>, config_memory: Option<u64>) -> Limits {
        Limits::resolve(
            self.node_timeout.or(config_timeout),
            self.node_memory.or(config_memory),
        )
    }
}

/// How many threads beyond the cores still help: a node that waits (an
/// ENC, `generate()`) frees its core for another.
const THREADS_PER_CORE: usize = 4;

/// The threads to compile `items` nodes with (each node thread reserves a
/// 64 MiB stack): `--jobs`, else one per core, capped at the nodes and at
/// four per core. A `--jobs` over the cap is said on stderr. `--jobs 0`
/// reaches here only as rayon's "one per core".
pub fn threads(command: &str, jobs: Option<usize>, items: usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let cap = cap_threads(cores, items);
    match jobs {
        Some(j) if j > cap => {
            eprintln!(
                "pverify {command}: note: --jobs {j} capped at {cap} ({})",
                if cap == items.max(1) && items < cores * THREADS_PER_CORE {
                    format!("{items} nodes")
                } else {
                    format!("{THREADS_PER_CORE} per core, {cores} cores")
                }
            );
            cap
        }
        Some(0) | None => cores.min(cap),
        Some(j) => j,
    }
}

fn cap_threads(cores: usize, items: usize) -> usize {
    (cores * THREADS_PER_CORE).min(items).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jobs_are_capped_at_the_nodes_and_four_per_core() {
        assert_eq!(cap_threads(2, 100_000), 8);
        assert_eq!(cap_threads(2, 3), 3);
        assert_eq!(cap_threads(2, 0), 1);
        assert_eq!(threads("check", Some(1), 5), 1);
        assert!(threads("check", Some(100_000), 100_000) <= 4 * 1024);
        assert_eq!(threads("check", Some(100_000), 2), 2);
    }
}
