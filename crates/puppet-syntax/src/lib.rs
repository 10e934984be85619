//! Lexer, parser, AST and syntax diagnostics for the Puppet language (Puppet 7).
//!
//! Entry point: [`parse`]. It never panics and never overflows the stack: every
//! failure is a [`SyntaxError`] naming file, line and column as Puppet does.

#![forbid(unsafe_code)]

pub mod ast;
pub mod definitions;
pub mod error;
pub mod lexer;
pub mod location;
mod parse_budget;
pub mod parser;
pub mod pn;
pub mod ruby_float;
pub mod ruby_regex;
pub mod span;
pub mod strictness;
pub mod token;
pub mod util;
pub mod validate;
pub mod visit;

pub use error::SyntaxError;
pub use location::{namespace_for_file, FileNamespace};
pub use strictness::{Severity, Validation};

/// Parses and validates one manifest that is not a module file. `path` is only
/// used in diagnostics.
pub fn parse(path: &str, source: &[u8]) -> Result<ast::Program, SyntaxError> {
    parser::parse_program(path, source, &FileNamespace::Unrestricted)
}

/// Parses and validates a manifest with the restrictions of its place in a
/// module (see [`namespace_for_file`]).
pub fn parse_in(
    path: &str,
    source: &[u8],
    namespace: &FileNamespace,
) -> Result<ast::Program, SyntaxError> {
    parser::parse_program(path, source, namespace)
}

/// Parses and validates an EPP template (`epp()`, `inline_epp()`). The body is
/// one [`ast::ExprKind::Epp`].
pub fn parse_epp(path: &str, source: &[u8]) -> Result<ast::Program, SyntaxError> {
    parser::parse_epp(path, source)
}
