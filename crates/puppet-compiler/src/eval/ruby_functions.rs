//! Modules' Ruby functions (the 3.x `newfunction` API and the 4.x
//! `create_function` API) that the function library does not implement
//! natively: run by the Ruby-subset interpreter of ERB templates
//! (`crate::template::erb::function_file`), with Puppet's argument mapping,
//! dispatch and error texts.

use std::path::Path;

use super::compiler::Compiler;
use super::error::{EvalError, Location};
use super::expr::{Ctx, R};
use super::scope::ScopeId;
use super::templates_erb::ScopeHost;
use super::value::Value;
use crate::template::erb::cache::LoadError;
use crate::template::erb::function_file::{Definition, FunctionFile};
use puppet_syntax::ast::Lambda;

impl Compiler<'_> {
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn call_ruby_function(
        &mut self,
        name: &str,
        file: &Path,
        args: Vec<Value>,
        lambda: Option<&Lambda>,
        scope: ScopeId,
        ctx: &Ctx,
        at: &Location,
    ) -> R<Value> {
        let shown = file.display().to_string();
        let f = match self.env.ruby_functions.load(self.env.files(), file) {
            Ok(f) => f,
            Err(e) => {
                let why = match e {
                    LoadError::Read(m) => m,
                    LoadError::Syntax(e) => format!("line {}: {}", e.line, e.message),
                };
                return Err(EvalError::Issue {
                    detail: format!(
                        "pverify cannot run the Ruby function '{name}' ({shown}, {why}); \
                         mock it (--mock-functions) or leave its module out"
                    ),
                    at: at.clone(),
                });
            }
        };
        let fail = |m: String| EvalError::runtime(m, at.clone());
        if lambda.is_some() && matches!(f.def, Definition::V3 { .. }) {
            return Err(fail(format!(
                "pverify does not pass a block to the Ruby function '{name}' ({shown})"
            )));
        }
        // Ruby's own limit shows as SystemStackError; pverify stops well
        // before its stack would.
        if !self.host.enter_ruby() {
            return Err(fail("stack level too deep".into()));
        }
        let r = self.run_ruby_function(name, &f, args, lambda, scope, ctx, at, &shown);
        self.host.leave_ruby();
        r
    }

    #[allow(clippy::too_many_arguments)]
    fn run_ruby_function(
        &mut self,
        name: &str,
        f: &FunctionFile,
        args: Vec<Value>,
        lambda: Option<&Lambda>,
        scope: ScopeId,
        ctx: &Ctx,
        at: &Location,
        shown: &str,
    ) -> R<Value> {
        let fail = |m: String| EvalError::runtime(m, at.clone());
        let mut host = ScopeHost {
            c: self,
            scope,
            ctx,
            at,
            lambda,
            file: Some(std::path::Path::new(shown)),
        };
        let result = match &f.def {
            Definition::V3 { arity, .. } => {
                let given = args.len() as i64;
                if *arity >= 0 && given != *arity {
                    return Err(fail(format!(
                        "{name}(): Wrong number of arguments given ({given} for {arity})"
                    )));
                }
                if *arity < 0 && given < -arity - 1 {
                    return Err(fail(format!(
                        "{name}(): Wrong number of arguments given ({given} for minimum {})",
                        -arity - 1
                    )));
                }
                // Puppet's Runtime3FunctionArgumentConverter: a top-level
                // undef argument reaches a 3.x function as ''.
                let args: Vec<Value> = args
                    .into_iter()
                    .map(|a| if a.is_undef() { Value::string("") } else { a })
                    .collect();
                f.call_3x(&mut host, &args)
            }
            Definition::V4 {
                dispatches,
                prepends_scope,
                ..
            } => {
                // The scope is matched as an `Any` placeholder, then passed
                // by `call_4x` itself.
                let mut typed = args.clone();
                if *prepends_scope {
                    typed.insert(0, Value::Undef);
                }
                let i = super::builtins::ruby_dispatch(name, dispatches, &typed, lambda)
                    .map_err(fail)?;
                f.call_4x(&mut host, &dispatches[i], &args)
            }
        };
        result.map_err(|e| {
            // Puppet code's located error, not rescued on the way: as it is.
            if let Some(located) = self.host.take_located_error() {
                if located.message() == e.message {
                    self.host.set_error_class(Some(e.class));
                    return *located;
                }
            }
            self.host.set_error_class(Some(e.class));
            let from_callee = self.host.take_callee_error().as_deref() == Some(&e.message);
            // An exception raised further in, let through: its origin
            // stays the innermost one.
            if let Some(o) = self.host.error_origin() {
                if o.shown == e.message && from_callee {
                    return fail(e.message);
                }
            }
            self.host.set_error_origin(None);
            let gap = e.message.starts_with("undefined ") || e.message.starts_with("pverify");
            let text = if e.line > 0 && gap && !from_callee {
                // An interpreter gap (a method or construct the subset
                // lacks) more often than a Ruby bug: say where.
                format!("{} ({shown}:{})", e.message, e.line)
            } else {
                e.message.clone()
            };
            // Raised by this function's own code (not by a function it
            // called, whose frames pverify does not know).
            if e.line > 0 && !from_callee {
                self.host
                    .set_error_origin(Some(super::compiler::RubyErrorOrigin {
                        file: shown.to_string(),
                        line: e.line,
                        message: e.message,
                        shown: text.clone(),
                    }));
            }
            fail(text)
        })
    }
}
