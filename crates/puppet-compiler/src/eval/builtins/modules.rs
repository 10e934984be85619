//! Modules' Ruby functions on the modulepath, found by their files (the
//! functions of Debian's module packages that pverify implements natively
//! are listed in `registry.rs`, each visible only while its module is on
//! the modulepath, as Puppet's loaders make a module's `lib/puppet`
//! functions visible).

use puppet_syntax::util::NameStr as _;
use std::path::PathBuf;

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
    if let Some((found, trace)) = known {
        crate::reads::replay(&trace);
        return found;
    }
    let (found, trace) = crate::reads::capture(find);
    env.ruby_function_paths
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .insert(key, (found.clone(), trace));
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

/// The Ruby file `require 'feature'` loads from a module's `lib`
/// (`puppet_x/elastic/hash` → `<module>/lib/puppet_x/elastic/hash.rb`),
/// the first in modulepath order: Puppet's Ruby has every module's `lib`
/// on its load path. `None` for a feature no module has (Ruby's own
/// libraries: `json`, `ipaddr`).
pub fn ruby_lib_file(env: &crate::loader::Environment, feature: &str) -> Option<PathBuf> {
    let feature = feature.strip_suffix(".rb").unwrap_or(feature);
    let segment = |s: &str| plain_name(&s.replace('-', "_"));
    if !feature.split('/').all(segment) {
        return None;
    }
    cached_lookup(env, format!("lib:{feature}"), || {
        modules_in_use(env)
            .into_iter()
            .map(|m| m.join("lib").join(format!("{feature}.rb")))
            .find(|p| env.files().is_file(p))
    })
}

/// Whether the module's Ruby file of function `name` says `needle` (a
/// parameter a later release of the module added), read once per
/// environment.
pub fn ruby_function_says(env: &crate::loader::Environment, name: &str, needle: &str) -> bool {
    cached_lookup(env, format!("says:{name}:{needle}"), || {
        let file = ruby_function_file(env, name)?;
        let text = env.files().read_to_string(&file).ok()?;
        text.contains(needle).then_some(file)
    })
    .is_some()
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
