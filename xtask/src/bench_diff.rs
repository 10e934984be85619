//! `cargo xtask bench-diff [--nodes N] [--resources N] [--jobs N]`
//!
//! Both sides of an N-node matrix (default 1,000) compiled and diffed, the
//! way `pverify diff --from DIR --to DIR --facts ...` does it (each node
//! compiled on both sides and compared at once): the fixture
//! environment `tests/fixtures/diff/env` is copied to `from/` and `to/`
//! (with `to` changing a class parameter and a module file), each side gets a
//! class `base::bulk` declaring `--resources` more files (default 100, so
//! about 110 resources per catalog), and the fixture's node kinds are
//! replicated under distinct certnames (`web0001`, `app0002`, `db0003`, ...).
//! Prints the node count, the wall time of compiling and comparing, of
//! rendering (text and JSON), the report's summary line, and the peak
//! resident memory (`VmHWM` of /proc/self/status).
//!
//! Like bench-parse, a dev build re-runs itself from a release build.

use std::path::{Path, PathBuf};
use std::time::Instant;

use pverify_harness::diff::ignore::Ignore;
use pverify_harness::diff::impact::Mode;
use pverify_harness::diff::render::{render, Format};
use pverify_harness::diff::sides::{diff_refs, FactsFiles, Prepared, Ref, RefOptions};

const USAGE: &str = "usage: cargo xtask bench-diff [--nodes N] [--resources N] [--jobs N]";

/// Extra resources per catalog, so the catalogs are not toy-sized.
const BULK: &str = "class base::bulk (Integer $count) {
  Integer[1, $count].each |$i| {
    file { \"/etc/bulk/${i}.conf\":
      ensure  => file,
      content => \"setting_${i} = ${facts['networking']['hostname']}\\n\",
      require => Package['ntp'],
    }
  }
}
";
use crate::bench::{reexec_release, REEXEC_ENV};

pub fn run(args: &[String]) -> Result<(), String> {
    let mut nodes = 1000usize;
    let mut resources = 100usize;
    let mut jobs = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut num = |name: &str| -> Result<usize, String> {
            it.next()
                .and_then(|v| v.parse().ok())
                .ok_or(format!("{name} needs a number\n{USAGE}"))
        };
        match a.as_str() {
            "--nodes" => nodes = num("--nodes")?,
            "--resources" => resources = num("--resources")?,
            "--jobs" => jobs = Some(num("--jobs")?),
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(());
            }
            _ => return Err(format!("unknown argument '{a}'\n{USAGE}")),
        }
    }
    if cfg!(debug_assertions) && std::env::var_os(REEXEC_ENV).is_none() {
        return reexec_release("bench-diff", args);
    }
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .ok_or("xtask has no parent directory")?;
    let fixture = workspace.join("tests/fixtures/diff/env");
    let tmp = std::env::temp_dir().join(format!("pverify-bench-diff-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let result = bench(&fixture, &tmp, nodes, resources, jobs);
    let _ = std::fs::remove_dir_all(&tmp);
    result
}

fn bench(
    fixture: &Path,
    tmp: &Path,
    n: usize,
    resources: usize,
    jobs: Option<usize>,
) -> Result<(), String> {
    let (from, to) = (tmp.join("from"), tmp.join("to"));
    for side in [&from, &to] {
        copy_dir(fixture, side)?;
        if resources == 0 {
            continue;
        }
        std::fs::write(side.join("modules/base/manifests/bulk.pp"), BULK)
            .map_err(|e| e.to_string())?;
        let site = side.join("manifests/site.pp");
        let text = std::fs::read_to_string(&site).map_err(|e| e.to_string())?;
        let text = text.replacen(
            "  include base\n",
            &format!("  include base\n  class {{ 'base::bulk': count => {resources} }}\n"),
            1,
        );
        std::fs::write(&site, text).map_err(|e| e.to_string())?;
    }
    let init = to.join("modules/base/manifests/init.pp");
    let text = std::fs::read_to_string(&init).map_err(|e| e.to_string())?;
    std::fs::write(&init, text.replace("'0644'", "'0600'")).map_err(|e| e.to_string())?;
    std::fs::write(
        to.join("modules/base/files/motd"),
        "This host is managed by Puppet.\nAuthorised access only.\n",
    )
    .map_err(|e| e.to_string())?;
    // The node matrix: the fixture's nodes under distinct certnames.
    let node_dir = tmp.join("nodes");
    std::fs::create_dir_all(&node_dir).map_err(|e| e.to_string())?;
    let mut files: Vec<PathBuf> = Vec::with_capacity(n);
    let bases = [("web", "web"), ("web", "app"), ("db", "db")];
    for i in 0..n {
        let (role, prefix) = bases[i % bases.len()];
        let name = format!("{prefix}{:04}", i + 1);
        let path = node_dir.join(format!("{name}.json"));
        let doc = format!(
            r#"{{"name": "{name}", "values": {{"role": "{role}", "networking": {{"hostname": "{name}"}}}}}}"#
        );
        std::fs::write(&path, doc).map_err(|e| e.to_string())?;
        files.push(path);
    }
    let source = FactsFiles {
        files,
        enc: None,
        enc_timeout: None,
    };
    let opts = RefOptions {
        jobs,
        ..RefOptions::default()
    };
    let start = Instant::now();
    let a = Prepared::new(&Ref::Dir(from), &opts)?;
    let b = Prepared::new(&Ref::Dir(to), &opts)?;
    let (report, _) = diff_refs(&a, &b, &source, &opts, Ignore::default(), Mode::Full, None)?;
    let compared = start.elapsed();
    let t = Instant::now();
    let text = render(&report, Format::Text, false);
    let json = render(&report, Format::Json, false);
    let rendered = t.elapsed();
    let total = start.elapsed();
    let summary = text.lines().nth(1).unwrap_or_default().to_string();
    println!(
        "nodes:            {n} (x2 sides = {} catalogs of about {} resources)",
        2 * n,
        resources + 10
    );
    println!("threads:          {}", jobs.unwrap_or_else(rayon_threads));
    println!("compile+compare:  {:.3} s", compared.as_secs_f64());
    println!(
        "render text+json: {:.3} s ({} + {} bytes)",
        rendered.as_secs_f64(),
        text.len(),
        json.len()
    );
    println!("wall total:       {:.3} s", total.as_secs_f64());
    println!("peak RSS (VmHWM): {}", peak_rss());
    println!("report:           {summary}");
    if report.count("failed") > 0 {
        return Err(format!("{} nodes failed", report.count("failed")));
    }
    Ok(())
}

fn rayon_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Peak resident memory of this process (`VmHWM` of /proc/self/status).
pub(crate) fn peak_rss() -> String {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .map(|l| l["VmHWM:".len()..].trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into())
}

fn copy_dir(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::create_dir_all(to).map_err(|e| format!("{}: {e}", to.display()))?;
    for e in std::fs::read_dir(from).map_err(|e| format!("{}: {e}", from.display()))? {
        let e = e.map_err(|e| e.to_string())?;
        let target = to.join(e.file_name());
        if e.file_type().map_err(|e| e.to_string())?.is_dir() {
            copy_dir(&e.path(), &target)?;
        } else {
            std::fs::copy(e.path(), &target).map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}
