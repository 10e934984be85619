//! The shape of the code, checked as rust-analyzer's tidy tests check theirs:
//! each crate depends only on the crates ARCHITECTURE.md's table allows, and
//! inside each crate the top-level modules depend on each other one way (no
//! cycles). `cargo test --test tidy -- --nocapture` prints each crate's
//! module graph.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The crates of the workspace, by directory and package name.
fn crates() -> Vec<(PathBuf, String)> {
    let mut out = vec![(PathBuf::from(ROOT), "pverify".to_string())];
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(Path::new(ROOT).join("crates"))
        .expect("crates/")
        .map(|e| e.expect("crates/ entry").path())
        .collect();
    dirs.sort();
    for d in dirs {
        let name = d.file_name().unwrap().to_string_lossy().into_owned();
        out.push((d, name));
    }
    out
}

/// The workspace crates a manifest lists under `[dependencies]`.
fn workspace_dependencies(dir: &Path, ours: &BTreeSet<String>) -> BTreeSet<String> {
    let text = std::fs::read_to_string(dir.join("Cargo.toml")).expect("Cargo.toml");
    let mut in_deps = false;
    let mut deps = BTreeSet::new();
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_deps = line == "[dependencies]";
            continue;
        }
        if !in_deps {
            continue;
        }
        let name = line.split(['.', '=', ' ']).next().unwrap_or("");
        if ours.contains(name) {
            deps.insert(name.to_string());
        }
    }
    deps
}

/// ARCHITECTURE.md's crate table: `| `crate` | what | may depend on |`.
fn allowed_dependencies(ours: &BTreeSet<String>) -> BTreeMap<String, BTreeSet<String>> {
    let text = std::fs::read_to_string(Path::new(ROOT).join("ARCHITECTURE.md")).expect("doc");
    let mut table = BTreeMap::new();
    for line in text.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells.len() < 4 {
            continue;
        }
        let name = cells[1].trim_matches('`');
        if !ours.contains(name) {
            continue;
        }
        let allowed = cells[cells.len() - 2]
            .split(',')
            .map(|s| s.trim().trim_matches('`').to_string())
            .filter(|s| ours.contains(s))
            .collect();
        table.insert(name.to_string(), allowed);
    }
    table
}

#[test]
fn each_crate_depends_only_on_the_crates_architecture_md_allows() {
    let crates = crates();
    let ours: BTreeSet<String> = crates.iter().map(|(_, n)| n.clone()).collect();
    let allowed = allowed_dependencies(&ours);
    for (dir, name) in &crates {
        let Some(allow) = allowed.get(name) else {
            panic!("ARCHITECTURE.md's crate table has no row for `{name}`");
        };
        let deps = workspace_dependencies(dir, &ours);
        let extra: Vec<_> = deps.difference(allow).collect();
        assert!(
            extra.is_empty(),
            "{name} depends on {extra:?}, which ARCHITECTURE.md does not allow"
        );
    }
}

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.map(|e| e.expect("entry").path()).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The module path of a file under `src` (`eval/expr.rs` is `[eval, expr]`,
/// `eval/mod.rs` is `[eval]`, `lib.rs` is `[]`).
fn module_path(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).expect("under src");
    let mut parts: Vec<String> = rel
        .iter()
        .map(|c| c.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().expect("file name");
    let stem = last.trim_end_matches(".rs");
    if !matches!(stem, "mod" | "lib" | "main") {
        parts.push(stem.to_string());
    }
    parts
}

/// The top-level modules a file's paths name: `crate::x`, `super::...`
/// resolved from the file's place, and the names inside `crate::{...}`.
fn referenced_top_modules(
    text: &str,
    here: &[String],
    tops: &BTreeSet<String>,
) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let code: String = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let bytes = code.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let at_word_start =
            i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_');
        if at_word_start && bytes[i..].starts_with(b"crate::") {
            let rest = &code[i + 7..];
            if let Some(group) = rest.strip_prefix('{') {
                let end = group.find('}').unwrap_or(group.len());
                for item in group[..end].split(',') {
                    let name = item.trim().split("::").next().unwrap_or("").trim();
                    if tops.contains(name) {
                        found.insert(name.to_string());
                    }
                }
            } else {
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if tops.contains(&name) {
                    found.insert(name);
                }
            }
            i += 7;
            continue;
        }
        if at_word_start && bytes[i..].starts_with(b"super::") {
            let mut depth = 0;
            let mut j = i;
            while code[j..].starts_with("super::") {
                depth += 1;
                j += 7;
            }
            // A file's module path; `super` of a `mod.rs`/`foo.rs` module is
            // its parent, so the target is `here` minus `depth` segments.
            if depth <= here.len() {
                let base = &here[..here.len() - depth];
                let name: String = code[j..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                let top = base.first().cloned().unwrap_or(name);
                if tops.contains(&top) {
                    found.insert(top);
                }
            }
            i = j;
            continue;
        }
        i += 1;
    }
    found
}

/// The graph of a crate's top-level modules: for each, the others it uses.
fn module_graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let tops: BTreeSet<String> = files
        .iter()
        .filter_map(|f| module_path(src, f).first().cloned())
        .collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> =
        tops.iter().map(|t| (t.clone(), BTreeSet::new())).collect();
    for f in &files {
        let here = module_path(src, f);
        let Some(top) = here.first() else { continue };
        let text = std::fs::read_to_string(f).expect("source");
        for used in referenced_top_modules(&text, &here, &tops) {
            if &used != top {
                graph.get_mut(top).expect("top").insert(used);
            }
        }
    }
    graph
}

/// A cycle in the graph, if any, as the modules along it.
fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(node.to_string(), 1);
        stack.push(node.to_string());
        for next in &graph[node] {
            match state.get(next.as_str()).copied().unwrap_or(0) {
                1 => {
                    let from = stack.iter().position(|s| s == next).expect("on stack");
                    let mut cycle = stack[from..].to_vec();
                    cycle.push(next.clone());
                    return Some(cycle);
                }
                0 => {
                    if let Some(c) = visit(next, graph, state, stack) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        stack.pop();
        state.insert(node.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for node in graph.keys() {
        if state.get(node.as_str()).copied().unwrap_or(0) == 0 {
            if let Some(c) = visit(node, graph, &mut state, &mut Vec::new()) {
                return Some(c);
            }
        }
    }
    None
}

#[test]
fn top_level_modules_inside_each_crate_have_no_cycles() {
    let mut failures = Vec::new();
    for (dir, name) in crates() {
        let graph = module_graph(&dir.join("src"));
        println!("{name}:");
        for (module, uses) in &graph {
            let uses: Vec<&str> = uses.iter().map(String::as_str).collect();
            println!("  {module} -> {}", uses.join(", "));
        }
        if let Some(cycle) = find_cycle(&graph) {
            failures.push(format!("{name}: {}", cycle.join(" -> ")));
        }
    }
    assert!(
        failures.is_empty(),
        "module cycles:\n{}",
        failures.join("\n")
    );
}

#[test]
fn the_cycle_finder_finds_cycles() {
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    g.insert("a".into(), ["b".to_string()].into());
    g.insert("b".into(), ["c".to_string()].into());
    g.insert("c".into(), BTreeSet::new());
    assert_eq!(find_cycle(&g), None);
    g.get_mut("c").unwrap().insert("a".into());
    assert_eq!(find_cycle(&g).unwrap(), ["a", "b", "c", "a"]);
    let tops: BTreeSet<String> = ["eval", "hiera"].map(String::from).into();
    let here = ["hiera".to_string(), "lookup".to_string()];
    let used = referenced_top_modules(
        "use crate::{eval::Value, x};\nuse super::super::eval::y;\nuse super::memo;",
        &here,
        &tops,
    );
    assert_eq!(used, ["eval".to_string(), "hiera".to_string()].into());
}
