//! Hiera flags of `check`, `bless` and `diff` (docs/hiera.md).

use std::path::PathBuf;

use clap::Args;
use puppet_compiler::hiera::eyaml::MissingKey;

#[derive(Args, Clone, Debug, Default)]
pub struct HieraOpts {
    /// A hiera.yaml that replaces the environment's for this run (as
    /// pverify.yaml's `hiera_config:`; relative: to the environment
    /// directory, so each side of a diff reads its own). Not Puppet's
    /// `hiera_config` setting: that is `--setting hiera_config=FILE`.
    #[arg(long = "hiera-config", value_name = "FILE")]
    pub hiera_config: Option<PathBuf>,
    /// Without hiera-eyaml's private key: `fail` as Puppet does, or
    /// `redact` each encrypted value to a digest of its ciphertext (as
    /// pverify.yaml's `eyaml: {missing_key: ...}`).
    #[arg(long = "eyaml-missing-key", value_name = "fail|redact", value_parser = parse_missing_key)]
    pub eyaml_missing_key: Option<MissingKey>,
}

fn parse_missing_key(s: &str) -> Result<MissingKey, String> {
    s.parse()
}
