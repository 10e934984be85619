//! Rendering EPP templates: Puppet's `EppEvaluator` and the closure call by
//! name it makes (`Closure#call_by_name`).
//!
//! The template body runs in a new local scope whose parent is the caller's
//! global scope for `epp()` (the node scope, else the top scope: a template
//! sees its parameters, node and top-scope variables, never the calling
//! class's) and the calling scope for `inline_epp()`. Declared parameters are enforced as
//! for a lambda called by name (`lambda: expects a value for parameter 'x'`);
//! a template that declares none takes whatever it is given as variables.
//! Text goes to `Compiler::epp_output`, Puppet's `@epp` buffer.

use super::issues;
use std::sync::Arc;

use super::compiler::Compiler;
use super::error::{EvalError, Location};
use super::expr::{Ctx, R};
use super::scope::{Scope, ScopeId, ScopeKind};
use super::value::Value;
use puppet_model::types::{PType, ParamSpec};
use puppet_syntax::ast::{ExprKind, Program};

/// Puppet's `Closure::CLOSURE_NAME`, the subject of parameter errors.
const CLOSURE_NAME: &str = "lambda";

impl Compiler<'_> {
    /// `epp(path, params)`: the template `module/file.epp` (the reference has
    /// its extension already), rendered in the global scope of the caller.
    pub(crate) fn render_epp_file(
        &mut self,
        reference: &str,
        args: Option<&Value>,
        scope: ScopeId,
        at: &Location,
    ) -> R<Value> {
        let Some(path) = self.env.find_template(reference) else {
            return Err(EvalError::runtime(
                issues::templates::not_found(reference),
                at.clone(),
            ));
        };
        let program = self.env.parse_epp(&path).map_err(|e| {
            // Puppet reads the file, then its lexer fails on the bytes with
            // Ruby's bare `ArgumentError`, wrapped by the call (7.23, 8.10).
            let detail = if e.message == puppet_syntax::error::INVALID_BYTE_SEQUENCE {
                e.message
            } else if let Some(ruby) = self.ruby_error_text(&e) {
                // Ruby's own exception from inside the parser: no
                // "Invalid EPP" around it.
                ruby
            } else {
                issues::templates::invalid_epp("epp", e.puppet_style())
            };
            EvalError::runtime(detail, at.clone())
        })?;
        let global = self.scopes.global_scope(scope);
        self.render_epp(program, "epp", global, args, at)
    }

    /// `inline_epp(text, params)`: the template sees the calling scope.
    pub(crate) fn render_inline_epp(
        &mut self,
        text: &str,
        args: Option<&Value>,
        scope: ScopeId,
        at: &Location,
    ) -> R<Value> {
        // Text of a file that was not UTF-8: EPP's lexer refuses it.
        if self.holds_bad_bytes(text) {
            let detail = puppet_syntax::error::INVALID_BYTE_SEQUENCE;
            return Err(EvalError::runtime(detail, at.clone()));
        }
        let program =
            puppet_syntax::parse_epp("inlined-epp-text", text.as_bytes()).map_err(|e| {
                let detail = self.ruby_error_text(&e).unwrap_or_else(|| {
                    issues::templates::invalid_epp("inline_epp", e.puppet_style())
                });
                EvalError::runtime(detail, at.clone())
            })?;
        self.render_epp(Arc::new(program), "inline_epp", scope, args, at)
    }

    fn render_epp(
        &mut self,
        program: Arc<Program>,
        function: &str,
        closure_scope: ScopeId,
        args: Option<&Value>,
        at: &Location,
    ) -> R<Value> {
        let Some(ExprKind::Epp { params, body }) = program.body.first().map(|e| &e.kind) else {
            return Err(EvalError::runtime(
                issues::templates::not_an_epp_expression(function),
                at.clone(),
            ));
        };
        if body.iter().any(puppet_syntax::validate::is_definition) {
            return Err(EvalError::runtime(
                issues::templates::epp_definitions(function),
                at.clone(),
            ));
        }
        let given: Vec<(puppet_model::value::Name, Value)> = match args {
            Some(Value::Hash(h)) => h
                .iter()
                .map(|(k, v)| (k.to_string().into(), v.clone()))
                .collect(),
            _ => Vec::new(),
        };
        // Parameters are enforced when declared, and when nothing is given.
        let enforce = params.is_some() || args.is_none();
        let ctx = Ctx {
            program: program.clone(),
        };
        let scope = self
            .scopes
            .push(Scope::new(ScopeKind::Local, Some(closure_scope), None));
        for (k, v) in &given {
            if !enforce || !v.is_undef() {
                self.scopes.get_mut(scope).vars.insert(k.clone(), v.clone());
            }
        }
        if enforce {
            let params = params.as_deref().unwrap_or_default();
            let mut specs = Vec::with_capacity(params.len());
            for p in params {
                let given_value = given.iter().find(|(k, _)| *k == p.name).map(|(_, v)| v);
                if given_value.is_none_or(Value::is_undef) {
                    match &p.default {
                        Some(d) => {
                            let v = self.eval(d, scope, &ctx)?;
                            self.scopes.get_mut(scope).vars.insert(p.name.clone(), v);
                        }
                        // Given as undef: bound to undef, then type-checked.
                        None if given_value.is_some() => {
                            self.scopes
                                .get_mut(scope)
                                .vars
                                .insert(p.name.clone(), Value::Undef);
                        }
                        None => {}
                    }
                }
                let ty = match &p.type_expr {
                    Some(t) => match self.parameter_type(p, t, scope, &ctx)? {
                        Value::Type(ref t) => (**t).clone(),
                        _ => PType::Any,
                    },
                    None => PType::Any,
                };
                specs.push(ParamSpec {
                    name: p.name.to_string(),
                    ty,
                    optional: p.default.is_some(),
                });
            }
            // What the template is called with: given names first, then the
            // defaults, as Puppet's parameter scope hash has them.
            let mut bound: Vec<(String, Value)> = Vec::new();
            for (k, _) in &given {
                if let Some(v) = self.scopes.get(scope).vars.get(k) {
                    bound.push((k.to_string(), v.clone()));
                }
            }
            for p in params {
                if !bound.iter().any(|(k, _)| **k == *p.name) {
                    if let Some(v) = self.scopes.get(scope).vars.get(&p.name) {
                        bound.push((p.name.to_string(), v.clone()));
                    }
                }
            }
            puppet_model::types::validate_parameters(CLOSURE_NAME, &specs, &bound, false)
                .map_err(|m| EvalError::runtime(m, at.clone()))?;
        }
        self.depth += 1;
        if self.depth > super::classes::MAX_EVAL_DEPTH {
            self.depth -= 1;
            return Err(EvalError::runtime(
                issues::classes::TOO_DEEP_NESTING,
                at.clone(),
            ));
        }
        self.host.begin_epp();
        let result = self.eval_block(body, scope, &ctx);
        let output = self.host.end_epp();
        self.depth -= 1;
        match result {
            Ok(_) => {
                // Joining the pieces fails as Ruby's `join` does, at the
                // template (`Error while evaluating an Epp Template, ...`).
                let binary = output.is_binary().map_err(|refusal| {
                    let template = &program.body[0];
                    self.wrap_detail(&ctx, template, refusal.to_string())
                })?;
                let text = if binary {
                    crate::bad_bytes::mark_binary(output.text.into())
                } else {
                    Value::string(output.text)
                };
                Ok(if output.sensitive {
                    Value::Sensitive(Arc::new(text))
                } else {
                    text
                })
            }
            // `return(v)` in a template: the function returns v, unchecked.
            Err(EvalError::Return(v, _)) => Ok(v),
            // `next(v)` ends the closure with v, which is then checked
            // against `epp`'s return type.
            Err(EvalError::Next(v, _)) => {
                let ty = PType::Variant(vec![
                    PType::STRING,
                    PType::Sensitive(Some(Box::new(PType::STRING))),
                ]);
                if puppet_model::types::is_instance(&ty, &v) {
                    Ok(v)
                } else {
                    Err(EvalError::runtime(
                        issues::templates::wrong_return_type(
                            function,
                            puppet_model::types::describe_mismatch(&ty, &v),
                        ),
                        at.clone(),
                    ))
                }
            }
            Err(e) => Err(e),
        }
    }
}
