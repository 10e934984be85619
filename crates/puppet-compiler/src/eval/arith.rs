//! The arithmetic operators (`+ - * / % << >>`) as Puppet's
//! `EvaluatorImpl#calculate` evaluates them: a URI or Binary on the left of
//! `+` is concatenated; an Array or Hash on the left of `+`, `-` or `<<` is a
//! collection operation (`concatenate`, `delete`, append); everything else
//! is coerced to numbers first (`coerce_numeric`: left operand, then right;
//! a String through `Utils.to_n`, anything else not Numeric is
//! `The value '...' cannot be converted to Numeric.` with Ruby's `to_s` of
//! it), then computed as Ruby computes it (Integers without bound, checked
//! against Puppet's 64-bit range afterwards; Timespans and Timestamps in
//! `time::ops`).

use super::compiler::Compiler;
use super::expr::{Ctx, R};
use super::issues;
use super::value::{Map, Value};
use crate::version::Strict;
use puppet_syntax::ast::{BinaryOp, Expr};
use puppet_syntax::pn::binary_op_text;

/// A number as `coerce_numeric` leaves it.
#[derive(Clone)]
pub(super) enum Num {
    /// An Integer; strings may hold more than 64 bits (Ruby's Bignum).
    Int(i128),
    Float(f64),
    /// A Timespan, Timestamp or SemVer (Ruby Numerics of their own).
    Other(Value),
}

impl Num {
    pub(super) fn value(&self) -> Value {
        match self {
            Num::Int(i) => Value::Integer(clamp_i64(*i)),
            Num::Float(f) => Value::Float(*f),
            Num::Other(v) => v.clone(),
        }
    }

    fn text(&self) -> String {
        match self {
            Num::Int(i) => i.to_string(),
            other => other.value().to_string(),
        }
    }
}

fn clamp_i64(i: i128) -> i64 {
    i64::try_from(i).unwrap_or(if i < 0 { i64::MIN } else { i64::MAX })
}

/// Puppet's `Utils.to_n` of a String (`Patterns::NUMERIC`, then Ruby's
/// `Integer()` or `Float()`): decimal, `0x` hexadecimal and `0`-prefixed
/// octal integers, floats with a fraction or an exponent, a sign and blanks
/// around; `None` where Puppet gets `nil`.
/// Puppet's `Utils.to_n` as a value (numbers past 64 bits clamped).
pub(super) fn utils_to_n(s: &str) -> Option<Value> {
    to_n(s).map(|n| n.value())
}

fn to_n(s: &str) -> Option<Num> {
    let s = s.strip_prefix("::").unwrap_or(s);
    let blank = |c: char| c == ' ' || c == '\t';
    let t = s.trim_matches(blank);
    let (neg, t) = match t.as_bytes().first() {
        Some(b'-') => (true, t[1..].trim_start_matches(blank)),
        Some(b'+') => (false, t[1..].trim_start_matches(blank)),
        _ => (false, t),
    };
    let sign = |i: i128| if neg { -i } else { i };
    if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        if h.is_empty() || !h.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        return i128::from_str_radix(h, 16).ok().map(|i| Num::Int(sign(i)));
    }
    // `(0?\d+)((?:\.\d+)?(?:[eE]-?\d+)?)`
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let (int_part, rest) = t.split_at(digits);
    let mut r = rest.as_bytes();
    if let [b'.', tail @ ..] = r {
        let n = tail.iter().take_while(|b| b.is_ascii_digit()).count();
        if n == 0 {
            return None;
        }
        r = &tail[n..];
    }
    if let [b'e' | b'E', tail @ ..] = r {
        let tail = tail.strip_prefix(b"-").unwrap_or(tail);
        let n = tail.iter().take_while(|b| b.is_ascii_digit()).count();
        if n == 0 {
            return None;
        }
        r = &tail[n..];
    }
    if !r.is_empty() {
        return None;
    }
    // Ruby's `Integer()` of the integer part: a leading 0 is octal.
    let int = |d: &str| -> Option<i128> {
        if d.len() > 1 && d.starts_with('0') {
            i128::from_str_radix(&d[1..], 8).ok()
        } else {
            d.parse().ok()
        }
    };
    if rest.is_empty() {
        return int(int_part).map(|i| Num::Int(sign(i)));
    }
    // `match_to_fp`: `Integer(match[4])` first (so `09.5` is no number),
    // and a zero with only an exponent (`0e5`, `0.0e1`) is none either.
    let whole = int(int_part)?;
    let frac_zero_exp = {
        let x = rest.strip_prefix('.').unwrap_or(rest);
        let x = x.trim_start_matches('0');
        x.starts_with(['e', 'E'])
    };
    if whole == 0 && frac_zero_exp {
        return None;
    }
    let f: f64 = t.parse().ok()?;
    if f.is_infinite() {
        return None;
    }
    Some(Num::Float(if neg { -f } else { f }))
}

/// Ruby's `to_s` of a value as `The value '%{value}'` shows it.
fn ruby_to_s(v: &Value) -> String {
    super::builtins::ruby_value_to_s(v)
}

/// `%#+x`: the sign, `0x`, the magnitude in hexadecimal.
fn signed_hex(i: i128) -> String {
    format!("{}{:#x}", if i < 0 { '-' } else { '+' }, i.unsigned_abs())
}

impl<'e> Compiler<'e> {
    /// Arithmetic; `operands` locate Puppet's errors about an operand (a
    /// value that is no number, a zero divisor, an operator a value lacks).
    pub(super) fn arithmetic(
        &mut self,
        e: &Expr,
        op: BinaryOp,
        l: Value,
        r: Value,
        ctx: &Ctx,
        operands: (&Expr, &Expr),
    ) -> R<Value> {
        let opname = binary_op_text(op);
        if op == BinaryOp::Add {
            match (&l, &r) {
                // `uri + other`: Ruby's `URI#merge` with a URI or a URI string.
                (Value::Uri(u), _) => {
                    let merged = match &r {
                        Value::Uri(o) => u.merge(o),
                        Value::String(s) => super::uri::Uri::parse(s).and_then(|o| u.merge(&o)),
                        _ => Err(issues::operators::URI_MERGE.into()),
                    };
                    return match merged {
                        Ok(m) => Ok(m.into_value()),
                        Err(detail) => Err(self.wrap_detail(ctx, e, detail)),
                    };
                }
                (Value::Binary(a), Value::Binary(b)) => {
                    let mut bytes = a.to_vec();
                    bytes.extend_from_slice(b);
                    return Ok(Value::Binary(bytes.into()));
                }
                (Value::Binary(_), _) => {
                    return Err(self.wrap_detail(ctx, e, issues::operators::BINARY_APPEND.into()))
                }
                _ => {}
            }
        }
        if matches!(l, Value::Array(_) | Value::Hash(_))
            && matches!(op, BinaryOp::Add | BinaryOp::Sub | BinaryOp::Shl)
        {
            return self.collection_op(e, op, &l, &r, ctx, operands.0);
        }
        let a = self.coerce_numeric(&l, operands.0, ctx)?;
        let b = self.coerce_numeric(&r, operands.1, ctx)?;
        let not_applicable = |v: &Value| {
            issues::operators::operator_not_applicable(
                opname,
                puppet_syntax::validate::a_an(&value_label(v)),
            )
        };
        if op == BinaryOp::Mod {
            if let Num::Float(_) = a {
                return self.fail(ctx, operands.0, not_applicable(&a.value()));
            }
            if let Num::Float(_) = b {
                return self.fail(
                    ctx,
                    operands.0,
                    issues::operators::operator_not_applicable_when(
                        "%",
                        puppet_syntax::validate::a_an(&value_label(&a.value())),
                        puppet_syntax::validate::a_an(&value_label(&b.value())),
                    ),
                );
            }
        }
        let (av, bv) = (a.value(), b.value());
        if let Some(res) = puppet_model::time::ops::arithmetic(op, &av, &bv) {
            use puppet_model::time::ops::OpError;
            return match res {
                Ok(v) => Ok(v),
                Err(OpError::NotApplicable(m)) => self.fail(ctx, operands.0, m),
                Err(OpError::Argument(m)) => Err(self.wrap_detail(ctx, e, m)),
                Err(OpError::DivByZero) => {
                    self.fail(ctx, operands.1, issues::operators::DIV_BY_ZERO)
                }
                Err(OpError::Infinity) => self.fail(
                    ctx,
                    operands.0,
                    issues::operators::result_is_infinity(opname),
                ),
            };
        }
        // A SemVer is a Ruby Numeric without arithmetic: NoMethodError on
        // the left, a failed coercion on the right.
        if let Num::Other(Value::SemVer(_)) = &a {
            return self.fail(
                ctx,
                operands.0,
                issues::operators::operator_not_applicable(opname, "a Semver"),
            );
        }
        if let Num::Other(Value::SemVer(_)) = &b {
            return Err(self.wrap_detail(ctx, e, issues::operators::SEMVER_TO_FLOAT.into()));
        }
        let result = match (&a, &b) {
            (Num::Int(x), Num::Int(y)) => self.int_op(e, op, *x, *y, ctx, operands)?,
            (Num::Float(_), _) if matches!(op, BinaryOp::Shl | BinaryOp::Shr) => {
                return self.fail(ctx, operands.0, not_applicable(&av));
            }
            // Ruby's Integer#<< takes a Float's integer part.
            (Num::Int(x), Num::Float(y)) if matches!(op, BinaryOp::Shl | BinaryOp::Shr) => {
                self.int_op(e, op, *x, y.trunc() as i128, ctx, operands)?
            }
            _ => {
                let f = |n: &Num| match n {
                    Num::Int(i) => *i as f64,
                    Num::Float(f) => *f,
                    Num::Other(_) => 0.0,
                };
                let (x, y) = (f(&a), f(&b));
                let v = match op {
                    BinaryOp::Add => x + y,
                    BinaryOp::Sub => x - y,
                    BinaryOp::Mul => x * y,
                    _ => x / y,
                };
                if v.is_infinite() {
                    return self.fail(
                        ctx,
                        operands.0,
                        issues::operators::result_is_infinity(opname),
                    );
                }
                return Ok(Value::Float(v));
            }
        };
        match i64::try_from(result) {
            Ok(i) => Ok(Value::Integer(i)),
            Err(_) => self.fail(
                ctx,
                e,
                issues::operators::numeric_overflow(opname, result > 0, signed_hex(result)),
            ),
        }
    }

    /// Integer arithmetic as Ruby's (floored division and modulo, shifts
    /// either way), without bound but `i128`'s.
    fn int_op(
        &mut self,
        e: &Expr,
        op: BinaryOp,
        x: i128,
        y: i128,
        ctx: &Ctx,
        operands: (&Expr, &Expr),
    ) -> R<i128> {
        let opname = binary_op_text(op);
        let overflow = |c: &Self| -> R<i128> {
            c.fail(ctx, e, issues::operators::numeric_overflow_unshown(opname))
        };
        let shift_left = |x: i128, n: i128| -> Option<i128> {
            if n < 0 {
                return Some(x >> (-n).min(127));
            }
            if x == 0 {
                return Some(0);
            }
            let n = u32::try_from(n).ok().filter(|n| *n < 127)?;
            x.checked_mul(1i128 << n)
        };
        let v = match op {
            BinaryOp::Add => x.checked_add(y),
            BinaryOp::Sub => x.checked_sub(y),
            BinaryOp::Mul => x.checked_mul(y),
            BinaryOp::Div | BinaryOp::Mod => {
                if y == 0 {
                    return self.fail(ctx, operands.1, issues::operators::DIV_BY_ZERO);
                }
                // Ruby floors the quotient; its modulo takes the divisor's sign.
                let fq = if x % y != 0 && ((x < 0) != (y < 0)) {
                    x / y - 1
                } else {
                    x / y
                };
                Some(if op == BinaryOp::Div { fq } else { x - y * fq })
            }
            BinaryOp::Shl | BinaryOp::Shr => {
                let n = if op == BinaryOp::Shl { y } else { -y };
                match shift_left(x, n) {
                    Some(v) => Some(v),
                    None => {
                        // Past i128: the result's text is the left
                        // operand's digits shifted (`x * 2**n`).
                        if n > 1 << 31 {
                            return Err(self.wrap_detail(ctx, e, "shift width too big".into()));
                        }
                        let n = n as u32;
                        let head = signed_hex(x << (n % 4));
                        return self.fail(
                            ctx,
                            e,
                            issues::operators::numeric_overflow(
                                opname,
                                x > 0,
                                format!("{head}{}", "0".repeat((n / 4) as usize)),
                            ),
                        );
                    }
                }
            }
            _ => None,
        };
        match v {
            Some(v) => Ok(v),
            None => overflow(self),
        }
    }

    /// `coerce_numeric`: a Numeric as it is, a String through `to_n` (with
    /// Puppet's warning that it was coerced), anything else an error.
    pub(super) fn coerce_numeric(&mut self, v: &Value, at: &Expr, ctx: &Ctx) -> R<Num> {
        match v {
            Value::Integer(i) => Ok(Num::Int(i128::from(*i))),
            Value::Float(f) => Ok(Num::Float(*f)),
            Value::Timespan(_) | Value::Timestamp(_) | Value::SemVer(_) => {
                Ok(Num::Other(v.clone()))
            }
            Value::String(s) => match to_n(s) {
                Some(n) => {
                    // NUMERIC_COERCION: as `strict` says.
                    let issue = issues::operators::numeric_coercion(s, n.text());
                    match self.node.strict() {
                        Strict::Off => {}
                        Strict::Warning => {
                            let w = format!("{issue}{}", self.loc(&ctx.program, at).suffix());
                            self.warnings.push(w);
                        }
                        Strict::Error => return self.fail(ctx, at, issue),
                    }
                    Ok(n)
                }
                None => self.fail(ctx, at, issues::operators::not_numeric(s)),
            },
            other => self.fail(ctx, at, issues::operators::not_numeric(ruby_to_s(other))),
        }
    }

    /// `+`, `-` and `<<` with an Array or a Hash on the left: Puppet's
    /// `concatenate`, `delete` (Ruby's `==` for an Array's elements, a
    /// Hash's own key equality for its keys) and `left + [right]`.
    fn collection_op(
        &mut self,
        e: &Expr,
        op: BinaryOp,
        l: &Value,
        r: &Value,
        ctx: &Ctx,
        left: &Expr,
    ) -> R<Value> {
        // The right operand as the elements it adds or deletes.
        let elements = |v: &Value| -> Vec<Value> {
            match v {
                Value::Array(b) => b.to_vec(),
                Value::Hash(h) => h
                    .iter()
                    .map(|(k, v)| Value::array(vec![k.clone(), v.clone()]))
                    .collect(),
                other => vec![other.clone()],
            }
        };
        match (op, l) {
            (BinaryOp::Add, Value::Array(a)) => {
                // An array doubled again and again is refused before it
                // outgrows the budget.
                let added = match r {
                    Value::Array(b) => b.len(),
                    Value::Hash(h) => h.len(),
                    _ => 1,
                };
                crate::budget::reserve_items(
                    (a.len() + added) as u64,
                    std::mem::size_of::<Value>(),
                )?;
                let mut out = (**a).clone();
                out.extend(elements(r));
                Ok(Value::array(out))
            }
            (BinaryOp::Sub, Value::Array(a)) => {
                let gone = elements(r);
                Ok(Value::array(
                    a.iter()
                        .filter(|x| !gone.iter().any(|y| super::builtins::ruby_equal(x, y)))
                        .cloned()
                        .collect(),
                ))
            }
            (BinaryOp::Shl, Value::Array(a)) => {
                let mut out = (**a).clone();
                out.push(r.clone());
                Ok(Value::array(out))
            }
            (BinaryOp::Add, Value::Hash(a)) => {
                let added = match r {
                    Value::Hash(b) => (**b).clone(),
                    Value::Array(b) => match hash_from_array(b) {
                        Ok(m) => m,
                        Err(detail) => return Err(self.wrap_detail(ctx, e, detail)),
                    },
                    _ => {
                        return Err(self.wrap_detail(ctx, e, issues::operators::HASH_APPEND.into()))
                    }
                };
                let mut out = (**a).clone();
                for (k, v) in added {
                    out.insert(k, v);
                }
                Ok(Value::hash(out))
            }
            (BinaryOp::Sub, Value::Hash(a)) => {
                let keys: Vec<Value> = match r {
                    Value::Array(b) => b.to_vec(),
                    Value::Hash(b) => b.keys().cloned().collect(),
                    other => vec![other.clone()],
                };
                Ok(Value::hash(
                    a.iter()
                        .filter(|(k, _)| !keys.contains(k))
                        .map(|(k, v)| (k.clone(), v.clone()))
                        .collect(),
                ))
            }
            _ => self.fail(
                ctx,
                left,
                issues::operators::operator_not_applicable(
                    binary_op_text(op),
                    puppet_syntax::validate::a_an(&value_label(l)),
                ),
            ),
        }
    }
}

/// Ruby's `Hash[y]` for an Array whose inferred element type is an Array
/// (every element an Array: `[[k, v], [k]]`), else `Hash[*y]` (`[k, v, k, v]`).
fn hash_from_array(items: &[Value]) -> Result<Map, String> {
    let mut out = Map::default();
    if !items.is_empty() && items.iter().all(|v| matches!(v, Value::Array(_))) {
        for item in items {
            let Value::Array(pair) = item else { continue };
            match pair.as_slice() {
                [k] => out.insert(k.clone(), Value::Undef),
                [k, v] => out.insert(k.clone(), v.clone()),
                other => {
                    return Err(format!(
                        "invalid number of elements ({} for 1..2)",
                        other.len()
                    ))
                }
            };
        }
        return Ok(out);
    }
    if !items.len().is_multiple_of(2) {
        return Err("odd number of arguments for Hash".into());
    }
    for kv in items.chunks(2) {
        out.insert(kv[0].clone(), kv[1].clone());
    }
    Ok(out)
}

fn value_label(v: &Value) -> String {
    puppet_model::value::value_label(v)
}
