//! Validation issues whose severity Puppet's `strict` setting decides
//! (`validator_factory_4_0.rb`: `DUPLICATE_KEY` is ignored, a warning or an
//! error as `strict` is off, warning or error), and how `max_errors` and
//! `max_warnings` limit what is reported (`IssueReporter.assert_and_report`).
//!
//! The parser records these issues in [`crate::ast::Program::strict_issues`]
//! whatever the settings, so one parse serves compiles with different
//! settings; [`Validation::report`] then applies a compile's settings.

use super::ast::{Expr, ExprKind, HashEntry, Number, Program, StrPart, UnaryOp};
use super::error::{RawError, SyntaxError};
use super::ruby_float::ruby_float;

/// What a strict-governed issue does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Ignore,
    Warning,
    Error,
}

/// The settings validation reports with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Validation {
    /// `strict`.
    pub strict: Severity,
    /// `max_errors`: how many errors are logged before giving up.
    pub max_errors: i64,
    /// `max_warnings`: how many warnings are logged.
    pub max_warnings: i64,
}

impl Validation {
    /// A program's strict-governed issues under these settings: the
    /// warnings to log (Puppet's `message (file: F, line: L, column: C)`),
    /// or the error the parse fails with.
    pub fn report(&self, program: &Program) -> Result<Vec<String>, SyntaxError> {
        let located: Vec<SyntaxError> = program
            .strict_issues
            .iter()
            .map(|e| program.locate(e.clone()))
            .collect();
        match self.strict {
            Severity::Ignore => Ok(Vec::new()),
            Severity::Warning => Ok(located
                .iter()
                .take(usize::try_from(self.max_warnings).unwrap_or(0))
                .map(SyntaxError::puppet_style)
                .collect()),
            Severity::Error => match located.len() {
                0 => Ok(Vec::new()),
                1 => Err(located.into_iter().next().expect("one error")),
                n => Err(self.limit_errors(SyntaxError {
                    message: format!("Language validation logged {n} errors. Giving up"),
                    file: program.path.to_string(),
                    line: None,
                    column: None,
                    logged: located,
                })),
            },
        }
    }

    /// Several validation errors as `max_errors` reports them: at most that
    /// many logged, and the first error alone when it is 0 or 1.
    pub fn limit_errors(&self, mut e: SyntaxError) -> SyntaxError {
        if e.logged.is_empty() {
            return e;
        }
        if self.max_errors <= 1 {
            return e.logged.remove(0);
        }
        e.logged
            .truncate(usize::try_from(self.max_errors).unwrap_or(usize::MAX));
        e
    }
}

/// Puppet's `check_LiteralHash`: each entry whose key is a literal already
/// seen in the hash is a `DUPLICATE_KEY`, placed at the entry's `=>`.
pub(crate) fn duplicate_keys(entries: &[HashEntry], issues: &mut Vec<RawError>) {
    let mut seen: Vec<Literal> = Vec::new();
    for entry in entries {
        let Some(key) = literal(&entry.key) else {
            continue;
        };
        if seen.contains(&key) {
            issues.push(RawError::at(
                entry.span.start as usize,
                format!("The key '{}' is declared more than once", key.to_s()),
            ));
        } else {
            seen.push(key);
        }
    }
}

/// A key as Puppet's `LiteralEvaluator` makes it: a Ruby value, compared
/// with `eql?` (so `1` and `1.0` differ, `'a'` and `a` do not).
#[derive(Clone, Debug, PartialEq)]
enum Literal {
    Nil,
    Default,
    Bool(bool),
    Int(i64),
    /// By its bits: `eql?` on Floats.
    Float(u64),
    Str(String),
    Regexp(String),
    List(Vec<Literal>),
}

fn literal(e: &Expr) -> Option<Literal> {
    Some(match &e.kind {
        ExprKind::Undef => Literal::Nil,
        ExprKind::Default => Literal::Default,
        ExprKind::Boolean(b) => Literal::Bool(*b),
        ExprKind::Number(Number::Integer(i, _)) => Literal::Int(*i),
        ExprKind::Number(Number::Float(f)) => Literal::Float(f.to_bits()),
        ExprKind::Str(s) | ExprKind::QName(s) => Literal::Str(s.to_string()),
        ExprKind::QRef(s) => Literal::Str(s.clone()),
        ExprKind::Concat(parts) => match parts.as_slice() {
            [StrPart::Text(t)] => Literal::Str(t.clone()),
            _ => return None,
        },
        ExprKind::Regex(r) => Literal::Regexp(r.clone()),
        ExprKind::Array(items) => Literal::List(items.iter().map(literal).collect::<Option<_>>()?),
        // `T[k, ...]`: the keys alone (Puppet's `literal_AccessExpression`).
        ExprKind::Access { keys, .. } => {
            if matches!(
                keys.as_slice(),
                [Expr {
                    kind: ExprKind::Array(_),
                    ..
                }]
            ) {
                return None;
            }
            Literal::List(keys.iter().map(literal).collect::<Option<_>>()?)
        }
        ExprKind::Unary {
            op: UnaryOp::Neg,
            expr,
        } => match literal(expr)? {
            Literal::Int(i) => Literal::Int(i.checked_neg()?),
            Literal::Float(f) => Literal::Float((-f64::from_bits(f)).to_bits()),
            _ => return None,
        },
        _ => return None,
    })
}

impl Literal {
    /// Ruby's `to_s`, as the message interpolates the key.
    fn to_s(&self) -> String {
        match self {
            Literal::Nil => String::new(),
            Literal::Str(s) => s.clone(),
            Literal::Regexp(r) => format!("(?-mix:{r})"),
            Literal::List(_) => self.inspect(),
            other => other.inspect(),
        }
    }

    /// Ruby's `inspect`.
    fn inspect(&self) -> String {
        match self {
            Literal::Nil => "nil".into(),
            Literal::Default => ":default".into(),
            Literal::Bool(b) => b.to_string(),
            Literal::Int(i) => i.to_string(),
            Literal::Float(f) => ruby_float(f64::from_bits(*f)),
            Literal::Str(s) => format!("{s:?}"),
            Literal::Regexp(r) => format!("/{r}/"),
            Literal::List(items) => format!(
                "[{}]",
                items
                    .iter()
                    .map(Literal::inspect)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn issues(src: &str) -> Vec<String> {
        let p = crate::parse("t.pp", src.as_bytes()).expect("parses");
        p.strict_issues.iter().map(|e| e.message.clone()).collect()
    }

    #[test]
    fn literal_keys_compare_as_ruby_eql() {
        // Messages of Puppet 7.23's DUPLICATE_KEY (issues.rb).
        assert_eq!(
            issues("$h = { 'a' => 1, a => 2, \"a\" => 3 }"),
            [
                "The key 'a' is declared more than once",
                "The key 'a' is declared more than once"
            ]
        );
        assert!(issues("$h = { 1 => 1, 1.0 => 2, $x => 3, $x => 4 }").is_empty());
        assert_eq!(
            issues("$h = { [a, 1] => 1, [a, 1] => 2, -1 => 0, -1 => 0 }"),
            [
                "The key '[\"a\", 1]' is declared more than once",
                "The key '-1' is declared more than once"
            ]
        );
    }

    #[test]
    fn severity_follows_strict() {
        let p = crate::parse("t.pp", b"$h = { 'a' => 1, 'a' => 2 }\n").expect("parses");
        let v = |strict| Validation {
            strict,
            max_errors: 10,
            max_warnings: 10,
        };
        assert!(v(Severity::Ignore).report(&p).unwrap().is_empty());
        assert_eq!(
            v(Severity::Warning).report(&p).unwrap(),
            ["The key 'a' is declared more than once (file: t.pp, line: 1, column: 22)"]
        );
        let e = v(Severity::Error).report(&p).unwrap_err();
        assert_eq!((e.line, e.column), (Some(1), Some(22)));
    }
}
