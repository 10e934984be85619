//! `cargo xtask oracle-modules [--puppet 7|8] [--factset NAME] [--verbose] [--public] [MODULE...]`:
//! every class of every module Debian packages (`puppet-module-*`, under
//! /usr/share/puppet/modules), compiled alone with Puppet 7.23 and with
//! pverify on four fact sets (debian-12, redhat-9, ubuntu-22.04,
//! opensuse-15), and every manifest under each module's `examples/` and
//! `tests/` compiled as the site manifest; a per-module agreement table,
//! and the first difference of each compile that does not agree.
//!
//! With `--puppet 8` the reference is Puppet 8.10 in the Debian 13 root
//! ([`Reference::locate`]), the modules are Debian 13's (the root's resolved
//! copy, [`Reference::debian_modules`]), pverify compiles as Puppet 8, and
//! the fact sets are Facter 4.10's debian-13 and redhat-9
//! (`tests/fixtures/factsets/facter-4.10/`) without legacy facts, as a
//! Puppet 8 agent sends them; the public classes only (the deliverable: every
//! public class compiles as Puppet 8.10 compiles it), with their own lists
//! (`xtask/data/module-classes-8.yaml`, `known-module-diffs-8.txt`).
//!
//! Which classes: every `class` defined in `<module>/manifests/**/*.pp`,
//! public and private alike (a private class included alone must fail as
//! Puppet fails: `assert_private`, missing parameters). `--public` keeps only
//! the public ones, as the benchmark does: a class is private when its file
//! calls `assert_private()`, its documentation says `@api private`, or its
//! name ends in `::params`.
//!
//! How: each class is one node whose ENC declares it: `include <class>`
//! (`classes: [<class>]`), or `class { <class>: ... }` with the required
//! parameters of `xtask/data/module-classes.yaml` when the class has an entry
//! there. An example or test manifest is the environment's `site.pp`. The
//! environment's `environment.conf` sets `modulepath` to the module
//! directory, so every module and its Hiera data is visible, as on a server
//! with the packages installed. Puppet compiles through the harness's warm
//! driver (`harness::oracle`), pverify through `harness::run_case`; both are
//! in canonical form and compared as the spec-suite compares them.
//!
//! Verdicts: when Puppet compiles, `equal` or `differs` (a different catalog
//! or a pverify error); when Puppet fails, `error-equal` or `error-differs`.
//! `template-blocked` (pverify failing only because a template function is
//! missing) is kept for modules that bring their own template functions.
//!
//! Known differences: with no MODULE argument and no --factset, the
//! verdicts other than `equal`/`error-equal` must be exactly those listed in
//! `xtask/data/known-module-diffs.txt` (one `FACTSET CLASS VERDICT | reason`
//! per line): a new difference, or a listed one that has disappeared, fails
//! the task, so CI notices both.

use pverify_harness::harness::Versioned;
use pverify_harness::reference::{PuppetVersion, Reference};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use puppet_compiler::eval::{FunctionMocks, Value as PValue};
use pverify_harness::catalog_diff::{catalog_diff, Ignore, Reported};
use pverify_harness::harness::{
    oracle, run_case_mocked, suite::mismatch, Case, Expect, FACTSETS_DIR,
};
use serde_json::{json, Value};

/// The modules the benchmark's module sample is drawn from.
pub(crate) const MODULES: &[&str] = &[
    "stdlib",
    "concat",
    "ntp",
    "apache",
    "mysql",
    "postgresql",
    "apt",
    "haproxy",
    "redis",
    "chrony",
    "systemd",
    "inifile",
    "rsync",
    "xinetd",
];

pub(crate) const MODULE_DIR: &str = "/usr/share/puppet/modules";
/// The benchmark's fact sets.
pub(crate) const FACTSETS: &[&str] = &["debian-12-x86_64", "redhat-9-x86_64"];
/// The fact sets every class is checked on: two Debian-family and one
/// Red Hat-family Linux, and a Suse one, where modules take their other
/// branches (or fail as unsupported).
const CHECK_FACTSETS: &[&str] = &[
    "debian-12-x86_64",
    "redhat-9-x86_64",
    "ubuntu-22.04-x86_64",
    "opensuse-15-x86_64",
];
/// Where each node's environment is written for Puppet and for pverify
/// (`PVERIFY_ORACLE_WORK` names another place, so that two runs on one
/// machine do not write over each other).
const WORK: &str = "/tmp/pverify-oracle-modules";
pub(crate) const PARAMS_FILE: &str = "xtask/data/module-classes.yaml";
const KNOWN_FILE: &str = "xtask/data/known-module-diffs.txt";

/// What one reference's run covers: which modules, fact sets and lists.
struct Setup {
    version: PuppetVersion,
    /// The Debian module directory, as pverify and the reference both name it.
    module_dir: PathBuf,
    /// (label, fact set under [`FACTSETS_DIR`]) pairs.
    factsets: Vec<(String, String)>,
    params_file: &'static str,
    known_file: &'static str,
    /// Whether the agent adds Facter's legacy flat facts (7 does, 8 does not).
    legacy_facts: bool,
    /// Public classes only, and no example or test manifests.
    public_only: bool,
}

/// Puppet 8.10 on Debian 13: its module packages, on Facter 4.10's fact sets.
const FACTSETS_8: &[&str] = &["debian-13-x86_64", "redhat-9-x86_64"];
const FACTSET_DIR_8: &str = "facter-4.10";
const PARAMS_FILE_8: &str = "xtask/data/module-classes-8.yaml";
const KNOWN_FILE_8: &str = "xtask/data/known-module-diffs-8.txt";

impl Setup {
    fn for_version(version: PuppetVersion) -> Result<Setup, String> {
        Ok(match version {
            PuppetVersion::V7 => Setup {
                version,
                module_dir: PathBuf::from(MODULE_DIR),
                factsets: CHECK_FACTSETS
                    .iter()
                    .map(|f| (f.to_string(), f.to_string()))
                    .collect(),
                params_file: PARAMS_FILE,
                known_file: KNOWN_FILE,
                legacy_facts: true,
                public_only: false,
            },
            PuppetVersion::V8 => Setup {
                version,
                module_dir: Reference::locate(version)?.debian_modules(),
                factsets: FACTSETS_8
                    .iter()
                    .map(|f| (f.to_string(), format!("{FACTSET_DIR_8}/{f}")))
                    .collect(),
                params_file: PARAMS_FILE_8,
                known_file: KNOWN_FILE_8,
                legacy_facts: false,
                public_only: true,
            },
        })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Verdict {
    Equal,
    Differs,
    TemplateBlocked,
    ErrorEqual,
    ErrorDiffers,
}

impl Verdict {
    fn name(self) -> &'static str {
        match self {
            Verdict::Equal => "equal",
            Verdict::Differs => "differs",
            Verdict::TemplateBlocked => "template-blocked",
            Verdict::ErrorEqual => "error-equal",
            Verdict::ErrorDiffers => "error-differs",
        }
    }
    fn agrees(self) -> bool {
        matches!(self, Verdict::Equal | Verdict::ErrorEqual)
    }
}

/// One class compiled on one fact set.
struct Row {
    module: String,
    class: String,
    factset: String,
    puppet_ok: bool,
    verdict: Verdict,
    /// The first difference, for verdicts that are not agreement.
    detail: String,
    /// For template-blocked classes: with the template functions mocked
    /// (returning ''), whether the rest agrees (`content` parameters left
    /// out of the comparison), else the first other difference.
    behind: Option<Result<(), String>>,
}

/// The template functions, mocked to look past them.
const TEMPLATE_FUNCTIONS: &[&str] = &["template", "epp", "inline_template", "inline_epp"];

pub fn run(args: &[String]) -> Result<(), String> {
    let mut modules = Vec::new();
    let mut only: Option<String> = None;
    let mut verbose = false;
    let mut public_flag = false;
    let mut version = PuppetVersion::V7;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--verbose" => verbose = true,
            "--public" => public_flag = true,
            "--factset" => {
                only = Some(it.next().ok_or("--factset needs a name")?.clone());
            }
            "--puppet" => {
                let v = it.next().ok_or("--puppet needs 7 or 8")?;
                version = PuppetVersion::parse(v)
                    .ok_or_else(|| format!("--puppet {v}: expected 7 or 8"))?;
            }
            s if s.starts_with('-') => {
                return Err(format!(
                    "unknown argument '{s}' (usage: oracle-modules [--puppet 7|8] [--factset NAME] [--verbose] [--public] [MODULE...])"
                ))
            }
            s => modules.push(s.to_string()),
        }
    }
    let mut setup = Setup::for_version(version)?;
    let check_known = modules.is_empty() && only.is_none() && (!public_flag || setup.public_only);
    setup.public_only |= public_flag;
    if let Some(f) = &only {
        setup.factsets.retain(|(label, _)| label == f);
        if setup.factsets.is_empty() {
            return Err(format!("--factset {f}: not one of this run's fact sets"));
        }
    }
    let public_only = setup.public_only;
    if modules.is_empty() {
        modules = all_modules(&setup.module_dir)?;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .ok_or("cannot locate the workspace root")?
        .to_path_buf();
    // run_case reads fact sets relative to the workspace.
    std::env::set_current_dir(&root).map_err(|e| format!("{}: {e}", root.display()))?;
    let puppet = Reference::locate(version)?;
    let params = read_params(&root.join(setup.params_file))?;

    let factsets_dir = root.join(FACTSETS_DIR);
    let mut structured = BTreeMap::new();
    for (label, f) in &setup.factsets {
        let path = factsets_dir.join(format!("{f}.facts"));
        let text = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let v: Value =
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        structured.insert(label.clone(), v);
    }
    let factsets: Vec<String> = setup.factsets.iter().map(|(l, _)| l.clone()).collect();
    let mut cases = Vec::new();
    let mut owners = Vec::new();
    for module in &modules {
        let dir = setup.module_dir.join(module);
        let classes = module_classes(&dir, public_only)?;
        for class in classes {
            for factset in &factsets {
                cases.push(class_case_as(
                    &setup,
                    &class,
                    factset,
                    &structured[factset],
                    params.get(&class),
                ));
                owners.push((module.clone(), class.clone(), factset.clone()));
            }
        }
        if public_only {
            continue;
        }
        for (label, text) in example_manifests(&dir, module)? {
            for factset in &factsets {
                let mut case = class_case_as(&setup, &label, factset, &structured[factset], None);
                case.classes = None;
                case.path = PathBuf::from(format!("{factset}/{}.case", label.replace('/', "__")));
                case.files.push(("manifests/site.pp".into(), text.clone()));
                cases.push(case);
                owners.push((module.clone(), label.clone(), factset.clone()));
            }
        }
    }
    if cases.is_empty() {
        return Err("no classes in the modules given".into());
    }

    let work_dir = std::env::var_os("PVERIFY_ORACLE_WORK").map_or_else(
        || match version {
            PuppetVersion::V7 => PathBuf::from(WORK),
            PuppetVersion::V8 => PathBuf::from(format!("{WORK}-8")),
        },
        PathBuf::from,
    );
    let work = work_dir.as_path();
    let _ = fs::remove_dir_all(work);
    let mut requests = Vec::new();
    for c in &cases {
        requests.push(oracle::case_request(
            c,
            &work.join("puppet").join(c.name()),
            &factsets_dir,
            PuppetVersion::V7,
        )?);
    }
    eprintln!("oracle-modules: {} compiles with Puppet...", requests.len());
    let replies = oracle::compile_with_puppet(&puppet, &requests, 0)?;
    eprintln!("oracle-modules: the same with pverify...");
    let ours = run_pverify(
        &cases,
        &work.join("pverify"),
        &FunctionMocks::default(),
        version,
    );

    let mut rows = Vec::new();
    for (((c, reply), got), (module, class, factset)) in
        cases.iter().zip(&replies).zip(&ours).zip(owners)
    {
        let env_dir = work.join("puppet").join(c.name()).join(&c.environment);
        let (want, _warnings) = oracle::observed(reply, &env_dir.to_string_lossy())
            .map_err(|e| format!("{class} on {factset}: bad reply from compile.rb: {e}"))?;
        let (verdict, detail) = judge(&want, got);
        rows.push(Row {
            module,
            class,
            factset,
            puppet_ok: matches!(want, Expect::Catalog(_)),
            verdict,
            detail,
            behind: None,
        });
    }
    look_behind_templates(&cases, &replies, &mut rows, work, version)?;

    print!("{}", table(&rows, &factsets));
    println!();
    print!("{}", markdown_summary(&rows, &factsets));
    println!();
    for r in rows.iter().filter(|r| !r.verdict.agrees()) {
        let behind = match &r.behind {
            None => String::new(),
            Some(Ok(())) => " [templates mocked: the rest agrees]".into(),
            Some(Err(d)) => format!(" [templates mocked: {d}]"),
        };
        println!(
            "{} {} {}: {}{behind}",
            r.factset,
            r.class,
            r.verdict.name(),
            r.detail
        );
    }
    if verbose {
        for r in rows.iter().filter(|r| r.verdict.agrees()) {
            println!("{} {} {}", r.factset, r.class, r.verdict.name());
        }
    }
    if !check_known {
        return Ok(());
    }
    check_known_diffs(&rows, &root.join(setup.known_file), setup.known_file)
}

/// The classes a module defines, sorted: all of them, or with
/// `public_only` the public ones (see the header for the rule).
pub(crate) fn module_classes(module: &Path, public_only: bool) -> Result<Vec<String>, String> {
    let manifests = module.join("manifests");
    let mut out = BTreeSet::new();
    if !manifests.is_dir() {
        return Ok(Vec::new());
    }
    let files =
        puppet_compiler::files::find_manifests(&puppet_compiler::files::OsFiles, &manifests)
            .map_err(|e| format!("{}: {e}", manifests.display()))?;
    for file in files {
        let text = fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
        if public_only && (text.contains("assert_private(") || text.contains("@api private")) {
            continue;
        }
        out.extend(
            class_names(&text)
                .into_iter()
                .filter(|c| !public_only || !c.ends_with("::params")),
        );
    }
    Ok(out.into_iter().collect())
}

/// Every module directory under `dir`, sorted.
fn all_modules(dir: &Path) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for e in fs::read_dir(dir).map_err(|e| {
        format!(
            "{}: {e} (are the puppet-module-* packages installed?)",
            dir.display()
        )
    })? {
        let e = e.map_err(|e| format!("{}: {e}", dir.display()))?;
        if e.path().is_dir() {
            out.push(e.file_name().to_string_lossy().into_owned());
        }
    }
    out.sort();
    Ok(out)
}

/// The classes a manifest's text defines: lines `class NAME` followed by
/// `(`, `{` or `inherits` (a `class { 'x': }` declaration names no class).
fn class_names(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        let Some(rest) = line.trim_start().strip_prefix("class ") else {
            continue;
        };
        let rest = rest.trim_start();
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == ':')
            .collect();
        let after = rest[name.len()..].trim_start();
        let defines = after.starts_with('(')
            || after.starts_with('{')
            || after.starts_with("inherits")
            || after.is_empty();
        if !name.is_empty() && defines {
            out.push(name.trim_start_matches("::").to_string());
        }
    }
    out
}

/// A module's `examples/**/*.pp` and `tests/**/*.pp`, each labelled
/// `<module>/<path>`, sorted.
fn example_manifests(module: &Path, name: &str) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    for sub in ["examples", "tests"] {
        let dir = module.join(sub);
        if !dir.is_dir() {
            continue;
        }
        let files = puppet_compiler::files::find_manifests(&puppet_compiler::files::OsFiles, &dir)
            .map_err(|e| format!("{}: {e}", dir.display()))?;
        for file in files {
            let text = fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
            let rel = file.strip_prefix(module).unwrap_or(&file);
            out.push((format!("{name}/{}", rel.display()), text));
        }
    }
    out.sort();
    Ok(out)
}

/// `xtask/data/module-classes.yaml`: class => required parameters.
pub(crate) fn read_params(path: &Path) -> Result<BTreeMap<String, Value>, String> {
    let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    // Puppet's YAML rules (`yes` is true): these are Puppet's parameters.
    let map: BTreeMap<String, Value> =
        puppet_model::yaml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    for (class, p) in &map {
        if !p.is_object() {
            return Err(format!(
                "{}: {class}: the parameters must be a mapping",
                path.display()
            ));
        }
    }
    Ok(map)
}

/// What an agent sends beyond a fact set's structured facts
/// (see tests/fixtures/factsets/README.md): the legacy flat facts Facter 4
/// still adds, derived from the structured ones, stdlib's `root_home` and
/// the agent's own facts. The modules read many of them (`$::osfamily`,
/// `$::operatingsystemrelease`...). A Puppet 8 agent (`legacy` false) sends
/// no legacy facts.
fn legacy_and_agent_facts(structured: &Value, version: PuppetVersion, legacy: bool) -> Value {
    if !legacy {
        let net = &structured["networking"];
        let mut f = json!({
            "root_home": "/root",
            "puppetversion": version.release(),
            "clientversion": version.release(),
            "clientcert": net["fqdn"],
            "clientnoop": false,
        });
        if let Value::Object(m) = &mut f {
            m.retain(|k, v| !v.is_null() && structured.get(k).is_none());
        }
        return f;
    }
    let (os, net) = (&structured["os"], &structured["networking"]);
    let mut f = json!({
        "osfamily": os["family"],
        "operatingsystem": os["name"],
        "operatingsystemrelease": os["release"]["full"],
        "operatingsystemmajrelease": os["release"]["major"],
        "architecture": os["architecture"],
        "hardwaremodel": os["hardware"],
        "fqdn": net["fqdn"],
        "hostname": net["hostname"],
        "domain": net["domain"],
        "ipaddress": net["ip"],
        "macaddress": net["mac"],
        "netmask": net["netmask"],
        "network": net["network"],
        "processorcount": structured["processors"]["count"],
        "selinux": os["selinux"].get("enabled").cloned().unwrap_or(Value::Bool(false)),
        "rubyversion": structured["ruby"]["version"],
        "root_home": "/root",
        "puppetversion": version.release(),
        "clientversion": version.release(),
        "clientcert": net["fqdn"],
        "clientnoop": false,
    });
    if let Some(d) = os.get("distro") {
        for (k, v) in [
            ("lsbdistid", &d["id"]),
            ("lsbdistcodename", &d["codename"]),
            ("lsbdistrelease", &d["release"]["full"]),
            ("lsbmajdistrelease", &d["release"]["major"]),
            ("lsbdistdescription", &d["description"]),
        ] {
            f[k] = v.clone();
        }
    }
    if let Value::Object(m) = &mut f {
        m.retain(|k, v| !v.is_null() && structured.get(k).is_none());
    }
    f
}

/// The node that declares `class` alone on `factset`, whose structured
/// facts are `structured`.
pub(crate) fn class_case(
    class: &str,
    factset: &str,
    structured: &Value,
    params: Option<&Value>,
) -> Case {
    class_case_as(
        &Setup {
            version: PuppetVersion::V7,
            module_dir: PathBuf::from(MODULE_DIR),
            factsets: vec![(factset.into(), factset.into())],
            params_file: PARAMS_FILE,
            known_file: KNOWN_FILE,
            legacy_facts: true,
            public_only: false,
        },
        class,
        factset,
        structured,
        params,
    )
}

/// [`class_case`] for `setup`'s reference: `label` is one of its fact sets.
fn class_case_as(
    setup: &Setup,
    class: &str,
    label: &str,
    structured: &Value,
    params: Option<&Value>,
) -> Case {
    let factset = setup
        .factsets
        .iter()
        .find(|(l, _)| l == label)
        .map_or(label, |(_, f)| f.as_str());
    let classes = match params {
        Some(p) => json!({ class: p }),
        None => json!([class]),
    };
    Case {
        budget: Default::default(),
        path: PathBuf::from(format!("{label}/{}.case", class.replace("::", "__"))),
        spec: Vec::new(),
        description: String::new(),
        node: structured["networking"]["fqdn"]
            .as_str()
            .unwrap_or("node.example.com")
            .to_string(),
        facts: legacy_and_agent_facts(structured, setup.version, setup.legacy_facts).into(),
        factset: Some(factset.into()),
        trusted: None,
        classes: Some(classes),
        parameters: None,
        environment: "production".into(),
        settings: None,
        exports: None,
        pending: Versioned::default(),
        puppet_varies: None,
        files: vec![(
            "environment.conf".into(),
            format!("modulepath = {}\n", setup.module_dir.display()),
        )],
        expect: Versioned::both(Expect::None),
        expect_warnings: Versioned::default(),
    }
}

/// Compiles the template-blocked classes again with the template functions
/// mocked and records whether everything but file content agrees.
fn look_behind_templates(
    cases: &[Case],
    replies: &[Value],
    rows: &mut [Row],
    work: &Path,
    version: PuppetVersion,
) -> Result<(), String> {
    let blocked: Vec<usize> = (0..rows.len())
        .filter(|&i| rows[i].verdict == Verdict::TemplateBlocked)
        .collect();
    let subset: Vec<Case> = blocked.iter().map(|&i| cases[i].clone()).collect();
    let mocks = FunctionMocks::new(
        TEMPLATE_FUNCTIONS
            .iter()
            .map(|f| (f.to_string(), PValue::string(""))),
    );
    let ours = run_pverify(&subset, &work.join("pverify-mocked"), &mocks, version);
    let content = [Ignore {
        resource: "*".into(),
        parameter: Some("content".into()),
    }];
    for (&i, got) in blocked.iter().zip(&ours) {
        let c = &cases[i];
        let env_dir = work.join("puppet").join(c.name()).join(&c.environment);
        let (want, _) = oracle::observed(&replies[i], &env_dir.to_string_lossy())?;
        rows[i].behind = Some(match (&want, got) {
            (Expect::Catalog(a), Expect::Catalog(b)) => {
                let parse = |s: &str| serde_json::from_str::<Value>(s).unwrap_or(Value::Null);
                let changes = catalog_diff(&parse(a), &parse(b), &content);
                match changes.first() {
                    None => Ok(()),
                    Some(_) => Err(first_difference(&want, got, &content)),
                }
            }
            (Expect::Error(a), Expect::Error(b)) if a == b => Ok(()),
            _ => Err(first_difference(&want, got, &content)),
        });
    }
    Ok(())
}

/// pverify's results, one per case, on every core.
fn run_pverify(
    cases: &[Case],
    work: &Path,
    mocks: &FunctionMocks,
    version: PuppetVersion,
) -> Vec<Expect> {
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    let chunk = cases.len().div_ceil(cores).max(1);
    std::thread::scope(|s| {
        let handles: Vec<_> = cases
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || {
                    part.iter()
                        .map(|c| run_case_mocked(c, work, mocks, version))
                        .collect()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h: std::thread::ScopedJoinHandle<'_, Vec<Expect>>| {
                h.join().unwrap_or_default()
            })
            .collect()
    })
}

/// Puppet's result against pverify's: the verdict and the first difference.
fn judge(want: &Expect, got: &Expect) -> (Verdict, String) {
    let blocked = |e: &str| {
        ["template", "epp", "inline_template", "inline_epp"]
            .iter()
            .any(|f| e.contains(&format!("Unknown function: '{f}'")))
    };
    match (want, got) {
        (Expect::Catalog(a), Expect::Catalog(b)) if a == b => (Verdict::Equal, String::new()),
        (Expect::Error(a), Expect::Error(b)) if a == b => (Verdict::ErrorEqual, String::new()),
        (Expect::Catalog(_), Expect::Error(e)) if blocked(e) => {
            (Verdict::TemplateBlocked, one_line(e))
        }
        (Expect::Catalog(_), _) => (Verdict::Differs, first_difference(want, got, &[])),
        (Expect::Error(_), Expect::Error(e)) if blocked(e) => {
            (Verdict::TemplateBlocked, one_line(e))
        }
        _ => (Verdict::ErrorDiffers, first_difference(want, got, &[])),
    }
}

/// The first difference between two results (catalog changes matched by
/// `ignores` left out).
fn first_difference(want: &Expect, got: &Expect, ignores: &[Ignore]) -> String {
    let f = mismatch("pverify", "", want, got);
    let changes: Vec<Reported> = f
        .changes
        .iter()
        .map(Reported::of)
        .filter(|c| {
            !ignores
                .iter()
                .any(|i| i.resource == "*" && c.parameter.as_deref() == i.parameter.as_deref())
        })
        .collect();
    if let Some(c) = changes.first() {
        let what = match &c.parameter {
            Some(p) => format!("{} {p}", c.resource),
            None => c.resource.clone(),
        };
        let show = |v: &Option<Value>| {
            v.as_ref().map_or("-".to_string(), |v| {
                let s = v.to_string();
                if s.chars().count() > 120 {
                    format!("{}...", s.chars().take(120).collect::<String>())
                } else {
                    s
                }
            })
        };
        return format!(
            "{:?} {what}: Puppet {} pverify {} ({} change(s))",
            c.kind,
            show(&c.expected),
            show(&c.actual),
            changes.len()
        );
    }
    format!(
        "Puppet {} | pverify {}",
        one_line(f.expected.as_deref().unwrap_or("?")),
        one_line(f.actual.as_deref().unwrap_or("?"))
    )
}

fn one_line(s: &str) -> String {
    let s = s.replace('\n', "\\n");
    if s.chars().count() > 700 {
        format!("{}...", s.chars().take(700).collect::<String>())
    } else {
        s
    }
}

/// The per-module table, one block per fact set.
fn table(rows: &[Row], factsets: &[String]) -> String {
    let mut out = String::new();
    for f in factsets {
        let _ = writeln!(out, "\n{f}");
        let _ = writeln!(
            out,
            "{:<12} {:>7} {:>9} {:>11} {:>6} {:>8} {:>9} {:>12} {:>14} {:>14}",
            "module",
            "classes",
            "puppet-ok",
            "puppet-fail",
            "equal",
            "differs",
            "template",
            "error-equal",
            "error-differs",
            "tmpl-rest-ok"
        );
        let mut modules: Vec<&str> = Vec::new();
        for r in rows {
            if !modules.contains(&r.module.as_str()) {
                modules.push(&r.module);
            }
        }
        let mut total = [0usize; 9];
        for m in modules {
            let mine: Vec<&Row> = rows
                .iter()
                .filter(|r| r.module == m && &r.factset == f)
                .collect();
            let count = |v: Verdict| mine.iter().filter(|r| r.verdict == v).count();
            let n = [
                mine.len(),
                mine.iter().filter(|r| r.puppet_ok).count(),
                mine.iter().filter(|r| !r.puppet_ok).count(),
                count(Verdict::Equal),
                count(Verdict::Differs),
                count(Verdict::TemplateBlocked),
                count(Verdict::ErrorEqual),
                count(Verdict::ErrorDiffers),
                mine.iter()
                    .filter(|r| matches!(r.behind, Some(Ok(()))))
                    .count(),
            ];
            for (t, x) in total.iter_mut().zip(n) {
                *t += x;
            }
            let _ = writeln!(
                out,
                "{m:<12} {:>7} {:>9} {:>11} {:>6} {:>8} {:>9} {:>12} {:>14} {:>14}",
                n[0], n[1], n[2], n[3], n[4], n[5], n[6], n[7], n[8]
            );
        }
        let n = total;
        let _ = writeln!(
            out,
            "{:<12} {:>7} {:>9} {:>11} {:>6} {:>8} {:>9} {:>12} {:>14} {:>14}",
            "total", n[0], n[1], n[2], n[3], n[4], n[5], n[6], n[7], n[8]
        );
    }
    out
}

/// The per-module agreement as a Markdown table (docs/oracle-modules.md
/// keeps a run's): classes (or manifests) per fact set, how many agree on
/// each fact set, and how many compiles do not (the known differences once
/// the allow-list check passes).
fn markdown_summary(rows: &[Row], factsets: &[String]) -> String {
    let mut out = String::from("| module | classes |");
    for f in factsets {
        let _ = write!(out, " agree {f} |");
    }
    out.push_str(" known differences |\n|---|---:|");
    for _ in factsets {
        out.push_str("---:|");
    }
    out.push_str("---:|\n");
    let mut modules: Vec<&str> = rows.iter().map(|r| r.module.as_str()).collect();
    modules.dedup();
    let mut totals = vec![0usize; factsets.len() + 2];
    for m in modules {
        let mine: Vec<&Row> = rows.iter().filter(|r| r.module == m).collect();
        let classes = mine.len() / factsets.len().max(1);
        let mut cells = vec![classes];
        for f in factsets {
            cells.push(
                mine.iter()
                    .filter(|r| &r.factset == f && r.verdict.agrees())
                    .count(),
            );
        }
        cells.push(mine.iter().filter(|r| !r.verdict.agrees()).count());
        let _ = write!(out, "| {m} |");
        for (t, c) in totals.iter_mut().zip(&cells) {
            *t += c;
            let _ = write!(out, " {c} |");
        }
        out.push('\n');
    }
    out.push_str("| total |");
    for t in totals {
        let _ = write!(out, " {t} |");
    }
    out.push('\n');
    out
}

/// Checks the disagreements against the allow-list: both ways.
fn check_known_diffs(rows: &[Row], path: &Path, known_file: &str) -> Result<(), String> {
    let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut known = BTreeSet::new();
    // `any`: Puppet's own verdict is not stable (it depends on what its Ruby
    // process loaded before), so the row may agree or not.
    let mut unstable = BTreeSet::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((key, reason)) = line.split_once('|') else {
            return Err(format!(
                "{}:{}: expected `FACTSET CLASS VERDICT | reason`",
                path.display(),
                i + 1
            ));
        };
        if reason.trim().is_empty() {
            return Err(format!("{}:{}: no reason given", path.display(), i + 1));
        }
        let key: Vec<&str> = key.split_whitespace().collect();
        if key.len() != 3 {
            return Err(format!(
                "{}:{}: expected `FACTSET CLASS VERDICT | reason`",
                path.display(),
                i + 1
            ));
        }
        if key[2] == "any" {
            unstable.insert(format!("{} {}", key[0], key[1]));
        } else {
            known.insert(key.join(" "));
        }
    }
    let found: BTreeSet<String> = rows
        .iter()
        .filter(|r| !r.verdict.agrees())
        .filter(|r| !unstable.contains(&format!("{} {}", r.factset, r.class)))
        .map(|r| format!("{} {} {}", r.factset, r.class, r.verdict.name()))
        .collect();
    let new: Vec<&String> = found.difference(&known).collect();
    let gone: Vec<&String> = known.difference(&found).collect();
    for n in &new {
        println!("NEW difference (not in {known_file}): {n}");
    }
    for g in &gone {
        println!("GONE (listed in {known_file}, now agrees or changed verdict): {g}");
    }
    let agree = rows.iter().filter(|r| r.verdict.agrees()).count();
    println!(
        "oracle-modules: {agree} of {} class compiles agree with Puppet; {} known differences",
        rows.len(),
        known.len()
    );
    if new.is_empty() && gone.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} new and {} disappeared difference(s): update {known_file}",
            new.len(),
            gone.len()
        ))
    }
}
