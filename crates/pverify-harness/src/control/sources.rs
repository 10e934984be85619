//! The text behind `source => 'puppet:///modules/...'` in goldens: a
//! catalog names the file, not its text, so a changed module file leaves
//! the golden catalog as it is. As octocatalog-diff's
//! `--compare-file-text` does, the text is compared too: `bless` records it
//! beside the golden, in `<golden>/sources/<node>.json` (a resource's
//! reference → the SHA-256 of the bytes and the text, when UTF-8), and
//! `check` compares each `File`'s resolved source with that record, a
//! change shown as a unified diff. The golden catalogs keep Puppet's
//! format; a node without module sources has no record.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use puppet_compiler::files::FileSystem;
use puppet_compiler::loader::environments::Environments;

use super::{Compiled, NodeSpec, Repo};
use crate::catalog_changes::{parameters, Change};
use crate::catalog_diff::Paint;
use crate::file_content::{resolve_source, unified_diff_headed, Content};
use crate::output::OutDir;
use crate::report::{Failure, Item, Status};

/// The records' directory inside the golden directory.
pub const SOURCES_DIR: &str = "sources";

/// What a golden records of one file's source.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Recorded {
    /// SHA-256 of the bytes, hex.
    pub sha256: String,
    /// The text, when it is UTF-8 (binary files are compared by hash).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

/// A node's records: `File[title]` (as the catalog writes it) → record.
pub type Sources = BTreeMap<String, Recorded>;

impl Recorded {
    fn of(content: &Content) -> Recorded {
        let bytes = match content {
            Content::Text(t) => t.as_bytes(),
            Content::Binary(b) => b.as_slice(),
        };
        Recorded {
            sha256: hex(&puppet_model::ruby::digest::sha256_digest(bytes)),
            text: match content {
                Content::Text(t) => Some(t.clone()),
                Content::Binary(_) => None,
            },
        }
    }

    fn content(&self) -> Content {
        match &self.text {
            Some(t) => Content::Text(t.clone()),
            None => Content::Binary(Vec::new()),
        }
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Where a node's sources are read: its environment's modulepath (and the
/// deployed Puppetfile modules' trees) through its confined file system.
pub struct SourceReader {
    envs: Environments,
    /// Directories holding deployed modules, searched first.
    deployed: Vec<PathBuf>,
}

impl SourceReader {
    pub fn new(envs: Environments, deployed: Vec<PathBuf>) -> SourceReader {
        SourceReader { envs, deployed }
    }

    /// The text of every `File` of `catalog` whose `source` names a module
    /// file that exists (a file with `content` has its text in the
    /// catalog already). Nothing when the environment does not boot.
    pub fn read(&self, environment: &str, catalog: &Value) -> Sources {
        // Most catalogs name no module file: no environment is booted.
        let names_module_file = catalog["resources"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|r| parameters(r).contains_key("source"));
        if !names_module_file {
            return Sources::new();
        }
        let Ok(env) = self.envs.get(Some(environment)) else {
            return Sources::new();
        };
        let mut modulepath = self.deployed.clone();
        modulepath.extend(env.modulepath.iter().cloned());
        let files: Arc<dyn FileSystem> = env.shared_files();
        let mut out = Sources::new();
        for r in catalog["resources"].as_array().into_iter().flatten() {
            let is_file = r["type"]
                .as_str()
                .is_some_and(|t| t.eq_ignore_ascii_case("file"));
            let params = parameters(r);
            let Some(source) = params.get("source").filter(|_| is_file) else {
                continue;
            };
            if params.contains_key("content") {
                continue;
            }
            if let Some(c) = resolve_source(source, &modulepath, files.as_ref()) {
                let title = r["title"]
                    .as_str()
                    .map_or_else(|| r["title"].to_string(), str::to_string);
                out.insert(format!("File[{title}]"), Recorded::of(&c));
            }
        }
        out
    }
}

/// The records of node `id` (none when there is no record file).
pub fn read_recorded(golden: &Path, root: &Path, id: &str) -> Result<Option<Sources>, String> {
    let dir = OutDir::within(root, &golden.join(SOURCES_DIR), false)?;
    match dir.read_node(id)? {
        None => Ok(None),
        Some(text) => serde_json::from_str(&text)
            .map(Some)
            .map_err(|e| format!("not a record of sources ({e}); run `pverify bless`")),
    }
}

/// Writes (or, when `sources` is empty, removes) the record of node `id`;
/// whether anything changed.
pub fn write_recorded(
    golden: &Path,
    root: &Path,
    id: &str,
    sources: &Sources,
) -> Result<bool, String> {
    let old = read_recorded(golden, root, id).ok().flatten();
    if sources.is_empty() {
        if old.is_some() {
            let dir = OutDir::within(root, &golden.join(SOURCES_DIR), false)?;
            dir.remove_node(id)?;
            return Ok(true);
        }
        return Ok(false);
    }
    if old.as_ref() == Some(sources) {
        return Ok(false);
    }
    let dir = OutDir::within(root, &golden.join(SOURCES_DIR), true)?;
    let text = serde_json::to_string_pretty(sources).unwrap_or_default() + "\n";
    dir.write_node(id, text.as_bytes())?;
    Ok(true)
}

/// The changes from the recorded texts to the current ones (a changed text
/// as a unified diff), and how many current sources have no record.
pub fn compare(recorded: &Sources, now: &Sources) -> (Vec<Change>, usize) {
    let mut changes = Vec::new();
    let mut unrecorded = 0;
    for (resource, current) in now {
        match recorded.get(resource) {
            None => unrecorded += 1,
            Some(old) if old.sha256 != current.sha256 => changes.push(Change::ContentChanged {
                resource: resource.clone(),
                parameter: "source".into(),
                diff: unified_diff_headed(
                    &old.content(),
                    &current.content(),
                    &format!("{resource} (golden)"),
                    &format!("{resource} (now)"),
                ),
            }),
            Some(_) => {}
        }
    }
    (changes, unrecorded)
}

impl Repo {
    /// Where the nodes' `puppet:///modules/` sources are read.
    fn source_reader(&self) -> SourceReader {
        let deployed = self
            .modules
            .as_ref()
            .map(|d| d.tree_parents())
            .unwrap_or_default();
        SourceReader::new(self.environments(), deployed)
    }

    /// Compares the text behind each compiled catalog's `puppet:///modules/`
    /// sources with the golden's record (`items` are [`Repo::check`]'s, in
    /// `compiled`'s order): a changed text fails the node with a unified
    /// diff. Returns warnings (sources without a record).
    pub fn check_sources(
        &self,
        nodes: &[NodeSpec],
        compiled: &[Compiled],
        items: &mut [Item],
        against: &str,
    ) -> Vec<String> {
        let mut warnings = Vec::new();
        let texts = self.source_texts(nodes, compiled);
        for ((c, item), text) in compiled.iter().zip(items.iter_mut()).zip(texts) {
            let Some((now, record)) = text else { continue };
            let recorded = match read_recorded(&self.config.golden, &self.root, &c.id) {
                Ok(Some(r)) => r,
                Ok(None) if now.is_empty() => continue,
                Ok(None) => Sources::new(),
                Err(e) => {
                    item.status = Status::Failed;
                    item.failures.push(Failure {
                        against: against.to_string(),
                        message: format!("{record}: {e}"),
                        changes: vec![],
                        expected: None,
                        actual: None,
                    });
                    continue;
                }
            };
            let (changes, unrecorded) = compare(&recorded, &now);
            if unrecorded > 0 {
                warnings.push(format!(
                    "{}: the text of {unrecorded} `source` file{} is not recorded in {record}; `pverify bless` records it",
                    c.id,
                    if unrecorded == 1 { "" } else { "s" }
                ));
            }
            if !changes.is_empty() {
                item.status = Status::Failed;
                item.failures.push(Failure {
                    against: against.to_string(),
                    message: format!(
                        "the text behind `source` differs from the golden's record {record} (expected = golden)"
                    ),
                    changes,
                    expected: None,
                    actual: None,
                });
            }
        }
        warnings
    }

    /// For each compiled node (in order), the text behind its catalog's
    /// module sources, read in the node's environment, and the path of its
    /// record beside the goldens; `None` for a node without a catalog.
    fn source_texts(
        &self,
        nodes: &[NodeSpec],
        compiled: &[Compiled],
    ) -> Vec<Option<(Sources, String)>> {
        let reader = self.source_reader();
        let env_of: std::collections::HashMap<&str, &str> = nodes
            .iter()
            .map(|n| (n.id.as_str(), n.case.environment.as_str()))
            .collect();
        compiled
            .iter()
            .map(|c| {
                let text = c.result.as_ref().ok()?;
                let record = || {
                    self.relative(
                        &self
                            .root
                            .join(&self.config.golden)
                            .join(SOURCES_DIR)
                            .join(format!("{}.json", c.id)),
                    )
                };
                // Only a `puppet://` URL names a module file, and the text
                // (serde_json's, which escapes no `/`) writes one as it is:
                // a catalog without one is not parsed again (most are not).
                if !text.contains("puppet://") {
                    return Some((Sources::new(), record()));
                }
                let catalog = serde_json::from_str::<Value>(text).ok()?;
                let env = env_of
                    .get(c.id.as_str())
                    .copied()
                    .unwrap_or(&self.config.environment_name);
                Some((reader.read(env, &catalog), record()))
            })
            .collect()
    }

    /// Records the text behind each compiled catalog's module sources
    /// beside its golden (`bless`); the lines to print and whether a write
    /// failed.
    pub fn bless_sources(
        &self,
        nodes: &[NodeSpec],
        compiled: &[Compiled],
        paint: Paint,
    ) -> (String, bool) {
        let (mut out, mut failed) = (String::new(), false);
        let texts = self.source_texts(nodes, compiled);
        for (c, text) in compiled.iter().zip(texts) {
            let Some((now, rel)) = text else { continue };
            match write_recorded(&self.config.golden, &self.root, &c.id, &now) {
                Ok(true) => out.push_str(&format!(
                    "{} {rel} ({} source{})\n",
                    paint.yellow("recorded"),
                    now.len(),
                    if now.len() == 1 { "" } else { "s" }
                )),
                Ok(false) => {}
                Err(e) => {
                    failed = true;
                    out.push_str(&format!("{} {rel}: {e}\n", paint.red("error")));
                }
            }
        }
        (out, failed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changed_text_is_a_unified_diff() {
        let rec = |t: &str| Recorded::of(&Content::Text(t.into()));
        let old = Sources::from([("File[/etc/motd]".to_string(), rec("a\nb\n"))]);
        let new = Sources::from([
            ("File[/etc/motd]".to_string(), rec("a\nc\n")),
            ("File[/x]".to_string(), rec("x\n")),
        ]);
        let (changes, unrecorded) = compare(&old, &new);
        assert_eq!(unrecorded, 1);
        let [Change::ContentChanged {
            diff, parameter, ..
        }] = changes.as_slice()
        else {
            panic!("{changes:?}");
        };
        assert_eq!(parameter, "source");
        assert!(diff.contains("-b\n+c\n"), "{diff}");
        assert_eq!(compare(&new, &new), (vec![], 0));
    }
}
