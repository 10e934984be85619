//! Classes, defined types and nodes: declaring them, binding their
//! parameters, and evaluating their bodies (Puppet's `Resource::Type`).

use indexmap::IndexMap;

use super::compiler::{capitalize_name, Compiler, Definition, Res, ResKind};
use super::error::{EvalError, Location};
use super::expr::{Ctx, R};
use super::scope::{ResId, Scope, ScopeId, ScopeKind};
use super::value::{Map, Value};
use crate::syntax::ast::{Expr, ExprKind, Parameter};

/// Deeper than this, nested includes/defines/functions are an error, not a crash.
pub const MAX_EVAL_DEPTH: usize = 400;

impl<'e> Compiler<'e> {
    /// `include`, `require`, `contain`: each class once; returns its resource.
    pub fn include_class(&mut self, name: &str, scope: ScopeId, at: &Location) -> R<ResId> {
        let key = name.trim_start_matches("::").to_lowercase();
        if let Some(id) = self.find_resource("Class", &capitalize_name(&key)) {
            return Ok(id);
        }
        let Some(def) = self.find_class(&key)? else {
            return Err(EvalError::runtime(
                format!("Could not find class ::{key} for {}", self.node.name),
                at.clone(),
            ));
        };
        self.declare_class(&key, def, None, scope, at)
    }

    /// Declares and evaluates a class (with resource-like parameters or not).
    pub fn declare_class(
        &mut self,
        key: &str,
        def: Definition,
        params: Option<IndexMap<String, Value>>,
        scope: ScopeId,
        at: &Location,
    ) -> R<ResId> {
        let title = capitalize_name(key);
        if let Some(existing) = self.find_resource("Class", &title) {
            if params.is_some() {
                let prev = &self.resources[existing];
                let prev_at = match (&prev.file, prev.line) {
                    (Some(f), Some(l)) => format!(" at (file: {f}, line: {l})"),
                    _ => String::new(),
                };
                return Err(EvalError::runtime(
                    format!("Duplicate declaration: Class[{title}] is already declared{prev_at}; cannot redeclare"),
                    at.clone(),
                ));
            }
            return Ok(existing);
        }
        self.depth += 1;
        if self.depth > MAX_EVAL_DEPTH {
            self.depth -= 1;
            return Err(EvalError::runtime("Too deep nesting of class, define and function evaluation", at.clone()));
        }
        let result = self.declare_class_inner(key, &title, def, params, scope, at);
        self.depth -= 1;
        result
    }

    fn declare_class_inner(
        &mut self,
        key: &str,
        title: &str,
        def: Definition,
        params: Option<IndexMap<String, Value>>,
        scope: ScopeId,
        at: &Location,
    ) -> R<ResId> {
        let ExprKind::Class { parent, .. } = &def.expr().kind else {
            return Err(EvalError::runtime(format!("{key} is not a class"), at.clone()));
        };
        // The parent class first.
        let parent_scope = match parent {
            Some(p) => {
                let pkey = p.trim_start_matches("::").to_lowercase();
                self.include_class(&pkey, scope, at)?;
                self.class_scopes.get(&pkey).copied()
            }
            None => None,
        };
        let loc = def.location();
        let mut res = Res {
            type_name: "Class".into(),
            title: title.to_string(),
            params: IndexMap::new(),
            tags: Vec::new(),
            file: loc.file.clone(),
            line: loc.line,
            exported: false,
            virtual_: false,
            kind: ResKind::Class,
            evaluated: true,
            scope,
            define: None,
        };
        res.tag("class");
        res.tag(key);
        for t in self.scope_tags(scope) {
            res.tag(&t);
        }
        let tags = res.tags.clone();
        let id = self.add_resource(res, at)?;
        self.tag_catalog(&tags);
        self.evaluate_class_body(key, id, def, params, parent_scope.unwrap_or(scope), parent_scope.is_some(), at)?;
        Ok(id)
    }

    fn evaluate_class_body(
        &mut self,
        key: &str,
        id: ResId,
        def: Definition,
        params: Option<IndexMap<String, Value>>,
        parent: ScopeId,
        inherits: bool,
        at: &Location,
    ) -> R<()> {
        let program = def.program.clone();
        let ExprKind::Class { params: decl, body, .. } = &def.expr().kind else {
            return Ok(());
        };
        let mut s = Scope::new(ScopeKind::Class(key.to_string()), Some(parent), Some(id));
        if inherits {
            s.inherited = Some(parent);
        }
        let class_scope = self.scopes.push(s);
        self.class_scopes.insert(key.to_string(), class_scope);
        self.add_class(key);
        let ctx = Ctx { program };
        let reference = format!("Class[{}]", capitalize_name(key));
        self.bind_parameters(&reference, decl, params.unwrap_or_default(), class_scope, id, &ctx, at)?;
        // Classes are contained by their stage.
        if let Some(stage) = self.find_resource("Stage", "main") {
            self.add_edge(stage, id);
        }
        self.eval_block(body, class_scope, &ctx)?;
        Ok(())
    }

    /// Binds declared parameters: given values, else defaults (evaluated in the
    /// new scope, in order), type-checked; unknown ones are errors.
    #[allow(clippy::too_many_arguments)]
    pub fn bind_parameters(
        &mut self,
        reference: &str,
        decl: &[Parameter],
        mut given: IndexMap<String, Value>,
        scope: ScopeId,
        id: ResId,
        ctx: &Ctx,
        at: &Location,
    ) -> R<()> {
        for name in given.keys() {
            if !decl.iter().any(|p| &p.name == name) && !is_metaparam(name) {
                return Err(EvalError::runtime(
                    format!("{reference}: has no parameter named '{name}'"),
                    at.clone(),
                ));
            }
        }
        for p in decl {
            let value = match given.shift_remove(&p.name) {
                Some(v) if !v.is_undef() => v,
                _ => match &p.default {
                    Some(d) => self.eval(d, scope, ctx)?,
                    None => {
                        let optional = p.type_expr.as_ref().is_some_and(|t| accepts_undef(t));
                        if !optional {
                            return Err(EvalError::runtime(
                                format!("{reference}: expects a value for parameter '{}'", p.name),
                                at.clone(),
                            ));
                        }
                        Value::Undef
                    }
                },
            };
            if let Some(t) = &p.type_expr {
                let ty = self.eval(t, scope, ctx)?;
                if let Value::Type(ty) = ty {
                    if !super::typeops::is_instance(&ty, &value) && super::typeops::type_by_name("Any").is_some() {
                        return Err(EvalError::runtime(
                            format!("{reference}: parameter '{}' expects {}", p.name, ty),
                            at.clone(),
                        ));
                    }
                }
            }
            self.scopes.get_mut(scope).vars.insert(p.name.clone(), value.clone());
            if !value.is_undef() {
                self.resources[id].params.insert(p.name.clone(), value);
            }
        }
        // Metaparameters given to a class or define stay on its resource.
        for (k, v) in given {
            if !v.is_undef() {
                self.resources[id].params.insert(k, v);
            }
        }
        Ok(())
    }

    /// Evaluates a defined type's instance (queued until catalog generation).
    pub fn evaluate_define(&mut self, id: ResId) -> R<()> {
        self.resources[id].evaluated = true;
        let Some(dname) = self.resources[id].define.clone() else {
            return Ok(());
        };
        let Some(def) = self.find_define(&dname)? else {
            return Ok(());
        };
        let program = def.program.clone();
        let ExprKind::Define { params: decl, body, .. } = &def.expr().kind else {
            return Ok(());
        };
        let res = &self.resources[id];
        let at = Location {
            file: res.file.clone(),
            line: res.line,
            column: None,
        };
        let declared_in = res.scope;
        let title = res.title.clone();
        let reference = res.reference();
        let given: IndexMap<String, Value> = std::mem::take(&mut self.resources[id].params);
        let mut s = Scope::new(ScopeKind::Define, Some(declared_in), Some(id));
        s.vars.insert("title".into(), Value::string(title.as_str()));
        s.vars.insert(
            "name".into(),
            given.get("name").cloned().unwrap_or_else(|| Value::string(title.as_str())),
        );
        let scope = self.scopes.push(s);
        let ctx = Ctx { program };
        self.depth += 1;
        if self.depth > MAX_EVAL_DEPTH {
            self.depth -= 1;
            return Err(EvalError::runtime("Too deep nesting of class, define and function evaluation", at));
        }
        let mut given = given;
        given.shift_remove("name");
        let r = self
            .bind_parameters(&reference, decl, given, scope, id, &ctx, &at)
            .and_then(|_| self.eval_block(body, scope, &ctx).map(|_| ()));
        self.depth -= 1;
        r
    }

    /// Evaluates the node definition: its resource, scope and body.
    pub fn evaluate_node(&mut self, def: Definition, title: String, captures: Option<Vec<Value>>) -> R<()> {
        let loc = def.location();
        let main = self.find_resource("Class", "main");
        let mut res = Res {
            type_name: "Node".into(),
            title: title.clone(),
            params: IndexMap::new(),
            tags: Vec::new(),
            file: loc.file.clone(),
            line: loc.line,
            exported: false,
            virtual_: false,
            kind: ResKind::Node,
            evaluated: true,
            scope: self.top,
            define: None,
        };
        res.tag("node");
        if super::compiler::valid_tag(&title) {
            res.tag(&title);
        }
        for t in self.scope_tags(self.top) {
            res.tag(&t);
        }
        let tags = res.tags.clone();
        let id = self.add_resource(res, &loc)?;
        self.tag_catalog(&tags);
        self.add_class(&title);
        if let Some(m) = main {
            self.add_edge(m, id);
        }
        let mut s = Scope::new(ScopeKind::Node, Some(self.top), Some(id));
        s.matches = captures;
        let scope = self.scopes.push(s);
        self.node_scope = Some(scope);
        let program = def.program.clone();
        let ExprKind::Node { body, .. } = &def.expr().kind else {
            return Ok(());
        };
        self.eval_block(body, scope, &Ctx { program })?;
        Ok(())
    }

    pub fn class_title(key: &str) -> String {
        capitalize_name(key)
    }
}

/// Does a parameter's type accept undef (so that no value is needed)?
fn accepts_undef(t: &Expr) -> bool {
    match &t.kind {
        ExprKind::QRef(n) => matches!(n.as_str(), "Optional" | "Any" | "Undef"),
        ExprKind::Access { lhs, .. } => matches!(&lhs.kind, ExprKind::QRef(n) if n == "Optional" || n == "Variant"),
        _ => false,
    }
}

pub const METAPARAMS: &[&str] = &[
    "alias", "audit", "before", "loglevel", "noop", "notify", "require", "schedule", "stage",
    "subscribe", "tag",
];

pub fn is_metaparam(name: &str) -> bool {
    METAPARAMS.contains(&name)
}

#[allow(dead_code)]
fn unused(_: Map) {}
