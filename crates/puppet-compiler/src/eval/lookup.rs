//! Looking a key up for one node: the layers (global, environment, module),
//! each hierarchy level's files, interpolation of paths and values, merging,
//! `lookup_options`, and the `lookup()`/`hiera*()` functions.

use indexmap::map::RawEntryApiV1 as _;
use puppet_syntax::util::NameStr as _;
use std::borrow::Cow;
use std::path::PathBuf;
use std::sync::Arc;

use super::issues;

mod custom;
mod eyaml;
use crate::eval::compiler::Compiler;
use crate::eval::error::{EvalError, Location as At};
use crate::eval::scope::ScopeId;
use crate::hiera::config::{self, Location};
use crate::hiera::memo::{Layer, LevelFiles};
use crate::hiera::merge::{Merge, MergeKind, Variants};
use crate::settings::WarningKind;
use puppet_model::types::PType;
use puppet_model::{Map, Value};

/// A lookup failure: not found, or an error text (Puppet's `LookupError`).
enum Miss {
    NotFound,
    /// An error Puppet raises unwrapped (`LookupError`).
    Error(String),
    /// An error of the backend function, reported at the calling expression.
    AtCall(String),
    /// An error a custom backend function raised, as it raised it.
    Raised(Box<EvalError>),
}

type Found = Result<Value, Miss>;

/// An error finding the Hiera layers: Puppet's type check of a
/// `hiera.yaml` (a `TypeAssertionError`, not a `LookupError`) is reported
/// at the calling expression; the others are raised unwrapped.
fn config_error(e: String) -> Miss {
    if e.trim_start()
        .starts_with(crate::hiera::config::TYPE_MISMATCH_SUBJECT)
    {
        Miss::AtCall(e)
    } else {
        Miss::Error(e)
    }
}

/// A failed lookup as the compile reports it. Ruby's `SystemStackError`
/// (an alias chain past Puppet's stack) is no Puppet error: Puppet 7.23 and
/// 8.10 print its bare text, without " on node"
/// (spec-suite/hiera/interp-alias-chain-too-long.case).
fn lookup_failed(e: String) -> EvalError {
    if e == issues::limits::STACK_LEVEL_TOO_DEEP {
        EvalError::Foreign(e)
    } else {
        EvalError::Completion(e)
    }
}

/// `lookup()`'s block: called with the name(s) when nothing is found.
pub type DefaultBlock<'b, C> = &'b mut dyn FnMut(&mut C, Value) -> Result<Value, EvalError>;

/// How deep interpolation may recurse (`%{alias('b')}` in `a`'s value,
/// `b`'s naming `c`, ...). Puppet 7.23 follows a chain of 150 keys and dies
/// with "stack level too deep" on one of 200 (its Ruby stack); pverify
/// follows 150 and gives Puppet's text past them.
const MAX_DEPTH: usize = 150;

/// The arguments of `lookup()`, however they were given.
#[derive(Default)]
pub struct LookupArgs {
    pub names: Vec<String>,
    pub value_type: Option<Arc<PType>>,
    pub merge: Option<Value>,
    pub default: Option<Value>,
}

impl LookupArgs {
    /// `lookup(name|names, [type], [merge], [default])`, `lookup(name, options)`,
    /// `lookup(options)`.
    pub fn parse(args: &[Value]) -> Result<LookupArgs, String> {
        let mut out = LookupArgs::default();
        let names_of = |v: &Value| -> Vec<String> {
            match v {
                Value::Array(a) => a.iter().map(|x| x.to_string()).collect(),
                other => vec![other.to_string()],
            }
        };
        let options = |out: &mut LookupArgs, h: &Map| {
            for (k, v) in h {
                match k.as_str() {
                    Some("name") => out.names = names_of(v),
                    Some("value_type") => {
                        if let Value::Type(t) = v {
                            out.value_type = Some(t.clone());
                        }
                    }
                    Some("merge") if !v.is_undef() => out.merge = Some(v.clone()),
                    Some("default_value") => out.default = Some(v.clone()),
                    _ => {}
                }
            }
        };
        if let [_, second, ..] = args {
            if matches!(args.len(), 2 | 3)
                && !matches!(second, Value::Type(_))
                && !(args.len() == 2 && matches!(second, Value::Hash(_)))
            {
                return Err(signature_mismatch(args.len(), second));
            }
        }
        match args {
            [] => return Err(issues::lookup::EXPECTS_AN_ARGUMENT.into()),
            [Value::Hash(h)] => options(&mut out, h),
            [first, Value::Hash(h)] if !matches!(first, Value::Hash(_)) => {
                out.names = names_of(first);
                options(&mut out, h);
            }
            [first, rest @ ..] => {
                out.names = names_of(first);
                if let Some(Value::Type(t)) = rest.first() {
                    out.value_type = Some(t.clone());
                }
                if let Some(m) = rest.get(1) {
                    if !m.is_undef() {
                        out.merge = Some(m.clone());
                    }
                }
                if let Some(d) = rest.get(2) {
                    out.default = Some(d.clone());
                }
            }
        }
        Ok(out)
    }
}

impl Compiler<'_> {
    /// `lookup(...)`: the found value, the default, the block's value, or
    /// Puppet's error.
    pub fn hiera_lookup_function(
        &mut self,
        args: &LookupArgs,
        block: Option<DefaultBlock<'_, Self>>,
        scope: ScopeId,
        at: &At,
    ) -> Result<Value, EvalError> {
        let check = |subject: &str, v: Value| -> Result<Value, EvalError> {
            match &args.value_type {
                Some(t) if !puppet_model::types::is_instance(t, &v) => Err(EvalError::runtime(
                    puppet_model::types::describe_mismatch_named(
                        &format!("{subject} has wrong type,"),
                        t,
                        &puppet_model::types::infer_set(&v),
                    ),
                    at.clone(),
                )),
                _ => Ok(v),
            }
        };
        let merge = match &args.merge {
            Some(m) => Some(Merge::from_value(m).map_err(|e| EvalError::runtime(e, at.clone()))?),
            None => None,
        };
        for name in &args.names {
            match self.hiera_search(name, merge.clone(), scope, &[]) {
                Ok(v) => return check("Found value", v),
                Err(Miss::NotFound) => {}
                Err(Miss::Error(e)) => return Err(lookup_failed(e)),
                Err(Miss::AtCall(e)) => return Err(EvalError::runtime(e, at.clone())),
                Err(Miss::Raised(e)) => return Err(*e),
            }
        }
        if let Some(b) = block {
            let key = match args.names.as_slice() {
                [one] => Value::string(one.as_str()),
                many => Value::array(many.iter().map(|n| Value::string(n.as_str())).collect()),
            };
            let v = b(self, key)?;
            return check("Value returned from default block", v);
        }
        if let Some(d) = &args.default {
            return check("Default value", d.clone());
        }
        Err(EvalError::Completion(match args.names.as_slice() {
            [one] => issues::lookup::not_found(one),
            many => issues::lookup::none_found(
                many.iter()
                    .map(|n| format!("'{n}'"))
                    .collect::<Vec<_>>()
                    .join(", "),
            ),
        }))
    }

    /// Automatic parameter lookup of `class::param`: `Ok(None)` when not found.
    pub fn hiera_class_parameter(
        &mut self,
        key: &str,
        scope: ScopeId,
    ) -> Result<Option<Value>, EvalError> {
        match self.hiera_search(key, None, scope, &[]) {
            Ok(v) => Ok(Some(v)),
            Err(Miss::NotFound) => Ok(None),
            Err(Miss::Error(e) | Miss::AtCall(e)) => Err(lookup_failed(e)),
            Err(Miss::Raised(e)) => Err(*e),
        }
    }

    /// The legacy `hiera`, `hiera_array`, `hiera_hash` (`lookup` with merge
    /// `first`, `unique`, `hash`; the optional third argument is ignored).
    pub fn hiera_legacy(
        &mut self,
        name: &str,
        args: &[Value],
        scope: ScopeId,
    ) -> Result<Value, EvalError> {
        if !self.warnings_disabled(WarningKind::Deprecations) {
            self.warn_once(&issues::lookup::hiera_function_deprecated(
                name,
                self.node.puppet.minor_version(),
            ));
        }
        let key = args.first().map(|v| v.to_string()).unwrap_or_default();
        let merge = match name {
            "hiera_array" | "hiera_include" => Some(Merge {
                kind: MergeKind::Unique,
                ..Merge::default()
            }),
            "hiera_hash" => Some(Merge {
                kind: MergeKind::Hash,
                ..Merge::default()
            }),
            _ => None,
        };
        match self.hiera_search(&key, merge, scope, &[]) {
            Ok(v) => Ok(v),
            Err(Miss::Error(e) | Miss::AtCall(e)) => Err(lookup_failed(e)),
            Err(Miss::Raised(e)) => Err(*e),
            Err(Miss::NotFound) => match args.get(1) {
                Some(d) => Ok(d.clone()),
                None => Err(EvalError::Completion(issues::lookup::not_found(&key))),
            },
        }
    }

    /// The warnings for an ignored version 3 `hiera.yaml` in an environment
    /// or a module (`location`, found at `place`); under `strict = error`,
    /// Puppet's error instead of the second (`assert_config_version`).
    fn warn_version3(
        &mut self,
        path: &std::path::Path,
        config: &config::Config,
        location: &str,
        place: &str,
    ) -> Result<(), String> {
        let p = path.display();
        if !self.warnings_disabled(WarningKind::Deprecations) {
            self.warn_once(&format!(
                "{p}: Use of 'hiera.yaml' version 3 is deprecated. It should be converted to version 5\n   (file: {p})"
            ));
        }
        if let Some(e) = &config.version3_error {
            return Err(e.clone());
        }
        if self.node.strict() == crate::version::Strict::Error {
            return Err(issues::lookup::hiera_version_3_not_global(location, p));
        }
        self.warn_once(&format!(
            "hiera.yaml version 3 found at {place} was ignored\n   (file: {p})"
        ));
        Ok(())
    }

    /// A warning Puppet logs once per compile.
    fn warn_once(&mut self, text: &str) {
        if !self.warnings.iter().any(|w| w == text) {
            self.warnings.push(text.to_string());
        }
    }

    /// The layers for a key: global, environment, then the key's module;
    /// found once per module and compile.
    fn hiera_layers(&mut self, key: &str) -> Result<Arc<Vec<Layer>>, String> {
        let module = key.trim_colons().split_colons_once().map_or("", |(m, _)| m);
        if let Some(layers) = self.hiera.layers(module) {
            return Ok(layers.clone());
        }
        let layers = Arc::new(self.find_hiera_layers(key)?);
        self.hiera.set_layers(module.to_string(), layers.clone());
        Ok(layers)
    }

    fn find_hiera_layers(&mut self, key: &str) -> Result<Vec<Layer>, String> {
        let mut layers = Vec::new();
        if let Some(path) = self.global_hiera_config() {
            let config =
                match self
                    .env
                    .hiera
                    .config(self.env.files(), &path, self.node.puppet.ruby())?
                {
                    Some(c) if c.version3 => {
                        return Err(issues::lookup::global_version_3_unread(path.display()))
                    }
                    Some(c) => c,
                    None => Arc::new(config::default_config(
                        path.parent().unwrap_or(&self.env.dir),
                    )),
                };
            layers.push(Layer {
                config,
                module: None,
                global: true,
            });
        }
        // The environment's hiera.yaml, or the run's replacement read as if
        // it were there.
        let env_conf = self.env.hiera_yaml.clone();
        if let Some(config) = self.env.hiera.config_rooted(
            self.env.files(),
            &env_conf,
            &self.env.dir,
            self.node.puppet.ruby(),
        )? {
            if config.version3 {
                self.warn_version3(&env_conf, &config, "an environment", "the environment root")?;
            } else {
                layers.push(Layer {
                    config,
                    module: None,
                    global: false,
                });
            }
        }
        if let Some((module, _)) = key.trim_colons().split_colons_once() {
            if let Some(dir) = self.env.module_dir(module) {
                let path = dir.join("hiera.yaml");
                if let Some(config) =
                    self.env
                        .hiera
                        .config(self.env.files(), &path, self.node.puppet.ruby())?
                {
                    if config.version3 {
                        self.warn_version3(&path, &config, "a module", "module root")?;
                        return Ok(layers);
                    }
                    layers.push(Layer {
                        config,
                        module: Some(module.to_string()),
                        global: false,
                    });
                }
            }
        }
        Ok(layers)
    }

    /// The global `hiera.yaml`: the `hiera_config` setting, relative to the
    /// environment directory when relative.
    fn global_hiera_config(&self) -> Option<PathBuf> {
        let p = PathBuf::from(self.node.settings.hiera_config.as_deref()?);
        Some(if p.is_absolute() {
            p
        } else {
            self.env.dir.join(p)
        })
    }

    /// Finds and merges `key` (dotted keys dig into the root key's value).
    fn hiera_search(
        &mut self,
        key: &str,
        merge: Option<Merge>,
        scope: ScopeId,
        chain: &[String],
    ) -> Found {
        let key = key.trim_colons();
        if chain.len() > MAX_DEPTH && !chain.iter().any(|k| k == key) {
            return Err(Miss::Error(issues::limits::STACK_LEVEL_TOO_DEEP.into()));
        }
        if chain.iter().any(|k| k == key) {
            // Puppet detects it in the (always present) global layer, which
            // wraps lookup errors with the top key.
            return Err(Miss::Error(issues::lookup::key_failed(
                chain.first().map(String::as_str).unwrap_or(key),
                issues::lookup::recursive_lookup(chain.join(", ")),
            )));
        }
        let chain = &[chain, &[key.to_string()]].concat()[..];
        let (root, path) = split_key(key);
        let options = self.lookup_options_for(&root, scope, chain)?;
        let option = |name: &str| options.as_ref().and_then(|o| o.get(&Value::string(name)));
        let merge = match (merge, option("merge")) {
            (Some(m), _) => m,
            (None, Some(m)) => Merge::from_value(m).map_err(Miss::Error)?,
            (None, None) => Merge::default(),
        };
        // `convert_to: Sensitive` (other conversions are not supported).
        let sensitive = option("convert_to").is_some_and(|c| match c {
            Value::String(t) => t.as_ref() == "Sensitive",
            Value::Array(a) => a.first().and_then(Value::as_str) == Some("Sensitive"),
            _ => false,
        });
        // Puppet's provider stack is always three variants (global,
        // environment, module), each a merge over its levels, each a merge
        // over the level's locations: a merge strategy converts values
        // differently for one variant than for several.
        let layers = self.hiera_layers(&root).map_err(config_error)?;
        let mut top: [Option<Value>; 3] = [None, None, None];
        // The first-found merge: each layer's search ends at its first value.
        let first_only = merge.kind == MergeKind::First;
        for layer in layers.iter() {
            let slot = match (&layer.module, layer.global) {
                (Some(_), _) => 2,
                (None, true) => 0,
                (None, false) => 1,
            };
            let mut level_results = Variants::default();
            let per_level = match self.layer_values(layer, &root, &path, scope, chain, first_only) {
                Err(Miss::Error(e))
                    if layer.global && !e.starts_with(issues::lookup::KEY_FAILED_PREFIX) =>
                {
                    return Err(Miss::Error(issues::lookup::key_failed(&chain[0], e)))
                }
                other => other?,
            };
            for per_location in per_level {
                level_results.push(merge.lookup(per_location).map_err(Miss::Error)?);
            }
            top[slot] = merge.lookup(level_results).map_err(Miss::Error)?;
            if first_only && top[slot].is_some() {
                break;
            }
        }
        let merged = merge
            .lookup(top.into_iter().collect())
            .map_err(Miss::Error)?;
        let Some(mut value) = merged else {
            return Err(Miss::NotFound);
        };
        if sensitive {
            value = Value::Sensitive(Arc::new(value));
        }
        for seg in path {
            value = match (&value, seg.parse::<usize>()) {
                (Value::Hash(h), _) => match h.get(&Value::string(seg.as_str())) {
                    Some(v) => v.clone(),
                    None => return Err(Miss::NotFound),
                },
                (Value::Array(a), Ok(i)) => match a.get(i) {
                    Some(v) => v.clone(),
                    None => return Err(Miss::NotFound),
                },
                _ => return Err(Miss::NotFound),
            };
        }
        Ok(value)
    }

    /// Every value of `key` in a layer's files, in hierarchy order,
    /// interpolated. With `first_only` (the first-found merge), the search
    /// ends at the first value: as in Puppet, no file or value past it is
    /// read or interpolated, so an error there does not surface.
    fn layer_values(
        &mut self,
        layer: &Layer,
        key: &str,
        segments: &[String],
        scope: ScopeId,
        chain: &[String],
        first_only: bool,
    ) -> Result<Vec<Variants>, Miss> {
        let mut out = Vec::with_capacity(layer.config.levels.len());
        // Once per call, not per file: the key as a Puppet string, the
        // module layer's key prefix.
        let wanted = Value::string(key);
        // Hashed once for all the level's files.
        let wanted_hash = puppet_model::value::map_key_hash(&wanted);
        let prefix = layer.module.as_ref().map(|m| format!("{m}::"));
        for level in &layer.config.levels {
            if let Some(kind) = level.custom {
                let per_location = self.custom_level_values(
                    layer, level, kind, key, segments, scope, chain, first_only,
                )?;
                let found = first_only && per_location.any();
                out.push(per_location);
                if found {
                    return Ok(out);
                }
                continue;
            }
            let files = self.level_files(level, scope, chain)?;
            let mut per_location = Variants::default();
            for (file, data) in files.iter() {
                per_location.searched += 1;
                let h = match data {
                    Err(e) => return Err(Miss::Error(issues::lookup::unable_to_parse(e))),
                    Ok(Some(Value::Hash(h))) => h,
                    Ok(None) => continue,
                    // yaml_data takes anything else (an empty file too) as
                    // {}; under `strict = error` anything but an empty file
                    // (Psych's `false`) fails.
                    Ok(Some(v)) => {
                        if !level.json
                            && self.node.strict() == crate::version::Strict::Error
                            && *v != Value::Boolean(false)
                        {
                            return Err(Miss::Error(issues::lookup::not_a_yaml_hash(
                                file.display(),
                            )));
                        }
                        if !level.json {
                            self.warn_once(&issues::lookup::not_a_yaml_hash(file.display()));
                        }
                        continue;
                    }
                };
                if let (Some(m), Some(prefix), false) = (&layer.module, &prefix, level.eyaml) {
                    if self.hiera.first_prefix_check(file.as_os_str()) {
                        let unqualified: Vec<&str> = h
                            .keys()
                            .filter_map(|k| k.as_str())
                            .filter(|k| *k != "lookup_options" && !k.starts_with(prefix))
                            .collect();
                        let text = issues::lookup::module_keys_unqualified(
                            m,
                            if level.json { "json_data" } else { "yaml_data" },
                            file.display(),
                        );
                        // Puppet 8 names each key it drops.
                        let texts: Vec<String> = match self.node.puppet {
                            _ if unqualified.is_empty() => Vec::new(),
                            crate::version::PuppetVersion::V7 => vec![text],
                            crate::version::PuppetVersion::V8 => unqualified
                                .iter()
                                .map(|k| issues::lookup::module_key_unqualified_named(&text, k))
                                .collect(),
                        };
                        for t in texts {
                            self.warn_once(&t);
                        }
                    }
                    if key != "lookup_options" && !key.starts_with(prefix.as_str()) {
                        continue;
                    }
                }
                if let Some((_, v)) = h.raw_entry_v1().from_hash(wanted_hash, |k| *k == wanted) {
                    if let Some(t) = symbol_type(v) {
                        return Err(Miss::Error(issues::lookup::not_a_lookup_value(
                            key,
                            if level.json { "json_data" } else { "yaml_data" },
                            file.display(),
                            t,
                        )));
                    }
                    let v = if level.eyaml {
                        self.eyaml_value(v, level, file, key, scope, chain)?
                    } else {
                        self.interpolate(v, scope, chain)?
                    };
                    per_location.found.push(v);
                    if first_only {
                        out.push(per_location);
                        return Ok(out);
                    }
                }
            }
            out.push(per_location);
        }
        Ok(out)
    }

    /// A hierarchy level's files (interpolated paths) and their data,
    /// remembered while the variables the paths read keep their values.
    fn level_files(
        &mut self,
        level: &config::Level,
        scope: ScopeId,
        chain: &[String],
    ) -> Result<LevelFiles, Miss> {
        if let Some((files, reads)) = self.hiera.level(level) {
            // Re-reading a path's variables: as in the path itself.
            self.interpolating_paths = true;
            let unchanged = reads
                .iter()
                .all(|(expr, was)| self.interpolation_var(expr, scope) == *was);
            self.interpolating_paths = false;
            if unchanged {
                return Ok(files);
            }
        }
        let outer = self.hiera.pause();
        self.hiera.start_recording();
        let files = self.resolve_level_files(level, scope, chain).map(|paths| {
            paths
                .into_iter()
                .map(|p| {
                    let read = self.env.hiera.read(
                        self.env.files(),
                        &p,
                        level.json,
                        self.node.puppet.ruby(),
                    );
                    if read.bad_bytes && self.invalid_utf8.is_none() {
                        self.invalid_utf8 = Some(p.clone());
                    }
                    (p, read.data)
                })
                .collect::<LevelFiles>()
        });
        self.hiera.finish_recording(level, files.as_ref().ok());
        self.hiera.resume(outer);
        files
    }

    /// The paths of a hierarchy level, interpolated. An undefined variable
    /// there is never an error (Puppet's `avoid_hiera_interpolation_errors`).
    fn resolve_level_files(
        &mut self,
        level: &config::Level,
        scope: ScopeId,
        chain: &[String],
    ) -> Result<Vec<PathBuf>, Miss> {
        self.interpolating_paths = true;
        let files = self.resolve_level_files_inner(level, scope, chain);
        self.interpolating_paths = false;
        files
    }

    fn resolve_level_files_inner(
        &mut self,
        level: &config::Level,
        scope: ScopeId,
        chain: &[String],
    ) -> Result<Vec<PathBuf>, Miss> {
        let mut files = Vec::new();
        if level.locations.is_empty() {
            return Err(Miss::AtCall(issues::lookup::location_missing(
                &level.function,
            )));
        }
        for loc in &level.locations {
            match loc {
                Location::Path(p) => {
                    let p = self.interpolate_str(p, scope, chain)?;
                    files.push(level.datadir.join(p.to_string()));
                }
                Location::Glob(g) => {
                    let g = self.interpolate_str(g, scope, chain)?.to_string();
                    files.extend(config::glob(self.env.files(), &level.datadir, &g));
                }
                // Custom backends only (`custom_places`).
                Location::Uri(_) => {}
                Location::Mapped(var, k, template) => {
                    let items = self.interpolation_var(var, scope);
                    let items: Vec<Value> = match &items {
                        Value::Array(a) => a.to_vec(),
                        Value::Hash(h) => h
                            .iter()
                            .map(|(k, v)| Value::array(vec![k.clone(), v.clone()]))
                            .collect(),
                        Value::Undef => Vec::new(),
                        _ => vec![items],
                    };
                    for item in items {
                        let text =
                            self.interpolate_with(template, scope, chain, Some((k, &item)))?;
                        files.push(level.datadir.join(text));
                    }
                }
            }
        }
        Ok(files)
    }

    /// The merge strategy `lookup_options` give for `key` (exact key first,
    /// then regexp keys in order).
    fn lookup_options_for(
        &mut self,
        key: &str,
        scope: ScopeId,
        chain: &[String],
    ) -> Result<Option<Arc<Map>>, Miss> {
        // Puppet's LookupAdapter reads the lookup_options of a module (or of
        // keys without one) once per compile and keeps them.
        let module = key.split_colons_once().map_or("", |(m, _)| m);
        let opts = match self.hiera.lookup_options(module) {
            Some(cached) => cached.clone(),
            None => {
                let merged = self.merged_lookup_options(key, scope, chain)?;
                self.hiera
                    .set_lookup_options(module.to_string(), merged.clone());
                merged
            }
        };
        let Some(opts) = opts else {
            return Ok(None);
        };
        let entry = match opts.get(&Value::string(key)) {
            Some(e) => Some(e.clone()),
            None => opts.iter().find_map(|(k, v)| {
                let pat = k.as_str()?;
                if !pat.starts_with('^') {
                    return None;
                }
                matches_option_pattern(pat, key).then(|| v.clone())
            }),
        };
        Ok(entry.and_then(|e| e.into_hash().ok()))
    }

    /// Every layer's `lookup_options` for `key`'s module, hash-merged.
    fn merged_lookup_options(
        &mut self,
        key: &str,
        scope: ScopeId,
        chain: &[String],
    ) -> Result<Option<Arc<Map>>, Miss> {
        let layers = self.hiera_layers(key).map_err(config_error)?;
        // Every hash found is a variant of its own.
        let mut found = Variants::default();
        for layer in layers.iter() {
            for level in self.layer_values(layer, "lookup_options", &[], scope, chain, false)? {
                for v in level.found {
                    if matches!(v, Value::Hash(_)) {
                        found.push(Some(v));
                    }
                }
            }
        }
        let hash_merge = Merge {
            kind: MergeKind::Hash,
            ..Merge::default()
        };
        Ok(hash_merge
            .lookup(found)
            .map_err(Miss::Error)?
            .and_then(|v| v.into_hash().ok()))
    }

    /// Interpolates every string inside a data value.
    fn interpolate(&mut self, v: &Value, scope: ScopeId, chain: &[String]) -> Result<Value, Miss> {
        Ok(match v {
            Value::String(s) if s.contains("%{") => self.interpolate_str(s, scope, chain)?,
            Value::Array(a) => Value::array(
                a.iter()
                    .map(|x| self.interpolate(x, scope, chain))
                    .collect::<Result<_, _>>()?,
            ),
            Value::Hash(h) => {
                let mut out = Map::default();
                for (k, x) in h.iter() {
                    let k = self.interpolate(k, scope, chain)?;
                    out.insert(k, self.interpolate(x, scope, chain)?);
                }
                Value::hash(out)
            }
            other => other.clone(),
        })
    }

    fn interpolate_str(
        &mut self,
        s: &str,
        scope: ScopeId,
        chain: &[String],
    ) -> Result<Value, Miss> {
        // `%{alias('k')}` as the entire string keeps the found value's type
        // (a missing key is '', as for `lookup`).
        if let Some(inner) = s.strip_prefix("%{").and_then(|r| r.strip_suffix('}')) {
            if let Some(("alias", key)) = function_call(inner.trim()) {
                if !inner.contains('}') {
                    self.hiera.record_uncacheable();
                    return match self.hiera_search(&key, None, scope, chain) {
                        Ok(v) => Ok(v),
                        Err(Miss::NotFound) => Ok(Value::string("")),
                        Err(e) => Err(e),
                    };
                }
            }
        }
        self.interpolate_with(s, scope, chain, None)
            .map(Value::string)
    }

    fn interpolate_with(
        &mut self,
        s: &str,
        scope: ScopeId,
        chain: &[String],
        mapped: Option<(&String, &Value)>,
    ) -> Result<String, Miss> {
        let mut out = String::new();
        let mut rest = s;
        while let Some(i) = rest.find("%{") {
            out.push_str(&rest[..i]);
            let after = &rest[i + 2..];
            let Some(end) = after.find('}') else {
                out.push_str(&rest[i..]);
                rest = "";
                break;
            };
            let expr = after[..end].trim();
            rest = &after[end + 1..];
            // Interpolations that look up keys that interpolate again grow
            // exponentially: each one is counted and its text reserved.
            crate::budget::tick().map_err(|e| Miss::Error(e.to_string()))?;
            // Puppet's EMPTY_INTERPOLATIONS: nothing, without a warning.
            if matches!(expr, "" | "::" | "''" | "\"\"" | "'::'" | "\"::\"") {
                continue;
            }
            let value = match function_call(expr) {
                Some(("literal", arg)) => Value::string(arg),
                Some(("alias", _)) => {
                    return Err(Miss::Error(
                        issues::lookup::HIERA_INTERPOLATION_ALIAS_NOT_ENTIRE_STRING.into(),
                    ))
                }
                Some(("lookup" | "hiera", key)) => {
                    self.hiera.record_uncacheable();
                    // Interpolation looks up with the default ''.
                    match self.hiera_search(&key, None, scope, chain) {
                        Ok(v) => v,
                        Err(Miss::NotFound) => Value::string(""),
                        Err(e) => return Err(e),
                    }
                }
                Some(("scope", var)) => self.interpolation_var(&var, scope),
                Some((f, _)) => {
                    return Err(Miss::Error(
                        issues::lookup::hiera_interpolation_unknown_interpolation_method(f),
                    ))
                }
                None => match mapped {
                    Some((k, item)) if expr == k => item.clone(),
                    _ => self.interpolation_var(expr, scope),
                },
            };
            if let Some(e) = self.interpolation_error.take() {
                return Err(Miss::AtCall(e));
            }
            match &value {
                // Most interpolations are strings: no copy to append one.
                Value::String(v) => {
                    crate::budget::reserve((out.len() + v.len()) as u64)
                        .map_err(|e| Miss::Error(e.to_string()))?;
                    out.push_str(v)
                }
                other => out.push_str(&ruby_to_s(other)),
            }
        }
        out.push_str(rest);
        Ok(out)
    }

    /// `%{var}`, `%{::var}`, `%{facts.os.family}`, `%{trusted.certname}`.
    fn interpolation_var(&mut self, expr: &str, scope: ScopeId) -> Value {
        let value = self.interpolation_var_unrecorded(expr, scope);
        self.hiera.record_read(expr, &value);
        value
    }

    fn interpolation_var_unrecorded(&mut self, expr: &str, scope: ScopeId) -> Value {
        let (root, path) = split_key(expr);
        let bare = root.trim_colons();
        let base = match bare.rsplit_colons() {
            Some((class, var)) => self
                .defs
                .class_scope(&class.to_lowercase())
                .and_then(|s| self.scopes.get(s).vars.get(var).cloned()),
            None if root.starts_with("::") => {
                self.scopes.get(self.scopes.top()).vars.get(bare).cloned()
            }
            None => self.scopes.lookup(scope, bare).cloned(),
        };
        let Some(mut v) = base else {
            // Puppet's `Scope#variable_not_found`, as `strict` says.
            match self.node.strict() {
                crate::version::Strict::Off => {}
                crate::version::Strict::Warning => {
                    if !self.warnings_disabled(WarningKind::UndefinedVariables) {
                        self.warn_once(&issues::lookup::hiera_undefined_variable(root));
                    }
                }
                crate::version::Strict::Error if self.interpolating_paths => {
                    if !self.warnings_disabled(WarningKind::UndefinedVariables) {
                        self.warn_once(&issues::lookup::interpolation_failed(root));
                    }
                }
                crate::version::Strict::Error => {
                    self.interpolation_error
                        .get_or_insert_with(|| issues::lookup::undefined_variable_error(root));
                }
            }
            return Value::string("");
        };
        for seg in path {
            v = match (&v, seg.parse::<usize>()) {
                (Value::Hash(h), _) => h
                    .get(&Value::string(seg.as_str()))
                    .cloned()
                    .unwrap_or(Value::Undef),
                (Value::Array(a), Ok(i)) => a.get(i).cloned().unwrap_or(Value::Undef),
                _ => Value::Undef,
            };
        }
        match v {
            Value::Undef => Value::string(""),
            other => other,
        }
    }
}

/// `name('arg')` or `name("arg")` → (name, arg).
fn function_call(expr: &str) -> Option<(&str, String)> {
    let open = expr.find('(')?;
    let name = &expr[..open];
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphabetic() || c == '_') {
        return None;
    }
    let inner = expr[open + 1..].strip_suffix(')')?.trim();
    let arg = inner
        .strip_prefix('\'')
        .and_then(|r| r.strip_suffix('\''))
        .or_else(|| inner.strip_prefix('"').and_then(|r| r.strip_suffix('"')))
        .unwrap_or(inner);
    Some((name, arg.to_string()))
}

/// `a.b.'c.d'` → ("a", ["b", "c.d"]).
fn split_key(key: &str) -> (Cow<'_, str>, Vec<String>) {
    // Byte by byte: most keys are plain (`apache::mod::ssl::ssl_cipher`), and
    // a search for any of three chars took ~5 instructions a character.
    if !key.bytes().any(|b| matches!(b, b'.' | b'\'' | b'"')) {
        return (Cow::Borrowed(key), Vec::new());
    }
    let mut parts = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    for c in key.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => cur.push(c),
            (None, '\'' | '"') => quote = Some(c),
            (None, '.') => parts.push(std::mem::take(&mut cur)),
            (None, c) => cur.push(c),
        }
    }
    parts.push(cur);
    let root = parts.remove(0);
    (Cow::Owned(root), parts)
}

/// The inferred type of a value holding a Ruby Symbol (see
/// [`puppet_model::yaml::SYMBOL_MARK`]), as Puppet names it; `None` without one.
fn symbol_type(v: &Value) -> Option<String> {
    let is_sym = |x: &Value| {
        x.as_str()
            .is_some_and(|s| s.starts_with(puppet_model::yaml::SYMBOL_MARK))
    };
    match v {
        _ if is_sym(v) => Some("Runtime[ruby, 'Symbol']".into()),
        Value::Array(a) => {
            a.iter().find_map(symbol_type)?;
            let elem = if a.iter().all(is_sym) {
                "Runtime[ruby, 'Symbol']"
            } else {
                "Any"
            };
            Some(format!("Array[{elem}, {n}, {n}]", n = a.len()))
        }
        Value::Hash(h) => {
            h.iter()
                .find_map(|(k, x)| symbol_type(k).or_else(|| symbol_type(x)))?;
            Some(format!("Hash[Any, Any, {n}, {n}]", n = h.len()))
        }
        _ => None,
    }
}

/// Ruby's `to_s` of a value put into a string by interpolation (`gsub`):
/// strings as they are, collections as Ruby's `inspect` writes them.
fn ruby_to_s(v: &Value) -> String {
    match v {
        Value::String(s) => s.to_string(),
        Value::Undef => String::new(),
        other => ruby_inspect(other),
    }
}

fn ruby_inspect(v: &Value) -> String {
    match v {
        Value::Undef => "nil".into(),
        Value::String(s) => format!("{s:?}"),
        Value::Array(a) => format!(
            "[{}]",
            a.iter().map(ruby_inspect).collect::<Vec<_>>().join(", ")
        ),
        Value::Hash(h) => format!(
            "{{{}}}",
            h.iter()
                .map(|(k, x)| format!("{}=>{}", ruby_inspect(k), ruby_inspect(x)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        other => other.to_string(),
    }
}

const SIG_NAME_TYPE_MERGE: &str = "(NameType = Variant[String, Array[String]] name, ValueType = Type value_type?, MergeType = Variant[String[1], Hash[String, Scalar]] merge?)";
const SIG_WITH_DEFAULT: &str = "(NameType = Variant[String, Array[String]] name, Optional[ValueType] value_type, Optional[MergeType] merge, DefaultValueType = Any default_value)";
const OPTIONS_WITHOUT_NAME: &str = "OptionsWithoutName = Struct[{'value_type' => Optional[ValueType = Type], 'default_value' => DefaultValueType = Any, 'override' => Optional[Hash[String, Any]], 'default_values_hash' => Optional[Hash[String, Any]], 'merge' => Optional[MergeType = Variant[String[1], Hash[String, Scalar]]]}]";
const SIG_OPTIONS_WITH_NAME: &str = "(OptionsWithName = Struct[{'name' => NameType = Variant[String, Array[String]], 'value_type' => Optional[ValueType = Type], 'default_value' => DefaultValueType = Any, 'override' => Optional[Hash[String, Any]], 'default_values_hash' => Optional[Hash[String, Any]], 'merge' => Optional[MergeType = Variant[String[1], Hash[String, Scalar]]]}] options_hash, BlockType = Callable[NameType = Variant[String, Array[String]]] block?)";

/// Puppet's dispatch error for `lookup(name, <not a type>[, merge])`.
fn signature_mismatch(count: usize, value_type: &Value) -> String {
    let got = match value_type {
        Value::Undef => "Undef".to_string(),
        v => puppet_model::value::value_label(v),
    };
    let bad_type = format!("parameter 'value_type' expects a ValueType = Type value, got {got}");
    let last = if count == 3 {
        "expects 2 arguments, got 3".to_string()
    } else {
        format!("parameter 'options_hash' expects an {OPTIONS_WITHOUT_NAME} value, got {got}")
    };
    format!(
        "The function 'lookup' was called with arguments it does not accept. It expects one of:\n  \
         {SIG_NAME_TYPE_MERGE}\n    rejected: {bad_type}\n  \
         {SIG_WITH_DEFAULT}\n    rejected: expects 4 arguments, got {count}\n  \
         {SIG_NAME_TYPE_MERGE}\n    rejected: {bad_type}\n  \
         {SIG_OPTIONS_WITH_NAME}\n    rejected: expects 1 argument, got {count}\n  \
         (Variant[String, Array[String]] name, {OPTIONS_WITHOUT_NAME} options_hash, BlockType = Callable[NameType = Variant[String, Array[String]]] block?)\n    rejected: {last}"
    )
}

/// Whether a `lookup_options` key written as a pattern (`^profile::.*`)
/// matches `key`. Each pattern is compiled once per thread: it is asked
/// at every lookup of a key the options do not name.
fn matches_option_pattern(pat: &str, key: &str) -> bool {
    thread_local! {
        static COMPILED: std::cell::RefCell<rustc_hash::FxHashMap<String, Option<regex::Regex>>> =
            std::cell::RefCell::default();
    }
    COMPILED.with(|c| {
        let mut c = c.borrow_mut();
        if !c.contains_key(pat) {
            c.insert(pat.to_string(), regex::Regex::new(pat).ok());
        }
        c.get(pat)
            .and_then(Option::as_ref)
            .is_some_and(|re| re.is_match(key))
    })
}
