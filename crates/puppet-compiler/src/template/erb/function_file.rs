//! Ruby functions of modules (`lib/puppet/parser/functions/*.rb`, the 3.x
//! API, and `lib/puppet/functions/**/*.rb`, the 4.x API), run by the same
//! Ruby-subset interpreter as ERB templates. No Ruby runs: a function whose
//! Ruby is outside the subset fails with the interpreter's error, naming
//! the function's file and line.
//!
//! A file is read once per run into a [`FunctionFile`]: its heredocs become
//! string literals (line numbers kept), then the whole file is parsed and
//! the `newfunction` or `create_function` call found in it.

use rustc_hash::FxHashMap as HashMap;
use std::sync::Arc as Rc;

use super::interp::{Flow, Interp, SelfKind};
use super::parser::{parse_code_with_locals, Block, Def, Expr, Node};
use super::value::{from_puppet, to_puppet, RValue};
use super::{ErbError, Host};
use puppet_model::value::Value;

/// One parameter of a 4.x `dispatch`: its type (Puppet source text), name,
/// and how it repeats.
#[derive(Clone, Debug, PartialEq)]
pub struct DispatchParam {
    pub type_src: String,
    pub name: String,
    /// `optional_param`: may be left out.
    pub optional: bool,
    /// `repeated_param` (`*`) or `required_repeated_param` (`+`).
    pub repeated: bool,
}

/// A 4.x `dispatch :method do ... end`.
#[derive(Clone, Debug)]
pub struct Dispatch {
    pub method: String,
    pub params: Vec<DispatchParam>,
    /// `block_param` / `optional_block_param`: the function takes a lambda.
    pub block: Option<bool>,
    /// The block's type when the dispatch names one (`Callable[2,2]`).
    pub block_type: Option<String>,
    /// `scope_param`: the method gets the calling scope first.
    pub scope_param: bool,
}

/// A function file: its definition, and the names its code assigns as
/// locals (see [`Interp::declared_locals`]).
#[derive(Debug)]
pub struct FunctionFile {
    pub def: Definition,
    locals: Rc<rustc_hash::FxHashSet<String>>,
    /// What the file's top level `require`s (`'puppet_x/elastic/deep_implode'`):
    /// Ruby loaded it with the file, before any call.
    requires: Vec<String>,
}

/// A Ruby file of a module's `lib` that code `require`s (`puppet_x/...`):
/// its top level, run when required (which defines its modules' methods).
#[derive(Debug)]
pub struct RubyLib {
    pub(super) body: super::parser::Body,
    pub(super) locals: Rc<rustc_hash::FxHashSet<String>>,
}

impl RubyLib {
    pub fn parse(src: &str) -> Result<RubyLib, ErbError> {
        let code = heredocs_as_literals(src);
        let (body, locals) = parse_code_with_locals(&code, 1, 0)
            .map_err(|(message, line)| ErbError { message, line })?;
        Ok(RubyLib {
            body,
            locals: Rc::new(locals),
        })
    }
}

#[derive(Debug)]
pub enum Definition {
    /// `newfunction(:name, :type => :rvalue, :arity => n) do |args| ... end`.
    V3 {
        name: String,
        rvalue: bool,
        arity: i64,
        /// The block's parameter (`args`, `arguments`, ...).
        param: Option<String>,
        body: Rc<Block>,
    },
    /// `Puppet::Functions.create_function(:name) do ... end`.
    V4 {
        name: String,
        dispatches: Vec<Dispatch>,
        defs: HashMap<String, Rc<Def>>,
        /// The function overrides `call(scope, *args)` to dispatch on
        /// `[scope] + args` (stdlib's workaround for PUP-4438): its
        /// dispatches take the calling scope first.
        prepends_scope: bool,
    },
}

impl FunctionFile {
    /// Reads a function file's text (`name` is what the caller called).
    pub fn parse(src: &str) -> Result<FunctionFile, ErbError> {
        let code = heredocs_as_literals(src);
        let (body, locals) = parse_code_with_locals(&code, 1, 0)
            .map_err(|(message, line)| ErbError { message, line })?;
        let def = find_definition(&body).ok_or_else(|| ErbError {
            message: "no newfunction or create_function call found".into(),
            line: 1,
        })?;
        let mut requires = Vec::new();
        top_level_requires(&body, &mut requires);
        Ok(FunctionFile {
            def,
            locals: Rc::new(locals),
            requires,
        })
    }

    /// An interpreter whose `self` is `kind`, knowing the file's locals,
    /// with what the file requires loaded.
    fn interp<'h>(&self, host: &'h mut dyn Host, kind: SelfKind) -> Result<Interp<'h>, RubyError> {
        let mut it = Interp::new(host);
        it.self_kind = kind;
        for feature in &self.requires {
            let r = it.require_feature(feature);
            finish(&mut it, r)?;
        }
        it.declared_locals = self.locals.clone();
        Ok(it)
    }

    /// Runs a 3.x function: `args` are already Puppet's 3.x argument
    /// mapping (top-level undef as `''`). `None` for a statement function.
    pub fn call_3x(&self, host: &mut dyn Host, args: &[Value]) -> Result<Value, RubyError> {
        let Definition::V3 {
            param,
            body,
            rvalue,
            ..
        } = &self.def
        else {
            return Ok(Value::Undef);
        };
        let keep_binary = host.keeps_binary_strings();
        let mut it = self.interp(host, SelfKind::Function3x)?;
        if let Some(p) = param {
            it.set_local(
                p,
                RValue::array(args.iter().map(from_puppet_3x).collect::<Vec<_>>()),
            );
        }
        let r = it.run(&body.body);
        let v = finish(&mut it, r)?;
        Ok(if *rvalue {
            returned(&v, keep_binary)
        } else {
            Value::Undef
        })
    }

    /// Runs a 4.x function's method for `dispatch` (the one the caller chose).
    pub fn call_4x(
        &self,
        host: &mut dyn Host,
        dispatch: &Dispatch,
        args: &[Value],
    ) -> Result<Value, RubyError> {
        let Definition::V4 {
            defs,
            prepends_scope,
            ..
        } = &self.def
        else {
            return Ok(Value::Undef);
        };
        let host_block = host.has_block();
        let keep_binary = host.keeps_binary_strings();
        let mut it = self.interp(host, SelfKind::Function4x)?;
        for (name, def) in defs {
            it.define(name, def.clone());
        }
        let mut origins: Vec<Option<Value>> = args.iter().cloned().map(Some).collect();
        let mut args: Vec<RValue> = args.iter().map(from_puppet).collect();
        // `scope_param`, or an overridden `call`: the method's first
        // parameter is the calling scope.
        if *prepends_scope || dispatch.scope_param {
            args.insert(0, RValue::Scope);
            origins.insert(0, None);
        }
        it.arg_origins = origins;
        // The Puppet lambda, if the call had one, is the method's block.
        let block = host_block.then_some(super::interp::MethodBlock::Host);
        let r = it.call_defined(&dispatch.method, args, block);
        let v = finish(&mut it, r)?;
        Ok(returned(&v, keep_binary))
    }
}

/// A Ruby function's result as Puppet gets it back.
fn returned(v: &RValue, keep_binary: bool) -> Value {
    if keep_binary {
        super::value::to_puppet_keeping_binary(v)
    } else {
        to_puppet(v)
    }
}

/// A 3.x function's argument as Puppet's `Runtime3Converter` hands it
/// over: resource and class references (`Package['a']`, `Class['c']`)
/// become `Puppet::Resource` objects; the rest as for templates.
fn from_puppet_3x(v: &Value) -> RValue {
    from_puppet_3x_nested(v, &mut super::value::Shared::default())
}

fn from_puppet_3x_nested(v: &Value, shared: &mut super::value::Shared) -> RValue {
    use puppet_model::types::{capitalize_segments, PType};
    if crate::budget::walk_stops_at(v) {
        return RValue::Nil;
    }
    let reference = |type_name: String, title: String| {
        RValue::Resource(Rc::new(super::value::ResourceView {
            type_name,
            title,
            params: Vec::new(),
        }))
    };
    super::value::deep(|| match v {
        Value::Type(t) => match &**t {
            PType::Resource {
                type_name: Some(ty),
                title: Some(title),
            } => reference(capitalize_segments(ty), title.to_string()),
            PType::Class(Some(name)) => reference("Class".into(), capitalize_segments(name)),
            _ => from_puppet(v),
        },
        Value::Array(_) | Value::Hash(_) => {
            super::value::collection(v, shared, from_puppet_3x_nested)
        }
        _ => from_puppet(v),
    })
}

/// An exception a function's Ruby let out: its message, line, and class
/// (what a Ruby caller's `rescue` matches).
#[derive(Clone, Debug, PartialEq)]
pub struct RubyError {
    pub message: String,
    pub line: usize,
    pub class: String,
}

/// A body's value: `return`, `next` and `break` all end it with theirs.
fn finish(it: &mut Interp<'_>, r: Result<RValue, Flow>) -> Result<RValue, RubyError> {
    match r {
        Ok(v) | Err(Flow::Return(v)) | Err(Flow::Next(v)) | Err(Flow::Break(v)) => Ok(v),
        Err(Flow::Error(message, line)) => {
            let class = it
                .error_class
                .take()
                .unwrap_or_else(|| super::interp::exception_class_of(&message).to_string());
            Err(RubyError {
                message,
                line,
                class,
            })
        }
    }
}

/// The features a file `require`s by a literal name, at its top level or
/// in `module`/`class` bodies there.
fn top_level_requires(body: &[Node], out: &mut Vec<String>) {
    for n in body {
        match &n.expr {
            Expr::Seq(inner) => top_level_requires(inner, out),
            Expr::Call {
                recv: None,
                name,
                args,
                ..
            } if name == "require" => out.extend(args.first().and_then(literal_text)),
            _ => {}
        }
    }
}

/// The `newfunction` or `create_function` call, at the top or inside
/// `module`/`class` bodies.
fn find_definition(body: &[Node]) -> Option<Definition> {
    for n in body {
        match &n.expr {
            Expr::Seq(inner) => {
                if let Some(f) = find_definition(inner) {
                    return Some(f);
                }
            }
            Expr::Call {
                name,
                args,
                block: Some(block),
                ..
            } if name == "newfunction" => return Some(v3(args, block)),
            Expr::Call {
                name,
                args,
                block: Some(block),
                ..
            } if name == "create_function" => return Some(v4(args, block)),
            _ => {}
        }
    }
    None
}

fn v3(args: &[Node], block: &Rc<Block>) -> Definition {
    let name = args.first().and_then(literal_text).unwrap_or_default();
    let mut rvalue = false;
    let mut arity = -1;
    for a in &args[1.min(args.len())..] {
        if let Expr::Hash(pairs) = &a.expr {
            for (k, v) in pairs {
                match literal_text(k).as_deref() {
                    Some("type") => rvalue = literal_text(v).as_deref() == Some("rvalue"),
                    Some("arity") => arity = literal_int(v).unwrap_or(-1),
                    _ => {}
                }
            }
        }
    }
    Definition::V3 {
        name,
        rvalue,
        arity,
        param: block.params.first().and_then(|p| p.first()).cloned(),
        body: block.clone(),
    }
}

fn v4(args: &[Node], block: &Block) -> Definition {
    let name = args.first().and_then(literal_text).unwrap_or_default();
    let mut dispatches = Vec::new();
    let mut defs = HashMap::default();
    for n in &block.body {
        match &n.expr {
            Expr::Def(m, def) => {
                defs.insert(m.clone(), def.clone());
            }
            Expr::Call {
                recv: None,
                name,
                args,
                block,
                ..
            } if name == "dispatch" => {
                let method = args.first().and_then(literal_text).unwrap_or_default();
                let mut d = Dispatch {
                    method,
                    params: Vec::new(),
                    block: None,
                    block_type: None,
                    scope_param: false,
                };
                for p in block.iter().flat_map(|b| b.body.iter()) {
                    dispatch_param(&mut d, p);
                }
                dispatches.push(d);
            }
            _ => {}
        }
    }
    // Without `dispatch`, Puppet calls the method named like the function
    // with the method's own parameters, untyped.
    if dispatches.is_empty() {
        let method = name.rsplit("::").next().unwrap_or(&name).to_string();
        if let Some(def) = defs.get(&method) {
            let mut params: Vec<DispatchParam> = def
                .params
                .iter()
                .map(|(p, default)| DispatchParam {
                    type_src: "Any".into(),
                    name: p.clone(),
                    optional: default.is_some(),
                    repeated: false,
                })
                .collect();
            if let Some(rest) = &def.rest {
                params.push(DispatchParam {
                    type_src: "Any".into(),
                    name: rest.clone(),
                    optional: true,
                    repeated: true,
                });
            }
            dispatches.push(Dispatch {
                method,
                params,
                block: None,
                block_type: None,
                scope_param: false,
            });
        }
    }
    Definition::V4 {
        name,
        dispatches,
        prepends_scope: defs.contains_key("call"),
        defs,
    }
}

/// One statement of a `dispatch` block.
fn dispatch_param(d: &mut Dispatch, n: &Node) {
    let (name, args) = match &n.expr {
        Expr::Call {
            recv: None,
            name,
            args,
            ..
        } => (name, args.as_slice()),
        // `scope_param`: a bare name.
        Expr::Name(name) => (name, &[][..]),
        _ => return,
    };
    let (optional, repeated) = match name.as_str() {
        "param" | "required_param" => (false, false),
        "optional_param" => (true, false),
        // Puppet's dispatcher has `optional_repeated_param` as another name
        // of `repeated_param` (stdlib 9's `fqdn_rand_string` uses it).
        "repeated_param" | "optional_repeated_param" => (true, true),
        "required_repeated_param" => (false, true),
        "block_param" | "optional_block_param" => {
            d.block = Some(name == "block_param");
            // `block_param 'Callable[2,2]', :block` (or just `:block`).
            if args.len() == 2 {
                d.block_type = args.first().and_then(literal_text);
            }
            return;
        }
        "scope_param" => {
            d.scope_param = true;
            return;
        }
        _ => return,
    };
    let (Some(type_src), Some(pname)) = (
        args.first().and_then(literal_text),
        args.get(1).and_then(literal_text),
    ) else {
        return;
    };
    d.params.push(DispatchParam {
        type_src,
        name: pname,
        optional,
        repeated,
    });
}

/// A literal's text: a string without interpolation, or a symbol.
fn literal_text(n: &Node) -> Option<String> {
    use super::parser::StrPart;
    let text = |parts: &[StrPart]| {
        let mut out = String::new();
        for p in parts {
            match p {
                StrPart::Lit(s) => out.push_str(s),
                StrPart::Code(_) => return None,
            }
        }
        Some(out)
    };
    match &n.expr {
        Expr::Sym(s) => Some(s.clone()),
        Expr::Str(parts) | Expr::DSym(parts) => text(parts),
        _ => None,
    }
}

fn literal_int(n: &Node) -> Option<i64> {
    match &n.expr {
        Expr::Int(i) => Some(*i),
        Expr::Neg(inner) => literal_int(inner).map(|i| -i),
        _ => None,
    }
}

/// Ruby's heredocs (`<<-EOS`, `<<~EOS`, `<<EOS`, quoted or not) rewritten as
/// one-line string literals, their lines left blank so that every later
/// line keeps its number.
pub fn heredocs_as_literals(src: &str) -> String {
    let lines: Vec<&str> = src.split('\n').collect();
    let mut out: Vec<String> = Vec::with_capacity(lines.len());
    let mut i = 0;
    while i < lines.len() {
        let mut line = lines[i].to_string();
        i += 1;
        let mut blanks = 0;
        // Several heredocs may start on one line; their bodies follow in order.
        let mut from = 0;
        while let Some(h) = find_heredoc(&line[from..]) {
            let mut body: Vec<&str> = Vec::new();
            while i < lines.len() {
                let l = lines[i].trim_end_matches('\r');
                i += 1;
                blanks += 1;
                let done = if h.indented_end {
                    l.trim() == h.tag
                } else {
                    l == h.tag
                };
                if done {
                    break;
                }
                body.push(l);
            }
            let indent = if h.squiggly {
                body.iter()
                    .filter(|l| !l.trim().is_empty())
                    .map(|l| l.len() - l.trim_start().len())
                    .min()
                    .unwrap_or(0)
            } else {
                0
            };
            let text: String = body
                .iter()
                .map(|l| format!("{}\n", l.get(indent..).unwrap_or("")))
                .collect();
            let literal = string_literal(&text, h.interpolate);
            line = format!(
                "{}{}{}",
                &line[..from + h.start],
                literal,
                &line[from + h.end..]
            );
            from += h.start + literal.len();
        }
        out.push(line);
        out.extend(std::iter::repeat_n(String::new(), blanks));
    }
    out.join("\n")
}

/// Where a heredoc starts in a line, and how it reads.
struct Heredoc {
    start: usize,
    end: usize,
    tag: String,
    /// `<<~`: the common indentation is removed.
    squiggly: bool,
    /// `<<-` or `<<~`: the closing tag may be indented.
    indented_end: bool,
    /// Unquoted or `"TAG"`: `#{}` and escapes work as in double quotes.
    interpolate: bool,
}

/// The first heredoc start in a line outside strings and comments: its
/// byte range, tag, and whether it is `<<~`, `<<-`, and interpolating.
fn find_heredoc(line: &str) -> Option<Heredoc> {
    let b = line.as_bytes();
    let mut quote: Option<u8> = None;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if let Some(q) = quote {
            if c == b'\\' {
                i += 2;
                continue;
            }
            if c == q {
                quote = None;
            }
            i += 1;
            continue;
        }
        match c {
            b'#' => return None,
            b'\'' | b'"' => quote = Some(c),
            b'<' if b.get(i + 1) == Some(&b'<') => {
                let mut j = i + 2;
                let squiggly = b.get(j) == Some(&b'~');
                let dash = b.get(j) == Some(&b'-');
                if squiggly || dash {
                    j += 1;
                }
                let q = match b.get(j) {
                    Some(&q @ (b'\'' | b'"')) => {
                        j += 1;
                        Some(q)
                    }
                    _ => None,
                };
                let tag_start = j;
                while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
                    j += 1;
                }
                let tag = &line[tag_start..j];
                let starts_word = tag
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
                // A bare `<<WORD` is a heredoc only in capitals (`a <<b` shifts).
                let bare_ok =
                    squiggly || dash || q.is_some() || tag.chars().all(|c| !c.is_ascii_lowercase());
                if starts_word && bare_ok {
                    if let Some(q) = q {
                        if b.get(j) != Some(&q) {
                            return None;
                        }
                        j += 1;
                    }
                    return Some(Heredoc {
                        start: i,
                        end: j,
                        tag: tag.to_string(),
                        squiggly,
                        indented_end: squiggly || dash,
                        interpolate: q != Some(b'\''),
                    });
                }
                i += 2;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// A one-line Ruby string literal with `text`'s value: Ruby's own
/// `inspect` for a quoted heredoc; for an interpolating one only quotes and
/// line breaks are escaped, so its `#{}` and escapes still work.
fn string_literal(text: &str, interpolate: bool) -> String {
    if !interpolate {
        return puppet_model::names::ruby_inspect_str(text);
    }
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A scope with nothing in it, for Ruby that needs none.
struct NoScope;

impl Host for NoScope {
    /// Title patterns are data, the same in either Ruby; a failure is
    /// pverify's refusal, not a Ruby text.
    fn ruby(&self) -> puppet_model::ruby::RubyVersion {
        puppet_model::ruby::RubyVersion::default()
    }
    fn ivar(&mut self, _: &str) -> Option<Value> {
        None
    }
    fn lookupvar(&mut self, _: &str) -> Option<Value> {
        None
    }
    fn call_function(&mut self, name: &str, _: Vec<Value>) -> Result<Value, String> {
        Err(format!("pverify calls no function here ({name})"))
    }
    fn to_hash(&mut self) -> Value {
        Value::hash(Default::default())
    }
    fn setvar(&mut self, name: &str, _: Value) -> Result<(), String> {
        Err(format!("pverify sets no variable here ({name})"))
    }
    fn changed_in_place(&mut self, _: &str, _: Value) {}
}

/// One of a type's title patterns: the regex's source and the attributes
/// its groups set.
pub type TitlePatternValue = (String, Vec<String>);

/// Runs Ruby that computes a type's `title_patterns` (the helper modules it
/// calls, then the method's body; no scope): the patterns, each a regex and
/// its attributes (`[[regex, [[:a], [:b, identity lambda]]], ...]`). A
/// lambda that is not the identity, or any other shape, is refused.
pub fn eval_title_patterns(src: &str) -> Result<Vec<TitlePatternValue>, String> {
    let code = heredocs_as_literals(src);
    let (body, locals) =
        parse_code_with_locals(&code, 1, 0).map_err(|(m, l)| format!("line {l}: {m}"))?;
    let mut host = NoScope;
    let mut it = Interp::new(&mut host);
    it.declared_locals = Rc::new(locals);
    it.self_kind = SelfKind::Function3x;
    let r = it.run(&body);
    let v = finish(&mut it, r).map_err(|e| format!("line {}: {}", e.line, e.message))?;
    let bad = || "title_patterns: not a list of [regex, [[:attr], ...]]".to_string();
    let RValue::Array(ref list) = v else {
        return Err(bad());
    };
    let mut out = Vec::new();
    for p in list.iter() {
        let RValue::Array(pair) = p else {
            return Err(bad());
        };
        let (Some(RValue::Regex(re)), Some(RValue::Array(attrs)), 2) =
            (pair.first(), pair.get(1), pair.len())
        else {
            return Err(bad());
        };
        let mut names = Vec::new();
        for a in attrs.iter() {
            let RValue::Array(a) = a else {
                return Err(bad());
            };
            match a.as_slice() {
                [RValue::Sym(n)] => names.push(n.to_string()),
                [RValue::Sym(n), RValue::Proc(b)] => {
                    match it.yield_(b, vec![RValue::str("pverify probe")]) {
                        Ok(v) | Err(Flow::Next(v)) | Err(Flow::Return(v)) if matches!(&v, RValue::Str(s) if &**s == "pverify probe") =>
                            {}
                        _ => return Err("title_patterns: a lambda that is not the identity".into()),
                    }
                    names.push(n.to_string());
                }
                _ => return Err(bad()),
            }
        }
        out.push((re.clone(), names));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heredocs_keep_line_numbers() {
        let src = "a = <<-EOS\n  one\n  two\n  EOS\nb = <<~X + 'z'\n    p\n      q\nX\nc";
        let out = heredocs_as_literals(src);
        let lines: Vec<&str> = out.split('\n').collect();
        assert_eq!(lines.len(), src.split('\n').count());
        assert_eq!(lines[0], r#"a = "  one\n  two\n""#);
        assert_eq!(lines[4], r#"b = "p\n  q\n" + 'z'"#);
        assert_eq!(lines[8], "c");
    }

    #[test]
    fn shift_is_not_a_heredoc() {
        assert_eq!(heredocs_as_literals("a <<b\nc"), "a <<b\nc");
        assert_eq!(heredocs_as_literals("x = '<<EOS'\ny"), "x = '<<EOS'\ny");
    }
}
