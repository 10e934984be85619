//! A Puppet type as Psych dumps its Ruby object: `!ruby/object:` and the
//! class (`Puppet::Pops::Types::PIntegerType`), then its instance variables
//! in the order the class's `initialize` sets them (checked against Puppet
//! 7.23 for each kind).
//!
//! Aliases: a bare type (`Integer`, `Any`, `Hash`) is the class's `DEFAULT`
//! singleton in Puppet, so every bare `Any` of one value is one Ruby object
//! (`Hash` is `{key_type: &1 ..., value_type: *1}`); a parameterized type is
//! a new object each time it is written, so only the same value met twice
//! (`[$t, $t]`) aliases, which the caller handles by the value's `Arc`.
//!
//! Types whose Ruby objects hold anonymous classes or per-process values
//! (Data and RichData, the Object types and their instances, aliases,
//! Deferred) are refused: Psych fails on them with a message naming a
//! memory address, or writes a hash seed.

use super::values::Builder;
use super::{Node, Scalar};
use crate::values::types::PType;
use crate::values::value::Value;

const PREFIX: &str = "!ruby/object:Puppet::Pops::Types::";

/// A key for a bare type's `DEFAULT` singleton, apart from any address
/// (addresses are below 2^48; these set the top bit).
pub(super) fn default_key(t: &PType) -> Option<usize> {
    if !is_default(t) {
        return None;
    }
    let mut h: usize = 1 << (usize::BITS - 1);
    for b in t.simple_name().bytes() {
        h = h.wrapping_mul(31).wrapping_add(usize::from(b)) | (1 << (usize::BITS - 1));
    }
    Some(h)
}

/// Is `t` its kind's bare form (Puppet's `DEFAULT` instance)?
fn is_default(t: &PType) -> bool {
    if matches!(t, PType::Data | PType::RichData | PType::TypeAlias { .. }) {
        return false;
    }
    crate::values::types::parse::type_by_name(t.simple_name()).is_some_and(|d| d == *t)
}

/// The nested types of `t`, for counting references.
pub(super) fn children(t: &PType) -> Vec<&PType> {
    use PType as T;
    match t {
        T::NotUndef(Some(x))
        | T::Optional(Some(x))
        | T::Iterable(Some(x))
        | T::Iterator(Some(x))
        | T::Type(Some(x))
        | T::Sensitive(Some(x)) => vec![x],
        T::Array { element, .. } => vec![element],
        T::Hash { key, value, .. } => vec![key, value],
        T::Tuple { types, .. } | T::Variant(types) => types.iter().collect(),
        T::Struct(members) => members.iter().map(|m| &m.value).collect(),
        T::Callable {
            params,
            block,
            return_type,
        } => [params, block, return_type]
            .into_iter()
            .flatten()
            .map(|b| b.as_ref())
            .collect(),
        T::Init { type_: Some(x), .. } => vec![x],
        _ => Vec::new(),
    }
}

fn object(class: &str, ivars: Vec<(&str, Node)>) -> Node {
    Node::Map {
        anchor: None,
        tag: Some(format!("{PREFIX}{class}")),
        implicit: false,
        entries: ivars
            .into_iter()
            .map(|(k, v)| (Node::Scalar(Scalar::plain(k)), v))
            .collect(),
    }
}

fn refused(what: &str) -> String {
    format!(
        "pverify does not write {what} as YAML: Psych fails on its Ruby object \
         (can't dump anonymous module, naming a memory address) or writes a per-process hash"
    )
}

/// An Integer bound: Ruby keeps the open ends as Float infinities.
fn int_bound(i: i64, open: i64) -> Node {
    if i == open {
        Node::float(if open < 0 {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        })
    } else {
        Node::int(i)
    }
}

impl Builder {
    /// The node of a type; `top` is the identity the caller registered for
    /// the value holding it (already anchored by the caller).
    pub(super) fn type_node(&mut self, t: &PType) -> Result<Node, String> {
        stacker::maybe_grow(256 << 10, 4 << 20, || self.type_node_nested(t))
    }

    /// A nested type: a bare one may be an alias of the same singleton.
    fn child(&mut self, t: &PType) -> Result<Node, String> {
        let Some(id) = default_key(t) else {
            return self.type_node(t);
        };
        self.registered(id, |b| b.type_node(t))
    }

    fn opt_child(&mut self, t: Option<&PType>) -> Result<Node, String> {
        match t {
            Some(t) => self.child(t),
            None => Ok(Node::null()),
        }
    }

    fn size_node(&mut self, size: Option<crate::values::types::model::IntRange>) -> Node {
        match size {
            None => Node::null(),
            Some(r) => integer(r.from, r.to),
        }
    }

    fn type_node_nested(&mut self, t: &PType) -> Result<Node, String> {
        use PType as T;
        let empty = |class: &str| object(class, Vec::new());
        Ok(match t {
            T::Any => empty("PAnyType"),
            T::Undef => empty("PUndefType"),
            T::Default => empty("PDefaultType"),
            T::Unit => empty("PUnitType"),
            T::Scalar => empty("PScalarType"),
            T::ScalarData => empty("PScalarDataType"),
            T::CatalogEntry => empty("PCatalogEntryType"),
            T::SemVerRange => empty("PSemVerRangeType"),
            T::Binary => empty("PBinaryType"),
            T::Uri(None) => empty("PURIType"),
            T::Numeric => object(
                "PNumericType",
                vec![
                    ("from", Node::float(f64::NEG_INFINITY)),
                    ("to", Node::float(f64::INFINITY)),
                ],
            ),
            T::Integer { from, to } => integer(*from, *to),
            T::Float { from, to } => object(
                "PFloatType",
                vec![("from", Node::float(*from)), ("to", Node::float(*to))],
            ),
            T::String { size, value } => {
                let v = match (size, value) {
                    (_, Some(s)) => Node::Scalar(super::string_scalar(s, self.fold_width)),
                    (Some(r), None) => integer(r.from, r.to),
                    (None, None) => Node::null(),
                };
                object("PStringType", vec![("size_type_or_value", v)])
            }
            T::Boolean(b) => object(
                "PBooleanType",
                vec![("value", b.map_or_else(Node::null, Node::bool))],
            ),
            T::Enum {
                values,
                case_insensitive,
            } => object(
                "PEnumType",
                vec![
                    (
                        "values",
                        Node::seq(
                            values
                                .iter()
                                .map(|v| Node::Scalar(super::string_scalar(v, self.fold_width)))
                                .collect(),
                        ),
                    ),
                    ("case_insensitive", Node::bool(*case_insensitive)),
                ],
            ),
            // The compiled regexp is kept once it is made (always for a
            // Pattern's; for `Regexp[...]` pverify cannot tell a string
            // argument, which Puppet compiles lazily, from a regexp).
            T::Regexp(None) => object("PRegexpType", vec![("pattern", Node::null())]),
            T::Regexp(Some(p)) => regexp_type(p, self.fold_width),
            T::Pattern(ps) => object(
                "PPatternType",
                vec![(
                    "patterns",
                    Node::seq(ps.iter().map(|p| regexp_type(p, self.fold_width)).collect()),
                )],
            ),
            T::Array { element, size } => {
                let s = self.size_node(*size);
                object(
                    "PArrayType",
                    vec![("size_type", s), ("element_type", self.child(element)?)],
                )
            }
            T::Hash { key, value, size } => {
                let s = self.size_node(*size);
                let k = self.child(key)?;
                let v = self.child(value)?;
                object(
                    "PHashType",
                    vec![("size_type", s), ("key_type", k), ("value_type", v)],
                )
            }
            T::Collection { size } => {
                let s = self.size_node(*size);
                object("PCollectionType", vec![("size_type", s)])
            }
            T::Tuple { types, size } => {
                let items = types
                    .iter()
                    .map(|x| self.child(x))
                    .collect::<Result<Vec<_>, _>>()?;
                let s = self.size_node(*size);
                object(
                    "PTupleType",
                    vec![("types", Node::seq(items)), ("size_type", s)],
                )
            }
            T::Variant(types) => {
                let items = types
                    .iter()
                    .map(|x| self.child(x))
                    .collect::<Result<Vec<_>, _>>()?;
                object("PVariantType", vec![("types", Node::seq(items))])
            }
            T::Struct(members) => {
                let mut elements = Vec::new();
                for m in members {
                    let name = object(
                        "PStringType",
                        vec![(
                            "size_type_or_value",
                            Node::Scalar(super::string_scalar(&m.name, self.fold_width)),
                        )],
                    );
                    let key = if m.optional_key {
                        object("POptionalType", vec![("type", name)])
                    } else {
                        name
                    };
                    let value = self.child(&m.value)?;
                    elements.push(object(
                        "PStructElement",
                        vec![("key_type", key), ("value_type", value)],
                    ));
                }
                object("PStructType", vec![("elements", Node::seq(elements))])
            }
            T::Optional(x) => wrapper("POptionalType", self.opt_child(x.as_deref())?),
            T::NotUndef(x) => wrapper("PNotUndefType", self.opt_child(x.as_deref())?),
            T::Type(x) => wrapper("PTypeType", self.opt_child(x.as_deref())?),
            T::Iterable(x) => wrapper("PIterableType", self.opt_child(x.as_deref())?),
            T::Iterator(x) => wrapper("PIteratorType", self.opt_child(x.as_deref())?),
            // A bare Sensitive's type is `Any`'s singleton.
            T::Sensitive(x) => {
                let inner = match x {
                    Some(x) => self.child(x)?,
                    None => self.child(&T::Any)?,
                };
                wrapper("PSensitiveType", inner)
            }
            T::Callable {
                params,
                block,
                return_type,
            } => {
                let p = self.opt_child(params.as_deref())?;
                let b = self.opt_child(block.as_deref())?;
                let r = self.opt_child(return_type.as_deref())?;
                object(
                    "PCallableType",
                    vec![("param_types", p), ("block_type", b), ("return_type", r)],
                )
            }
            T::Class(name) => object(
                "PClassType",
                vec![("class_name", self.opt_string(name.as_deref()))],
            ),
            T::Resource { type_name, title } => {
                let name = type_name
                    .as_deref()
                    .map(crate::values::types::format::capitalize_segments);
                let lower = name.as_deref().map(str::to_lowercase);
                object(
                    "PResourceType",
                    vec![
                        ("type_name", self.opt_string(name.as_deref())),
                        ("title", self.opt_string(title.as_deref())),
                        ("downcased_name", self.opt_string(lower.as_deref())),
                    ],
                )
            }
            T::Runtime { runtime, name } => object(
                "PRuntimeType",
                vec![
                    (
                        "runtime",
                        runtime.as_deref().map_or_else(Node::null, Node::symbol),
                    ),
                    ("name_or_pattern", self.opt_string(name.as_deref())),
                ],
            ),
            T::SemVer(ranges) if ranges.is_empty() => {
                object("PSemVerType", vec![("ranges", Node::seq(Vec::new()))])
            }
            T::Timestamp { from, to } | T::Timespan { from, to } => {
                let class = if matches!(t, T::Timestamp { .. }) {
                    "PTimestampType"
                } else {
                    "PTimespanType"
                };
                let f = time_bound(from.as_deref(), f64::NEG_INFINITY)?;
                let e = time_bound(to.as_deref(), f64::INFINITY)?;
                object(class, vec![("from", f), ("to", e)])
            }
            T::Init { type_, args } => {
                let ty = self.opt_child(type_.as_deref())?;
                let a = args
                    .iter()
                    .map(|v| self.node(v))
                    .collect::<Result<Vec<_>, _>>()?;
                object(
                    "PInitType",
                    vec![
                        ("type", ty),
                        ("init_args", Node::seq(a)),
                        ("initialized", Node::bool(false)),
                    ],
                )
            }
            T::Data | T::RichData => return Err(refused(&format!("the type {t}"))),
            T::TypeAlias { name, .. } => return Err(refused(&format!("the type alias {name}"))),
            T::Object(_) | T::ObjectDef(_) => return Err(refused(&format!("the Object type {t}"))),
            other => return Err(refused(&format!("the type {other}"))),
        })
    }

    fn opt_string(&self, s: Option<&str>) -> Node {
        match s {
            Some(s) => Node::Scalar(super::string_scalar(s, self.fold_width)),
            None => Node::null(),
        }
    }
}

fn integer(from: i64, to: i64) -> Node {
    object(
        "PIntegerType",
        vec![
            ("from", int_bound(from, i64::MIN)),
            ("to", int_bound(to, i64::MAX)),
        ],
    )
}

fn wrapper(class: &str, inner: Node) -> Node {
    object(class, vec![("type", inner)])
}

fn regexp_type(p: &str, fold_width: Option<usize>) -> Node {
    object(
        "PRegexpType",
        vec![
            ("pattern", Node::Scalar(super::string_scalar(p, fold_width))),
            ("regexp", super::regexp_node(p)),
        ],
    )
}

/// A Timestamp or Timespan type's bound: open ends are infinities, given
/// ones the Timestamp/Timespan objects (a bound kept as written, a string,
/// is refused rather than converted here).
fn time_bound(v: Option<&Value>, open: f64) -> Result<Node, String> {
    match v {
        None | Some(Value::Undef | Value::Default) => Ok(Node::float(open)),
        Some(Value::Timestamp(t)) => Ok(super::values::object(
            super::values::TIMESTAMP,
            "nsecs",
            Node::int(t.get()),
        )),
        Some(Value::Timespan(t)) => Ok(super::values::object(
            super::values::TIMESPAN,
            "nsecs",
            Node::int(t.get()),
        )),
        Some(other) => Err(format!(
            "pverify does not write a Timestamp or Timespan type bounded by {other} as YAML"
        )),
    }
}
