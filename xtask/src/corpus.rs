//! `cargo xtask corpus [--no-install | --install-only] [DIR]`
//!
//! Installs Debian's `puppet-module-*` packages (unless `--no-install`; with
//! `--install-only` it stops there, which is what CI uses before the tests) and
//! parses every `*.pp` with `puppet_syntax::parse`: under DIR when one is
//! given, else under both Debian module corpora, Debian 12's
//! (`/usr/share/puppet/modules`, Puppet 7.23's) and Debian 13's (the resolved
//! copy inside the Puppet 8.10 root `cargo xtask puppet8-root` builds,
//! `pverify_harness::reference`). Without the root the Debian 13 corpus is
//! skipped with a note, except under `CI=true`, where that is an error. Fails
//! if any file fails to parse or if a corpus has fewer than `MIN_FILES`
//! files (which would mean the packages are missing).
//!
//! Files are found with `puppet_compiler::files::find_manifests`, the walker the CLI
//! uses (recursive, follows symlinks, each real directory walked once).

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use puppet_compiler::files::{find_manifests, OsFiles};

/// Where Debian's puppet-module-* packages put their modules (symlinks into
/// /etc/alternatives, hence the walker follows symlinks).
pub const DEFAULT_DIR: &str = "/usr/share/puppet/modules";

/// Debian 12 ships ~1,900 manifests in these packages, Debian 13 ~2,100; far
/// fewer means the install went wrong, not that the parser is doing well.
const MIN_FILES: usize = 1500;

/// Stack for the parsing thread. xtask builds in the dev profile, where
/// recursive descent uses much bigger frames than in release; a roomy stack
/// keeps a deeply nested manifest from crashing the task instead of reporting.
pub const PARSE_STACK: usize = 64 << 20;

const USAGE: &str = "usage: cargo xtask corpus [--no-install | --install-only] [DIR]";

pub fn run(args: &[String]) -> Result<(), String> {
    let mut install = true;
    let mut parse = true;
    let mut dir: Option<String> = None;
    for a in args {
        match a.as_str() {
            "--no-install" => install = false,
            "--install-only" => parse = false,
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(());
            }
            s if s.starts_with('-') => return Err(format!("unknown option '{s}'\n{USAGE}")),
            s if dir.is_none() => dir = Some(s.to_string()),
            _ => return Err(format!("too many arguments\n{USAGE}")),
        }
    }
    if !install && !parse {
        return Err(format!(
            "--no-install and --install-only together do nothing\n{USAGE}"
        ));
    }
    if install {
        install_module_packages()?;
    }
    if !parse {
        return Ok(());
    }
    let dirs = match dir {
        Some(d) => vec![PathBuf::from(d)],
        None => default_dirs()?,
    };
    for dir in &dirs {
        parse_corpus(dir)?;
    }
    Ok(())
}

/// Both Debian module corpora: Debian 12's, and Debian 13's when its root
/// exists (under `CI=true` it must).
fn default_dirs() -> Result<Vec<PathBuf>, String> {
    let mut dirs = vec![PathBuf::from(DEFAULT_DIR)];
    let root = pverify_harness::reference::puppet8_root_dir();
    let debian13 = root.join(pverify_harness::reference::MODULES_MIRROR.trim_start_matches('/'));
    if debian13.is_dir() {
        dirs.push(debian13);
    } else if std::env::var("CI").is_ok_and(|v| v == "true") {
        return Err(format!(
            "no Debian 13 module corpus at {} (CI=true: build the root with `cargo xtask puppet8-root` first)",
            debian13.display()
        ));
    } else {
        println!(
            "== no Debian 13 module corpus at {} (`cargo xtask puppet8-root` builds it); parsing Debian 12's only",
            debian13.display()
        );
    }
    Ok(dirs)
}

/// Parses every `*.pp` under `root`.
fn parse_corpus(root: &Path) -> Result<(), String> {
    let dir = root.display().to_string();
    if !root.exists() {
        return Err(format!(
            "{dir} does not exist; install the modules first \
             (`sudo cargo xtask corpus`, or apt-get install puppet-module-...)"
        ));
    }
    // The CLI's walker, so N here is the N `pverify parse DIR` reports.
    let files = find_manifests(&OsFiles, root).map_err(|e| format!("{dir}: {e}"))?;

    println!("== parsing {} files under {dir}", files.len());
    let started = Instant::now();
    let report = std::thread::Builder::new()
        .name("corpus-parse".into())
        .stack_size(PARSE_STACK)
        .spawn(move || parse_all(&files))
        .map_err(|e| format!("cannot spawn parser thread: {e}"))?
        .join()
        .map_err(|_| "parser thread died".to_string())??;
    let elapsed = started.elapsed().as_secs_f64();

    for line in &report.failures {
        println!("{line}");
    }
    println!(
        "{} bytes ({:.2} MB) in {:.2}s (dev-profile xtask; see `cargo xtask bench-parse` for speed)",
        report.bytes,
        report.bytes as f64 / 1e6,
        elapsed
    );
    println!(
        "parsed {} files, {} failed",
        report.files,
        report.failures.len()
    );

    if !report.failures.is_empty() {
        return Err(format!(
            "{} of {} files under {dir} failed to parse",
            report.failures.len(),
            report.files
        ));
    }
    if report.files < MIN_FILES {
        return Err(format!(
            "only {} *.pp files under {dir}, expected at least {MIN_FILES}; \
             are the puppet-module-* packages installed?",
            report.files
        ));
    }
    Ok(())
}

struct Report {
    files: usize,
    bytes: u64,
    failures: Vec<String>,
}

fn parse_all(files: &[PathBuf]) -> Result<Report, String> {
    let mut report = Report {
        files: 0,
        bytes: 0,
        failures: Vec::new(),
    };
    for path in files {
        let source = fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        report.files += 1;
        report.bytes += source.len() as u64;
        let name = path.to_string_lossy();
        if let Err(msg) = parse_one(&name, &source) {
            report.failures.push(msg);
        }
    }
    Ok(report)
}

/// Parses one file; `Err` is a one-line failure message (`file:line:col: ...`
/// for syntax errors). A panic in the parser is a bug, reported as a failure
/// of that file rather than aborting the whole run.
pub fn parse_one(name: &str, source: &[u8]) -> Result<(), String> {
    match std::panic::catch_unwind(|| puppet_syntax::parse(name, source).map(drop)) {
        Ok(Ok(())) => Ok(()),
        Ok(Err(e)) => Err(e.to_string()),
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "<non-string panic>".into());
            Err(format!("{name}: parser panicked: {what}"))
        }
    }
}

/// `apt-get update` then `apt-get install -y` every `puppet-module-*` package.
fn install_module_packages() -> Result<(), String> {
    if !is_root()? {
        return Err(
            "installing packages needs root: run `sudo cargo xtask corpus`, \
                    or install the puppet-module-* packages yourself and use \
                    `cargo xtask corpus --no-install`"
                .into(),
        );
    }
    println!("== apt-get update");
    apt(&["-qq", "update"])?;

    let out = Command::new("apt-cache")
        .args(["search", "--names-only", "^puppet-module-"])
        .output()
        .map_err(|e| format!("cannot run apt-cache: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "apt-cache search failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let mut packages: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|p| p.starts_with("puppet-module-"))
        .map(str::to_string)
        .collect();
    packages.sort();
    packages.dedup();
    if packages.is_empty() {
        return Err(
            "apt-cache found no puppet-module-* packages; is this Debian with `main` enabled?"
                .into(),
        );
    }

    let mut msg = format!(
        "== apt-get install {} puppet-module-* packages:",
        packages.len()
    );
    for p in &packages {
        let _ = write!(msg, " {}", p.trim_start_matches("puppet-module-"));
    }
    println!("{msg}");
    let mut args: Vec<&str> = vec!["-qq", "install", "-y"];
    args.extend(packages.iter().map(String::as_str));
    apt(&args)
}

fn apt(args: &[&str]) -> Result<(), String> {
    let status = Command::new("apt-get")
        .args(args)
        .env("DEBIAN_FRONTEND", "noninteractive")
        // -qq still lets dpkg list every unpacked package on stdout; errors
        // go to stderr, which stays visible.
        .stdout(Stdio::null())
        .status()
        .map_err(|e| format!("cannot run apt-get: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!(
            "apt-get {} failed ({status})",
            args.iter().take(2).copied().collect::<Vec<_>>().join(" ")
        ))
    }
}

fn is_root() -> Result<bool, String> {
    // std has no geteuid(); /proc/self/status has "Uid: real effective saved fs".
    let status = fs::read_to_string("/proc/self/status")
        .map_err(|e| format!("cannot read /proc/self/status: {e}"))?;
    let euid = status
        .lines()
        .find_map(|l| l.strip_prefix("Uid:"))
        .and_then(|rest| rest.split_whitespace().nth(1))
        .ok_or("no Uid line in /proc/self/status")?;
    Ok(euid == "0")
}
