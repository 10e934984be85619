//! The catalog's JSON, rule by rule, against Puppet 7.23.
//!
//! Each test compiles a small manifest through the real pipeline
//! (`puppet_compiler::eval::compile`, whose catalog is the one writer's,
//! `eval::catalog_emit`) and compares the catalog with Puppet's. The expected
//! texts are Puppet's own output, pasted: the catalog of
//! `Puppet::Parser::Compiler.compile(node)` (which is already the
//! `to_resource` catalog; converting it again was checked to change nothing)
//! for node `n1` in environment `e`, manifest `/tmp/pv/e/manifests/site.pp`,
//! written by its `to_json` without `rich_data` (as the spec suite's oracle
//! writes `to_data_hash`), split into one piece per resource and edge for
//! readable failures. Puppet's `version` and random `catalog_uuid` are
//! `0` and `UUID`; the compared forms are the canonical ones (`version` 0,
//! the zero UUID, numbers as serde_json prints them, keys in order).

use std::path::Path;

use puppet_compiler::eval::NodeInfo;
use puppet_compiler::loader::{Environment, Overrides};
use serde_json::Value as J;

/// Where Puppet's environment was: the expected texts name this file.
const F: &str = "/tmp/pv/e/manifests/site.pp";

/// Compiles `manifest` as `e/manifests/site.pp` for node `n1` (no facts,
/// `classes` from an ENC): the catalog's compact JSON, or the error's text,
/// with the environment's place written as Puppet's was (`/tmp/pv/e`).
fn compile(manifest: &str, classes: &[&str]) -> Result<String, String> {
    let tmp = tempfile::tempdir().expect("temp dir");
    let env = tmp.path().join("e");
    std::fs::create_dir_all(env.join("manifests")).expect("mkdir");
    std::fs::write(env.join("manifests/site.pp"), manifest).expect("write site.pp");
    let here = |text: String| text.replace(&path_text(tmp.path()), "/tmp/pv");
    let environment = Environment::boot(&env, &Overrides::default()).map_err(|e| e.to_string())?;
    let node = NodeInfo {
        name: "n1".to_string(),
        classes: classes.iter().map(|c| (c.to_string(), None)).collect(),
        // Expectations are Puppet 7.23's (the host's Puppet).
        puppet: puppet_compiler::version::PuppetVersion::V7,
        ..NodeInfo::default()
    };
    match puppet_compiler::eval::compile(&environment, node) {
        Ok(c) => Ok(here(serde_json::to_string(&c.catalog).expect("JSON"))),
        Err(e) => Err(here(e.for_node("n1").to_string())),
    }
}

fn path_text(p: &Path) -> String {
    p.display().to_string()
}

/// The catalog of `manifest` against Puppet's, piece by piece.
fn assert_catalog(manifest: &str, classes: &[&str], expected: &[&str]) {
    let got = compile(manifest, classes).unwrap_or_else(|e| panic!("compile failed: {e}"));
    let got: J = serde_json::from_str(&got).expect("our JSON");
    let want = expected.concat().replacen(
        r#""catalog_uuid":"UUID""#,
        r#""catalog_uuid":"00000000-0000-0000-0000-000000000000""#,
        1,
    );
    let want: J = serde_json::from_str(&want).expect("Puppet's JSON");
    for key in ["resources", "edges"] {
        let (g, w) = (got[key].as_array(), want[key].as_array());
        let (g, w) = (g.expect("our list"), w.expect("Puppet's list"));
        for (i, (g, w)) in g.iter().zip(w).enumerate() {
            assert_eq!(
                serde_json::to_string(g).unwrap(),
                serde_json::to_string(w).unwrap(),
                "{key}[{i}] differs from Puppet's (ours first)"
            );
        }
        assert_eq!(g.len(), w.len(), "how many {key}");
    }
    assert_eq!(
        serde_json::to_string(&got).unwrap(),
        serde_json::to_string(&want).unwrap(),
        "catalog differs from Puppet's (ours first)"
    );
}

/// The error compiling `manifest`, which must hold `part` (what Puppet's
/// catalog raises, inside the evaluator's `Error while evaluating a
/// Resource Statement, ...` and locations).
fn assert_error(manifest: &str, part: &str) {
    match compile(manifest, &[]) {
        Ok(_) => panic!("compiled, but Puppet fails with {part}"),
        Err(e) => assert!(e.contains(part), "error\n  {e}\nwithout Puppet's\n  {part}"),
    }
}

/// Compiles, as Puppet does.
fn assert_compiles(manifest: &str) {
    if let Err(e) = compile(manifest, &[]) {
        panic!("Puppet compiles it; we fail with {e}");
    }
}

/// ```puppet
/// notify { 'x': message => 'hi' }
/// ```
/// The prelude: `Stage[main]` and `Class[main]` keep a `name` parameter (their
/// title is a symbol in Puppet), `Class[Settings]` has no parameters at all;
/// none of the three has `file` or `line`. Catalog keys in Puppet's order,
/// `code_id` null, `catalog_format` 2.
#[test]
fn basic_catalog() {
    assert_catalog(
        r##"notify { 'x': message => 'hi' }
"##,
        &[],
        &[
            r##"{"tags":["settings"],"name":"n1","version":0,"code_id":null,"catalog_uuid":"UUID","catalog_format":2,"environment":"e","resources":["##,
            r##"{"type":"Stage","title":"main","tags":["stage"],"exported":false,"kind":"compilable_type","parameters":{"name":"main"}},"##,
            r##"{"type":"Class","title":"Settings","tags":["class","settings"],"exported":false,"kind":"unknown"},"##,
            r##"{"type":"Class","title":"main","tags":["class"],"exported":false,"kind":"unknown","parameters":{"name":"main"}},"##,
            r##"{"type":"Notify","title":"x","tags":["notify","x","class"],"file":"/tmp/pv/e/manifests/site.pp","line":1,"exported":false,"kind":"compilable_type","parameters":{"message":"hi"}}"##,
            r##"],"edges":["##,
            r##"{"source":"Stage[main]","target":"Class[Settings]"},"##,
            r##"{"source":"Stage[main]","target":"Class[main]"},"##,
            r##"{"source":"Class[main]","target":"Notify[x]"}"##,
            r##"],"classes":["settings"]}"##,
        ],
    );
}

/// ```puppet
/// class foo::bar($p = 1) {
///   notify { 'in_bar': }
/// }
/// define my::thing($msg = undef) {
///   notify { "thing_${title}": message => $msg }
/// }
/// include foo::bar
/// my::thing { 'one': msg => 'hello' }
/// my::thing { 'Two': }
/// file { '/tmp/x': path => '/tmp/x', ensure => file }
/// exec { 'echo hi': command => 'echo hi', path => '/bin' }
/// package { 'vim': ensure => installed, name => 'vim-nox' }
/// ```
/// Classes are `Class[Foo::Bar]`, kind `unknown` and without location when
/// included; defined types are `defined_type`; an undef parameter is dropped;
/// a namevar equal to the title is dropped (`path`, `command`), a `name`
/// parameter goes first; titles that are not tags (`/tmp/x`, `echo hi`) are
/// not tags, others are downcased (`two`); qualified tags split; catalog tags
/// are the classes, then the catalog's own.
#[test]
fn classes_and_defines() {
    assert_catalog(
        r##"class foo::bar($p = 1) {
  notify { 'in_bar': }
}
define my::thing($msg = undef) {
  notify { "thing_${title}": message => $msg }
}
include foo::bar
my::thing { 'one': msg => 'hello' }
my::thing { 'Two': }
file { '/tmp/x': path => '/tmp/x', ensure => file }
exec { 'echo hi': command => 'echo hi', path => '/bin' }
package { 'vim': ensure => installed, name => 'vim-nox' }
"##,
        &[],
        &[
            r##"{"tags":["settings","foo::bar","foo","bar","class"],"name":"n1","version":0,"code_id":null,"catalog_uuid":"UUID","catalog_format":2,"environment":"e","resources":["##,
            r##"{"type":"Stage","title":"main","tags":["stage"],"exported":false,"kind":"compilable_type","parameters":{"name":"main"}},"##,
            r##"{"type":"Class","title":"Settings","tags":["class","settings"],"exported":false,"kind":"unknown"},"##,
            r##"{"type":"Class","title":"main","tags":["class"],"exported":false,"kind":"unknown","parameters":{"name":"main"}},"##,
            r##"{"type":"Class","title":"Foo::Bar","tags":["class","foo::bar","foo","bar"],"exported":false,"kind":"unknown","parameters":{"p":1}},"##,
            r##"{"type":"Notify","title":"in_bar","tags":["notify","in_bar","class","foo::bar","foo","bar"],"file":"/tmp/pv/e/manifests/site.pp","line":2,"exported":false,"kind":"compilable_type"},"##,
            r##"{"type":"My::Thing","title":"one","tags":["my::thing","my","thing","one","class"],"file":"/tmp/pv/e/manifests/site.pp","line":8,"exported":false,"kind":"defined_type","parameters":{"msg":"hello"}},"##,
            r##"{"type":"My::Thing","title":"Two","tags":["my::thing","my","thing","two","class"],"file":"/tmp/pv/e/manifests/site.pp","line":9,"exported":false,"kind":"defined_type"},"##,
            r##"{"type":"File","title":"/tmp/x","tags":["file","class"],"file":"/tmp/pv/e/manifests/site.pp","line":10,"exported":false,"kind":"compilable_type","parameters":{"ensure":"file"}},"##,
            r##"{"type":"Exec","title":"echo hi","tags":["exec","class"],"file":"/tmp/pv/e/manifests/site.pp","line":11,"exported":false,"kind":"compilable_type","parameters":{"path":"/bin"}},"##,
            r##"{"type":"Package","title":"vim","tags":["package","vim","class"],"file":"/tmp/pv/e/manifests/site.pp","line":12,"exported":false,"kind":"compilable_type","parameters":{"name":"vim-nox","ensure":"installed"}},"##,
            r##"{"type":"Notify","title":"thing_one","tags":["notify","thing_one","my::thing","my","thing","one","class"],"file":"/tmp/pv/e/manifests/site.pp","line":5,"exported":false,"kind":"compilable_type","parameters":{"message":"hello"}},"##,
            r##"{"type":"Notify","title":"thing_Two","tags":["notify","thing_two","my::thing","my","thing","two","class"],"file":"/tmp/pv/e/manifests/site.pp","line":5,"exported":false,"kind":"compilable_type"}"##,
            r##"],"edges":["##,
            r##"{"source":"Stage[main]","target":"Class[Settings]"},"##,
            r##"{"source":"Stage[main]","target":"Class[main]"},"##,
            r##"{"source":"Stage[main]","target":"Class[Foo::Bar]"},"##,
            r##"{"source":"Class[Foo::Bar]","target":"Notify[in_bar]"},"##,
            r##"{"source":"Class[main]","target":"My::Thing[one]"},"##,
            r##"{"source":"Class[main]","target":"My::Thing[Two]"},"##,
            r##"{"source":"Class[main]","target":"File[/tmp/x]"},"##,
            r##"{"source":"Class[main]","target":"Exec[echo hi]"},"##,
            r##"{"source":"Class[main]","target":"Package[vim]"},"##,
            r##"{"source":"My::Thing[one]","target":"Notify[thing_one]"},"##,
            r##"{"source":"My::Thing[Two]","target":"Notify[thing_Two]"}"##,
            r##"],"classes":["settings","foo::bar"]}"##,
        ],
    );
}

/// ```puppet
/// notify { 'x': message => undef }
/// notify { 'y':
///   message => [1, 1.0, 2.5, true, 'a', undef, {'k' => 1, 2 => 'two', 'u' => undef}],
///   name    => 'y',
/// }
/// notify { 'floats': message => [1e20, 0.1, 1e15, 1e14, 1e-5, 0.0001, -0.0, 1234567890123456.0, 100.0] }
/// notify { 'big': message => [9223372036854775807, -9223372036854775807 - 1] }
/// notify { 'empty': message => [], withpath => {} }
/// notify { 'undefarr': message => [undef] }
/// notify { 'strings': message => "tab\there \u00e9 \u2028 / \\ \"q\" \u0001 \u001f" }
/// ```
/// A top-level undef parameter is dropped (no `parameters` key at all when
/// none is left), undef inside a value is null; floats print as Ruby prints
/// them; empty arrays and hashes stay; an integer hash key is `"2"`; strings
/// escape only `"`, `\` and control characters
/// (`\u0001`), not `/`, non-ASCII or U+2028.
#[test]
fn values() {
    assert_catalog(
        r##"notify { 'x': message => undef }
notify { 'y':
  message => [1, 1.0, 2.5, true, 'a', undef, {'k' => 1, 2 => 'two', 'u' => undef}],
  name    => 'y',
}
notify { 'floats': message => [1e20, 0.1, 1e15, 1e14, 1e-5, 0.0001, -0.0, 1234567890123456.0, 100.0] }
notify { 'big': message => [9223372036854775807, -9223372036854775807 - 1] }
notify { 'empty': message => [], withpath => {} }
notify { 'undefarr': message => [undef] }
notify { 'strings': message => "tab\there \u00e9 \u2028 / \\ \"q\" \u0001 \u001f" }
"##,
        &[],
        &[
            r##"{"tags":["settings"],"name":"n1","version":0,"code_id":null,"catalog_uuid":"UUID","catalog_format":2,"environment":"e","resources":["##,
            r##"{"type":"Stage","title":"main","tags":["stage"],"exported":false,"kind":"compilable_type","parameters":{"name":"main"}},"##,
            r##"{"type":"Class","title":"Settings","tags":["class","settings"],"exported":false,"kind":"unknown"},"##,
            r##"{"type":"Class","title":"main","tags":["class"],"exported":false,"kind":"unknown","parameters":{"name":"main"}},"##,
            r##"{"type":"Notify","title":"x","tags":["notify","x","class"],"file":"/tmp/pv/e/manifests/site.pp","line":1,"exported":false,"kind":"compilable_type"},"##,
            r##"{"type":"Notify","title":"y","tags":["notify","y","class"],"file":"/tmp/pv/e/manifests/site.pp","line":2,"exported":false,"kind":"compilable_type","parameters":{"message":[1,1.0,2.5,true,"a",null,{"k":1,"2":"two","u":null}]}},"##,
            r##"{"type":"Notify","title":"floats","tags":["notify","floats","class"],"file":"/tmp/pv/e/manifests/site.pp","line":6,"exported":false,"kind":"compilable_type","parameters":{"message":[1.0e+20,0.1,1.0e+15,100000000000000.0,1.0e-05,0.0001,-0.0,1.234567890123456e+15,100.0]}},"##,
            r##"{"type":"Notify","title":"big","tags":["notify","big","class"],"file":"/tmp/pv/e/manifests/site.pp","line":7,"exported":false,"kind":"compilable_type","parameters":{"message":[9223372036854775807,-9223372036854775808]}},"##,
            r##"{"type":"Notify","title":"empty","tags":["notify","empty","class"],"file":"/tmp/pv/e/manifests/site.pp","line":8,"exported":false,"kind":"compilable_type","parameters":{"message":[],"withpath":{}}},"##,
            r##"{"type":"Notify","title":"undefarr","tags":["notify","undefarr","class"],"file":"/tmp/pv/e/manifests/site.pp","line":9,"exported":false,"kind":"compilable_type","parameters":{"message":[null]}},"##,
            r##"{"type":"Notify","title":"strings","tags":["notify","strings","class"],"file":"/tmp/pv/e/manifests/site.pp","line":10,"exported":false,"kind":"compilable_type","parameters":{"message":"tab\there é   / \\ \"q\" \u0001 \u001f"}}"##,
            r##"],"edges":["##,
            r##"{"source":"Stage[main]","target":"Class[Settings]"},"##,
            r##"{"source":"Stage[main]","target":"Class[main]"},"##,
            r##"{"source":"Class[main]","target":"Notify[x]"},"##,
            r##"{"source":"Class[main]","target":"Notify[y]"},"##,
            r##"{"source":"Class[main]","target":"Notify[floats]"},"##,
            r##"{"source":"Class[main]","target":"Notify[big]"},"##,
            r##"{"source":"Class[main]","target":"Notify[empty]"},"##,
            r##"{"source":"Class[main]","target":"Notify[undefarr]"},"##,
            r##"{"source":"Class[main]","target":"Notify[strings]"}"##,
            r##"],"classes":["settings"]}"##,
        ],
    );
}

/// ```puppet
/// class foo::bar {}
/// include foo::bar
/// file { ['/a', '/b']: }
/// notify { 'refs':
///   require => File['/a'],
///   before  => [File['/a'], [File['/b'], Class['foo::bar']]],
///   message => [1, [File['/a']], [2, 3]],
/// }
/// notify { 'refs2':
///   message  => [[1], [2, 3]],
///   withpath => { 'r' => File['/a'], 'l' => [File['/b'], [1]] },
/// }
/// notify { 'refs3': message => Class[foo::bar] }
/// notify { 'refs5': message => Resource['file', '/a'] }
/// notify { 'refs6': message => Notify['refs'] }
/// notify { 'rel': require => [File['/a'], undef, [File['/b'], [undef]]], subscribe => [], before => [[]] }
/// notify { 'refkeys': message => { File['/a'] => 1 } }
/// ```
/// References print as `File[/a]`, `Class[Foo::Bar]`, in
/// values and as hash keys; an array holding a reference is flattened (any
/// parameter, not only relationships), an array without one is not, nor is
/// one inside a hash; relationship arrays are flattened with undef removed;
/// empty relationship arrays stay.
#[test]
fn references() {
    assert_catalog(
        r##"class foo::bar {}
include foo::bar
file { ['/a', '/b']: }
notify { 'refs':
  require => File['/a'],
  before  => [File['/a'], [File['/b'], Class['foo::bar']]],
  message => [1, [File['/a']], [2, 3]],
}
notify { 'refs2':
  message  => [[1], [2, 3]],
  withpath => { 'r' => File['/a'], 'l' => [File['/b'], [1]] },
}
notify { 'refs3': message => Class[foo::bar] }
notify { 'refs5': message => Resource['file', '/a'] }
notify { 'refs6': message => Notify['refs'] }
notify { 'rel': require => [File['/a'], undef, [File['/b'], [undef]]], subscribe => [], before => [[]] }
notify { 'refkeys': message => { File['/a'] => 1 } }
"##,
        &[],
        &[
            r##"{"tags":["settings","foo::bar","foo","bar","class"],"name":"n1","version":0,"code_id":null,"catalog_uuid":"UUID","catalog_format":2,"environment":"e","resources":["##,
            r##"{"type":"Stage","title":"main","tags":["stage"],"exported":false,"kind":"compilable_type","parameters":{"name":"main"}},"##,
            r##"{"type":"Class","title":"Settings","tags":["class","settings"],"exported":false,"kind":"unknown"},"##,
            r##"{"type":"Class","title":"main","tags":["class"],"exported":false,"kind":"unknown","parameters":{"name":"main"}},"##,
            r##"{"type":"Class","title":"Foo::Bar","tags":["class","foo::bar","foo","bar"],"exported":false,"kind":"unknown"},"##,
            r##"{"type":"File","title":"/a","tags":["file","class"],"file":"/tmp/pv/e/manifests/site.pp","line":3,"exported":false,"kind":"compilable_type"},"##,
            r##"{"type":"File","title":"/b","tags":["file","class"],"file":"/tmp/pv/e/manifests/site.pp","line":3,"exported":false,"kind":"compilable_type"},"##,
            r##"{"type":"Notify","title":"refs","tags":["notify","refs","class"],"file":"/tmp/pv/e/manifests/site.pp","line":4,"exported":false,"kind":"compilable_type","parameters":{"require":"File[/a]","before":["File[/a]","File[/b]","Class[Foo::Bar]"],"message":[1,"File[/a]",2,3]}},"##,
            r##"{"type":"Notify","title":"refs2","tags":["notify","refs2","class"],"file":"/tmp/pv/e/manifests/site.pp","line":9,"exported":false,"kind":"compilable_type","parameters":{"message":[[1],[2,3]],"withpath":{"r":"File[/a]","l":["File[/b]",[1]]}}},"##,
            r##"{"type":"Notify","title":"refs3","tags":["notify","refs3","class"],"file":"/tmp/pv/e/manifests/site.pp","line":13,"exported":false,"kind":"compilable_type","parameters":{"message":"Class[Foo::Bar]"}},"##,
            r##"{"type":"Notify","title":"refs5","tags":["notify","refs5","class"],"file":"/tmp/pv/e/manifests/site.pp","line":14,"exported":false,"kind":"compilable_type","parameters":{"message":"File[/a]"}},"##,
            r##"{"type":"Notify","title":"refs6","tags":["notify","refs6","class"],"file":"/tmp/pv/e/manifests/site.pp","line":15,"exported":false,"kind":"compilable_type","parameters":{"message":"Notify[refs]"}},"##,
            r##"{"type":"Notify","title":"rel","tags":["notify","rel","class"],"file":"/tmp/pv/e/manifests/site.pp","line":16,"exported":false,"kind":"compilable_type","parameters":{"require":["File[/a]","File[/b]"],"subscribe":[],"before":[]}},"##,
            r##"{"type":"Notify","title":"refkeys","tags":["notify","refkeys","class"],"file":"/tmp/pv/e/manifests/site.pp","line":17,"exported":false,"kind":"compilable_type","parameters":{"message":{"File[/a]":1}}}"##,
            r##"],"edges":["##,
            r##"{"source":"Stage[main]","target":"Class[Settings]"},"##,
            r##"{"source":"Stage[main]","target":"Class[main]"},"##,
            r##"{"source":"Stage[main]","target":"Class[Foo::Bar]"},"##,
            r##"{"source":"Class[main]","target":"File[/a]"},"##,
            r##"{"source":"Class[main]","target":"File[/b]"},"##,
            r##"{"source":"Class[main]","target":"Notify[refs]"},"##,
            r##"{"source":"Class[main]","target":"Notify[refs2]"},"##,
            r##"{"source":"Class[main]","target":"Notify[refs3]"},"##,
            r##"{"source":"Class[main]","target":"Notify[refs5]"},"##,
            r##"{"source":"Class[main]","target":"Notify[refs6]"},"##,
            r##"{"source":"Class[main]","target":"Notify[rel]"},"##,
            r##"{"source":"Class[main]","target":"Notify[refkeys]"}"##,
            r##"],"classes":["settings","foo::bar"]}"##,
        ],
    );
}

/// ```puppet
/// notify { 'regex': message => /ab+c\/d/ }
/// notify { 'default': message => default }
/// notify { 'sens': message => Sensitive('secret') }
/// notify { 'sensarr': message => [Sensitive('a'), 1] }
/// notify { 'keys': message => {1 => 'a', 'b' => 2, [1, 'x', undef] => 3, undef => 4, default => 5, 1.5 => 6, true => 7, /r/ => 8, {'h' => 1} => 9} }
/// notify { 'ptype': message => {'__ptype' => 'x'} }
/// notify { 'types': message => [Any] }
/// notify { 'nested': message => {'a' => {1 => /x/}} }
/// notify { 'deflist': message => [default, /y/] }
/// ```
/// Regexps as `"/src/"` (`/` escaped), default as `"default"`, keys as
/// Ruby's `to_s` (`""` for undef, `[1, "x", nil]`, `{"h"=>1}`), types by
/// name; a top-level Sensitive is unwrapped and listed in
/// `sensitive_parameters`, a nested one is a `__ptype` Sensitive.
#[test]
fn plain_values() {
    assert_catalog(
        r##"notify { 'regex': message => /ab+c\/d/ }
notify { 'default': message => default }
notify { 'sens': message => Sensitive('secret') }
notify { 'sensarr': message => [Sensitive('a'), 1] }
notify { 'keys': message => {1 => 'a', 'b' => 2, [1, 'x', undef] => 3, undef => 4, default => 5, 1.5 => 6, true => 7, /r/ => 8, {'h' => 1} => 9} }
notify { 'ptype': message => {'__ptype' => 'x'} }
notify { 'types': message => [Any] }
notify { 'nested': message => {'a' => {1 => /x/}} }
notify { 'deflist': message => [default, /y/] }
"##,
        &[],
        &[
            r##"{"tags":["settings"],"name":"n1","version":0,"code_id":null,"catalog_uuid":"UUID","catalog_format":2,"environment":"e","resources":["##,
            r##"{"type":"Stage","title":"main","tags":["stage"],"exported":false,"kind":"compilable_type","parameters":{"name":"main"}},"##,
            r##"{"type":"Class","title":"Settings","tags":["class","settings"],"exported":false,"kind":"unknown"},"##,
            r##"{"type":"Class","title":"main","tags":["class"],"exported":false,"kind":"unknown","parameters":{"name":"main"}},"##,
            r##"{"type":"Notify","title":"regex","tags":["notify","regex","class"],"file":"/tmp/pv/e/manifests/site.pp","line":1,"exported":false,"kind":"compilable_type","parameters":{"message":"/ab+c\\/d/"}},"##,
            r##"{"type":"Notify","title":"default","tags":["notify","default","class"],"file":"/tmp/pv/e/manifests/site.pp","line":2,"exported":false,"kind":"compilable_type","parameters":{"message":"default"}},"##,
            r##"{"type":"Notify","title":"sens","tags":["notify","sens","class"],"file":"/tmp/pv/e/manifests/site.pp","line":3,"exported":false,"kind":"compilable_type","parameters":{"message":"secret"},"sensitive_parameters":["message"]},"##,
            r##"{"type":"Notify","title":"sensarr","tags":["notify","sensarr","class"],"file":"/tmp/pv/e/manifests/site.pp","line":4,"exported":false,"kind":"compilable_type","parameters":{"message":[{"__ptype":"Sensitive","__pvalue":"a"},1]}},"##,
            r##"{"type":"Notify","title":"keys","tags":["notify","keys","class"],"file":"/tmp/pv/e/manifests/site.pp","line":5,"exported":false,"kind":"compilable_type","parameters":{"message":{"1":"a","b":2,"[1, \"x\", nil]":3,"":4,"default":5,"1.5":6,"true":7,"/r/":8,"{\"h\"=>1}":9}}},"##,
            r##"{"type":"Notify","title":"ptype","tags":["notify","ptype","class"],"file":"/tmp/pv/e/manifests/site.pp","line":6,"exported":false,"kind":"compilable_type","parameters":{"message":{"__ptype":"x"}}},"##,
            r##"{"type":"Notify","title":"types","tags":["notify","types","class"],"file":"/tmp/pv/e/manifests/site.pp","line":7,"exported":false,"kind":"compilable_type","parameters":{"message":["Any"]}},"##,
            r##"{"type":"Notify","title":"nested","tags":["notify","nested","class"],"file":"/tmp/pv/e/manifests/site.pp","line":8,"exported":false,"kind":"compilable_type","parameters":{"message":{"a":{"1":"/x/"}}}},"##,
            r##"{"type":"Notify","title":"deflist","tags":["notify","deflist","class"],"file":"/tmp/pv/e/manifests/site.pp","line":9,"exported":false,"kind":"compilable_type","parameters":{"message":["default","/y/"]}}"##,
            r##"],"edges":["##,
            r##"{"source":"Stage[main]","target":"Class[Settings]"},"##,
            r##"{"source":"Stage[main]","target":"Class[main]"},"##,
            r##"{"source":"Class[main]","target":"Notify[regex]"},"##,
            r##"{"source":"Class[main]","target":"Notify[default]"},"##,
            r##"{"source":"Class[main]","target":"Notify[sens]"},"##,
            r##"{"source":"Class[main]","target":"Notify[sensarr]"},"##,
            r##"{"source":"Class[main]","target":"Notify[keys]"},"##,
            r##"{"source":"Class[main]","target":"Notify[ptype]"},"##,
            r##"{"source":"Class[main]","target":"Notify[types]"},"##,
            r##"{"source":"Class[main]","target":"Notify[nested]"},"##,
            r##"{"source":"Class[main]","target":"Notify[deflist]"}"##,
            r##"],"classes":["settings"]}"##,
        ],
    );
}

/// ```puppet
/// stage { 'pre': before => Stage['main'] }
/// class early { notify { 'early': } }
/// class withp($x, $y = undef) { }
/// class { 'early': stage => 'pre' }
/// class { 'withp': x => 'X' }
/// @notify { 'virt': }
/// @notify { 'virt_realized': }
/// realize(Notify['virt_realized'])
/// @@notify { 'exp': message => 'e' }
/// @@file { '/exp2': }
/// File <<| title == '/exp2' |>>
/// notify { 'tagged': tag => ['Foo::Bar', 'baz', 'FOO'], alias => 'tagged_alias' }
/// node default {
///   notify { 'in_node': }
/// }
/// ```
/// Resource-like classes are kind `class` with file and line; a stage is a
/// `compilable_type` with no container edge; a virtual resource not realized
/// is left out with its edge, a realized one is an ordinary resource;
/// exported resources are in, `"exported": true`, collected or not; the
/// `tag` metaparameter's tags come first; a node is `Node[default]`, kind
/// `unknown`, without location.
#[test]
fn virtual_exported_stages_nodes() {
    assert_catalog(
        r##"stage { 'pre': before => Stage['main'] }
class early { notify { 'early': } }
class withp($x, $y = undef) { }
class { 'early': stage => 'pre' }
class { 'withp': x => 'X' }
@notify { 'virt': }
@notify { 'virt_realized': }
realize(Notify['virt_realized'])
@@notify { 'exp': message => 'e' }
@@file { '/exp2': }
File <<| title == '/exp2' |>>
notify { 'tagged': tag => ['Foo::Bar', 'baz', 'FOO'], alias => 'tagged_alias' }
node default {
  notify { 'in_node': }
}
"##,
        &[],
        &[
            r##"{"tags":["settings","early","withp","default","class","node"],"name":"n1","version":0,"code_id":null,"catalog_uuid":"UUID","catalog_format":2,"environment":"e","resources":["##,
            r##"{"type":"Stage","title":"main","tags":["stage"],"exported":false,"kind":"compilable_type","parameters":{"name":"main"}},"##,
            r##"{"type":"Class","title":"Settings","tags":["class","settings"],"exported":false,"kind":"unknown"},"##,
            r##"{"type":"Class","title":"main","tags":["class"],"exported":false,"kind":"unknown","parameters":{"name":"main"}},"##,
            r##"{"type":"Stage","title":"pre","tags":["stage","pre","class"],"file":"/tmp/pv/e/manifests/site.pp","line":1,"exported":false,"kind":"compilable_type","parameters":{"before":"Stage[main]"}},"##,
            r##"{"type":"Class","title":"Early","tags":["class","early"],"file":"/tmp/pv/e/manifests/site.pp","line":4,"exported":false,"kind":"class","parameters":{"stage":"pre"}},"##,
            r##"{"type":"Notify","title":"early","tags":["notify","early","class"],"file":"/tmp/pv/e/manifests/site.pp","line":2,"exported":false,"kind":"compilable_type"},"##,
            r##"{"type":"Class","title":"Withp","tags":["class","withp"],"file":"/tmp/pv/e/manifests/site.pp","line":5,"exported":false,"kind":"class","parameters":{"x":"X"}},"##,
            r##"{"type":"Notify","title":"virt_realized","tags":["notify","virt_realized","class"],"file":"/tmp/pv/e/manifests/site.pp","line":7,"exported":false,"kind":"compilable_type"},"##,
            r##"{"type":"Notify","title":"exp","tags":["notify","exp","class"],"file":"/tmp/pv/e/manifests/site.pp","line":9,"exported":true,"kind":"compilable_type","parameters":{"message":"e"}},"##,
            r##"{"type":"File","title":"/exp2","tags":["file","class"],"file":"/tmp/pv/e/manifests/site.pp","line":10,"exported":true,"kind":"compilable_type"},"##,
            r##"{"type":"Notify","title":"tagged","tags":["foo::bar","foo","bar","baz","notify","tagged","class"],"file":"/tmp/pv/e/manifests/site.pp","line":12,"exported":false,"kind":"compilable_type","parameters":{"tag":["Foo::Bar","baz","FOO"],"alias":"tagged_alias"}},"##,
            r##"{"type":"Node","title":"default","tags":["node","default","class"],"exported":false,"kind":"unknown"},"##,
            r##"{"type":"Notify","title":"in_node","tags":["notify","in_node","node","default","class"],"file":"/tmp/pv/e/manifests/site.pp","line":14,"exported":false,"kind":"compilable_type"}"##,
            r##"],"edges":["##,
            r##"{"source":"Stage[main]","target":"Class[Settings]"},"##,
            r##"{"source":"Stage[main]","target":"Class[main]"},"##,
            r##"{"source":"Stage[pre]","target":"Class[Early]"},"##,
            r##"{"source":"Class[Early]","target":"Notify[early]"},"##,
            r##"{"source":"Stage[main]","target":"Class[Withp]"},"##,
            r##"{"source":"Class[main]","target":"Notify[virt_realized]"},"##,
            r##"{"source":"Class[main]","target":"Notify[exp]"},"##,
            r##"{"source":"Class[main]","target":"File[/exp2]"},"##,
            r##"{"source":"Class[main]","target":"Notify[tagged]"},"##,
            r##"{"source":"Class[main]","target":"Node[default]"},"##,
            r##"{"source":"Node[default]","target":"Notify[in_node]"}"##,
            r##"],"classes":["settings","early","withp","default"]}"##,
        ],
    );
}

/// ```puppet
/// class sens($p, $q = 'plain') {}
/// class { 'sens': p => Sensitive('x') }
/// file { '/x': name => '/x', ensure => file }
/// file { '/y': ensure => file, name => '/yy' }
/// file { '/z': mode => '0644', path => '/zz' }
/// file { '/tmp/d/': ensure => directory }
/// file { '/tmp/e//': path => '/tmp/e//' }
/// file { '/': }
/// file { '/w': path => '/w1', name => '/w2' }
/// notify { 'n': message => 'm', name => 'other' }
/// exec { 'e': command => 'e2' }
/// tidy { '/t': path => '/t' }
/// service { 'svc': name => 'svc' }
/// notify { 'Caps Title': message => 'x', tag => ['ünï'] }
/// ```
/// The namevar (`path`, `command`, `name`) comes first whatever the order
/// written; `name` sets it; a File's value from its title loses trailing
/// slashes (so `/tmp/d/` gets `path` `/tmp/d`); the namevar is left out
/// exactly when it equals the title. A Sensitive class parameter is
/// unwrapped and listed.
#[test]
fn namevars_and_sensitive() {
    assert_catalog(
        r##"class sens($p, $q = 'plain') {}
class { 'sens': p => Sensitive('x') }
file { '/x': name => '/x', ensure => file }
file { '/y': ensure => file, name => '/yy' }
file { '/z': mode => '0644', path => '/zz' }
file { '/tmp/d/': ensure => directory }
file { '/tmp/e//': path => '/tmp/e//' }
file { '/': }
file { '/w': path => '/w1', name => '/w2' }
notify { 'n': message => 'm', name => 'other' }
exec { 'e': command => 'e2' }
tidy { '/t': path => '/t' }
service { 'svc': name => 'svc' }
notify { 'Caps Title': message => 'x', tag => ['ünï'] }
"##,
        &[],
        &[
            r##"{"tags":["settings","sens","class"],"name":"n1","version":0,"code_id":null,"catalog_uuid":"UUID","catalog_format":2,"environment":"e","resources":["##,
            r##"{"type":"Stage","title":"main","tags":["stage"],"exported":false,"kind":"compilable_type","parameters":{"name":"main"}},"##,
            r##"{"type":"Class","title":"Settings","tags":["class","settings"],"exported":false,"kind":"unknown"},"##,
            r##"{"type":"Class","title":"main","tags":["class"],"exported":false,"kind":"unknown","parameters":{"name":"main"}},"##,
            r##"{"type":"Class","title":"Sens","tags":["class","sens"],"file":"/tmp/pv/e/manifests/site.pp","line":2,"exported":false,"kind":"class","parameters":{"p":"x","q":"plain"},"sensitive_parameters":["p"]},"##,
            r##"{"type":"File","title":"/x","tags":["file","class"],"file":"/tmp/pv/e/manifests/site.pp","line":3,"exported":false,"kind":"compilable_type","parameters":{"ensure":"file"}},"##,
            r##"{"type":"File","title":"/y","tags":["file","class"],"file":"/tmp/pv/e/manifests/site.pp","line":4,"exported":false,"kind":"compilable_type","parameters":{"path":"/yy","ensure":"file"}},"##,
            r##"{"type":"File","title":"/z","tags":["file","class"],"file":"/tmp/pv/e/manifests/site.pp","line":5,"exported":false,"kind":"compilable_type","parameters":{"path":"/zz","mode":"0644"}},"##,
            r##"{"type":"File","title":"/tmp/d/","tags":["file","class"],"file":"/tmp/pv/e/manifests/site.pp","line":6,"exported":false,"kind":"compilable_type","parameters":{"path":"/tmp/d","ensure":"directory"}},"##,
            r##"{"type":"File","title":"/tmp/e//","tags":["file","class"],"file":"/tmp/pv/e/manifests/site.pp","line":7,"exported":false,"kind":"compilable_type"},"##,
            r##"{"type":"File","title":"/","tags":["file","class"],"file":"/tmp/pv/e/manifests/site.pp","line":8,"exported":false,"kind":"compilable_type"},"##,
            r##"{"type":"File","title":"/w","tags":["file","class"],"file":"/tmp/pv/e/manifests/site.pp","line":9,"exported":false,"kind":"compilable_type","parameters":{"path":"/w2"}},"##,
            r##"{"type":"Notify","title":"n","tags":["notify","n","class"],"file":"/tmp/pv/e/manifests/site.pp","line":10,"exported":false,"kind":"compilable_type","parameters":{"name":"other","message":"m"}},"##,
            r##"{"type":"Exec","title":"e","tags":["exec","e","class"],"file":"/tmp/pv/e/manifests/site.pp","line":11,"exported":false,"kind":"compilable_type","parameters":{"command":"e2"}},"##,
            r##"{"type":"Tidy","title":"/t","tags":["tidy","class"],"file":"/tmp/pv/e/manifests/site.pp","line":12,"exported":false,"kind":"compilable_type"},"##,
            r##"{"type":"Service","title":"svc","tags":["service","svc","class"],"file":"/tmp/pv/e/manifests/site.pp","line":13,"exported":false,"kind":"compilable_type"},"##,
            r##"{"type":"Notify","title":"Caps Title","tags":["ünï","notify","class"],"file":"/tmp/pv/e/manifests/site.pp","line":14,"exported":false,"kind":"compilable_type","parameters":{"message":"x","tag":["ünï"]}}"##,
            r##"],"edges":["##,
            r##"{"source":"Stage[main]","target":"Class[Settings]"},"##,
            r##"{"source":"Stage[main]","target":"Class[main]"},"##,
            r##"{"source":"Stage[main]","target":"Class[Sens]"},"##,
            r##"{"source":"Class[main]","target":"File[/x]"},"##,
            r##"{"source":"Class[main]","target":"File[/y]"},"##,
            r##"{"source":"Class[main]","target":"File[/z]"},"##,
            r##"{"source":"Class[main]","target":"File[/tmp/d/]"},"##,
            r##"{"source":"Class[main]","target":"File[/tmp/e//]"},"##,
            r##"{"source":"Class[main]","target":"File[/]"},"##,
            r##"{"source":"Class[main]","target":"File[/w]"},"##,
            r##"{"source":"Class[main]","target":"Notify[n]"},"##,
            r##"{"source":"Class[main]","target":"Exec[e]"},"##,
            r##"{"source":"Class[main]","target":"Tidy[/t]"},"##,
            r##"{"source":"Class[main]","target":"Service[svc]"},"##,
            r##"{"source":"Class[main]","target":"Notify[Caps Title]"}"##,
            r##"],"classes":["settings","sens"]}"##,
        ],
    );
}

/// ```puppet
/// class foo::bar {}
/// class baz {}
/// include baz
/// ```
/// with the ENC classes `foo::bar`, `baz`, `foo::bar`
/// (`Puppet::Node.new('n1', classes: [...])`). Puppet's `classes` keeps
/// duplicates: the ENC's list first, then each class again when evaluated.
/// The catalog tags start with the classes in that order.
#[test]
fn enc_classes_are_listed_twice() {
    assert_catalog(
        r##"class foo::bar {}
class baz {}
include baz
"##,
        &["foo::bar", "baz", "foo::bar"],
        &[
            r##"{"tags":["foo::bar","foo","bar","baz","settings","class"],"name":"n1","version":0,"code_id":null,"catalog_uuid":"UUID","catalog_format":2,"environment":"e","resources":["##,
            r##"{"type":"Stage","title":"main","tags":["stage"],"exported":false,"kind":"compilable_type","parameters":{"name":"main"}},"##,
            r##"{"type":"Class","title":"Settings","tags":["class","settings"],"exported":false,"kind":"unknown"},"##,
            r##"{"type":"Class","title":"main","tags":["class"],"exported":false,"kind":"unknown","parameters":{"name":"main"}},"##,
            r##"{"type":"Class","title":"Baz","tags":["class","baz"],"exported":false,"kind":"unknown"},"##,
            r##"{"type":"Class","title":"Foo::Bar","tags":["class","foo::bar","foo","bar"],"exported":false,"kind":"unknown"}"##,
            r##"],"edges":["##,
            r##"{"source":"Stage[main]","target":"Class[Settings]"},"##,
            r##"{"source":"Stage[main]","target":"Class[main]"},"##,
            r##"{"source":"Stage[main]","target":"Class[Baz]"},"##,
            r##"{"source":"Stage[main]","target":"Class[Foo::Bar]"}"##,
            r##"],"classes":["foo::bar","baz","foo::bar","settings","baz","foo::bar"]}"##,
        ],
    );
}

/// ```puppet
/// class b {}
/// class x { contain b }
/// include b
/// notify { 'n': }
/// include x
/// @notify { 'virt': }
/// class y { @notify { 'in_y': } }
/// include y
/// ```
/// Edges are grouped by target in resource order: `Class[X] -> Class[B]`,
/// added last but one, is written right after `Stage[main] -> Class[B]`;
/// virtual resources are left out with their edges.
#[test]
fn edges_grouped_by_target() {
    assert_catalog(
        r##"class b {}
class x { contain b }
include b
notify { 'n': }
include x
@notify { 'virt': }
class y { @notify { 'in_y': } }
include y
"##,
        &[],
        &[
            r##"{"tags":["settings","b","x","y","class"],"name":"n1","version":0,"code_id":null,"catalog_uuid":"UUID","catalog_format":2,"environment":"e","resources":["##,
            r##"{"type":"Stage","title":"main","tags":["stage"],"exported":false,"kind":"compilable_type","parameters":{"name":"main"}},"##,
            r##"{"type":"Class","title":"Settings","tags":["class","settings"],"exported":false,"kind":"unknown"},"##,
            r##"{"type":"Class","title":"main","tags":["class"],"exported":false,"kind":"unknown","parameters":{"name":"main"}},"##,
            r##"{"type":"Class","title":"B","tags":["class","b"],"exported":false,"kind":"unknown"},"##,
            r##"{"type":"Notify","title":"n","tags":["notify","n","class"],"file":"/tmp/pv/e/manifests/site.pp","line":4,"exported":false,"kind":"compilable_type"},"##,
            r##"{"type":"Class","title":"X","tags":["class","x"],"exported":false,"kind":"unknown"},"##,
            r##"{"type":"Class","title":"Y","tags":["class","y"],"exported":false,"kind":"unknown"}"##,
            r##"],"edges":["##,
            r##"{"source":"Stage[main]","target":"Class[Settings]"},"##,
            r##"{"source":"Stage[main]","target":"Class[main]"},"##,
            r##"{"source":"Stage[main]","target":"Class[B]"},"##,
            r##"{"source":"Class[X]","target":"Class[B]"},"##,
            r##"{"source":"Class[main]","target":"Notify[n]"},"##,
            r##"{"source":"Stage[main]","target":"Class[X]"},"##,
            r##"{"source":"Stage[main]","target":"Class[Y]"}"##,
            r##"],"classes":["settings","b","x","y"]}"##,
        ],
    );
}

/// Duplicate titles and aliases, with Puppet's messages (the part Puppet's
/// catalog raises; the evaluator wraps it in `Error while evaluating a
/// Resource Statement, ...` and the locations). Each manifest has its two
/// declarations on lines 1 and 2.
#[test]
fn duplicates_and_aliases() {
    assert_error(
        "notify {'a':}\nnotify {'a':}\n",
        &format!("Duplicate declaration: Notify[a] is already declared at (file: {F}, line: 1); cannot redeclare"),
    );
    assert_error(
        "notify {'a': alias => 'b'}\nnotify {'b':}\n",
        &format!("Duplicate declaration: Notify[b] is already declared at (file: {F}, line: 1); cannot redeclare"),
    );
    assert_error(
        "notify {'b':}\nnotify {'a': alias => 'b'}\n",
        &format!(
            "Cannot alias Notify[a] to \"b\" at (file: {F}, line: 2); resource [\"Notify\", \"b\"] already declared (file: {F}, line: 1)"
        ),
    );
    assert_error(
        "file { '/tmp/d': }\nfile { '/tmp/d/': }\n",
        &format!(
            "Cannot alias File[/tmp/d/] to [\"/tmp/d\"] at (file: {F}, line: 2); resource [\"File\", \"/tmp/d\"] already declared (file: {F}, line: 1)"
        ),
    );
    assert_error(
        "file { '/tmp/d/': }\nfile { '/tmp/d': }\n",
        &format!("Duplicate declaration: File[/tmp/d] is already declared at (file: {F}, line: 1); cannot redeclare"),
    );
    assert_error(
        "package {'vim':}\npackage {'vim2': name => 'vim'}\n",
        &format!(
            "Cannot alias Package[vim2] to [nil, \"vim\", nil] at (file: {F}, line: 2); resource [\"Package\", nil, \"vim\", nil] already declared (file: {F}, line: 1)"
        ),
    );
    assert_compiles(
        "package {'vim': provider => apt}\npackage {'vim2': name => 'vim', provider => pip}\n",
    );
    assert_error(
        "notify {'n': name => 'other'}\nnotify {'other':}\n",
        &format!("Duplicate declaration: Notify[other] is already declared at (file: {F}, line: 1); cannot redeclare"),
    );
    // Exec is not isomorphic: its command is no alias. A File declared with
    // `name` is keyed by its `path` (from the title), not by `name`.
    assert_compiles(
        "exec {'a': command => '/bin/true'}\nexec {'b': command => '/bin/true'}\nfile {'/y': name => '/z'}\nfile {'/z':}\n",
    );
    // No location for the first: an included class has none.
    assert_error(
        "class foo {}\ninclude foo\nclass {'foo':}\n",
        "Duplicate declaration: Class[Foo] is already declared; cannot redeclare",
    );
}
