//! Types from the language: the names (`Integer`, `String`, ...) and the
//! `[]` operator on a type (`access_operator.rb`), with Puppet's messages for
//! bad arguments.

use puppet_syntax::util::NameStr as _;
use std::sync::Arc;

use super::format::capitalize_segments;
use super::model::{AliasTarget, IntRange, PType, StructMember};
use super::{infer_generic, is_assignable};
use crate::values::Value;

use PType as T;

/// An error from `Type[...]`. `key` is the index of the argument Puppet
/// blames (its position is the error's location); `None` blames the whole
/// access expression.
#[derive(Clone, Debug, PartialEq)]
pub struct AccessError {
    pub message: String,
    pub key: Option<usize>,
}

impl AccessError {
    fn at(key: usize, message: impl Into<String>) -> AccessError {
        AccessError {
            message: message.into(),
            key: Some(key),
        }
    }

    fn whole(message: impl Into<String>) -> AccessError {
        AccessError {
            message: message.into(),
            key: None,
        }
    }

    /// A Ruby exception raised while building the type: Puppet wraps it.
    fn runtime(message: impl std::fmt::Display) -> AccessError {
        AccessError::whole(format!(
            "Error while evaluating a '[]' expression, {message}"
        ))
    }
}

impl std::fmt::Display for AccessError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// The type a capitalised name stands for in Puppet code (`Integer`,
/// `Scalardata`, `NOTUNDEF`: any case, as Puppet downcases the reference),
/// including the built-in aliases (`Data`, `RichData`, `RichDataKey`,
/// `Puppet::LookupKey`, `Puppet::LookupValue`). `None` for other names:
/// resource types, user aliases and classes are the caller's to resolve.
/// `TypeReference` is Puppet's unresolved reference and evaluates to an
/// error ("Resource type not found: UnresolvedReference") in Puppet.
pub fn type_by_name(name: &str) -> Option<PType> {
    // Lower-cased on the stack: every type reference the evaluator meets
    // (`Package['x']` too) asks here first. No built-in name is longer.
    let mut buf = [0u8; 24];
    let lc = buf.get_mut(..name.len())?;
    lc.copy_from_slice(name.as_bytes());
    lc.make_ascii_lowercase();
    Some(match std::str::from_utf8(lc).ok()? {
        "any" => T::Any,
        "undef" => T::Undef,
        "default" => T::Default,
        "notundef" => T::NotUndef(None),
        "data" => T::Data,
        "richdata" => T::RichData,
        "richdatakey" => rich_data_key(),
        "puppet::lookupkey" => {
            T::alias("Puppet::LookupKey", AliasTarget::resolved(rich_data_key()))
        }
        "puppet::lookupcontext" => T::ObjectDef(super::object::lookup_context_type()),
        "puppet::lookupvalue" => {
            T::alias("Puppet::LookupValue", AliasTarget::resolved(T::RichData))
        }
        "scalar" => T::Scalar,
        "scalardata" => T::ScalarData,
        "numeric" => T::Numeric,
        "integer" => T::INTEGER,
        "float" => T::FLOAT,
        "string" => T::STRING,
        "enum" => T::Enum {
            values: Vec::new(),
            case_insensitive: false,
        },
        "pattern" => T::Pattern(Vec::new()),
        "regexp" => T::Regexp(None),
        "boolean" => T::Boolean(None),
        "array" => T::array_of_any(),
        "hash" => T::hash_of_any(),
        "tuple" => T::Tuple {
            types: Vec::new(),
            size: None,
        },
        "struct" => T::Struct(Vec::new()),
        "optional" => T::Optional(None),
        "variant" => T::Variant(Vec::new()),
        "collection" => T::Collection { size: None },
        "iterable" => T::Iterable(None),
        "iterator" => T::Iterator(None),
        "callable" => T::Callable {
            params: None,
            block: None,
            return_type: None,
        },
        "type" => T::Type(None),
        "class" => T::Class(None),
        "resource" => T::Resource {
            type_name: None,
            title: None,
        },
        "catalogentry" => T::CatalogEntry,
        "runtime" => T::Runtime {
            runtime: None,
            name: None,
        },
        "sensitive" => T::Sensitive(None),
        "semver" => T::SemVer(Vec::new()),
        "semverrange" => T::SemVerRange,
        "timestamp" => T::Timestamp {
            from: None,
            to: None,
        },
        "timespan" => T::Timespan {
            from: None,
            to: None,
        },
        "binary" => T::Binary,
        "uri" => T::Uri(None),
        "init" => T::Init {
            type_: None,
            args: Vec::new(),
        },
        "object" => T::Object(None),
        "typeset" => T::Object(Some("TypeSet".to_string())),
        // Puppet 7's Pcore object type of deferred function calls.
        "deferred" => T::Object(Some("Deferred".to_string())),
        // The built-in Object types `annotate` takes.
        "annotation" => T::ObjectDef(std::sync::Arc::new(super::object::ObjectType::builtin(
            "Annotation",
        ))),
        "pcore" => T::ObjectDef(std::sync::Arc::new(super::object::ObjectType::builtin(
            "Pcore",
        ))),
        "typereference" => T::TypeReference("UnresolvedReference".to_string()),
        "typealias" => T::alias(
            "UnresolvedAlias",
            AliasTarget::resolved(T::TypeReference("UnresolvedReference".to_string())),
        ),
        _ => return None,
    })
}

/// The built-in alias `RichDataKey = Variant[String, Numeric]`.
pub fn rich_data_key() -> PType {
    T::alias(
        "RichDataKey",
        AliasTarget::resolved(T::Variant(vec![T::STRING, T::Numeric])),
    )
}

/// `Type[args]` where the result must be a type (everything but resource and
/// class references with several titles). See [`access`].
pub fn parameterize(base: &PType, args: &[Value]) -> Result<PType, String> {
    match &access(base, args).map_err(|e| e.message)? {
        Value::Type(t) => Ok((**t).clone()),
        other => Err(format!("expected a type, got {}", label_value(other))),
    }
}

/// Puppet's `[]` on a type value: `Integer[1, 5]`, `Array[String]`,
/// `File['/x']` (a reference), `File['/x', '/y']` or `File[['/x']]` (an
/// array of references), `Class[foo]`, `Resource[file, '/x']`.
///
/// Not handled here (the caller's, as it needs the catalog): `[]` on a
/// resource reference that has a title or a class reference with a name,
/// which looks up parameter values (`File['/x'][mode]`); this returns an
/// error for them. An unresolved `TypeReference` gives Puppet's
/// "Resource type not found" message.
pub fn access(base: &PType, args: &[Value]) -> Result<Value, AccessError> {
    let ty = |t: PType| Ok(Value::Type(Arc::new(t)));
    match base {
        T::Resource { .. } => access_resource(base, args),
        T::Class(_) => access_class(base, args),
        T::TypeReference(name) => Err(AccessError::whole(format!(
            "Resource type not found: {name}"
        ))),
        T::Integer { .. } => ty(access_integer(&flatten(args))?),
        T::Float { .. } => ty(access_float(&flatten(args))?),
        T::String { .. } => {
            let keys = flatten(args);
            let size = match keys.len() {
                1 => collection_size(0, &keys)?,
                2 => collection_size(0, &keys)?,
                n => {
                    return Err(AccessError::whole(format!(
                        "String supports [] with one or two arguments. Got {n}"
                    )))
                }
            };
            ty(T::string_sized(size))
        }
        T::Enum { .. } => {
            let mut keys = flatten(args);
            let mut ci = false;
            if let Some(Value::Boolean(b)) = keys.last() {
                ci = *b;
                keys.pop();
            }
            assert_keys(base, &keys, 1, None, &[Allowed::String])?;
            let values = keys
                .iter()
                .map(|k| k.as_str().unwrap().to_string())
                .collect();
            ty(T::enumeration(values, ci))
        }
        T::Variant(_) => {
            let keys = flatten(args);
            assert_keys(base, &keys, 1, None, &[Allowed::Type])?;
            ty(T::variant(
                keys.iter().map(|k| as_type(k).unwrap()).collect(),
            ))
        }
        T::Pattern(_) => {
            let keys = flatten(args);
            assert_keys(
                base,
                &keys,
                1,
                None,
                &[
                    Allowed::String,
                    Allowed::Regexp,
                    Allowed::PatternType,
                    Allowed::RegexpType,
                ],
            )?;
            let mut patterns: Vec<String> = Vec::new();
            let add = |p: String, patterns: &mut Vec<String>| {
                if !patterns.contains(&p) {
                    patterns.push(p);
                }
            };
            for k in &keys {
                match k {
                    Value::String(s) => {
                        super::regex::compile(s).map_err(AccessError::runtime)?;
                        add(s.to_string(), &mut patterns);
                    }
                    Value::Regexp(r) => add(r.to_string(), &mut patterns),
                    Value::Type(t) => match &**t {
                        T::Regexp(p) => add(p.clone().unwrap_or_default(), &mut patterns),
                        T::Pattern(ps) => ps.iter().for_each(|p| add(p.clone(), &mut patterns)),
                        _ => unreachable!(),
                    },
                    _ => unreachable!(),
                }
            }
            ty(T::Pattern(patterns))
        }
        T::Regexp(_) => {
            let keys = flatten(args);
            if keys.len() != 1 {
                let e = arity_message(&a_an_uc(&type_label(base)), 1, None, keys.len());
                return Err(if keys.is_empty() {
                    AccessError::whole(e)
                } else {
                    AccessError::at(1, e)
                });
            }
            assert_keys(base, &keys, 1, Some(1), &[Allowed::String, Allowed::Regexp])?;
            let src = match &keys[0] {
                Value::String(s) | Value::Regexp(s) => s.to_string(),
                _ => unreachable!(),
            };
            ty(T::Regexp(Some(src)))
        }
        T::Boolean(_) => {
            let keys = flatten(args);
            assert_keys(base, &keys, 1, Some(1), &[Allowed::True, Allowed::False])?;
            let Value::Boolean(b) = keys[0] else {
                unreachable!()
            };
            ty(T::Boolean(Some(b)))
        }
        T::Array { .. } => ty(access_array(&flatten(args))?),
        T::Hash { .. } => ty(access_hash(&flatten(args))?),
        T::Collection { .. } => {
            let keys = flatten(args);
            let size = match keys.len() {
                1 | 2 => collection_size(0, &keys)?,
                n => {
                    return Err(AccessError::whole(arity_message(
                        "Collection-Type",
                        1,
                        Some(2),
                        n,
                    )))
                }
            };
            ty(T::collection(Some(size)))
        }
        T::Tuple { .. } => {
            let mut keys = flatten(args);
            let n = keys.len();
            let mut size = None;
            if n >= 2 && is_range_param(&keys[n - 2]) && is_range_param(&keys[n - 1]) {
                size = Some(range(&keys[n - 2], &keys[n - 1]).map_err(AccessError::runtime)?);
                keys.truncate(n - 2);
            } else if n >= 1 && is_range_param(&keys[n - 1]) {
                size = Some(range(&keys[n - 1], &Value::Default).map_err(AccessError::runtime)?);
                keys.truncate(n - 1);
            }
            assert_keys(base, &keys, 1, None, &[Allowed::Type])?;
            ty(T::tuple(
                keys.iter().map(|k| as_type(k).unwrap()).collect(),
                size,
            ))
        }
        T::Callable { .. } => ty(access_callable(base, args)?),
        T::Struct(_) => {
            assert_keys(base, args, 1, Some(1), &[Allowed::Hash])?;
            let Value::Hash(h) = &args[0] else {
                unreachable!()
            };
            ty(struct_type(h).map_err(AccessError::runtime)?)
        }
        T::Optional(_) => {
            let keys = flatten(args);
            if keys.len() != 1 {
                return Err(AccessError::whole(arity_message(
                    "Optional-Type",
                    1,
                    None,
                    keys.len(),
                )));
            }
            match &keys[0] {
                Value::Type(t) => ty(T::optional((**t).clone())),
                Value::String(s) => ty(T::optional(T::string_value(&**s))),
                other => Err(AccessError::at(
                    0,
                    format!(
                        "Optional-Type[] arguments must be types. Got {}",
                        ruby_class(other)
                    ),
                )),
            }
        }
        T::NotUndef(_) => {
            let keys = flatten(args);
            match keys.len() {
                0 => ty(T::NotUndef(None)),
                1 => match &keys[0] {
                    Value::String(s) => ty(T::not_undef(Some(T::string_value(&**s)))),
                    Value::Type(t) => ty(T::not_undef(Some((**t).clone()))),
                    other => Err(AccessError::at(
                        0,
                        format!(
                            "NotUndef-Type[] argument must be a Type or a String. Got {}",
                            ruby_class(other)
                        ),
                    )),
                },
                n => Err(AccessError::whole(arity_message(
                    "NotUndef-Type",
                    0,
                    Some(1),
                    n,
                ))),
            }
        }
        T::Sensitive(_) => ty(T::sensitive(Some(single_type(
            "Sensitive-Type",
            &flatten(args),
        )?))),
        T::Type(_) => ty(T::type_of(single_type("Type-Type", &flatten(args))?)),
        T::Iterable(_) => ty(T::Iterable(Some(Box::new(single_type(
            "Iterable-Type",
            &flatten(args),
        )?)))),
        T::Iterator(_) => ty(T::Iterator(Some(Box::new(single_type(
            "Iterator-Type",
            &flatten(args),
        )?)))),
        T::Init { .. } => match args.first() {
            Some(Value::Type(t)) => ty(T::Init {
                type_: Some(Box::new((**t).clone())),
                args: args[1..].to_vec(),
            }),
            other => Err(AccessError::at(
                0,
                format!(
                    "Init-Type[] arguments must be types. Got {}",
                    other.map_or("NilClass".to_string(), ruby_class)
                ),
            )),
        },
        T::Runtime { .. } => {
            let keys = flatten(args);
            assert_keys(base, &keys, 2, Some(2), &[Allowed::String])?;
            ty(T::Runtime {
                runtime: Some(keys[0].as_str().unwrap().to_string()),
                name: Some(keys[1].as_str().unwrap().to_string()),
            })
        }
        T::SemVer(_) => {
            let keys = flatten(args);
            assert_keys(
                base,
                &keys,
                1,
                None,
                &[Allowed::String, Allowed::VersionRange],
            )?;
            // Strings are parsed as ranges (a bad one fails here, as in
            // Puppet); several ranges are merged where they meet.
            let mut ranges = Vec::new();
            for k in &keys {
                ranges.push(match k {
                    Value::SemVerRange(r) => (**r).clone(),
                    other => {
                        crate::values::semver::VersionRange::parse(other.as_str().unwrap_or(""))
                            .map_err(AccessError::runtime)?
                    }
                });
            }
            ty(T::SemVer(crate::values::semver::VersionRange::merge_all(
                ranges,
            )))
        }
        T::Timestamp { .. } | T::Timespan { .. } => {
            let keys = flatten(args);
            if keys.len() > 2 {
                return Err(AccessError::whole(arity_message(
                    &type_label(base),
                    0,
                    Some(2),
                    keys.len(),
                )));
            }
            // Bounds become values (`'2020-01-01'` is read as a
            // Timestamp), as Puppet's `convert_arg` makes them.
            let stamp = matches!(base, T::Timestamp { .. });
            let bound = |i: usize| match keys.get(i) {
                None => Ok(None),
                Some(v) => crate::values::time::type_bound(stamp, v)
                    .map(|b| b.map(Box::new))
                    .map_err(AccessError::runtime),
            };
            let from = bound(0)?;
            let to = bound(1)?;
            let ns = |b: &Option<Box<Value>>| b.as_deref().and_then(crate::values::time::nanos_of);
            if let (Some(f), Some(t)) = (ns(&from), ns(&to)) {
                if f > t {
                    return Err(AccessError::runtime(format!(
                        "'from' must be less or equal to 'to'. Got ({}, {}",
                        from.as_deref().map(|v| v.to_string()).unwrap_or_default(),
                        to.as_deref().map(|v| v.to_string()).unwrap_or_default()
                    )));
                }
            }
            ty(if stamp {
                T::Timestamp { from, to }
            } else {
                T::Timespan { from, to }
            })
        }
        T::Uri(_) => {
            let keys = flatten(args);
            if keys.len() != 1 {
                return Err(AccessError::whole(arity_message(
                    "URI-Type",
                    1,
                    None,
                    keys.len(),
                )));
            }
            match &keys[0] {
                // A string stands for its components (`uri_to_hash`).
                Value::String(s) => match crate::values::uri::Uri::parse(s) {
                    Ok(u) => ty(T::Uri(crate::values::uri::type_param(&u))),
                    Err(e) => Err(AccessError::whole(e)),
                },
                Value::Hash(h) if h.is_empty() => ty(T::Uri(None)),
                v @ Value::Hash(_) => ty(T::Uri(Some(Box::new(v.clone())))),
                other => Err(AccessError::at(
                    0,
                    format!(
                        "URI-Type[] arguments must be types. Got {}",
                        ruby_class(other)
                    ),
                )),
            }
        }
        T::Object(_) => {
            let keys = flatten(args);
            if keys.len() != 1 {
                return Err(AccessError::whole(arity_message(
                    "Object-Type",
                    1,
                    None,
                    keys.len(),
                )));
            }
            let name = match &keys[0] {
                // `Object[{attributes => ...}]`: a new Object type.
                Value::Hash(h) => {
                    return super::object::ObjectType::from_init_hash(None, h)
                        .map(|o| Value::Type(Arc::new(T::ObjectDef(Arc::new(o)))))
                        .map_err(AccessError::whole)
                }
                Value::String(s) => Some(s.to_string()),
                _ => None,
            };
            ty(T::Object(name))
        }
        // `P[...]` of an Object type with type parameters.
        T::ObjectDef(o) => o
            .parameterize(args)
            .map(|e| Value::Type(Arc::new(T::ObjectDef(Arc::new(e)))))
            .map_err(AccessError::whole),
        _ => Err(AccessError::whole(format!(
            "Operator '[]' is not applicable to {}.",
            a_an(&type_label(base))
        ))),
    }
}

/// Puppet flattens nested arrays of keys for most types.
fn flatten(args: &[Value]) -> Vec<Value> {
    let mut out = Vec::with_capacity(args.len());
    crate::values::value::flatten_into(args, &mut out);
    out
}

fn as_type(v: &Value) -> Option<PType> {
    match v {
        Value::Type(t) => Some((**t).clone()),
        _ => None,
    }
}

/// `TypeFactory.type_of`: a type as is, a string as the name of a Ruby
/// class (`Runtime[ruby, 'x']`), any other value by its general type.
fn type_of_value(v: &Value) -> PType {
    match v {
        Value::Type(t) => (**t).clone(),
        Value::String(s) => T::Runtime {
            runtime: Some("ruby".into()),
            name: Some(s.to_string()),
        },
        other => infer_generic(other),
    }
}

fn is_range_param(v: &Value) -> bool {
    matches!(v, Value::Integer(_) | Value::Default) || v.as_str() == Some("default")
}

/// `PIntegerType.new(from, to)` with Puppet's check of the order.
fn int_range(from: i64, to: i64) -> Result<IntRange, String> {
    if from > to {
        let f = |x: i64| match x {
            i64::MIN => "-Infinity".to_string(),
            i64::MAX => "Infinity".to_string(),
            x => x.to_string(),
        };
        return Err(format!(
            "'from' must be less or equal to 'to'. Got ({}, {}",
            f(from),
            f(to)
        ));
    }
    Ok(IntRange::new(from, to))
}

fn range(from: &Value, to: &Value) -> Result<IntRange, String> {
    let f = match from {
        Value::Integer(i) => *i,
        _ => i64::MIN,
    };
    let t = match to {
        Value::Integer(i) => *i,
        _ => i64::MAX,
    };
    int_range(f, t)
}

fn access_integer(keys: &[Value]) -> Result<PType, AccessError> {
    if !(1..=2).contains(&keys.len()) {
        return Err(AccessError::whole(format!(
            "Integer-Type supports [] with one or two arguments (from, to). Got {}",
            keys.len()
        )));
    }
    for (i, k) in keys.iter().enumerate() {
        if !matches!(k, Value::Integer(_) | Value::Default) {
            return Err(AccessError::at(
                i,
                format!(
                    "Integer-Type [] requires all arguments to be integers (or default). Got {}",
                    ruby_class(k)
                ),
            ));
        }
    }
    let r =
        range(&keys[0], keys.get(1).unwrap_or(&Value::Default)).map_err(AccessError::runtime)?;
    Ok(T::integer(r.from, r.to))
}

fn access_float(keys: &[Value]) -> Result<PType, AccessError> {
    if !(1..=2).contains(&keys.len()) {
        return Err(AccessError::whole(format!(
            "Float-Type supports [] with one or two arguments (from, to). Got {}",
            keys.len()
        )));
    }
    let mut bounds = [f64::NEG_INFINITY, f64::INFINITY];
    for (i, k) in keys.iter().enumerate() {
        match k {
            Value::Integer(n) => bounds[i] = *n as f64,
            Value::Float(x) => bounds[i] = *x,
            Value::Default => {}
            other => {
                return Err(AccessError::at(
                    i,
                    format!(
                        "Float-Type [] requires all arguments to be floats, or integers (or default). Got {}",
                        ruby_class(other)
                    ),
                ))
            }
        }
    }
    if bounds[0] > bounds[1] {
        return Err(AccessError::runtime(format!(
            "'from' must be less or equal to 'to'. Got ({}, {}",
            super::format::ruby_float(bounds[0]),
            super::format::ruby_float(bounds[1])
        )));
    }
    Ok(T::float(bounds[0], bounds[1]))
}

/// `collection_size_t`: a single `Integer` type, or one or two integers.
fn collection_size(start: usize, keys: &[Value]) -> Result<IntRange, AccessError> {
    let keys = &keys[start..];
    if keys.len() == 1 {
        if let Value::Type(t) = &keys[0] {
            if let T::Integer { from, to } = &**t {
                return Ok(IntRange::new(*from, *to).to_size());
            }
        }
    }
    for (i, k) in keys.iter().enumerate() {
        if !matches!(k, Value::Integer(_) | Value::Default) {
            return Err(AccessError::at(
                start + i,
                format!(
                    "A Type's size constraint arguments must be a single Integer type, or 1-2 integers (or default). Got {}",
                    a_an(&ruby_class(k))
                ),
            ));
        }
    }
    let r =
        range(&keys[0], keys.get(1).unwrap_or(&Value::Default)).map_err(AccessError::runtime)?;
    Ok(r.to_size())
}

fn access_array(keys: &[Value]) -> Result<PType, AccessError> {
    let not_type = |i: usize, k: &Value| {
        AccessError::at(
            i,
            format!(
                "Array-Type[] arguments must be types. Got {}",
                ruby_class(k)
            ),
        )
    };
    match keys.len() {
        1 => match as_type(&keys[0]) {
            Some(t) => Ok(T::array(t, None)),
            None => Err(not_type(0, &keys[0])),
        },
        2 => match as_type(&keys[0]) {
            Some(t) => Ok(T::array(t, Some(collection_size(1, keys)?))),
            None => Ok(T::array(T::Any, Some(collection_size(0, keys)?))),
        },
        3 => match as_type(&keys[0]) {
            Some(t) => Ok(T::array(t, Some(collection_size(1, keys)?))),
            None => Err(not_type(0, &keys[0])),
        },
        n => Err(AccessError::whole(arity_message(
            "Array-Type",
            1,
            Some(3),
            n,
        ))),
    }
}

fn access_hash(keys: &[Value]) -> Result<PType, AccessError> {
    if let [Value::Integer(a), Value::Integer(b)] = keys {
        let r = int_range(*a, *b).map_err(AccessError::runtime)?;
        return Ok(T::hash(T::Any, T::Any, Some(r)));
    }
    for (i, k) in keys.iter().take(2).enumerate() {
        if as_type(k).is_none() {
            return Err(AccessError::at(
                i,
                format!("Hash-Type[] arguments must be types. Got {}", ruby_class(k)),
            ));
        }
    }
    let size = match keys.len() {
        2 => None,
        3 => Some(match &keys[2] {
            Value::Type(t) if matches!(**t, T::Integer { .. }) => collection_size(2, keys)?,
            Value::Integer(n) => int_range(*n, i64::MAX).map_err(AccessError::runtime)?,
            Value::Default => IntRange::DEFAULT_SIZE,
            other => {
                return Err(AccessError::runtime(format!(
                    "Integer-Type [] requires all arguments to be integers (or default). Got {}",
                    ruby_class(other)
                )))
            }
        }),
        4 => Some(collection_size(2, keys)?),
        n => {
            return Err(AccessError::whole(arity_message(
                "Hash-Type",
                2,
                Some(4),
                n,
            )))
        }
    };
    Ok(T::hash(
        as_type(&keys[0]).unwrap(),
        as_type(&keys[1]).unwrap(),
        size,
    ))
}

/// Is the type a callable, or a variant or optional of callables?
fn kind_of_callable(t: &PType) -> bool {
    match t {
        T::Callable { .. } => true,
        T::Optional(Some(x)) => kind_of_callable(x),
        T::Variant(ts) => ts.iter().all(kind_of_callable),
        _ => false,
    }
}

fn access_callable(base: &PType, args: &[Value]) -> Result<PType, AccessError> {
    let mut params: Vec<Value> = args.to_vec();
    let mut return_t = None;
    if let Some(Value::Array(first)) = args.first() {
        if args.len() != 2 {
            return Err(AccessError::whole(arity_message(
                &type_label(base),
                2,
                Some(2),
                args.len(),
            )));
        }
        match &args[1] {
            Value::Type(t) => return_t = Some(Box::new((**t).clone())),
            other => {
                return Err(AccessError::at(
                    1,
                    format!(
                        "Error creating type specialization of {}, Cannot use {} where Any-Type is expected",
                        a_an(&type_label(base)),
                        bad_key_type_name(other)
                    ),
                ))
            }
        }
        params = (**first).clone();
    }
    let mut block = None;
    if let Some(Value::Type(t)) = params.last() {
        if kind_of_callable(t) {
            block = Some(Box::new((**t).clone()));
            params.pop();
        }
    }
    let n = params.len();
    let mut size = None;
    if n >= 2 && is_range_param(&params[n - 2]) && is_range_param(&params[n - 1]) {
        size = Some(range(&params[n - 2], &params[n - 1]).map_err(AccessError::runtime)?);
        params.truncate(n - 2);
    } else if n >= 1 && is_range_param(&params[n - 1]) {
        size = Some(range(&params[n - 1], &Value::Default).map_err(AccessError::runtime)?);
        params.truncate(n - 1);
    }
    let mut types: Vec<PType> = params.iter().map(type_of_value).collect();
    if types.is_empty() && size.is_some_and(|s| s.to > 0) {
        types.push(T::Unit);
    }
    Ok(T::Callable {
        params: Some(Box::new(T::tuple(types, size))),
        block,
        return_type: return_t,
    })
}

/// `TypeFactory.struct`: keys are names, or `Optional[name]`,
/// `NotUndef[name]`, `String` / `Enum` types of exactly one name.
fn struct_type(h: &crate::values::Map) -> Result<PType, String> {
    let mut members = Vec::with_capacity(h.len());
    for (k, v) in h.iter() {
        let value = type_of_value(v);
        let (name, optional_key) = match k {
            Value::String(s) => {
                if s.is_empty() {
                    return Err("Struct element key cannot be an empty String".to_string());
                }
                (s.to_string(), is_assignable(&value, &T::Undef))
            }
            Value::Type(t) => {
                let (mut inner, optional) = match &**t {
                    T::NotUndef(inner) => (inner.as_deref().cloned(), false),
                    T::Optional(inner) => (inner.as_deref().cloned(), true),
                    s @ T::String { .. } => (Some(s.clone()), false),
                    T::Enum { values, .. } => {
                        (if values.len() == 1 { Some(T::string_value(values[0].clone())) } else { None }, false)
                    }
                    other => {
                        return Err(format!(
                            "Illegal Struct member key type. Expected NotUndef, Optional, String, or Enum. Got: {}",
                            ruby_type_class(other)
                        ))
                    }
                };
                match inner {
                    Some(T::String { value: Some(ref mut name), .. }) if !name.is_empty() => (std::mem::take(name), optional),
                    _ => {
                        return Err(format!(
                            "Unable to extract a non-empty literal string from Struct member key type {t}"
                        ))
                    }
                }
            }
            other => {
                return Err(format!(
                    "Illegal Struct member key type. Expected NotUndef, Optional, String, or Enum. Got: {}",
                    ruby_class(other)
                ))
            }
        };
        members.push(StructMember {
            name,
            optional_key,
            value,
        });
    }
    Ok(T::Struct(members))
}

fn single_type(base_label: &str, keys: &[Value]) -> Result<PType, AccessError> {
    if keys.len() != 1 {
        return Err(AccessError::whole(arity_message(
            base_label,
            1,
            None,
            keys.len(),
        )));
    }
    match &keys[0] {
        Value::Type(t) => Ok((**t).clone()),
        other => Err(AccessError::at(
            0,
            format!(
                "{base_label}[] arguments must be types. Got {}",
                ruby_class(other)
            ),
        )),
    }
}

#[derive(Clone, Copy)]
enum Allowed {
    String,
    Regexp,
    Type,
    PatternType,
    RegexpType,
    True,
    False,
    Hash,
    VersionRange,
}

impl Allowed {
    fn accepts(self, v: &Value) -> bool {
        match self {
            Allowed::String => matches!(v, Value::String(_)),
            Allowed::Regexp => matches!(v, Value::Regexp(_)),
            Allowed::Type => matches!(v, Value::Type(_)),
            Allowed::PatternType => matches!(v, Value::Type(t) if matches!(**t, T::Pattern(_))),
            Allowed::RegexpType => matches!(v, Value::Type(t) if matches!(**t, T::Regexp(_))),
            Allowed::True => matches!(v, Value::Boolean(true)),
            Allowed::False => matches!(v, Value::Boolean(false)),
            Allowed::Hash => matches!(v, Value::Hash(_)),
            Allowed::VersionRange => matches!(v, Value::SemVerRange(_)),
        }
    }

    fn label(self) -> &'static str {
        match self {
            Allowed::String => "String",
            Allowed::Regexp => "Regexp",
            Allowed::Type => "Any-Type",
            Allowed::PatternType => "Pattern-Type",
            Allowed::RegexpType => "Regexp-Type",
            Allowed::VersionRange => "SemanticPuppet::VersionRange",
            Allowed::True => "TrueClass",
            Allowed::False => "FalseClass",
            Allowed::Hash => "Hash",
        }
    }
}

/// `assert_keys`: the count, then each key's kind.
fn assert_keys(
    base: &PType,
    keys: &[Value],
    min: usize,
    max: Option<usize>,
    allowed: &[Allowed],
) -> Result<(), AccessError> {
    if keys.len() < min || max.is_some_and(|m| keys.len() > m) {
        // Puppet reports a minimum of 1 whatever the real one
        return Err(AccessError::whole(arity_message(
            &a_an_uc(&type_label(base)),
            1,
            Some(max.unwrap_or(usize::MAX)),
            keys.len(),
        )));
    }
    for (i, k) in keys.iter().enumerate() {
        if !allowed.iter().any(|a| a.accepts(k)) {
            let expected: Vec<&str> = allowed.iter().map(|a| a.label()).collect();
            return Err(AccessError::at(
                i,
                format!(
                    "Error creating type specialization of {}, Cannot use {} where {} is expected",
                    a_an(&type_label(base)),
                    bad_key_type_name(k),
                    expected.join(" or ")
                ),
            ));
        }
    }
    Ok(())
}

/// `BAD_TYPE_SLICE_ARITY`.
fn arity_message(base_label: &str, min: usize, max: Option<usize>, actual: usize) -> String {
    match max {
        None => format!(
            "{base_label}[] accepts {min} {}. Got {actual}",
            if min == 1 { "argument" } else { "arguments" }
        ),
        Some(m) if m == usize::MAX => {
            format!("{base_label}[] accepts {min} or more arguments. Got {actual}")
        }
        Some(m) if m != min => {
            format!("{base_label}[] accepts {min} to {m} arguments. Got {actual}")
        }
        Some(_) => format!(
            "{base_label}[] accepts {min} {}. Got {actual}",
            if min == 1 { "argument" } else { "arguments" }
        ),
    }
}

fn access_resource(base: &PType, args: &[Value]) -> Result<Value, AccessError> {
    let T::Resource {
        type_name: base_name,
        title: base_title,
    } = base
    else {
        unreachable!()
    };
    if args.is_empty() {
        return Err(AccessError::whole(format!(
            "{}[] accepts 1 or more arguments. Got 0",
            base
        )));
    }
    // `Package['httpd']`, by far the most common form: what the general
    // path below makes of it, without its vectors and copies.
    if let (Some(n), None, [Value::String(title)]) = (base_name, base_title, args) {
        if !title.is_empty() && is_classref_ext(n) {
            return Ok(Value::Type(Arc::new(T::resource(
                n.clone(),
                Some(title.clone()),
            ))));
        }
    }
    let mut keys: Vec<Value> = args.to_vec();
    let blamed = 0usize;
    let type_name: Arc<str> = match base_name {
        Some(n) => n.clone(),
        None => {
            let first = keys.remove(0);
            match &first {
                Value::String(s) => capitalize_segments(s).into(),
                Value::Type(t) => match &**t {
                    T::Resource { type_name: Some(n), .. } => n.clone(),
                    T::Resource { type_name: None, .. } => {
                        return Err(AccessError::at(
                            blamed,
                            "Illegal type reference. The given name '' does not conform to the naming rule",
                        ))
                    }
                    _ => {
                        return Err(AccessError::at(
                            0,
                            format!(
                                "First argument to Resource[] must be a resource type or a String. Got {}.",
                                bad_key_type_name(&first)
                            ),
                        ))
                    }
                },
                other => {
                    return Err(AccessError::at(
                        0,
                        format!(
                            "First argument to Resource[] must be a resource type or a String. Got {}.",
                            bad_key_type_name(other)
                        ),
                    ))
                }
            }
        }
    };
    if !is_classref_ext(&type_name) {
        return Err(AccessError::at(
            blamed,
            format!("Illegal type reference. The given name '{type_name}' does not conform to the naming rule"),
        ));
    }
    let as_array = keys.len() > 1 || matches!(keys.first(), Some(Value::Array(_)));
    let orig = keys.len();
    let consumed = args.len() - keys.len();
    let mut titles: Vec<Value> = flatten(&keys)
        .into_iter()
        .filter(|v| !v.is_undef())
        .collect();
    if titles.is_empty() && orig > 0 {
        // Puppet's EMPTY_RESOURCE_SPECIALIZATION is not an error by default
        return Ok(if as_array {
            Value::array(Vec::new())
        } else {
            Value::Undef
        });
    }
    if base_title.is_some() {
        return Err(AccessError::whole(
            "access to the parameters of a resource reference needs the catalog",
        ));
    }
    if titles.is_empty() {
        return Ok(Value::Type(Arc::new(T::resource(type_name, None))));
    }
    let mut refs = Vec::with_capacity(titles.len());
    for (i, t) in titles.drain(..).enumerate() {
        match &t {
            Value::String(s) => refs.push(Value::Type(Arc::new(T::resource(type_name.clone(), Some(s.clone()))))),
            other => {
                return Err(AccessError::at(
                    i + consumed,
                    format!(
                        "Error creating type specialization of {}, Cannot use {} where a resource title String is expected",
                        a_an(&type_label(base)),
                        bad_key_type_name(other)
                    ),
                ))
            }
        }
    }
    Ok(if as_array {
        Value::array(refs)
    } else {
        refs.pop().unwrap()
    })
}

fn access_class(base: &PType, args: &[Value]) -> Result<Value, AccessError> {
    let T::Class(base_name) = base else {
        unreachable!()
    };
    if args.is_empty() {
        return Err(AccessError::whole(
            "Class[] accepts 1 or more arguments. Got 0",
        ));
    }
    // `Class['apache']`: one name, as the general path below makes it.
    if let (None, [c @ Value::String(_)]) = (base_name, args) {
        return class_reference(0, c);
    }
    let as_array = args.len() > 1 || matches!(args[0], Value::Array(_));
    let keys: Vec<Value> = flatten(args)
        .into_iter()
        .filter(|v| !v.is_undef())
        .collect();
    if keys.is_empty() {
        // Puppet's EMPTY_RESOURCE_SPECIALIZATION is not an error by default
        return Ok(if as_array {
            Value::array(Vec::new())
        } else {
            Value::Undef
        });
    }
    if base_name.is_some() {
        return Err(AccessError::whole(
            "access to the parameters of a class needs the catalog",
        ));
    }
    let mut refs = Vec::with_capacity(keys.len());
    for (i, c) in keys.iter().enumerate() {
        refs.push(class_reference(i, c)?);
    }
    Ok(if as_array {
        Value::array(refs)
    } else {
        refs.pop().unwrap()
    })
}

/// `Class[c]` for the `i`th key `c`.
fn class_reference(i: usize, c: &Value) -> Result<Value, AccessError> {
    let Value::String(s) = c else {
        return Err(AccessError::at(
            i,
            format!(
                "Illegal Class name in class reference. {} cannot be used where a String is expected",
                a_an_uc(&label_value(c))
            ),
        ));
    };
    let mut name = s.to_lowercase();
    if let Some(rest) = name.strip_prefix("::") {
        name = rest.to_string();
    }
    if !is_name(&name) {
        return Err(AccessError::at(
            i,
            format!(
                "Illegal name. The given name '{s}' does not conform to the naming rule /^((::)?[a-z_]\\w*)(::[a-z]\\w*)*$/"
            ),
        ));
    }
    Ok(Value::Type(Arc::new(T::Class(Some(name)))))
}

/// `Patterns::CLASSREF_EXT`: `\A((::){0,1}[A-Z][\w]*)+\z`.
pub fn is_classref_ext(s: &str) -> bool {
    let rest = s.strip_prefix("::").unwrap_or(s);
    !rest.is_empty()
        && rest.split_colons().all(|seg| {
            let mut cs = seg.chars();
            matches!(cs.next(), Some(c) if c.is_ascii_uppercase()) && cs.all(is_word_char)
        })
}

/// `Patterns::NAME`: `\A((::)?[a-z]\w*)(::[a-z]\w*)*\z`.
pub fn is_name(s: &str) -> bool {
    let rest = s.strip_prefix("::").unwrap_or(s);
    !rest.is_empty()
        && rest.split_colons().all(|seg| {
            let mut cs = seg.chars();
            matches!(cs.next(), Some(c) if c.is_ascii_lowercase()) && cs.all(is_word_char)
        })
}

/// Ruby's `\w` (Onigmo, UTF-8): letters, digits, marks and connector
/// punctuation of any script.
fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The name of the Ruby class of a value, as messages that print
/// `value.class` show it.
pub fn ruby_class(v: &Value) -> String {
    match v {
        Value::Undef => "NilClass".into(),
        Value::Default => "Symbol".into(),
        Value::Boolean(true) => "TrueClass".into(),
        Value::Boolean(false) => "FalseClass".into(),
        Value::Integer(_) => "Integer".into(),
        Value::Float(_) => "Float".into(),
        Value::String(_) => "String".into(),
        Value::Regexp(_) => "Regexp".into(),
        Value::Array(_) => "Array".into(),
        Value::Hash(_) => "Hash".into(),
        Value::Type(t) => ruby_type_class(t),
        Value::Sensitive(_) => "Puppet::Pops::Types::PSensitiveType::Sensitive".into(),
        Value::Deferred(_) => "Puppet::Pops::Types::Deferred".into(),
        Value::Object(o) => o.ty.label(),
        Value::Binary(_) => "Puppet::Pops::Types::PBinaryType::Binary".into(),
        Value::Timestamp(_) => "Puppet::Pops::Time::Timestamp".into(),
        Value::Timespan(_) => "Puppet::Pops::Time::Timespan".into(),
        Value::SemVer(_) => "SemanticPuppet::Version".into(),
        Value::SemVerRange(_) => "SemanticPuppet::VersionRange".into(),
        Value::Uri(u) => format!("URI::{}", u.class()),
        Value::Range(_) => "Range".into(),
    }
}

fn ruby_type_class(t: &PType) -> String {
    let simple = match t {
        T::Data | T::RichData | T::TypeAlias { .. } => "TypeAlias",
        T::Class(_) => "Class",
        T::Resource { .. } => "Resource",
        T::Uri(_) => "URI",
        other => other.simple_name(),
    };
    format!("Puppet::Pops::Types::P{simple}Type")
}

/// `bad_key_type_name`: `Undef`, `Default`, or the value's general type.
pub fn bad_key_type_name(v: &Value) -> String {
    match v {
        Value::Undef => "Undef".into(),
        Value::Default => "Default".into(),
        other => infer_generic(other).to_string(),
    }
}

/// Puppet's label of a type in messages: `Integer-Type`, `File-Type`,
/// `File['/x'] Resource-Reference`.
pub fn type_label(t: &PType) -> String {
    match t {
        T::Resource { title: Some(_), .. } => format!("{t} Resource-Reference"),
        _ => format!("{t}-Type"),
    }
}

/// Puppet's label of a value (`ModelLabelProvider`): `Integer`, `String`,
/// `Undef Value`, `Integer-Type`, ...
pub fn label_value(v: &Value) -> String {
    match v {
        Value::Undef => "Undef Value".into(),
        Value::Default => "Object".into(),
        Value::Boolean(_) => "Boolean".into(),
        Value::Integer(_) => "Integer".into(),
        Value::Float(_) => "Float".into(),
        Value::String(_) => "String".into(),
        Value::Regexp(_) => "Regexp".into(),
        Value::Array(_) => "Array".into(),
        Value::Hash(_) => "Hash".into(),
        Value::Type(t) => type_label(t),
        Value::Sensitive(_) => "Sensitive".into(),
        Value::Deferred(_) => "Deferred".into(),
        Value::Object(_) => "Object".into(),
        Value::Binary(_) => "Binary".into(),
        Value::Timestamp(_) => "Timestamp".into(),
        Value::Timespan(_) => "Timespan".into(),
        Value::SemVer(_) => "Semver".into(),
        Value::SemVerRange(_) => "SemverRange".into(),
        Value::Uri(_) => "URI".into(),
        Value::Range(_) => "Object".into(),
    }
}

/// `a`/`an` by the first letter (after a quote), as Puppet's label provider.
pub fn a_an(label: &str) -> String {
    format!("{} {label}", article(label))
}

/// `A`/`An` by the first letter.
pub fn a_an_uc(label: &str) -> String {
    let a = article(label);
    let mut cs = a.chars();
    let first = cs.next().unwrap().to_ascii_uppercase();
    format!("{first}{} {label}", cs.as_str())
}

fn article(label: &str) -> &'static str {
    let mut cs = label.chars();
    let mut c = cs.next();
    if matches!(c, Some('"' | '\'')) {
        c = cs.next();
    }
    match c.map(|c| c.to_ascii_lowercase()) {
        Some('a' | 'e' | 'i' | 'o' | 'u' | 'y') => "an",
        _ => "a",
    }
}
