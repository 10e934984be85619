//! Parsed Ruby files by path, shared by every node of a run (on the
//! environment): each ERB template or Ruby function file is read and parsed
//! once.

use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard};

use crate::files::FileSystem;
use puppet_syntax::util::PathSlots;

use super::function_file::{FunctionFile, RubyLib};
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
    /// Files that were not UTF-8 (their bad bytes read as
    /// `crate::bad_bytes` stand-ins, as Ruby keeps them as they are).
    invalid_utf8: std::sync::Mutex<Vec<std::path::PathBuf>>,
}

impl<T> ParseCache<T> {
    fn with_parser(parse: fn(&str) -> Result<T, ErbError>) -> Self {
        ParseCache {
            files: PathSlots::default(),
            parse,
            invalid_utf8: Default::default(),
        }
    }

    pub fn load(&self, fs: &dyn FileSystem, path: &Path) -> Loaded<T> {
        crate::reads::note(path, crate::reads::KIND | crate::reads::CONTENT);
        let (_, slot) = self.files.slot(path);
        slot.get_or_init(|| {
            let bytes = fs.read(path).map_err(|e| LoadError::Read(e.to_string()))?;
            let text = crate::bad_bytes::decode(&bytes);
            if matches!(text, std::borrow::Cow::Owned(_)) {
                self.invalid_utf8
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .push(path.to_path_buf());
            }
            (self.parse)(&text).map(Arc::new).map_err(LoadError::Syntax)
        })
        .clone()
    }

    /// Whether the file at `path`, once loaded, was not UTF-8.
    pub fn invalid_utf8(&self, path: &Path) -> bool {
        self.invalid_utf8
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .iter()
            .any(|p| p == path)
    }
}

/// ERB templates.
pub type Cache = ParseCache<Template>;

impl Default for ParseCache<Template> {
    fn default() -> Self {
        ParseCache::with_parser(parse)
    }
}

/// Ruby function files (`lib/puppet/functions`, `lib/puppet/parser/functions`).
pub type FunctionCache = ParseCache<FunctionFile>;

impl Default for ParseCache<FunctionFile> {
    fn default() -> Self {
        ParseCache::with_parser(FunctionFile::parse)
    }
}

/// Ruby files of modules' `lib` that code `require`s.
pub type LibCache = ParseCache<RubyLib>;

impl Default for ParseCache<RubyLib> {
    fn default() -> Self {
        ParseCache::with_parser(RubyLib::parse)
    }
}

/// Inline templates (`inline_template(text)`) by their text, parsed once per
/// run: the text is nearly always a constant of the manifest, the same for
/// every node (a control-repo node parsed three of them on every compile).
#[derive(Default)]
pub struct InlineCache {
    texts: Mutex<InlineTexts>,
}

/// Inline templates' trees (or parse errors) by text.
type InlineTexts = rustc_hash::FxHashMap<Box<str>, Result<Arc<Template>, ErbError>>;

/// Texts kept at most: a manifest that builds its template text per node
/// (interpolating a fact into it) gets a new text on every node, and those
/// are parsed as they come once the cache is full rather than grow it.
const INLINE_TEXTS: usize = 4096;

impl InlineCache {
    pub fn parse(&self, text: &str) -> Result<Arc<Template>, ErbError> {
        if let Some(parsed) = self.texts().get(text) {
            return parsed.clone();
        }
        // Parsed outside the lock; two nodes parsing the same text at once
        // make the same tree, and the first one kept is used from then on.
        let parsed = parse(text).map(Arc::new);
        let mut texts = self.texts();
        if texts.len() < INLINE_TEXTS {
            return texts.entry(text.into()).or_insert(parsed).clone();
        }
        parsed
    }

    fn texts(&self) -> MutexGuard<'_, InlineTexts> {
        self.texts.lock().unwrap_or_else(|p| p.into_inner())
    }
}
