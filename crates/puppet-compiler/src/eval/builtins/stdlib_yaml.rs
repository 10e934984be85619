//! stdlib's `to_yaml` (4.x): `data.to_yaml(options)`, Ruby's Psych, written
//! natively by `puppet_model::psych`.

use super::signatures::sig;
use super::Cx;
use crate::eval::expr::R;
use crate::eval::value::Value;

pub(super) fn to_yaml(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    cx.dispatch(&[sig(&[("Any", "data"), ("Hash", "options")]).opt(1)], args)?;
    let options = match args.get(1) {
        Some(Value::Hash(h)) => puppet_model::psych::options_from(h),
        _ => Ok(puppet_model::psych::Options::default()),
    };
    let text = options.and_then(|o| {
        let node = puppet_model::psych::value_node(&args[0], o.fold_width)?;
        puppet_model::psych::dump(&node, &o)
    });
    match text {
        Ok(t) => Ok(Value::string(t)),
        Err(e) => cx.fail(e),
    }
}
