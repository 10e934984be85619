//! Number functions: abs, ceiling, floor, round, compare; Ruby's lenient `to_f`/`to_i`.

use super::ruby::{label, ruby_class, ruby_cmp};
use super::signatures::sig;
use super::strings::ruby_float_of;
use super::Cx;
use crate::eval::expr::R;
use crate::eval::value::Value;

pub(super) fn abs(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
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
pub(super) fn ruby_to_f(s: &str) -> f64 {
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
pub(super) fn ruby_to_i(s: &str) -> i64 {
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

pub(super) fn float_to_int(f: f64) -> Value {
    if f.is_finite() && f.abs() < 9.2e18 {
        Value::Integer(f as i64)
    } else {
        Value::Float(f)
    }
}

pub(super) fn ceiling(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    round_op(cx, args, "ceiling", f64::ceil)
}

pub(super) fn floor(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    round_op(cx, args, "floor", f64::floor)
}

pub(super) fn round_op(
    cx: &mut Cx<'_, '_>,
    args: &[Value],
    name: &str,
    f: fn(f64) -> f64,
) -> R<Value> {
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

pub(super) fn round(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
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

pub(super) fn compare(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let sigs = [
        sig(&[("Numeric", "a"), ("Numeric", "b")]),
        sig(&[("String", "a"), ("String", "b"), ("Boolean", "ignore_case")]).opt(2),
    ];
    // Timestamps and Timespans compare with their own kind or numbers.
    if args.len() == 2 {
        if let Some(ord) = puppet_model::time::compare(&args[0], &args[1]) {
            return Ok(Value::Integer(ord as i64));
        }
        // `on_version`.
        if let (Value::SemVer(a), Value::SemVer(b)) = (&args[0], &args[1]) {
            return Ok(Value::Integer(a.cmp_ruby(b) as i64));
        }
    }
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
    let comparable = |v: &Value| {
        matches!(
            v,
            Value::String(_)
                | Value::Integer(_)
                | Value::Float(_)
                | Value::Timestamp(_)
                | Value::Timespan(_)
                | Value::SemVer(_)
        )
    };
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
