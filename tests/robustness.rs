//! `puppet_syntax::parse` never panics and never overflows the stack, whatever
//! the input: random bytes, every truncation and single-byte mutation of the valid
//! fixtures, absurdly deep nesting (on a 2 MiB thread stack, the default for test
//! threads), huge inputs, invalid UTF-8 and byte order marks. Each failure must be
//! a `SyntaxError` with a message, located unless Puppet gives no location.
//!
//! Deterministic: a fixed-seed xorshift generator, no extra dependencies. A stack
//! overflow aborts the whole test binary, so to find the culprit run the cases one
//! by one: `cargo test --test robustness -- --test-threads=1 NAME`.

mod common;

use std::fs;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use puppet_syntax::{parse, SyntaxError};

use puppet_compiler::fuzzing::Rng;

/// Shows an input in a failure message (shortened when long).
fn show(bytes: &[u8]) -> String {
    const MAX: usize = 400;
    let s = String::from_utf8_lossy(&bytes[..bytes.len().min(MAX)]).into_owned();
    if bytes.len() > MAX {
        format!("{s:?}... ({} bytes)", bytes.len())
    } else {
        format!("{s:?}")
    }
}

/// Parses, turning a panic into `Err(panic message)`.
fn parse_caught(bytes: &[u8]) -> Result<Result<(), SyntaxError>, String> {
    catch_unwind(AssertUnwindSafe(|| {
        parse("robustness.pp", bytes).map(|_| ())
    }))
    .map_err(|payload| {
        payload
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "non-string panic payload".to_string())
    })
}

/// `None` when `bytes` parse or fail cleanly; otherwise what went wrong.
fn problem(bytes: &[u8]) -> Option<String> {
    match parse_caught(bytes) {
        Err(panic) => Some(format!("panicked ({panic}) on {}", show(bytes))),
        Ok(Ok(())) => None,
        Ok(Err(e)) if e.message.is_empty() => Some(format!("empty message on {}", show(bytes))),
        Ok(Err(e))
            if e.logged
                .iter()
                .any(|l| l.line.is_none() || l.column.is_none()) =>
        {
            Some(format!(
                "a logged error without line/column on {}",
                show(bytes)
            ))
        }
        Ok(Err(e))
            if (e.line.is_none() || e.column.is_none()) && !common::unlocated_in_puppet(&e) =>
        {
            Some(format!(
                "no line/column for {:?} on {}",
                e.message,
                show(bytes)
            ))
        }
        Ok(Err(e)) if e.line == Some(0) || e.column == Some(0) => {
            Some(format!("0-based position in {e} on {}", show(bytes)))
        }
        Ok(Err(_)) => None,
    }
}

#[track_caller]
fn assert_no_problems(what: &str, problems: Vec<String>) {
    if !problems.is_empty() {
        let shown: Vec<&str> = problems.iter().take(20).map(String::as_str).collect();
        panic!(
            "{what}: {} problem(s), first {}:\n{}",
            problems.len(),
            shown.len(),
            shown.join("\n")
        );
    }
}

// ---------------------------------------------------------------------------
// (a) Random bytes.

/// Bytes weighted toward what Puppet code is made of.
#[rustfmt::skip]
const PUPPETISH: &[&[u8]] = &[
    b"{", b"}", b"[", b"]", b"(", b")", b"$", b"\"", b"'", b"@", b"|", b"<", b">", b"-", b"=",
    b":", b"/", b"\n", b" ", b" ", b"\t", b",", b";", b"?", b"!", b"~", b"*", b"%", b"+", b".",
    b"#", b"\\", b"a", b"e", b"x", b"Z", b"_", b"0", b"1", b"9", b"${", b"@(", b"::", b"=>",
    b"->", b"<|", b"|>", b"/*", b"*/", b"if ", b"case ", b"class ", b"define ", b"node ",
    b"true", b"undef", b"default", b"function ", b"type ", b"unless ", b"else ", b"in ",
    b"and ", b"Foo", b"String", b"\r\n", b"\xC3\xA9", b"0x", b"1.5e", b"|-", b"\"${", b"}\"",
];

fn random_input(rng: &mut Rng, max_len: usize) -> Vec<u8> {
    let len = rng.below(max_len);
    // One input in eight may hold any byte at all (and so is rarely UTF-8).
    let raw = rng.below(8) == 0;
    let mut out = Vec::with_capacity(len + 8);
    while out.len() < len {
        match rng.below(10) {
            // Mostly Puppet-ish pieces.
            0..=6 => out.extend_from_slice(rng.pick::<&[u8]>(PUPPETISH)),
            // Printable ASCII.
            7 | 8 => out.push(0x20 + rng.below(0x5F) as u8),
            _ if raw => out.push(rng.next_u64() as u8),
            _ => out.extend_from_slice(
                rng.pick(&["é", "\u{a0}", "\u{3000}", "😀", "\t"])
                    .as_bytes(),
            ),
        }
    }
    out.truncate(len);
    out
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = Rng::new(0x5EED_0001);
    let problems: Vec<String> = (0..2000)
        .filter_map(|_| problem(&random_input(&mut rng, 300)))
        .collect();
    assert_no_problems("random inputs", problems);
}

/// Whole tokens, so that random sequences get past the lexer into the grammar.
#[rustfmt::skip]
const TOKENS: &[&str] = &[
    "{", "}", "[", "]", "(", ")", "|", "|", ",", ",", ";", ":", "=>", "+>", "->", "~>", "<-",
    "<~", "=", "+=", "-=", "==", "!=", "=~", "!~", "<", ">", "<=", ">=", "<<", ">>", "+", "-",
    "*", "/", "%", "!", "?", ".", "@", "@@", "<|", "|>", "<<|", "|>>", "$x", "$y", "$::z",
    "$a::b", "x", "foo", "bar::baz", "notice", "include", "require", "contain", "file",
    "String", "Integer[1]", "Foo::Bar", "Resource", "1", "0x1F", "2.5", "'s'", "\"d\"",
    "\"a${x}b\"", "\"${y[1]}\"", "/re/", "true", "false", "undef", "default", "if", "elsif",
    "else", "unless", "case", "and", "or", "in", "class", "define", "node", "inherits",
    "function", "type", "attr", "private", "application", "site", "produces", "consumes", "\n",
    "@(E)\ntext\nE\n", "# c\n", "/* c */",
];

fn token_soup(rng: &mut Rng, max_tokens: usize) -> Vec<u8> {
    let n = rng.below(max_tokens);
    let mut out = String::new();
    for _ in 0..n {
        out.push_str(rng.pick::<&str>(TOKENS));
        out.push(' ');
    }
    out.into_bytes()
}

#[test]
fn random_token_sequences_never_panic() {
    let mut rng = Rng::new(0x5EED_0004);
    let problems: Vec<String> = (0..3000)
        .filter_map(|_| problem(&token_soup(&mut rng, 40)))
        .collect();
    assert_no_problems("random token sequences", problems);
}

// ---------------------------------------------------------------------------
// (b) Truncations and single-byte mutations of valid manifests.

/// Manifests Puppet accepts: the valid fixtures and a few of our own (checked
/// with `puppet parser validate`).
fn valid_manifests() -> Vec<(String, Vec<u8>)> {
    let dir: PathBuf = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/syntax-valid");
    let mut files: Vec<(String, Vec<u8>)> = fs::read_dir(&dir)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "pp"))
                .map(|p| {
                    let bytes = fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
                    (p.file_name().unwrap().to_string_lossy().into_owned(), bytes)
                })
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files.extend(
        INLINE_MANIFESTS
            .iter()
            .enumerate()
            .map(|(i, m)| (format!("inline-{i}.pp"), m.as_bytes().to_vec())),
    );
    assert!(
        files.len() >= 10,
        "too few valid manifests in {}",
        dir.display()
    );
    files
}

const INLINE_MANIFESTS: &[&str] = &[
    "class apache (String $version = 'latest', Array[String] $mods = []) inherits apache::params {\n  package { 'httpd': ensure => $version }\n  -> service { 'httpd': ensure => running, enable => true }\n}\n",
    "define site::vhost (Integer[1, 65535] $port = 80, Optional[String] $docroot = undef) {\n  file { \"/etc/httpd/conf.d/${title}.conf\":\n    ensure  => file,\n    content => @(\"EOT\"/L)\n      <VirtualHost *:${port}>\n        DocumentRoot ${docroot}\n      </VirtualHost>\n      | EOT\n  }\n}\n",
    "node /^web\\d+\\.example\\.com$/, 'db1' {\n  include role::web\n  $x = $facts['os']['family'] ? { 'RedHat' => 'yum', default => 'apt' }\n  case $x { 'yum', 'dnf': { notice(\"rpm ${x}\") } default: {} }\n}\n",
    "$list = [1, 2, 3].map |$i| { $i * 2 }.filter |$v| { $v > 2 }\nunless $list =~ Array[Integer] { fail('no') }\nif $list.length > 1 and !empty($list) { notice($list[0, 2]) } elsif $list == [] { } else { }\n",
    "function mymod::add(Integer $a, Integer $b = 1) >> Integer {\n  $a + $b << 1 - -$b % 3 / 2\n}\ntype MyType = Variant[Enum['a', 'b'], Pattern[/x+/], Hash[String, Integer]]\n",
    "User <| title == 'bob' and groups != 'x' |> { shell => '/bin/zsh' }\n@@host { $fqdn: ip => $ip, tag => ['a'] }\nHost <<| tag == 'a' |>>\nFile['/a'] ~> Service['b'] <- Package['c'] <~ Exec['d']\n",
    "$h = { 'a' => 1, 'b' => { 'c' => [true, false, undef, default] }, }\n$s = \"${h['b']['c'][0]} and $h and ${h.keys.join(',')} \\u{1F600}\"\n$r = 'single \\' quoted'\n/* block\n comment */ # line comment\n",
    "class a::b::c {\n  resources { 'x': purge => true }\n  Exec { path => '/bin' }\n  exec { 'x': command => 'true' }\n  $y = 0x1F + 017 + 1.5e3 + 2\n  [$a, $b] = [1, 2]\n}\n",
    "$x = @(END:json)\n  {\"a\": [1, 2]}\n  |-END\nnotice($x)\n$y = @(\"A\") + @(B)\n  ${x} one\n  | A\n  two\n  |- B\n",
    "plan_like($x) |$y| { with($y) |$z| { $z } }\n$v = $x ? { /(a)(b)/ => \"${1}${2}\", Integer[0] => 'n', default => 'd' }\nnotice(*$list)\n",
];

#[test]
fn valid_manifests_parse() {
    let failures: Vec<String> = valid_manifests()
        .into_iter()
        .filter_map(|(name, bytes)| match parse_caught(&bytes) {
            Ok(Ok(())) => None,
            other => Some(format!("{name}: {other:?}")),
        })
        .collect();
    assert!(failures.is_empty(), "{failures:#?}");
}

/// A spread of positions in `0..=len`: all of them for short inputs.
fn sample_positions(rng: &mut Rng, len: usize, n: usize) -> Vec<usize> {
    if len <= n {
        return (0..=len).collect();
    }
    let mut out: Vec<usize> = (0..n).map(|i| i * len / n).collect();
    out.extend((0..n / 2).map(|_| rng.below(len + 1)));
    out.push(len);
    out.sort_unstable();
    out.dedup();
    out
}

#[test]
fn truncated_valid_manifests_fail_cleanly() {
    let mut rng = Rng::new(0x5EED_0002);
    let mut problems = Vec::new();
    for (name, bytes) in valid_manifests() {
        for cut in sample_positions(&mut rng, bytes.len(), 40) {
            if let Some(p) = problem(&bytes[..cut]) {
                problems.push(format!("{name} cut at {cut}: {p}"));
            }
        }
    }
    assert_no_problems("truncations", problems);
}

#[test]
fn mutated_valid_manifests_fail_cleanly() {
    let mut rng = Rng::new(0x5EED_0003);
    let mut problems = Vec::new();
    for (name, bytes) in valid_manifests() {
        for _ in 0..200 {
            let mut m = bytes.clone();
            let at = rng.below(m.len() + 1);
            // A byte that is likely to matter, or any byte.
            let byte = if rng.below(3) == 0 {
                rng.next_u64() as u8
            } else {
                rng.pick(PUPPETISH)[0]
            };
            let what = match rng.below(3) {
                0 if at < m.len() => {
                    m[at] ^= 1 << rng.below(8);
                    "flip"
                }
                1 if at < m.len() => {
                    m.remove(at);
                    "delete"
                }
                _ => {
                    m.insert(at, byte);
                    "insert"
                }
            };
            if let Some(p) = problem(&m) {
                problems.push(format!("{name} {what} at {at}: {p}"));
            }
        }
    }
    assert_no_problems("mutations", problems);
}

// ---------------------------------------------------------------------------
// (c) Deep nesting and huge inputs, on a 2 MiB stack.

/// Parses `src` on a thread with a 2 MiB stack (the default for test threads, so
/// this proves no overflow there); a stack overflow would abort the test binary.
/// Returns `Ok(())`/the error, or panics with the panic's message.
fn parse_on_small_stack(name: &str, src: Vec<u8>) -> Result<(), SyntaxError> {
    let name = name.to_string();
    std::thread::Builder::new()
        .name(name.clone())
        .stack_size(2 * 1024 * 1024)
        .spawn(move || match parse_caught(&src) {
            Ok(r) => r,
            Err(panic) => panic!("{name}: parse panicked: {panic}"),
        })
        .expect("spawning the parser thread")
        .join()
        .unwrap_or_else(|_| panic!("parser thread panicked"))
}

/// A clean outcome: `Ok`, or an error with a message and (Puppet permitting) a place.
#[track_caller]
fn assert_clean(name: &str, result: Result<(), SyntaxError>) {
    eprintln!("{name}: {result:?}");
    if let Err(e) = result {
        assert!(!e.message.is_empty(), "{name}: empty error message");
        assert!(
            (e.line.is_some() && e.column.is_some()) || common::unlocated_in_puppet(&e),
            "{name}: error without a position: {e:?}"
        );
    }
}

fn repeat(piece: &str, n: usize) -> String {
    piece.repeat(n)
}

#[test]
fn deep_list_starts() {
    let src = repeat("[", 100_000);
    assert_clean(
        "[ x 100000",
        parse_on_small_stack("brackets", src.into_bytes()),
    );
}

#[test]
fn deep_access_brackets() {
    let src = format!("$x{}", repeat("[1", 100_000));
    assert_clean(
        "$x[1[1... x 100000",
        parse_on_small_stack("access", src.into_bytes()),
    );
}

#[test]
fn deep_closed_lists() {
    let src = format!("$x = {}1{}", repeat("[", 100_000), repeat("]", 100_000));
    assert_clean(
        "[[..1..]] x 100000",
        parse_on_small_stack("lists", src.into_bytes()),
    );
}

#[test]
fn deep_parens() {
    let src = repeat("(", 100_000);
    assert_clean(
        "( x 100000",
        parse_on_small_stack("parens", src.into_bytes()),
    );
    let src = format!("$x = {}1{}", repeat("(", 100_000), repeat(")", 100_000));
    assert_clean(
        "((..1..)) x 100000",
        parse_on_small_stack("parens", src.into_bytes()),
    );
}

#[test]
fn deep_calls() {
    let src = format!("{}1{}", repeat("f(", 50_000), repeat(")", 50_000));
    assert_clean(
        "f(f(..1..)) x 50000",
        parse_on_small_stack("calls", src.into_bytes()),
    );
}

#[test]
fn deep_hashes() {
    let src = format!("$x = {}1{}", repeat("{a => ", 50_000), repeat("}", 50_000));
    assert_clean(
        "{a => {..}} x 50000",
        parse_on_small_stack("hashes", src.into_bytes()),
    );
}

#[test]
fn deep_if_blocks() {
    let src = format!("{}{}", repeat("if true {\n", 10_000), repeat("}\n", 10_000));
    assert_clean(
        "if true { x 10000",
        parse_on_small_stack("if", src.into_bytes()),
    );
    let src = repeat("if true {", 10_000);
    assert_clean(
        "unclosed if true { x 10000",
        parse_on_small_stack("if", src.into_bytes()),
    );
}

#[test]
fn deep_lambdas() {
    let src = format!(
        "{}{}",
        repeat("each($x) |$y| {", 10_000),
        repeat("}", 10_000)
    );
    assert_clean(
        "lambdas x 10000",
        parse_on_small_stack("lambdas", src.into_bytes()),
    );
}

#[test]
fn deep_interpolation() {
    // "${"${"${ ... }"}"}" — each level is a string inside an interpolation. The
    // lexer takes 100 levels (MAX_STRING_NESTING) and refuses more.
    let src = format!("$x = {}1{}", repeat("\"${", 100), repeat("}\"", 100));
    let result = parse_on_small_stack("interp", src.into_bytes());
    assert!(result.is_ok(), "strings nested 100 deep: {result:?}");
    let src = format!("$x = {}1{}", repeat("\"${", 5_000), repeat("}\"", 5_000));
    assert_clean(
        "\"${ x 5000 (closed)",
        parse_on_small_stack("interp", src.into_bytes()),
    );
    let src = repeat("\"${", 5_000);
    assert_clean(
        "\"${ x 5000",
        parse_on_small_stack("interp", src.into_bytes()),
    );
}

#[test]
fn deep_heredocs_in_interpolation() {
    // Each heredoc's text interpolates the next heredoc.
    let nested = |n: usize| {
        let mut src = String::from("$x = ");
        for i in 0..n {
            src.push_str(&format!("@(\"E{i}\")\n${{"));
        }
        src.push('1');
        for i in (0..n).rev() {
            src.push_str(&format!("}}\nE{i}\n"));
        }
        src.into_bytes()
    };
    let result = parse_on_small_stack("heredocs", nested(100));
    assert!(result.is_ok(), "heredocs nested 100 deep: {result:?}");
    assert_clean(
        "nested heredocs x 2000",
        parse_on_small_stack("heredocs", nested(2_000)),
    );
}

#[test]
fn long_prefix_chains() {
    let src = format!("$x = {}1", repeat("- ", 50_000));
    assert_clean(
        "- - - 1 x 50000",
        parse_on_small_stack("minus", src.into_bytes()),
    );
    let src = format!("$x = {}true", repeat("!", 50_000));
    assert_clean(
        "!!!true x 50000",
        parse_on_small_stack("not", src.into_bytes()),
    );
    let src = format!("$x = {}$y", repeat("*", 50_000));
    assert_clean(
        "***$y x 50000",
        parse_on_small_stack("splat", src.into_bytes()),
    );
    let src = format!("{}file {{ 'x': }}", repeat("@", 50_000));
    assert_clean(
        "@@@file x 50000",
        parse_on_small_stack("at", src.into_bytes()),
    );
}

#[test]
fn long_operator_chains() {
    // Left-associative chains are deep trees too.
    let src = format!("$x = 1{}", repeat(" + 1", 20_000));
    assert_clean(
        "1 + 1 ... x 20000",
        parse_on_small_stack("plus", src.into_bytes()),
    );
    let src = format!("$x = 1{}", repeat(" ** 1", 20_000));
    assert_clean(
        "1 ** 1 ... x 20000",
        parse_on_small_stack("pow", src.into_bytes()),
    );
    let src = format!("$x{}", repeat(".f", 20_000));
    assert_clean(
        "$x.f.f... x 20000",
        parse_on_small_stack("methods", src.into_bytes()),
    );
    let src = format!("$x{}", repeat("[1]", 20_000));
    assert_clean(
        "$x[1][1]... x 20000",
        parse_on_small_stack("index", src.into_bytes()),
    );
    let src = format!("{}$x", repeat("$a = ", 20_000));
    assert_clean(
        "$a = $a = ... x 20000",
        parse_on_small_stack("assign", src.into_bytes()),
    );
    let src = format!("notify{{'a':}}{}", repeat(" -> notify{'a':}", 20_000));
    assert_clean(
        "-> chain x 20000",
        parse_on_small_stack("arrows", src.into_bytes()),
    );
}

#[test]
fn huge_string_literal() {
    let mut src = String::with_capacity(10 * 1024 * 1024 + 16);
    src.push_str("$x = \"");
    src.push_str(&"a".repeat(10 * 1024 * 1024));
    src.push_str("\"\n");
    assert_clean(
        "10 MB string",
        parse_on_small_stack("string", src.into_bytes()),
    );
}

#[test]
fn many_statements() {
    let src = repeat("$x = 1\n", 100_000);
    let result = parse_on_small_stack("statements", src.into_bytes());
    assert!(result.is_ok(), "100000 assignments: {result:?}");
}

// ---------------------------------------------------------------------------
// (d) Invalid UTF-8 and byte order marks.

#[test]
fn invalid_utf8_is_located() {
    let cases: &[(&[u8], u32, u32)] = &[
        (b"\xFF", 1, 1),
        (b"$x = 1\n$y = \"a\xFF\"\n", 2, 8),
        (b"$x = '\xC3'", 1, 7),                // truncated sequence
        (b"$x = '\xC3\xA9\xC3'", 1, 8),        // after a valid one
        (b"# \xC0\xAF\n", 1, 3),               // overlong encoding
        (b"$x = 1\n\n  \xED\xA0\x80", 3, 3),   // encoded surrogate
        (b"notice('\xF4\x90\x80\x80')", 1, 9), // beyond U+10FFFF
        (b"$a = @(E)\n  \xFE\n  |E\n", 2, 3),  // in a heredoc
    ];
    for (bytes, line, column) in cases {
        let err = match parse_caught(bytes) {
            Ok(Err(e)) => e,
            other => panic!("{}: expected an error, got {other:?}", show(bytes)),
        };
        assert_eq!(
            (err.message.as_str(), err.line, err.column),
            ("invalid byte sequence in UTF-8", Some(*line), Some(*column)),
            "{}",
            show(bytes)
        );
    }
}

#[test]
fn byte_order_marks_are_refused() {
    // Puppet: "Illegal UTF-8 Byte Order mark ... [EF BB BF] ...", without a position.
    for bytes in [&b"\xEF\xBB\xBF$x = 1\n"[..], b"\xEF\xBB\xBF"] {
        let err = parse_caught(bytes)
            .unwrap_or_else(|p| panic!("panicked: {p}"))
            .expect_err("a BOM is refused");
        assert_eq!(
            err.message,
            "Illegal UTF-8 Byte Order mark at beginning of input: [EF BB BF] - remove these from the puppet source"
        );
        assert_eq!((err.line, err.column), (None, None));
    }
    // UTF-16 and UTF-32 marks are not UTF-8. Puppet names the mark ("Illegal
    // UTF-16 Byte Order mark ... [FF FE] ..."); a clean error is required here.
    for bytes in [
        &b"\xFF\xFE$\x00x\x00"[..],
        b"\xFE\xFF\x00$\x00x",
        b"\xFF\xFE\x00\x00$\x00\x00\x00",
    ] {
        let err = parse_caught(bytes)
            .unwrap_or_else(|p| panic!("panicked: {p}"))
            .expect_err("a BOM is refused");
        let named = err.message.contains("Byte Order mark") && err.line.is_none();
        let located = err.message == "invalid byte sequence in UTF-8"
            && (err.line, err.column) == (Some(1), Some(1));
        assert!(named || located, "{}: {err:?}", show(bytes));
    }
}
