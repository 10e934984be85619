//! `cargo xtask oracle-types [MODULEPATH_DIR...]`: what pverify knows of each
//! resource type (Puppet's own, and every `<module>/lib/puppet/type/*.rb`
//! under the directories, default /usr/share/puppet/modules) against what
//! Puppet 7.23 loads (`xtask/puppet/types.rb`): parameters, properties, key
//! attributes, isomorphism and title patterns.
//!
//! A type the static reader refuses is listed with the reason (it is then an
//! unknown type to pverify); a type it reads differently from Ruby fails
//! the task.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use puppet_compiler::restypes::{self, TypeCache, TypeDef};
use serde_json::{json, Value};

pub fn run(args: &[String]) -> Result<(), String> {
    let mut modulepath: Vec<PathBuf> = args.iter().map(PathBuf::from).collect();
    if modulepath.is_empty() {
        modulepath.push(PathBuf::from("/usr/share/puppet/modules"));
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .ok_or("cannot locate the workspace root")?
        .to_path_buf();
    let mut names: Vec<String> = restypes::builtin::NAMES
        .iter()
        .map(|s| s.to_string())
        .collect();
    let mut module_names = BTreeSet::new();
    for dir in &modulepath {
        for f in type_files(dir) {
            if let Some(stem) = f.file_stem().and_then(|s| s.to_str()) {
                module_names.insert(stem.to_string());
            }
        }
    }
    names.extend(module_names.iter().cloned());
    let ruby = run_driver(&root.join("xtask/puppet/types.rb"), &modulepath, &names)?;
    let cache = TypeCache::default();
    let (mut agree, mut refused, mut ruby_fails) = (0, Vec::new(), Vec::new());
    let mut disagree = Vec::new();
    for name in &names {
        let theirs = &ruby[name];
        let ours = cache.find(&puppet_compiler::files::OsFiles, name, &modulepath);
        if let Some(err) = theirs.get("error") {
            ruby_fails.push(format!("{name}: Ruby: {}", err.as_str().unwrap_or("?")));
            continue;
        }
        let Some(ours) = ours else {
            let why = restypes::type_file(&puppet_compiler::files::OsFiles, name, &modulepath)
                .map(|f| {
                    match restypes::read_type_file(
                        &puppet_compiler::files::OsFiles,
                        &f,
                        &modulepath,
                    ) {
                        Err(e) => format!("{}: {e}", f.display()),
                        Ok(_) => format!("{}: read, but not found", f.display()),
                    }
                })
                .unwrap_or_else(|| "no file".to_string());
            refused.push(format!("{name}: {why}"));
            continue;
        };
        match compare(&ours, theirs) {
            Ok(()) => agree += 1,
            Err(e) => disagree.push(format!("{name}: {e}")),
        }
    }
    println!(
        "oracle-types: {} types ({} Puppet's own, {} from modules): {agree} agree with Puppet 7.23, {} read differently, {} refused by the reader, {} fail to load in Ruby",
        names.len(),
        restypes::builtin::NAMES.len(),
        module_names.len(),
        disagree.len(),
        refused.len(),
        ruby_fails.len()
    );
    for r in &refused {
        println!("  refused: {r}");
    }
    for r in &ruby_fails {
        println!("  ruby error: {r}");
    }
    for d in &disagree {
        println!("  DIFFERENT: {d}");
    }
    if disagree.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} types read differently from Puppet",
            disagree.len()
        ))
    }
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

fn compare(ours: &TypeDef, theirs: &Value) -> Result<(), String> {
    let set = |l: &[String]| l.iter().cloned().collect::<BTreeSet<_>>();
    let mut diffs = Vec::new();
    for (what, mine, key) in [
        ("parameters", &ours.parameters, "parameters"),
        ("properties", &ours.properties, "properties"),
    ] {
        let theirs = set(&strings(&theirs[key]));
        let mine = set(mine);
        if mine != theirs {
            let missing: Vec<_> = theirs.difference(&mine).collect();
            let extra: Vec<_> = mine.difference(&theirs).collect();
            diffs.push(format!("{what}: missing {missing:?}, extra {extra:?}"));
        }
    }
    let keys = strings(&theirs["key_attributes"]);
    if keys != ours.key_attributes {
        diffs.push(format!(
            "key attributes {:?}, Ruby {keys:?}",
            ours.key_attributes
        ));
    }
    if theirs["isomorphic"].as_bool() != Some(ours.isomorphic) {
        diffs.push("isomorphic differs".to_string());
    }
    let their_patterns: Vec<Vec<String>> = theirs["title_patterns"]
        .as_array()
        .map(|a| a.iter().map(|p| strings(&p[1])).collect())
        .unwrap_or_default();
    let our_patterns: Vec<Vec<String>> = match &ours.title_patterns {
        Some(p) => p.iter().map(|p| p.attributes.clone()).collect(),
        // File's own pattern lives in the catalog (`file_path_from_title`).
        None => their_patterns
            .first()
            .filter(|_| ours.name == "file")
            .cloned()
            .into_iter()
            .chain(
                ours.key_attributes
                    .first()
                    .filter(|_| ours.name != "file")
                    .map(|k| vec![k.clone()]),
            )
            .collect(),
    };
    // The expressions too, where the type has its own patterns.
    if let Some(p) = &ours.title_patterns {
        let theirs_src: Vec<String> = theirs["title_patterns"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|p| p[0].as_str().unwrap_or_default().to_string())
                    .collect()
            })
            .unwrap_or_default();
        // Ruby's `source` leaves the options out (pverify writes them
        // first, `(?i)`) and keeps `\/` (the same as `/`).
        let same = |s: &str| {
            let s = match s.strip_prefix("(?") {
                Some(r)
                    if r.find(')')
                        .is_some_and(|k| r[..k].chars().all(|c| "imx".contains(c))) =>
                {
                    &r[r.find(')').unwrap_or(0) + 1..]
                }
                _ => s,
            };
            s.replace("\\/", "/")
        };
        let ours_src: Vec<String> = p.iter().map(|p| p.regex.clone()).collect();
        let differ = ours_src.len() != theirs_src.len()
            || ours_src
                .iter()
                .zip(&theirs_src)
                .any(|(a, b)| same(a) != same(b));
        if differ {
            diffs.push(format!(
                "title pattern expressions {ours_src:?}, Ruby {theirs_src:?}"
            ));
        }
    }
    if our_patterns != their_patterns {
        diffs.push(format!(
            "title pattern attributes {our_patterns:?}, Ruby {their_patterns:?}"
        ));
    }
    if diffs.is_empty() {
        Ok(())
    } else {
        Err(diffs.join("; "))
    }
}

fn type_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(modules) = std::fs::read_dir(dir) else {
        return out;
    };
    for m in modules.flatten() {
        if let Ok(files) = std::fs::read_dir(m.path().join("lib/puppet/type")) {
            for f in files.flatten() {
                let p = f.path();
                if p.extension().is_some_and(|e| e == "rb") {
                    out.push(p);
                }
            }
        }
    }
    out.sort();
    out
}

fn run_driver(driver: &Path, modulepath: &[PathBuf], names: &[String]) -> Result<Value, String> {
    let request = json!({
        "modulepath": modulepath.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
        "types": names,
    });
    let mut child = Command::new("ruby")
        .arg(driver)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| {
            format!(
                "running ruby {} (is puppet installed?): {e}",
                driver.display()
            )
        })?;
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let body = serde_json::to_vec(&request).map_err(|e| e.to_string())?;
    let writer = std::thread::spawn(move || stdin.write_all(&body));
    let out = child
        .wait_with_output()
        .map_err(|e| format!("waiting for ruby: {e}"))?;
    let _ = writer.join();
    if !out.status.success() {
        return Err(format!(
            "types.rb failed ({}):\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim_end()
        ));
    }
    serde_json::from_slice(&out.stdout).map_err(|e| format!("types.rb printed no JSON: {e}"))
}
