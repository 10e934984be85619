//! Puppet's Timestamp and Timespan values (`Puppet::Pops::Time`): a count of
//! nanoseconds, since the epoch (UTC) for a Timestamp, signed for a
//! Timespan. Ruby keeps them as Integers of any size; here they are `i128`,
//! which holds every value a manifest can reach, and arithmetic past it is an
//! error rather than a wrap.
//!
//! - `strftime.rs`: Ruby's `Time#strftime`, how a Timestamp is written.
//! - `strptime.rs`: Ruby's `DateTime._strptime`, how one is read (and the
//!   timezone names it knows, `zones.rs`).
//! - `span_format.rs`: Puppet's own Timespan formats (`%D-%H:%M:%S.%-N`).

pub mod ops;
mod span_format;
mod strftime;
mod strptime;
mod zones;

pub use span_format::{format_timespan, parse_timespan, DEFAULT_SPAN_FORMATS};
pub use strftime::strftime;
pub use strptime::{format_offset, parse_timestamp, utc_offset};

pub const NSECS_PER_SEC: i128 = 1_000_000_000;

/// Nanoseconds, stored as two words so that a `Value` stays small (an
/// `i128` would raise its alignment to 16 bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Nanos {
    hi: i64,
    lo: u64,
}

impl Nanos {
    pub fn new(n: i128) -> Nanos {
        Nanos {
            hi: (n >> 64) as i64,
            lo: n as u64,
        }
    }

    pub fn get(self) -> i128 {
        (i128::from(self.hi) << 64) | i128::from(self.lo)
    }

    /// Seconds (Ruby's `(o * NSECS_PER_SEC).to_i` for a Float, exact for an
    /// Integer).
    pub fn from_secs_f64(f: f64) -> Nanos {
        // `as` saturates (and maps NaN to 0): never a panic.
        Nanos::new((f * 1e9) as i128)
    }

    pub fn from_secs(i: i64) -> Nanos {
        Nanos::new(i128::from(i) * NSECS_PER_SEC)
    }

    /// `to_f` (`nsecs.fdiv(NSECS_PER_SEC)`): seconds as a Float.
    pub fn as_f64(self) -> f64 {
        self.get() as f64 / 1e9
    }

    /// `to_i`: whole seconds, Ruby's Integer `/` on the nanoseconds, which
    /// floors.
    pub fn as_secs_floor(self) -> i128 {
        self.get().div_euclid(NSECS_PER_SEC)
    }
}

/// `Timestamp#to_s`: `%FT%T.%N %Z` in UTC.
pub fn timestamp_to_s(ns: Nanos) -> String {
    strftime(ns, "%FT%T.%N %Z", None).unwrap_or_default()
}

/// `Timespan#to_s`: `%D-%H:%M:%S.%-N`.
pub fn timespan_to_s(ns: Nanos) -> String {
    format_timespan(ns, DEFAULT_SPAN_FORMATS[0]).unwrap_or_default()
}

/// Days since 1970-01-01 of a proleptic Gregorian date (month 1..12; a day
/// past the month's end runs into the next month, as Ruby's `Time.utc`).
pub fn days_from_civil(y: i128, m: u32, d: u32) -> i128 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i128::from(m);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i128::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146097 + doe - 719468
}

/// The date of a day since 1970-01-01: (year, month 1..12, day 1..31).
pub fn civil_from_days(z: i128) -> (i128, u32, u32) {
    let z = z + 719468;
    let era = z.div_euclid(146097);
    let doe = z - era * 146097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i128::from(m <= 2);
    (y, m, d)
}

/// The formats of a `format` argument: one string, or an array tried in
/// turn; `None` when not given (Puppet's defaults).
pub fn formats_of(v: Option<&crate::values::Value>) -> Option<(Vec<String>, bool)> {
    use crate::values::Value;
    match v? {
        Value::String(s) => Some((vec![s.to_string()], false)),
        Value::Array(items) => Some((items.iter().map(|x| x.to_string()).collect(), true)),
        _ => None,
    }
}

fn hash_get<'a>(h: &'a crate::values::Map, key: &str) -> Option<&'a crate::values::Value> {
    h.get(&crate::values::Value::string(key))
        .filter(|v| !v.is_undef())
}

/// `Timestamp.from_hash`: `string`, with optional `format` and `timezone`.
pub fn timestamp_from_hash(h: &crate::values::Map) -> Result<Nanos, String> {
    let s = hash_get(h, "string")
        .map(|v| v.to_string())
        .unwrap_or_default();
    let formats = formats_of(hash_get(h, "format"));
    let tz = hash_get(h, "timezone").map(|v| v.to_string());
    parse_timestamp(
        &s,
        formats.as_ref().map(|(l, many)| (l.as_slice(), *many)),
        tz.as_deref(),
    )
}

/// `Timespan.from_hash`: `string` (and `format`), or the fields `days`,
/// `hours`, `minutes`, `seconds`, `milliseconds`, `microseconds`,
/// `nanoseconds` and `negative`.
pub fn timespan_from_hash(h: &crate::values::Map) -> Result<Nanos, String> {
    use crate::values::Value;
    if let Some(s) = hash_get(h, "string") {
        let (list, many) = formats_of(hash_get(h, "format")).unwrap_or_else(default_span_formats);
        return parse_timespan(&s.to_string(), &list, many);
    }
    let field = |k: &str| match hash_get(h, k) {
        Some(Value::Integer(i)) => i128::from(*i),
        _ => 0,
    };
    let negative = matches!(hash_get(h, "negative"), Some(Value::Boolean(true)));
    Ok(from_fields(
        negative,
        [
            field("days"),
            field("hours"),
            field("minutes"),
            field("seconds"),
            field("milliseconds"),
            field("microseconds"),
            field("nanoseconds"),
        ],
    ))
}

/// Puppet's defaults, as a list of formats to try.
pub fn default_span_formats() -> (Vec<String>, bool) {
    (
        DEFAULT_SPAN_FORMATS.iter().map(|s| s.to_string()).collect(),
        true,
    )
}

/// `Timespan.from_fields`: days, hours, minutes, seconds, milli-, micro-
/// and nanoseconds, each carried into the next (saturating past `i128`).
pub fn from_fields(negative: bool, f: [i128; 7]) -> Nanos {
    let scale = [24, 60, 60, 1000, 1000, 1000];
    let mut ns = f[0];
    for (k, s) in scale.iter().enumerate() {
        ns = ns.saturating_mul(*s).saturating_add(f[k + 1]);
    }
    Nanos::new(if negative { ns.saturating_neg() } else { ns })
}

/// A bound of `Timestamp[from, to]` or `Timespan[from, to]` as Puppet's
/// `convert_arg` makes it: `None` for `default` or undef, else the value
/// (parsed from a string or hash, or seconds from a number).
pub fn type_bound(
    timestamp: bool,
    v: &crate::values::Value,
) -> Result<Option<crate::values::Value>, String> {
    use crate::values::Value;
    let wrap = |n: Nanos| {
        Some(if timestamp {
            Value::Timestamp(n)
        } else {
            Value::Timespan(n)
        })
    };
    Ok(match v {
        Value::Undef | Value::Default => None,
        Value::Timestamp(_) if timestamp => Some(v.clone()),
        Value::Timespan(_) if !timestamp => Some(v.clone()),
        Value::Integer(i) => wrap(Nanos::from_secs(*i)),
        Value::Float(f) => wrap(Nanos::from_secs_f64(*f)),
        Value::String(s) => wrap(if timestamp {
            parse_timestamp(s, None, None)?
        } else {
            let (l, _) = default_span_formats();
            parse_timespan(s, &l, true)?
        }),
        Value::Hash(h) => wrap(if timestamp {
            timestamp_from_hash(h)?
        } else {
            timespan_from_hash(h)?
        }),
        other => {
            return Err(format!(
                "Unable to create a Puppet::Pops::Time::{} from a {}",
                if timestamp { "Timestamp" } else { "Timespan" },
                crate::values::types::parse::ruby_class(other)
            ))
        }
    })
}

/// The nanoseconds of a Timestamp or Timespan value.
pub fn nanos_of(v: &crate::values::Value) -> Option<i128> {
    match v {
        crate::values::Value::Timestamp(n) | crate::values::Value::Timespan(n) => Some(n.get()),
        _ => None,
    }
}

/// Ruby's `<=>` between a Timestamp or Timespan and what Puppet lets it be
/// compared with: one of its kind, or a number (its seconds: whole for an
/// Integer, `to_f` for a Float); `None` otherwise.
pub fn compare(l: &crate::values::Value, r: &crate::values::Value) -> Option<std::cmp::Ordering> {
    use crate::values::Value as V;
    match (l, r) {
        (V::Timestamp(a), V::Timestamp(b)) | (V::Timespan(a), V::Timespan(b)) => {
            Some(a.get().cmp(&b.get()))
        }
        (V::Timestamp(a) | V::Timespan(a), V::Integer(i)) => {
            Some(a.as_secs_floor().cmp(&i128::from(*i)))
        }
        (V::Timestamp(a) | V::Timespan(a), V::Float(f)) => a.as_f64().partial_cmp(f),
        (V::Integer(_) | V::Float(_), V::Timestamp(_) | V::Timespan(_)) => {
            compare(r, l).map(std::cmp::Ordering::reverse)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_round_trips() {
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(days_from_civil(2021, 3, 4), 18690);
        assert_eq!(civil_from_days(18690), (2021, 3, 4));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
        assert_eq!(days_from_civil(2021, 2, 31), days_from_civil(2021, 3, 3));
        for n in [0i128, -1, 5, i128::MAX / 3, i128::MIN / 3] {
            assert_eq!(Nanos::new(n).get(), n);
        }
    }

    #[test]
    fn default_strings() {
        let ns = Nanos::new(1_614_834_367_123_456_789);
        assert_eq!(timestamp_to_s(ns), "2021-03-04T05:06:07.123456789 UTC");
        assert_eq!(timespan_to_s(Nanos::new(-1_500_000_000)), "-0-00:00:01.5");
    }

    /// Odd formats, inputs and zones are errors or text, never a panic.
    #[test]
    fn no_input_panics() {
        let texts = [
            "",
            "%",
            "%%",
            "%-",
            "%_",
            "%0",
            "%99999999999999999999Y",
            "%:::::z",
            "%::",
            "%E",
            "%O",
            "%Ez",
            "%^#-_0:10z",
            "%-9999N",
            "é%Yé",
            "%é",
            "%D%H%M%S%L%N",
            "%_99999999999H",
            "%-_H",
            "%1",
            "2021-13-45",
            "-",
            "--5",
            "99999999999999999999999999999999999999999",
            "+99999999999999999999:99",
            "gmt+",
            "utc-",
            "UTC+é",
            "\u{a0}dst",
            "a.m.",
            "%p",
            "%Y%Y%Y",
            "Thursday standard time",
            "%+",
            "%c%x%X%v%r%R%T%F%D",
        ];
        let extremes = [
            0i128,
            -1,
            i128::MAX,
            i128::MIN,
            i128::MAX / 7,
            i128::MIN / 7,
        ];
        for t in texts {
            for n in extremes {
                let _ = strftime(Nanos::new(n), t, None);
                let _ = strftime(Nanos::new(n), t, Some(i64::from(i32::MAX)));
                let _ = format_timespan(Nanos::new(n), t);
            }
            let _ = utc_offset(t);
            for f in texts {
                let _ = parse_timestamp(t, Some((&[f.to_string()], false)), None);
                let _ = parse_timespan(t, &[f.to_string()], false);
            }
            let _ = parse_timestamp(t, None, Some(t));
        }
        let _ = from_fields(true, [i128::MAX; 7]);
        for op in [
            puppet_syntax::ast::BinaryOp::Add,
            puppet_syntax::ast::BinaryOp::Sub,
            puppet_syntax::ast::BinaryOp::Mul,
            puppet_syntax::ast::BinaryOp::Div,
            puppet_syntax::ast::BinaryOp::Mod,
        ] {
            use crate::values::Value;
            for n in extremes {
                for r in [
                    Value::Integer(-1),
                    Value::Integer(0),
                    Value::Integer(i64::MIN),
                    Value::Float(f64::NAN),
                    Value::Float(-0.0),
                    Value::Timespan(Nanos::new(n)),
                    Value::Timestamp(Nanos::new(n)),
                ] {
                    let _ = ops::arithmetic(op, &Value::Timespan(Nanos::new(n)), &r);
                    let _ = ops::arithmetic(op, &Value::Timestamp(Nanos::new(n)), &r);
                    let _ = ops::arithmetic(op, &r, &Value::Timespan(Nanos::new(n)));
                }
            }
        }
    }
}
