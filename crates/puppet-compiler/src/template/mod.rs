//! Template engines: EPP (Puppet-language templates) and ERB (a Ruby subset).
//! Where template files are found is the loader's (`Environment::find_template`).

pub mod epp;
pub mod erb;
