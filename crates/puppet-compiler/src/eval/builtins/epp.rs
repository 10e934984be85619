//! `epp` and `inline_epp`: Puppet's signatures; the rendering is in
//! `eval/templates_epp.rs`.

use super::signatures::{sig, Sig};
use super::Cx;
use crate::eval::expr::R;
use crate::eval::value::Value;

const EPP: [Sig; 1] = [sig(&[
    ("String", "path"),
    ("Hash[Pattern[/^\\w+$/], Any]", "parameters"),
])
.opt(1)];

const INLINE_EPP: [Sig; 1] = [sig(&[
    ("String", "template"),
    ("Hash[Pattern[/^\\w+$/], Any]", "parameters"),
])
.opt(1)];

pub(super) fn epp(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    cx.dispatch(&EPP, args)?;
    let reference = crate::template::epp::with_extension(
        cx.c.env.files(),
        args[0].as_str().unwrap_or_default(),
    );
    cx.c.render_epp_file(&reference, args.get(1), cx.scope, cx.at)
}

pub(super) fn inline_epp(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    cx.dispatch(&INLINE_EPP, args)?;
    let text = args[0].as_str().unwrap_or_default();
    cx.c.render_inline_epp(text, args.get(1), cx.scope, cx.at)
}
