//! Resource types as the compiler needs them: which attributes a type
//! accepts, its key attributes (namevars) and how a title splits into them.
//!
//! Two sources: Puppet 7.23's own types ([`builtin`]) and the Ruby types of
//! modules (`<module>/lib/puppet/type/<name>.rb`), read without Ruby by
//! [`ruby_reader`]. A type found on the modulepath is read once per run
//! ([`TypeCache`], held by the environment).

pub mod builtin;
mod resource_api;
pub mod ruby_reader;
pub mod vendored;

use crate::files::FileSystem;
use rustc_hash::FxHashMap as HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Metaparameters every resource type accepts (`Puppet::Type.metaparams`).
pub const METAPARAMS: &[&str] = &[
    "alias",
    "audit",
    "before",
    "loglevel",
    "noop",
    "notify",
    "require",
    "schedule",
    "stage",
    "subscribe",
    "tag",
];

/// One title pattern: a (Ruby) regex and the attributes its groups set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TitlePattern {
    pub regex: String,
    pub attributes: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeDef {
    pub name: String,
    /// `newparam`s (and `newcheck`s), in definition order.
    pub parameters: Vec<String>,
    /// `newproperty`s and `ensurable`'s `ensure`, in definition order.
    pub properties: Vec<String>,
    /// Puppet's `key_attributes`: the namevar parameters and `name`, in
    /// definition order.
    pub key_attributes: Vec<String>,
    /// `false` for `exec` and `tidy`: no alias from the uniqueness key.
    /// (No module type of Debian's packages changes it; `oracle-types`
    /// checks.)
    pub isomorphic: bool,
    /// `self.title_patterns`; `None` is Puppet's default, the whole title
    /// for the first key attribute.
    pub title_patterns: Option<Vec<TitlePattern>>,
    /// Registered through the Resource API (`require 'puppet/resource_api'`),
    /// which Puppet 7.23 as Debian 12 packages it cannot load.
    pub needs_resource_api: bool,
    /// What [`TypeDef::accepts`] says yes to, gathered on first use.
    pub accepted: AcceptedNames,
}

/// The names a type accepts (`name`, its parameters and properties, the
/// metaparameters) as one set, made on first use: the relationship check
/// asks for every parameter of every resource, and scanning four lists took
/// ~150 instructions an attribute. It mirrors the lists, so it takes no
/// part in comparisons, and a clone (which may then be changed) starts
/// without it. A type is not changed once it is used.
#[derive(Default, Debug)]
pub struct AcceptedNames(std::sync::OnceLock<rustc_hash::FxHashSet<Box<str>>>);

impl Clone for AcceptedNames {
    fn clone(&self) -> Self {
        AcceptedNames::default()
    }
}

impl PartialEq for AcceptedNames {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for AcceptedNames {}

impl TypeDef {
    pub fn new(
        name: &str,
        parameters: &[&str],
        properties: &[&str],
        key_attributes: &[&str],
        isomorphic: bool,
    ) -> TypeDef {
        let own = |l: &[&str]| l.iter().map(|s| s.to_string()).collect();
        TypeDef {
            name: name.to_string(),
            parameters: own(parameters),
            properties: own(properties),
            key_attributes: own(key_attributes),
            isomorphic,
            title_patterns: None,
            needs_resource_api: false,
            accepted: AcceptedNames::default(),
        }
    }

    /// Puppet's `validattr?`: `name`, a parameter, a property or a
    /// metaparameter.
    pub fn accepts(&self, attr: &str) -> bool {
        self.accepted
            .0
            .get_or_init(|| {
                let lists = [&self.parameters, &self.properties];
                let own = lists.into_iter().flatten().map(String::as_str);
                std::iter::once("name")
                    .chain(METAPARAMS.iter().copied())
                    .chain(own)
                    .map(Box::from)
                    .collect()
            })
            .contains(attr)
    }

    /// `Puppet::Resource#namevar`: the single key attribute, else `name`.
    pub fn namevar(&self) -> &str {
        match self.key_attributes.as_slice() {
            [one] => one,
            _ => "name",
        }
    }

    /// Puppet's `parse_title`: the attributes the title sets, or `None`
    /// when no title pattern matches (Puppet's `No set of title patterns
    /// matched the title "T".`).
    pub fn parse_title(&self, title: &str) -> Option<Vec<(String, String)>> {
        let Some(patterns) = &self.title_patterns else {
            // Puppet's default: the whole title for the first key attribute;
            // a type without key attributes has no pattern at all.
            let first = self.key_attributes.first()?;
            return Some(vec![(first.to_string(), title.to_string())]);
        };
        for p in patterns {
            let Ok(re) = puppet_model::types::regex::compile(&p.regex) else {
                continue;
            };
            let Ok(Some(caps)) = re.captures(title) else {
                continue;
            };
            return Some(
                p.attributes
                    .iter()
                    .enumerate()
                    .map(|(i, a)| {
                        let v = caps.get(i + 1).map(|m| m.as_str()).unwrap_or("");
                        (a.clone(), v.to_string())
                    })
                    .collect(),
            );
        }
        None
    }
}

/// Puppet 7.23's own type of that name (lower case), if it is one.
pub fn builtin(name: &str) -> Option<&'static TypeDef> {
    builtin_shared(name).map(|t| &**t)
}

fn builtin_shared(name: &str) -> Option<&'static Arc<TypeDef>> {
    static TABLE: std::sync::OnceLock<HashMap<&'static str, Arc<TypeDef>>> =
        std::sync::OnceLock::new();
    TABLE
        .get_or_init(|| {
            let mut t = HashMap::default();
            for n in builtin::NAMES {
                // File's title pattern (trailing slashes) is the catalog's
                // `file_path_from_title`.
                if let Some(d) = builtin::make(n) {
                    t.insert(*n, Arc::new(d));
                }
            }
            t
        })
        .get(name)
}

/// A type found, or `Err`: no such type (`None`) or why its file was refused.
type Lookup = Result<Arc<TypeDef>, Option<String>>;

/// The module types of one environment, each file read once per run and
/// shared by every node (the environment owns the cache).
#[derive(Default)]
pub struct TypeCache {
    /// `Err`: no such type (`None`) or the file the reader refused, why.
    types: Mutex<HashMap<String, (Lookup, crate::reads::Trace)>>,
}

impl TypeCache {
    /// The type `name` (lower case): Puppet's own, else the first
    /// `<module>/lib/puppet/type/<name>.rb` on the modulepath that the reader
    /// understands. `None`: no such type.
    pub fn find(
        &self,
        fs: &dyn FileSystem,
        name: &str,
        modulepath: &[PathBuf],
    ) -> Option<Arc<TypeDef>> {
        self.lookup(fs, name, modulepath).ok()
    }

    /// Why a module's type file of that name could not be read (`None`
    /// when there is no such file, or it was read).
    pub fn refusal(
        &self,
        fs: &dyn FileSystem,
        name: &str,
        modulepath: &[PathBuf],
    ) -> Option<String> {
        self.lookup(fs, name, modulepath).err().flatten()
    }

    fn lookup(&self, fs: &dyn FileSystem, name: &str, modulepath: &[PathBuf]) -> Lookup {
        if let Some(d) = builtin_shared(name) {
            return Ok(d.clone());
        }
        if !valid_type_name(name) {
            return Err(None);
        }
        let mut types = self.types.lock().unwrap_or_else(|p| p.into_inner());
        // Found: no key to allocate (this is asked at every resource).
        if let Some((found, trace)) = types.get(name) {
            crate::reads::replay(trace);
            return found.clone();
        }
        types
            .entry(name.to_string())
            .or_insert_with(|| {
                crate::reads::capture(|| {
                    let file = type_file(fs, name, modulepath).ok_or(None)?;
                    let refused = |why: String| Some(format!("{}: {why}", file.display()));
                    let mut def = read_type_file(fs, &file, modulepath).map_err(refused)?;
                    if def.name != name {
                        return Err(refused(format!("it defines type '{}'", def.name)));
                    }
                    // The Resource API's providers are not `provide`d.
                    if !def.needs_resource_api
                        && has_providers(fs, name, modulepath)
                        && !def.parameters.iter().any(|p| p == "provider")
                    {
                        def.parameters.push("provider".to_string());
                    }
                    Ok(Arc::new(def))
                })
            })
            .0
            .clone()
    }
}

/// Reads a module's type file, reaching the module constants it uses
/// (`PuppetX::...`) in the `lib/` of its own module, then of the modules on
/// the modulepath, as Ruby's `$LOAD_PATH` has them.
pub fn read_type_file(
    fs: &dyn FileSystem,
    file: &Path,
    modulepath: &[PathBuf],
) -> Result<TypeDef, String> {
    let text = fs.read_to_string(file).map_err(|e| e.to_string())?;
    // <module>/lib/puppet/type/<name>.rb
    let own_lib = file.ancestors().nth(3).map(Path::to_path_buf);
    let lib = |constant: &str| -> Option<String> {
        let rel: Vec<String> = constant
            .trim_start_matches("::")
            .split("::")
            .map(snake_case)
            .collect();
        let rel = format!("{}.rb", rel.join("/"));
        let libs = own_lib.iter().cloned().chain(
            modulepath
                .iter()
                .flat_map(|d| sorted_dirs(fs, d).into_iter().map(|m| m.join("lib"))),
        );
        for l in libs {
            if let Ok(t) = fs.read_to_string(&l.join(&rel)) {
                return Some(t);
            }
        }
        None
    };
    ruby_reader::read_in(&text, &lib)
}

/// A Ruby constant's file name: `CompositeNamevar` → `composite_namevar`,
/// `PuppetX` → `puppet_x`.
fn snake_case(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::with_capacity(name.len() + 4);
    for (i, &c) in chars.iter().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            let prev = chars[i - 1];
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_ascii_lowercase());
            if prev.is_ascii_lowercase()
                || prev.is_ascii_digit()
                || (prev.is_ascii_uppercase() && next_lower)
            {
                out.push('_');
            }
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

fn valid_type_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// `puppet/type/<name>.rb` in the `lib` of the modules on the modulepath,
/// in modulepath order, modules in name order within a directory.
pub fn type_file(fs: &dyn FileSystem, name: &str, modulepath: &[PathBuf]) -> Option<PathBuf> {
    for dir in modulepath {
        for module in sorted_dirs(fs, dir) {
            let f = module.join("lib/puppet/type").join(format!("{name}.rb"));
            if fs.is_file(&f) {
                return Some(f);
            }
        }
    }
    None
}

/// Whether some module defines a provider for the type: Puppet then adds
/// the `provider` parameter (`providify`).
fn has_providers(fs: &dyn FileSystem, name: &str, modulepath: &[PathBuf]) -> bool {
    modulepath.iter().any(|dir| {
        sorted_dirs(fs, dir).iter().any(|m| {
            fs.read_dir(&m.join("lib/puppet/provider").join(name))
                .map(|entries| {
                    entries
                        .iter()
                        .any(|p| p.extension().is_some_and(|x| x == "rb"))
                })
                .unwrap_or(false)
        })
    })
}

fn sorted_dirs(fs: &dyn FileSystem, dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = fs
        .read_dir(dir)
        .map(|entries| entries.into_iter().filter(|p| fs.is_dir(p)).collect())
        .unwrap_or_default();
    out.sort();
    out
}
