//! Bad bytes in text (see `puppet_model::bad_bytes`), and the binary Ruby
//! Strings a template or a Ruby function makes of them.

use std::borrow::Cow;

pub use puppet_model::bad_bytes::{decode, holds_bad_byte};

/// Ruby's ArgumentError when it changes the case of text holding bad bytes
/// (`String#upcase`, `downcase`, `capitalize`; Puppet's `in` on strings).
pub const INPUT_STRING_INVALID: &str = "input string invalid";

thread_local! {
    /// Whether the node compiling on this thread made text of a binary Ruby
    /// String that is not UTF-8 ([`binary_text`]).
    static BINARY_NOTED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// A binary Ruby String's bytes (`Base64.decode64`, `pack`) as text: its
/// bad bytes as stand-ins, as [`decode`] makes them, and noted so that the
/// node's catalog is checked for them (Ruby keeps the bytes; a catalog
/// holding them cannot be written, as with a file that is not UTF-8).
pub fn binary_text(bytes: &[u8]) -> Cow<'_, str> {
    let text = decode(bytes);
    if matches!(text, Cow::Owned(_)) {
        BINARY_NOTED.with(|n| n.set(true));
    }
    text
}

/// Whether [`binary_text`] met bad bytes since the last call, on this
/// thread (a compile starts by asking, which clears it).
pub fn take_binary_noted() -> bool {
    BINARY_NOTED.with(|n| n.replace(false))
}
