//! `eyaml_lookup_key`'s value of a key: Puppet's `decrypt_value` (strings
//! decrypted then interpolated, hash keys interpolated, arrays and hashes
//! walked, other values as they are).

use super::{Miss, ScopeId};
use crate::eval::compiler::Compiler;
use crate::eval::issues;
use crate::hiera::config::Level;
use crate::hiera::eyaml::{self, KeyOptions};
use puppet_model::{Map, Value};
use std::path::Path;

impl Compiler<'_> {
    /// The value of `key` found in the eyaml file `file` of `level`.
    pub(super) fn eyaml_value(
        &mut self,
        v: &Value,
        level: &Level,
        file: &Path,
        key: &str,
        scope: ScopeId,
        chain: &[String],
    ) -> Result<Value, Miss> {
        // Puppet interpolates the level's options before the function sees
        // them (key paths may name facts or the environment).
        let options = match &level.options {
            Some(o) => match self.interpolate(&Value::hash(o.clone()), scope, chain)? {
                Value::Hash(ref h) => KeyOptions::from_options(h),
                _ => KeyOptions::default(),
            },
            None => KeyOptions::default(),
        };
        self.eyaml_walk(v, &options, file, key, scope, chain)
    }

    fn eyaml_walk(
        &mut self,
        v: &Value,
        options: &KeyOptions,
        file: &Path,
        key: &str,
        scope: ScopeId,
        chain: &[String],
    ) -> Result<Value, Miss> {
        Ok(match v {
            Value::String(s) => {
                let text = if eyaml::is_encrypted(s) {
                    eyaml::decrypt_text(
                        s,
                        options,
                        self.env.files(),
                        &self.env.hiera.eyaml,
                        &self.env.eyaml,
                        // Debian 13's hiera-eyaml 4.2 beside Puppet 8,
                        // Debian 12's 3.3 beside Puppet 7.
                        self.node.puppet == crate::version::PuppetVersion::V8,
                    )
                    .map_err(|e| {
                        Miss::Error(issues::lookup::eyaml_decrypt_failed(
                            s,
                            key,
                            file.display(),
                            &e.message,
                        ))
                    })?
                } else {
                    s.to_string()
                };
                if text.contains("%{") {
                    self.interpolate_str(&text, scope, chain)?
                } else {
                    Value::string(text)
                }
            }
            Value::Array(a) => Value::array(
                a.iter()
                    .map(|x| self.eyaml_walk(x, options, file, key, scope, chain))
                    .collect::<Result<_, _>>()?,
            ),
            Value::Hash(h) => {
                let mut out = Map::default();
                for (k, x) in h.iter() {
                    let k = self.interpolate(k, scope, chain)?;
                    out.insert(k, self.eyaml_walk(x, options, file, key, scope, chain)?);
                }
                Value::hash(out)
            }
            other => other.clone(),
        })
    }
}
