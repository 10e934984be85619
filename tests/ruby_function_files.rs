//! Every Ruby function file of Debian's module packages
//! (`lib/puppet/parser/functions/*.rb`, `lib/puppet/functions/**/*.rb`) is
//! read by pverify's Ruby-subset parser into a 3.x or 4.x definition, but
//! for the files listed here with the construct the subset lacks. CI
//! installs the packages (`cargo xtask corpus --install-only`).

use puppet_compiler::template::erb::function_file::{Definition, FunctionFile};

const MODULES: &str = "/usr/share/puppet/modules";

/// Files the subset cannot read, and why (the line pverify stops at).
const UNREADABLE: &[(&str, &str)] = &[
    (
        "augeas_core/lib/puppet/functions/augeas.rb",
        "attribute assignment (`aug.context = ...`)",
    ),
    (
        "monit/lib/puppet/parser/functions/monit_validate_tests.rb",
        "constant assignment",
    ),
    (
        "openssl/lib/puppet/parser/functions/cert_date_valid.rb",
        "backticks",
    ),
    (
        "stdlib/lib/puppet/parser/functions/dig44.rb",
        "a command call as an argument (`Integer key`)",
    ),
    (
        "stdlib/lib/puppet/parser/functions/fqdn_uuid.rb",
        "integer literals with `0x`",
    ),
    (
        "stdlib/lib/puppet/parser/functions/loadjson.rb",
        "double splat (`**`)",
    ),
    (
        "stdlib/lib/puppet/parser/functions/shuffle.rb",
        "parallel swap (`a[i], a[j] = ...`)",
    ),
    (
        "stdlib/lib/puppet/parser/functions/validate_x509_rsa_key_pair.rb",
        "constant assignment",
    ),
];

#[test]
fn debian_module_function_files_read() {
    if !std::path::Path::new(MODULES).join("stdlib").is_dir() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must install Debian's puppet-module-* packages"
        );
        eprintln!("{MODULES} missing: not checked");
        return;
    }
    let mut read = 0;
    let (mut v3, mut v4) = (0, 0);
    let mut unreadable = Vec::new();
    for pat in [
        "*/lib/puppet/parser/functions/*.rb",
        "*/lib/puppet/functions/**/*.rb",
    ] {
        for f in glob::glob(&format!("{MODULES}/{pat}"))
            .expect("glob")
            .flatten()
        {
            let rel = f
                .strip_prefix(MODULES)
                .expect("under modules")
                .display()
                .to_string();
            let src = std::fs::read_to_string(&f).expect("read");
            match FunctionFile::parse(&src) {
                Ok(file) => {
                    read += 1;
                    match file.def {
                        Definition::V3 { .. } => v3 += 1,
                        Definition::V4 { .. } => v4 += 1,
                    }
                }
                Err(e) => unreadable.push(format!("{rel}:{}: {}", e.line, e.message)),
            }
        }
    }
    eprintln!("{read} read ({v3} 3.x, {v4} 4.x), {} not", unreadable.len());
    let listed: Vec<&str> = UNREADABLE.iter().map(|(f, _)| *f).collect();
    let mut got: Vec<&str> = unreadable
        .iter()
        .map(|u| u.split(':').next().unwrap_or(""))
        .collect();
    got.sort();
    let mut want = listed.clone();
    want.sort();
    assert_eq!(
        got,
        want,
        "unreadable files changed:\n{}",
        unreadable.join("\n")
    );
    assert!(read >= 226, "{read}");
}
