//! `SemanticPuppet::VersionRange`: npm-style range strings read into a
//! disjunction of comparator ranges (merged where they overlap), and
//! Puppet's merging and covering of ranges for `SemVer[...]` types.
//!
//! Quirks of semantic_puppet 1.0.4 kept on purpose, since Puppet prints them:
//! - `VersionRange.new(min, max, exclude)` (Puppet's `SemVerRange.new`)
//!   writes its string with the bounds swapped: `"#{max} - #{min}"` or
//!   `">=#{max} <#{min}"`; a default bound prints as `0.0.0-` or
//!   `Infinity.0.0`. Only the string is swapped, not the range.
//! - Merging two `||` alternatives that end on the same version calls an
//!   undefined method in Ruby (`exclude_end`): an error here too.
//! - `LtRange::MATCH_NOTHING` prints `<0.0.0` by identity; here every `<`
//!   of `Version::MIN` does (no other can be made from Puppet code).

use std::cmp::Ordering;
use std::fmt;

use super::{is_nr, is_parts, number, parse_build, parse_prerelease, Major, ParseError, Version};

/// One matcher of a range (`AbstractRange` and its subclasses).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Part {
    All,
    /// Two bounds, neither a `MinMax` itself.
    MinMax(Box<Part>, Box<Part>),
    Gt(Version),
    GtEq(Version),
    Lt(Version),
    LtEq(Version),
    Eq(Version),
}

/// A range: its matchers (any may match) and the string it was made from.
#[derive(Clone, Debug)]
pub struct VersionRange {
    pub ranges: Vec<Part>,
    pub string: String,
}

/// `eql?`: the matchers, not the strings (`'1.x' == '>=1.0.0 <2.0.0'`).
impl PartialEq for VersionRange {
    fn eq(&self, other: &VersionRange) -> bool {
        self.ranges == other.ranges
    }
}

impl Eq for VersionRange {}

impl std::hash::Hash for VersionRange {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.ranges.hash(state);
    }
}

fn lt(a: &Version, b: &Version) -> Ordering {
    a.cmp_ruby(b)
}

impl Part {
    /// `MinMaxRange.new`: a `MinMax` bound contributes its own bound.
    fn min_max(min: Part, max: Part) -> Part {
        let min = match min {
            Part::MinMax(m, _) => *m,
            other => other,
        };
        let max = match max {
            Part::MinMax(_, m) => *m,
            other => other,
        };
        Part::MinMax(Box::new(min), Box::new(max))
    }

    /// `MinMaxRange.create`: the intersection of all; `Err` where Ruby
    /// calls `intersection` on the `nil` an empty one left.
    fn create(parts: Vec<Part>) -> Result<Option<Part>, ParseError> {
        let mut it = parts.into_iter();
        let Some(memo) = it.next() else {
            return Ok(None);
        };
        let mut memo = Some(memo);
        for p in it {
            let Some(m) = memo else {
                return Err(NIL_INTERSECTION.into());
            };
            memo = m.intersection(&p);
        }
        Ok(memo)
    }

    pub fn begin(&self) -> Version {
        match self {
            Part::MinMax(min, _) => min.begin(),
            Part::Gt(v) | Part::GtEq(v) | Part::Eq(v) => v.clone(),
            Part::All | Part::Lt(_) | Part::LtEq(_) => Version::min(),
        }
    }

    pub fn end(&self) -> Version {
        match self {
            Part::MinMax(_, max) => max.end(),
            Part::Lt(v) | Part::LtEq(v) | Part::Eq(v) => v.clone(),
            Part::All | Part::Gt(_) | Part::GtEq(_) => Version::max(),
        }
    }

    pub fn exclude_begin(&self) -> bool {
        match self {
            Part::MinMax(min, _) => min.exclude_begin(),
            Part::Gt(_) => true,
            _ => false,
        }
    }

    pub fn exclude_end(&self) -> bool {
        match self {
            Part::MinMax(_, max) => max.exclude_end(),
            Part::Lt(_) => true,
            _ => false,
        }
    }

    fn lower_bound(&self) -> bool {
        match self {
            Part::MinMax(min, _) => min.lower_bound(),
            Part::Gt(_) => true,
            Part::GtEq(v) | Part::Eq(v) => !v.is_min(),
            _ => false,
        }
    }

    fn upper_bound(&self) -> bool {
        match self {
            Part::MinMax(_, max) => max.upper_bound(),
            Part::Lt(_) => true,
            Part::LtEq(v) | Part::Eq(v) => *v != Version::max(),
            _ => false,
        }
    }

    pub fn includes(&self, v: &Version) -> bool {
        match self {
            Part::All => true,
            Part::MinMax(a, b) => a.includes(v) && b.includes(v),
            Part::Gt(x) => lt(v, x) == Ordering::Greater,
            Part::GtEq(x) => lt(v, x) != Ordering::Less,
            Part::Lt(x) => lt(v, x) == Ordering::Less,
            Part::LtEq(x) => lt(v, x) != Ordering::Greater,
            Part::Eq(x) => v == x,
        }
    }

    /// Does this matcher accept pre-releases of `v`'s major.minor.patch?
    fn test_prerelease(&self, v: &Version) -> bool {
        match self {
            Part::All => true,
            Part::MinMax(a, b) => a.test_prerelease(v) || b.test_prerelease(v),
            Part::Gt(x) | Part::GtEq(x) | Part::Lt(x) | Part::LtEq(x) | Part::Eq(x) => {
                !x.is_stable() && x.same_triple(v)
            }
        }
    }

    /// `AbstractRange#intersection` (`AllRange` gives the other range).
    fn intersection(&self, range: &Part) -> Option<Part> {
        if *self == Part::All {
            return Some(range.clone());
        }
        match lt(&self.begin(), &range.end()) {
            Ordering::Greater => return None,
            Ordering::Equal => {
                return if self.exclude_begin() || range.exclude_end() {
                    None
                } else {
                    Some(Part::Eq(self.begin()))
                };
            }
            Ordering::Less => {}
        }
        match lt(&range.begin(), &self.end()) {
            Ordering::Greater => return None,
            Ordering::Equal => {
                return if range.exclude_begin() || self.exclude_end() {
                    None
                } else {
                    Some(Part::Eq(range.begin()))
                };
            }
            Ordering::Less => {}
        }
        let min = match lt(&self.begin(), &range.begin()) {
            Ordering::Less => range,
            Ordering::Greater => self,
            Ordering::Equal if self.exclude_begin() => self,
            Ordering::Equal => range,
        };
        let max = match lt(&self.end(), &range.end()) {
            Ordering::Greater => range,
            Ordering::Less => self,
            Ordering::Equal if self.exclude_end() => self,
            Ordering::Equal => range,
        };
        Some(if !max.upper_bound() {
            min.clone()
        } else if !min.lower_bound() {
            max.clone()
        } else {
            Part::min_max(min.clone(), max.clone())
        })
    }

    /// `AbstractRange#merge`: one matcher for two that overlap or touch.
    fn merge(&self, other: &Part) -> Result<Option<Part>, ParseError> {
        if *self == Part::All {
            return Ok(Some(Part::All));
        }
        let (sb, se, ob, oe) = (self.begin(), self.end(), other.begin(), other.end());
        if self.includes(&ob) || other.includes(&sb) {
            let (min, excl_begin) = match lt(&sb, &ob) {
                Ordering::Less => (sb, self.exclude_begin()),
                Ordering::Greater => (ob, other.exclude_begin()),
                Ordering::Equal => (sb, self.exclude_begin() && other.exclude_begin()),
            };
            let (max, excl_end) = match lt(&se, &oe) {
                Ordering::Greater => (se, self.exclude_end()),
                Ordering::Less => (oe, other.exclude_end()),
                // Ruby: `exclude_end && ...` names no method.
                Ordering::Equal => return Err(self.no_exclude_end()),
            };
            let lo = if excl_begin {
                Part::Gt(min)
            } else {
                Part::GtEq(min)
            };
            let hi = if excl_end {
                Part::Lt(max)
            } else {
                Part::LtEq(max)
            };
            return Part::create(vec![lo, hi]);
        }
        if self.exclude_end() && !other.exclude_begin() && se == ob {
            return from_to(self, other);
        }
        if other.exclude_end() && !self.exclude_begin() && oe == sb {
            return from_to(other, self);
        }
        if !self.exclude_end() && !other.exclude_begin() && se.next_patch() == ob {
            return from_to(self, other);
        }
        if !other.exclude_end() && !self.exclude_begin() && oe.next_patch() == sb {
            return from_to(other, self);
        }
        Ok(None)
    }
}

/// Ruby's errors (with `error_highlight`'s snippet) where semantic_puppet
/// calls what does not exist.
const NIL_INTERSECTION: &str = "undefined method `intersection' for nil:NilClass\n\n        \
    ranges.reduce { |memo, range| memo.intersection(range) }\n                                          \
    ^^^^^^^^^^^^^";
const ALL_SINGLETON: &str = "undefined method `SINGLETON' for SemanticPuppet::VersionRange::AllRange:Class\n\n      \
    return AllRange.SINGLETON unless major\n                     ^^^^^^^^^^\nDid you mean?  singleton_class";

impl Part {
    /// Ruby's class of the matcher.
    fn class_name(&self) -> &'static str {
        match self {
            Part::All => "AllRange",
            Part::MinMax(..) => "MinMaxRange",
            Part::Gt(_) => "GtRange",
            Part::GtEq(_) => "GtEqRange",
            Part::Lt(_) => "LtRange",
            Part::LtEq(_) => "LtEqRange",
            Part::Eq(_) => "EqRange",
        }
    }

    /// The NameError of `merge` for two matchers ending together. Ruby
    /// names the receiver by `inspect`: a MinMaxRange's is its string, the
    /// others' carry an object address (all zeros here).
    fn no_exclude_end(&self) -> String {
        let cls = self.class_name();
        let who = match self {
            Part::MinMax(..) => format!("{self}:SemanticPuppet::VersionRange::{cls}"),
            Part::Gt(v) | Part::GtEq(v) | Part::Lt(v) | Part::LtEq(v) | Part::Eq(v) => {
                format!("#<SemanticPuppet::VersionRange::{cls}:0x0000000000000000 @version={v}>")
            }
            Part::All => format!("#<SemanticPuppet::VersionRange::{cls}:0x0000000000000000>"),
        };
        format!(
            "undefined local variable or method `exclude_end' for {who}\n\n            \
             excl_end = exclude_end && other.exclude_end?\n                       ^^^^^^^^^^^\n\
             Did you mean?  exclude_end?\n               excl_end"
        )
    }
}

fn from_to(a: &Part, b: &Part) -> Result<Option<Part>, ParseError> {
    let lo = if a.exclude_begin() {
        Part::Gt(a.begin())
    } else {
        Part::GtEq(a.begin())
    };
    let hi = if b.exclude_end() {
        Part::Lt(b.end())
    } else {
        Part::LtEq(b.end())
    };
    Part::create(vec![lo, hi])
}

impl fmt::Display for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Part::All => f.write_str("*"),
            Part::MinMax(a, b) => write!(f, "{a} {b}"),
            Part::Gt(v) => write!(f, ">{v}"),
            Part::GtEq(v) => write!(f, ">={v}"),
            Part::Lt(v) if v.is_min() => f.write_str("<0.0.0"),
            Part::Lt(v) => write!(f, "<{v}"),
            Part::LtEq(v) => write!(f, "<={v}"),
            Part::Eq(v) => write!(f, "{v}"),
        }
    }
}

impl fmt::Display for VersionRange {
    /// `to_s`: the string it was made from.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.string)
    }
}

/// A partial version (`PARTIAL_EXPR`): major, minor, patch as written
/// (`x`, `X`, `*` or a number), pre-release and build.
struct Partial<'a> {
    xr: [Option<&'a str>; 3],
    pre: Option<&'a str>,
    build: Option<&'a str>,
}

fn is_xr(s: &str) -> bool {
    matches!(s, "x" | "X" | "*") || is_nr(s)
}

/// `\A XR (\. XR (\. XR QUALIFIER)?)? \z`.
fn parse_partial(s: &str) -> Option<Partial<'_>> {
    // The qualifier can only follow a third part; `-` and `+` appear in no XR.
    let cut = s.find(['-', '+']).unwrap_or(s.len());
    let (nums, qual) = s.split_at(cut);
    let parts: Vec<&str> = nums.split('.').collect();
    if parts.len() > 3 || !parts.iter().all(|p| is_xr(p)) {
        return None;
    }
    if !qual.is_empty() && parts.len() != 3 {
        return None;
    }
    let (pre, build) = if qual.is_empty() {
        (None, None)
    } else {
        let (pre_part, build) = match qual.find('+') {
            Some(i) => (&qual[..i], Some(&qual[i + 1..])),
            None => (qual, None),
        };
        let pre = match pre_part.strip_prefix('-') {
            Some(p) => Some(p),
            None if pre_part.is_empty() => None,
            None => return None,
        };
        if pre.is_some_and(|p| !is_parts(p)) || build.is_some_and(|b| !is_parts(b)) {
            return None;
        }
        (pre, build)
    };
    Some(Partial {
        xr: [
            parts.first().copied(),
            parts.get(1).copied(),
            parts.get(2).copied(),
        ],
        pre,
        build,
    })
}

/// `digit`: a number, or `None` for an absent part or a wildcard.
fn digit(s: Option<&str>) -> Result<Option<u64>, ParseError> {
    match s {
        None | Some("x" | "X" | "*") => Ok(None),
        Some(n) => number(n).map(Some),
    }
}

fn plus1(n: u64) -> Result<u64, ParseError> {
    n.checked_add(1)
        .ok_or_else(|| format!("pverify does not support version numbers past {n}"))
}

fn full(maj: u64, min: u64, pat: u64, p: &Partial<'_>) -> Result<Version, ParseError> {
    Ok(Version {
        major: Major::Int(maj),
        minor: min,
        patch: pat,
        pre: parse_prerelease(p.pre)?,
        build: parse_build(p.build),
    })
}

fn between(lo: Version, hi: Version) -> Part {
    Part::MinMax(Box::new(Part::GtEq(lo)), Box::new(Part::Lt(hi)))
}

/// `allow_patch_updates` (tilde, and with `tilde_or_caret` false, x-ranges).
fn allow_patch_updates(p: &Partial<'_>, tilde_or_caret: bool) -> Result<Part, ParseError> {
    let Some(major) = digit(p.xr[0])? else {
        return Ok(Part::All);
    };
    let Some(minor) = digit(p.xr[1])? else {
        return Ok(between(
            Version::new(major, 0, 0),
            Version::new(plus1(major)?, 0, 0),
        ));
    };
    let Some(patch) = digit(p.xr[2])? else {
        return Ok(between(
            Version::new(major, minor, 0),
            Version::new(major, plus1(minor)?, 0),
        ));
    };
    let v = full(major, minor, patch, p)?;
    if !tilde_or_caret {
        return Ok(Part::Eq(v));
    }
    Ok(between(v, Version::new(major, plus1(minor)?, 0)))
}

/// `allow_minor_updates` (caret above major 0; a wildcard major reaches
/// Ruby's `AllRange.SINGLETON`, which is no method).
fn allow_minor_updates(major: Option<u64>, p: &Partial<'_>) -> Result<Part, ParseError> {
    let Some(major) = major else {
        return Err(ALL_SINGLETON.into());
    };
    let next = Version::new(plus1(major)?, 0, 0);
    let Some(minor) = digit(p.xr[1])? else {
        return Ok(between(Version::new(major, 0, 0), next));
    };
    match digit(p.xr[2])? {
        None => Ok(between(Version::new(major, minor, 0), next)),
        Some(patch) if p.pre.is_none() => Ok(between(Version::new(major, minor, patch), next)),
        Some(patch) => Ok(between(full(major, minor, patch, p)?, next)),
    }
}

/// `parse_version`: wildcards as 0.
fn parse_version(p: &Partial<'_>) -> Result<Version, ParseError> {
    let n = |s| digit(s).map(|d| d.unwrap_or(0));
    full(n(p.xr[0])?, n(p.xr[1])?, n(p.xr[2])?, p)
}

fn parse_gt(p: &Partial<'_>) -> Result<Part, ParseError> {
    let Some(major) = digit(p.xr[0])? else {
        return Ok(Part::Lt(Version::min()));
    };
    let Some(minor) = digit(p.xr[1])? else {
        return Ok(Part::GtEq(Version::new(plus1(major)?, 0, 0)));
    };
    let Some(patch) = digit(p.xr[2])? else {
        return Ok(Part::GtEq(Version::new(major, plus1(minor)?, 0)));
    };
    Ok(Part::Gt(full(major, minor, patch, p)?))
}

fn parse_lteq(p: &Partial<'_>) -> Result<Part, ParseError> {
    let Some(major) = digit(p.xr[0])? else {
        return Err(ALL_SINGLETON.into());
    };
    let Some(minor) = digit(p.xr[1])? else {
        return Ok(Part::Lt(Version::new(plus1(major)?, 0, 0)));
    };
    let Some(patch) = digit(p.xr[2])? else {
        return Ok(Part::Lt(Version::new(major, plus1(minor)?, 0)));
    };
    Ok(Part::LtEq(full(major, minor, patch, p)?))
}

/// Ruby's `\s`.
fn is_ws(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\x0b' | '\x0c' | '\r')
}

/// `gsub(/([><=~^])(?:\s+|\s*v)/, '\1')`: no space (or one `v`) after an
/// operator character.
fn squeeze_operators(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        out.push(c);
        if !matches!(c, '>' | '<' | '=' | '~' | '^') {
            continue;
        }
        if chars.peek().is_some_and(|&n| is_ws(n)) {
            while chars.peek().is_some_and(|&n| is_ws(n)) {
                chars.next();
            }
        } else if chars.peek() == Some(&'v') {
            chars.next();
        }
    }
    out
}

/// Ruby's `split` by a separator finder: empty fields kept but trailing
/// ones dropped.
fn ruby_split(s: &str, next_sep: impl Fn(&str) -> Option<(usize, usize)>) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = s;
    while let Some((start, end)) = next_sep(rest) {
        out.push(&rest[..start]);
        rest = &rest[end..];
    }
    out.push(rest);
    while out.last().is_some_and(|f| f.is_empty()) {
        out.pop();
    }
    out
}

/// `/\s*\|\|\s*/`.
fn find_or(s: &str) -> Option<(usize, usize)> {
    let i = s.find("||")?;
    let start = s[..i].trim_end_matches(is_ws).len();
    let end = i + 2 + (s[i + 2..].len() - s[i + 2..].trim_start_matches(is_ws).len());
    Some((start, end))
}

/// `/\s+/`.
fn find_ws(s: &str) -> Option<(usize, usize)> {
    let i = s.find(is_ws)?;
    let len = s[i..].len() - s[i..].trim_start_matches(is_ws).len();
    Some((i, i + len))
}

/// `HYPHEN_EXPR`: `PARTIAL \s+ - \s+ PARTIAL`, whole.
fn hyphen(range: &str) -> Option<(Partial<'_>, Partial<'_>)> {
    let (s, e) = find_ws(range)?;
    let a = parse_partial(&range[..s])?;
    let rest = range[e..].strip_prefix('-')?;
    let (s2, e2) = find_ws(rest)?;
    if s2 != 0 {
        return None;
    }
    let b = parse_partial(&rest[e2..])?;
    Some((a, b))
}

/// `SIMPLE_EXPR`: an optional operator and a partial version; the operators
/// are tried as the regex's alternation does.
fn simple(s: &str) -> Option<(&str, Partial<'_>)> {
    for op in ["<", ">", "=", "~", "^", "<=", ">=", "~>", "~="] {
        if let Some(p) = s.strip_prefix(op).and_then(parse_partial) {
            return Some((op, p));
        }
    }
    parse_partial(s).map(|p| ("", p))
}

impl VersionRange {
    /// `VersionRange.parse`.
    pub fn parse(range_string: &str) -> Result<VersionRange, ParseError> {
        let range_set = squeeze_operators(range_string);
        let alternatives = ruby_split(&range_set, find_or);
        if alternatives.is_empty() {
            return Ok(VersionRange {
                ranges: vec![Part::All],
                string: "*".into(),
            });
        }
        let mut parts: Vec<Option<Part>> = Vec::new();
        for range in alternatives {
            let part = if let Some((a, b)) = hyphen(range) {
                Part::create(vec![
                    Part::GtEq(parse_version(&a)?),
                    Part::LtEq(parse_version(&b)?),
                ])?
            } else {
                let mut simples = Vec::new();
                for s in ruby_split(range, find_ws) {
                    let Some((op, operand)) = simple(s) else {
                        return Err(format!("Unparsable version range: \"{range_string}\""));
                    };
                    simples.push(match op {
                        "~" | "~>" | "~=" => allow_patch_updates(&operand, true)?,
                        "^" => match digit(operand.xr[0])? {
                            Some(0) => allow_patch_updates(&operand, true)?,
                            major => allow_minor_updates(major, &operand)?,
                        },
                        ">" => parse_gt(&operand)?,
                        ">=" => Part::GtEq(parse_version(&operand)?),
                        "<" => Part::Lt(parse_version(&operand)?),
                        "<=" => parse_lteq(&operand)?,
                        _ => allow_patch_updates(&operand, false)?,
                    });
                }
                if simples.len() == 1 {
                    simples.pop()
                } else {
                    Part::create(simples)?
                }
            };
            // `uniq`
            if !parts.contains(&part) {
                parts.push(part);
            }
        }
        Self::from_parts(parts, Some(range_string.to_string()))
    }

    /// `VersionRange.new(ranges, string)`: the matchers merged where they
    /// overlap; none left matches nothing.
    fn from_parts(parts: Vec<Option<Part>>, string: Option<String>) -> Result<Self, ParseError> {
        let mut ranges: Vec<Part> = parts.into_iter().flatten().collect();
        let mut merge_happened = true;
        while ranges.len() > 1 && merge_happened {
            merge_happened = false;
            let mut result = Vec::new();
            while let Some(x) = ranges.pop() {
                let mut unmerged = Vec::new();
                let mut memo = x;
                for y in ranges {
                    match memo.merge(&y)? {
                        Some(m) => {
                            merge_happened = true;
                            memo = m;
                        }
                        None => unmerged.push(y),
                    }
                }
                result.push(memo);
                ranges = unmerged;
            }
            result.reverse();
            ranges = result;
        }
        if ranges.is_empty() {
            ranges.push(Part::Lt(Version::min()));
        }
        let string = string.unwrap_or_else(|| join(&ranges));
        Ok(VersionRange { ranges, string })
    }

    /// `VersionRange.new(min, max, exclude_max)` (its swapped string kept).
    pub fn from_bounds(min: Version, max: Version, exclude: bool) -> VersionRange {
        let string = if exclude {
            format!(">={max} <{min}")
        } else {
            format!("{max} - {min}")
        };
        let hi = if exclude {
            Part::Lt(max)
        } else {
            Part::LtEq(max)
        };
        let part = Part::create(vec![Part::GtEq(min), hi]).unwrap_or(None);
        Self::from_parts(vec![part], Some(string)).unwrap_or_else(|_| VersionRange {
            ranges: vec![Part::Lt(Version::min())],
            string: String::new(),
        })
    }

    /// `inspect`: the matchers (`>=1.0.0 <2.0.0` for `1.x`).
    pub fn inspect(&self) -> String {
        join(&self.ranges)
    }

    /// `include?`: a pre-release only where a matcher names its triple.
    pub fn includes(&self, v: &Version) -> bool {
        self.ranges
            .iter()
            .any(|r| r.includes(v) && (v.is_stable() || r.test_prerelease(v)))
    }

    /// `begin`, `end`, `exclude_end?`: `None` for several matchers.
    pub fn begin(&self) -> Option<Version> {
        match self.ranges.as_slice() {
            [r] => Some(r.begin()),
            _ => None,
        }
    }

    pub fn end(&self) -> Option<Version> {
        match self.ranges.as_slice() {
            [r] => Some(r.end()),
            _ => None,
        }
    }

    pub fn exclude_end(&self) -> bool {
        matches!(self.ranges.as_slice(), [r] if r.exclude_end())
    }

    /// `PSemVerRangeType.covered_by?(self, b)`: is every version of this
    /// range in `b`? (Ruby fails on ranges with several matchers; false here.)
    pub fn covered_by(&self, b: &VersionRange) -> bool {
        let (Some(ab), Some(ae), Some(bb), Some(be)) =
            (self.begin(), self.end(), b.begin(), b.end())
        else {
            return false;
        };
        lt(&bb, &ab) != Ordering::Greater
            && (lt(&be, &ae) == Ordering::Greater
                || be == ae && (!b.exclude_end() || self.exclude_end()))
    }

    /// `PSemVerRangeType.merge(a, b)`: one range for two that overlap or
    /// touch (its string from `from_bounds`, swapped).
    pub fn merge(a: &VersionRange, b: &VersionRange) -> Option<VersionRange> {
        let (ab, ae, bb, be) = (a.begin()?, a.end()?, b.begin()?, b.end()?);
        if a.includes(&bb) || b.includes(&ab) {
            let max = if lt(&be, &ae) == Ordering::Greater {
                be.clone()
            } else {
                ae.clone()
            };
            let mut exclude_end = false;
            if a.exclude_end() {
                exclude_end = max == ae && (lt(&max, &be) == Ordering::Greater || b.exclude_end());
            } else if b.exclude_end() {
                exclude_end = max == be && (lt(&max, &ae) == Ordering::Greater || a.exclude_end());
            }
            let min = if lt(&bb, &ab) == Ordering::Less {
                bb
            } else {
                ab
            };
            Some(VersionRange::from_bounds(min, max, exclude_end))
        } else if a.exclude_end() && ae == bb {
            Some(VersionRange::from_bounds(ab, be, b.exclude_end()))
        } else if b.exclude_end() && be == ab {
            Some(VersionRange::from_bounds(bb, ae, a.exclude_end()))
        } else {
            None
        }
    }

    /// `PSemVerType#merge_ranges`, for `SemVer[r1, r2, ...]`.
    pub fn merge_all(mut ranges: Vec<VersionRange>) -> Vec<VersionRange> {
        if ranges.len() < 2 {
            return ranges;
        }
        let mut result = Vec::new();
        while let Some(x) = ranges.pop() {
            let mut unmerged = Vec::new();
            let mut memo = x;
            for y in ranges {
                match VersionRange::merge(&memo, &y) {
                    Some(m) => memo = m,
                    None => unmerged.push(y),
                }
            }
            result.push(memo);
            ranges = unmerged;
        }
        result.reverse();
        result
    }
}

fn join(parts: &[Part]) -> String {
    parts
        .iter()
        .map(|p| p.to_string())
        .collect::<Vec<_>>()
        .join(" || ")
}
