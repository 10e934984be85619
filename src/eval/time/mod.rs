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

mod span_format;
mod strftime;
mod strptime;
mod zones;

pub use span_format::{format_timespan, parse_timespan, DEFAULT_SPAN_FORMATS};
pub use strftime::strftime;
pub use strptime::{parse_timestamp, utc_offset};

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

    /// `to_f`: seconds as a Float.
    pub fn as_f64(self) -> f64 {
        let n = self.get();
        (n / NSECS_PER_SEC) as f64 + (n % NSECS_PER_SEC) as f64 / 1e9
    }

    /// `to_i`: whole seconds, truncated toward zero (Ruby's Integer `/` on
    /// the nanoseconds floors; Puppet's `to_int` uses it).
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
}
