//! Puppet's Timespan formats (`Timespan::Format`): `%D` days, `%H` hours,
//! `%M` minutes, `%S` seconds, `%L` milliseconds, `%N` nanoseconds, with
//! flags `-` (no padding), `_` (spaces), `0` (zeros, the default) and a
//! width. The directive of the largest unit counts the whole span (`%H`
//! alone is total hours); the others count what remains below the next
//! unit. `%L` and `%N` are fractions: they pad on the right, and without
//! a `0` flag lose their trailing zeros. The same format reads a string
//! back, through a regular expression built from it.

use super::Nanos;

pub const DEFAULT_SPAN_FORMATS: [&str; 8] = [
    "%D-%H:%M:%S.%-N",
    "%H:%M:%S.%-N",
    "%M:%S.%-N",
    "%S.%-N",
    "%D-%H:%M:%S",
    "%H:%M:%S",
    "%D-%H:%M",
    "%S",
];

/// The largest width honoured (Ruby's `sprintf` fails on much larger).
const MAX_WIDTH: usize = 1 << 12;

const NS_MSEC: i128 = 1_000_000;
const NS_SEC: i128 = 1_000 * NS_MSEC;
const NS_MIN: i128 = 60 * NS_SEC;
const NS_HOUR: i128 = 60 * NS_MIN;
const NS_DAY: i128 = 24 * NS_HOUR;

/// The units, in Puppet's order of magnitude.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Unit {
    Nano,
    Milli,
    Sec,
    Min,
    Hour,
    Day,
}

impl Unit {
    fn default_width(self) -> usize {
        match self {
            Unit::Nano => 9,
            Unit::Milli => 3,
            Unit::Day => 1,
            _ => 2,
        }
    }

    fn is_fraction(self) -> bool {
        matches!(self, Unit::Nano | Unit::Milli)
    }
}

#[derive(Debug)]
struct ValueSeg {
    unit: Unit,
    /// `None` for `-`, `Some(' ')` for `_`, `Some('0')` otherwise.
    pad: Option<char>,
    width: Option<usize>,
    total: bool,
}

#[derive(Debug)]
enum Segment {
    Literal(String),
    Value(ValueSeg),
}

fn bad_specifier(chars: &[char], start: usize, position: usize) -> String {
    let expr: String = chars[start.min(chars.len())..position.min(chars.len())]
        .iter()
        .collect();
    let format: String = chars.iter().collect();
    format!("Bad format specifier '{expr}' in '{format}', at position {position}")
}

/// Puppet's `FormatParser#internal_parse`.
fn compile(format: &str) -> Result<Vec<Segment>, String> {
    let chars: Vec<char> = format.chars().collect();
    let mut segs: Vec<Segment> = Vec::new();
    let literal = |segs: &mut Vec<Segment>, c: char| match segs.last_mut() {
        Some(Segment::Literal(s)) => s.push(c),
        _ => segs.push(Segment::Literal(c.to_string())),
    };
    // 0: literal text, 1: after '%', 2: after a flag or width digit.
    let mut state = 0;
    let mut pad = Some('0');
    let mut width: Option<usize> = None;
    let mut start = 0;
    let mut position = 0usize;
    for (i, &c) in chars.iter().enumerate() {
        position = i;
        if state == 0 {
            if c == '%' {
                state = 1;
                start = i;
                pad = Some('0');
                width = None;
            } else {
                literal(&mut segs, c);
            }
            continue;
        }
        let unit = match c {
            '%' => {
                literal(&mut segs, c);
                state = 0;
                continue;
            }
            '-' | '_' => {
                if state != 1 {
                    return Err(bad_specifier(&chars, start, i));
                }
                pad = if c == '-' { None } else { Some(' ') };
                state = 2;
                continue;
            }
            'D' => Unit::Day,
            'H' => Unit::Hour,
            'M' => Unit::Min,
            'S' => Unit::Sec,
            'L' => Unit::Milli,
            'N' => Unit::Nano,
            d if d.is_ascii_digit() => {
                if state == 1 && d == '0' {
                    pad = Some('0');
                } else {
                    let n = d as usize - '0' as usize;
                    // Capped: a width past any real use is not allocated.
                    width = Some((width.unwrap_or(0) * 10 + n).min(MAX_WIDTH));
                }
                state = 2;
                continue;
            }
            _ => return Err(bad_specifier(&chars, start, i)),
        };
        segs.push(Segment::Value(ValueSeg {
            unit,
            pad,
            width,
            total: false,
        }));
        state = 0;
    }
    if state != 0 {
        return Err(bad_specifier(&chars, start, position));
    }
    // The first directive of the largest unit counts the whole span.
    let highest = segs
        .iter()
        .filter_map(|s| match s {
            Segment::Value(v) => Some(v.unit),
            _ => None,
        })
        .max();
    if let Some(h) = highest {
        if let Some(Segment::Value(v)) = segs
            .iter_mut()
            .find(|s| matches!(s, Segment::Value(v) if v.unit == h))
        {
            v.total = true;
        }
    }
    Ok(segs)
}

/// Ruby's `sprintf` of a non-negative number, as a segment writes it.
fn write_value(v: &ValueSeg, n: i128) -> String {
    let w = v.width.unwrap_or(v.unit.default_width());
    if v.unit.is_fraction() {
        // Trailing zeros go unless the span is counted whole or `0` asks
        // for them; the digits are left-justified.
        let n = if v.total || v.pad == Some('0') {
            n
        } else {
            let s = n.to_string();
            let t = s.trim_end_matches('0');
            if t.is_empty() {
                0
            } else {
                t.parse().unwrap_or(n)
            }
        };
        return match v.pad {
            None => n.to_string(),
            Some(_) => format!("{n:<w$}"),
        };
    }
    match v.pad {
        None => n.to_string(),
        Some(' ') => format!("{n:>w$}"),
        Some(_) => format!("{n:0w$}"),
    }
}

/// `Timespan#format(format)`.
pub fn format_timespan(ns: Nanos, format: &str) -> Result<String, String> {
    let segs = compile(format)?;
    let n = ns.get();
    let total = n.unsigned_abs() as i128;
    let mut out = String::from(if n < 0 { "-" } else { "" });
    for s in &segs {
        match s {
            Segment::Literal(l) => out.push_str(l),
            Segment::Value(v) => {
                let value = match v.unit {
                    Unit::Day => total / NS_DAY,
                    Unit::Hour if v.total => total / NS_HOUR,
                    Unit::Hour => total / NS_HOUR % 24,
                    Unit::Min if v.total => total / NS_MIN,
                    Unit::Min => total / NS_MIN % 60,
                    Unit::Sec if v.total => total / NS_SEC,
                    Unit::Sec => total / NS_SEC % 60,
                    Unit::Milli if v.total => total / NS_MSEC,
                    Unit::Milli => total / NS_MSEC % 1000,
                    Unit::Nano => {
                        let w = v.width.unwrap_or(9);
                        if w < 9 {
                            let p = 10i128.pow((9 - w) as u32);
                            let x = total / p;
                            if v.total {
                                x
                            } else {
                                x % 10i128.pow(w as u32)
                            }
                        } else if v.total {
                            total
                        } else {
                            total % NS_SEC
                        }
                    }
                };
                out.push_str(&write_value(v, value));
            }
        }
    }
    Ok(out)
}

fn unable(s: &str, format: &str) -> String {
    format!("Unable to parse '{s}' using format '{format}'")
}

/// `Format#parse(str)` for one format.
fn parse_with(s: &str, format: &str) -> Result<Nanos, String> {
    let segs = compile(format)?;
    let mut re = String::from(r"\A-?");
    for seg in &segs {
        match seg {
            Segment::Literal(l) => re.push_str(&format!("({})", regex::escape(l))),
            Segment::Value(v) => {
                let dw = v.unit.default_width();
                re.push_str(&match (v.width, v.pad) {
                    (None, Some(' ')) if v.total => r"\s*([0-9]+)".to_string(),
                    (None, Some(' ')) => format!(r"([0-9\s]{{1,{dw}}})"),
                    (None, _) if v.total => "([0-9]+)".to_string(),
                    (None, _) => format!("([0-9]{{1,{dw}}})"),
                    (Some(w), None) => format!("([0-9]{{1,{w}}})"),
                    (Some(w), Some('0')) => format!("([0-9]{{{w}}})"),
                    (Some(w), Some(_)) => format!(r"([0-9\s]{{{w}}})"),
                });
            }
        }
    }
    re.push_str(r"\z");
    let re = regex::Regex::new(&re).map_err(|_| unable(s, format))?;
    let caps = re.captures(s).ok_or_else(|| unable(s, format))?;
    let mut total: i128 = 0;
    for (i, seg) in segs.iter().enumerate() {
        let Segment::Value(v) = seg else { continue };
        let group = caps.get(i + 1).map(|m| m.as_str()).unwrap_or_default();
        let group = group.trim_start();
        if group.is_empty() || !group.bytes().all(|b| b.is_ascii_digit()) {
            return Err(unable(s, format));
        }
        let n: i128 = group.parse().map_err(|_| unable(s, format))?;
        let add = if v.unit.is_fraction() {
            if v.total {
                return Err("Format specifiers %L and %N denotes fractions and must be used together with a specifier of higher magnitude".into());
            }
            let p = 9 - group.len() as i64;
            if p <= 0 {
                Some(n)
            } else {
                n.checked_mul(10i128.pow(p as u32))
            }
        } else {
            n.checked_mul(match v.unit {
                Unit::Day => NS_DAY,
                Unit::Hour => NS_HOUR,
                Unit::Min => NS_MIN,
                _ => NS_SEC,
            })
        };
        total = add
            .and_then(|a| total.checked_add(a))
            .ok_or_else(|| unable(s, format))?;
    }
    Ok(Nanos::new(if s.starts_with('-') { -total } else { total }))
}

/// `Timespan.parse(str, format)`: `formats` is one format, or a list tried
/// in turn (a list that none fits names them all).
pub fn parse_timespan(s: &str, formats: &[String], many: bool) -> Result<Nanos, String> {
    if !many {
        return parse_with(s, formats.first().map(String::as_str).unwrap_or_default());
    }
    formats
        .iter()
        .find_map(|f| parse_with(s, f).ok())
        .ok_or_else(|| {
            format!(
                "Unable to parse '{s}' using any of the formats {}",
                formats.join(", ")
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fmt(ns: i128, f: &str) -> String {
        format_timespan(Nanos::new(ns), f).unwrap_or_else(|e| e)
    }

    #[test]
    fn formats_as_puppet() {
        let span = NS_DAY + 2 * NS_HOUR + 3 * NS_MIN + 4 * NS_SEC + 500_000_000;
        assert_eq!(
            fmt(span, "%D %H %M %S %L %N %-N %_H %-H %3N %5S"),
            "1 02 03 04 500 500000000 5  2 2 500 00004"
        );
        assert_eq!(
            fmt(span, "%Y"),
            "Bad format specifier '%' in '%Y', at position 1"
        );
        assert_eq!(
            fmt(span, "%H:%"),
            "Bad format specifier '' in '%H:%', at position 3"
        );
        assert_eq!(
            fmt(-1_500_000_000, DEFAULT_SPAN_FORMATS[0]),
            "-0-00:00:01.5"
        );
    }

    #[test]
    fn parses_as_puppet() {
        let defaults: Vec<String> = DEFAULT_SPAN_FORMATS.iter().map(|s| s.to_string()).collect();
        let p = |s: &str| parse_timespan(s, &defaults, true).map(|n| n.get());
        assert_eq!(
            p("1-02:03:04.5"),
            Ok(NS_DAY + 2 * NS_HOUR + 3 * NS_MIN + 4 * NS_SEC + 500_000_000)
        );
        assert_eq!(p("-10"), Ok(-10 * NS_SEC));
        assert!(p("x").is_err());
    }
}
