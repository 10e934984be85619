//! Where `template()`, `epp()` and `find_template()` find a template file.

use std::path::PathBuf;

use super::Environment;

impl Environment {
    /// Puppet's `find_template` for `template()` and `epp()`: `module/file` in
    /// the module's `templates` folder, an absolute path as it is, when it
    /// is a file (inside the read roots: [`super::confine`]). The path is
    /// returned as named, for Puppet's messages.
    pub fn find_template(&self, reference: &str) -> Option<PathBuf> {
        let known = self
            .template_files
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(reference)
            .cloned();
        if let Some((found, trace)) = known {
            crate::reads::replay(&trace);
            return found;
        }
        let (found, trace) = crate::reads::capture(|| locate_template(self, reference));
        self.template_files
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(reference.to_string(), (found.clone(), trace));
        found
    }
}

fn locate_template(env: &Environment, reference: &str) -> Option<PathBuf> {
    let path = if reference.starts_with('/') {
        PathBuf::from(reference)
    } else {
        let (module, rest) = reference.split_once('/')?;
        env.module_dir(module)?.join("templates").join(rest)
    };
    env.files().is_file(&path).then_some(path)
}
