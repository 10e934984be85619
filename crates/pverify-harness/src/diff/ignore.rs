//! Ignore rules in the spirit of octocatalog-diff's `--ignore`:
//!
//! - `Type[title]`: every change of matching resources (`*` matches any run
//!   of characters, in the type and the title; the type is compared
//!   case-insensitively, the title exactly). `Class[Foo]` also hides the
//!   class `Foo` being added to or removed from the class list.
//! - `Type[title]::parameters::NAME`: only changes of that parameter (`NAME`
//!   may hold `*`; `Type[title]::NAME` is the same). Content changes are
//!   changes of `content` (or of `source`, whichever the file uses).
//! - `--ignore-tag TAG`: resources carrying the tag on either side.
//!
//! An edge is ignored when a rule ignores its source or its target resource
//! as a whole.

use super::model::Change;
use super::refs;

/// One `--ignore` rule.
#[derive(Clone, Debug, PartialEq)]
pub struct IgnoreRule {
    type_glob: String,
    title_glob: String,
    /// `None`: the whole resource.
    parameter_glob: Option<String>,
}

impl IgnoreRule {
    /// Parses `Type[title]` or `Type[title]::parameters::name`.
    pub fn parse(text: &str) -> Result<IgnoreRule, String> {
        let bad = || {
            format!(
                "invalid ignore rule '{text}': expected Type[title] or Type[title]::parameters::name"
            )
        };
        let close = text.rfind(']').ok_or_else(bad)?;
        let (reference, rest) = text.split_at(close + 1);
        let (type_glob, title_glob) = refs::split(reference).ok_or_else(bad)?;
        let parameter_glob = if rest.is_empty() {
            None
        } else {
            let path = rest.strip_prefix("::").ok_or_else(bad)?;
            let name = path.strip_prefix("parameters::").unwrap_or(path);
            if name.is_empty() || name.contains("::") {
                return Err(bad());
            }
            Some(name.to_string())
        };
        Ok(IgnoreRule {
            type_glob: type_glob.to_ascii_lowercase(),
            title_glob: title_glob.to_string(),
            parameter_glob,
        })
    }

    fn matches_resource(&self, reference: &str) -> bool {
        let Some((t, title)) = refs::split(reference) else {
            return false;
        };
        glob(&self.type_glob, &t.to_ascii_lowercase()) && glob(&self.title_glob, title)
    }
}

/// All rules of a run.
#[derive(Clone, Debug, Default)]
pub struct Ignore {
    pub rules: Vec<IgnoreRule>,
    pub tags: Vec<String>,
}

impl Ignore {
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty() && self.tags.is_empty()
    }

    /// Is every change of this resource ignored?
    pub fn ignores_resource(&self, reference: &str) -> bool {
        self.rules
            .iter()
            .any(|r| r.parameter_glob.is_none() && r.matches_resource(reference))
    }

    /// Are the resource's tags among the ignored ones?
    pub fn ignores_tags<'a>(&self, tags: impl IntoIterator<Item = &'a str>) -> bool {
        !self.tags.is_empty()
            && tags
                .into_iter()
                .any(|t| self.tags.iter().any(|i| i.eq_ignore_ascii_case(t)))
    }

    fn ignores_parameter(&self, reference: &str, parameter: &str) -> bool {
        self.rules.iter().any(|r| {
            r.matches_resource(reference)
                && r.parameter_glob.as_ref().is_none_or(|p| glob(p, parameter))
        })
    }

    /// Does a rule hide this change? (Tags are applied by the comparison,
    /// which sees the resources.)
    pub fn ignores(&self, change: &Change) -> bool {
        match change {
            Change::ResourceAdded { resource, .. } | Change::ResourceRemoved { resource, .. } => {
                self.ignores_resource(resource)
            }
            Change::ParameterChanged {
                resource,
                parameter,
                ..
            }
            | Change::ContentChanged {
                resource,
                parameter,
                ..
            }
            | Change::RelationshipChanged {
                resource,
                parameter,
                ..
            } => self.ignores_parameter(resource, parameter),
            Change::EdgeAdded { source, target } | Change::EdgeRemoved { source, target } => {
                self.ignores_resource(source) || self.ignores_resource(target)
            }
            Change::ClassAdded { class } | Change::ClassRemoved { class } => {
                self.ignores_resource(&refs::resource_ref("Class", class))
            }
            Change::AttributeChanged {
                resource,
                attribute,
                ..
            } => self.ignores_parameter(resource, &format!("@{attribute}")),
            // Not made by diff's rules; no rule names them.
            Change::CatalogKeyChanged { .. } | Change::OrderChanged { .. } => false,
        }
    }
}

/// `*` matches any run of characters; everything else matches itself.
pub fn glob(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    // Iterative matching with one backtrack point (no recursion, linear
    // space): the classic wildcard algorithm.
    let (mut pi, mut ti) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        if pi < p.len() && p[pi] == '*' {
            star = Some((pi, ti));
            pi += 1;
        } else if pi < p.len() && p[pi] == t[ti] {
            pi += 1;
            ti += 1;
        } else if let Some((sp, st)) = star {
            pi = sp + 1;
            ti = st + 1;
            star = Some((sp, st + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|c| *c == '*')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs() {
        assert!(glob("*", ""));
        assert!(glob("/etc/*", "/etc/motd"));
        assert!(glob("*motd", "/etc/motd"));
        assert!(glob("a*b*c", "axxbyyc"));
        assert!(!glob("a*b", "ac"));
        assert!(!glob("/etc/motd", "/etc/motd2"));
    }

    #[test]
    fn rules() {
        let ig = Ignore {
            rules: vec![
                IgnoreRule::parse("File[*]::parameters::mode").unwrap(),
                IgnoreRule::parse("exec[*]").unwrap(),
                IgnoreRule::parse("Class[Db]").unwrap(),
            ],
            tags: vec![],
        };
        let param = |r: &str, p: &str| Change::ParameterChanged {
            resource: r.into(),
            parameter: p.into(),
            from: None,
            to: None,
        };
        assert!(ig.ignores(&param("File[/etc/motd]", "mode")));
        assert!(!ig.ignores(&param("File[/etc/motd]", "owner")));
        assert!(ig.ignores(&param("Exec[x]", "command")));
        assert!(ig.ignores(&Change::ClassRemoved { class: "db".into() }));
        assert!(IgnoreRule::parse("File").is_err());
        assert!(IgnoreRule::parse("File[x]:mode").is_err());
        assert!(IgnoreRule::parse("File[x]::mode").is_ok());
    }
}
