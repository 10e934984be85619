//! Evaluation errors, rendered as Puppet renders them:
//! `Evaluation Error: Error while evaluating a Resource Statement, <detail> (file: F, line: L, column: C) on node N`.

use std::fmt;

/// Where in the manifests something happened.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Location {
    pub file: Option<std::sync::Arc<str>>,
    pub line: Option<u32>,
    pub column: Option<u32>,
}

impl Location {
    /// ` (file: F, line: L, column: C)` as Puppet appends it, or nothing.
    pub fn suffix(&self) -> String {
        match (&self.file, self.line, self.column) {
            (Some(f), Some(l), Some(c)) => format!(" (file: {f}, line: {l}, column: {c})"),
            (Some(f), Some(l), None) => format!(" (file: {f}, line: {l})"),
            (Some(f), None, _) => format!(" (file: {f})"),
            (None, Some(l), Some(c)) => format!(" (line: {l}, column: {c})"),
            _ => String::new(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalError {
    /// An error raised while evaluating an expression: wrapped with the
    /// expression's label (`a Function Call`) unless it is already wrapped.
    Runtime {
        /// `a Resource Statement`; `None` for errors Puppet does not wrap.
        while_evaluating: Option<String>,
        detail: String,
        at: Location,
    },
    /// An issue the evaluator raises itself, at an expression: never wrapped
    /// (`Evaluation Error: Unknown variable: 'x'. (file: ...)`).
    Issue {
        detail: String,
        at: Location,
    },
    /// An error of the syntax or validation of a manifest.
    Parse(String),
    /// An error of the catalog's definitions (redefinitions, missing nodes).
    Syntax(String),
    /// A `Puppet::ParseError` raised with its own file and line
    /// (`Parser::Resource#merge`'s strict check): no expression wraps it,
    /// but a lazily evaluated resource does, as a Resource Statement.
    Located(String),
    /// `next(v)`, `break()`, `return(v)`: control flow unwinding to the
    /// lambda, iteration or function that handles it. Each carries the
    /// call's file and line, which Puppet reports when nothing handles it.
    Next(puppet_model::Value, Location),
    Break(Location),
    Return(puppet_model::Value, Location),
    /// An error of catalog completion (relationships, realize): not wrapped.
    Completion(String),
    /// A Ruby exception Puppet lets through as it is (a template's
    /// `SyntaxError`): no wrapping and no ` on node N` tail.
    Foreign(String),
}

impl EvalError {
    pub fn runtime(detail: impl Into<String>, at: Location) -> EvalError {
        EvalError::Runtime {
            while_evaluating: None,
            detail: detail.into(),
            at,
        }
    }

    /// The error as Puppet's `evaluate_definitions` reports a failure of a
    /// lazily evaluated resource (a define instance, a class from the node
    /// classifier): `Error while evaluating a Resource Statement, <the
    /// inner error's whole message>` at the resource's file and line (`at`;
    /// none for classifier classes). A plain error keeps its bare text;
    /// control flow and errors of loading or completion pass unchanged.
    pub fn as_resource_statement(self, at: &Location) -> EvalError {
        let detail = match &self {
            EvalError::Runtime {
                while_evaluating: None,
                detail,
                at: inner,
            } => format!("{detail}{}", inner.suffix()),
            EvalError::Runtime { .. } | EvalError::Issue { .. } => self.message(),
            EvalError::Located(m) => m.clone(),
            _ => return self,
        };
        EvalError::Runtime {
            while_evaluating: Some("a Resource Statement".into()),
            detail,
            at: at.clone(),
        }
    }

    /// The message without the ` on node N` tail.
    pub fn message(&self) -> String {
        match self {
            EvalError::Runtime {
                while_evaluating: Some(label),
                detail,
                at,
            } => format!(
                "Evaluation Error: Error while evaluating {label}, {detail}{}",
                at.suffix()
            ),
            EvalError::Runtime {
                while_evaluating: None,
                detail,
                at,
            } => format!("Evaluation Error: {detail}{}", at.suffix()),
            EvalError::Issue { detail, at } => {
                format!("Evaluation Error: {detail}{}", at.suffix())
            }
            EvalError::Parse(m)
            | EvalError::Syntax(m)
            | EvalError::Completion(m)
            | EvalError::Located(m)
            | EvalError::Foreign(m) => m.clone(),
            EvalError::Next(_, at) => {
                format!("next() from context where this is illegal{}", at.suffix())
            }
            EvalError::Break(at) => {
                format!("break() from context where this is illegal{}", at.suffix())
            }
            EvalError::Return(_, at) => {
                format!("return() from context where this is illegal{}", at.suffix())
            }
        }
    }

    /// The whole message as Puppet reports it for a node.
    /// Text from bytes that are not UTF-8 (`crate::bad_bytes`) is written as
    /// Ruby's `inspect` writes it: Puppet holds the raw bytes, and cannot
    /// even log such a message (`Received a Log attribute with invalid
    /// encoding`).
    pub fn for_node(&self, node: &str) -> String {
        let text = match self {
            EvalError::Foreign(m) => m.clone(),
            _ => format!("{} on node {node}", self.message()),
        };
        puppet_model::bad_bytes::escape(&text).into_owned()
    }
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message())
    }
}

impl std::error::Error for EvalError {}

/// A node over its budget (`crate::budget`): the compile replaces whatever
/// this is wrapped in with the budget's own text when it ends.
impl From<crate::budget::Exceeded> for EvalError {
    fn from(e: crate::budget::Exceeded) -> EvalError {
        EvalError::runtime(e.to_string(), Location::default())
    }
}
