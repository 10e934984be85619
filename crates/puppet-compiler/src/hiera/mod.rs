//! Hiera 5: the global, environment and module layers, their `hiera.yaml`
//! (v5), the `yaml_data`/`json_data` backends (custom ones run in
//! `eval/lookup/custom.rs`), interpolation, merge
//! strategies and `lookup_options`. Data files are read and parsed once per
//! run ([`DataCache`], shared by all nodes); interpolation and merging happen
//! per node, in [`lookup`].

pub mod config;
mod config_type;
pub mod eyaml;
pub mod memo;
pub mod merge;

use crate::files::FileSystem;
use rustc_hash::FxHashMap as HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use puppet_model::ruby::RubyVersion;
use puppet_model::Value;

/// A data file's content: `None` when the file does not exist.
pub type FileData = Result<Option<Value>, String>;

/// A file, whether it is read as JSON, and the Ruby whose Psych or json
/// reads it (their error texts differ).
type FileKey = (PathBuf, bool, RubyVersion);

/// A `hiera.yaml`, the directory its relative datadirs start at, and the
/// Ruby whose Psych reads it.
type ConfigKey = (PathBuf, PathBuf, RubyVersion);

/// Parsed data and config files by path, shared by every node of a run.
#[derive(Default)]
pub struct DataCache {
    files: Mutex<HashMap<FileKey, Arc<OnceLock<ReadFile>>>>,
    configs: Mutex<HashMap<ConfigKey, Arc<OnceLock<ConfigData>>>>,
    /// eyaml's private keys and plaintexts.
    pub eyaml: eyaml::KeyCache,
}

/// A data file read: its content, and whether its text had bytes that are
/// not UTF-8 (a JSON file's, kept as `puppet_model::bad_bytes` stand-ins as
/// Ruby keeps them; a catalog holding them fails the node).
#[derive(Clone)]
pub struct ReadFile {
    pub data: FileData,
    pub bad_bytes: bool,
}

/// An interpreted `hiera.yaml`: `None` when the file does not exist.
pub type ConfigData = Result<Option<Arc<config::Config>>, String>;

impl DataCache {
    /// The file parsed as YAML (`ruby`'s Psych's rules) or JSON (its
    /// json's); read once per run.
    pub fn read(
        &self,
        fs: &dyn FileSystem,
        path: &Path,
        json: bool,
        ruby: RubyVersion,
    ) -> ReadFile {
        crate::reads::note(path, crate::reads::KIND | crate::reads::CONTENT);
        let slot = {
            let mut files = self.files.lock().unwrap_or_else(|p| p.into_inner());
            files
                .entry((path.to_path_buf(), json, ruby))
                .or_default()
                .clone()
        };
        slot.get_or_init(|| read_uncached(fs, path, json, ruby))
            .clone()
    }

    /// The `hiera.yaml` at `path`, interpreted once per run.
    pub fn config(&self, fs: &dyn FileSystem, path: &Path, ruby: RubyVersion) -> ConfigData {
        let root = path.parent().unwrap_or(Path::new("/"));
        self.config_rooted(fs, path, root, ruby)
    }

    /// The `hiera.yaml` at `path` read as if it were in `root` (a file that
    /// replaces the environment's).
    pub fn config_rooted(
        &self,
        fs: &dyn FileSystem,
        path: &Path,
        root: &Path,
        ruby: RubyVersion,
    ) -> ConfigData {
        crate::reads::note(path, crate::reads::KIND | crate::reads::CONTENT);
        let slot = {
            let mut configs = self.configs.lock().unwrap_or_else(|p| p.into_inner());
            configs
                .entry((path.to_path_buf(), root.to_path_buf(), ruby))
                .or_default()
                .clone()
        };
        slot.get_or_init(|| match self.read(fs, path, false, ruby).data? {
            Some(doc) => config::parse_rooted(path, root, &doc).map(|c| Some(Arc::new(c))),
            None => Ok(None),
        })
        .clone()
    }
}

fn read_uncached(fs: &dyn FileSystem, path: &Path, json: bool, ruby: RubyVersion) -> ReadFile {
    let read = |data| ReadFile {
        data,
        bad_bytes: false,
    };
    let bytes = match fs.read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return read(Ok(None)),
        Err(e) => return read(Err(format!("{}: {e}", path.display()))),
    };
    if json {
        return read_json(path, &bytes, ruby);
    }
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        // libyaml refuses the bytes before it reads the YAML (Psych's
        // `invalid leading UTF-8 octet at line 1 column 1`).
        Err(e) => {
            return read(Err(match puppet_model::yaml::utf8_error(e.as_bytes()) {
                Some(y) => format!("({}): {y}", path.display()),
                None => format!("{}: {e}", path.display()),
            }))
        }
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    read(
        match puppet_model::yaml::load_hiera(text).map_err(|e| ruby.yaml_error(e)) {
            // Puppet's safe_load turns an empty document into false; yaml_data
            // then treats a non-hash as empty.
            Ok(v) => Ok(Some(v)),
            Err(e) if e.names_file => Err(format!("({}): {e}", path.display())),
            Err(e) => Err(e.to_string()),
        },
    )
}

/// `json_data`: the file read as UTF-8 that need not be (Ruby keeps bad
/// bytes; inside a string they are text, elsewhere a token json cannot
/// read), a byte order mark included, and parsed by `ruby`'s json.
fn read_json(path: &Path, bytes: &[u8], ruby: RubyVersion) -> ReadFile {
    let text = puppet_model::bad_bytes::decode(bytes);
    let data = puppet_model::ruby::json_parse::parse(&text, ruby)
        .map(Some)
        .map_err(|e| {
            // Puppet cannot log a message holding bad bytes; they are
            // written as Ruby's `inspect` writes them.
            let message = puppet_model::bad_bytes::escape(e.message());
            format!("({}): {message}", path.display())
        });
    ReadFile {
        data,
        bad_bytes: matches!(text, std::borrow::Cow::Owned(_)),
    }
}
