//! Inputs on which the parser once backtracked exponentially (each nesting
//! level parsed the same failing arguments twice): they must fail at once,
//! with Puppet 7.23's error (checked with `puppet parser validate`), at every
//! size. No timing here: a regression shows as the parser's work-budget error
//! (`parse_budget`) in place of Puppet's; the unit tests in `parser.rs` count
//! the work itself.

use puppet_syntax::parse;

/// Parses on a thread with the 64 MiB stack the CLI gives a node and returns
/// the error's `(message, line, column)`.
fn error_of(src: String) -> (String, Option<u32>, Option<u32>) {
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || {
            let e = parse("nested.pp", src.as_bytes()).expect_err("the input is invalid");
            (e.message, e.line, e.column)
        })
        .unwrap()
        .join()
        .unwrap()
}

fn at_end() -> (String, Option<u32>, Option<u32>) {
    ("Syntax error at end of input".to_string(), None, None)
}

/// The fuzzer's find (`tests/fixtures/fuzz-regressions/parse/nested-unclosed-calls.pp`
/// is `n` = 34): `f("> f("> ...` inside a resource, never closed. An even `n`
/// pairs the quotes into strings: `f("> f(" > f("> f(" > ...`.
fn nested_unclosed_calls(n: usize) -> String {
    format!(
        "class a {{\n  file {{ 'f':\n    content => {}\"x\", {{\n      'k' => $v,\n    }}),\n  }}\n}}\n",
        "f(\"> ".repeat(n)
    )
}

#[test]
fn nested_unclosed_calls_fail_at_the_closing_brace() {
    let fixture = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/fuzz-regressions/parse/nested-unclosed-calls.pp"
    ))
    .unwrap();
    assert_eq!(fixture, nested_unclosed_calls(34));
    for n in [34, 100, 200, 400] {
        assert_eq!(
            error_of(nested_unclosed_calls(n)),
            ("Syntax error at '}'".to_string(), Some(6), Some(3)),
            "n = {n}"
        );
    }
}

#[test]
fn nested_unclosed_method_calls_fail_at_end() {
    for n in [40, 200] {
        assert_eq!(
            error_of(format!("$a = {}2\n", "$x.f(1 > ".repeat(n))),
            at_end()
        );
    }
}

#[test]
fn nested_unclosed_selectors_after_and_fail_at_end() {
    for n in [40, 200] {
        let src = format!("$a = {}2\n", "$x and $y ? { 1 => ".repeat(n));
        assert_eq!(error_of(src), at_end());
    }
}

#[test]
fn nested_unclosed_type_alias_accesses_fail_at_end() {
    for n in [40, 200] {
        assert_eq!(error_of("type A = B[ ".repeat(n)), at_end());
        assert_eq!(error_of("type A = B[C[D[ ".repeat(n)), at_end());
    }
}

#[test]
fn nested_unclosed_alias_hashes_fail_at_end() {
    // Was exponential: the failing hash, then `type A = B` and a resource body
    // over the same text. Puppet 7.23 and 8.10: end of input.
    for n in [40, 200] {
        assert_eq!(error_of("type A = B { x => ".repeat(n)), at_end());
    }
}

/// `class cN { $x = $y OP class dN { $z = 1` nested `n` deep, never closed.
fn nested_classes_after_operator(op: &str, n: usize) -> String {
    (0..n)
        .map(|i| format!("class c{i} {{\n  $x = $y {op} class d{i} {{\n  $z = 1\n"))
        .collect()
}

#[test]
fn nested_unclosed_classes_after_binary_operators_fail_where_puppet_does() {
    // The fuzzer's find: 29 unclosed classes after `$x ****` and `include ****`
    // (6 s to refuse): Puppet 7.23 and 8.10 stop at `only`, line 160.
    let fixture = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/fuzz-regressions/parse/nested-classes-after-binary-operators.pp"
    ))
    .unwrap();
    assert_eq!(
        error_of(fixture),
        ("Syntax error at 'only'".to_string(), Some(160), Some(3))
    );
    for op in ["-", "*", "**"] {
        for n in [40, 200] {
            assert_eq!(error_of(nested_classes_after_operator(op, n)), at_end());
        }
    }
}

#[test]
fn nested_failing_right_sides_of_infix_operators_fail_where_puppet_does() {
    // The fuzzer's nested `(*****5` (5 KB; refused by the work budget before
    // failed operands were remembered): Puppet 7.23 and 8.10 stop at `:`.
    let fixture = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/fuzz-regressions/parse/nested-parens-after-splats.pp"
    ))
    .unwrap();
    assert_eq!(
        error_of(fixture),
        ("Syntax error at ':'".to_string(), Some(2), Some(5061))
    );
    // Its core, `0 < 1 * (` nested: both Puppets say end of input.
    for n in [40, 200] {
        assert_eq!(
            error_of(format!("$x = {}", "0 < 1 * (".repeat(n))),
            at_end()
        );
    }
}
