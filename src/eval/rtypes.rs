//! Which resource types exist for a compile: Puppet's own and the modules'
//! Ruby types (`crate::restypes`), read once per run through the
//! environment's cache.

use std::sync::Arc;

use super::compiler::{Compiler, Res, ResKind};
use super::value::Value;
use crate::restypes::TypeDef;

impl Compiler<'_> {
    /// The Ruby resource type `key` (lower case, no leading `::`), if
    /// Puppet or a module on the modulepath defines it.
    pub fn ruby_type(&self, key: &str) -> Option<Arc<TypeDef>> {
        self.env.resource_types.find(key, &self.env.modulepath)
    }

    pub fn is_ruby_type(&self, key: &str) -> bool {
        self.ruby_type(key).is_some()
    }

    /// The error for a resource type pverify does not know: Puppet's
    /// `Unknown resource type`, or, when a module has the type's Ruby file
    /// but the static reader could not read it, that reason (Puppet would
    /// load it; pverify cannot compile it faithfully).
    pub fn unknown_type_message(&self, key: &str) -> String {
        match self.env.resource_types.refusal(key, &self.env.modulepath) {
            Some(why) => format!(
                "Unknown resource type: '{key}' (pverify cannot read its Ruby definition {why})"
            ),
            None => format!("Unknown resource type: '{key}'"),
        }
    }

    /// Puppet's `parse_title` check for a new resource of a Ruby type: a
    /// title no title pattern matches is an error.
    pub fn check_title_patterns(&self, key: &str, title: &str) -> Result<(), String> {
        match self.ruby_type(key) {
            Some(t) if t.name != "file" && t.parse_title(title).is_none() => Err(format!(
                "No set of title patterns matched the title \"{title}\"."
            )),
            _ => Ok(()),
        }
    }
}

impl Compiler<'_> {
    /// A resource's parameters as Puppet's catalog holds them
    /// (`Puppet::Resource#to_data_hash`): for a Ruby type, the attributes
    /// its title sets come first (`parse_title`), `name` stands for the
    /// namevar, and the namevar is left out when it equals the title. Other
    /// resources keep their parameters as they are.
    pub(super) fn catalog_params<'r>(
        &self,
        r: &'r Res,
    ) -> std::borrow::Cow<'r, crate::eval::value::Params> {
        if r.kind != ResKind::Builtin {
            return std::borrow::Cow::Borrowed(&r.params);
        }
        let rtype = self.ruby_type(&r.type_name.to_ascii_lowercase());
        let rtype = rtype.as_deref();
        let namevar = rtype.map_or("name", |t| t.namevar());
        let mut out: crate::eval::value::Params = crate::catalog::title_attributes(rtype, &r.title)
            .into_iter()
            .map(|(k, v)| (k, Value::string(v)))
            .collect();
        out.reserve(r.params.len());
        for (k, v) in &r.params {
            if v.is_undef() {
                continue;
            }
            let key = if k == "name" { namevar } else { k };
            out.insert(key.to_string(), v.clone());
        }
        if matches!(out.get(namevar), Some(Value::String(s)) if **s == *r.title) {
            out.shift_remove(namevar);
        }
        std::borrow::Cow::Owned(out)
    }
}
