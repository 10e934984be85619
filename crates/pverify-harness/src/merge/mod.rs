//! `pverify report merge`: the JSON reports of the shards of one run
//! (`check --shard I/N`, `diff --shard I/N`, one CI job each) read back
//! and put together into the report one unsharded run would have made,
//! which every renderer then writes as it writes a single run's.
//!
//! The JSON reports carry what that needs: which shard each is (`shard`:
//! index and count, so a missing shard is named), where a check item stood
//! in the unsharded order (`shard.positions`), and for `diff` each changed
//! node's names and renames (what the grouping reads). Reading a report
//! back is [`check`] (`pverify-report/1`) and [`diff`] (`pverify-diff/1`).
//! Timings are the shards' own: each item keeps its `millis`, and JUnit's
//! totals are their sum, as in one run.

pub mod check;
pub mod diff;

use serde_json::Value as J;

use crate::diff::report::DiffReport;
use crate::report::Report;

/// The merged report: one run's, of the kind the shards were.
#[derive(Debug)]
pub enum Merged {
    Check(Report),
    Diff(DiffReport),
}

/// One shard's report as read: where it came from (for messages), which
/// shard it is, and its content.
struct Shard<T> {
    file: String,
    index: usize,
    count: usize,
    report: T,
}

impl<T> Shard<T> {
    fn name(&self) -> String {
        format!("{} (shard {}/{})", self.file, self.index, self.count)
    }
}

/// Merges the shards' JSON reports, given as (file name, text). `expect`:
/// the number of shards the run had (`--expect N`), checked against what
/// the reports say. Errors name the file or shard at fault.
pub fn merge(inputs: &[(String, String)], expect: Option<usize>) -> Result<Merged, String> {
    if inputs.is_empty() {
        return Err("no report to merge".into());
    }
    let mut checks = Vec::new();
    let mut diffs = Vec::new();
    for (file, text) in inputs {
        let doc: J =
            serde_json::from_str(text).map_err(|e| format!("{file}: not a JSON report: {e}"))?;
        let (index, count) = shard_of(&doc).map_err(|e| format!("{file}: {e}"))?;
        let schema = doc.get("schema").and_then(J::as_str).unwrap_or("");
        match schema {
            crate::report::SCHEMA => checks.push(Shard {
                file: file.clone(),
                index,
                count,
                report: check::read(&doc).map_err(|e| format!("{file}: {e}"))?,
            }),
            crate::diff::render::json::SCHEMA => diffs.push(Shard {
                file: file.clone(),
                index,
                count,
                report: diff::read(&doc).map_err(|e| format!("{file}: {e}"))?,
            }),
            other => {
                return Err(format!(
                    "{file}: not a pverify JSON report (schema '{other}'; expected {} or {})",
                    crate::report::SCHEMA,
                    crate::diff::render::json::SCHEMA
                ))
            }
        }
    }
    match (checks.first(), diffs.first()) {
        (Some(c), Some(d)) => Err(format!(
            "{} is a {} report and {} a diff report: the shards of one run are of one kind",
            c.file, c.report.report.command, d.file
        )),
        (Some(_), None) => {
            complete(&checks, expect)?;
            check::merge(checks).map(Merged::Check)
        }
        _ => {
            complete(&diffs, expect)?;
            diff::merge(diffs).map(Merged::Diff)
        }
    }
}

/// `shard: {index, count}`, or 1/1 for the report of a whole run.
fn shard_of(doc: &J) -> Result<(usize, usize), String> {
    let Some(s) = doc.get("shard") else {
        return Ok((1, 1));
    };
    let n = |k: &str| s.get(k).and_then(J::as_u64).map(|v| v as usize);
    match (n("index"), n("count")) {
        (Some(i), Some(c)) if i >= 1 && i <= c => Ok((i, c)),
        _ => Err(format!(
            "bad shard {s} (expected index and count, 1 <= index <= count)"
        )),
    }
}

/// Every shard of the run exactly once, all of one count (and of
/// `expect`'s, when given).
fn complete<T>(shards: &[Shard<T>], expect: Option<usize>) -> Result<(), String> {
    let count = shards[0].count;
    if let Some(other) = shards.iter().find(|s| s.count != count) {
        return Err(format!(
            "{} and {} are shards of different splits: the shards of one run have one count",
            shards[0].name(),
            other.name()
        ));
    }
    if let Some(n) = expect.filter(|&n| n != count) {
        return Err(format!(
            "--expect {n}: the reports are shards of {count} ({})",
            shards[0].name()
        ));
    }
    let mut seen: std::collections::BTreeMap<usize, &Shard<T>> = Default::default();
    for s in shards {
        if let Some(first) = seen.insert(s.index, s) {
            return Err(format!(
                "{} and {} are the same shard {}/{count}",
                first.file, s.file, s.index
            ));
        }
    }
    // At most a few named (a count comes from a file: it may be huge).
    let missing: Vec<String> = (1..=count)
        .filter(|i| !seen.contains_key(i))
        .take(10)
        .map(|i| format!("{i}/{count}"))
        .collect();
    let more = count - seen.len() - missing.len();
    let list = match more {
        0 => missing.join(", "),
        n => format!("{}, and {n} more", missing.join(", ")),
    };
    match missing.len() {
        0 => Ok(()),
        1 if more == 0 => Err(format!("shard {list} missing")),
        _ => Err(format!("shards {list} missing")),
    }
}

/// Shards of one run name the same run: `what` (the command and target,
/// or the two sides) is the same in every one.
fn same_run<T>(shards: &[Shard<T>], what: impl Fn(&T) -> String, of: &str) -> Result<(), String> {
    let first = what(&shards[0].report);
    match shards.iter().find(|s| what(&s.report) != first) {
        Some(other) => Err(format!(
            "{} and {} are of different runs ({of} '{first}' and '{}')",
            shards[0].name(),
            other.name(),
            what(&other.report)
        )),
        None => Ok(()),
    }
}

/// A field of a JSON object, for messages naming what is missing.
fn field<'a>(v: &'a J, key: &str) -> Result<&'a J, String> {
    v.get(key)
        .ok_or_else(|| format!("no `{key}` in {}", short(v)))
}

fn string(v: &J, key: &str) -> Result<String, String> {
    field(v, key)?
        .as_str()
        .map(str::to_string)
        .ok_or_else(|| format!("`{key}` is not a string in {}", short(v)))
}

/// A string field that may be absent or null.
fn opt_string(v: &J, key: &str) -> Result<Option<String>, String> {
    match v.get(key) {
        None | Some(J::Null) => Ok(None),
        Some(J::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(format!("`{key}` is not a string in {}", short(v))),
    }
}

fn array<'a>(v: &'a J, key: &str) -> Result<&'a [J], String> {
    field(v, key)?
        .as_array()
        .map(Vec::as_slice)
        .ok_or_else(|| format!("`{key}` is not a list in {}", short(v)))
}

fn strings(v: &J, key: &str) -> Result<Vec<String>, String> {
    array(v, key)?
        .iter()
        .map(|s| {
            s.as_str()
                .map(str::to_string)
                .ok_or_else(|| format!("`{key}` holds a non-string in {}", short(v)))
        })
        .collect()
}

/// The start of a JSON value, for an error message.
fn short(v: &J) -> String {
    let text = v.to_string();
    match text.char_indices().nth(80) {
        Some((i, _)) => format!("{}...", &text[..i]),
        None => text,
    }
}

/// The `'static` name among `known` equal to `name` (the model keeps some
/// names as `&'static str`).
fn known(name: &str, known: &[&'static str], what: &str) -> Result<&'static str, String> {
    known
        .iter()
        .find(|k| **k == name)
        .copied()
        .ok_or_else(|| format!("unknown {what} '{name}'"))
}
