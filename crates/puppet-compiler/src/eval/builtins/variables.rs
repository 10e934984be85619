//! Variables and navigation: get, getvar.

use super::signatures::sig;
use super::Cx;
use crate::eval::expr::R;
use crate::eval::value::{Map, Value};
use puppet_model::ruby::ruby_inspect;

pub(super) fn get(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
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
pub(super) fn navigate(cx: &mut Cx<'_, '_>, value: &Value, path: &str, default: Value) -> R<Value> {
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
                        puppet_model::types::infer(k)
                    ),
                    "EXPECTED_INTEGER_INDEX",
                ))
            }
            (other, _) => Some((
                format!(
                    "The given data does not contain a Collection at {}, got '{}'",
                    ruby_inspect(&Value::array(walked.clone())),
                    puppet_model::types::infer(other)
                ),
                "EXPECTED_COLLECTION",
            )),
        };
        if let Some((msg, code)) = problem {
            if cx.lambda.is_some() {
                // Puppet passes an Error object; its parts as a hash here.
                let mut e = Map::default();
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
pub(super) fn split_dotted(path: &str) -> Option<Vec<Value>> {
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

pub(super) fn getvar(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
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
pub(super) fn lookup_var(cx: &Cx<'_, '_>, name: &str) -> Option<Value> {
    cx.c.lookup_var_named(cx.scope, name)
}
