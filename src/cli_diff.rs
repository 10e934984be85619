//! `pverify diff`: compares the catalogs of every node between two
//! environments, two git revisions, or two sets of catalog files.
//!
//! Exit codes: 0 no change, 2 changes (nodes added or removed count), 1 a
//! node failed on either side, 3 the command could not run (README, "Exit
//! codes").

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use puppet_compiler::loader::Overrides;
use pverify_harness::diff::cache::ImpactCache;
use pverify_harness::diff::ignore::{Ignore, IgnoreRule};
use pverify_harness::diff::impact::ImpactStats;
use pverify_harness::diff::render::{render, render_markdown, Format};
use pverify_harness::diff::report::DiffReport;
use pverify_harness::diff::sides::{
    self, ControlMatrix, FactsFiles, NodeSource, NodesDir, Prepared, Ref, RefOptions,
};
use pverify_harness::diff::{content, CompareContext};

#[derive(Args)]
pub struct DiffArgs {
    /// The old side: an environment directory or a control repo with `pverify.yaml` (its matrix gives the nodes), or a git revision of the
    /// repository holding the current directory (a directory wins).
    #[arg(long, requires = "to", conflicts_with_all = ["from_catalogs", "to_catalogs"])]
    from: Option<String>,
    /// The new side, as --from.
    #[arg(long, requires = "from")]
    to: Option<String>,
    /// Old catalogs: a catalog JSON file, or a directory of `<node>.json`.
    #[arg(long, requires = "to_catalogs", conflicts_with_all = ["from", "to"])]
    from_catalogs: Option<PathBuf>,
    /// New catalogs, as --from-catalogs.
    #[arg(long, requires = "from_catalogs")]
    to_catalogs: Option<PathBuf>,
    /// Node files compiled on both sides (as `pverify compile --facts`).
    #[arg(long = "facts", num_args = 1..)]
    facts: Vec<PathBuf>,
    /// A directory of node files inside each side's tree (relative to the
    /// REF directory or the git checkout's root), read per side.
    #[arg(long, conflicts_with = "facts")]
    nodes_dir: Option<PathBuf>,
    /// Where the environment lives inside each REF's tree (a git checkout or
    /// a directory REF: `--from HEAD --to .` compares with the working tree).
    #[arg(long)]
    env_subdir: Option<PathBuf>,
    /// The repository for git REFs (default: the one holding the current
    /// directory).
    #[arg(long)]
    repo: Option<PathBuf>,
    /// For --from-catalogs: where the old side's `puppet:///modules/`
    /// sources are read (':'-separated modulepath).
    #[arg(long, value_delimiter = ':')]
    from_modulepath: Option<Vec<PathBuf>>,
    /// For --to-catalogs: the new side's modulepath.
    #[arg(long, value_delimiter = ':')]
    to_modulepath: Option<Vec<PathBuf>>,
    /// Ignore changes: `Type[title]` (`*` wildcards) or
    /// `Type[title]::parameters::name`. Repeatable.
    #[arg(long)]
    ignore: Vec<String>,
    /// Ignore resources carrying this tag. Repeatable.
    #[arg(long)]
    ignore_tag: Vec<String>,
    /// text, markdown, json, junit or html (one self-contained page).
    #[arg(long, default_value = "text")]
    format: Format,
    /// Add every node's own list of changes (text and markdown).
    #[arg(long)]
    detail: bool,
    /// Write the report here instead of stdout.
    #[arg(long)]
    output: Option<PathBuf>,
    #[command(flatten)]
    compile: crate::cli_opts_compile::CompileOpts,
    #[command(flatten)]
    review: crate::cli_opts_review::DiffReviewOpts,
    #[command(flatten)]
    shards: crate::cli_opts_shards::DiffShardOpts,
    #[command(flatten)]
    impact: crate::cli_opts_impact::ImpactOpts,
}

fn fail(msg: impl std::fmt::Display) -> ExitCode {
    eprintln!("pverify diff: {msg}");
    ExitCode::from(crate::cli_report::EXIT_SETUP)
}

pub fn run(args: DiffArgs) -> ExitCode {
    let shard = match args.shards.shard() {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    let mut ignore = Ignore {
        rules: Vec::new(),
        tags: args.ignore_tag.clone(),
    };
    for r in &args.ignore {
        match IgnoreRule::parse(r) {
            Ok(rule) => ignore.rules.push(rule),
            Err(e) => return fail(e),
        }
    }
    let mut stats = None;
    let report = match (&args.from, &args.to, &args.from_catalogs, &args.to_catalogs) {
        (Some(from), Some(to), None, None) => match diff_refs(&args, from, to, ignore, shard) {
            Ok((r, s)) => {
                stats = Some(s);
                r
            }
            Err(e) => return fail(e),
        },
        (None, None, Some(from), Some(to)) => {
            let (a, b) = match (sides::read_catalogs(from), sides::read_catalogs(to)) {
                (Ok(a), Ok(b)) => (a, b),
                (Err(e), _) | (_, Err(e)) => return fail(e),
            };
            // Two single files are the same node, whatever their names.
            // Named after the catalog that says its name (`to` first).
            let (a, b) = if from.is_file() && to.is_file() {
                let name = [&b[0], &a[0]]
                    .iter()
                    .find(|(_, c)| c.is_ok())
                    .unwrap_or(&&b[0])
                    .0
                    .clone();
                let rename = |v: Vec<(String, _)>| {
                    v.into_iter()
                        .map(|(_, c)| (name.clone(), c))
                        .collect::<Vec<_>>()
                };
                (rename(a), rename(b))
            } else {
                (a, b)
            };
            let (a, b) = match shard {
                Some(s) => match sides::shard_catalogs(a, b, s) {
                    Ok(sharded) => sharded,
                    Err(e) => return fail(e),
                },
                None => (a, b),
            };
            // Sources are read only in the modulepaths given (and --grant).
            let from_modulepath = args.from_modulepath.clone().unwrap_or_default();
            let to_modulepath = args.to_modulepath.clone().unwrap_or_default();
            let readable = |mp: &[PathBuf]| {
                let granted: Vec<PathBuf> = mp
                    .iter()
                    .chain(&args.compile.reads.grants)
                    .cloned()
                    .collect();
                Some(content::confined_files(&[], &granted))
            };
            let ctx = CompareContext {
                from_files: readable(&from_modulepath),
                to_files: readable(&to_modulepath),
                from_modulepath,
                to_modulepath,
                ignore,
            };
            DiffReport::build(
                &from.display().to_string(),
                &to.display().to_string(),
                a,
                b,
                &ctx,
            )
        }
        _ => return fail("give --from REF --to REF, or --from-catalogs A --to-catalogs B"),
    };
    // Nothing compared is no evidence of "no change" (a wrong --nodes-dir,
    // an empty catalog directory).
    if report.nodes.is_empty() {
        return fail("no nodes found on either side");
    }
    // On stderr, so the report is the same in every mode.
    let mut verify_failed = false;
    if let Some(stats) = &stats {
        eprintln!("pverify diff: {}", stats.line());
        for n in &stats.wrong_skips {
            eprintln!(
                "pverify diff: --verify-impact: {n}: its read set held, but its catalog changed"
            );
            verify_failed = true;
        }
    }
    let text = match args.format {
        Format::Markdown => {
            match markdown_within_budget(&args.review, args.output.as_ref(), args.detail, &report) {
                Ok(t) => t,
                Err(e) => return fail(e),
            }
        }
        Format::Json if shard.is_some() => {
            pverify_harness::diff::render::json::render_shard(&report, shard.unwrap_or((1, 1)))
        }
        _ => render(&report, args.format, args.detail),
    };
    // A report that cannot be written is a failed result (1), as on every
    // command, not a usage error.
    let written = match &args.output {
        Some(path) => std::fs::write(path, &text).map_err(|e| format!("{}: {e}", path.display())),
        None => crate::cli_writes::print_or_fail(text.as_bytes()),
    };
    if let Err(e) = written {
        eprintln!("pverify diff: {e}");
        return ExitCode::FAILURE;
    }
    if verify_failed {
        return ExitCode::from(pverify_harness::diff::report::EXIT_ERROR);
    }
    ExitCode::from(report.exit_code())
}

/// The Markdown within `--max-bytes`. When it had to be cut and no
/// `--full-report-url` says where the whole report is, `--output FILE`
/// also gets the full Markdown beside it (`FILE` → `<stem>.full.md`).
pub fn markdown_within_budget(
    r: &crate::cli_opts_review::DiffReviewOpts,
    output: Option<&PathBuf>,
    detail: bool,
    report: &DiffReport,
) -> Result<String, String> {
    if r.max_bytes != 0 && r.max_bytes < 2_000 {
        return Err(format!(
            "--max-bytes {}: at least 2000 (the summary must fit), or 0 for no limit",
            r.max_bytes
        ));
    }
    let full_path = output
        .filter(|_| r.full_report_url.is_none())
        .map(|p| p.with_extension("full.md"));
    let full_report = r
        .full_report_url
        .clone()
        .or_else(|| full_path.as_ref().map(|p| p.display().to_string()));
    let text = render_markdown(report, detail, r.max_bytes, full_report);
    let whole = render_markdown(report, detail, 0, None);
    if let Some(p) = full_path.filter(|_| text != whole) {
        std::fs::write(&p, &whole).map_err(|e| format!("{}: {e}", p.display()))?;
    }
    Ok(text)
}

/// The overrides of a side without a control repo: `--basemodulepath`, its
/// directories granted for reading.
fn pverify_compiler_overrides(basemodulepath: Option<&[String]>) -> Overrides {
    Overrides {
        basemodulepath: basemodulepath.map(|d| d.join(":")),
        grants: basemodulepath
            .unwrap_or_default()
            .iter()
            .map(PathBuf::from)
            .collect(),
        ..Overrides::default()
    }
}

fn diff_refs(
    args: &DiffArgs,
    from: &str,
    to: &str,
    mut ignore: Ignore,
    shard: Option<(usize, usize)>,
) -> Result<(DiffReport, ImpactStats), String> {
    let c = &args.compile;
    if c.exports.exports_run {
        return Err("--exports-run is not supported by diff (give --exports FILE)".into());
    }
    c.require_existing()?;
    let basemodulepath = c.basemodulepath().map(|dirs| {
        dirs.iter()
            .map(|d| d.to_string_lossy().into_owned())
            .collect::<Vec<_>>()
    });
    let mut overrides = pverify_compiler_overrides(basemodulepath.as_deref());
    overrides.modulepath = c.modulepath();
    overrides.manifest = c.manifest();
    overrides.grants.extend(c.operator_grants());
    let opts = RefOptions {
        repo: args.repo.clone(),
        env_subdir: args.env_subdir.clone(),
        // Each node's two sides compile at once: only the cores bound it.
        jobs: Some(crate::cli_opts_budgets::threads("diff", c.jobs, usize::MAX)),
        allow_generate: c.allow_generate,
        node_timeout: c.budgets.node_timeout,
        node_memory: c.budgets.node_memory,
        puppet: c.puppet,
        settings: c.settings(),
        modules: c.puppetfile.cache(),
        overrides,
        fact_overrides: c.fleet.fact_overrides.clone(),
        environmentpath: c.fleet.environmentpath.clone(),
        basemodulepath,
        enc_timeout: Some(c.enc_timeout.duration()?),
        exports: c.exports.read()?,
        hiera_config: c.hiera.hiera_config.clone(),
        eyaml_missing_key: c.hiera.eyaml_missing_key,
        mocks: c
            .mock_functions
            .as_deref()
            .map(crate::cli_opts_compile::absolute),
        enc: c.enc.as_deref().map(crate::cli_opts_compile::absolute),
        shard,
    };
    let a = Prepared::new(&Ref::parse(from), &opts)?;
    let b = Prepared::new(&Ref::parse(to), &opts)?;
    let nodes: Box<dyn NodeSource> = match (&args.nodes_dir, args.facts.is_empty()) {
        (Some(dir), _) => Box::new(NodesDir {
            dir: dir.clone(),
            enc: c.enc.clone(),
            enc_timeout: opts.enc_timeout,
        }),
        (None, false) => Box::new(FactsFiles {
            files: args.facts.clone(),
            enc: c.enc.clone(),
            enc_timeout: opts.enc_timeout,
        }),
        (None, true) if a.control.is_some() || b.control.is_some() => {
            // The new side's config says what the check leaves out.
            if let Some(Ok(repo)) = b.control.as_ref().or(a.control.as_ref()) {
                for i in &repo.config.ignores {
                    let rule = match &i.parameter {
                        Some(p) => format!("{}::parameters::{p}", i.resource),
                        None => i.resource.clone(),
                    };
                    ignore.rules.push(IgnoreRule::parse(&rule)?);
                }
            }
            Box::new(ControlMatrix)
        }
        (None, true) => {
            return Err(
                "no nodes: give --facts FILE... or --nodes-dir DIR, or compare control repos with a pverify.yaml"
                    .into(),
            )
        }
    };
    let cache = match &args.impact.cache {
        Some(dir) => Some(ImpactCache::open(dir)?),
        None => None,
    };
    sides::diff_refs(
        &a,
        &b,
        nodes.as_ref(),
        &opts,
        ignore,
        args.impact.mode(),
        cache.as_ref(),
    )
}
