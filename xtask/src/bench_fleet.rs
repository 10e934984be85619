//! The fleet scenario of `cargo xtask bench` (`--fleet`, and part of the
//! full run; docs/benchmark.md): a pre-merge diff at fleet scale.
//!
//! The bundled control repo's matrix is replicated to N nodes (default
//! 10,000; certnames as the throughput run names them) in a control repo of
//! its own, a git repository in a temporary directory: the bundled repo's
//! code, factsets and Hiera data (not its goldens), and a `pverify.yaml`
//! whose matrix lists the N certnames, each with its factset. One more
//! profile, `profile::canary`, is included by about one node in twenty (a
//! rollout ring chosen by `fqdn_rand` seeded with the certname, as sites
//! pick canaries). First
//! commit; then a second one changing one line of `profile::canary`.
//!
//! Each measurement is its own `pverify` process (the release binary),
//! `--jobs J` (default 2), timed from start to exit with its peak RSS (its
//! own `VmHWM`, sampled as the throughput run samples it):
//! (a) `pverify compile --out-dir` of the N nodes (node files written
//!     outside the repository, as a fact cache would be);
//! (b) `pverify diff --from FROM --to TO` comparing every node (`--full`
//!     when the build has it, else the only diff it has);
//! (c) the impact-aware diff, when `pverify diff --help` offers `--full`:
//!     without `--full`, and with `--cache DIR` filled by an untimed run of
//!     the same diff.
//! How many nodes each diff compiled comes from the line `pverify diff`
//! prints on stderr (see [`compiled_counts`]).
//!
//! The fleet also gives a warm-ratio sample (`--warm`, and the full run):
//! S of its nodes spread evenly over it, timed against Puppet with a fresh
//! and with a cached environment (`bench_paired.rs`).

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

use pverify_harness::control::{NodeSpec, Repo};

use crate::bench_compile::{
    compile_command, replicate, run_measured, tail, tempfile_dir, write_node_files, Measured,
};
use crate::git::git;

/// Where the fleet's code comes from (relative to the workspace).
pub(crate) const SOURCE_REPO: &str = "tests/fixtures/control-repo";

/// One node in this many includes `profile::canary` (`fqdn_rand`).
const CANARY_RING: u32 = 20;

/// The canary profile, its version line the one the second commit changes.
const CANARY_PP: &str = "# Canary ring: the next metrics exporter, rolled out to about one node in
# twenty before the rest of the fleet (manifests/site.pp picks the ring).
class profile::canary (
  String $exporter_version = '1.7.0-1',
) {
  package { 'prometheus-node-exporter':
    ensure => $exporter_version,
  }
  file { '/etc/default/prometheus-node-exporter':
    ensure  => file,
    mode    => '0644',
    content => \"ARGS=\\\"--collector.systemd --web.listen-address=:9100\\\"\\n\",
    require => Package['prometheus-node-exporter'],
    notify  => Service['prometheus-node-exporter'],
  }
  service { 'prometheus-node-exporter':
    ensure => running,
    enable => true,
  }
}
";

/// The one-line change of the second commit.
const CANARY_CHANGE: (&str, &str) = ("'1.7.0-1'", "'1.8.2-1'");

/// A fleet control repo, committed twice.
pub(crate) struct Fleet {
    /// The git repository (and control repo root).
    pub dir: PathBuf,
    /// The replicated nodes, as the repo's matrix lists them.
    pub nodes: Vec<NodeSpec>,
    /// The first commit and the second (the canary change).
    pub from: String,
    pub to: String,
}

impl Fleet {
    /// The repo as a [`Repo`] (at its second commit, the working tree).
    pub(crate) fn repo(&self) -> Result<Repo, String> {
        Repo::open(&self.dir)
    }
}

/// Builds the fleet repository under `tmp/fleet`.
pub(crate) fn build(workspace: &Path, tmp: &Path, count: usize) -> Result<Fleet, String> {
    let source = workspace.join(SOURCE_REPO);
    let dir = tmp.join("fleet");
    copy_tree(&source, &dir, &|name| {
        name != "golden" && name != "pverify.yaml" && name != "README.md"
    })?;
    let bases = Repo::open(&source)?.nodes()?;
    let nodes = replicate(&bases, count)?;
    write(&dir.join("pverify.yaml"), &fleet_config(&nodes)?)?;
    write(&dir.join("site/profile/manifests/canary.pp"), CANARY_PP)?;
    let site = dir.join("manifests/site.pp");
    let text = std::fs::read_to_string(&site).map_err(|e| format!("{}: {e}", site.display()))?;
    write(
        &site,
        &format!(
            "{text}\n# The canary ring: about one node in {CANARY_RING}, the same ones from run \
             to run (seeded with the certname: the replicated nodes share their fact set's \
             fqdn).\nif fqdn_rand({CANARY_RING}, \"canary ${{trusted['certname']}}\") == 0 \
             {{\n  include profile::canary\n}}\n"
        ),
    )?;
    git(&dir, &["init", "--quiet", "--initial-branch=main"])?;
    git(&dir, &["add", "--all"])?;
    git(&dir, &["commit", "--quiet", "-m", "fleet"])?;
    let from = git(&dir, &["rev-parse", "HEAD"])?;
    let canary = dir.join("site/profile/manifests/canary.pp");
    write(
        &canary,
        &CANARY_PP.replacen(CANARY_CHANGE.0, CANARY_CHANGE.1, 1),
    )?;
    git(
        &dir,
        &["commit", "--quiet", "-am", "canary: the next exporter"],
    )?;
    let to = git(&dir, &["rev-parse", "HEAD"])?;
    Ok(Fleet {
        dir,
        nodes,
        from,
        to,
    })
}

/// The fleet's `pverify.yaml`: one matrix entry per factset listing its
/// certnames.
fn fleet_config(nodes: &[NodeSpec]) -> Result<String, String> {
    let mut by_factset: std::collections::BTreeMap<&str, Vec<&str>> = Default::default();
    for n in nodes {
        let (certname, factset) =
            n.id.split_once('@')
                .ok_or_else(|| format!("{}: a fleet node needs a factset", n.id))?;
        by_factset.entry(factset).or_default().push(certname);
    }
    let mut text = String::from(
        "# Generated by `cargo xtask bench --fleet`: the bundled control repo's\n\
         # matrix replicated to a fleet.\npuppet: 7\nenvironment: .\nfactsets: factsets\n\
         nodes:\n  matrix:\n",
    );
    for (factset, names) in by_factset {
        text.push_str(&format!(
            "    - factsets: [{factset}]\n      names: [{}]\n",
            names.join(", ")
        ));
    }
    Ok(text)
}

/// The scenario's figures, printed as a table.
pub(crate) fn run(
    workspace: &Path,
    binary: &Path,
    count: usize,
    jobs: usize,
) -> Result<(), String> {
    let tmp = tempfile_dir("pverify-bench-fleet")?;
    let result = (|| {
        let fleet = build(workspace, &tmp, count)?;
        measure(binary, &fleet, &tmp, jobs)
    })();
    // Kept for profiling a run by hand (`PVERIFY_BENCH_KEEP=1`).
    if std::env::var_os("PVERIFY_BENCH_KEEP").is_some() {
        println!("fleet kept in {}", tmp.display());
    } else {
        let _ = std::fs::remove_dir_all(&tmp);
    }
    result
}

/// The fleet sample's warm ratios: `sample` nodes spread evenly over the
/// fleet generated from the Debian module packages (`bench_module_fleet`),
/// Puppet (fresh and cached environment) against pverify, timed in turns
/// as the control repo's sample is. `None` without the module packages.
pub(crate) fn sample_ratio(
    workspace: &Path,
    sample: usize,
) -> Result<Option<crate::bench_compile::Ratios>, String> {
    if !Path::new(crate::oracle_modules::MODULE_DIR).is_dir() {
        println!("fleet sample: not run (no Debian module packages)");
        return Ok(None);
    }
    let tmp = tempfile_dir("pverify-bench-fleet-sample")?;
    let result = (|| {
        let (repo, nodes) = crate::bench_module_fleet::build(workspace, &tmp)?;
        let env = repo.boot()?;
        let picked = spread(&nodes, sample.max(2));
        // Parse what the sample needs before timing, as the other samples;
        // and say what the sample is.
        let (_, failed, _) = crate::bench_compile::compile_timed(&env, &picked, 1, repo.puppet())?;
        let mut sizes: Vec<usize> = picked
            .iter()
            .filter_map(|n| {
                let node =
                    pverify_harness::harness::node_for(&n.case, &n.case.facts, repo.puppet());
                puppet_compiler::eval::compile(&env, node)
                    .ok()
                    .map(|c| c.catalog["resources"].as_array().map_or(0, Vec::len))
            })
            .collect();
        sizes.sort_unstable();
        println!(
            "fleet sample ({} of the {} nodes of a fleet generated over Debian's module packages, \
             every {}th; {} to {} resources, median {}; {failed} failed):",
            picked.len(),
            nodes.len(),
            nodes.len() / picked.len(),
            sizes.first().copied().unwrap_or(0),
            sizes.last().copied().unwrap_or(0),
            sizes.get(sizes.len() / 2).copied().unwrap_or(0),
        );
        crate::bench_compile::warm_ratio(&repo, &env, &picked, picked.len()).map(Some)
    })();
    let _ = std::fs::remove_dir_all(&tmp);
    result
}

/// `count` nodes spread evenly over `nodes` (every k-th), so a sample
/// crosses roles and fact sets alike.
pub(crate) fn spread(nodes: &[NodeSpec], count: usize) -> Vec<NodeSpec> {
    let count = count.clamp(1, nodes.len().max(1));
    let step = (nodes.len() / count).max(1);
    nodes.iter().step_by(step).take(count).cloned().collect()
}

/// One row of the table.
struct Row {
    what: String,
    measured: Measured,
    /// Nodes compiled (both sides of a diff counted once per node and
    /// side), when known.
    compiled: Option<String>,
    note: String,
}

fn measure(binary: &Path, fleet: &Fleet, tmp: &Path, jobs: usize) -> Result<(), String> {
    let repo = fleet.repo()?;
    let n = fleet.nodes.len();
    println!(
        "fleet: {} ({n} nodes: the bundled control repo's matrix replicated; a git repository, \
         two commits: {} then a one-line change of profile::canary, {})",
        fleet.dir.display(),
        &fleet.from[..12],
        &fleet.to[..12]
    );
    let mut rows = Vec::new();

    // (a) full compile.
    let files = write_node_files(&repo, &fleet.nodes, &tmp.join("nodes"))?;
    let mut cmd = compile_command(binary, &repo, &files);
    cmd.arg("--out-dir")
        .arg(tmp.join("out"))
        .arg("--jobs")
        .arg(jobs.to_string());
    let m = run_measured(&mut cmd)?;
    if !m.success {
        return Err(format!("pverify compile failed:\n{}", tail(&m.stderr)));
    }
    rows.push(Row {
        what: format!("compile --out-dir, {n} nodes"),
        measured: m,
        compiled: Some(n.to_string()),
        note: "targets: 10 s, 1 GB".into(),
    });

    // (b) and (c): diffs between the two commits.
    let help = Command::new(binary)
        .args(["diff", "--help"])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default();
    let has_full = has_flag(&help, "--full");
    let has_cache = has_flag(&help, "--cache");
    let report = tmp.join("diff.json");
    let diff = |extra: &[&str]| -> Result<(Measured, Value), String> {
        let _ = std::fs::remove_file(&report);
        let mut cmd = Command::new(binary);
        cmd.current_dir(&fleet.dir)
            .args(["diff", "--from", &fleet.from, "--to", &fleet.to])
            .arg("--repo")
            .arg(&fleet.dir)
            .args(["--jobs", &jobs.to_string(), "--format", "json", "--output"])
            .arg(&report)
            .args(extra);
        let m = run_measured(&mut cmd)?;
        let text = std::fs::read_to_string(&report).map_err(|_| {
            format!(
                "pverify diff {} wrote no report ({}):\n{}",
                extra.join(" "),
                m.code,
                tail(&m.stderr)
            )
        })?;
        let json: Value = serde_json::from_str(&text)
            .map_err(|e| format!("pverify diff's report is not JSON: {e}"))?;
        Ok((m, json))
    };
    let full_flags: &[&str] = if has_full { &["--full"] } else { &[] };
    let (m, json) = diff(full_flags)?;
    let changed = summary(&json, "changed");
    let failed = summary(&json, "failed");
    rows.push(Row {
        what: format!("diff{}", if has_full { " --full" } else { "" }),
        compiled: compiled_counts(&m.stderr).or(Some(format!("{} (2 x {n})", 2 * n))),
        note: format!("{changed} nodes changed, {failed} failed"),
        measured: m,
    });
    let full_wall = rows[1].measured.wall;
    if has_full {
        let impact_row = |what: &str, extra: &[&str], targets: &str| -> Result<Row, String> {
            let (m, json) = diff(extra)?;
            Ok(Row {
                what: what.into(),
                compiled: compiled_counts(&m.stderr),
                note: format!(
                    "{} nodes changed; {:.1}x faster than the full diff{targets}",
                    summary(&json, "changed"),
                    full_wall.as_secs_f64() / m.wall.as_secs_f64().max(1e-9)
                ),
                measured: m,
            })
        };
        rows.push(impact_row(
            "diff (impact-aware)",
            &[],
            " (targets: 1.5 s, 10x)",
        )?);
        if has_cache {
            let cache = tmp.join("cache");
            let cache_arg = cache.to_string_lossy().into_owned();
            // Filled by an earlier run on the same `from` (untimed).
            diff(&["--cache", &cache_arg])?;
            rows.push(impact_row(
                "diff (impact-aware) --cache DIR, filled",
                &["--cache", &cache_arg],
                "",
            )?);
        }
    } else {
        println!(
            "  impact-aware diff: not available in this build (`pverify diff --help` has no --full)"
        );
    }
    print_table(&rows, jobs);
    Ok(())
}

/// Whether a `--help` text offers `flag` itself (`--full`, not only
/// `--full-report-url`).
fn has_flag(help: &str, flag: &str) -> bool {
    help.match_indices(flag).any(|(at, _)| {
        let next = help[at + flag.len()..].chars().next();
        !next.is_some_and(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    })
}

fn print_table(rows: &[Row], jobs: usize) {
    println!("  each a separate pverify process, --jobs {jobs}, start to exit:");
    println!(
        "  | {:<42} | {:>8} | {:>9} | {:<22} | note",
        "run", "wall", "peak RSS", "nodes compiled"
    );
    println!("  |{:-<44}|{:->10}|{:->11}|{:-<24}|------", "", "", "", "");
    for r in rows {
        println!(
            "  | {:<42} | {:>6.2} s | {:>6.0} MB | {:<22} | {}",
            r.what,
            r.measured.wall.as_secs_f64(),
            r.measured.rss_kb as f64 / 1024.0,
            r.compiled.as_deref().unwrap_or("not reported"),
            r.note
        );
    }
}

/// `summary.<key>` of a diff report, `?` when missing.
fn summary(report: &Value, key: &str) -> String {
    report["summary"][key]
        .as_u64()
        .map_or("?".into(), |n| n.to_string())
}

/// How many nodes a diff compiled (and skipped), from the one line
/// `pverify diff` prints on stderr after its node check:
/// `pverify diff: compiled: N from, M to; skipped: K[; cached: C]`
/// (its reports stay byte-equal to `--full`'s, so the counts are not in them).
pub(crate) fn compiled_counts(stderr: &str) -> Option<String> {
    let line = stderr
        .lines()
        .find_map(|l| l.strip_prefix("pverify diff: compiled: "))?;
    let mut parts = line.split("; ");
    let sides = parts.next()?;
    let (from, to) = sides.split_once(" from, ")?;
    let to = to.strip_suffix(" to")?;
    let mut text = format!("{from} + {to}");
    for p in parts {
        text.push_str(&format!(", {p}"));
    }
    Some(text)
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    if let Some(d) = path.parent() {
        std::fs::create_dir_all(d).map_err(|e| format!("{}: {e}", d.display()))?;
    }
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Copies `from` to `to`, leaving out the top-level entries `keep` refuses.
fn copy_tree(from: &Path, to: &Path, keep: &dyn Fn(&str) -> bool) -> Result<(), String> {
    std::fs::create_dir_all(to).map_err(|e| format!("{}: {e}", to.display()))?;
    for e in std::fs::read_dir(from).map_err(|e| format!("{}: {e}", from.display()))? {
        let e = e.map_err(|e| e.to_string())?;
        let name = e.file_name().to_string_lossy().into_owned();
        if !keep(&name) {
            continue;
        }
        let target = to.join(&name);
        if e.file_type().map_err(|e| e.to_string())?.is_dir() {
            copy_tree(&e.path(), &target, &|_| true)?;
        } else {
            std::fs::copy(e.path(), &target).map_err(|e| format!("{}: {e}", target.display()))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flag_is_not_the_start_of_a_longer_one() {
        let help = "      --full-report-url <TEXT>\n      --cache <DIR>\n";
        assert!(!has_flag(help, "--full"));
        assert!(has_flag(help, "--cache"));
        assert!(has_flag("  --full  Compile every node\n", "--full"));
    }

    #[test]
    fn counts_are_read_from_diffs_stderr_line() {
        let err = "warning: x\npverify diff: compiled: 10000 from, 492 to; skipped: 9508\n";
        assert_eq!(
            compiled_counts(err).as_deref(),
            Some("10000 + 492, skipped: 9508")
        );
        let err = "pverify diff: compiled: 492 from, 492 to; skipped: 9508; cached: 9508\n";
        assert_eq!(
            compiled_counts(err).as_deref(),
            Some("492 + 492, skipped: 9508, cached: 9508")
        );
        assert_eq!(compiled_counts("nothing\n"), None);
    }
}
