//! libFuzzer target: `pverify::fuzzing::epp` (see fuzz/README.md).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| pverify::fuzzing::epp(data));
