//! The node object a catalog is compiled for: certname, facts, trusted data,
//! and what an ENC said (classes, top-scope parameters, environment).

use puppet_model::{Map, Value};

#[derive(Clone, Debug, Default)]
pub struct NodeInfo {
    /// The certname, as given (matching downcases it).
    pub name: String,
    /// Shared: a fleet's nodes on one fact set hold one map (`diff`
    /// keeps both sides' nodes while it runs).
    pub facts: std::sync::Arc<Map>,
    /// Certificate extensions for `$trusted['extensions']`.
    pub trusted_extensions: Map,
    /// ENC classes in order, each with its parameters (`None`: plain include).
    pub classes: Vec<(String, Option<Map>)>,
    /// ENC parameters: top-scope variables.
    pub parameters: Map,
    pub environment: Option<String>,
    /// Facts the server adds (`serverversion`, `servername`, `serverip`): also
    /// top-scope variables, and `$server_facts` with `environment`.
    pub server_facts: Map,
    /// `$trusted['external']`.
    pub trusted_external: Map,
    /// Puppet settings for this compile (`strict`, `strict_variables`...),
    /// checked; unset ones take the version's default (the accessors below).
    pub settings: crate::settings::Settings,
    /// The Puppet release this compile reproduces (and whose setting
    /// defaults apply).
    pub puppet: crate::version::PuppetVersion,
    /// Functions replaced by fixed values for this compile (onceover's
    /// function mocks).
    pub function_mocks: std::sync::Arc<super::mocks::FunctionMocks>,
    /// Whether `generate()` runs its command (`--allow-generate`, or
    /// `allow_generate: true` in pverify.yaml); refused by default.
    pub allow_generate: bool,
    /// Run modules' Ruby functions in the interpreter even where the library
    /// implements them natively (tests use it to check the interpreter
    /// against Puppet's answers for stdlib's functions).
    pub interpret_module_ruby: bool,
    /// Other nodes' exported resources, as PuppetDB would answer this
    /// node's exported collectors (a fleet snapshot, or the exports of the
    /// nodes compiled in the same run); read only under `storeconfigs`.
    pub exports: std::sync::Arc<super::exports::Exports>,
    /// How long the compile may take and how much it may allocate
    /// (`--node-timeout`, `--node-memory`; `crate::budget`).
    pub budget: crate::budget::Limits,
}

impl NodeInfo {
    /// `strict`: as set, else the version's default.
    pub fn strict(&self) -> crate::version::Strict {
        self.settings
            .strict
            .unwrap_or_else(|| self.puppet.default_strict())
    }

    /// `strict_variables`: as set, else the version's default.
    pub fn strict_variables(&self) -> bool {
        self.settings
            .strict_variables
            .unwrap_or_else(|| self.puppet.default_strict_variables())
    }

    /// `storeconfigs`: whether exported collectors collect.
    pub fn storeconfigs(&self) -> bool {
        self.settings.storeconfigs.unwrap_or(false)
    }

    /// How validation issues are reported under these settings.
    pub fn validation(&self) -> puppet_syntax::Validation {
        puppet_syntax::Validation {
            strict: match self.strict() {
                crate::version::Strict::Off => puppet_syntax::Severity::Ignore,
                crate::version::Strict::Warning => puppet_syntax::Severity::Warning,
                crate::version::Strict::Error => puppet_syntax::Severity::Error,
            },
            max_errors: self.settings.max_errors.unwrap_or(10),
            max_warnings: self.settings.max_warnings.unwrap_or(10),
        }
    }

    /// `$trusted`: `{authenticated => 'remote', certname, extensions, hostname, domain}`.
    pub fn trusted(&self) -> Value {
        let (host, domain) = match self.name.split_once('.') {
            Some((h, d)) => (h.to_string(), d.to_string()),
            None => (self.name.clone(), String::new()),
        };
        let mut m = Map::default();
        m.insert(Value::string("authenticated"), Value::string("remote"));
        m.insert(Value::string("certname"), Value::string(self.name.as_str()));
        m.insert(
            Value::string("extensions"),
            Value::hash(self.trusted_extensions.clone()),
        );
        m.insert(Value::string("hostname"), Value::string(host));
        m.insert(Value::string("domain"), Value::string(domain));
        m.insert(
            Value::string("external"),
            Value::hash(self.trusted_external.clone()),
        );
        Value::hash(m)
    }
}
