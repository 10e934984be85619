//! `pverify compile ENV_DIR --facts FILE...`: one catalog per node file,
//! compiled in parallel; a failing node never stops the others.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use rayon::prelude::*;
use serde_json::json;

use puppet_compiler::eval;
use puppet_compiler::loader::{Environment, Overrides};

#[derive(Args)]
pub struct CompileArgs {
    /// The environment directory (with manifests/, modules/, environment.conf).
    env: PathBuf,
    /// Node files: `{"name": certname, "values": {facts}}` (JSON or YAML), with
    /// optional `classes`, `parameters`, `environment`, `trusted`.
    #[arg(long = "facts", required = true, num_args = 1..)]
    facts: Vec<PathBuf>,
    /// Write `<certname>.json` per node and `report.json` here (else the one
    /// node's catalog goes to stdout).
    #[arg(long)]
    out_dir: Option<PathBuf>,
    /// Threads to compile with (default: all cores).
    #[arg(long)]
    jobs: Option<usize>,
    /// Modulepath to use instead of the environment's (':'-separated).
    #[arg(long, value_delimiter = ':')]
    modulepath: Option<Vec<PathBuf>>,
    /// The main manifest (file or directory) instead of the environment's.
    #[arg(long)]
    manifest: Option<PathBuf>,
    /// An external node classifier: run with each certname, its YAML
    /// (`classes`, `parameters`, `environment`) is merged into the node.
    #[arg(long)]
    enc: Option<PathBuf>,
    /// Seconds the ENC may run for one node before it counts as hung.
    #[arg(long = "enc-timeout", default_value_t = 10.0)]
    enc_timeout: f64,
    /// Function mocks (onceover's format: YAML `functions: {name: value}`):
    /// each named function returns its value instead of running.
    #[arg(long = "mock-functions")]
    mock_functions: Option<PathBuf>,
    /// Let `generate()` run its command, as Puppet does (absolute path, no
    /// shell, in the command's directory); refused by default.
    #[arg(long = "allow-generate")]
    allow_generate: bool,
    /// The Puppet version to compile as: 7 (7.23) or 8 (8.10).
    #[arg(long, value_parser = crate::cli_report::parse_puppet, default_value = "8")]
    puppet: pverify_harness::reference::PuppetVersion,
    /// The global Hiera configuration (Puppet's `hiera_config` setting); without
    /// it there is no global Hiera layer.
    #[arg(long)]
    hiera_config: Option<PathBuf>,
    /// A Puppet setting for every node, `NAME=VALUE` (repeatable;
    /// docs/settings.md lists them), e.g. `--setting strict=warning`.
    #[arg(long = "setting", value_name = "NAME=VALUE", value_parser = crate::cli_report::parse_setting)]
    settings: Vec<String>,
    #[command(flatten)]
    budgets: crate::cli_opts_budgets::BudgetArgs,
}

struct Outcome {
    name: String,
    /// The catalog's text, kept only without `--out-dir` (one node, to
    /// stdout); with it each catalog is written as soon as it is compiled and
    /// dropped, so memory does not grow with the number of nodes.
    result: Result<Option<Vec<u8>>, String>,
    millis: u128,
}

pub fn run(args: CompileArgs) -> ExitCode {
    let overrides = Overrides {
        modulepath: args.modulepath.clone(),
        manifest: args.manifest.clone(),
        ..Overrides::default()
    };
    let env = match Environment::boot(&args.env, &overrides) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("pverify compile: {e}");
            return ExitCode::from(2);
        }
    };
    let mocks = match &args.mock_functions {
        None => std::sync::Arc::new(eval::FunctionMocks::default()),
        Some(p) => match eval::FunctionMocks::from_file(p) {
            Ok(m) => std::sync::Arc::new(m),
            Err(e) => {
                eprintln!("pverify compile: {e}");
                return ExitCode::from(2);
            }
        },
    };
    if args.out_dir.is_none() && args.facts.len() != 1 {
        eprintln!("pverify compile: several node files need --out-dir");
        return ExitCode::from(2);
    }
    if let Some(dir) = &args.out_dir {
        if let Err(e) = std::fs::create_dir_all(dir) {
            eprintln!("pverify compile: {}: {e}", dir.display());
            return ExitCode::from(2);
        }
    }
    let threads = crate::cli_opts_budgets::threads("compile", args.jobs, args.facts.len());
    // Fewer nodes than the threads asked for leave room for parse-ahead.
    let wanted = match args.jobs {
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
            return ExitCode::from(2);
        }
    };
    // Fewer nodes than threads (one node, above all): a spare thread parses
    // the manifests the compile will ask for next (`loader::parse_ahead`).
    // It is not joined: the process ends when the nodes are done, whatever
    // file it is in the middle of (so the environment lives as long as the
    // process).
    let env: &'static Environment = Box::leak(Box::new(env));
    if args.facts.len() < wanted {
        env.enable_parse_ahead();
        let worker = std::thread::Builder::new()
            .name("parse-ahead".into())
            .stack_size(64 << 20)
            .spawn(move || env.parse_ahead_worker());
        if let Err(e) = worker {
            eprintln!("pverify compile: no parse-ahead thread: {e}");
        }
    }
    let outcomes = compile_all(&args, env, &mocks, &pool);
    let failed = outcomes.iter().filter(|o| o.result.is_err()).count();
    match &args.out_dir {
        None => {
            let o = &outcomes[0];
            match &o.result {
                Ok(text) => {
                    let mut out = std::io::stdout().lock();
                    let _ = out.write_all(text.as_deref().unwrap_or(b"null"));
                    let _ = out.write_all(b"\n");
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
            if let Err(e) = write_atomically(&dir.join("report.json"), &text) {
                eprintln!("pverify compile: report.json: {e}");
            }
            eprintln!("compiled {} nodes, {failed} failed", outcomes.len());
        }
    }
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// A temporary file renamed into place, so no reader sees half a catalog.
fn write_atomically(path: &std::path::Path, text: impl AsRef<[u8]>) -> std::io::Result<()> {
    let tmp = path.with_extension("json.tmp");
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, path)
}

/// Compiles every node file on the pool's threads; each catalog is written
/// as soon as it is compiled when there is an output directory.
fn compile_all(
    args: &CompileArgs,
    env: &Environment,
    mocks: &std::sync::Arc<eval::FunctionMocks>,
    pool: &rayon::ThreadPool,
) -> Vec<Outcome> {
    pool.install(|| {
        args.facts
            .par_iter()
            // One catalog buffer per worker, reused from node to node when
            // catalogs go to files: a fresh one per node was allocated,
            // grown and faulted in again each time.
            .map_init(
                || Vec::with_capacity(eval::CATALOG_BUFFER),
                |text, f| {
                    let start = Instant::now();
                    let node = puppet_compiler::facts::read_node_file(f).and_then(|mut n| {
                        if let Some(enc) = &args.enc {
                            let limit = std::time::Duration::try_from_secs_f64(args.enc_timeout)
                                .map_err(|e| format!("--enc-timeout {}: {e}", args.enc_timeout))?;
                            puppet_compiler::facts::apply_enc_within(&mut n, enc, limit)?;
                        }
                        n.function_mocks = mocks.clone();
                        n.allow_generate = args.allow_generate;
                        n.puppet = args.puppet;
                        n.budget = args.budgets.limits(None, None);
                        for s in &args.settings {
                            n.settings.set_assignment(s).map_err(|e| e.to_string())?;
                        }
                        if let Some(h) = &args.hiera_config {
                            let abs = std::path::absolute(h).unwrap_or_else(|_| h.clone());
                            n.settings.hiera_config = Some(abs.to_string_lossy().into_owned());
                        }
                        Ok(n)
                    });
                    match node {
                        Err(e) => Outcome {
                            name: f.display().to_string(),
                            result: Err(e),
                            millis: 0,
                        },
                        Ok(node) => {
                            let name = node.name.clone();
                            text.clear();
                            let result = eval::compile_pretty(env, node, text)
                                .map_err(|e| e.for_node(&name))
                                .and_then(|_| match &args.out_dir {
                                    None => Ok(Some(std::mem::replace(
                                        text,
                                        Vec::with_capacity(eval::CATALOG_BUFFER),
                                    ))),
                                    Some(dir) => {
                                        let path = dir.join(format!("{name}.json"));
                                        write_atomically(&path, &*text)
                                            .map(|()| None)
                                            .map_err(|e| format!("{}: {e}", path.display()))
                                    }
                                });
                            Outcome {
                                name,
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
