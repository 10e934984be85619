//! Ruby's `Float#to_s`, shared by every text Puppet makes of a Float (PN
//! dumps, catalog JSON, `to_yaml`, string interpolation).

/// Ruby's `Float#to_s`: the shortest digits that round-trip; plain notation
/// when the decimal exponent is in -4..16 (`0.0001`, `123456789012345.0`),
/// else `d.ddde+XX` (`1.0e+16`, `1.0e-05`).
pub fn ruby_float(f: f64) -> String {
    if f.is_nan() {
        return "NaN".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    if f == 0.0 {
        return if f.is_sign_negative() { "-0.0" } else { "0.0" }.into();
    }
    // Rust's `{:e}` gives the shortest round-trip digits: `d.ddde-N`.
    let sci = format!("{:e}", f.abs());
    let (mantissa, exp) = sci.split_once('e').expect("exponent");
    let exp: i32 = exp.parse().expect("exponent digits");
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let sign = if f < 0.0 { "-" } else { "" };
    // decpt: the position of the decimal point relative to the digits.
    let decpt = exp + 1;
    if -4 < decpt && decpt < 16 {
        if decpt <= 0 {
            format!("{sign}0.{}{digits}", "0".repeat((-decpt) as usize))
        } else if (decpt as usize) >= digits.len() {
            format!(
                "{sign}{digits}{}.0",
                "0".repeat(decpt as usize - digits.len())
            )
        } else {
            let (a, b) = digits.split_at(decpt as usize);
            format!("{sign}{a}.{b}")
        }
    } else {
        let (first, rest) = digits.split_at(1);
        let rest = if rest.is_empty() { "0" } else { rest };
        let esign = if exp < 0 { '-' } else { '+' };
        format!("{sign}{first}.{rest}e{esign}{:02}", exp.abs())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_print_as_ruby() {
        // Each pair checked with Ruby 3.1's Float#to_s.
        let cases = [
            (1e15, "1.0e+15"),
            (1e14, "100000000000000.0"),
            (2e15, "2.0e+15"),
            (123456789012345.0, "123456789012345.0"),
            (1234567890123456.0, "1.234567890123456e+15"),
            (1e16, "1.0e+16"),
            (100.0, "100.0"),
            (0.0001, "0.0001"),
            (0.00012, "0.00012"),
            (1e-5, "1.0e-05"),
            (5e-324, "5.0e-324"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
            (0.1 + 0.2, "0.30000000000000004"),
            (1e100, "1.0e+100"),
            (999999999999999.9, "999999999999999.9"),
            (1.0, "1.0"),
            (-2.5, "-2.5"),
            (-0.0, "-0.0"),
            (1e20, "1.0e+20"),
        ];
        for (f, s) in cases {
            assert_eq!(ruby_float(f), s, "{f:e}");
        }
    }
}
