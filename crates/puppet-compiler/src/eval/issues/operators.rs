//! Operators: arithmetic, comparison, matching, access (`[]`) and the
//! selector.

use std::fmt::Display;

/// Puppet's `OPERATOR_NOT_APPLICABLE`: "Operator '%{operator}' is not
/// applicable to %{left}." (`left` with its article: `a String`).
pub(crate) fn operator_not_applicable(operator: impl Display, left: impl Display) -> String {
    format!("Operator '{operator}' is not applicable to {left}.")
}

/// Puppet's `OPERATOR_NOT_APPLICABLE_WHEN`: "Operator '%{operator}' is not
/// applicable to %{left} when right side is %{right}.".
pub(crate) fn operator_not_applicable_when(
    operator: impl Display,
    left: impl Display,
    right: impl Display,
) -> String {
    format!("Operator '{operator}' is not applicable to {left} when right side is {right}.")
}

/// Puppet's `DIV_BY_ZERO`: "Division by 0".
pub(crate) const DIV_BY_ZERO: &str = "Division by 0";

/// Puppet's `RESULT_IS_INFINITY`: "The result of the %{operator}
/// expression is Infinity".
pub(crate) fn result_is_infinity(operator: impl Display) -> String {
    format!("The result of the {operator} expression is Infinity")
}

/// Puppet's `NUMERIC_OVERFLOW`: "%{expression} resulted in a value outside
/// of Puppet Integer max range, got '%{value}'" (`min` for a negative
/// value; `expression` as `A '+' expression`, `value` as `%#+x`).
pub(crate) fn numeric_overflow(operator: impl Display, max: bool, value: impl Display) -> String {
    let bound = if max { "max" } else { "min" };
    format!("A '{operator}' expression resulted in a value outside of Puppet Integer {bound} range, got '{value}'")
}

/// Puppet's evaluator where Ruby's Integer arithmetic overflows Puppet's
/// before `NUMERIC_OVERFLOW` can show it: "A '%{operator}' expression
/// resulted in a value outside of Puppet Integer max range".
pub(crate) fn numeric_overflow_unshown(operator: impl Display) -> String {
    format!("A '{operator}' expression resulted in a value outside of Puppet Integer max range")
}

/// Puppet's `NOT_NUMERIC`: "The value '%{value}' cannot be converted to
/// Numeric.".
pub(crate) fn not_numeric(value: impl Display) -> String {
    format!("The value '{value}' cannot be converted to Numeric.")
}

/// Puppet's `NUMERIC_COERCION` (a warning): "The string '%{before}' was
/// automatically coerced to the numerical value %{after}".
pub(crate) fn numeric_coercion(before: impl Display, after: impl Display) -> String {
    format!("The string '{before}' was automatically coerced to the numerical value {after}")
}

/// Puppet's `COMPARISON_NOT_POSSIBLE`: "Comparison of: %{left} %{operator}
/// %{right}, is not possible. Caused by '%{detail}'.".
pub(crate) fn comparison_not_possible(
    left: impl Display,
    operator: impl Display,
    right: impl Display,
    detail: impl Display,
) -> String {
    format!("Comparison of: {left} {operator} {right}, is not possible. Caused by '{detail}'.")
}

/// Puppet's `MATCH_NOT_REGEXP`: "Can not convert right match operand to a
/// regular expression. Caused by '%{detail}'.".
pub(crate) fn match_not_regexp(detail: impl Display) -> String {
    format!("Can not convert right match operand to a regular expression. Caused by '{detail}'.")
}

/// Puppet's `MATCH_NOT_STRING`: "Left match operand must result in a
/// String value. Got %{left}.".
pub(crate) fn match_not_string(left: impl Display) -> String {
    format!("Left match operand must result in a String value. Got {left}.")
}

/// Puppet's `UNMATCHED_SELECTOR`: "No matching entry for selector
/// parameter with value '%{param}'".
pub(crate) fn unmatched_selector(param: impl Display) -> String {
    format!("No matching entry for selector parameter with value '{param}'")
}

/// Puppet's `BAD_ARRAY_SLICE_ARITY`: "Array supports [] with one or two
/// arguments. Got %{actual}".
pub(crate) fn bad_array_slice_arity(actual: usize) -> String {
    format!("Array supports [] with one or two arguments. Got {actual}")
}

/// Puppet's `BAD_HASH_SLICE_ARITY`: "Hash supports [] with one or more
/// arguments. Got %{actual}" (only ever 0).
pub(crate) const BAD_HASH_SLICE_ARITY: &str = "Hash supports [] with one or more arguments. Got 0";

/// Puppet's `BAD_STRING_SLICE_ARITY`: "String supports [] with one or two
/// arguments. Got %{actual}".
pub(crate) fn bad_string_slice_arity(actual: usize) -> String {
    format!("String supports [] with one or two arguments. Got {actual}")
}

/// Puppet's `BAD_SLICE_KEY_TYPE` of an Array: "%{expression}[] cannot use
/// %{actual} where %{expected} is expected".
pub(crate) fn bad_array_key_type(actual: impl Display) -> String {
    format!("An Array[] cannot use {actual} where Integer is expected")
}

/// Puppet's `BAD_STRING_SLICE_KEY_TYPE`: "A substring operation does not
/// accept %{label_article} %{actual_type} as a character index. Expected an
/// Integer" (`actual` with its article).
pub(crate) fn bad_string_slice_key_type(actual: impl Display) -> String {
    format!(
        "A substring operation does not accept {actual} as a character index. Expected an Integer"
    )
}

/// `OPERATOR_NOT_APPLICABLE` of `[]` on undef, as the access operator
/// words it: "Operator '[]' is not applicable to an Undef Value.".
pub(crate) const ACCESS_ON_UNDEF: &str = "Operator '[]' is not applicable to an Undef Value.";

/// Puppet's `AccessOperator` on a resource reference with a parameter
/// name that is not one String: "A resource reference takes one parameter
/// name" (pverify's text).
pub(crate) const RESOURCE_REFERENCE_ONE_PARAMETER: &str =
    "A resource reference takes one parameter name";

/// A resource reference that names no resource (pverify's text).
pub(crate) const ILLEGAL_RESOURCE_REFERENCE: &str = "Illegal resource reference";

/// Puppet's integer literal too large for a Ruby Integer Puppet accepts
/// (pverify's text): "Integer out of range: %{text}".
pub(crate) fn integer_out_of_range(text: impl Display) -> String {
    format!("Integer out of range: {text}")
}

/// Puppet's `CompareOperator` (`compare_operator.rb`): "A String is not
/// comparable to a non String".
pub(crate) const STRING_NOT_COMPARABLE: &str = "A String is not comparable to a non String";

/// `CompareOperator`: "A Numeric is not comparable to non Numeric".
pub(crate) const NUMERIC_NOT_COMPARABLE: &str = "A Numeric is not comparable to non Numeric";

/// `CompareOperator`: "Symbol not comparable to non Symbol".
pub(crate) const SYMBOL_NOT_COMPARABLE: &str = "Symbol not comparable to non Symbol";

/// `CompareOperator`: "Timespans are only comparable to Timespans,
/// Integers, and Floats".
pub(crate) const TIMESPAN_NOT_COMPARABLE: &str =
    "Timespans are only comparable to Timespans, Integers, and Floats";

/// `CompareOperator`: "Timestamps are only comparable to Timestamps,
/// Integers, and Floats".
pub(crate) const TIMESTAMP_NOT_COMPARABLE: &str =
    "Timestamps are only comparable to Timestamps, Integers, and Floats";

/// `CompareOperator`: "Versions not comparable to non Versions".
pub(crate) const VERSION_NOT_COMPARABLE: &str = "Versions not comparable to non Versions";

/// `CompareOperator`: "Only Strings, Numbers, Timespans, Timestamps, and
/// Versions are comparable".
pub(crate) const NOT_COMPARABLE: &str =
    "Only Strings, Numbers, Timespans, Timestamps, and Versions are comparable";

/// Ruby's `TypeError` of `Float(version)`: "can't convert
/// SemanticPuppet::Version into Float".
pub(crate) const SEMVER_TO_FLOAT: &str = "can't convert SemanticPuppet::Version into Float";

/// Ruby's `URI#merge` of something else: "An URI can only be merged with
/// an URI or String".
pub(crate) const URI_MERGE: &str = "An URI can only be merged with an URI or String";

/// Puppet's `Binary` `+`: "Can only append Binary to a Binary".
pub(crate) const BINARY_APPEND: &str = "Can only append Binary to a Binary";

/// Puppet's Hash `+`: "Can only append Array or Hash to a Hash".
pub(crate) const HASH_APPEND: &str = "Can only append Array or Hash to a Hash";

#[cfg(test)]
mod tests {
    use super::*;

    // issues.rb (OPERATOR_NOT_APPLICABLE, OPERATOR_NOT_APPLICABLE_WHEN,
    // DIV_BY_ZERO, RESULT_IS_INFINITY, NUMERIC_OVERFLOW, NOT_NUMERIC,
    // NUMERIC_COERCION, COMPARISON_NOT_POSSIBLE, MATCH_NOT_REGEXP,
    // MATCH_NOT_STRING, UNMATCHED_SELECTOR, BAD_*_SLICE_*) and
    // compare_operator.rb, as Puppet 7.23 reports them.
    #[test]
    fn operators_family() {
        assert_eq!(
            operator_not_applicable("-", "a String"),
            "Operator '-' is not applicable to a String."
        );
        assert_eq!(
            operator_not_applicable_when("%", "an Integer", "a Float"),
            "Operator '%' is not applicable to an Integer when right side is a Float."
        );
        assert_eq!(DIV_BY_ZERO, "Division by 0");
        assert_eq!(
            result_is_infinity("*"),
            "The result of the * expression is Infinity"
        );
        assert_eq!(
            numeric_overflow("*", true, "+0x1"),
            "A '*' expression resulted in a value outside of Puppet Integer max range, got '+0x1'"
        );
        assert_eq!(
            numeric_overflow("-", false, "-0x1"),
            "A '-' expression resulted in a value outside of Puppet Integer min range, got '-0x1'"
        );
        assert_eq!(
            numeric_overflow_unshown("**"),
            "A '**' expression resulted in a value outside of Puppet Integer max range"
        );
        assert_eq!(
            not_numeric("x"),
            "The value 'x' cannot be converted to Numeric."
        );
        assert_eq!(
            numeric_coercion("1", "1"),
            "The string '1' was automatically coerced to the numerical value 1"
        );
        assert_eq!(
            comparison_not_possible("String", "<", "Integer", STRING_NOT_COMPARABLE),
            "Comparison of: String < Integer, is not possible. Caused by 'A String is not comparable to a non String'."
        );
        assert_eq!(
            match_not_regexp("x"),
            "Can not convert right match operand to a regular expression. Caused by 'x'."
        );
        assert_eq!(
            match_not_string("an Integer"),
            "Left match operand must result in a String value. Got an Integer."
        );
        assert_eq!(
            unmatched_selector("x"),
            "No matching entry for selector parameter with value 'x'"
        );
        assert_eq!(
            bad_array_slice_arity(3),
            "Array supports [] with one or two arguments. Got 3"
        );
        assert_eq!(
            BAD_HASH_SLICE_ARITY,
            "Hash supports [] with one or more arguments. Got 0"
        );
        assert_eq!(
            bad_string_slice_arity(0),
            "String supports [] with one or two arguments. Got 0"
        );
        assert_eq!(
            bad_array_key_type("String"),
            "An Array[] cannot use String where Integer is expected"
        );
        assert_eq!(
            bad_string_slice_key_type("a String"),
            "A substring operation does not accept a String as a character index. Expected an Integer"
        );
        assert_eq!(
            ACCESS_ON_UNDEF,
            "Operator '[]' is not applicable to an Undef Value."
        );
        assert_eq!(
            NUMERIC_NOT_COMPARABLE,
            "A Numeric is not comparable to non Numeric"
        );
        assert_eq!(SYMBOL_NOT_COMPARABLE, "Symbol not comparable to non Symbol");
        assert_eq!(
            TIMESPAN_NOT_COMPARABLE,
            "Timespans are only comparable to Timespans, Integers, and Floats"
        );
        assert_eq!(
            TIMESTAMP_NOT_COMPARABLE,
            "Timestamps are only comparable to Timestamps, Integers, and Floats"
        );
        assert_eq!(
            VERSION_NOT_COMPARABLE,
            "Versions not comparable to non Versions"
        );
        assert_eq!(
            NOT_COMPARABLE,
            "Only Strings, Numbers, Timespans, Timestamps, and Versions are comparable"
        );
    }
}
