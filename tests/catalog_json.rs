//! The catalog's JSON, rule by rule, against Puppet 7.23.
//!
//! Each test builds by hand the catalog Puppet compiles from a small manifest
//! (quoted in the test) and compares our bytes with Puppet's. The expected
//! texts are Puppet's own output, pasted: the catalog of
//! `Puppet::Parser::Compiler.compile(node)` (which is already the
//! `to_resource` catalog; converting it again was checked to change nothing)
//! for node `n1` in environment `e`, manifest `/tmp/pv/e/manifests/site.pp`,
//! written by its `to_json` (compact; split into one piece per resource and
//! edge for readable failures) or by `JSON.pretty_generate(to_data_hash)`.
//! "rich" is inside `Puppet.override(rich_data: true)` (what a Puppet 7
//! server sends agents), "plain" is without it (a bare compile in a script).
//! Puppet's `version` and random `catalog_uuid` are replaced by `0` and
//! `UUID` on both sides.

use std::sync::Arc;

use puppet_compiler::catalog::{Catalog, CatalogError, JsonOptions, Kind, Resource, ResourceId};
use puppet_compiler::eval::Value;
use puppet_model::types::PType;

const F: &str = "/tmp/pv/e/manifests/site.pp";

fn s(x: &str) -> Value {
    Value::string(x)
}

fn arr(items: Vec<Value>) -> Value {
    Value::array(items)
}

fn hash(pairs: Vec<(Value, Value)>) -> Value {
    Value::hash(pairs.into_iter().collect())
}

/// `File['/a']` as the evaluator holds it.
fn reference(type_name: &str, title: &str) -> Value {
    Value::Type(Arc::new(PType::Resource {
        type_name: Some(type_name.into()),
        title: Some(title.into()),
    }))
}

/// `Class['foo::bar']`.
fn class_ref(name: &str) -> Value {
    Value::Type(Arc::new(PType::Class(Some(name.into()))))
}

fn sensitive(v: Value) -> Value {
    Value::Sensitive(Arc::new(v))
}

fn regexp(source: &str) -> Value {
    Value::Regexp(source.into())
}

/// A resource under construction, tagged as Puppet tags a new resource.
struct R(Resource);

impl R {
    fn new(type_name: &str, title: &str, kind: Kind) -> R {
        let mut r = Resource::new(type_name, title, kind);
        r.tag_type_and_title();
        R(r)
    }

    /// With a `tag` metaparameter: its tags come before the type's.
    fn tagged_first(type_name: &str, title: &str, kind: Kind, tags: &[&str]) -> R {
        let mut r = Resource::new(type_name, title, kind);
        r.tags.tag_all(tags).unwrap();
        r.tag_type_and_title();
        R(r)
    }

    fn notify(title: &str, line: u32) -> R {
        R::new("notify", title, Kind::CompilableType).line(line)
    }

    fn line(mut self, line: u32) -> R {
        self.0.file = Some(F.into());
        self.0.line = Some(line);
        self
    }

    fn p(mut self, name: &str, value: Value) -> R {
        self.0.set(name, value);
        self
    }

    /// Tags from the container (scope tags, added when evaluation finishes).
    fn tags(mut self, tags: &[&str]) -> R {
        self.0.tags.tag_all(tags).unwrap();
        self
    }

    fn add(self, cat: &mut Catalog, container: ResourceId) -> ResourceId {
        let id = cat.add_resource(self.0).unwrap();
        cat.add_edge(container, id);
        id
    }
}

/// What every catalog starts with: `Stage[main]`, `Class[Settings]` and
/// `Class[main]`, the main stage containing both classes, and the class
/// `settings`. Returns the catalog, the main stage and the main class.
fn prelude() -> (Catalog, ResourceId, ResourceId) {
    let mut cat = Catalog::new("n1", "e", 0);
    let stage = cat
        .add_resource(R::new("stage", "main", Kind::CompilableType).0)
        .unwrap();
    let settings = cat
        .add_resource(R::new("class", "settings", Kind::Unknown).0)
        .unwrap();
    let main = cat
        .add_resource(R::new("class", "", Kind::Unknown).0)
        .unwrap();
    cat.add_edge(stage, settings);
    cat.add_edge(stage, main);
    cat.add_class("settings");
    (cat, stage, main)
}

/// Our compact JSON against Puppet's, piece by piece.
fn assert_json(cat: &Catalog, opts: JsonOptions, expected: &[&str]) {
    let got = cat
        .to_json_string_with(opts)
        .replacen(&format!("\"version\":{}", cat.version), "\"version\":0", 1)
        .replacen(&cat.catalog_uuid(), "UUID", 1);
    let want = expected.concat();
    if got != want {
        let mut rest = got.as_str();
        for piece in expected {
            if let Some(r) = rest.strip_prefix(piece) {
                rest = r;
            } else {
                let n = piece.len().min(rest.len());
                panic!(
                    "catalog JSON differs from Puppet's\n  puppet: {piece}\n  ours:   {}",
                    &rest[..rest.floor_char_boundary(n + 40)]
                );
            }
        }
        panic!("catalog JSON has extra text: {rest}");
    }
}

fn assert_pretty(cat: &Catalog, opts: JsonOptions, expected: &str) {
    let got = cat
        .to_json_pretty_with(opts)
        .replacen(
            &format!("\"version\": {},", cat.version),
            "\"version\": 0,",
            1,
        )
        .replacen(&cat.catalog_uuid(), "UUID", 1);
    for (i, (g, w)) in got.lines().zip(expected.lines()).enumerate() {
        assert_eq!(g, w, "line {}", i + 1);
    }
    assert_eq!(got, expected.trim_end_matches('\n'));
}

/// ```puppet
/// notify { 'x': message => 'hi' }
/// ```
/// The prelude: `Stage[main]` and `Class[main]` keep a `name` parameter (their
/// title is a symbol in Puppet), `Class[Settings]` has no parameters at all;
/// none of the three has `file` or `line`. Catalog keys in Puppet's order,
/// `code_id` null, `catalog_format` 2. Checked as pretty-printed bytes too.
#[test]
fn basic_catalog() {
    let (mut cat, _, main) = prelude();
    R::notify("x", 1)
        .p("message", s("hi"))
        .tags(&["class"])
        .add(&mut cat, main);
    assert_json(
        &cat,
        JsonOptions::RICH,
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
    assert_pretty(
        &cat,
        JsonOptions::RICH,
        r##"{
  "tags": [
    "settings"
  ],
  "name": "n1",
  "version": 0,
  "code_id": null,
  "catalog_uuid": "UUID",
  "catalog_format": 2,
  "environment": "e",
  "resources": [
    {
      "type": "Stage",
      "title": "main",
      "tags": [
        "stage"
      ],
      "exported": false,
      "kind": "compilable_type",
      "parameters": {
        "name": "main"
      }
    },
    {
      "type": "Class",
      "title": "Settings",
      "tags": [
        "class",
        "settings"
      ],
      "exported": false,
      "kind": "unknown"
    },
    {
      "type": "Class",
      "title": "main",
      "tags": [
        "class"
      ],
      "exported": false,
      "kind": "unknown",
      "parameters": {
        "name": "main"
      }
    },
    {
      "type": "Notify",
      "title": "x",
      "tags": [
        "notify",
        "x",
        "class"
      ],
      "file": "/tmp/pv/e/manifests/site.pp",
      "line": 1,
      "exported": false,
      "kind": "compilable_type",
      "parameters": {
        "message": "hi"
      }
    }
  ],
  "edges": [
    {
      "source": "Stage[main]",
      "target": "Class[Settings]"
    },
    {
      "source": "Stage[main]",
      "target": "Class[main]"
    },
    {
      "source": "Class[main]",
      "target": "Notify[x]"
    }
  ],
  "classes": [
    "settings"
  ]
}"##,
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
    let (mut cat, stage, main) = prelude();
    let foo_bar = cat
        .add_resource(
            R::new("class", "foo::bar", Kind::Unknown)
                .p("p", Value::Integer(1))
                .0,
        )
        .unwrap();
    cat.add_edge(stage, foo_bar);
    cat.add_class("foo::bar");
    cat.tags.tag("class").unwrap();
    R::notify("in_bar", 2)
        .tags(&["class", "foo::bar"])
        .add(&mut cat, foo_bar);
    let one = R::new("my::thing", "one", Kind::DefinedType)
        .line(8)
        .p("msg", s("hello"))
        .tags(&["class"])
        .add(&mut cat, main);
    let two = R::new("my::thing", "Two", Kind::DefinedType)
        .line(9)
        .p("msg", Value::Undef)
        .tags(&["class"])
        .add(&mut cat, main);
    R::new("file", "/tmp/x", Kind::CompilableType)
        .line(10)
        .p("path", s("/tmp/x"))
        .p("ensure", s("file"))
        .tags(&["class"])
        .add(&mut cat, main);
    R::new("exec", "echo hi", Kind::CompilableType)
        .line(11)
        .p("command", s("echo hi"))
        .p("path", s("/bin"))
        .tags(&["class"])
        .add(&mut cat, main);
    R::new("package", "vim", Kind::CompilableType)
        .line(12)
        .p("ensure", s("installed"))
        .p("name", s("vim-nox"))
        .tags(&["class"])
        .add(&mut cat, main);
    R::notify("thing_one", 5)
        .p("message", s("hello"))
        .tags(&["my::thing", "one", "class"])
        .add(&mut cat, one);
    R::notify("thing_Two", 5)
        .p("message", Value::Undef)
        .tags(&["my::thing", "two", "class"])
        .add(&mut cat, two);

    let expected = [
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
    ];
    assert_json(&cat, JsonOptions::RICH, &expected);
    assert_json(&cat, JsonOptions::PLAIN, &expected);

    // Lookups canonicalise type names and class titles.
    assert_eq!(cat.find("class", "foo::bar"), Some(foo_bar));
    assert_eq!(cat.find("Class", "::Foo::Bar"), Some(foo_bar));
    assert_eq!(cat.find("Class", ""), Some(main));
    assert_eq!(
        cat.find("class", "main"),
        None,
        "Class['main'] is Class[Main]"
    );
    assert_eq!(cat.find("my::thing", "Two"), Some(two));
    assert_eq!(
        cat.find("My::Thing", "two"),
        None,
        "titles are case-sensitive"
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
/// them; empty arrays and hashes stay; an integer hash key is `"2"` (plain)
/// or makes the hash a `__ptype` Hash (rich); strings escape only `"`, `\`
/// and control characters (`\u0001`), not `/`, non-ASCII or U+2028. The
/// plain catalog is checked as pretty-printed bytes too (`[` and `]` of an
/// empty array with an empty line between, Ruby's quirk).
#[test]
fn values() {
    let build = || {
        let (mut cat, _, main) = prelude();
        R::notify("x", 1)
            .p("message", Value::Undef)
            .tags(&["class"])
            .add(&mut cat, main);
        let h = hash(vec![
            (s("k"), Value::Integer(1)),
            (Value::Integer(2), s("two")),
            (s("u"), Value::Undef),
        ]);
        R::notify("y", 2)
            .p(
                "message",
                arr(vec![
                    Value::Integer(1),
                    Value::Float(1.0),
                    Value::Float(2.5),
                    Value::Boolean(true),
                    s("a"),
                    Value::Undef,
                    h,
                ]),
            )
            .p("name", s("y"))
            .tags(&["class"])
            .add(&mut cat, main);
        let floats = [
            1e20,
            0.1,
            1e15,
            1e14,
            1e-5,
            0.0001,
            -0.0,
            1234567890123456.0,
            100.0,
        ];
        R::notify("floats", 6)
            .p(
                "message",
                arr(floats.iter().map(|f| Value::Float(*f)).collect()),
            )
            .tags(&["class"])
            .add(&mut cat, main);
        R::notify("big", 7)
            .p(
                "message",
                arr(vec![Value::Integer(i64::MAX), Value::Integer(i64::MIN)]),
            )
            .tags(&["class"])
            .add(&mut cat, main);
        R::notify("empty", 8)
            .p("message", arr(vec![]))
            .p("withpath", hash(vec![]))
            .tags(&["class"])
            .add(&mut cat, main);
        R::notify("undefarr", 9)
            .p("message", arr(vec![Value::Undef]))
            .tags(&["class"])
            .add(&mut cat, main);
        R::notify("strings", 10)
            .p(
                "message",
                s("tab\there \u{e9} \u{2028} / \\ \"q\" \u{1} \u{1f}"),
            )
            .tags(&["class"])
            .add(&mut cat, main);
        cat
    };
    let cat = build();
    assert_json(
        &cat,
        JsonOptions::PLAIN,
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
    assert_json(
        &cat,
        JsonOptions::RICH,
        &[
            r##"{"tags":["settings"],"name":"n1","version":0,"code_id":null,"catalog_uuid":"UUID","catalog_format":2,"environment":"e","resources":["##,
            r##"{"type":"Stage","title":"main","tags":["stage"],"exported":false,"kind":"compilable_type","parameters":{"name":"main"}},"##,
            r##"{"type":"Class","title":"Settings","tags":["class","settings"],"exported":false,"kind":"unknown"},"##,
            r##"{"type":"Class","title":"main","tags":["class"],"exported":false,"kind":"unknown","parameters":{"name":"main"}},"##,
            r##"{"type":"Notify","title":"x","tags":["notify","x","class"],"file":"/tmp/pv/e/manifests/site.pp","line":1,"exported":false,"kind":"compilable_type"},"##,
            r##"{"type":"Notify","title":"y","tags":["notify","y","class"],"file":"/tmp/pv/e/manifests/site.pp","line":2,"exported":false,"kind":"compilable_type","parameters":{"message":[1,1.0,2.5,true,"a",null,{"__ptype":"Hash","__pvalue":["k",1,2,"two","u",null]}]}},"##,
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
    assert_pretty(
        &cat,
        JsonOptions::PLAIN,
        r##"{
  "tags": [
    "settings"
  ],
  "name": "n1",
  "version": 0,
  "code_id": null,
  "catalog_uuid": "UUID",
  "catalog_format": 2,
  "environment": "e",
  "resources": [
    {
      "type": "Stage",
      "title": "main",
      "tags": [
        "stage"
      ],
      "exported": false,
      "kind": "compilable_type",
      "parameters": {
        "name": "main"
      }
    },
    {
      "type": "Class",
      "title": "Settings",
      "tags": [
        "class",
        "settings"
      ],
      "exported": false,
      "kind": "unknown"
    },
    {
      "type": "Class",
      "title": "main",
      "tags": [
        "class"
      ],
      "exported": false,
      "kind": "unknown",
      "parameters": {
        "name": "main"
      }
    },
    {
      "type": "Notify",
      "title": "x",
      "tags": [
        "notify",
        "x",
        "class"
      ],
      "file": "/tmp/pv/e/manifests/site.pp",
      "line": 1,
      "exported": false,
      "kind": "compilable_type"
    },
    {
      "type": "Notify",
      "title": "y",
      "tags": [
        "notify",
        "y",
        "class"
      ],
      "file": "/tmp/pv/e/manifests/site.pp",
      "line": 2,
      "exported": false,
      "kind": "compilable_type",
      "parameters": {
        "message": [
          1,
          1.0,
          2.5,
          true,
          "a",
          null,
          {
            "k": 1,
            "2": "two",
            "u": null
          }
        ]
      }
    },
    {
      "type": "Notify",
      "title": "floats",
      "tags": [
        "notify",
        "floats",
        "class"
      ],
      "file": "/tmp/pv/e/manifests/site.pp",
      "line": 6,
      "exported": false,
      "kind": "compilable_type",
      "parameters": {
        "message": [
          1.0e+20,
          0.1,
          1.0e+15,
          100000000000000.0,
          1.0e-05,
          0.0001,
          -0.0,
          1.234567890123456e+15,
          100.0
        ]
      }
    },
    {
      "type": "Notify",
      "title": "big",
      "tags": [
        "notify",
        "big",
        "class"
      ],
      "file": "/tmp/pv/e/manifests/site.pp",
      "line": 7,
      "exported": false,
      "kind": "compilable_type",
      "parameters": {
        "message": [
          9223372036854775807,
          -9223372036854775808
        ]
      }
    },
    {
      "type": "Notify",
      "title": "empty",
      "tags": [
        "notify",
        "empty",
        "class"
      ],
      "file": "/tmp/pv/e/manifests/site.pp",
      "line": 8,
      "exported": false,
      "kind": "compilable_type",
      "parameters": {
        "message": [

        ],
        "withpath": {
        }
      }
    },
    {
      "type": "Notify",
      "title": "undefarr",
      "tags": [
        "notify",
        "undefarr",
        "class"
      ],
      "file": "/tmp/pv/e/manifests/site.pp",
      "line": 9,
      "exported": false,
      "kind": "compilable_type",
      "parameters": {
        "message": [
          null
        ]
      }
    },
    {
      "type": "Notify",
      "title": "strings",
      "tags": [
        "notify",
        "strings",
        "class"
      ],
      "file": "/tmp/pv/e/manifests/site.pp",
      "line": 10,
      "exported": false,
      "kind": "compilable_type",
      "parameters": {
        "message": "tab\there é   / \\ \"q\" \u0001 \u001f"
      }
    }
  ],
  "edges": [
    {
      "source": "Stage[main]",
      "target": "Class[Settings]"
    },
    {
      "source": "Stage[main]",
      "target": "Class[main]"
    },
    {
      "source": "Class[main]",
      "target": "Notify[x]"
    },
    {
      "source": "Class[main]",
      "target": "Notify[y]"
    },
    {
      "source": "Class[main]",
      "target": "Notify[floats]"
    },
    {
      "source": "Class[main]",
      "target": "Notify[big]"
    },
    {
      "source": "Class[main]",
      "target": "Notify[empty]"
    },
    {
      "source": "Class[main]",
      "target": "Notify[undefarr]"
    },
    {
      "source": "Class[main]",
      "target": "Notify[strings]"
    }
  ],
  "classes": [
    "settings"
  ]
}"##,
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
/// References print as `File[/a]`, `Class[Foo::Bar]` in both modes, in
/// values and as hash keys; an array holding a reference is flattened (any
/// parameter, not only relationships), an array without one is not, nor is
/// one inside a hash; relationship arrays are flattened with undef removed;
/// empty relationship arrays stay.
#[test]
fn references() {
    let (mut cat, stage, main) = prelude();
    let foo_bar = cat
        .add_resource(R::new("class", "foo::bar", Kind::Unknown).0)
        .unwrap();
    cat.add_edge(stage, foo_bar);
    cat.add_class("foo::bar");
    cat.tags.tag("class").unwrap();
    for t in ["/a", "/b"] {
        R::new("file", t, Kind::CompilableType)
            .line(3)
            .tags(&["class"])
            .add(&mut cat, main);
    }
    let int = Value::Integer;
    R::notify("refs", 4)
        .p("require", reference("File", "/a"))
        .p(
            "before",
            arr(vec![
                reference("File", "/a"),
                arr(vec![reference("File", "/b"), class_ref("foo::bar")]),
            ]),
        )
        .p(
            "message",
            arr(vec![
                int(1),
                arr(vec![reference("File", "/a")]),
                arr(vec![int(2), int(3)]),
            ]),
        )
        .tags(&["class"])
        .add(&mut cat, main);
    R::notify("refs2", 9)
        .p(
            "message",
            arr(vec![arr(vec![int(1)]), arr(vec![int(2), int(3)])]),
        )
        .p(
            "withpath",
            hash(vec![
                (s("r"), reference("File", "/a")),
                (
                    s("l"),
                    arr(vec![reference("File", "/b"), arr(vec![int(1)])]),
                ),
            ]),
        )
        .tags(&["class"])
        .add(&mut cat, main);
    R::notify("refs3", 13)
        .p("message", class_ref("foo::bar"))
        .tags(&["class"])
        .add(&mut cat, main);
    R::notify("refs5", 14)
        .p("message", reference("file", "/a"))
        .tags(&["class"])
        .add(&mut cat, main);
    R::notify("refs6", 15)
        .p("message", reference("Notify", "refs"))
        .tags(&["class"])
        .add(&mut cat, main);
    R::notify("rel", 16)
        .p(
            "require",
            arr(vec![
                reference("File", "/a"),
                Value::Undef,
                arr(vec![reference("File", "/b"), arr(vec![Value::Undef])]),
            ]),
        )
        .p("subscribe", arr(vec![]))
        .p("before", arr(vec![arr(vec![])]))
        .tags(&["class"])
        .add(&mut cat, main);
    R::notify("refkeys", 17)
        .p("message", hash(vec![(reference("File", "/a"), int(1))]))
        .tags(&["class"])
        .add(&mut cat, main);

    let expected = [
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
    ];
    assert_json(&cat, JsonOptions::PLAIN, &expected);
    assert_json(&cat, JsonOptions::RICH, &expected);
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
/// Plain: regexps as `"/src/"` (`/` escaped), default as `"default"`, keys
/// as Ruby's `to_s` (`""` for undef, `[1, "x", nil]`, `{"h"=>1}`), types by
/// name. Rich: `__ptype` objects for Regexp (source unescaped), Default,
/// Hash (when a key is not a string, or is `__ptype`), `Pcore::AnyType`.
/// Both: a top-level Sensitive is unwrapped and listed in
/// `sensitive_parameters`; a nested one is a `__ptype` Sensitive.
#[test]
fn rich_and_plain_values() {
    let (mut cat, _, main) = prelude();
    let int = Value::Integer;
    R::notify("regex", 1)
        .p("message", regexp("ab+c/d"))
        .tags(&["class"])
        .add(&mut cat, main);
    R::notify("default", 2)
        .p("message", Value::Default)
        .tags(&["class"])
        .add(&mut cat, main);
    R::notify("sens", 3)
        .p("message", sensitive(s("secret")))
        .tags(&["class"])
        .add(&mut cat, main);
    R::notify("sensarr", 4)
        .p("message", arr(vec![sensitive(s("a")), int(1)]))
        .tags(&["class"])
        .add(&mut cat, main);
    R::notify("keys", 5)
        .p(
            "message",
            hash(vec![
                (int(1), s("a")),
                (s("b"), int(2)),
                (arr(vec![int(1), s("x"), Value::Undef]), int(3)),
                (Value::Undef, int(4)),
                (Value::Default, int(5)),
                (Value::Float(1.5), int(6)),
                (Value::Boolean(true), int(7)),
                (regexp("r"), int(8)),
                (hash(vec![(s("h"), int(1))]), int(9)),
            ]),
        )
        .tags(&["class"])
        .add(&mut cat, main);
    R::notify("ptype", 6)
        .p("message", hash(vec![(s("__ptype"), s("x"))]))
        .tags(&["class"])
        .add(&mut cat, main);
    R::notify("types", 7)
        .p("message", arr(vec![Value::Type(Arc::new(PType::Any))]))
        .tags(&["class"])
        .add(&mut cat, main);
    R::notify("nested", 8)
        .p(
            "message",
            hash(vec![(s("a"), hash(vec![(int(1), regexp("x"))]))]),
        )
        .tags(&["class"])
        .add(&mut cat, main);
    R::notify("deflist", 9)
        .p("message", arr(vec![Value::Default, regexp("y")]))
        .tags(&["class"])
        .add(&mut cat, main);

    assert_json(
        &cat,
        JsonOptions::PLAIN,
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
    assert_json(
        &cat,
        JsonOptions::RICH,
        &[
            r##"{"tags":["settings"],"name":"n1","version":0,"code_id":null,"catalog_uuid":"UUID","catalog_format":2,"environment":"e","resources":["##,
            r##"{"type":"Stage","title":"main","tags":["stage"],"exported":false,"kind":"compilable_type","parameters":{"name":"main"}},"##,
            r##"{"type":"Class","title":"Settings","tags":["class","settings"],"exported":false,"kind":"unknown"},"##,
            r##"{"type":"Class","title":"main","tags":["class"],"exported":false,"kind":"unknown","parameters":{"name":"main"}},"##,
            r##"{"type":"Notify","title":"regex","tags":["notify","regex","class"],"file":"/tmp/pv/e/manifests/site.pp","line":1,"exported":false,"kind":"compilable_type","parameters":{"message":{"__ptype":"Regexp","__pvalue":"ab+c/d"}}},"##,
            r##"{"type":"Notify","title":"default","tags":["notify","default","class"],"file":"/tmp/pv/e/manifests/site.pp","line":2,"exported":false,"kind":"compilable_type","parameters":{"message":{"__ptype":"Default"}}},"##,
            r##"{"type":"Notify","title":"sens","tags":["notify","sens","class"],"file":"/tmp/pv/e/manifests/site.pp","line":3,"exported":false,"kind":"compilable_type","parameters":{"message":"secret"},"sensitive_parameters":["message"]},"##,
            r##"{"type":"Notify","title":"sensarr","tags":["notify","sensarr","class"],"file":"/tmp/pv/e/manifests/site.pp","line":4,"exported":false,"kind":"compilable_type","parameters":{"message":[{"__ptype":"Sensitive","__pvalue":"a"},1]}},"##,
            r##"{"type":"Notify","title":"keys","tags":["notify","keys","class"],"file":"/tmp/pv/e/manifests/site.pp","line":5,"exported":false,"kind":"compilable_type","parameters":{"message":{"__ptype":"Hash","__pvalue":[1,"a","b",2,[1,"x",null],3,null,4,{"__ptype":"Default"},5,1.5,6,true,7,{"__ptype":"Regexp","__pvalue":"r"},8,{"h":1},9]}}},"##,
            r##"{"type":"Notify","title":"ptype","tags":["notify","ptype","class"],"file":"/tmp/pv/e/manifests/site.pp","line":6,"exported":false,"kind":"compilable_type","parameters":{"message":{"__ptype":"Hash","__pvalue":["__ptype","x"]}}},"##,
            r##"{"type":"Notify","title":"types","tags":["notify","types","class"],"file":"/tmp/pv/e/manifests/site.pp","line":7,"exported":false,"kind":"compilable_type","parameters":{"message":[{"__ptype":"Pcore::AnyType"}]}},"##,
            r##"{"type":"Notify","title":"nested","tags":["notify","nested","class"],"file":"/tmp/pv/e/manifests/site.pp","line":8,"exported":false,"kind":"compilable_type","parameters":{"message":{"a":{"__ptype":"Hash","__pvalue":[1,{"__ptype":"Regexp","__pvalue":"x"}]}}}},"##,
            r##"{"type":"Notify","title":"deflist","tags":["notify","deflist","class"],"file":"/tmp/pv/e/manifests/site.pp","line":9,"exported":false,"kind":"compilable_type","parameters":{"message":[{"__ptype":"Default"},{"__ptype":"Regexp","__pvalue":"y"}]}}"##,
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
    let (mut cat, stage, main) = prelude();
    // A stage is top-level: Puppet gives it no containment edge.
    let pre = cat
        .add_resource(
            R::new("stage", "pre", Kind::CompilableType)
                .line(1)
                .p("before", reference("Stage", "main"))
                .tags(&["class"])
                .0,
        )
        .unwrap();
    let early = cat
        .add_resource(
            R::new("class", "early", Kind::Class)
                .line(4)
                .p("stage", s("pre"))
                .0,
        )
        .unwrap();
    cat.add_edge(pre, early);
    cat.add_class("early");
    cat.tags.tag("class").unwrap();
    R::notify("early", 2).tags(&["class"]).add(&mut cat, early);
    let withp = cat
        .add_resource(
            R::new("class", "withp", Kind::Class)
                .line(5)
                .p("x", s("X"))
                .p("y", Value::Undef)
                .0,
        )
        .unwrap();
    cat.add_edge(stage, withp);
    cat.add_class("withp");
    let mut virt = R::notify("virt", 6).tags(&["class"]).0;
    virt.virtual_ = true;
    R(virt).add(&mut cat, main);
    let mut realized = R::notify("virt_realized", 7).tags(&["class"]).0;
    realized.virtual_ = true;
    let realized = R(realized).add(&mut cat, main);
    cat.get_mut(realized).virtual_ = false;
    let mut exp = R::notify("exp", 9).p("message", s("e")).tags(&["class"]).0;
    exp.exported = true;
    exp.virtual_ = true;
    R(exp).add(&mut cat, main);
    let mut exp2 = R::new("file", "/exp2", Kind::CompilableType)
        .line(10)
        .tags(&["class"])
        .0;
    exp2.exported = true;
    exp2.virtual_ = false; // collected
    R(exp2).add(&mut cat, main);
    R::tagged_first(
        "notify",
        "tagged",
        Kind::CompilableType,
        &["Foo::Bar", "baz", "FOO"],
    )
    .line(12)
    .p("tag", arr(vec![s("Foo::Bar"), s("baz"), s("FOO")]))
    .p("alias", s("tagged_alias"))
    .tags(&["class"])
    .add(&mut cat, main);
    let node = R::new("node", "default", Kind::Unknown)
        .tags(&["class"])
        .add(&mut cat, main);
    cat.add_class("default");
    cat.tags.tag("node").unwrap();
    R::notify("in_node", 14)
        .tags(&["node", "default", "class"])
        .add(&mut cat, node);

    let expected = [
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
    ];
    assert_json(&cat, JsonOptions::RICH, &expected);
    assert_json(&cat, JsonOptions::PLAIN, &expected);
    // The alias parameter names the resource too.
    assert_eq!(
        cat.find("notify", "tagged_alias"),
        cat.find("Notify", "tagged")
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
    let (mut cat, stage, main) = prelude();
    let sens = cat
        .add_resource(
            R::new("class", "sens", Kind::Class)
                .line(2)
                .p("p", sensitive(s("x")))
                .p("q", s("plain"))
                .0,
        )
        .unwrap();
    cat.add_edge(stage, sens);
    cat.add_class("sens");
    cat.tags.tag("class").unwrap();
    let file = |title: &str, line: u32| {
        R::new("file", title, Kind::CompilableType)
            .line(line)
            .tags(&["class"])
    };
    file("/x", 3)
        .p("name", s("/x"))
        .p("ensure", s("file"))
        .add(&mut cat, main);
    file("/y", 4)
        .p("ensure", s("file"))
        .p("name", s("/yy"))
        .add(&mut cat, main);
    file("/z", 5)
        .p("mode", s("0644"))
        .p("path", s("/zz"))
        .add(&mut cat, main);
    file("/tmp/d/", 6)
        .p("ensure", s("directory"))
        .add(&mut cat, main);
    file("/tmp/e//", 7)
        .p("path", s("/tmp/e//"))
        .add(&mut cat, main);
    file("/", 8).add(&mut cat, main);
    file("/w", 9)
        .p("path", s("/w1"))
        .p("name", s("/w2"))
        .add(&mut cat, main);
    R::notify("n", 10)
        .p("message", s("m"))
        .p("name", s("other"))
        .tags(&["class"])
        .add(&mut cat, main);
    R::new("exec", "e", Kind::CompilableType)
        .line(11)
        .p("command", s("e2"))
        .tags(&["class"])
        .add(&mut cat, main);
    R::new("tidy", "/t", Kind::CompilableType)
        .line(12)
        .p("path", s("/t"))
        .tags(&["class"])
        .add(&mut cat, main);
    R::new("service", "svc", Kind::CompilableType)
        .line(13)
        .p("name", s("svc"))
        .tags(&["class"])
        .add(&mut cat, main);
    R::tagged_first("notify", "Caps Title", Kind::CompilableType, &["ünï"])
        .line(14)
        .p("message", s("x"))
        .p("tag", arr(vec![s("ünï")]))
        .tags(&["class"])
        .add(&mut cat, main);

    let expected = [
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
    ];
    assert_json(&cat, JsonOptions::RICH, &expected);
    assert_json(&cat, JsonOptions::PLAIN, &expected);
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
    let mut cat = Catalog::new("n1", "e", 0);
    for c in ["foo::bar", "baz", "foo::bar"] {
        cat.add_class(c);
    }
    let stage = cat
        .add_resource(R::new("stage", "main", Kind::CompilableType).0)
        .unwrap();
    let settings = cat
        .add_resource(R::new("class", "settings", Kind::Unknown).0)
        .unwrap();
    let main = cat
        .add_resource(R::new("class", "", Kind::Unknown).0)
        .unwrap();
    cat.add_edge(stage, settings);
    cat.add_edge(stage, main);
    cat.add_class("settings");
    for c in ["baz", "foo::bar"] {
        let id = cat
            .add_resource(R::new("class", c, Kind::Unknown).0)
            .unwrap();
        cat.add_edge(stage, id);
        cat.add_class(c);
        cat.tags.tag("class").unwrap();
    }
    assert_json(
        &cat,
        JsonOptions::RICH,
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
/// added last but one, is written right after `Stage[main] -> Class[B]`.
/// Adding an edge twice keeps one.
#[test]
fn edges_grouped_by_target() {
    let (mut cat, stage, main) = prelude();
    let b = cat
        .add_resource(R::new("class", "b", Kind::Unknown).0)
        .unwrap();
    cat.add_edge(stage, b);
    cat.add_class("b");
    cat.tags.tag("class").unwrap();
    R::notify("n", 4).tags(&["class"]).add(&mut cat, main);
    let x = cat
        .add_resource(R::new("class", "x", Kind::Unknown).0)
        .unwrap();
    cat.add_edge(stage, x);
    cat.add_class("x");
    assert!(cat.add_edge(x, b));
    assert!(!cat.add_edge(x, b), "contain twice: one edge");
    let mut virt = R::notify("virt", 6).tags(&["class"]).0;
    virt.virtual_ = true;
    R(virt).add(&mut cat, main);
    let y = cat
        .add_resource(R::new("class", "y", Kind::Unknown).0)
        .unwrap();
    cat.add_edge(stage, y);
    cat.add_class("y");
    let mut in_y = R::notify("in_y", 7).tags(&["class", "y"]).0;
    in_y.virtual_ = true;
    R(in_y).add(&mut cat, y);

    let expected = [
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
    ];
    assert_json(&cat, JsonOptions::RICH, &expected);
    assert_eq!(cat.container_of(b), Some(stage));
}

/// Duplicate titles and aliases, with Puppet's messages (the part Puppet's
/// catalog raises; the evaluator wraps it in `Error while evaluating a
/// Resource Statement, ...` and the locations). Each manifest has its two
/// declarations on lines 1 and 2.
#[test]
fn duplicates_and_aliases() {
    let add = |cat: &mut Catalog, r: R| cat.add_resource(r.0);
    let err = |r: Result<ResourceId, Box<CatalogError>>| r.unwrap_err().to_string();

    // notify {'a':} notify {'a':}
    let mut cat = Catalog::new("n1", "e", 0);
    add(&mut cat, R::notify("a", 1)).unwrap();
    assert_eq!(
        err(add(&mut cat, R::notify("a", 2))),
        format!("Duplicate declaration: Notify[a] is already declared at (file: {F}, line: 1); cannot redeclare")
    );

    // notify {'a': alias => 'b'} notify {'b':}
    let mut cat = Catalog::new("n1", "e", 0);
    let a = add(&mut cat, R::notify("a", 1).p("alias", s("b"))).unwrap();
    assert_eq!(cat.find("Notify", "b"), Some(a));
    assert_eq!(
        err(add(&mut cat, R::notify("b", 2))),
        format!("Duplicate declaration: Notify[b] is already declared at (file: {F}, line: 1); cannot redeclare")
    );

    // notify {'b':} notify {'a': alias => 'b'}
    let mut cat = Catalog::new("n1", "e", 0);
    add(&mut cat, R::notify("b", 1)).unwrap();
    assert_eq!(
        err(add(&mut cat, R::notify("a", 2).p("alias", s("b")))),
        format!(
            "Cannot alias Notify[a] to \"b\" at (file: {F}, line: 2); resource [\"Notify\", \"b\"] already declared (file: {F}, line: 1)"
        )
    );
    assert_eq!(cat.len(), 1, "a failed add leaves the catalog as it was");

    // file { '/tmp/d': } file { '/tmp/d/': }
    let mut cat = Catalog::new("n1", "e", 0);
    let file = |t: &str, line: u32| R::new("file", t, Kind::CompilableType).line(line);
    add(&mut cat, file("/tmp/d", 1)).unwrap();
    assert_eq!(
        err(add(&mut cat, file("/tmp/d/", 2))),
        format!(
            "Cannot alias File[/tmp/d/] to [\"/tmp/d\"] at (file: {F}, line: 2); resource [\"File\", \"/tmp/d\"] already declared (file: {F}, line: 1)"
        )
    );

    // file { '/tmp/d/': } file { '/tmp/d': }
    let mut cat = Catalog::new("n1", "e", 0);
    let d = add(&mut cat, file("/tmp/d/", 1)).unwrap();
    assert_eq!(cat.find("file", "/tmp/d"), Some(d));
    assert_eq!(
        cat.find("file", "/tmp/d//"),
        Some(d),
        "File['/tmp/d//'] finds it too"
    );
    assert_eq!(
        err(add(&mut cat, file("/tmp/d", 2))),
        format!("Duplicate declaration: File[/tmp/d] is already declared at (file: {F}, line: 1); cannot redeclare")
    );

    // package {'vim':} package {'vim2': name => 'vim'}
    let mut cat = Catalog::new("n1", "e", 0);
    let pkg = |t: &str, line: u32| R::new("package", t, Kind::CompilableType).line(line);
    add(&mut cat, pkg("vim", 1)).unwrap();
    assert_eq!(
        err(add(&mut cat, pkg("vim2", 2).p("name", s("vim")))),
        format!(
            "Cannot alias Package[vim2] to [nil, \"vim\", nil] at (file: {F}, line: 2); resource [\"Package\", nil, \"vim\", nil] already declared (file: {F}, line: 1)"
        )
    );

    // package {'vim': provider => apt} package {'vim2': name => 'vim', provider => pip}: fine
    let mut cat = Catalog::new("n1", "e", 0);
    add(&mut cat, pkg("vim", 1).p("provider", s("apt"))).unwrap();
    add(
        &mut cat,
        pkg("vim2", 2).p("name", s("vim")).p("provider", s("pip")),
    )
    .unwrap();

    // notify {'n': name => 'other'} notify {'other':}
    let mut cat = Catalog::new("n1", "e", 0);
    add(&mut cat, R::notify("n", 1).p("name", s("other"))).unwrap();
    assert_eq!(
        err(add(&mut cat, R::notify("other", 2))),
        format!("Duplicate declaration: Notify[other] is already declared at (file: {F}, line: 1); cannot redeclare")
    );

    // exec {'a': command => '/bin/true'} exec {'b': command => '/bin/true'}: fine
    // (exec is not isomorphic); so is file {'/y': name => '/z'} file {'/z':}
    let mut cat = Catalog::new("n1", "e", 0);
    let exec = |t: &str| R::new("exec", t, Kind::CompilableType).p("command", s("/bin/true"));
    add(&mut cat, exec("a")).unwrap();
    add(&mut cat, exec("b")).unwrap();
    add(&mut cat, file("/y", 1).p("name", s("/z"))).unwrap();
    add(&mut cat, file("/z", 2)).unwrap();

    // class foo {} include foo class {'foo':}: no location for the first
    let mut cat = Catalog::new("n1", "e", 0);
    add(&mut cat, R::new("class", "foo", Kind::Unknown)).unwrap();
    assert_eq!(
        err(add(&mut cat, R::new("class", "foo", Kind::Class).line(3))),
        "Duplicate declaration: Class[Foo] is already declared; cannot redeclare"
    );

    // Explicit aliases: to the own title or twice to the same resource is fine.
    let mut cat = Catalog::new("n1", "e", 0);
    let a = add(&mut cat, R::notify("a", 1)).unwrap();
    let b = add(&mut cat, R::notify("b", 2)).unwrap();
    cat.add_alias(a, "a").unwrap();
    cat.add_alias(a, "x").unwrap();
    cat.add_alias(a, "x").unwrap();
    assert_eq!(cat.find("notify", "x"), Some(a));
    assert_eq!(
        cat.add_alias(b, "x").unwrap_err().to_string(),
        format!(
            "Cannot alias Notify[b] to \"x\" at (file: {F}, line: 2); resource [\"Notify\", \"x\"] already declared (file: {F}, line: 1)"
        )
    );
}

/// `version` is the caller's; `catalog_uuid` a pure function of name,
/// environment and version.
#[test]
fn version_and_uuid_are_deterministic() {
    let a = Catalog::new("web01.example.com", "production", 42);
    let b = Catalog::new("web01.example.com", "production", 42);
    assert_eq!(a.to_json_string(), b.to_json_string());
    assert_eq!(a.to_json()["version"], 42);
    assert_eq!(a.to_json()["catalog_uuid"], a.catalog_uuid().as_str());
    assert_ne!(
        a.catalog_uuid(),
        Catalog::new("web02.example.com", "production", 42).catalog_uuid()
    );
    assert_ne!(
        a.catalog_uuid(),
        Catalog::new("web01.example.com", "production", 43).catalog_uuid()
    );
    // Pinned, so a change of algorithm is a visible decision.
    assert_eq!(
        puppet_compiler::catalog::uuid_for("web01.example.com", "production", 42),
        "56cdba66-7c61-88d0-9e8c-64e779b71ea9"
    );
}
