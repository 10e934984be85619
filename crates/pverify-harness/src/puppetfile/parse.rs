//! r10k's Puppetfile, read without Ruby: the subset of its Ruby DSL that
//! r10k documents (`forge`, `moduledir`, `mod` with a Forge version or git
//! options), both hash syntaxes (`:key => v`, `key: v`), optional
//! parentheses, `#` comments, and statements continued after a `,`.
//! Anything else is an error naming `file:line:col`, never a guess.

use std::path::Path;

/// A Puppetfile's declarations, in file order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Puppetfile {
    /// `forge 'URL'`: where Forge modules come from.
    pub forge: Option<String>,
    /// `moduledir 'dir'`: where modules go (relative to the Puppetfile's
    /// directory; default `modules`).
    pub moduledir: Option<String>,
    pub mods: Vec<ModDecl>,
}

/// One `mod` line.
#[derive(Debug, Clone, PartialEq)]
pub struct ModDecl {
    /// The name as written (`puppetlabs/stdlib`, `puppetlabs-stdlib`, `motd`).
    pub full_name: String,
    /// The directory it installs as: the part after the `/` or `-`.
    pub name: String,
    pub source: ModSource,
    /// `install_path:` (relative to the Puppetfile's directory), instead
    /// of the moduledir.
    pub install_path: Option<String>,
    /// Where the declaration is (`file:line:col`), for errors.
    pub at: String,
}

#[derive(Debug, Clone, PartialEq)]
pub enum ModSource {
    /// A Forge module: `owner`, `name`, and the version asked for.
    Forge {
        owner: String,
        version: ForgeVersion,
    },
    /// A git module: the URL and what to check out.
    Git { url: String, want: GitWant },
    /// `local: true`: already in the moduledir, left alone.
    Local,
}

#[derive(Debug, Clone, PartialEq)]
pub enum ForgeVersion {
    Exact(String),
    /// `:latest`: the newest release, asked for on every online run.
    Latest,
    /// No version: the newest release when first deployed, then kept
    /// (r10k installs it once and never upgrades it).
    Unpinned,
}

#[derive(Debug, Clone, PartialEq)]
pub enum GitWant {
    Ref(String),
    Tag(String),
    Branch(String),
    Commit(String),
}

impl GitWant {
    pub fn text(&self) -> &str {
        match self {
            GitWant::Ref(s) | GitWant::Tag(s) | GitWant::Branch(s) | GitWant::Commit(s) => s,
        }
    }

    pub fn kind(&self) -> &'static str {
        match self {
            GitWant::Ref(_) => "ref",
            GitWant::Tag(_) => "tag",
            GitWant::Branch(_) => "branch",
            GitWant::Commit(_) => "commit",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    Str(String),
    /// `:name`
    Symbol(String),
    /// `name:` (a hash key in Ruby 1.9's syntax)
    Key(String),
    Arrow,
    Comma,
    LParen,
    RParen,
    Newline,
}

struct Lexed {
    tok: Tok,
    line: usize,
    col: usize,
}

/// Reads the Puppetfile at `path` (named so in errors).
pub fn read(path: &Path) -> Result<Puppetfile, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    parse(&path.display().to_string(), &text)
}

/// Parses Puppetfile text; `file` names it in errors.
pub fn parse(file: &str, text: &str) -> Result<Puppetfile, String> {
    let toks = lex(file, text)?;
    let mut out = Puppetfile::default();
    let mut i = 0;
    while i < toks.len() {
        if toks[i].tok == Tok::Newline {
            i += 1;
            continue;
        }
        let end = statement_end(&toks, i);
        statement(file, &toks[i..end], &mut out)?;
        i = end;
    }
    Ok(out)
}

fn err(file: &str, t: &Lexed, msg: impl std::fmt::Display) -> String {
    format!("{file}:{}:{}: {msg}", t.line, t.col)
}

/// A statement runs to a newline that follows neither a `,`, a `=>` nor
/// an open parenthesis (Ruby continues the call there).
fn statement_end(toks: &[Lexed], start: usize) -> usize {
    let mut depth = 0usize;
    let mut i = start;
    while i < toks.len() {
        match toks[i].tok {
            Tok::LParen => depth += 1,
            Tok::RParen => depth = depth.saturating_sub(1),
            Tok::Newline => {
                let continued = depth > 0
                    || matches!(
                        toks[..i].last().map(|t| &t.tok),
                        Some(Tok::Comma | Tok::Arrow | Tok::Key(_))
                    );
                if !continued {
                    return i;
                }
            }
            _ => {}
        }
        i += 1;
    }
    i
}

fn statement(file: &str, toks: &[Lexed], out: &mut Puppetfile) -> Result<(), String> {
    let toks: Vec<&Lexed> = toks.iter().filter(|t| t.tok != Tok::Newline).collect();
    let head = toks[0];
    let Tok::Ident(word) = &head.tok else {
        return Err(err(file, head, "expected `forge`, `moduledir` or `mod`"));
    };
    let mut args = &toks[1..];
    // Optional parentheses around the arguments.
    if let Some(first) = args.first() {
        if first.tok == Tok::LParen {
            match args.last() {
                Some(last) if last.tok == Tok::RParen && args.len() >= 2 => {
                    args = &args[1..args.len() - 1];
                }
                _ => return Err(err(file, first, "unclosed `(`")),
            }
        }
    }
    let items = split_args(file, head, args)?;
    match word.as_str() {
        "forge" | "moduledir" => {
            let [Arg::Value(v)] = items.as_slice() else {
                return Err(err(file, head, format!("`{word}` takes one string")));
            };
            let Tok::Str(s) = &v.tok else {
                return Err(err(file, v, format!("`{word}` takes a string")));
            };
            if word == "forge" {
                out.forge = Some(s.trim_end_matches('/').to_string());
            } else {
                out.moduledir = Some(s.clone());
            }
            Ok(())
        }
        "mod" => {
            let decl = module(file, head, &items)?;
            if let Some(prev) = out
                .mods
                .iter()
                .find(|m| m.name == decl.name && m.install_path == decl.install_path)
            {
                return Err(format!(
                    "{}: module '{}' is declared twice (first at {})",
                    decl.at, decl.name, prev.at
                ));
            }
            out.mods.push(decl);
            Ok(())
        }
        other => Err(err(
            file,
            head,
            format!(
                "unknown Puppetfile directive `{other}` (pverify reads forge, moduledir and mod)"
            ),
        )),
    }
}

enum Arg<'a> {
    Value(&'a Lexed),
    Pair(&'a Lexed, String, &'a Lexed),
}

/// Comma-separated arguments: values, and `key => value` / `key: value`
/// pairs (the trailing hash of a Ruby call).
fn split_args<'a>(file: &str, head: &Lexed, toks: &[&'a Lexed]) -> Result<Vec<Arg<'a>>, String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let t = toks[i];
        let (arg, used) = match (&t.tok, toks.get(i + 1).map(|n| &n.tok), toks.get(i + 2)) {
            (Tok::Symbol(k) | Tok::Str(k), Some(Tok::Arrow), Some(v)) => {
                (Arg::Pair(t, k.clone(), v), 3)
            }
            (Tok::Key(k), _, _) => match toks.get(i + 1) {
                Some(v) => (Arg::Pair(t, k.clone(), v), 2),
                None => return Err(err(file, t, format!("`{k}:` has no value"))),
            },
            (Tok::Str(_) | Tok::Symbol(_) | Tok::Ident(_), _, _) => (Arg::Value(t), 1),
            _ => return Err(err(file, t, "unexpected token")),
        };
        if let Arg::Pair(_, _, v) = &arg {
            if !matches!(v.tok, Tok::Str(_) | Tok::Symbol(_) | Tok::Ident(_)) {
                return Err(err(file, v, "expected a value"));
            }
        }
        out.push(arg);
        i += used;
        match toks.get(i) {
            None => {}
            Some(c) if c.tok == Tok::Comma => {
                i += 1;
                if i == toks.len() {
                    return Err(err(file, c, "trailing `,`"));
                }
            }
            Some(other) => return Err(err(file, other, "expected `,`")),
        }
    }
    if out.is_empty() && !matches!(head.tok, Tok::Ident(_)) {
        return Err(err(file, head, "no arguments"));
    }
    Ok(out)
}

fn module(file: &str, head: &Lexed, items: &[Arg]) -> Result<ModDecl, String> {
    let at = format!("{file}:{}:{}", head.line, head.col);
    let Some(Arg::Value(name_tok)) = items.first() else {
        return Err(err(file, head, "`mod` needs the module's name first"));
    };
    let Tok::Str(full_name) = &name_tok.tok else {
        return Err(err(file, name_tok, "the module's name must be a string"));
    };
    let (owner, name) = split_name(full_name);
    if !valid_module_name(name) {
        return Err(err(
            file,
            name_tok,
            format!("'{full_name}' is not a valid module name"),
        ));
    }
    let mut version: Option<ForgeVersion> = None;
    let mut git: Option<String> = None;
    let mut want: Option<GitWant> = None;
    let mut install_path = None;
    let mut local = false;
    for item in &items[1..] {
        match item {
            Arg::Value(v) => {
                if version.is_some() {
                    return Err(err(file, v, "more than one version"));
                }
                version = Some(match &v.tok {
                    Tok::Str(s) => ForgeVersion::Exact(s.clone()),
                    Tok::Symbol(s) if s == "latest" => ForgeVersion::Latest,
                    _ => {
                        return Err(err(
                            file,
                            v,
                            "a Forge module's version is a string or :latest",
                        ))
                    }
                });
            }
            Arg::Pair(k, key, v) => {
                let string = || match &v.tok {
                    Tok::Str(s) => Ok(s.clone()),
                    _ => Err(err(file, v, format!("`{key}` takes a string"))),
                };
                let mut set_want = |w: GitWant| {
                    if want.is_some() {
                        return Err(err(file, k, "more than one of ref, tag, branch, commit"));
                    }
                    want = Some(w);
                    Ok(())
                };
                match key.as_str() {
                    "git" => git = Some(string()?),
                    "ref" => set_want(GitWant::Ref(string()?))?,
                    "tag" => set_want(GitWant::Tag(string()?))?,
                    "branch" => set_want(GitWant::Branch(string()?))?,
                    "commit" => set_want(GitWant::Commit(string()?))?,
                    "install_path" => install_path = Some(string()?),
                    "local" => {
                        local = match &v.tok {
                            Tok::Ident(b) if b == "true" => true,
                            Tok::Ident(b) if b == "false" => false,
                            _ => return Err(err(file, v, "`local` takes true or false")),
                        }
                    }
                    // r10k's options that change nothing in the tree it deploys.
                    "exclude_spec" | "default_branch" | "default_branch_override" => {}
                    other => return Err(err(file, k, format!("unknown module option `{other}`"))),
                }
            }
        }
    }
    let source = match (git, local) {
        (Some(_), true) => return Err(err(file, head, "`local` with `git`")),
        (Some(url), false) => {
            if version.is_some() {
                return Err(err(
                    file,
                    head,
                    "a git module takes ref, tag, branch or commit, not a version",
                ));
            }
            let want = want.ok_or_else(|| {
                err(
                    file,
                    head,
                    format!("git module '{name}' needs ref, tag, branch or commit"),
                )
            })?;
            ModSource::Git { url, want }
        }
        (None, true) => ModSource::Local,
        (None, false) => {
            if want.is_some() {
                return Err(err(file, head, "ref, tag, branch and commit need `git`"));
            }
            let Some(owner) = owner else {
                return Err(err(
                    file,
                    name_tok,
                    format!("Forge module '{full_name}' needs its owner: 'owner/{full_name}'"),
                ));
            };
            ModSource::Forge {
                owner: owner.to_string(),
                version: version.unwrap_or(ForgeVersion::Unpinned),
            }
        }
    };
    Ok(ModDecl {
        full_name: full_name.clone(),
        name: name.to_string(),
        source,
        install_path,
        at,
    })
}

/// `owner/name` or `owner-name` → (owner, name); a bare name has no owner.
fn split_name(full: &str) -> (Option<&str>, &str) {
    match full.find(['/', '-']) {
        Some(i) => (Some(&full[..i]), &full[i + 1..]),
        None => (None, full),
    }
}

/// Module directory names Puppet accepts.
fn valid_module_name(name: &str) -> bool {
    let mut b = name.bytes();
    b.next().is_some_and(|c| c.is_ascii_lowercase())
        && b.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'_')
}

fn lex(file: &str, text: &str) -> Result<Vec<Lexed>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let chars: Vec<char> = line.chars().collect();
        let mut i = 0;
        let push = |out: &mut Vec<Lexed>, tok: Tok, col: usize| {
            out.push(Lexed {
                tok,
                line: n + 1,
                col: col + 1,
            })
        };
        let fail = |col: usize, msg: &str| format!("{file}:{}:{}: {msg}", n + 1, col + 1);
        while i < chars.len() {
            let c = chars[i];
            let start = i;
            match c {
                ' ' | '\t' | '\r' => i += 1,
                '#' => break,
                ',' => {
                    push(&mut out, Tok::Comma, start);
                    i += 1
                }
                '(' => {
                    push(&mut out, Tok::LParen, start);
                    i += 1
                }
                ')' => {
                    push(&mut out, Tok::RParen, start);
                    i += 1
                }
                '=' if chars.get(i + 1) == Some(&'>') => {
                    push(&mut out, Tok::Arrow, start);
                    i += 2
                }
                '\'' | '"' => {
                    let mut s = String::new();
                    i += 1;
                    loop {
                        match chars.get(i) {
                            None => return Err(fail(start, "unterminated string")),
                            Some(&q) if q == c => {
                                i += 1;
                                break;
                            }
                            Some('\\') => {
                                let next = *chars
                                    .get(i + 1)
                                    .ok_or_else(|| fail(start, "unterminated string"))?;
                                match (c, next) {
                                    ('\'', '\\' | '\'') => s.push(next),
                                    ('\'', _) => {
                                        s.push('\\');
                                        s.push(next)
                                    }
                                    ('"', 'n') => s.push('\n'),
                                    ('"', 't') => s.push('\t'),
                                    ('"', '\\' | '"' | '#') => s.push(next),
                                    _ => return Err(fail(i, "unsupported escape in a string")),
                                }
                                i += 2;
                            }
                            Some('#') if c == '"' && chars.get(i + 1) == Some(&'{') => {
                                return Err(fail(
                                    i,
                                    "string interpolation is Ruby code (pverify reads no Ruby)",
                                ))
                            }
                            Some(&ch) => {
                                s.push(ch);
                                i += 1
                            }
                        }
                    }
                    push(&mut out, Tok::Str(s), start);
                }
                ':' if chars
                    .get(i + 1)
                    .is_some_and(|c| c.is_ascii_alphabetic() || *c == '_') =>
                {
                    i += 1;
                    let w = word(&chars, &mut i);
                    push(&mut out, Tok::Symbol(w), start);
                }
                c if c.is_ascii_alphabetic() || c == '_' => {
                    let w = word(&chars, &mut i);
                    // `key:` but not `key::`
                    if chars.get(i) == Some(&':') && chars.get(i + 1) != Some(&':') {
                        i += 1;
                        push(&mut out, Tok::Key(w), start);
                    } else {
                        push(&mut out, Tok::Ident(w), start);
                    }
                }
                _ => {
                    return Err(fail(
                        start,
                        &format!("unexpected `{c}` (pverify reads the Puppetfile DSL, not Ruby)"),
                    ))
                }
            }
        }
        out.push(Lexed {
            tok: Tok::Newline,
            line: n + 1,
            col: chars.len() + 1,
        });
    }
    Ok(out)
}

fn word(chars: &[char], i: &mut usize) -> String {
    let start = *i;
    while *i < chars.len() && (chars[*i].is_ascii_alphanumeric() || chars[*i] == '_') {
        *i += 1;
    }
    chars[start..*i].iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_both_hash_syntaxes_and_continuations() {
        let text = "# a control repo\nforge 'https://forge.example'\nmoduledir 'vendor'\n\
            mod 'puppetlabs/stdlib', '8.5.0'\nmod 'puppetlabs-concat', :latest\nmod 'acme/ntp'\n\
            mod 'motd',\n  :git => 'https://git.example/motd.git',\n  :tag => 'v1.0' # pinned\n\
            mod('site', git: 'file:///x', branch: 'main', install_path: 'site')\n\
            mod 'profile', :local => true\n";
        let p = parse("Puppetfile", text).unwrap();
        assert_eq!(p.forge.as_deref(), Some("https://forge.example"));
        assert_eq!(p.moduledir.as_deref(), Some("vendor"));
        let names: Vec<&str> = p.mods.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(
            names,
            ["stdlib", "concat", "ntp", "motd", "site", "profile"]
        );
        assert_eq!(
            p.mods[0].source,
            ModSource::Forge {
                owner: "puppetlabs".into(),
                version: ForgeVersion::Exact("8.5.0".into())
            }
        );
        assert!(matches!(
            &p.mods[1].source,
            ModSource::Forge {
                version: ForgeVersion::Latest,
                ..
            }
        ));
        assert!(matches!(
            &p.mods[2].source,
            ModSource::Forge {
                version: ForgeVersion::Unpinned,
                ..
            }
        ));
        assert_eq!(
            p.mods[3].source,
            ModSource::Git {
                url: "https://git.example/motd.git".into(),
                want: GitWant::Tag("v1.0".into())
            }
        );
        assert_eq!(p.mods[3].at, "Puppetfile:7:1");
        assert_eq!(p.mods[4].install_path.as_deref(), Some("site"));
        assert_eq!(p.mods[5].source, ModSource::Local);
    }

    #[test]
    fn odd_input_is_an_error_never_a_panic() {
        for text in [
            "mod",
            "mod(",
            "mod )",
            "mod ()",
            "forge",
            ":",
            "=>",
            ",",
            "mod 'a/b',",
            "mod 'a/b', :git =>",
            "mod 'a/b', git:",
            "mod 'a/b', 'x', 'y'",
            "moduledir :x",
            "mod 'm', :git => 'u', :ref => 'r', :tag => 't'",
            "mod 'm', local: 'yes'",
            "mod \"a\\q\"",
            "mod 'a/é'",
            "mod 'a/b' do\nend",
            "forge 'a' 'b'",
        ] {
            assert!(parse("P", text).is_err(), "{text:?} was accepted");
        }
    }

    #[test]
    fn errors_name_file_line_and_column() {
        let cases = [
            ("mod 'a/b', :bogus => 'x'\n", "Puppetfile:1:12: unknown module option `bogus`"),
            ("\nmod 'motd', :git => 'u'\n", "Puppetfile:2:1: git module 'motd' needs ref, tag, branch or commit"),
            ("mod 'x/y' 'z'\n", "Puppetfile:1:11: expected `,`"),
            ("forge \"#{x}\"\n", "Puppetfile:1:8: string interpolation is Ruby code (pverify reads no Ruby)"),
            ("mod 'motd'\n", "Puppetfile:1:5: Forge module 'motd' needs its owner: 'owner/motd'"),
            ("if true\n", "Puppetfile:1:1: unknown Puppetfile directive `if` (pverify reads forge, moduledir and mod)"),
            ("mod 'a/b', 'x'\nmod 'c/b', 'y'\n", "Puppetfile:2:1: module 'b' is declared twice (first at Puppetfile:1:1)"),
            ("mod 'a/B'\n", "Puppetfile:1:5: 'a/B' is not a valid module name"),
            ("mod 'a/b', 'x\n", "Puppetfile:1:12: unterminated string"),
        ];
        for (text, want) in cases {
            assert_eq!(parse("Puppetfile", text).unwrap_err(), want, "{text}");
        }
    }
}
