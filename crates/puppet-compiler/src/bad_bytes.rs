//! Bad bytes in text (see `puppet_model::bad_bytes`), and the binary Ruby
//! Strings a template or a Ruby function makes of them.

use std::borrow::Cow;
use std::cell::RefCell;
use std::sync::Arc;

use puppet_model::Value;

pub use puppet_model::bad_bytes::{decode, holds_bad_byte, is_stand_in};

/// Ruby's ArgumentError when it changes the case of text holding bad bytes
/// (`String#upcase`, `downcase`, `capitalize`; Puppet's `in` on strings).
pub const INPUT_STRING_INVALID: &str = "input string invalid";

thread_local! {
    /// Whether the node compiling on this thread made text of a binary Ruby
    /// String that is not UTF-8 ([`binary_text`]).
    static BINARY_NOTED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// The binary Ruby Strings Ruby functions handed back to the node
    /// compiling on this thread ([`binary_string`]).
    static BINARY_STRINGS: RefCell<BinaryStrings> = RefCell::new(BinaryStrings::default());
    /// Whether `BINARY_STRINGS` holds any: one read answers the common
    /// case (none) for every string and interpolation.
    static ANY_BINARY_STRING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Strings that are binary Ruby Strings (ASCII-8BIT) to Puppet 8, known by
/// the identity of their text: Puppet passes such a String on as it is (a
/// variable, a parameter, an array), and its catalog writes it as a Binary;
/// what Puppet makes anew from it (interpolation, a function's answer) is
/// text again unless its bytes are not UTF-8 (those keep their stand-ins,
/// which the catalog check finds). Each is kept alive so that no other text
/// comes to live at its address.
#[derive(Default, Debug)]
pub struct BinaryStrings {
    /// Each text by its address, held so the address stays its own.
    by_address: rustc_hash::FxHashMap<usize, Arc<str>>,
    /// Whether every text holding stand-ins is binary too (the node read
    /// no file that is not UTF-8; `compile::check_invalid_utf8`).
    pub stand_ins: bool,
}

impl BinaryStrings {
    /// Whether `s` is one of them (free while there are none).
    pub fn contains(&self, s: &Arc<str>) -> bool {
        !self.by_address.is_empty() && self.by_address.contains_key(&address(s))
    }

    /// Whether Puppet 8 writes `s` as a Binary.
    pub fn writes_as_binary(&self, s: &Arc<str>) -> bool {
        self.contains(s) || (self.stand_ins && holds_bad_byte(s))
    }
}

fn address(s: &Arc<str>) -> usize {
    Arc::as_ptr(s).cast::<u8>() as usize
}

/// A binary Ruby String's bytes as a String Puppet 8 knows to be binary
/// ([`BinaryStrings`]); its bad bytes as stand-ins, as [`binary_text`].
pub fn binary_string(bytes: &[u8]) -> Value {
    mark_binary(Arc::from(binary_text(bytes).as_ref()))
}

/// `text` as a String Puppet 8 knows to be binary.
pub fn mark_binary(text: Arc<str>) -> Value {
    BINARY_STRINGS.with(|b| {
        b.borrow_mut()
            .by_address
            .insert(address(&text), text.clone())
    });
    ANY_BINARY_STRING.with(|a| a.set(true));
    Value::String(text)
}

/// Whether `s` came from [`binary_string`] in this node's compile.
pub fn is_binary_string(s: &Arc<str>) -> bool {
    ANY_BINARY_STRING.with(|a| a.get()) && BINARY_STRINGS.with(|b| b.borrow().contains(s))
}

/// `text`, which Ruby made from `receiver` (a slice, a part, a substitution,
/// a case change), in the receiver's encoding: from a binary String it is
/// binary too (Puppet 8 writes it as a Binary).
pub fn in_encoding_of(receiver: &Arc<str>, text: impl Into<Arc<str>>) -> Value {
    if is_binary_string(receiver) {
        mark_binary(text.into())
    } else {
        Value::String(text.into())
    }
}

/// [`in_encoding_of`] for a receiver that may not be a String (text then).
pub fn in_encoding_of_value(receiver: &Value, text: impl Into<Arc<str>>) -> Value {
    match receiver {
        Value::String(r) => in_encoding_of(r, text),
        _ => Value::String(text.into()),
    }
}

/// `parts`, strings Ruby cut from `receiver`, each in the receiver's
/// encoding ([`in_encoding_of`]); untouched unless the receiver is binary.
pub fn parts_in_encoding_of(receiver: &Arc<str>, parts: Vec<Value>) -> Vec<Value> {
    if !is_binary_string(receiver) {
        return parts;
    }
    parts
        .into_iter()
        .map(|p| match &p {
            Value::String(t) => mark_binary(t.clone()),
            _ => p,
        })
        .collect()
}

/// This thread's binary Strings, cleared for the next compile.
pub fn take_binary_strings() -> BinaryStrings {
    ANY_BINARY_STRING.with(|a| a.set(false));
    BINARY_STRINGS.with(|b| std::mem::take(&mut *b.borrow_mut()))
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

/// Whether [`binary_text`] met bad bytes in this node's compile so far.
pub fn binary_noted() -> bool {
    BINARY_NOTED.with(|n| n.get())
}

/// Ruby's refusal to append a binary String that is not ASCII to UTF-8
/// text that is not.
pub const UTF8_THEN_BINARY: &str = "incompatible character encodings: UTF-8 and ASCII-8BIT";
/// Ruby's refusal to append UTF-8 text that is not ASCII to a binary String.
pub const BINARY_THEN_UTF8: &str = "incompatible character encodings: ASCII-8BIT and UTF-8";

/// Ruby's encoding of a String made by appending pieces (interpolation's
/// `join`; `_erbout <<`), as far as Ruby's checks need it: binary (a binary
/// String's, ASCII-8BIT) or UTF-8, and whether it is all ASCII yet.
/// Appending ASCII keeps the encoding; ASCII text takes the encoding of the
/// first non-ASCII piece; after that a piece of the other encoding that is
/// not ASCII is refused (`incompatible character encodings`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Appended {
    binary: bool,
    ascii: bool,
    /// Nothing appended yet: the first piece gives its encoding (`join`).
    empty: bool,
}

impl Appended {
    /// A `join`'s result, whose first piece gives it its encoding.
    pub const JOINED: Appended = Appended {
        binary: false,
        ascii: true,
        empty: true,
    };

    /// The encoding after appending `piece`, binary when `binary` says so
    /// or when it holds stand-ins, or Ruby's refusal.
    pub fn then(self, piece: &str, binary: bool) -> Result<Appended, &'static str> {
        let ascii = piece.is_ascii();
        let binary = binary || (!ascii && holds_bad_byte(piece));
        if self.empty || (self.ascii && !ascii) {
            return Ok(Appended {
                binary,
                ascii,
                empty: false,
            });
        }
        if ascii || self.binary == binary {
            return Ok(self);
        }
        Err(if self.binary {
            BINARY_THEN_UTF8
        } else {
            UTF8_THEN_BINARY
        })
    }

    /// Whether the result is a binary String.
    pub fn is_binary(self) -> bool {
        self.binary
    }
}

/// Whether a binary String was made in this node's compile so far
/// ([`binary_text`] met bad bytes, or [`binary_string`] was called).
pub fn binary_made() -> bool {
    binary_noted() || ANY_BINARY_STRING.with(|a| a.get())
}

/// Whether [`binary_text`] met bad bytes since the last call, on this
/// thread (a compile starts by asking, which clears it).
pub fn take_binary_noted() -> bool {
    BINARY_NOTED.with(|n| n.replace(false))
}
