//! `SemVer.new` and `SemVerRange.new` (Puppet's `new_Version` and
//! `new_VersionRange`, with their signatures, local types and error texts).
//! The values themselves are in `eval/semver`.

use super::*;
use puppet_model::semver::{Ident, Version, VersionRange};

/// A `PositiveInteger` argument (the signature has checked it).
fn positive(v: Option<&Value>) -> u64 {
    match v {
        Some(Value::Integer(i)) => u64::try_from(*i).unwrap_or(0),
        _ => 0,
    }
}

/// `to_array`: a qualifier given as an argument is one identifier, as it is.
fn qualifier(v: Option<&Value>) -> Option<String> {
    match v {
        Some(Value::String(s)) => Some(s.to_string()),
        _ => None,
    }
}

fn version(
    major: u64,
    minor: u64,
    patch: u64,
    pre: Option<String>,
    build: Option<String>,
) -> Value {
    Value::SemVer(Arc::new(Version {
        pre: pre.map(|p| vec![Ident::Str(p)]),
        build: build.map(|b| vec![b]),
        ..Version::new(major, minor, patch)
    }))
}

/// `SemVer.new`: a version string, its parts as arguments, or a hash of them.
pub(super) fn new_semver(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let sub = named(cx, "new_Version");
    let sigs = [
        sig(&[("SemVerPattern", "str")]),
        sig(&[
            ("PositiveInteger", "major"),
            ("PositiveInteger", "minor"),
            ("PositiveInteger", "patch"),
            ("SemVerQualifier", "prerelease"),
            ("SemVerQualifier", "build"),
        ])
        .opt(3),
        sig(&[("SemVerHash", "hash_args")]),
    ];
    let Some(i) = sigs.iter().position(|s| s.accepts(args, None)) else {
        // `argument_mismatch :on_error` with `String str`.
        if let [Value::String(s)] = args {
            return sub.fail(format!(
                "'new_Version' The string '{s}' cannot be converted to a SemVer"
            ));
        }
        return sub.dispatch(&sigs, args).map(|_| Value::Undef);
    };
    match (i, args) {
        (0, [Value::String(s)]) => match Version::parse(s) {
            Ok(v) => Ok(Value::SemVer(Arc::new(v))),
            Err(e) => sub.fail(e),
        },
        (1, _) => Ok(version(
            positive(args.first()),
            positive(args.get(1)),
            positive(args.get(2)),
            qualifier(args.get(3)),
            qualifier(args.get(4)),
        )),
        (_, [Value::Hash(h)]) => {
            let get = |k: &str| h.get(&Value::string(k));
            Ok(version(
                positive(get("major")),
                positive(get("minor")),
                positive(get("patch")),
                qualifier(get("prerelease")),
                qualifier(get("build")),
            ))
        }
        _ => Ok(Value::Undef),
    }
}

/// A range bound: a SemVer, or `default` for the lowest or highest version.
fn bound(v: Option<&Value>, lowest: bool) -> Version {
    match v {
        Some(Value::SemVer(x)) => (**x).clone(),
        _ if lowest => Version::min(),
        _ => Version::max(),
    }
}

/// `SemVerRange.new`: a range string, bounds as arguments, or a hash of them.
pub(super) fn new_semver_range(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let sub = named(cx, "new_VersionRange");
    let i = sub.dispatch(
        &[
            sig(&[("SemVerRangeString", "str")]),
            sig(&[
                ("Variant[Default,SemVer]", "min"),
                ("Variant[Default,SemVer]", "max"),
                ("Boolean", "exclude_max"),
            ])
            .opt(2),
            sig(&[("SemVerRangeHash", "hash_args")]),
        ],
        args,
    )?;
    let range = match (i, args) {
        (0, [Value::String(s)]) => match VersionRange::parse(s) {
            Ok(r) => r,
            Err(e) => return sub.fail(e),
        },
        (1, _) => VersionRange::from_bounds(
            bound(args.first(), true),
            bound(args.get(1), false),
            matches!(args.get(2), Some(Value::Boolean(true))),
        ),
        (_, [Value::Hash(h)]) => {
            let get = |k: &str| h.get(&Value::string(k));
            VersionRange::from_bounds(
                bound(get("min"), true),
                bound(get("max"), false),
                matches!(get("exclude_max"), Some(Value::Boolean(true))),
            )
        }
        _ => return Ok(Value::Undef),
    };
    Ok(Value::SemVerRange(Arc::new(range)))
}
