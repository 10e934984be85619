//! Unit tests of the library's Ruby semantics.

use super::digests::{ruby_random, Mt};
use super::ruby_format::ruby_format;
use super::strings::version_cmp;
use crate::eval::value::Value;
use puppet_model::ruby::digest::{hex, md5_digest, sha1_digest, sha256_digest};

fn seed(n: u128) -> Mt {
    let bytes = n.to_be_bytes();
    ruby_random(&bytes)
}

#[test]
fn ruby_random_matches_ruby() {
    // `Random.new(seed).rand(max)` as Ruby 3.1 answers it.
    assert_eq!(seed(42).limited(99), 51);
    assert_eq!(seed((1 << 64) + 5).limited(999), 240);
    assert_eq!(seed(1 << 32).limited(999_999_999_999), 741_280_623_151);
    assert_eq!(seed(0).limited(6), 4);
    assert_eq!(seed((1 << 96) + 3).limited((1 << 40) - 1), 644_932_171_339);
}

#[test]
fn digests_match_known_vectors() {
    assert_eq!(hex(&md5_digest(b"")), "d41d8cd98f00b204e9800998ecf8427e");
    assert_eq!(hex(&md5_digest(b"abc")), "900150983cd24fb0d6963f7d28e17f72");
    assert_eq!(
        hex(&sha1_digest(b"abc")),
        "a9993e364706816aba3e25717850c26c9cd0d89d"
    );
    assert_eq!(
        hex(&sha256_digest(b"abc")),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
}

#[test]
fn float_formats_round_as_ruby_does() {
    let f = |fmt: &str, x: f64| ruby_format(fmt, &[Value::Float(x)]).unwrap();
    // Ruby's fast path rounds a near tie to even on the computed digits.
    assert_eq!(f("%.1f", 0.35), "0.4");
    assert_eq!(f("%.1f", 2.45), "2.4");
    assert_eq!(f("%.1f", 0.05), "0.1");
    assert_eq!(f("%.3e", 0.35), "3.500e-01");
    assert_eq!(f("%g", 1e-7), "1e-07");
    assert_eq!(f("%.1f", 123.456), "123.5");
    assert_eq!(f("%.17g", 0.1), "0.10000000000000001");
}

#[test]
fn integer_formats() {
    let f = |fmt: &str, n: i64| ruby_format(fmt, &[Value::Integer(n)]).unwrap();
    assert_eq!(f("%x", -255), "..f01");
    assert_eq!(f("%+x", -255), "-ff");
    assert_eq!(f("%#o", 8), "010");
    assert_eq!(f("%05d", -3), "-0003");
    assert_eq!(f("%.0d", 0), "");
}

#[test]
fn versions_compare_as_puppet() {
    assert_eq!(version_cmp("1.10.0", "1.9.3", false), 1);
    assert_eq!(version_cmp("1.0", "1.0.0", false), -1);
    assert_eq!(version_cmp("1.0.0", "1.0", true), 0);
    assert_eq!(version_cmp("2.0.0-rc1", "2.0.0", false), 1);
}
