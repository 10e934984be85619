//! puppetlabs-stdlib 8.5's Ruby functions that Debian's modules call
//! (`lib/puppet/parser/functions`, 3.x, unless noted), visible only while
//! `stdlib` is on the modulepath. Where Puppet has a built-in of the same
//! name (`join`, `size`, `flatten`, ...) the built-in wins, as in Puppet.

use super::create_resources::create_resources;
use super::numbers::ruby_to_i;
use super::ruby::{iterable, ruby_class, ruby_eq};
use super::ruby_format::args3;
use super::signatures::sig;
use super::strings::{ruby_capitalize, ruby_integer};
use super::Cx;
use crate::eval::expr::R;
use crate::eval::value::{Map, Value};
use puppet_model::ruby::{
    ruby_basename, ruby_dirname, ruby_inspect, ruby_json, ruby_to_s, shell_escape,
};

/// Undef, `''` and Ruby's `:undef`: what `pick` and friends skip.
fn is_blank(v: &Value) -> bool {
    matches!(v, Value::Undef) || v.as_str() == Some("")
}

pub(super) fn pick(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let args = args3(args);
    match args.iter().find(|v| !is_blank(v)) {
        Some(v) if !ruby_to_s(v).is_empty() => Ok(v.clone()),
        _ => cx.fail("pick(): must receive at least one non empty value"),
    }
}

pub(super) fn pick_default(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let args = args3(args);
    let Some((default, rest)) = args.split_last() else {
        return cx.fail("Must receive at least one argument.");
    };
    Ok(rest
        .iter()
        .find(|v| !is_blank(v))
        .unwrap_or(default)
        .clone())
}

pub(super) fn any2array(_cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let args = args3(args);
    if args.len() != 1 {
        return Ok(Value::array(args));
    }
    Ok(match &args[0] {
        Value::Array(_) => args[0].clone(),
        Value::String(s) if s.is_empty() => Value::array(Vec::new()),
        Value::Hash(h) => {
            Value::array(h.iter().flat_map(|(k, v)| [k.clone(), v.clone()]).collect())
        }
        _ => Value::array(args),
    })
}

pub(super) fn concat(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let args = args3(args);
    if args.len() < 2 {
        return cx.fail(format!(
            "concat(): Wrong number of arguments given ({} for < 2)",
            args.len()
        ));
    }
    let Value::Array(first) = &args[0] else {
        return cx.fail("concat(): Requires array to work with");
    };
    let mut out = first.to_vec();
    for a in &args[1..] {
        match a {
            Value::Array(items) => out.extend(items.iter().cloned()),
            other => out.push(other.clone()),
        }
    }
    Ok(Value::array(out))
}

/// `merge` (4.x): hashes merged left to right; undef and `''` skipped.
pub(super) fn merge(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let i = cx.dispatch(
        &[
            sig(&[("Variant[Hash[Scalar,Any], Undef, String[0,0]]", "args")]).rest(0),
            sig(&[("Iterable", "args")]).rest(0).block("Callable[3,3]"),
            sig(&[("Iterable", "args")]).rest(0).block("Callable[2,2]"),
        ],
        args,
    )?;
    if i > 0 {
        return merge_with_block(cx, args, i == 1);
    }
    let mut out = Map::default();
    for a in args {
        if let Value::Hash(h) = a {
            for (k, v) in h.iter() {
                out.insert(k.clone(), v.clone());
            }
        }
    }
    Ok(Value::hash(out))
}

/// `merge(iterable) |$memo, $value|` (or `|$memo, $key_or_index, $value|`):
/// the hashes the block returns merged into the accumulator.
fn merge_with_block(cx: &mut Cx<'_, '_>, args: &[Value], three: bool) -> R<Value> {
    let mut out = Map::default();
    // Ruby binds only the first of the repeated arguments to `iterable`.
    let Some((items, hash_style)) = args.first().and_then(iterable) else {
        return Ok(Value::hash(out));
    };
    for (n, e) in items.iter().enumerate() {
        let memo = Value::hash(out.clone());
        let call = if !three {
            vec![memo, e.clone()]
        } else if hash_style {
            let mut v = vec![memo];
            if let Value::Array(kv) = e {
                v.extend(kv.iter().cloned());
            }
            v
        } else {
            vec![memo, Value::Integer(n as i64), e.clone()]
        };
        if let Value::Hash(ref h) = cx.yield_(&call)? {
            for (k, v) in h.iter() {
                out.insert(k.clone(), v.clone());
            }
        }
    }
    Ok(Value::hash(out))
}

fn deep_merge_two(a: &Map, b: &Map) -> Map {
    let mut out = a.clone();
    for (k, v) in b.iter() {
        let merged = match (out.get(k), v) {
            (Some(Value::Hash(old)), Value::Hash(new)) => Value::hash(deep_merge_two(old, new)),
            _ => v.clone(),
        };
        out.insert(k.clone(), merged);
    }
    out
}

pub(super) fn deep_merge(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let args = args3(args);
    if args.len() < 2 {
        return cx.fail(format!(
            "deep_merge(): wrong number of arguments ({}; must be at least 2)",
            args.len()
        ));
    }
    let mut out = Map::default();
    for a in &args {
        match a {
            Value::String(s) if s.is_empty() => {}
            Value::Hash(h) => out = deep_merge_two(&out, h),
            other => {
                return cx.fail(format!(
                    "deep_merge: unexpected argument type {}, only expects hash arguments",
                    ruby_class(other)
                ))
            }
        }
    }
    Ok(Value::hash(out))
}

pub(super) fn str2bool(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let args = args3(args);
    let Some(v) = args.first() else {
        return cx.fail("str2bool(): Wrong number of arguments given (0 for 1)");
    };
    let s = match v {
        Value::Boolean(_) => return Ok(v.clone()),
        Value::String(s) => s.to_string(),
        _ => return cx.fail("str2bool(): Requires string to work with"),
    };
    let l = s.to_lowercase();
    Ok(Value::Boolean(match l.as_str() {
        "" => false,
        "1" | "t" | "y" | "true" | "yes" => true,
        "0" | "f" | "n" | "false" | "no" => false,
        _ if s == "undef" || s == "undefined" => false,
        _ => return cx.fail("str2bool(): Unknown type of boolean given"),
    }))
}

pub(super) fn member(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let args = args3(args);
    if args.len() < 2 {
        return cx.fail(format!(
            "member(): Wrong number of arguments given ({} for 2)",
            args.len()
        ));
    }
    let Value::Array(array) = &args[0] else {
        return cx.fail("member(): Requires array to work with");
    };
    let items = match &args[1] {
        Value::String(_) | Value::Integer(_) => vec![args[1].clone()],
        Value::Array(a) => a.to_vec(),
        _ => return cx.fail("member(): Item to search for must be a string, fixnum, or array"),
    };
    if items.is_empty() {
        return cx.fail("member(): You must provide item to search for within array given");
    }
    Ok(Value::Boolean(
        items.iter().all(|i| array.iter().any(|a| ruby_eq(a, i))),
    ))
}

pub(super) fn has_key(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    if args.len() != 2 {
        return cx.fail(format!(
            "has_key(): wrong number of arguments ({}; must be 2)",
            args.len()
        ));
    }
    // Only the hash's keys matter: when none is a version or a container
    // (which 3.x conversion could change), the hash is looked in as it is,
    // not converted whole (apache's module hashes, on every call).
    if let Value::Hash(h) = &args[0] {
        let plain = |k: &Value| {
            !matches!(
                k,
                Value::SemVer(_) | Value::SemVerRange(_) | Value::Array(_) | Value::Hash(_)
            )
        };
        if h.keys().all(plain) {
            let key = args3(&args[1..]);
            return Ok(Value::Boolean(
                key.first().is_some_and(|k| h.contains_key(k)),
            ));
        }
    }
    let args = args3(args);
    let Value::Hash(h) = &args[0] else {
        return cx.fail(format!(
            "has_key(): expects the first argument to be a hash, got {} which is of type {}",
            ruby_inspect(&args[0]),
            ruby_class(&args[0])
        ));
    };
    Ok(Value::Boolean(h.contains_key(&args[1])))
}

pub(super) fn delete_undef_values(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    if args.is_empty() {
        return cx.fail("delete_undef_values(): Wrong number of arguments given (0)");
    }
    // Only the top-level argument becomes `''`; undef inside stays nil.
    match &args[0] {
        Value::Hash(h) => Ok(Value::hash(
            h.iter()
                .filter(|(_, v)| !v.is_undef())
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
        )),
        Value::Array(a) => Ok(Value::array(
            a.iter().filter(|v| !v.is_undef()).cloned().collect(),
        )),
        other => {
            let other = args3(std::slice::from_ref(other)).remove(0);
            cx.fail(format!(
                "delete_undef_values(): expected an array or hash, got {} type  {} ",
                ruby_to_s(&other),
                ruby_class(&other)
            ))
        }
    }
}

/// `prefix`/`suffix`: each element (or key) as a string, with `affix`.
fn affix(cx: &mut Cx<'_, '_>, args: &[Value], before: bool) -> R<Value> {
    let name = if before { "prefix" } else { "suffix" };
    let args = args3(args);
    if args.is_empty() {
        return cx.fail(format!(
            "{name}(): Wrong number of arguments given (0 for 1)"
        ));
    }
    if !matches!(args[0], Value::Array(_) | Value::Hash(_)) {
        return cx.fail(format!(
            "{name}(): expected first argument to be an Array or a Hash, got {}",
            ruby_inspect(&args[0])
        ));
    }
    // `if arguments[1]`: '' is truthy in Ruby, so only a missing one is none.
    let fix = match args.get(1) {
        None => String::new(),
        Some(Value::String(s)) => s.to_string(),
        Some(Value::Boolean(false)) => String::new(),
        Some(other) => {
            return cx.fail(format!(
                "{name}(): expected second argument to be a String, got {}",
                ruby_inspect(other)
            ))
        }
    };
    let join = |s: String| {
        if before {
            format!("{fix}{s}")
        } else {
            format!("{s}{fix}")
        }
    };
    Ok(match &args[0] {
        Value::Array(a) => Value::array(
            a.iter()
                .map(|v| Value::string(join(ruby_to_s(v))))
                .collect(),
        ),
        Value::Hash(h) => Value::hash(
            h.iter()
                .map(|(k, v)| (Value::string(join(ruby_to_s(k))), v.clone()))
                .collect(),
        ),
        _ => Value::Undef,
    })
}

pub(super) fn prefix(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    affix(cx, args, true)
}

pub(super) fn suffix(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    affix(cx, args, false)
}

pub(super) fn join_keys_to_values(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let args = args3(args);
    if args.len() != 2 {
        return cx.fail(format!(
            "join_keys_to_values(): Takes exactly two arguments, but {} given.",
            args.len()
        ));
    }
    let Value::Hash(h) = &args[0] else {
        return cx.fail(format!(
            "join_keys_to_values(): The first argument must be a hash, but a {} was given.",
            ruby_class(&args[0])
        ));
    };
    let Value::String(sep) = &args[1] else {
        return cx.fail(format!(
            "join_keys_to_values(): The second argument must be a string, but a {} was given.",
            ruby_class(&args[1])
        ));
    };
    let mut out = Vec::new();
    for (k, v) in h.iter() {
        let k = ruby_to_s(k);
        match v {
            Value::Array(items) => {
                for i in items.iter() {
                    out.push(Value::string(format!("{k}{sep}{}", ruby_to_s(i))));
                }
            }
            v if ruby_to_s(v) == "undef" => out.push(Value::string(k)),
            v => out.push(Value::string(format!("{k}{sep}{}", ruby_to_s(v)))),
        }
    }
    Ok(Value::array(out))
}

pub(super) fn dirname(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let args = args3(args);
    match args.len() {
        0 => return cx.fail("dirname(): No arguments given"),
        1 => {}
        n => return cx.fail(format!("dirname(): Too many arguments given ({n})")),
    }
    let Value::String(s) = &args[0] else {
        return cx.fail("dirname(): Requires string as argument");
    };
    if s.is_empty() {
        return cx.fail("dirname(): Requires a non-empty string as argument");
    }
    Ok(Value::string(ruby_dirname(s)))
}

pub(super) fn basename(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let args = args3(args);
    if args.is_empty() {
        return cx.fail("basename(): No arguments given");
    }
    if args.len() > 2 {
        return cx.fail(format!(
            "basename(): Too many arguments given ({})",
            args.len()
        ));
    }
    let Value::String(s) = &args[0] else {
        return cx.fail("basename(): Requires string as first argument");
    };
    let suffix = match args.get(1) {
        None => None,
        Some(Value::String(x)) => Some(x.to_string()),
        Some(_) => return cx.fail("basename(): Requires string as second argument"),
    };
    Ok(Value::string(ruby_basename(s, suffix.as_deref())))
}

pub(super) fn zip(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let args = args3(args);
    if args.len() < 2 {
        return cx.fail(format!(
            "zip(): Wrong number of arguments given ({} for 2)",
            args.len()
        ));
    }
    let (Value::Array(a), Value::Array(b)) = (&args[0], &args[1]) else {
        return cx.fail("zip(): Requires array to work with");
    };
    let flat = match args.get(2) {
        None => false,
        Some(v) if v.as_str() == Some("") => false,
        Some(v) => str2bool(cx, std::slice::from_ref(v))?.is_truthy(),
    };
    let pairs: Vec<Value> = a
        .iter()
        .enumerate()
        .map(|(i, x)| Value::array(vec![x.clone(), b.get(i).cloned().unwrap_or(Value::Undef)]))
        .collect();
    if flat {
        fn walk(v: &Value, out: &mut Vec<Value>) {
            match v {
                Value::Array(items) => items.iter().for_each(|x| walk(x, out)),
                other => out.push(other.clone()),
            }
        }
        let mut out = Vec::new();
        pairs.iter().for_each(|p| walk(p, &mut out));
        return Ok(Value::array(out));
    }
    Ok(Value::array(pairs))
}

pub(super) fn count(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let args = args3(args);
    if args.len() > 2 {
        return cx.fail(format!(
            "count(): Wrong number of arguments given {} for 1 or 2.",
            args.len()
        ));
    }
    let items: Vec<Value> = match args.first() {
        Some(Value::Array(a)) => a.to_vec(),
        Some(Value::Hash(h)) => h
            .iter()
            .map(|(k, v)| Value::array(vec![k.clone(), v.clone()]))
            .collect(),
        Some(other) => {
            return cx.fail(format!(
                "undefined method `count' for {}",
                ruby_inspect(other)
            ))
        }
        None => return cx.fail("undefined method `count' for nil:NilClass"),
    };
    // `if item`: an empty string is truthy in Ruby.
    let n = match args.get(1) {
        Some(item) => items.iter().filter(|v| ruby_eq(v, item)).count(),
        None => items.iter().filter(|v| !is_blank(v)).count(),
    };
    Ok(Value::Integer(n as i64))
}

pub(super) fn bool2str(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let args = args3(args);
    if args.len() != 1 && args.len() != 3 {
        return cx.fail(format!(
            "bool2str(): Wrong number of arguments given ({} for 3)",
            args.len()
        ));
    }
    let Value::Boolean(b) = args[0] else {
        return cx.fail("bool2str(): Requires a boolean to work with");
    };
    let t = args.get(1).cloned().unwrap_or(Value::string("true"));
    let f = args.get(2).cloned().unwrap_or(Value::string("false"));
    if !matches!(t, Value::String(_)) || !matches!(f, Value::String(_)) {
        return cx.fail("bool2str(): Requires strings to convert to");
    }
    Ok(if b { t } else { f })
}

pub(super) fn delete_at(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let args = args3(args);
    if args.len() < 2 {
        return cx.fail(format!(
            "delete_at(): Wrong number of arguments given ({} for 2)",
            args.len()
        ));
    }
    let Value::Array(a) = &args[0] else {
        return cx.fail("delete_at(): Requires array to work with");
    };
    let index = match &args[1] {
        Value::String(s) if !s.is_empty() && s.chars().all(|c| c.is_ascii_digit()) => {
            s.parse::<i64>().unwrap_or(i64::MAX)
        }
        Value::String(_) => {
            return cx.fail("delete_at(): You must provide non-negative numeric index")
        }
        Value::Integer(i) => *i,
        Value::Float(f) => *f as i64,
        _ => 0,
    };
    if index > a.len() as i64 - 1 {
        return cx.fail("delete_at(): Given index exceeds size of array given");
    }
    let mut out = a.to_vec();
    let i = if index < 0 {
        index + a.len() as i64
    } else {
        index
    };
    if let Ok(i) = usize::try_from(i) {
        if i < out.len() {
            out.remove(i);
        }
    }
    Ok(Value::array(out))
}

pub(super) fn shell_join(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let args = args3(args);
    if args.len() != 1 {
        return cx.fail(format!(
            "shell_join(): Wrong number of arguments given ({} for 1)",
            args.len()
        ));
    }
    let Value::Array(a) = &args[0] else {
        return cx.fail(format!(
            "First argument is not an Array: {}",
            ruby_inspect(&args[0])
        ));
    };
    let parts: Vec<String> = a.iter().map(|v| shell_escape(&ruby_to_s(v))).collect();
    Ok(Value::string(parts.join(" ")))
}

pub(super) fn union(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let args = args3(args);
    if args.len() < 2 {
        return cx.fail(format!(
            "union(): Wrong number of arguments given ({} for < 2)",
            args.len()
        ));
    }
    let mut out: Vec<Value> = Vec::new();
    for a in &args {
        let Value::Array(items) = a else {
            return cx.fail("union(): Every parameter must be an array");
        };
        for i in items.iter() {
            if !out.contains(i) {
                out.push(i.clone());
            }
        }
    }
    Ok(Value::array(out))
}

pub(super) fn reject(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let args = args3(args);
    if args.len() != 2 {
        return cx.fail(format!(
            "reject(): Wrong number of arguments given {} for 2",
            args.len()
        ));
    }
    let pattern = match &args[1] {
        Value::String(p) | Value::Regexp(p) => p.to_string(),
        other => ruby_to_s(other),
    };
    let Value::Array(a) = &args[0] else {
        return cx.fail(format!(
            "undefined method `reject' for {}",
            ruby_inspect(&args[0])
        ));
    };
    let mut out = Vec::new();
    for e in a.iter() {
        let hit = match e {
            Value::String(s) => match crate::eval::typeops::regex_captures(&pattern, s) {
                Ok(m) => m.is_some(),
                Err(msg) => return cx.fail(msg),
            },
            _ => false,
        };
        if !hit {
            out.push(e.clone());
        }
    }
    Ok(Value::array(out))
}

pub(super) fn get_module_path(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let args = args3(args);
    if args.len() != 1 {
        return cx.fail("get_module_path(): Wrong number of arguments, expects one");
    }
    let name = ruby_to_s(&args[0]);
    match cx.c.env.module_dir(&name) {
        Some(d) => Ok(Value::string(d.display().to_string())),
        None => cx.fail(format!(
            "Could not find module {name} in environment {}",
            cx.c.env.name
        )),
    }
}

/// `assert_private`: the calling class or define must be in the same module.
pub(super) fn assert_private(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let args = args3(args);
    if args.len() > 1 {
        return cx.fail(format!(
            "assert_private(): Wrong number of arguments given ({}}}) for 0 or 1)",
            args.len()
        ));
    }
    let module = cx.c.scopes.lookup(cx.scope, "module_name");
    let caller = cx.c.scopes.lookup(cx.scope, "caller_module_name");
    let text = |v: Option<&Value>| v.map(ruby_to_s).unwrap_or_default();
    if text(module) == text(caller) {
        return Ok(Value::Undef);
    }
    if let Some(Value::String(m)) = args.first() {
        return cx.fail(m.to_string());
    }
    let (kind, name) = match cx.c.scopes.resource_of(cx.scope) {
        Some(id) => {
            let r = &cx.c.catalog[id];
            if &*r.type_name == "Class" {
                ("Class", r.title.to_lowercase())
            } else {
                ("Definition", r.type_name.to_lowercase())
            }
        }
        None => ("Class", String::new()),
    };
    cx.fail(format!("{kind} {name} is private"))
}

/// `ensure_resource(type, title(s), params)`: declares each title unless a
/// resource of that type and title exists with these parameters.
pub(super) fn ensure_resource(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let args = args3(args);
    let ty = match args.first() {
        Some(v) if !is_blank(v) || v.as_str() == Some("") => ruby_to_s(v),
        _ => return cx.fail("Must specify a type"),
    };
    let Some(title) = args.get(1) else {
        return cx.fail("Must specify a title");
    };
    let params = match args.get(2) {
        Some(Value::Hash(h)) => (**h).clone(),
        _ => Map::default(),
    };
    let titles: Vec<Value> = match title {
        Value::Array(items) => items.to_vec(),
        other => vec![other.clone()],
    };
    for item in titles {
        let title = ruby_to_s(&item);
        if defined_with_params(cx, &ty, &title, &params) {
            continue;
        }
        let mut inst = Map::default();
        // The title goes on as given: a non-string title changes the
        // resource (see create_resources).
        inst.insert(item.clone(), Value::hash(params.clone()));
        create_resources(
            cx,
            &[Value::string(ruby_capitalize(&ty)), Value::hash(inst)],
        )?;
    }
    Ok(Value::Undef)
}

/// stdlib's `defined_with_params`: a resource `type[title]` (not the one
/// calling) whose parameters equal `params` (undef equal to absent).
fn defined_with_params(cx: &Cx<'_, '_>, ty: &str, title: &str, params: &Map) -> bool {
    let type_name = puppet_model::names::capitalize_name(ty);
    let Some(id) = cx.c.catalog.find_resource(&type_name, title) else {
        return false;
    };
    if cx.c.scopes.resource_of(cx.scope) == Some(id) {
        return false;
    }
    let res = &cx.c.catalog[id];
    params.iter().all(|(k, v)| {
        let have = res.params.get(ruby_to_s(k).as_str());
        match have {
            None | Some(Value::Undef) => v.is_undef(),
            Some(h) => h == v,
        }
    })
}

pub(super) fn ensure_resources(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let args = args3(args);
    let Some(ty) = args.first().cloned() else {
        return cx.fail("Must specify a type");
    };
    let Some(title) = args.get(1) else {
        return cx.fail("Must specify a title");
    };
    let defaults = match args.get(2) {
        Some(Value::Hash(h)) => (**h).clone(),
        _ => Map::default(),
    };
    let Value::Hash(h) = title else {
        return cx.fail("ensure_resources(): Requires second argument to be a Hash");
    };
    for (name, params) in h.iter() {
        let mut merged = defaults.clone();
        if let Value::Hash(p) = params {
            for (k, v) in p.iter() {
                merged.insert(k.clone(), v.clone());
            }
        }
        ensure_resource(cx, &[ty.clone(), name.clone(), Value::hash(merged)])?;
    }
    Ok(Value::Undef)
}

/// `ensure_packages` (4.x): packages with `ensure => installed` by default.
pub(super) fn ensure_packages(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    cx.dispatch(
        &[sig(&[
            (
                "Variant[String[1], Array[String[1]], Hash[String[1], Any]]",
                "packages",
            ),
            ("Hash", "default_attributes"),
        ])
        .opt(1)],
        args,
    )?;
    let mut defaults = Map::default();
    defaults.insert(Value::string("ensure"), Value::string("installed"));
    if let Some(Value::Hash(d)) = args.get(1) {
        for (k, v) in d.iter() {
            defaults.insert(k.clone(), v.clone());
        }
        if defaults.get(&Value::string("ensure")) == Some(&Value::string("present")) {
            defaults.insert(Value::string("ensure"), Value::string("installed"));
        }
    }
    let package = Value::string("package");
    match &args[0] {
        Value::Hash(_) => {
            ensure_resources(cx, &[package, args[0].clone(), Value::hash(defaults)])?;
        }
        Value::Array(items) => {
            for p in items.iter() {
                ensure_resource(
                    cx,
                    &[package.clone(), p.clone(), Value::hash(defaults.clone())],
                )?;
            }
        }
        other => {
            ensure_resource(cx, &[package, other.clone(), Value::hash(defaults)])?;
        }
    }
    Ok(Value::Undef)
}

/// `fact` (4.x): a fact by dotted path (`os.release.major`), undef when
/// absent.
pub(super) fn fact(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    cx.dispatch(&[sig(&[("String", "fact_name")])], args)?;
    let name = args[0].as_str().unwrap_or_default().to_string();
    let mut d =
        cx.c.scopes
            .lookup(cx.c.scopes.top(), "facts")
            .cloned()
            .unwrap_or(Value::Undef);
    // `([^."]+)|"([^"]+)"`: plain segments, or quoted ones holding dots.
    let mut keys = Vec::new();
    let mut rest = name.as_str();
    while !rest.is_empty() {
        if let Some(q) = rest.strip_prefix('"') {
            if let Some(end) = q.find('"') {
                if end > 0 {
                    keys.push(q[..end].to_string());
                }
                rest = &q[end + 1..];
                continue;
            }
            rest = q;
            continue;
        }
        let end = rest.find(['.', '"']).unwrap_or(rest.len());
        if end > 0 {
            keys.push(rest[..end].to_string());
        }
        rest = &rest[end..];
        if let Some(r) = rest.strip_prefix('.') {
            rest = r;
        }
    }
    for k in keys {
        d = match &d {
            Value::Undef => return Ok(Value::Undef),
            Value::Hash(h) => h
                .get(&Value::string(k.as_str()))
                .cloned()
                .unwrap_or(Value::Undef),
            Value::Array(a) => match ruby_integer(&k, None) {
                Some(i) => {
                    let i = if i < 0 { i + a.len() as i64 } else { i };
                    usize::try_from(i)
                        .ok()
                        .and_then(|i| a.get(i).cloned())
                        .unwrap_or(Value::Undef)
                }
                None => Value::Undef,
            },
            _ => Value::Undef,
        };
    }
    Ok(d)
}

pub(super) fn hash(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let args = args3(args);
    let Some(first) = args.first() else {
        return cx.fail("hash(): Wrong number of arguments given (0 for 1)");
    };
    let Value::Array(a) = first else {
        return cx.fail("hash(): Requires array to work with");
    };
    fn walk(v: &Value, out: &mut Vec<Value>) {
        match v {
            Value::Array(items) => items.iter().for_each(|x| walk(x, out)),
            other => out.push(other.clone()),
        }
    }
    let mut flat = Vec::new();
    a.iter().for_each(|x| walk(x, &mut flat));
    if flat.len() % 2 != 0 {
        return cx.fail("hash(): Unable to compute hash from array given");
    }
    let mut out = Map::default();
    for pair in flat.chunks(2) {
        out.insert(pair[0].clone(), pair[1].clone());
    }
    Ok(Value::hash(out))
}

pub(super) fn delete(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let args = args3(args);
    if args.len() != 2 {
        return cx.fail(format!(
            "delete(): Wrong number of arguments given {} for 2",
            args.len()
        ));
    }
    // Ruby's `Array(x)`: an array as it is, a hash as its pairs, nil empty.
    let items: Vec<Value> = match &args[1] {
        Value::Array(a) => a.to_vec(),
        Value::Hash(h) => h
            .iter()
            .map(|(k, v)| Value::array(vec![k.clone(), v.clone()]))
            .collect(),
        other => vec![other.clone()],
    };
    let mut collection = args[0].clone();
    for item in &items {
        collection = match &collection {
            Value::Array(a) => Value::array(a.iter().filter(|v| !ruby_eq(v, item)).cloned().collect()),
            Value::Hash(h) => Value::hash(
                h.iter()
                    .filter(|(k, _)| !ruby_eq(k, item))
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect(),
            ),
            Value::String(s) => match item {
                Value::String(x) if !x.is_empty() => Value::string(s.replace(&**x, "")),
                Value::String(_) => collection.clone(),
                other => {
                    return cx.fail(format!(
                        "no implicit conversion of {} into String",
                        ruby_class(other)
                    ))
                }
            },
            other => {
                return cx.fail(format!(
                    "delete(): First argument must be an Array, String, or Hash. Given an argument of class {}.",
                    ruby_class(other)
                ))
            }
        };
    }
    Ok(collection)
}

pub(super) fn bool2num(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let args = args3(args);
    if args.is_empty() {
        return cx.fail("bool2num(): Wrong number of arguments given (0 for 1)");
    }
    let b = str2bool(cx, &args[..1])?;
    Ok(Value::Integer(i64::from(b.is_truthy())))
}

pub(super) fn grep(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let args = args3(args);
    if args.len() != 2 {
        return cx.fail(format!(
            "grep(): Wrong number of arguments given {} for 2",
            args.len()
        ));
    }
    let pattern = match &args[1] {
        Value::String(p) | Value::Regexp(p) => p.to_string(),
        other => ruby_to_s(other),
    };
    let Value::Array(a) = &args[0] else {
        return cx.fail(format!(
            "undefined method `grep' for {}",
            ruby_inspect(&args[0])
        ));
    };
    let mut out = Vec::new();
    for e in a.iter() {
        // `Regexp === e`: only strings (and symbols) can match.
        if let Value::String(s) = e {
            match crate::eval::typeops::regex_captures(&pattern, s) {
                Ok(Some(_)) => out.push(e.clone()),
                Ok(None) => {}
                Err(msg) => return cx.fail(msg),
            }
        }
    }
    Ok(Value::array(out))
}

/// `to_json` (4.x).
pub(super) fn to_json(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    cx.dispatch(&[sig(&[("Any", "data")])], args)?;
    if let Some(e) = puppet_model::ruby::json_nesting_error(&args[0]) {
        return cx.fail(e);
    }
    if let Some(e) = puppet_model::ruby::json_utf8_error(&args[0], cx.c.node.puppet.ruby()) {
        return cx.fail(e);
    }
    Ok(Value::string(ruby_json(&args[0])))
}

pub(super) fn values_at(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let args = args3(args);
    if args.len() < 2 {
        return cx.fail(format!(
            "values_at(): Wrong number of arguments given ({} for 2)",
            args.len()
        ));
    }
    let Value::Array(a) = &args[0] else {
        return cx.fail("values_at(): Requires array to work with");
    };
    let indices: Vec<Value> = match &args[1] {
        Value::Array(i) => i.to_vec(),
        other => vec![other.clone()],
    };
    if indices.is_empty() {
        return cx.fail("values_at(): You must provide at least one positive index to collect");
    }
    let size = a.len() as i64;
    let mut list: Vec<i64> = Vec::new();
    for i in &indices {
        let s = ruby_to_s(i);
        let digits = |x: &str| !x.is_empty() && x.chars().all(|c| c.is_ascii_digit());
        let range = ["...", "..", "-"].iter().find_map(|sep| {
            let (a, b) = s.split_once(sep)?;
            (digits(a) && digits(b)).then(|| (ruby_to_i(a), ruby_to_i(b), *sep == "..."))
        });
        if let Some((start, stop, exclusive)) = range {
            if start > stop {
                return cx.fail("values_at(): Stop index in given indices range is smaller than the start index");
            }
            if stop > size - 1 {
                return cx
                    .fail("values_at(): Stop index in given indices range exceeds array size");
            }
            let end = if exclusive { stop } else { stop + 1 };
            list.extend(start..end);
        } else {
            if !digits(&s) {
                return cx.fail("values_at(): Unknown format of given index");
            }
            let n = ruby_to_i(&s);
            if n > size - 1 {
                return cx.fail("values_at(): Given index exceeds array size");
            }
            list.push(n);
        }
    }
    Ok(Value::array(
        list.iter()
            .filter_map(|i| usize::try_from(*i).ok().and_then(|i| a.get(i)))
            .filter(|v| !v.is_undef())
            .cloned()
            .collect(),
    ))
}

/// Ruby's `IPAddr.new(s).to_s` for an IPv6 address (masked by its
/// prefix), `Ok(None)` for a valid IPv4 one, `Err` for neither.
fn ipv6_text(s: &str) -> Result<Option<String>, ()> {
    let (addr, prefix) = match s.split_once('/') {
        Some((a, p)) => (a, Some(p)),
        None => (s, None),
    };
    if let Ok(v6) = addr.parse::<std::net::Ipv6Addr>() {
        let bits = match prefix {
            None => 128,
            Some(p) => p.parse::<u32>().ok().filter(|b| *b <= 128).ok_or(())?,
        };
        let mask = if bits == 0 {
            0
        } else {
            u128::MAX << (128 - bits)
        };
        let masked = std::net::Ipv6Addr::from(u128::from(v6) & mask);
        return Ok(Some(masked.to_string()));
    }
    if addr.parse::<std::net::Ipv4Addr>().is_ok() {
        let ok = match prefix {
            None => true,
            Some(p) => {
                p.parse::<u32>().is_ok_and(|b| b <= 32) || p.parse::<std::net::Ipv4Addr>().is_ok()
            }
        };
        return if ok { Ok(None) } else { Err(()) };
    }
    Err(())
}

pub(super) fn enclose_ipv6(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let args = args3(args);
    if args.len() != 1 {
        return cx.fail(format!(
            "enclose_ipv6(): Wrong number of arguments given {} for 1",
            args.len()
        ));
    }
    let input: Vec<Value> = match &args[0] {
        Value::String(_) => vec![args[0].clone()],
        Value::Array(a) => {
            fn walk(v: &Value, out: &mut Vec<Value>) {
                match v {
                    Value::Array(items) => items.iter().for_each(|x| walk(x, out)),
                    Value::Undef => {}
                    other => out.push(other.clone()),
                }
            }
            let mut out = Vec::new();
            a.iter().for_each(|x| walk(x, &mut out));
            out
        }
        other => {
            return cx.fail(format!(
                "enclose_ipv6(): Wrong argument type given {} expected String or Array",
                ruby_class(other)
            ))
        }
    };
    let mut out: Vec<Value> = Vec::new();
    for v in input {
        let s = ruby_to_s(&v);
        let val = if s == "*" {
            v
        } else {
            match ipv6_text(&s) {
                Ok(Some(t)) => Value::string(format!("[{t}]")),
                Ok(None) => v,
                Err(()) => {
                    return cx.fail(format!(
                        "enclose_ipv6(): Wrong argument given {s} is not an ip address."
                    ))
                }
            }
        };
        if !out.contains(&val) {
            out.push(val);
        }
    }
    Ok(Value::array(out))
}
