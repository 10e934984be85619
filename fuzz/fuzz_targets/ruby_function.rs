//! libFuzzer target: `pverify::fuzzing::ruby_function` (see fuzz/README.md).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| pverify::fuzzing::ruby_function(data));
