//! ERB templates, natively: Ruby's ERB (trim mode `-`, as Puppet's
//! `template()` and `inline_template()` use it) over the subset of Ruby that
//! templates are written in. No Ruby runs.
//!
//! - `lexer.rs`: ERB's scanner (tags, trimming) and the Ruby tokens.
//! - `parser.rs`: statements and expressions (Ruby's precedence), blocks.
//! - `interp.rs`: evaluation against a [`Host`] (Puppet's scope).
//! - `methods.rs`: methods of Ruby's core classes (String, Array, Hash, ...);
//!   `classes.rs`: class methods (`Regexp.new`, `IPAddr.new`, Puppet's API).
//! - `value.rs`: Ruby values and Puppet's value mapping.
//!
//! A parsed [`Template`] is immutable and `Send + Sync`, so one parse serves
//! every node of a run.

mod bigint;
pub mod cache;
mod classes;
mod drop;

pub mod function_file;
mod interp;
mod lexer;
mod methods;
mod parser;
pub mod value;
mod yaml;

use puppet_model::value::Value;

/// What a template sees of Puppet: its scope's variables and functions.
pub trait Host {
    /// The Ruby the code runs on (Ruby 3.1 under Puppet 7, 3.3 under 8):
    /// its error texts and library behaviour.
    fn ruby(&self) -> puppet_model::ruby::RubyVersion;
    /// `@name`: a variable visible in the calling scope (`None`: unknown,
    /// which Ruby sees as nil).
    fn ivar(&mut self, name: &str) -> Option<Value>;
    /// `scope['name']` / `scope.lookupvar('name')` (qualified names too).
    fn lookupvar(&mut self, name: &str) -> Option<Value>;
    /// What the code sees of Puppet itself (`Puppet.version`,
    /// `Puppet[:strict]`...).
    fn puppet(&self) -> PuppetView {
        PuppetView::default()
    }
    /// `scope['name']` found no variable: Puppet's `variable_not_found`,
    /// which raises (an ArgumentError) under `strict = error`.
    fn variable_not_found(&mut self, name: &str) -> Result<(), String> {
        let _ = name;
        Ok(())
    }
    /// `scope.call_function(name, args)` and `scope.function_name(args)`.
    fn call_function(&mut self, name: &str, args: Vec<Value>) -> Result<Value, String>;
    /// `scope.function_name([args])`: the 3.x API, which finds a module's
    /// 3.x function before a 4.x one of the same name.
    fn call_function_3x(&mut self, name: &str, args: Vec<Value>) -> Result<Value, String> {
        self.call_function(name, args)
    }
    /// `scope.to_hash`: every visible variable.
    fn to_hash(&mut self) -> Value;
    /// `scope.setvar('name', value)`: a new variable of the calling scope
    /// (Puppet's error when it is already set there).
    fn setvar(&mut self, name: &str, value: Value) -> Result<(), String>;
    /// An array or hash that `@name` holds was changed in place (`<<`,
    /// `push`, `merge!`...). In Ruby the template holds the very object
    /// Puppet's variable, and the resource parameter it came from, hold:
    /// they change with it.
    fn changed_in_place(&mut self, name: &str, value: Value);
    /// The Ruby class of the exception the last failing `call_function` or
    /// `call_function_3x` raised (`None`: judged by its message).
    fn last_error_class(&mut self) -> Option<String> {
        None
    }
    /// Whether a binary (ASCII-8BIT) String a Ruby function returns stays
    /// binary: Puppet 8's catalogs write such a string as a `Binary` (rich
    /// data); Puppet 7's write its text, as every other string.
    fn keeps_binary_strings(&self) -> bool {
        false
    }
    /// Whether the function was called with a Puppet lambda (its block).
    fn has_block(&self) -> bool {
        false
    }
    /// `yield(args)` in a 4.x function called with a Puppet lambda: the
    /// lambda's value.
    fn call_block(&mut self, args: Vec<Value>) -> Result<Value, String> {
        let _ = args;
        Err("no block given (yield)".into())
    }
    /// `findresource(type, title)`: a resource of the catalog by its
    /// capitalized type and title (or alias).
    fn find_resource(&mut self, type_name: &str, title: &str) -> Option<value::ResourceView> {
        let _ = (type_name, title);
        None
    }
    /// The resource (class, define instance) the calling scope belongs to.
    fn scope_resource(&mut self) -> Option<value::ResourceView> {
        None
    }
    /// The name of the environment being compiled.
    fn environment_name(&mut self) -> String {
        "production".into()
    }
    /// A module's directory on the modulepath (`Puppet::Module.find`).
    fn module_dir(&mut self, name: &str) -> Option<String> {
        let _ = name;
        None
    }
    /// `Puppet.version`: the reference the compile reproduces.
    fn puppet_release(&mut self) -> &'static str {
        crate::version::PuppetVersion::V7.release()
    }
    /// Whether a file exists (`File.exist?` as `Puppet::Parser::Files` asks
    /// it); a host without files has none.
    fn file_exists(&mut self, path: &str) -> bool {
        let _ = path;
        false
    }
    /// `File.read(path)`: a file's bytes, only inside the environment and
    /// its modulepath (Ruby's `Errno::ENOENT` text for a missing file).
    fn read_file(&mut self, path: &str) -> Result<Vec<u8>, String> {
        Err(format!("{path}: pverify reads no file here"))
    }
    /// `scope.to_s`: `Scope(Class[main])`, by the resource the scope
    /// belongs to.
    fn scope_text(&mut self) -> String {
        "Scope()".into()
    }
    /// A method of a Puppet object the code was given (a Hiera backend's
    /// `Puppet::LookupContext`); the error is Ruby's exception message.
    fn object_method(
        &mut self,
        recv: &Value,
        name: &str,
        args: Vec<Value>,
    ) -> Result<Value, String> {
        let _ = (recv, args);
        Err(format!("pverify: no method '{name}' on this Puppet object"))
    }
    /// `Puppet.warning(message)`: a warning of the compile, as Puppet logs it.
    fn warning(&mut self, message: &str) {
        let _ = message;
    }
    /// `__FILE__`: the template's or function file's path (ERB's own name
    /// for a template without a file).
    fn source_file(&self) -> String {
        "(erb)".into()
    }
    /// `require 'feature'` of a file in a module's `lib`: its parse (or
    /// why it cannot be read). `None`: no module has it (Ruby's own
    /// libraries, already loaded in Puppet's Ruby).
    fn require_lib(
        &mut self,
        feature: &str,
    ) -> Option<Result<std::sync::Arc<function_file::RubyLib>, String>> {
        let _ = feature;
        None
    }
}

/// `Puppet.version` and the settings Ruby code reads with `Puppet[...]`.
#[derive(Clone, Copy, Debug)]
pub struct PuppetView {
    pub version: &'static str,
    /// `strict`: `off`, `warning` or `error`.
    pub strict: &'static str,
    pub strict_variables: bool,
}

impl Default for PuppetView {
    /// Puppet 7.23's defaults.
    fn default() -> Self {
        PuppetView {
            version: "7.23.0",
            strict: "warning",
            strict_variables: false,
        }
    }
}

/// A parsed template.
#[derive(Debug)]
pub struct Template {
    body: parser::Body,
    /// The template's length: its output is sized for that much.
    source_len: usize,
}

/// An error of a template: Ruby's message and the template's line.
#[derive(Clone, Debug, PartialEq)]
pub struct ErbError {
    pub message: String,
    pub line: usize,
}

/// Parses a template's text.
pub fn parse(src: &str) -> Result<Template, ErbError> {
    let toks = lexer::lex_template(src).map_err(|(message, line)| ErbError { message, line })?;
    let body = parser::Parser::new(toks)
        .program()
        .map_err(|(message, line)| {
            // Ruby reports a missing `end` on the line after the template's last.
            let line = if message.contains("end-of-input") {
                src.matches('\n').count() + 1
            } else {
                line
            };
            ErbError { message, line }
        })?;
    Ok(Template {
        body,
        source_len: src.len(),
    })
}

impl Template {
    /// Renders the template: the text ERB's `result` returns.
    pub fn render(&self, host: &mut dyn Host) -> Result<String, ErbError> {
        let mut it = interp::Interp::new(host);
        // Output about as long as the template (growing it copied it a
        // dozen times).
        it.out.reserve(self.source_len);
        match it.run(&self.body) {
            Ok(_) => Ok(it.out),
            Err(interp::Flow::Error(message, line)) => Err(ErbError { message, line }),
            Err(interp::Flow::Next(_)) | Err(interp::Flow::Return(_)) => Ok(it.out),
            Err(interp::Flow::Break(_)) => Err(ErbError {
                message: "break from proc-closure".into(),
                line: 0,
            }),
        }
    }
}
