//! Variables and scope: lookups, assignments, parameter binding order.

use std::fmt::Display;

/// Puppet's `UNKNOWN_VARIABLE`: "Unknown variable: '%{name}'." (an error
/// under `strict_variables`, else a warning).
pub(crate) fn unknown_variable(name: impl Display) -> String {
    format!("Unknown variable: '{name}'.")
}

/// `Scope#variable_not_found` under `strict = error`, the ArgumentError
/// Ruby code (a template, a Ruby function) gets from `scope['x']` or
/// `lookupvar`: "Undefined variable '%{name}'; %{reason}".
pub(crate) fn undefined_variable(name: impl Display, reason: impl Display) -> String {
    format!("Undefined variable '{name}'; {reason}")
}

/// Where Puppet raises [`undefined_variable`]: its `parser/scope.rb` and
/// the line of the `raise` (Ruby's `backtrace.first`, which `template()`
/// names), in 7.23 and 8.10.
pub(crate) fn undefined_variable_origin(
    puppet: crate::version::PuppetVersion,
) -> (&'static str, usize) {
    const SCOPE_RB: &str = "/usr/lib/ruby/vendor_ruby/puppet/parser/scope.rb";
    match puppet {
        crate::version::PuppetVersion::V7 => (SCOPE_RB, 538),
        crate::version::PuppetVersion::V8 => (SCOPE_RB, 542),
    }
}

/// Puppet's `ILLEGAL_RESERVED_ASSIGNMENT`: "Attempt to assign to a
/// reserved variable name: '$%{var}'".
pub(crate) fn illegal_reserved_assignment(name: impl Display) -> String {
    format!("Attempt to assign to a reserved variable name: '${name}'")
}

/// The same refusal by Puppet's `Scope#[]=` (`$facts`/`$trusted` outside
/// top scope): "Attempt to assign to a reserved variable name: '%{name}'",
/// without the `$`.
pub(crate) fn scope_reserved_assignment(name: impl Display) -> String {
    format!("Attempt to assign to a reserved variable name: '{name}'")
}

/// Puppet's `ILLEGAL_REASSIGNMENT` of a reserved parameter (`$title`,
/// `$name`): "Cannot reassign built in (or already assigned) variable
/// '$%{var}'".
pub(crate) fn illegal_reassignment_builtin(name: impl Display) -> String {
    format!("Cannot reassign built in (or already assigned) variable '${name}'")
}

/// Puppet's `ILLEGAL_REASSIGNMENT`: "Cannot reassign variable '$%{var}'".
pub(crate) fn illegal_reassignment(name: impl Display) -> String {
    format!("Cannot reassign variable '${name}'")
}

/// Puppet's `ILLEGAL_MULTI_ASSIGNMENT_SIZE`: "Mismatched number of
/// assignable entries and values, expected %{expected}, got %{actual}".
pub(crate) fn illegal_multi_assignment_size(expected: usize, actual: usize) -> String {
    format!("Mismatched number of assignable entries and values, expected {expected}, got {actual}")
}

/// A target of a multiple assignment that is no variable (pverify's text;
/// Puppet's validator refuses these before evaluation).
pub(crate) const ILLEGAL_ASSIGNMENT: &str = "Illegal assignment";

/// Puppet's `Scope::ParameterScope` (`parser/scope.rb`), a default reading
/// a parameter declared after it that has no value: "%{callee}: expects a
/// value for parameter $%{to}".
pub(crate) fn param_read_before_value(reference: impl Display, name: impl Display) -> String {
    format!("{reference}: expects a value for parameter ${name}")
}

/// Puppet's `Scope::ParameterScope` (`parser/scope.rb`): "%{callee}:
/// default expression for $%{from} tries to illegally access not yet
/// evaluated $%{to}".
pub(crate) fn default_reads_later_param(
    reference: impl Display,
    param: impl Display,
    name: impl Display,
) -> String {
    format!("{reference}: default expression for ${param} tries to illegally access not yet evaluated ${name}")
}

/// Puppet's warning for `$class::var` of a class that has not been
/// evaluated (3.x scope's `variable_not_found` reason), without
/// `strict_variables`.
pub(crate) fn qualified_class_not_evaluated(
    qualified: impl Display,
    class: impl Display,
) -> String {
    format!(
        "Could not look up qualified variable '{qualified}'; class {class} has not been evaluated"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    // Wordings of issues.rb (UNKNOWN_VARIABLE, ILLEGAL_RESERVED_ASSIGNMENT,
    // ILLEGAL_REASSIGNMENT, ILLEGAL_MULTI_ASSIGNMENT_SIZE) and Puppet 7.23's
    // own errors as the spec-suite holds them.
    #[test]
    fn variables_family() {
        assert_eq!(unknown_variable("x"), "Unknown variable: 'x'.");
        assert_eq!(
            illegal_reserved_assignment("server_facts"),
            "Attempt to assign to a reserved variable name: '$server_facts'"
        );
        assert_eq!(
            scope_reserved_assignment("facts"),
            "Attempt to assign to a reserved variable name: 'facts'"
        );
        assert_eq!(
            illegal_reassignment_builtin("title"),
            "Cannot reassign built in (or already assigned) variable '$title'"
        );
        assert_eq!(illegal_reassignment("x"), "Cannot reassign variable '$x'");
        assert_eq!(
            illegal_multi_assignment_size(2, 3),
            "Mismatched number of assignable entries and values, expected 2, got 3"
        );
        assert_eq!(
            param_read_before_value("Class[Foo]", "b"),
            "Class[Foo]: expects a value for parameter $b"
        );
        assert_eq!(
            default_reads_later_param("Class[Foo]", "a", "b"),
            "Class[Foo]: default expression for $a tries to illegally access not yet evaluated $b"
        );
    }
}
