//! One node's compilation: Puppet's `Parser::Compiler#compile`.
//!
//! set node parameters → settings scope → main (the initial manifests) → the
//! matching node definition → ENC classes → generators (collections, then
//! queued defines, until nothing changes) → finish (relationships, overrides).
//! Everything here belongs to this one node; the environment's parsed trees are
//! only read.

use indexmap::IndexMap;
pub use puppet_model::names::capitalize_name;
use puppet_syntax::util::NameStr as _;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::sync::Arc;

use super::error::{EvalError, Location};
use super::issues;
use super::scope::{ResId, Scope, ScopeId, ScopeKind, Scopes};
use super::value::Value;
use crate::facts::node::NodeInfo;
use crate::loader::Environment;
use puppet_syntax::ast::{Expr, ExprKind, Program};

/// A definition known to this compilation, with the file that holds it.
#[derive(Clone)]
pub struct Definition {
    pub program: Arc<Program>,
    /// Where the definition sits inside `program`.
    pub path: puppet_syntax::ast::DefinitionPath,
}

impl std::fmt::Debug for Definition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let l = self.location();
        write!(
            f,
            "Definition({}:{})",
            l.file.unwrap_or_default(),
            l.line.unwrap_or(0)
        )
    }
}

impl Definition {
    pub fn expr(&self) -> &Expr {
        self.program.definition(&self.path)
    }

    /// The parameters of a class, define or function (none for others).
    pub fn params(&self) -> &[puppet_syntax::ast::Parameter] {
        match &self.expr().kind {
            ExprKind::Class { params, .. }
            | ExprKind::Define { params, .. }
            | ExprKind::Function { params, .. } => params,
            _ => &[],
        }
    }

    pub fn location(&self) -> Location {
        let (line, column) = self.program.line_col(self.expr().span);
        Location {
            file: Some(self.program.path.clone()),
            line: Some(line),
            column: Some(column),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResKind {
    Stage,
    Class,
    Node,
    Define,
    Builtin,
}

/// A tag: shared, since a resource takes the tags of the resource owning
/// its scope (a class's tags go to every resource in it).
pub type Tag = std::sync::Arc<str>;

/// A resource as the compiler builds it.
#[derive(Clone, Debug)]
pub struct Res {
    pub type_name: Arc<str>,
    pub title: Arc<str>,
    pub params: puppet_model::value::Params,
    pub tags: Vec<Tag>,
    pub file: Option<Arc<str>>,
    pub line: Option<u32>,
    pub exported: bool,
    pub virtual_: bool,
    pub kind: ResKind,
    /// Defines: evaluated yet? Classes/nodes: always true once in the catalog.
    pub evaluated: bool,
    /// The scope the resource was declared in.
    pub scope: ScopeId,
    /// For defines: the definition's lower-case name.
    pub define: Option<String>,
    /// For Ruby types: the type, found once when the resource is made (the
    /// catalog index, the relationship check and the catalog JSON read it).
    pub rtype: Option<Arc<crate::restypes::TypeDef>>,
    /// Whether the tags of the resource owning `scope` were merged in yet
    /// (Puppet does it when a class or define is evaluated, else at finish).
    pub scope_tagged: bool,
    /// Classes declared lazily (by an ENC): the parameters to bind later.
    pub pending: Option<puppet_model::value::Params>,
    /// Made by the 3.x `create_resources` without `@`/`@@`: Puppet leaves
    /// `exported` nil, so its JSON writes `exported` after `kind`.
    pub exported_nil: bool,
}

impl Res {
    pub fn reference(&self) -> String {
        puppet_model::names::bracketed(&self.type_name, &self.title)
    }

    /// Adds tags in Puppet's order: each new tag once; `a::b` also adds `a`, `b`.
    pub fn tag(&mut self, tag: &str) {
        // Most tags are lower-case ASCII already: no copy to compare them.
        if tag.is_ascii() && !tag.bytes().any(|b| b.is_ascii_uppercase()) {
            self.tag_lowercase(tag);
        } else {
            self.tag_lowercase(&tag.to_lowercase());
        }
    }

    /// [`Res::tag`] with a tag already shared (a title): kept, not copied,
    /// when it is a lower-case ASCII name without `::`, as most titles are.
    pub fn tag_shared(&mut self, tag: &Tag) {
        if tag
            .bytes()
            .all(|b| b.is_ascii() && !b.is_ascii_uppercase() && b != b':')
        {
            if !self.tags.contains(tag) {
                self.tags.push(tag.clone());
            }
        } else {
            self.tag(tag);
        }
    }

    /// [`Res::tag`] with a tag made by [`split_tag`] (shared, not copied).
    pub fn tag_split(&mut self, split: &[Tag]) {
        let Some((full, parts)) = split.split_first() else {
            return;
        };
        if self.tags.contains(full) {
            return;
        }
        self.tags.push(full.clone());
        for part in parts {
            if !self.tags.contains(part) {
                self.tags.push(part.clone());
            }
        }
    }

    fn tag_lowercase(&mut self, t: &str) {
        if self.tags.iter().any(|x| &**x == t) {
            return;
        }
        self.tags.push(t.into());
        if t.has_colons() {
            for part in t.split_colons() {
                if !part.is_empty() && !self.tags.iter().any(|x| &**x == part) {
                    self.tags.push(part.into());
                }
            }
        }
    }
}

/// The catalog's index reads the compiler's resources themselves.
impl crate::catalog::Indexed for Res {
    fn type_name(&self) -> &Arc<str> {
        &self.type_name
    }
    fn title(&self) -> &Arc<str> {
        &self.title
    }
    fn file(&self) -> Option<&str> {
        self.file.as_deref()
    }
    fn line(&self) -> Option<u32> {
        self.line
    }
    fn parameter(&self, name: &str) -> Option<&Value> {
        self.params.get(name)
    }
    fn compilable(&self) -> bool {
        matches!(self.kind, ResKind::Stage | ResKind::Builtin)
    }
    fn rtype(&self) -> Option<&Arc<crate::restypes::TypeDef>> {
        match self.kind {
            ResKind::Builtin => self.rtype.as_ref(),
            _ => None,
        }
    }
}

/// A tag as [`Res::tag`] adds it: lower-cased, then the non-empty parts of
/// a qualified name (for [`Res::tag_split`]).
pub fn split_tag(tag: &str) -> Vec<Tag> {
    let t = tag.to_lowercase();
    let mut split: Vec<Tag> = vec![t.as_str().into()];
    if t.has_colons() {
        split.extend(t.split_colons().filter(|p| !p.is_empty()).map(Tag::from));
    }
    split
}

/// [`capitalize_name`], borrowed when that changes nothing (`Package`,
/// `Apache::Mod`: most references written in strings).
pub fn capitalized_name(name: &str) -> std::borrow::Cow<'_, str> {
    let trimmed = name.trim_colons();
    let b = trimmed.as_bytes();
    // Every byte that could start a segment (a superset of those
    // `capitalize_name` upper-cases) is not a lower-case letter.
    let unchanged = trimmed.is_ascii()
        && b.iter()
            .enumerate()
            .all(|(i, c)| !c.is_ascii_lowercase() || (i > 0 && (i < 2 || &b[i - 2..i] != b"::")));
    match unchanged {
        true => std::borrow::Cow::Borrowed(trimmed),
        false => std::borrow::Cow::Owned(capitalize_name(name)),
    }
}

/// One side of a relationship: references, or what a collector collects.
#[derive(Clone, Debug)]
pub enum Operand {
    Ref(Value),
    Collector(usize),
}

/// A relationship waiting for catalog completion: source → target.
#[derive(Clone, Debug)]
pub struct Relation {
    pub source: Vec<Operand>,
    pub target: Vec<Operand>,
    /// `before` or `notify`.
    pub param: &'static str,
}

/// The resources a compile makes room for at once (the module catalogs of
/// the benchmark have ~200).
const TYPICAL_RESOURCES: usize = 256;

/// A resource type's name as the catalog writes it (`Apache::Mod`) and the
/// tags it gives its resources (`apache::mod`, `apache`, `mod`).
#[derive(Clone)]
pub struct ResourceTypeName {
    pub name: Arc<str>,
    pub tags: Arc<[Tag]>,
}

/// `$title`, `$name`, `$module_name` and `$caller_module_name`: the
/// variables a class or define scope starts with.
pub struct ScopeNames {
    pub title: super::value::Name,
    pub name: super::value::Name,
    pub module_name: super::value::Name,
    pub caller_module_name: super::value::Name,
}

impl Default for ScopeNames {
    fn default() -> Self {
        ScopeNames {
            title: "title".into(),
            name: "name".into(),
            module_name: "module_name".into(),
            caller_module_name: "caller_module_name".into(),
        }
    }
}

/// How many variables a class or define scope starts with (see [`ScopeNames`]).
pub const SCOPE_NAMES: usize = 4;

pub struct Compiler<'e> {
    pub env: &'e Environment,
    pub node: NodeInfo,
    pub scopes: Scopes,
    pub resources: Vec<Res>,
    /// The catalog's index of titles, aliases and uniqueness keys over
    /// `resources` (`crate::catalog`): it decides what a reference finds
    /// and what is a duplicate. Its resource ids are the indices into
    /// `resources`.
    pub index: crate::catalog::Index,
    pub edges: Vec<(ResId, ResId)>,
    /// The edges again, so that `add_edge`'s duplicate check is O(1): a
    /// linear scan made 20,000-resource catalogs quadratic.
    edge_set: HashSet<(ResId, ResId)>,
    /// The lines of relationship metaparameters set in a resource body
    /// (`require => ...`): Puppet reports a missing target there.
    pub relationship_lines: HashMap<(ResId, super::value::Name), u32>,
    /// What Hiera remembers for the compile (layers, `lookup_options`,
    /// resolved hierarchy levels), as Puppet's LookupAdapter does.
    pub hiera: crate::hiera::memo::HieraMemo,
    pub classes: Vec<String>,
    pub catalog_tags: Vec<Tag>,
    /// Known definitions by kind and lower-case name.
    pub hostclasses: HashMap<String, Definition>,
    pub defines: HashMap<String, Definition>,
    pub nodes: Vec<(NodeMatch, Definition)>,
    /// Each node definition's name (`node_key`) and its place in `nodes`:
    /// a redefinition check per definition without recomputing every name.
    node_keys: HashMap<String, usize>,
    pub functions: HashMap<String, Definition>,
    pub type_aliases: HashMap<String, Definition>,
    /// Resolved type aliases (resolving one evaluates its type expression).
    pub resolved_aliases: HashMap<String, puppet_model::types::PType>,
    /// A type name as written (`Package`, `Apache::Mod`) that named a
    /// resource type, and its value: a manifest meets the same few names
    /// hundreds of times. Cleared when a type alias is defined, as an alias
    /// takes precedence.
    pub resource_type_refs: HashMap<String, super::value::Value>,
    /// The files loaded, by their number in the run.
    loaded_files: HashSet<puppet_syntax::util::FileNumber>,
    /// Names [`Compiler::autoload`] has searched for.
    autoloaded: HashSet<String>,
    /// `annotate`'s side table: annotated values (kept alive, compared by
    /// identity as Puppet's adapters are) and their annotations (Object
    /// values of Annotation types), one per annotation type.
    pub annotations: Vec<(Value, Vec<Value>)>,
    /// The Object types whose definitions are being evaluated (keys), to
    /// refuse a type inheriting from itself instead of recursing forever.
    pub resolving_objects: Vec<String>,
    /// Evaluated classes: name → scope.
    pub class_scopes: HashMap<String, ScopeId>,
    pub top: ScopeId,
    pub node_scope: Option<ScopeId>,
    pub relations: Vec<Relation>,
    pub collectors: Vec<super::resources::Collector>,
    /// The resources by type name, for the collectors (see
    /// `resources::ResourcesByType`): built only once there is a collector.
    pub by_type: super::resources::ResourcesByType,
    /// Overrides of resources not yet declared, by reference (Puppet's
    /// `@resource_overrides`): merged at the end, in resource order.
    pub overrides: IndexMap<String, Vec<super::resources::Override>>,
    pub warnings: Vec<String>,
    /// How deep the evaluation of nested defines, functions and includes is.
    pub depth: usize,
    /// How many modules' Ruby functions are running inside one another
    /// (each holds a Ruby interpreter's frames on the stack).
    pub ruby_depth: usize,
    /// The Ruby class of the exception the last failing module Ruby
    /// function raised (`Puppet::ParseError`...): a Ruby caller's `rescue`
    /// matches on it.
    pub ruby_error_class: Option<String>,
    /// An error with its manifest location that Puppet code raised under a
    /// Ruby function's call: Puppet lets it through every Ruby frame as it
    /// is, so the outermost Ruby function gives it back unchanged.
    pub ruby_located_error: Option<Box<super::error::EvalError>>,
    /// Where the exception a module's Ruby function let out was raised
    /// (Ruby's `backtrace.first`), which `template()` names.
    pub ruby_error_origin: Option<RubyErrorOrigin>,
    /// The text of the last error a Ruby caller got from a function it
    /// called (raised outside the caller's own code).
    pub ruby_callee_error: Option<String>,
    /// Puppet's `strict_variables` setting: an unknown variable is an error.
    pub strict_variables: bool,
    /// While a parameter default is evaluated: the parameters not yet bound,
    /// which it may not read (Puppet's parameter scope).
    pub param_guard: Option<ParamGuard>,
    /// `realize` calls, one list of references each (Puppet's
    /// `FixedSetCollector`s): what is not yet found, in call order, is
    /// retried with each pass of the collections.
    pub realize_sets: Vec<Vec<super::resources::RealizeRef>>,
    /// The names every class and define scope sets, made once per compile
    /// (each was a new string per scope).
    pub scope_names: ScopeNames,
    /// Resource type names as declared (`apache::mod`) and capitalised
    /// (`Apache::Mod`): a catalog has a few dozen types for hundreds of
    /// resources, each of which had its own copy.
    type_names: HashMap<Box<str>, ResourceTypeName>,
    /// The text of each EPP template being rendered, innermost last
    /// (Puppet's `@epp` scope variable), and whether a Sensitive value was
    /// rendered into it (then the result is Sensitive).
    pub epp_output: Vec<(String, bool)>,
}

#[derive(Clone, Debug)]
pub struct ParamGuard {
    pub scope: ScopeId,
    pub reference: Arc<str>,
    /// The class or define whose parameters are being bound: their names
    /// are read from its declaration, not copied per binding (apache's
    /// classes have ~150).
    pub def: Definition,
    /// The parameter whose default is evaluated.
    pub from: usize,
    /// The parameters before it left without a value (no default, not
    /// given), by index; usually none.
    pub missing_before: Vec<usize>,
}

impl ParamGuard {
    /// The name of the parameter whose default is evaluated.
    pub fn param(&self) -> &str {
        self.def.params().get(self.from).map_or("", |p| &*p.name)
    }

    /// Whether `name` is a parameter without a value yet (Puppet's
    /// `ParameterScope` entry not assigned), and if so, whether it comes
    /// before the one whose default is evaluated (it never will have one)
    /// or not (it is not evaluated yet). Given values are in the scope
    /// before any default is evaluated; `bound` says whether a name is.
    pub fn unassigned(&self, name: &str, bound: impl Fn(&str) -> bool) -> Option<bool> {
        let j = self.def.params().iter().position(|p| &*p.name == name)?;
        if j < self.from {
            return self.missing_before.contains(&j).then_some(true);
        }
        (j == self.from || !bound(name)).then_some(false)
    }
}

/// How a node definition matches certnames.
#[derive(Clone, Debug)]
pub enum NodeMatch {
    Name(String),
    Regex(String),
    Default,
}

impl<'e> Compiler<'e> {
    pub fn new(env: &'e Environment, node: NodeInfo) -> Compiler<'e> {
        let mut scopes = Scopes::default();
        let top = scopes.push(Scope::new(ScopeKind::Top, None, None));
        Compiler {
            env,
            node,
            scopes,
            // Sized for a typical catalog: growing moved every resource again.
            resources: Vec::with_capacity(TYPICAL_RESOURCES),
            index: {
                let mut index = crate::catalog::Index::default();
                index.reserve(TYPICAL_RESOURCES);
                index
            },
            edges: Vec::new(),
            edge_set: HashSet::default(),
            relationship_lines: HashMap::default(),
            hiera: Default::default(),
            classes: Vec::new(),
            catalog_tags: Vec::new(),
            hostclasses: HashMap::default(),
            defines: HashMap::default(),
            nodes: Vec::new(),
            node_keys: HashMap::default(),
            functions: HashMap::default(),
            type_aliases: HashMap::default(),
            resolved_aliases: HashMap::default(),
            resource_type_refs: HashMap::default(),
            loaded_files: HashSet::default(),
            autoloaded: HashSet::default(),
            annotations: Vec::new(),
            resolving_objects: Vec::new(),
            class_scopes: HashMap::default(),
            top,
            node_scope: None,
            relations: Vec::new(),
            collectors: Vec::new(),
            by_type: Default::default(),
            overrides: IndexMap::new(),
            warnings: Vec::new(),
            depth: 0,
            ruby_depth: 0,
            ruby_error_class: None,
            ruby_located_error: None,
            ruby_error_origin: None,
            ruby_callee_error: None,
            strict_variables: false,
            param_guard: None,
            epp_output: Vec::new(),
            realize_sets: Vec::new(),
            scope_names: ScopeNames::default(),
            type_names: HashMap::default(),
        }
    }

    pub fn loc(&self, program: &Program, e: &Expr) -> Location {
        let (line, column) = program.line_col(e.span);
        Location {
            file: Some(program.path.clone()),
            line: Some(line),
            column: Some(column),
        }
    }

    // -----------------------------------------------------------------------
    // Loading.

    /// Parses (once per run) and registers every definition of a file.
    pub fn load_file(&mut self, path: &std::path::Path) -> Result<Option<Arc<Program>>, EvalError> {
        let (number, parsed) = self.env.parse_numbered(path);
        if !self.loaded_files.insert(number) {
            return Ok(None);
        }
        let program = parsed.map_err(|e| EvalError::Parse(syntax_message(&e)))?;
        self.register_definitions(&program)?;
        self.evaluate_parameter_types(&program)?;
        Ok(Some(program))
    }

    pub fn register_program(&mut self, program: &Arc<Program>) -> Result<(), EvalError> {
        self.register_definitions(program)?;
        self.evaluate_parameter_types(program)
    }

    /// Puppet instantiates every class and define of a file as it loads the
    /// file, evaluating their parameter types in the global scope
    /// (`PopsBridge#create_type_map`): a type that names nothing fails the
    /// load, whether or not the class is ever declared, and the error is
    /// the type's own, not wrapped by what made the file load.
    fn evaluate_parameter_types(&mut self, program: &Arc<Program>) -> Result<(), EvalError> {
        let ctx = super::expr::Ctx {
            program: program.clone(),
        };
        for path in program.definitions() {
            let def = Definition {
                program: program.clone(),
                path: path.clone(),
            };
            if !matches!(
                def.expr().kind,
                ExprKind::Class { .. } | ExprKind::Define { .. }
            ) {
                continue;
            }
            for p in def.params() {
                let Some(t) = &p.type_expr else { continue };
                if let Err(e) = self.eval(t, self.top, &ctx) {
                    return Err(match e {
                        EvalError::Runtime { .. } | EvalError::Issue { .. } => {
                            EvalError::Syntax(e.message())
                        }
                        other => other,
                    });
                }
            }
        }
        Ok(())
    }

    fn register_definitions(&mut self, program: &Arc<Program>) -> Result<(), EvalError> {
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

    /// Finds a class, autoloading it with Puppet's 3.x search if needed.
    pub fn find_class(&mut self, name: &str) -> Result<Option<Definition>, EvalError> {
        let key = name.trim_colons().lowercase();
        if let Some(d) = self.hostclasses.get(&*key) {
            return Ok(Some(d.clone()));
        }
        self.autoload(&key)?;
        Ok(self.hostclasses.get(&*key).cloned())
    }

    pub fn find_define(&mut self, name: &str) -> Result<Option<Definition>, EvalError> {
        let key = name.trim_colons().lowercase();
        if let Some(d) = self.defines.get(&*key) {
            return Ok(Some(d.clone()));
        }
        self.autoload(&key)?;
        Ok(self.defines.get(&*key).cloned())
    }

    /// A Puppet-language function: known, or autoloaded by the 4.x loaders'
    /// strict search: `mod::name` from `mod/functions/name.pp`, and any name
    /// from the environment's `functions/` by its full path
    /// (`greeting` → `functions/greeting.pp`).
    pub fn find_function(&mut self, name: &str) -> Result<Option<Definition>, EvalError> {
        let key = name.trim_colons().to_lowercase();
        if let Some(d) = self.functions.get(&key) {
            return Ok(Some(d.clone()));
        }
        let segments: Vec<&str> = key.split("::").collect();
        let mut candidates = Vec::new();
        if segments.len() >= 2 {
            if let Some(module) = self.env.module_dir(segments[0]) {
                candidates.push(crate::loader::path_under(
                    &module.join("functions"),
                    &segments[1..],
                ));
            }
        }
        candidates.push(crate::loader::path_under(
            &self.env.dir.join("functions"),
            &segments,
        ));
        for path in candidates {
            if self.env.files().is_file(&path) {
                self.load_file(&path)?;
                if let Some(d) = self.functions.get(&key) {
                    return Ok(Some(d.clone()));
                }
            }
        }
        Ok(None)
    }

    /// A type alias: known, or autoloaded from `mod/types/name.pp`
    /// (`environment::` from the environment's `types/`), then resolved once.
    pub fn find_type_alias(
        &mut self,
        name: &str,
    ) -> Result<Option<puppet_model::types::PType>, EvalError> {
        let key = name.trim_colons().to_lowercase();
        if let Some(t) = self.resolved_aliases.get(&key) {
            return Ok(Some(t.clone()));
        }
        let mut autoloaded = None;
        if !self.type_aliases.contains_key(&key) {
            let shared = self
                .env
                .resolved_type_aliases
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .get(&key)
                .cloned();
            if let Some((path, t)) = shared {
                // Loaded as without the shared type, so the compile knows
                // the same definitions.
                self.load_file(&path)?;
                self.resolved_aliases.insert(key, t.clone());
                return Ok(Some(t));
            }
            if let Some(path) = self.env.type_alias_file(&key) {
                self.load_file(&path)?;
                autoloaded = Some(path);
            }
        }
        let Some(def) = self.type_aliases.get(&key).cloned() else {
            return Ok(None);
        };
        let ExprKind::TypeAlias { name, type_expr } = &def.expr().kind else {
            return Ok(None);
        };
        let display = match &name.kind {
            ExprKind::QRef(n) => n.clone(),
            _ => key.clone(),
        };
        let ctx = super::expr::Ctx {
            program: def.program.clone(),
        };
        let top = self.top;
        // `type P = Object[{...}]`: the Object type named P, checked when
        // first used (Puppet's errors name P and point at the use).
        if let ExprKind::Access { lhs, keys } = &type_expr.kind {
            if matches!(&lhs.kind, ExprKind::QRef(o) if o == "Object") && keys.len() == 1 {
                let runtime = |detail: String| EvalError::Runtime {
                    while_evaluating: None,
                    detail,
                    at: Location::default(),
                };
                if self.resolving_objects.contains(&key) {
                    return Err(runtime(if self.resolving_parent(&keys[0]) {
                        format!("The Object type '{display}' inherits from itself")
                    } else {
                        format!("pverify: the Object type '{display}' refers to itself")
                    }));
                }
                self.resolving_objects.push(key.clone());
                let init = self.eval(&keys[0], top, &ctx);
                self.resolving_objects.pop();
                // A parent naming nothing: Puppet's type reference, refused.
                let init = init.map_err(|err| match (&err, self.literal_parent(&keys[0])) {
                    (EvalError::Issue { detail, .. }, Some(p))
                        if detail == &issues::resources::unknown_resource_type(p) =>
                    {
                        runtime(format!("reference to unresolved type '{p}'"))
                    }
                    _ => err,
                });
                if let Value::Hash(h) = init? {
                    let o =
                        puppet_model::types::object::ObjectType::from_init_hash(Some(display), &h)
                            .map_err(|detail| EvalError::Runtime {
                                while_evaluating: None,
                                detail,
                                at: Location::default(),
                            })?;
                    let t = puppet_model::types::PType::ObjectDef(std::sync::Arc::new(o));
                    self.resolved_aliases.insert(key, t.clone());
                    return Ok(Some(t));
                }
            }
        }
        let warnings_before = self.warnings.len();
        let t = match self.eval(type_expr, top, &ctx)? {
            Value::Type(t) => (*t).clone(),
            _ => return Ok(None),
        };
        let alias = puppet_model::types::PType::alias(
            display,
            puppet_model::types::AliasTarget::resolved(t),
        );
        if let Some(path) = autoloaded {
            let shareable = *def.program.path == *path.to_string_lossy()
                && self.warnings.len() == warnings_before
                && reads_nothing(type_expr);
            if shareable {
                self.env
                    .resolved_type_aliases
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .insert(key.clone(), (path, alias.clone()));
            }
        }
        self.resolved_aliases.insert(key, alias.clone());
        Ok(Some(alias))
    }

    /// The type name an Object definition's literal init hash gives as its
    /// `parent` (`parent => Name`).
    fn literal_parent<'x>(&self, init: &'x puppet_syntax::ast::Expr) -> Option<&'x str> {
        let ExprKind::Hash { entries, .. } = &init.kind else {
            return None;
        };
        entries
            .iter()
            .find_map(|e| match (&e.key.kind, &e.value.kind) {
                (ExprKind::QName(k) | ExprKind::Str(k), ExprKind::QRef(p)) if &**k == "parent" => {
                    Some(p.trim_colons())
                }
                _ => None,
            })
    }

    /// Whether an Object definition's parent is a type whose definition is
    /// being evaluated.
    fn resolving_parent(&self, init: &puppet_syntax::ast::Expr) -> bool {
        self.literal_parent(init)
            .is_some_and(|p| self.resolving_objects.contains(&p.to_lowercase()))
    }

    /// Imports the candidate files one group at a time, stopping once the name
    /// is defined.
    ///
    /// Once per name and compile: a second search would load nothing new
    /// (every file the first one reached is loaded, and it stopped where the
    /// name became defined, which stays so), and builtin types such as
    /// `file` are searched for at every resource.
    fn autoload(&mut self, key: &str) -> Result<(), EvalError> {
        if !self.autoloaded.insert(key.to_string()) {
            return Ok(());
        }
        for files in self.env.autoload_candidates(key).iter() {
            for f in files {
                self.load_file(f)?;
            }
            if self.hostclasses.contains_key(key) || self.defines.contains_key(key) {
                break;
            }
        }
        Ok(())
    }

    // -----------------------------------------------------------------------
    // Resources in the catalog.

    /// Adds a resource; a second resource with the same type and title is
    /// Puppet's duplicate declaration error.
    pub fn add_resource(&mut self, res: Res, at: &Location) -> Result<ResId, EvalError> {
        use crate::catalog::CatalogError;
        match self.index.add(&res, &self.resources) {
            Ok(id) => {
                self.resources.push(res);
                debug_assert_eq!(id.index(), self.resources.len() - 1);
                Ok(self.resources.len() - 1)
            }
            Err(e) => match *e {
                CatalogError::DuplicateDeclaration { existing, .. } => {
                    Err(self.duplicate(existing.index(), &res, at))
                }
                other => Err(EvalError::Runtime {
                    while_evaluating: None,
                    detail: other.to_string(),
                    at: Location {
                        file: None,
                        ..at.clone()
                    },
                }),
            },
        }
    }

    /// Puppet's duplicate declaration error: where the first one was, and
    /// (as the detail's own suffix) where the second one is.
    pub fn duplicate(&self, existing: ResId, res: &Res, at: &Location) -> EvalError {
        let prev = &self.resources[existing];
        let prev_at = match (&prev.file, prev.line) {
            (Some(f), Some(l)) => format!(" at (file: {f}, line: {l})"),
            _ => String::new(),
        };
        let here = Location {
            file: res.file.clone(),
            line: res.line,
            column: None,
        };
        EvalError::Runtime {
            while_evaluating: None,
            detail: format!(
                "{}{}",
                issues::resources::duplicate_declaration(res.reference(), prev_at),
                here.suffix()
            ),
            at: Location {
                file: None,
                ..at.clone()
            },
        }
    }

    /// The capitalised name of resource type `key` and its tags (see
    /// `type_names`).
    pub fn type_name(&mut self, key: &str) -> ResourceTypeName {
        if let Some(t) = self.type_names.get(key) {
            return t.clone();
        }
        let t = ResourceTypeName {
            name: capitalize_name(key).into(),
            tags: split_tag(key).into(),
        };
        self.type_names.insert(key.into(), t.clone());
        t
    }

    /// Merges the tags of the resource owning the declaring scope (once).
    pub fn merge_scope_tags(&mut self, id: ResId) {
        if self.resources[id].scope_tagged {
            return;
        }
        self.resources[id].scope_tagged = true;
        let scope = self.resources[id].scope;
        if let Some(owner) = self.scope_resource(scope) {
            if owner != id {
                // The owner's tags are lower-case and already carry the
                // parts of their qualified names, each right after its
                // name: adding the missing ones in order is what `tag`
                // would do, without copying the list.
                let owner_tags = std::mem::take(&mut self.resources[owner].tags);
                let tags = &mut self.resources[id].tags;
                tags.reserve(owner_tags.len());
                for t in &owner_tags {
                    if !tags.contains(t) {
                        tags.push(t.clone());
                    }
                }
                self.resources[owner].tags = owner_tags;
            }
        }
    }

    /// A resource by type and title, alias or uniqueness key, as Puppet's
    /// `catalog.resource` finds it.
    pub fn find_resource(&self, type_name: &str, title: &str) -> Option<ResId> {
        self.index.find(type_name, title).map(|id| id.index())
    }

    pub fn add_edge(&mut self, from: ResId, to: ResId) {
        if self.edge_set.insert((from, to)) {
            self.edges.push((from, to));
        }
    }

    /// Puppet's `catalog.add_class`: the class list, and the name as a tag.
    pub fn add_class(&mut self, name: &str) {
        self.classes.push(name.to_string());
        self.tag_catalog(&[Tag::from(name)]);
    }

    pub fn tag_catalog(&mut self, tags: &[Tag]) {
        for t in tags {
            if !self.catalog_tags.contains(t) {
                self.catalog_tags.push(t.clone());
            }
        }
    }

    /// A variable by its name as Ruby code asks for it (`getvar`,
    /// `scope.lookupvar`): `class::var` in that class's scope, `::var` in
    /// top scope, else lexically from `scope`.
    pub fn lookup_var_named(&self, scope: ScopeId, name: &str) -> Option<Value> {
        let bare = name.trim_colons();
        match bare.rsplit_colons() {
            Some((class, var)) => {
                let s = *self.class_scopes.get(&class.to_lowercase())?;
                self.scopes.get(s).vars.get(var).cloned()
            }
            None if name.starts_with("::") => self.scopes.get(self.top).vars.get(bare).cloned(),
            None => self.scopes.lookup(scope, bare).cloned(),
        }
    }

    pub fn scope_resource(&self, scope: ScopeId) -> Option<ResId> {
        let mut s = Some(scope);
        while let Some(id) = s {
            if let Some(r) = self.scopes.get(id).resource {
                return Some(r);
            }
            s = self.scopes.get(id).parent;
        }
        None
    }
}

fn node_key(m: &NodeMatch) -> String {
    match m {
        NodeMatch::Name(n) => n.clone(),
        NodeMatch::Regex(r) => regex_node_name(r),
        NodeMatch::Default => "default".into(),
    }
}

/// `__node_regexp__` + the regex source, downcased, with characters other than
/// `[-\w:.]` removed and leading dots stripped.
pub fn regex_node_name(source: &str) -> String {
    let cleaned: String = source
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ':' | '.'))
        .collect();
    format!("__node_regexp__{}", cleaned.trim_start_matches('.'))
}

/// A syntax error as the compiler reports it: Puppet's text with its location.
pub fn syntax_message(e: &puppet_syntax::SyntaxError) -> String {
    // Puppet's loaders let a located parse error through unchanged.
    e.puppet_style()
}

/// Whether an expression's value depends on nothing but itself: no
/// variable read, no function or method called.
pub(super) fn reads_nothing(e: &Expr) -> bool {
    if matches!(
        e.kind,
        ExprKind::Var(_) | ExprKind::CallNamed { .. } | ExprKind::CallMethod { .. }
    ) {
        return false;
    }
    let mut pure = true;
    puppet_syntax::visit::for_each_child(e, &mut |c| pure = pure && reads_nothing(c));
    pure
}

#[cfg(test)]
mod tests {
    /// The `split("::")` form `capitalize_name` replaced.
    fn by_split(name: &str) -> String {
        name.trim_start_matches("::")
            .split("::")
            .map(|seg| {
                let mut c = seg.chars();
                match c.next() {
                    Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
                    None => String::new(),
                }
            })
            .collect::<Vec<_>>()
            .join("::")
    }

    #[test]
    fn capitalize_name_as_split_did() {
        for n in [
            "",
            "::",
            "a",
            "foo::bar",
            "::foo::bar",
            "a:::b",
            "a::",
            "a::::b",
            "ßa::éb",
            "Foo::Bar",
            "Apache::mod",
            "Apache::Mod::Ssl",
            "a:b",
            "1x::_y",
            ":a::b",
            "a:::",
            "x::::::y:::z",
        ] {
            assert_eq!(super::capitalize_name(n), by_split(n), "{n:?}");
            assert_eq!(super::capitalized_name(n), by_split(n), "{n:?}");
        }
    }
}

/// Where a module's Ruby function raised the exception it let out: the
/// function's file and the line (Ruby's `backtrace.first`), with the
/// exception's message and the text pverify shows for it elsewhere.
#[derive(Clone, Debug)]
pub struct RubyErrorOrigin {
    pub file: String,
    pub line: usize,
    pub message: String,
    pub shown: String,
}
