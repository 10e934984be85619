//! Delta debugging over the generator's model.
//!
//! Every simplification of an environment has a number, in a fixed walk
//! order (files, then statements, then expressions, outer before inner):
//! remove a file, remove half of a list of statements, remove one
//! statement, one attribute, one parameter, one line of a data file or
//! template; replace an expression by one of its parts or by a literal.
//! [`mutate`] makes the environment with simplification `k` applied.
//! [`reduce`] tries them in batches (so Puppet stays warm) and keeps the
//! first candidate of a batch the predicate still holds for, until a whole
//! pass changes nothing.

use super::ast::{Attr, Body, Env, Expr, Lambda, Part, Query, Stmt};

/// The walk's cursor: counts simplifications until it reaches `target`.
struct Cursor {
    target: usize,
    seen: usize,
    done: bool,
}

impl Cursor {
    /// Offers `n` alternatives at this place; the chosen one, if the target
    /// is among them.
    fn offer(&mut self, n: usize) -> Option<usize> {
        if self.done {
            return None;
        }
        if self.target >= self.seen && self.target < self.seen + n {
            self.done = true;
            let k = self.target - self.seen;
            self.seen += n;
            return Some(k);
        }
        self.seen += n;
        None
    }
}

/// A list: drop its first or second half (lists of 4 and more), drop one
/// element, then walk into each element.
fn list<T>(c: &mut Cursor, xs: &mut Vec<T>, mut inner: impl FnMut(&mut Cursor, &mut T)) {
    if xs.len() >= 4 {
        if let Some(k) = c.offer(2) {
            let half = xs.len() / 2;
            if k == 0 {
                xs.drain(..half);
            } else {
                xs.truncate(half);
            }
            return;
        }
    }
    for i in 0..xs.len() {
        if c.offer(1).is_some() {
            xs.remove(i);
            return;
        }
    }
    for x in xs.iter_mut() {
        if c.done {
            return;
        }
        inner(c, x);
    }
}

fn walk_env(c: &mut Cursor, env: &mut Env) {
    // Whole files first (never the site manifest).
    for i in 1..env.files.len() {
        if c.offer(1).is_some() {
            env.files.remove(i);
            return;
        }
    }
    for (_, body) in env.files.iter_mut() {
        if c.done {
            return;
        }
        match body {
            Body::Manifest(items) => stmts(c, items),
            Body::Lines(lines) => list(c, lines, |_, _| {}),
        }
    }
}

/// The bodies a compound statement could be replaced by.
fn inner_bodies(s: &Stmt) -> Vec<Vec<Stmt>> {
    match s {
        Stmt::If { then, els, .. } => {
            let mut v = vec![then.clone()];
            v.extend(els.clone());
            v
        }
        Stmt::Case(_, arms) => arms.iter().map(|(_, b)| b.clone()).collect(),
        Stmt::Node(_, b) => vec![b.clone()],
        _ => Vec::new(),
    }
}

fn stmts(c: &mut Cursor, items: &mut Vec<Stmt>) {
    // A compound statement replaced by one of its bodies, spliced in.
    for i in 0..items.len() {
        let bodies = inner_bodies(&items[i]);
        if bodies.is_empty() {
            continue;
        }
        if let Some(k) = c.offer(bodies.len()) {
            let body = bodies.into_iter().nth(k).unwrap_or_default();
            items.splice(i..=i, body);
            return;
        }
    }
    list(c, items, stmt);
}

fn attrs(c: &mut Cursor, a: &mut Vec<Attr>) {
    list(c, a, |c, a| expr(c, &mut a.value));
}

fn stmt(c: &mut Cursor, s: &mut Stmt) {
    if let Stmt::Resource { virt, .. } = s {
        if !virt.is_empty() && c.offer(1).is_some() {
            *virt = "";
            return;
        }
    }
    match s {
        Stmt::Assign(_, e) | Stmt::Expr(e) => expr(c, e),
        Stmt::Resource {
            title, attrs: a, ..
        } => {
            attrs(c, a);
            expr(c, title);
        }
        Stmt::Defaults(_, a) => attrs(c, a),
        Stmt::Override(e, a) => {
            attrs(c, a);
            expr(c, e);
        }
        Stmt::Collect(e, a) => {
            if a.is_some() && c.offer(1).is_some() {
                *a = None;
                return;
            }
            if let Some(a) = a {
                attrs(c, a);
            }
            expr(c, e);
        }
        Stmt::Chain(items, ops) => {
            // Drop an operand (and an operator), keeping two.
            if items.len() > 2 {
                if let Some(k) = c.offer(items.len()) {
                    items.remove(k);
                    ops.remove(k.min(ops.len() - 1));
                    return;
                }
            }
            for it in items.iter_mut() {
                if c.done {
                    return;
                }
                stmt(c, it);
            }
        }
        Stmt::If {
            cond, then, els, ..
        } => {
            if els.is_some() && c.offer(1).is_some() {
                *els = None;
                return;
            }
            stmts(c, then);
            if let Some(e) = els {
                stmts(c, e);
            }
            expr(c, cond);
        }
        Stmt::Case(subject, arms) => {
            list(c, arms, |c, (opts, body)| {
                if opts.len() > 1 {
                    list(c, opts, expr);
                }
                stmts(c, body);
            });
            expr(c, subject);
        }
        Stmt::Class {
            params,
            inherits,
            body,
            ..
        } => {
            if inherits.is_some() && c.offer(1).is_some() {
                *inherits = None;
                return;
            }
            stmts(c, body);
            list(c, params, |c, p| {
                if (p.ty.is_some() || p.default.is_some()) && c.offer(1).is_some() {
                    if p.ty.is_some() {
                        p.ty = None;
                    } else {
                        p.default = None;
                    }
                    return;
                }
                if let Some(d) = &mut p.default {
                    expr(c, d);
                }
            });
        }
        Stmt::Define { params, body, .. } => {
            stmts(c, body);
            list(c, params, |c, p| {
                if (p.ty.is_some() || p.default.is_some()) && c.offer(1).is_some() {
                    if p.ty.is_some() {
                        p.ty = None;
                    } else {
                        p.default = None;
                    }
                    return;
                }
                if let Some(d) = &mut p.default {
                    expr(c, d);
                }
            });
        }
        Stmt::Node(_, body) => stmts(c, body),
    }
}

fn lambda(c: &mut Cursor, l: &mut Lambda) {
    // Keep the last statement (the lambda's value).
    if l.body.len() > 1 {
        let last = l.body.pop();
        stmts(c, &mut l.body);
        l.body.extend(last);
        if c.done {
            return;
        }
    }
    if let Some(last) = l.body.last_mut() {
        stmt(c, last);
    }
}

/// Simpler replacements of an expression: its parts, then literals.
fn parts(e: &Expr) -> Vec<Expr> {
    let mut out: Vec<Expr> = match e {
        Expr::Bin(_, l, r) => vec![(**l).clone(), (**r).clone()],
        Expr::Un(_, x) | Expr::Paren(x) => vec![(**x).clone()],
        Expr::Access(r, idx) => {
            let mut v = vec![(**r).clone()];
            v.extend(idx.iter().cloned());
            v
        }
        Expr::Call(_, args, _) => args.clone(),
        Expr::Method(r, _, args, _) => {
            let mut v = vec![(**r).clone()];
            v.extend(args.iter().cloned());
            v
        }
        Expr::Sel(s, arms) => {
            let mut v = vec![(**s).clone()];
            v.extend(arms.iter().map(|(_, v)| v.clone()));
            v
        }
        Expr::Str(ps) => ps
            .iter()
            .filter_map(|p| match p {
                Part::Expr(e) => Some(e.clone()),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    };
    let simple = Expr::Lit("1".into());
    if !matches!(e, Expr::Lit(_) | Expr::Collect(..)) {
        out.push(simple);
        out.push(Expr::Lit("'s'".into()));
    }
    out.retain(|x| !matches!(x, Expr::Un("*", _)) || matches!(e, Expr::Array(_)));
    out
}

fn expr(c: &mut Cursor, e: &mut Expr) {
    let alts = parts(e);
    if let Some(k) = c.offer(alts.len()) {
        *e = alts.into_iter().nth(k).unwrap_or(Expr::Lit("1".into()));
        return;
    }
    match e {
        Expr::Lit(_) => {}
        Expr::Str(ps) => list(c, ps, |c, p| {
            if let Part::Expr(e) = p {
                expr(c, e);
            }
        }),
        Expr::Array(xs) => list(c, xs, expr),
        Expr::Hash(xs) => list(c, xs, |c, (k, v)| {
            expr(c, v);
            expr(c, k);
        }),
        Expr::Bin(_, l, r) => {
            expr(c, l);
            expr(c, r);
        }
        Expr::Un(_, x) | Expr::Paren(x) => expr(c, x),
        Expr::Access(r, idx) => {
            if idx.len() > 1 {
                list(c, idx, expr);
            } else if let Some(i) = idx.first_mut() {
                expr(c, i);
            }
            expr(c, r);
        }
        Expr::Call(_, args, l) => {
            list(c, args, expr);
            if let Some(l) = l {
                lambda(c, l);
            }
        }
        Expr::Method(r, _, args, l) => {
            list(c, args, expr);
            if let Some(l) = l {
                lambda(c, l);
            }
            expr(c, r);
        }
        Expr::Sel(s, arms) => {
            list(c, arms, |c, (k, v)| {
                expr(c, v);
                expr(c, k);
            });
            expr(c, s);
        }
        Expr::Collect(_, q) => {
            if q.is_some() && c.offer(1).is_some() {
                *q = None;
                return;
            }
            if let Some(q) = q {
                query(c, q);
            }
        }
    }
}

fn query(c: &mut Cursor, q: &mut Query) {
    match q {
        Query::And(a, b) | Query::Or(a, b) => {
            if let Some(k) = c.offer(2) {
                *q = if k == 0 { (**a).clone() } else { (**b).clone() };
                return;
            }
            query(c, a);
            query(c, b);
        }
        Query::Paren(a) => {
            if c.offer(1).is_some() {
                *q = (**a).clone();
                return;
            }
            query(c, a);
        }
        Query::Cmp(_, _, v) => expr(c, v),
    }
}

/// The number of simplifications of `env`.
pub fn sites(env: &Env) -> usize {
    let mut c = Cursor {
        target: usize::MAX,
        seen: 0,
        done: false,
    };
    let mut copy = env.clone();
    walk_env(&mut c, &mut copy);
    c.seen
}

/// `env` with simplification `k` applied, if there is one.
pub fn mutate(env: &Env, k: usize) -> Option<Env> {
    let mut c = Cursor {
        target: k,
        seen: 0,
        done: false,
    };
    let mut copy = env.clone();
    walk_env(&mut c, &mut copy);
    (c.done && copy != *env).then_some(copy)
}

/// Shrinks `env` while `holds` says so. `holds` gets a batch of candidates
/// and answers for each; `batch` is the batch size, `max_rounds` bounds the
/// number of batches tried.
pub fn reduce(
    env: &Env,
    batch: usize,
    max_rounds: usize,
    holds: &mut dyn FnMut(&[Env]) -> Vec<bool>,
) -> (Env, usize) {
    let mut cur = env.clone();
    let mut rounds = 0;
    loop {
        let mut changed = false;
        let mut k = 0;
        while k < sites(&cur) {
            if rounds >= max_rounds {
                return (cur, rounds);
            }
            let n = sites(&cur);
            let mut idx = Vec::new();
            let mut cands = Vec::new();
            let mut j = k;
            while j < n && cands.len() < batch {
                if let Some(m) = mutate(&cur, j) {
                    idx.push(j);
                    cands.push(m);
                }
                j += 1;
            }
            if cands.is_empty() {
                break;
            }
            rounds += 1;
            let verdicts = holds(&cands);
            match verdicts.iter().position(|&b| b) {
                Some(p) => {
                    cur = cands.swap_remove(p);
                    k = idx[p];
                    changed = true;
                }
                None => k = j,
            }
        }
        if !changed {
            return (cur, rounds);
        }
    }
}
