//! Classes and definitions known to one compile: the classes, defines,
//! nodes, functions and type aliases of the files loaded so far, which
//! classes are evaluated (and their scopes), and the type aliases resolved.

use puppet_syntax::ast::{ExprKind, Program};
use puppet_syntax::util::NameStr as _;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::sync::Arc;

use crate::eval::compiler::{regex_node_name, Definition, NodeMatch};
use crate::eval::error::EvalError;
use crate::eval::issues;
use crate::eval::scope::ScopeId;
use crate::eval::value::Value;

#[derive(Default)]
pub struct Definitions {
    /// Known definitions by kind and lower-case name.
    hostclasses: HashMap<String, Definition>,
    defines: HashMap<String, Definition>,
    nodes: Vec<(NodeMatch, Definition)>,
    /// Each node definition's name (`node_key`) and its place in `nodes`:
    /// a redefinition check per definition without recomputing every name.
    node_keys: HashMap<String, usize>,
    functions: HashMap<String, Definition>,
    type_aliases: HashMap<String, Definition>,
    /// Resolved type aliases (resolving one evaluates its type expression).
    resolved_aliases: HashMap<String, puppet_model::types::PType>,
    /// A type name as written (`Package`, `Apache::Mod`) that named a
    /// resource type, and its value: a manifest meets the same few names
    /// hundreds of times. Cleared when a type alias is defined, as an alias
    /// takes precedence.
    resource_type_refs: HashMap<String, Value>,
    /// The files loaded, by their number in the run.
    loaded_files: HashSet<puppet_syntax::util::FileNumber>,
    /// Names `Compiler::autoload` has searched for.
    autoloaded: HashSet<String>,
    /// The Object types whose definitions are being evaluated (keys), to
    /// refuse a type inheriting from itself instead of recursing forever.
    resolving_objects: Vec<String>,
    /// Evaluated classes: name → scope.
    class_scopes: HashMap<String, ScopeId>,
}

impl Definitions {
    // Loading.

    /// Whether file `number` is to be loaded (the first time only).
    #[inline]
    pub fn mark_loaded(&mut self, number: puppet_syntax::util::FileNumber) -> bool {
        self.loaded_files.insert(number)
    }

    /// Whether name `key` is to be searched for (the first time only).
    #[inline]
    pub fn mark_autoloaded(&mut self, key: &str) -> bool {
        self.autoloaded.insert(key.to_string())
    }

    /// Registers every definition of a file.
    pub fn register_all(&mut self, program: &Arc<Program>) -> Result<(), EvalError> {
        for path in program.definitions() {
            let def = Definition {
                program: program.clone(),
                path: path.clone(),
            };
            self.register(def)?;
        }
        Ok(())
    }

    /// Registers a definition; a name taken by a class, define or node is
    /// Puppet's redefinition error (`type_collection.rb`).
    fn register(&mut self, def: Definition) -> Result<(), EvalError> {
        let e = def.expr();
        let ctx = |d: &Definition| {
            let l = d.location();
            format!(
                " (file: {}, line: {})",
                l.file.unwrap_or_default(),
                l.line.unwrap_or(0)
            )
        };
        let fail = |msg: String, new: &Definition| EvalError::Syntax(format!("{msg}{}", ctx(new)));
        match &e.kind {
            ExprKind::Class { name, .. } => {
                let key = name.to_lowercase();
                if let Some(prev) = self.hostclasses.get(&key) {
                    return Err(fail(
                        issues::classes::class_redefined(&key, ctx(prev)),
                        &def,
                    ));
                }
                if let Some((_, prev)) = self.node_keys.get(&key).map(|&i| &self.nodes[i]) {
                    return Err(fail(
                        issues::classes::node_redefined_as_class(&key, ctx(prev)),
                        &def,
                    ));
                }
                if let Some(prev) = self.defines.get(&key) {
                    return Err(fail(
                        issues::classes::definition_redefined_as_class(&key, ctx(prev)),
                        &def,
                    ));
                }
                self.hostclasses.insert(key, def);
            }
            ExprKind::Define { name, .. } => {
                let key = name.to_lowercase();
                if let Some(prev) = self.hostclasses.get(&key) {
                    return Err(fail(
                        issues::classes::class_redefined_as_definition(&key, ctx(prev)),
                        &def,
                    ));
                }
                if let Some(prev) = self.defines.get(&key) {
                    // Defines are also registered with the 4.x loaders, whose error this is.
                    let l = prev.location();
                    return Err(EvalError::Syntax(issues::classes::define_redefined(
                        &key,
                        l.file.unwrap_or_default(),
                        l.line.unwrap_or(0),
                        l.column.unwrap_or(0),
                    )));
                }
                self.defines.insert(key, def);
            }
            ExprKind::Function { name, .. } => {
                self.functions.insert(name.to_lowercase(), def);
            }
            ExprKind::TypeAlias { name, .. } => {
                if let ExprKind::QRef(n) = &name.kind {
                    self.type_aliases.insert(n.to_lowercase(), def);
                    self.resource_type_refs.clear();
                }
            }
            ExprKind::Node { host_matches, .. } => {
                for h in host_matches {
                    let m = match &h.kind {
                        ExprKind::Default => NodeMatch::Default,
                        ExprKind::Regex(r) => NodeMatch::Regex(r.clone()),
                        ExprKind::Str(s) | ExprKind::QName(s) => NodeMatch::Name(s.to_lowercase()),
                        ExprKind::Number(_) => NodeMatch::Name(puppet_syntax::pn::program_to_pn(
                            std::slice::from_ref(h),
                        )),
                        ExprKind::Heredoc { text, .. } => match &text.kind {
                            ExprKind::Str(s) => NodeMatch::Name(s.to_lowercase()),
                            _ => continue,
                        },
                        _ => continue,
                    };
                    let key = node_key(&m);
                    if let Some((_, prev)) = self.node_keys.get(&key).map(|&i| &self.nodes[i]) {
                        return Err(fail(issues::classes::node_redefined(&key, ctx(prev)), &def));
                    }
                    if let Some(prev) = self.hostclasses.get(&key) {
                        return Err(fail(
                            issues::classes::class_redefined_as_node(&key, ctx(prev)),
                            &def,
                        ));
                    }
                    self.node_keys.insert(key, self.nodes.len());
                    self.nodes.push((m, def.clone()));
                }
            }
            _ => {}
        }
        Ok(())
    }

    // Definitions by lower-case name.

    #[inline]
    pub fn class(&self, key: &str) -> Option<&Definition> {
        self.hostclasses.get(key)
    }

    #[inline]
    pub fn define(&self, key: &str) -> Option<&Definition> {
        self.defines.get(key)
    }

    /// Whether a class or a define is named `key`.
    #[inline]
    pub fn is_class_or_define(&self, key: &str) -> bool {
        self.hostclasses.contains_key(key) || self.defines.contains_key(key)
    }

    #[inline]
    pub fn function(&self, key: &str) -> Option<&Definition> {
        self.functions.get(key)
    }

    #[inline]
    pub fn type_alias(&self, key: &str) -> Option<&Definition> {
        self.type_aliases.get(key)
    }

    /// The node definitions, in the order they were loaded.
    #[inline]
    pub fn nodes(&self) -> &[(NodeMatch, Definition)] {
        &self.nodes
    }

    // Resolved types.

    #[inline]
    pub fn resolved_alias(&self, key: &str) -> Option<&puppet_model::types::PType> {
        self.resolved_aliases.get(key)
    }

    #[inline]
    /// Forgets an alias whose definition failed to resolve.
    pub fn forget_resolved_alias(&mut self, key: &str) {
        self.resolved_aliases.remove(key);
    }

    pub fn set_resolved_alias(&mut self, key: String, t: puppet_model::types::PType) {
        self.resolved_aliases.insert(key, t);
    }

    /// The value of a type name as written that named a resource type.
    #[inline]
    pub fn resource_type_ref(&self, name: &str) -> Option<&Value> {
        self.resource_type_refs.get(name)
    }

    #[inline]
    pub fn set_resource_type_ref(&mut self, name: String, v: Value) {
        self.resource_type_refs.insert(name, v);
    }

    /// Whether any Object type's definition is being evaluated.
    #[inline]
    pub fn resolving_any_object(&self) -> bool {
        !self.resolving_objects.is_empty()
    }

    #[inline]
    pub fn is_resolving_object(&self, key: &str) -> bool {
        self.resolving_objects.iter().any(|k| k == key)
    }

    /// Starts evaluating the definition of Object type `key` (ended by
    /// [`Definitions::end_resolving_object`]).
    #[inline]
    pub fn begin_resolving_object(&mut self, key: String) {
        self.resolving_objects.push(key);
    }

    #[inline]
    pub fn end_resolving_object(&mut self) {
        self.resolving_objects.pop();
    }

    // Evaluated classes.

    /// The scope of evaluated class `key`.
    #[inline]
    pub fn class_scope(&self, key: &str) -> Option<ScopeId> {
        self.class_scopes.get(key).copied()
    }

    #[inline]
    pub fn is_evaluated_class(&self, key: &str) -> bool {
        self.class_scopes.contains_key(key)
    }

    #[inline]
    pub fn set_class_scope(&mut self, key: String, scope: ScopeId) {
        self.class_scopes.insert(key, scope);
    }

    /// Does class `child` inherit (transitively) from class `parent`?
    pub fn inherits_from(&self, child: &str, parent: &str) -> bool {
        let mut current = child.to_string();
        for _ in 0..100 {
            let Some(def) = self.class(&current) else {
                return false;
            };
            let ExprKind::Class {
                parent: Some(p), ..
            } = &def.expr().kind
            else {
                return false;
            };
            let p = p.trim_colons().to_lowercase();
            if p == parent {
                return true;
            }
            current = p;
        }
        false
    }

    #[allow(clippy::type_complexity)]
    pub fn match_node(
        &self,
        name: &str,
    ) -> Result<Option<(Definition, String, Option<Vec<Value>>)>, EvalError> {
        // The literal `default` node is known by the name "default" too.
        for (m, def) in &self.nodes {
            let literal = match m {
                NodeMatch::Name(n) => n.as_str(),
                NodeMatch::Default => "default",
                NodeMatch::Regex(_) => continue,
            };
            if literal == name {
                return Ok(Some((def.clone(), literal.to_string(), None)));
            }
        }
        for (m, def) in &self.nodes {
            if let NodeMatch::Regex(r) = m {
                let caps = crate::eval::typeops::regex_captures(r, name)
                    .map_err(|e| EvalError::runtime(e, def.location()))?;
                if let Some(caps) = caps {
                    return Ok(Some((def.clone(), regex_node_name(r), Some(caps))));
                }
            }
        }
        Ok(None)
    }
}

fn node_key(m: &NodeMatch) -> String {
    match m {
        NodeMatch::Name(n) => n.clone(),
        NodeMatch::Regex(r) => regex_node_name(r),
        NodeMatch::Default => "default".into(),
    }
}
