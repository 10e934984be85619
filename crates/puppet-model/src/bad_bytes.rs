//! Text read from a file that is not UTF-8 (`file()`, an ERB template, a
//! Hiera JSON file).
//!
//! Ruby keeps such a file's bytes as they are: the String counts one
//! character per bad byte, and only writing it fails (the catalog's JSON:
//! `source sequence is illegal/malformed utf-8`). pverify's strings are
//! UTF-8, so each bad byte is decoded where the file is read as a character
//! standing for that byte alone: U+10FF00 plus the byte, in the private use
//! area of plane 16, which no text of a catalog means. Lengths stay Ruby's,
//! and the compiler's catalog check finds exactly the text that came
//! from bad bytes; a U+FFFD the file really holds is text like any other.

use std::borrow::Cow;

/// The character a bad byte `b` (0x80 to 0xFF) is decoded as: `BASE + b`.
const BASE: u32 = 0x10_FF00;

/// `bytes` as text: borrowed when they are UTF-8, else with each byte of
/// every bad sequence as its own stand-in character.
pub fn decode(bytes: &[u8]) -> Cow<'_, str> {
    let Err(first) = std::str::from_utf8(bytes) else {
        // Checked just now.
        return Cow::Borrowed(std::str::from_utf8(bytes).unwrap_or_default());
    };
    let mut out = String::with_capacity(bytes.len() + 8);
    let mut rest = bytes;
    let mut error = Some(first);
    while let Some(e) = error {
        let (good, after) = rest.split_at(e.valid_up_to());
        out.push_str(std::str::from_utf8(good).unwrap_or_default());
        let bad_len = e.error_len().unwrap_or(after.len());
        for &b in &after[..bad_len] {
            out.push(stand_in(b));
        }
        rest = &after[bad_len..];
        error = std::str::from_utf8(rest).err();
    }
    out.push_str(std::str::from_utf8(rest).unwrap_or_default());
    Cow::Owned(out)
}

fn stand_in(b: u8) -> char {
    char::from_u32(BASE + u32::from(b)).unwrap_or(char::REPLACEMENT_CHARACTER)
}

/// Whether `s` holds a byte [`decode`] found bad.
pub fn holds_bad_byte(s: &str) -> bool {
    s.chars().any(is_stand_in)
}

/// Whether `c` stands for a bad byte.
pub fn is_stand_in(c: char) -> bool {
    (BASE + 0x80..=BASE + 0xFF).contains(&u32::from(c))
}

/// The bytes `s` was decoded from: each stand-in its byte again.
pub fn encode(s: &str) -> Cow<'_, [u8]> {
    if !holds_bad_byte(s) {
        return Cow::Borrowed(s.as_bytes());
    }
    let mut out = Vec::with_capacity(s.len());
    let mut buf = [0; 4];
    for c in s.chars() {
        match u32::from(c).checked_sub(BASE) {
            Some(b @ 0x80..=0xFF) => out.push(b as u8),
            _ => out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes()),
        }
    }
    Cow::Owned(out)
}

/// `s` with each bad byte's stand-in written `\xFF`, as Ruby's `inspect`
/// writes it: for a message that quotes such text.
pub fn escape(s: &str) -> Cow<'_, str> {
    if !holds_bad_byte(s) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match u32::from(c).checked_sub(BASE) {
            Some(b @ 0x80..=0xFF) => out.push_str(&format!("\\x{b:02X}")),
            _ => out.push(c),
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_bad_byte_is_one_character() {
        // Ruby: "x\xFFy\n".length == 4, "\xE2\x82a".length == 3.
        assert_eq!(decode(b"x\xffy\n").chars().count(), 4);
        assert_eq!(decode(b"\xe2\x82a").chars().count(), 3);
        assert_eq!(decode(b"ab\xf0\x9f\x98").chars().count(), 5);
        assert!(holds_bad_byte(&decode(b"x\xffy")));
        assert!(matches!(decode("ok \u{fffd}".as_bytes()), Cow::Borrowed(_)));
        assert!(!holds_bad_byte("ok \u{fffd}"));
        assert_eq!(decode(b"a\xc3(b"), format!("a{}(b", stand_in(0xc3)));
        assert_eq!(escape(&decode(b"a\xc3(b\xff")), "a\\xC3(b\\xFF");
        assert_eq!(
            &*encode(&decode(b"a\xc3(b\xff\xe2\x82\xac")),
            b"a\xc3(b\xff\xe2\x82\xac"
        );
    }
}
