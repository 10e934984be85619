//! String functions: strip, chomp, case, join, length, empty, versioncmp.

use super::ruby::iterable;
use super::signatures::{sig, Sig};
use super::Cx;
use crate::bad_bytes::in_encoding_of;
use crate::eval::expr::R;
use crate::eval::value::Value;
use puppet_model::ruby::ruby_to_s;
use puppet_model::types::PType;

pub(super) const STRING_OR_ITERABLE: [Sig; 3] = [
    sig(&[("Numeric", "arg")]),
    sig(&[("String", "arg")]),
    sig(&[("Iterable[Variant[String, Numeric]]", "arg")]),
];

/// Fails with Ruby's `message` when `v` (a string, or one inside an array
/// or hash) holds bytes that are not UTF-8 (`crate::bad_bytes`): what the
/// Ruby method Puppet calls raises on such text. Free until a file with
/// such bytes was read.
pub(super) fn refuse_bad_bytes(cx: &mut Cx<'_, '_>, v: &Value, message: &str) -> R<()> {
    fn holds(v: &Value) -> bool {
        match v {
            Value::String(s) => crate::bad_bytes::holds_bad_byte(s),
            Value::Array(items) => items.iter().any(holds),
            Value::Hash(h) => h.iter().any(|(k, x)| holds(k) || holds(x)),
            Value::Sensitive(inner) => holds(inner),
            _ => false,
        }
    }
    if cx.c.invalid_utf8.is_some() && holds(v) {
        return cx.fail(message);
    }
    Ok(())
}

/// Numbers as they are, strings through `f`, iterables element by element.
pub(super) fn string_op(cx: &mut Cx<'_, '_>, args: &[Value], f: fn(&str) -> String) -> R<Value> {
    let apply = |s: &std::sync::Arc<str>| in_encoding_of(s, f(s));
    match cx.dispatch(&STRING_OR_ITERABLE, args)? {
        0 => Ok(args[0].clone()),
        1 => Ok(match &args[0] {
            Value::String(s) => apply(s),
            _ => Value::string(""),
        }),
        _ => {
            let (items, _) = iterable(&args[0]).unwrap_or_default();
            Ok(Value::array(
                items
                    .into_iter()
                    .map(|x| match &x {
                        Value::String(s) => apply(s),
                        _ => x,
                    })
                    .collect(),
            ))
        }
    }
}

pub(super) fn is_ruby_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\x0b' | '\x0c' | '\r' | '\0')
}

pub(super) fn strip(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    refuse_bad_bytes_on_ruby_3_3(cx, args)?;
    string_op(cx, args, |s| s.trim_matches(is_ruby_space).to_string())
}

/// Ruby 3.3's `String#strip` and `rstrip` refuse text holding bytes that are
/// not UTF-8 (Ruby 3.1's strip it).
pub(super) fn refuse_bad_bytes_on_ruby_3_3(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<()> {
    if cx.c.node.puppet.ruby() == puppet_model::ruby::RubyVersion::V3_3 {
        if let Some(v) = args.first() {
            refuse_bad_bytes(cx, v, puppet_syntax::error::INVALID_BYTE_SEQUENCE)?;
        }
    }
    Ok(())
}

pub(super) fn lstrip(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    string_op(cx, args, |s| {
        s.trim_start_matches(is_ruby_space).to_string()
    })
}

pub(super) fn rstrip(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    refuse_bad_bytes_on_ruby_3_3(cx, args)?;
    string_op(cx, args, |s| s.trim_end_matches(is_ruby_space).to_string())
}

pub(super) fn chomp(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    string_op(cx, args, |s| {
        s.strip_suffix("\r\n")
            .or_else(|| s.strip_suffix('\n'))
            .or_else(|| s.strip_suffix('\r'))
            .unwrap_or(s)
            .to_string()
    })
}

pub(super) fn chop(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    string_op(cx, args, |s| match s.strip_suffix("\r\n") {
        Some(x) => x.to_string(),
        None => {
            let mut x = s.to_string();
            x.pop();
            x
        }
    })
}

/// Ruby's `String#capitalize`: the first character in title case, the rest
/// in lower case.
pub(super) fn ruby_capitalize(s: &str) -> String {
    let mut cs = s.chars();
    match cs.next() {
        None => String::new(),
        Some(first) => {
            let mut out = title_case(first);
            out.push_str(&cs.as_str().to_lowercase());
            out
        }
    }
}

pub(super) fn title_case(c: char) -> String {
    match c {
        'ß' => "Ss".into(),
        'ǆ' | 'ǅ' | 'Ǆ' => "ǅ".into(),
        'ǉ' | 'ǈ' | 'Ǉ' => "ǈ".into(),
        'ǌ' | 'ǋ' | 'Ǌ' => "ǋ".into(),
        'ǳ' | 'ǲ' | 'Ǳ' => "ǲ".into(),
        c => c.to_uppercase().collect(),
    }
}

pub(super) fn capitalize(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    if let Some(v) = args.first() {
        refuse_bad_bytes(cx, v, crate::bad_bytes::INPUT_STRING_INVALID)?;
    }
    string_op(cx, args, ruby_capitalize)
}

pub(super) fn camelcase(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    if let Some(v) = args.first() {
        // Puppet's camelcase splits with a regexp.
        refuse_bad_bytes(cx, v, puppet_syntax::error::INVALID_BYTE_SEQUENCE)?;
    }
    string_op(cx, args, |s| {
        let mut parts: Vec<&str> = s.split('_').collect();
        while parts.last() == Some(&"") {
            parts.pop();
        }
        parts.into_iter().map(ruby_capitalize).collect()
    })
}

pub(super) const STRING_DATA: [Sig; 4] = [
    sig(&[("Numeric", "arg")]),
    sig(&[("String", "arg")]),
    sig(&[("Array[StringData]", "arg")]),
    sig(&[("Hash[StringData, StringData]", "arg")]),
];

pub(super) fn deep_case(v: &Value, up: bool) -> Value {
    match v {
        Value::String(s) => in_encoding_of(
            s,
            if up {
                s.to_uppercase()
            } else {
                s.to_lowercase()
            },
        ),
        Value::Array(items) => Value::array(items.iter().map(|x| deep_case(x, up)).collect()),
        Value::Hash(h) => Value::hash(
            h.iter()
                .map(|(k, x)| (deep_case(k, up), deep_case(x, up)))
                .collect(),
        ),
        other => other.clone(),
    }
}

pub(super) fn upcase(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    cx.dispatch(&STRING_DATA, args)?;
    refuse_bad_bytes(cx, &args[0], crate::bad_bytes::INPUT_STRING_INVALID)?;
    Ok(deep_case(&args[0], true))
}

pub(super) fn downcase(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    cx.dispatch(&STRING_DATA, args)?;
    refuse_bad_bytes(cx, &args[0], crate::bad_bytes::INPUT_STRING_INVALID)?;
    Ok(deep_case(&args[0], false))
}

pub(super) fn join(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    cx.dispatch(
        &[sig(&[("Array", "arg"), ("String", "delimiter")]).opt(1)],
        args,
    )?;
    let sep = args.get(1).and_then(|v| v.as_str()).unwrap_or("");
    /// Each piece's text, and whether it is a binary String.
    fn walk(v: &Value, out: &mut Vec<(String, bool)>) {
        match v {
            Value::Array(items) => items.iter().for_each(|x| walk(x, out)),
            Value::String(s) => out.push((s.to_string(), crate::bad_bytes::is_binary_string(s))),
            other => out.push((ruby_to_s(other), false)),
        }
    }
    let mut parts = Vec::new();
    if let Value::Array(items) = &args[0] {
        items.iter().for_each(|x| walk(x, &mut parts));
    }
    let mut text = String::new();
    for (i, (piece, _)) in parts.iter().enumerate() {
        if i > 0 {
            text.push_str(sep);
        }
        text.push_str(piece);
    }
    if !crate::bad_bytes::binary_made() || cx.c.invalid_utf8.is_some() {
        return Ok(Value::string(text));
    }
    // Ruby's `Array#join` takes the encoding of the first element when it
    // is a String (not one inside a nested array), then appends.
    if let Some(Value::Array(items)) = args.first() {
        if !matches!(items.first(), Some(Value::String(_))) {
            if let Some(first) = parts.first_mut() {
                first.1 = false;
            }
        }
    }
    let sep_binary =
        matches!(args.get(1), Some(Value::String(s)) if crate::bad_bytes::is_binary_string(s));
    let mut encoding = crate::bad_bytes::Appended::JOINED;
    for (i, (piece, binary)) in parts.iter().enumerate() {
        if i > 0 {
            encoding = encoding.then(sep, sep_binary).or_else(|m| cx.fail(m))?;
        }
        encoding = encoding.then(piece, *binary).or_else(|m| cx.fail(m))?;
    }
    Ok(if encoding.is_binary() {
        crate::bad_bytes::mark_binary(text.into())
    } else {
        Value::string(text)
    })
}

pub(super) fn length(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    cx.dispatch(
        &[
            sig(&[("Collection", "arg")]),
            sig(&[("String", "arg")]),
            sig(&[("Binary", "arg")]),
        ],
        args,
    )?;
    Ok(Value::Integer(value_length(&args[0])))
}

pub(super) fn size(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    cx.dispatch(
        &[sig(&[("Variant[Collection, String, Binary]", "arg")])],
        args,
    )?;
    Ok(Value::Integer(value_length(&args[0])))
}

pub(super) fn value_length(v: &Value) -> i64 {
    match v {
        Value::String(s) => s.chars().count() as i64,
        Value::Array(a) => a.len() as i64,
        Value::Hash(h) => h.len() as i64,
        Value::Binary(b) => b.len() as i64,
        _ => 0,
    }
}

pub(super) fn empty(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let i = cx.dispatch(
        &[
            sig(&[("Collection", "coll")]),
            sig(&[("Sensitive[String]", "str")]),
            sig(&[("String", "str")]),
            sig(&[("Numeric", "num")]),
            sig(&[("Binary", "bin")]),
            sig(&[("Undef", "x")]),
        ],
        args,
    )?;
    Ok(Value::Boolean(match (i, &args[0]) {
        (1, Value::Sensitive(inner)) => inner.as_str().is_some_and(str::is_empty),
        (3, _) => {
            cx.warn_once_here("Calling function empty() with Numeric value is deprecated.");
            false
        }
        (5, _) => true,
        (_, v) => value_length(v) == 0,
    }))
}

/// Ruby's `Integer(s)` (`radix` `None` reads `0x`, `0b`, `0o`, `0`
/// prefixes): `None` when Ruby raises.
pub(super) fn ruby_integer(s: &str, radix: Option<u32>) -> Option<i64> {
    let t = s.trim_matches(|c: char| c.is_ascii_whitespace());
    let (neg, t) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let lower = t.to_ascii_lowercase();
    let (base, digits) = match radix {
        None => {
            if let Some(d) = lower.strip_prefix("0x") {
                (16, d)
            } else if let Some(d) = lower.strip_prefix("0b") {
                (2, d)
            } else if let Some(d) = lower.strip_prefix("0o") {
                (8, d)
            } else if let Some(d) = lower.strip_prefix("0d") {
                (10, d)
            } else if lower.len() > 1 && lower.starts_with('0') {
                (8, &lower[1..])
            } else {
                (10, lower.as_str())
            }
        }
        Some(r) => {
            let prefix = match r {
                16 => "0x",
                2 => "0b",
                8 => "0o",
                10 => "0d",
                _ => "",
            };
            match lower.strip_prefix(prefix).filter(|_| !prefix.is_empty()) {
                Some(d) => (r, d),
                None if r == 8 && lower.len() > 1 && lower.starts_with('0') => (8, &lower[1..]),
                None => (r, lower.as_str()),
            }
        }
    };
    if digits.is_empty()
        || digits.starts_with('_')
        || digits.ends_with('_')
        || digits.contains("__")
    {
        return None;
    }
    let clean: String = digits.chars().filter(|c| *c != '_').collect();
    let n = i64::from_str_radix(&clean, base).ok()?;
    Some(if neg { -n } else { n })
}

/// Ruby's `Float(s)`: decimal (with `_` between digits and an exponent) or
/// hexadecimal; `None` when Ruby raises.
pub(super) fn ruby_float_of(s: &str) -> Option<f64> {
    let t = s.trim_matches(|c: char| c.is_ascii_whitespace());
    let (neg, body) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    if let Some(h) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        let n = i64::from_str_radix(&h.replace('_', ""), 16).ok()? as f64;
        return Some(if neg { -n } else { n });
    }
    let ok = {
        let b = body.as_bytes();
        let mut i = 0;
        let digits = |i: &mut usize| {
            let start = *i;
            while *i < b.len() && (b[*i].is_ascii_digit() || (b[*i] == b'_' && *i > start)) {
                *i += 1;
            }
            *i > start && b[*i - 1] != b'_'
        };
        let mut ok = digits(&mut i);
        if ok && i < b.len() && b[i] == b'.' {
            i += 1;
            ok = digits(&mut i);
        }
        if ok && i < b.len() && (b[i] == b'e' || b[i] == b'E') {
            i += 1;
            if i < b.len() && (b[i] == b'-' || b[i] == b'+') {
                i += 1;
            }
            ok = digits(&mut i);
        }
        ok && i == b.len()
    };
    if !ok {
        return None;
    }
    let f: f64 = body.replace('_', "").parse().ok()?;
    Some(if neg { -f } else { f })
}

pub(super) fn versioncmp(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    cx.dispatch(
        &[sig(&[
            ("String", "a"),
            ("String", "b"),
            ("Boolean", "ignore_trailing_zeroes"),
        ])
        .opt(2)],
        args,
    )?;
    let a = args[0].as_str().unwrap_or_default();
    let b = args[1].as_str().unwrap_or_default();
    let ignore = matches!(args.get(2), Some(Value::Boolean(true)));
    Ok(Value::Integer(version_cmp(a, b, ignore)))
}

/// `Puppet::Util::Package.versioncmp`.
pub(super) fn version_cmp(a: &str, b: &str, ignore_trailing_zeroes: bool) -> i64 {
    fn normalize(v: &str) -> String {
        let mut parts: Vec<String> = v.split('-').map(str::to_string).collect();
        if let Some(first) = parts.first_mut() {
            let trimmed = first.trim_end_matches(['.', '0']).len();
            first.truncate(trimmed);
        }
        parts.join("-")
    }
    /// The version's pieces: `-`, `.`, a run of digits, or a run of
    /// anything else (all separators are ASCII, so byte offsets are char
    /// boundaries).
    fn scan(v: &str) -> impl Iterator<Item = &str> {
        let b = v.as_bytes();
        let mut i = 0;
        std::iter::from_fn(move || {
            let start = i;
            let c = *b.get(i)?;
            i += 1;
            if c != b'-' && c != b'.' {
                let digits = c.is_ascii_digit();
                while i < b.len()
                    && if digits {
                        b[i].is_ascii_digit()
                    } else {
                        !(b[i] == b'-' || b[i] == b'.' || b[i].is_ascii_digit())
                    }
                {
                    i += 1;
                }
            }
            Some(&v[start..i])
        })
    }
    fn ord(o: std::cmp::Ordering) -> i64 {
        match o {
            std::cmp::Ordering::Less => -1,
            std::cmp::Ordering::Equal => 0,
            std::cmp::Ordering::Greater => 1,
        }
    }
    let (va, vb): (std::borrow::Cow<str>, std::borrow::Cow<str>) = if ignore_trailing_zeroes {
        (normalize(a).into(), normalize(b).into())
    } else {
        (a.into(), b.into())
    };
    for (x, y) in scan(&va).zip(scan(&vb)) {
        if x == y {
            continue;
        }
        if x == "-" {
            return -1;
        }
        if y == "-" {
            return 1;
        }
        if x == "." {
            return -1;
        }
        if y == "." {
            return 1;
        }
        let num = |s: &str| !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit());
        if num(x) && num(y) {
            if x.starts_with('0') || y.starts_with('0') {
                return ord(x.to_uppercase().cmp(&y.to_uppercase()));
            }
            // Compare as integers of any size.
            let (x, y) = (x.trim_start_matches('0'), y.trim_start_matches('0'));
            return ord(x.len().cmp(&y.len()).then_with(|| x.cmp(y)));
        }
        return ord(x.to_uppercase().cmp(&y.to_uppercase()));
    }
    // One ran out: Ruby compares the whole strings.
    ord(va.as_bytes().cmp(vb.as_bytes()))
}

pub(super) fn split(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let mut sigs = vec![
        sig(&[("String", "str"), ("String", "pattern")]),
        sig(&[("String", "str"), ("Regexp", "pattern")]),
        sig(&[("String", "str"), ("Type[Regexp]", "pattern")]),
    ];
    // Puppet 8 also splits a Sensitive string, into a Sensitive array.
    if cx.c.node.puppet == crate::version::PuppetVersion::V8 {
        sigs.extend([
            sig(&[("Sensitive[String]", "sensitive"), ("String", "pattern")]),
            sig(&[("Sensitive[String]", "sensitive"), ("Regexp", "pattern")]),
            sig(&[
                ("Sensitive[String]", "sensitive"),
                ("Type[Regexp]", "pattern"),
            ]),
        ]);
    }
    cx.dispatch(&sigs, args)?;
    let (s, sensitive) = match &args[0] {
        Value::Sensitive(inner) => (inner.as_str().unwrap_or_default(), true),
        v => (v.as_str().unwrap_or_default(), false),
    };
    // Text of a file that was not UTF-8: Ruby's `String#split` refuses it.
    refuse_bad_bytes(cx, &args[0], puppet_syntax::error::INVALID_BYTE_SEQUENCE)?;
    let pattern = match &args[1] {
        Value::String(p) | Value::Regexp(p) => p.to_string(),
        Value::Type(t) => match t.as_ref() {
            PType::Regexp(Some(p)) => p.clone(),
            _ => String::new(),
        },
        _ => String::new(),
    };
    let mut parts = crate::eval::typeops::regex_split(&pattern, s).map_err(|m| cx.err(m))?;
    if let Value::String(receiver) = &args[0] {
        parts = crate::bad_bytes::parts_in_encoding_of(receiver, parts);
    }
    let parts = Value::array(parts);
    Ok(if sensitive {
        Value::Sensitive(std::sync::Arc::new(parts))
    } else {
        parts
    })
}
