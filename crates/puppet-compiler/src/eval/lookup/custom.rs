//! Custom Hiera backends: a hierarchy level whose `data_hash`,
//! `lookup_key` or `data_dig` names a function of the environment or a
//! module (Puppet language or Ruby), run as Puppet's
//! `DataHashFunctionProvider`, `LookupKeyFunctionProvider` and
//! `DataDigFunctionProvider` run it: one call per existing location, with
//! the level's options (interpolated) plus `path` or `uri`, and a
//! `Puppet::LookupContext` whose state (`FunctionContext`) lasts for the
//! compile. The context's methods are answered here too.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::{Miss, ScopeId};
use crate::eval::builtins::registry::{self, Caller, Resolved};
use crate::eval::compiler::Compiler;
use crate::eval::error::{EvalError, Location as At};
use crate::eval::expr::{Ctx, R};
use crate::eval::issues;
use crate::hiera::config::{BackendKind, Level, Location};
use crate::hiera::memo::{BackendCall, Layer};
use crate::hiera::merge::Variants;
use puppet_model::types::object::{lookup_context_type, ObjectValue};
use puppet_model::{Map, Value};
use puppet_syntax::ast::Lambda;

/// Where a custom backend is called for.
enum Place {
    /// A level without locations: one call, no `path`.
    Nowhere,
    Path(PathBuf),
    Uri(String),
}

impl Place {
    fn shown(&self) -> Option<String> {
        match self {
            Place::Nowhere => None,
            Place::Path(p) => Some(p.display().to_string()),
            Place::Uri(u) => Some(u.clone()),
        }
    }
}

/// The text of the error `not_found` unwinds a backend with (caught by the
/// provider; it shows only if a Ruby `rescue` swallowed the throw).
const NOT_FOUND_THROWN: &str = "uncaught throw :no_such_key";

impl Compiler<'_> {
    /// A custom level's value of `key` at each of its locations (`None`
    /// where it has none), in location order; with `first_only`, up to the
    /// first found. `segments` are the dotted parts after the root key
    /// (data_dig answers for the whole key).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn custom_level_values(
        &mut self,
        layer: &Layer,
        level: &Level,
        kind: BackendKind,
        key: &str,
        segments: &[String],
        scope: ScopeId,
        chain: &[String],
        first_only: bool,
    ) -> Result<Variants, Miss> {
        let places = self.custom_places(level, scope, chain)?;
        let options = match &level.options {
            Some(o) => match self.interpolate(&Value::hash(o.clone()), scope, chain)? {
                Value::Hash(ref h) => (**h).clone(),
                _ => Map::default(),
            },
            None => Map::default(),
        };
        let mut out = Variants::default();
        for place in places {
            if let Place::Path(p) = &place {
                if !self.env.files().exists(p) {
                    out.push(None);
                    continue;
                }
            }
            let found = match kind {
                BackendKind::DataHash => {
                    self.data_hash_value(layer, level, &place, &options, key, scope, chain)?
                }
                BackendKind::LookupKey => {
                    let args = vec![Value::string(key)];
                    self.keyed_value(
                        layer, level, kind, &place, &options, key, args, scope, chain,
                    )?
                }
                BackendKind::DataDig => {
                    let full = std::iter::once(key.to_string())
                        .chain(segments.iter().cloned())
                        .collect::<Vec<_>>();
                    let args = vec![Value::array(full.iter().map(|s| segment(s)).collect())];
                    let found = self.keyed_value(
                        layer,
                        level,
                        kind,
                        &place,
                        &options,
                        &full.join("."),
                        args,
                        scope,
                        chain,
                    )?;
                    found.map(|v| undig(v, segments))
                }
            };
            let done = first_only && found.is_some();
            out.push(found);
            if done {
                break;
            }
        }
        Ok(out)
    }

    /// The level's locations, interpolated: paths (whether they exist is
    /// asked per call), URIs, or none.
    fn custom_places(
        &mut self,
        level: &Level,
        scope: ScopeId,
        chain: &[String],
    ) -> Result<Vec<Place>, Miss> {
        if level.locations.is_empty() {
            return Ok(vec![Place::Nowhere]);
        }
        let mut places = Vec::new();
        let mut paths = false;
        for loc in &level.locations {
            match loc {
                Location::Uri(u) => {
                    self.interpolating_paths = true;
                    let u = self.interpolate_str(u, scope, chain);
                    self.interpolating_paths = false;
                    places.push(Place::Uri(u?.to_string()));
                }
                _ => paths = true,
            }
        }
        if paths {
            places.extend(
                self.resolve_level_files(level, scope, chain)?
                    .into_iter()
                    .map(Place::Path),
            );
        }
        Ok(places)
    }

    /// data_hash: the function's hash for the location (called once per
    /// compile), then the key's value in it, interpolated.
    #[allow(clippy::too_many_arguments)]
    fn data_hash_value(
        &mut self,
        layer: &Layer,
        level: &Level,
        place: &Place,
        options: &Map,
        key: &str,
        scope: ScopeId,
        chain: &[String],
    ) -> Result<Option<Value>, Miss> {
        let id = self.context_id(level, place);
        let data = match self.hiera.backends.get(id).data.clone() {
            Some(d) => d,
            None => {
                // `not_found` thrown from a data_hash function: the
                // location has nothing (and nothing is kept).
                let Some(answer) =
                    self.call_backend(layer, level, place, options, Vec::new(), id, scope, chain)?
                else {
                    return Ok(None);
                };
                let h = match answer.into_hash() {
                    Ok(h) => h,
                    Err(answer) => {
                        return Err(Miss::Error(issues::lookup::backend_not_a_hash(
                            &level.function,
                            place.shown(),
                            &answer,
                        )))
                    }
                };
                let h = self.module_keys_only(layer, level, place, h);
                self.hiera.backends.get(id).data = Some(h.clone());
                h
            }
        };
        match data.get(&Value::string(key)) {
            Some(v) => Ok(Some(self.interpolate(&v.clone(), scope, chain)?)),
            None => Ok(None),
        }
    }

    /// A module layer's data_hash answer without the keys outside the
    /// module's namespace (Puppet warns about each, as for its data files).
    fn module_keys_only(
        &mut self,
        layer: &Layer,
        level: &Level,
        place: &Place,
        h: Arc<Map>,
    ) -> Arc<Map> {
        let Some(m) = &layer.module else {
            return h;
        };
        let prefix = format!("{m}::");
        let foreign: Vec<String> = h
            .keys()
            .filter_map(|k| k.as_str())
            .filter(|k| *k != "lookup_options" && !k.starts_with(&prefix))
            .map(str::to_string)
            .collect();
        if foreign.is_empty() {
            return h;
        }
        let text = issues::lookup::module_keys_unqualified_at(m, &level.function, place.shown());
        match self.node.puppet {
            crate::version::PuppetVersion::V7 => self.warn_once(&text),
            crate::version::PuppetVersion::V8 => {
                for k in &foreign {
                    self.warn_once(&issues::lookup::module_key_unqualified_named(&text, k));
                }
            }
        }
        let mut kept = (*h).clone();
        kept.retain(|k, _| !k.as_str().is_some_and(|k| foreign.iter().any(|f| f == k)));
        Arc::new(kept)
    }

    /// lookup_key and data_dig: the function's value for `key` at the
    /// location, kept once found (a `not_found` is asked again next time).
    #[allow(clippy::too_many_arguments)]
    fn keyed_value(
        &mut self,
        layer: &Layer,
        level: &Level,
        kind: BackendKind,
        place: &Place,
        options: &Map,
        key: &str,
        first_args: Vec<Value>,
        scope: ScopeId,
        chain: &[String],
    ) -> Result<Option<Value>, Miss> {
        let id = self.context_id(level, place);
        if let Some(v) = self.hiera.backends.get(id).found.get(key) {
            return Ok(Some(v.clone()));
        }
        let Some(v) =
            self.call_backend(layer, level, place, options, first_args, id, scope, chain)?
        else {
            return Ok(None);
        };
        if let Some(t) = super::symbol_type(&v) {
            return Err(Miss::AtCall(issues::lookup::backend_not_a_lookup_value(
                key,
                kind.tag(),
                &level.function,
                place.shown(),
                t,
            )));
        }
        self.hiera
            .backends
            .get(id)
            .found
            .insert(key.to_string(), v.clone());
        Ok(Some(v))
    }

    fn context_id(&mut self, level: &Level, place: &Place) -> usize {
        match place {
            Place::Nowhere => self.hiera.backends.id(level, None, None),
            Place::Path(p) => self.hiera.backends.id(level, Some(p), None),
            Place::Uri(u) => self.hiera.backends.id(level, None, Some(u)),
        }
    }

    /// Calls the level's function with `first_args`, the options (with the
    /// location) and a context: `None` when it threw `not_found`.
    #[allow(clippy::too_many_arguments)]
    fn call_backend(
        &mut self,
        layer: &Layer,
        level: &Level,
        place: &Place,
        options: &Map,
        mut args: Vec<Value>,
        context: usize,
        scope: ScopeId,
        chain: &[String],
    ) -> Result<Option<Value>, Miss> {
        let mut options = options.clone();
        match place {
            Place::Nowhere => {}
            Place::Path(p) => {
                options.insert(
                    Value::string("path"),
                    Value::string(p.display().to_string()),
                );
            }
            Place::Uri(u) => {
                options.insert(Value::string("uri"), Value::string(u.as_str()));
            }
        }
        args.push(Value::hash(options));
        args.push(Value::Object(Arc::new(ObjectValue {
            ty: lookup_context_type(),
            values: vec![
                (
                    "environment_name".into(),
                    Value::string(self.env.name.to_string()),
                ),
                (
                    "module_name".into(),
                    layer
                        .module
                        .as_ref()
                        .map_or(Value::Undef, |m| Value::string(m.as_str())),
                ),
            ],
        })));
        let name = level.function.as_str();
        let kind = level.custom.unwrap_or(BackendKind::DataHash);
        let not_found = || {
            Miss::Error(issues::lookup::backend_function_not_found(
                kind.tag(),
                name,
                layer.config.file.display(),
            ))
        };
        // Puppet's private environment loader does not find `environment::`
        // functions for a hierarchy.
        let found = if name.starts_with("environment::") {
            Resolved::Unknown
        } else {
            registry::resolve(self, name, Caller::Library).map_err(|e| Miss::Raised(Box::new(e)))?
        };
        if let Resolved::Puppet(def) = &found {
            self.check_backend_return_type(def, kind, name)?;
        }
        let at = At::default();
        self.hiera.backends.calls.push(BackendCall {
            context,
            scope,
            chain: chain.to_vec(),
            module: layer.module.clone(),
        });
        let thrown_before = std::mem::take(&mut self.hiera.backends.not_found_thrown);
        let r = match found {
            Resolved::Puppet(def) => self.call_puppet_function(&def, args, scope),
            Resolved::Ruby(file) => {
                let ctx = backend_ctx();
                self.call_ruby_function(name, &file, args, None, scope, &ctx, &at)
            }
            Resolved::Native(entry) => {
                let ctx = backend_ctx();
                crate::eval::builtins::call_library(self, entry, &args, None, scope, &ctx, &at)
            }
            Resolved::Mock(v) => Ok(v),
            Resolved::TypeNew | Resolved::Unknown => {
                self.hiera.backends.calls.pop();
                self.hiera.backends.not_found_thrown = thrown_before;
                return Err(not_found());
            }
        };
        self.hiera.backends.calls.pop();
        let thrown = std::mem::replace(&mut self.hiera.backends.not_found_thrown, thrown_before);
        match r {
            _ if thrown => Ok(None),
            Ok(v) => Ok(Some(v)),
            Err(EvalError::Completion(e)) => Err(Miss::Error(e)),
            // Errors without a place of their own (a Ruby exception, a
            // wrong argument count) are reported at the lookup's call.
            Err(EvalError::Runtime {
                detail,
                at,
                while_evaluating: None,
            }) if at == At::default() => Err(Miss::AtCall(detail)),
            Err(e) => Err(Miss::Raised(Box::new(e))),
        }
    }

    /// A Puppet function's declared return type must fit what its kind
    /// returns (`FunctionProvider#load_function`).
    fn check_backend_return_type(
        &mut self,
        def: &crate::eval::compiler::Definition,
        kind: BackendKind,
        name: &str,
    ) -> Result<(), Miss> {
        let puppet_syntax::ast::ExprKind::Function {
            return_type: Some(rt),
            ..
        } = &def.expr().kind
        else {
            return Ok(());
        };
        let ctx = Ctx {
            program: def.program.clone(),
        };
        let top = self.scopes.top();
        let declared = match self.eval(rt, top, &ctx) {
            Ok(Value::Type(ref t)) => t.clone(),
            Ok(_) => return Ok(()),
            Err(e) => return Err(Miss::Raised(Box::new(e))),
        };
        use puppet_model::types::PType;
        let trusted = match kind {
            BackendKind::DataHash => PType::hash(
                puppet_model::types::parse::rich_data_key(),
                PType::RichData,
                None,
            ),
            _ => PType::RichData,
        };
        if puppet_model::types::is_assignable(&trusted, &declared) {
            return Ok(());
        }
        Err(Miss::Error(issues::lookup::backend_return_type(
            kind.tag(),
            name,
            &trusted,
            &declared,
        )))
    }

    /// `$context.name(args)` of a `Puppet::LookupContext` in Puppet code.
    pub(crate) fn lookup_context_method(
        &mut self,
        name: &str,
        args: &[Value],
        lambda: Option<&Lambda>,
        scope: ScopeId,
        ctx: &Ctx,
    ) -> R<Value> {
        match (name, lambda) {
            ("explain", _) => Ok(Value::Undef),
            ("cached_entries", Some(l)) => {
                for (k, v) in self.context_entries()? {
                    let pair = if l.params.len() == 2 {
                        vec![k, v]
                    } else {
                        vec![Value::array(vec![k, v])]
                    };
                    self.call_lambda(l, &pair, scope, ctx)?;
                }
                Ok(Value::Undef)
            }
            ("cached_file_data", Some(l)) => {
                let content = self.lookup_context_call("cached_file_data", args)?;
                self.call_lambda(l, &[content], scope, ctx)
            }
            _ => self.lookup_context_call(name, args),
        }
    }

    fn context_entries(&mut self) -> R<Vec<(Value, Value)>> {
        let id = self.current_backend_call()?.context;
        Ok(self
            .hiera
            .backends
            .get(id)
            .cache
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect())
    }

    fn current_backend_call(&self) -> R<&BackendCall> {
        self.hiera.backends.calls.last().ok_or_else(|| {
            EvalError::Completion(
                "pverify: a Puppet::LookupContext is used outside its backend's call".into(),
            )
        })
    }

    /// A `Puppet::LookupContext` method without a block (Puppet code and
    /// Ruby both end here).
    pub(crate) fn lookup_context_call(&mut self, name: &str, args: &[Value]) -> R<Value> {
        let call = self.current_backend_call()?;
        let (id, scope, chain, module) = (
            call.context,
            call.scope,
            call.chain.clone(),
            call.module.clone(),
        );
        let arg = |i: usize| args.get(i).cloned().unwrap_or(Value::Undef);
        fn c<'a>(s: &'a mut Compiler<'_>, id: usize) -> &'a mut crate::hiera::memo::BackendContext {
            s.hiera.backends.get(id)
        }
        Ok(match name {
            "not_found" => {
                self.hiera.backends.not_found_thrown = true;
                return Err(EvalError::Completion(NOT_FOUND_THROWN.into()));
            }
            "environment_name" => Value::string(self.env.name.to_string()),
            "module_name" => module.map_or(Value::Undef, |m| Value::string(m.as_str())),
            "cache" => {
                let v = arg(1);
                c(self, id).cache.insert(arg(0), v.clone());
                v
            }
            "cache_all" => {
                if let Value::Hash(ref h) = arg(0) {
                    for (k, v) in h.iter() {
                        c(self, id).cache.insert(k.clone(), v.clone());
                    }
                }
                Value::Undef
            }
            "cache_has_key" => Value::Boolean(c(self, id).cache.contains_key(&arg(0))),
            "cached_value" => c(self, id)
                .cache
                .get(&arg(0))
                .cloned()
                .unwrap_or(Value::Undef),
            "cached_entries" => Value::array(
                self.context_entries()?
                    .into_iter()
                    .map(|(k, v)| Value::array(vec![k, v]))
                    .collect(),
            ),
            "cached_file_data" => {
                let path = arg(0).to_string();
                match self.env.files().read_to_string(Path::new(&path)) {
                    Ok(text) => Value::string(text),
                    Err(e) => {
                        return Err(EvalError::Completion(format!("{path}: {e}")));
                    }
                }
            }
            "interpolate" => match self.interpolate(&arg(0), scope, &chain) {
                Ok(v) => v,
                Err(Miss::NotFound) => Value::Undef,
                Err(Miss::Error(e) | Miss::AtCall(e)) => return Err(EvalError::Completion(e)),
                Err(Miss::Raised(e)) => return Err(*e),
            },
            "explain" => Value::Undef,
            other => {
                return Err(EvalError::Completion(format!(
                    "pverify: Puppet::LookupContext has no method '{other}'"
                )))
            }
        })
    }
}

/// A data_dig segment: an index as an Integer (Puppet's `split_key`).
fn segment(s: &str) -> Value {
    match s.parse::<i64>() {
        Ok(i) if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) => Value::Integer(i),
        _ => Value::string(s),
    }
}

/// Puppet's `LookupKey#undig`: the value wrapped so that digging the
/// segments finds it again.
fn undig(v: Value, segments: &[String]) -> Value {
    segments
        .iter()
        .rev()
        .fold(v, |inner, seg| match segment(seg) {
            Value::Integer(i) => {
                let mut a = vec![Value::Undef; usize::try_from(i).unwrap_or(0).min(100_000)];
                a.push(inner);
                Value::array(a)
            }
            key => {
                let mut m = Map::default();
                m.insert(key, inner);
                Value::hash(m)
            }
        })
}

/// The evaluation context a Ruby backend runs under: no manifest of its own.
fn backend_ctx() -> Ctx {
    static EMPTY: std::sync::OnceLock<Arc<puppet_syntax::ast::Program>> =
        std::sync::OnceLock::new();
    Ctx {
        program: EMPTY
            .get_or_init(|| {
                Arc::new(puppet_syntax::parse("", b"").expect("the empty program parses"))
            })
            .clone(),
    }
}
