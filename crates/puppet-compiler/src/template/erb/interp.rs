//! The interpreter: runs a parsed template against a [`Host`] (the Puppet
//! scope), appending to the output as ERB's `_erbout` does.

use puppet_syntax::util::NameStr as _;
use rustc_hash::FxHashMap as HashMap;
use std::sync::Arc as Rc;

use super::parser::{Block, Body, Def, Expr, Node, StrPart};
use super::value::{from_puppet, to_puppet, to_puppet_stored, RValue};
use super::Host;
use puppet_model::ruby::{Receiver, RubyVersion};

/// Why evaluation stopped early: an error (message, line), or `next`/`break`.
pub enum Flow {
    Error(String, usize),
    Next(RValue),
    Break(RValue),
    Return(RValue),
}

type R<T> = Result<T, Flow>;

/// The byte ranges of a match's groups (`None` for a group that did not take part).
type Groups = Vec<Option<(usize, usize)>>;

/// The most iterations of a loop (`while`, `loop`, `times`, `upto`) and
/// the most integers of a range: a guard against templates that never end.
pub const MAX_STEPS: usize = 10_000_000;

/// The most elements an array made in one step holds (`Array.new(n)`,
/// `[a] * n`): a guard against memory blow-up.
pub const MAX_ITEMS: usize = 1_000_000;

/// The longest string made in one step (`'x' * n`, `ljust`), in bytes, as
/// `sprintf`'s width limit: Ruby would allocate it.
pub const MAX_STRING_BYTES: usize = 64 << 20;

/// Words every limit error holds: the node fails naming the limit (never a
/// silently shortened answer), and `rescue => e` does not catch it (its
/// class is `NoMemoryError`, outside `StandardError`).
const LIMIT_MARK: &str = "over pverify's limit of";

/// The text of a limit error: `WHAT is over pverify's limit of N UNIT`.
pub fn over_limit(what: &str, limit: usize, unit: &str) -> String {
    format!("{what} is {LIMIT_MARK} {limit} {unit}")
}

/// What `self` is for code without a receiver.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum SelfKind {
    /// A template: Puppet's `TemplateWrapper`.
    Template,
    /// A 3.x function body (`newfunction`): the calling scope, whose
    /// `function_x([...])` and `lookupvar` need no receiver.
    Function3x,
    /// A 4.x function (`create_function`): `call_function(name, *args)`,
    /// `closure_scope`.
    Function4x,
}

pub struct Interp<'h> {
    pub host: &'h mut dyn Host,
    /// The Ruby whose texts and behaviour the code shows.
    pub ruby: RubyVersion,
    pub self_kind: SelfKind,
    pub out: String,
    /// Whether `out` became a binary String (ASCII-8BIT): bytes that are
    /// not UTF-8 were appended while it was ASCII; see [`Interp::append`].
    out_binary: bool,
    locals: HashMap<String, RValue>,
    line: usize,
    /// Instance variables the template assigned (`@x = ...`).
    ivars: HashMap<String, RValue>,
    /// Locals assigned straight from an instance variable (`a = @x`): in
    /// Ruby both name one object, so changing `a` in place changes `@x`.
    ivar_aliases: HashMap<String, String>,
    /// Methods the template defined (`def name ... end`).
    defs: HashMap<String, Rc<Def>>,
    /// The methods defined as `def self.name` (callable as `Module.name`).
    module_functions: rustc_hash::FxHashSet<String>,
    /// The groups of the last regex match (`$1`...).
    pub last_match: Vec<RValue>,
    /// The class of the exception being raised, when `raise` named one
    /// (others are classed by their message: [`exception_class_of`]).
    pub error_class: Option<String>,
    /// Names the code assigns somewhere: a miss on one of them is nil, not
    /// a method call (Ruby's parse-time locals).
    pub declared_locals: Rc<rustc_hash::FxHashSet<String>>,
    /// Calls of the template's own methods under way (bounded: a method
    /// that calls itself forever fails as Ruby's does).
    call_depth: usize,
    /// The block of the method running (what `yield` calls).
    current_block: Option<MethodBlock>,
    /// The Puppet values of the arguments of the next method called with
    /// [`Interp::call_defined`] (`None` for one that is not Puppet's).
    pub arg_origins: Vec<Option<puppet_model::Value>>,
    /// Parameters of the running method still holding the Puppet value
    /// they were called with: Ruby's object is Puppet's, identity and all.
    pristine: HashMap<String, puppet_model::Value>,
    /// Locals of the running method changed in place (`h[k] = v`,
    /// `h.clear`), and those assigned anew (`h = {}`): a parameter changed
    /// in place and never assigned is the caller's object, changed.
    changed_in_place: rustc_hash::FxHashSet<String>,
    assigned: rustc_hash::FxHashSet<String>,
    /// The arguments the method last called changed in place, by position:
    /// the caller's variables that hold them take the change
    /// ([`Interp::write_back_args`]), as in Ruby they name the same object.
    changed_args: Vec<(usize, RValue)>,
    /// The features `require` loaded (Ruby loads each once).
    required: rustc_hash::FxHashSet<String>,
}

/// How a local variable changed ([`Interp::note_local`]).
#[derive(Clone, Copy)]
enum Change {
    /// Its object changed (`h[k] = v`, `h.clear`).
    InPlace,
    /// It names a new object (`h = {}`, `n += 1`).
    Assigned,
}

/// A method's block: a Ruby block, or the Puppet lambda the function was
/// called with (run by the host).
#[derive(Clone)]
pub enum MethodBlock {
    /// A Ruby block, with the block of the method it was written in (what
    /// a `yield` inside the block itself calls).
    Ruby(Rc<Block>, Option<Rc<MethodBlock>>),
    Host,
}

fn err<T>(msg: impl Into<String>, line: usize) -> R<T> {
    Err(Flow::Error(msg.into(), line))
}

impl<'h> Interp<'h> {
    pub fn new(host: &'h mut dyn Host) -> Interp<'h> {
        Interp {
            ruby: host.ruby(),
            host,
            self_kind: SelfKind::Template,
            out: String::new(),
            out_binary: false,
            locals: HashMap::default(),
            line: 1,
            ivars: HashMap::default(),
            ivar_aliases: HashMap::default(),
            defs: HashMap::default(),
            module_functions: Default::default(),
            changed_in_place: Default::default(),
            assigned: Default::default(),
            changed_args: Vec::new(),
            required: Default::default(),
            last_match: Vec::new(),
            declared_locals: Default::default(),
            error_class: None,
            call_depth: 0,
            current_block: None,
            arg_origins: Vec::new(),
            pristine: HashMap::default(),
        }
    }

    /// Appends text to the output as `_erbout <<` does: once the buffer is
    /// binary, Ruby refuses text that is not ASCII.
    fn append(&mut self, s: &str) -> R<()> {
        if self.out_binary && !s.is_ascii() {
            return self.fail_at(crate::bad_bytes::BINARY_THEN_UTF8);
        }
        self.out.push_str(s);
        Ok(())
    }

    /// Appends a binary String that is not ASCII: the buffer becomes binary
    /// while it is ASCII; after other non-ASCII text Ruby refuses it.
    fn append_binary(&mut self, b: &[u8]) -> R<()> {
        if !self.out_binary && !self.out.is_ascii() {
            return self.fail_at(crate::bad_bytes::UTF8_THEN_BINARY);
        }
        self.out_binary = true;
        self.out.push_str(&crate::bad_bytes::binary_text(b));
        Ok(())
    }

    fn fail<T>(&self, msg: impl Into<String>) -> R<T> {
        err(msg, self.line)
    }

    /// Ruby's `NameError` for a bare name in code whose `self` is an object
    /// of Puppet's `class` (the template, the 3.x function's scope, the
    /// 4.x function).
    fn no_local_or_method<T>(&self, name: &str, class: &str) -> R<T> {
        let inspect = format!("#<{class}>");
        self.fail(self.ruby.no_local_or_method(
            name,
            Receiver::Instance {
                inspect: &inspect,
                class,
            },
        ))
    }

    pub fn run(&mut self, body: &Body) -> R<RValue> {
        let mut last = RValue::Nil;
        for n in body {
            last = self.eval(n)?;
        }
        Ok(last)
    }

    fn eval(&mut self, n: &Node) -> R<RValue> {
        self.line = n.line;
        // Every loop of the subset evaluates its condition or body here.
        if let Err(e) = crate::budget::tick() {
            return self.fail(e.to_string());
        }
        Ok(match &n.expr {
            Expr::Nil => RValue::Nil,
            Expr::Bool(b) => RValue::Bool(*b),
            Expr::Int(i) => RValue::Int(*i),
            Expr::BigInt(d) => super::bigint::parse_prefix(d, 10),
            Expr::Float(f) => RValue::Float(*f),
            Expr::Str(parts) => RValue::str(self.interpolate(parts)?),
            Expr::Sym(s) => RValue::sym(s.clone()),
            Expr::DSym(parts) => RValue::sym(self.interpolate(parts)?),
            Expr::Regex(parts, flags) => {
                let src = self.interpolate(parts)?;
                let mut prefix = String::new();
                for (f, inline) in [('i', 'i'), ('m', 's'), ('x', 'x')] {
                    if flags.contains(f) {
                        prefix.push(inline);
                    }
                }
                if prefix.is_empty() {
                    RValue::Regex(src)
                } else {
                    RValue::Regex(format!("(?{prefix}){src}"))
                }
            }
            Expr::Array(items) => RValue::array(self.eval_list(items)?),
            Expr::Hash(pairs) => {
                let mut out: Vec<(RValue, RValue)> = Vec::new();
                for (k, v) in pairs {
                    let k = self.eval(k)?;
                    let v = self.eval(v)?;
                    hash_set(&mut out, k, v);
                }
                RValue::hash(out)
            }
            Expr::Range(a, b, excl) => {
                let a = self.eval(a)?;
                let b = self.eval(b)?;
                match (a, b) {
                    (RValue::Int(a), RValue::Int(b)) => RValue::Range(a, b, *excl),
                    _ => return self.fail("bad value for range"),
                }
            }
            Expr::IVar(name) => match self.ivars.get(name) {
                Some(v) => v.clone(),
                None => match self.host.ivar(name) {
                    Some(v) => from_puppet(&v),
                    None => RValue::Nil,
                },
            },
            Expr::GVar(name) => match name.parse::<usize>() {
                Ok(i) => self.last_match.get(i).cloned().unwrap_or(RValue::Nil),
                Err(_) if name == "~" && !self.last_match.is_empty() => {
                    RValue::array(self.last_match.clone())
                }
                // Where `require` looks: modules' `lib` already, in
                // Puppet's Ruby (what code adds to it changes nothing here).
                Err(_) if name == "LOAD_PATH" => RValue::array(Vec::new()),
                Err(_) => RValue::Nil,
            },
            Expr::IAssign(name, op, v) => {
                let cur = match self.ivars.get(name) {
                    Some(v) => v.clone(),
                    None => self
                        .host
                        .ivar(name)
                        .map(|v| from_puppet(&v))
                        .unwrap_or(RValue::Nil),
                };
                let new = match *op {
                    "=" => self.eval(v)?,
                    "||" if cur.truthy() => cur,
                    "||" => self.eval(v)?,
                    op => {
                        let r = self.eval(v)?;
                        self.call(Some(cur), op, vec![r], None, n.line)?
                    }
                };
                self.ivars.insert(name.clone(), new.clone());
                new
            }
            Expr::Defined(e) => {
                let what = match &e.expr {
                    Expr::IVar(name) => (self.ivars.contains_key(name)
                        || self.host.ivar(name).is_some())
                    .then_some("instance-variable"),
                    Expr::Name(name) if self.locals.contains_key(name) => Some("local-variable"),
                    Expr::Name(name) => {
                        (self.defs.contains_key(name) || name == "scope").then_some("method")
                    }
                    Expr::Const(c) => ["String", "Integer", "Array", "Hash", "Float", "Symbol"]
                        .contains(&c.as_str())
                        .then_some("expression"),
                    _ => Some("expression"),
                };
                match what {
                    Some(w) => RValue::Str(w.into()),
                    None => RValue::Nil,
                }
            }
            Expr::Return(v) => {
                let v = match v {
                    Some(v) => self.eval(v)?,
                    None => RValue::Nil,
                };
                return Err(Flow::Return(v));
            }
            Expr::Def(name, def) => {
                // `def self.x`: also a module function, `Module.x`.
                let name = match name.strip_prefix("self.") {
                    Some(n) => {
                        self.module_functions.insert(n.to_string());
                        n
                    }
                    None => name.as_str(),
                };
                self.defs.insert(name.to_string(), def.clone());
                RValue::sym(name)
            }
            Expr::Begin(def) => self.run_def_body(def)?,
            Expr::Const(c) if c == "RUBY_VERSION" => RValue::str(self.ruby.release()),
            Expr::Const(c) => RValue::Class(c.clone()),
            Expr::Name(name) => {
                if let Some(v) = self.locals.get(name) {
                    v.clone()
                } else if name == "__FILE__" {
                    RValue::str(self.host.source_file())
                } else if self.declared_locals.contains(name) && !self.defs.contains_key(name) {
                    RValue::Nil
                } else {
                    self.call(None, name, vec![], None, n.line)?
                }
            }
            Expr::Call {
                recv,
                name,
                args,
                block,
                safe,
            } => {
                let r = match recv {
                    Some(r) => Some(self.eval(r)?),
                    None => None,
                };
                if *safe && matches!(r, Some(RValue::Nil)) {
                    return Ok(RValue::Nil);
                }
                let mut argv = Vec::new();
                let mut block = block.clone();
                for a in args {
                    match &a.expr {
                        Expr::BlockPass(sym) => {
                            block = Some(Rc::new(Block {
                                params: vec![vec!["__it".into()]],
                                body: vec![Node {
                                    expr: Expr::Call {
                                        recv: Some(Box::new(Node {
                                            expr: Expr::Name("__it".into()),
                                            line: a.line,
                                        })),
                                        name: sym.clone(),
                                        args: vec![],
                                        block: None,
                                        safe: false,
                                    },
                                    line: a.line,
                                }],
                            }))
                        }
                        Expr::BlockPassValue(e) => match self.eval(e)? {
                            RValue::Proc(ref b) => block = Some(b.clone()),
                            RValue::Nil => {}
                            other => {
                                return self.fail(format!(
                                    "wrong argument type {} (expected Proc)",
                                    other.class_name()
                                ))
                            }
                        },
                        Expr::Splat(e) => match self.eval(e)? {
                            RValue::Array(ref items) => argv.extend(items.iter().cloned()),
                            other => argv.push(other),
                        },
                        _ => argv.push(self.eval(a)?),
                    }
                }
                self.line = n.line;
                // `proc { }`, `lambda { }`, `Proc.new { }`: the block as a value.
                let makes_proc = match (&r, name.as_str()) {
                    (None, "proc" | "lambda") => true,
                    (Some(RValue::Class(c)), "new") => c == "Proc",
                    _ => false,
                };
                if makes_proc {
                    if let Some(b) = &block {
                        return Ok(RValue::Proc(b.clone()));
                    }
                }
                if let Some(v) = self.remove_from_local(recv.as_deref(), name, &argv) {
                    return Ok(v);
                }
                // A method of the code's own called with a block: the
                // block is the method's (`yield`).
                if let (None, Some(b)) = (&r, &block) {
                    if let Some(def) = self.defs.get(name.as_str()).cloned() {
                        let outer = self.current_block.clone().map(Rc::new);
                        let block = MethodBlock::Ruby(b.clone(), outer);
                        self.changed_args.clear();
                        let v = self.call_def(name, &def, argv, Some(block))?;
                        self.write_back_args(args)?;
                        return Ok(v);
                    }
                }
                if name == "to_yaml" && argv.len() <= 1 {
                    if let Some(orig) = self.puppet_object(recv.as_deref(), r.as_ref()) {
                        return match super::yaml::puppet_to_yaml(&orig, argv.first()) {
                            Ok(text) => Ok(RValue::str(text)),
                            Err(e) => self.fail(e),
                        };
                    }
                }
                if let (Some(base), "extend", [RValue::Class(_)]) =
                    (&r, name.as_str(), argv.as_slice())
                {
                    let extended = self.extend(base.clone())?;
                    let target = recv.as_deref().and_then(|r| self.mutated_target(r));
                    return self.write_back(target, name, extended);
                }
                let local = self.mutated_local(recv.as_deref(), name);
                // `Hash#store` answers the value it stored, not the hash.
                let stored = match (&r, name.as_str(), argv.as_slice()) {
                    (Some(RValue::Hash(_)), "store", [_, v]) => Some(v.clone()),
                    _ => None,
                };
                self.changed_args.clear();
                let v = self.call(r, name, argv, block.as_deref(), n.line)?;
                self.write_back_args(args)?;
                let v = self.write_back(local, name, v)?;
                stored.unwrap_or(v)
            }
            Expr::Index(recv, args) => {
                let r = self.eval(recv)?;
                let argv = self.eval_list(args)?;
                self.line = n.line;
                self.call(Some(r), "[]", argv, None, n.line)?
            }
            Expr::Not(e) => RValue::Bool(!self.eval(e)?.truthy()),
            Expr::Neg(e) => {
                let v = self.eval(e)?;
                match v {
                    RValue::Int(_) | RValue::Big(_) => {
                        super::bigint::norm(-super::bigint::of(&v).unwrap_or_default())
                    }
                    RValue::Float(f) => RValue::Float(-f),
                    other => return self.no_method("-@", &other),
                }
            }
            Expr::And(a, b) => {
                let l = self.eval(a)?;
                if l.truthy() {
                    self.eval(b)?
                } else {
                    l
                }
            }
            Expr::Or(a, b) => {
                let l = self.eval(a)?;
                if l.truthy() {
                    l
                } else {
                    self.eval(b)?
                }
            }
            Expr::Binop(op, a, b) => {
                let l = self.eval(a)?;
                let r = self.eval(b)?;
                self.line = n.line;
                let local = self.mutated_local(Some(a), op);
                let v = self.call(Some(l), op, vec![r], None, n.line)?;
                self.write_back(local, op, v)?
            }
            Expr::If(c, t, e) => {
                if self.eval(c)?.truthy() {
                    self.run(t)?
                } else {
                    self.run(e)?
                }
            }
            Expr::While(c, body, positive) => {
                let mut steps = 0;
                while self.eval(c)?.truthy() == *positive {
                    steps += 1;
                    if steps > MAX_STEPS {
                        return self.fail(over_limit("a while loop", MAX_STEPS, "iterations"));
                    }
                    match self.run(body) {
                        Ok(_) | Err(Flow::Next(_)) => {}
                        Err(Flow::Break(v)) => return Ok(v),
                        Err(e) => return Err(e),
                    }
                }
                RValue::Nil
            }
            Expr::For(var, items, body) => {
                let coll = self.eval(items)?;
                let list = match &coll {
                    RValue::Array(a) => a.to_vec(),
                    RValue::Range(a, b, x) => {
                        check_range(self, *a, *b, *x)?;
                        range_items(*a, *b, *x)
                    }
                    RValue::Hash(h) => h
                        .iter()
                        .map(|(k, v)| RValue::array(vec![k.clone(), v.clone()]))
                        .collect(),
                    o => return self.no_method("each", o),
                };
                self.pristine.remove(var);
                for item in list {
                    self.bind_local(var, item);
                    match self.run(body) {
                        Ok(_) | Err(Flow::Next(_)) => {}
                        Err(Flow::Break(v)) => return Ok(v),
                        Err(e) => return Err(e),
                    }
                }
                coll
            }
            Expr::MultiAssign(names, v) => {
                let v = self.eval(v)?;
                let items = match &v {
                    RValue::Array(a) => a.to_vec(),
                    o => vec![o.clone()],
                };
                for (i, name) in names.iter().enumerate() {
                    self.ivar_aliases.remove(name);
                    self.pristine.remove(name);
                    let item = items.get(i).cloned().unwrap_or(RValue::Nil);
                    self.bind_local(name, item);
                }
                v
            }
            Expr::Case(subject, whens, els) => {
                let s = match subject {
                    Some(s) => Some(self.eval(s)?),
                    None => None,
                };
                for (pats, body) in whens {
                    for p in pats {
                        let pv = self.eval(p)?;
                        let hit = match &s {
                            Some(s) => self.case_eq(&pv, s)?,
                            None => pv.truthy(),
                        };
                        if hit {
                            return self.run(body);
                        }
                    }
                }
                match els {
                    Some(b) => self.run(b)?,
                    None => RValue::Nil,
                }
            }
            Expr::Assign(name, v) => {
                self.pristine.remove(name);
                self.note_local(name, Change::Assigned);
                match &v.expr {
                    Expr::IVar(iv) => self.ivar_aliases.insert(name.clone(), iv.clone()),
                    _ => self.ivar_aliases.remove(name),
                };
                let v = self.eval(v)?;
                self.bind_local(name, v.clone());
                v
            }
            Expr::OpAssign(name, op, v) => {
                let cur = self.locals.get(name).cloned().unwrap_or(RValue::Nil);
                let new = match *op {
                    "||" if cur.truthy() => cur,
                    "||" => self.eval(v)?,
                    "&&" if !cur.truthy() => cur,
                    "&&" => self.eval(v)?,
                    op => {
                        if !self.locals.contains_key(name) {
                            return self.no_method(op, &RValue::Nil);
                        }
                        let r = self.eval(v)?;
                        self.call(Some(cur), op, vec![r], None, n.line)?
                    }
                };
                self.note_local(name, Change::Assigned);
                self.bind_local(name, new.clone());
                new
            }
            Expr::IndexAssign(recv, args, op, v) => {
                let container = self.eval(recv)?;
                let keys = self.eval_list(args)?;
                let cur = self.call(Some(container.clone()), "[]", keys.clone(), None, n.line)?;
                let v = match *op {
                    "=" => self.eval(v)?,
                    "||" if cur.truthy() => return Ok(cur),
                    "||" => self.eval(v)?,
                    op => {
                        let r = self.eval(v)?;
                        self.call(Some(cur), op, vec![r], None, n.line)?
                    }
                };
                let mut container = container;
                let updated = match (&mut container, keys.first()) {
                    (RValue::Hash(h), Some(k)) => {
                        hash_set(Rc::make_mut(h), k.clone(), v.clone());
                        container
                    }
                    (RValue::Array(shared), Some(RValue::Int(i))) => {
                        let a = Rc::make_mut(shared);
                        let len = a.len() as i64;
                        let idx = if *i < 0 { i + len } else { *i };
                        if idx < 0 {
                            return err(
                                format!("index {i} too small for array; minimum: -{len}"),
                                n.line,
                            );
                        }
                        let idx = idx as usize;
                        if idx >= a.len() {
                            a.resize(idx + 1, RValue::Nil);
                        }
                        a[idx] = v.clone();
                        container
                    }
                    _ => return self.no_method("[]=", &container),
                };
                // Values are immutable here: store the changed container back.
                match &recv.expr {
                    Expr::Name(name) if self.locals.contains_key(name) => {
                        self.note_local(name, Change::InPlace);
                        self.bind_local(name, updated);
                    }
                    Expr::IVar(name) => {
                        self.ivars.insert(name.clone(), updated);
                    }
                    // `scope.lookupvar('x')[k] = v` / `scope['x'][k] = v`:
                    // the hash is the scope variable's own object.
                    e if scope_var_access(e).is_some() => {
                        let (scope, key) = scope_var_access(e).unwrap_or((recv, recv));
                        if !matches!(self.eval(scope)?, RValue::Scope) {
                            return self.fail("pverify's ERB assigns elements only of variables");
                        }
                        let var = self.eval(key)?.to_s();
                        let var = var.trim_colons().to_string();
                        self.host.changed_in_place(&var, to_puppet_stored(&updated));
                    }
                    _ => {
                        return self.fail(
                            "pverify's ERB assigns elements only of local and instance variables",
                        )
                    }
                }
                v
            }
            Expr::Seq(body) => self.run(body)?,
            Expr::Out(e) => {
                let v = self.eval(e)?;
                match &v {
                    // A String is appended as it is (no `to_s` copy).
                    RValue::Str(s) => self.append(s)?,
                    RValue::Bytes(b) if !b.is_ascii() => self.append_binary(b)?,
                    _ => {
                        let s = self.to_s(&v)?;
                        self.append(&s)?;
                    }
                }
                RValue::Nil
            }
            Expr::Text(t) => {
                self.append(t)?;
                RValue::Nil
            }
            Expr::Next(v) => {
                let v = match v {
                    Some(v) => self.eval(v)?,
                    None => RValue::Nil,
                };
                return Err(Flow::Next(v));
            }
            Expr::Break(v) => {
                let v = match v {
                    Some(v) => self.eval(v)?,
                    None => RValue::Nil,
                };
                return Err(Flow::Break(v));
            }
            Expr::Splat(e) => self.eval(e)?,
            Expr::BlockPass(_) | Expr::BlockPassValue(_) => {
                return self.fail("syntax error, unexpected '&'")
            }
        })
    }

    fn eval_list(&mut self, items: &[Node]) -> R<Vec<RValue>> {
        let mut out = Vec::with_capacity(items.len());
        for i in items {
            match &i.expr {
                Expr::Splat(e) => match self.eval(e)? {
                    RValue::Array(ref a) => out.extend(a.iter().cloned()),
                    RValue::Range(a, b, x) => {
                        check_range(self, a, b, x)?;
                        out.extend(range_items(a, b, x))
                    }
                    o => out.push(o),
                },
                _ => out.push(self.eval(i)?),
            }
        }
        Ok(out)
    }

    fn interpolate(&mut self, parts: &[StrPart]) -> R<String> {
        // Sized for the text and a short value per interpolation.
        let guess = parts
            .iter()
            .map(|p| match p {
                StrPart::Lit(l) => l.len(),
                StrPart::Code(_) => 16,
            })
            .sum();
        let mut s = String::with_capacity(guess);
        for p in parts {
            match p {
                StrPart::Lit(l) => s.push_str(l),
                StrPart::Code(body) => match self.run(body)? {
                    RValue::Str(ref t) => s.push_str(t),
                    v => s.push_str(&self.to_s(&v)?),
                },
            }
        }
        Ok(s)
    }

    /// `to_s` as ERB's `<%= %>` and `#{}` apply it.
    pub fn to_s(&self, v: &RValue) -> R<String> {
        Ok(v.to_s())
    }

    /// Ruby's `===` as `case`/`when` uses it.
    pub fn case_eq(&mut self, pat: &RValue, v: &RValue) -> R<bool> {
        Ok(match pat {
            RValue::Regex(re) => match v {
                RValue::Str(s) | RValue::Sym(s) => match self.regex_find(re, s)? {
                    Some(groups) => {
                        self.last_match = groups
                            .iter()
                            .map(|g| {
                                g.map(|(a, b)| RValue::str(s[a..b].to_string()))
                                    .unwrap_or(RValue::Nil)
                            })
                            .collect();
                        true
                    }
                    None => false,
                },
                _ => false,
            },
            RValue::Range(a, b, excl) => match v {
                RValue::Int(i) => *i >= *a && if *excl { *i < *b } else { *i <= *b },
                RValue::Float(f) => {
                    *f >= *a as f64
                        && if *excl {
                            *f < *b as f64
                        } else {
                            *f <= *b as f64
                        }
                }
                _ => false,
            },
            RValue::Class(c) => is_a(v, c),
            other => other.eq(v),
        })
    }

    fn regex_find(&self, re: &str, s: &str) -> R<Option<Groups>> {
        let compiled = match puppet_model::types::regex::compile_ruby(re) {
            Ok(r) => r,
            Err(e) => return self.fail(e),
        };
        match compiled.captures(s) {
            Ok(Some(c)) => Ok(Some(
                (0..c.len())
                    .map(|i| c.get(i).map(|m| (m.start(), m.end())))
                    .collect(),
            )),
            Ok(None) => Ok(None),
            Err(e) => self.fail(e.to_string()),
        }
    }

    pub fn no_method<T>(&self, name: &str, recv: &RValue) -> R<T> {
        let inspect;
        let recv = match recv {
            RValue::Nil => Receiver::Nil,
            RValue::Bool(true) => Receiver::True,
            RValue::Bool(false) => Receiver::False,
            RValue::Class(c) => Receiver::Class(c),
            other => {
                inspect = other.inspect();
                Receiver::Instance {
                    inspect: &inspect,
                    class: other.class_name(),
                }
            }
        };
        self.fail(self.ruby.no_method(name, recv))
    }

    /// `undefined method` for an object of a Puppet class whose `inspect`
    /// Ruby 3.1 writes as `#<Class>` (its address left out).
    pub fn no_method_on<T>(&self, name: &str, class: &str) -> R<T> {
        let inspect = format!("#<{class}>");
        self.fail(self.ruby.no_method(
            name,
            Receiver::Instance {
                inspect: &inspect,
                class,
            },
        ))
    }

    /// Calls the block with `args` (destructuring one array argument over
    /// several parameters, as Ruby's blocks do).
    pub fn yield_(&mut self, block: &Block, args: Vec<RValue>) -> R<RValue> {
        // An empty block evaluates nothing: its loop is counted here.
        if let Err(e) = crate::budget::tick() {
            return self.fail(e.to_string());
        }
        let args = match args.as_slice() {
            [RValue::Array(a)] if block.params.len() > 1 => a.to_vec(),
            _ => args,
        };
        let saved = self.bind_params(block, args);
        let r = match self.run(&block.body) {
            Ok(v) | Err(Flow::Next(v)) => Ok(v),
            Err(e) => Err(e),
        };
        self.unbind_params(block, saved);
        r
    }

    fn call(
        &mut self,
        recv: Option<RValue>,
        name: &str,
        args: Vec<RValue>,
        block: Option<&Block>,
        line: usize,
    ) -> R<RValue> {
        self.line = line;
        match recv {
            None => self.call_self(name, args, block),
            Some(r) => {
                // `break` in a block ends the method call with its value.
                match super::methods::call_method(self, r, name, args, block) {
                    Err(Flow::Break(v)) => Ok(v),
                    other => other,
                }
            }
        }
    }

    /// Methods of the template wrapper and Kernel (no receiver).
    fn call_self(&mut self, name: &str, args: Vec<RValue>, block: Option<&Block>) -> R<RValue> {
        if let Some(def) = self.defs.get(name).cloned() {
            // (A call with a block reached its method in `eval`.)
            let _ = block;
            return self.call_def(name, &def, args, None);
        }
        match name {
            "yield" => match self.current_block.clone() {
                Some(MethodBlock::Ruby(b, outer)) => {
                    // The block runs where it was written: its own `yield`
                    // is that method's (never itself again).
                    let inner =
                        std::mem::replace(&mut self.current_block, outer.map(|o| (*o).clone()));
                    let r = self.yield_(&b, args);
                    self.current_block = inner;
                    r
                }
                Some(MethodBlock::Host) => {
                    let args = args.iter().map(to_puppet).collect();
                    match self.host.call_block(args) {
                        Ok(v) => Ok(from_puppet(&v)),
                        Err(e) => {
                            self.error_class = self.host.last_error_class();
                            self.fail(e)
                        }
                    }
                }
                None => {
                    self.error_class = Some("LocalJumpError".into());
                    self.fail("no block given (yield)")
                }
            },
            "block_given?" => Ok(RValue::Bool(self.current_block.is_some())),
            // Kernel#loop: until `break`, or a StopIteration (which it
            // rescues, as `enum.next` past the end raises).
            "loop" => {
                let Some(b) = block else {
                    return self.fail("pverify's Ruby needs a block for `loop'");
                };
                for _ in 0..MAX_STEPS {
                    match self.yield_(b, vec![]) {
                        Ok(_) => {}
                        Err(Flow::Break(v)) => return Ok(v),
                        Err(Flow::Error(m, l)) => {
                            let class = self
                                .error_class
                                .clone()
                                .unwrap_or_else(|| exception_class_of(&m).to_string());
                            if exception_is_a(&class, "StopIteration") {
                                self.error_class = None;
                                return Ok(RValue::Nil);
                            }
                            return Err(Flow::Error(m, l));
                        }
                        Err(e) => return Err(e),
                    }
                }
                self.fail(over_limit("a loop", MAX_STEPS, "iterations"))
            }
            "require" => match args.first() {
                Some(RValue::Str(feature)) => self.require_feature(feature.as_ref()),
                _ => Ok(RValue::Bool(true)),
            },
            "scope" => Ok(RValue::Scope),
            "has_variable?" => {
                let n = args.first().map(RValue::to_s).unwrap_or_default();
                Ok(RValue::Bool(self.host.ivar(&n).is_some()))
            }
            "raise" | "fail" => {
                // `raise Class, message` or `raise message`.
                let (class, msg) = match (args.first(), args.get(1)) {
                    (Some(RValue::Class(c)), Some(m)) => (c.clone(), m.to_s()),
                    (Some(RValue::Class(c)), None) => (c.clone(), c.clone()),
                    (Some(m), _) => ("RuntimeError".to_string(), m.to_s()),
                    (None, _) => ("RuntimeError".to_string(), "unhandled exception".into()),
                };
                self.error_class = Some(class);
                self.fail(msg)
            }
            "Integer" | "Float" | "String" | "Array" => {
                let v = args.first().cloned().unwrap_or(RValue::Nil);
                let conv = match name {
                    "Integer" => "to_i",
                    "Float" => "to_f",
                    "String" => "to_s",
                    _ => "to_a",
                };
                if name == "Integer" {
                    if let RValue::Str(s) = &v {
                        let t = s.trim().replace('_', "");
                        return match t.parse::<i64>() {
                            Ok(i) => Ok(RValue::Int(i)),
                            Err(_) => {
                                self.fail(format!("invalid value for Integer(): {}", v.inspect()))
                            }
                        };
                    }
                }
                if name == "Array" {
                    return Ok(match v {
                        RValue::Nil => RValue::array(vec![]),
                        a @ RValue::Array(_) => a,
                        RValue::Hash(ref h) => RValue::array(
                            h.iter()
                                .map(|(k, v)| RValue::array(vec![k.clone(), v.clone()]))
                                .collect::<Vec<_>>(),
                        ),
                        o => RValue::array(vec![o]),
                    });
                }
                super::methods::call_method(self, v, conv, vec![], None)
            }
            "puts" | "print" | "p" | "warn" => Ok(RValue::Nil),
            // gettext's `_('text')` (puppetlabs-translate): the text itself.
            "_" | "N_" => Ok(args.into_iter().next().unwrap_or(RValue::Nil)),
            "format" | "sprintf" => {
                let f = args.first().map(RValue::to_s).unwrap_or_default();
                let rest: Vec<RValue> = args.into_iter().skip(1).collect();
                super::methods::call_method(
                    self,
                    RValue::str(f),
                    "%",
                    vec![RValue::array(rest)],
                    None,
                )
            }
            _ => self.call_self_function(name, args),
        }
    }

    /// The receiver-less calls a function body makes of its `self`.
    fn call_self_function(&mut self, name: &str, args: Vec<RValue>) -> R<RValue> {
        match (self.self_kind, name) {
            (SelfKind::Function3x, n) if n.starts_with("function_") || n == "lookupvar" => {
                self.scope_call(name, args)
            }
            (SelfKind::Function3x, "self") | (SelfKind::Function4x, "closure_scope") => {
                Ok(RValue::Scope)
            }
            (
                SelfKind::Function3x,
                "find_global_scope" | "compiler" | "findresource" | "resource",
            ) => self.scope_own(name, args),
            // The function object itself (`asserted_iterable(self, x)`).
            (SelfKind::Function4x, "self") => {
                Ok(RValue::Class("Puppet::Functions::Function".into()))
            }
            (SelfKind::Function4x, "call_function") => {
                let f = args.first().map(RValue::to_s).unwrap_or_default();
                let fargs = args.iter().skip(1).map(to_puppet).collect();
                self.puppet_function(&f, fargs)
            }
            (SelfKind::Template, _) => {
                self.no_local_or_method(name, "Puppet::Parser::TemplateWrapper")
            }
            (SelfKind::Function3x, _) => self.no_local_or_method(name, "Puppet::Parser::Scope"),
            (SelfKind::Function4x, _) => {
                self.no_local_or_method(name, "Puppet::Functions::Function")
            }
        }
    }

    /// Methods of Puppet's `Scope` beyond variables and functions: its
    /// global scope, its compiler, catalog lookups, and the resource it
    /// belongs to (`self.x` or `x` in a 3.x function, `scope.x` anywhere).
    fn scope_own(&mut self, name: &str, args: Vec<RValue>) -> R<RValue> {
        match name {
            "find_global_scope" => Ok(RValue::Scope),
            // The compiler, for its environment (`compiler.environment.to_s`).
            "compiler" => {
                let env = self.host.environment_name();
                let environment = RValue::Object(Rc::new(super::value::RObject {
                    class: "Puppet::Node::Environment",
                    text: env.clone(),
                    attrs: vec![("name", RValue::sym(env))],
                }));
                Ok(RValue::Object(Rc::new(super::value::RObject {
                    class: "Puppet::Parser::Compiler",
                    text: "#<Puppet::Parser::Compiler>".into(),
                    attrs: vec![("environment", environment)],
                })))
            }
            "findresource" => {
                let ty = args.first().map(RValue::to_s).unwrap_or_default();
                let title = args.get(1).map(RValue::to_s).unwrap_or_default();
                let ty = puppet_model::names::capitalize_name(&ty);
                Ok(match self.host.find_resource(&ty, &title) {
                    Some(r) => RValue::Resource(Rc::new(r)),
                    None => RValue::Nil,
                })
            }
            "resource" => Ok(match self.host.scope_resource() {
                Some(r) => RValue::Resource(Rc::new(r)),
                None => RValue::Nil,
            }),
            _ => self.no_method_on(name, "Puppet::Parser::Scope"),
        }
    }

    /// Defines a method (`def`) before the code that calls it runs.
    pub fn define(&mut self, name: &str, def: Rc<Def>) {
        self.defs.insert(name.to_string(), def);
    }

    /// Sets a local variable.
    pub fn set_local(&mut self, name: &str, v: RValue) {
        self.locals.insert(name.to_string(), v);
    }

    /// Whether the code defined a module function (`def self.name`).
    pub fn has_module_function(&self, name: &str) -> bool {
        self.module_functions.contains(name) && self.defs.contains_key(name)
    }

    /// Calls a method defined with [`Interp::define`].
    pub fn call_defined(
        &mut self,
        name: &str,
        args: Vec<RValue>,
        block: Option<MethodBlock>,
    ) -> R<RValue> {
        match self.defs.get(name).cloned() {
            Some(def) => self.call_def(name, &def, args, block),
            None if !self.arg_origins.is_empty() => {
                self.arg_origins.clear();
                self.call_self_function(name, args)
            }
            None => self.call_self_function(name, args),
        }
    }

    pub fn scope_call(&mut self, name: &str, args: Vec<RValue>) -> R<RValue> {
        let key = |args: &[RValue]| args.first().map(RValue::to_s).unwrap_or_default();
        match name {
            "[]" | "lookupvar" => {
                let k = key(&args);
                match self.host.lookupvar(&k) {
                    Some(v) => Ok(from_puppet(&v)),
                    None => match self.host.variable_not_found(&k) {
                        Ok(()) => Ok(RValue::Nil),
                        Err(message) => {
                            self.error_class = Some("ArgumentError".into());
                            self.fail(message)
                        }
                    },
                }
            }
            "include?" | "exist?" => {
                let k = key(&args);
                Ok(RValue::Bool(self.host.lookupvar(&k).is_some()))
            }
            "setvar" | "[]=" => {
                let k = key(&args);
                let v = args
                    .get(1)
                    .map(to_puppet)
                    .unwrap_or(puppet_model::Value::Undef);
                match self.host.setvar(&k, v.clone()) {
                    Ok(()) => Ok(from_puppet(&v)),
                    Err(e) => self.fail(e),
                }
            }
            "call_function" => {
                let f = key(&args);
                let fargs = match args.get(1) {
                    Some(RValue::Array(a)) => a.iter().map(to_puppet).collect(),
                    Some(o) => vec![to_puppet(o)],
                    None => vec![],
                };
                self.puppet_function(&f, fargs)
            }
            "to_hash" => Ok(from_puppet(&self.host.to_hash())),
            n if n.starts_with("function_") => {
                let fargs = match args.first() {
                    Some(RValue::Array(a)) => a.iter().map(to_puppet).collect(),
                    Some(o) => vec![to_puppet(o)],
                    None => vec![],
                };
                match self.host.call_function_3x(&n["function_".len()..], fargs) {
                    Ok(v) => Ok(from_puppet(&v)),
                    Err(e) => {
                        self.error_class = self.host.last_error_class();
                        self.fail(e)
                    }
                }
            }
            other => self.scope_own(other, args),
        }
    }

    fn puppet_function(&mut self, name: &str, args: Vec<puppet_model::value::Value>) -> R<RValue> {
        match self.host.call_function(name, args) {
            Ok(v) => Ok(from_puppet(&v)),
            Err(e) => {
                self.error_class = self.host.last_error_class();
                self.fail(e)
            }
        }
    }
}

pub fn is_a(v: &RValue, class: &str) -> bool {
    let c = v.class_name();
    match class {
        "Object" | "BasicObject" | "Kernel" => true,
        "Numeric" | "Comparable" => {
            matches!(v, RValue::Int(_) | RValue::Float(_))
                || (class == "Comparable" && matches!(v, RValue::Str(_)))
        }
        "Fixnum" | "Bignum" => matches!(v, RValue::Int(_)),
        // Puppet::Parser::Resource < Puppet::Resource.
        "Puppet::Resource" | "Puppet::Parser::Resource" => matches!(v, RValue::Resource(_)),
        "Enumerable" => matches!(v, RValue::Array(_) | RValue::Hash(_) | RValue::Range(..)),
        _ => c == class,
    }
}

pub fn range_items(a: i64, b: i64, excl: bool) -> Vec<RValue> {
    let end = if excl { b } else { b.saturating_add(1) };
    (a..end.max(a)).take(MAX_STEPS).map(RValue::Int).collect()
}

/// Refuses a range of more than [`MAX_STEPS`] integers before
/// [`range_items`] lists it.
pub fn check_range(cx: &Interp<'_>, a: i64, b: i64, excl: bool) -> R<()> {
    let end = if excl { b } else { b.saturating_add(1) };
    if (end as i128 - a as i128) > MAX_STEPS as i128 {
        return cx.fail_at(over_limit(
            &format!("the range {a}{}{b}", if excl { "..." } else { ".." }),
            MAX_STEPS,
            "integers",
        ));
    }
    Ok(())
}

pub fn hash_set(h: &mut Vec<(RValue, RValue)>, k: RValue, v: RValue) {
    match h.iter_mut().find(|(k2, _)| k2.eq(&k)) {
        Some(e) => e.1 = v,
        None => h.push((k, v)),
    }
}

impl Interp<'_> {
    pub fn fail_line(&self) -> usize {
        self.line
    }

    pub fn fail_at<T>(&self, msg: impl Into<String>) -> R<T> {
        self.fail(msg)
    }

    /// Before a method allocates `count` items of `size` bytes that the
    /// template chose (a repeated or padded string, a range's array): an
    /// error, not an allocation, when they do not fit the node's memory
    /// budget (`crate::budget::reserve`).
    pub fn reserve(&self, count: u64, size: usize) -> R<()> {
        crate::budget::reserve_items(count, size).or_else(|e| self.fail(e.to_string()))
    }

    /// `each_with_object`: runs the block with the element and the memo,
    /// then reads the memo back from its parameter (templates change it
    /// with `memo[k] = v`, which assigns the local here).
    pub fn yield_with_memo(
        &mut self,
        block: &Block,
        item: RValue,
        var: &str,
        memo: &mut RValue,
    ) -> R<()> {
        let saved = self.bind_params(block, vec![item, memo.clone()]);
        let r = match self.run(&block.body) {
            Ok(_) | Err(Flow::Next(_)) => Ok(()),
            Err(e) => Err(e),
        };
        if let Some(v) = self.locals.get(var) {
            *memo = v.clone();
        }
        self.unbind_params(block, saved);
        r
    }
}

/// Methods that change their receiver in Ruby. Values here are immutable,
/// so a call on a local variable stores the result back into it.
const MUTATORS: [&str; 11] = [
    "<<",
    "clear",
    "push",
    "concat",
    "append",
    "unshift",
    "merge!",
    "update",
    "store",
    "delete_if",
    "keep_if",
];

impl Interp<'_> {
    /// The Puppet value a receiver still is, object for object: a method
    /// parameter bound to a Puppet argument and not changed since, or an
    /// instance variable the code never assigned (Puppet's variable).
    fn puppet_object(
        &mut self,
        recv: Option<&Node>,
        value: Option<&RValue>,
    ) -> Option<puppet_model::Value> {
        match &recv?.expr {
            Expr::Name(var) => {
                let orig = self.pristine.get(var)?;
                // Changed in place since (values here are copies): no
                // longer Puppet's object.
                value
                    .is_some_and(|v| v.eq(&from_puppet(orig)))
                    .then(|| orig.clone())
            }
            Expr::IVar(var) if !self.ivars.contains_key(var) => {
                let orig = self.host.ivar(var)?;
                value
                    .is_some_and(|v| v.eq(&from_puppet(&orig)))
                    .then_some(orig)
            }
            _ => None,
        }
    }
}

/// Mutating methods that return their receiver, so a call chained on them
/// changes the same object.
const RETURN_SELF: [&str; 7] = [
    "<<", "push", "concat", "append", "unshift", "merge!", "update",
];

impl Interp<'_> {
    /// `delete`, `pop` and `shift` on a local variable: the removed value,
    /// the variable keeps the rest.
    fn remove_from_local(
        &mut self,
        recv: Option<&Node>,
        name: &str,
        args: &[RValue],
    ) -> Option<RValue> {
        let Some(Node {
            expr: Expr::Name(var),
            ..
        }) = recv
        else {
            return None;
        };
        let cur = self.locals.get_mut(var)?;
        // The variable's own copy changes (`make_mut`): others sharing the
        // old value keep it, as values here are never changed in place.
        match (cur, name) {
            (RValue::Hash(h), "delete") => {
                let h = Rc::make_mut(h);
                let key = args.first()?;
                let pos = h.iter().position(|(k, _)| k.eq(key));
                Some(pos.map(|p| h.remove(p).1).unwrap_or(RValue::Nil))
            }
            (RValue::Array(a), "delete") => {
                let x = args.first()?;
                let a = Rc::make_mut(a);
                let before = a.len();
                a.retain(|i| !i.eq(x));
                Some(if a.len() < before {
                    x.clone()
                } else {
                    RValue::Nil
                })
            }
            (RValue::Array(a), "pop") if args.is_empty() => {
                Some(Rc::make_mut(a).pop().unwrap_or(RValue::Nil))
            }
            (RValue::Array(a), "delete_at") => {
                let RValue::Int(i) = args.first()? else {
                    return None;
                };
                let len = a.len() as i64;
                let i = if *i < 0 { *i + len } else { *i };
                Some(if (0..len).contains(&i) {
                    Rc::make_mut(a).remove(i as usize)
                } else {
                    RValue::Nil
                })
            }
            // `enum.next`: an Enumerator's position lives in the variable.
            (RValue::Enumerator(e), "next") if args.is_empty() => {
                // Past the end: Enumerator#next raises StopIteration.
                if e.items.is_empty() {
                    return None;
                }
                let mut rest = (**e).clone();
                let first = rest.items.remove(0);
                *e = Rc::new(rest);
                Some(first)
            }
            (RValue::Array(a), "shift") if args.is_empty() => Some(if a.is_empty() {
                RValue::Nil
            } else {
                Rc::make_mut(a).remove(0)
            }),
            _ => None,
        }
    }

    /// The variable a call changes in place (Ruby's mutating methods on a
    /// local or instance variable).
    fn mutated_local(&self, recv: Option<&Node>, name: &str) -> Option<Mutated> {
        let mutating = MUTATORS.contains(&name) || (name.ends_with('!') && name != "!");
        if !mutating {
            return None;
        }
        self.mutated_target(recv?)
    }

    /// The variable whose object `recv` is: a local or instance variable,
    /// or a call that changes one and returns it (`list << a << b`).
    fn mutated_target(&self, recv: &Node) -> Option<Mutated> {
        match &recv.expr {
            Expr::Name(var) if self.locals.contains_key(var) => Some(Mutated::Local(var.clone())),
            Expr::IVar(var) => Some(Mutated::IVar(var.clone())),
            Expr::Binop(op, inner, _) if RETURN_SELF.contains(op) => self.mutated_target(inner),
            Expr::Call {
                recv: Some(inner),
                name,
                ..
            } if RETURN_SELF.contains(&name.as_str()) => self.mutated_target(inner),
            _ => None,
        }
    }

    fn write_back(&mut self, target: Option<Mutated>, name: &str, v: RValue) -> R<RValue> {
        let (before, ivar) = match target {
            None => return Ok(v),
            Some(Mutated::Local(var)) => {
                self.note_local(&var, Change::InPlace);
                let before = self.bind_local(&var, v.clone());
                (before, self.ivar_aliases.get(&var).cloned())
            }
            Some(Mutated::IVar(var)) => {
                let before = match self.ivars.get(&var) {
                    Some(b) => Some(b.clone()),
                    None => self.host.ivar(&var).map(|p| from_puppet(&p)),
                };
                (before, Some(var))
            }
        };
        // An array or hash an instance variable holds is Puppet's own
        // object: the change shows in Puppet's variable and parameter.
        if let Some(iv) = ivar {
            if name != "store" && matches!(v, RValue::Array(_) | RValue::Hash(_)) {
                self.ivars.insert(iv.clone(), v.clone());
                self.host.changed_in_place(&iv, to_puppet(&v));
            }
        }
        // A bang method returns nil when it changed nothing.
        if name.ends_with('!') && before.is_some_and(|b| b.eq(&v)) {
            return Ok(RValue::Nil);
        }
        Ok(v)
    }
}

/// `X.lookupvar(k)` or `X[k]`: the receiver and the key (the receiver is
/// the template's `scope` when it evaluates to it).
fn scope_var_access(e: &Expr) -> Option<(&Node, &Node)> {
    match e {
        Expr::Call {
            recv: Some(r),
            name,
            args,
            ..
        } if name == "lookupvar" && args.len() == 1 => Some((r, &args[0])),
        Expr::Index(r, args) if args.len() == 1 => Some((r, &args[0])),
        _ => None,
    }
}

/// What a mutating method call changes.
enum Mutated {
    Local(String),
    IVar(String),
}

impl Interp<'_> {
    /// A body with its `rescue`/`else`/`ensure` (a `begin` or a method).
    fn run_def_body(&mut self, def: &Def) -> R<RValue> {
        let r = match self.run(&def.body) {
            Err(Flow::Error(msg, line)) => {
                let class = self
                    .error_class
                    .take()
                    .unwrap_or_else(|| exception_class_of(&msg).to_string());
                // A node over its budget stays failed: no `rescue` catches it.
                let over_budget = crate::budget::exceeded().is_some();
                let caught = def.rescues.iter().filter(|_| !over_budget).find(|r| {
                    if r.classes.is_empty() {
                        exception_is_a(&class, "StandardError")
                    } else {
                        r.classes.iter().any(|c| exception_is_a(&class, c))
                    }
                });
                match caught {
                    Some(rescue) => {
                        if let Some(v) = &rescue.var {
                            self.locals.insert(v.clone(), RValue::str(msg));
                        }
                        self.run(&rescue.body)
                    }
                    None => {
                        self.error_class = Some(class);
                        Err(Flow::Error(msg, line))
                    }
                }
            }
            Ok(v) => match &def.else_ {
                Some(b) => self.run(b),
                None => Ok(v),
            },
            other => other,
        };
        if let Some(ensure) = &def.ensure {
            self.run(ensure)?;
        }
        r
    }

    /// Calls a method the template defined: its own local variables.
    fn call_def(
        &mut self,
        name: &str,
        def: &Def,
        args: Vec<RValue>,
        block: Option<MethodBlock>,
    ) -> R<RValue> {
        let required = def.params.iter().filter(|p| p.1.is_none()).count();
        if args.len() < required || (def.rest.is_none() && args.len() > def.params.len()) {
            return self.fail(format!(
                "wrong number of arguments (given {}, expected {}) in `{name}'",
                args.len(),
                required
            ));
        }
        if self.call_depth >= 50 {
            return self.fail("stack level too deep");
        }
        self.call_depth += 1;
        let saved = std::mem::take(&mut self.locals);
        let saved_block = std::mem::replace(&mut self.current_block, block);
        let origins = std::mem::take(&mut self.arg_origins);
        let saved_pristine = std::mem::take(&mut self.pristine);
        let saved_changed = std::mem::take(&mut self.changed_in_place);
        let saved_assigned = std::mem::take(&mut self.assigned);
        for (i, (p, _)) in def.params.iter().enumerate() {
            if let Some(Some(o)) = origins.get(i) {
                self.pristine.insert(p.clone(), o.clone());
            }
        }
        let mut r = Ok(RValue::Nil);
        for (i, (p, default)) in def.params.iter().enumerate() {
            let v = match (args.get(i), default) {
                (Some(v), _) => v.clone(),
                (None, Some(d)) => match self.eval(d) {
                    Ok(v) => v,
                    Err(e) => {
                        r = Err(e);
                        break;
                    }
                },
                (None, None) => RValue::Nil,
            };
            self.locals.insert(p.clone(), v);
        }
        if let Some(rest) = &def.rest {
            let extra = args.get(def.params.len()..).unwrap_or(&[]).to_vec();
            self.locals.insert(rest.clone(), RValue::array(extra));
        }
        if r.is_ok() {
            r = self.run_def_body(def);
        }
        let changed: Vec<(usize, RValue)> = def
            .params
            .iter()
            .enumerate()
            .filter(|(i, (p, _))| {
                *i < args.len() && self.changed_in_place.contains(p) && !self.assigned.contains(p)
            })
            .filter_map(|(i, (p, _))| Some((i, self.locals.get(p)?.clone())))
            .collect();
        self.changed_in_place = saved_changed;
        self.assigned = saved_assigned;
        self.locals = saved;
        self.pristine = saved_pristine;
        self.current_block = saved_block;
        self.call_depth -= 1;
        self.changed_args = changed;
        match r {
            Err(Flow::Return(v)) => Ok(v),
            other => other,
        }
    }

    /// Notes how a local of the running method changed, for
    /// [`Interp::changed_args`]. Only a method has parameters: outside one
    /// (a template's own code, most assignments) nothing is kept.
    fn note_local(&mut self, name: &str, change: Change) {
        if self.call_depth == 0 {
            return;
        }
        let set = match change {
            Change::InPlace => &mut self.changed_in_place,
            Change::Assigned => &mut self.assigned,
        };
        if !set.contains(name) {
            set.insert(name.to_string());
        }
    }

    /// The caller's side of [`Interp::changed_args`]: each variable given
    /// as an argument the method changed in place holds the change.
    fn write_back_args(&mut self, args: &[Node]) -> R<()> {
        let changed = std::mem::take(&mut self.changed_args);
        if changed.is_empty() || args.iter().any(|a| matches!(a.expr, Expr::Splat(_))) {
            return Ok(());
        }
        for (i, v) in changed {
            if let Some(target) = args.get(i).and_then(|a| self.mutated_target(a)) {
                self.write_back(Some(target), "", v)?;
            }
        }
        Ok(())
    }

    /// `obj.extend(Module)`: the module's `self.extended(base)` hook runs
    /// (what it changes in `base` in place is `obj`'s change); the module's
    /// instance methods are not added. Module methods are known by name
    /// alone here, whichever module defined them.
    fn extend(&mut self, base: RValue) -> R<RValue> {
        if !self.has_module_function("extended") {
            return Ok(base);
        }
        let Some(def) = self.defs.get("extended").cloned() else {
            return Ok(base);
        };
        self.changed_args.clear();
        self.call_def("extended", &def, vec![base.clone()], None)?;
        let changed = std::mem::take(&mut self.changed_args);
        Ok(changed
            .into_iter()
            .find(|(i, _)| *i == 0)
            .map_or(base, |(_, v)| v))
    }

    /// `require 'feature'`: a file of a module's `lib` runs once, at its
    /// own top level (its locals are its own), defining its modules'
    /// methods; true the first time, false after. A feature no module has
    /// is one of Ruby's libraries, loaded already: true.
    pub fn require_feature(&mut self, feature: &str) -> R<RValue> {
        let feature = feature.strip_suffix(".rb").unwrap_or(feature);
        let lib = match self.host.require_lib(feature) {
            None => return Ok(RValue::Bool(true)),
            Some(Err(e)) => return self.fail(e),
            Some(Ok(lib)) => lib,
        };
        if !self.required.insert(feature.to_string()) {
            return Ok(RValue::Bool(false));
        }
        let saved = std::mem::take(&mut self.locals);
        let declared = std::mem::replace(&mut self.declared_locals, lib.locals.clone());
        let line = self.line;
        let r = self.run(&lib.body);
        self.locals = saved;
        self.declared_locals = declared;
        self.line = line;
        r.map(|_| RValue::Bool(true))
    }
}

impl Interp<'_> {
    /// Binds a block's parameters to `args` (a group of several, `|k, v|`
    /// or `|(k, v), i|`, spreads an array over its names), answering what
    /// each name held before, in order, for [`Interp::unbind_params`].
    fn bind_params(&mut self, block: &Block, args: Vec<RValue>) -> Vec<Option<RValue>> {
        let mut saved = Vec::new();
        let mut args = args.into_iter();
        for group in &block.params {
            match (group.as_slice(), args.next().unwrap_or(RValue::Nil)) {
                ([name], v) => saved.push(self.bind_local(name, v)),
                (names, RValue::Array(ref items)) => {
                    for (j, name) in names.iter().enumerate() {
                        let item = items.get(j).cloned().unwrap_or(RValue::Nil);
                        saved.push(self.bind_local(name, item));
                    }
                }
                (names, other) => {
                    let mut first = Some(other);
                    for name in names {
                        let item = first.take().unwrap_or(RValue::Nil);
                        saved.push(self.bind_local(name, item));
                    }
                }
            }
        }
        saved
    }

    /// Sets a local variable, answering its old value (no new key is
    /// allocated when the name is bound already).
    fn bind_local(&mut self, name: &str, v: RValue) -> Option<RValue> {
        match self.locals.get_mut(name) {
            Some(slot) => Some(std::mem::replace(slot, v)),
            None => {
                self.locals.insert(name.to_string(), v);
                None
            }
        }
    }

    /// Puts back the local variables a block's parameters shadowed: last
    /// bound first, so a name the block lists twice gets its first value.
    fn unbind_params(&mut self, block: &Block, saved: Vec<Option<RValue>>) {
        let names = block.params.iter().flatten().rev();
        for (name, old) in names.zip(saved.into_iter().rev()) {
            match old {
                Some(v) => {
                    self.bind_local(name, v);
                }
                None => {
                    self.locals.remove(name);
                }
            }
        }
    }
}

/// The Ruby class of an error the interpreter raised itself, by its text.
pub(super) fn exception_class_of(msg: &str) -> &'static str {
    if msg.starts_with("undefined method") {
        "NoMethodError"
    } else if msg.starts_with("undefined local variable or method") {
        "NameError"
    } else if msg.starts_with("wrong number of arguments") || msg.starts_with("invalid value for") {
        "ArgumentError"
    } else if msg.starts_with("no implicit conversion") || msg.contains("can't be coerced") {
        "TypeError"
    } else if msg == "divided by 0" {
        "ZeroDivisionError"
    } else if msg.starts_with("key not found") {
        "KeyError"
    } else if msg.starts_with("index ") && msg.contains(" outside of array bounds") {
        "IndexError"
    } else if msg == "stack level too deep" {
        "SystemStackError"
    } else if msg.contains(LIMIT_MARK) {
        "NoMemoryError"
    } else {
        "RuntimeError"
    }
}

/// Whether exception class `class` is `ancestor` or inherits from it
/// (Ruby's hierarchy, and Puppet's errors under RuntimeError).
pub(super) fn exception_is_a(class: &str, ancestor: &str) -> bool {
    let short = |c: &str| c.rsplit("::").next().unwrap_or(c).to_string();
    let ancestor = short(ancestor);
    let mut c = short(class);
    loop {
        if c == ancestor || ancestor == "Exception" {
            return true;
        }
        let parent = match c.as_str() {
            "ParseErrorWithIssue" | "PreformattedError" => "ParseError",
            "ParseError" | "DevError" => "Error",
            "Error" => "RuntimeError",
            "NoMethodError" => "NameError",
            // Psych 5's two kinds of `BadAlias`.
            "AliasesNotEnabled" | "AnchorNotDefined" => "BadAlias",
            "KeyError" | "StopIteration" => "IndexError",
            "InvalidAddressError" | "AddressFamilyError" | "InvalidPrefixError" => "ArgumentError",
            "FloatDomainError" => "RangeError",
            "RuntimeError" | "ArgumentError" | "TypeError" | "ZeroDivisionError" | "NameError"
            | "IndexError" | "RangeError" | "IOError" | "RegexpError" | "EncodingError" => {
                "StandardError"
            }
            "StandardError" | "ScriptError" | "SystemStackError" | "NoMemoryError" => "Exception",
            // An unknown class (a module's own): a StandardError, as
            // exceptions defined with `Class.new(StandardError)` are.
            "Exception" => return false,
            _ => "StandardError",
        };
        c = parent.to_string();
    }
}
