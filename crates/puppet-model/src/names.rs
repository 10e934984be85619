//! Puppet's canonical spelling of resource types, class titles and
//! references, and the Ruby string helpers they are built from.

use std::borrow::Cow;

/// Ruby's `String#split("::")`: empty fields are kept except trailing ones
/// (`"a::::b"` is `["a", "", "b"]`, `"a::"` is `["a"]`, `""` is `[]`).
pub fn ruby_split_segments(s: &str) -> Vec<&str> {
    let mut parts: Vec<&str> = s.split("::").collect();
    while parts.last() == Some(&"") {
        parts.pop();
    }
    parts
}

/// Ruby's `String#capitalize`: the first character upper case, the rest
/// lower case. (Ruby uses title case for the first character; the two differ
/// only for a few digraphs such as `ǆ`, never in a valid Puppet name.)
fn ruby_capitalize(s: &str) -> String {
    let mut chars = s.chars();
    let mut out = String::with_capacity(s.len());
    if let Some(first) = chars.next() {
        out.extend(first.to_uppercase());
        for c in chars {
            out.extend(c.to_lowercase());
        }
    }
    out
}

/// Puppet's `TypeFormatter#capitalize_segments`, which makes type names and
/// class titles canonical: `foo::bar` becomes `Foo::Bar`, every segment
/// capitalised the Ruby way (`fOO` becomes `Foo`). A name that already starts
/// with an ASCII capital is left exactly as it is (`FOO::bar` stays), as Puppet
/// does (its test is `/^[A-Z]/`, which also looks after each newline).
pub fn capitalize_segments(name: &str) -> String {
    capitalized_segments(name).into_owned()
}

/// [`capitalize_segments`], borrowed when the name is left as it is.
pub fn capitalized_segments(name: &str) -> Cow<'_, str> {
    // (Most names are capitalised already: no line search for them.)
    if name.starts_with(|c: char| c.is_ascii_uppercase()) {
        return Cow::Borrowed(name);
    }
    let starts_with_capital = name
        .split('\n')
        .any(|line| line.starts_with(|c: char| c.is_ascii_uppercase()));
    if starts_with_capital {
        return Cow::Borrowed(name);
    }
    Cow::Owned(capitalize_lower_segments(name))
}

fn capitalize_lower_segments(name: &str) -> String {
    let segments = ruby_split_segments(name);
    if segments.len() == 1 {
        ruby_capitalize(name)
    } else {
        segments
            .iter()
            .map(|s| ruby_capitalize(s))
            .collect::<Vec<_>>()
            .join("::")
    }
}

/// The canonical name of a resource type: `file` is `File`, `foo::bar` is
/// `Foo::Bar`; a leading `::` is dropped; `class` in any case is `Class`.
pub fn canonical_type(type_name: &str) -> String {
    canonical_type_ref(type_name).into_owned()
}

/// [`canonical_type`], borrowed when the name is canonical already (a
/// lookup by reference does not copy `Package`).
pub fn canonical_type_ref(type_name: &str) -> Cow<'_, str> {
    let t = type_name.strip_prefix("::").unwrap_or(type_name);
    if t.is_empty() || t.eq_ignore_ascii_case("class") || t.eq_ignore_ascii_case("component") {
        return Cow::Borrowed("Class");
    }
    capitalized_segments(t)
}

/// The canonical title of a class resource (Puppet's `type_and_title`): the
/// empty title is the main class, `main`; any other title has its segments
/// capitalised (`foo::bar` is `Foo::Bar`), after dropping a leading `::`.
/// So the main class is `Class[main]` and a class named `main` could only be
/// `Class[Main]`.
pub fn canonical_class_title(title: &str) -> String {
    canonical_title_ref("Class", title).into_owned()
}

/// The canonical title for a resource of type `canonical_type` (already
/// canonical): class titles are capitalised, all other titles are kept.
pub fn canonical_title(canonical_type: &str, title: &str) -> String {
    canonical_title_ref(canonical_type, title).into_owned()
}

/// [`canonical_title`], borrowed where it is the title itself (for a
/// class: [`canonical_class_title`]).
pub fn canonical_title_ref<'t>(canonical_type: &str, title: &'t str) -> Cow<'t, str> {
    if canonical_type != "Class" {
        return Cow::Borrowed(title);
    }
    let t = title.strip_prefix("::").unwrap_or(title);
    if t.is_empty() {
        return Cow::Borrowed("main");
    }
    capitalized_segments(t)
}

/// A resource reference as Puppet prints it in catalogs, edges and
/// relationship parameters: `File[/tmp/x]`, `Class[Foo::Bar]`, `Class[main]`
/// (no quotes around the title).
pub fn reference(type_name: &str, title: &str) -> String {
    let t = canonical_type(type_name);
    let title = canonical_title(&t, title);
    bracketed(&t, &title)
}

/// `Type[title]` from parts already in their printed form, in one
/// allocation (`format!` costs several times as much, and this is made for
/// every reference a catalog writes).
pub fn bracketed(type_name: &str, title: &str) -> String {
    let mut out = String::with_capacity(type_name.len() + title.len() + 2);
    out.push_str(type_name);
    out.push('[');
    out.push_str(title);
    out.push(']');
    out
}

/// Ruby's `String#inspect` for UTF-8 strings, as Puppet's messages show keys
/// (`"b"`, `"a\"b"`, `"\#{x}"`).
pub fn ruby_inspect_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\u{0c}' => out.push_str("\\f"),
            '\u{0b}' => out.push_str("\\v"),
            '\u{08}' => out.push_str("\\b"),
            '\u{07}' => out.push_str("\\a"),
            '\u{1b}' => out.push_str("\\e"),
            '#' if matches!(chars.peek(), Some('{' | '$' | '@')) => out.push_str("\\#"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\u{:04X}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `foo::bar` → `Foo::Bar`, as Puppet capitalises type names and class titles.
pub fn capitalize_name(name: &str) -> String {
    // A byte walk: `split("::")` built a substring searcher per call, and
    // this runs for every class reference written to a catalog.
    let name = puppet_syntax::util::NameStr::trim_colons(name);
    if name.is_ascii() {
        // Bytes in, bytes out: the first byte and each one after `::`
        // upper-cased, in one copy.
        let mut out = name.to_string();
        let b = name.as_bytes();
        let mut segment_start = true;
        let mut i = 0;
        while i < b.len() {
            if b[i] == b':' && b.get(i + 1) == Some(&b':') {
                segment_start = true;
                i += 2;
                continue;
            }
            if segment_start {
                if let Some(c) = out.get_mut(i..=i) {
                    c.make_ascii_uppercase();
                }
                segment_start = false;
            }
            i += 1;
        }
        return out;
    }
    let mut out = String::with_capacity(name.len());
    let mut segment_start = true;
    let mut rest = name;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("::") {
            out.push_str("::");
            segment_start = true;
            rest = after;
            continue;
        }
        let mut chars = rest.chars();
        let Some(c) = chars.next() else { break };
        if segment_start {
            out.extend(c.to_uppercase());
            segment_start = false;
        } else {
            out.push(c);
        }
        rest = chars.as_str();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capitalisation_follows_ruby() {
        assert_eq!(capitalize_segments("foo::bar"), "Foo::Bar");
        assert_eq!(capitalize_segments("fOO::bAR"), "Foo::Bar");
        assert_eq!(capitalize_segments("FOO::bar"), "FOO::bar");
        assert_eq!(capitalize_segments("a::::b"), "A::::B");
        assert_eq!(capitalize_segments("foo::"), "Foo::");
        assert_eq!(capitalize_segments(""), "");
        assert_eq!(canonical_type("::file"), "File");
        assert_eq!(canonical_class_title(""), "main");
        assert_eq!(canonical_class_title("main"), "Main");
        assert_eq!(reference("class", "::foo::bar"), "Class[Foo::Bar]");
        assert_eq!(reference("file", "/tmp/X"), "File[/tmp/X]");
    }

    #[test]
    fn inspect_like_ruby() {
        assert_eq!(ruby_inspect_str("b"), "\"b\"");
        assert_eq!(
            ruby_inspect_str("a\"b\\c\n#{x}#y"),
            "\"a\\\"b\\\\c\\n\\#{x}#y\""
        );
        assert_eq!(ruby_inspect_str("\u{1}é"), "\"\\u0001é\"");
    }
}
