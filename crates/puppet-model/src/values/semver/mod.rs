//! Puppet's SemVer and SemVerRange values: the `semantic_puppet` gem's
//! `Version` and `VersionRange` (1.0.4, as Puppet 7.23 ships it), with its
//! parsing, ordering, equality and string forms, quirks included (see
//! `range.rs`).
//!
//! Ruby's `Version` has two equalities: `<=>` ignores the build metadata
//! (ordering, `compare`, `sort`), `==`/`eql?` does not (Puppet's `==`, hash
//! keys, `unique`). The derived `PartialEq`/`Hash` here are the latter;
//! [`Version::cmp_ruby`] is the former.

pub mod range;

use std::cmp::Ordering;
use std::fmt;

pub use range::VersionRange;

/// A major version: `Version::MAX` has `Float::INFINITY` as its major, which
/// sorts above every integer and prints as `Infinity`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Major {
    Int(u64),
    Infinity,
}

/// A pre-release identifier: parsed numeric ones are Integers (they compare
/// numerically, below any string); everything else is a String. `new`'s
/// arguments give one String identifier as it is (`'alpha.01'`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ident {
    Num(u64),
    Str(String),
}

impl fmt::Display for Ident {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ident::Num(n) => write!(f, "{n}"),
            Ident::Str(s) => f.write_str(s),
        }
    }
}

/// `SemanticPuppet::Version`. `pre`/`build` are `None` when absent; an empty
/// pre-release list (only `Version::MIN` has one) is still a pre-release.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Version {
    pub major: Major,
    pub minor: u64,
    pub patch: u64,
    pub pre: Option<Vec<Ident>>,
    pub build: Option<Vec<String>>,
}

/// `Version::ValidationFailure` texts, and this crate's own limit.
pub type ParseError = String;

impl Version {
    pub fn new(major: u64, minor: u64, patch: u64) -> Version {
        Version {
            major: Major::Int(major),
            minor,
            patch,
            pre: None,
            build: None,
        }
    }

    /// `Version::MIN`: 0.0.0 with an empty pre-release (printed `0.0.0-`).
    pub fn min() -> Version {
        Version {
            pre: Some(Vec::new()),
            ..Version::new(0, 0, 0)
        }
    }

    /// `Version::MAX`: Infinity.0.0.
    pub fn max() -> Version {
        Version {
            major: Major::Infinity,
            ..Version::new(0, 0, 0)
        }
    }

    pub fn is_min(&self) -> bool {
        *self == Version::min()
    }

    /// `Version.parse`: `REGEX_FULL` (anchored `\A...\Z`, so one final
    /// newline is allowed), numeric pre-release identifiers without leading
    /// zeros.
    pub fn parse(s: &str) -> Result<Version, ParseError> {
        let unable = || format!("Unable to parse '{s}' as a semantic version identifier");
        let body = s.strip_suffix('\n').unwrap_or(s);
        let (core, build) = match body.split_once('+') {
            Some((c, b)) => (c, Some(b)),
            None => (body, None),
        };
        let (nums, pre) = match core.split_once('-') {
            Some((n, p)) => (n, Some(p)),
            None => (core, None),
        };
        let mut parts = nums.split('.');
        let (Some(a), Some(b), Some(c), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(unable());
        };
        if !(is_nr(a) && is_nr(b) && is_nr(c))
            || pre.is_some_and(|p| !is_parts(p))
            || build.is_some_and(|p| !is_parts(p))
        {
            return Err(unable());
        }
        Ok(Version {
            major: Major::Int(number(a)?),
            minor: number(b)?,
            patch: number(c)?,
            pre: parse_prerelease(pre)?,
            build: parse_build(build),
        })
    }

    pub fn is_stable(&self) -> bool {
        self.pre.as_ref().is_none_or(|p| p.is_empty())
    }

    /// `next(:patch)`, used when merging adjacent ranges.
    pub fn next_patch(&self) -> Version {
        Version {
            patch: self.patch.saturating_add(1),
            pre: None,
            build: None,
            ..self.clone()
        }
    }

    /// Ruby's `<=>`: major, minor, patch, then the pre-release; the build
    /// does not count.
    pub fn cmp_ruby(&self, other: &Version) -> Ordering {
        self.major
            .cmp(&other.major)
            .then(self.minor.cmp(&other.minor))
            .then(self.patch.cmp(&other.patch))
            .then_with(|| compare_prerelease(&self.pre, &other.pre))
    }

    pub fn same_triple(&self, other: &Version) -> bool {
        self.major == other.major && self.minor == other.minor && self.patch == other.patch
    }
}

/// `compare_prerelease`: a release is above its pre-releases; identifiers
/// compare pairwise (Integers below Strings), then the longer list wins.
fn compare_prerelease(mine: &Option<Vec<Ident>>, yours: &Option<Vec<Ident>>) -> Ordering {
    match (mine, yours) {
        (None, None) => Ordering::Equal,
        (None, Some(_)) => Ordering::Greater,
        (Some(_), None) => Ordering::Less,
        (Some(a), Some(b)) => {
            for (x, y) in a.iter().zip(b.iter()) {
                let c = match (x, y) {
                    (Ident::Num(x), Ident::Num(y)) => x.cmp(y),
                    (Ident::Num(_), Ident::Str(_)) => Ordering::Less,
                    (Ident::Str(_), Ident::Num(_)) => Ordering::Greater,
                    (Ident::Str(x), Ident::Str(y)) => x.as_bytes().cmp(y.as_bytes()),
                };
                if c != Ordering::Equal {
                    return c;
                }
            }
            a.len().cmp(&b.len())
        }
    }
}

impl fmt::Display for Version {
    /// `to_s` (also `inspect`): an empty pre-release list still prints its `-`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.major {
            Major::Int(m) => write!(f, "{m}")?,
            Major::Infinity => f.write_str("Infinity")?,
        }
        write!(f, ".{}.{}", self.minor, self.patch)?;
        if let Some(pre) = &self.pre {
            f.write_str("-")?;
            for (i, p) in pre.iter().enumerate() {
                if i > 0 {
                    f.write_str(".")?;
                }
                write!(f, "{p}")?;
            }
        }
        if let Some(build) = &self.build {
            f.write_str("+")?;
            f.write_str(&build.join("."))?;
        }
        Ok(())
    }
}

/// `0|[1-9]\d*`.
pub(crate) fn is_nr(s: &str) -> bool {
    match s.as_bytes() {
        [b'0'] => true,
        [first, rest @ ..] => (b'1'..=b'9').contains(first) && rest.iter().all(u8::is_ascii_digit),
        [] => false,
    }
}

/// `[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*`.
pub(crate) fn is_parts(s: &str) -> bool {
    s.split('.')
        .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'))
}

/// A version number; Ruby has no limit, pverify stops at 64 bits.
pub(crate) fn number(s: &str) -> Result<u64, ParseError> {
    s.parse::<u64>()
        .map_err(|_| format!("pverify does not support version numbers as large as {s}"))
}

/// `parse_prerelease`.
pub(crate) fn parse_prerelease(pre: Option<&str>) -> Result<Option<Vec<Ident>>, ParseError> {
    let Some(pre) = pre else { return Ok(None) };
    let mut out = Vec::new();
    for x in pre.split('.') {
        if !x.is_empty() && x.bytes().all(|b| b.is_ascii_digit()) {
            if x.len() > 1 && x.starts_with('0') {
                return Err(
                    "Numeric pre-release identifiers MUST NOT contain leading zeroes".into(),
                );
            }
            out.push(Ident::Num(number(x)?));
        } else {
            out.push(Ident::Str(x.to_string()));
        }
    }
    Ok(Some(out))
}

/// `parse_build`.
pub(crate) fn parse_build(build: Option<&str>) -> Option<Vec<String>> {
    build.map(|b| b.split('.').map(str::to_string).collect())
}

/// Puppet's `match` of `left` against a SemVer or SemVerRange `pattern`
/// (`case`/selector options, `=~` with a range, `in`): a version equal to
/// the SemVer (a string parsed first), or in the range; `None` when the
/// pattern is neither.
pub fn pattern_match(pattern: &crate::values::Value, left: &crate::values::Value) -> Option<bool> {
    use crate::values::Value;
    let version = |v: &Value| match v {
        Value::SemVer(x) => Some((**x).clone()),
        // A string that is no version matches nothing.
        Value::String(s) => Version::parse(s).ok(),
        _ => None,
    };
    match pattern {
        Value::SemVer(p) => Some(version(left).is_some_and(|v| v == **p)),
        Value::SemVerRange(r) => Some(version(left).is_some_and(|v| r.includes(&v))),
        _ => None,
    }
}
