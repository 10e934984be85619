//! stdlib's `to_json_pretty` (4.x): Ruby's `JSON.pretty_generate` with its
//! generator options, plus a final newline.

#[allow(unused_imports)]
use super::*;

use super::stdlib::{json_string, ruby_json};

/// Ruby's `JSON::State` layout strings.
struct Layout {
    indent: String,
    space: String,
    space_before: String,
    object_nl: String,
    array_nl: String,
}

pub(super) fn to_json_pretty(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    cx.dispatch(
        &[sig(&[
            ("Variant[Hash, Array]", "data"),
            ("Optional[Boolean]", "skip_undef"),
            (
                "Struct[{indent => Optional[String], space => Optional[String], \
                 space_before => Optional[String], object_nl => Optional[String], \
                 array_nl => Optional[String], allow_nan => Optional[Boolean], \
                 max_nesting => Optional[Integer[-1,default]]}]",
                "opts",
            ),
        ])
        .opt(1)],
        args,
    )?;
    let opts = match args.get(2) {
        Some(Value::Hash(h)) => Some(&**h),
        _ => None,
    };
    let mut data = args[0].clone();
    if matches!(args.get(1), Some(Value::Boolean(true))) {
        data = match &data {
            Value::Array(a) => Value::array(a.iter().filter(|v| !v.is_undef()).cloned().collect()),
            Value::Hash(h) => Value::hash(
                h.iter()
                    .filter(|(_, v)| !v.is_undef())
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect(),
            ),
            other => other.clone(),
        };
    }
    let mut out = ruby_json_pretty(&data, opts);
    out.push('\n');
    Ok(Value::string(out))
}

/// Ruby's `JSON.pretty_generate(data, opts)` (the layout options only).
pub fn ruby_json_pretty(data: &Value, opts: Option<&Map>) -> String {
    let mut layout = Layout {
        indent: "  ".into(),
        space: " ".into(),
        space_before: String::new(),
        object_nl: "\n".into(),
        array_nl: "\n".into(),
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
/// empty one is `{\n  }`).
fn generate(v: &Value, l: &Layout, depth: usize, out: &mut String) {
    match v {
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
