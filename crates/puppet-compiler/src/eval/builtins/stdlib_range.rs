//! stdlib's `range` (3.x): `range(start, stop[, step])` or `range('a..c')`,
//! integers when `start` is all digits, otherwise Ruby string ranges
//! (`String#succ`), at most 1,000,000 elements as stdlib takes.

use super::ruby_format::args3;
use super::Cx;
use crate::eval::expr::R;
use crate::eval::value::Value;
use puppet_model::ruby::ruby_to_s;

use super::numbers::ruby_to_i;

const MAX_ELEMENTS: usize = 1_000_000;

pub(super) fn range(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let args = args3(args);
    if args.is_empty() {
        return cx.fail("range(): Wrong number of arguments given (0 for 1)");
    }
    let (start, stop, step, exclusive) = if args.len() > 1 {
        let step = match args.get(2) {
            None | Some(Value::Undef) => 1,
            Some(v) => to_i(v).unsigned_abs(),
        };
        if step == 0 {
            return cx
                .fail("range(): 3rd arg (step size) must be a non zero integer (e.g. 1 or -1)");
        }
        (args[0].clone(), args[1].clone(), step, false)
    } else {
        let value = ruby_to_s(&args[0]);
        match split_range(&value) {
            Some((a, op, b)) => (Value::string(a), Value::string(b), 1, op == "..."),
            None if value.is_empty() => {
                return cx.fail(format!("range(): Unknown range format: {value}"))
            }
            None => {
                return cx.fail(format!(
                    "range(): Unable to compute range from the value: {value}"
                ))
            }
        }
    };
    let step = usize::try_from(step).unwrap_or(usize::MAX);
    let start_s = ruby_to_s(&start);
    if !start_s.is_empty() && start_s.chars().all(|c| c.is_ascii_digit()) {
        let (a, b) = (to_i(&start), to_i(&stop));
        let end = if exclusive { b.saturating_sub(1) } else { b };
        let mut out = Vec::new();
        let mut i = a;
        while i <= end && out.len() < MAX_ELEMENTS {
            out.push(Value::Integer(i));
            match i.checked_add(step as i64) {
                Some(n) => i = n,
                None => break,
            }
        }
        return Ok(Value::array(out));
    }
    Ok(Value::array(
        string_range(&start_s, &ruby_to_s(&stop), exclusive)
            .into_iter()
            .step_by(step)
            .take(MAX_ELEMENTS)
            .map(Value::string)
            .collect(),
    ))
}

/// Ruby's `to_i` of a Puppet value as the 3.x API hands it over.
fn to_i(v: &Value) -> i64 {
    match v {
        Value::Integer(i) => *i,
        Value::Float(f) => *f as i64,
        other => ruby_to_i(&ruby_to_s(other)),
    }
}

/// `^(\w+)(\.\.\.?|-)(\w+)$`: start, operator, stop.
fn split_range(s: &str) -> Option<(&str, &str, &str)> {
    let word = |t: &str| !t.is_empty() && t.chars().all(|c| c.is_alphanumeric() || c == '_');
    for op in ["...", "..", "-"] {
        if let Some(i) = s.find(op) {
            let (a, b) = (&s[..i], &s[i + op.len()..]);
            if word(a) && word(b) {
                return Some((a, op, b));
            }
        }
    }
    None
}

/// Ruby's `(a..b).to_a` for strings: `succ` from `a` until `b`, stopping
/// once the string grows longer than `b` (Ruby's `String#upto`).
fn string_range(a: &str, b: &str, exclusive: bool) -> Vec<String> {
    let mut out = Vec::new();
    // Ruby's String#upto: nothing when start sorts after stop.
    if a.chars().count() > b.chars().count() || a > b {
        return out;
    }
    let mut cur = a.to_string();
    loop {
        if cur == b {
            if !exclusive {
                out.push(cur);
            }
            break;
        }
        if cur.chars().count() > b.chars().count() || out.len() >= MAX_ELEMENTS {
            break;
        }
        let next = succ(&cur);
        out.push(cur);
        cur = next;
    }
    out
}

/// Ruby's `String#succ` for strings with alphanumerics: the rightmost
/// alphanumeric is incremented, carrying leftwards over alphanumerics; a
/// carry out of the leftmost one inserts a new digit or letter there.
fn succ(s: &str) -> String {
    let mut chars: Vec<char> = s.chars().collect();
    let Some(mut i) = chars.iter().rposition(|c| c.is_ascii_alphanumeric()) else {
        // No alphanumerics: the last character is incremented.
        if let Some(last) = chars.last_mut() {
            *last = char::from_u32(*last as u32 + 1).unwrap_or(*last);
        }
        return chars.into_iter().collect();
    };
    loop {
        let (next, carry, first) = match chars[i] {
            'z' => ('a', true, 'a'),
            'Z' => ('A', true, 'A'),
            '9' => ('0', true, '1'),
            c => (char::from_u32(c as u32 + 1).unwrap_or(c), false, c),
        };
        chars[i] = next;
        if !carry {
            break;
        }
        match chars[..i].iter().rposition(|c| c.is_ascii_alphanumeric()) {
            Some(j) => i = j,
            None => {
                chars.insert(i, first);
                break;
            }
        }
    }
    chars.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ruby_succ() {
        // Checked with ruby -e 'p "az".succ' etc.
        assert_eq!(succ("a"), "b");
        assert_eq!(succ("az"), "ba");
        assert_eq!(succ("zz"), "aaa");
        assert_eq!(succ("host09"), "host10");
        assert_eq!(succ("a9"), "b0");
        assert_eq!(succ("Zz"), "AAa");
        assert_eq!(succ("99"), "100");
    }
}
