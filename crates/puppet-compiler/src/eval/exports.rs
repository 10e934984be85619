//! Exported collectors (`Type <<| query |>>`) under `storeconfigs`, as
//! Puppet's `ExportedCollector#collect` (`exported_collector.rb`) runs them
//! with PuppetDB's terminus (`Puppet::Resource::Puppetdb#search`):
//!
//! - first the node's own exported resources of the type that the query
//!   matches, as a catalog collector matches (they stay `exported`, and
//!   become non-virtual);
//! - then what PuppetDB answers ([`crate::facts::exports`]: other nodes'
//!   exported resources, the query as PuppetDB's filter), in its order.
//!   Each becomes a resource as the terminus makes it: type, title and
//!   parameters only (no file, line or tags of its own; a `tag` parameter
//!   tags it), declared in the collector's scope (whose resource defaults
//!   apply and whose resource contains it), `exported: false`.
//!
//! A found resource whose type and title the catalog has already is
//! skipped when it is the same node's same resource (collected before, by
//! this collector or another), and otherwise is Puppet's error "A duplicate
//! resource was found while collecting exported resources". The
//! collector's overrides (`<<| |>> { ... }`) apply to what it collects new.

use std::sync::Arc;

use puppet_model::names::bracketed;
use puppet_syntax::ast::ResourceForm;

use super::compiler::Compiler;
use super::error::{EvalError, Location};
use super::expr::R;
use super::issues;
use super::resources::{apply_param, Query};
use super::value::Name;
use crate::facts::exports::Filter;

impl Compiler<'_> {
    /// One pass of exported collector `c`; true if it collected anything new.
    pub(super) fn collect_exported(&mut self, c: usize) -> R<bool> {
        let coll = &self.catalog.collectors()[c];
        let type_name = coll.type_name.clone();
        let query = coll.query.clone();
        let scope = coll.scope;
        let mut hits = Vec::new();
        for &id in self.catalog.of_type(&type_name).iter() {
            if !self.catalog[id].exported || self.catalog.collectors()[c].collected.contains(&id) {
                continue;
            }
            if query.as_ref().is_none_or(|q| self.query_matches(q, id)) {
                hits.push(id);
            }
        }
        let filter = query.as_deref().map(filter_of);
        let exports = Arc::clone(&self.node.exports);
        let host = self.node.name.clone();
        // PuppetDB spells a type without a leading `::`.
        let pdb_type = type_name.trim_start_matches("::");
        let key = pdb_type.to_lowercase();
        for found in exports.search(pdb_type, &host, filter.as_ref()) {
            let collector_id = format!("{}|{}|{}", found.certname, found.type_name, found.title);
            if let Some(id) = self.catalog.find_resource(&key, &found.title) {
                if self.catalog.collector_id(id) == Some(collector_id.as_str()) {
                    continue;
                }
                return Err(EvalError::Completion(
                    issues::relationships::duplicate_collected_export(bracketed(
                        pdb_type,
                        &found.title,
                    )),
                ));
            }
            let ops: Vec<(Name, bool, puppet_model::Value)> = found
                .parameters
                .iter()
                .map(|(k, v)| (Name::from(k.as_str()), false, crate::facts::from_json(v)))
                .collect();
            let id = self.create_resource(
                &key,
                found.title.as_str().into(),
                &ops,
                ResourceForm::Regular,
                scope,
                &Location::default(),
            )?;
            self.catalog.mark_imported(id, collector_id.into());
            hits.push(id);
        }
        let changed = !hits.is_empty();
        for id in hits {
            self.catalog.collect(c, id, apply_param);
        }
        Ok(changed)
    }
}

/// A collector's query as the filter PuppetDB's terminus sends.
fn filter_of(q: &Query) -> Filter {
    match q {
        Query::And(a, b) => Filter::And(Box::new(filter_of(a)), Box::new(filter_of(b))),
        Query::Or(a, b) => Filter::Or(Box::new(filter_of(a)), Box::new(filter_of(b))),
        Query::Compare {
            attr,
            value,
            negate,
        } => {
            let eq = Filter::equal(attr, value);
            if *negate {
                Filter::Not(Box::new(eq))
            } else {
                eq
            }
        }
        Query::Never => Filter::Nothing,
    }
}
