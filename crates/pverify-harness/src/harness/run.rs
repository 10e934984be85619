//! Running a case through pverify: the same node object the oracle gives
//! Puppet, compiled in the case's materialized environment, in canonical form.

use std::path::{Path, PathBuf};

use puppet_compiler::eval::{self, FunctionMocks, Map, NodeInfo, Value};
use puppet_compiler::facts::from_json;
use puppet_compiler::loader::{Environment, Overrides};

use super::{
    canonical_catalog_text, materialize, relativize_text, Case, Expect, PuppetVersion,
    FACTSETS_DIR, SERVER_FACTS,
};

/// A `settings:` mapping (a case's, pverify.yaml's) checked and typed: an
/// unknown setting or a bad value is an error naming the setting.
pub fn settings_of(
    settings: Option<&serde_json::Value>,
) -> Result<puppet_compiler::settings::Settings, String> {
    match settings.map(from_json) {
        None | Some(Value::Undef) => Ok(Default::default()),
        Some(Value::Hash(ref m)) => {
            puppet_compiler::settings::Settings::from_map(m).map_err(|e| e.to_string())
        }
        Some(other) => Err(format!(
            "settings: expected a mapping of setting names to values, got {other}"
        )),
    }
}

/// `--setting NAME=VALUE` over a `settings:` mapping: each checked, then
/// set (as a string, as Puppet's command line gives it).
pub fn overlay_settings(
    settings: &mut Option<serde_json::Value>,
    assignments: &[String],
) -> Result<(), String> {
    if assignments.is_empty() {
        return Ok(());
    }
    let mut map = match settings.take() {
        Some(serde_json::Value::Object(m)) => m,
        _ => serde_json::Map::new(),
    };
    for a in assignments {
        let (name, value) =
            puppet_compiler::settings::split_assignment(a).map_err(|e| e.to_string())?;
        map.insert(name.to_string(), serde_json::Value::from(value));
    }
    let merged = serde_json::Value::Object(map);
    settings_of(Some(&merged))?;
    *settings = Some(merged);
    Ok(())
}

/// The node object of a case, as the oracle builds it for Puppet.
pub fn node_for(case: &Case, facts: &serde_json::Value, puppet: PuppetVersion) -> NodeInfo {
    node_with_facts(case, facts_of(facts), puppet)
}

/// Facts as the compiler takes them (a fact set that is not a hash: none).
pub fn facts_of(facts: &serde_json::Value) -> std::sync::Arc<Map> {
    from_json(facts).into_hash().unwrap_or_default()
}

/// [`node_for`] with the facts already converted (and perhaps shared with
/// other nodes).
pub fn node_with_facts(case: &Case, facts: std::sync::Arc<Map>, puppet: PuppetVersion) -> NodeInfo {
    let mut node = NodeInfo {
        name: case.node.clone(),
        puppet,
        budget: case.budget,
        facts,
        ..NodeInfo::default()
    };
    if let Some(t) = &case.trusted {
        if let Some(x) = t.get("extensions") {
            if let Ok(h) = from_json(x).into_hash() {
                node.trusted_extensions = std::sync::Arc::unwrap_or_clone(h);
            }
        }
        if let Some(x) = t.get("external") {
            if let Ok(h) = from_json(x).into_hash() {
                node.trusted_external = std::sync::Arc::unwrap_or_clone(h);
            }
        }
    }
    match case.classes.as_ref().map(from_json) {
        Some(Value::Array(ref a)) => {
            node.classes = a.iter().map(|c| (c.to_string(), None)).collect()
        }
        Some(Value::Hash(ref m)) => {
            node.classes = m
                .iter()
                .map(|(k, v)| {
                    let p = match v {
                        Value::Hash(p) => Some((**p).clone()),
                        _ => Some(Map::default()),
                    };
                    (k.to_string(), p)
                })
                .collect()
        }
        _ => {}
    }
    if let Some(Ok(p)) = case.parameters.as_ref().map(|p| from_json(p).into_hash()) {
        node.parameters = std::sync::Arc::unwrap_or_clone(p);
    }
    // Checked when the case or pverify.yaml was read (`settings_of`).
    node.settings = settings_of(case.settings.as_ref()).unwrap_or_default();
    if let Some(e) = &case.exports {
        node.exports = e.store.clone();
    }
    for (k, v) in SERVER_FACTS {
        let v = if *k == "serverversion" {
            puppet.release()
        } else {
            v
        };
        node.server_facts
            .insert(Value::string(*k), Value::string(v));
    }
    node
}

/// What pverify makes of a case: the canonical catalog or the error text.
/// The environment is written below `work`.
pub fn run_case(case: &Case, work: &Path, puppet: PuppetVersion) -> Expect {
    run_case_mocked(case, work, &FunctionMocks::default(), puppet)
}

/// [`run_case`] with functions replaced by fixed values (`mocks`).
pub fn run_case_mocked(
    case: &Case,
    work: &Path,
    mocks: &FunctionMocks,
    puppet: PuppetVersion,
) -> Expect {
    run_case_granted(case, work, mocks, puppet, &[])
}

/// [`run_case_mocked`] with read roots granted besides the case's own tree
/// and the reference's Debian modules (`pverify run --grant`).
pub fn run_case_granted(
    case: &Case,
    work: &Path,
    mocks: &FunctionMocks,
    puppet: PuppetVersion,
    grants: &[PathBuf],
) -> Expect {
    let tree = work.join(case.name().replace('/', "__"));
    let env_dir = tree.join(&case.environment);
    let _ = std::fs::remove_dir_all(&env_dir);
    if let Err(e) = materialize(case, &env_dir, puppet) {
        return Expect::Error(format!("cannot write the case's environment: {e}"));
    }
    let facts = match case.resolve_facts(Path::new(FACTSETS_DIR)) {
        Ok(f) => f,
        Err(e) => return Expect::Error(e),
    };
    // As the oracle (compile.rb): no base modules, so nothing installed
    // on the machine (Debian's modules and their types) leaks into a case.
    // It may read its own tree (the files it writes beside the
    // environment) and the Debian modules its environment.conf names.
    let overrides = Overrides {
        basemodulepath: Some(String::new()),
        grants: [tree, crate::reference::debian_modules(puppet)]
            .into_iter()
            .chain(grants.iter().cloned())
            .collect(),
        ..Overrides::default()
    };
    if let Err(e) = settings_of(case.settings.as_ref()) {
        return Expect::Error(e);
    }
    let env = match Environment::boot(&env_dir, &overrides) {
        Ok(e) => e,
        Err(e) => return Expect::Error(e),
    };
    let dir = env_dir.display().to_string();
    let mut node = node_for(case, &facts, puppet);
    if !mocks.is_empty() {
        node.function_mocks = std::sync::Arc::new(mocks.clone());
    }
    let name = node.name.clone();
    match eval::compile(&env, node) {
        Ok(c) => Expect::Catalog(canonical_catalog_text(c.catalog, &dir)),
        Err(e) => Expect::Error(relativize_text(&e.for_node(&name), &dir)),
    }
}

/// A case's outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Passed,
    /// Failed, with a unified diff (expected first) or the reason.
    Failed(String),
    /// Marked pending and failing as expected.
    Pending(String),
}

/// The outcome of a case given pverify's result, honouring `pending`: a
/// pending case that passes is a failure, so marks cannot go stale.
pub fn outcome(case: &Case, puppet: PuppetVersion, got: &Expect) -> Outcome {
    match (verdict(case, puppet, got), case.pending.get(puppet)) {
        (Ok(()), None) => Outcome::Passed,
        (Err(d), None) => Outcome::Failed(d),
        (Err(_), Some(why)) => Outcome::Pending(why.clone()),
        (Ok(()), Some(why)) => Outcome::Failed(format!(
            "    passes now, but is marked pending ({why}): remove the mark\n"
        )),
    }
}

/// Compares pverify's result with the case's expectation: `Ok`, or a unified
/// diff (expected first).
pub fn verdict(case: &Case, puppet: PuppetVersion, got: &Expect) -> Result<(), String> {
    match (case.expect.get(puppet), got) {
        (Expect::Catalog(a), Expect::Catalog(b)) if a == b => Ok(()),
        (Expect::Error(a), Expect::Error(b)) if a == b => Ok(()),
        (Expect::None, _) => Err("no expectation recorded".to_string()),
        (want, got) => Err(describe(want, got, puppet)),
    }
}

fn describe(want: &Expect, got: &Expect, puppet: PuppetVersion) -> String {
    let text = |e: &Expect| match e {
        Expect::Catalog(c) => c.clone(),
        Expect::Error(e) => format!("error: {e}"),
        Expect::None => String::new(),
    };
    let diff = similar::TextDiff::from_lines(&text(want), &text(got))
        .unified_diff()
        .context_radius(3)
        .header(
            &format!("expected (Puppet {})", puppet.release()),
            "pverify",
        )
        .to_string();
    diff.lines().map(|l| format!("    {l}\n")).collect()
}
