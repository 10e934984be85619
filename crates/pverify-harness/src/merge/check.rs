//! A `pverify-report/1` report (`check`, `run`) read back from its JSON,
//! and the shards of one check put together.

use std::collections::HashMap;

use serde_json::Value as J;

use super::{array, field, known, opt_string, same_run, short, string, Shard};
use crate::catalog_changes::{Change, ATTRIBUTES};
use crate::report::{Failure, Item, Report, Status};

/// A read report and its items' positions in the unsharded run.
pub(super) struct Read {
    pub(super) report: Report,
    positions: Vec<usize>,
}

pub(super) fn read(doc: &J) -> Result<Read, String> {
    let items: Vec<Item> = array(doc, "items")?
        .iter()
        .map(item)
        .collect::<Result<_, _>>()?;
    let positions = match doc.get("shard").and_then(|s| s.get("positions")) {
        Some(p) => {
            let p = p
                .as_array()
                .ok_or("`shard.positions` is not a list")?
                .iter()
                .map(|n| n.as_u64().map(|n| n as usize))
                .collect::<Option<Vec<usize>>>()
                .ok_or("`shard.positions` holds a non-number")?;
            if p.len() != items.len() {
                return Err(format!(
                    "`shard.positions` has {} entries for {} items",
                    p.len(),
                    items.len()
                ));
            }
            p
        }
        None => (0..items.len()).collect(),
    };
    let report = Report::new(&string(doc, "command")?, &string(doc, "target")?, items);
    Ok(Read { report, positions })
}

pub(super) fn merge(shards: Vec<Shard<Read>>) -> Result<Report, String> {
    same_run(
        &shards,
        |r| format!("{} {}", r.report.command, r.report.target),
        "command and target",
    )?;
    let first = &shards[0].report.report;
    let (command, target) = (first.command.clone(), first.target.clone());
    let mut from: HashMap<String, String> = HashMap::new();
    let mut placed: Vec<(usize, Item)> = Vec::new();
    for s in shards {
        let name = s.name();
        for (item, at) in s.report.report.items.into_iter().zip(s.report.positions) {
            if let Some(other) = from.insert(item.name.clone(), name.clone()) {
                return Err(format!("{} is in {other} and in {name}", item.name));
            }
            placed.push((at, item));
        }
    }
    placed.sort_by_key(|(at, _)| *at);
    Ok(Report::new(
        &command,
        &target,
        placed.into_iter().map(|(_, i)| i).collect(),
    ))
}

fn item(v: &J) -> Result<Item, String> {
    let status = match string(v, "status")?.as_str() {
        "passed" => Status::Passed,
        "failed" => Status::Failed,
        "skipped" => Status::Skipped,
        other => return Err(format!("unknown status '{other}' in {}", short(v))),
    };
    let failures = match v.get("failures") {
        None => Vec::new(),
        Some(_) => array(v, "failures")?
            .iter()
            .map(failure)
            .collect::<Result<_, _>>()?,
    };
    Ok(Item {
        name: string(v, "name")?,
        status,
        reason: opt_string(v, "reason")?,
        failures,
        millis: field(v, "millis")?
            .as_u64()
            .ok_or_else(|| format!("`millis` is not a number in {}", short(v)))?,
    })
}

fn failure(v: &J) -> Result<Failure, String> {
    let changes = match v.get("changes") {
        None => Vec::new(),
        Some(_) => array(v, "changes")?
            .iter()
            .map(change)
            .collect::<Result<_, _>>()?,
    };
    Ok(Failure {
        against: string(v, "against")?,
        message: string(v, "message")?,
        changes,
        expected: opt_string(v, "expected")?,
        actual: opt_string(v, "actual")?,
    })
}

/// A change as `run` and `check` report it (`catalog_diff::Reported`)
/// back to the model. Which change it was follows from its subject and
/// which sides have a value: `Reported::of` keeps a value present (even
/// `null`) exactly when the change has one. (`check`'s rules never make a
/// relationship change, the one shape this cannot tell from a parameter's.)
fn change(v: &J) -> Result<Change, String> {
    let kind = string(v, "kind")?;
    let resource = string(v, "resource")?;
    let parameter = opt_string(v, "parameter")?;
    let expected = v.get("expected").cloned();
    let actual = v.get("actual").cloned();
    let added = match kind.as_str() {
        "added" => Some(true),
        "removed" => Some(false),
        "changed" => None,
        other => return Err(format!("unknown change kind '{other}' in {}", short(v))),
    };
    let bad = || format!("a change this report cannot hold: {}", short(v));
    Ok(match (resource.as_str(), parameter) {
        ("edge", Some(p)) => {
            let (source, target) = p.split_once(" -> ").ok_or_else(bad)?;
            let (source, target) = (source.to_string(), target.to_string());
            match added.ok_or_else(bad)? {
                true => Change::EdgeAdded { source, target },
                false => Change::EdgeRemoved { source, target },
            }
        }
        ("class", Some(class)) => match added.ok_or_else(bad)? {
            true => Change::ClassAdded { class },
            false => Change::ClassRemoved { class },
        },
        ("catalog", Some(p)) if added.is_none() && expected.is_none() && actual.is_none() => {
            let of = p.strip_suffix(" (order)").ok_or_else(bad)?;
            Change::OrderChanged {
                of: known(of, &["resources", "edges"], "order")?,
            }
        }
        ("catalog", Some(key)) => Change::CatalogKeyChanged {
            key,
            from: expected,
            to: actual,
        },
        (_, None) => match added.ok_or_else(bad)? {
            true => Change::ResourceAdded {
                resource,
                value: actual.ok_or_else(bad)?,
            },
            false => Change::ResourceRemoved {
                resource,
                value: expected.ok_or_else(bad)?,
            },
        },
        (_, Some(p)) if p.starts_with('@') => Change::AttributeChanged {
            resource,
            attribute: known(&p[1..], &ATTRIBUTES, "attribute")?,
            from: expected,
            to: actual,
        },
        // Only a text's diff is `changed` with no expected value.
        (_, Some(parameter)) if added.is_none() && expected.is_none() => Change::ContentChanged {
            resource,
            parameter,
            diff: actual
                .as_ref()
                .and_then(J::as_str)
                .ok_or_else(bad)?
                .to_string(),
        },
        (_, Some(parameter)) => Change::ParameterChanged {
            resource,
            parameter,
            from: expected,
            to: actual,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog_diff::Reported;
    use serde_json::json;

    /// Every change `check` can report reads back as itself.
    #[test]
    fn reported_changes_read_back() {
        let changes = vec![
            Change::ResourceAdded {
                resource: "File[/a]".into(),
                value: json!({"type": "File", "title": "/a"}),
            },
            Change::ResourceRemoved {
                resource: "File[/b]".into(),
                value: json!({"type": "File", "title": "/b"}),
            },
            Change::ParameterChanged {
                resource: "File[/a]".into(),
                parameter: "mode".into(),
                from: None,
                to: Some(json!("0644")),
            },
            Change::ParameterChanged {
                resource: "File[/a]".into(),
                parameter: "mode".into(),
                from: Some(J::Null),
                to: None,
            },
            Change::ParameterChanged {
                resource: "File[/a]".into(),
                parameter: "mode".into(),
                from: Some(json!([1])),
                to: Some(json!([2])),
            },
            Change::ContentChanged {
                resource: "File[/a]".into(),
                parameter: "source".into(),
                diff: "-a\n+b\n".into(),
            },
            Change::AttributeChanged {
                resource: "File[/a]".into(),
                attribute: "tags",
                from: Some(json!(["a"])),
                to: None,
            },
            Change::EdgeAdded {
                source: "Class[A]".into(),
                target: "File[/x -> y]".into(),
            },
            Change::EdgeRemoved {
                source: "Class[A]".into(),
                target: "File[/a]".into(),
            },
            Change::ClassAdded { class: "a".into() },
            Change::ClassRemoved { class: "b".into() },
            Change::CatalogKeyChanged {
                key: "code_id".into(),
                from: None,
                to: Some(J::Null),
            },
            Change::CatalogKeyChanged {
                key: "version".into(),
                from: Some(json!(1)),
                to: None,
            },
            Change::OrderChanged { of: "edges" },
        ];
        for c in changes {
            let wire = serde_json::to_value(Reported::of(&c)).unwrap();
            let back = change(&wire).unwrap();
            // Edges split at the first ` -> `: the joined text is what
            // every renderer shows.
            assert_eq!(Reported::of(&back), Reported::of(&c), "{wire}");
            if !matches!(c, Change::EdgeAdded { .. }) {
                assert_eq!(back, c, "{wire}");
            }
        }
    }
}
