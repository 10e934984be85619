//! stdlib 8.5's deprecated `validate_*` functions and `deprecation` (4.x).
//! Each 4.x `validate_x` logs a deprecation warning (once per key), then
//! runs the 3.x check of the same name.

use super::ruby::ruby_class;
use super::signatures::sig;
use super::{Builtin, Cx};
use crate::eval::expr::R;
use crate::eval::value::Value;
use puppet_model::ruby::{ruby_inspect, ruby_to_s};
use puppet_model::types::text::ty;
use puppet_model::types::PType;

/// `deprecation(key, message)` (4.x): Puppet's `deprecation_warning`,
/// once per key, with the Puppet stack's two innermost frames.
pub(super) fn deprecation(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    // stdlib 9 adds an optional Boolean `use_strict_setting`.
    const PARAMS: &[(&str, &str)] = &[
        ("String", "key"),
        ("String", "message"),
        ("Boolean", "use_strict_setting"),
    ];
    let stdlib9 =
        super::modules::ruby_function_says(cx.c.env, "deprecation", ":use_strict_setting");
    let params = if stdlib9 { PARAMS } else { &PARAMS[..2] };
    cx.dispatch(&[sig(params).opt(2)], args)?;
    let key = args[0].as_str().unwrap_or_default().to_string();
    let message = args[1].as_str().unwrap_or_default().to_string();
    // `use_strict_setting = false` (stdlib 9's shims that call on to their
    // `stdlib::` replacement): a warning whatever `strict` says.
    if matches!(args.get(2), Some(Value::Boolean(false))) {
        return deprecation_warning_as(cx, crate::version::Strict::Warning, &key, &message)
            .map(|_| Value::Undef);
    }
    deprecation_warning(cx, &key, &message)?;
    Ok(Value::Undef)
}

/// The two innermost frames of Puppet's stack, as stdlib's `deprecation`
/// writes them (`"#{stacktrace[0]}:#{stacktrace[1]}"`): each `[file, line]`
/// as Ruby inspects an Array, nothing for a frame that is not there (a
/// class an ENC declared has only the call's own frame).
fn frames(cx: &Cx<'_, '_>) -> String {
    let frame = |i: usize| {
        cx.c.puppet_stack
            .iter()
            .rev()
            .nth(i)
            .map(|(file, line)| format!("[{}, {line}]", ruby_inspect(&Value::string(&**file))))
            .unwrap_or_default()
    };
    format!("{}:{}", frame(0), frame(1))
}

/// stdlib's `deprecation`: nothing with `strict = off`, an error with
/// `strict = error`, else Puppet's deprecation warning (once per key).
fn deprecation_warning(cx: &mut Cx<'_, '_>, key: &str, message: &str) -> R<()> {
    let strict = cx.c.node.strict();
    deprecation_warning_as(cx, strict, key, message)
}

/// [`deprecation_warning`] under a given `strict`.
fn deprecation_warning_as(
    cx: &mut Cx<'_, '_>,
    strict: crate::version::Strict,
    key: &str,
    message: &str,
) -> R<()> {
    match strict {
        crate::version::Strict::Off => return Ok(()),
        crate::version::Strict::Error => {
            return cx.fail(format!("deprecation. {key}. {message} at {}", frames(cx)))
        }
        crate::version::Strict::Warning => {}
    }
    if cx
        .c
        .warnings_disabled(crate::settings::WarningKind::Deprecations)
    {
        return Ok(());
    }
    let head = format!("{message} at ");
    // Once per key: each key here has one message.
    if cx.c.warnings.iter().any(|w| w.starts_with(&head)) {
        return Ok(());
    }
    let location = match cx.c.env.module_dir("stdlib") {
        Some(d) => format!(
            "{}:36:in `deprecation'",
            d.join("lib/puppet/functions/deprecation.rb").display()
        ),
        None => String::new(),
    };
    let text = format!("{head}{}\n   (location: {location})", frames(cx));
    cx.c.warnings.push(text);
    Ok(())
}

const DEPRECATED: &str = "This method is deprecated, please use the stdlib validate_legacy function,\n                    with ";
const README: &str = ". There is further documentation for validate_legacy function in the README.";

fn deprecated(cx: &mut Cx<'_, '_>, compat: &str) -> R<()> {
    // Called by `validate_legacy` for the old check: the 3.x function, quiet.
    if cx.name == "validate_legacy" {
        return Ok(());
    }
    let key = cx.name.to_string();
    deprecation_warning(cx, &key, &format!("{DEPRECATED}{compat}{README}"))
}

fn at_least_one(cx: &Cx<'_, '_>, args: &[Value]) -> R<()> {
    if args.is_empty() {
        return cx.fail(format!(
            "{}(): wrong number of arguments (0; must be > 0)",
            cx.name
        ));
    }
    Ok(())
}

/// `"x" is not a string.  It looks to be a Integer`.
fn not_a(cx: &Cx<'_, '_>, v: &Value, what: &str) -> R<Value> {
    cx.fail(format!(
        "{} is not {what}.  It looks to be a {}",
        ruby_inspect(v),
        ruby_class(v)
    ))
}

pub(super) fn validate_string(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    deprecated(cx, "Stdlib::Compat::String")?;
    at_least_one(cx, args)?;
    for a in args {
        if !matches!(a, Value::String(_) | Value::Undef) {
            return not_a(cx, a, "a string");
        }
    }
    Ok(Value::Undef)
}

pub(super) fn validate_bool(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    deprecated(cx, "Stdlib::Compat::Bool")?;
    at_least_one(cx, args)?;
    for a in args {
        if !matches!(a, Value::Boolean(_)) {
            return not_a(cx, a, "a boolean");
        }
    }
    Ok(Value::Undef)
}

pub(super) fn validate_hash(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    deprecated(cx, "Stdlib::Compat::Hash")?;
    at_least_one(cx, args)?;
    for a in args {
        if !matches!(a, Value::Hash(_)) {
            return not_a(cx, a, "a Hash");
        }
    }
    Ok(Value::Undef)
}

pub(super) fn validate_array(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    deprecated(cx, "Stdlib::Compat::Array")?;
    at_least_one(cx, args)?;
    for a in args {
        if !matches!(a, Value::Array(_)) {
            return not_a(cx, a, "an Array");
        }
    }
    Ok(Value::Undef)
}

/// `Puppet::Util.absolute_path?` for POSIX or Windows paths.
fn is_absolute(p: &str) -> bool {
    let b = p.as_bytes();
    let slash = |c: u8| c == b'/' || c == b'\\';
    if b.first() == Some(&b'/') {
        return true;
    }
    if b.len() >= 3 && b[0].is_ascii_alphabetic() && b[1] == b':' && slash(b[2]) {
        return true;
    }
    if b.len() >= 2 && slash(b[0]) && slash(b[1]) {
        // `\\?\label` or `\\server\share`.
        let rest = &p[2..];
        if let Some(r) = rest.strip_prefix('?') {
            return r.starts_with(['/', '\\']) && r.len() > 1;
        }
        let mut parts = rest.splitn(2, ['/', '\\']);
        let server = parts.next().unwrap_or("");
        let share = parts.next().unwrap_or("");
        return !server.is_empty() && !share.is_empty() && !share.starts_with(['/', '\\']);
    }
    false
}

pub(super) fn validate_absolute_path(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    deprecated(cx, "Stdlib::Compat::Absolute_Path")?;
    at_least_one(cx, args)?;
    for a in args {
        let candidates = match a {
            Value::Array(items) => items.to_vec(),
            other => vec![other.clone()],
        };
        for p in candidates {
            let ok = match &p {
                Value::String(s) => is_absolute(s),
                _ => false,
            };
            if !ok {
                return cx.fail(format!("{} is not an absolute path.", ruby_inspect(&p)));
            }
        }
    }
    Ok(Value::Undef)
}

pub(super) fn validate_re(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    deprecated(cx, "Pattern[]")?;
    if args.len() < 2 || args.len() > 3 {
        return cx.fail(format!(
            "validate_re(): wrong number of arguments ({}; must be 2 or 3)",
            args.len()
        ));
    }
    let Value::String(s) = &args[0] else {
        return cx.fail(format!(
            "validate_re(): input needs to be a String, not a {}",
            ruby_class(&args[0])
        ));
    };
    let patterns: Vec<Value> = match &args[1] {
        Value::Array(items) => items.to_vec(),
        other => vec![other.clone()],
    };
    for p in &patterns {
        let src = match p {
            Value::String(x) | Value::Regexp(x) => x.to_string(),
            other => ruby_to_s(other),
        };
        match crate::eval::typeops::regex_captures(&src, s) {
            Ok(Some(_)) => return Ok(Value::Undef),
            Ok(None) => {}
            Err(e) => return cx.fail(e),
        }
    }
    let msg = match args.get(2) {
        Some(m) if !m.is_undef() => ruby_to_s(m),
        _ => format!(
            "validate_re(): {} does not match {}",
            ruby_inspect(&args[0]),
            ruby_inspect(&args[1])
        ),
    };
    cx.fail(msg)
}

/// `validate_legacy(type, function_name, value, args...)` (4.x): the value
/// must be of the type; when it is not but the old `function_name` check
/// passes, a deprecation warning instead of a failure.
pub(super) fn validate_legacy(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    // Its signatures start with the scope, which Puppet counts.
    if args.len() < 3 {
        return cx.fail(format!(
            "'validate_legacy' expects at least 4 arguments, got {}",
            args.len() + 1
        ));
    }
    let i = cx.dispatch(
        &[
            sig(&[
                ("Type", "target_type"),
                ("String", "function_name"),
                ("Any", "value"),
                ("Any", "args"),
            ])
            .rest(3),
            sig(&[
                ("String", "type_string"),
                ("String", "function_name"),
                ("Any", "value"),
                ("Any", "args"),
            ])
            .rest(3),
        ],
        args,
    )?;
    let target = if i == 0 {
        match &args[0] {
            Value::Type(t) => (**t).clone(),
            _ => PType::Any,
        }
    } else {
        let src = args[0].as_str().unwrap_or_default().to_string();
        // stdlib parses the string with the scope as its loader, which
        // fails in Puppet 7 as soon as a name needs loading (an alias).
        if src.contains("::") {
            let owner = match cx.c.scopes.resource_of(cx.scope) {
                Some(id) => cx.c.catalog[id].reference(),
                None => "Class[main]".to_string(),
            };
            return cx.fail(format!(
                "private method `load' called for Scope({owner}):Puppet::Parser::Scope"
            ));
        }
        ty(&src)
    };
    let value = &args[2];
    if super::modules::ruby_function_says(cx.c.env, "validate_legacy", STDLIB9_VALIDATE_LEGACY) {
        return validate_legacy_9(cx, &target, value);
    }
    let function_name = args[1].as_str().unwrap_or_default().to_string();
    let mut prev = vec![value.clone()];
    prev.extend(args[3..].iter().cloned());
    let ok = puppet_model::types::is_instance(&target, value);
    if ok {
        // Puppet only notices a value the old check would have refused.
        return Ok(Value::Undef);
    }
    let msg = puppet_model::types::describe_mismatch_named(
        &format!("validate_legacy({function_name})"),
        &target,
        &puppet_model::types::infer_set(value),
    );
    if previous_validation(cx, &function_name, &prev) {
        deprecation_warning(cx, "validate_legacy", &msg)?;
        Ok(Value::Undef)
    } else {
        cx.fail(msg)
    }
}

/// What stdlib 9's `validate_legacy` says first, whatever the value.
const STDLIB9_VALIDATE_LEGACY: &str =
    "This method is deprecated, please use Puppet data types to validate parameters";

/// stdlib 9's `validate_legacy`: always deprecated (an error under `strict =
/// error`, Puppet 8's default), then the type check alone, the 3.x function
/// no longer consulted.
fn validate_legacy_9(cx: &mut Cx<'_, '_>, target: &PType, value: &Value) -> R<Value> {
    deprecation_warning(cx, "validate_legacy", STDLIB9_VALIDATE_LEGACY)?;
    if puppet_model::types::is_instance(target, value) {
        return Ok(Value::Undef);
    }
    let msg = puppet_model::types::describe_mismatch_named(
        &format!("validate_legacy({target}, ...)"),
        target,
        &puppet_model::types::infer_set(value),
    );
    cx.fail(msg)
}

/// The 3.x `function_name` check on the arguments (no deprecation warning:
/// the 3.x functions log one only with `STDLIB_LOG_DEPRECATIONS=true`).
fn previous_validation(cx: &mut Cx<'_, '_>, function_name: &str, args: &[Value]) -> bool {
    let f: Builtin = match function_name {
        "validate_absolute_path" => validate_absolute_path,
        "validate_array" => validate_array,
        "validate_bool" => validate_bool,
        "validate_hash" => validate_hash,
        "validate_re" => validate_re,
        "validate_string" => validate_string,
        _ => return false,
    };
    f(cx, args).is_ok()
}
