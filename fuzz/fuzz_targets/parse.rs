//! libFuzzer target: `pverify::fuzzing::parse` (see fuzz/README.md).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| pverify::fuzzing::parse(data));
