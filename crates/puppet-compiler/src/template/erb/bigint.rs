//! Ruby's Integers are arbitrary precision: arithmetic past 64 bits goes on
//! in a Bignum (`2**64`, `"<md5 hex>".hex % 60` as modules seed a minute
//! from a host name). Small values stay `RValue::Int`; only results that do
//! not fit are `RValue::Big`, so every other method keeps working on i64.

use std::sync::Arc;

use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{Signed, ToPrimitive, Zero};

use super::value::RValue;

/// Past this many bits `a**b` gives Infinity and shifts fail. Ruby 3.1's
/// limit is 32 Mbit (`BIGLEN_LIMIT`); pverify stops at 1 Mbit (300,000
/// digits), far beyond any real template, so a hostile one cannot make a
/// compile spend minutes printing a number.
const MAX_BITS: u64 = 1024 * 1024;

/// `b` as an Integer value: `Int` when it fits.
pub fn norm(b: BigInt) -> RValue {
    match b.to_i64() {
        Some(i) => RValue::Int(i),
        None => RValue::Big(Arc::new(b)),
    }
}

/// The integer of an `Int` or `Big`.
pub fn of(v: &RValue) -> Option<BigInt> {
    match v {
        RValue::Int(i) => Some(BigInt::from(*i)),
        RValue::Big(b) => Some((**b).clone()),
        _ => None,
    }
}

pub fn to_f64(b: &BigInt) -> f64 {
    b.to_f64().unwrap_or(f64::NAN)
}

/// `x OP y` for two Integers, Ruby's way (floored `/` and `%`); `Err` is
/// Ruby's message. `None` when `op` is not an Integer operator here.
pub fn arith(op: &str, x: &BigInt, y: &BigInt) -> Option<Result<RValue, String>> {
    let zero_div = || Err("divided by 0".to_string());
    Some(match op {
        "+" => Ok(norm(x + y)),
        "-" => Ok(norm(x - y)),
        "*" => Ok(norm(x * y)),
        "/" | "div" if y.is_zero() => zero_div(),
        "%" | "modulo" if y.is_zero() => zero_div(),
        "/" | "div" => Ok(norm(x.div_floor(y))),
        "%" | "modulo" => Ok(norm(x.mod_floor(y))),
        "**" => Ok(pow(x, y)),
        "&" => Ok(norm(x & y)),
        "|" => Ok(norm(x | y)),
        "^" => Ok(norm(x ^ y)),
        "<<" | ">>" => {
            let left = (op == "<<") != y.is_negative();
            let Some(n) = y.abs().to_u64() else {
                return Some(shift_too_big(x, left));
            };
            if left {
                if x.is_zero() {
                    Ok(RValue::Int(0))
                } else if x.bits().saturating_add(n) > MAX_BITS {
                    Err("shift width too big".into())
                } else {
                    Ok(norm(x << n))
                }
            } else {
                // Floors, as Ruby's shift of a negative number does.
                Ok(norm(x >> n))
            }
        }
        _ => return None,
    })
}

fn shift_too_big(x: &BigInt, left: bool) -> Result<RValue, String> {
    if left && !x.is_zero() {
        Err("shift width too big".into())
    } else {
        Ok(RValue::Int(if x.is_negative() { -1 } else { 0 }))
    }
}

/// `x ** y`: a Rational for a negative exponent in Ruby (a Float here, as
/// before), Infinity past Ruby's size limit.
fn pow(x: &BigInt, y: &BigInt) -> RValue {
    if y.is_negative() {
        return RValue::Float(to_f64(x).powf(to_f64(y)));
    }
    if x.is_zero() {
        return RValue::Int(i64::from(y.is_zero()));
    }
    if x.abs() == BigInt::from(1) {
        return RValue::Int(if x.is_negative() && y.is_odd() { -1 } else { 1 });
    }
    match y.to_u32() {
        Some(e) if x.bits().saturating_mul(e as u64) <= MAX_BITS => norm(x.pow(e)),
        _ => RValue::Float(to_f64(x).powf(to_f64(y))),
    }
}

/// `Integer#to_s(base)`.
pub fn to_s_radix(b: &BigInt, base: i64) -> String {
    match u32::try_from(base) {
        Ok(r) if (2..=36).contains(&r) => b.to_str_radix(r),
        _ => b.to_string(),
    }
}

/// Ruby's `String#to_i(base)` and `String#hex` digits: leading blanks, a
/// sign, the digits (underscores between them), as far as they go.
pub fn parse_prefix(s: &str, base: u32) -> RValue {
    let t = s.trim_start();
    let (neg, rest) = match t.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let rest = match base {
        16 => rest
            .strip_prefix("0x")
            .or_else(|| rest.strip_prefix("0X"))
            .unwrap_or(rest),
        2 => rest
            .strip_prefix("0b")
            .or_else(|| rest.strip_prefix("0B"))
            .unwrap_or(rest),
        _ => rest,
    };
    let mut digits = String::new();
    let mut prev_underscore = false;
    for c in rest.chars() {
        if c == '_' && !digits.is_empty() && !prev_underscore {
            prev_underscore = true;
            continue;
        }
        if !c.is_digit(base) {
            break;
        }
        prev_underscore = false;
        digits.push(c);
    }
    let n = BigInt::parse_bytes(digits.as_bytes(), base).unwrap_or_default();
    norm(if neg { -n } else { n })
}
