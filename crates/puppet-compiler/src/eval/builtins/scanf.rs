//! `scanf(data, format)`: Ruby's `String#scanf` (the `scanf` gem).
//!
//! Puppet's function `require`s Ruby's `scanf` library, which left Ruby's
//! standard library in 2.7. Debian's Puppet 7.23 does not bring it, so there
//! every call fails with Ruby's `LoadError`, unwrapped; Debian 13's Puppet 8
//! has the gem (`ruby-scanf`), so the call scans.
//!
//! The scanner follows `scanf.rb`: whitespace in the format matches any run
//! of whitespace; every conversion but `%c` and `%[...]` skips whitespace
//! first; `%*` suppresses a conversion, a width limits it; scanning stops at
//! the first directive that does not match, and the values converted so far
//! are the result.

use super::signatures::sig;
use super::Cx;
use crate::eval::error::EvalError;
use crate::eval::expr::R;
use crate::version::PuppetVersion;
use puppet_model::Value;

pub(super) fn scanf(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    if cx.c.node.puppet == PuppetVersion::V7 {
        return Err(EvalError::Foreign("cannot load such file -- scanf".into()));
    }
    cx.dispatch(
        &[sig(&[("String", "data"), ("String", "format")]).opt_block("Callable")],
        args,
    )?;
    let data = args[0].as_str().unwrap_or_default();
    let format = args[1].as_str().unwrap_or_default();
    let result = Value::array(scan(data, format));
    if cx.lambda.is_some() {
        return cx.yield_(&[result]);
    }
    Ok(result)
}

/// The values `format` reads from `data`.
fn scan(data: &str, format: &str) -> Vec<Value> {
    let input: Vec<char> = data.chars().collect();
    let fmt: Vec<char> = format.chars().collect();
    let (mut i, mut f) = (0usize, 0usize);
    let mut out = Vec::new();
    let skip_ws = |i: &mut usize| {
        while *i < input.len() && input[*i].is_whitespace() {
            *i += 1;
        }
    };
    while f < fmt.len() {
        let c = fmt[f];
        if c.is_whitespace() {
            while f < fmt.len() && fmt[f].is_whitespace() {
                f += 1;
            }
            skip_ws(&mut i);
            continue;
        }
        if c != '%' || fmt.get(f + 1) == Some(&'%') {
            // A literal (`%%` is a `%`).
            if input.get(i) != Some(&c) {
                break;
            }
            i += 1;
            f += if c == '%' { 2 } else { 1 };
            continue;
        }
        f += 1;
        let suppress = fmt.get(f) == Some(&'*');
        if suppress {
            f += 1;
        }
        let mut width = 0usize;
        while let Some(d) = fmt.get(f).and_then(|c| c.to_digit(10)) {
            width = width.saturating_mul(10).saturating_add(d as usize);
            f += 1;
        }
        let Some(&conv) = fmt.get(f) else { break };
        f += 1;
        let mut set = None;
        if conv == '[' {
            let start = f;
            // `]` right after `[` or `[^` belongs to the set.
            if fmt.get(f) == Some(&'^') {
                f += 1;
            }
            if fmt.get(f) == Some(&']') {
                f += 1;
            }
            while f < fmt.len() && fmt[f] != ']' {
                f += 1;
            }
            set = Some(fmt[start..f.min(fmt.len())].iter().collect::<String>());
            f += 1;
        }
        if !matches!(conv, 'c' | '[') {
            skip_ws(&mut i);
        }
        let limit = if width == 0 {
            input.len()
        } else {
            (i + width).min(input.len())
        };
        let window = &input[i..limit];
        let (len, value) = match conv {
            'd' | 'u' => integer(window, 10, false),
            'i' => integer(window, 10, true),
            'x' | 'X' => integer(window, 16, false),
            'o' => integer(window, 8, false),
            'f' | 'g' | 'e' | 'E' | 'a' | 'A' | 'G' => float(window),
            's' => {
                let n = window.iter().take_while(|c| !c.is_whitespace()).count();
                (n, Value::string(window[..n].iter().collect::<String>()))
            }
            'c' => {
                let n = if width == 0 { 1 } else { window.len() };
                let n = n.min(window.len());
                (n, Value::string(window[..n].iter().collect::<String>()))
            }
            '[' => {
                let n = window
                    .iter()
                    .take_while(|c| in_set(set.as_deref().unwrap_or_default(), **c))
                    .count();
                (n, Value::string(window[..n].iter().collect::<String>()))
            }
            _ => (0, Value::Undef),
        };
        if len == 0 {
            break;
        }
        i += len;
        if !suppress {
            out.push(value);
        }
    }
    out
}

/// An integer in `base` at the start of `w` (`%i` also reads `0x` and `0`
/// prefixes); its length, 0 when there is none.
fn integer(w: &[char], base: u32, prefixed: bool) -> (usize, Value) {
    let mut n = 0;
    let negative = matches!(w.first(), Some('-'));
    if matches!(w.first(), Some('-' | '+')) {
        n = 1;
    }
    let mut base = base;
    let hex_prefix = |n: usize| w.get(n) == Some(&'0') && matches!(w.get(n + 1), Some('x' | 'X'));
    if (prefixed || base == 16)
        && hex_prefix(n)
        && w.get(n + 2).is_some_and(|c| c.is_ascii_hexdigit())
    {
        base = 16;
        n += 2;
    } else if prefixed && w.get(n) == Some(&'0') {
        base = 8;
    }
    let digits = w[n..].iter().take_while(|c| c.is_digit(base)).count();
    if digits == 0 {
        return (0, Value::Undef);
    }
    let text: String = w[n..n + digits].iter().collect();
    let magnitude = i64::from_str_radix(&text, base).unwrap_or(i64::MAX);
    let v = if negative { -magnitude } else { magnitude };
    (n + digits, Value::Integer(v))
}

/// A float at the start of `w`: sign, digits with an optional fraction,
/// optional exponent.
fn float(w: &[char]) -> (usize, Value) {
    let mut n = 0;
    if matches!(w.first(), Some('-' | '+')) {
        n = 1;
    }
    let int = w[n..].iter().take_while(|c| c.is_ascii_digit()).count();
    n += int;
    let mut frac = 0;
    if w.get(n) == Some(&'.') {
        frac = w[n + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
        if int > 0 || frac > 0 {
            n += 1 + frac;
        }
    }
    if int == 0 && frac == 0 {
        return (0, Value::Undef);
    }
    if matches!(w.get(n), Some('e' | 'E')) {
        let mut m = n + 1;
        if matches!(w.get(m), Some('-' | '+')) {
            m += 1;
        }
        let exp = w[m.min(w.len())..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        if exp > 0 {
            n = m + exp;
        }
    }
    let text: String = w[..n].iter().collect();
    (n, Value::Float(text.parse().unwrap_or(0.0)))
}

/// Whether `c` is in a `%[...]` set (`^` negates; `a-z` is a range).
fn in_set(set: &str, c: char) -> bool {
    let (negated, body) = match set.strip_prefix('^') {
        Some(rest) => (true, rest),
        None => (false, set),
    };
    let chars: Vec<char> = body.chars().collect();
    let mut found = false;
    let mut k = 0;
    while k < chars.len() {
        if k + 2 < chars.len() && chars[k + 1] == '-' {
            found |= (chars[k]..=chars[k + 2]).contains(&c);
            k += 3;
        } else {
            found |= chars[k] == c;
            k += 1;
        }
    }
    found != negated
}

#[cfg(test)]
mod tests {
    use super::scan;
    use puppet_model::Value;

    #[test]
    fn scans_as_ruby_scanf() {
        assert_eq!(
            scan("1 2", "%d %d"),
            vec![Value::Integer(1), Value::Integer(2)]
        );
        assert_eq!(
            scan("ab 0x1f 3.5e2", "%s %x %f"),
            vec![Value::string("ab"), Value::Integer(31), Value::Float(350.0)]
        );
        assert_eq!(scan("12abc", "%d%d"), vec![Value::Integer(12)]);
        assert_eq!(scan("abc-9", "%[a-c]%*d"), vec![Value::string("abc")]);
    }
}
