//! stdlib's `to_json_pretty` (4.x): Ruby's `JSON.pretty_generate` with its
//! generator options, plus a final newline.

use super::signatures::sig;
use super::Cx;
use crate::eval::expr::R;
use crate::eval::value::Value;
use puppet_model::ruby::ruby_json_pretty;

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
    if let Some(e) = puppet_model::ruby::json_nesting_error(&data) {
        return cx.fail(e);
    }
    if let Some(e) = puppet_model::ruby::json_utf8_error(&data, cx.c.node.puppet.ruby()) {
        return cx.fail(e);
    }
    let mut out = ruby_json_pretty(&data, opts, cx.c.node.puppet.ruby());
    out.push('\n');
    Ok(Value::string(out))
}
