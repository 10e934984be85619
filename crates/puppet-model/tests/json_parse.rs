//! `JSON.parse` against Ruby's own answers: `data/json_parse.tsv` holds
//! inputs (hex) with what json 2.6 (Ruby 3.1, Puppet 7.23) and json 2.9
//! (Ruby 3.3, Puppet 8.10) answered for each, as `data/json_parse.rb`
//! writes them; `.ci/run` checks the table against both Rubies again.

use puppet_model::bad_bytes;
use puppet_model::ruby::{json_parse, RubyVersion};
use puppet_model::Value;

/// A value as the table writes it (`json_parse.rb`'s `canon`).
fn canon(v: &Value) -> String {
    match v {
        Value::Undef => "nil".into(),
        Value::Boolean(b) => b.to_string(),
        Value::Integer(i) => format!("i{i}"),
        Value::Float(f) => format!("f{:016x}", f.to_bits()),
        Value::String(s) => format!("s{}", hex(&bad_bytes::encode(s))),
        Value::Array(a) => format!("[{}]", a.iter().map(canon).collect::<Vec<_>>().join(",")),
        Value::Hash(h) => format!(
            "{{{}}}",
            h.iter()
                .map(|(k, v)| format!("{}:{}", canon(k), canon(v)))
                .collect::<Vec<_>>()
                .join(",")
        ),
        other => format!("?{other:?}"),
    }
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|c| format!("{c:02x}")).collect()
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).expect("hex"))
        .collect()
}

fn answer(input: &[u8], ruby: RubyVersion) -> String {
    let text = bad_bytes::decode(input);
    match json_parse::parse(&text, ruby) {
        Ok(v) => format!("ok {}", canon(&v)),
        Err(e) => format!("{} {}", e.class(), hex(&bad_bytes::encode(e.message()))),
    }
}

#[test]
fn json_parse_answers_as_ruby_does() {
    let table = include_str!("data/json_parse.tsv");
    let mut wrong = Vec::new();
    let mut count = 0;
    for line in table.lines().filter(|l| !l.starts_with('#')) {
        let mut cols = line.split('\t');
        let (Some(input), Some(v31), Some(v33)) = (cols.next(), cols.next(), cols.next()) else {
            panic!("bad line {line:?}");
        };
        let input = unhex(input);
        for (ruby, want) in [(RubyVersion::V3_1, v31), (RubyVersion::V3_3, v33)] {
            count += 1;
            let got = answer(&input, ruby);
            if got != want {
                let show = |a: &str| match a.split_once(' ') {
                    Some((class, m)) if class.starts_with("JSON::") => {
                        format!("{class} {:?}", String::from_utf8_lossy(&unhex(m)))
                    }
                    _ => a.to_string(),
                };
                wrong.push(format!(
                    "{:?} {ruby:?}\n  ruby:    {}\n  pverify: {}",
                    String::from_utf8_lossy(&input),
                    show(want),
                    show(&got)
                ));
            }
        }
    }
    assert!(count > 1000, "{count} answers");
    assert!(
        wrong.is_empty(),
        "{} of {count} differ:\n{}",
        wrong.len(),
        wrong
            .iter()
            .take(40)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
