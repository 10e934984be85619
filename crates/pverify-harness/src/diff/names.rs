//! A node's own names (certname, fqdn, hostname, IP addresses) and the
//! text of a change with them replaced by placeholders (`<certname>`,
//! `<fqdn>`, `<hostname>`, `<ip>`): what lets the grouping see a motd that
//! says "Welcome to web01.example.com" on web01 and "Welcome to
//! web02.example.com" on web02 as one change.
//!
//! Names are substituted longest first (an fqdn before the hostname it
//! starts with) and only as whole tokens: `web01` is not replaced inside
//! `web010` or `xweb01`, nor `10.0.0.1` inside `10.0.0.12`.

use puppet_model::{Map, Value};

/// Every placeholder, in the order reports list them.
pub const PLACEHOLDERS: [&str; 4] = ["<certname>", "<fqdn>", "<hostname>", "<ip>"];

/// The names of one node, each with its placeholder, longest first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NodeNames {
    names: Vec<(String, &'static str)>,
}

/// Names shorter than this are left alone: a node called `db` would turn
/// every standalone "db" of its changes into `<hostname>` and join changes
/// that merely mention the word.
const SHORTEST: usize = 3;

impl NodeNames {
    /// The names of a node from its certname and facts: `fqdn`,
    /// `hostname`, `ipaddress`, `ipaddress6` (legacy facts) and
    /// `networking.{fqdn,hostname,ip,ip6}`.
    pub fn of_node(certname: &str, facts: &Map) -> NodeNames {
        let top = |k: &str| fact_str(facts.get(&Value::string(k)));
        let networking = facts.get(&Value::string("networking"));
        let net = |k: &str| match networking {
            Some(Value::Hash(h)) => fact_str(h.get(&Value::string(k))),
            _ => None,
        };
        let mut names = NodeNames::default();
        names.add(certname, "<certname>");
        for fqdn in [top("fqdn"), net("fqdn")].into_iter().flatten() {
            names.add(&fqdn, "<fqdn>");
        }
        for host in [top("hostname"), net("hostname")].into_iter().flatten() {
            names.add(&host, "<hostname>");
        }
        for ip in [top("ipaddress"), net("ip"), top("ipaddress6"), net("ip6")]
            .into_iter()
            .flatten()
        {
            names.add(&ip, "<ip>");
        }
        names
    }

    /// Only the certname (catalog files: no facts).
    pub fn certname(certname: &str) -> NodeNames {
        let mut names = NodeNames::default();
        names.add(certname, "<certname>");
        names
    }

    /// Adds a name unless it is too short or already known (the first
    /// placeholder of a text wins: a certname equal to the fqdn stays
    /// `<certname>`).
    fn add(&mut self, name: &str, placeholder: &'static str) {
        if name.chars().count() < SHORTEST || self.names.iter().any(|(n, _)| n == name) {
            return;
        }
        self.names.push((name.to_string(), placeholder));
        // Longest first; stable, so equal lengths keep the order above.
        self.names
            .sort_by_key(|(n, _)| std::cmp::Reverse(n.chars().count()));
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// Each name and its placeholder, longest first (the JSON report's
    /// `names`, which [`NodeNames::from_entries`] reads back).
    pub fn entries(&self) -> impl Iterator<Item = (&str, &'static str)> {
        self.names.iter().map(|(n, p)| (n.as_str(), *p))
    }

    /// The names [`NodeNames::entries`] listed; `None` for a placeholder
    /// that is not one of [`PLACEHOLDERS`].
    pub fn from_entries<'a>(
        entries: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Option<NodeNames> {
        let mut names = NodeNames::default();
        for (name, placeholder) in entries {
            let p = PLACEHOLDERS.iter().find(|p| **p == placeholder)?;
            names.add(name, p);
        }
        Some(names)
    }

    /// `text` with every whole-token occurrence of a name replaced by its
    /// placeholder.
    pub fn generalize(&self, text: &str) -> String {
        if self.names.is_empty() || text.is_empty() {
            return text.to_string();
        }
        let mut out = String::with_capacity(text.len());
        let mut i = 0;
        let bytes = text.as_bytes();
        'scan: while i < text.len() {
            // Only at a token's start can a name begin.
            if i == 0 || !is_name_char(bytes[i - 1]) {
                for (name, placeholder) in &self.names {
                    let end = i + name.len();
                    if text[i..].starts_with(name.as_str())
                        && (end == text.len() || !is_name_char(bytes[end]))
                    {
                        out.push_str(placeholder);
                        i = end;
                        continue 'scan;
                    }
                }
            }
            let c = text[i..].chars().next().unwrap_or(' ');
            out.push(c);
            i += c.len_utf8();
        }
        out
    }
}

/// Characters that continue a hostname, an fqdn's label or an address'
/// digits: a name next to one of these is part of a longer token.
fn is_name_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b >= 0x80
}

fn fact_str(v: Option<&Value>) -> Option<String> {
    v.and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names() -> NodeNames {
        let mut facts = Map::default();
        facts.insert(Value::string("hostname"), Value::string("web01"));
        facts.insert(Value::string("fqdn"), Value::string("web01.example.com"));
        facts.insert(Value::string("ipaddress"), Value::string("10.0.0.1"));
        NodeNames::of_node("web01.example.com", &facts)
    }

    #[test]
    fn longest_first_and_whole_tokens() {
        let n = names();
        assert_eq!(
            n.generalize("Welcome to web01.example.com (web01, 10.0.0.1)"),
            "Welcome to <certname> (<hostname>, <ip>)"
        );
        assert_eq!(
            n.generalize("web010 xweb01 10.0.0.12"),
            "web010 xweb01 10.0.0.12"
        );
        assert_eq!(
            n.generalize("/etc/ssl/web01.pem"),
            "/etc/ssl/<hostname>.pem"
        );
    }

    #[test]
    fn short_names_are_not_placeholders() {
        let n = NodeNames::certname("db");
        assert_eq!(n.generalize("db server"), "db server");
    }
}
