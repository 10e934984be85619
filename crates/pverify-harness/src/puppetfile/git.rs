//! Git modules with the system's `git`: a bare mirror of each remote in
//! the cache, the wanted ref resolved to a commit there, and the commit's
//! tree exported without `.git` (a checkout through a temporary index, so
//! the tree is the one `git checkout` gives, as r10k deploys it, not
//! `git archive`'s, which drops `export-ignore` files).

use std::path::{Path, PathBuf};
use std::process::Command;

use super::cache;
use super::parse::{GitWant, ModDecl};

/// The deployed tree of a git module: the directory holding `<name>/`, and
/// the commit.
pub fn deploy(
    cache_dir: &Path,
    decl: &ModDecl,
    url: &str,
    want: &GitWant,
    offline: bool,
) -> Result<(PathBuf, String), String> {
    let base = cache_dir.join("git").join(cache::source_key(url));
    let mirror = base.join("repo.git");
    let fail = |msg: String| format!("{}: mod '{}': {msg}", decl.at, decl.full_name);
    let what = format!("{}-{}", want.kind(), want.text());
    let commit = if offline {
        match resolve_local(&mirror, want) {
            Some(c) => c,
            None => cache::recall(cache_dir, url, &what).ok_or_else(|| {
                fail(format!(
                    "{} '{}' of {url} is not in the module cache, and --offline allows no network",
                    want.kind(),
                    want.text()
                ))
            })?,
        }
    } else {
        // A commit or tag already mirrored needs no network; a branch or
        // a ref (which may name one) is asked of the remote each run.
        let settled = matches!(want, GitWant::Commit(_) | GitWant::Tag(_));
        match resolve_local(&mirror, want).filter(|_| settled) {
            Some(c) => c,
            None => {
                fetch(&mirror, url).map_err(fail)?;
                let c = resolve_local(&mirror, want).ok_or_else(|| {
                    fail(format!("{url} has no {} '{}'", want.kind(), want.text()))
                })?;
                cache::remember(cache_dir, url, &what, &c)?;
                c
            }
        }
    };
    let holder = base.join("trees").join(&commit);
    let tree = holder.join(&decl.name);
    if !tree.is_dir() {
        if !mirror.is_dir() {
            return Err(fail(format!(
                "commit {commit} of {url} is not in the module cache"
            )));
        }
        cache::install_tree(&tree, |staging| {
            export(&mirror, &commit, staging).map_err(fail)
        })?;
    }
    Ok((holder, commit))
}

fn git(args: &[&str]) -> Command {
    let mut c = Command::new("git");
    c.args(args)
        .env("GIT_TERMINAL_PROMPT", "0")
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .env_remove("GIT_INDEX_FILE");
    c
}

fn run(mut c: Command, what: &str) -> Result<String, String> {
    let out = c
        .output()
        .map_err(|e| format!("{what}: cannot run git: {e}"))?;
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
    } else {
        Err(format!(
            "{what}: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

/// Makes or refreshes the bare mirror of `url`.
fn fetch(mirror: &Path, url: &str) -> Result<(), String> {
    let m = mirror.to_string_lossy();
    if !mirror.join("HEAD").is_file() {
        std::fs::create_dir_all(mirror).map_err(|e| format!("{m}: {e}"))?;
        run(git(&["init", "-q", "--bare", &m]), "git init")?;
    }
    run(
        git(&[
            "--git-dir",
            &m,
            "fetch",
            "-q",
            "--prune",
            "--force",
            "--tags",
            url,
            "+refs/heads/*:refs/heads/*",
        ]),
        &format!("git fetch {url}"),
    )?;
    Ok(())
}

/// The commit `want` names in the mirror, if it has it.
fn resolve_local(mirror: &Path, want: &GitWant) -> Option<String> {
    if !mirror.is_dir() {
        return None;
    }
    // r10k resolves every kind with `git rev-parse NAME^{commit}` (git's
    // own order: a tag before a branch of the same name); a tag or branch
    // is looked for under its own namespace first.
    let candidates: Vec<String> = match want {
        GitWant::Commit(c) | GitWant::Ref(c) => vec![c.clone()],
        GitWant::Tag(t) => vec![format!("refs/tags/{t}"), t.clone()],
        GitWant::Branch(b) => vec![format!("refs/heads/{b}"), b.clone()],
    };
    let m = mirror.to_string_lossy();
    candidates.iter().find_map(|c| {
        if c.starts_with('-') {
            return None;
        }
        run(
            git(&[
                "--git-dir",
                &m,
                "rev-parse",
                "-q",
                "--verify",
                &format!("{c}^{{commit}}"),
            ]),
            "git rev-parse",
        )
        .ok()
        .filter(|s| !s.is_empty())
    })
}

/// The commit's tree written into `dest`, as a checkout writes it.
fn export(mirror: &Path, commit: &str, dest: &Path) -> Result<(), String> {
    let scratch = tempfile::tempdir().map_err(|e| e.to_string())?;
    let index = scratch.path().join("index");
    let m = mirror.to_string_lossy();
    let d = dest.to_string_lossy();
    let with_index = |args: &[&str]| {
        let mut c = git(&["--git-dir", &m, "--work-tree", &d]);
        c.args(args).env("GIT_INDEX_FILE", &index);
        c
    };
    run(with_index(&["read-tree", commit]), "git read-tree")?;
    run(
        with_index(&["checkout-index", "-a", "-f"]),
        "git checkout-index",
    )?;
    Ok(())
}
