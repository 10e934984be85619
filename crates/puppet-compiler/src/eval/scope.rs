//! Scopes: top, node, class, define and local (lambda) scopes in an arena.
//!
//! Variables resolve lexically as Puppet 4+ does: a local scope, then its
//! class's inherited parent class scope or else its enclosing scope up to node
//! or top scope. Resource defaults resolve dynamically, along `parent`.

use rustc_hash::FxHashMap as HashMap;

use super::compiler::{ParamGuard, ScopeNames};
use super::value::Value;

pub type ScopeId = usize;
pub type ResId = usize;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScopeKind {
    Top,
    Node,
    Class(String),
    /// A defined type's instance, by the type's name: its instances share
    /// one source, as Puppet's share their `Resource::Type`.
    Define(String),
    Local,
    /// Holds only match variables (`$0`, `$1`...) of a case option, selector
    /// entry or `=~`: assignments and lookups pass through it.
    Ephemeral,
}

#[derive(Debug)]
pub struct Scope {
    pub kind: ScopeKind,
    /// The scope this one was created in (dynamic parent).
    pub parent: Option<ScopeId>,
    /// For a class that `inherits`: its parent class's scope.
    pub inherited: Option<ScopeId>,
    pub vars: HashMap<super::value::Name, Value>,
    /// Match variables (`$0`, `$1`...) set by `=~`, case and node regexes.
    pub matches: Option<Vec<Value>>,
    /// The class, define or node resource that owns this scope.
    pub resource: Option<ResId>,
    /// Resource defaults by lower-cased type name: attribute => value.
    pub defaults: HashMap<String, Vec<(super::value::Name, Value)>>,
}

impl Scope {
    pub fn new(kind: ScopeKind, parent: Option<ScopeId>, resource: Option<ResId>) -> Scope {
        Scope {
            kind,
            parent,
            inherited: None,
            vars: HashMap::default(),
            matches: None,
            resource,
            defaults: HashMap::default(),
        }
    }
}

impl Scopes {
    /// Where an assignment in `id` lands: past ephemeral match scopes.
    pub fn assignment_target(&self, mut id: ScopeId) -> ScopeId {
        while self.all[id].kind == ScopeKind::Ephemeral {
            match self.all[id].parent {
                Some(p) => id = p,
                None => break,
            }
        }
        id
    }
}

/// Scopes and variables of one compile: every scope (in an arena), which
/// are top and node scope, and how variables are read (`strict_variables`,
/// the parameters a default may not read yet).
#[derive(Debug)]
pub struct Scopes {
    all: Vec<Scope>,
    top: ScopeId,
    node: Option<ScopeId>,
    /// While a parameter default is evaluated: the parameters not yet bound,
    /// which it may not read (Puppet's parameter scope).
    param_guard: Option<ParamGuard>,
    /// Puppet's `strict_variables` setting: an unknown variable is an error.
    strict_variables: bool,
    /// The names every class and define scope sets, made once per compile
    /// (each was a new string per scope).
    names: ScopeNames,
}

impl Default for Scopes {
    fn default() -> Self {
        Scopes::new()
    }
}

impl Scopes {
    /// The scopes of a new compile: top scope only.
    pub fn new() -> Scopes {
        // Room for a few scopes, as the first push into an empty arena made.
        let mut all = Vec::with_capacity(4);
        all.push(Scope::new(ScopeKind::Top, None, None));
        Scopes {
            all,
            top: 0,
            node: None,
            param_guard: None,
            strict_variables: false,
            names: ScopeNames::default(),
        }
    }

    /// Top scope.
    #[inline]
    pub fn top(&self) -> ScopeId {
        self.top
    }

    /// The node definition's scope, once a node definition is evaluated.
    #[inline]
    pub fn node_scope(&self) -> Option<ScopeId> {
        self.node
    }

    #[inline]
    pub fn set_node_scope(&mut self, id: ScopeId) {
        self.node = Some(id);
    }

    /// The parameters a default being evaluated may not read.
    #[inline]
    pub fn param_guard(&self) -> Option<&ParamGuard> {
        self.param_guard.as_ref()
    }

    /// Sets (or lifts) the parameter guard; the one it replaces.
    #[inline]
    pub fn replace_param_guard(&mut self, guard: Option<ParamGuard>) -> Option<ParamGuard> {
        std::mem::replace(&mut self.param_guard, guard)
    }

    #[inline]
    pub fn strict_variables(&self) -> bool {
        self.strict_variables
    }

    #[inline]
    pub fn set_strict_variables(&mut self, strict: bool) {
        self.strict_variables = strict;
    }

    /// The variable names a class or define scope starts with.
    #[inline]
    pub fn names(&self) -> &ScopeNames {
        &self.names
    }

    pub fn push(&mut self, scope: Scope) -> ScopeId {
        self.all.push(scope);
        self.all.len() - 1
    }

    pub fn get(&self, id: ScopeId) -> &Scope {
        &self.all[id]
    }

    pub fn get_mut(&mut self, id: ScopeId) -> &mut Scope {
        &mut self.all[id]
    }

    /// Where lookup continues after `id`: the inherited class scope, else the
    /// enclosing scope (parents up to the nearest node or top scope).
    pub fn next_lexical(&self, id: ScopeId) -> Option<ScopeId> {
        let s = &self.all[id];
        if let Some(i) = s.inherited {
            return Some(i);
        }
        match s.kind {
            ScopeKind::Local | ScopeKind::Ephemeral => s.parent,
            ScopeKind::Top => None,
            _ => {
                let mut p = s.parent?;
                loop {
                    let ps = &self.all[p];
                    if matches!(ps.kind, ScopeKind::Top | ScopeKind::Node) {
                        return Some(p);
                    }
                    match ps.parent {
                        Some(pp) => p = pp,
                        None => return Some(p),
                    }
                }
            }
        }
    }

    /// An unqualified variable, lexically.
    pub fn lookup(&self, mut id: ScopeId, name: &str) -> Option<&Value> {
        loop {
            let s = &self.all[id];
            if let Some(v) = s.vars.get(name) {
                return Some(v);
            }
            id = self.next_lexical(id)?;
        }
    }

    /// The scope whose variable `name` an unqualified lookup from `id` finds.
    pub fn defining_scope(&self, mut id: ScopeId, name: &str) -> Option<ScopeId> {
        loop {
            if self.all[id].vars.contains_key(name) {
                return Some(id);
            }
            id = self.next_lexical(id)?;
        }
    }

    /// A match variable (`$1`), from the innermost scope that has matches,
    /// along the dynamic parents: Puppet 7.23 lets a class declared in a regex
    /// node see the node's captures.
    pub fn lookup_match(&self, mut id: ScopeId, index: usize) -> Option<Value> {
        loop {
            let s = &self.all[id];
            if let Some(m) = &s.matches {
                return Some(m.get(index).cloned().unwrap_or(Value::Undef));
            }
            id = s.parent?;
        }
    }

    pub fn resource_of(&self, scope: ScopeId) -> Option<ResId> {
        let mut s = Some(scope);
        while let Some(id) = s {
            if let Some(r) = self.get(id).resource {
                return Some(r);
            }
            s = self.get(id).parent;
        }
        None
    }

    /// A scope for the body of a case option or selector entry that matched a
    /// regex: it holds `$0`, `$1`...
    pub fn match_scope(&mut self, scope: ScopeId, caps: Option<Vec<Value>>) -> ScopeId {
        match caps {
            None => scope,
            Some(c) => {
                let mut s = Scope::new(ScopeKind::Ephemeral, Some(scope), None);
                s.matches = Some(c);
                self.push(s)
            }
        }
    }

    /// `var` in class scope `s` or the scopes it inherits from.
    pub fn qualified_in_class(&self, mut s: ScopeId, var: &str) -> Option<Value> {
        loop {
            let scope = self.get(s);
            if let Some(v) = scope.vars.get(var) {
                return Some(v.clone());
            }
            s = scope.inherited?;
        }
    }

    /// The class (or define, node, main) whose code a scope runs: Puppet's
    /// `source` of what is declared there.
    pub fn source_of(&self, scope: ScopeId) -> String {
        let mut s = Some(scope);
        while let Some(id) = s {
            match &self.get(id).kind {
                ScopeKind::Class(k) => return format!("class {k}"),
                ScopeKind::Define(d) => return format!("define {d}"),
                ScopeKind::Node => return format!("scope {id}"),
                ScopeKind::Top => return "main".into(),
                _ => s = self.get(id).parent,
            }
        }
        "main".into()
    }

    /// Puppet's `Scope#is_default?`: whether a scope of the chain has
    /// `value` as its default for the type's parameter `name`.
    pub fn is_default(&self, scope: ScopeId, type_key: &str, name: &str, value: &Value) -> bool {
        let mut s = Some(scope);
        while let Some(id) = s {
            let found = self
                .get(id)
                .defaults
                .get(type_key)
                .and_then(|defs| defs.iter().find(|(n, _)| &**n == name).map(|(_, v)| v));
            if found == Some(value) {
                return true;
            }
            s = self.get(id).parent;
        }
        false
    }

    /// Puppet's `lookupdefaults`: the dynamic scope chain's defaults for a
    /// type, outermost first, nearer scopes overriding.
    pub fn lookup_defaults(
        &self,
        scope: ScopeId,
        type_key: &str,
    ) -> Vec<(super::value::Name, Value)> {
        let mut chain = Vec::new();
        let mut s = Some(scope);
        while let Some(id) = s {
            // Only the scopes with defaults for the type matter (most have
            // none): no list is built when none has.
            if self.get(id).defaults.contains_key(type_key) {
                chain.push(id);
            }
            s = self.get(id).parent;
        }
        let mut out: Vec<(super::value::Name, Value)> = Vec::new();
        for id in chain.into_iter().rev() {
            if let Some(defs) = self.get(id).defaults.get(type_key) {
                for (n, v) in defs {
                    match out.iter_mut().find(|(k, _)| k == n) {
                        Some(slot) => slot.1 = v.clone(),
                        None => out.push((n.clone(), v.clone())),
                    }
                }
            }
        }
        out
    }

    /// Puppet's `find_global_scope`: from `scope` outward (inherited class
    /// scope, else enclosing scope) to the first node or top scope, so a
    /// template also sees the node definition's variables.
    pub fn global_scope(&self, mut scope: ScopeId) -> ScopeId {
        loop {
            if matches!(self.get(scope).kind, ScopeKind::Top | ScopeKind::Node) {
                return scope;
            }
            match self.next_lexical(scope) {
                Some(next) => scope = next,
                None => return scope,
            }
        }
    }
}
