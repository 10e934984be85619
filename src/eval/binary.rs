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

fn sextet(c: u8, alphabet: &[u8; 64]) -> Option<u32> {
    alphabet.iter().position(|a| *a == c).map(|p| p as u32)
}

/// Decodes padded base64 in `alphabet`; `None` when it is not that.
fn decode_strictly(s: &str, alphabet: &[u8; 64]) -> Option<Vec<u8>> {
    let b = s.as_bytes();
    if !b.len().is_multiple_of(4) {
        return None;
    }
    let mut out = Vec::with_capacity(b.len() / 4 * 3);
    for (ci, chunk) in b.chunks(4).enumerate() {
        let last = ci == b.len() / 4 - 1;
        let pad = chunk.iter().rev().take_while(|c| **c == b'=').count();
        if pad > 2 || (pad > 0 && !last) {
            return None;
        }
        let mut n = 0u32;
        for (i, c) in chunk.iter().enumerate() {
            let v = if i >= 4 - pad {
                0
            } else {
                sextet(*c, alphabet)?
            };
            n = (n << 6) | v;
        }
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&bytes[..3 - pad]);
    }
    Some(out)
}

/// `Base64.strict_decode64`: Ruby's `ArgumentError` text on bad input.
pub fn strict_decode(s: &str) -> Result<Vec<u8>, String> {
    decode_strictly(s, STD).ok_or_else(|| "invalid base64".to_string())
}

/// `Base64.urlsafe_decode64`: padding may be left out.
pub fn urlsafe_decode(s: &str) -> Result<Vec<u8>, String> {
    let mut padded = s.to_string();
    if !s.ends_with('=') && !s.len().is_multiple_of(4) {
        padded.push_str(&"=".repeat(4 - s.len() % 4));
    }
    decode_strictly(&padded, URL).ok_or_else(|| "invalid base64".to_string())
}

/// `Base64.decode64` (`unpack1('m')`): lenient, skips what is not base64,
/// stops at padding.
pub fn relaxed_decode(s: &str) -> Vec<u8> {
    let mut out = Vec::new();
    let mut acc = 0u32;
    let mut bits = 0;
    for c in s.bytes() {
        if c == b'=' {
            break;
        }
        let Some(v) = sextet(c, STD) else {
            continue;
        };
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
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
}
