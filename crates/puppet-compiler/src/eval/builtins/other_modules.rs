//! Ruby functions of Debian's other module packages (mysql, postgresql,
//! redis, ssh, translate) that their manifests call, each visible only
//! while its module is on the modulepath.

use super::ruby_format::{args3, ruby_format};
use super::signatures::sig;
use super::variables::lookup_var;
use super::Cx;
use crate::eval::expr::R;
use crate::eval::value::{Map, Value};
use puppet_model::ruby::digest::{hex, md5_digest, sha1_digest};
use puppet_model::ruby::{ruby_inspect, ruby_to_s};
use puppet_syntax::util::NameStr as _;

/// MySQL's `PASSWORD()`: `*` and the upper-case hex SHA-1 of the SHA-1.
fn mysql_hash(password: &str) -> String {
    if password.is_empty() {
        return String::new();
    }
    // `%r{\*[A-F0-9]{40}$}`: already a hash (anywhere before the end of a line).
    let already = password.lines().any(|l| {
        l.len() >= 41 && {
            let tail = &l[l.len() - 41..];
            tail.starts_with('*')
                && tail[1..]
                    .chars()
                    .all(|c| c.is_ascii_digit() || ('A'..='F').contains(&c))
        }
    });
    if already {
        return password.to_string();
    }
    format!(
        "*{}",
        hex(&sha1_digest(&sha1_digest(password.as_bytes()))).to_uppercase()
    )
}

/// `mysql::password` (4.x).
pub(super) fn mysql_password4(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    cx.dispatch(&[sig(&[("String", "password")])], args)?;
    Ok(Value::string(mysql_hash(
        args[0].as_str().unwrap_or_default(),
    )))
}

/// `mysql_password` (3.x).
pub(super) fn mysql_password3(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let args = args3(args);
    if args.len() != 1 {
        return cx.fail(format!(
            "mysql_password(): Wrong number of arguments given ({} for 1)",
            args.len()
        ));
    }
    match &args[0] {
        Value::String(s) => Ok(Value::string(mysql_hash(s))),
        other => cx.fail(format!(
            "undefined method `empty?' for {}",
            ruby_inspect(other)
        )),
    }
}

/// `postgresql::postgresql_password` (4.x): `md5` + md5(password + user).
pub(super) fn postgresql_password(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    cx.dispatch(
        &[sig(&[
            ("Variant[String[1],Integer]", "username"),
            ("Variant[String[1],Integer]", "password"),
        ])],
        args,
    )?;
    let text = format!("{}{}", ruby_to_s(&args[1]), ruby_to_s(&args[0]));
    Ok(Value::string(format!(
        "md5{}",
        hex(&md5_digest(text.as_bytes()))
    )))
}

/// `postgresql::postgresql_escape` (4.x): dollar quoting with a tag the
/// string does not contain.
pub(super) fn postgresql_escape(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    cx.dispatch(&[sig(&[("String[1]", "input_string")])], args)?;
    let s = args[0].as_str().unwrap_or_default();
    if !(s.contains("$$") || s.ends_with('$')) {
        return Ok(Value::string(format!("$${s}$$")));
    }
    let tag_of = |text: &str| -> String {
        hex(&md5_digest(text.as_bytes()))[..6]
            .chars()
            .filter(|c| !c.is_ascii_digit())
            .collect()
    };
    let mut tag = tag_of(s);
    // Ruby's `until input !~ /tag/`: an empty tag matches everywhere.
    let mut guard = 0;
    while s.contains(tag.as_str()) && guard < 10_000 {
        tag = tag_of(&tag);
        guard += 1;
    }
    Ok(Value::string(format!("${tag}${s}${tag}$")))
}

/// A 3.x function's `lookupvar`: the variable, or undef with the warning
/// Puppet logs (once per name) for an unknown one.
fn lookupvar3(cx: &mut Cx<'_, '_>, name: &str) -> R<Option<Value>> {
    if let Some(v) = lookup_var(cx, name) {
        return Ok(Some(v));
    }
    let bare = name.trim_colons();
    // An evaluated class's scope is searched for the variable by its
    // absolute name.
    let mut shown = bare.to_string();
    let reason = match bare.rsplit_once("::") {
        Some((class, _)) => {
            let key = class.to_lowercase();
            if cx.c.defs.is_evaluated_class(&key) {
                shown = format!("::{bare}");
                String::new()
            } else if cx.c.find_class(&key).ok().flatten().is_some() {
                format!("class {key} has not been evaluated")
            } else {
                format!("class {key} could not be found")
            }
        }
        None => String::new(),
    };
    // Puppet's `Scope#variable_not_found` (a warning of the
    // `undefined_variables` kind), as `strict` says.
    let message = format!("Undefined variable '{shown}'; {reason}");
    match cx.c.node.strict() {
        crate::version::Strict::Off => {}
        _ if cx
            .c
            .warnings_disabled(crate::settings::WarningKind::UndefinedVariables) => {}
        crate::version::Strict::Warning => {
            let text = format!("{message}\n   (file & line not available)");
            if !cx.c.warnings.contains(&text) {
                cx.c.warnings.push(text);
            }
        }
        crate::version::Strict::Error => return cx.fail(message),
    }
    Ok(None)
}

/// `getvar_emptystring` (redis, 3.x): a variable, or `''`.
pub(super) fn getvar_emptystring(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let args = args3(args);
    if args.len() != 1 {
        return cx.fail(format!(
            "getvar_emptystring(): wrong number of arguments ({}; must be 1)",
            args.len()
        ));
    }
    let name = ruby_to_s(&args[0]);
    Ok(match lookupvar3(cx, &name)? {
        None | Some(Value::Undef) => Value::string(""),
        Some(v) => v,
    })
}

/// `ipaddresses` (ssh, 3.x): the addresses of the interfaces the legacy
/// facts list, except those whose name contains `lo`.
pub(super) fn ipaddresses(cx: &mut Cx<'_, '_>, _args: &[Value]) -> R<Value> {
    let var = lookupvar3;
    let interfaces = match var(cx, "interfaces")? {
        None | Some(Value::Undef) => return Ok(Value::Boolean(false)),
        Some(v) => ruby_to_s(&v),
    };
    let mut out = Vec::new();
    for iface in interfaces.split(',').filter(|i| !i.contains("lo")) {
        for key in [format!("ipaddress_{iface}"), format!("ipaddress6_{iface}")] {
            match var(cx, &key)? {
                None | Some(Value::Undef) | Some(Value::Boolean(false)) => {}
                Some(v) => out.push(v),
            }
        }
    }
    Ok(Value::array(out))
}

/// `translate` (translate, 4.x): the message (no translations are
/// installed), with `%{name}` filled from the hash.
pub(super) fn translate(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    cx.dispatch(
        &[sig(&[("String", "message"), ("Hash", "interpolation_values")]).opt(1)],
        args,
    )?;
    let message = args[0].as_str().unwrap_or_default();
    match args.get(1) {
        None => Ok(args[0].clone()),
        Some(h) => ruby_format(message, std::slice::from_ref(h))
            .map(Value::string)
            .map_err(|e| cx.err(e)),
    }
}

/// `is_service_default` (openstacklib, 4.x without a dispatch: any
/// arguments): whether the value is `'<SERVICE DEFAULT>'`.
pub(super) fn is_service_default(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    if args.len() != 1 {
        return cx.fail(format!(
            "is_service_default(): Wrong number of argumentsgiven ({} for 1)",
            args.len()
        ));
    }
    Ok(Value::Boolean(
        args[0].as_str() == Some("<SERVICE DEFAULT>"),
    ))
}

/// `postgresql::postgresql_acls_to_resources_hash(acls, id, offset)` (4.x):
/// pg_hba lines as `postgresql::server::pg_hba_rule` parameters.
pub(super) fn postgresql_acls_to_resources_hash(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    cx.dispatch(
        &[sig(&[
            ("Array[String]", "acls"),
            ("String[1]", "id"),
            ("Integer[0]", "offset"),
        ])],
        args,
    )?;
    let acls: Vec<String> = match &args[0] {
        Value::Array(a) => a.iter().map(ruby_to_s).collect(),
        _ => Vec::new(),
    };
    let id = ruby_to_s(&args[1]);
    let offset = match args[2] {
        Value::Integer(i) => i,
        _ => 0,
    };
    let mut out = Map::default();
    for acl in &acls {
        // Ruby's `acls.index(acl)`: the first equal line's index.
        let index = acls.iter().position(|a| a == acl).unwrap_or(0);
        let parts: Vec<&str> = acl.split_whitespace().collect();
        if parts.len() < 4 {
            return cx.fail(format!(
                "postgresql::postgresql_acls_to_resources_hash(): acl line {index} does not have enough parts"
            ));
        }
        let part = |i: usize| {
            parts
                .get(i)
                .map(|p| Value::string(*p))
                .unwrap_or(Value::Undef)
        };
        let rest = |from: usize| Value::string(parts[from..].join(" "));
        let mut r = Map::default();
        r.insert(Value::string("type"), part(0));
        r.insert(Value::string("database"), part(1));
        r.insert(Value::string("user"), part(2));
        r.insert(
            Value::string("order"),
            Value::string(format!("{:03}", offset + index as i64)),
        );
        if parts[0] == "local" {
            r.insert(Value::string("auth_method"), part(3));
            if parts.len() > 4 {
                r.insert(Value::string("auth_option"), rest(4));
            }
        } else if parts
            .get(4)
            .is_some_and(|p| p.starts_with(|c: char| c.is_ascii_digit()))
        {
            r.insert(
                Value::string("address"),
                Value::string(format!("{} {}", parts[3], parts[4])),
            );
            r.insert(Value::string("auth_method"), part(5));
            if parts.len() > 6 {
                r.insert(Value::string("auth_option"), rest(6));
            }
        } else {
            r.insert(Value::string("address"), part(3));
            r.insert(Value::string("auth_method"), part(4));
            if parts.len() > 5 {
                r.insert(Value::string("auth_option"), rest(5));
            }
        }
        out.insert(
            Value::string(format!("postgresql class generated rule {id} {index}")),
            Value::hash(r),
        );
    }
    Ok(Value::hash(out))
}

/// `apache::bool2httpd(arg)` (apache, 4.x without a dispatch): `'Off'` for
/// undef, false or a string containing "false" (any case), `'On'` for true
/// or a string containing "true", else the value as Ruby's `to_s` writes it.
pub(super) fn apache_bool2httpd(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    cx.dispatch(&[sig(&[("Any", "arg")])], args)?;
    let has = |word: &str| {
        args[0]
            .as_str()
            .is_some_and(|s| s.to_lowercase().contains(word))
    };
    Ok(Value::string(match &args[0] {
        Value::Undef | Value::Boolean(false) => "Off".to_string(),
        _ if has("false") => "Off".to_string(),
        Value::Boolean(true) => "On".to_string(),
        _ if has("true") => "On".to_string(),
        v => ruby_to_s(v),
    }))
}

/// `mysql::normalise_and_deepmerge` (mysql 15, 4.x): the hashes merged
/// deeply left to right, a key written with `-` or `_` meeting the same key
/// written the other way (the earlier one is renamed, moving to the end).
/// Native because its Ruby changes the hash it is given in place (`overlay`
/// on a method argument), which the Ruby interpreter's values do not share.
pub(super) fn mysql_normalise_and_deepmerge(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    if args.len() < 2 {
        return cx.fail(format!(
            "mysql::normalise_and_deepmerge(): wrong number of arguments ({}; must be at least 2)",
            args.len()
        ));
    }
    let mut result = Map::default();
    for arg in args {
        match arg {
            Value::String(s) if s.is_empty() => {}
            Value::Hash(h) => overlay(&mut result, h),
            // The module's message names `%{arg_class}` but passes
            // `args_class`: Ruby's format raises KeyError.
            _ => return cx.fail("key<arg_class> not found"),
        }
    }
    Ok(Value::hash(result))
}

/// mysql's `normalized?`: whether `key` is in `hash`, perhaps written with
/// `-` for `_` or the other way round (then renamed to `key`, at the end).
fn normalized(hash: &mut Map, key: &Value) -> bool {
    if hash.contains_key(key) {
        return true;
    }
    let Value::String(k) = key else { return false };
    if !k.contains(['-', '_']) {
        return false;
    }
    let other = if k.contains('-') {
        k.replace('-', "_")
    } else {
        k.replace('_', "-")
    };
    match hash.shift_remove(&Value::string(other)) {
        Some(v) => {
            hash.insert(key.clone(), v);
            true
        }
        None => false,
    }
}

fn overlay(into: &mut Map, from: &Map) {
    for (key, value) in from {
        if normalized(into, key) {
            if let (Value::Hash(add), Some(Value::Hash(have))) = (value, into.get_mut(key)) {
                overlay(std::sync::Arc::make_mut(have), add);
                continue;
            }
        }
        into.insert(key.clone(), value.clone());
    }
}
