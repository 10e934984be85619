//! Classes, definitions and nodes: their registration (redefinitions),
//! declaration, parameters, stages and the node's catalog.

use std::fmt::Display;

/// Puppet's `TypeCollection#add_hostclass` (`resource/type_collection.rb`):
/// "Class '%{klass}' is already defined%{error}; cannot redefine"
/// (`error` is the previous one's ` (file: F, line: L)`).
pub(crate) fn class_redefined(name: impl Display, error: impl Display) -> String {
    format!("Class '{name}' is already defined{error}; cannot redefine")
}

/// `TypeCollection#add_hostclass`: "Node '%{klass}' is already
/// defined%{error}; cannot be redefined as a class".
pub(crate) fn node_redefined_as_class(name: impl Display, error: impl Display) -> String {
    format!("Node '{name}' is already defined{error}; cannot be redefined as a class")
}

/// `TypeCollection#add_hostclass`: "Definition '%{klass}' is already
/// defined%{error}; cannot be redefined as a class".
pub(crate) fn definition_redefined_as_class(name: impl Display, error: impl Display) -> String {
    format!("Definition '{name}' is already defined{error}; cannot be redefined as a class")
}

/// `TypeCollection#add_definition`: "'%{name}' is already
/// defined%{error} as a class; cannot redefine as a definition".
pub(crate) fn class_redefined_as_definition(name: impl Display, error: impl Display) -> String {
    format!("'{name}' is already defined{error} as a class; cannot redefine as a definition")
}

/// `TypeCollection#add_node`: "Node '%{name}' is already
/// defined%{error}; cannot redefine".
pub(crate) fn node_redefined(name: impl Display, error: impl Display) -> String {
    format!("Node '{name}' is already defined{error}; cannot redefine")
}

/// `TypeCollection#add_node`: "Class '%{klass}' is already
/// defined%{error}; cannot be redefined as a node".
pub(crate) fn class_redefined_as_node(name: impl Display, error: impl Display) -> String {
    format!("Class '{name}' is already defined{error}; cannot be redefined as a node")
}

/// Puppet's `BaseLoader#set_entry` (`pops/loader/base_loader.rb`), a
/// define registered twice with the 4.x loaders: "Attempt to redefine
/// entity '%{name}'. %{origin_info}" (origin `Originally set at
/// file://F?line=L&pos=C.`).
pub(crate) fn define_redefined(
    name: impl Display,
    file: impl Display,
    line: impl Display,
    pos: impl Display,
) -> String {
    format!(
        "Attempt to redefine entity 'http://puppet.com/2016.1/runtime/type/{name}'. Originally set at file://{file}?line={line}&pos={pos}."
    )
}

/// Puppet's `Compiler#evaluate_classes` (`parser/compiler.rb`): "Could
/// not find class %{name} for %{node}".
pub(crate) fn class_not_found_for_node(name: impl Display, node: impl Display) -> String {
    format!("Could not find class {name} for {node}")
}

/// Puppet's `Resource::Type#find_parent_type` (`resource/type.rb`): "Could
/// not find parent resource type '%{parent}' of type %{parent_type} in
/// %{env}" (a class's parent: `::name`, type `hostclass`).
pub(crate) fn parent_class_not_found(parent: impl Display, env: impl Display) -> String {
    format!("Could not find parent resource type '::{parent}' of type hostclass in {env}")
}

/// pverify's own limit on nested evaluation (where Puppet would exhaust
/// Ruby's stack): "Too deep nesting of class, define and function
/// evaluation".
pub(crate) const TOO_DEEP_NESTING: &str =
    "Too deep nesting of class, define and function evaluation";

/// Puppet's `Parser::Resource#evaluate` (`parser/resource.rb`): "Could not
/// find stage %{stage} specified by %{resource}".
pub(crate) fn stage_not_found(stage: impl Display, resource: impl Display) -> String {
    format!("Could not find stage {stage} specified by {resource}")
}

/// Puppet's `TypeMismatchDescriber` of a class or define's parameters
/// (`type_mismatch_describer.rb`): "has no parameter named '%{key}'".
pub(crate) fn has_no_parameter_named(name: impl Display) -> String {
    format!("has no parameter named '{name}'")
}

/// `TypeMismatchDescriber`: "expects a value for parameter '%{key}'".
pub(crate) fn expects_value_for_parameter(name: impl Display) -> String {
    format!("expects a value for parameter '{name}'")
}

/// `TypeMismatchDescriber`, a parameter's mismatch: "parameter '%{name}'
/// %{mismatch}" (the mismatch as `describe_mismatch` writes it).
pub(crate) fn parameter_mismatch(name: impl Display, mismatch: impl Display) -> String {
    format!("parameter '{name}' {mismatch}")
}

/// `TypeMismatchDescriber.validate_parameters`' text for a resource's
/// problems: one on the reference's line, several one a line; `None`
/// without any.
pub(crate) fn parameter_problems(reference: impl Display, problems: &[String]) -> Option<String> {
    match problems {
        [] => None,
        [one] => Some(format!("{reference}: {one}")),
        many => Some(format!("{reference}:\n  {}", many.join("\n  "))),
    }
}

/// Puppet's `Compiler#evaluate_node` (`parser/compiler.rb`): "Could not find
/// node statement with name 'default' or '%{names}'".
pub(crate) fn node_statement_not_found(names: impl Display) -> String {
    format!("Could not find node statement with name 'default' or '{names}'")
}

/// Puppet's `Compiler#evaluate_generators`: "Somehow looped more than 1000
/// times while evaluating host catalog".
pub(crate) const LOOPED_TOO_OFTEN: &str =
    "Somehow looped more than 1000 times while evaluating host catalog";

#[cfg(test)]
mod tests {
    use super::*;

    // type_collection.rb, base_loader.rb, parser/compiler.rb,
    // resource/type.rb, parser/resource.rb and type_mismatch_describer.rb,
    // as Puppet 7.23 reports them.
    #[test]
    fn classes_family() {
        let at = " (file: /e/site.pp, line: 1)";
        assert_eq!(
            class_redefined("foo", at),
            "Class 'foo' is already defined (file: /e/site.pp, line: 1); cannot redefine"
        );
        assert_eq!(
            node_redefined_as_class("foo", at),
            "Node 'foo' is already defined (file: /e/site.pp, line: 1); cannot be redefined as a class"
        );
        assert_eq!(
            definition_redefined_as_class("foo", at),
            "Definition 'foo' is already defined (file: /e/site.pp, line: 1); cannot be redefined as a class"
        );
        assert_eq!(
            class_redefined_as_definition("foo", at),
            "'foo' is already defined (file: /e/site.pp, line: 1) as a class; cannot redefine as a definition"
        );
        assert_eq!(
            node_redefined("foo", at),
            "Node 'foo' is already defined (file: /e/site.pp, line: 1); cannot redefine"
        );
        assert_eq!(
            class_redefined_as_node("foo", at),
            "Class 'foo' is already defined (file: /e/site.pp, line: 1); cannot be redefined as a node"
        );
        assert_eq!(
            define_redefined("foo", "/e/site.pp", 1, 1),
            "Attempt to redefine entity 'http://puppet.com/2016.1/runtime/type/foo'. Originally set at file:///e/site.pp?line=1&pos=1."
        );
        assert_eq!(
            class_not_found_for_node("foo", "n1"),
            "Could not find class foo for n1"
        );
        assert_eq!(
            parent_class_not_found("base", "production"),
            "Could not find parent resource type '::base' of type hostclass in production"
        );
        assert_eq!(
            TOO_DEEP_NESTING,
            "Too deep nesting of class, define and function evaluation"
        );
        assert_eq!(
            stage_not_found("pre", "Class[Foo]"),
            "Could not find stage pre specified by Class[Foo]"
        );
        assert_eq!(has_no_parameter_named("x"), "has no parameter named 'x'");
        assert_eq!(
            expects_value_for_parameter("x"),
            "expects a value for parameter 'x'"
        );
        assert_eq!(
            parameter_mismatch("x", "expects a String value, got Integer"),
            "parameter 'x' expects a String value, got Integer"
        );
        assert_eq!(
            node_statement_not_found("n1"),
            "Could not find node statement with name 'default' or 'n1'"
        );
        assert_eq!(
            LOOPED_TOO_OFTEN,
            "Somehow looped more than 1000 times while evaluating host catalog"
        );
    }
}
