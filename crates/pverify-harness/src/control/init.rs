//! `pverify init`: a first `pverify.yaml` for an existing control repo.
//!
//! It reads what Puppet would (environment.conf's `modulepath` and
//! `manifest`, the repo's `hiera.yaml`), finds the repo's classes on the
//! modulepath directories inside the repo (onceover's way: every class of
//! every `*.pp` there), its roles (`role::*`, `roles::*`, onceover's default
//! role pattern) and the certnames of `node` definitions in the main
//! manifest, and writes a node matrix: each named node, and each role on a
//! node of its own (classified as an ENC would), on a few fact sets (the
//! built-in facterdb sets, or `--factsets DIR`'s). With `--from-onceover`
//! the matrix is the spec tests of `spec/onceover.yaml` instead
//! ([`super::onceover`]).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use puppet_syntax::ast::ExprKind;

use crate::factsets;
use crate::reference::PuppetVersion;

/// What `pverify init` is asked for.
#[derive(Clone, Debug, Default)]
pub struct InitOptions {
    pub puppet: PuppetVersion,
    /// Fact sets from this directory (`*.facts`, `*.json`) instead of the
    /// built-in ones.
    pub factsets: Option<PathBuf>,
    /// The matrix from `spec/onceover.yaml`.
    pub from_onceover: bool,
}

/// A control repo as Puppet and onceover see it.
#[derive(Clone, Debug, Default)]
pub struct Inspection {
    /// environment.conf's modulepath entries (as written).
    pub modulepath: Vec<String>,
    /// The main manifest (file or directory), relative to the repo.
    pub manifest: PathBuf,
    /// Every class defined on the modulepath directories inside the repo.
    pub classes: BTreeSet<String>,
    /// Certnames of `node` definitions (not regexes, not `default`).
    pub node_names: Vec<String>,
    /// Whether the main manifest has a `node default` (or regex nodes:
    /// some name may match them).
    pub default_node: bool,
    /// Whether the main manifest has any node definition.
    pub has_nodes: bool,
    /// What the reader could not read or wants the operator to know.
    pub notes: Vec<String>,
}

impl Inspection {
    /// The roles: onceover's default `role_regex` (`/role[s]?:{2}/`), at
    /// the start of the name.
    pub fn roles(&self) -> Vec<&str> {
        self.classes
            .iter()
            .map(String::as_str)
            .filter(|c| c.starts_with("role::") || c.starts_with("roles::"))
            .collect()
    }
}

/// Reads the repo at `dir`.
pub fn inspect(dir: &Path) -> Result<Inspection, String> {
    if !dir.is_dir() {
        return Err(format!("{}: not a directory", dir.display()));
    }
    let mut out = Inspection::default();
    let conf = dir.join("environment.conf");
    let (modulepath, manifest) = match std::fs::read_to_string(&conf) {
        Ok(text) => read_environment_conf(&text),
        Err(_) => {
            out.notes.push(
                "no environment.conf: Puppet's defaults (modulepath `modules:$basemodulepath`, manifest `manifests`)"
                    .into(),
            );
            (None, None)
        }
    };
    out.modulepath =
        modulepath.unwrap_or_else(|| vec!["modules".to_string(), "$basemodulepath".to_string()]);
    out.manifest = PathBuf::from(manifest.unwrap_or_else(|| "manifests".to_string()));
    for entry in &out.modulepath {
        // `$basemodulepath` and directories outside the repo hold modules,
        // not the repo's own code.
        if entry.starts_with('$') || Path::new(entry).is_absolute() || entry.contains("..") {
            continue;
        }
        let root = dir.join(entry);
        for file in manifests_under(&root) {
            match parse(&file) {
                Ok(p) => out.classes.extend(classes_of(&p)),
                Err(e) => out.notes.push(format!("{e} (its classes are not listed)")),
            }
        }
    }
    let manifest = dir.join(&out.manifest);
    let files = if manifest.is_dir() {
        manifests_under(&manifest)
    } else {
        vec![manifest.clone()]
    };
    for file in files.iter().filter(|f| f.is_file()) {
        match parse(file) {
            Ok(p) => read_nodes(&p, &mut out),
            Err(e) => out.notes.push(e),
        }
    }
    if !dir.join("hiera.yaml").is_file() {
        out.notes
            .push("no hiera.yaml: the environment has no Hiera layer of its own".into());
    }
    Ok(out)
}

/// `modulepath` and `manifest` of environment.conf (Puppet's ini format:
/// `key = value`, `#` and `;` comments).
fn read_environment_conf(text: &str) -> (Option<Vec<String>>, Option<String>) {
    let mut modulepath = None;
    let mut manifest = None;
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('#') || line.starts_with(';') || line.starts_with('[') {
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        let value = value.trim().trim_matches('"').to_string();
        match key.trim() {
            "modulepath" => {
                modulepath = Some(
                    value
                        .split(':')
                        .map(str::trim)
                        .filter(|s| !s.is_empty())
                        .map(str::to_string)
                        .collect(),
                )
            }
            "manifest" => manifest = Some(value),
            _ => {}
        }
    }
    (modulepath, manifest)
}

fn manifests_under(root: &Path) -> Vec<PathBuf> {
    if !root.exists() {
        return Vec::new();
    }
    puppet_compiler::files::find_manifests(&puppet_compiler::files::OsFiles, root)
        .unwrap_or_default()
}

fn parse(file: &Path) -> Result<puppet_syntax::ast::Program, String> {
    let bytes = std::fs::read(file).map_err(|e| format!("{}: {e}", file.display()))?;
    puppet_syntax::parse(&file.display().to_string(), &bytes).map_err(|e| e.to_string())
}

fn classes_of(p: &puppet_syntax::ast::Program) -> Vec<String> {
    p.definitions()
        .iter()
        .filter_map(|d| match &p.definition(d).kind {
            ExprKind::Class { name, .. } => Some(name.trim_start_matches("::").to_string()),
            _ => None,
        })
        .collect()
}

fn read_nodes(p: &puppet_syntax::ast::Program, out: &mut Inspection) {
    for d in p.definitions() {
        let ExprKind::Node { host_matches, .. } = &p.definition(d).kind else {
            continue;
        };
        out.has_nodes = true;
        for m in host_matches {
            match &m.kind {
                ExprKind::Str(s) | ExprKind::QName(s) => {
                    let name = s.to_lowercase();
                    if !out.node_names.contains(&name) {
                        out.node_names.push(name);
                    }
                }
                ExprKind::Default | ExprKind::Regex(_) => out.default_node = true,
                _ => {}
            }
        }
    }
}

/// The fact sets a new config names: `--factsets DIR`'s files, else the
/// built-in sets of the Puppet version.
pub fn factset_names(opts: &InitOptions) -> Result<Vec<String>, String> {
    match &opts.factsets {
        None => Ok(factsets::for_version(opts.puppet)
            .iter()
            .map(|s| s.name.to_string())
            .collect()),
        Some(dir) => {
            let rd =
                std::fs::read_dir(dir).map_err(|e| format!("--factsets {}: {e}", dir.display()))?;
            let mut names: Vec<String> = rd
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "facts" || e == "json"))
                .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
                .collect();
            names.sort();
            names.dedup();
            if names.is_empty() {
                return Err(format!(
                    "--factsets {}: no fact set (*.facts or *.json) in it",
                    dir.display()
                ));
            }
            Ok(names)
        }
    }
}

/// A certname for a class's own node: `role::web::front` is
/// `role-web-front.example.com`.
pub fn certname_for_class(class: &str) -> String {
    format!("{}.example.com", class.replace("::", "-").replace('_', "-"))
}

/// One matrix entry of the config being written.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// A comment line above it.
    pub comment: String,
    pub names: Vec<String>,
    pub classes: Vec<String>,
    pub factsets: Vec<String>,
    /// Facts over the fact sets': what an agent adds to Facter's
    /// ([`agent_facts`]).
    pub facts: Vec<(String, String)>,
}

/// The facts a Puppet agent adds to Facter's before it asks for its
/// catalog (`Puppet::Node::Facts#add_local_facts`, and Puppet's own
/// `puppetversion`), which facterdb's sets lack and modules read
/// (`$clientversion`, `$clientcert`). YAML scalars.
pub fn agent_facts(certname: &str, puppet: PuppetVersion) -> Vec<(String, String)> {
    let version = match puppet {
        PuppetVersion::V7 => "'7.23.0'",
        PuppetVersion::V8 => "'8.10.0'",
    };
    vec![
        ("clientcert".into(), quote(certname)),
        ("clientversion".into(), version.into()),
        ("clientnoop".into(), "false".into()),
        ("puppetversion".into(), version.into()),
    ]
}

/// The config text: the settings, then the matrix.
pub fn render(
    puppet: PuppetVersion,
    factsets_dir: Option<&str>,
    extra: &[String],
    entries: &[Entry],
) -> String {
    let mut s = String::new();
    s.push_str(
        "# Written by `pverify init`: the node matrix `pverify check` compiles, each\n\
         # node compared with its golden catalog (golden/<node>.json, written by\n\
         # `pverify bless`). Schema: docs/harness.md.\n",
    );
    s.push_str(&format!(
        "puppet: {}\n",
        match puppet {
            PuppetVersion::V7 => 7,
            PuppetVersion::V8 => 8,
        }
    ));
    s.push_str("environment: .\n");
    match factsets_dir {
        Some(d) => s.push_str(&format!("factsets: {}\n", quote(d))),
        None => s.push_str(
            "# Fact sets: <name>.facts in factsets/ if there is one, else pverify's\n\
             # built-in facterdb sets of that name.\n",
        ),
    }
    s.push_str("golden: golden\n");
    for line in extra {
        s.push_str(line);
        s.push('\n');
    }
    s.push_str("nodes:\n  matrix:\n");
    for e in entries {
        s.push_str(&format!("    # {}\n", e.comment));
        s.push_str(&format!("    - names: [{}]\n", list(&e.names)));
        if !e.classes.is_empty() {
            s.push_str(&format!("      classes: [{}]\n", list(&e.classes)));
        }
        s.push_str(&format!("      factsets: [{}]\n", list(&e.factsets)));
        if !e.facts.is_empty() {
            let facts: Vec<String> = e.facts.iter().map(|(k, v)| format!("{k}: {v}")).collect();
            s.push_str(&format!("      facts: {{{}}}\n", facts.join(", ")));
        }
    }
    s
}

fn list(items: &[String]) -> String {
    items
        .iter()
        .map(|i| quote(i))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A YAML scalar: plain when it is a simple name, else single-quoted.
fn quote(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_' | ':' | '/'))
        && s.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && !s.ends_with(':')
        && !matches!(
            s,
            "yes" | "no" | "true" | "false" | "on" | "off" | "null" | "y" | "n"
        );
    if plain {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "''"))
    }
}

/// The entries of a plain (not onceover) init: the named nodes of the main
/// manifest, then each role alone.
pub fn entries(found: &Inspection, factsets: &[String], puppet: PuppetVersion) -> Vec<Entry> {
    let mut out = Vec::new();
    // One entry per name: the agent's facts name the node.
    for name in &found.node_names {
        out.push(Entry {
            comment: format!(
                "{name}: a node definition of {}, classified by the manifest",
                found.manifest.display()
            ),
            names: vec![name.clone()],
            classes: Vec::new(),
            factsets: factsets.to_vec(),
            facts: agent_facts(name, puppet),
        });
    }
    for role in found.roles() {
        let name = certname_for_class(role);
        out.push(Entry {
            comment: format!("{role} on a node of its own (its class as an ENC gives it)"),
            facts: agent_facts(&name, puppet),
            names: vec![name],
            classes: vec![role.to_string()],
            factsets: factsets.to_vec(),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn environment_conf_and_quoting() {
        let (m, f) = read_environment_conf(
            "# c\nmodulepath = site-modules:modules:$basemodulepath\nmanifest=manifests/site.pp\n",
        );
        assert_eq!(
            m,
            Some(vec![
                "site-modules".to_string(),
                "modules".into(),
                "$basemodulepath".into()
            ])
        );
        assert_eq!(f.as_deref(), Some("manifests/site.pp"));
        assert_eq!(quote("role::web"), "role::web");
        assert_eq!(quote("yes"), "'yes'");
        assert_eq!(quote("it's"), "'it''s'");
        assert_eq!(
            certname_for_class("role::web_front"),
            "role-web-front.example.com"
        );
    }
}
