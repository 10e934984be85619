//! One node's compilation: Puppet's `Parser::Compiler#compile`.
//!
//! set node parameters → settings scope → main (the initial manifests) → the
//! matching node definition → ENC classes → generators (collections, then
//! queued defines, until nothing changes) → finish (relationships, overrides).
//! Everything here belongs to this one node; the environment's parsed trees are
//! only read.

pub use puppet_model::names::capitalize_name;
use puppet_syntax::util::NameStr as _;
use std::sync::Arc;

use super::error::{EvalError, Location};
use super::issues;
use super::scope::{ResId, ScopeId, Scopes};
use super::state::classes::Definitions;
use super::state::functions::FunctionHost;
pub use super::state::functions::RubyErrorOrigin;
use super::state::resources::CatalogState;
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
    /// The attributes its declaration set: a range of the catalog's
    /// attribute places (`CatalogState::attribute_line`), for Puppet's
    /// override rules and error lines.
    pub attributes: (u32, u32),
}

/// A parameter an override set, as Puppet's parameters carry it
/// (`Parser::Resource::Param`): the override's source
/// (`Scopes::source_of`) and its attribute's place. An override may
/// replace a parameter only from a subclass of what set it
/// (`Resource#override_parameter`).
#[derive(Clone, Debug)]
pub struct SetBy {
    pub name: super::value::Name,
    pub source: String,
    pub file: Option<Arc<str>>,
    pub line: Option<u32>,
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

/// A resource type's name as the catalog writes it (`Apache::Mod`) and the
/// tags it gives its resources (`apache::mod`, `apache`, `mod`).
#[derive(Clone)]
pub struct ResourceTypeName {
    pub name: Arc<str>,
    pub tags: Arc<[Tag]>,
}

/// `$title`, `$name`, `$module_name` and `$caller_module_name`: the
/// variables a class or define scope starts with.
#[derive(Debug)]
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
    pub(crate) env: &'e Environment,
    pub(crate) node: NodeInfo,
    /// Scopes and variables.
    pub(crate) scopes: Scopes,
    /// Resources and the catalog.
    pub(crate) catalog: CatalogState,
    /// Classes and definitions: what the loaded files define, the
    /// classes evaluated.
    pub(crate) defs: Definitions,
    /// The function host: Ruby functions' error state, EPP output,
    /// `annotate`'s table.
    pub(crate) host: FunctionHost,
    /// What Hiera remembers for the compile (layers, `lookup_options`,
    /// resolved hierarchy levels), as Puppet's LookupAdapter does.
    pub(crate) hiera: crate::hiera::memo::HieraMemo,
    pub(crate) warnings: Vec<String>,
    /// An undefined variable a Hiera interpolation read under `strict =
    /// error`: the lookup fails with it (Puppet's `variable_not_found`).
    pub(crate) interpolation_error: Option<String>,
    /// Interpolating a hierarchy level's paths (see `interpolation_error`).
    pub(crate) interpolating_paths: bool,
    /// How deep the evaluation of nested defines, functions and includes is.
    pub(crate) depth: usize,
    /// The first file read with invalid UTF-8 (`file()`, a `template()`):
    /// its bad bytes became stand-ins (`crate::bad_bytes`), and a catalog
    /// string holding one fails the node (`compile::check_invalid_utf8`).
    pub(crate) invalid_utf8: Option<std::path::PathBuf>,
    /// The binary Ruby Strings of the catalog, which Puppet 8 writes as
    /// Binary values (`compile::check_invalid_utf8`).
    pub(crate) binary_strings: crate::bad_bytes::BinaryStrings,
    /// Puppet's `PuppetStack`, innermost last: a frame for each function
    /// call from Puppet code (its file and line) and `[file, 0]` for each
    /// main manifest while it is evaluated. stdlib's `deprecation` names
    /// the two innermost frames.
    pub(crate) puppet_stack: Vec<(Arc<str>, u32)>,
    /// Library functions of modules by the name called, and whether the
    /// module ships them (`registry::Loaders::module_ships`).
    pub(crate) module_functions: rustc_hash::FxHashMap<Box<str>, bool>,
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
        Compiler {
            env,
            node,
            scopes: Scopes::new(),
            catalog: CatalogState::default(),
            defs: Definitions::default(),
            host: FunctionHost::default(),
            hiera: Default::default(),
            warnings: Vec::new(),
            interpolation_error: None,
            interpolating_paths: false,
            depth: 0,
            invalid_utf8: None,
            binary_strings: Default::default(),
            puppet_stack: Vec::new(),
            module_functions: Default::default(),
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
        if !self.defs.mark_loaded(number) {
            return Ok(None);
        }
        let program = self.validated(parsed)?;
        self.defs.register_all(&program)?;
        self.evaluate_parameter_types(&program)?;
        Ok(Some(program))
    }

    /// Whether `s` holds bytes of a file that was not UTF-8
    /// (`crate::bad_bytes`), which Ruby's regexps and EPP's lexer refuse
    /// (`invalid byte sequence in UTF-8`). Free until such a file was read.
    pub(crate) fn holds_bad_bytes(&self, s: &str) -> bool {
        self.invalid_utf8.is_some() && crate::bad_bytes::holds_bad_byte(s)
    }

    /// Whether `disable_warnings` silences warnings of this kind.
    pub(crate) fn warnings_disabled(&self, kind: crate::settings::WarningKind) -> bool {
        self.node.settings.warnings_disabled(kind)
    }

    /// A parsed file under this compile's settings: `max_errors` shapes a
    /// failed validation, and `strict` decides whether its strict-governed
    /// issues (a hash key declared twice) are ignored, logged or fatal.
    pub fn validated(
        &mut self,
        parsed: Result<Arc<Program>, puppet_syntax::SyntaxError>,
    ) -> Result<Arc<Program>, EvalError> {
        let validation = self.node.validation();
        let program = parsed.map_err(|e| {
            if let Some(message) = self.ruby_error_text(&e) {
                // Not Puppet's own ParseError: the expression that loaded
                // the file wraps it (`Error while evaluating a Function Call`).
                return EvalError::runtime(message, super::error::Location::default());
            }
            EvalError::Parse(syntax_message(&validation.limit_errors(e)))
        })?;
        match validation.report(&program) {
            Ok(warnings) => self.warnings.extend(warnings),
            Err(e) => return Err(EvalError::Parse(syntax_message(&e))),
        }
        Ok(program)
    }

    /// The text of Ruby's own exception from inside Puppet's parser (a
    /// [bare](puppet_syntax::SyntaxError::is_bare) error: a regex literal
    /// `Regexp.new` refuses, the checker's crash on `"${true}"`), as this
    /// Puppet's Ruby words it; `None` for Puppet's own syntax errors.
    pub(crate) fn ruby_error_text(&self, e: &puppet_syntax::SyntaxError) -> Option<String> {
        if !e.is_bare() {
            return None;
        }
        Some(match self.node.puppet {
            crate::version::PuppetVersion::V7 => {
                puppet_syntax::error::in_ruby_3_1(&e.message).into_owned()
            }
            _ => e.message.clone(),
        })
    }

    pub fn register_program(&mut self, program: &Arc<Program>) -> Result<(), EvalError> {
        self.defs.register_all(program)?;
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
                if let Err(e) = self.eval(t, self.scopes.top(), &ctx) {
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

    /// Finds a class, autoloading it with Puppet's 3.x search if needed.
    pub fn find_class(&mut self, name: &str) -> Result<Option<Definition>, EvalError> {
        let key = name.trim_colons().lowercase();
        if let Some(d) = self.defs.class(&key) {
            return Ok(Some(d.clone()));
        }
        self.autoload(&key)?;
        Ok(self.defs.class(&key).cloned())
    }

    pub fn find_define(&mut self, name: &str) -> Result<Option<Definition>, EvalError> {
        let key = name.trim_colons().lowercase();
        if let Some(d) = self.defs.define(&key) {
            return Ok(Some(d.clone()));
        }
        self.autoload(&key)?;
        Ok(self.defs.define(&key).cloned())
    }

    /// A Puppet-language function: known, or autoloaded by the 4.x loaders'
    /// strict search: `mod::name` from `mod/functions/name.pp`, and any name
    /// from the environment's `functions/` by its full path
    /// (`greeting` → `functions/greeting.pp`).
    pub fn find_function(&mut self, name: &str) -> Result<Option<Definition>, EvalError> {
        let key = name.trim_colons().to_lowercase();
        if let Some(d) = self.defs.function(&key) {
            return Ok(Some(d.clone()));
        }
        for path in self.env.function_candidates(&key) {
            if self.env.files().is_file(&path) {
                self.load_file(&path)?;
                if let Some(d) = self.defs.function(&key) {
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
        if let Some(t) = self.defs.resolved_alias(&key) {
            return Ok(Some(t.clone()));
        }
        let mut autoloaded = None;
        // What resolving it asks, kept with a shared type (`crate::reads`).
        let capture = crate::reads::begin();
        if self.defs.type_alias(&key).is_none() {
            let shared = self
                .env
                .resolved_type_aliases
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .get(&key)
                .cloned();
            if let Some((path, t, trace)) = shared {
                crate::reads::replay(&trace);
                // Loaded as without the shared type, so the compile knows
                // the same definitions.
                self.load_file(&path)?;
                self.defs.set_resolved_alias(key, t.clone());
                return Ok(Some(t));
            }
            if let Some(path) = self.env.type_alias_file(&key) {
                self.load_file(&path)?;
                autoloaded = Some(path);
            }
        }
        let Some(def) = self.defs.type_alias(&key).cloned() else {
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
        let top = self.scopes.top();
        // `type P = Object[{...}]`: the Object type named P, checked when
        // first used (Puppet's errors name P and point at the use).
        if let ExprKind::Access { lhs, keys } = &type_expr.kind {
            if matches!(&lhs.kind, ExprKind::QRef(o) if o == "Object") && keys.len() == 1 {
                let runtime = |detail: String| EvalError::Runtime {
                    while_evaluating: None,
                    detail,
                    at: Location::default(),
                };
                if self.defs.is_resolving_object(&key) {
                    return Err(runtime(if self.resolving_parent(&keys[0]) {
                        format!("The Object type '{display}' inherits from itself")
                    } else {
                        format!("pverify: the Object type '{display}' refers to itself")
                    }));
                }
                self.defs.begin_resolving_object(key.clone());
                let init = self.eval(&keys[0], top, &ctx);
                self.defs.end_resolving_object();
                // A parent naming nothing: Puppet's type reference, refused.
                let init = init.map_err(|err| match (&err, self.literal_parent(&keys[0])) {
                    (EvalError::Issue { detail, .. }, Some(p))
                        if detail == &issues::resources::unknown_resource_type(p) =>
                    {
                        runtime(format!("reference to unresolved type '{p}'"))
                    }
                    _ => err,
                });
                if let Value::Hash(ref h) = init? {
                    let o =
                        puppet_model::types::object::ObjectType::from_init_hash(Some(display), h)
                            .map_err(|detail| EvalError::Runtime {
                            while_evaluating: None,
                            detail,
                            at: Location::default(),
                        })?;
                    let t = puppet_model::types::PType::ObjectDef(std::sync::Arc::new(o));
                    self.defs.set_resolved_alias(key, t.clone());
                    return Ok(Some(t));
                }
            }
        }
        let warnings_before = self.warnings.len();
        // The alias is known, unresolved, while its definition is evaluated:
        // a definition may name it (`type Tree = Variant[Integer,
        // Array[Tree]]`), as Puppet's `PTypeAliasType#resolve` allows.
        let target = puppet_model::types::AliasTarget::new();
        let alias = puppet_model::types::PType::alias(display.clone(), target.clone());
        self.defs.set_resolved_alias(key.clone(), alias.clone());
        let t = match self.eval(type_expr, top, &ctx) {
            Ok(Value::Type(ref t)) => (**t).clone(),
            other => {
                self.defs.forget_resolved_alias(&key);
                other?;
                return Ok(None);
            }
        };
        // Puppet's `AssertOtherTypeAcceptor`, on the alias resolved: not
        // only aliases of aliases.
        let _ = target.set(t);
        if !puppet_model::types::reaches_real_type(&alias) {
            self.defs.forget_resolved_alias(&key);
            return Err(EvalError::Runtime {
                while_evaluating: None,
                detail: format!("Type alias '{display}' cannot be resolved to a real type"),
                at: Location::default(),
            });
        }
        if let Some(path) = autoloaded {
            let shareable = *def.program.path == *path.to_string_lossy()
                && self.warnings.len() == warnings_before
                && reads_nothing(type_expr);
            if shareable {
                self.env
                    .resolved_type_aliases
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .insert(key.clone(), (path, alias.clone(), capture.trace()));
            }
        }
        self.defs.set_resolved_alias(key, alias.clone());
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
            .is_some_and(|p| self.defs.is_resolving_object(&p.to_lowercase()))
    }

    /// Imports the candidate files one group at a time, stopping once the name
    /// is defined.
    ///
    /// Once per name and compile: a second search would load nothing new
    /// (every file the first one reached is loaded, and it stopped where the
    /// name became defined, which stays so), and builtin types such as
    /// `file` are searched for at every resource.
    fn autoload(&mut self, key: &str) -> Result<(), EvalError> {
        if !self.defs.mark_autoloaded(key) {
            return Ok(());
        }
        for files in self.env.autoload_candidates(key).iter() {
            for f in files {
                self.load_file(f)?;
            }
            if self.defs.is_class_or_define(key) {
                break;
            }
        }
        Ok(())
    }

    // -----------------------------------------------------------------------
    // Resources in the catalog.

    /// Merges the tags of the resource owning the declaring scope (once).
    pub fn merge_scope_tags(&mut self, id: ResId) {
        if self.catalog[id].scope_tagged {
            return;
        }
        self.catalog[id].scope_tagged = true;
        let scope = self.catalog[id].scope;
        if let Some(owner) = self.scopes.resource_of(scope) {
            if owner != id {
                // The owner's tags are lower-case and already carry the
                // parts of their qualified names, each right after its
                // name: adding the missing ones in order is what `tag`
                // would do, without copying the list.
                let owner_tags = std::mem::take(&mut self.catalog[owner].tags);
                let tags = &mut self.catalog[id].tags;
                tags.reserve(owner_tags.len());
                for t in &owner_tags {
                    if !tags.contains(t) {
                        tags.push(t.clone());
                    }
                }
                self.catalog[owner].tags = owner_tags;
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
                let s = self.defs.class_scope(&class.to_lowercase())?;
                self.scopes.get(s).vars.get(var).cloned()
            }
            None if name.starts_with("::") => {
                self.scopes.get(self.scopes.top()).vars.get(bare).cloned()
            }
            None => self.scopes.lookup(scope, bare).cloned(),
        }
    }
}

impl Compiler<'_> {
    /// What Puppet's `Scope#lookupvar` reports for `name` when it finds no
    /// such variable: the name it shows and the reason
    /// (`lookup_qualified_variable`: a class's variable is sought along the
    /// classes it inherits from and shown by the last one's name, with a
    /// leading `::`; a class not evaluated or unknown is the reason).
    pub fn undefined_variable_report(&mut self, name: &str) -> (String, String) {
        let bare = name.trim_colons();
        let Some((class, var)) = bare.rsplit_colons() else {
            return if name.starts_with("::") {
                (format!("::{bare}"), String::new())
            } else {
                (bare.to_string(), String::new())
            };
        };
        let key = class.to_lowercase();
        let Some(mut s) = self.defs.class_scope(&key) else {
            let reason = if self.find_class(&key).ok().flatten().is_some() {
                format!("class {key} has not been evaluated")
            } else {
                format!("class {key} could not be found")
            };
            return (bare.to_string(), reason);
        };
        let mut shown = key;
        while let Some(parent) = self.scopes.get(s).inherited {
            if let super::scope::ScopeKind::Class(k) = &self.scopes.get(parent).kind {
                shown = k.to_string();
            }
            s = parent;
        }
        (format!("::{shown}::{var}"), String::new())
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
