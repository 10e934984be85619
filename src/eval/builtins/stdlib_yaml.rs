//! stdlib's `to_yaml` (4.x): `data.to_yaml(options)`, Ruby's Psych, written
//! natively by `crate::psych`.

#[allow(unused_imports)]
use super::*;

pub(super) fn to_yaml(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    cx.dispatch(&[sig(&[("Any", "data"), ("Hash", "options")]).opt(1)], args)?;
    let options = match args.get(1) {
        Some(Value::Hash(h)) => crate::psych::options_from(h),
        _ => Ok(crate::psych::Options::default()),
    };
    let text = options.and_then(|o| {
        let node = crate::psych::value_node(&args[0], o.fold_width)?;
        crate::psych::dump(&node, &o)
    });
    match text {
        Ok(t) => Ok(Value::string(t)),
        Err(e) => cx.fail(e),
    }
}
