//! `--cache DIR`: catalogs kept across runs with the read sets that made
//! them, so a run on a revision compiled before reuses its catalogs
//! (docs/ci.md, "Caching catalogs").
//!
//! Layout (format [`FORMAT`]): `DIR/index.json`, one file for every node
//! (10,000 small files load slowly) holding each distinct observation once
//! (`observations`: path, whether it is relative to the side's tree, the
//! question, the answer's digest), each distinct chunk once (`chunks`: 64
//! consecutive observations and a mask of those a node has: nodes of one
//! role share nearly all of theirs) and per node its recent entries
//! (inputs key, its chunks delta-coded, its catalog's digest, whether the
//! catalog has `source`s); `DIR/catalogs/<digest>.json`, each catalog once
//! by content. An unaffected node's catalog is read only when it has
//! sources. Both are written through `output::write_replacing` (a
//! temporary file created exclusively, renamed into place) and read without
//! following links. Nothing in the directory is trusted: an entry whose file is
//! missing, unreadable, not what its name says, or of another format is a
//! miss, and a hit requires every observation to get the same answer now,
//! so a stale cache is never wrong.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use puppet_compiler::loader::Environment;
use puppet_compiler::reads::Hash128;
use serde_json::{json, Value as J};

use super::impact::{Observation, ReadSet, Table};
use crate::output::{read_no_follow, write_replacing};

/// The format named in the index; another is read as empty.
pub const FORMAT: &str = "pverify-impact-cache/1";

/// How many entries a node keeps (the revisions a CI cache sees in turn:
/// the base and the change).
const ENTRIES_PER_NODE: usize = 4;

/// A node's catalog as the cache knows it.
#[derive(Clone, Debug)]
pub struct Entry {
    pub reads: ReadSet,
    /// The catalog's digest: its file is `catalogs/<digest>.json`.
    pub catalog: String,
    /// Whether the catalog has `source` parameters (its content is read
    /// from each side's files, so it must be compared even with itself).
    pub sources: bool,
}

/// The cache of a run: the observations of its read sets (the run's
/// [`Table`], which the loaded index joins), the entries loaded and those
/// this run adds.
pub struct ImpactCache {
    dir: PathBuf,
    pub table: Table,
    loaded: BTreeMap<String, Vec<Entry>>,
    added: Mutex<Vec<(String, Entry)>>,
}

impl ImpactCache {
    /// The cache in `dir` (created if missing). An unreadable or foreign
    /// index is an empty cache.
    pub fn open(dir: &Path) -> Result<ImpactCache, String> {
        std::fs::create_dir_all(dir.join("catalogs"))
            .map_err(|e| format!("--cache {}: {e}", dir.display()))?;
        if !std::fs::symlink_metadata(dir.join("catalogs")).is_ok_and(|m| m.is_dir()) {
            return Err(format!(
                "--cache {}: catalogs is not a directory",
                dir.display()
            ));
        }
        let table = Table::default();
        let loaded = match read_no_follow(&dir.join("index.json")) {
            Ok(Some(text)) => parse_index(&text, &table).unwrap_or_default(),
            _ => BTreeMap::new(),
        };
        Ok(ImpactCache {
            dir: dir.to_path_buf(),
            table,
            loaded,
            added: Mutex::default(),
        })
    }

    /// The entry of node `name` with inputs key `key` whose observations
    /// all hold in `env` (its side's tree at `root`).
    pub fn lookup(&self, name: &str, key: u128, env: &Environment, root: &Path) -> Option<Entry> {
        self.loaded
            .get(name)?
            .iter()
            .find(|e| self.table.still_holds(&e.reads, key, env, root))
            .cloned()
    }

    /// The catalog stored under `digest`, when its bytes still have it.
    pub fn catalog(&self, digest: &str) -> Option<J> {
        if digest.len() != 32 || !digest.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let text = read_no_follow(&self.catalog_path(digest)).ok()??;
        if hex(digest_of(text.as_bytes())) != digest {
            return None;
        }
        serde_json::from_str(&text).ok()
    }

    fn catalog_path(&self, digest: &str) -> PathBuf {
        self.dir.join("catalogs").join(format!("{digest}.json"))
    }

    /// Keeps node `name`'s catalog with its read set (written now; the
    /// index at [`ImpactCache::save`]). A catalog that cannot be written
    /// is not kept.
    pub fn store(&self, name: &str, reads: &ReadSet, catalog: &J) {
        let Ok(bytes) = serde_json::to_vec(catalog) else {
            return;
        };
        let digest = hex(digest_of(&bytes));
        // Written even when a file of that name is there: it may be corrupt.
        if write_replacing(&self.catalog_path(&digest), &bytes).is_err() {
            return;
        }
        let entry = Entry {
            reads: reads.clone(),
            catalog: digest,
            sources: has_sources(catalog),
        };
        self.added
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push((name.to_string(), entry));
    }

    /// Writes the index: this run's entries first, then the entries kept
    /// from before, at most [`ENTRIES_PER_NODE`] per node. Each node's
    /// observations are written as chunks (64 consecutive observations of
    /// the file's table and which of them the node has), each distinct
    /// chunk once: nodes of one role share nearly all of theirs.
    pub fn save(&self) -> Result<(), String> {
        let added = std::mem::take(&mut *self.added.lock().unwrap_or_else(|p| p.into_inner()));
        if added.is_empty() {
            return Ok(());
        }
        let mut nodes: BTreeMap<String, Vec<Entry>> = BTreeMap::new();
        for (name, entry) in added {
            nodes.entry(name).or_default().push(entry);
        }
        for (name, entries) in &self.loaded {
            nodes
                .entry(name.clone())
                .or_default()
                .extend(entries.iter().cloned());
        }
        // The file's table: the observations kept entries use, in order of
        // first use.
        let mut file_ids: HashMap<u32, u32> = HashMap::new();
        let mut observations: Vec<J> = Vec::new();
        let mut chunk_ids: HashMap<(u32, u64), u32> = HashMap::new();
        let mut chunks: Vec<J> = Vec::new();
        let mut out_nodes = serde_json::Map::new();
        for (name, mut entries) in nodes {
            let mut seen = std::collections::HashSet::new();
            entries.retain(|e| seen.insert((e.reads.key, e.catalog.clone())));
            entries.truncate(ENTRIES_PER_NODE);
            let mut list = Vec::new();
            for e in entries {
                let mut ids = Vec::new();
                for i in e.reads.ids() {
                    let id = match file_ids.get(&i) {
                        Some(&id) => id,
                        None => {
                            let Some(o) = self.table.get(i) else { continue };
                            let id = observations.len() as u32;
                            observations.push(json!([
                                o.path.to_string_lossy(),
                                o.rooted,
                                o.what,
                                hex(o.answer)
                            ]));
                            file_ids.insert(i, id);
                            id
                        }
                    };
                    ids.push(id);
                }
                ids.sort_unstable();
                ids.dedup();
                let mut masks: BTreeMap<u32, u64> = BTreeMap::new();
                for id in ids {
                    *masks.entry(id / 64).or_default() |= 1 << (id % 64);
                }
                let mut refs: Vec<u32> = masks
                    .into_iter()
                    .map(|(block, mask)| {
                        *chunk_ids.entry((block, mask)).or_insert_with(|| {
                            chunks.push(json!([block, format!("{mask:x}")]));
                            (chunks.len() - 1) as u32
                        })
                    })
                    .collect();
                refs.sort_unstable();
                list.push(json!({
                    "key": hex(e.reads.key),
                    "chunks": deltas(&refs),
                    "catalog": e.catalog,
                    "sources": e.sources,
                }));
            }
            out_nodes.insert(name, J::Array(list));
        }
        let doc = json!({
            "format": FORMAT,
            "observations": observations,
            "chunks": chunks,
            "nodes": out_nodes,
        });
        let bytes = serde_json::to_vec(&doc).map_err(|e| e.to_string())?;
        write_replacing(&self.dir.join("index.json"), &bytes)
            .map_err(|e| format!("--cache {}: {e}", self.dir.display()))
    }
}

/// Sorted numbers as their differences.
fn deltas(sorted: &[u32]) -> Vec<u32> {
    let mut last = 0;
    sorted
        .iter()
        .map(|&i| {
            let d = i - last;
            last = i;
            d
        })
        .collect()
}

/// Whether a catalog has a resource with a `source` parameter.
fn has_sources(catalog: &J) -> bool {
    catalog
        .get("resources")
        .and_then(J::as_array)
        .is_some_and(|rs| {
            rs.iter()
                .any(|r| r.get("parameters").and_then(|p| p.get("source")).is_some())
        })
}

fn digest_of(bytes: &[u8]) -> u128 {
    let mut h = Hash128::default();
    h.write(bytes);
    h.finish()
}

fn hex(v: u128) -> String {
    format!("{v:032x}")
}

/// The index's entries, their observations joined to `table`; `None` when
/// it is not one of this format (a miss for every node).
fn parse_index(text: &str, table: &Table) -> Option<BTreeMap<String, Vec<Entry>>> {
    let doc: J = serde_json::from_str(text).ok()?;
    if doc.get("format")?.as_str()? != FORMAT {
        return None;
    }
    let ids = doc
        .get("observations")?
        .as_array()?
        .iter()
        .map(|o| {
            let o = o.as_array()?;
            Some(table.intern(Observation {
                path: PathBuf::from(o.first()?.as_str()?),
                rooted: o.get(1)?.as_bool()?,
                what: u8::try_from(o.get(2)?.as_u64()?).ok()?,
                answer: u128::from_str_radix(o.get(3)?.as_str()?, 16).ok()?,
            }))
        })
        .collect::<Option<Vec<u32>>>()?;
    // Each chunk once, shared by the entries made of it (see `ReadSet`).
    let chunks = doc
        .get("chunks")?
        .as_array()?
        .iter()
        .map(|c| {
            let block = u32::try_from(c.get(0)?.as_u64()?).ok()?;
            let mask = u64::from_str_radix(c.get(1)?.as_str()?, 16).ok()?;
            (0..64u32)
                .filter(|b| mask & (1 << b) != 0)
                .map(|b| {
                    ids.get(block.checked_mul(64)?.checked_add(b)? as usize)
                        .copied()
                })
                .collect::<Option<Arc<[u32]>>>()
        })
        .collect::<Option<Vec<Arc<[u32]>>>>()?;
    let mut nodes = BTreeMap::new();
    for (name, entries) in doc.get("nodes")?.as_object()? {
        let mut list = Vec::new();
        for e in entries.as_array()? {
            let mut last: u32 = 0;
            let mut parts = Vec::new();
            for d in e.get("chunks")?.as_array()? {
                last = last.checked_add(u32::try_from(d.as_u64()?).ok()?)?;
                parts.push(chunks.get(last as usize)?.clone());
            }
            list.push(Entry {
                reads: ReadSet {
                    key: u128::from_str_radix(e.get("key")?.as_str()?, 16).ok()?,
                    parts,
                    chunked: true,
                },
                catalog: e.get("catalog")?.as_str()?.to_string(),
                sources: e.get("sources")?.as_bool()?,
            });
        }
        nodes.insert(name.clone(), list);
    }
    Some(nodes)
}
