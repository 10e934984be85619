//! Checks Puppet applies after parsing (its `Checker4_0`), where they are about
//! syntax: what may appear where, reserved names, node inheritance.

use super::ast::{Expr, ExprKind, Program};
use super::error::RawError;

/// The first validation error of a program, as Puppet reports it.
pub fn check(program: &Program) -> Result<(), RawError> {
    for e in &program.body {
        check_expr(e)?;
    }
    Ok(())
}

fn check_expr(e: &Expr) -> Result<(), RawError> {
    if let ExprKind::Node {
        parent: Some(parent),
        ..
    } = &e.kind
    {
        return Err(RawError::at(
            parent.span.start as usize,
            "Node inheritance is not supported in Puppet >= 4.0.0. See http://links.puppet.com/puppet-node-inheritance-deprecation",
        ));
    }
    let mut result = Ok(());
    super::visit::for_each_child(e, &mut |c| {
        if result.is_ok() {
            result = check_expr(c);
        }
    });
    result
}
