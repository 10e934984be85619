//! `eval::compile_pretty` (the catalog text `pverify compile` writes, with
//! no `serde_json::Value` tree in between) gives exactly the bytes of
//! `serde_json::to_writer_pretty` over `eval::compile`'s tree: on every node
//! of the bundled repos, and on values chosen for their edges (escapes,
//! floats, empty containers, hash keys that print alike, Sensitive).

use std::path::Path;

use puppet_compiler::eval::{self, NodeInfo};
use puppet_compiler::loader::{Environment, Overrides};
use pverify_harness::control::Repo;
use pverify_harness::harness::node_for;

fn both_ways(env: &Environment, node: &NodeInfo) -> (Vec<u8>, Vec<u8>) {
    let tree = match eval::compile(env, node.clone()) {
        Ok(c) => serde_json::to_vec_pretty(&c.catalog).unwrap(),
        Err(e) => panic!("{}: {e}", node.name),
    };
    let mut text = Vec::new();
    let written = eval::compile_pretty(env, node.clone(), &mut text).unwrap();
    let listed: serde_json::Value = serde_json::from_slice(&text).unwrap();
    assert_eq!(
        listed["resources"].as_array().map(Vec::len),
        Some(written.resources),
        "{}: resource count",
        node.name
    );
    (tree, text)
}

fn repo_nodes_agree(dir: &Path) -> usize {
    let repo = Repo::open(dir).unwrap();
    let env = repo.boot().unwrap();
    let nodes = repo.nodes().unwrap();
    for n in &nodes {
        let (tree, text) = both_ways(&env, &node_for(&n.case, &n.case.facts, repo.puppet()));
        assert!(
            tree == text,
            "{}: the direct text differs from the tree's",
            n.id
        );
    }
    nodes.len()
}

#[test]
fn example_repo_nodes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    assert!(repo_nodes_agree(&root.join("tests/fixtures/example-repo")) > 0);
}

#[test]
fn control_repo_nodes() {
    // Its modules are Debian's packages: CI installs them.
    if !Path::new("/usr/share/puppet/modules/stdlib").is_dir() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI=true but the puppet-module-* packages are not installed"
        );
        eprintln!("note: /usr/share/puppet/modules missing; skipping");
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    assert!(repo_nodes_agree(&root.join("tests/fixtures/control-repo")) >= 20);
}

#[test]
fn edge_values() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("manifests")).unwrap();
    std::fs::write(
        dir.path().join("manifests/site.pp"),
        r#"
        notify { "quote \" back \\ tab \t nl \n bell \u0007 del \u007f é ✓": }
        notify { 'values':
          message => {
            'empty_a' => [], 'empty_h' => {}, 'nested' => [[], [{}], {'a' => []}],
            'floats' => [1.0, 0.1, 1e20, 1.5e-7, -0.0, 123456789.125],
            'ints' => [0, -1, 9223372036854775807],
            'undef' => [undef], 'default' => default, 'regexp' => /a+b/,
            1 => 'one', '1' => 'string one', [2] => 'array', undef => 'undef key',
            'ref' => File['/tmp/x'], 'class' => Class['foo::bar'], 'type' => Integer[1, 2],
            'sensitive' => [Sensitive('inner')],
            'bools' => [true, false],
            'deep' => [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[['past the indent table']]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]],
          },
        }
        notify { 'escapes': message => "cr \r bs \u0008 ff \u000c us \u001f 1234567\n12345678\"123456789\\ tail\t" }
        notify { 'secret': message => Sensitive('s3cret') }
        notify { 'unset': message => undef }
        file { '/tmp/x': ensure => file }
        class foo::bar {}
        include foo::bar
        File['/tmp/x'] -> Notify['values']
        @notify { 'virtual': }
        @@notify { 'exported': }
        "#,
    )
    .unwrap();
    let env = Environment::boot(
        dir.path(),
        &Overrides {
            basemodulepath: Some(String::new()),
            ..Overrides::default()
        },
    )
    .unwrap();
    let node = NodeInfo {
        name: "edge.example.com".into(),
        ..NodeInfo::default()
    };
    let (tree, text) = both_ways(&env, &node);
    assert_eq!(
        String::from_utf8(text).unwrap(),
        String::from_utf8(tree).unwrap()
    );
}
