//! The test key pair and ciphertext were made with Debian's hiera-eyaml
//! (`eyaml createkeys`, `eyaml encrypt -s hunter2 -o string`).

use super::*;
use crate::files::OsFiles;

const PRIVATE: &str = include_str!("testdata/private_key.pkcs7.pem");
const OTHER_PRIVATE: &str = include_str!("testdata/other_private_key.pkcs7.pem");
const HUNTER2: &str = include_str!("testdata/hunter2.enc");

fn cipher_of(enc: &str) -> &str {
    enc.trim()
        .strip_prefix("ENC[PKCS7,")
        .and_then(|s| s.strip_suffix(']'))
        .expect("an ENC block")
}

#[test]
fn decrypts_hiera_eyaml_output() {
    let key = pkcs7::private_key(PRIVATE).unwrap();
    let der = decode64(cipher_of(HUNTER2));
    assert_eq!(pkcs7::decrypt(&der, &key).unwrap(), b"hunter2");
}

#[test]
fn another_key_is_refused() {
    let key = pkcs7::private_key(OTHER_PRIVATE).unwrap();
    let der = decode64(cipher_of(HUNTER2));
    assert_eq!(
        pkcs7::decrypt(&der, &key),
        Err(pkcs7::DecryptError::WrongKey)
    );
}

#[test]
fn garbage_is_malformed_not_a_panic() {
    let key = pkcs7::private_key(PRIVATE).unwrap();
    let der = decode64(cipher_of(HUNTER2));
    for cut in 0..der.len() {
        assert!(pkcs7::decrypt(&der[..cut], &key).is_err());
    }
    assert!(pkcs7::decrypt(b"not a pkcs7 blob", &key).is_err());
}

#[test]
fn decodes_as_ruby_decode64() {
    assert_eq!(decode64("aGk=\n"), b"hi");
    assert_eq!(decode64("a G\nk"), b"hi");
    assert_eq!(decode64("aGVsbG8"), b"hello");
}

#[test]
fn finds_blocks_as_hiera_eyaml() {
    assert!(is_encrypted("x ENC[PKCS7,abc] y"));
    assert!(!is_encrypted("ENC[PKCS7,\nabc]"));
    assert!(!is_encrypted("plain"));
}

#[test]
fn redacts_without_the_private_key() {
    let dir = tempfile::tempdir().unwrap();
    let options = KeyOptions {
        private_key: Some("nosuch.pem".into()),
        public_key: Some("nosuch_public.pem".into()),
        ..KeyOptions::default()
    };
    let settings = Settings {
        working_dir: Some(dir.path().to_path_buf()),
        missing_key: MissingKey::Redact,
    };
    let text = format!("pass={}\n", HUNTER2.trim());
    let got = decrypt_text(
        &text,
        &options,
        &OsFiles,
        &KeyCache::default(),
        &settings,
        false,
    )
    .unwrap();
    assert_eq!(got, format!("pass={}", redacted(cipher_of(HUNTER2))));
    assert!(
        got.starts_with("pass=[redacted:sha256:")
            && got.len() == "pass=[redacted:sha256:]".len() + 12
    );
    let fail = Settings {
        missing_key: MissingKey::Fail,
        ..settings
    };
    let err = decrypt_text(
        &text,
        &options,
        &OsFiles,
        &KeyCache::default(),
        &fail,
        false,
    )
    .unwrap_err();
    assert_eq!(
        err.message,
        "No such file or directory @ rb_sysopen - nosuch.pem"
    );
    assert!(err.key_missing);
    let err =
        decrypt_text(&text, &options, &OsFiles, &KeyCache::default(), &fail, true).unwrap_err();
    assert_eq!(err.message, "file nosuch.pem does not exist");
}
