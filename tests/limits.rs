//! Limits: runaway recursion, huge strings and deep data end in an error
//! with Puppet's text (where Puppet has one), never a stack overflow or an
//! allocation failure. Each manifest compiles on a thread with the stack
//! the CLI gives a node (64 MiB). Every expected text was checked with
//! Puppet 7.23 (`crates/pverify-harness/puppet/compile.rb`); where Puppet only dies with
//! Ruby's "stack level too deep", pverify's own message is asserted.

use puppet_compiler::eval::{self, NodeInfo};
use puppet_compiler::loader::{Environment, Overrides};
use puppet_compiler::version::PuppetVersion;

const NODE: &str = "n.example.com";

/// Compiles `manifest` as the site manifest of a fresh environment:
/// the error text Puppet would print, or `Ok(())`.
fn compile(manifest: &str) -> Result<(), String> {
    compile_with(&[], manifest)
}

/// [`compile`], with more files of the environment (`path`, `text`).
fn compile_with(files: &[(&str, &str)], manifest: &str) -> Result<(), String> {
    let files: Vec<(&str, &[u8])> = files.iter().map(|(p, t)| (*p, t.as_bytes())).collect();
    compile_bytes(&files, manifest)
}

/// [`compile_with`], for files whose bytes need not be UTF-8.
fn compile_bytes(files: &[(&str, &[u8])], manifest: &str) -> Result<(), String> {
    compile_bytes_as(PuppetVersion::V7, files, manifest)
}

/// [`compile_bytes`] as Puppet `puppet`.
fn compile_bytes_as(
    puppet: PuppetVersion,
    files: &[(&str, &[u8])],
    manifest: &str,
) -> Result<(), String> {
    let manifest = manifest.to_string();
    let files: Vec<(String, Vec<u8>)> = files
        .iter()
        .map(|(p, t)| (p.to_string(), t.to_vec()))
        .collect();
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || {
            let dir = tempfile::tempdir().expect("tempdir");
            let env_dir = dir.path().join("production");
            std::fs::create_dir_all(env_dir.join("manifests")).expect("mkdir");
            std::fs::write(env_dir.join("manifests/site.pp"), manifest).expect("write");
            for (path, bytes) in &files {
                let p = env_dir.join(path);
                std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
                std::fs::write(p, bytes).expect("write");
            }
            let overrides = Overrides {
                basemodulepath: Some(String::new()),
                ..Overrides::default()
            };
            let env = Environment::boot(&env_dir, &overrides)?;
            let node = NodeInfo {
                name: NODE.into(),
                // Expectations are Puppet 7.23's (the host's Puppet)
                // unless a test says.
                puppet,
                ..NodeInfo::default()
            };
            eval::compile(&env, node)
                .map(|_| ())
                .map_err(|e| e.for_node(NODE))
        })
        .expect("spawn")
        .join()
        .expect("the compile thread panicked")
}

#[track_caller]
fn assert_error_contains(manifest: &str, expected: &str) {
    match compile(manifest) {
        Ok(()) => panic!("compiled, expected an error containing {expected:?}"),
        Err(e) => assert!(e.contains(expected), "{e:?} lacks {expected:?}"),
    }
}

#[test]
fn recursive_ruby_functions() {
    // Puppet 7.23 dies with Ruby's SystemStackError: "stack level too deep".
    let v4 = "Puppet::Functions.create_function(:'m::deep') do\n  def deep(n)\n    call_function('m::deep', n + 1)\n  end\nend\n";
    let v3 = "module Puppet::Parser::Functions\n  newfunction(:m_deep, :type => :rvalue) do |args|\n    function_m_deep([args[0] + 1])\n  end\nend\n";
    // Through the Puppet language and back.
    let mixed = "Puppet::Functions.create_function(:'m::via') do\n  def via(n)\n    call_function('m::pp', n)\n  end\nend\n";
    let files = [
        ("modules/m/lib/puppet/functions/m/deep.rb", v4),
        ("modules/m/lib/puppet/parser/functions/m_deep.rb", v3),
        ("modules/m/lib/puppet/functions/m/via.rb", mixed),
        (
            "modules/m/functions/pp.pp",
            "function m::pp($n) { m::via($n + 1) }\n",
        ),
    ];
    for call in ["m::deep(0)", "m_deep(0)", "m::via(0)"] {
        match compile_with(&files, &format!("notice({call})\n")) {
            Ok(()) => panic!("{call}: compiled"),
            Err(e) => assert!(
                e.contains("stack level too deep")
                    || e.contains("Too deep nesting of class, define and function evaluation"),
                "{call}: {e}"
            ),
        }
    }
}

#[test]
fn recursive_defined_type() {
    // Puppet 7.23: "Somehow looped more than 1000 times while evaluating
    // host catalog on node n.example.com".
    assert_error_contains(
        "define r($n) { r { \"x${n}\": n => $n + 1 } }\nr { 'a': n => 0 }\n",
        "Somehow looped more than 1000 times while evaluating host catalog on node n.example.com",
    );
}

#[test]
fn recursive_function() {
    // Puppet 7.23 dies with Ruby's "stack level too deep".
    assert_error_contains(
        "function f($n) { f($n + 1) }\nnotice(f(0))\n",
        "Too deep nesting of class, define and function evaluation",
    );
}

#[test]
fn recursive_function_through_a_lambda() {
    // Puppet 7.23: "stack level too deep".
    assert_error_contains(
        "function g($n) { [1].map |$x| { g($n + 1) } }\nnotice(g(0))\n",
        "Too deep nesting of class, define and function evaluation",
    );
}

#[test]
fn sprintf_width_too_big() {
    // Puppet 7.23: "Error while evaluating a Function Call, width too big
    // (file: .../site.pp, line: 1, column: 8)"; used to abort pverify with
    // "memory allocation of 999999999998 bytes failed".
    assert_error_contains(
        "notice(sprintf('%999999999999s', 'x'))\n",
        "Error while evaluating a Function Call, width too big",
    );
}

#[test]
fn sprintf_precision_too_big() {
    // Puppet 7.23: "Error while evaluating a Function Call, precision too big".
    assert_error_contains(
        "notice(sprintf('%.999999999999s', 'x'))\n",
        "Error while evaluating a Function Call, precision too big",
    );
}

#[test]
fn string_times_integer_is_no_repetition() {
    // Puppet 7.23: "The value 'x' cannot be converted to Numeric."
    assert_error_contains(
        "$s = 'x' * 99999999999\n",
        "The value 'x' cannot be converted to Numeric.",
    );
}

#[test]
fn deeply_nested_data_to_string() {
    // 100,000 arrays deep, built by reduce, then formatted: overflowed a
    // 64 MiB stack in String(); Puppet 7.23 dies with "stack level too
    // deep". pverify grows its stack and answers.
    assert_eq!(
        compile(
            "$x = Integer[1, 100000].reduce([]) |$m, $i| { [$m] }\n\
             notice(String($x).length)\n"
        ),
        Ok(())
    );
}

#[test]
fn type_of_deeply_nested_data_as_text() {
    // The type of data 100,000 arrays deep would be as deep; writing it as
    // text overflowed a 64 MiB stack (SIGABRT: the whole run lost). Puppet
    // infers 2,501 arrays deep (7.23) and ends the compile with Ruby's
    // SystemStackError at 2,601; pverify stops past `infer::MAX_DEPTH` so.
    assert_eq!(
        compile(
            "$x = Integer[1, 100000].reduce([]) |$m, $i| { [$m] }\n\
             notice(\"${type($x)}\".length)\n"
        ),
        Err("stack level too deep".into())
    );
}

#[test]
fn deep_data_never_overflows_a_walk() {
    // Data 2,000,000 arrays deep (cheap to build: each level shares the
    // last) through every walk that recursed without bound: the inferred
    // type as a hash key, compared, checked against Data, RichData and a
    // recursive alias (Puppet: "stack level too deep"), and flattened
    // (Ruby's flatten keeps its own stack: Puppet answers).
    let deep = "$d = Integer[1, 2000000].reduce([]) |$m, $i| { [$m] }\n";
    for expr in [
        "{ type($d) => 1 }",
        "type($d) == type($d)",
        "$d =~ Data",
        "$d =~ RichData",
        "$d =~ NotUndef[Data]",
        "$d =~ Tree",
    ] {
        let manifest = format!("{deep}type Tree = Variant[Integer, Array[Tree]]\nnotice({expr})\n");
        assert_eq!(
            compile(&manifest),
            Err("stack level too deep".into()),
            "{expr}"
        );
    }
    assert_eq!(compile(&format!("{deep}notice([$d, 1].flatten)\n")), Ok(()));
}

#[test]
fn deeply_nested_data_to_yaml() {
    // The same depth through stdlib's to_yaml (Psych's tree and emitter).
    if !std::path::Path::new("/usr/share/puppet/modules/stdlib").exists() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI installs Debian's modules"
        );
        return;
    }
    assert_eq!(
        compile_with(
            &[(
                "environment.conf",
                "modulepath = /usr/share/puppet/modules\n"
            )],
            "$x = Integer[1, 100000].reduce([]) |$m, $i| { [$m] }\n\
             notice(to_yaml($x).length)\n"
        ),
        Ok(())
    );
}

#[test]
fn iterating_a_huge_integer_range_type_is_refused() {
    // Puppet 7.23: "'each' expects an Iterable value, got Integer[0, 100000000000]-Type".
    assert_error_contains(
        "Integer[0, 100000000000].each |$x| { }\n",
        "'each' expects an Iterable value, got Integer[0, 100000000000]-Type",
    );
}

/// A Hiera data file whose aliases expand ten-fold per anchor, nine deep
/// ("billion laughs"): Puppet 7.23 reads it and then hangs (5 GB after a
/// minute) checking the data; pverify refuses the file when it reads it.
#[test]
fn yaml_alias_expansion_is_bounded() {
    let mut data =
        String::from("a: &a [\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\"]\n");
    let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i"];
    for w in names.windows(2) {
        let alias = format!("*{}", w[0]);
        data.push_str(&format!(
            "{}: &{} [{}]\n",
            w[1],
            w[1],
            vec![alias; 10].join(",")
        ));
    }
    data.push_str("k: 1\n");
    let files = [
        (
            "hiera.yaml",
            "---\nversion: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n",
        ),
        ("data/common.yaml", data.as_str()),
    ];
    let started = std::time::Instant::now();
    match compile_with(&files, "notice(lookup('i'))\n") {
        Ok(()) => panic!("compiled"),
        Err(e) => assert!(
            e.contains("aliases expand this document to more than 1000000 values (pverify's limit on YAML alias expansion)"),
            "{e}"
        ),
    }
    assert!(started.elapsed().as_secs() < 30, "{:?}", started.elapsed());
    // Aliases under the limit are expanded as Psych expands them
    // (spec-suite/hiera/yaml-aliases-shared.case).
    let small = [
        files[0],
        ("data/common.yaml", "a: &a [1, 2]\nb: [*a, *a]\n"),
    ];
    assert_eq!(
        compile_with(&small, "if lookup('b') != [[1, 2], [1, 2]] { fail('b') }\n"),
        Ok(())
    );
}

/// Data 200,000 deep in a template: Puppet 7.23 dies with "stack level too
/// deep"; pverify's Ruby walks it (to_yaml, inspect, ==, <=>, and the copy
/// into and out of Ruby) on a stack grown on the heap, and drops it without
/// recursion (values/drop.rs, template/erb/value.rs), in a debug build too.
#[test]
fn deep_data_in_templates_is_walked() {
    assert_eq!(
        compile(
            "$x = Integer[1, 200000].reduce([]) |$m, $i| { [$m] }\n\
             $y = Integer[1, 200000].reduce([]) |$m, $i| { [$m] }\n\
             $t = inline_template('<%= @x.to_yaml.length > 0 %> <%= @x.inspect.length %> <%= @x == @y %> <%= (@x <=> @y) %>')\n\
             if $t != 'true 400002 true 0' { fail($t) }\n"
        ),
        Ok(())
    );
}

/// Hashes 200,000 levels deep, and types as deep as inference makes them
/// (2,500), are dropped without recursion (values/drop.rs): a debug
/// build's recursive drop overflowed its stack.
#[test]
fn deep_hashes_and_types_are_dropped() {
    assert_eq!(
        compile(
            "$h = Integer[1, 200000].reduce({}) |$m, $i| { { k => $m } }\n\
             $t = type(Integer[1, 2500].reduce([]) |$m, $i| { [$m] })\n\
             if !($t =~ Type) or $h.length != 1 { fail('x') }\n"
        ),
        Ok(())
    );
}

/// A catalog parameter nested 100,000 deep: Puppet 7.23 dies with "stack
/// level too deep" (and cannot write a catalog nested past 100 as JSON);
/// pverify's pretty JSON would grow with the square of the depth.
#[test]
fn deep_catalog_parameter_is_refused() {
    assert_error_contains(
        "$x = Integer[1, 100000].reduce([]) |$m, $i| { [$m] }\nnotify { 'a': message => $x }\n",
        "Notify[a]: parameter 'message' nests deeper than pverify's limit of 1000 levels",
    );
    // 900 levels are written.
    assert_eq!(
        compile(
            "$x = Integer[1, 900].reduce([]) |$m, $i| { [$m] }\nnotify { 'a': message => $x }\n"
        ),
        Ok(())
    );
}

/// The Ruby subset's limits fail the node naming the limit (they used to
/// cut the answer short silently: `('x' * 2000000).length` was 1000000),
/// and `rescue => e` does not swallow them.
#[test]
fn ruby_subset_limits_are_errors() {
    for (code, expected) in [
        (
            "<%= ('x' * 100000000).length %>",
            "String#* result is over pverify's limit of 67108864 bytes",
        ),
        (
            "<%= 'x'.ljust(100000000).length %>",
            "String#ljust result is over pverify's limit of 67108864 bytes",
        ),
        (
            "<%= ([1, 2] * 1000000).length %>",
            "Array#* result is over pverify's limit of 1000000 elements",
        ),
        (
            "<%= Array.new(100000000).length %>",
            "Array.new(100000000) is over pverify's limit of 1000000 elements",
        ),
        (
            "<% (1..100000000000).each { |i| } %>",
            "the range 1..100000000000 is over pverify's limit of 10000000 integers",
        ),
        (
            "<% 1.upto(100000000000) { |i| } %>",
            "1.upto(100000000000) is over pverify's limit of 10000000 iterations",
        ),
        (
            "<% begin; x = 'x' * 100000000; rescue => e; x = 'caught'; end %><%= x %>",
            "String#* result is over pverify's limit of 67108864 bytes",
        ),
    ] {
        match compile(&format!("notice(inline_template(\"{code}\"))\n")) {
            Ok(()) => panic!("{code}: compiled"),
            Err(e) => assert!(e.contains(expected), "{code}: {e}"),
        }
    }
    // Under the limits Ruby's answer (spec-suite/templates/erb-string-repeat-long.case).
    assert_eq!(
        compile(
            "if inline_template(\"<%= ('x' * 2000000).length %>\") != '2000000' { fail('x') }\n"
        ),
        Ok(())
    );
}

/// Text read from a file that is not UTF-8 (Puppet 7.23 and 8.10 keep the
/// bytes, then cannot write the catalog as JSON: "source sequence is
/// illegal/malformed utf-8"): a catalog holding it fails the node, naming
/// the file; a compile that only measures it passes, as in Puppet
/// (`file(...).length` is 4 for `x\xFFy\n` in both).
#[test]
fn invalid_utf8_reaches_no_catalog() {
    let files: [(&str, &[u8]); 2] = [
        ("modules/m/files/bad.txt", b"x\xffy\n"),
        ("modules/m/templates/bad.erb", b"a\xfe<%= 1 %>\n"),
    ];
    let run = |manifest: &str| compile_bytes(&files, manifest);
    for (manifest, file) in [
        ("notify { 'a': message => file('m/bad.txt') }\n", "bad.txt"),
        (
            "notify { 'a': message => template('m/bad.erb') }\n",
            "bad.erb",
        ),
    ] {
        match run(manifest) {
            Ok(()) => panic!("{manifest}: compiled"),
            Err(e) => assert!(
                e.contains(file) && e.contains("source sequence is illegal/malformed utf-8"),
                "{manifest}: {e}"
            ),
        }
    }
    assert_eq!(
        run("notify { 'a': message => file('m/bad.txt').length }\n"),
        Ok(())
    );
    // A binary Ruby String that is not UTF-8 (`Base64.decode64('/0E=')` is
    // "\xFFA"): the same for a template's output, never a U+FFFD.
    match run("notify { 'a': message => inline_template(\"<%= Base64.decode64('/0E=') %>\") }\n") {
        Ok(()) => panic!("a binary String reached the catalog"),
        Err(e) => assert!(e.contains("a binary Ruby String"), "{e}"),
    }
    assert_eq!(
        run("notify { 'a': message => inline_template(\"<%= Base64.decode64('/0E=').length %>\") }\n"),
        Ok(())
    );
}

/// A Hiera JSON data file that is not UTF-8 (Puppet 7.23 and 8.10 read it
/// with Ruby's json, which keeps bad bytes inside strings): its lookups
/// answer, `lookup('k').length` is 3 for `"a\xFFb"` and for `"\xE2\x82a"`
/// in both, and a catalog holding such text fails the node naming the
/// file, as for `file()`. A bad byte outside a string is a token json
/// cannot read (Puppet quotes it raw and then cannot log its own message).
#[test]
fn hiera_json_keeps_bad_bytes() {
    let hiera: (&str, &[u8]) = (
        "hiera.yaml",
        b"---\nversion: 5\nhierarchy:\n  - name: common\n    data_hash: json_data\n    path: common.json\n",
    );
    let data: (&str, &[u8]) = (
        "data/common.json",
        b"{\"ok\": 1, \"k\": \"a\xffb\", \"cut\": \"\xe2\x82a\"}\n",
    );
    let run = |manifest: &str| compile_bytes(&[hiera, data], manifest);
    assert_eq!(
        run("if lookup('ok') != 1 or lookup('k').length != 3 or lookup('cut').length != 3 { fail('x') }\n"),
        Ok(())
    );
    match run("notify { 'a': message => lookup('k') }\n") {
        Ok(()) => panic!("bad bytes in the catalog: compiled"),
        Err(e) => assert!(e.contains("data/common.json, which is not UTF-8"), "{e}"),
    }
    let outside: (&str, &[u8]) = ("data/common.json", b"{\"ok\": 1, \"k\": \xff}\n");
    match compile_bytes(&[hiera, outside], "notice(lookup('ok'))\n") {
        Ok(()) => panic!("a bad byte outside a string: compiled"),
        Err(e) => assert!(
            e.starts_with("Unable to parse (")
                && e.ends_with("/data/common.json): 859: unexpected token at '{\"ok\": 1, \"k\": \\xFF}\n' on node n.example.com"),
            "{e}"
        ),
    }
}

/// What Ruby refuses on text holding bytes that are not UTF-8 (`x\xFFy\n`
/// read by `file()`), function by function, as Puppet 7.23 and 8.10
/// answered each (a differential sweep of 78 expressions; the ones that
/// answer, such as `size`, `lstrip`, `chomp`, `==`, `sort`, `sha1`, are
/// not listed). The error follows "Error while evaluating a Function Call,"
/// or the expression's own words.
#[test]
fn ruby_refuses_bad_bytes_where_puppet_does() {
    let files: [(&str, &[u8]); 1] = [("modules/m/files/bad.txt", b"x\xffy\n")];
    const BYTES: &str = "invalid byte sequence in UTF-8";
    const CASE: &str = "input string invalid";
    let both = [PuppetVersion::V7, PuppetVersion::V8];
    let cases: &[(&str, &[PuppetVersion], &str)] = &[
        ("upcase($s)", &both, CASE),
        ("$s.downcase", &both, CASE),
        ("capitalize([$s])", &both, CASE),
        ("downcase({'a' => $s})", &both, CASE),
        ("camelcase($s)", &both, BYTES),
        ("regsubst([$s], 'x', 'z')", &both, BYTES),
        ("match($s, /x/)", &both, BYTES),
        ("$s.match(/x/)", &both, BYTES),
        ("$s =~ Pattern[/q/, /y/]", &both, BYTES),
        ("$s =~ Variant[Integer, Pattern[/x/]]", &both, BYTES),
        ("$s in 'axy'", &both, CASE),
        ("'y' in $s", &both, CASE),
        ("String($s, '%p')", &both, BYTES),
        ("String([$s])", &both, BYTES),
        ("String($s, '%u')", &both, CASE),
        ("String($s, '%C')", &both, BYTES),
        ("Integer($s)", &both, BYTES),
        ("Float($s)", &both, BYTES),
        (
            "inline_template('<%= @s.upcase %>')",
            &both,
            "Failed to parse inline template: input string invalid",
        ),
        // Ruby 3.3's strip refuses it, Ruby 3.1's strips it.
        ("strip($s)", &[PuppetVersion::V8], BYTES),
        ("rstrip($s)", &[PuppetVersion::V8], BYTES),
        ("String($s, '%t')", &[PuppetVersion::V8], BYTES),
        // json's generator: 2.6 reads \xFF as the lead of six bytes.
        (
            "inline_template('<%= @s.to_json %>')",
            &[PuppetVersion::V7],
            "partial character in source, but hit end",
        ),
        (
            "inline_template('<%= JSON.generate([@s]) %>')",
            &[PuppetVersion::V8],
            "source sequence is illegal/malformed utf-8",
        ),
    ];
    for (expr, versions, want) in cases {
        for &puppet in *versions {
            let manifest = format!("$s = file('m/bad.txt')\n$r = {expr}\n");
            match compile_bytes_as(puppet, &files, &manifest) {
                Ok(()) => panic!("{expr} as {puppet:?}: compiled"),
                Err(e) => assert!(e.contains(want), "{expr} as {puppet:?}: {e}"),
            }
        }
    }
    for (expr, puppet) in [
        ("strip($s).length", PuppetVersion::V7),
        ("String($s, '%t')", PuppetVersion::V7),
        ("$s.lstrip", PuppetVersion::V8),
        ("$s =~ Variant[String, Pattern[/x/]]", PuppetVersion::V8),
        ("\"${[$s]}\"", PuppetVersion::V8),
        ("$s in ['a']", PuppetVersion::V8),
    ] {
        let manifest = format!("$s = file('m/bad.txt')\n$r = {expr}\n");
        assert_eq!(
            compile_bytes_as(puppet, &files, &manifest),
            Ok(()),
            "{expr}"
        );
    }
    // A message quoting such text writes its bytes as Ruby's inspect does
    // (Puppet: "The value 'x\xFFy\n' cannot be converted to Numeric.",
    // which it then cannot log).
    match compile_bytes(&files, "$s = file('m/bad.txt')\n$r = $s + 'a'\n") {
        Ok(()) => panic!("compiled"),
        Err(e) => assert!(
            e.contains("The value 'x\\xFFy\n' cannot be converted to Numeric."),
            "{e}"
        ),
    }
}

/// A chain of Hiera aliases (`k0: "%{alias('k1')}"`, ...): Puppet 7.23
/// answers a chain of 150 keys and dies with "stack level too deep" on one
/// of 200; so does pverify (it used to call 33 keys a recursive lookup).
#[test]
fn hiera_alias_chains_are_bounded() {
    let chain = |n: usize| {
        let mut data: String = (0..n)
            .map(|i| format!("k{i}: \"%{{alias('k{}')}}\"\n", i + 1))
            .collect();
        data.push_str(&format!("k{n}: end\n"));
        data
    };
    let hiera = "---\nversion: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n";
    let long = chain(200);
    let files = [("hiera.yaml", hiera), ("data/common.yaml", long.as_str())];
    match compile_with(&files, "notice(lookup('k0'))\n") {
        Ok(()) => panic!("compiled"),
        Err(e) => assert!(e.starts_with("stack level too deep"), "{e}"),
    }
    let short = chain(150);
    let files = [("hiera.yaml", hiera), ("data/common.yaml", short.as_str())];
    assert_eq!(
        compile_with(&files, "if lookup('k0') != 'end' { fail('k0') }\n"),
        Ok(())
    );
}

/// An array 100,000 deep as a hash key, in a manifest and in a template:
/// hashing and `==` recursed through every level (a stack overflow in a
/// debug build; Puppet 7.23 dies with "stack level too deep"). `Hash` now
/// looks 32 levels deep and `==` goes on past that with a work list, so the
/// key is stored and found.
#[test]
fn deep_value_as_hash_key() {
    assert_eq!(
        compile(
            "$x = Integer[1, 100000].reduce([]) |$m, $i| { [$m] }\n\
             $y = Integer[1, 100000].reduce([]) |$m, $i| { [$m] }\n\
             $z = Integer[1, 100000].reduce([1]) |$m, $i| { [$m] }\n\
             $h = { $x => 1, $z => 2 }\n\
             if $h[$y] != 1 or $h[$z] != 2 or $h.length != 2 or !($x == $y) or $x == $z { fail('x') }\n\
             if [$x] != [$y] or !($x in [$y]) or { $y => 1 } != $h.filter |$k, $v| { $v == 1 } { fail('y') }\n\
             $t = inline_template('<% h = { @x => 1 } %><%= h[@y] %> <%= { @x => 2 }.length %>')\n\
             if $t != '1 1' { fail($t) }\n"
        ),
        Ok(())
    );
}

/// A Ruby Range a function returns is the Range (Puppet's Runtime[ruby,
/// 'Range'], spec-suite/ruby-functions/v4-range-*.case), no list cut at
/// 100,000 items as it was; iterating one past 10,000,000 integers fails
/// the node naming the limit (Puppet would iterate for hours).
#[test]
fn ruby_range_iteration_is_bounded() {
    let files = [(
        "modules/m/lib/puppet/functions/m/range.rb",
        "Puppet::Functions.create_function(:'m::range') do\n  def range(n)\n    (1..n)\n  end\nend\n",
    )];
    match compile_with(&files, "m::range(100000000000).each |$i| { }\n") {
        Ok(()) => panic!("compiled"),
        Err(e) => assert!(
            e.contains("the range 1..100000000000 is over pverify's limit of 10000000 integers"),
            "{e}"
        ),
    }
    assert_eq!(
        compile_with(
            &files,
            "$s = m::range(200000).reduce |$m, $v| { $m + $v }\n\
             if $s != 20000100000 or \"${m::range(200000)}\" != '1..200000' { fail(\"${s}\") }\n"
        ),
        Ok(())
    );
}

/// Invalid UTF-8 is found where the bytes are read (Puppet 7.23 and 8.10):
/// a Hiera YAML file fails with libyaml's words at line 1 column 1, an EPP
/// template fails the `epp()` call with Ruby's "invalid byte sequence in
/// UTF-8"; a file or an ERB template read with bad bytes keeps them (one
/// character each: Ruby's length), and a U+FFFD a valid file holds is text
/// like any other even when another file had bad bytes.
#[test]
fn invalid_utf8_found_where_read() {
    let run = |files: Vec<(&str, &[u8])>, manifest: &str| compile_bytes(&files, manifest);
    let hiera: (&str, &[u8]) = (
        "hiera.yaml",
        b"---\nversion: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n",
    );
    // Puppet: "Unable to parse (.../data/common.yaml): invalid leading
    // UTF-8 octet at line 1 column 1 on node n.example.com".
    match run(
        vec![hiera, ("data/common.yaml", b"---\nok: 1\nk: \"a\xffb\"\n")],
        "notice(lookup('ok'))\n",
    ) {
        Ok(()) => panic!("hiera: compiled"),
        Err(e) => assert!(
            e.starts_with("Unable to parse (")
                && e.ends_with("/data/common.yaml): invalid leading UTF-8 octet at line 1 column 1 on node n.example.com"),
            "{e}"
        ),
    }
    // Puppet: "Evaluation Error: Error while evaluating a Function Call,
    // invalid byte sequence in UTF-8 (file: .../site.pp, line: 1, column:
    // 26) on node n.example.com".
    match run(
        vec![("modules/m/templates/bad.epp", b"a\xfe<%= 1 %>\n")],
        "notify { 'a': message => epp('m/bad.epp') }\n",
    ) {
        Ok(()) => panic!("epp: compiled"),
        Err(e) => assert!(
            e.starts_with("Evaluation Error: Error while evaluating a Function Call, invalid byte sequence in UTF-8 (file: ")
                && e.ends_with("site.pp, line: 1, column: 26) on node n.example.com"),
            "{e}"
        ),
    }
    // Puppet: `file('m/bad.txt').length` is 4 for `x\xFFy\n`, 3 for
    // `\xE2\x82a` (a sequence cut short is two characters).
    let files = vec![
        ("modules/m/files/bad.txt", &b"x\xffy\n"[..]),
        ("modules/m/files/cut.txt", b"\xe2\x82a"),
        ("modules/m/files/fffd.txt", "ok \u{fffd}\n".as_bytes()),
    ];
    assert_eq!(
        run(
            files.clone(),
            "if file('m/bad.txt').length != 4 or file('m/cut.txt').length != 3 { fail('length') }\n\
             notify { 'a': message => file('m/fffd.txt') }\n"
        ),
        Ok(())
    );
    match run(
        files.clone(),
        "notify { 'a': message => file('m/cut.txt') }\n",
    ) {
        Ok(()) => panic!("bad bytes in the catalog: compiled"),
        Err(e) => assert!(e.contains("cut.txt, which is not UTF-8"), "{e}"),
    }
    // Puppet: "Evaluation Error: Error while evaluating a '=~' expression,
    // invalid byte sequence in UTF-8 (file: .../site.pp, line: 1, column:
    // 24) on node n.example.com" (the column of `=~`; 7.23 and 8.10).
    match run(files.clone(), "$x = file('m/bad.txt') =~ /y/\n") {
        Ok(()) => panic!("=~: compiled"),
        Err(e) => assert!(
            e.starts_with("Evaluation Error: Error while evaluating a '=~' expression, invalid byte sequence in UTF-8 (file: ")
                && e.ends_with("site.pp, line: 1, column: 24) on node n.example.com"),
            "{e}"
        ),
    }
    // Puppet: the same words for `inline_epp(file(...))` ("a Function
    // Call", column 26) and `file(...).split('y')` ("a Method call",
    // column 49 in this manifest).
    for (manifest, end) in [
        (
            "notify { 'a': message => inline_epp(file('m/bad.txt')) }\n",
            "a Function Call, invalid byte sequence in UTF-8",
        ),
        (
            "notify { 'a': message => file('m/bad.txt').split('y').length }\n",
            "a Method call, invalid byte sequence in UTF-8",
        ),
    ] {
        match run(files.clone(), manifest) {
            Ok(()) => panic!("{manifest}: compiled"),
            Err(e) => assert!(e.contains(end), "{manifest}: {e}"),
        }
    }
}
