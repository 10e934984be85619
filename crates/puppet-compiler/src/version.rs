//! Which Puppet pverify compiles as. Puppet 7.23 (Debian 12's `puppet`) and
//! Puppet 8.10 (Debian 13's `puppet-agent`) are the two references; where
//! they differ in a catalog or an error, the compiler asks this.

use std::fmt;

pub use puppet_model::ruby::RubyVersion;

/// The Puppet release whose behaviour a compile reproduces.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PuppetVersion {
    /// Puppet 7.23 on Ruby 3.1 (Debian 12).
    V7,
    /// Puppet 8.10 on Ruby 3.3 (Debian 13): what teams run today, so the
    /// default.
    #[default]
    V8,
}

impl PuppetVersion {
    pub const ALL: [PuppetVersion; 2] = [PuppetVersion::V7, PuppetVersion::V8];

    /// `7` or `8` (also `7.23`, `8.10.0`: the major version decides).
    pub fn parse(text: &str) -> Option<PuppetVersion> {
        match text.trim().split('.').next()? {
            "7" => Some(PuppetVersion::V7),
            "8" => Some(PuppetVersion::V8),
            _ => None,
        }
    }

    pub fn major(self) -> u8 {
        match self {
            PuppetVersion::V7 => 7,
            PuppetVersion::V8 => 8,
        }
    }

    /// `Puppet.version` of the reference (the `$serverversion` server fact).
    pub fn release(self) -> &'static str {
        match self {
            PuppetVersion::V7 => "7.23.0",
            PuppetVersion::V8 => "8.10.0",
        }
    }

    /// `Puppet.minor_version` (`7.23`, `8.10`: the documentation URLs in
    /// Puppet's messages).
    pub fn minor_version(self) -> &'static str {
        match self {
            PuppetVersion::V7 => "7.23",
            PuppetVersion::V8 => "8.10",
        }
    }

    /// The Ruby the reference runs on: what templates and modules' Ruby
    /// functions show (error texts, JSON, Psych).
    pub fn ruby(self) -> RubyVersion {
        match self {
            PuppetVersion::V7 => RubyVersion::V3_1,
            PuppetVersion::V8 => RubyVersion::V3_3,
        }
    }

    /// `strict`'s default: `warning` in 7, `error` in 8.
    pub fn default_strict(self) -> Strict {
        match self {
            PuppetVersion::V7 => Strict::Warning,
            PuppetVersion::V8 => Strict::Error,
        }
    }

    /// `strict_variables`' default: false in 7, true in 8.
    pub fn default_strict_variables(self) -> bool {
        self == PuppetVersion::V8
    }
}

impl fmt::Display for PuppetVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.major())
    }
}

/// Puppet's `strict` setting: what language checks that are not errors by
/// themselves (a hash key declared twice, ...) do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Strict {
    Off,
    Warning,
    Error,
}

impl Strict {
    pub fn parse(text: &str) -> Option<Strict> {
        match text {
            "off" => Some(Strict::Off),
            "warning" => Some(Strict::Warning),
            "error" => Some(Strict::Error),
            _ => None,
        }
    }
}
