//! `pverify init [DIR]`: writes a first `pverify.yaml` for a control repo
//! (`pverify_harness::control::init`) and says what to do next.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;

use pverify_harness::control::init::{self, Entry, InitOptions};
use pverify_harness::control::{onceover, CONFIG_FILE};
use pverify_harness::factsets;
use pverify_harness::reference::PuppetVersion;

use crate::cli_report::EXIT_SETUP;

#[derive(Args)]
pub struct InitArgs {
    /// The control repo (with environment.conf).
    #[arg(default_value = ".")]
    dir: PathBuf,
    /// Replace an existing pverify.yaml.
    #[arg(long)]
    force: bool,
    /// Fact sets from this directory (`<name>.facts` or `<name>.json`,
    /// facterdb's format or `puppet facts` output) instead of pverify's
    /// built-in facterdb sets.
    #[arg(long, value_name = "DIR", conflicts_with = "from_onceover")]
    factsets: Option<PathBuf>,
    /// The node matrix from onceover's spec/onceover.yaml (its spec tests,
    /// with spec/factsets/, its function mocks and spec/hiera.yaml).
    #[arg(long)]
    from_onceover: bool,
    /// The Puppet version the repo runs: 7 or 8 (default 8); picks the
    /// built-in fact sets of its Facter.
    #[arg(long, value_parser = crate::cli_report::parse_puppet, default_value = "8")]
    puppet: PuppetVersion,
}

fn fail(msg: impl std::fmt::Display) -> ExitCode {
    eprintln!("pverify init: {msg}");
    ExitCode::from(EXIT_SETUP)
}

pub fn run(args: InitArgs) -> ExitCode {
    let config = args.dir.join(CONFIG_FILE);
    if config.exists() && !args.force {
        return fail(format!(
            "{} exists: give --force to replace it",
            config.display()
        ));
    }
    let found = match init::inspect(&args.dir) {
        Ok(f) => f,
        Err(e) => return fail(e),
    };
    let opts = InitOptions {
        puppet: args.puppet,
        factsets: args.factsets.clone(),
        from_onceover: args.from_onceover,
    };
    let mut notes = found.notes.clone();
    let plan = if args.from_onceover {
        from_onceover(&args.dir, &found, &opts, &mut notes)
    } else {
        plain(&args.dir, &found, &opts, &mut notes)
    };
    let (factsets_dir, extra, entries) = match plan {
        Ok(p) => p,
        Err(e) => return fail(e),
    };
    let text = init::render(args.puppet, factsets_dir.as_deref(), &extra, &entries);
    if let Err(e) = std::fs::write(&config, text) {
        return fail(format!("{}: {e}", config.display()));
    }
    let nodes: usize = entries
        .iter()
        .map(|e| e.names.len() * e.factsets.len().max(1))
        .sum();
    let shown = args.dir.display();
    let mut text = format!(
        "wrote {}: {nodes} nodes ({} matrix entries) on {}\n",
        config.display(),
        entries.len(),
        describe_factsets(&entries, factsets_dir.as_deref())
    );
    for n in &notes {
        text.push_str(&format!("note: {n}\n"));
    }
    text.push_str(&format!(
        "\nNext:\n  \
         pverify check {shown}                 # compiles every node; without goldens each is reported as such\n  \
         pverify bless {shown}                 # writes golden/<node>.json from pverify's catalogs: review them\n  \
         pverify bless {shown} --oracle puppet # or from Puppet's own catalogs, where Puppet is installed\n  \
         git add {shown}/pverify.yaml {shown}/golden   # then `pverify check` in CI (docs/harness.md)\n\
         Edit the matrix (names, fact sets, `facts:`, `trusted:`) to match your fleet; a Puppet 7\n\
         fleet: `pverify init --puppet 7 --force` (Facter 4.3 sets with the legacy facts).\n"
    ));
    if let Err(e) = crate::cli_writes::print_or_fail(text.as_bytes()) {
        return fail(e);
    }
    ExitCode::SUCCESS
}

type Plan = (Option<String>, Vec<String>, Vec<Entry>);

/// Named nodes and roles on the built-in (or `--factsets`) fact sets.
fn plain(
    dir: &Path,
    found: &init::Inspection,
    opts: &InitOptions,
    notes: &mut Vec<String>,
) -> Result<Plan, String> {
    let names = init::factset_names(opts)?;
    let factsets_dir = opts.factsets.as_ref().map(|d| relative_to(dir, d));
    let mut entries = init::entries(found, &names, opts.puppet);
    if found.has_nodes && !found.default_node && !found.roles().is_empty() {
        notes.push(format!(
            "{} has node definitions but no `node default` or regex node: a role's own node matches none of them and fails until you give it a name that does",
            found.manifest.display()
        ));
    }
    if entries.is_empty() {
        notes.push(
            "no roles (role::*) and no named node definitions found: one node, classified by the main manifest's default node"
                .into(),
        );
        entries.push(Entry {
            comment: "the main manifest's default node".into(),
            names: vec!["node1.example.com".into()],
            classes: Vec::new(),
            factsets: names,
            facts: init::agent_facts("node1.example.com", opts.puppet),
        });
    }
    let mut extra = Vec::new();
    let hiera = std::fs::read_to_string(dir.join("hiera.yaml")).unwrap_or_default();
    if hiera.contains("eyaml") {
        extra.push(
            "# hiera-eyaml without the private key: `redact` compares a digest of each\n\
             # encrypted value instead of failing (docs/hiera.md).\n\
             # eyaml: {missing_key: redact}"
                .to_string(),
        );
    }
    Ok((factsets_dir, extra, entries))
}

/// onceover's spec tests: each class on the fact sets of its nodes.
fn from_onceover(
    dir: &Path,
    found: &init::Inspection,
    opts: &InitOptions,
    notes: &mut Vec<String>,
) -> Result<Plan, String> {
    let o = onceover::read(dir, &found.classes)?;
    notes.extend(o.notes.iter().cloned());
    let factsets_dir = dir.join("spec/factsets");
    let mut missing = Vec::new();
    let mut entries: Vec<Entry> = Vec::new();
    for t in &o.tests {
        if factsets::read(&factsets_dir, &t.node, opts.puppet).is_err() {
            if !missing.contains(&t.node) {
                missing.push(t.node.clone());
            }
            continue;
        }
        match entries.iter_mut().find(|e| e.classes == [t.class.clone()]) {
            Some(e) => e.factsets.push(t.node.clone()),
            None => {
                let name = init::certname_for_class(&t.class);
                entries.push(Entry {
                    comment: format!("onceover: {} on its nodes", t.class),
                    facts: init::agent_facts(&name, opts.puppet),
                    names: vec![name],
                    classes: vec![t.class.clone()],
                    factsets: vec![t.node.clone()],
                })
            }
        }
    }
    if !missing.is_empty() {
        notes.push(format!(
            "left out (no spec/factsets/<name>.json and no built-in set of that name; onceover's own bundled sets are not carried): {}",
            missing.join(", ")
        ));
    }
    if entries.is_empty() {
        return Err("spec/onceover.yaml: no spec test left to run (test_matrix)".into());
    }
    let mut extra = Vec::new();
    if o.has_mocks {
        extra.push("# onceover's function mocks (`functions:`)\nmocks: spec/onceover.yaml".into());
    }
    // onceover's test hiera.yaml wins over the repo's, as in onceover.
    if dir.join("spec/hiera.yaml").is_file() {
        extra.push("# onceover's test hiera.yaml\nhiera_config: spec/hiera.yaml".into());
    }
    Ok((Some("spec/factsets".into()), extra, entries))
}

fn describe_factsets(entries: &[Entry], dir: Option<&str>) -> String {
    let mut all: Vec<&str> = entries
        .iter()
        .flat_map(|e| e.factsets.iter().map(String::as_str))
        .collect();
    all.sort_unstable();
    all.dedup();
    match dir {
        Some(d) => format!("{} fact sets of {d} ({})", all.len(), all.join(", ")),
        None => format!("{} built-in fact sets ({})", all.len(), all.join(", ")),
    }
}

/// `path` as the config names it: relative to the repo when inside it.
fn relative_to(dir: &Path, path: &Path) -> String {
    let abs = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let (d, p) = (abs(dir), abs(path));
    match p.strip_prefix(&d) {
        Ok(rel) if !rel.as_os_str().is_empty() => rel.to_string_lossy().into_owned(),
        _ => p.to_string_lossy().into_owned(),
    }
}
