//! docs/ci.md's recipes, run: each job's commands in order, as GitHub
//! Actions or GitLab CI would run them, each job (and each shard of one) in
//! a directory of its own holding a copy of the checkout (a clone of a bare
//! `origin` with `main`, on a request branch that changes one node's
//! catalog). Artefacts are directory copies: uploaded into a store beside
//! the jobs, downloaded (GitHub's `download-artifact`) or handed to the
//! later stage (GitLab's `.post`) from it. `cargo install` is the built
//! binary already on PATH; `gh` and `curl` are stubs that record what they
//! were asked to post.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value as J;

fn recipe(name: &str) -> J {
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/ci.md"))
        .expect("docs/ci.md");
    let marker = format!("<!-- recipe: {name} -->\n```yaml\n");
    let start = doc.find(&marker).expect("the recipe's marker") + marker.len();
    let body = &doc[start..];
    let yaml = &body[..body.find("```").expect("the recipe's closing fence")];
    puppet_model::yaml::from_str(yaml).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// The CI's checkout: a clone of a bare `origin` whose `main` holds the
/// example repo, on branch `request` with one commit changing the Hiera
/// value every node's banner shows, and its goldens blessed. Returns (checkout, merge base).
fn checkout(tmp: &Path) -> (PathBuf, String) {
    let seed = tmp.join("seed");
    copy_tree(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/example-repo"),
        &seed,
    );
    git(&seed, &["init", "-q", "-b", "main"]);
    git(&seed, &["add", "-A"]);
    git(&seed, &["commit", "-q", "-m", "control repo"]);
    let origin = tmp.join("origin.git");
    git(
        tmp,
        &[
            "clone",
            "-q",
            "--bare",
            seed.to_str().unwrap(),
            origin.to_str().unwrap(),
        ],
    );
    let work = tmp.join("work");
    git(
        tmp,
        &[
            "clone",
            "-q",
            origin.to_str().unwrap(),
            work.to_str().unwrap(),
        ],
    );
    git(&work, &["checkout", "-q", "-b", "request"]);
    let data = work.join("data/common.yaml");
    let text = std::fs::read_to_string(&data).unwrap();
    assert!(
        text.contains("ops@example.com"),
        "the fixture's admin moved: {text}"
    );
    std::fs::write(
        &data,
        text.replace("ops@example.com", "platform@example.com"),
    )
    .unwrap();
    // As a request should: the goldens blessed with the change.
    let bless = Command::new(env!("CARGO_BIN_EXE_pverify"))
        .arg("bless")
        .current_dir(&work)
        .output()
        .expect("pverify bless");
    assert!(
        bless.status.success(),
        "{}",
        String::from_utf8_lossy(&bless.stderr)
    );
    git(&work, &["add", "-A"]);
    git(&work, &["commit", "-q", "-m", "a new admin address"]);
    let base = git(&work, &["merge-base", "origin/main", "HEAD"]);
    (work, base)
}

/// A directory of stubs first on PATH, then the built pverify, then the
/// system's: `cargo install` does nothing (pverify is there already), `gh`
/// and `curl` append their arguments to `posted.log`.
fn path_with_stubs(tmp: &Path) -> String {
    let stubs = tmp.join("stubs");
    std::fs::create_dir_all(&stubs).unwrap();
    let log = tmp.join("posted.log");
    let stub = |name: &str, body: &str| {
        let file = stubs.join(name);
        std::fs::write(&file, format!("#!/bin/sh\n{body}\n")).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o755)).unwrap();
    };
    stub("cargo", "[ \"$1\" = install ] || exit 99");
    let record = format!("echo \"$(basename \"$0\") $*\" >> {}", log.display());
    stub("gh", &record);
    stub("curl", &record);
    let bin = Path::new(env!("CARGO_BIN_EXE_pverify"))
        .parent()
        .unwrap()
        .to_path_buf();
    format!(
        "{}:{}:{}",
        stubs.display(),
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

/// Runs `script` with bash as the CI runs a step (`set -eo pipefail`).
fn run_step(dir: &Path, path: &str, env: &[(String, String)], script: &str) {
    let out = Command::new("bash")
        .args(["--noprofile", "--norc", "-eo", "pipefail", "-c", script])
        .current_dir(dir)
        .env("PATH", path)
        .envs(env.iter().map(|(k, v)| (k, v)))
        .output()
        .expect("bash");
    assert!(
        out.status.success(),
        "step failed ({}):\n{script}\nstdout:\n{}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `${{ EXPR }}` replaced from `vars`; an expression the test does not
/// provide fails the test, so a recipe cannot use one unrun.
fn github_expand(text: &str, vars: &[(&str, String)]) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find("${{") {
        out.push_str(&rest[..i]);
        let end = rest[i..].find("}}").expect("closing }}") + i;
        let expr = rest[i + 3..end].trim();
        let value = vars.iter().find(|(k, _)| *k == expr).unwrap_or_else(|| {
            panic!("the recipe uses ${{{{ {expr} }}}}, which the test does not provide")
        });
        out.push_str(&value.1);
        rest = &rest[end + 2..];
    }
    out.push_str(rest);
    out
}

fn assert_junit(file: &Path) {
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    assert!(text.contains("<testsuite"), "{text}");
    assert!(
        !text.contains("<failure"),
        "the request's goldens match its catalogs: {text}"
    );
    // One suite of every node of the matrix: the shards merged.
    assert!(text.contains("tests=\"6\""), "{text}");
}

fn assert_diff_outputs(dir: &Path) {
    let md = std::fs::read_to_string(dir.join("pverify-diff.md")).expect("pverify-diff.md");
    assert!(md.len() <= 65_000);
    assert!(md.contains("/etc/motd.d/main"), "{md}");
    // Every node of both shards.
    assert!(md.contains("| 6 | 4 | 2 | 0 | 0 | 0 |"), "{md}");
    let html = std::fs::read_to_string(dir.join("pverify-diff.html")).expect("pverify-diff.html");
    assert!(
        html.starts_with("<!DOCTYPE html>") || html.starts_with("<!doctype html>"),
        "{}",
        &html[..80.min(html.len())]
    );
}

/// `*` matches any run of characters in a file name (the recipes' artefact
/// paths and patterns are names in the job's directory).
fn matches(pattern: &str, name: &str) -> bool {
    match pattern.find('*') {
        None => pattern == name,
        Some(i) => {
            name.starts_with(&pattern[..i])
                && (i..=name.len())
                    .any(|j| name.is_char_boundary(j) && matches(&pattern[i + 1..], &name[j..]))
        }
    }
}

/// Copies the files of `from` named by `patterns` into `to` (each pattern
/// must name one at least: a missing artefact is the recipe's bug).
fn copy_matching(from: &Path, patterns: &[String], to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for pattern in patterns {
        let mut found = 0;
        for entry in std::fs::read_dir(from).unwrap() {
            let entry = entry.unwrap();
            let name = entry.file_name().to_string_lossy().into_owned();
            if entry.file_type().unwrap().is_file() && matches(pattern, &name) {
                std::fs::copy(entry.path(), to.join(&name)).unwrap();
                found += 1;
            }
        }
        assert!(found > 0, "no {pattern} in {}", from.display());
    }
}

/// A job's own directory, empty.
fn job_dir(tmp: &Path, job: &str, instance: &str) -> PathBuf {
    let dir = tmp.join("jobs").join(format!("{job}-{instance}"));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn github_actions_recipe_runs() {
    let tmp = tempfile::tempdir().unwrap();
    let (work, base) = checkout(tmp.path());
    let path = path_with_stubs(tmp.path());
    let store = tmp.path().join("artifacts");
    let workflow = recipe("github");
    let jobs = workflow["jobs"].as_object().expect("jobs");
    assert_eq!(
        jobs.keys().collect::<Vec<_>>(),
        ["check", "diff", "check-report", "diff-report"]
    );
    let mut last_dir = HashMap::new();
    for (name, job) in jobs {
        let shards: Vec<String> = match job["strategy"]["matrix"]["shard"].as_array() {
            Some(list) => list.iter().map(|s| s.to_string()).collect(),
            None => vec![String::new()],
        };
        for shard in &shards {
            let dir = job_dir(tmp.path(), name, shard);
            let vars = [
                ("matrix.shard", shard.clone()),
                ("github.base_ref", "main".to_string()),
                ("github.run_id", "42".to_string()),
                ("github.token", "token".to_string()),
                ("github.event.pull_request.number", "7".to_string()),
            ];
            for step in job["steps"].as_array().expect("steps") {
                let with =
                    |key: &str| github_expand(step["with"][key].as_str().unwrap_or(""), &vars);
                match step["uses"].as_str() {
                    Some(a) if a.starts_with("actions/checkout@") => copy_tree(&work, &dir),
                    Some(a) if a.starts_with("actions/upload-artifact@") => {
                        let files: Vec<String> = with("path")
                            .lines()
                            .map(str::trim)
                            .filter(|l| !l.is_empty())
                            .map(str::to_string)
                            .collect();
                        copy_matching(&dir, &files, &store.join(with("name")));
                    }
                    Some(a) if a.starts_with("actions/download-artifact@") => {
                        assert_eq!(step["with"]["merge-multiple"], true, "{step}");
                        let pattern = with("pattern");
                        let mut found = 0;
                        for artefact in std::fs::read_dir(&store).unwrap() {
                            let artefact = artefact.unwrap();
                            if matches(&pattern, &artefact.file_name().to_string_lossy()) {
                                copy_matching(&artefact.path(), &["*".to_string()], &dir);
                                found += 1;
                            }
                        }
                        assert!(found > 0, "no artefact {pattern}");
                    }
                    Some(_) => {} // other actions: the toolchain
                    None => {
                        let script = step["run"].as_str().expect("a run step");
                        let env: Vec<(String, String)> = step["env"]
                            .as_object()
                            .map(|m| {
                                m.iter()
                                    .map(|(k, v)| {
                                        (k.clone(), github_expand(v.as_str().unwrap(), &vars))
                                    })
                                    .collect()
                            })
                            .unwrap_or_default();
                        run_step(&dir, &path, &env, &github_expand(script, &vars));
                    }
                }
            }
            last_dir.insert(name.clone(), dir);
        }
    }
    assert_junit(&last_dir["check-report"].join("pverify-check.xml"));
    assert!(store.join("pverify-check/pverify-check.html").is_file());
    assert_diff_outputs(&last_dir["diff-report"]);
    let posted = std::fs::read_to_string(tmp.path().join("posted.log")).unwrap();
    assert_eq!(
        posted.trim(),
        "gh pr comment 7 --edit-last --body-file pverify-diff.md"
    );
    let _ = base;
}

#[test]
fn gitlab_ci_recipe_runs() {
    let tmp = tempfile::tempdir().unwrap();
    let (work, base) = checkout(tmp.path());
    let path = path_with_stubs(tmp.path());
    let store = tmp.path().join("artifacts");
    let pipeline = recipe("gitlab");
    let jobs = pipeline.as_object().expect("jobs");
    assert_eq!(
        jobs.keys().collect::<Vec<_>>(),
        ["pverify-check", "pverify-diff", "pverify-report"]
    );
    let mut report_dir = None;
    for (name, job) in jobs {
        let parallel = job["parallel"].as_u64().unwrap_or(1);
        let script: Vec<&str> = job["script"]
            .as_array()
            .expect("script")
            .iter()
            .map(|l| l.as_str().expect("a script line"))
            .collect();
        // `.post` runs after every other stage, with their artefacts.
        let post = job["stage"] == ".post";
        for index in 1..=parallel {
            let env: Vec<(String, String)> = [
                ("CI_NODE_INDEX", index.to_string()),
                ("CI_NODE_TOTAL", parallel.to_string()),
                ("CI_MERGE_REQUEST_TARGET_BRANCH_NAME", "main".to_string()),
                ("CI_MERGE_REQUEST_DIFF_BASE_SHA", base.clone()),
                ("CI_MERGE_REQUEST_IID", "7".to_string()),
                ("CI_PROJECT_ID", "11".to_string()),
                (
                    "CI_API_V4_URL",
                    "https://gitlab.example.com/api/v4".to_string(),
                ),
                ("CI_JOB_URL", "https://gitlab.example.com/job/1".to_string()),
                ("PVERIFY_GITLAB_TOKEN", "token".to_string()),
            ]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect();
            // GitLab clones the repository for every job.
            let dir = job_dir(tmp.path(), name, &index.to_string());
            copy_tree(&work, &dir);
            if post {
                for artefact in std::fs::read_dir(&store).unwrap() {
                    copy_matching(&artefact.unwrap().path(), &["*".to_string()], &dir);
                }
            }
            // GitLab runs a job's lines in one shell, stopping at the first
            // that fails.
            run_step(&dir, &path, &env, &script.join("\n"));
            let paths: Vec<String> = job["artifacts"]["paths"]
                .as_array()
                .expect("artifacts")
                .iter()
                .chain(
                    job["artifacts"]["reports"]["junit"]
                        .as_str()
                        .map(|_| &job["artifacts"]["reports"]["junit"]),
                )
                .map(|p| p.as_str().unwrap().to_string())
                .collect();
            copy_matching(&dir, &paths, &store.join(format!("{name}-{index}")));
            if post {
                report_dir = Some(dir);
            }
        }
    }
    let report_dir = report_dir.expect("a .post job");
    assert_junit(&report_dir.join("pverify-check.xml"));
    assert_diff_outputs(&report_dir);
    let posted = std::fs::read_to_string(tmp.path().join("posted.log")).unwrap();
    assert_eq!(
        posted.trim(),
        "curl --fail --request POST --header PRIVATE-TOKEN: token --data-urlencode body@pverify-diff.md \
         https://gitlab.example.com/api/v4/projects/11/merge_requests/7/notes"
    );
}
