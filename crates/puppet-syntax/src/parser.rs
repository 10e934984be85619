//! The parser: chumsky over the lexer's tokens, mirroring Puppet 7's LALR grammar
//! (`pops/parser/egrammar.ra`) rule for rule, with a Pratt layer for the operators
//! of `expression` and their precedence table.
//!
//! Layers, loosest first: statements (with Puppet's transform of `name arg, arg`
//! into calls) > assignment (right-assoc) > relationship (`->` etc., left-assoc)
//! > resource (`@`, `@@`, bodies in braces) > expression (Pratt) > primary.

use chumsky::input::{Input as _, MappedInput};
use chumsky::label::LabelError;
use chumsky::pratt::{infix, left, postfix, prefix};
use chumsky::prelude::*;
use chumsky::util::MaybeRef;

use super::ast::*;
use super::error::{RawError, SyntaxError};
use super::lexer;
use super::parse_budget;
use super::span::{LineIndex, Span};
use super::token::{Tok, Token};
use super::validate;

type In<'s> = MappedInput<'s, Tok, Span, &'s [(Tok, Span)]>;
type Ex<'s> = extra::Err<PErr>;
/// A recursive rule, as `recursive` hands it to its own definition.
type Rec<'s, O> = Recursive<chumsky::recursive::Direct<'s, 's, In<'s>, O, Ex<'s>>>;

/// The parser's error: where, whether at end of input, and the message of a
/// semantic error. Deliberately small: chumsky builds one for every alternative
/// that fails, and Puppet's messages name only the offending token, never the
/// expected ones.
#[derive(Clone, Debug)]
pub struct PErr {
    span: Span,
    at_end: bool,
    custom: Option<Box<str>>,
}

impl PErr {
    fn custom(span: Span, msg: impl Into<String>) -> PErr {
        PErr {
            span,
            at_end: false,
            custom: Some(msg.into().into_boxed_str()),
        }
    }
}

impl<'s> chumsky::error::Error<'s, In<'s>> for PErr {
    fn merge(self, other: PErr) -> PErr {
        // A semantic error raised while reducing wins over "cannot shift".
        if self.custom.is_some() {
            self
        } else {
            other
        }
    }
}

impl<'s, L> LabelError<'s, In<'s>, L> for PErr {
    fn expected_found<E: IntoIterator<Item = L>>(
        _expected: E,
        found: Option<MaybeRef<'s, Tok>>,
        span: Span,
    ) -> PErr {
        PErr {
            span,
            at_end: found.is_none(),
            custom: None,
        }
    }
}

/// Deeper bracket nesting than this is refused rather than risking the stack.
pub const MAX_NESTING: usize = 1000;

/// Lexes, parses and validates one manifest.
pub fn parse_program(
    path: &str,
    source: &[u8],
    namespace: &super::location::FileNamespace,
) -> Result<Program, SyntaxError> {
    parse_source(path, source, namespace, false)
}

/// Lexes, parses and validates an EPP template. The program's body is one
/// `ExprKind::Epp`, as Puppet's is one lambda around an `EppExpression`.
pub fn parse_epp(path: &str, source: &[u8]) -> Result<Program, SyntaxError> {
    parse_source(
        path,
        source,
        &super::location::FileNamespace::Unrestricted,
        true,
    )
}

fn parse_source(
    path: &str,
    source: &[u8],
    namespace: &super::location::FileNamespace,
    epp: bool,
) -> Result<Program, SyntaxError> {
    let locate = |e: RawError| -> SyntaxError { locate_error(path, source, e) };
    let text = std::str::from_utf8(source).map_err(|e| {
        locate(RawError::at(
            e.valid_up_to(),
            super::error::INVALID_BYTE_SEQUENCE,
        ))
    })?;
    let tokens = lexer::lex_up_to_error(text, epp).map_err(|(lexing, before)| {
        // The parser reads the tokens before the lexing error first: an
        // error it finds among them (not one at their end, where it asks for
        // more) is Puppet's.
        match parse_tokens(before, text.len(), epp) {
            Err(syntax) if syntax.offset.is_some() => locate(syntax),
            _ => locate(lexing),
        }
    })?;
    check_nesting(&tokens).map_err(locate)?;
    let body = parse_tokens(tokens, text.len(), epp).map_err(locate)?;
    let mut body = check_tree_depth(body).map_err(locate)?;
    qualify_nested(&mut body, &mut Vec::new());
    let mut program = Program {
        path: path.into(),
        source: text.to_string(),
        lines: LineIndex::new(source),
        body,
        strict_issues: Vec::new(),
        definition_index: Default::default(),
    };
    let (mut errors, strict_issues) = validate::check_all(&program, namespace);
    program.strict_issues = strict_issues;
    match errors.len() {
        0 => Ok(program),
        1 => Err(program.locate(errors.remove(0))),
        n => Err(SyntaxError {
            // Puppet's IssueReporter: each error logged, then their count.
            message: format!("Language validation logged {n} errors. Giving up"),
            file: path.to_string(),
            line: None,
            column: None,
            logged: errors.into_iter().map(|e| program.locate(e)).collect(),
        }),
    }
}

pub use crate::error::locate_error;

/// Refuses input whose nesting no real manifest has, before it can exhaust the
/// stack: brackets nested deeper than [`MAX_NESTING`], or as many prefix
/// operators (`- - - x`, `@ @`) in a row.
fn check_nesting(tokens: &[Token]) -> Result<(), RawError> {
    let too_deep = |t: &Token| {
        RawError::at(
            t.span.start as usize,
            format!("Expression nesting is deeper than {MAX_NESTING} levels"),
        )
    };
    let mut depth = 0usize;
    let mut prefix_run = 0usize;
    for t in tokens {
        match t.tok {
            Tok::Minus | Tok::Not | Tok::Times | Tok::At | Tok::AtAt => {
                prefix_run += 1;
                if prefix_run > MAX_NESTING {
                    return Err(too_deep(t));
                }
                continue;
            }
            Tok::LBrack
            | Tok::ListStart
            | Tok::LBrace
            | Tok::SelBrace
            | Tok::LParen
            | Tok::WsLParen
            | Tok::DqPre(_)
            | Tok::LCollect
            | Tok::LLCollect => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(too_deep(t));
                }
            }
            Tok::RBrack
            | Tok::RBrace
            | Tok::RParen
            | Tok::DqPost(_)
            | Tok::RCollect
            | Tok::RRCollect => depth = depth.saturating_sub(1),
            _ => {}
        }
        prefix_run = 0;
    }
    Ok(())
}

/// The deepest tree every later pass (validation, evaluation) may recurse over.
pub const MAX_TREE_DEPTH: usize = 2000;

/// Long operator chains (`1 + 1 + ... + 1`) nest without brackets; such trees are
/// refused here, measured without recursion. A refused tree is dropped on a
/// thread with a large stack, since dropping it recurses too.
fn check_tree_depth(body: Vec<Expr>) -> Result<Vec<Expr>, RawError> {
    let mut stack: Vec<(&Expr, usize)> = body.iter().map(|e| (e, 1)).collect();
    let mut deepest: Option<Span> = None;
    while let Some((e, d)) = stack.pop() {
        if d > MAX_TREE_DEPTH {
            deepest = Some(e.span);
            break;
        }
        super::visit::for_each_child(e, &mut |c| stack.push((c, d + 1)));
    }
    drop(stack);
    match deepest {
        None => Ok(body),
        Some(span) => {
            let dropper = std::thread::Builder::new()
                .stack_size(1 << 30)
                .spawn(move || drop(body));
            if let Ok(handle) = dropper {
                let _ = handle.join();
            }
            Err(RawError::at(
                span.start as usize,
                format!("Expression nesting is deeper than {MAX_TREE_DEPTH} levels"),
            ))
        }
    }
}

fn parse_tokens(tokens: Vec<Token>, len: usize, epp: bool) -> Result<Vec<Expr>, RawError> {
    let budget = parse_budget::Budget::for_tokens(tokens.len());
    parse_tokens_within(tokens, len, epp, &budget)
}

fn parse_tokens_within(
    tokens: Vec<Token>,
    len: usize,
    epp: bool,
    budget: &parse_budget::Budget,
) -> Result<Vec<Expr>, RawError> {
    let pairs: Vec<(Tok, Span)> = tokens.into_iter().map(|t| (t.tok, t.span)).collect();
    let eoi = Span::new(len, len);
    let input = pairs.as_slice().split_token_span(eoi);
    let parser = program(epp);
    let parsed = parser.parse(input).into_result();
    // Once the budget has run out, operands failed that would have parsed:
    // whatever the parse returned is not the file's.
    if let Some(at) = budget.ran_out_at() {
        return Err(RawError::at(at as usize, parse_budget::EXHAUSTED));
    }
    match parsed {
        Ok(body) => Ok(body),
        Err(errors) => Err(to_raw_error(errors, &pairs, len)),
    }
}

/// Puppet reports the first token it cannot shift: `Syntax error at 'x'`, or
/// `Syntax error at end of input` without a position. Semantic errors raised
/// while reducing keep their own text and position.
fn to_raw_error(errors: Vec<PErr>, tokens: &[(Tok, Span)], len: usize) -> RawError {
    let Some(e) = errors.into_iter().next() else {
        return RawError::at(0, "Syntax error");
    };
    let start = e.span.start as usize;
    if let Some(msg) = e.custom {
        return RawError::at(start, msg.into_string());
    }
    if e.at_end || start >= len {
        return RawError {
            message: "Syntax error at end of input".into(),
            offset: None,
            bare: false,
        };
    }
    // Not a binary search: a heredoc's tokens come after the rest of its line.
    let found = tokens
        .iter()
        .find(|(_, s)| s.start == e.span.start)
        .map(|(t, _)| t.display_value())
        .unwrap_or_default();
    RawError::at(start, format!("Syntax error at '{found}'"))
}

// ---------------------------------------------------------------------------
// Building blocks.

fn t<'s>(k: Tok) -> impl Parser<'s, In<'s>, Tok, Ex<'s>> + Clone {
    just(k)
}

/// An operand (`parse_budget`): fails at once where it failed before, spends
/// one unit of the parse's work budget, and remembers where it fails.
///
/// The repeated failure is an error at the operand's first token, as a
/// mismatch there is: errors are reported by where they are and whether they
/// carry a message, so the first attempt's errors, further on or with a
/// message, still win.
fn operand<'s, P>(inner: P) -> impl Parser<'s, In<'s>, Expr, Ex<'s>> + Clone
where
    P: Parser<'s, In<'s>, Expr, Ex<'s>> + Clone,
{
    empty()
        .try_map(|(), span: Span| {
            // `empty()`'s span starts at the next token (or the end of input).
            if parse_budget::failed_before(span.start) {
                Err(PErr {
                    span,
                    at_end: false,
                    custom: None,
                })
            } else if parse_budget::spend(span.start) {
                Ok(())
            } else {
                Err(PErr::custom(span, parse_budget::EXHAUSTED))
            }
        })
        .ignore_then(inner)
        .map_err_with_state(|e: PErr, span: Span, _: &mut _| {
            parse_budget::record_failure(span.start);
            e
        })
}

fn ex(kind: ExprKind, span: Span) -> Expr {
    Expr::new(kind, span)
}

fn bx(e: Expr) -> Box<Expr> {
    Box::new(e)
}

/// Names accepted as attribute names: NAME and every keyword.
fn attribute_name<'s>() -> impl Parser<'s, In<'s>, String, Ex<'s>> + Clone {
    select_ref! {
        Tok::Name(n) => n.clone(),
        k if k.keyword_text().is_some() => k.keyword_text().unwrap_or_default().to_string(),
    }
}

/// `classname`: NAME, WORD or CLASSREF; `class` and quoted strings are errors.
fn classname<'s>() -> impl Parser<'s, In<'s>, String, Ex<'s>> + Clone {
    let ok = select_ref! {
        Tok::Name(n) => n.clone(),
        Tok::Word(n) => n.clone(),
        Tok::ClassRef(n) => n.clone(),
    };
    let class_kw = t(Tok::Class).try_map(|_, span: Span| {
        Err::<String, PErr>(PErr::custom(
            span,
            "'class' keyword not allowed at this location",
        ))
    });
    let quoted = select_ref! { Tok::Str(_) => () }.try_map(|_, span: Span| {
        Err::<String, PErr>(PErr::custom(
            span,
            "A quoted string is not valid as a name here",
        ))
    });
    choice((ok, class_kw, quoted))
}

fn parse_number(text: &str) -> Number {
    let lower = text.to_ascii_lowercase();
    if let Some(hex) = lower.strip_prefix("0x") {
        return i64::from_str_radix(hex, 16)
            .map(|v| Number::Integer(v, 16))
            .unwrap_or_else(|_| Number::Overflow(text.to_string()));
    }
    if lower.contains(['.', 'e']) {
        return text
            .parse::<f64>()
            .map(Number::Float)
            .unwrap_or_else(|_| Number::Overflow(text.to_string()));
    }
    if lower.len() > 1 && lower.starts_with('0') {
        return i64::from_str_radix(&lower[1..], 8)
            .map(|v| Number::Integer(v, 8))
            .unwrap_or_else(|_| Number::Overflow(text.to_string()));
    }
    text.parse::<i64>()
        .map(|v| Number::Integer(v, 10))
        .unwrap_or_else(|_| Number::Overflow(text.to_string()))
}

/// Statement-style calls: these names followed by arguments become calls.
pub const STATEMENT_CALLS: &[&str] = &[
    "require", "realize", "include", "contain", "tag", "debug", "info", "notice", "warning", "err",
    "fail", "import", "break", "next", "return",
];

/// One `syntactic_statement`: an expression, or a comma-separated list.
#[derive(Clone, Debug)]
enum Item {
    Single(Expr),
    List { exprs: Vec<Expr>, first_comma: Span },
}

/// Tokens that can neither continue an expression nor start a statement:
/// before them Puppet's parser reduces the statements it has (checked with
/// Puppet 7.23 and 8.10, `tests/fixtures/syntax-errors/comma-list-*`).
/// Known difference: after a call (`$x.each |`) Puppet shifts a `|` as the
/// start of a lambda; `|` is counted here wherever it comes.
fn ends_statements(t: &Tok) -> bool {
    matches!(
        t,
        Tok::RParen
            | Tok::RBrack
            | Tok::RBrace
            | Tok::FArrow
            | Tok::PArrow
            | Tok::Colon
            | Tok::Pipe
            | Tok::Else
            | Tok::Elsif
            | Tok::Inherits
            | Tok::RCollect
            | Tok::RRCollect
            | Tok::Tilde
            | Tok::Other
            | Tok::EppEnd
            | Tok::EppEndTrim
    )
}

/// Puppet's `transform_calls`: `include a, b` is `include(a, b)`.
fn transform_calls(items: Vec<Item>) -> Result<Vec<Expr>, PErr> {
    let mut memo: Vec<Expr> = Vec::with_capacity(items.len());
    for item in items {
        let statement_name = matches!(
            memo.last(),
            Some(Expr { kind: ExprKind::QName(n), .. }) if STATEMENT_CALLS.contains(&&**n)
        );
        if statement_name {
            let Some(name) = memo.pop() else { continue };
            let mut args = match item {
                Item::Single(e) => vec![e],
                Item::List { exprs, .. } => exprs,
            };
            if args.len() == 1 {
                if let ExprKind::CallNamed { rval_required, .. } = &mut args[0].kind {
                    *rval_required = true;
                }
            }
            let end = args.last().map(|a| a.span).unwrap_or(name.span);
            let span = name.span.to(end);
            memo.push(ex(
                ExprKind::CallNamed {
                    functor: bx(name),
                    args,
                    lambda: None,
                    rval_required: false,
                },
                span,
            ));
            continue;
        }
        match item {
            Item::List { first_comma, .. } => {
                let msg = match memo.last() {
                    Some(Expr {
                        kind: ExprKind::QName(n),
                        ..
                    }) => format!(
                        "attempt to pass argument list to the function '{n}' which cannot be called without parentheses"
                    ),
                    _ => "illegal comma separated argument list".to_string(),
                };
                return Err(PErr::custom(first_comma, msg));
            }
            Item::Single(mut e) => {
                if let ExprKind::CallNamed { rval_required, .. } = &mut e.kind {
                    *rval_required = false;
                }
                memo.push(e);
            }
        }
    }
    Ok(memo)
}

/// Puppet's ARGUMENTS: adjacent unbraced hash pairs (`f(a => 1, b => 2)`) are one hash.
fn merge_unfolded(args: Vec<Expr>) -> Vec<Expr> {
    let mut out: Vec<Expr> = Vec::with_capacity(args.len());
    for a in args {
        if let ExprKind::Hash {
            entries,
            unfolded: true,
        } = &a.kind
        {
            if let Some(Expr {
                kind:
                    ExprKind::Hash {
                        entries: last,
                        unfolded: true,
                    },
                span,
            }) = out.last_mut()
            {
                last.extend(entries.iter().cloned());
                *span = span.to(a.span);
                continue;
            }
        }
        out.push(a);
    }
    out
}

/// Puppet's `interpolate`: inside `${}`, a bare name (also before `[` or `.`) is a
/// variable.
fn interpolate(e: Expr) -> Expr {
    let span = e.span;
    match e.kind {
        ExprKind::QName(n) => ex(ExprKind::Var(n.to_string()), span),
        ExprKind::Number(Number::Integer(v, _)) => ex(ExprKind::Var(v.to_string()), span),
        ExprKind::Access { lhs, keys } => ex(
            ExprKind::Access {
                lhs: bx(interpolate_rewriteable(*lhs)),
                keys,
            },
            span,
        ),
        ExprKind::NamedAccess { lhs, name } => ex(
            ExprKind::NamedAccess {
                lhs: bx(interpolate_rewriteable(*lhs)),
                name,
            },
            span,
        ),
        ExprKind::CallMethod {
            receiver,
            name,
            args,
            lambda,
        } => ex(
            ExprKind::CallMethod {
                receiver: bx(interpolate_rewriteable(*receiver)),
                name,
                args,
                lambda,
            },
            span,
        ),
        kind => ex(kind, span),
    }
}

fn interpolate_rewriteable(e: Expr) -> Expr {
    match e.kind {
        ExprKind::Access { .. }
        | ExprKind::QName(_)
        | ExprKind::NamedAccess { .. }
        | ExprKind::CallMethod { .. } => interpolate(e),
        _ => e,
    }
}

/// Which untitled `X { ... }` this is (Puppet's `resource_shape`).
fn untitled_resource(
    left: Expr,
    ops: Vec<AttributeOp>,
    lbrace: Span,
    span: Span,
) -> Result<Expr, PErr> {
    match &left.kind {
        ExprKind::QName(_) => {
            // Old syntax: `name { a => 1 }` is the name followed by a hash.
            let mut entries = Vec::with_capacity(ops.len());
            for op in ops {
                match op {
                    AttributeOp::Set {
                        name,
                        append: false,
                        value,
                        span,
                    } => entries.push(HashEntry {
                        key: ex(ExprKind::Str(name), span),
                        value,
                        span,
                    }),
                    _ => {
                        return Err(PErr::custom(
                            lbrace,
                            "Syntax error resource body without title or hash with +>",
                        ))
                    }
                }
            }
            let hash = ex(
                ExprKind::Hash {
                    entries,
                    unfolded: false,
                },
                Span {
                    start: lbrace.start,
                    end: span.end,
                },
            );
            let mut exprs = transform_calls(vec![Item::Single(left), Item::Single(hash)])?;
            Ok(if exprs.len() == 1 {
                exprs.remove(0)
            } else {
                ex(ExprKind::Block(exprs), span)
            })
        }
        ExprKind::QRef(_) => Ok(ex(
            ExprKind::ResourceDefaults {
                form: ResourceForm::Regular,
                type_ref: bx(left),
                ops,
            },
            span,
        )),
        ExprKind::Access { lhs, keys } => {
            let is_resource_type = matches!(&lhs.kind, ExprKind::QRef(r) if r.eq_ignore_ascii_case("resource"))
                && keys.len() == 1;
            Ok(if is_resource_type {
                ex(
                    ExprKind::ResourceDefaults {
                        form: ResourceForm::Regular,
                        type_ref: bx(left),
                        ops,
                    },
                    span,
                )
            } else {
                ex(
                    ExprKind::ResourceOverride {
                        form: ResourceForm::Regular,
                        resources: bx(left),
                        ops,
                    },
                    span,
                )
            })
        }
        _ => Err(PErr::custom(
            left.span,
            "Expression is not valid as a resource, resource-default, or resource-override",
        )),
    }
}

/// `type A = B` followed by `[keys]` is `type A = B[keys]`: the alias's
/// right-hand side takes the access, as Puppet's `type_alias_rhs` does. Only an
/// alias whose right-hand side is a bare type reference can be followed by an
/// access here (with `B[keys]` complete, the access applies to the alias); other
/// expressions take the access as any other (see [`takes_alias_access`]).
fn alias_access(mut lhs: Expr, keys: Vec<Expr>, end: u32) -> Expr {
    let ExprKind::TypeAlias { type_expr, .. } = &mut lhs.kind else {
        unreachable!("alias_access of an expression that takes_alias_access refused");
    };
    let at = type_expr.span;
    let ty = std::mem::replace(&mut **type_expr, ex(ExprKind::Undef, at));
    let access_span = Span {
        start: ty.span.start,
        end,
    };
    **type_expr = ex(ExprKind::Access { lhs: bx(ty), keys }, access_span);
    lhs.span.end = end;
    lhs
}

/// Whether an access after `lhs` is the right-hand side's ([`alias_access`]).
fn takes_alias_access(lhs: &Expr) -> bool {
    matches!(&lhs.kind, ExprKind::TypeAlias { type_expr, .. } if matches!(type_expr.kind, ExprKind::QRef(_)))
}

/// `@` and `@@` apply to resource expressions only.
fn set_form(mut e: Expr, form: ResourceForm, at: Span) -> Result<Expr, PErr> {
    let ok = match &mut e.kind {
        ExprKind::Resource { form: f, .. }
        | ExprKind::ResourceDefaults { form: f, .. }
        | ExprKind::ResourceOverride { form: f, .. } => {
            *f = form;
            true
        }
        _ => false,
    };
    if !ok {
        let msg = if form == ResourceForm::Virtual {
            "Virtual (@) can only be applied to a Resource Expression"
        } else {
            "Exported (@@) can only be applied to a Resource Expression"
        };
        return Err(PErr::custom(at, msg));
    }
    e.span = at.to(e.span);
    Ok(e)
}

// ---------------------------------------------------------------------------
// The grammar.

/// What follows a method's name.
enum MethodArgs {
    Parens(Span, Vec<Expr>, Option<Lambda>),
    Bare(Option<Lambda>),
    ThenCall(Vec<Expr>, Option<Lambda>),
}

enum Postfix {
    Call(Vec<Expr>, Option<Lambda>),
    Method(Span, String, Vec<Expr>, Option<Lambda>),
    /// `.name(args,)`: the method without arguments (at the dot, ending at the
    /// name), then called by the parenthesized arguments.
    MethodThenCall(Span, String, Span, Vec<Expr>, Option<Lambda>),
    Access(Vec<Expr>),
    Selector(Vec<SelectorEntry>),
    Collect(QueryKind, Option<Expr>, Vec<AttributeOp>),
}

fn program<'s>(epp: bool) -> impl Parser<'s, In<'s>, Vec<Expr>, Ex<'s>> {
    // The grammar's three recursive rules, built without `Rc` cycles (which
    // leaked every parser): `expr` is the one `recursive`, and refers to itself
    // weakly; `assignment` and `statements` are built inside it, so they hold
    // `expr` weakly too, and are handed out for the top level through
    // `exported`. The top level keeps `expr` alive.
    let mut exported = None;
    let expr = recursive(|expr| {
        let comma_opt = t(Tok::Comma).or_not();

        // Attribute operations of resource bodies, defaults, overrides, collectors.
        let attribute_op = choice((
            attribute_name()
                .then(choice((t(Tok::FArrow).to(false), t(Tok::PArrow).to(true))))
                .then(expr.clone())
                .map_with(|((name, append), value), e| AttributeOp::Set {
                    name: name.into(),
                    append,
                    value,
                    span: e.span(),
                }),
            t(Tok::Times)
                .ignore_then(t(Tok::FArrow))
                .ignore_then(expr.clone())
                .map_with(|value, e| AttributeOp::Splat {
                    value,
                    span: e.span(),
                }),
        ))
        .boxed();
        let attribute_ops = attribute_op
            .clone()
            .separated_by(t(Tok::Comma))
            .collect::<Vec<_>>()
            .boxed();

        // Resource level: `@`/`@@`, `class { ... }`, and `X { ... }` bodies.
        let resource_body = expr
            .clone()
            .then_ignore(t(Tok::Colon))
            .then(attribute_ops.clone())
            .then_ignore(comma_opt.clone())
            .map(|(title, ops)| ResourceBody { title, ops })
            .boxed();
        let resource_bodies = resource_body
            .clone()
            .separated_by(t(Tok::Semic))
            .at_least(1)
            .collect::<Vec<_>>()
            .then_ignore(t(Tok::Semic).or_not())
            .boxed();
        enum Tail {
            Titled(Vec<ResourceBody>),
            Untitled(Vec<AttributeOp>, Span),
        }
        let resource_tail = choice((
            t(Tok::LBrace)
                .map_with(|_, e| -> Span { e.span() })
                .then(attribute_ops.clone())
                .then_ignore(comma_opt.clone())
                .then_ignore(t(Tok::RBrace))
                .map(|(lbrace, ops)| Tail::Untitled(ops, lbrace)),
            t(Tok::LBrace)
                .ignore_then(resource_bodies.clone())
                .then_ignore(t(Tok::RBrace))
                .map(Tail::Titled),
        ))
        .boxed();
        let resource = recursive(|resource| {
            let class_resource = t(Tok::Class)
                .map_with(|_, e| ex(ExprKind::QName("class".into()), e.span()))
                .then_ignore(t(Tok::LBrace))
                .then(resource_bodies.clone())
                .then_ignore(t(Tok::RBrace))
                .map_with(|(type_name, bodies), e| {
                    ex(
                        ExprKind::Resource {
                            form: ResourceForm::Regular,
                            type_name: bx(type_name),
                            bodies,
                        },
                        e.span(),
                    )
                });
            let plain = expr.clone().then(resource_tail.clone().or_not()).try_map(
                |(left, tail), span: Span| match tail {
                    None => Ok(left),
                    Some(Tail::Titled(bodies)) => Ok(ex(
                        ExprKind::Resource {
                            form: ResourceForm::Regular,
                            type_name: bx(left),
                            bodies,
                        },
                        span,
                    )),
                    Some(Tail::Untitled(ops, lbrace)) => untitled_resource(left, ops, lbrace, span),
                },
            );
            choice((
                t(Tok::At)
                    .map_with(|_, e| -> Span { e.span() })
                    .then(resource.clone())
                    .try_map(|(at, e), _| set_form(e, ResourceForm::Virtual, at)),
                t(Tok::AtAt)
                    .map_with(|_, e| -> Span { e.span() })
                    .then(resource.clone())
                    .try_map(|(at, e), _| set_form(e, ResourceForm::Exported, at)),
                class_resource,
                plain,
            ))
        })
        .boxed();

        let edge = select_ref! {
            Tok::InEdge => RelationOp::Before,
            Tok::InEdgeSub => RelationOp::Notify,
            Tok::OutEdge => RelationOp::Require,
            Tok::OutEdgeSub => RelationOp::Subscribe,
        };
        let relationship = resource
            .clone()
            .foldl(
                edge.map_with(|k, e| (k, e.span()))
                    .then(resource.clone())
                    .repeated(),
                |lhs, ((op, at), rhs): ((RelationOp, Span), Expr)| {
                    let end = rhs.span.end;
                    ex(
                        ExprKind::Relationship {
                            op,
                            lhs: bx(lhs),
                            rhs: bx(rhs),
                        },
                        Span {
                            start: at.start,
                            end,
                        },
                    )
                },
            )
            .boxed();
        let assign_op = select_ref! {
            Tok::Equals => AssignOp::Assign,
            Tok::Appends => AssignOp::Append,
            Tok::Deletes => AssignOp::Delete,
        };
        let assignment = recursive(|assignment: Rec<'s, Expr>| {
            relationship
                .then(
                    assign_op
                        .map_with(|k, e| (k, e.span()))
                        .then(assignment.clone())
                        .or_not(),
                )
                .map(|(lhs, rhs)| match rhs {
                    None => lhs,
                    Some(((op, at), rhs)) => {
                        let end = rhs.span.end;
                        ex(
                            ExprKind::Assign {
                                op,
                                lhs: bx(lhs),
                                rhs: bx(rhs),
                            },
                            Span {
                                start: at.start,
                                end,
                            },
                        )
                    }
                })
        })
        .boxed();

        let item = assignment
            .clone()
            .then(
                t(Tok::Comma)
                    .map_with(|_, e| -> Span { e.span() })
                    .then(assignment.clone())
                    .repeated()
                    .collect::<Vec<_>>(),
            )
            .map(|(first, rest)| {
                if rest.is_empty() {
                    Item::Single(first)
                } else {
                    let first_comma = rest[0].0;
                    let mut exprs = Vec::with_capacity(rest.len() + 1);
                    exprs.push(first);
                    exprs.extend(rest.into_iter().map(|(_, e)| e));
                    Item::List { exprs, first_comma }
                }
            })
            .boxed();
        // After an expression, Puppet's LALR parser always shifts `[`, `(` and `{` as
        // access, call or resource body, and `-` and `*` as the binary operators;
        // only after `;` may a statement start with one. Trying the token again as
        // the start of a new statement also re-parsed everything after it each time
        // the operator's right side failed: exponential in nested failing bodies
        // (`$a ** class b { $c ** class d { ...` unclosed took seconds).
        let opens_after_expression = any()
            .filter(|t: &Tok| {
                matches!(
                    t,
                    Tok::LBrack | Tok::LParen | Tok::LBrace | Tok::Minus | Tok::Times
                )
            })
            .rewind();
        let statements = item
            .clone()
            .then(
                choice((
                    t(Tok::Semic).ignore_then(item.clone()),
                    opens_after_expression.not().ignore_then(item),
                ))
                .repeated()
                .collect::<Vec<_>>(),
            )
            // Puppet transforms the statements when it reduces them: its LALR
            // parser shifts a token that continues the last expression or
            // starts another statement, and reports the first token it cannot
            // shift (a syntax error, never the transform's); it reduces
            // before a token that can do neither.
            .then_ignore(choice((end(), any().filter(ends_statements).ignored())).rewind())
            .try_map(|(first, mut rest), _| {
                rest.insert(0, first);
                transform_calls(rest)
            })
            .boxed();

        // `{ statements }` bodies; empty allowed.
        let block = t(Tok::LBrace)
            .ignore_then(statements.clone().or_not())
            .then_ignore(t(Tok::RBrace))
            .map(Option::unwrap_or_default)
            .boxed();

        // Keywords that are values in collections: `[type, function]`.
        let entry_keyword = select_ref! {
            Tok::Type => "type",
            Tok::Function => "function",
        }
        .map_with(|k, e| ex(ExprKind::Str(k.into()), e.span()));
        let hash_entry = choice((assignment.clone(), entry_keyword)).boxed();
        let farrow = t(Tok::FArrow).map_with(|_, e| -> Span { e.span() });
        let hashpair = hash_entry
            .clone()
            .then(farrow.clone())
            .then(hash_entry.clone())
            .map(|((key, arrow), value)| HashEntry {
                span: Span::new(arrow.start as usize, value.span.end as usize),
                key,
                value,
            })
            .boxed();

        // `argument`: an assignment, or `k => v` that starts an unbraced hash.
        let argument = |first: chumsky::Boxed<'s, 's, In<'s>, Expr, Ex<'s>>| {
            first
                .then(farrow.clone().then(hash_entry.clone()).or_not())
                .map(|(key, value)| match value {
                    // Puppet places an unbraced hash at its first `=>`.
                    Some((arrow, value)) => {
                        let span = Span::new(arrow.start as usize, value.span.end as usize);
                        ex(
                            ExprKind::Hash {
                                entries: vec![HashEntry { key, value, span }],
                                unfolded: true,
                            },
                            span,
                        )
                    }
                    None => key,
                })
        };
        let arguments = argument(assignment.clone().boxed())
            .separated_by(t(Tok::Comma))
            .at_least(1)
            .collect::<Vec<_>>()
            .map(merge_unfolded)
            .boxed();
        let collection_entries = argument(choice((assignment.clone(), entry_keyword)).boxed())
            .separated_by(t(Tok::Comma))
            .at_least(1)
            .collect::<Vec<_>>()
            .map(merge_unfolded)
            .boxed();
        let access_args = argument(choice((assignment.clone(), entry_keyword)).boxed())
            .separated_by(t(Tok::Comma))
            .at_least(1)
            .collect::<Vec<_>>()
            .map(merge_unfolded)
            .boxed();

        // Parameters of classes, defines, functions and lambdas.
        let type_ref = select_ref! { Tok::ClassRef(n) => n.clone() }
            .map_with(|n, e| ex(ExprKind::QRef(n), e.span()));
        let parameter_type = type_ref
            .then(
                t(Tok::LBrack)
                    .ignore_then(access_args.clone())
                    .then_ignore(t(Tok::RBrack))
                    .or_not(),
            )
            .map_with(|(ty, keys), e| match keys {
                Some(keys) => ex(ExprKind::Access { lhs: bx(ty), keys }, e.span()),
                None => ty,
            })
            .boxed();
        let parameter = parameter_type
            .clone()
            .or_not()
            .then(t(Tok::Times).or_not())
            .then(select_ref! { Tok::Variable(n) => n.clone() }.map_with(|n, e| (n, e.span())))
            .then(t(Tok::Equals).ignore_then(expr.clone()).or_not())
            .map_with(
                |(((type_expr, splat), (name, var)), default), e| Parameter {
                    name: name.into(),
                    type_expr,
                    default,
                    captures_rest: splat.is_some(),
                    // Puppet places a parameter at its variable.
                    span: Span::new(var.start as usize, e.span().end as usize),
                    resolved_type: Default::default(),
                },
            )
            .boxed();
        let parameters = parameter
            .clone()
            .separated_by(t(Tok::Comma))
            .at_least(1)
            .collect::<Vec<_>>()
            .then_ignore(comma_opt.clone())
            .boxed();
        let parameter_list = choice((t(Tok::LParen), t(Tok::WsLParen)))
            .ignore_then(parameters.clone().or_not())
            .then_ignore(t(Tok::RParen))
            .or_not()
            .map(|p| p.flatten().unwrap_or_default())
            .boxed();
        let return_type = t(Tok::RShift).ignore_then(parameter_type.clone()).or_not();

        let lambda = t(Tok::Pipe)
            .ignore_then(parameters.clone().or_not())
            .then_ignore(t(Tok::Pipe))
            .then(return_type.clone())
            .then(block.clone())
            .map_with(|((params, return_type), body), e| Lambda {
                params: params.unwrap_or_default(),
                return_type,
                body,
                span: e.span(),
            })
            .boxed();

        // Strings.
        // `DqPre expr (DqMid expr)* DqPost`, exactly Puppet's `dq_string`.
        let interpolated = assignment.clone().map(interpolate);
        let dq_string = select_ref! { Tok::DqPre(s) => s.clone() }
            .then(interpolated.clone())
            .then(
                select_ref! { Tok::DqMid(s) => s.clone() }
                    .then(interpolated)
                    .repeated()
                    .collect::<Vec<_>>(),
            )
            .then(select_ref! { Tok::DqPost(s) => s.clone() })
            .map_with(|(((pre, first), mids), post), e| {
                // Empty text segments are dropped, as in Puppet's model.
                let mut parts = Vec::with_capacity(mids.len() * 2 + 3);
                let text = |parts: &mut Vec<StrPart>, t: String| {
                    if !t.is_empty() {
                        parts.push(StrPart::Text(t));
                    }
                };
                text(&mut parts, pre);
                parts.push(StrPart::Expr(first));
                for (mid, e) in mids {
                    text(&mut parts, mid);
                    parts.push(StrPart::Expr(e));
                }
                text(&mut parts, post);
                ex(ExprKind::Concat(parts), e.span())
            })
            .boxed();
        let plain_string = select_ref! {
            Tok::Str(s) => s.clone(),
            Tok::Word(s) => s.clone(),
        }
        .map_with(|s, e| ex(ExprKind::Str(s.into()), e.span()));
        let heredoc = select_ref! { Tok::Heredoc(s) => s.clone() }
            .map_with(|s, e| (s, e.span()))
            .then(choice((
                select_ref! { Tok::Str(s) => s.clone() }
                    .map_with(|s, e| ex(ExprKind::Str(s.into()), e.span())),
                dq_string.clone(),
            )))
            .map(|((syntax, span), text)| {
                ex(
                    ExprKind::Heredoc {
                        syntax,
                        text: bx(text),
                    },
                    span,
                )
            });
        let quoted_text = choice((plain_string, dq_string.clone(), heredoc)).boxed();
        let regex = select_ref! { Tok::Regex(s) => s.clone() }
            .map_with(|s, e| ex(ExprKind::Regex(s), e.span()));

        // Collections.
        let array = choice((t(Tok::ListStart), t(Tok::LBrack)))
            .ignore_then(
                collection_entries
                    .clone()
                    .then_ignore(comma_opt.clone())
                    .or_not(),
            )
            .then_ignore(t(Tok::RBrack))
            .map_with(|entries, e| ex(ExprKind::Array(entries.unwrap_or_default()), e.span()))
            .boxed();
        let hash = t(Tok::LBrace)
            .ignore_then(
                hashpair
                    .clone()
                    .separated_by(t(Tok::Comma))
                    .at_least(1)
                    .collect::<Vec<_>>()
                    .then_ignore(comma_opt.clone())
                    .or_not(),
            )
            .then_ignore(t(Tok::RBrace))
            .map_with(|entries, e| {
                ex(
                    ExprKind::Hash {
                        entries: entries.unwrap_or_default(),
                        unfolded: false,
                    },
                    e.span(),
                )
            })
            .boxed();

        // Conditionals.
        let if_expr = recursive(|if_part| {
            expr.clone()
                .then(block.clone())
                .then(
                    choice((
                        t(Tok::Elsif)
                            .map_with(|_, e| -> Span { e.span() })
                            .then(if_part)
                            .map(|(at, mut e): (Span, Expr)| {
                                e.span.start = at.start;
                                Some(bx(e))
                            }),
                        t(Tok::Else).ignore_then(block.clone()).map_with(|b, e| {
                            if b.is_empty() {
                                None
                            } else {
                                Some(bx(ex(ExprKind::Block(b), e.span())))
                            }
                        }),
                    ))
                    .or_not()
                    .map(Option::flatten),
                )
                .map_with(|((test, then), otherwise), e| {
                    ex(
                        ExprKind::If {
                            test: bx(test),
                            then,
                            otherwise,
                        },
                        e.span(),
                    )
                })
        });
        let if_expression = t(Tok::If)
            .ignore_then(if_expr)
            .map_with(|mut e, x| {
                e.span = x.span();
                e
            })
            .boxed();
        let unless_expression = t(Tok::Unless)
            .ignore_then(expr.clone())
            .then(block.clone())
            .then(
                t(Tok::Else)
                    .ignore_then(block.clone())
                    .map_with(|b, e| (b, e.span()))
                    .or_not(),
            )
            .map_with(|((test, then), otherwise), e| {
                let otherwise = otherwise
                    .filter(|(b, _)| !b.is_empty())
                    .map(|(b, sp)| bx(ex(ExprKind::Block(b), sp)));
                ex(
                    ExprKind::Unless {
                        test: bx(test),
                        then,
                        otherwise,
                    },
                    e.span(),
                )
            })
            .boxed();
        let expressions = expr
            .clone()
            .separated_by(t(Tok::Comma))
            .at_least(1)
            .collect::<Vec<_>>()
            .boxed();
        let case_option = expressions
            .clone()
            .then(t(Tok::Colon).map_with(|_, e| -> Span { e.span() }))
            .then(block.clone())
            .map_with(|((values, colon), body), e| CaseOption {
                values,
                body,
                // Puppet places a case option at its colon.
                span: Span::new(colon.start as usize, e.span().end as usize),
            });
        let case_expression = t(Tok::Case)
            .ignore_then(expr.clone())
            .then_ignore(t(Tok::LBrace))
            .then(case_option.repeated().at_least(1).collect::<Vec<_>>())
            .then_ignore(t(Tok::RBrace))
            .map_with(|(test, options), e| {
                ex(
                    ExprKind::Case {
                        test: bx(test),
                        options,
                    },
                    e.span(),
                )
            })
            .boxed();

        // Definitions.
        let class_definition = t(Tok::Class)
            .ignore_then(classname())
            .then(parameter_list.clone())
            .then(
                t(Tok::Inherits)
                    .ignore_then(choice((
                        classname(),
                        t(Tok::Default).to("default".to_string()),
                    )))
                    .or_not(),
            )
            .then(block.clone())
            .map_with(|(((name, params), parent), body), e| {
                ex(
                    ExprKind::Class {
                        name,
                        params,
                        parent,
                        body,
                    },
                    e.span(),
                )
            })
            .boxed();
        let define_definition = t(Tok::Define)
            .ignore_then(classname())
            .then(parameter_list.clone())
            .then(block.clone())
            .map_with(|((name, params), body), e| {
                ex(ExprKind::Define { name, params, body }, e.span())
            })
            .boxed();
        let name_or_number = select_ref! {
            Tok::Name(n) => n.clone(),
            Tok::Number(n) => n.clone(),
        };
        let dotted_name = name_or_number
            .separated_by(t(Tok::Dot))
            .at_least(1)
            .collect::<Vec<_>>()
            .map_with(|parts, e| ex(ExprKind::Str(parts.join(".").into()), e.span()));
        let hostname = choice((
            dotted_name,
            quoted_text.clone(),
            t(Tok::Default).map_with(|_, e| ex(ExprKind::Default, e.span())),
            regex,
        ))
        .boxed();
        let node_definition = t(Tok::Node)
            .ignore_then(
                hostname
                    .clone()
                    .separated_by(t(Tok::Comma))
                    .at_least(1)
                    .collect::<Vec<_>>(),
            )
            .then_ignore(comma_opt.clone())
            .then(t(Tok::Inherits).ignore_then(hostname.clone()).or_not())
            .then(block.clone())
            .map_with(|((host_matches, parent), body), e| {
                ex(
                    ExprKind::Node {
                        host_matches,
                        parent: parent.map(bx),
                        body,
                    },
                    e.span(),
                )
            })
            .boxed();
        let function_definition = t(Tok::Function)
            .ignore_then(classname())
            .then(parameter_list.clone())
            .then(return_type.clone())
            .then(block.clone())
            .map_with(|(((name, params), return_type), body), e| {
                ex(
                    ExprKind::Function {
                        name,
                        params,
                        return_type: return_type.map(bx),
                        body,
                    },
                    e.span(),
                )
            })
            .boxed();
        let type_rhs = choice((
            type_ref.then(hash.clone()).map_with(|(ty, h), e| {
                ex(
                    ExprKind::Access {
                        lhs: bx(ty),
                        keys: vec![h],
                    },
                    e.span(),
                )
            }),
            // `B[...]` is `B` here, completed by the access postfix that follows
            // (see `alias_access`): parsing the brackets here too parsed them twice
            // whenever they failed, exponential in nested aliases. A `{` after `B`
            // is always the hash (Puppet's parser shifts it): when the hash fails,
            // taking `B` alone made a resource body parse the same text again.
            type_ref.then_ignore(t(Tok::LBrace).rewind().not()),
            hash.clone(),
            array.clone(),
        ));
        let type_alias = t(Tok::Type)
            .ignore_then(parameter_type.clone())
            .then_ignore(t(Tok::Equals))
            .then(type_rhs)
            .map_with(|(name, type_expr), e| {
                // Puppet places a type alias at its name, not at `type`.
                let span = Span {
                    start: name.span.start,
                    end: e.span().end,
                };
                ex(
                    ExprKind::TypeAlias {
                        name: bx(name),
                        type_expr: bx(type_expr),
                    },
                    span,
                )
            })
            .boxed();
        let type_definition = t(Tok::Type)
            .ignore_then(select_ref! { Tok::ClassRef(n) => n.clone() })
            .then(
                t(Tok::Inherits)
                    .ignore_then(select_ref! { Tok::ClassRef(n) => n.clone() })
                    .or_not(),
            )
            .then(block.clone())
            .map_with(|((name, parent), body), e| {
                ex(ExprKind::TypeDefinition { name, parent, body }, e.span())
            })
            .boxed();
        let call_args = t(Tok::LParen)
            .ignore_then(
                arguments
                    .clone()
                    .then_ignore(comma_opt.clone())
                    .or_not()
                    .map(Option::unwrap_or_default),
            )
            .then_ignore(t(Tok::RParen))
            .then(lambda.clone().or_not())
            .boxed();
        let type_call = t(Tok::Type)
            .map_with(|_, e| ex(ExprKind::QName("type".into()), e.span()))
            .then(call_args.clone())
            .map_with(|(functor, (args, lambda)), e| {
                ex(
                    ExprKind::CallNamed {
                        functor: bx(functor),
                        args,
                        lambda: lambda.map(Box::new),
                        rval_required: true,
                    },
                    e.span(),
                )
            });

        let literal = select_ref! {
            Tok::Variable(n) => ExprKind::Var(n.clone()),
            Tok::Number(n) => ExprKind::Number(parse_number(n)),
            Tok::Boolean(b) => ExprKind::Boolean(*b),
            Tok::Default => ExprKind::Default,
            Tok::Undef => ExprKind::Undef,
            Tok::Name(n) => ExprKind::QName(n.as_str().into()),
            Tok::ClassRef(n) => ExprKind::QRef(n.clone()),
            Tok::Private => ExprKind::Reserved("private".into()),
            Tok::Attr => ExprKind::Reserved("attr".into()),
        }
        .map_with(|k, e| ex(k, e.span()));
        let paren = choice((t(Tok::LParen), t(Tok::WsLParen)))
            .ignore_then(assignment.clone())
            .then_ignore(t(Tok::RParen))
            .map_with(|inner, e| ex(ExprKind::Paren(bx(inner)), e.span()));

        // EPP: template text, and `<%= expr %>` or `<%= { statements } %>`.
        let render_string = select_ref! { Tok::RenderString(s) => s.clone() }
            .map_with(|s, e| ex(ExprKind::RenderString(s), e.span()));
        let epp_end = choice((t(Tok::EppEnd), t(Tok::EppEndTrim)));
        let render_expr = t(Tok::RenderExpr)
            .ignore_then(choice((
                t(Tok::LBrace)
                    .map_with(|_, e| -> Span { e.span() })
                    .then(statements.clone())
                    .then(t(Tok::RBrace).map_with(|_, e| -> Span { e.span() }))
                    .then_ignore(epp_end.clone())
                    .map(|((open, mut stmts), close): ((Span, Vec<Expr>), Span)| {
                        if stmts.len() == 1 {
                            stmts.remove(0)
                        } else {
                            ex(
                                ExprKind::Block(stmts),
                                Span::new(open.start as usize, close.end as usize),
                            )
                        }
                    }),
                expr.clone().then_ignore(epp_end),
            )))
            .map_with(|x, e| ex(ExprKind::RenderExpr(bx(x)), e.span()))
            .boxed();

        // Every operand spends from the parse's work budget, and fails at once
        // where it failed before.
        let primary = operand(choice((
            render_string,
            render_expr,
            literal,
            quoted_text.clone(),
            array.clone(),
            hash.clone(),
            regex,
            paren,
            if_expression,
            unless_expression,
            case_expression,
            class_definition,
            define_definition,
            node_definition,
            function_definition,
            type_call,
            type_definition,
            type_alias,
        )))
        .boxed();

        // Postfix operators.
        let call_op = call_args
            .clone()
            .map(|(args, lambda)| Postfix::Call(args, lambda));
        // `.name`, then `(arguments)` and a lambda, both optional. The arguments are
        // parsed once, with the call's optional trailing comma: a method call takes
        // none, so `$x.f(1,)` is the method `$x.f` called by `(1,)`, as when
        // the two were separate alternatives. When the arguments fail, the method
        // stands without them and nothing can follow at that `(` (a call would
        // fail on the same arguments), so `method_stop` takes it, last, instead
        // of the call re-parsing them: nested failing method calls were exponential.
        let method_name = t(Tok::Dot).map_with(|_, e| -> Span { e.span() }).then(
            select_ref! {
                Tok::Name(n) => n.clone(),
                Tok::Type => "type".to_string(),
            }
            .map_with(|n, e| (n, e.span())),
        );
        let method_args = t(Tok::LParen)
            .map_with(|_, e| -> Span { e.span() })
            .then(
                arguments
                    .clone()
                    .then(t(Tok::Comma).or_not().map(|c| c.is_some()))
                    .or_not(),
            )
            .then_ignore(t(Tok::RParen));
        let lparen_next = t(Tok::LParen).rewind();
        let method_op = method_name
            .clone()
            .then(choice((
                method_args.then(lambda.clone().or_not()).map(
                    |((lparen, args), lambda)| match args {
                        Some((args, true)) => MethodArgs::ThenCall(args, lambda),
                        Some((args, false)) => MethodArgs::Parens(lparen, args, lambda),
                        None => MethodArgs::Parens(lparen, Vec::new(), lambda),
                    },
                ),
                lparen_next
                    .clone()
                    .not()
                    .ignore_then(lambda.clone().or_not())
                    .map(MethodArgs::Bare),
            )))
            .map(|((dot, (name, name_span)), args)| match args {
                // Puppet places a method call at its `(`, or at the `.` without one.
                MethodArgs::Parens(lparen, args, lambda) => {
                    Postfix::Method(lparen, name, args, lambda)
                }
                MethodArgs::Bare(lambda) => Postfix::Method(dot, name, Vec::new(), lambda),
                MethodArgs::ThenCall(args, lambda) => {
                    Postfix::MethodThenCall(dot, name, name_span, args, lambda)
                }
            });
        let method_stop = method_name
            .then_ignore(lparen_next)
            .map(|(dot, (name, _))| Postfix::Method(dot, name, Vec::new(), None));
        let access_op = t(Tok::LBrack)
            .ignore_then(access_args.clone())
            .then_ignore(comma_opt.clone())
            .then_ignore(t(Tok::RBrack))
            .map(Postfix::Access);
        let selector_entry = expr
            .clone()
            .then(farrow.clone())
            .then(expr.clone())
            .map(|((matching, arrow), value)| SelectorEntry {
                span: Span::new(arrow.start as usize, value.span.end as usize),
                matching,
                value,
            })
            .boxed();
        let selector_op = t(Tok::QMark)
            .ignore_then(choice((
                t(Tok::SelBrace)
                    .ignore_then(
                        selector_entry
                            .clone()
                            .separated_by(t(Tok::Comma))
                            .at_least(1)
                            .collect::<Vec<_>>(),
                    )
                    .then_ignore(comma_opt.clone())
                    .then_ignore(t(Tok::RBrace)),
                selector_entry.clone().map(|e| vec![e]),
            )))
            .map(Postfix::Selector);
        let collect_op = choice((
            t(Tok::LCollect)
                .ignore_then(expr.clone().or_not())
                .then_ignore(t(Tok::RCollect))
                .map(|q| (QueryKind::Virtual, q)),
            t(Tok::LLCollect)
                .ignore_then(expr.clone().or_not())
                .then_ignore(t(Tok::RRCollect))
                .map(|q| (QueryKind::Exported, q)),
        ))
        .then(
            t(Tok::LBrace)
                .ignore_then(attribute_ops.clone())
                .then_ignore(comma_opt.clone())
                .then_ignore(t(Tok::RBrace))
                .or_not()
                .map(Option::unwrap_or_default),
        )
        .map(|((kind, q), ops)| Postfix::Collect(kind, q, ops));

        let fold_postfix =
            |lhs: Expr, op: Postfix, e: &mut chumsky::input::MapExtra<'s, '_, In<'s>, Ex<'s>>| {
                let mut span: Span = e.span();
                let kind = match op {
                    Postfix::Call(args, lambda) => ExprKind::CallNamed {
                        functor: bx(lhs),
                        args,
                        lambda: lambda.map(Box::new),
                        rval_required: true,
                    },
                    Postfix::Method(at, name, args, lambda) => {
                        span.start = at.start;
                        ExprKind::CallMethod {
                            receiver: bx(lhs),
                            name,
                            args,
                            lambda: lambda.map(Box::new),
                        }
                    }
                    Postfix::MethodThenCall(dot, name, name_span, args, lambda) => {
                        let method = ex(
                            ExprKind::CallMethod {
                                receiver: bx(lhs),
                                name,
                                args: Vec::new(),
                                lambda: None,
                            },
                            Span {
                                start: dot.start,
                                end: name_span.end,
                            },
                        );
                        ExprKind::CallNamed {
                            functor: bx(method),
                            args,
                            lambda: lambda.map(Box::new),
                            rval_required: true,
                        }
                    }
                    Postfix::Access(keys) if takes_alias_access(&lhs) => {
                        return alias_access(lhs, keys, span.end)
                    }
                    Postfix::Access(keys) => ExprKind::Access { lhs: bx(lhs), keys },
                    Postfix::Selector(entries) => ExprKind::Selector {
                        lhs: bx(lhs),
                        entries,
                    },
                    Postfix::Collect(query_kind, query, ops) => ExprKind::Collect {
                        type_ref: bx(lhs),
                        query_kind,
                        query: query.map(bx),
                        ops,
                    },
                };
                ex(kind, span)
            };
        let postfix_op = choice((call_op, method_op, access_op, collect_op)).boxed();

        // Puppet places a binary expression at its operator.
        let op = |k: Tok| t(k).map_with(|_, e| -> Span { e.span() });
        let bin = |op: BinaryOp| {
            move |l: Expr,
                  at: Span,
                  r: Expr,
                  e: &mut chumsky::input::MapExtra<'s, '_, In<'s>, Ex<'s>>| {
                let end = e.span().end;
                ex(
                    ExprKind::Binary {
                        op,
                        lhs: bx(l),
                        rhs: bx(r),
                    },
                    Span {
                        start: at.start,
                        end,
                    },
                )
            }
        };
        let un = |op: UnaryOp| {
            move |_, r: Expr, e: &mut chumsky::input::MapExtra<'s, '_, In<'s>, Ex<'s>>| {
                ex(ExprKind::Unary { op, expr: bx(r) }, e.span())
            }
        };

        // Binding powers from egrammar.ra's precedence table (higher binds tighter).
        // The selector `?` is the exception, measured against Puppet 7.23: it takes the
        // whole comparison, arithmetic or negation to its left (`$a < 0 ? {...}` selects
        // on `$a < 0`), but not `and`/`or`.
        //
        // Calls, method calls, access and collectors (Puppet's tightest operators)
        // are folded onto the primary before the Pratt layer sees it. Inside the
        // Pratt layer they would be tried again after every operand that ends at an
        // unmatched `(`: the operand's own level fails on it, then each enclosing
        // level re-parses the same arguments and fails the same way, doubling the
        // work per nesting level (`f("" > f("" > f(...` unclosed took minutes). Only
        // an operand's own level can ever take them, so the parse is unchanged.
        //
        // For the same reason `and` and `or` are a layer of their own above the
        // rest: every other operator, the selector included, binds tighter than
        // both, so a right operand of `and`/`or` is exactly one operand of the
        // layer below. In one Pratt layer, a selector failing in that operand was
        // tried again on the whole `x and y` at the same `?`.
        let selector_postfix = selector_op.boxed();
        let operand = primary
            .foldl_with(postfix_op.repeated(), fold_postfix)
            .foldl_with(method_stop.repeated().at_most(1), fold_postfix)
            .boxed();
        let comparison = operand
            .pratt((
                postfix(11, selector_postfix, fold_postfix),
                prefix(30, t(Tok::Not), un(UnaryOp::Not)),
                prefix(28, t(Tok::Times), un(UnaryOp::Splat)),
                prefix(26, t(Tok::Minus), un(UnaryOp::Neg)),
                infix(left(24), op(Tok::In), bin(BinaryOp::In)),
                infix(left(22), op(Tok::Match), bin(BinaryOp::Match)),
                infix(left(22), op(Tok::NoMatch), bin(BinaryOp::NotMatch)),
                infix(left(20), op(Tok::Times), bin(BinaryOp::Mul)),
                infix(left(20), op(Tok::Div), bin(BinaryOp::Div)),
                infix(left(20), op(Tok::Modulo), bin(BinaryOp::Mod)),
                infix(left(18), op(Tok::Plus), bin(BinaryOp::Add)),
                infix(left(18), op(Tok::Minus), bin(BinaryOp::Sub)),
                infix(left(16), op(Tok::LShift), bin(BinaryOp::Shl)),
                infix(left(16), op(Tok::RShift), bin(BinaryOp::Shr)),
                (
                    infix(left(14), op(Tok::NotEqual), bin(BinaryOp::Ne)),
                    infix(left(14), op(Tok::IsEqual), bin(BinaryOp::Eq)),
                    infix(left(12), op(Tok::Greater), bin(BinaryOp::Gt)),
                    infix(left(12), op(Tok::GreaterEq), bin(BinaryOp::Ge)),
                    infix(left(12), op(Tok::Less), bin(BinaryOp::Lt)),
                    infix(left(12), op(Tok::LessEq), bin(BinaryOp::Le)),
                ),
            ))
            .boxed();
        exported = Some((statements.clone(), parameters.clone()));
        comparison
            .pratt((
                infix(left(10), op(Tok::And), bin(BinaryOp::And)),
                infix(left(8), op(Tok::Or), bin(BinaryOp::Or)),
            ))
            .boxed()
    });
    let Some((statements, parameters)) = exported else {
        unreachable!("recursive() runs its closure before returning")
    };

    let body = statements.or_not().map(move |b| {
        // The only strong reference to `expr`: the grammar lives as long as this.
        let _grammar = &expr;
        b.unwrap_or_default()
    });
    if epp {
        // `<%- |$x, $y = 1| -%>` first; `None` when no `|` list (not even `||`).
        let epp_params = t(Tok::Pipe)
            .ignore_then(parameters.or_not())
            .then_ignore(t(Tok::Pipe))
            .map(Option::unwrap_or_default)
            .or_not();
        t(Tok::EppStart)
            .ignore_then(epp_params)
            .then(body)
            .then_ignore(end())
            .map_with(|(params, body), e| vec![ex(ExprKind::Epp { params, body }, e.span())])
            .boxed()
    } else {
        body.then_ignore(end()).boxed()
    }
}

/// Nested classes and defines get their enclosing classes' names, as Puppet's
/// parser namestack does: `class a { class b {} }` defines `a::b`.
fn qualify_nested(body: &mut [Expr], stack: &mut Vec<String>) {
    for e in body {
        qualify_expr(e, stack);
    }
}

fn qualify_expr(e: &mut Expr, stack: &mut Vec<String>) {
    match &mut e.kind {
        ExprKind::Class { name, body, .. } => {
            let given = name.clone();
            if !stack.is_empty() {
                *name = qualified(stack, name);
            }
            stack.push(given);
            qualify_nested(body, stack);
            stack.pop();
        }
        ExprKind::Define { name, .. } if !stack.is_empty() => {
            *name = qualified(stack, name);
        }
        _ => super::visit::for_each_child_mut(e, &mut |c| qualify_expr(c, stack)),
    }
}

fn qualified(stack: &[String], name: &str) -> String {
    let joined = format!("{}::{}", stack.join("::"), name);
    joined.strip_prefix("::").unwrap_or(&joined).to_string()
}

#[cfg(test)]
mod budget_tests {
    use super::parse_budget::{Budget, EXHAUSTED};
    use super::*;

    /// Operands started per token by parsing `src` (with no limit), and the result.
    fn work_per_token(src: &str) -> (f64, Result<Vec<Expr>, RawError>) {
        let tokens = lexer::lex(src).expect("lexes");
        let count = tokens.len() as f64;
        let budget = Budget::of(u64::MAX);
        let parsed = parse_tokens_within(tokens, src.len(), false, &budget);
        (budget.spent() as f64 / count, parsed)
    }

    #[test]
    fn nested_failing_bodies_parse_in_linear_work() {
        // The fuzzer's input: 29 unclosed classes, each after `$x ****` or
        // `include ****`; each level used to be parsed twice (6 s to refuse).
        let found = include_str!(
            "../../../tests/fixtures/fuzz-regressions/parse/nested-classes-after-binary-operators.pp"
        );
        let (work, parsed) = work_per_token(found);
        assert!(parsed.is_err());
        assert!(work < 2.0, "{work} operands per token");
        let aliases = "type A = B { x => ".repeat(60);
        let (work, parsed) = work_per_token(&aliases);
        assert!(parsed.is_err());
        assert!(work < 2.0, "nested alias hashes: {work} operands per token");
        for op in ["-", "*", "**"] {
            let src: String = (0..40)
                .map(|i| format!("class c{i} {{\n  $x = $y {op} class d{i} {{\n  $z = 1\n"))
                .collect();
            let (work, parsed) = work_per_token(&src);
            assert!(parsed.is_err());
            assert!(work < 2.0, "`{op}`: {work} operands per token");
        }
    }

    #[test]
    fn operands_that_failed_fail_at_once() {
        // The fuzzer's nested `(*****5` (25 operands per token before the
        // failure memo); Puppet: `Syntax error at ':'`.
        let found = include_str!(
            "../../../tests/fixtures/fuzz-regressions/parse/nested-parens-after-splats.pp"
        );
        let (work, parsed) = work_per_token(found);
        let err = parsed.expect_err("a syntax error");
        assert_eq!(err.message, "Syntax error at ':'");
        assert!(work < 2.0, "{work} operands per token");
        // Its core: `0<1*(` nested, each level parsed twice by the Pratt
        // parser's retry of `*` on the larger left side.
        for n in [10, 20, 40] {
            let (work, parsed) = work_per_token(&"0<1*(".repeat(n));
            assert!(parsed.is_err());
            assert!(work < 4.0, "`0<1*(` x {n}: {work} operands per token");
        }
    }

    #[test]
    fn a_parse_out_of_budget_is_refused_where_the_budget_ran_out() {
        let src = "$a = 1\n$b = [2, 3]\nnotice($a + $b[0])\n";
        let tokens = lexer::lex(src).expect("lexes");
        let unlimited = Budget::of(u64::MAX);
        let ok = parse_tokens_within(tokens.clone(), src.len(), false, &unlimited);
        assert!(ok.is_ok());
        let needed = unlimited.spent();
        drop(unlimited);
        let enough = parse_tokens_within(tokens.clone(), src.len(), false, &Budget::of(needed));
        assert!(enough.is_ok());
        // One unit short: refused, at a place in the file, whatever the
        // parse would have said.
        let short = Budget::of(needed - 1);
        let err = parse_tokens_within(tokens, src.len(), false, &short).expect_err("out of budget");
        assert_eq!(err.message, EXHAUSTED);
        assert!(
            err.offset.is_some_and(|at| at <= src.len()),
            "{:?}",
            err.offset
        );
    }
}
