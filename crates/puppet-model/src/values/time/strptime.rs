//! Reading a Timestamp (Puppet's `Timestamp.parse`): Ruby's
//! `DateTime._strptime` fills a hash of fields from a string and a format,
//! and Puppet builds the time with `Time.utc` and subtracts the timezone's
//! offset. Timezones are what `_strptime`'s `%z` reads: `Z`, `UTC`,
//! numeric offsets (`+09:00`, `-0530`, `GMT+9`) and the abbreviations and
//! Windows-style names of Ruby's zone table (`zones.rs`); IANA names such as
//! `Europe/Stockholm` are not among them, and Puppet refuses them too.

use super::{days_from_civil, Nanos, NSECS_PER_SEC};

/// The fields `_strptime` found.
#[derive(Default, Debug)]
struct Fields {
    year: Option<i128>,
    mon: Option<i128>,
    mday: Option<i128>,
    hour: Option<i128>,
    min: Option<i128>,
    sec: Option<i128>,
    /// The fraction's digits as a number and their count.
    fraction: Option<(i128, u32)>,
    zone: Option<String>,
    cent: Option<i128>,
    merid: Option<i128>,
    leftover: bool,
}

const DAY_NAMES: [&str; 7] = [
    "sunday",
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
];
const MONTH_NAMES: [&str; 12] = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

struct Scan<'a> {
    s: &'a [u8],
    i: usize,
    f: Fields,
}

/// Directives that read digits: a number before one of them is read only
/// to its usual width (`%Y%m%d`).
fn numeric_next(fmt: &[u8], fi: usize) -> bool {
    match fmt.get(fi) {
        Some(c) if c.is_ascii_digit() => true,
        Some(b'%') => {
            let mut j = fi + 1;
            if matches!(fmt.get(j), Some(b'E' | b'O')) {
                j += 1;
            }
            fmt.get(j)
                .is_some_and(|c| b"CDdeFGgHIjkLlMmNQRrSsTUuVvWwXxYy0123456789".contains(c))
        }
        _ => false,
    }
}

impl Scan<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    /// Up to `width` digits, at least one.
    fn digits(&mut self, width: usize) -> Option<(i128, u32)> {
        let start = self.i;
        let mut n: i128 = 0;
        while self.i - start < width {
            match self.peek() {
                Some(c) if c.is_ascii_digit() => {
                    n = n.checked_mul(10)?.checked_add(i128::from(c - b'0'))?;
                    self.i += 1;
                }
                _ => break,
            }
        }
        (self.i > start).then_some((n, (self.i - start) as u32))
    }

    fn sign(&mut self) -> i128 {
        match self.peek() {
            Some(b'-') => {
                self.i += 1;
                -1
            }
            Some(b'+') => {
                self.i += 1;
                1
            }
            _ => 1,
        }
    }

    fn ranged(&mut self, width: usize, lo: i128, hi: i128) -> Option<i128> {
        let (n, _) = self.digits(width)?;
        (lo..=hi).contains(&n).then_some(n)
    }

    /// `%d`/`%e`/`%H`...: a leading space stands for a missing digit.
    fn spaced(&mut self, lo: i128, hi: i128) -> Option<i128> {
        if self.peek() == Some(b' ') {
            self.i += 1;
            self.ranged(1, lo, hi)
        } else {
            self.ranged(2, lo, hi)
        }
    }

    /// One of `names` (full or abbreviated to 3), case-insensitively: its index.
    fn name(&mut self, names: &[&str]) -> Option<usize> {
        let rest = &self.s[self.i..];
        for (k, n) in names.iter().enumerate() {
            for cand in [*n, &n[..3]] {
                if rest.len() >= cand.len()
                    && rest[..cand.len()].eq_ignore_ascii_case(cand.as_bytes())
                {
                    self.i += cand.len();
                    return Some(k);
                }
            }
        }
        None
    }

    fn run(&mut self, fmt: &[u8]) -> Option<()> {
        let mut fi = 0;
        while fi < fmt.len() {
            let c = fmt[fi];
            if c.is_ascii_whitespace() {
                while self.peek().is_some_and(|c| c.is_ascii_whitespace()) {
                    self.i += 1;
                }
                fi += 1;
                continue;
            }
            if c != b'%' || fi + 1 == fmt.len() {
                if self.peek() != Some(c) {
                    return None;
                }
                self.i += 1;
                fi += 1;
                continue;
            }
            fi += 1;
            let mut d = fmt[fi];
            if (d == b'E' && fmt.get(fi + 1).is_some_and(|n| b"cCxXyY".contains(n)))
                || (d == b'O'
                    && fmt
                        .get(fi + 1)
                        .is_some_and(|n| b"deHImMSuUVwWy".contains(n)))
            {
                fi += 1;
                d = fmt[fi];
            }
            let mut colons = 0;
            while d == b':' && fmt.get(fi + 1).is_some() {
                colons += 1;
                fi += 1;
                d = fmt[fi];
            }
            if colons > 0 && d != b'z' {
                return None;
            }
            fi += 1;
            let num_next = numeric_next(fmt, fi);
            match d {
                b'A' | b'a' => {
                    self.name(&DAY_NAMES)?;
                }
                b'B' | b'b' | b'h' => {
                    let m = self.name(&MONTH_NAMES)?;
                    self.f.mon = Some(m as i128 + 1);
                }
                b'C' => {
                    let s = self.sign();
                    let (n, _) = self.digits(if num_next { 2 } else { usize::MAX })?;
                    self.f.cent = Some(s * n);
                }
                b'c' => self.run(b"%a %b %e %H:%M:%S %Y")?,
                b'D' | b'x' => self.run(b"%m/%d/%y")?,
                b'd' | b'e' => self.f.mday = Some(self.spaced(1, 31)?),
                b'F' => self.run(b"%Y-%m-%d")?,
                b'H' | b'k' => self.f.hour = Some(self.spaced(0, 24)?),
                b'I' | b'l' => self.f.hour = Some(self.spaced(1, 12)?),
                b'j' => {
                    self.ranged(3, 1, 366)?;
                }
                b'L' | b'N' => {
                    let s = self.sign();
                    let w = match (num_next, d) {
                        (true, b'L') => 3,
                        (true, _) => 9,
                        _ => usize::MAX,
                    };
                    let (n, k) = self.digits(w)?;
                    self.f.fraction = Some((s * n, k));
                }
                b'M' => self.f.min = Some(self.ranged(2, 0, 59)?),
                b'm' => self.f.mon = Some(self.ranged(2, 1, 12)?),
                b'n' | b't' => self.run(b" ")?,
                b'P' | b'p' => {
                    let rest = &self.s[self.i..];
                    let mut found = None;
                    for (cand, m) in [("a.m.", 0), ("p.m.", 12), ("am", 0), ("pm", 12)] {
                        if rest.len() >= cand.len()
                            && rest[..cand.len()].eq_ignore_ascii_case(cand.as_bytes())
                        {
                            found = Some((cand.len(), m));
                            break;
                        }
                    }
                    let (len, m) = found?;
                    self.i += len;
                    self.f.merid = Some(m);
                }
                b'R' => self.run(b"%H:%M")?,
                b'r' => self.run(b"%I:%M:%S %p")?,
                b'S' => self.f.sec = Some(self.ranged(2, 0, 60)?),
                b'T' | b'X' => self.run(b"%H:%M:%S")?,
                b'U' | b'W' => {
                    self.ranged(2, 0, 53)?;
                }
                b'u' => {
                    self.ranged(1, 1, 7)?;
                }
                b'V' => {
                    self.ranged(2, 1, 53)?;
                }
                b'w' => {
                    self.ranged(1, 0, 6)?;
                }
                b'v' => self.run(b"%e-%b-%Y")?,
                b'Y' => {
                    let s = self.sign();
                    let (n, _) = self.digits(if num_next { 4 } else { usize::MAX })?;
                    self.f.year = Some(s * n);
                }
                b'y' => {
                    let n = self.ranged(2, 0, 99)?;
                    self.f.year = Some(n);
                    if self.f.cent.is_none() {
                        self.f.cent = Some(if n >= 69 { 19 } else { 20 });
                    }
                }
                b'Z' | b'z' => {
                    let rest = std::str::from_utf8(&self.s[self.i..]).ok()?;
                    let len = zone_prefix(rest)?;
                    self.f.zone = Some(rest[..len].to_string());
                    self.i += len;
                }
                b'%' => {
                    if self.peek() != Some(b'%') {
                        return None;
                    }
                    self.i += 1;
                }
                b'+' => self.run(b"%a %b %e %H:%M:%S %Z %Y")?,
                // Read, but of no use to Puppet's Time.utc: the week-based
                // year, and seconds or milliseconds since the epoch.
                b'G' | b's' | b'Q' => {
                    let _ = self.sign();
                    let w = if d == b'G' && num_next { 4 } else { usize::MAX };
                    self.digits(w)?;
                }
                b'g' => {
                    self.ranged(2, 0, 99)?;
                }
                other => {
                    // Not a directive: `%` and the character, literally.
                    if self.peek() != Some(b'%') {
                        return None;
                    }
                    self.i += 1;
                    if self.peek() != Some(other) {
                        return None;
                    }
                    self.i += 1;
                }
            }
        }
        Some(())
    }
}

/// The length of the timezone `_strptime`'s `%z` reads at the start of `s`.
fn zone_prefix(s: &str) -> Option<usize> {
    use std::sync::OnceLock;
    static RE: OnceLock<regex::Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        regex::Regex::new(
            // Ruby's `\s` and `\d` are ASCII.
            r"(?i)\A(?:(?:gmt|utc?)?[-+][0-9]+(?:[,.:][0-9]+(?::[0-9]+)?)?|[[:alpha:].[:space:]]+(?:standard|daylight)[[:space:]]+time\b|[[:alpha:]]+(?:[[:space:]]dst)?\b)",
        )
        .expect("a valid regex")
    });
    re.find(s).map(|m| m.end())
}

/// `DateTime._strptime(s, fmt)`: `None` when the format does not match.
fn strptime(s: &str, fmt: &str) -> Option<Fields> {
    let mut sc = Scan {
        s: s.as_bytes(),
        i: 0,
        f: Fields::default(),
    };
    sc.run(fmt.as_bytes())?;
    let mut f = sc.f;
    f.leftover = sc.i < s.len();
    if let Some(c) = f.cent.take() {
        f.year = f.year.map(|y| y + c * 100);
    }
    if let Some(m) = f.merid.take() {
        f.hour = f.hour.map(|h| h % 12 + m);
    }
    Some(f)
}

/// Ruby's `date_zone_to_diff`: a zone's offset in seconds east of UTC.
fn zone_to_diff(zone: &str) -> Option<i64> {
    let mut words: Vec<&str> = zone.split_ascii_whitespace().collect();
    let mut dst = false;
    let last_is = |w: &Vec<&str>, s: &str| w.len() > 1 && w[w.len() - 1].eq_ignore_ascii_case(s);
    if last_is(&words, "time") {
        let before = words[..words.len() - 1].to_vec();
        if last_is(&before, "standard") {
            words.truncate(words.len() - 2);
        } else if last_is(&before, "daylight") {
            words.truncate(words.len() - 2);
            dst = true;
        }
    } else if last_is(&words, "dst") {
        words.pop();
        dst = true;
    }
    let name = words.join(" ").to_ascii_lowercase();
    if let Some(off) = super::zones::lookup(&name) {
        return Some(off + if dst { 3600 } else { 0 });
    }
    // A numeric offset, after an optional `gmt`/`utc`.
    let mut s = zone;
    if s.len() > 3
        && s.get(..3)
            .is_some_and(|p| p.eq_ignore_ascii_case("gmt") || p.eq_ignore_ascii_case("utc"))
    {
        s = &s[3..];
    }
    let negative = match s.as_bytes().first() {
        Some(b'-') => true,
        Some(b'+') => false,
        _ => return None,
    };
    let s = &s[1..];
    let lead: String = s.chars().take_while(|c| c.is_ascii_digit()).collect();
    let after = &s[lead.len()..];
    let num = |t: &str| t.parse::<i64>().unwrap_or(0).min(1 << 40);
    let secs = if let Some(rest) = after.strip_prefix(':') {
        let min: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
        let rest = &rest[min.len()..];
        let sec = rest
            .strip_prefix(':')
            .map(|r| {
                r.chars()
                    .take_while(|c| c.is_ascii_digit())
                    .collect::<String>()
            })
            .unwrap_or_default();
        num(&lead) * 3600 + num(&min) * 60 + num(&sec)
    } else if let Some(rest) = after.strip_prefix(['.', ',']) {
        // Fractional hours (`+9.5`); Ruby keeps a Rational, whole seconds here.
        let frac: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
        let digits = frac.len().min(18) as u32;
        let f = num(&frac[..digits as usize]);
        num(&lead) * 3600 + f * 3600 / 10i64.pow(digits)
    } else if s.len() > 2 {
        // `hhmm`, `hmm`, `hhmmss`: hours take one digit when the length is odd.
        let b = s.as_bytes();
        let two = |at: usize, w: usize| -> i64 {
            b.get(at..(at + w).min(b.len()))
                .map(|d| {
                    d.iter()
                        .take_while(|c| c.is_ascii_digit())
                        .fold(0, |n, c| n * 10 + i64::from(c - b'0'))
                })
                .unwrap_or(0)
        };
        let odd = s.len() % 2;
        let h = two(0, 2 - odd);
        let m = two(2 - odd, 2);
        let sec = if s.len() >= 5 { two(4 - odd, 2) } else { 0 };
        h * 3600 + m * 60 + sec
    } else {
        num(&lead) * 3600
    };
    Some(if negative { -secs } else { secs })
}

/// Puppet's `Timestamp.utc_offset`: `current` (this machine's zone: UTC
/// here, as pverify reads no local zone) or what `%z` reads.
pub fn utc_offset(tz: &str) -> Result<i64, String> {
    if tz.eq_ignore_ascii_case("current") {
        return Ok(0);
    }
    zone_prefix(tz)
        .and_then(|len| zone_to_diff(&tz[..len]))
        .ok_or_else(|| format!("Illegal timezone '{tz}'"))
}

/// Puppet's `convert_timezone` then `localtime`: the offset a Timestamp
/// is written at, in whole minutes.
pub fn format_offset(tz: &str) -> Result<i64, String> {
    Ok(utc_offset(tz)?.div_euclid(60) * 60)
}

pub const DEFAULT_FORMATS: [&str; 10] = [
    "%FT%T.%N %Z",
    "%FT%T %Z",
    "%F %T.%N %Z",
    "%F %T %Z",
    "%F %Z",
    "%FT%T.%N",
    "%FT%T",
    "%F %T.%N",
    "%F %T",
    "%F",
];

/// `Timestamp.parse(str, format, timezone)`: `formats` is `None` for
/// Puppet's defaults, `Some((list, true))` for an array of formats.
pub fn parse_timestamp(
    s: &str,
    formats: Option<(&[String], bool)>,
    tz: Option<&str>,
) -> Result<Nanos, String> {
    let tz = tz.filter(|t| !t.is_empty());
    let has_tz = tz.is_some();
    let defaults: Vec<String> = DEFAULT_FORMATS[if has_tz { 5 } else { 0 }..]
        .iter()
        .map(|f| f.to_string())
        .collect();
    let (list, many) = formats.unwrap_or((&defaults, true));
    let fields = if many {
        list.iter()
            .filter_map(|f| strptime(s, f))
            .find(|p| !(p.leftover || (has_tz && p.zone.is_some())))
            .ok_or_else(|| {
                format!(
                    "Unable to parse '{s}' using any of the formats {}",
                    list.join(", ")
                )
            })?
    } else {
        let fmt = list.first().map(String::as_str).unwrap_or_default();
        let p = strptime(s, fmt)
            .filter(|p| !p.leftover)
            .ok_or_else(|| format!("Unable to parse '{s}' using format '{fmt}'"))?;
        if has_tz && p.zone.is_some() {
            return Err("Using a Timezone designator in format specification is mutually exclusive to providing an explicit timezone argument".into());
        }
        p
    };
    let zone = tz.map(String::from).or_else(|| fields.zone.clone());
    let Some(year) = fields.year else {
        return Err("no implicit conversion of nil into Integer".into());
    };
    // Far past any calendar (Ruby would carry on with a Bignum).
    if year.abs() > 1_000_000_000_000_000 {
        return Err("argument out of range".into());
    }
    let (hour, min, sec) = (
        fields.hour.unwrap_or(0),
        fields.min.unwrap_or(0),
        fields.sec.unwrap_or(0),
    );
    // Ruby's Time.utc takes 24:00:00 (the next midnight) and nothing later.
    if hour == 24 && (min != 0 || sec != 0) {
        return Err(if min != 0 {
            "min out of range"
        } else {
            "sec out of range"
        }
        .into());
    }
    let days = days_from_civil(
        year,
        fields.mon.unwrap_or(1) as u32,
        fields.mday.unwrap_or(1) as u32,
    );
    let secs = days * 86400 + hour * 3600 + min * 60 + sec;
    let frac = fields
        .fraction
        .map(|(n, k)| {
            if k <= 9 {
                n * 10i128.pow(9 - k)
            } else {
                n / 10i128.pow((k - 9).min(38))
            }
        })
        .unwrap_or(0);
    let mut ns = secs * NSECS_PER_SEC + frac;
    if let Some(z) = zone {
        ns -= i128::from(utc_offset(&z)?) * NSECS_PER_SEC;
    }
    Ok(Nanos::new(ns))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zones_as_ruby_reads_them() {
        for (z, off) in [
            ("EST", -18000),
            ("Eastern Standard Time", -18000),
            ("PDT dst", -21600),
            ("+9", 32400),
            ("+0930", 34200),
            ("+09:30", 34200),
            ("+9.5", 34200),
            ("gmt+9", 32400),
            ("UTC-05:30", -19800),
            ("Z", 0),
            ("+123", 4980),
            ("+12345", 5025),
            ("+1234567", 5025),
            ("eastern daylight time", -14400),
            ("+09:30:15", 34215),
            ("W. Europe Standard Time", 3600),
        ] {
            assert_eq!(utc_offset(z), Ok(off), "{z}");
        }
        assert!(utc_offset("Europe/Stockholm").is_err());
        assert!(utc_offset("foo").is_err());
    }

    #[test]
    fn parses_as_puppet() {
        let p = |s: &str| parse_timestamp(s, None, None).map(|n| n.get());
        assert_eq!(p("2021-01-01T00:00:00Z"), Ok(1_609_459_200 * NSECS_PER_SEC));
        assert_eq!(
            p("2021-01-02T10:00:00.5 EST"),
            Ok((1_609_459_200 + 86400 + 15 * 3600) * NSECS_PER_SEC + 500_000_000)
        );
        assert!(p("bad").is_err());
    }
}
