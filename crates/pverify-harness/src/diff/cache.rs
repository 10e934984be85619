//! `--cache DIR`: catalogs kept across runs with the read sets that made
//! them, so a run on a revision compiled before reuses its catalogs
//! (docs/ci.md, "Caching catalogs").
//!
//! Layout (format [`FORMAT`]): `DIR/index.json`, one file for every node
//! (10,000 small files load slowly) holding each distinct observation once
//! (`observations`: path, whether it is relative to the side's tree, the
//! question, the answer's digest) and per node its recent entries (inputs
//! key, the indices of its observations, delta-coded, and its catalog's
//! digest); `DIR/catalogs/<digest>.json`, each catalog once by content.
//! Both are written through `output::write_replacing` (a temporary file
//! created exclusively, renamed into place) and read without following
//! links. Nothing in the directory is trusted: an entry whose file is
//! missing, unreadable, not what its name says, or of another format is a
//! miss, and a hit requires every observation to get the same answer now,
//! so a stale cache is never wrong.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use puppet_compiler::loader::Environment;
use puppet_compiler::reads::Hash128;
use serde_json::{json, Value as J};

use super::impact::{Observation, ReadSet};
use crate::output::{read_no_follow, write_replacing};

/// The format named in the index; another is read as empty.
pub const FORMAT: &str = "pverify-impact-cache/1";

/// How many entries a node keeps (the revisions a CI cache sees in turn:
/// the base and the change).
const ENTRIES_PER_NODE: usize = 4;

#[derive(Clone, Debug)]
struct Entry {
    key: u128,
    observations: Vec<u32>,
    catalog: String,
}

#[derive(Default)]
struct Index {
    observations: Vec<Observation>,
    nodes: BTreeMap<String, Vec<Entry>>,
}

/// A hit: the catalog and the read set it was made with.
pub struct Hit {
    pub catalog: J,
    pub reads: ReadSet,
}

/// The cache of a run: the index as loaded, and the entries this run adds.
pub struct ImpactCache {
    dir: PathBuf,
    loaded: Index,
    added: Mutex<Vec<(String, ReadSet, String)>>,
}

impl ImpactCache {
    /// The cache in `dir` (created if missing). An unreadable or foreign
    /// index is an empty cache; a directory that is no directory is an
    /// error.
    pub fn open(dir: &Path) -> Result<ImpactCache, String> {
        std::fs::create_dir_all(dir.join("catalogs"))
            .map_err(|e| format!("--cache {}: {e}", dir.display()))?;
        for d in [dir.to_path_buf(), dir.join("catalogs")] {
            let real_dir = std::fs::symlink_metadata(&d).is_ok_and(|m| m.is_dir());
            if !real_dir && d != dir {
                return Err(format!("--cache {}: not a directory", d.display()));
            }
        }
        let loaded = match read_no_follow(&dir.join("index.json")) {
            Ok(Some(text)) => parse_index(&text).unwrap_or_default(),
            _ => Index::default(),
        };
        Ok(ImpactCache {
            dir: dir.to_path_buf(),
            loaded,
            added: Mutex::default(),
        })
    }

    /// The catalog of node `name` with inputs key `key`, when an entry's
    /// observations all hold in `env` (its side's tree at `root`).
    pub fn lookup(&self, name: &str, key: u128, env: &Environment, root: &Path) -> Option<Hit> {
        let root = super::impact::absolute(root);
        for entry in self.loaded.nodes.get(name)?.iter().filter(|e| e.key == key) {
            let observations: Option<Vec<&Observation>> = entry
                .observations
                .iter()
                .map(|&i| self.loaded.observations.get(i as usize))
                .collect();
            let Some(observations) = observations else {
                continue;
            };
            if !observations.iter().all(|o| o.holds(env, &root)) {
                continue;
            }
            if let Some(catalog) = self.catalog(&entry.catalog) {
                return Some(Hit {
                    catalog,
                    reads: ReadSet {
                        key,
                        observations: observations.into_iter().cloned().collect(),
                    },
                });
            }
        }
        None
    }

    /// The catalog stored under `digest`, when its bytes still have it.
    fn catalog(&self, digest: &str) -> Option<J> {
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
        self.added.lock().unwrap_or_else(|p| p.into_inner()).push((
            name.to_string(),
            reads.clone(),
            digest,
        ));
    }

    /// Writes the index: this run's entries first, then the entries kept
    /// from before, at most [`ENTRIES_PER_NODE`] per node.
    pub fn save(&self) -> Result<(), String> {
        let added = std::mem::take(&mut *self.added.lock().unwrap_or_else(|p| p.into_inner()));
        if added.is_empty() {
            return Ok(());
        }
        // Per node: inputs key, observations, catalog digest.
        type Kept<'a> = (u128, Vec<&'a Observation>, String);
        let mut nodes: BTreeMap<String, Vec<Kept>> = BTreeMap::new();
        for (name, reads, digest) in &added {
            nodes.entry(name.clone()).or_default().push((
                reads.key,
                reads.observations.iter().collect(),
                digest.clone(),
            ));
        }
        for (name, entries) in &self.loaded.nodes {
            let list = nodes.entry(name.clone()).or_default();
            for e in entries {
                let obs: Option<Vec<&Observation>> = e
                    .observations
                    .iter()
                    .map(|&i| self.loaded.observations.get(i as usize))
                    .collect();
                if let Some(obs) = obs {
                    list.push((e.key, obs, e.catalog.clone()));
                }
            }
        }
        let mut table: Vec<&Observation> = Vec::new();
        let mut index: HashMap<&Observation, u32> = HashMap::new();
        let mut out_nodes = serde_json::Map::new();
        for (name, mut entries) in nodes {
            // Newest first; one entry per key and catalog.
            let mut seen = std::collections::HashSet::new();
            entries.retain(|(k, _, c)| seen.insert((*k, c.clone())));
            entries.truncate(ENTRIES_PER_NODE);
            let list: Vec<J> = entries
                .into_iter()
                .map(|(key, obs, catalog)| {
                    let mut ids: Vec<u32> = obs
                        .into_iter()
                        .map(|o| {
                            *index.entry(o).or_insert_with(|| {
                                table.push(o);
                                (table.len() - 1) as u32
                            })
                        })
                        .collect();
                    ids.sort_unstable();
                    let mut last = 0;
                    let deltas: Vec<u32> = ids
                        .into_iter()
                        .map(|i| {
                            let d = i - last;
                            last = i;
                            d
                        })
                        .collect();
                    json!({"key": hex(key), "reads": deltas, "catalog": catalog})
                })
                .collect();
            out_nodes.insert(name, J::Array(list));
        }
        let observations: Vec<J> = table
            .iter()
            .map(|o| json!([o.path.to_string_lossy(), o.rooted, o.what, hex(o.answer)]))
            .collect();
        let doc = json!({
            "format": FORMAT,
            "observations": observations,
            "nodes": out_nodes,
        });
        let bytes = serde_json::to_vec(&doc).map_err(|e| e.to_string())?;
        write_replacing(&self.dir.join("index.json"), &bytes)
            .map_err(|e| format!("--cache {}: {e}", self.dir.display()))
    }
}

fn digest_of(bytes: &[u8]) -> u128 {
    let mut h = Hash128::default();
    h.write(bytes);
    h.finish()
}

fn hex(v: u128) -> String {
    format!("{v:032x}")
}

/// The index, or `None` when it is not one of this format (a miss for
/// every node).
fn parse_index(text: &str) -> Option<Index> {
    let doc: J = serde_json::from_str(text).ok()?;
    if doc.get("format")?.as_str()? != FORMAT {
        return None;
    }
    let observations = doc
        .get("observations")?
        .as_array()?
        .iter()
        .map(|o| {
            let o = o.as_array()?;
            Some(Observation {
                path: PathBuf::from(o.first()?.as_str()?),
                rooted: o.get(1)?.as_bool()?,
                what: u8::try_from(o.get(2)?.as_u64()?).ok()?,
                answer: u128::from_str_radix(o.get(3)?.as_str()?, 16).ok()?,
            })
        })
        .collect::<Option<Vec<_>>>()?;
    let mut nodes = BTreeMap::new();
    for (name, entries) in doc.get("nodes")?.as_object()? {
        let mut list = Vec::new();
        for e in entries.as_array()? {
            let mut last: u32 = 0;
            let ids = e
                .get("reads")?
                .as_array()?
                .iter()
                .map(|d| {
                    last = last.checked_add(u32::try_from(d.as_u64()?).ok()?)?;
                    Some(last)
                })
                .collect::<Option<Vec<u32>>>()?;
            list.push(Entry {
                key: u128::from_str_radix(e.get("key")?.as_str()?, 16).ok()?,
                observations: ids,
                catalog: e.get("catalog")?.as_str()?.to_string(),
            });
        }
        nodes.insert(name.clone(), list);
    }
    Some(Index {
        observations,
        nodes,
    })
}
