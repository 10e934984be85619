//! `pverify compile --setting hiera_config=FILE`: the global Hiera layer
//! from the command line (the spec-suite sets it through `settings:
//! hiera_config`; `--hiera-config` replaces the environment's hiera.yaml on
//! every compiling command),
//! and a YAML node file read with Psych's scalar rules.

use std::process::Command;

#[test]
fn compile_reads_the_global_hiera_config() {
    let dir = std::env::temp_dir().join(format!("pverify-hiera-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let env = dir.join("production");
    let global = dir.join("global");
    std::fs::create_dir_all(env.join("manifests")).unwrap();
    std::fs::create_dir_all(global.join("data")).unwrap();
    std::fs::write(
        env.join("manifests/site.pp"),
        "notify { 'x': message => [lookup('msg'), $facts['flag'], $facts['mode']] }\n",
    )
    .unwrap();
    std::fs::write(
        global.join("hiera.yaml"),
        "---\nversion: 5\nhierarchy:\n  - name: os\n    path: '%{facts.os.family}.yaml'\n",
    )
    .unwrap();
    std::fs::write(
        global.join("data/Debian.yaml"),
        "---\nmsg: 'global %{facts.mode}'\n",
    )
    .unwrap();
    let node = dir.join("node.yaml");
    std::fs::write(
        &node,
        "--- !ruby/object:Puppet::Node::Facts\nname: n1.example.com\nvalues:\n  flag: yes\n  mode: 0755\n  os:\n    family: Debian\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_pverify"))
        .arg("compile")
        .arg(&env)
        .arg("--facts")
        .arg(&node)
        .arg("--setting")
        .arg(format!(
            "hiera_config={}",
            global.join("hiera.yaml").display()
        ))
        .output()
        .expect("run pverify");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let catalog: serde_json::Value = serde_json::from_slice(&out.stdout).expect("catalog JSON");
    let notify = catalog["resources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["type"] == "Notify")
        .expect("the notify");
    assert_eq!(
        notify["parameters"]["message"],
        serde_json::json!(["global 493", true, 493])
    );
}
