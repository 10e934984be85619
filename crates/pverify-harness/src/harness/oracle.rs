//! Puppet as an oracle, from the library: the driver script
//! `crates/pverify-harness/puppet/compile.rb` (embedded in the binary, written to a temporary
//! file when needed) compiles nodes with a reference Puppet's own compiler
//! (7.23 or 8.10, see [`crate::reference`]) in a few warm Ruby processes. `pverify run --oracle puppet` and
//! `pverify check --oracle puppet` use it; `cargo xtask oracle-compile` runs
//! the same script.

use std::io::Write;
use std::path::Path;
use std::process::Stdio;

use serde_json::{json, Value};

use crate::reference::{PuppetVersion, Reference};

use super::{canonicalize_catalog, materialize, relativize_text, Case, Expect};

/// The driver script (see its header for the request and reply formats).
pub const DRIVER: &str = include_str!("../../puppet/compile.rb");

/// Nodes per Ruby process below which another process is not worth its
/// start-up (about 0.6 s).
const MIN_NODES_PER_PROCESS: usize = 10;

/// Compiles `nodes` (the driver's node requests, each naming its
/// `environmentpath` and `environment`) with Puppet, in at most `workers`
/// processes (0: one per core); one reply per node, in order.
pub fn compile_with_puppet(
    puppet: &Reference,
    nodes: &[Value],
    workers: usize,
) -> Result<Vec<Value>, String> {
    if nodes.is_empty() {
        return Ok(Vec::new());
    }
    let dir = tempfile::Builder::new()
        .prefix("pverify-driver-")
        .tempdir()
        .map_err(|e| format!("cannot make a temporary directory: {e}"))?;
    let driver = dir.path().join("compile.rb");
    std::fs::write(&driver, DRIVER).map_err(|e| format!("{}: {e}", driver.display()))?;
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    let workers = if workers == 0 { cores } else { workers }
        .min(nodes.len().div_ceil(MIN_NODES_PER_PROCESS))
        .max(1);
    let chunk = nodes.len().div_ceil(workers);
    let results: Vec<Result<Vec<Value>, String>> = std::thread::scope(|s| {
        let handles: Vec<_> = nodes
            .chunks(chunk)
            .map(|part| s.spawn(|| run_driver(puppet, &driver, part)))
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err("driver thread panicked".into()))
            })
            .collect()
    });
    let mut replies = Vec::with_capacity(nodes.len());
    for r in results {
        replies.extend(r?);
    }
    Ok(replies)
}

/// Runs one `ruby compile.rb` over `nodes`; one reply per node, in order.
fn run_driver(puppet: &Reference, driver: &Path, nodes: &[Value]) -> Result<Vec<Value>, String> {
    let request = json!({ "environment": "production", "nodes": nodes });
    // The environments, their base module directories (and the driver) must
    // be visible to Puppet.
    let mut dirs: Vec<&Path> = nodes
        .iter()
        .filter_map(|n| n["environmentpath"].as_str().map(Path::new))
        .chain(nodes.iter().flat_map(|n| {
            n["basemodulepath"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|d| d.as_str().map(Path::new))
        }))
        .collect();
    dirs.sort();
    dirs.dedup();
    if let Some(d) = driver.parent() {
        dirs.push(d);
    }
    let mut child = puppet
        .command("ruby", &dirs)
        .arg(driver)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("running ruby {}: {e}", driver.display()))?;
    let Some(mut stdin) = child.stdin.take() else {
        return Err("ruby's stdin is not piped".into());
    };
    let body = serde_json::to_vec(&request).map_err(|e| e.to_string())?;
    let writer = std::thread::spawn(move || stdin.write_all(&body));
    let out = child
        .wait_with_output()
        .map_err(|e| format!("waiting for ruby: {e}"))?;
    writer
        .join()
        .map_err(|_| "writer thread panicked".to_string())?
        .map_err(|e| format!("writing the request to ruby: {e}"))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let replies: Vec<Value> = stdout
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(serde_json::from_str)
        .collect::<Result<_, _>>()
        .map_err(|e| format!("compile.rb printed something that is not JSON: {e}"))?;
    if !out.status.success() || replies.len() != nodes.len() {
        return Err(format!(
            "compile.rb failed ({}, {} of {} replies):\n{}",
            out.status,
            replies.len(),
            nodes.len(),
            String::from_utf8_lossy(&out.stderr).trim_end()
        ));
    }
    for (node, reply) in nodes.iter().zip(&replies) {
        if node["name"] != reply["name"] {
            return Err(format!(
                "compile.rb answered for {} when {} was expected",
                reply["name"], node["name"]
            ));
        }
    }
    Ok(replies)
}

/// Puppet's result for a node in canonical terms: the catalog or the error
/// text, and the warnings, with paths relative to `env_dir`.
pub fn observed(reply: &Value, env_dir: &str) -> Result<(Expect, Vec<String>), String> {
    let expect = match reply["status"].as_str() {
        Some("compiled") => Expect::Catalog(canonicalize_catalog(&reply["catalog"], env_dir)),
        Some("failed") => Expect::Error(relativize_text(
            reply["error"]
                .as_str()
                .ok_or("a failure without an error")?,
            env_dir,
        )),
        // Puppet's result held bytes that are not UTF-8, which no JSON
        // reply carries: compared as this error, it agrees with nothing.
        Some("unrepresentable") => Expect::Error(format!(
            "(pverify's driver) {}",
            reply["error"].as_str().unwrap_or_default()
        )),
        other => return Err(format!("unknown status {other:?}")),
    };
    let warnings = reply["warnings"]
        .as_array()
        .ok_or("no warnings list")?
        .iter()
        .map(|w| w.as_str().map(|w| relativize_text(w, env_dir)))
        .collect::<Option<Vec<_>>>()
        .ok_or("a warning that is not a string")?;
    Ok((expect, warnings))
}

/// The oracle's request for one case: its environment written under
/// `envpath`, and the node as `compile.rb` takes it.
pub fn case_request(
    c: &Case,
    envpath: &Path,
    factsets: &Path,
    puppet: PuppetVersion,
) -> Result<Value, String> {
    let env_dir = envpath.join(&c.environment);
    materialize(c, &env_dir, puppet).map_err(|e| format!("writing {}: {e}", env_dir.display()))?;
    let facts = c.resolve_facts(factsets)?;
    let mut node = json!({
        "name": c.node,
        "facts": facts,
        "environmentpath": envpath.to_string_lossy(),
        "environment": c.environment,
    });
    for (key, value) in [
        ("trusted", &c.trusted),
        ("classes", &c.classes),
        ("parameters", &c.parameters),
        ("settings", &c.settings),
    ] {
        if let Some(v) = value {
            node[key] = v.clone();
        }
    }
    if let Some(e) = &c.exports {
        node["exports"] = e.store.to_json();
    }
    Ok(node)
}
