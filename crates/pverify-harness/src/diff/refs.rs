//! Resource references as catalogs spell them, normalized so that the two
//! sides compare equal when they name the same resource: `file[/x]`,
//! `File['/x']` and `File[/x]` are one reference; class titles are
//! capitalized per segment (`Class[foo::bar]` is `Class[Foo::Bar]`).

use puppet_model::names::{canonical_class_title, capitalize_segments};
use puppet_syntax::util::NameStr as _;

/// `Type[title]` for a resource's `type` and `title` fields.
pub fn resource_ref(type_name: &str, title: &str) -> String {
    let t = capitalize_segments(type_name.trim_colons());
    // `Class[main]` is the main class; capitalizing it would name a class
    // called `main`.
    let title = if t == "Class" && title != "main" {
        canonical_class_title(title)
    } else {
        title.to_string()
    };
    format!("{t}[{title}]")
}

/// A reference string from a catalog (`Type[title]`) in normal form; text
/// that is no reference is kept as it is.
pub fn normalize(reference: &str) -> String {
    match split(reference) {
        Some((t, title)) => resource_ref(t, &unquote(title)),
        None => reference.to_string(),
    }
}

/// `("File", "/x")` from `File[/x]`.
pub fn split(reference: &str) -> Option<(&str, &str)> {
    let r = reference.trim();
    let open = r.find('[')?;
    if !r.ends_with(']') || open == 0 {
        return None;
    }
    Some((&r[..open], &r[open + 1..r.len() - 1]))
}

fn unquote(title: &str) -> String {
    let t = title.trim();
    for q in ['\'', '"'] {
        if t.len() >= 2 && t.starts_with(q) && t.ends_with(q) {
            return t[1..t.len() - 1].to_string();
        }
    }
    title.to_string()
}

/// The references a relationship metaparameter holds (a string or an
/// array of them, at any depth), normalized, sorted, without duplicates.
pub fn reference_set(v: &serde_json::Value) -> Vec<String> {
    fn walk(v: &serde_json::Value, out: &mut Vec<String>) {
        match v {
            serde_json::Value::String(s) => out.push(normalize(s)),
            serde_json::Value::Array(a) => a.iter().for_each(|x| walk(x, out)),
            serde_json::Value::Null => {}
            other => out.push(other.to_string()),
        }
    }
    let mut out = Vec::new();
    walk(v, &mut out);
    out.sort();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_normalize() {
        assert_eq!(normalize("file['/x']"), "File[/x]");
        assert_eq!(normalize("Class[foo::bar]"), "Class[Foo::Bar]");
        assert_eq!(normalize("Foo::Bar[\"t\"]"), "Foo::Bar[t]");
        assert_eq!(normalize("not a ref"), "not a ref");
        assert_eq!(
            reference_set(&serde_json::json!([
                "Package[b]",
                ["package[a]"],
                "Package[b]"
            ])),
            vec!["Package[a]", "Package[b]"]
        );
    }
}
