//! Catalog expressions: resources, defaults, overrides, collectors and
//! relationships (Puppet's `Runtime3ResourceSupport`, `Collector`,
//! `Relationship`).

use puppet_model::names::bracketed;
use puppet_syntax::util::NameStr as _;
use std::borrow::Cow;
use std::sync::Arc;

use rustc_hash::FxHashMap;

use indexmap::IndexMap;

use super::compiler::{
    capitalize_name, capitalized_name, Compiler, Operand, Relation, Res, ResKind, SetBy,
};
use super::error::{EvalError, Location};
use super::expr::{Ctx, R};
use super::issues;
use super::scope::{ResId, ScopeId};
use super::value::{Name, Value};
use crate::catalog::valid_tag;
use puppet_model::types::PType;
use puppet_syntax::ast::*;

#[derive(Clone, Debug)]
pub struct Collector {
    pub type_name: String,
    pub kind: QueryKind,
    /// The query with its operands already evaluated (`None`: collect all).
    pub query: Option<Arc<Query>>,
    pub ops: Vec<(Name, bool, Value)>,
    pub scope: ScopeId,
    /// Resources this collector already collected, in collection order (a
    /// set: checking membership by scanning made collection quadratic).
    pub collected: indexmap::IndexSet<ResId>,
    /// What a chain links through this collector when it collects nothing:
    /// the left side of the link whose right side it is alone.
    pub empty_alternative: Option<Vec<Operand>>,
}

/// The resources of each type name, in the order they were added, brought
/// up to date as the collectors run. A collector looks at the resources of
/// its own type only: scanning every resource on every pass of the generator
/// loop, each to compare its type name, cost a 20,000-resource catalog with
/// five collectors 30 % of its instructions. Names are kept as the resources
/// spell them (no lowercase copy per resource); a collector takes every name
/// that equals its own but for ASCII case, as the scan did.
#[derive(Default)]
pub struct ResourcesByType {
    ids: FxHashMap<Arc<str>, Vec<ResId>>,
    /// How many of the compiler's resources are in `ids`.
    indexed: usize,
}

impl ResourcesByType {
    /// Adds the resources created since the last call: those of `all`
    /// (every resource, in order) past the ones already indexed, which are
    /// not walked again.
    pub(crate) fn catch_up<T>(&mut self, all: &[T], type_name: impl Fn(&T) -> &Arc<str>) {
        for (id, r) in all.iter().enumerate().skip(self.indexed) {
            let t = type_name(r);
            match self.ids.get_mut(t) {
                Some(ids) => ids.push(id),
                None => {
                    self.ids.insert(t.clone(), vec![id]);
                }
            }
        }
        self.indexed = self.indexed.max(all.len());
    }

    /// The resources whose type is `type_name` (ASCII case aside), in
    /// resource order.
    pub(crate) fn of_type(&self, type_name: &str) -> Cow<'_, [ResId]> {
        let mut lists = self
            .ids
            .iter()
            .filter(|(t, _)| t.eq_ignore_ascii_case(type_name))
            .map(|(_, ids)| ids.as_slice());
        let Some(first) = lists.next() else {
            return Cow::Borrowed(&[]);
        };
        let Some(second) = lists.next() else {
            return Cow::Borrowed(first);
        };
        let mut all = [first, second].concat();
        for more in lists {
            all.extend_from_slice(more);
        }
        all.sort_unstable();
        Cow::Owned(all)
    }
}

/// A collector's query as Puppet's `CollectorTransformer` makes it: the
/// operands are evaluated once, in the collector's scope, when the collector
/// expression is evaluated; collecting only compares.
#[derive(Clone, Debug)]
pub enum Query {
    And(Box<Query>, Box<Query>),
    Or(Box<Query>, Box<Query>),
    /// `attr == value`, or `!=` when `negate`.
    Compare {
        attr: String,
        value: Value,
        negate: bool,
    },
    /// A query that matches nothing.
    Never,
}

#[derive(Clone, Debug)]
pub struct Override {
    /// The overridden resource's type and title.
    pub target: (String, String),
    pub params: Vec<(Name, bool, Value)>,
    /// The line of each attribute (`*` for a splat), where Puppet places
    /// the parameters it sets.
    pub lines: Arc<[(Name, u32)]>,
    pub at: Location,
    pub scope: ScopeId,
}

/// Evaluated attribute operations: name, `+>`, value.
type Ops = Vec<(Name, bool, Value)>;

/// One reference given to `realize`.
#[derive(Clone, Debug)]
pub enum RealizeRef {
    /// A resource reference: type, title, and how Puppet prints it.
    Ref(String, String, String),
    /// What Puppet cannot read as a reference (`Notify[]` for an untitled
    /// type, a string not of the form `Type[title]`): realizing fails.
    Bad(String),
}

impl RealizeRef {
    /// The reference a value given to `realize` stands for, as Puppet's
    /// 3.x conversion and `findresource` read it.
    pub fn of(v: &Value) -> RealizeRef {
        match v {
            Value::Type(t) => match t.as_ref() {
                PType::Resource {
                    type_name: Some(t),
                    title: None,
                } => RealizeRef::Bad(format!("{t}[]")),
                _ => match as_owned_ref(v) {
                    Some((t, x)) => {
                        let shown = bracketed(&t, &x);
                        RealizeRef::Ref(t, x, shown)
                    }
                    None => RealizeRef::Bad(v.to_string()),
                },
            },
            Value::String(s) => {
                // `Resource.extract_type_and_title`'s /^([^\[\]]+)\[(.+)\]$/m
                let parsed = s.split_once('[').and_then(|(t, rest)| {
                    let title = rest.strip_suffix(']')?;
                    (!t.is_empty() && !t.contains(']') && !title.is_empty())
                        .then(|| (capitalized_name(t).into_owned(), title.to_string()))
                });
                match parsed {
                    Some((t, x)) => RealizeRef::Ref(t, x, s.to_string()),
                    None => RealizeRef::Bad(s.to_string()),
                }
            }
            other => RealizeRef::Bad(other.to_string()),
        }
    }
}

/// Tags a resource has room for when made.
pub const RES_TAGS: usize = 12;

/// A reference value as (type, title): `File['/x']` → ("File", "/x").
pub fn as_ref(v: &Value) -> Option<(Cow<'_, str>, Cow<'_, str>)> {
    match v {
        Value::Type(t) => match t.as_ref() {
            PType::Resource {
                type_name: Some(t),
                title: Some(x),
            } => Some((Cow::Borrowed(t), Cow::Borrowed(x))),
            PType::Class(Some(c)) => Some((Cow::Borrowed("Class"), capitalize_name(c).into())),
            _ => None,
        },
        Value::String(s) => {
            // Puppet's `Resource.extract_type_and_title`: the title is all
            // between the first `[` and the last `]`, quotes included.
            let (t, rest) = s.split_once('[')?;
            let title = rest.strip_suffix(']')?;
            if t.is_empty() || t.contains(']') || title.is_empty() {
                return None;
            }
            Some((capitalized_name(t), Cow::Borrowed(title)))
        }
        _ => None,
    }
}

/// [`as_ref`], owned.
pub fn as_owned_ref(v: &Value) -> Option<(String, String)> {
    as_ref(v).map(|(t, x)| (t.into_owned(), x.into_owned()))
}

/// The reference value of a resource (`File['/x']`, sharing its names;
/// `Class['x']` with the class name downcased).
pub fn reference_to(r: &Res) -> Value {
    if &*r.type_name == "Class" {
        return Value::Type(Arc::new(PType::Class(Some(r.title.to_lowercase()))));
    }
    Value::Type(Arc::new(PType::Resource {
        type_name: Some(r.type_name.clone()),
        title: Some(r.title.clone()),
    }))
}

impl<'e> Compiler<'e> {
    fn eval_ops(
        &mut self,
        ops: &[AttributeOp],
        scope: ScopeId,
        ctx: &Ctx,
    ) -> R<Vec<(Name, bool, Value)>> {
        let mut out = Vec::with_capacity(ops.len());
        for op in ops {
            match op {
                AttributeOp::Set {
                    name,
                    append,
                    value,
                    ..
                } => {
                    let v = self.eval(value, scope, ctx)?;
                    out.push((name.clone(), *append, v));
                }
                AttributeOp::Splat { value, .. } => match self.eval(value, scope, ctx)? {
                    Value::Hash(ref h) => {
                        for (k, v) in h.iter() {
                            out.push((k.to_string().into(), false, v.clone()));
                        }
                    }
                    Value::Undef => {}
                    _ => {
                        return Err(EvalError::runtime(
                            issues::resources::SPLAT_OF_NON_HASH,
                            Location::default(),
                        ))
                    }
                },
            }
        }
        Ok(out)
    }

    fn titles(&self, v: Value) -> Vec<Value> {
        match &v {
            Value::Array(items) => items.iter().flat_map(|i| self.titles(i.clone())).collect(),
            _ => vec![v],
        }
    }

    /// A resource expression: its resources, and with `wanted` its value
    /// (the references to them).
    pub fn eval_resource(&mut self, e: &Expr, scope: ScopeId, ctx: &Ctx, wanted: bool) -> R<Value> {
        let ExprKind::Resource {
            form,
            type_name,
            bodies,
        } = &e.kind
        else {
            return Ok(Value::Undef);
        };
        // A bare word (`file { ... }`, nearly every resource expression) is
        // its own name: no value to make and copy.
        let tname: Cow<str> = match &type_name.kind {
            ExprKind::QName(n) => Cow::Borrowed(n),
            _ => Cow::Owned(match &self.eval(type_name, scope, ctx)? {
                Value::String(s) => s.to_string(),
                Value::Type(t) => match t.as_ref() {
                    PType::Resource {
                        type_name: Some(n), ..
                    } => n.to_string(),
                    PType::Class(None) => "class".into(),
                    other => other.to_string(),
                },
                other => other.to_string(),
            }),
        };
        let key = tname.trim_colons().lowercase();
        // Puppet's `eval_ResourceExpression`: every body's titles, then its
        // attribute operations, body by body, before any resource is made;
        // titles are checked (`undef`, non-String, empty, repeated within
        // the expression). A `default:` body gives values to the others.
        let mut evaluated: Vec<(Vec<Value>, Ops)> = Vec::with_capacity(bodies.len());
        let mut seen_titles: Vec<Value> = Vec::new();
        let mut default_ops = Vec::new();
        let mut default_bodies: &[AttributeOp] = &[];
        for b in bodies {
            let is_default = matches!(b.title.kind, ExprKind::Default);
            let titles = if is_default {
                Vec::new()
            } else {
                let title_value = self.eval(&b.title, scope, ctx)?;
                if title_value.is_undef() {
                    return Err(EvalError::Issue {
                        detail: issues::resources::MISSING_TITLE.into(),
                        at: self.loc(&ctx.program, &b.title),
                    });
                }
                let titles = self.titles(title_value);
                for (index, t) in titles.iter().enumerate() {
                    let detail = match t {
                        Value::Undef => Some(issues::resources::missing_title_at(index)),
                        Value::String(s) if s.is_empty() => {
                            Some(issues::resources::empty_string_title_at(index))
                        }
                        Value::String(_) | Value::Default => None,
                        other => Some(issues::resources::illegal_title_type_at(
                            index,
                            puppet_model::types::infer(other).generalize(),
                        )),
                    };
                    if let Some(detail) = detail {
                        return Err(EvalError::Issue {
                            detail,
                            at: self.loc(&ctx.program, &b.title),
                        });
                    }
                    if seen_titles.contains(t) {
                        return Err(EvalError::Issue {
                            detail: issues::resources::duplicate_title(t),
                            at: self.loc(&ctx.program, e),
                        });
                    }
                    seen_titles.push(t.clone());
                }
                titles
            };
            let body_ops = self.eval_ops(&b.ops, scope, ctx)?;
            for (i, (n, _, _)) in body_ops.iter().enumerate() {
                if body_ops[..i].iter().any(|(m, _, _)| m == n) {
                    return Err(EvalError::Issue {
                        detail: issues::resources::duplicate_attribute(n),
                        at: self.loc(&ctx.program, e),
                    });
                }
            }
            if is_default {
                default_ops = body_ops;
                default_bodies = &b.ops;
                evaluated.push((Vec::new(), Vec::new()));
            } else {
                evaluated.push((titles, body_ops));
            }
        }
        let mut refs = Vec::with_capacity(if wanted { bodies.len() } else { 0 });
        for (b, (titles, body_ops)) in bodies.iter().zip(evaluated) {
            if matches!(b.title.kind, ExprKind::Default) {
                continue;
            }
            let ops = if default_ops.is_empty() {
                body_ops
            } else {
                let mut ops = Vec::with_capacity(default_ops.len() + body_ops.len());
                ops.extend(default_ops.iter().cloned());
                for op in body_ops {
                    ops.retain(|(n, _, _)| *n != op.0);
                    ops.push(op);
                }
                ops
            };
            // Puppet places every resource of an expression at the expression.
            let at = self.loc(&ctx.program, e);
            for title in titles {
                if title == Value::Default {
                    continue;
                }
                let title: Arc<str> = match &title {
                    // Not through `Display`: most titles are strings.
                    Value::String(s) => s.clone(),
                    other => other.to_string().into(),
                };
                if key == "class" {
                    let ckey = title.trim_colons().lowercase();
                    let Some(def) = self.find_class(&ckey)? else {
                        return Err(EvalError::runtime(
                            issues::resources::declared_class_not_found(&title),
                            Location::default(),
                        ));
                    };
                    let params: puppet_model::value::Params =
                        ops.iter().map(|(n, _, v)| (n.clone(), v.clone())).collect();
                    let id = self.declare_class(&ckey, def, Some(params), scope, &at)?;
                    self.catalog
                        .note_attribute_lines(id, &b.ops, default_bodies, &ctx.program);
                    if wanted {
                        refs.push(reference_to(&self.catalog[id]));
                    }
                    continue;
                }
                let id = self.create_resource(&key, title, &ops, *form, scope, &at)?;
                self.catalog
                    .note_attribute_lines(id, &b.ops, default_bodies, &ctx.program);
                if wanted {
                    refs.push(reference_to(&self.catalog[id]));
                }
            }
        }
        Ok(if wanted {
            Value::array(refs)
        } else {
            Value::Undef
        })
    }

    /// One resource instance: a built-in type or a defined type (queued).
    pub fn create_resource(
        &mut self,
        key: &str,
        title: Arc<str>,
        ops: &[(Name, bool, Value)],
        form: ResourceForm,
        scope: ScopeId,
        at: &Location,
    ) -> R<ResId> {
        let rtype = self.ruby_type(key);
        let (kind, define) = if let Some(t) = &rtype {
            if let Err(msg) = super::rtypes::check_title_patterns(t, &title) {
                return Err(EvalError::runtime(msg, Location::default()));
            }
            (ResKind::Builtin, None)
        } else if self.find_define(key)?.is_some() {
            (ResKind::Define, Some(key.to_string()))
        } else {
            // Located at the resource expression by the caller's wrap.
            return Err(EvalError::runtime(
                self.unknown_type_message(key),
                Location::default(),
            ));
        };
        let type_name = self.catalog.type_name(key);
        let mut res = Res {
            type_name: type_name.name,
            title: title.clone(),
            // Sized once: growing them cost a reallocation and a copy or
            // two per resource (a resource ends with ~10 tags: its type's,
            // its scopes').
            params: IndexMap::with_capacity_and_hasher(ops.len(), Default::default()),
            tags: Vec::with_capacity(RES_TAGS),
            file: at.file.clone(),
            line: at.line,
            exported: form == ResourceForm::Exported,
            virtual_: form != ResourceForm::Regular,
            kind,
            evaluated: kind != ResKind::Define,
            scope,
            define,
            rtype,
            scope_tagged: false,
            pending: None,
            exported_nil: false,
            attributes: (0, 0),
        };
        // Puppet sets the parameters first (a `tag` parameter tags at once),
        // then the defaults of the scope chain, then tags type and title.
        for (name, _, v) in ops {
            if &**name == "tag" {
                for t in self.titles(v.clone()) {
                    if t.is_undef() {
                        continue;
                    }
                    let t = t.to_string().to_lowercase();
                    // Puppet's `Tagging#tag`: a new tag must be valid; the
                    // ParseError carries the resource's file and line.
                    if !valid_tag(&t) && !res.tags.iter().any(|x| **x == *t) {
                        let place = Location {
                            column: None,
                            ..at.clone()
                        };
                        return Err(EvalError::Completion(format!(
                            "{}{}",
                            issues::resources::invalid_tag(&t),
                            place.suffix()
                        )));
                    }
                    res.tag(&t);
                }
            }
            // An explicit undef is kept (and left out of the catalog): it
            // stops a default from filling the attribute.
            res.params.insert(name.clone(), v.clone());
        }
        for (name, v) in self.scopes.lookup_defaults(scope, key) {
            if !res.params.contains_key(&name) {
                if &*name == "tag" {
                    for t in self.titles(v.clone()) {
                        res.tag(&t.to_string());
                    }
                }
                if !v.is_undef() {
                    res.params.insert(name, v);
                }
            }
        }
        res.tag_split(&type_name.tags);
        if valid_tag(&title) {
            res.tag_shared(&title);
        }
        if self.node.puppet == crate::version::PuppetVersion::V8 {
            check_serializable(&res, at)?;
        }
        let id = self.catalog.add_resource(res, at)?;
        // Stages are top-level containers, whatever declares them.
        if key != "stage" {
            if let Some(owner) = self.scopes.resource_of(scope) {
                self.catalog.add_edge(owner, id);
            }
        }
        Ok(id)
    }

    pub fn eval_defaults(
        &mut self,
        _e: &Expr,
        type_ref: &Expr,
        ops: &[AttributeOp],
        scope: ScopeId,
        ctx: &Ctx,
    ) -> R<Value> {
        let t = self.eval(type_ref, scope, ctx)?;
        let name = match &t {
            Value::Type(t) => match t.as_ref() {
                PType::Resource {
                    type_name: Some(n), ..
                } => n.to_lowercase(),
                other => other.to_string().to_lowercase(),
            },
            other => other.to_string().to_lowercase(),
        };
        let values = self.eval_ops(ops, scope, ctx)?;
        let at = self.loc(&ctx.program, _e);
        let type_name = capitalize_name(&name);
        let defaults = self.scopes.get_mut(scope).defaults.entry(name).or_default();
        for (n, _, v) in values {
            if defaults.iter().any(|(k, _)| *k == n) {
                return Err(EvalError::Syntax(format!(
                    "{} (file: {}, line: {})",
                    issues::resources::default_already_defined(&type_name, &n),
                    at.file.unwrap_or_default(),
                    at.line.unwrap_or(0)
                )));
            }
            defaults.push((n, v));
        }
        Ok(Value::Undef)
    }

    pub fn eval_override(
        &mut self,
        e: &Expr,
        resources: &Expr,
        ops: &[AttributeOp],
        scope: ScopeId,
        ctx: &Ctx,
    ) -> R<Value> {
        let target = self.eval(resources, scope, ctx)?;
        let params = self.eval_ops(ops, scope, ctx)?;
        let at = self.loc(&ctx.program, e);
        let lines: Arc<[(Name, u32)]> = ops
            .iter()
            .map(|op| match op {
                AttributeOp::Set { name, span, .. } => (name.clone(), ctx.program.line_of(*span)),
                AttributeOp::Splat { span, .. } => (Name::from("*"), ctx.program.line_of(*span)),
            })
            .collect();
        // Puppet's `create_resource_overrides`: one override per
        // reference, merged at once when the resource exists, else kept
        // by reference for the end (`add_override`).
        for v in self.titles(target) {
            let is_resource = matches!(&v, Value::Type(t) if matches!(t.as_ref(),
                PType::Resource { type_name: Some(n), .. } if !n.eq_ignore_ascii_case("class")));
            if !is_resource {
                return self.fail(
                    ctx,
                    e,
                    issues::resources::illegal_overridden_type(puppet_model::value::value_label(
                        &v,
                    )),
                );
            }
            let Some((t, x)) = as_owned_ref(&v) else {
                continue;
            };
            let o = Override {
                target: (t, x),
                params: params.clone(),
                lines: lines.clone(),
                at: at.clone(),
                scope,
            };
            match self.catalog.find_resource(&o.target.0, &o.target.1) {
                Some(id) => self.apply_override(&o, id)?,
                None => {
                    let key = bracketed(&o.target.0, &o.target.1);
                    self.catalog.add_override(key, o);
                }
            }
        }
        Ok(Value::Undef)
    }

    /// Puppet's `Resource#merge`: only the resource's own class or a subclass
    /// may override; a subclass replaces (`=>`) or appends (`+>`).
    fn apply_override(&mut self, o: &Override, id: ResId) -> R<()> {
        let from = self.scopes.source_of(o.scope);
        let owner = self.scopes.source_of(self.catalog[id].scope);
        if from != owner && !self.overrides_as_subclass(&from, &owner) {
            // A ParseError at the override: a lazily evaluated define wraps it.
            return Err(EvalError::Located(format!(
                "{} (file: {}, line: {})",
                issues::resources::ONLY_SUBCLASSES_CAN_OVERRIDE,
                o.at.file.clone().unwrap_or_default(),
                o.at.line.unwrap_or(0)
            )));
        }
        self.check_override_of_evaluated(o, id)?;
        for (n, append, v) in &o.params {
            let line = o
                .lines
                .iter()
                .find(|(m, _)| m == n)
                .or_else(|| o.lines.iter().find(|(m, _)| &**m == "*"))
                .map(|(_, l)| *l)
                .or(o.at.line);
            if let Some(current) = self.explicitly_set(id, n) {
                if !self.may_override_parameter(id, n, v, &from, &current, (&o.at.file, line))? {
                    continue;
                }
            }
            apply_param(&mut self.catalog[id], n, *append, v.clone());
            self.catalog.note_overridden(
                id,
                SetBy {
                    name: n.clone(),
                    source: from.clone(),
                    file: o.at.file.clone(),
                    line,
                },
            );
        }
        Ok(())
    }

    /// Puppet's `Resource::Type#child_of?`: a subclass of `owner`, or a class
    /// marked `override` by its collector.
    fn overrides_as_subclass(&self, from: &str, owner: &str) -> bool {
        if self.catalog.is_override_source(from) {
            return true;
        }
        match (from.strip_prefix("class "), owner.strip_prefix("class ")) {
            (Some(c), Some(p)) => self.defs.inherits_from(c, p),
            _ => false,
        }
    }

    /// Who set parameter `name` of resource `id`, where Puppet would hold
    /// it at an override: set by the declaration or an override (a
    /// resource default, which Puppet adds only at finish, is not there
    /// yet).
    fn explicitly_set(&self, id: ResId, name: &str) -> Option<SetBy> {
        let r = &self.catalog[id];
        if let Some(set) = self
            .catalog
            .overridden(id)
            .iter()
            .rev()
            .find(|s| &*s.name == name)
        {
            return r.params.contains_key(name).then(|| set.clone());
        }
        if !r.params.contains_key(name) {
            return None;
        }
        let line = self.catalog.attribute_line(id, name, true);
        // Not among the declaration's attributes: a resource default's.
        if line.is_none()
            && (r.attributes.0 != r.attributes.1
                || self
                    .scopes
                    .lookup_defaults(r.scope, &r.type_name.to_lowercase())
                    .iter()
                    .any(|(n, _)| &**n == name))
        {
            return None;
        }
        Some(SetBy {
            name: name.into(),
            source: self.scopes.source_of(r.scope),
            file: r.file.clone(),
            line,
        })
    }

    /// Puppet's `Resource#override_parameter` for a parameter already set:
    /// `Ok(false)` when the new value is a resource default (ignored),
    /// `Ok(true)` when it may replace the current one, else its error.
    fn may_override_parameter(
        &self,
        id: ResId,
        name: &Name,
        value: &Value,
        from: &str,
        current: &SetBy,
        (file, line): (&Option<Arc<str>>, Option<u32>),
    ) -> R<bool> {
        let r = &self.catalog[id];
        let type_key = r.type_name.to_lowercase();
        if self.scopes.is_default(r.scope, &type_key, name, value) {
            return Ok(false);
        }
        let current_value = r.params.get(&**name).cloned().unwrap_or(Value::Undef);
        if self.overrides_as_subclass(from, &current.source)
            || (from == current.source
                && self
                    .scopes
                    .is_default(r.scope, &type_key, name, &current_value))
        {
            return Ok(true);
        }
        // A ParseError at the override's attribute: a lazily evaluated
        // define wraps it.
        Err(EvalError::Located(format!(
            "{} (file: {}, line: {})",
            issues::resources::parameter_already_set(
                name,
                r.reference(),
                current.file.as_deref(),
                current.line
            ),
            file.as_deref().unwrap_or_default(),
            line.unwrap_or(0)
        )))
    }

    /// Puppet's `Resource#merge` on a class or define whose body already
    /// ran: the new values cannot reach it, which `strict` reports.
    fn check_override_of_evaluated(&mut self, o: &Override, id: ResId) -> R<()> {
        let target = &self.catalog[id];
        if !matches!(target.kind, ResKind::Define | ResKind::Class) || !target.evaluated {
            return Ok(());
        }
        let message = issues::resources::override_evaluated(target.file.as_deref(), target.line);
        let at = super::error::Location {
            file: o.at.file.clone(),
            line: o.at.line,
            column: None,
        };
        match self.node.strict() {
            crate::version::Strict::Off => Ok(()),
            crate::version::Strict::Warning => {
                self.warnings.push(format!("{message}{}", at.suffix()));
                Ok(())
            }
            // A ParseError at the override's file and line.
            crate::version::Strict::Error => {
                Err(EvalError::Located(format!("{message}{}", at.suffix())))
            }
        }
    }

    pub fn eval_collect(&mut self, e: &Expr, scope: ScopeId, ctx: &Ctx) -> R<Value> {
        let ExprKind::Collect {
            type_ref,
            query_kind,
            query,
            ops,
        } = &e.kind
        else {
            return Ok(Value::Undef);
        };
        let ExprKind::QRef(t) = &type_ref.kind else {
            return Ok(Value::Undef);
        };
        // Puppet's `CollectorTransformer#transform`: the type must exist,
        // then the block's values, then the query; what fails is reported
        // at the collector as a `Virtual Query` (or `Exported Query`).
        let key = t.trim_start_matches("::").to_lowercase();
        let fail = |this: &Self, detail: String| -> EvalError {
            EvalError::Runtime {
                while_evaluating: Some(super::expr::a_label(e)),
                detail,
                at: this.loc(&ctx.program, e),
            }
        };
        if key == "class" {
            return Err(fail(
                self,
                issues::relationships::CLASSES_CANNOT_BE_COLLECTED.into(),
            ));
        }
        if !self.is_ruby_type(&key) && self.find_define(&key)?.is_none() {
            return Err(fail(
                self,
                issues::relationships::collected_type_unknown(&key),
            ));
        }
        let ops = self.eval_ops(ops, scope, ctx)?;
        let query = match query.as_deref() {
            Some(q) => match self.compile_query(q, scope, ctx)? {
                Ok(q) => Some(Arc::new(q)),
                Err(detail) => return Err(fail(self, detail)),
            },
            None => None,
        };
        self.catalog.add_collector(Collector {
            type_name: capitalize_name(t),
            kind: *query_kind,
            query,
            ops,
            scope,
            collected: indexmap::IndexSet::new(),
            empty_alternative: None,
        });
        Ok(Value::Undef)
    }

    pub fn eval_relationship(
        &mut self,
        e: &Expr,
        op: RelationOp,
        lhs: &Expr,
        rhs: &Expr,
        scope: ScopeId,
        ctx: &Ctx,
    ) -> R<Value> {
        let result = self.chain(e, op, lhs, rhs, scope, ctx)?;
        Ok(Value::array(
            result
                .into_iter()
                .filter_map(|o| match o {
                    Operand::Ref(v) => Some(v),
                    Operand::Collector(_) => None,
                })
                .collect(),
        ))
    }

    /// One link of a chain: records the relationship and gives what the
    /// chain continues with, as Puppet's `RelationshipOperator` does: the
    /// right side, or the left side where the right one is empty (`X -> [] ->
    /// Y` is `X -> Y`). A collector alone on the right remembers the left
    /// side as its empty alternative, so that `X -> Coll -> Y` still links X
    /// to Y when Coll collects nothing.
    fn chain(
        &mut self,
        e: &Expr,
        op: RelationOp,
        lhs: &Expr,
        rhs: &Expr,
        scope: ScopeId,
        ctx: &Ctx,
    ) -> R<Vec<Operand>> {
        let l = self.operands(e, lhs, scope, ctx)?;
        let r = self.operands(e, rhs, scope, ctx)?;
        let (source, target, param) = match op {
            RelationOp::Before => (l.clone(), r.clone(), "before"),
            RelationOp::Notify => (l.clone(), r.clone(), "notify"),
            RelationOp::Require => (r.clone(), l.clone(), "before"),
            RelationOp::Subscribe => (r.clone(), l.clone(), "notify"),
        };
        self.catalog.add_relation(Relation {
            source,
            target,
            param,
        });
        if r.is_empty() {
            return Ok(l);
        }
        if let [Operand::Collector(i)] = r.as_slice() {
            self.catalog.set_empty_alternative(*i, l);
        }
        Ok(r)
    }

    /// One side of `->`, flattened and without duplicates: resource
    /// references (a string is not one in Puppet 7), what a nested chain
    /// continues with, or a collector.
    fn operands(&mut self, rel: &Expr, side: &Expr, scope: ScopeId, ctx: &Ctx) -> R<Vec<Operand>> {
        match &side.kind {
            ExprKind::Collect { .. } => {
                self.eval(side, scope, ctx)?;
                return Ok(vec![Operand::Collector(
                    self.catalog.collectors().len() - 1,
                )]);
            }
            ExprKind::Relationship { op, lhs, rhs } => {
                return self.chain(side, *op, lhs, rhs, scope, ctx);
            }
            _ => {}
        }
        let v = self.eval(side, scope, ctx)?;
        let mut out: Vec<Operand> = Vec::new();
        for x in self.titles(v) {
            if let Value::String(s) = &x {
                return Err(EvalError::Runtime {
                    while_evaluating: Some(super::expr::a_label(rel)),
                    detail: issues::relationships::not_a_type_specification(s),
                    at: self.loc(&ctx.program, rel),
                });
            }
            let seen = out.iter().any(|o| matches!(o, Operand::Ref(y) if *y == x));
            if !seen {
                out.push(Operand::Ref(x));
            }
        }
        Ok(out)
    }

    /// Puppet's `CollectorTransformer#query`: a query's operands are
    /// evaluated in the collector's scope (`File <| tag == $t |>` reads
    /// the `$t` of the class that declares the collector); an operand of
    /// a form it has no rule for is refused (the inner `Err`: the detail
    /// of the error Puppet reports at the collector).
    fn compile_query(&mut self, q: &Expr, scope: ScopeId, ctx: &Ctx) -> R<Result<Query, String>> {
        // An operand's refusal ends the query with it.
        macro_rules! refused {
            ($e:expr) => {
                match $e {
                    Ok(v) => v,
                    Err(e) => return Ok(Err(e)),
                }
            };
        }
        Ok(Ok(match &q.kind {
            ExprKind::Paren(x) => return self.compile_query(x, scope, ctx),
            ExprKind::Binary {
                op: op @ (BinaryOp::And | BinaryOp::Or),
                lhs,
                rhs,
            } => {
                let l = refused!(self.compile_query(lhs, scope, ctx)?);
                let r = refused!(self.compile_query(rhs, scope, ctx)?);
                if *op == BinaryOp::And {
                    Query::And(Box::new(l), Box::new(r))
                } else {
                    Query::Or(Box::new(l), Box::new(r))
                }
            }
            ExprKind::Binary {
                op: op @ (BinaryOp::Eq | BinaryOp::Ne),
                lhs,
                rhs,
            } => {
                let attr = refused!(self.query_operand(lhs, scope, ctx)?);
                let value = refused!(self.query_operand(rhs, scope, ctx)?);
                let attr = match &attr {
                    Value::String(s) => s.to_string(),
                    _ => return Ok(Ok(Query::Never)),
                };
                if attr == "tag" && *op == BinaryOp::Eq {
                    let wanted = match &value {
                        Value::Array(items) => items.to_vec(),
                        other => vec![other.clone()],
                    };
                    if wanted
                        .iter()
                        .any(|t| matches!(t, Value::Integer(_) | Value::Float(_)))
                    {
                        return Ok(Err(issues::relationships::NUMBER_TO_TAG.into()));
                    }
                }
                Query::Compare {
                    attr,
                    value,
                    negate: *op == BinaryOp::Ne,
                }
            }
            _ => match self.query_operand(q, scope, ctx)? {
                Ok(_) => Query::Never,
                Err(e) => return Ok(Err(e)),
            },
        }))
    }

    /// An operand of a query comparison: the forms Puppet's transformer
    /// evaluates (literals, names, variables, `[]`, strings with
    /// interpolation, parentheses); any other is refused with Puppet's
    /// text, naming its model class.
    fn query_operand(&mut self, e: &Expr, scope: ScopeId, ctx: &Ctx) -> R<Result<Value, String>> {
        match &e.kind {
            ExprKind::Paren(x) => self.query_operand(x, scope, ctx),
            ExprKind::Undef => Ok(Ok(Value::Undef)),
            ExprKind::QName(n) => Ok(Ok(Value::string(&**n))),
            ExprKind::Boolean(_)
            | ExprKind::Number(_)
            | ExprKind::Str(_)
            | ExprKind::Concat(_)
            | ExprKind::Var(_)
            | ExprKind::Access { .. } => Ok(Ok(self.eval(e, scope, ctx)?)),
            _ => Ok(Err(issues::relationships::cannot_transform(model_class(
                &e.kind,
            )))),
        }
    }

    pub fn query_matches(&self, q: &Query, res: ResId) -> bool {
        match q {
            Query::And(a, b) => self.query_matches(a, res) && self.query_matches(b, res),
            Query::Or(a, b) => self.query_matches(a, res) || self.query_matches(b, res),
            Query::Never => false,
            Query::Compare {
                attr,
                value: want,
                negate,
            } => {
                let r = &self.catalog[res];
                let eq = if attr == "title" {
                    Value::String(r.title.clone()).puppet_eq(want)
                } else if attr == "tag" {
                    // Puppet's `tagged?` also asks the containing resources.
                    // A string compared as a string, with no value made
                    // for each tag of each resource scanned.
                    let tagged = |r: &Res| match want {
                        Value::String(w) => {
                            r.tags.iter().any(|t| super::value::str_puppet_eq(t, w))
                        }
                        _ => r.tags.iter().any(|t| Value::string(&**t).puppet_eq(want)),
                    };
                    let mut hit = tagged(r);
                    let mut owner = self.scopes.resource_of(r.scope);
                    let mut hops = 0;
                    while let Some(o) = owner {
                        if hit || o == res || hops > 1000 {
                            break;
                        }
                        hops += 1;
                        hit = tagged(&self.catalog[o]);
                        let next = self.scopes.resource_of(self.catalog[o].scope);
                        if next == Some(o) {
                            break;
                        }
                        owner = next;
                    }
                    hit
                } else {
                    match r.params.get(attr.as_str()) {
                        Some(Value::Array(items)) => items.iter().any(|i| i.puppet_eq(want)),
                        Some(v) => v.puppet_eq(want),
                        None => want.is_undef(),
                    }
                };
                eq != *negate
            }
        }
    }

    /// Runs every collector once; true if anything new was collected.
    /// Without storeconfigs (PuppetDB), exported collectors collect nothing.
    pub fn evaluate_collections(&mut self) -> R<bool> {
        let mut changed = false;
        // Puppet's `FixedSetCollector`s: each keeps what it has not found.
        let mut sets = self.catalog.take_realize_sets();
        for set in &mut sets {
            let mut err = None;
            set.retain(|r| match r {
                _ if err.is_some() => true,
                RealizeRef::Ref(t, x, _) => match self.catalog.find_resource(t, x) {
                    Some(id) => {
                        self.catalog[id].virtual_ = false;
                        changed = true;
                        false
                    }
                    None => true,
                },
                RealizeRef::Bad(s) => {
                    err = Some(s.clone());
                    true
                }
            });
            if let Some(s) = err {
                return Err(EvalError::Completion(
                    issues::relationships::realize_untitled_reference(
                        puppet_model::names::ruby_inspect_str(&s),
                    ),
                ));
            }
        }
        sets.retain(|s| !s.is_empty());
        self.catalog.set_realize_sets(sets);
        if !self.catalog.collectors().is_empty() {
            self.catalog.index_by_type();
        }
        for c in 0..self.catalog.collectors().len() {
            let coll = &self.catalog.collectors()[c];
            if coll.kind == QueryKind::Exported {
                // Puppet's ExportedCollector collects only under storeconfigs.
                if self.node.storeconfigs() && self.collect_exported(c)? {
                    changed = true;
                }
                continue;
            }
            let query = coll.query.clone();
            let mut hits = Vec::new();
            for &id in self.catalog.of_type(&coll.type_name).iter() {
                if self.catalog.collectors()[c].collected.contains(&id) {
                    continue;
                }
                if query.as_ref().is_none_or(|q| self.query_matches(q, id)) {
                    hits.push(id);
                }
            }
            if !hits.is_empty() && !self.catalog.collectors()[c].ops.is_empty() {
                let source = self.scopes.source_of(self.catalog.collectors()[c].scope);
                self.catalog.mark_override_source(source);
            }
            for id in hits {
                self.catalog.collect(c, id, apply_param);
                changed = true;
            }
        }
        Ok(changed)
    }

    /// The references an operand stands for at completion. A collector
    /// stands for what it collected; on the source side, an empty one
    /// stands for its empty alternative (Puppet's `leftmost_alternative`).
    fn resolve_operand(&self, o: &Operand, source: bool, out: &mut Vec<(String, String)>) {
        match o {
            Operand::Ref(v) => match v {
                // An untitled type is `Type[]` to Puppet, which no lookup
                // accepts (see `evaluate_relationships`).
                Value::Type(t) => match t.as_ref() {
                    PType::Resource {
                        type_name: Some(t),
                        title: None,
                    } => out.push((t.to_string(), String::new())),
                    _ => out.extend(as_owned_ref(v)),
                },
                _ => out.extend(as_owned_ref(v)),
            },
            Operand::Collector(i) => {
                let c = &self.catalog.collectors()[*i];
                if source && c.collected.is_empty() {
                    for alt in c.empty_alternative.iter().flatten() {
                        self.resolve_operand(alt, true, out);
                    }
                    return;
                }
                out.extend(c.collected.iter().map(|&id| {
                    (
                        self.catalog[id].type_name.to_string(),
                        self.catalog[id].title.to_string(),
                    )
                }))
            }
        }
    }

    /// Relationships become `before`/`notify` parameters of their source.
    pub fn evaluate_relationships(&mut self) -> R<()> {
        let relations = self.catalog.take_relations();
        for rel in relations {
            let mut sources = Vec::new();
            for o in &rel.source {
                self.resolve_operand(o, true, &mut sources);
            }
            let mut targets = Vec::new();
            for o in &rel.target {
                self.resolve_operand(o, false, &mut targets);
            }
            let param: Name = rel.param.into();
            let untitled = |t: &str| {
                EvalError::Completion(issues::relationships::untitled_reference(format!(
                    "\"{t}[]\""
                )))
            };
            for (st, stitle) in &sources {
                for (tt, ttitle) in &targets {
                    if stitle.is_empty() {
                        return Err(untitled(st));
                    }
                    let Some(sid) = self.catalog.find_resource(st, stitle) else {
                        return Err(EvalError::Completion(
                            issues::relationships::relationship_source_not_found(
                                bracketed(st, stitle),
                                bracketed(tt, ttitle),
                            ),
                        ));
                    };
                    if ttitle.is_empty() {
                        return Err(untitled(tt));
                    }
                    if self.catalog.find_resource(tt, ttitle).is_none() {
                        return Err(EvalError::Completion(
                            issues::relationships::relationship_target_not_found(
                                bracketed(tt, ttitle),
                                bracketed(st, stitle),
                            ),
                        ));
                    }
                    let target = Value::string(bracketed(tt, ttitle));
                    let r = &mut self.catalog[sid];
                    let entry = r
                        .params
                        .entry(param.clone())
                        .or_insert_with(|| Value::array(Vec::new()));
                    // Appended in place: copying the array for every edge made
                    // one source with many targets quadratic.
                    match entry {
                        Value::Array(a) => Arc::make_mut(a).push(target),
                        Value::Undef => *entry = Value::array(vec![target]),
                        other => *other = Value::array(vec![other.clone(), target]),
                    }
                }
            }
        }
        Ok(())
    }

    /// Puppet's `Resource#finish` validation, resource by resource, virtual
    /// ones included: a Ruby type's resource may hold only its type's
    /// parameters; a defined type's instance never evaluated (virtual,
    /// exported) is checked against its parameters as
    /// `Resource::Type#validate_resource` does, unlocated.
    pub fn validate_finished(&mut self) -> R<()> {
        for id in 0..self.catalog.len() {
            let r = &self.catalog[id];
            match r.kind {
                ResKind::Builtin => self.catalog.validate_builtin_params(id)?,
                ResKind::Define if !r.evaluated => self.validate_unevaluated_define(id)?,
                _ => {}
            }
        }
        Ok(())
    }

    /// `TypeMismatchDescriber.validate_parameters` over an unevaluated
    /// instance's parameters: unknown names in the order given, then each
    /// declared parameter missing or mistyped, in declaration order.
    fn validate_unevaluated_define(&mut self, id: ResId) -> R<()> {
        let Some(name) = self.catalog[id].define.clone() else {
            return Ok(());
        };
        let Some(def) = self.find_define(&name)? else {
            return Ok(());
        };
        let ctx = Ctx {
            program: def.program.clone(),
        };
        let top = self.scopes.top();
        let params = self.catalog[id].params.clone();
        let decl = def.params();
        let mut problems: Vec<String> = params
            .keys()
            .filter(|n| !decl.iter().any(|p| &p.name == *n) && !super::classes::is_metaparam(n))
            .map(issues::classes::has_no_parameter_named)
            .collect();
        for p in decl {
            let Some(value) = params.get(&p.name) else {
                if p.default.is_none() {
                    problems.push(issues::classes::expects_value_for_parameter(&p.name));
                }
                continue;
            };
            let Some(t) = &p.type_expr else {
                continue;
            };
            if let Value::Type(ref ty) = self.parameter_type(p, t, top, &ctx)? {
                if !super::typeops::is_instance(ty, value) {
                    let mismatch = puppet_model::types::describe_mismatch(ty, value);
                    if !mismatch.is_empty() {
                        problems.push(issues::classes::parameter_mismatch(&p.name, mismatch));
                    }
                }
            }
        }
        match issues::classes::parameter_problems(self.catalog[id].reference(), &problems) {
            None => Ok(()),
            Some(text) => Err(EvalError::Completion(text)),
        }
    }

    /// Overrides not yet merged (Puppet's `finish`): each resource, in
    /// the order they were added, takes those kept under its reference.
    pub fn apply_overrides(&mut self) -> R<()> {
        if !self.catalog.has_overrides() {
            return Ok(());
        }
        for id in 0..self.catalog.len() {
            let r = &self.catalog[id];
            let key = bracketed(&r.type_name, &r.title);
            let Some(list) = self.catalog.take_overrides(&key) else {
                continue;
            };
            for o in list {
                self.apply_override(&o, id)?;
            }
        }
        Ok(())
    }
}

/// The class of Puppet's Pops model for an expression (`LiteralList`).
fn model_class(k: &ExprKind) -> &'static str {
    use puppet_syntax::ast::{Number, UnaryOp};
    match k {
        ExprKind::Nop => "Nop",
        ExprKind::Undef => "LiteralUndef",
        ExprKind::Default => "LiteralDefault",
        ExprKind::Boolean(_) => "LiteralBoolean",
        ExprKind::Number(Number::Float(_)) => "LiteralFloat",
        ExprKind::Number(_) => "LiteralInteger",
        ExprKind::Str(_) => "LiteralString",
        ExprKind::Concat(_) => "ConcatenatedString",
        ExprKind::Heredoc { .. } => "HeredocExpression",
        ExprKind::Regex(_) => "LiteralRegularExpression",
        ExprKind::QName(_) => "QualifiedName",
        ExprKind::QRef(_) => "QualifiedReference",
        ExprKind::Reserved(_) => "ReservedWord",
        ExprKind::Var(_) => "VariableExpression",
        ExprKind::Array(_) => "LiteralList",
        ExprKind::Hash { .. } => "LiteralHash",
        ExprKind::Unary { op, .. } => match op {
            UnaryOp::Neg => "UnaryMinusExpression",
            UnaryOp::Not => "NotExpression",
            UnaryOp::Splat => "UnfoldExpression",
        },
        ExprKind::Binary { op, .. } => match op {
            BinaryOp::Add
            | BinaryOp::Sub
            | BinaryOp::Mul
            | BinaryOp::Div
            | BinaryOp::Mod
            | BinaryOp::Shl
            | BinaryOp::Shr => "ArithmeticExpression",
            BinaryOp::Eq
            | BinaryOp::Ne
            | BinaryOp::Lt
            | BinaryOp::Le
            | BinaryOp::Gt
            | BinaryOp::Ge => "ComparisonExpression",
            BinaryOp::Match | BinaryOp::NotMatch => "MatchExpression",
            BinaryOp::In => "InExpression",
            BinaryOp::And => "AndExpression",
            BinaryOp::Or => "OrExpression",
        },
        ExprKind::Assign { .. } => "AssignmentExpression",
        ExprKind::Relationship { .. } => "RelationshipExpression",
        ExprKind::Access { .. } => "AccessExpression",
        ExprKind::Selector { .. } => "SelectorExpression",
        ExprKind::Paren(_) => "ParenthesizedExpression",
        ExprKind::NamedAccess { .. } => "NamedAccessExpression",
        ExprKind::Block(_) => "BlockExpression",
        ExprKind::If { .. } => "IfExpression",
        ExprKind::Unless { .. } => "UnlessExpression",
        ExprKind::Case { .. } => "CaseExpression",
        ExprKind::CallNamed { .. } => "CallNamedFunctionExpression",
        ExprKind::CallMethod { .. } => "CallMethodExpression",
        ExprKind::Resource { .. } => "ResourceExpression",
        ExprKind::ResourceDefaults { .. } => "ResourceDefaultsExpression",
        ExprKind::ResourceOverride { .. } => "ResourceOverrideExpression",
        ExprKind::Collect { .. } => "CollectExpression",
        ExprKind::Class { .. } => "HostClassDefinition",
        ExprKind::Define { .. } => "ResourceTypeDefinition",
        ExprKind::Node { .. } => "NodeDefinition",
        ExprKind::Function { .. } => "FunctionDefinition",
        ExprKind::TypeAlias { .. } => "TypeAlias",
        ExprKind::TypeDefinition { .. } => "TypeDefinition",
        ExprKind::Epp { .. } => "LambdaExpression",
        ExprKind::RenderString(_) => "RenderStringExpression",
        ExprKind::RenderExpr(_) => "RenderExpression",
    }
}

/// An override's parameter (a resource override or a collector's block),
/// as Puppet's `override_parameter`: `+>` on a parameter already set makes
/// `[current, new].flatten`, else the value is set as given; a `tag`
/// parameter also tags the resource with its values at once
/// (`set_parameter`), so a collector querying the tag sees it.
pub(super) fn apply_param(r: &mut Res, name: &str, append: bool, v: Value) {
    let v = match r.params.get(name) {
        Some(current) if append => {
            let mut items = Vec::new();
            flatten_values(current, &mut items);
            flatten_values(&v, &mut items);
            Value::array(items)
        }
        _ => v,
    };
    if name == "tag" {
        let mut tags = Vec::new();
        flatten_values(&v, &mut tags);
        for t in tags.iter().filter(|t| !t.is_undef()) {
            r.tag(&t.to_string());
        }
    }
    if v.is_undef() && !append {
        r.params.shift_remove(name);
    } else {
        r.params.insert(name.into(), v);
    }
}

/// Puppet 8 writes a resource's parameters as rich data when it makes the
/// resource, and fails it there on what cannot be written: a
/// self-referring type alias (at the resource expression, without a
/// column), or `RichData` (Ruby's own error, unplaced); neither names the
/// node.
fn check_serializable(res: &Res, at: &Location) -> R<()> {
    use super::catalog_emit::rich_data::{unserializable, Unserializable};
    for v in res.params.values() {
        match unserializable(v) {
            None => {}
            // Puppet's SemanticError passes without the node's name.
            Some(Unserializable::EndlessRecursion) => {
                let place = Location {
                    column: None,
                    ..at.clone()
                };
                return Err(EvalError::Foreign(format!(
                    "Evaluation Error: {}{}",
                    issues::resources::SERIALIZATION_ENDLESS_RECURSION,
                    place.suffix()
                )));
            }
            Some(Unserializable::TypeSet) => {
                return Err(EvalError::Foreign(
                    issues::resources::TYPESET_INITIALIZER_MISMATCH.into(),
                ))
            }
        }
    }
    Ok(())
}

/// Ruby's `flatten` of a value into `out`.
fn flatten_values(v: &Value, out: &mut Vec<Value>) {
    puppet_model::value::flatten_into(std::slice::from_ref(v), out);
}

#[cfg(test)]
mod tests {
    use super::ResourcesByType;
    use std::sync::Arc;

    #[test]
    fn resources_by_type_keep_resource_order_across_spellings_and_catch_ups() {
        let names: Vec<Arc<str>> = ["File", "Notify", "file", "File"]
            .into_iter()
            .map(Arc::from)
            .collect();
        let mut by_type = ResourcesByType::default();
        by_type.catch_up(&names[..2], |n| n);
        assert_eq!(&*by_type.of_type("File"), &[0]);
        // Only the new resources are added; a name spelt in another case
        // joins its type, in resource order.
        by_type.catch_up(&names, |n| n);
        assert_eq!(&*by_type.of_type("FILE"), &[0, 2, 3]);
        assert_eq!(&*by_type.of_type("Notify"), &[1]);
        assert!(by_type.of_type("Package").is_empty());
    }
}
