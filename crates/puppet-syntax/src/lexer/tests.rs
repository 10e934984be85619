//! Lexer tests. Every expectation here is Puppet's own: token kinds, values and
//! byte spans (or error messages and byte offsets) as Puppet 7.23's `Lexer2`
//! produces them for the same snippet. To re-check a snippet against Puppet:
//!
//! ```ruby
//! require 'puppet'; Puppet.initialize_settings
//! l = Puppet::Pops::Parser::Lexer2.new; l.lex_string(src)
//! l.fullscan.each do |name, tv|
//!   next unless name && name != :SUBLOCATE
//!   off, len = tv[:offset], tv[:length]
//!   # Tokens of a heredoc's text carry offsets into that text.
//!   off, len = tv[:locator].to_global(off, len) if tv[:locator].is_a?(Puppet::Pops::Parser::Locator::SubLocator)
//!   p [name, tv[:value], off, off + len]
//! end
//! ```
//!
//! (Lexer errors: `Puppet::ParseErrorWithIssue#basic_message`, `#line`, `#pos`.)
//! The few places where pverify deliberately differs are marked and explained.

use super::*;

/// Puppet's name for the token.
fn kind(t: &Tok) -> &'static str {
    match t {
        Tok::Name(_) => "NAME",
        Tok::Word(_) => "WORD",
        Tok::ClassRef(_) => "CLASSREF",
        Tok::Variable(_) => "VARIABLE",
        Tok::Number(_) => "NUMBER",
        Tok::Str(_) => "STRING",
        Tok::DqPre(_) => "DQPRE",
        Tok::DqMid(_) => "DQMID",
        Tok::DqPost(_) => "DQPOST",
        Tok::Regex(_) => "REGEX",
        Tok::Heredoc(_) => "HEREDOC",
        Tok::Boolean(_) => "BOOLEAN",
        Tok::Case => "CASE",
        Tok::Class => "CLASS",
        Tok::Default => "DEFAULT",
        Tok::Define => "DEFINE",
        Tok::If => "IF",
        Tok::Elsif => "ELSIF",
        Tok::Else => "ELSE",
        Tok::Inherits => "INHERITS",
        Tok::Node => "NODE",
        Tok::And => "AND",
        Tok::Or => "OR",
        Tok::Undef => "UNDEF",
        Tok::In => "IN",
        Tok::Unless => "UNLESS",
        Tok::Function => "FUNCTION",
        Tok::Type => "TYPE",
        Tok::Attr => "ATTR",
        Tok::Private => "PRIVATE",
        Tok::LBrack => "LBRACK",
        Tok::ListStart => "LISTSTART",
        Tok::RBrack => "RBRACK",
        Tok::LBrace => "LBRACE",
        Tok::SelBrace => "SELBRACE",
        Tok::RBrace => "RBRACE",
        Tok::LParen => "LPAREN",
        Tok::WsLParen => "WSLPAREN",
        Tok::RParen => "RPAREN",
        Tok::Equals => "EQUALS",
        Tok::Appends => "APPENDS",
        Tok::Deletes => "DELETES",
        Tok::IsEqual => "ISEQUAL",
        Tok::NotEqual => "NOTEQUAL",
        Tok::Not => "NOT",
        Tok::Match => "MATCH",
        Tok::NoMatch => "NOMATCH",
        Tok::Less => "LESSTHAN",
        Tok::LessEq => "LESSEQUAL",
        Tok::Greater => "GREATERTHAN",
        Tok::GreaterEq => "GREATEREQUAL",
        Tok::Plus => "PLUS",
        Tok::Minus => "MINUS",
        Tok::Times => "TIMES",
        Tok::Div => "DIV",
        Tok::Modulo => "MODULO",
        Tok::LShift => "LSHIFT",
        Tok::RShift => "RSHIFT",
        Tok::InEdge => "IN_EDGE",
        Tok::InEdgeSub => "IN_EDGE_SUB",
        Tok::OutEdge => "OUT_EDGE",
        Tok::OutEdgeSub => "OUT_EDGE_SUB",
        Tok::FArrow => "FARROW",
        Tok::PArrow => "PARROW",
        Tok::Comma => "COMMA",
        Tok::Semic => "SEMIC",
        Tok::Colon => "COLON",
        Tok::Dot => "DOT",
        Tok::QMark => "QMARK",
        Tok::Pipe => "PIPE",
        Tok::At => "AT",
        Tok::AtAt => "ATAT",
        Tok::LCollect => "LCOLLECT",
        Tok::RCollect => "RCOLLECT",
        Tok::LLCollect => "LLCOLLECT",
        Tok::RRCollect => "RRCOLLECT",
        Tok::Tilde => "TILDE",
        Tok::Other => "OTHER",
        Tok::EppStart => "EPP_START",
        Tok::RenderString(_) => "RENDER_STRING",
        Tok::RenderExpr => "RENDER_EXPR",
        Tok::EppEnd => "EPP_END",
        Tok::EppEndTrim => "EPP_END_TRIM",
    }
}

/// The token's value as Puppet's `TokenValue[:value]` shows it (a regex: its source).
fn value(t: &Tok) -> String {
    match t {
        Tok::Regex(s) => s.clone(),
        other => other.display_value(),
    }
}

/// The token stream as `(KIND, value, start, end)`, with Puppet's token names.
fn lexed(src: &str) -> Vec<(&'static str, String, u32, u32)> {
    match lex(src) {
        Ok(toks) => toks
            .iter()
            .map(|t| (kind(&t.tok), value(&t.tok), t.span.start, t.span.end))
            .collect(),
        Err(e) => panic!("lexing {src:?} failed: {e:?}"),
    }
}

/// Asserts the token stream Puppet's Lexer2 produces for `src` (values as Puppet
/// shows them; byte spans into `src`).
#[track_caller]
fn check(src: &str, expected: &[(&str, &str, u32, u32)]) {
    let got = lexed(src);
    let want: Vec<(&str, String, u32, u32)> = expected
        .iter()
        .map(|(k, v, s, e)| (*k, v.to_string(), *s, *e))
        .collect();
    assert_eq!(got, want, "tokens of {src:?}");
}

/// Asserts Puppet's lexer error for `src`: its message and byte offset.
#[track_caller]
fn check_err(src: &str, message: &str, offset: Option<usize>) {
    match lex(src) {
        Ok(toks) => panic!("lexing {src:?} succeeded: {toks:?}"),
        Err(e) => assert_eq!(
            (e.message.as_str(), e.offset),
            (message, offset),
            "error of {src:?}"
        ),
    }
}

/// Lower-case words: NAME when every `::` segment is `[a-z]\w*`, else WORD
/// (hyphens, leading `_`); a trailing hyphen is not part of the word.
#[test]
fn names_words_and_keywords() {
    check(
        "foo::bar foo-bar _x ::foo true",
        &[
            ("NAME", "foo::bar", 0, 8),
            ("WORD", "foo-bar", 9, 16),
            ("WORD", "_x", 17, 19),
            ("NAME", "::foo", 20, 25),
            ("BOOLEAN", "true", 26, 30),
        ],
    );
    check(
        "foo- foo--bar- a::b-c _ __x::y",
        &[
            ("NAME", "foo", 0, 3),
            ("MINUS", "-", 3, 4),
            ("WORD", "foo--bar", 5, 13),
            ("MINUS", "-", 13, 14),
            ("WORD", "a::b-c", 15, 21),
            ("WORD", "_", 22, 23),
            ("WORD", "__x::y", 24, 30),
        ],
    );
    check(
        "x::_y ab9_c",
        &[("WORD", "x::_y", 0, 5), ("NAME", "ab9_c", 6, 11)],
    );
    check(
        "case class default define if elsif else inherits node and or undef false in unless function type attr private",
        &[
            ("CASE", "case", 0, 4),
            ("CLASS", "class", 5, 10),
            ("DEFAULT", "default", 11, 18),
            ("DEFINE", "define", 19, 25),
            ("IF", "if", 26, 28),
            ("ELSIF", "elsif", 29, 34),
            ("ELSE", "else", 35, 39),
            ("INHERITS", "inherits", 40, 48),
            ("NODE", "node", 49, 53),
            ("AND", "and", 54, 57),
            ("OR", "or", 58, 60),
            ("UNDEF", "undef", 61, 66),
            ("BOOLEAN", "false", 67, 72),
            ("IN", "in", 73, 75),
            ("UNLESS", "unless", 76, 82),
            ("FUNCTION", "function", 83, 91),
            ("TYPE", "type", 92, 96),
            ("ATTR", "attr", 97, 101),
            ("PRIVATE", "private", 102, 109),
        ],
    );
    check(
        "plan apply",
        &[("NAME", "plan", 0, 4), ("NAME", "apply", 5, 10)],
    );
    check(
        "iffy classy Case",
        &[
            ("NAME", "iffy", 0, 4),
            ("NAME", "classy", 5, 11),
            ("CLASSREF", "Case", 12, 16),
        ],
    );
}

/// Upper-case words: CLASSREF; a lower-case segment after `::` is an error,
/// reported where Puppet's scanner stopped.
#[test]
fn class_references() {
    check(
        "Foo::Bar ::Foo",
        &[("CLASSREF", "Foo::Bar", 0, 8), ("CLASSREF", "::Foo", 9, 14)],
    );
    check(
        "F_1::G2 Foo-bar",
        &[
            ("CLASSREF", "F_1::G2", 0, 7),
            ("CLASSREF", "Foo", 8, 11),
            ("MINUS", "-", 11, 12),
            ("NAME", "bar", 12, 15),
        ],
    );
    check_err("Foo::bar", "Illegal class reference", Some(4));
    check_err("Foo::", "Illegal class reference", Some(4));
    check_err(
        "::Foo::bar",
        "Illegal fully qualified class reference",
        Some(8),
    );
    check_err("::1", "Illegal fully qualified name", Some(2));
}

/// `$` and a (qualified) name; a lone `$` is a VARIABLE with an empty name.
#[test]
fn variables() {
    check(
        "$x $::x $a::b $a::b::c $0 $_a $1a",
        &[
            ("VARIABLE", "x", 0, 2),
            ("VARIABLE", "::x", 3, 7),
            ("VARIABLE", "a::b", 8, 13),
            ("VARIABLE", "a::b::c", 14, 22),
            ("VARIABLE", "0", 23, 25),
            ("VARIABLE", "_a", 26, 29),
            ("VARIABLE", "1a", 30, 33),
        ],
    );
    check_err("$a:: ", "Illegal fully qualified name", Some(4));
    check("$ x", &[("VARIABLE", "", 0, 1), ("NAME", "x", 2, 3)]);
    check("$", &[("VARIABLE", "", 0, 1)]);
    check(
        "$x-y $x::Y $::a::b $a::b-c",
        &[
            ("VARIABLE", "x", 0, 2),
            ("MINUS", "-", 2, 3),
            ("NAME", "y", 3, 4),
            ("VARIABLE", "x::Y", 5, 10),
            ("VARIABLE", "::a::b", 11, 18),
            ("VARIABLE", "a::b", 19, 24),
            ("MINUS", "-", 24, 25),
            ("NAME", "c", 25, 26),
        ],
    );
    check(
        "$x=$y",
        &[
            ("VARIABLE", "x", 0, 2),
            ("EQUALS", "=", 2, 3),
            ("VARIABLE", "y", 3, 5),
        ],
    );
}

/// Numbers keep their text; a `-` is never part of one.
#[test]
fn numbers() {
    check(
        "0x1F 0XaB 0777 0 10 1.5 1.5e3 1e10 1E-5 3.14e-2 0.5 0.0 0.9e9",
        &[
            ("NUMBER", "0x1F", 0, 4),
            ("NUMBER", "0XaB", 5, 9),
            ("NUMBER", "0777", 10, 14),
            ("NUMBER", "0", 15, 16),
            ("NUMBER", "10", 17, 19),
            ("NUMBER", "1.5", 20, 23),
            ("NUMBER", "1.5e3", 24, 29),
            ("NUMBER", "1e10", 30, 34),
            ("NUMBER", "1E-5", 35, 39),
            ("NUMBER", "3.14e-2", 40, 47),
            ("NUMBER", "0.5", 48, 51),
            ("NUMBER", "0.0", 52, 55),
            ("NUMBER", "0.9e9", 56, 61),
        ],
    );
    check(
        "1-2",
        &[
            ("NUMBER", "1", 0, 1),
            ("MINUS", "-", 1, 2),
            ("NUMBER", "2", 2, 3),
        ],
    );
    check(".5", &[("DOT", ".", 0, 1), ("NUMBER", "5", 1, 2)]);
    check_err("1_000", "Illegal number '1_000'", Some(0));
}

/// Malformed numbers: hex, octal, decimal and the catch-all error, each where
/// Puppet places it.
#[test]
fn number_errors() {
    check_err("0x", "Not a valid hex number 0x", Some(0));
    check_err("08", "Not a valid octal number 08", Some(0));
    check_err("1e", "Not a valid decimal number 1e", Some(0));
    check_err("1abc", "Illegal number '1abc'", Some(0));
    check_err("0xG", "Not a valid hex number 0xG", Some(0));
    check_err("09", "Not a valid octal number 09", Some(0));
    check("00", &[("NUMBER", "00", 0, 2)]);
    check_err("0x1g", "Not a valid hex number 0x1g", Some(0));
    check_err("1e5x", "Not a valid decimal number 1e5x", Some(0));
    check_err("1.5e", "Not a valid decimal number 1.5e", Some(0));
    check(
        "1.e5",
        &[
            ("NUMBER", "1", 0, 1),
            ("DOT", ".", 1, 2),
            ("NAME", "e5", 2, 4),
        ],
    );
    check(
        "1.5.6",
        &[
            ("NUMBER", "1.5", 0, 3),
            ("DOT", ".", 3, 4),
            ("NUMBER", "6", 4, 5),
        ],
    );
    check_err("2e-", "Not a valid decimal number 2e", Some(0));
    check_err("01.5", "Not a valid octal number 01.5", Some(0));
    check_err("$x = 1.5e", "Not a valid decimal number 1.5e", Some(5));
}

/// `[` after whitespace (or at the start) starts a list; otherwise it is access.
#[test]
fn list_start_versus_access() {
    check(
        "[1]",
        &[
            ("LISTSTART", "[", 0, 1),
            ("NUMBER", "1", 1, 2),
            ("RBRACK", "]", 2, 3),
        ],
    );
    check(
        "$x[1]",
        &[
            ("VARIABLE", "x", 0, 2),
            ("LBRACK", "[", 2, 3),
            ("NUMBER", "1", 3, 4),
            ("RBRACK", "]", 4, 5),
        ],
    );
    check(
        "$x [1]",
        &[
            ("VARIABLE", "x", 0, 2),
            ("LISTSTART", "[", 3, 4),
            ("NUMBER", "1", 4, 5),
            ("RBRACK", "]", 5, 6),
        ],
    );
    check(
        "$x\n[1]",
        &[
            ("VARIABLE", "x", 0, 2),
            ("LISTSTART", "[", 3, 4),
            ("NUMBER", "1", 4, 5),
            ("RBRACK", "]", 5, 6),
        ],
    );
    check(
        "$x\t[1]",
        &[
            ("VARIABLE", "x", 0, 2),
            ("LISTSTART", "[", 3, 4),
            ("NUMBER", "1", 4, 5),
            ("RBRACK", "]", 5, 6),
        ],
    );
    check(
        "foo[1]",
        &[
            ("NAME", "foo", 0, 3),
            ("LBRACK", "[", 3, 4),
            ("NUMBER", "1", 4, 5),
            ("RBRACK", "]", 5, 6),
        ],
    );
    check(
        "foo [1]",
        &[
            ("NAME", "foo", 0, 3),
            ("LISTSTART", "[", 4, 5),
            ("NUMBER", "1", 5, 6),
            ("RBRACK", "]", 6, 7),
        ],
    );
    check(
        "\"s\"[1]",
        &[
            ("STRING", "s", 0, 3),
            ("LBRACK", "[", 3, 4),
            ("NUMBER", "1", 4, 5),
            ("RBRACK", "]", 5, 6),
        ],
    );
    check(
        "\"${a}\"[1]",
        &[
            ("DQPRE", "", 0, 3),
            ("VARIABLE", "a", 3, 4),
            ("DQPOST", "", 5, 6),
            ("LBRACK", "[", 6, 7),
            ("NUMBER", "1", 7, 8),
            ("RBRACK", "]", 8, 9),
        ],
    );
    check(
        "a\u{a0}[1]",
        &[
            ("NAME", "a", 0, 1),
            ("LISTSTART", "[", 3, 4),
            ("NUMBER", "1", 4, 5),
            ("RBRACK", "]", 5, 6),
        ],
    );
    check(
        "[[1]]",
        &[
            ("LISTSTART", "[", 0, 1),
            ("LBRACK", "[", 1, 2),
            ("NUMBER", "1", 2, 3),
            ("RBRACK", "]", 3, 4),
            ("RBRACK", "]", 4, 5),
        ],
    );
}

/// `(` with only blanks before it on its line cannot start call arguments.
#[test]
fn ws_lparen_first_on_line_versus_lparen() {
    check(
        "(1)",
        &[
            ("WSLPAREN", "(", 0, 1),
            ("NUMBER", "1", 1, 2),
            ("RPAREN", ")", 2, 3),
        ],
    );
    check(
        "foo(1)",
        &[
            ("NAME", "foo", 0, 3),
            ("LPAREN", "(", 3, 4),
            ("NUMBER", "1", 4, 5),
            ("RPAREN", ")", 5, 6),
        ],
    );
    check(
        "foo\n(1)",
        &[
            ("NAME", "foo", 0, 3),
            ("WSLPAREN", "(", 4, 5),
            ("NUMBER", "1", 5, 6),
            ("RPAREN", ")", 6, 7),
        ],
    );
    check(
        "foo\n  (1)",
        &[
            ("NAME", "foo", 0, 3),
            ("WSLPAREN", "(", 6, 7),
            ("NUMBER", "1", 7, 8),
            ("RPAREN", ")", 8, 9),
        ],
    );
    check(
        "foo (1)",
        &[
            ("NAME", "foo", 0, 3),
            ("LPAREN", "(", 4, 5),
            ("NUMBER", "1", 5, 6),
            ("RPAREN", ")", 6, 7),
        ],
    );
    check(
        "a\n\t\r(x)",
        &[
            ("NAME", "a", 0, 1),
            ("WSLPAREN", "(", 4, 5),
            ("NAME", "x", 5, 6),
            ("RPAREN", ")", 6, 7),
        ],
    );
    check(
        "/* c */ (x)",
        &[
            ("LPAREN", "(", 8, 9),
            ("NAME", "x", 9, 10),
            ("RPAREN", ")", 10, 11),
        ],
    );
    check(
        "/* \n */ (x)",
        &[
            ("LPAREN", "(", 8, 9),
            ("NAME", "x", 9, 10),
            ("RPAREN", ")", 10, 11),
        ],
    );
    check(
        "\u{3000}(x)",
        &[
            ("WSLPAREN", "(", 3, 4),
            ("NAME", "x", 4, 5),
            ("RPAREN", ")", 5, 6),
        ],
    );
    check(
        "((1))",
        &[
            ("WSLPAREN", "(", 0, 1),
            ("LPAREN", "(", 1, 2),
            ("NUMBER", "1", 2, 3),
            ("RPAREN", ")", 3, 4),
            ("RPAREN", ")", 4, 5),
        ],
    );
}

/// `{` right after `?` opens a selector's cases.
#[test]
fn selector_brace_after_question_mark() {
    check(
        "$x ? { 1 => 2 }",
        &[
            ("VARIABLE", "x", 0, 2),
            ("QMARK", "?", 3, 4),
            ("SELBRACE", "{", 5, 6),
            ("NUMBER", "1", 7, 8),
            ("FARROW", "=>", 9, 11),
            ("NUMBER", "2", 12, 13),
            ("RBRACE", "}", 14, 15),
        ],
    );
    check(
        "$x ?{ 1 => 2 }",
        &[
            ("VARIABLE", "x", 0, 2),
            ("QMARK", "?", 3, 4),
            ("SELBRACE", "{", 4, 5),
            ("NUMBER", "1", 6, 7),
            ("FARROW", "=>", 8, 10),
            ("NUMBER", "2", 11, 12),
            ("RBRACE", "}", 13, 14),
        ],
    );
    check(
        "if $x { }",
        &[
            ("IF", "if", 0, 2),
            ("VARIABLE", "x", 3, 5),
            ("LBRACE", "{", 6, 7),
            ("RBRACE", "}", 8, 9),
        ],
    );
    check(
        "$x ? /a/ {",
        &[
            ("VARIABLE", "x", 0, 2),
            ("QMARK", "?", 3, 4),
            ("REGEX", "a", 5, 8),
            ("LBRACE", "{", 9, 10),
        ],
    );
    check(
        "$x ? $y ? { 1 => 2 }",
        &[
            ("VARIABLE", "x", 0, 2),
            ("QMARK", "?", 3, 4),
            ("VARIABLE", "y", 5, 7),
            ("QMARK", "?", 8, 9),
            ("SELBRACE", "{", 10, 11),
            ("NUMBER", "1", 12, 13),
            ("FARROW", "=>", 14, 16),
            ("NUMBER", "2", 17, 18),
            ("RBRACE", "}", 19, 20),
        ],
    );
}

/// `/` starts a regex unless it follows something that ends an operand.
#[test]
fn regex_versus_division() {
    check(
        "a /b/",
        &[
            ("NAME", "a", 0, 1),
            ("DIV", "/", 2, 3),
            ("NAME", "b", 3, 4),
            ("DIV", "/", 4, 5),
        ],
    );
    check(
        "$a /b/ c",
        &[
            ("VARIABLE", "a", 0, 2),
            ("DIV", "/", 3, 4),
            ("NAME", "b", 4, 5),
            ("DIV", "/", 5, 6),
            ("NAME", "c", 7, 8),
        ],
    );
    check(
        "1 /2/ 3",
        &[
            ("NUMBER", "1", 0, 1),
            ("DIV", "/", 2, 3),
            ("NUMBER", "2", 3, 4),
            ("DIV", "/", 4, 5),
            ("NUMBER", "3", 6, 7),
        ],
    );
    check(
        "(1) /2/",
        &[
            ("WSLPAREN", "(", 0, 1),
            ("NUMBER", "1", 1, 2),
            ("RPAREN", ")", 2, 3),
            ("DIV", "/", 4, 5),
            ("NUMBER", "2", 5, 6),
            ("DIV", "/", 6, 7),
        ],
    );
    check(
        "[1] /2/",
        &[
            ("LISTSTART", "[", 0, 1),
            ("NUMBER", "1", 1, 2),
            ("RBRACK", "]", 2, 3),
            ("DIV", "/", 4, 5),
            ("NUMBER", "2", 5, 6),
            ("DIV", "/", 6, 7),
        ],
    );
    check(
        "{} /2/",
        &[
            ("LBRACE", "{", 0, 1),
            ("RBRACE", "}", 1, 2),
            ("REGEX", "2", 3, 6),
        ],
    );
    check("= /2/", &[("EQUALS", "=", 0, 1), ("REGEX", "2", 2, 5)]);
    check("=~ /a/", &[("MATCH", "=~", 0, 2), ("REGEX", "a", 3, 6)]);
    check("if /a/", &[("IF", "if", 0, 2), ("REGEX", "a", 3, 6)]);
    check(
        "case $x { /a/: {} }",
        &[
            ("CASE", "case", 0, 4),
            ("VARIABLE", "x", 5, 7),
            ("LBRACE", "{", 8, 9),
            ("REGEX", "a", 10, 13),
            ("COLON", ":", 13, 14),
            ("LBRACE", "{", 15, 16),
            ("RBRACE", "}", 16, 17),
            ("RBRACE", "}", 18, 19),
        ],
    );
    check(
        "true /a/",
        &[
            ("BOOLEAN", "true", 0, 4),
            ("DIV", "/", 5, 6),
            ("NAME", "a", 6, 7),
            ("DIV", "/", 7, 8),
        ],
    );
    check(
        "\"s\" /a/",
        &[
            ("STRING", "s", 0, 3),
            ("DIV", "/", 4, 5),
            ("NAME", "a", 5, 6),
            ("DIV", "/", 6, 7),
        ],
    );
    check(
        "'s' /a/",
        &[
            ("STRING", "s", 0, 3),
            ("DIV", "/", 4, 5),
            ("NAME", "a", 5, 6),
            ("DIV", "/", 6, 7),
        ],
    );
    check(
        "Foo /a/",
        &[
            ("CLASSREF", "Foo", 0, 3),
            ("DIV", "/", 4, 5),
            ("NAME", "a", 5, 6),
            ("DIV", "/", 6, 7),
        ],
    );
    check(
        "foo-bar /a/",
        &[
            ("WORD", "foo-bar", 0, 7),
            ("DIV", "/", 8, 9),
            ("NAME", "a", 9, 10),
            ("DIV", "/", 10, 11),
        ],
    );
    check(
        "|> /a/",
        &[
            ("RCOLLECT", "|>", 0, 2),
            ("DIV", "/", 3, 4),
            ("NAME", "a", 4, 5),
            ("DIV", "/", 5, 6),
        ],
    );
    check(
        "|>> /a/",
        &[
            ("RRCOLLECT", "|>>", 0, 3),
            ("DIV", "/", 4, 5),
            ("NAME", "a", 5, 6),
            ("DIV", "/", 6, 7),
        ],
    );
    check(
        "node /a/ {}",
        &[
            ("NODE", "node", 0, 4),
            ("REGEX", "a", 5, 8),
            ("LBRACE", "{", 9, 10),
            ("RBRACE", "}", 10, 11),
        ],
    );
    check(", /a/", &[("COMMA", ",", 0, 1), ("REGEX", "a", 2, 5)]);
    check(
        "/a/ /b/",
        &[
            ("REGEX", "a", 0, 3),
            ("DIV", "/", 4, 5),
            ("NAME", "b", 5, 6),
            ("DIV", "/", 6, 7),
        ],
    );
    check(
        "undef /a/",
        &[("UNDEF", "undef", 0, 5), ("REGEX", "a", 6, 9)],
    );
    check(
        "default /a/",
        &[("DEFAULT", "default", 0, 7), ("REGEX", "a", 8, 11)],
    );
    check("/* c */ /a/", &[("REGEX", "a", 8, 11)]);
    check(
        "x = /a/b/",
        &[
            ("NAME", "x", 0, 1),
            ("EQUALS", "=", 2, 3),
            ("REGEX", "a", 4, 7),
            ("NAME", "b", 7, 8),
            ("DIV", "/", 8, 9),
        ],
    );
}

/// A regex ends at the first `/` not escaped by an odd number of backslashes;
/// without a closing `/` it is a division.
#[test]
fn regex_escaped_slashes() {
    check("/a\\/b/", &[("REGEX", "a/b", 0, 6)]);
    check(
        "/a\\\\/ b/",
        &[
            ("REGEX", "a\\\\", 0, 5),
            ("NAME", "b", 6, 7),
            ("DIV", "/", 7, 8),
        ],
    );
    check("/a\\\\\\/b/", &[("REGEX", "a\\\\/b", 0, 8)]);
    check("/ab", &[("DIV", "/", 0, 1), ("NAME", "ab", 1, 3)]);
    check("/a\nb/", &[("REGEX", "a\nb", 0, 5)]);
    check(
        "/a\\/",
        &[
            ("DIV", "/", 0, 1),
            ("NAME", "a", 1, 2),
            ("OTHER", "", 2, 3),
            ("DIV", "/", 3, 4),
        ],
    );
    check(
        "$x =~ /^\\/(.*)\\/$/",
        &[
            ("VARIABLE", "x", 0, 2),
            ("MATCH", "=~", 3, 5),
            ("REGEX", "^/(.*)/$", 6, 18),
        ],
    );
}

/// The longest operator wins, as Puppet's lookahead decides.
#[test]
fn multi_char_operators() {
    check(
        "<<| |>> <| |> -> ~> <- <~ +> => == != =~ !~ <= >= << >> += -=",
        &[
            ("LLCOLLECT", "<<|", 0, 3),
            ("RRCOLLECT", "|>>", 4, 7),
            ("LCOLLECT", "<|", 8, 10),
            ("RCOLLECT", "|>", 11, 13),
            ("IN_EDGE", "->", 14, 16),
            ("IN_EDGE_SUB", "~>", 17, 19),
            ("OUT_EDGE", "<-", 20, 22),
            ("OUT_EDGE_SUB", "<~", 23, 25),
            ("PARROW", "+>", 26, 28),
            ("FARROW", "=>", 29, 31),
            ("ISEQUAL", "==", 32, 34),
            ("NOTEQUAL", "!=", 35, 37),
            ("MATCH", "=~", 38, 40),
            ("NOMATCH", "!~", 41, 43),
            ("LESSEQUAL", "<=", 44, 46),
            ("GREATEREQUAL", ">=", 47, 49),
            ("LSHIFT", "<<", 50, 52),
            ("RSHIFT", ">>", 53, 55),
            ("APPENDS", "+=", 56, 58),
            ("DELETES", "-=", 59, 61),
        ],
    );
    check(
        "<<<| |>>> ->> <=> === !== =>> <-- ~~> +>= @@@",
        &[
            ("LSHIFT", "<<", 0, 2),
            ("LCOLLECT", "<|", 2, 4),
            ("RRCOLLECT", "|>>", 5, 8),
            ("GREATERTHAN", ">", 8, 9),
            ("IN_EDGE", "->", 10, 12),
            ("GREATERTHAN", ">", 12, 13),
            ("LESSEQUAL", "<=", 14, 16),
            ("GREATERTHAN", ">", 16, 17),
            ("ISEQUAL", "==", 18, 20),
            ("EQUALS", "=", 20, 21),
            ("NOTEQUAL", "!=", 22, 24),
            ("EQUALS", "=", 24, 25),
            ("FARROW", "=>", 26, 28),
            ("GREATERTHAN", ">", 28, 29),
            ("OUT_EDGE", "<-", 30, 32),
            ("MINUS", "-", 32, 33),
            ("TILDE", "~", 34, 35),
            ("IN_EDGE_SUB", "~>", 35, 37),
            ("PARROW", "+>", 38, 40),
            ("EQUALS", "=", 40, 41),
            ("ATAT", "@@", 42, 44),
            ("AT", "@", 44, 45),
        ],
    );
}

/// Single characters, and characters no token starts with (OTHER).
#[test]
fn single_char_operators() {
    check(
        "< > = ! + - * / % . , ; : ? | @ @@ ~",
        &[
            ("LESSTHAN", "<", 0, 1),
            ("GREATERTHAN", ">", 2, 3),
            ("EQUALS", "=", 4, 5),
            ("NOT", "!", 6, 7),
            ("PLUS", "+", 8, 9),
            ("MINUS", "-", 10, 11),
            ("TIMES", "*", 12, 13),
            ("DIV", "/", 14, 15),
            ("MODULO", "%", 16, 17),
            ("DOT", ".", 18, 19),
            ("COMMA", ",", 20, 21),
            ("SEMIC", ";", 22, 23),
            ("COLON", ":", 24, 25),
            ("QMARK", "?", 26, 27),
            ("PIPE", "|", 28, 29),
            ("AT", "@", 30, 31),
            ("ATAT", "@@", 32, 34),
            ("TILDE", "~", 35, 36),
        ],
    );
    check(
        "---1 !!x & ^ `",
        &[
            ("MINUS", "-", 0, 1),
            ("MINUS", "-", 1, 2),
            ("MINUS", "-", 2, 3),
            ("NUMBER", "1", 3, 4),
            ("NOT", "!", 5, 6),
            ("NOT", "!", 6, 7),
            ("NAME", "x", 7, 8),
            ("OTHER", "", 9, 10),
            ("OTHER", "", 11, 12),
            ("OTHER", "", 13, 14),
        ],
    );
}

/// `#` comments to the end of the line, `/* */` comments across lines.
#[test]
fn comments() {
    check("# c\nx", &[("NAME", "x", 4, 5)]);
    check("x # c", &[("NAME", "x", 0, 1)]);
    check("/* a */x", &[("NAME", "x", 7, 8)]);
    check("/* a\n b */ x", &[("NAME", "x", 11, 12)]);
    check("/**/x", &[("NAME", "x", 4, 5)]);
    check("/*/x */y", &[("NAME", "y", 7, 8)]);
    check("#", &[]);
    check("# \r\nx", &[("NAME", "x", 4, 5)]);
    check("x#y\nz", &[("NAME", "x", 0, 1), ("NAME", "z", 4, 5)]);
    check("/* */ */", &[("TIMES", "*", 6, 7), ("DIV", "/", 7, 8)]);
}

/// An unclosed `/*` is an error at the `/`.
#[test]
fn unclosed_comment() {
    check_err("/* unclosed", "Unclosed multiline comment", Some(0));
    check_err("x /* unclosed\n", "Unclosed multiline comment", Some(2));
}

/// Only `\\` and `\'` are escapes in single quotes; no interpolation.
#[test]
fn single_quoted_strings() {
    check("'a'", &[("STRING", "a", 0, 3)]);
    check("'a\\'b'", &[("STRING", "a'b", 0, 6)]);
    check("'a\\\\b'", &[("STRING", "a\\b", 0, 6)]);
    check("'a\\nb'", &[("STRING", "a\\nb", 0, 6)]);
    check("'a\\\\'", &[("STRING", "a\\", 0, 5)]);
    check("'\\\\\\''", &[("STRING", "\\'", 0, 6)]);
    check("''", &[("STRING", "", 0, 2)]);
    check("'a\nb'", &[("STRING", "a\nb", 0, 5)]);
    check("'\\q'", &[("STRING", "\\q", 0, 4)]);
    check("'$x ${y}'", &[("STRING", "$x ${y}", 0, 9)]);
}

/// Double-quoted escapes; unknown ones (and bad `\u`) are kept as written.
#[test]
fn double_quoted_escapes() {
    check(
        "\"\\n \\t \\s \\$ \\\" \\\\ \\u{1F600} \\u00e9\"",
        &[("STRING", "\n \t   $ \" \\ 😀 é", 0, 36)],
    );
    check("\"\\q \\a \\' \\r\"", &[("STRING", "\\q \\a ' \r", 0, 13)]);
    check("\"a\\\nb\"", &[("STRING", "ab", 0, 6)]);
    check("\"a\\\r\nb\"", &[("STRING", "ab", 0, 7)]);
    check(
        "\"\\u{} \\u12 \\uZZZZ \\u{1234567}\"",
        &[("STRING", "\\u{} \\u12 \\uZZZZ \\u{1234567}", 0, 30)],
    );
    check("\"\\u0041\\u0042\"", &[("STRING", "AB", 0, 14)]);
    check("\"\\\\u0041\"", &[("STRING", "\\u0041", 0, 9)]);
    check("\"\\\\\\u0041\"", &[("STRING", "\\A", 0, 10)]);
    check("\"\\u{41}x\"", &[("STRING", "Ax", 0, 9)]);
    check(
        "\"\\\\$x\"",
        &[
            ("DQPRE", "\\", 0, 3),
            ("VARIABLE", "x", 3, 5),
            ("DQPOST", "", 5, 6),
        ],
    );
}

/// Unclosed strings. Puppet names the text its scanner matched last (`after
/// '...'`): the opening quote, or for a string's tail the last thing scanned in
/// `${}` (nothing after whitespace), or an interpolated variable's name.
#[test]
fn unclosed_quotes() {
    check_err(
        "$x = \"abc",
        "Unclosed quote after '\"' followed by 'abc...'",
        Some(6),
    );
    check_err(
        "$x = 'abc",
        "Unclosed quote after \"'\" followed by 'abc...'",
        Some(6),
    );
    check_err(
        "x 'unc\nlosed",
        "Unclosed quote after \"'\" followed by 'unc\\nl...'",
        Some(3),
    );
    check_err(
        "\"a\\\"",
        "Unclosed quote after '\"' followed by 'a\\\"...'",
        Some(1),
    );
    check_err(
        "\"a\nb",
        "Unclosed quote after '\"' followed by 'a\\nb...'",
        Some(1),
    );
    check_err(
        "\"a$ b",
        "Unclosed quote after '' followed by ' b...'",
        Some(3),
    );
    check_err(
        "\"$x",
        "Unclosed quote after 'x' followed by '<eof>'",
        Some(3),
    );
    check_err(
        "\"a $x b",
        "Unclosed quote after 'x' followed by ' b...'",
        Some(5),
    );
    check_err(
        "\"${x",
        "Unclosed quote after 'x' followed by '<eof>'",
        Some(4),
    );
    check_err(
        "\"${x }",
        "Unclosed quote after '' followed by '<eof>'",
        Some(6),
    );
    check_err(
        "\"${x} b",
        "Unclosed quote after 'x' followed by ' b...'",
        Some(5),
    );
    check_err(
        "\"${x\n",
        "Unclosed quote after '' followed by '<eof>'",
        Some(5),
    );
    check_err(
        "\"${foo(1)}",
        "Unclosed quote after '1' followed by '<eof>'",
        Some(10),
    );
    check_err(
        "\"${$x.y}",
        "Unclosed quote after 'y' followed by '<eof>'",
        Some(8),
    );
    check_err(
        "\"${\"a\"}",
        "Unclosed quote after 'a\"' followed by '<eof>'",
        Some(7),
    );
    check_err(
        "\"${'a'}",
        "Unclosed quote after 'a'' followed by '<eof>'",
        Some(7),
    );
    check_err(
        "\"${''}",
        "Unclosed quote after \"'\" followed by '<eof>'",
        Some(6),
    );
    check_err(
        "\"${}",
        "Unclosed quote after '' followed by '<eof>'",
        Some(4),
    );
    check_err(
        "\"${x}$ b",
        "Unclosed quote after '' followed by ' b...'",
        Some(6),
    );
    check_err(
        "\"${/a/}",
        "Unclosed quote after '/a/' followed by '<eof>'",
        Some(7),
    );
}

/// Interpolation: `DQPRE expr (DQMID expr)* DQPOST`. A lone name (or one before
/// `.` or `[`) in `${}` is a variable; other tokens stay what they are.
#[test]
fn interpolation() {
    check(
        "\"$x\"",
        &[
            ("DQPRE", "", 0, 1),
            ("VARIABLE", "x", 1, 3),
            ("DQPOST", "", 3, 4),
        ],
    );
    check(
        "\"${x}\"",
        &[
            ("DQPRE", "", 0, 3),
            ("VARIABLE", "x", 3, 4),
            ("DQPOST", "", 5, 6),
        ],
    );
    check(
        "\"${x[1]}\"",
        &[
            ("DQPRE", "", 0, 3),
            ("VARIABLE", "x", 3, 4),
            ("LBRACK", "[", 4, 5),
            ("NUMBER", "1", 5, 6),
            ("RBRACK", "]", 6, 7),
            ("DQPOST", "", 8, 9),
        ],
    );
    check(
        "\"${x.y}\"",
        &[
            ("DQPRE", "", 0, 3),
            ("VARIABLE", "x", 3, 4),
            ("DOT", ".", 4, 5),
            ("NAME", "y", 5, 6),
            ("DQPOST", "", 7, 8),
        ],
    );
    check(
        "\"${x + 1}\"",
        &[
            ("DQPRE", "", 0, 3),
            ("NAME", "x", 3, 4),
            ("PLUS", "+", 5, 6),
            ("NUMBER", "1", 7, 8),
            ("DQPOST", "", 9, 10),
        ],
    );
    check(
        "\"${1}\"",
        &[
            ("DQPRE", "", 0, 3),
            ("VARIABLE", "1", 3, 4),
            ("DQPOST", "", 5, 6),
        ],
    );
    check("\"$\"", &[("STRING", "$", 0, 3)]);
    check(
        "\"${foo(\"a\")}\"",
        &[
            ("DQPRE", "", 0, 3),
            ("NAME", "foo", 3, 6),
            ("LPAREN", "(", 6, 7),
            ("STRING", "a", 7, 10),
            ("RPAREN", ")", 10, 11),
            ("DQPOST", "", 12, 13),
        ],
    );
    check(
        "\"a${x}b${y}c\"",
        &[
            ("DQPRE", "a", 0, 4),
            ("VARIABLE", "x", 4, 5),
            ("DQMID", "b", 6, 9),
            ("VARIABLE", "y", 9, 10),
            ("DQPOST", "c", 11, 13),
        ],
    );
    check(
        "\"a$x b$y c\"",
        &[
            ("DQPRE", "a", 0, 2),
            ("VARIABLE", "x", 2, 4),
            ("DQMID", " b", 4, 6),
            ("VARIABLE", "y", 6, 8),
            ("DQPOST", " c", 8, 11),
        ],
    );
    check(
        "\"${ x }\"",
        &[
            ("DQPRE", "", 0, 3),
            ("VARIABLE", "x", 4, 5),
            ("DQPOST", "", 7, 8),
        ],
    );
    check(
        "\"${true}\"",
        &[
            ("DQPRE", "", 0, 3),
            ("VARIABLE", "true", 3, 7),
            ("DQPOST", "", 8, 9),
        ],
    );
    check(
        "\"${if}\"",
        &[
            ("DQPRE", "", 0, 3),
            ("VARIABLE", "if", 3, 5),
            ("DQPOST", "", 6, 7),
        ],
    );
    check(
        "\"${Foo}\"",
        &[
            ("DQPRE", "", 0, 3),
            ("CLASSREF", "Foo", 3, 6),
            ("DQPOST", "", 7, 8),
        ],
    );
    check(
        "\"${x-y}\"",
        &[
            ("DQPRE", "", 0, 3),
            ("VARIABLE", "x-y", 3, 6),
            ("DQPOST", "", 7, 8),
        ],
    );
    check(
        "\"${x::y}\"",
        &[
            ("DQPRE", "", 0, 3),
            ("VARIABLE", "x::y", 3, 7),
            ("DQPOST", "", 8, 9),
        ],
    );
    check(
        "\"${::x}\"",
        &[
            ("DQPRE", "", 0, 3),
            ("VARIABLE", "::x", 3, 6),
            ("DQPOST", "", 7, 8),
        ],
    );
    check(
        "\"${$x}\"",
        &[
            ("DQPRE", "", 0, 3),
            ("VARIABLE", "x", 3, 5),
            ("DQPOST", "", 6, 7),
        ],
    );
    check(
        "\"${x.y.z}\"",
        &[
            ("DQPRE", "", 0, 3),
            ("VARIABLE", "x", 3, 4),
            ("DOT", ".", 4, 5),
            ("NAME", "y", 5, 6),
            ("DOT", ".", 6, 7),
            ("NAME", "z", 7, 8),
            ("DQPOST", "", 9, 10),
        ],
    );
    check(
        "\"${x[1][2]}\"",
        &[
            ("DQPRE", "", 0, 3),
            ("VARIABLE", "x", 3, 4),
            ("LBRACK", "[", 4, 5),
            ("NUMBER", "1", 5, 6),
            ("RBRACK", "]", 6, 7),
            ("LBRACK", "[", 7, 8),
            ("NUMBER", "2", 8, 9),
            ("RBRACK", "]", 9, 10),
            ("DQPOST", "", 11, 12),
        ],
    );
    check(
        "\"${x ? { 1 => 2 }}\"",
        &[
            ("DQPRE", "", 0, 3),
            ("NAME", "x", 3, 4),
            ("QMARK", "?", 5, 6),
            ("SELBRACE", "{", 7, 8),
            ("NUMBER", "1", 9, 10),
            ("FARROW", "=>", 11, 13),
            ("NUMBER", "2", 14, 15),
            ("RBRACE", "}", 16, 17),
            ("DQPOST", "", 18, 19),
        ],
    );
    check(
        "\"${\"${\"${x}\"}\"}\"",
        &[
            ("DQPRE", "", 0, 3),
            ("DQPRE", "", 3, 6),
            ("DQPRE", "", 6, 9),
            ("VARIABLE", "x", 9, 10),
            ("DQPOST", "", 11, 12),
            ("DQPOST", "", 13, 14),
            ("DQPOST", "", 15, 16),
        ],
    );
    check(
        "\"${foo(\"${b}\")}\"",
        &[
            ("DQPRE", "", 0, 3),
            ("NAME", "foo", 3, 6),
            ("LPAREN", "(", 6, 7),
            ("DQPRE", "", 7, 10),
            ("VARIABLE", "b", 10, 11),
            ("DQPOST", "", 12, 13),
            ("RPAREN", ")", 13, 14),
            ("DQPOST", "", 15, 16),
        ],
    );
    check(
        "\"$1\"",
        &[
            ("DQPRE", "", 0, 1),
            ("VARIABLE", "1", 1, 3),
            ("DQPOST", "", 3, 4),
        ],
    );
    check(
        "\"$::x\"",
        &[
            ("DQPRE", "", 0, 1),
            ("VARIABLE", "::x", 1, 5),
            ("DQPOST", "", 5, 6),
        ],
    );
    check(
        "\"$a::b::c\"",
        &[
            ("DQPRE", "", 0, 1),
            ("VARIABLE", "a::b::c", 1, 9),
            ("DQPOST", "", 9, 10),
        ],
    );
    check(
        "\"$a::\"",
        &[
            ("DQPRE", "", 0, 1),
            ("VARIABLE", "a", 1, 3),
            ("DQPOST", "::", 3, 6),
        ],
    );
    check(
        "\"$x[1]\"",
        &[
            ("DQPRE", "", 0, 1),
            ("VARIABLE", "x", 1, 3),
            ("DQPOST", "[1]", 3, 7),
        ],
    );
    check(
        "\"$x.y\"",
        &[
            ("DQPRE", "", 0, 1),
            ("VARIABLE", "x", 1, 3),
            ("DQPOST", ".y", 3, 6),
        ],
    );
    check(
        "\"$$x\"",
        &[
            ("DQPRE", "$", 0, 2),
            ("VARIABLE", "x", 2, 4),
            ("DQPOST", "", 4, 5),
        ],
    );
    check(
        "\"${x}${/a/}\"",
        &[
            ("DQPRE", "", 0, 3),
            ("VARIABLE", "x", 3, 4),
            ("DQMID", "", 5, 7),
            ("REGEX", "a", 7, 10),
            ("DQPOST", "", 11, 12),
        ],
    );
    check(
        "\"${x?}${{}}\"",
        &[
            ("DQPRE", "", 0, 3),
            ("NAME", "x", 3, 4),
            ("QMARK", "?", 4, 5),
            ("DQMID", "", 6, 8),
            ("LBRACE", "{", 8, 9),
            ("RBRACE", "}", 9, 10),
            ("DQPOST", "", 11, 12),
        ],
    );
}

/// Heredocs: the HEREDOC token carries the syntax, the text follows as a STRING
/// taken from the lines after the `@(...)` line; the end tag may follow other text
/// on its line.
#[test]
fn heredoc_plain() {
    check(
        "$x = @(END)\nhello\nEND\n",
        &[
            ("VARIABLE", "x", 0, 2),
            ("EQUALS", "=", 3, 4),
            ("HEREDOC", "", 5, 11),
            ("STRING", "hello\n", 12, 18),
        ],
    );
    check(
        "$x = @(END)\nhello\n  $x ${y}\\n\\t\nEND\n",
        &[
            ("VARIABLE", "x", 0, 2),
            ("EQUALS", "=", 3, 4),
            ("HEREDOC", "", 5, 11),
            ("STRING", "hello\n  $x ${y}\\n\\t\n", 12, 32),
        ],
    );
    check(
        "$x = @(END)\na\nEND",
        &[
            ("VARIABLE", "x", 0, 2),
            ("EQUALS", "=", 3, 4),
            ("HEREDOC", "", 5, 11),
            ("STRING", "a\n", 12, 14),
        ],
    );
    check(
        "$x = @(END)\na\nfoo END\n",
        &[
            ("VARIABLE", "x", 0, 2),
            ("EQUALS", "=", 3, 4),
            ("HEREDOC", "", 5, 11),
            ("STRING", "a\n", 12, 14),
        ],
    );
    check(
        "$x = @(END)\na\n\tEND \t\n",
        &[
            ("VARIABLE", "x", 0, 2),
            ("EQUALS", "=", 3, 4),
            ("HEREDOC", "", 5, 11),
            ("STRING", "a\n", 12, 14),
        ],
    );
    check(
        "$x = @(  END  )\na\nEND\n",
        &[
            ("VARIABLE", "x", 0, 2),
            ("EQUALS", "=", 3, 4),
            ("HEREDOC", "", 5, 15),
            ("STRING", "a\n", 16, 18),
        ],
    );
    check(
        "$x = @(END) + 1\na\nEND\n",
        &[
            ("VARIABLE", "x", 0, 2),
            ("EQUALS", "=", 3, 4),
            ("HEREDOC", "", 5, 11),
            ("STRING", "a\n", 16, 18),
            ("PLUS", "+", 12, 13),
            ("NUMBER", "1", 14, 15),
        ],
    );
    check(
        "@(A)\n@(B)\nA\nB\n",
        &[
            ("HEREDOC", "", 0, 4),
            ("STRING", "@(B)\n", 5, 10),
            ("CLASSREF", "B", 12, 13),
        ],
    );
}

/// A quoted end tag makes the text interpolate, like a double-quoted string.
#[test]
fn heredoc_interpolating() {
    check(
        "$x = @(\"END\")\nhello $x and ${y} \\$z\nEND\n",
        &[
            ("VARIABLE", "x", 0, 2),
            ("EQUALS", "=", 3, 4),
            ("HEREDOC", "", 5, 13),
            ("DQPRE", "hello ", 14, 20),
            ("VARIABLE", "x", 20, 22),
            ("DQMID", " and ", 22, 29),
            ("VARIABLE", "y", 29, 30),
            ("DQMID", " \\", 31, 33),
            ("VARIABLE", "z", 33, 35),
            ("DQPOST", "\n", 35, 36),
        ],
    );
    check(
        "$x = @(\"END\")\n$x\nEND\n",
        &[
            ("VARIABLE", "x", 0, 2),
            ("EQUALS", "=", 3, 4),
            ("HEREDOC", "", 5, 13),
            ("DQPRE", "", 14, 14),
            ("VARIABLE", "x", 14, 16),
            ("DQPOST", "\n", 16, 17),
        ],
    );
    check(
        "$x = @(\"END\")\n${x}\nEND\n",
        &[
            ("VARIABLE", "x", 0, 2),
            ("EQUALS", "=", 3, 4),
            ("HEREDOC", "", 5, 13),
            ("DQPRE", "", 14, 16),
            ("VARIABLE", "x", 16, 17),
            ("DQPOST", "\n", 18, 19),
        ],
    );
    check(
        "$x = @(\"END\")\n[1] (2)\nEND\n",
        &[
            ("VARIABLE", "x", 0, 2),
            ("EQUALS", "=", 3, 4),
            ("HEREDOC", "", 5, 13),
            ("STRING", "[1] (2)\n", 14, 22),
        ],
    );
    check(
        "$x = @(\"END\")\n${[1]}\nEND\n",
        &[
            ("VARIABLE", "x", 0, 2),
            ("EQUALS", "=", 3, 4),
            ("HEREDOC", "", 5, 13),
            ("DQPRE", "", 14, 16),
            ("LBRACK", "[", 16, 17),
            ("NUMBER", "1", 17, 18),
            ("RBRACK", "]", 18, 19),
            ("DQPOST", "\n", 20, 21),
        ],
    );
}

/// `:syntax` is the HEREDOC token's value.
#[test]
fn heredoc_syntax() {
    check(
        "$x = @(END:json)\n{\"a\": 1}\nEND\n",
        &[
            ("VARIABLE", "x", 0, 2),
            ("EQUALS", "=", 3, 4),
            ("HEREDOC", "json", 5, 16),
            ("STRING", "{\"a\": 1}\n", 17, 26),
        ],
    );
    check_err(
        "$x = @(END : json / t )\na\\tb\nEND\n",
        "Invalid syntax in heredoc expected @(endtag[:syntax][/escapes])",
        Some(23),
    );
    check(
        "$x = @(\"END\":epp)\nx\nEND\n",
        &[
            ("VARIABLE", "x", 0, 2),
            ("EQUALS", "=", 3, 4),
            ("HEREDOC", "epp", 5, 17),
            ("STRING", "x\n", 18, 20),
        ],
    );
}

/// Escapes are off unless listed after `/` (an empty list means all of them);
/// `\\` is then always an escape.
#[test]
fn heredoc_escape_flags() {
    check(
        "$x = @(END/L)\na \\\nb\\\\\\n\nEND\n",
        &[
            ("VARIABLE", "x", 0, 2),
            ("EQUALS", "=", 3, 4),
            ("HEREDOC", "", 5, 13),
            ("STRING", "a b\\\\n\n", 14, 24),
        ],
    );
    check(
        "$x = @(END/t)\na\\tb\\nc\\\\d\\$e\nEND\n",
        &[
            ("VARIABLE", "x", 0, 2),
            ("EQUALS", "=", 3, 4),
            ("HEREDOC", "", 5, 13),
            ("STRING", "a\tb\\nc\\d\\$e\n", 14, 28),
        ],
    );
    check(
        "$x = @(END/$)\na\\$b\\tc\nEND\n",
        &[
            ("VARIABLE", "x", 0, 2),
            ("EQUALS", "=", 3, 4),
            ("HEREDOC", "", 5, 13),
            ("STRING", "a$b\\tc\n", 14, 22),
        ],
    );
    check(
        "$x = @(\"END\"/$)\na\\$b ${c}\nEND\n",
        &[
            ("VARIABLE", "x", 0, 2),
            ("EQUALS", "=", 3, 4),
            ("HEREDOC", "", 5, 15),
            ("DQPRE", "a$b ", 16, 23),
            ("VARIABLE", "c", 23, 24),
            ("DQPOST", "\n", 25, 26),
        ],
    );
    check(
        "$x = @(\"END\")\na\\$b ${c}\nEND\n",
        &[
            ("VARIABLE", "x", 0, 2),
            ("EQUALS", "=", 3, 4),
            ("HEREDOC", "", 5, 13),
            ("DQPRE", "a\\", 14, 16),
            ("VARIABLE", "b", 16, 18),
            ("DQMID", " ", 18, 21),
            ("VARIABLE", "c", 21, 22),
            ("DQPOST", "\n", 23, 24),
        ],
    );
    check(
        "$x = @(END/)\na\\tb\\nc\\sd\\u00e9\\$e\\\nf\\rg\\'h\\\"i\\qj\nEND\n",
        &[
            ("VARIABLE", "x", 0, 2),
            ("EQUALS", "=", 3, 4),
            ("HEREDOC", "", 5, 12),
            ("STRING", "a\tb\nc dé$ef\rg\\'h\\\"i\\qj\n", 13, 48),
        ],
    );
    check(
        "$x = @(\"END\"/u)\n\\u{1F600}\\u00e9\nEND\n",
        &[
            ("VARIABLE", "x", 0, 2),
            ("EQUALS", "=", 3, 4),
            ("HEREDOC", "", 5, 15),
            ("STRING", "😀é\n", 16, 32),
        ],
    );
}

/// `-` before the end tag removes the last line break (`\r\n` too).
#[test]
fn heredoc_margin_and_trim() {
    check(
        "$x = @(END)\na\n-END\n",
        &[
            ("VARIABLE", "x", 0, 2),
            ("EQUALS", "=", 3, 4),
            ("HEREDOC", "", 5, 11),
            ("STRING", "a", 12, 13),
        ],
    );
    check(
        "$x = @(END)\r\na\r\n-END\r\n",
        &[
            ("VARIABLE", "x", 0, 2),
            ("EQUALS", "=", 3, 4),
            ("HEREDOC", "", 5, 11),
            ("STRING", "a", 13, 14),
        ],
    );
}

/// Several heredocs on one line take their texts one after another; lexing
/// continues on the `@(...)` line, then after the last text.
#[test]
fn heredoc_two_on_one_line() {
    check(
        "foo(@(A), @(B))\na\nA\nb\nB\n$y = 1\n",
        &[
            ("NAME", "foo", 0, 3),
            ("LPAREN", "(", 3, 4),
            ("HEREDOC", "", 4, 8),
            ("STRING", "a\n", 16, 18),
            ("COMMA", ",", 8, 9),
            ("HEREDOC", "", 10, 14),
            ("STRING", "b\n", 20, 22),
            ("RPAREN", ")", 14, 15),
            ("VARIABLE", "y", 24, 26),
            ("EQUALS", "=", 27, 28),
            ("NUMBER", "1", 29, 30),
        ],
    );
    check(
        "foo(@(A), @(B)) $z\na\nA\nb\nB\n$y = 1\n",
        &[
            ("NAME", "foo", 0, 3),
            ("LPAREN", "(", 3, 4),
            ("HEREDOC", "", 4, 8),
            ("STRING", "a\n", 19, 21),
            ("COMMA", ",", 8, 9),
            ("HEREDOC", "", 10, 14),
            ("STRING", "b\n", 23, 25),
            ("RPAREN", ")", 14, 15),
            ("VARIABLE", "z", 16, 18),
            ("VARIABLE", "y", 27, 29),
            ("EQUALS", "=", 30, 31),
            ("NUMBER", "1", 32, 33),
        ],
    );
    check(
        "$x = @(E) @(E)\na\nE\nb\nE\n",
        &[
            ("VARIABLE", "x", 0, 2),
            ("EQUALS", "=", 3, 4),
            ("HEREDOC", "", 5, 9),
            ("STRING", "a\n", 15, 17),
            ("HEREDOC", "", 10, 14),
            ("STRING", "b\n", 19, 21),
        ],
    );
}

/// Heredoc errors. The unclosed-parenthesis error is at `@(`; a missing end tag
/// is reported where the text starts. PATTERN_HEREDOC matches anywhere up to the
/// first `)`, so of `@(a` + newline + `@(b)` the second is the heredoc.
#[test]
fn heredoc_errors() {
    check_err(
        "$x = @(END\n",
        "Unclosed parenthesis after '@(' followed by '@(END...'",
        Some(5),
    );
    check_err(
        "$x = @(END",
        "Unclosed parenthesis after '@(' followed by '@(END...'",
        Some(5),
    );
    check_err("$x = @(END)\n", "Heredoc without end-tagged line", Some(12));
    check_err(
        "$x = @(END)",
        "Heredoc without any following lines of text",
        Some(11),
    );
    check_err(
        "$x = @(END)\n  a\n  b\n",
        "Heredoc without end-tagged line",
        Some(12),
    );
    check_err(
        "$x = @(END)\na\nEN\n",
        "Heredoc without end-tagged line",
        Some(12),
    );
    check_err(
        "$x = @()\na\n)\n",
        "Invalid syntax in heredoc expected @(endtag[:syntax][/escapes])",
        Some(8),
    );
    check_err(
        "$x = @(\"\")\na\n\"\"\n",
        "Heredoc with an empty endtag",
        Some(10),
    );
    check_err(
        "$x = @(END:)\na\nEND\n",
        "Invalid syntax in heredoc expected @(endtag[:syntax][/escapes])",
        Some(12),
    );
    check_err(
        "$x = @(END:j)\na\nEND\n",
        "Invalid syntax in heredoc expected @(endtag[:syntax][/escapes])",
        Some(13),
    );
    check_err(
        "$x = @(END:Json)\na\nEND\n",
        "Invalid syntax in heredoc expected @(endtag[:syntax][/escapes])",
        Some(16),
    );
    check_err(
        "$x = @(END/tt)\na\nEND\n",
        "An escape char for @() may only appear once. Got 't, t'",
        Some(14),
    );
    check_err(
        "$x = @(END/q)\na\nEND\n",
        "Invalid heredoc escape char. Only t, r, n, s,  u, L, $ allowed. Got 'q'",
        Some(13),
    );
    check(
        "$x = @(\"END\")\n${\nEND\n",
        &[
            ("VARIABLE", "x", 0, 2),
            ("EQUALS", "=", 3, 4),
            ("HEREDOC", "", 5, 13),
            ("DQPRE", "", 14, 16),
            ("DQPOST", "", 17, 17),
        ],
    );
    check_err(
        "$x = @(\u{a0})\na\n",
        "Heredoc without end-tagged line",
        Some(11),
    );
    check(
        "x @(a\n@(b)\nb\n",
        &[
            ("NAME", "x", 0, 1),
            ("HEREDOC", "", 2, 10),
            ("STRING", "", 11, 11),
        ],
    );
}

/// A Puppet quirk: its slurp patterns `(?:[^\\]|^)(?:\\\\)*["$]` prefer to consume one
/// character before the terminator even where the scan starts, so a closing quote
/// directly followed by a quote or `$` is taken as text.
#[test]
fn swallowed_quotes() {
    check("'''", &[("STRING", "'", 0, 3)]);
    check_err(
        "''''",
        "Unclosed quote after \"'\" followed by '<eof>'",
        Some(4),
    );
    check("''\\\\'", &[("STRING", "'\\", 0, 5)]);
    check("\"\"\"", &[("STRING", "\"", 0, 3)]);
    check_err(
        "\"\"\"\"",
        "Unclosed quote after '\"' followed by '<eof>'",
        Some(4),
    );
    check_err(
        "\"\"$x",
        "Unclosed quote after 'x' followed by '<eof>'",
        Some(4),
    );
    check(
        "\"${x}\"\"",
        &[
            ("DQPRE", "", 0, 3),
            ("VARIABLE", "x", 3, 4),
            ("DQPOST", "\"", 5, 7),
        ],
    );
    check(
        "\"$x\"\"",
        &[
            ("DQPRE", "", 0, 1),
            ("VARIABLE", "x", 1, 3),
            ("DQPOST", "\"", 3, 5),
        ],
    );
    check("\"\"\\\\\"", &[("STRING", "\"\\", 0, 5)]);
    check(
        "\"\"${x}\"",
        &[
            ("DQPRE", "\"", 0, 4),
            ("VARIABLE", "x", 4, 5),
            ("DQPOST", "", 6, 7),
        ],
    );
    check_err(
        "\"$\"\"",
        "Unclosed quote after '\"' followed by '<eof>'",
        Some(4),
    );
    check_err(
        "\"$\"$\"",
        "Unclosed quote after '\"' followed by '<eof>'",
        Some(5),
    );
}

/// Puppet repeats its unicode-escape pass until nothing changes, then applies
/// the other escapes: `\u005c` (a backslash) escapes what follows it.
#[test]
fn unicode_escapes_are_repeated() {
    check("\"\\u005cn\"", &[("STRING", "\n", 0, 9)]);
    check("\"\\u005c\"", &[("STRING", "", 0, 8)]);
    check("\"\\u005cu0041\"", &[("STRING", "A", 0, 13)]);
    check(
        "\"\\u005c${x}\"",
        &[
            ("DQPRE", "", 0, 9),
            ("VARIABLE", "x", 9, 10),
            ("DQPOST", "", 11, 12),
        ],
    );
    check(
        "$x = @(\"E\"/u)\n\\u005c$y\nE\n",
        &[
            ("VARIABLE", "x", 0, 2),
            ("EQUALS", "=", 3, 4),
            ("HEREDOC", "", 5, 13),
            ("DQPRE", "\\", 14, 20),
            ("VARIABLE", "y", 20, 22),
            ("DQPOST", "\n", 22, 23),
        ],
    );
}

/// Ruby's `\b` treats non-ASCII letters as word characters: a number directly
/// followed by one is malformed.
#[test]
fn non_ascii_word_boundary_after_numbers() {
    check_err("1é", "Illegal number '1'", Some(1));
    check_err("0x1é", "Illegal number '0x1'", Some(1));
    check_err("1.5é", "Illegal number '1.5'", Some(1));
}

/// Text lines of a heredoc lose their margin; tokens inside `${}` keep their place
/// in the file. Puppet maps the text's start to the start of its first line,
/// margin included. Where a text token starts the heredoc, Puppet's *end* leaves
/// out the first line's margin (an artifact of its `SubLocator#to_global`);
/// pverify's span ends where the text ends (Puppet's end noted alongside).
#[test]
fn heredoc_margin_positions() {
    check(
        "$x = @(END)\n  a\n  b\n  | END\n",
        &[
            ("VARIABLE", "x", 0, 2),
            ("EQUALS", "=", 3, 4),
            ("HEREDOC", "", 5, 11),
            ("STRING", "a\nb\n", 12, 20), // Puppet: 12..18
        ],
    );
    check(
        "$x = @(END)\n  a\n  b\n  |- END\n",
        &[
            ("VARIABLE", "x", 0, 2),
            ("EQUALS", "=", 3, 4),
            ("HEREDOC", "", 5, 11),
            ("STRING", "a\nb", 12, 19), // Puppet: 12..17
        ],
    );
    // A line indented less than the margin keeps all of its text.
    check(
        "$x = @(END)\n  a\n b\n   c\n  | END\n",
        &[
            ("VARIABLE", "x", 0, 2),
            ("EQUALS", "=", 3, 4),
            ("HEREDOC", "", 5, 11),
            ("STRING", "a\n b\n c\n", 12, 24), // Puppet: 12..22
        ],
    );
    check(
        "$x = @(\"END\")\n    a ${y} b\n    c ${z[1]} d\n    |- END\n",
        &[
            ("VARIABLE", "x", 0, 2),
            ("EQUALS", "=", 3, 4),
            ("HEREDOC", "", 5, 13),
            ("DQPRE", "a ", 14, 22), // Puppet: 14..18
            ("VARIABLE", "y", 22, 23),
            ("DQMID", " b\nc ", 24, 35),
            ("VARIABLE", "z", 35, 36),
            ("LBRACK", "[", 36, 37),
            ("NUMBER", "1", 37, 38),
            ("RBRACK", "]", 38, 39),
            ("DQPOST", " d", 40, 42),
        ],
    );
    check(
        "$x = @(\"END\")\n\t\tx ${$y + 1}\n\t\t| END\n",
        &[
            ("VARIABLE", "x", 0, 2),
            ("EQUALS", "=", 3, 4),
            ("HEREDOC", "", 5, 13),
            ("DQPRE", "x ", 14, 20), // Puppet: 14..18
            ("VARIABLE", "y", 20, 22),
            ("PLUS", "+", 23, 24),
            ("NUMBER", "1", 25, 26),
            ("DQPOST", "\n", 27, 28),
        ],
    );
    check(
        "$x = @(\"END\")\n  x ${a}${b}\n  y\n  | END\n",
        &[
            ("VARIABLE", "x", 0, 2),
            ("EQUALS", "=", 3, 4),
            ("HEREDOC", "", 5, 13),
            ("DQPRE", "x ", 14, 20), // Puppet: 14..18
            ("VARIABLE", "a", 20, 21),
            ("DQMID", "", 22, 24),
            ("VARIABLE", "b", 24, 25),
            ("DQPOST", "\ny\n", 26, 31),
        ],
    );
    // Two heredocs on one line, the second one interpolating.
    check(
        "$a = [@(A), @(\"B\")]\n  a\n  |-A\n  x${y}z\n  |-B\n$y\n",
        &[
            ("VARIABLE", "a", 0, 2),
            ("EQUALS", "=", 3, 4),
            ("LISTSTART", "[", 5, 6),
            ("HEREDOC", "", 6, 10),
            ("STRING", "a", 20, 23), // Puppet: 20..21
            ("COMMA", ",", 10, 11),
            ("HEREDOC", "", 12, 18),
            ("DQPRE", "x", 30, 35), // Puppet: 30..33
            ("VARIABLE", "y", 35, 36),
            ("DQPOST", "z", 37, 38),
            ("RBRACK", "]", 18, 19),
            ("VARIABLE", "y", 45, 47),
        ],
    );
    check(
        "$x = @(\"END\")\n  éé ${y}\n  |END\n",
        &[
            ("VARIABLE", "x", 0, 2),
            ("EQUALS", "=", 3, 4),
            ("HEREDOC", "", 5, 13),
            ("DQPRE", "éé ", 14, 23), // Puppet: 14..21
            ("VARIABLE", "y", 23, 24),
            ("DQPOST", "\n", 25, 26),
        ],
    );
    // The main text continues after the end tag.
    check(
        "$x = @(\"END\")\n  a\n  |END\n [1]",
        &[
            ("VARIABLE", "x", 0, 2),
            ("EQUALS", "=", 3, 4),
            ("HEREDOC", "", 5, 13),
            ("STRING", "a\n", 14, 18), // Puppet: 14..16
            ("LISTSTART", "[", 26, 27),
            ("NUMBER", "1", 27, 28),
            ("RBRACK", "]", 28, 29),
        ],
    );
    // Unicode escapes are off unless asked for (`/u`).
    check(
        "$x = @(\"END\")\n  \\u{1F600}\\u00e9\n  |END\n",
        &[
            ("VARIABLE", "x", 0, 2),
            ("EQUALS", "=", 3, 4),
            ("HEREDOC", "", 5, 13),
            ("STRING", "\\u{1F600}\\u00e9\n", 14, 32), // Puppet: 14..30
        ],
    );
}

/// Puppet crashes (`NoMethodError` in its `SubLocator`) when a lexer error occurs
/// in a heredoc's text; pverify reports it where it is in the file.
#[test]
fn heredoc_text_errors_are_located_in_the_file() {
    let src = "$x = @(\"END\")\n  ${08}\n  |END\n";
    check_err(
        src,
        "Not a valid octal number 08",
        Some(src.find("08").unwrap()),
    );
    let src = "$x = @(\"END\")\n  a ${\"b}\n  |END\n";
    let err = lex(src).unwrap_err();
    assert!(
        err.message
            .starts_with("Unclosed quote after '\"' followed by 'b}"),
        "{err:?}"
    );
    assert_eq!(err.offset, Some(src.find("b}").unwrap()));
}

/// Puppet refuses byte order marks (before lexing; no position). It reads the first
/// four bytes padded with spaces, so a file that is nothing but a BOM is refused too.
#[test]
fn byte_order_marks() {
    let msg = |name: &str, bytes: &str| {
        format!(
            "Illegal {name} Byte Order mark at beginning of input: [{bytes}] - remove these from the puppet source"
        )
    };
    check_err("\u{feff}$x = 1\n", &msg("UTF-8", "EF BB BF"), None);
    check_err("\u{feff}", &msg("UTF-8", "EF BB BF"), None);
    // The others are not UTF-8: only `bom_error` sees them (the parser checks
    // them before decoding).
    let cases: &[(&[u8], &str, &str)] = &[
        (b"\xFE\xFF\x00$", "UTF-16", "FE FF"),
        (b"\xFF\xFE", "UTF-16", "FF FE"),
        (b"\xFF\xFE\x00\x00", "UTF-32", "FF FE 0 0"),
        (b"\x00\x00\xFE\xFF", "UTF-32", "0 0 FE FF"),
        (b"\x0E\xFE\xFFx", "SCSU", "E FE FF"),
        (b"\xF7\x64\x4C", "UTF-1", "F7 64 4C"),
        (b"\xDD\x73\x66\x73", "UTF-EBCDIC", "DD 73 66 73"),
        (b"\xFB\xEE\x28x", "BOCU", "FB EE 28"),
        (b"\x84\x31\x95\x33", "GB-18030", "84 31 95 33"),
    ];
    for (bytes, name, shown) in cases {
        let err = bom_error(bytes).unwrap_or_else(|| panic!("no BOM found in {bytes:?}"));
        assert_eq!((err.message, err.offset), (msg(name, shown), None));
    }
    assert!(bom_error(b"\xEF\xBB").is_none());
    assert!(bom_error(b"$x").is_none());
}

/// A character no token starts with is an OTHER token (the parser's error then
/// shows `''`). Puppet emits one per *byte* of a multi-byte character; pverify
/// emits one per character (the first one already fails the parse).
#[test]
fn other_tokens() {
    check(
        "$x = é",
        &[
            ("VARIABLE", "x", 0, 2),
            ("EQUALS", "=", 3, 4),
            ("OTHER", "", 5, 6),
        ],
    );
    check(
        "a & b",
        &[
            ("NAME", "a", 0, 1),
            ("OTHER", "", 2, 3),
            ("NAME", "b", 4, 5),
        ],
    );
    // Unicode blanks are whitespace, as in Puppet.
    check(
        "a\u{a0}\u{3000}b",
        &[("NAME", "a", 0, 1), ("NAME", "b", 6, 7)],
    );
}

/// Strings nest by recursion (a string in `${}` in a string..., or a heredoc in
/// `${}` in a heredoc...); deeper than `MAX_STRING_NESTING` is refused, not a
/// stack overflow. (pverify's own limit: Puppet has none.)
#[test]
fn string_nesting_limit() {
    let nested = |n: usize| format!("{}1{}", "\"${".repeat(n), "}\"".repeat(n));
    let toks = lex(&nested(MAX_STRING_NESTING)).expect("nesting at the limit lexes");
    assert_eq!(toks.len(), 2 * MAX_STRING_NESTING + 1);
    let deeper = MAX_STRING_NESTING + 1;
    check_err(
        &nested(deeper),
        "String interpolation is nested deeper than 100 levels",
        Some(3 * MAX_STRING_NESTING),
    );
    check_err(
        &"\"${".repeat(10_000),
        "String interpolation is nested deeper than 100 levels",
        Some(3 * MAX_STRING_NESTING),
    );

    // Heredocs whose text interpolates the next heredoc: the error is placed at the
    // start of the text of the heredoc one too deep.
    let heredocs = |n: usize| {
        let mut src = String::from("$x = ");
        for i in 0..n {
            src.push_str(&format!("@(\"E{i}\")\n${{"));
        }
        src.push('1');
        for i in (0..n).rev() {
            src.push_str(&format!("}}\nE{i}\n"));
        }
        src
    };
    assert!(lex(&heredocs(MAX_STRING_NESTING)).is_ok());
    let src = heredocs(deeper);
    let opener = format!("@(\"E{}\")\n", deeper - 1);
    let text_of_deepest = src.find(&opener).unwrap() + opener.len();
    check_err(
        &src,
        "String interpolation is nested deeper than 100 levels",
        Some(text_of_deepest),
    );
}
/// The end-tag pattern backtracks: a tag may itself start with `-` or `|`.
#[test]
fn heredoc_end_tag_edge_cases() {
    check(
        "$x = @(-END)\na\n-END\n",
        &[
            ("VARIABLE", "x", 0, 2),
            ("EQUALS", "=", 3, 4),
            ("HEREDOC", "", 5, 12),
            ("STRING", "a\n", 13, 15),
        ],
    );
    check(
        "$x = @(-END)\na\n--END\n",
        &[
            ("VARIABLE", "x", 0, 2),
            ("EQUALS", "=", 3, 4),
            ("HEREDOC", "", 5, 12),
            ("STRING", "a", 13, 14),
        ],
    );
    check(
        "$x = @(-END)\na\n|-END\n",
        &[
            ("VARIABLE", "x", 0, 2),
            ("EQUALS", "=", 3, 4),
            ("HEREDOC", "", 5, 12),
            ("STRING", "a\n", 13, 15),
        ],
    );
    check(
        "$x = @(|END)\na\n|END\n",
        &[
            ("VARIABLE", "x", 0, 2),
            ("EQUALS", "=", 3, 4),
            ("HEREDOC", "", 5, 12),
            ("STRING", "a\n", 13, 15),
        ],
    );
    check(
        "$x = @(END)\n  a\n  -|END\n",
        &[
            ("VARIABLE", "x", 0, 2),
            ("EQUALS", "=", 3, 4),
            ("HEREDOC", "", 5, 11),
            ("STRING", "  a\n", 12, 16),
        ],
    );
    check(
        "$x = @(END)\n  a\n  |- x END\n",
        &[
            ("VARIABLE", "x", 0, 2),
            ("EQUALS", "=", 3, 4),
            ("HEREDOC", "", 5, 11),
            ("STRING", "  a\n", 12, 16),
        ],
    );
    check(
        "$x = @(END)\n  a\n  | END x\n  END\n",
        &[
            ("VARIABLE", "x", 0, 2),
            ("EQUALS", "=", 3, 4),
            ("HEREDOC", "", 5, 11),
            ("STRING", "  a\n  | END x\n", 12, 26),
        ],
    );
    check(
        "$x = @(E-)\na\nE-\n",
        &[
            ("VARIABLE", "x", 0, 2),
            ("EQUALS", "=", 3, 4),
            ("HEREDOC", "", 5, 10),
            ("STRING", "a\n", 11, 13),
        ],
    );
    check(
        "$x = @(E-)\na\n-E-\n",
        &[
            ("VARIABLE", "x", 0, 2),
            ("EQUALS", "=", 3, 4),
            ("HEREDOC", "", 5, 10),
            ("STRING", "a", 11, 12),
        ],
    );
}

/// Long lines of blanks in heredocs and escapes that spell further escapes are
/// lexed in linear time (Puppet's regexes backtrack here).
#[test]
fn no_quadratic_time() {
    let blanks = " ".repeat(200_000);
    let src = format!("$x = @(END)\n{blanks}x\n{blanks}END{blanks}\n");
    let toks = lex(&src).unwrap();
    assert_eq!(toks[3].tok, Tok::Str(format!("{blanks}x\n")));

    // `\u005c` is a backslash, which makes the next `u005c` an escape, and so on;
    // Puppet repeats its unicode pass until nothing changes. Long chains stop
    // after `MAX_UNICODE_PASSES` passes.
    let src = format!("\"\\{}u0041\"", "u005c".repeat(200_000));
    let toks = lex(&src).unwrap();
    let Tok::Str(s) = &toks[0].tok else {
        panic!("{toks:?}")
    };
    assert!(
        s.starts_with("\\u005c") && s.ends_with("u0041"),
        "{}",
        &s[..20]
    );
    check("\"\\u005cu005cu0041\"", &[("STRING", "A", 0, 18)]);
}
