//! Which names a node may have: Puppet's own checks on a certname, which
//! also keep a name usable as a file name (`<certname>.json` in an output
//! directory, `golden/<certname>.json`) without leaving that directory.
//!
//! Puppet 7.23 checks a certname in three places, each quoted here:
//! - `Puppet::Indirector::BadNameRegexp` (`indirector.rb`), which every file
//!   terminus (`indirector/yaml.rb`, `json.rb`, `msgpack.rb`: the server's
//!   node, facts and catalog caches) applies before making a path:
//!   `Regexp.union(/^\.\./, %r{[\\/]}, "\0", /(?i)^[a-z]:/)`, "directory
//!   traversal detected in ...", then `invalid key`;
//! - `Puppet::SSL::Base::VALID_CERTNAME = /\A[ -.0-~]+\Z/` ("Only allow
//!   printing ascii characters, excluding /"): "Certname %{name} must not
//!   contain unprintable or non-ASCII characters" (`name.inspect`);
//! - the `certname` setting's hook (`defaults.rb`): "Certificate names must
//!   be lower case", so no agent asks for an upper-case certname.
//!
//! One difference, on the safe side: Ruby's `\Z` also admits a final
//! newline, which is refused here like any other control character.

use puppet_model::names::ruby_inspect_str;

/// Checks a node's certname as Puppet does: a usable file stem (see
/// [`validate_file_stem`]) and lower case.
pub fn validate(name: &str) -> Result<(), String> {
    validate_file_stem(name)?;
    if name != name.to_lowercase() {
        return Err(format!(
            "Certname {}: Certificate names must be lower case",
            ruby_inspect_str(name)
        ));
    }
    Ok(())
}

/// Checks a name that becomes a file name (a certname, or a check matrix's
/// `<certname>@<factset>`): Puppet's traversal check and its printable-ASCII
/// rule, so `<name>.json` is always a plain entry of its directory.
pub fn validate_file_stem(name: &str) -> Result<(), String> {
    if is_traversal(name) {
        return Err(format!(
            "Certname {} is refused: directory traversal (a name must not start with '..', \
             nor hold '/', '\\', NUL or a drive letter; Puppet answers `invalid key`)",
            ruby_inspect_str(name)
        ));
    }
    if name.is_empty()
        || !name
            .bytes()
            .all(|b| (b' '..=b'~').contains(&b) && b != b'/')
    {
        return Err(format!(
            "Certname {} must not contain unprintable or non-ASCII characters",
            ruby_inspect_str(name)
        ));
    }
    Ok(())
}

/// `Puppet::Indirector::BadNameRegexp`.
fn is_traversal(name: &str) -> bool {
    let b = name.as_bytes();
    name.starts_with("..")
        || b.iter().any(|&c| matches!(c, b'/' | b'\\' | 0))
        || (b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1] == b':')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn puppets_rules() {
        for good in [
            "web01.example.com",
            "a",
            ".",
            "x..y",
            "n_1-2",
            "a b",
            "web@debian-12",
        ] {
            assert_eq!(validate(good), Ok(()), "{good}");
        }
        for traversal in ["..", "../x", "/tmp/x", "a/b", "a\\b", "a\0", "c:x", "C:"] {
            let e = validate(traversal).unwrap_err();
            assert!(e.contains("directory traversal"), "{traversal}: {e}");
        }
        for unprintable in ["", "a\nb", "a\n", "caf\u{e9}", "tab\t", "del\u{7f}"] {
            let e = validate(unprintable).unwrap_err();
            assert!(
                e.contains("unprintable or non-ASCII"),
                "{unprintable:?}: {e}"
            );
        }
        assert_eq!(
            validate("Web01").unwrap_err(),
            "Certname \"Web01\": Certificate names must be lower case"
        );
        assert_eq!(validate_file_stem("Web01@Debian"), Ok(()));
    }
}
