//! The compiler reads files only through the environment's `FileSystem`: an
//! environment held in memory compiles to the same catalog as the same files
//! on disk, using every kind of file a compile reads (manifests, autoloaded
//! classes and defines, Puppet-language functions and type aliases, ERB and
//! EPP templates, `file()`, Hiera's config and data, `environment.conf`,
//! a module's `metadata.json`).

use std::path::Path;
use std::sync::Arc;

use puppet_compiler::eval::{self, NodeInfo};
use puppet_compiler::files::MemoryFiles;
use puppet_compiler::loader::{Environment, Overrides};

const FILES: &[(&str, &str)] = &[
    ("environment.conf", "modulepath = site:modules\n"),
    (
        "manifests/site.pp",
        "node default {\n  include profile\n  notify { 'main': message => profile::twice('x') }\n}\n",
    ),
    (
        "site/profile/manifests/init.pp",
        "class profile(String $greeting) {\n  m::thing { 'a': }\n  file { '/tmp/t': content => template('m/t.erb') }\n  file { '/tmp/e': content => epp('m/e.epp', { 'g' => $greeting }) }\n  notify { 'f': message => file('m/plain.txt') }\n  $p = Profile::Port(8080)\n  notify { \"port ${p}\": }\n}\n",
    ),
    (
        "site/profile/functions/twice.pp",
        "function profile::twice(String $s) >> String { \"${s}${s}\" }\n",
    ),
    ("site/profile/types/port.pp", "type Profile::Port = Integer[1, 65535]\n"),
    (
        "modules/m/metadata.json",
        "{\"name\": \"x-m\", \"version\": \"1.0.0\", \"author\": \"x\", \"license\": \"Apache-2.0\", \"source\": \"x\", \"dependencies\": []}\n",
    ),
    (
        "modules/m/manifests/thing.pp",
        "define m::thing() { notify { \"thing ${title}\": } }\n",
    ),
    ("modules/m/templates/t.erb", "greeting=<%= @greeting %>\n"),
    (
        "modules/m/templates/e.epp",
        "<%- | String $g | -%>\nepp says <%= $g %>\n",
    ),
    ("modules/m/files/plain.txt", "plain text\n"),
    (
        "hiera.yaml",
        "---\nversion: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n",
    ),
    ("data/common.yaml", "---\nprofile::greeting: hello\n"),
];

fn compile(env: &Environment) -> String {
    let node = NodeInfo {
        name: "n.example.com".into(),
        // Expectations are Puppet 7.23's (the host's Puppet).
        puppet: puppet_compiler::version::PuppetVersion::V7,
        ..NodeInfo::default()
    };
    let compiled = eval::compile(env, node).unwrap_or_else(|e| panic!("{}", e.for_node("n")));
    serde_json::to_string_pretty(&compiled.catalog).expect("json")
}

fn overrides() -> Overrides {
    Overrides {
        basemodulepath: Some(String::new()),
        ..Overrides::default()
    }
}

#[test]
fn an_environment_in_memory_compiles_as_on_disk() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().join("production");
    let mut memory = MemoryFiles::new();
    for (rel, text) in FILES {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        memory.insert(&path, *text);
    }
    // Both see the environment at the same absolute path, so file names in
    // the catalogs are the same.
    let root = std::fs::canonicalize(&root).unwrap();
    let on_disk = compile(&Environment::boot(&root, &overrides()).unwrap());
    let in_memory =
        compile(&Environment::boot_with(Arc::new(memory), &root, &overrides()).unwrap());
    assert_eq!(in_memory, on_disk);
    for expected in [
        "\"message\": \"xx\"",
        "thing a",
        "greeting=hello",
        "epp says hello",
        "plain text",
        "port 8080",
    ] {
        assert!(on_disk.contains(expected), "{expected} missing:\n{on_disk}");
    }
}

#[test]
fn nothing_on_disk_is_read_for_an_environment_in_memory() {
    let mut memory = MemoryFiles::new();
    for (rel, text) in FILES {
        memory.insert(Path::new("/nowhere/production").join(rel), *text);
    }
    let env = Environment::boot_with(
        Arc::new(memory),
        Path::new("/nowhere/production"),
        &overrides(),
    )
    .unwrap();
    let catalog = compile(&env);
    assert!(catalog.contains("greeting=hello"), "{catalog}");
    assert!(catalog.contains("/nowhere/production/site/profile/manifests/init.pp"));
}
