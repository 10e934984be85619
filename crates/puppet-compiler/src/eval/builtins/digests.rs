//! Digests, fqdn_rand (Ruby's MT19937), shellquote (3.x functions).

#[allow(unused_imports)]
use super::*;

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

pub(super) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
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
    let algo =
        cx.c.node
            .settings
            .get(&Value::string("digest_algorithm"))
            .map(|v| v.to_string())
            .unwrap_or_else(|| "sha256".into());
    Ok(Value::string(match algo.as_str() {
        "md5" => hex(&md5_digest(&data)),
        "sha1" => hex(&sha1_digest(&data)),
        _ => hex(&sha256_digest(&data)),
    }))
}

pub(super) fn md5_digest(data: &[u8]) -> [u8; 16] {
    const S: [u32; 64] = [
        7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 5, 9, 14, 20, 5, 9, 14, 20, 5,
        9, 14, 20, 5, 9, 14, 20, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 6, 10,
        15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
    ];
    let k: Vec<u32> = (0..64)
        .map(|i| ((i as f64 + 1.0).sin().abs() * 4294967296.0) as u32)
        .collect();
    let mut msg = data.to_vec();
    let bit_len = (data.len() as u64).wrapping_mul(8);
    msg.push(0x80);
    while msg.len() % 64 != 56 {
        msg.push(0);
    }
    msg.extend_from_slice(&bit_len.to_le_bytes());
    let (mut a0, mut b0, mut c0, mut d0) =
        (0x67452301u32, 0xefcdab89u32, 0x98badcfeu32, 0x10325476u32);
    for chunk in msg.chunks(64) {
        let m: Vec<u32> = chunk
            .chunks(4)
            .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
            .collect();
        let (mut a, mut b, mut c, mut d) = (a0, b0, c0, d0);
        for i in 0..64 {
            let (f, g) = match i / 16 {
                0 => ((b & c) | (!b & d), i),
                1 => ((d & b) | (!d & c), (5 * i + 1) % 16),
                2 => (b ^ c ^ d, (3 * i + 5) % 16),
                _ => (c ^ (b | !d), (7 * i) % 16),
            };
            let f = f.wrapping_add(a).wrapping_add(k[i]).wrapping_add(m[g]);
            a = d;
            d = c;
            c = b;
            b = b.wrapping_add(f.rotate_left(S[i]));
        }
        a0 = a0.wrapping_add(a);
        b0 = b0.wrapping_add(b);
        c0 = c0.wrapping_add(c);
        d0 = d0.wrapping_add(d);
    }
    let mut out = [0u8; 16];
    for (i, w) in [a0, b0, c0, d0].iter().enumerate() {
        out[i * 4..i * 4 + 4].copy_from_slice(&w.to_le_bytes());
    }
    out
}

pub(super) fn sha_pad(data: &[u8]) -> Vec<u8> {
    let mut msg = data.to_vec();
    let bit_len = (data.len() as u64).wrapping_mul(8);
    msg.push(0x80);
    while msg.len() % 64 != 56 {
        msg.push(0);
    }
    msg.extend_from_slice(&bit_len.to_be_bytes());
    msg
}

pub(super) fn sha1_digest(data: &[u8]) -> [u8; 20] {
    let mut h: [u32; 5] = [0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0];
    for chunk in sha_pad(data).chunks(64) {
        let mut w = [0u32; 80];
        for i in 0..16 {
            w[i] = u32::from_be_bytes([
                chunk[4 * i],
                chunk[4 * i + 1],
                chunk[4 * i + 2],
                chunk[4 * i + 3],
            ]);
        }
        for i in 16..80 {
            w[i] = (w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]).rotate_left(1);
        }
        let (mut a, mut b, mut c, mut d, mut e) = (h[0], h[1], h[2], h[3], h[4]);
        for (i, wi) in w.iter().enumerate() {
            let (f, k) = match i / 20 {
                0 => ((b & c) | (!b & d), 0x5A827999),
                1 => (b ^ c ^ d, 0x6ED9EBA1),
                2 => ((b & c) | (b & d) | (c & d), 0x8F1BBCDC),
                _ => (b ^ c ^ d, 0xCA62C1D6u32),
            };
            let t = a
                .rotate_left(5)
                .wrapping_add(f)
                .wrapping_add(e)
                .wrapping_add(k)
                .wrapping_add(*wi);
            e = d;
            d = c;
            c = b.rotate_left(30);
            b = a;
            a = t;
        }
        for (x, y) in h.iter_mut().zip([a, b, c, d, e]) {
            *x = x.wrapping_add(y);
        }
    }
    let mut out = [0u8; 20];
    for (i, w) in h.iter().enumerate() {
        out[i * 4..i * 4 + 4].copy_from_slice(&w.to_be_bytes());
    }
    out
}

pub(super) fn sha256_digest(data: &[u8]) -> [u8; 32] {
    const K: [u32; 64] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
        0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
        0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
        0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
        0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
        0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
        0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
        0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2,
    ];
    let mut h: [u32; 8] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
        0x5be0cd19,
    ];
    for chunk in sha_pad(data).chunks(64) {
        let mut w = [0u32; 64];
        for i in 0..16 {
            w[i] = u32::from_be_bytes([
                chunk[4 * i],
                chunk[4 * i + 1],
                chunk[4 * i + 2],
                chunk[4 * i + 3],
            ]);
        }
        for i in 16..64 {
            let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
            let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16]
                .wrapping_add(s0)
                .wrapping_add(w[i - 7])
                .wrapping_add(s1);
        }
        let mut v = h;
        for i in 0..64 {
            let s1 = v[4].rotate_right(6) ^ v[4].rotate_right(11) ^ v[4].rotate_right(25);
            let ch = (v[4] & v[5]) ^ (!v[4] & v[6]);
            let t1 = v[7]
                .wrapping_add(s1)
                .wrapping_add(ch)
                .wrapping_add(K[i])
                .wrapping_add(w[i]);
            let s0 = v[0].rotate_right(2) ^ v[0].rotate_right(13) ^ v[0].rotate_right(22);
            let maj = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]);
            let t2 = s0.wrapping_add(maj);
            v[7] = v[6];
            v[6] = v[5];
            v[5] = v[4];
            v[4] = v[3].wrapping_add(t1);
            v[3] = v[2];
            v[2] = v[1];
            v[1] = v[0];
            v[0] = t1.wrapping_add(t2);
        }
        for (x, y) in h.iter_mut().zip(v) {
            *x = x.wrapping_add(y);
        }
    }
    let mut out = [0u8; 32];
    for (i, w) in h.iter().enumerate() {
        out[i * 4..i * 4 + 4].copy_from_slice(&w.to_be_bytes());
    }
    out
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
    let facts = cx.c.scopes.get(cx.c.top).vars.get("facts").cloned();
    let fqdn = facts
        .as_ref()
        .and_then(|f| match f {
            Value::Hash(h) => h.get(&Value::string("networking")).cloned(),
            _ => None,
        })
        .and_then(|n| match n {
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

/// `Digest::MD5.hexdigest(s)`, `Digest::SHA1.hexdigest(s)`,
/// `Digest::SHA256.hexdigest(s)` for the Ruby interpreter.
pub fn ruby_hexdigest(class: &str, data: &[u8]) -> Option<String> {
    ruby_digest(class, data).map(|d| hex(&d))
}

/// `Digest::<class>.digest(data)`: the raw digest bytes.
pub fn ruby_digest(class: &str, data: &[u8]) -> Option<Vec<u8>> {
    Some(match class {
        "MD5" => md5_digest(data).to_vec(),
        "SHA1" => sha1_digest(data).to_vec(),
        "SHA256" => sha256_digest(data).to_vec(),
        _ => return None,
    })
}
