//! `pverify check [DIR]` and `pverify bless [DIR]`: golden snapshots of a
//! control repo described by `DIR/pverify.yaml` (see `docs/harness.md`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;

use pverify_harness::control::{parse_shard, shard, Compiled, NodeSpec, Repo};
use pverify_harness::report::{Format, Report};

use crate::cli_report::{emit, paint, parse_puppet, progress_bar, EXIT_SETUP};
use crate::cli_run::Oracle;
use pverify_harness::reference::PuppetVersion;

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
    /// Threads (default: all cores).
    #[arg(long, value_parser = crate::cli_writes::parse_jobs)]
    jobs: Option<usize>,
    /// Only shard I of N (1-based): the nodes sorted by name, every N-th.
    #[arg(long, value_name = "I/N")]
    shard: Option<String>,
    /// Let `generate()` run its command (as `allow_generate: true` in
    /// pverify.yaml); refused by default.
    #[arg(long = "allow-generate")]
    allow_generate: bool,
    /// The Puppet version to compile as (and check against with `--oracle
    /// puppet`): 7 or 8; default the config's `puppet:`, else 8.
    #[arg(long, value_parser = parse_puppet)]
    puppet: Option<PuppetVersion>,
    /// A Puppet setting over pverify.yaml's `settings:`, `NAME=VALUE`
    /// (repeatable; docs/settings.md lists them).
    #[arg(long = "setting", value_name = "NAME=VALUE", value_parser = crate::cli_report::parse_setting)]
    settings: Vec<String>,
    #[command(flatten)]
    puppetfile: crate::cli_opts_puppetfile::PuppetfileArgs,
    #[command(flatten)]
    fleet: crate::cli_opts_fleet::FleetOpts,
    #[command(flatten)]
    enc_timeout: crate::cli_opts_fleet::EncTimeoutOpts,
    #[command(flatten)]
    exports: crate::cli_opts_exports::ExportsOpts,
    #[command(flatten)]
    reads: crate::cli_opts_reads::ReadOpts,
    #[command(flatten)]
    hiera: crate::cli_opts_eyaml::HieraOpts,
    #[command(flatten)]
    budgets: crate::cli_opts_budgets::BudgetArgs,
}

fn absolute(p: &Path) -> PathBuf {
    std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf())
}

/// The repo, the nodes selected, and all its nodes (the in-run mode of
/// exported resources compiles them all for their exports).
fn prepare(c: &Common) -> Result<(Repo, Vec<NodeSpec>, Vec<NodeSpec>), String> {
    let mut repo = Repo::open(&c.dir)?;
    repo.config.allow_generate |= c.allow_generate;
    if c.puppet.is_some() {
        repo.config.puppet = c.puppet;
    }
    repo.overlay_settings(&c.settings)?;
    repo.grants = c.reads.grants.clone();
    if let Some(dirs) = c.fleet.basemodulepath_dirs() {
        // Relative to where the command runs, as any path on it; the
        // operator's directories, so read roots too.
        let dirs: Vec<PathBuf> = dirs.iter().map(|d| absolute(Path::new(d))).collect();
        repo.grants.extend(dirs.iter().cloned());
        repo.config.basemodulepath = Some(
            dirs.iter()
                .map(|d| d.to_string_lossy().into_owned())
                .collect(),
        );
    }
    if let Some(p) = &c.fleet.environmentpath {
        repo.set_environmentpath(absolute(p))?;
    }
    repo.fact_overrides = c.fleet.fact_overrides.clone();
    repo.enc_timeout = c.enc_timeout.duration()?;
    repo.apply_hiera_options(c.hiera.hiera_config.clone(), c.hiera.eyaml_missing_key);
    // A replacement hiera.yaml the operator names is readable, with its
    // levels' data directories.
    if let Some(h) = repo.hiera_config() {
        repo.grants
            .extend(puppet_compiler::hiera::config::operator_grants(&h));
    }
    repo.deploy_modules(&c.puppetfile.cache())?;
    repo.set_exports(c.exports.exports.as_deref(), c.exports.exports_run)?;
    repo.config.node_timeout = c.budgets.node_timeout.or(repo.config.node_timeout);
    repo.config.node_memory = c.budgets.node_memory.or(repo.config.node_memory);
    let all = repo.nodes()?;
    let mut nodes = all.clone();
    if let Some(s) = &c.shard {
        let (i, n) = parse_shard(s)?;
        nodes = shard(nodes, i, n);
    }
    if let Some(f) = &c.filter {
        nodes.retain(|n| n.id.contains(f.as_str()));
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
        None => compile("check", &repo, &nodes, &all, args.common.jobs).map(|c| (c, "golden")),
        Some(Oracle::Puppet) => {
            let spinner = progress_bar(0, "puppet");
            let workers = crate::cli_opts_budgets::threads("check", args.common.jobs, nodes.len());
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
    // Goldens of nodes gone from the matrix: a warning, or with
    // --strict-goldens a failed item each.
    for name in repo.stale_goldens(&all) {
        if args.review.strict_goldens {
            items.push(repo.stale_item(&name));
        } else {
            eprintln!("warning: stale golden {}", repo.stale_message(&name));
        }
    }
    let report = Report::new("check", &args.common.dir.display().to_string(), items);
    emit(&report, args.format)
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
        None => compile("bless", &repo, &nodes, &all, args.common.jobs),
        Some(Oracle::Puppet) => {
            let workers = crate::cli_opts_budgets::threads("bless", args.common.jobs, nodes.len());
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
