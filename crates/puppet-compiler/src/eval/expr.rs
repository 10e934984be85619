//! Expressions: Puppet's `EvaluatorImpl`, one `match` arm per model class.

use puppet_syntax::util::NameStr as _;
use std::sync::Arc;

use super::compiler::{capitalize_name, Compiler};
use super::error::{EvalError, Location};
use super::issues;
use super::scope::ScopeId;
use super::value::{value_label, Map, Value};
use puppet_model::types::PType;
use puppet_syntax::ast::*;

/// The file being evaluated, for error locations.
#[derive(Clone)]
pub struct Ctx {
    pub program: Arc<Program>,
}

pub type R<T> = Result<T, EvalError>;

/// Puppet's label of an expression with its article, for "Error while evaluating ...".
pub fn a_label(e: &Expr) -> String {
    puppet_syntax::validate::a_an(&puppet_syntax::validate::label(e))
}

impl<'e> Compiler<'e> {
    /// An issue of the evaluator itself, located at `e` (Puppet's `fail`).
    pub fn fail<T>(&self, ctx: &Ctx, e: &Expr, detail: impl Into<String>) -> R<T> {
        Err(EvalError::Issue {
            detail: detail.into(),
            at: self.loc(&ctx.program, e),
        })
    }

    /// Wraps an unwrapped runtime error with the expression being evaluated.
    pub fn wrap(&self, ctx: &Ctx, e: &Expr, err: EvalError) -> EvalError {
        match err {
            EvalError::Runtime {
                while_evaluating: None,
                detail,
                at,
            } => {
                let at = if at.file.is_none() {
                    self.loc(&ctx.program, e)
                } else {
                    at
                };
                EvalError::Runtime {
                    while_evaluating: Some(a_label(e)),
                    detail,
                    at,
                }
            }
            other => other,
        }
    }

    pub fn eval_block(&mut self, stmts: &[Expr], scope: ScopeId, ctx: &Ctx) -> R<Value> {
        let Some((last, before)) = stmts.split_last() else {
            return Ok(Value::Undef);
        };
        self.exec_block(before, scope, ctx)?;
        self.eval(last, scope, ctx)
    }

    /// A block's statements for their effects, their values dropped (a
    /// class, define or node body, or all but a block's last statement).
    pub fn exec_block(&mut self, stmts: &[Expr], scope: ScopeId, ctx: &Ctx) -> R<()> {
        for s in stmts {
            crate::budget::tick()?;
            // A resource expression's value (its references) is made only
            // when something uses it.
            if let ExprKind::Resource { .. } = s.kind {
                self.eval_resource(s, scope, ctx, false)
                    .map_err(|err| self.wrap(ctx, s, err))?;
            } else {
                self.eval(s, scope, ctx)?;
            }
        }
        Ok(())
    }

    /// Evaluates a list of expressions (an array literal's items, a call's
    /// arguments) onto `out`, unfolding each `*x` as Puppet does.
    fn eval_unfolding(
        &mut self,
        items: &[Expr],
        scope: ScopeId,
        ctx: &Ctx,
        out: &mut Vec<Value>,
    ) -> R<()> {
        for x in items {
            if let ExprKind::Unary {
                op: UnaryOp::Splat,
                expr,
            } = &x.kind
            {
                out.extend(unfold(self.eval(expr, scope, ctx)?));
            } else {
                out.push(self.eval(x, scope, ctx)?);
            }
        }
        Ok(())
    }

    pub fn eval(&mut self, e: &Expr, scope: ScopeId, ctx: &Ctx) -> R<Value> {
        match &e.kind {
            ExprKind::Nop | ExprKind::Undef => Ok(Value::Undef),
            ExprKind::Default => Ok(Value::Default),
            ExprKind::Boolean(b) => Ok(Value::Boolean(*b)),
            ExprKind::Number(Number::Integer(i, _)) => Ok(Value::Integer(*i)),
            ExprKind::Number(Number::Float(f)) => Ok(Value::Float(*f)),
            ExprKind::Number(Number::Overflow(t)) => {
                self.fail(ctx, e, issues::operators::integer_out_of_range(t))
            }
            ExprKind::Str(s) => Ok(Value::String(s.clone())),
            ExprKind::QName(n) => Ok(Value::String(n.clone())),
            ExprKind::Reserved(w) => Ok(Value::string(w.as_str())),
            ExprKind::Regex(r) => Ok(Value::Regexp(r.as_str().into())),
            ExprKind::QRef(n) => {
                // A name already known as a resource type (`Package` of
                // `Package['x']`, most of the references a catalog makes)
                // was no Puppet type then and is none now: `type_by_name`
                // depends on the name alone.
                if let Some(v) = self.defs.resource_type_ref(n.as_str()) {
                    return Ok(v.clone());
                }
                if let Some(t) = super::typeops::type_by_name(n) {
                    return Ok(Value::Type(Arc::new(t)));
                }
                // (An Object type's definition errors surface here, at its use.)
                // (Wrapped at the outermost use: a definition naming another
                // type passes that one's error up as it is.)
                if let Some(alias) = self.find_type_alias(n).map_err(|err| match err {
                    EvalError::Runtime {
                        while_evaluating: None,
                        at: Location { file: None, .. },
                        ..
                    } if !self.defs.resolving_any_object() => self.wrap(ctx, e, err),
                    other => other,
                })? {
                    return Ok(Value::Type(Arc::new(alias)));
                }
                // Otherwise a resource type, which must exist.
                let key = n.trim_colons().lowercase();
                let known = self.is_ruby_type(&key) || self.find_define(&key)?.is_some();
                if !known {
                    // A type Puppet finds but cannot load fails its autoload.
                    if let Some(detail) = self.unloadable_type_message(&key) {
                        return Err(EvalError::Runtime {
                            while_evaluating: Some("a Type-Name".into()),
                            detail,
                            at: self.loc(&ctx.program, e),
                        });
                    }
                    return self.fail(
                        ctx,
                        e,
                        issues::resources::unknown_resource_type(n.trim_colons()),
                    );
                }
                let v = Value::Type(Arc::new(type_reference(n)));
                self.defs.set_resource_type_ref(n.clone(), v.clone());
                Ok(v)
            }
            ExprKind::Concat(parts) => {
                // `"${x}"` of a string is that string, shared.
                if let [StrPart::Expr(x)] = parts.as_slice() {
                    let v = self.eval(x, scope, ctx)?;
                    return Ok(match v {
                        Value::String(_) => v,
                        other => Value::string(other.to_string()),
                    });
                }
                // Sized for the text and a short value per interpolation.
                let guess = parts
                    .iter()
                    .map(|p| match p {
                        StrPart::Text(t) => t.len(),
                        StrPart::Expr(_) => 16,
                    })
                    .sum();
                let mut s = String::with_capacity(guess);
                crate::budget::tick()?;
                // Ruby's `join` refuses to mix a binary String that is not
                // ASCII with other non-ASCII text, and the result is binary
                // when its first piece is; asked once a binary String was
                // made (text of a file that is not UTF-8 is UTF-8 to Ruby).
                let mut encoding = (crate::bad_bytes::binary_made() && self.invalid_utf8.is_none())
                    .then_some(crate::bad_bytes::Appended::JOINED);
                for p in parts {
                    let start = s.len();
                    let mut binary = false;
                    match p {
                        StrPart::Text(t) => s.push_str(t),
                        StrPart::Expr(x) => match self.eval(x, scope, ctx)? {
                            Value::String(ref v) => {
                                // A string doubled again and again is
                                // refused before it outgrows the budget.
                                crate::budget::reserve((s.len() + v.len()) as u64)?;
                                s.push_str(v);
                                binary =
                                    encoding.is_some() && crate::bad_bytes::is_binary_string(v);
                            }
                            v => {
                                use std::fmt::Write as _;
                                let _ = write!(s, "{v}");
                            }
                        },
                    }
                    if let Some(enc) = &mut encoding {
                        *enc = enc
                            .then(&s[start..], binary)
                            .map_err(|refusal| self.wrap_detail(ctx, e, refusal.to_string()))?;
                    }
                }
                Ok(match encoding {
                    Some(enc) if enc.is_binary() => crate::bad_bytes::mark_binary(Arc::from(s)),
                    _ => Value::string(s),
                })
            }
            ExprKind::Heredoc { text, .. } => self.eval(text, scope, ctx),
            ExprKind::RenderString(text) => {
                if let Some(out) = self.host.epp_output() {
                    out.push(text, false);
                }
                Ok(Value::Undef)
            }
            ExprKind::RenderExpr(x) => {
                let v = self.eval(x, scope, ctx)?;
                let binaries = self.invalid_utf8.is_none();
                if let Some(out) = self.host.epp_output() {
                    match &v {
                        // Rendered unwrapped; the whole text becomes Sensitive.
                        Value::Sensitive(inner) => {
                            out.sensitive = true;
                            out.push(&inner.to_string(), false);
                        }
                        Value::String(s) => {
                            out.push(s, binaries && crate::bad_bytes::is_binary_string(s))
                        }
                        _ => out.push(&v.to_string(), false),
                    }
                }
                Ok(Value::Undef)
            }
            // Rendered by `epp()`/`inline_epp()` (eval/templates_epp.rs), never
            // evaluated as an expression.
            ExprKind::Epp { .. } => Ok(Value::Undef),
            ExprKind::Var(name) => self.lookup_var(name, scope, ctx, e),
            ExprKind::Array(items) => {
                let mut out = Vec::with_capacity(items.len());
                self.eval_unfolding(items, scope, ctx, &mut out)?;
                Ok(Value::array(out))
            }
            ExprKind::Hash { entries, .. } => {
                let mut m = Map::with_capacity_and_hasher(entries.len(), Default::default());
                for h in entries {
                    let k = self.eval(&h.key, scope, ctx)?;
                    let v = self.eval(&h.value, scope, ctx)?;
                    m.insert(k, v);
                }
                Ok(Value::hash(m))
            }
            ExprKind::Paren(x) => self.eval(x, scope, ctx),
            ExprKind::Unary { op, expr } => {
                let v = self.eval(expr, scope, ctx)?;
                match op {
                    UnaryOp::Not => Ok(Value::Boolean(!v.is_truthy())),
                    UnaryOp::Neg => match v {
                        Value::Integer(i) => Ok(Value::Integer(i.wrapping_neg())),
                        Value::Float(f) => Ok(Value::Float(-f)),
                        // Timespan#-@ (a Timestamp has none).
                        Value::Timespan(n) => Ok(Value::Timespan(puppet_model::time::Nanos::new(
                            n.get().saturating_neg(),
                        ))),
                        // Numeric#-@ coerces through Float(), which a
                        // SemVer refuses.
                        Value::SemVer(_) => self.fail(
                            ctx,
                            e,
                            "Error while evaluating an Unary Minus, can't convert SemanticPuppet::Version into Float",
                        ),
                        // Anything else through `coerce_numeric`, as Puppet's
                        // `eval_UnaryMinusExpression`: a numeric String
                        // negated, the rest not numeric.
                        other => {
                            Ok(match self.coerce_numeric(&other, e, ctx)?.value() {
                                Value::Integer(i) => Value::Integer(i.wrapping_neg()),
                                Value::Float(f) => Value::Float(-f),
                                n => n,
                            })
                        }
                    },
                    UnaryOp::Splat => Ok(Value::array(unfold(v))),
                }
            }
            ExprKind::Binary { op, lhs, rhs } => self.eval_binary(e, *op, lhs, rhs, scope, ctx),
            ExprKind::Assign { op: _, lhs, rhs } => {
                let v = self.eval(rhs, scope, ctx)?;
                self.assign(lhs, v.clone(), scope, ctx, e)?;
                Ok(v)
            }
            ExprKind::Access { lhs, keys } => {
                if !matches!(lhs.kind, ExprKind::QRef(_)) {
                    return self.eval_access(e, lhs, keys, scope, ctx);
                }
                // `Optional[String]` and the like: see `constant_types`.
                let puppet7 = self.node.puppet == crate::version::PuppetVersion::V7;
                let key = super::constant_types::key(self.env.id, puppet7, e);
                match super::constant_types::seen(key) {
                    Some(Some(constant)) => Ok(constant),
                    Some(None) => self.eval_access(e, lhs, keys, scope, ctx),
                    None => {
                        let result = self.eval_access(e, lhs, keys, scope, ctx);
                        super::constant_types::remember(key, &ctx.program, e, result.as_ref().ok());
                        result
                    }
                }
            }
            ExprKind::If { .. }
            | ExprKind::Unless { .. }
            | ExprKind::Case { .. }
            | ExprKind::Selector { .. } => {
                // Puppet's `with_guarded_scope`: match variables set in the
                // test or the branches are gone after the expression.
                let saved = self.scopes.get(scope).matches.clone();
                let result = self.eval_conditional(e, scope, ctx);
                self.scopes.get_mut(scope).matches = saved;
                result
            }
            ExprKind::Block(stmts) => self.eval_block(stmts, scope, ctx),
            ExprKind::CallNamed {
                functor,
                args,
                lambda,
                ..
            } => {
                let name = match &functor.kind {
                    ExprKind::QName(n) => n.clone(),
                    ExprKind::QRef(n) => n.as_str().into(),
                    _ => return self.fail(ctx, e, "Illegal function name"),
                };
                let mut vals = Vec::with_capacity(args.len());
                self.eval_unfolding(args, scope, ctx, &mut vals)?;
                self.call_function(&name, vals, lambda.as_deref(), scope, ctx, e)
                    .map_err(|err| self.wrap(ctx, e, err))
            }
            ExprKind::CallMethod {
                receiver,
                name,
                args,
                lambda,
            } => {
                let recv = self.eval(receiver, scope, ctx)?;
                let mut vals = vec![recv];
                // `$h.dig(*$path)`: splats unfold as in a named call.
                self.eval_unfolding(args, scope, ctx, &mut vals)?;
                // `$context.not_found()`: a Hiera backend's context.
                if puppet_model::types::object::is_lookup_context(&vals[0]) {
                    return self
                        .lookup_context_method(name, &vals[1..], lambda.as_deref(), scope, ctx)
                        .map_err(|err| self.wrap(ctx, e, err));
                }
                // `$uri.host`: the URI type's members (`PURIType::URI_MEMBERS`).
                if let (Value::Uri(u), [_], None) = (&vals[0], vals.as_slice(), lambda) {
                    if super::uri::MEMBERS.contains(&name.as_str()) {
                        return Ok(u.component(name).unwrap_or(Value::Undef));
                    }
                }
                // `$point.x`: an Object's attribute, constant or function.
                if super::builtins::is_object_member(&vals[0], name) {
                    let r = super::builtins::object_member(
                        &vals[0],
                        name,
                        &vals[1..],
                        lambda.is_some(),
                    );
                    if let Some(r) = r {
                        return r.map_err(|detail| self.wrap_detail(ctx, e, detail));
                    }
                }
                self.call_function(name, vals, lambda.as_deref(), scope, ctx, e)
                    .map_err(|err| self.wrap(ctx, e, err))
            }
            ExprKind::NamedAccess { .. } => self.fail(ctx, e, "Named access is not supported here"),
            ExprKind::Resource { .. } => self
                .eval_resource(e, scope, ctx, true)
                .map_err(|err| self.wrap(ctx, e, err)),
            ExprKind::ResourceDefaults { type_ref, ops, .. } => {
                self.eval_defaults(e, type_ref, ops, scope, ctx)
            }
            ExprKind::ResourceOverride { resources, ops, .. } => {
                self.eval_override(e, resources, ops, scope, ctx)
            }
            ExprKind::Collect { .. } => self.eval_collect(e, scope, ctx),
            ExprKind::Relationship { op, lhs, rhs } => {
                self.eval_relationship(e, *op, lhs, rhs, scope, ctx)
            }
            // Definitions were registered when their file was loaded.
            ExprKind::Class { .. }
            | ExprKind::Define { .. }
            | ExprKind::Node { .. }
            | ExprKind::Function { .. }
            | ExprKind::TypeAlias { .. }
            | ExprKind::TypeDefinition { .. } => Ok(Value::Undef),
        }
    }

    /// `if`, `unless`, `case` and selectors (see the guard in `eval`).
    fn eval_conditional(&mut self, e: &Expr, scope: ScopeId, ctx: &Ctx) -> R<Value> {
        match &e.kind {
            ExprKind::If {
                test,
                then,
                otherwise,
            } => {
                if self.eval(test, scope, ctx)?.is_truthy() {
                    self.eval_block(then, scope, ctx)
                } else if let Some(o) = otherwise {
                    self.eval_branch(o, scope, ctx)
                } else {
                    Ok(Value::Undef)
                }
            }
            ExprKind::Unless {
                test,
                then,
                otherwise,
            } => {
                if !self.eval(test, scope, ctx)?.is_truthy() {
                    self.eval_block(then, scope, ctx)
                } else if let Some(o) = otherwise {
                    self.eval_branch(o, scope, ctx)
                } else {
                    Ok(Value::Undef)
                }
            }
            ExprKind::Case { test, options } => {
                let v = self.eval(test, scope, ctx)?;
                let mut default_body = None;
                for o in options {
                    for m in &o.values {
                        if matches!(m.kind, ExprKind::Default) {
                            default_body = Some(&o.body);
                            continue;
                        }
                        let mv = self.eval(m, scope, ctx)?;
                        if let Some(caps) = self.case_match(&v, &mv, ctx, m)? {
                            let inner = self.scopes.match_scope(scope, caps);
                            return self.eval_block(&o.body, inner, ctx);
                        }
                    }
                }
                match default_body {
                    Some(b) => self.eval_block(b, scope, ctx),
                    None => Ok(Value::Undef),
                }
            }
            ExprKind::Selector { lhs, entries } => {
                let v = self.eval(lhs, scope, ctx)?;
                let mut default = None;
                for s in entries {
                    if matches!(s.matching.kind, ExprKind::Default) {
                        default = Some(&s.value);
                        continue;
                    }
                    let mv = self.eval(&s.matching, scope, ctx)?;
                    if let Some(caps) = self.case_match(&v, &mv, ctx, &s.matching)? {
                        let inner = self.scopes.match_scope(scope, caps);
                        return self.eval(&s.value, inner, ctx);
                    }
                }
                match default {
                    Some(d) => self.eval(d, scope, ctx),
                    // Puppet's UNMATCHED_SELECTOR, at the left operand,
                    // shows the value as Ruby's `to_s`.
                    None => self.fail(
                        ctx,
                        lhs,
                        issues::operators::unmatched_selector(super::builtins::ruby_value_to_s(&v)),
                    ),
                }
            }
            _ => Ok(Value::Undef),
        }
    }

    fn eval_branch(&mut self, o: &Expr, scope: ScopeId, ctx: &Ctx) -> R<Value> {
        self.eval(o, scope, ctx)
    }

    /// Case/selector matching: regex (with captures), type, array entries, `==`.
    fn case_match(
        &mut self,
        v: &Value,
        m: &Value,
        ctx: &Ctx,
        at: &Expr,
    ) -> R<Option<Option<Vec<Value>>>> {
        if let Some(hit) = super::semver::pattern_match(m, v) {
            return Ok(hit.then_some(None));
        }
        match m {
            Value::Regexp(src) => match v {
                Value::String(s) => Ok(self.regex_captures(src, s, ctx, at)?.map(Some)),
                _ => Ok(None),
            },
            Value::Type(t) => Ok(super::typeops::is_instance(t, v).then_some(None)),
            Value::Array(items) if !matches!(v, Value::Array(_)) => {
                for i in items.iter() {
                    if let Some(c) = self.case_match(v, i, ctx, at)? {
                        return Ok(Some(c));
                    }
                }
                Ok(None)
            }
            // Arrays match element by element, each by case rules.
            Value::Array(items) => {
                let Value::Array(vs) = v else { return Ok(None) };
                if vs.len() != items.len() {
                    return Ok(None);
                }
                for (x, y) in vs.iter().zip(items.iter()) {
                    if self.case_match(x, y, ctx, at)?.is_none() {
                        return Ok(None);
                    }
                }
                Ok(Some(None))
            }
            _ => Ok(v.puppet_eq(m).then_some(None)),
        }
    }

    /// `$0`, `$1`, ... of matching `s` with `src`, in `s`'s encoding.
    pub fn regex_captures(
        &self,
        src: &str,
        s: &Arc<str>,
        ctx: &Ctx,
        at: &Expr,
    ) -> R<Option<Vec<Value>>> {
        match super::typeops::regex_captures(src, s) {
            Ok(c) => Ok(c.map(|c| crate::bad_bytes::parts_in_encoding_of(s, c))),
            Err(msg) => self.fail(ctx, at, msg),
        }
    }

    fn lookup_var(&mut self, name: &str, scope: ScopeId, ctx: &Ctx, e: &Expr) -> R<Value> {
        if !name.is_empty() && name.bytes().all(|b| b.is_ascii_digit()) {
            let idx: usize = name.parse().unwrap_or(usize::MAX);
            return Ok(self.scopes.lookup_match(scope, idx).unwrap_or(Value::Undef));
        }
        if let Some(global) = name.strip_prefix("::") {
            if !global.has_colons() {
                return match self.scopes.get(self.scopes.top()).vars.get(global).cloned() {
                    Some(v) => Ok(v),
                    None => self.unknown_variable(name, ctx, e).map(|_| Value::Undef),
                };
            }
        }
        let qualified = name.trim_colons();
        if let Some((class, var)) = qualified.rsplit_colons() {
            let class = class.lowercase();
            let class_scope = self.defs.class_scope(&class);
            // A default reading its own class's parameter by its qualified
            // name meets the same `ParameterScope` as a plain name does.
            if let (Some(s), Some(g)) = (class_scope, self.scopes.param_guard()) {
                if g.scope == s {
                    let bound = |n: &str| self.scopes.get(g.scope).vars.contains_key(n);
                    if let Some(before) = g.unassigned(var, bound) {
                        return Err(EvalError::runtime(
                            param_guard_error(g, var, before),
                            super::error::Location::default(),
                        ));
                    }
                }
            }
            return match class_scope {
                // Puppet's `lookup_qualified_variable`: the class's own
                // variables, then those of the classes it inherits from
                // (never top or node scope).
                Some(s) => match self.scopes.qualified_in_class(s, var) {
                    Some(v) => Ok(v),
                    None => self.unknown_variable(name, ctx, e).map(|_| Value::Undef),
                },
                // Under `strict_variables` Puppet's `variable_not_found`
                // throws, and the evaluator reports the name as written.
                None if self.scopes.strict_variables()
                    || self.node.strict() == crate::version::Strict::Error =>
                {
                    self.unknown_variable(name, ctx, e).map(|_| Value::Undef)
                }
                None => {
                    let w = issues::variables::qualified_class_not_evaluated(qualified, class);
                    self.warnings.push(w);
                    Ok(Value::Undef)
                }
            };
        }
        if let Some(g) = self.scopes.param_guard() {
            let bound = |n: &str| self.scopes.get(g.scope).vars.contains_key(n);
            if let Some(before) = g.unassigned(name, bound) {
                if self.scopes.assignment_target(scope) == g.scope {
                    return Err(EvalError::runtime(
                        param_guard_error(g, name, before),
                        super::error::Location::default(),
                    ));
                }
            }
        }
        match self.scopes.lookup(scope, name) {
            Some(v) => Ok(v.clone()),
            None => self.unknown_variable(name, ctx, e).map(|_| Value::Undef),
        }
    }

    /// UNKNOWN_VARIABLE: an error with `strict_variables`, else as
    /// `strict` says (`runtime3_support.rb`'s SeverityProducer).
    fn unknown_variable(&mut self, name: &str, ctx: &Ctx, e: &Expr) -> R<()> {
        // Puppet's `Scope#variable_not_found`: the built-in variables
        // (`BUILT_IN_VARS`) always exist, undef where nothing set them.
        if matches!(name, "module_name" | "caller_module_name") {
            return Ok(());
        }
        let at = self.loc(&ctx.program, e);
        let strict = self.node.strict();
        if strict == crate::version::Strict::Off && !self.scopes.strict_variables() {
            return Ok(());
        }
        if self.scopes.strict_variables() || strict == crate::version::Strict::Error {
            return Err(EvalError::Issue {
                detail: issues::variables::unknown_variable(name),
                at,
            });
        }
        self.warnings.push(format!(
            "{}{}",
            issues::variables::unknown_variable(name),
            at.suffix()
        ));
        Ok(())
    }

    /// Assignment; errors are placed at the assignment (`at`), as Puppet does.
    fn assign(&mut self, lhs: &Expr, v: Value, scope: ScopeId, ctx: &Ctx, at: &Expr) -> R<()> {
        match &lhs.kind {
            ExprKind::Var(name) => {
                let target = self.scopes.assignment_target(scope);
                if name == "server_facts" {
                    return self.fail(
                        ctx,
                        at,
                        issues::variables::illegal_reserved_assignment(name),
                    );
                }
                // Outside top scope `$facts`/`$trusted` are not bound; the
                // scope itself refuses them (a wrapped error without `$`).
                if (name == "facts" || name == "trusted") && target != self.scopes.top() {
                    return Err(EvalError::Runtime {
                        while_evaluating: Some(a_label(at)),
                        detail: issues::variables::scope_reserved_assignment(name),
                        at: self.loc(&ctx.program, at),
                    });
                }
                let s = self.scopes.get_mut(target);
                if s.vars.contains_key(name.as_str()) {
                    let msg = if name == "facts" || name == "trusted" {
                        issues::variables::illegal_reserved_assignment(name)
                    } else if name == "title" || name == "name" {
                        issues::variables::illegal_reassignment_builtin(name)
                    } else {
                        issues::variables::illegal_reassignment(name)
                    };
                    return self.fail(ctx, at, msg);
                }
                s.vars.insert(name.as_str().into(), v);
                Ok(())
            }
            ExprKind::Array(targets) => match &v {
                Value::Array(vals) => {
                    if vals.len() != targets.len() {
                        return self.fail(
                            ctx,
                            lhs,
                            issues::variables::illegal_multi_assignment_size(
                                targets.len(),
                                vals.len(),
                            ),
                        );
                    }
                    for (t, x) in targets.iter().zip(vals.iter()) {
                        self.assign(t, x.clone(), scope, ctx, at)?;
                    }
                    Ok(())
                }
                Value::Hash(h) => {
                    for t in targets {
                        let ExprKind::Var(n) = &t.kind else {
                            return self.fail(ctx, t, issues::variables::ILLEGAL_ASSIGNMENT);
                        };
                        let val = h
                            .get(&Value::string(n.as_str()))
                            .cloned()
                            .unwrap_or(Value::Undef);
                        self.assign(t, val, scope, ctx, at)?;
                    }
                    Ok(())
                }
                _ => self.fail(ctx, lhs, issues::variables::ILLEGAL_ASSIGNMENT),
            },
            _ => self.fail(ctx, lhs, issues::variables::ILLEGAL_ASSIGNMENT),
        }
    }

    fn eval_binary(
        &mut self,
        e: &Expr,
        op: BinaryOp,
        lhs: &Expr,
        rhs: &Expr,
        scope: ScopeId,
        ctx: &Ctx,
    ) -> R<Value> {
        match op {
            BinaryOp::And => {
                let l = self.eval(lhs, scope, ctx)?;
                if !l.is_truthy() {
                    return Ok(Value::Boolean(false));
                }
                return Ok(Value::Boolean(self.eval(rhs, scope, ctx)?.is_truthy()));
            }
            BinaryOp::Or => {
                let l = self.eval(lhs, scope, ctx)?;
                if l.is_truthy() {
                    return Ok(Value::Boolean(true));
                }
                return Ok(Value::Boolean(self.eval(rhs, scope, ctx)?.is_truthy()));
            }
            _ => {}
        }
        let l = self.eval(lhs, scope, ctx)?;
        let r = self.eval(rhs, scope, ctx)?;
        match op {
            // Objects whose `equality` names a derived attribute fail.
            BinaryOp::Eq | BinaryOp::Ne
                if matches!((&l, &r), (Value::Object(_), Value::Object(_))) =>
            {
                let (Value::Object(a), Value::Object(b)) = (&l, &r) else {
                    return Ok(Value::Boolean(false));
                };
                match a.try_eq(b) {
                    Ok(eq) => Ok(Value::Boolean(eq == (op == BinaryOp::Eq))),
                    Err(detail) => Err(self.wrap_detail(ctx, e, detail)),
                }
            }
            BinaryOp::Eq => Ok(Value::Boolean(l.puppet_eq(&r))),
            BinaryOp::Ne => Ok(Value::Boolean(!l.puppet_eq(&r))),
            BinaryOp::Match | BinaryOp::NotMatch => {
                // Text with bytes that are not UTF-8 (`crate::bad_bytes`,
                // only once a file had some): Ruby's regexp refuses it.
                // Whether matching `v` against `t` reaches a Pattern: a
                // Variant tries its members in order, up to one that matches.
                fn pattern(t: &PType, v: &Value) -> bool {
                    match t {
                        PType::Pattern(_) => true,
                        PType::Optional(Some(t)) | PType::NotUndef(Some(t)) => pattern(t, v),
                        PType::Variant(ts) => ts
                            .iter()
                            .find(|t| pattern(t, v) || super::typeops::is_instance(t, v))
                            .is_some_and(|t| pattern(t, v)),
                        _ => false,
                    }
                }
                let regexp = || match &r {
                    Value::Regexp(_) | Value::String(_) => true,
                    Value::Type(t) => pattern(t, &l),
                    _ => false,
                };
                // The text first: free while no file had bad bytes.
                if matches!(&l, Value::String(s) if self.holds_bad_bytes(s)) && regexp() {
                    let detail = puppet_syntax::error::INVALID_BYTE_SEQUENCE.to_string();
                    return Err(self.wrap_detail(ctx, e, detail));
                }
                // `Regexp[p]#instance?` compiles `p` whatever it is given:
                // Ruby's error, raised out of the whole expression.
                if let Value::Type(t) = &r {
                    if let PType::Regexp(Some(p)) = t.as_ref() {
                        if let Err(detail) = puppet_model::types::regex::compile(p) {
                            return Err(self.wrap_detail(ctx, e, detail));
                        }
                    }
                }
                let matched = self.eval_match(l, r, lhs, rhs, scope, ctx)?;
                Ok(Value::Boolean(matched == (op == BinaryOp::Match)))
            }
            // A regular expression in a String, or in an Array's (or a
            // Hash's keys') Strings, sets the match variables of its match
            // (Puppet's `include_String` and `include_Array`).
            BinaryOp::In if matches!(l, Value::Regexp(_)) => {
                let Value::Regexp(src) = &l else {
                    return Ok(Value::Boolean(false));
                };
                let candidates: Vec<Value> = match &r {
                    Value::String(_) => vec![r.clone()],
                    Value::Array(items) => items.iter().cloned().collect(),
                    Value::Hash(h) => h.keys().cloned().collect(),
                    _ => Vec::new(),
                };
                for c in &candidates {
                    let Value::String(hay) = c else { continue };
                    if let Some(caps) = self.regex_captures(src, hay, ctx, e)? {
                        self.scopes.get_mut(scope).matches = Some(caps);
                        return Ok(Value::Boolean(true));
                    }
                }
                Ok(Value::Boolean(false))
            }
            // Puppet compares text in text by `downcase`, which Ruby refuses
            // for text holding bytes that are not UTF-8.
            BinaryOp::In
                if matches!((&l, &r), (Value::String(a), Value::String(b))
                    if self.holds_bad_bytes(a) || self.holds_bad_bytes(b)) =>
            {
                let detail = crate::bad_bytes::INPUT_STRING_INVALID.to_string();
                Err(self.wrap_detail(ctx, e, detail))
            }
            BinaryOp::In => Ok(Value::Boolean(match (&l, &r) {
                (Value::String(needle), Value::String(hay)) => {
                    hay.to_lowercase().contains(&needle.to_lowercase())
                }
                (_, Value::SemVerRange(_)) => super::semver::pattern_match(&r, &l).unwrap_or(false),
                // A string or SemVer is matched against each element: a
                // SemVer or SemVerRange element by its own rules.
                (Value::String(_) | Value::SemVer(_), Value::Array(items))
                    if items
                        .iter()
                        .any(|i| super::semver::pattern_match(i, &l) == Some(true)) =>
                {
                    true
                }
                (_, Value::Array(items)) => items.iter().any(|i| match &l {
                    Value::Regexp(src) => {
                        matches!(i, Value::String(s) if super::typeops::regex_is_match(src, s))
                    }
                    Value::Type(t) => super::typeops::is_instance(t, i),
                    _ => l.puppet_eq(i),
                }),
                (_, Value::Hash(h)) => h.keys().any(|k| l.puppet_eq(k)),
                (Value::Regexp(src), Value::String(hay)) => {
                    super::typeops::regex_is_match(src, hay)
                }
                _ => false,
            })),
            BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge => {
                // A type on the left compares by assignability (`<` is a
                // proper subtype); a value on the right is assignable only
                // to the few types that accept anything that is no type.
                if let Value::Type(a) = &l {
                    use puppet_model::types::is_assignable;
                    return Ok(Value::Boolean(match (&r, op) {
                        (Value::Type(b), BinaryOp::Lt) => is_assignable(b, a) && a != b,
                        (Value::Type(b), BinaryOp::Le) => is_assignable(b, a),
                        (Value::Type(b), BinaryOp::Gt) => is_assignable(a, b) && a != b,
                        (Value::Type(b), _) => is_assignable(a, b),
                        (_, BinaryOp::Lt | BinaryOp::Le) => false,
                        _ => accepts_non_type(a),
                    }));
                }
                let ord = match self.compare_values(&l, &r) {
                    Ok(ord) => ord,
                    Err(CmpError::Argument(detail)) => {
                        return self.fail(
                            ctx,
                            e,
                            issues::operators::comparison_not_possible(
                                value_label(&l),
                                puppet_syntax::pn::binary_op_text(op),
                                value_label(&r),
                                detail,
                            ),
                        )
                    }
                    Err(CmpError::Other(detail)) => {
                        return Err(self.wrap_detail(ctx, e, detail.to_string()))
                    }
                };
                use std::cmp::Ordering::*;
                Ok(Value::Boolean(match op {
                    BinaryOp::Lt => ord == Less,
                    BinaryOp::Le => ord != Greater,
                    BinaryOp::Gt => ord == Greater,
                    _ => ord != Less,
                }))
            }
            _ => self.arithmetic(e, op, l, r, ctx, (lhs, rhs)),
        }
    }

    fn eval_access(
        &mut self,
        e: &Expr,
        lhs: &Expr,
        keys: &[Expr],
        scope: ScopeId,
        ctx: &Ctx,
    ) -> R<Value> {
        let base = self.eval(lhs, scope, ctx)?;
        let mut ks = Vec::with_capacity(keys.len());
        for k in keys {
            ks.push(self.eval(k, scope, ctx)?);
        }
        self.access(e, base, ks, keys, ctx)
    }

    fn access(
        &mut self,
        e: &Expr,
        base: Value,
        keys: Vec<Value>,
        key_exprs: &[Expr],
        ctx: &Ctx,
    ) -> R<Value> {
        // Puppet reports arity errors at the left operand, key errors at the
        // key written at the (flattened) key's index.
        let left_expr = match &e.kind {
            ExprKind::Access { lhs, .. } => &**lhs,
            _ => e,
        };
        let key_at = |i: usize| key_exprs.get(i).unwrap_or(e);
        match &base {
            Value::Array(items) => {
                let keys = flatten_keys(keys);
                let len = items.len() as i64;
                if keys.is_empty() || keys.len() > 2 {
                    return self.fail(
                        ctx,
                        left_expr,
                        issues::operators::bad_array_slice_arity(keys.len()),
                    );
                }
                // `coerce_numeric` of every key, then each must be an Integer.
                let mut ns = Vec::with_capacity(2);
                for (i, k) in keys.iter().enumerate() {
                    ns.push(self.coerce_numeric(k, key_at(i), ctx)?.value());
                }
                let mut ints = Vec::with_capacity(2);
                for (i, n) in ns.iter().enumerate() {
                    let Value::Integer(n) = n else {
                        return self.fail(
                            ctx,
                            key_at(i),
                            issues::operators::bad_array_key_type(
                                puppet_model::types::parse::bad_key_type_name(n),
                            ),
                        );
                    };
                    ints.push(*n);
                }
                match ints.as_slice() {
                    [i] => {
                        let i = if *i < 0 { len + i } else { *i };
                        Ok(if i >= 0 && i < len {
                            items[i as usize].clone()
                        } else {
                            Value::Undef
                        })
                    }
                    [start, count] => {
                        let (s, t) = slice_bounds(len, *start, *count);
                        Ok(Value::array(if s < t {
                            items[s as usize..t as usize].to_vec()
                        } else {
                            Vec::new()
                        }))
                    }
                    _ => unreachable!("one or two keys"),
                }
            }
            Value::Hash(h) => match keys.as_slice() {
                [] => self.fail(ctx, left_expr, issues::operators::BAD_HASH_SLICE_ARITY),
                [k] => Ok(h.get(k).cloned().unwrap_or(Value::Undef)),
                many => Ok(Value::array(
                    many.iter().filter_map(|k| h.get(k).cloned()).collect(),
                )),
            },
            Value::String(s) => {
                let keys = flatten_keys(keys);
                if keys.is_empty() || keys.len() > 2 {
                    return self.fail(
                        ctx,
                        left_expr,
                        issues::operators::bad_string_slice_arity(keys.len()),
                    );
                }
                // `Utils.to_n` of each key (a numeric String counts, with
                // no warning); anything else is named by its general type.
                let mut ints = Vec::with_capacity(2);
                for (i, k) in keys.iter().enumerate() {
                    let n = match k {
                        Value::Integer(_) | Value::Float(_) => Some(k.clone()),
                        Value::String(t) => super::arith::utils_to_n(t),
                        _ => None,
                    };
                    match n {
                        Some(Value::Integer(n)) => ints.push(n),
                        other => {
                            let actual = puppet_model::types::parse::bad_key_type_name(
                                other.as_ref().unwrap_or(k),
                            );
                            return self.fail(
                                ctx,
                                key_at(i),
                                issues::operators::bad_string_slice_key_type(
                                    puppet_model::types::parse::a_an(&actual),
                                ),
                            );
                        }
                    }
                }
                let chars: Vec<char> = s.chars().collect();
                let len = chars.len() as i64;
                let slice = match ints.as_slice() {
                    [i] => {
                        let i = if *i < 0 { len + i } else { *i };
                        if i >= 0 && i < len {
                            chars[i as usize].to_string()
                        } else {
                            String::new()
                        }
                    }
                    [k, n] => {
                        let (from, to) = slice_bounds(len, *k, *n);
                        if from < to {
                            chars[from as usize..to as usize].iter().collect::<String>()
                        } else {
                            String::new()
                        }
                    }
                    _ => unreachable!("one or two keys"),
                };
                // A slice is in the string's encoding; an empty one is
                // Puppet's own empty text.
                Ok(if slice.is_empty() {
                    Value::string("")
                } else {
                    crate::bad_bytes::in_encoding_of(s, slice)
                })
            }
            // `File['/x'][mode]`: a parameter of a resource in the catalog.
            Value::Type(t)
                if matches!(
                    t.as_ref(),
                    PType::Resource {
                        type_name: Some(_),
                        title: Some(_)
                    } | PType::Class(Some(_))
                ) =>
            {
                let Some((tn, title)) = super::resources::as_ref(&base) else {
                    return self.fail(ctx, e, issues::operators::ILLEGAL_RESOURCE_REFERENCE);
                };
                let Some(id) = self.catalog.find_resource(&tn, &title) else {
                    return self.fail(ctx, e, issues::resources::unknown_resource(&tn, &title));
                };
                match keys.as_slice() {
                    [Value::String(p)] => Ok(self.catalog[id]
                        .params
                        .get(p.as_ref())
                        .cloned()
                        .unwrap_or(Value::Undef)),
                    _ => self.fail(ctx, e, issues::operators::RESOURCE_REFERENCE_ONE_PARAMETER),
                }
            }
            Value::Type(t) => match super::typeops::access_at(t, &keys) {
                Ok(v) => Ok(v),
                // An Object type's definition (`Object[{...}]`) is checked
                // by Puppet's TypeAsserter, whose errors are wrapped.
                Err((detail, _))
                    if (matches!(t.as_ref(), PType::Object(None))
                        && matches!(keys.as_slice(), [Value::Hash(_)]))
                        || matches!(t.as_ref(), PType::ObjectDef(_))
                        || (matches!(t.as_ref(), PType::Uri(None))
                            && matches!(keys.as_slice(), [Value::String(_)])) =>
                {
                    Err(self.wrap_detail(ctx, e, detail))
                }
                // A key of the wrong kind is reported where it is written.
                Err((msg, key)) => {
                    let at = key.and_then(|k| key_exprs.get(k)).unwrap_or(e);
                    self.fail(ctx, at, msg)
                }
            },
            Value::Undef => self.fail(ctx, e, issues::operators::ACCESS_ON_UNDEF),
            // An Object declaring a `[]` function: its call fails as any
            // declared function does.
            Value::Object(o) if o.ty.function("[]").is_some() => {
                let Some((f, label)) = o.ty.function("[]") else {
                    return self.fail(ctx, e, "pverify: no '[]' function");
                };
                let detail = super::builtins::call_declared_function(&label, &f.ty, &keys, false);
                Err(self.wrap_detail(ctx, e, detail))
            }
            other => self.fail(
                ctx,
                e,
                issues::operators::operator_not_applicable(
                    "[]",
                    puppet_syntax::validate::a_an(&value_label(other)),
                ),
            ),
        }
    }
}

/// A capitalised name as a type: a data type Puppet knows, else a resource type.
pub fn type_reference(name: &str) -> PType {
    let name = name.trim_colons();
    if let Some(t) = super::typeops::type_by_name(name) {
        return t;
    }
    // No other character lower-cases into these ASCII words (the Kelvin
    // sign is `k`): an ASCII-insensitive comparison is `to_lowercase`'s.
    match name {
        n if n.eq_ignore_ascii_case("class") => PType::Class(None),
        n if n.eq_ignore_ascii_case("resource") => PType::Resource {
            type_name: None,
            title: None,
        },
        _ => PType::Resource {
            type_name: Some(capitalize_name(name).into()),
            title: None,
        },
    }
}

/// What `*v` unfolds to (Puppet's `eval_UnfoldExpression`): nothing for
/// undef, an Array's elements, a Hash's `[key, value]` pairs, else the value
/// itself.
pub fn unfold(v: Value) -> Vec<Value> {
    let v = match v.into_array() {
        Ok(a) => return Arc::unwrap_or_clone(a),
        Err(v) => v,
    };
    match &v {
        Value::Undef => Vec::new(),
        Value::Hash(h) => h
            .iter()
            .map(|(k, v)| Value::array(vec![k.clone(), v.clone()]))
            .collect(),
        _ => vec![v],
    }
}

/// Why Puppet's `CompareOperator#compare` failed: its own ArgumentError
/// (reported as `Comparison of: ...`), or a Ruby error from `<=>`.
enum CmpError {
    Argument(&'static str),
    Other(&'static str),
}

impl Compiler<'_> {
    /// Puppet's `CompareOperator#compare` of two values, the left not a type.
    fn compare_values(&self, l: &Value, r: &Value) -> Result<std::cmp::Ordering, CmpError> {
        use std::cmp::Ordering;
        let float = |a: f64, b: f64| a.partial_cmp(&b).unwrap_or(Ordering::Equal);
        match l {
            Value::String(a) => match r {
                // `casecmp`: ASCII letters fold, nothing else.
                Value::String(b) => Ok(a
                    .bytes()
                    .map(|c| c.to_ascii_lowercase())
                    .cmp(b.bytes().map(|c| c.to_ascii_lowercase()))),
                _ => Err(CmpError::Argument(issues::operators::STRING_NOT_COMPARABLE)),
            },
            Value::Integer(_) | Value::Float(_) => match (l, r) {
                (Value::Integer(a), Value::Integer(b)) => Ok(a.cmp(b)),
                (Value::Integer(a), Value::Float(b)) => Ok(float(*a as f64, *b)),
                (Value::Float(a), Value::Integer(b)) => Ok(float(*a, *b as f64)),
                (Value::Float(a), Value::Float(b)) => Ok(float(*a, *b)),
                (_, Value::Timestamp(_) | Value::Timespan(_)) => puppet_model::time::compare(l, r)
                    .ok_or(CmpError::Argument(
                        issues::operators::NUMERIC_NOT_COMPARABLE,
                    )),
                // A SemanticPuppet::Version is a Ruby Numeric that cannot be
                // coerced.
                (_, Value::SemVer(_)) => Err(CmpError::Other(issues::operators::SEMVER_TO_FLOAT)),
                _ => Err(CmpError::Argument(
                    issues::operators::NUMERIC_NOT_COMPARABLE,
                )),
            },
            // `default` is the Symbol `:default`.
            Value::Default => match r {
                Value::Default => Ok(Ordering::Equal),
                _ => Err(CmpError::Argument(issues::operators::SYMBOL_NOT_COMPARABLE)),
            },
            Value::Timespan(_) => puppet_model::time::compare(l, r).ok_or(CmpError::Argument(
                issues::operators::TIMESPAN_NOT_COMPARABLE,
            )),
            Value::Timestamp(_) => puppet_model::time::compare(l, r).ok_or(CmpError::Argument(
                issues::operators::TIMESTAMP_NOT_COMPARABLE,
            )),
            Value::SemVer(a) => match r {
                Value::SemVer(b) => Ok(a.cmp_ruby(b)),
                _ => Err(CmpError::Argument(
                    issues::operators::VERSION_NOT_COMPARABLE,
                )),
            },
            _ => Err(CmpError::Argument(issues::operators::NOT_COMPARABLE)),
        }
    }
}

/// Whether type `t` is assignable from something that is no type
/// (`PAnyType#assignable?` of a value): only `Optional` (with no type, or
/// one that is), a Variant of such, an alias of one.
fn accepts_non_type(t: &PType) -> bool {
    match t {
        PType::Optional(None) => true,
        PType::Optional(Some(t)) => accepts_non_type(t),
        PType::Variant(ts) => ts.iter().any(accepts_non_type),
        PType::TypeAlias { .. } => t.alias_target().is_some_and(|t| accepts_non_type(&t)),
        _ => false,
    }
}

/// Ruby's `flatten!` of the keys of a String or Array access.
fn flatten_keys(keys: Vec<Value>) -> Vec<Value> {
    if !keys.iter().any(|k| matches!(k, Value::Array(_))) {
        return keys;
    }
    let mut out = Vec::with_capacity(keys.len());
    puppet_model::value::flatten_into(&keys, &mut out);
    out
}

/// The `[from, to)` bounds of Puppet's `[start, count]` slice of a String or
/// Array of `len` elements: a negative start counts from the end, a negative
/// count ends that far from the end (`-1` is the last element).
fn slice_bounds(len: i64, start: i64, count: i64) -> (i64, i64) {
    let start = if start < 0 { len + start } else { start };
    let end = if count < 0 {
        len + count + 1
    } else {
        start.saturating_add(count)
    };
    (start.clamp(0, len), end.clamp(0, len))
}

impl Compiler<'_> {
    /// `l =~ r`, in the order of Puppet's `eval_MatchExpression`: a type is
    /// an instance check and a SemVerRange an inclusion; anything else
    /// becomes a regular expression (`Regexp.new`, whose conversion errors
    /// Puppet reports at the right operand) before the left operand must be
    /// a String; a match sets the match variables, whatever the pattern's
    /// form.
    fn eval_match(
        &mut self,
        l: Value,
        r: Value,
        lhs: &Expr,
        rhs: &Expr,
        scope: ScopeId,
        ctx: &Ctx,
    ) -> R<bool> {
        let src = match &r {
            Value::Type(t) => return Ok(super::typeops::is_instance(t, &l)),
            Value::SemVerRange(_) => {
                return Ok(super::semver::pattern_match(&r, &l).unwrap_or(false))
            }
            Value::Regexp(src) => src.clone(),
            Value::String(src) => {
                if let Err(detail) = puppet_model::types::regex::compile(src) {
                    return self.fail(ctx, rhs, issues::operators::match_not_regexp(detail));
                }
                src.clone()
            }
            other => {
                let ruby_class = match other {
                    Value::Undef => "nil",
                    Value::Boolean(true) => "true",
                    Value::Boolean(false) => "false",
                    Value::Integer(_) => "Integer",
                    Value::Float(_) => "Float",
                    Value::Array(_) => "Array",
                    Value::Hash(_) => "Hash",
                    Value::Default => "Symbol",
                    Value::SemVer(_) => "SemanticPuppet::Version",
                    Value::Timestamp(_) => "Puppet::Pops::Time::Timestamp",
                    Value::Timespan(_) => "Puppet::Pops::Time::Timespan",
                    Value::Binary(_) => "Puppet::Pops::Types::PBinaryType::Binary",
                    Value::Sensitive(_) => "Puppet::Pops::Types::PSensitiveType::Sensitive",
                    _ => "Object",
                };
                return self.fail(
                    ctx,
                    rhs,
                    issues::operators::match_not_regexp(format!(
                        "no implicit conversion of {ruby_class} into String"
                    )),
                );
            }
        };
        let Value::String(s) = &l else {
            return self.fail(
                ctx,
                lhs,
                issues::operators::match_not_string(puppet_syntax::validate::a_an(&value_label(
                    &l,
                ))),
            );
        };
        let caps = self.regex_captures(&src, s, ctx, rhs)?;
        let hit = caps.is_some();
        if let Some(c) = caps {
            self.scopes.get_mut(scope).matches = Some(c);
        }
        Ok(hit)
    }

    /// A runtime error with `detail`, wrapped as Puppet wraps an error at
    /// expression `e` (`Error while evaluating a ...`).
    pub(super) fn wrap_detail(&self, ctx: &Ctx, e: &Expr, detail: String) -> EvalError {
        let err = EvalError::Runtime {
            while_evaluating: None,
            detail,
            at: Location::default(),
        };
        self.wrap(ctx, e, err)
    }
}

/// Puppet's `ParameterScope` refusing a read of parameter `name` that has no
/// value yet: `before` when it comes before the one whose default is
/// evaluated (it never will have one).
fn param_guard_error(g: &super::compiler::ParamGuard, name: &str, before: bool) -> String {
    if before {
        issues::variables::param_read_before_value(&g.reference, name)
    } else {
        issues::variables::default_reads_later_param(&g.reference, g.param(), name)
    }
}
