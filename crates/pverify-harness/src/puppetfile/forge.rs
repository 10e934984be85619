//! Forge modules through the Forge v3 API: `GET /v3/releases/<owner>-<name>-<version>`
//! (or `/v3/modules/<owner>-<name>` for the newest release), the tarball
//! from the release's `file_uri`, checked against `file_sha256` (else
//! `file_md5`) before it is unpacked into the cache.

use std::io::Read;
use std::path::{Component, Path, PathBuf};
use std::time::Duration;

use md5::Md5;
use serde_json::Value;
use sha2::{Digest, Sha256};

use super::cache;
use super::parse::{ForgeVersion, ModDecl};

/// The Forge r10k uses when the Puppetfile names none.
pub const DEFAULT_FORGE: &str = "https://forgeapi.puppet.com";

/// Deploys a Forge module: the directory holding its tree (`<name>/`),
/// and the version deployed.
pub fn deploy(
    cache_dir: &Path,
    forge: &str,
    decl: &ModDecl,
    owner: &str,
    version: &ForgeVersion,
    offline: bool,
) -> Result<(PathBuf, String), String> {
    let slug = format!("{owner}-{}", decl.name);
    let source = format!("{forge}/{slug}");
    let never_resolved = || {
        format!(
            "{}: mod '{}': its newest release was never resolved, and --offline allows no network",
            decl.at, decl.full_name
        )
    };
    let version = match version {
        ForgeVersion::Exact(v) => v.clone(),
        // Deployed once, then kept (r10k never upgrades an unpinned module).
        ForgeVersion::Unpinned => match cache::recall(cache_dir, &source, "latest") {
            Some(v) => v,
            None if offline => return Err(never_resolved()),
            None => latest(cache_dir, forge, decl, &slug, &source)?,
        },
        ForgeVersion::Latest if offline => {
            cache::recall(cache_dir, &source, "latest").ok_or_else(never_resolved)?
        }
        ForgeVersion::Latest => latest(cache_dir, forge, decl, &slug, &source)?,
    };
    let holder = cache_dir
        .join("forge")
        .join(cache::source_key(forge))
        .join(format!("{slug}-{version}"));
    if holder.join(&decl.name).is_dir() {
        return Ok((holder, version));
    }
    if offline {
        return Err(format!(
            "{}: mod '{}' {version}: not in the module cache {}, and --offline allows no network",
            decl.at,
            decl.full_name,
            cache_dir.display()
        ));
    }
    let release = get_json(
        &format!("{forge}/v3/releases/{slug}-{version}"),
        decl,
        &format!("has no release {version}"),
    )?;
    let file_uri = release["file_uri"].as_str().ok_or_else(|| {
        format!(
            "{}: mod '{}': the Forge's release has no file_uri",
            decl.at, decl.full_name
        )
    })?;
    let url = if file_uri.starts_with("http://") || file_uri.starts_with("https://") {
        file_uri.to_string()
    } else {
        format!("{forge}{file_uri}")
    };
    let bytes = download(&url, decl)?;
    verify(&bytes, &release, decl, &version)?;
    cache::install_tree(&holder, |staging| {
        unpack(&bytes, &staging.join(&decl.name)).map_err(|e| {
            format!(
                "{}: mod '{}' {version}: {url}: {e}",
                decl.at, decl.full_name
            )
        })
    })?;
    Ok((holder, version))
}

/// The newest release's version, remembered for offline runs.
fn latest(
    cache_dir: &Path,
    forge: &str,
    decl: &ModDecl,
    slug: &str,
    source: &str,
) -> Result<String, String> {
    let module = get_json(
        &format!("{forge}/v3/modules/{slug}"),
        decl,
        "has no such module",
    )?;
    let version = module["current_release"]["version"]
        .as_str()
        .ok_or_else(|| {
            format!(
                "{}: mod '{}': the Forge names no current release",
                decl.at, decl.full_name
            )
        })?
        .to_string();
    cache::remember(cache_dir, source, "latest", &version)?;
    Ok(version)
}

fn agent() -> ureq::Agent {
    ureq::AgentBuilder::new()
        .timeout_connect(Duration::from_secs(20))
        .timeout(Duration::from_secs(300))
        .user_agent(concat!("pverify/", env!("CARGO_PKG_VERSION")))
        .build()
}

fn get_json(url: &str, decl: &ModDecl, not_found: &str) -> Result<Value, String> {
    let response = match agent().get(url).call() {
        Ok(r) => r,
        Err(ureq::Error::Status(404, _)) => {
            return Err(format!(
                "{}: mod '{}': the Forge {not_found} (404 from {url})",
                decl.at, decl.full_name
            ))
        }
        Err(e) => return Err(format!("{}: mod '{}': {url}: {e}", decl.at, decl.full_name)),
    };
    let text = response
        .into_string()
        .map_err(|e| format!("{}: mod '{}': {url}: {e}", decl.at, decl.full_name))?;
    serde_json::from_str(&text).map_err(|e| {
        format!(
            "{}: mod '{}': {url}: not JSON: {e}",
            decl.at, decl.full_name
        )
    })
}

fn download(url: &str, decl: &ModDecl) -> Result<Vec<u8>, String> {
    let fail =
        |e: &dyn std::fmt::Display| format!("{}: mod '{}': {url}: {e}", decl.at, decl.full_name);
    let response = agent().get(url).call().map_err(|e| fail(&e))?;
    let mut bytes = Vec::new();
    response
        .into_reader()
        .take(1 << 30)
        .read_to_end(&mut bytes)
        .map_err(|e| fail(&e))?;
    Ok(bytes)
}

/// The download against the release's `file_sha256`, else `file_md5`.
fn verify(bytes: &[u8], release: &Value, decl: &ModDecl, version: &str) -> Result<(), String> {
    let hex = |d: &[u8]| d.iter().map(|b| format!("{b:02x}")).collect::<String>();
    let (kind, want, got) = match (
        release["file_sha256"].as_str().filter(|s| !s.is_empty()),
        release["file_md5"].as_str().filter(|s| !s.is_empty()),
    ) {
        (Some(want), _) => ("file_sha256", want, hex(&Sha256::digest(bytes))),
        (None, Some(want)) => ("file_md5", want, hex(&Md5::digest(bytes))),
        (None, None) => {
            return Err(format!(
                "{}: mod '{}' {version}: the Forge gives no checksum (file_sha256, file_md5)",
                decl.at, decl.full_name
            ))
        }
    };
    if !want.eq_ignore_ascii_case(&got) {
        return Err(format!(
            "{}: mod '{}' {version}: checksum mismatch: the Forge's {kind} is {want}, the download's is {got}",
            decl.at, decl.full_name
        ));
    }
    Ok(())
}

/// A release tarball (`<owner>-<name>-<version>/...`, gzipped) unpacked
/// into `dest` without its top directory. Only files, directories and
/// symlinks; no entry may leave `dest`.
fn unpack(bytes: &[u8], dest: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dest).map_err(|e| e.to_string())?;
    let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(bytes));
    for entry in archive.entries().map_err(|e| e.to_string())? {
        let mut entry = entry.map_err(|e| e.to_string())?;
        let path = entry.path().map_err(|e| e.to_string())?.into_owned();
        let mut parts = path.components();
        parts.next(); // the release's top directory
        let rel: PathBuf = parts.collect();
        if rel.as_os_str().is_empty() {
            continue;
        }
        if rel.components().any(|c| !matches!(c, Component::Normal(_))) {
            return Err(format!("{}: a path leaving the module", path.display()));
        }
        let kind = entry.header().entry_type();
        if !(kind.is_file() || kind.is_dir() || kind.is_symlink()) {
            continue;
        }
        let target = dest.join(&rel);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
        }
        entry
            .unpack(&target)
            .map_err(|e| format!("{}: {e}", rel.display()))?;
    }
    Ok(())
}
