//! Puppet's type system (`pops/types`): types as values, instance checks,
//! parameterisation by `[]`, and the texts of type-mismatch errors.

use std::fmt;

/// A Puppet type. Placeholder shape until the type system lands; see the
/// module docs for what it grows into.
#[derive(Clone, Debug, PartialEq)]
pub enum PType {
    Any,
    /// `File['/x']`-style references: a resource type with an optional title.
    Resource {
        type_name: Option<String>,
        title: Option<String>,
    },
    /// `Class['foo']`.
    Class(Option<String>),
}

impl fmt::Display for PType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PType::Any => f.write_str("Any"),
            PType::Resource { type_name, title } => match (type_name, title) {
                (None, _) => f.write_str("Resource"),
                (Some(t), None) => f.write_str(t),
                (Some(t), Some(x)) => write!(f, "{t}['{x}']"),
            },
            PType::Class(None) => f.write_str("Class"),
            PType::Class(Some(c)) => write!(f, "Class['{c}']"),
        }
    }
}
