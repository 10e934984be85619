//! Function calls: the built-in functions the catalog core needs, functions
//! written in the Puppet language, and lambdas.

use std::sync::Arc;

use super::builtins::registry::{self, Caller, Ev, Resolved};
use super::compiler::{Compiler, Definition};
use super::error::{EvalError, Location};
use super::expr::{Ctx, R};
use super::issues;
use super::resources::{as_ref, reference_to};
use super::scope::{Scope, ScopeId, ScopeKind};
use super::value::{Map, Value};
use puppet_model::types::PType;
use puppet_syntax::ast::{Expr, ExprKind, Lambda};
use puppet_syntax::util::NameStr as _;

/// Puppet's string-to-number conversion for arithmetic (`"1" + 1`).
pub fn string_to_number(s: &str) -> Option<Value> {
    let t = s.trim();
    if let Ok(i) = t.parse::<i64>() {
        return Some(Value::Integer(i));
    }
    if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        return i64::from_str_radix(h, 16).ok().map(Value::Integer);
    }
    t.parse::<f64>()
        .ok()
        .filter(|f| f.is_finite())
        .map(Value::Float)
}

/// A value as Puppet's 3.x function API hands it to Ruby, as far as `to_s`
/// shows it: every Regexp, nested or not, a String `/re/`.
fn regexps_as_strings(v: &Value) -> Value {
    match v {
        Value::Regexp(_) => Value::string(v.to_string()),
        Value::Array(a) => Value::array(a.iter().map(regexps_as_strings).collect()),
        Value::Hash(h) => Value::hash(
            h.iter()
                .map(|(k, x)| (regexps_as_strings(k), regexps_as_strings(x)))
                .collect(),
        ),
        other => other.clone(),
    }
}

fn class_names(args: &[Value]) -> Vec<String> {
    let mut out = Vec::new();
    for a in args {
        match a {
            Value::Array(items) => out.extend(class_names(items)),
            Value::Type(t) => match t.as_ref() {
                PType::Class(Some(c)) => out.push(c.clone()),
                PType::Resource {
                    type_name: Some(tn),
                    title: Some(x),
                } if &**tn == "Class" => out.push(x.to_lowercase()),
                other => out.push(other.to_string()),
            },
            other => out.push(other.to_string()),
        }
    }
    out
}

impl<'e> Compiler<'e> {
    pub fn call_function(
        &mut self,
        name: &str,
        args: Vec<Value>,
        lambda: Option<&Lambda>,
        scope: ScopeId,
        ctx: &Ctx,
        call: &Expr,
    ) -> R<Value> {
        // After the arguments: one that went over the budget while it was
        // evaluated (a shared value printed in a string) must not reach a
        // function that parses or walks it without ticking.
        crate::budget::tick()?;
        let at = self.loc(&ctx.program, call);
        let resolved = registry::resolve(self, name, Caller::Code)?;
        // Puppet's `call_function` pushes the call's frame once the function
        // is found (`PuppetStack.stack`), for the call's whole duration.
        self.in_frame(
            &ctx.program.path,
            at.line.unwrap_or(0),
            |c| match resolved {
                Resolved::Native(entry) => match entry.evaluator() {
                    Some(ev) => {
                        c.call_evaluator_function(ev, name, args, lambda, scope, ctx, call, at)
                    }
                    None => super::builtins::call_library(c, entry, &args, lambda, scope, ctx, &at),
                },
                found => c.call_found(found, name, args, lambda, scope, ctx, &at),
            },
        )
    }

    /// Runs `f` with a frame on Puppet's stack ([`Compiler::puppet_stack`]):
    /// `file` (`unknown` when there is none, as `PuppetStack.stack` says)
    /// at `line`.
    pub(crate) fn in_frame<T>(
        &mut self,
        file: &Arc<str>,
        line: u32,
        f: impl FnOnce(&mut Self) -> T,
    ) -> T {
        let file = if file.is_empty() {
            Arc::from("unknown")
        } else {
            file.clone()
        };
        self.puppet_stack.push((file, line));
        let out = f(self);
        self.puppet_stack.pop();
        out
    }

    /// The evaluator's own functions (see [`registry::Ev`]).
    #[allow(clippy::too_many_arguments)]
    fn call_evaluator_function(
        &mut self,
        ev: Ev,
        name: &str,
        args: Vec<Value>,
        lambda: Option<&Lambda>,
        scope: ScopeId,
        ctx: &Ctx,
        call: &Expr,
        at: Location,
    ) -> R<Value> {
        match ev {
            Ev::Include => {
                let mut refs = Vec::new();
                let ids = self.include_classes(&class_names(&args), scope, &at)?;
                for id in ids {
                    let title = self.catalog[id].title.clone();
                    if name == "contain" {
                        if let Some(owner) = self.scopes.resource_of(scope) {
                            self.catalog.add_edge(owner, id);
                        }
                    }
                    if name == "require" {
                        if let Some(owner) = self.scopes.resource_of(scope) {
                            let r = &mut self.catalog[owner];
                            let mut items = match r.params.get("require") {
                                Some(Value::Array(a)) => (**a).clone(),
                                Some(v) => vec![v.clone()],
                                None => Vec::new(),
                            };
                            items.push(Value::string(format!("Class[{title}]")));
                            r.params.insert("require".into(), Value::array(items));
                        }
                    }
                    refs.push(reference_to(&self.catalog[id]));
                }
                Ok(if name == "include" {
                    Value::Undef
                } else {
                    Value::array(refs)
                })
            }
            Ev::Log => {
                let msg: Vec<String> = args.iter().map(|a| a.to_string()).collect();
                if name == "warning" {
                    self.warnings.push(msg.join(" "));
                }
                Ok(Value::Undef)
            }
            // A 3.x function: its arguments reach Ruby converted (a Regexp
            // becomes its `/re/` String) and are joined by their `to_s`.
            Ev::Fail => {
                let msg: Vec<String> = args
                    .iter()
                    .map(|a| super::builtins::ruby_value_to_s(&regexps_as_strings(a)))
                    .collect();
                Err(EvalError::runtime(msg.join(" "), at))
            }
            Ev::Tag => {
                if let Some(owner) = self.scopes.resource_of(scope) {
                    for t in class_names(&args) {
                        self.catalog[owner].tag(&t);
                    }
                }
                Ok(Value::Undef)
            }
            Ev::Tagged => {
                let owner = self.scopes.resource_of(scope);
                let tags = owner
                    .map(|o| self.catalog[o].tags.clone())
                    .unwrap_or_default();
                Ok(Value::Boolean(
                    class_names(&args)
                        .iter()
                        .all(|t| tags.iter().any(|x| **x == t.to_lowercase())),
                ))
            }
            Ev::Defined => {
                let mut all = true;
                for a in &args {
                    let found = match a {
                        Value::String(s) if s.starts_with('$') => {
                            self.scopes.lookup(scope, &s[1..]).is_some()
                        }
                        Value::String(s) => {
                            let k = s.trim_colons().to_lowercase();
                            self.find_class(&k)?.is_some()
                                || self.find_define(&k)?.is_some()
                                || self.is_ruby_type(&k)
                                || self.defs.function(&k).is_some()
                        }
                        // A type without a title: is there such a resource type?
                        Value::Type(t)
                            if matches!(t.as_ref(), PType::Resource { title: None, .. }) =>
                        {
                            match t.as_ref() {
                                PType::Resource {
                                    type_name: Some(tn),
                                    ..
                                } => {
                                    let k = tn.to_lowercase();
                                    self.is_ruby_type(&k) || self.find_define(&k)?.is_some()
                                }
                                _ => true,
                            }
                        }
                        other => match as_ref(other) {
                            Some((t, x)) => self.catalog.find_resource(&t, &x).is_some(),
                            None => false,
                        },
                    };
                    all &= found;
                }
                Ok(Value::Boolean(all))
            }
            Ev::Realize => {
                // Realized when collections are evaluated: the resource may be
                // declared later.
                let set: Vec<_> = args
                    .iter()
                    .flat_map(flatten)
                    .map(|r| super::resources::RealizeRef::of(&r))
                    .collect();
                if !set.is_empty() {
                    self.catalog.add_realize_set(set);
                }
                Ok(Value::Undef)
            }
            // Their dispatch: `break()` takes no argument, `next` and
            // `return` at most one.
            Ev::Break if !args.is_empty() => Err(EvalError::runtime(
                issues::functions::expects_arguments("break", "no arguments", args.len()),
                at,
            )),
            Ev::Next | Ev::Return if args.len() > 1 => Err(EvalError::runtime(
                issues::functions::expects_arguments(name, "at most 1 argument", args.len()),
                at,
            )),
            // Puppet's jumpers carry the call's file and line, not its column.
            Ev::Next => Err(EvalError::Next(
                args.first().cloned().unwrap_or(Value::Undef),
                Location { column: None, ..at },
            )),
            Ev::Break => Err(EvalError::Break(Location { column: None, ..at })),
            Ev::Return => Err(EvalError::Return(
                args.first().cloned().unwrap_or(Value::Undef),
                Location { column: None, ..at },
            )),
            // Hiera 5 (src/hiera): lookup() and the legacy hiera*() functions.
            Ev::Lookup => {
                let parsed = super::lookup::LookupArgs::parse(&args)
                    .map_err(|m| EvalError::runtime(m, at.clone()))?;
                match lambda {
                    Some(l) => {
                        let mut block =
                            |c: &mut Self, key: Value| c.call_lambda(l, &[key], scope, ctx);
                        self.hiera_lookup_function(&parsed, Some(&mut block), scope, &at)
                    }
                    None => self.hiera_lookup_function(&parsed, None, scope, &at),
                }
            }
            Ev::Hiera => self.hiera_legacy(name, &args, scope),
            Ev::HieraInclude => {
                let classes = self.hiera_legacy(name, &args, scope)?;
                self.include_classes(&class_names(&[classes]), scope, &at)?;
                Ok(Value::Undef)
            }
            Ev::Iterate => self.iterate(name, args, lambda, scope, ctx, call),
            Ev::AssertType => {
                super::builtins::evaluator_dispatch(name, &args, lambda)
                    .map_err(|m| EvalError::runtime(m, at.clone()))?;
                // The String form: the type parsed from its text.
                let parsed;
                let t = match &args[0] {
                    Value::Type(t) => t,
                    Value::String(s) => match puppet_model::types::text::parse_builtin_type(s) {
                        Ok(t) => {
                            parsed = std::sync::Arc::new(t);
                            &parsed
                        }
                        Err(name) => {
                            return Err(EvalError::runtime(
                                format!(
                                    "assert_type(): a type string naming '{name}' is not supported by pverify"
                                ),
                                at,
                            ))
                        }
                    },
                    // The dispatch took only a Type or a String.
                    _ => return Ok(Value::Undef),
                };
                let v = &args[1];
                if puppet_model::types::is_instance(t, v) {
                    return Ok(v.clone());
                }
                if let Some(l) = lambda {
                    let actual =
                        Value::Type(std::sync::Arc::new(puppet_model::types::infer_set(v)));
                    let expected = Value::Type(t.clone());
                    return self.call_lambda(l, &[expected, actual], scope, ctx);
                }
                Err(EvalError::runtime(
                    puppet_model::types::describe_mismatch_named(
                        "assert_type():",
                        t,
                        &puppet_model::types::infer_set(v),
                    ),
                    at,
                ))
            }
            Ev::Template => self.erb_function(name, &args, scope, ctx, &at),
        }
    }

    /// Whether a template's `scope.function_<name>` reaches a module's 3.x
    /// Ruby first ([`registry::ruby_3x_first`]).
    pub(crate) fn prefers_ruby(&self, name: &str) -> bool {
        registry::ruby_3x_first(
            name,
            self.node.function_mocks.get(name).is_some(),
            self.node.interpret_module_ruby,
        )
    }

    /// A function of the library, of Puppet code, or of a module's Ruby:
    /// what a call reaches once the evaluator's own functions are ruled
    /// out (also what templates and Ruby functions call).
    pub(crate) fn call_library_function(
        &mut self,
        name: &str,
        args: Vec<Value>,
        lambda: Option<&Lambda>,
        scope: ScopeId,
        ctx: &Ctx,
        at: &Location,
    ) -> R<Value> {
        let found = registry::resolve(self, name, Caller::Library)?;
        self.call_found(found, name, args, lambda, scope, ctx, at)
    }

    /// Calls what [`registry::resolve`] found (the evaluator's functions
    /// apart).
    #[allow(clippy::too_many_arguments)]
    fn call_found(
        &mut self,
        found: Resolved<Definition>,
        name: &str,
        args: Vec<Value>,
        lambda: Option<&Lambda>,
        scope: ScopeId,
        ctx: &Ctx,
        at: &Location,
    ) -> R<Value> {
        match found {
            Resolved::Mock(v) => Ok(v),
            Resolved::Native(entry) => {
                super::builtins::call_library(self, entry, &args, lambda, scope, ctx, at)
            }
            Resolved::TypeNew => {
                super::builtins::call_type_new(self, name, &args, lambda, scope, ctx, at)
            }
            Resolved::Puppet(def) => self.call_puppet_function(&def, args, scope),
            Resolved::Ruby(file) => {
                self.call_ruby_function(name, &file, args, lambda, scope, ctx, at)
            }
            Resolved::Unknown => Err(EvalError::Issue {
                detail: issues::functions::unknown_function(name),
                at: at.clone(),
            }),
        }
    }
}

/// What resolving a name asks of the compilation: its mocks, settings and
/// Puppet-language loader (which autoloads).
impl registry::Loaders for Compiler<'_> {
    type Puppet = Definition;

    fn env(&self) -> &crate::loader::Environment {
        self.env
    }

    fn mock(&self, name: &str) -> Option<Value> {
        self.node.function_mocks.get(name).cloned()
    }

    fn interpret_module_ruby(&self) -> bool {
        self.node.interpret_module_ruby
    }

    fn puppet_function(&mut self, name: &str) -> R<Option<Definition>> {
        self.find_function(name)
    }

    /// Once per node and name: the first answer's reads are in the node's
    /// read set, and the answer cannot change during the compile.
    fn module_ships(&mut self, module: &str, name: &str) -> bool {
        if let Some(&ships) = self.module_functions.get(name) {
            return ships;
        }
        let ships = registry::module_ships(self.env, module, name);
        self.module_functions.insert(name.into(), ships);
        ships
    }
}

impl<'e> Compiler<'e> {
    pub(crate) fn call_puppet_function(
        &mut self,
        def: &super::compiler::Definition,
        args: Vec<Value>,
        _caller: ScopeId,
    ) -> R<Value> {
        let ExprKind::Function {
            params, body, name, ..
        } = &def.expr().kind
        else {
            return Ok(Value::Undef);
        };
        let ctx = Ctx {
            program: def.program.clone(),
        };
        let required = params
            .iter()
            .filter(|p| p.default.is_none() && !p.captures_rest)
            .count();
        let rest = params.iter().any(|p| p.captures_rest);
        if args.len() < required || (!rest && args.len() > params.len()) {
            let expected = if rest {
                format!("at least {required} arguments")
            } else if required == params.len() {
                let s = if params.len() == 1 { "" } else { "s" };
                format!("{} argument{s}", params.len())
            } else {
                format!("between {required} and {} arguments", params.len())
            };
            return Err(EvalError::runtime(
                issues::functions::expects_arguments(name, expected, args.len()),
                super::error::Location::default(),
            ));
        }
        let mut local = Scope::new(ScopeKind::Local, Some(self.scopes.top()), None);
        local.vars.reserve(params.len());
        let scope = self.scopes.push(local);
        self.check_function_args(name, params, &args, scope, &ctx)?;
        for (i, p) in params.iter().enumerate() {
            let v = if p.captures_rest {
                Value::array(args.get(i..).unwrap_or(&[]).to_vec())
            } else {
                match args.get(i) {
                    Some(v) => v.clone(),
                    None => match &p.default {
                        Some(d) => self.eval(d, scope, &ctx)?,
                        None => {
                            return Err(EvalError::runtime(
                                format!(
                                    "'{name}' expects {} arguments, got {}",
                                    params.len(),
                                    args.len()
                                ),
                                def.location(),
                            ))
                        }
                    },
                }
            };
            self.scopes.get_mut(scope).vars.insert(p.name.clone(), v);
        }
        crate::budget::tick()?;
        self.depth += 1;
        if self.depth > super::classes::MAX_EVAL_DEPTH {
            self.depth -= 1;
            return Err(EvalError::runtime(
                issues::classes::TOO_DEEP_NESTING,
                def.location(),
            ));
        }
        let r = match self.eval_block(body, scope, &ctx) {
            Err(EvalError::Return(v, _)) => Ok(v),
            other => other,
        };
        self.depth -= 1;
        r
    }

    /// Puppet's dispatch of a Puppet-language function: each given
    /// argument (each element, for a captures-rest parameter) must be an
    /// instance of its parameter's type, else the first that is not fails
    /// as `'f' parameter 'v' expects a SemVer value, got String`.
    fn check_function_args(
        &mut self,
        name: &str,
        params: &[puppet_syntax::ast::Parameter],
        args: &[Value],
        scope: ScopeId,
        ctx: &Ctx,
    ) -> R<()> {
        for (i, a) in args.iter().enumerate() {
            let Some(p) = params
                .get(i)
                .or_else(|| params.last().filter(|p| p.captures_rest))
            else {
                break;
            };
            let Some(t) = &p.type_expr else {
                continue;
            };
            let Value::Type(ref ty) = self.parameter_type(p, t, scope, ctx)? else {
                continue;
            };
            if puppet_model::types::is_instance(ty, a) {
                continue;
            }
            let described = puppet_model::types::describe(
                ty,
                &puppet_model::types::infer_set(a),
                &[puppet_model::types::PathElement::Parameter(
                    p.name.to_string(),
                )],
            );
            let detail = match described.as_slice() {
                [one] => format!("'{name}'{}", one.format()),
                [] => format!(
                    "'{name}' parameter '{}' {}",
                    p.name,
                    puppet_model::types::describe_mismatch(ty, a)
                ),
                // Several problems: the signature, then each, as Puppet's
                // describe_signatures writes one signature's rejections.
                many => {
                    let mut sig = Vec::new();
                    for q in params {
                        let t = match &q.type_expr {
                            Some(t) => match self.eval(t, scope, ctx)? {
                                Value::Type(ref t) => t.to_string(),
                                _ => "Any".to_string(),
                            },
                            None => "Any".to_string(),
                        };
                        sig.push(format!("{t} {}", q.name));
                    }
                    let mut out = format!("'{name}' expects ({})", sig.join(", "));
                    for m in many {
                        out.push_str(&format!("\n  rejected:{}", m.format()));
                    }
                    out
                }
            };
            return Err(EvalError::runtime(
                detail,
                super::error::Location::default(),
            ));
        }
        Ok(())
    }

    /// Calls a lambda with arguments in a new local scope of `scope`;
    /// `next(v)` ends it with `v`.
    pub fn call_lambda(
        &mut self,
        l: &Lambda,
        args: &[Value],
        scope: ScopeId,
        ctx: &Ctx,
    ) -> R<Value> {
        match self.call_lambda_body(l, args, scope, ctx) {
            Err(EvalError::Next(v, _)) => Ok(v),
            other => other,
        }
    }

    fn call_lambda_body(
        &mut self,
        l: &Lambda,
        args: &[Value],
        scope: ScopeId,
        ctx: &Ctx,
    ) -> R<Value> {
        // Every iteration function's loop passes here.
        crate::budget::tick()?;
        let mut local = Scope::new(ScopeKind::Local, Some(scope), None);
        // Sized for the parameters (a lambda runs once per element).
        local.vars.reserve(l.params.len());
        let inner = self.scopes.push(local);
        for (i, p) in l.params.iter().enumerate() {
            let v = if p.captures_rest {
                let rest = args.get(i..).unwrap_or(&[]);
                // A default stands for no arguments, or a single undef.
                match &p.default {
                    Some(d) if rest.is_empty() || matches!(rest, [Value::Undef]) => {
                        match self.eval(d, inner, ctx)? {
                            a @ Value::Array(_) => a,
                            other => Value::array(vec![other]),
                        }
                    }
                    _ => Value::array(rest.to_vec()),
                }
            } else {
                match args.get(i) {
                    Some(v) => v.clone(),
                    None => match &p.default {
                        Some(d) => self.eval(d, inner, ctx)?,
                        // Puppet's closure binds every parameter before
                        // running: one with no argument and no default fails.
                        None => {
                            let (line, column) = ctx.program.line_col(p.span);
                            return Err(EvalError::Issue {
                                detail: issues::functions::missing_required_parameter(&p.name),
                                at: Location {
                                    file: Some(ctx.program.path.clone()),
                                    line: Some(line),
                                    column: Some(column),
                                },
                            });
                        }
                    },
                }
            };
            self.check_block_param(p, &v, inner, ctx)?;
            self.scopes.get_mut(inner).vars.insert(p.name.clone(), v);
        }
        self.eval_block(&l.body, inner, ctx)
    }

    /// Puppet checks a typed block parameter against its argument
    /// (`block parameter 'x' expects a String value, got Integer`); a
    /// captures-rest parameter's type applies to each element.
    fn check_block_param(
        &mut self,
        p: &puppet_syntax::ast::Parameter,
        v: &Value,
        scope: ScopeId,
        ctx: &Ctx,
    ) -> R<()> {
        let Some(t) = &p.type_expr else {
            return Ok(());
        };
        let Value::Type(ref ty) = self.parameter_type(p, t, scope, ctx)? else {
            return Ok(());
        };
        let items = match v {
            Value::Array(a) if p.captures_rest => a.to_vec(),
            other => vec![other.clone()],
        };
        for item in &items {
            if !super::typeops::is_instance(ty, item) {
                return Err(EvalError::runtime(
                    format!(
                        "block parameter '{}' {}",
                        p.name,
                        puppet_model::types::describe_mismatch(ty, item)
                    ),
                    super::error::Location::default(),
                ));
            }
        }
        Ok(())
    }

    fn iterate(
        &mut self,
        name: &str,
        args: Vec<Value>,
        lambda: Option<&Lambda>,
        scope: ScopeId,
        ctx: &Ctx,
        call: &Expr,
    ) -> R<Value> {
        let at = self.loc(&ctx.program, call);
        // Puppet's dispatch: the signatures of each, map, filter, reduce
        // and with, and its text for a call none of them takes.
        let dispatched = super::builtins::evaluator_dispatch(name, &args, lambda)
            .map_err(|m| EvalError::runtime(m, at.clone()))?;
        let Some(l) = lambda else {
            return Err(EvalError::runtime(
                issues::functions::expects_a_block(name),
                at,
            ));
        };
        if name == "with" {
            return self.call_lambda(l, &args, scope, ctx);
        }
        let Some(subject) = args.first().cloned() else {
            return Err(EvalError::runtime(
                issues::functions::expects_arguments(name, "1 argument", "none"),
                at,
            ));
        };
        // `each` returns what it was given: a Range, not its list.
        let range = matches!(subject, Value::Range(_)).then(|| subject.clone());
        // An Integer range type iterates over its values.
        let subject = match &subject {
            Value::Type(t) => match t.as_ref() {
                puppet_model::types::PType::Integer { from, to }
                    if *from != i64::MIN
                        && *to != i64::MAX
                        && to >= from
                        && to - from < 10_000_000 =>
                {
                    Value::array((*from..=*to).map(Value::Integer).collect())
                }
                _ => subject.clone(),
            },
            // A Ruby Range over its integers (`Iterable.on`), listed only
            // when it is within the limit and the node's memory budget.
            Value::Range(r) => {
                if r.len() > issues::limits::MAX_RANGE_ITEMS {
                    return Err(EvalError::runtime(
                        issues::limits::range_too_long(&r.to_string()),
                        at,
                    ));
                }
                crate::budget::reserve_items(r.len(), std::mem::size_of::<Value>())?;
                Value::array(r.iter().map(Value::Integer).collect())
            }
            _ => subject,
        };
        // The signature taken says how many arguments the block gets
        // (each, map and filter: `Callable[2,2]` first, then `[1,1]`).
        let pairs = name == "reduce" || dispatched % 2 == 0;
        // The elements are made before the first call: `1000000000000.each`
        // (or a huge string's characters) is refused before allocating.
        let count = match &subject {
            Value::Array(items) => items.len() as u64,
            Value::Hash(h) => h.len() as u64,
            Value::Integer(n) => (*n).max(0) as u64,
            // At most a character per byte, each its own string.
            Value::String(s) => s.len() as u64 * 3,
            _ => 0,
        };
        crate::budget::reserve_items(
            count,
            std::mem::size_of::<Vec<Value>>() + 2 * std::mem::size_of::<Value>(),
        )?;
        // Each element as the lambda's arguments: values, or [index, value] /
        // [key, value] when the lambda takes two parameters.
        let elements: Vec<Vec<Value>> = match &subject {
            Value::Array(items) => items
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    if pairs && name != "reduce" {
                        vec![Value::Integer(i as i64), v.clone()]
                    } else {
                        vec![v.clone()]
                    }
                })
                .collect(),
            Value::Hash(h) => h
                .iter()
                .map(|(k, v)| {
                    if pairs && name != "reduce" {
                        vec![k.clone(), v.clone()]
                    } else {
                        vec![Value::array(vec![k.clone(), v.clone()])]
                    }
                })
                .collect(),
            Value::Integer(n) => (0..*n)
                .map(|i| {
                    if pairs {
                        vec![Value::Integer(i), Value::Integer(i)]
                    } else {
                        vec![Value::Integer(i)]
                    }
                })
                .collect(),
            Value::String(s) => s
                .chars()
                .enumerate()
                .map(|(i, c)| {
                    let c = crate::bad_bytes::in_encoding_of(s, c.to_string());
                    if pairs {
                        vec![Value::Integer(i as i64), c]
                    } else {
                        vec![c]
                    }
                })
                .collect(),
            other => {
                return Err(EvalError::runtime(
                    issues::functions::expects_iterable(
                        name,
                        puppet_model::value::value_label(other),
                    ),
                    at,
                ))
            }
        };
        match name {
            "each" => {
                for el in elements {
                    match self.call_lambda(l, &el, scope, ctx) {
                        Err(EvalError::Break(_)) => break,
                        r => {
                            r?;
                        }
                    }
                }
                Ok(range.unwrap_or(subject))
            }
            "map" => {
                let mut out = Vec::with_capacity(elements.len());
                for el in elements {
                    match self.call_lambda(l, &el, scope, ctx) {
                        Err(EvalError::Break(_)) => break,
                        r => out.push(r?),
                    }
                }
                Ok(Value::array(out))
            }
            "filter" => match &subject {
                Value::Hash(h) => {
                    let mut out = Map::default();
                    for ((k, v), el) in h.iter().zip(elements) {
                        if self.call_lambda(l, &el, scope, ctx)?.is_truthy() {
                            out.insert(k.clone(), v.clone());
                        }
                    }
                    Ok(Value::hash(out))
                }
                // `filter_Enumerable`: its `loop` ends at break() (a
                // StopIteration), with what was kept so far; a Hash's
                // `select` lets break() through, where it is illegal.
                _ => {
                    let mut out = Vec::new();
                    for el in elements {
                        let keep = match self.call_lambda(l, &el, scope, ctx) {
                            Err(EvalError::Break(_)) => break,
                            r => r?.is_truthy(),
                        };
                        if keep {
                            out.push(el.last().cloned().unwrap_or(Value::Undef));
                        }
                    }
                    Ok(Value::array(out))
                }
            },
            _ => {
                // reduce
                let mut iter = elements
                    .into_iter()
                    .map(|mut el| el.pop().unwrap_or(Value::Undef));
                let mut memo = match args.get(1) {
                    Some(start) => start.clone(),
                    None => iter.next().unwrap_or(Value::Undef),
                };
                // break() returns the memo so far (`rescue StopIteration`).
                for v in iter {
                    memo = match self.call_lambda(l, &[memo.clone(), v], scope, ctx) {
                        Err(EvalError::Break(_)) => break,
                        r => r?,
                    };
                }
                Ok(memo)
            }
        }
    }
}

fn flatten(v: &Value) -> Vec<Value> {
    let mut out = Vec::new();
    puppet_model::value::flatten_into(std::slice::from_ref(v), &mut out);
    out
}
