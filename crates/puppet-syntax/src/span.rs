//! Byte-offset spans and the line index that turns them into Puppet's line and
//! column (columns count characters, not bytes, as Puppet's locator does).

use serde::Serialize;

/// A half-open byte range `start..end` into one source file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span {
            start: start as u32,
            end: end as u32,
        }
    }

    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
}

impl chumsky::span::Span for Span {
    type Context = ();
    type Offset = u32;

    fn new(_: (), range: std::ops::Range<u32>) -> Span {
        Span {
            start: range.start,
            end: range.end,
        }
    }
    fn context(&self) {}
    fn start(&self) -> u32 {
        self.start
    }
    fn end(&self) -> u32 {
        self.end
    }
}

/// Line starts of a source text, for line/column look-ups on demand.
#[derive(Clone, Debug)]
pub struct LineIndex {
    line_starts: Vec<usize>,
}

impl LineIndex {
    pub fn new(text: &[u8]) -> LineIndex {
        let mut line_starts = vec![0];
        line_starts.extend(
            text.iter()
                .enumerate()
                .filter(|(_, b)| **b == b'\n')
                .map(|(i, _)| i + 1),
        );
        LineIndex { line_starts }
    }

    /// 1-based line of a byte offset (no column: a binary search alone).
    pub fn line(&self, offset: usize) -> u32 {
        match self.line_starts.binary_search(&offset) {
            Ok(i) => i as u32 + 1,
            Err(i) => i as u32,
        }
    }

    /// 1-based line and 1-based character column of a byte offset.
    pub fn line_col(&self, text: &[u8], offset: usize) -> (u32, u32) {
        let offset = offset.min(text.len());
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.line_starts[line];
        // Count characters: every byte that is not a UTF-8 continuation byte
        // (in ASCII, every byte: checked word by word, this runs for every
        // function call and resource).
        let before = &text[start..offset];
        let col = if before.is_ascii() {
            before.len()
        } else {
            before.iter().filter(|b| (**b & 0xC0) != 0x80).count()
        };
        (line as u32 + 1, col as u32 + 1)
    }
}
