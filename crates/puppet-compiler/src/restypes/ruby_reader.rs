//! Reads a module's `lib/puppet/type/<name>.rb` without Ruby: the type's
//! name (`newtype(:x)`), parameters (`newparam`, `newcheck`), properties
//! (`newproperty`, `ensurable`), namevars (`:namevar => true`, `namevar:
//! true`, `isnamevar` inside the block) and `self.title_patterns` when it is
//! a literal list of regexes and symbol lists.
//!
//! The file is first reduced to "code": comments, `=begin` blocks,
//! heredocs and the contents of quoted strings are blanked (they hold the
//! documentation, which mentions `newparam` freely); `%w[]`/`%i[]` lists and
//! regex literals are kept. Then the statements are recognised line by line.
//! Anything else Ruby could do (a parent type, parameters made by calling
//! other code) is refused with a reason, so a type is either read right or
//! reported. A type registered through the Resource API
//! (`Puppet::ResourceApi.register_type`) is read by `super::resource_api`.

use std::sync::OnceLock;

use regex::Regex;

use super::{TitlePattern, TypeDef};

/// A pattern compiled once per process, with `\s`, `\w` and `\b` made
/// ASCII-only: the Ruby source they scan is code, and their Unicode tables
/// made compiling these patterns a tenth of a one-node `pverify compile`.
fn re(cell: &'static OnceLock<Regex>, src: &str) -> &'static Regex {
    cell.get_or_init(|| Regex::new(&ascii_classes(src)).expect("static regex"))
}

fn ascii_classes(src: &str) -> String {
    let mut out = String::with_capacity(src.len() + 16);
    let mut in_class = false;
    let mut chars = src.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(e @ ('s' | 'w')) if in_class => out.push_str(if e == 's' {
                    r"\t\n\x0B\x0C\r "
                } else {
                    "0-9A-Za-z_"
                }),
                Some(e @ ('s' | 'w' | 'b')) => {
                    out.push_str("(?-u:\\");
                    out.push(e);
                    out.push(')');
                }
                Some(e) => {
                    out.push('\\');
                    out.push(e);
                }
                None => out.push('\\'),
            },
            '[' if !in_class => {
                in_class = true;
                out.push(c);
                // A `]` right after `[` or `[^` is a literal.
                let rest = chars.as_str();
                if let Some(r) = rest.strip_prefix('^') {
                    out.push('^');
                    chars = r.chars();
                }
                if let Some(r) = chars.as_str().strip_prefix(']') {
                    out.push(']');
                    chars = r.chars();
                }
            }
            ']' if in_class => {
                in_class = false;
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

/// The type a file defines, or why the reader cannot tell (a type that
/// needs other Ruby files is refused: see [`read_in`]).
pub fn read(text: &str) -> Result<TypeDef, String> {
    read_in(text, &|_| None)
}

/// The Ruby a type's file reaches through a module constant
/// (`PuppetX::Keystone::CompositeNamevar`): the text of the file defining
/// it (`lib/puppet_x/keystone/composite_namevar.rb`), or `None`.
pub type RubyLib<'a> = &'a dyn Fn(&str) -> Option<String>;

/// A mixin's methods (`extend M` makes them the type's class methods): each
/// method's body as code lines and raw lines.
type Methods = Vec<(String, Vec<String>, Vec<String>)>;

/// The methods `def name` of a module's file (not `def self.name`), or why
/// they cannot stand for what `extend` brings.
fn mixin_methods(text: &str) -> Result<Methods, String> {
    static DEF: OnceLock<Regex> = OnceLock::new();
    let def = re(&DEF, r"^\s*def\s+(self\.)?(\w+[?!]?)\s*(\(.*)?$");
    let code = blank_code(text);
    let lines: Vec<&str> = code.lines().collect();
    let raw: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if let Some(c) = def.captures(lines[i]) {
            let name = c[2].to_string();
            if matches!(name.as_str(), "extended" | "included" | "method_missing") {
                return Err(format!("its `{name}` hook may add attributes"));
            }
            let indent = indentation(lines[i]);
            let mut j = i + 1;
            let (mut body, mut body_raw) = (Vec::new(), Vec::new());
            while j < lines.len() && !(lines[j].trim() == "end" && indentation(lines[j]) <= indent)
            {
                body.push(lines[j].to_string());
                body_raw.push(raw.get(j).copied().unwrap_or(lines[j]).to_string());
                j += 1;
            }
            let takes_args = c.get(3).is_some_and(|a| a.as_str().trim() != "()");
            if c.get(1).is_none() && !takes_args {
                out.push((name, body, body_raw));
            }
            i = j;
        }
        i += 1;
    }
    Ok(out)
}

/// The type's lines with each `extend M` mixin's methods called as bare
/// statements (`create_parameters`) written in place, as Ruby runs them;
/// code and raw lines.
fn expand_mixins(text: &str, lib: RubyLib<'_>) -> Result<(Vec<String>, Vec<String>), String> {
    let code = blank_code(text);
    let lines: Vec<&str> = code.lines().collect();
    let raw: Vec<&str> = text.lines().collect();
    let mut methods: Methods = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if is_word_stmt(line, "extend") {
            let constant = line.trim()["extend".len()..].trim();
            let refused = |why: &str| {
                format!(
                    "line {}: a mixin (`{}`) may add attributes{why}",
                    i + 1,
                    line.trim()
                )
            };
            let text = lib(constant).ok_or_else(|| refused(""))?;
            let found = mixin_methods(&text).map_err(|e| refused(&format!(": {e}")))?;
            methods.extend(found);
        }
    }
    let (mut out, mut out_raw) = (Vec::new(), Vec::new());
    // `(code, raw, depth)`, taken from the front.
    let mut todo: std::collections::VecDeque<(String, String, usize)> = lines
        .iter()
        .enumerate()
        .map(|(i, l)| {
            (
                l.to_string(),
                raw.get(i).copied().unwrap_or(l).to_string(),
                0,
            )
        })
        .collect();
    while let Some((line, raw_line, depth)) = todo.pop_front() {
        if is_word_stmt(&line, "extend") {
            out.push(String::new());
            out_raw.push(String::new());
            continue;
        }
        let word = line.trim().trim_end_matches("()");
        if let Some((_, body, body_raw)) = methods.iter().find(|(n, _, _)| n == word) {
            if depth > 8 {
                return Err(format!("mixin method `{word}` calls itself"));
            }
            for (b, r) in body.iter().zip(body_raw).rev() {
                todo.push_front((b.clone(), r.clone(), depth + 1));
            }
            continue;
        }
        out.push(line);
        out_raw.push(raw_line);
    }
    Ok((out, out_raw))
}

/// The module functions (`def self.name ... end`) of a helper's file, as
/// written: what a type's `title_patterns` calls of it (the file's other
/// code patches Puppet's classes, which pverify does not run).
fn module_functions(text: &str) -> String {
    static DEF_SELF: OnceLock<Regex> = OnceLock::new();
    let def_self = re(&DEF_SELF, r"^\s*def\s+self\.\w+");
    let code = blank_code(text);
    let lines: Vec<&str> = code.lines().collect();
    let raw: Vec<&str> = text.lines().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < lines.len() {
        if def_self.is_match(lines[i]) {
            let indent = indentation(lines[i]);
            let mut j = i;
            while j < lines.len() {
                out.push_str(raw.get(j).copied().unwrap_or_default());
                out.push('\n');
                if j > i && lines[j].trim() == "end" && indentation(lines[j]) <= indent {
                    break;
                }
                j += 1;
            }
            i = j;
        } else {
            // Line numbers stay those of the file.
            out.push('\n');
        }
        i += 1;
    }
    out
}

/// Runs a `title_patterns` method that is not a literal list with the
/// Ruby-subset interpreter, after the helper modules it names.
fn computed_title_patterns(body: &str, lib: RubyLib<'_>) -> Result<Vec<TitlePattern>, String> {
    static CONST_CALL: OnceLock<Regex> = OnceLock::new();
    let const_call = re(&CONST_CALL, r"\b((?:[A-Z]\w*::)*[A-Z]\w*)\.\w+");
    let mut program = String::new();
    let mut seen: Vec<String> = Vec::new();
    for c in const_call.captures_iter(&blank_code(body)) {
        let constant = c[1].to_string();
        if constant == "Regexp" || seen.contains(&constant) {
            continue;
        }
        let text =
            lib(&constant).ok_or_else(|| format!("title_patterns: cannot read {constant}"))?;
        program.push_str(&module_functions(&text));
        seen.push(constant);
    }
    program.push_str(body);
    let patterns = crate::template::erb::function_file::eval_title_patterns(&program)
        .map_err(|e| format!("title_patterns: {e}"))?;
    let out: Vec<TitlePattern> = patterns
        .into_iter()
        .map(|(regex, attributes)| TitlePattern { regex, attributes })
        .collect();
    if out.iter().any(|p| p.attributes.is_empty()) {
        return Err("title_patterns: empty pattern".into());
    }
    Ok(out)
}

/// [`read`], reaching module constants through `lib`: `extend M` mixins'
/// methods that the type calls (`create_parameters`) are read as if written
/// in place, and a `title_patterns` computed by helper modules is run with
/// the Ruby-subset interpreter.
pub fn read_in(text: &str, lib: RubyLib<'_>) -> Result<TypeDef, String> {
    static NEWTYPE: OnceLock<Regex> = OnceLock::new();
    static ATTR: OnceLock<Regex> = OnceLock::new();
    static ATTR_VAR: OnceLock<Regex> = OnceLock::new();
    static EACH: OnceLock<Regex> = OnceLock::new();
    static NAMEVAR_OPT: OnceLock<Regex> = OnceLock::new();
    static TITLE_PATTERNS: OnceLock<Regex> = OnceLock::new();
    static DEF_LINE: OnceLock<Regex> = OnceLock::new();
    let newtype = re(
        &NEWTYPE,
        r"^\s*(?:(?:::)?Puppet::)?Type\.newtype\(\s*:(\w+)\s*(,.*)?\)?\s*(do\b.*)?$",
    );
    let attr = re(
        &ATTR,
        r"^\s*(newparam|newproperty|newcheck)[\s(]\s*:(\w+)(.*)$",
    );
    let attr_var = re(
        &ATTR_VAR,
        r"^\s*(?:\w+\s*=\s*)?(newparam|newproperty|newcheck)[\s(]\s*(\w+)\b",
    );
    let each = re(
        &EACH,
        r"(\[[^\]]*\]|%[wiWI]\[[^\]]*\]|%[wiWI]\([^)]*\)|%[wiWI]\{[^}]*\})\.each\s*(?:do\s*\||\{\s*\|)\s*(\w+)\s*\|",
    );
    let namevar_opt = re(&NAMEVAR_OPT, r"(?::namevar\s*=>|\bnamevar:)\s*true");
    let title_patterns = re(&TITLE_PATTERNS, r"^\s*def\s+self\.title_patterns\b");

    if super::resource_api::registers_type(&blank_code(text)) {
        return super::resource_api::read(text);
    }
    let (lines, raw_lines) = expand_mixins(text, lib)?;

    let mut name: Option<String> = None;
    let mut params: Vec<(String, bool)> = Vec::new();
    let mut props: Vec<String> = Vec::new();
    let mut patterns: Option<Vec<TitlePattern>> = None;
    // Loop variables bound to literal lists: `[:a, :b].each do |p|`.
    let mut bound: Vec<(String, Vec<String>)> = Vec::new();
    // The attributes an `isnamevar` belongs to: the last `newparam` opened
    // (each of a loop's).
    let mut last_param: Vec<usize> = Vec::new();
    // The arguments of the last `def` (helpers that call `newparam(name)`).
    let mut def_args: Vec<String> = Vec::new();
    let def_line = re(&DEF_LINE, r"^\s*def\s+(?:self\.)?\w+[\s(]([^)=]*)");

    let mut i = 0;
    while i < lines.len() {
        let line = lines[i].as_str();
        if let Some(c) = newtype.captures(line) {
            if name.is_some() {
                return Err("more than one newtype in the file".into());
            }
            if let Some(opts) = c.get(2) {
                if opts.as_str().contains("parent") {
                    return Err("newtype with a :parent type".into());
                }
            }
            name = Some(c[1].to_string());
        } else if line.contains("newtype") {
            return Err(format!("line {}: newtype not understood", i + 1));
        }
        // `extend` brings class methods that may define attributes
        // (`create_parameters`); `include` only instance methods.
        if is_word_stmt(line, "extend") {
            return Err(format!(
                "line {}: a mixin (`{}`) may add attributes",
                i + 1,
                line.trim()
            ));
        }
        if let Some(c) = def_line.captures(line) {
            def_args = c[1]
                .split([',', ' ', '(', ')', '&', '*'])
                .filter(|a| !a.is_empty() && !a.contains('='))
                .map(str::to_string)
                .collect();
        }
        if let Some(c) = each.captures(line) {
            bound.push((c[2].to_string(), list_items(&c[1])));
        }
        if let Some(c) = attr.captures(line) {
            let kind = &c[1];
            let attr_name = c[2].to_string();
            add_attr(
                kind,
                &attr_name,
                namevar_opt.is_match(&c[3]),
                &mut params,
                &mut props,
                &mut last_param,
            );
        } else if let Some(c) = attr_var.captures(line) {
            let var = &c[2];
            if def_args.iter().any(|a| a == var) {
                // Inside a helper such as `def self.newcheck(name, ...)`.
                i += 1;
                continue;
            }
            let Some((_, items)) = bound.iter().rev().find(|(v, _)| v == var) else {
                return Err(format!("line {}: {} of a computed name", i + 1, &c[1]));
            };
            // The block runs for each item: an `isnamevar` in it makes
            // each of them a key attribute.
            let mut opened = Vec::new();
            for item in items.clone() {
                add_attr(
                    &c[1],
                    &item,
                    false,
                    &mut params,
                    &mut props,
                    &mut last_param,
                );
                opened.extend(last_param.iter().copied());
            }
            last_param = opened;
        } else if def_line.is_match(line) {
            // `def self.newcheck(...)`: a helper, not a definition.
        } else if line.contains("newparam")
            || line.contains("newproperty")
            || line.contains("newcheck")
        {
            return Err(format!(
                "line {}: attribute definition not understood",
                i + 1
            ));
        }
        if is_word_stmt(line, "ensurable") && !props.iter().any(|p| p == "ensure") {
            props.insert(0, "ensure".to_string());
        }
        if is_word_stmt(line, "isnamevar") {
            // In a `newproperty` block it makes no key attribute (Puppet's
            // `key_attributes` looks at parameters only).
            for &k in &last_param {
                params[k].1 = true;
            }
        }
        if title_patterns.is_match(line) {
            let indent = indentation(line);
            let mut body = String::new();
            let mut j = i + 1;
            while j < lines.len() {
                let l = lines[j].as_str();
                if l.trim() == "end" && indentation(l) <= indent {
                    break;
                }
                // Regexes are kept in the code; strings are not needed.
                body.push_str(raw_lines.get(j).map(String::as_str).unwrap_or(l));
                body.push('\n');
                j += 1;
            }
            patterns = Some(match parse_title_patterns(&body) {
                Err(e) if e.starts_with("title_patterns not a literal list") => {
                    computed_title_patterns(&body, lib).map_err(|why| format!("{e}; {why}"))?
                }
                other => other?,
            });
            i = j;
        }
        i += 1;
    }
    let Some(name) = name else {
        return Err("no newtype(:name) in the file".into());
    };
    let key_attributes: Vec<String> = params
        .iter()
        .filter(|(n, nv)| *nv || n == "name")
        .map(|(n, _)| n.clone())
        .collect();
    if key_attributes.len() > 1 && patterns.is_none() {
        return Err("several key attributes and no title_patterns".into());
    }
    Ok(TypeDef {
        name,
        parameters: params.into_iter().map(|(n, _)| n).collect(),
        properties: props,
        key_attributes,
        isomorphic: true,
        title_patterns: patterns,
        needs_resource_api: false,
        accepted: Default::default(),
    })
}

fn add_attr(
    kind: &str,
    name: &str,
    namevar: bool,
    params: &mut Vec<(String, bool)>,
    props: &mut Vec<String>,
    last_param: &mut Vec<usize>,
) {
    if kind == "newproperty" {
        if !props.iter().any(|p| p == name) {
            props.push(name.to_string());
        }
        last_param.clear();
        return;
    }
    match params.iter().position(|(p, _)| p == name) {
        Some(k) => {
            params[k].1 |= namevar;
            *last_param = vec![k];
        }
        None => {
            params.push((name.to_string(), namevar));
            *last_param = vec![params.len() - 1];
        }
    }
}

/// The statement is the bare word (`ensurable`, `isnamevar`), perhaps with
/// a block or arguments.
fn is_word_stmt(line: &str, word: &str) -> bool {
    let t = line.trim_start();
    t.strip_prefix(word)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', '(', '\t']))
}

/// A `/` after these starts a regex literal, not a division.
fn regex_may_start(before: &str) -> bool {
    let t = before.trim_end();
    t.is_empty()
        || t.ends_with(['(', ',', '=', '~', '{', '|', '[', '!', '&'])
        || t.ends_with(" when")
        || t.ends_with(" if")
        || t.ends_with(" unless")
        || t.ends_with(" and")
        || t.ends_with(" or")
}

fn indentation(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// `[:a, :b]`, `%w[a b]`, `%i(a b)` → `a`, `b`.
fn list_items(src: &str) -> Vec<String> {
    let inner = src
        .trim_start_matches(['%', 'w', 'i', 'W', 'I'])
        .trim_start_matches(['[', '(', '{'])
        .trim_end_matches([']', ')', '}']);
    inner
        .split([',', ' ', '\n', '\t'])
        .map(|s| s.trim().trim_start_matches(':').trim_matches(['\'', '"']))
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

/// A literal `[[regex, [[:a], [:b, lambda]]], ...]`: the regexes in order,
/// each with the symbols after it. Anything but regexes, symbols, brackets,
/// commas and identity lambdas is refused.
fn parse_title_patterns(body: &str) -> Result<Vec<TitlePattern>, String> {
    let mut out: Vec<TitlePattern> = Vec::new();
    let b = body.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i] as char;
        if c.is_whitespace() || matches!(c, '[' | ']' | ',') {
            i += 1;
        } else if c == '#' {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if body[i..].starts_with("%r{") || c == '/' {
            let (src, next) = if c == '/' {
                regex_literal(body, i + 1, '/', '/')?
            } else {
                regex_literal(body, i + 3, '{', '}')?
            };
            let mut j = next;
            let mut flags = String::new();
            while j < b.len() && (b[j] as char).is_ascii_alphabetic() {
                flags.push(b[j] as char);
                j += 1;
            }
            let regex = if flags.is_empty() {
                src
            } else {
                format!("(?{flags}){src}")
            };
            out.push(TitlePattern {
                regex,
                attributes: Vec::new(),
            });
            i = j;
        } else if c == ':' {
            let start = i + 1;
            let mut j = start;
            while j < b.len() && ((b[j] as char).is_ascii_alphanumeric() || b[j] == b'_') {
                j += 1;
            }
            let Some(last) = out.last_mut() else {
                return Err("title_patterns: a symbol before any regex".into());
            };
            last.attributes.push(body[start..j].to_string());
            i = j;
        } else if body[i..].starts_with("lambda") || body[i..].starts_with("proc") {
            // `lambda { |x| x }`: the identity; anything else changes values.
            let close = body[i..].find('}').ok_or("title_patterns: open lambda")?;
            let text: String = body[i..i + close + 1].split_whitespace().collect();
            static IDENTITY: OnceLock<Regex> = OnceLock::new();
            let ok = re(&IDENTITY, r"^(lambda|proc)\{\|(\w+)\|(\w+)\}$")
                .captures(&text)
                .is_some_and(|c| c[2] == c[3]);
            if !ok {
                return Err("title_patterns: a lambda that is not the identity".into());
            }
            i += close + 1;
        } else {
            return Err(format!(
                "title_patterns not a literal list (at `{}`)",
                body[i..].chars().take(20).collect::<String>()
            ));
        }
    }
    if out.iter().any(|p| p.attributes.is_empty()) {
        return Err("title_patterns: empty pattern".into());
    }
    Ok(out)
}

/// The source of a regex literal starting at `start` (after the opener),
/// with nesting for `%r{}`; returns it and the index after the closer.
pub(super) fn regex_literal(
    s: &str,
    start: usize,
    open: char,
    close: char,
) -> Result<(String, usize), String> {
    let mut depth = 0usize;
    let mut out = String::new();
    let mut chars = s[start..].char_indices();
    while let Some((k, c)) = chars.next() {
        if c == '\\' {
            out.push(c);
            if let Some((_, n)) = chars.next() {
                out.push(n);
            }
            continue;
        }
        if c == close && depth == 0 {
            return Ok((out, start + k + c.len_utf8()));
        }
        if open != close {
            if c == open {
                depth += 1;
            } else if c == close {
                depth -= 1;
            }
        }
        out.push(c);
    }
    Err("unterminated regex in title_patterns".into())
}

/// The file with comments, `=begin`/`=end` blocks, heredoc bodies and the
/// contents of quoted strings replaced by nothing (line structure kept).
pub(super) fn blank_code(text: &str) -> String {
    static HEREDOC: OnceLock<Regex> = OnceLock::new();
    let heredoc = re(&HEREDOC, r#"<<[-~]?(['"]?)([A-Za-z_]\w*)['"]?"#);
    let mut out = String::with_capacity(text.len());
    // Inside a string across lines: its closing delimiter and nesting.
    let mut in_string: Option<(char, char, usize)> = None;
    let mut heredoc_end: Option<String> = None;
    let mut in_begin = false;
    for line in text.lines() {
        if let Some(end) = &heredoc_end {
            if line.trim() == end {
                heredoc_end = None;
            }
            out.push('\n');
            continue;
        }
        if in_begin {
            if line.starts_with("=end") {
                in_begin = false;
            }
            out.push('\n');
            continue;
        }
        if in_string.is_none() && line.starts_with("=begin") {
            in_begin = true;
            out.push('\n');
            continue;
        }
        let mut chars = line.chars().peekable();
        let mut code_line = String::new();
        while let Some(c) = chars.next() {
            if let Some((open, close, depth)) = in_string.as_mut() {
                if c == '\\' {
                    chars.next();
                } else if c == *close && *depth == 0 {
                    in_string = None;
                    code_line.push(c);
                } else if c == *close {
                    *depth -= 1;
                } else if c == *open && open != close {
                    *depth += 1;
                }
                continue;
            }
            match c {
                '#' => break,
                '<' if chars.peek() == Some(&'<') => {
                    // `<<-EOT`, `<<~'EOT'`: a heredoc (a shift has a space).
                    chars.next();
                    let rest: String = chars.clone().collect();
                    match heredoc.captures(&format!("<<{rest}")) {
                        Some(h) if h.get(0).is_some_and(|m| m.start() == 0) => {
                            heredoc_end = Some(h[2].to_string());
                            for _ in 0..h[0].len() - 2 {
                                chars.next();
                            }
                            code_line.push_str("\"\"");
                        }
                        _ => code_line.push_str("<<"),
                    }
                }
                '"' | '\'' | '`' => {
                    code_line.push(c);
                    in_string = Some((c, c, 0));
                }
                '%' if matches!(
                    chars.peek(),
                    Some('q' | 'Q' | 'r' | 'w' | 'i' | 'W' | 'I' | '(' | '{' | '[')
                ) =>
                {
                    code_line.push('%');
                    // `%w[]`/`%i[]` lists are code (loops over them define
                    // attributes); `%q()`/`%r{}` are strings and regexes.
                    let mut keep = false;
                    if let Some(&k) = chars.peek().filter(|k| k.is_ascii_alphabetic()) {
                        keep = matches!(k, 'w' | 'i' | 'W' | 'I');
                        code_line.push(k);
                        chars.next();
                    }
                    if let Some(open) = chars.next() {
                        let close = match open {
                            '(' => ')',
                            '{' => '}',
                            '[' => ']',
                            '<' => '>',
                            other => other,
                        };
                        code_line.push(open);
                        if keep {
                            for k in chars.by_ref() {
                                code_line.push(k);
                                if k == close {
                                    break;
                                }
                            }
                        } else {
                            in_string = Some((open, close, 0));
                        }
                    }
                }
                '/' if regex_may_start(&code_line) => {
                    code_line.push(c);
                    in_string = Some(('/', '/', 0));
                }
                _ => code_line.push(c),
            }
        }
        out.push_str(&code_line);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod ascii_tests {
    use super::ascii_classes;

    #[test]
    fn classes_become_ascii_inside_and_outside_brackets() {
        assert_eq!(
            ascii_classes(r"^\s*(\w+)\b"),
            r"^(?-u:\s)*((?-u:\w)+)(?-u:\b)"
        );
        assert_eq!(ascii_classes(r"[\s(]"), r"[\t\n\x0B\x0C\r (]");
        assert_eq!(ascii_classes(r"[^\]]*\]"), r"[^\]]*\]");
        assert_eq!(ascii_classes(r"\.each"), r"\.each");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_simple_type() {
        let src = r#"
Puppet::Type.newtype(:demo) do
  @doc = <<-EOT
    newparam(:fake) is documentation
  EOT
  ensurable
  newparam(:path, :namevar => true) do
    desc "the newproperty(:nope) path"
  end
  newparam(:force, boolean: true)
  newproperty(:content) do
    desc 'it\'s # not a comment'
  end
  [:a, :b].each do |p|
    newproperty(p)
  end
end
"#;
        let d = read(src).unwrap();
        assert_eq!(d.name, "demo");
        assert_eq!(d.parameters, ["path", "force"]);
        assert_eq!(d.properties, ["ensure", "content", "a", "b"]);
        assert_eq!(d.key_attributes, ["path"]);
    }

    #[test]
    fn reads_title_patterns_and_isnamevar() {
        let src = r#"
Puppet::Type.newtype(:key) do
  def self.title_patterns
    [
      [%r{^(.*?)@(.*)$}, [[:name], [:type]]],
      [/^([^@]+)$/, [[:name, lambda { |x| x }]]],
    ]
  end
  newparam(:type) do
    isnamevar
  end
  newparam(:name) do
    isnamevar
  end
end
"#;
        let d = read(src).unwrap();
        assert_eq!(d.key_attributes, ["type", "name"]);
        let p = d.title_patterns.clone().unwrap();
        assert_eq!(p[0].regex, "^(.*?)@(.*)$");
        assert_eq!(p[0].attributes, ["name", "type"]);
        assert_eq!(
            d.parse_title("k@rsa").unwrap(),
            vec![("name".into(), "k".into()), ("type".into(), "rsa".into())]
        );
        assert_eq!(
            d.parse_title("k").unwrap(),
            vec![("name".into(), "k".into())]
        );
    }

    #[test]
    fn refuses_what_it_cannot_read() {
        assert!(read("x = 1\n").is_err());
        assert!(read("Puppet::Type.newtype(:x) do\n newparam(compute_name)\nend\n").is_err());
    }
}
