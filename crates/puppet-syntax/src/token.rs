//! Tokens of the Puppet language, as Puppet 7's lexer (`lexer2.rb`) produces them.
//!
//! Context the grammar needs is decided here, by the lexer: `[` after whitespace is
//! `ListStart` (a new array), otherwise `LBrack` (access); `(` first on its line is
//! `WsLParen` (never a call); `{` after `?` is `SelBrace`; `/` is a regex only where
//! an operand may start. Interpolated strings are flattened into
//! `DqPre expr (DqMid expr)* DqPost`, exactly as Puppet does.

use super::span::Span;

#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    // Words and literals.
    Name(String),
    Word(String),
    ClassRef(String),
    /// A variable's name without `$` (may be empty for a lone `$`).
    Variable(String),
    /// The number's source text (hex and octal kept as written).
    Number(String),
    Str(String),
    DqPre(String),
    DqMid(String),
    DqPost(String),
    /// Regex source between the slashes, `\/` unescaped.
    Regex(String),
    /// `@(TAG:syntax/escapes)`; the heredoc's text follows as `Str` or `DqPre..DqPost`.
    Heredoc(String),
    Boolean(bool),

    // Keywords.
    Case,
    Class,
    Default,
    Define,
    If,
    Elsif,
    Else,
    Inherits,
    Node,
    And,
    Or,
    Undef,
    In,
    Unless,
    Function,
    Type,
    Attr,
    Private,

    // Punctuation.
    LBrack,
    ListStart,
    RBrack,
    LBrace,
    SelBrace,
    RBrace,
    LParen,
    WsLParen,
    RParen,
    Equals,
    Appends,
    Deletes,
    IsEqual,
    NotEqual,
    Not,
    Match,
    NoMatch,
    Less,
    LessEq,
    Greater,
    GreaterEq,
    Plus,
    Minus,
    Times,
    Div,
    Modulo,
    LShift,
    RShift,
    /// `->`
    InEdge,
    /// `~>`
    InEdgeSub,
    /// `<-`
    OutEdge,
    /// `<~`
    OutEdgeSub,
    FArrow,
    PArrow,
    Comma,
    Semic,
    Colon,
    Dot,
    QMark,
    Pipe,
    At,
    AtAt,
    LCollect,
    RCollect,
    LLCollect,
    RRCollect,
    Tilde,
    /// A character no token starts with. Puppet reports it as `''`.
    Other,

    // EPP.
    EppStart,
    RenderString(String),
    RenderExpr,
    EppEnd,
    EppEndTrim,
}

impl Tok {
    /// The keyword for a lower-case word, as Puppet's KEYWORDS table has it.
    pub fn keyword(word: &str) -> Option<Tok> {
        Some(match word {
            "case" => Tok::Case,
            "class" => Tok::Class,
            "default" => Tok::Default,
            "define" => Tok::Define,
            "if" => Tok::If,
            "elsif" => Tok::Elsif,
            "else" => Tok::Else,
            "inherits" => Tok::Inherits,
            "node" => Tok::Node,
            "and" => Tok::And,
            "or" => Tok::Or,
            "undef" => Tok::Undef,
            "false" => Tok::Boolean(false),
            "true" => Tok::Boolean(true),
            "in" => Tok::In,
            "unless" => Tok::Unless,
            "function" => Tok::Function,
            "type" => Tok::Type,
            "attr" => Tok::Attr,
            "private" => Tok::Private,
            _ => return None,
        })
    }

    /// The keyword's text, for keywords usable as attribute names.
    pub fn keyword_text(&self) -> Option<&'static str> {
        Some(match self {
            Tok::Case => "case",
            Tok::Class => "class",
            Tok::Default => "default",
            Tok::Define => "define",
            Tok::If => "if",
            Tok::Elsif => "elsif",
            Tok::Else => "else",
            Tok::Inherits => "inherits",
            Tok::Node => "node",
            Tok::And => "and",
            Tok::Or => "or",
            Tok::Undef => "undef",
            Tok::In => "in",
            Tok::Unless => "unless",
            Tok::Function => "function",
            Tok::Type => "type",
            Tok::Attr => "attr",
            Tok::Private => "private",
            _ => return None,
        })
    }

    /// The token's value as Puppet shows it in `Syntax error at '...'`.
    pub fn display_value(&self) -> String {
        let s: &str = match self {
            // A variable named by a Boolean shows the Boolean.
            Tok::Variable(s) if variable_boolean(s).is_some() => &s[1..],
            Tok::Name(s)
            | Tok::Word(s)
            | Tok::ClassRef(s)
            | Tok::Variable(s)
            | Tok::Number(s)
            | Tok::Str(s)
            | Tok::DqPre(s)
            | Tok::DqMid(s)
            | Tok::DqPost(s)
            | Tok::Heredoc(s)
            | Tok::RenderString(s) => s,
            // Ruby shows a Regexp as `(?-mix:source)`.
            Tok::Regex(s) => return format!("(?-mix:{s})"),
            Tok::Boolean(b) => return b.to_string(),
            Tok::LBrack | Tok::ListStart => "[",
            Tok::RBrack => "]",
            Tok::LBrace | Tok::SelBrace => "{",
            Tok::RBrace => "}",
            Tok::LParen | Tok::WsLParen => "(",
            Tok::RParen => ")",
            Tok::Equals => "=",
            Tok::Appends => "+=",
            Tok::Deletes => "-=",
            Tok::IsEqual => "==",
            Tok::NotEqual => "!=",
            Tok::Not => "!",
            Tok::Match => "=~",
            Tok::NoMatch => "!~",
            Tok::Less => "<",
            Tok::LessEq => "<=",
            Tok::Greater => ">",
            Tok::GreaterEq => ">=",
            Tok::Plus => "+",
            Tok::Minus => "-",
            Tok::Times => "*",
            Tok::Div => "/",
            Tok::Modulo => "%",
            Tok::LShift => "<<",
            Tok::RShift => ">>",
            Tok::InEdge => "->",
            Tok::InEdgeSub => "~>",
            Tok::OutEdge => "<-",
            Tok::OutEdgeSub => "<~",
            Tok::FArrow => "=>",
            Tok::PArrow => "+>",
            Tok::Comma => ",",
            Tok::Semic => ";",
            Tok::Colon => ":",
            Tok::Dot => ".",
            Tok::QMark => "?",
            Tok::Pipe => "|",
            Tok::At => "@",
            Tok::AtAt => "@@",
            Tok::LCollect => "<|",
            Tok::RCollect => "|>",
            Tok::LLCollect => "<<|",
            Tok::RRCollect => "|>>",
            Tok::Tilde => "~",
            Tok::Other => "",
            Tok::EppStart => "",
            Tok::RenderExpr => "<%=",
            Tok::EppEnd => "%>",
            Tok::EppEndTrim => "-%>",
            other => other.keyword_text().unwrap_or(""),
        };
        s.to_string()
    }

    /// Does a `/` after this token start a regex (true) or divide (false)?
    /// Puppet's `regexp_acceptable?`.
    pub fn regex_may_follow(prev: Option<&Tok>) -> bool {
        !matches!(
            prev,
            Some(
                Tok::RParen
                    | Tok::RBrack
                    | Tok::RRCollect
                    | Tok::RCollect
                    | Tok::Name(_)
                    | Tok::ClassRef(_)
                    | Tok::Number(_)
                    | Tok::Str(_)
                    | Tok::Boolean(_)
                    | Tok::DqPre(_)
                    | Tok::DqMid(_)
                    | Tok::DqPost(_)
                    | Tok::Heredoc(_)
                    | Tok::Regex(_)
                    | Tok::Variable(_)
                    | Tok::Word(_)
            )
        )
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    pub tok: Tok,
    pub span: Span,
}

/// The variable Puppet's lexer makes of `true` or `false` alone (or before
/// `.` or `[`) in `${...}`: its name is the Boolean itself, which no
/// `$name` can spell (a `#` is no name character). Puppet's checker then
/// crashes on it ([`crate::error::boolean_name_crash`]).
pub fn boolean_variable(b: bool) -> String {
    format!("#{b}")
}

/// The Boolean a [`boolean_variable`] name stands for.
pub fn variable_boolean(name: &str) -> Option<bool> {
    match name {
        "#true" => Some(true),
        "#false" => Some(false),
        _ => None,
    }
}
