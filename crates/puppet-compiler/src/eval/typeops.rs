//! The evaluator's window on the type system and on Ruby-compatible regexes,
//! kept in one place so the evaluator does not depend on how `crate::types`
//! is organised.

use super::value::Value;
use puppet_model::types::PType;

/// A data type by its name (`Integer`, `String`...), if Puppet has one.
pub fn type_by_name(name: &str) -> Option<PType> {
    puppet_model::types::type_by_name(name)
}

/// Puppet's `instance?`.
pub fn is_instance(t: &PType, v: &Value) -> bool {
    puppet_model::types::is_instance(t, v)
}

/// `T[args]`: parameterised types and resource/class references; an
/// error comes with the index of the key it is about.
pub fn access_at(t: &PType, keys: &[Value]) -> Result<Value, (String, Option<usize>)> {
    puppet_model::types::access(t, keys).map_err(|e| (e.message, e.key))
}

/// The groups of the first match of a Ruby regex (`$0`, `$1`...), if any.
pub fn regex_captures(src: &str, s: &str) -> Result<Option<Vec<Value>>, String> {
    let re = puppet_model::types::regex::compile(src)?;
    match re.captures(s) {
        Ok(Some(caps)) => Ok(Some(
            caps.iter()
                .map(|m| m.map_or(Value::Undef, |m| Value::string(m.as_str())))
                .collect(),
        )),
        Ok(None) => Ok(None),
        Err(e) => Err(format!("Error while matching /{src}/: {e}")),
    }
}

pub fn regex_is_match(src: &str, s: &str) -> bool {
    puppet_model::types::regex::is_match(src, s)
}

/// Ruby's `String#split` by a regex (trailing empty fields dropped).
pub fn regex_split(src: &str, s: &str) -> Result<Vec<Value>, String> {
    let re = puppet_model::types::regex::compile(src)?;
    let mut out = Vec::new();
    let mut last = 0;
    for m in re.find_iter(s) {
        let m = m.map_err(|e| format!("Error while matching /{src}/: {e}"))?;
        if m.start() == m.end() && m.start() == 0 {
            continue;
        }
        if m.start() == m.end() {
            // An empty match splits between characters.
            out.push(Value::string(&s[last..m.start()]));
            last = m.start();
            continue;
        }
        out.push(Value::string(&s[last..m.start()]));
        last = m.end();
    }
    out.push(Value::string(&s[last..]));
    while matches!(out.last(), Some(Value::String(x)) if x.is_empty()) {
        out.pop();
    }
    Ok(out)
}
