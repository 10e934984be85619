//! Ruby's `Time#strftime`, as Puppet's `Timestamp#format` calls it: the
//! time in UTC, or at the fixed offset of a `timezone` argument (Ruby's
//! `Time#localtime("+HH:MM")`, whose zone name is empty).
//!
//! Directives follow Ruby's `strftime.c`: flags `-` (no padding), `_`
//! (spaces), `0` (zeros), `^` (upcase), `#` (change case), `:` (for `%z`),
//! a width, and the `E`/`O` modifiers; an unknown directive is copied as
//! written (`%Q` stays `%Q`).

use super::{civil_from_days, days_from_civil, Nanos, NSECS_PER_SEC};

const DAYS: [&str; 7] = [
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
];
const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// The broken-down time Ruby's `strftime` reads.
struct Tm {
    year: i128,
    mon: u32,
    mday: u32,
    hour: u32,
    min: u32,
    sec: u32,
    nsec: i128,
    /// 0 = Sunday.
    wday: u32,
    /// 1-based.
    yday: u32,
    /// Seconds east of UTC.
    offset: i64,
    /// Seconds since the epoch.
    epoch: i128,
    /// `UTC` for a UTC time, empty at a fixed offset.
    zone: &'static str,
}

impl Tm {
    fn new(ns: Nanos, offset: i64, zone: &'static str) -> Tm {
        let n = ns.get();
        let epoch = n.div_euclid(NSECS_PER_SEC);
        let local = epoch + i128::from(offset);
        let days = local.div_euclid(86400);
        let sod = local.rem_euclid(86400) as u32;
        let (year, mon, mday) = civil_from_days(days);
        Tm {
            year,
            mon,
            mday,
            hour: sod / 3600,
            min: sod / 60 % 60,
            sec: sod % 60,
            nsec: n.rem_euclid(NSECS_PER_SEC),
            wday: (days + 4).rem_euclid(7) as u32,
            yday: (days - days_from_civil(year, 1, 1) + 1) as u32,
            offset,
            epoch,
            zone,
        }
    }

    /// ISO 8601 week-based year and week (`%G`, `%V`).
    fn iso_week(&self) -> (i128, u32) {
        let days = days_from_civil(self.year, self.mon, self.mday);
        let monday_based = i128::from((self.wday + 6) % 7);
        let thursday = days - monday_based + 3;
        let (y, _, _) = civil_from_days(thursday);
        let week = (thursday - days_from_civil(y, 1, 1)) / 7 + 1;
        (y, week as u32)
    }
}

/// The flags and width of one directive.
#[derive(Default)]
struct Spec {
    /// `-`: no padding at all.
    left: bool,
    upper: bool,
    chcase: bool,
    lower: bool,
    /// `_` or `0`, when given.
    padding: Option<char>,
    /// The width, when given (`0` when `-` reset it).
    precision: usize,
    colons: usize,
}

impl Spec {
    /// Ruby's `FMT(def_pad, def_prec, ...)` for an integer.
    fn num(&self, def_pad: char, def_prec: usize, v: i128) -> String {
        let width = if self.left {
            1
        } else if self.precision == 0 {
            def_prec
        } else {
            self.precision
        };
        let zero = self.padding == Some('0') || (self.padding.is_none() && def_pad == '0');
        if zero {
            let digits = v.unsigned_abs().to_string();
            let sign = if v < 0 { "-" } else { "" };
            let pad = width.saturating_sub(digits.len() + sign.len());
            format!("{sign}{}{digits}", "0".repeat(pad))
        } else {
            format!("{v:>width$}")
        }
    }

    /// Ruby's `FILL_PADDING` before a text of `len` characters.
    fn fill(&self, len: usize) -> String {
        if !self.left && self.precision > len {
            self.padding
                .unwrap_or(' ')
                .to_string()
                .repeat(self.precision - len)
        } else {
            String::new()
        }
    }
}

/// `time.strftime(format)` for the Timestamp `ns` at `offset` seconds east
/// of UTC (`None`: UTC itself).
pub fn strftime(ns: Nanos, format: &str, offset: Option<i64>) -> Result<String, String> {
    let tm = match offset {
        None => Tm::new(ns, 0, "UTC"),
        Some(o) => Tm::new(ns, o, ""),
    };
    render(&tm, format).ok_or_else(|| format!("invalid format: {format}"))
}

/// The text of `format`; `None` when it ends inside a directive (a lone
/// `%`, or `%` and flags or a width), which Ruby refuses.
fn render(tm: &Tm, format: &str) -> Option<String> {
    let chars: Vec<char> = format.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '%' {
            out.push(chars[i]);
            i += 1;
            continue;
        }
        let start = i;
        let mut spec = Spec::default();
        i += 1;
        loop {
            // The format may not end inside a directive.
            let &c = chars.get(i)?;
            match c {
                '-' => {
                    spec.left = true;
                    spec.padding = None;
                    spec.precision = 0;
                }
                '^' => spec.upper = true,
                '#' => spec.chcase = true,
                '_' => spec.padding = Some(' '),
                ':' => {
                    let n = chars[i..].iter().take_while(|c| **c == ':').count();
                    if n > 3 || chars.get(i + n) != Some(&'z') {
                        out.extend(&chars[start..=i]);
                        break;
                    }
                    spec.colons = n;
                    i += n - 1;
                }
                '0'..='9' => {
                    if c == '0' {
                        spec.padding = Some('0');
                    }
                    let mut n: usize = 0;
                    while let Some(d) = chars.get(i).and_then(|c| c.to_digit(10)) {
                        // A width past any real use is capped, not overflowed.
                        n = (n * 10 + d as usize).min(1 << 12);
                        i += 1;
                    }
                    spec.precision = n;
                    continue;
                }
                'E' | 'O' => {
                    let allowed = if c == 'E' {
                        "cCxXyY"
                    } else {
                        "deHkIlmMSuUVwWy"
                    };
                    match chars.get(i + 1) {
                        Some(n) if allowed.contains(*n) => {}
                        _ => {
                            out.extend(&chars[start..=i]);
                            break;
                        }
                    }
                }
                _ => {
                    match directive(tm, &mut spec, c) {
                        Some(text) => out.push_str(&text),
                        None => out.extend(&chars[start..=i]),
                    }
                    break;
                }
            }
            i += 1;
        }
        i += 1;
    }
    Some(out)
}

/// A composite directive (`%F`, `%c`...): its expansion, padded as a whole.
fn composite(tm: &Tm, spec: &Spec, fmt: &str) -> String {
    // The expansions are fixed formats, which always render.
    let s = render(tm, fmt).unwrap_or_default();
    let s = if spec.upper { s.to_uppercase() } else { s };
    let n = s.chars().count();
    format!("{}{s}", spec.fill(n))
}

fn text(spec: &mut Spec, s: &str) -> String {
    let s = if spec.upper {
        s.to_uppercase()
    } else if spec.lower {
        s.to_lowercase()
    } else {
        s.to_string()
    };
    format!("{}{s}", spec.fill(s.chars().count()))
}

/// One directive's text, `None` when `c` is not one.
fn directive(tm: &Tm, spec: &mut Spec, c: char) -> Option<String> {
    let hour12 = if tm.hour.is_multiple_of(12) {
        12
    } else {
        tm.hour % 12
    };
    Some(match c {
        '%' => format!("{}%", spec.fill(1)),
        'n' => format!("{}\n", spec.fill(1)),
        't' => format!("{}\t", spec.fill(1)),
        'Y' => spec.num('0', if tm.year >= 0 { 4 } else { 5 }, tm.year),
        'C' => spec.num('0', 2, tm.year.div_euclid(100)),
        'y' => spec.num('0', 2, tm.year.rem_euclid(100)),
        'm' => spec.num('0', 2, tm.mon.into()),
        'd' => spec.num('0', 2, tm.mday.into()),
        'e' => spec.num(' ', 2, tm.mday.into()),
        'j' => spec.num('0', 3, tm.yday.into()),
        'H' => spec.num('0', 2, tm.hour.into()),
        'k' => spec.num(' ', 2, tm.hour.into()),
        'I' => spec.num('0', 2, hour12.into()),
        'l' => spec.num(' ', 2, hour12.into()),
        'M' => spec.num('0', 2, tm.min.into()),
        'S' => spec.num('0', 2, tm.sec.into()),
        's' => spec.num('0', 1, tm.epoch),
        'u' => spec.num('0', 1, if tm.wday == 0 { 7 } else { tm.wday.into() }),
        'w' => spec.num('0', 1, tm.wday.into()),
        'U' => spec.num('0', 2, ((tm.yday + 6 - tm.wday) / 7).into()),
        'W' => spec.num('0', 2, ((tm.yday + 6 - (tm.wday + 6) % 7) / 7).into()),
        'V' => spec.num('0', 2, tm.iso_week().1.into()),
        'G' => {
            let y = tm.iso_week().0;
            spec.num('0', if y >= 0 { 4 } else { 5 }, y)
        }
        'g' => spec.num('0', 2, tm.iso_week().0.rem_euclid(100)),
        'L' | 'N' => {
            let digits = if spec.precision == 0 {
                if c == 'L' {
                    3
                } else {
                    9
                }
            } else {
                spec.precision
            };
            // The fraction's first digits, truncated, zeros past the ninth.
            let nine = format!("{:09}", tm.nsec);
            if digits <= 9 {
                nine[..digits].to_string()
            } else {
                format!("{nine}{}", "0".repeat(digits - 9))
            }
        }
        'a' | 'A' | 'b' | 'B' | 'h' => {
            if spec.chcase {
                spec.upper = true;
            }
            let name = match c {
                'a' => &DAYS[tm.wday as usize][..3],
                'A' => DAYS[tm.wday as usize],
                'B' => MONTHS[tm.mon as usize - 1],
                _ => &MONTHS[tm.mon as usize - 1][..3],
            };
            text(spec, name)
        }
        'p' | 'P' => {
            if (c == 'p' && spec.chcase) || (c == 'P' && !spec.chcase && !spec.upper) {
                spec.upper = false;
                spec.lower = true;
            }
            text(spec, if tm.hour < 12 { "AM" } else { "PM" })
        }
        'Z' => {
            if spec.chcase {
                spec.upper = false;
                spec.lower = true;
            }
            text(spec, tm.zone)
        }
        'z' => zone_offset(tm.offset, tm.zone == "UTC", spec)?,
        'c' => composite(tm, spec, "%a %b %e %H:%M:%S %Y"),
        'D' | 'x' => composite(tm, spec, "%m/%d/%y"),
        'F' => composite(tm, spec, "%Y-%m-%d"),
        'T' | 'X' => composite(tm, spec, "%H:%M:%S"),
        'R' => composite(tm, spec, "%H:%M"),
        'r' => composite(tm, spec, "%I:%M:%S %p"),
        'v' => composite(tm, spec, "%e-%^b-%4Y"),
        _ => return None,
    })
}

/// `%z`, `%:z`, `%::z`, `%:::z`: the offset, hours padded to the width
/// left after the minutes (and seconds).
fn zone_offset(off: i64, utc: bool, spec: &Spec) -> Option<String> {
    // `%-z` of a UTC time is `-0000` (RFC 2822's "no zone known").
    let negative = off < 0 || (utc && spec.left);
    let aoff = off.unsigned_abs();
    let hw = 2;
    let p = spec.precision;
    let tail = match spec.colons {
        0 => 3,
        1 => 4,
        2 => 7,
        _ if aoff.is_multiple_of(3600) => 1,
        _ if aoff.is_multiple_of(60) => 4,
        _ => 7,
    };
    let precision = if p <= tail + hw { hw } else { p - tail };
    let hours = aoff / 3600;
    let sign = if negative { '-' } else { '+' };
    let mut s = if spec.padding == Some(' ') {
        format!("{:>w$}", format!("{sign}{hours}"), w = precision + 1)
    } else {
        format!("{sign}{hours:0precision$}")
    };
    let rest = aoff % 3600;
    if spec.colons == 3 && rest == 0 {
        return Some(s);
    }
    if spec.colons >= 1 {
        s.push(':');
    }
    s.push_str(&format!("{:02}", rest / 60));
    if spec.colons == 3 && rest.is_multiple_of(60) {
        return Some(s);
    }
    if spec.colons >= 2 {
        s.push_str(&format!(":{:02}", rest % 60));
    }
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(fmt: &str) -> String {
        strftime(Nanos::new(1_614_834_367_123_456_789), fmt, None).unwrap()
    }

    #[test]
    fn as_ruby_writes_them() {
        assert_eq!(
            f("%Y-%m-%d %H:%M:%S.%L %N %z %Z %j %a %A %b %B %p %s %e %y %C %u %w %%"),
            "2021-03-04 05:06:07.123 123456789 +0000 UTC 063 Thu Thursday Mar March AM 1614834367  4 21 20 4 4 %"
        );
        assert_eq!(
            f("%-d %_m %010Y %^a %#b %3N %I %l %P %k %h %D %F %T %R %r %c"),
            "4  3 0000002021 THU MAR 123 05  5 am  5 Mar 03/04/21 2021-03-04 05:06:07 05:06 05:06:07 AM Thu Mar  4 05:06:07 2021"
        );
        assert_eq!(
            f("%x %X %U %W %V %G %g %:z %::z %n %t %v %+ %Q"),
            "03/04/21 05:06:07 09 09 09 2021 21 +00:00 +00:00:00 \n \t  4-MAR-2021 %+ %Q"
        );
        assert_eq!(
            strftime(Nanos::new(0), "%z %Z|", Some(-18000)).unwrap(),
            "-0500 |"
        );
        assert_eq!(
            f("%-z %_z %10z %_10z %-10z %:10z|%10F|%-10F|%_10T|%^c|%#c"),
            "-0000  +000 +000000000       +000 -000000000 %:10z|2021-03-04|2021-03-04|  05:06:07|THU MAR  4 05:06:07 2021|Thu Mar  4 05:06:07 2021"
        );
        assert_eq!(
            strftime(
                Nanos::new(0),
                "%z %:z %_z %-z %_10z %:::z %Z|",
                Some(-12600)
            )
            .unwrap(),
            "-0330 -03:30  -330 -0330       -330 -03:30 |"
        );
        // Ruby: a format ending inside a directive is refused; `%:` and
        // `%E` at the end are copied.
        for bad in ["a%", "%5", "%-", "%%%", "%10"] {
            assert!(strftime(Nanos::new(0), bad, None).is_err(), "{bad}");
        }
        assert_eq!(f("%:|%::|%E|%5%|%-%"), "%:|%::|%E|    %|%");
    }
}
