//! Regular expressions: match, regsubst.

use super::ruby::{ruby_class, type_value};
use super::signatures::sig;
use super::Cx;
use crate::eval::expr::R;
use crate::eval::value::Value;
use puppet_model::ruby::ruby_to_s;
use puppet_model::types::PType;
use puppet_syntax::error::INVALID_BYTE_SEQUENCE;

pub(super) fn match_(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let i = cx.dispatch(
        &[
            sig(&[("String", "string"), ("Variant[Any, Type]", "pattern")]),
            sig(&[
                ("Array[String]", "string"),
                ("Variant[Any, Type]", "pattern"),
            ]),
        ],
        args,
    )?;
    super::strings::refuse_bad_bytes(cx, &args[0], INVALID_BYTE_SEQUENCE)?;
    // The captures are in the subject's encoding.
    let in_encoding = |subject: &Value, found: Value| match (subject, &found) {
        (Value::String(s), Value::Array(caps)) if crate::bad_bytes::is_binary_string(s) => {
            Value::array(crate::bad_bytes::parts_in_encoding_of(s, caps.to_vec()))
        }
        _ => found,
    };
    if i == 0 {
        let found = match_one(cx, args[0].as_str().unwrap_or_default(), &args[1])?;
        return Ok(in_encoding(&args[0], found));
    }
    let mut out = Vec::new();
    if let Value::Array(items) = &args[0] {
        for s in items.iter() {
            let found = match_one(cx, s.as_str().unwrap_or_default(), &args[1])?;
            out.push(in_encoding(s, found));
        }
    }
    Ok(Value::array(out))
}

pub(super) fn match_one(cx: &Cx<'_, '_>, s: &str, pattern: &Value) -> R<Value> {
    match pattern {
        Value::String(p) | Value::Regexp(p) => do_match(cx, s, p),
        Value::Array(items) => {
            fn flat(v: &Value, out: &mut Vec<Value>) {
                match v {
                    Value::Array(a) => a.iter().for_each(|x| flat(x, out)),
                    o => out.push(o.clone()),
                }
            }
            let mut all = Vec::new();
            items.iter().for_each(|x| flat(x, &mut all));
            for p in all {
                let r = match_one(cx, s, &p)?;
                if !r.is_undef() {
                    return Ok(r);
                }
            }
            Ok(Value::Undef)
        }
        Value::Type(t) => match_type(cx, s, t),
        other => cx.fail(format!(
            "match() expects pattern of T, where T is String, Regexp, Regexp[r], Pattern[p], or Array[T]. Got {}",
            ruby_class(other)
        )),
    }
}

pub(super) fn match_type(cx: &Cx<'_, '_>, s: &str, t: &PType) -> R<Value> {
    match t {
        PType::Regexp(Some(p)) => do_match(cx, s, p),
        PType::Regexp(None) => cx.fail("Given Regexp Type has no regular expression"),
        PType::Pattern(ps) => {
            for p in ps {
                let r = do_match(cx, s, p)?;
                if !r.is_undef() {
                    return Ok(r);
                }
            }
            Ok(Value::Undef)
        }
        PType::Variant(ts) => {
            for t in ts {
                let r = match_type(cx, s, t)?;
                if !r.is_undef() {
                    return Ok(r);
                }
            }
            Ok(Value::Undef)
        }
        PType::TypeAlias { .. } => match t.alias_target() {
            Some(r) => match_type(cx, s, &r),
            None => Ok(Value::Undef),
        },
        other => cx.fail(format!(
            "match() expects pattern of T, where T is String, Regexp, Regexp[r], Pattern[p], or Array[T]. Got {}",
            ruby_class(&type_value(other.clone()))
        )),
    }
}

pub(super) fn do_match(cx: &Cx<'_, '_>, s: &str, src: &str) -> R<Value> {
    match crate::eval::typeops::regex_captures(src, s) {
        Ok(Some(caps)) => Ok(Value::array(caps)),
        Ok(None) => Ok(Value::Undef),
        Err(e) => cx.fail(e),
    }
}

pub(super) fn regsubst(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let i = cx.dispatch(
        &[
            sig(&[
                ("Variant[Array[String],String]", "target"),
                ("String", "pattern"),
                ("Variant[String,Hash[String,String]]", "replacement"),
                ("Optional[Pattern[/^[GEIM]*$/]]", "flags"),
                ("Enum['N','E','S','U']", "encoding"),
            ])
            .opt(3),
            sig(&[
                ("Variant[Array[String],String]", "target"),
                ("Variant[Regexp,Type[Regexp]]", "pattern"),
                ("Variant[String,Hash[String,String]]", "replacement"),
                ("Pattern[/^G?$/]", "flags"),
            ])
            .opt(3),
        ],
        args,
    )?;
    // Ruby's regexps refuse text holding bytes that are not UTF-8.
    super::strings::refuse_bad_bytes(cx, &args[0], INVALID_BYTE_SEQUENCE)?;
    let flags = args.get(3).and_then(|v| v.as_str()).unwrap_or("");
    let global = flags.contains('G');
    let src = if i == 0 {
        let mut inline = String::new();
        if flags.contains('I') {
            inline.push('i');
        }
        if flags.contains('E') {
            inline.push('x');
        }
        if flags.contains('M') {
            inline.push('m');
        }
        let p = args[1].as_str().unwrap_or_default();
        if inline.is_empty() {
            p.to_string()
        } else {
            format!("(?{inline}){p}")
        }
    } else {
        match &args[1] {
            Value::Regexp(r) => r.to_string(),
            Value::Type(t) => match t.as_ref() {
                PType::Regexp(Some(r)) => r.clone(),
                _ => String::new(),
            },
            _ => String::new(),
        }
    };
    let re = match puppet_model::types::regex::compile(&src) {
        Ok(re) => re,
        Err(e) => return cx.fail(e),
    };
    let one = |s: &str| -> Result<String, String> { substitute(&re, &src, s, &args[2], global) };
    // Ruby's `gsub` answers in its receiver's encoding.
    let in_encoding = |x: &Value, text: String| crate::bad_bytes::in_encoding_of_value(x, text);
    let r = match &args[0] {
        Value::Array(items) => items
            .iter()
            .map(|x| one(x.as_str().unwrap_or_default()).map(|t| in_encoding(x, t)))
            .collect::<Result<Vec<_>, _>>()
            .map(Value::array),
        other => one(other.as_str().unwrap_or_default()).map(|t| in_encoding(other, t)),
    };
    r.map_err(|e| cx.err(e))
}

/// Ruby's `sub`/`gsub` with a replacement template (`\0`, `\1`, `\k<n>`,
/// `` \` ``, `\'`, `\\`) or a hash of replacements.
pub(super) fn substitute(
    re: &puppet_model::types::regex::Regex,
    src: &str,
    s: &str,
    replacement: &Value,
    global: bool,
) -> Result<String, String> {
    let mut out = String::new();
    let mut last = 0;
    for caps in re.captures_iter(s) {
        let caps = caps.map_err(|e| format!("Error while matching /{src}/: {e}"))?;
        let Some(m) = caps.get(0) else { continue };
        out.push_str(&s[last..m.start()]);
        match replacement {
            Value::Hash(h) => {
                if let Some(v) = h.get(&Value::string(m.as_str())) {
                    out.push_str(&ruby_to_s(v));
                }
            }
            other => {
                let t: Vec<char> = other.as_str().unwrap_or_default().chars().collect();
                let mut i = 0;
                while i < t.len() {
                    if t[i] != '\\' || i + 1 == t.len() {
                        out.push(t[i]);
                        i += 1;
                        continue;
                    }
                    let n = t[i + 1];
                    i += 2;
                    match n {
                        '0'..='9' => {
                            let g = n.to_digit(10).unwrap_or(0) as usize;
                            if let Some(x) = caps.get(g) {
                                out.push_str(x.as_str());
                            }
                        }
                        '&' => out.push_str(m.as_str()),
                        '`' => out.push_str(&s[..m.start()]),
                        '\'' => out.push_str(&s[m.end()..]),
                        '\\' => out.push('\\'),
                        'k' if t.get(i) == Some(&'<') => {
                            match t[i..].iter().position(|&c| c == '>') {
                                Some(end) => {
                                    let name: String = t[i + 1..i + end].iter().collect();
                                    if let Some(x) = caps.name(&name) {
                                        out.push_str(x.as_str());
                                    }
                                    i += end + 1;
                                }
                                None => {
                                    out.push('\\');
                                    out.push('k');
                                }
                            }
                        }
                        other => {
                            out.push('\\');
                            out.push(other);
                        }
                    }
                }
            }
        }
        last = m.end();
        if !global {
            break;
        }
    }
    out.push_str(&s[last..]);
    Ok(out)
}
