//! Functions of modules: the Ruby functions of Debian's module packages that
//! pverify implements natively, each visible only while its module is on
//! the modulepath (as Puppet's loaders make a module's `lib/puppet`
//! functions visible), and the error for a module's Ruby function pverify
//! does not implement.

use puppet_syntax::util::NameStr as _;
use std::path::PathBuf;

#[allow(unused_imports)]
use super::*;

/// A module's function: the module that ships it, and its implementation.
pub(super) fn module_function(name: &str) -> Option<(&'static str, Builtin)> {
    use super::stdlib as s;
    use super::stdlib_validate as v;
    let f: Builtin = match name {
        "any2array" => s::any2array,
        "assert_private" => s::assert_private,
        "basename" => s::basename,
        "bool2str" => s::bool2str,
        "concat" => s::concat,
        "count" => s::count,
        "deep_merge" => s::deep_merge,
        "delete_at" => s::delete_at,
        "delete_undef_values" => s::delete_undef_values,
        "dirname" => s::dirname,
        "ensure_packages" => s::ensure_packages,
        "ensure_resource" => s::ensure_resource,
        "ensure_resources" => s::ensure_resources,
        "fact" => s::fact,
        "get_module_path" => s::get_module_path,
        "has_key" => s::has_key,
        "join_keys_to_values" => s::join_keys_to_values,
        "member" => s::member,
        "merge" => s::merge,
        "pick" => s::pick,
        "pick_default" => s::pick_default,
        "range" => super::stdlib_range::range,
        "to_json_pretty" => super::stdlib_json::to_json_pretty,
        "prefix" => s::prefix,
        "reject" => s::reject,
        "shell_join" => s::shell_join,
        "str2bool" => s::str2bool,
        "suffix" => s::suffix,
        "union" => s::union,
        "hash" => s::hash,
        "delete" => s::delete,
        "bool2num" => s::bool2num,
        "grep" => s::grep,
        "to_json" => s::to_json,
        "to_yaml" => super::stdlib_yaml::to_yaml,
        "values_at" => s::values_at,
        "enclose_ipv6" => s::enclose_ipv6,
        "zip" => s::zip,
        "deprecation" => v::deprecation,
        "validate_absolute_path" => v::validate_absolute_path,
        "validate_array" => v::validate_array,
        "validate_bool" => v::validate_bool,
        "validate_hash" => v::validate_hash,
        "validate_legacy" => v::validate_legacy,
        "validate_re" => v::validate_re,
        "validate_string" => v::validate_string,
        _ => return other_module_function(name),
    };
    Some(("stdlib", f))
}

fn other_module_function(name: &str) -> Option<(&'static str, Builtin)> {
    use super::other_modules as o;
    Some(match name {
        "apache::bool2httpd" => ("apache", o::apache_bool2httpd),
        "getvar_emptystring" => ("redis", o::getvar_emptystring),
        "ipaddresses" => ("ssh", o::ipaddresses),
        "is_service_default" => ("openstacklib", o::is_service_default),
        "mysql::password" => ("mysql", o::mysql_password4),
        "mysql_password" => ("mysql", o::mysql_password3),
        "postgresql::postgresql_acls_to_resources_hash" => {
            ("postgresql", o::postgresql_acls_to_resources_hash)
        }
        "postgresql::postgresql_escape" => ("postgresql", o::postgresql_escape),
        "postgresql::postgresql_password" => ("postgresql", o::postgresql_password),
        "translate" => ("translate", o::translate),
        _ => return None,
    })
}

/// Every module function implemented here, for listings and tests.
pub const MODULE_FUNCTIONS: &[&str] = &[
    "any2array",
    "assert_private",
    "basename",
    "bool2str",
    "concat",
    "count",
    "deep_merge",
    "delete_at",
    "delete_undef_values",
    "dirname",
    "ensure_packages",
    "ensure_resource",
    "ensure_resources",
    "fact",
    "get_module_path",
    "has_key",
    "join_keys_to_values",
    "member",
    "merge",
    "pick",
    "pick_default",
    "range",
    "to_json_pretty",
    "prefix",
    "reject",
    "shell_join",
    "str2bool",
    "suffix",
    "union",
    "hash",
    "delete",
    "bool2num",
    "grep",
    "to_json",
    "to_yaml",
    "values_at",
    "enclose_ipv6",
    "zip",
    "deprecation",
    "validate_absolute_path",
    "validate_array",
    "validate_bool",
    "validate_hash",
    "validate_legacy",
    "validate_re",
    "validate_string",
    "apache::bool2httpd",
    "getvar_emptystring",
    "ipaddresses",
    "is_service_default",
    "mysql::password",
    "mysql_password",
    "postgresql::postgresql_acls_to_resources_hash",
    "postgresql::postgresql_escape",
    "postgresql::postgresql_password",
    "translate",
];

/// The modules the environment uses, in modulepath order (sorted within
/// each directory), each the first of its name.
fn modules_in_use(env: &crate::loader::Environment) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in &env.modulepath {
        let Ok(mut modules) = env.files().read_dir(dir) else {
            continue;
        };
        modules.sort();
        out.extend(modules.into_iter().filter(|m| {
            let name = m.file_name().map(|n| n.to_string_lossy().to_string());
            name.and_then(|n| env.module_dir(&n)).as_ref() == Some(m)
        }));
    }
    out
}

/// A Ruby function file looked up once per run (templates call
/// `scope.function_x` for every node).
fn cached_lookup(
    env: &crate::loader::Environment,
    key: String,
    find: impl FnOnce() -> Option<PathBuf>,
) -> Option<PathBuf> {
    let known = env
        .ruby_function_paths
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .get(&key)
        .cloned();
    if let Some(found) = known {
        return found;
    }
    let found = find();
    env.ruby_function_paths
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .insert(key, found.clone());
    found
}

fn plain_name(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// A module's 3.x Ruby function `lib/puppet/parser/functions/<name>.rb`
/// (what `scope.function_<name>` reaches first).
pub fn ruby_function_file_3x(env: &crate::loader::Environment, name: &str) -> Option<PathBuf> {
    if !plain_name(name) {
        return None;
    }
    cached_lookup(env, format!("3x:{name}"), || {
        modules_in_use(env)
            .into_iter()
            .map(|m| m.join(format!("lib/puppet/parser/functions/{name}.rb")))
            .find(|p| env.files().is_file(p))
    })
}

/// The Ruby file that would define function `name` in a module on the
/// modulepath (`<module>/lib/puppet/functions/<ns>/<name>.rb`, or for a
/// plain name `lib/puppet/functions/<name>.rb` or the 3.x
/// `lib/puppet/parser/functions/<name>.rb`).
pub fn ruby_function_file(env: &crate::loader::Environment, name: &str) -> Option<PathBuf> {
    let name = name.trim_colons();
    let segments: Vec<&str> = name.split("::").collect();
    if !segments.iter().all(|s| plain_name(s)) {
        return None;
    }
    cached_lookup(env, name.to_string(), || {
        if segments.len() > 1 {
            let mut p = env.module_dir(segments[0])?.join("lib/puppet/functions");
            for s in &segments {
                p.push(s);
            }
            p.set_extension("rb");
            return env.files().is_file(&p).then_some(p);
        }
        modules_in_use(env).into_iter().find_map(|m| {
            ["lib/puppet/functions", "lib/puppet/parser/functions"]
                .iter()
                .map(|sub| m.join(sub).join(format!("{name}.rb")))
                .find(|p| env.files().is_file(p))
        })
    })
}
