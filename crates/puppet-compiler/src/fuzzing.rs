//! Fuzz targets: one function per input format, each taking arbitrary bytes.
//! They are shared by the cargo-fuzz targets in `fuzz/` (libFuzzer) and by
//! the stable-Rust driver `cargo xtask fuzz`, so both exercise the same code.
//! A target returns normally on any input; a panic, a stack overflow or a
//! hang is the bug the fuzzer looks for. Nothing here catches panics.
//!
//! A new input format gets a function here, a line in [`TARGETS`] and a
//! file in `fuzz/fuzz_targets`.

use std::path::Path;
use std::sync::OnceLock;

use crate::eval::{self, NodeInfo, Value};
use crate::loader::{Environment, Overrides};
use puppet_model::ruby::RubyVersion;
use puppet_model::yaml;

/// xorshift64*: a small deterministic generator for mutators and random
/// inputs (`cargo xtask fuzz`, tests/robustness.rs); no dependency.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `0..n` (0 when n is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// A target: takes any bytes, returns normally.
pub type Target = fn(&[u8]);

/// Every target by name: what `cargo xtask fuzz NAME` and `fuzz/` run.
pub const TARGETS: &[(&str, Target)] = &[
    ("parse", parse),
    ("compile", compile),
    ("hiera_yaml", hiera_yaml),
    ("hiera_interpolation", hiera_interpolation),
    ("facts", facts),
    ("erb", erb),
    ("epp", epp),
    ("ruby_function", ruby_function),
];

/// The lexer, parser and validator on a manifest.
pub fn parse(data: &[u8]) {
    let _ = puppet_syntax::parse("fuzz.pp", data);
}

/// A manifest compiled as `site.pp` of an empty environment: the evaluator,
/// the built-in functions and the limits.
pub fn compile(data: &[u8]) {
    let ws = workspace();
    let dir = ws.join("compile");
    write(&dir.join("manifests/site.pp"), data);
    compile_in(&dir);
}

/// A Hiera data file and `hiera.yaml`: the YAML reader (as data, as Hiera
/// data, as a Hiera config), Ruby's `JSON.parse` as both Rubies' json read
/// it (the `json_data` backend's reader, bad bytes kept as Ruby keeps
/// them), then the text as the environment's `data/common.yaml` with
/// lookups of its keys `a`, `b` and `c`.
pub fn hiera_yaml(data: &[u8]) {
    let text = puppet_model::bad_bytes::decode(data);
    for ruby in [RubyVersion::V3_1, RubyVersion::V3_3] {
        let _ = puppet_model::ruby::json_parse::parse(&text, ruby);
    }
    // Bytes that are not UTF-8 still go to Hiera, which refuses them.
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = yaml::load(text);
        if let Ok(doc) = yaml::load_hiera(text) {
            let _ = crate::hiera::config::parse(Path::new("hiera.yaml"), &doc);
        }
    }
    let dir = workspace().join("hiera");
    write(&dir.join("data/common.yaml"), data);
    compile_in(&dir);
}

/// Hiera interpolation: the input is the string value of key `a` (as a
/// double-quoted YAML scalar), looked up directly, through `%{lookup('a')}`
/// and through `%{alias('a')}`, with facts and variables to refer to.
pub fn hiera_interpolation(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let quoted = serde_json::Value::String(text.into_owned()).to_string();
    let doc = format!(
        "a: {quoted}\nb: \"x%{{lookup('a')}}y\"\nc: \"%{{alias('a')}}\"\nd: [1, {{e: 'f'}}]\n"
    );
    let dir = workspace().join("interpolation");
    write(&dir.join("data/common.yaml"), doc.as_bytes());
    compile_in(&dir);
}

/// An ERB template: parsed, then rendered by `template()` in a class with
/// variables of every kind to read.
pub fn erb(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = crate::template::erb::parse(text);
    }
    let dir = workspace().join("erb");
    write(&dir.join("modules/m/templates/t.erb"), data);
    compile_in(&dir);
}

/// An EPP template: parsed, then rendered by `epp()` with parameters.
pub fn epp(data: &[u8]) {
    let _ = puppet_syntax::parse_epp("fuzz.epp", data);
    let dir = workspace().join("epp");
    write(&dir.join("modules/m/templates/t.epp"), data);
    compile_in(&dir);
}

/// A module's Ruby function file: read (heredocs, `newfunction`,
/// `create_function`), then called as a 4.x function `m::f` and a 3.x
/// function `m_g` with arguments of several kinds.
pub fn ruby_function(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let _ = crate::template::erb::function_file::FunctionFile::parse(&text);
    let dir = workspace().join("ruby");
    write(&dir.join("modules/m/lib/puppet/functions/m/f.rb"), data);
    write(
        &dir.join("modules/m/lib/puppet/parser/functions/m_g.rb"),
        data,
    );
    compile_in(&dir);
}

/// A node file (JSON or YAML facts, ENC data).
pub fn facts(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let _ = crate::facts::parse_node_text(Path::new("fuzz.json"), &text);
    let _ = crate::facts::parse_node_text(Path::new("fuzz.yaml"), &text);
}

/// The fuzzing workspace: a temporary directory with three environments,
/// made once per process. Each process (the fuzzers run one at a time, or a
/// test) gets its own.
fn workspace() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tempfile::Builder::new()
            .prefix("pverify-fuzz")
            .tempdir()
            .expect("a temporary directory for the fuzz environments");
        let lookups = "$a = lookup('a', undef, undef, 'none')\n\
             $b = lookup('b', undef, undef, 'none')\n\
             $c = lookup('c', undef, undef, 'none')\n\
             notify { 'x': message => [$a, $b, $c] }\n";
        let hiera = "---\nversion: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n";
        for env in ["hiera", "interpolation"] {
            write(&dir.path().join(env).join("hiera.yaml"), hiera.as_bytes());
            write(
                &dir.path().join(env).join("manifests/site.pp"),
                format!("$v = 'var'\n{lookups}").as_bytes(),
            );
        }
        write(&dir.path().join("compile/manifests/site.pp"), b"");
        let vars = "$name = 'web01'\n$port = 8080\n$list = ['a', 'b', undef]\n\
             $h = {'k' => 'v', 'n' => {'x' => [1, 2.5]}}\n$t = true\n";
        write(
            &dir.path().join("erb/manifests/site.pp"),
            format!("{vars}notify {{ 'erb': message => template('m/t.erb') }}\n").as_bytes(),
        );
        write(
            &dir.path().join("ruby/manifests/site.pp"),
            format!(
                "{vars}notify {{ 'rb': message => [m::f(1, 'a', $list, $h), m_g($name, undef, [$port])] }}\n"
            )
            .as_bytes(),
        );
        write(
            &dir.path().join("epp/manifests/site.pp"),
            format!(
                "{vars}notify {{ 'epp': message => epp('m/t.epp', {{'x' => $list, 'y' => $h}}) }}\n"
            )
            .as_bytes(),
        );
        dir
    })
    .path()
}

fn write(path: &Path, data: &[u8]) {
    if let Some(parent) = path.parent() {
        let _ = std::fs::create_dir_all(parent);
    }
    let _ = std::fs::write(path, data);
}

/// Boots the environment in `dir` afresh (so no cache holds an older
/// input) and compiles a node with a few facts.
fn compile_in(dir: &Path) {
    let overrides = Overrides {
        basemodulepath: Some(String::new()),
        ..Overrides::default()
    };
    let Ok(env) = Environment::boot(dir, &overrides) else {
        return;
    };
    let mut node = NodeInfo {
        name: "fuzz.example.com".into(),
        // A time budget well inside the `-timeout=60` the fuzz runs use,
        // and half the CLI's memory budget: an input that runs long ends as
        // the node error the CLI gives it, even on a loaded machine, and
        // libFuzzer's watchdog reports only what the budget cannot stop.
        // Faulting in the CLI's 2 GiB took 10 s in a release build and over
        // 60 s in the fuzzing build beside other work; the budget's code is
        // the same whatever the cap.
        budget: crate::budget::Limits::resolve(Some(20.0), Some(1 << 30)),
        ..NodeInfo::default()
    };
    for (k, v) in [("os", "Debian"), ("fqdn", "fuzz.example.com")] {
        std::sync::Arc::make_mut(&mut node.facts).insert(Value::string(k), Value::string(v));
    }
    // On a thread with the CLI's node stack (64 MiB, src/cli_compile.rs), so
    // a finding is one the CLI would have too, not an artefact of
    // libFuzzer's 8 MiB main thread.
    let compiled = std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || drop(eval::compile(&env, node)));
    if let Ok(handle) = compiled {
        // A panic on the node thread is a finding: hand it on to the driver.
        if let Err(panic) = handle.join() {
            std::panic::resume_unwind(panic);
        }
    }
}
