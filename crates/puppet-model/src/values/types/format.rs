//! Types as Puppet prints them (`type_formatter.rb`): `Integer[1, 5]`,
//! `Enum['a', 'b']`, `Struct[{'a' => Integer, Optional['b'] => String}]`,
//! `File['/x']`, `Class[foo]`. Aliases print by name inside other types and
//! as `Name = <definition>` when the alias itself is printed (Puppet's
//! `to_s` of an alias, and its "alias expanded" strings in messages).

use std::fmt;

use super::model::{IntRange, PType, StructMember};
use crate::values::Value;

impl fmt::Display for PType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Types of data nested deeper than any stack are written on a
        // stack grown on the heap.
        stacker::maybe_grow(256 << 10, 4 << 20, || self.fmt_nested(f))
    }
}

impl PType {
    fn fmt_nested(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The bare Object type printed itself is its (empty) definition.
        if matches!(self, PType::Object(None)) {
            return f.write_str("Object[{}]");
        }
        let expanded = matches!(
            self,
            PType::TypeAlias { .. } | PType::Object(Some(_)) | PType::ObjectDef(_)
        );
        f.write_str(&TypeFormatter::new(expanded).string(self))
    }
}

impl PType {
    /// Puppet's `to_alias_expanded_s`: every (non built-in) alias printed as
    /// `Name = <definition>`, recursive ones expanded once.
    pub fn to_alias_expanded_string(&self) -> String {
        TypeFormatter::new(true).string(self)
    }
}

/// A value as Puppet's TypeFormatter writes it inside a type or an
/// Object's `to_s` (strings quoted: `Deferred({'name' => 'f'})`).
pub fn format_value(v: &Value) -> String {
    let mut f = TypeFormatter::new(false);
    f.value(v);
    f.out
}

/// Puppet's `puppet_quote`: single quotes unless the string has control
/// characters, then double quotes with escapes.
pub fn puppet_quote(s: &str) -> String {
    if s.chars().any(|c| (c as u32) < 0x20) {
        return puppet_double_quote(s);
    }
    let mut out = String::with_capacity(s.len() + 2);
    out.push('\'');
    let mut escaped = false;
    for c in s.chars() {
        if escaped {
            out.push('\\');
            out.push(c);
            escaped = false;
        } else if c == '\'' {
            out.push_str("\\'");
        } else if c == '\\' {
            escaped = true;
        } else {
            out.push(c);
        }
    }
    if escaped {
        out.push('\\');
    }
    out.push('\'');
    out
}

/// Puppet's `puppet_double_quote`: double quotes with escapes.
pub fn puppet_double_quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '"' => out.push_str("\\\""),
            '$' => out.push_str("\\$"),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{{{:X}}}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Ruby's `Regexp#inspect` for a regexp without options: `/source/` with
/// unescaped slashes escaped.
pub fn regexp_inspect(source: &str) -> String {
    let mut out = String::with_capacity(source.len() + 2);
    out.push('/');
    let mut escaped = false;
    for c in source.chars() {
        if escaped {
            out.push(c);
            escaped = false;
        } else if c == '\\' {
            out.push(c);
            escaped = true;
        } else if c == '/' {
            out.push_str("\\/");
        } else {
            out.push(c);
        }
    }
    out.push('/');
    out
}

/// `String(type(Deferred.new(...)))` in Puppet 7.23.
const DEFERRED_DEFINITION: &str = "Object[{name => 'Deferred', attributes => {'name' => Pattern[/\\A[$]?[a-z][a-z0-9_]*(?:::[a-z][a-z0-9_]*)*\\z/], 'arguments' => {type => Optional[Array], value => undef}}}]";

/// The aliases Puppet defines itself; never printed expanded.
fn is_builtin_alias(name: &str) -> bool {
    matches!(
        name,
        "Data" | "RichDataKey" | "RichData" | "Puppet::LookupKey" | "Puppet::LookupValue"
    )
}

/// Puppet's `capitalize_segments`: `foo::bar` → `Foo::Bar` (names already
/// starting with an ASCII capital are kept as they are).
pub fn capitalize_segments(name: &str) -> String {
    if name.starts_with(|c: char| c.is_ascii_uppercase()) {
        return name.to_string();
    }
    name.split("::")
        .map(capitalize)
        .collect::<Vec<_>>()
        .join("::")
}

/// Ruby's `String#capitalize`: first character upper, the rest lower.
fn capitalize(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        None => String::new(),
        Some(c) => c
            .to_uppercase()
            .chain(chars.flat_map(|c| c.to_lowercase()))
            .collect(),
    }
}

/// A Ruby `Float#to_s`.
pub(crate) fn ruby_float(x: f64) -> String {
    puppet_syntax::pn::ruby_float(x)
}

struct TypeFormatter {
    expanded: bool,
    /// Aliases being expanded (by cell), to expand a recursive alias once.
    expanding: Vec<usize>,
    out: String,
}

const SEP: &str = ", ";

impl TypeFormatter {
    fn new(expanded: bool) -> TypeFormatter {
        TypeFormatter {
            expanded,
            expanding: Vec::new(),
            out: String::new(),
        }
    }

    fn string(mut self, t: &PType) -> String {
        self.ty(t);
        self.out
    }

    fn push(&mut self, s: &str) {
        self.out.push_str(s);
    }

    fn chomp_sep(&mut self) {
        if self.out.ends_with(SEP) {
            self.out.truncate(self.out.len() - SEP.len());
        }
    }

    /// `Name[...]` unless `empty`.
    fn array(&mut self, name: &str, empty: bool, body: impl FnOnce(&mut Self)) {
        self.push(name);
        if !empty {
            self.push("[");
            body(self);
            self.push("]");
        }
    }

    fn types(&mut self, types: &[PType], continued: bool) {
        for t in types {
            self.ty(t);
            self.push(SEP);
        }
        if !continued {
            self.chomp_sep();
        }
    }

    fn elements(&mut self, parts: &[String], continued: bool) {
        for p in parts {
            self.push(p);
            self.push(SEP);
        }
        if !continued {
            self.chomp_sep();
        }
    }

    fn ty(&mut self, t: &PType) {
        // A type nests as deep as the data it was inferred from: each level
        // may continue on a stack grown on the heap.
        stacker::maybe_grow(256 << 10, 4 << 20, || self.ty_nested(t))
    }

    fn ty_nested(&mut self, t: &PType) {
        use PType as T;
        match t {
            T::Any => self.push("Any"),
            T::Undef => self.push("Undef"),
            T::Default => self.push("Default"),
            T::Unit => self.push("Unit"),
            T::Data => self.push("Data"),
            T::RichData => self.push("RichData"),
            T::Scalar => self.push("Scalar"),
            T::ScalarData => self.push("ScalarData"),
            T::Numeric => self.push("Numeric"),
            T::CatalogEntry => self.push("CatalogEntry"),
            T::SemVerRange => self.push("SemVerRange"),
            T::Binary => self.push("Binary"),
            T::Boolean(v) => self.array("Boolean", v.is_none(), |f| {
                f.push(if v.unwrap_or(false) { "true" } else { "false" })
            }),
            T::Integer { from, to } => {
                let unbounded = *from == i64::MIN && *to == i64::MAX;
                self.array("Integer", unbounded, |f| {
                    let parts = int_range_parts(Some(IntRange::new(*from, *to)));
                    f.elements(&parts, false)
                })
            }
            T::Float { from, to } => {
                let unbounded = from.is_infinite() && to.is_infinite();
                self.array("Float", unbounded, |f| {
                    let mut parts = vec![if from.is_infinite() {
                        "default".to_string()
                    } else {
                        ruby_float(*from)
                    }];
                    if !to.is_infinite() {
                        parts.push(ruby_float(*to));
                    }
                    f.elements(&parts, false)
                })
            }
            T::String { size, .. } => {
                let parts = int_range_parts(*size);
                self.array("String", parts.is_empty(), |f| f.elements(&parts, false))
            }
            T::Enum {
                values,
                case_insensitive,
            } => self.array("Enum", values.is_empty(), |f| {
                let quoted: Vec<String> = values.iter().map(|v| puppet_quote(v)).collect();
                f.elements(&quoted, false);
                if *case_insensitive {
                    f.push(", true");
                }
            }),
            T::Pattern(patterns) => self.array("Pattern", patterns.is_empty(), |f| {
                let parts: Vec<String> = patterns.iter().map(|p| regexp_inspect(p)).collect();
                f.elements(&parts, false)
            }),
            T::Regexp(p) => self.array("Regexp", p.is_none(), |f| {
                f.push(&regexp_inspect(p.as_deref().unwrap_or("")))
            }),
            T::Array { element, size } => {
                if *size == Some(IntRange::exact(0)) {
                    self.push("Array[0, 0]");
                } else {
                    let default = **element == T::Any && size.is_none();
                    self.array("Array", default, |f| {
                        f.types(std::slice::from_ref(element), true);
                        f.elements(&int_range_parts(*size), true);
                        f.chomp_sep();
                    })
                }
            }
            T::Hash { key, value, size } => {
                if *size == Some(IntRange::exact(0)) {
                    self.push("Hash[0, 0]");
                } else {
                    self.array("Hash", t.is_default_hash(), |f| {
                        f.ty(key);
                        f.push(SEP);
                        f.ty(value);
                        f.push(SEP);
                        f.elements(&int_range_parts(*size), true);
                        f.chomp_sep();
                    })
                }
            }
            T::Tuple { types, size } => self.array("Tuple", types.is_empty(), |f| {
                f.types(types, true);
                f.elements(&int_range_parts(*size), true);
                f.chomp_sep();
            }),
            T::Struct(members) => self.array("Struct", members.is_empty(), |f| {
                f.push("{");
                for m in members {
                    f.struct_key(m);
                    f.push(" => ");
                    f.ty(&m.value);
                    f.push(SEP);
                }
                f.chomp_sep();
                f.push("}");
            }),
            T::Variant(types) => self.array("Variant", types.is_empty(), |f| f.types(types, false)),
            T::Optional(inner) => self.array("Optional", inner.is_none(), |f| {
                let inner = inner.as_deref().unwrap();
                match inner.value_str() {
                    Some(v) => f.push(&puppet_quote(v)),
                    None => f.ty(inner),
                }
            }),
            T::NotUndef(inner) => {
                let empty = matches!(inner.as_deref(), None | Some(T::Any));
                self.array("NotUndef", empty, |f| {
                    let inner = inner.as_deref().unwrap();
                    match inner.value_str() {
                        Some(v) => f.push(&puppet_quote(v)),
                        None => f.ty(inner),
                    }
                })
            }
            T::Collection { size } => {
                let parts = int_range_parts(*size);
                self.array("Collection", parts.is_empty(), |f| {
                    f.elements(&parts, false)
                })
            }
            T::Iterable(inner) => self.contained("Iterable", inner),
            T::Iterator(inner) => self.contained("Iterator", inner),
            T::Type(inner) => self.contained("Type", inner),
            T::Sensitive(inner) => {
                let empty = matches!(inner.as_deref(), None | Some(T::Any));
                self.array("Sensitive", empty, |f| f.ty(inner.as_deref().unwrap()))
            }
            T::Callable {
                params,
                block,
                return_type,
            } => self.callable(params, block, return_type),
            T::Class(name) => self.array("Class", name.is_none(), |f| {
                f.push(name.as_deref().unwrap())
            }),
            T::Resource { type_name, title } => match type_name {
                None => self.push("Resource"),
                Some(n) => {
                    let n = capitalize_segments(n);
                    self.array(&n, title.is_none(), |f| {
                        f.push(&puppet_quote(title.as_deref().unwrap()))
                    })
                }
            },
            T::Runtime { runtime, name } => {
                self.array("Runtime", runtime.is_none() && name.is_none(), |f| {
                    match runtime {
                        Some(r) => f.push(r),
                        None => f.push("undef"),
                    }
                    f.push(SEP);
                    match name {
                        Some(n) => f.push(&puppet_quote(n)),
                        None => f.push("undef"),
                    }
                })
            }
            T::SemVer(ranges) => self.array("SemVer", ranges.is_empty(), |f| {
                let parts: Vec<String> = ranges.iter().map(|r| format!("'{r}'")).collect();
                f.elements(&parts, false)
            }),
            T::Timestamp { from, to } => self.time_range("Timestamp", from, to),
            T::Timespan { from, to } => self.time_range("Timespan", from, to),
            T::Uri(p) => self.array("URI", p.is_none(), |f| f.value(p.as_deref().unwrap())),
            T::Init { type_, args } => self.array("Init", type_.is_none(), |f| {
                f.ty(type_.as_deref().unwrap());
                for a in args {
                    f.push(SEP);
                    f.value(a);
                }
            }),
            T::Object(name) => match name {
                // Puppet prints an Object type by its definition (its
                // `_pcore_init_hash`); Deferred is the one pverify knows.
                Some(n) if n == "Deferred" && self.expanded => self.push(DEFERRED_DEFINITION),
                Some(n) => self.push(n),
                None => self.push("Object"),
            },
            // By its definition when printed itself (or in messages), by
            // its name inside other types.
            // `P[1, 'a']`: an extension by its base's name and arguments.
            T::ObjectDef(o) if o.extension.is_some() => {
                self.push(&o.label());
                self.push("[");
                for (i, v) in o
                    .extension_arguments()
                    .unwrap_or_default()
                    .iter()
                    .enumerate()
                {
                    if i > 0 {
                        self.push(SEP);
                    }
                    self.value(v);
                }
                self.push("]");
            }
            T::ObjectDef(o) => match &o.name {
                Some(n) if !self.expanded => self.push(n),
                _ => {
                    let was = std::mem::replace(&mut self.expanded, false);
                    self.object_definition(o);
                    self.expanded = was;
                }
            },
            T::TypeReference(name) => {
                self.push("TypeReference[");
                self.push(&puppet_quote(name));
                self.push("]");
            }
            T::TypeAlias { name, resolved } => {
                self.push(name);
                if self.expanded
                    && !self.expanding.contains(&resolved.ptr())
                    && !is_builtin_alias(name)
                {
                    if let Some(target) = resolved.get() {
                        self.push(" = ");
                        self.expanding.push(resolved.ptr());
                        self.ty(target);
                        self.expanding.pop();
                    }
                }
            }
        }
    }

    fn contained(&mut self, name: &str, inner: &Option<Box<PType>>) {
        self.array(name, inner.is_none(), |f| f.ty(inner.as_deref().unwrap()))
    }

    fn time_range(&mut self, name: &str, from: &Option<Box<Value>>, to: &Option<Box<Value>>) {
        self.array(name, from.is_none() && to.is_none(), |f| {
            match from {
                None => f.push("default"),
                Some(v) => f.value(v),
            }
            if let Some(t) = to {
                if Some(t) != from.as_ref() {
                    f.push(SEP);
                    f.value(t);
                }
            }
        })
    }

    fn struct_key(&mut self, m: &StructMember) {
        let value_optional = super::is_assignable(&m.value, &PType::Undef);
        let quoted = puppet_quote(&m.name);
        if m.optional_key {
            if value_optional {
                self.push(&quoted)
            } else {
                self.push(&format!("Optional[{quoted}]"))
            }
        } else if value_optional {
            self.push(&format!("NotUndef[{quoted}]"))
        } else {
            self.push(&quoted)
        }
    }

    fn callable(
        &mut self,
        params: &Option<Box<PType>>,
        block: &Option<Box<PType>>,
        return_type: &Option<Box<PType>>,
    ) {
        match (params, return_type) {
            (None, None) => self.push("Callable"),
            (Some(p), None) => {
                self.push("Callable[");
                self.callable_params(p, block);
                self.push("]");
            }
            (None, Some(r)) => {
                self.push("Callable[[], ");
                self.ty(r);
                self.push("]");
            }
            (Some(p), Some(r)) => {
                self.push("Callable[[");
                self.callable_params(p, block);
                self.push("], ");
                self.ty(r);
                self.push("]");
            }
        }
    }

    fn callable_params(&mut self, params: &PType, block: &Option<Box<PType>>) {
        if let PType::Tuple { types, size } = params {
            let shown: Vec<PType> = types
                .iter()
                .filter(|t| !matches!(t, PType::Unit))
                .cloned()
                .collect();
            self.types(&shown, true);
            if types.is_empty() {
                self.push("0, 0, ");
            } else {
                self.elements(&int_range_parts(*size), true);
            }
        }
        if let Some(b) = block {
            self.ty(b);
            self.push(SEP);
        }
        self.chomp_sep();
    }

    /// Puppet's `Object[{annotations => ..., name => 'N', parent => P,
    /// type_parameters => {...}, attributes => {...}, constants => {...},
    /// functions => {...}, equality => [...], checks => ...}]`
    /// (`_pcore_init_hash`, members compressed to their type when that is
    /// all they have; `equality_include_type` is never printed).
    fn object_definition(&mut self, o: &super::object::ObjectType) {
        self.push("Object[{");
        let mut parts = 0;
        let mut sep = |f: &mut Self| {
            if parts > 0 {
                f.push(SEP);
            }
            parts += 1;
        };
        if let Some(a) = &o.annotations {
            sep(self);
            self.push("annotations => ");
            self.value(a);
        }
        if let Some(n) = &o.name {
            sep(self);
            self.push("name => ");
            self.push(&puppet_quote(n));
        }
        if let Some(p) = &o.parent {
            sep(self);
            self.push("parent => ");
            self.ty(p);
        }
        if !o.type_parameters.is_empty() {
            sep(self);
            self.push("type_parameters => {");
            for (i, t) in o.type_parameters.iter().enumerate() {
                if i > 0 {
                    self.push(SEP);
                }
                self.push(&puppet_quote(&t.name));
                self.push(" => ");
                self.ty(&t.ty);
            }
            self.push("}");
        }
        let (attributes, constants) = o.printed_members();
        if !attributes.is_empty() {
            sep(self);
            self.push("attributes => {");
            for (i, a) in attributes.iter().enumerate() {
                if i > 0 {
                    self.push(SEP);
                }
                self.push(&puppet_quote(&a.name));
                self.push(" => ");
                let constant = a.kind.as_deref() == Some("constant");
                let final_ = a.final_ && !constant;
                if a.value.is_none()
                    && a.kind.is_none()
                    && !final_
                    && !a.override_
                    && a.annotations.is_none()
                {
                    self.ty(&a.ty);
                    continue;
                }
                self.push("{type => ");
                self.ty(&a.ty);
                if final_ {
                    self.push(", final => true");
                }
                if a.override_ {
                    self.push(", override => true");
                }
                if let Some(an) = &a.annotations {
                    self.push(", annotations => ");
                    self.value(an);
                }
                // (Puppet prints the kind as a bare word.)
                if let Some(k) = &a.kind {
                    self.push(", kind => ");
                    self.push(k);
                }
                if let Some(v) = &a.value {
                    self.push(", value => ");
                    self.value(v);
                }
                self.push("}");
            }
            self.push("}");
        }
        if !constants.is_empty() {
            sep(self);
            self.push("constants => {");
            for (i, a) in constants.iter().enumerate() {
                if i > 0 {
                    self.push(SEP);
                }
                self.push(&puppet_quote(&a.name));
                self.push(" => ");
                self.value(a.value.as_ref().unwrap_or(&Value::Undef));
            }
            self.push("}");
        }
        if !o.functions.is_empty() {
            sep(self);
            self.push("functions => {");
            for (i, f) in o.functions.iter().enumerate() {
                if i > 0 {
                    self.push(SEP);
                }
                self.push(&puppet_quote(&f.name));
                self.push(" => ");
                if !f.final_ && !f.override_ && f.annotations.is_none() {
                    self.ty(&f.ty);
                    continue;
                }
                self.push("{type => ");
                self.ty(&f.ty);
                if f.final_ {
                    self.push(", final => true");
                }
                if f.override_ {
                    self.push(", override => true");
                }
                if let Some(an) = &f.annotations {
                    self.push(", annotations => ");
                    self.value(an);
                }
                self.push("}");
            }
            self.push("}");
        }
        if let Some(eq) = &o.equality {
            sep(self);
            self.push("equality => [");
            for (i, n) in eq.iter().enumerate() {
                if i > 0 {
                    self.push(SEP);
                }
                self.push(&puppet_quote(n));
            }
            self.push("]");
        }
        if let Some(c) = &o.checks {
            sep(self);
            self.push("checks => ");
            self.value(c);
        }
        self.push("}]");
    }

    /// A value inside a type (`Init[T, args]`, `URI[...]`, timestamps).
    fn value(&mut self, v: &Value) {
        match v {
            Value::Undef => self.push("undef"),
            Value::Default => self.push("default"),
            Value::Boolean(b) => self.push(if *b { "true" } else { "false" }),
            Value::Integer(i) => self.push(&i.to_string()),
            Value::Float(x) => self.push(&ruby_float(*x)),
            Value::String(s) => self.push(&puppet_quote(s)),
            Value::Regexp(r) => self.push(&regexp_inspect(r)),
            Value::Array(items) => {
                self.push("[");
                for (i, x) in items.iter().enumerate() {
                    if i > 0 {
                        self.push(SEP);
                    }
                    self.value(x);
                }
                self.push("]");
            }
            Value::Hash(map) => {
                self.push("{");
                for (i, (k, x)) in map.iter().enumerate() {
                    if i > 0 {
                        self.push(SEP);
                    }
                    self.value(k);
                    self.push(" => ");
                    self.value(x);
                }
                self.push("}");
            }
            Value::Type(t) => self.ty(t),
            Value::Sensitive(_) => self.push("Sensitive [value redacted]"),
            Value::Binary(_) => {
                self.push("Binary(\"");
                self.push(&v.to_string());
                self.push("\")");
            }
            // `string_Timestamp`: the string form, quoted.
            Value::Timestamp(_) | Value::Timespan(_) => self.push(&format!("'{v}'")),
            // `string_Version`, `string_VersionRange`: `to_s`, quoted.
            Value::SemVer(_) | Value::SemVerRange(_) => self.push(&format!("'{v}'")),
            // `string_URI`: `URI('...')`.
            Value::Uri(u) => self.push(&format!("URI({})", puppet_quote(&u.to_string()))),
            Value::Range(r) => self.push(&r.to_string()),
            Value::Deferred(d) => {
                self.push("Deferred(");
                self.value(&d.init_hash());
                self.push(")");
            }
            // Object#to_s: `Point({'x' => 1})`.
            Value::Object(o) => {
                self.push(&o.ty.label());
                self.push("(");
                self.value(&Value::hash(o.init_hash()));
                self.push(")");
            }
        }
    }
}

/// Puppet's `range_array_part`: nothing for an absent or unbounded range,
/// else `from` (or `default`) and `to` unless open.
fn int_range_parts(r: Option<IntRange>) -> Vec<String> {
    match r {
        None => Vec::new(),
        Some(r) if r.is_unbounded() => Vec::new(),
        Some(r) => {
            let mut parts = vec![if r.from == i64::MIN {
                "default".to_string()
            } else {
                r.from.to_string()
            }];
            if r.to != i64::MAX {
                parts.push(r.to.to_string());
            }
            parts
        }
    }
}
