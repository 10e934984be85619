//! `pverify compile ENV_DIR --facts FILE...`: one catalog per node file,
//! compiled in parallel; a failing node never stops the others.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use rayon::prelude::*;
use serde_json::json;

use puppet_compiler::eval;
use puppet_compiler::facts::sources::{node_files_in, read_node_sources, SourceNode};
use puppet_compiler::loader::environments::Environments;
use puppet_compiler::loader::{Environment, Overrides};
use pverify_harness::output::{OutDir, REPORT_FILE};

use crate::cli_opts_compile::absolute;
use crate::cli_writes::Claims;

#[derive(Args)]
pub struct CompileArgs {
    /// The environment directory (with manifests/, modules/, environment.conf).
    env: PathBuf,
    /// Node files: `{"name": certname, "values": {facts}}` (JSON or YAML), with
    /// optional `classes`, `parameters`, `environment`, `trusted`; a Puppet
    /// server's YAML fact cache; PuppetDB's inventory JSON (one node per
    /// entry); or a directory of any of these.
    #[arg(long = "facts", required = true, num_args = 1..)]
    facts: Vec<PathBuf>,
    /// Write `<certname>.json` per node and `report.json` here (else the one
    /// node's catalog goes to stdout); nothing is written outside it (a
    /// certname Puppet refuses, or `report`, is that node's error).
    #[arg(long)]
    out_dir: Option<PathBuf>,
    #[command(flatten)]
    opts: crate::cli_opts_compile::CompileOpts,
}

/// Exported resources every node's collectors see.
type Store = Option<std::sync::Arc<puppet_compiler::facts::exports::Exports>>;

struct Outcome {
    name: String,
    /// The node file it came from.
    file: PathBuf,
    /// The catalog's text, kept only without `--out-dir` (one node, to
    /// stdout); with it each catalog is written as soon as it is compiled and
    /// dropped, so memory does not grow with the number of nodes.
    result: Result<Option<Vec<u8>>, String>,
    millis: u128,
}

pub fn run(args: CompileArgs) -> ExitCode {
    if let Err(e) = args.opts.require_existing() {
        eprintln!("pverify compile: {e}");
        return ExitCode::from(crate::cli_report::EXIT_SETUP);
    }
    let puppet = args.opts.puppet.unwrap_or_default();
    // What the operator names on the command line may be read, and the
    // reference's Debian modules (system configuration).
    let mut grants = args.opts.operator_grants();
    grants.push(pverify_harness::reference::debian_modules(puppet));
    let mut overrides = Overrides {
        modulepath: args.opts.modulepath(),
        manifest: args.opts.manifest(),
        basemodulepath: args.opts.basemodulepath().map(|dirs| {
            dirs.iter()
                .map(|d| d.to_string_lossy())
                .collect::<Vec<_>>()
                .join(":")
        }),
        grants,
        ..Overrides::default()
    };
    // A hiera.yaml replacing the environment's (relative: to the
    // environment directory, as check and diff read it).
    if let Some(h) = &args.opts.hiera.hiera_config {
        let h = absolute(&args.env.join(h));
        if let Err(e) = crate::cli_writes::require_existing("--hiera-config", Some(&h)) {
            eprintln!("pverify compile: {e}");
            return ExitCode::from(crate::cli_report::EXIT_SETUP);
        }
        overrides
            .grants
            .extend(puppet_compiler::hiera::config::operator_grants(&h));
        overrides.hiera_config = Some(h);
    }
    if let Some(m) = args.opts.hiera.eyaml_missing_key {
        overrides.eyaml.missing_key = m;
    }
    let deployment =
        match pverify_harness::puppetfile::deploy(&args.env, &args.opts.puppetfile.cache()) {
            Ok(d) => d,
            Err(e) => {
                eprintln!("pverify compile: {e}");
                return ExitCode::from(crate::cli_report::EXIT_SETUP);
            }
        };
    if let Some(d) = &deployment {
        for e in &d.errors {
            eprintln!("pverify compile: {e}");
        }
        d.apply(&mut overrides);
    }
    let envs = Environments::around(
        &args.env,
        args.opts.fleet.environmentpath.as_deref(),
        overrides,
    );
    let env = match envs.get(None) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("pverify compile: {e}");
            return ExitCode::from(crate::cli_report::EXIT_SETUP);
        }
    };
    // Directories of node files are listed now; each file is read when its
    // turn comes.
    let mut files = Vec::new();
    for f in &args.facts {
        if f.is_dir() {
            match node_files_in(f) {
                Ok(found) => files.extend(found),
                Err(e) => {
                    eprintln!("pverify compile: {e}");
                    return ExitCode::from(crate::cli_report::EXIT_SETUP);
                }
            }
        } else {
            files.push(f.clone());
        }
    }
    let mocks = match args.opts.mocks() {
        Ok(m) => m.unwrap_or_default(),
        Err(e) => {
            eprintln!("pverify compile: {e}");
            return ExitCode::from(crate::cli_report::EXIT_SETUP);
        }
    };
    if args.out_dir.is_none() && files.len() != 1 {
        eprintln!("pverify compile: several node files need --out-dir");
        return ExitCode::from(crate::cli_report::EXIT_SETUP);
    }
    let out_dir = match args.out_dir.as_deref().map(OutDir::create).transpose() {
        Ok(d) => d,
        Err(e) => {
            eprintln!("pverify compile: {e}");
            return ExitCode::from(crate::cli_report::EXIT_SETUP);
        }
    };
    if let Some(d) = &out_dir {
        d.remove_stale();
    }
    let threads = crate::cli_opts_budgets::threads("compile", args.opts.jobs, args.facts.len());
    // Fewer nodes than the threads asked for leave room for parse-ahead.
    let wanted = match args.opts.jobs {
        Some(j) if j > 0 => j,
        _ => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let pool = match rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .stack_size(64 << 20)
        .build()
    {
        Ok(p) => p,
        Err(e) => {
            eprintln!("pverify compile: {e}");
            return ExitCode::from(crate::cli_report::EXIT_SETUP);
        }
    };
    // Fewer nodes than threads (one node, above all): a spare thread parses
    // the manifests the compile will ask for next (`loader::parse_ahead`).
    // It is not joined: the process ends when the nodes are done, whatever
    // file it is in the middle of (so the environment lives as long as the
    // process).
    let env: &'static Environment = Box::leak(Box::new(env));
    if files.len() < wanted {
        env.enable_parse_ahead();
        let worker = std::thread::Builder::new()
            .name("parse-ahead".into())
            .stack_size(64 << 20)
            .spawn(move || env.parse_ahead_worker());
        if let Err(e) = worker {
            eprintln!("pverify compile: no parse-ahead thread: {e}");
        }
    }
    let store = match args.opts.exports.read() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("pverify compile: --exports {e}");
            return ExitCode::from(crate::cli_report::EXIT_SETUP);
        }
    };
    let store = if args.opts.exports.exports_run {
        run_exports(&args, &files, &envs, &mocks, &pool, store)
    } else {
        store
    };
    let claims = Claims::default();
    let mut outcomes = compile_all(
        &args,
        &files,
        &envs,
        &mocks,
        &pool,
        (out_dir.as_ref(), &claims),
        &store,
    );
    if let Some(dir) = &out_dir {
        refuse_duplicates(&mut outcomes, claims, dir);
    }
    let mut failed = outcomes.iter().filter(|o| o.result.is_err()).count();
    let mut write_failed = false;
    match &out_dir {
        None if outcomes.len() != 1 => {
            eprintln!(
                "pverify compile: {} holds {} nodes: several nodes need --out-dir",
                files[0].display(),
                outcomes.len()
            );
            return ExitCode::from(crate::cli_report::EXIT_SETUP);
        }
        None => {
            let o = &outcomes[0];
            match &o.result {
                Ok(text) => {
                    let mut bytes = text.clone().unwrap_or_else(|| b"null".to_vec());
                    bytes.push(b'\n');
                    if let Err(e) = crate::cli_writes::print_or_fail(&bytes) {
                        eprintln!("pverify compile: {e}");
                        write_failed = true;
                    }
                }
                Err(e) => eprintln!("Error: {e}"),
            }
        }
        Some(dir) => {
            let mut report = Vec::new();
            for o in &outcomes {
                match &o.result {
                    Ok(_) => {
                        report.push(json!({"name": o.name, "status": "compiled", "millis": o.millis as u64}));
                    }
                    Err(e) => {
                        eprintln!("Error: {e}");
                        report.push(json!({"name": o.name, "status": "failed", "error": e, "millis": o.millis as u64}));
                    }
                }
            }
            let text = serde_json::to_string_pretty(&json!({"nodes": report})).unwrap_or_default();
            let path = dir.path().join(REPORT_FILE);
            if let Err(e) = pverify_harness::output::write_replacing(&path, text.as_bytes()) {
                eprintln!("pverify compile: {}: {e}", path.display());
                write_failed = true;
            }
            eprintln!("compiled {} nodes, {failed} failed", outcomes.len());
        }
    }
    // A report or catalog that could not be written is a failure too.
    failed += usize::from(write_failed);
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Every node of a certname two node files share fails, and the catalog
/// the first one wrote is removed: which file's catalog it was is not the
/// operator's to guess.
fn refuse_duplicates(outcomes: &mut [Outcome], claims: Claims, dir: &OutDir) {
    for (name, first, error) in claims.duplicates() {
        if let Ok(path) = dir.node_file(&name) {
            let _ = std::fs::remove_file(path);
        }
        for o in outcomes.iter_mut() {
            if o.name == name && o.file == first {
                o.result = Err(error.clone());
            }
        }
    }
}

/// Compiles every node file on the pool's threads; each catalog is written
/// as soon as it is compiled when there is an output directory.
fn compile_all(
    args: &CompileArgs,
    files: &[PathBuf],
    envs: &Environments,
    mocks: &std::sync::Arc<eval::FunctionMocks>,
    pool: &rayon::ThreadPool,
    (out_dir, claims): (Option<&OutDir>, &Claims),
    store: &Store,
) -> Vec<Outcome> {
    pool.install(|| {
        files
            .par_iter()
            // A file is one node, or an inventory's many.
            .flat_map_iter(|f| {
                let nodes = read_node_sources(f)
                    .unwrap_or_else(|e| vec![Err((f.display().to_string(), e))]);
                nodes.into_iter().map(move |n| (f, n))
            })
            // One catalog buffer per worker, reused from node to node when
            // catalogs go to files: a fresh one per node was allocated,
            // grown and faulted in again each time.
            .map_init(
                || Vec::with_capacity(eval::CATALOG_BUFFER),
                |text, (f, source): (&PathBuf, SourceNode)| {
                    let start = Instant::now();
                    let (source_name, node) = match source {
                        Ok(n) => (n.name.clone(), Ok(n)),
                        Err((name, e)) => (name, Err(e)),
                    };
                    let node = node.and_then(|n| make_node(args, n, mocks, store));
                    // Claimed before compiling: a second file with the
                    // certname, or the certname `report`, is refused.
                    let node = node.and_then(|n| match out_dir {
                        Some(_) => claims.claim(&n.name, f).map(|()| n),
                        None => Ok(n),
                    });
                    // The node's environment: its own (node file, ENC), else the default.
                    let node = node.and_then(|n| {
                        let env = envs.get(n.environment.as_deref())?;
                        Ok((n, env))
                    });
                    match node {
                        Err(e) => Outcome {
                            name: source_name,
                            file: f.clone(),
                            result: Err(e),
                            millis: 0,
                        },
                        Ok((node, env)) => {
                            let name = node.name.clone();
                            text.clear();
                            let result = eval::compile_pretty(&env, node, text)
                                .map_err(|e| e.for_node(&name))
                                .and_then(|_| match out_dir {
                                    None => Ok(Some(std::mem::replace(
                                        text,
                                        Vec::with_capacity(eval::CATALOG_BUFFER),
                                    ))),
                                    Some(dir) => dir.write_node(&name, text).map(|_| None),
                                });
                            Outcome {
                                name,
                                file: f.clone(),
                                result,
                                millis: start.elapsed().as_millis(),
                            }
                        }
                    }
                },
            )
            .collect()
    })
}

/// A node read from its source as the node to compile, with the command
/// line's additions.
fn make_node(
    args: &CompileArgs,
    mut n: eval::NodeInfo,
    mocks: &std::sync::Arc<eval::FunctionMocks>,
    store: &Store,
) -> Result<eval::NodeInfo, String> {
    for o in &args.opts.fleet.fact_overrides {
        o.apply(std::sync::Arc::make_mut(&mut n.facts));
    }
    if let Some(enc) = &args.opts.enc {
        let limit = args.opts.enc_timeout.duration()?;
        puppet_compiler::facts::apply_enc_within(&mut n, enc, limit)?;
    }
    n.function_mocks = mocks.clone();
    n.allow_generate = args.opts.allow_generate;
    n.puppet = args.opts.puppet.unwrap_or_default();
    n.budget = args.opts.budgets.limits(None, None);
    if args.opts.exports.any() {
        n.settings.storeconfigs = Some(true);
    }
    for s in &args.opts.settings() {
        n.settings.set_assignment(s).map_err(|e| e.to_string())?;
    }
    if let Some(s) = store {
        n.exports = s.clone();
    }
    Ok(n)
}

/// `--exports-run`: the exports of every node file once they have all run
/// (over `--exports`' snapshot, each node's entries replaced by its own):
/// compiled until the exports no longer change (at most 4 rounds).
fn run_exports(
    args: &CompileArgs,
    files: &[PathBuf],
    envs: &Environments,
    mocks: &std::sync::Arc<eval::FunctionMocks>,
    pool: &rayon::ThreadPool,
    base: Store,
) -> Store {
    use puppet_compiler::facts::exports::Exports;
    let base = base.unwrap_or_default();
    let mut store = base.clone();
    for _ in 0..4 {
        let gathered: Vec<Option<(String, Vec<_>)>> = pool.install(|| {
            files
                .par_iter()
                .flat_map_iter(|f| read_node_sources(f).unwrap_or_default())
                .map(|source| {
                    let node = make_node(args, source.ok()?, mocks, &Some(store.clone())).ok()?;
                    let name = node.name.clone();
                    let env = envs.get(node.environment.as_deref()).ok()?;
                    let c = eval::compile(&env, node).ok()?;
                    let exports = Exports::of_catalog(&name, &c.catalog);
                    Some((name, exports))
                })
                .collect()
        });
        let mut next = (*base).clone();
        for (name, exports) in gathered.into_iter().flatten() {
            next.replace_node(&name, exports);
        }
        let next = std::sync::Arc::new(next);
        if next == store {
            break;
        }
        store = next;
    }
    Some(store)
}
