//! The canonical form of a compiled catalog: Puppet's catalog JSON with the
//! parts that change from run to run fixed, and paths made relative to the
//! environment directory, so that catalogs compiled anywhere compare as text.

use serde_json::Value;

/// The `catalog_uuid` of every canonical catalog.
pub const CANONICAL_UUID: &str = "00000000-0000-0000-0000-000000000000";

/// The canonical text of a catalog in Puppet's JSON form (`to_data_hash`):
/// `version` 0, `catalog_uuid` [`CANONICAL_UUID`], `code_id` null, and each
/// resource's `file` relative to `env_dir` when it lies below it. Everything
/// else, order included (keys, resources, tags, edges, classes), is kept as
/// given. Pretty-printed with a two-space indent, no final newline.
pub fn canonicalize_catalog(json: &Value, env_dir: &str) -> String {
    canonical_catalog_text(json.clone(), env_dir)
}

/// [`canonicalize_catalog`] of a catalog the caller no longer needs: made
/// canonical in place, without a copy of the whole tree.
pub fn canonical_catalog_text(mut v: Value, env_dir: &str) -> String {
    if let Value::Object(m) = &mut v {
        // Assigning through get_mut keeps each key where Puppet put it.
        if let Some(x) = m.get_mut("version") {
            *x = Value::from(0);
        }
        if let Some(x) = m.get_mut("catalog_uuid") {
            *x = Value::from(CANONICAL_UUID);
        }
        if let Some(x) = m.get_mut("code_id") {
            *x = Value::Null;
        }
        if let Some(Value::Array(resources)) = m.get_mut("resources") {
            for r in resources {
                if let Some(Value::String(file)) = r.get_mut("file") {
                    *file = relative_path(file, env_dir);
                }
            }
        }
    }
    serde_json::to_string_pretty(&v).expect("a JSON value serializes")
}

/// `path` relative to `env_dir` when it lies below it, else `path` (with
/// the Debian 13 root's module copy named as Debian names it).
fn relative_path(path: &str, env_dir: &str) -> String {
    let dir = env_dir.trim_end_matches('/');
    match path
        .strip_prefix(dir)
        .and_then(|rest| rest.strip_prefix('/'))
    {
        Some(rest) if !dir.is_empty() => rest.to_string(),
        _ => debian_named(path),
    }
}

/// A text with the Debian 13 root's resolved module copy (where pverify and
/// Puppet 8 read Debian 13's modules) written `/usr/share/puppet/modules`,
/// as Debian installs them: expectations do not depend on where the root is.
fn debian_named(text: &str) -> String {
    // Every node's catalog and texts pass here: the path is made once.
    static MIRROR: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let mirror = MIRROR.get_or_init(|| {
        crate::reference::debian_modules(crate::reference::PuppetVersion::V8)
            .to_string_lossy()
            .into_owned()
    });
    if !text.contains(mirror.as_str()) {
        return text.to_string();
    }
    text.replace(mirror.as_str(), crate::reference::DEBIAN_MODULES)
}

/// An error or warning text with every path below `env_dir` made relative
/// to it (`<env_dir>/` is removed wherever it occurs, `file://` URIs
/// included) and `env_dir` itself written `.`, and Ruby's object addresses
/// written as zeros (see [`zero_object_addresses`]).
pub fn relativize_text(text: &str, env_dir: &str) -> String {
    let dir = env_dir.trim_end_matches('/');
    let text = zero_object_addresses(text);
    if dir.is_empty() {
        return debian_named(&text);
    }
    debian_named(&text.replace(&format!("{dir}/"), "").replace(dir, "."))
}

/// A text with the address in each Ruby object inspection
/// (`#<Puppet::Resource::Type:0x00007f307488a878>`) written as sixteen
/// zeros: the address is new in every process, so only this form can be
/// compared, and pverify writes it so (`parameter_already_set`).
fn zero_object_addresses(text: &str) -> std::borrow::Cow<'_, str> {
    const MARK: &str = ":0x";
    if !text.contains("#<") || !text.contains(MARK) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find("#<") {
        let after = &rest[open + 2..];
        let class_len = after.find(MARK).filter(|&i| {
            i > 0
                && after[..i]
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':')
        });
        let digits = class_len.map_or(0, |i| {
            let hex = &after[i + MARK.len()..];
            hex.find(|c: char| !c.is_ascii_hexdigit())
                .unwrap_or(hex.len())
        });
        out.push_str(&rest[..open + 2]);
        match class_len {
            Some(i) if digits > 0 => {
                out.push_str(&after[..i]);
                out.push_str(":0x0000000000000000");
                rest = &after[i + MARK.len() + digits..];
            }
            _ => rest = after,
        }
    }
    out.push_str(rest);
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zeroes_ruby_object_addresses() {
        assert_eq!(
            relativize_text(
                "set on Notify[r1] by #<Puppet::Resource::Type:0x00007f307488a878> at x; \
                 [#<Puppet::Pops::Types::PCollectionType:0x00007f25fe610780 @size_type=nil>] \
                 #<Foo> #<A::B:0xzz> #<",
                ""
            ),
            "set on Notify[r1] by #<Puppet::Resource::Type:0x0000000000000000> at x; \
             [#<Puppet::Pops::Types::PCollectionType:0x0000000000000000 @size_type=nil>] \
             #<Foo> #<A::B:0xzz> #<"
        );
    }

    #[test]
    fn fixes_version_uuid_code_id_and_files_in_place() {
        let catalog: Value = serde_json::from_str(
            r#"{"tags":["settings"],"name":"n","version":1700000000,"code_id":"abc",
                "catalog_uuid":"1ab25105-1454-4f9c-8e95-d7cee8d6b9c5","catalog_format":2,
                "environment":"production",
                "resources":[{"type":"Notify","title":"a","tags":["notify","a"],
                  "file":"/tmp/e/production/manifests/site.pp","line":3,"exported":false,
                  "kind":"compilable_type"},
                  {"type":"File","title":"/x","tags":["file"],"file":"/elsewhere/m.pp","line":1,
                  "exported":false,"kind":"compilable_type","parameters":{"z":1,"a":2}}],
                "edges":[],"classes":["settings"]}"#,
        )
        .unwrap();
        let text = canonicalize_catalog(&catalog, "/tmp/e/production/");
        let expected = r#"{
  "tags": [
    "settings"
  ],
  "name": "n",
  "version": 0,
  "code_id": null,
  "catalog_uuid": "00000000-0000-0000-0000-000000000000",
  "catalog_format": 2,
  "environment": "production",
  "resources": [
    {
      "type": "Notify",
      "title": "a",
      "tags": [
        "notify",
        "a"
      ],
      "file": "manifests/site.pp",
      "line": 3,
      "exported": false,
      "kind": "compilable_type"
    },
    {
      "type": "File",
      "title": "/x",
      "tags": [
        "file"
      ],
      "file": "/elsewhere/m.pp",
      "line": 1,
      "exported": false,
      "kind": "compilable_type",
      "parameters": {
        "z": 1,
        "a": 2
      }
    }
  ],
  "edges": [],
  "classes": [
    "settings"
  ]
}"#;
        assert_eq!(text, expected);
    }

    #[test]
    fn relative_path_needs_a_whole_component() {
        assert_eq!(relative_path("/a/prod/x.pp", "/a/prod"), "x.pp");
        assert_eq!(
            relative_path("/a/production/x.pp", "/a/prod"),
            "/a/production/x.pp"
        );
        assert_eq!(relative_path("/a/prod", "/a/prod"), "/a/prod");
    }

    #[test]
    fn relativizes_texts() {
        let t =
            "Syntax error at '}' (file: /tmp/e/production/manifests/site.pp, line: 3, column: 22) \
                 Originally set at file:///tmp/e/production/m.pp?line=1; in /tmp/e/production";
        assert_eq!(
            relativize_text(t, "/tmp/e/production"),
            "Syntax error at '}' (file: manifests/site.pp, line: 3, column: 22) \
             Originally set at file://m.pp?line=1; in ."
        );
    }
}
