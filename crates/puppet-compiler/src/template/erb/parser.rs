//! The parser of the Ruby subset: statements, Ruby's operator precedence,
//! method calls with blocks, and the template's text and output tokens.

use std::sync::Arc as Rc;

use super::lexer::{lex_code, Piece, Tok, Token};

pub type Body = Vec<Node>;

#[derive(Debug)]
pub struct Node {
    pub expr: Expr,
    pub line: usize,
}

#[derive(Debug)]
pub enum StrPart {
    Lit(String),
    Code(Body),
}

#[derive(Debug)]
pub struct Block {
    /// Parameter names; a `(a, b)` parameter destructures.
    pub params: Vec<Vec<String>>,
    pub body: Body,
}

#[derive(Debug)]
pub enum Expr {
    Nil,
    Bool(bool),
    Int(i64),
    BigInt(String),
    Float(f64),
    Str(Vec<StrPart>),
    Sym(String),
    DSym(Vec<StrPart>),
    Regex(Vec<StrPart>, String),
    Array(Vec<Node>),
    Hash(Vec<(Node, Node)>),
    Range(Box<Node>, Box<Node>, bool),
    IVar(String),
    Const(String),
    /// A bare name: a local variable if one is set, else a method call.
    Name(String),
    Call {
        recv: Option<Box<Node>>,
        name: String,
        args: Vec<Node>,
        block: Option<Rc<Block>>,
        safe: bool,
    },
    Index(Box<Node>, Vec<Node>),
    Not(Box<Node>),
    Neg(Box<Node>),
    And(Box<Node>, Box<Node>),
    Or(Box<Node>, Box<Node>),
    Binop(&'static str, Box<Node>, Box<Node>),
    If(Box<Node>, Body, Body),
    While(Box<Node>, Body, bool),
    Case(Option<Box<Node>>, Vec<(Vec<Node>, Body)>, Option<Body>),
    Assign(String, Box<Node>),
    /// `a, b = list`: each name takes its element.
    MultiAssign(Vec<String>, Box<Node>),
    /// `for x in list ... end`.
    For(String, Box<Node>, Body),
    OpAssign(String, &'static str, Box<Node>),
    /// `x[k] = v`, `x[k] ||= v` on a local or instance variable.
    IndexAssign(Box<Node>, Vec<Node>, &'static str, Box<Node>),
    Seq(Body),
    Out(Box<Node>),
    Text(String),
    Next(Option<Box<Node>>),
    Break(Option<Box<Node>>),
    Splat(Box<Node>),
    BlockPass(String),
    /// `&proc_value`: a Proc passed as the block.
    BlockPassValue(Box<Node>),
    GVar(String),
    /// `@x = v`, `@x ||= v`: the template's own instance variable.
    IAssign(String, &'static str, Box<Node>),
    Defined(Box<Node>),
    Return(Option<Box<Node>>),
    Def(String, Rc<Def>),
    Begin(Rc<Def>),
}

/// A method body or `begin` block with its `rescue`, `else` and `ensure`.
#[derive(Debug)]
pub struct Def {
    pub params: Vec<(String, Option<Node>)>,
    /// `*rest`: the arguments after `params`, as an array.
    pub rest: Option<String>,
    pub body: Body,
    /// Its `rescue` clauses, in order.
    pub rescues: Vec<Rescue>,
    pub else_: Option<Body>,
    pub ensure: Option<Body>,
}

/// `rescue Class, Other => var`: the exception classes it catches (none:
/// `StandardError`), the variable bound to the exception, and its body.
#[derive(Debug)]
pub struct Rescue {
    pub classes: Vec<String>,
    pub var: Option<String>,
    pub body: Body,
}

pub type PError = (String, usize);

pub struct Parser {
    toks: Vec<Token>,
    pos: usize,
    /// Every name assigned as a local variable (`x = ...`): in Ruby such a
    /// name is a local, nil until assigned, even where the assignment did
    /// not run (`x = 1 if false; x`).
    pub assigned: rustc_hash::FxHashSet<String>,
    /// Nesting of expressions being parsed (bounded: parsing and evaluation
    /// recurse over it).
    depth: usize,
}

/// The deepest nesting of expressions accepted; templates nest a handful.
const MAX_DEPTH: usize = 100;

const KEYWORDS: [&str; 27] = [
    "if", "elsif", "else", "end", "unless", "case", "when", "then", "do", "and", "or", "not",
    "while", "until", "nil", "true", "false", "self", "next", "break", "in", "begin", "def",
    "rescue", "ensure", "return", "for",
];

fn binop_prec(p: &str) -> Option<u8> {
    Some(match p {
        "||" => 1,
        "&&" => 2,
        "<=>" | "==" | "===" | "!=" | "=~" | "!~" => 4,
        ">" | ">=" | "<" | "<=" => 5,
        "|" => 6,
        "&" => 7,
        "<<" | ">>" => 8,
        "+" | "-" => 9,
        "*" | "/" | "%" => 10,
        "**" => 12,
        _ => return None,
    })
}

impl Parser {
    pub fn new(toks: Vec<Token>) -> Parser {
        Parser {
            toks,
            pos: 0,
            assigned: Default::default(),
            depth: 0,
        }
    }

    fn peek(&self) -> &Tok {
        &self.toks[self.pos.min(self.toks.len() - 1)].tok
    }

    fn peek_at(&self, n: usize) -> &Tok {
        &self.toks[(self.pos + n).min(self.toks.len() - 1)].tok
    }

    fn tok(&self) -> &Token {
        &self.toks[self.pos.min(self.toks.len() - 1)]
    }

    fn line(&self) -> usize {
        self.tok().line
    }

    fn bump(&mut self) -> Tok {
        let t = self.peek().clone();
        if self.pos < self.toks.len() - 1 {
            self.pos += 1;
        }
        t
    }

    fn is_punct(&self, p: &str) -> bool {
        matches!(self.peek(), Tok::Punct(q) if *q == p)
    }

    fn is_kw(&self, k: &str) -> bool {
        matches!(self.peek(), Tok::Ident(q) if q == k)
    }

    fn eat_punct(&mut self, p: &str) -> bool {
        if self.is_punct(p) {
            self.bump();
            true
        } else {
            false
        }
    }

    fn eat_kw(&mut self, k: &str) -> bool {
        if self.is_kw(k) {
            self.bump();
            true
        } else {
            false
        }
    }

    fn unexpected<T>(&self) -> Result<T, PError> {
        let what = match self.peek() {
            Tok::Eof => "end-of-input".to_string(),
            Tok::Ident(k) if KEYWORDS.contains(&k.as_str()) => format!("`{k}'"),
            Tok::Ident(k) => format!("local variable or method `{k}'"),
            Tok::Punct(p) => format!("'{p}'"),
            Tok::Newline => "newline".into(),
            Tok::Text(_) => "template text".into(),
            Tok::OutStart => "'<%='".into(),
            Tok::OutEnd => "'%>'".into(),
            t => format!("{t:?}"),
        };
        Err((format!("syntax error, unexpected {what}"), self.line()))
    }

    fn expect_punct(&mut self, p: &str) -> Result<(), PError> {
        if self.eat_punct(p) {
            Ok(())
        } else {
            let mut e: PError = self.unexpected::<()>().unwrap_err();
            e.0 = format!("{}, expecting '{p}'", e.0);
            Err(e)
        }
    }

    fn expect_kw(&mut self, k: &str) -> Result<(), PError> {
        if self.eat_kw(k) {
            Ok(())
        } else {
            let mut e: PError = self.unexpected::<()>().unwrap_err();
            e.0 = format!("{}, expecting `{k}'", e.0);
            Err(e)
        }
    }

    fn skip_terms(&mut self) {
        while matches!(self.peek(), Tok::Newline | Tok::Punct(";")) {
            self.bump();
        }
    }

    /// The whole template.
    pub fn program(&mut self) -> Result<Body, PError> {
        let body = self.body(&[])?;
        if *self.peek() != Tok::Eof {
            return self.unexpected();
        }
        Ok(body)
    }

    /// Statements up to one of the keywords `stop` (or `}` / end of input).
    fn body(&mut self, stop: &[&str]) -> Result<Body, PError> {
        let mut out = Vec::new();
        loop {
            self.skip_terms();
            match self.peek() {
                Tok::Eof | Tok::Punct("}") | Tok::Punct(")") => return Ok(out),
                Tok::Ident(k) if stop.contains(&k.as_str()) => return Ok(out),
                Tok::Text(t) => {
                    let line = self.line();
                    let t = t.clone();
                    self.bump();
                    out.push(Node {
                        expr: Expr::Text(t),
                        line,
                    });
                }
                Tok::OutStart => {
                    let line = self.line();
                    self.bump();
                    self.skip_terms();
                    let e = if matches!(self.peek(), Tok::OutEnd) {
                        Node {
                            expr: Expr::Nil,
                            line,
                        }
                    } else {
                        self.stmt()?
                    };
                    self.skip_terms();
                    if !matches!(self.peek(), Tok::OutEnd) {
                        return self.unexpected();
                    }
                    self.bump();
                    out.push(Node {
                        expr: Expr::Out(Box::new(e)),
                        line,
                    });
                }
                Tok::OutEnd => return self.unexpected(),
                _ => {
                    let s = self.stmt()?;
                    out.push(s);
                    if !matches!(
                        self.peek(),
                        Tok::Newline
                            | Tok::Punct(";")
                            | Tok::Eof
                            | Tok::Text(_)
                            | Tok::OutStart
                            | Tok::Punct("}")
                            | Tok::Punct(")")
                            | Tok::OutEnd
                    ) && !matches!(self.peek(), Tok::Ident(k) if stop.contains(&k.as_str()))
                    {
                        return self.unexpected();
                    }
                }
            }
        }
    }

    /// A statement: an expression with `if`/`unless`/`while` modifiers.
    fn stmt(&mut self) -> Result<Node, PError> {
        let mut e = match self.multi_assign()? {
            Some(m) => m,
            None => self.expr_stmt()?,
        };
        loop {
            let line = self.line();
            if self.eat_kw("if") {
                let c = self.expr_stmt()?;
                e = Node {
                    expr: Expr::If(Box::new(c), vec![e], vec![]),
                    line,
                };
            } else if self.eat_kw("unless") {
                let c = self.expr_stmt()?;
                e = Node {
                    expr: Expr::If(Box::new(c), vec![], vec![e]),
                    line,
                };
            } else if self.eat_kw("rescue") {
                let r = self.expr_stmt()?;
                e = Node {
                    expr: Expr::Begin(Rc::new(Def {
                        params: vec![],
                        rest: None,
                        body: vec![e],
                        rescues: vec![Rescue {
                            classes: Vec::new(),
                            var: None,
                            body: vec![r],
                        }],
                        else_: None,
                        ensure: None,
                    })),
                    line,
                };
            } else if self.eat_kw("while") {
                let c = self.expr_stmt()?;
                e = Node {
                    expr: Expr::While(Box::new(c), vec![e], true),
                    line,
                };
            } else {
                return Ok(e);
            }
        }
    }

    /// `not`, `and`, `or`.
    fn expr_stmt(&mut self) -> Result<Node, PError> {
        let mut l = self.not_expr()?;
        loop {
            let line = self.line();
            if self.eat_kw("and") {
                self.skip_newlines();
                let r = self.not_expr()?;
                l = Node {
                    expr: Expr::And(Box::new(l), Box::new(r)),
                    line,
                };
            } else if self.eat_kw("or") {
                self.skip_newlines();
                let r = self.not_expr()?;
                l = Node {
                    expr: Expr::Or(Box::new(l), Box::new(r)),
                    line,
                };
            } else {
                return Ok(l);
            }
        }
    }

    /// `a, b = value` or `a, b = x, y`, when the tokens start that way.
    fn multi_assign(&mut self) -> Result<Option<Node>, PError> {
        let line = self.line();
        let mut n = 0;
        let mut names = Vec::new();
        loop {
            match (self.peek_at(n), self.peek_at(n + 1)) {
                (Tok::Ident(name), Tok::Punct(",")) if !KEYWORDS.contains(&name.as_str()) => {
                    names.push(name.clone());
                    n += 2;
                }
                (Tok::Ident(name), Tok::Punct("="))
                    if !names.is_empty() && !KEYWORDS.contains(&name.as_str()) =>
                {
                    names.push(name.clone());
                    n += 2;
                    break;
                }
                _ => return Ok(None),
            }
        }
        self.pos += n;
        self.skip_newlines();
        self.assigned.extend(names.iter().cloned());
        let first = self.expr()?;
        let value = if self.is_punct(",") {
            let mut items = vec![first];
            while self.eat_punct(",") {
                self.skip_newlines();
                items.push(self.expr()?);
            }
            Node {
                expr: Expr::Array(items),
                line,
            }
        } else {
            first
        };
        Ok(Some(Node {
            expr: Expr::MultiAssign(names, Box::new(value)),
            line,
        }))
    }

    fn skip_newlines(&mut self) {
        while matches!(self.peek(), Tok::Newline) {
            self.bump();
        }
    }

    fn not_expr(&mut self) -> Result<Node, PError> {
        let line = self.line();
        if self.eat_kw("not") {
            let e = self.not_expr()?;
            return Ok(Node {
                expr: Expr::Not(Box::new(e)),
                line,
            });
        }
        self.expr()
    }

    /// Assignment and everything above it.
    fn expr(&mut self) -> Result<Node, PError> {
        if self.depth >= MAX_DEPTH {
            return Err(("expressions nested too deeply".into(), self.line()));
        }
        self.depth += 1;
        let r = self.expr_inner();
        self.depth -= 1;
        r
    }

    fn expr_inner(&mut self) -> Result<Node, PError> {
        let line = self.line();
        if let (Tok::Ident(name), Tok::Punct(op)) = (self.peek().clone(), self.peek_at(1).clone()) {
            if !KEYWORDS.contains(&name.as_str()) {
                let op: Option<&'static str> = match op {
                    "=" => Some("="),
                    "+=" => Some("+"),
                    "-=" => Some("-"),
                    "*=" => Some("*"),
                    "||=" => Some("||"),
                    "&&=" => Some("&&"),
                    _ => None,
                };
                if let Some(op) = op {
                    self.bump();
                    self.bump();
                    self.skip_newlines();
                    self.assigned.insert(name.clone());
                    let v = self.expr()?;
                    let expr = if op == "=" {
                        Expr::Assign(name, Box::new(v))
                    } else {
                        Expr::OpAssign(name, op, Box::new(v))
                    };
                    return Ok(Node { expr, line });
                }
            }
        }
        if let (Tok::IVar(name), Tok::Punct(op)) = (self.peek().clone(), self.peek_at(1).clone()) {
            let op: Option<&'static str> = match op {
                "=" => Some("="),
                "||=" => Some("||"),
                "+=" => Some("+"),
                _ => None,
            };
            if let Some(op) = op {
                self.bump();
                self.bump();
                self.skip_newlines();
                let v = self.expr()?;
                return Ok(Node {
                    expr: Expr::IAssign(name, op, Box::new(v)),
                    line,
                });
            }
        }
        let e = self.ternary()?;
        let op: Option<&'static str> = match self.peek() {
            Tok::Punct("=") => Some("="),
            Tok::Punct("||=") => Some("||"),
            Tok::Punct("+=") => Some("+"),
            Tok::Punct("-=") => Some("-"),
            _ => None,
        };
        if let Some(op) = op {
            if let Expr::Index(recv, args) = e.expr {
                self.bump();
                self.skip_newlines();
                let v = self.expr()?;
                return Ok(Node {
                    expr: Expr::IndexAssign(recv, args, op, Box::new(v)),
                    line,
                });
            }
            return self.unexpected();
        }
        Ok(e)
    }

    fn ternary(&mut self) -> Result<Node, PError> {
        let c = self.range()?;
        let line = self.line();
        if self.eat_punct("?") {
            self.skip_newlines();
            let a = self.ternary()?;
            self.skip_newlines();
            // `a ? b : c` where `b:` was lexed as a label is not produced
            // (the lexer checks for a pending `?`).
            self.expect_punct(":")?;
            self.skip_newlines();
            let b = self.ternary()?;
            return Ok(Node {
                expr: Expr::If(Box::new(c), vec![a], vec![b]),
                line,
            });
        }
        Ok(c)
    }

    fn range(&mut self) -> Result<Node, PError> {
        let l = self.binary(1)?;
        let line = self.line();
        for (p, excl) in [("..", false), ("...", true)] {
            if self.eat_punct(p) {
                let r = self.binary(1)?;
                return Ok(Node {
                    expr: Expr::Range(Box::new(l), Box::new(r), excl),
                    line,
                });
            }
        }
        Ok(l)
    }

    fn binary(&mut self, min: u8) -> Result<Node, PError> {
        let mut l = self.unary()?;
        loop {
            let op = match self.peek() {
                Tok::Punct(p) => *p,
                _ => return Ok(l),
            };
            let Some(prec) = binop_prec(op) else {
                return Ok(l);
            };
            if prec < min {
                return Ok(l);
            }
            let line = self.line();
            self.bump();
            self.skip_newlines();
            // `**` is right-associative; the rest left.
            let r = if op == "**" {
                self.binary(prec)?
            } else {
                self.binary(prec + 1)?
            };
            let expr = match op {
                "&&" => Expr::And(Box::new(l), Box::new(r)),
                "||" => Expr::Or(Box::new(l), Box::new(r)),
                "!=" => Expr::Not(Box::new(Node {
                    expr: Expr::Binop("==", Box::new(l), Box::new(r)),
                    line,
                })),
                "!~" => Expr::Not(Box::new(Node {
                    expr: Expr::Binop("=~", Box::new(l), Box::new(r)),
                    line,
                })),
                op => Expr::Binop(op, Box::new(l), Box::new(r)),
            };
            l = Node { expr, line };
        }
    }

    fn unary(&mut self) -> Result<Node, PError> {
        if self.depth >= MAX_DEPTH {
            return Err(("expressions nested too deeply".into(), self.line()));
        }
        self.depth += 1;
        let r = self.unary_inner();
        self.depth -= 1;
        r
    }

    fn unary_inner(&mut self) -> Result<Node, PError> {
        let line = self.line();
        if self.eat_punct("!") {
            let e = self.unary()?;
            return Ok(Node {
                expr: Expr::Not(Box::new(e)),
                line,
            });
        }
        if self.eat_punct("-") {
            let e = self.unary()?;
            let expr = match e.expr {
                Expr::Int(i) => Expr::Int(-i),
                Expr::Float(f) => Expr::Float(-f),
                other => Expr::Neg(Box::new(Node { expr: other, line })),
            };
            return Ok(Node { expr, line });
        }
        if self.eat_punct("+") {
            return self.unary();
        }
        if self.eat_punct("*") {
            let e = self.unary()?;
            return Ok(Node {
                expr: Expr::Splat(Box::new(e)),
                line,
            });
        }
        self.postfix()
    }

    fn postfix(&mut self) -> Result<Node, PError> {
        let mut e = self.primary()?;
        loop {
            let line = self.line();
            if self.is_punct(".") || self.is_punct("&.") {
                let safe = self.is_punct("&.");
                self.bump();
                self.skip_newlines();
                let name = match self.bump() {
                    Tok::Ident(n) | Tok::Const(n) => n,
                    // `f.(x)`: `f.call(x)`.
                    Tok::Punct("(") => {
                        self.pos -= 1;
                        "call".into()
                    }
                    Tok::Label(n) => {
                        // `x.y:` never happens in templates; treat as a name.
                        n
                    }
                    _ => {
                        self.pos = self.pos.saturating_sub(1);
                        return self.unexpected();
                    }
                };
                // `x.y = v` (attribute writers) are not supported.
                let (args, block) = self.call_args_and_block(true)?;
                e = Node {
                    expr: Expr::Call {
                        recv: Some(Box::new(e)),
                        name,
                        args,
                        block,
                        safe,
                    },
                    line,
                };
            } else if self.is_punct("::") {
                self.bump();
                match self.bump() {
                    // `A::B` names the class by its whole path (`Puppet::Util`).
                    Tok::Const(n) => {
                        let full = match &e.expr {
                            Expr::Const(outer) => format!("{outer}::{n}"),
                            _ => n,
                        };
                        e = Node {
                            expr: Expr::Const(full),
                            line,
                        }
                    }
                    Tok::Ident(name) => {
                        let (args, block) = self.call_args_and_block(true)?;
                        e = Node {
                            expr: Expr::Call {
                                recv: Some(Box::new(e)),
                                name,
                                args,
                                block,
                                safe: false,
                            },
                            line,
                        };
                    }
                    _ => {
                        self.pos = self.pos.saturating_sub(1);
                        return self.unexpected();
                    }
                }
            } else if self.is_punct("[") && !self.tok().space_before {
                self.bump();
                let args = self.list("]")?;
                e = Node {
                    expr: Expr::Index(Box::new(e), args),
                    line,
                };
            } else {
                return Ok(e);
            }
        }
    }

    /// Arguments after a method name: `(a, b)`, or without parentheses when
    /// `command` allows it and an argument starts on the same line; then a
    /// `{ |x| }` or `do |x| end` block.
    fn call_args_and_block(
        &mut self,
        command: bool,
    ) -> Result<(Vec<Node>, Option<Rc<Block>>), PError> {
        let mut args = Vec::new();
        if self.is_punct("(") && !self.tok().space_before {
            self.bump();
            args = self.list(")")?;
        } else if command && self.tok().space_before && self.starts_command_arg() {
            args = self.command_args()?;
        }
        let block = if self.is_punct("{") {
            Some(self.brace_block()?)
        } else if self.is_kw("do") {
            Some(self.do_block()?)
        } else {
            None
        };
        Ok((args, block))
    }

    /// Whether the next token can begin an argument of a call without
    /// parentheses (`puts x`, `scope.function_foo [1]`).
    fn starts_command_arg(&self) -> bool {
        match self.peek() {
            Tok::Int(_)
            | Tok::BigInt(_)
            | Tok::Float(_)
            | Tok::Str(_)
            | Tok::Sym(_)
            | Tok::DSym(_)
            | Tok::Regex(..)
            | Tok::Words(_)
            | Tok::IVar(_)
            | Tok::GVar(_)
            | Tok::Const(_)
            | Tok::Label(_) => true,
            Tok::Ident(k) => !matches!(
                k.as_str(),
                "if" | "unless"
                    | "and"
                    | "or"
                    | "then"
                    | "do"
                    | "end"
                    | "while"
                    | "until"
                    | "else"
                    | "elsif"
                    | "when"
                    | "in"
                    | "rescue"
                    | "ensure"
            ),
            Tok::Punct("[") | Tok::Punct("!") | Tok::Punct("(") => true,
            Tok::Punct("-") | Tok::Punct("*") | Tok::Punct("&") => {
                !self.toks[(self.pos + 1).min(self.toks.len() - 1)].space_before
            }
            Tok::Punct("::") => false,
            _ => false,
        }
    }

    /// `key: value` in an argument list (the label at the cursor): the key
    /// as a symbol, the value read by `value`.
    fn label_pair(
        &mut self,
        key: String,
        value: fn(&mut Self) -> Result<Node, PError>,
    ) -> Result<(Node, Node), PError> {
        let line = self.line();
        self.bump();
        self.skip_newlines();
        let v = value(self)?;
        Ok((
            Node {
                expr: Expr::Sym(key),
                line,
            },
            v,
        ))
    }

    fn command_args(&mut self) -> Result<Vec<Node>, PError> {
        let mut args = Vec::new();
        let mut hash = Vec::new();
        loop {
            if let Tok::Label(k) = self.peek().clone() {
                hash.push(self.label_pair(k, Self::ternary)?);
            } else {
                let a = self.arg()?;
                if self.eat_punct("=>") {
                    self.skip_newlines();
                    let v = self.ternary()?;
                    hash.push((a, v));
                } else {
                    args.push(a);
                }
            }
            if !self.eat_punct(",") {
                break;
            }
            self.skip_newlines();
        }
        if !hash.is_empty() {
            let line = self.line();
            args.push(Node {
                expr: Expr::Hash(hash),
                line,
            });
        }
        Ok(args)
    }

    fn arg(&mut self) -> Result<Node, PError> {
        let line = self.line();
        if self.is_punct("&") {
            self.bump();
            if let Tok::Sym(s) = self.peek().clone() {
                self.bump();
                return Ok(Node {
                    expr: Expr::BlockPass(s),
                    line,
                });
            }
            let value = self.ternary()?;
            return Ok(Node {
                expr: Expr::BlockPassValue(Box::new(value)),
                line,
            });
        }
        if self.is_kw("not") {
            return self.not_expr();
        }
        self.expr()
    }

    /// Comma-separated arguments or elements up to `close`, with trailing
    /// `key => v` / `key: v` pairs gathered into a hash.
    fn list(&mut self, close: &'static str) -> Result<Vec<Node>, PError> {
        let mut items = Vec::new();
        let mut hash: Vec<(Node, Node)> = Vec::new();
        self.skip_newlines();
        while !self.eat_punct(close) {
            if let Tok::Label(k) = self.peek().clone() {
                hash.push(self.label_pair(k, Self::arg)?);
            } else {
                let a = self.arg()?;
                self.skip_newlines();
                if self.eat_punct("=>") {
                    self.skip_newlines();
                    let v = self.arg()?;
                    hash.push((a, v));
                } else {
                    items.push(a);
                }
            }
            self.skip_newlines();
            if !self.eat_punct(",") {
                self.skip_newlines();
                self.expect_punct(close)?;
                break;
            }
            self.skip_newlines();
        }
        if !hash.is_empty() {
            let line = self.line();
            items.push(Node {
                expr: Expr::Hash(hash),
                line,
            });
        }
        Ok(items)
    }

    fn block_params(&mut self) -> Result<Vec<Vec<String>>, PError> {
        let mut params = Vec::new();
        if !self.eat_punct("|") {
            return Ok(params);
        }
        while !self.eat_punct("|") {
            if self.eat_punct("(") {
                let mut group = Vec::new();
                while !self.eat_punct(")") {
                    match self.bump() {
                        Tok::Ident(n) => group.push(n),
                        Tok::Punct(",") | Tok::Punct("*") => {}
                        _ => {
                            self.pos = self.pos.saturating_sub(1);
                            return self.unexpected();
                        }
                    }
                }
                params.push(group);
            } else {
                match self.bump() {
                    Tok::Ident(n) => params.push(vec![n]),
                    Tok::Punct(",") | Tok::Punct("*") => {}
                    _ => {
                        self.pos = self.pos.saturating_sub(1);
                        return self.unexpected();
                    }
                }
            }
        }
        Ok(params)
    }

    fn brace_block(&mut self) -> Result<Rc<Block>, PError> {
        self.expect_punct("{")?;
        self.skip_newlines();
        let params = self.block_params()?;
        let body = self.body(&[])?;
        self.expect_punct("}")?;
        Ok(Rc::new(Block { params, body }))
    }

    fn do_block(&mut self) -> Result<Rc<Block>, PError> {
        self.expect_kw("do")?;
        let params = self.block_params()?;
        self.do_block_body(params)
    }

    /// A `do` block's body after its parameters, up to its `end`.
    fn do_block_body(&mut self, params: Vec<Vec<String>>) -> Result<Rc<Block>, PError> {
        let line = self.line();
        // `do ... rescue ... ensure ... end`: the body as a `begin` block.
        let def = self.def_body(vec![], None)?;
        let body = if def.rescues.is_empty() && def.else_.is_none() && def.ensure.is_none() {
            match Rc::try_unwrap(def) {
                Ok(d) => d.body,
                Err(d) => vec![Node {
                    expr: Expr::Begin(d),
                    line,
                }],
            }
        } else {
            vec![Node {
                expr: Expr::Begin(def),
                line,
            }]
        };
        Ok(Rc::new(Block { params, body }))
    }

    /// A lambda literal after its `->`: `->(a, b) { }`, `-> a { }`,
    /// `-> { }`, `->(x) do ... end`; a `lambda` call with the block.
    fn lambda_literal(&mut self) -> Result<Expr, PError> {
        let mut params = Vec::new();
        let parens = self.eat_punct("(");
        loop {
            match self.peek().clone() {
                Tok::Punct(")") if parens => {
                    self.bump();
                    break;
                }
                Tok::Punct("{") if !parens => break,
                Tok::Ident(k) if k == "do" && !parens => break,
                Tok::Ident(n) if !KEYWORDS.contains(&n.as_str()) => {
                    self.bump();
                    params.push(vec![n]);
                }
                Tok::Punct(",") | Tok::Punct("*") => {
                    self.bump();
                }
                Tok::Newline if parens => {
                    self.bump();
                }
                _ => return self.unexpected(),
            }
        }
        let block = if self.eat_punct("{") {
            self.skip_newlines();
            let body = self.body(&[])?;
            self.expect_punct("}")?;
            Rc::new(Block { params, body })
        } else if self.eat_kw("do") {
            self.do_block_body(params)?
        } else {
            return self.unexpected();
        };
        Ok(Expr::Call {
            recv: None,
            name: "lambda".into(),
            args: vec![],
            block: Some(block),
            safe: false,
        })
    }

    fn primary(&mut self) -> Result<Node, PError> {
        let line = self.line();
        let t = self.bump();
        let expr = match t {
            Tok::Punct("->") => self.lambda_literal()?,
            Tok::Int(i) => Expr::Int(i),
            Tok::BigInt(d) => Expr::BigInt(d),
            Tok::Float(f) => Expr::Float(f),
            Tok::Str(p) => {
                let mut parts = self.str_parts(p)?;
                // Adjacent literals concatenate (`"a" "b"`).
                while let Tok::Str(q) = self.peek().clone() {
                    self.bump();
                    parts.extend(self.str_parts(q)?);
                }
                Expr::Str(parts)
            }
            Tok::Sym(s) => Expr::Sym(s),
            Tok::DSym(p) => Expr::DSym(self.str_parts(p)?),
            Tok::Regex(p, f) => Expr::Regex(self.str_parts(p)?, f),
            Tok::Words(w) => Expr::Array(
                w.into_iter()
                    .map(|s| Node {
                        expr: Expr::Str(vec![StrPart::Lit(s)]),
                        line,
                    })
                    .collect(),
            ),
            Tok::IVar(v) => Expr::IVar(v),
            Tok::GVar(v) => Expr::GVar(v),
            Tok::Const(c) => {
                if self.is_punct("(") && !self.tok().space_before {
                    let (args, block) = self.call_args_and_block(false)?;
                    Expr::Call {
                        recv: None,
                        name: c,
                        args,
                        block,
                        safe: false,
                    }
                } else {
                    Expr::Const(c)
                }
            }
            Tok::Punct("(") => {
                let body = self.body(&[])?;
                self.expect_punct(")")?;
                Expr::Seq(body)
            }
            Tok::Punct("[") => Expr::Array(self.list("]")?),
            Tok::Punct("{") => {
                let mut pairs = Vec::new();
                self.skip_newlines();
                while !self.eat_punct("}") {
                    let k = if let Tok::Label(k) = self.peek().clone() {
                        let l = self.line();
                        self.bump();
                        Node {
                            expr: Expr::Sym(k),
                            line: l,
                        }
                    } else {
                        let k = self.arg()?;
                        self.skip_newlines();
                        self.expect_punct("=>")?;
                        k
                    };
                    self.skip_newlines();
                    let v = self.arg()?;
                    pairs.push((k, v));
                    self.skip_newlines();
                    if !self.eat_punct(",") {
                        self.skip_newlines();
                        self.expect_punct("}")?;
                        break;
                    }
                    self.skip_newlines();
                }
                Expr::Hash(pairs)
            }
            Tok::Punct("..") | Tok::Punct("...") => {
                self.pos = self.pos.saturating_sub(1);
                return self.unexpected();
            }
            Tok::Punct("::") => match self.bump() {
                Tok::Const(c) => Expr::Const(c),
                _ => {
                    self.pos = self.pos.saturating_sub(1);
                    return self.unexpected();
                }
            },
            Tok::Ident(k) => match k.as_str() {
                "nil" => Expr::Nil,
                "true" => Expr::Bool(true),
                "false" => Expr::Bool(false),
                "self" => Expr::Name("self".into()),
                "if" | "unless" => return self.if_expr(k == "unless", line),
                "while" | "until" => {
                    let c = self.expr_stmt()?;
                    self.eat_kw("do");
                    let body = self.body(&["end"])?;
                    self.expect_kw("end")?;
                    Expr::While(Box::new(c), body, k == "while")
                }
                "case" => return self.case_expr(line),
                "for" => {
                    let var = match self.bump() {
                        Tok::Ident(v) => v,
                        _ => {
                            self.pos = self.pos.saturating_sub(1);
                            return self.unexpected();
                        }
                    };
                    self.expect_kw("in")?;
                    let items = self.expr_stmt()?;
                    self.eat_kw("do");
                    let body = self.body(&["end"])?;
                    self.expect_kw("end")?;
                    Expr::For(var, Box::new(items), body)
                }
                "begin" => Expr::Begin(self.def_body(vec![], None)?),
                // `module A::B ... end`, `class A ... end`: only their bodies
                // matter (a function file wraps its definition in them).
                "module" | "class" if matches!(self.peek(), Tok::Const(_)) => {
                    while matches!(self.peek(), Tok::Const(_) | Tok::Punct("::")) {
                        self.bump();
                    }
                    let body = self.body(&["end"])?;
                    self.expect_kw("end")?;
                    Expr::Seq(body)
                }
                "def" => {
                    let mut name = match self.bump() {
                        Tok::Ident(n) | Tok::Const(n) => n,
                        _ => {
                            self.pos = self.pos.saturating_sub(1);
                            return self.unexpected();
                        }
                    };
                    // `def self.name`: a module's own method, called as
                    // `Module.name` (kept with the other methods).
                    if name == "self" && self.eat_punct(".") {
                        name = match self.bump() {
                            Tok::Ident(n) | Tok::Const(n) => format!("self.{n}"),
                            _ => {
                                self.pos = self.pos.saturating_sub(1);
                                return self.unexpected();
                            }
                        };
                    }
                    let mut params = Vec::new();
                    let mut rest = None;
                    let parens = self.eat_punct("(");
                    while !matches!(self.peek(), Tok::Newline | Tok::Punct(";") | Tok::Eof) {
                        if parens && self.eat_punct(")") {
                            break;
                        }
                        match self.bump() {
                            Tok::Ident(p) => {
                                let default = if self.eat_punct("=") {
                                    Some(self.ternary()?)
                                } else {
                                    None
                                };
                                params.push((p, default));
                            }
                            Tok::Punct(",") => {}
                            Tok::Punct("*") => {
                                if let Tok::Ident(p) = self.bump() {
                                    rest = Some(p);
                                }
                            }
                            // `&block`: a Ruby block, never given here.
                            Tok::Punct("&") => {
                                self.bump();
                            }
                            _ => {
                                self.pos = self.pos.saturating_sub(1);
                                return self.unexpected();
                            }
                        }
                    }
                    Expr::Def(name, self.def_body(params, rest)?)
                }
                "return" => {
                    let v = self.optional_value()?;
                    Expr::Return(v)
                }
                "defined?" => {
                    let parens = self.eat_punct("(");
                    let e = self.expr()?;
                    if parens {
                        self.expect_punct(")")?;
                    }
                    Expr::Defined(Box::new(e))
                }
                "next" | "break" => {
                    let v = self.optional_value()?;
                    if k == "next" {
                        Expr::Next(v)
                    } else {
                        Expr::Break(v)
                    }
                }
                kw if KEYWORDS.contains(&kw) => {
                    self.pos = self.pos.saturating_sub(1);
                    return self.unexpected();
                }
                _ => {
                    let (args, block) = self.call_args_and_block(true)?;
                    if args.is_empty()
                        && block.is_none()
                        && !self.toks[self.pos - 1].tok.eq(&Tok::Punct(")"))
                    {
                        Expr::Name(k)
                    } else {
                        Expr::Call {
                            recv: None,
                            name: k,
                            args,
                            block,
                            safe: false,
                        }
                    }
                }
            },
            Tok::Label(_) => {
                self.pos = self.pos.saturating_sub(1);
                return self.unexpected();
            }
            _ => {
                self.pos = self.pos.saturating_sub(1);
                return self.unexpected();
            }
        };
        Ok(Node { expr, line })
    }

    /// The value of `return`, `next` or `break`, if one follows on the line.
    fn optional_value(&mut self) -> Result<Option<Box<Node>>, PError> {
        let ends = matches!(
            self.peek(),
            Tok::Newline
                | Tok::Punct(";")
                | Tok::Eof
                | Tok::Text(_)
                | Tok::OutEnd
                | Tok::Punct("}")
        ) || self.is_kw("if")
            || self.is_kw("unless")
            || self.is_kw("end");
        Ok(if ends {
            None
        } else {
            Some(Box::new(self.expr()?))
        })
    }

    /// A `def` or `begin` body up to its `end`, with `rescue [Classes] [=> e]`,
    /// `else` and `ensure` parts.
    fn def_body(
        &mut self,
        params: Vec<(String, Option<Node>)>,
        rest: Option<String>,
    ) -> Result<Rc<Def>, PError> {
        let body = self.body(&["rescue", "else", "ensure", "end"])?;
        let mut rescues = Vec::new();
        let mut else_ = None;
        let mut ensure = None;
        while self.eat_kw("rescue") {
            let mut var = None;
            let mut classes: Vec<String> = Vec::new();
            let mut path = String::new();
            while !matches!(self.peek(), Tok::Newline | Tok::Punct(";") | Tok::Eof)
                && !self.is_kw("then")
            {
                match self.bump() {
                    Tok::Punct("=>") => {
                        if let Tok::Ident(v) = self.bump() {
                            var = Some(v);
                        }
                    }
                    Tok::Const(c) => {
                        if !path.is_empty() {
                            path.push_str("::");
                        }
                        path.push_str(&c);
                    }
                    Tok::Punct(",") => classes.push(std::mem::take(&mut path)),
                    _ => {}
                }
            }
            if !path.is_empty() {
                classes.push(path);
            }
            self.eat_kw("then");
            let body = self.body(&["rescue", "else", "ensure", "end"])?;
            rescues.push(Rescue { classes, var, body });
        }
        if self.eat_kw("else") {
            else_ = Some(self.body(&["ensure", "end"])?);
        }
        if self.eat_kw("ensure") {
            ensure = Some(self.body(&["end"])?);
        }
        self.expect_kw("end")?;
        Ok(Rc::new(Def {
            params,
            rest,
            body,
            rescues,
            else_,
            ensure,
        }))
    }

    fn if_expr(&mut self, unless: bool, line: usize) -> Result<Node, PError> {
        let cond = self.expr_stmt()?;
        self.eat_kw("then");
        let then = self.body(&["elsif", "else", "end"])?;
        let els = if self.is_kw("elsif") {
            let l = self.line();
            self.bump();
            vec![self.if_expr(false, l)?]
        } else if self.eat_kw("else") {
            let b = self.body(&["end"])?;
            self.expect_kw("end")?;
            b
        } else {
            self.expect_kw("end")?;
            vec![]
        };
        let expr = if unless {
            Expr::If(Box::new(cond), els, then)
        } else {
            Expr::If(Box::new(cond), then, els)
        };
        Ok(Node { expr, line })
    }

    fn case_expr(&mut self, line: usize) -> Result<Node, PError> {
        let subject = if matches!(self.peek(), Tok::Newline) {
            None
        } else {
            Some(Box::new(self.expr_stmt()?))
        };
        self.skip_terms();
        // Text between `case x` and the first `when` is dropped by Ruby too
        // (it would be a syntax error); allow only blanks.
        while let Tok::Text(t) = self.peek() {
            if !t.trim().is_empty() {
                return self.unexpected();
            }
            self.bump();
            self.skip_terms();
        }
        let mut whens = Vec::new();
        while self.eat_kw("when") {
            let mut pats = Vec::new();
            loop {
                pats.push(self.arg()?);
                if !self.eat_punct(",") {
                    break;
                }
                self.skip_newlines();
            }
            self.eat_kw("then");
            let body = self.body(&["when", "else", "end"])?;
            whens.push((pats, body));
        }
        let els = if self.eat_kw("else") {
            Some(self.body(&["end"])?)
        } else {
            None
        };
        self.expect_kw("end")?;
        Ok(Node {
            expr: Expr::Case(subject, whens, els),
            line,
        })
    }

    fn str_parts(&mut self, pieces: Vec<Piece>) -> Result<Vec<StrPart>, PError> {
        let mut out = Vec::new();
        for p in pieces {
            match p {
                Piece::Lit(s) => out.push(StrPart::Lit(s)),
                Piece::Code(src, line) => {
                    out.push(StrPart::Code(parse_code(&src, line, self.depth + 1)?))
                }
            }
        }
        Ok(out)
    }
}

/// Parses a piece of Ruby code (an interpolation) on its own.
pub fn parse_code(src: &str, line: usize, depth: usize) -> Result<Body, PError> {
    parse_code_with_locals(src, line, depth).map(|(body, _)| body)
}

/// [`parse_code`], with the names the code assigns as local variables.
pub fn parse_code_with_locals(
    src: &str,
    line: usize,
    depth: usize,
) -> Result<(Body, rustc_hash::FxHashSet<String>), PError> {
    if depth >= MAX_DEPTH {
        return Err(("expressions nested too deeply".into(), line));
    }
    let mut toks = Vec::new();
    lex_code(src, line, &mut toks)?;
    toks.push(Token {
        tok: Tok::Eof,
        line,
        space_before: true,
    });
    let mut p = Parser::new(toks);
    p.depth = depth;
    let body = p.program()?;
    Ok((body, p.assigned))
}
