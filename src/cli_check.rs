//! `pverify check [DIR]` and `pverify bless [DIR]`: golden snapshots of a
//! control repo described by `DIR/pverify.yaml` (see `docs/harness.md`).

use std::io::Write;
use std::path::PathBuf;
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
}

#[derive(Args)]
pub struct BlessArgs {
    #[command(flatten)]
    common: Common,
    /// Write this reference's catalogs instead of pverify's (goldens made
    /// by Puppet 7.23 or 8.10, as `--puppet` says).
    #[arg(long, value_enum)]
    oracle: Option<Oracle>,
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
    #[arg(long)]
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
    budgets: crate::cli_opts_budgets::BudgetArgs,
}

fn prepare(c: &Common) -> Result<(Repo, Vec<NodeSpec>), String> {
    let mut repo = Repo::open(&c.dir)?;
    repo.config.allow_generate |= c.allow_generate;
    if c.puppet.is_some() {
        repo.config.puppet = c.puppet;
    }
    repo.overlay_settings(&c.settings)?;
    repo.config.node_timeout = c.budgets.node_timeout.or(repo.config.node_timeout);
    repo.config.node_memory = c.budgets.node_memory.or(repo.config.node_memory);
    let mut nodes = repo.nodes()?;
    if let Some(s) = &c.shard {
        let (i, n) = parse_shard(s)?;
        nodes = shard(nodes, i, n);
    }
    if let Some(f) = &c.filter {
        nodes.retain(|n| n.id.contains(f.as_str()));
    }
    Ok((repo, nodes))
}

fn compile(
    command: &str,
    repo: &Repo,
    nodes: &[NodeSpec],
    jobs: Option<usize>,
) -> Result<Vec<Compiled>, String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(crate::cli_opts_budgets::threads(command, jobs, nodes.len()))
        .stack_size(64 << 20)
        .build()
        .map_err(|e| format!("cannot start threads: {e}"))?;
    let bar = progress_bar(nodes.len() as u64, "compiling");
    let out = pool.install(|| repo.compile(nodes, &|| bar.inc(1)));
    bar.finish_and_clear();
    out
}

pub fn check(args: CheckArgs) -> ExitCode {
    let (repo, nodes) = match prepare(&args.common) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("pverify check: {e}");
            return ExitCode::from(EXIT_SETUP);
        }
    };
    let compiled = match args.oracle {
        None => compile("check", &repo, &nodes, args.common.jobs).map(|c| (c, "golden")),
        Some(Oracle::Puppet) => {
            let spinner = progress_bar(0, "puppet");
            let r = repo.compile_with_puppet(
                &nodes,
                crate::cli_opts_budgets::threads("check", args.common.jobs, nodes.len()),
            );
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
    let items = repo.check(&compiled, against);
    let report = Report::new("check", &args.common.dir.display().to_string(), items);
    emit(&report, args.format)
}

pub fn bless(args: BlessArgs) -> ExitCode {
    let (repo, nodes) = match prepare(&args.common) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("pverify bless: {e}");
            return ExitCode::from(EXIT_SETUP);
        }
    };
    let compiled = match args.oracle {
        None => compile("bless", &repo, &nodes, args.common.jobs),
        Some(Oracle::Puppet) => repo.compile_with_puppet(
            &nodes,
            crate::cli_opts_budgets::threads("bless", args.common.jobs, nodes.len()),
        ),
    };
    let compiled = match compiled {
        Ok(c) => c,
        Err(e) => {
            eprintln!("pverify bless: {e}");
            return ExitCode::from(EXIT_SETUP);
        }
    };
    let (text, failed) = repo.bless(&compiled, paint());
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes());
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
