//! Hiera and `lookup()`: misses, recursion, data files, interpolation.
//! Puppet writes these in `pops/lookup*.rb`, `functions/*_data.rb` and, for
//! the interpolation ones, `issues.rb` (`HIERA_*`).

use std::fmt::Display;

/// `lookup()` without arguments (its dispatch).
pub(crate) const EXPECTS_AN_ARGUMENT: &str = "'lookup' expects at least one argument";

/// `pops/lookup.rb`: "Function lookup() did not find a value for the name
/// '%{name}'".
pub(crate) fn not_found(name: impl Display) -> String {
    format!("Function lookup() did not find a value for the name '{name}'")
}

/// `pops/lookup.rb`: "Function lookup() did not find a value for any of the
/// names [%{name_list}]" (each name quoted).
pub(crate) fn none_found(quoted_names: impl Display) -> String {
    format!("Function lookup() did not find a value for any of the names [{quoted_names}]")
}

/// The 3.x `hiera*()` functions' deprecation warning (their
/// `Puppet.warn_once`), with the URL of the documentation of Puppet's
/// `minor_version` (`7.23`, `8.10`).
pub(crate) fn hiera_function_deprecated(name: impl Display, minor_version: impl Display) -> String {
    format!(
        "The function '{name}' is deprecated in favor of using 'lookup'. See https://puppet.com/docs/puppet/{minor_version}/deprecated_language.html\n   (file & line not available)"
    )
}

/// Puppet's `HIERA_VERSION_3_NOT_GLOBAL` (under `strict = error`), located
/// at the file: "hiera.yaml version 3 cannot be used in %{location}" (`an
/// environment`, `a module`).
pub(crate) fn hiera_version_3_not_global(location: impl Display, path: impl Display) -> String {
    format!("hiera.yaml version 3 cannot be used in {location} (file: {path})")
}

/// pverify's own: a global `hiera.yaml` of version 3 is not read.
pub(crate) fn global_version_3_unread(path: impl Display) -> String {
    format!("{path}: pverify does not read a global hiera.yaml of version 3")
}

/// `lookup_adapter.rb`: "Lookup of key '%{key}' failed: %{detail}".
pub(crate) fn key_failed(key: impl Display, detail: impl Display) -> String {
    format!("Lookup of key '{key}' failed: {detail}")
}

/// `eyaml_lookup_key.rb`: "hiera-eyaml backend error decrypting %{data}
/// when looking up %{key} in %{path}. Error was %{message}".
pub(crate) fn eyaml_decrypt_failed(
    data: impl Display,
    key: impl Display,
    path: impl Display,
    message: impl Display,
) -> String {
    format!("hiera-eyaml backend error decrypting {data} when looking up {key} in {path}. Error was {message}")
}

/// The prefix every [`key_failed`] text starts with (a failure already
/// wrapped is not wrapped again).
pub(crate) const KEY_FAILED_PREFIX: &str = "Lookup of key ";

/// `invocation.rb`: "Recursive lookup detected in [%{name_stack}]".
pub(crate) fn recursive_lookup(name_stack: impl Display) -> String {
    format!("Recursive lookup detected in [{name_stack}]")
}

/// `yaml_data.rb`: "Unable to parse %{message}".
pub(crate) fn unable_to_parse(message: impl Display) -> String {
    format!("Unable to parse {message}")
}

/// `yaml_data.rb`'s warning: "%{path}: file does not contain a valid yaml
/// hash".
pub(crate) fn not_a_yaml_hash(path: impl Display) -> String {
    format!("{path}: file does not contain a valid yaml hash")
}

/// `module_data_provider.rb`: "#{yield} must use keys qualified with the
/// name of the module", where the block names the module, function and
/// location.
pub(crate) fn module_keys_unqualified(
    module: impl Display,
    function: impl Display,
    location: impl Display,
) -> String {
    format!(
        "Module '{module}': Value returned from data_hash function '{function}', when using location '{location}', must use keys qualified with the name of the module"
    )
}

/// `data_provider.rb`: "#{yield} has wrong type, expects
/// Puppet::LookupValue, got #{actual_type}".
pub(crate) fn not_a_lookup_value(
    key: impl Display,
    function: impl Display,
    location: impl Display,
    got: impl Display,
) -> String {
    format!(
        "Value for key '{key}', in hash returned from data_hash function '{function}', when using location '{location}', has wrong type, expects Puppet::LookupValue, got {got}"
    )
}

/// `yaml_data.rb`/`json_data.rb`'s `missing_location` text, after the
/// function's name in quotes.
pub(crate) fn location_missing(function: impl Display) -> String {
    format!(
        "'{function}' one of 'path', 'paths' 'glob', 'globs' or 'mapped_paths' must be declared in hiera.yaml when using this data_hash function"
    )
}

/// Puppet's `HIERA_INTERPOLATION_ALIAS_NOT_ENTIRE_STRING`: "'alias'
/// interpolation is only permitted if the expression is equal to the
/// entire string".
pub(crate) const HIERA_INTERPOLATION_ALIAS_NOT_ENTIRE_STRING: &str =
    "'alias' interpolation is only permitted if the expression is equal to the entire string";

/// Puppet's `HIERA_INTERPOLATION_UNKNOWN_INTERPOLATION_METHOD`: "Unknown
/// interpolation method '%{name}'".
pub(crate) fn hiera_interpolation_unknown_interpolation_method(name: impl Display) -> String {
    format!("Unknown interpolation method '{name}'")
}

/// Puppet's `HIERA_UNDEFINED_VARIABLE` ("Undefined variable '%{name}'"), a
/// warning, with the `;` and position Puppet's logger gives it.
pub(crate) fn hiera_undefined_variable(name: impl Display) -> String {
    format!("Undefined variable '{name}'; \n   (file & line not available)")
}

/// `Scope#variable_not_found` under `strict = error`: the ArgumentError
/// "Undefined variable '%{name}'; %{reason}" (no reason for Hiera).
pub(crate) fn undefined_variable_error(name: impl Display) -> String {
    format!("Undefined variable '{name}'; ")
}

/// `Scope#variable_not_found` under `strict = error` for a hierarchy path
/// (`avoid_hiera_interpolation_errors`): a warning, and the path goes on.
pub(crate) fn interpolation_failed(name: impl Display) -> String {
    format!("Interpolation failed with '{name}', but compilation continuing; \n   (file & line not available)")
}

/// How `function_provider.rb`'s texts name a custom backend and its
/// location: "Value returned from data_hash function 'f', when using
/// location 'p',".
fn returned_from(kind: &str, function: &str, location: Option<String>) -> String {
    match location {
        Some(l) => format!("{kind} function '{function}', when using location '{l}',"),
        None => format!("{kind} function '{function}'"),
    }
}

/// [`module_keys_unqualified`] for a custom data_hash function, which may
/// have no location.
pub(crate) fn module_keys_unqualified_at(
    module: &str,
    function: &str,
    location: Option<String>,
) -> String {
    format!(
        "Module '{module}': Value returned from {} must use keys qualified with the name of the module",
        returned_from("data_hash", function, location)
    )
}

/// `data_hash_function_provider.rb`'s check of the function's answer
/// (`TypeAsserter.assert_instance_of(nil, Hash, ...)`).
pub(crate) fn backend_not_a_hash(
    function: &str,
    location: Option<String>,
    got: &puppet_model::Value,
) -> String {
    puppet_model::types::describe_mismatch_named(
        &format!(
            "Value returned from {} has wrong type,",
            returned_from("data_hash", function, location)
        ),
        &puppet_model::types::PType::hash_of_any(),
        &puppet_model::types::infer_set(got),
    )
}

/// `function_provider.rb`'s check of a backend's declared return type
/// (`TypeAsserter.assert_assignable`).
pub(crate) fn backend_return_type(
    kind: &str,
    function: &str,
    trusted: &puppet_model::types::PType,
    declared: &puppet_model::types::PType,
) -> String {
    puppet_model::types::describe_mismatch_named(
        &format!("Return type of '{kind}' function named '{function}' is incorrect,"),
        trusted,
        declared,
    )
}

/// `data_provider.rb`'s `validate_data_value` of a lookup_key or data_dig
/// function's value.
pub(crate) fn backend_not_a_lookup_value(
    key: &str,
    kind: &str,
    function: &str,
    location: Option<String>,
    got: impl Display,
) -> String {
    format!(
        "Value for key '{key}', returned from {} has wrong type, expects Puppet::LookupValue, got {got}",
        returned_from(kind, function, location)
    )
}

/// Puppet's `HIERA_DATA_PROVIDER_FUNCTION_NOT_FOUND`: "Unable to find
/// '%{function_type}' function named '%{function_name}'".
pub(crate) fn backend_function_not_found(
    kind: &str,
    function: &str,
    config: impl Display,
) -> String {
    format!("Unable to find '{kind}' function named '{function}' (file: {config})")
}

/// Puppet 8's [`module_keys_unqualified`], one per key it drops: "%{msg};
/// got %{key}".
pub(crate) fn module_key_unqualified_named(text: impl Display, key: impl Display) -> String {
    format!("{text}; got {key}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Puppet 7.23's texts (its sources named above, arguments filled in;
    /// the misses as `puppet lookup`/spec-suite cases report them).
    #[test]
    fn lookup_texts_are_puppets() {
        assert_eq!(
            not_found("x"),
            "Function lookup() did not find a value for the name 'x'"
        );
        assert_eq!(
            none_found("'a', 'b'"),
            "Function lookup() did not find a value for any of the names ['a', 'b']"
        );
        assert_eq!(
            key_failed("a", recursive_lookup("a, b, a")),
            "Lookup of key 'a' failed: Recursive lookup detected in [a, b, a]"
        );
        assert!(key_failed("k", "x").starts_with(KEY_FAILED_PREFIX));
        assert_eq!(
            location_missing("yaml_data"),
            "'yaml_data' one of 'path', 'paths' 'glob', 'globs' or 'mapped_paths' must be declared in hiera.yaml when using this data_hash function"
        );
        assert_eq!(
            hiera_interpolation_unknown_interpolation_method("foo"),
            "Unknown interpolation method 'foo'"
        );
        assert_eq!(
            HIERA_INTERPOLATION_ALIAS_NOT_ENTIRE_STRING,
            "'alias' interpolation is only permitted if the expression is equal to the entire string"
        );
        assert_eq!(
            not_a_yaml_hash("/d/common.yaml"),
            "/d/common.yaml: file does not contain a valid yaml hash"
        );
        assert_eq!(unable_to_parse("x"), "Unable to parse x");
        assert_eq!(
            hiera_undefined_variable("v"),
            "Undefined variable 'v'; \n   (file & line not available)"
        );
        assert_eq!(
            module_keys_unqualified("m", "yaml_data", "/m/data/common.yaml"),
            "Module 'm': Value returned from data_hash function 'yaml_data', when using location '/m/data/common.yaml', must use keys qualified with the name of the module"
        );
        assert_eq!(
            not_a_lookup_value("k", "yaml_data", "/d/c.yaml", "Symbol"),
            "Value for key 'k', in hash returned from data_hash function 'yaml_data', when using location '/d/c.yaml', has wrong type, expects Puppet::LookupValue, got Symbol"
        );
    }
}
