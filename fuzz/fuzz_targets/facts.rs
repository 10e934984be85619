//! libFuzzer target: `pverify::fuzzing::facts` (see fuzz/README.md).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| pverify::fuzzing::facts(data));
