//! The warm ratio's two sides timed in turns, so that Puppet's median and
//! pverify's span the same stretch of the machine's ups and downs.
//!
//! Why: Puppet's median comes from ~20 catalogs over 10 to 20 s; pverify's
//! from a few seconds before or after. On this shared (virtual) machine the
//! speed moves by 30 % and more between such windows, and whichever side got
//! the slow stretch moved the ratio (docs/benchmark.md, runs 7 to 10: the
//! same pverify sample took 2.45 ms before Puppet's run and 4.93 ms right
//! after it).
//!
//! How: the sample is cut into [`TURNS`] chunks. Each chunk goes to its own
//! Ruby process (`compile.rb`, the oracle driver), which compiles the chunk
//! twice: the first pass loads Puppet and every function, type and class the
//! chunk's catalogs use, the second is timed. Each timed catalog has so seen
//! its own code loaded, which a catalog of one long process over the whole
//! sample has not always: if anything this favours Puppet. After each chunk,
//! pverify compiles the whole sample on one thread, the environment warm,
//! for [`TURN_WINDOW`].
//!
//! Puppet is timed twice over each chunk, by two Ruby processes: a server
//! whose environments expire at once (`environment_timeout = 0`, the
//! default: a fresh environment object per node, so every catalog parses
//! the manifests it needs again), and a server that caches its environment
//! (`environment_timeout = unlimited`, as production servers run: one
//! environment object kept across the process's nodes, its parsed classes
//! and definitions with it; compile.rb). Both run before the same pverify
//! turn, so the two ratios share pverify's figure.

use std::time::Duration;

use puppet_compiler::loader::Environment;
use pverify_harness::control::{Compiled, NodeSpec, Repo};

use crate::bench_compile::{pverify_warm, PverifyWarm};

/// How many Puppet chunks (and pverify turns between them) a sample takes.
const TURNS: usize = 4;

/// How long each pverify turn compiles the sample (5 rounds at least).
const TURN_WINDOW: Duration = Duration::from_secs(1);

/// Both sides' warm per-catalog times over the same stretch of time.
pub(crate) struct Paired {
    /// Puppet's result for each sample node (the timed pass), in order.
    pub puppet: Vec<Compiled>,
    /// Puppet's time per catalog (the timed pass), a fresh environment
    /// per node.
    pub puppet_times: Vec<Duration>,
    /// Puppet's time per catalog (the timed pass) with one cached
    /// environment (`environment_timeout = unlimited`).
    pub cached_times: Vec<Duration>,
    /// How many of the cached environment's catalogs equal the fresh
    /// environment's (they must all: caching changes no catalog).
    pub cached_equal: usize,
    /// How many Ruby processes Puppet's side took.
    pub processes: usize,
    /// pverify's times, all turns together.
    pub ours: PverifyWarm,
}

/// Puppet and pverify over `sample` in [`TURNS`] alternating turns.
pub(crate) fn paired(
    repo: &Repo,
    env: &Environment,
    sample: &[NodeSpec],
) -> Result<Paired, String> {
    let chunk = sample.len().div_ceil(TURNS).max(1);
    let mut puppet = Vec::with_capacity(sample.len());
    let mut cached = Vec::with_capacity(sample.len());
    let mut ours = PverifyWarm::default();
    let mut processes = 0;
    for part in sample.chunks(chunk) {
        // The chunk twice in one process: a warm-up pass, then the timed
        // one; once per environment policy.
        let twice: Vec<NodeSpec> = part.iter().chain(part).cloned().collect();
        for (cache, out) in [(false, &mut puppet), (true, &mut cached)] {
            let mut replies = repo.compile_with_puppet_as(&twice, 1, cache)?;
            processes += 1;
            out.extend(replies.drain(part.len()..));
        }
        ours.extend(pverify_warm(env, sample, TURN_WINDOW, repo.puppet())?);
    }
    let times = |v: &[Compiled]| v.iter().map(|c| Duration::from_millis(c.millis)).collect();
    let cached_equal = puppet
        .iter()
        .zip(&cached)
        .filter(|(a, b)| match (&a.result, &b.result) {
            (Ok(a), Ok(b)) => a == b,
            (Err(a), Err(b)) => a == b,
            _ => false,
        })
        .count();
    Ok(Paired {
        puppet_times: times(&puppet),
        cached_times: times(&cached),
        cached_equal,
        puppet,
        processes,
        ours,
    })
}
