//! `tree_each`: Puppet's depth-first and breadth-first tree iterators over
//! nested arrays and hashes (`Iterable::DepthFirstTreeIterator`...), each
//! element with its path (`[key_or_index, ...]`).

use super::signatures::sig;
use super::Cx;
use crate::eval::expr::R;
use crate::eval::value::{Map, Value};
use puppet_model::types::text::ty;
use puppet_model::types::PType;

struct TreeOptions {
    containers: PType,
    with_root: bool,
    with_containers: bool,
    with_values: bool,
    depth_first: bool,
}

fn option(opts: &Map, key: &str, default: bool) -> bool {
    match opts.get(&Value::string(key)) {
        None | Some(Value::Undef) => default,
        Some(v) => v.is_truthy(),
    }
}

/// The children of a container (one of the container types), with keys.
fn children(o: &TreeOptions, v: &Value) -> Option<Vec<(Value, Value)>> {
    if !puppet_model::types::is_instance(&o.containers, v) {
        return None;
    }
    match v {
        Value::Array(items) => Some(
            items
                .iter()
                .enumerate()
                .map(|(i, x)| (Value::Integer(i as i64), x.clone()))
                .collect(),
        ),
        Value::Hash(h) => Some(h.iter().map(|(k, x)| (k.clone(), x.clone())).collect()),
        _ => None,
    }
}

fn path_value(path: &[Value], v: &Value) -> (Value, Value) {
    (Value::array(path.to_vec()), v.clone())
}

fn depth_first(o: &TreeOptions, path: &mut Vec<Value>, v: &Value, out: &mut Vec<(Value, Value)>) {
    let Some(kids) = children(o, v) else {
        return;
    };
    for (k, child) in kids {
        path.push(k);
        if children(o, &child).is_some() {
            if o.with_containers {
                out.push(path_value(path, &child));
            }
            depth_first(o, path, &child, out);
        } else if o.with_values {
            out.push(path_value(path, &child));
        }
        path.pop();
    }
}

/// Puppet's breadth-first iterator includes values even with
/// `include_values => false` (it never checks the option).
fn breadth_first(o: &TreeOptions, root: &Value, out: &mut Vec<(Value, Value)>) {
    let mut queue = std::collections::VecDeque::new();
    queue.push_back((Vec::new(), root.clone()));
    while let Some((path, v)) = queue.pop_front() {
        let Some(kids) = children(o, &v) else {
            continue;
        };
        for (k, child) in kids {
            let mut p = path.clone();
            p.push(k);
            if children(o, &child).is_some() {
                queue.push_back((p.clone(), child.clone()));
                if !o.with_containers {
                    continue;
                }
            }
            out.push(path_value(&p, &child));
        }
    }
}

pub(super) fn tree_each(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    const TREE: (&str, &str) = ("Variant[Iterator, Array, Hash, Object]", "tree");
    const OPTS: (&str, &str) = ("OptionsType", "options");
    let i = cx.dispatch(
        &[
            sig(&[TREE, OPTS]).opt(1).block("Callable[2,2]"),
            sig(&[TREE, OPTS]).opt(1).block("Callable[1,1]"),
            sig(&[TREE, OPTS]).opt(1),
        ],
        args,
    )?;
    let opts = match args.get(1) {
        Some(Value::Hash(h)) => (**h).clone(),
        _ => Map::default(),
    };
    let default_containers = ty("Variant[Array, Hash, Object]");
    let containers = match opts.get(&Value::string("container_type")) {
        Some(Value::Type(t)) => (**t).clone(),
        _ => default_containers.clone(),
    };
    if !puppet_model::types::is_assignable(&default_containers, &containers) {
        return cx.fail(format!(
            "Only Array, Hash, and Object types can be used as container types. Got {containers}"
        ));
    }
    let with_containers = option(&opts, "include_containers", true);
    let o = TreeOptions {
        with_root: with_containers && option(&opts, "include_root", true),
        with_containers,
        with_values: option(&opts, "include_values", true),
        depth_first: opts
            .get(&Value::string("order"))
            .and_then(|v| v.as_str())
            .is_none_or(|s| s == "depth_first"),
        containers,
    };
    if !o.with_containers && !o.with_values {
        return cx.fail("Options 'include_containers' and 'include_values' cannot both be false");
    }
    let root = &args[0];
    let mut out = Vec::new();
    if o.with_root {
        out.push(path_value(&[], root));
    }
    if o.depth_first {
        depth_first(&o, &mut Vec::new(), root, &mut out);
    } else {
        breadth_first(&o, root, &mut out);
    }
    if i == 2 {
        // No block: the iterator, as an array of [path, value].
        return Ok(Value::array(
            out.into_iter()
                .map(|(p, v)| Value::array(vec![p, v]))
                .collect(),
        ));
    }
    for (p, v) in out {
        let call = if i == 0 { vec![p, v] } else { vec![v] };
        if !cx.yield_or_stop(&call)? {
            break;
        }
    }
    Ok(root.clone())
}
