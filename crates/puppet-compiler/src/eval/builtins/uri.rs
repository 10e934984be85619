//! `URI.new` (Puppet's `PURIType.new_function`, which Puppet names
//! `new_error`): a URI string (`URI.parse`) or a hash of its components
//! (`scheme_class.build`). The values themselves are in `eval/uri`.

use super::*;
use puppet_model::uri::Uri;

/// `URI.new(string)` or `URI.new(hash)`.
pub(super) fn new_uri(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let sub = named(cx, "new_error");
    let sigs = [
        sig(&[("String[1]", "uri")]),
        sig(&[(
            "Struct[{Optional['scheme'] => String[1], Optional['userinfo'] => String[1], \
             Optional['host'] => String[1], Optional['port'] => Integer[0], \
             Optional['path'] => String[1], Optional['query'] => String[1], \
             Optional['fragment'] => String[1], Optional['opaque'] => String[1]}]",
            "hash",
        )]),
    ];
    let made = match (sub.dispatch(&sigs, args)?, args) {
        (0, [Value::String(s)]) => Uri::parse(s),
        (_, [Value::Hash(h)]) => {
            let get = |k: &str| {
                h.get(&Value::string(k))
                    .and_then(|v| v.as_str())
                    .map(str::to_string)
            };
            let port = match h.get(&Value::string("port")) {
                Some(Value::Integer(p)) => Some(*p),
                _ => None,
            };
            Uri::build(get, port)
        }
        _ => return Ok(Value::Undef),
    };
    match made {
        Ok(u) => Ok(u.into_value()),
        Err(e) => sub.fail(e),
    }
}
