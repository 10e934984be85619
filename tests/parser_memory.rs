//! Parsing does not leak: the grammar's recursive parsers once formed `Rc`
//! cycles, so every `syntax::parse` leaked its parser (found by LeakSanitizer
//! under `cargo fuzz`). Parsing one manifest 10,000 times must not grow the
//! resident set by more than a few MB (with the leak it grew by 87 MB, about
//! 9 KB a parse; without, by nothing). A resource check, not a timing one.
//! Linux only (`/proc/self/status`).

use puppet_syntax::parse;

/// The resident set size in KiB.
fn vm_rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("reading /proc/self/status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmRSS in /proc/self/status")
}

#[test]
fn parsing_the_same_file_10000_times_does_not_grow_memory() {
    let src = b"class a($x = 1) {\n  file { '/tmp/a':\n    content => \"${x}\",\n  }\n  $y = [1, 2].map |$v| { $v + 1 }\n}\n";
    // Warm up: allocator arenas, lazily built tables.
    for _ in 0..500 {
        parse("leak.pp", src).expect("the manifest is valid");
    }
    let before = vm_rss_kib();
    for _ in 0..10_000 {
        parse("leak.pp", src).expect("the manifest is valid");
    }
    let grown = vm_rss_kib().saturating_sub(before);
    eprintln!("VmRSS grew by {grown} KiB over 10,000 parses");
    assert!(
        grown < 4 * 1024,
        "the resident set grew by {grown} KiB over 10,000 parses"
    );
}
