//! How two catalogs differ: the one model of a change ([`Change`]) that
//! `run`, `check`, `bless` and `pverify diff` share, and the one walk over
//! two catalogs in Puppet's JSON form that produces it ([`compare`]).
//!
//! The walk is the same for every command: resources matched by reference,
//! removed and changed ones in `from`'s order, then added ones in `to`'s;
//! per matched resource its parameters in `from`'s order, then those only
//! `to` has; then edges and classes as sets. What the commands disagree on
//! is a [`Rules`] value: how a resource is named, whether a side must be a
//! catalog, which resources are left out, how a parameter's difference is
//! judged (file content, relationships, redaction), whether `tags`, `file`,
//! `line`, `exported`, top-level keys and order count, how edges and
//! classes are read. `run`/`check` use [`crate::catalog_diff`]'s rules (the
//! catalog as written, every difference), `pverify diff` uses
//! `diff::compare`'s (normalized references, semantic comparison). Ignore
//! rules are applied by each command to the walk's changes.
//!
//! Each command renders the changes its own way: `catalog_diff::Reported`
//! (the `added`/`removed`/`changed` lines and JSON of `run` and `check`),
//! `diff::model` (the kinds, headlines, details and JSON of `pverify diff`).

use indexmap::IndexMap;
use rustc_hash::FxHashSet as HashSet;
use serde_json::{Map, Value as J};

/// One difference between two catalogs of a node: `from` is the expected
/// (golden, Puppet's) catalog of `run` and `check`, or the `from` side of
/// `pverify diff`; `to` is the actual one, or the `to` side.
#[derive(Clone, Debug, PartialEq)]
pub enum Change {
    /// A resource only in `to`, with the resource as it is there.
    ResourceAdded { resource: String, value: J },
    /// A resource only in `from`, with the resource as it is there.
    ResourceRemoved { resource: String, value: J },
    /// A parameter added (`from` none), removed (`to` none) or changed.
    ParameterChanged {
        resource: String,
        parameter: String,
        from: Option<J>,
        to: Option<J>,
    },
    /// A file's content (its `content`, or the text its `source` names)
    /// changed; `diff` is a unified diff `from` → `to`.
    ContentChanged {
        resource: String,
        parameter: String,
        diff: String,
    },
    /// A relationship metaparameter (`before`, `require`, `notify`,
    /// `subscribe`) compared as a set of references.
    RelationshipChanged {
        resource: String,
        parameter: String,
        added: Vec<String>,
        removed: Vec<String>,
    },
    /// A resource's `tags`, `file`, `line` or `exported` added (`from`
    /// none), removed (`to` none) or changed.
    AttributeChanged {
        resource: String,
        attribute: &'static str,
        from: Option<J>,
        to: Option<J>,
    },
    /// An edge only in `to`.
    EdgeAdded { source: String, target: String },
    /// An edge only in `from`.
    EdgeRemoved { source: String, target: String },
    /// A class in `to`'s class list only.
    ClassAdded { class: String },
    /// A class in `from`'s class list only.
    ClassRemoved { class: String },
    /// A top-level key other than `resources`, `edges` and `classes`: `to`
    /// none when only `from` has it, `from` none when only `to` has it.
    CatalogKeyChanged {
        key: String,
        from: Option<J>,
        to: Option<J>,
    },
    /// The same resources (or edges) on both sides, in another order;
    /// `of` is `resources` or `edges`.
    OrderChanged { of: &'static str },
}

/// What a comparison decides besides the walk (see the module's text).
pub trait Rules {
    /// Is a side without a `resources` array an error (`not a catalog`)?
    /// Otherwise it has no resources.
    fn requires_catalog(&self) -> bool;

    /// The reference a resource is matched by, or why it has none.
    fn reference(&self, resource: &J) -> Result<String, String>;

    /// Is this resource (on either side) left out, with the edges into and
    /// out of it?
    fn skips(&self, _reference: &str, _from: Option<&J>, _to: Option<&J>) -> bool {
        false
    }

    /// Changes judged from a resource on both sides as a whole, before its
    /// parameters one by one; returns the parameters the per-parameter pass
    /// leaves out.
    fn resource(
        &self,
        _reference: &str,
        _from: &J,
        _to: &J,
        _out: &mut Vec<Change>,
    ) -> Vec<&'static str> {
        Vec::new()
    }

    /// The change of a parameter whose values differ as JSON (`from_res`
    /// and `to_res` are the resource on each side), or none.
    fn parameter(
        &self,
        reference: &str,
        _from_res: &J,
        _to_res: &J,
        name: &str,
        from: Option<&J>,
        to: Option<&J>,
    ) -> Option<Change> {
        Some(Change::ParameterChanged {
            resource: reference.to_string(),
            parameter: name.to_string(),
            from: from.cloned(),
            to: to.cloned(),
        })
    }

    /// Do resources' `tags`, `file`, `line` and `exported`, top-level keys
    /// and the order of resources and edges count?
    fn whole_catalog(&self) -> bool {
        false
    }

    /// A catalog's edges as (source, target).
    fn edges(&self, catalog: &J) -> Vec<(String, String)>;

    /// Are only edges between resources present on both sides (and not
    /// skipped) compared? Then an edge into or out of an added or removed
    /// resource is part of that change.
    fn edges_between_kept_resources(&self) -> bool {
        false
    }

    /// A catalog's class list.
    fn classes(&self, catalog: &J) -> Vec<String>;

    /// What two class names are equal by.
    fn class_key(&self, class: &str) -> String {
        class.to_string()
    }
}

/// The attributes of a resource besides its parameters that
/// [`Rules::whole_catalog`] compares, as `@tags` etc.
pub const ATTRIBUTES: [&str; 4] = ["tags", "file", "line", "exported"];

/// Keys of a catalog compared by the walk itself, not as top-level keys.
const WALKED: [&str; 3] = ["resources", "edges", "classes"];

fn index<'c>(catalog: &'c J, rules: &impl Rules) -> Result<IndexMap<String, &'c J>, String> {
    let resources = match catalog.get("resources").and_then(J::as_array) {
        Some(rs) => rs.as_slice(),
        None if rules.requires_catalog() => {
            return Err("not a catalog: no 'resources' array".into())
        }
        None => &[],
    };
    let mut out = IndexMap::with_capacity(resources.len());
    for r in resources {
        // A later resource of the same reference replaces the earlier one
        // in its place.
        out.insert(rules.reference(r)?, r);
    }
    Ok(out)
}

/// The changes from `from` to `to` under `rules`, in the walk's order;
/// an error (`from: ...` or `to: ...`) when a side is no catalog.
pub fn compare(from: &J, to: &J, rules: &impl Rules) -> Result<Vec<Change>, String> {
    let a = index(from, rules).map_err(|e| format!("from: {e}"))?;
    let b = index(to, rules).map_err(|e| format!("to: {e}"))?;
    let mut out = Vec::new();
    if rules.whole_catalog() {
        catalog_keys(from, to, &mut out);
    }
    let skipped = |r: &str| rules.skips(r, a.get(r).copied(), b.get(r).copied());
    for (reference, ra) in &a {
        if skipped(reference) {
            continue;
        }
        match b.get(reference) {
            None => out.push(Change::ResourceRemoved {
                resource: reference.clone(),
                value: (*ra).clone(),
            }),
            Some(rb) => resource(reference, ra, rb, rules, &mut out),
        }
    }
    for (reference, rb) in &b {
        if !a.contains_key(reference) && !skipped(reference) {
            out.push(Change::ResourceAdded {
                resource: reference.clone(),
                value: (*rb).clone(),
            });
        }
    }
    let (ea, eb) = (rules.edges(from), rules.edges(to));
    let kept = |r: &str| {
        !rules.edges_between_kept_resources()
            || (a.contains_key(r) && b.contains_key(r) && !skipped(r))
    };
    let (sa, sb): (HashSet<_>, HashSet<_>) = (ea.iter().collect(), eb.iter().collect());
    for e @ (s, t) in &ea {
        if !sb.contains(e) && kept(s) && kept(t) {
            out.push(Change::EdgeRemoved {
                source: s.clone(),
                target: t.clone(),
            });
        }
    }
    for e @ (s, t) in &eb {
        if !sa.contains(e) && kept(s) && kept(t) {
            out.push(Change::EdgeAdded {
                source: s.clone(),
                target: t.clone(),
            });
        }
    }
    let (ca, cb) = (rules.classes(from), rules.classes(to));
    let keys = |v: &[String]| -> HashSet<String> { v.iter().map(|c| rules.class_key(c)).collect() };
    let (ka, kb) = (keys(&ca), keys(&cb));
    for c in &ca {
        if !kb.contains(&rules.class_key(c)) {
            out.push(Change::ClassRemoved { class: c.clone() });
        }
    }
    for c in &cb {
        if !ka.contains(&rules.class_key(c)) {
            out.push(Change::ClassAdded { class: c.clone() });
        }
    }
    if rules.whole_catalog() {
        if ea != eb && sa == sb {
            out.push(Change::OrderChanged { of: "edges" });
        }
        if a.len() == b.len() && a.keys().all(|k| b.contains_key(k)) && a.keys().ne(b.keys()) {
            out.push(Change::OrderChanged { of: "resources" });
        }
    }
    Ok(out)
}

/// Top-level keys other than those the walk compares, in `from`'s order,
/// then those only `to` has.
fn catalog_keys(from: &J, to: &J, out: &mut Vec<Change>) {
    let empty = Map::new();
    let (fa, fb) = (
        from.as_object().unwrap_or(&empty),
        to.as_object().unwrap_or(&empty),
    );
    for (k, v) in fa {
        if WALKED.contains(&k.as_str()) {
            continue;
        }
        let w = fb.get(k);
        if w != Some(v) {
            out.push(Change::CatalogKeyChanged {
                key: k.clone(),
                from: Some(v.clone()),
                to: w.cloned(),
            });
        }
    }
    for (k, w) in fb {
        if !WALKED.contains(&k.as_str()) && !fa.contains_key(k) {
            out.push(Change::CatalogKeyChanged {
                key: k.clone(),
                from: None,
                to: Some(w.clone()),
            });
        }
    }
}

/// A resource on both sides: what [`Rules::resource`] judges, its
/// parameters, then (with [`Rules::whole_catalog`]) its attributes.
fn resource(reference: &str, ra: &J, rb: &J, rules: &impl Rules, out: &mut Vec<Change>) {
    let skip = rules.resource(reference, ra, rb, out);
    let (pa, pb) = (parameters(ra), parameters(rb));
    let names = pa.keys().chain(pb.keys().filter(|k| !pa.contains_key(*k)));
    for name in names {
        let (va, vb) = (pa.get(name), pb.get(name));
        if va == vb || skip.contains(&name.as_str()) {
            continue;
        }
        out.extend(rules.parameter(reference, ra, rb, name, va, vb));
    }
    if rules.whole_catalog() {
        for attribute in ATTRIBUTES {
            let (v, w) = (ra.get(attribute), rb.get(attribute));
            if v != w {
                out.push(Change::AttributeChanged {
                    resource: reference.to_string(),
                    attribute,
                    from: v.cloned(),
                    to: w.cloned(),
                });
            }
        }
    }
}

/// A resource's `parameters` (none when it has no such object).
pub fn parameters(resource: &J) -> &Map<String, J> {
    static EMPTY: std::sync::OnceLock<Map<String, J>> = std::sync::OnceLock::new();
    resource
        .get("parameters")
        .and_then(J::as_object)
        .unwrap_or_else(|| EMPTY.get_or_init(Map::new))
}
