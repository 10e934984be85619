//! `template()` and `inline_template()`: ERB rendered natively
//! (`crate::template::erb`) against the calling scope, with Puppet's
//! file lookup and error texts.

use super::issues;
use std::path::Path;

use super::compiler::Compiler;
use super::error::{EvalError, Location};
use super::expr::{Ctx, R};
use super::scope::ScopeId;
use super::value::{Map, Value};
use crate::template::erb::cache::LoadError;
use crate::template::erb::value::ResourceView;
use crate::template::erb::{ErbError, Host, Template};

/// The calling scope as a template (or a Ruby function) sees it.
pub(super) struct ScopeHost<'a, 'e> {
    pub c: &'a mut Compiler<'e>,
    pub scope: ScopeId,
    pub ctx: &'a Ctx,
    pub at: &'a Location,
    /// The Puppet lambda a Ruby function was called with (its block).
    pub lambda: Option<&'a puppet_syntax::ast::Lambda>,
    /// The template's or Ruby function's file (`None`: an inline template).
    pub file: Option<&'a Path>,
}

impl Host for ScopeHost<'_, '_> {
    fn keeps_binary_strings(&self) -> bool {
        // Both: Ruby's encoding rules (`incompatible character encodings`)
        // hold under Puppet 7 too; only Puppet 8's catalog writes Binary.
        true
    }

    fn ruby(&self) -> puppet_model::ruby::RubyVersion {
        self.c.node.puppet.ruby()
    }
    fn ivar(&mut self, name: &str) -> Option<Value> {
        // Puppet sets instance variables from `scope.to_hash`, which leaves
        // out undef ones: `defined?(@x)` is nil for them.
        self.c
            .scopes
            .lookup(self.scope, name)
            .filter(|v| !v.is_undef())
            .cloned()
    }

    fn lookupvar(&mut self, name: &str) -> Option<Value> {
        self.c.lookup_var_named(self.scope, name)
    }

    fn puppet(&self) -> crate::template::erb::PuppetView {
        crate::template::erb::PuppetView {
            version: self.c.node.puppet.release(),
            strict: match self.c.node.strict() {
                crate::version::Strict::Off => "off",
                crate::version::Strict::Warning => "warning",
                crate::version::Strict::Error => "error",
            },
            strict_variables: self.c.scopes.strict_variables(),
        }
    }

    fn variable_not_found(&mut self, name: &str) -> Result<(), String> {
        if self.c.node.strict() != crate::version::Strict::Error {
            return Ok(());
        }
        let (shown, reason) = self.c.undefined_variable_report(name);
        let message = issues::variables::undefined_variable(shown, reason);
        // Raised in Puppet's scope.rb, which `template()` names.
        let (file, line) = issues::variables::undefined_variable_origin(self.c.node.puppet);
        self.c
            .host
            .set_error_origin(Some(super::state::functions::RubyErrorOrigin {
                file: file.into(),
                line,
                message: message.clone(),
                shown: message.clone(),
            }));
        self.c.host.set_callee_error(Some(message.clone()));
        Err(message)
    }

    fn call_function(&mut self, name: &str, args: Vec<Value>) -> Result<Value, String> {
        self.c.host.set_error_class(None);
        let r = match name {
            // A statement function the evaluator handles itself.
            "fail" => {
                let words: Vec<String> = args.iter().map(|a| a.to_string()).collect();
                self.c
                    .host
                    .set_error_class(Some("Puppet::ParseError".into()));
                return Err(words.join(" "));
            }
            "template" | "inline_template" => self
                .c
                .erb_function(name, &args, self.scope, self.ctx, self.at),
            _ => self
                .c
                .call_library_function(name, args, None, self.scope, self.ctx, self.at),
        };
        r.map_err(|e| match e {
            // Templates word it without the evaluator's closing period.
            EvalError::Issue { detail, .. } if detail.starts_with("Unknown function: ") => {
                detail.trim_end_matches('.').to_string()
            }
            e => self.nested_error(e),
        })
    }

    fn has_block(&self) -> bool {
        self.lambda.is_some()
    }

    fn call_block(&mut self, args: Vec<Value>) -> Result<Value, String> {
        let Some(l) = self.lambda else {
            self.c.host.set_error_class(Some("LocalJumpError".into()));
            return Err("no block given (yield)".into());
        };
        self.c.host.set_error_class(None);
        self.c
            .call_lambda(l, &args, self.scope, self.ctx)
            .map_err(|e| self.nested_error(e))
    }

    fn find_resource(&mut self, type_name: &str, title: &str) -> Option<ResourceView> {
        let id = self.c.catalog.find_resource(type_name, title)?;
        Some(self.resource_view(id))
    }

    fn scope_resource(&mut self) -> Option<ResourceView> {
        let id = self.c.scopes.resource_of(self.scope)?;
        Some(self.resource_view(id))
    }

    fn environment_name(&mut self) -> String {
        self.c.env.name.to_string()
    }

    fn object_method(
        &mut self,
        recv: &Value,
        name: &str,
        args: Vec<Value>,
    ) -> Result<Value, String> {
        let _ = recv;
        self.c
            .lookup_context_call(name, &args)
            .map_err(|e| e.message())
    }

    fn module_dir(&mut self, name: &str) -> Option<String> {
        self.c.env.module_dir(name).map(|d| d.display().to_string())
    }

    fn source_file(&self) -> String {
        self.file
            .map_or_else(|| "(erb)".into(), |f| f.display().to_string())
    }

    fn require_lib(
        &mut self,
        feature: &str,
    ) -> Option<Result<std::sync::Arc<crate::template::erb::function_file::RubyLib>, String>> {
        let env = self.c.env;
        let path = super::builtins::modules::ruby_lib_file(env, feature)?;
        Some(env.ruby_libs.load(env.files(), &path).map_err(|e| match e {
            LoadError::Read(m) => m,
            LoadError::Syntax(e) => format!(
                "pverify cannot run the Ruby of {} (line {}: {})",
                path.display(),
                e.line,
                e.message
            ),
        }))
    }

    fn puppet_release(&mut self) -> &'static str {
        self.c.node.puppet.release()
    }

    fn file_exists(&mut self, path: &str) -> bool {
        self.c.env.files().exists(Path::new(path))
    }

    fn read_file(&mut self, path: &str) -> Result<Vec<u8>, String> {
        let p = Path::new(path);
        if !self.c.env.files().exists(p) {
            self.c.host.set_error_class(Some("Errno::ENOENT".into()));
            return Err(issues::templates::ruby_no_such_file(path));
        }
        // A path outside the read roots does not exist for the compile.
        self.c
            .env
            .files()
            .read(p)
            .map_err(|_| issues::templates::ruby_no_such_file(path))
    }

    fn scope_text(&mut self) -> String {
        match self.c.scopes.get(self.scope).resource {
            Some(r) => format!("Scope({})", self.c.catalog[r].reference()),
            None => "Scope()".into(),
        }
    }

    fn last_error_class(&mut self) -> Option<String> {
        self.c.host.take_error_class()
    }

    fn warning(&mut self, message: &str) {
        self.c.warnings.push(message.to_string());
    }

    fn call_function_3x(&mut self, name: &str, args: Vec<Value>) -> Result<Value, String> {
        let file = if self.c.prefers_ruby(name) {
            super::builtins::modules::ruby_function_file_3x(self.c.env, name)
        } else {
            None
        };
        self.c.host.set_error_class(None);
        match file {
            Some(file) => self
                .c
                .call_ruby_function(name, &file, args, None, self.scope, self.ctx, self.at)
                .map_err(|e| self.nested_error(e)),
            _ => self.call_function(name, args),
        }
    }

    fn setvar(&mut self, name: &str, value: Value) -> Result<(), String> {
        let scope = self.c.scopes.get_mut(self.scope);
        if scope.vars.contains_key(name) {
            return Err(issues::variables::illegal_reassignment(name));
        }
        scope.vars.insert(name.into(), value);
        Ok(())
    }

    fn changed_in_place(&mut self, name: &str, value: Value) {
        let Some(owner) = self.c.scopes.defining_scope(self.scope, name) else {
            return;
        };
        let old = self
            .c
            .scopes
            .get_mut(owner)
            .vars
            .insert(name.into(), value.clone());
        // A class or define parameter is the same object as the resource's.
        if let Some(res) = self.c.scopes.get(owner).resource {
            let params = &mut self.c.catalog[res].params;
            if let (Some(p), Some(old)) = (params.get_mut(name), old) {
                if *p == old {
                    *p = value;
                }
            }
        }
    }

    fn to_hash(&mut self) -> Value {
        // Innermost first, so a nearer variable wins.
        let mut chain = vec![self.scope];
        while let Some(next) = self
            .c
            .scopes
            .next_lexical(*chain.last().unwrap_or(&self.scope))
        {
            if chain.contains(&next) {
                break;
            }
            chain.push(next);
        }
        let mut m = Map::default();
        for id in chain.into_iter().rev() {
            let mut names: Vec<(&puppet_model::value::Name, &Value)> =
                self.c.scopes.get(id).vars.iter().collect();
            names.sort_by(|a, b| a.0.cmp(b.0));
            for (k, v) in names.into_iter().filter(|(_, v)| !v.is_undef()) {
                m.insert(Value::String(k.clone()), v.clone());
            }
        }
        Value::hash(m)
    }
}

impl ScopeHost<'_, '_> {
    fn resource_view(&self, id: usize) -> ResourceView {
        let r = &self.c.catalog[id];
        ResourceView {
            type_name: r.type_name.to_string(),
            title: r.title.to_string(),
            params: r
                .params
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
        }
    }

    /// The text Ruby code sees of a function it called that failed. A
    /// function's own exception (a module's Ruby raising, or a library
    /// function's error, which is a Ruby exception in Puppet) reaches the
    /// caller bare, without a manifest location: Puppet adds one only where
    /// the error leaves Ruby for the evaluator. Its class is remembered for
    /// the caller's `rescue` (a library function's is Puppet's usual).
    fn nested_error(&mut self, e: EvalError) -> String {
        let text = self.nested_error_text(e);
        self.c.host.set_callee_error(Some(text.clone()));
        text
    }

    fn nested_error_text(&mut self, e: EvalError) -> String {
        match e {
            EvalError::Runtime {
                while_evaluating: None,
                detail,
                ..
            } => {
                if !self.c.host.has_error_class() {
                    let argument_error =
                        detail.starts_with("The function '") || detail.contains("' expects ");
                    self.c.host.set_error_class(Some(
                        if argument_error {
                            "ArgumentError"
                        } else {
                            "Puppet::ParseError"
                        }
                        .into(),
                    ));
                }
                detail
            }
            // Puppet code's own error, located: kept to go through as it is.
            e => {
                let text = e.message();
                if matches!(e, EvalError::Issue { .. } | EvalError::Runtime { .. }) {
                    self.c
                        .host
                        .set_error_class(Some("Puppet::ParseErrorWithIssue".into()));
                    self.c.host.set_located_error(e);
                }
                text
            }
        }
    }
}

impl Compiler<'_> {
    /// `template(file, ...)` or `inline_template(text, ...)`: the rendered
    /// texts concatenated.
    pub(crate) fn erb_function(
        &mut self,
        name: &str,
        args: &[Value],
        scope: ScopeId,
        ctx: &Ctx,
        at: &Location,
    ) -> R<Value> {
        if args.is_empty() {
            return Err(EvalError::runtime(
                issues::templates::no_template_given(name),
                at.clone(),
            ));
        }
        let mut out = String::new();
        for a in args {
            // 3.x functions see undef as ''.
            let text = match a {
                Value::Undef => String::new(),
                Value::String(s) => s.to_string(),
                other => other.to_string(),
            };
            let rendered = if name == "inline_template" {
                let t = self
                    .env
                    .erb_inline
                    .parse(&text)
                    .map_err(|e| inline_error(&e, at))?;
                self.render(&t, None, scope, ctx, at)
                    .map_err(|e| inline_error(&e, at))?
            } else {
                let path = self.env.find_template(&text).ok_or_else(|| {
                    EvalError::runtime(issues::templates::not_found(&text), at.clone())
                })?;
                let t = match self.env.erb.load(self.env.files(), &path) {
                    Ok(t) => {
                        if self.invalid_utf8.is_none() && self.env.erb.invalid_utf8(&path) {
                            self.invalid_utf8 = Some(path.clone());
                        }
                        t
                    }
                    Err(LoadError::Read(e)) => {
                        return Err(EvalError::runtime(
                            format!("{}: {e}", path.display()),
                            at.clone(),
                        ))
                    }
                    Err(LoadError::Syntax(e)) => {
                        return Err(syntax_error(&path, &e, self.node.puppet.ruby()))
                    }
                };
                self.host.set_error_origin(None);
                self.host.set_callee_error(None);
                self.render(&t, Some(&path), scope, ctx, at).map_err(|e| {
                    // An exception a Ruby function raised and the template
                    // let through: Puppet names the function's file and
                    // line (the exception's `backtrace.first`).
                    let callee = self.host.take_callee_error();
                    match self.host.take_error_origin() {
                        Some(o) if o.shown == e.message && callee.as_ref() == Some(&e.message) => {
                            let e = ErbError {
                                message: o.message,
                                line: o.line,
                            };
                            template_error(&text, Path::new(&o.file), &e, at)
                        }
                        _ => template_error(&text, &path, &e, at),
                    }
                })?
            };
            if args.len() == 1 {
                // One template: its text as it is, not copied once more.
                return Ok(Value::string(rendered));
            }
            out.push_str(&rendered);
        }
        Ok(Value::string(out))
    }

    fn render(
        &mut self,
        t: &Template,
        file: Option<&Path>,
        scope: ScopeId,
        ctx: &Ctx,
        at: &Location,
    ) -> Result<String, ErbError> {
        let mut host = ScopeHost {
            c: self,
            scope,
            ctx,
            at,
            lambda: None,
            file,
        };
        t.render(&mut host)
    }
}

/// Puppet's `template()` error for an exception in a template.
fn template_error(
    reference: &str,
    path: &std::path::Path,
    e: &ErbError,
    at: &Location,
) -> EvalError {
    EvalError::runtime(
        issues::templates::template_failed(reference, path.display(), e.line, &e.message),
        at.clone(),
    )
}

/// `inline_template()`'s error: Ruby's message, without a line.
fn inline_error(e: &ErbError, at: &Location) -> EvalError {
    let _ = e.line;
    EvalError::runtime(
        issues::templates::inline_template_failed(&e.message),
        at.clone(),
    )
}

/// A Ruby syntax error in a template file: Ruby's `SyntaxError` is no
/// `StandardError`, so `template()` does not wrap it and Puppet prints it
/// as Ruby does, `file:line: message` and the line of ERB's generated code
/// (for a missing `end`, always ERB's closing `; _erbout`).
fn syntax_error(
    path: &std::path::Path,
    e: &ErbError,
    ruby: puppet_model::ruby::RubyVersion,
) -> EvalError {
    let snippet = if e.message.contains("end-of-input") {
        "\n; _erbout\n         ^"
    } else {
        ""
    };
    EvalError::Foreign(format!(
        "{}:{}: {}{snippet}\n",
        path.display(),
        e.line,
        ruby.syntax_error(&e.message)
    ))
}
