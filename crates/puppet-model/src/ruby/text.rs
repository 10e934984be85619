//! Ruby's `File.dirname`/`File.basename` (Unix) and `Shellwords.escape`.

/// Ruby's `File.dirname` (Unix).
pub fn ruby_dirname(p: &str) -> String {
    let trimmed = p.trim_end_matches('/');
    if trimmed.is_empty() {
        return if p.starts_with('/') {
            "/".into()
        } else {
            ".".into()
        };
    }
    match trimmed.rfind('/') {
        None => ".".into(),
        Some(i) => {
            let d = trimmed[..i].trim_end_matches('/');
            if d.is_empty() {
                "/".into()
            } else {
                d.to_string()
            }
        }
    }
}

/// Ruby's `File.basename(p[, suffix])` (Unix).
pub fn ruby_basename(p: &str, suffix: Option<&str>) -> String {
    let trimmed = p.trim_end_matches('/');
    if trimmed.is_empty() {
        return if p.starts_with('/') {
            "/".into()
        } else {
            String::new()
        };
    }
    let base = trimmed.rsplit('/').next().unwrap_or(trimmed);
    match suffix {
        Some(".*") => match base.rfind('.') {
            Some(i) if i > 0 => base[..i].to_string(),
            _ => base.to_string(),
        },
        Some(s) if !s.is_empty() && base.len() > s.len() && base.ends_with(s) => {
            base[..base.len() - s.len()].to_string()
        }
        _ => base.to_string(),
    }
}

/// Ruby's `Shellwords.escape`.
pub fn shell_escape(s: &str) -> String {
    if s.is_empty() {
        return "''".into();
    }
    let mut out = String::new();
    for c in s.chars() {
        if c == '\n' {
            out.push_str("'\n'");
        } else if c.is_ascii_alphanumeric() || "_-.,:+/@".contains(c) || !c.is_ascii() {
            out.push(c);
        } else {
            out.push('\\');
            out.push(c);
        }
    }
    out
}
