//! Modules from a Puppetfile (r10k's format), deployed as r10k deploys
//! them but without writing into the repo: each module's tree is fetched
//! into the module cache ([`cache`]; Forge modules through the Forge v3
//! API, [`forge`]; git modules with the system's git, [`git`]) and the
//! compiler sees it at `<env>/<moduledir>/<name>` through an overlay file
//! system ([`overlay`]). docs/puppetfile.md is the user's view.

pub mod cache;
pub mod forge;
pub mod git;
pub mod overlay;
pub mod parse;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use puppet_compiler::files::FileSystem;
use puppet_compiler::loader::{Environment, Overrides};

pub use cache::CacheOptions;
use parse::ModSource;

/// The file r10k reads, at the environment's root.
pub const PUPPETFILE: &str = "Puppetfile";

/// One module in place.
#[derive(Debug, Clone)]
pub struct DeployedModule {
    pub name: String,
    /// Where the compiler sees it (`<env>/modules/<name>`).
    pub dir: PathBuf,
    /// Its tree in the cache.
    pub tree: PathBuf,
    /// The version (Forge) or commit (git) deployed; `local` for `:local`.
    pub resolved: String,
}

/// A Puppetfile deployed into the cache.
pub struct Deployment {
    pub puppetfile: PathBuf,
    /// `<env>/<moduledir>`: r10k purges what the Puppetfile does not name.
    pub moduledir: PathBuf,
    pub cache_dir: PathBuf,
    pub modules: Vec<DeployedModule>,
    /// Modules that could not be deployed, one error each (naming the
    /// Puppetfile's line). The others are deployed: nodes that do not need
    /// the missing ones still compile.
    pub errors: Vec<String>,
    overlay: Arc<overlay::ModuleOverlay>,
}

impl Deployment {
    /// The file system the environment is read through.
    pub fn files(&self) -> Arc<dyn FileSystem> {
        self.overlay.clone()
    }

    /// Boots `env_dir` with the deployed modules in place; the cache is an
    /// operator-granted read root.
    pub fn boot(&self, env_dir: &Path, overrides: &Overrides) -> Result<Environment, String> {
        let mut overrides = overrides.clone();
        self.apply(&mut overrides);
        Environment::boot(env_dir, &overrides)
    }

    /// Makes environments booted with `overrides` see the deployed modules:
    /// read through the overlay, the cache granted.
    pub fn apply(&self, overrides: &mut Overrides) {
        overrides.grants.push(self.cache_dir.clone());
        overrides.files = Some(puppet_compiler::loader::SharedFiles(self.files()));
    }

    /// A node's compile error with the deployment's errors after it (the
    /// likely cause of a missing class).
    pub fn explain(&self, error: String) -> String {
        if self.errors.is_empty() {
            return error;
        }
        format!(
            "{error} (Puppetfile deployment failed: {})",
            self.errors.join("; ")
        )
    }

    /// The directories holding the deployed modules' trees, each named
    /// after its module: a modulepath for tools reading module files by
    /// `<dir>/<module>/files/...` (diff's `puppet:///` contents).
    pub fn tree_parents(&self) -> Vec<PathBuf> {
        self.modules
            .iter()
            .filter_map(|m| m.tree.parent().map(Path::to_path_buf))
            .collect()
    }

    /// Writes the deployed modules into `env_dir` (a copy of the
    /// environment: the reference Puppet reads real directories): the
    /// moduledir emptied of what r10k would purge, then each module copied.
    pub fn materialize(&self, original_env: &Path, env_dir: &Path) -> Result<(), String> {
        if let Ok(rel) = self.moduledir.strip_prefix(original_env) {
            let copied = env_dir.join(rel);
            let named = |n: &std::ffi::OsStr| {
                self.modules
                    .iter()
                    .any(|m| m.dir == self.moduledir.join(n) && m.resolved == "local")
            };
            for entry in std::fs::read_dir(&copied).into_iter().flatten().flatten() {
                if !named(&entry.file_name()) {
                    let p = entry.path();
                    let gone = if p.is_dir() && !p.is_symlink() {
                        std::fs::remove_dir_all(&p)
                    } else {
                        std::fs::remove_file(&p)
                    };
                    gone.map_err(|e| format!("{}: {e}", p.display()))?;
                }
            }
        }
        for m in &self.modules {
            let rel = m.dir.strip_prefix(original_env).map_err(|_| {
                format!(
                    "{}: outside the environment {}",
                    m.dir.display(),
                    original_env.display()
                )
            })?;
            if m.resolved == "local" {
                continue;
            }
            let dest = env_dir.join(rel);
            if dest.exists() {
                std::fs::remove_dir_all(&dest).map_err(|e| format!("{}: {e}", dest.display()))?;
            }
            copy_tree(&m.tree, &dest)?;
        }
        Ok(())
    }
}

fn copy_tree(from: &Path, to: &Path) -> Result<(), String> {
    let fail = |p: &Path, e: std::io::Error| format!("{}: {e}", p.display());
    std::fs::create_dir_all(to).map_err(|e| fail(to, e))?;
    for entry in std::fs::read_dir(from).map_err(|e| fail(from, e))? {
        let entry = entry.map_err(|e| fail(from, e))?;
        let src = entry.path();
        let dst = to.join(entry.file_name());
        let kind = entry.file_type().map_err(|e| fail(&src, e))?;
        if kind.is_symlink() {
            let target = std::fs::read_link(&src).map_err(|e| fail(&src, e))?;
            std::os::unix::fs::symlink(target, &dst).map_err(|e| fail(&dst, e))?;
        } else if kind.is_dir() {
            copy_tree(&src, &dst)?;
        } else {
            std::fs::copy(&src, &dst).map_err(|e| fail(&src, e))?;
        }
    }
    Ok(())
}

/// Deploys `env_dir/Puppetfile` into the cache; `None` without one. A
/// Puppetfile that cannot be read or a cache that cannot be written is an
/// error; a module that cannot be deployed is one of
/// [`Deployment::errors`].
pub fn deploy(env_dir: &Path, opts: &CacheOptions) -> Result<Option<Deployment>, String> {
    let env_dir = std::path::absolute(env_dir).unwrap_or_else(|_| env_dir.to_path_buf());
    let path = env_dir.join(PUPPETFILE);
    if !path.is_file() {
        return Ok(None);
    }
    let puppetfile = parse::read(&path)?;
    let cache_dir =
        cache::open(&opts.cache_dir()).map_err(|e| format!("{}: {e}", path.display()))?;
    let moduledir = env_dir.join(puppetfile.moduledir.as_deref().unwrap_or("modules"));
    let forge_url = puppetfile
        .forge
        .clone()
        .unwrap_or_else(|| forge::DEFAULT_FORGE.to_string());
    let mut overlay = overlay::ModuleOverlay::default();
    // The moduledir is r10k's even when a module failed: nothing stale
    // from the repo's working tree shows through.
    overlay.purge(&moduledir);
    let mut modules = Vec::new();
    let mut errors = Vec::new();
    for decl in &puppetfile.mods {
        let dir = match &decl.install_path {
            Some(p) => env_dir.join(p),
            None => moduledir.clone(),
        };
        // r10k purges the moduledir of what the Puppetfile does not name.
        let purged = dir == moduledir;
        let deployed = match &decl.source {
            ModSource::Local => {
                overlay.keep_local(&dir, &decl.name, purged);
                modules.push(DeployedModule {
                    name: decl.name.clone(),
                    dir: dir.join(&decl.name),
                    tree: dir.join(&decl.name),
                    resolved: "local".into(),
                });
                continue;
            }
            ModSource::Forge { owner, version } => {
                forge::deploy(&cache_dir, &forge_url, decl, owner, version, opts.offline)
            }
            ModSource::Git { url, want } => git::deploy(
                &cache_dir,
                decl,
                &git_url(url, &env_dir),
                want,
                opts.offline,
            ),
        };
        match deployed {
            Ok((holder, resolved)) => {
                let tree = holder.join(&decl.name);
                overlay.add(&dir, &decl.name, &tree, purged);
                modules.push(DeployedModule {
                    name: decl.name.clone(),
                    dir: dir.join(&decl.name),
                    tree,
                    resolved,
                });
            }
            Err(e) => errors.push(e),
        }
    }
    Ok(Some(Deployment {
        puppetfile: path,
        cache_dir,
        moduledir,
        modules,
        errors,
        overlay: Arc::new(overlay),
    }))
}

/// A git URL as git is given it: a relative local path is relative to the
/// environment (the Puppetfile's directory), as r10k runs git there.
fn git_url(url: &str, env_dir: &Path) -> String {
    if url.contains("://") || url.contains('@') || Path::new(url).is_absolute() {
        url.to_string()
    } else {
        env_dir.join(url).to_string_lossy().into_owned()
    }
}
