//! Hiera's merge strategies, as Puppet's `MergeStrategy` classes and the
//! `deep_merge` gem combine a higher-priority value (`hi`) with a lower one.

use puppet_model::{Map, Value};

/// A merge strategy with its options.
#[derive(Clone, Debug, Default)]
pub struct Merge {
    pub kind: MergeKind,
    pub knockout_prefix: Option<String>,
    pub sort_merged_arrays: bool,
    pub merge_hash_arrays: bool,
}

/// What one step of a lookup merges: how many places it searched (one
/// place and several merge differently), and the values found there, in
/// priority order. Most lookups find nothing: then nothing is allocated.
#[derive(Debug, Default)]
pub struct Variants {
    pub searched: usize,
    pub found: Vec<Value>,
}

impl Variants {
    /// One more place searched, and what it held.
    pub fn push(&mut self, found: Option<Value>) {
        self.searched += 1;
        self.found.extend(found);
    }

    /// Whether a value was found.
    pub fn any(&self) -> bool {
        !self.found.is_empty()
    }
}

impl FromIterator<Option<Value>> for Variants {
    fn from_iter<I: IntoIterator<Item = Option<Value>>>(places: I) -> Self {
        let mut v = Variants::default();
        places.into_iter().for_each(|p| v.push(p));
        v
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MergeKind {
    #[default]
    First,
    Unique,
    Hash,
    Deep,
}

impl Merge {
    /// A `merge` argument or `lookup_options` entry: a name or `{strategy => ...}`.
    pub fn from_value(v: &Value) -> Result<Merge, String> {
        let kind_of = |s: &str| -> Result<MergeKind, String> {
            Ok(match s {
                "first" | "default" => MergeKind::First,
                "unique" => MergeKind::Unique,
                "hash" => MergeKind::Hash,
                "deep" | "unconstrained_deep" => MergeKind::Deep,
                other => return Err(format!("Unknown merge strategy: '{other}'")),
            })
        };
        match v {
            Value::String(s) => Ok(Merge {
                kind: kind_of(s)?,
                ..Merge::default()
            }),
            Value::Hash(h) => {
                let get = |k: &str| h.get(&Value::string(k));
                let strategy = get("strategy")
                    .map(|s| s.to_string())
                    .unwrap_or_else(|| "first".into());
                Ok(Merge {
                    kind: kind_of(&strategy)?,
                    knockout_prefix: get("knockout_prefix")
                        .and_then(|v| v.as_str().map(String::from)),
                    sort_merged_arrays: get("sort_merged_arrays").is_some_and(Value::is_truthy),
                    merge_hash_arrays: get("merge_hash_arrays").is_some_and(Value::is_truthy),
                })
            }
            _ => Ok(Merge::default()),
        }
    }

    /// Puppet's `MergeStrategy#lookup` over variants (highest priority
    /// first). One variant searched is `merge_single`d; several are
    /// reduced: the first found is converted (`unique` flattens it), each
    /// later one merged into it. `Ok(None)`: nothing found.
    pub fn lookup(&self, variants: Variants) -> Result<Option<Value>, String> {
        let Variants { searched, found } = variants;
        if self.kind == MergeKind::First {
            return Ok(found.into_iter().next());
        }
        if searched == 1 {
            return Ok(found.into_iter().next().map(|v| match (self.kind, &v) {
                (MergeKind::Unique, Value::Array(a)) => Value::array(uniq(a.to_vec())),
                _ => v,
            }));
        }
        let mut memo: Option<Value> = None;
        for v in found {
            memo = Some(match memo {
                None => self.convert(v),
                Some(m) => self.merge(m, v)?,
            });
        }
        Ok(memo)
    }

    fn convert(&self, v: Value) -> Value {
        match (self.kind, &v) {
            (MergeKind::Unique, Value::Array(a)) => Value::array(flatten(a)),
            (MergeKind::Unique, _) => Value::array(vec![v]),
            _ => v,
        }
    }

    /// `checked_merge(hi, lo)` after asserting both types.
    fn merge(&self, hi: Value, lo: Value) -> Result<Value, String> {
        self.check("first", &hi)?;
        self.check("second", &lo)?;
        Ok(match self.kind {
            MergeKind::Unique => {
                let mut out = as_list(&hi);
                out.extend(as_list(&lo));
                Value::array(uniq(out))
            }
            MergeKind::Hash => {
                // Ruby's `lo.merge(hi)`: lo's key order, hi's values.
                let (Value::Hash(h), Value::Hash(l)) = (&hi, &lo) else {
                    return Ok(hi);
                };
                let mut out = (**l).clone();
                for (k, x) in h.iter() {
                    out.insert(k.clone(), x.clone());
                }
                Value::hash(out)
            }
            MergeKind::Deep => self.deep(&hi, lo),
            MergeKind::First => hi,
        })
    }

    fn check(&self, which: &str, v: &Value) -> Result<(), String> {
        let ok = match self.kind {
            MergeKind::Hash => matches!(v, Value::Hash(_)),
            MergeKind::Unique => !matches!(v, Value::Hash(_)),
            _ => true,
        };
        if ok {
            return Ok(());
        }
        let want = if self.kind == MergeKind::Hash {
            "a Hash value"
        } else {
            "a value of type Scalar or Array"
        };
        Err(format!(
            "The {which} element of the merge has wrong type, expects {want}, got {}",
            puppet_model::value::value_label(v)
        ))
    }

    /// `DeepMerge.deep_merge!(source = hi, dest = lo)` with
    /// `preserve_unmergeables: false`.
    fn deep(&self, source: &Value, dest: Value) -> Value {
        if source.is_undef() {
            return dest;
        }
        if matches!(dest, Value::Undef | Value::Boolean(false)) {
            return source.clone();
        }
        match source {
            Value::Hash(src) => {
                let Value::Hash(d) = &dest else {
                    return self.overwrite(source);
                };
                let mut out: Map = (**d).clone();
                for (k, sv) in src.iter() {
                    let merged = match out.get(k) {
                        Some(dv) if dv.is_truthy() => self.deep(sv, dv.clone()),
                        _ => self.deep(sv, sv.clone()),
                    };
                    out.insert(k.clone(), merged);
                }
                Value::hash(out)
            }
            Value::Array(src) => {
                let mut src: Vec<Value> = (**src).clone();
                let mut dest = dest;
                if let Some(ko) = &self.knockout_prefix {
                    if let Some(i) = src.iter().position(|x| x.as_str() == Some(ko)) {
                        src.remove(i);
                        dest = match dest {
                            Value::Array(_) => Value::array(Vec::new()),
                            Value::Hash(_) => Value::hash(Map::default()),
                            Value::String(_) => Value::string(""),
                            _ => Value::Undef,
                        };
                    }
                }
                let Value::Array(d) = &dest else {
                    return self.overwrite(&Value::array(src));
                };
                let mut d: Vec<Value> = (**d).clone();
                if let Some(ko) = &self.knockout_prefix {
                    src.retain(|item| {
                        if let Some(s) = item.as_str() {
                            if let Some(rest) = s.strip_prefix(ko.as_str()) {
                                let plain = Value::string(rest);
                                d.retain(|x| x != &plain && x != item);
                                return false;
                            }
                        }
                        true
                    });
                }
                let all_hashes = |v: &[Value]| v.iter().all(|x| matches!(x, Value::Hash(_)));
                let mut merged = if self.merge_hash_arrays && all_hashes(&src) && all_hashes(&d) {
                    let mut list: Vec<Value> = Vec::new();
                    for (i, dv) in d.iter().enumerate() {
                        let sv = src
                            .get(i)
                            .cloned()
                            .unwrap_or_else(|| Value::hash(Map::default()));
                        list.push(self.deep(&sv, dv.clone()));
                    }
                    if src.len() > d.len() {
                        list.extend(src[d.len()..].iter().cloned());
                    }
                    list
                } else {
                    let mut out: Vec<Value> = Vec::new();
                    for x in d.into_iter().chain(src) {
                        if !out.contains(&x) {
                            out.push(x);
                        }
                    }
                    out
                };
                if self.sort_merged_arrays {
                    merged.sort_by(ruby_cmp);
                }
                Value::array(merged)
            }
            _ => self.overwrite(source),
        }
    }

    fn overwrite(&self, source: &Value) -> Value {
        let Some(ko) = &self.knockout_prefix else {
            return source.clone();
        };
        match source {
            Value::String(s) => match s.strip_prefix(ko.as_str()) {
                Some(_) => Value::string(""),
                None => source.clone(),
            },
            Value::Array(a) => {
                let kept: Vec<Value> = a
                    .iter()
                    .filter(|x| !x.as_str().is_some_and(|s| s.starts_with(ko.as_str())))
                    .cloned()
                    .collect();
                if kept.len() == a.len() {
                    source.clone()
                } else {
                    Value::string("")
                }
            }
            _ => source.clone(),
        }
    }
}

fn ruby_cmp(a: &Value, b: &Value) -> std::cmp::Ordering {
    match (a, b) {
        (Value::Integer(x), Value::Integer(y)) => x.cmp(y),
        (Value::Float(x), Value::Float(y)) => x.partial_cmp(y).unwrap_or(std::cmp::Ordering::Equal),
        (Value::Integer(x), Value::Float(y)) => (*x as f64)
            .partial_cmp(y)
            .unwrap_or(std::cmp::Ordering::Equal),
        (Value::Float(x), Value::Integer(y)) => x
            .partial_cmp(&(*y as f64))
            .unwrap_or(std::cmp::Ordering::Equal),
        _ => a.to_string().cmp(&b.to_string()),
    }
}

fn flatten(items: &[Value]) -> Vec<Value> {
    let mut out = Vec::new();
    puppet_model::value::flatten_into(items, &mut out);
    out
}

fn uniq(items: Vec<Value>) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::new();
    for x in items {
        if !out.contains(&x) {
            out.push(x);
        }
    }
    out
}

fn as_list(v: &Value) -> Vec<Value> {
    match v {
        Value::Array(a) => flatten(a),
        other => vec![other.clone()],
    }
}
