//! Ruby's JSON generator (`JSON.generate`, `JSON.pretty_generate`) and
//! the `to_s`/`inspect` of a value as a Ruby function receives it.

use super::RubyVersion;
use crate::values::{Map, Value};

/// How deep `JSON.generate`, `to_json` and `JSON.pretty_generate` nest
/// arrays and hashes (`JSON::State#max_nesting`'s default; `JSON.dump`
/// has none).
pub const MAX_NESTING: usize = 100;

/// Ruby's `JSON::NestingError` for a value nested deeper than
/// [`MAX_NESTING`]: `nesting of 100 is too deep` (json 2.6 and 2.7 alike).
/// The walk stops at that depth, so it is cheap and bounded.
pub fn json_nesting_error(v: &Value) -> Option<String> {
    fn too_deep(v: &Value, depth: usize) -> bool {
        if crate::budget::walk_stops_at(v) {
            return false;
        }
        match v {
            Value::Array(items) => {
                depth >= MAX_NESTING || items.iter().any(|x| too_deep(x, depth + 1))
            }
            Value::Hash(h) => depth >= MAX_NESTING || h.iter().any(|(_, x)| too_deep(x, depth + 1)),
            _ => false,
        }
    }
    too_deep(v, 0).then(|| format!("nesting of {MAX_NESTING} is too deep"))
}

/// The `JSON::GeneratorError` Ruby's `JSON.generate` raises for text holding
/// bytes that are not UTF-8 (`crate::bad_bytes` stand-ins): the first such
/// string it writes decides. json 2.9 (Ruby 3.3) always says the sequence is
/// malformed; json 2.6 (Ruby 3.1) reads the first bad byte as the lead of a
/// sequence as long as its high bits say, and says "partial character" when
/// that runs past the string's end.
pub fn json_utf8_error(v: &Value, ruby: super::RubyVersion) -> Option<&'static str> {
    const MALFORMED: &str = "source sequence is illegal/malformed utf-8";
    const PARTIAL: &str = "partial character in source, but hit end";
    fn first_bad(v: &Value) -> Option<&str> {
        if crate::budget::walk_stops_at(v) {
            return None;
        }
        match v {
            Value::String(s) => crate::bad_bytes::holds_bad_byte(s).then_some(&**s),
            Value::Array(items) => items.iter().find_map(first_bad),
            Value::Hash(h) => h
                .iter()
                .find_map(|(k, x)| first_bad(k).or_else(|| first_bad(x))),
            _ => None,
        }
    }
    let s = first_bad(v)?;
    if ruby == super::RubyVersion::V3_3 {
        return Some(MALFORMED);
    }
    let bytes = crate::bad_bytes::encode(s);
    let mut at = 0;
    while at < bytes.len() {
        let lead = bytes[at];
        let extra = match lead {
            0xC0..=0xDF => 1,
            0xE0..=0xEF => 2,
            0xF0..=0xF7 => 3,
            0xF8..=0xFB => 4,
            0xFC..=0xFF => 5,
            _ => 0,
        };
        if at + extra >= bytes.len() {
            return Some(PARTIAL);
        }
        if std::str::from_utf8(&bytes[at..=at + extra]).is_err() {
            return Some(MALFORMED);
        }
        at += extra + 1;
    }
    Some(MALFORMED)
}

/// Ruby's `JSON.generate` of a value as a function receives it (without
/// the nesting check: [`json_nesting_error`]; `JSON.dump` has none, so the
/// walk grows its stack on the heap for data nested deeper than any stack).
pub fn ruby_json(v: &Value) -> String {
    stacker::maybe_grow(256 << 10, 4 << 20, || ruby_json_nested(v))
}

fn ruby_json_nested(v: &Value) -> String {
    if crate::budget::walk_stops_at(v) {
        return String::new();
    }
    match v {
        Value::Undef => "null".into(),
        Value::Boolean(b) => b.to_string(),
        Value::Integer(i) => i.to_string(),
        Value::Float(f) => ruby_to_s(&Value::Float(*f)),
        // A Regexp is written as its `to_s`.
        Value::Regexp(src) => json_string(&crate::values::types::regex::ruby_to_s(src)),
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(ruby_json).collect();
            format!("[{}]", parts.join(","))
        }
        Value::Hash(h) => {
            let parts: Vec<String> = h
                .iter()
                .map(|(k, v)| format!("{}:{}", json_string(&ruby_to_s(k)), ruby_json(v)))
                .collect();
            format!("{{{}}}", parts.join(","))
        }
        other => json_string(&ruby_to_s(other)),
    }
}

/// A JSON string as Ruby's generator writes it (no `\/`, non-ASCII as is).
pub fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Ruby's `JSON::State` layout strings.
struct Layout {
    indent: String,
    space: String,
    space_before: String,
    object_nl: String,
    array_nl: String,
    /// Whether an empty array or object is `[]`/`{}` (json 2.7 and later).
    compact_empty: bool,
}

/// Ruby's `JSON.pretty_generate(data, opts)` (the layout options only),
/// as `ruby`'s json library writes it.
pub fn ruby_json_pretty(data: &Value, opts: Option<&Map>, ruby: RubyVersion) -> String {
    let mut layout = Layout {
        indent: "  ".into(),
        space: " ".into(),
        space_before: String::new(),
        object_nl: "\n".into(),
        array_nl: "\n".into(),
        compact_empty: ruby.json_compact_empty(),
    };
    for (k, v) in opts.into_iter().flatten() {
        let Some(s) = v.as_str() else { continue };
        match k.as_str() {
            Some("indent") => layout.indent = s.to_string(),
            Some("space") => layout.space = s.to_string(),
            Some("space_before") => layout.space_before = s.to_string(),
            Some("object_nl") => layout.object_nl = s.to_string(),
            Some("array_nl") => layout.array_nl = s.to_string(),
            _ => {}
        }
    }
    let mut out = String::new();
    generate(data, &layout, 1, &mut out);
    out
}

/// Ruby's generator (json 2.6): an array is `[`, array_nl, the elements,
/// array_nl, the closing indent and `]` (so an empty one is `[\n\n  ]`); an
/// object writes object_nl after its elements only when it has some (an
/// empty one is `{\n  }`). json 2.7 writes an empty one as `[]`/`{}`.
fn generate(v: &Value, l: &Layout, depth: usize, out: &mut String) {
    if crate::budget::walk_stops_at(v) {
        return;
    }
    match v {
        Value::Array(items) if items.is_empty() && l.compact_empty => out.push_str("[]"),
        Value::Hash(h) if h.is_empty() && l.compact_empty => out.push_str("{}"),
        Value::Array(items) => {
            out.push('[');
            out.push_str(&l.array_nl);
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                    out.push_str(&l.array_nl);
                }
                out.push_str(&l.indent.repeat(depth));
                generate(item, l, depth + 1, out);
            }
            out.push_str(&l.array_nl);
            out.push_str(&l.indent.repeat(depth - 1));
            out.push(']');
        }
        Value::Hash(h) => {
            out.push('{');
            out.push_str(&l.object_nl);
            for (i, (k, item)) in h.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                    out.push_str(&l.object_nl);
                }
                out.push_str(&l.indent.repeat(depth));
                out.push_str(&json_string(&ruby_to_s(k)));
                out.push_str(&l.space_before);
                out.push(':');
                out.push_str(&l.space);
                generate(item, l, depth + 1, out);
            }
            if !h.is_empty() {
                out.push_str(&l.object_nl);
            }
            out.push_str(&l.indent.repeat(depth - 1));
            out.push('}');
        }
        other => out.push_str(&ruby_json(other)),
    }
}

/// Ruby's `to_s` of a value as a Ruby function receives it.
pub fn ruby_to_s(v: &Value) -> String {
    match v {
        Value::Undef => String::new(),
        Value::Array(_) | Value::Hash(_) => ruby_inspect(v),
        other => other.to_string(),
    }
}

/// Ruby's `inspect` of a value as a Ruby function receives it.
pub fn ruby_inspect(v: &Value) -> String {
    match v {
        Value::Undef => "nil".into(),
        Value::Default => ":default".into(),
        Value::String(s) => crate::names::ruby_inspect_str(s),
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(ruby_inspect).collect();
            format!("[{}]", parts.join(", "))
        }
        Value::Hash(h) => {
            let parts: Vec<String> = h
                .iter()
                .map(|(k, v)| format!("{}=>{}", ruby_inspect(k), ruby_inspect(v)))
                .collect();
            format!("{{{}}}", parts.join(", "))
        }
        Value::Sensitive(_) => "#<Sensitive [value redacted]>".into(),
        Value::Uri(u) => u.inspect(),
        other => other.to_string(),
    }
}
