//! The evaluator's window on the type system: naming, parameterising and
//! matching types, and compiling regexes. Kept in one place so the evaluator
//! does not depend on how `crate::types` is organised.

use std::sync::Arc;

use super::compiler::capitalize_name;
use super::value::Value;
use crate::types::PType;

/// A data type by its name (`Integer`, `String`...), if Puppet has one.
pub fn type_by_name(_name: &str) -> Option<PType> {
    None
}

/// Puppet's `instance?`.
pub fn is_instance(t: &PType, v: &Value) -> bool {
    match t {
        PType::Any => true,
        PType::Resource { type_name, title } => match v {
            Value::Type(vt) => match vt.as_ref() {
                PType::Resource {
                    type_name: vn,
                    title: vtitle,
                } => {
                    (type_name.is_none() || type_name.as_deref().map(str::to_lowercase) == vn.as_deref().map(str::to_lowercase))
                        && (title.is_none() || title == vtitle)
                }
                _ => false,
            },
            _ => false,
        },
        PType::Class(name) => match v {
            Value::Type(vt) => match vt.as_ref() {
                PType::Class(n) => name.is_none() || name == n,
                _ => false,
            },
            _ => false,
        },
    }
}

/// `T[args]`: resource and class references (`File['/x']`, `Class[foo]`).
pub fn access(t: &PType, keys: &[Value]) -> Result<Value, String> {
    let titles = |keys: &[Value]| -> Vec<String> {
        let mut out = Vec::new();
        for k in keys {
            match k {
                Value::Array(items) => out.extend(items.iter().map(|i| i.to_string())),
                other => out.push(other.to_string()),
            }
        }
        out
    };
    let many = |refs: Vec<PType>, single: bool| -> Value {
        if single && refs.len() == 1 {
            Value::Type(Arc::new(refs.into_iter().next().unwrap_or(PType::Any)))
        } else {
            Value::array(refs.into_iter().map(|r| Value::Type(Arc::new(r))).collect())
        }
    };
    match t {
        PType::Resource {
            type_name: None, ..
        } => {
            let Some((first, rest)) = keys.split_first() else {
                return Err("Resource[] requires a type".into());
            };
            let tn = capitalize_name(&first.to_string());
            if rest.is_empty() {
                return Ok(Value::Type(Arc::new(PType::Resource {
                    type_name: Some(tn),
                    title: None,
                })));
            }
            let single = rest.len() == 1 && !matches!(rest[0], Value::Array(_));
            let refs = titles(rest)
                .into_iter()
                .map(|title| PType::Resource {
                    type_name: Some(tn.clone()),
                    title: Some(title),
                })
                .collect();
            Ok(many(refs, single))
        }
        PType::Resource {
            type_name: Some(tn),
            title: None,
        } => {
            let single = keys.len() == 1 && !matches!(keys[0], Value::Array(_));
            let refs = titles(keys)
                .into_iter()
                .map(|title| PType::Resource {
                    type_name: Some(tn.clone()),
                    title: Some(title),
                })
                .collect();
            Ok(many(refs, single))
        }
        PType::Class(None) => {
            let single = keys.len() == 1 && !matches!(keys[0], Value::Array(_));
            let refs = titles(keys)
                .into_iter()
                .map(|c| PType::Class(Some(c.trim_start_matches("::").to_lowercase())))
                .collect();
            Ok(many(refs, single))
        }
        other => Err(format!("{other} cannot be parameterized")),
    }
}

/// A Ruby regex as a Rust one (the common subset).
pub fn compile_regex(src: &str) -> Result<regex::Regex, String> {
    regex::Regex::new(src).map_err(|e| format!("Invalid regular expression /{src}/: {e}"))
}
