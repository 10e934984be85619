//! libFuzzer target: `puppet_compiler::fuzzing::facts` (see fuzz/README.md).
#![no_main]

// The CLI's allocator: the node memory budget counts what it allocates.
#[global_allocator]
static ALLOCATOR: pverify_alloc::Allocator = pverify_alloc::Allocator;

libfuzzer_sys::fuzz_target!(|data: &[u8]| puppet_compiler::fuzzing::facts(data));
