//! `pverify diff --from REV --to REV` between two commits of a temporary git
//! repository, run from a fresh clone of it: the revisions are checked out
//! into temporary worktrees that are removed afterwards, and the clone's own
//! working tree (with an uncommitted edit) is left alone.

mod common;
use common::{copy_dir, git};

use std::path::{Path, PathBuf};
use std::process::Command;

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/diff/env");

struct Scratch(PathBuf);
impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn diff_two_revisions_of_a_fresh_clone() {
    let s =
        Scratch(std::env::temp_dir().join(format!("pverify-test-diff-git-{}", std::process::id())));
    let _ = std::fs::remove_dir_all(&s.0);
    let origin = s.0.join("origin");
    copy_dir(Path::new(FIXTURE), &origin.join("control/env"));
    git(&origin, &["init", "--quiet"]);
    git(&origin, &["add", "."]);
    git(&origin, &["commit", "--quiet", "-m", "one"]);
    let manifest = origin.join("control/env/modules/base/manifests/init.pp");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(&manifest, text.replace("'0644'", "'0600'")).unwrap();
    git(&origin, &["commit", "--quiet", "-am", "two"]);
    git(&origin, &["tag", "v2"]);

    let clone = s.0.join("clone");
    git(
        &s.0,
        &[
            "clone",
            "--quiet",
            origin.to_str().unwrap(),
            clone.to_str().unwrap(),
        ],
    );
    // An uncommitted edit in the user's tree must survive and not be diffed.
    let dirty = clone.join("control/env/manifests/site.pp");
    std::fs::write(&dirty, "node default { }\n").unwrap();

    let out = Command::new(env!("CARGO_BIN_EXE_pverify"))
        .current_dir(clone.join("control"))
        .args([
            "diff",
            "--from",
            "HEAD~1",
            "--to",
            "v2",
            "--env-subdir",
            "control/env",
            "--nodes-dir",
            "control/env/nodes",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let head = git(&clone, &["rev-parse", "HEAD"]);
    let prev = git(&clone, &["rev-parse", "HEAD~1"]);
    assert_eq!(
        stdout,
        format!(
            r#"pverify diff: HEAD~1 ({}) -> v2 ({})
3 nodes: 3 changed, 0 unchanged, 0 added, 0 removed, 0 failed

Class[Base] parameter motd_mode changed on 3 nodes: db01, web01, web02
  "0644" -> "0600"

File[/etc/motd] parameter mode changed on 3 nodes: db01, web01, web02
  "0644" -> "0600"
"#,
            &prev[..12],
            &head[..12]
        ),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(2));
    // The worktrees are gone, the user's edit is still there.
    assert_eq!(git(&clone, &["worktree", "list"]).lines().count(), 1);
    assert_eq!(
        std::fs::read_to_string(&dirty).unwrap(),
        "node default { }\n"
    );
    assert_eq!(
        git(&clone, &["status", "--porcelain"]).trim(),
        "M control/env/manifests/site.pp"
    );

    // The last commit against the working tree (`.`), with its edit.
    let out = Command::new(env!("CARGO_BIN_EXE_pverify"))
        .current_dir(&clone)
        .args([
            "diff",
            "--from",
            "HEAD",
            "--to",
            ".",
            "--env-subdir",
            "control/env",
            "--nodes-dir",
            "control/env/nodes",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(2), "{stdout}");
    assert!(
        stdout.contains("\nClass[Base] removed on 3 nodes: db01, web01, web02\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("\nClass[Db] removed on 1 node: db01\n"),
        "{stdout}"
    );
    assert_eq!(git(&clone, &["worktree", "list"]).lines().count(), 1);

    // A name that is neither a directory nor a revision is an error (1).
    let out = Command::new(env!("CARGO_BIN_EXE_pverify"))
        .current_dir(&clone)
        .args([
            "diff",
            "--from",
            "nosuchrev",
            "--to",
            "HEAD",
            "--nodes-dir",
            "x",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("'nosuchrev' is neither a directory nor a revision"));
}
