//! Reads a type registered through the Resource API
//! (`Puppet::ResourceApi.register_type(name: 'x', attributes: {...})`,
//! puppetlabs-firewall 7 and later, mysql's `mysql_login_path`) without
//! Ruby, as `puppet/resource_api.rb` (8.10's) turns the definition into a
//! `Puppet::Type`:
//!
//! - each attribute becomes, in order, a parameter when its behaviour is
//!   `:namevar`, `:parameter` or `:read_only`, else a property (no
//!   behaviour, `:init_only`);
//! - the namevars are the key attributes;
//! - `title_patterns:` are regexes whose named groups name the attributes;
//!   without them the whole title is the first namevar;
//! - with the `custom_insync` feature and no attribute lacking a behaviour,
//!   a hidden property `rsapi_custom_insync_trigger` is added;
//! - no `provider` parameter: the Resource API's providers are not
//!   `Puppet::Type.provide`d.
//!
//! The definition is read from the file's code (strings, heredocs and
//! comments blanked, see [`blank_code`]) by its brackets; what the reader
//! does not understand is refused with a reason, as the `newtype` reader
//! does. Puppet 7.23 as Debian 12 packages it has no `puppet/resource_api`:
//! [`TypeDef::needs_resource_api`] lets the compiler say what it says.

use super::ruby_reader::{blank_code, regex_literal};
use super::{TitlePattern, TypeDef};

/// Whether a type file registers its type through the Resource API.
pub(super) fn registers_type(code: &str) -> bool {
    code.contains("ResourceApi.register_type(")
}

/// The type the file's `register_type` call defines, or why it cannot be
/// read.
pub(super) fn read(text: &str) -> Result<TypeDef, String> {
    let code = blank_code(text);
    let raw: Vec<&str> = text.lines().collect();
    const CALL: &str = "ResourceApi.register_type";
    let at = code.find(CALL).ok_or("register_type not understood")?;
    let definition = inside(&code, at + CALL.len())?;
    let top = entries(&code, definition)?;
    let name = top
        .iter()
        .find(|e| e.key == "name")
        .ok_or("register_type without a name")?;
    let name = string_value(raw_line(&raw, &code, name.at), "name")?;

    let attributes = top
        .iter()
        .find(|e| e.key == "attributes")
        .ok_or("register_type without attributes")?;
    let (mut params, mut props, mut namevars) = (Vec::new(), Vec::new(), Vec::new());
    let mut insyncable = false;
    for attr in entries(&code, inside(&code, attributes.value.0)?)? {
        let options = entries(&code, inside(&code, attr.value.0)?)?;
        if !options.iter().any(|o| o.key == "desc") {
            // Puppet warns of it while loading the type.
            return Err(format!("attribute `{}` has no desc", attr.key));
        }
        let behaviour = options
            .iter()
            .find(|o| o.key == "behaviour" || o.key == "behavior")
            .map(|o| code[o.value.0..o.value.1].trim());
        match behaviour {
            Some(":namevar") => {
                namevars.push(attr.key.to_string());
                params.push(attr.key.to_string());
            }
            Some(":parameter" | ":read_only") => params.push(attr.key.to_string()),
            Some(":init_only") => props.push(attr.key.to_string()),
            None => {
                insyncable = true;
                props.push(attr.key.to_string());
            }
            Some(other) => return Err(format!("behaviour `{other}` not understood")),
        }
    }
    if namevars.is_empty() {
        return Err("no namevar attribute".into());
    }
    let custom_insync = top.iter().find(|e| e.key == "features").is_some_and(|f| {
        raw_lines(&raw, &code, f.value)
            .iter()
            .any(|l| l.contains("'custom_insync'") || l.contains("\"custom_insync\""))
    });
    if custom_insync && !insyncable {
        props.push("rsapi_custom_insync_trigger".to_string());
    }

    let title_patterns = match top.iter().find(|e| e.key == "title_patterns") {
        Some(e) => Some(title_patterns(&raw, &code, e.value)?),
        // The Resource API's default: the whole title (`/(.*)/m`) for the
        // first namevar, however many there are.
        None if namevars.len() > 1 => Some(vec![TitlePattern {
            regex: "(?m)(.*)".to_string(),
            attributes: vec![namevars[0].clone()],
        }]),
        None => None,
    };
    Ok(TypeDef {
        name,
        parameters: params,
        properties: props,
        key_attributes: namevars,
        isomorphic: true,
        title_patterns,
        needs_resource_api: true,
        accepted: Default::default(),
    })
}

/// One `key: value` (or `:key => value`) of a hash or argument list; the
/// value's span in the code.
struct Entry<'c> {
    key: &'c str,
    at: usize,
    value: (usize, usize),
}

/// The span inside the bracket that opens at `open` (after spaces).
fn inside(code: &str, open: usize) -> Result<(usize, usize), String> {
    let start = open + code[open..].len() - code[open..].trim_start().len();
    let close = match code[start..].chars().next() {
        Some('(') => ')',
        Some('{') => '}',
        Some('[') => ']',
        _ => return Err(format!("expected a bracket at `{}`", snippet(code, start))),
    };
    let mut depth = 0usize;
    for (k, c) in code[start..].char_indices() {
        match c {
            '(' | '{' | '[' => depth += 1,
            ')' | '}' | ']' => {
                depth -= 1;
                if depth == 0 {
                    if c != close {
                        break;
                    }
                    return Ok((start + 1, start + k));
                }
            }
            _ => {}
        }
    }
    Err(format!("unbalanced brackets at `{}`", snippet(code, start)))
}

/// The parts of a hash, array or argument list between `span`, cut at its
/// own commas, each without its leading spaces; empty parts left out.
fn parts(code: &str, span: (usize, usize)) -> Vec<(usize, usize)> {
    let mut cuts = Vec::new();
    let mut depth = 0usize;
    let mut from = span.0;
    for (k, c) in code[span.0..span.1].char_indices() {
        match c {
            '(' | '{' | '[' => depth += 1,
            ')' | '}' | ']' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                cuts.push((from, span.0 + k));
                from = span.0 + k + 1;
            }
            _ => {}
        }
    }
    cuts.push((from, span.1));
    cuts.into_iter()
        .map(|(a, b)| (a + code[a..b].len() - code[a..b].trim_start().len(), b))
        .filter(|&(a, b)| !code[a..b].trim().is_empty())
        .collect()
}

/// The entries of a hash or argument list between `span`.
fn entries(code: &str, span: (usize, usize)) -> Result<Vec<Entry<'_>>, String> {
    parts(code, span)
        .into_iter()
        .map(|(at, end)| {
            let (key, rest) = key_of(&code[at..end])
                .ok_or_else(|| format!("not a `key: value` at `{}`", snippet(code, at)))?;
            Ok(Entry {
                key,
                at,
                value: (end - rest.len(), end),
            })
        })
        .collect()
}

/// `name: rest` or `:name => rest` (symbol keys, as the Resource API's
/// definitions have them).
fn key_of(entry: &str) -> Option<(&str, &str)> {
    let word = |s: &str| s.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'));
    if let Some(s) = entry.strip_prefix(':') {
        let end = word(s)?;
        let rest = s[end..].trim_start().strip_prefix("=>")?;
        return (end > 0).then(|| (&s[..end], rest));
    }
    let end = word(entry)?;
    let rest = entry[end..].strip_prefix(':')?;
    if end == 0 || rest.starts_with(':') {
        return None;
    }
    Some((&entry[..end], rest))
}

/// The file's line holding code offset `at` (the blanked code keeps the
/// file's lines).
fn raw_line<'t>(raw: &[&'t str], code: &str, at: usize) -> &'t str {
    raw.get(code[..at].matches('\n').count())
        .copied()
        .unwrap_or("")
}

/// The file's lines over a code span.
fn raw_lines<'t>(raw: &'t [&'t str], code: &str, span: (usize, usize)) -> &'t [&'t str] {
    let first = code[..span.0].matches('\n').count();
    let last = code[..span.1].matches('\n').count();
    raw.get(first..=last.min(raw.len().saturating_sub(1)))
        .unwrap_or_default()
}

/// The string literal after `key:` on a line: `name: 'firewallchain',`.
fn string_value(line: &str, key: &str) -> Result<String, String> {
    let after = line
        .split_once(&format!("{key}:"))
        .map(|(_, r)| r.trim_start())
        .ok_or_else(|| format!("`{key}` not on one line"))?;
    let quote = after
        .chars()
        .next()
        .filter(|q| matches!(q, '\'' | '"'))
        .ok_or_else(|| format!("`{key}` is not a string literal"))?;
    let value = after[1..]
        .split(quote)
        .next()
        .filter(|v| !v.contains('\\') && !v.contains("#{"))
        .ok_or_else(|| format!("`{key}` is not a plain string"))?;
    Ok(value.to_string())
}

/// `title_patterns: [{ pattern: %r{...}, desc: '...' }, ...]`: each regex,
/// its named groups (in order) the attributes, as
/// `parse_title_patterns` makes them.
fn title_patterns(
    raw: &[&str],
    code: &str,
    span: (usize, usize),
) -> Result<Vec<TitlePattern>, String> {
    let mut out = Vec::new();
    for (item, _) in parts(code, inside(code, span.0)?) {
        let options = entries(code, inside(code, item)?)?;
        let pattern = options
            .iter()
            .find(|o| o.key == "pattern")
            .ok_or("title_patterns: an item without a pattern")?;
        let line = raw_line(raw, code, pattern.at);
        let after = line
            .split_once("pattern:")
            .map(|(l, r)| l.len() + "pattern:".len() + r.len() - r.trim_start().len())
            .ok_or("title_patterns: pattern not on one line")?;
        let (src, next) = if line[after..].starts_with("%r{") {
            regex_literal(line, after + 3, '{', '}')?
        } else if line[after..].starts_with('/') {
            regex_literal(line, after + 1, '/', '/')?
        } else {
            return Err("title_patterns: a pattern that is not a regex literal".into());
        };
        let flags: String = line[next..]
            .chars()
            .take_while(char::is_ascii_alphabetic)
            .collect();
        let attributes = group_names(&src)?;
        if attributes.is_empty() {
            return Err("title_patterns: a pattern without named groups".into());
        }
        let regex = if flags.is_empty() {
            src
        } else {
            format!("(?{flags}){src}")
        };
        out.push(TitlePattern { regex, attributes });
    }
    Ok(out)
}

/// A regex's named groups in order, each once (`Regexp#names`). A regex
/// with unnamed groups as well is refused: Ruby does not capture them when
/// groups are named, the regex pverify compiles would.
fn group_names(src: &str) -> Result<Vec<String>, String> {
    let b = src.as_bytes();
    let mut names: Vec<String> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 1,
            b'(' if src[i + 1..].starts_with("?<")
                && !src[i + 1..].starts_with("?<=")
                && !src[i + 1..].starts_with("?<!") =>
            {
                let rest = &src[i + 3..];
                let end = rest.find('>').ok_or("title_patterns: an open group name")?;
                let name = rest[..end].to_string();
                if !names.contains(&name) {
                    names.push(name);
                }
            }
            b'(' if !src[i + 1..].starts_with('?') => {
                return Err("title_patterns: a pattern with unnamed groups".into())
            }
            _ => {}
        }
        i += 1;
    }
    Ok(names)
}

fn snippet(code: &str, at: usize) -> String {
    code[at..].chars().take(20).collect()
}

#[cfg(test)]
mod tests {
    use super::read;

    fn definition(attributes: &str, extra: &str) -> String {
        format!(
            "require 'puppet/resource_api'\n\nPuppet::ResourceApi.register_type(\n  \
             name: 'thing',\n  docs: <<-DOC,\n    Mentions register_type( and {{ braces.\n  \
             DOC\n{extra}  attributes: {{\n{attributes}  }},\n)\n"
        )
    }

    #[test]
    fn attributes_become_parameters_and_properties_by_behaviour() {
        let text = definition(
            "    name: { type: 'String', desc: 'n', behaviour: :namevar },\n    \
             size: { type: 'Integer', desc: 's' },\n    \
             mode: { type: 'String', desc: 'm', behaviour: :parameter },\n    \
             seen: { type: 'String', desc: 'r', behaviour: :read_only },\n    \
             made: { type: 'String', desc: 'i', behaviour: :init_only },\n",
            "",
        );
        let t = read(&text).expect("read");
        assert_eq!(t.name, "thing");
        assert_eq!(t.parameters, ["name", "mode", "seen"]);
        assert_eq!(t.properties, ["size", "made"]);
        assert_eq!(t.key_attributes, ["name"]);
        assert!(t.needs_resource_api && t.title_patterns.is_none());
    }

    #[test]
    fn what_the_reader_does_not_understand_is_refused() {
        let namevar = "    name: { type: 'String', desc: 'n', behaviour: :namevar },\n";
        let unnamed_groups =
            "  title_patterns: [{ pattern: %r{^(?<name>.*)-(a|b)$}, desc: 'x' }],\n";
        for (attributes, extra, why) in [
            (
                "    name: { type: 'String', behaviour: :namevar },\n",
                "",
                "attribute `name` has no desc",
            ),
            (
                "    name: { type: 'String', desc: 'n', behaviour: :odd },\n",
                "",
                "behaviour `:odd` not understood",
            ),
            (
                namevar,
                unnamed_groups,
                "title_patterns: a pattern with unnamed groups",
            ),
        ] {
            assert_eq!(
                read(&definition(attributes, extra)).err().as_deref(),
                Some(why)
            );
        }
        let computed = definition(ATTRS_FROM_A_CONSTANT, "");
        assert!(read(&computed).is_err());
    }

    const ATTRS_FROM_A_CONSTANT: &str = "    **COMMON_ATTRIBUTES,\n";
}
