//! The static reader of Ruby resource types over Debian's module packages:
//! it never panics, and reads at least as many types as when last measured
//! against Puppet (`cargo xtask oracle-types` checks what it reads).

use std::path::Path;

use puppet_compiler::restypes;

const MODULES: &str = "/usr/share/puppet/modules";
/// `cargo xtask oracle-types`: all 238 module types read, as Ruby reads
/// them (keystone's through their `PuppetX` mixins and helpers).
const READ_AT_LEAST: usize = 238;

#[test]
fn reads_the_debian_module_types() {
    if !Path::new(MODULES).is_dir() {
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("{MODULES} is missing under CI (cargo xtask corpus --install-only)");
        }
        eprintln!("note: {MODULES} missing; skipping (install puppet-module-* to run)");
        return;
    }
    let (mut read, mut refused) = (0, Vec::new());
    for module in std::fs::read_dir(MODULES).unwrap().flatten() {
        let Ok(files) = std::fs::read_dir(module.path().join("lib/puppet/type")) else {
            continue;
        };
        for f in files.flatten() {
            let p = f.path();
            if p.extension().is_none_or(|e| e != "rb") {
                continue;
            }
            match restypes::read_type_file(
                &puppet_compiler::files::OsFiles,
                &p,
                &[Path::new(MODULES).to_path_buf()],
            ) {
                Ok(t) => {
                    assert_eq!(
                        Some(t.name.as_str()),
                        p.file_stem().and_then(|s| s.to_str())
                    );
                    read += 1;
                }
                Err(e) => refused.push(format!("{}: {e}", p.display())),
            }
        }
    }
    assert!(
        read >= READ_AT_LEAST,
        "read {read} types, expected at least {READ_AT_LEAST}; refused:\n{}",
        refused.join("\n")
    );
}

/// A module type file the reader refuses makes the resource type unknown to
/// pverify, and the error says why (Puppet would load it with Ruby).
#[test]
fn a_refused_type_file_is_named_in_the_error() {
    use puppet_compiler::eval::NodeInfo;
    use puppet_compiler::loader::{Environment, Overrides};
    let dir = std::env::temp_dir().join(format!("pverify-refused-type-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let types = dir.join("modules/odd/lib/puppet/type");
    std::fs::create_dir_all(&types).unwrap();
    std::fs::create_dir_all(dir.join("manifests")).unwrap();
    std::fs::write(
        types.join("odd_thing.rb"),
        "Puppet::Type.newtype(:odd_thing) do\n  newparam(compute_the_name)\nend\n",
    )
    .unwrap();
    std::fs::write(dir.join("manifests/site.pp"), "odd_thing { 'x': }\n").unwrap();
    let overrides = Overrides {
        basemodulepath: Some(String::new()),
        ..Overrides::default()
    };
    let env = Environment::boot(&dir, &overrides).unwrap();
    let node = NodeInfo {
        name: "node1.example.com".to_string(),
        // Expectations are Puppet 7.23's (the host's Puppet).
        puppet: puppet_compiler::version::PuppetVersion::V7,
        ..NodeInfo::default()
    };
    let err = match puppet_compiler::eval::compile(&env, node) {
        Ok(_) => panic!("compiled a resource of an unreadable type"),
        Err(e) => e.for_node("node1.example.com").to_string(),
    };
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        err.contains("Unknown resource type: 'odd_thing' (pverify cannot read its Ruby definition")
            && err.contains("odd_thing.rb: line 2: newparam of a computed name"),
        "{err}"
    );
}
