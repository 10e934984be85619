//! Digests, fqdn_rand (Ruby's MT19937), shellquote (3.x functions).

use super::numbers::ruby_to_i;
use super::ruby::ruby_class;
use super::ruby_format::args3;
use super::Cx;
use crate::eval::expr::R;
use crate::eval::value::Value;
use puppet_model::ruby::digest::{hex, md5_digest, sha1_digest, sha256_digest};
use puppet_model::ruby::{ruby_inspect, ruby_to_s};

pub(super) fn digest_arg(cx: &Cx<'_, '_>, args: &[Value]) -> R<Vec<u8>> {
    cx.arity3(args, 1)?;
    match &args3(args)[0] {
        Value::String(s) => Ok(s.as_bytes().to_vec()),
        other => cx.fail(format!(
            "no implicit conversion of {} into String",
            match other {
                Value::Boolean(true) => "true".to_string(),
                Value::Boolean(false) => "false".to_string(),
                o => ruby_class(o),
            }
        )),
    }
}

pub(super) fn md5(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let data = digest_arg(cx, args)?;
    Ok(Value::string(hex(&md5_digest(&data))))
}

pub(super) fn sha1(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let data = digest_arg(cx, args)?;
    Ok(Value::string(hex(&sha1_digest(&data))))
}

pub(super) fn sha256(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let data = digest_arg(cx, args)?;
    Ok(Value::string(hex(&sha256_digest(&data))))
}

/// `digest`: the `digest_algorithm` setting's digest, SHA-256 by default.
pub(super) fn digest(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let data = digest_arg(cx, args)?;
    use crate::settings::DigestAlgorithm;
    Ok(Value::string(match cx.c.node.settings.digest_algorithm {
        Some(DigestAlgorithm::Md5) => hex(&md5_digest(&data)),
        Some(DigestAlgorithm::Sha256) | None => hex(&sha256_digest(&data)),
    }))
}

/// Ruby's MT19937 (`Random.new(seed)`).
pub(super) struct Mt {
    state: [u32; 624],
    index: usize,
}

impl Mt {
    pub(super) fn init_genrand(s: u32) -> Mt {
        let mut state = [0u32; 624];
        state[0] = s;
        for i in 1..624 {
            state[i] = 1812433253u32
                .wrapping_mul(state[i - 1] ^ (state[i - 1] >> 30))
                .wrapping_add(i as u32);
        }
        Mt { state, index: 624 }
    }

    pub(super) fn init_by_array(key: &[u32]) -> Mt {
        let mut mt = Mt::init_genrand(19650218);
        let n = 624;
        let (mut i, mut j) = (1usize, 0usize);
        let mut k = n.max(key.len());
        while k > 0 {
            let prev = mt.state[i - 1];
            mt.state[i] = (mt.state[i] ^ (prev ^ (prev >> 30)).wrapping_mul(1664525))
                .wrapping_add(key[j])
                .wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= n {
                mt.state[0] = mt.state[n - 1];
                i = 1;
            }
            if j >= key.len() {
                j = 0;
            }
            k -= 1;
        }
        k = n - 1;
        while k > 0 {
            let prev = mt.state[i - 1];
            mt.state[i] = (mt.state[i] ^ (prev ^ (prev >> 30)).wrapping_mul(1566083941))
                .wrapping_sub(i as u32);
            i += 1;
            if i >= n {
                mt.state[0] = mt.state[n - 1];
                i = 1;
            }
            k -= 1;
        }
        mt.state[0] = 0x80000000;
        mt
    }

    pub(super) fn next_u32(&mut self) -> u32 {
        if self.index >= 624 {
            for i in 0..624 {
                let y = (self.state[i] & 0x80000000) | (self.state[(i + 1) % 624] & 0x7fffffff);
                let mut v = self.state[(i + 397) % 624] ^ (y >> 1);
                if y & 1 != 0 {
                    v ^= 0x9908b0df;
                }
                self.state[i] = v;
            }
            self.index = 0;
        }
        let mut y = self.state[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c5680;
        y ^= (y << 15) & 0xefc60000;
        y ^ (y >> 18)
    }

    /// Ruby's `limited_rand`: uniform in `0..=limit`.
    pub(super) fn limited(&mut self, limit: u64) -> u64 {
        if limit == 0 {
            return 0;
        }
        let bits = 64 - limit.leading_zeros();
        let mask = if bits == 64 {
            u64::MAX
        } else {
            (1u64 << bits) - 1
        };
        'retry: loop {
            let mut val = 0u64;
            for i in (0..2).rev() {
                if (mask >> (i * 32)) & 0xffff_ffff != 0 {
                    val |= (self.next_u32() as u64) << (i * 32);
                    val &= mask;
                    if limit < val {
                        continue 'retry;
                    }
                }
            }
            return val;
        }
    }
}

/// `Random.new(seed)` for a non-negative seed given as big-endian bytes.
pub(super) fn ruby_random(seed_be: &[u8]) -> Mt {
    let mut words: Vec<u32> = seed_be
        .rchunks(4)
        .map(|c| {
            let mut b = [0u8; 4];
            b[4 - c.len()..].copy_from_slice(c);
            u32::from_be_bytes(b)
        })
        .collect();
    while words.len() > 1 && words.last() == Some(&0) {
        words.pop();
    }
    if words.is_empty() {
        words.push(0);
    }
    if words.len() > 1 && words.last() == Some(&1) {
        words.pop();
    }
    if words.len() <= 1 {
        return Mt::init_genrand(words[0]);
    }
    Mt::init_by_array(&words)
}

pub(super) fn fqdn_rand(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    cx.arity3(args, -2)?;
    let args = args3(args);
    let max = match &args[0] {
        Value::Integer(n) => *n,
        Value::Float(f) => *f as i64,
        Value::String(s) => ruby_to_i(s),
        _ => 0,
    };
    let seed = args.get(1).map(ruby_join_piece).unwrap_or_default();
    let downcase = args.get(2).is_some_and(|v| v.is_truthy());
    let facts =
        cx.c.scopes
            .get(cx.c.scopes.top())
            .vars
            .get("facts")
            .cloned();
    let fqdn = facts
        .as_ref()
        .and_then(|f| match f {
            Value::Hash(h) => h.get(&Value::string("networking")).cloned(),
            _ => None,
        })
        .and_then(|n| match &n {
            Value::Hash(h) => h.get(&Value::string("fqdn")).cloned(),
            _ => None,
        })
        .map(|v| ruby_join_piece(&v))
        .unwrap_or_default();
    let fqdn = if downcase { fqdn.to_lowercase() } else { fqdn };
    let text = format!("{fqdn}:{max}:{seed}");
    if max <= 0 {
        return cx.fail(format!("invalid argument - {max}"));
    }
    let digest = md5_digest(text.as_bytes());
    let mut mt = ruby_random(&digest);
    Ok(Value::Integer(mt.limited(max as u64 - 1) as i64))
}

/// An element as Ruby's `Array#join` writes it (arrays flattened).
pub(super) fn ruby_join_piece(v: &Value) -> String {
    match v {
        Value::Array(items) => items
            .iter()
            .map(ruby_join_piece)
            .collect::<Vec<_>>()
            .join(":"),
        other => ruby_to_s(other),
    }
}

pub(super) fn shellquote(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let safe = |c: char| c.is_ascii_alphanumeric() || "@%_+=:,./-".contains(c);
    let dangerous = |c: char| "!\"`$\\".contains(c);
    pub(super) fn flat(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::Array(a) => a.iter().for_each(|x| flat(x, out)),
            other => out.push(ruby_to_s(other)),
        }
    }
    pub(super) fn flat_values(v: &Value, out: &mut Vec<Value>) {
        match v {
            Value::Array(a) => a.iter().for_each(|x| flat_values(x, out)),
            other => out.push(other.clone()),
        }
    }
    let mut values = Vec::new();
    args3(args).iter().for_each(|a| flat_values(a, &mut values));
    if let Some(bad) = values.iter().find(|v| !matches!(v, Value::String(_))) {
        return cx.fail(format!(
            "undefined method `length' for {}:{}",
            ruby_inspect(bad),
            ruby_class(bad)
        ));
    }
    let mut words = Vec::new();
    values.iter().for_each(|a| flat(a, &mut words));
    let quoted: Vec<String> = words
        .into_iter()
        .map(|w| {
            if !w.is_empty() && w.chars().all(safe) {
                w
            } else if !w.chars().any(dangerous) {
                format!("\"{w}\"")
            } else if !w.contains('\'') {
                format!("'{w}'")
            } else {
                let mut r = String::from("\"");
                for c in w.chars() {
                    if dangerous(c) {
                        r.push('\\');
                    }
                    r.push(c);
                }
                r.push('"');
                r
            }
        })
        .collect();
    Ok(Value::string(quoted.join(" ")))
}
