//! Collection functions: flatten, then/lest, unwrap, type, sort, unique, min/max.

use super::numbers::ruby_to_f;
use super::ruby::{cmp_error, iterable, ruby_class, ruby_cmp, ruby_sort, type_value};
use super::signatures::sig;
use super::Cx;
use crate::eval::error::EvalError;
use crate::eval::expr::R;
use crate::eval::value::{Map, Value};
use puppet_model::ruby::{ruby_inspect, ruby_to_s};

pub(super) fn flatten(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    cx.dispatch(&[sig(&[("Any", "args")]).rest(0)], args)?;
    let mut out = Vec::new();
    puppet_model::value::flatten_into(args, &mut out);
    Ok(Value::array(out))
}

pub(super) fn import(cx: &mut Cx<'_, '_>, _args: &[Value]) -> R<Value> {
    Err(EvalError::Issue {
        detail: crate::eval::issues::functions::DISCONTINUED_IMPORT.into(),
        at: cx.at.clone(),
    })
}

pub(super) fn then(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    cx.dispatch(&[sig(&[("Any", "arg")]).block("Callable[1,1]")], args)?;
    if args[0].is_undef() {
        return Ok(Value::Undef);
    }
    cx.yield_(&args[..1])
}

pub(super) fn lest(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    cx.dispatch(&[sig(&[("Any", "arg")]).block("Callable[0,0]")], args)?;
    if args[0].is_undef() {
        return cx.yield_(&[]);
    }
    Ok(args[0].clone())
}

pub(super) fn unwrap(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
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

pub(super) fn type_(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let i = cx.dispatch(
        &[
            sig(&[("Any", "value"), ("Enum[detailed]", "inference_method")]).opt(1),
            sig(&[("Any", "value"), ("Enum[reduced]", "inference_method")]),
            sig(&[("Any", "value"), ("Enum[generalized]", "inference_method")]),
        ],
        args,
    )?;
    Ok(type_value(match i {
        0 => puppet_model::types::infer_set(&args[0]),
        1 => puppet_model::types::infer(&args[0]),
        _ => puppet_model::types::infer(&args[0]).generalize(),
    }))
}

pub(super) fn sort(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
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
pub(super) fn block_cmp(cx: &Cx<'_, '_>, r: &Value, a: &Value, b: &Value) -> R<std::cmp::Ordering> {
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
pub(super) fn sort_with_block(cx: &mut Cx<'_, '_>, items: Vec<Value>) -> R<Vec<Value>> {
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

pub(super) fn unique(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
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
        let mut out = Map::default();
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
    let mut seen: rustc_hash::FxHashSet<Value> = rustc_hash::FxHashSet::default();
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

pub(super) fn min(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    min_max(cx, args, false)
}

pub(super) fn max(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    min_max(cx, args, true)
}

pub(super) fn min_max(cx: &mut Cx<'_, '_>, args: &[Value], is_max: bool) -> R<Value> {
    use std::cmp::Ordering;
    let name = if is_max { "max" } else { "min" };
    // Puppet 8 adds SemVer, Timespan and Timestamp (compared as such), as
    // values and as arrays, after the numbers and strings of each group.
    let v8 = cx.c.node.puppet == crate::version::PuppetVersion::V8;
    let extra = if v8 { 3 } else { 0 };
    let mut sigs = vec![
        sig(&[("Numeric", "values")]).rest(0),
        sig(&[("String", "values")]).rest(0),
    ];
    let values_sigs = [
        sig(&[("Semver", "values")]).rest(0),
        sig(&[("Timespan", "values")]).rest(0),
        sig(&[("Timestamp", "values")]).rest(0),
    ];
    let array_sigs = [
        sig(&[("Array[Semver]", "values")]).opt_block("Callable[2,2]"),
        sig(&[("Array[Timespan]", "values")]).opt_block("Callable[2,2]"),
        sig(&[("Array[Timestamp]", "values")]).opt_block("Callable[2,2]"),
    ];
    sigs.extend(values_sigs.into_iter().take(extra));
    let first_array = sigs.len();
    sigs.push(sig(&[("Array[Numeric]", "values")]).opt_block("Callable[2,2]"));
    sigs.push(sig(&[("Array[String]", "values")]).opt_block("Callable[2,2]"));
    sigs.extend(array_sigs.into_iter().take(extra));
    let any_array = sigs.len();
    sigs.push(sig(&[("Array", "values")]).opt_block("Callable[2,2]"));
    sigs.push(sig(&[("Any", "values")]).rest(0).block("Callable[2,2]"));
    sigs.push(sig(&[("Any", "values")]).rest(0));
    let i = cx.dispatch(&sigs, args)?;
    // The values, and how they compare: 0 as themselves (numbers, SemVer,
    // time), 1 strings, 2 any.
    let group = |k: usize| match k {
        1 => 1,
        _ => 0,
    };
    let (values, mode): (Vec<Value>, u8) = if i < first_array {
        (args.to_vec(), group(i))
    } else if i <= any_array {
        let items = match &args[0] {
            Value::Array(a) => a.to_vec(),
            _ => Vec::new(),
        };
        let mode = if i == any_array {
            2
        } else {
            group(i - first_array)
        };
        (items, mode)
    } else {
        (args.to_vec(), 2)
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

pub(super) fn keys(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    cx.dispatch(&[sig(&[("Hash", "hsh")])], args)?;
    match &args[0] {
        Value::Hash(h) => Ok(Value::array(h.keys().cloned().collect())),
        _ => Ok(Value::array(Vec::new())),
    }
}

pub(super) fn values(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    cx.dispatch(&[sig(&[("Hash", "hsh")])], args)?;
    match &args[0] {
        Value::Hash(h) => Ok(Value::array(h.values().cloned().collect())),
        _ => Ok(Value::array(Vec::new())),
    }
}

/// `dig`: walks into nested arrays and hashes; undef as soon as a step
/// finds nothing, an error when a step meets a non-collection.
pub(super) fn dig(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    cx.dispatch(
        &[sig(&[("Optional[Collection]", "data"), ("Any", "arg")]).rest(1)],
        args,
    )?;
    let mut walked: Vec<Value> = Vec::new();
    let mut d = args[0].clone();
    for k in &args[1..] {
        if d.is_undef() || k.is_undef() {
            return Ok(Value::Undef);
        }
        let path = |w: &[Value]| {
            let parts: Vec<String> = w.iter().map(ruby_inspect).collect();
            format!("[{}]", parts.join(", "))
        };
        match &d {
            Value::Hash(h) => {
                walked.push(k.clone());
                d = h.get(k).cloned().unwrap_or(Value::Undef);
            }
            Value::Array(a) => {
                walked.push(k.clone());
                let Value::Integer(i) = k else {
                    return cx.fail(format!(
                        "The given data requires an Integer index at {}, got '{}'",
                        path(&walked),
                        puppet_model::types::infer(k)
                    ));
                };
                let idx = if *i < 0 { *i + a.len() as i64 } else { *i };
                d = usize::try_from(idx)
                    .ok()
                    .and_then(|i| a.get(i).cloned())
                    .unwrap_or(Value::Undef);
            }
            other => {
                return cx.fail(format!(
                    "The given data does not contain a Collection at {}, got '{}'",
                    path(&walked),
                    puppet_model::types::infer(other)
                ))
            }
        }
    }
    Ok(d)
}
