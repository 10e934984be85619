//! The syntax tree. Shapes follow Puppet's Pops model (`pops/model/ast.pp`) so the
//! evaluator can follow Puppet's evaluation rules node for node. Every node has a
//! byte [`Span`]; line and column come from the [`Program`]'s line index.

use serde::Serialize;

use super::span::{LineIndex, Span};

/// One parsed manifest.
#[derive(Debug, Serialize)]
pub struct Program {
    #[serde(skip)]
    pub path: std::sync::Arc<str>,
    #[serde(skip)]
    pub source: String,
    #[serde(skip)]
    pub lines: LineIndex,
    pub body: Vec<Expr>,
    /// Validation issues whose severity the `strict` setting decides (a
    /// hash key declared twice), for [`crate::strictness::Validation::report`].
    #[serde(skip)]
    pub strict_issues: Vec<crate::error::RawError>,
    /// Its definitions, found on first use (see [`Program::definitions`]).
    #[serde(skip)]
    pub(crate) definition_index: std::sync::OnceLock<Vec<DefinitionPath>>,
}

/// Where a definition sits in its [`Program`]: its index in the body, then
/// the position of each child expression down to it (as
/// [`crate::visit::for_each_child`] orders them). Only
/// [`Program::definitions`] makes one; [`Program::definition`] follows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DefinitionPath(pub(crate) Box<[u32]>);

impl Program {
    /// 1-based line of a span's start.
    pub fn line_of(&self, span: Span) -> u32 {
        self.lines.line(span.start as usize)
    }

    /// 1-based line and character column of a span's start.
    pub fn line_col(&self, span: Span) -> (u32, u32) {
        self.lines
            .line_col(self.source.as_bytes(), span.start as usize)
    }

    /// An error at a byte offset of this program, located by its line
    /// index (one pass over the file for all its errors).
    pub(crate) fn locate(&self, e: crate::error::RawError) -> crate::error::SyntaxError {
        crate::error::locate_error_in(&self.path, self.source.as_bytes(), &self.lines, e)
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Expr {
    #[serde(flatten)]
    pub kind: ExprKind,
    #[serde(skip)]
    pub span: Span,
}

impl Expr {
    pub fn new(kind: ExprKind, span: Span) -> Expr {
        Expr { kind, span }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Number {
    /// The value and the radix it was written in (8, 10 or 16).
    Integer(i64, u8),
    Float(f64),
    /// A literal too large for 64 bits; validation reports it.
    Overflow(String),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum UnaryOp {
    /// `-x`
    Neg,
    /// `!x`
    Not,
    /// `*x` (unfold)
    Splat,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Shl,
    Shr,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Match,
    NotMatch,
    In,
    And,
    Or,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum AssignOp {
    /// `=`
    Assign,
    /// `+=`
    Append,
    /// `-=`
    Delete,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum RelationOp {
    /// `->`
    Before,
    /// `~>`
    Notify,
    /// `<-`
    Require,
    /// `<~`
    Subscribe,
}

/// Regular, `@` virtual or `@@` exported.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum ResourceForm {
    Regular,
    Virtual,
    Exported,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum QueryKind {
    /// `<| |>`
    Virtual,
    /// `<<| |>>`
    Exported,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum StrPart {
    Text(String),
    /// An interpolated expression (`${...}` or `$name`).
    Expr(Expr),
}

/// A parameter's or attribute's name, shared by the tree and every
/// compile that binds it (no copy per binding).
pub type Name = std::sync::Arc<str>;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Parameter {
    pub name: Name,
    pub type_expr: Option<Expr>,
    pub default: Option<Expr>,
    /// `*$rest`
    pub captures_rest: bool,
    #[serde(skip)]
    pub span: Span,
    /// The type, once it is known to be the same for every node (see
    /// `eval::classes`'s `parameter_type`).
    #[serde(skip)]
    pub resolved_type: TypeMemo,
}

/// A value worked out from the tree once per run (the evaluator keeps a
/// parameter's type here). It is no part of what the tree says: clones start
/// empty and any two compare equal. The tree does not know the evaluator's
/// types, so the value is kept as `Any`; reading it back is one type-id
/// comparison.
pub struct TypeMemo(std::sync::OnceLock<std::sync::Arc<dyn std::any::Any + Send + Sync>>);

impl TypeMemo {
    /// The value kept, when one of type `T` was kept.
    pub fn get<T: std::any::Any + Send + Sync>(&self) -> Option<std::sync::Arc<T>> {
        self.0.get().and_then(|v| v.clone().downcast::<T>().ok())
    }

    /// Keeps `value` unless a value was kept already (the first one wins).
    pub fn set<T: std::any::Any + Send + Sync>(&self, value: std::sync::Arc<T>) {
        let _ = self.0.set(value);
    }
}

impl Default for TypeMemo {
    fn default() -> Self {
        TypeMemo(std::sync::OnceLock::new())
    }
}

impl Clone for TypeMemo {
    fn clone(&self) -> Self {
        TypeMemo::default()
    }
}

impl PartialEq for TypeMemo {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl std::fmt::Debug for TypeMemo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TypeMemo")
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Lambda {
    pub params: Vec<Parameter>,
    pub return_type: Option<Expr>,
    pub body: Vec<Expr>,
    #[serde(skip)]
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum AttributeOp {
    /// `name => value` (`append` for `+>`).
    Set {
        name: Name,
        append: bool,
        value: Expr,
        #[serde(skip)]
        span: Span,
    },
    /// `* => hash`
    Splat {
        value: Expr,
        #[serde(skip)]
        span: Span,
    },
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ResourceBody {
    pub title: Expr,
    pub ops: Vec<AttributeOp>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CaseOption {
    pub values: Vec<Expr>,
    pub body: Vec<Expr>,
    #[serde(skip)]
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SelectorEntry {
    pub matching: Expr,
    pub value: Expr,
    /// Puppet places an entry at its `=>`.
    #[serde(skip)]
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HashEntry {
    pub key: Expr,
    pub value: Expr,
    /// Puppet places an entry at its `=>`.
    #[serde(skip)]
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum ExprKind {
    // Literals.
    Nop,
    Undef,
    Default,
    Boolean(bool),
    Number(Number),
    /// A single-quoted string, a double-quoted one without interpolation, or a bare word.
    Str(std::sync::Arc<str>),
    /// A double-quoted string (or heredoc) with interpolation.
    Concat(Vec<StrPart>),
    Heredoc {
        syntax: String,
        text: Box<Expr>,
    },
    Regex(String),
    /// A bare lower-case name (`file`, `foo::bar`).
    QName(std::sync::Arc<str>),
    /// A capitalised type reference (`File`, `Foo::Bar`).
    QRef(String),
    /// A reserved word used as a value (`private`, `attr`).
    Reserved(String),
    Var(String),
    Array(Vec<Expr>),
    Hash {
        entries: Vec<HashEntry>,
        /// Written without braces as arguments (`f(a => 1)`).
        unfolded: bool,
    },

    // Operators.
    Unary {
        op: UnaryOp,
        expr: Box<Expr>,
    },
    Binary {
        op: BinaryOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    Assign {
        op: AssignOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    Relationship {
        op: RelationOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    Access {
        lhs: Box<Expr>,
        keys: Vec<Expr>,
    },
    Selector {
        lhs: Box<Expr>,
        entries: Vec<SelectorEntry>,
    },
    Paren(Box<Expr>),
    /// `lhs.name` before it becomes a method call.
    NamedAccess {
        lhs: Box<Expr>,
        name: String,
    },

    // Control flow.
    Block(Vec<Expr>),
    If {
        test: Box<Expr>,
        then: Vec<Expr>,
        /// An `else` block, or a nested `If` for `elsif`.
        otherwise: Option<Box<Expr>>,
    },
    Unless {
        test: Box<Expr>,
        then: Vec<Expr>,
        otherwise: Option<Box<Expr>>,
    },
    Case {
        test: Box<Expr>,
        options: Vec<CaseOption>,
    },

    // Calls.
    CallNamed {
        functor: Box<Expr>,
        args: Vec<Expr>,
        lambda: Option<Box<Lambda>>,
        /// Called with parentheses (an rvalue), or statement style.
        rval_required: bool,
    },
    CallMethod {
        receiver: Box<Expr>,
        name: String,
        args: Vec<Expr>,
        lambda: Option<Box<Lambda>>,
    },

    // Catalog expressions.
    Resource {
        form: ResourceForm,
        type_name: Box<Expr>,
        bodies: Vec<ResourceBody>,
    },
    ResourceDefaults {
        form: ResourceForm,
        type_ref: Box<Expr>,
        ops: Vec<AttributeOp>,
    },
    ResourceOverride {
        form: ResourceForm,
        resources: Box<Expr>,
        ops: Vec<AttributeOp>,
    },
    Collect {
        type_ref: Box<Expr>,
        query_kind: QueryKind,
        query: Option<Box<Expr>>,
        ops: Vec<AttributeOp>,
    },

    // Definitions.
    Class {
        name: String,
        params: Vec<Parameter>,
        parent: Option<String>,
        body: Vec<Expr>,
    },
    Define {
        name: String,
        params: Vec<Parameter>,
        body: Vec<Expr>,
    },
    Node {
        host_matches: Vec<Expr>,
        parent: Option<Box<Expr>>,
        body: Vec<Expr>,
    },
    Function {
        name: String,
        params: Vec<Parameter>,
        return_type: Option<Box<Expr>>,
        body: Vec<Expr>,
    },
    TypeAlias {
        name: Box<Expr>,
        type_expr: Box<Expr>,
    },
    TypeDefinition {
        name: String,
        parent: Option<String>,
        body: Vec<Expr>,
    },

    // EPP templates.
    /// A whole template: Puppet's `LambdaExpression` around an `EppExpression`.
    /// `params` is `None` when the template declares none (not even `||`).
    Epp {
        params: Option<Vec<Parameter>>,
        body: Vec<Expr>,
    },
    /// Template text.
    RenderString(String),
    /// `<%= expr %>`
    RenderExpr(Box<Expr>),
}
