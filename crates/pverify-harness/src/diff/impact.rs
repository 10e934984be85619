//! Impact-aware `diff`: a node's read set (every file system question its
//! compile asked, `puppet_compiler::reads`) and its inputs key (the node
//! object, the environment's settings, pverify's version) decide whether
//! the node can change between two sides without compiling it again.
//!
//! A read set's paths inside the side's tree are kept relative to it, so
//! the sets of two checkouts of one repository (diff's two worktrees, or
//! two runs' worktrees for `--cache`) compare.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};

use puppet_compiler::eval::{Map, NodeInfo};
use puppet_compiler::loader::Environment;
use puppet_compiler::reads::{Hash128, Questions};
use serde_json::Value as J;

/// How `diff` uses read sets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    /// Compile every node on both sides (`--full`).
    Full,
    /// Compile `to` only for nodes whose `from` read set changed (default).
    #[default]
    Impact,
    /// Compile every node, and fail if a node impact mode would have
    /// skipped has another `to` catalog (`--verify-impact`).
    Verify,
}

/// How many nodes each side compiled, how many `to` compiles were skipped,
/// and (under [`Mode::Verify`]) the skipped nodes whose catalog changed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ImpactStats {
    pub compiled_from: usize,
    pub compiled_to: usize,
    pub skipped: usize,
    /// `from` catalogs taken from `--cache` instead of compiling.
    pub cached: usize,
    pub wrong_skips: Vec<String>,
}

impl ImpactStats {
    /// The line the bench and CI logs read:
    /// `compiled: N from, M to; skipped: K` (and `; cached: C` with a cache).
    pub fn line(&self) -> String {
        let mut s = format!(
            "compiled: {} from, {} to; skipped: {}",
            self.compiled_from, self.compiled_to, self.skipped
        );
        if self.cached > 0 {
            s.push_str(&format!("; cached: {}", self.cached));
        }
        s
    }
}

/// One question of a read set and the digest of its answer.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Observation {
    /// Relative to the side's root when `rooted`, else absolute.
    pub path: PathBuf,
    pub rooted: bool,
    pub what: u8,
    pub answer: u128,
}

impl Observation {
    /// The path on a side whose tree is at `root`.
    pub fn path_on(&self, root: &Path) -> PathBuf {
        if self.rooted {
            root.join(&self.path)
        } else {
            self.path.clone()
        }
    }

    /// Whether the question gets the same answer in `env` (on the side
    /// whose tree is at `root`).
    pub fn holds(&self, env: &Environment, root: &Path) -> bool {
        let path = self.path_on(root);
        let ok = env.read_answers.answer(env.files(), &path, self.what) == self.answer;
        if !ok && std::env::var_os("PVERIFY_DEBUG_READS").is_some() {
            eprintln!("read set: {} ({}) changed", path.display(), self.what);
        }
        ok
    }
}

/// A node's read set: its inputs key and its observations, as indices
/// into the run's [`Table`], in parts: a compile's set is one part (its
/// sorted indices); a set read from `--cache` is the cache's chunks it is
/// made of, shared with every other node that has them, so that whether
/// a chunk holds is found once per run and environment, not once per node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadSet {
    pub key: u128,
    pub parts: Vec<Arc<[u32]>>,
    /// Whether the parts are the cache's chunks, which live as long as the
    /// run (so a part's address names it: see [`Table::still_holds`]).
    pub chunked: bool,
}

impl ReadSet {
    /// Every observation's index (a part at a time; parts may overlap).
    pub fn ids(&self) -> impl Iterator<Item = u32> + '_ {
        self.parts.iter().flat_map(|p| p.iter().copied())
    }
}

/// The observations of a run, each once: read sets are lists of indices,
/// and whether an observation holds on a side is found once per run
/// (a fleet's nodes share most of theirs: 10,000 nodes of 4,000
/// observations each check a few thousand distinct ones).
#[derive(Default)]
pub struct Table {
    inner: RwLock<TableInner>,
    /// Per environment (by address: a run's environments live as long as
    /// the run), each observation's state there: 0 not known, 1 holds,
    /// 2 does not.
    states: Mutex<HashMap<usize, Arc<Mutex<Vec<u8>>>>>,
    /// Per environment, each question's observation (by what was asked).
    questions: Mutex<HashMap<usize, Arc<Mutex<QuestionIds>>>>,
    /// Per environment and shared part (by address: parts live as long as
    /// the cache that holds them), whether all of the part holds there.
    parts: Mutex<HashMap<(usize, usize), bool>>,
    /// The hashes of nodes' fact maps by address and side root (holding the
    /// map, so that the address names it), for nodes that share one.
    facts_keys: Mutex<FactsKeys>,
}

/// A fact map's hash by its address and side root, with the map held.
type FactsKeys = HashMap<(usize, PathBuf), (Arc<Map>, u128)>;

/// How many fact maps [`Table::inputs_key`] remembers: a fleet's matrix
/// has a few dozen fact sets; node files, one map each, are not kept.
const FACTS_KEYS_KEPT: usize = 256;

/// A path's observations (by its bytes) by what was asked of it
/// (`u32::MAX`: not yet).
type QuestionIds = rustc_hash::FxHashMap<Vec<u8>, [u32; 8]>;

#[derive(Default)]
struct TableInner {
    all: Vec<Observation>,
    index: HashMap<Observation, u32>,
}

impl Table {
    /// The inputs of a compile besides its files: the node object (facts,
    /// ENC data, settings, mocks, exports, Puppet version, budget), the
    /// environment's configuration, and pverify's build. Paths inside the
    /// side's tree are written relative to it. A fact map shared by many
    /// nodes (a fleet's fact sets) is hashed once.
    pub fn inputs_key(&self, node: &NodeInfo, env: &Environment, root: &Path) -> u128 {
        use std::fmt::Write;
        let root = absolute(root);
        let root_text = root.to_string_lossy();
        let id = (Arc::as_ptr(&node.facts) as usize, root.clone());
        let known = self
            .facts_keys
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(&id)
            .map(|(_, key)| *key);
        let facts = known.unwrap_or_else(|| {
            let mut text = RootHashing::new(&root_text);
            let _ = write!(text, "{:?}", node.facts);
            let key = text.finish();
            let mut keys = self.facts_keys.lock().unwrap_or_else(|p| p.into_inner());
            if keys.len() >= FACTS_KEYS_KEPT {
                keys.clear();
            }
            keys.insert(id, (node.facts.clone(), key));
            key
        });
        let rest = NodeInfo {
            facts: Arc::default(),
            ..node.clone()
        };
        // Written straight into the hash, the root replaced on the way.
        let mut text = RootHashing::new(&root_text);
        let _ = write!(
            text,
            "{}\n{facts:x}\n{:?}\n{}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}",
            build_id(),
            rest,
            env.name,
            env.dir,
            env.manifest,
            env.modulepath,
            env.hiera_yaml,
            env.eyaml,
            env.conf_warnings
        );
        text.finish()
    }

    /// The index of `o`, added when new.
    pub fn intern(&self, o: Observation) -> u32 {
        if let Some(&i) = self.read().index.get(&o) {
            return i;
        }
        let mut t = self.inner.write().unwrap_or_else(|p| p.into_inner());
        if let Some(&i) = t.index.get(&o) {
            return i;
        }
        let i = t.all.len() as u32;
        t.all.push(o.clone());
        t.index.insert(o, i);
        i
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, TableInner> {
        self.inner.read().unwrap_or_else(|p| p.into_inner())
    }

    /// The observation at `i`.
    pub fn get(&self, i: u32) -> Option<Observation> {
        self.read().all.get(i as usize).cloned()
    }

    /// The answers to a compile's `questions` in `env` (the environment
    /// the node compiled in, its side's tree at `root`). Each question is
    /// answered and interned once per run and environment; a node's
    /// questions then cost a lookup each.
    pub fn answer(
        &self,
        key: u128,
        questions: Questions,
        env: &Environment,
        root: &Path,
    ) -> ReadSet {
        let root = absolute(root);
        let known = self
            .questions
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .entry(env as *const Environment as usize)
            .or_default()
            .clone();
        let mut known = known.lock().unwrap_or_else(|p| p.into_inner());
        let mut ids: Vec<u32> = Vec::with_capacity(questions.len());
        for (path, what) in questions {
            let slot = (what & 7) as usize;
            if let Some(&id) = known.get(path.as_slice()).and_then(|a| a.get(slot)) {
                if id != u32::MAX {
                    ids.push(id);
                    continue;
                }
            }
            let full = puppet_compiler::reads::path_of(&path);
            let answer = env.read_answers.answer(env.files(), &full, what);
            let (rel, rooted) = match full.strip_prefix(&root) {
                Ok(rel) => (rel.to_path_buf(), true),
                Err(_) => (full.clone(), false),
            };
            let id = self.intern(Observation {
                path: rel,
                rooted,
                what,
                answer,
            });
            known.entry(path).or_insert([u32::MAX; 8])[slot] = id;
            ids.push(id);
        }
        ids.sort_unstable();
        ids.dedup();
        ReadSet {
            key,
            parts: vec![ids.into()],
            chunked: false,
        }
    }

    /// Whether every observation of `set` holds in `env` (a side's
    /// environment, its tree at `root`), for a node with inputs key `key`.
    /// A part shared between read sets is looked at once per environment.
    pub fn still_holds(&self, set: &ReadSet, key: u128, env: &Environment, root: &Path) -> bool {
        if set.key != key {
            return false;
        }
        if !set.chunked {
            return set.parts.iter().all(|part| self.holds(part, env, root));
        }
        let env_id = env as *const Environment as usize;
        set.parts.iter().all(|part| {
            let id = (env_id, part.as_ptr() as usize);
            let known = self
                .parts
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .get(&id)
                .copied();
            known.unwrap_or_else(|| {
                let holds = self.holds(part, env, root);
                self.parts
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .insert(id, holds);
                holds
            })
        })
    }

    /// Whether every observation of `ids` holds in `env`.
    pub fn holds(&self, ids: &[u32], env: &Environment, root: &Path) -> bool {
        let root = absolute(root);
        let states = self
            .states
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .entry(env as *const Environment as usize)
            .or_default()
            .clone();
        let mut states = states.lock().unwrap_or_else(|p| p.into_inner());
        for &i in ids {
            let state = match states.get(i as usize) {
                Some(&s) if s != 0 => s,
                _ => {
                    let Some(o) = self.get(i) else {
                        return false;
                    };
                    let s = if o.holds(env, &root) { 1 } else { 2 };
                    if states.len() <= i as usize {
                        states.resize(i as usize + 1, 0);
                    }
                    states[i as usize] = s;
                    s
                }
            };
            if state != 1 {
                return false;
            }
        }
        true
    }
}

/// `path` made absolute (a REF directory may be given relative).
pub fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

/// Text hashed as it is written, with every occurrence of a side's root
/// written as `<root>` (so the keys of two checkouts compare). The text
/// after replacement is hashed in blocks of a fixed size, so the key does
/// not depend on how the text was cut into writes, nor on the root's
/// length. Held back only what could still begin an occurrence.
struct RootHashing<'r> {
    root: &'r str,
    /// Written, not yet looked at for the root.
    pending: String,
    /// Replaced, not yet hashed (under [`RootHashing::BLOCK`] bytes).
    out: Vec<u8>,
    hash: Hash128,
}

impl<'r> RootHashing<'r> {
    const BLOCK: usize = 16 << 10;

    fn new(root: &'r str) -> RootHashing<'r> {
        RootHashing {
            // `/` alone would be every path's start: nothing to replace.
            root: if root.len() > 1 { root } else { "" },
            pending: String::new(),
            out: Vec::with_capacity(2 * Self::BLOCK),
            hash: Hash128::default(),
        }
    }

    /// Replaces in what no later text can change: all but the last
    /// `root.len() - 1` bytes, unless `end`.
    fn replace(&mut self, end: bool) {
        let text = std::mem::take(&mut self.pending);
        let mut keep = if end || self.root.is_empty() {
            text.len()
        } else {
            text.len().saturating_sub(self.root.len() - 1)
        };
        while !text.is_char_boundary(keep) {
            keep -= 1;
        }
        let mut done = 0;
        if !self.root.is_empty() {
            // An occurrence starting before `keep` ends within the text.
            while let Some(at) = text[done..].find(self.root) {
                let start = done + at;
                if start >= keep {
                    break;
                }
                self.out.extend_from_slice(&text.as_bytes()[done..start]);
                self.out.extend_from_slice(b"<root>");
                done = start + self.root.len();
            }
        }
        let keep = keep.max(done);
        self.out.extend_from_slice(&text.as_bytes()[done..keep]);
        self.pending = text;
        self.pending.drain(..keep);
        let whole = self.out.len() - self.out.len() % Self::BLOCK;
        for block in self.out[..whole].chunks(Self::BLOCK) {
            self.hash.write(block);
        }
        self.out.drain(..whole);
    }

    fn finish(mut self) -> u128 {
        self.replace(true);
        self.hash.write(&self.out);
        self.hash.finish()
    }
}

impl std::fmt::Write for RootHashing<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.pending.push_str(s);
        if self.pending.len() >= Self::BLOCK {
            self.replace(false);
        }
        Ok(())
    }
}

/// pverify's version and this binary's identity (size and modification
/// time): a rebuilt pverify may compile differently, so its read sets and
/// cached catalogs are not reused.
pub fn build_id() -> String {
    static ID: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    ID.get_or_init(|| {
        let exe = std::env::current_exe()
            .and_then(std::fs::metadata)
            .map(|m| {
                let t = m
                    .modified()
                    .ok()
                    .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                    .map_or(0, |d| d.as_nanos());
                format!("{}:{t}", m.len())
            })
            .unwrap_or_default();
        format!("pverify {} {exe}", env!("CARGO_PKG_VERSION"))
    })
    .clone()
}

/// Whether a catalog names its side's tree outside the resources' `file`
/// attributes (a `module_path`, a setting's value): such a catalog differs
/// between two checkouts even when no file did, so it never stands for
/// another side.
pub fn names_tree(catalog: &J, root: &Path) -> bool {
    let root = absolute(root);
    let root = root.to_string_lossy();
    if root.len() <= 1 {
        return true;
    }
    fn walk(v: &J, root: &str, skip_file: bool) -> bool {
        match v {
            J::String(s) => s.contains(root),
            J::Array(a) => a.iter().any(|x| walk(x, root, false)),
            J::Object(o) => o
                .iter()
                .any(|(k, x)| !(skip_file && k == "file") && walk(x, root, false)),
            _ => false,
        }
    }
    match catalog {
        J::Object(o) => o.iter().any(|(k, v)| match (k.as_str(), v) {
            ("resources", J::Array(rs)) => rs.iter().any(|r| walk(r, &root, true)),
            _ => walk(v, &root, false),
        }),
        other => walk(other, &root, false),
    }
}

#[cfg(test)]
mod tests {
    use super::RootHashing;
    use std::fmt::Write;

    fn key(root: &str, pieces: &[&str]) -> u128 {
        let mut h = RootHashing::new(root);
        for p in pieces {
            h.write_str(p).unwrap();
        }
        h.finish()
    }

    /// The same text under two roots of other lengths, cut into writes
    /// differently (a root split across writes and across blocks), gives
    /// one key; another text does not.
    #[test]
    fn keys_do_not_depend_on_the_root_or_the_writes() {
        let text = |root: &str| {
            (0..3000)
                .map(|i| format!("{i}: {root}/modules/m{i} é\n"))
                .collect::<String>()
        };
        let a = text("/tmp/a-side");
        let b = text("/var/tmp/pverify-diff-123456/to");
        let whole = key("/tmp/a-side", &[&a]);
        let mut cuts = Vec::new();
        let mut rest = b.as_str();
        let mut n = 1;
        while !rest.is_empty() {
            let mut at = n.min(rest.len());
            while !rest.is_char_boundary(at) {
                at += 1;
            }
            cuts.push(&rest[..at]);
            rest = &rest[at..];
            n = n % 37 + 3;
        }
        assert_eq!(key("/var/tmp/pverify-diff-123456/to", &cuts), whole);
        assert_ne!(key("/tmp/a-side", &[&a, "x"]), whole);
        assert_ne!(key("/tmp/other", &[&a]), whole);
    }
}
