//! pverify's Psych emitter (`puppet_model::psych`) against Ruby's own
//! `to_yaml` (Psych 4.0 over libyaml 0.2.5): a table of tricky strings, each
//! dumped alone, in a sequence, as a mapping key and value, plus nested
//! structures and the emitter options, compared byte for byte.
//! Needs `ruby` (CI installs it with Puppet); without it nothing is compared.
//! Puppet 8's Ruby 3.3 (Psych 5.1, in the Debian 13 root) dumps every case
//! as Ruby 3.1's Psych 4.0 does but for [`PSYCH5_DATES`], so one emitter
//! serves both Puppets: `psych5_dumps_as_psych4_does` holds it to that.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};

use puppet_model::psych::{dump, string_scalar, Node, Options};

/// Strings whose YAML form is decided by some rule of Psych or libyaml.
const STRINGS: &[&str] = &[
    "",
    " ",
    "x",
    "y",
    "n",
    "Y",
    "N",
    "yes",
    "No",
    "TRUE",
    "on",
    "off",
    "Off",
    "true",
    "false",
    "null",
    "Null",
    "NULL",
    "~",
    "nil",
    "1",
    "-1",
    "+1",
    "1.0",
    "1e3",
    "1.0e+3",
    "1_000",
    "1,000",
    "0x1F",
    "0b101",
    "0o17",
    "017",
    "08",
    "0888",
    "09.5",
    "1:20",
    "1:20:30",
    "1:20.5",
    ".inf",
    "-.inf",
    ".NaN",
    ".",
    "+.",
    "-.",
    ":sym",
    ":",
    "::",
    "a:",
    "a: b",
    "a:b",
    "a :b",
    "- a",
    "-a",
    "-",
    "--",
    "---",
    "--- x",
    "...",
    "....",
    "? a",
    "?a",
    "#a",
    "a #b",
    "a#b",
    "a # b",
    "[a]",
    "a[b]",
    "{a}",
    "a,b",
    "a, b",
    "&a",
    "*a",
    "!a",
    "|a",
    ">a",
    "'a'",
    "\"a\"",
    "%a",
    "@a",
    "`a`",
    "a'b",
    "a\"b",
    " a",
    "a ",
    "a  b",
    "a\tb",
    "\t",
    "a\n",
    "a\n\n",
    "\n",
    "\n\n",
    "a\nb",
    "a\nb\n",
    "a\n\nb",
    "a\nb\n\n",
    "\na",
    " a\nb",
    "a \nb",
    "a\n b",
    "true\n",
    "1\n",
    "a\r\nb",
    "a\rb",
    "é",
    "日本語",
    "naïve café",
    "😀",
    "a😀b",
    "\u{7f}",
    "\u{85}",
    "\u{a0}",
    "\u{2028}",
    "a\u{2028}b",
    "\u{feff}x",
    "\u{1}",
    "\u{1b}",
    "\0",
    "\\",
    "a\\b",
    "<<",
    "<",
    "=",
    "2001-01-01",
    "2001-02-30",
    "2000-02-29",
    "1900-02-29",
    "1500-02-29",
    "1582-10-10",
    "2001-13-01",
    "2001-1-1",
    "2001-01-01 10:00:00",
    "2001-01-01T10:00:00Z",
    "2001-13-01 10:00:00",
    "2001-01-01 25:00:00",
    "2001-01-01 10:00:00 +01:00",
    "12:30:45.5",
    "1.2.3",
    "1.2.3.4",
    "10.0.0.1",
    "::1",
    "fe80::1",
    "http://x.com/a?b#c",
    "/etc/passwd",
    "C:\\x",
    "$x",
    "%{x}",
    "${x}",
    "a=b",
    "a;b",
    "(a)",
    "a b c",
    "0",
    "00",
    "-0",
    "0.0",
    "1.",
    ".5",
    "+.5",
    "1e",
    "1E+2",
    "1.5E-3",
    "123abc",
    "abc123",
    "_a",
    "_",
    "__",
    "@",
    "a@b",
    "a!",
    "a?",
    "a-b",
    "a.b",
    "a/b",
    "yes!",
    "ye",
    "tru",
    "o",
    "on!",
    "nul",
    "~a",
    "a~",
    "1 2",
    "-1.5",
    "+1.5",
    "1_2.5",
    "0_8",
    "1,2",
];

/// A long text for the 80-column folding rules.
fn long(words: usize, word: &str) -> String {
    vec![word; words].join(" ")
}

fn str_node(s: &str) -> Node {
    Node::Scalar(string_scalar(s, None))
}

fn json_node(v: &serde_json::Value, fold: Option<usize>) -> Node {
    use serde_json::Value as J;
    match v {
        J::Null => Node::null(),
        J::Bool(b) => Node::bool(*b),
        J::Number(n) => match (n.as_i64(), n.as_f64()) {
            (Some(i), _) if !n.is_f64() => Node::int(i),
            (_, Some(f)) => Node::float(f),
            _ => Node::int(n),
        },
        J::String(s) => Node::Scalar(string_scalar(s, fold)),
        J::Array(a) => Node::seq(a.iter().map(|x| json_node(x, fold)).collect()),
        J::Object(o) => Node::map(
            o.iter()
                .map(|(k, x)| (Node::Scalar(string_scalar(k, fold)), json_node(x, fold)))
                .collect(),
        ),
    }
}

/// The cases: a JSON value and the `to_yaml` options (as JSON).
fn cases() -> Vec<(serde_json::Value, serde_json::Value)> {
    use serde_json::json;
    let mut out = Vec::new();
    let none = json!({});
    for s in STRINGS {
        out.push((json!(s), none.clone()));
        out.push((json!([s, [s], {"k": s}]), none.clone()));
        out.push((json!({ *s: s }), none.clone()));
        out.push((json!({ "a": { *s: [s] } }), none.clone()));
    }
    let l = long(30, "word");
    let ll = "x".repeat(130);
    let mixed = format!(
        "{} {}  {} {}",
        long(15, "ab"),
        "c".repeat(70),
        long(20, "d"),
        "e"
    );
    for s in [
        &l,
        &ll,
        &mixed,
        &format!("{l}\n{l}"),
        &format!("'{l}'"),
        &format!("{l}:"),
        &format!("\t{l}"),
        &format!("{l} \n"),
    ] {
        out.push((json!(s), none.clone()));
        out.push((json!({"key": s, "list": [s, {"k": [s]}]}), none.clone()));
        out.push((json!({ s.as_str(): 1 }), none.clone()));
        out.push((json!(s), json!({"line_width": 40})));
        out.push((json!({"k": s}), json!({"line_width": -1})));
        out.push((json!([s]), json!({"line_width": 200})));
    }
    let nested = json!({
        "a": 1, "b": [1, 2.5, true, false, null, "x"], "c": {}, "d": [], "e": [[], {}],
        "f": [[1, [2, 3]], {"g": {"h": [4]}}], "i": {"j": null, "k": [null, {}]},
        "1.5": -0.0, "l": [[[["deep"]]]], "m": 1e20, "n": 1.0e-5, "o": 123456789.123,
    });
    out.push((nested.clone(), none.clone()));
    out.push((json!([nested.clone(), [nested.clone()]]), none.clone()));
    for opts in [
        json!({"indentation": 4}),
        json!({"indentation": 1}),
        json!({"indentation": 9}),
        json!({"indentation": 10}),
        json!({"line_width": 10}),
        json!({"line_width": 0}),
        json!({"header": true}),
        json!({"canonical": true}),
    ] {
        out.push((nested.clone(), opts.clone()));
        out.push((json!(["a b c d e f g h", "x\ny", "", "1"]), opts.clone()));
    }
    // Random texts over the characters the rules turn on (a fixed LCG, so
    // every run compares the same cases).
    let alphabet: Vec<&str> = vec![
        " ", " ", "a", "b", "1", "0", ":", "-", "#", "\n", "'", "\"", "\t", "é", "y", ".", "x",
        "e", "+", "_", ",", "[", "!", "&", "~", "\r", "😀", "\u{85}", "\u{2028}", "?", "word ",
    ];
    let mut seed: u64 = 0x2545F4914F6CDD1D;
    let mut next = |n: usize| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((seed >> 33) as usize) % n
    };
    for round in 0..600 {
        let len = if round % 10 == 0 {
            20 + next(60)
        } else {
            next(10)
        };
        let text: String = (0..len).map(|_| alphabet[next(alphabet.len())]).collect();
        out.push((
            json!([text, {"k": text}, { text.as_str(): [text] }]),
            none.clone(),
        ));
    }
    for v in [
        json!(null),
        json!(1),
        json!(-7),
        json!(1.5),
        json!(true),
        json!([]),
        json!({}),
        json!([null]),
        json!({"a": null}),
        json!([[]]),
        json!([{}]),
        json!({"": ""}),
    ] {
        out.push((v, none.clone()));
    }
    out
}

fn ours(v: &serde_json::Value, o: &serde_json::Value) -> String {
    let mut opts = Options::default();
    if let Some(w) = o.get("line_width").and_then(|w| w.as_i64()) {
        opts.set_line_width(w).expect("line_width");
    }
    if let Some(i) = o.get("indentation").and_then(|w| w.as_i64()) {
        opts.indentation = i;
    }
    opts.canonical = o.get("canonical").is_some();
    if o.get("header").is_some() {
        opts.version = Some((1, 1));
    }
    match dump(&json_node(v, opts.fold_width), &opts) {
        Ok(s) => s,
        Err(e) => format!("error: {e}"),
    }
}

fn ruby(cases: &[(serde_json::Value, serde_json::Value)]) -> Option<Vec<String>> {
    ruby_dumps(Command::new("ruby"), cases)
}

/// Each case's `to_yaml` by the Ruby `command` runs.
fn ruby_dumps(
    mut command: Command,
    cases: &[(serde_json::Value, serde_json::Value)],
) -> Option<Vec<String>> {
    let script = r#"
require 'yaml'
require 'json'
JSON.parse($stdin.read).each do |v, o|
  o = o.transform_keys(&:to_sym)
  puts JSON.generate([v.to_yaml(o)])
end
"#;
    let mut child = command
        .arg("-e")
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .ok()?;
    let input = serde_json::to_string(cases).expect("json");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write to ruby");
    let out = child.wait_with_output().expect("ruby runs");
    assert!(out.status.success(), "the Ruby side failed");
    Some(
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|l| {
                let a: Vec<String> = serde_json::from_str(l).expect("ruby's JSON");
                a.into_iter().next().unwrap_or_default()
            })
            .collect(),
    )
}

#[test]
fn psych_dumps_as_ruby_does() {
    let cases = cases();
    let Some(want) = ruby(&cases) else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must have Ruby installed"
        );
        eprintln!("psych_dump: ruby not available, not compared");
        return;
    };
    assert_all_agree(&cases, &want, &[]);
    eprintln!("psych_dump: {} cases agree with Ruby", cases.len());
}

/// Date-like strings Psych 5 quotes differently: it checks them with
/// `Date.strptime(s, '%F', Date::GREGORIAN)` (Psych 4 with Ruby's default
/// `Date::ITALY`), so a Julian-only date (1500-02-29) is no date, and a day
/// the 1582 reform dropped (1582-10-10) is one. pverify writes Psych 4's
/// choice for both Puppets (not built: only dates before 1583 differ).
const PSYCH5_DATES: [&str; 2] = ["1500-02-29", "1582-10-10"];

/// Ruby 3.3's Psych 5 (Puppet 8's), in the Debian 13 root that CI builds
/// before the tests (there its absence fails the test; elsewhere the test
/// says it did not run).
#[test]
fn psych5_dumps_as_psych4_does() {
    let Some(reference) = common::puppet8_reference("psych_dump") else {
        return;
    };
    let cases = cases();
    let want = ruby_dumps(reference.command("ruby", &[]), &cases).expect("Ruby 3.3 runs");
    assert_all_agree(&cases, &want, &PSYCH5_DATES);
}

/// Fails listing every case whose dump differs from Ruby's (`want`, in the
/// cases' order); cases whose value mentions one of `skip` are left out.
fn assert_all_agree(
    cases: &[(serde_json::Value, serde_json::Value)],
    want: &[String],
    skip: &[&str],
) {
    assert_eq!(want.len(), cases.len());
    let diffs: Vec<String> = cases
        .iter()
        .zip(want)
        .filter(|((v, _), _)| !skip.iter().any(|d| v.to_string().contains(d)))
        .filter_map(|((v, o), w)| {
            let got = ours(v, o);
            (got != *w).then(|| format!("{v} {o}\n  ruby:    {w:?}\n  pverify: {got:?}"))
        })
        .collect();
    assert!(
        diffs.is_empty(),
        "{} of {} differ:\n{}",
        diffs.len(),
        cases.len(),
        diffs.join("\n")
    );
}

#[test]
fn strings_alone() {
    // Every string alone, without Ruby: no panic, one document.
    for s in STRINGS {
        let out = dump(&str_node(s), &Options::default()).expect("dumps");
        assert!(out.starts_with("---"), "{out:?}");
    }
}

/// Without Ruby: random texts (any characters, any option) never panic the
/// emitter, and what it writes reads back as the same text with pverify's
/// own YAML reader (Psych's output always round-trips).
#[test]
fn random_texts_round_trip() {
    let mut rng = puppet_compiler::fuzzing::Rng::new(7);
    let pieces = [
        " ", "a", "1", ":", "-", "#", "\n", "'", "\"", "\t", "é", "y", ".", "e", "+", "_", ",",
        "[", "]", "{", "}", "!", "&", "*", "|", ">", "%", "@", "`", "~", "\r", "😀", "\u{85}",
        "\u{feff}", "\0", "\u{7f}", "?", "word ", "null", "true", "---", "...", "<<", "\\",
    ];
    // Not U+2028/2029: libyaml writes them raw as line breaks, which Psych
    // reads back but pverify's reader (`hiera::yaml`) does not yet.
    let mut failures = Vec::new();
    for i in 0..3000 {
        let len = if i % 20 == 0 {
            40 + rng.below(120)
        } else {
            rng.below(12)
        };
        let text: String = (0..len).map(|_| *rng.pick(&pieces)).collect();
        let mut opts = Options::default();
        match i % 5 {
            1 => opts.indentation = rng.below(12) as i64,
            2 => {
                let _ = opts.set_line_width(rng.below(100) as i64 - 1);
            }
            3 => opts.canonical = true,
            _ => {}
        }
        let doc = Node::map(vec![(str_node("k"), Node::seq(vec![str_node(&text)]))]);
        let Ok(out) = dump(&doc, &opts) else {
            failures.push(format!("{text:?}: no output"));
            continue;
        };
        let back = puppet_model::yaml::load(&out);
        let got = match &back {
            Ok(puppet_compiler::eval::Value::Hash(h)) => h
                .iter()
                .next()
                .and_then(|(_, v)| match v {
                    puppet_compiler::eval::Value::Array(a) => a.first().cloned(),
                    _ => None,
                })
                .and_then(|v| v.as_str().map(String::from)),
            _ => None,
        };
        if got.as_deref() != Some(text.as_str()) {
            failures.push(format!(
                "{text:?} {opts:?}\n  yaml: {out:?}\n  read: {back:?}"
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} texts do not round-trip:\n{}",
        failures.len(),
        failures[..failures.len().min(15)].join("\n")
    );
}
