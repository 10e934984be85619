//! Flags of a fleet's set-up, shared by `compile`, `check`, `bless` and
//! `diff`: where modules and environments are (as a Puppet server's
//! `basemodulepath` and `environmentpath`) and fact overrides.

use std::path::PathBuf;

use clap::Args;
use puppet_compiler::facts::overrides::FactOverride;

#[derive(Args, Clone, Debug, Default)]
pub struct FleetOpts {
    /// Puppet's basemodulepath (':'-separated directories): what
    /// `$basemodulepath` in environment.conf stands for, and the modulepath's
    /// tail when it names none. Over pverify.yaml's `basemodulepath:`;
    /// `--oracle puppet` uses the same directories.
    #[arg(long, value_name = "DIRS")]
    pub basemodulepath: Option<String>,
    /// Puppet's environmentpath: each directory below it is an environment,
    /// and a node's environment (node file, inventory or ENC) selects the
    /// one that compiles it. Over pverify.yaml's `environmentpath:`; for
    /// `compile` the default is the environment directory's parent.
    #[arg(long, value_name = "DIR")]
    pub environmentpath: Option<PathBuf>,
    /// Override a fact on every node, `NAME=VALUE` as octocatalog-diff takes
    /// it: the type is guessed (42, 1.5, true, else a string) or given
    /// (`(string)42`, `(json){"a":1}`, `(nil)` deletes); `/REGEX/=VALUE`
    /// changes every matching fact. Repeatable.
    #[arg(long = "fact-override", value_name = "NAME=VALUE", value_parser = FactOverride::parse)]
    pub fact_overrides: Vec<FactOverride>,
}

impl FleetOpts {
    /// `--basemodulepath` as directories.
    pub fn basemodulepath_dirs(&self) -> Option<Vec<String>> {
        self.basemodulepath.as_ref().map(|s| {
            s.split(':')
                .filter(|d| !d.is_empty())
                .map(str::to_string)
                .collect()
        })
    }
}

/// `--enc-timeout` for the commands whose ENC comes from pverify.yaml.
#[derive(Args, Clone, Debug)]
pub struct EncTimeoutOpts {
    /// Seconds the ENC (pverify.yaml's `enc:`, or diff's `--enc`) may run
    /// for one node before it counts as hung.
    #[arg(long = "enc-timeout", default_value_t = 10.0)]
    pub enc_timeout: f64,
}

impl EncTimeoutOpts {
    pub fn duration(&self) -> Result<std::time::Duration, String> {
        std::time::Duration::try_from_secs_f64(self.enc_timeout)
            .map_err(|e| format!("--enc-timeout {}: {e}", self.enc_timeout))
    }
}
