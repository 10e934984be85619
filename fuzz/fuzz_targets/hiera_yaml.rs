//! libFuzzer target: `pverify::fuzzing::hiera_yaml` (see fuzz/README.md).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| pverify::fuzzing::hiera_yaml(data));
