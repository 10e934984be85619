//! Syntax diagnostics. Messages follow Puppet 7's texts (`pops/issues.rb`).

use std::fmt;

/// Ruby's `ArgumentError` for a source that is not UTF-8 (Puppet's lexer
/// matches a regexp on it): a manifest's syntax error at the first bad byte;
/// for an EPP template, the error of the `epp()` call itself.
pub const INVALID_BYTE_SEQUENCE: &str = "invalid byte sequence in UTF-8";

/// Ruby's `NoMethodError` from Puppet's checker (`check_VariableExpression`
/// runs `name[0,1]`) on a variable whose name is a Boolean
/// ([`crate::token::boolean_variable`]), as Ruby 3.3 (Puppet 8.10) words it.
pub fn boolean_name_crash(b: bool) -> String {
    format!("undefined method `[]' for {b}")
}

/// A text of Ruby 3.3 as Ruby 3.1 (Puppet 7.23) words it: the
/// [`boolean_name_crash`] names the receiver's class, and error_highlight
/// adds Puppet's line with the failing call marked. Other texts are
/// unchanged.
pub fn in_ruby_3_1(message: &str) -> std::borrow::Cow<'_, str> {
    let class = match message.strip_prefix("undefined method `[]' for ") {
        Some("true") => "true:TrueClass",
        Some("false") => "false:FalseClass",
        _ => return std::borrow::Cow::Borrowed(message),
    };
    std::borrow::Cow::Owned(format!(
        "undefined method `[]' for {class}\n\n      if name[0,1] =~ /[0-9]/\n             ^^^^^"
    ))
}

/// One syntax or validation error, located as Puppet locates it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    pub message: String,
    pub file: String,
    /// 1-based; `None` where Puppet gives no position (end of input).
    pub line: Option<u32>,
    /// 1-based, in characters.
    pub column: Option<u32>,
    /// With several validation errors, Puppet logs each of them (these)
    /// and then fails with their count (this error); empty otherwise.
    pub logged: Vec<SyntaxError>,
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.column) {
            (Some(l), Some(c)) => write!(f, "{}:{}:{}: {}", self.file, l, c, self.message),
            (Some(l), None) => write!(f, "{}:{}: {}", self.file, l, self.message),
            _ => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

impl std::error::Error for SyntaxError {}

impl SyntaxError {
    /// An error with neither file nor place: Ruby's own, raised from inside
    /// the lexer ([`RawError::bare`]). Whatever loaded the file reports it
    /// as its own error (a Function Call that autoloaded a class wraps it).
    pub fn is_bare(&self) -> bool {
        self.file.is_empty() && self.line.is_none()
    }

    /// Puppet's own rendering: `message (file: F, line: L, column: C)`,
    /// each part only when known. Code with no file (the `code` setting, a
    /// string `Type.new` parses) shows `(line: L, column: C)`; Ruby's
    /// error from inside the lexer shows the message alone.
    pub fn puppet_style(&self) -> String {
        let mut parts = Vec::with_capacity(3);
        if !self.file.is_empty() {
            parts.push(format!("file: {}", self.file));
        }
        if let Some(l) = self.line {
            parts.push(format!("line: {l}"));
            if let Some(c) = self.column {
                parts.push(format!("column: {c}"));
            }
        }
        if parts.is_empty() {
            return self.message.clone();
        }
        format!("{} ({})", self.message, parts.join(", "))
    }
}

/// An error before it is located: a message and a byte offset into the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawError {
    pub message: String,
    /// `None` for errors Puppet reports without a position.
    pub offset: Option<usize>,
    /// Ruby's own error from inside the lexer (a regex literal
    /// `Regexp.new` refuses): Puppet names neither the file nor a place.
    pub bare: bool,
}

impl RawError {
    pub fn at(offset: usize, message: impl Into<String>) -> RawError {
        RawError {
            message: message.into(),
            offset: Some(offset),
            bare: false,
        }
    }

    /// An error Puppet reports with neither file nor place.
    pub fn bare(message: impl Into<String>) -> RawError {
        RawError {
            message: message.into(),
            offset: None,
            bare: true,
        }
    }
}

/// Turns a byte offset into Puppet's line and character column.
pub fn locate_error(path: &str, source: &[u8], e: RawError) -> SyntaxError {
    locate_error_in(path, source, &crate::span::LineIndex::new(source), e)
}

/// [`locate_error`] with the source's line index at hand: a file's many
/// errors are located in one pass over it, not one pass each (a fuzzed
/// file of 136 KB with thousands of validation errors took 3.4 s).
pub(crate) fn locate_error_in(
    path: &str,
    source: &[u8],
    lines: &crate::span::LineIndex,
    e: RawError,
) -> SyntaxError {
    let (line, column) = match e.offset {
        Some(o) => {
            let (l, c) = lines.line_col(source, o);
            (Some(l), Some(c))
        }
        None => (None, None),
    };
    SyntaxError {
        message: e.message,
        // No file: `puppet_style` then writes the message alone.
        file: if e.bare {
            String::new()
        } else {
            path.to_string()
        },
        line,
        column,
        logged: Vec::new(),
    }
}
