//! Module sources for the Puppetfile tests (tests/puppetfile.rs,
//! tests/real_repo.rs): a Forge v3 server on 127.0.0.1 serving tarballs
//! built from Debian's module packages, git repositories made from module
//! directories, Debian's r10k in its own root, and a tree walk to compare
//! deployments with.

use super::git;
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// Debian's module packages (stdlib, concat, inifile, ...).
pub const DEBIAN_MODULES: &str = "/usr/share/puppet/modules";

pub fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// Runs a command that must succeed; returns its stdout.
pub fn sh(cmd: &mut Command) -> String {
    let out = cmd.output().expect("command runs");
    assert!(
        out.status.success(),
        "{cmd:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Copies a module directory, following symlinks (Debian's modules are
/// links into `modules.available`, and their files may be links too).
pub fn copy_module(from: &Path, to: &Path) {
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    sh(Command::new("cp").arg("-rL").arg(from).arg(to));
}

/// One release the test Forge offers.
pub struct Release {
    /// `owner-name`.
    pub slug: String,
    pub version: String,
    pub tarball: Vec<u8>,
    /// The checksum the Forge announces: the tarball's, unless a test
    /// wants a wrong one.
    pub sha256: String,
}

impl Release {
    /// A release whose tarball holds `source` (a module directory) as
    /// `<slug>-<version>/`, its metadata.json's version set to `version`,
    /// after `edits` (path in the module, text, replacement).
    pub fn from_dir(
        staging: &Path,
        slug: &str,
        version: &str,
        source: &Path,
        edits: &[(&str, &str, &str)],
    ) -> Release {
        let top = format!("{slug}-{version}");
        let dir = staging.join(&top);
        copy_module(source, &dir);
        let metadata = dir.join("metadata.json");
        let mut json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&metadata).unwrap()).unwrap();
        json["version"] = version.into();
        std::fs::write(&metadata, serde_json::to_string_pretty(&json).unwrap()).unwrap();
        for (file, from, to) in edits {
            let path = dir.join(file);
            let text = std::fs::read_to_string(&path).unwrap();
            assert!(text.contains(from), "{} has no {from:?}", path.display());
            std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
        }
        let tarball = staging.join(format!("{top}.tar.gz"));
        sh(Command::new("tar")
            .arg("-czf")
            .arg(&tarball)
            .arg("-C")
            .arg(staging)
            .arg(&top));
        let sha256 = sh(Command::new("sha256sum").arg(&tarball));
        Release {
            slug: slug.into(),
            version: version.into(),
            tarball: std::fs::read(&tarball).unwrap(),
            sha256: sha256.split_whitespace().next().unwrap().into(),
        }
    }

    /// The same tarball announced under another name with a wrong checksum.
    pub fn with_wrong_checksum(&self, slug: &str, version: &str) -> Release {
        Release {
            slug: slug.into(),
            version: version.into(),
            tarball: self.tarball.clone(),
            sha256: "0".repeat(64),
        }
    }
}

/// A Forge v3 server on 127.0.0.1: `/v3/modules/<slug>` (its newest
/// release is the last one given), `/v3/releases/<slug>-<version>`,
/// `/v3/releases?module=<slug>` and `/v3/files/<slug>-<version>.tar.gz`.
/// Plain HTTP, as r10k allows (`forge 'http://...'`).
pub struct Forge {
    pub url: String,
    pub requests: Arc<AtomicUsize>,
}

pub fn serve_forge(releases: Vec<Release>) -> Forge {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let mut routes: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    let mut by_module: BTreeMap<String, Vec<serde_json::Value>> = BTreeMap::new();
    for r in &releases {
        let file_uri = format!("/v3/files/{}-{}.tar.gz", r.slug, r.version);
        let release = serde_json::json!({
            "slug": format!("{}-{}", r.slug, r.version),
            "version": r.version,
            "file_uri": file_uri,
            "file_sha256": r.sha256,
            "file_md5": "",
        });
        routes.insert(
            format!("/v3/releases/{}-{}", r.slug, r.version),
            release.to_string().into_bytes(),
        );
        routes.insert(
            format!("/v3/modules/{}", r.slug),
            serde_json::json!({"slug": r.slug, "current_release": release})
                .to_string()
                .into_bytes(),
        );
        by_module.entry(r.slug.clone()).or_default().push(release);
        routes.insert(file_uri, r.tarball.clone());
    }
    for (slug, list) in by_module {
        routes.insert(
            format!("/v3/releases?module={slug}"),
            serde_json::json!({"pagination": {"total": list.len()}, "results": list})
                .to_string()
                .into_bytes(),
        );
    }
    let requests = Arc::new(AtomicUsize::new(0));
    let counter = requests.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            counter.fetch_add(1, Ordering::SeqCst);
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut line = String::new();
            let _ = reader.read_line(&mut line);
            // The headers, up to the blank line.
            loop {
                let mut h = String::new();
                if reader.read_line(&mut h).unwrap_or(0) == 0 || h == "\r\n" {
                    break;
                }
            }
            let path = line.split_whitespace().nth(1).unwrap_or("").to_string();
            let (status, body) = match routes.get(&path) {
                Some(b) => ("200 OK", b.clone()),
                None => ("404 Not Found", br#"{"errors": ["not found"]}"#.to_vec()),
            };
            let head = format!(
                "HTTP/1.1 {status}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            );
            let _ = stream.write_all(head.as_bytes());
            let _ = stream.write_all(&body);
            let _ = reader.read(&mut [0u8; 0]);
        }
    });
    Forge { url, requests }
}

/// A git repository at `repo` holding `source`'s files, one commit on
/// branch `main`, tagged with each of `tags`.
pub fn git_module(repo: &Path, source: &Path, tags: &[&str]) -> PathBuf {
    copy_module(source, repo);
    git(repo, &["init", "--quiet", "-b", "main"]);
    git(repo, &["add", "-A"]);
    git(repo, &["commit", "--quiet", "-m", "import"]);
    for t in tags {
        git(repo, &["tag", t]);
    }
    repo.to_path_buf()
}

/// Debian 12's r10k in its own root (`cargo xtask r10k-root`); `None`
/// outside CI when it is missing, a failure under CI.
pub fn r10k_root() -> Option<PathBuf> {
    let root = std::env::var_os("PVERIFY_R10K_ROOT")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/var/tmp/pverify-r10k-root"));
    if root.join("etc/pverify-r10k-root").is_file() {
        return Some(root);
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "CI needs r10k's root: cargo xtask r10k-root ({} is missing)",
        root.display()
    );
    eprintln!(
        "not compared with r10k: {} is missing (cargo xtask r10k-root)",
        root.display()
    );
    None
}

/// `r10k puppetfile install` in `env` (under `tmp`), run in r10k's root
/// with `tmp` bound at the same path.
pub fn r10k_install(root: &Path, tmp: &Path, env: &Path) {
    let inside = root.join(tmp.strip_prefix("/").unwrap());
    std::fs::create_dir_all(&inside).unwrap();
    let script = format!(
        "mount --bind {tmp} {inside} && chroot {root} sh -c 'cd {env} && HOME={tmp}/home r10k puppetfile install'",
        tmp = tmp.display(),
        inside = inside.display(),
        root = root.display(),
        env = env.display(),
    );
    let out = Command::new("unshare")
        .args(["--mount", "sh", "-c", &script])
        .output()
        .unwrap();
    let _ = std::fs::remove_dir(&inside);
    assert!(
        out.status.success(),
        "r10k: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Every entry under `dir` but `.git` at its top: path → what it is (a
/// file's bytes and executable bit, a symlink's target, a directory).
pub fn tree(dir: &Path) -> BTreeMap<PathBuf, String> {
    use std::os::unix::fs::PermissionsExt;
    fn walk(base: &Path, dir: &Path, out: &mut BTreeMap<PathBuf, String>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let e = e.unwrap();
            let path = e.path();
            let rel = path.strip_prefix(base).unwrap().to_path_buf();
            if rel == Path::new(".git") {
                continue;
            }
            let meta = std::fs::symlink_metadata(&path).unwrap();
            let what = if meta.file_type().is_symlink() {
                format!("symlink {}", std::fs::read_link(&path).unwrap().display())
            } else if meta.is_dir() {
                walk(base, &path, out);
                "dir".into()
            } else {
                format!(
                    "file exec={} {}",
                    meta.permissions().mode() & 0o111 != 0,
                    String::from_utf8_lossy(&std::fs::read(&path).unwrap())
                )
            };
            out.insert(rel, what);
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}
