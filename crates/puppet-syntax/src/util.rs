//! Small helpers for Puppet names and per-file slots, shared by every crate.

use std::path::{Path, PathBuf};

/// String helpers for Puppet names.
pub trait NameStr {
    /// Without leading `::` (the top-scope prefix). `trim_start_matches("::")`
    /// builds a substring searcher on every call, which showed in profiles
    /// of name lookups.
    fn trim_colons(&self) -> &str;
    /// `rsplit_once("::")` without building a substring searcher: the
    /// parts before and after the last `::`.
    fn rsplit_colons(&self) -> Option<(&str, &str)>;
    /// `split_once("::")`, without a substring searcher.
    fn split_colons_once(&self) -> Option<(&str, &str)>;
    /// `contains("::")`, without a substring searcher.
    fn has_colons(&self) -> bool;
    /// `split("::")`, without a substring searcher.
    fn split_colons(&self) -> ColonSplit<'_>;
    /// `to_lowercase()`, borrowed when the name is lower-case ASCII already
    /// (most names are: this saves a copy per lookup).
    fn lowercase(&self) -> std::borrow::Cow<'_, str>;
}

impl NameStr for str {
    fn trim_colons(&self) -> &str {
        let mut s = self;
        while let Some(rest) = s.strip_prefix("::") {
            s = rest;
        }
        s
    }

    fn rsplit_colons(&self) -> Option<(&str, &str)> {
        let b = self.as_bytes();
        if !has_colon_byte(b) {
            return None;
        }
        let at = (0..b.len().saturating_sub(1))
            .rev()
            .find(|&i| b[i] == b':' && b[i + 1] == b':')?;
        // Both sides split at ASCII bytes: char boundaries.
        Some((&self[..at], &self[at + 2..]))
    }

    fn has_colons(&self) -> bool {
        first_colons(self).is_some()
    }

    fn split_colons_once(&self) -> Option<(&str, &str)> {
        let at = first_colons(self)?;
        // Both sides split at ASCII bytes: char boundaries.
        Some((&self[..at], &self[at + 2..]))
    }

    fn split_colons(&self) -> ColonSplit<'_> {
        ColonSplit { rest: Some(self) }
    }

    fn lowercase(&self) -> std::borrow::Cow<'_, str> {
        if self
            .bytes()
            .all(|b| b.is_ascii() && !b.is_ascii_uppercase())
        {
            std::borrow::Cow::Borrowed(self)
        } else {
            std::borrow::Cow::Owned(self.to_lowercase())
        }
    }
}

/// Where the first `::` starts.
fn first_colons(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    if !has_colon_byte(b) {
        return None;
    }
    (0..b.len().saturating_sub(1)).find(|&i| b[i] == b':' && b[i + 1] == b':')
}

/// Whether `b` holds a `:` at all, eight bytes at a time. Most names (local
/// variables, tags, parameters) have none, and a byte-pair scan per name
/// was a visible share of every variable lookup.
fn has_colon_byte(b: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    const COLONS: u64 = ONES * b':' as u64;
    let (words, rest) = b.as_chunks::<8>();
    // A zero byte of `w ^ COLONS` is a `:` (the classic has-zero-byte test:
    // exact, since a borrow only starts at a zero byte).
    words.iter().any(|w| {
        let x = u64::from_ne_bytes(*w) ^ COLONS;
        x.wrapping_sub(ONES) & !x & HIGHS != 0
    }) || rest.contains(&b':')
}

/// The parts of a name between `::` ([`NameStr::split_colons`]).
pub struct ColonSplit<'a> {
    rest: Option<&'a str>,
}

impl<'a> Iterator for ColonSplit<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let s = self.rest?;
        match s.split_colons_once() {
            Some((part, rest)) => {
                self.rest = Some(rest);
                Some(part)
            }
            None => {
                self.rest = None;
                Some(s)
            }
        }
    }
}

/// Values made once per file and shared by every node of a run (parsed
/// manifests, templates): a slot per file, made on first use, and the file's
/// number in the run.
///
/// Looked up by the path's bytes: std's `Path` hash walks the path component
/// by component (~600 instructions), and a node looks up every file it loads.
/// A spelling not seen before is matched by components (`a//b` is `a/b`), so
/// each file has one slot and one number whatever the spellings.
pub struct PathSlots<T> {
    map: std::sync::Mutex<SlotMap<T>>,
}

/// A file's number in a run (see [`PathSlots`]).
pub type FileNumber = u32;

type Slot<T> = (FileNumber, std::sync::Arc<std::sync::OnceLock<T>>);

struct SlotMap<T> {
    by_spelling: rustc_hash::FxHashMap<std::ffi::OsString, Slot<T>>,
    by_path: rustc_hash::FxHashMap<PathBuf, Slot<T>>,
}

impl<T> Default for PathSlots<T> {
    fn default() -> Self {
        PathSlots {
            map: std::sync::Mutex::new(SlotMap {
                by_spelling: Default::default(),
                by_path: Default::default(),
            }),
        }
    }
}

impl<T> PathSlots<T> {
    /// The file's number and slot.
    pub fn slot(&self, path: &Path) -> Slot<T> {
        let mut map = self.map.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(found) = map.by_spelling.get(path.as_os_str()) {
            return found.clone();
        }
        let next = map.by_path.len() as FileNumber;
        let found = map
            .by_path
            .entry(path.to_path_buf())
            .or_insert_with(|| (next, Default::default()))
            .clone();
        map.by_spelling
            .insert(path.as_os_str().to_owned(), found.clone());
        found
    }
}

#[cfg(test)]
mod tests {
    use super::NameStr;

    #[test]
    fn colon_helpers_agree_with_std() {
        for s in [
            "",
            ":",
            "::",
            ":::",
            "a",
            "a::b",
            "a:::b",
            "::a::b::c",
            "a::",
            "::a",
            "é::ü",
            "a:b",
            ":::",
            "a:::b",
            "a::::b",
        ] {
            assert_eq!(s.rsplit_colons(), s.rsplit_once("::"), "{s:?}");
            assert_eq!(s.has_colons(), s.contains("::"), "{s:?}");
            assert_eq!(s.split_colons_once(), s.split_once("::"), "{s:?}");
            assert_eq!(s.trim_colons(), s.trim_start_matches("::"), "{s:?}");
            let ours: Vec<&str> = s.split_colons().collect();
            let std: Vec<&str> = s.split("::").collect();
            assert_eq!(ours, std, "{s:?}");
        }
        for s in ["", "abc", "Abc", "a::B", "É", "ß", "straße", "ǅ"] {
            assert_eq!(s.lowercase(), s.to_lowercase(), "{s:?}");
        }
    }

    #[test]
    fn colon_scans_agree_with_std_at_every_position() {
        // Colons (single and paired) at every position of names up to 20
        // bytes, among ASCII, multi-byte and `:`-adjacent bytes (`9`, `;`),
        // across the eight-byte words of the scan.
        for fill in ['a', '9', ';', 'é', '\u{ff}'] {
            for len in 0..20 {
                let base: String = std::iter::repeat_n(fill, len).collect();
                for pos in 0..=len {
                    for ins in [":", "::", ":::"] {
                        let mut s: String = base.chars().take(pos).collect();
                        s.push_str(ins);
                        s.extend(base.chars().skip(pos));
                        assert_eq!(s.rsplit_colons(), s.rsplit_once("::"), "{s:?}");
                        assert_eq!(s.has_colons(), s.contains("::"), "{s:?}");
                        assert_eq!(s.split_colons_once(), s.split_once("::"), "{s:?}");
                    }
                }
                assert!(!base.has_colons() && base.rsplit_colons().is_none());
            }
        }
    }
}
