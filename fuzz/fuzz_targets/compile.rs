//! libFuzzer target: `pverify::fuzzing::compile` (see fuzz/README.md).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| pverify::fuzzing::compile(data));
