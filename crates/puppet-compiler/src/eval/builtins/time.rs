//! `Timestamp.new`, `Timespan.new` (Puppet's `new_timestamp` and
//! `new_timespan`, with their signatures and local `Formats` type) and
//! `strftime`. The values themselves, their parsing and formatting are in
//! `eval/time`.

use super::*;
use puppet_model::time::{self, Nanos};

/// Seconds as Puppet's `from_seconds` takes them.
fn seconds(v: &Value) -> Nanos {
    match v {
        Value::Integer(i) => Nanos::from_secs(*i),
        Value::Float(f) => Nanos::from_secs_f64(*f),
        _ => Nanos::new(0),
    }
}

/// This moment, for `Timestamp()` and the legacy `strftime`.
fn now() -> Nanos {
    let d = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as i128)
        .unwrap_or(0);
    Nanos::new(d)
}

/// `Timestamp.new`: now, seconds, a string (with formats and a timezone),
/// or a hash of those.
pub(super) fn new_timestamp(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let sub = named(cx, "new_timestamp");
    let i = sub.dispatch(
        &[
            sig(&[]),
            sig(&[("Variant[Integer,Float]", "seconds")]),
            sig(&[
                ("String[1]", "string"),
                ("Formats", "format"),
                ("String[1]", "timezone"),
            ])
            .opt(1),
            sig(&[("TimestampStringHash", "hash_arg")]),
        ],
        args,
    )?;
    let parsed = match (i, args.first()) {
        (0, _) => Ok(now()),
        (1, Some(v)) => Ok(seconds(v)),
        (3, Some(Value::Hash(h))) => time::timestamp_from_hash(h),
        (_, Some(v)) => {
            let formats = time::formats_of(args.get(1));
            let tz = args.get(2).map(|t| t.to_string());
            time::parse_timestamp(
                &v.to_string(),
                formats.as_ref().map(|(l, many)| (l.as_slice(), *many)),
                tz.as_deref(),
            )
        }
        _ => Ok(Nanos::new(0)),
    };
    match parsed {
        Ok(n) => Ok(Value::Timestamp(n)),
        Err(e) => cx.fail(e),
    }
}

/// `Timespan.new`: seconds, a string (with formats), days to nanoseconds
/// as arguments, or a hash of either.
pub(super) fn new_timespan(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let sub = named(cx, "new_timespan");
    let i = sub.dispatch(
        &[
            sig(&[("Variant[Integer,Float]", "seconds")]),
            sig(&[("String[1]", "string"), ("Formats", "format")]).opt(1),
            sig(&[
                ("Integer", "days"),
                ("Integer", "hours"),
                ("Integer", "minutes"),
                ("Integer", "seconds"),
                ("Integer", "milliseconds"),
                ("Integer", "microseconds"),
                ("Integer", "nanoseconds"),
            ])
            .opt(4),
            sig(&[("TimespanStringHash", "hash_arg")]),
            sig(&[("TimespanFieldsHash", "hash_arg")]),
        ],
        args,
    )?;
    let parsed = match (i, args.first()) {
        (0, Some(v)) => Ok(seconds(v)),
        (1, Some(v)) => {
            let (list, many) =
                time::formats_of(args.get(1)).unwrap_or_else(time::default_span_formats);
            time::parse_timespan(&v.to_string(), &list, many)
        }
        (2, _) => {
            let mut f = [0i128; 7];
            for (k, a) in args.iter().enumerate().take(7) {
                if let Value::Integer(n) = a {
                    f[k] = i128::from(*n);
                }
            }
            Ok(time::from_fields(false, f))
        }
        (_, Some(Value::Hash(h))) => time::timespan_from_hash(h),
        _ => Ok(Nanos::new(0)),
    };
    match parsed {
        Ok(n) => Ok(Value::Timespan(n)),
        Err(e) => cx.fail(e),
    }
}

/// `strftime(Timespan, format)`, `strftime(Timestamp, format[, timezone])`,
/// and the deprecated `strftime(format[, timezone])` of this moment.
pub(super) fn strftime(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let i = cx.dispatch(
        &[
            sig(&[("Timespan", "time_object"), ("String", "format")]),
            sig(&[
                ("Timestamp", "time_object"),
                ("String", "format"),
                ("String", "timezone"),
            ])
            .opt(2),
            sig(&[("String", "format"), ("String", "timezone")]).opt(1),
        ],
        args,
    )?;
    let text = |v: Option<&Value>| v.map(|x| x.to_string());
    let result = match (i, args.first()) {
        (0, Some(Value::Timespan(n))) => {
            time::format_timespan(*n, &text(args.get(1)).unwrap_or_default())
        }
        (1, Some(Value::Timestamp(n))) => {
            format_timestamp(*n, &text(args.get(1)).unwrap_or_default(), args.get(2))
        }
        _ => {
            let msg = "The argument signature (String format, [String timezone]) is deprecated for #strftime. See #strftime documentation and Timespan type for more info";
            // Puppet warns once per compile, naming the first call's place.
            if !cx.c.warnings.iter().any(|w| w.starts_with(msg)) {
                cx.warn_once_here(msg);
            }
            format_timestamp(now(), &text(args.first()).unwrap_or_default(), args.get(1))
        }
    };
    match result {
        Ok(s) => Ok(Value::string(s)),
        Err(e) => cx.fail(e),
    }
}

/// `Timestamp#format(format, timezone)`: at the timezone's offset (in
/// whole minutes, as Puppet's `convert_timezone` writes it) when one is
/// given and not empty.
fn format_timestamp(n: Nanos, format: &str, tz: Option<&Value>) -> Result<String, String> {
    let offset = match tz.map(|t| t.to_string()).filter(|t| !t.is_empty()) {
        None => None,
        Some(t) => Some(time::format_offset(&t)?),
    };
    time::strftime(n, format, offset)
}
