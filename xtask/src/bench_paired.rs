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
    /// Puppet's time per catalog (the timed pass).
    pub puppet_times: Vec<Duration>,
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
    let mut ours = PverifyWarm::default();
    let mut processes = 0;
    for part in sample.chunks(chunk) {
        // The chunk twice in one process: a warm-up pass, then the timed one.
        let twice: Vec<NodeSpec> = part.iter().chain(part).cloned().collect();
        let mut replies = repo.compile_with_puppet(&twice, 1)?;
        processes += 1;
        puppet.extend(replies.drain(part.len()..));
        ours.extend(pverify_warm(env, sample, TURN_WINDOW, repo.puppet())?);
    }
    let puppet_times = puppet
        .iter()
        .map(|c| Duration::from_millis(c.millis))
        .collect();
    Ok(Paired {
        puppet,
        puppet_times,
        processes,
        ours,
    })
}
