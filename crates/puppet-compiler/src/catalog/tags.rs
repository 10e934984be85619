//! Tags: Puppet's `Util::Tagging` and `Util::TagSet`.

use std::fmt;

use puppet_model::names::ruby_split_segments;

/// An insertion-ordered set of tags, as Puppet's `TagSet` (a Ruby `Set`,
/// which keeps insertion order). Sets are small (a handful of tags), so a
/// vector with linear lookups is the fast choice.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TagSet {
    tags: Vec<String>,
}

/// A tag that fails Puppet's `valid_tag?`; the message is Puppet's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvalidTag(pub String);

impl fmt::Display for InvalidTag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Invalid tag '{}'", self.0)
    }
}

impl std::error::Error for InvalidTag {}

/// Ruby's `String#downcase` (full Unicode, character by character: no final
/// sigma rule).
pub(crate) fn ruby_downcase(s: &str) -> String {
    if s.bytes().all(|b| b.is_ascii() && !b.is_ascii_uppercase()) {
        return s.to_string();
    }
    s.chars().flat_map(char::to_lowercase).collect()
}

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

impl TagSet {
    pub fn new() -> TagSet {
        TagSet::default()
    }

    pub fn len(&self) -> usize {
        self.tags.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tags.is_empty()
    }

    pub fn contains(&self, tag: &str) -> bool {
        self.tags.iter().any(|t| t == tag)
    }

    /// Puppet's `tagged?`: is any of `tags` (compared downcased) in the set?
    pub fn tagged(&self, tags: &[&str]) -> bool {
        tags.iter().any(|t| self.contains(&ruby_downcase(t)))
    }

    pub fn iter(&self) -> impl Iterator<Item = &str> {
        self.tags.iter().map(String::as_str)
    }

    pub fn as_slice(&self) -> &[String] {
        &self.tags
    }

    /// Adds one tag as it is (no downcasing, splitting or checking); answers
    /// whether it was new. This is `Set#add?`.
    pub fn insert(&mut self, tag: &str) -> bool {
        if self.contains(tag) {
            false
        } else {
            self.tags.push(tag.to_string());
            true
        }
    }

    /// Puppet's `merge_tags_from`/`TagSet#merge`: adds every tag of `other`
    /// not yet present, in `other`'s order, without splitting or checking.
    pub fn merge(&mut self, other: &TagSet) {
        for t in &other.tags {
            self.insert(t);
        }
    }

    /// Puppet's `tag(name)`: downcases; a tag seen before changes nothing; a
    /// new one must be valid (else `Invalid tag 'x'`, and the set is left as
    /// it was) and, if it contains `::`, also adds its segments
    /// (`foo::bar` adds `foo::bar`, `foo`, `bar`, skipping those present).
    pub fn tag(&mut self, name: &str) -> Result<(), InvalidTag> {
        let name = ruby_downcase(name);
        if self.contains(&name) {
            return Ok(());
        }
        if !valid_tag(&name) {
            return Err(InvalidTag(name));
        }
        self.add_with_segments(name);
        Ok(())
    }

    /// `tag` for several names in order, stopping at the first invalid one.
    pub fn tag_all<S: AsRef<str>>(
        &mut self,
        names: impl IntoIterator<Item = S>,
    ) -> Result<(), InvalidTag> {
        for n in names {
            self.tag(n.as_ref())?;
        }
        Ok(())
    }

    /// Puppet's `tag_if_valid(name)`, used for titles: an invalid name is
    /// silently ignored; a valid one is added as `tag` adds it.
    pub fn tag_if_valid(&mut self, name: &str) {
        if !valid_tag(name) {
            return;
        }
        let name = ruby_downcase(name);
        if !self.contains(&name) {
            self.add_with_segments(name);
        }
    }

    fn add_with_segments(&mut self, name: String) {
        let qualified = name.contains("::");
        if qualified {
            let segments: Vec<String> = ruby_split_segments(&name)
                .into_iter()
                .map(str::to_string)
                .collect();
            self.tags.push(name);
            for s in segments {
                self.insert(&s);
            }
        } else {
            self.tags.push(name);
        }
    }
}

impl<'a> IntoIterator for &'a TagSet {
    type Item = &'a String;
    type IntoIter = std::slice::Iter<'a, String>;
    fn into_iter(self) -> Self::IntoIter {
        self.tags.iter()
    }
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

    #[test]
    fn tag_splits_and_dedups() {
        let mut t = TagSet::new();
        t.tag("Foo::Bar").unwrap();
        t.tag("baz").unwrap();
        t.tag("FOO").unwrap();
        t.tag("a::::b").unwrap();
        assert_eq!(
            t.as_slice(),
            ["foo::bar", "foo", "bar", "baz", "a::::b", "a", "", "b"]
        );
        assert_eq!(t.tag("bad tag"), Err(InvalidTag("bad tag".into())));
        t.tag_if_valid("Caps Title");
        t.tag_if_valid("thing_Two");
        assert_eq!(t.iter().last(), Some("thing_two"));
    }
}
