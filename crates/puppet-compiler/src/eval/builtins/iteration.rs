//! Iteration with blocks: any, all, index, slice, step, reverse_each, group_by, partition.

use super::ruby::{iterable, ruby_eq};
use super::signatures::{describe_signatures, sig, Sig};
use super::{lambda_ruby_arity, Cx};
use crate::eval::expr::R;
use crate::eval::value::Value;
use puppet_syntax::ast::Lambda;

/// The block's answers as Puppet's `each_with_index`/`each_pair` styles give
/// them: `[key, value]`/`[index, value]` for a two-parameter block.
pub(super) fn block_args(elem: &Value, index: usize, two: bool, hash_style: bool) -> Vec<Value> {
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

pub(super) const PREDICATE_SIGS: [Sig; 4] = [
    sig(&[("Hash[Any, Any]", "hash")]).block("Callable[2,2]"),
    sig(&[("Hash[Any, Any]", "hash")]).block("Callable[1,1]"),
    sig(&[("Iterable", "enumerable")]).block("Callable[2,2]"),
    sig(&[("Iterable", "enumerable")]).block("Callable[1,1]"),
];

pub(super) fn any(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
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

pub(super) fn all(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
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

pub(super) fn index(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
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
            Value::Regexp(src) => match puppet_model::types::regex::compile(src) {
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

pub(super) fn slice(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
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
                let names: Vec<&str> = l.params.iter().map(|p| &*p.name).collect();
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

pub(super) fn step(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
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

pub(super) fn reverse_each(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
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

pub(super) fn group_by(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
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

pub(super) fn partition(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
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

const EACH_SIGS: [Sig; 4] = PREDICATE_SIGS;
const REDUCE_SIGS: [Sig; 2] = [
    sig(&[("Iterable", "enumerable")]).block("Callable[2,2]"),
    sig(&[("Iterable", "enumerable"), ("Any", "memo")]).block("Callable[2,2]"),
];
const WITH_SIGS: [Sig; 1] = [sig(&[("Any", "arg")]).rest(0).block("Callable")];
const ASSERT_TYPE_SIGS: [Sig; 2] = [
    sig(&[("Type", "type"), ("Any", "value")]).opt_block("Callable[Type, Type]"),
    sig(&[("String", "type_string"), ("Any", "value")]).opt_block("Callable[Type, Type]"),
];

/// The dispatch of the iteration functions the evaluator runs itself
/// (`each`, `map`, `filter`, `reduce`, `with`, and `assert_type`): the index of the first of
/// Puppet's signatures that takes the call, or the text of
/// `describe_signatures` when none does.
pub(crate) fn evaluator_dispatch(
    name: &str,
    args: &[Value],
    lambda: Option<&Lambda>,
) -> Result<usize, String> {
    let sigs: &[Sig] = match name {
        "reduce" => &REDUCE_SIGS,
        "with" => &WITH_SIGS,
        "assert_type" => &ASSERT_TYPE_SIGS,
        _ => &EACH_SIGS,
    };
    match sigs.iter().position(|s| s.accepts(args, lambda)) {
        Some(i) => Ok(i),
        None => Err(describe_signatures(name, sigs, args, lambda)),
    }
}
