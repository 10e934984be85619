//! Exported resources of a control repo (docs/harness.md, "Exported
//! resources"): the exports every node's collectors see, from a PuppetDB
//! resources answer (`exports: {file: ...}`, `--exports FILE`) and, in the
//! in-run mode (`exports: {run: true}`, `--exports-run`), from the nodes
//! compiled in the same run, as PuppetDB would hold them once every node
//! had run: compile every node, gather each one's exported resources
//! (replacing that node's entries of the file), and compile again each node
//! whose view of the other nodes' exports changed, until none does.

use std::path::Path;
use std::sync::Arc;

use puppet_compiler::facts::exports::{ExportedResource, Exports};

use super::{Compiled, NodeSpec, Repo};
use crate::harness::CaseExports;

/// Passes of the in-run mode at most: the first, then one per round of
/// exports that changed what another node collects (exports that depend on
/// collected exports need more than two).
const MAX_PASSES: usize = 4;

impl Repo {
    /// Reads the exports file (`path` as given) and/or turns the in-run mode
    /// on; either turns `storeconfigs` on for every node.
    pub fn set_exports(&mut self, path: Option<&Path>, run: bool) -> Result<(), String> {
        if let Some(path) = path {
            let text =
                std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
            let store =
                Exports::from_json_text(&text).map_err(|e| format!("{}: {e}", path.display()))?;
            self.exports = Some(Arc::new(store));
        }
        if run {
            self.config.exports.get_or_insert_with(Default::default).run = true;
        }
        Ok(())
    }

    /// Whether the nodes collect each other's exports.
    pub fn exports_run(&self) -> bool {
        self.config.exports.as_ref().is_some_and(|e| e.run)
    }

    /// The exports a node starts with (`None`: exported collectors are as
    /// the settings say, with nothing from other nodes).
    pub(super) fn exports_store(&self) -> Option<Arc<Exports>> {
        match &self.exports {
            Some(s) => Some(s.clone()),
            None if self.exports_run() => Some(Arc::default()),
            None => None,
        }
    }

    /// Compiles `selected` with `pass` (pverify's compile or Puppet's),
    /// once, or in the in-run mode as many times as the run's exports need:
    /// then every node of `all` (the whole matrix, of which `selected` is
    /// what `--filter` and `--shard` left) is compiled for its exports, and
    /// the results of `selected` are returned.
    pub fn compile_with_exports(
        &self,
        selected: &[NodeSpec],
        all: &[NodeSpec],
        mut pass: impl FnMut(&[NodeSpec]) -> Result<Vec<Compiled>, String>,
    ) -> Result<Vec<Compiled>, String> {
        if !self.exports_run() {
            return pass(selected);
        }
        let nodes = all;
        let mut results = pass(nodes)?;
        let base = self.exports_store().unwrap_or_default();
        let mut seen: Vec<Arc<Exports>> = vec![base.clone(); nodes.len()];
        for _ in 1..MAX_PASSES {
            let store = Arc::new(gathered(&base, nodes, &results));
            let again: Vec<usize> = (0..nodes.len())
                .filter(|&i| {
                    let me = &nodes[i].case.node;
                    view(&store, me) != view(&seen[i], me)
                })
                .collect();
            if again.is_empty() {
                break;
            }
            let specs: Vec<NodeSpec> = again
                .iter()
                .map(|&i| {
                    let mut n = nodes[i].clone();
                    n.case.exports = Some(CaseExports {
                        file: None,
                        store: store.clone(),
                    });
                    n
                })
                .collect();
            for (&i, r) in again.iter().zip(pass(&specs)?) {
                results[i] = r;
                seen[i] = store.clone();
            }
        }
        let wanted: std::collections::HashSet<&str> =
            selected.iter().map(|n| n.id.as_str()).collect();
        Ok(results
            .into_iter()
            .filter(|r| wanted.contains(r.id.as_str()))
            .collect())
    }
}

/// The store once the run's nodes have run: `base` with each compiled
/// node's exported resources in place of its entries. (Several fact sets of
/// one certname are one node to PuppetDB: the last in node order stays.)
fn gathered(base: &Exports, nodes: &[NodeSpec], results: &[Compiled]) -> Exports {
    let mut store = base.clone();
    for (n, r) in nodes.iter().zip(results) {
        let Ok(text) = &r.result else { continue };
        let Ok(catalog) = serde_json::from_str::<serde_json::Value>(text) else {
            continue;
        };
        let certname = &n.case.node;
        store.replace_node(certname, Exports::of_catalog(certname, &catalog));
    }
    store
}

/// What node `me`'s exported collectors can find in `store`.
fn view<'a>(store: &'a Exports, me: &str) -> Vec<&'a ExportedResource> {
    store
        .resources
        .iter()
        .filter(|r| r.exported && r.certname != me)
        .collect()
}
