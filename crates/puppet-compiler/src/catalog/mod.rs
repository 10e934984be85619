//! The catalog under construction, and its JSON exactly as Puppet 7 writes it
//! (`catalog_format` 2; see [`json`]).
//!
//! The model is Puppet's compile-time catalog (`Puppet::Resource::Catalog`
//! holding `Puppet::Parser::Resource`s): resources keep the parameters the
//! evaluator gave them (undef values, `Sensitive` wrappers, resource
//! references as `Value::Type`), and serialization performs what Puppet does
//! on the way out (`finish`, `to_resource`, `to_data_hash`): dropping undef,
//! unwrapping top-level `Sensitive`, mapping `name` to the namevar, leaving
//! out the namevar when it equals the title, flattening reference arrays,
//! leaving out virtual resources, grouping edges by target. Every rule is
//! checked against Puppet 7.23 in `tests/catalog_json.rs`.
//!
//! No global state: a catalog is a plain value owned by one compilation.
//!
//! ## Determinism
//! Puppet's `version` is the compile time and `catalog_uuid` is random. Here
//! `version` is whatever the caller passes, and [`Catalog::catalog_uuid`] is
//! derived from `(name, environment, version)`: the 128-bit FNV-1a hash of
//! the three (each string length-prefixed, the version as 8 little-endian
//! bytes), printed as a UUID with the RFC 9562 version 8 ("custom") and
//! variant bits set. Same inputs, same UUID, on every platform.

pub mod json;
mod tags;

use rustc_hash::FxHashMap as HashMap;
use std::fmt;

use indexmap::IndexMap;
use std::borrow::Cow;
use std::sync::Arc;

use puppet_model::Value;

pub use json::JsonOptions;
use puppet_model::names;
pub use puppet_model::names::{
    canonical_class_title, canonical_title, canonical_type, capitalize_segments,
};
pub use tags::{valid_tag, InvalidTag, TagSet};

/// A resource's index in its catalog, which is its position in insertion
/// order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ResourceId(pub u32);

impl ResourceId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Puppet's resource `kind`, as verified with Puppet 7.23:
/// - `compilable_type`: built-in and Ruby (module) types, `Stage` included;
/// - `defined_type`: instances of `define`s;
/// - `class`: classes declared resource-like (`class { 'x': }`);
/// - `unknown`: classes declared with `include`/`require`/`contain` (or by an
///   ENC, or as a parent class), `Class[main]`, `Class[Settings]`, and nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    CompilableType,
    DefinedType,
    Class,
    Unknown,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::CompilableType => "compilable_type",
            Kind::DefinedType => "defined_type",
            Kind::Class => "class",
            Kind::Unknown => "unknown",
        }
    }
}

/// One resource. `type_name` and `title` are canonical (see
/// [`Resource::new`]) and must not change once the resource is in a catalog
/// (the catalog indexes them); everything else may.
#[derive(Clone, Debug, PartialEq)]
pub struct Resource {
    /// `File`, `Foo::Bar`, `Class`, `Node`, `Stage`.
    pub type_name: Arc<str>,
    /// As given, except class titles (`Foo::Bar`; the main class is `main`).
    pub title: Arc<str>,
    /// In Puppet's order. Puppet tags a new resource with its `tag`
    /// parameter's values, then its type, then its title if that is a valid
    /// tag ([`Resource::tag_type_and_title`]), then the tags of its container.
    pub tags: TagSet,
    pub file: Option<std::sync::Arc<str>>,
    pub line: Option<u32>,
    /// `@@` resources: they are in the serialized catalog, with
    /// `"exported": true`, whether collected or not.
    pub exported: bool,
    /// `@` resources not (yet) realized: left out of the serialized catalog,
    /// with their edges. Realizing is setting this to false.
    pub virtual_: bool,
    pub kind: Kind,
    /// In the order the evaluator set them, as it set them (undef and
    /// `Sensitive` included; serialization deals with them as Puppet does).
    pub parameters: puppet_model::value::Params,
    /// The resource type of a compilable resource (its key attributes,
    /// title patterns, isomorphism). `None`: Puppet's own type of that name
    /// if there is one (`crate::restypes::builtin`), else a type keyed by
    /// `name` alone.
    pub rtype: Option<std::sync::Arc<crate::restypes::TypeDef>>,
}

impl Resource {
    /// A resource with canonical type and title (`file` is `File`, `foo::bar`
    /// is `Foo::Bar`; a class title `foo::bar` is `Foo::Bar` and the empty
    /// class title is `main`), no tags, no parameters, not exported or
    /// virtual, no location.
    pub fn new(type_name: &str, title: &str, kind: Kind) -> Resource {
        let type_name = canonical_type(type_name);
        let title = canonical_title(&type_name, title);
        Resource::bare(type_name.into(), title.into(), kind)
    }

    /// A resource of this (canonical) type and title, no tags, no
    /// parameters, not exported or virtual, no location.
    fn bare(type_name: Arc<str>, title: Arc<str>, kind: Kind) -> Resource {
        Resource {
            type_name,
            title,
            tags: TagSet::new(),
            file: None,
            line: None,
            exported: false,
            virtual_: false,
            kind,
            parameters: IndexMap::default(),
            rtype: None,
        }
    }

    /// [`Resource::new`] with the title kept as given (the compiler's index
    /// keys resources by their titles as written; canonicalizing one only
    /// to replace it cost a copy per resource).
    /// The type's name is shared when it is canonical already (the
    /// compiler's are).
    pub fn with_title(type_name: &Arc<str>, title: Arc<str>, kind: Kind) -> Resource {
        let type_name = match names::canonical_type_ref(type_name) {
            Cow::Borrowed(t) if t.len() == type_name.len() => type_name.clone(),
            other => other.into(),
        };
        Resource::bare(type_name, title, kind)
    }

    /// `Type[title]`, as Puppet prints references (`Class[Foo]`, `File[/x]`).
    pub fn reference(&self) -> String {
        names::bracketed(&self.type_name, &self.title)
    }

    /// Sets a parameter (replacing keeps the original position, as Ruby's
    /// hashes do).
    pub fn set(&mut self, name: &str, value: Value) -> &mut Resource {
        self.parameters.insert(name.into(), value);
        self
    }

    pub fn at(mut self, file: &str, line: u32) -> Resource {
        self.file = Some(file.into());
        self.line = Some(line);
        self
    }

    /// Puppet's `tag(name)` on this resource (see [`TagSet::tag`]).
    pub fn tag(&mut self, name: &str) -> Result<(), InvalidTag> {
        self.tags.tag(name)
    }

    /// What Puppet's `Resource#initialize` ends with: `tag(type)` (so
    /// `My::Thing` adds `my::thing`, `my`, `thing`) and `tag_if_valid(title)`.
    /// The main class and main stage are titled by a symbol in Puppet, which
    /// is never a tag: `Class[main]` is tagged `class` only.
    pub fn tag_type_and_title(&mut self) {
        let type_name = self.type_name.clone();
        // A canonical type name is always a valid tag once downcased.
        let _ = self.tags.tag(&type_name);
        if !self.has_symbol_title() {
            let title = self.title.clone();
            self.tags.tag_if_valid(&title);
        }
    }

    /// Whether the serialized catalog holds this resource: Puppet's
    /// `to_resource` drops virtual resources that are not exported.
    pub fn is_serialized(&self) -> bool {
        !self.virtual_ || self.exported
    }

    /// The resource type, for a compilable resource.
    /// Whether [`Catalog::add_resource`] reads parameter `name`: an alias
    /// or part of the uniqueness key.
    pub fn indexes_parameter(&self, name: &str) -> bool {
        name == "alias"
            || name == "name"
            || self
                .type_def()
                .is_some_and(|t| t.key_attributes.iter().any(|a| a == name))
    }

    pub fn type_def(&self) -> Option<&crate::restypes::TypeDef> {
        if self.kind != Kind::CompilableType {
            return None;
        }
        match &self.rtype {
            Some(t) => Some(t),
            None => crate::restypes::builtin(&self.type_name.to_lowercase()),
        }
    }

    /// The parameter that names the resource (Puppet's `namevar`): the single
    /// key attribute of a compilable type, otherwise `name`.
    pub fn namevar(&self) -> &str {
        self.type_def().map_or("name", |t| t.namevar())
    }

    /// Puppet creates `Class[main]` and `Stage[main]` with the symbol `:main`
    /// as title; a user can declare neither. Such a title never equals a
    /// string, so their `name` parameter is kept in the JSON, and it is not a
    /// tag.
    pub(crate) fn has_symbol_title(&self) -> bool {
        &*self.title == "main" && matches!(&*self.type_name, "Class" | "Stage")
    }

    /// The attributes Puppet derives from the title (`parse_title`): a
    /// `File`'s trailing slashes are dropped (`/tmp/d/` is `/tmp/d`, `///` is
    /// `/`); a type's title patterns may set several key attributes
    /// (`sshkey { 'k@rsa': }` sets `name` and `type`); otherwise the namevar
    /// is the title as it is.
    pub(crate) fn title_attributes(&self) -> Vec<(String, String)> {
        title_attributes(self.type_def(), &self.title)
    }

    /// Whether Puppet makes an alias from the uniqueness key: `Exec` and
    /// `Tidy` are not isomorphic, everything else is.
    fn is_isomorphic(&self) -> bool {
        self.type_def().is_none_or(|t| t.isomorphic)
    }

    /// Whether the uniqueness key is just the title, as it is for most
    /// resources: one key attribute, not set by a parameter, that the title
    /// gives whole. (The full [`Resource::uniqueness_key`] builds several
    /// vectors and strings to find the same.)
    fn key_is_own_title(&self) -> bool {
        let def = self.type_def();
        let key = match def.map(|t| t.key_attributes.as_slice()) {
            Some([one]) => one.as_str(),
            Some([]) | None => "name",
            Some(_) => return false,
        };
        if self.parameters.get(key).is_some_and(|v| !v.is_undef()) {
            return false;
        }
        match def {
            None => true,
            // `file_path_from_title` changes only a title ending in `/`.
            Some(t) if t.name == "file" => !self.title.ends_with('/'),
            Some(t) => t.title_patterns.is_none(),
        }
    }

    /// Puppet's `uniqueness_key` for the resource as declared: the key
    /// attributes sorted by name, each from its parameter (under its own
    /// name: `name` is not mapped to the namevar here, as in Puppet's
    /// `Parser::Resource`) or else from the title.
    fn uniqueness_key(&self) -> Vec<Value> {
        let param = |name: &str| -> Option<Value> {
            self.parameters.get(name).filter(|v| !v.is_undef()).cloned()
        };
        let from_title = self.title_attributes();
        let mut keys: Vec<String> = match self.type_def() {
            Some(t) if !t.key_attributes.is_empty() => t.key_attributes.clone(),
            _ => vec!["name".to_string()],
        };
        keys.sort();
        keys.iter()
            .map(|k| {
                param(k)
                    .or_else(|| {
                        from_title
                            .iter()
                            .find(|(a, _)| a == k)
                            .map(|(_, v)| Value::string(v.as_str()))
                    })
                    .unwrap_or(Value::Undef)
            })
            .collect()
    }
}

/// Puppet's `File.title_patterns`: `%r{^(/|.+:/|.*[^/])/*\Z}m`.
fn file_path_from_title(title: &str) -> String {
    let stripped = title.trim_end_matches('/');
    if stripped.is_empty() && !title.is_empty() {
        "/".to_string()
    } else if stripped.len() < title.len() && stripped.ends_with(':') && stripped.len() > 1 {
        format!("{stripped}/")
    } else {
        stripped.to_string()
    }
}

/// Where a resource was declared, for messages.
fn error_location(file: Option<&str>, line: Option<u32>) -> String {
    match (file.filter(|f| !f.is_empty()), line) {
        (Some(f), Some(l)) => format!("(file: {f}, line: {l})"),
        (None, Some(l)) => format!("(line: {l})"),
        (Some(f), None) => format!("(file: {f})"),
        (None, None) => String::new(),
    }
}

/// Why a resource or alias could not be added. `Display` gives the message
/// Puppet's catalog raises (before the evaluator wraps it with
/// `Error while evaluating a Resource Statement, ` and the locations).
#[derive(Clone, Debug, PartialEq)]
pub enum CatalogError {
    /// `Duplicate declaration: Notify[a] is already declared at (file: F,
    /// line: L); cannot redeclare`. `existing` is the resource holding the
    /// title (or an alias equal to it).
    DuplicateDeclaration {
        resource: String,
        existing: ResourceId,
        existing_file: Option<String>,
        existing_line: Option<u32>,
    },
    /// `Cannot alias Notify[b] to "x" at (file: F, line: L); resource
    /// ["Notify", "x"] already declared (file: F2, line: L2)`: the first
    /// location is the new resource's, the second the existing one's. `key`
    /// and `newref` are in Ruby's `inspect` form, as Puppet prints them.
    AliasConflict {
        resource: String,
        key: String,
        newref: String,
        file: Option<String>,
        line: Option<u32>,
        existing: ResourceId,
        existing_file: Option<String>,
        existing_line: Option<u32>,
    },
}

impl fmt::Display for CatalogError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CatalogError::DuplicateDeclaration {
                resource,
                existing_file,
                existing_line,
                ..
            } => {
                let at = error_location(existing_file.as_deref(), *existing_line);
                if at.is_empty() {
                    write!(
                        f,
                        "Duplicate declaration: {resource} is already declared; cannot redeclare"
                    )
                } else {
                    write!(
                        f,
                        "Duplicate declaration: {resource} is already declared at {at}; cannot redeclare"
                    )
                }
            }
            CatalogError::AliasConflict {
                resource,
                key,
                newref,
                file,
                line,
                existing_file,
                existing_line,
                ..
            } => {
                let at = error_location(file.as_deref(), *line);
                if at.is_empty() {
                    write!(
                        f,
                        "Cannot alias {resource} to {key}; resource {newref} already declared"
                    )?;
                } else {
                    write!(
                        f,
                        "Cannot alias {resource} to {key} at {at}; resource {newref} already declared"
                    )?;
                }
                let existing_at = error_location(existing_file.as_deref(), *existing_line);
                if !existing_at.is_empty() {
                    write!(f, " {existing_at}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for CatalogError {}

/// Ruby's `inspect` of a key value (strings quoted, undef as `nil`).
fn inspect_value(v: &Value) -> String {
    match v {
        Value::String(s) => names::ruby_inspect_str(s),
        Value::Undef => "nil".to_string(),
        other => other.to_string(),
    }
}

fn inspect_list(items: &[Value]) -> String {
    let parts: Vec<String> = items.iter().map(inspect_value).collect();
    format!("[{}]", parts.join(", "))
}

/// The catalog of one node.
#[derive(Clone, Debug)]
pub struct Catalog {
    /// The node's certname.
    pub name: String,
    pub environment: String,
    /// Puppet's `config_version`; chosen by the caller, never the clock.
    pub version: u64,
    /// Puppet writes `null` unless static catalogs set it.
    pub code_id: Option<String>,
    /// Catalog-level tags: what Puppet's catalog collects while compiling
    /// (the tags of every class and node resource when it is created). The
    /// serialized `tags` are the class names (tagged) followed by these.
    pub tags: TagSet,
    resources: Vec<Resource>,
    /// `(type, title-or-alias)` → resource: titles, explicit aliases and
    /// single-valued uniqueness keys, which Puppet keeps in one table.
    index: IndexMap<(Arc<str>, Arc<str>), ResourceId, rustc_hash::FxBuildHasher>,
    /// Uniqueness keys of several values (`Package`: command, name, provider).
    multi_keys: HashMap<(Arc<str>, Vec<Value>), ResourceId>,
    /// The module types of the resources added, by type name, for `find`.
    module_types: HashMap<Arc<str>, Arc<crate::restypes::TypeDef>>,
    edges: Vec<(ResourceId, ResourceId)>,
    edge_set: rustc_hash::FxHashSet<(ResourceId, ResourceId)>,
    classes: Vec<String>,
}

impl Catalog {
    /// Room for `n` resources and their titles, made at once: growing one
    /// resource at a time moved every resource and rehashed every title
    /// several times over in a catalog of a few hundred.
    pub fn reserve(&mut self, n: usize) {
        self.resources.reserve(n);
        self.index.reserve(n);
    }

    pub fn new(name: &str, environment: &str, version: u64) -> Catalog {
        Catalog {
            name: name.to_string(),
            environment: environment.to_string(),
            version,
            code_id: None,
            tags: TagSet::new(),
            resources: Vec::new(),
            index: IndexMap::default(),
            multi_keys: HashMap::default(),
            module_types: HashMap::default(),
            edges: Vec::new(),
            edge_set: Default::default(),
            classes: Vec::new(),
        }
    }

    /// A deterministic UUID for `(name, environment, version)`; see the
    /// module documentation.
    pub fn catalog_uuid(&self) -> String {
        uuid_for(&self.name, &self.environment, self.version)
    }

    /// Adds a resource at the end, as Puppet's `add_resource` does: a title
    /// (or alias) already present is a duplicate declaration; then the
    /// resource's `alias` parameter values and, for isomorphic types, its
    /// uniqueness key (`File['/tmp/d/']` is also `File['/tmp/d']`,
    /// `notify { 'n': name => 'x' }` is also `Notify['x']`) become aliases,
    /// and a clash is Puppet's `Cannot alias` error. On error the catalog is
    /// unchanged.
    pub fn add_resource(&mut self, resource: Resource) -> Result<ResourceId, Box<CatalogError>> {
        let title_key = (resource.type_name.clone(), resource.title.clone());
        if let Some(&existing) = self.index.get(&title_key) {
            let e = &self.resources[existing.index()];
            return Err(Box::new(CatalogError::DuplicateDeclaration {
                resource: resource.reference(),
                existing,
                existing_file: e.file.as_deref().map(String::from),
                existing_line: e.line,
            }));
        }
        let id = ResourceId(self.resources.len() as u32);

        // Aliases, checked before anything is inserted.
        let mut single: Vec<(Arc<str>, Arc<str>)> = Vec::new();
        let mut multi: Option<Vec<Value>> = None;
        let conflict = |existing: ResourceId, key: String, newref: String, cat: &Catalog| {
            let e = &cat.resources[existing.index()];
            Box::new(CatalogError::AliasConflict {
                resource: resource.reference(),
                key,
                newref,
                file: resource.file.as_deref().map(String::from),
                line: resource.line,
                existing,
                existing_file: e.file.as_deref().map(String::from),
                existing_line: e.line,
            })
        };
        for alias in explicit_aliases(&resource) {
            if *alias == *resource.title {
                continue;
            }
            let key = (resource.type_name.clone(), Arc::from(alias.as_str()));
            if let Some(&existing) = self.index.get(&key) {
                let newref = inspect_list(&[
                    Value::String(resource.type_name.clone()),
                    Value::String(key.1),
                ]);
                return Err(conflict(
                    existing,
                    names::ruby_inspect_str(&alias),
                    newref,
                    self,
                ));
            }
            if !single.contains(&key) {
                single.push(key);
            }
        }
        if resource.is_isomorphic() && !resource.key_is_own_title() {
            let ukey = resource.uniqueness_key();
            let is_own_title =
                ukey.len() == 1 && matches!(&ukey[0], Value::String(s) if **s == *resource.title);
            if ukey.iter().any(|v| !v.is_undef()) && !is_own_title {
                let mut full = vec![Value::String(resource.type_name.clone())];
                full.extend(ukey.iter().cloned());
                let existing = match ukey.as_slice() {
                    [Value::String(s)] => {
                        let key = (resource.type_name.clone(), s.clone());
                        let found = self.index.get(&key).copied();
                        if found.is_none() && !single.contains(&key) {
                            single.push(key);
                        }
                        found
                    }
                    [_] => None, // a non-string key never matches a title
                    _ => {
                        let key = (resource.type_name.clone(), ukey.clone());
                        let found = self.multi_keys.get(&key).copied();
                        multi = Some(ukey.clone());
                        found
                    }
                };
                if let Some(existing) = existing {
                    return Err(conflict(
                        existing,
                        inspect_list(&ukey),
                        inspect_list(&full),
                        self,
                    ));
                }
            }
        }

        self.index.insert(title_key, id);
        for key in single {
            self.index.insert(key, id);
        }
        if let Some(k) = multi {
            self.multi_keys.insert((resource.type_name.clone(), k), id);
        }
        if let Some(t) = &resource.rtype {
            if !self.module_types.contains_key(&resource.type_name) {
                self.module_types
                    .insert(resource.type_name.clone(), t.clone());
            }
        }
        self.resources.push(resource);
        Ok(id)
    }

    /// Puppet's `catalog.alias(resource, key)`: `Type[key]` also names the
    /// resource. Aliasing a resource to its own title, or again to the same
    /// resource, does nothing; a key naming another resource is the
    /// `Cannot alias` error.
    pub fn add_alias(&mut self, id: ResourceId, key: &str) -> Result<(), Box<CatalogError>> {
        let r = &self.resources[id.index()];
        if key == &*r.title {
            return Ok(());
        }
        let k = (r.type_name.clone(), Arc::from(key));
        match self.index.get(&k) {
            Some(&existing) if existing == id => Ok(()),
            Some(&existing) => {
                let e = &self.resources[existing.index()];
                Err(Box::new(CatalogError::AliasConflict {
                    resource: r.reference(),
                    key: names::ruby_inspect_str(key),
                    newref: inspect_list(&[Value::String(r.type_name.clone()), Value::string(key)]),
                    file: r.file.as_deref().map(String::from),
                    line: r.line,
                    existing,
                    existing_file: e.file.as_deref().map(String::from),
                    existing_line: e.line,
                }))
            }
            None => {
                self.index.insert(k, id);
                Ok(())
            }
        }
    }

    /// Puppet's `catalog.resource(type, title)`: the type is made canonical
    /// (`file`, `::foo::bar`), as is a class title (`foo` is `Foo`, `''` is
    /// the main class); titles and aliases are looked up first, then the
    /// uniqueness key a resource with that title would have (so
    /// `File['/tmp/d//']` finds `File['/tmp/d']`).
    pub fn find(&self, type_name: &str, title: &str) -> Option<ResourceId> {
        let t = names::canonical_type_ref(type_name);
        let title = names::canonical_title_ref(&t, title);
        if let Some(&id) = self.index.get(&TitleKey(&t, &title)) {
            return Some(id);
        }
        // Not found by title: by uniqueness key, as `uniqueness_key` makes
        // it for a resource of that title and no parameters (without
        // building one: this runs for every resource added). A defined
        // type's key is its title, just looked up.
        let module_type = self.module_types.get(&*t);
        if !(builtin_type(&t) || module_type.is_some()) {
            return None;
        }
        let def = match module_type {
            Some(d) => Some(&**d),
            None => crate::restypes::builtin(&t.to_lowercase()),
        };
        let from_title = title_attributes(def, &title);
        let mut keys: Vec<&str> = match def {
            Some(d) if !d.key_attributes.is_empty() => {
                d.key_attributes.iter().map(String::as_str).collect()
            }
            _ => vec!["name"],
        };
        keys.sort_unstable();
        let from = |k: &str| from_title.iter().find(|(a, _)| a == k).map(|(_, v)| v);
        match keys.as_slice() {
            [k] => from(k).and_then(|v| self.index.get(&TitleKey(&t, v)).copied()),
            keys => {
                let key: Vec<Value> = keys
                    .iter()
                    .map(|k| from(k).map_or(Value::Undef, |v| Value::string(v.as_str())))
                    .collect();
                self.multi_keys.get(&(Arc::from(t.as_ref()), key)).copied()
            }
        }
    }

    pub fn get(&self, id: ResourceId) -> &Resource {
        &self.resources[id.index()]
    }

    /// For parameters, tags, `virtual_` and the like; do not change
    /// `type_name` or `title`.
    pub fn get_mut(&mut self, id: ResourceId) -> &mut Resource {
        &mut self.resources[id.index()]
    }

    /// All resources in insertion order, virtual ones included.
    pub fn resources(&self) -> impl ExactSizeIterator<Item = (ResourceId, &Resource)> {
        self.resources
            .iter()
            .enumerate()
            .map(|(i, r)| (ResourceId(i as u32), r))
    }

    pub fn len(&self) -> usize {
        self.resources.len()
    }

    pub fn is_empty(&self) -> bool {
        self.resources.is_empty()
    }

    /// A containment edge (container → contained). A second edge between the
    /// same two resources is ignored (Puppet's `contain` checks `edge?`
    /// first); answers whether the edge is new.
    pub fn add_edge(&mut self, source: ResourceId, target: ResourceId) -> bool {
        if self.edge_set.insert((source, target)) {
            self.edges.push((source, target));
            true
        } else {
            false
        }
    }

    pub fn has_edge(&self, source: ResourceId, target: ResourceId) -> bool {
        self.edge_set.contains(&(source, target))
    }

    /// The edges in insertion order (the JSON orders them differently; see
    /// [`json`]).
    pub fn edges(&self) -> &[(ResourceId, ResourceId)] {
        &self.edges
    }

    /// The container of a resource: the source of the first edge to it.
    pub fn container_of(&self, id: ResourceId) -> Option<ResourceId> {
        self.edges.iter().find(|(_, t)| *t == id).map(|(s, _)| *s)
    }

    /// Puppet's `catalog.add_class(name)`: appends to `classes` and tags the
    /// catalog. Puppet's list is not de-duplicated: a class given by an ENC
    /// is listed once for the ENC and again when evaluated (verified); a
    /// class evaluated through the compiler is added once, when evaluated.
    pub fn add_class(&mut self, name: &str) {
        self.classes.push(name.to_string());
        let _ = self.tags.tag(name);
    }

    pub fn classes(&self) -> &[String] {
        &self.classes
    }
}

fn builtin_type(canonical_type: &str) -> bool {
    matches!(
        canonical_type,
        "Exec"
            | "File"
            | "Filebucket"
            | "Group"
            | "Notify"
            | "Package"
            | "Resources"
            | "Schedule"
            | "Service"
            | "Stage"
            | "Tidy"
            | "User"
            | "Whit"
            | "Component"
    )
}

/// The strings of the `alias` parameter (a string or an array of them,
/// flattened; undef and other values ignored).
fn explicit_aliases(r: &Resource) -> Vec<String> {
    fn collect(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::String(s) => out.push(s.to_string()),
            Value::Array(items) => items.iter().for_each(|i| collect(i, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    if let Some(v) = r.parameters.get("alias") {
        collect(v, &mut out);
    }
    out
}

/// A borrowed `(type, title)` key of the catalog's index: a lookup without
/// building two strings (`find` runs for every reference and relationship).
/// It hashes as the owned tuple does (field by field, each as a `str`).
#[derive(Hash)]
struct TitleKey<'a>(&'a str, &'a str);

impl indexmap::Equivalent<(Arc<str>, Arc<str>)> for TitleKey<'_> {
    fn equivalent(&self, key: &(Arc<str>, Arc<str>)) -> bool {
        self.0 == &*key.0 && self.1 == &*key.1
    }
}

/// FNV-1a, 128 bits.
fn fnv1a128(bytes: &[u8], mut h: u128) -> u128 {
    const PRIME: u128 = 0x0000000001000000000000000000013B;
    for &b in bytes {
        h ^= b as u128;
        h = h.wrapping_mul(PRIME);
    }
    h
}

/// The deterministic catalog UUID for `(name, environment, version)`.
pub fn uuid_for(name: &str, environment: &str, version: u64) -> String {
    const OFFSET: u128 = 0x6c62272e07bb014262b821756295c58d;
    let mut h = OFFSET;
    for s in [name, environment] {
        h = fnv1a128(&(s.len() as u64).to_le_bytes(), h);
        h = fnv1a128(s.as_bytes(), h);
    }
    h = fnv1a128(&version.to_le_bytes(), h);
    // Version 8 (custom) in bits 48..52, variant 0b10 in bits 64..66.
    h = (h & !(0xF << 76)) | (0x8 << 76);
    h = (h & !(0x3 << 62)) | (0x2 << 62);
    let hex = format!("{h:032x}");
    format!(
        "{}-{}-{}-{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..32]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uuid_is_stable_and_shaped() {
        let u = uuid_for("n1", "production", 1);
        assert_eq!(u, uuid_for("n1", "production", 1));
        assert_ne!(u, uuid_for("n1", "production", 2));
        assert_ne!(uuid_for("ab", "c", 1), uuid_for("a", "bc", 1));
        let parts: Vec<&str> = u.split('-').collect();
        assert_eq!(
            parts.iter().map(|p| p.len()).collect::<Vec<_>>(),
            [8, 4, 4, 4, 12]
        );
        assert!(parts[2].starts_with('8'));
        assert!(matches!(parts[3].as_bytes()[0], b'8' | b'9' | b'a' | b'b'));
    }

    #[test]
    fn file_titles() {
        assert_eq!(file_path_from_title("/tmp/d/"), "/tmp/d");
        assert_eq!(file_path_from_title("/tmp/e//"), "/tmp/e");
        assert_eq!(file_path_from_title("/"), "/");
        assert_eq!(file_path_from_title("///"), "/");
        assert_eq!(file_path_from_title("C:/"), "C:/");
        assert_eq!(file_path_from_title("C:///"), "C:/");
        assert_eq!(file_path_from_title("x:"), "x:");
        assert_eq!(file_path_from_title("/a"), "/a");
    }
}

/// [`Resource::title_attributes`] for a resource of type `t` (`None`: not a
/// Ruby type) titled `title`.
pub(crate) fn title_attributes(
    t: Option<&crate::restypes::TypeDef>,
    title: &str,
) -> Vec<(String, String)> {
    let Some(t) = t else {
        return vec![("name".to_string(), title.to_string())];
    };
    if t.name == "file" {
        return vec![("path".to_string(), file_path_from_title(title))];
    }
    match t.parse_title(title) {
        Some(attrs) => attrs,
        None => vec![(t.namevar().to_string(), title.to_string())],
    }
}
