//! Ruby objects in a catalog: the one pverify keeps is a Range a Ruby
//! function returned (`Value::Range`, Puppet's `Runtime[ruby, 'Range']`).
//! Puppet's catalog converter (`ToDataConverter`) writes such an object as
//! its `to_s` and says so: Puppet 7 with a warning per value, Puppet 8
//! (whose `strict` is `error`) by failing the compile with the same text.
//! The catalog writers write it as its text (`catalog_emit`).

use puppet_model::types::format::puppet_quote;
use puppet_model::Value;

use super::compiler::{Compiler, Res};
use super::error::{EvalError, Location};
use super::issues;
use crate::version::PuppetVersion;

/// Warns (Puppet 7) or fails (Puppet 8) for each Range in a parameter of a
/// resource the catalog holds, in catalog order as Puppet converts them.
pub(super) fn check(c: &mut Compiler<'_>) -> Result<(), EvalError> {
    let mut found = Vec::new();
    for r in c.catalog.resources().iter().filter(|r| shown(r)) {
        // One converter per resource, whose message prefix (the reference)
        // each message extends for good: Puppet's `path_to_s` appends the
        // path to the prefix string itself, so a resource's second message
        // reads `Notify[b]['message']['k'][1]['message']['n']`. Made only
        // for a resource that holds a Range (almost none do).
        let mut converter: Option<(String, Location)> = None;
        for (name, v) in r.params.iter() {
            if holds_range(v) {
                let (prefix, at) = converter.get_or_insert_with(|| {
                    let at = Location {
                        file: r.file.clone(),
                        line: r.line,
                        column: None,
                    };
                    (format!("{}[{}]", r.type_name, r.title), at)
                });
                let mut path = format!("[{}]", puppet_quote(name));
                collect(v, &mut path, prefix, at, &mut found);
            }
        }
    }
    if found.is_empty() {
        return Ok(());
    }
    if c.node.puppet == PuppetVersion::V8 {
        return Err(EvalError::Foreign(format!(
            "Evaluation Error: {}",
            found[0]
        )));
    }
    c.warnings.extend(found);
    Ok(())
}

fn shown(r: &Res) -> bool {
    !r.virtual_ || r.exported
}

/// Whether a Range lies anywhere in `v` (the cheap test every parameter
/// takes; only a value holding one is walked again with its path).
fn holds_range(v: &Value) -> bool {
    match v {
        Value::Range(_) => true,
        Value::Array(items) => items.iter().any(holds_range),
        Value::Hash(h) => h.values().any(holds_range),
        _ => false,
    }
}

/// The converter's message for each Range under `path` (Puppet's JSON path
/// below the parameters: `['message']['k'][0]`), after `prefix`.
fn collect(
    v: &Value,
    path: &mut String,
    prefix: &mut String,
    at: &Location,
    out: &mut Vec<String>,
) {
    match v {
        Value::Range(r) => {
            prefix.push_str(path);
            out.push(format!(
                "{}{}",
                issues::resources::converted_to_string(prefix, "Range", &r.to_string()),
                at.suffix()
            ))
        }
        Value::Array(items) => {
            for (i, x) in items.iter().enumerate() {
                let len = path.len();
                path.push_str(&format!("[{i}]"));
                collect(x, path, prefix, at, out);
                path.truncate(len);
            }
        }
        Value::Hash(h) => {
            for (k, x) in h.iter() {
                let len = path.len();
                let key = match k {
                    Value::String(s) => puppet_quote(s),
                    other => other.to_string(),
                };
                path.push_str(&format!("[{key}]"));
                collect(x, path, prefix, at, out);
                path.truncate(len);
            }
        }
        _ => {}
    }
}
