//! hiera-eyaml's PKCS7 encryptor, decrypting only: a DER `ContentInfo`
//! holding `EnvelopedData` (RFC 2315 / RFC 5652) with one RSA
//! key-transport recipient (PKCS#1 v1.5) and AES-CBC content encryption, as
//! `OpenSSL::PKCS7.encrypt([cert], text, AES-256-CBC, BINARY)` makes it.
//! A small DER reader of our own: only the few structures of that message.

use aes::cipher::{block_padding::Pkcs7, BlockDecryptMut, KeyIvInit};
use rsa::pkcs1::DecodeRsaPrivateKey;
use rsa::pkcs8::DecodePrivateKey;
use rsa::{Pkcs1v15Encrypt, RsaPrivateKey};

/// Why a block could not be decrypted (texts of our own: OpenSSL's depend
/// on its version; the lookup error around them is Puppet's).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DecryptError {
    /// Not a PKCS7 EnvelopedData message.
    Malformed(&'static str),
    /// The private key does not open the message's content key.
    WrongKey,
    /// A content cipher other than AES-CBC.
    Unsupported(String),
    /// The private key file is not an RSA key in PEM.
    BadKey(String),
}

impl std::fmt::Display for DecryptError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DecryptError::Malformed(what) => write!(f, "not PKCS7 enveloped data ({what})"),
            DecryptError::WrongKey => write!(
                f,
                "decrypt error: the private key does not match the key the value was encrypted for"
            ),
            DecryptError::Unsupported(oid) => write!(
                f,
                "content encryption algorithm {oid} is not supported by pverify (AES-CBC is)"
            ),
            DecryptError::BadKey(e) => write!(f, "Neither PUB key nor PRIV key: {e}"),
        }
    }
}

/// An RSA private key from PEM (`RSA PRIVATE KEY`, as `eyaml createkeys`
/// writes it, or PKCS#8 `PRIVATE KEY`).
pub fn private_key(pem: &str) -> Result<RsaPrivateKey, DecryptError> {
    RsaPrivateKey::from_pkcs1_pem(pem)
        .or_else(|_| RsaPrivateKey::from_pkcs8_pem(pem))
        .map_err(|e| DecryptError::BadKey(e.to_string()))
}

/// The plaintext of a DER PKCS7 enveloped message.
pub fn decrypt(der: &[u8], key: &RsaPrivateKey) -> Result<Vec<u8>, DecryptError> {
    use DecryptError::Malformed;
    let mut top = Der::new(der);
    let content_info = top.expect(SEQUENCE, "ContentInfo")?;
    let mut ci = Der::new(content_info);
    let oid = ci.expect(OID, "content type")?;
    if oid != OID_ENVELOPED_DATA {
        return Err(Malformed("content type is not envelopedData"));
    }
    let explicit = ci.expect(0xa0, "content")?;
    let enveloped = Der::new(explicit).expect(SEQUENCE, "EnvelopedData")?;
    let mut ed = Der::new(enveloped);
    ed.expect(INTEGER, "version")?;
    let recipients = ed.expect(SET, "recipientInfos")?;
    let encrypted_content_info = ed.expect(SEQUENCE, "encryptedContentInfo")?;

    // The content key: the first recipient whose RSA decryption succeeds.
    let mut content_key = None;
    let mut rs = Der::new(recipients);
    while !rs.is_empty() {
        let ri = rs.expect(SEQUENCE, "RecipientInfo")?;
        let mut r = Der::new(ri);
        r.expect(INTEGER, "recipient version")?;
        r.any("issuerAndSerialNumber")?;
        r.expect(SEQUENCE, "keyEncryptionAlgorithm")?;
        let encrypted_key = r.expect(OCTET_STRING, "encryptedKey")?;
        if let Ok(k) = key.decrypt(Pkcs1v15Encrypt, encrypted_key) {
            content_key = Some(k);
            break;
        }
    }
    let content_key = content_key.ok_or(DecryptError::WrongKey)?;

    let mut eci = Der::new(encrypted_content_info);
    eci.expect(OID, "content type")?;
    let algorithm = eci.expect(SEQUENCE, "contentEncryptionAlgorithm")?;
    let mut alg = Der::new(algorithm);
    let cipher_oid = alg.expect(OID, "cipher")?;
    let iv = alg.expect(OCTET_STRING, "IV")?;
    let ciphertext = eci.encrypted_content()?;
    let aes_bits = match cipher_oid {
        OID_AES128_CBC => 128,
        OID_AES192_CBC => 192,
        OID_AES256_CBC => 256,
        other => return Err(DecryptError::Unsupported(oid_text(other))),
    };
    if content_key.len() * 8 != aes_bits || iv.len() != 16 {
        return Err(DecryptError::WrongKey);
    }
    let mut buf = ciphertext.to_vec();
    let plain = match aes_bits {
        128 => cbc::Decryptor::<aes::Aes128>::new_from_slices(&content_key, iv)
            .map_err(|_| DecryptError::WrongKey)?
            .decrypt_padded_mut::<Pkcs7>(&mut buf)
            .map(<[u8]>::len),
        192 => cbc::Decryptor::<aes::Aes192>::new_from_slices(&content_key, iv)
            .map_err(|_| DecryptError::WrongKey)?
            .decrypt_padded_mut::<Pkcs7>(&mut buf)
            .map(<[u8]>::len),
        _ => cbc::Decryptor::<aes::Aes256>::new_from_slices(&content_key, iv)
            .map_err(|_| DecryptError::WrongKey)?
            .decrypt_padded_mut::<Pkcs7>(&mut buf)
            .map(<[u8]>::len),
    }
    .map_err(|_| DecryptError::WrongKey)?;
    buf.truncate(plain);
    Ok(buf)
}

const INTEGER: u8 = 0x02;
const OCTET_STRING: u8 = 0x04;
const OID: u8 = 0x06;
const SEQUENCE: u8 = 0x30;
const SET: u8 = 0x31;
/// 1.2.840.113549.1.7.3
const OID_ENVELOPED_DATA: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x03];
/// 2.16.840.1.101.3.4.1.2, .22, .42
const OID_AES128_CBC: &[u8] = &[0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x01, 0x02];
const OID_AES192_CBC: &[u8] = &[0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x01, 0x16];
const OID_AES256_CBC: &[u8] = &[0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x01, 0x2a];

/// An OID's dotted text, for messages.
fn oid_text(oid: &[u8]) -> String {
    let mut parts = Vec::new();
    let mut n: u64 = 0;
    for (i, b) in oid.iter().enumerate() {
        n = (n << 7) | u64::from(b & 0x7f);
        if b & 0x80 == 0 {
            if parts.is_empty() && i < oid.len() {
                parts.push((n / 40).min(2));
                parts.push(n - (n / 40).min(2) * 40);
            } else {
                parts.push(n);
            }
            n = 0;
        }
    }
    parts
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(".")
}

/// A cursor over DER elements (definite lengths; BER's indefinite
/// lengths are refused, as OpenSSL's `to_der` never writes them).
struct Der<'a> {
    rest: &'a [u8],
}

impl<'a> Der<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        Der { rest: bytes }
    }

    fn is_empty(&self) -> bool {
        self.rest.is_empty()
    }

    /// The next element's tag and content.
    fn next(&mut self, what: &'static str) -> Result<(u8, &'a [u8]), DecryptError> {
        let bad = DecryptError::Malformed(what);
        let (&tag, rest) = self.rest.split_first().ok_or(bad.clone())?;
        let (&first, mut rest) = rest.split_first().ok_or(bad.clone())?;
        let len = if first < 0x80 {
            usize::from(first)
        } else {
            let n = usize::from(first & 0x7f);
            if n == 0 || n > 4 || rest.len() < n {
                return Err(bad);
            }
            let len = rest[..n]
                .iter()
                .fold(0usize, |acc, b| (acc << 8) | usize::from(*b));
            rest = &rest[n..];
            len
        };
        if rest.len() < len {
            return Err(bad);
        }
        let (content, after) = rest.split_at(len);
        self.rest = after;
        Ok((tag, content))
    }

    fn expect(&mut self, tag: u8, what: &'static str) -> Result<&'a [u8], DecryptError> {
        match self.next(what)? {
            (t, content) if t == tag => Ok(content),
            _ => Err(DecryptError::Malformed(what)),
        }
    }

    fn any(&mut self, what: &'static str) -> Result<&'a [u8], DecryptError> {
        self.next(what).map(|(_, c)| c)
    }

    /// `[0] IMPLICIT OCTET STRING`, primitive or constructed (chunks).
    fn encrypted_content(&mut self) -> Result<Vec<u8>, DecryptError> {
        match self.next("encryptedContent")? {
            (0x80, content) => Ok(content.to_vec()),
            (0xa0, chunks) => {
                let mut out = Vec::new();
                let mut c = Der::new(chunks);
                while !c.is_empty() {
                    out.extend_from_slice(c.expect(OCTET_STRING, "encryptedContent chunk")?);
                }
                Ok(out)
            }
            _ => Err(DecryptError::Malformed("encryptedContent")),
        }
    }
}
