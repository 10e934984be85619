//! Built-in functions beyond the catalog core: Puppet 7.23's function library
//! (`lib/puppet/functions`, 4.x API, and the 3.x `lib/puppet/parser/functions`
//! that have no 4.x version), one entry in [`call`]'s table per function.
//!
//! Each 4.x function has Puppet's signatures ([`Sig`]): a call is dispatched
//! to the first signature that takes its arguments and block, and a call no
//! signature takes fails with the text of Puppet's `describe_signatures`
//! (`'strip' parameter 'arg' expects a value of type Numeric, String, or
//! Iterable[Variant], got Boolean`). 3.x functions check only their arity, as
//! Puppet does (`sprintf(): Wrong number of arguments given (0 for minimum 1)`),
//! and see undef arguments as empty strings.
//!
//! Where this differs from Puppet, on purpose:
//! - Puppet's Iterators (`reverse_each` and `step` without a block, `slice`
//!   of an Iterator) are arrays here; Puppet refuses an Iterator as a value
//!   ("Use of an Iterator is not supported here"), so catalogs only ever
//!   iterate them further, which arrays do the same way.
//! - A URI in a catalog parameter is written as its string without
//!   Puppet's warning that it is converted; `to_yaml` refuses URIs.
//! - `Timestamp()` and the legacy `strftime(format)` read this machine's
//!   clock, as Puppet does; the timezone `current` is UTC here (pverify
//!   reads no local zone).
//! - Inside a collection, `String(ts, '%p')` and `String([ts])` show Ruby's
//!   `inspect` of a Timestamp or Timespan without its object address.
//!
//! Ruby semantics the functions rely on live here too: `format` (with the
//! digits of Ruby's `BSD__dtoa`, whose fast path rounds near ties to even),
//! `<=>`, `==`, `Integer()`/`Float()`, `inspect`, MT19937 `Random` (for
//! `fqdn_rand`), MD5/SHA-1/SHA-256.
//!
//! `epp` and `inline_epp` check their arguments here (`epp.rs`) and render
//! in `eval/templates_epp.rs`.
//!
//! Timestamps and Timespans: `Timestamp.new`, `Timespan.new` and
//! `strftime` in `time.rs`, the values in `eval/time`.
//!
//! SemVers and SemVerRanges: `SemVer.new` and `SemVerRange.new` in
//! `semver.rs`, the values (semantic_puppet's parsing, ordering and
//! matching) in `eval/semver`.
//!
//! Object types' `new` and `annotate` in `objects.rs`.
//!
//! Every function's name, origin and implementation is listed in
//! `registry.rs`, where calls' names are resolved. Not here: the
//! evaluator's functions (`lookup` and `hiera_*`, `template` and friends,
//! `include`, `each`, ...: `eval/functions.rs`; see
//! `tests/function_inventory.rs` for every Puppet function and why).
//!
//! Functions of modules (`modules.rs`: stdlib in `stdlib.rs` and
//! `stdlib_validate.rs`, others in `other_modules.rs`) are visible only
//! while their module is on the modulepath; a module's Ruby function not
//! implemented here fails naming its file (`modules::ruby_function_file`).

use puppet_syntax::util::NameStr as _;
use std::sync::Arc;

use super::compiler::Compiler;
use super::error::{EvalError, Location};
use super::scope::ScopeId;
use super::value::Value;
use crate::eval::expr::{Ctx, R};
use puppet_syntax::ast::Lambda;
// Ruby's library behaviour and types from their text, shared with the ERB
// interpreter below the evaluator.
use puppet_model::ruby::*;
use puppet_model::types::PType;

mod collections;
mod conversion;
mod create_resources;
mod digests;
mod epp;
mod files;
mod iteration;
pub mod modules;
mod numbers;
mod objects;
mod other_modules;
mod regex;
pub mod registry;
mod ruby;
mod ruby_dispatch;
mod ruby_format;
mod semver;
mod signatures;
mod stdlib;
mod stdlib_json;
mod stdlib_range;
mod stdlib_validate;
mod stdlib_yaml;
mod strings;
#[cfg(test)]
mod tests;
mod time;
mod tree_each;
mod uri;
mod variables;

use conversion::*;
use create_resources::*;
use epp::*;
pub(crate) use iteration::evaluator_dispatch;

/// Ruby's `to_s` of a value as Puppet interpolates it into an issue's
/// message (`The value '%{value}'`): a Regexp as `Regexp#to_s`. (A 3.x
/// function's arguments, `ruby::ruby_to_s`, show a Regexp as `/re/`.)
pub(crate) fn ruby_value_to_s(v: &Value) -> String {
    match v {
        Value::Regexp(src) => puppet_model::types::regex::ruby_to_s(src),
        other => ruby_to_s(other),
    }
}

/// Ruby's `==` of two values as Puppet hands them to Ruby.
pub(crate) fn ruby_equal(a: &Value, b: &Value) -> bool {
    ruby::ruby_eq(a, b)
}
pub use objects::{call_declared_function, is_object_member, object_member};
pub use ruby_dispatch::ruby_dispatch;

use ruby_format::*;
use signatures::*;
use tree_each::*;

type Builtin = fn(&mut Cx<'_, '_>, &[Value]) -> R<Value>;

/// Calls a library function of the table ([`registry::TABLE`]); an
/// evaluator's function is not one (`Compiler::call_function` runs those).
#[allow(clippy::too_many_arguments)]
pub(crate) fn call_library(
    c: &mut Compiler<'_>,
    entry: &registry::Entry,
    args: &[Value],
    lambda: Option<&Lambda>,
    scope: ScopeId,
    ctx: &Ctx,
    at: &Location,
) -> R<Value> {
    let registry::Imp::Library(f) = entry.imp else {
        unreachable!("'{}' is the evaluator's", entry.name)
    };
    let mut cx = Cx {
        c,
        name: entry.name,
        lambda,
        scope,
        ctx,
        at,
    };
    f(&mut cx, args)
}

/// A capitalised name's call: the type's `new` (`Integer('42')`).
pub(crate) fn call_type_new(
    c: &mut Compiler<'_>,
    name: &str,
    args: &[Value],
    lambda: Option<&Lambda>,
    scope: ScopeId,
    ctx: &Ctx,
    at: &Location,
) -> R<Value> {
    let t = match resolve_type_name(c, name) {
        Ok(Some(t)) => t,
        Ok(None) => {
            return Err(EvalError::Issue {
                detail: format!("Resource type not found: {}", name.trim_colons()),
                at: at.clone(),
            })
        }
        Err(EvalError::Runtime {
            while_evaluating,
            detail,
            at: Location { file: None, .. },
        }) => {
            return Err(EvalError::Runtime {
                while_evaluating,
                detail,
                at: at.clone(),
            })
        }
        Err(e) => return Err(e),
    };
    let mut cx = Cx {
        c,
        name: "new",
        lambda,
        scope,
        ctx,
        at,
    };
    let mut all_args = vec![Value::Type(Arc::new(t))];
    all_args.extend(args.iter().cloned());
    new(&mut cx, &all_args)
}

/// A capitalised name as a type: a data type, a type alias, or a resource
/// type (whose `new` Puppet does not support).
fn resolve_type_name(c: &mut Compiler<'_>, name: &str) -> R<Option<PType>> {
    let bare = name.trim_colons();
    if let Some(t) = puppet_model::types::type_by_name(bare) {
        return Ok(Some(t));
    }
    // An Object type's definition errors: "Error while evaluating a Type-Name".
    let nested = c.defs.resolving_any_object();
    let found = c.find_type_alias(bare).map_err(|err| match err {
        EvalError::Runtime {
            while_evaluating: None,
            detail,
            at: Location { file: None, .. },
        } if !nested => EvalError::Runtime {
            while_evaluating: Some("a Type-Name".into()),
            detail,
            at: Location::default(),
        },
        other => other,
    })?;
    if let Some(t) = found {
        return Ok(Some(t));
    }
    let key = bare.to_lowercase();
    if c.is_ruby_type(&key) || c.find_define(&key)?.is_some() {
        return Ok(Some(crate::eval::expr::type_reference(bare)));
    }
    Ok(None)
}

/// One call: the compiler, the function's name, its block and where it is.
struct Cx<'a, 'e> {
    c: &'a mut Compiler<'e>,
    name: &'a str,
    lambda: Option<&'a Lambda>,
    scope: ScopeId,
    ctx: &'a Ctx,
    at: &'a Location,
}

impl Cx<'_, '_> {
    fn err(&self, msg: impl Into<String>) -> EvalError {
        EvalError::runtime(msg, self.at.clone())
    }

    fn fail<T>(&self, msg: impl Into<String>) -> R<T> {
        Err(self.err(msg))
    }

    /// Calls the block (the caller has checked there is one).
    fn yield_(&mut self, args: &[Value]) -> R<Value> {
        match self.lambda {
            Some(l) => self.c.call_lambda(l, args, self.scope, self.ctx),
            None => Ok(Value::Undef),
        }
    }

    /// Calls the block; `false` when it calls `break()` (for the functions
    /// whose Ruby loop ends on `StopIteration`: `slice`, and `reverse_each`
    /// and `step` through their iterators).
    fn yield_or_stop(&mut self, args: &[Value]) -> R<bool> {
        match self.yield_(args) {
            Ok(_) => Ok(true),
            Err(EvalError::Break(_)) => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// The index of the first signature that takes the arguments and block,
    /// or Puppet's error for a call none takes.
    fn dispatch(&self, sigs: &[Sig], args: &[Value]) -> R<usize> {
        match sigs.iter().position(|s| s.accepts(args, self.lambda)) {
            Some(i) => Ok(i),
            None => self.fail(describe_signatures(self.name, sigs, args, self.lambda)),
        }
    }

    /// A 3.x function's arity check: `n` arguments, or at least `-n - 1`
    /// when `n` is negative.
    fn arity3(&self, args: &[Value], n: i64) -> R<()> {
        let given = args.len() as i64;
        if n >= 0 && given != n {
            return self.fail(format!(
                "{}(): Wrong number of arguments given ({given} for {n})",
                self.name
            ));
        }
        if n < 0 && given < -n - 1 {
            return self.fail(format!(
                "{}(): Wrong number of arguments given ({given} for minimum {})",
                self.name,
                -n - 1
            ));
        }
        Ok(())
    }

    /// A deprecation warning Puppet logs once per compile, without a place.
    fn warn_once(&mut self, msg: &str) {
        if self
            .c
            .warnings_disabled(crate::settings::WarningKind::Deprecations)
        {
            return;
        }
        let text = format!("{msg}\n   (file & line not available)");
        if !self.c.warnings.contains(&text) {
            self.c.warnings.push(text);
        }
    }

    /// A deprecation warning Puppet logs once per place.
    fn warn_once_here(&mut self, msg: &str) {
        if self
            .c
            .warnings_disabled(crate::settings::WarningKind::Deprecations)
        {
            return;
        }
        let text = match (&self.at.file, self.at.line) {
            (Some(f), Some(l)) => format!("{msg}\n   (file: {f}, line: {l})"),
            _ => format!("{msg}\n   (file & line not available)"),
        };
        if !self.c.warnings.contains(&text) {
            self.c.warnings.push(text);
        }
    }
}

/// How many arguments a lambda takes: its required parameters up to all of
/// them (`usize::MAX` with a captures-rest parameter).
fn lambda_range(l: &Lambda) -> (usize, usize) {
    let min = l
        .params
        .iter()
        .filter(|p| p.default.is_none() && !p.captures_rest)
        .count();
    let max = if l.params.iter().any(|p| p.captures_rest) {
        usize::MAX
    } else {
        l.params.len()
    };
    (min, max)
}

/// Ruby's `Proc#arity` of a lambda: the parameter count, or `-(required + 1)`
/// when some are optional.
fn lambda_ruby_arity(l: &Lambda) -> i64 {
    let (min, max) = lambda_range(l);
    if min == max {
        min as i64
    } else {
        -(min as i64) - 1
    }
}

/// A sub-context named as Puppet names a type's `new` function in its
/// errors (`new_Version`, `new_error`, ...): for the `new` of Timestamp,
/// Timespan, SemVer, SemVerRange and URI.
fn named<'a, 'b>(cx: &'a mut Cx<'_, 'b>, name: &'static str) -> Cx<'a, 'b> {
    Cx {
        c: &mut *cx.c,
        name,
        lambda: None,
        scope: cx.scope,
        ctx: cx.ctx,
        at: cx.at,
    }
}
