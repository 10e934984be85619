//! The syntax tree in Puppet's PN notation, exactly as
//! `puppet parser dump --format pn` prints it (`pops/model/pn_transformer.rb`).
//!
//! This is how the parser is proven against Puppet: both dumps of the same file
//! must be equal, character for character.

use std::fmt::Write;

use super::ast::*;

/// A program's PN: its single statement, `(block ...)` for several, `nil` for none.
pub fn program_to_pn(body: &[Expr]) -> String {
    let mut out = String::new();
    match body {
        [] => out.push_str("(nop)"),
        [one] => expr(one, &mut out),
        many => {
            out.push_str("(block");
            for e in many {
                out.push(' ');
                expr(e, &mut out);
            }
            out.push(')');
        }
    }
    out
}

fn quote(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\o{:03o}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

pub use crate::ruby_float::ruby_float;

fn number(n: &Number, negate: bool, out: &mut String) {
    match n {
        Number::Integer(v, radix) => {
            let v = if negate { v.wrapping_neg() } else { *v };
            if *radix == 10 || negate {
                let _ = write!(out, "{v}");
            } else {
                let _ = write!(out, "(int {{:radix {radix} :value {v}}})");
            }
        }
        Number::Float(f) => out.push_str(&ruby_float(if negate { -f } else { *f })),
        Number::Overflow(s) => {
            if negate {
                out.push('-');
            }
            out.push_str(s);
        }
    }
}

fn list(items: &[Expr], out: &mut String) {
    out.push('[');
    for (i, e) in items.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        expr(e, out);
    }
    out.push(']');
}

fn call(name: &str, args: &[&Expr], out: &mut String) {
    out.push('(');
    out.push_str(name);
    for a in args {
        out.push(' ');
        expr(a, out);
    }
    out.push(')');
}

/// `block_as_entry`: a block's statements, or a single expression as a list.
fn body_entry(key: &str, body: &[Expr], out: &mut String) {
    let _ = write!(out, " :{key} ");
    list(body, out);
}

fn else_entry(otherwise: &Expr, out: &mut String) {
    match &otherwise.kind {
        ExprKind::Block(stmts) => body_entry("else", stmts, out),
        _ => body_entry("else", std::slice::from_ref(otherwise), out),
    }
}

fn params(ps: &[Parameter], out: &mut String) {
    out.push_str(" :params {");
    for (i, p) in ps.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        let _ = write!(out, ":{} {{", p.name);
        let mut first = true;
        let mut sep = |out: &mut String| {
            if !first {
                out.push(' ');
            }
            first = false;
        };
        if let Some(t) = &p.type_expr {
            sep(out);
            out.push_str(":type ");
            expr(t, out);
        }
        if p.captures_rest {
            sep(out);
            out.push_str(":splat true");
        }
        if let Some(v) = &p.default {
            sep(out);
            out.push_str(":value ");
            expr(v, out);
        }
        out.push('}');
    }
    out.push('}');
}

fn ops(ops: &[AttributeOp], out: &mut String) {
    out.push('[');
    for (i, op) in ops.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        match op {
            AttributeOp::Set {
                name,
                append,
                value,
                ..
            } => {
                out.push_str(if *append { "(+> " } else { "(=> " });
                quote(name, out);
                out.push(' ');
                expr(value, out);
                out.push(')');
            }
            AttributeOp::Splat { value, .. } => call("splat-hash", &[value], out),
        }
    }
    out.push(']');
}

fn lambda(l: &Lambda, out: &mut String) {
    out.push_str("(lambda {");
    let mut parts = String::new();
    if !l.params.is_empty() {
        params(&l.params, &mut parts);
    }
    if let Some(r) = &l.return_type {
        parts.push_str(" :returns ");
        expr(r, &mut parts);
    }
    if !l.body.is_empty() {
        body_entry("body", &l.body, &mut parts);
    }
    out.push_str(parts.trim_start());
    out.push_str("})");
}

fn invocation(
    name: &str,
    functor: impl FnOnce(&mut String),
    args: &[Expr],
    block: &Option<Box<Lambda>>,
    out: &mut String,
) {
    let _ = write!(out, "({name} {{:functor ");
    functor(out);
    out.push_str(" :args ");
    list(args, out);
    if let Some(l) = block {
        out.push_str(" :block ");
        lambda(l, out);
    }
    out.push_str("})");
}

fn definition(
    kind: &str,
    name: &str,
    parent: Option<&str>,
    ps: &[Parameter],
    body: &[Expr],
    returns: Option<&Expr>,
    out: &mut String,
) {
    let _ = write!(out, "({kind} {{:name ");
    quote(name, out);
    if let Some(p) = parent {
        out.push_str(" :parent ");
        quote(p, out);
    }
    if !ps.is_empty() {
        params(ps, out);
    }
    if !body.is_empty() {
        body_entry("body", body, out);
    }
    if let Some(r) = returns {
        out.push_str(" :returns ");
        expr(r, out);
    }
    out.push_str("})");
}

fn form(f: ResourceForm, out: &mut String) {
    match f {
        ResourceForm::Regular => {}
        ResourceForm::Virtual => out.push_str(" :form \"virtual\""),
        ResourceForm::Exported => out.push_str(" :form \"exported\""),
    }
}

pub fn binary_op_text(op: BinaryOp) -> &'static str {
    match op {
        BinaryOp::Add => "+",
        BinaryOp::Sub => "-",
        BinaryOp::Mul => "*",
        BinaryOp::Div => "/",
        BinaryOp::Mod => "%",
        BinaryOp::Shl => "<<",
        BinaryOp::Shr => ">>",
        BinaryOp::Eq => "==",
        BinaryOp::Ne => "!=",
        BinaryOp::Lt => "<",
        BinaryOp::Le => "<=",
        BinaryOp::Gt => ">",
        BinaryOp::Ge => ">=",
        BinaryOp::Match => "=~",
        BinaryOp::NotMatch => "!~",
        BinaryOp::In => "in",
        BinaryOp::And => "and",
        BinaryOp::Or => "or",
    }
}

pub fn expr(e: &Expr, out: &mut String) {
    match &e.kind {
        ExprKind::Nop => out.push_str("(nop)"),
        ExprKind::Undef => out.push_str("nil"),
        ExprKind::Default => out.push_str("(default)"),
        ExprKind::Boolean(b) => out.push_str(if *b { "true" } else { "false" }),
        ExprKind::Number(n) => number(n, false, out),
        ExprKind::Str(s) => quote(s, out),
        ExprKind::Concat(parts) => {
            out.push_str("(concat");
            for p in parts {
                out.push(' ');
                match p {
                    StrPart::Text(t) => quote(t, out),
                    StrPart::Expr(x) => call("str", &[x], out),
                }
            }
            out.push(')');
        }
        ExprKind::Heredoc { syntax, text } => {
            out.push_str("(heredoc {");
            if !syntax.is_empty() {
                out.push_str(":syntax ");
                quote(syntax, out);
                out.push(' ');
            }
            out.push_str(":text ");
            expr(text, out);
            out.push_str("})");
        }
        ExprKind::Regex(r) => {
            out.push_str("(regexp ");
            quote(r, out);
            out.push(')');
        }
        ExprKind::QName(n) => {
            out.push_str("(qn ");
            quote(n, out);
            out.push(')');
        }
        ExprKind::QRef(n) => {
            out.push_str("(qr ");
            quote(n, out);
            out.push(')');
        }
        ExprKind::Reserved(w) => {
            out.push_str("(reserved ");
            quote(w, out);
            out.push(')');
        }
        ExprKind::Var(n) => {
            out.push_str("(var ");
            quote(n, out);
            out.push(')');
        }
        ExprKind::Array(items) => {
            out.push_str("(array");
            for x in items {
                out.push(' ');
                expr(x, out);
            }
            out.push(')');
        }
        ExprKind::Hash { entries, .. } => {
            out.push_str("(hash");
            for h in entries {
                out.push(' ');
                call("=>", &[&h.key, &h.value], out);
            }
            out.push(')');
        }
        ExprKind::Unary { op, expr: x } => match op {
            UnaryOp::Neg => match &x.kind {
                ExprKind::Number(n) => number(n, true, out),
                _ => call("-", &[x], out),
            },
            UnaryOp::Not => call("!", &[x], out),
            UnaryOp::Splat => call("unfold", &[x], out),
        },
        ExprKind::Binary { op, lhs, rhs } => call(binary_op_text(*op), &[lhs, rhs], out),
        ExprKind::Assign { op, lhs, rhs } => {
            let name = match op {
                AssignOp::Assign => "=",
                AssignOp::Append => "+=",
                AssignOp::Delete => "-=",
            };
            call(name, &[lhs, rhs], out)
        }
        ExprKind::Relationship { op, lhs, rhs } => {
            let name = match op {
                RelationOp::Before => "->",
                RelationOp::Notify => "~>",
                RelationOp::Require => "<-",
                RelationOp::Subscribe => "<~",
            };
            call(name, &[lhs, rhs], out)
        }
        ExprKind::Access { lhs, keys } => {
            out.push_str("(access ");
            expr(lhs, out);
            for k in keys {
                out.push(' ');
                expr(k, out);
            }
            out.push(')');
        }
        ExprKind::Selector { lhs, entries } => {
            out.push_str("(? ");
            expr(lhs, out);
            out.push_str(" [");
            for (i, s) in entries.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                call("=>", &[&s.matching, &s.value], out);
            }
            out.push_str("])");
        }
        ExprKind::Paren(x) => call("paren", &[x], out),
        ExprKind::NamedAccess { lhs, name } => {
            out.push_str("(. ");
            expr(lhs, out);
            out.push_str(" (qn ");
            quote(name, out);
            out.push_str("))");
        }
        ExprKind::Epp { params: ps, body } => {
            out.push_str("(lambda {");
            let mut parts = String::new();
            if let Some(ps) = ps.as_ref().filter(|ps| !ps.is_empty()) {
                params(ps, &mut parts);
            }
            parts.push_str(" :body [(epp");
            for s in body {
                parts.push(' ');
                expr(s, &mut parts);
            }
            parts.push_str(")]");
            out.push_str(parts.trim_start());
            out.push_str("})");
        }
        ExprKind::RenderString(s) => {
            out.push_str("(render-s ");
            quote(s, out);
            out.push(')');
        }
        ExprKind::RenderExpr(x) => call("render", &[x], out),
        ExprKind::Block(stmts) => {
            out.push_str("(block");
            for s in stmts {
                out.push(' ');
                expr(s, out);
            }
            out.push(')');
        }
        ExprKind::If {
            test,
            then,
            otherwise,
        }
        | ExprKind::Unless {
            test,
            then,
            otherwise,
        } => {
            let name = if matches!(e.kind, ExprKind::If { .. }) {
                "if"
            } else {
                "unless"
            };
            let _ = write!(out, "({name} {{:test ");
            expr(test, out);
            if !then.is_empty() {
                body_entry("then", then, out);
            }
            if let Some(o) = otherwise {
                else_entry(o, out);
            }
            out.push_str("})");
        }
        ExprKind::Case { test, options } => {
            out.push_str("(case ");
            expr(test, out);
            out.push_str(" [");
            for (i, o) in options.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                out.push_str("{:when ");
                list(&o.values, out);
                if o.body.is_empty() {
                    out.push_str(" :then [(nop)]");
                } else {
                    body_entry("then", &o.body, out);
                }
                out.push('}');
            }
            out.push_str("])");
        }
        ExprKind::CallNamed {
            functor,
            args,
            lambda,
            rval_required,
        } => invocation(
            if *rval_required { "call" } else { "invoke" },
            |out| expr(functor, out),
            args,
            lambda,
            out,
        ),
        ExprKind::CallMethod {
            receiver,
            name,
            args,
            lambda,
        } => invocation(
            "call-method",
            |out| {
                out.push_str("(. ");
                expr(receiver, out);
                out.push_str(" (qn ");
                quote(name, out);
                out.push_str("))");
            },
            args,
            lambda,
            out,
        ),
        ExprKind::Resource {
            form: f,
            type_name,
            bodies,
        } => {
            out.push_str("(resource {:type ");
            expr(type_name, out);
            out.push_str(" :bodies [");
            for (i, b) in bodies.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                out.push_str("{:title ");
                expr(&b.title, out);
                out.push_str(" :ops ");
                ops(&b.ops, out);
                out.push('}');
            }
            out.push(']');
            form(*f, out);
            out.push_str("})");
        }
        ExprKind::ResourceDefaults {
            form: f,
            type_ref,
            ops: o,
        } => {
            out.push_str("(resource-defaults {:type ");
            expr(type_ref, out);
            out.push_str(" :ops ");
            ops(o, out);
            form(*f, out);
            out.push_str("})");
        }
        ExprKind::ResourceOverride {
            form: f,
            resources,
            ops: o,
        } => {
            out.push_str("(resource-override {:resources ");
            expr(resources, out);
            out.push_str(" :ops ");
            ops(o, out);
            form(*f, out);
            out.push_str("})");
        }
        ExprKind::Collect {
            type_ref,
            query_kind,
            query,
            ops: o,
        } => {
            out.push_str("(collect {:type ");
            expr(type_ref, out);
            let q = match query_kind {
                QueryKind::Virtual => "virtual-query",
                QueryKind::Exported => "exported-query",
            };
            let _ = write!(out, " :query ({q}");
            if let Some(q) = query {
                out.push(' ');
                expr(q, out);
            }
            out.push(')');
            if !o.is_empty() {
                out.push_str(" :ops ");
                ops(o, out);
            }
            out.push_str("})");
        }
        ExprKind::Class {
            name,
            params: ps,
            parent,
            body,
        } => definition("class", name, parent.as_deref(), ps, body, None, out),
        ExprKind::Define {
            name,
            params: ps,
            body,
        } => definition("define", name, None, ps, body, None, out),
        ExprKind::Function {
            name,
            params: ps,
            return_type,
            body,
        } => definition(
            "function",
            name,
            None,
            ps,
            body,
            return_type.as_deref(),
            out,
        ),
        ExprKind::Node {
            host_matches,
            parent,
            body,
        } => {
            out.push_str("(node {:matches ");
            list(host_matches, out);
            if let Some(p) = parent {
                out.push_str(" :parent ");
                expr(p, out);
            }
            if !body.is_empty() {
                body_entry("body", body, out);
            }
            out.push_str("})");
        }
        ExprKind::TypeAlias { name, type_expr } => match &name.kind {
            ExprKind::QRef(n) => {
                out.push_str("(type-alias ");
                quote(n, out);
                out.push(' ');
                expr(type_expr, out);
                out.push(')');
            }
            _ => call("type-mapping", &[name, type_expr], out),
        },
        ExprKind::TypeDefinition { name, parent, body } => {
            out.push_str("(type-definition ");
            quote(name, out);
            out.push(' ');
            match parent {
                Some(p) => quote(p, out),
                None => out.push_str("nil"),
            }
            out.push(' ');
            out.push_str(&program_to_pn(body));
            out.push(')');
        }
    }
}

/// Re-indents PN text for reading (insta snapshots, `--dump --pretty`): a form
/// that fits in `width` stays on one line, otherwise each element goes on a line
/// of its own. Only whitespace changes, so it reads back as the same PN.
pub fn pretty(pn: &str, width: usize) -> String {
    let items = split_forms(pn);
    let mut out = String::with_capacity(pn.len() * 2);
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        layout(item, 0, width, &mut out);
    }
    out
}

/// A PN form: an atom, or an opening bracket, its elements and the closer.
/// In maps, `:key value` counts as one element.
enum Form<'a> {
    Atom(&'a str),
    Group {
        open: &'a str,
        head: Option<&'a str>,
        items: Vec<Form<'a>>,
        close: char,
    },
    Keyed(&'a str, Box<Form<'a>>),
}

fn split_forms(s: &str) -> Vec<Form<'_>> {
    let mut pos = 0;
    let mut out = Vec::new();
    while let Some(f) = read_form(s, &mut pos) {
        out.push(f);
    }
    out
}

fn skip_ws(s: &str, pos: &mut usize) {
    while s[*pos..].starts_with([' ', '\n']) {
        *pos += 1;
    }
}

fn read_form<'a>(s: &'a str, pos: &mut usize) -> Option<Form<'a>> {
    skip_ws(s, pos);
    let rest = &s[*pos..];
    let c = rest.chars().next()?;
    match c {
        ')' | ']' | '}' => None,
        '(' | '[' | '{' => {
            *pos += 1;
            let close = match c {
                '(' => ')',
                '[' => ']',
                _ => '}',
            };
            // A call's name stays with its parenthesis: `(qn "x")`.
            let head = if c == '(' {
                let start = *pos;
                while *pos < s.len() && !s[*pos..].starts_with([' ', ')']) {
                    *pos += 1;
                }
                Some(&s[start..*pos])
            } else {
                None
            };
            let mut items = Vec::new();
            while let Some(f) = read_form(s, pos) {
                items.push(f);
            }
            skip_ws(s, pos);
            if s[*pos..].starts_with(close) {
                *pos += 1;
            }
            let open = match c {
                '(' => "(",
                '[' => "[",
                _ => "{",
            };
            Some(Form::Group {
                open,
                head,
                items,
                close,
            })
        }
        ':' => {
            let start = *pos;
            while *pos < s.len() && !s[*pos..].starts_with(' ') {
                *pos += 1;
            }
            let key = &s[start..*pos];
            let value = read_form(s, pos)?;
            Some(Form::Keyed(key, Box::new(value)))
        }
        '"' => {
            let start = *pos;
            *pos += 1;
            while *pos < s.len() {
                let ch = s[*pos..].chars().next().unwrap_or('"');
                *pos += ch.len_utf8();
                if ch == '\\' {
                    let next = s[*pos..].chars().next().unwrap_or(' ');
                    *pos += next.len_utf8();
                } else if ch == '"' {
                    break;
                }
            }
            Some(Form::Atom(&s[start..*pos]))
        }
        _ => {
            let start = *pos;
            while *pos < s.len() && !s[*pos..].starts_with([' ', ')', ']', '}', '\n']) {
                *pos += 1;
            }
            Some(Form::Atom(&s[start..*pos]))
        }
    }
}

fn flat(f: &Form<'_>, out: &mut String) {
    match f {
        Form::Atom(a) => out.push_str(a),
        Form::Keyed(k, v) => {
            out.push_str(k);
            out.push(' ');
            flat(v, out);
        }
        Form::Group {
            open,
            head,
            items,
            close,
        } => {
            out.push_str(open);
            if let Some(h) = head {
                out.push_str(h);
            }
            for (i, it) in items.iter().enumerate() {
                if i > 0 || head.is_some() {
                    out.push(' ');
                }
                flat(it, out);
            }
            out.push(*close);
        }
    }
}

fn layout(f: &Form<'_>, indent: usize, width: usize, out: &mut String) {
    let mut one_line = String::new();
    flat(f, &mut one_line);
    let line_start = out.rfind('\n').map_or(0, |i| i + 1);
    let column = out[line_start..].chars().count();
    if column + one_line.chars().count() <= width {
        out.push_str(&one_line);
        return;
    }
    match f {
        Form::Atom(a) => out.push_str(a),
        Form::Keyed(k, v) => {
            out.push_str(k);
            out.push(' ');
            layout(v, indent, width, out);
        }
        Form::Group {
            open,
            head,
            items,
            close,
        } => {
            out.push_str(open);
            if let Some(h) = head {
                out.push_str(h);
            }
            for it in items {
                out.push('\n');
                out.push_str(&" ".repeat(indent + 2));
                layout(it, indent + 2, width, out);
            }
            out.push(*close);
        }
    }
}
