//! pverify's ERB against Ruby's: every snippet of
//! `tests/fixtures/erb/snippets.txt` renders as Ruby's ERB (trim mode '-')
//! renders it, in Ruby 3.1 (Puppet 7's) and Ruby 3.3 (Puppet 8's).
//! `expected.json` is Ruby 3.1's output, written by
//! `ruby xtask/ruby/erb_oracle.rb tests/fixtures/erb/snippets.txt
//! tests/fixtures/erb/vars.json` on the host; `expected-ruby33.json` the
//! same script's output with the Debian 13 root's Ruby 3.3.
//! `expectations_are_rubys` and `expectations_are_ruby33s` re-derive them.
//! Errors compare by Ruby's message (syntax errors only by being errors).

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use puppet_compiler::template::erb::{parse, Host};
use puppet_model::ruby::RubyVersion;
use puppet_model::value::{Map, Value};
use pverify_harness::reference::{PuppetVersion, Reference};

const DIR: &str = "tests/fixtures/erb";

fn to_value(j: &serde_json::Value) -> Value {
    match j {
        serde_json::Value::Null => Value::Undef,
        serde_json::Value::Bool(b) => Value::Boolean(*b),
        serde_json::Value::Number(n) => match n.as_i64() {
            Some(i) if !n.to_string().contains(['.', 'e']) => Value::Integer(i),
            _ => Value::Float(n.as_f64().unwrap_or(0.0)),
        },
        serde_json::Value::String(s) => Value::string(s.as_str()),
        serde_json::Value::Array(a) => Value::array(a.iter().map(to_value).collect()),
        serde_json::Value::Object(o) => {
            let mut m = Map::default();
            for (k, v) in o {
                m.insert(Value::string(k.as_str()), to_value(v));
            }
            Value::hash(m)
        }
    }
}

/// The stand-in scope of the oracle script: the variables and two
/// functions, in one Ruby.
struct Vars(BTreeMap<String, Value>, RubyVersion);

impl Host for Vars {
    fn ruby(&self) -> RubyVersion {
        self.1
    }
    fn ivar(&mut self, name: &str) -> Option<Value> {
        self.0.get(name).cloned()
    }
    fn lookupvar(&mut self, name: &str) -> Option<Value> {
        self.0.get(name.trim_start_matches("::")).cloned()
    }
    fn call_function(&mut self, name: &str, args: Vec<Value>) -> Result<Value, String> {
        match (name, args.as_slice()) {
            ("join", [Value::Array(a), Value::String(sep)]) => Ok(Value::string(
                a.iter()
                    .map(|v| v.to_string())
                    .collect::<Vec<_>>()
                    .join(sep),
            )),
            ("upcase", [Value::String(s)]) => Ok(Value::string(s.to_uppercase())),
            ("sprintf", _) => Err("sprintf is Puppet's, not in this stand-in".into()),
            _ => Err(format!("Unknown function '{name}'")),
        }
    }
    fn to_hash(&mut self) -> Value {
        let mut m = Map::default();
        for (k, v) in &self.0 {
            m.insert(Value::string(k.as_str()), v.clone());
        }
        Value::hash(m)
    }
    fn setvar(&mut self, name: &str, value: Value) -> Result<(), String> {
        self.0.insert(name.to_string(), value);
        Ok(())
    }
    fn changed_in_place(&mut self, name: &str, value: Value) {
        self.0.insert(name.to_string(), value);
    }
}

fn snippets() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(Path::new(DIR).join("snippets.txt")).unwrap();
    let mut out: Vec<(String, String)> = Vec::new();
    for line in text.split_inclusive('\n') {
        if let Some(name) = line
            .strip_prefix("-- ")
            .and_then(|l| l.strip_suffix(" --\n"))
        {
            out.push((name.to_string(), String::new()));
        } else if let Some(last) = out.last_mut() {
            last.1.push_str(line);
        }
    }
    out
}

fn vars() -> BTreeMap<String, Value> {
    let j: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(Path::new(DIR).join("vars.json")).unwrap())
            .unwrap();
    j.as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), to_value(v)))
        .collect()
}

/// Ruby's output of every snippet, by the Ruby that wrote it.
fn expected_file(ruby: RubyVersion) -> &'static str {
    match ruby {
        RubyVersion::V3_1 => "expected.json",
        RubyVersion::V3_3 => "expected-ruby33.json",
    }
}

fn expected(ruby: RubyVersion) -> serde_json::Map<String, serde_json::Value> {
    let text = std::fs::read_to_string(Path::new(DIR).join(expected_file(ruby))).unwrap();
    serde_json::from_str::<serde_json::Value>(&text)
        .unwrap()
        .as_object()
        .unwrap()
        .clone()
}

fn render_as(ruby: RubyVersion) {
    let expected = expected(ruby);
    let mut failures = Vec::new();
    let all = snippets();
    for (name, src) in &all {
        let want = &expected[name.as_str()];
        let got = parse(src).and_then(|t| t.render(&mut Vars(vars(), ruby)));
        let ok = match (want, &got) {
            (serde_json::Value::String(w), Ok(g)) => w == g,
            (serde_json::Value::Object(o), Err(e)) => {
                let w = o["error"].as_str().unwrap_or_default();
                w.starts_with("SyntaxError") || w.split_once(": ").map(|p| p.1) == Some(&e.message)
            }
            _ => false,
        };
        if !ok {
            failures.push(format!("{name}:\n  ruby:    {want}\n  pverify: {got:?}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} snippets differ from Ruby {ruby:?}:\n{}",
        failures.len(),
        all.len(),
        failures.join("\n")
    );
}

#[test]
fn snippets_render_as_ruby_renders_them() {
    render_as(RubyVersion::V3_1);
}

#[test]
fn snippets_render_as_ruby33_renders_them() {
    render_as(RubyVersion::V3_3);
}

/// The oracle script's output with `ruby` of the reference `puppet`.
fn oracle_output(reference: &Reference) -> serde_json::Value {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = reference
        .command("ruby", &[repo])
        .arg(repo.join("xtask/ruby/erb_oracle.rb"))
        .arg(repo.join(DIR).join("snippets.txt"))
        .arg(repo.join(DIR).join("vars.json"))
        .output()
        .expect("ruby (installed with Puppet) runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn expectations_are_rubys() {
    let host = Reference::locate(PuppetVersion::V7).expect("Puppet 7 on the host");
    assert_eq!(
        oracle_output(&host),
        serde_json::Value::Object(expected(RubyVersion::V3_1))
    );
}

/// Ruby 3.3 is the Debian 13 root's (`cargo xtask puppet8-root`): CI builds
/// it before the tests, so there its absence is a failure; elsewhere the
/// test says it did not run.
#[test]
fn expectations_are_ruby33s() {
    let Some(reference) = common::puppet8_reference("erb") else {
        return;
    };
    assert_eq!(
        oracle_output(&reference),
        serde_json::Value::Object(expected(RubyVersion::V3_3))
    );
}

/// Every `.erb` of Debian's Puppet module packages parses (CI installs them).
#[test]
fn corpus_templates_parse() {
    let root = Path::new("/usr/share/puppet/modules");
    let mut files = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "erb") {
                files.push(p);
            }
        }
    }
    files.sort();
    assert!(!files.is_empty(), "no templates under {}", root.display());
    let mut failures = Vec::new();
    for f in &files {
        let text = String::from_utf8_lossy(&std::fs::read(f).unwrap()).to_string();
        if let Err(e) = parse(&text) {
            failures.push(format!("{}:{}: {}", f.display(), e.line, e.message));
        }
    }
    eprintln!(
        "{} of {} corpus templates parse",
        files.len() - failures.len(),
        files.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Hostile input fails cleanly: deep nesting, endless recursion, cut-off tags.
#[test]
fn hostile_templates_fail_without_crashing() {
    let deep = format!("<%= {}1{} %>", "(".repeat(5000), ")".repeat(5000));
    let unary = format!("<%= {}true %>", "!".repeat(5000));
    let interp = format!("<%= {}1{} %>", "\"#{".repeat(3000), "}\"".repeat(3000));
    let cases = [
        interp.as_str(),
        deep.as_str(),
        unary.as_str(),
        "<% def f(x) f(x) end %><%= f(1) %>",
        "<% x = ",
        "<%= \"#{",
        "<%",
        "<%= 1 +",
        "<% [1].each do |x| %>",
        "<%= 'é' %><%= %w[ %>",
        // A Bignum past Ruby's size limit (Ruby runs out of memory).
        "<%= 1 << (2**40) %>",
        "<% while true do end %>",
    ];
    for src in cases {
        let r = parse(src).and_then(|t| t.render(&mut Vars(vars(), RubyVersion::default())));
        assert!(r.is_err(), "{src:.40}: {r:?}");
    }
}
