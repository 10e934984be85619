//! The methods of Ruby's core classes that templates call, with Ruby's
//! results (and Ruby's `NoMethodError` text for the rest).

use std::cmp::Ordering;
use std::sync::Arc;

use super::interp::{
    check_range, hash_set, is_a, over_limit, range_items, Flow, Interp, MAX_ITEMS, MAX_STEPS,
    MAX_STRING_BYTES,
};
use super::parser::Block;
use super::value::{Enumerator, RValue};
use puppet_model::ruby::{Receiver, RubyVersion};

type R<T> = Result<T, Flow>;

fn int_arg(cx: &Interp<'_>, args: &[RValue], i: usize) -> R<Option<i64>> {
    match args.get(i) {
        None => Ok(None),
        Some(RValue::Int(n)) => Ok(Some(*n)),
        Some(RValue::Float(f)) => Ok(Some(*f as i64)),
        Some(o) => Err(Flow::Error(
            format!("no implicit conversion of {} into Integer", class_desc(o)),
            cx_line(cx),
        )),
    }
}

fn cx_line(cx: &Interp<'_>) -> usize {
    cx.fail_line()
}

pub(super) fn class_desc(v: &RValue) -> String {
    match v {
        RValue::Nil => "nil".into(),
        RValue::Bool(b) => b.to_string(),
        o => o.class_name().into(),
    }
}

fn need_block<'b>(cx: &Interp<'_>, block: Option<&'b Block>, name: &str) -> R<&'b Block> {
    block.ok_or_else(|| {
        Flow::Error(
            format!("pverify's ERB needs a block for `{name}' (enumerators are not supported)"),
            cx_line(cx),
        )
    })
}

fn str_arg(cx: &Interp<'_>, args: &[RValue], i: usize) -> R<String> {
    match args.get(i) {
        Some(RValue::Str(s)) => Ok(s.to_string()),
        Some(o) => Err(Flow::Error(
            format!("no implicit conversion of {} into String", class_desc(o)),
            cx_line(cx),
        )),
        None => Err(Flow::Error(
            "wrong number of arguments (given 0, expected 1)".into(),
            cx_line(cx),
        )),
    }
}

/// The elements an Enumerable method walks: an array's items, a hash's
/// `[key, value]` pairs, a range's integers.
fn elements(v: &RValue) -> Option<Vec<RValue>> {
    match v {
        RValue::Array(a) => Some(a.to_vec()),
        RValue::Hash(h) => Some(
            h.iter()
                .map(|(k, v)| RValue::array(vec![k.clone(), v.clone()]))
                .collect(),
        ),
        RValue::Range(a, b, x) => Some(range_items(*a, *b, *x)),
        _ => None,
    }
}

fn sort_values(cx: &Interp<'_>, items: &mut [RValue]) -> R<()> {
    // Ruby compares neighbours first: its message names them in order.
    let mut bad = items
        .windows(2)
        .find(|w| w[0].cmp(&w[1]).is_none())
        .map(|w| cmp_error(&w[0], &w[1]));
    if let Some(e) = bad.take() {
        return Err(Flow::Error(e, cx_line(cx)));
    }
    items.sort_by(|a, b| match a.cmp(b) {
        Some(o) => o,
        None => {
            if bad.is_none() {
                bad = Some(cmp_error(a, b));
            }
            Ordering::Equal
        }
    });
    match bad {
        Some(e) => Err(Flow::Error(e, cx_line(cx))),
        None => Ok(()),
    }
}

/// `flatten`'s elements, counted by the budget at each array flattened
/// (shared data flattens once per path, as Ruby's does).
fn flatten_into(items: &[RValue], depth: i64, out: &mut Vec<RValue>) {
    for i in items {
        match i {
            RValue::Array(a) if depth != 0 => {
                if i.walk_stops() {
                    return;
                }
                super::value::deep(|| flatten_into(a, depth - 1, out))
            }
            o => out.push(o.clone()),
        }
    }
}

fn num(v: &RValue) -> Option<f64> {
    match v {
        RValue::Int(i) => Some(*i as f64),
        RValue::Big(b) => Some(super::bigint::to_f64(b)),
        RValue::Float(f) => Some(*f),
        _ => None,
    }
}

fn str_to_f(s: &str) -> f64 {
    let t = s.trim_start();
    let mut end = 0;
    let b = t.as_bytes();
    let mut seen_dot = false;
    let mut seen_e = false;
    while end < b.len() {
        let c = b[end];
        if c.is_ascii_digit() || c == b'_' || (end == 0 && (c == b'-' || c == b'+')) {
        } else if c == b'.'
            && !seen_dot
            && !seen_e
            && b.get(end + 1).is_some_and(|d| d.is_ascii_digit())
        {
            seen_dot = true;
        } else if (c == b'e' || c == b'E') && !seen_e && end > 0 {
            seen_e = true;
            if matches!(b.get(end + 1), Some(b'-') | Some(b'+')) {
                end += 1;
            }
        } else {
            break;
        }
        end += 1;
    }
    let txt: String = t[..end].chars().filter(|c| *c != '_').collect();
    let mut txt = txt.trim_end_matches(['e', 'E', '+', '-']).to_string();
    if txt.is_empty() || txt == "-" || txt == "+" {
        txt = "0".into();
    }
    txt.parse().unwrap_or(0.0)
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + &c.as_str().to_lowercase(),
        None => String::new(),
    }
}

/// Ruby's `String#split`: by a string (`' '` splits on runs of blanks and
/// drops leading ones) or a regex; trailing empty fields dropped.
fn split(cx: &mut Interp<'_>, s: &str, sep: Option<&RValue>, limit: Option<i64>) -> R<Vec<RValue>> {
    let mut parts: Vec<String> = match sep {
        None | Some(RValue::Nil) => s.split_whitespace().map(String::from).collect(),
        Some(RValue::Str(p)) if &p[..] == " " => s.split_whitespace().map(String::from).collect(),
        Some(RValue::Str(p)) if p.is_empty() => s.chars().map(String::from).collect(),
        Some(RValue::Str(p)) => match limit {
            Some(n) if n > 0 => s.splitn(n as usize, &p[..]).map(String::from).collect(),
            _ => s.split(&p[..]).map(String::from).collect(),
        },
        Some(RValue::Regex(re)) => {
            let compiled = puppet_model::types::regex::compile_ruby(re)
                .map_err(|e| Flow::Error(e, cx_line(cx)))?;
            let mut out = Vec::new();
            let mut last = 0;
            for m in compiled.find_iter(s) {
                let m = m.map_err(|e| Flow::Error(e.to_string(), cx_line(cx)))?;
                if m.start() == m.end() && (m.start() == 0 || m.start() >= s.len()) {
                    continue;
                }
                if m.end() == 0 {
                    continue;
                }
                out.push(s[last..m.start()].to_string());
                last = m.end();
            }
            out.push(s[last..].to_string());
            if out.first().is_some_and(|f| f.is_empty()) && s.is_empty() {
                out.clear();
            }
            out
        }
        Some(o) => {
            return Err(Flow::Error(
                format!("wrong argument type {} (expected Regexp)", o.class_name()),
                cx_line(cx),
            ))
        }
    };
    if limit.is_none_or(|n| n == 0) {
        while parts.last().is_some_and(|p| p.is_empty()) {
            parts.pop();
        }
    }
    Ok(parts.into_iter().map(RValue::str).collect())
}

/// The regex a `sub`/`gsub`/`match` pattern means (a string matches itself).
fn pattern(p: &RValue) -> Option<String> {
    match p {
        RValue::Regex(r) => Some(r.clone()),
        RValue::Str(s) => Some(regex_escape(s)),
        _ => None,
    }
}

fn regex_escape(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if "\\^$.|?*+()[]{}-/".contains(c) {
            out.push('\\');
        }
        match c {
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            ' ' => out.push(' '),
            o => out.push(o),
        }
    }
    out
}

/// Ruby's replacement string: `\1`, `\0`, `\&`, `\\`.
fn expand_replacement(rep: &str, s: &str, groups: &[Option<(usize, usize)>]) -> String {
    let mut out = String::new();
    let mut it = rep.chars().peekable();
    while let Some(c) = it.next() {
        if c == '\\' {
            match it.peek().copied() {
                Some(d) if d.is_ascii_digit() => {
                    it.next();
                    let i = d.to_digit(10).unwrap_or(0) as usize;
                    if let Some(Some((a, b))) = groups.get(i) {
                        out.push_str(&s[*a..*b]);
                    }
                }
                Some('&') => {
                    it.next();
                    if let Some(Some((a, b))) = groups.first() {
                        out.push_str(&s[*a..*b]);
                    }
                }
                Some('\\') => {
                    it.next();
                    out.push('\\');
                }
                _ => out.push('\\'),
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn substitute(
    cx: &mut Interp<'_>,
    s: &str,
    args: &[RValue],
    block: Option<&Block>,
    global: bool,
) -> R<String> {
    let Some(re) = args.first().and_then(pattern) else {
        return cx.fail_at(format!(
            "wrong argument type {} (expected Regexp)",
            args.first().map(|a| a.class_name()).unwrap_or("nil")
        ));
    };
    let compiled =
        puppet_model::types::regex::compile_ruby(&re).map_err(|e| Flow::Error(e, cx_line(cx)))?;
    let mut out = String::new();
    let mut last = 0;
    let mut pos = 0;
    while pos <= s.len() {
        let caps = match compiled.captures_from_pos(s, pos) {
            Ok(Some(c)) => c,
            Ok(None) => break,
            Err(e) => return cx.fail_at(e.to_string()),
        };
        let groups: Vec<Option<(usize, usize)>> = (0..caps.len())
            .map(|i| caps.get(i).map(|m| (m.start(), m.end())))
            .collect();
        let Some(Some((a, b))) = groups.first().copied() else {
            break;
        };
        out.push_str(&s[last..a]);
        let rep = match (args.get(1), block) {
            (Some(RValue::Str(r)), _) => expand_replacement(r, s, &groups),
            (Some(RValue::Hash(h)), _) => RValue::hash_get(h, &RValue::str(s[a..b].to_string()))
                .map(|v| v.to_s())
                .unwrap_or_default(),
            (None, Some(bl)) => {
                let v = cx.yield_(bl, vec![RValue::str(s[a..b].to_string())])?;
                cx.to_s(&v)?
            }
            (Some(o), _) => {
                return cx.fail_at(format!(
                    "no implicit conversion of {} into String",
                    class_desc(o)
                ))
            }
            (None, None) => return cx.fail_at("wrong number of arguments (given 1, expected 2)"),
        };
        out.push_str(&rep);
        last = b;
        if !global {
            break;
        }
        pos = if b == a {
            // Step over one character after an empty match.
            match s[b..].chars().next() {
                Some(c) => {
                    out.push(c);
                    last = b + c.len_utf8();
                    b + c.len_utf8()
                }
                None => break,
            }
        } else {
            b
        };
    }
    if last <= s.len() {
        out.push_str(&s[last..]);
    }
    Ok(out)
}

pub fn call_method(
    cx: &mut Interp<'_>,
    mut recv: RValue,
    name: &str,
    args: Vec<RValue>,
    block: Option<&Block>,
) -> R<RValue> {
    // Methods every object has.
    match name {
        "nil?" => return Ok(RValue::Bool(matches!(recv, RValue::Nil))),
        // A String's `to_s` is itself: no copy of the shared text.
        "to_s" if matches!(recv, RValue::Str(_)) => return Ok(recv),
        "to_s" if !matches!(recv, RValue::Int(_) | RValue::Big(_)) || args.is_empty() => {
            return Ok(RValue::str(cx.to_s(&recv)?))
        }
        "inspect" => return Ok(RValue::str(recv.inspect())),
        // `require 'json'` is in effect under Puppet: JSON.generate's text.
        "to_json" if args.is_empty() => {
            let v = super::value::to_puppet(&recv);
            if let Some(e) = puppet_model::ruby::json_nesting_error(&v) {
                cx.error_class = Some("JSON::NestingError".into());
                return cx.fail_at(e);
            }
            if let Some(e) = puppet_model::ruby::json_utf8_error(&v, cx.ruby) {
                cx.error_class = Some("JSON::GeneratorError".into());
                return cx.fail_at(e);
            }
            return Ok(RValue::str(puppet_model::ruby::ruby_json(&v)));
        }
        // `require 'yaml'` too (Puppet loads Psych): Psych's document.
        "to_yaml" if args.len() <= 1 => {
            return match super::yaml::to_yaml(&recv, args.first()) {
                Ok(text) => Ok(RValue::str(text)),
                Err(e) => cx.fail_at(e),
            }
        }
        "is_a?" | "kind_of?" | "instance_of?" => {
            return Ok(RValue::Bool(match args.first() {
                Some(RValue::Class(c)) => is_a(&recv, c),
                _ => return cx.fail_at("class or module required"),
            }))
        }
        "class" => return Ok(RValue::Class(recv.class_name().to_string())),
        "==" | "eql?" | "equal?" => {
            return Ok(RValue::Bool(args.first().is_some_and(|a| recv.eq(a))))
        }
        "!" => return Ok(RValue::Bool(!recv.truthy())),
        // NilClass#=~, and Ruby 3.1's Object#=~: nil, never a match (Ruby
        // 3.2 removed Object#=~: other objects have no such method).
        "=~" if matches!(recv, RValue::Nil)
            || (cx.ruby == RubyVersion::V3_1
                && !matches!(recv, RValue::Str(_) | RValue::Sym(_) | RValue::Regex(_))) =>
        {
            return Ok(RValue::Nil)
        }
        "respond_to?" => {
            let m = args.first().map(RValue::to_s).unwrap_or_default();
            let m = m.as_str();
            // Enumerable's and the collections' own (a subset: the ones
            // code asks about).
            const COLLECTION: [&str; 22] = [
                "each",
                "map",
                "select",
                "reject",
                "include?",
                "empty?",
                "length",
                "size",
                "count",
                "first",
                "sort",
                "to_a",
                "to_h",
                "any?",
                "all?",
                "find",
                "inject",
                "reduce",
                "each_with_index",
                "each_with_object",
                "min",
                "max",
            ];
            let known = match &recv {
                RValue::Str(_) | RValue::Sym(_) => [
                    "upcase",
                    "downcase",
                    "split",
                    "strip",
                    "each_line",
                    "gsub",
                    "sub",
                    "to_str",
                    "to_sym",
                    "empty?",
                    "length",
                    "size",
                    "include?",
                    "start_with?",
                    "end_with?",
                    "match",
                    "=~",
                    "[]",
                    "+",
                    "*",
                    "%",
                    "encoding",
                    "chars",
                    "lines",
                    "to_i",
                    "to_f",
                    "capitalize",
                    "casecmp",
                ]
                .contains(&m),
                RValue::Array(_) => {
                    COLLECTION.contains(&m)
                        || [
                            "join",
                            "to_ary",
                            "flatten",
                            "uniq",
                            "compact",
                            "push",
                            "<<",
                            "[]",
                            "last",
                            "-",
                            "+",
                            "&",
                            "|",
                            "zip",
                            "each_slice",
                        ]
                        .contains(&m)
                }
                RValue::Hash(_) => {
                    COLLECTION.contains(&m)
                        || [
                            "keys",
                            "values",
                            "each_pair",
                            "to_hash",
                            "key?",
                            "has_key?",
                            "fetch",
                            "merge",
                            "[]",
                            "dig",
                            "delete",
                        ]
                        .contains(&m)
                }
                RValue::Int(_) | RValue::Big(_) | RValue::Float(_) => [
                    "+", "-", "*", "/", "to_i", "to_f", "round", "abs", "zero?", "times",
                ]
                .contains(&m),
                RValue::Class(c) => {
                    (c == "Puppet::Util" && m == "absolute_path?") || m == "name" || m == "new"
                }
                _ => false,
            } || [
                "to_s",
                "inspect",
                "nil?",
                "is_a?",
                "class",
                "==",
                "respond_to?",
            ]
            .contains(&m);
            return Ok(RValue::Bool(known));
        }
        "freeze" | "dup" | "clone" | "itself" | "to_sym"
            if !matches!(recv, RValue::Str(_)) || name != "to_sym" =>
        {
            return Ok(recv)
        }
        "frozen?" => return Ok(RValue::Bool(true)),
        "tap" => {
            let b = need_block(cx, block, name)?;
            cx.yield_(b, vec![recv.clone()])?;
            return Ok(recv);
        }
        "then" | "yield_self" => {
            let b = need_block(cx, block, name)?;
            return cx.yield_(b, vec![recv]);
        }
        "===" => {
            let a = args.first().cloned().unwrap_or(RValue::Nil);
            return Ok(RValue::Bool(match &recv {
                RValue::Class(c) => is_a(&a, c),
                o => o.eq(&a),
            }));
        }
        "<=>" => {
            let a = args.first().cloned().unwrap_or(RValue::Nil);
            return Ok(match recv.cmp(&a) {
                Some(o) => RValue::Int(o as i64),
                None => RValue::Nil,
            });
        }
        _ => {}
    }
    if block.is_none() {
        if let Some(e) = make_enumerator(&recv, name, &args) {
            return Ok(RValue::Enumerator(std::sync::Arc::new(e)));
        }
    }
    match recv {
        RValue::Enumerator(ref e) => enumerator(cx, e, name, args, block),
        RValue::Proc(ref b) => match name {
            "call" | "()" | "yield" | "[]" | "===" => match cx.yield_(b, args) {
                Err(Flow::Next(v)) | Err(Flow::Return(v)) => Ok(v),
                other => other,
            },
            "arity" => Ok(RValue::Int(b.params.len() as i64)),
            "to_proc" => Ok(RValue::Proc(b.clone())),
            _ => cx.no_method(name, &RValue::Proc(b.clone())),
        },
        // `scope.send('function_x', args)`: the method named by the first argument.
        RValue::Scope if name == "send" || name == "public_send" => {
            let mut args = args.into_iter();
            let method = args.next().map(|m| m.to_s()).unwrap_or_default();
            cx.scope_call(&method, args.collect())
        }
        RValue::Scope => cx.scope_call(name, args),
        RValue::Nil => match name {
            "to_a" => Ok(RValue::array(vec![])),
            "to_i" => Ok(RValue::Int(0)),
            "to_f" => Ok(RValue::Float(0.0)),
            "to_h" => Ok(RValue::hash(vec![])),
            "&" => Ok(RValue::Bool(false)),
            "|" => Ok(RValue::Bool(args.first().is_some_and(|a| a.truthy()))),
            _ => cx.no_method(name, &RValue::Nil),
        },
        RValue::Bool(b) => match name {
            "&" => Ok(RValue::Bool(b && args.first().is_some_and(|a| a.truthy()))),
            "|" => Ok(RValue::Bool(b || args.first().is_some_and(|a| a.truthy()))),
            "^" => Ok(RValue::Bool(b != args.first().is_some_and(|a| a.truthy()))),
            _ => cx.no_method(name, &RValue::Bool(b)),
        },
        RValue::Int(_) | RValue::Big(_) | RValue::Float(_) => numeric(cx, recv, name, args, block),
        RValue::Str(ref s) => string(cx, s.clone(), name, args, block),
        RValue::Sym(ref s) => match name {
            "to_sym" => Ok(RValue::Sym(s.clone())),
            "to_proc" => cx.fail_at("Symbol#to_proc is only supported as &:name"),
            "length" | "size" | "upcase" | "downcase" | "capitalize" | "empty?" | "start_with?"
            | "end_with?" => {
                let r = string(cx, s.clone(), name, args, block)?;
                Ok(match r {
                    RValue::Str(ref x) => RValue::Sym(x.clone()),
                    o => o,
                })
            }
            "<" | ">" | "<=" | ">=" => compare(cx, RValue::Sym(s.clone()), name, args),
            _ => cx.no_method(name, &RValue::Sym(s.clone())),
        },
        // Taken, not shared: an in-place edit (`a << x`) need not copy.
        RValue::Array(ref mut a) => array(cx, std::mem::take(a), name, args, block),
        RValue::Hash(ref mut h) => hash(cx, std::mem::take(h), name, args, block),
        RValue::Range(a, b, x) => match name {
            "first" if args.is_empty() => Ok(RValue::Int(a)),
            "begin" => Ok(RValue::Int(a)),
            "end" | "last" if args.is_empty() => Ok(RValue::Int(b)),
            "include?" | "member?" | "cover?" => {
                Ok(RValue::Bool(match args.first().and_then(num) {
                    Some(v) => v >= a as f64 && if x { v < b as f64 } else { v <= b as f64 },
                    None => false,
                }))
            }
            // Every other method lists the range's integers.
            _ if check_range(cx, a, b, x).is_err() => check_range(cx, a, b, x).map(|_| RValue::Nil),
            "min" if args.is_empty() && block.is_none() => Ok(if range_items(a, b, x).is_empty() {
                RValue::Nil
            } else {
                RValue::Int(a)
            }),
            "step" => {
                let step = int_arg(cx, &args, 0)?.unwrap_or(1).max(1) as usize;
                let items: Vec<RValue> = range_items(a, b, x).into_iter().step_by(step).collect();
                match block {
                    Some(bl) => {
                        for i in items {
                            cx.yield_(bl, vec![i])?;
                        }
                        Ok(RValue::Range(a, b, x))
                    }
                    None => Ok(RValue::array(items)),
                }
            }
            "each" => {
                let bl = need_block(cx, block, name)?;
                for i in range_items(a, b, x) {
                    cx.yield_(bl, vec![i])?;
                }
                Ok(RValue::Range(a, b, x))
            }
            _ => array(cx, range_items(a, b, x).into(), name, args, block),
        },
        RValue::Regex(ref re) => match name {
            "match" | "=~" | "match?" => {
                let s = match args.first() {
                    Some(RValue::Str(s)) => s.clone(),
                    Some(RValue::Nil) | None => return Ok(RValue::Nil),
                    Some(o) => o.to_s().into(),
                };
                string(cx, s, name, vec![RValue::Regex(re.clone())], block)
            }
            "source" => Ok(RValue::str(re.as_str())),
            _ => cx.no_method(name, &recv),
        },
        // A module's own method (`def self.x` in code the interpreter ran,
        // such as a helper module read with a type's `title_patterns`).
        RValue::Class(_) if cx.has_module_function(name) => cx.call_defined(name, args, None),
        RValue::Class(ref c) => {
            // Core classes by their last name (`::JSON`, `Digest::SHA256`).
            let short = c.rsplit("::").next().unwrap_or(c).to_string();
            super::classes::class_method(cx, c, &short, name, args)
        }
        RValue::Resource(ref r) => match name {
            "[]" => {
                let key = args.first().map(RValue::to_s).unwrap_or_default();
                Ok(r.params
                    .iter()
                    .find(|(k, _)| *k == key)
                    .map(|(_, v)| super::value::from_puppet(v))
                    .unwrap_or(RValue::Nil))
            }
            "type" => Ok(RValue::str(r.type_name.clone())),
            "title" => Ok(RValue::str(r.title.clone())),
            "ref" => Ok(RValue::str(r.reference())),
            _ => cx.no_method(name, &recv),
        },
        // A binary String: its bytes; text methods on it when they are
        // UTF-8, else a clear refusal.
        RValue::Bytes(ref b) => match name {
            "bytesize" | "length" | "size" => Ok(RValue::Int(b.len() as i64)),
            "force_encoding" if !names_binary(args.first()) => match std::str::from_utf8(b) {
                Ok(text) => Ok(RValue::str(text)),
                // Ruby makes it UTF-8 text that is not valid: kept as bytes.
                Err(_) => Ok(RValue::Bytes(b.clone())),
            },
            "b" | "force_encoding" => Ok(RValue::Bytes(b.clone())),
            "unpack1" if args.first().is_some_and(|f| f.to_s() == "H*") => Ok(RValue::str(
                b.iter().map(|x| format!("{x:02x}")).collect::<String>(),
            )),
            _ => match std::str::from_utf8(b) {
                Ok(text) => string(cx, text.into(), name, args, block),
                Err(_) => cx.fail_at(format!(
                    "pverify's Ruby does not run String#{name} on binary data"
                )),
            },
        },
        RValue::Object(ref o) => match o.attrs.iter().find(|(k, _)| *k == name) {
            Some((_, v)) if args.is_empty() => Ok(v.clone()),
            None if o.class == "IPAddr"
                && matches!(name, "include?" | "===")
                && args.len() == 1 =>
            {
                Ok(RValue::Bool(super::classes::ipaddr_includes(o, &args[0])))
            }
            _ => cx.no_method(name, &recv),
        },
        RValue::Opaque(ref v) if puppet_model::types::object::is_lookup_context(v) => {
            lookup_context(cx, v, name, args, block)
        }
        RValue::Opaque(ref v) => match name {
            "unwrap" => match v {
                puppet_model::value::Value::Sensitive(inner) => {
                    Ok(super::value::from_puppet(inner))
                }
                _ => cx.no_method(name, &recv),
            },
            _ => cx.no_method(name, &recv),
        },
    }
}

/// A Hiera backend's `Puppet::LookupContext` (`lookup/context.rb`): the
/// host keeps its state; blocks run here.
fn lookup_context(
    cx: &mut Interp<'_>,
    recv: &puppet_model::value::Value,
    name: &str,
    args: Vec<RValue>,
    block: Option<&Block>,
) -> R<RValue> {
    let args: Vec<_> = args.iter().map(super::value::to_puppet).collect();
    let call =
        |cx: &mut Interp<'_>, name: &str| match cx.host.object_method(recv, name, args.clone()) {
            Ok(v) => Ok(super::value::from_puppet(&v)),
            Err(e) => cx.fail_at(e),
        };
    match (name, block) {
        // Explanations are not collected: the block is not run.
        ("explain", _) => Ok(RValue::Nil),
        // Ruby's environment name is a Symbol.
        ("environment_name", _) => Ok(RValue::Sym(cx.host.environment_name().into())),
        ("cached_entries", Some(b)) => {
            let RValue::Array(ref pairs) = call(cx, "cached_entries")? else {
                return Ok(RValue::Nil);
            };
            for pair in pairs.iter() {
                match (b.params.len(), pair) {
                    (2, RValue::Array(kv)) => cx.yield_(b, kv.to_vec())?,
                    _ => cx.yield_(b, vec![pair.clone()])?,
                };
            }
            Ok(RValue::Nil)
        }
        ("cached_file_data", Some(b)) => {
            let content = call(cx, "cached_file_data")?;
            cx.yield_(b, vec![content])
        }
        _ => call(cx, name),
    }
}

fn compare(cx: &mut Interp<'_>, recv: RValue, name: &str, args: Vec<RValue>) -> R<RValue> {
    let a = args.first().cloned().unwrap_or(RValue::Nil);
    match recv.cmp(&a) {
        Some(o) => Ok(RValue::Bool(match name {
            "<" => o == Ordering::Less,
            ">" => o == Ordering::Greater,
            "<=" => o != Ordering::Greater,
            _ => o != Ordering::Less,
        })),
        None => cx.fail_at(format!(
            "comparison of {} with {} failed",
            recv.class_name(),
            match &a {
                RValue::Nil | RValue::Int(_) | RValue::Float(_) | RValue::Bool(_) => a.inspect(),
                o => o.class_name().to_string(),
            }
        )),
    }
}

fn numeric(
    cx: &mut Interp<'_>,
    recv: RValue,
    name: &str,
    args: Vec<RValue>,
    block: Option<&Block>,
) -> R<RValue> {
    let a = args.first().cloned();
    match (name, &recv, a.as_ref()) {
        ("+" | "-" | "*" | "/" | "%" | "**", RValue::Int(x), Some(RValue::Int(y))) => {
            let (x, y) = (*x, *y);
            if (name == "/" || name == "%") && y == 0 {
                return cx.fail_at("divided by 0");
            }
            let r = match name {
                "+" => x.checked_add(y),
                "-" => x.checked_sub(y),
                "*" => x.checked_mul(y),
                // Floored, as Ruby's; `MIN / -1` is a Bignum.
                "/" if y == -1 => x.checked_neg(),
                "%" if y == -1 => Some(0),
                "/" => Some(num_integer::Integer::div_floor(&x, &y)),
                "%" => Some(num_integer::Integer::mod_floor(&x, &y)),
                _ => {
                    if y < 0 {
                        return Ok(RValue::Float((x as f64).powf(y as f64)));
                    }
                    u32::try_from(y).ok().and_then(|y| x.checked_pow(y))
                }
            };
            match r {
                Some(v) => Ok(RValue::Int(v)),
                // Past 64 bits: on in a Bignum, as Ruby does.
                None => big_arith(cx, name, &recv, a.as_ref()),
            }
        }
        (
            "+" | "-" | "*" | "/" | "%" | "**" | "&" | "|" | "^" | "<<" | ">>",
            RValue::Int(_) | RValue::Big(_),
            Some(RValue::Int(_) | RValue::Big(_)),
        ) if matches!(recv, RValue::Big(_))
            || matches!(a, Some(RValue::Big(_)))
            || name == "<<"
            || name == ">>" =>
        {
            big_arith(cx, name, &recv, a.as_ref())
        }
        ("+" | "-" | "*" | "/" | "%" | "**", _, Some(b)) if num(b).is_some() => {
            let (x, y) = (num(&recv).unwrap_or(0.0), num(b).unwrap_or(0.0));
            Ok(RValue::Float(match name {
                "+" => x + y,
                "-" => x - y,
                "*" => x * y,
                "/" => x / y,
                "%" => x - y * (x / y).floor(),
                _ => x.powf(y),
            }))
        }
        ("+" | "-" | "*" | "/" | "%" | "**", _, b) => cx.fail_at(format!(
            "{} can't be coerced into {}",
            b.map(class_desc).unwrap_or_else(|| "nil".into()),
            recv.class_name()
        )),
        ("<" | ">" | "<=" | ">=", _, _) => compare(cx, recv, name, args),
        ("to_i" | "to_int" | "truncate", RValue::Float(f), _) => Ok(RValue::Int(f.trunc() as i64)),
        (
            "to_i" | "to_int" | "floor" | "ceil" | "round" | "truncate",
            RValue::Int(_) | RValue::Big(_),
            _,
        ) => Ok(recv),
        ("to_f", _, _) => Ok(RValue::Float(num(&recv).unwrap_or(0.0))),
        ("to_s", RValue::Int(i), Some(RValue::Int(base))) => Ok(RValue::str(to_base(*i, *base))),
        ("to_s" | "inspect", RValue::Big(b), base) => Ok(RValue::str(match base {
            Some(RValue::Int(base)) => super::bigint::to_s_radix(b, *base),
            _ => b.to_string(),
        })),
        ("floor", RValue::Float(f), _) => Ok(RValue::Int(f.floor() as i64)),
        ("ceil", RValue::Float(f), _) => Ok(RValue::Int(f.ceil() as i64)),
        ("round", RValue::Float(f), None) => Ok(RValue::Int(f.round() as i64)),
        ("round", RValue::Float(f), Some(RValue::Int(n))) => {
            let m = 10f64.powi(*n as i32);
            Ok(RValue::Float((f * m).round() / m))
        }
        ("abs" | "magnitude", RValue::Int(_) | RValue::Big(_), _) => {
            let b = super::bigint::of(&recv).unwrap_or_default();
            Ok(super::bigint::norm(if b < Default::default() {
                -b
            } else {
                b
            }))
        }
        ("abs", RValue::Float(f), _) => Ok(RValue::Float(f.abs())),
        ("zero?", _, _) => Ok(RValue::Bool(num(&recv) == Some(0.0))),
        ("positive?", _, _) => Ok(RValue::Bool(num(&recv).is_some_and(|x| x > 0.0))),
        ("negative?", _, _) => Ok(RValue::Bool(num(&recv).is_some_and(|x| x < 0.0))),
        ("even?" | "odd?", RValue::Int(_) | RValue::Big(_), _) => {
            use num_integer::Integer;
            let even = super::bigint::of(&recv).unwrap_or_default().is_even();
            Ok(RValue::Bool(even == (name == "even?")))
        }
        ("succ" | "next" | "pred", RValue::Int(_) | RValue::Big(_), _) => {
            let one = RValue::Int(1);
            big_arith(
                cx,
                if name == "pred" { "-" } else { "+" },
                &recv,
                Some(&one),
            )
        }
        ("chr", RValue::Int(i), _) => Ok(RValue::str(
            char::from_u32(*i as u32)
                .map(String::from)
                .unwrap_or_default(),
        )),
        ("between?", _, _) => {
            let lo = args.first().and_then(num).unwrap_or(f64::NAN);
            let hi = args.get(1).and_then(num).unwrap_or(f64::NAN);
            let x = num(&recv).unwrap_or(0.0);
            Ok(RValue::Bool(x >= lo && x <= hi))
        }
        ("times", RValue::Int(n), _) => {
            let bl = need_block(cx, block, name)?;
            for i in 0..(*n).clamp(0, MAX_STEPS as i64) {
                cx.yield_(bl, vec![RValue::Int(i)])?;
            }
            if *n > MAX_STEPS as i64 {
                return cx.fail_at(over_limit(&format!("{n}.times"), MAX_STEPS, "iterations"));
            }
            Ok(recv)
        }
        ("upto" | "downto", RValue::Int(n), Some(RValue::Int(m))) => {
            let bl = need_block(cx, block, name)?;
            if (*m as i128 - *n as i128).abs() >= MAX_STEPS as i128 {
                return cx.fail_at(over_limit(
                    &format!("{n}.{name}({m})"),
                    MAX_STEPS,
                    "iterations",
                ));
            }
            cx.reserve(m.abs_diff(*n).saturating_add(1), 8)?;
            let items: Vec<i64> = if name == "upto" {
                (*n..=*m).collect()
            } else {
                (*m..=*n).rev().collect()
            };
            for i in items {
                cx.yield_(bl, vec![RValue::Int(i)])?;
            }
            Ok(recv)
        }
        ("integer?", _, _) => Ok(RValue::Bool(matches!(
            recv,
            RValue::Int(_) | RValue::Big(_)
        ))),
        ("nan?", RValue::Float(f), _) => Ok(RValue::Bool(f.is_nan())),
        ("&" | "|" | "^", RValue::Int(x), Some(RValue::Int(y))) => Ok(RValue::Int(match name {
            "&" => x & y,
            "|" => x | y,
            _ => x ^ y,
        })),
        _ => cx.no_method(name, &recv),
    }
}

/// Integer arithmetic in a Bignum (both sides Integers).
fn big_arith(cx: &mut Interp<'_>, name: &str, x: &RValue, y: Option<&RValue>) -> R<RValue> {
    let (Some(x), Some(y)) = (super::bigint::of(x), y.and_then(super::bigint::of)) else {
        return cx.fail_at(format!("{name}: not an Integer"));
    };
    match super::bigint::arith(name, &x, &y) {
        Some(Ok(v)) => Ok(v),
        Some(Err(e)) => cx.fail_at(e),
        None => {
            let inspect = x.to_string();
            cx.fail_at(cx.ruby.no_method(
                name,
                Receiver::Instance {
                    inspect: &inspect,
                    class: "Integer",
                },
            ))
        }
    }
}

fn to_base(mut i: i64, base: i64) -> String {
    if !(2..=36).contains(&base) {
        return i.to_string();
    }
    let neg = i < 0;
    let mut digits = Vec::new();
    if i == 0 {
        digits.push('0');
    }
    while i != 0 {
        let d = (i % base).unsigned_abs() as u32;
        digits.push(std::char::from_digit(d, base as u32).unwrap_or('0'));
        i /= base;
    }
    if neg {
        digits.push('-');
    }
    digits.iter().rev().collect()
}

fn string(
    cx: &mut Interp<'_>,
    recv: Arc<str>,
    name: &str,
    args: Vec<RValue>,
    block: Option<&Block>,
) -> R<RValue> {
    fn st(x: impl Into<Arc<str>>) -> R<RValue> {
        Ok(RValue::str(x))
    }
    let s: &str = &recv;
    match name {
        "+" => {
            let o = str_arg(cx, &args, 0)?;
            cx.reserve((s.len() + o.len()) as u64, 1)?;
            st(format!("{s}{o}"))
        }
        "*" => {
            let n = int_arg(cx, &args, 0)?.unwrap_or(0);
            if n < 0 {
                return cx.fail_at("negative argument");
            }
            if (n as u128) * (s.len() as u128) > MAX_STRING_BYTES as u128 {
                return cx.fail_at(over_limit("String#* result", MAX_STRING_BYTES, "bytes"));
            }
            cx.reserve((s.len() as u64).saturating_mul(n as u64), 1)?;
            st(s.repeat(n as usize))
        }
        "%" => {
            let fargs = match args.first() {
                Some(RValue::Array(a)) => a.to_vec(),
                Some(o) => vec![o.clone()],
                None => vec![],
            };
            let pv: Vec<puppet_model::value::Value> =
                fargs.iter().map(super::value::to_puppet).collect();
            let mut all = vec![puppet_model::value::Value::String(recv.clone())];
            all.extend(pv);
            match cx.host.call_function("sprintf", all) {
                Ok(v) => st(super::value::from_puppet(&v).to_s()),
                Err(e) => cx.fail_at(e),
            }
        }
        "<<" | "concat" => {
            let o = args.first().map(RValue::to_s).unwrap_or_default();
            st(format!("{s}{o}"))
        }
        "<" | ">" | "<=" | ">=" => compare(cx, RValue::str(s), name, args),
        "=~" | "match" | "match?" => {
            let Some(re) = args.first().and_then(pattern) else {
                return cx.fail_at(format!(
                    "wrong argument type {} (expected Regexp)",
                    args.first().map(|a| a.class_name()).unwrap_or("nil")
                ));
            };
            let compiled = puppet_model::types::regex::compile_ruby(&re)
                .map_err(|e| Flow::Error(e, cx_line(cx)))?;
            let caps = compiled
                .captures(&s)
                .map_err(|e| Flow::Error(e.to_string(), cx_line(cx)))?;
            cx.last_match = match &caps {
                Some(c) => (0..c.len())
                    .map(|i| {
                        c.get(i)
                            .map(|m| RValue::str(m.as_str().to_string()))
                            .unwrap_or(RValue::Nil)
                    })
                    .collect(),
                None => Vec::new(),
            };
            Ok(match (name, caps) {
                (_, None) if name == "match?" => RValue::Bool(false),
                (_, None) => RValue::Nil,
                ("match?", Some(_)) => RValue::Bool(true),
                ("=~", Some(c)) => RValue::Int(
                    s[..c.get(0).map(|m| m.start()).unwrap_or(0)]
                        .chars()
                        .count() as i64,
                ),
                (_, Some(c)) => RValue::array(
                    (0..c.len())
                        .map(|i| {
                            c.get(i)
                                .map(|m| RValue::str(m.as_str().to_string()))
                                .unwrap_or(RValue::Nil)
                        })
                        .collect::<Vec<_>>(),
                ),
            })
        }
        "scan" => {
            let Some(re) = args.first().and_then(pattern) else {
                return cx.fail_at("wrong argument type (expected Regexp)");
            };
            let compiled = puppet_model::types::regex::compile_ruby(&re)
                .map_err(|e| Flow::Error(e, cx_line(cx)))?;
            let mut out = Vec::new();
            for c in compiled.captures_iter(&s) {
                let c = c.map_err(|e| Flow::Error(e.to_string(), cx_line(cx)))?;
                let get = |i: usize| {
                    c.get(i)
                        .map(|m| RValue::str(m.as_str().to_string()))
                        .unwrap_or(RValue::Nil)
                };
                out.push(if c.len() > 1 {
                    RValue::array((1..c.len()).map(get).collect::<Vec<_>>())
                } else {
                    get(0)
                });
            }
            Ok(RValue::array(out))
        }
        "[]" | "slice" => match args.first() {
            Some(RValue::Int(i)) => {
                let chars: Vec<char> = s.chars().collect();
                let len = chars.len() as i64;
                let start = if *i < 0 { i + len } else { *i };
                match int_arg(cx, &args, 1)? {
                    Some(n) => {
                        if start < 0 || start > len || n < 0 {
                            return Ok(RValue::Nil);
                        }
                        let end = (start + n).min(len);
                        st(chars[start as usize..end as usize]
                            .iter()
                            .collect::<String>())
                    }
                    None => {
                        if start < 0 || start >= len {
                            return Ok(RValue::Nil);
                        }
                        st(chars[start as usize].to_string())
                    }
                }
            }
            Some(RValue::Range(a, b, x)) => {
                let chars: Vec<char> = s.chars().collect();
                match range_bounds(*a, *b, *x, chars.len()) {
                    Some((start, end)) => st(chars[start..end].iter().collect::<String>()),
                    None => Ok(RValue::Nil),
                }
            }
            Some(RValue::Str(sub)) => Ok(if s.contains(&sub[..]) {
                RValue::Str(sub.clone())
            } else {
                RValue::Nil
            }),
            Some(RValue::Regex(_)) => {
                let m = string(cx, recv.clone(), "match", vec![args[0].clone()], None)?;
                let i = int_arg(cx, &args, 1)?.unwrap_or(0) as usize;
                Ok(match m {
                    RValue::Array(ref g) => g.get(i).cloned().unwrap_or(RValue::Nil),
                    _ => RValue::Nil,
                })
            }
            _ => cx.fail_at("no implicit conversion into Integer"),
        },
        "length" | "size" => Ok(RValue::Int(s.chars().count() as i64)),
        "bytesize" => Ok(RValue::Int(s.len() as i64)),
        // Ruby's case mapping refuses text holding bytes that are not UTF-8.
        "upcase" | "upcase!" | "downcase" | "downcase!" | "capitalize" | "capitalize!"
        | "swapcase"
            if crate::bad_bytes::holds_bad_byte(s) =>
        {
            cx.error_class = Some("ArgumentError".into());
            cx.fail_at(crate::bad_bytes::INPUT_STRING_INVALID)
        }
        "upcase" | "upcase!" => st(s.to_uppercase()),
        "downcase" | "downcase!" => st(s.to_lowercase()),
        "capitalize" | "capitalize!" => st(capitalize(s)),
        "swapcase" => st(s
            .chars()
            .map(|c| {
                if c.is_uppercase() {
                    c.to_lowercase().collect::<String>()
                } else {
                    c.to_uppercase().collect()
                }
            })
            .collect::<String>()),
        "strip" | "strip!" => st(s
            .trim_matches(|c: char| c.is_ascii_whitespace() || c == '\0')
            .to_string()),
        "lstrip" | "lstrip!" => st(s
            .trim_start_matches(|c: char| c.is_ascii_whitespace())
            .to_string()),
        "rstrip" | "rstrip!" => st(s
            .trim_end_matches(|c: char| c.is_ascii_whitespace() || c == '\0')
            .to_string()),
        "chomp" | "chomp!" => match args.first() {
            Some(RValue::Str(suffix)) => st(s.strip_suffix(&suffix[..]).unwrap_or(s).to_string()),
            _ => st(s
                .strip_suffix("\r\n")
                .or_else(|| s.strip_suffix('\n'))
                .or_else(|| s.strip_suffix('\r'))
                .unwrap_or(s)
                .to_string()),
        },
        "chop" => {
            let mut t = s.to_string();
            if t.ends_with("\r\n") {
                t.truncate(t.len() - 2);
            } else {
                t.pop();
            }
            st(t)
        }
        "chars" => Ok(RValue::array(
            s.chars()
                .map(|c| RValue::str(c.to_string()))
                .collect::<Vec<_>>(),
        )),
        "lines" | "each_line" => {
            let lines: Vec<RValue> = s
                .split_inclusive('\n')
                .map(|l| RValue::str(l.to_string()))
                .collect();
            if name == "each_line" {
                if let Some(bl) = block {
                    for l in lines {
                        cx.yield_(bl, vec![l])?;
                    }
                    return Ok(RValue::Str(recv.clone()));
                }
            }
            Ok(RValue::array(lines))
        }
        "split" => {
            let limit = int_arg(cx, &args, 1)?;
            Ok(RValue::array(split(cx, s, args.first(), limit)?))
        }
        "gsub" | "gsub!" => st(substitute(cx, s, &args, block, true)?),
        "sub" | "sub!" => st(substitute(cx, s, &args, block, false)?),
        "tr" => {
            let from: Vec<char> = expand_tr(&str_arg(cx, &args, 0)?);
            let to: Vec<char> = expand_tr(&str_arg(cx, &args, 1)?);
            st(s.chars()
                .filter_map(|c| match from.iter().position(|f| *f == c) {
                    Some(i) => to.get(i).or(to.last()).copied(),
                    None => Some(c),
                })
                .collect::<String>())
        }
        "delete" => {
            let del = expand_tr(&str_arg(cx, &args, 0)?);
            st(s.chars().filter(|c| !del.contains(c)).collect::<String>())
        }
        "squeeze" => {
            // With a set (`squeeze(' ')`), only runs of its characters.
            let set = match args.first() {
                Some(_) => Some(expand_tr(&str_arg(cx, &args, 0)?)),
                None => None,
            };
            let mut out = String::new();
            for c in s.chars() {
                if out.ends_with(c) && set.as_ref().is_none_or(|set| set.contains(&c)) {
                    continue;
                }
                out.push(c);
            }
            st(out)
        }
        "include?" => {
            let o = str_arg(cx, &args, 0)?;
            Ok(RValue::Bool(s.contains(o.as_str())))
        }
        "start_with?" => Ok(RValue::Bool(args.iter().any(|a| {
            match a {
                RValue::Str(p) => s.starts_with(&p[..]),
                RValue::Regex(re) => {
                    puppet_model::types::regex::compile_ruby(&format!("\\A(?:{re})"))
                        .is_ok_and(|r| r.is_match(&s).unwrap_or(false))
                }
                _ => false,
            }
        }))),
        "end_with?" => Ok(RValue::Bool(
            args.iter()
                .any(|a| matches!(a, RValue::Str(p) if s.ends_with(&p[..]))),
        )),
        "index" => {
            let o = str_arg(cx, &args, 0)?;
            Ok(match s.find(o.as_str()) {
                Some(i) => RValue::Int(s[..i].chars().count() as i64),
                None => RValue::Nil,
            })
        }
        "count" => {
            let set = expand_tr(&str_arg(cx, &args, 0)?);
            Ok(RValue::Int(
                s.chars().filter(|c| set.contains(c)).count() as i64
            ))
        }
        "empty?" => Ok(RValue::Bool(s.is_empty())),
        "to_i" => Ok(match args.first() {
            Some(RValue::Int(base)) if (2..=36).contains(base) => {
                super::bigint::parse_prefix(s, *base as u32)
            }
            Some(RValue::Int(base)) => return cx.fail_at(format!("invalid radix {base}")),
            _ => super::bigint::parse_prefix(s, 10),
        }),
        "to_f" => Ok(RValue::Float(str_to_f(s))),
        "to_str" => Ok(RValue::Str(recv.clone())),
        "to_sym" | "intern" => Ok(RValue::sym(s)),
        "reverse" => st(s.chars().rev().collect::<String>()),
        "center" | "ljust" | "rjust" => {
            let w = int_arg(cx, &args, 0)?.unwrap_or(0).max(0) as usize;
            // Up to 4 bytes a character.
            cx.reserve(w as u64, 4)?;
            let pad = match args.get(1) {
                Some(RValue::Str(p)) if !p.is_empty() => p.clone(),
                _ => " ".into(),
            };
            let len = s.chars().count();
            if w <= len {
                return Ok(RValue::Str(recv.clone()));
            }
            if (w - len).saturating_mul(pad.len()) > MAX_STRING_BYTES {
                return cx.fail_at(over_limit(
                    &format!("String#{name} result"),
                    MAX_STRING_BYTES,
                    "bytes",
                ));
            }
            let n = w - len;
            let fill = |k: usize| pad.chars().cycle().take(k).collect::<String>();
            st(match name {
                "ljust" => format!("{s}{}", fill(n)),
                "rjust" => fill(n) + s,
                _ => fill(n / 2) + s + &fill(n - n / 2),
            })
        }
        "casecmp" => {
            let o = str_arg(cx, &args, 0)?;
            Ok(RValue::Int(s.to_lowercase().cmp(&o.to_lowercase()) as i64))
        }
        "casecmp?" => {
            let o = str_arg(cx, &args, 0)?;
            Ok(RValue::Bool(s.to_lowercase() == o.to_lowercase()))
        }
        "succ" | "next" => st(succ(s)),
        "ord" => Ok(RValue::Int(s.chars().next().map(|c| c as i64).unwrap_or(0))),
        "hex" => Ok(super::bigint::parse_prefix(s, 16)),
        "each_char" => {
            let bl = need_block(cx, block, name)?;
            for c in s.chars() {
                cx.yield_(bl, vec![RValue::str(c.to_string())])?;
            }
            Ok(RValue::Str(recv.clone()))
        }
        "encoding" => st("UTF-8"),
        "message" => Ok(RValue::Str(recv.clone())),
        "b" => Ok(RValue::Bytes(recv.as_bytes().into())),
        "force_encoding" if names_binary(args.first()) => Ok(RValue::Bytes(recv.as_bytes().into())),
        "force_encoding" | "encode" | "unicode_normalize" | "scrub" => {
            Ok(RValue::Str(recv.clone()))
        }
        _ => cx.no_method(name, &RValue::Str(recv.clone())),
    }
}

/// Whether `force_encoding`'s argument names Ruby's binary encoding, whose
/// Strings Puppet 8 writes as Binary values.
fn names_binary(arg: Option<&RValue>) -> bool {
    arg.is_some_and(|a| {
        let name = a.to_s();
        name.eq_ignore_ascii_case("ASCII-8BIT") || name.eq_ignore_ascii_case("BINARY")
    })
}

/// `tr`'s character ranges (`a-z`).
fn expand_tr(spec: &str) -> Vec<char> {
    let chars: Vec<char> = spec.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if i + 2 < chars.len() && chars[i + 1] == '-' {
            let (a, b) = (chars[i] as u32, chars[i + 2] as u32);
            out.extend((a..=b).filter_map(char::from_u32));
            i += 3;
        } else {
            out.push(chars[i]);
            i += 1;
        }
    }
    out
}

/// A simple `String#succ` for the last alphanumeric character.
fn succ(s: &str) -> String {
    let mut chars: Vec<char> = s.chars().collect();
    let mut i = chars.len();
    while i > 0 {
        i -= 1;
        match chars[i] {
            'z' => chars[i] = 'a',
            'Z' => chars[i] = 'A',
            '9' => chars[i] = '0',
            c if c.is_ascii_alphanumeric() => {
                chars[i] = (c as u8 + 1) as char;
                return chars.into_iter().collect();
            }
            _ => continue,
        }
        if i == 0 {
            let first = match chars[0] {
                'a' => 'a',
                'A' => 'A',
                _ => '1',
            };
            chars.insert(0, first);
        }
    }
    chars.into_iter().collect()
}

fn array(
    cx: &mut Interp<'_>,
    a: Arc<Vec<RValue>>,
    name: &str,
    args: Vec<RValue>,
    block: Option<&Block>,
) -> R<RValue> {
    fn arr(v: impl Into<Arc<Vec<RValue>>>) -> R<RValue> {
        Ok(RValue::array(v))
    }
    // The in-place forms compute what their plain forms return; the caller
    // stores it in the variable (and answers nil when nothing changed).
    if let Some(
        plain @ ("compact" | "flatten" | "uniq" | "sort" | "sort_by" | "reverse" | "map"
        | "collect" | "select" | "filter" | "reject" | "shuffle"),
    ) = name.strip_suffix('!')
    {
        return array(cx, a, plain, args, block);
    }
    match name {
        "each" | "each_entry" => {
            let bl = need_block(cx, block, name)?;
            for i in a.iter() {
                cx.yield_(bl, vec![i.clone()])?;
            }
            arr(a)
        }
        "each_with_index" => {
            let bl = need_block(cx, block, name)?;
            for (n, i) in a.iter().enumerate() {
                cx.yield_(bl, vec![i.clone(), RValue::Int(n as i64)])?;
            }
            arr(a)
        }
        "each_index" => {
            let bl = need_block(cx, block, name)?;
            for n in 0..a.len() {
                cx.yield_(bl, vec![RValue::Int(n as i64)])?;
            }
            arr(a)
        }
        "reverse_each" => {
            let bl = need_block(cx, block, name)?;
            for i in a.iter().rev() {
                cx.yield_(bl, vec![i.clone()])?;
            }
            arr(a)
        }
        "each_with_object" => {
            let bl = need_block(cx, block, name)?;
            let memo = args.first().cloned().unwrap_or(RValue::Nil);
            // The memo is mutated through the block's second parameter:
            // pverify supports `memo[k] = v` and `memo << x` by re-reading it.
            let var = bl.params.get(1).and_then(|g| g.first()).cloned().unwrap_or_default();
            let mut memo = memo;
            for i in a.iter() {
                cx.yield_with_memo(bl, i.clone(), &var, &mut memo)?;
            }
            Ok(memo)
        }
        "map" | "collect" | "flat_map" | "collect_concat" => {
            let bl = need_block(cx, block, name)?;
            let mut out = Vec::new();
            for i in a.iter().cloned() {
                let v = cx.yield_(bl, vec![i])?;
                match v {
                    RValue::Array(ref inner) if name == "flat_map" || name == "collect_concat" => out.extend(inner.iter().cloned()),
                    o => out.push(o),
                }
            }
            arr(out)
        }
        "each_slice" => {
            let n = int_arg(cx, &args, 0)?.unwrap_or(1).max(1) as usize;
            let slices: Vec<RValue> = a.chunks(n).map(|c| RValue::array(c.to_vec())).collect();
            match block {
                Some(bl) => {
                    for s in slices {
                        cx.yield_(bl, vec![s])?;
                    }
                    Ok(RValue::Nil)
                }
                None => arr(slices),
            }
        }
        "select" | "filter" | "reject" | "find_all" | "delete_if" | "keep_if" => {
            let bl = need_block(cx, block, name)?;
            let keep = !matches!(name, "reject" | "delete_if");
            let mut out = Vec::new();
            for i in a.iter().cloned() {
                if cx.yield_(bl, vec![i.clone()])?.truthy() == keep {
                    out.push(i);
                }
            }
            arr(out)
        }
        "partition" => {
            let bl = need_block(cx, block, name)?;
            let (mut yes, mut no) = (Vec::new(), Vec::new());
            for i in a.iter().cloned() {
                if cx.yield_(bl, vec![i.clone()])?.truthy() {
                    yes.push(i)
                } else {
                    no.push(i)
                }
            }
            arr(vec![RValue::array(yes), RValue::array(no)])
        }
        "find" | "detect" => {
            let bl = need_block(cx, block, name)?;
            for i in a.iter().cloned() {
                if cx.yield_(bl, vec![i.clone()])?.truthy() {
                    return Ok(i);
                }
            }
            Ok(RValue::Nil)
        }
        "find_index" | "index" => {
            for (n, i) in a.iter().enumerate() {
                let hit = match (args.first(), block) {
                    (Some(x), _) => x.eq(i),
                    (None, Some(bl)) => cx.yield_(bl, vec![i.clone()])?.truthy(),
                    _ => false,
                };
                if hit {
                    return Ok(RValue::Int(n as i64));
                }
            }
            Ok(RValue::Nil)
        }
        "any?" | "all?" | "none?" => {
            let mut results = Vec::new();
            for i in a.iter() {
                results.push(match (args.first(), block) {
                    (Some(p), _) => match p {
                        RValue::Class(c) => is_a(i, c),
                        o => o.eq(i),
                    },
                    (None, Some(bl)) => cx.yield_(bl, vec![i.clone()])?.truthy(),
                    _ => i.truthy(),
                });
            }
            Ok(RValue::Bool(match name {
                "any?" => results.iter().any(|x| *x),
                "all?" => results.iter().all(|x| *x),
                _ => !results.iter().any(|x| *x),
            }))
        }
        "count" => match (args.first(), block) {
            (Some(x), _) => Ok(RValue::Int(a.iter().filter(|i| x.eq(i)).count() as i64)),
            (None, Some(bl)) => {
                let mut n = 0;
                for i in a.iter().cloned() {
                    if cx.yield_(bl, vec![i])?.truthy() {
                        n += 1;
                    }
                }
                Ok(RValue::Int(n))
            }
            _ => Ok(RValue::Int(a.len() as i64)),
        },
        "length" | "size" => Ok(RValue::Int(a.len() as i64)),
        "empty?" => Ok(RValue::Bool(a.is_empty())),
        "clear" if args.is_empty() => Ok(RValue::array(Vec::new())),
        "any" => Ok(RValue::Bool(!a.is_empty())),
        "include?" | "member?" => Ok(RValue::Bool(args.first().is_some_and(|x| a.iter().any(|i| i.eq(x))))),
        "join" => {
            let sep = match args.first() {
                Some(RValue::Str(s)) => s.to_string(),
                Some(RValue::Nil) | None => String::new(),
                Some(o) => {
                    return cx.fail_at(format!("no implicit conversion of {} into String", class_desc(o)))
                }
            };
            let mut flat = Vec::new();
            flatten_into(&a, -1, &mut flat);
            let mut parts = Vec::new();
            for i in &flat {
                parts.push(cx.to_s(i)?);
            }
            Ok(RValue::str(parts.join(&sep)))
        }
        "sort" => {
            let mut v = Arc::unwrap_or_clone(a);
            match block {
                Some(bl) => {
                    let mut failure = None;
                    let mut keyed: Vec<RValue> = v.clone();
                    // Insertion sort with the block as comparator (templates sort small lists).
                    let mut out: Vec<RValue> = Vec::new();
                    for item in keyed.drain(..) {
                        let mut pos = out.len();
                        for (k, o) in out.iter().enumerate() {
                            let c = cx.yield_(bl, vec![item.clone(), o.clone()])?;
                            match c {
                                RValue::Int(n) if n < 0 => {
                                    pos = k;
                                    break;
                                }
                                RValue::Int(_) => {}
                                _ => failure = Some("comparison of Array with Array failed"),
                            }
                        }
                        out.insert(pos, item);
                    }
                    if let Some(f) = failure {
                        return cx.fail_at(f);
                    }
                    v = out;
                }
                None => sort_values(cx, &mut v)?,
            }
            arr(v)
        }
        "sort_by" | "min_by" | "max_by" | "group_by" | "uniq" | "to_h" | "sum" | "tally" if block.is_some() || name != "uniq" && name != "to_h" && name != "sum" => {
            keyed(cx, &a, name, args, block)
        }
        "min" | "max" => {
            if a.is_empty() {
                return Ok(RValue::Nil);
            }
            let mut v = Arc::unwrap_or_clone(a);
            sort_values(cx, &mut v)?;
            Ok(if name == "min" { v.first() } else { v.last() }.cloned().unwrap_or(RValue::Nil))
        }
        "sum" => {
            let mut acc = args.first().cloned().unwrap_or(RValue::Int(0));
            for i in a.iter().cloned() {
                acc = call_method(cx, acc, "+", vec![i], None)?;
            }
            Ok(acc)
        }
        "inject" | "reduce" => {
            // `reduce(:+)` / `reduce(0, :+)`: the method named by the symbol.
            let op = match (block, args.last()) {
                (None, Some(RValue::Sym(op))) => Some(op.clone()),
                _ => None,
            };
            let init = if op.is_some() {
                args.len().checked_sub(2).and_then(|i| args.get(i))
            } else {
                args.first()
            };
            let mut it = a.iter().cloned();
            let mut acc = match init {
                Some(x) => x.clone(),
                None => it.next().unwrap_or(RValue::Nil),
            };
            match op {
                Some(op) => {
                    for i in it {
                        acc = call_method(cx, acc, &op, vec![i], None)?;
                    }
                }
                None => {
                    let bl = need_block(cx, block, name)?;
                    for i in it {
                        acc = cx.yield_(bl, vec![acc, i])?;
                    }
                }
            }
            Ok(acc)
        }
        // `===` of the pattern (a Regexp, a class, a range...) on each element.
        "grep" | "grep_v" => {
            let pat = args.first().cloned().unwrap_or(RValue::Nil);
            let mut out = Vec::new();
            for i in a.iter().cloned() {
                let saved = std::mem::take(&mut cx.last_match);
                let hit = cx.case_eq(&pat, &i)? == (name == "grep");
                if !hit {
                    cx.last_match = saved;
                    continue;
                }
                out.push(match block {
                    Some(bl) => cx.yield_(bl, vec![i])?,
                    None => i,
                });
            }
            arr(out)
        }
        "first" | "last" | "take" | "drop" => {
            let n = int_arg(cx, &args, 0)?;
            match (name, n) {
                ("first", None) => Ok(a.first().cloned().unwrap_or(RValue::Nil)),
                ("last", None) => Ok(a.last().cloned().unwrap_or(RValue::Nil)),
                (_, Some(n)) if n < 0 => cx.fail_at("negative array size"),
                ("first" | "take", Some(n)) => arr(a.iter().take(n as usize).cloned().collect::<Vec<_>>()),
                ("last", Some(n)) => {
                    let skip = a.len().saturating_sub(n as usize);
                    arr(a.iter().skip(skip).cloned().collect::<Vec<_>>())
                }
                ("drop", Some(n)) => arr(a.iter().skip(n as usize).cloned().collect::<Vec<_>>()),
                _ => cx.fail_at("wrong number of arguments (given 0, expected 1)"),
            }
        }
        "[]" | "slice" | "at" | "dig" => match args.first() {
            Some(RValue::Int(i)) => {
                let len = a.len() as i64;
                let start = if *i < 0 { i + len } else { *i };
                let v = match int_arg(cx, &args, 1)? {
                    Some(n) if name != "dig" => {
                        if start < 0 || start > len || n < 0 {
                            return Ok(RValue::Nil);
                        }
                        let end = (start + n).min(len);
                        return arr(a[start as usize..end as usize].to_vec());
                    }
                    _ => {
                        if start < 0 || start >= len {
                            RValue::Nil
                        } else {
                            a[start as usize].clone()
                        }
                    }
                };
                if name == "dig" && args.len() > 1 && !matches!(v, RValue::Nil) {
                    return call_method(cx, v, "dig", args[1..].to_vec(), None);
                }
                Ok(v)
            }
            Some(RValue::Range(x, y, excl)) => match range_bounds(*x, *y, *excl, a.len()) {
                Some((start, end)) => arr(a[start..end].to_vec()),
                None => Ok(RValue::Nil),
            },
            Some(o) => cx.fail_at(format!("no implicit conversion of {} into Integer", class_desc(o))),
            None => cx.fail_at("wrong number of arguments (given 0, expected 1..2)"),
        },
        "fetch" => {
            let i = int_arg(cx, &args, 0)?.unwrap_or(0);
            let len = a.len() as i64;
            let idx = if i < 0 { i + len } else { i };
            if idx >= 0 && idx < len {
                return Ok(a[idx as usize].clone());
            }
            match (args.get(1), block) {
                (Some(d), _) => Ok(d.clone()),
                (None, Some(bl)) => cx.yield_(bl, vec![RValue::Int(i)]),
                _ => cx.fail_at(format!("index {i} outside of array bounds: {}...{}", -len, len)),
            }
        }
        "values_at" => {
            let mut out = Vec::new();
            for x in &args {
                out.push(array(cx, a.clone(), "[]", vec![x.clone()], None)?);
            }
            arr(out)
        }
        "flatten" => {
            let depth = int_arg(cx, &args, 0)?.unwrap_or(-1);
            let mut out = Vec::new();
            flatten_into(&a, depth, &mut out);
            arr(out)
        }
        "uniq" => {
            let mut out: Vec<RValue> = Vec::new();
            for i in a.iter().cloned() {
                if !out.iter().any(|o| o.eq(&i) && o.class_name() == i.class_name()) {
                    out.push(i);
                }
            }
            arr(out)
        }
        "compact" => arr(a.iter().filter(|&i| !matches!(i, RValue::Nil)).cloned().collect::<Vec<_>>()),
        "reverse" => arr(a.iter().cloned().rev().collect::<Vec<_>>()),
        "rotate" => {
            let n = int_arg(cx, &args, 0)?.unwrap_or(1);
            let mut v = Arc::unwrap_or_clone(a);
            if !v.is_empty() {
                let k = n.rem_euclid(v.len() as i64) as usize;
                v.rotate_left(k);
            }
            arr(v)
        }
        "push" | "<<" | "append" => {
            let mut v = Arc::unwrap_or_clone(a);
            v.extend(args);
            arr(v)
        }
        "unshift" | "prepend" => {
            let mut v = args;
            v.extend(a.iter().cloned());
            arr(v)
        }
        "+" | "concat" => match args.first() {
            Some(RValue::Array(b)) => {
                let mut v = Arc::unwrap_or_clone(a);
                v.extend(b.iter().cloned());
                arr(v)
            }
            Some(o) => cx.fail_at(format!("no implicit conversion of {} into Array", class_desc(o))),
            None => arr(a),
        },
        "-" | "&" | "|" | "difference" | "intersection" | "union" => {
            let b = match args.first() {
                Some(RValue::Array(b)) => b.to_vec(),
                Some(o) => return cx.fail_at(format!("no implicit conversion of {} into Array", class_desc(o))),
                None => vec![],
            };
            let v: Vec<RValue> = match name {
                "-" | "difference" => a.iter().filter(|&i| !b.iter().any(|x| x.eq(i))).cloned().collect(),
                "&" | "intersection" => {
                    let mut out: Vec<RValue> = Vec::new();
                    for i in a.iter().cloned() {
                        if b.iter().any(|x| x.eq(&i)) && !out.iter().any(|o| o.eq(&i)) {
                            out.push(i);
                        }
                    }
                    out
                }
                _ => {
                    let mut out: Vec<RValue> = Vec::new();
                    for i in a.iter().cloned().chain(b) {
                        if !out.iter().any(|o| o.eq(&i)) {
                            out.push(i);
                        }
                    }
                    out
                }
            };
            arr(v)
        }
        "*" => match args.first() {
            Some(RValue::Str(sep)) => array(cx, a, "join", vec![RValue::Str(sep.clone())], None),
            Some(RValue::Int(n)) => {
                if (*n).max(0) as u128 * a.len() as u128 > MAX_ITEMS as u128 {
                    return cx.fail_at(over_limit("Array#* result", MAX_ITEMS, "elements"));
                }
                cx.reserve(
                    (a.len() as u64).saturating_mul((*n).max(0) as u64),
                    std::mem::size_of::<RValue>(),
                )?;
                let mut v = Vec::new();
                for _ in 0..(*n).max(0) {
                    v.extend(a.iter().cloned());
                }
                arr(v)
            }
            _ => cx.fail_at("no implicit conversion into Integer"),
        },
        "to_a" | "to_ary" | "entries" => arr(a),
        "to_h" => {
            let mut h = Vec::new();
            for i in a.iter().cloned() {
                match i {
                    RValue::Array(ref p) if p.len() == 2 => hash_set(&mut h, p[0].clone(), p[1].clone()),
                    o => return cx.fail_at(format!("wrong element type {} (expected array)", o.class_name())),
                }
            }
            Ok(RValue::hash(h))
        }
        "zip" => {
            let others: Vec<Vec<RValue>> = args.iter().map(|x| elements(x).unwrap_or_default()).collect();
            arr(a
                .iter().cloned()
                .enumerate()
                .map(|(n, i)| {
                    let mut row = vec![i];
                    for o in &others {
                        row.push(o.get(n).cloned().unwrap_or(RValue::Nil));
                    }
                    RValue::array(row)
                })
                .collect::<Vec<_>>())
        }
        "transpose" => {
            let rows: Vec<Vec<RValue>> = a.iter().map(|r| elements(r).unwrap_or_default()).collect();
            let w = rows.first().map(|r| r.len()).unwrap_or(0);
            arr((0..w)
                .map(|c| RValue::array(rows.iter().map(|r| r.get(c).cloned().unwrap_or(RValue::Nil)).collect::<Vec<_>>()))
                .collect::<Vec<_>>())
        }
        "assoc" => Ok(a
            .iter()
            .find(|r| matches!(r, RValue::Array(p) if p.first().is_some_and(|k| args.first().is_some_and(|x| x.eq(k)))))
            .cloned().unwrap_or(RValue::Nil)),
        "each_cons" => {
            let n = int_arg(cx, &args, 0)?.unwrap_or(1).max(1) as usize;
            let bl = need_block(cx, block, name)?;
            for w in a.windows(n) {
                cx.yield_(bl, vec![RValue::array(w.to_vec())])?;
            }
            Ok(RValue::Nil)
        }
        "<" | ">" | "<=" | ">=" => compare(cx, RValue::Array(a), name, args),
        _ => cx.no_method(name, &RValue::Array(a)),
    }
}

/// The Enumerable methods that compute a key per element.
fn keyed(
    cx: &mut Interp<'_>,
    a: &[RValue],
    name: &str,
    args: Vec<RValue>,
    block: Option<&Block>,
) -> R<RValue> {
    let _ = args;
    let bl = need_block(cx, block, name)?;
    let mut keys = Vec::new();
    for i in a {
        keys.push(cx.yield_(bl, vec![i.clone()])?);
    }
    match name {
        "sort_by" | "min_by" | "max_by" => {
            let mut idx: Vec<usize> = (0..a.len()).collect();
            let mut bad = None;
            idx.sort_by(|x, y| match keys[*x].cmp(&keys[*y]) {
                Some(o) => o,
                None => {
                    bad.get_or_insert_with(|| {
                        format!(
                            "comparison of {} with {} failed",
                            keys[*x].class_name(),
                            keys[*y].class_name()
                        )
                    });
                    Ordering::Equal
                }
            });
            if let Some(b) = bad {
                return cx.fail_at(b);
            }
            let sorted: Vec<RValue> = idx.into_iter().map(|i| a[i].clone()).collect();
            Ok(match name {
                "sort_by" => RValue::array(sorted),
                "min_by" => sorted.first().cloned().unwrap_or(RValue::Nil),
                _ => sorted.last().cloned().unwrap_or(RValue::Nil),
            })
        }
        "group_by" => {
            let mut h: Vec<(RValue, RValue)> = Vec::new();
            for (i, k) in a.iter().cloned().zip(keys) {
                match h.iter_mut().find(|(x, _)| x.eq(&k)) {
                    Some((_, RValue::Array(v))) => Arc::make_mut(v).push(i),
                    _ => h.push((k, RValue::array(vec![i]))),
                }
            }
            Ok(RValue::hash(h))
        }
        "uniq" => {
            let mut out: Vec<RValue> = Vec::new();
            let mut seen: Vec<RValue> = Vec::new();
            for (i, k) in a.iter().cloned().zip(keys) {
                if !seen.iter().any(|s| s.eq(&k)) {
                    seen.push(k);
                    out.push(i);
                }
            }
            Ok(RValue::array(out))
        }
        "to_h" => {
            let mut h = Vec::new();
            for k in keys {
                match k {
                    RValue::Array(ref p) if p.len() == 2 => {
                        hash_set(&mut h, p[0].clone(), p[1].clone())
                    }
                    o => {
                        return cx.fail_at(format!(
                            "wrong element type {} (expected array)",
                            o.class_name()
                        ))
                    }
                }
            }
            Ok(RValue::hash(h))
        }
        "sum" => {
            let mut acc = RValue::Int(0);
            for k in keys {
                acc = call_method(cx, acc, "+", vec![k], None)?;
            }
            Ok(acc)
        }
        _ => {
            let mut h: Vec<(RValue, RValue)> = Vec::new();
            for k in keys {
                match h.iter_mut().find(|(x, _)| x.eq(&k)) {
                    Some((_, RValue::Int(n))) => *n += 1,
                    _ => h.push((k, RValue::Int(1))),
                }
            }
            Ok(RValue::hash(h))
        }
    }
}

fn hash(
    cx: &mut Interp<'_>,
    h: Arc<Vec<(RValue, RValue)>>,
    name: &str,
    args: Vec<RValue>,
    block: Option<&Block>,
) -> R<RValue> {
    let pairs = || {
        h.iter()
            .map(|(k, v)| RValue::array(vec![k.clone(), v.clone()]))
            .collect::<Vec<_>>()
    };
    match name {
        "[]" => Ok(args
            .first()
            .and_then(|k| RValue::hash_get(&h, k))
            .unwrap_or(RValue::Nil)),
        "dig" => {
            let v = args
                .first()
                .and_then(|k| RValue::hash_get(&h, k))
                .unwrap_or(RValue::Nil);
            if args.len() > 1 && !matches!(v, RValue::Nil) {
                return call_method(cx, v, "dig", args[1..].to_vec(), None);
            }
            Ok(v)
        }
        "fetch" => {
            let k = args.first().cloned().unwrap_or(RValue::Nil);
            match RValue::hash_get(&h, &k) {
                Some(v) => Ok(v),
                None => match (args.get(1), block) {
                    (Some(d), _) => Ok(d.clone()),
                    (None, Some(bl)) => cx.yield_(bl, vec![k]),
                    _ => cx.fail_at(format!("key not found: {}", k.inspect())),
                },
            }
        }
        "key?" | "has_key?" | "include?" | "member?" => Ok(RValue::Bool(
            args.first()
                .is_some_and(|k| RValue::hash_get(&h, k).is_some()),
        )),
        "value?" | "has_value?" => Ok(RValue::Bool(
            args.first().is_some_and(|x| h.iter().any(|(_, v)| v.eq(x))),
        )),
        "key" => Ok(h
            .iter()
            .find(|(_, v)| args.first().is_some_and(|x| x.eq(v)))
            .map(|(k, _)| k.clone())
            .unwrap_or(RValue::Nil)),
        "keys" => Ok(RValue::array(
            h.iter().map(|(k, _)| k.clone()).collect::<Vec<_>>(),
        )),
        "values" => Ok(RValue::array(
            h.iter().map(|(_, v)| v.clone()).collect::<Vec<_>>(),
        )),
        "values_at" => Ok(RValue::array(
            args.iter()
                .map(|k| RValue::hash_get(&h, k).unwrap_or(RValue::Nil))
                .collect::<Vec<_>>(),
        )),
        "length" | "size" | "count" if block.is_none() && args.is_empty() => {
            Ok(RValue::Int(h.len() as i64))
        }
        "empty?" => Ok(RValue::Bool(h.is_empty())),
        // Changes the variable holding it (`Interp`'s MUTATORS).
        "clear" if args.is_empty() => Ok(RValue::Hash(Arc::new(Vec::new()))),
        "each" | "each_pair" => {
            let bl = need_block(cx, block, name)?;
            for p in pairs() {
                cx.yield_(bl, vec![p])?;
            }
            Ok(RValue::hash(h))
        }
        "each_key" | "each_value" => {
            let bl = need_block(cx, block, name)?;
            for (k, v) in h.iter() {
                cx.yield_(
                    bl,
                    vec![if name == "each_key" {
                        k.clone()
                    } else {
                        v.clone()
                    }],
                )?;
            }
            Ok(RValue::hash(h))
        }
        "select" | "filter" | "reject" | "delete_if" | "keep_if" => {
            let bl = need_block(cx, block, name)?;
            let keep = !matches!(name, "reject" | "delete_if");
            let mut out = Vec::new();
            for (k, v) in h.iter().cloned() {
                if cx.yield_(bl, vec![k.clone(), v.clone()])?.truthy() == keep {
                    out.push((k, v));
                }
            }
            Ok(RValue::hash(out))
        }
        // `store(k, v)`: the changed hash here, which the caller writes back
        // to the receiver's variable; the call's value is `v` (`Interp`).
        "store" if args.len() == 2 => {
            let mut out = Arc::unwrap_or_clone(h);
            hash_set(&mut out, args[0].clone(), args[1].clone());
            Ok(RValue::hash(out))
        }
        "merge" | "update" | "merge!" => {
            let mut out = Arc::unwrap_or_clone(h);
            for a in args {
                match a {
                    RValue::Hash(ref o) => {
                        for (k, v) in o.iter().cloned() {
                            // With a block, a key in both takes the block's
                            // value for (key, old, new).
                            let v = match (block, RValue::hash_get(&out, &k)) {
                                (Some(bl), Some(old)) => cx.yield_(bl, vec![k.clone(), old, v])?,
                                _ => v,
                            };
                            hash_set(&mut out, k, v);
                        }
                    }
                    o => {
                        return cx.fail_at(format!(
                            "no implicit conversion of {} into Hash",
                            class_desc(&o)
                        ))
                    }
                }
            }
            Ok(RValue::hash(out))
        }
        "to_h" | "to_hash" if block.is_none() => Ok(RValue::hash(h)),
        "to_a" => Ok(RValue::array(pairs())),
        "invert" => Ok(RValue::hash(
            h.iter()
                .map(|(k, v)| (v.clone(), k.clone()))
                .collect::<Vec<_>>(),
        )),
        "delete" => {
            let k = args.first().cloned().unwrap_or(RValue::Nil);
            Ok(RValue::hash_get(&h, &k).unwrap_or(RValue::Nil))
        }
        "transform_values" | "transform_keys" => {
            let bl = need_block(cx, block, name)?;
            let mut out = Vec::new();
            for (k, v) in h.iter().cloned() {
                if name == "transform_values" {
                    let nv = cx.yield_(bl, vec![v])?;
                    out.push((k, nv));
                } else {
                    let nk = cx.yield_(bl, vec![k])?;
                    hash_set(&mut out, nk, v);
                }
            }
            Ok(RValue::hash(out))
        }
        "sort" | "min_by" | "max_by" | "sort_by" | "map" | "collect" | "flat_map"
        | "each_with_index" | "find" | "detect" | "any?" | "all?" | "none?" | "count"
        | "partition" | "group_by" | "inject" | "reduce" | "sum" | "each_slice" | "first"
        | "to_h" | "min" | "max" | "zip" | "each_with_object" | "uniq" | "find_all" | "take"
        | "drop" | "entries" | "length" | "size" => array(cx, pairs().into(), name, args, block),
        _ => cx.no_method(name, &RValue::hash(h)),
    }
}

/// Ruby's `comparison of X with Y failed` (Y by value for special constants
/// and numbers, else by class).
fn cmp_error(a: &RValue, b: &RValue) -> String {
    format!(
        "comparison of {} with {} failed",
        a.class_name(),
        match b {
            RValue::Nil | RValue::Int(_) | RValue::Float(_) | RValue::Bool(_) => b.inspect(),
            o => o.class_name().to_string(),
        }
    )
}

/// The slice `[a..b]` (or `[a...b]`) selects of a sequence of `len`
/// elements, negative indexes counting from the end; `None` where Ruby
/// returns nil.
fn range_bounds(a: i64, b: i64, exclusive: bool, len: usize) -> Option<(usize, usize)> {
    let len = len as i64;
    let start = if a < 0 { a + len } else { a };
    let mut end = if b < 0 { b + len } else { b };
    if !exclusive {
        end += 1;
    }
    if start < 0 || start > len {
        return None;
    }
    Some((start as usize, end.clamp(start, len) as usize))
}

/// Ruby's `Regexp.escape`: metacharacters and space backslashed, and the
/// whitespace controls written as their escapes.
pub(super) fn regexp_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\u{c}' => out.push_str("\\f"),
            '\u{b}' => out.push_str("\\v"),
            '.' | '*' | '?' | '+' | '^' | '$' | '|' | '(' | ')' | '[' | ']' | '{' | '}' | '\\'
            | '-' | '#' | ' ' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

/// Ruby's `File.basename(path[, suffix])`, `File.dirname`, `File.extname`
/// on `/`-separated paths (the first two are stdlib's, shared).
pub(super) fn ruby_file_name(which: &str, path: &str, suffix: Option<&str>) -> String {
    match which {
        "dirname" => puppet_model::ruby::ruby_dirname(path),
        "extname" => {
            let base = puppet_model::ruby::ruby_basename(path, None);
            match base.rfind('.') {
                Some(i) if i > 0 && i + 1 < base.len() => base[i..].to_string(),
                _ => String::new(),
            }
        }
        _ => puppet_model::ruby::ruby_basename(path, suffix),
    }
}

/// What an iterating method called without a block returns: an
/// Enumerator over the values it would yield (`None`: not such a call).
fn make_enumerator(recv: &RValue, name: &str, args: &[RValue]) -> Option<Enumerator> {
    // Every block-less call asks (`h['k']`, `a.length`): the method's
    // shape is decided from its name before the receiver's elements are
    // copied (a hash's into new pairs).
    enum Shape {
        Each,
        WithIndex,
        Slice,
        Cons,
    }
    let shape = match (name, args.len()) {
        (
            "each" | "each_entry" | "map" | "collect" | "flat_map" | "collect_concat" | "select"
            | "filter" | "reject" | "sort_by" | "group_by" | "partition" | "min_by" | "max_by"
            | "each_pair" | "each_key" | "each_value" | "times" | "find_index",
            0,
        )
        | ("upto" | "downto", 1) => Shape::Each,
        ("each_with_index", 0) => Shape::WithIndex,
        ("each_slice", 1) => Shape::Slice,
        ("each_cons", 1) => Shape::Cons,
        _ => return None,
    };
    let int_arg = |i: usize| match args.get(i) {
        Some(RValue::Int(n)) if *n > 0 => Some(*n as usize),
        _ => None,
    };
    let list: Vec<RValue> = match recv {
        RValue::Array(a) => a.to_vec(),
        RValue::Hash(h) => match name {
            "each_key" => h.iter().map(|(k, _)| k.clone()).collect(),
            "each_value" => h.iter().map(|(_, v)| v.clone()).collect(),
            _ => h
                .iter()
                .map(|(k, v)| RValue::array(vec![k.clone(), v.clone()]))
                .collect(),
        },
        RValue::Range(a, b, x) => range_items(*a, *b, *x),
        RValue::Int(n) => match (name, args.first()) {
            ("times", None) => range_items(0, *n, true),
            ("upto", Some(RValue::Int(m))) => range_items(*n, *m, false),
            ("downto", Some(RValue::Int(m))) if m <= n => {
                range_items(*m, *n, false).into_iter().rev().collect()
            }
            _ => return None,
        },
        _ => return None,
    };
    let items = match shape {
        Shape::Each => list,
        Shape::WithIndex => list
            .into_iter()
            .enumerate()
            .map(|(i, x)| RValue::array(vec![x, RValue::Int(i as i64)]))
            .collect(),
        Shape::Slice => {
            let n = int_arg(0)?;
            list.chunks(n).map(|c| RValue::array(c.to_vec())).collect()
        }
        Shape::Cons => {
            let n = int_arg(0)?;
            list.windows(n).map(|c| RValue::array(c.to_vec())).collect()
        }
    };
    Some(Enumerator {
        method: name.to_string(),
        items,
        receiver: recv.clone(),
    })
}

/// Methods of an Enumerator: `with_index`/`each_with_index` run the method
/// that made it with the index as a second block argument; the rest act on
/// the values it yields, as `Enumerable` does.
fn enumerator(
    cx: &mut Interp<'_>,
    e: &Enumerator,
    name: &str,
    args: Vec<RValue>,
    block: Option<&Block>,
) -> R<RValue> {
    match (name, block) {
        ("with_index" | "each_with_index", Some(bl)) => {
            let offset = match (name, args.first()) {
                ("with_index", Some(RValue::Int(o))) => *o,
                _ => 0,
            };
            let mut results = Vec::with_capacity(e.items.len());
            for (i, x) in e.items.iter().enumerate() {
                let r = cx.yield_(bl, vec![x.clone(), RValue::Int(i as i64 + offset)])?;
                results.push(r);
            }
            let kept = |keep: bool| -> Vec<RValue> {
                e.items
                    .iter()
                    .zip(&results)
                    .filter(|(_, r)| r.truthy() == keep)
                    .map(|(x, _)| x.clone())
                    .collect()
            };
            let as_receiver = |items: Vec<RValue>| match &e.receiver {
                // Hash#select and #reject answer a Hash.
                RValue::Hash(_) => RValue::hash(
                    items
                        .into_iter()
                        .filter_map(|p| match p {
                            RValue::Array(ref kv) if kv.len() == 2 => {
                                Some((kv[0].clone(), kv[1].clone()))
                            }
                            _ => None,
                        })
                        .collect::<Vec<_>>(),
                ),
                _ => RValue::array(items),
            };
            match e.method.as_str() {
                "map" | "collect" => Ok(RValue::array(results)),
                "flat_map" | "collect_concat" => Ok(RValue::array(
                    results
                        .into_iter()
                        .flat_map(|r| match r {
                            RValue::Array(ref a) => a.to_vec(),
                            o => vec![o],
                        })
                        .collect::<Vec<_>>(),
                )),
                "select" | "filter" => Ok(as_receiver(kept(true))),
                "reject" => Ok(as_receiver(kept(false))),
                "each" | "each_entry" | "each_pair" | "each_key" | "each_value"
                | "each_with_index" | "each_slice" | "each_cons" | "times" | "upto" | "downto" => {
                    Ok(e.receiver.clone())
                }
                other => cx.fail_at(format!(
                    "pverify's ERB does not run `{other}.{name}' (an Enumerator chain it lacks)"
                )),
            }
        }
        ("size" | "count" | "length", None) if args.is_empty() => {
            Ok(RValue::Int(e.items.len() as i64))
        }
        ("next" | "peek", None) if args.is_empty() => match e.items.first() {
            Some(x) => Ok(x.clone()),
            None => {
                cx.error_class = Some("StopIteration".into());
                cx.fail_at("iteration reached an end")
            }
        },
        // Puppet's Iterable over a Hash yields `[key, value]` entries.
        ("hash_style?", None) => Ok(RValue::Bool(matches!(e.receiver, RValue::Hash(_)))),
        ("to_a" | "entries" | "force", None) => Ok(RValue::array(e.items.clone())),
        _ => array(cx, e.items.clone().into(), name, args, block),
    }
}
