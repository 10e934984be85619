//! The catalog as Puppet 7 serializes it: `Catalog#to_resource.to_data_hash`
//! (`catalog_format` 2), and its bytes as Puppet's `to_json` (compact) and
//! Ruby's `JSON.pretty_generate` write them.
//!
//! Rules, each verified with Puppet 7.23 (see `tests/catalog_json.rs`):
//! - Catalog keys: `tags, name, version, code_id, catalog_uuid,
//!   catalog_format, environment, resources, edges, classes`. `tags` is the
//!   class names tagged in order (`foo::bar` also gives `foo`, `bar`), then
//!   the catalog's own tags not yet listed. `classes` as added, duplicates
//!   kept.
//! - Resources in insertion order, virtual ones that are not exported left
//!   out. Keys `type, title, tags, file, line, exported, kind, parameters,
//!   sensitive_parameters`; `file`/`line` only when known, `parameters` only
//!   when some remain, `sensitive_parameters` only when some are.
//! - Parameters (Puppet's `Parser::Resource#to_hash`, `Resource#initialize`
//!   copy, `to_data_hash`): the namevar comes first, its value taken from the
//!   title (`File['/tmp/d/']` has `path` `/tmp/d`); a `name` parameter sets
//!   the namevar (`file { '/x': name => '/y' }` gives `path`); undef values
//!   are dropped; array values of `before`/`require`/`notify`/`subscribe` are
//!   flattened with undef removed; any array holding a resource reference
//!   (at any depth of arrays) is flattened; a top-level `Sensitive` is
//!   unwrapped and its parameter listed in `sensitive_parameters`; finally the
//!   namevar is left out when it equals the title.
//! - Resource references (`Value::Type` of a resource or class), anywhere in
//!   a value and as hash keys, become `Type[title]` strings: `File[/x]`,
//!   `Class[Foo::Bar]`.
//! - Values (`ToDataConverter`): strings, integers, booleans as JSON; floats
//!   as Ruby prints them (`1.0`, `1.0e+20`, `1.0e-05`); undef inside a value
//!   is `null`; a nested `Sensitive` is
//!   `{"__ptype": "Sensitive", "__pvalue": v}` in both modes.
//!   With rich data (`JsonOptions::rich_data`, Puppet's default for catalogs
//!   sent to agents): default is `{"__ptype": "Default"}`, a regexp
//!   `{"__ptype": "Regexp", "__pvalue": source}`, a hash with a key that is
//!   not a string (or is the string `__ptype`)
//!   `{"__ptype": "Hash", "__pvalue": [k1, v1, k2, v2...]}`, a type value a
//!   Pcore object (`{"__ptype": "Pcore::AnyType"}`). Without rich data
//!   (`Puppet.lookup(:rich_data)` false, as in a bare
//!   `Compiler.compile(node).to_resource.to_data_hash`): default is
//!   `"default"`, a regexp `"/source/"` (Ruby's `Regexp#inspect`), hash keys
//!   become strings (`1` is `"1"`, undef is `""`, `[1]` is `"[1]"`), types
//!   their string form (`"Integer[1, 2]"`).
//! - Edges are containment edges `{"source": ref, "target": ref}`, grouped by
//!   target in resource order (Puppet's graph lists the edges into each
//!   vertex in turn), then in insertion order; edges touching a left-out
//!   resource are left out.

use indexmap::IndexMap;
use serde_json::{Map, Number, Value as J};

use super::names::{canonical_class_title, capitalize_segments};
use super::tags::TagSet;
use super::{Catalog, Resource};
use puppet_model::types::PType;
use puppet_model::Value;

/// How values are rendered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JsonOptions {
    /// Puppet's `rich_data` context: true when a Puppet 7 server sends a
    /// catalog (`application/vnd.puppet.rich+json`, `rich_data` defaults to
    /// true); false in a plain `Compiler.compile(...).to_resource.to_data_hash`
    /// outside `Puppet.override(rich_data: true)`.
    pub rich_data: bool,
}

impl Default for JsonOptions {
    fn default() -> JsonOptions {
        JsonOptions { rich_data: true }
    }
}

impl JsonOptions {
    pub const RICH: JsonOptions = JsonOptions { rich_data: true };
    pub const PLAIN: JsonOptions = JsonOptions { rich_data: false };
}

/// The relationship metaparameters, whose arrays Puppet flattens.
const RELATIONSHIP_PARAMS: [&str; 4] = ["before", "subscribe", "notify", "require"];

impl Catalog {
    /// The catalog's data hash with rich data, keys in Puppet's order.
    pub fn to_json(&self) -> J {
        self.to_json_with(JsonOptions::default())
    }

    pub fn to_json_with(&self, opts: JsonOptions) -> J {
        let mut tags = TagSet::new();
        for c in self.classes() {
            // Class names are always valid tags; Puppet would fail otherwise.
            let _ = tags.tag(c);
        }
        tags.merge(&self.tags);

        let mut out = Map::new();
        out.insert(
            "tags".into(),
            J::Array(tags.iter().map(|t| J::String(t.into())).collect()),
        );
        out.insert("name".into(), J::String(self.name.clone()));
        out.insert("version".into(), J::Number(self.version.into()));
        out.insert(
            "code_id".into(),
            self.code_id
                .as_ref()
                .map_or(J::Null, |c| J::String(c.clone())),
        );
        out.insert("catalog_uuid".into(), J::String(self.catalog_uuid()));
        out.insert("catalog_format".into(), J::Number(2.into()));
        out.insert("environment".into(), J::String(self.environment.clone()));
        out.insert(
            "resources".into(),
            J::Array(
                self.resources()
                    .filter(|(_, r)| r.is_serialized())
                    .map(|(_, r)| r.to_json_with(opts))
                    .collect(),
            ),
        );
        let mut edges: Vec<_> = self
            .edges()
            .iter()
            .filter(|(s, t)| self.get(*s).is_serialized() && self.get(*t).is_serialized())
            .collect();
        edges.sort_by_key(|(_, t)| *t); // stable: insertion order per target
        out.insert(
            "edges".into(),
            J::Array(
                edges
                    .into_iter()
                    .map(|(s, t)| {
                        let mut e = Map::new();
                        e.insert("source".into(), J::String(self.get(*s).reference()));
                        e.insert("target".into(), J::String(self.get(*t).reference()));
                        J::Object(e)
                    })
                    .collect(),
            ),
        );
        out.insert(
            "classes".into(),
            J::Array(
                self.classes()
                    .iter()
                    .map(|c| J::String(c.clone()))
                    .collect(),
            ),
        );
        J::Object(out)
    }

    /// The bytes Puppet's `catalog.to_json` writes (compact), rich data.
    pub fn to_json_string(&self) -> String {
        write_compact(&self.to_json())
    }

    pub fn to_json_string_with(&self, opts: JsonOptions) -> String {
        write_compact(&self.to_json_with(opts))
    }

    /// The bytes of Ruby's `JSON.pretty_generate(data_hash)`, rich data.
    pub fn to_json_pretty(&self) -> String {
        write_pretty(&self.to_json())
    }

    pub fn to_json_pretty_with(&self, opts: JsonOptions) -> String {
        write_pretty(&self.to_json_with(opts))
    }
}

impl Resource {
    /// The resource's data hash as it appears in the catalog's `resources`.
    pub fn to_json_with(&self, opts: JsonOptions) -> J {
        let mut out = Map::new();
        out.insert("type".into(), J::String(self.type_name.to_string()));
        out.insert("title".into(), J::String(self.title.to_string()));
        out.insert(
            "tags".into(),
            J::Array(self.tags.iter().map(|t| J::String(t.into())).collect()),
        );
        if let Some(f) = &self.file {
            out.insert("file".into(), J::String(f.to_string()));
        }
        if let Some(l) = self.line {
            out.insert("line".into(), J::Number(l.into()));
        }
        out.insert("exported".into(), J::Bool(self.exported));
        out.insert("kind".into(), J::String(self.kind.as_str().into()));

        let (params, sensitive) = self.serialized_parameters();
        if !params.is_empty() {
            let mut p = Map::new();
            for (k, v) in &params {
                p.insert(k.to_string(), to_data(v, opts.rich_data));
            }
            out.insert("parameters".into(), J::Object(p));
        }
        if !sensitive.is_empty() {
            out.insert(
                "sensitive_parameters".into(),
                J::Array(sensitive.into_iter().map(J::String).collect()),
            );
        }
        J::Object(out)
    }

    /// The parameters as Puppet serializes them (before value conversion),
    /// and the names of the sensitive ones.
    fn serialized_parameters(&self) -> (puppet_model::value::Params, Vec<String>) {
        let namevar: puppet_model::value::Name = self.namevar().into();
        let mut sensitive = Vec::new();
        let mut out: puppet_model::value::Params = IndexMap::default();
        // parse_title: the attributes the title sets first.
        for (k, v) in self.title_attributes() {
            out.insert(k.into(), Value::string(v));
        }
        for (name, value) in &self.parameters {
            let mut value = value;
            if let Value::Sensitive(inner) = value {
                sensitive.push(name.to_string());
                value = inner;
            }
            if value.is_undef() {
                continue;
            }
            let mut value = value.clone();
            if RELATIONSHIP_PARAMS.contains(&&**name) {
                if let Value::Array(items) = &value {
                    let mut flat = Vec::new();
                    flatten_into(items, &mut flat);
                    flat.retain(|v| !v.is_undef());
                    value = Value::array(flat);
                }
            }
            let key = if &**name == "name" {
                namevar.clone()
            } else {
                name.clone()
            };
            out.insert(key, value);
        }
        // The copy into a Puppet::Resource flattens arrays holding references.
        for v in out.values_mut() {
            if let Value::Array(items) = v {
                if items.iter().any(holds_reference) {
                    let mut flat = Vec::new();
                    flatten_into(items, &mut flat);
                    *v = Value::array(flat);
                }
            }
        }
        // Don't duplicate the title as the namevar.
        let is_title = !self.has_symbol_title()
            && matches!(out.get(&*namevar), Some(Value::String(s)) if **s == *self.title);
        if is_title {
            out.shift_remove(&*namevar);
        }
        (out, sensitive)
    }
}

fn flatten_into(items: &[Value], out: &mut Vec<Value>) {
    for v in items {
        match v {
            Value::Array(inner) => flatten_into(inner, out),
            other => out.push(other.clone()),
        }
    }
}

/// Is `v` a resource reference, or an array holding one at any depth?
fn holds_reference(v: &Value) -> bool {
    match v {
        Value::Array(items) => items.iter().any(holds_reference),
        other => reference_string(other).is_some(),
    }
}

/// The string Puppet makes of a resource or class reference (Puppet's
/// `Runtime3Converter` turns every catalog-entry type into a
/// `Puppet::Resource`, printed `Type[title]`); `None` for other values.
fn reference_string(v: &Value) -> Option<String> {
    let Value::Type(t) = v else { return None };
    match &**t {
        PType::Resource {
            type_name: Some(tn),
            title,
        } => {
            let tn = tn.strip_prefix("::").unwrap_or(tn);
            if tn.eq_ignore_ascii_case("class") {
                let title = title.as_deref().unwrap_or("");
                Some(format!("Class[{}]", canonical_class_title(title)))
            } else {
                let title = title.as_deref().unwrap_or("");
                Some(format!("{}[{}]", capitalize_segments(tn), title))
            }
        }
        PType::Class(Some(name)) => Some(format!("Class[{}]", canonical_class_title(name))),
        _ => None,
    }
}

/// A hash key that serializes as a JSON object key as it is.
fn string_key(k: &Value) -> Option<String> {
    match k {
        Value::String(s) => Some(s.to_string()),
        other => reference_string(other),
    }
}

/// Puppet's `ToDataConverter#to_data` (after `value_to_json_data`), with
/// `symbol_as_string`, `local_reference: false`, `type_by_reference: true`.
pub fn to_data(v: &Value, rich: bool) -> J {
    match v {
        Value::Undef => J::Null,
        Value::Default => {
            if rich {
                ptype_object("Default", None)
            } else {
                J::String("default".into())
            }
        }
        Value::Binary(b) => {
            let text = J::String(puppet_model::binary::strict_encode(b));
            if rich {
                let mut o = Map::new();
                o.insert("__ptype".into(), J::String("Binary".into()));
                o.insert("__pvalue".into(), text);
                J::Object(o)
            } else {
                text
            }
        }
        // The string form, tagged with the type under rich data.
        Value::Timestamp(_) | Value::Timespan(_) => {
            let text = J::String(v.to_string());
            if rich {
                let mut o = Map::new();
                let t = if matches!(v, Value::Timestamp(_)) {
                    "Timestamp"
                } else {
                    "Timespan"
                };
                o.insert("__ptype".into(), J::String(t.into()));
                o.insert("__pvalue".into(), text);
                J::Object(o)
            } else {
                text
            }
        }
        // Scalars that round-trip through their string (`to_s`).
        Value::SemVer(_) | Value::SemVerRange(_) | Value::Uri(_) => {
            let text = J::String(v.to_string());
            if rich {
                let mut o = Map::new();
                let t = match v {
                    Value::SemVer(_) => "SemVer",
                    Value::Uri(_) => "URI",
                    _ => "SemVerRange",
                };
                o.insert("__ptype".into(), J::String(t.into()));
                o.insert("__pvalue".into(), text);
                J::Object(o)
            } else {
                text
            }
        }
        // Rich data: the type's name and the init hash (`__ptype` first).
        Value::Object(ob) => {
            if rich {
                let mut o = Map::new();
                o.insert("__ptype".into(), J::String(ob.ty.label()));
                for (k, x) in ob.init_hash().iter() {
                    o.insert(k.to_string(), to_data(x, rich));
                }
                J::Object(o)
            } else {
                J::String(v.to_string())
            }
        }
        Value::Deferred(d) => {
            if rich {
                let mut o = Map::new();
                o.insert("__ptype".into(), J::String("Deferred".into()));
                o.insert("name".into(), J::String(d.name.to_string()));
                if let Some(a) = &d.arguments {
                    o.insert(
                        "arguments".into(),
                        J::Array(a.iter().map(|x| to_data(x, rich)).collect()),
                    );
                }
                J::Object(o)
            } else {
                J::String(v.to_string())
            }
        }
        Value::Boolean(b) => J::Bool(*b),
        Value::Integer(i) => J::Number((*i).into()),
        // Ruby's JSON refuses NaN and infinities; Puppet never stores them.
        Value::Float(f) => Number::from_f64(*f).map_or(J::Null, J::Number),
        Value::String(s) => J::String(s.to_string()),
        Value::Regexp(src) => {
            if rich {
                ptype_object("Regexp", Some(J::String(src.to_string())))
            } else {
                J::String(regexp_inspect(src))
            }
        }
        Value::Array(items) => J::Array(items.iter().map(|i| to_data(i, rich)).collect()),
        Value::Hash(map) => {
            let keys: Vec<Option<String>> = map.keys().map(string_key).collect();
            let all_strings = keys.iter().all(|k| matches!(k, Some(s) if s != "__ptype"));
            if all_strings || !rich {
                let mut out = Map::new();
                for ((k, v), sk) in map.iter().zip(keys) {
                    let key = sk.unwrap_or_else(|| key_to_string(k));
                    out.insert(key, to_data(v, rich));
                }
                J::Object(out)
            } else {
                let mut pairs = Vec::with_capacity(map.len() * 2);
                for (k, v) in map.iter() {
                    pairs.push(to_data(k, rich));
                    pairs.push(to_data(v, rich));
                }
                ptype_object("Hash", Some(J::Array(pairs)))
            }
        }
        Value::Type(t) => {
            if let Some(r) = reference_string(v) {
                J::String(r)
            } else if rich {
                type_to_data(t)
            } else {
                J::String(t.to_string())
            }
        }
        Value::Sensitive(inner) => ptype_object("Sensitive", Some(to_data(inner, rich))),
    }
}

fn ptype_object(ptype: &str, pvalue: Option<J>) -> J {
    let mut m = Map::new();
    m.insert("__ptype".into(), J::String(ptype.into()));
    if let Some(v) = pvalue {
        m.insert("__pvalue".into(), v);
    }
    J::Object(m)
}

/// A type value as a Pcore object (rich data). `Any` is verified; the other
/// types are written as Puppet names them (`Pcore::IntegerType` with `from`
/// and `to`, ...) once the type model carries them, and until then as their
/// string form.
fn type_to_data(t: &PType) -> J {
    if matches!(t, PType::Any) {
        return ptype_object("Pcore::AnyType", None);
    }
    J::String(t.to_string())
}

/// A non-string hash key without rich data: Ruby's `to_s` of the value.
fn key_to_string(k: &Value) -> String {
    match k {
        Value::Undef => String::new(),
        Value::Default => "default".into(),
        Value::Float(f) => ruby_float(*f),
        Value::Regexp(src) => regexp_inspect(src),
        Value::Array(_) | Value::Hash(_) => ruby_inspect(k),
        other => other.to_string(),
    }
}

/// Ruby's `inspect` of a value inside an array or hash key.
fn ruby_inspect(v: &Value) -> String {
    match v {
        Value::Undef => "nil".into(),
        Value::Default => ":default".into(),
        Value::String(s) => super::names::ruby_inspect_str(s),
        Value::Float(f) => ruby_float(*f),
        Value::Regexp(src) => regexp_inspect(src),
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(ruby_inspect).collect();
            format!("[{}]", parts.join(", "))
        }
        Value::Hash(map) => {
            let parts: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{}=>{}", ruby_inspect(k), ruby_inspect(v)))
                .collect();
            format!("{{{}}}", parts.join(", "))
        }
        other => reference_string(other).unwrap_or_else(|| other.to_string()),
    }
}

/// Ruby's `Regexp#inspect` for a regexp without options: `/source/` with an
/// unescaped `/` escaped and other control characters as `\xHH`.
pub fn regexp_inspect(src: &str) -> String {
    let mut out = String::with_capacity(src.len() + 2);
    out.push('/');
    let mut chars = src.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                out.push('\\');
                if let Some(n) = chars.next() {
                    out.push(n);
                }
            }
            '/' => out.push_str("\\/"),
            c if c.is_ascii_control() && !c.is_ascii_whitespace() && c != '\u{0b}' => {
                out.push_str(&format!("\\x{:02X}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('/');
    out
}

use puppet_syntax::ruby_float::ruby_float;

fn write_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{08}' => out.push_str("\\b"),
            '\u{0c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

fn write_number(n: &Number, out: &mut String) {
    if n.is_f64() {
        out.push_str(&ruby_float(n.as_f64().unwrap_or(0.0)));
    } else {
        out.push_str(&n.to_string());
    }
}

fn write_value(v: &J, pretty: bool, depth: usize, out: &mut String) {
    let indent = |out: &mut String, d: usize| {
        for _ in 0..d {
            out.push_str("  ");
        }
    };
    match v {
        J::Null => out.push_str("null"),
        J::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        J::Number(n) => write_number(n, out),
        J::String(s) => write_string(s, out),
        J::Array(items) => {
            out.push('[');
            if pretty {
                out.push('\n');
            }
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                    if pretty {
                        out.push('\n');
                    }
                }
                if pretty {
                    indent(out, depth + 1);
                }
                write_value(item, pretty, depth + 1, out);
            }
            if pretty {
                // Ruby's generator writes the newline even for `[]`.
                out.push('\n');
                indent(out, depth);
            }
            out.push(']');
        }
        J::Object(map) => {
            out.push('{');
            if pretty {
                out.push('\n');
            }
            for (i, (k, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                    if pretty {
                        out.push('\n');
                    }
                }
                if pretty {
                    indent(out, depth + 1);
                }
                write_string(k, out);
                out.push(':');
                if pretty {
                    out.push(' ');
                }
                write_value(item, pretty, depth + 1, out);
            }
            if pretty {
                // ... but not for `{}`.
                if !map.is_empty() {
                    out.push('\n');
                }
                indent(out, depth);
            }
            out.push('}');
        }
    }
}

/// JSON as Ruby's `JSON.generate` (Puppet's `to_json`) writes it: compact,
/// non-ASCII as is, floats in Ruby's notation.
pub fn write_compact(v: &J) -> String {
    let mut out = String::new();
    write_value(v, false, 0, &mut out);
    out
}

/// JSON as Ruby's `JSON.pretty_generate` (json 2.6) writes it: two-space
/// indents, `[` and `]` of an empty array on separate lines with an empty
/// line between, `{` and `}` of an empty object on two lines.
pub fn write_pretty(v: &J) -> String {
    let mut out = String::new();
    write_value(v, true, 0, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regexp_inspect_as_ruby() {
        assert_eq!(regexp_inspect("ab+c/d"), "/ab+c\\/d/");
        assert_eq!(regexp_inspect("a\\/b"), "/a\\/b/");
        assert_eq!(regexp_inspect("a\nb"), "/a\nb/");
        assert_eq!(regexp_inspect("\u{1}"), "/\\x01/");
    }

    #[test]
    fn pretty_empty_collections_as_ruby() {
        let v: J = serde_json::from_str(r#"{"a":[],"b":{},"c":[[]],"d":[{}]}"#).unwrap();
        assert_eq!(
            write_pretty(&v),
            "{\n  \"a\": [\n\n  ],\n  \"b\": {\n  },\n  \"c\": [\n    [\n\n    ]\n  ],\n  \"d\": [\n    {\n    }\n  ]\n}"
        );
        assert_eq!(write_compact(&v), r#"{"a":[],"b":{},"c":[[]],"d":[{}]}"#);
    }
}
