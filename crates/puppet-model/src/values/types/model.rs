//! The shape of Puppet's types (`pops/types/types.rb`), with the
//! constructors that normalise the way Puppet's constructors do (sizes below
//! zero become zero, `Enum` values are sorted and unique, `Sensitive[Any]` is
//! `Sensitive`, ...).

use std::fmt;
use std::sync::{Arc, OnceLock};

use crate::values::Value;

/// An integer range as Puppet's `PIntegerType` holds it; `i64::MIN` and
/// `i64::MAX` stand for the unbounded ends (`default`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct IntRange {
    pub from: i64,
    pub to: i64,
}

impl IntRange {
    /// `Integer[0]`, the size of any collection.
    pub const DEFAULT_SIZE: IntRange = IntRange {
        from: 0,
        to: i64::MAX,
    };

    pub const fn new(from: i64, to: i64) -> IntRange {
        IntRange { from, to }
    }

    pub const fn exact(n: i64) -> IntRange {
        IntRange { from: n, to: n }
    }

    /// Puppet's `to_size`: a size range never starts below zero.
    pub fn to_size(self) -> IntRange {
        if self.from >= 0 {
            self
        } else {
            IntRange {
                from: 0,
                to: if self.to < 0 { 0 } else { self.to },
            }
        }
    }

    pub fn contains(&self, n: i64) -> bool {
        n >= self.from && n <= self.to
    }

    /// `Integer[a, b].assignable?(Integer[c, d])`.
    pub fn covers(&self, other: &IntRange) -> bool {
        self.from <= other.from && self.to >= other.to
    }

    pub fn is_unbounded(&self) -> bool {
        self.from == i64::MIN && self.to == i64::MAX
    }
}

/// One member of a `Struct`: the key is a literal name, optional when its key
/// type was `Optional[...]` (or the value type accepts undef).
#[derive(Clone, Debug, PartialEq)]
pub struct StructMember {
    pub name: String,
    /// The key type is `Optional[name]`: the key may be absent.
    pub optional_key: bool,
    pub value: PType,
}

/// The target of a type alias, set once when the alias is resolved. Aliases
/// may refer to themselves, so the cell is shared: every reference to the
/// alias holds the same cell. Equality is by the alias's name, as Puppet's.
#[derive(Clone, Default)]
pub struct AliasTarget(Arc<AliasCell>);

#[derive(Default)]
struct AliasCell {
    target: OnceLock<PType>,
    /// Does the target refer back to this alias (computed on first use)?
    recursive: OnceLock<bool>,
}

impl AliasTarget {
    pub fn new() -> AliasTarget {
        AliasTarget::default()
    }

    /// An alias already resolved to `t`.
    pub fn resolved(t: PType) -> AliasTarget {
        let a = AliasTarget::new();
        let _ = a.set(t);
        a
    }

    /// Sets the resolved type; `Err` if it was already set.
    pub fn set(&self, t: PType) -> Result<(), PType> {
        self.0.target.set(t)
    }

    pub fn get(&self) -> Option<&PType> {
        self.0.target.get()
    }

    pub(crate) fn ptr(&self) -> usize {
        Arc::as_ptr(&self.0) as usize
    }

    /// Whether the alias refers to itself, directly or through other aliases
    /// (Puppet's `self_recursion?`).
    pub fn is_recursive(&self) -> bool {
        match self.get() {
            None => false,
            Some(t) => *self.0.recursive.get_or_init(|| {
                let mut seen = Vec::new();
                refers_to(t, self.ptr(), &mut seen)
            }),
        }
    }
}

/// Whether `t` is, or holds, a type other than an alias or a Variant,
/// looking through aliases (Puppet's `AssertOtherTypeAcceptor`, which
/// refuses `type A = A` and aliases only of each other). An alias still
/// being resolved counts as another type, as Puppet's placeholder
/// (`PTypeReferenceType::DEFAULT`) does.
pub fn reaches_real_type(t: &PType) -> bool {
    fn walk(t: &PType, seen: &mut Vec<usize>) -> bool {
        match t {
            PType::TypeAlias { resolved, .. } => {
                if seen.contains(&resolved.ptr()) {
                    return false;
                }
                seen.push(resolved.ptr());
                resolved.get().is_none_or(|inner| walk(inner, seen))
            }
            PType::Variant(members) => members.iter().any(|m| walk(m, seen)),
            _ => true,
        }
    }
    walk(t, &mut Vec::new())
}

/// Does `t` contain the alias whose cell is at `target`?
fn refers_to(t: &PType, target: usize, seen: &mut Vec<usize>) -> bool {
    let mut found = false;
    t.for_each_child(&mut |c| {
        if found {
            return;
        }
        if let PType::TypeAlias { resolved, .. } = c {
            if resolved.ptr() == target {
                found = true;
                return;
            }
            if seen.contains(&resolved.ptr()) {
                return;
            }
            seen.push(resolved.ptr());
            if let Some(inner) = resolved.get() {
                if refers_to(inner, target, seen) {
                    found = true;
                    return;
                }
            }
        }
        if refers_to(c, target, seen) {
            found = true;
        }
    });
    found
}

impl fmt::Debug for AliasTarget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.get().is_some() {
            "<resolved>"
        } else {
            "<unresolved>"
        })
    }
}

/// A Puppet type.
#[derive(Clone, Debug)]
pub enum PType {
    Any,
    Undef,
    Default,
    /// The type of everything and nothing (`Array[0, 0]`'s element type).
    Unit,
    /// `NotUndef` / `NotUndef[T]`. `NotUndef[Any]` is `NotUndef`.
    NotUndef(Option<Box<PType>>),
    /// The built-in alias `Variant[ScalarData, Undef, Hash[String, Data], Array[Data]]`.
    Data,
    /// The built-in alias `Variant[Scalar, SemVerRange, Binary, Sensitive, Type,
    /// TypeSet, URI, Object, Undef, Default, Hash[RichDataKey, RichData], Array[RichData]]`.
    RichData,
    Scalar,
    ScalarData,
    Numeric,
    /// `Integer[from, to]`; `i64::MIN`/`i64::MAX` are the open ends.
    Integer {
        from: i64,
        to: i64,
    },
    /// `Float[from, to]`; infinities are the open ends.
    Float {
        from: f64,
        to: f64,
    },
    /// `String`, `String[min, max]`, or the type Puppet infers for one string
    /// value (printed `String`; `value` is set and `size` is not).
    String {
        size: Option<IntRange>,
        value: Option<String>,
    },
    /// `Enum[...]`: values sorted and unique, as Puppet keeps them.
    Enum {
        values: Vec<String>,
        case_insensitive: bool,
    },
    /// `Pattern[...]`: regex sources (Ruby syntax).
    Pattern(Vec<String>),
    Regexp(Option<String>),
    /// `Boolean`, `Boolean[true]`, `Boolean[false]`.
    Boolean(Option<bool>),
    Array {
        element: Box<PType>,
        size: Option<IntRange>,
    },
    Hash {
        key: Box<PType>,
        value: Box<PType>,
        size: Option<IntRange>,
    },
    Tuple {
        types: Vec<PType>,
        size: Option<IntRange>,
    },
    Struct(Vec<StructMember>),
    Optional(Option<Box<PType>>),
    Variant(Vec<PType>),
    Collection {
        size: Option<IntRange>,
    },
    Iterable(Option<Box<PType>>),
    Iterator(Option<Box<PType>>),
    /// `Callable[...]`: `params` is a `Tuple`; all `None` is plain `Callable`.
    Callable {
        params: Option<Box<PType>>,
        block: Option<Box<PType>>,
        return_type: Option<Box<PType>>,
    },
    /// `Type` / `Type[T]`.
    Type(Option<Box<PType>>),
    /// `Class` / `Class[name]` (a class reference; the name is downcased).
    Class(Option<String>),
    /// `Resource`, `File`, `File['/x']`: a resource type or reference. The
    /// type name is kept as written (Puppet compares it case-insensitively and
    /// prints it with capitalised segments).
    Resource {
        type_name: Option<Arc<str>>,
        title: Option<Arc<str>>,
    },
    CatalogEntry,
    Runtime {
        runtime: Option<String>,
        name: Option<String>,
    },
    /// `Sensitive` / `Sensitive[T]`; `Sensitive[Any]` is `Sensitive`.
    Sensitive(Option<Box<PType>>),
    /// `SemVer[ranges...]`: the ranges parsed, merged as Puppet merges them.
    SemVer(Vec<crate::values::semver::VersionRange>),
    SemVerRange,
    /// `Timestamp[from, to]`, bounds as given (not normalised to Puppet's format).
    Timestamp {
        from: Option<Box<Value>>,
        to: Option<Box<Value>>,
    },
    Timespan {
        from: Option<Box<Value>>,
        to: Option<Box<Value>>,
    },
    Binary,
    Uri(Option<Box<Value>>),
    /// `Init` / `Init[T, args...]`.
    Init {
        type_: Option<Box<PType>>,
        args: Vec<Value>,
    },
    /// An Object type, by name (`None` for the bare `Object`).
    Object(Option<String>),
    /// A declared Object type (`type Point = Object[{attributes => ...}]`).
    ObjectDef(std::sync::Arc<super::object::ObjectType>),
    /// A name that did not resolve to a type (Puppet's `PTypeReferenceType`).
    TypeReference(String),
    /// A named alias (`type Foo = ...`).
    TypeAlias {
        name: String,
        resolved: AliasTarget,
    },
}

use PType as T;

impl PType {
    /// Moves the type out, leaving `Any` (a type with a `Drop` cannot be
    /// moved out of by a pattern).
    pub fn take(&mut self) -> PType {
        std::mem::replace(self, T::Any)
    }

    pub const INTEGER: PType = T::Integer {
        from: i64::MIN,
        to: i64::MAX,
    };
    pub const FLOAT: PType = T::Float {
        from: f64::NEG_INFINITY,
        to: f64::INFINITY,
    };
    pub const STRING: PType = T::String {
        size: None,
        value: None,
    };

    pub fn integer(from: i64, to: i64) -> PType {
        T::Integer { from, to }
    }

    pub fn float(from: f64, to: f64) -> PType {
        T::Float { from, to }
    }

    /// `String[from, to]` (size made non-negative).
    pub fn string_sized(size: IntRange) -> PType {
        T::String {
            size: Some(size.to_size()),
            value: None,
        }
    }

    /// The type of exactly this string (printed `String`).
    pub fn string_value(s: impl Into<String>) -> PType {
        T::String {
            size: None,
            value: Some(s.into()),
        }
    }

    pub fn enumeration(values: Vec<String>, case_insensitive: bool) -> PType {
        let mut values = values;
        values.sort();
        values.dedup();
        T::Enum {
            values,
            case_insensitive,
        }
    }

    /// `Array[element, size]`; a `[0, 0]` size makes the element type `Unit`.
    pub fn array(element: PType, size: Option<IntRange>) -> PType {
        let size = size.map(IntRange::to_size);
        let element = if size == Some(IntRange::exact(0)) {
            T::Unit
        } else {
            element
        };
        T::Array {
            element: Box::new(element),
            size,
        }
    }

    pub fn array_of_any() -> PType {
        T::array(T::Any, None)
    }

    /// `Hash[key, value, size]`; a `[0, 0]` size makes both types `Unit`.
    pub fn hash(key: PType, value: PType, size: Option<IntRange>) -> PType {
        let size = size.map(IntRange::to_size);
        if size == Some(IntRange::exact(0)) {
            T::Hash {
                key: Box::new(T::Unit),
                value: Box::new(T::Unit),
                size,
            }
        } else {
            T::Hash {
                key: Box::new(key),
                value: Box::new(value),
                size,
            }
        }
    }

    pub fn hash_of_any() -> PType {
        T::hash(T::Any, T::Any, None)
    }

    /// The type of the empty hash, `Hash[0, 0]`.
    pub fn empty_hash() -> PType {
        T::hash(T::Unit, T::Unit, Some(IntRange::exact(0)))
    }

    /// The type of the empty array, `Array[0, 0]`.
    pub fn empty_array() -> PType {
        T::array(T::Unit, Some(IntRange::exact(0)))
    }

    pub fn tuple(types: Vec<PType>, size: Option<IntRange>) -> PType {
        T::Tuple {
            types,
            size: size.map(IntRange::to_size),
        }
    }

    pub fn collection(size: Option<IntRange>) -> PType {
        T::Collection {
            size: size.map(IntRange::to_size),
        }
    }

    pub fn optional(t: PType) -> PType {
        T::Optional(Some(Box::new(t)))
    }

    /// `NotUndef[T]`; `NotUndef[Any]` is `NotUndef`.
    pub fn not_undef(t: Option<PType>) -> PType {
        match t {
            None | Some(T::Any) => T::NotUndef(None),
            Some(t) => T::NotUndef(Some(Box::new(t))),
        }
    }

    /// `Sensitive[T]`: the contained type is generalised; `Any` is dropped.
    pub fn sensitive(t: Option<PType>) -> PType {
        match t.map(|t| t.generalize()) {
            None | Some(T::Any) => T::Sensitive(None),
            Some(t) => T::Sensitive(Some(Box::new(t))),
        }
    }

    pub fn type_of(t: PType) -> PType {
        T::Type(Some(Box::new(t)))
    }

    /// Puppet's `PVariantType.maybe_create`: nested variants flattened,
    /// duplicates removed, a single member returned as itself.
    pub fn variant(types: Vec<PType>) -> PType {
        let mut flat: Vec<PType> = Vec::with_capacity(types.len());
        for t in flatten_variants(types) {
            if !flat.contains(&t) {
                flat.push(t);
            }
        }
        if flat.len() == 1 {
            flat.pop().unwrap()
        } else {
            T::Variant(flat)
        }
    }

    /// A resource type (`File`) or reference (`File['/x']`).
    pub fn resource(type_name: impl Into<Arc<str>>, title: Option<Arc<str>>) -> PType {
        T::Resource {
            type_name: Some(type_name.into()),
            title,
        }
    }

    /// A new, not yet resolved alias; resolve it with `AliasTarget::set`.
    pub fn alias(name: impl Into<String>, resolved: AliasTarget) -> PType {
        T::TypeAlias {
            name: name.into(),
            resolved,
        }
    }

    /// Calls `f` on each type directly contained in this one (not through
    /// aliases).
    pub fn for_each_child(&self, f: &mut dyn FnMut(&PType)) {
        match self {
            T::NotUndef(Some(x))
            | T::Optional(Some(x))
            | T::Iterable(Some(x))
            | T::Iterator(Some(x))
            | T::Type(Some(x))
            | T::Sensitive(Some(x)) => f(x),
            T::Init { type_: Some(x), .. } => f(x),
            T::Array { element, .. } => f(element),
            T::Hash { key, value, .. } => {
                f(key);
                f(value)
            }
            T::Tuple { types, .. } | T::Variant(types) => types.iter().for_each(&mut *f),
            T::Struct(members) => members.iter().for_each(|m| f(&m.value)),
            T::Callable {
                params,
                block,
                return_type,
            } => {
                for x in [params, block, return_type].into_iter().flatten() {
                    f(x)
                }
            }
            _ => {}
        }
    }

    /// The simple name Puppet uses in messages (`Integer`, `Variant`, `File`
    /// for resource types, the alias name for aliases).
    pub fn name(&self) -> String {
        match self {
            T::Resource { .. } => "Resource".to_string(),
            T::Class(_) => "Class".to_string(),
            T::TypeAlias { name, .. } => name.clone(),
            T::Object(Some(n)) => n.clone(),
            T::ObjectDef(o) => o.label(),
            T::TypeReference(_) => "TypeReference".to_string(),
            other => other.simple_name().to_string(),
        }
    }

    /// Puppet's `simple_name`: the class name without `P` and `Type`.
    pub fn simple_name(&self) -> &'static str {
        match self {
            T::Any => "Any",
            T::Undef => "Undef",
            T::Default => "Default",
            T::Unit => "Unit",
            T::NotUndef(_) => "NotUndef",
            T::Data | T::RichData => "TypeAlias",
            T::Scalar => "Scalar",
            T::ScalarData => "ScalarData",
            T::Numeric => "Numeric",
            T::Integer { .. } => "Integer",
            T::Float { .. } => "Float",
            T::String { .. } => "String",
            T::Enum { .. } => "Enum",
            T::Pattern(_) => "Pattern",
            T::Regexp(_) => "Regexp",
            T::Boolean(_) => "Boolean",
            T::Array { .. } => "Array",
            T::Hash { .. } => "Hash",
            T::Tuple { .. } => "Tuple",
            T::Struct(_) => "Struct",
            T::Optional(_) => "Optional",
            T::Variant(_) => "Variant",
            T::Collection { .. } => "Collection",
            T::Iterable(_) => "Iterable",
            T::Iterator(_) => "Iterator",
            T::Callable { .. } => "Callable",
            T::Type(_) => "Type",
            T::Class(_) => "Class",
            T::Resource { .. } => "Resource",
            T::CatalogEntry => "CatalogEntry",
            T::Runtime { .. } => "Runtime",
            T::Sensitive(_) => "Sensitive",
            T::SemVer(_) => "SemVer",
            T::SemVerRange => "SemVerRange",
            T::Timestamp { .. } => "Timestamp",
            T::Timespan { .. } => "Timespan",
            T::Binary => "Binary",
            T::Uri(_) => "URI",
            T::Init { .. } => "Init",
            T::Object(_) | T::ObjectDef(_) => "Object",
            T::TypeReference(_) => "TypeReference",
            T::TypeAlias { .. } => "TypeAlias",
        }
    }

    /// Is this a (built-in or user) alias?
    pub fn is_alias(&self) -> bool {
        matches!(self, T::Data | T::RichData | T::TypeAlias { .. })
    }

    /// What an alias stands for (`Data`, `RichData` expanded one level; an
    /// unresolved user alias is `TypeReference[name]`). `None` for non-aliases.
    pub fn alias_target(&self) -> Option<PType> {
        match self {
            T::Data => Some(T::Variant(vec![
                T::ScalarData,
                T::Undef,
                T::hash(T::STRING, T::Data, None),
                T::array(T::Data, None),
            ])),
            T::RichData => Some(T::Variant(vec![
                T::Scalar,
                T::SemVerRange,
                T::Binary,
                T::Sensitive(None),
                T::Type(None),
                T::Object(Some("TypeSet".to_string())),
                T::Uri(None),
                T::Object(None),
                T::Undef,
                T::Default,
                T::hash(T::Variant(vec![T::STRING, T::Numeric]), T::RichData, None),
                T::array(T::RichData, None),
            ])),
            T::TypeAlias { name, resolved } => Some(
                resolved
                    .get()
                    .cloned()
                    .unwrap_or_else(|| T::TypeReference(name.clone())),
            ),
            _ => None,
        }
    }

    /// The size range of a collection type (`Integer[0]` when not given).
    pub fn size_range(&self) -> Option<IntRange> {
        match self {
            T::Array { size, .. } | T::Hash { size, .. } | T::Collection { size } => {
                Some(size.unwrap_or(IntRange::DEFAULT_SIZE))
            }
            T::Tuple { types, size } => Some(size.unwrap_or_else(|| tuple_size_range(types))),
            _ => None,
        }
    }

    /// Puppet's `generalize`: value-specific types become their general form.
    pub fn generalize(&self) -> PType {
        match self {
            T::Integer { .. } => T::INTEGER,
            T::Float { .. } => T::FLOAT,
            T::String { .. } => T::STRING,
            T::Boolean(_) => T::Boolean(None),
            T::SemVer(_) => T::SemVer(Vec::new()),
            T::Uri(_) => T::Uri(None),
            T::Timestamp { .. } => T::Timestamp {
                from: None,
                to: None,
            },
            T::Timespan { .. } => T::Timespan {
                from: None,
                to: None,
            },
            T::Collection { .. } => T::collection(None),
            T::Enum { values, .. } => {
                if values.is_empty() {
                    T::STRING
                } else {
                    let min = values.iter().map(|v| v.chars().count()).min().unwrap() as i64;
                    let max = values.iter().map(|v| v.chars().count()).max().unwrap() as i64;
                    T::string_sized(IntRange::new(min, max))
                }
            }
            T::Array { element, .. } => {
                if **element == T::Any {
                    T::array_of_any()
                } else {
                    T::array(element.generalize(), None)
                }
            }
            T::Hash { key, value, size } => {
                if self.is_default_hash() || self.is_empty_hash() {
                    self.clone()
                } else {
                    let _ = size;
                    T::hash(key.generalize(), value.generalize(), None)
                }
            }
            T::Tuple { types, size } => {
                if types.is_empty() && size.is_none() {
                    self.clone()
                } else {
                    T::Tuple {
                        types: types.iter().map(|t| t.generalize()).collect(),
                        size: *size,
                    }
                }
            }
            T::Struct(members) => T::Struct(
                members
                    .iter()
                    .map(|m| StructMember {
                        value: m.value.generalize(),
                        ..m.clone()
                    })
                    .collect(),
            ),
            T::Variant(types) => {
                if types.is_empty() {
                    self.clone()
                } else {
                    T::variant(types.iter().map(|t| t.generalize()).collect())
                }
            }
            T::Optional(Some(t)) => T::Optional(Some(Box::new(t.generalize()))),
            T::NotUndef(Some(t)) => T::NotUndef(Some(Box::new(t.generalize()))),
            T::Type(Some(t)) => T::Type(Some(Box::new(t.generalize()))),
            T::Iterable(Some(t)) => T::Iterable(Some(Box::new(t.generalize()))),
            T::Iterator(Some(t)) => T::Iterator(Some(Box::new(t.generalize()))),
            T::Sensitive(Some(t)) => T::Sensitive(Some(Box::new(t.generalize()))),
            T::Callable {
                params,
                block,
                return_type,
            } => T::Callable {
                params: params.as_ref().map(|t| Box::new(t.generalize())),
                block: block.as_ref().map(|t| Box::new(t.generalize())),
                return_type: return_type.as_ref().map(|t| Box::new(t.generalize())),
            },
            // An Object type extension (`P[1]`) generalizes to its base.
            T::ObjectDef(o) if o.extension.is_some() => T::ObjectDef(o.base()),
            other => other.clone(),
        }
    }

    /// Puppet's `normalize`: `Optional[NotUndef[T]]` and friends simplified,
    /// variants flattened with their enums, patterns and ranges merged.
    pub fn normalize(&self) -> PType {
        normalize(self, 0)
    }

    pub(crate) fn is_default_hash(&self) -> bool {
        matches!(self, T::Hash { key, value, size: None } if **key == T::Any && **value == T::Any)
    }

    pub(crate) fn is_empty_hash(&self) -> bool {
        matches!(self, T::Hash { size: Some(s), .. } if *s == IntRange::exact(0))
    }

    /// The string value of a `String` type that has one.
    pub(crate) fn value_str(&self) -> Option<&str> {
        match self {
            T::String { value: Some(v), .. } => Some(v),
            _ => None,
        }
    }
}

/// The size range of a tuple without an explicit size: its type count, or
/// `[0, inf]` for the empty tuple.
pub fn tuple_size_range(types: &[PType]) -> IntRange {
    if types.is_empty() {
        IntRange::DEFAULT_SIZE
    } else {
        IntRange::exact(types.len() as i64)
    }
}

fn flatten_variants(types: Vec<PType>) -> Vec<PType> {
    let mut out = Vec::with_capacity(types.len());
    for mut t in types {
        match &mut t {
            T::Variant(inner) => out.append(inner),
            _ => out.push(t),
        }
    }
    out
}

fn normalize(t: &PType, depth: usize) -> PType {
    if depth > 64 {
        return t.clone();
    }
    let n = |x: &PType| normalize(x, depth + 1);
    match t {
        T::NotUndef(None) => t.clone(),
        T::NotUndef(Some(inner)) => {
            let mut inner = n(inner);
            match &mut inner {
                T::Optional(None) => T::NotUndef(None),
                T::Optional(Some(x)) => normalize(&T::not_undef(Some(x.take())), depth + 1),
                _ => {
                    if !crate::values::types::is_assignable(&inner, &T::Undef) {
                        inner
                    } else {
                        T::not_undef(Some(inner))
                    }
                }
            }
        }
        T::Optional(None) => t.clone(),
        T::Optional(Some(inner)) => {
            let mut inner = n(inner);
            match &mut inner {
                T::NotUndef(x) => normalize(&T::Optional(x.take()), depth + 1),
                _ => {
                    if crate::values::types::is_assignable(&inner, &T::Undef) {
                        inner
                    } else {
                        T::optional(inner)
                    }
                }
            }
        }
        T::Type(Some(x)) => T::Type(Some(Box::new(n(x)))),
        T::Iterable(Some(x)) => T::Iterable(Some(Box::new(n(x)))),
        T::Iterator(Some(x)) => T::Iterator(Some(Box::new(n(x)))),
        T::Sensitive(Some(x)) => T::Sensitive(Some(Box::new(n(x)))),
        T::Array { element, size } => {
            if **element == T::Any {
                T::array_of_any()
            } else {
                T::Array {
                    element: Box::new(n(element)),
                    size: *size,
                }
            }
        }
        T::Hash { key, value, size } => {
            if t.is_default_hash() || t.is_empty_hash() {
                t.clone()
            } else {
                T::Hash {
                    key: Box::new(n(key)),
                    value: Box::new(n(value)),
                    size: *size,
                }
            }
        }
        T::Tuple { types, size } => T::Tuple {
            types: types.iter().map(n).collect(),
            size: *size,
        },
        T::Struct(members) => T::Struct(
            members
                .iter()
                .map(|m| StructMember {
                    value: n(&m.value),
                    ..m.clone()
                })
                .collect(),
        ),
        T::Callable {
            params,
            block,
            return_type,
        } => T::Callable {
            params: params.as_ref().map(|x| Box::new(n(x))),
            block: block.as_ref().map(|x| Box::new(n(x))),
            return_type: return_type.as_ref().map(|x| Box::new(n(x))),
        },
        T::Variant(types) => normalize_variant(types, depth),
        _ => t.clone(),
    }
}

fn normalize_variant(types: &[PType], depth: usize) -> PType {
    if types.is_empty() {
        return T::Variant(Vec::new());
    }
    let types: Vec<PType> = types.iter().map(|x| normalize(x, depth + 1)).collect();
    if types.len() == 1 {
        return types.into_iter().next().unwrap();
    }
    if types.iter().any(|x| matches!(x, T::Undef | T::Optional(_))) {
        let rest: Vec<PType> = types
            .into_iter()
            .filter(|x| !matches!(x, T::Undef))
            .map(|mut x| match &mut x {
                T::Optional(Some(inner)) => inner.take(),
                T::Optional(None) => T::Any,
                _ => x,
            })
            .collect();
        let inner = T::variant(rest);
        return normalize(&T::optional(inner), depth + 1);
    }
    let mut types = flatten_variants(types);
    // several NotUndefs become one
    if types.iter().filter(|x| matches!(x, T::NotUndef(_))).count() > 1 {
        let (not_undefs, mut others): (Vec<PType>, Vec<PType>) =
            types.into_iter().partition(|x| matches!(x, T::NotUndef(_)));
        let inner = T::variant(
            not_undefs
                .into_iter()
                .map(|mut x| match &mut x {
                    T::NotUndef(Some(i)) => i.take(),
                    _ => T::Any,
                })
                .collect(),
        )
        .normalize();
        others.push(T::not_undef(Some(inner)));
        types = others;
    }
    // enums (case sensitive) and string values
    let is_cs_enum = |x: &PType| {
        matches!(x, T::Enum { values, case_insensitive: false } if !values.is_empty())
            || matches!(x, T::String { value: Some(_), .. })
    };
    if types.len() > 1 && types.iter().filter(|x| is_cs_enum(x)).count() > 1 {
        let (enums, mut rest): (Vec<PType>, Vec<PType>) =
            types.into_iter().partition(|x| is_cs_enum(x));
        let mut values = Vec::new();
        for mut e in enums {
            match &mut e {
                T::Enum { values: v, .. } => values.append(v),
                T::String { value: Some(v), .. } => values.push(std::mem::take(v)),
                _ => {}
            }
        }
        rest.push(T::enumeration(values, false));
        types = rest;
    }
    let is_ci_enum =
        |x: &PType| matches!(x, T::Enum { values, case_insensitive: true } if !values.is_empty());
    if types.len() > 1 && types.iter().filter(|x| is_ci_enum(x)).count() > 1 {
        let (enums, mut rest): (Vec<PType>, Vec<PType>) =
            types.into_iter().partition(|x| is_ci_enum(x));
        let mut values = Vec::new();
        for e in enums {
            if let T::Enum { values: v, .. } = &e {
                values.extend(v.iter().map(|s| s.to_lowercase()));
            }
        }
        rest.push(T::enumeration(values, true));
        types = rest;
    }
    if types.len() > 1 && types.iter().filter(|x| matches!(x, T::Pattern(_))).count() > 1 {
        let (pats, mut rest): (Vec<PType>, Vec<PType>) =
            types.into_iter().partition(|x| matches!(x, T::Pattern(_)));
        let mut all: Vec<String> = Vec::new();
        for mut p in pats {
            if let T::Pattern(v) = &mut p {
                for s in std::mem::take(v) {
                    if !all.contains(&s) {
                        all.push(s);
                    }
                }
            }
        }
        rest.push(T::Pattern(all));
        types = rest;
    }
    types = merge_integer_ranges(types);
    types = merge_float_ranges(types);
    if types.len() == 1 {
        types.pop().unwrap()
    } else {
        T::variant(types)
    }
}

fn merge_integer_ranges(types: Vec<PType>) -> Vec<PType> {
    let count = types
        .iter()
        .filter(|x| matches!(x, T::Integer { .. }))
        .count();
    if types.len() <= 1 || count <= 1 {
        return types;
    }
    let (mut ranges, rest): (Vec<PType>, Vec<PType>) = types
        .into_iter()
        .partition(|x| matches!(x, T::Integer { .. }));
    let mut result = Vec::new();
    while let Some(x) = ranges.pop() {
        let T::Integer {
            from: mut f,
            to: mut t,
        } = x
        else {
            unreachable!()
        };
        let mut unmerged = Vec::new();
        for y in ranges.drain(..) {
            let T::Integer { from: yf, to: yt } = y else {
                unreachable!()
            };
            let intersect = !(t < yf || yt < f);
            let adjacent = t.checked_add(1) == Some(yf) || yt.checked_add(1) == Some(f);
            if intersect || adjacent {
                f = f.min(yf);
                t = t.max(yt);
            } else {
                unmerged.push(y);
            }
        }
        result.push(T::Integer { from: f, to: t });
        ranges = unmerged;
    }
    result.extend(rest);
    result
}

fn merge_float_ranges(types: Vec<PType>) -> Vec<PType> {
    let count = types
        .iter()
        .filter(|x| matches!(x, T::Float { .. }))
        .count();
    if types.len() <= 1 || count <= 1 {
        return types;
    }
    let (mut ranges, rest): (Vec<PType>, Vec<PType>) = types
        .into_iter()
        .partition(|x| matches!(x, T::Float { .. }));
    let mut result = Vec::new();
    while let Some(x) = ranges.pop() {
        let T::Float {
            from: mut f,
            to: mut t,
        } = x
        else {
            unreachable!()
        };
        let mut unmerged = Vec::new();
        for y in ranges.drain(..) {
            let T::Float { from: yf, to: yt } = y else {
                unreachable!()
            };
            if !(t < yf || yt < f) {
                f = f.min(yf);
                t = t.max(yt);
            } else {
                unmerged.push(y);
            }
        }
        result.push(T::Float { from: f, to: t });
        ranges = unmerged;
    }
    result.extend(rest);
    result
}

/// Type equality as Puppet's `eql?`: variants and patterns regardless of
/// order, resource type names case-insensitively, aliases by name.
impl PartialEq for PType {
    fn eq(&self, other: &PType) -> bool {
        match (self, other) {
            (T::Any, T::Any)
            | (T::Undef, T::Undef)
            | (T::Default, T::Default)
            | (T::Unit, T::Unit)
            | (T::Data, T::Data)
            | (T::RichData, T::RichData)
            | (T::Scalar, T::Scalar)
            | (T::ScalarData, T::ScalarData)
            | (T::Numeric, T::Numeric)
            | (T::CatalogEntry, T::CatalogEntry)
            | (T::SemVerRange, T::SemVerRange)
            | (T::Binary, T::Binary) => true,
            (T::NotUndef(a), T::NotUndef(b))
            | (T::Optional(a), T::Optional(b))
            | (T::Iterable(a), T::Iterable(b))
            | (T::Iterator(a), T::Iterator(b))
            | (T::Type(a), T::Type(b))
            | (T::Sensitive(a), T::Sensitive(b)) => a == b,
            (T::Integer { from: a, to: b }, T::Integer { from: c, to: d }) => a == c && b == d,
            (T::Float { from: a, to: b }, T::Float { from: c, to: d }) => a == c && b == d,
            (T::String { size: a, value: b }, T::String { size: c, value: d }) => a == c && b == d,
            (
                T::Enum {
                    values: a,
                    case_insensitive: b,
                },
                T::Enum {
                    values: c,
                    case_insensitive: d,
                },
            ) => a == c && b == d,
            (T::Pattern(a), T::Pattern(b)) => a.len() == b.len() && a.iter().all(|x| b.contains(x)),
            (T::Regexp(a), T::Regexp(b)) => a == b,
            (T::Boolean(a), T::Boolean(b)) => a == b,
            (
                T::Array {
                    element: a,
                    size: b,
                },
                T::Array {
                    element: c,
                    size: d,
                },
            ) => a == c && b == d,
            (
                T::Hash {
                    key: a,
                    value: b,
                    size: c,
                },
                T::Hash {
                    key: d,
                    value: e,
                    size: f,
                },
            ) => a == d && b == e && c == f,
            (T::Tuple { types: a, size: b }, T::Tuple { types: c, size: d }) => a == c && b == d,
            (T::Struct(a), T::Struct(b)) => a == b,
            (T::Variant(a), T::Variant(b)) => a.len() == b.len() && a.iter().all(|x| b.contains(x)),
            (T::Collection { size: a }, T::Collection { size: b }) => a == b,
            (
                T::Callable {
                    params: a,
                    block: b,
                    return_type: c,
                },
                T::Callable {
                    params: d,
                    block: e,
                    return_type: f,
                },
            ) => a == d && b == e && c == f,
            (T::Class(a), T::Class(b)) => a == b,
            (
                T::Resource {
                    type_name: a,
                    title: b,
                },
                T::Resource {
                    type_name: c,
                    title: d,
                },
            ) => {
                b == d
                    && match (a, c) {
                        (None, None) => true,
                        (Some(x), Some(y)) => x.to_lowercase() == y.to_lowercase(),
                        _ => false,
                    }
            }
            (
                T::Runtime {
                    runtime: a,
                    name: b,
                },
                T::Runtime {
                    runtime: c,
                    name: d,
                },
            ) => a == c && b == d,
            (T::SemVer(a), T::SemVer(b)) => a == b,
            (T::Timestamp { from: a, to: b }, T::Timestamp { from: c, to: d })
            | (T::Timespan { from: a, to: b }, T::Timespan { from: c, to: d }) => a == c && b == d,
            (T::Uri(a), T::Uri(b)) => a == b,
            (T::Init { type_: a, args: b }, T::Init { type_: c, args: d }) => a == c && b == d,
            (T::Object(a), T::Object(b)) => a == b,
            (T::ObjectDef(a), T::ObjectDef(b)) => a == b,
            (T::TypeReference(a), T::TypeReference(b)) => a == b,
            (T::TypeAlias { name: a, .. }, T::TypeAlias { name: b, .. }) => a == b,
            _ => false,
        }
    }
}

/// Hashing consistent with [`PType`]'s equality (order-insensitive where the
/// equality is, resource type names by lower case).
impl std::hash::Hash for PType {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        std::mem::discriminant(self).hash(state);
        match self {
            T::Integer { from, to } => (from, to).hash(state),
            T::String { size, value } => (size, value).hash(state),
            T::Enum {
                values,
                case_insensitive,
            } => (values, case_insensitive).hash(state),
            T::Pattern(ps) => ps.len().hash(state),
            T::Variant(ts) => ts.len().hash(state),
            T::Regexp(p) => p.hash(state),
            T::Boolean(b) => b.hash(state),
            T::NotUndef(x)
            | T::Optional(x)
            | T::Iterable(x)
            | T::Iterator(x)
            | T::Type(x)
            | T::Sensitive(x) => x.hash(state),
            T::Array { element, size } => (element, size).hash(state),
            T::Hash { key, value, size } => (key, value, size).hash(state),
            T::Tuple { types, size } => (types, size).hash(state),
            T::Struct(members) => {
                for m in members {
                    (&m.name, m.optional_key, &m.value).hash(state);
                }
            }
            T::Collection { size } => size.hash(state),
            T::Class(name) => name.hash(state),
            T::Resource { type_name, title } => {
                (type_name.as_ref().map(|n| n.to_lowercase()), title).hash(state)
            }
            T::Runtime { runtime, name } => (runtime, name).hash(state),
            T::SemVer(r) => r.hash(state),
            T::Object(n) => n.hash(state),
            T::ObjectDef(o) => o.name.hash(state),
            T::TypeReference(n) | T::TypeAlias { name: n, .. } => n.hash(state),
            _ => {}
        }
    }
}

impl Eq for PType {}
