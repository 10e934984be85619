//! Tags: Puppet's `Util::Tagging#valid_tag?` (the compiler's resources
//! keep their tags in Puppet's order themselves: `eval::compiler::Res::tag`).

/// Onigmo's `[[:alnum:]]` on UTF-8: Alphabetic or a decimal digit (Nd).
/// Rust's `is_numeric` also takes the other numbers (No: `²`, `½`, `①`),
/// which Ruby rejects; the common blocks of those are excluded here.
fn is_ruby_alnum(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric();
    }
    if c.is_alphabetic() {
        return true;
    }
    c.is_numeric() && !is_other_number(c)
}

fn is_other_number(c: char) -> bool {
    matches!(c as u32,
        0xB2 | 0xB3 | 0xB9 | 0xBC..=0xBE
        | 0x09F4..=0x09F9 | 0x0BF0..=0x0BF2 | 0x0F2A..=0x0F33
        | 0x1369..=0x137C | 0x17F0..=0x17F9 | 0x2070..=0x209F
        | 0x2150..=0x215F | 0x2189 | 0x2460..=0x249B | 0x24EA..=0x24FF
        | 0x2776..=0x2793 | 0x2CFD | 0x3192..=0x3195 | 0x3220..=0x3229
        | 0x3248..=0x324F | 0x3251..=0x325F | 0x3280..=0x3289
        | 0x32B1..=0x32BF | 0xA830..=0xA835 | 0x1F100..=0x1F10C)
}

/// Puppet's `valid_tag?`: `\A[[:alnum:]_][[:alnum:]_:.-]*\Z`. Ruby's `\Z`
/// also matches before one final newline, so `"web\n"` is a valid tag.
pub fn valid_tag(tag: &str) -> bool {
    let body = tag.strip_suffix('\n').unwrap_or(tag);
    // Every resource's title is checked; most are ASCII, where Ruby's
    // `[[:alnum:]]` is ASCII's.
    if body.is_ascii() {
        let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
        return body.as_bytes().first().is_some_and(|&b| word(b))
            && body
                .bytes()
                .all(|b| word(b) || matches!(b, b':' | b'.' | b'-'));
    }
    let mut chars = body.chars();
    match chars.next() {
        Some(c) if c == '_' || is_ruby_alnum(c) => {}
        _ => return false,
    }
    chars.all(|c| matches!(c, '_' | ':' | '.' | '-') || is_ruby_alnum(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validity_matches_ruby() {
        for ok in ["a", "é", "٣", "Ⅷ", "_x", "x\n", "a::b", "ß", "ª", "a.b-c:d"] {
            assert!(valid_tag(ok), "{ok:?}");
        }
        for bad in [
            "",
            "½",
            "²",
            "a\u{301}",
            "-x",
            "x\n\n",
            "a b",
            "x\u{200d}",
            "/tmp",
        ] {
            assert!(!valid_tag(bad), "{bad:?}");
        }
    }
}
