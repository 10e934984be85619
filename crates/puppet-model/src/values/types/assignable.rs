//! Puppet's `assignable?`: is every instance of `other` an instance of `t`?
//! Follows `PAnyType#assignable?` (the decomposition of `other`) and each
//! type's `_assignable?`, with Puppet's recursion guard for self-referring
//! aliases (`Data`, `RichData`, user aliases).

/// `Undef` as a static: a type with a `Drop` is not promoted to one.
static UNDEF: PType = PType::Undef;

use super::model::{tuple_size_range, IntRange, PType, StructMember};
use crate::values::Value;

use PType as T;

/// Puppet's `t.assignable?(other)`; also the language's `<=` on types.
pub fn is_assignable(t: &PType, other: &PType) -> bool {
    Guard::default().assignable(t, other)
}

const THIS: u8 = 1;
const THAT: u8 = 2;
const BOTH: u8 = 3;

/// Puppet's `RecursionGuard`, keyed by alias identity.
#[derive(Default)]
pub(crate) struct Guard {
    this: Vec<String>,
    that: Vec<String>,
    state: u8,
    depth: usize,
}

/// The identity of an alias, or `None` for other types. Only self-recursive
/// aliases are guarded, as in Puppet.
fn recursive_alias_key(t: &PType) -> Option<String> {
    match t {
        T::Data => Some("Data".to_string()),
        T::RichData => Some("RichData".to_string()),
        T::TypeAlias { resolved, .. } if resolved.is_recursive() => {
            Some(format!("alias@{}", resolved.ptr()))
        }
        _ => None,
    }
}

impl Guard {
    fn with_this<R>(&mut self, key: String, f: impl FnOnce(&mut Guard, u8) -> R) -> R {
        if self.state & THIS == 0 {
            if self.this.contains(&key) {
                self.state |= THIS;
            } else {
                self.this.push(key);
                let st = self.state;
                let r = f(self, st);
                self.state &= !THIS;
                self.this.pop();
                return r;
            }
        }
        let st = self.state;
        f(self, st)
    }

    fn add_that(&mut self, key: String) -> u8 {
        if self.state & THAT == 0 {
            if self.that.contains(&key) {
                self.state |= THAT;
            } else {
                self.that.push(key);
            }
        }
        self.state
    }

    pub(crate) fn assignable(&mut self, t: &PType, o: &PType) -> bool {
        self.depth += 1;
        let r = if self.depth > 500 {
            false
        } else {
            self.assignable_inner(t, o)
        };
        self.depth -= 1;
        r
    }

    fn assignable_inner(&mut self, t: &PType, o: &PType) -> bool {
        match t {
            T::Unit => true,
            T::Variant(types) => {
                if matches!(o, T::Undef) && types.is_empty() {
                    return false;
                }
                match o {
                    T::Variant(ots) => {
                        if types.is_empty() {
                            return true;
                        }
                        !ots.is_empty() && ots.iter().all(|vt| self.generic(t, vt))
                    }
                    _ => self.generic(t, o),
                }
            }
            T::Data | T::RichData | T::TypeAlias { .. } => match recursive_alias_key(t) {
                Some(key) => {
                    self.with_this(
                        key,
                        |g, state| {
                            if state == BOTH {
                                true
                            } else {
                                g.generic(t, o)
                            }
                        },
                    )
                }
                None => self.generic(t, o),
            },
            _ => self.generic(t, o),
        }
    }

    /// `PAnyType#assignable?`: take `other` apart, then `_assignable?`.
    fn generic(&mut self, t: &PType, o: &PType) -> bool {
        match o {
            T::Unit => true,
            T::Data | T::RichData | T::TypeAlias { .. } => {
                let target = o.alias_target().unwrap();
                match recursive_alias_key(o) {
                    Some(key) => {
                        if self.add_that(key) == BOTH {
                            true
                        } else {
                            self.assignable(t, &target)
                        }
                    }
                    None => self.assignable(t, &target),
                }
            }
            T::Variant(types) => {
                if matches!(t, T::Any) {
                    return true;
                }
                if matches!(t, T::NotUndef(_)) && types.is_empty() {
                    return self.specific(t, o);
                }
                !types.is_empty() && types.iter().all(|vt| self.assignable(t, vt))
            }
            T::Optional(inner) => {
                self.assignable(t, &T::Undef)
                    && match inner {
                        None => true,
                        Some(x) => self.assignable(t, x),
                    }
            }
            T::NotUndef(inner) => match inner {
                Some(x) if !self.assignable(x, &T::Undef) => self.assignable(t, x),
                _ => self.specific(t, o),
            },
            _ => self.specific(t, o),
        }
    }

    /// Each type's `_assignable?`.
    fn specific(&mut self, t: &PType, o: &PType) -> bool {
        match t {
            T::Any | T::Unit => true,
            T::Undef => matches!(o, T::Undef),
            T::Default => matches!(o, T::Default),
            T::NotUndef(inner) => {
                !self.assignable(o, &T::Undef)
                    && match inner {
                        None => true,
                        Some(x) => self.assignable(x, o),
                    }
            }
            T::Data | T::RichData | T::TypeAlias { .. } => {
                let target = t.alias_target().unwrap();
                self.assignable(&target, o)
            }
            T::Scalar => is_scalar_type(o),
            T::ScalarData => is_scalar_data_type(o),
            T::Numeric => matches!(o, T::Numeric | T::Integer { .. } | T::Float { .. }),
            T::Integer { from, to } => {
                matches!(o, T::Integer { from: f, to: tt } if from <= f && to >= tt)
            }
            T::Float { from, to } => {
                matches!(o, T::Float { from: f, to: tt } if from <= f && to >= tt)
            }
            T::Enum {
                values,
                case_insensitive,
            } => {
                if t == o {
                    return true;
                }
                if values.is_empty()
                    && matches!(o, T::String { .. } | T::Enum { .. } | T::Pattern(_))
                {
                    return true;
                }
                match o {
                    T::String { value: Some(v), .. } => enum_has(values, *case_insensitive, v),
                    T::Enum {
                        values: ov,
                        case_insensitive: oci,
                    } => {
                        !ov.is_empty()
                            && (*case_insensitive || !*oci)
                            && ov.iter().all(|s| enum_has(values, *case_insensitive, s))
                    }
                    _ => false,
                }
            }
            T::String { size, value } => string_assignable(*size, value.as_deref(), o),
            T::Pattern(patterns) => {
                if t == o {
                    return true;
                }
                match o {
                    T::String { value, .. } => match value {
                        None => patterns.is_empty(),
                        Some(v) => {
                            patterns.is_empty()
                                || patterns.iter().any(|p| super::regex::is_match(p, v))
                        }
                    },
                    T::Enum { values, .. } => {
                        if values.is_empty() {
                            patterns.is_empty()
                        } else {
                            patterns.is_empty()
                                || values
                                    .iter()
                                    .all(|s| patterns.iter().any(|p| super::regex::is_match(p, s)))
                        }
                    }
                    T::Pattern(_) => patterns.is_empty(),
                    _ => false,
                }
            }
            T::Regexp(p) => matches!(o, T::Regexp(op) if p.is_none() || p == op),
            T::Boolean(v) => matches!(o, T::Boolean(ov) if v.is_none() || v == ov),
            T::Collection { size } => {
                let size_s = size.unwrap_or(IntRange::DEFAULT_SIZE);
                match o {
                    T::Collection { size: os }
                    | T::Array { size: os, .. }
                    | T::Hash { size: os, .. } => {
                        size_s.covers(&os.unwrap_or(IntRange::DEFAULT_SIZE))
                    }
                    T::Tuple { types, size: os } => {
                        size_s.covers(&os.unwrap_or(IntRange::exact(types.len() as i64)))
                    }
                    T::Struct(members) => size_s.covers(&IntRange::exact(members.len() as i64)),
                    _ => false,
                }
            }
            T::Array { element, size } => match o {
                T::Tuple { types, size: os } => {
                    let size_s = size.unwrap_or(IntRange::DEFAULT_SIZE);
                    let size_o = os.unwrap_or(IntRange::exact(types.len() as i64));
                    size_s.covers(&size_o) && types.iter().all(|ot| self.assignable(element, ot))
                }
                T::Array {
                    element: oe,
                    size: os,
                } => {
                    size.unwrap_or(IntRange::DEFAULT_SIZE)
                        .covers(&os.unwrap_or(IntRange::DEFAULT_SIZE))
                        && self.assignable(element, oe)
                }
                _ => false,
            },
            T::Hash { key, value, size } => match o {
                T::Hash {
                    key: ok,
                    value: ov,
                    size: os,
                } => {
                    if size.is_none_or(|s| s.from == 0) && o.is_empty_hash() {
                        return true;
                    }
                    self.assignable(key, ok)
                        && self.assignable(value, ov)
                        && size
                            .unwrap_or(IntRange::DEFAULT_SIZE)
                            .covers(&os.unwrap_or(IntRange::DEFAULT_SIZE))
                }
                T::Struct(members) => {
                    size.unwrap_or(IntRange::DEFAULT_SIZE)
                        .contains(members.len() as i64)
                        && members.iter().all(|m| {
                            super::is_instance(key, &crate::values::Value::string(m.name.as_str()))
                                && self.assignable(value, &m.value)
                        })
                }
                _ => false,
            },
            T::Tuple { types, size } => self.tuple_assignable(t, types, *size, o),
            T::Struct(members) => self.struct_assignable(members, o),
            T::Optional(inner) => match o {
                T::Undef => true,
                _ => match inner {
                    None => true,
                    Some(x) => match o {
                        T::Optional(Some(ox)) => self.assignable(x, ox),
                        T::Optional(None) => true,
                        _ => self.assignable(x, o),
                    },
                },
            },
            T::Variant(types) => types.iter().any(|vt| self.assignable(vt, o)),
            T::Iterable(elem) => {
                let any_elem = match elem {
                    None => true,
                    Some(e) => self.assignable(e, &T::Any),
                };
                if any_elem {
                    is_iterable(o)
                } else {
                    match iterable_element_type(o) {
                        Some(oe) => self.assignable(elem.as_deref().unwrap(), &oe),
                        None => false,
                    }
                }
            }
            T::Iterator(elem) => match o {
                T::Iterator(oe) => match elem {
                    None => true,
                    Some(e) => self.assignable(e, oe.as_deref().unwrap_or(&T::Any)),
                },
                _ => false,
            },
            T::Callable {
                params,
                block,
                return_type,
            } => match o {
                T::Callable {
                    params: op,
                    block: ob,
                    return_type: or,
                } => {
                    if let Some(r) = return_type {
                        if !self.assignable(r, or.as_deref().unwrap_or(&T::Any)) {
                            return false;
                        }
                    }
                    let Some(p) = params else { return true };
                    let Some(op) = op else { return false };
                    if !self.assignable(op, p) {
                        return false;
                    }
                    let this_block = block.as_deref().unwrap_or(&UNDEF);
                    let that_block = ob.as_deref().unwrap_or(&UNDEF);
                    self.assignable(that_block, this_block)
                }
                _ => false,
            },
            T::Type(inner) => match o {
                T::Type(oi) => match (inner, oi) {
                    (None, _) => true,
                    (Some(_), None) => false,
                    (Some(x), Some(y)) => self.assignable(x, y),
                },
                _ => false,
            },
            T::Class(name) => match o {
                T::Class(on) => name.is_none() || name == on,
                _ => false,
            },
            T::Resource { type_name, title } => match o {
                T::Resource {
                    type_name: otn,
                    title: ot,
                } => match type_name {
                    None => true,
                    Some(n) => {
                        otn.as_deref().map(|x| x.to_lowercase()) == Some(n.to_lowercase())
                            && (title.is_none() || title == ot)
                    }
                },
                _ => false,
            },
            T::CatalogEntry => matches!(o, T::CatalogEntry | T::Class(_) | T::Resource { .. }),
            T::Runtime { runtime, name } => match o {
                T::Runtime {
                    runtime: or,
                    name: on,
                } => (runtime.is_none() || runtime == or) && (name.is_none() || name == on),
                _ => false,
            },
            T::Sensitive(inner) => match o {
                T::Sensitive(oi) => self.assignable(
                    inner.as_deref().unwrap_or(&T::Any),
                    oi.as_deref().unwrap_or(&T::Any),
                ),
                _ => false,
            },
            T::SemVer(ranges) => match o {
                // Every range of `o` covered by one of ours.
                T::SemVer(or) => {
                    ranges.is_empty()
                        || (!or.is_empty()
                            && or.iter().all(|o| ranges.iter().any(|r| o.covered_by(r))))
                }
                _ => false,
            },
            T::SemVerRange => matches!(o, T::SemVerRange),
            // Range inclusion, an absent bound unbounded.
            T::Timestamp { from, to } => match o {
                T::Timestamp { from: of, to: ot } => time_range_within(from, to, of, ot),
                _ => false,
            },
            T::Timespan { from, to } => match o {
                T::Timespan { from: of, to: ot } => time_range_within(from, to, of, ot),
                _ => false,
            },
            T::Binary => matches!(o, T::Binary),
            T::Uri(p) => matches!(o, T::Uri(op) if p.is_none() || p == op),
            T::Init { type_, .. } => match (type_, o) {
                (None, T::Init { .. }) => true,
                (
                    Some(x),
                    T::Init {
                        type_: Some(ox), ..
                    },
                ) => self.assignable(x, ox),
                (Some(_), T::Init { type_: None, .. }) => false,
                (None, _) => self.assignable(&T::RichData, o),
                (Some(x), _) => self.assignable(x, o),
            },
            T::Object(name) => match o {
                T::Object(on) => name.is_none() || name == on,
                T::ObjectDef(_) => name.is_none(),
                _ => false,
            },
            T::ObjectDef(od) => match o {
                T::ObjectDef(x) => od.takes(x),
                _ => false,
            },
            T::TypeReference(_) => t == o,
        }
    }

    fn tuple_assignable(
        &mut self,
        t: &PType,
        s_types: &[PType],
        size: Option<IntRange>,
        o: &PType,
    ) -> bool {
        if t == o {
            return true;
        }
        let size_s = size.unwrap_or_else(|| tuple_size_range(s_types));
        match o {
            T::Tuple {
                types: o_types,
                size: os,
            } => {
                let size_o = os.unwrap_or_else(|| tuple_size_range(o_types));
                if !size_s.covers(&size_o) {
                    return false;
                }
                if !s_types.is_empty() {
                    if o_types.is_empty() {
                        return size_s.from == 0;
                    }
                    for (i, ot) in o_types.iter().enumerate() {
                        let st = s_types.get(i).unwrap_or_else(|| s_types.last().unwrap());
                        if !self.assignable(st, ot) {
                            return false;
                        }
                    }
                }
                true
            }
            T::Array { element, size: os } => {
                let size_o = os.unwrap_or(IntRange::DEFAULT_SIZE);
                if !size_s.covers(&size_o) {
                    return false;
                }
                if !s_types.is_empty() {
                    let n = (s_types.len() as i64).min(size_o.to).max(0) as usize;
                    for i in 0..n {
                        let st = s_types.get(i).unwrap_or_else(|| s_types.last().unwrap());
                        if !self.assignable(st, element) {
                            return false;
                        }
                    }
                }
                true
            }
            _ => false,
        }
    }

    fn struct_assignable(&mut self, members: &[StructMember], o: &PType) -> bool {
        match o {
            T::Struct(others) => {
                let mut matched = 0;
                for e1 in members {
                    match others.iter().find(|e2| e2.name == e1.name) {
                        None => {
                            if !e1.optional_key {
                                return false;
                            }
                        }
                        Some(e2) => {
                            matched += 1;
                            // an optional key accepts both; a required one only a required one
                            let keys_ok = e1.optional_key || !e2.optional_key;
                            if !keys_ok || !self.assignable(&e1.value, &e2.value) {
                                return false;
                            }
                        }
                    }
                }
                matched == others.len()
            }
            T::Hash { key, value, size } => {
                let mut required = 0i64;
                for e in members {
                    if !e.optional_key {
                        required += 1;
                        if !(self.assignable(&e.value, value) && self.assignable(&T::STRING, key)) {
                            return false;
                        }
                    }
                }
                IntRange::new(required, members.len() as i64)
                    .covers(&size.unwrap_or(IntRange::DEFAULT_SIZE))
            }
            _ => false,
        }
    }
}

fn enum_has(values: &[String], case_insensitive: bool, s: &str) -> bool {
    if case_insensitive {
        values.iter().any(|v| v.eq_ignore_ascii_case(s))
    } else {
        values.iter().any(|v| v == s)
    }
}

fn string_assignable(size: Option<IntRange>, value: Option<&str>, o: &PType) -> bool {
    match size {
        Some(size) => match o {
            T::String {
                size: os,
                value: ov,
            } => {
                let derived = match (os, ov) {
                    (Some(s), _) => *s,
                    (None, Some(v)) => IntRange::exact(v.chars().count() as i64),
                    (None, None) => IntRange::DEFAULT_SIZE,
                };
                size.covers(&derived)
            }
            T::Enum { values, .. } => {
                if values.is_empty() {
                    size.covers(&IntRange::DEFAULT_SIZE)
                } else {
                    let min = values.iter().map(|v| v.chars().count()).min().unwrap() as i64;
                    let max = values.iter().map(|v| v.chars().count()).max().unwrap() as i64;
                    size.from <= min && size.to >= max
                }
            }
            T::Pattern(_) => size.covers(&IntRange::DEFAULT_SIZE),
            _ => false,
        },
        None => match o {
            T::String {
                size: os,
                value: ov,
            } => match value {
                None => true,
                Some(v) => os.is_none() && ov.as_deref() == Some(v),
            },
            // Puppet answers the first value's truthiness here, not a comparison
            T::Enum {
                values,
                case_insensitive,
            } => value.is_none() || (values.len() == 1 && !*case_insensitive),
            T::Pattern(_) => value.is_none(),
            _ => false,
        },
    }
}

/// `o.is_a?(PScalarType)` or assignable to one of Scalar's members.
fn is_scalar_type(o: &PType) -> bool {
    matches!(
        o,
        T::Scalar
            | T::ScalarData
            | T::Numeric
            | T::Integer { .. }
            | T::Float { .. }
            | T::String { .. }
            | T::Enum { .. }
            | T::Pattern(_)
            | T::Boolean(_)
            | T::Regexp(_)
            | T::SemVer(_)
            | T::SemVerRange
            | T::Timespan { .. }
            | T::Timestamp { .. }
    )
}

fn is_scalar_data_type(o: &PType) -> bool {
    matches!(
        o,
        T::ScalarData
            | T::Numeric
            | T::Integer { .. }
            | T::Float { .. }
            | T::String { .. }
            | T::Enum { .. }
            | T::Pattern(_)
            | T::Boolean(_)
    )
}

/// Puppet's `iterable?` on a type.
pub(crate) fn is_iterable(o: &PType) -> bool {
    match o {
        T::Enum { .. }
        | T::Integer { .. }
        | T::String { .. }
        | T::Collection { .. }
        | T::Array { .. }
        | T::Hash { .. }
        | T::Tuple { .. }
        | T::Struct(_)
        | T::Iterable(_)
        | T::Iterator(_) => true,
        T::Type(Some(inner)) => match &**inner {
            T::Enum { .. } => true,
            T::Integer { from, to } => *from != i64::MIN && *to != i64::MAX,
            _ => false,
        },
        T::TypeAlias { .. } => is_iterable(&unalias(o)),
        _ => false,
    }
}

/// The element type of Puppet's `iterable_type` of a type, `Any` when it is
/// unconstrained; `None` when the type is not iterable that way.
pub(crate) fn iterable_element_type(o: &PType) -> Option<PType> {
    let kv = |k: PType, v: PType| T::tuple(vec![k, v], Some(IntRange::exact(2)));
    match o {
        T::Integer { .. } => Some(T::INTEGER),
        T::String { .. } | T::Enum { .. } => Some(T::string_sized(IntRange::exact(1))),
        T::Array { element, .. } => Some((**element).clone()),
        T::Hash { key, value, .. } => {
            if o.is_default_hash() || o.is_empty_hash() {
                Some(kv(T::Unit, T::Unit))
            } else {
                Some(kv((**key).clone(), (**value).clone()))
            }
        }
        T::Tuple { types, .. } => Some(T::variant(types.clone())),
        T::Struct(members) => {
            if members.is_empty() {
                Some(kv(T::Unit, T::Unit))
            } else {
                Some(kv(
                    T::variant(
                        members
                            .iter()
                            .map(|m| {
                                let k = T::string_value(m.name.clone());
                                if m.optional_key {
                                    T::optional(k)
                                } else {
                                    k
                                }
                            })
                            .collect(),
                    ),
                    T::variant(members.iter().map(|m| m.value.clone()).collect()),
                ))
            }
        }
        T::Iterable(e) | T::Iterator(e) => Some(e.as_deref().cloned().unwrap_or(T::Any)),
        T::Type(Some(inner)) => match &**inner {
            T::Enum { .. } => Some((**inner).clone()),
            T::Integer { from, to } if *from != i64::MIN && *to != i64::MAX => {
                Some((**inner).clone())
            }
            _ => None,
        },
        T::TypeAlias { .. } => match unalias(o) {
            T::TypeAlias { .. } => None,
            t => iterable_element_type(&t),
        },
        _ => None,
    }
}

/// Follows a chain of user aliases to the first non-alias type (at most 100
/// steps; an unresolved alias is a `TypeReference`).
pub fn unalias(t: &PType) -> PType {
    let mut cur = t.clone();
    for _ in 0..100 {
        match &cur {
            T::TypeAlias { .. } => cur = cur.alias_target().unwrap(),
            _ => return cur,
        }
    }
    cur
}

/// `[of, ot]` lies within `[from, to]` (bounds are Timestamp or Timespan
/// values; `None` is unbounded).
fn time_range_within(
    from: &Option<Box<Value>>,
    to: &Option<Box<Value>>,
    of: &Option<Box<Value>>,
    ot: &Option<Box<Value>>,
) -> bool {
    let ns = |b: &Option<Box<Value>>| b.as_deref().and_then(crate::values::time::nanos_of);
    let lower = match (ns(from), ns(of)) {
        (None, _) => true,
        (Some(_), None) => false,
        (Some(a), Some(b)) => a <= b,
    };
    let upper = match (ns(to), ns(ot)) {
        (None, _) => true,
        (Some(_), None) => false,
        (Some(a), Some(b)) => a >= b,
    };
    lower && upper
}
