//! The checks Puppet applies after parsing (`pops/validation/checker4_0.rb`),
//! with its messages and positions. Puppet walks its model depth first, checking
//! each element with the chain of its containers at hand; this walker does the
//! same over our tree, modelling the `BlockExpression`s Puppet's model has where
//! our tree keeps a plain list of statements.
//!
//! Checks that need the environment (a module file's namespace) are applied by
//! the loader, not here.

use super::ast::*;
use super::error::RawError;
use super::location::FileNamespace;

/// Every validation error of a program, in the order Puppet finds them
/// (the caller reports them as `IssueReporter.assert_and_report` does).
pub fn check(program: &Program, namespace: &FileNamespace) -> Vec<RawError> {
    check_all(program, namespace).0
}

/// [`check`]'s errors, and the issues whose severity `strict` decides
/// (see [`crate::strictness`]).
pub fn check_all(program: &Program, namespace: &FileNamespace) -> (Vec<RawError>, Vec<RawError>) {
    let mut c = Checker {
        path: vec![Ctx::Program],
        errors: Vec::new(),
        crash: None,
        strict_issues: Vec::new(),
        namespace,
        file: &program.path,
    };
    // Puppet checks the top level of a module file before anything else.
    if *namespace != FileNamespace::Unrestricted {
        for s in &program.body {
            let definition = is_definition(s) && !matches!(s.kind, ExprKind::Node { .. });
            if !definition {
                c.accept(
                    at(s),
                    format!(
                        "This {} is unacceptable as a top level construct in this location",
                        label(s)
                    ),
                );
            }
        }
    }
    c.statements(&program.body, BodyKind::Program);
    match c.crash {
        Some(crash) => (vec![crash], c.strict_issues),
        None => (c.errors, c.strict_issues),
    }
}

/// A container on the path from the program to the element being checked.
#[derive(Clone, Copy)]
enum Ctx<'a> {
    Program,
    Block,
    Expr(&'a Expr),
    ResourceBody,
    CaseOption,
    Lambda,
    Parameter,
    Entry,
}

/// How Puppet's model holds a list of statements.
#[derive(Clone, Copy, PartialEq, Eq)]
enum BodyKind {
    /// A program: a block only when there are several statements.
    Program,
    /// `if`/`else` branches: likewise (`block_or_expression`).
    Branch,
    /// Definition, lambda and case option bodies: always a block (`f_build_body`).
    Body,
}

struct Checker<'a> {
    path: Vec<Ctx<'a>>,
    errors: Vec<RawError>,
    /// Ruby's exception from inside Puppet's checker, which ends the check:
    /// it alone is reported.
    crash: Option<RawError>,
    strict_issues: Vec<RawError>,
    namespace: &'a FileNamespace,
    file: &'a str,
}

fn at(e: &Expr) -> usize {
    e.span.start as usize
}

/// Puppet's model label of an expression (`model_label_provider.rb`).
pub fn label(e: &Expr) -> String {
    let op = |s: &str| format!("'{s}' expression");
    match &e.kind {
        ExprKind::Nop => "Nop Expression".into(),
        ExprKind::Undef => op("undef"),
        ExprKind::Default => op("default"),
        ExprKind::Boolean(_) => "Boolean".into(),
        ExprKind::Number(Number::Float(_)) => "Literal Float".into(),
        ExprKind::Number(_) => "Literal Integer".into(),
        ExprKind::Str(_) => "String".into(),
        ExprKind::Concat(_) => "Double Quoted String".into(),
        ExprKind::Heredoc { syntax, .. } => format!("'@({syntax})' expression"),
        ExprKind::Regex(_) => "Regular Expression".into(),
        ExprKind::QName(_) => "Name".into(),
        ExprKind::QRef(_) => "Type-Name".into(),
        ExprKind::Reserved(w) => format!("Reserved Word '{w}'"),
        ExprKind::Var(_) => "Variable".into(),
        ExprKind::Array(_) => "Array Expression".into(),
        ExprKind::Hash { .. } => "Hash Expression".into(),
        ExprKind::Unary { op: u, .. } => match u {
            UnaryOp::Neg => "Unary Minus".into(),
            UnaryOp::Not => op("not"),
            UnaryOp::Splat => "Unfold".into(),
        },
        ExprKind::Binary { op: b, .. } => op(super::pn::binary_op_text(*b)),
        ExprKind::Assign { op: a, .. } => op(match a {
            AssignOp::Assign => "=",
            AssignOp::Append => "+=",
            AssignOp::Delete => "-=",
        }),
        ExprKind::Relationship { op: r, .. } => op(match r {
            RelationOp::Before => "->",
            RelationOp::Notify => "~>",
            RelationOp::Require => "<-",
            RelationOp::Subscribe => "<~",
        }),
        ExprKind::Access { .. } => op("[]"),
        ExprKind::Selector { .. } => "Selector Expression".into(),
        ExprKind::Paren(_) => "Parenthesized Expression".into(),
        ExprKind::NamedAccess { .. } => op("."),
        ExprKind::Block(_) => "Block Expression".into(),
        ExprKind::If { .. } => "'if' statement".into(),
        ExprKind::Unless { .. } => "'unless' Statement".into(),
        ExprKind::Case { .. } => "'case' statement".into(),
        ExprKind::CallNamed { .. } => "Function Call".into(),
        ExprKind::CallMethod { .. } => "Method call".into(),
        ExprKind::Resource { .. } => "Resource Statement".into(),
        ExprKind::ResourceDefaults { .. } => "Resource Defaults Expression".into(),
        ExprKind::ResourceOverride { .. } => "Resource Override".into(),
        ExprKind::Collect { query_kind, .. } => match query_kind {
            QueryKind::Virtual => "Virtual Query".into(),
            QueryKind::Exported => "Exported Query".into(),
        },
        ExprKind::Class { .. } => "Host Class Definition".into(),
        ExprKind::Define { .. } => op("define"),
        ExprKind::Node { .. } => "Node Definition".into(),
        ExprKind::Function { .. } => "Function Definition".into(),
        ExprKind::TypeAlias { name, .. } => match name.kind {
            ExprKind::QRef(_) => "Type Alias".into(),
            _ => "Type Mapping".into(),
        },
        ExprKind::TypeDefinition { .. } => "Type Definition".into(),
        ExprKind::Epp { .. } => "Epp Template".into(),
        ExprKind::RenderString(_) => "Epp Text".into(),
        ExprKind::RenderExpr(_) => "Epp Interpolated Expression".into(),
    }
}

/// `a`/`an` by the first letter, skipping a quote (`label_provider.rb`).
pub fn a_an(text: &str) -> String {
    let mut chars = text.chars();
    let mut first = chars.next().unwrap_or('x');
    if first == '\'' || first == '"' {
        first = chars.next().unwrap_or('x');
    }
    let article = if "aeiouy".contains(first.to_ascii_lowercase()) {
        "an"
    } else {
        "a"
    };
    format!("{article} {text}")
}

pub fn a_an_uc(text: &str) -> String {
    let s = a_an(text);
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => s,
    }
}

/// A class, define, function, node, type alias or type definition.
pub fn is_definition(e: &Expr) -> bool {
    matches!(
        e.kind,
        ExprKind::Class { .. }
            | ExprKind::Define { .. }
            | ExprKind::Function { .. }
            | ExprKind::Node { .. }
            | ExprKind::TypeAlias { .. }
            | ExprKind::TypeDefinition { .. }
    )
}

/// Puppet's `idem`: does evaluating this only produce a value?
fn idem(e: &Expr) -> bool {
    match &e.kind {
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
        | ExprKind::Array(_)
        | ExprKind::Hash { .. }
        | ExprKind::Access { .. }
        | ExprKind::Var(_)
        | ExprKind::Unary { .. }
        | ExprKind::Concat(_)
        | ExprKind::Heredoc { .. }
        | ExprKind::Selector { .. }
        | ExprKind::NamedAccess { .. } => true,
        ExprKind::Binary { op, .. } => !matches!(op, BinaryOp::Match | BinaryOp::NotMatch),
        ExprKind::Paren(x) => idem(x),
        ExprKind::Block(stmts) => stmts.iter().all(idem),
        ExprKind::If {
            test,
            then,
            otherwise,
        }
        | ExprKind::Unless {
            test,
            then,
            otherwise,
        } => idem(test) && branch_idem(then) && otherwise.as_deref().is_none_or(idem),
        ExprKind::Case { test, options } => {
            idem(test)
                && options
                    .iter()
                    .all(|o| o.values.iter().all(idem) && o.body.iter().all(idem))
        }
        _ => false,
    }
}

fn branch_idem(stmts: &[Expr]) -> bool {
    stmts.iter().all(idem)
}

/// `name { a => 1 }` parsed as a name followed by a hash: Puppet's
/// `resource_without_title?`.
fn resource_without_title(stmts: &[Expr]) -> Option<&str> {
    match stmts {
        [Expr {
            kind: ExprKind::QName(n),
            ..
        }, Expr {
            kind: ExprKind::Hash { .. },
            ..
        }] => Some(n),
        _ => None,
    }
}

fn is_classref_decl(name: &str) -> bool {
    // \A[a-z][\w]*(?:::[a-z][\w]*)*\z
    name.split("::").all(|seg| {
        let mut b = seg.bytes();
        matches!(b.next(), Some(b'a'..=b'z')) && b.all(|c| c.is_ascii_alphanumeric() || c == b'_')
    })
}

fn is_classref_ext_decl(name: &str) -> bool {
    // \A[A-Z][\w]*(?:::[A-Z][\w]*)*\z
    name.split("::").all(|seg| {
        let mut b = seg.bytes();
        matches!(b.next(), Some(b'A'..=b'Z')) && b.all(|c| c.is_ascii_alphanumeric() || c == b'_')
    })
}

const RESERVED_TYPE_NAMES: &[&str] = &[
    "type",
    "any",
    "unit",
    "scalar",
    "boolean",
    "numeric",
    "integer",
    "float",
    "collection",
    "array",
    "hash",
    "tuple",
    "struct",
    "variant",
    "optional",
    "enum",
    "regexp",
    "pattern",
    "runtime",
    "init",
    "object",
    "sensitive",
    "semver",
    "semverrange",
    "string",
    "timestamp",
    "timespan",
    "typeset",
];

fn is_numeric_var_name(name: &str) -> bool {
    // \A(?:0|(?:[1-9][0-9]*))\z
    name == "0"
        || (name.starts_with(|c: char| ('1'..='9').contains(&c))
            && name.bytes().all(|c| c.is_ascii_digit()))
}

fn is_var_name(name: &str) -> bool {
    // \A(?:::)?(?:[a-z]\w*::)*[a-z_]\w*\z
    let n = name.strip_prefix("::").unwrap_or(name);
    let segs: Vec<&str> = n.split("::").collect();
    let word = |s: &str, first: fn(u8) -> bool| {
        let mut b = s.bytes();
        b.next().is_some_and(first) && b.all(|c| c.is_ascii_alphanumeric() || c == b'_')
    };
    let (last, init) = match segs.split_last() {
        Some(x) => x,
        None => return false,
    };
    init.iter().all(|s| word(s, |c| c.is_ascii_lowercase()))
        && word(last, |c| c.is_ascii_lowercase() || c == b'_')
}

fn is_param_name(name: &str) -> bool {
    // \A[a-z_]\w*\z
    let mut b = name.bytes();
    b.next()
        .is_some_and(|c| c.is_ascii_lowercase() || c == b'_')
        && b.all(|c| c.is_ascii_alphanumeric() || c == b'_')
}

/// Puppet's `"%#+x"` of an out-of-range integer literal.
fn overflow_hex(text: &str) -> Option<(bool, String)> {
    let t = text.to_ascii_lowercase();
    let v: u128 = if let Some(h) = t.strip_prefix("0x") {
        u128::from_str_radix(h, 16).ok()?
    } else if t.len() > 1 && t.starts_with('0') {
        u128::from_str_radix(&t[1..], 8).ok()?
    } else {
        t.parse().ok()?
    };
    Some((true, format!("+{v:#x}")))
}

impl<'a> Checker<'a> {
    fn accept(&mut self, offset: usize, message: impl Into<String>) {
        self.errors.push(RawError::at(offset, message));
    }

    fn container(&self, back: usize) -> Option<Ctx<'a>> {
        self.path.len().checked_sub(back + 1).map(|i| self.path[i])
    }

    /// A list of statements, with the block Puppet's model would put around it.
    fn statements(&mut self, stmts: &'a [Expr], kind: BodyKind) {
        let is_block = match kind {
            BodyKind::Body => !stmts.is_empty(),
            BodyKind::Program | BodyKind::Branch => stmts.len() > 1,
        };
        if is_block {
            self.check_block(stmts);
            self.path.push(Ctx::Block);
        }
        for s in stmts {
            self.walk(s);
        }
        if is_block {
            self.path.pop();
        }
    }

    fn check_block(&mut self, stmts: &'a [Expr]) {
        if let Some(name) = resource_without_title(stmts) {
            self.accept(
                at(&stmts[0]),
                format!("This expression is invalid. Did you try declaring a '{name}' resource without a title?"),
            );
            return;
        }
        if let Some((_, init)) = stmts.split_last() {
            if let Some(s) = init.iter().find(|s| idem(s)) {
                self.accept(
                    at(s),
                    format!(
                        "This {} has no effect. A value was produced and then forgotten (one or more preceding expressions may have the wrong form)",
                        label(s)
                    ),
                );
            }
        }
    }

    fn walk(&mut self, e: &'a Expr) {
        self.check(e);
        self.path.push(Ctx::Expr(e));
        match &e.kind {
            ExprKind::Block(stmts) => {
                // Our own blocks: an `else` branch, or `name {...}` as two statements.
                self.path.pop();
                self.statements(stmts, BodyKind::Branch);
                return;
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
                self.walk(test);
                self.statements(then, BodyKind::Branch);
                if let Some(o) = otherwise {
                    self.walk(o);
                }
            }
            ExprKind::Case { test, options } => {
                self.walk(test);
                for o in options {
                    self.path.push(Ctx::CaseOption);
                    for v in &o.values {
                        self.rvalue(v);
                        self.walk(v);
                    }
                    self.statements(&o.body, BodyKind::Body);
                    self.path.pop();
                }
            }
            ExprKind::Class { params, body, .. } | ExprKind::Define { params, body, .. } => {
                self.params(params);
                self.statements(body, BodyKind::Body);
            }
            ExprKind::Function {
                params,
                return_type,
                body,
                ..
            } => {
                self.params(params);
                self.statements(body, BodyKind::Body);
                if let Some(r) = return_type {
                    self.walk(r);
                }
            }
            ExprKind::Node {
                host_matches,
                parent,
                body,
            } => {
                for h in host_matches {
                    self.walk(h);
                }
                if let Some(p) = parent {
                    self.walk(p);
                }
                self.statements(body, BodyKind::Body);
            }
            ExprKind::CallNamed {
                functor,
                args,
                lambda,
                ..
            } => {
                self.walk(functor);
                for a in args {
                    self.walk(a);
                }
                if let Some(l) = lambda {
                    self.lambda(l);
                }
            }
            ExprKind::CallMethod {
                receiver,
                args,
                lambda,
                ..
            } => {
                self.walk(receiver);
                for a in args {
                    self.walk(a);
                }
                if let Some(l) = lambda {
                    self.lambda(l);
                }
            }
            ExprKind::Resource {
                bodies, type_name, ..
            } => {
                self.walk(type_name);
                for b in bodies {
                    self.path.push(Ctx::ResourceBody);
                    self.check_resource_body(&b.ops);
                    self.walk(&b.title);
                    self.ops(&b.ops);
                    self.path.pop();
                }
            }
            ExprKind::ResourceDefaults {
                type_ref: x, ops, ..
            }
            | ExprKind::ResourceOverride {
                resources: x, ops, ..
            } => {
                self.walk(x);
                self.ops(ops);
            }
            ExprKind::Collect {
                type_ref,
                query,
                ops,
                ..
            } => {
                self.walk(type_ref);
                if let Some(q) = query {
                    self.query(q);
                    self.walk(q);
                }
                self.ops(ops);
            }
            ExprKind::Hash { entries, .. } => {
                crate::strictness::duplicate_keys(entries, &mut self.strict_issues);
                for h in entries {
                    self.path.push(Ctx::Entry);
                    self.rvalue(&h.key);
                    self.rvalue(&h.value);
                    self.walk(&h.key);
                    self.walk(&h.value);
                    self.path.pop();
                }
            }
            ExprKind::Epp { params, body } => {
                self.path.push(Ctx::Lambda);
                if let Some(params) = params {
                    self.no_capture(params, e);
                    self.unique_params(params);
                    self.params(params);
                }
                // Puppet's `EppExpression` holds its statements in a block, even one.
                self.statements(body, BodyKind::Body);
                self.path.pop();
            }
            ExprKind::Selector { lhs, entries } => {
                self.walk(lhs);
                for s in entries {
                    self.path.push(Ctx::Entry);
                    self.rvalue(&s.matching);
                    self.walk(&s.matching);
                    self.walk(&s.value);
                    self.path.pop();
                }
            }
            _ => super::visit::for_each_child(e, &mut |c| self.walk(c)),
        }
        self.path.pop();
    }

    fn params(&mut self, params: &'a [Parameter]) {
        for p in params {
            self.path.push(Ctx::Parameter);
            self.check_parameter(p);
            if let Some(t) = &p.type_expr {
                self.walk(t);
            }
            if let Some(d) = &p.default {
                self.walk(d);
            }
            self.path.pop();
        }
    }

    fn lambda(&mut self, l: &'a Lambda) {
        if let Some(last) = l.params.len().checked_sub(1) {
            for (i, p) in l.params.iter().enumerate() {
                if p.captures_rest && i != last {
                    self.accept(
                        p.span.start as usize,
                        format!("Parameter ${} is not last, and has 'captures rest'", p.name),
                    );
                }
            }
        }
        if let Some(r) = &l.return_type {
            self.type_ref(r, "Lambda");
        }
        self.path.push(Ctx::Lambda);
        self.params(&l.params);
        if let Some(r) = &l.return_type {
            self.walk(r);
        }
        self.statements(&l.body, BodyKind::Body);
        self.path.pop();
    }

    fn ops(&mut self, ops: &'a [AttributeOp]) {
        for op in ops {
            match op {
                AttributeOp::Set {
                    name,
                    append,
                    value,
                    span,
                } => {
                    if *append {
                        let parent = self.container(0);
                        let allowed = matches!(
                            parent,
                            Some(Ctx::Expr(Expr {
                                kind: ExprKind::Collect { .. } | ExprKind::ResourceOverride { .. },
                                ..
                            }))
                        );
                        if !allowed {
                            let parent_label = match parent {
                                Some(Ctx::Expr(p)) => label(p),
                                Some(Ctx::ResourceBody) => "Resource Instance Definition".into(),
                                _ => "Object".into(),
                            };
                            self.accept(
                                span.start as usize,
                                format!(
                                    "Illegal +> operation on attribute {name}. This operator can not be used in {}",
                                    a_an(&parent_label)
                                ),
                            );
                        }
                    }
                    self.rvalue(value);
                    self.walk(value);
                }
                AttributeOp::Splat { value, .. } => {
                    self.rvalue(value);
                    self.walk(value);
                }
            }
        }
    }

    fn check_resource_body(&mut self, ops: &[AttributeOp]) {
        let mut unfolds = ops.iter().filter_map(|o| match o {
            AttributeOp::Splat { span, .. } => Some(span),
            _ => None,
        });
        unfolds.next();
        if let Some(second) = unfolds.next() {
            self.accept(
                second.start as usize,
                "Unfolding of attributes from Hash can only be used once per resource body",
            );
        }
    }

    fn check_parameter(&mut self, p: &'a Parameter) {
        let pos = p.span.start as usize;
        let numeric = {
            let n = p.name.strip_prefix("0x").unwrap_or(&p.name);
            !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit())
        };
        if numeric {
            self.accept(
                pos,
                format!(
                    "The numeric parameter name '${}' cannot be used (clashes with numeric match result variables)",
                    p.name
                ),
            );
        }
        if !is_param_name(&p.name) {
            self.accept(
                pos,
                format!(
                    "Illegal parameter name. The given name '{}' does not conform to the naming rule /^[a-z_]\\w*$/",
                    p.name
                ),
            );
        }
        if let Some(d) = &p.default {
            if let Some(assign) = find_assignment(d) {
                self.accept(at(assign), "Assignment not allowed here");
            }
        }
    }

    /// A definition's place: Puppet's `top`.
    fn top(&mut self, def: &Expr) {
        let mut back = 0;
        loop {
            match self.container(back) {
                None | Some(Ctx::Program) => return,
                Some(Ctx::Expr(Expr {
                    kind: ExprKind::Class { .. },
                    ..
                })) => return,
                Some(Ctx::Block) => {
                    let above = self.container(back + 1);
                    let absolute_only = matches!(
                        def.kind,
                        ExprKind::Function { .. }
                            | ExprKind::TypeAlias { .. }
                            | ExprKind::TypeDefinition { .. }
                    );
                    if !matches!(above, Some(Ctx::Program)) && absolute_only {
                        self.accept(
                            at(def),
                            format!("{} may only appear at toplevel", a_an_uc(&label(def))),
                        );
                        return;
                    }
                    back += 1;
                }
                Some(_) => {
                    self.accept(
                        at(def),
                        "Classes, definitions, and nodes may only appear at toplevel or inside other classes",
                    );
                    return;
                }
            }
        }
    }

    fn named_definition(&mut self, e: &Expr, name: &str) {
        self.top(e);
        if !is_classref_decl(name) {
            self.accept(
                at(e),
                format!(
                    "Unacceptable name. The name '{name}' is unacceptable as the name of {}",
                    a_an(&label(e))
                ),
            );
        }
        let misplaced = match self.namespace {
            FileNamespace::Unrestricted => false,
            FileNamespace::BadModuleFile => true,
            FileNamespace::Name(ns) => !name.to_lowercase().starts_with(ns.as_str()),
        };
        if misplaced {
            self.accept(
                at(e),
                format!(
                    "Unacceptable location. The name '{name}' is unacceptable in file '{}'",
                    self.file
                ),
            );
        }
        self.reserved_type_name(e, name);
    }

    fn reserved_type_name(&mut self, e: &Expr, name: &str) {
        if RESERVED_TYPE_NAMES.contains(&name) {
            self.accept(
                at(e),
                format!(
                    "The name: '{name}' is already defined by Puppet and can not be used as the name of {}.",
                    a_an(&label(e))
                ),
            );
        }
    }

    fn no_capture(&mut self, params: &[Parameter], container: &Expr) {
        for p in params.iter().filter(|p| p.captures_rest) {
            self.accept(
                p.span.start as usize,
                format!(
                    "Parameter ${} has 'captures rest' - not supported in {}",
                    p.name,
                    a_an(&label(container))
                ),
            );
        }
    }

    fn unique_params(&mut self, params: &[Parameter]) {
        let mut seen = rustc_hash::FxHashSet::default();
        for p in params {
            if !seen.insert(&*p.name) {
                self.accept(
                    p.span.start as usize,
                    format!(
                        "The parameter '{}' is declared more than once in the parameter list",
                        p.name
                    ),
                );
            }
        }
    }

    fn reserved_params(&mut self, params: &[Parameter], container: &Expr) {
        for p in params {
            if &*p.name == "name" || &*p.name == "title" {
                self.accept(
                    p.span.start as usize,
                    format!(
                        "The parameter ${} redefines a built in parameter in the {}",
                        p.name,
                        label(container)
                    ),
                );
            }
        }
    }

    fn no_idem_last(&mut self, body: &[Expr], container: &Expr) {
        if resource_without_title(body).is_some() {
            return;
        }
        if let Some(last) = body.last() {
            if idem(last) {
                self.accept(
                    at(last),
                    format!(
                        "This {} has no effect. {} can not end with a value-producing expression without other effect",
                        label(last),
                        a_an_uc(&label(container))
                    ),
                );
            }
        }
    }

    fn type_ref(&mut self, r: &Expr, container_label: &str) {
        let n = match &r.kind {
            ExprKind::Access { lhs, .. } => lhs,
            _ => r,
        };
        if !matches!(n.kind, ExprKind::QRef(_)) {
            self.accept(
                at(r),
                format!(
                    "Illegal expression. {} is unacceptable as a type reference in {}",
                    a_an_uc(&label(r)),
                    a_an(container_label)
                ),
            );
        }
    }

    fn rvalue(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Collect { .. } => self.accept(
                at(e),
                format!(
                    "Invalid use of expression. {} does not produce a value",
                    a_an_uc(&label(e))
                ),
            ),
            _ if is_definition(e) => self.accept(
                at(e),
                format!(
                    "Invalid use of expression. {} does not produce a value",
                    a_an_uc(&label(e))
                ),
            ),
            ExprKind::Unary { expr, .. } | ExprKind::Paren(expr) => self.rvalue(expr),
            _ => {}
        }
    }

    fn assign(&mut self, e: &Expr, via_index: bool) {
        match &e.kind {
            ExprKind::Var(name) => {
                if is_numeric_var_name(name) {
                    self.accept(
                        at(e),
                        format!(
                            "Illegal attempt to assign to the numeric match result variable '${name}'. Numeric variables are not assignable"
                        ),
                    );
                }
                if name.contains("::") {
                    self.accept(
                        at(e),
                        format!(
                            "Illegal attempt to assign to '{name}'. Cannot assign to variables in other namespaces"
                        ),
                    );
                }
            }
            ExprKind::Access { .. } => self.accept(
                at(e),
                "Illegal attempt to assign via [index/key]. Not an assignable reference",
            ),
            ExprKind::Array(items) => {
                for x in items {
                    self.assign(x, false);
                }
            }
            _ => {
                let msg = if via_index {
                    format!(
                        "Illegal attempt to assign to {} via [index/key]. Not an assignable reference",
                        a_an(&label(e))
                    )
                } else {
                    format!(
                        "Illegal attempt to assign to '{}'. Not an assignable reference",
                        a_an(&label(e))
                    )
                };
                self.accept(at(e), msg);
            }
        }
    }

    fn query(&mut self, e: &Expr) {
        let illegal = |c: &mut Self| {
            c.accept(
                at(e),
                format!(
                    "Illegal query expression. {} cannot be used in a query",
                    a_an_uc(&label(e))
                ),
            )
        };
        match &e.kind {
            ExprKind::Binary { op, lhs, rhs } => match op {
                BinaryOp::Eq | BinaryOp::Ne => {}
                BinaryOp::And | BinaryOp::Or => {
                    self.query(lhs);
                    self.query(rhs);
                }
                _ => illegal(self),
            },
            ExprKind::Paren(x) => self.query(x),
            ExprKind::Var(_)
            | ExprKind::QName(_)
            | ExprKind::Number(_)
            | ExprKind::Str(_)
            | ExprKind::Boolean(_) => {}
            _ => illegal(self),
        }
    }

    fn hostname(&mut self, h: &Expr, node: &Expr) {
        let chars = |c: &mut Self, text: &str, at_: usize| {
            if text
                .chars()
                .any(|ch| !(ch.is_ascii_alphanumeric() || ch == '_' || ch == '-' || ch == '.'))
            {
                c.accept(
                    at_,
                    format!(
                        "The hostname '{text}' contains illegal characters (only letters, digits, '_', '-', and '.' are allowed)"
                    ),
                );
            }
        };
        match &h.kind {
            ExprKind::Str(s) | ExprKind::QName(s) => chars(self, s, at(h)),
            ExprKind::QRef(s) => chars(self, s, at(h)),
            ExprKind::Concat(parts) => {
                if let Some(x) = parts.iter().find_map(|p| match p {
                    StrPart::Expr(x) => Some(x),
                    _ => None,
                }) {
                    self.accept(
                        at(x),
                        "An interpolated expression is not allowed in a hostname of a node",
                    );
                }
            }
            ExprKind::Heredoc { text, .. } => self.hostname(text, node),
            ExprKind::Number(_) | ExprKind::Default | ExprKind::Regex(_) => {}
            _ => self.accept(
                at(h),
                format!(
                    "Illegal expression. {} is unacceptable as hostname in {}",
                    a_an_uc(&label(h)),
                    a_an(&label(node))
                ),
            ),
        }
    }

    fn check(&mut self, e: &'a Expr) {
        match &e.kind {
            ExprKind::Assign { op, lhs, rhs } => match op {
                AssignOp::Assign => {
                    self.assign(lhs, false);
                    self.rvalue(rhs);
                }
                AssignOp::Append | AssignOp::Delete => {
                    let o = if *op == AssignOp::Append { "+=" } else { "-=" };
                    self.accept(
                        at(e),
                        format!(
                            "The operator '{o}' is no longer supported. See http://links.puppet.com/remove-plus-equals"
                        ),
                    );
                }
            },
            ExprKind::Binary { lhs, rhs, .. } => {
                self.rvalue(lhs);
                self.rvalue(rhs);
            }
            ExprKind::Relationship { lhs, rhs, .. } => {
                for side in [lhs, rhs] {
                    if !matches!(
                        side.kind,
                        ExprKind::Collect { .. } | ExprKind::Relationship { .. }
                    ) {
                        self.rvalue(side);
                    }
                }
            }
            ExprKind::Unary { expr, .. } | ExprKind::Paren(expr) => self.rvalue(expr),
            ExprKind::CallNamed { functor, .. } => {
                let ok = match &functor.kind {
                    ExprKind::QRef(_) | ExprKind::QName(_) => true,
                    ExprKind::Access { lhs, .. } => matches!(lhs.kind, ExprKind::QRef(_)),
                    ExprKind::RenderString(_) => {
                        // Text before `(`: Puppet's hint for this easy EPP mistake.
                        self.accept(at(e), "Ambiguous EPP parameter expression. Probably missing '<%-' before parameters to remove leading whitespace");
                        true
                    }
                    _ => false,
                };
                if !ok {
                    self.accept(
                        at(functor),
                        format!(
                            "Illegal expression. {} is unacceptable as function name in {}",
                            a_an_uc(&label(functor)),
                            a_an(&label(e))
                        ),
                    );
                }
            }
            ExprKind::Case { test, options } => {
                self.rvalue(test);
                let mut found = false;
                for v in options.iter().flat_map(|o| &o.values) {
                    if matches!(v.kind, ExprKind::Default) {
                        if found {
                            self.accept(
                                at(v),
                                "This 'case' statement already has a 'default' entry - this is a duplicate",
                            );
                        }
                        found = true;
                    }
                }
            }
            ExprKind::Selector { lhs, entries } => {
                self.rvalue(lhs);
                let mut defaults = entries
                    .iter()
                    .filter(|s| matches!(s.matching.kind, ExprKind::Default));
                defaults.next();
                if let Some(second) = defaults.next() {
                    self.accept(
                        at(&second.matching),
                        "This Selector Expression already has a 'default' entry - this is a duplicate",
                    );
                }
            }
            ExprKind::If { test, .. } | ExprKind::Unless { test, .. } => self.rvalue(test),
            ExprKind::Array(items) => {
                for x in items {
                    self.rvalue(x);
                }
            }
            ExprKind::Collect { type_ref, .. } if !matches!(type_ref.kind, ExprKind::QRef(_)) => {
                self.accept(
                    at(type_ref),
                    format!(
                        "Illegal expression. {} is unacceptable as type name in {}",
                        a_an_uc(&label(type_ref)),
                        a_an(&label(e))
                    ),
                );
            }
            ExprKind::Class {
                name, params, body, ..
            } => {
                self.named_definition(e, name);
                self.no_capture(params, e);
                self.unique_params(params);
                self.reserved_params(params, e);
                self.no_idem_last(body, e);
            }
            ExprKind::Define { name, params, body } => {
                self.named_definition(e, name);
                self.no_capture(params, e);
                self.unique_params(params);
                self.reserved_params(params, e);
                self.no_idem_last(body, e);
            }
            ExprKind::Function {
                name,
                params,
                return_type,
                ..
            } => {
                self.named_definition(e, name);
                if let Some(r) = return_type {
                    self.type_ref(r, &label(e));
                }
                self.unique_params(params);
            }
            ExprKind::Node {
                host_matches,
                parent,
                body,
            } => {
                for h in host_matches {
                    self.hostname(h, e);
                }
                self.top(e);
                self.no_idem_last(body, e);
                if let Some(p) = parent {
                    self.accept(
                        at(p),
                        "Node inheritance is not supported in Puppet >= 4.0.0. See http://links.puppet.com/puppet-node-inheritance-deprecation",
                    );
                }
            }
            ExprKind::TypeAlias { name, type_expr } => {
                self.top(e);
                match &name.kind {
                    ExprKind::QRef(n) => {
                        if !is_classref_ext_decl(n) {
                            self.accept(
                                at(e),
                                format!(
                                    "Unacceptable name. The name '{n}' is unacceptable as the name of {}",
                                    a_an(&label(e))
                                ),
                            );
                        }
                        self.reserved_type_name(e, n);
                        self.type_ref_or_literal(type_expr, e);
                    }
                    _ => self.accept(
                        at(e),
                        format!(
                            "Expressions of type {} are not supported in this version of Puppet",
                            a_an(&label(e))
                        ),
                    ),
                }
            }
            ExprKind::TypeDefinition { name, .. } => {
                self.top(e);
                self.reserved_type_name(e, name);
                self.accept(
                    at(e),
                    format!(
                        "Expressions of type {} are not supported in this version of Puppet",
                        a_an(&label(e))
                    ),
                );
            }
            ExprKind::Number(Number::Overflow(text)) => {
                if let Some((_, hex)) = overflow_hex(text) {
                    self.accept(
                        at(e),
                        format!(
                            "{} resulted in a value outside of Puppet Integer max range, got '{hex}'",
                            a_an_uc(&label(e))
                        ),
                    );
                }
            }
            ExprKind::Resource {
                form, type_name, ..
            } if *form != ResourceForm::Regular
                && matches!(&type_name.kind, ExprKind::QName(n) if &**n == "class") =>
            {
                self.accept(at(e), "Classes are not virtualizable");
            }
            ExprKind::ResourceDefaults { form, .. } | ExprKind::ResourceOverride { form, .. }
                if *form != ResourceForm::Regular =>
            {
                self.accept(at(e), "Resource Defaults are not virtualizable");
            }
            ExprKind::Heredoc { syntax, text } => {
                if let ExprKind::Str(body) = &text.kind {
                    if let Some(problem) = external_syntax_error(syntax, body) {
                        self.accept(
                            at(text),
                            format!("Invalid produced text having syntax: '{syntax}'. {problem}"),
                        );
                    }
                }
            }
            ExprKind::Reserved(w) => self.accept(
                at(e),
                format!(
                    "Use of reserved word: {w}, must be quoted if intended to be a String value"
                ),
            ),
            // `check_VariableExpression` runs `name[0,1]` on the Boolean
            // the lexer made a variable of (`"${true}"`); the first crash
            // ends the check.
            ExprKind::Var(name) if crate::token::variable_boolean(name).is_some() => {
                let b = crate::token::variable_boolean(name).unwrap_or_default();
                self.crash
                    .get_or_insert_with(|| RawError::bare(crate::error::boolean_name_crash(b)));
            }
            ExprKind::Var(name) => {
                if name.starts_with(|c: char| c.is_ascii_digit()) {
                    if !is_numeric_var_name(name) {
                        self.accept(
                            at(e),
                            format!(
                                "Illegal numeric variable name, The given name '{name}' must be a decimal value if it starts with a digit 0-9"
                            ),
                        );
                    }
                } else if !is_var_name(name) {
                    self.accept(
                        at(e),
                        format!(
                            "Illegal variable name, The given name '{name}' does not conform to the naming rule /^((::)?[a-z]\\w*)*((::)?[a-z_]\\w*)$/"
                        ),
                    );
                }
            }
            _ => {}
        }
    }

    /// A type alias' right-hand side must be a type reference (or a literal
    /// hash/array, which Puppet accepts for Object and Variant shorthands).
    fn type_ref_or_literal(&mut self, t: &Expr, alias: &Expr) {
        if !matches!(t.kind, ExprKind::Hash { .. } | ExprKind::Array(_)) {
            self.type_ref(t, &label(alias));
        }
    }
}

/// The first assignment inside a default value, not looking into lambdas.
fn find_assignment<'e>(e: &'e Expr) -> Option<&'e Expr> {
    if matches!(e.kind, ExprKind::Assign { .. }) {
        return Some(e);
    }
    let mut found = None;
    let mut look = |c: &'e Expr| {
        if found.is_none() {
            found = find_assignment(c);
        }
    };
    match &e.kind {
        // Lambdas are their own scope: Puppet does not look into them.
        ExprKind::CallNamed { functor, args, .. } => {
            look(functor);
            args.iter().for_each(look);
        }
        ExprKind::CallMethod { receiver, args, .. } => {
            look(receiver);
            args.iter().for_each(look);
        }
        _ => super::visit::for_each_child(e, &mut look),
    }
    found
}

/// Puppet's syntax checkers for heredoc text (`@(END:json)`): the first of
/// `a+b+json`, `b+json`, `json` that has one decides.
fn external_syntax_error(syntax: &str, text: &str) -> Option<String> {
    let segments: Vec<&str> = syntax.split('+').collect();
    let checker = (0..segments.len())
        .map(|i| segments[i..].join("+"))
        .find(|k| k == "json" || k == "base64")?;
    match checker.as_str() {
        "json" => serde_json::from_str::<serde_json::Value>(text)
            .err()
            .map(|e| {
                let msg: String = e.to_string().chars().take(100).collect();
                format!(
                    "JSON syntax checker: Cannot parse invalid JSON string. \"{}\"",
                    msg.replace("\r\n", "\\n").replace('\n', "\\n")
                )
            }),
        _ => {
            // Ruby's strict_decode64: groups of four, `=` padding only at the end.
            let t = text.trim_end_matches(['\n', '\r']);
            let ok = t.len().is_multiple_of(4)
                && t.trim_end_matches('=')
                    .bytes()
                    .all(|c| c.is_ascii_alphanumeric() || c == b'+' || c == b'/')
                && t.len() - t.trim_end_matches('=').len() <= 2;
            (!ok).then(|| "Base64 syntax checker: Cannot parse invalid Base64 string".to_string())
        }
    }
}
