//! A git revision of the current repository checked out for reading:
//! `git worktree add --detach` into a fresh temporary directory, removed
//! again (worktree and directory) when the [`Worktree`] is dropped. The
//! user's working tree, index and branches are never touched.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

fn git(repo: &Path, args: &[&str]) -> Result<String, String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(repo)
        .args(args)
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
    } else {
        Err(format!(
            "git {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

/// The top directory of the repository holding `dir`.
pub fn toplevel(dir: &Path) -> Result<PathBuf, String> {
    git(dir, &["rev-parse", "--show-toplevel"]).map(PathBuf::from)
}

/// The commit `rev` names, or an error saying it names none.
pub fn resolve(repo: &Path, rev: &str) -> Result<String, String> {
    if rev.starts_with('-') {
        return Err(format!("'{rev}' is not a revision"));
    }
    git(
        repo,
        &[
            "rev-parse",
            "--verify",
            "--quiet",
            &format!("{rev}^{{commit}}"),
        ],
    )
    .map_err(|_| {
        format!(
            "'{rev}' is neither a directory nor a revision of {}",
            repo.display()
        )
    })
}

/// A detached checkout of one commit, deleted on drop.
pub struct Worktree {
    repo: PathBuf,
    tmp: PathBuf,
    /// The checkout (inside `tmp`).
    pub dir: PathBuf,
    pub commit: String,
}

static COUNTER: AtomicUsize = AtomicUsize::new(0);

impl Worktree {
    pub fn add(repo: &Path, rev: &str) -> Result<Worktree, String> {
        let commit = resolve(repo, rev)?;
        // Created exclusively with a random name (a predictable one in the
        // shared temporary directory could have been planted); removed on
        // drop.
        let tmp = tempfile::Builder::new()
            .prefix(&format!(
                "pverify-diff-{}-",
                COUNTER.fetch_add(1, Ordering::Relaxed)
            ))
            .tempdir()
            .map_err(|e| format!("cannot make a temporary directory: {e}"))?
            .keep();
        let dir = tmp.join("tree");
        let wt = Worktree {
            repo: repo.to_path_buf(),
            tmp,
            dir,
            commit,
        };
        let dir = wt.dir.to_string_lossy().into_owned();
        // No hooks: a post-checkout hook is the user's business, not a
        // side effect of diffing.
        git(
            repo,
            &[
                "-c",
                "core.hooksPath=/dev/null",
                "worktree",
                "add",
                "--detach",
                "--quiet",
                &dir,
                &wt.commit,
            ],
        )?;
        Ok(wt)
    }
}

impl Drop for Worktree {
    fn drop(&mut self) {
        let dir = self.dir.to_string_lossy().into_owned();
        let _ = git(&self.repo, &["worktree", "remove", "--force", &dir]);
        let _ = std::fs::remove_dir_all(&self.tmp);
        let _ = git(&self.repo, &["worktree", "prune"]);
    }
}
