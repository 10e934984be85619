//! Templates: `epp()`, `inline_epp()`, `template()`, `inline_template()`.
//! Puppet writes these in `pops/evaluator/epp_evaluator.rb`,
//! `parser/templatewrapper.rb` and `parser/functions/*template.rb`.

use std::fmt::Display;

/// `epp_evaluator.rb` and `templatewrapper.rb`: "Could not find template
/// '%{file}'".
pub(crate) fn not_found(reference: impl Display) -> String {
    format!("Could not find template '{reference}'")
}

/// `epp_evaluator.rb`: "epp(): Invalid EPP: %{detail}" and
/// "inline_epp(): Invalid EPP: %{detail}".
pub(crate) fn invalid_epp(function: impl Display, detail: impl Display) -> String {
    format!("{function}(): Invalid EPP: {detail}")
}

/// `epp_evaluator.rb`: "%{function_name}(): the parser did not produce an
/// EppExpression" (Puppet adds the class it got, which pverify's parser
/// never gives).
pub(crate) fn not_an_epp_expression(function: impl Display) -> String {
    format!("{function}(): the parser did not produce an EppExpression")
}

/// `epp_evaluator.rb`: "%{function_name}(): The EPP template contains
/// illegal expressions (definitions)".
pub(crate) fn epp_definitions(function: impl Display) -> String {
    format!("{function}(): The EPP template contains illegal expressions (definitions)")
}

/// The 4.x return type check of `epp()`'s closure: "value returned from
/// function '%{function}' has wrong type, %{mismatch}".
pub(crate) fn wrong_return_type(function: impl Display, mismatch: impl Display) -> String {
    format!("value returned from function '{function}' has wrong type, {mismatch}")
}

/// The 3.x `template()`/`inline_template()` arity: "%{name}(): Wrong number
/// of arguments given (0 for minimum 1)".
pub(crate) fn no_template_given(function: impl Display) -> String {
    format!("{function}(): Wrong number of arguments given (0 for minimum 1)")
}

/// `parser/functions/template.rb`: "Failed to parse template %{file}:"
/// and the file, line and detail of the exception.
pub(crate) fn template_failed(
    reference: impl Display,
    path: impl Display,
    line: impl Display,
    detail: impl Display,
) -> String {
    format!("Failed to parse template {reference}:\n  Filepath: {path}\n  Line: {line}\n  Detail: {detail}\n")
}

/// `parser/functions/inline_template.rb`: "Failed to parse inline
/// template: %{detail}".
pub(crate) fn inline_template_failed(detail: impl Display) -> String {
    format!("Failed to parse inline template: {detail}")
}

/// Ruby's `Errno::ENOENT` message for `File.read` of a missing file.
pub(crate) fn ruby_no_such_file(path: impl Display) -> String {
    format!("No such file or directory @ rb_sysopen - {path}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Puppet 7.23's texts (the Ruby files named above, arguments filled
    /// in, as the spec-suite's template cases record them).
    #[test]
    fn template_texts_are_puppets() {
        assert_eq!(not_found("m/x.epp"), "Could not find template 'm/x.epp'");
        assert_eq!(
            invalid_epp("inline_epp", "Syntax error"),
            "inline_epp(): Invalid EPP: Syntax error"
        );
        assert_eq!(
            epp_definitions("epp"),
            "epp(): The EPP template contains illegal expressions (definitions)"
        );
        assert_eq!(
            no_template_given("template"),
            "template(): Wrong number of arguments given (0 for minimum 1)"
        );
        assert_eq!(
            template_failed("m/t.erb", "/m/templates/t.erb", 3, "boom"),
            "Failed to parse template m/t.erb:\n  Filepath: /m/templates/t.erb\n  Line: 3\n  Detail: boom\n"
        );
        assert_eq!(
            inline_template_failed("boom"),
            "Failed to parse inline template: boom"
        );
        assert_eq!(
            ruby_no_such_file("/x"),
            "No such file or directory @ rb_sysopen - /x"
        );
        assert_eq!(
            wrong_return_type("epp", "expects a String value, got Integer"),
            "value returned from function 'epp' has wrong type, expects a String value, got Integer"
        );
        assert_eq!(
            not_an_epp_expression("epp"),
            "epp(): the parser did not produce an EppExpression"
        );
    }
}
