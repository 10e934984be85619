//! libyaml's reader: the bytes of a YAML document must be UTF-8 (Psych
//! hands Puppet's data file to libyaml as it is). libyaml decodes the input
//! before scanning it and names the first bad sequence by what is wrong with
//! it; the error has no place of its own, so Psych reports it `at line 1
//! column 1` wherever the bytes lie (Puppet 7.23 and 8.10:
//! `Unable to parse (FILE): invalid leading UTF-8 octet at line 1 column 1`).

use super::YamlError;

/// libyaml's reader error for `bytes`, or `None` when they are UTF-8.
pub fn utf8_error(bytes: &[u8]) -> Option<YamlError> {
    let bad_at = std::str::from_utf8(bytes).err()?.valid_up_to();
    Some(YamlError {
        message: problem(&bytes[bad_at..]).to_string(),
        line: 1,
        column: 1,
        names_file: true,
        bad_alias: None,
    })
}

/// libyaml's words (`yaml_parser_update_buffer`) for the sequence that
/// starts `rest`, known not to be UTF-8.
fn problem(rest: &[u8]) -> &'static str {
    let lead = rest[0];
    let width = match lead {
        _ if lead & 0xE0 == 0xC0 => 2,
        _ if lead & 0xF0 == 0xE0 => 3,
        _ if lead & 0xF8 == 0xF0 => 4,
        _ => return "invalid leading UTF-8 octet",
    };
    if rest.len() < width {
        // Cut short by the end of the input: libyaml says so before it
        // looks at the octets it has.
        return "incomplete UTF-8 octet sequence";
    }
    let mut value = u32::from(lead & (0xFF >> (width + 1)));
    for &b in &rest[1..width] {
        if b & 0xC0 != 0x80 {
            return "invalid trailing UTF-8 octet";
        }
        value = (value << 6) | u32::from(b & 0x3F);
    }
    let shortest = match width {
        2 => value >= 0x80,
        3 => value >= 0x800,
        _ => value >= 0x1_0000,
    };
    if !shortest {
        return "invalid length of a UTF-8 sequence";
    }
    "invalid Unicode character"
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each text is Psych's (Ruby 3.1 and 3.3) for the same bytes.
    #[test]
    fn names_the_problem_as_libyaml() {
        for (bytes, expected) in [
            (&b"k: \"a\xffb\"\n"[..], "invalid leading UTF-8 octet"),
            (b"k: \"a\xc3(b\"\n", "invalid trailing UTF-8 octet"),
            (b"k: a\xe2\x82", "incomplete UTF-8 octet sequence"),
            (b"k: \"a\xc0\x80\"\n", "invalid length of a UTF-8 sequence"),
            (b"k: \"a\xed\xa0\x80\"\n", "invalid Unicode character"),
            (b"a: 1\nb: 2\nc: \xff\n", "invalid leading UTF-8 octet"),
        ] {
            let e = utf8_error(bytes).expect("not UTF-8");
            assert_eq!(e.to_string(), format!("{expected} at line 1 column 1"));
        }
        assert_eq!(utf8_error("k: \u{fffd}\n".as_bytes()), None);
    }
}
