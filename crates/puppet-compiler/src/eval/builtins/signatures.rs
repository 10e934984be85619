//! Function signatures (`dispatch`) and Puppet's texts for calls that match none.

use super::lambda_range;
use crate::eval::value::Value;
use puppet_model::types::text::{shared_ty, ty};
use puppet_model::types::{Mismatch, MismatchKind, PType, PathElement};
use puppet_syntax::ast::Lambda;

/// A function's block: none, required, or optional, by its `Callable` type.
#[derive(Clone, Copy)]
pub(super) enum Blk {
    No,
    Req(&'static str),
    Opt(&'static str),
}

/// One of a function's signatures (a `dispatch`): typed, named parameters,
/// the first `required` of them required, the last repeated when `rest`.
#[derive(Clone, Copy)]
pub(super) struct Sig {
    params: &'static [(&'static str, &'static str)],
    required: usize,
    rest: bool,
    block: Blk,
}

pub(super) const fn sig(params: &'static [(&'static str, &'static str)]) -> Sig {
    Sig {
        params,
        required: params.len(),
        rest: false,
        block: Blk::No,
    }
}

impl Sig {
    /// Only the first `n` parameters are required.
    pub(super) const fn opt(self, n: usize) -> Sig {
        Sig {
            required: n,
            ..self
        }
    }

    /// The last parameter is repeated (`repeated_param`: `n` required in all).
    pub(super) const fn rest(self, n: usize) -> Sig {
        Sig {
            required: n,
            rest: true,
            ..self
        }
    }

    pub(super) const fn block(self, t: &'static str) -> Sig {
        Sig {
            block: Blk::Req(t),
            ..self
        }
    }

    pub(super) const fn opt_block(self, t: &'static str) -> Sig {
        Sig {
            block: Blk::Opt(t),
            ..self
        }
    }

    pub(super) fn max(&self) -> usize {
        if self.rest {
            usize::MAX
        } else {
            self.params.len()
        }
    }

    pub(super) fn param(&self, i: usize) -> (&'static str, &'static str) {
        self.params[i.min(self.params.len() - 1)]
    }

    pub(super) fn accepts(&self, args: &[Value], lambda: Option<&Lambda>) -> bool {
        if args.len() < self.required || args.len() > self.max() {
            return false;
        }
        let types_ok = args
            .iter()
            .enumerate()
            .all(|(i, a)| puppet_model::types::is_instance(&shared_ty(self.param(i).0), a));
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
    pub(super) fn describe(&self) -> String {
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
                if let PType::Optional(Some(inner)) = &mut t {
                    t = inner.take();
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
pub(super) fn callable_range(t: &str) -> Option<(usize, usize)> {
    let inner = t.strip_prefix("Callable[")?.strip_suffix(']')?;
    let parts: Vec<&str> = inner.split(',').map(str::trim).collect();
    let nums: Vec<usize> = parts.iter().filter_map(|s| s.parse().ok()).collect();
    if nums.is_empty() && !parts.is_empty() && !parts.iter().any(|p| p.contains('[')) {
        // `Callable[Type, Type]`: one argument per parameter type.
        return Some((parts.len(), parts.len()));
    }
    Some(match nums.as_slice() {
        [a, b] => (*a, *b),
        [a] => (*a, *a),
        _ => (1, 1),
    })
}

/// What is wrong with a call for one signature.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum SigError {
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
    pub(super) fn class(&self) -> u8 {
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

    pub(super) fn path(&self) -> String {
        match self {
            SigError::Count { block: true, .. } => "block".into(),
            SigError::Arg(m) => format!("{:?}", m.path),
            _ => String::new(),
        }
    }

    pub(super) fn merge(&self, other: &SigError) -> SigError {
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
                    PType::Variant(ref ts) if ts.len() == 1 => ts[0].clone(),
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
    pub(super) fn format(&self) -> String {
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

pub(super) fn range_text((min, max): (usize, usize), zero: &str) -> String {
    let count = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
    puppet_model::types::mismatch::count_range_text(count(min), count(max), zero)
}

/// Puppet's `TypeMismatchDescriber#describe_signatures`.
pub(super) fn describe_signatures(
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

pub(super) fn arg_errors(s: &Sig, args: &[Value]) -> Vec<SigError> {
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
        if !puppet_model::types::is_instance(&t, a) {
            let d = puppet_model::types::describe(
                &t,
                &puppet_model::types::infer_set(a),
                &[PathElement::Parameter(pname.to_string())],
            );
            if !d.is_empty() {
                return d.into_iter().map(SigError::Arg).collect();
            }
        }
    }
    Vec::new()
}

pub(super) fn block_errors(s: &Sig, lambda: Option<&Lambda>) -> Vec<SigError> {
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

pub(super) fn merge_descriptions(arrays: &[Vec<SigError>]) -> Vec<SigError> {
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
