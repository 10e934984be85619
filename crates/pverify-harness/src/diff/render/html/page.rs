//! The one HTML page of `pverify diff --format html` and `pverify check
//! --format html`: a fixed skeleton with our own CSS and JS inlined, and
//! the report itself embedded as JSON in a `<script
//! type="application/json">` that the JS renders on demand (groups and
//! nodes are drawn when expanded, lists in pages), so a 1,000-node report
//! stays a few megabytes and opens at once.
//!
//! The data comes from untrusted code (a merge request's manifests), so:
//! the JSON cannot end its `<script>` element (`<`, `>`, `&`, U+2028 and
//! U+2029 are `\u` escapes), the only other interpolated text (the title)
//! is HTML-escaped, the JS writes data with `textContent` only, and a
//! Content-Security-Policy allows nothing but this page's own script and
//! style (by hash) and forbids every network load and `innerHTML`-style
//! sink (Trusted Types).

use std::sync::OnceLock;

use puppet_model::values::binary::strict_encode;
use sha2::{Digest, Sha256};

const SKELETON: &str = include_str!("skeleton.html");
const STYLE: &str = include_str!("report.css");
const SCRIPT: &str = include_str!("report.js");

/// The page for `data` (the view model the JS reads, see report.js's
/// header), titled `title`.
pub fn page(title: &str, data: &serde_json::Value) -> String {
    let json = script_safe_json(data);
    let mut out = String::with_capacity(SKELETON.len() + STYLE.len() + SCRIPT.len() + json.len());
    // One pass over the skeleton's placeholders, so nothing substituted is
    // ever scanned for another placeholder.
    let mut rest = SKELETON;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let Some(end) = after.find("}}") else {
            out.push_str(&rest[start..]);
            rest = "";
            break;
        };
        match &after[..end] {
            "csp" => out.push_str(csp()),
            "title" => out.push_str(&escape_html(title)),
            "style" => out.push_str(STYLE),
            "script" => out.push_str(SCRIPT),
            "data" => out.push_str(&json),
            other => {
                out.push_str("{{");
                out.push_str(other);
                out.push_str("}}");
            }
        }
        rest = &after[end + 2..];
    }
    out.push_str(rest);
    out
}

/// The policy: nothing loads from anywhere (no network, no other file),
/// only the inlined script and style run, and no string can become HTML
/// or script (`require-trusted-types-for`).
fn csp() -> &'static str {
    static CSP: OnceLock<String> = OnceLock::new();
    CSP.get_or_init(|| {
        format!(
            "default-src 'none'; script-src '{}'; style-src '{}'; img-src 'none'; \
             connect-src 'none'; base-uri 'none'; form-action 'none'; \
             require-trusted-types-for 'script'; trusted-types 'none'",
            sha256_source(SCRIPT),
            sha256_source(STYLE)
        )
    })
}

/// A CSP hash source: `sha256-<base64 of the digest>`.
fn sha256_source(text: &str) -> String {
    format!("sha256-{}", strict_encode(&Sha256::digest(text.as_bytes())))
}

/// JSON that can sit inside `<script type="application/json">`: no `<`
/// (so no `</script>` or `<!--`), `>` or `&`, and no U+2028/U+2029. Those
/// characters only ever occur inside JSON strings, where `\uXXXX` means the
/// same character to `JSON.parse`.
pub fn script_safe_json(data: &serde_json::Value) -> String {
    let raw = serde_json::to_string(data).unwrap_or_else(|_| "null".into());
    let mut out = String::with_capacity(raw.len() + raw.len() / 50);
    for c in raw.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

/// Text for HTML content and quoted attributes.
pub fn escape_html(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn embedded_json_cannot_close_its_script_element() {
        let hostile = "</script><script>alert(1)</script><!-- & \u{2028}\u{2029}";
        let s = script_safe_json(&json!({ "t": hostile }));
        for bad in ['<', '>', '&', '\u{2028}', '\u{2029}'] {
            assert!(!s.contains(bad), "{s}");
        }
        let back: serde_json::Value = serde_json::from_str(&s).unwrap();
        assert_eq!(back["t"], hostile);
    }

    #[test]
    fn page_escapes_the_title_and_has_one_script_and_style() {
        let p = page("<b>\"x\"</b>", &json!({ "t": "</script>" }));
        assert!(p.contains("<title>&lt;b&gt;&quot;x&quot;&lt;/b&gt;</title>"));
        assert_eq!(p.matches("</script>").count(), 2, "data + code scripts");
        assert_eq!(p.matches("<style").count(), 1);
        assert!(!p.contains("{{"), "every placeholder filled");
        // Nothing is loaded from elsewhere.
        for external in ["src=", "href=", "http:", "https:", "@import", "url("] {
            assert!(!p.contains(external), "{external}");
        }
    }

    #[test]
    fn assets_cannot_end_their_elements_early() {
        assert!(!SCRIPT.contains("</"), "report.js must not contain `</`");
        assert!(!SCRIPT.contains("<!--"));
        assert!(!STYLE.contains("</"));
        assert!(!SCRIPT.contains("innerHTML") && !SCRIPT.contains("insertAdjacentHTML"));
        assert!(!SCRIPT.contains("eval(") && !SCRIPT.contains("document.write"));
    }

    #[test]
    fn base64_matches_known_values() {
        assert_eq!(strict_encode(b""), "");
        assert_eq!(strict_encode(b"f"), "Zg==");
        assert_eq!(strict_encode(b"fo"), "Zm8=");
        assert_eq!(strict_encode(b"foo"), "Zm9v");
        assert_eq!(strict_encode(b"foobar"), "Zm9vYmFy");
    }
}
