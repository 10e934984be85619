//! The generator's small model of a Puppet environment, and its printer.
//!
//! The model is only as detailed as the generator and the reducer need: it
//! is printed to Puppet source, and both compilers parse that text. It does
//! not have to match how Puppet parses the text (a `Bin` printed without
//! parentheses is parsed by precedence), only to print valid programs.

use std::fmt::Write;

/// An expression.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    /// Printed as is: literals, variables, types, regexes, references.
    Lit(String),
    /// A double-quoted string with interpolations.
    Str(Vec<Part>),
    Array(Vec<Expr>),
    Hash(Vec<(Expr, Expr)>),
    Bin(&'static str, Box<Expr>, Box<Expr>),
    /// `!`, `-` or `*` (splat) before the operand.
    Un(&'static str, Box<Expr>),
    Access(Box<Expr>, Vec<Expr>),
    Call(String, Vec<Expr>, Option<Box<Lambda>>),
    Method(Box<Expr>, String, Vec<Expr>, Option<Box<Lambda>>),
    Sel(Box<Expr>, Vec<(Expr, Expr)>),
    Paren(Box<Expr>),
    /// `Type <| query |>`.
    Collect(String, Option<Box<Query>>),
}

/// A part of a double-quoted string.
#[derive(Clone, Debug, PartialEq)]
pub enum Part {
    Text(String),
    /// `${...}`
    Expr(Expr),
    /// `$name`
    Var(String),
}

/// A collector's query.
#[derive(Clone, Debug, PartialEq)]
pub enum Query {
    Cmp(String, &'static str, Expr),
    And(Box<Query>, Box<Query>),
    Or(Box<Query>, Box<Query>),
    Paren(Box<Query>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Lambda {
    pub params: Vec<String>,
    pub body: Vec<Stmt>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Attr {
    pub name: String,
    /// `=>` or `+>`.
    pub op: &'static str,
    pub value: Expr,
}

/// A statement (an item of a block or of a file).
#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    Assign(String, Expr),
    /// An expression statement (a call; a block's value as its last).
    Expr(Expr),
    Resource {
        /// "", "@" or "@@".
        virt: &'static str,
        ty: String,
        title: Expr,
        attrs: Vec<Attr>,
    },
    Defaults(String, Vec<Attr>),
    Override(Expr, Vec<Attr>),
    /// A collector, with optional attribute overrides.
    Collect(Expr, Option<Vec<Attr>>),
    /// `a -> b ~> c`: operands are resources (`Stmt::Resource`),
    /// references or collectors (`Stmt::Expr`).
    Chain(Vec<Stmt>, Vec<&'static str>),
    If {
        unless: bool,
        cond: Expr,
        then: Vec<Stmt>,
        els: Option<Vec<Stmt>>,
    },
    Case(Expr, Vec<(Vec<Expr>, Vec<Stmt>)>),
    Class {
        name: String,
        params: Vec<Param>,
        inherits: Option<String>,
        body: Vec<Stmt>,
    },
    Define {
        name: String,
        params: Vec<Param>,
        body: Vec<Stmt>,
    },
    Node(Vec<String>, Vec<Stmt>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub ty: Option<String>,
    pub name: String,
    pub default: Option<Expr>,
}

/// A file of the environment.
#[derive(Clone, Debug, PartialEq)]
pub enum Body {
    Manifest(Vec<Stmt>),
    /// YAML data and templates, kept as lines so the reducer can drop them.
    Lines(Vec<String>),
}

/// A generated environment.
#[derive(Clone, Debug, PartialEq)]
pub struct Env {
    pub node: String,
    pub facts: serde_json::Value,
    pub files: Vec<(String, Body)>,
}

impl Env {
    /// The environment's files as text.
    pub fn render(&self) -> Vec<(String, String)> {
        self.files
            .iter()
            .map(|(p, b)| {
                let text = match b {
                    Body::Manifest(items) => {
                        let mut out = String::new();
                        block(&mut out, items, 0);
                        out
                    }
                    Body::Lines(lines) => {
                        let mut s = lines.join("\n");
                        s.push('\n');
                        s
                    }
                };
                (p.clone(), text)
            })
            .collect()
    }
}

fn indent(out: &mut String, n: usize) {
    for _ in 0..n {
        out.push_str("  ");
    }
}

/// Does the text start with a character that would continue the previous
/// statement (`[`, `(`, `{`, `-`, `/`)?
fn continues(s: &str) -> bool {
    matches!(
        s.as_bytes().first(),
        Some(b'[' | b'(' | b'{' | b'-' | b'/' | b'*')
    )
}

/// Prints statements, one a line; a statement that would be read as
/// continuing the one before gets a `;` before it.
pub fn block(out: &mut String, items: &[Stmt], ind: usize) {
    let texts: Vec<String> = items.iter().map(|s| stmt(s, ind)).collect();
    for (i, t) in texts.iter().enumerate() {
        indent(out, ind);
        out.push_str(t);
        if texts.get(i + 1).is_some_and(|n| continues(n)) {
            out.push(';');
        }
        out.push('\n');
    }
}

fn braces(items: &[Stmt], ind: usize) -> String {
    if items.is_empty() {
        return "{ }".into();
    }
    let mut out = String::from("{\n");
    block(&mut out, items, ind + 1);
    indent(&mut out, ind);
    out.push('}');
    out
}

fn attrs(a: &[Attr], ind: usize) -> String {
    let mut out = String::new();
    for x in a {
        out.push('\n');
        indent(&mut out, ind + 1);
        let _ = write!(out, "{} {} {},", x.name, x.op, expr(&x.value));
    }
    out
}

fn params(ps: &[Param]) -> String {
    let mut out = String::from("(");
    for (i, p) in ps.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        if let Some(t) = &p.ty {
            out.push_str(t);
            out.push(' ');
        }
        out.push('$');
        out.push_str(&p.name);
        if let Some(d) = &p.default {
            out.push_str(" = ");
            out.push_str(&expr(d));
        }
    }
    out.push(')');
    out
}

pub fn stmt(s: &Stmt, ind: usize) -> String {
    match s {
        Stmt::Assign(v, e) => format!("${v} = {}", expr(e)),
        Stmt::Expr(e) => {
            let t = expr(e);
            if t.starts_with('{') {
                format!("({t})")
            } else {
                t
            }
        }
        Stmt::Resource {
            virt,
            ty,
            title,
            attrs: a,
        } => {
            let mut out = format!("{virt}{ty} {{ {}:", expr(title));
            out.push_str(&attrs(a, ind));
            if !a.is_empty() {
                out.push('\n');
                indent(&mut out, ind);
            } else {
                out.push(' ');
            }
            out.push('}');
            out
        }
        Stmt::Defaults(ty, a) | Stmt::Override(Expr::Lit(ty), a) => {
            let mut out = format!("{ty} {{");
            out.push_str(&attrs(a, ind));
            out.push('\n');
            indent(&mut out, ind);
            out.push('}');
            out
        }
        Stmt::Override(e, a) => {
            let mut out = format!("{} {{", expr(e));
            out.push_str(&attrs(a, ind));
            out.push('\n');
            indent(&mut out, ind);
            out.push('}');
            out
        }
        Stmt::Collect(c, a) => {
            let mut out = expr(c);
            if let Some(a) = a {
                out.push_str(" {");
                out.push_str(&attrs(a, ind));
                out.push('\n');
                indent(&mut out, ind);
                out.push('}');
            }
            out
        }
        Stmt::Chain(items, ops) => {
            let mut out = String::new();
            for (i, it) in items.iter().enumerate() {
                if i > 0 {
                    let _ = write!(out, " {} ", ops.get(i - 1).copied().unwrap_or("->"));
                }
                out.push_str(&stmt(it, ind));
            }
            out
        }
        Stmt::If {
            unless,
            cond,
            then,
            els,
        } => {
            let kw = if *unless { "unless" } else { "if" };
            let mut out = format!("{kw} {} {}", expr(cond), braces(then, ind));
            if let Some(e) = els {
                out.push_str(" else ");
                out.push_str(&braces(e, ind));
            }
            out
        }
        Stmt::Case(subject, arms) => {
            let mut out = format!("case {} {{\n", expr(subject));
            for (opts, body) in arms {
                indent(&mut out, ind + 1);
                let o: Vec<String> = opts.iter().map(expr).collect();
                let _ = writeln!(out, "{}: {}", o.join(", "), braces(body, ind + 1));
            }
            indent(&mut out, ind);
            out.push('}');
            out
        }
        Stmt::Class {
            name,
            params: p,
            inherits,
            body,
        } => {
            let mut out = format!("class {name}");
            if !p.is_empty() {
                out.push_str(&params(p));
            }
            if let Some(i) = inherits {
                out.push_str(" inherits ");
                out.push_str(i);
            }
            out.push(' ');
            out.push_str(&braces(body, ind));
            out
        }
        Stmt::Define {
            name,
            params: p,
            body,
        } => format!("define {name}{} {}", params(p), braces(body, ind)),
        Stmt::Node(names, body) => format!("node {} {}", names.join(", "), braces(body, ind)),
    }
}

fn lambda(l: &Lambda) -> String {
    let ps: Vec<String> = l.params.iter().map(|p| format!("${p}")).collect();
    // The lambda's body as a one-line block when it is one short statement.
    let mut out = format!(" |{}| ", ps.join(", "));
    if l.body.len() == 1 {
        let t = stmt(&l.body[0], 0);
        if !t.contains('\n') {
            let _ = write!(out, "{{ {t} }}");
            return out;
        }
    }
    out.push_str("{\n");
    let mut inner = String::new();
    block(&mut inner, &l.body, 1);
    out.push_str(&inner);
    out.push('}');
    out
}

/// Needs parentheses as an operand of an operator, receiver or access.
fn compound(e: &Expr) -> bool {
    match e {
        Expr::Bin(..) | Expr::Un(..) | Expr::Sel(..) | Expr::Collect(..) => true,
        Expr::Lit(s) => s.starts_with('-') || s.as_bytes().first().is_some_and(u8::is_ascii_digit),
        _ => false,
    }
}

fn operand(e: &Expr) -> String {
    if matches!(e, Expr::Sel(..) | Expr::Collect(..)) {
        format!("({})", expr(e))
    } else {
        expr(e)
    }
}

pub fn expr(e: &Expr) -> String {
    match e {
        Expr::Lit(s) => s.clone(),
        Expr::Str(parts) => {
            let mut out = String::from("\"");
            for p in parts {
                match p {
                    Part::Text(t) => out.push_str(t),
                    Part::Expr(e) => {
                        let t = expr(e);
                        if t.starts_with(|c: char| c.is_ascii_digit()) {
                            let _ = write!(out, "${{({t})}}");
                        } else {
                            let _ = write!(out, "${{{t}}}");
                        }
                    }
                    Part::Var(v) => {
                        let _ = write!(out, "${v}");
                    }
                }
            }
            out.push('"');
            out
        }
        Expr::Array(items) => {
            let v: Vec<String> = items.iter().map(expr).collect();
            format!("[{}]", v.join(", "))
        }
        Expr::Hash(items) => {
            let v: Vec<String> = items
                .iter()
                .map(|(k, v)| format!("{} => {}", expr(k), expr(v)))
                .collect();
            format!("{{{}}}", v.join(", "))
        }
        Expr::Bin(op, l, r) => {
            let r = match (&**r, *op) {
                // `x in -1` and friends are fine; a nested `=` would not be.
                (Expr::Bin(..), _) => format!("({})", expr(r)),
                _ => operand(r),
            };
            let mut l = operand(l);
            // After a keyword or a `}`, `/` would start a regex.
            if *op == "/" && (l.ends_with('}') || l.starts_with(|c: char| c.is_ascii_lowercase())) {
                l = format!("({l})");
            }
            format!("{l} {op} {r}")
        }
        Expr::Un(op, x) => {
            if compound(x) || matches!(**x, Expr::Lit(ref s) if s.starts_with('-')) {
                format!("{op}({})", expr(x))
            } else {
                format!("{op}{}", expr(x))
            }
        }
        Expr::Access(r, idx) => {
            let v: Vec<String> = idx.iter().map(expr).collect();
            let r = if compound(r) || matches!(**r, Expr::Str(_)) {
                format!("({})", expr(r))
            } else {
                expr(r)
            };
            format!("{r}[{}]", v.join(", "))
        }
        Expr::Call(name, args, l) => {
            let v: Vec<String> = args.iter().map(expr).collect();
            let mut out = format!("{name}({})", v.join(", "));
            if let Some(l) = l {
                out.push_str(&lambda(l));
            }
            out
        }
        Expr::Method(r, name, args, l) => {
            let recv = if compound(r) || matches!(**r, Expr::Hash(_)) {
                format!("({})", expr(r))
            } else {
                expr(r)
            };
            let mut out = format!("{recv}.{name}");
            if !args.is_empty() || l.is_none() {
                let v: Vec<String> = args.iter().map(expr).collect();
                let _ = write!(out, "({})", v.join(", "));
            }
            if let Some(l) = l {
                out.push_str(&lambda(l));
            }
            out
        }
        Expr::Sel(s, arms) => {
            let v: Vec<String> = arms
                .iter()
                .map(|(k, v)| format!("{} => {}", expr(k), expr(v)))
                .collect();
            let s = if compound(s) {
                format!("({})", expr(s))
            } else {
                expr(s)
            };
            format!("{s} ? {{ {} }}", v.join(", "))
        }
        Expr::Paren(x) => format!("({})", expr(x)),
        Expr::Collect(ty, q) => match q {
            Some(q) => format!("{ty} <| {} |>", query(q)),
            None => format!("{ty} <| |>"),
        },
    }
}

pub fn query(q: &Query) -> String {
    match q {
        Query::Cmp(a, op, v) => format!("{a} {op} {}", expr(v)),
        Query::And(a, b) => format!("{} and {}", query(a), query(b)),
        Query::Or(a, b) => format!("{} or {}", query(a), query(b)),
        Query::Paren(a) => format!("({})", query(a)),
    }
}
