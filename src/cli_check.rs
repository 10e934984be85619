//! `pverify check [DIR]` and `pverify bless [DIR]`: golden snapshots of a
//! control repo described by `DIR/pverify.yaml` (see `docs/harness.md`).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use pverify_harness::control::{parse_shard, shard, Compiled, NodeSpec, Repo};
use pverify_harness::report::{Format, Report, ShardOf};

use crate::cli_report::{emit, paint, progress_bar, EXIT_SETUP};
use crate::cli_run::Oracle;

#[derive(Args)]
pub struct CheckArgs {
    #[command(flatten)]
    common: Common,
    /// Report format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Compile with this reference instead of pverify (to prove the goldens).
    #[arg(long, value_enum)]
    oracle: Option<Oracle>,
    #[command(flatten)]
    review: crate::cli_opts_review::CheckReviewOpts,
}

#[derive(Args)]
pub struct BlessArgs {
    #[command(flatten)]
    common: Common,
    /// Write this reference's catalogs instead of pverify's (goldens made
    /// by Puppet 7.23 or 8.10, as `--puppet` says).
    #[arg(long, value_enum)]
    oracle: Option<Oracle>,
    #[command(flatten)]
    review: crate::cli_opts_review::BlessReviewOpts,
}

#[derive(Args)]
struct Common {
    /// The control repo: the directory of `pverify.yaml`.
    #[arg(default_value = ".")]
    dir: PathBuf,
    /// Only nodes whose name contains this.
    #[arg(long)]
    filter: Option<String>,
    /// Only shard I of N (1-based): the nodes sorted by name, every N-th.
    /// With `--format json` the report says which shard it is, for
    /// `pverify report merge`.
    #[arg(long, value_name = "I/N")]
    shard: Option<String>,
    #[command(flatten)]
    compile: crate::cli_opts_compile::CompileOpts,
}

/// The repo, the nodes selected, and all its nodes (the in-run mode of
/// exported resources compiles them all for their exports).
type Prepared = (Repo, Vec<NodeSpec>, Vec<NodeSpec>);

fn prepare(c: &Common) -> Result<Prepared, String> {
    c.compile.require_existing()?;
    let mut repo = Repo::open(&c.dir)?;
    c.compile.apply_to_repo(&mut repo)?;
    let all = repo.nodes()?;
    let mut nodes = all.clone();
    if let Some(s) = &c.shard {
        let (i, n) = parse_shard(s)?;
        nodes = shard(nodes, i, n);
        // An empty shard checks nothing: no evidence of a pass.
        if nodes.is_empty() {
            return Err(format!(
                "--shard {s} selects no node (the matrix has {})",
                all.len()
            ));
        }
    }
    if let Some(f) = &c.filter {
        let before = nodes.len();
        nodes.retain(|n| n.id.contains(f.as_str()));
        if nodes.is_empty() {
            return Err(format!(
                "--filter '{f}' matches no node (of {before}; a node is `<certname>` or `<certname>@<factset>`)"
            ));
        }
    }
    Ok((repo, nodes, all))
}

fn compile(
    command: &str,
    repo: &Repo,
    nodes: &[NodeSpec],
    all: &[NodeSpec],
    jobs: Option<usize>,
) -> Result<Vec<Compiled>, String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(crate::cli_opts_budgets::threads(command, jobs, nodes.len()))
        .stack_size(64 << 20)
        .build()
        .map_err(|e| format!("cannot start threads: {e}"))?;
    let bar = progress_bar(nodes.len() as u64, "compiling");
    let out =
        pool.install(|| repo.compile_with_exports(nodes, all, |n| repo.compile(n, &|| bar.inc(1))));
    bar.finish_and_clear();
    out
}

pub fn check(args: CheckArgs) -> ExitCode {
    let (repo, nodes, all) = match prepare(&args.common) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("pverify check: {e}");
            return ExitCode::from(EXIT_SETUP);
        }
    };
    let compiled = match args.oracle {
        None => {
            compile("check", &repo, &nodes, &all, args.common.compile.jobs).map(|c| (c, "golden"))
        }
        Some(Oracle::Puppet) => {
            let spinner = progress_bar(0, "puppet");
            let workers =
                crate::cli_opts_budgets::threads("check", args.common.compile.jobs, nodes.len());
            let r =
                repo.compile_with_exports(&nodes, &all, |n| repo.compile_with_puppet(n, workers));
            spinner.finish_and_clear();
            r.map(|c| (c, "puppet"))
        }
    };
    let (compiled, against) = match compiled {
        Ok(c) => c,
        Err(e) => {
            eprintln!("pverify check: {e}");
            return ExitCode::from(EXIT_SETUP);
        }
    };
    let mut items = repo.check(&compiled, against);
    for w in repo.check_sources(&nodes, &compiled, &mut items, against) {
        eprintln!("warning: {w}");
    }
    let shard = args.common.shard.as_deref().map(parse_shard);
    // Goldens of nodes gone from the matrix: a warning, or with
    // --strict-goldens a failed item each. Every shard sees the same
    // ones: they are shard 1's, so a merged report has each once.
    if !matches!(shard, Some(Ok((i, _))) if i > 1) {
        for name in repo.stale_goldens(&all) {
            if args.review.strict_goldens {
                items.push(repo.stale_item(&name));
            } else {
                eprintln!("warning: stale golden {}", repo.stale_message(&name));
            }
        }
    }
    let mut report = Report::new("check", &args.common.dir.display().to_string(), items);
    if let Some(Ok((index, count))) = shard {
        report.shard = Some(shard_of(&report, &all, index, count));
    }
    emit(&report, args.format)
}

/// A shard's place in the whole run: each item's position in the
/// unsharded report (nodes in the matrix's order, then stale goldens).
fn shard_of(report: &Report, all: &[NodeSpec], index: usize, count: usize) -> ShardOf {
    let at: std::collections::HashMap<&str, usize> = all
        .iter()
        .enumerate()
        .map(|(i, n)| (n.id.as_str(), i))
        .collect();
    let mut stale = all.len();
    let positions = report
        .items
        .iter()
        .map(|item| match at.get(item.name.as_str()) {
            Some(&i) => i,
            None => {
                stale += 1;
                stale - 1
            }
        })
        .collect();
    ShardOf {
        index,
        count,
        positions,
    }
}

pub fn bless(args: BlessArgs) -> ExitCode {
    let (repo, nodes, all) = match prepare(&args.common) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("pverify bless: {e}");
            return ExitCode::from(EXIT_SETUP);
        }
    };
    let compiled = match args.oracle {
        None => compile("bless", &repo, &nodes, &all, args.common.compile.jobs),
        Some(Oracle::Puppet) => {
            let workers =
                crate::cli_opts_budgets::threads("bless", args.common.compile.jobs, nodes.len());
            repo.compile_with_exports(&nodes, &all, |n| repo.compile_with_puppet(n, workers))
        }
    };
    let compiled = match compiled {
        Ok(c) => c,
        Err(e) => {
            eprintln!("pverify bless: {e}");
            return ExitCode::from(EXIT_SETUP);
        }
    };
    let (mut text, mut failed) = repo.bless(&compiled, paint());
    let (recorded, record_failed) = repo.bless_sources(&nodes, &compiled, paint());
    text.push_str(&recorded);
    failed |= record_failed;
    let stale = repo.stale_goldens(&all);
    if args.review.prune {
        let (pruned, prune_failed) = repo.prune(&stale, paint());
        text.push_str(&pruned);
        failed |= prune_failed;
    } else {
        for name in &stale {
            text.push_str(&format!("stale {}\n", repo.stale_message(name)));
        }
    }
    if let Err(e) = crate::cli_writes::print_or_fail(text.as_bytes()) {
        eprintln!("pverify bless: {e}");
        failed = true;
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
