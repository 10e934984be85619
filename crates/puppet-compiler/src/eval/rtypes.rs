//! Which resource types exist for a compile: Puppet's own and the modules'
//! Ruby types (`crate::restypes`), read once per run through the
//! environment's cache.

use puppet_model::value::flatten_into;
use std::borrow::Cow;
use std::sync::Arc;

use super::compiler::{Compiler, Res, ResKind};
use super::issues;
use super::value::Value;
use crate::restypes::TypeDef;

impl Compiler<'_> {
    /// The Ruby resource type `key` (lower case, no leading `::`), if
    /// Puppet or a module on the modulepath defines it.
    pub fn ruby_type(&self, key: &str) -> Option<Arc<TypeDef>> {
        self.env
            .resource_types
            .find(self.env.files(), key, &self.env.modulepath)
            .filter(|t| self.loads(t))
            .or_else(|| self.vendored_type(key))
    }

    /// Whether this Puppet can load the type: Puppet 7.23 as Debian 12
    /// packages it has no `puppet/resource_api`.
    fn loads(&self, t: &TypeDef) -> bool {
        !(t.needs_resource_api && self.node.puppet == crate::version::PuppetVersion::V7)
    }

    /// Puppet 8's modulepath ends with its vendored modules (host, cron,
    /// mount, ...); Puppet 7.23's vendored directory is empty.
    fn vendored_type(&self, key: &str) -> Option<Arc<TypeDef>> {
        if self.node.puppet == crate::version::PuppetVersion::V7 {
            return None;
        }
        crate::restypes::vendored::vendored(key).cloned()
    }

    /// Puppet's error for a module type it finds but cannot load (a
    /// Resource API type in Puppet 7.23), if `key` is one.
    pub fn unloadable_type_message(&self, key: &str) -> Option<String> {
        let types = &self.env.resource_types;
        let t = types.find(self.env.files(), key, &self.env.modulepath)?;
        (!self.loads(&t)).then(|| issues::resources::resource_api_not_loadable(key))
    }

    pub fn is_ruby_type(&self, key: &str) -> bool {
        self.ruby_type(key).is_some()
    }

    /// The error for a resource type pverify does not know: Puppet's
    /// `Unknown resource type`, or, when a module has the type's Ruby file
    /// but the static reader could not read it, that reason (Puppet would
    /// load it; pverify cannot compile it faithfully).
    pub fn unknown_type_message(&self, key: &str) -> String {
        if let Some(why) = self.unloadable_type_message(key) {
            return why;
        }
        match self
            .env
            .resource_types
            .refusal(self.env.files(), key, &self.env.modulepath)
        {
            Some(why) => format!(
                "{} (pverify cannot read its Ruby definition {why})",
                issues::resources::unknown_ruby_resource_type(key)
            ),
            None => issues::resources::unknown_ruby_resource_type(key),
        }
    }
}

/// Puppet's `parse_title` check for a new resource of a Ruby type: a
/// title no title pattern matches is an error.
pub fn check_title_patterns(t: &TypeDef, title: &str) -> Result<(), String> {
    if t.name != "file" && t.parse_title(title).is_none() {
        return Err(issues::resources::no_title_pattern_matched(title));
    }
    Ok(())
}

impl Compiler<'_> {
    /// A resource's parameters as Puppet's catalog holds them
    /// (`Puppet::Resource#to_data_hash`): for a Ruby type, the attributes
    /// its title sets come first (`parse_title`), `name` stands for the
    /// namevar, and the namevar is left out when it equals the title. Other
    /// resources keep their parameters as they are.
    ///
    /// Borrowed where it can be (most are): a map built per resource cost a
    /// key and a value copy per parameter. Keys are unique, in the order an
    /// insertion-ordered map would keep them; undef values are left out.
    pub(super) fn catalog_params<'r>(&self, r: &'r Res) -> Vec<(Cow<'r, str>, Cow<'r, Value>)> {
        if r.kind != ResKind::Builtin {
            return r
                .params
                .iter()
                .filter(|(_, v)| !v.is_undef())
                .map(|(k, v)| (Cow::Borrowed(&**k), catalog_value(k, v)))
                .collect();
        }
        let rtype = r.rtype.as_deref();
        let namevar = rtype.map_or("name", |t| t.namevar());
        let mut out = title_attributes(rtype, &r.title);
        out.reserve(r.params.len());
        for (k, v) in &r.params {
            if v.is_undef() {
                continue;
            }
            let key: Cow<'r, str> = if &**k == "name" {
                Cow::Borrowed(namevar)
            } else {
                Cow::Borrowed(&**k)
            };
            // A key given twice (`name` and the namevar, or a title
            // attribute) keeps its first place and takes the last value.
            let v = catalog_value(k, v);
            match out.iter_mut().find(|(have, _)| *have == key) {
                Some(slot) => slot.1 = v,
                None => out.push((key, v)),
            }
        }
        if let Some(i) = out
            .iter()
            .position(|(k, v)| k == namevar && matches!(&**v, Value::String(s) if **s == *r.title))
        {
            out.remove(i);
        }
        out
    }
}

/// A parameter's value as the catalog's copy of the resource holds it:
/// Puppet's `Parser::Resource#to_hash` flattens an Array given to a
/// relationship metaparameter (`before`, `require`, `notify`, `subscribe`)
/// and drops its undef values; `Puppet::Resource.new` then flattens any
/// Array with a resource reference at any depth.
fn catalog_value<'r>(key: &str, v: &'r Value) -> Cow<'r, Value> {
    let Value::Array(items) = v else {
        return Cow::Borrowed(v);
    };
    let nested = items.iter().any(|i| matches!(i, Value::Array(_)));
    let relationship = matches!(key, "before" | "require" | "notify" | "subscribe");
    if relationship && (nested || items.iter().any(Value::is_undef)) {
        let mut out = Vec::with_capacity(items.len());
        flatten_into(items, &mut out);
        out.retain(|v| !v.is_undef());
        return Cow::Owned(Value::array(out));
    }
    if nested && holds_reference(items) {
        let mut out = Vec::with_capacity(items.len());
        flatten_into(items, &mut out);
        return Cow::Owned(Value::array(out));
    }
    Cow::Borrowed(v)
}

/// Whether an Array holds, at any depth, a value Puppet's evaluator hands
/// to the catalog as a `Puppet::Resource`: a resource or class reference.
fn holds_reference(items: &[Value]) -> bool {
    items.iter().any(|i| match i {
        Value::Array(inner) => holds_reference(inner),
        Value::Type(t) => matches!(
            t.as_ref(),
            puppet_model::types::PType::Resource {
                type_name: Some(_),
                title: Some(_),
            } | puppet_model::types::PType::Class(Some(_))
        ),
        _ => false,
    })
}

/// [`crate::catalog::title_attributes`] as `catalog_params` starts from,
/// borrowed where the attribute is the title itself (nearly always: a
/// `File` without a trailing slash, a type without title patterns). The
/// title's value shares the title; only patterns and trimmed paths copy.
fn title_attributes<'r>(
    rtype: Option<&'r crate::restypes::TypeDef>,
    title: &'r std::sync::Arc<str>,
) -> Vec<(Cow<'r, str>, Cow<'r, Value>)> {
    let whole_title = match rtype {
        None => Some("name"),
        Some(t) if t.name == "file" => (!title.ends_with('/')).then_some("path"),
        Some(t) if t.title_patterns.is_none() => t.key_attributes.first().map(String::as_str),
        Some(_) => None,
    };
    match whole_title {
        Some(key) => vec![(Cow::Borrowed(key), Cow::Owned(Value::String(title.clone())))],
        None => crate::catalog::title_attributes(rtype, title)
            .into_iter()
            .map(|(k, v)| (Cow::Owned(k), Cow::Owned(Value::string(v))))
            .collect(),
    }
}
