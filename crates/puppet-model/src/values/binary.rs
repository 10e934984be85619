//! Puppet's Binary values (`Binary.new`, `binary_file`): bytes, written as
//! Ruby's `Base64` writes them. Strict base64 is their string form
//! (`String($b)`, interpolation, the catalog); `%b` is Ruby's `encode64`
//! (RFC 2045 lines of 60 characters), `%u` the URL-safe alphabet.

const STD: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const URL: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

fn encode_with(bytes: &[u8], alphabet: &[u8; 64]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(alphabet[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// `Base64.strict_encode64`.
pub fn strict_encode(bytes: &[u8]) -> String {
    encode_with(bytes, STD)
}

/// `Base64.encode64`: lines of 60 characters, each ending in a newline.
pub fn relaxed_encode(bytes: &[u8]) -> String {
    let s = encode_with(bytes, STD);
    let mut out = String::with_capacity(s.len() + s.len() / 60 + 1);
    for line in s.as_bytes().chunks(60) {
        out.push_str(std::str::from_utf8(line).unwrap_or_default());
        out.push('\n');
    }
    out
}

/// `Base64.urlsafe_encode64` (padded).
pub fn urlsafe_encode(bytes: &[u8]) -> String {
    encode_with(bytes, URL)
}

/// `Base64.urlsafe_encode64(bytes, padding: false)`.
pub fn urlsafe_encode_unpadded(bytes: &[u8]) -> String {
    let mut s = encode_with(bytes, URL);
    while s.ends_with('=') {
        s.pop();
    }
    s
}

fn sextet(c: u8) -> Option<u32> {
    STD.iter().position(|a| *a == c).map(|p| p as u32)
}

/// `Base64.strict_decode64` (`unpack1('m0')`, Ruby's pack.c): groups of
/// four, padding only at the end, no bits left over; Ruby's
/// `ArgumentError` text on anything else.
pub fn strict_decode(s: &str) -> Result<Vec<u8>, String> {
    strict_decode_bytes(s.as_bytes())
}

fn strict_decode_bytes(s: &[u8]) -> Result<Vec<u8>, String> {
    let bad = || "invalid base64".to_string();
    let mut out = Vec::with_capacity(s.len() / 4 * 3);
    let (mut a, mut b, mut c, mut d) = (None, None, None, None);
    let mut i = 0;
    let at = |i: usize| s.get(i).copied();
    while i < s.len() {
        (c, d) = (None, None);
        a = sextet(s[i]);
        i += 1;
        if i >= s.len() || a.is_none() {
            return Err(bad());
        }
        b = sextet(s[i]);
        i += 1;
        if i >= s.len() || b.is_none() {
            return Err(bad());
        }
        if at(i) == Some(b'=') {
            if i + 2 == s.len() && at(i + 1) == Some(b'=') {
                break;
            }
            return Err(bad());
        }
        c = sextet(s[i]);
        i += 1;
        if i >= s.len() || c.is_none() {
            return Err(bad());
        }
        if i + 1 == s.len() && at(i) == Some(b'=') {
            break;
        }
        d = sextet(s[i]);
        i += 1;
        let (Some(a), Some(b), Some(c), Some(d)) = (a, b, c, d) else {
            return Err(bad());
        };
        out.extend_from_slice(&[
            ((a << 2) | (b >> 4)) as u8,
            ((b << 4) | (c >> 2)) as u8,
            ((c << 6) | d) as u8,
        ]);
    }
    match (a, b, c, d) {
        (Some(a), Some(b), None, _) => {
            out.push(((a << 2) | (b >> 4)) as u8);
            if b & 0xf != 0 {
                return Err(bad());
            }
        }
        (Some(a), Some(b), Some(c), None) => {
            out.push(((a << 2) | (b >> 4)) as u8);
            out.push(((b << 4) | (c >> 2)) as u8);
            if c & 0x3 != 0 {
                return Err(bad());
            }
        }
        _ => {}
    }
    Ok(out)
}

/// `Base64.urlsafe_decode64`: padding may be left out (it is added when
/// the text does not end in `=`), `-_` read as `+/`, then strict.
pub fn urlsafe_decode(s: &str) -> Result<Vec<u8>, String> {
    let mut t: Vec<u8> = s
        .bytes()
        .map(|c| match c {
            b'-' => b'+',
            b'_' => b'/',
            c => c,
        })
        .collect();
    if !s.ends_with('=') && !s.chars().count().is_multiple_of(4) {
        // Ruby pads the String to a multiple of 4 characters.
        let n = s.chars().count();
        t.extend(std::iter::repeat_n(b'=', n.next_multiple_of(4) - n));
    }
    strict_decode_bytes(&t)
}

/// `Base64.decode64` (`unpack1('m')`, Ruby's pack.c): lenient, skips
/// what is not base64 (a `=` too, before a group's first two
/// characters), stops at a `=` after them; a last partial group gives
/// what its characters hold.
pub fn relaxed_decode(s: &str) -> Vec<u8> {
    let s = s.as_bytes();
    let mut out = Vec::with_capacity(s.len() / 4 * 3);
    let mut i = 0;
    // The next sextet at or after `i`, skipping others; `stop_at_pad`:
    // a `=` ends the search (and the text).
    let next = |i: &mut usize, stop_at_pad: bool| -> Option<u32> {
        while *i < s.len() {
            if let Some(v) = sextet(s[*i]) {
                return Some(v);
            }
            if stop_at_pad && s[*i] == b'=' {
                return None;
            }
            *i += 1;
        }
        None
    };
    let mut a: Option<u32>;
    let (mut b, mut c) = (None, None);
    loop {
        a = next(&mut i, false);
        if a.is_none() {
            break;
        }
        i += 1;
        b = next(&mut i, false);
        if b.is_none() {
            break;
        }
        i += 1;
        c = next(&mut i, true);
        if c.is_none() {
            break;
        }
        i += 1;
        let Some(d) = next(&mut i, true) else {
            break;
        };
        i += 1;
        let (a, b, c) = (a.unwrap_or(0), b.unwrap_or(0), c.unwrap_or(0));
        out.extend_from_slice(&[
            ((a << 2) | (b >> 4)) as u8,
            ((b << 4) | (c >> 2)) as u8,
            ((c << 6) | d) as u8,
        ]);
    }
    if let (Some(a), Some(b)) = (a, b) {
        out.push(((a << 2) | (b >> 4)) as u8);
        if let Some(c) = c {
            out.push(((b << 4) | (c >> 2)) as u8);
        }
    }
    out
}

/// `Binary.new(str, format)` (`%B` when none is given).
pub fn from_string(s: &str, format: Option<&str>) -> Result<Vec<u8>, String> {
    match format.unwrap_or("%B") {
        "%b" => {
            // Puppet pads to a multiple of 3 (sic), then decode64.
            let padded = format!("{s}{}", "=".repeat(s.len() % 3));
            Ok(relaxed_decode(&padded))
        }
        "%u" => urlsafe_decode(s),
        "%B" => strict_decode(s),
        "%s" | "%r" => Ok(s.as_bytes().to_vec()),
        other => Err(format!("Unsupported Base64 format '{other}'")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_as_ruby_base64() {
        assert_eq!(strict_encode(b"hello"), "aGVsbG8=");
        assert_eq!(strict_encode(b"abc\n"), "YWJjCg==");
        assert_eq!(strict_decode("aGVsbG8=").unwrap(), b"hello");
        assert!(strict_decode("aGVsbG8").is_err());
        assert_eq!(from_string("aGVsbG8", Some("%b")).unwrap(), b"hello");
        assert_eq!(urlsafe_encode(&[0xfb, 0xff]), "-_8=");
        assert_eq!(urlsafe_decode("-_8").unwrap(), vec![0xfb, 0xff]);
        assert_eq!(relaxed_encode(&[0u8; 50]).lines().next().unwrap().len(), 60);
    }

    /// Checked against Ruby 3.1's `Base64`.
    #[test]
    fn decodes_as_ruby_pack_m() {
        assert_eq!(relaxed_decode("=QUJD"), b"ABC");
        assert_eq!(relaxed_decode("QQ==QUJD"), b"A");
        assert_eq!(relaxed_decode("QUJ"), b"AB");
        assert_eq!(relaxed_decode("Q"), b"");
        assert_eq!(relaxed_decode("QU=J"), b"A");
        assert_eq!(relaxed_decode("aGVs\nbG8=\n"), b"hello");
        assert_eq!(relaxed_decode("a*G!V s b G 8"), b"hello");
        assert!(strict_decode("QR==").is_err());
        assert!(strict_decode("QQ=").is_err());
        assert!(strict_decode("QQ").is_err());
        assert_eq!(strict_decode("").unwrap(), b"");
        assert_eq!(strict_decode("QUI=").unwrap(), b"AB");
        assert!(strict_decode("QUJ=").is_err());
        assert_eq!(urlsafe_decode("+/+/").unwrap(), vec![0xfb, 0xff, 0xbf]);
        assert_eq!(urlsafe_decode("QQ").unwrap(), b"A");
        assert_eq!(urlsafe_encode_unpadded(&[0xff, 0xfe]), "__4");
    }
}
