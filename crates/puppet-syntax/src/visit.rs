//! Walking the syntax tree: the direct child expressions of a node, in source
//! order. One macro generates the shared and the mutable walker so the two can
//! never disagree about what a child is.

use super::ast::*;

macro_rules! walker {
    ($name:ident, $($mutability:tt)?) => {
        /// Calls `f` on every direct child expression of `e`, in source order.
        pub fn $name<'a>(e: &'a $($mutability)? Expr, f: &mut dyn FnMut(&'a $($mutability)? Expr)) {
            fn params<'a>(ps: &'a $($mutability)? [Parameter], f: &mut dyn FnMut(&'a $($mutability)? Expr)) {
                for p in ps {
                    if let Some(t) = & $($mutability)? p.type_expr {
                        f(t);
                    }
                    if let Some(d) = & $($mutability)? p.default {
                        f(d);
                    }
                }
            }
            fn lambda<'a>(l: &'a $($mutability)? Option<Box<Lambda>>, f: &mut dyn FnMut(&'a $($mutability)? Expr)) {
                if let Some(l) = l {
                    params(& $($mutability)? l.params, f);
                    if let Some(r) = & $($mutability)? l.return_type {
                        f(r);
                    }
                    for s in & $($mutability)? l.body {
                        f(s);
                    }
                }
            }
            fn ops<'a>(os: &'a $($mutability)? [AttributeOp], f: &mut dyn FnMut(&'a $($mutability)? Expr)) {
                for o in os {
                    match o {
                        AttributeOp::Set { value, .. } | AttributeOp::Splat { value, .. } => f(value),
                    }
                }
            }
            match & $($mutability)? e.kind {
                ExprKind::Nop
                | ExprKind::Undef
                | ExprKind::Default
                | ExprKind::Boolean(_)
                | ExprKind::Number(_)
                | ExprKind::Str(_)
                | ExprKind::Regex(_)
                | ExprKind::QName(_)
                | ExprKind::QRef(_)
                | ExprKind::Reserved(_)
                | ExprKind::RenderString(_)
                | ExprKind::Var(_) => {}
                ExprKind::RenderExpr(x) => f(x),
                ExprKind::Epp { params: p, body } => {
                    if let Some(p) = p {
                        params(p, f);
                    }
                    for x in body {
                        f(x);
                    }
                }
                ExprKind::Concat(parts) => {
                    for p in parts {
                        if let StrPart::Expr(x) = p {
                            f(x);
                        }
                    }
                }
                ExprKind::Heredoc { text, .. } => f(text),
                ExprKind::Array(items) | ExprKind::Block(items) => {
                    for x in items {
                        f(x);
                    }
                }
                ExprKind::Hash { entries, .. } => {
                    for h in entries {
                        f(& $($mutability)? h.key);
                        f(& $($mutability)? h.value);
                    }
                }
                ExprKind::Unary { expr, .. } | ExprKind::Paren(expr) => f(expr),
                ExprKind::Binary { lhs, rhs, .. }
                | ExprKind::Assign { lhs, rhs, .. }
                | ExprKind::Relationship { lhs, rhs, .. } => {
                    f(lhs);
                    f(rhs);
                }
                ExprKind::Access { lhs, keys } => {
                    f(lhs);
                    for k in keys {
                        f(k);
                    }
                }
                ExprKind::Selector { lhs, entries } => {
                    f(lhs);
                    for s in entries {
                        f(& $($mutability)? s.matching);
                        f(& $($mutability)? s.value);
                    }
                }
                ExprKind::NamedAccess { lhs, .. } => f(lhs),
                ExprKind::If { test, then, otherwise } | ExprKind::Unless { test, then, otherwise } => {
                    f(test);
                    for x in then {
                        f(x);
                    }
                    if let Some(o) = otherwise {
                        f(o);
                    }
                }
                ExprKind::Case { test, options } => {
                    f(test);
                    for o in options {
                        for v in & $($mutability)? o.values {
                            f(v);
                        }
                        for x in & $($mutability)? o.body {
                            f(x);
                        }
                    }
                }
                ExprKind::CallNamed { functor, args, lambda: l, .. } => {
                    f(functor);
                    for a in args {
                        f(a);
                    }
                    lambda(l, f);
                }
                ExprKind::CallMethod { receiver, args, lambda: l, .. } => {
                    f(receiver);
                    for a in args {
                        f(a);
                    }
                    lambda(l, f);
                }
                ExprKind::Resource { type_name, bodies, .. } => {
                    f(type_name);
                    for b in bodies {
                        f(& $($mutability)? b.title);
                        ops(& $($mutability)? b.ops, f);
                    }
                }
                ExprKind::ResourceDefaults { type_ref: x, ops: o, .. }
                | ExprKind::ResourceOverride { resources: x, ops: o, .. } => {
                    f(x);
                    ops(o, f);
                }
                ExprKind::Collect { type_ref, query, ops: o, .. } => {
                    f(type_ref);
                    if let Some(q) = query {
                        f(q);
                    }
                    ops(o, f);
                }
                ExprKind::Class { params: p, body, .. }
                | ExprKind::Define { params: p, body, .. } => {
                    params(p, f);
                    for x in body {
                        f(x);
                    }
                }
                ExprKind::Node { host_matches, parent, body } => {
                    for h in host_matches {
                        f(h);
                    }
                    if let Some(p) = parent {
                        f(p);
                    }
                    for x in body {
                        f(x);
                    }
                }
                ExprKind::Function { params: p, return_type, body, .. } => {
                    params(p, f);
                    if let Some(r) = return_type {
                        f(r);
                    }
                    for x in body {
                        f(x);
                    }
                }
                ExprKind::TypeAlias { name, type_expr } => {
                    f(name);
                    f(type_expr);
                }
                ExprKind::TypeDefinition { body, .. } => {
                    for x in body {
                        f(x);
                    }
                }
            }
        }
    };
}

walker!(for_each_child,);
walker!(for_each_child_mut, mut);
