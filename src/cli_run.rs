//! `pverify run [SUITE_DIR] [FILTER]`: runs spec-suite cases in parallel and
//! compares each with the expectation Puppet 7.23 recorded for it.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use rayon::prelude::*;

use pverify::eval::{self, Map, NodeInfo, Value};
use pverify::facts::from_json;
use pverify::harness::{self, Case, Expect};
use pverify::loader::{Environment, Overrides};

#[derive(Args)]
pub struct RunArgs {
    /// The suite directory.
    #[arg(default_value = "spec-suite")]
    suite: PathBuf,
    /// Only cases whose name (`topic/name`) contains this.
    filter: Option<String>,
    /// Threads (default: all cores).
    #[arg(long)]
    jobs: Option<usize>,
}

/// The node object of a case, as the oracle builds it for Puppet.
pub fn node_for(case: &Case, facts: &serde_json::Value) -> NodeInfo {
    let mut node = NodeInfo {
        name: case.node.clone(),
        ..NodeInfo::default()
    };
    if let Value::Hash(h) = from_json(facts) {
        node.facts = (*h).clone();
    }
    if let Some(t) = &case.trusted {
        if let Some(x) = t.get("extensions") {
            if let Value::Hash(h) = from_json(x) {
                node.trusted_extensions = (*h).clone();
            }
        }
        if let Some(x) = t.get("external") {
            if let Value::Hash(h) = from_json(x) {
                node.trusted_external = (*h).clone();
            }
        }
    }
    match case.classes.as_ref().map(from_json) {
        Some(Value::Array(a)) => node.classes = a.iter().map(|c| (c.to_string(), None)).collect(),
        Some(Value::Hash(m)) => {
            node.classes = m
                .iter()
                .map(|(k, v)| {
                    let p = match v {
                        Value::Hash(p) => Some((**p).clone()),
                        _ => Some(Map::new()),
                    };
                    (k.to_string(), p)
                })
                .collect()
        }
        _ => {}
    }
    if let Some(Value::Hash(p)) = case.parameters.as_ref().map(from_json) {
        node.parameters = (*p).clone();
    }
    if let Some(Value::Hash(p)) = case.settings.as_ref().map(from_json) {
        node.settings = (*p).clone();
    }
    for (k, v) in harness::SERVER_FACTS {
        node.server_facts
            .insert(Value::string(*k), Value::string(*v));
    }
    node
}

/// What pverify makes of a case: the canonical catalog or the error text.
pub fn run_case(case: &Case, work: &Path) -> Expect {
    let env_dir = work
        .join(case.name().replace('/', "__"))
        .join(&case.environment);
    let _ = std::fs::remove_dir_all(&env_dir);
    if let Err(e) = harness::materialize(case, &env_dir) {
        return Expect::Error(format!("cannot write the case's environment: {e}"));
    }
    let facts = match case.resolve_facts(Path::new(harness::FACTSETS_DIR)) {
        Ok(f) => f,
        Err(e) => return Expect::Error(e),
    };
    let env = match Environment::boot(&env_dir, &Overrides::default()) {
        Ok(e) => e,
        Err(e) => return Expect::Error(e),
    };
    let dir = env_dir.display().to_string();
    let node = node_for(case, &facts);
    let name = node.name.clone();
    match eval::compile(&env, node) {
        Ok(c) => Expect::Catalog(harness::canonicalize_catalog(&c.catalog, &dir)),
        Err(e) => Expect::Error(harness::relativize_text(&e.for_node(&name), &dir)),
    }
}

pub fn run(args: RunArgs) -> ExitCode {
    let mut cases = match harness::load_suite(&args.suite) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("pverify run: {e}");
            return ExitCode::from(2);
        }
    };
    if let Some(f) = &args.filter {
        cases.retain(|c| c.name().contains(f.as_str()));
    }
    let work = std::env::temp_dir().join(format!("pverify-run-{}", std::process::id()));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.jobs.unwrap_or(0))
        .stack_size(64 << 20)
        .build();
    let Ok(pool) = pool else {
        eprintln!("pverify run: cannot start threads");
        return ExitCode::from(2);
    };
    let results: Vec<(String, Result<(), String>)> = pool.install(|| {
        cases
            .par_iter()
            .map(|case| {
                let got = run_case(case, &work);
                let verdict = match (&case.expect, &got) {
                    (Expect::Catalog(a), Expect::Catalog(b)) if a == b => Ok(()),
                    (Expect::Error(a), Expect::Error(b)) if a == b => Ok(()),
                    (Expect::None, _) => Err("no expectation recorded".to_string()),
                    (want, got) => Err(describe(want, got)),
                };
                (case.name(), verdict)
            })
            .collect()
    });
    let _ = std::fs::remove_dir_all(&work);
    let mut failed = 0;
    for (name, v) in &results {
        match v {
            Ok(()) => println!("ok     {name}"),
            Err(why) => {
                failed += 1;
                println!("FAILED {name}\n{why}");
            }
        }
    }
    println!("{} passed, {failed} failed", results.len() - failed);
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn describe(want: &Expect, got: &Expect) -> String {
    let text = |e: &Expect| match e {
        Expect::Catalog(c) => c.clone(),
        Expect::Error(e) => format!("error: {e}"),
        Expect::None => String::new(),
    };
    let diff = similar::TextDiff::from_lines(&text(want), &text(got))
        .unified_diff()
        .context_radius(3)
        .header("expected (Puppet 7.23)", "pverify")
        .to_string();
    diff.lines().map(|l| format!("    {l}\n")).collect()
}
