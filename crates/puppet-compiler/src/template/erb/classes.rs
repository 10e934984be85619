//! Methods of classes (`JSON.generate`, `Regexp.new`, `IPAddr.new`...):
//! Ruby's standard library as modules' Ruby uses it, and the parts of
//! Puppet's own Ruby API that functions call (`Puppet::Util`,
//! `Puppet::Resource`, `Puppet::Pops::Types::...`, `Puppet::Module`).

use super::interp::{hash_set, Flow, Interp};
use super::methods::{class_desc, regexp_escape, ruby_file_name};
use super::value::{Enumerator, RValue};
use puppet_model::ruby::Receiver;

type R<T> = Result<T, Flow>;

/// A class method (`JSON.generate`, `Regexp.new`...): `full` is the path
/// the code named, `c` its last name.
pub(super) fn class_method(
    cx: &mut Interp<'_>,
    full: &str,
    c: &str,
    name: &str,
    args: Vec<RValue>,
) -> R<RValue> {
    match name {
        "name" => Ok(RValue::str(full.to_string())),

        // `IPAddr.new(text)`: templates use it to validate addresses.
        // `IPAddr.new(text)`: the address (masked by its prefix, as
        // IPAddr keeps the network), or IPAddr::InvalidAddressError.
        "new" if c == "IPAddr" => {
            let text = args.first().map(RValue::to_s).unwrap_or_default();
            match ip_address(&text) {
                Some((ip, prefix)) => {
                    let shown = ip.to_string();
                    Ok(RValue::Object(std::sync::Arc::new(super::value::RObject {
                        class: "IPAddr",
                        text: shown.clone(),
                        attrs: vec![
                            ("ipv4?", RValue::Bool(ip.is_ipv4())),
                            ("ipv6?", RValue::Bool(ip.is_ipv6())),
                            ("prefix", RValue::Int(prefix as i64)),
                            ("to_string", RValue::str(shown)),
                        ],
                    })))
                }
                None => {
                    cx.error_class = Some("IPAddr::InvalidAddressError".into());
                    cx.fail_at(format!("invalid address: {text}"))
                }
            }
        }
        // Ruby's `Base64` (base64.rb over pack.c): the encoders take the
        // String's bytes; the decoders give binary Strings, and the strict
        // ones raise ArgumentError.
        "encode64" | "strict_encode64" | "urlsafe_encode64" | "decode64" | "strict_decode64"
        | "urlsafe_decode64"
            if c == "Base64" =>
        {
            base64(cx, name, &args)
        }
        // Psych 4 (Ruby 3.1): `load` is `safe_load` permitting Symbols.
        "load" | "safe_load" if c == "YAML" || c == "Psych" => yaml_load(cx, name, &args),
        "escape" | "quote" if c == "Regexp" => {
            let text = args.first().map(RValue::to_s).unwrap_or_default();
            Ok(RValue::str(regexp_escape(&text)))
        }
        "warning" if c == "Puppet" => {
            let message = args.first().map(RValue::to_s).unwrap_or_default();
            cx.host.warning(&message);
            Ok(RValue::Nil)
        }
        // Other log levels are not warnings; a deprecation warning's
        // text carries Ruby's call stack, which pverify does not have.
        "notice" | "info" | "debug" | "err" | "deprecation_warning" if c == "Puppet" => {
            Ok(RValue::Nil)
        }
        "version" if c == "Puppet" => Ok(RValue::Str(cx.host.puppet().version.into())),
        // `Puppet.settings[:strict]`, `Puppet[:strict]`: the settings the
        // compile runs with.
        "settings" if c == "Puppet" => {
            let p = cx.host.puppet();
            Ok(RValue::hash(vec![
                (RValue::Sym("strict".into()), RValue::Sym(p.strict.into())),
                (
                    RValue::Sym("strict_variables".into()),
                    RValue::Bool(p.strict_variables),
                ),
            ]))
        }
        "[]" if c == "Puppet" => {
            let p = cx.host.puppet();
            Ok(match args.first().map(RValue::to_s).as_deref() {
                Some("strict") => RValue::Sym(p.strict.into()),
                Some("strict_variables") => RValue::Bool(p.strict_variables),
                _ => RValue::Nil,
            })
        }
        // `JSON.parse(text)` (stdlib's `load_module_metadata` on Puppet 8).
        "parse" if c == "JSON" => {
            let text = args.first().map(RValue::to_s).unwrap_or_default();
            match puppet_model::ruby::json_parse::parse(&text, cx.ruby) {
                Ok(v) => Ok(super::value::from_puppet(&v)),
                Err(e) => {
                    cx.error_class = Some(e.class().into());
                    cx.fail_at(e.message())
                }
            }
        }
        // JSON.generate's text; `dump` has no nesting limit; text holding
        // bytes that are not UTF-8 is refused by the generator.
        "generate" | "dump" | "pretty_generate" if c == "JSON" => {
            let v = super::value::to_puppet(args.first().unwrap_or(&RValue::Nil));
            if name != "dump" && puppet_model::ruby::json_nesting_error(&v).is_some() {
                cx.error_class = Some("JSON::NestingError".into());
                return cx.fail_at(format!(
                    "nesting of {} is too deep",
                    puppet_model::ruby::json::MAX_NESTING
                ));
            }
            if let Some(e) = puppet_model::ruby::json_utf8_error(&v, cx.ruby) {
                cx.error_class = Some("JSON::GeneratorError".into());
                return cx.fail_at(e);
            }
            if name != "pretty_generate" {
                return Ok(RValue::str(puppet_model::ruby::ruby_json(&v)));
            }
            let opts = args.get(1).map(super::value::to_puppet);
            let opts = match &opts {
                Some(puppet_model::value::Value::Hash(h)) => Some(&**h),
                _ => None,
            };
            Ok(RValue::str(puppet_model::ruby::ruby_json_pretty(
                &v, opts, cx.ruby,
            )))
        }
        // Ruby code sees no environment variables: a catalog must not
        // depend on the machine compiling it.
        "[]" | "fetch" if c == "ENV" => Ok(args.get(1).cloned().unwrap_or(RValue::Nil)),
        // `Digest::SHA1.hexdigest(data)`, and `.digest(data)`: the raw
        // bytes, a binary String.
        "hexdigest" | "digest" => {
            let data: Vec<u8> = match args.first() {
                Some(RValue::Bytes(b)) => b.to_vec(),
                Some(o) => o.to_s().into_bytes(),
                None => Vec::new(),
            };
            let done = if name == "digest" {
                puppet_model::ruby::ruby_digest(c, &data).map(|d| RValue::Bytes(d.into()))
            } else {
                puppet_model::ruby::ruby_hexdigest(c, &data).map(RValue::str)
            };
            match done {
                Some(v) => Ok(v),
                None => cx.fail_at(cx.ruby.no_method(name, Receiver::Class(full))),
            }
        }
        // Puppet's stack of manifest frames, seen from Ruby: pverify
        // keeps none (deprecation() then warns without a location).
        "stacktrace" if c == "PuppetStack" => Ok(RValue::array(vec![])),
        // The expression is compiled at once: a bad one raises here.
        "new" | "compile" if c == "Regexp" => {
            let src = match args.first() {
                Some(RValue::Regex(r)) => r.clone(),
                Some(o) => o.to_s(),
                None => String::new(),
            };
            match puppet_model::types::regex::compile_ruby(&src) {
                Ok(_) => Ok(RValue::Regex(src)),
                Err(e) => {
                    cx.error_class = Some("RegexpError".into());
                    cx.fail_at(e)
                }
            }
        }
        "escape" | "shellescape" if c == "Shellwords" => Ok(RValue::str(
            puppet_model::ruby::shell_escape(&args.first().map(RValue::to_s).unwrap_or_default()),
        )),
        "join" | "shelljoin" if c == "Shellwords" => match args.first() {
            Some(RValue::Array(items)) => Ok(RValue::str(
                items
                    .iter()
                    .map(|i| puppet_model::ruby::shell_escape(&i.to_s()))
                    .collect::<Vec<_>>()
                    .join(" "),
            )),
            Some(o) => cx.no_method("map", o),
            None => cx.fail_at("wrong number of arguments (given 0, expected 1)"),
        },
        // Puppet::Util.absolute_path?(path, platform): Puppet's patterns.
        "absolute_path?" if full == "Puppet::Util" => {
            let platform = args.get(1).map(RValue::to_s);
            Ok(RValue::Bool(match args.first() {
                Some(RValue::Str(path)) => absolute_path(path, platform.as_deref()),
                // Puppet warns and answers false for a non-String.
                _ => false,
            }))
        }
        "basename" | "dirname" | "extname" if c == "File" => {
            let p = args.first().map(RValue::to_s).unwrap_or_default();
            let suffix = args.get(1).map(RValue::to_s);
            Ok(RValue::str(ruby_file_name(name, &p, suffix.as_deref())))
        }
        // `File.read(path)`: inside the read roots (`loader::confine`).
        "read" if c == "File" => {
            let path = match args.first() {
                Some(RValue::Str(s)) => s.to_string(),
                Some(o) => {
                    cx.error_class = Some("TypeError".into());
                    return cx.fail_at(format!(
                        "no implicit conversion of {} into String",
                        class_desc(o)
                    ));
                }
                None => {
                    cx.error_class = Some("ArgumentError".into());
                    return cx.fail_at("wrong number of arguments (given 0, expected 1..3)");
                }
            };
            match cx.host.read_file(&path) {
                Ok(bytes) => Ok(match String::from_utf8(bytes) {
                    Ok(s) => RValue::str(s),
                    Err(e) => RValue::Bytes(e.into_bytes().into()),
                }),
                Err(e) => {
                    cx.error_class = cx.host.last_error_class();
                    cx.fail_at(e)
                }
            }
        }
        // `Puppet::Parser::Files.find_template(ref, env)` and `find_file`:
        // an absolute path as it is, else `<module>/<file>` in the module's
        // `templates/` (`files/`) when it exists, else nil.
        "find_template" | "find_file" if full == "Puppet::Parser::Files" => {
            let reference = args.first().map(RValue::to_s).unwrap_or_default();
            if reference.starts_with('/') {
                return Ok(RValue::str(reference));
            }
            let Some((module, file)) = reference.split_once('/') else {
                return Ok(RValue::Nil);
            };
            let Some(dir) = cx.host.module_dir(module) else {
                return Ok(RValue::Nil);
            };
            let kind = if name == "find_template" {
                "templates"
            } else {
                "files"
            };
            let full_path = format!("{dir}/{kind}/{file}");
            Ok(if cx.host.file_exists(&full_path) {
                RValue::str(full_path)
            } else {
                RValue::Nil
            })
        }
        "exist?" if c == "File" => {
            let p = args.first().map(RValue::to_s).unwrap_or_default();
            Ok(RValue::Bool(cx.host.file_exists(&p)))
        }
        "join" if c == "File" => Ok(RValue::str(
            args.iter().map(RValue::to_s).collect::<Vec<_>>().join("/"),
        )),
        // `Hash[[k, v], ...]` / `Hash[pairs]`.
        "[]" if c == "Hash" => {
            let pairs = match args.as_slice() {
                [RValue::Array(a)] => a.to_vec(),
                [RValue::Hash(h)] => return Ok(RValue::Hash(h.clone())),
                // `Hash[k1, v1, k2, v2]`: keys and values in turn.
                other if other.len() % 2 == 1 => {
                    return cx.fail_at("odd number of arguments for Hash")
                }
                other => other
                    .chunks(2)
                    .map(|kv| RValue::array(kv.to_vec()))
                    .collect(),
            };
            let mut out = Vec::new();
            for p in pairs {
                match p {
                    RValue::Array(ref kv) if kv.len() <= 2 => {
                        let k = kv.first().cloned().unwrap_or(RValue::Nil);
                        let v = kv.get(1).cloned().unwrap_or(RValue::Nil);
                        hash_set(&mut out, k, v);
                    }
                    o => {
                        return cx.fail_at(format!(
                            "wrong element type {} (expected array)",
                            o.class_name()
                        ))
                    }
                }
            }
            Ok(RValue::hash(out))
        }
        // `Puppet::Parser::Functions.function(:name)` loads a function
        // and answers its method's name; pverify loads on call.
        "function" if c == "Functions" => Ok(RValue::str(format!(
            "function_{}",
            args.first().map(RValue::to_s).unwrap_or_default()
        ))),
        "new" if c == "Hash" => Ok(RValue::hash(vec![])),
        // Puppet's type system, as modules' functions use it
        // (`Puppet::Pops::Types::...`): the helper objects are stateless, so
        // the class stands for its instance.
        "new" | "singleton"
            if matches!(c, "TypeParser" | "TypeCalculator" | "TypeMismatchDescriber") =>
        {
            Ok(RValue::Class(full.to_string()))
        }
        "instance?" if c == "TypeCalculator" => {
            let t = type_arg(cx, &args, 0)?;
            let v = super::value::to_puppet(args.get(1).unwrap_or(&RValue::Nil));
            Ok(RValue::Bool(puppet_model::types::is_instance(&t, &v)))
        }
        "infer_set" | "infer" if c == "TypeCalculator" => {
            let v = super::value::to_puppet(args.first().unwrap_or(&RValue::Nil));
            let t = if name == "infer" {
                puppet_model::types::infer(&v)
            } else {
                puppet_model::types::infer_set(&v)
            };
            Ok(RValue::Opaque(puppet_model::value::Value::Type(
                std::sync::Arc::new(t),
            )))
        }
        "describe_mismatch" if c == "TypeMismatchDescriber" => {
            let subject = args.first().map(RValue::to_s).unwrap_or_default();
            let expected = type_arg(cx, &args, 1)?;
            let actual = type_arg(cx, &args, 2)?;
            Ok(RValue::str(puppet_model::types::describe_mismatch_named(
                &subject, &expected, &actual,
            )))
        }
        // `parse(text, scope)`: a name that is not built in is loaded by
        // the context given, and a scope is no loader (its `load` is
        // Kernel's, private): Puppet's NoMethodError.
        "parse" if c == "TypeParser" => {
            let text = match args.first() {
                Some(RValue::Str(s)) => s.clone(),
                Some(o) => {
                    return cx.fail_at(format!(
                        "no implicit conversion of {} into String",
                        class_desc(o)
                    ))
                }
                None => return cx.fail_at("wrong number of arguments (given 0, expected 1..2)"),
            };
            match puppet_model::types::text::parse_builtin_type(&text) {
                Ok(t) => Ok(RValue::Opaque(puppet_model::value::Value::Type(
                    std::sync::Arc::new(t),
                ))),
                Err(_) if matches!(args.get(1), Some(RValue::Scope)) => {
                    let scope = cx.host.scope_text();
                    cx.error_class = Some("NoMethodError".into());
                    cx.fail_at(format!(
                        "private method `load' called for {scope}:Puppet::Parser::Scope"
                    ))
                }
                Err(name) => cx.fail_at(format!(
                    "pverify cannot resolve the type '{name}' here (Puppet would load it)"
                )),
            }
        }
        // `Puppet::Pops::Types::Iterable.asserted_iterable(caller, value)`:
        // the value's elements as an Enumerator (a Hash's as `[k, v]`).
        "asserted_iterable" | "on" if c == "Iterable" => {
            let v = args.last().cloned().unwrap_or(RValue::Nil);
            let items = match &v {
                RValue::Array(a) => a.to_vec(),
                RValue::Hash(h) => h
                    .iter()
                    .map(|(k, v)| RValue::array(vec![k.clone(), v.clone()]))
                    .collect(),
                RValue::Int(n) if *n as usize <= super::interp::MAX_ITEMS => {
                    (0..*n).map(RValue::Int).collect()
                }
                RValue::Int(n) if *n > 0 => {
                    return cx.fail_at(super::interp::over_limit(
                        &format!("Iterable of {n}"),
                        super::interp::MAX_ITEMS,
                        "elements",
                    ))
                }
                RValue::Str(s) => s.chars().map(|c| RValue::str(c.to_string())).collect(),
                RValue::Nil if name == "on" => return Ok(RValue::Nil),
                o => {
                    return cx.fail_at(format!(
                        "An Iterable value was expected, got {}",
                        class_desc(o)
                    ))
                }
            };
            Ok(RValue::Enumerator(std::sync::Arc::new(Enumerator {
                method: "each".into(),
                items,
                receiver: v,
            })))
        }
        // `Puppet::Module.find(name, environment)`: the module or nil.
        "find" if full == "Puppet::Module" => {
            let n = args.first().map(RValue::to_s).unwrap_or_default();
            Ok(match cx.host.module_dir(&n) {
                Some(path) => RValue::Object(std::sync::Arc::new(super::value::RObject {
                    class: "Puppet::Module",
                    text: format!("Module {n}({path})"),
                    attrs: vec![("name", RValue::str(n)), ("path", RValue::str(path))],
                })),
                None => RValue::Nil,
            })
        }
        // Puppet's version comparison (the `versioncmp` function's).
        "versioncmp" if full == "Puppet::Util::Package" => {
            let args = args.iter().map(super::value::to_puppet).collect();
            match cx.host.call_function("versioncmp", args) {
                Ok(v) => Ok(super::value::from_puppet(&v)),
                Err(e) => cx.fail_at(e),
            }
        }
        // `Puppet::Resource.type_and_title('File[/a]', nil)`.
        "type_and_title" if full == "Puppet::Resource" => {
            let (ty, title) = match (args.first(), args.get(1)) {
                (Some(t), Some(title)) if !matches!(title, RValue::Nil) => (t.to_s(), title.to_s()),
                (Some(RValue::Str(r)), _) => match split_reference(r) {
                    Some((t, title)) => (t, title),
                    None => {
                        cx.error_class = Some("ArgumentError".into());
                        return cx.fail_at(format!(
                            "No title provided and {} is not a valid resource reference",
                            RValue::Str(r.clone()).inspect()
                        ));
                    }
                },
                (o, _) => {
                    cx.error_class = Some("ArgumentError".into());
                    return cx.fail_at(format!(
                        "No title provided and {} is not a valid resource reference",
                        o.cloned().unwrap_or(RValue::Nil).inspect()
                    ));
                }
            };
            let ty = puppet_model::names::capitalize_name(&ty);
            let title = if ty == "Class" {
                if title.is_empty() {
                    "main".to_string()
                } else {
                    puppet_model::names::capitalize_name(&title)
                }
            } else {
                title
            };
            Ok(RValue::array(vec![RValue::str(ty), RValue::str(title)]))
        }
        // The type of a resource by name: pverify's resources carry their
        // type's capitalized name, which `findresource` takes.
        "find_resource_type_or_class" if c == "Runtime3ResourceSupport" => {
            let n = args.get(1).map(RValue::to_s).unwrap_or_default();
            Ok(RValue::str(puppet_model::names::capitalize_name(&n)))
        }
        // `Array.new(n, obj)`, `Array.new(list)`.
        "new" if c == "Array" => match (args.first(), args.get(1)) {
            (None, _) => Ok(RValue::array(vec![])),
            (Some(RValue::Array(a)), None) => Ok(RValue::Array(a.clone())),
            (Some(RValue::Int(n)), fill) => {
                if *n < 0 {
                    return cx.fail_at("negative array size");
                }
                if *n as usize > super::interp::MAX_ITEMS {
                    return cx.fail_at(super::interp::over_limit(
                        &format!("Array.new({n})"),
                        super::interp::MAX_ITEMS,
                        "elements",
                    ));
                }
                let fill = fill.cloned().unwrap_or(RValue::Nil);
                Ok(RValue::array(vec![fill; *n as usize]))
            }
            (Some(o), _) => cx.fail_at(format!(
                "no implicit conversion of {} into Integer",
                class_desc(o)
            )),
        },
        "new" if c == "String" => Ok(RValue::str(
            args.first().map(RValue::to_s).unwrap_or_default(),
        )),
        _ => cx.fail_at(cx.ruby.no_method(name, Receiver::Class(full))),
    }
}

/// Ruby's `IPAddr#include?`: whether `other` (an IPAddr or an address's
/// text) lies in `net`'s network; an address of the other family does not.
pub(super) fn ipaddr_includes(net: &super::value::RObject, other: &RValue) -> bool {
    let prefix = net.attrs.iter().find_map(|(k, v)| match (*k, v) {
        ("prefix", RValue::Int(p)) => Some(*p as u32),
        _ => None,
    });
    let (Some(prefix), Ok(base)) = (prefix, net.text.parse::<std::net::IpAddr>()) else {
        return false;
    };
    let text = match other {
        RValue::Object(o) => o.text.clone(),
        o => o.to_s(),
    };
    match ip_address(&format!(
        "{}/{prefix}",
        text.split('/').next().unwrap_or("")
    )) {
        Some((masked, _)) => masked == base,
        None => false,
    }
}

/// An address as Ruby's `IPAddr.new` reads it: the address with its
/// prefix length (a `/n` or a `/mask`) applied, and that length.
fn ip_address(text: &str) -> Option<(std::net::IpAddr, u32)> {
    use std::net::IpAddr;
    let (addr, prefix) = match text.split_once('/') {
        Some((a, p)) => (a, Some(p)),
        None => (text, None),
    };
    let ip: IpAddr = addr.parse().ok()?;
    let bits = if ip.is_ipv4() { 32 } else { 128 };
    let len = match prefix {
        None => bits,
        Some(p) => match p.parse::<u32>() {
            Ok(n) if n <= bits => n,
            Ok(_) => return None,
            // A mask written as an address (`255.255.0.0`): its leading ones.
            Err(_) => match (p.parse::<IpAddr>().ok()?, ip) {
                (IpAddr::V4(m), IpAddr::V4(_)) => u32::from(m).leading_ones(),
                (IpAddr::V6(m), IpAddr::V6(_)) => u128::from(m).leading_ones(),
                _ => return None,
            },
        },
    };
    let masked = match ip {
        IpAddr::V4(a) => {
            let mask = u32::MAX.checked_shl(32 - len).unwrap_or(0);
            IpAddr::V4((u32::from(a) & mask).into())
        }
        IpAddr::V6(a) => {
            let mask = u128::MAX.checked_shl(128 - len).unwrap_or(0);
            IpAddr::V6((u128::from(a) & mask).into())
        }
    };
    Some((masked, len))
}

/// `Type[title]` split as Puppet's `extract_type_and_title` does
/// (`/^([^\[\]]+)\[(.+)\]$/m`).
fn split_reference(r: &str) -> Option<(String, String)> {
    let open = r.find('[')?;
    let ty = &r[..open];
    let title = r[open + 1..].strip_suffix(']')?;
    if ty.is_empty() || ty.contains(']') || title.is_empty() {
        return None;
    }
    Some((ty.to_string(), title.to_string()))
}

/// A Puppet type argument (`Type` values reach Ruby as themselves).
fn type_arg(cx: &Interp<'_>, args: &[RValue], i: usize) -> R<puppet_model::types::PType> {
    match args.get(i) {
        Some(RValue::Opaque(puppet_model::value::Value::Type(t))) => Ok((**t).clone()),
        Some(o) => cx.fail_at(format!(
            "pverify expects a Puppet type here, got {}",
            class_desc(o)
        )),
        None => cx.fail_at(format!(
            "wrong number of arguments (given {i}, expected {})",
            i + 1
        )),
    }
}

/// Puppet's `Puppet::Util.absolute_path?`: its POSIX pattern `%r{^/}`
/// and its Windows one (a drive, a UNC path, or `\\?\`), for the
/// platform named or the one Puppet runs on (POSIX).
fn absolute_path(path: &str, platform: Option<&str>) -> bool {
    let slash = |c: char| c == '/' || c == '\\';
    match platform {
        Some("windows") => {
            let b: Vec<char> = path.chars().collect();
            let drive = b.len() >= 3 && b[0].is_ascii_alphabetic() && b[1] == ':' && slash(b[2]);
            // `\\name\name` or `\\?\name`.
            let unc = b.len() >= 2 && slash(b[0]) && slash(b[1]) && {
                let rest: String = b[2..].iter().collect();
                let mut parts = rest.splitn(3, slash);
                let first = parts.next().unwrap_or("");
                let second = parts.next();
                (first == "?" || !first.is_empty()) && second.is_some_and(|s| !s.is_empty())
            };
            drive || unc
        }
        _ => path.starts_with('/'),
    }
}

/// `Base64.encode64` and its kin, as Ruby 3.1's base64.rb: the encoders
/// `pack` the String (`TypeError` for anything else), the decoders call a
/// String method on it (`NoMethodError` for anything else).
fn base64(cx: &mut Interp<'_>, name: &str, args: &[RValue]) -> R<RValue> {
    use puppet_model::binary;
    let (min, max) = if name == "urlsafe_encode64" {
        (1, 2)
    } else {
        (1, 1)
    };
    if args.len() < min || args.len() > max {
        cx.error_class = Some("ArgumentError".into());
        let expected = if min == max {
            min.to_string()
        } else {
            format!("{min}..{max}")
        };
        return cx.fail_at(format!(
            "wrong number of arguments (given {}, expected {expected})",
            args.len()
        ));
    }
    let bytes: Vec<u8> = match &args[0] {
        RValue::Str(s) => s.as_bytes().to_vec(),
        RValue::Bytes(b) => b.to_vec(),
        other if name.ends_with("encode64") => {
            cx.error_class = Some("TypeError".into());
            return cx.fail_at(format!(
                "no implicit conversion of {} into String",
                class_desc(other)
            ));
        }
        other => {
            cx.error_class = Some("NoMethodError".into());
            let method = if name == "urlsafe_decode64" {
                "end_with?"
            } else {
                "unpack1"
            };
            return cx.no_method(method, other);
        }
    };
    // Decoded text is a binary String in Ruby. Under Puppet 7 pverify keeps
    // it a String when it is UTF-8 (a catalog writes both alike); Puppet 8's
    // catalog writes a binary String as a Binary, so it stays binary there.
    let keep_binary = cx.host.keeps_binary_strings();
    let binary_string = |b: Vec<u8>| match String::from_utf8(b) {
        Ok(s) if !keep_binary => RValue::str(s),
        Ok(s) => RValue::Bytes(s.into_bytes().into()),
        Err(e) => RValue::Bytes(e.into_bytes().into()),
    };
    let text = String::from_utf8_lossy(&bytes);
    let decoded = match name {
        "encode64" => return Ok(RValue::str(binary::relaxed_encode(&bytes))),
        "strict_encode64" => return Ok(RValue::str(binary::strict_encode(&bytes))),
        "urlsafe_encode64" => {
            // `padding: false` (keyword arguments arrive as a last Hash).
            let padding = match args.get(1) {
                Some(RValue::Hash(pairs)) => !pairs.iter().any(|(k, v)| {
                    matches!(k, RValue::Sym(s) if &**s == "padding")
                        && matches!(v, RValue::Nil | RValue::Bool(false))
                }),
                _ => true,
            };
            return Ok(RValue::str(if padding {
                binary::urlsafe_encode(&bytes)
            } else {
                binary::urlsafe_encode_unpadded(&bytes)
            }));
        }
        "decode64" => return Ok(binary_string(binary::relaxed_decode(&text))),
        "strict_decode64" => binary::strict_decode(&text),
        _ => binary::urlsafe_decode(&text),
    };
    match decoded {
        Ok(b) => Ok(binary_string(b)),
        Err(e) => {
            cx.error_class = Some("ArgumentError".into());
            cx.fail_at(e)
        }
    }
}

/// `YAML.load(text)` and `YAML.safe_load(text)` as Psych 4.0 (Ruby 3.1)
/// and Psych 5 (Ruby 3.3; their `BadAlias` texts differ):
/// `safe_load` permits no class (`permitted_classes:` adds `Symbol`) and no
/// aliases (`aliases: true` allows them); `load` permits Symbols. The first
/// document only; an empty one is nil.
fn yaml_load(cx: &mut Interp<'_>, name: &str, args: &[RValue]) -> R<RValue> {
    use puppet_model::yaml::{load_psych, PsychOptions};
    let mut opts = if name == "load" {
        PsychOptions::LOAD
    } else {
        PsychOptions::SAFE_LOAD
    };
    let (text, options) = match args {
        [t] => (t, None),
        [t, RValue::Hash(h)] => (t, Some(h)),
        _ => {
            cx.error_class = Some("ArgumentError".into());
            return cx.fail_at(format!(
                "wrong number of arguments (given {}, expected 1)",
                args.len()
            ));
        }
    };
    for (k, v) in options.iter().flat_map(|h| h.iter()) {
        match k {
            RValue::Sym(k) if &**k == "aliases" => opts.aliases = v.truthy(),
            RValue::Sym(k) if &**k == "permitted_classes" => {
                opts.symbols = matches!(v, RValue::Array(items)
                    if items.iter().any(|c| matches!(c, RValue::Class(c) if c == "Symbol")))
            }
            _ => {}
        }
    }
    let text = match text {
        RValue::Str(s) => s.to_string(),
        RValue::Bytes(b) => String::from_utf8_lossy(b).into_owned(),
        other => {
            cx.error_class = Some("TypeError".into());
            return cx.fail_at(format!(
                "no implicit conversion of {} into String",
                class_desc(other)
            ));
        }
    };
    match load_psych(&text, opts) {
        Ok(v) => Ok(super::value::from_puppet(&v)),
        Err(e) if e.line != 0 => {
            cx.error_class = Some("Psych::SyntaxError".into());
            cx.fail_at(format!("(<unknown>): {e}"))
        }
        Err(e) => match &e.bad_alias {
            Some(alias) => {
                let (class, message) = cx.ruby.bad_alias(alias);
                cx.error_class = Some(class.into());
                cx.fail_at(message)
            }
            None => {
                cx.error_class = Some("Psych::DisallowedClass".into());
                cx.fail_at(e.message)
            }
        },
    }
}
