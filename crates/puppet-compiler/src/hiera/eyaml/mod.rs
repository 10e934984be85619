//! `eyaml_lookup_key`, Puppet's Hiera 5 front of hiera-eyaml, decrypted
//! natively: a level's data file is YAML whose strings may hold
//! `ENC[PKCS7,<base64>]` blocks; each block is decrypted with the keys the
//! level's `options:` name (`pkcs7_private_key`, `pkcs7_public_key`, or
//! their `_env_var` forms), and the text is then interpolated as any Hiera
//! value. Semantics from Puppet's `functions/eyaml_lookup_key.rb` and
//! hiera-eyaml's `parser/` and `encryptors/pkcs7.rb`.
//!
//! Without the private key a repo may choose redaction
//! ([`MissingKey::Redact`]): each block becomes a stable text derived from
//! its ciphertext, so a catalog diff shows that a secret changed and never
//! shows the secret.

pub mod pkcs7;

use crate::files::FileSystem;
use puppet_model::ruby::digest::{hex, sha256_digest};
use regex::Regex;
use rsa::RsaPrivateKey;
use rustc_hash::FxHashMap as HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

/// What an encrypted value becomes when the private key cannot be read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MissingKey {
    /// The lookup fails, as Puppet's does.
    #[default]
    Fail,
    /// Each block becomes `[redacted:sha256:<first 12 hex of sha256 of the
    /// block's base64>]`.
    Redact,
}

impl std::str::FromStr for MissingKey {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "fail" => Ok(MissingKey::Fail),
            "redact" => Ok(MissingKey::Redact),
            other => Err(format!(
                "eyaml missing_key must be 'fail' or 'redact', not '{other}'"
            )),
        }
    }
}

/// The options of a level that decrypting reads (hiera-eyaml's
/// `Options`, already interpolated by Hiera).
#[derive(Clone, Debug, Default)]
pub struct KeyOptions {
    pub private_key: Option<String>,
    pub public_key: Option<String>,
    pub private_key_env_var: Option<String>,
    pub public_key_env_var: Option<String>,
}

impl KeyOptions {
    pub fn from_options(options: &puppet_model::Map) -> Self {
        let get = |k: &str| {
            options
                .get(&puppet_model::Value::string(k))
                .and_then(|v| v.as_str().map(str::to_string))
        };
        KeyOptions {
            private_key: get("pkcs7_private_key"),
            public_key: get("pkcs7_public_key"),
            private_key_env_var: get("pkcs7_private_key_env_var"),
            public_key_env_var: get("pkcs7_public_key_env_var"),
        }
    }
}

/// Where relative key paths resolve and what a missing key means; set for
/// the run.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// Where relative key paths resolve (hiera-eyaml opens them against the
    /// working directory); the environment boots with its own directory
    /// here unless told otherwise, the process's when `None`.
    pub working_dir: Option<PathBuf>,
    pub missing_key: MissingKey,
}

/// hiera-eyaml's `encrypted?`: some line holds `ENC[` and a later `]`
/// (Ruby's `.` stops at a newline).
pub fn is_encrypted(text: &str) -> bool {
    text.lines()
        .any(|l| l.find("ENC[").is_some_and(|at| l[at + 4..].contains(']')))
}

/// The hiera backend parser's token regex (`EncHieraTokenType`).
fn token_regex() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"ENC\[(\w+,)?([a-zA-Z0-9+/ =\n]+?)\]").expect("the ENC token regex")
    })
}

/// Why a value could not be decrypted; [`DecryptFailure::message`] is the
/// text Puppet puts after "Error was".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecryptFailure {
    pub message: String,
    /// The private key could not be read (the case redaction covers).
    pub key_missing: bool,
}

/// A private key file parsed (once per run), or why it could not be.
type KeySlot = Arc<OnceLock<Result<Arc<RsaPrivateKey>, String>>>;

/// A block's plaintext by private key, ciphertext and hiera-eyaml version
/// (the error texts differ).
type PlainKey = (PathBuf, String, bool);

/// Decrypted plaintexts and parsed keys, shared by every node of a run.
#[derive(Default)]
pub struct KeyCache {
    keys: Mutex<HashMap<PathBuf, KeySlot>>,
    plain: Mutex<HashMap<PlainKey, Result<String, String>>>,
}

impl KeyCache {
    fn private_key(&self, path: &Path, pem: &str) -> Result<Arc<RsaPrivateKey>, String> {
        let slot = {
            let mut keys = self.keys.lock().unwrap_or_else(|p| p.into_inner());
            keys.entry(path.to_path_buf()).or_default().clone()
        };
        slot.get_or_init(|| {
            pkcs7::private_key(pem)
                .map(Arc::new)
                .map_err(|e| e.to_string())
        })
        .clone()
    }
}

/// The text of a string value with every ENC block decrypted (or redacted),
/// before interpolation: hiera-eyaml's tokens joined, then `chomp`ed.
pub fn decrypt_text(
    text: &str,
    options: &KeyOptions,
    fs: &dyn FileSystem,
    cache: &KeyCache,
    settings: &Settings,
    eyaml4: bool,
) -> Result<String, DecryptFailure> {
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    let mut keys: Option<Result<(PathBuf, Arc<RsaPrivateKey>), DecryptFailure>> = None;
    for caps in token_regex().captures_iter(text) {
        let whole = caps.get(0).expect("group 0");
        out.push_str(&text[last..whole.start()]);
        last = whole.end();
        let scheme = caps
            .get(1)
            .map(|m| m.as_str().trim_end_matches(','))
            .unwrap_or("PKCS7");
        let cipher: String = caps[2].chars().filter(|c| !c.is_whitespace()).collect();
        if scheme != "PKCS7" {
            return Err(DecryptFailure {
                message: format!(
                    "cannot load such file -- hiera/backend/eyaml/encryptors/{}",
                    scheme.to_lowercase()
                ),
                key_missing: false,
            });
        }
        let loaded = keys.get_or_insert_with(|| load_keys(options, fs, cache, settings, eyaml4));
        let (key_path, key) = match loaded {
            Ok(k) => k,
            Err(e) if e.key_missing && settings.missing_key == MissingKey::Redact => {
                out.push_str(&redacted(&cipher));
                continue;
            }
            Err(e) => return Err(e.clone()),
        };
        out.push_str(&decrypt_block(&cipher, key_path, key, cache, eyaml4)?);
    }
    out.push_str(&text[last..]);
    // Ruby's `chomp`: one trailing "\n", "\r\n" or "\r".
    if out.ends_with("\r\n") {
        out.truncate(out.len() - 2);
    } else if out.ends_with('\n') || out.ends_with('\r') {
        out.pop();
    }
    Ok(out)
}

/// The stable stand-in of a block whose key is missing.
pub fn redacted(cipher: &str) -> String {
    let digest = hex(&sha256_digest(cipher.as_bytes()));
    format!("[redacted:sha256:{}]", &digest[..12])
}

fn decrypt_block(
    cipher: &str,
    key_path: &Path,
    key: &RsaPrivateKey,
    cache: &KeyCache,
    eyaml4: bool,
) -> Result<String, DecryptFailure> {
    let memo_key = (key_path.to_path_buf(), cipher.to_string(), eyaml4);
    if let Some(done) = cache
        .plain
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .get(&memo_key)
    {
        return done.clone().map_err(|message| DecryptFailure {
            message,
            key_missing: false,
        });
    }
    let result = pkcs7::decrypt(&decode64(cipher), key)
        .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
        .map_err(|e| match e {
            // OpenSSL's texts, as Ruby's OpenSSL::PKCS7 raises them.
            pkcs7::DecryptError::Malformed(_) if eyaml4 => {
                "Could not parse the PKCS7: no start line (Expecting: PKCS7)".to_string()
            }
            pkcs7::DecryptError::Malformed(_) => {
                "Could not parse the PKCS7: no start line".to_string()
            }
            pkcs7::DecryptError::WrongKey => "bad decrypt".to_string(),
            other => other.to_string(),
        });
    cache
        .plain
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .insert(memo_key, result.clone());
    result.map_err(|message| DecryptFailure {
        message,
        key_missing: false,
    })
}

/// The private key, as `Pkcs7.decrypt` finds it. hiera-eyaml 3.3
/// (Debian 12, beside Puppet 7) wants both options, reads the private key
/// (its environment variable first), then the public key's file; 4.2
/// (Debian 13, beside Puppet 8) reads only the private key, from the
/// environment variable when that option is given.
fn load_keys(
    options: &KeyOptions,
    fs: &dyn FileSystem,
    cache: &KeyCache,
    settings: &Settings,
    eyaml4: bool,
) -> Result<(PathBuf, Arc<RsaPrivateKey>), DecryptFailure> {
    let fail = |message: String, key_missing: bool| DecryptFailure {
        message,
        key_missing,
    };
    let env = |var: &str| std::env::var(var).ok();
    let (private_path, private_pem) = if eyaml4 {
        match (&options.private_key_env_var, &options.private_key) {
            (Some(var), _) => match env(var) {
                Some(pem) => (PathBuf::from(format!("env:{var}")), pem),
                None => return Err(fail(format!("env {var} is not set"), true)),
            },
            (None, Some(name)) => {
                let path = resolve(name, settings);
                match fs.read_to_string(&path) {
                    Ok(pem) => (path, pem),
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                        return Err(fail(format!("file {name} does not exist"), true))
                    }
                    Err(e) => return Err(fail(format!("{e} @ rb_sysopen - {name}"), true)),
                }
            }
            (None, None) => return Err(fail("pkcs7_private_key is not defined".into(), false)),
        }
    } else {
        if options.public_key.is_none() && options.public_key_env_var.is_none() {
            return Err(fail("pkcs7_public_key is not defined".into(), false));
        }
        if options.private_key.is_none() && options.private_key_env_var.is_none() {
            return Err(fail("pkcs7_private_key is not defined".into(), false));
        }
        match options
            .private_key_env_var
            .as_deref()
            .and_then(|v| env(v).map(|p| (v, p)))
        {
            Some((var, pem)) => (PathBuf::from(format!("env:{var}")), pem),
            None => {
                let name = options.private_key.clone().unwrap_or_default();
                let path = resolve(&name, settings);
                let pem = read_key(fs, &path, &name).map_err(|m| fail(m, true))?;
                (path, pem)
            }
        }
    };
    let key = cache
        .private_key(&private_path, &private_pem)
        .map_err(|m| fail(m, false))?;
    let public_from_env = options
        .public_key_env_var
        .as_deref()
        .and_then(env)
        .is_some();
    if !eyaml4 && !public_from_env {
        let name = options.public_key.clone().unwrap_or_default();
        read_key(fs, &resolve(&name, settings), &name).map_err(|m| fail(m, true))?;
    }
    Ok((private_path, key))
}

/// A key path as `File.read` opens it: relative to the working directory.
fn resolve(name: &str, settings: &Settings) -> PathBuf {
    let p = PathBuf::from(name);
    if p.is_absolute() {
        return p;
    }
    match &settings.working_dir {
        Some(dir) => dir.join(p),
        None => std::env::current_dir().map(|d| d.join(&p)).unwrap_or(p),
    }
}

/// A key file's text; Ruby's `Errno` text naming the file as the options
/// name it on failure.
fn read_key(fs: &dyn FileSystem, path: &Path, name: &str) -> Result<String, String> {
    fs.read_to_string(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => format!("No such file or directory @ rb_sysopen - {name}"),
        std::io::ErrorKind::PermissionDenied => format!("Permission denied @ rb_sysopen - {name}"),
        _ => format!("{e} @ rb_sysopen - {name}"),
    })
}

/// Ruby's `Base64.decode64` (`unpack1('m')`): characters outside the
/// alphabet are skipped, decoding stops at `=`.
pub fn decode64(text: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    let mut acc: u32 = 0;
    let mut bits = 0;
    for c in text.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            b'=' => break,
            _ => continue,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    out
}

#[cfg(test)]
mod tests;
