//! Parsed templates by path, shared by every node of a run (on the
//! environment): each template file is read and parsed once.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use super::{parse, ErbError, Template};

/// A template file's parse: the template, or the read or syntax error.
pub type Loaded = Result<Arc<Template>, LoadError>;

#[derive(Clone, Debug)]
pub enum LoadError {
    Read(String),
    Syntax(ErbError),
}

#[derive(Default)]
pub struct Cache {
    files: Mutex<HashMap<PathBuf, Arc<OnceLock<Loaded>>>>,
}

impl Cache {
    pub fn load(&self, path: &Path) -> Loaded {
        let slot = {
            let mut files = self.files.lock().unwrap_or_else(|p| p.into_inner());
            files.entry(path.to_path_buf()).or_default().clone()
        };
        slot.get_or_init(|| {
            let bytes = std::fs::read(path).map_err(|e| LoadError::Read(e.to_string()))?;
            let text = String::from_utf8_lossy(&bytes);
            parse(&text).map(Arc::new).map_err(LoadError::Syntax)
        })
        .clone()
    }
}
