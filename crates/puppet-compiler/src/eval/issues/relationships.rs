//! Relationships, collectors, `realize` and the checks of catalog
//! completion (overrides and virtual resources left over).

use std::fmt::Display;

/// Puppet's `CollectorTransformer` (`collector_transformer.rb`): "Classes
/// cannot be collected".
pub(crate) const CLASSES_CANNOT_BE_COLLECTED: &str = "Classes cannot be collected";

/// Puppet's `CollectorTransformer`: "Resource type %{type} doesn't exist".
pub(crate) fn collected_type_unknown(type_name: impl Display) -> String {
    format!("Resource type {type_name} doesn't exist")
}

/// Puppet's `CollectorTransformer`: "Cannot transform a number to a tag".
pub(crate) const NUMBER_TO_TAG: &str = "Cannot transform a number to a tag";

/// Puppet's `CollectorTransformer`: "Cannot transform object of class
/// %{klass}" (a `Puppet::Pops::Model` class name).
pub(crate) fn cannot_transform(model_class: impl Display) -> String {
    format!("Cannot transform object of class Puppet::Pops::Model::{model_class}")
}

/// Puppet's `ExportedCollector#collect` (`exported_collector.rb`), a
/// collected resource whose type and title another resource (declared, or
/// collected from another node) has: "A duplicate resource was found while
/// collecting exported resources, with the type and title %{title}".
pub(crate) fn duplicate_collected_export(reference: impl Display) -> String {
    format!(
        "A duplicate resource was found while collecting exported resources, with the type and title {reference}"
    )
}

/// Puppet's `TypeParser` (`type_parser.rb`), a relationship operand string
/// that is no reference: "The expression <%{expression}> is not a valid
/// type specification.".
pub(crate) fn not_a_type_specification(expression: impl Display) -> String {
    format!("The expression <{expression}> is not a valid type specification.")
}

/// Puppet's `Resource#extract_type_and_title` (`resource.rb`): "No title
/// provided and %{type} is not a valid resource reference" (`type` as Ruby's
/// `inspect` shows it, quotes included).
pub(crate) fn untitled_reference(inspected: impl Display) -> String {
    format!("No title provided and {inspected} is not a valid resource reference")
}

/// The same raised from `realize`, as the compiler reports it:
/// "Puppet::Parser::Compiler failed with error ArgumentError: " + the
/// text above.
pub(crate) fn realize_untitled_reference(inspected: impl Display) -> String {
    format!(
        "Puppet::Parser::Compiler failed with error ArgumentError: {}",
        untitled_reference(inspected)
    )
}

/// Puppet's `Parser::Relationship#evaluate` (`parser/relationship.rb`),
/// source missing: "Could not find resource '%{source}' for relationship on
/// '%{target}'".
pub(crate) fn relationship_source_not_found(source: impl Display, target: impl Display) -> String {
    format!("Could not find resource '{source}' for relationship on '{target}'")
}

/// `Parser::Relationship#evaluate`, target missing: "Could not find
/// resource '%{target}' for relationship from '%{source}'".
pub(crate) fn relationship_target_not_found(target: impl Display, source: impl Display) -> String {
    format!("Could not find resource '{target}' for relationship from '{source}'")
}

/// Puppet's `RelationshipValidator` (`catalog_validator/
/// relationship_validator.rb`): "Could not find resource '%{res}' in
/// parameter '%{param}'".
pub(crate) fn metaparam_resource_not_found(res: impl Display, param: impl Display) -> String {
    format!("Could not find resource '{res}' in parameter '{param}'")
}

/// Puppet's `Compiler#fail_on_unevaluated_overrides` (`parser/
/// compiler.rb`): "Could not find resource(s) %{resources} for overriding".
pub(crate) fn overridden_not_found(resources: impl Display) -> String {
    format!("Could not find resource(s) {resources} for overriding")
}

/// Puppet's `Compiler#fail_on_unevaluated_resource_collections`: "Failed
/// to realize virtual resources %{resources}".
pub(crate) fn failed_to_realize(resources: impl Display) -> String {
    format!("Failed to realize virtual resources {resources}")
}

#[cfg(test)]
mod tests {
    use super::*;

    // collector_transformer.rb, type_parser.rb, resource.rb,
    // parser/relationship.rb, relationship_validator.rb and
    // parser/compiler.rb, as Puppet 7.23 reports them.
    #[test]
    fn relationships_family() {
        assert_eq!(CLASSES_CANNOT_BE_COLLECTED, "Classes cannot be collected");
        assert_eq!(
            collected_type_unknown("foo"),
            "Resource type foo doesn't exist"
        );
        assert_eq!(NUMBER_TO_TAG, "Cannot transform a number to a tag");
        assert_eq!(
            duplicate_collected_export("Notify[a]"),
            "A duplicate resource was found while collecting exported resources, with the type and title Notify[a]"
        );
        assert_eq!(
            cannot_transform("CallNamedFunctionExpression"),
            "Cannot transform object of class Puppet::Pops::Model::CallNamedFunctionExpression"
        );
        assert_eq!(
            not_a_type_specification("x"),
            "The expression <x> is not a valid type specification."
        );
        assert_eq!(
            untitled_reference("\"File[]\""),
            "No title provided and \"File[]\" is not a valid resource reference"
        );
        assert_eq!(
            realize_untitled_reference("\"x\""),
            "Puppet::Parser::Compiler failed with error ArgumentError: No title provided and \"x\" is not a valid resource reference"
        );
        assert_eq!(
            relationship_source_not_found("File[a]", "File[b]"),
            "Could not find resource 'File[a]' for relationship on 'File[b]'"
        );
        assert_eq!(
            relationship_target_not_found("File[b]", "File[a]"),
            "Could not find resource 'File[b]' for relationship from 'File[a]'"
        );
        assert_eq!(
            metaparam_resource_not_found("File[x]", "require"),
            "Could not find resource 'File[x]' in parameter 'require'"
        );
        assert_eq!(
            overridden_not_found("File[a], File[b]"),
            "Could not find resource(s) File[a], File[b] for overriding"
        );
        assert_eq!(
            failed_to_realize("File[a]"),
            "Failed to realize virtual resources File[a]"
        );
    }
}
