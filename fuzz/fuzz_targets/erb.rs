//! libFuzzer target: `pverify::fuzzing::erb` (see fuzz/README.md).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| pverify::fuzzing::erb(data));
