//! The catalog's index: what names a resource, as Puppet's catalog decides
//! it (`Puppet::Resource::Catalog#add_resource`, `#alias`, `#resource`).
//!
//! The resources themselves are the compiler's (`eval::compiler::Res`), and
//! so is the catalog's JSON (`eval::catalog_emit`, the one writer). This
//! module keeps, over those resources by position ([`ResourceId`]), the
//! titles, aliases and uniqueness keys, with Puppet's errors for a duplicate
//! declaration and an alias clash; Puppet's tag rule ([`valid_tag`]); the
//! canonical names; and a deterministic catalog UUID ([`uuid_for`]).
//!
//! No global state: an index is a plain value owned by one compilation.
//!
//! ## Determinism
//! Puppet's `catalog_uuid` is random. [`uuid_for`] derives one from
//! `(name, environment, version)`: the 128-bit FNV-1a hash of the three
//! (each string length-prefixed, the version as 8 little-endian bytes),
//! printed as a UUID with the RFC 9562 version 8 ("custom") and variant bits
//! set. Same inputs, same UUID, on every platform.

mod tags;

use rustc_hash::FxHashMap as HashMap;
use std::fmt;

use indexmap::IndexMap;
use std::sync::Arc;

use crate::restypes::TypeDef;
use puppet_model::names;
use puppet_model::Value;

pub use puppet_model::names::{
    canonical_class_title, canonical_title, canonical_type, capitalize_segments,
};
pub use tags::valid_tag;

/// A resource's index in its catalog, which is its position in insertion
/// order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ResourceId(pub u32);

impl ResourceId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// What the index reads of a resource. `type_name` and `title` are
/// canonical (`File`, `Foo::Bar`; a class title `Foo::Bar`, the main class
/// `main`) and must not change once the resource is indexed.
pub trait Indexed {
    fn type_name(&self) -> &Arc<str>;
    fn title(&self) -> &Arc<str>;
    fn file(&self) -> Option<&str>;
    fn line(&self) -> Option<u32>;
    /// A parameter as the evaluator set it (undef included).
    fn parameter(&self, name: &str) -> Option<&Value>;
    /// Whether Puppet compiles the resource to a Ruby type (built-in and
    /// module types, `Stage`): only those have key attributes and title
    /// patterns. Classes, defines and nodes are keyed by title.
    fn compilable(&self) -> bool;
    /// The Ruby type of a compilable resource, when known. `None`: Puppet's
    /// own type of that name if there is one (`crate::restypes::builtin`),
    /// else a type keyed by `name` alone.
    fn rtype(&self) -> Option<&Arc<TypeDef>>;
}

/// `Type[title]`, as Puppet prints references (`Class[Foo]`, `File[/x]`).
fn reference(r: &impl Indexed) -> String {
    names::bracketed(r.type_name(), r.title())
}

/// The resource type of a compilable resource.
fn type_def(r: &impl Indexed) -> Option<&TypeDef> {
    if !r.compilable() {
        return None;
    }
    match r.rtype() {
        Some(t) => Some(t),
        None => crate::restypes::builtin(&r.type_name().to_lowercase()),
    }
}

/// Whether Puppet makes an alias from the uniqueness key: `Exec` and
/// `Tidy` are not isomorphic, everything else is.
fn is_isomorphic(def: Option<&TypeDef>) -> bool {
    def.is_none_or(|t| t.isomorphic)
}

/// Whether the uniqueness key is just the title, as it is for most
/// resources: one key attribute, not set by a parameter, that the title
/// gives whole. (The full [`uniqueness_key`] builds several vectors and
/// strings to find the same.)
fn key_is_own_title(r: &impl Indexed, def: Option<&TypeDef>) -> bool {
    let key = match def.map(|t| t.key_attributes.as_slice()) {
        Some([one]) => one.as_str(),
        Some([]) | None => "name",
        Some(_) => return false,
    };
    if r.parameter(key).is_some_and(|v| !v.is_undef()) {
        return false;
    }
    match def {
        None => true,
        // `file_path_from_title` changes only a title ending in `/`.
        Some(t) if t.name == "file" => !r.title().ends_with('/'),
        Some(t) => t.title_patterns.is_none(),
    }
}

/// Puppet's `uniqueness_key` for the resource as declared: the key
/// attributes sorted by name, each from its parameter (under its own name:
/// `name` is not mapped to the namevar here, as in Puppet's
/// `Parser::Resource`) or else from the title.
fn uniqueness_key(r: &impl Indexed, def: Option<&TypeDef>) -> Vec<Value> {
    let param =
        |name: &str| -> Option<Value> { r.parameter(name).filter(|v| !v.is_undef()).cloned() };
    let from_title = title_attributes(def, r.title());
    let mut keys: Vec<String> = match def {
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

/// The index of one catalog's resources.
#[derive(Clone, Debug, Default)]
pub struct Index {
    /// How many resources are indexed: the next one's id.
    len: u32,
    /// `(type, title-or-alias)` → resource: titles, explicit aliases and
    /// single-valued uniqueness keys, which Puppet keeps in one table.
    index: IndexMap<(Arc<str>, Arc<str>), ResourceId, rustc_hash::FxBuildHasher>,
    /// Uniqueness keys of several values (`Package`: command, name, provider).
    multi_keys: HashMap<(Arc<str>, Vec<Value>), ResourceId>,
    /// The module types of the resources added, by type name, for `find`.
    module_types: HashMap<Arc<str>, Arc<TypeDef>>,
}

impl Index {
    /// Room for `n` titles, made at once: growing one resource at a time
    /// rehashed every title several times over in a catalog of a few
    /// hundred.
    pub fn reserve(&mut self, n: usize) {
        self.index.reserve(n);
    }

    /// How many resources are indexed.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Indexes `resource`, the next one of the catalog (`indexed` are those
    /// before it, by id), as Puppet's `add_resource` does: a title (or
    /// alias) already present is a duplicate declaration; then the
    /// resource's `alias` parameter values and, for isomorphic types, its
    /// uniqueness key (`File['/tmp/d/']` is also `File['/tmp/d']`,
    /// `notify { 'n': name => 'x' }` is also `Notify['x']`) become aliases,
    /// and a clash is Puppet's `Cannot alias` error. On error the index is
    /// unchanged.
    pub fn add<R: Indexed>(
        &mut self,
        resource: &R,
        indexed: &[R],
    ) -> Result<ResourceId, Box<CatalogError>> {
        debug_assert_eq!(indexed.len(), self.len());
        let type_name = resource.type_name();
        let title_key = TitleKey(type_name, resource.title());
        if let Some(&existing) = self.index.get(&title_key) {
            let e = &indexed[existing.index()];
            return Err(Box::new(CatalogError::DuplicateDeclaration {
                resource: reference(resource),
                existing,
                existing_file: e.file().map(String::from),
                existing_line: e.line(),
            }));
        }
        let id = ResourceId(self.len);
        let def = type_def(resource);

        // Aliases, checked before anything is inserted.
        let mut single: Vec<(Arc<str>, Arc<str>)> = Vec::new();
        let mut multi: Option<Vec<Value>> = None;
        let conflict = |existing: ResourceId, key: String, newref: String| {
            let e = &indexed[existing.index()];
            Box::new(CatalogError::AliasConflict {
                resource: reference(resource),
                key,
                newref,
                file: resource.file().map(String::from),
                line: resource.line(),
                existing,
                existing_file: e.file().map(String::from),
                existing_line: e.line(),
            })
        };
        for alias in explicit_aliases(resource) {
            if *alias == **resource.title() {
                continue;
            }
            let key = (type_name.clone(), Arc::from(alias.as_str()));
            if let Some(&existing) = self.index.get(&key) {
                let newref =
                    inspect_list(&[Value::String(type_name.clone()), Value::String(key.1)]);
                return Err(conflict(existing, names::ruby_inspect_str(&alias), newref));
            }
            if !single.contains(&key) {
                single.push(key);
            }
        }
        if is_isomorphic(def) && !key_is_own_title(resource, def) {
            let ukey = uniqueness_key(resource, def);
            let is_own_title = ukey.len() == 1
                && matches!(&ukey[0], Value::String(s) if **s == **resource.title());
            if ukey.iter().any(|v| !v.is_undef()) && !is_own_title {
                let mut full = vec![Value::String(type_name.clone())];
                full.extend(ukey.iter().cloned());
                let existing = match ukey.as_slice() {
                    [Value::String(s)] => {
                        let key = (type_name.clone(), s.clone());
                        let found = self.index.get(&key).copied();
                        if found.is_none() && !single.contains(&key) {
                            single.push(key);
                        }
                        found
                    }
                    [_] => None, // a non-string key never matches a title
                    _ => {
                        let key = (type_name.clone(), ukey.clone());
                        let found = self.multi_keys.get(&key).copied();
                        multi = Some(ukey.clone());
                        found
                    }
                };
                if let Some(existing) = existing {
                    return Err(conflict(existing, inspect_list(&ukey), inspect_list(&full)));
                }
            }
        }

        self.index
            .insert((type_name.clone(), resource.title().clone()), id);
        for key in single {
            self.index.insert(key, id);
        }
        if let Some(k) = multi {
            self.multi_keys.insert((type_name.clone(), k), id);
        }
        if resource.compilable() {
            if let Some(t) = resource.rtype() {
                if !self.module_types.contains_key(type_name) {
                    self.module_types.insert(type_name.clone(), t.clone());
                }
            }
        }
        self.len += 1;
        Ok(id)
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
fn explicit_aliases(r: &impl Indexed) -> Vec<String> {
    fn collect(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::String(s) => out.push(s.to_string()),
            Value::Array(items) => items.iter().for_each(|i| collect(i, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    if let Some(v) = r.parameter("alias") {
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

/// The attributes Puppet derives from the title (`parse_title`) of a
/// resource of type `t` (`None`: not a Ruby type): a `File`'s trailing
/// slashes are dropped (`/tmp/d/` is `/tmp/d`, `///` is `/`); a type's title
/// patterns may set several key attributes (`sshkey { 'k@rsa': }` sets `name`
/// and `type`); otherwise the namevar is the title as it is.
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
        // Pinned, so a change of algorithm is a visible decision.
        assert_eq!(
            uuid_for("web01.example.com", "production", 42),
            "56cdba66-7c61-88d0-9e8c-64e779b71ea9"
        );
        assert_ne!(
            uuid_for("web01.example.com", "production", 42),
            uuid_for("web02.example.com", "production", 42)
        );
    }

    /// A resource as the index sees it.
    struct T {
        type_name: Arc<str>,
        title: Arc<str>,
        params: Vec<(&'static str, Value)>,
        compilable: bool,
    }

    impl Indexed for T {
        fn type_name(&self) -> &Arc<str> {
            &self.type_name
        }
        fn title(&self) -> &Arc<str> {
            &self.title
        }
        fn file(&self) -> Option<&str> {
            None
        }
        fn line(&self) -> Option<u32> {
            None
        }
        fn parameter(&self, name: &str) -> Option<&Value> {
            self.params.iter().find(|(k, _)| *k == name).map(|(_, v)| v)
        }
        fn compilable(&self) -> bool {
            self.compilable
        }
        fn rtype(&self) -> Option<&Arc<TypeDef>> {
            None
        }
    }

    /// `(type, title, params, compilable)`, type and title canonical.
    type Declared<'a> = (&'a str, &'a str, Vec<(&'static str, Value)>, bool);

    fn index(resources: Vec<Declared<'_>>) -> Index {
        let mut index = Index::default();
        let mut added = Vec::new();
        for (t, title, params, compilable) in resources {
            let r = T {
                type_name: t.into(),
                title: title.into(),
                params,
                compilable,
            };
            index.add(&r, &added).unwrap();
            added.push(r);
        }
        index
    }

    /// What Puppet's `catalog.resource` finds (checked with Puppet 7.23):
    /// type names and class titles are made canonical, other titles are
    /// case-sensitive, aliases and a File's uniqueness key find it too.
    #[test]
    fn find_as_puppet_finds() {
        let idx = index(vec![
            ("Class", "main", vec![], false),
            ("Class", "Foo::Bar", vec![], false),
            ("My::Thing", "Two", vec![], false),
            (
                "Notify",
                "tagged",
                vec![("alias", Value::string("tagged_alias"))],
                true,
            ),
            ("File", "/tmp/d/", vec![], true),
        ]);
        let id = |i| Some(ResourceId(i));
        assert_eq!(idx.find("class", "foo::bar"), id(1));
        assert_eq!(idx.find("Class", "::Foo::Bar"), id(1));
        assert_eq!(idx.find("Class", ""), id(0));
        assert_eq!(
            idx.find("class", "main"),
            None,
            "Class['main'] is Class[Main]"
        );
        assert_eq!(idx.find("my::thing", "Two"), id(2));
        assert_eq!(
            idx.find("My::Thing", "two"),
            None,
            "titles are case-sensitive"
        );
        assert_eq!(idx.find("notify", "tagged_alias"), id(3));
        assert_eq!(idx.find("file", "/tmp/d"), id(4));
        assert_eq!(
            idx.find("file", "/tmp/d//"),
            id(4),
            "File['/tmp/d//'] finds it too"
        );
        assert_eq!(idx.len(), 5);
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
