//! Parameter values as Puppet 8 writes them: rich data.
//!
//! Both Puppets pass a resource's parameters through
//! `Puppet::Pops::Serialization::ToDataConverter` (`Resource#to_data_hash`)
//! with `rich_data: Puppet.lookup(:rich_data)`. Puppet 7.23's base context
//! binds `:rich_data` to `false` whatever the setting says, so its catalogs
//! stringify (the caller's plain writer); Puppet 8 binds it to
//! `Puppet[:rich_data]`, `true` by default, and this module writes what the
//! converter makes then:
//!
//! - `default` is `{"__ptype": "Default"}`;
//! - a hash whose keys are not all strings, or that has the key `__ptype`,
//!   is `{"__ptype": "Hash", "__pvalue": [k1, v1, k2, v2, ...]}` (keys
//!   converted too; references became strings before, in
//!   `Resource.value_to_json_data`);
//! - values whose type round-trips through a string (Regexp, Timestamp,
//!   Timespan, SemVer, SemVerRange, Binary, URI) are
//!   `{"__ptype": <type name>, "__pvalue": <the value's string form>}`;
//! - Pcore objects (Deferred, Object instances, types) are
//!   `{"__ptype": <type name>, <attribute>: <value>, ...}`: an instance's
//!   init hash, or a type's constructor arguments in `initialize`'s order
//!   with the trailing ones at their default left out (`value_to_data_hash`).
//!   Types are written by reference (`Pcore::IntegerType`).
//! - a binary Ruby String (ASCII-8BIT: `Base64.decode64`, `pack` in a
//!   template or a Ruby function) is `{"__ptype": "Binary", "__pvalue":
//!   <its bytes in strict base64>}`; the caller says which strings are
//!   (`crate::bad_bytes::BinaryStrings`).

use puppet_model::types::{IntRange, PType};

use crate::bad_bytes::BinaryStrings;
use puppet_model::Value;

use super::{reference_text, JsonSink};

/// Writes `v` as Puppet 8's `ToDataConverter` with `rich_data` converts it;
/// `binary` tells which strings are binary Ruby Strings.
pub fn emit_rich(v: &Value, binary: &BinaryStrings, s: &mut impl JsonSink) {
    let emit_rich = |v: &Value, s: &mut _| emit_rich(v, binary, s);
    match v {
        Value::Undef => s.null(),
        Value::Boolean(b) => s.bool(*b),
        Value::Integer(i) => s.int(*i),
        Value::Float(f) => s.float(*f),
        Value::String(x) if binary.writes_as_binary(x) => {
            let bytes = puppet_model::bad_bytes::encode(x);
            with_string("Binary", &puppet_model::binary::strict_encode(&bytes), s)
        }
        Value::String(x) => s.string(x),
        Value::Default => {
            s.begin_object();
            s.key("__ptype");
            s.string("Default");
            s.end_object();
        }
        Value::Array(items) => {
            s.begin_array();
            for i in items.iter() {
                emit_rich(i, s);
            }
            s.end_array();
        }
        Value::Hash(h) => {
            let key_text = |k: &Value| match k {
                Value::String(x) => Some(x.to_string()),
                other => reference_text(other),
            };
            let plain = h
                .keys()
                .all(|k| key_text(k).is_some_and(|k| k != "__ptype"));
            if plain {
                s.begin_object();
                for (k, v) in h.iter() {
                    s.key(&key_text(k).unwrap_or_default());
                    emit_rich(v, s);
                }
                s.end_object();
            } else {
                s.begin_object();
                s.key("__ptype");
                s.string("Hash");
                s.key("__pvalue");
                s.begin_array();
                for (k, v) in h.iter() {
                    match reference_text(k) {
                        Some(r) => s.string(&r),
                        None => emit_rich(k, s),
                    }
                    emit_rich(v, s);
                }
                s.end_array();
                s.end_object();
            }
        }
        Value::Sensitive(inner) => {
            s.begin_object();
            s.key("__ptype");
            s.string("Sensitive");
            s.key("__pvalue");
            emit_rich(inner, s);
            s.end_object();
        }
        Value::Regexp(src) => with_string("Regexp", src, s),
        Value::Timestamp(_) => with_string("Timestamp", &v.to_string(), s),
        Value::Timespan(_) => with_string("Timespan", &v.to_string(), s),
        Value::SemVer(_) => with_string("SemVer", &v.to_string(), s),
        Value::SemVerRange(_) => with_string("SemVerRange", &v.to_string(), s),
        Value::Binary(_) => with_string("Binary", &v.to_string(), s),
        Value::Uri(_) => with_string("URI", &v.to_string(), s),
        // The converter's `unknown_to_string` (a node with one fails before
        // its catalog is written: `compile::check_runtime_values`).
        Value::Range(r) => s.string(&r.to_string()),
        Value::Deferred(d) => {
            s.begin_object();
            s.key("__ptype");
            s.string("Deferred");
            s.key("name");
            s.string(&d.name);
            if let Some(args) = &d.arguments {
                s.key("arguments");
                s.begin_array();
                for a in args {
                    emit_rich(a, s);
                }
                s.end_array();
            }
            s.end_object();
        }
        Value::Object(o) => {
            s.begin_object();
            s.key("__ptype");
            s.string(&o.ty.label());
            for (k, v) in o.init_hash().iter() {
                s.key(&k.to_string());
                emit_rich(v, s);
            }
            s.end_object();
        }
        Value::Type(t) => match reference_text(v) {
            // A reference is a `Puppet::Resource` by now, written as text.
            Some(r) => s.string(&r),
            None => emit_type(t, s),
        },
    }
}

fn with_string(ptype: &str, text: &str, s: &mut impl JsonSink) {
    s.begin_object();
    s.key("__ptype");
    s.string(ptype);
    s.key("__pvalue");
    s.string(text);
    s.end_object();
}

/// One constructor argument of a type, as the converter writes it.
enum Arg<'a> {
    Null,
    Str(&'a str),
    Int(i64),
    Float(f64),
    Bool(bool),
    Type(&'a PType),
    Types(&'a [PType]),
    Strs(&'a [String]),
    Regexps(&'a [String]),
    Regexp(&'a str),
    Elements(&'a [puppet_model::types::StructMember]),
    /// A rich value (a time type's bound).
    Value(&'a Value),
    /// A SemVer type's ranges, SemVerRange values.
    Ranges(&'a [puppet_model::semver::VersionRange]),
    /// A collection's or string's size, an Integer type.
    Size(IntRange),
    EmptyHash,
}

/// What Puppet 8's `ToDataConverter` cannot write of a value, found
/// before it is written (Puppet fails the resource that holds it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unserializable {
    /// A type alias that refers to itself (`Data`, `type Tree =
    /// Array[Variant[Integer, Tree]]`): the converter's recursion guard
    /// (`SERIALIZATION_ENDLESS_RECURSION`).
    EndlessRecursion,
    /// `RichData`, whose resolved type holds a TypeSet the converter
    /// cannot initialize.
    TypeSet,
}

/// The first part of `v` Puppet 8 cannot write as rich data, if any.
pub fn unserializable(v: &Value) -> Option<Unserializable> {
    match v {
        Value::Array(items) => items.iter().find_map(unserializable),
        Value::Hash(h) => h
            .iter()
            .find_map(|(k, v)| unserializable(k).or_else(|| unserializable(v))),
        Value::Type(t) => type_unserializable(t, &mut Vec::new()),
        _ => None,
    }
}

/// [`unserializable`] of a type; `aliases` are the aliases being written.
fn type_unserializable<'a>(t: &'a PType, aliases: &mut Vec<&'a str>) -> Option<Unserializable> {
    match t {
        PType::Data => return Some(Unserializable::EndlessRecursion),
        PType::RichData => return Some(Unserializable::TypeSet),
        PType::TypeAlias { name, resolved } => {
            if aliases.contains(&name.as_ref()) {
                return Some(Unserializable::EndlessRecursion);
            }
            aliases.push(name);
            let found = resolved.get().and_then(|r| type_unserializable(r, aliases));
            aliases.pop();
            return found;
        }
        _ => {}
    }
    let (_, args) = type_args(t);
    args.iter().find_map(|(_, arg)| match arg {
        Arg::Type(t) => type_unserializable(t, aliases),
        Arg::Types(ts) => ts.iter().find_map(|t| type_unserializable(t, aliases)),
        Arg::Elements(members) => members
            .iter()
            .find_map(|m| type_unserializable(&m.value, aliases)),
        Arg::Value(v) => unserializable(v),
        _ => None,
    })
}

/// A type as a Pcore object: `{"__ptype": "Pcore::<Kind>Type", ...}`, its
/// `initialize` arguments by name, the trailing defaults dropped.
fn emit_type(t: &PType, s: &mut impl JsonSink) {
    // A self-referring alias is refused when its resource is made
    // (`unserializable`); one that reaches the writer by another way is
    // written by name, not followed for ever.
    if let PType::TypeAlias { name, resolved } = t {
        if resolved
            .get()
            .is_some_and(|r| type_unserializable(r, &mut vec![name.as_ref()]).is_some())
        {
            s.begin_object();
            s.key("__ptype");
            s.string("Pcore::TypeAliasType");
            s.key("name");
            s.string(name);
            s.end_object();
            return;
        }
    }
    let (kind, args) = type_args(t);
    s.begin_object();
    s.key("__ptype");
    s.string_of(&["Pcore::", kind]);
    for (name, arg) in &args {
        s.key(name);
        emit_arg(arg, s);
    }
    s.end_object();
}

fn emit_arg(arg: &Arg<'_>, s: &mut impl JsonSink) {
    match arg {
        Arg::Null => s.null(),
        Arg::Str(x) => s.string(x),
        Arg::Int(i) => s.int(*i),
        Arg::Float(f) => s.float(*f),
        Arg::Bool(b) => s.bool(*b),
        Arg::Type(t) => emit_type(t, s),
        Arg::Types(ts) => {
            s.begin_array();
            for t in ts.iter() {
                emit_type(t, s);
            }
            s.end_array();
        }
        Arg::Strs(xs) => {
            s.begin_array();
            for x in xs.iter() {
                s.string(x);
            }
            s.end_array();
        }
        Arg::Regexps(xs) => {
            s.begin_array();
            for x in xs.iter() {
                s.begin_object();
                s.key("__ptype");
                s.string("Pcore::RegexpType");
                s.key("pattern");
                s.string(x);
                s.end_object();
            }
            s.end_array();
        }
        Arg::Regexp(x) => s.string(x),
        Arg::Elements(members) => {
            s.begin_array();
            for m in members.iter() {
                s.begin_object();
                s.key("__ptype");
                s.string("Pcore::StructElement");
                s.key("key_type");
                let key = PType::string_value(m.name.clone());
                if m.optional_key {
                    emit_type(&PType::Optional(Some(Box::new(key))), s);
                } else {
                    emit_type(&key, s);
                }
                s.key("value_type");
                emit_type(&m.value, s);
                s.end_object();
            }
            s.end_array();
        }
        Arg::Value(v) => emit_rich(v, &BinaryStrings::default(), s),
        Arg::Ranges(ranges) => {
            s.begin_array();
            for r in ranges.iter() {
                with_string("SemVerRange", &r.to_string(), s);
            }
            s.end_array();
        }
        Arg::Size(r) => emit_type(&PType::integer(r.from, r.to), s),
        Arg::EmptyHash => {
            s.begin_object();
            s.end_object();
        }
    }
}

type Args<'a> = Vec<(&'static str, Arg<'a>)>;

/// The Pcore name of `t`'s kind and its constructor arguments, in the order
/// of the Ruby class's `initialize`, each `None` when it is that
/// attribute's default (so that trailing ones can be dropped).
/// A contained type argument (`Optional[T]`'s `T`), `None` when absent.
fn contained(x: &Option<Box<PType>>) -> Option<Arg<'_>> {
    x.as_deref().map(Arg::Type)
}

fn type_args(t: &PType) -> (&'static str, Args<'_>) {
    use PType as T;
    let mut args: Vec<(&'static str, Option<Arg<'_>>)> = Vec::new();
    let kind = match t {
        T::Any => "AnyType",
        T::Undef => "UndefType",
        T::Default => "DefaultType",
        T::Unit => "UnitType",
        T::Scalar => "ScalarType",
        T::ScalarData => "ScalarDataType",
        T::Numeric => "NumericType",
        T::Boolean(_) => "BooleanType",
        T::Binary => "BinaryType",
        T::SemVerRange => "SemVerRangeType",
        T::CatalogEntry => "CatalogEntryType",
        // Puppet 8 keeps no contained type for a Sensitive type here.
        T::Sensitive(_) => "SensitiveType",
        T::Uri(_) => "URIType",
        T::Timestamp { from, to } => {
            args.push(("from", from.as_deref().map(Arg::Value)));
            args.push(("to", to.as_deref().map(Arg::Value)));
            "TimestampType"
        }
        T::Timespan { from, to } => {
            args.push(("from", from.as_deref().map(Arg::Value)));
            args.push(("to", to.as_deref().map(Arg::Value)));
            "TimespanType"
        }
        T::SemVer(ranges) => {
            args.push((
                "ranges",
                (!ranges.is_empty()).then_some(Arg::Ranges(ranges)),
            ));
            "SemVerType"
        }
        T::Init { .. } => "InitType",
        T::NotUndef(x) => {
            args.push(("type", contained(x)));
            "NotUndefType"
        }
        T::Optional(x) => {
            args.push(("type", contained(x)));
            "OptionalType"
        }
        T::Iterable(x) => {
            args.push(("type", contained(x)));
            "IterableType"
        }
        T::Iterator(x) => {
            args.push(("type", contained(x)));
            "IteratorType"
        }
        T::Type(x) => {
            args.push(("type", contained(x)));
            "TypeType"
        }
        T::Integer { from, to } => {
            args.push(("from", (*from != i64::MIN).then_some(Arg::Int(*from))));
            args.push(("to", (*to != i64::MAX).then_some(Arg::Int(*to))));
            "IntegerType"
        }
        T::Float { from, to } => {
            args.push(("from", from.is_finite().then_some(Arg::Float(*from))));
            args.push(("to", to.is_finite().then_some(Arg::Float(*to))));
            "FloatType"
        }
        T::String { size, value } => {
            let arg = match (value, size) {
                (Some(v), _) => Some(Arg::Str(v.as_str())),
                (None, Some(r)) => Some(Arg::Size(*r)),
                (None, None) => None,
            };
            args.push(("size_type_or_value", arg));
            "StringType"
        }
        T::Enum {
            values,
            case_insensitive,
        } => {
            args.push(("values", Some(Arg::Strs(values))));
            args.push((
                "case_insensitive",
                case_insensitive.then_some(Arg::Bool(true)),
            ));
            "EnumType"
        }
        T::Pattern(patterns) => {
            args.push(("patterns", Some(Arg::Regexps(patterns))));
            "PatternType"
        }
        T::Regexp(p) => {
            args.push(("pattern", p.as_deref().map(Arg::Regexp)));
            "RegexpType"
        }
        T::Array { element, size } => {
            args.push((
                "element_type",
                (**element != T::Any).then_some(Arg::Type(element)),
            ));
            args.push(("size_type", size.map(Arg::Size)));
            "ArrayType"
        }
        T::Hash { key, value, size } => {
            args.push(("key_type", (**key != T::Any).then_some(Arg::Type(key))));
            args.push((
                "value_type",
                (**value != T::Any).then_some(Arg::Type(value)),
            ));
            args.push(("size_type", size.map(Arg::Size)));
            "HashType"
        }
        T::Collection { size } => {
            args.push(("size_type", size.map(Arg::Size)));
            "CollectionType"
        }
        T::Tuple { types, size } => {
            args.push(("types", Some(Arg::Types(types))));
            args.push(("size_type", size.map(Arg::Size)));
            "TupleType"
        }
        T::Struct(members) => {
            args.push(("elements", Some(Arg::Elements(members))));
            "StructType"
        }
        T::Variant(types) => {
            args.push(("types", Some(Arg::Types(types))));
            "VariantType"
        }
        T::Callable {
            params,
            block,
            return_type,
        } => {
            // `return_type` defaults to Any, and nil is not Any: a Callable
            // writes all three.
            args.push(("param_types", Some(contained(params).unwrap_or(Arg::Null))));
            args.push(("block_type", Some(contained(block).unwrap_or(Arg::Null))));
            args.push((
                "return_type",
                Some(contained(return_type).unwrap_or(Arg::Null)),
            ));
            "CallableType"
        }
        T::Class(name) => {
            args.push(("class_name", name.as_deref().map(Arg::Str)));
            "ClassType"
        }
        T::Resource { type_name, title } => {
            args.push(("type_name", type_name.as_deref().map(Arg::Str)));
            args.push(("title", title.as_deref().map(Arg::Str)));
            "ResourceType"
        }
        T::Runtime { runtime, name } => {
            args.push(("runtime", runtime.as_deref().map(Arg::Str)));
            args.push(("name_or_pattern", name.as_deref().map(Arg::Str)));
            "RuntimeType"
        }
        T::Object(_) | T::ObjectDef(_) => {
            args.push(("_pcore_init_hash", Some(Arg::EmptyHash)));
            "ObjectType"
        }
        T::TypeReference(name) => {
            args.push(("type_string", Some(Arg::Str(name))));
            "TypeReferenceType"
        }
        T::TypeAlias { name, resolved } => {
            args.push(("name", Some(Arg::Str(name))));
            args.push(("type_expr", Some(Arg::Null)));
            args.push(("resolved_type", resolved.get().map(Arg::Type)));
            "TypeAliasType"
        }
        T::Data => {
            args.push(("name", Some(Arg::Str("Data"))));
            "TypeAliasType"
        }
        T::RichData => {
            args.push(("name", Some(Arg::Str("RichData"))));
            "TypeAliasType"
        }
    };
    while matches!(args.last(), Some((_, None))) {
        args.pop();
    }
    let args = args
        .into_iter()
        .map(|(n, a)| (n, a.unwrap_or(Arg::Null)))
        .collect();
    (kind, args)
}
