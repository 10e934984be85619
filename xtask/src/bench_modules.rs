//! The second half of `cargo xtask bench`: the Debian-module catalogs of
//! issue 4's acceptance (every public class of the 14 module packages,
//! `include`d alone, on the debian-12 and redhat-9 fact sets, as
//! `cargo xtask oracle-modules` compiles them).
//!
//! pverify compiles them all on one thread with a warm environment (per
//! catalog median and p95); with Puppet, the S biggest catalogs (by
//! pverify's resource count) are timed against Puppet in turns
//! (`bench_paired.rs`) and the per-catalog ratio is printed on that
//! sample, with how many of the
//! sample's catalogs are equal. The classes Puppet itself fails on are
//! compiled too (pverify fails them the same way; `oracle-modules` checks
//! that) but left out of the sample.

use pverify_harness::reference::PuppetVersion;
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use serde_json::Value;

use puppet_compiler::eval;
use pverify_harness::control::{NodeSpec, Repo};
use pverify_harness::harness::{canonicalize_catalog, node_for, FACTSETS_DIR};

use crate::bench_compile::{
    compile_timed, median_p95, ms, print_paired, pverify_warm, tempfile_dir, Ratios,
};
use crate::oracle_modules::{
    class_case, module_classes, read_params, FACTSETS, MODULES, MODULE_DIR, PARAMS_FILE,
};

/// The module catalogs' figures; with Puppet, the warm ratio too.
pub fn run(workspace: &Path, sample: usize, puppet: bool) -> Result<Option<Ratios>, String> {
    if !Path::new(MODULE_DIR).is_dir() {
        println!(
            "debian modules: not run ({MODULE_DIR} is missing; cargo xtask corpus --install-only)"
        );
        return Ok(None);
    }
    let tmp = tempfile_dir("pverify-bench-modules")?;
    let result = run_in(workspace, &tmp, sample, puppet);
    let _ = std::fs::remove_dir_all(&tmp);
    result
}

fn run_in(
    workspace: &Path,
    tmp: &Path,
    sample: usize,
    puppet: bool,
) -> Result<Option<Ratios>, String> {
    let repo = module_repo(tmp)?;
    let nodes = class_nodes(workspace)?;
    let env = repo.boot()?;
    // Every catalog once first (parses what they need), then timed.
    let (_, _, _) = compile_timed(&env, &nodes, 1, PuppetVersion::V7)?;
    let (times, failed, resources) = compile_timed(&env, &nodes, 1, PuppetVersion::V7)?;
    let (median, p95) = median_p95(&times);
    let total: Duration = times.iter().sum();
    println!(
        "debian modules ({} public classes x {} fact sets = {} catalogs, one thread, warm):",
        nodes.len() / FACTSETS.len(),
        FACTSETS.len(),
        nodes.len()
    );
    println!(
        "  {} compiled ({} fail, as they do in Puppet: required parameters, unsupported OS), \
         {resources} resources; per catalog median {}, p95 {}, {:.0} catalogs/s",
        nodes.len() - failed,
        failed,
        ms(median),
        ms(p95),
        nodes.len() as f64 / total.as_secs_f64().max(1e-9)
    );
    // The sample: the biggest catalogs pverify compiles.
    let mut sized: Vec<(usize, &NodeSpec)> = nodes
        .iter()
        .filter_map(|n| {
            let c =
                eval::compile(&env, node_for(&n.case, &n.case.facts, PuppetVersion::V7)).ok()?;
            Some((c.catalog["resources"].as_array().map_or(0, Vec::len), n))
        })
        .collect();
    sized.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.id.cmp(&b.1.id)));
    let picked: Vec<NodeSpec> = sized
        .iter()
        .take(sample.max(2))
        .map(|(_, n)| (*n).clone())
        .collect();
    let sizes: Vec<usize> = sized.iter().take(picked.len()).map(|(s, _)| *s).collect();
    println!(
        "  warm sample: the {} biggest catalogs ({} to {} resources; {} ...)",
        picked.len(),
        sizes.last().copied().unwrap_or(0),
        sizes.first().copied().unwrap_or(0),
        picked
            .iter()
            .take(3)
            .map(|n| n.id.as_str())
            .collect::<Vec<_>>()
            .join(", "),
    );
    if !puppet {
        let ours = pverify_warm(&env, &picked, Duration::from_secs(3), PuppetVersion::V7)?;
        println!(
            "  pverify median {} (one thread, warm environment, node object + compile + \
             catalog JSON)",
            ms(median_p95(&ours.with_node).0)
        );
        return Ok(None);
    }
    let paired = crate::bench_paired::paired(&repo, &env, &picked)?;
    let dir = repo.env_dir.to_string_lossy().into_owned();
    let equal = picked
        .iter()
        .zip(&paired.puppet)
        .filter(|(n, p)| {
            let ours = eval::compile(&env, node_for(&n.case, &n.case.facts, PuppetVersion::V7))
                .map(|c| canonicalize_catalog(&c.catalog, &dir));
            matches!((&ours, &p.result), (Ok(a), Ok(b)) if a == b)
        })
        .count();
    println!(
        "  warm, per catalog ({} Ruby processes, each compiling its nodes twice, the second pass \
         timed; pverify on one thread, warm environment), timed in turns:",
        paired.processes
    );
    Ok(Some(print_paired(
        repo.puppet().release(),
        &paired,
        equal,
        picked.len(),
    )))
}

/// A throwaway control repo whose environment sees the module packages.
fn module_repo(tmp: &Path) -> Result<Repo, String> {
    let env = tmp.join("env");
    let write = |p: &Path, text: &str| -> Result<(), String> {
        if let Some(d) = p.parent() {
            std::fs::create_dir_all(d).map_err(|e| format!("{}: {e}", d.display()))?;
        }
        std::fs::write(p, text).map_err(|e| format!("{}: {e}", p.display()))
    };
    write(&env.join("manifests/site.pp"), "")?;
    write(
        &env.join("environment.conf"),
        &format!("modulepath = {MODULE_DIR}\n"),
    )?;
    write(
        &tmp.join("pverify.yaml"),
        // Debian 12's modules, as Puppet 7 (Puppet 7.23 on the host sees them).
        "puppet: 7\nenvironment: env\nenvironment_name: production\nnodes:\n  matrix:\n    - names: [bench.example.com]\n      factsets: [debian-12]\n",
    )?;
    Repo::open(tmp)
}

/// One node per public class and fact set, as oracle-modules makes them.
fn class_nodes(workspace: &Path) -> Result<Vec<NodeSpec>, String> {
    let params = read_params(&workspace.join(PARAMS_FILE))?;
    let mut structured = BTreeMap::new();
    for f in FACTSETS {
        let path = workspace.join(FACTSETS_DIR).join(format!("{f}.facts"));
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let v: Value =
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        structured.insert(*f, v);
    }
    let mut nodes = Vec::new();
    for module in MODULES {
        for class in module_classes(&Path::new(MODULE_DIR).join(module), true)? {
            for f in FACTSETS {
                let mut case = class_case(&class, f, &structured[f], params.get(&class));
                // The fact set's facts with the agent's on top, as the
                // harness gives them to both compilers.
                case.facts = case.resolve_facts(&workspace.join(FACTSETS_DIR))?.into();
                case.factset = None;
                nodes.push(NodeSpec::new(format!("{class}@{f}"), case));
            }
        }
    }
    Ok(nodes)
}
