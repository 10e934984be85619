//! pverify's own limits where Puppet has no text of its own (it overflows
//! Ruby's stack, hangs, or allocates without end): each error names the
//! limit, so a node never fails (or passes) without saying why.
//! docs/safety.md lists them; tests/limits.rs checks each.

/// Ruby's `SystemStackError`, which Puppet reports where its recursion
/// outgrows Ruby's stack (a Hiera alias chain of 200 keys).
pub(crate) const STACK_LEVEL_TOO_DEEP: &str = "stack level too deep";

/// A catalog parameter nested deeper than the catalog writer allows
/// (`compile::MAX_PARAMETER_NESTING`). Puppet 7.23 and 8.10: `stack level
/// too deep` at 100,000 levels, `nesting of 100 is too deep` when the
/// catalog is written as JSON.
pub(crate) fn parameter_too_deep(resource: &str, param: &str, limit: usize) -> String {
    format!(
        "{resource}: parameter '{param}' nests deeper than pverify's limit of {limit} levels \
         (Puppet cannot write a catalog nested so deep: its JSON stops at 100)"
    )
}

/// A catalog parameter holding text read from a file that is not UTF-8.
/// Puppet keeps the bytes and then cannot write the catalog as JSON
/// (Ruby's `JSON::GeneratorError`: `source sequence is illegal/malformed
/// utf-8`; 7.23 falls back to PSON, 8.10 fails).
pub(crate) fn invalid_utf8_in_catalog(resource: &str, param: &str, file: &str) -> String {
    format!(
        "{resource}: parameter '{param}' holds text of {file}, which is not UTF-8: \
         source sequence is illegal/malformed utf-8 (Puppet cannot write this catalog as JSON)"
    )
}

/// What [`invalid_utf8_in_catalog`] names when the text came from a binary
/// Ruby String (`Base64.decode64`) rather than a file: Puppet 7.23 cannot
/// write that catalog either; 8.10 would make the value a Binary.
pub(crate) const BINARY_STRING: &str = "a binary Ruby String (a template's or a Ruby function's)";

/// The most integers a Ruby Range handed to Puppet (a function's `(1..n)`)
/// is iterated over: as many as the Ruby subset's own ranges may hold
/// (`template::erb::interp::MAX_STEPS`). Puppet iterates without end.
pub(crate) const MAX_RANGE_ITEMS: u64 = 10_000_000;

/// A Ruby Range iterated past [`MAX_RANGE_ITEMS`], in the Ruby subset's
/// words for the same limit (`the range 1..N is over pverify's limit of
/// 10000000 integers`).
pub(crate) fn range_too_long(range: &str) -> String {
    format!("the range {range} is over pverify's limit of {MAX_RANGE_ITEMS} integers")
}

#[cfg(test)]
mod tests {
    #[test]
    fn parameter_too_deep_names_the_limit() {
        assert_eq!(
            super::parameter_too_deep("Notify[a]", "message", 1000),
            "Notify[a]: parameter 'message' nests deeper than pverify's limit of 1000 levels \
             (Puppet cannot write a catalog nested so deep: its JSON stops at 100)"
        );
    }
}
