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
use crate::syntax::ast::Lambda;
use crate::template::erb::cache::LoadError;
use crate::template::erb::function_file::Definition;

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
        let f = match self.env.ruby_functions.load(file) {
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
        if lambda.is_some() {
            return Err(fail(format!(
                "pverify does not pass a block to the Ruby function '{name}' ({shown})"
            )));
        }
        let mut host = ScopeHost {
            c: self,
            scope,
            ctx,
            at,
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
            Definition::V4 { dispatches, .. } => {
                let i = super::builtins::ruby_dispatch(name, dispatches, &args).map_err(fail)?;
                f.call_4x(&mut host, &dispatches[i].method, &args)
            }
        };
        result.map_err(|e| {
            fail(if e.line > 0 && e.message.starts_with("undefined ") {
                // An interpreter gap more often than a Ruby bug: say where.
                format!("{} ({shown}:{})", e.message, e.line)
            } else {
                e.message
            })
        })
    }
}
