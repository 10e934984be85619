//! The function registry: every function pverify knows by name, in one
//! table ([`TABLE`]), and the one place a call's name is resolved
//! ([`resolve`]).
//!
//! Each entry gives a function's name, its origin ([`Origin`]: Puppet
//! core, or the module that ships it), the API Puppet declares it with
//! ([`Api`]: a 4.x function's signatures, which its implementation
//! dispatches on with `Cx::dispatch`, or a 3.x function's arity), and its
//! implementation: the evaluator's own ([`Ev`], in `eval/functions.rs`,
//! for the functions that reach into the compilation: `include`, `each`,
//! `lookup`, ...) or the library's (a [`Builtin`] in this directory).
//!
//! What the table cannot list is found at run time and keeps its path:
//! Puppet-language functions (`<module>/functions/*.pp`, the
//! environment's `functions/`) and modules' Ruby functions
//! (`lib/puppet/functions/**.rb`, `lib/puppet/parser/functions/*.rb`,
//! `modules.rs`). Mocks come first of all.
//!
//! The order [`resolve`] follows, as Puppet's loaders see it (Puppet's
//! `call` function skips the steps marked *):
//! 1. a mock (`--mock-functions`)*;
//! 2. the evaluator's functions, for a call from Puppet code (templates
//!    and Ruby functions reach the library and what is loaded only);
//! 3. a module's function: its Ruby when told to interpret modules' Ruby
//!    (tests)*, else the native one, visible only while its module is on
//!    the modulepath (else the search goes on);
//! 4. Puppet core's library;
//! 5. a capitalised name: the type's `new` (`Integer('42')`);
//! 6. a Puppet-language function;
//! 7. a module's Ruby function*;
//! 8. none: `Unknown function`.

use std::path::PathBuf;

use puppet_syntax::util::NameStr as _;

use super::{
    collections, conversion, create_resources, digests, epp, files, iteration, numbers, objects,
    other_modules, regex, ruby_format, scanf, stdlib, stdlib_json, stdlib_range, stdlib_validate,
    stdlib_yaml, strings, time, tree_each, variables, Builtin,
};
use crate::eval::error::EvalError;
use crate::eval::value::Value;
use crate::loader::Environment;

pub use super::modules::{ruby_function_file, ruby_function_file_3x};

/// Where a function in the table comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Puppet 7.23 itself (`lib/puppet/functions`, `lib/puppet/parser/functions`).
    Core,
    /// A module's `lib/puppet` function, implemented natively: visible only
    /// while the module (`stdlib`, `apache`, ...) is on the modulepath.
    Module(&'static str),
}

const CORE: Origin = Origin::Core;
const STDLIB: Origin = Origin::Module("stdlib");

/// The API Puppet declares a function with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Api {
    /// 4.x (`Puppet::Functions.create_function`): typed signatures, which
    /// the implementation dispatches on (`Cx::dispatch`), failing as
    /// Puppet's `describe_signatures` does.
    V4,
    /// 3.x (`newfunction`): an arity only (`Cx::arity3`); undef arguments
    /// reach it as empty strings.
    V3,
}
use Api::{V3, V4};

/// The evaluator's own functions (`Compiler::call_evaluator_function`):
/// those that reach into the compilation (classes, resources, scopes,
/// Hiera, blocks, templates).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ev {
    /// `include`, `require`, `contain`.
    Include,
    /// `notice`, `info`, `warning`, `err`, `debug`, `alert`, `crit`, `emerg`.
    Log,
    Fail,
    Tag,
    Tagged,
    Defined,
    Realize,
    Break,
    Next,
    Return,
    Lookup,
    /// `hiera`, `hiera_array`, `hiera_hash`.
    Hiera,
    HieraInclude,
    /// `each`, `map`, `filter`, `reduce`, `with`.
    Iterate,
    AssertType,
    /// `template`, `inline_template`.
    Template,
}

/// A function's implementation.
#[derive(Clone, Copy)]
pub(super) enum Imp {
    Evaluator(Ev),
    Library(Builtin),
}
use Imp::{Evaluator, Library};

impl std::fmt::Debug for Imp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Evaluator(ev) => write!(f, "Evaluator({ev:?})"),
            Library(_) => f.write_str("Library"),
        }
    }
}

/// One function of the table.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub name: &'static str,
    pub origin: Origin,
    pub api: Api,
    pub(super) imp: Imp,
}

impl Entry {
    /// The evaluator's function this is, if it is one.
    pub fn evaluator(&self) -> Option<Ev> {
        match self.imp {
            Evaluator(ev) => Some(ev),
            Library(_) => None,
        }
    }

    /// A module's function (implemented natively).
    pub fn module(&self) -> Option<&'static str> {
        match self.origin {
            Origin::Module(m) => Some(m),
            Origin::Core => None,
        }
    }
}

const fn entry(name: &'static str, origin: Origin, api: Api, imp: Imp) -> Entry {
    Entry {
        name,
        origin,
        api,
        imp,
    }
}

/// Every function pverify implements, sorted by name (byte order) for
/// [`lookup`]'s binary search; a test checks the order.
pub static TABLE: &[Entry] = &[
    entry("abs", CORE, V4, Library(numbers::abs)),
    entry("alert", CORE, V4, Evaluator(Ev::Log)),
    entry("all", CORE, V4, Library(iteration::all)),
    entry("annotate", CORE, V4, Library(objects::annotate)),
    entry("any", CORE, V4, Library(iteration::any)),
    entry("any2array", STDLIB, V3, Library(stdlib::any2array)),
    entry(
        "apache::bool2httpd",
        Origin::Module("apache"),
        V4,
        Library(other_modules::apache_bool2httpd),
    ),
    entry(
        "assert_private",
        STDLIB,
        V3,
        Library(stdlib::assert_private),
    ),
    entry("assert_type", CORE, V4, Evaluator(Ev::AssertType)),
    entry("basename", STDLIB, V3, Library(stdlib::basename)),
    entry("binary_file", CORE, V4, Library(files::binary_file)),
    entry("bool2num", STDLIB, V3, Library(stdlib::bool2num)),
    entry("bool2str", STDLIB, V3, Library(stdlib::bool2str)),
    entry("break", CORE, V4, Evaluator(Ev::Break)),
    entry("call", CORE, V4, Library(files::call_fn)),
    entry("camelcase", CORE, V4, Library(strings::camelcase)),
    entry("capitalize", CORE, V4, Library(strings::capitalize)),
    entry("ceiling", CORE, V4, Library(numbers::ceiling)),
    entry("chomp", CORE, V4, Library(strings::chomp)),
    entry("chop", CORE, V4, Library(strings::chop)),
    entry("compare", CORE, V4, Library(numbers::compare)),
    entry("concat", STDLIB, V3, Library(stdlib::concat)),
    entry("contain", CORE, V4, Evaluator(Ev::Include)),
    entry("convert_to", CORE, V4, Library(conversion::convert_to)),
    entry("count", STDLIB, V3, Library(stdlib::count)),
    entry(
        "create_resources",
        CORE,
        V3,
        Library(create_resources::create_resources),
    ),
    entry("crit", CORE, V4, Evaluator(Ev::Log)),
    entry("debug", CORE, V4, Evaluator(Ev::Log)),
    entry("deep_merge", STDLIB, V3, Library(stdlib::deep_merge)),
    entry("defined", CORE, V4, Evaluator(Ev::Defined)),
    entry("delete", STDLIB, V3, Library(stdlib::delete)),
    entry("delete_at", STDLIB, V3, Library(stdlib::delete_at)),
    entry(
        "delete_undef_values",
        STDLIB,
        V3,
        Library(stdlib::delete_undef_values),
    ),
    entry(
        "deprecation",
        STDLIB,
        V4,
        Library(stdlib_validate::deprecation),
    ),
    entry("dig", CORE, V4, Library(collections::dig)),
    entry("digest", CORE, V3, Library(digests::digest)),
    entry("dirname", STDLIB, V3, Library(stdlib::dirname)),
    entry("downcase", CORE, V4, Library(strings::downcase)),
    entry("each", CORE, V4, Evaluator(Ev::Iterate)),
    entry("emerg", CORE, V4, Evaluator(Ev::Log)),
    entry("empty", CORE, V4, Library(strings::empty)),
    entry("enclose_ipv6", STDLIB, V3, Library(stdlib::enclose_ipv6)),
    entry(
        "ensure_packages",
        STDLIB,
        V4,
        Library(stdlib::ensure_packages),
    ),
    entry(
        "ensure_resource",
        STDLIB,
        V3,
        Library(stdlib::ensure_resource),
    ),
    entry(
        "ensure_resources",
        STDLIB,
        V3,
        Library(stdlib::ensure_resources),
    ),
    entry("epp", CORE, V4, Library(epp::epp)),
    entry("err", CORE, V4, Evaluator(Ev::Log)),
    entry("fact", STDLIB, V4, Library(stdlib::fact)),
    entry("fail", CORE, V3, Evaluator(Ev::Fail)),
    entry("file", CORE, V3, Library(files::file)),
    entry("filter", CORE, V4, Evaluator(Ev::Iterate)),
    entry("find_file", CORE, V4, Library(files::find_file)),
    entry("find_template", CORE, V4, Library(files::find_template)),
    entry("flatten", CORE, V4, Library(collections::flatten)),
    entry("floor", CORE, V4, Library(numbers::floor)),
    entry("fqdn_rand", CORE, V3, Library(digests::fqdn_rand)),
    entry("generate", CORE, V3, Library(files::generate)),
    entry("get", CORE, V4, Library(variables::get)),
    entry(
        "get_module_path",
        STDLIB,
        V3,
        Library(stdlib::get_module_path),
    ),
    entry("getvar", CORE, V4, Library(variables::getvar)),
    entry(
        "getvar_emptystring",
        Origin::Module("redis"),
        V3,
        Library(other_modules::getvar_emptystring),
    ),
    entry("grep", STDLIB, V3, Library(stdlib::grep)),
    entry("group_by", CORE, V4, Library(iteration::group_by)),
    entry("has_key", STDLIB, V3, Library(stdlib::has_key)),
    entry("hash", STDLIB, V3, Library(stdlib::hash)),
    entry("hiera", CORE, V4, Evaluator(Ev::Hiera)),
    entry("hiera_array", CORE, V4, Evaluator(Ev::Hiera)),
    entry("hiera_hash", CORE, V4, Evaluator(Ev::Hiera)),
    entry("hiera_include", CORE, V4, Evaluator(Ev::HieraInclude)),
    entry("import", CORE, V4, Library(collections::import)),
    entry("include", CORE, V4, Evaluator(Ev::Include)),
    entry("index", CORE, V4, Library(iteration::index)),
    entry("info", CORE, V4, Evaluator(Ev::Log)),
    entry("inline_epp", CORE, V4, Library(epp::inline_epp)),
    entry("inline_template", CORE, V3, Evaluator(Ev::Template)),
    entry(
        "ipaddresses",
        Origin::Module("ssh"),
        V3,
        Library(other_modules::ipaddresses),
    ),
    entry(
        "is_service_default",
        Origin::Module("openstacklib"),
        V4,
        Library(other_modules::is_service_default),
    ),
    entry("join", CORE, V4, Library(strings::join)),
    entry(
        "join_keys_to_values",
        STDLIB,
        V3,
        Library(stdlib::join_keys_to_values),
    ),
    entry("keys", CORE, V4, Library(collections::keys)),
    entry("length", CORE, V4, Library(strings::length)),
    entry("lest", CORE, V4, Library(collections::lest)),
    entry("lookup", CORE, V4, Evaluator(Ev::Lookup)),
    entry("lstrip", CORE, V4, Library(strings::lstrip)),
    entry("map", CORE, V4, Evaluator(Ev::Iterate)),
    entry("match", CORE, V4, Library(regex::match_)),
    entry("max", CORE, V4, Library(collections::max)),
    entry("md5", CORE, V3, Library(digests::md5)),
    entry("member", STDLIB, V3, Library(stdlib::member)),
    entry("merge", STDLIB, V4, Library(stdlib::merge)),
    entry("min", CORE, V4, Library(collections::min)),
    entry(
        "module_directory",
        CORE,
        V4,
        Library(files::module_directory),
    ),
    entry(
        "mysql::normalise_and_deepmerge",
        Origin::Module("mysql"),
        V4,
        Library(other_modules::mysql_normalise_and_deepmerge),
    ),
    entry(
        "mysql::password",
        Origin::Module("mysql"),
        V4,
        Library(other_modules::mysql_password4),
    ),
    entry(
        "mysql_password",
        Origin::Module("mysql"),
        V3,
        Library(other_modules::mysql_password3),
    ),
    entry("new", CORE, V4, Library(conversion::new)),
    entry("next", CORE, V4, Evaluator(Ev::Next)),
    entry("notice", CORE, V4, Evaluator(Ev::Log)),
    entry("partition", CORE, V4, Library(iteration::partition)),
    entry("pick", STDLIB, V3, Library(stdlib::pick)),
    entry("pick_default", STDLIB, V3, Library(stdlib::pick_default)),
    entry(
        "postgresql::postgresql_acls_to_resources_hash",
        Origin::Module("postgresql"),
        V4,
        Library(other_modules::postgresql_acls_to_resources_hash),
    ),
    entry(
        "postgresql::postgresql_escape",
        Origin::Module("postgresql"),
        V4,
        Library(other_modules::postgresql_escape),
    ),
    entry(
        "postgresql::postgresql_password",
        Origin::Module("postgresql"),
        V4,
        Library(other_modules::postgresql_password),
    ),
    entry("prefix", STDLIB, V3, Library(stdlib::prefix)),
    entry("range", STDLIB, V3, Library(stdlib_range::range)),
    entry("realize", CORE, V3, Evaluator(Ev::Realize)),
    entry("reduce", CORE, V4, Evaluator(Ev::Iterate)),
    entry("regsubst", CORE, V4, Library(regex::regsubst)),
    entry("reject", STDLIB, V3, Library(stdlib::reject)),
    entry("require", CORE, V4, Evaluator(Ev::Include)),
    entry("return", CORE, V4, Evaluator(Ev::Return)),
    entry("reverse_each", CORE, V4, Library(iteration::reverse_each)),
    entry("round", CORE, V4, Library(numbers::round)),
    entry("rstrip", CORE, V4, Library(strings::rstrip)),
    entry("scanf", CORE, V4, Library(scanf::scanf)),
    entry("sha1", CORE, V3, Library(digests::sha1)),
    entry("sha256", CORE, V3, Library(digests::sha256)),
    entry("shell_join", STDLIB, V3, Library(stdlib::shell_join)),
    entry("shellquote", CORE, V3, Library(digests::shellquote)),
    entry("size", CORE, V4, Library(strings::size)),
    entry("slice", CORE, V4, Library(iteration::slice)),
    entry("sort", CORE, V4, Library(collections::sort)),
    entry("split", CORE, V4, Library(strings::split)),
    entry("sprintf", CORE, V3, Library(ruby_format::sprintf)),
    entry("step", CORE, V4, Library(iteration::step)),
    entry("str2bool", STDLIB, V3, Library(stdlib::str2bool)),
    entry("strftime", CORE, V4, Library(time::strftime)),
    entry("strip", CORE, V4, Library(strings::strip)),
    entry("suffix", STDLIB, V3, Library(stdlib::suffix)),
    entry("tag", CORE, V3, Evaluator(Ev::Tag)),
    entry("tagged", CORE, V3, Evaluator(Ev::Tagged)),
    entry("template", CORE, V3, Evaluator(Ev::Template)),
    entry("then", CORE, V4, Library(collections::then)),
    entry("to_json", STDLIB, V4, Library(stdlib::to_json)),
    entry(
        "to_json_pretty",
        STDLIB,
        V4,
        Library(stdlib_json::to_json_pretty),
    ),
    entry("to_yaml", STDLIB, V4, Library(stdlib_yaml::to_yaml)),
    entry(
        "translate",
        Origin::Module("translate"),
        V4,
        Library(other_modules::translate),
    ),
    entry("tree_each", CORE, V4, Library(tree_each::tree_each)),
    entry("type", CORE, V4, Library(collections::type_)),
    entry("union", STDLIB, V3, Library(stdlib::union)),
    entry("unique", CORE, V4, Library(collections::unique)),
    entry("unwrap", CORE, V4, Library(collections::unwrap)),
    entry("upcase", CORE, V4, Library(strings::upcase)),
    entry(
        "validate_absolute_path",
        STDLIB,
        V4,
        Library(stdlib_validate::validate_absolute_path),
    ),
    entry(
        "validate_array",
        STDLIB,
        V4,
        Library(stdlib_validate::validate_array),
    ),
    entry(
        "validate_bool",
        STDLIB,
        V4,
        Library(stdlib_validate::validate_bool),
    ),
    entry(
        "validate_hash",
        STDLIB,
        V4,
        Library(stdlib_validate::validate_hash),
    ),
    entry(
        "validate_legacy",
        STDLIB,
        V4,
        Library(stdlib_validate::validate_legacy),
    ),
    entry(
        "validate_re",
        STDLIB,
        V4,
        Library(stdlib_validate::validate_re),
    ),
    entry(
        "validate_string",
        STDLIB,
        V4,
        Library(stdlib_validate::validate_string),
    ),
    entry("values", CORE, V4, Library(collections::values)),
    entry("values_at", STDLIB, V3, Library(stdlib::values_at)),
    entry("versioncmp", CORE, V4, Library(strings::versioncmp)),
    entry("warning", CORE, V4, Evaluator(Ev::Log)),
    entry("with", CORE, V4, Evaluator(Ev::Iterate)),
    entry("zip", STDLIB, V3, Library(stdlib::zip)),
];

/// The table's entry for `name` (as written in the call: `::upcase` is not
/// `upcase`, as today's loaders see it): one hash and one comparison, no
/// allocation (a binary search's string comparisons showed in profiles:
/// every function call of a compile asks).
pub fn lookup(name: &str) -> Option<&'static Entry> {
    static BY_NAME: std::sync::OnceLock<rustc_hash::FxHashMap<&'static str, &'static Entry>> =
        std::sync::OnceLock::new();
    BY_NAME
        .get_or_init(|| TABLE.iter().map(|e| (e.name, e)).collect())
        .get(name)
        .copied()
}

/// Every module function implemented natively (listings and tests).
pub fn module_functions() -> impl Iterator<Item = &'static Entry> {
    TABLE.iter().filter(|e| e.module().is_some())
}

/// Who calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Caller {
    /// Puppet code: a call expression.
    Code,
    /// A template or a Ruby function (`scope.call_function`,
    /// `call_function`): the evaluator's functions are not reached.
    Library,
    /// Puppet's `call` function: the library and Puppet-language functions
    /// only (no mock, no module's Ruby).
    Call,
}

/// What a name resolves to.
#[derive(Debug)]
pub enum Resolved<P> {
    /// A mock's value (`--mock-functions`).
    Mock(Value),
    /// A function of the table whose module, if any, is on the modulepath.
    Native(&'static Entry),
    /// A capitalised name: the type's `new` (`Integer('42')`).
    TypeNew,
    /// A Puppet-language function (as the loader found it).
    Puppet(P),
    /// A module's Ruby function, by its file.
    Ruby(PathBuf),
    /// No function of that name.
    Unknown,
}

/// What resolution asks of the compilation: mocks, settings and the
/// Puppet-language loader (which the compiler autoloads with; tests may
/// only look for files).
pub trait Loaders {
    /// How a Puppet-language function is found.
    type Puppet;
    fn env(&self) -> &Environment;
    fn mock(&self, name: &str) -> Option<Value>;
    /// Modules' Ruby runs instead of the native library (tests).
    fn interpret_module_ruby(&self) -> bool;
    fn puppet_function(&mut self, name: &str) -> Result<Option<Self::Puppet>, EvalError>;
    /// Whether `module` is on the modulepath and ships the function `name`
    /// the library implements ([`ships`]); a compile remembers the answer
    /// (asked at every call of stdlib's functions).
    fn module_ships(&mut self, module: &str, name: &str) -> bool {
        module_ships(self.env(), module, name)
    }
}

/// [`Loaders::module_ships`], asked of the environment.
pub fn module_ships(env: &Environment, module: &str, name: &str) -> bool {
    ships(env, module, ruby_function_file(env, name).as_deref())
}

/// The one resolution of a function's name, in the order of this module's
/// documentation.
pub fn resolve<L: Loaders>(
    l: &mut L,
    name: &str,
    caller: Caller,
) -> Result<Resolved<L::Puppet>, EvalError> {
    let call = caller == Caller::Call;
    if !call {
        if let Some(v) = l.mock(name) {
            return Ok(Resolved::Mock(v));
        }
    }
    if let Some(e) = lookup(name) {
        match (e.evaluator(), e.module()) {
            (Some(_), _) if caller != Caller::Code => {}
            (Some(_), _) | (None, None) => return Ok(Resolved::Native(e)),
            (None, Some(module)) => {
                if !call && l.interpret_module_ruby() {
                    if let Some(file) = ruby_function_file(l.env(), name) {
                        return Ok(Resolved::Ruby(file));
                    }
                } else if l.module_ships(module, name) {
                    return Ok(Resolved::Native(e));
                }
            }
        }
    }
    if name
        .trim_colons()
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_uppercase())
    {
        return Ok(Resolved::TypeNew);
    }
    if let Some(p) = l.puppet_function(name)? {
        return Ok(Resolved::Puppet(p));
    }
    if !call {
        if let Some(file) = ruby_function_file(l.env(), name) {
            return Ok(Resolved::Ruby(file));
        }
    }
    Ok(Resolved::Unknown)
}

/// Whether `module` is on the modulepath and ships the function whose Ruby
/// file is `file`: a module's release may drop a function the library
/// implements (stdlib 9 removed `validate_string`, `has_key`...), and then
/// Puppet does not know it.
fn ships(env: &Environment, module: &str, file: Option<&std::path::Path>) -> bool {
    match (env.module_dir(module), file) {
        (Some(dir), Some(file)) => file.starts_with(dir),
        _ => false,
    }
}

/// Whether a template's `scope.function_<name>` (the 3.x API) reaches a
/// module's 3.x Ruby (`modules::ruby_function_file_3x`) before anything
/// else: unless mocked, and unless the library implements `name` as a
/// module's function (when not told to interpret modules' Ruby). Otherwise
/// it resolves as a [`Caller::Library`] call.
pub fn ruby_3x_first(name: &str, mocked: bool, interpret_module_ruby: bool) -> bool {
    !mocked && (interpret_module_ruby || lookup(name).is_none_or(|e| e.module().is_none()))
}

/// Resolution against the files of an environment alone, without compiling:
/// a Puppet-language function is found by its file (as
/// `Compiler::find_function` autoloads it: `mod::name` from
/// `mod/functions/name.pp`, any name from the environment's `functions/`).
/// No mocks; the native library runs.
pub struct OnDisk<'a>(pub &'a Environment);

impl Loaders for OnDisk<'_> {
    type Puppet = PathBuf;

    fn env(&self) -> &Environment {
        self.0
    }

    fn mock(&self, _: &str) -> Option<Value> {
        None
    }

    fn interpret_module_ruby(&self) -> bool {
        false
    }

    fn puppet_function(&mut self, name: &str) -> Result<Option<PathBuf>, EvalError> {
        let key = name.trim_colons().to_lowercase();
        let env = self.0;
        Ok(env
            .function_candidates(&key)
            .into_iter()
            .find(|p| env.files().is_file(p)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_sorted_and_names_are_unique() {
        for w in TABLE.windows(2) {
            assert!(w[0].name < w[1].name, "{} before {}", w[0].name, w[1].name);
        }
        for e in TABLE {
            assert_eq!(lookup(e.name).map(|f| f.name), Some(e.name));
        }
        assert!(lookup("nobody").is_none());
    }
}
