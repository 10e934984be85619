//! libFuzzer target: `puppet_compiler::fuzzing::facts` (see fuzz/README.md).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| puppet_compiler::fuzzing::facts(data));
