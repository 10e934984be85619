//! Where `epp()` finds a template: Puppet's `EppEvaluator.epp` and
//! `Parser::Files.find_template`.
//!
//! `mod/rest` is `<module>/templates/rest` of the first module `mod` on the
//! modulepath (`Environment::find_template`, inside the read roots);
//! `.epp` is added to a reference without it.

use crate::files::FileSystem;

/// The reference with `.epp` added when Puppet adds it.
pub fn with_extension(fs: &dyn FileSystem, reference: &str) -> String {
    if reference.ends_with(".epp") || is_absolute_existing(fs, reference) {
        reference.to_string()
    } else {
        format!("{reference}.epp")
    }
}

fn is_absolute_existing(fs: &dyn FileSystem, reference: &str) -> bool {
    reference.starts_with('/') && fs.exists(std::path::Path::new(reference))
}
