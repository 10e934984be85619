//! Report formats of `pverify run` and `pverify check`: JUnit XML parses
//! back (quick-xml) with one testcase per case or node; JSON has the
//! documented fields (docs/harness.md); `--oracle puppet` reports a case
//! whose expectation Puppet does not meet.

mod common;
use common::{copy_dir, pverify};

use std::path::Path;
use std::process::Command;

use quick_xml::events::Event;
use serde_json::Value;

/// Parses the whole document; returns (testcases, failures, skipped) and
/// checks the tags nest.
fn parse_junit(xml: &str) -> (usize, usize, usize) {
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut stack: Vec<String> = Vec::new();
    let (mut cases, mut failures, mut skipped) = (0, 0, 0);
    let mut count = |name: &str| match name {
        "testcase" => cases += 1,
        "failure" => failures += 1,
        "skipped" => skipped += 1,
        _ => {}
    };
    loop {
        match reader.read_event() {
            Ok(Event::Start(e)) => {
                let name = String::from_utf8(e.name().as_ref().to_vec()).unwrap();
                for a in e.attributes() {
                    a.expect("well-formed attribute")
                        .unescape_value()
                        .expect("escaped value");
                }
                count(&name);
                stack.push(name);
            }
            Ok(Event::Empty(e)) => {
                let name = String::from_utf8(e.name().as_ref().to_vec()).unwrap();
                for a in e.attributes() {
                    a.expect("well-formed attribute")
                        .unescape_value()
                        .expect("escaped value");
                }
                count(&name);
            }
            Ok(Event::End(e)) => {
                let name = String::from_utf8(e.name().as_ref().to_vec()).unwrap();
                assert_eq!(
                    stack.pop().as_deref(),
                    Some(name.as_str()),
                    "mismatched tag"
                );
            }
            Ok(Event::Text(t)) => {
                t.unescape().expect("escaped text");
            }
            Ok(Event::Eof) => break,
            Ok(_) => {}
            Err(e) => panic!(
                "JUnit XML is not well formed at {}: {e}",
                reader.buffer_position()
            ),
        }
    }
    assert!(stack.is_empty(), "unclosed tags {stack:?}");
    (cases, failures, skipped)
}

#[test]
fn junit_of_a_failing_check_is_well_formed() {
    let tmp = tempfile::tempdir().unwrap();
    copy_dir(
        Path::new("tests/fixtures/example-repo"),
        &tmp.path().join("example-repo"),
    );
    copy_dir(
        Path::new("tests/fixtures/factsets"),
        &tmp.path().join("factsets"),
    );
    let repo = tmp.path().join("example-repo");
    // Characters XML must escape, and one it cannot carry, in the content.
    let page = repo.join("modules/profile/templates/index.html.epp");
    let text = std::fs::read_to_string(&page).unwrap();
    std::fs::write(
        &page,
        text.replace("<p>port <%= $port %></p>", "<p>\"a\" & 'b' \u{1b}</p>"),
    )
    .unwrap();
    let (code, out, err) = pverify(&["check", repo.to_str().unwrap(), "--format", "junit"]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(parse_junit(&out), (6, 2, 0), "{out}");
    assert!(
        out.contains("&lt;p&gt;&quot;a&quot; &amp; &apos;b&apos;"),
        "{out}"
    );
}

#[test]
fn junit_of_the_spec_suite_is_well_formed() {
    let (code, out, err) = pverify(&["run", "spec-suite", "--format", "junit"]);
    assert_eq!(code, 0, "{err}");
    let (cases, failures, skipped) = parse_junit(&out);
    let total = pverify(&["run", "spec-suite"]).1;
    let last = total.lines().last().unwrap().to_string();
    assert_eq!(
        last,
        format!(
            "{} passed, {failures} failed, {skipped} skipped",
            cases - skipped
        )
    );
}

#[test]
fn json_report_has_the_documented_fields() {
    let (code, out, _) = pverify(&["run", "spec-suite", "node-matching", "--format", "json"]);
    assert_eq!(code, 0);
    let r: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(r["schema"], "pverify-report/1");
    assert_eq!(r["command"], "run");
    assert_eq!(r["target"], "spec-suite");
    let items = r["items"].as_array().unwrap();
    assert!(!items.is_empty());
    for k in ["total", "passed", "failed", "skipped"] {
        assert!(r["summary"][k].is_u64(), "summary.{k}");
    }
    assert_eq!(
        r["summary"]["total"].as_u64().unwrap() as usize,
        items.len()
    );
    for i in items {
        assert!(i["name"].as_str().unwrap().starts_with("node-matching/"));
        assert_eq!(i["status"], "passed");
        assert!(i["millis"].is_u64());
    }
}

/// `pverify run SUITE --oracle puppet --format json` with `extra`
/// arguments, which must fail (exit 1): its report.
fn failing_oracle_run(suite: &Path, extra: &[&str]) -> Value {
    let mut args = vec![
        "run",
        suite.to_str().unwrap(),
        "--oracle",
        "puppet",
        "--format",
        "json",
    ];
    args.extend(extra);
    let (code, out, err) = pverify(&args);
    assert_eq!(code, 1, "{out}{err}");
    serde_json::from_str(&out).unwrap()
}

/// A suite with one case whose expectation is wrong on purpose.
fn broken_suite(dir: &Path) {
    let case = std::fs::read_to_string("spec-suite/node-matching/several-names.case").unwrap();
    let (head, _) = case.split_once("-- expect.json --").unwrap();
    let topic = dir.join("t");
    std::fs::create_dir_all(&topic).unwrap();
    std::fs::write(
        topic.join("wrong.case"),
        format!("{head}-- expect.error --\nnot what Puppet says\n"),
    )
    .unwrap();
}

#[test]
fn a_wrong_expectation_fails_under_pverify() {
    let tmp = tempfile::tempdir().unwrap();
    broken_suite(tmp.path());
    let (code, out, _) = pverify(&["run", tmp.path().to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    assert!(out.starts_with("FAILED  t/wrong\n    [pverify]"), "{out}");
    assert!(out.contains("-error: not what Puppet says"), "{out}");
    assert_eq!(out.lines().last(), Some("0 passed, 1 failed, 0 skipped"));
    let (code, _, _) = pverify(&["run", "/nonexistent-suite"]);
    assert_eq!(code, 3);
}

#[test]
fn the_puppet_oracle_reports_a_wrong_expectation() {
    let ok = Command::new("puppet")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI=true but puppet is not installed"
        );
        eprintln!("note: puppet is not installed; skipping the oracle check");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    broken_suite(tmp.path());
    let r = failing_oracle_run(tmp.path(), &[]);
    let against: Vec<&str> = r["items"][0]["failures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["against"].as_str().unwrap())
        .collect();
    assert_eq!(against, ["pverify", "puppet"]);
    // And a right one passes under both.
    let (code, out, err) = pverify(&[
        "run",
        "spec-suite",
        "node-matching/several-names",
        "--oracle",
        "puppet",
    ]);
    assert_eq!(code, 0, "{out}{err}");
}

/// Puppet 7.23's result for `bytes` holds a byte that is not UTF-8, which
/// its Ruby's JSON refuses (Puppet 8's Ruby 3.3 writes it): that case fails against Puppet and the others are
/// still judged. `varies` is marked `puppet-varies` and Puppet always
/// disagrees with it: tried again, it still fails.
#[test]
fn puppet_bytes_fail_one_case_and_a_varying_case_is_still_judged() {
    if !common::have(&[common::Need::Puppet]) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    broken_suite(tmp.path());
    let topic = tmp.path().join("t");
    std::fs::rename(topic.join("wrong.case"), topic.join("varies.case")).unwrap();
    let varies = std::fs::read_to_string(topic.join("varies.case")).unwrap();
    let varies = varies.replacen(
        "-- case.yaml --\n",
        "-- case.yaml --\npuppet-varies: a test of the retry\n",
        1,
    );
    std::fs::write(topic.join("varies.case"), varies).unwrap();
    std::fs::copy(
        "spec-suite/node-matching/several-names.case",
        topic.join("ok.case"),
    )
    .unwrap();
    std::fs::write(
        topic.join("bytes.case"),
        "-- case.yaml --
spec: catalog-expressions#node-definition
node: node1.example.com
-- modules/m/lib/puppet/functions/m/bytes.rb --
Puppet::Functions.create_function(:'m::bytes') do
  def bytes
    \"\\xFF\".b
  end
end
-- manifests/site.pp --
notify { 'b': message => m::bytes() }
-- expect.error --
not what Puppet says
",
    )
    .unwrap();
    let r = failing_oracle_run(tmp.path(), &["--puppet", "7"]);
    let out = r.to_string();
    let puppet_says = |name: &str| -> Vec<String> {
        let item = r["items"]
            .as_array()
            .unwrap()
            .iter()
            .find(|i| i["name"] == format!("t/{name}"))
            .unwrap_or_else(|| panic!("no item t/{name}: {out}"));
        item["failures"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|f| f["against"] == "puppet")
            .map(|f| f.to_string())
            .collect()
    };
    let bytes = puppet_says("bytes");
    assert_eq!(bytes.len(), 1, "{out}");
    assert!(bytes[0].contains("not UTF-8"), "{out}");
    assert_eq!(puppet_says("varies").len(), 1, "{out}");
    assert!(puppet_says("ok").is_empty(), "{out}");
}
