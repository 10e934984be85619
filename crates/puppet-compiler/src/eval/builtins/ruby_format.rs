//! Ruby's `format` (`Kernel#sprintf`), for `sprintf` and `String(x, fmt)`.

use super::ruby::ruby_class;
use super::strings::{ruby_float_of, ruby_integer};
use super::Cx;
use crate::eval::expr::R;
use crate::eval::value::Value;
use puppet_model::ruby::{ruby_inspect, ruby_to_s};
use puppet_model::types::PType;

/// A little unsigned big integer (base 10^9, least significant first) for
/// exact decimal expansions of doubles.
#[derive(Clone, Debug)]
pub(super) struct BigDec(Vec<u32>);

impl BigDec {
    const BASE: u64 = 1_000_000_000;

    pub(super) fn from_u64(mut n: u64) -> BigDec {
        let mut v = Vec::new();
        while n > 0 {
            v.push((n % Self::BASE) as u32);
            n /= Self::BASE;
        }
        BigDec(v)
    }

    pub(super) fn mul_small(&mut self, m: u32) {
        let mut carry = 0u64;
        for limb in self.0.iter_mut() {
            let x = *limb as u64 * m as u64 + carry;
            *limb = (x % Self::BASE) as u32;
            carry = x / Self::BASE;
        }
        while carry > 0 {
            self.0.push((carry % Self::BASE) as u32);
            carry /= Self::BASE;
        }
    }

    pub(super) fn to_decimal(&self) -> String {
        let mut s = String::new();
        for (i, limb) in self.0.iter().rev().enumerate() {
            if i == 0 {
                s.push_str(&limb.to_string());
            } else {
                s.push_str(&format!("{limb:09}"));
            }
        }
        if s.is_empty() {
            s.push('0');
        }
        s
    }
}

/// The exact decimal value of a finite positive double: its significant
/// digits (no leading or trailing zeros) and the decimal exponent `p` with
/// value = 0.DIGITS × 10^p.
pub(super) fn exact_decimal(d: f64) -> (Vec<u8>, i32) {
    let bits = d.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i32;
    let frac = bits & 0x000f_ffff_ffff_ffff;
    let (m, e) = if exp == 0 {
        (frac, -1074)
    } else {
        (frac | (1u64 << 52), exp - 1075)
    };
    let mut n = BigDec::from_u64(m);
    let mut point_shift = 0i32;
    if e >= 0 {
        let mut left = e;
        while left > 0 {
            let k = left.min(29);
            n.mul_small(1 << k);
            left -= k;
        }
    } else {
        let mut left = -e;
        while left > 0 {
            let k = left.min(13);
            n.mul_small(5u32.pow(k as u32));
            left -= k;
        }
        point_shift = -e;
    }
    let s = n.to_decimal();
    let digits: Vec<u8> = s.bytes().map(|b| b - b'0').collect();
    let p = digits.len() as i32 - point_shift;
    let mut digits: Vec<u8> = digits;
    while digits.last() == Some(&0) {
        digits.pop();
    }
    let lead = digits.iter().take_while(|&&x| x == 0).count();
    digits.drain(..lead);
    (digits, p - lead as i32)
}

pub(super) const TENS: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];
pub(super) const BIGTENS: [f64; 5] = [1e16, 1e32, 1e64, 1e128, 1e256];

/// Ruby's `BSD__dtoa` in modes 2 (`ndigits` significant digits) and 3
/// (`ndigits` after the point) for a finite positive double, with Ruby's
/// tie rule in its fast path: digits (trailing zeros trimmed, possibly
/// empty) and the position of the decimal point.
#[allow(clippy::approx_constant)]
pub(super) fn ruby_dtoa(d: f64, mode: u8, ndigits: i32) -> (Vec<u8>, i32) {
    if d == 0.0 {
        return (vec![0], 1);
    }
    let bits = d.to_bits();
    let bexp = ((bits >> 52) & 0x7ff) as i32;
    let d2 = f64::from_bits((bits & 0x000f_ffff_ffff_ffff) | 0x3ff0_0000_0000_0000);
    let i = bexp - 1023;
    let ds = (d2 - 1.5) * 0.289529654602168 + 0.1760912590558 + i as f64 * 0.301029995663981;
    let mut k = ds as i32;
    if ds < 0.0 && ds != k as f64 {
        k -= 1;
    }
    let mut k_check = true;
    if (0..=22).contains(&k) {
        if d < TENS[k as usize] {
            k -= 1;
        }
        k_check = false;
    }
    let (ilim, ilim1) = if mode == 2 {
        let n = ndigits.max(1);
        (n, n)
    } else {
        (ndigits + k + 1, ndigits + k)
    };
    let mut half = false;
    // The fast path in floating point.
    if (0..=14).contains(&ilim) {
        let mut dv = d;
        let mut kk = k;
        let mut il = ilim;
        let mut ieps = 2;
        let mut ok = true;
        if kk > 0 {
            let mut dsv = TENS[(kk & 0xf) as usize];
            let mut j = kk >> 4;
            if j & 0x10 != 0 {
                j &= 0xf;
                dv /= BIGTENS[4];
                ieps += 1;
            }
            let mut n = 0;
            while j != 0 {
                if j & 1 != 0 {
                    ieps += 1;
                    dsv *= BIGTENS[n];
                }
                j >>= 1;
                n += 1;
            }
            dv /= dsv;
        } else if kk < 0 {
            let j1 = -kk;
            dv *= TENS[(j1 & 0xf) as usize];
            let mut j = j1 >> 4;
            let mut n = 0;
            while j != 0 {
                if j & 1 != 0 {
                    ieps += 1;
                    dv *= BIGTENS[n];
                }
                j >>= 1;
                n += 1;
            }
        }
        if k_check && dv < 1.0 && il > 0 {
            if ilim1 <= 0 {
                ok = false;
            } else {
                il = ilim1;
                kk -= 1;
                dv *= 10.0;
                ieps += 1;
            }
        }
        if ok {
            let mut eps = ieps as f64 * dv + 7.0;
            eps = f64::from_bits(eps.to_bits().wrapping_sub(52u64 << 52));
            if il == 0 {
                dv -= 5.0;
                if dv > eps {
                    return (vec![1], kk + 2);
                }
                if dv < -eps {
                    return (Vec::new(), -ndigits);
                }
            } else {
                eps *= TENS[(il - 1) as usize];
                let mut digits: Vec<u8> = Vec::new();
                let mut n = 1;
                loop {
                    let l = dv as i64;
                    dv -= l as f64;
                    if dv == 0.0 {
                        il = n;
                    }
                    digits.push(l as u8);
                    if n == il {
                        if dv > 0.5 + eps {
                            return bump_up(digits, kk);
                        } else if dv < 0.5 - eps {
                            while digits.last() == Some(&0) {
                                digits.pop();
                            }
                            return (digits, kk + 1);
                        }
                        half = true;
                        if digits.last().is_some_and(|x| x & 1 == 1) {
                            return bump_up(digits, kk);
                        }
                        break;
                    }
                    n += 1;
                    dv *= 10.0;
                }
            }
        }
    }
    // A "small" integer: exact in floating point.
    if d.fract() == 0.0 && (0..=14).contains(&k) {
        let dsv = TENS[k as usize];
        let mut dv = d;
        let mut digits = Vec::new();
        let mut n = 1;
        loop {
            let l = (dv / dsv) as i64;
            dv -= l as f64 * dsv;
            digits.push(l as u8);
            if dv == 0.0 {
                break;
            }
            if n == ilim {
                dv += dv;
                if dv > dsv || (dv == dsv && l & 1 == 1) {
                    return bump_up(digits, k);
                }
                break;
            }
            n += 1;
            dv *= 10.0;
        }
        while digits.last() == Some(&0) && digits.len() > 1 {
            digits.pop();
        }
        return (digits, k + 1);
    }
    // Exact.
    let (all, p) = exact_decimal(d);
    let k = p - 1;
    let ilim = if mode == 2 {
        ndigits.max(1)
    } else {
        ndigits + k + 1
    };
    if ilim <= 0 {
        // No digit, or one: above half of the last place rounds up.
        let above_half = ilim == 0 && (all[0] > 5 || (all[0] == 5 && all.len() > 1));
        return if above_half {
            (vec![1], k + 2)
        } else {
            (Vec::new(), -ndigits)
        };
    }
    let n = ilim as usize;
    if all.len() <= n {
        return (all, p);
    }
    let mut digits = all[..n].to_vec();
    let rest = &all[n..];
    let cmp_half = match rest[0].cmp(&5) {
        std::cmp::Ordering::Equal if rest.len() > 1 => std::cmp::Ordering::Greater,
        o => o,
    };
    let last_odd = digits.last().is_some_and(|x| x & 1 == 1);
    if cmp_half == std::cmp::Ordering::Greater
        || (cmp_half == std::cmp::Ordering::Equal && last_odd)
    {
        // roundoff
        while digits.last() == Some(&9) {
            digits.pop();
            if digits.is_empty() {
                return (vec![1], k + 2);
            }
        }
        let last = digits.len() - 1;
        if !half || digits[last] & 1 == 1 {
            digits[last] += 1;
        }
        return (digits, k + 1);
    }
    while digits.last() == Some(&0) {
        digits.pop();
    }
    (digits, k + 1)
}

pub(super) fn bump_up(mut digits: Vec<u8>, k: i32) -> (Vec<u8>, i32) {
    while digits.last() == Some(&9) {
        digits.pop();
        if digits.is_empty() {
            return (vec![1], k + 2);
        }
    }
    let last = digits.len() - 1;
    digits[last] += 1;
    (digits, k + 1)
}

/// One `%` directive.
#[derive(Default, Clone)]
pub(super) struct Spec {
    minus: bool,
    plus: bool,
    space: bool,
    zero: bool,
    alt: bool,
    width: Option<usize>,
    prec: Option<usize>,
}

impl Spec {
    /// Pads `body` (sign and prefix in `head`) to the width.
    pub(super) fn pad(&self, head: &str, body: &str, zero_ok: bool) -> String {
        let len = head.chars().count() + body.chars().count();
        let w = self.width.unwrap_or(0);
        if len >= w {
            return format!("{head}{body}");
        }
        let fill = w - len;
        if self.minus {
            format!("{head}{body}{}", " ".repeat(fill))
        } else if self.zero && zero_ok {
            format!("{head}{}{body}", "0".repeat(fill))
        } else {
            format!("{}{head}{body}", " ".repeat(fill))
        }
    }
}

pub(super) enum FmtInt {
    Small(i64),
    /// A magnitude in decimal digits, and the sign.
    Big(String, bool),
}

/// The arguments of a format: positional, or one hash for named ones.
pub(super) struct FmtArgs<'a> {
    args: &'a [Value],
    next: usize,
}

impl<'a> FmtArgs<'a> {
    pub(super) fn next(&mut self) -> Result<&'a Value, String> {
        let v = self.args.get(self.next).ok_or("too few arguments")?;
        self.next += 1;
        Ok(v)
    }

    pub(super) fn at(&self, n: usize) -> Result<&'a Value, String> {
        if n == 0 {
            return Err("invalid index - 0$".into());
        }
        self.args
            .get(n - 1)
            .ok_or_else(|| "too few arguments".into())
    }

    pub(super) fn named(&self, name: &str) -> Result<&'a Value, String> {
        match self.args {
            [Value::Hash(h)] => h
                .get(&Value::string(name))
                .ok_or_else(|| format!("key<{name}> not found")),
            _ => Err("one hash required".into()),
        }
    }
}

/// Ruby's `Integer(x)` as `format` applies it for `%d`.
pub(super) fn fmt_integer(v: &Value) -> Result<FmtInt, String> {
    match v {
        Value::Integer(n) => Ok(FmtInt::Small(*n)),
        // A Timestamp or Timespan is a Ruby Numeric: its `to_int` seconds.
        Value::Timestamp(t) | Value::Timespan(t) => Ok(FmtInt::Small(
            i64::try_from(t.as_secs_floor()).unwrap_or(i64::MAX),
        )),
        Value::Float(f) => {
            if f.is_nan() {
                return Err("NaN".into());
            }
            if f.is_infinite() {
                return Err(if *f > 0.0 { "Infinity" } else { "-Infinity" }.into());
            }
            let t = f.trunc();
            if t.abs() < 9.2e18 {
                return Ok(FmtInt::Small(t as i64));
            }
            let (digits, p) = exact_decimal(t.abs());
            let mut s: String = digits.iter().map(|d| (b'0' + d) as char).collect();
            while (s.len() as i32) < p {
                s.push('0');
            }
            Ok(FmtInt::Big(s, t < 0.0))
        }
        Value::String(s) => ruby_integer(s, None).map(FmtInt::Small).ok_or_else(|| {
            format!(
                "invalid value for Integer(): {}",
                puppet_model::names::ruby_inspect_str(s)
            )
        }),
        Value::Undef => Err("can't convert nil into Integer".into()),
        Value::Boolean(b) => Err(format!("can't convert {b} into Integer")),
        other => Err(format!("can't convert {} into Integer", ruby_class(other))),
    }
}

/// Ruby's `Float(x)` as `format` applies it for `%f`.
pub(super) fn fmt_float(v: &Value) -> Result<f64, String> {
    match v {
        Value::Integer(n) => Ok(*n as f64),
        Value::Float(f) => Ok(*f),
        Value::Timestamp(t) | Value::Timespan(t) => Ok(t.as_f64()),
        Value::String(s) => ruby_float_of(s).ok_or_else(|| {
            format!(
                "invalid value for Float(): {}",
                puppet_model::names::ruby_inspect_str(s)
            )
        }),
        Value::Undef => Err("can't convert nil into Float".into()),
        Value::Boolean(b) => Err(format!("can't convert {b} into Float")),
        other => Err(format!("can't convert {} into Float", ruby_class(other))),
    }
}

/// Digits of a non-negative integer in base 2, 8 or 16.
pub(super) fn radix_digits(mut n: u128, base: u32, upper: bool) -> String {
    if n == 0 {
        return "0".into();
    }
    let mut out = Vec::new();
    while n > 0 {
        let d = (n % base as u128) as u32;
        out.push(std::char::from_digit(d, base).unwrap_or('0'));
        n /= base as u128;
    }
    let s: String = out.into_iter().rev().collect();
    if upper {
        s.to_uppercase()
    } else {
        s
    }
}

pub(super) fn format_integer(spec: &Spec, conv: char, v: &Value) -> Result<String, String> {
    let n = fmt_integer(v)?;
    let (base, upper) = match conv {
        'x' => (16, false),
        'X' => (16, true),
        'o' => (8, false),
        'b' | 'B' => (2, false),
        _ => (10, false),
    };
    let (neg, mag): (bool, String) = match &n {
        FmtInt::Small(i) => (
            *i < 0,
            if base == 10 {
                i.unsigned_abs().to_string()
            } else {
                radix_digits(i.unsigned_abs() as u128, base, upper)
            },
        ),
        FmtInt::Big(s, neg) => (*neg, s.clone()),
    };
    let prefix = if spec.alt {
        match conv {
            'x' => "0x",
            'X' => "0X",
            'b' => "0b",
            'B' => "0B",
            'o' => "0",
            _ => "",
        }
    } else {
        ""
    };
    // Ruby shows negative numbers in base 2, 8, 16 as two's complement
    // (`..f01`) unless a sign is asked for.
    if neg && base != 10 && !spec.plus && !spec.space {
        if let FmtInt::Small(i) = n {
            let bits_per = match base {
                16 => 4,
                8 => 3,
                _ => 1,
            };
            let width_bits = 128 - (128 % bits_per);
            let mask: u128 = if width_bits == 128 {
                u128::MAX
            } else {
                (1u128 << width_bits) - 1
            };
            let twos = (i as i128 as u128) & mask;
            let full = radix_digits(twos, base, upper);
            let sign_digit = std::char::from_digit(base - 1, base).unwrap_or('f');
            let sign_digit = if upper {
                sign_digit.to_ascii_uppercase()
            } else {
                sign_digit
            };
            let stripped = full.trim_start_matches(sign_digit);
            let mut body = format!("{sign_digit}{stripped}");
            if let Some(p) = spec.prec {
                let p = p.saturating_sub(2);
                while body.chars().count() < p {
                    body.insert(0, sign_digit);
                }
            } else if spec.zero && !spec.minus {
                let w = spec.width.unwrap_or(0).saturating_sub(2 + prefix.len());
                while body.chars().count() < w {
                    body.insert(0, sign_digit);
                }
            }
            let o_prefix = if conv == 'o' { "" } else { prefix };
            return Ok(spec.pad(&format!("{o_prefix}.."), &body, false));
        }
    }
    let sign = if neg {
        "-"
    } else if spec.plus {
        "+"
    } else if spec.space {
        " "
    } else {
        ""
    };
    let mut body = mag;
    if spec.prec == Some(0) && body == "0" {
        body.clear();
    }
    if let Some(p) = spec.prec {
        while body.len() < p {
            body.insert(0, '0');
        }
    }
    let is_zero = matches!(n, FmtInt::Small(0));
    let prefix = if (conv == 'o' && body.starts_with('0')) || (is_zero && conv != 'o') {
        ""
    } else {
        prefix
    };
    Ok(spec.pad(&format!("{sign}{prefix}"), &body, spec.prec.is_none()))
}

pub(super) fn digits_str(d: &[u8]) -> String {
    d.iter().map(|x| (b'0' + x) as char).collect()
}

/// `%f`, `%e`, `%g` of a double, as Ruby's BSD `vfprintf` prints them.
pub(super) fn format_float(spec: &Spec, conv: char, f: f64) -> String {
    let neg = f.is_sign_negative() && !f.is_nan();
    let sign = if neg {
        "-"
    } else if spec.plus {
        "+"
    } else if spec.space {
        " "
    } else {
        ""
    };
    if !f.is_finite() {
        let body = if f.is_nan() { "NaN" } else { "Inf" };
        return spec.pad(sign, body, false);
    }
    let a = f.abs();
    let upper = conv.is_ascii_uppercase();
    let body = match conv.to_ascii_lowercase() {
        'f' => {
            let prec = spec.prec.unwrap_or(6);
            let (digits, decpt) = ruby_dtoa(a, 3, prec as i32);
            fixed_body(&digits, decpt, prec, spec.alt)
        }
        'e' => {
            let prec = spec.prec.unwrap_or(6);
            let (digits, decpt) = ruby_dtoa(a, 2, prec as i32 + 1);
            exp_body(&digits, decpt, prec, spec.alt, upper, a == 0.0)
        }
        _ => {
            let p = match spec.prec {
                Some(0) => 1,
                Some(p) => p,
                None => 6,
            };
            let (digits, decpt) = ruby_dtoa(a, 2, p as i32);
            let expt = if a == 0.0 { 0 } else { decpt - 1 };
            if expt < -4 || expt >= p as i32 {
                let prec = if spec.alt {
                    p - 1
                } else {
                    digits.len().saturating_sub(1)
                };
                exp_body(&digits, decpt, prec, spec.alt, upper, a == 0.0)
            } else {
                let frac = if spec.alt {
                    (p as i32 - decpt.max(if a == 0.0 { 1 } else { decpt })).max(0) as usize
                } else {
                    (digits.len() as i32 - decpt).max(0) as usize
                };
                fixed_body(&digits, if a == 0.0 { 1 } else { decpt }, frac, spec.alt)
            }
        }
    };
    spec.pad(sign, &body, true)
}

pub(super) fn fixed_body(digits: &[u8], decpt: i32, prec: usize, alt: bool) -> String {
    let all = digits_str(digits);
    let int_part = if decpt <= 0 || all.is_empty() {
        "0".to_string()
    } else if all.len() as i32 >= decpt {
        all[..decpt as usize].to_string()
    } else {
        format!("{all}{}", "0".repeat((decpt - all.len() as i32) as usize))
    };
    let mut frac = String::new();
    if decpt < 0 {
        frac.push_str(&"0".repeat((-decpt) as usize));
        frac.push_str(&all);
    } else if (decpt as usize) < all.len() {
        frac.push_str(&all[decpt as usize..]);
    }
    while frac.len() < prec {
        frac.push('0');
    }
    frac.truncate(prec);
    if prec > 0 || alt {
        format!("{int_part}.{frac}")
    } else {
        int_part
    }
}

pub(super) fn exp_body(
    digits: &[u8],
    decpt: i32,
    prec: usize,
    alt: bool,
    upper: bool,
    zero: bool,
) -> String {
    let all = if digits.is_empty() {
        "0".to_string()
    } else {
        digits_str(digits)
    };
    let exp = if zero { 0 } else { decpt - 1 };
    let mut frac: String = all.chars().skip(1).collect();
    while frac.len() < prec {
        frac.push('0');
    }
    frac.truncate(prec);
    let mantissa = if prec > 0 || alt {
        format!("{}.{frac}", &all[..1])
    } else {
        all[..1].to_string()
    };
    format!(
        "{mantissa}{}{}{:02}",
        if upper { 'E' } else { 'e' },
        if exp < 0 { '-' } else { '+' },
        exp.abs()
    )
}

/// Ruby's `format(fmt, *args)`, with `to_s` as `ruby_to_s` gives it.
pub(super) fn ruby_format(fmt: &str, args: &[Value]) -> Result<String, String> {
    let mut out = String::new();
    let mut fa = FmtArgs { args, next: 0 };
    let cs: Vec<char> = fmt.chars().collect();
    let mut i = 0;
    while i < cs.len() {
        let c = cs[i];
        if c != '%' {
            out.push(c);
            i += 1;
            continue;
        }
        let start = i;
        i += 1;
        let mut spec = Spec::default();
        let mut value: Option<&Value> = None;
        let mut started = false;
        loop {
            let Some(&c) = cs.get(i) else {
                return Err("incomplete format specifier; use %% (double %) instead".into());
            };
            i += 1;
            match c {
                ' ' => spec.space = true,
                '#' => spec.alt = true,
                '+' => spec.plus = true,
                '-' => spec.minus = true,
                '0' if spec.width.is_none() && spec.prec.is_none() => spec.zero = true,
                '1'..='9' | '0' => {
                    let mut n = c.to_digit(10).unwrap_or(0) as usize;
                    while let Some(d) = cs.get(i).and_then(|c| c.to_digit(10)) {
                        n = n.saturating_mul(10).saturating_add(d as usize);
                        i += 1;
                    }
                    if cs.get(i) == Some(&'$') {
                        i += 1;
                        value = Some(fa.at(n)?);
                    } else {
                        spec.width = Some(checked_size(n, "width")?);
                    }
                }
                '<' | '{' => {
                    let close = if c == '<' { '>' } else { '}' };
                    let end = cs[i..]
                        .iter()
                        .position(|&x| x == close)
                        .map(|p| i + p)
                        .ok_or("malformed name - unmatched parenthesis")?;
                    let name: String = cs[i..end].iter().collect();
                    i = end + 1;
                    let v = fa.named(&name)?;
                    if c == '{' {
                        let s = ruby_to_s(v);
                        out.push_str(&spec.pad("", &s, false));
                        break;
                    }
                    value = Some(v);
                }
                '*' => {
                    let w = match fa.next()? {
                        Value::Integer(n) => *n,
                        other => match fmt_integer(other)? {
                            FmtInt::Small(n) => n,
                            FmtInt::Big(..) => return Err("width too big".into()),
                        },
                    };
                    if w < 0 {
                        spec.minus = true;
                    }
                    spec.width = Some(checked_size(w.unsigned_abs() as usize, "width")?);
                }
                '.' => {
                    let mut n = 0usize;
                    if cs.get(i) == Some(&'*') {
                        i += 1;
                        if let Value::Integer(p) = fa.next()? {
                            n = (*p).max(0) as usize;
                        }
                    } else {
                        while let Some(d) = cs.get(i).and_then(|c| c.to_digit(10)) {
                            n = n.saturating_mul(10).saturating_add(d as usize);
                            i += 1;
                        }
                    }
                    spec.prec = Some(checked_size(n, "precision")?);
                }
                '%' => {
                    if i - start > 2 || started {
                        return Err("invalid format character - %".into());
                    }
                    out.push('%');
                    break;
                }
                '\n' | '\0' => {
                    out.push('%');
                    i -= 1;
                    break;
                }
                conv @ ('d' | 'i' | 'u' | 'x' | 'X' | 'o' | 'b' | 'B' | 'f' | 'e' | 'E' | 'g'
                | 'G' | 's' | 'p' | 'c' | 'a' | 'A') => {
                    let v = match value {
                        Some(v) => v,
                        None => fa.next()?,
                    };
                    out.push_str(&format_one(&spec, conv, v)?);
                    break;
                }
                other => {
                    return Err(format!("malformed format string - %{other}"));
                }
            }
            started = true;
        }
    }
    Ok(out)
}

/// The largest width or precision pverify pads to. Ruby refuses a number
/// past `INT_MAX` ("width too big"); below that it allocates whatever is
/// asked, which would let one manifest exhaust the memory of every node
/// compiling in parallel, so pverify refuses past 64 MiB with Ruby's text.
const MAX_FORMAT_SIZE: usize = 64 << 20;

fn checked_size(n: usize, what: &str) -> Result<usize, String> {
    if n > MAX_FORMAT_SIZE {
        Err(format!("{what} too big"))
    } else {
        Ok(n)
    }
}

pub(super) fn format_one(spec: &Spec, conv: char, v: &Value) -> Result<String, String> {
    Ok(match conv {
        'd' | 'i' | 'u' | 'x' | 'X' | 'o' | 'b' | 'B' => format_integer(spec, conv, v)?,
        'f' if matches!(v, Value::Integer(_)) => {
            // Ruby formats an Integer exactly.
            let Value::Integer(n) = v else { unreachable!() };
            let prec = spec.prec.unwrap_or(6);
            let sign = if *n < 0 {
                "-"
            } else if spec.plus {
                "+"
            } else if spec.space {
                " "
            } else {
                ""
            };
            let mut body = n.unsigned_abs().to_string();
            if prec > 0 || spec.alt {
                body.push('.');
                body.push_str(&"0".repeat(prec));
            }
            spec.pad(sign, &body, true)
        }
        'f' | 'e' | 'E' | 'g' | 'G' | 'a' | 'A' => format_float(spec, conv, fmt_float(v)?),
        'c' => {
            let ch = match v {
                Value::Integer(n) => u32::try_from(*n)
                    .ok()
                    .and_then(char::from_u32)
                    .ok_or_else(|| format!("invalid character: {n}"))?
                    .to_string(),
                Value::String(s) if s.chars().count() == 1 => s.to_string(),
                Value::String(_) => return Err("%c requires a character".into()),
                other => match fmt_integer(other)? {
                    FmtInt::Small(n) => u32::try_from(n)
                        .ok()
                        .and_then(char::from_u32)
                        .map(|c| c.to_string())
                        .unwrap_or_default(),
                    FmtInt::Big(..) => return Err("%c requires a character".into()),
                },
            };
            spec.pad("", &ch, false)
        }
        _ => {
            let mut s = if conv == 'p' {
                ruby_inspect(v)
            } else {
                ruby_to_s(v)
            };
            if let Some(p) = spec.prec {
                s = s.chars().take(p).collect();
            }
            spec.pad("", &s, false)
        }
    })
}

pub(super) fn sprintf(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    cx.arity3(args, -2)?;
    let args = args3(args);
    let fmt = match &args[0] {
        Value::String(s) => s.to_string(),
        Value::Boolean(b) => return cx.fail(format!("no implicit conversion of {b} into String")),
        other => {
            return cx.fail(format!(
                "no implicit conversion of {} into String",
                ruby_class(other)
            ))
        }
    };
    match ruby_format(&fmt, &args[1..]) {
        // Ruby's `format` answers in its format's encoding.
        Ok(s) => Ok(crate::bad_bytes::in_encoding_of_value(&args[0], s)),
        Err(e) => cx.fail(e),
    }
}

/// The arguments as a 3.x function receives them: undef as an empty string.
pub(super) fn args3(args: &[Value]) -> Vec<Value> {
    args.iter()
        .map(|a| match a {
            Value::Undef => Value::string(""),
            // Puppet 3.x functions see a Timestamp or Timespan as its string.
            Value::Timestamp(_) | Value::Timespan(_) => Value::string(a.to_string()),
            Value::Type(t) => match t.as_ref() {
                // A resource reference becomes a `Puppet::Resource`.
                PType::Resource {
                    type_name: Some(tn),
                    title: Some(title),
                } => Value::string(format!("{tn}[{title}]")),
                PType::Class(Some(c)) => Value::string(format!(
                    "Class[{}]",
                    puppet_model::types::capitalize_segments(c)
                )),
                _ => a.clone(),
            },
            other => versions_as_strings(other),
        })
        .collect()
}

/// Runtime3Converter's `convert_Version`/`convert_VersionRange`: a SemVer
/// or SemVerRange, at any depth, reaches a 3.x function as its string.
fn versions_as_strings(v: &Value) -> Value {
    // Data can nest deeper than the stack: grow it on the heap, checked
    // once per container (every 3.x call walks its arguments: a check per
    // scalar was most of `has_key` on apache's module hashes).
    fn has_version(v: &Value) -> bool {
        match v {
            Value::SemVer(_) | Value::SemVerRange(_) => true,
            Value::Array(a) => {
                stacker::maybe_grow(256 << 10, 4 << 20, || a.iter().any(has_version))
            }
            Value::Hash(h) => stacker::maybe_grow(256 << 10, 4 << 20, || {
                h.iter().any(|(k, x)| has_version(k) || has_version(x))
            }),
            _ => false,
        }
    }
    if !has_version(v) {
        return v.clone();
    }
    stacker::maybe_grow(256 << 10, 4 << 20, || match v {
        Value::SemVer(_) | Value::SemVerRange(_) => Value::string(v.to_string()),
        Value::Array(a) => Value::array(a.iter().map(versions_as_strings).collect()),
        Value::Hash(h) => Value::hash(
            h.iter()
                .map(|(k, x)| (versions_as_strings(k), versions_as_strings(x)))
                .collect(),
        ),
        other => other.clone(),
    })
}
