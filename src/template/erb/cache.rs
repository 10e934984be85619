//! Parsed Ruby files by path, shared by every node of a run (on the
//! environment): each ERB template or Ruby function file is read and parsed
//! once.

use std::path::Path;
use std::sync::Arc;

use crate::util::PathSlots;

use super::function_file::FunctionFile;
use super::{parse, ErbError, Template};

/// A file's parse: the parsed file, or the read or syntax error.
pub type Loaded<T = Template> = Result<Arc<T>, LoadError>;

#[derive(Clone, Debug)]
pub enum LoadError {
    Read(String),
    Syntax(ErbError),
}

/// Files of one kind, parsed by `parse` on first use.
pub struct ParseCache<T> {
    files: PathSlots<Loaded<T>>,
    parse: fn(&str) -> Result<T, ErbError>,
}

impl<T> ParseCache<T> {
    pub fn load(&self, path: &Path) -> Loaded<T> {
        let (_, slot) = self.files.slot(path);
        slot.get_or_init(|| {
            let bytes = std::fs::read(path).map_err(|e| LoadError::Read(e.to_string()))?;
            let text = String::from_utf8_lossy(&bytes);
            (self.parse)(&text).map(Arc::new).map_err(LoadError::Syntax)
        })
        .clone()
    }
}

/// ERB templates.
pub type Cache = ParseCache<Template>;

impl Default for ParseCache<Template> {
    fn default() -> Self {
        ParseCache {
            files: PathSlots::default(),
            parse,
        }
    }
}

/// Ruby function files (`lib/puppet/functions`, `lib/puppet/parser/functions`).
pub type FunctionCache = ParseCache<FunctionFile>;

impl Default for ParseCache<FunctionFile> {
    fn default() -> Self {
        ParseCache {
            files: PathSlots::default(),
            parse: FunctionFile::parse,
        }
    }
}
