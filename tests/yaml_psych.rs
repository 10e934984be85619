//! pverify's YAML scalar resolution against Ruby's Psych (what Puppet uses):
//! every plain scalar below is loaded by `ruby -ryaml` (`safe_load` with
//! Symbol permitted, as Puppet's `yaml_data` does) and by
//! `puppet_model::yaml`, and the results must agree.

use std::process::Command;

use puppet_compiler::eval::Value;

const SCALARS: &[&str] = &[
    "yes",
    "no",
    "on",
    "off",
    "y",
    "n",
    "Yes",
    "NO",
    "True",
    "TRUE",
    "tRue",
    "false",
    "Off",
    "~",
    "null",
    "Null",
    "NULL",
    "0755",
    "0x1F",
    "0x_1f",
    "1_000",
    "1e3",
    "1.0e3",
    "1.0e+3",
    "1.5",
    ".5",
    "+1",
    "-0",
    "0o17",
    "0b101",
    "1:30",
    "190:20:30",
    "-1:30",
    "1_0.5",
    "08",
    "09.5",
    "12e",
    "0.1e3",
    "1.",
    "1e-3",
    "-1_000",
    "0_7",
    "1,000",
    "0.",
    "+.5",
    ".inf",
    "-.inf",
    "+.inf",
    ".NaN",
    ":sym",
    ":\"quoted sym\"",
    "hello",
    "hello world",
    "truely",
    "yes!",
    "0x",
    ".",
    "+",
    "1.2.3",
    "1_",
    "_1",
    "12:61",
    "0b",
    "00",
    "007",
    "-07",
    "3.14abc",
    "1e",
    "onoff",
    "NaN",
    "Infinity",
    "true_",
    "~x",
    "0b1_0",
    "+0x1F",
    "-0b11",
    "1__0",
    "0x1F_",
    "12_345.6_7",
    "1.5e+3",
    "1.5E-3",
    "-.5",
    "1:2",
    "1:2:3:4",
    "Y",
    "N",
    "oN",
    "nULL",
    "~~",
    "0.0",
    "-0.0",
    "00.5",
    "1,2,3",
    "0o",
    "1_000.5e+2",
    "&a x",
    "!!str 12",
    "!!int 12",
    "12:30:45.5",
];

/// Psych's result as text: `s:` string, `i:` integer, `f:` float, `b:`,
/// `nil`, `sym:` symbol.
fn psych_results() -> Option<Vec<String>> {
    let script = r#"
require 'yaml'
require 'json'
items = JSON.parse($stdin.read)
items.each do |text|
  v = Psych.safe_load("- " + text + "\n", permitted_classes: [Symbol])[0]
  out = case v
        when nil then 'nil'
        when true, false then "b:#{v}"
        when Integer then "i:#{v}"
        when Float then v.nan? ? 'f:nan' : "f:#{v}"
        when Symbol then "sym:#{v}"
        else "s:#{v}"
        end
  puts out
end
"#;
    run_ruby(script, SCALARS)
}

/// Runs a Ruby script that reads a JSON array of texts on stdin and prints
/// one line per text; `None` when Ruby is not installed.
fn run_ruby(script: &str, items: &[&str]) -> Option<Vec<String>> {
    let mut child = Command::new("ruby")
        .arg("-e")
        .arg(script)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .ok()?; // Ruby is not installed
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().expect("stdin");
        stdin
            .write_all(serde_json::to_string(items).expect("json").as_bytes())
            .expect("write to ruby");
    }
    let out = child.wait_with_output().expect("ruby runs");
    assert!(out.status.success(), "the Ruby side failed");
    Some(
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(String::from)
            .collect(),
    )
}

fn ours(text: &str) -> String {
    let doc = format!("- {text}\n");
    match puppet_model::yaml::load_hiera(&doc) {
        Ok(Value::Array(ref a)) => match &a[0] {
            Value::Undef => "nil".into(),
            Value::Boolean(b) => format!("b:{b}"),
            Value::Integer(i) => format!("i:{i}"),
            Value::Float(f) if f.is_nan() => "f:nan".into(),
            Value::Float(f) if f.is_infinite() => {
                format!("f:{}Infinity", if *f < 0.0 { "-" } else { "" })
            }
            Value::Float(f) => format!("f:{}", ruby_float(*f)),
            Value::String(s) => match s.strip_prefix(puppet_model::yaml::SYMBOL_MARK) {
                Some(name) => format!("sym:{name}"),
                None => format!("s:{s}"),
            },
            other => format!("?{other:?}"),
        },
        other => format!("?{other:?}"),
    }
}

/// Ruby's `Float#to_s` for the plain values used here.
fn ruby_float(f: f64) -> String {
    if f == f.trunc() && f.abs() < 1e16 {
        format!("{f:.1}")
    } else {
        format!("{f}")
    }
}

#[test]
fn plain_scalars_resolve_as_psych_does() {
    let Some(want) = psych_results() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must have Ruby (with Psych) installed"
        );
        eprintln!("yaml_psych: ruby not available, not compared");
        return;
    };
    assert_eq!(want.len(), SCALARS.len(), "one Ruby result per scalar");
    let diffs: Vec<String> = SCALARS
        .iter()
        .zip(&want)
        .filter_map(|(text, w)| {
            let got = ours(text);
            (got != *w).then(|| format!("{text:?}: psych {w}, pverify {got}"))
        })
        .collect();
    assert!(diffs.is_empty(), "{}", diffs.join("\n"));
}

/// Malformed documents: Psych's syntax error (libyaml's problem, context
/// and context mark) is what Puppet prints after `Unable to parse (FILE): `.
const MALFORMED: &[&str] = &[
    "k: [a, b\n",
    "---\nk: [a, b\n",
    "k: {a: 1, b: 2\nother: 3\n",
    "k: a: b\n",
    "k:\n    a: 1\n  b: 2\n",
    "k: \"abc\nother: 1\n",
    "k:\n  a: 'abc\n  b: 1\n",
    "k: 1\nfoo\nbar: 2\n",
    "k: `x`\n",
    "k:\n  - a\n  b\n",
    "k:\n\t- a\n",
    "other: 1\nk:\n  - name: a\n    value: 1\n      extra: 2\n",
    "k:\n  inner:\n    list: [1, 2\n    more: 3\n",
    "name: bad\nvalues:\n  a: [1,\n  b: }\n",
    "k: [1,\n  b: }\n",
    "version: 5\nhierarchy:\n  - name: c\n   bad: [\n",
    "k: [a, [b, c]\n",
    "k: [a, b}\n",
    "k: {a: 1]\n",
    "k: [a,, b]\n",
    "k: {a: [1, 2}\n",
    "k: ['a, b]\n",
    "- a\n- b\nc: 1\n",
    "a:\n  - 1\n - 2\n",
    "a: 1\n a: 2\n",
    "a: @x\n",
    "a: %x\n",
    "a: b\n- c\n",
    "a: [1, 2]]\n",
    "a: &x 1\nb: *y\n",
];

fn psych_errors() -> Option<Vec<String>> {
    let script = r#"
require 'yaml'
require 'json'
JSON.parse($stdin.read).each do |text|
  begin
    Psych.safe_load(text, permitted_classes: [Symbol], aliases: true, filename: 'f')
    puts 'ok'
  rescue Psych::SyntaxError => e
    puts e.message.sub('(f): ', '')
  rescue => e
    puts e.message
  end
end
"#;
    run_ruby(script, MALFORMED)
}

#[test]
fn syntax_errors_read_as_psych_reports_them() {
    let Some(want) = psych_errors() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must have Ruby (with Psych) installed"
        );
        eprintln!("yaml_psych: ruby not available, not compared");
        return;
    };
    assert_eq!(want.len(), MALFORMED.len(), "one Ruby result per document");
    let mut agree = 0;
    let mut diffs = Vec::new();
    for (text, w) in MALFORMED.iter().zip(&want) {
        let got = match puppet_model::yaml::load_hiera(text) {
            Ok(_) => "ok".to_string(),
            Err(e) => e.to_string(),
        };
        if got == *w {
            agree += 1;
        } else {
            diffs.push(format!("{text:?}\n    psych:   {w}\n    pverify: {got}"));
        }
    }
    eprintln!("{agree} of {} agree", MALFORMED.len());
    assert!(diffs.is_empty(), "{}", diffs.join("\n"));
}
