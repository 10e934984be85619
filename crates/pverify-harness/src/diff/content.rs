//! File content for the comparison: [`crate::file_content`], shared with
//! `check` (which compares the text behind `source` against its goldens).

pub use crate::file_content::*;
