//! Built-in functions beyond the catalog core (Puppet's function library):
//! one match arm per function. Returns `None` for names it does not know.

use super::compiler::Compiler;
use super::error::Location;
use super::expr::{Ctx, R};
use super::scope::ScopeId;
use super::value::Value;
use crate::syntax::ast::Lambda;

#[allow(clippy::too_many_arguments)]
pub fn call(
    _c: &mut Compiler<'_>,
    name: &str,
    _args: &[Value],
    _lambda: Option<&Lambda>,
    _scope: ScopeId,
    _ctx: &Ctx,
    _at: &Location,
) -> Option<R<Value>> {
    match name {
        _ => None,
    }
}
