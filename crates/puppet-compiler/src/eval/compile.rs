//! The compile sequence and the catalog it produces.

use indexmap::IndexMap;
use puppet_syntax::util::NameStr as _;
use serde_json::Value as J;

use super::catalog_emit::{PrettySink, TreeSink};

use super::compiler::{Compiler, Res, ResKind};
use super::error::{EvalError, Location};
use super::expr::Ctx;
use super::issues;
use super::value::Value;
use crate::facts::node::NodeInfo;
use crate::loader::Environment;

/// A compiled catalog in Puppet's JSON form, and the warnings on the way.
#[derive(Debug)]
pub struct Compiled {
    pub catalog: J,
    pub warnings: Vec<String>,
}

/// Compiles one node. Never panics on bad manifests: every failure is an
/// [`EvalError`] with Puppet's text.
pub fn compile(env: &Environment, node: NodeInfo) -> Result<Compiled, EvalError> {
    let mut c = run(env, node)?;
    Ok(Compiled {
        catalog: c.to_json(),
        warnings: std::mem::take(&mut c.warnings),
    })
}

/// A catalog written as text, and what else the compile gave.
#[derive(Debug)]
pub struct Written {
    /// How many resources the catalog lists.
    pub resources: usize,
    pub warnings: Vec<String>,
}

/// Compiles one node and appends its catalog to `out` as
/// `serde_json::to_writer_pretty` writes [`compile`]'s tree, without
/// building the tree (what `pverify compile --out-dir` saves).
/// A good first size for [`compile_pretty`]'s buffer, reused from node to
/// node: the bundled control repo's catalogs are about 335 kB (a buffer
/// grown by doubling copied the text ~7 times).
pub const CATALOG_BUFFER: usize = 512 << 10;

pub fn compile_pretty(
    env: &Environment,
    node: NodeInfo,
    out: &mut Vec<u8>,
) -> Result<Written, EvalError> {
    let mut c = run(env, node)?;
    c.emit_catalog(&mut PrettySink::new(out));
    Ok(Written {
        resources: c
            .catalog
            .resources()
            .iter()
            .filter(|r| !r.virtual_ || r.exported)
            .count(),
        warnings: std::mem::take(&mut c.warnings),
    })
}

fn run<'e>(env: &'e Environment, node: NodeInfo) -> Result<Compiler<'e>, EvalError> {
    let budget = crate::budget::enter(node.budget);
    // A binary String noted by an earlier compile on this thread is not ours.
    crate::bad_bytes::take_binary_noted();
    crate::bad_bytes::take_binary_strings();
    let mut c = Compiler::new(env, node);
    c.warnings.extend(env.conf_warnings.iter().cloned());
    let strict = c.node.strict_variables();
    c.scopes.set_strict_variables(strict);
    let result = c.run();
    // Over budget, the node fails with that, whatever error it unwound
    // with (wrapped by the expressions it passed) and even if something
    // swallowed the error.
    if let Some(e) = crate::budget::exceeded() {
        drop(budget);
        // Ruby's SystemStackError is no Puppet error: Puppet prints its
        // bare text, without the node (as `lookup::lookup_failed`).
        return Err(match e {
            crate::budget::Exceeded::StackTooDeep => EvalError::Foreign(e.to_string()),
            _ => EvalError::runtime(e.to_string(), Location::default()),
        });
    }
    result?;
    check_parameter_nesting(&c)?;
    check_invalid_utf8(&mut c)?;
    super::runtime_values::check(&mut c)?;
    Ok(c)
}

/// What goes wrong parsing the initial manifests (or the `code` setting):
/// Puppet's initial import prefixes it, whether it is a ParseError or
/// Ruby's own error from inside the lexer (which has no place).
fn initial_import_error(environment: &str, e: EvalError) -> EvalError {
    match e {
        EvalError::Parse(m)
        | EvalError::Runtime {
            while_evaluating: None,
            detail: m,
            at: Location { file: None, .. },
        } => EvalError::Parse(format!(
            "Could not parse for environment {environment}: {m}"
        )),
        other => other,
    }
}

/// A catalog string made from a file that is not UTF-8 (`file()`, a
/// `template()`): Ruby keeps the bytes, and neither Puppet can write the
/// catalog (7.23 falls back to PSON with a warning, 8.10 fails: `source
/// sequence is illegal/malformed utf-8`). pverify read each bad byte as its
/// stand-in (`crate::bad_bytes`), so rather than a catalog that differs
/// from Puppet's, the node fails naming the file. A compile that only
/// measured the text passes; a U+FFFD a valid file holds is no bad byte.
///
/// A binary Ruby String (`Base64.decode64` in a template or a Ruby
/// function) is not UTF-8 either, but Puppet 8's rich data writes it as a
/// Binary: there, when no file with bad bytes was read, parameter values
/// holding stand-ins are written so (`BinaryStrings::stand_ins`). Not as a hash key
/// (the converter leaves keys as they are, and JSON cannot hold them), nor
/// beside other non-ASCII text (Ruby refuses to join ASCII-8BIT to such
/// text: `incompatible character encodings`).
fn check_invalid_utf8(c: &mut Compiler<'_>) -> Result<(), EvalError> {
    let binary = crate::bad_bytes::take_binary_noted();
    let puppet8 = c.node.puppet == crate::version::PuppetVersion::V8;
    // Puppet 7 knows binary Strings too (Ruby's encoding rules), but its
    // catalog writes them as text.
    let binary_strings = crate::bad_bytes::take_binary_strings();
    if puppet8 {
        c.binary_strings = binary_strings;
    }
    let origin = match &c.invalid_utf8 {
        Some(path) => path.display().to_string(),
        None if binary => issues::limits::BINARY_STRING.to_string(),
        None => return Ok(()),
    };
    let as_binary = binary && c.invalid_utf8.is_none() && puppet8;
    /// Whether `v` holds text that cannot be written: any stand-in, or with
    /// `as_binary` one in a key or beside non-ASCII text.
    fn unwritable(v: &Value, as_binary: bool) -> bool {
        match v {
            Value::String(s) if as_binary => {
                crate::bad_bytes::holds_bad_byte(s)
                    && s.chars()
                        .any(|ch| !ch.is_ascii() && !crate::bad_bytes::is_stand_in(ch))
            }
            Value::String(s) => crate::bad_bytes::holds_bad_byte(s),
            Value::Array(items) => items.iter().any(|x| unwritable(x, as_binary)),
            Value::Hash(h) => h
                .iter()
                .any(|(k, x)| unwritable(k, false) || unwritable(x, as_binary)),
            Value::Sensitive(inner) => unwritable(inner, as_binary),
            _ => false,
        }
    }
    for r in c.catalog.resources() {
        for (name, v) in r.params.iter() {
            if unwritable(v, as_binary) {
                return Err(EvalError::Completion(
                    issues::limits::invalid_utf8_in_catalog(
                        &puppet_model::names::reference(&r.type_name, &r.title),
                        name,
                        &origin,
                    ),
                ));
            }
        }
    }
    c.binary_strings.stand_ins = as_binary;
    Ok(())
}

/// The deepest a parameter value may nest in a catalog pverify writes.
/// Puppet compiles deeper data but cannot write it (its JSON stops at 100
/// levels with `nesting of 100 is too deep`; 100,000 levels end in `stack
/// level too deep`); pverify's pretty-printed JSON grows with the square
/// of the depth (100,000 levels would be 20 GB), so past this the node fails.
pub const MAX_PARAMETER_NESTING: usize = 1000;

fn check_parameter_nesting(c: &Compiler<'_>) -> Result<(), EvalError> {
    fn too_deep(v: &Value, depth: usize) -> bool {
        match v {
            Value::Array(items) => {
                depth >= MAX_PARAMETER_NESTING || items.iter().any(|x| too_deep(x, depth + 1))
            }
            Value::Hash(h) => {
                depth >= MAX_PARAMETER_NESTING || h.iter().any(|(_, x)| too_deep(x, depth + 1))
            }
            Value::Sensitive(inner) => too_deep(inner, depth + 1),
            _ => false,
        }
    }
    for r in c.catalog.resources() {
        for (name, v) in r.params.iter() {
            if too_deep(v, 0) {
                return Err(EvalError::Completion(
                    super::issues::limits::parameter_too_deep(
                        &puppet_model::names::reference(&r.type_name, &r.title),
                        name,
                        MAX_PARAMETER_NESTING,
                    ),
                ));
            }
        }
    }
    Ok(())
}

pub(super) fn plain_res(type_name: &str, title: &str, kind: ResKind, scope: usize) -> Res {
    Res {
        type_name: type_name.into(),
        title: title.into(),
        params: IndexMap::default(),
        tags: Vec::new(),
        file: None,
        line: None,
        exported: false,
        virtual_: false,
        kind,
        evaluated: true,
        scope,
        define: None,
        rtype: None,
        scope_tagged: true,
        pending: None,
        exported_nil: false,
        attributes: (0, 0),
    }
}

impl<'e> Compiler<'e> {
    pub fn run(&mut self) -> Result<(), EvalError> {
        let nowhere = Location::default();
        // Stage[main] is the first resource.
        let mut stage = plain_res("Stage", "main", ResKind::Stage, self.scopes.top());
        stage.tag("stage");
        stage.params.insert("name".into(), Value::string("main"));
        let stage = self.catalog.add_resource(stage, &nowhere)?;

        self.set_node_parameters();
        // ENC classes are in the class list from the start.
        for (name, _) in self.node.classes.clone() {
            self.catalog.add_class(name.trim_colons());
        }

        // Class[Settings].
        let mut settings = plain_res("Class", "Settings", ResKind::Class, self.scopes.top());
        settings.tag("class");
        settings.tag("settings");
        let settings = self.catalog.add_resource(settings, &nowhere)?;
        self.catalog.add_class("settings");
        self.catalog.add_edge(stage, settings);

        // Main: every initial manifest, in order, in top scope.
        let mut programs = Vec::new();
        // The `code` setting replaces the environment's manifests.
        let code = self.node.settings.code.clone().filter(|c| !c.is_empty());
        let manifests = if code.is_some() {
            Vec::new()
        } else {
            self.env.manifests.clone()
        };
        if let Some(code) = code {
            let parsed = puppet_syntax::parse("", code.as_bytes()).map(std::sync::Arc::new);
            let program = self
                .validated(parsed)
                .map_err(|e| initial_import_error(&self.env.name, e))?;
            self.register_program(&program)?;
            programs.push(program);
        }
        for f in manifests {
            // Puppet's initial import prefixes what goes wrong here.
            let loaded = self
                .load_file(&f)
                .map_err(|e| initial_import_error(&self.env.name, e))?;
            if let Some(p) = loaded {
                programs.push(p);
            }
        }
        let mut main = plain_res("Class", "main", ResKind::Class, self.scopes.top());
        main.tag("class");
        main.params.insert("name".into(), Value::string("main"));
        let main = self.catalog.add_resource(main, &nowhere)?;
        // Class[main]'s scope is the top scope: Puppet's
        // `set_resource_parameters` binds its title, name and (empty)
        // module name there, so they cannot be assigned.
        let top = self.scopes.get_mut(self.scopes.top());
        top.resource = Some(main);
        for var in ["title", "name"] {
            top.vars.insert(var.into(), Value::string("main"));
        }
        top.vars.insert("module_name".into(), Value::string(""));
        self.catalog.add_edge(stage, main);
        for p in programs {
            let ctx = Ctx { program: p.clone() };
            // `eval_Program`: the main manifest's frame is `[file, 0]`.
            self.in_frame(&p.path, 0, |c| c.exec_block(&p.body, c.scopes.top(), &ctx))?;
        }

        self.evaluate_ast_node()?;
        self.evaluate_node_classes()?;
        self.evaluate_generators()?;
        self.evaluate_relationships()?;
        self.apply_overrides()?;
        self.validate_finished()?;
        self.catalog.add_resource_metaparams();
        // Resources not evaluated as classes or defines take their scope's tags now.
        for id in 0..self.catalog.len() {
            self.merge_scope_tags(id);
        }
        self.catalog.fail_on_unevaluated()?;
        self.catalog.validate_relationship_params()
    }

    fn set_node_parameters(&mut self) {
        // A string key is already the variable's name: its `Arc` shared,
        // not printed into a new string (a fact set has ~50 keys a node).
        let name_of = |k: &Value| -> super::value::Name {
            match k {
                Value::String(s) => s.clone(),
                other => other.to_string().into(),
            }
        };
        let mut vars: Vec<(super::value::Name, Value)> = Vec::new();
        for (k, v) in self.node.facts.iter() {
            vars.push((name_of(k), v.clone()));
        }
        for (k, v) in self.node.parameters.iter() {
            vars.push((name_of(k), v.clone()));
        }
        for (k, v) in self.node.server_facts.iter() {
            vars.push((name_of(k), v.clone()));
        }
        let env_name = self
            .node
            .environment
            .clone()
            .unwrap_or_else(|| self.env.name.clone());
        let top = self.scopes.get_mut(self.scopes.top());
        for (k, v) in vars {
            if &*k != "environment" {
                top.vars.insert(k, v);
            }
        }
        top.vars
            .insert("environment".into(), Value::string(env_name));
        let trusted = self.node.trusted();
        let facts = Value::Hash(self.node.facts.clone());
        let mut server_facts = self.node.server_facts.clone();
        server_facts.insert(
            Value::string("environment"),
            Value::string(self.env.name.as_str()),
        );
        let top = self.scopes.get_mut(self.scopes.top());
        top.vars.insert("trusted".into(), trusted);
        top.vars.insert("facts".into(), facts);
        top.vars
            .insert("server_facts".into(), Value::hash(server_facts));
    }

    /// Puppet 7 matches the certname only: the exact name, then regexes in
    /// order, then `default` (itself also looked up through the regexes).
    fn evaluate_ast_node(&mut self) -> Result<(), EvalError> {
        if self.defs.nodes().is_empty() {
            return Ok(());
        }
        let name = self.node.name.to_lowercase();
        let found = self
            .defs
            .match_node(&name)?
            .or(self.defs.match_node("default")?);
        let Some((def, title, caps)) = found else {
            return Err(EvalError::Syntax(
                issues::classes::node_statement_not_found(self.node.name.to_lowercase()),
            ));
        };
        self.evaluate_node(def, title, caps)
    }

    /// ENC classes: at node scope when a node definition matched, else top;
    /// those with parameters first; declared now, evaluated with the generators.
    fn evaluate_node_classes(&mut self) -> Result<(), EvalError> {
        let scope = self.scopes.node_scope().unwrap_or(self.scopes.top());
        let at = Location::default();
        let (with, without): (Vec<_>, Vec<_>) = self
            .node
            .classes
            .clone()
            .into_iter()
            .partition(|(_, p)| p.as_ref().is_some_and(|p| !p.is_empty()));
        for (name, params) in with.into_iter().chain(without) {
            let key = name.trim_colons().to_lowercase();
            let Some(def) = self.find_class(&key)? else {
                return Err(EvalError::Syntax(
                    issues::classes::class_not_found_for_node(&key, &self.node.name),
                ));
            };
            let params = params.filter(|p| !p.is_empty()).map(|p| {
                p.iter()
                    .map(|(k, v)| (k.to_string().into(), v.clone()))
                    .collect()
            });
            self.declare_class_lazily(&key, def, params, scope, &at)?;
        }
        Ok(())
    }

    /// Collections, then queued defines, until nothing changes.
    fn evaluate_generators(&mut self) -> Result<(), EvalError> {
        for _ in 0..1000 {
            let mut done = !self.evaluate_collections()?;
            let pending: Vec<usize> = (0..self.catalog.len())
                .filter(|&i| {
                    let r = &self.catalog[i];
                    matches!(r.kind, ResKind::Define | ResKind::Class)
                        && !r.evaluated
                        && !r.virtual_
                })
                .collect();
            for id in pending {
                done = false;
                if self.catalog[id].kind == ResKind::Class {
                    // Classes from the node classifier: their problems are
                    // reported as those of a resource statement, unlocated.
                    let unlocated = Location::default();
                    self.evaluate_class_resource(id, &unlocated)
                        .map_err(|e| e.as_resource_statement(&unlocated))?;
                } else {
                    self.evaluate_define(id)?;
                }
            }
            if done {
                return Ok(());
            }
        }
        Err(EvalError::Syntax(issues::classes::LOOPED_TOO_OFTEN.into()))
    }

    /// The catalog in Puppet's `to_data_hash` shape (`catalog_format` 2).
    pub fn to_json(&self) -> J {
        let mut tree = TreeSink::default();
        self.emit_catalog(&mut tree);
        tree.finish()
    }
}
