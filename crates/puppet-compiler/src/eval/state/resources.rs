//! Resources and the catalog of one compile: the resources (and the
//! catalog's index of their titles, aliases and uniqueness keys), the
//! edges between them, the classes and tags of the catalog, and what waits
//! for the catalog's completion (relationships, collectors, overrides,
//! `realize` calls).

use indexmap::IndexMap;
use puppet_model::names::bracketed;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::borrow::Cow;

use crate::eval::compiler::{
    capitalize_name, split_tag, Operand, Relation, Res, ResourceTypeName, Tag,
};
use crate::eval::error::{EvalError, Location};
use crate::eval::issues;
use crate::eval::resources::{as_ref, Collector, Override, RealizeRef, ResourcesByType};
use crate::eval::scope::ResId;
use crate::eval::value::{Name, Value};

/// The resources a compile makes room for at once (the module catalogs of
/// the benchmark have ~200).
const TYPICAL_RESOURCES: usize = 256;

pub struct CatalogState {
    resources: Vec<Res>,
    /// The catalog's index of titles, aliases and uniqueness keys over
    /// `resources` (`crate::catalog`): it decides what a reference finds
    /// and what is a duplicate. Its resource ids are the indices into
    /// `resources`.
    index: crate::catalog::Index,
    edges: Vec<(ResId, ResId)>,
    /// The edges again, so that `add_edge`'s duplicate check is O(1): a
    /// linear scan made 20,000-resource catalogs quadratic.
    edge_set: HashSet<(ResId, ResId)>,
    /// Where each resource's declaration set its attributes, the body's
    /// first, then its expression's `default:` body's: the byte offset of
    /// the attribute (its name, or a splat's `*`) in a program (an index of
    /// `attribute_programs`); a resource holds its range (`Res::attributes`).
    /// Puppet reports a relationship's missing target at its attribute, and
    /// a parameter overridden where it may not be at the line that set it:
    /// errors only, so names and lines are read from the source then.
    attribute_lines: Vec<(u32, u32)>,
    /// Parameters set by overrides, by resource, the latest last (few
    /// resources have any).
    overridden: HashMap<ResId, Vec<super::super::compiler::SetBy>>,
    /// The programs `attribute_lines` points into, each once in a row.
    attribute_programs: Vec<std::sync::Arc<puppet_syntax::ast::Program>>,
    /// The sources (`Scopes::source_of`) of collectors with attribute
    /// blocks that collected something: Puppet marks such a class
    /// `override` (`AbstractCollector#evaluate`), and from then on its
    /// overrides count as a subclass's (`Resource::Type#child_of?`).
    override_sources: Vec<String>,
    classes: Vec<String>,
    catalog_tags: Vec<Tag>,
    relations: Vec<Relation>,
    collectors: Vec<Collector>,
    /// The resources by type name, for the collectors (see
    /// `resources::ResourcesByType`): built only once there is a collector.
    by_type: ResourcesByType,
    /// Overrides of resources not yet declared, by reference (Puppet's
    /// `@resource_overrides`): merged at the end, in resource order.
    overrides: IndexMap<String, Vec<Override>>,
    /// `realize` calls, one list of references each (Puppet's
    /// `FixedSetCollector`s): what is not yet found, in call order, is
    /// retried with each pass of the collections.
    realize_sets: Vec<Vec<RealizeRef>>,
    /// Resource type names as declared (`apache::mod`) and capitalised
    /// (`Apache::Mod`): a catalog has a few dozen types for hundreds of
    /// resources, each of which had its own copy.
    type_names: HashMap<Box<str>, ResourceTypeName>,
    /// Resources collected from other nodes' exports, by their collector
    /// id (`certname|Type|title`, Puppet's `collector_id`): collecting one
    /// again is no duplicate.
    imported: HashMap<ResId, std::sync::Arc<str>>,
}

impl std::ops::Index<ResId> for CatalogState {
    type Output = Res;

    #[inline]
    fn index(&self, id: ResId) -> &Res {
        &self.resources[id]
    }
}

impl std::ops::IndexMut<ResId> for CatalogState {
    #[inline]
    fn index_mut(&mut self, id: ResId) -> &mut Res {
        &mut self.resources[id]
    }
}

impl Default for CatalogState {
    /// An empty catalog, with room for a typical one.
    fn default() -> CatalogState {
        CatalogState {
            // Sized for a typical catalog: growing moved every resource again.
            resources: Vec::with_capacity(TYPICAL_RESOURCES),
            index: {
                let mut index = crate::catalog::Index::default();
                index.reserve(TYPICAL_RESOURCES);
                index
            },
            edges: Vec::new(),
            edge_set: HashSet::default(),
            // About three attributes a resource: growing copied them again.
            attribute_lines: Vec::with_capacity(4 * TYPICAL_RESOURCES),
            attribute_programs: Vec::new(),
            overridden: HashMap::default(),
            override_sources: Vec::new(),
            classes: Vec::new(),
            catalog_tags: Vec::new(),
            relations: Vec::new(),
            collectors: Vec::new(),
            by_type: Default::default(),
            overrides: IndexMap::new(),
            realize_sets: Vec::new(),
            type_names: HashMap::default(),
            imported: HashMap::default(),
        }
    }
}

impl CatalogState {
    // Resources.

    /// Every resource, in the order they were added (a resource's id is
    /// its place); resources are added by [`CatalogState::add_resource`]
    /// only, which keeps the index in step.
    #[inline]
    pub fn resources(&self) -> &[Res] {
        &self.resources
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.resources.len()
    }

    /// Adds a resource; a second resource with the same type and title is
    /// Puppet's duplicate declaration error.
    pub fn add_resource(&mut self, res: Res, at: &Location) -> Result<ResId, EvalError> {
        use crate::catalog::CatalogError;
        match self.index.add(&res, &self.resources) {
            Ok(id) => {
                self.resources.push(res);
                debug_assert_eq!(id.index(), self.resources.len() - 1);
                Ok(self.resources.len() - 1)
            }
            Err(e) => match *e {
                CatalogError::DuplicateDeclaration { existing, .. } => {
                    Err(self.duplicate(existing.index(), &res, at))
                }
                other => Err(EvalError::Runtime {
                    while_evaluating: None,
                    detail: other.to_string(),
                    at: Location {
                        file: None,
                        ..at.clone()
                    },
                }),
            },
        }
    }

    /// Puppet's duplicate declaration error: where the first one was, and
    /// (as the detail's own suffix) where the second one is.
    pub fn duplicate(&self, existing: ResId, res: &Res, at: &Location) -> EvalError {
        let prev = &self.resources[existing];
        let prev_at = match (&prev.file, prev.line) {
            (Some(f), Some(l)) => format!(" at (file: {f}, line: {l})"),
            _ => String::new(),
        };
        let here = Location {
            file: res.file.clone(),
            line: res.line,
            column: None,
        };
        EvalError::Runtime {
            while_evaluating: None,
            detail: format!(
                "{}{}",
                issues::resources::duplicate_declaration(res.reference(), prev_at),
                here.suffix()
            ),
            at: Location {
                file: None,
                ..at.clone()
            },
        }
    }

    /// The capitalised name of resource type `key` and its tags (see
    /// `type_names`).
    pub fn type_name(&mut self, key: &str) -> ResourceTypeName {
        if let Some(t) = self.type_names.get(key) {
            return t.clone();
        }
        let t = ResourceTypeName {
            name: capitalize_name(key).into(),
            tags: split_tag(key).into(),
        };
        self.type_names.insert(key.into(), t.clone());
        t
    }

    /// A resource by type and title, alias or uniqueness key, as Puppet's
    /// `catalog.resource` finds it.
    pub fn find_resource(&self, type_name: &str, title: &str) -> Option<ResId> {
        self.index.find(type_name, title).map(|id| id.index())
    }

    pub fn add_edge(&mut self, from: ResId, to: ResId) {
        if self.edge_set.insert((from, to)) {
            self.edges.push((from, to));
        }
    }

    /// Puppet's `catalog.add_class`: the class list, and the name as a tag.
    pub fn add_class(&mut self, name: &str) {
        self.classes.push(name.to_string());
        self.tag_catalog(&[Tag::from(name)]);
    }

    pub fn tag_catalog(&mut self, tags: &[Tag]) {
        for t in tags {
            if !self.catalog_tags.contains(t) {
                self.catalog_tags.push(t.clone());
            }
        }
    }

    /// The edges, each once, in the order they were added.
    #[inline]
    pub fn edges(&self) -> &[(ResId, ResId)] {
        &self.edges
    }

    /// The classes of the catalog, in the order they were added.
    #[inline]
    pub fn classes(&self) -> &[String] {
        &self.classes
    }

    /// The catalog's tags, each once.
    #[inline]
    pub fn tags(&self) -> &[Tag] {
        &self.catalog_tags
    }

    /// The line of the attribute that set `param` in resource `id`'s
    /// declaration (a `*` splat's line with `splat`).
    pub fn attribute_line(&self, id: ResId, param: &str, splat: bool) -> Option<u32> {
        let (start, end) = self.resources[id].attributes;
        let declared = &self.attribute_lines[start as usize..end as usize];
        let at = |name: &str| {
            declared.iter().find(|(offset, program)| {
                let source = self.attribute_programs[*program as usize].source.as_bytes();
                let rest = source.get(*offset as usize..).unwrap_or_default();
                rest.starts_with(name.as_bytes())
                    && !rest
                        .get(name.len())
                        .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
            })
        };
        let (offset, program) = at(param).or_else(|| if splat { at("*") } else { None })?;
        let program = &self.attribute_programs[*program as usize];
        Some(program.line_of(puppet_syntax::span::Span::new(
            *offset as usize,
            *offset as usize,
        )))
    }

    /// Notes that an override set parameter `set.name` of resource `id`.
    pub fn note_overridden(&mut self, id: ResId, set: super::super::compiler::SetBy) {
        self.overridden.entry(id).or_default().push(set);
    }

    /// The parameters overrides set on resource `id`, the latest last.
    pub fn overridden(&self, id: ResId) -> &[super::super::compiler::SetBy] {
        self.overridden.get(&id).map_or(&[], Vec::as_slice)
    }

    // What waits for the catalog's completion.

    #[inline]
    pub fn add_relation(&mut self, r: Relation) {
        self.relations.push(r);
    }

    /// The relationships waiting, taken (they are evaluated once).
    #[inline]
    pub fn take_relations(&mut self) -> Vec<Relation> {
        std::mem::take(&mut self.relations)
    }

    /// Adds a collector; its number.
    #[inline]
    pub fn add_collector(&mut self, c: Collector) -> usize {
        self.collectors.push(c);
        self.collectors.len() - 1
    }

    #[inline]
    pub fn collectors(&self) -> &[Collector] {
        &self.collectors
    }

    /// Sets what a chain links through collector `i` when it collects
    /// nothing.
    #[inline]
    pub fn set_empty_alternative(&mut self, i: usize, alternative: Vec<Operand>) {
        self.collectors[i].empty_alternative = Some(alternative);
    }

    /// Collector `c` collects resource `id`: realized, given the
    /// collector's attribute operations (by `apply`), remembered.
    #[inline]
    pub fn collect(&mut self, c: usize, id: ResId, apply: impl Fn(&mut Res, &str, bool, Value)) {
        let r = &mut self.resources[id];
        r.virtual_ = false;
        let coll = &mut self.collectors[c];
        for (n, append, v) in &coll.ops {
            apply(r, n, *append, v.clone());
        }
        coll.collected.insert(id);
    }

    /// Marks a source as a collector's with attribute operations (see
    /// `override_sources`).
    pub fn mark_override_source(&mut self, source: String) {
        if !self.override_sources.contains(&source) {
            self.override_sources.push(source);
        }
    }

    /// Whether `source` overrides as a subclass would (see
    /// `override_sources`).
    pub fn is_override_source(&self, source: &str) -> bool {
        self.override_sources.iter().any(|s| s == source)
    }

    /// Notes that resource `id` was collected from another node's exports.
    pub fn mark_imported(&mut self, id: ResId, collector_id: std::sync::Arc<str>) {
        self.imported.insert(id, collector_id);
    }

    /// The collector id of a resource collected from another node's
    /// exports (`None`: declared in this catalog).
    pub fn collector_id(&self, id: ResId) -> Option<&str> {
        self.imported.get(&id).map(|c| &**c)
    }

    /// Brings the resources by type up to date (for the collectors).
    #[inline]
    pub fn index_by_type(&mut self) {
        self.by_type.catch_up(&self.resources, |r| &r.type_name);
    }

    /// The resources of type `type_name` (ASCII case aside) as of the last
    /// [`CatalogState::index_by_type`], in resource order.
    #[inline]
    pub fn of_type(&self, type_name: &str) -> Cow<'_, [ResId]> {
        self.by_type.of_type(type_name)
    }

    /// Keeps an override of a resource not yet declared, by reference.
    #[inline]
    pub fn add_override(&mut self, reference: String, o: Override) {
        self.overrides.entry(reference).or_default().push(o);
    }

    /// Whether any override waits for its resource.
    #[inline]
    pub fn has_overrides(&self) -> bool {
        !self.overrides.values().all(Vec::is_empty)
    }

    /// The overrides waiting for resource `reference`, taken.
    #[inline]
    pub fn take_overrides(&mut self, reference: &str) -> Option<Vec<Override>> {
        self.overrides.get_mut(reference).map(std::mem::take)
    }

    /// Every override still waiting, by reference in the order they came.
    #[inline]
    pub fn overrides(&self) -> impl Iterator<Item = &Override> {
        self.overrides.values().flatten()
    }

    /// Adds a `realize` call's references.
    #[inline]
    pub fn add_realize_set(&mut self, set: Vec<RealizeRef>) {
        self.realize_sets.push(set);
    }

    /// The `realize` calls' references not found yet, taken (to be put
    /// back with [`CatalogState::set_realize_sets`]).
    #[inline]
    pub fn take_realize_sets(&mut self) -> Vec<Vec<RealizeRef>> {
        std::mem::take(&mut self.realize_sets)
    }

    #[inline]
    pub fn set_realize_sets(&mut self, sets: Vec<Vec<RealizeRef>>) {
        self.realize_sets = sets;
    }

    /// Puppet's `add_resource_metaparams`: walking containment from
    /// `Class[main]`, a container's non-relationship metaparameters fill the
    /// ones its contents leave unset.
    pub fn add_resource_metaparams(&mut self) {
        const NAMES: &[&str] = &[
            "alias", "audit", "loglevel", "noop", "schedule", "stage", "tag",
        ];
        let Some(main) = self.find_resource("Class", "") else {
            return;
        };
        let mut children: Vec<Vec<usize>> = vec![Vec::new(); self.resources.len()];
        for &(s, t) in &self.edges {
            children[s].push(t);
        }
        let own = |r: &Res| -> Vec<(Name, Value)> {
            NAMES
                .iter()
                .filter_map(|n| {
                    r.params
                        .get(*n)
                        .filter(|v| !v.is_undef())
                        .map(|v| ((*n).into(), v.clone()))
                })
                .collect()
        };
        let mut stack = vec![(main, own(&self.resources[main]))];
        let mut seen = vec![false; self.resources.len()];
        while let Some((source, data)) = stack.pop() {
            if std::mem::replace(&mut seen[source], true) {
                continue;
            }
            for &target in children[source].iter().rev() {
                for (n, v) in &data {
                    if !self.resources[target].params.contains_key(n) {
                        self.resources[target].params.insert(n.clone(), v.clone());
                    }
                }
                let mut merged = data.clone();
                for (n, v) in own(&self.resources[target]) {
                    match merged.iter_mut().find(|(k, _)| *k == n) {
                        Some(slot) => slot.1 = v,
                        None => merged.push((n, v)),
                    }
                }
                stack.push((target, merged));
            }
        }
    }

    /// Where a resource's body (or its expression's `default:` body) sets
    /// `before`/`require`/`notify`/`subscribe`.
    pub fn note_attribute_lines(
        &mut self,
        id: ResId,
        body: &[puppet_syntax::ast::AttributeOp],
        defaults: &[puppet_syntax::ast::AttributeOp],
        program: &std::sync::Arc<puppet_syntax::ast::Program>,
    ) {
        use puppet_syntax::ast::AttributeOp;
        if !self
            .attribute_programs
            .last()
            .is_some_and(|p| std::sync::Arc::ptr_eq(p, program))
        {
            self.attribute_programs.push(program.clone());
        }
        let p = self.attribute_programs.len() as u32 - 1;
        let start = self.attribute_lines.len() as u32;
        for op in body.iter().chain(defaults) {
            let (AttributeOp::Set { span, .. } | AttributeOp::Splat { span, .. }) = op;
            self.attribute_lines.push((span.start, p));
        }
        self.resources[id].attributes = (start, self.attribute_lines.len() as u32);
    }

    // The catalog's final checks.

    /// Puppet's `fail_on_unevaluated`: overrides of resources that never
    /// came, then references `realize` never found, all of them listed.
    pub fn fail_on_unevaluated(&self) -> Result<(), EvalError> {
        let remaining: Vec<String> = self
            .overrides()
            .map(|o| bracketed(&o.target.0, &o.target.1))
            .collect();
        if !remaining.is_empty() {
            return Err(EvalError::Completion(
                issues::relationships::overridden_not_found(remaining.join(", ")),
            ));
        }
        let unrealized: Vec<&str> = self
            .realize_sets
            .iter()
            .flatten()
            .map(|r| match r {
                RealizeRef::Ref(_, _, shown) => shown.as_str(),
                RealizeRef::Bad(s) => s.as_str(),
            })
            .collect();
        if !unrealized.is_empty() {
            return Err(EvalError::Completion(
                issues::relationships::failed_to_realize(unrealized.join(", ")),
            ));
        }
        Ok(())
    }

    /// Puppet's `Parser::Resource#validate` of a resource of a Ruby type,
    /// as `finish` runs it on every resource, virtual ones included: each
    /// parameter must be one of the type's.
    pub fn validate_builtin_params(&self, id: ResId) -> Result<(), EvalError> {
        let r = &self.resources[id];
        let rtype = &r.rtype;
        if let Some(bad) = r
            .params
            .keys()
            .find(|p| rtype.as_ref().is_some_and(|t| !t.accepts(p)))
        {
            let at = match (&r.file, r.line) {
                (Some(f), Some(l)) => format!(" (file: {f}, line: {l})"),
                _ => String::new(),
            };
            return Err(EvalError::Completion(format!(
                "{}{at} on {}{at}",
                issues::resources::no_parameter_named(bad),
                r.reference()
            )));
        }
        Ok(())
    }

    /// Puppet's final catalog validation: every resource a relationship
    /// metaparameter names must be in the catalog.
    pub fn validate_relationship_params(&self) -> Result<(), EvalError> {
        for (id, r) in self.resources.iter().enumerate() {
            if r.virtual_ {
                continue;
            }
            // In the resource's parameter order, as Puppet's
            // RelationshipValidator walks `eachparam`.
            let relationships = r
                .params
                .iter()
                .filter(|(p, _)| matches!(&***p, "before" | "require" | "notify" | "subscribe"));
            for (param, v) in relationships {
                // `param.value.flatten` for an Array.
                let mut refs = Vec::new();
                let mut stack = vec![v];
                while let Some(x) = stack.pop() {
                    match x {
                        Value::Array(items) => stack.extend(items.iter().rev()),
                        other => refs.push(other),
                    }
                }
                for x in refs {
                    let Some((t, title)) = as_ref(x) else {
                        continue;
                    };
                    if self.find_resource(&t, &title).is_none() {
                        let line = self.attribute_line(id, param, false).or(r.line);
                        let at = match (&r.file, line) {
                            (Some(f), Some(l)) => format!(" (file: {f}, line: {l})"),
                            _ => String::new(),
                        };
                        return Err(EvalError::Completion(format!(
                            "{}{at}",
                            issues::relationships::metaparam_resource_not_found(
                                format!("{t}[{title}]"),
                                param
                            )
                        )));
                    }
                }
            }
        }
        Ok(())
    }
}
