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
//! - `Timespan`, `Timestamp`, `SemVer`, `Binary` and `URI` values do not
//!   exist here: their `new` and the functions on them are not supported.
//!
//! Ruby semantics the functions rely on live here too: `format` (with the
//! digits of Ruby's `BSD__dtoa`, whose fast path rounds near ties to even),
//! `<=>`, `==`, `Integer()`/`Float()`, `inspect`, MT19937 `Random` (for
//! `fqdn_rand`), MD5/SHA-1/SHA-256.
//!
//! Not here: `lookup` and `hiera_*` (Hiera), `epp`/`template` and friends,
//! the file-reading functions (`file`, `find_file`, `module_directory`...),
//! `call`, `tree_each`, `strftime`, `scanf`, `generate`.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

use super::compiler::Compiler;
use super::error::{EvalError, Location};
use super::expr::{Ctx, R};
use super::scope::ScopeId;
use super::value::{Map, Value};
use crate::syntax::ast::Lambda;
use crate::types::{AliasTarget, Mismatch, MismatchKind, PType, PathElement};

type Builtin = fn(&mut Cx<'_, '_>, &[Value]) -> R<Value>;

/// The function `name`, if it is one of this library's: `None` otherwise.
/// A capitalised name is a type's `new` (`Integer('42')`).
#[allow(clippy::too_many_arguments)]
pub fn call(
    c: &mut Compiler<'_>,
    name: &str,
    args: &[Value],
    lambda: Option<&Lambda>,
    scope: ScopeId,
    ctx: &Ctx,
    at: &Location,
) -> Option<R<Value>> {
    let f: Builtin = match name {
        "abs" => abs,
        "all" => all,
        "any" => any,
        "camelcase" => camelcase,
        "capitalize" => capitalize,
        "ceiling" => ceiling,
        "chomp" => chomp,
        "chop" => chop,
        "compare" => compare,
        "convert_to" => convert_to,
        "create_resources" => create_resources,
        "digest" => digest,
        "downcase" => downcase,
        "empty" => empty,
        "flatten" => flatten,
        "floor" => floor,
        "fqdn_rand" => fqdn_rand,
        "get" => get,
        "getvar" => getvar,
        "group_by" => group_by,
        "import" => import,
        "index" => index,
        "join" => join,
        "length" => length,
        "lest" => lest,
        "lstrip" => lstrip,
        "match" => match_,
        "max" => max,
        "md5" => md5,
        "min" => min,
        "new" => new,
        "partition" => partition,
        "regsubst" => regsubst,
        "reverse_each" => reverse_each,
        "round" => round,
        "rstrip" => rstrip,
        "sha1" => sha1,
        "sha256" => sha256,
        "shellquote" => shellquote,
        "size" => size,
        "slice" => slice,
        "sort" => sort,
        "sprintf" => sprintf,
        "step" => step,
        "strip" => strip,
        "then" => then,
        "type" => type_,
        "unique" => unique,
        "unwrap" => unwrap,
        "upcase" => upcase,
        "versioncmp" => versioncmp,
        _ => {
            let first = name.trim_start_matches("::").chars().next();
            if !first.is_some_and(|c| c.is_ascii_uppercase()) {
                return None;
            }
            // `Integer('42')`: the type's `new`.
            let t = match resolve_type_name(c, name) {
                Ok(Some(t)) => t,
                Ok(None) => {
                    return Some(Err(EvalError::Issue {
                        detail: format!(
                            "Resource type not found: {}",
                            name.trim_start_matches("::")
                        ),
                        at: at.clone(),
                    }))
                }
                Err(e) => return Some(Err(e)),
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
            return Some(new(&mut cx, &all_args));
        }
    };
    let mut cx = Cx {
        c,
        name,
        lambda,
        scope,
        ctx,
        at,
    };
    Some(f(&mut cx, args))
}

/// A capitalised name as a type: a data type, a type alias, or a resource
/// type (whose `new` Puppet does not support).
fn resolve_type_name(c: &mut Compiler<'_>, name: &str) -> R<Option<PType>> {
    let bare = name.trim_start_matches("::");
    if let Some(t) = crate::types::type_by_name(bare) {
        return Ok(Some(t));
    }
    if let Some(t) = c.find_type_alias(bare)? {
        return Ok(Some(t));
    }
    let key = bare.to_lowercase();
    if super::resources::BUILTIN_TYPES.contains(&key.as_str()) || c.find_define(&key)?.is_some() {
        return Ok(Some(super::expr::type_reference(bare)));
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
            Err(EvalError::Break) => Ok(false),
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
        let text = format!("{msg}\n   (file & line not available)");
        if !self.c.warnings.contains(&text) {
            self.c.warnings.push(text);
        }
    }

    /// A deprecation warning Puppet logs once per place.
    fn warn_once_here(&mut self, msg: &str) {
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

// ---------------------------------------------------------------------------
// Types written as Puppet writes them, for signatures.

thread_local! {
    static TYPES: RefCell<HashMap<String, PType>> = RefCell::new(HashMap::new());
}

/// The type a signature names (`Iterable[Variant[String, Numeric]]`), parsed
/// once per thread.
fn ty(src: &str) -> PType {
    if let Some(t) = TYPES.with(|m| m.borrow().get(src).cloned()) {
        return t;
    }
    let t = match TypeParser::new(src).value() {
        Value::Type(t) => (*t).clone(),
        _ => PType::Any,
    };
    TYPES.with(|m| m.borrow_mut().insert(src.to_string(), t.clone()));
    t
}

/// Types the functions define locally (`local_types`).
fn local_type(name: &str) -> Option<PType> {
    Some(match name {
        // StringData = Variant[String, Numeric, Array[StringData], Hash[StringData, StringData]]
        "StringData" => {
            let target = AliasTarget::new();
            let alias = PType::alias("StringData", target.clone());
            let _ = target.set(PType::Variant(vec![
                PType::STRING,
                PType::Numeric,
                PType::array(alias.clone(), None),
                PType::hash(alias.clone(), alias.clone(), None),
            ]));
            alias
        }
        "Comparable" => PType::alias(
            "Comparable",
            AliasTarget::resolved(ty("Variant[String, SemVer, TimeComparable]")),
        ),
        "TreeArray" => PType::alias(
            "TreeArray",
            AliasTarget::resolved(ty("Array[Tuple[Array, Any], 1]")),
        ),
        "KeyValueArray" => PType::alias(
            "KeyValueArray",
            AliasTarget::resolved(ty("Array[Tuple[Any, Any], 1]")),
        ),
        "NewHashOption" => PType::alias(
            "NewHashOption",
            AliasTarget::resolved(ty("Enum[tree, hash_tree]")),
        ),
        "TimeComparable" => PType::alias(
            "TimeComparable",
            AliasTarget::resolved(ty("Variant[Numeric, Timespan, Timestamp]")),
        ),
        _ => return None,
    })
}

/// A tiny reader of Puppet type expressions: names, `[...]` arguments,
/// integers, quoted strings, regexes, `default`, bare words and `{k => v}`.
struct TypeParser<'s> {
    s: &'s [u8],
    src: &'s str,
    i: usize,
}

impl<'s> TypeParser<'s> {
    fn new(src: &'s str) -> Self {
        TypeParser {
            s: src.as_bytes(),
            src,
            i: 0,
        }
    }

    fn ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    fn peek(&mut self) -> u8 {
        self.ws();
        self.s.get(self.i).copied().unwrap_or(0)
    }

    fn list(&mut self, close: u8) -> Vec<Value> {
        let mut out = Vec::new();
        self.i += 1;
        while self.peek() != close && self.peek() != 0 {
            out.push(self.value());
            if self.peek() == b',' {
                self.i += 1;
            }
        }
        self.i += 1;
        out
    }

    fn value(&mut self) -> Value {
        match self.peek() {
            b'\'' => {
                let start = self.i + 1;
                let end = start + self.src[start..].find('\'').unwrap_or(0);
                self.i = end + 1;
                Value::string(&self.src[start..end])
            }
            b'/' => {
                let start = self.i + 1;
                let mut j = start;
                while j < self.s.len() && self.s[j] != b'/' {
                    if self.s[j] == b'\\' {
                        j += 1;
                    }
                    j += 1;
                }
                self.i = j + 1;
                Value::Regexp(self.src[start..j.min(self.s.len())].into())
            }
            b'{' => {
                self.i += 1;
                let mut m = Map::new();
                while self.peek() != b'}' && self.peek() != 0 {
                    let k = self.value();
                    self.ws();
                    if self.src[self.i..].starts_with("=>") {
                        self.i += 2;
                    }
                    let v = self.value();
                    m.insert(k, v);
                    if self.peek() == b',' {
                        self.i += 1;
                    }
                }
                self.i += 1;
                Value::hash(m)
            }
            c if c == b'-' || c.is_ascii_digit() => {
                let start = self.i;
                self.i += 1;
                while self.i < self.s.len() && self.s[self.i].is_ascii_digit() {
                    self.i += 1;
                }
                Value::Integer(self.src[start..self.i].parse().unwrap_or(0))
            }
            _ => {
                let start = self.i;
                while self.i < self.s.len()
                    && (self.s[self.i].is_ascii_alphanumeric()
                        || self.s[self.i] == b'_'
                        || self.s[self.i] == b':')
                {
                    self.i += 1;
                }
                let word = &self.src[start..self.i];
                if word == "default" {
                    return Value::Default;
                }
                if word.is_empty() {
                    self.i += 1;
                    return Value::Undef;
                }
                if !word.starts_with(|c: char| c.is_ascii_uppercase()) {
                    return Value::string(word);
                }
                let base = local_type(word)
                    .or_else(|| crate::types::type_by_name(word))
                    .unwrap_or(PType::Any);
                if self.peek() == b'[' {
                    let args = self.list(b']');
                    match crate::types::access(&base, &args) {
                        Ok(v) => v,
                        Err(_) => Value::Type(Arc::new(base)),
                    }
                } else {
                    Value::Type(Arc::new(base))
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Signatures and Puppet's texts for calls that match none.

/// A function's block: none, required, or optional, by its `Callable` type.
#[derive(Clone, Copy)]
enum Blk {
    No,
    Req(&'static str),
    Opt(&'static str),
}

/// One of a function's signatures (a `dispatch`): typed, named parameters,
/// the first `required` of them required, the last repeated when `rest`.
#[derive(Clone, Copy)]
struct Sig {
    params: &'static [(&'static str, &'static str)],
    required: usize,
    rest: bool,
    block: Blk,
}

const fn sig(params: &'static [(&'static str, &'static str)]) -> Sig {
    Sig {
        params,
        required: params.len(),
        rest: false,
        block: Blk::No,
    }
}

impl Sig {
    /// Only the first `n` parameters are required.
    const fn opt(self, n: usize) -> Sig {
        Sig {
            required: n,
            ..self
        }
    }

    /// The last parameter is repeated (`repeated_param`: `n` required in all).
    const fn rest(self, n: usize) -> Sig {
        Sig {
            required: n,
            rest: true,
            ..self
        }
    }

    const fn block(self, t: &'static str) -> Sig {
        Sig {
            block: Blk::Req(t),
            ..self
        }
    }

    const fn opt_block(self, t: &'static str) -> Sig {
        Sig {
            block: Blk::Opt(t),
            ..self
        }
    }

    fn max(&self) -> usize {
        if self.rest {
            usize::MAX
        } else {
            self.params.len()
        }
    }

    fn param(&self, i: usize) -> (&'static str, &'static str) {
        self.params[i.min(self.params.len() - 1)]
    }

    fn accepts(&self, args: &[Value], lambda: Option<&Lambda>) -> bool {
        if args.len() < self.required || args.len() > self.max() {
            return false;
        }
        let types_ok = args
            .iter()
            .enumerate()
            .all(|(i, a)| crate::types::is_instance(&ty(self.param(i).0), a));
        types_ok
            && match (self.block, lambda) {
                (Blk::No, None) | (Blk::Opt(_), None) => true,
                (Blk::No, Some(_)) | (Blk::Req(_), None) => false,
                (Blk::Req(t) | Blk::Opt(t), Some(l)) => match callable_range(t) {
                    None => true,
                    Some((bmin, bmax)) => {
                        let (lmin, lmax) = lambda_range(l);
                        lmin <= bmin && bmax <= lmax
                    }
                },
            }
    }

    /// Puppet's `signature_string`: `String str, Integer n?, Any args*`.
    fn describe(&self) -> String {
        let mut parts = Vec::new();
        for (i, (t, n)) in self.params.iter().enumerate() {
            let mut t = ty(t);
            let indicator = if self.rest && i == self.params.len() - 1 {
                if self.required == self.params.len() {
                    "+"
                } else {
                    "*"
                }
            } else if i >= self.required {
                if let PType::Optional(Some(inner)) = t {
                    t = *inner;
                }
                "?"
            } else {
                ""
            };
            parts.push(format!("{t} {n}{indicator}"));
        }
        match self.block {
            Blk::No => {}
            Blk::Req(t) => parts.push(format!("{} block", ty(t))),
            Blk::Opt(t) => parts.push(format!("{} block?", ty(t))),
        }
        parts.join(", ")
    }
}

/// The argument counts a block type takes (`Callable[1, 2]`); `None` for a
/// plain `Callable`, which takes any block.
fn callable_range(t: &str) -> Option<(usize, usize)> {
    let inner = t.strip_prefix("Callable[")?.strip_suffix(']')?;
    let nums: Vec<usize> = inner
        .split(',')
        .filter_map(|s| s.trim().parse().ok())
        .collect();
    Some(match nums.as_slice() {
        [a, b] => (*a, *b),
        [a] => (*a, *a),
        _ => (1, 1),
    })
}

/// What is wrong with a call for one signature.
#[derive(Clone, Debug, PartialEq)]
enum SigError {
    /// `expects 2 arguments, got 3` (of the block's parameters when `block`).
    Count {
        expected: (usize, usize),
        actual: (usize, usize),
        block: bool,
    },
    MissingBlock,
    UnexpectedBlock,
    /// A parameter's value (a type, pattern or size mismatch).
    Arg(Mismatch),
}

impl SigError {
    /// The mismatch class Puppet merges by (`CountMismatch`,
    /// `MissingRequiredBlock`, `UnexpectedBlock`, `TypeMismatch`).
    fn class(&self) -> u8 {
        match self {
            SigError::Count { .. } => 0,
            SigError::MissingBlock => 1,
            SigError::UnexpectedBlock => 2,
            SigError::Arg(m) => match m.kind {
                MismatchKind::Type { .. } | MismatchKind::Pattern { .. } => 3,
                _ => 4,
            },
        }
    }

    fn path(&self) -> String {
        match self {
            SigError::Count { block: true, .. } => "block".into(),
            SigError::Arg(m) => format!("{:?}", m.path),
            _ => String::new(),
        }
    }

    fn merge(&self, other: &SigError) -> SigError {
        match (self, other) {
            (
                SigError::Count {
                    expected: a,
                    actual,
                    block,
                },
                SigError::Count { expected: b, .. },
            ) => SigError::Count {
                expected: (a.0.min(b.0), a.1.max(b.1)),
                actual: *actual,
                block: *block,
            },
            (SigError::Arg(a), SigError::Arg(b)) => {
                let (ea, actual, pattern) = match &a.kind {
                    MismatchKind::Type { expected, actual } => (expected, actual, false),
                    MismatchKind::Pattern { expected, actual } => (expected, actual, true),
                    _ => return self.clone(),
                };
                let eb = match &b.kind {
                    MismatchKind::Type { expected, .. }
                    | MismatchKind::Pattern { expected, .. } => expected,
                    _ => return self.clone(),
                };
                let mut list: Vec<PType> = Vec::new();
                for t in [ea, eb] {
                    let members = match t {
                        PType::Variant(ts) => ts.clone(),
                        t => vec![t.clone()],
                    };
                    for m in members {
                        if !list.contains(&m) {
                            list.push(m);
                        }
                    }
                }
                let expected = match PType::Variant(list).normalize() {
                    PType::Variant(ts) if ts.len() == 1 => ts[0].clone(),
                    t => t,
                };
                SigError::Arg(Mismatch {
                    path: a.path.clone(),
                    kind: if pattern {
                        MismatchKind::Pattern {
                            expected,
                            actual: actual.clone(),
                        }
                    } else {
                        MismatchKind::Type {
                            expected,
                            actual: actual.clone(),
                        }
                    },
                })
            }
            _ => self.clone(),
        }
    }

    /// Puppet's `format` without the signature: ` parameter 'x' expects ...`.
    fn format(&self) -> String {
        match self {
            SigError::Count {
                expected,
                actual,
                block,
            } => {
                let (min, max) = *expected;
                let suffix =
                    if (min == 1 && (max == 1 || max == usize::MAX)) || (min == 0 && max == 1) {
                        ""
                    } else {
                        "s"
                    };
                format!(
                    "{} expects {} argument{suffix}, got {}",
                    if *block { " block" } else { "" },
                    range_text(*expected, "no"),
                    range_text(*actual, "none")
                )
            }
            SigError::MissingBlock => " expects a block".into(),
            SigError::UnexpectedBlock => " does not expect a block".into(),
            SigError::Arg(m) => m.format(),
        }
    }
}

fn range_text((min, max): (usize, usize), zero: &str) -> String {
    if min == max {
        if min == 0 {
            zero.to_string()
        } else {
            min.to_string()
        }
    } else if min == 0 {
        if max == usize::MAX {
            "unlimited".into()
        } else {
            format!("at most {max}")
        }
    } else if max == usize::MAX {
        format!("at least {min}")
    } else {
        format!("between {min} and {max}")
    }
}

/// Puppet's `TypeMismatchDescriber#describe_signatures`.
fn describe_signatures(
    name: &str,
    sigs: &[Sig],
    args: &[Value],
    lambda: Option<&Lambda>,
) -> String {
    let mut arrays: Vec<Vec<SigError>> = sigs.iter().map(|s| arg_errors(s, args)).collect();
    if !arrays.iter().all(|a| !a.is_empty()) {
        let blocks: Vec<Vec<SigError>> = sigs.iter().map(|s| block_errors(s, lambda)).collect();
        let bc = blocks.iter().filter(|a| !a.is_empty()).count();
        if bc == blocks.len() {
            arrays = blocks;
        } else if bc > 0 {
            for (a, b) in arrays.iter_mut().zip(blocks) {
                if a.is_empty() {
                    *a = b;
                }
            }
        }
    }
    let label = format!("'{name}'");
    let errors = merge_descriptions(&arrays);
    if errors.len() == 1 {
        return format!("{label}{}", errors[0].format());
    }
    let mut out = Vec::new();
    if sigs.len() == 1 {
        out.push(format!("{label} expects ({})", sigs[0].describe()));
        for e in &arrays[0] {
            out.push(format!("  rejected:{}", e.format()));
        }
    } else {
        out.push(format!(
            "The function {label} was called with arguments it does not accept. It expects one of:"
        ));
        for (s, errs) in sigs.iter().zip(&arrays) {
            out.push(format!("  ({})", s.describe()));
            for e in errs {
                out.push(format!("    rejected:{}", e.format()));
            }
        }
    }
    out.join("\n")
}

fn arg_errors(s: &Sig, args: &[Value]) -> Vec<SigError> {
    let n = args.len();
    if n < s.required || n > s.max() {
        return vec![SigError::Count {
            expected: (s.required, s.max()),
            actual: (n, n),
            block: false,
        }];
    }
    for (i, a) in args.iter().enumerate() {
        let (t, pname) = s.param(i);
        let t = ty(t);
        if !crate::types::is_instance(&t, a) {
            let d = crate::types::describe(
                &t,
                &crate::types::infer_set(a),
                &[PathElement::Parameter(pname.to_string())],
            );
            if !d.is_empty() {
                return d.into_iter().map(SigError::Arg).collect();
            }
        }
    }
    Vec::new()
}

fn block_errors(s: &Sig, lambda: Option<&Lambda>) -> Vec<SigError> {
    match (s.block, lambda) {
        (Blk::No, Some(_)) => vec![SigError::UnexpectedBlock],
        (Blk::Req(_), None) => vec![SigError::MissingBlock],
        (Blk::Req(t) | Blk::Opt(t), Some(l)) => match callable_range(t) {
            None => Vec::new(),
            Some((bmin, bmax)) => {
                let (lmin, lmax) = lambda_range(l);
                // Puppet's describer compares the other way round from its
                // assignability check: the block's count must take the
                // lambda's.
                if bmin <= lmin && lmax <= bmax {
                    Vec::new()
                } else {
                    vec![SigError::Count {
                        expected: (bmin, bmax),
                        actual: (lmin, lmax),
                        block: true,
                    }]
                }
            }
        },
        _ => Vec::new(),
    }
}

fn merge_descriptions(arrays: &[Vec<SigError>]) -> Vec<SigError> {
    let flat: Vec<&SigError> = arrays.iter().flatten().collect();
    for class in 0..4u8 {
        let ms: Vec<&&SigError> = flat.iter().filter(|e| e.class() == class).collect();
        if ms.len() == arrays.len() && !ms.is_empty() {
            let p = ms[0].path();
            if ms.iter().all(|m| m.path() == p) {
                let mut merged = (*ms[0]).clone();
                for m in &ms[1..] {
                    merged = merged.merge(m);
                }
                return vec![merged];
            }
        }
    }
    let mut out: Vec<SigError> = Vec::new();
    for e in flat {
        if !out.contains(e) {
            out.push(e.clone());
        }
    }
    out
}

// ---------------------------------------------------------------------------
// Values as Ruby sees them.

/// The most elements an iteration may produce here (a larger Integer range
/// would not fit in memory; Puppet would take hours over it).
const MAX_ITERATION: i64 = 50_000_000;

/// Puppet's `Iterable.on`: the elements, and whether they are hash entries
/// (`[key, value]` pairs). `None` for a value that is not iterable.
fn iterable(v: &Value) -> Option<(Vec<Value>, bool)> {
    match v {
        Value::Array(a) => Some((a.to_vec(), false)),
        Value::Hash(h) => Some((
            h.iter()
                .map(|(k, v)| Value::array(vec![k.clone(), v.clone()]))
                .collect(),
            true,
        )),
        Value::String(s) => Some((
            s.chars().map(|c| Value::string(c.to_string())).collect(),
            false,
        )),
        Value::Integer(n) if *n >= 0 && *n <= MAX_ITERATION => {
            Some(((0..*n).map(Value::Integer).collect(), false))
        }
        Value::Type(t) => type_iterable(t),
        _ => None,
    }
}

fn type_iterable(t: &PType) -> Option<(Vec<Value>, bool)> {
    match t {
        PType::Integer { from, to }
            if *from != i64::MIN
                && *to != i64::MAX
                && to >= from
                && to.saturating_sub(*from) < MAX_ITERATION =>
        {
            Some(((*from..=*to).map(Value::Integer).collect(), false))
        }
        PType::Enum { values, .. } => Some((
            values.iter().map(|s| Value::string(s.as_str())).collect(),
            false,
        )),
        PType::TypeAlias { .. } => t.alias_target().and_then(|r| type_iterable(&r)),
        _ => None,
    }
}

/// Ruby's `to_s` of a value as a Ruby function receives it.
fn ruby_to_s(v: &Value) -> String {
    match v {
        Value::Undef => String::new(),
        Value::Array(_) | Value::Hash(_) => ruby_inspect(v),
        other => other.to_string(),
    }
}

/// Ruby's `inspect` of a value as a Ruby function receives it.
fn ruby_inspect(v: &Value) -> String {
    match v {
        Value::Undef => "nil".into(),
        Value::Default => ":default".into(),
        Value::String(s) => crate::catalog::names::ruby_inspect_str(s),
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(ruby_inspect).collect();
            format!("[{}]", parts.join(", "))
        }
        Value::Hash(h) => {
            let parts: Vec<String> = h
                .iter()
                .map(|(k, v)| format!("{}=>{}", ruby_inspect(k), ruby_inspect(v)))
                .collect();
            format!("{{{}}}", parts.join(", "))
        }
        Value::Sensitive(_) => "#<Sensitive [value redacted]>".into(),
        other => other.to_string(),
    }
}

/// The name of a value's Ruby class, or its `inspect` for Ruby's special
/// constants, as `rb_cmperr` shows the right operand.
fn ruby_cmp_operand(v: &Value) -> String {
    match v {
        Value::Undef | Value::Boolean(_) | Value::Integer(_) | Value::Float(_) | Value::Default => {
            ruby_inspect(v)
        }
        other => crate::types::parse::ruby_class(other),
    }
}

/// Ruby's `<=>` on the values Puppet passes to Ruby.
fn ruby_cmp(a: &Value, b: &Value) -> Option<std::cmp::Ordering> {
    use std::cmp::Ordering;
    match (a, b) {
        (Value::Integer(x), Value::Integer(y)) => Some(x.cmp(y)),
        (Value::Integer(x), Value::Float(y)) => (*x as f64).partial_cmp(y),
        (Value::Float(x), Value::Integer(y)) => x.partial_cmp(&(*y as f64)),
        (Value::Float(x), Value::Float(y)) => x.partial_cmp(y),
        (Value::String(x), Value::String(y)) => Some(x.as_bytes().cmp(y.as_bytes())),
        (Value::Array(x), Value::Array(y)) => {
            for (p, q) in x.iter().zip(y.iter()) {
                match ruby_cmp(p, q)? {
                    Ordering::Equal => {}
                    o => return Some(o),
                }
            }
            Some(x.len().cmp(&y.len()))
        }
        _ if ruby_eq(a, b) => Some(Ordering::Equal),
        _ => None,
    }
}

fn cmp_error(a: &Value, b: &Value) -> String {
    format!(
        "comparison of {} with {} failed",
        crate::types::parse::ruby_class(a),
        ruby_cmp_operand(b)
    )
}

/// Ruby's `==` on the values Puppet passes to Ruby (`1 == 1.0`, strings
/// case-sensitively).
fn ruby_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Integer(x), Value::Float(y)) | (Value::Float(y), Value::Integer(x)) => {
            (*x as f64) == *y
        }
        (Value::Float(x), Value::Float(y)) => x == y,
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| ruby_eq(p, q))
        }
        (Value::Hash(x), Value::Hash(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| ruby_eq(v, w)))
        }
        _ => a == b,
    }
}

/// Sorts by Ruby's `<=>`, failing as Ruby does on incomparable elements.
fn ruby_sort(items: &mut [Value]) -> Result<(), String> {
    for w in items.windows(2) {
        if ruby_cmp(&w[0], &w[1]).is_none() {
            return Err(cmp_error(&w[0], &w[1]));
        }
    }
    let mut bad = None;
    items.sort_by(|a, b| match ruby_cmp(a, b) {
        Some(o) => o,
        None => {
            if bad.is_none() {
                bad = Some(cmp_error(a, b));
            }
            std::cmp::Ordering::Equal
        }
    });
    match bad {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// The Ruby class name of a value, as `%{klass}` shows it.
fn ruby_class(v: &Value) -> String {
    crate::types::parse::ruby_class(v)
}

fn type_value(t: PType) -> Value {
    Value::Type(Arc::new(t))
}

fn label(v: &Value) -> String {
    crate::types::parse::label_value(v)
}

// ---------------------------------------------------------------------------
// Strings.

const STRING_OR_ITERABLE: [Sig; 3] = [
    sig(&[("Numeric", "arg")]),
    sig(&[("String", "arg")]),
    sig(&[("Iterable[Variant[String, Numeric]]", "arg")]),
];

/// Numbers as they are, strings through `f`, iterables element by element.
fn string_op(cx: &mut Cx<'_, '_>, args: &[Value], f: fn(&str) -> String) -> R<Value> {
    match cx.dispatch(&STRING_OR_ITERABLE, args)? {
        0 => Ok(args[0].clone()),
        1 => Ok(Value::string(f(args[0].as_str().unwrap_or_default()))),
        _ => {
            let (items, _) = iterable(&args[0]).unwrap_or_default();
            Ok(Value::array(
                items
                    .into_iter()
                    .map(|x| match x {
                        Value::String(s) => Value::string(f(&s)),
                        other => other,
                    })
                    .collect(),
            ))
        }
    }
}

fn is_ruby_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\x0b' | '\x0c' | '\r' | '\0')
}

fn strip(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    string_op(cx, args, |s| s.trim_matches(is_ruby_space).to_string())
}

fn lstrip(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    string_op(cx, args, |s| {
        s.trim_start_matches(is_ruby_space).to_string()
    })
}

fn rstrip(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    string_op(cx, args, |s| s.trim_end_matches(is_ruby_space).to_string())
}

fn chomp(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    string_op(cx, args, |s| {
        s.strip_suffix("\r\n")
            .or_else(|| s.strip_suffix('\n'))
            .or_else(|| s.strip_suffix('\r'))
            .unwrap_or(s)
            .to_string()
    })
}

fn chop(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    string_op(cx, args, |s| match s.strip_suffix("\r\n") {
        Some(x) => x.to_string(),
        None => {
            let mut x = s.to_string();
            x.pop();
            x
        }
    })
}

/// Ruby's `String#capitalize`: the first character in title case, the rest
/// in lower case.
fn ruby_capitalize(s: &str) -> String {
    let mut cs = s.chars();
    match cs.next() {
        None => String::new(),
        Some(first) => {
            let mut out = title_case(first);
            out.push_str(&cs.as_str().to_lowercase());
            out
        }
    }
}

fn title_case(c: char) -> String {
    match c {
        'ß' => "Ss".into(),
        'ǆ' | 'ǅ' | 'Ǆ' => "ǅ".into(),
        'ǉ' | 'ǈ' | 'Ǉ' => "ǈ".into(),
        'ǌ' | 'ǋ' | 'Ǌ' => "ǋ".into(),
        'ǳ' | 'ǲ' | 'Ǳ' => "ǲ".into(),
        c => c.to_uppercase().collect(),
    }
}

fn capitalize(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    string_op(cx, args, ruby_capitalize)
}

fn camelcase(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    string_op(cx, args, |s| {
        let mut parts: Vec<&str> = s.split('_').collect();
        while parts.last() == Some(&"") {
            parts.pop();
        }
        parts.into_iter().map(ruby_capitalize).collect()
    })
}

const STRING_DATA: [Sig; 4] = [
    sig(&[("Numeric", "arg")]),
    sig(&[("String", "arg")]),
    sig(&[("Array[StringData]", "arg")]),
    sig(&[("Hash[StringData, StringData]", "arg")]),
];

fn deep_case(v: &Value, up: bool) -> Value {
    match v {
        Value::String(s) => Value::string(if up {
            s.to_uppercase()
        } else {
            s.to_lowercase()
        }),
        Value::Array(items) => Value::array(items.iter().map(|x| deep_case(x, up)).collect()),
        Value::Hash(h) => Value::hash(
            h.iter()
                .map(|(k, x)| (deep_case(k, up), deep_case(x, up)))
                .collect(),
        ),
        other => other.clone(),
    }
}

fn upcase(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    cx.dispatch(&STRING_DATA, args)?;
    Ok(deep_case(&args[0], true))
}

fn downcase(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    cx.dispatch(&STRING_DATA, args)?;
    Ok(deep_case(&args[0], false))
}

fn join(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    cx.dispatch(
        &[sig(&[("Array", "arg"), ("String", "delimiter")]).opt(1)],
        args,
    )?;
    let sep = args.get(1).and_then(|v| v.as_str()).unwrap_or("");
    fn walk(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::Array(items) => items.iter().for_each(|x| walk(x, out)),
            other => out.push(ruby_to_s(other)),
        }
    }
    let mut parts = Vec::new();
    if let Value::Array(items) = &args[0] {
        items.iter().for_each(|x| walk(x, &mut parts));
    }
    Ok(Value::string(parts.join(sep)))
}

fn length(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    cx.dispatch(
        &[
            sig(&[("Collection", "arg")]),
            sig(&[("String", "arg")]),
            sig(&[("Binary", "arg")]),
        ],
        args,
    )?;
    Ok(Value::Integer(value_length(&args[0])))
}

fn size(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    cx.dispatch(
        &[sig(&[("Variant[Collection, String, Binary]", "arg")])],
        args,
    )?;
    Ok(Value::Integer(value_length(&args[0])))
}

fn value_length(v: &Value) -> i64 {
    match v {
        Value::String(s) => s.chars().count() as i64,
        Value::Array(a) => a.len() as i64,
        Value::Hash(h) => h.len() as i64,
        _ => 0,
    }
}

fn empty(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let i = cx.dispatch(
        &[
            sig(&[("Collection", "coll")]),
            sig(&[("Sensitive[String]", "str")]),
            sig(&[("String", "str")]),
            sig(&[("Numeric", "num")]),
            sig(&[("Binary", "bin")]),
            sig(&[("Undef", "x")]),
        ],
        args,
    )?;
    Ok(Value::Boolean(match (i, &args[0]) {
        (1, Value::Sensitive(inner)) => inner.as_str().is_some_and(str::is_empty),
        (3, _) => {
            cx.warn_once_here("Calling function empty() with Numeric value is deprecated.");
            false
        }
        (5, _) => true,
        (_, v) => value_length(v) == 0,
    }))
}

/// Ruby's `Integer(s)` (`radix` `None` reads `0x`, `0b`, `0o`, `0`
/// prefixes): `None` when Ruby raises.
fn ruby_integer(s: &str, radix: Option<u32>) -> Option<i64> {
    let t = s.trim_matches(|c: char| c.is_ascii_whitespace());
    let (neg, t) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let lower = t.to_ascii_lowercase();
    let (base, digits) = match radix {
        None => {
            if let Some(d) = lower.strip_prefix("0x") {
                (16, d)
            } else if let Some(d) = lower.strip_prefix("0b") {
                (2, d)
            } else if let Some(d) = lower.strip_prefix("0o") {
                (8, d)
            } else if let Some(d) = lower.strip_prefix("0d") {
                (10, d)
            } else if lower.len() > 1 && lower.starts_with('0') {
                (8, &lower[1..])
            } else {
                (10, lower.as_str())
            }
        }
        Some(r) => {
            let prefix = match r {
                16 => "0x",
                2 => "0b",
                8 => "0o",
                10 => "0d",
                _ => "",
            };
            match lower.strip_prefix(prefix).filter(|_| !prefix.is_empty()) {
                Some(d) => (r, d),
                None if r == 8 && lower.len() > 1 && lower.starts_with('0') => (8, &lower[1..]),
                None => (r, lower.as_str()),
            }
        }
    };
    if digits.is_empty()
        || digits.starts_with('_')
        || digits.ends_with('_')
        || digits.contains("__")
    {
        return None;
    }
    let clean: String = digits.chars().filter(|c| *c != '_').collect();
    let n = i64::from_str_radix(&clean, base).ok()?;
    Some(if neg { -n } else { n })
}

/// Ruby's `Float(s)`: decimal (with `_` between digits and an exponent) or
/// hexadecimal; `None` when Ruby raises.
fn ruby_float_of(s: &str) -> Option<f64> {
    let t = s.trim_matches(|c: char| c.is_ascii_whitespace());
    let (neg, body) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    if let Some(h) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        let n = i64::from_str_radix(&h.replace('_', ""), 16).ok()? as f64;
        return Some(if neg { -n } else { n });
    }
    let ok = {
        let b = body.as_bytes();
        let mut i = 0;
        let digits = |i: &mut usize| {
            let start = *i;
            while *i < b.len() && (b[*i].is_ascii_digit() || (b[*i] == b'_' && *i > start)) {
                *i += 1;
            }
            *i > start && b[*i - 1] != b'_'
        };
        let mut ok = digits(&mut i);
        if ok && i < b.len() && b[i] == b'.' {
            i += 1;
            ok = digits(&mut i);
        }
        if ok && i < b.len() && (b[i] == b'e' || b[i] == b'E') {
            i += 1;
            if i < b.len() && (b[i] == b'-' || b[i] == b'+') {
                i += 1;
            }
            ok = digits(&mut i);
        }
        ok && i == b.len()
    };
    if !ok {
        return None;
    }
    let f: f64 = body.replace('_', "").parse().ok()?;
    Some(if neg { -f } else { f })
}

fn versioncmp(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    cx.dispatch(
        &[sig(&[
            ("String", "a"),
            ("String", "b"),
            ("Boolean", "ignore_trailing_zeroes"),
        ])
        .opt(2)],
        args,
    )?;
    let a = args[0].as_str().unwrap_or_default();
    let b = args[1].as_str().unwrap_or_default();
    let ignore = matches!(args.get(2), Some(Value::Boolean(true)));
    Ok(Value::Integer(version_cmp(a, b, ignore)))
}

/// `Puppet::Util::Package.versioncmp`.
fn version_cmp(a: &str, b: &str, ignore_trailing_zeroes: bool) -> i64 {
    fn normalize(v: &str) -> String {
        let mut parts: Vec<String> = v.split('-').map(str::to_string).collect();
        if let Some(first) = parts.first_mut() {
            let trimmed = first.trim_end_matches(['.', '0']).len();
            first.truncate(trimmed);
        }
        parts.join("-")
    }
    fn scan(v: &str) -> Vec<String> {
        let mut out = Vec::new();
        let cs: Vec<char> = v.chars().collect();
        let mut i = 0;
        while i < cs.len() {
            let c = cs[i];
            if c == '-' || c == '.' {
                out.push(c.to_string());
                i += 1;
            } else if c.is_ascii_digit() {
                let start = i;
                while i < cs.len() && cs[i].is_ascii_digit() {
                    i += 1;
                }
                out.push(cs[start..i].iter().collect());
            } else {
                let start = i;
                while i < cs.len() && !(cs[i] == '-' || cs[i] == '.' || cs[i].is_ascii_digit()) {
                    i += 1;
                }
                out.push(cs[start..i].iter().collect());
            }
        }
        out
    }
    fn ord(o: std::cmp::Ordering) -> i64 {
        match o {
            std::cmp::Ordering::Less => -1,
            std::cmp::Ordering::Equal => 0,
            std::cmp::Ordering::Greater => 1,
        }
    }
    let (va, vb) = if ignore_trailing_zeroes {
        (normalize(a), normalize(b))
    } else {
        (a.to_string(), b.to_string())
    };
    let ax = scan(&va);
    let bx = scan(&vb);
    for (x, y) in ax.iter().zip(bx.iter()) {
        if x == y {
            continue;
        }
        if x == "-" {
            return -1;
        }
        if y == "-" {
            return 1;
        }
        if x == "." {
            return -1;
        }
        if y == "." {
            return 1;
        }
        let num = |s: &str| !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit());
        if num(x) && num(y) {
            if x.starts_with('0') || y.starts_with('0') {
                return ord(x.to_uppercase().cmp(&y.to_uppercase()));
            }
            // Compare as integers of any size.
            let (x, y) = (x.trim_start_matches('0'), y.trim_start_matches('0'));
            return ord(x.len().cmp(&y.len()).then_with(|| x.cmp(y)));
        }
        return ord(x.to_uppercase().cmp(&y.to_uppercase()));
    }
    // One ran out: Ruby compares the whole strings.
    ord(va.as_bytes().cmp(vb.as_bytes()))
}

// ---------------------------------------------------------------------------
// Numbers.

fn abs(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let i = cx.dispatch(
        &[sig(&[("Numeric", "val")]), sig(&[("String", "val")])],
        args,
    )?;
    match (&args[0], i) {
        (Value::Integer(n), _) => Ok(Value::Integer(n.wrapping_abs())),
        (Value::Float(f), _) => Ok(Value::Float(f.abs())),
        (Value::String(s), _) => {
            cx.warn_once("The abs() function's auto conversion of String to Numeric is deprecated - change to convert input before calling");
            let re_float = |s: &str| {
                let t = s.strip_prefix('-').unwrap_or(s);
                match t.split_once('.') {
                    Some((a, b)) => {
                        !a.is_empty()
                            && !b.is_empty()
                            && a.bytes().all(|c| c.is_ascii_digit())
                            && b.bytes().all(|c| c.is_ascii_digit())
                    }
                    None => false,
                }
            };
            let re_int = |s: &str| {
                let t = s.strip_prefix('-').unwrap_or(s);
                !t.is_empty() && t.bytes().all(|c| c.is_ascii_digit())
            };
            // Ruby's `^`/`$` match at line boundaries: any line may match.
            if let Some(line) = s.lines().find(|l| re_float(l)) {
                let _ = line;
                Ok(Value::Float(ruby_to_f(s).abs()))
            } else if s.lines().any(re_int) {
                Ok(Value::Integer(ruby_to_i(s).wrapping_abs()))
            } else {
                cx.fail(
                    "abs(): Requires float or integer to work with - was given non decimal string",
                )
            }
        }
        _ => Ok(args[0].clone()),
    }
}

/// Ruby's lenient `String#to_f`: the longest leading decimal number, else 0.
fn ruby_to_f(s: &str) -> f64 {
    let t = s.trim_start();
    let b = t.as_bytes();
    let mut i = 0;
    if i < b.len() && (b[i] == b'-' || b[i] == b'+') {
        i += 1;
    }
    let mut end = 0;
    let start_digits = i;
    while i < b.len() && (b[i].is_ascii_digit() || (b[i] == b'_' && i > start_digits)) {
        i += 1;
        end = i;
    }
    if i < b.len() && b[i] == b'.' && i + 1 < b.len() && b[i + 1].is_ascii_digit() {
        i += 1;
        while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'_') {
            i += 1;
        }
        end = i;
    }
    if end > 0 && i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        let mut j = i + 1;
        if j < b.len() && (b[j] == b'-' || b[j] == b'+') {
            j += 1;
        }
        if j < b.len() && b[j].is_ascii_digit() {
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            end = j;
        }
    }
    t[..end].replace('_', "").parse().unwrap_or(0.0)
}

/// Ruby's lenient `String#to_i`.
fn ruby_to_i(s: &str) -> i64 {
    let t = s.trim_start();
    let b = t.as_bytes();
    let mut i = 0;
    if i < b.len() && (b[i] == b'-' || b[i] == b'+') {
        i += 1;
    }
    let start = i;
    while i < b.len() && (b[i].is_ascii_digit() || (b[i] == b'_' && i > start)) {
        i += 1;
    }
    t[..i].replace('_', "").parse().unwrap_or(0)
}

fn float_to_int(f: f64) -> Value {
    if f.is_finite() && f.abs() < 9.2e18 {
        Value::Integer(f as i64)
    } else {
        Value::Float(f)
    }
}

fn ceiling(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    round_op(cx, args, "ceiling", f64::ceil)
}

fn floor(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    round_op(cx, args, "floor", f64::floor)
}

fn round_op(cx: &mut Cx<'_, '_>, args: &[Value], name: &str, f: fn(f64) -> f64) -> R<Value> {
    cx.dispatch(
        &[sig(&[("Numeric", "val")]), sig(&[("String", "val")])],
        args,
    )?;
    match &args[0] {
        Value::Integer(n) => Ok(Value::Integer(*n)),
        Value::Float(x) => Ok(float_to_int(f(*x))),
        Value::String(s) => {
            cx.warn_once(&format!("The {name}() function's auto conversion of String to Float is deprecated - change to convert input before calling"));
            match ruby_float_of(s) {
                Some(x) => Ok(float_to_int(f(x))),
                None => cx.fail(format!(
                    "{name}(): cannot convert given value to a floating point value."
                )),
            }
        }
        other => Ok(other.clone()),
    }
}

fn round(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    cx.dispatch(&[sig(&[("Numeric", "val")])], args)?;
    match &args[0] {
        Value::Float(x) => Ok(float_to_int(if *x > 0.0 {
            (x + 0.5).trunc()
        } else {
            (x - 0.5).trunc()
        })),
        other => Ok(other.clone()),
    }
}

fn compare(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let sigs = [
        sig(&[("Numeric", "a"), ("Numeric", "b")]),
        sig(&[("String", "a"), ("String", "b"), ("Boolean", "ignore_case")]).opt(2),
    ];
    if let Some(i) = sigs.iter().position(|s| s.accepts(args, cx.lambda)) {
        let ord = if i == 0 {
            ruby_cmp(&args[0], &args[1]).unwrap_or(std::cmp::Ordering::Equal)
        } else {
            let (a, b) = (args[0].as_str().unwrap(), args[1].as_str().unwrap());
            if matches!(args.get(2), Some(Value::Boolean(false))) {
                a.as_bytes().cmp(b.as_bytes())
            } else {
                a.to_ascii_lowercase()
                    .as_bytes()
                    .cmp(b.to_ascii_lowercase().as_bytes())
            }
        };
        return Ok(Value::Integer(ord as i64));
    }
    let comparable =
        |v: &Value| matches!(v, Value::String(_) | Value::Integer(_) | Value::Float(_));
    if args.len() >= 2 && comparable(&args[0]) && comparable(&args[1]) {
        let rest = &args[2..];
        let msg = if !rest.is_empty() {
            if !(args[0].as_str().is_some() && args[1].as_str().is_some()) {
                Some("compare(): The third argument (ignore case) can only be used when comparing strings".to_string())
            } else if rest.len() != 1 {
                Some(format!(
                    "compare(): Accepts at most 3 arguments, got {}",
                    2 + rest.len()
                ))
            } else if !matches!(rest[0], Value::Boolean(_)) {
                Some(format!(
                    "compare(): The third argument (ignore case) must be a Boolean. Got {}",
                    label(&rest[0])
                ))
            } else {
                None
            }
        } else {
            None
        };
        let msg = msg.or_else(|| {
            (ruby_class(&args[0]) != ruby_class(&args[1])).then(|| {
                format!(
                    "compare(): Can only compare values of the same type (or for Timestamp/Timespan also against Numeric). Got {} and {}",
                    label(&args[0]),
                    label(&args[1])
                )
            })
        });
        if let Some(m) = msg {
            return cx.fail(format!("'compare' {m}"));
        }
    } else if args.len() >= 2 {
        return cx.fail(format!(
            "'compare' compare(): Non comparable type. Only values of the types Numeric, String, Semver, Timestamp and Timestamp can be compared. Got {} and {}",
            label(&args[0]),
            label(&args[1])
        ));
    }
    cx.dispatch(&sigs, args).map(|_| Value::Undef)
}

// ---------------------------------------------------------------------------
// Collections and blocks.

fn flatten(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    cx.dispatch(&[sig(&[("Any", "args")]).rest(0)], args)?;
    fn walk(v: &Value, out: &mut Vec<Value>) {
        match v {
            Value::Array(items) => items.iter().for_each(|x| walk(x, out)),
            other => out.push(other.clone()),
        }
    }
    let mut out = Vec::new();
    args.iter().for_each(|a| walk(a, &mut out));
    Ok(Value::array(out))
}

fn import(cx: &mut Cx<'_, '_>, _args: &[Value]) -> R<Value> {
    Err(EvalError::Issue {
        detail: "Use of 'import' has been discontinued in favor of a manifest directory. See http://links.puppet.com/puppet-import-deprecation".into(),
        at: cx.at.clone(),
    })
}

fn then(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    cx.dispatch(&[sig(&[("Any", "arg")]).block("Callable[1,1]")], args)?;
    if args[0].is_undef() {
        return Ok(Value::Undef);
    }
    cx.yield_(&args[..1])
}

fn lest(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    cx.dispatch(&[sig(&[("Any", "arg")]).block("Callable[0,0]")], args)?;
    if args[0].is_undef() {
        return cx.yield_(&[]);
    }
    Ok(args[0].clone())
}

fn unwrap(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    cx.dispatch(
        &[
            sig(&[("Sensitive", "arg")]).opt_block("Callable"),
            sig(&[("Any", "arg")]).opt_block("Callable"),
        ],
        args,
    )?;
    let v = match &args[0] {
        Value::Sensitive(inner) => (**inner).clone(),
        other => other.clone(),
    };
    if cx.lambda.is_some() {
        return cx.yield_(&[v]);
    }
    Ok(v)
}

fn type_(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let i = cx.dispatch(
        &[
            sig(&[("Any", "value"), ("Enum[detailed]", "inference_method")]).opt(1),
            sig(&[("Any", "value"), ("Enum[reduced]", "inference_method")]),
            sig(&[("Any", "value"), ("Enum[generalized]", "inference_method")]),
        ],
        args,
    )?;
    Ok(type_value(match i {
        0 => crate::types::infer_set(&args[0]),
        1 => crate::types::infer(&args[0]),
        _ => crate::types::infer(&args[0]).generalize(),
    }))
}

fn sort(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let i = cx.dispatch(
        &[
            sig(&[("String", "string_value")]).opt_block("Callable[2,2]"),
            sig(&[("Array", "array_value")]).opt_block("Callable[2,2]"),
        ],
        args,
    )?;
    let (mut items, _) = iterable(&args[0]).unwrap_or_default();
    if cx.lambda.is_some() {
        items = sort_with_block(cx, items)?;
    } else if let Err(e) = ruby_sort(&mut items) {
        return cx.fail(e);
    }
    if i == 0 {
        return Ok(Value::string(
            items.iter().map(|v| v.to_string()).collect::<String>(),
        ));
    }
    Ok(Value::array(items))
}

/// Ruby's `rb_cmpint` of a block's answer: its sign.
fn block_cmp(cx: &Cx<'_, '_>, r: &Value, a: &Value, b: &Value) -> R<std::cmp::Ordering> {
    use std::cmp::Ordering;
    match r {
        Value::Integer(n) => Ok(n.cmp(&0)),
        Value::Float(f) => Ok(f.partial_cmp(&0.0).unwrap_or(Ordering::Equal)),
        Value::Undef => cx.fail(cmp_error(a, b)),
        Value::Boolean(x) => cx.fail(format!("undefined method `>' for {x}:{}", ruby_class(r))),
        Value::String(_) => cx.fail("comparison of String with 0 failed"),
        other => cx.fail(format!("undefined method `>' for {}", ruby_inspect(other))),
    }
}

/// A merge sort calling the block to compare (Ruby's sort is not stable;
/// blocks that order every pair give the same result).
fn sort_with_block(cx: &mut Cx<'_, '_>, items: Vec<Value>) -> R<Vec<Value>> {
    if items.len() <= 1 {
        return Ok(items);
    }
    let mid = items.len() / 2;
    let right = sort_with_block(cx, items[mid..].to_vec())?;
    let left = sort_with_block(cx, items[..mid].to_vec())?;
    let mut out = Vec::with_capacity(items.len());
    let (mut i, mut j) = (0, 0);
    while i < left.len() && j < right.len() {
        let r = cx.yield_(&[left[i].clone(), right[j].clone()])?;
        if block_cmp(cx, &r, &left[i], &right[j])? == std::cmp::Ordering::Greater {
            out.push(right[j].clone());
            j += 1;
        } else {
            out.push(left[i].clone());
            i += 1;
        }
    }
    out.extend_from_slice(&left[i..]);
    out.extend_from_slice(&right[j..]);
    Ok(out)
}

fn unique(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let i = cx.dispatch(
        &[
            sig(&[("String", "string")]).opt_block("Callable[String]"),
            sig(&[("Hash", "hash")]).opt_block("Callable[Any]"),
            sig(&[("Array", "array")]).opt_block("Callable[Any]"),
            sig(&[("Iterable", "iterable")]).opt_block("Callable[Any]"),
        ],
        args,
    )?;
    if let (1, Value::Hash(h)) = (i, &args[0]) {
        // Keys grouped by their value (or the block's answer for it), each
        // group's values made unique.
        let mut groups: indexmap::IndexMap<Value, (Vec<Value>, Vec<Value>)> =
            indexmap::IndexMap::new();
        for (k, v) in h.iter() {
            let key = if cx.lambda.is_some() {
                cx.yield_(std::slice::from_ref(v))?
            } else {
                v.clone()
            };
            let g = groups.entry(key).or_default();
            g.0.push(k.clone());
            g.1.push(v.clone());
        }
        let mut out = Map::new();
        for (_, (keys, values)) in groups {
            let mut vs: Vec<Value> = Vec::new();
            for v in values {
                if !vs.contains(&v) {
                    vs.push(v);
                }
            }
            out.insert(Value::array(keys), Value::array(vs));
        }
        return Ok(Value::hash(out));
    }
    let (items, _) = iterable(&args[0]).unwrap_or_default();
    #[allow(clippy::mutable_key_type)]
    let mut seen: std::collections::HashSet<Value> = std::collections::HashSet::new();
    let mut out = Vec::new();
    for v in items {
        let key = if cx.lambda.is_some() {
            cx.yield_(std::slice::from_ref(&v))?
        } else {
            v.clone()
        };
        if seen.insert(key) {
            out.push(v);
        }
    }
    if i == 0 {
        return Ok(Value::string(
            out.iter().map(|v| v.to_string()).collect::<String>(),
        ));
    }
    Ok(Value::array(out))
}

fn min(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    min_max(cx, args, false)
}

fn max(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    min_max(cx, args, true)
}

fn min_max(cx: &mut Cx<'_, '_>, args: &[Value], is_max: bool) -> R<Value> {
    use std::cmp::Ordering;
    let name = if is_max { "max" } else { "min" };
    let i = cx.dispatch(
        &[
            sig(&[("Numeric", "values")]).rest(0),
            sig(&[("String", "values")]).rest(0),
            sig(&[("Array[Numeric]", "values")]).opt_block("Callable[2,2]"),
            sig(&[("Array[String]", "values")]).opt_block("Callable[2,2]"),
            sig(&[("Array", "values")]).opt_block("Callable[2,2]"),
            sig(&[("Any", "values")]).rest(0).block("Callable[2,2]"),
            sig(&[("Any", "values")]).rest(0),
        ],
        args,
    )?;
    // The values, and how they compare: 0 numbers, 1 strings, 2 any.
    let (values, mode): (Vec<Value>, u8) = match i {
        0 => (args.to_vec(), 0),
        1 => (args.to_vec(), 1),
        2..=4 => {
            let items = match &args[0] {
                Value::Array(a) => a.to_vec(),
                _ => Vec::new(),
            };
            (items, (i - 2) as u8)
        }
        _ => (args.to_vec(), 2),
    };
    if cx.lambda.is_none() && values.is_empty() {
        return cx.fail(format!(
            "{name}(): Wrong number of arguments need at least one"
        ));
    }
    let Some(mut best) = values.first().cloned() else {
        return Ok(Value::Undef);
    };
    // `\A-?\d+([._eE]\d+)?\z`
    let numeric = |s: &str| {
        let t = s.strip_prefix('-').unwrap_or(s);
        let (int, rest) = t.split_at(t.bytes().take_while(u8::is_ascii_digit).count());
        !int.is_empty()
            && (rest.is_empty()
                || (rest.len() > 1
                    && matches!(rest.as_bytes()[0], b'.' | b'_' | b'e' | b'E')
                    && rest[1..].bytes().all(|c| c.is_ascii_digit())))
    };
    for v in values.into_iter().skip(1) {
        let ord = if cx.lambda.is_some() {
            let r = cx.yield_(&[v.clone(), best.clone()])?;
            block_cmp(cx, &r, &v, &best)?
        } else {
            match mode {
                0 => ruby_cmp(&v, &best).unwrap_or(Ordering::Equal),
                _ => {
                    let (a, b) = (ruby_to_s(&v), ruby_to_s(&best));
                    if numeric(&a) && numeric(&b) {
                        cx.warn_once(&format!("The {name}() function's auto conversion of String to Numeric is deprecated - change to convert input before calling, or use lambda"));
                        ruby_to_f(&a)
                            .partial_cmp(&ruby_to_f(&b))
                            .unwrap_or(Ordering::Equal)
                    } else {
                        if mode == 2 {
                            cx.warn_once(&format!("The {name}() function's auto conversion of Any to String is deprecated - change to convert input before calling, or use lambda"));
                        }
                        a.as_bytes().cmp(b.as_bytes())
                    }
                }
            }
        };
        let better = if is_max {
            ord == Ordering::Greater
        } else {
            ord == Ordering::Less
        };
        if better {
            best = v;
        }
    }
    Ok(best)
}

/// The block's answers as Puppet's `each_with_index`/`each_pair` styles give
/// them: `[key, value]`/`[index, value]` for a two-parameter block.
fn block_args(elem: &Value, index: usize, two: bool, hash_style: bool) -> Vec<Value> {
    if !two {
        return vec![elem.clone()];
    }
    if hash_style {
        if let Value::Array(kv) = elem {
            return kv.to_vec();
        }
    }
    vec![Value::Integer(index as i64), elem.clone()]
}

const PREDICATE_SIGS: [Sig; 4] = [
    sig(&[("Hash[Any, Any]", "hash")]).block("Callable[2,2]"),
    sig(&[("Hash[Any, Any]", "hash")]).block("Callable[1,1]"),
    sig(&[("Iterable", "enumerable")]).block("Callable[2,2]"),
    sig(&[("Iterable", "enumerable")]).block("Callable[1,1]"),
];

fn any(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let i = cx.dispatch(&PREDICATE_SIGS, args)?;
    let (items, hash_style) = iterable(&args[0]).unwrap_or_default();
    for (n, e) in items.iter().enumerate() {
        if cx
            .yield_(&block_args(e, n, i % 2 == 0, hash_style))?
            .is_truthy()
        {
            return Ok(Value::Boolean(true));
        }
    }
    Ok(Value::Boolean(false))
}

fn all(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let i = cx.dispatch(&PREDICATE_SIGS, args)?;
    let (items, hash_style) = iterable(&args[0]).unwrap_or_default();
    for (n, e) in items.iter().enumerate() {
        if !cx
            .yield_(&block_args(e, n, i % 2 == 0, hash_style))?
            .is_truthy()
        {
            return Ok(Value::Boolean(false));
        }
    }
    Ok(Value::Boolean(true))
}

fn index(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let sigs = [
        PREDICATE_SIGS[0],
        PREDICATE_SIGS[1],
        PREDICATE_SIGS[2],
        PREDICATE_SIGS[3],
        sig(&[("String", "str"), ("Variant[String,Regexp]", "match")]),
        sig(&[("Iterable", "enumerable"), ("Any", "match")]),
    ];
    let i = cx.dispatch(&sigs, args)?;
    if i == 4 {
        let s = args[0].as_str().unwrap_or_default();
        let found = match &args[1] {
            Value::String(p) => s.find(&**p),
            Value::Regexp(src) => match crate::types::regex::compile(src) {
                Ok(re) => re.find(s).ok().flatten().map(|m| m.start()),
                Err(e) => return cx.fail(e),
            },
            _ => None,
        };
        return Ok(match found {
            Some(b) => Value::Integer(s[..b].chars().count() as i64),
            None => Value::Undef,
        });
    }
    let (items, hash_style) = iterable(&args[0]).unwrap_or_default();
    for (n, e) in items.iter().enumerate() {
        let hit = if i == 5 {
            let v = if hash_style {
                match e {
                    Value::Array(kv) => kv.get(1).cloned().unwrap_or(Value::Undef),
                    _ => e.clone(),
                }
            } else {
                e.clone()
            };
            ruby_eq(&v, &args[1])
        } else if i == 1 {
            // Hash, one parameter: the value.
            let v = match e {
                Value::Array(kv) => kv.get(1).cloned().unwrap_or(Value::Undef),
                _ => e.clone(),
            };
            cx.yield_(&[v])?.is_truthy()
        } else if i == 3 && hash_style {
            let v = match e {
                Value::Array(kv) => kv.get(1).cloned().unwrap_or(Value::Undef),
                _ => e.clone(),
            };
            cx.yield_(&[v])?.is_truthy()
        } else {
            cx.yield_(&block_args(e, n, i % 2 == 0, hash_style))?
                .is_truthy()
        };
        if hit {
            return Ok(if hash_style {
                match e {
                    Value::Array(kv) => kv.first().cloned().unwrap_or(Value::Undef),
                    _ => Value::Undef,
                }
            } else {
                Value::Integer(n as i64)
            });
        }
    }
    Ok(Value::Undef)
}

fn slice(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let i = cx.dispatch(
        &[
            sig(&[
                ("Hash[Any, Any]", "hash"),
                ("Integer[1, default]", "slice_size"),
            ])
            .opt_block("Callable"),
            sig(&[
                ("Iterable", "enumerable"),
                ("Integer[1, default]", "slice_size"),
            ])
            .opt_block("Callable"),
        ],
        args,
    )?;
    let n = match args[1] {
        Value::Integer(n) => n.max(1) as usize,
        _ => 1,
    };
    let (items, _) = iterable(&args[0]).unwrap_or_default();
    let serving = match cx.lambda {
        Some(l) => {
            let arity = lambda_ruby_arity(l);
            let s = if arity < 0 { n } else { arity as usize };
            if s == 0 {
                return cx.fail("slice(): block must define at least one parameter. Block has 0.");
            }
            if s != 1 && s != n {
                let names: Vec<&str> = l.params.iter().map(|p| p.name.as_str()).collect();
                return cx.fail(format!(
                    "slice(): block must define one parameter, or the same number of parameters as the given size of the slice ({n}). Block has {s}; {}",
                    names.join(", ")
                ));
            }
            s
        }
        None => 1,
    };
    let chunks: Vec<Vec<Value>> = items.chunks(n).map(|c| c.to_vec()).collect();
    if cx.lambda.is_none() {
        return Ok(Value::array(chunks.into_iter().map(Value::array).collect()));
    }
    let filler = if i == 0 {
        Value::array(Vec::new())
    } else {
        Value::Undef
    };
    for mut chunk in chunks {
        let go_on = if serving == 1 {
            cx.yield_or_stop(&[Value::array(chunk)])?
        } else {
            chunk.resize(serving, filler.clone());
            cx.yield_or_stop(&chunk)?
        };
        if !go_on {
            break;
        }
    }
    Ok(args[0].clone())
}

fn step(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    cx.dispatch(
        &[
            sig(&[("Iterable", "iterable"), ("Integer[1]", "step")]),
            sig(&[("Iterable", "iterable"), ("Integer[1]", "step")]).block("Callable[1,1]"),
        ],
        args,
    )?;
    let n = match args[1] {
        Value::Integer(n) => n.max(1) as usize,
        _ => 1,
    };
    let (items, _) = iterable(&args[0]).unwrap_or_default();
    let picked: Vec<Value> = items.into_iter().step_by(n).collect();
    if cx.lambda.is_some() {
        for v in picked {
            if !cx.yield_or_stop(&[v])? {
                break;
            }
        }
        return Ok(Value::Undef);
    }
    Ok(Value::array(picked))
}

fn reverse_each(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    cx.dispatch(
        &[
            sig(&[("Iterable", "iterable")]),
            sig(&[("Iterable", "iterable")]).block("Callable[1,1]"),
        ],
        args,
    )?;
    let (mut items, _) = iterable(&args[0]).unwrap_or_default();
    items.reverse();
    if cx.lambda.is_some() {
        for v in items {
            if !cx.yield_or_stop(&[v])? {
                break;
            }
        }
        return Ok(Value::Undef);
    }
    Ok(Value::array(items))
}

fn group_by(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let i = cx.dispatch(
        &[
            sig(&[("Collection", "collection")]).block("Callable[1,1]"),
            sig(&[("Array", "array")]).block("Callable[2,2]"),
            sig(&[("Collection", "collection")]).block("Callable[2,2]"),
        ],
        args,
    )?;
    let (items, hash_style) = iterable(&args[0]).unwrap_or_default();
    let mut out: indexmap::IndexMap<Value, Vec<Value>> = indexmap::IndexMap::new();
    for (n, e) in items.iter().enumerate() {
        let key = cx.yield_(&block_args(e, n, i > 0, hash_style))?;
        out.entry(key).or_default().push(e.clone());
    }
    Ok(Value::hash(
        out.into_iter().map(|(k, v)| (k, Value::array(v))).collect(),
    ))
}

fn partition(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let i = cx.dispatch(
        &[
            sig(&[("Collection", "collection")]).block("Callable[1,1]"),
            sig(&[("Array", "array")]).block("Callable[2,2]"),
            sig(&[("Collection", "collection")]).block("Callable[2,2]"),
        ],
        args,
    )?;
    let (items, hash_style) = iterable(&args[0]).unwrap_or_default();
    let (mut yes, mut no) = (Vec::new(), Vec::new());
    for (n, e) in items.iter().enumerate() {
        if cx.yield_(&block_args(e, n, i > 0, hash_style))?.is_truthy() {
            yes.push(e.clone());
        } else {
            no.push(e.clone());
        }
    }
    Ok(Value::array(vec![Value::array(yes), Value::array(no)]))
}

// ---------------------------------------------------------------------------
// Ruby's `format` (`Kernel#sprintf`), for `sprintf` and `String(x, fmt)`.

/// A little unsigned big integer (base 10^9, least significant first) for
/// exact decimal expansions of doubles.
#[derive(Clone, Debug)]
struct BigDec(Vec<u32>);

impl BigDec {
    const BASE: u64 = 1_000_000_000;

    fn from_u64(mut n: u64) -> BigDec {
        let mut v = Vec::new();
        while n > 0 {
            v.push((n % Self::BASE) as u32);
            n /= Self::BASE;
        }
        BigDec(v)
    }

    fn mul_small(&mut self, m: u32) {
        let mut carry = 0u64;
        for limb in self.0.iter_mut() {
            let x = *limb as u64 * m as u64 + carry;
            *limb = (x % Self::BASE) as u32;
            carry = x / Self::BASE;
        }
        while carry > 0 {
            self.0.push((carry % Self::BASE) as u32);
            carry /= Self::BASE;
        }
    }

    fn to_decimal(&self) -> String {
        let mut s = String::new();
        for (i, limb) in self.0.iter().rev().enumerate() {
            if i == 0 {
                s.push_str(&limb.to_string());
            } else {
                s.push_str(&format!("{limb:09}"));
            }
        }
        if s.is_empty() {
            s.push('0');
        }
        s
    }
}

/// The exact decimal value of a finite positive double: its significant
/// digits (no leading or trailing zeros) and the decimal exponent `p` with
/// value = 0.DIGITS × 10^p.
fn exact_decimal(d: f64) -> (Vec<u8>, i32) {
    let bits = d.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i32;
    let frac = bits & 0x000f_ffff_ffff_ffff;
    let (m, e) = if exp == 0 {
        (frac, -1074)
    } else {
        (frac | (1u64 << 52), exp - 1075)
    };
    let mut n = BigDec::from_u64(m);
    let mut point_shift = 0i32;
    if e >= 0 {
        let mut left = e;
        while left > 0 {
            let k = left.min(29);
            n.mul_small(1 << k);
            left -= k;
        }
    } else {
        let mut left = -e;
        while left > 0 {
            let k = left.min(13);
            n.mul_small(5u32.pow(k as u32));
            left -= k;
        }
        point_shift = -e;
    }
    let s = n.to_decimal();
    let digits: Vec<u8> = s.bytes().map(|b| b - b'0').collect();
    let p = digits.len() as i32 - point_shift;
    let mut digits: Vec<u8> = digits;
    while digits.last() == Some(&0) {
        digits.pop();
    }
    let lead = digits.iter().take_while(|&&x| x == 0).count();
    digits.drain(..lead);
    (digits, p - lead as i32)
}

const TENS: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];
const BIGTENS: [f64; 5] = [1e16, 1e32, 1e64, 1e128, 1e256];

/// Ruby's `BSD__dtoa` in modes 2 (`ndigits` significant digits) and 3
/// (`ndigits` after the point) for a finite positive double, with Ruby's
/// tie rule in its fast path: digits (trailing zeros trimmed, possibly
/// empty) and the position of the decimal point.
#[allow(clippy::approx_constant)]
fn ruby_dtoa(d: f64, mode: u8, ndigits: i32) -> (Vec<u8>, i32) {
    if d == 0.0 {
        return (vec![0], 1);
    }
    let bits = d.to_bits();
    let bexp = ((bits >> 52) & 0x7ff) as i32;
    let d2 = f64::from_bits((bits & 0x000f_ffff_ffff_ffff) | 0x3ff0_0000_0000_0000);
    let i = bexp - 1023;
    let ds = (d2 - 1.5) * 0.289529654602168 + 0.1760912590558 + i as f64 * 0.301029995663981;
    let mut k = ds as i32;
    if ds < 0.0 && ds != k as f64 {
        k -= 1;
    }
    let mut k_check = true;
    if (0..=22).contains(&k) {
        if d < TENS[k as usize] {
            k -= 1;
        }
        k_check = false;
    }
    let (ilim, ilim1) = if mode == 2 {
        let n = ndigits.max(1);
        (n, n)
    } else {
        (ndigits + k + 1, ndigits + k)
    };
    let mut half = false;
    // The fast path in floating point.
    if (0..=14).contains(&ilim) {
        let mut dv = d;
        let mut kk = k;
        let mut il = ilim;
        let mut ieps = 2;
        let mut ok = true;
        if kk > 0 {
            let mut dsv = TENS[(kk & 0xf) as usize];
            let mut j = kk >> 4;
            if j & 0x10 != 0 {
                j &= 0xf;
                dv /= BIGTENS[4];
                ieps += 1;
            }
            let mut n = 0;
            while j != 0 {
                if j & 1 != 0 {
                    ieps += 1;
                    dsv *= BIGTENS[n];
                }
                j >>= 1;
                n += 1;
            }
            dv /= dsv;
        } else if kk < 0 {
            let j1 = -kk;
            dv *= TENS[(j1 & 0xf) as usize];
            let mut j = j1 >> 4;
            let mut n = 0;
            while j != 0 {
                if j & 1 != 0 {
                    ieps += 1;
                    dv *= BIGTENS[n];
                }
                j >>= 1;
                n += 1;
            }
        }
        if k_check && dv < 1.0 && il > 0 {
            if ilim1 <= 0 {
                ok = false;
            } else {
                il = ilim1;
                kk -= 1;
                dv *= 10.0;
                ieps += 1;
            }
        }
        if ok {
            let mut eps = ieps as f64 * dv + 7.0;
            eps = f64::from_bits(eps.to_bits().wrapping_sub(52u64 << 52));
            if il == 0 {
                dv -= 5.0;
                if dv > eps {
                    return (vec![1], kk + 2);
                }
                if dv < -eps {
                    return (Vec::new(), -ndigits);
                }
            } else {
                eps *= TENS[(il - 1) as usize];
                let mut digits: Vec<u8> = Vec::new();
                let mut n = 1;
                loop {
                    let l = dv as i64;
                    dv -= l as f64;
                    if dv == 0.0 {
                        il = n;
                    }
                    digits.push(l as u8);
                    if n == il {
                        if dv > 0.5 + eps {
                            return bump_up(digits, kk);
                        } else if dv < 0.5 - eps {
                            while digits.last() == Some(&0) {
                                digits.pop();
                            }
                            return (digits, kk + 1);
                        }
                        half = true;
                        if digits.last().is_some_and(|x| x & 1 == 1) {
                            return bump_up(digits, kk);
                        }
                        break;
                    }
                    n += 1;
                    dv *= 10.0;
                }
            }
        }
    }
    // A "small" integer: exact in floating point.
    if d.fract() == 0.0 && (0..=14).contains(&k) {
        let dsv = TENS[k as usize];
        let mut dv = d;
        let mut digits = Vec::new();
        let mut n = 1;
        loop {
            let l = (dv / dsv) as i64;
            dv -= l as f64 * dsv;
            digits.push(l as u8);
            if dv == 0.0 {
                break;
            }
            if n == ilim {
                dv += dv;
                if dv > dsv || (dv == dsv && l & 1 == 1) {
                    return bump_up(digits, k);
                }
                break;
            }
            n += 1;
            dv *= 10.0;
        }
        while digits.last() == Some(&0) && digits.len() > 1 {
            digits.pop();
        }
        return (digits, k + 1);
    }
    // Exact.
    let (all, p) = exact_decimal(d);
    let k = p - 1;
    let ilim = if mode == 2 {
        ndigits.max(1)
    } else {
        ndigits + k + 1
    };
    if ilim <= 0 {
        // No digit, or one: above half of the last place rounds up.
        let above_half = ilim == 0 && (all[0] > 5 || (all[0] == 5 && all.len() > 1));
        return if above_half {
            (vec![1], k + 2)
        } else {
            (Vec::new(), -ndigits)
        };
    }
    let n = ilim as usize;
    if all.len() <= n {
        return (all, p);
    }
    let mut digits = all[..n].to_vec();
    let rest = &all[n..];
    let cmp_half = match rest[0].cmp(&5) {
        std::cmp::Ordering::Equal if rest.len() > 1 => std::cmp::Ordering::Greater,
        o => o,
    };
    let last_odd = digits.last().is_some_and(|x| x & 1 == 1);
    if cmp_half == std::cmp::Ordering::Greater
        || (cmp_half == std::cmp::Ordering::Equal && last_odd)
    {
        // roundoff
        while digits.last() == Some(&9) {
            digits.pop();
            if digits.is_empty() {
                return (vec![1], k + 2);
            }
        }
        let last = digits.len() - 1;
        if !half || digits[last] & 1 == 1 {
            digits[last] += 1;
        }
        return (digits, k + 1);
    }
    while digits.last() == Some(&0) {
        digits.pop();
    }
    (digits, k + 1)
}

fn bump_up(mut digits: Vec<u8>, k: i32) -> (Vec<u8>, i32) {
    while digits.last() == Some(&9) {
        digits.pop();
        if digits.is_empty() {
            return (vec![1], k + 2);
        }
    }
    let last = digits.len() - 1;
    digits[last] += 1;
    (digits, k + 1)
}

/// One `%` directive.
#[derive(Default, Clone)]
struct Spec {
    minus: bool,
    plus: bool,
    space: bool,
    zero: bool,
    alt: bool,
    width: Option<usize>,
    prec: Option<usize>,
}

impl Spec {
    /// Pads `body` (sign and prefix in `head`) to the width.
    fn pad(&self, head: &str, body: &str, zero_ok: bool) -> String {
        let len = head.chars().count() + body.chars().count();
        let w = self.width.unwrap_or(0);
        if len >= w {
            return format!("{head}{body}");
        }
        let fill = w - len;
        if self.minus {
            format!("{head}{body}{}", " ".repeat(fill))
        } else if self.zero && zero_ok {
            format!("{head}{}{body}", "0".repeat(fill))
        } else {
            format!("{}{head}{body}", " ".repeat(fill))
        }
    }
}

enum FmtInt {
    Small(i64),
    /// A magnitude in decimal digits, and the sign.
    Big(String, bool),
}

/// The arguments of a format: positional, or one hash for named ones.
struct FmtArgs<'a> {
    args: &'a [Value],
    next: usize,
}

impl<'a> FmtArgs<'a> {
    fn next(&mut self) -> Result<&'a Value, String> {
        let v = self.args.get(self.next).ok_or("too few arguments")?;
        self.next += 1;
        Ok(v)
    }

    fn at(&self, n: usize) -> Result<&'a Value, String> {
        if n == 0 {
            return Err("invalid index - 0$".into());
        }
        self.args
            .get(n - 1)
            .ok_or_else(|| "too few arguments".into())
    }

    fn named(&self, name: &str) -> Result<&'a Value, String> {
        match self.args {
            [Value::Hash(h)] => h
                .get(&Value::string(name))
                .ok_or_else(|| format!("key<{name}> not found")),
            _ => Err("one hash required".into()),
        }
    }
}

/// Ruby's `Integer(x)` as `format` applies it for `%d`.
fn fmt_integer(v: &Value) -> Result<FmtInt, String> {
    match v {
        Value::Integer(n) => Ok(FmtInt::Small(*n)),
        Value::Float(f) => {
            if f.is_nan() {
                return Err("NaN".into());
            }
            if f.is_infinite() {
                return Err(if *f > 0.0 { "Infinity" } else { "-Infinity" }.into());
            }
            let t = f.trunc();
            if t.abs() < 9.2e18 {
                return Ok(FmtInt::Small(t as i64));
            }
            let (digits, p) = exact_decimal(t.abs());
            let mut s: String = digits.iter().map(|d| (b'0' + d) as char).collect();
            while (s.len() as i32) < p {
                s.push('0');
            }
            Ok(FmtInt::Big(s, t < 0.0))
        }
        Value::String(s) => ruby_integer(s, None).map(FmtInt::Small).ok_or_else(|| {
            format!(
                "invalid value for Integer(): {}",
                crate::catalog::names::ruby_inspect_str(s)
            )
        }),
        Value::Undef => Err("can't convert nil into Integer".into()),
        Value::Boolean(b) => Err(format!("can't convert {b} into Integer")),
        other => Err(format!("can't convert {} into Integer", ruby_class(other))),
    }
}

/// Ruby's `Float(x)` as `format` applies it for `%f`.
fn fmt_float(v: &Value) -> Result<f64, String> {
    match v {
        Value::Integer(n) => Ok(*n as f64),
        Value::Float(f) => Ok(*f),
        Value::String(s) => ruby_float_of(s).ok_or_else(|| {
            format!(
                "invalid value for Float(): {}",
                crate::catalog::names::ruby_inspect_str(s)
            )
        }),
        Value::Undef => Err("can't convert nil into Float".into()),
        Value::Boolean(b) => Err(format!("can't convert {b} into Float")),
        other => Err(format!("can't convert {} into Float", ruby_class(other))),
    }
}

/// Digits of a non-negative integer in base 2, 8 or 16.
fn radix_digits(mut n: u128, base: u32, upper: bool) -> String {
    if n == 0 {
        return "0".into();
    }
    let mut out = Vec::new();
    while n > 0 {
        let d = (n % base as u128) as u32;
        out.push(std::char::from_digit(d, base).unwrap_or('0'));
        n /= base as u128;
    }
    let s: String = out.into_iter().rev().collect();
    if upper {
        s.to_uppercase()
    } else {
        s
    }
}

fn format_integer(spec: &Spec, conv: char, v: &Value) -> Result<String, String> {
    let n = fmt_integer(v)?;
    let (base, upper) = match conv {
        'x' => (16, false),
        'X' => (16, true),
        'o' => (8, false),
        'b' | 'B' => (2, false),
        _ => (10, false),
    };
    let (neg, mag): (bool, String) = match &n {
        FmtInt::Small(i) => (
            *i < 0,
            if base == 10 {
                i.unsigned_abs().to_string()
            } else {
                radix_digits(i.unsigned_abs() as u128, base, upper)
            },
        ),
        FmtInt::Big(s, neg) => (*neg, s.clone()),
    };
    let prefix = if spec.alt {
        match conv {
            'x' => "0x",
            'X' => "0X",
            'b' => "0b",
            'B' => "0B",
            'o' => "0",
            _ => "",
        }
    } else {
        ""
    };
    // Ruby shows negative numbers in base 2, 8, 16 as two's complement
    // (`..f01`) unless a sign is asked for.
    if neg && base != 10 && !spec.plus && !spec.space {
        if let FmtInt::Small(i) = n {
            let bits_per = match base {
                16 => 4,
                8 => 3,
                _ => 1,
            };
            let width_bits = 128 - (128 % bits_per);
            let mask: u128 = if width_bits == 128 {
                u128::MAX
            } else {
                (1u128 << width_bits) - 1
            };
            let twos = (i as i128 as u128) & mask;
            let full = radix_digits(twos, base, upper);
            let sign_digit = std::char::from_digit(base - 1, base).unwrap_or('f');
            let sign_digit = if upper {
                sign_digit.to_ascii_uppercase()
            } else {
                sign_digit
            };
            let stripped = full.trim_start_matches(sign_digit);
            let mut body = format!("{sign_digit}{stripped}");
            if let Some(p) = spec.prec {
                let p = p.saturating_sub(2);
                while body.chars().count() < p {
                    body.insert(0, sign_digit);
                }
            } else if spec.zero && !spec.minus {
                let w = spec.width.unwrap_or(0).saturating_sub(2 + prefix.len());
                while body.chars().count() < w {
                    body.insert(0, sign_digit);
                }
            }
            let o_prefix = if conv == 'o' { "" } else { prefix };
            return Ok(spec.pad(&format!("{o_prefix}.."), &body, false));
        }
    }
    let sign = if neg {
        "-"
    } else if spec.plus {
        "+"
    } else if spec.space {
        " "
    } else {
        ""
    };
    let mut body = mag;
    if spec.prec == Some(0) && body == "0" {
        body.clear();
    }
    if let Some(p) = spec.prec {
        while body.len() < p {
            body.insert(0, '0');
        }
    }
    let is_zero = matches!(n, FmtInt::Small(0));
    let prefix = if (conv == 'o' && body.starts_with('0')) || (is_zero && conv != 'o') {
        ""
    } else {
        prefix
    };
    Ok(spec.pad(&format!("{sign}{prefix}"), &body, spec.prec.is_none()))
}

fn digits_str(d: &[u8]) -> String {
    d.iter().map(|x| (b'0' + x) as char).collect()
}

/// `%f`, `%e`, `%g` of a double, as Ruby's BSD `vfprintf` prints them.
fn format_float(spec: &Spec, conv: char, f: f64) -> String {
    let neg = f.is_sign_negative() && !f.is_nan();
    let sign = if neg {
        "-"
    } else if spec.plus {
        "+"
    } else if spec.space {
        " "
    } else {
        ""
    };
    if !f.is_finite() {
        let body = if f.is_nan() { "NaN" } else { "Inf" };
        return spec.pad(sign, body, false);
    }
    let a = f.abs();
    let upper = conv.is_ascii_uppercase();
    let body = match conv.to_ascii_lowercase() {
        'f' => {
            let prec = spec.prec.unwrap_or(6);
            let (digits, decpt) = ruby_dtoa(a, 3, prec as i32);
            fixed_body(&digits, decpt, prec, spec.alt)
        }
        'e' => {
            let prec = spec.prec.unwrap_or(6);
            let (digits, decpt) = ruby_dtoa(a, 2, prec as i32 + 1);
            exp_body(&digits, decpt, prec, spec.alt, upper, a == 0.0)
        }
        _ => {
            let p = match spec.prec {
                Some(0) => 1,
                Some(p) => p,
                None => 6,
            };
            let (digits, decpt) = ruby_dtoa(a, 2, p as i32);
            let expt = if a == 0.0 { 0 } else { decpt - 1 };
            if expt < -4 || expt >= p as i32 {
                let prec = if spec.alt {
                    p - 1
                } else {
                    digits.len().saturating_sub(1)
                };
                exp_body(&digits, decpt, prec, spec.alt, upper, a == 0.0)
            } else {
                let frac = if spec.alt {
                    (p as i32 - decpt.max(if a == 0.0 { 1 } else { decpt })).max(0) as usize
                } else {
                    (digits.len() as i32 - decpt).max(0) as usize
                };
                fixed_body(&digits, if a == 0.0 { 1 } else { decpt }, frac, spec.alt)
            }
        }
    };
    spec.pad(sign, &body, true)
}

fn fixed_body(digits: &[u8], decpt: i32, prec: usize, alt: bool) -> String {
    let all = digits_str(digits);
    let int_part = if decpt <= 0 || all.is_empty() {
        "0".to_string()
    } else if all.len() as i32 >= decpt {
        all[..decpt as usize].to_string()
    } else {
        format!("{all}{}", "0".repeat((decpt - all.len() as i32) as usize))
    };
    let mut frac = String::new();
    if decpt < 0 {
        frac.push_str(&"0".repeat((-decpt) as usize));
        frac.push_str(&all);
    } else if (decpt as usize) < all.len() {
        frac.push_str(&all[decpt as usize..]);
    }
    while frac.len() < prec {
        frac.push('0');
    }
    frac.truncate(prec);
    if prec > 0 || alt {
        format!("{int_part}.{frac}")
    } else {
        int_part
    }
}

fn exp_body(digits: &[u8], decpt: i32, prec: usize, alt: bool, upper: bool, zero: bool) -> String {
    let all = if digits.is_empty() {
        "0".to_string()
    } else {
        digits_str(digits)
    };
    let exp = if zero { 0 } else { decpt - 1 };
    let mut frac: String = all.chars().skip(1).collect();
    while frac.len() < prec {
        frac.push('0');
    }
    frac.truncate(prec);
    let mantissa = if prec > 0 || alt {
        format!("{}.{frac}", &all[..1])
    } else {
        all[..1].to_string()
    };
    format!(
        "{mantissa}{}{}{:02}",
        if upper { 'E' } else { 'e' },
        if exp < 0 { '-' } else { '+' },
        exp.abs()
    )
}

/// Ruby's `format(fmt, *args)`, with `to_s` as `ruby_to_s` gives it.
fn ruby_format(fmt: &str, args: &[Value]) -> Result<String, String> {
    let mut out = String::new();
    let mut fa = FmtArgs { args, next: 0 };
    let cs: Vec<char> = fmt.chars().collect();
    let mut i = 0;
    while i < cs.len() {
        let c = cs[i];
        if c != '%' {
            out.push(c);
            i += 1;
            continue;
        }
        let start = i;
        i += 1;
        let mut spec = Spec::default();
        let mut value: Option<&Value> = None;
        let mut started = false;
        loop {
            let Some(&c) = cs.get(i) else {
                return Err("incomplete format specifier; use %% (double %) instead".into());
            };
            i += 1;
            match c {
                ' ' => spec.space = true,
                '#' => spec.alt = true,
                '+' => spec.plus = true,
                '-' => spec.minus = true,
                '0' if spec.width.is_none() && spec.prec.is_none() => spec.zero = true,
                '1'..='9' | '0' => {
                    let mut n = c.to_digit(10).unwrap_or(0) as usize;
                    while let Some(d) = cs.get(i).and_then(|c| c.to_digit(10)) {
                        n = n.saturating_mul(10).saturating_add(d as usize);
                        i += 1;
                    }
                    if cs.get(i) == Some(&'$') {
                        i += 1;
                        value = Some(fa.at(n)?);
                    } else {
                        spec.width = Some(n);
                    }
                }
                '<' | '{' => {
                    let close = if c == '<' { '>' } else { '}' };
                    let end = cs[i..]
                        .iter()
                        .position(|&x| x == close)
                        .map(|p| i + p)
                        .ok_or("malformed name - unmatched parenthesis")?;
                    let name: String = cs[i..end].iter().collect();
                    i = end + 1;
                    let v = fa.named(&name)?;
                    if c == '{' {
                        let s = ruby_to_s(v);
                        out.push_str(&spec.pad("", &s, false));
                        break;
                    }
                    value = Some(v);
                }
                '*' => {
                    let w = match fa.next()? {
                        Value::Integer(n) => *n,
                        other => match fmt_integer(other)? {
                            FmtInt::Small(n) => n,
                            FmtInt::Big(..) => return Err("width too big".into()),
                        },
                    };
                    if w < 0 {
                        spec.minus = true;
                    }
                    spec.width = Some(w.unsigned_abs() as usize);
                }
                '.' => {
                    let mut n = 0usize;
                    if cs.get(i) == Some(&'*') {
                        i += 1;
                        if let Value::Integer(p) = fa.next()? {
                            n = (*p).max(0) as usize;
                        }
                    } else {
                        while let Some(d) = cs.get(i).and_then(|c| c.to_digit(10)) {
                            n = n.saturating_mul(10).saturating_add(d as usize);
                            i += 1;
                        }
                    }
                    spec.prec = Some(n);
                }
                '%' => {
                    if i - start > 2 || started {
                        return Err("invalid format character - %".into());
                    }
                    out.push('%');
                    break;
                }
                '\n' | '\0' => {
                    out.push('%');
                    i -= 1;
                    break;
                }
                conv @ ('d' | 'i' | 'u' | 'x' | 'X' | 'o' | 'b' | 'B' | 'f' | 'e' | 'E' | 'g'
                | 'G' | 's' | 'p' | 'c' | 'a' | 'A') => {
                    let v = match value {
                        Some(v) => v,
                        None => fa.next()?,
                    };
                    out.push_str(&format_one(&spec, conv, v)?);
                    break;
                }
                other => {
                    return Err(format!("malformed format string - %{other}"));
                }
            }
            started = true;
        }
    }
    Ok(out)
}

fn format_one(spec: &Spec, conv: char, v: &Value) -> Result<String, String> {
    Ok(match conv {
        'd' | 'i' | 'u' | 'x' | 'X' | 'o' | 'b' | 'B' => format_integer(spec, conv, v)?,
        'f' if matches!(v, Value::Integer(_)) => {
            // Ruby formats an Integer exactly.
            let Value::Integer(n) = v else { unreachable!() };
            let prec = spec.prec.unwrap_or(6);
            let sign = if *n < 0 {
                "-"
            } else if spec.plus {
                "+"
            } else if spec.space {
                " "
            } else {
                ""
            };
            let mut body = n.unsigned_abs().to_string();
            if prec > 0 || spec.alt {
                body.push('.');
                body.push_str(&"0".repeat(prec));
            }
            spec.pad(sign, &body, true)
        }
        'f' | 'e' | 'E' | 'g' | 'G' | 'a' | 'A' => format_float(spec, conv, fmt_float(v)?),
        'c' => {
            let ch = match v {
                Value::Integer(n) => u32::try_from(*n)
                    .ok()
                    .and_then(char::from_u32)
                    .ok_or_else(|| format!("invalid character: {n}"))?
                    .to_string(),
                Value::String(s) if s.chars().count() == 1 => s.to_string(),
                Value::String(_) => return Err("%c requires a character".into()),
                other => match fmt_integer(other)? {
                    FmtInt::Small(n) => u32::try_from(n)
                        .ok()
                        .and_then(char::from_u32)
                        .map(|c| c.to_string())
                        .unwrap_or_default(),
                    FmtInt::Big(..) => return Err("%c requires a character".into()),
                },
            };
            spec.pad("", &ch, false)
        }
        _ => {
            let mut s = if conv == 'p' {
                ruby_inspect(v)
            } else {
                ruby_to_s(v)
            };
            if let Some(p) = spec.prec {
                s = s.chars().take(p).collect();
            }
            spec.pad("", &s, false)
        }
    })
}

fn sprintf(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    cx.arity3(args, -2)?;
    let args = args3(args);
    let fmt = match &args[0] {
        Value::String(s) => s.to_string(),
        Value::Boolean(b) => return cx.fail(format!("no implicit conversion of {b} into String")),
        other => {
            return cx.fail(format!(
                "no implicit conversion of {} into String",
                ruby_class(other)
            ))
        }
    };
    match ruby_format(&fmt, &args[1..]) {
        Ok(s) => Ok(Value::string(s)),
        Err(e) => cx.fail(e),
    }
}

/// The arguments as a 3.x function receives them: undef as an empty string.
fn args3(args: &[Value]) -> Vec<Value> {
    args.iter()
        .map(|a| match a {
            Value::Undef => Value::string(""),
            Value::Type(t) => match t.as_ref() {
                // A resource reference becomes a `Puppet::Resource`.
                PType::Resource {
                    type_name: Some(tn),
                    title: Some(title),
                } => Value::string(format!("{tn}[{title}]")),
                PType::Class(Some(c)) => {
                    Value::string(format!("Class[{}]", crate::types::capitalize_segments(c)))
                }
                _ => a.clone(),
            },
            other => other.clone(),
        })
        .collect()
}

// ---------------------------------------------------------------------------
// Regular expressions.

fn match_(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let i = cx.dispatch(
        &[
            sig(&[("String", "string"), ("Variant[Any, Type]", "pattern")]),
            sig(&[
                ("Array[String]", "string"),
                ("Variant[Any, Type]", "pattern"),
            ]),
        ],
        args,
    )?;
    if i == 0 {
        return match_one(cx, args[0].as_str().unwrap_or_default(), &args[1]);
    }
    let mut out = Vec::new();
    if let Value::Array(items) = &args[0] {
        for s in items.iter() {
            out.push(match_one(cx, s.as_str().unwrap_or_default(), &args[1])?);
        }
    }
    Ok(Value::array(out))
}

fn match_one(cx: &Cx<'_, '_>, s: &str, pattern: &Value) -> R<Value> {
    match pattern {
        Value::String(p) | Value::Regexp(p) => do_match(cx, s, p),
        Value::Array(items) => {
            fn flat(v: &Value, out: &mut Vec<Value>) {
                match v {
                    Value::Array(a) => a.iter().for_each(|x| flat(x, out)),
                    o => out.push(o.clone()),
                }
            }
            let mut all = Vec::new();
            items.iter().for_each(|x| flat(x, &mut all));
            for p in all {
                let r = match_one(cx, s, &p)?;
                if !r.is_undef() {
                    return Ok(r);
                }
            }
            Ok(Value::Undef)
        }
        Value::Type(t) => match_type(cx, s, t),
        other => cx.fail(format!(
            "match() expects pattern of T, where T is String, Regexp, Regexp[r], Pattern[p], or Array[T]. Got {}",
            ruby_class(other)
        )),
    }
}

fn match_type(cx: &Cx<'_, '_>, s: &str, t: &PType) -> R<Value> {
    match t {
        PType::Regexp(Some(p)) => do_match(cx, s, p),
        PType::Regexp(None) => cx.fail("Given Regexp Type has no regular expression"),
        PType::Pattern(ps) => {
            for p in ps {
                let r = do_match(cx, s, p)?;
                if !r.is_undef() {
                    return Ok(r);
                }
            }
            Ok(Value::Undef)
        }
        PType::Variant(ts) => {
            for t in ts {
                let r = match_type(cx, s, t)?;
                if !r.is_undef() {
                    return Ok(r);
                }
            }
            Ok(Value::Undef)
        }
        PType::TypeAlias { .. } => match t.alias_target() {
            Some(r) => match_type(cx, s, &r),
            None => Ok(Value::Undef),
        },
        other => cx.fail(format!(
            "match() expects pattern of T, where T is String, Regexp, Regexp[r], Pattern[p], or Array[T]. Got {}",
            ruby_class(&type_value(other.clone()))
        )),
    }
}

fn do_match(cx: &Cx<'_, '_>, s: &str, src: &str) -> R<Value> {
    match super::typeops::regex_captures(src, s) {
        Ok(Some(caps)) => Ok(Value::array(caps)),
        Ok(None) => Ok(Value::Undef),
        Err(e) => cx.fail(e),
    }
}

fn regsubst(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let i = cx.dispatch(
        &[
            sig(&[
                ("Variant[Array[String],String]", "target"),
                ("String", "pattern"),
                ("Variant[String,Hash[String,String]]", "replacement"),
                ("Optional[Pattern[/^[GEIM]*$/]]", "flags"),
                ("Enum['N','E','S','U']", "encoding"),
            ])
            .opt(3),
            sig(&[
                ("Variant[Array[String],String]", "target"),
                ("Variant[Regexp,Type[Regexp]]", "pattern"),
                ("Variant[String,Hash[String,String]]", "replacement"),
                ("Pattern[/^G?$/]", "flags"),
            ])
            .opt(3),
        ],
        args,
    )?;
    let flags = args.get(3).and_then(|v| v.as_str()).unwrap_or("");
    let global = flags.contains('G');
    let src = if i == 0 {
        let mut inline = String::new();
        if flags.contains('I') {
            inline.push('i');
        }
        if flags.contains('E') {
            inline.push('x');
        }
        if flags.contains('M') {
            inline.push('m');
        }
        let p = args[1].as_str().unwrap_or_default();
        if inline.is_empty() {
            p.to_string()
        } else {
            format!("(?{inline}){p}")
        }
    } else {
        match &args[1] {
            Value::Regexp(r) => r.to_string(),
            Value::Type(t) => match t.as_ref() {
                PType::Regexp(Some(r)) => r.clone(),
                _ => String::new(),
            },
            _ => String::new(),
        }
    };
    let re = match crate::types::regex::compile(&src) {
        Ok(re) => re,
        Err(e) => return cx.fail(e),
    };
    let one = |s: &str| -> Result<String, String> { substitute(&re, &src, s, &args[2], global) };
    let r = match &args[0] {
        Value::Array(items) => items
            .iter()
            .map(|x| one(x.as_str().unwrap_or_default()).map(Value::string))
            .collect::<Result<Vec<_>, _>>()
            .map(Value::array),
        other => one(other.as_str().unwrap_or_default()).map(Value::string),
    };
    r.map_err(|e| cx.err(e))
}

/// Ruby's `sub`/`gsub` with a replacement template (`\0`, `\1`, `\k<n>`,
/// `` \` ``, `\'`, `\\`) or a hash of replacements.
fn substitute(
    re: &crate::types::regex::Regex,
    src: &str,
    s: &str,
    replacement: &Value,
    global: bool,
) -> Result<String, String> {
    let mut out = String::new();
    let mut last = 0;
    for caps in re.captures_iter(s) {
        let caps = caps.map_err(|e| format!("Error while matching /{src}/: {e}"))?;
        let Some(m) = caps.get(0) else { continue };
        out.push_str(&s[last..m.start()]);
        match replacement {
            Value::Hash(h) => {
                if let Some(v) = h.get(&Value::string(m.as_str())) {
                    out.push_str(&ruby_to_s(v));
                }
            }
            other => {
                let t: Vec<char> = other.as_str().unwrap_or_default().chars().collect();
                let mut i = 0;
                while i < t.len() {
                    if t[i] != '\\' || i + 1 == t.len() {
                        out.push(t[i]);
                        i += 1;
                        continue;
                    }
                    let n = t[i + 1];
                    i += 2;
                    match n {
                        '0'..='9' => {
                            let g = n.to_digit(10).unwrap_or(0) as usize;
                            if let Some(x) = caps.get(g) {
                                out.push_str(x.as_str());
                            }
                        }
                        '&' => out.push_str(m.as_str()),
                        '`' => out.push_str(&s[..m.start()]),
                        '\'' => out.push_str(&s[m.end()..]),
                        '\\' => out.push('\\'),
                        'k' if t.get(i) == Some(&'<') => {
                            match t[i..].iter().position(|&c| c == '>') {
                                Some(end) => {
                                    let name: String = t[i + 1..i + end].iter().collect();
                                    if let Some(x) = caps.name(&name) {
                                        out.push_str(x.as_str());
                                    }
                                    i += end + 1;
                                }
                                None => {
                                    out.push('\\');
                                    out.push('k');
                                }
                            }
                        }
                        other => {
                            out.push('\\');
                            out.push(other);
                        }
                    }
                }
            }
        }
        last = m.end();
        if !global {
            break;
        }
    }
    out.push_str(&s[last..]);
    Ok(out)
}

// ---------------------------------------------------------------------------
// Variables and navigation.

fn get(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    cx.dispatch(
        &[sig(&[
            ("Any", "value"),
            ("String", "dotted_string"),
            ("Any", "default_value"),
        ])
        .opt(2)
        .opt_block("Callable[1,1]")],
        args,
    )?;
    let default = args.get(2).cloned().unwrap_or(Value::Undef);
    navigate(cx, &args[0], args[1].as_str().unwrap_or_default(), default)
}

/// `get`'s navigation into a value by a dotted path (`a.0.b`).
fn navigate(cx: &mut Cx<'_, '_>, value: &Value, path: &str, default: Value) -> R<Value> {
    if value.is_undef() {
        return Ok(default);
    }
    if path.is_empty() {
        return Ok(value.clone());
    }
    let segments = match split_dotted(path) {
        Some(s) => s,
        None => return cx.fail("Syntax error in dotted-navigation string"),
    };
    let mut v = value.clone();
    let mut walked: Vec<Value> = Vec::new();
    for seg in &segments {
        if v.is_undef() {
            break;
        }
        let problem = match (&v, seg) {
            (Value::Hash(_), _) | (Value::Array(_), Value::Integer(_)) => None,
            (Value::Array(_), k) => {
                walked.push(k.clone());
                Some((
                    format!(
                        "The given data requires an Integer index at {}, got '{}'",
                        ruby_inspect(&Value::array(walked.clone())),
                        crate::types::infer(k)
                    ),
                    "EXPECTED_INTEGER_INDEX",
                ))
            }
            (other, _) => Some((
                format!(
                    "The given data does not contain a Collection at {}, got '{}'",
                    ruby_inspect(&Value::array(walked.clone())),
                    crate::types::infer(other)
                ),
                "EXPECTED_COLLECTION",
            )),
        };
        if let Some((msg, code)) = problem {
            if cx.lambda.is_some() {
                // Puppet passes an Error object; its parts as a hash here.
                let mut e = Map::new();
                e.insert(Value::string("msg"), Value::string(msg));
                e.insert(Value::string("kind"), Value::string("SLICE_ERROR"));
                e.insert(Value::string("issue_code"), Value::string(code));
                return cx.yield_(&[Value::hash(e)]);
            }
            return cx.fail(msg);
        }
        walked.push(seg.clone());
        v = match (&v, seg) {
            (Value::Hash(h), k) => h.get(k).cloned().unwrap_or(Value::Undef),
            (Value::Array(a), Value::Integer(i)) => {
                let idx = if *i < 0 { a.len() as i64 + i } else { *i };
                usize::try_from(idx)
                    .ok()
                    .and_then(|i| a.get(i).cloned())
                    .unwrap_or(Value::Undef)
            }
            _ => Value::Undef,
        };
    }
    if v.is_undef() {
        return Ok(default);
    }
    Ok(v)
}

/// Splits `a.b.'c.d'.0` into keys: quoted segments are strings, unquoted
/// integers are indexes.
fn split_dotted(path: &str) -> Option<Vec<Value>> {
    let cs: Vec<char> = path.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    loop {
        let seg = if matches!(cs.get(i), Some('"' | '\'')) {
            let q = cs[i];
            let end = cs[i + 1..].iter().position(|&c| c == q)? + i + 1;
            let s: String = cs[i + 1..end].iter().collect();
            i = end + 1;
            Value::string(s)
        } else {
            let end = cs[i..]
                .iter()
                .position(|&c| c == '.')
                .map(|p| p + i)
                .unwrap_or(cs.len());
            let s: String = cs[i..end].iter().collect();
            i = end;
            if s.is_empty() {
                return None;
            }
            match s.parse::<i64>() {
                Ok(n) if s.bytes().all(|b| b.is_ascii_digit() || b == b'-') => Value::Integer(n),
                _ => Value::string(s),
            }
        };
        out.push(seg);
        match cs.get(i) {
            None => return Some(out),
            Some('.') => i += 1,
            Some(_) => return None,
        }
    }
}

fn getvar(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let ok = cx.dispatch(
        &[sig(&[
            (
                "Pattern[/\\A(?:::)?(?:[a-z]\\w*::)*[a-z_]\\w*(?:\\.|\\Z)/]",
                "get_string",
            ),
            ("Any", "default_value"),
        ])
        .opt(1)
        .opt_block("Callable[1,1]")],
        args,
    );
    if let Err(e) = ok {
        if matches!(args.first(), Some(Value::String(_))) && args.len() <= 2 {
            return cx.fail("'getvar' The given string does not start with a valid variable name");
        }
        return Err(e);
    }
    let s = args[0].as_str().unwrap_or_default();
    let name_len = {
        let b = s.as_bytes();
        let mut i = 0;
        while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b':') {
            i += 1;
        }
        i
    };
    let (var, rest) = s.split_at(name_len);
    let nav = match rest.strip_prefix('.') {
        Some(n) => n,
        None if rest.is_empty() => "",
        None => {
            return cx.fail(format!(
                "First character after var name in get string must be a '.' - got {}",
                rest.chars().next().unwrap_or(' ')
            ))
        }
    };
    let default = args.get(1).cloned().unwrap_or(Value::Undef);
    match lookup_var(cx, var) {
        Some(v) => navigate(cx, &v, nav, default),
        None => Ok(default),
    }
}

/// A variable by its (possibly qualified) name, as `getvar` looks it up.
fn lookup_var(cx: &Cx<'_, '_>, name: &str) -> Option<Value> {
    let bare = name.trim_start_matches("::");
    match bare.rsplit_once("::") {
        Some((class, var)) => {
            let scope = *cx.c.class_scopes.get(&class.to_lowercase())?;
            cx.c.scopes.get(scope).vars.get(var).cloned()
        }
        None if name.starts_with("::") => cx.c.scopes.get(cx.c.top).vars.get(bare).cloned(),
        None => cx.c.scopes.lookup(cx.scope, bare).cloned(),
    }
}

// ---------------------------------------------------------------------------
// Digests, fqdn_rand, shellquote (3.x functions).

fn digest_arg(cx: &Cx<'_, '_>, args: &[Value]) -> R<Vec<u8>> {
    cx.arity3(args, 1)?;
    match &args3(args)[0] {
        Value::String(s) => Ok(s.as_bytes().to_vec()),
        other => cx.fail(format!(
            "no implicit conversion of {} into String",
            match other {
                Value::Boolean(true) => "true".to_string(),
                Value::Boolean(false) => "false".to_string(),
                o => ruby_class(o),
            }
        )),
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn md5(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let data = digest_arg(cx, args)?;
    Ok(Value::string(hex(&md5_digest(&data))))
}

fn sha1(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let data = digest_arg(cx, args)?;
    Ok(Value::string(hex(&sha1_digest(&data))))
}

fn sha256(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let data = digest_arg(cx, args)?;
    Ok(Value::string(hex(&sha256_digest(&data))))
}

/// `digest`: the `digest_algorithm` setting's digest, SHA-256 by default.
fn digest(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let data = digest_arg(cx, args)?;
    let algo =
        cx.c.node
            .settings
            .get(&Value::string("digest_algorithm"))
            .map(|v| v.to_string())
            .unwrap_or_else(|| "sha256".into());
    Ok(Value::string(match algo.as_str() {
        "md5" => hex(&md5_digest(&data)),
        "sha1" => hex(&sha1_digest(&data)),
        _ => hex(&sha256_digest(&data)),
    }))
}

fn md5_digest(data: &[u8]) -> [u8; 16] {
    const S: [u32; 64] = [
        7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 5, 9, 14, 20, 5, 9, 14, 20, 5,
        9, 14, 20, 5, 9, 14, 20, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 6, 10,
        15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
    ];
    let k: Vec<u32> = (0..64)
        .map(|i| ((i as f64 + 1.0).sin().abs() * 4294967296.0) as u32)
        .collect();
    let mut msg = data.to_vec();
    let bit_len = (data.len() as u64).wrapping_mul(8);
    msg.push(0x80);
    while msg.len() % 64 != 56 {
        msg.push(0);
    }
    msg.extend_from_slice(&bit_len.to_le_bytes());
    let (mut a0, mut b0, mut c0, mut d0) =
        (0x67452301u32, 0xefcdab89u32, 0x98badcfeu32, 0x10325476u32);
    for chunk in msg.chunks(64) {
        let m: Vec<u32> = chunk
            .chunks(4)
            .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
            .collect();
        let (mut a, mut b, mut c, mut d) = (a0, b0, c0, d0);
        for i in 0..64 {
            let (f, g) = match i / 16 {
                0 => ((b & c) | (!b & d), i),
                1 => ((d & b) | (!d & c), (5 * i + 1) % 16),
                2 => (b ^ c ^ d, (3 * i + 5) % 16),
                _ => (c ^ (b | !d), (7 * i) % 16),
            };
            let f = f.wrapping_add(a).wrapping_add(k[i]).wrapping_add(m[g]);
            a = d;
            d = c;
            c = b;
            b = b.wrapping_add(f.rotate_left(S[i]));
        }
        a0 = a0.wrapping_add(a);
        b0 = b0.wrapping_add(b);
        c0 = c0.wrapping_add(c);
        d0 = d0.wrapping_add(d);
    }
    let mut out = [0u8; 16];
    for (i, w) in [a0, b0, c0, d0].iter().enumerate() {
        out[i * 4..i * 4 + 4].copy_from_slice(&w.to_le_bytes());
    }
    out
}

fn sha_pad(data: &[u8]) -> Vec<u8> {
    let mut msg = data.to_vec();
    let bit_len = (data.len() as u64).wrapping_mul(8);
    msg.push(0x80);
    while msg.len() % 64 != 56 {
        msg.push(0);
    }
    msg.extend_from_slice(&bit_len.to_be_bytes());
    msg
}

fn sha1_digest(data: &[u8]) -> [u8; 20] {
    let mut h: [u32; 5] = [0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0];
    for chunk in sha_pad(data).chunks(64) {
        let mut w = [0u32; 80];
        for i in 0..16 {
            w[i] = u32::from_be_bytes([
                chunk[4 * i],
                chunk[4 * i + 1],
                chunk[4 * i + 2],
                chunk[4 * i + 3],
            ]);
        }
        for i in 16..80 {
            w[i] = (w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]).rotate_left(1);
        }
        let (mut a, mut b, mut c, mut d, mut e) = (h[0], h[1], h[2], h[3], h[4]);
        for (i, wi) in w.iter().enumerate() {
            let (f, k) = match i / 20 {
                0 => ((b & c) | (!b & d), 0x5A827999),
                1 => (b ^ c ^ d, 0x6ED9EBA1),
                2 => ((b & c) | (b & d) | (c & d), 0x8F1BBCDC),
                _ => (b ^ c ^ d, 0xCA62C1D6u32),
            };
            let t = a
                .rotate_left(5)
                .wrapping_add(f)
                .wrapping_add(e)
                .wrapping_add(k)
                .wrapping_add(*wi);
            e = d;
            d = c;
            c = b.rotate_left(30);
            b = a;
            a = t;
        }
        for (x, y) in h.iter_mut().zip([a, b, c, d, e]) {
            *x = x.wrapping_add(y);
        }
    }
    let mut out = [0u8; 20];
    for (i, w) in h.iter().enumerate() {
        out[i * 4..i * 4 + 4].copy_from_slice(&w.to_be_bytes());
    }
    out
}

fn sha256_digest(data: &[u8]) -> [u8; 32] {
    const K: [u32; 64] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
        0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
        0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
        0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
        0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
        0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
        0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
        0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2,
    ];
    let mut h: [u32; 8] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
        0x5be0cd19,
    ];
    for chunk in sha_pad(data).chunks(64) {
        let mut w = [0u32; 64];
        for i in 0..16 {
            w[i] = u32::from_be_bytes([
                chunk[4 * i],
                chunk[4 * i + 1],
                chunk[4 * i + 2],
                chunk[4 * i + 3],
            ]);
        }
        for i in 16..64 {
            let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
            let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16]
                .wrapping_add(s0)
                .wrapping_add(w[i - 7])
                .wrapping_add(s1);
        }
        let mut v = h;
        for i in 0..64 {
            let s1 = v[4].rotate_right(6) ^ v[4].rotate_right(11) ^ v[4].rotate_right(25);
            let ch = (v[4] & v[5]) ^ (!v[4] & v[6]);
            let t1 = v[7]
                .wrapping_add(s1)
                .wrapping_add(ch)
                .wrapping_add(K[i])
                .wrapping_add(w[i]);
            let s0 = v[0].rotate_right(2) ^ v[0].rotate_right(13) ^ v[0].rotate_right(22);
            let maj = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]);
            let t2 = s0.wrapping_add(maj);
            v[7] = v[6];
            v[6] = v[5];
            v[5] = v[4];
            v[4] = v[3].wrapping_add(t1);
            v[3] = v[2];
            v[2] = v[1];
            v[1] = v[0];
            v[0] = t1.wrapping_add(t2);
        }
        for (x, y) in h.iter_mut().zip(v) {
            *x = x.wrapping_add(y);
        }
    }
    let mut out = [0u8; 32];
    for (i, w) in h.iter().enumerate() {
        out[i * 4..i * 4 + 4].copy_from_slice(&w.to_be_bytes());
    }
    out
}

/// Ruby's MT19937 (`Random.new(seed)`).
struct Mt {
    state: [u32; 624],
    index: usize,
}

impl Mt {
    fn init_genrand(s: u32) -> Mt {
        let mut state = [0u32; 624];
        state[0] = s;
        for i in 1..624 {
            state[i] = 1812433253u32
                .wrapping_mul(state[i - 1] ^ (state[i - 1] >> 30))
                .wrapping_add(i as u32);
        }
        Mt { state, index: 624 }
    }

    fn init_by_array(key: &[u32]) -> Mt {
        let mut mt = Mt::init_genrand(19650218);
        let n = 624;
        let (mut i, mut j) = (1usize, 0usize);
        let mut k = n.max(key.len());
        while k > 0 {
            let prev = mt.state[i - 1];
            mt.state[i] = (mt.state[i] ^ (prev ^ (prev >> 30)).wrapping_mul(1664525))
                .wrapping_add(key[j])
                .wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= n {
                mt.state[0] = mt.state[n - 1];
                i = 1;
            }
            if j >= key.len() {
                j = 0;
            }
            k -= 1;
        }
        k = n - 1;
        while k > 0 {
            let prev = mt.state[i - 1];
            mt.state[i] = (mt.state[i] ^ (prev ^ (prev >> 30)).wrapping_mul(1566083941))
                .wrapping_sub(i as u32);
            i += 1;
            if i >= n {
                mt.state[0] = mt.state[n - 1];
                i = 1;
            }
            k -= 1;
        }
        mt.state[0] = 0x80000000;
        mt
    }

    fn next_u32(&mut self) -> u32 {
        if self.index >= 624 {
            for i in 0..624 {
                let y = (self.state[i] & 0x80000000) | (self.state[(i + 1) % 624] & 0x7fffffff);
                let mut v = self.state[(i + 397) % 624] ^ (y >> 1);
                if y & 1 != 0 {
                    v ^= 0x9908b0df;
                }
                self.state[i] = v;
            }
            self.index = 0;
        }
        let mut y = self.state[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c5680;
        y ^= (y << 15) & 0xefc60000;
        y ^ (y >> 18)
    }

    /// Ruby's `limited_rand`: uniform in `0..=limit`.
    fn limited(&mut self, limit: u64) -> u64 {
        if limit == 0 {
            return 0;
        }
        let bits = 64 - limit.leading_zeros();
        let mask = if bits == 64 {
            u64::MAX
        } else {
            (1u64 << bits) - 1
        };
        'retry: loop {
            let mut val = 0u64;
            for i in (0..2).rev() {
                if (mask >> (i * 32)) & 0xffff_ffff != 0 {
                    val |= (self.next_u32() as u64) << (i * 32);
                    val &= mask;
                    if limit < val {
                        continue 'retry;
                    }
                }
            }
            return val;
        }
    }
}

/// `Random.new(seed)` for a non-negative seed given as big-endian bytes.
fn ruby_random(seed_be: &[u8]) -> Mt {
    let mut words: Vec<u32> = seed_be
        .rchunks(4)
        .map(|c| {
            let mut b = [0u8; 4];
            b[4 - c.len()..].copy_from_slice(c);
            u32::from_be_bytes(b)
        })
        .collect();
    while words.len() > 1 && words.last() == Some(&0) {
        words.pop();
    }
    if words.is_empty() {
        words.push(0);
    }
    if words.len() > 1 && words.last() == Some(&1) {
        words.pop();
    }
    if words.len() <= 1 {
        return Mt::init_genrand(words[0]);
    }
    Mt::init_by_array(&words)
}

fn fqdn_rand(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    cx.arity3(args, -2)?;
    let args = args3(args);
    let max = match &args[0] {
        Value::Integer(n) => *n,
        Value::Float(f) => *f as i64,
        Value::String(s) => ruby_to_i(s),
        _ => 0,
    };
    let seed = args.get(1).map(ruby_join_piece).unwrap_or_default();
    let downcase = args.get(2).is_some_and(|v| v.is_truthy());
    let facts = cx.c.scopes.get(cx.c.top).vars.get("facts").cloned();
    let fqdn = facts
        .as_ref()
        .and_then(|f| match f {
            Value::Hash(h) => h.get(&Value::string("networking")).cloned(),
            _ => None,
        })
        .and_then(|n| match n {
            Value::Hash(h) => h.get(&Value::string("fqdn")).cloned(),
            _ => None,
        })
        .map(|v| ruby_join_piece(&v))
        .unwrap_or_default();
    let fqdn = if downcase { fqdn.to_lowercase() } else { fqdn };
    let text = format!("{fqdn}:{max}:{seed}");
    if max <= 0 {
        return cx.fail(format!("invalid argument - {max}"));
    }
    let digest = md5_digest(text.as_bytes());
    let mut mt = ruby_random(&digest);
    Ok(Value::Integer(mt.limited(max as u64 - 1) as i64))
}

/// An element as Ruby's `Array#join` writes it (arrays flattened).
fn ruby_join_piece(v: &Value) -> String {
    match v {
        Value::Array(items) => items
            .iter()
            .map(ruby_join_piece)
            .collect::<Vec<_>>()
            .join(":"),
        other => ruby_to_s(other),
    }
}

fn shellquote(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let safe = |c: char| c.is_ascii_alphanumeric() || "@%_+=:,./-".contains(c);
    let dangerous = |c: char| "!\"`$\\".contains(c);
    fn flat(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::Array(a) => a.iter().for_each(|x| flat(x, out)),
            other => out.push(ruby_to_s(other)),
        }
    }
    fn flat_values(v: &Value, out: &mut Vec<Value>) {
        match v {
            Value::Array(a) => a.iter().for_each(|x| flat_values(x, out)),
            other => out.push(other.clone()),
        }
    }
    let mut values = Vec::new();
    args3(args).iter().for_each(|a| flat_values(a, &mut values));
    if let Some(bad) = values.iter().find(|v| !matches!(v, Value::String(_))) {
        return cx.fail(format!(
            "undefined method `length' for {}:{}",
            ruby_inspect(bad),
            ruby_class(bad)
        ));
    }
    let mut words = Vec::new();
    values.iter().for_each(|a| flat(a, &mut words));
    let quoted: Vec<String> = words
        .into_iter()
        .map(|w| {
            if !w.is_empty() && w.chars().all(safe) {
                w
            } else if !w.chars().any(dangerous) {
                format!("\"{w}\"")
            } else if !w.contains('\'') {
                format!("'{w}'")
            } else {
                let mut r = String::from("\"");
                for c in w.chars() {
                    if dangerous(c) {
                        r.push('\\');
                    }
                    r.push(c);
                }
                r.push('"');
                r
            }
        })
        .collect();
    Ok(Value::string(quoted.join(" ")))
}

// ---------------------------------------------------------------------------
// `new`: type conversions.

fn convert_to(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    cx.dispatch(
        &[sig(&[("Any", "value"), ("Type", "type"), ("Any", "args")])
            .rest(2)
            .opt_block("Callable[1,1]")],
        args,
    )?;
    let mut new_args = vec![args[1].clone(), args[0].clone()];
    new_args.extend(args[2..].iter().cloned());
    let lambda = cx.lambda.take();
    let result = new(cx, &new_args);
    cx.lambda = lambda;
    let result = result?;
    if cx.lambda.is_some() {
        return cx.yield_(&[result]);
    }
    Ok(result)
}

fn new(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    cx.dispatch(
        &[sig(&[("Type", "type"), ("Any", "args")])
            .rest(1)
            .opt_block("Callable")],
        args,
    )?;
    let Value::Type(t) = &args[0] else {
        return Ok(Value::Undef);
    };
    let rest = &args[1..];
    if rest.len() == 1
        && !matches!(t.as_ref(), PType::Init { .. })
        && crate::types::is_instance(t, &rest[0])
    {
        return Ok(rest[0].clone());
    }
    let result = new_value(cx, t, rest)?;
    if !crate::types::is_instance(t, &result) {
        return cx.fail(crate::types::describe_mismatch_named(
            &format!("Converted value from {t}.new() has wrong type,"),
            t,
            &crate::types::infer_set(&result),
        ));
    }
    if cx.lambda.is_some() {
        return cx.yield_(&[result]);
    }
    Ok(result)
}

/// The generalized type of a value, for "Value of type X cannot be
/// converted" messages.
fn general_type(v: &Value) -> String {
    crate::types::infer(v).generalize().to_string()
}

/// `t.new_function.call(*args)`.
fn new_value(cx: &mut Cx<'_, '_>, t: &PType, args: &[Value]) -> R<Value> {
    let unsupported = || format!("Creation of new instance of type '{t}' is not supported");
    match t {
        PType::Integer { .. } => new_integer(cx, args),
        PType::Float { .. } => new_float(cx, args),
        PType::Numeric => new_numeric(cx, args),
        PType::String { .. } => new_string(cx, args),
        PType::Boolean(_) => new_boolean(cx, args),
        PType::Array { .. } | PType::Tuple { .. } => new_array(cx, args),
        PType::Hash { .. } | PType::Struct(_) => new_hash(cx, args),
        PType::Optional(Some(inner)) | PType::NotUndef(Some(inner)) => new_value(cx, inner, args),
        PType::Optional(None) | PType::NotUndef(None) => {
            let sub = Cx {
                c: &mut *cx.c,
                name: "new_unit",
                lambda: None,
                scope: cx.scope,
                ctx: cx.ctx,
                at: cx.at,
            };
            sub.dispatch(&[sig(&[("Any", "from")])], args)?;
            Ok(args[0].clone())
        }
        PType::TypeAlias { .. } => match t.alias_target() {
            Some(r) => new_value(cx, &r, args),
            None => cx.fail(unsupported()),
        },
        PType::Sensitive(_) => {
            let sub = Cx {
                c: &mut *cx.c,
                name: "new_Sensitive",
                lambda: None,
                scope: cx.scope,
                ctx: cx.ctx,
                at: cx.at,
            };
            sub.dispatch(
                &[sig(&[("Sensitive", "value")]), sig(&[("Any", "value")])],
                args,
            )?;
            Ok(match &args[0] {
                Value::Sensitive(_) => args[0].clone(),
                other => Value::Sensitive(Arc::new(other.clone())),
            })
        }
        PType::Regexp(_) => {
            let sub = Cx {
                c: &mut *cx.c,
                name: "new_float",
                lambda: None,
                scope: cx.scope,
                ctx: cx.ctx,
                at: cx.at,
            };
            sub.dispatch(
                &[sig(&[("String", "pattern"), ("Boolean", "escape")]).opt(1)],
                args,
            )?;
            let p = args[0].as_str().unwrap_or_default();
            let src = if matches!(args.get(1), Some(Value::Boolean(true))) {
                ruby_regexp_escape(p)
            } else {
                p.to_string()
            };
            if let Err(e) = crate::types::regex::compile(&src) {
                return cx.fail(e);
            }
            Ok(Value::Regexp(src.into()))
        }
        PType::Type(_) => {
            let sub = Cx {
                c: &mut *cx.c,
                name: "new_type",
                lambda: None,
                scope: cx.scope,
                ctx: cx.ctx,
                at: cx.at,
            };
            sub.dispatch(&[sig(&[("String[1]", "type_string")])], args)?;
            let s = args[0].as_str().unwrap_or_default();
            match TypeParser::new(s).value() {
                Value::Type(t) if !matches!(t.as_ref(), PType::Any) || s.trim() == "Any" => {
                    Ok(Value::Type(t))
                }
                _ => cx.fail(format!("pverify: cannot parse the type string '{s}'")),
            }
        }
        PType::Timespan { .. }
        | PType::Timestamp { .. }
        | PType::SemVer(_)
        | PType::SemVerRange
        | PType::Binary
        | PType::Uri(_)
        | PType::Object(_)
        | PType::Init { .. } => cx.fail(format!(
            "pverify does not support values of type {} (in {t}.new())",
            t.simple_name()
        )),
        _ => cx.fail(unsupported()),
    }
}

/// Ruby's `Regexp.escape`.
fn ruby_regexp_escape(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        match c {
            '.' | '*' | '?' | '+' | '^' | '$' | '|' | '(' | ')' | '[' | ']' | '{' | '}' | '\\'
            | '/' | '-' => {
                out.push('\\');
                out.push(c);
            }
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\x0c' => out.push_str("\\f"),
            '\x0b' => out.push_str("\\v"),
            ' ' => out.push_str("\\ "),
            '#' => out.push_str("\\#"),
            c => out.push(c),
        }
    }
    out
}

/// `\A[+-]?\s*(?:\d+|0[xX][0-9A-Fa-f]+|0[bB][01]+)\z` (INTEGER_PATTERN_LENIENT).
fn integer_lenient(s: &str) -> bool {
    let t = s.strip_prefix(['+', '-']).unwrap_or(s);
    let t = t.trim_start_matches(|c: char| c.is_ascii_whitespace());
    if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        return !h.is_empty() && h.bytes().all(|b| b.is_ascii_hexdigit());
    }
    if let Some(b) = t.strip_prefix("0b").or_else(|| t.strip_prefix("0B")) {
        return !b.is_empty() && b.bytes().all(|c| c == b'0' || c == b'1');
    }
    !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit())
}

/// FLOAT_PATTERN: decimal with optional fraction and exponent, or hex,
/// octal, binary integers.
fn float_pattern(s: &str) -> bool {
    let t = s.strip_prefix(['+', '-']).unwrap_or(s);
    let t = t.trim_start_matches(|c: char| c.is_ascii_whitespace());
    if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        return !h.is_empty() && h.bytes().all(|b| b.is_ascii_hexdigit());
    }
    if let Some(b) = t.strip_prefix("0b").or_else(|| t.strip_prefix("0B")) {
        return !b.is_empty() && b.bytes().all(|c| c == b'0' || c == b'1');
    }
    if t.len() > 1 && t.starts_with('0') && t.bytes().all(|c| (b'0'..=b'7').contains(&c)) {
        return true;
    }
    let b = t.as_bytes();
    let mut i = 0;
    if b.first() == Some(&b'0') {
        i = 1;
    } else if b.first().is_some_and(|c| (b'1'..=b'9').contains(c)) {
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
    } else {
        return false;
    }
    if i < b.len() && b[i] == b'.' {
        let start = i + 1;
        i = start;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && b[i] == b'-' {
            i += 1;
        }
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    i == b.len()
}

/// `\A([+-])[[:blank:]]+(.*)\z`: a sign separated from its number.
fn ws_after_sign(s: &str) -> Option<String> {
    let sign = s.chars().next().filter(|c| *c == '+' || *c == '-')?;
    let rest = &s[1..];
    let body = rest.trim_start_matches([' ', '\t']);
    if body.len() == rest.len() || body.contains('\n') {
        return None;
    }
    Some(format!("{sign}{body}"))
}

fn new_integer(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let (from, radix, abs) = match args {
        [Value::Hash(h)] if h.get(&Value::string("from")).is_some() => (
            h.get(&Value::string("from"))
                .cloned()
                .unwrap_or(Value::Undef),
            h.get(&Value::string("radix"))
                .cloned()
                .unwrap_or(Value::Default),
            h.get(&Value::string("abs"))
                .cloned()
                .unwrap_or(Value::Boolean(false)),
        ),
        [] => {
            let sub = Cx {
                c: &mut *cx.c,
                name: "new",
                lambda: None,
                scope: cx.scope,
                ctx: cx.ctx,
                at: cx.at,
            };
            sub.dispatch(
                &[sig(&[("Any", "from"), ("Integer", "radix"), ("Boolean", "abs")]).opt(1)],
                args,
            )?;
            return Ok(Value::Undef);
        }
        _ => (
            args[0].clone(),
            args.get(1).cloned().unwrap_or(Value::Default),
            args.get(2).cloned().unwrap_or(Value::Boolean(false)),
        ),
    };
    let radix = match radix {
        Value::Default | Value::Undef => None,
        Value::Integer(r @ (2 | 8 | 10 | 16)) => Some(r as u32),
        Value::Integer(r) => {
            return cx.fail(format!(
                "Illegal radix: {r}, expected 2, 8, 10, 16, or default"
            ))
        }
        other => {
            return cx.fail(format!(
                "Illegal radix: {}, expected 2, 8, 10, 16, or default",
                ruby_to_s(&other)
            ))
        }
    };
    let convertible = match &from {
        Value::Integer(_) | Value::Float(_) | Value::Boolean(_) => true,
        Value::String(s) => integer_lenient(s),
        _ => false,
    };
    if !convertible {
        return cx.fail(match &from {
            Value::String(s) => format!("'new' The string '{s}' cannot be converted to Integer"),
            other => format!(
                "'new' Value of type {} cannot be converted to Integer",
                general_type(other)
            ),
        });
    }
    let too_big = |hex: String| {
        format!("Use of a Ruby Integer outside of Puppet Integer max range, got '{hex}'")
    };
    let n = match &from {
        Value::Integer(n) => *n,
        Value::Float(f) if f.trunc().abs() >= 9.223_372_036_854_776e18 => {
            let (digits, p) = exact_decimal(f.trunc().abs());
            let mut dec: String = digits_str(&digits);
            while (dec.len() as i32) < p {
                dec.push('0');
            }
            let hex = dec
                .parse::<u128>()
                .map(|n| format!("{}0x{n:x}", if *f < 0.0 { "-" } else { "" }))
                .unwrap_or(dec);
            return cx.fail(too_big(hex));
        }
        Value::Float(f) => *f as i64,
        Value::Boolean(b) => *b as i64,
        Value::String(s) => match ruby_integer(s, radix)
            .or_else(|| ws_after_sign(s).and_then(|t| ruby_integer(&t, radix)))
        {
            Some(n) => n,
            None if s.trim().bytes().all(|b| b.is_ascii_digit()) && s.trim().len() > 18 => {
                match s.trim().parse::<u128>() {
                    Ok(n) => return cx.fail(too_big(format!("0x{n:x}"))),
                    Err(_) => return cx.fail(too_big(s.trim().to_string())),
                }
            }
            None => {
                return cx.fail(match radix {
                    None => format!(
                        "invalid value for Integer(): {}",
                        crate::catalog::names::ruby_inspect_str(s)
                    ),
                    Some(_) => format!(
                        "invalid value for Integer(): {}",
                        crate::catalog::names::ruby_inspect_str(s)
                    ),
                })
            }
        },
        _ => 0,
    };
    Ok(Value::Integer(if abs.is_truthy() {
        n.wrapping_abs()
    } else {
        n
    }))
}

fn new_float(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let (from, abs) = match args {
        [Value::Hash(h)] if h.get(&Value::string("from")).is_some() => (
            h.get(&Value::string("from"))
                .cloned()
                .unwrap_or(Value::Undef),
            h.get(&Value::string("abs"))
                .cloned()
                .unwrap_or(Value::Boolean(false)),
        ),
        [] => return cx.fail("'new_float' expects between 1 and 2 arguments, got none"),
        _ => (
            args[0].clone(),
            args.get(1).cloned().unwrap_or(Value::Boolean(false)),
        ),
    };
    let convertible = match &from {
        Value::Integer(_) | Value::Float(_) | Value::Boolean(_) => true,
        Value::String(s) => float_pattern(s),
        _ => false,
    };
    if !convertible {
        return cx.fail(match &from {
            Value::String(s) => {
                format!("'new_float' The string '{s}' cannot be converted to Float")
            }
            other => format!(
                "'new_float' Value of type {} cannot be converted to Float",
                general_type(other)
            ),
        });
    }
    let f = match &from {
        Value::Integer(n) => *n as f64,
        Value::Float(f) => *f,
        Value::Boolean(b) => f64::from(u8::from(*b)),
        Value::String(s) => {
            let parse = |s: &str| -> Option<f64> {
                let t = s.trim_start_matches(['+', '-']);
                if t.len() > 1 && t.starts_with('0') && matches!(t.as_bytes()[1], b'b' | b'B') {
                    return ruby_integer(s, None).map(|n| n as f64);
                }
                ruby_float_of(s)
            };
            match parse(s).or_else(|| ws_after_sign(s).and_then(|t| parse(&t))) {
                Some(f) => f,
                None => {
                    return cx.fail(format!(
                        "invalid value for Float(): {}",
                        crate::catalog::names::ruby_inspect_str(s)
                    ))
                }
            }
        }
        _ => 0.0,
    };
    Ok(Value::Float(if abs.is_truthy() { f.abs() } else { f }))
}

fn new_numeric(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let (from, abs) = match args {
        [Value::Hash(h)] if h.get(&Value::string("from")).is_some() => (
            h.get(&Value::string("from"))
                .cloned()
                .unwrap_or(Value::Undef),
            h.get(&Value::string("abs"))
                .cloned()
                .unwrap_or(Value::Boolean(false)),
        ),
        [] => return cx.fail("'new_numeric' expects between 1 and 2 arguments, got none"),
        _ => (
            args[0].clone(),
            args.get(1).cloned().unwrap_or(Value::Boolean(false)),
        ),
    };
    let convertible = match &from {
        Value::Integer(_) | Value::Float(_) | Value::Boolean(_) => true,
        Value::String(s) => float_pattern(s),
        _ => false,
    };
    if !convertible {
        return cx.fail(match &from {
            Value::String(s) => {
                format!("'new_numeric' The string '{s}' cannot be converted to Numeric")
            }
            other => format!(
                "'new_numeric' Value of type {} cannot be converted to Numeric",
                general_type(other)
            ),
        });
    }
    let v = match &from {
        Value::Boolean(b) => Value::Integer(*b as i64),
        Value::String(s) => {
            let lower = s.to_ascii_lowercase();
            if lower.starts_with("0b") || lower.starts_with("0x") {
                match ruby_integer(s, None) {
                    Some(n) => Value::Integer(n),
                    None => {
                        return cx.fail(format!(
                            "invalid value for Integer(): {}",
                            crate::catalog::names::ruby_inspect_str(s)
                        ))
                    }
                }
            } else {
                puppet_to_n(s).unwrap_or(Value::Undef)
            }
        }
        other => other.clone(),
    };
    Ok(match (v, abs.is_truthy()) {
        (Value::Integer(n), true) => Value::Integer(n.wrapping_abs()),
        (Value::Float(f), true) => Value::Float(f.abs()),
        (v, _) => v,
    })
}

fn new_boolean(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    if args.len() != 1 {
        let sub = Cx {
            c: &mut *cx.c,
            name: "new_boolean",
            lambda: None,
            scope: cx.scope,
            ctx: cx.ctx,
            at: cx.at,
        };
        sub.dispatch(&[sig(&[("Any", "from")])], args)?;
    }
    let v = &args[0];
    Ok(Value::Boolean(match v {
        Value::Integer(n) => *n != 0,
        Value::Float(f) => *f != 0.0,
        Value::Boolean(b) => *b,
        Value::String(s) => match s.to_lowercase().as_str() {
            "false" | "no" | "n" => false,
            "true" | "yes" | "y" => true,
            _ => {
                return cx.fail(format!(
                    "'new_boolean' The string '{s}' cannot be converted to Boolean"
                ))
            }
        },
        other => {
            return cx.fail(format!(
                "'new_boolean' Value of type {} cannot be converted to Boolean",
                general_type(other)
            ))
        }
    }))
}

fn new_array(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let wrap = match args {
        [_] => false,
        [_, Value::Boolean(b)] => *b,
        _ => {
            let sub = Cx {
                c: &mut *cx.c,
                name: "new_array",
                lambda: None,
                scope: cx.scope,
                ctx: cx.ctx,
                at: cx.at,
            };
            sub.dispatch(&[sig(&[("Any", "from"), ("Boolean", "wrap")]).opt(1)], args)?;
            false
        }
    };
    let from = &args[0];
    if wrap {
        return Ok(match from {
            Value::Array(_) => from.clone(),
            other => Value::array(vec![other.clone()]),
        });
    }
    match iterable(from) {
        Some((items, _)) => Ok(Value::array(items)),
        _ => cx.fail(format!(
            "'new_array' Value of type {} cannot be converted to Array",
            general_type(from)
        )),
    }
}

fn new_hash(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let sub = Cx {
        c: &mut *cx.c,
        name: "new_hash",
        lambda: None,
        scope: cx.scope,
        ctx: cx.ctx,
        at: cx.at,
    };
    let i = sub.dispatch(
        &[
            sig(&[("TreeArray", "from"), ("NewHashOption", "build_option")]).opt(1),
            sig(&[("KeyValueArray", "from")]),
            sig(&[("Any", "from")]),
        ],
        args,
    )?;
    let from = &args[0];
    if i < 2 {
        let Value::Array(items) = from else {
            return Ok(Value::Undef);
        };
        let pairs: Vec<(Value, Value)> = items
            .iter()
            .filter_map(|e| match e {
                Value::Array(kv) if kv.len() == 2 => Some((kv[0].clone(), kv[1].clone())),
                _ => None,
            })
            .collect();
        return Ok(match args.get(1).and_then(|v| v.as_str()) {
            Some(option) => hash_from_tree(&pairs, option == "hash_tree"),
            None => Value::hash(pairs.into_iter().collect()),
        });
    }
    let pairs_from = |items: &[Value]| -> R<Value> {
        if !items.len().is_multiple_of(2) {
            return cx.fail("odd number of arguments for Hash");
        }
        Ok(Value::hash(
            items
                .chunks(2)
                .map(|c| (c[0].clone(), c[1].clone()))
                .collect(),
        ))
    };
    match from {
        Value::Array(items) => pairs_from(items),
        Value::Hash(_) => Ok(from.clone()),
        other => match iterable(other) {
            Some((items, _)) => pairs_from(&items),
            None => cx.fail(format!(
                "Value of type {} cannot be converted to Hash",
                general_type(other)
            )),
        },
    }
}

/// `Hash.new(entries, 'tree' | 'hash_tree')`: entries are `[path, value]`.
fn hash_from_tree(pairs: &[(Value, Value)], all_hashes: bool) -> Value {
    fn insert(target: &mut Value, path: &[Value], value: Value) {
        if path.is_empty() {
            return;
        }
        let key = path[0].clone();
        if path.len() == 1 {
            match target {
                Value::Hash(h) => {
                    Arc::make_mut(h).insert(key, value);
                }
                Value::Array(a) => {
                    if let Value::Integer(i) = key {
                        let a = Arc::make_mut(a);
                        let i = i.max(0) as usize;
                        if i >= a.len() {
                            a.resize(i + 1, Value::Undef);
                        }
                        a[i] = value;
                    }
                }
                _ => {}
            }
            return;
        }
        match target {
            Value::Hash(h) => {
                let h = Arc::make_mut(h);
                let child = h.entry(key).or_insert_with(|| Value::hash(Map::new()));
                insert(child, &path[1..], value);
            }
            Value::Array(a) => {
                if let Value::Integer(i) = key {
                    if let Some(child) = Arc::make_mut(a).get_mut(i.max(0) as usize) {
                        insert(child, &path[1..], value);
                    }
                }
            }
            _ => {}
        }
    }
    fn as_hash(v: &Value) -> Value {
        match v {
            Value::Array(items) => Value::hash(
                items
                    .iter()
                    .enumerate()
                    .map(|(i, x)| (Value::Integer(i as i64), as_hash(x)))
                    .collect(),
            ),
            Value::Hash(h) => Value::hash(h.iter().map(|(k, x)| (k.clone(), as_hash(x))).collect()),
            other => other.clone(),
        }
    }
    let mut result = Value::hash(Map::new());
    for (path, value) in pairs {
        let Value::Array(path) = path else { continue };
        if path.is_empty() {
            match value {
                Value::Array(items) => {
                    for (i, v) in items.iter().enumerate() {
                        insert(&mut result, &[Value::Integer(i as i64)], v.clone());
                    }
                }
                Value::Hash(h) => {
                    for (k, v) in h.iter() {
                        insert(&mut result, std::slice::from_ref(k), v.clone());
                    }
                }
                _ => {}
            }
            continue;
        }
        let v = if all_hashes {
            as_hash(value)
        } else {
            value.clone()
        };
        insert(&mut result, path, v);
    }
    result
}

fn new_string(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let sub = Cx {
        c: &mut *cx.c,
        name: "new_string",
        lambda: None,
        scope: cx.scope,
        ctx: cx.ctx,
        at: cx.at,
    };
    sub.dispatch(
        &[sig(&[
            ("Any", "from"),
            (
                "Variant[Default, String[1], Hash[Type, Any]]",
                "string_formats",
            ),
        ])
        .opt(1)],
        args,
    )?;
    let fmt = args.get(1).and_then(|v| v.as_str());
    match string_convert(&args[0], fmt, true) {
        Ok(s) => Ok(Value::string(s)),
        Err(e) => cx.fail(e),
    }
}

/// Puppet's `StringConverter` with its default formats (`%s` at the top,
/// `%p` inside collections), and a format string for scalars.
fn string_convert(v: &Value, fmt: Option<&str>, top: bool) -> Result<String, String> {
    if let Some(f) = fmt {
        return format_scalar(v, f);
    }
    Ok(match v {
        Value::Undef => {
            if top {
                String::new()
            } else {
                "undef".into()
            }
        }
        Value::Default => "default".into(),
        Value::Boolean(b) => b.to_string(),
        Value::Integer(n) => n.to_string(),
        Value::Float(f) => {
            if top {
                format_float(&Spec::default(), 'f', *f)
            } else {
                crate::syntax::pn::ruby_float(*f)
            }
        }
        Value::String(s) => {
            if top {
                s.to_string()
            } else {
                crate::types::puppet_quote(s)
            }
        }
        Value::Regexp(r) => {
            if top {
                r.to_string()
            } else {
                format!("/{r}/")
            }
        }
        Value::Array(items) => {
            let parts: Result<Vec<String>, String> = items
                .iter()
                .map(|x| string_convert(x, None, false))
                .collect();
            format!("[{}]", parts?.join(", "))
        }
        Value::Hash(h) => {
            let mut parts = Vec::new();
            for (k, x) in h.iter() {
                parts.push(format!(
                    "{} => {}",
                    string_convert(k, None, false)?,
                    string_convert(x, None, false)?
                ));
            }
            format!("{{{}}}", parts.join(", "))
        }
        Value::Type(t) => t.to_string(),
        Value::Sensitive(_) => "Sensitive [value redacted]".into(),
    })
}

/// `String(value, '%x')` for a scalar: the format applied as Puppet's
/// converter applies it to the value's type.
fn format_scalar(v: &Value, fmt: &str) -> Result<String, String> {
    let conv = fmt.chars().last().unwrap_or('s');
    match v {
        Value::Integer(n) => match conv {
            'd' | 'x' | 'X' | 'o' | 'b' | 'B' | 'p' => {
                ruby_format(&fmt.replace('p', "d"), std::slice::from_ref(v))
            }
            'e' | 'E' | 'f' | 'g' | 'G' | 'a' | 'A' => ruby_format(fmt, &[Value::Float(*n as f64)]),
            'c' => ruby_format(&fmt.replace('c', "s"), &[Value::string(
                char::from_u32(*n as u32).map(String::from).unwrap_or_default(),
            )]),
            's' => ruby_format(fmt, &[Value::string(n.to_string())]),
            _ => Err(format!(
                "Illegal format '{conv}' specified for value of Integer type - expected one of the characters 'dxXobBeEfgGaAspc'"
            )),
        },
        Value::Float(f) => match conv {
            'd' | 'x' | 'X' | 'o' | 'b' | 'B' => ruby_format(fmt, &[Value::Integer(*f as i64)]),
            'e' | 'E' | 'f' | 'g' | 'G' | 'a' | 'A' => ruby_format(fmt, std::slice::from_ref(v)),
            'p' | 's' => ruby_format(
                &format!("{}s", &fmt[..fmt.len() - 1]),
                &[Value::string(crate::syntax::pn::ruby_float(*f))],
            ),
            _ => Err(format!(
                "Illegal format '{conv}' specified for value of Float type - expected one of the characters 'dxXobBeEfgGaAsp'"
            )),
        },
        Value::String(s) => match conv {
            's' => ruby_format(fmt, std::slice::from_ref(v)),
            'p' => Ok(crate::types::puppet_quote(s)),
            'c' => ruby_format(&fmt.replace('c', "s"), &[Value::string(ruby_capitalize(s))]),
            'C' => ruby_format(
                &fmt.replace('C', "s"),
                &[Value::string(
                    s.split("::").map(ruby_capitalize).collect::<Vec<_>>().join("::"),
                )],
            ),
            'u' => ruby_format(&fmt.replace('u', "s"), &[Value::string(s.to_uppercase())]),
            'd' => ruby_format(&fmt.replace('d', "s"), &[Value::string(s.to_lowercase())]),
            't' => ruby_format(
                &fmt.replace('t', "s"),
                &[Value::string(s.trim_matches(is_ruby_space))],
            ),
            _ => Err(format!(
                "Illegal format '{conv}' specified for value of String type - expected one of the characters 'cCudspt'"
            )),
        },
        Value::Boolean(b) => {
            let word = |w: &str| -> Result<String, String> {
                let w = if fmt.contains('#') {
                    w[..1].to_string()
                } else {
                    w.to_string()
                };
                let f: String = fmt.chars().filter(|c| *c != '#').collect();
                ruby_format(&format!("{}s", &f[..f.len() - 1]), &[Value::string(w)])
            };
            match conv {
                't' => word(if *b { "true" } else { "false" }),
                'T' => word(if *b { "True" } else { "False" }),
                'y' => word(if *b { "yes" } else { "no" }),
                'Y' => word(if *b { "Yes" } else { "No" }),
                'd' | 'x' | 'X' | 'o' | 'b' | 'B' => format_scalar(&Value::Integer(*b as i64), fmt),
                'e' | 'E' | 'f' | 'g' | 'G' | 'a' | 'A' => {
                    format_scalar(&Value::Float(if *b { 1.0 } else { 0.0 }), fmt)
                }
                's' => ruby_format(fmt, &[Value::string(b.to_string())]),
                'p' => ruby_format(&format!("{}s", &fmt[..fmt.len() - 1]), &[Value::string(b.to_string())]),
                _ => Err(format!(
                    "Illegal format '{conv}' specified for value of Boolean type - expected one of the characters 'tTyYdxXobBeEfgGaAsp'"
                )),
            }
        }
        other => string_convert(other, None, true),
    }
}

/// Puppet's `Utils.to_n`: a number in a string (`NUMERIC`), or `None`.
fn puppet_to_n(s: &str) -> Option<Value> {
    let blank = |c: char| c == ' ' || c == '\t';
    let t = s.trim_matches(blank);
    let (neg, t) = match t.as_bytes().first() {
        Some(b'-') => (true, t[1..].trim_start_matches(blank)),
        Some(b'+') => (false, t[1..].trim_start_matches(blank)),
        _ => (false, t),
    };
    let lower = t.to_ascii_lowercase();
    let v = if let Some(h) = lower.strip_prefix("0x") {
        if h.is_empty() || !h.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        Value::Integer(i64::from_str_radix(h, 16).ok()?)
    } else {
        let int_len = t.bytes().take_while(u8::is_ascii_digit).count();
        if int_len == 0 {
            return None;
        }
        let (int, rest) = t.split_at(int_len);
        if rest.is_empty() {
            Value::Integer(ruby_integer(int, None)?)
        } else {
            if !float_tail(rest) {
                return None;
            }
            if int.bytes().all(|b| b == b'0') {
                let r = rest.strip_prefix('.').unwrap_or(rest);
                if r.trim_start_matches('0').starts_with(['e', 'E']) {
                    return None;
                }
            }
            let f: f64 = t.parse().ok()?;
            if f.is_infinite() {
                return None;
            }
            Value::Float(f)
        }
    };
    Some(match (v, neg) {
        (Value::Integer(n), true) => Value::Integer(-n),
        (Value::Float(f), true) => Value::Float(-f),
        (v, _) => v,
    })
}

/// `(?:\.\d+)?(?:[eE]-?\d+)?`, not empty.
fn float_tail(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    if b.first() == Some(&b'.') {
        i = 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && b[i] == b'-' {
            i += 1;
        }
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    i == b.len() && i > 0
}

// ---------------------------------------------------------------------------
// create_resources (3.x).

fn create_resources(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    use crate::syntax::ast::ResourceForm;
    cx.arity3(args, -3)?;
    if args.len() > 3 {
        return cx.fail(format!(
            "create_resources(): wrong number of arguments ({}; must be 2 or 3)",
            args.len()
        ));
    }
    let Value::Hash(instances) = &args[1] else {
        return cx.fail("create_resources(): second argument must be a hash");
    };
    let defaults = match args.get(2) {
        None => Map::new(),
        Some(Value::Hash(h)) => (**h).clone(),
        Some(_) => {
            return cx.fail("create_resources(): third argument, if provided, must be a hash")
        }
    };
    let type_arg = match &args[0] {
        Value::String(s) => s.to_string(),
        other => return cx.fail(format!("undefined method `sub' for {}", ruby_to_s(other))),
    };
    let (form, bare) = if let Some(t) = type_arg.strip_prefix("@@") {
        (ResourceForm::Exported, t)
    } else if let Some(t) = type_arg.strip_prefix('@') {
        (ResourceForm::Virtual, t)
    } else {
        (ResourceForm::Regular, type_arg.as_str())
    };
    let key = bare.trim_start_matches("::").to_lowercase();
    if key == "class" && form != ResourceForm::Regular {
        return Err(EvalError::Issue {
            detail: "Classes are not virtualizable".into(),
            at: Location {
                column: None,
                ..cx.at.clone()
            },
        });
    }
    let at = cx.at.clone();
    for (title, params) in instances.iter() {
        let mut merged = defaults.clone();
        if let Value::Hash(p) = params {
            for (k, v) in p.iter() {
                merged.insert(k.clone(), v.clone());
            }
        }
        let titles: Vec<Value> = match title {
            Value::Array(items) => items.to_vec(),
            other => vec![other.clone()],
        };
        for t in titles {
            let title = t.to_string();
            if key == "class" {
                let ckey = title.trim_start_matches("::").to_lowercase();
                let Some(def) = cx.c.find_class(&ckey)? else {
                    return cx.fail(format!("Could not find declared class {title}"));
                };
                let params: indexmap::IndexMap<String, Value> = merged
                    .iter()
                    .map(|(k, v)| (k.to_string(), v.clone()))
                    .collect();
                cx.c.declare_class(&ckey, def, Some(params), cx.scope, &at)?;
                continue;
            }
            let ops: Vec<(String, bool, Value)> = merged
                .iter()
                .map(|(k, v)| (k.to_string(), false, v.clone()))
                .collect();
            cx.c.create_resource(&key, &title, &ops, form, cx.scope, &at)?;
        }
    }
    Ok(Value::Undef)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seed(n: u128) -> Mt {
        let bytes = n.to_be_bytes();
        ruby_random(&bytes)
    }

    #[test]
    fn ruby_random_matches_ruby() {
        // `Random.new(seed).rand(max)` as Ruby 3.1 answers it.
        assert_eq!(seed(42).limited(99), 51);
        assert_eq!(seed((1 << 64) + 5).limited(999), 240);
        assert_eq!(seed(1 << 32).limited(999_999_999_999), 741_280_623_151);
        assert_eq!(seed(0).limited(6), 4);
        assert_eq!(seed((1 << 96) + 3).limited((1 << 40) - 1), 644_932_171_339);
    }

    #[test]
    fn digests_match_known_vectors() {
        assert_eq!(hex(&md5_digest(b"")), "d41d8cd98f00b204e9800998ecf8427e");
        assert_eq!(hex(&md5_digest(b"abc")), "900150983cd24fb0d6963f7d28e17f72");
        assert_eq!(
            hex(&sha1_digest(b"abc")),
            "a9993e364706816aba3e25717850c26c9cd0d89d"
        );
        assert_eq!(
            hex(&sha256_digest(b"abc")),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn float_formats_round_as_ruby_does() {
        let f = |fmt: &str, x: f64| ruby_format(fmt, &[Value::Float(x)]).unwrap();
        // Ruby's fast path rounds a near tie to even on the computed digits.
        assert_eq!(f("%.1f", 0.35), "0.4");
        assert_eq!(f("%.1f", 2.45), "2.4");
        assert_eq!(f("%.1f", 0.05), "0.1");
        assert_eq!(f("%.3e", 0.35), "3.500e-01");
        assert_eq!(f("%g", 1e-7), "1e-07");
        assert_eq!(f("%.1f", 123.456), "123.5");
        assert_eq!(f("%.17g", 0.1), "0.10000000000000001");
    }

    #[test]
    fn integer_formats() {
        let f = |fmt: &str, n: i64| ruby_format(fmt, &[Value::Integer(n)]).unwrap();
        assert_eq!(f("%x", -255), "..f01");
        assert_eq!(f("%+x", -255), "-ff");
        assert_eq!(f("%#o", 8), "010");
        assert_eq!(f("%05d", -3), "-0003");
        assert_eq!(f("%.0d", 0), "");
    }

    #[test]
    fn versions_compare_as_puppet() {
        assert_eq!(version_cmp("1.10.0", "1.9.3", false), 1);
        assert_eq!(version_cmp("1.0", "1.0.0", false), -1);
        assert_eq!(version_cmp("1.0.0", "1.0", true), 0);
        assert_eq!(version_cmp("2.0.0-rc1", "2.0.0", false), 1);
    }
}
