//! `pverify compile ENV_DIR --facts FILE...`: one catalog per node file,
//! compiled in parallel; a failing node never stops the others.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use rayon::prelude::*;
use serde_json::json;

use pverify::eval;
use pverify::loader::{Environment, Overrides};

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
}

struct Outcome {
    name: String,
    result: Result<serde_json::Value, String>,
    millis: u128,
}

pub fn run(args: CompileArgs) -> ExitCode {
    let overrides = Overrides {
        modulepath: args.modulepath.clone(),
        manifest: args.manifest.clone(),
    };
    let env = match Environment::boot(&args.env, &overrides) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("pverify compile: {e}");
            return ExitCode::from(2);
        }
    };
    if args.out_dir.is_none() && args.facts.len() != 1 {
        eprintln!("pverify compile: several node files need --out-dir");
        return ExitCode::from(2);
    }
    let pool = match rayon::ThreadPoolBuilder::new()
        .num_threads(args.jobs.unwrap_or(0))
        .stack_size(64 << 20)
        .build()
    {
        Ok(p) => p,
        Err(e) => {
            eprintln!("pverify compile: {e}");
            return ExitCode::from(2);
        }
    };
    let outcomes: Vec<Outcome> = pool.install(|| {
        args.facts
            .par_iter()
            .map(|f| {
                let start = Instant::now();
                let node = pverify::facts::read_node_file(f).and_then(|mut n| {
                    if let Some(enc) = &args.enc {
                        pverify::facts::apply_enc(&mut n, enc)?;
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
                        let result = eval::compile(&env, node)
                            .map(|c| c.catalog)
                            .map_err(|e| e.for_node(&name));
                        Outcome {
                            name,
                            result,
                            millis: start.elapsed().as_millis(),
                        }
                    }
                }
            })
            .collect()
    });
    let failed = outcomes.iter().filter(|o| o.result.is_err()).count();
    match &args.out_dir {
        None => {
            let o = &outcomes[0];
            match &o.result {
                Ok(cat) => {
                    let mut out = std::io::stdout().lock();
                    let _ = writeln!(
                        out,
                        "{}",
                        serde_json::to_string_pretty(cat).unwrap_or_default()
                    );
                }
                Err(e) => eprintln!("Error: {e}"),
            }
        }
        Some(dir) => {
            if let Err(e) = std::fs::create_dir_all(dir) {
                eprintln!("pverify compile: {}: {e}", dir.display());
                return ExitCode::from(2);
            }
            let mut report = Vec::new();
            for o in &outcomes {
                match &o.result {
                    Ok(cat) => {
                        let path = dir.join(format!("{}.json", o.name));
                        let text = serde_json::to_string_pretty(cat).unwrap_or_default();
                        if let Err(e) = write_atomically(&path, &text) {
                            eprintln!("pverify compile: {}: {e}", path.display());
                        }
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
fn write_atomically(path: &std::path::Path, text: &str) -> std::io::Result<()> {
    let tmp = path.with_extension("json.tmp");
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, path)
}
