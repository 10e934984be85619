//! URI values: Ruby's `URI` objects as Puppet's `URI` type makes them
//! (`URI.parse` with Ruby 3.1's RFC 3986 parser, `URI::Generic.build` from
//! a hash), their `to_s`, `==` (normalized: scheme and host downcased) and
//! the components `type()` shows (`PURIType#uri_to_hash`).

use std::sync::{Arc, OnceLock};

/// A parsed or built URI; the components as Ruby keeps them.
#[derive(Clone, Debug)]
pub struct Uri {
    pub scheme: Option<String>,
    pub userinfo: Option<String>,
    pub host: Option<String>,
    pub port: Option<i64>,
    /// `None` only for opaque URIs.
    pub path: Option<String>,
    pub query: Option<String>,
    pub opaque: Option<String>,
    pub fragment: Option<String>,
}

/// The URI type's members (attribute readers of the URI).
pub const MEMBERS: [&str; 8] = [
    "scheme", "userinfo", "host", "port", "path", "query", "fragment", "opaque",
];

/// Ruby's class of a URI with this scheme (`URI.scheme_list`).
fn class_of(scheme: Option<&str>) -> &'static str {
    match scheme.map(str::to_ascii_uppercase).as_deref() {
        Some("HTTP") => "HTTP",
        Some("HTTPS") => "HTTPS",
        Some("FTP") => "FTP",
        Some("FILE") => "File",
        Some("LDAP") => "LDAP",
        Some("LDAPS") => "LDAPS",
        Some("MAILTO") => "MailTo",
        Some("WS") => "WS",
        _ => "Generic",
    }
}

const PCHAR: &str = "(?:%[0-9A-Fa-f]{2}|[!$&-.0-;=@-Z_a-z~])";

/// Ruby 3.1's `RFC3986_URI` and `RFC3986_relative_ref` (the same
/// alternatives; `\g<...>` calls written out).
fn parser_res() -> &'static Option<(regex::Regex, regex::Regex)> {
    static RE: OnceLock<Option<(regex::Regex, regex::Regex)>> = OnceLock::new();
    RE.get_or_init(|| -> Option<(regex::Regex, regex::Regex)> {
        let h = "[0-9A-Fa-f]";
        let dec = "(?:[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5]|[0-9])";
        let v4 = format!("{dec}\\.{dec}\\.{dec}\\.{dec}");
        let ls32 = format!("(?:{h}{{1,4}}:{h}{{1,4}}|{v4})");
        let h16 = format!("{h}{{1,4}}");
        let v6 = format!(
            "(?:(?:{h16}:){{6}}{ls32}|::(?:{h16}:){{5}}{ls32}|(?:{h16})?::(?:{h16}:){{4}}{ls32}\
             |(?:(?:{h16}:)?{h16})?::(?:{h16}:){{3}}{ls32}|(?:(?:{h16}:){{0,2}}{h16})?::(?:{h16}:){{2}}{ls32}\
             |(?:(?:{h16}:){{0,3}}{h16})?::{h16}:{ls32}|(?:(?:{h16}:){{0,4}}{h16})?::{ls32}\
             |(?:(?:{h16}:){{0,5}}{h16})?::{h16}|(?:(?:{h16}:){{0,6}}{h16})?::)"
        );
        let ipfut = format!("v{h}+\\.[!$&-.0-;=A-Z_a-z~]+");
        let host = format!(
            "(?P<host>\\[(?:{v6}|{ipfut})\\]|{v4}|(?:%{h}{{2}}|[!$&-.0-9;=A-Z_a-z~])+)"
        );
        let authority = format!(
            "(?:(?P<userinfo>(?:%{h}{{2}}|[!$&-.0-;=A-Z_a-z~])*)@)?{host}?(?::(?P<port>[0-9]*))?"
        );
        let seg = format!("{PCHAR}*");
        let segnz = format!("{PCHAR}+");
        let segnznc = format!("(?:%{h}{{2}}|[!$&-.0-9;=@-Z_a-z~])+");
        let tail = "(?:\\?(?P<query>[^#]*))?(?:#(?P<fragment>(?:%[0-9A-Fa-f]{2}|[!$&-.0-;=@-Z_a-z~/?])*))?";
        let abs = format!(
            "\\A(?P<scheme>[A-Za-z][+\\-.0-9A-Za-z]*):(?://{authority}(?P<abempty>(?:/{seg})*)\
             |(?P<absolute>/(?:{segnz}(?:/{seg})*)?)|(?P<rootless>{segnz}(?:/{seg})*)|(?P<empty>)){tail}\\z"
        );
        let rel = format!(
            "\\A(?://{authority}(?P<abempty>(?:/{seg})*)\
             |(?P<absolute>/(?:{segnz}(?:/{seg})*)?)|(?P<noscheme>{segnznc}(?:/{seg})*)|(?P<empty>)){tail}\\z"
        );
        Some((regex::Regex::new(&abs).ok()?, regex::Regex::new(&rel).ok()?))
    })
}

/// `'%%%02X' % byte` for each byte of `s` outside `keep`.
fn escape_bytes(s: &str, keep: impl Fn(u8) -> bool) -> String {
    let mut out = String::new();
    for &b in s.as_bytes() {
        if keep(b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn in_set(b: u8, extra: &[u8]) -> bool {
    b == b'!'
        || b == b'$'
        || (b'&'..=b'.').contains(&b)
        || (b'0'..=b';').contains(&b)
        || b == b'='
        || (b'@'..=b'Z').contains(&b)
        || b == b'_'
        || b.is_ascii_lowercase()
        || b == b'~'
        || extra.contains(&b)
}

impl Uri {
    /// `URI.parse(s)`; the error is Ruby's `URI::InvalidURIError` message.
    pub fn parse(s: &str) -> Result<Uri, String> {
        if !s.is_ascii() {
            return Err(format!("URI must be ascii only {}", ruby_dump(s)));
        }
        let bad = || {
            format!(
                "bad URI(is not URI?): {}",
                crate::names::ruby_inspect_str(s)
            )
        };
        let Some((abs, rel)) = parser_res() else {
            return Err(bad());
        };
        let Some(c) = abs.captures(s).or_else(|| rel.captures(s)) else {
            return Err(bad());
        };
        let get = |n: &str| c.name(n).map(|m| m.as_str().to_string());
        let query = get("query").map(|q| escape_bytes(&q, |b| in_set(b, b"/?")));
        let scheme = get("scheme");
        let fragment = get("fragment");
        if let Some(opaque) = get("rootless") {
            let opaque = match &query {
                Some(q) => format!("{opaque}?{q}"),
                None => opaque,
            };
            return Ok(Uri::new(
                scheme,
                None,
                None,
                None,
                None,
                None,
                Some(opaque),
                fragment,
            ));
        }
        let path = get("abempty")
            .or_else(|| get("absolute"))
            .or_else(|| get("noscheme"))
            .or_else(|| get("empty"))
            .unwrap_or_default();
        if class_of(scheme.as_deref()) == "MailTo" {
            return Err("missing opaque part for mailto URL".into());
        }
        let port = match get("port").as_deref() {
            None | Some("") => None,
            Some(p) => Some(p.parse::<i64>().map_err(|_| bad())?),
        };
        Ok(Uri::new(
            scheme,
            get("userinfo"),
            get("host"),
            port,
            Some(path),
            query,
            None,
            fragment,
        ))
    }

    #[allow(clippy::too_many_arguments)]
    fn new(
        scheme: Option<String>,
        userinfo: Option<String>,
        host: Option<String>,
        port: Option<i64>,
        path: Option<String>,
        query: Option<String>,
        opaque: Option<String>,
        fragment: Option<String>,
    ) -> Uri {
        let scheme = scheme.map(|s| s.to_ascii_lowercase());
        let mut u = Uri {
            scheme,
            userinfo,
            host,
            port,
            path,
            query,
            opaque,
            fragment,
        };
        if u.class() == "File" && u.host.is_none() && u.opaque.is_none() {
            u.host = Some(String::new());
        }
        if u.port.is_none() {
            u.port = u.default_port();
        }
        if u.path.is_none() && u.opaque.is_none() {
            u.path = Some(String::new());
        }
        u
    }

    /// `scheme_class.build(hash)` of `URI.new(hash)`; keys are the
    /// components' names, values strings (the port an Integer).
    pub fn build(get: impl Fn(&str) -> Option<String>, port: Option<i64>) -> Result<Uri, String> {
        let scheme = get("scheme");
        let class = class_of(scheme.as_deref());
        if class == "MailTo" {
            return Err("bad component(expected opaque component): ".into());
        }
        // A known scheme's class names its scheme itself.
        let scheme = if class == "Generic" {
            scheme
        } else {
            Some(class.to_ascii_lowercase())
        };
        let (userinfo, host, path, query, opaque, fragment) = (
            get("userinfo"),
            get("host"),
            get("path"),
            get("query"),
            get("opaque"),
            get("fragment"),
        );
        if let Some(u) = &userinfo {
            if !u
                .bytes()
                .all(|b| in_set(b, b"") && b != b'@' && b != b'/' && b != b'?')
            {
                return Err(format!(
                    "bad component(expected userinfo component or user component): {u}"
                ));
            }
        }
        if let Some(h) = &host {
            let ok = h
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=%".contains(&b))
                || (h.starts_with('[') && h.ends_with(']'));
            if !ok {
                return Err(format!("bad component(expected host component): {h}"));
            }
        }
        if let Some(p) = &path {
            if opaque.is_some() {
                return Err("path conflicts with opaque".into());
            }
            let chars_ok = p.bytes().all(|b| in_set(b, b"/") && b != b'?');
            if scheme.is_some() && class != "FTP" {
                if !(p.is_empty() || p.starts_with('/') && chars_ok) {
                    return Err(format!(
                        "bad component(expected absolute path component): {p}"
                    ));
                }
            } else if !p.is_empty() && !chars_ok {
                return Err(format!(
                    "bad component(expected relative path component): {p}"
                ));
            }
        }
        if let Some(o) = &opaque {
            if host.is_some() || port.is_some() || userinfo.is_some() || path.is_some() {
                return Err("can not set opaque with host, port, userinfo or path".into());
            }
            if o.starts_with('/') || !o.bytes().all(|b| in_set(b, b"/?")) {
                return Err(format!("bad component(expected opaque component): {o}"));
            }
        }
        // `URI::FTP.build`: the path made absolute.
        let path = match path {
            Some(p) if class == "FTP" && !p.starts_with('/') => Some(format!("/{p}")),
            p => p,
        };
        Ok(Uri::new(
            scheme, userinfo, host, port, path, query, opaque, fragment,
        ))
    }

    /// Ruby's class name under `URI::`.
    pub fn class(&self) -> &'static str {
        class_of(self.scheme.as_deref())
    }

    fn default_port(&self) -> Option<i64> {
        match self.class() {
            "HTTP" | "WS" => Some(80),
            "HTTPS" => Some(443),
            "FTP" => Some(21),
            "LDAP" => Some(389),
            "LDAPS" => Some(636),
            _ => None,
        }
    }

    /// The `path` reader (FTP's without its leading `/`).
    pub fn path_reader(&self) -> Option<String> {
        match (&self.path, self.class()) {
            (Some(p), "FTP") => Some(p.strip_prefix('/').unwrap_or(p).to_string()),
            (p, _) => p.clone(),
        }
    }

    /// The component a `URI[{...}]` parameter names, as the reader returns it.
    pub fn component(&self, name: &str) -> Option<crate::values::value::Value> {
        use crate::values::value::Value;
        let s = |v: &Option<String>| v.as_ref().map(|x| Value::string(x.as_str()));
        match name {
            "scheme" => s(&self.scheme),
            "userinfo" => s(&self.userinfo),
            "host" => s(&self.host),
            "port" => self.port.map(Value::Integer),
            "path" => s(&self.path_reader()),
            "query" => s(&self.query),
            "fragment" => s(&self.fragment),
            "opaque" => s(&self.opaque),
            _ => None,
        }
    }

    /// `PURIType#uri_to_hash`: the parameters of the URI type this URI infers.
    pub fn type_params(&self) -> Vec<(&'static str, String)> {
        let mut out = Vec::new();
        if let Some(s) = &self.scheme {
            out.push(("scheme", s.clone()));
        }
        if let Some(u) = &self.userinfo {
            out.push(("userinfo", u.clone()));
        }
        if let Some(h) = self.host.as_ref().filter(|h| !h.is_empty()) {
            out.push(("host", h.to_lowercase()));
        }
        if let Some(p) = self.port {
            let scheme = self.scheme.as_deref();
            if !(p == 80 && scheme == Some("http") || p == 443 && scheme == Some("https")) {
                out.push(("port", p.to_string()));
            }
        }
        if let Some(p) = self.path_reader().filter(|p| !p.is_empty()) {
            out.push(("path", p));
        }
        if let Some(q) = &self.query {
            out.push(("query", q.clone()));
        }
        if let Some(f) = &self.fragment {
            out.push(("fragment", f.clone()));
        }
        if let Some(o) = &self.opaque {
            out.push(("opaque", o.clone()));
        }
        out
    }

    /// `normalize.component_ary` (what `==` compares), with the class.
    fn normal(&self) -> (&'static str, Vec<Option<String>>) {
        let mut path = self.path.clone();
        if self.host.is_some()
            && path.as_deref() == Some("")
            && matches!(self.class(), "HTTP" | "HTTPS" | "WS")
        {
            path = Some("/".into());
        }
        (
            self.class(),
            vec![
                self.scheme.clone(),
                self.userinfo.clone(),
                self.host.as_ref().map(|h| h.to_lowercase()),
                self.port.map(|p| p.to_string()),
                path,
                self.query.clone(),
                self.opaque.clone(),
                self.fragment.clone(),
            ],
        )
    }

    /// Ruby's `inspect`: `#<URI::HTTP http://a/x>`.
    pub fn inspect(&self) -> String {
        format!("#<URI::{} {self}>", self.class())
    }

    /// A shared value.
    pub fn into_value(self) -> crate::values::value::Value {
        crate::values::value::Value::Uri(Arc::new(self))
    }
}

impl PartialEq for Uri {
    fn eq(&self, o: &Uri) -> bool {
        self.normal() == o.normal()
    }
}

impl Eq for Uri {}

impl std::hash::Hash for Uri {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.normal().hash(state)
    }
}

impl std::fmt::Display for Uri {
    /// `URI::Generic#to_s`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut s = String::new();
        if let Some(sc) = &self.scheme {
            s.push_str(sc);
            s.push(':');
        }
        if let Some(o) = &self.opaque {
            s.push_str(o);
        } else {
            if self.host.is_some() || matches!(self.scheme.as_deref(), Some("file" | "postgres")) {
                s.push_str("//");
            }
            if let Some(u) = &self.userinfo {
                s.push_str(u);
                s.push('@');
            }
            if let Some(h) = &self.host {
                s.push_str(h);
            }
            if let Some(p) = self.port.filter(|p| Some(*p) != self.default_port()) {
                s.push(':');
                s.push_str(&p.to_string());
            }
            if let Some(p) = &self.path {
                s.push_str(p);
            }
            if let Some(q) = &self.query {
                s.push('?');
                s.push_str(q);
            }
        }
        if let Some(fr) = &self.fragment {
            s.push('#');
            s.push_str(fr);
        }
        f.write_str(&s)
    }
}

/// The parameter of `URI[...]` for this URI: `uri_to_hash`, `None` when empty.
pub fn type_param(u: &Uri) -> Option<Box<crate::values::value::Value>> {
    use crate::values::value::{Map, Value};
    let params = u.type_params();
    if params.is_empty() {
        return None;
    }
    let mut m = Map::default();
    for (k, v) in params {
        m.insert(Value::string(k), Value::string(v.as_str()));
    }
    Some(Box::new(Value::Hash(Arc::new(m))))
}

/// `infer_set_URI`: `URI[uri_to_hash(uri)]`.
pub fn infer_type(u: &Uri) -> crate::values::types::PType {
    crate::values::types::PType::Uri(type_param(u))
}

/// `path.split("/", -1)`: no parts for an empty path.
fn split_path(p: &str) -> Vec<String> {
    if p.is_empty() {
        Vec::new()
    } else {
        p.split('/').map(str::to_string).collect()
    }
}

/// `URI::Generic#merge_path`.
fn merge_path(base: &str, rel: &str) -> String {
    let mut base_path = split_path(base);
    let mut rel_path = split_path(rel);
    if base_path.last().is_some_and(|l| l == "..") {
        base_path.push(String::new());
    }
    while let Some(i) = base_path.iter().position(|x| x == "..") {
        let start = i.saturating_sub(1);
        let end = (start + 2).min(base_path.len());
        base_path.drain(start..end);
    }
    if rel_path.first().is_some_and(String::is_empty) {
        base_path.clear();
        rel_path.remove(0);
    }
    if rel_path.last().is_some_and(|l| l == "." || l == "..") {
        rel_path.push(String::new());
    }
    rel_path.retain(|x| x != ".");
    let mut tmp: Vec<String> = Vec::new();
    for x in rel_path {
        if x == ".." && !(tmp.is_empty() || tmp.last().is_some_and(|l| l == "..")) {
            tmp.pop();
        } else {
            tmp.push(x);
        }
    }
    let mut add_trailer_slash = !tmp.is_empty();
    if base_path.is_empty() {
        base_path = vec![String::new()];
    } else if add_trailer_slash {
        base_path.pop();
    }
    let mut rest = tmp.into_iter();
    while let Some(x) = rest.next() {
        if x == ".." {
            // A `..` in an absolute path has no special meaning.
            if base_path.len() > 1 {
                base_path.pop();
            }
        } else {
            base_path.push(x);
            base_path.extend(rest.by_ref());
            add_trailer_slash = false;
            break;
        }
    }
    if add_trailer_slash {
        base_path.push(String::new());
    }
    base_path.join("/")
}

impl Uri {
    /// `URI::Generic#merge` (Puppet's `uri + other`); errors are Ruby's
    /// `URI::BadURIError` texts.
    pub fn merge(&self, oth: &Uri) -> Result<Uri, String> {
        if oth.scheme.is_some() {
            return Ok(oth.clone());
        }
        if self.scheme.is_none() {
            return Err("both URI are relative".into());
        }
        let mut base = self.clone();
        let authority = oth.userinfo.is_some() || oth.host.is_some() || oth.port.is_some();
        if oth.path.as_deref().is_none_or(str::is_empty) && !authority && oth.query.is_none() {
            if oth.fragment.is_some() {
                base.fragment = oth.fragment.clone();
            }
            return Ok(base);
        }
        base.query = None;
        base.fragment = None;
        if !authority {
            if let (Some(b), Some(r)) = (&base.path, &oth.path) {
                base.path = Some(merge_path(b, r));
            }
        } else if oth.path.is_some() {
            base.path = oth.path.clone();
        }
        if oth.userinfo.is_some() {
            base.userinfo = oth.userinfo.clone();
        }
        if oth.host.is_some() {
            base.host = oth.host.clone();
        }
        if oth.port.is_some() {
            base.port = oth.port;
        }
        if oth.query.is_some() {
            base.query = oth.query.clone();
        }
        if oth.fragment.is_some() {
            base.fragment = oth.fragment.clone();
        }
        Ok(base)
    }
}

/// Ruby's `String#dump`: non-ASCII characters as `\uXXXX`.
fn ruby_dump(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02X}", c as u32))
            }
            c if c.is_ascii() => out.push(c),
            c if (c as u32) <= 0xFFFF => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push_str(&format!("\\u{{{:X}}}", c as u32)),
        }
    }
    out.push('"');
    out
}
