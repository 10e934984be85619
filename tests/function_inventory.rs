//! Every function Puppet 7.23 ships is either implemented by pverify or
//! listed here as deliberately absent, with the reason; plus the errors for
//! functions pverify cannot run and the function mocks.

use std::path::{Path, PathBuf};

use puppet_compiler::eval::{FunctionMocks, NodeInfo};
use puppet_compiler::loader::{Environment, Overrides};

/// `lib/puppet/functions/*.rb` and `lib/puppet/parser/functions/*.rb` of
/// Puppet 7.23 (the union of both names).
const PUPPET_FUNCTIONS: &[&str] = &[
    "abs",
    "alert",
    "all",
    "annotate",
    "any",
    "assert_type",
    "binary_file",
    "break",
    "call",
    "camelcase",
    "capitalize",
    "ceiling",
    "chomp",
    "chop",
    "compare",
    "contain",
    "convert_to",
    "create_resources",
    "crit",
    "debug",
    "defined",
    "dig",
    "digest",
    "downcase",
    "each",
    "emerg",
    "empty",
    "epp",
    "err",
    "eyaml_lookup_key",
    "fail",
    "file",
    "filter",
    "find_file",
    "find_template",
    "flatten",
    "floor",
    "fqdn_rand",
    "generate",
    "get",
    "getvar",
    "group_by",
    "hiera",
    "hiera_array",
    "hiera_hash",
    "hiera_include",
    "hocon_data",
    "import",
    "include",
    "index",
    "info",
    "inline_epp",
    "inline_template",
    "join",
    "json_data",
    "keys",
    "length",
    "lest",
    "lookup",
    "lstrip",
    "map",
    "match",
    "max",
    "md5",
    "min",
    "module_directory",
    "new",
    "next",
    "notice",
    "partition",
    "realize",
    "reduce",
    "regsubst",
    "require",
    "return",
    "reverse_each",
    "round",
    "rstrip",
    "scanf",
    "sha1",
    "sha256",
    "shellquote",
    "size",
    "slice",
    "sort",
    "split",
    "sprintf",
    "step",
    "strftime",
    "strip",
    "tag",
    "tagged",
    "template",
    "then",
    "tree_each",
    "type",
    "unique",
    "unwrap",
    "upcase",
    "values",
    "versioncmp",
    "warning",
    "with",
    "yaml_data",
];

/// Functions pverify does not implement, on purpose or not yet, and why.
const ABSENT: &[(&str, &str)] = &[
    (
        "eyaml_lookup_key",
        "a Hiera backend, not callable from manifests",
    ),
    ("hocon_data", "a Hiera backend, not callable from manifests"),
    ("json_data", "a Hiera backend, not callable from manifests"),
    ("yaml_data", "a Hiera backend, not callable from manifests"),
];

const NODE: &str = "node1.example.com";

fn temp_env(tag: &str) -> PathBuf {
    let root = std::env::temp_dir().join(format!("pverify-fninv-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let env = root.join("production");
    std::fs::create_dir_all(env.join("manifests")).expect("mkdir");
    std::fs::write(env.join("environment.conf"), "modulepath = modules\n").expect("conf");
    env
}

fn compile(env: &Path, site: &str, mocks: FunctionMocks) -> Result<serde_json::Value, String> {
    std::fs::write(env.join("manifests/site.pp"), site).expect("site.pp");
    let environment = Environment::boot(env, &Overrides::default())?;
    let node = NodeInfo {
        name: NODE.into(),
        function_mocks: std::sync::Arc::new(mocks),
        // Expectations are Puppet 7.23's (the host's Puppet).
        puppet: puppet_compiler::version::PuppetVersion::V7,
        ..NodeInfo::default()
    };
    puppet_compiler::eval::compile(&environment, node)
        .map(|c| c.catalog)
        .map_err(|e| e.for_node(NODE))
}

#[test]
fn every_puppet_function_is_implemented_or_listed_absent() {
    let env = temp_env("all");
    let mut wrong = Vec::new();
    for name in PUPPET_FUNCTIONS {
        let absent = ABSENT.iter().find(|(n, _)| n == name);
        // Any answer but "Unknown function" (a wrong-arguments error is
        // fine: the function exists).
        let r = compile(&env, &format!("$x = {name}()\n"), FunctionMocks::default());
        let known = !matches!(&r, Err(e) if e.contains(&format!("Unknown function: '{name}'")));
        if !known && absent.is_none() {
            wrong.push(format!("{name}: neither implemented nor listed in ABSENT"));
        }
        if known && absent.is_some() {
            wrong.push(format!("{name}: implemented, but listed in ABSENT"));
        }
        if let Some((_, why)) = absent {
            if why.is_empty() {
                wrong.push(format!("{name}: listed without a reason"));
            }
        }
    }
    let _ = std::fs::remove_dir_all(env.parent().expect("root"));
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The list above is Puppet's: checked against the installed Puppet when
/// there is one (CI has it).
#[test]
fn the_list_is_puppets() {
    let lib = Path::new("/usr/lib/ruby/vendor_ruby/puppet");
    if !lib.is_dir() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must have Puppet 7.23 installed"
        );
        eprintln!("the_list_is_puppets: Puppet not installed, not checked");
        return;
    }
    let mut names = std::collections::BTreeSet::new();
    for sub in ["functions", "parser/functions"] {
        for e in std::fs::read_dir(lib.join(sub))
            .expect("read Puppet's functions")
            .flatten()
        {
            let n = e.file_name().to_string_lossy().to_string();
            if let Some(stem) = n.strip_suffix(".rb") {
                names.insert(stem.to_string());
            }
        }
    }
    let ours: std::collections::BTreeSet<String> =
        PUPPET_FUNCTIONS.iter().map(|s| s.to_string()).collect();
    assert_eq!(ours, names);
}

#[test]
fn a_module_ruby_function_pverify_cannot_run_names_its_file() {
    let env = temp_env("ruby");
    let f = env.join("modules/mymod/lib/puppet/functions/mymod");
    std::fs::create_dir_all(&f).expect("mkdir");
    // Outside the Ruby subset pverify interprets: backticks run a command.
    std::fs::write(
        f.join("secret.rb"),
        "Puppet::Functions.create_function(:'mymod::secret') do\n  def secret(x)\n    `cat /etc/shadow`\n  end\nend\n",
    )
    .expect("rb");
    let p3 = env.join("modules/mymod/lib/puppet/parser/functions");
    std::fs::create_dir_all(&p3).expect("mkdir");
    std::fs::write(p3.join("old_style.rb"), "# a 3.x function\n").expect("rb");
    let e = compile(&env, "$x = mymod::secret(1)\n", FunctionMocks::default())
        .expect_err("not implemented");
    assert!(
        e.contains("pverify cannot run the Ruby function 'mymod::secret'")
            && e.contains("line 3: backticks are not supported")
            && e.contains("modules/mymod/lib/puppet/functions/mymod/secret.rb")
            && e.contains("line: 1, column: 6"),
        "{e}"
    );
    let e = compile(&env, "$x = old_style()\n", FunctionMocks::default()).expect_err("3.x");
    assert!(
        e.contains("'old_style'") && e.contains("lib/puppet/parser/functions/old_style.rb"),
        "{e}"
    );
    // Puppet's own text for a function nobody defines.
    let e = compile(&env, "$x = nobody()\n", FunctionMocks::default()).expect_err("unknown");
    assert!(e.contains("Unknown function: 'nobody'."), "{e}");
    // A mock stands in for it.
    let mocks = FunctionMocks::from_yaml_str(
        "functions:\n  mymod::secret: {returns: {user: admin}}\n  nobody: 3\n  upcase: mocked\n",
    )
    .expect("mocks");
    let cat = compile(
        &env,
        "notify { 'x': message => [mymod::secret(1)['user'], nobody(), upcase('a')] }\n",
        mocks,
    )
    .expect("compiles with mocks");
    let notify = cat["resources"]
        .as_array()
        .and_then(|rs| rs.iter().find(|r| r["type"] == "Notify"))
        .cloned()
        .expect("notify");
    assert_eq!(
        notify["parameters"]["message"],
        serde_json::json!(["admin", 3, "mocked"])
    );
    let _ = std::fs::remove_dir_all(env.parent().expect("root"));
}

#[test]
fn module_functions_are_listed() {
    use puppet_compiler::eval::registry;
    assert!(registry::module_functions().any(|e| e.name == "pick"));
    assert_eq!(
        registry::lookup("pick").map(|e| e.origin),
        Some(registry::Origin::Module("stdlib"))
    );
}
