//! The texts of type mismatches (`type_mismatch_describer.rb`): what a value
//! or a type fails to match, with the path into it (`entry 'a'`, `index 0`,
//! `parameter 'n'`), merged over the members of variants the way Puppet
//! merges them.

/// `Any` as a static: a type with a `Drop` is not promoted to one.
static ANY: PType = PType::Any;

use super::infer::infer_set;
use super::model::{IntRange, PType};
use super::parse::a_an;
use super::{is_assignable, is_instance};
use crate::values::Value;

use PType as T;

/// One step of the path to where a mismatch is.
#[derive(Clone, Debug, PartialEq)]
pub enum PathElement {
    /// The thing being checked, as the caller names it.
    Subject(String),
    /// `entry 'a'`: the value of a hash entry.
    EntryValue(String),
    /// `key of entry 'a'`.
    EntryKey(String),
    /// `parameter 'n'`.
    Parameter(String),
    /// `index 0`.
    Index(usize),
    /// `variant 2` (dropped from messages).
    Variant(usize),
    /// `return`.
    Return,
    /// `block`.
    Block,
}

impl PathElement {
    fn text(&self) -> String {
        match self {
            PathElement::Subject(s) => s.clone(),
            PathElement::EntryValue(k) => format!("entry '{k}'"),
            PathElement::EntryKey(k) => format!("key of entry '{k}'"),
            PathElement::Parameter(k) => format!("parameter '{k}'"),
            PathElement::Index(i) => format!("index {i}"),
            PathElement::Variant(i) => format!("variant {i}"),
            PathElement::Return => "return".into(),
            PathElement::Block => "block".into(),
        }
    }
}

/// What is wrong.
#[derive(Clone, Debug, PartialEq)]
pub enum MismatchKind {
    /// `expects an Integer value, got String`.
    Type { expected: PType, actual: PType },
    /// `expects a match for Enum['a', 'b'], got 'c'`.
    Pattern { expected: PType, actual: PType },
    /// `expects size to be at least 1, got 0`.
    Size {
        expected: IntRange,
        actual: IntRange,
    },
    /// `expects a value for key 'b'`.
    MissingKey(String),
    /// `expects a value for parameter 'b'`.
    MissingParameter(String),
    /// `unrecognized key 'x'`.
    ExtraneousKey(String),
    /// `has no parameter named 'x'`.
    InvalidParameter(String),
    /// `references an unresolved type 'Foo'`.
    UnresolvedTypeReference(String),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Mismatch {
    pub path: Vec<PathElement>,
    pub kind: MismatchKind,
}

impl Mismatch {
    fn new(path: &[PathElement], kind: MismatchKind) -> Mismatch {
        let kind = match kind {
            MismatchKind::Type { expected, actual } => MismatchKind::Type {
                expected: expected.normalize(),
                actual: actual.normalize(),
            },
            MismatchKind::Pattern { expected, actual } => MismatchKind::Pattern {
                expected: expected.normalize(),
                actual: actual.normalize(),
            },
            k => k,
        };
        Mismatch {
            path: path.to_vec(),
            kind,
        }
    }

    fn canonical_path(&self) -> Vec<&PathElement> {
        self.path
            .iter()
            .filter(|e| !matches!(e, PathElement::Variant(_)))
            .collect()
    }

    fn chop_path(mut self, index: usize) -> Mismatch {
        if index < self.path.len() {
            self.path.remove(index);
        }
        self
    }

    /// The message as Puppet formats it: the path (variants left out), then
    /// the complaint, starting with a space (` parameter 'n' expects ...`).
    pub fn format(&self) -> String {
        let position: String = self.path.iter().map(|e| format!(" {}", e.text())).collect();
        match &self.kind {
            MismatchKind::Type { expected, actual } => {
                type_mismatch_message(&position, expected, actual)
            }
            MismatchKind::Pattern { expected, actual } => {
                let (e, pfx) = match expected {
                    T::Optional(Some(inner)) => ((**inner).clone(), "an undef value or "),
                    e => (e.clone(), ""),
                };
                let a = match actual.value_str() {
                    Some(v) => format!("'{v}'"),
                    None => short_name(actual),
                };
                format!(
                    "{position} expects {pfx}a match for {}, got {a}",
                    e.to_alias_expanded_string()
                )
            }
            MismatchKind::Size { expected, actual } => format!(
                "{position} expects size to be {}, got {}",
                range_to_s(expected, "0"),
                range_to_s(actual, "0")
            ),
            MismatchKind::MissingKey(k) => format!("{position} expects a value for key '{k}'"),
            MismatchKind::MissingParameter(k) => {
                format!("{position} expects a value for parameter '{k}'")
            }
            MismatchKind::ExtraneousKey(k) => format!("{position} unrecognized key '{k}'"),
            MismatchKind::InvalidParameter(k) => format!("{position} has no parameter named '{k}'"),
            MismatchKind::UnresolvedTypeReference(n) => {
                format!("{position} references an unresolved type '{n}'")
            }
        }
    }

    fn merge(&self, path: &[PathElement], other: &Mismatch) -> Mismatch {
        match (&self.kind, &other.kind) {
            (
                MismatchKind::Size {
                    expected: a,
                    actual,
                },
                MismatchKind::Size { expected: b, .. },
            ) => {
                let r = IntRange::new(a.from.min(b.from), a.to.max(b.to));
                Mismatch::new(
                    path,
                    MismatchKind::Size {
                        expected: r,
                        actual: *actual,
                    },
                )
            }
            (
                MismatchKind::Type {
                    expected: a,
                    actual,
                }
                | MismatchKind::Pattern {
                    expected: a,
                    actual,
                },
                MismatchKind::Type { expected: b, .. } | MismatchKind::Pattern { expected: b, .. },
            ) => {
                let mut list = vec![a.clone()];
                if b != a {
                    list.push(b.clone());
                }
                let expected = T::variant(list);
                let kind = match self.kind {
                    MismatchKind::Pattern { .. } => MismatchKind::Pattern {
                        expected,
                        actual: actual.clone(),
                    },
                    _ => MismatchKind::Type {
                        expected,
                        actual: actual.clone(),
                    },
                };
                Mismatch::new(path, kind)
            }
            _ => Mismatch {
                path: path.to_vec(),
                kind: self.kind.clone(),
            },
        }
    }

    fn is_size(&self) -> bool {
        matches!(self.kind, MismatchKind::Size { .. })
    }

    fn is_type(&self) -> bool {
        matches!(
            self.kind,
            MismatchKind::Type { .. } | MismatchKind::Pattern { .. }
        )
    }
}

fn range_to_s(r: &IntRange, zero: &str) -> String {
    count_range_text(r.from.max(0), r.to, zero)
}

/// Puppet's `range_to_s` for counts (`i64::MAX` is unbounded): "2", "at most 3",
/// "at least 1", "between 1 and 2", "unlimited", or `zero` for exactly none.
/// Shared by type mismatches and function signature errors.
pub fn count_range_text(min: i64, max: i64, zero: &str) -> String {
    if min == max {
        if min == 0 {
            zero.to_string()
        } else {
            min.to_string()
        }
    } else if min == 0 {
        if max == i64::MAX {
            "unlimited".into()
        } else {
            format!("at most {max}")
        }
    } else if max == i64::MAX {
        format!("at least {min}")
    } else {
        format!("between {min} and {max}")
    }
}

/// `TypeMismatch#message`.
fn type_mismatch_message(position: &str, expected: &PType, actual: &PType) -> String {
    let mut e = expected.clone();
    let mut optional = false;
    if let T::Optional(Some(inner)) = &e {
        e = (**inner).clone();
        optional = true;
    }
    let (e_text, a_text, multi) = if let T::Variant(types) = &e {
        let (mut names, a_text) = if report_detailed_list(types, actual) {
            let a = detailed_actual_list(types, actual);
            (
                types
                    .iter()
                    .map(|t| t.to_alias_expanded_string())
                    .collect::<Vec<_>>(),
                a,
            )
        } else {
            let mut names: Vec<String> = Vec::new();
            for t in types {
                let n = short_name(t);
                if !names.contains(&n) {
                    names.push(n);
                }
            }
            (names, short_name(actual))
        };
        if optional {
            names.insert(0, "Undef".into());
        }
        match names.len() {
            1 => (names.pop().unwrap(), a_text, false),
            2 => (format!("{} or {}", names[0], names[1]), a_text, true),
            n => (
                format!("{}, or {}", names[..n - 1].join(", "), names[n - 1]),
                a_text,
                true,
            ),
        }
    } else {
        let (mut e_text, a_text) = if report_detailed(&e, actual) {
            (
                e.to_alias_expanded_string(),
                detailed_actual(std::slice::from_ref(&e), actual),
            )
        } else {
            (short_name(&e), short_name(actual))
        };
        if optional {
            e_text = format!("Undef or {e_text}");
        }
        (e_text, a_text, optional)
    };
    if multi {
        format!("{position} expects a value of type {e_text}, got {a_text}")
    } else {
        format!("{position} expects {} value, got {a_text}", a_an(&e_text))
    }
}

/// `short_name`: `Optional[String]` for contained types, else the name.
fn short_name(t: &PType) -> String {
    let contained = match t {
        T::Type(x) | T::NotUndef(x) | T::Optional(x) | T::Iterable(x) | T::Iterator(x) => {
            x.as_deref()
        }
        T::Sensitive(x) => Some(x.as_deref().unwrap_or(&ANY)),
        T::Init { type_, .. } => type_.as_deref(),
        _ => None,
    };
    match contained {
        Some(inner) if !matches!(inner, T::Any) => format!("{}[{}]", t.name(), inner.name()),
        _ => t.name(),
    }
}

/// Same Ruby class (Puppet compares `e.class == a.class`).
fn same_class(e: &PType, a: &PType) -> bool {
    // Data and RichData are aliases in Puppet
    if e.is_alias() || a.is_alias() {
        return true;
    }
    std::mem::discriminant(e) == std::mem::discriminant(a)
}

fn specialization(e: &PType, a: &PType) -> bool {
    matches!(
        (e, a),
        (T::Struct(_), T::Hash { .. }) | (T::Tuple { .. }, T::Array { .. })
    )
}

fn always_fully_detailed(e: &PType, a: &PType) -> bool {
    same_class(e, a) || specialization(e, a)
}

/// `e.class::DEFAULT.assignable?(a)`.
fn assignable_to_default(e: &PType, a: &PType) -> bool {
    let e = resolve_alias(e);
    let default = match e {
        T::Integer { .. } => T::INTEGER,
        T::Float { .. } => T::FLOAT,
        T::String { .. } => T::STRING,
        T::Enum { .. } => T::Enum {
            values: Vec::new(),
            case_insensitive: false,
        },
        T::Pattern(_) => T::Pattern(Vec::new()),
        T::Regexp(_) => T::Regexp(None),
        T::Boolean(_) => T::Boolean(None),
        T::Array { .. } => T::array_of_any(),
        T::Hash { .. } => T::hash_of_any(),
        T::Tuple { .. } => T::Tuple {
            types: Vec::new(),
            size: None,
        },
        T::Struct(_) => T::Struct(Vec::new()),
        T::Optional(_) => T::Optional(None),
        T::NotUndef(_) => T::NotUndef(None),
        T::Variant(_) => T::Variant(Vec::new()),
        T::Collection { .. } => T::collection(None),
        T::Iterable(_) => T::Iterable(None),
        T::Iterator(_) => T::Iterator(None),
        T::Callable { .. } => T::Callable {
            params: None,
            block: None,
            return_type: None,
        },
        T::Type(_) => T::Type(None),
        T::Class(_) => T::Class(None),
        T::Resource { .. } => T::Resource {
            type_name: None,
            title: None,
        },
        T::Runtime { .. } => T::Runtime {
            runtime: None,
            name: None,
        },
        T::Sensitive(_) => T::Sensitive(None),
        T::SemVer(_) => T::SemVer(Vec::new()),
        T::Timestamp { .. } => T::Timestamp {
            from: None,
            to: None,
        },
        T::Timespan { .. } => T::Timespan {
            from: None,
            to: None,
        },
        T::Uri(_) => T::Uri(None),
        T::Init { .. } => T::Init {
            type_: None,
            args: Vec::new(),
        },
        T::Object(_) => T::Object(None),
        T::TypeReference(_) => T::TypeReference("UnresolvedReference".into()),
        other => other,
    };
    is_assignable(&default, a)
}

fn resolve_alias(t: &PType) -> PType {
    let mut cur = t.clone();
    for _ in 0..100 {
        match cur.alias_target() {
            Some(x) => cur = x,
            None => break,
        }
    }
    cur
}

fn report_detailed(e: &PType, a: &PType) -> bool {
    always_fully_detailed(e, a) || assignable_to_default(e, a)
}

fn report_detailed_list(es: &[PType], a: &PType) -> bool {
    es.iter().any(|e| always_fully_detailed(e, a)) || es.iter().any(|e| assignable_to_default(e, a))
}

fn detailed_actual_list(es: &[PType], a: &PType) -> String {
    detailed_actual(es, a)
}

/// `detailed_actual_to_s`.
fn detailed_actual(es: &[PType], a: &PType) -> String {
    let resolved: Vec<PType> = es.iter().map(resolve_alias).collect();
    if resolved.iter().any(|e| always_fully_detailed(e, a))
        || resolved.iter().any(|e| is_assignable(e, &a.generalize()))
    {
        a.to_alias_expanded_string()
    } else {
        a.simple_name().to_string()
    }
}

/// The mismatches of `actual` (a type; for a value use [`infer_set`]) against
/// `expected`, each with `path` in front. Empty when it matches.
pub fn describe(expected: &PType, actual: &PType, path: &[PathElement]) -> Vec<Mismatch> {
    if let Some(name) = find_unresolved(expected) {
        return vec![Mismatch::new(
            path,
            MismatchKind::UnresolvedTypeReference(name),
        )];
    }
    Describer { depth: 0 }.internal(&expected.normalize(), expected, actual, path)
}

fn find_unresolved(t: &PType) -> Option<String> {
    fn go(t: &PType, seen: &mut Vec<usize>) -> Option<String> {
        match t {
            T::TypeReference(n) => return Some(n.clone()),
            T::TypeAlias { resolved, name } => {
                if seen.contains(&resolved.ptr()) {
                    return None;
                }
                seen.push(resolved.ptr());
                return match resolved.get() {
                    Some(x) => go(x, seen),
                    None => Some(name.clone()),
                };
            }
            _ => {}
        }
        let mut found = None;
        t.for_each_child(&mut |c| {
            if found.is_none() {
                found = go(c, seen);
            }
        });
        found
    }
    go(t, &mut Vec::new())
}

struct Describer {
    depth: usize,
}

impl Describer {
    fn describe(
        &mut self,
        expected: &PType,
        actual: &PType,
        path: &[PathElement],
    ) -> Vec<Mismatch> {
        if let Some(name) = find_unresolved(expected) {
            return vec![Mismatch::new(
                path,
                MismatchKind::UnresolvedTypeReference(name),
            )];
        }
        self.depth += 1;
        let r = if self.depth > 200 {
            vec![Mismatch::new(
                path,
                MismatchKind::Type {
                    expected: expected.clone(),
                    actual: actual.clone(),
                },
            )]
        } else {
            self.internal(&expected.normalize(), expected, actual, path)
        };
        self.depth -= 1;
        r
    }

    fn internal(
        &mut self,
        expected: &PType,
        original: &PType,
        actual: &PType,
        path: &[PathElement],
    ) -> Vec<Mismatch> {
        match expected {
            T::Variant(types) => self.variant(types, original, actual, path),
            T::Struct(_) => self.struct_(expected, original, actual, path),
            T::Hash { .. } => self.hash(expected, original, actual, path),
            T::Tuple { .. } => self.tuple(expected, original, actual, path),
            T::Array { .. } => self.array(expected, original, actual, path),
            T::Optional(inner) => {
                if matches!(actual, T::Undef) {
                    return Vec::new();
                }
                match inner {
                    None => Vec::new(),
                    Some(x) => {
                        let orig = if original.is_alias() {
                            original
                        } else {
                            expected
                        };
                        self.internal(x, orig, actual, path)
                    }
                }
            }
            T::Pattern(_) | T::Enum { .. } => vec![Mismatch::new(
                path,
                MismatchKind::Pattern {
                    expected: original.clone(),
                    actual: actual.clone(),
                },
            )],
            T::Data | T::RichData | T::TypeAlias { .. } => {
                let target = expected.alias_target().unwrap().normalize();
                self.internal(&target, expected, actual, path)
            }
            _ => {
                if is_assignable(expected, actual) {
                    Vec::new()
                } else {
                    vec![Mismatch::new(
                        path,
                        MismatchKind::Type {
                            expected: original.clone(),
                            actual: actual.clone(),
                        },
                    )]
                }
            }
        }
    }

    fn variant(
        &mut self,
        types: &[PType],
        original: &PType,
        actual: &PType,
        path: &[PathElement],
    ) -> Vec<Mismatch> {
        let mut all: Vec<PType> = Vec::new();
        if matches!(original, T::Optional(_)) {
            all.push(T::Undef);
        }
        all.extend(types.iter().cloned());
        let mut variant_descriptions: Vec<Vec<Mismatch>> = Vec::new();
        for (i, vt) in all.iter().enumerate() {
            let mut p = path.to_vec();
            p.push(PathElement::Variant(i));
            let d = self.describe(vt, actual, &p);
            if d.is_empty() {
                return Vec::new();
            }
            variant_descriptions.push(d);
        }
        let descriptions = merge_descriptions(path.len(), variant_descriptions);
        if original.is_alias() && descriptions.len() == 1 {
            vec![Mismatch::new(
                path,
                MismatchKind::Type {
                    expected: original.clone(),
                    actual: actual.clone(),
                },
            )]
        } else {
            descriptions
        }
    }

    fn array(
        &mut self,
        expected: &PType,
        original: &PType,
        actual: &PType,
        path: &[PathElement],
    ) -> Vec<Mismatch> {
        let T::Array { element, size } = expected else {
            unreachable!()
        };
        match actual {
            T::Tuple { types, size: asize } => {
                let expected_size = size.unwrap_or(IntRange::DEFAULT_SIZE);
                let actual_size = asize.unwrap_or(IntRange::exact(types.len() as i64));
                if expected_size.covers(&actual_size) {
                    let mut out = Vec::new();
                    for (i, t) in types.iter().enumerate() {
                        if !is_assignable(element, t) {
                            let mut p = path.to_vec();
                            p.push(PathElement::Index(i));
                            out.extend(self.describe(element, t, &p));
                        }
                    }
                    out
                } else {
                    vec![Mismatch::new(
                        path,
                        MismatchKind::Size {
                            expected: expected_size,
                            actual: actual_size,
                        },
                    )]
                }
            }
            T::Array {
                element: ae,
                size: asize,
            } => {
                let actual_size = asize.unwrap_or(IntRange::DEFAULT_SIZE);
                match size {
                    Some(es) if !es.covers(&actual_size) => {
                        vec![Mismatch::new(
                            path,
                            MismatchKind::Size {
                                expected: *es,
                                actual: actual_size,
                            },
                        )]
                    }
                    _ => vec![Mismatch::new(
                        path,
                        MismatchKind::Type {
                            expected: original.clone(),
                            actual: T::array((**ae).clone(), None),
                        },
                    )],
                }
            }
            _ => vec![Mismatch::new(
                path,
                MismatchKind::Type {
                    expected: original.clone(),
                    actual: actual.clone(),
                },
            )],
        }
    }

    fn hash(
        &mut self,
        expected: &PType,
        original: &PType,
        actual: &PType,
        path: &[PathElement],
    ) -> Vec<Mismatch> {
        let T::Hash { key, value, size } = expected else {
            unreachable!()
        };
        match actual {
            T::Struct(members) => {
                let expected_size = size.unwrap_or(IntRange::DEFAULT_SIZE);
                let required = members.iter().filter(|m| !m.optional_key).count() as i64;
                let actual_size = IntRange::new(required, members.len() as i64);
                if expected_size.covers(&actual_size) {
                    let mut out = Vec::new();
                    for m in members {
                        let key_t = struct_key_type(m);
                        if !is_assignable(key, &key_t) {
                            let mut p = path.to_vec();
                            p.push(PathElement::EntryKey(m.name.clone()));
                            out.extend(self.describe(key, &key_t, &p));
                        }
                        if !is_assignable(value, &m.value) {
                            let mut p = path.to_vec();
                            p.push(PathElement::EntryValue(m.name.clone()));
                            out.extend(self.describe(value, &m.value, &p));
                        }
                    }
                    out
                } else {
                    vec![Mismatch::new(
                        path,
                        MismatchKind::Size {
                            expected: expected_size,
                            actual: actual_size,
                        },
                    )]
                }
            }
            T::Hash {
                key: ak,
                value: av,
                size: asize,
            } => {
                let actual_size = asize.unwrap_or(IntRange::DEFAULT_SIZE);
                match size {
                    Some(es) if !es.covers(&actual_size) => {
                        vec![Mismatch::new(
                            path,
                            MismatchKind::Size {
                                expected: *es,
                                actual: actual_size,
                            },
                        )]
                    }
                    _ => vec![Mismatch::new(
                        path,
                        MismatchKind::Type {
                            expected: original.clone(),
                            actual: T::hash((**ak).clone(), (**av).clone(), None),
                        },
                    )],
                }
            }
            _ => vec![Mismatch::new(
                path,
                MismatchKind::Type {
                    expected: original.clone(),
                    actual: actual.clone(),
                },
            )],
        }
    }

    fn struct_(
        &mut self,
        expected: &PType,
        original: &PType,
        actual: &PType,
        path: &[PathElement],
    ) -> Vec<Mismatch> {
        let T::Struct(elements) = expected else {
            unreachable!()
        };
        match actual {
            T::Struct(actual_members) => {
                let mut rest: Vec<_> = actual_members.iter().collect();
                let mut out = Vec::new();
                for e1 in elements {
                    match rest.iter().position(|m| m.name == e1.name) {
                        None => {
                            if !e1.optional_key {
                                out.push(Mismatch::new(
                                    path,
                                    MismatchKind::MissingKey(e1.name.clone()),
                                ));
                            }
                        }
                        Some(pos) => {
                            let e2 = rest.remove(pos);
                            let (k1, k2) = (struct_key_type(e1), struct_key_type(e2));
                            if !is_assignable(&k1, &k2) {
                                let mut p = path.to_vec();
                                p.push(PathElement::EntryKey(e1.name.clone()));
                                out.extend(self.describe(&k1, &k2, &p));
                            }
                            if !is_assignable(&e1.value, &e2.value) {
                                let mut p = path.to_vec();
                                p.push(PathElement::EntryValue(e1.name.clone()));
                                out.extend(self.describe(&e1.value, &e2.value, &p));
                            }
                        }
                    }
                }
                for m in rest {
                    out.push(Mismatch::new(
                        path,
                        MismatchKind::ExtraneousKey(m.name.clone()),
                    ));
                }
                out
            }
            T::Hash { key, value, size } => {
                let actual_size = size.unwrap_or(IntRange::DEFAULT_SIZE);
                let required = elements.iter().filter(|m| !m.optional_key).count() as i64;
                let expected_size = IntRange::new(required, elements.len() as i64);
                if expected_size.covers(&actual_size) {
                    vec![Mismatch::new(
                        path,
                        MismatchKind::Type {
                            expected: original.clone(),
                            actual: T::hash((**key).clone(), (**value).clone(), None),
                        },
                    )]
                } else {
                    vec![Mismatch::new(
                        path,
                        MismatchKind::Size {
                            expected: expected_size,
                            actual: actual_size,
                        },
                    )]
                }
            }
            _ => vec![Mismatch::new(
                path,
                MismatchKind::Type {
                    expected: original.clone(),
                    actual: actual.clone(),
                },
            )],
        }
    }

    fn tuple(
        &mut self,
        expected: &PType,
        original: &PType,
        actual: &PType,
        path: &[PathElement],
    ) -> Vec<Mismatch> {
        let T::Tuple {
            types: etypes,
            size,
        } = expected
        else {
            unreachable!()
        };
        if expected == actual || (etypes.is_empty() && matches!(actual, T::Array { .. })) {
            return Vec::new();
        }
        let expected_size = size.unwrap_or_else(|| super::model::tuple_size_range(etypes));
        match actual {
            T::Tuple {
                types: atypes,
                size: asize,
            } => {
                let actual_size = asize.unwrap_or_else(|| super::model::tuple_size_range(atypes));
                if expected_size.covers(&actual_size) {
                    let mut out = Vec::new();
                    if !etypes.is_empty() {
                        for (i, at) in atypes.iter().enumerate() {
                            let adx = i.min(etypes.len() - 1);
                            let mut p = path.to_vec();
                            p.push(PathElement::Index(adx));
                            out.extend(self.describe(&etypes[adx], at, &p));
                        }
                    }
                    out
                } else {
                    vec![Mismatch::new(
                        path,
                        MismatchKind::Size {
                            expected: expected_size,
                            actual: actual_size,
                        },
                    )]
                }
            }
            T::Array {
                element,
                size: asize,
            } => {
                let actual_size = asize.unwrap_or(IntRange::DEFAULT_SIZE);
                if expected_size.covers(&actual_size) {
                    let mut out = Vec::new();
                    for (i, et) in etypes.iter().enumerate() {
                        let mut p = path.to_vec();
                        p.push(PathElement::Index(i));
                        out.extend(self.describe(et, element, &p));
                    }
                    out
                } else {
                    vec![Mismatch::new(
                        path,
                        MismatchKind::Size {
                            expected: expected_size,
                            actual: actual_size,
                        },
                    )]
                }
            }
            _ => vec![Mismatch::new(
                path,
                MismatchKind::Type {
                    expected: original.clone(),
                    actual: actual.clone(),
                },
            )],
        }
    }
}

/// The key type of a struct member: `String['a']` or `Optional[String['a']]`.
fn struct_key_type(m: &super::model::StructMember) -> PType {
    let k = T::string_value(m.name.clone());
    if m.optional_key {
        T::optional(k)
    } else {
        k
    }
}

/// `merge_descriptions`: when every variant failed the same way at the same
/// place, one merged mismatch; the variant element is dropped from the path.
fn merge_descriptions(varying: usize, variant_descriptions: Vec<Vec<Mismatch>>) -> Vec<Mismatch> {
    let count = variant_descriptions.len();
    let mut descriptions: Vec<Mismatch> = variant_descriptions.into_iter().flatten().collect();
    for class in [
        Mismatch::is_size as fn(&Mismatch) -> bool,
        Mismatch::is_type,
    ] {
        let mismatches: Vec<&Mismatch> = descriptions.iter().filter(|d| class(d)).collect();
        if count > 0 && mismatches.len() == count {
            let mut generic: Option<Mismatch> = Some(mismatches[0].clone());
            for curr in &mismatches[1..] {
                let prev = generic.take().unwrap();
                if prev.canonical_path() != curr.canonical_path() {
                    generic = None;
                    break;
                }
                generic = Some(prev.merge(&prev.path.clone(), curr));
            }
            if let Some(g) = generic {
                descriptions = vec![g];
                break;
            }
        }
    }
    if descriptions.len() == 1 {
        vec![descriptions.pop().unwrap().chop_path(varying)]
    } else {
        descriptions
    }
}

/// The tail of Puppet's message for a value that is not an instance of
/// `expected`, as it follows the subject (`parameter 'n'` etc.):
/// `expects an Integer value, got String`, `entry 'a' expects ...`. Several
/// mismatches are joined by `"\n "` as Puppet joins them. Empty when the
/// value matches.
pub fn describe_mismatch(expected: &PType, actual: &Value) -> String {
    if is_instance(expected, actual) {
        return String::new();
    }
    let errors = describe(expected, &infer_set(actual), &[]);
    match errors.len() {
        0 => String::new(),
        1 => errors[0].format().trim().to_string(),
        _ => errors
            .iter()
            .map(|e| e.format().trim().to_string())
            .collect::<Vec<_>>()
            .join("\n "),
    }
}

/// Puppet's `TypeMismatchDescriber#describe_mismatch(name, expected, actual)`
/// (`assert_type`, `TypeAsserter`): `name` is the subject in front.
pub fn describe_mismatch_named(name: &str, expected: &PType, actual: &PType) -> String {
    let errors = describe(expected, actual, &[PathElement::Subject(name.to_string())]);
    match errors.len() {
        0 => String::new(),
        1 => errors[0].format().trim().to_string(),
        _ => errors
            .iter()
            .map(|e| e.format())
            .collect::<Vec<_>>()
            .join("\n "),
    }
}

/// One parameter of a class, defined type or resource type, as Puppet's
/// parameter struct holds it.
#[derive(Clone, Debug)]
pub struct ParamSpec {
    pub name: String,
    pub ty: PType,
    /// Has a default (or is otherwise optional): may be absent.
    pub optional: bool,
}

/// The metaparameters, in Puppet's order (`Puppet::Type.metaparams`).
pub const METAPARAMS: [&str; 11] = [
    "noop",
    "schedule",
    "audit",
    "loglevel",
    "alias",
    "tag",
    "require",
    "subscribe",
    "before",
    "notify",
    "stage",
];

/// The parameter struct Puppet checks a class or defined-type resource
/// against: `name` and the metaparameters (optional, `Any`), then the
/// declared parameters in order (`(name, type, has_default)`; no type is
/// `Any`).
pub fn resource_params(params: &[(String, Option<PType>, bool)]) -> Vec<ParamSpec> {
    let mut out = vec![ParamSpec {
        name: "name".into(),
        ty: T::Any,
        optional: true,
    }];
    for m in METAPARAMS {
        out.push(ParamSpec {
            name: m.into(),
            ty: T::Any,
            optional: true,
        });
    }
    for (name, ty, has_default) in params {
        let spec = ParamSpec {
            name: name.clone(),
            ty: ty.clone().unwrap_or(T::Any),
            optional: *has_default,
        };
        match out.iter_mut().find(|p| p.name == *name) {
            Some(p) => *p = spec,
            None => out.push(spec),
        }
    }
    out
}

/// Puppet's `validate_parameters(subject, params_struct, given, missing_ok)`:
/// `Err` with the whole message (`Class[Typed]: parameter 'n' expects an
/// Integer value, got String`; several errors each on their own line).
/// Unknown names come first (in the order given), then, in parameter order,
/// type mismatches and missing values (a parameter without a default is
/// required even when its type accepts undef, as in Puppet).
pub fn validate_parameters(
    subject: &str,
    params: &[ParamSpec],
    given: &[(String, Value)],
    missing_ok: bool,
) -> Result<(), String> {
    let mut errors: Vec<Mismatch> = Vec::new();
    for (name, _) in given {
        if !params.iter().any(|p| p.name == *name) {
            errors.push(Mismatch::new(
                &[],
                MismatchKind::InvalidParameter(name.clone()),
            ));
        }
    }
    for p in params {
        match given.iter().find(|(n, _)| *n == p.name) {
            Some((_, v)) => {
                if !is_instance(&p.ty, v) {
                    errors.extend(describe(
                        &p.ty,
                        &infer_set(v),
                        &[PathElement::Parameter(p.name.clone())],
                    ));
                }
            }
            None => {
                if !missing_ok && !p.optional {
                    errors.push(Mismatch::new(
                        &[],
                        MismatchKind::MissingParameter(p.name.clone()),
                    ));
                }
            }
        }
    }
    match errors.len() {
        0 => Ok(()),
        1 => Err(format!("{subject}:{}", errors[0].format())),
        _ => Err(format!(
            "{subject}:\n {}",
            errors
                .iter()
                .map(|e| e.format())
                .collect::<Vec<_>>()
                .join("\n ")
        )),
    }
}
