//! Puppet values as Psych's `YAMLTree` sees the Ruby objects Puppet hands a
//! function: Hash/Array as collections, undef as nil, `default` as the
//! symbol `:default`, a Regexp as `!ruby/regexp`, and Sensitive and Binary
//! as the Ruby objects they are (`!ruby/object:...` with their instance
//! variables).
//!
//! Psych writes an object met a second time as an alias (`&1` on the first,
//! `*1` after): Puppet passes a variable's Hash or Array itself, so
//! `[$h, $h]` holds one object twice. Here an object is an `Arc`: values
//! copied from one variable share it, as Ruby's references do.

use std::collections::HashMap;

use super::{string_scalar, Node, Scalar, Style};
use crate::values::value::Value;

const SENSITIVE: &str = "!ruby/object:Puppet::Pops::Types::PSensitiveType::Sensitive";
const BINARY: &str = "!ruby/object:Puppet::Pops::Types::PBinaryType::Binary";
pub(super) const TIMESTAMP: &str = "!ruby/object:Puppet::Pops::Time::Timestamp";
const SEMVER: &str = "!ruby/object:SemanticPuppet::Version";
pub(super) const TIMESPAN: &str = "!ruby/object:Puppet::Pops::Time::Timespan";

/// The Psych tree of `v`; `fold_width` is the `line_width` option. Fails for
/// values whose Ruby objects pverify does not model (types, Deferred).
pub fn value_node(v: &Value, fold_width: Option<usize>) -> Result<Node, String> {
    // Psych numbers the objects it aliases in the order it meets their
    // second reference; the first reference carries the anchor.
    let mut seen: HashMap<usize, Option<usize>> = HashMap::new();
    let mut counter = 0;
    count_refs(v, &mut seen, &mut counter);
    let mut b = Builder {
        ids: seen,
        emitted: HashMap::new(),
        fold_width,
    };
    b.node(v)
}

/// The identity of a value Psych registers (collections and objects).
fn identity(v: &Value) -> Option<usize> {
    match v {
        Value::Array(a) => Some(std::sync::Arc::as_ptr(a) as *const u8 as usize),
        Value::Hash(h) => Some(std::sync::Arc::as_ptr(h) as *const u8 as usize),
        Value::Sensitive(s) => Some(std::sync::Arc::as_ptr(s) as *const u8 as usize),
        Value::Binary(b) => Some(std::sync::Arc::as_ptr(b) as *const u8 as usize),
        // A bare type is its class's singleton; another is the object the
        // value holds.
        Value::Type(t) => {
            super::types::default_key(t).or(Some(std::sync::Arc::as_ptr(t) as *const u8 as usize))
        }
        _ => None,
    }
}

fn count_refs(v: &Value, seen: &mut HashMap<usize, Option<usize>>, counter: &mut usize) {
    stacker::maybe_grow(256 << 10, 4 << 20, || count_refs_nested(v, seen, counter))
}

fn count_refs_nested(v: &Value, seen: &mut HashMap<usize, Option<usize>>, counter: &mut usize) {
    if let Some(id) = identity(v) {
        if let Some(slot) = seen.get_mut(&id) {
            if slot.is_none() {
                *counter += 1;
                *slot = Some(*counter);
            }
            return;
        }
        seen.insert(id, None);
    }
    match v {
        Value::Array(a) => a.iter().for_each(|x| count_refs(x, seen, counter)),
        Value::Hash(h) => h.iter().for_each(|(k, x)| {
            count_refs(k, seen, counter);
            count_refs(x, seen, counter);
        }),
        Value::Sensitive(s) => count_refs(s, seen, counter),
        Value::Type(t) => count_type_refs(t, seen, counter),
        _ => {}
    }
}

/// The nested types of a type: the bare ones are shared singletons.
fn count_type_refs(
    t: &crate::values::types::PType,
    seen: &mut HashMap<usize, Option<usize>>,
    counter: &mut usize,
) {
    for c in super::types::children(t) {
        if let Some(id) = super::types::default_key(c) {
            if let Some(slot) = seen.get_mut(&id) {
                if slot.is_none() {
                    *counter += 1;
                    *slot = Some(*counter);
                }
                continue;
            }
            seen.insert(id, None);
        }
        count_type_refs(c, seen, counter);
    }
    if let crate::values::types::PType::Init { args, .. } = t {
        args.iter().for_each(|a| count_refs(a, seen, counter));
    }
}

pub(super) struct Builder {
    /// Each registered object's anchor number, when it is met twice.
    ids: HashMap<usize, Option<usize>>,
    /// The objects already written (later references are aliases).
    emitted: HashMap<usize, ()>,
    pub(super) fold_width: Option<usize>,
}

impl Builder {
    /// The object with identity `id`: an alias when already written, else
    /// built by `make` and anchored when it is met again later.
    pub(super) fn registered(
        &mut self,
        id: usize,
        make: impl FnOnce(&mut Self) -> Result<Node, String>,
    ) -> Result<Node, String> {
        let num = self.ids.get(&id).copied().flatten();
        if self.emitted.insert(id, ()).is_some() {
            return Ok(Node::Alias(num.unwrap_or(0).to_string()));
        }
        let mut n = make(self)?;
        if let Some(a) = num {
            set_anchor(&mut n, a.to_string());
        }
        Ok(n)
    }

    pub(super) fn node(&mut self, v: &Value) -> Result<Node, String> {
        // Data can nest deeper than any stack (a `reduce` wrapping its
        // memo): grow it on the heap rather than overflow.
        stacker::maybe_grow(256 << 10, 4 << 20, || self.node_nested(v))
    }

    fn node_nested(&mut self, v: &Value) -> Result<Node, String> {
        let mut anchor = None;
        if let Some(id) = identity(v) {
            let num = self.ids.get(&id).copied().flatten();
            if self.emitted.insert(id, ()).is_some() {
                return Ok(Node::Alias(num.unwrap_or(0).to_string()));
            }
            anchor = num.map(|n| n.to_string());
        }
        let mut n = match v {
            Value::Undef => Node::null(),
            Value::Default => Node::symbol("default"),
            Value::Boolean(b) => Node::bool(*b),
            Value::Integer(i) => Node::int(i),
            Value::Float(f) => Node::float(*f),
            // A Ruby Symbol kept in a Puppet value (by a template's Ruby).
            Value::String(s) => match s.strip_prefix(crate::yaml::SYMBOL_MARK) {
                Some(name) => Node::symbol(name),
                None => Node::Scalar(string_scalar(s, self.fold_width)),
            },
            Value::Regexp(src) => regexp_node(src),
            Value::Array(a) => Node::seq(a.iter().map(|x| self.node(x)).collect::<Result<_, _>>()?),
            Value::Hash(h) => Node::map(
                h.iter()
                    .map(|(k, x)| Ok((self.node(k)?, self.node(x)?)))
                    .collect::<Result<_, String>>()?,
            ),
            Value::Sensitive(inner) => object(SENSITIVE, "value", self.node(inner)?),
            Value::Binary(bytes) => object(
                BINARY,
                "binary_buffer",
                binary_string(bytes, self.fold_width),
            ),
            // Ruby objects whose one instance variable is `@nsecs`.
            Value::Timestamp(t) => object(TIMESTAMP, "nsecs", Node::int(t.get())),
            Value::Timespan(t) => object(TIMESPAN, "nsecs", Node::int(t.get())),
            // Its instance variables in the order `initialize` sets them.
            Value::SemVer(x) => {
                let list = |items: Option<Vec<Node>>| items.map_or_else(Node::null, Node::seq);
                let pre = x.pre.as_ref().map(|p| {
                    p.iter()
                        .map(|i| match i {
                            crate::values::semver::Ident::Num(n) => Node::int(n),
                            crate::values::semver::Ident::Str(s) => {
                                Node::Scalar(string_scalar(s, self.fold_width))
                            }
                        })
                        .collect()
                });
                let build = x.build.as_ref().map(|b| {
                    b.iter()
                        .map(|s| Node::Scalar(string_scalar(s, self.fold_width)))
                        .collect()
                });
                let major = match x.major {
                    crate::values::semver::Major::Int(m) => Node::int(m),
                    crate::values::semver::Major::Infinity => Node::float(f64::INFINITY),
                };
                let ivar = |k: &str| Node::Scalar(Scalar::plain(k));
                Node::Map {
                    anchor: None,
                    tag: Some(SEMVER.into()),
                    implicit: false,
                    entries: vec![
                        (ivar("major"), major),
                        (ivar("minor"), Node::int(x.minor)),
                        (ivar("patch"), Node::int(x.patch)),
                        (ivar("prerelease"), list(pre)),
                        (ivar("build"), list(build)),
                    ],
                }
            }
            Value::Type(t) => self.type_node(t)?,
            // Psych's `visit_Range`: `!ruby/range` with `begin`, `end`, `excl`.
            Value::Range(r) => {
                let key = |k: &str| Node::Scalar(Scalar::plain(k));
                Node::Map {
                    anchor: None,
                    tag: Some("!ruby/range".into()),
                    implicit: false,
                    entries: vec![
                        (key("begin"), Node::int(r.first)),
                        (key("end"), Node::int(r.last)),
                        (key("excl"), Node::bool(r.exclusive)),
                    ],
                }
            }
            // Their Ruby objects carry `@hash`, a per-process hash value
            // (the Object's class is anonymous: `!ruby/object` alone).
            // Psych dumps the URI object with its parser and that parser's
            // regexps: not written here.
            Value::Uri(_) => {
                return Err(
                    "pverify does not write a URI as YAML (Psych dumps the Ruby URI object \
                     with its parser's regular expressions)"
                        .into(),
                )
            }
            Value::Deferred(_) | Value::Object(_) | Value::SemVerRange(_) => {
                return Err(format!(
                    "pverify does not write {} as YAML: Psych writes its Ruby object's \
                     per-process hash (`hash: <number>`), which differs on every run",
                    match v {
                        Value::Deferred(_) => "a Deferred",
                        Value::SemVerRange(_) => "a SemVerRange",
                        _ => "an Object value",
                    }
                ))
            }
        };
        if let Some(a) = anchor {
            set_anchor(&mut n, a);
        }
        Ok(n)
    }
}

fn set_anchor(n: &mut Node, a: String) {
    match n {
        Node::Scalar(s) => s.anchor = Some(a),
        Node::Seq { anchor, .. } | Node::Map { anchor, .. } => *anchor = Some(a),
        Node::Alias(_) => {}
    }
}

/// A Ruby object without `encode_with`: its class tag and one instance
/// variable.
pub(super) fn object(tag: &str, ivar: &str, value: Node) -> Node {
    Node::Map {
        anchor: None,
        tag: Some(tag.into()),
        implicit: false,
        entries: vec![(Node::Scalar(Scalar::plain(ivar)), value)],
    }
}

/// A Binary's buffer, an ASCII-8BIT String: as text when it is all ASCII,
/// else Psych's `!binary` base64 literal.
fn binary_string(bytes: &[u8], fold_width: Option<usize>) -> Node {
    if bytes.is_ascii() {
        let text = String::from_utf8_lossy(bytes);
        return Node::Scalar(string_scalar(&text, fold_width));
    }
    Node::Scalar(Scalar {
        value: crate::values::binary::strict_encode(bytes),
        anchor: None,
        tag: Some("!binary".into()),
        plain: false,
        quoted: false,
        style: Style::Literal,
    })
}

/// Psych's `visit_Regexp`: the regexp's `inspect`, tagged.
pub fn regexp_node(src: &str) -> Node {
    Node::Scalar(Scalar {
        value: regexp_inspect(src),
        anchor: None,
        tag: Some("!ruby/regexp".into()),
        plain: false,
        quoted: false,
        style: Style::Any,
    })
}

/// Ruby's `Regexp#inspect` of a Puppet regexp's source.
fn regexp_inspect(src: &str) -> String {
    let mut out = String::from("/");
    let mut escaped = false;
    for c in src.chars() {
        if c == '/' && !escaped {
            out.push('\\');
        }
        escaped = c == '\\' && !escaped;
        out.push(c);
    }
    out.push('/');
    out
}

/// `to_yaml`'s options hash as Psych reads it (keys made symbols; unknown
/// ones are ignored). The errors are Ruby's for a value of the wrong class.
pub fn options_from(opts: &crate::values::value::Map) -> Result<super::Options, String> {
    let mut o = super::Options::default();
    let int = |v: &Value| -> Result<i64, String> {
        match v {
            Value::Integer(i) => Ok(*i),
            Value::Float(f) => Ok(f.trunc() as i64),
            Value::Undef => Err("no implicit conversion from nil to integer".into()),
            other => Err(format!(
                "no implicit conversion of {} into Integer",
                ruby_class(other)
            )),
        }
    };
    for (k, v) in opts {
        let Value::String(key) = k else { continue };
        match &**key {
            "line_width" => match v {
                Value::Undef => {}
                Value::Integer(_) | Value::Float(_) => o.set_line_width(int(v)?)?,
                other => return Err(format!("comparison of {} with 0 failed", ruby_class(other))),
            },
            "indentation" => o.indentation = int(v)?,
            "canonical" => o.canonical = !matches!(v, Value::Undef | Value::Boolean(false)),
            "header" if !matches!(v, Value::Undef | Value::Boolean(false)) => {
                o.version.get_or_insert((1, 1));
            }
            "version" => {
                let parts: Vec<i64> = match v {
                    Value::String(s) => s
                        .split('.')
                        .map(|p| p.trim().parse().unwrap_or(0))
                        .collect(),
                    Value::Array(a) => a.iter().map(int).collect::<Result<_, _>>()?,
                    _ => vec![1, 1],
                };
                let at = |i: usize| parts.get(i).copied().unwrap_or(0);
                o.version = Some((at(0), at(1)));
            }
            _ => {}
        }
    }
    Ok(o)
}

fn ruby_class(v: &Value) -> &'static str {
    match v {
        Value::String(_) => "String",
        Value::Boolean(true) => "true",
        Value::Boolean(false) => "false",
        Value::Array(_) => "Array",
        Value::Hash(_) => "Hash",
        Value::Default => "Symbol",
        _ => "Object",
    }
}
