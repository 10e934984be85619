//! Puppet's settings that a compile reads: one registry ([`REGISTRY`]) of
//! every setting pverify accepts, with its type, its default in Puppet 7 and
//! 8, and what pverify does with it; and [`Settings`], the typed values a
//! compile runs with.
//!
//! Settings come from pverify.yaml's `settings:`, a case's `settings:` and
//! `--setting NAME=VALUE`. A name pverify does not list is an error (a typo,
//! or a Puppet setting pverify cannot honour), and so is a bad value: a
//! setting is never silently ignored unless the registry says why it does not
//! change a compile. docs/settings.md is the reader's copy of the registry.

mod puppet_names;

use std::fmt;

use puppet_model::{Map, Value};

use crate::version::{PuppetVersion, Strict};

/// A setting's type, as `defaults.rb` declares it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Boolean,
    Integer,
    /// One of the listed words.
    Enum(&'static [&'static str]),
    /// A comma-separated list (or a YAML list), each item one of the words.
    List(&'static [&'static str]),
    String,
}

/// What pverify does with a setting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Handling {
    /// Read by the compile as Puppet reads it.
    Implemented,
    /// Accepted and without effect on a compile; the reason says why.
    Ignored(&'static str),
    /// Only the default value is accepted; any other is an error naming the
    /// reason pverify does not implement it.
    DefaultOnly(&'static str),
}

/// One setting of the registry.
#[derive(Clone, Copy, Debug)]
pub struct Setting {
    pub name: &'static str,
    pub kind: Kind,
    /// The default in Puppet 7.23 and in 8.10, as Puppet prints it.
    pub default7: &'static str,
    pub default8: &'static str,
    pub handling: Handling,
    /// What it changes in a compile.
    pub effect: &'static str,
}

const STRICT: &[&str] = &["off", "warning", "error"];
const DIGESTS: &[&str] = &["sha256", "sha384", "sha512", "sha224", "md5"];
const WARNING_KINDS: &[&str] = &["deprecations", "undefined_variables", "undefined_resources"];

/// Agent-side or path settings: what a server would do with them is not
/// part of what a compile produces.
const NOT_COMPILE: &str = "not read while compiling a catalog";

/// Every setting pverify accepts, in the order docs/settings.md lists them.
pub const REGISTRY: &[Setting] = &[
    Setting {
        name: "strict",
        kind: Kind::Enum(STRICT),
        default7: "warning",
        default8: "error",
        handling: Handling::Implemented,
        effect: "what the language's extra checks do: off ignores them, warning logs them, error fails the compile (hash keys declared twice, strings coerced to numbers, unknown variables when strict_variables is false, overriding an evaluated resource, undefined variables in Hiera interpolation, stdlib's deprecation())",
    },
    Setting {
        name: "strict_variables",
        kind: Kind::Boolean,
        default7: "false",
        default8: "true",
        handling: Handling::Implemented,
        effect: "an unknown variable is an error (otherwise `strict` decides)",
    },
    Setting {
        name: "code",
        kind: Kind::String,
        default7: "",
        default8: "",
        handling: Handling::Implemented,
        effect: "Puppet code compiled instead of the environment's manifests",
    },
    Setting {
        name: "hiera_config",
        kind: Kind::String,
        default7: "$confdir/hiera.yaml",
        default8: "$confdir/hiera.yaml",
        handling: Handling::Implemented,
        effect: "the global Hiera layer's hiera.yaml (relative: to the environment directory); pverify has no global layer without it",
    },
    Setting {
        name: "digest_algorithm",
        kind: Kind::Enum(DIGESTS),
        default7: "sha256",
        default8: "sha256",
        handling: Handling::Implemented,
        effect: "the digest of the `digest()` function (sha256 and md5; sha384, sha512 and sha224 are refused as not supported)",
    },
    Setting {
        name: "disable_warnings",
        kind: Kind::List(WARNING_KINDS),
        default7: "[]",
        default8: "[]",
        handling: Handling::Implemented,
        effect: "warnings not logged: `deprecations` (deprecation warnings), `undefined_variables` (undefined variables read by Hiera interpolation and Ruby code), `undefined_resources` (nothing in a compile)",
    },
    Setting {
        name: "max_errors",
        kind: Kind::Integer,
        default7: "10",
        default8: "10",
        handling: Handling::Implemented,
        effect: "how many validation errors of a manifest are logged before `Language validation logged N errors. Giving up`; 0 or 1 reports the first error alone",
    },
    Setting {
        name: "max_warnings",
        kind: Kind::Integer,
        default7: "10",
        default8: "10",
        handling: Handling::Implemented,
        effect: "how many validation warnings of a manifest are logged",
    },
    Setting {
        name: "max_deprecations",
        kind: Kind::Integer,
        default7: "10",
        default8: "10",
        handling: Handling::DefaultOnly("pverify reports no validation deprecations yet"),
        effect: "how many validation deprecation warnings of a manifest are logged",
    },
    Setting {
        name: "rich_data",
        kind: Kind::Boolean,
        default7: "true",
        default8: "true",
        handling: Handling::DefaultOnly("catalogs without rich data are not implemented"),
        effect: "rich data types keep their type in the catalog",
    },
    Setting {
        name: "storeconfigs",
        kind: Kind::Boolean,
        default7: "false",
        default8: "false",
        handling: Handling::Implemented,
        effect: "exported collectors collect: the node's own exported resources, and other nodes' from the exports pverify is given (`--exports FILE`, `exports:` in pverify.yaml; docs/harness.md)",
    },
    Setting {
        name: "tasks",
        kind: Kind::Boolean,
        default7: "false",
        default8: "false",
        handling: Handling::DefaultOnly("tasks and plans are not catalog code"),
        effect: "the language for tasks and plans (internal)",
    },
    Setting {
        name: "data_binding_terminus",
        kind: Kind::Enum(&["hiera", "none"]),
        default7: "hiera",
        default8: "hiera",
        handling: Handling::DefaultOnly("automatic parameter lookup is always on"),
        effect: "`none` turns off automatic parameter lookup",
    },
    Setting {
        name: "freeze_main",
        kind: Kind::Boolean,
        default7: "false",
        default8: "false",
        handling: Handling::DefaultOnly("not implemented"),
        effect: "code outside definitions cannot be changed by modules",
    },
    Setting {
        name: "ignoremissingtypes",
        kind: Kind::Boolean,
        default7: "false",
        default8: "false",
        handling: Handling::DefaultOnly("not implemented"),
        effect: "a missing class in a relationship is skipped",
    },
    Setting {
        name: "debug",
        kind: Kind::Boolean,
        default7: "false",
        default8: "false",
        handling: Handling::DefaultOnly("debug logging is not modelled"),
        effect: "debug messages (and a warning for an empty resource specialization)",
    },
    Setting {
        name: "trace",
        kind: Kind::Boolean,
        default7: "false",
        default8: "false",
        handling: Handling::DefaultOnly("Ruby backtraces are not modelled"),
        effect: "Ruby backtraces with errors",
    },
    Setting {
        name: "puppet_trace",
        kind: Kind::Boolean,
        default7: "false",
        default8: "false",
        handling: Handling::DefaultOnly("Puppet stack traces in errors are not modelled"),
        effect: "Puppet stack traces with errors",
    },
    Setting {
        name: "static_catalogs",
        kind: Kind::Boolean,
        default7: "true",
        default8: "true",
        handling: Handling::Ignored("read by the catalog terminus to inline file metadata, after the compile pverify reproduces"),
        effect: "file metadata in catalogs for agents",
    },
    Setting {
        name: "certname",
        kind: Kind::String,
        default7: "(the host's name)",
        default8: "(the host's name)",
        handling: Handling::Ignored("the node's certname comes from the node"),
        effect: "the server's own name",
    },
    Setting {
        name: "tags",
        kind: Kind::String,
        default7: "",
        default8: "",
        handling: Handling::Ignored("the agent applies only tagged resources; the catalog is whole"),
        effect: "which resources an agent applies",
    },
    Setting {
        name: "noop",
        kind: Kind::Boolean,
        default7: "false",
        default8: "false",
        handling: Handling::Ignored(NOT_COMPILE),
        effect: "an agent's no-op mode",
    },
    Setting {
        name: "preprocess_deferred",
        kind: Kind::Boolean,
        default7: "true",
        default8: "false",
        handling: Handling::Ignored("an agent resolves Deferred values; the catalog holds them"),
        effect: "when an agent resolves Deferred values",
    },
    Setting {
        name: "default_schedules",
        kind: Kind::Boolean,
        default7: "true",
        default8: "true",
        handling: Handling::Ignored("the agent adds its default schedules"),
        effect: "an agent's default Schedule resources",
    },
    Setting {
        name: "show_diff",
        kind: Kind::Boolean,
        default7: "false",
        default8: "false",
        handling: Handling::Ignored(NOT_COMPILE),
        effect: "an agent's diffs of file changes",
    },
    Setting {
        name: "ssldir",
        kind: Kind::String,
        default7: "$confdir/ssl",
        default8: "$confdir/ssl",
        handling: Handling::Ignored(NOT_COMPILE),
        effect: "where certificates are",
    },
    Setting {
        name: "confdir",
        kind: Kind::String,
        default7: "/etc/puppet",
        default8: "/etc/puppet",
        handling: Handling::Ignored("pverify is given its environment and hiera_config directly"),
        effect: "Puppet's configuration directory",
    },
    Setting {
        name: "vardir",
        kind: Kind::String,
        default7: "/var/cache/puppet",
        default8: "/var/cache/puppet",
        handling: Handling::Ignored(NOT_COMPILE),
        effect: "Puppet's state directory",
    },
    Setting {
        name: "logdir",
        kind: Kind::String,
        default7: "/var/log/puppet",
        default8: "/var/log/puppet",
        handling: Handling::Ignored(NOT_COMPILE),
        effect: "where logs go",
    },
    Setting {
        name: "filetimeout",
        kind: Kind::Integer,
        default7: "15",
        default8: "15",
        handling: Handling::Ignored("a server's file-change polling; pverify reads each file once per run"),
        effect: "how often a server checks files for changes",
    },
    Setting {
        name: "always_retry_plugins",
        kind: Kind::Boolean,
        default7: "true",
        default8: "true",
        handling: Handling::Ignored("a long-running server's negative cache of missing types and functions"),
        effect: "whether a failed type or function load is retried later",
    },
];

/// Puppet's `disable_warnings` kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WarningKind {
    Deprecations,
    UndefinedVariables,
    UndefinedResources,
}

/// The digests `digest_algorithm` selects that pverify computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DigestAlgorithm {
    Sha256,
    Md5,
}

/// The settings of a compile: each `None` is the version's default (see the
/// accessors on [`crate::eval::NodeInfo`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    pub strict: Option<Strict>,
    pub strict_variables: Option<bool>,
    pub code: Option<String>,
    pub hiera_config: Option<String>,
    pub digest_algorithm: Option<DigestAlgorithm>,
    pub disable_warnings: Vec<WarningKind>,
    pub max_errors: Option<i64>,
    pub max_warnings: Option<i64>,
    pub storeconfigs: Option<bool>,
}

/// A setting pverify refuses, naming it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SettingError(pub String);

impl fmt::Display for SettingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SettingError {}

impl Settings {
    /// The settings of a map (pverify.yaml's or a case's `settings:`).
    pub fn from_map(map: &Map) -> Result<Settings, SettingError> {
        let mut s = Settings::default();
        for (k, v) in map.iter() {
            s.set(&k.to_string(), v)?;
        }
        Ok(s)
    }

    /// Sets `name` to `value`, checked as Puppet's setting types check
    /// (strings are munged: `"true"`, `"10"`, `"a,b"`).
    pub fn set(&mut self, name: &str, value: &Value) -> Result<(), SettingError> {
        let setting = lookup(name)?;
        let word = munge(setting, value)?;
        match setting.handling {
            Handling::Ignored(_) => return Ok(()),
            Handling::DefaultOnly(why) => {
                if word.as_deref() != Some(setting.default7) {
                    return Err(SettingError(format!(
                        "setting {name}: only its default ({}) is supported by pverify: {why}",
                        setting.default7
                    )));
                }
                return Ok(());
            }
            Handling::Implemented => {}
        }
        let word = word.unwrap_or_default();
        match name {
            "strict" => self.strict = Strict::parse(&word),
            "strict_variables" => self.strict_variables = Some(word == "true"),
            "code" => self.code = Some(word),
            "hiera_config" => self.hiera_config = Some(word),
            "digest_algorithm" => {
                self.digest_algorithm = Some(match word.as_str() {
                    "sha256" => DigestAlgorithm::Sha256,
                    "md5" => DigestAlgorithm::Md5,
                    other => {
                        return Err(SettingError(format!(
                            "setting digest_algorithm: '{other}' is not supported by pverify (sha256 and md5 are)"
                        )))
                    }
                })
            }
            "disable_warnings" => {
                self.disable_warnings = list_items(value)
                    .iter()
                    .filter_map(|w| match w.as_str() {
                        "deprecations" => Some(WarningKind::Deprecations),
                        "undefined_variables" => Some(WarningKind::UndefinedVariables),
                        "undefined_resources" => Some(WarningKind::UndefinedResources),
                        _ => None,
                    })
                    .collect()
            }
            "max_errors" => self.max_errors = word.parse().ok(),
            "max_warnings" => self.max_warnings = word.parse().ok(),
            "storeconfigs" => self.storeconfigs = Some(word == "true"),
            _ => {
                return Err(SettingError(format!(
                    "setting {name}: registered but not handled (a pverify bug)"
                )))
            }
        }
        Ok(())
    }

    /// Applies `NAME=VALUE` (`--setting`), the value as a string.
    pub fn set_assignment(&mut self, text: &str) -> Result<(), SettingError> {
        let (name, value) = split_assignment(text)?;
        self.set(name, &Value::string(value))
    }

    pub fn warnings_disabled(&self, kind: WarningKind) -> bool {
        self.disable_warnings.contains(&kind)
    }
}

/// `NAME=VALUE` split at the first `=`.
pub fn split_assignment(text: &str) -> Result<(&str, &str), SettingError> {
    match text.split_once('=') {
        Some((name, value)) if !name.trim().is_empty() => Ok((name.trim(), value)),
        _ => Err(SettingError(format!(
            "--setting {text:?}: expected NAME=VALUE (e.g. strict=error)"
        ))),
    }
}

/// Checks `NAME=VALUE` pairs (and a settings map's entries) without keeping
/// them: a setup error before anything compiles.
pub fn validate_map(map: &Map) -> Result<(), SettingError> {
    Settings::from_map(map).map(|_| ())
}

/// The registry's entry for `name`; an error telling a Puppet setting
/// pverify does not handle from a name Puppet does not know.
pub fn lookup(name: &str) -> Result<&'static Setting, SettingError> {
    if let Some(s) = REGISTRY.iter().find(|s| s.name == name) {
        return Ok(s);
    }
    if puppet_names::PUPPET_SETTINGS.contains(&name) {
        Err(SettingError(format!(
            "setting {name}: not supported by pverify (docs/settings.md lists the settings it handles)"
        )))
    } else {
        Err(SettingError(format!(
            "unknown Puppet setting '{name}' (docs/settings.md lists the settings pverify handles)"
        )))
    }
}

/// The value as the setting's word (`None` for a list), checked against
/// its type as Puppet's setting classes check it.
fn munge(setting: &Setting, value: &Value) -> Result<Option<String>, SettingError> {
    let name = setting.name;
    let bad = |what: &str| {
        Err(SettingError(format!(
            "setting {name}: invalid value {}: {what}",
            puppet_model::ruby::ruby_inspect(value)
        )))
    };
    match setting.kind {
        Kind::Boolean => match value {
            Value::Boolean(b) => Ok(Some(b.to_string())),
            Value::String(s) if &**s == "true" || &**s == "false" => Ok(Some(s.to_string())),
            _ => bad("expected true or false"),
        },
        Kind::Integer => match value {
            Value::Integer(i) => Ok(Some(i.to_string())),
            Value::String(s) if s.trim().parse::<i64>().is_ok() => Ok(Some(
                s.trim().parse::<i64>().unwrap_or_default().to_string(),
            )),
            _ => bad("expected an integer"),
        },
        Kind::Enum(words) => match value {
            Value::String(s) if words.contains(&&**s) => Ok(Some(s.to_string())),
            // YAML 1.1 reads an unquoted `off` as false.
            Value::Boolean(false) if words.contains(&"off") => {
                bad("YAML reads an unquoted off as false: write 'off'")
            }
            _ => bad(&format!("expected one of {}", words.join(", "))),
        },
        Kind::List(words) => {
            if !matches!(value, Value::String(_) | Value::Array(_)) {
                return bad("expected a list or a comma-separated string");
            }
            let items = list_items(value);
            let unknown: Vec<&String> = items
                .iter()
                .filter(|i| !words.contains(&i.as_str()))
                .collect();
            if !unknown.is_empty() {
                let unknown: Vec<&str> = unknown.iter().map(|s| s.as_str()).collect();
                return bad(&format!(
                    "unrecognized '{}'; valid values are {}",
                    unknown.join(","),
                    words.join(", ")
                ));
            }
            Ok(None)
        }
        Kind::String => match value {
            Value::String(s) => Ok(Some(s.to_string())),
            Value::Integer(_) | Value::Float(_) | Value::Boolean(_) => Ok(Some(value.to_string())),
            _ => bad("expected a string"),
        },
    }
}

/// An Array setting's items: a list, or a string split at commas.
fn list_items(value: &Value) -> Vec<String> {
    match value {
        Value::Array(a) => a.iter().map(|v| v.to_string()).collect(),
        Value::String(s) if s.trim().is_empty() => Vec::new(),
        Value::String(s) => s.split(',').map(|p| p.trim().to_string()).collect(),
        _ => Vec::new(),
    }
}

impl Setting {
    pub fn default_for(&self, v: PuppetVersion) -> &'static str {
        match v {
            PuppetVersion::V7 => self.default7,
            PuppetVersion::V8 => self.default8,
        }
    }
}

#[cfg(test)]
mod tests;

/// The registry as docs/settings.md's table: one row per setting.
pub fn markdown_table() -> String {
    let mut out = String::from(
        "| setting | type | Puppet 7.23 | Puppet 8.10 | pverify | effect |\n|---|---|---|---|---|---|\n",
    );
    for s in REGISTRY {
        let kind = match s.kind {
            Kind::Boolean => "boolean".to_string(),
            Kind::Integer => "integer".to_string(),
            Kind::Enum(w) => w.join(" \\| "),
            Kind::List(w) => format!("list of {}", w.join(", ")),
            Kind::String => "string".to_string(),
        };
        let handling = match s.handling {
            Handling::Implemented => "implemented".to_string(),
            Handling::Ignored(why) => format!("accepted, ignored: {why}"),
            Handling::DefaultOnly(why) => format!("default only: {why}"),
        };
        out.push_str(&format!(
            "| `{}` | {kind} | `{}` | `{}` | {handling} | {} |\n",
            s.name, s.default7, s.default8, s.effect
        ));
    }
    out
}
