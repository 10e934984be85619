//! `new`: type conversions (`Integer('42')`, `String(x, fmt)`, ...).

use super::objects::new_object;
use super::ruby::iterable;
use super::ruby_format::{digits_str, exact_decimal, format_float, ruby_format, Spec};
use super::signatures::sig;
use super::strings::{is_ruby_space, ruby_capitalize, ruby_float_of, ruby_integer};
use super::Cx;
use crate::eval::expr::R;
use crate::eval::value::{Map, Value};
use puppet_model::ruby::ruby_to_s;
use puppet_model::types::text::TypeParser;
use puppet_model::types::PType;
use std::sync::Arc;

pub(super) fn convert_to(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
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

pub(super) fn new(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
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
        && puppet_model::types::is_instance(t, &rest[0])
    {
        return Ok(rest[0].clone());
    }
    let result = new_value(cx, t, rest)?;
    if !puppet_model::types::is_instance(t, &result) {
        return cx.fail(puppet_model::types::describe_mismatch_named(
            &format!("Converted value from {t}.new() has wrong type,"),
            t,
            &puppet_model::types::infer_set(&result),
        ));
    }
    if cx.lambda.is_some() {
        return cx.yield_(&[result]);
    }
    Ok(result)
}

/// The generalized type of a value, for "Value of type X cannot be
/// converted" messages.
pub(super) fn general_type(v: &Value) -> String {
    puppet_model::types::infer(v).generalize().to_string()
}

/// `t.new_function.call(*args)`.
/// `Binary.new`: from base64 (or text with `%s`/`%r`), from bytes, or from
/// a hash of either (Puppet's `new_Binary`).
fn new_binary(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let sub = Cx {
        c: &mut *cx.c,
        name: "new_Binary",
        lambda: None,
        scope: cx.scope,
        ctx: cx.ctx,
        at: cx.at,
    };
    // Its local types (`Base64Format`, `ByteInteger`, ...): signatures::local_type.
    let i = sub.dispatch(
        &[
            sig(&[("String", "str"), ("Base64Format", "format")]).opt(1),
            sig(&[("Array[ByteInteger]", "byte_array")]),
            sig(&[("BinaryArgsHash", "hash_args")]),
        ],
        args,
    )?;
    let (value, format) = match (i, &args[0]) {
        (2, Value::Hash(h)) => (
            h.get(&Value::string("value"))
                .cloned()
                .unwrap_or(Value::Undef),
            h.get(&Value::string("format")).cloned(),
        ),
        _ => (args[0].clone(), args.get(1).cloned()),
    };
    let bytes = match &value {
        Value::Array(items) => items
            .iter()
            .map(|b| match b {
                Value::Integer(n) => *n as u8,
                _ => 0,
            })
            .collect(),
        other => {
            let s = other.as_str().unwrap_or_default();
            let f = format.as_ref().and_then(|f| f.as_str().map(String::from));
            match puppet_model::binary::from_string(s, f.as_deref()) {
                Ok(b) => b,
                Err(e) => return cx.fail(e),
            }
        }
    };
    Ok(Value::Binary(bytes.into()))
}

pub(super) fn new_value(cx: &mut Cx<'_, '_>, t: &PType, args: &[Value]) -> R<Value> {
    let unsupported = || format!("Creation of new instance of type '{t}' is not supported");
    match t {
        PType::Integer { .. } => new_integer(cx, args),
        PType::Float { .. } => new_float(cx, args),
        PType::Numeric => new_numeric(cx, args),
        PType::String { .. } => new_string(cx, args),
        PType::Boolean(_) => new_boolean(cx, args),
        PType::Binary => new_binary(cx, args),
        PType::ObjectDef(o) => new_object(cx, o, args),
        PType::Timestamp { .. } => super::time::new_timestamp(cx, args),
        PType::Timespan { .. } => super::time::new_timespan(cx, args),
        PType::SemVer(_) => super::semver::new_semver(cx, args),
        PType::SemVerRange => super::semver::new_semver_range(cx, args),
        PType::Uri(_) => super::uri::new_uri(cx, args),
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
            if let Err(e) = puppet_model::types::regex::compile(&src) {
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
            // Puppet's TypeParser parses the string as Puppet code first: a
            // syntax error with a place is raised as it is (a ParseError
            // of the string's own line and column), one at the end of the
            // input as the call's error.
            if let Err(e) = puppet_syntax::parse("", s.as_bytes()) {
                return match e.line {
                    Some(_) => Err(crate::eval::error::EvalError::Completion(e.puppet_style())),
                    None => cx.fail(e.message),
                };
            }
            match TypeParser::new(s).value() {
                t @ Value::Type(_)
                    if !matches!(&t, Value::Type(p) if matches!(p.as_ref(), PType::Any))
                        || s.trim() == "Any" =>
                {
                    Ok(t)
                }
                // Code that is no type is refused with its text.
                _ => {
                    cx.fail(crate::eval::issues::relationships::not_a_type_specification(s.trim()))
                }
            }
        }
        PType::Object(Some(name)) if name == "Deferred" => {
            let sub = Cx {
                c: &mut *cx.c,
                name: "new_deferred",
                lambda: None,
                scope: cx.scope,
                ctx: cx.ctx,
                at: cx.at,
            };
            sub.dispatch(
                &[sig(&[
                    (
                        "Pattern[/\\A[$]?[a-z][a-z0-9_]*(?:::[a-z][a-z0-9_]*)*\\z/]",
                        "name",
                    ),
                    ("Optional[Array]", "arguments"),
                ])
                .opt(1)],
                args,
            )?;
            Ok(Value::Deferred(Arc::new(puppet_model::value::Deferred {
                name: args[0].as_str().unwrap_or_default().into(),
                arguments: match args.get(1) {
                    Some(Value::Array(a)) => Some(a.to_vec()),
                    _ => None,
                },
            })))
        }
        PType::Object(_) | PType::Init { .. } => cx.fail(format!(
            "pverify does not support values of type {} (in {t}.new())",
            t.simple_name()
        )),
        _ => cx.fail(unsupported()),
    }
}

/// Ruby's `Regexp.escape`.
pub(super) fn ruby_regexp_escape(s: &str) -> String {
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
pub(super) fn integer_lenient(s: &str) -> bool {
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
pub(super) fn float_pattern(s: &str) -> bool {
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
pub(super) fn ws_after_sign(s: &str) -> Option<String> {
    let sign = s.chars().next().filter(|c| *c == '+' || *c == '-')?;
    let rest = &s[1..];
    let body = rest.trim_start_matches([' ', '\t']);
    if body.len() == rest.len() || body.contains('\n') {
        return None;
    }
    Some(format!("{sign}{body}"))
}

pub(super) fn new_integer(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
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
    // A Timestamp or Timespan converts to its whole seconds (`to_i`).
    let from = match from {
        Value::Timestamp(n) | Value::Timespan(n) => {
            Value::Integer(i64::try_from(n.as_secs_floor()).unwrap_or(i64::MAX))
        }
        other => other,
    };
    // Puppet matches the text with a regexp, which Ruby refuses on bytes
    // that are not UTF-8.
    super::strings::refuse_bad_bytes(cx, &from, puppet_syntax::error::INVALID_BYTE_SEQUENCE)?;
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
                        puppet_model::names::ruby_inspect_str(s)
                    ),
                    Some(_) => format!(
                        "invalid value for Integer(): {}",
                        puppet_model::names::ruby_inspect_str(s)
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

pub(super) fn new_float(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
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
    // A Timestamp or Timespan converts to its seconds (`to_f`).
    let from = match from {
        Value::Timestamp(n) | Value::Timespan(n) => Value::Float(n.as_f64()),
        other => other,
    };
    // Puppet matches the text with a regexp, which Ruby refuses on bytes
    // that are not UTF-8.
    super::strings::refuse_bad_bytes(cx, &from, puppet_syntax::error::INVALID_BYTE_SEQUENCE)?;
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
                        puppet_model::names::ruby_inspect_str(s)
                    ))
                }
            }
        }
        _ => 0.0,
    };
    Ok(Value::Float(if abs.is_truthy() { f.abs() } else { f }))
}

pub(super) fn new_numeric(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
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
    // A Timestamp or Timespan converts to its seconds (`to_f`).
    let from = match from {
        Value::Timestamp(n) | Value::Timespan(n) => Value::Float(n.as_f64()),
        other => other,
    };
    // Puppet matches the text with a regexp, which Ruby refuses on bytes
    // that are not UTF-8.
    super::strings::refuse_bad_bytes(cx, &from, puppet_syntax::error::INVALID_BYTE_SEQUENCE)?;
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
                            puppet_model::names::ruby_inspect_str(s)
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

pub(super) fn new_boolean(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
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

pub(super) fn new_array(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
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

pub(super) fn new_hash(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
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
pub(super) fn hash_from_tree(pairs: &[(Value, Value)], all_hashes: bool) -> Value {
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
                let child = h.entry(key).or_insert_with(|| Value::hash(Map::default()));
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
    let mut result = Value::hash(Map::default());
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

pub(super) fn new_string(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
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
    // `%t` strips a String with Ruby's `strip`, which Ruby 3.3 refuses on
    // bytes that are not UTF-8 (Ruby 3.1 strips them).
    if fmt.is_some_and(|f| f.ends_with('t')) && matches!(args[0], Value::String(_)) {
        super::strings::refuse_bad_bytes_on_ruby_3_3(cx, args)?;
    }
    match string_convert(&args[0], fmt, true) {
        Ok(s)
            if matches!(&args[0], Value::String(r) if crate::bad_bytes::is_binary_string(r))
                && quotes_in_receivers_encoding(fmt, &s) =>
        {
            Ok(crate::bad_bytes::in_encoding_of_value(&args[0], s))
        }
        Ok(s) => Ok(Value::string(s)),
        Err(e) => cx.fail(e),
    }
}

/// Whether Puppet's `puppet_quote` made `quoted`, a String's `%p` or the
/// `#` form of `%c`, `%C`, `%u`, `%d`, `%t`, in single quotes and with no
/// width or precision: it builds those in the String's own encoding, where
/// double quotes and `Kernel.format` make UTF-8 text.
fn quotes_in_receivers_encoding(fmt: Option<&str>, quoted: &str) -> bool {
    let Some(fmt) = fmt else { return false };
    let flags = StringFlags::of(fmt);
    let single_quoted = match fmt.chars().last() {
        Some('p') => !flags.alt,
        Some('c' | 'C' | 'u' | 'd' | 't') => flags.alt,
        _ => false,
    };
    single_quoted && !flags.pads() && quoted.starts_with('\'')
}

/// The flags of a String's format that Puppet's `string_PStringType` reads
/// (`%-#10.3p`): `#` quotes, `-`, the width and the precision pad.
struct StringFlags<'f> {
    alt: bool,
    left: bool,
    width: &'f str,
    prec: Option<&'f str>,
}

impl<'f> StringFlags<'f> {
    /// Read as Puppet's `FMT_PATTERN` does: `%`, flags, width, `.prec`.
    fn of(fmt: &'f str) -> StringFlags<'f> {
        let body = fmt.strip_prefix('%').unwrap_or(fmt);
        let body = &body[..body.len().saturating_sub(1)];
        let flags_end = body
            .find(|c: char| !" [+#0{<(|-".contains(c))
            .unwrap_or(body.len());
        let (flags, rest) = body.split_at(flags_end);
        let (width, prec) = match rest.split_once('.') {
            Some((w, p)) => (w, Some(p)),
            None => (rest, None),
        };
        StringFlags {
            alt: flags.contains('#'),
            left: flags.contains('-'),
            width,
            prec,
        }
    }

    fn pads(&self) -> bool {
        self.left || !self.width.is_empty() || self.prec.is_some()
    }

    /// Puppet's `apply_string_flags`: `Kernel.format` of the quoted text
    /// with `-`, the width and the precision, or the text as it is.
    fn apply(&self, quoted: &str) -> Result<String, String> {
        if !self.pads() {
            return Ok(quoted.to_string());
        }
        let mut f = String::from("%");
        if self.left {
            f.push('-');
        }
        f.push_str(self.width);
        if let Some(p) = self.prec {
            f.push('.');
            f.push_str(p);
        }
        f.push('s');
        ruby_format(&f, &[Value::string(quoted)])
    }
}

/// Puppet's `StringConverter` with its default formats (`%s` at the top,
/// `%p` inside collections), and a format string for scalars.
pub(super) fn string_convert(v: &Value, fmt: Option<&str>, top: bool) -> Result<String, String> {
    // Data can nest deeper than any stack (a `reduce` wrapping its memo):
    // grow the stack on the heap rather than overflow (tests/limits.rs).
    stacker::maybe_grow(256 << 10, 4 << 20, || string_convert_nested(v, fmt, top))
}

fn string_convert_nested(v: &Value, fmt: Option<&str>, top: bool) -> Result<String, String> {
    // A value sharing its parts prints once per path: the budget bounds it.
    crate::budget::tick_at(v).map_err(|e| e.to_string())?;
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
        Value::Deferred(_) | Value::Object(_) => v.to_string(),
        // '%B' alone, '%p' (`Binary("...")`) inside a collection.
        Value::Binary(_) if top => v.to_string(),
        Value::Binary(_) => format!("Binary(\"{v}\")"),
        // The string form alone; inside a collection Ruby's `inspect`
        // (with an object address: here without it).
        Value::Timestamp(_) | Value::Timespan(_) if top => v.to_string(),
        Value::Timestamp(n) | Value::Timespan(n) => format!(
            "#<{} @nsecs={}>",
            puppet_model::types::parse::ruby_class(v),
            n.get()
        ),
        // A SemVerRange alone is its string; inside a collection its
        // `inspect` (the matchers: `>=1.0.0 <2.0.0` for `1.x`).
        Value::SemVer(x) => x.to_string(),
        Value::SemVerRange(r) if top => r.to_string(),
        Value::SemVerRange(r) => r.inspect(),
        // A URI alone is its string; inside a collection `URI('...')`.
        Value::Uri(u) if top => u.to_string(),
        Value::Uri(u) => format!(
            "URI({})",
            puppet_model::types::format::puppet_quote(&u.to_string())
        ),
        // Ruby's `Range#to_s` and `inspect` alike: `1..4`, also inside a
        // collection.
        Value::Range(r) => r.to_string(),
        Value::Boolean(b) => b.to_string(),
        Value::Integer(n) => n.to_string(),
        Value::Float(f) => {
            if top {
                format_float(&Spec::default(), 'f', *f)
            } else {
                puppet_syntax::pn::ruby_float(*f)
            }
        }
        Value::String(s) => {
            if top {
                s.to_string()
            } else if crate::bad_bytes::holds_bad_byte(s) {
                // Quoted by code point, which Ruby refuses for bad bytes.
                return Err(puppet_syntax::error::INVALID_BYTE_SEQUENCE.to_string());
            } else {
                puppet_model::types::puppet_quote(s)
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
pub(super) fn format_scalar(v: &Value, fmt: &str) -> Result<String, String> {
    let conv = fmt.chars().last().unwrap_or('s');
    match v {
        // No `string_PTimestampType`: Puppet's `string_PAnyType` hands the
        // format to Ruby's `Kernel.format`, which reads a Timestamp or
        // Timespan as its seconds (`%d`, `%f`) or its string form (`%s`).
        Value::Timestamp(n) | Value::Timespan(n) => match conv {
            'd' | 'i' | 'u' | 'x' | 'X' | 'o' | 'b' | 'B' => {
                let secs = i64::try_from(n.as_secs_floor()).unwrap_or(i64::MAX);
                ruby_format(fmt, &[Value::Integer(secs)])
            }
            'f' | 'e' | 'E' | 'g' | 'G' | 'a' | 'A' => ruby_format(fmt, &[Value::Float(n.as_f64())]),
            'p' => string_convert_nested(v, None, false),
            _ => ruby_format(fmt, &[Value::string(v.to_string())]),
        },
        // `string_PAnyType`: Ruby's `Kernel.format` of the object, `%p`
        // its `inspect`.
        Value::SemVer(_) | Value::SemVerRange(_) => {
            let text = match (conv, v) {
                ('p', Value::SemVerRange(r)) => r.inspect(),
                _ => v.to_string(),
            };
            match conv {
                's' | 'p' => ruby_format(&format!("{}s", &fmt[..fmt.len() - 1]), &[Value::string(text)]),
                _ => Err(format!(
                    "can't convert {} into Integer",
                    puppet_model::types::parse::ruby_class(v)
                )),
            }
        }
        // `string_PURIType`: `%p` is `URI('...')`, others format the string.
        Value::Uri(_) => match conv {
            'p' => string_convert_nested(v, None, false),
            _ => ruby_format(fmt, &[Value::string(v.to_string())]),
        },
        // Puppet's `string_PBinaryType`.
        Value::Binary(b) => {
            let as_s = |text: String| ruby_format(&format!("{}s", &fmt[..fmt.len() - 1]), &[Value::string(text)]);
            match conv {
                's' => match std::str::from_utf8(b) {
                    Ok(t) => as_s(t.to_string()),
                    Err(_) => Err("\"\\xFF\" from ASCII-8BIT to UTF-8".to_string()),
                },
                'p' => Ok(format!("Binary(\"{}\")", as_s(v.to_string())?)),
                'b' => as_s(puppet_model::binary::relaxed_encode(b)),
                'B' => as_s(v.to_string()),
                'u' => as_s(puppet_model::binary::urlsafe_encode(b)),
                't' => as_s("Binary".into()),
                'T' => as_s("BINARY".into()),
                _ => Err(format!(
                    "Illegal format '{conv}' specified for value of Binary type - expected one of the characters 'bButTsp'"
                )),
            }
        }
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
                &[Value::string(puppet_syntax::pn::ruby_float(*f))],
            ),
            _ => Err(format!(
                "Illegal format '{conv}' specified for value of Float type - expected one of the characters 'dxXobBeEfgGaAsp'"
            )),
        },
        // Text holding bytes that are not UTF-8 (`crate::bad_bytes`): Puppet
        // quotes by code point and changes case with Ruby's, which refuse it.
        // (`%C` splits at `::` first, which refuses it too.)
        Value::String(s) if matches!(conv, 'p' | 'c' | 'C' | 'u' | 'd') && crate::bad_bytes::holds_bad_byte(s) => {
            Err(if matches!(conv, 'p' | 'C') {
                puppet_syntax::error::INVALID_BYTE_SEQUENCE
            } else {
                crate::bad_bytes::INPUT_STRING_INVALID
            }
            .to_string())
        }
        // Puppet's `string_PStringType`.
        Value::String(s) => {
            let flags = StringFlags::of(fmt);
            let changed = match conv {
                's' => return ruby_format(fmt, std::slice::from_ref(v)),
                'p' => {
                    return flags.apply(&if flags.alt {
                        puppet_model::types::puppet_double_quote(s)
                    } else {
                        puppet_model::types::puppet_quote(s)
                    })
                }
                'c' => ruby_capitalize(s),
                'C' => s.split("::").map(ruby_capitalize).collect::<Vec<_>>().join("::"),
                'u' => s.to_uppercase(),
                'd' => s.to_lowercase(),
                't' => s.trim_matches(is_ruby_space).to_string(),
                _ => {
                    return Err(format!(
                        "Illegal format '{conv}' specified for value of String type - expected one of the characters 'cCudspt'"
                    ))
                }
            };
            if flags.alt {
                flags.apply(&puppet_model::types::puppet_quote(&changed))
            } else {
                ruby_format(&fmt.replace(conv, "s"), &[Value::string(changed)])
            }
        }
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
        other => {
            // The format characters Puppet's StringConverter takes for the
            // other types (their flags are not applied here).
            let (label, valid) = match other {
                Value::Regexp(_) => ("Regexp", "sp"),
                Value::Array(_) => ("Array", "asp"),
                Value::Hash(_) => ("Hash", "hasp"),
                Value::Type(_) => ("Type", "sp"),
                Value::Default => ("Default", "dDsp"),
                Value::Undef => ("Undef", "nudxXobBeEfgGaAvVsp"),
                _ => ("", ""),
            };
            if !valid.is_empty() && !valid.contains(conv) {
                return Err(format!(
                    "Illegal format '{conv}' specified for value of {label} type - expected one of the characters '{valid}'"
                ));
            }
            string_convert(other, None, true)
        }
    }
}

/// Puppet's `Utils.to_n`: a number in a string (`NUMERIC`), or `None`.
pub(super) fn puppet_to_n(s: &str) -> Option<Value> {
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
pub(super) fn float_tail(s: &str) -> bool {
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
