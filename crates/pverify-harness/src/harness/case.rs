//! The `.case` file format: txtar-like sections, `case.yaml` first.

use std::fs;
use std::io;
use std::path::{Component, Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;

const CASE_YAML: &str = "case.yaml";
const EXPECT_JSON: &str = "expect.json";
const EXPECT_ERROR: &str = "expect.error";
const EXPECT_WARNINGS: &str = "expect.warnings";

pub use crate::reference::PuppetVersion;

/// One value per reference: what Puppet 7.23 and Puppet 8.10 make of a case.
/// A case file writes it once when both agree (`expect.json`), else once
/// per version (`expect@7.json`, `expect@8.error`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Versioned<T> {
    pub v7: T,
    pub v8: T,
}

impl<T: Clone> Versioned<T> {
    /// The same value for both versions.
    pub fn both(value: T) -> Versioned<T> {
        Versioned {
            v7: value.clone(),
            v8: value,
        }
    }
}

impl<T> Versioned<T> {
    pub fn get(&self, version: PuppetVersion) -> &T {
        match version {
            PuppetVersion::V7 => &self.v7,
            PuppetVersion::V8 => &self.v8,
        }
    }

    pub fn set(&mut self, version: PuppetVersion, value: T) {
        match version {
            PuppetVersion::V7 => self.v7 = value,
            PuppetVersion::V8 => self.v8 = value,
        }
    }
}

/// The section name of an expectation: `expect.json`, or for one version
/// only `expect@8.json`.
fn expect_section(kind: &str, version: Option<PuppetVersion>) -> String {
    match version {
        None => format!("expect.{kind}"),
        Some(v) => format!("expect@{}.{kind}", v.major()),
    }
}

/// Splits `expect.json` / `expect@7.error` into the version (`None`: both)
/// and the kind (`json`, `error`, `warnings`).
fn parse_expect_section(name: &str) -> Option<(Option<PuppetVersion>, &str)> {
    let rest = name.strip_prefix("expect")?;
    if let Some(kind) = rest.strip_prefix('.') {
        return Some((None, kind));
    }
    let (version, kind) = rest.strip_prefix('@')?.split_once('.')?;
    let version = match version {
        "7" => PuppetVersion::V7,
        "8" => PuppetVersion::V8,
        _ => return None,
    };
    Some((Some(version), kind))
}

/// One spec-suite case.
#[derive(Debug, Clone, PartialEq)]
pub struct Case {
    /// The `.case` file (as given to [`parse_case`]).
    pub path: PathBuf,
    /// The rules the case checks, e.g. `modus-operandi#search-for-a-name`.
    pub spec: Vec<String>,
    pub description: String,
    /// The certname.
    pub node: String,
    /// Inline facts (a mapping; `{}` when there are none). Applied over the
    /// fact set, if any: see [`Case::resolve_facts`]. Shared: the nodes of
    /// a replicated matrix hold one fact set's facts (10,000 copies of it
    /// were half of a cached fleet diff's time).
    pub facts: std::sync::Arc<Value>,
    /// A fact set of [`super::FACTSETS_DIR`], without `.facts`.
    pub factset: Option<String>,
    /// `extensions` (and, rarely, `authenticated`, `certname`, `external`)
    /// of `$trusted`.
    pub trusted: Option<Value>,
    /// ENC classes: a list of names or a mapping class => parameters.
    pub classes: Option<Value>,
    /// ENC parameters (top-scope variables).
    pub parameters: Option<Value>,
    /// The environment name (`production` by default): the environment
    /// directory is `<environmentpath>/<environment>`.
    pub environment: String,
    /// Puppet settings for this compile, e.g. `strict_variables: true`.
    pub settings: Option<Value>,
    /// Other nodes' exported resources for the exported collectors (a
    /// PuppetDB resources answer): `exports:` of case.yaml names one of the
    /// case's files; a control repo's come from `exports:` of pverify.yaml.
    pub exports: Option<CaseExports>,
    /// Why pverify does not pass this case yet (the issue that brings the
    /// feature), per Puppet version (`pending:` for both, `pending@8:` for
    /// one). A pending case that passes is a failure: the mark must go.
    pub pending: Versioned<Option<String>>,
    /// Why Puppet's own result for this case is not a function of its input
    /// (`puppet-varies:`), e.g. OpenSSL decrypting with a random key once
    /// the right one fails. `--oracle puppet` compiles such a case again
    /// when Puppet disagrees, up to [`super::suite::PUPPET_VARIES_TRIES`]
    /// times in all, and keeps the first agreeing answer.
    pub puppet_varies: Option<String>,
    /// The environment directory's files, relative to it, in file order.
    pub files: Vec<(String, String)>,
    /// What each reference makes of the case.
    pub expect: Versioned<Expect>,
    /// Warnings each reference logs while compiling (paths relative to the
    /// environment directory); empty when the case records none.
    pub expect_warnings: Versioned<Vec<String>>,
    /// The compile's time and memory budget (not part of the file: the
    /// command line's `--node-timeout` and `--node-memory`).
    pub budget: puppet_compiler::budget::Limits,
}

/// A case's exports: the file named (a case's own, written back by
/// [`write_case`]) and the resources read from it.
#[derive(Debug, Clone, PartialEq)]
pub struct CaseExports {
    pub file: Option<String>,
    pub store: std::sync::Arc<puppet_compiler::facts::exports::Exports>,
}

/// What Puppet makes of a case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expect {
    /// The catalog in canonical form ([`super::canonicalize_catalog`]).
    Catalog(String),
    /// The error text, paths relative to the environment directory.
    Error(String),
    /// No expectation recorded yet.
    None,
}

/// `case.yaml`, as written in a case file.
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct Header {
    spec: OneOrMany,
    #[serde(default)]
    description: String,
    node: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    factset: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    facts: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    trusted: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    classes: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    parameters: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    environment: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    settings: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    exports: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pending: Option<String>,
    #[serde(default, rename = "pending@7", skip_serializing_if = "Option::is_none")]
    pending7: Option<String>,
    #[serde(default, rename = "pending@8", skip_serializing_if = "Option::is_none")]
    pending8: Option<String>,
    #[serde(
        default,
        rename = "puppet-varies",
        skip_serializing_if = "Option::is_none"
    )]
    puppet_varies: Option<String>,
}

#[derive(Debug, Deserialize, Serialize)]
#[serde(untagged)]
enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

impl Case {
    /// `<topic>/<name>`: the case file's folder and stem.
    pub fn name(&self) -> String {
        let stem = self
            .path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        match self.path.parent().and_then(Path::file_name) {
            Some(topic) => format!("{}/{stem}", topic.to_string_lossy()),
            None => stem,
        }
    }

    /// The node's facts: the fact set `factset` (a JSON object in
    /// `factsets_dir/<name>.facts`), if any, with the inline `facts` applied
    /// over it key by key (a top-level key of `facts` replaces the fact
    /// set's).
    pub fn resolve_facts(&self, factsets_dir: &Path) -> Result<Value, String> {
        let mut facts = match &self.factset {
            None => Value::Object(Default::default()),
            Some(name) => {
                let path = factsets_dir.join(format!("{name}.facts"));
                let text = fs::read_to_string(&path)
                    .map_err(|e| format!("{}: factset '{name}': {e}", path.display()))?;
                let v: Value = serde_json::from_str(&text)
                    .map_err(|e| format!("{}: not JSON: {e}", path.display()))?;
                if !v.is_object() {
                    return Err(format!("{}: not a JSON object", path.display()));
                }
                v
            }
        };
        if let (Value::Object(into), Value::Object(over)) = (&mut facts, &*self.facts) {
            for (k, v) in over {
                into.insert(k.clone(), v.clone());
            }
        }
        Ok(facts)
    }
}

/// One `-- NAME --` section: its name and its text (each line with its `\n`).
struct Section<'a> {
    name: &'a str,
    body: &'a str,
}

/// The section name of a marker line `-- NAME --`, if `line` is one.
fn marker(line: &str) -> Option<&str> {
    let line = line.strip_suffix('\n').unwrap_or(line);
    let line = line.strip_suffix('\r').unwrap_or(line);
    let name = line.strip_prefix("-- ")?.strip_suffix(" --")?.trim();
    (!name.is_empty()).then_some(name)
}

/// Splits a case file into sections. Text before the first marker must be
/// blank.
fn sections(text: &str) -> Result<Vec<Section<'_>>, String> {
    let mut out: Vec<Section> = Vec::new();
    let mut start: Option<(&str, usize)> = None;
    let mut offset = 0;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        if let Some(name) = marker(line) {
            match start {
                Some((prev, from)) => out.push(Section {
                    name: prev,
                    body: &text[from..offset],
                }),
                None => {
                    if !text[..offset].trim().is_empty() {
                        return Err(format!(
                            "line {}: only blank lines may precede the first `-- NAME --` section",
                            i + 1
                        ));
                    }
                }
            }
            start = Some((name, offset + line.len()));
        }
        offset += line.len();
    }
    match start {
        Some((name, from)) => out.push(Section {
            name,
            body: &text[from..],
        }),
        None => return Err("no `-- case.yaml --` section".to_string()),
    }
    Ok(out)
}

/// Checks that a file section names a path inside the environment directory.
fn check_file_name(name: &str) -> Result<(), String> {
    let p = Path::new(name);
    let ok = !name.is_empty()
        && !name.contains('\\')
        && p.components().all(|c| matches!(c, Component::Normal(_)));
    if ok {
        Ok(())
    } else {
        Err(format!(
            "section '{name}': a file must be a relative path inside the environment directory"
        ))
    }
}

fn is_mapping(v: &Value) -> bool {
    v.is_object()
}

/// Parses a `.case` file. `path` is recorded in the case and names it in
/// errors.
pub fn parse_case(path: &Path, text: &str) -> Result<Case, String> {
    parse_case_inner(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

fn parse_case_inner(path: &Path, text: &str) -> Result<Case, String> {
    let sections = sections(text)?;
    let first = &sections[0];
    if first.name != CASE_YAML {
        return Err(format!(
            "the first section must be `-- {CASE_YAML} --`, not `-- {} --`",
            first.name
        ));
    }
    let header: Header =
        puppet_model::yaml::from_str(first.body).map_err(|e| format!("{CASE_YAML}: {e}"))?;
    let spec = match header.spec {
        OneOrMany::One(s) => vec![s],
        OneOrMany::Many(v) => v,
    };
    if spec.is_empty() || spec.iter().any(|s| s.trim().is_empty()) {
        return Err(format!("{CASE_YAML}: `spec` must name at least one rule"));
    }
    if header.node.trim().is_empty() {
        return Err(format!("{CASE_YAML}: `node` must not be empty"));
    }
    let facts = header
        .facts
        .unwrap_or_else(|| Value::Object(Default::default()));
    if !is_mapping(&facts) {
        return Err(format!("{CASE_YAML}: `facts` must be a mapping"));
    }
    if let Some(t) = &header.trusted {
        let Value::Object(m) = t else {
            return Err(format!("{CASE_YAML}: `trusted` must be a mapping"));
        };
        for (k, v) in m {
            match k.as_str() {
                "extensions" | "external" if v.is_object() => {}
                "authenticated" if v.is_string() || v == &Value::Bool(false) => {}
                "certname" if v.is_string() || v.is_null() => {}
                _ => {
                    return Err(format!(
                        "{CASE_YAML}: `trusted.{k}`: expected extensions (mapping), external (mapping), authenticated or certname"
                    ))
                }
            }
        }
    }
    if let Some(c) = &header.classes {
        let ok = match c {
            Value::Array(a) => a.iter().all(Value::is_string),
            Value::Object(m) => m.values().all(|v| v.is_null() || v.is_object()),
            _ => false,
        };
        if !ok {
            return Err(format!(
                "{CASE_YAML}: `classes` must be a list of class names or a mapping class => parameters"
            ));
        }
    }
    for (key, v) in [
        ("parameters", &header.parameters),
        ("settings", &header.settings),
    ] {
        if v.as_ref().is_some_and(|v| !is_mapping(v)) {
            return Err(format!("{CASE_YAML}: `{key}` must be a mapping"));
        }
    }
    let environment = header
        .environment
        .unwrap_or_else(|| "production".to_string());
    if environment.is_empty()
        || !environment
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_')
    {
        return Err(format!(
            "{CASE_YAML}: `environment` must be a Puppet environment name (letters, digits, _)"
        ));
    }

    let mut files: Vec<(String, String)> = Vec::new();
    let mut expect = Versioned::both(Expect::None);
    let mut expect_warnings = Versioned::<Vec<String>>::default();
    // Which form each expectation took: `None` unsuffixed (both versions),
    // or the versions it was given for.
    let mut result_form: Option<Option<Vec<PuppetVersion>>> = None;
    let mut warnings_form: Option<Option<Vec<PuppetVersion>>> = None;
    let mut seen = rustc_hash::FxHashSet::default();
    for s in &sections[1..] {
        if !seen.insert(s.name) {
            return Err(format!("section `-- {} --` appears twice", s.name));
        }
        if s.name == CASE_YAML {
            unreachable!("duplicate caught above");
        }
        if let Some((version, kind)) = parse_expect_section(s.name) {
            let versions = match version {
                None => PuppetVersion::ALL.to_vec(),
                Some(v) => vec![v],
            };
            let form = match kind {
                "json" | "error" => &mut result_form,
                "warnings" => &mut warnings_form,
                _ => {
                    return Err(format!(
                        "unknown expectation `-- {} --` (expected {EXPECT_JSON}, {EXPECT_ERROR} or {EXPECT_WARNINGS}, or `expect@7.` / `expect@8.` before json, error or warnings)",
                        s.name
                    ))
                }
            };
            match (form.as_mut(), version) {
                (None, None) => *form = Some(None),
                (None, Some(v)) => *form = Some(Some(vec![v])),
                (Some(Some(vs)), Some(v)) if !vs.contains(&v) => vs.push(v),
                (Some(Some(_)), Some(_)) if kind == "warnings" => unreachable!("duplicate caught above"),
                (Some(None), _) | (Some(Some(_)), None) => {
                    return Err(format!(
                        "`-- {} --`: an expectation is written once for both versions or once per version (`expect@7.*`, `expect@8.*`), not both ways",
                        s.name
                    ))
                }
                (Some(Some(_)), Some(_)) => {
                    return Err(format!(
                        "a case has either `{}` or `{}`, not both",
                        expect_section("json", version),
                        expect_section("error", version)
                    ))
                }
            }
            if kind == "warnings" {
                let lines: Vec<String> = s
                    .body
                    .lines()
                    .filter(|l| !l.is_empty())
                    .map(unescape_line)
                    .collect();
                for v in versions {
                    expect_warnings.set(v, lines.clone());
                }
            } else {
                let body = strip_one_newline(s.body).to_string();
                let e = if kind == "json" {
                    Expect::Catalog(body)
                } else {
                    Expect::Error(body)
                };
                for v in versions {
                    expect.set(v, e.clone());
                }
            }
            continue;
        }
        check_file_name(s.name)?;
        files.push((s.name.to_string(), s.body.to_string()));
    }
    super::run::settings_of(header.settings.as_ref()).map_err(|e| format!("case.yaml: {e}"))?;
    let exports = match header.exports {
        None => None,
        Some(name) => {
            let (_, text) = files.iter().find(|(n, _)| *n == name).ok_or_else(|| {
                format!("{CASE_YAML}: `exports: {name}` names no file of the case")
            })?;
            let store = puppet_compiler::facts::exports::Exports::from_json_text(text)
                .map_err(|e| format!("{name}: {e}"))?;
            Some(CaseExports {
                file: Some(name),
                store: std::sync::Arc::new(store),
            })
        }
    };
    Ok(Case {
        path: path.to_path_buf(),
        spec,
        description: header.description,
        node: header.node,
        facts: facts.into(),
        factset: header.factset,
        trusted: header.trusted,
        classes: header.classes,
        parameters: header.parameters,
        environment,
        settings: header.settings,
        exports,
        pending: match (header.pending, header.pending7, header.pending8) {
            (Some(p), None, None) => Versioned::both(Some(p)),
            (None, v7, v8) => Versioned { v7, v8 },
            (Some(_), _, _) => {
                return Err(format!(
                    "{CASE_YAML}: `pending` is for both versions; `pending@7`/`pending@8` for one, not both ways"
                ))
            }
        },
        puppet_varies: header.puppet_varies,
        files,
        expect,
        expect_warnings,
        budget: Default::default(),
    })
}

fn strip_one_newline(s: &str) -> &str {
    s.strip_suffix('\n').unwrap_or(s)
}

/// A warning on one line: `\` is written `\\` and a newline `\n`.
fn escape_line(s: &str) -> String {
    s.replace('\\', "\\\\").replace('\n', "\\n")
}

fn unescape_line(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => out.push('\n'),
                Some('\\') => out.push('\\'),
                Some(other) => {
                    out.push('\\');
                    out.push(other);
                }
                None => out.push('\\'),
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Writes a case file; `parse_case(path, &write_case(c))` gives `c` back
/// (file contents always end with a newline in this format).
pub fn write_case(case: &Case) -> String {
    let header = Header {
        spec: if case.spec.len() == 1 {
            OneOrMany::One(case.spec[0].clone())
        } else {
            OneOrMany::Many(case.spec.clone())
        },
        description: case.description.clone(),
        node: case.node.clone(),
        factset: case.factset.clone(),
        facts: match &*case.facts {
            Value::Object(m) if m.is_empty() => None,
            v => Some(v.clone()),
        },
        trusted: case.trusted.clone(),
        classes: case.classes.clone(),
        parameters: case.parameters.clone(),
        environment: (case.environment != "production").then(|| case.environment.clone()),
        settings: case.settings.clone(),
        exports: case.exports.as_ref().and_then(|e| e.file.clone()),
        pending: (case.pending.v7 == case.pending.v8)
            .then(|| case.pending.v7.clone())
            .flatten(),
        pending7: (case.pending.v7 != case.pending.v8)
            .then(|| case.pending.v7.clone())
            .flatten(),
        pending8: (case.pending.v7 != case.pending.v8)
            .then(|| case.pending.v8.clone())
            .flatten(),
        puppet_varies: case.puppet_varies.clone(),
    };
    let yaml = header_yaml(&serde_json::to_value(&header).expect("case.yaml serializes"));
    let mut out = format!("-- {CASE_YAML} --\n{yaml}");
    if !out.ends_with('\n') {
        out.push('\n');
    }
    for (name, content) in &case.files {
        push_section(&mut out, name, content);
    }
    push_expectations(&mut out, &case.expect, &case.expect_warnings);
    out
}

/// `case.yaml`'s text: block style, as libyaml writes it by default (what
/// serde_yaml wrote), with a string quoted whenever [`parse_case`]'s YAML
/// rules (Psych's) would not read it back plain as the same string.
fn header_yaml(header: &Value) -> String {
    use puppet_model::psych::{Node, Scalar, Style};
    fn string(s: &str) -> Node {
        let reads_back = s != "<<"
            && matches!(puppet_model::yaml::plain_scalar(s),
                Ok(puppet_compiler::eval::Value::String(ref r)) if &**r == s);
        Node::Scalar(Scalar {
            style: if s.contains('\n') {
                Style::Literal
            } else if reads_back {
                Style::Any
            } else {
                Style::Single
            },
            quoted: true,
            ..Scalar::plain(s)
        })
    }
    fn node(v: &Value) -> Node {
        match v {
            Value::Null => Node::Scalar(Scalar::plain("null")),
            Value::Bool(b) => Node::bool(*b),
            Value::Number(n) => match n.as_f64() {
                Some(f) if n.is_f64() => Node::float(f),
                _ => Node::int(n),
            },
            Value::String(s) => string(s),
            Value::Array(a) => Node::seq(a.iter().map(node).collect()),
            Value::Object(m) => Node::map(m.iter().map(|(k, v)| (string(k), node(v))).collect()),
        }
    }
    let options = puppet_model::psych::Options {
        line_width: -1,
        ..Default::default()
    };
    let yaml = puppet_model::psych::dump(&node(header), &options).expect("case.yaml is plain data");
    // Psych's explicit document start; libyaml's default leaves it out.
    yaml.strip_prefix("---\n").unwrap_or(&yaml).to_string()
}

fn push_section(out: &mut String, name: &str, content: &str) {
    out.push_str("-- ");
    out.push_str(name);
    out.push_str(" --\n");
    out.push_str(content);
    if !content.is_empty() && !content.ends_with('\n') {
        out.push('\n');
    }
}

fn push_expectations(
    out: &mut String,
    expect: &Versioned<Expect>,
    warnings: &Versioned<Vec<String>>,
) {
    let results: Vec<(Option<PuppetVersion>, &Expect)> = if expect.v7 == expect.v8 {
        vec![(None, &expect.v7)]
    } else {
        PuppetVersion::ALL
            .iter()
            .map(|&v| (Some(v), expect.get(v)))
            .collect()
    };
    for (version, e) in results {
        match e {
            Expect::Catalog(json) => {
                push_section(out, &expect_section("json", version), &format!("{json}\n"))
            }
            Expect::Error(text) => {
                push_section(out, &expect_section("error", version), &format!("{text}\n"))
            }
            Expect::None => {}
        }
    }
    let lists: Vec<(Option<PuppetVersion>, &Vec<String>)> = if warnings.v7 == warnings.v8 {
        vec![(None, &warnings.v7)]
    } else {
        PuppetVersion::ALL
            .iter()
            .map(|&v| (Some(v), warnings.get(v)))
            .collect()
    };
    for (version, list) in lists {
        if !list.is_empty() {
            let body: String = list
                .iter()
                .map(|w| format!("{}\n", escape_line(w)))
                .collect();
            push_section(out, &expect_section("warnings", version), &body);
        }
    }
}

/// Rewrites the expectations of a case file's text, keeping every other
/// section (and the hand-written `case.yaml`, comments included) as it is.
pub fn replace_expectations(
    text: &str,
    expect: &Versioned<Expect>,
    warnings: &Versioned<Vec<String>>,
) -> Result<String, String> {
    let mut out = String::new();
    for s in sections(text)? {
        if parse_expect_section(s.name).is_some() {
            continue;
        }
        push_section(&mut out, s.name, s.body);
    }
    push_expectations(&mut out, expect, warnings);
    Ok(out)
}

/// Every `*.case` file under `dir` (recursively), parsed, sorted by path.
/// All parse errors are reported together.
pub fn load_suite(dir: &Path) -> Result<Vec<Case>, String> {
    let mut paths = Vec::new();
    collect_cases(dir, &mut paths).map_err(|e| format!("{}: {e}", dir.display()))?;
    paths.sort();
    let mut cases = Vec::new();
    let mut errors = Vec::new();
    for p in paths {
        match fs::read_to_string(&p) {
            Ok(text) => match parse_case(&p, &text) {
                Ok(c) => cases.push(c),
                Err(e) => errors.push(e),
            },
            Err(e) => errors.push(format!("{}: {e}", p.display())),
        }
    }
    if errors.is_empty() {
        Ok(cases)
    } else {
        Err(errors.join("\n"))
    }
}

fn collect_cases(path: &Path, out: &mut Vec<PathBuf>) -> io::Result<()> {
    if fs::metadata(path)?.is_file() {
        out.push(path.to_path_buf());
        return Ok(());
    }
    for entry in fs::read_dir(path)? {
        let p = entry?.path();
        if p.is_dir() {
            collect_cases(&p, out)?;
        } else if p.extension().is_some_and(|x| x == "case") {
            out.push(p);
        }
    }
    Ok(())
}

/// Writes the case's environment files under `dir` (the environment
/// directory), creating `dir` and parent directories as needed.
///
/// A case names Debian's module packages as `/usr/share/puppet/modules` in
/// its `environment.conf`: that means the chosen version's (Debian 12's for
/// Puppet 7, Debian 13's for Puppet 8), so the path is written as that
/// version's reference names them ([`crate::reference::debian_modules`]),
/// which pverify and the reference both read.
pub fn materialize(case: &Case, dir: &Path, puppet: PuppetVersion) -> io::Result<()> {
    fs::create_dir_all(dir)?;
    let debian = crate::reference::debian_modules(puppet);
    for (name, content) in &case.files {
        if check_file_name(name).is_err() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{}: bad file name '{name}'", case.path.display()),
            ));
        }
        let path = dir.join(name);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent)?;
        }
        if name == "environment.conf" {
            let conf = content.replace(crate::reference::DEBIAN_MODULES, &debian.to_string_lossy());
            fs::write(&path, conf)?;
        } else {
            fs::write(&path, content)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
