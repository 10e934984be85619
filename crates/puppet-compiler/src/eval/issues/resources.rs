//! Resource expressions: titles, attributes, declarations, defaults,
//! overrides and tags.

use std::fmt::Display;

/// Puppet's `UNKNOWN_RESOURCE_TYPE`: "Resource type not found:
/// %{res_type}".
pub(crate) fn unknown_resource_type(type_name: impl Display) -> String {
    format!("Resource type not found: {type_name}")
}

/// Puppet's `UNKNOWN_RESOURCE`: "Resource not found:
/// %{type_name}['%{title}']".
pub(crate) fn unknown_resource(type_name: impl Display, title: impl Display) -> String {
    format!("Resource not found: {type_name}['{title}']")
}

/// Puppet's `MISSING_TITLE`: "Missing title. The title expression resulted
/// in undef".
pub(crate) const MISSING_TITLE: &str = "Missing title. The title expression resulted in undef";

/// Puppet's `MISSING_TITLE_AT`: "Missing title at index %{index}. The title
/// expression resulted in an undef title".
pub(crate) fn missing_title_at(index: usize) -> String {
    format!("Missing title at index {index}. The title expression resulted in an undef title")
}

/// Puppet's `EMPTY_STRING_TITLE_AT`: "Empty string title at %{index}. Title
/// strings must have a length greater than zero.".
pub(crate) fn empty_string_title_at(index: usize) -> String {
    format!("Empty string title at {index}. Title strings must have a length greater than zero.")
}

/// Puppet's `ILLEGAL_TITLE_TYPE_AT`: "Illegal title type at index
/// %{index}. Expected String, got %{actual}".
pub(crate) fn illegal_title_type_at(index: usize, actual: impl Display) -> String {
    format!("Illegal title type at index {index}. Expected String, got {actual}")
}

/// Puppet's `DUPLICATE_TITLE`: "The title '%{title}' has already been used
/// in this resource expression".
pub(crate) fn duplicate_title(title: impl Display) -> String {
    format!("The title '{title}' has already been used in this resource expression")
}

/// Puppet's `DUPLICATE_ATTRIBUTE`: "The attribute '%{attribute}' has
/// already been set".
pub(crate) fn duplicate_attribute(attribute: impl Display) -> String {
    format!("The attribute '{attribute}' has already been set")
}

/// Puppet's `ILLEGAL_OVERRIDDEN_TYPE`: "Resource Override can only operate
/// on resources, got: %{actual}".
pub(crate) fn illegal_overridden_type(actual: impl Display) -> String {
    format!("Resource Override can only operate on resources, got: {actual}")
}

/// Puppet's `CLASS_NOT_VIRTUALIZABLE`: "Classes are not virtualizable".
pub(crate) const CLASS_NOT_VIRTUALIZABLE: &str = "Classes are not virtualizable";

/// An attribute splat (`* => $x`) of something else than a Hash (Puppet's
/// evaluator, `eval_AttributesOperation`): "Splatting of non-Hash".
pub(crate) const SPLAT_OF_NON_HASH: &str = "Splatting of non-Hash";

/// Puppet's `Resource#resource_type` (`resource.rb`): "Could not find
/// declared class %{title}".
pub(crate) fn declared_class_not_found(title: impl Display) -> String {
    format!("Could not find declared class {title}")
}

/// Puppet's `Util::Tagging#tag` (`util/tagging.rb`): "Invalid tag
/// '%{name}'" (the caller appends the location).
pub(crate) fn invalid_tag(name: impl Display) -> String {
    format!("Invalid tag '{name}'")
}

/// Puppet's `Scope#define_settings` (`parser/scope.rb`): "Default already
/// defined for %{type} { %{param} }; cannot redefine" (the caller appends
/// the location).
pub(crate) fn default_already_defined(type_name: impl Display, param: impl Display) -> String {
    format!("Default already defined for {type_name} {{ {param} }}; cannot redefine")
}

/// Puppet's `Parser::Resource#merge` (`parser/resource.rb`): "Only
/// subclasses can override parameters".
/// Puppet 8's `SERIALIZATION_ENDLESS_RECURSION` for a self-referring type
/// alias in a resource's parameters (`ToDataConverter`).
pub(crate) const SERIALIZATION_ENDLESS_RECURSION: &str =
    "Endless recursion detected when attempting to serialize value of class Puppet::Pops::Types::PTypeAliasType";

/// The Ruby error Puppet 8 lets through when a resource's parameter holds
/// `RichData`: its TypeSet cannot be initialized from its data.
pub(crate) const TYPESET_INITIALIZER_MISMATCH: &str = "Initializer for class Puppet::Pops::Types::PTypeSetType parameter 'name_or_init_hash' does not match any of the attributes of type Pcore::TypeSetType";

pub(crate) const ONLY_SUBCLASSES_CAN_OVERRIDE: &str = "Only subclasses can override parameters";

/// Puppet's `Parser::Resource#merge` on an evaluated resource: "Attempt to
/// override an already evaluated resource, defined at %{error_location},
/// with new values" (without a location when it has none).
pub(crate) fn override_evaluated(file: Option<&str>, line: Option<u32>) -> String {
    let location = match (file, line) {
        (Some(f), Some(l)) => format!("(file: {f}, line: {l})"),
        (Some(f), None) => format!("(file: {f})"),
        (None, Some(l)) => format!("(line: {l})"),
        (None, None) => {
            return "Attempt to override an already evaluated resource with new values".into()
        }
    };
    format!(
        "Attempt to override an already evaluated resource, defined at {location}, with new values"
    )
}

/// Puppet's `Parser::Resource#override_parameter`: "Parameter '%{name}' is
/// already set on %{resource} by %{source} at %{error_location}; cannot
/// redefine". The source is a `Puppet::Resource::Type`, which Ruby shows
/// with its object address, new in every process: written as zeros here,
/// as the oracle's canonical form writes Puppet's (`relativize_text`).
pub(crate) fn parameter_already_set(
    name: impl Display,
    resource: impl Display,
    file: Option<&str>,
    line: Option<u32>,
) -> String {
    let source = "#<Puppet::Resource::Type:0x0000000000000000>";
    let at = match (file, line) {
        (Some(f), Some(l)) => format!(" at (file: {f}, line: {l})"),
        (Some(f), None) => format!(" at (file: {f})"),
        (None, Some(l)) => format!(" at (line: {l})"),
        (None, None) => String::new(),
    };
    format!("Parameter '{name}' is already set on {resource} by {source}{at}; cannot redefine")
}

/// Puppet's `Resource::Catalog#fail_on_duplicate_type_and_title`
/// (`resource/catalog.rb`): "Duplicate declaration: %{resource} is already
/// declared%{ at (file: F, line: L)}; cannot redeclare" (`prev_at` is
/// empty or ` at (file: F, line: L)`).
pub(crate) fn duplicate_declaration(resource: impl Display, prev_at: impl Display) -> String {
    format!("Duplicate declaration: {resource} is already declared{prev_at}; cannot redeclare")
}

/// Puppet's `Resource#validate_parameter` (`resource.rb`): "no parameter
/// named '%{name}'".
pub(crate) fn no_parameter_named(name: impl Display) -> String {
    format!("no parameter named '{name}'")
}

/// Puppet's `Runtime3ResourceSupport#create_resources`
/// (`runtime3_resource_support.rb`), a type no Ruby or defined type
/// provides: "Unknown resource type: '%{type}'".
pub(crate) fn unknown_ruby_resource_type(type_name: impl Display) -> String {
    format!("Unknown resource type: '{type_name}'")
}

/// Puppet 7.23 (Debian 12, Ruby 3.1) autoloading a type file that requires
/// `puppet/resource_api`, which it does not have: Ruby's `LoadError` with
/// its `did_you_mean` suggestion.
pub(crate) fn resource_api_not_loadable(type_name: impl Display) -> String {
    format!(
        "Could not autoload puppet/type/{type_name}: cannot load such file -- \
         puppet/resource_api\nDid you mean?  puppet/resource"
    )
}

/// Puppet's `Resource#parse_title` (`resource.rb`): "No set of title
/// patterns matched the title \"%{title}\".".
pub(crate) fn no_title_pattern_matched(title: impl Display) -> String {
    format!("No set of title patterns matched the title \"{title}\".")
}

/// Puppet's `SERIALIZATION_UNKNOWN_CONVERTED_TO_STRING`: "%{path} contains
/// a %{klass} value. It will be converted to the String '%{value}'", raised
/// by the catalog's `ToDataConverter` for a Ruby object that is no Puppet
/// value (a Range a Ruby function returned). Puppet 7 logs it as a warning,
/// Puppet 8 (`strict = error`) fails with it.
pub(crate) fn converted_to_string(path: &str, class: &str, text: &str) -> String {
    format!("{path} contains a {class} value. It will be converted to the String '{text}'")
}

#[cfg(test)]
mod tests {
    use super::*;

    // issues.rb (UNKNOWN_RESOURCE_TYPE, UNKNOWN_RESOURCE, MISSING_TITLE,
    // MISSING_TITLE_AT, EMPTY_STRING_TITLE_AT, ILLEGAL_TITLE_TYPE_AT,
    // DUPLICATE_TITLE, DUPLICATE_ATTRIBUTE, ILLEGAL_OVERRIDDEN_TYPE,
    // CLASS_NOT_VIRTUALIZABLE) and Puppet's resource.rb, scope.rb,
    // catalog.rb and tagging.rb, as Puppet 7.23 reports them.
    #[test]
    fn resources_family() {
        assert_eq!(unknown_resource_type("Foo"), "Resource type not found: Foo");
        assert_eq!(
            unknown_resource("File", "/x"),
            "Resource not found: File['/x']"
        );
        assert_eq!(
            MISSING_TITLE,
            "Missing title. The title expression resulted in undef"
        );
        assert_eq!(
            missing_title_at(1),
            "Missing title at index 1. The title expression resulted in an undef title"
        );
        assert_eq!(
            empty_string_title_at(0),
            "Empty string title at 0. Title strings must have a length greater than zero."
        );
        assert_eq!(
            illegal_title_type_at(0, "Integer"),
            "Illegal title type at index 0. Expected String, got Integer"
        );
        assert_eq!(
            duplicate_title("a"),
            "The title 'a' has already been used in this resource expression"
        );
        assert_eq!(
            duplicate_attribute("mode"),
            "The attribute 'mode' has already been set"
        );
        assert_eq!(
            illegal_overridden_type("String"),
            "Resource Override can only operate on resources, got: String"
        );
        assert_eq!(CLASS_NOT_VIRTUALIZABLE, "Classes are not virtualizable");
        assert_eq!(SPLAT_OF_NON_HASH, "Splatting of non-Hash");
        assert_eq!(
            declared_class_not_found("nope"),
            "Could not find declared class nope"
        );
        assert_eq!(invalid_tag("a b"), "Invalid tag 'a b'");
        assert_eq!(
            default_already_defined("File", "mode"),
            "Default already defined for File { mode }; cannot redefine"
        );
        assert_eq!(
            ONLY_SUBCLASSES_CAN_OVERRIDE,
            "Only subclasses can override parameters"
        );
        assert_eq!(
            duplicate_declaration("File[/x]", " at (file: site.pp, line: 1)"),
            "Duplicate declaration: File[/x] is already declared at (file: site.pp, line: 1); cannot redeclare"
        );
        assert_eq!(
            unknown_ruby_resource_type("foo"),
            "Unknown resource type: 'foo'"
        );
        assert_eq!(no_parameter_named("foo"), "no parameter named 'foo'");
        assert_eq!(
            no_title_pattern_matched("x"),
            "No set of title patterns matched the title \"x\"."
        );
    }
}
