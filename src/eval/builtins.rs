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

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

use super::compiler::Compiler;
use super::error::{EvalError, Location};
use super::expr::{Ctx, R};
use super::scope::ScopeId;
use super::value::{Map, Value};
use crate::syntax::ast::Lambda;
use crate::types::{AliasTarget, IntRange, Mismatch, MismatchKind, PType, PathElement};

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
        "digest" => digest,
        "downcase" => downcase,
        "empty" => empty,
        "flatten" => flatten,
        "floor" => floor,
        "fqdn_rand" => fqdn_rand,
        "get" => get,
        "getvar" => getvar,
        "group_by" => group_by,
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
                Ok(None) => return None,
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
    if super::resources::BUILTIN_TYPES.contains(&key.as_str()) || c.find_define(&key)?.is_some()
    {
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

    fn lambda_arity(&self) -> (usize, usize) {
        self.lambda.map(lambda_range).unwrap_or((0, 0))
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
                    MismatchKind::Type { expected, .. } | MismatchKind::Pattern { expected, .. } => {
                        expected
                    }
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
                let expected = PType::Variant(list);
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
