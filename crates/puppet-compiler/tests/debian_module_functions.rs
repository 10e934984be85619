//! Every function Debian's Puppet modules call resolves through the
//! function registry: to pverify's library (Puppet core, stdlib, another
//! module's natively implemented function), or to a function some module
//! on the modulepath defines (Puppet-language `functions/*.pp`, Ruby
//! `lib/puppet/functions/**.rb` or `lib/puppet/parser/functions/*.rb`).
//!
//! The modules are the `puppet-module-*` packages, under
//! `/usr/share/puppet/modules` (CI installs them: the test fails there
//! without them).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use puppet_compiler::eval::registry::{self, Caller, OnDisk, Origin, Resolved};
use puppet_compiler::loader::{Environment, Overrides};
use puppet_syntax::ast::{Expr, ExprKind};

const MODULES: &str = "/usr/share/puppet/modules";

/// Names called in Debian's modules that resolve to nothing on that
/// modulepath, and why.
const KNOWN_UNRESOLVED: &[(&str, &str)] = &[
    (
        "warn",
        "galera/manifests/debian.pp calls warn(), which neither Puppet nor any \
         module defines (Puppet's is warning()): Puppet fails there too",
    ),
    (
        "warning",
        "apache's templates call scope.function_warning: pverify's template host \
         reaches the library, not the evaluator's log functions, so this fails \
         'Unknown function' today (a gap to fix, not a registry matter)",
    ),
];

/// Functions the template host (`ScopeHost::call_function` in
/// `eval/templates_erb.rs`) answers itself before resolving, for templates
/// and Ruby functions.
const TEMPLATE_HOST: &[&str] = &["fail", "template", "inline_template"];

/// Every function name `e` and its children call, with the first file
/// calling it.
fn calls(e: &Expr, file: &Path, out: &mut BTreeMap<String, PathBuf>) {
    let name = match &e.kind {
        ExprKind::CallNamed { functor, .. } => match &functor.kind {
            ExprKind::QName(n) => Some(n.to_string()),
            ExprKind::QRef(n) => Some(n.to_string()),
            _ => None,
        },
        ExprKind::CallMethod { name, .. } => Some(name.clone()),
        _ => None,
    };
    if let Some(n) = name {
        out.entry(n).or_insert_with(|| file.to_path_buf());
    }
    puppet_syntax::visit::for_each_child(e, &mut |c| calls(c, file, out));
}

/// `call_function('name', ...)` and `function_name(...)` in Ruby (function
/// files and ERB templates), as far as a pattern finds them.
fn ruby_calls(text: &str, file: &Path, out3: &mut BTreeMap<String, PathBuf>) {
    let re = regex::Regex::new(
        r#"\bfunction_([a-z_][a-z0-9_]*)\s*\(|\bcall_function\(\s*['":]+([a-z_][a-z0-9_:]*)['"]?"#,
    )
    .expect("pattern");
    for c in re.captures_iter(text) {
        let (name, three) = match (c.get(1), c.get(2)) {
            (Some(n), _) => (n.as_str(), true),
            (_, Some(n)) => (n.as_str(), false),
            _ => continue,
        };
        let key = if three {
            format!("3x:{name}")
        } else {
            name.to_string()
        };
        out3.entry(key).or_insert_with(|| file.to_path_buf());
    }
}

/// Files ending in `.ext` under `dir`: the modules are links (to
/// `/etc/alternatives`), followed; links inside a module (Debian links
/// spec fixtures back to the modules) are not.
fn files_with(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    files_under(dir, ext, true, out)
}

fn files_under(dir: &Path, ext: &str, top: bool, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if !top && p.is_symlink() && p.is_dir() {
            continue;
        }
        if p.is_dir() {
            files_under(&p, ext, false, out);
        } else if p.extension().is_some_and(|x| x == ext) {
            out.push(p);
        }
    }
}

#[test]
fn every_function_debian_modules_call_resolves() {
    let root = Path::new(MODULES);
    if !root.is_dir() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must have Debian's puppet-module-* packages installed in {MODULES}"
        );
        eprintln!("every_function_debian_modules_call_resolves: {MODULES} missing, not checked");
        return;
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    let env = Environment::boot(
        tmp.path(),
        &Overrides {
            modulepath: Some(vec![root.to_path_buf()]),
            ..Overrides::default()
        },
    )
    .expect("environment");

    let mut called = BTreeMap::new();
    let mut unparsed = Vec::new();
    let mut manifests = Vec::new();
    files_with(root, "pp", &mut manifests);
    for path in &manifests {
        let source = std::fs::read(path).expect("read");
        match puppet_syntax::parse(&path.display().to_string(), &source) {
            Ok(program) => {
                for e in &program.body {
                    calls(e, path, &mut called);
                }
            }
            Err(e) => unparsed.push(format!("{}: {e:?}", path.display())),
        }
    }
    let mut ruby_called = BTreeMap::new();
    let mut ruby_files = Vec::new();
    files_with(root, "rb", &mut ruby_files);
    ruby_files.retain(|p| {
        let s = p.to_string_lossy();
        s.contains("/lib/puppet/functions/") || s.contains("/lib/puppet/parser/functions/")
    });
    files_with(root, "erb", &mut ruby_files);
    for path in &ruby_files {
        let text = String::from_utf8_lossy(&std::fs::read(path).expect("read")).to_string();
        ruby_calls(&text, path, &mut ruby_called);
    }

    assert!(
        !manifests.is_empty() && !called.is_empty(),
        "no manifest or no call found under {MODULES}"
    );
    let mut by_kind: BTreeMap<&str, usize> = BTreeMap::new();
    let mut unresolved = Vec::new();
    let mut known = BTreeSet::new();
    let mut resolve = |name: &str, caller: Caller, from: &Path| {
        let mut disk = OnDisk(&env);
        let kind = if let Some(bare) = name.strip_prefix("3x:") {
            // `scope.function_x`: a module's 3.x Ruby first, else as
            // `call_function`.
            if registry::ruby_3x_first(bare, false, false)
                && puppet_compiler::eval::registry::ruby_function_file_3x(&env, bare).is_some()
            {
                Some("module Ruby (3.x)")
            } else {
                kind_of(registry::resolve(&mut disk, bare, caller).expect("resolve"))
            }
        } else {
            kind_of(registry::resolve(&mut disk, name, caller).expect("resolve"))
        };
        let bare = name.trim_start_matches("3x:");
        let kind = match kind {
            None if caller == Caller::Library && TEMPLATE_HOST.contains(&bare) => {
                Some("template host")
            }
            k => k,
        };
        match kind {
            Some(k) => *by_kind.entry(k).or_default() += 1,
            None if KNOWN_UNRESOLVED.iter().any(|(n, _)| *n == bare) => {
                known.insert(bare.to_string());
            }
            None => unresolved.push(format!("{bare} (called in {})", from.display())),
        }
    };
    for (name, from) in &called {
        resolve(name, Caller::Code, from);
    }
    for (name, from) in &ruby_called {
        resolve(name, Caller::Library, from);
    }
    eprintln!(
        "{} manifests ({} unparsed), {} Ruby/ERB files; {} distinct names called from \
         Puppet code, {} from Ruby/ERB; resolved: {by_kind:?}; known unresolved: {known:?}",
        manifests.len(),
        unparsed.len(),
        ruby_files.len(),
        called.len(),
        ruby_called.len(),
    );
    assert!(
        unresolved.is_empty(),
        "functions called in {MODULES} that resolve to nothing:\n{}",
        unresolved.join("\n")
    );
    let stale: Vec<_> = KNOWN_UNRESOLVED
        .iter()
        .filter(|(n, _)| !known.contains(*n))
        .map(|(n, _)| *n)
        .collect();
    assert!(stale.is_empty(), "listed as unresolved, but not: {stale:?}");
}

fn kind_of(r: Resolved<PathBuf>) -> Option<&'static str> {
    Some(match r {
        Resolved::Mock(_) => "mock",
        Resolved::Native(e) => match (e.origin, e.evaluator()) {
            (Origin::Core, Some(_)) => "Puppet core (evaluator)",
            (Origin::Core, None) => "Puppet core (library)",
            (Origin::Module("stdlib"), _) => "stdlib (native)",
            (Origin::Module(_), _) => "other module (native)",
        },
        Resolved::TypeNew => "a type's new",
        Resolved::Puppet(_) => "module Puppet-language",
        Resolved::Ruby(_) => "module Ruby",
        Resolved::Unknown => return None,
    })
}
