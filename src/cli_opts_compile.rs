//! `CompileOpts`: the one set of compile flags every compiling command
//! (`compile`, `check`, `bless`, `diff`) takes, so a flag that works on one
//! works on all, with one meaning (README, "Compile options").
//!
//! Paths given here are the operator's: relative ones are relative to
//! where the command runs (except `--hiera-config`, relative to the
//! environment directory so each side of a diff reads its own), and what
//! they name is readable (a read root, docs/safety.md).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::Args;

use puppet_compiler::eval::FunctionMocks;
use pverify_harness::control::Repo;
use pverify_harness::reference::PuppetVersion;

#[derive(Args, Clone, Debug)]
pub struct CompileOpts {
    /// Threads (default: all cores).
    #[arg(long, value_parser = crate::cli_writes::parse_jobs)]
    pub jobs: Option<usize>,
    /// The Puppet version to compile as (and check against with `--oracle
    /// puppet`): 7 (7.23) or 8 (8.10); default pverify.yaml's `puppet:`,
    /// else 8.
    #[arg(long, value_parser = crate::cli_report::parse_puppet)]
    pub puppet: Option<PuppetVersion>,
    /// A Puppet setting for every node, `NAME=VALUE` (repeatable, over
    /// pverify.yaml's `settings:`; docs/settings.md lists them), e.g.
    /// `--setting strict=warning`; Puppet's global Hiera layer is
    /// `--setting hiera_config=FILE`.
    #[arg(long = "setting", value_name = "NAME=VALUE", value_parser = crate::cli_report::parse_setting)]
    pub settings: Vec<String>,
    /// Modulepath to use instead of the environment's (':'-separated).
    #[arg(long, value_delimiter = ':', value_name = "DIRS")]
    pub modulepath: Option<Vec<PathBuf>>,
    /// The main manifest (file or directory) instead of the environment's.
    #[arg(long, value_name = "PATH")]
    pub manifest: Option<PathBuf>,
    /// An external node classifier: run with each certname, its YAML
    /// (`classes`, `parameters`, `environment`) is merged into the node
    /// (over pverify.yaml's `enc:`).
    #[arg(long, value_name = "COMMAND")]
    pub enc: Option<PathBuf>,
    /// Function mocks in onceover's format (YAML `functions: {name:
    /// {returns: VALUE}}`): each named function returns its value instead
    /// of running (over pverify.yaml's `mocks:`; not with `--oracle`).
    #[arg(long = "mock-functions", value_name = "FILE")]
    pub mock_functions: Option<PathBuf>,
    /// Let `generate()` run its command, as Puppet does (absolute path, no
    /// shell, in the command's directory; as `allow_generate: true` in
    /// pverify.yaml); refused by default.
    #[arg(long = "allow-generate")]
    pub allow_generate: bool,
    #[command(flatten)]
    pub enc_timeout: crate::cli_opts_fleet::EncTimeoutOpts,
    #[command(flatten)]
    pub puppetfile: crate::cli_opts_puppetfile::PuppetfileArgs,
    #[command(flatten)]
    pub fleet: crate::cli_opts_fleet::FleetOpts,
    #[command(flatten)]
    pub exports: crate::cli_opts_exports::ExportsOpts,
    #[command(flatten)]
    pub reads: crate::cli_opts_reads::ReadOpts,
    #[command(flatten)]
    pub hiera: crate::cli_opts_eyaml::HieraOpts,
    #[command(flatten)]
    pub budgets: crate::cli_opts_budgets::BudgetArgs,
}

pub fn absolute(p: &Path) -> PathBuf {
    std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf())
}

impl CompileOpts {
    /// Files and directories the flags name must exist: a typo would
    /// otherwise compile something else (an empty catalog for a missing
    /// `--manifest`).
    pub fn require_existing(&self) -> Result<(), String> {
        use crate::cli_writes::require_existing;
        require_existing("--manifest", self.manifest.as_deref())?;
        require_existing("--mock-functions", self.mock_functions.as_deref())?;
        require_existing("--enc", self.enc.as_deref())?;
        for m in self.modulepath.iter().flatten() {
            require_existing("--modulepath", Some(m))?;
        }
        Ok(())
    }

    /// `--modulepath`, absolute.
    pub fn modulepath(&self) -> Option<Vec<PathBuf>> {
        self.modulepath
            .as_ref()
            .map(|m| m.iter().map(|p| absolute(p)).collect())
    }

    /// `--manifest`, absolute.
    pub fn manifest(&self) -> Option<PathBuf> {
        self.manifest.as_deref().map(absolute)
    }

    /// `--basemodulepath`'s directories, absolute.
    pub fn basemodulepath(&self) -> Option<Vec<PathBuf>> {
        self.fleet
            .basemodulepath_dirs()
            .map(|dirs| dirs.iter().map(|d| absolute(Path::new(d))).collect())
    }

    /// What the operator names on the command line may be read: `--grant`,
    /// `--modulepath`, `--manifest`, `--basemodulepath`, and the file of
    /// `--setting hiera_config=FILE` with its levels' data directories.
    pub fn operator_grants(&self) -> Vec<PathBuf> {
        let hiera_setting = self.settings.iter().filter_map(|s| {
            let (name, value) = s.split_once('=')?;
            (name.trim() == "hiera_config").then(|| absolute(Path::new(value.trim())))
        });
        self.reads
            .grants
            .iter()
            .cloned()
            .chain(self.modulepath().into_iter().flatten())
            .chain(self.manifest())
            .chain(self.basemodulepath().into_iter().flatten())
            .chain(hiera_setting.flat_map(|h| puppet_compiler::hiera::config::operator_grants(&h)))
            .collect()
    }

    /// `--setting hiera_config=FILE` relative to where the command runs (the
    /// compile resolves a relative one against the environment otherwise).
    pub fn settings(&self) -> Vec<String> {
        self.settings
            .iter()
            .map(|s| match s.split_once('=') {
                Some((name, value)) if name.trim() == "hiera_config" => {
                    format!(
                        "hiera_config={}",
                        absolute(Path::new(value.trim())).display()
                    )
                }
                _ => s.clone(),
            })
            .collect()
    }

    /// The function mocks of `--mock-functions` (`None` without it).
    pub fn mocks(&self) -> Result<Option<Arc<FunctionMocks>>, String> {
        self.mock_functions
            .as_deref()
            .map(|p| FunctionMocks::from_file(p).map(Arc::new))
            .transpose()
    }

    /// The flags over a control repo's `pverify.yaml` (for `check`,
    /// `bless`, and the control repo sides of `diff`).
    pub fn apply_to_repo(&self, repo: &mut Repo) -> Result<(), String> {
        repo.config.allow_generate |= self.allow_generate;
        if self.puppet.is_some() {
            repo.config.puppet = self.puppet;
        }
        repo.overlay_settings(&self.settings())?;
        repo.grants.extend(self.operator_grants());
        if let Some(dirs) = self.basemodulepath() {
            repo.config.basemodulepath = Some(
                dirs.iter()
                    .map(|d| d.to_string_lossy().into_owned())
                    .collect(),
            );
        }
        // Absolute, so the config's "relative to the environment" joins
        // leave them as given.
        if let Some(m) = self.modulepath() {
            repo.config.modulepath = Some(m);
        }
        if let Some(m) = self.manifest() {
            repo.config.manifest = Some(m);
        }
        if let Some(m) = &self.mock_functions {
            repo.config.mocks = Some(absolute(m));
        }
        if let Some(e) = &self.enc {
            repo.config.enc = Some(absolute(e));
        }
        if let Some(p) = &self.fleet.environmentpath {
            repo.set_environmentpath(absolute(p))?;
        }
        repo.fact_overrides = self.fleet.fact_overrides.clone();
        repo.enc_timeout = self.enc_timeout.duration()?;
        repo.apply_hiera_options(
            self.hiera.hiera_config.clone(),
            self.hiera.eyaml_missing_key,
        );
        // A replacement hiera.yaml the operator names is readable, with its
        // levels' data directories.
        if let Some(h) = repo.hiera_config() {
            repo.grants
                .extend(puppet_compiler::hiera::config::operator_grants(&h));
        }
        repo.deploy_modules(&self.puppetfile.cache())?;
        repo.set_exports(self.exports.exports.as_deref(), self.exports.exports_run)?;
        repo.config.node_timeout = self.budgets.node_timeout.or(repo.config.node_timeout);
        repo.config.node_memory = self.budgets.node_memory.or(repo.config.node_memory);
        Ok(())
    }
}
