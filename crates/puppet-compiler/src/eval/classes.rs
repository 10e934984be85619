//! Classes, defined types and nodes: declaring them, binding their
//! parameters, and evaluating their bodies (Puppet's `Resource::Type`).

use indexmap::IndexMap;
use puppet_syntax::util::NameStr as _;

use super::compiler::{capitalize_name, Compiler, Definition, Res, ResKind, SCOPE_NAMES};
use super::error::{EvalError, Location};
use super::expr::{Ctx, R};
use super::issues;
use super::scope::{ResId, Scope, ScopeId, ScopeKind};
use super::value::Value;
use puppet_model::types::PType;
use puppet_syntax::ast::ExprKind;

/// Deeper than this, nested includes/defines/functions are an error, not a crash.
pub const MAX_EVAL_DEPTH: usize = 400;

impl<'e> Compiler<'e> {
    /// `include`, `require`, `contain`: each class once; returns its resource.
    pub fn include_class(&mut self, name: &str, scope: ScopeId, at: &Location) -> R<ResId> {
        let ids = self.include_classes(&[name.to_string()], scope, at)?;
        Ok(ids[0])
    }

    /// Several classes at once, as Puppet's `evaluate_classes`: every class
    /// resource is in the catalog before the first is evaluated.
    pub fn include_classes(
        &mut self,
        names: &[String],
        scope: ScopeId,
        at: &Location,
    ) -> R<Vec<ResId>> {
        let mut ids = Vec::with_capacity(names.len());
        for name in names {
            let key = name.trim_colons().to_lowercase();
            if let Some(id) = self.catalog.find_resource("Class", &capitalize_name(&key)) {
                ids.push(id);
                continue;
            }
            let Some(def) = self.find_class(&key)? else {
                return Err(EvalError::runtime(
                    issues::classes::class_not_found_for_node(format!("::{key}"), &self.node.name),
                    at.clone(),
                ));
            };
            ids.push(self.create_class_resource(&key, def, None, scope, None)?);
        }
        for &id in &ids {
            self.evaluate_class_resource(id, at)?;
        }
        Ok(ids)
    }

    /// `class { 'x': ... }`: declares and evaluates at once; a class already
    /// declared is a duplicate declaration.
    pub fn declare_class(
        &mut self,
        key: &str,
        def: Definition,
        params: Option<puppet_model::value::Params>,
        scope: ScopeId,
        at: &Location,
    ) -> R<ResId> {
        let id = self.create_class_resource(key, def, params, scope, Some(at))?;
        self.evaluate_class_resource(id, at)?;
        Ok(id)
    }

    /// An ENC class: declared now, evaluated with the generators.
    pub fn declare_class_lazily(
        &mut self,
        key: &str,
        def: Definition,
        params: Option<puppet_model::value::Params>,
        scope: ScopeId,
        at: &Location,
    ) -> R<ResId> {
        if params.is_none() {
            if let Some(id) = self.catalog.find_resource("Class", &capitalize_name(key)) {
                return Ok(id);
            }
        }
        let declared_at = params.as_ref().map(|_| at);
        // A node classifier's conflict is not an evaluation error.
        self.create_class_resource(key, def, params, scope, declared_at)
            .map_err(|e| match e {
                EvalError::Runtime { detail, .. } => EvalError::Syntax(detail),
                other => other,
            })
    }

    /// The class's resource in the catalog (its parent's first), not evaluated.
    fn create_class_resource(
        &mut self,
        key: &str,
        def: Definition,
        params: Option<puppet_model::value::Params>,
        scope: ScopeId,
        declared_at: Option<&Location>,
    ) -> R<ResId> {
        let title = capitalize_name(key);
        let at = declared_at.cloned().unwrap_or_default();
        let mut res = Res {
            type_name: "Class".into(),
            title: title.as_str().into(),
            params: IndexMap::default(),
            rtype: None,
            tags: Vec::with_capacity(super::resources::RES_TAGS),
            file: declared_at.and_then(|a| a.file.clone()),
            line: declared_at.and_then(|a| a.line),
            exported: false,
            virtual_: false,
            kind: ResKind::Class,
            evaluated: false,
            scope,
            define: None,
            scope_tagged: false,
            pending: Some(params.clone().unwrap_or_default()),
            exported_nil: false,
            attributes: (0, 0),
        };
        if let Some(existing) = self.catalog.find_resource("Class", &title) {
            if params.is_some() {
                return Err(self.catalog.duplicate(existing, &res, &at));
            }
            return Ok(existing);
        }
        // The parent class is in the catalog before its child.
        if let ExprKind::Class {
            parent: Some(p), ..
        } = &def.expr().kind
        {
            let pkey = p.trim_colons().to_lowercase();
            if self
                .catalog
                .find_resource("Class", &capitalize_name(&pkey))
                .is_none()
            {
                let Some(pdef) = self.find_class(&pkey)? else {
                    let l = def.location();
                    return Err(EvalError::Syntax(format!(
                        "{} (file: {}, line: {})",
                        issues::classes::parent_class_not_found(&pkey, &self.env.name),
                        l.file.unwrap_or_default(),
                        l.line.unwrap_or(0)
                    )));
                };
                self.create_class_resource(&pkey, pdef, None, scope, None)?;
            }
        }
        // A `tag` parameter tags first, as for any resource.
        if let Some(t) = params.as_ref().and_then(|p| p.get("tag")) {
            let tags: Vec<String> = match t {
                Value::Array(items) => items.iter().map(|i| i.to_string()).collect(),
                other => vec![other.to_string()],
            };
            for t in tags {
                res.tag(&t);
            }
        }
        res.tag("class");
        res.tag(key);
        let tags = res.tags.clone();
        let id = self.catalog.add_resource(res, &at)?;
        self.catalog.tag_catalog(&tags);
        Ok(id)
    }

    /// Evaluates a class resource once: parent first, then its parameters and body.
    pub fn evaluate_class_resource(&mut self, id: ResId, at: &Location) -> R<()> {
        if self.catalog[id].evaluated {
            return Ok(());
        }
        self.catalog[id].evaluated = true;
        let key = self.catalog[id].title.to_lowercase();
        let Some(def) = self.find_class(&key)? else {
            return Ok(());
        };
        self.depth += 1;
        if self.depth > MAX_EVAL_DEPTH {
            self.depth -= 1;
            return Err(EvalError::runtime(
                issues::classes::TOO_DEEP_NESTING,
                at.clone(),
            ));
        }
        let result = self.evaluate_class_body(&key, id, def, at);
        self.depth -= 1;
        result
    }

    fn evaluate_class_body(
        &mut self,
        key: &str,
        id: ResId,
        def: Definition,
        at: &Location,
    ) -> R<()> {
        let program = def.program.clone();
        let ExprKind::Class { body, parent, .. } = &def.expr().kind else {
            return Ok(());
        };
        let parent_scope = match parent {
            Some(p) => {
                let pkey = p.trim_colons().to_lowercase();
                let declared_in = self.catalog[id].scope;
                self.include_class(&pkey, declared_in, at)?;
                self.defs.class_scope(&pkey)
            }
            None => None,
        };
        self.merge_scope_tags(id);
        let declared_in = self.catalog[id].scope;
        let mut s = Scope::new(
            ScopeKind::Class(key.to_string()),
            Some(parent_scope.unwrap_or(declared_in)),
            Some(id),
        );
        s.inherited = parent_scope;
        s.vars.reserve(SCOPE_NAMES + def.params().len());
        let names = self.scopes.names();
        let title = Value::string(key);
        s.vars.insert(names.title.clone(), title.clone());
        s.vars.insert(names.name.clone(), title);
        // Outside a module, the module name is "" (Puppet's, for a file of
        // the environment's manifests).
        let module = self.env.module_name_of(&def.program.path);
        s.vars.insert(
            names.module_name.clone(),
            module.map_or_else(|| Value::string(""), Value::String),
        );
        // Puppet: the module of the parent scope (the inherited class, else
        // where the class was declared), as `assert_private` reads it.
        if let Some(caller) = self
            .scopes
            .lookup(parent_scope.unwrap_or(declared_in), "module_name")
            .cloned()
        {
            s.vars
                .insert(self.scopes.names().caller_module_name.clone(), caller);
        }
        let class_scope = self.scopes.push(s);
        self.defs.set_class_scope(key.to_string(), class_scope);
        self.catalog.add_class(key);
        let ctx = Ctx { program };
        let reference = puppet_model::names::bracketed("Class", &capitalize_name(key));
        let given = self.catalog[id].pending.take().unwrap_or_default();
        self.bind_parameters(&reference, &def, given, class_scope, id, &ctx, at)?;
        // Classes are contained by their stage: their own `stage`, else the
        // declaring resource's, else main.
        let stage_name = self.catalog[id]
            .params
            .get("stage")
            .or_else(|| {
                self.scopes
                    .resource_of(declared_in)
                    .and_then(|o| self.catalog[o].params.get("stage"))
            })
            .map(|v| v.to_string())
            .unwrap_or_else(|| "main".into());
        match self.catalog.find_resource("Stage", &stage_name) {
            Some(stage) => self.catalog.add_edge(stage, id),
            None => {
                return Err(EvalError::runtime(
                    issues::classes::stage_not_found(&stage_name, &reference),
                    at.clone(),
                ))
            }
        }
        self.exec_block(body, class_scope, &ctx)
    }

    /// Binds declared parameters: given values, else defaults (evaluated in the
    /// new scope, in order), type-checked; unknown ones are errors.
    #[allow(clippy::too_many_arguments)]
    pub fn bind_parameters(
        &mut self,
        reference: &str,
        def: &Definition,
        mut given: puppet_model::value::Params,
        scope: ScopeId,
        id: ResId,
        ctx: &Ctx,
        at: &Location,
    ) -> R<()> {
        let decl = def.params();
        // Puppet binds every parameter (defaults included) and then reports
        // all unknown, missing and mistyped ones at once: the unknown ones
        // first, in the order given, then the rest in declaration order.
        let mut problems: Vec<String> = Vec::new();
        for name in given.keys() {
            if !decl.iter().any(|p| &p.name == name) && !is_metaparam(name) {
                problems.push(issues::classes::has_no_parameter_named(name));
            }
        }
        // Sized once: apache's classes bind ~150 parameters, and growing
        // the maps rehashed them several times.
        self.scopes.get_mut(scope).vars.reserve(decl.len());
        self.catalog[id].params.reserve(decl.len());
        // Given values are the resource's first parameters, defaults follow.
        // A parameter given as undef keeps its place (Puppet's resource holds
        // it): a default filling it later is written there; left undef, the
        // catalog JSON skips it.
        for (k, v) in &given {
            self.catalog[id].params.insert(k.clone(), v.clone());
        }
        // Automatic parameter lookup (Hiera) for classes: `class::param` for
        // each parameter not given; found values follow the given ones.
        let mut found_in_hiera = puppet_model::value::Params::default();
        if let Some(class) = class_of_reference(reference) {
            for p in decl {
                if given.get(&p.name).is_some_and(|v| !v.is_undef()) {
                    continue;
                }
                let key = [class.as_str(), "::", &p.name].concat();
                if let Some(v) = self.hiera_class_parameter(&key, scope)? {
                    if !v.is_undef() {
                        self.catalog[id].params.insert(p.name.clone(), v.clone());
                    }
                    found_in_hiera.insert(p.name.clone(), v);
                }
            }
        }
        // Built at the first default evaluated (most bindings have none).
        let mut guard_reference: Option<std::sync::Arc<str>> = None;
        // Parameters bound so far without a value (no default, not given):
        // a later default that reads one fails at once.
        let mut missing_before: Vec<usize> = Vec::new();
        // Whether the values given or found for parameters after the one
        // being bound are in the scope yet (at the first default).
        let mut later_bound = false;
        for (i, p) in decl.iter().enumerate() {
            // (Most maps are empty: removing from one still hashes the name.)
            let take = |m: &mut puppet_model::value::Params| match m.is_empty() {
                true => None,
                false => m.swap_remove(&p.name),
            };
            let looked_up = take(&mut found_in_hiera);
            let mut missing = false;
            let given_value = take(&mut given);
            let was_given = given_value.is_some();
            let (value, defaulted) = match given_value {
                Some(v) if !v.is_undef() => (v, false),
                // A found undef (`~`) leaves a parameter with a default to it.
                _ if looked_up
                    .as_ref()
                    .is_some_and(|v| !v.is_undef() || p.default.is_none()) =>
                {
                    (looked_up.unwrap_or(Value::Undef), false)
                }
                _ => match &p.default {
                    Some(d) => {
                        // A default may only read parameters bound before it.
                        let reference = guard_reference
                            .get_or_insert_with(|| reference.into())
                            .clone();
                        // Given values (and found ones) are bound before any
                        // default is evaluated, so later ones are readable.
                        if !later_bound {
                            later_bound = true;
                            let vars = &mut self.scopes.get_mut(scope).vars;
                            for (k, v) in given.iter().chain(found_in_hiera.iter()) {
                                if decl.iter().any(|p| &p.name == k) {
                                    vars.insert(k.clone(), v.clone());
                                }
                            }
                        }
                        let guard = super::compiler::ParamGuard {
                            scope,
                            reference,
                            def: def.clone(),
                            from: i,
                            missing_before: missing_before.clone(),
                        };
                        let saved = self.scopes.replace_param_guard(Some(guard));
                        let v = self.eval(d, scope, ctx);
                        self.scopes.replace_param_guard(saved);
                        // An error without a place (Puppet's plain
                        // `Puppet::Error`, as lookup() raises) gets the
                        // definition's file and line, as Puppet's default
                        // evaluation adds them.
                        let v = v.map_err(|e| match e {
                            EvalError::Completion(m) => {
                                let place = Location {
                                    column: None,
                                    ..def.location()
                                };
                                EvalError::Completion(format!("{m}{}", place.suffix()))
                            }
                            other => other,
                        });
                        (v?, true)
                    }
                    // Given as undef: bound to undef, and type-checked.
                    None if was_given => (Value::Undef, false),
                    None => {
                        problems.push(issues::classes::expects_value_for_parameter(&p.name));
                        missing_before.push(i);
                        missing = true;
                        (Value::Undef, false)
                    }
                },
            };
            if let (Some(t), false) = (&p.type_expr, missing) {
                if let Value::Type(ref ty) = self.parameter_type(p, t, scope, ctx)? {
                    // Puppet's `describe_struct_signature` reports a
                    // parameter only when the describer finds a mismatch:
                    // a value of a type assignable to the parameter's
                    // passes although it is no instance (bare `Optional`
                    // takes any value).
                    if !super::typeops::is_instance(ty, &value) {
                        let mismatch = puppet_model::types::describe_mismatch(ty, &value);
                        if !mismatch.is_empty() {
                            problems.push(issues::classes::parameter_mismatch(&p.name, mismatch));
                        }
                    }
                }
            }
            self.scopes
                .get_mut(scope)
                .vars
                .insert(p.name.clone(), value.clone());
            if defaulted && !value.is_undef() {
                self.catalog[id].params.insert(p.name.clone(), value);
            }
        }
        match issues::classes::parameter_problems(reference, &problems) {
            None => Ok(()),
            Some(text) => Err(EvalError::runtime(text, at.clone())),
        }
    }

    /// Evaluates a defined type's instance (queued until catalog generation).
    pub fn evaluate_define(&mut self, id: ResId) -> R<()> {
        self.catalog[id].evaluated = true;
        self.merge_scope_tags(id);
        let Some(dname) = self.catalog[id].define.clone() else {
            return Ok(());
        };
        let Some(def) = self.find_define(&dname)? else {
            return Ok(());
        };
        let program = def.program.clone();
        let ExprKind::Define { body, .. } = &def.expr().kind else {
            return Ok(());
        };
        let res = &self.catalog[id];
        let at = Location {
            file: res.file.clone(),
            line: res.line,
            column: None,
        };
        let declared_in = res.scope;
        let title = res.title.clone();
        let reference = res.reference();
        let given: puppet_model::value::Params = std::mem::take(&mut self.catalog[id].params);
        let mut s = Scope::new(
            ScopeKind::Define(dname.to_string()),
            Some(declared_in),
            Some(id),
        );
        s.vars.reserve(SCOPE_NAMES + def.params().len());
        let names = self.scopes.names();
        let title = Value::String(title.clone());
        let name = given.get("name").cloned().unwrap_or_else(|| title.clone());
        s.vars.insert(names.title.clone(), title);
        s.vars.insert(names.name.clone(), name);
        let module = self.env.module_name_of(&def.program.path);
        s.vars.insert(
            names.module_name.clone(),
            module.map_or_else(|| Value::string(""), Value::String),
        );
        if let Some(caller) = self.scopes.lookup(declared_in, "module_name").cloned() {
            s.vars.insert(names.caller_module_name.clone(), caller);
        }
        let scope = self.scopes.push(s);
        let ctx = Ctx { program };
        self.depth += 1;
        if self.depth > MAX_EVAL_DEPTH {
            self.depth -= 1;
            return Err(EvalError::runtime(issues::classes::TOO_DEEP_NESTING, at));
        }
        if let Some(n) = given.get("name") {
            let name = self.scopes.names().name.clone();
            self.catalog[id].params.insert(name, n.clone());
        }
        let mut given = given;
        given.shift_remove("name");
        // Puppet reports a define's parameter problems as errors of the
        // resource statement that declared it.
        let r = self
            .bind_parameters(&reference, &def, given, scope, id, &ctx, &at)
            .map_err(|e| match e {
                EvalError::Runtime {
                    while_evaluating: None,
                    detail,
                    at,
                } => EvalError::Runtime {
                    while_evaluating: Some("a Resource Statement".into()),
                    detail,
                    at,
                },
                // An error evaluating a default is wrapped as the body's
                // are, a place-less one (lookup()'s) too.
                EvalError::Completion(detail) => EvalError::Runtime {
                    while_evaluating: Some("a Resource Statement".into()),
                    detail,
                    at: at.clone(),
                },
                other => other.as_resource_statement(&at),
            })
            .and_then(|_| {
                // Defines are evaluated lazily; Puppet wraps what fails in
                // the body as the instance's resource statement.
                self.exec_block(body, scope, &ctx)
                    .map_err(|e| e.as_resource_statement(&at))
            });
        self.depth -= 1;
        r
    }

    /// Evaluates the node definition: its resource, scope and body.
    pub fn evaluate_node(
        &mut self,
        def: Definition,
        title: String,
        captures: Option<Vec<Value>>,
    ) -> R<()> {
        let loc = def.location();
        let main = self.catalog.find_resource("Class", "");
        let mut res = Res {
            type_name: "Node".into(),
            title: title.as_str().into(),
            params: IndexMap::default(),
            rtype: None,
            tags: Vec::new(),
            file: loc.file.clone(),
            line: loc.line,
            exported: false,
            virtual_: false,
            kind: ResKind::Node,
            evaluated: true,
            scope: self.scopes.top(),
            define: None,
            scope_tagged: false,
            pending: None,
            exported_nil: false,
            attributes: (0, 0),
        };
        res.tag("node");
        if crate::catalog::valid_tag(&title) {
            res.tag(&title);
        }
        let tags = res.tags.clone();
        let id = self.catalog.add_resource(res, &loc)?;
        self.catalog.tag_catalog(&tags);
        self.merge_scope_tags(id);
        self.catalog.add_class(&title);
        if let Some(m) = main {
            self.catalog.add_edge(m, id);
        }
        let mut s = Scope::new(ScopeKind::Node, Some(self.scopes.top()), Some(id));
        s.matches = captures;
        s.vars.insert("title".into(), Value::string(title.as_str()));
        s.vars.insert("name".into(), Value::string(title.as_str()));
        s.vars.insert("module_name".into(), Value::string(""));
        s.vars
            .insert("caller_module_name".into(), Value::string(""));
        let scope = self.scopes.push(s);
        self.scopes.set_node_scope(scope);
        let program = def.program.clone();
        let ExprKind::Node { body, .. } = &def.expr().kind else {
            return Ok(());
        };
        self.exec_block(body, scope, &Ctx { program })
    }
}

pub fn is_metaparam(name: &str) -> bool {
    crate::restypes::METAPARAMS.contains(&name)
}

/// `Class[App::Web]` → `app::web`; `None` for other references.
fn class_of_reference(reference: &str) -> Option<String> {
    reference
        .strip_prefix("Class[")
        .and_then(|r| r.strip_suffix(']'))
        .map(|c| c.to_lowercase())
}

impl Compiler<'_> {
    /// A parameter's declared type (of a class, define, function, lambda or
    /// EPP template). Evaluated per node, and for a function or lambda per
    /// call, it was a few percent of a compile (apache's classes declare ~150
    /// typed parameters), so it is kept on the parameter once it is known to
    /// be the same for every node: no variable read, no function called, no
    /// warning given, and every type it names one of Puppet's or an alias
    /// the environment shares (resolved from an autoloaded `types/` file,
    /// the same for every node; an alias from a manifest may be loaded for
    /// one node and not for another).
    #[inline]
    pub(super) fn parameter_type(
        &mut self,
        p: &puppet_syntax::ast::Parameter,
        t: &puppet_syntax::ast::Expr,
        scope: ScopeId,
        ctx: &Ctx,
    ) -> R<Value> {
        if let Some(ty) = p.resolved_type.get::<PType>() {
            return Ok(Value::Type(ty));
        }
        self.evaluate_parameter_type(p, t, scope, ctx)
    }

    /// [`Self::parameter_type`] not yet known: evaluated, and kept when it is
    /// the same for every node. Out of line: the known type is the hot path.
    #[inline(never)]
    fn evaluate_parameter_type(
        &mut self,
        p: &puppet_syntax::ast::Parameter,
        t: &puppet_syntax::ast::Expr,
        scope: ScopeId,
        ctx: &Ctx,
    ) -> R<Value> {
        let warnings = self.warnings.len();
        let v = self.eval(t, scope, ctx)?;
        if let Value::Type(ty) = &v {
            if self.warnings.len() == warnings && self.names_shared_types_only(t) {
                p.resolved_type.set(ty.clone());
            }
        }
        Ok(v)
    }

    fn names_shared_types_only(&self, t: &puppet_syntax::ast::Expr) -> bool {
        if !super::compiler::reads_nothing(t) {
            return false;
        }
        let aliases = self
            .env
            .resolved_type_aliases
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        let mut shared = true;
        each_type_name(t, &mut |n| {
            shared = shared
                && (super::typeops::type_by_name(n).is_some()
                    // A shared alias's files are questions every node
                    // must ask while read sets are recorded.
                    || (!crate::reads::enabled()
                        && aliases.contains_key(&n.trim_colons().to_lowercase())));
        });
        shared
    }
}

/// Calls `f` with every type name (`QRef`) in `e`.
fn each_type_name(e: &puppet_syntax::ast::Expr, f: &mut dyn FnMut(&str)) {
    if let ExprKind::QRef(n) = &e.kind {
        f(n);
    }
    puppet_syntax::visit::for_each_child(e, &mut |c| each_type_name(c, f));
}
