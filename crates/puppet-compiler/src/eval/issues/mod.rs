//! The evaluator's error and warning texts, by family: one registry of
//! named texts, as Puppet keeps its own in `lib/puppet/pops/issues.rb`.
//!
//! Each text is a named item: a `const` for a fixed text, a small `fn`
//! taking the arguments for a formatted one. Where Puppet has the issue in
//! `issues.rb` the item is named after Puppet's key (a const keeps the key
//! as it is, `DIV_BY_ZERO`; a fn is its snake case, `unknown_variable` for
//! `UNKNOWN_VARIABLE`) and its doc comment quotes Puppet's key and wording.
//! Texts Puppet writes elsewhere (its Ruby runtime, `type_collection.rb`,
//! the Hiera and template code) name that place instead.
//!
//! Arguments come already rendered (labels with their article, values as
//! Puppet shows them): the raise site chooses them, the registry only
//! writes the sentence. Each family's tests build the texts through the
//! registry and compare them with Puppet's wording.
//!
//! Function-specific argument errors made by the generic signature
//! machinery (`builtins/signatures.rs`) stay where they are generated.

pub(crate) mod classes;
pub(crate) mod functions;
pub(crate) mod limits;
pub(crate) mod lookup;
pub(crate) mod operators;
pub(crate) mod relationships;
pub(crate) mod resources;
pub(crate) mod templates;
pub(crate) mod variables;

#[cfg(test)]
mod tests {
    use std::path::Path;

    fn sources(dir: &Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                if path.file_name().is_some_and(|n| n != "issues") {
                    sources(&path, out);
                }
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(std::fs::read_to_string(&path).unwrap());
            }
        }
    }

    /// Every text of the registry is raised somewhere in the evaluator
    /// (named `family::item` at its raise site).
    #[test]
    fn every_entry_is_used() {
        let eval = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/eval");
        let mut code = Vec::new();
        sources(&eval, &mut code);
        let mut unused = Vec::new();
        for entry in std::fs::read_dir(eval.join("issues")).unwrap() {
            let path = entry.unwrap().path();
            let family = path.file_stem().unwrap().to_string_lossy().into_owned();
            if family == "mod" {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            for line in text.lines() {
                let Some(rest) = line
                    .strip_prefix("pub(crate) fn ")
                    .or_else(|| line.strip_prefix("pub(crate) const "))
                else {
                    continue;
                };
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                let used = format!("{family}::{name}");
                if !code.iter().any(|c| c.contains(&used)) {
                    unused.push(used);
                }
            }
        }
        assert!(
            unused.is_empty(),
            "registry entries never raised: {unused:?}"
        );
    }
}
