//! Arithmetic on Timestamps and Timespans, as Puppet's evaluator does it:
//! a number on the left of `+` (or of `*` with a Timespan) trades places
//! with the time value, a number minus a Timespan is a Timespan of that
//! many seconds, and the rest is Ruby's `Timestamp`/`Timespan` operators
//! (numbers count seconds).

use super::Nanos;
use crate::values::types::parse::{a_an, a_an_uc, label_value};
use crate::values::Value;
use puppet_syntax::ast::BinaryOp;

/// Why an operation failed, which decides where Puppet reports it.
#[derive(Debug, PartialEq)]
pub enum OpError {
    /// `Operator ... is not applicable ...`, at the left operand.
    NotApplicable(String),
    /// A Ruby `ArgumentError`, at the whole expression.
    Argument(String),
    /// Division by zero, at the right operand.
    DivByZero,
    /// A Float result that is infinite.
    Infinity,
}

fn is_time(v: &Value) -> bool {
    matches!(v, Value::Timestamp(_) | Value::Timespan(_))
}

fn op_text(op: BinaryOp) -> &'static str {
    puppet_syntax::pn::binary_op_text(op)
}

/// Seconds of a number, as nanoseconds.
fn secs(v: &Value) -> Option<i128> {
    match v {
        Value::Integer(i) => Some(Nanos::from_secs(*i).get()),
        Value::Float(f) => Some(Nanos::from_secs_f64(*f).get()),
        _ => None,
    }
}

fn not_applicable(op: BinaryOp, l: &Value) -> OpError {
    OpError::NotApplicable(format!(
        "Operator '{}' is not applicable to {}.",
        op_text(op),
        a_an(&label_value(l))
    ))
}

fn overflow() -> OpError {
    OpError::Argument("bignum too big to convert into 'long'".into())
}

/// `l op r` when either is a Timestamp or Timespan (after strings became
/// numbers); `None` when neither is.
pub fn arithmetic(op: BinaryOp, l: &Value, r: &Value) -> Option<Result<Value, OpError>> {
    if !is_time(l) && !is_time(r) {
        return None;
    }
    Some(calculate(op, l, r))
}

fn calculate(op: BinaryOp, l: &Value, r: &Value) -> Result<Value, OpError> {
    if op == BinaryOp::Mod {
        if let Value::Float(_) = l {
            return Err(not_applicable(op, l));
        }
        if let Value::Float(_) = r {
            return Err(when(op, l, r));
        }
    }
    let (mut l, mut r) = (l.clone(), r.clone());
    if is_time(&r) && !is_time(&l) {
        let span_right = matches!(r, Value::Timespan(_));
        if op == BinaryOp::Add || (op == BinaryOp::Mul && span_right) {
            std::mem::swap(&mut l, &mut r);
        } else if op == BinaryOp::Sub && span_right {
            let s = secs(&l).ok_or_else(|| not_applicable(op, &l))?;
            l = Value::Timespan(Nanos::new(s));
        } else {
            return Err(when(op, &l, &r));
        }
    }
    let stamp = |n: Option<i128>| {
        n.map(|n| Value::Timestamp(Nanos::new(n)))
            .ok_or_else(overflow)
    };
    let span = |n: Option<i128>| {
        n.map(|n| Value::Timespan(Nanos::new(n)))
            .ok_or_else(overflow)
    };
    let other = a_an_uc(&label_value(&r));
    match (&l, op) {
        (Value::Timestamp(a), BinaryOp::Add) => match &r {
            Value::Timespan(b) => stamp(a.get().checked_add(b.get())),
            Value::Integer(_) | Value::Float(_) => {
                stamp(a.get().checked_add(secs(&r).unwrap_or(0)))
            }
            _ => Err(OpError::Argument(format!(
                "{other} cannot be added to a Timestamp"
            ))),
        },
        (Value::Timestamp(a), BinaryOp::Sub) => match &r {
            Value::Timestamp(b) => span(a.get().checked_sub(b.get())),
            Value::Timespan(b) => stamp(a.get().checked_sub(b.get())),
            Value::Integer(_) | Value::Float(_) => {
                stamp(a.get().checked_sub(secs(&r).unwrap_or(0)))
            }
            _ => Err(OpError::Argument(format!(
                "{other} cannot be subtracted from a Timestamp"
            ))),
        },
        (Value::Timespan(a), BinaryOp::Add) => match &r {
            Value::Timestamp(b) => stamp(a.get().checked_add(b.get())),
            Value::Timespan(b) => span(a.get().checked_add(b.get())),
            Value::Integer(_) | Value::Float(_) => span(a.get().checked_add(secs(&r).unwrap_or(0))),
            _ => Err(OpError::Argument(format!(
                "{other} cannot be added to a Timespan"
            ))),
        },
        (Value::Timespan(a), BinaryOp::Sub) => match &r {
            Value::Timespan(b) => span(a.get().checked_sub(b.get())),
            Value::Integer(_) | Value::Float(_) => span(a.get().checked_sub(secs(&r).unwrap_or(0))),
            _ => Err(OpError::Argument(format!(
                "{other} cannot be subtracted from a Timespan"
            ))),
        },
        (Value::Timespan(a), BinaryOp::Mul) => match &r {
            Value::Integer(i) => span(a.get().checked_mul(i128::from(*i))),
            Value::Float(f) => span(Some((a.get() as f64 * f) as i128)),
            _ => Err(OpError::Argument(format!(
                "A Timestamp cannot be multiplied by {}",
                a_an(&label_value(&r))
            ))),
        },
        (Value::Timespan(a), BinaryOp::Div) => match &r {
            Value::Timespan(b) => {
                let q = a.get() as f64 / b.get() as f64;
                if q.is_infinite() {
                    Err(OpError::Infinity)
                } else {
                    Ok(Value::Float(q))
                }
            }
            Value::Integer(0) => Err(OpError::DivByZero),
            Value::Float(f) if *f == 0.0 => Err(OpError::DivByZero),
            // Ruby's Integer#div: the floor of the quotient.
            Value::Integer(i) => span(floor_div(a.get(), i128::from(*i))),
            Value::Float(f) => span(Some((a.get() as f64 / f).floor() as i128)),
            _ => Err(OpError::Argument(format!(
                "A Timespan cannot be divided by {}",
                a_an(&label_value(&r))
            ))),
        },
        (Value::Timespan(a), BinaryOp::Mod) => match &r {
            Value::Integer(0) => Err(OpError::DivByZero),
            // `to_i.divmod(o)[1]`: the floor of the seconds, Ruby's modulo.
            Value::Integer(i) => {
                let s = a.get().div_euclid(super::NSECS_PER_SEC);
                let i = i128::from(*i);
                let m = floor_div(s, i).map(|q| s - i * q).ok_or_else(overflow)?;
                Ok(Value::Integer(m as i64))
            }
            _ => Err(OpError::Argument(format!(
                // Puppet's text says "a" before its own article.
                "Can not do modulus on a Timespan using a {}",
                a_an(&label_value(&r))
            ))),
        },
        _ => Err(not_applicable(op, &l)),
    }
}

/// Ruby's Integer division: the floor of the quotient (`None` past `i128`
/// or for a zero divisor).
fn floor_div(a: i128, b: i128) -> Option<i128> {
    let q = a.checked_div(b)?;
    Some(if a % b != 0 && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    })
}

fn when(op: BinaryOp, l: &Value, r: &Value) -> OpError {
    OpError::NotApplicable(format!(
        "Operator '{}' is not applicable to {} when right side is {}.",
        op_text(op),
        a_an(&label_value(l)),
        a_an(&label_value(r))
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ts(s: i64) -> Value {
        Value::Timestamp(Nanos::from_secs(s))
    }
    fn sp(s: i64) -> Value {
        Value::Timespan(Nanos::from_secs(s))
    }

    #[test]
    fn as_puppet_computes() {
        let a = |op, l: &Value, r: &Value| arithmetic(op, l, r).unwrap();
        assert_eq!(a(BinaryOp::Sub, &ts(5), &ts(2)), Ok(sp(3)));
        assert_eq!(a(BinaryOp::Add, &Value::Integer(5), &ts(2)), Ok(ts(7)));
        assert_eq!(a(BinaryOp::Sub, &Value::Integer(5), &sp(2)), Ok(sp(3)));
        assert_eq!(
            a(BinaryOp::Mod, &sp(3), &Value::Integer(2)),
            Ok(Value::Integer(1))
        );
        assert_eq!(a(BinaryOp::Div, &sp(3), &sp(2)), Ok(Value::Float(1.5)));
        assert_eq!(
            a(BinaryOp::Add, &ts(1), &ts(2)),
            Err(OpError::Argument(
                "A Timestamp cannot be added to a Timestamp".into()
            ))
        );
        assert_eq!(
            a(BinaryOp::Sub, &Value::Integer(5), &ts(2)),
            Err(OpError::NotApplicable(
                "Operator '-' is not applicable to an Integer when right side is a Timestamp."
                    .into()
            ))
        );
        assert_eq!(
            a(BinaryOp::Div, &sp(1), &Value::Integer(0)),
            Err(OpError::DivByZero)
        );
    }
}
