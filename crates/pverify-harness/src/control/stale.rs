//! Goldens of nodes no longer in the matrix: reported by `check` (a
//! warning, or a failure with `--strict-goldens`), removed by `bless
//! --prune`.

use super::{sources, NodeSpec, Repo};
use crate::catalog_diff::Paint;
use crate::report::{Failure, Item, Status};

impl Repo {
    /// The goldens of nodes no longer in the matrix (`all`: every node of
    /// the config, whatever `--filter` or `--shard` selected), by name.
    pub fn stale_goldens(&self, all: &[NodeSpec]) -> Vec<String> {
        let Ok(dir) = self.golden_dir(false) else {
            return Vec::new();
        };
        let known: std::collections::HashSet<&str> = all.iter().map(|n| n.id.as_str()).collect();
        dir.node_names()
            .into_iter()
            .filter(|n| !known.contains(n.as_str()))
            .collect()
    }

    /// The report item of a stale golden (`check --strict-goldens`).
    pub fn stale_item(&self, name: &str) -> Item {
        Item {
            name: name.to_string(),
            status: Status::Failed,
            reason: None,
            failures: vec![Failure {
                against: "golden".into(),
                message: self.stale_message(name),
                changes: vec![],
                expected: None,
                actual: None,
            }],
            millis: 0,
        }
    }

    /// `golden/old.json: node old is no longer in the matrix (...)`.
    pub fn stale_message(&self, name: &str) -> String {
        format!(
            "{}: node {name} is no longer in the matrix (`pverify bless --prune` removes it)",
            self.relative(&self.golden_path(name))
        )
    }

    /// Removes the goldens of `stale` nodes (`bless --prune`); the lines to
    /// print and whether a removal failed.
    pub fn prune(&self, stale: &[String], paint: Paint) -> (String, bool) {
        let mut out = String::new();
        let mut failed = false;
        let dir = match self.golden_dir(false) {
            Ok(d) => d,
            Err(e) => return (format!("{} {e}\n", paint.red("error")), true),
        };
        for name in stale {
            let rel = self.relative(&self.golden_path(name));
            // Its record of sources goes with it.
            let _ = sources::write_recorded(
                &self.config.golden,
                &self.root,
                name,
                &sources::Sources::new(),
            );
            match dir.remove_node(name) {
                Ok(()) => out.push_str(&format!("{} {rel}\n", paint.red("removed"))),
                Err(e) => {
                    failed = true;
                    out.push_str(&format!("{} {e}\n", paint.red("error")));
                }
            }
        }
        (out, failed)
    }
}
