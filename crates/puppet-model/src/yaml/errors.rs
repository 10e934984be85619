//! libyaml's wording and position for YAML syntax errors, which Psych (and
//! so Puppet: `Unable to parse (FILE): PROBLEM CONTEXT at line L column C`)
//! reports, from yaml-rust2's errors. yaml-rust2 ports libyaml's scanner and
//! parser but words its errors its own way and places them where it stopped;
//! Psych places them at libyaml's *context mark* (where the construct being
//! parsed began). Errors not known here keep yaml-rust2's text and place.

/// A collection open when the error came: a sequence or a mapping, and
/// where it started (1-based line and column).
#[derive(Clone, Copy, Debug)]
pub struct Open {
    pub seq: bool,
    pub line: usize,
    pub column: usize,
}

/// The text and position Psych gives for yaml-rust2's error `info` at
/// (`line`, `column`), 1-based.
pub fn as_libyaml(
    text: &str,
    info: &str,
    line: usize,
    column: usize,
    open: &[Open],
) -> (String, usize, usize) {
    let innermost = |seq: bool| {
        open.iter()
            .rev()
            .find(|o| o.seq == seq)
            .map(|o| collection_start(text, o))
            .unwrap_or((line, column))
    };
    let with = |problem: &str, context: &str, (l, c): (usize, usize)| {
        (format!("{problem} {context}"), l, c)
    };
    // Inside a flow collection libyaml ignores indentation (yaml-rust2
    // does not): read on from its start as libyaml does.
    if let Some(o) = open.last() {
        let start = offset_of(text, o.line, o.column);
        if let Some((problem, context, at)) = flow_error(text, start) {
            let (l, c) = line_col(text, at);
            return with(problem, context, (l, c));
        }
    }
    let in_flow = open.last().is_some_and(|o| {
        text.get(offset_of(text, o.line, o.column)..)
            .is_some_and(|r| r.starts_with(['[', '{']))
    });
    match info {
        // Psych's `BadAlias`, raised after parsing: no position.
        "while parsing node, found unknown anchor" => {
            let at = offset_of(text, line, column);
            let name: String = text
                .get(at..)
                .unwrap_or("")
                .trim_start_matches('*')
                .chars()
                .take_while(|c| !c.is_whitespace() && !",[]{}".contains(*c))
                .collect();
            (format!("Unknown alias: {name}"), 0, 0)
        }
        "while parsing a node, did not find expected node content" => with(
            "did not find expected node content",
            if in_flow {
                "while parsing a flow node"
            } else {
                "while parsing a block node"
            },
            (line, column),
        ),
        "while parsing a flow sequence, expected ',' or ']'" => with(
            "did not find expected ',' or ']'",
            "while parsing a flow sequence",
            innermost(true),
        ),
        "while parsing a flow mapping, did not find expected ',' or '}'" => with(
            "did not find expected ',' or '}'",
            "while parsing a flow mapping",
            innermost(false),
        ),
        "while parsing a block mapping, did not find expected key" => with(
            "did not find expected key",
            "while parsing a block mapping",
            innermost(false),
        ),
        "while parsing a block collection, did not find expected '-' indicator" => with(
            "did not find expected '-' indicator",
            "while parsing a block collection",
            innermost(true),
        ),
        "tabs disallowed within this context (block indentation)"
        | "tabs disallowed in this context" => {
            // libyaml stops at the tab itself.
            let col = nth_line(text, line)
                .and_then(|l| l.find('\t'))
                .map(|i| i + 1)
                .unwrap_or(column);
            with(
                "found character that cannot start any token",
                "while scanning for the next token",
                (line, col),
            )
        }
        "simple key expect ':'" => match unfinished_key(text, line, column) {
            Some(at) => with(
                "could not find expected ':'",
                "while scanning a simple key",
                at,
            ),
            None => (info.to_string(), line, column),
        },
        "invalid indentation in quoted scalar"
        | "while scanning a quoted scalar, found unexpected end of stream" => {
            // libyaml reads a quoted scalar across lines whatever their
            // indentation: with no closing quote, it meets the end.
            let quote = nth_line(text, line)
                .and_then(|l| l.get(column.saturating_sub(1)..))
                .and_then(|rest| rest.chars().next())
                .filter(|c| *c == '"' || *c == '\'');
            let closed = quote.is_some_and(|q| {
                let start = offset_of(text, line, column) + 1;
                text.get(start..).is_some_and(|rest| rest.contains(q))
            });
            if quote.is_some() && !closed {
                with(
                    "found unexpected end of stream",
                    "while scanning a quoted scalar",
                    (line, column),
                )
            } else {
                (info.to_string(), line, column)
            }
        }
        _ => match info.strip_prefix("unexpected character: `") {
            Some(_) => with(
                "found character that cannot start any token",
                "while scanning for the next token",
                (line, column),
            ),
            None => (info.to_string(), line, column),
        },
    }
}

/// Where libyaml marks a collection's start: its `[`/`{`, or for a block
/// mapping its first key (yaml-rust2 marks the key's `:`).
fn collection_start(text: &str, o: &Open) -> (usize, usize) {
    let Some(l) = nth_line(text, o.line) else {
        return (o.line, o.column);
    };
    let before = l.get(..o.column.saturating_sub(1)).unwrap_or("");
    if o.seq
        || l.get(o.column.saturating_sub(1)..)
            .is_some_and(|r| r.starts_with(['{', '[']))
    {
        return (o.line, o.column);
    }
    // Back from the `:` to the key's start: past indentation and `- `.
    let mut start = before.len() - before.trim_start().len();
    while l[start..].starts_with("- ") {
        start += 2;
        start += l[start..].len() - l[start..].trim_start().len();
    }
    if start > before.len() {
        return (o.line, o.column);
    }
    (o.line, start + 1)
}

fn nth_line(text: &str, line: usize) -> Option<&str> {
    text.split('\n').nth(line.checked_sub(1)?)
}

/// The byte offset of a 1-based (line, column).
fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let mut off = 0;
    for (i, l) in text.split('\n').enumerate() {
        if i + 1 == line {
            return off + column.saturating_sub(1).min(l.len());
        }
        off += l.len() + 1;
    }
    text.len()
}

/// Where the plain scalar that libyaml took for a key without its `:`
/// began: the last line before the error that holds only a plain scalar
/// (an error at a line's start is noticed there, after the key's line).
fn unfinished_key(text: &str, line: usize, column: usize) -> Option<(usize, usize)> {
    let lines: Vec<&str> = text.split('\n').collect();
    let last = if column <= 1 {
        line.checked_sub(1)?
    } else {
        line
    };
    for n in (1..=last.min(lines.len())).rev() {
        let l = lines[n - 1];
        let t = l.trim_start();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let plain = !t.contains(": ")
            && !t.ends_with(':')
            && !t.starts_with(['-', '[', '{', '"', '\'', '&', '*', '!', '|', '>']);
        return plain.then(|| (n, l.len() - t.len() + 1));
    }
    None
}

/// The 1-based line and column of a byte offset.
fn line_col(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.len() - before.rfind('\n').map(|i| i + 1).unwrap_or(0) + 1;
    (line, col)
}

/// libyaml's error for the flow collection opening at byte `start` (a
/// `[` or `{`), read to its end as libyaml's scanner and parser would:
/// `None` when it closes properly or the text is beyond this reader.
fn flow_error(text: &str, start: usize) -> Option<(&'static str, &'static str, usize)> {
    #[derive(PartialEq)]
    enum Want {
        /// After `[`, `{` or `,`: a node, or the closing bracket.
        Entry,
        /// After `:`: a value, possibly empty.
        Value,
        /// After a node: `,`, `:` or the closing bracket.
        Next,
    }
    let b = text.as_bytes();
    if !matches!(b.get(start), Some(b'[' | b'{')) {
        return None;
    }
    let expected = |opener: u8| {
        if opener == b'[' {
            (
                "did not find expected ',' or ']'",
                "while parsing a flow sequence",
            )
        } else {
            (
                "did not find expected ',' or '}'",
                "while parsing a flow mapping",
            )
        }
    };
    let node_content = "did not find expected node content";
    let mut stack: Vec<(u8, usize)> = Vec::new();
    let mut want = Want::Entry;
    let mut i = start;
    while i < b.len() {
        let c = b[i];
        match c {
            b' ' | b'\t' | b'\r' | b'\n' => i += 1,
            b'#' if i == 0 || matches!(b[i - 1], b' ' | b'\t' | b'\n') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'[' | b'{' => {
                if want == Want::Next {
                    return None;
                }
                stack.push((c, i));
                want = Want::Entry;
                i += 1;
            }
            b']' | b'}' => {
                let (opener, at) = *stack.last()?;
                let matching = (opener == b'[' && c == b']') || (opener == b'{' && c == b'}');
                if !matching {
                    return Some(if want == Want::Next {
                        let (p, ctx) = expected(opener);
                        (p, ctx, at)
                    } else {
                        (node_content, "while parsing a flow node", i)
                    });
                }
                stack.pop();
                if stack.is_empty() {
                    return None;
                }
                want = Want::Next;
                i += 1;
            }
            b',' => {
                if want == Want::Entry {
                    return Some((node_content, "while parsing a flow node", i));
                }
                want = Want::Entry;
                i += 1;
            }
            b':' if b.get(i + 1).is_none_or(|n| b" \t\r\n,[]{}".contains(n)) => {
                want = Want::Value;
                i += 1;
            }
            b'"' | b'\'' => {
                let mut j = i + 1;
                loop {
                    match b.get(j) {
                        None => return None,
                        Some(b'\\') if c == b'"' => j += 2,
                        Some(q) if *q == c => {
                            // '' is an escaped quote in single quotes.
                            if c == b'\'' && b.get(j + 1) == Some(&b'\'') {
                                j += 2;
                                continue;
                            }
                            break;
                        }
                        Some(_) => j += 1,
                    }
                }
                if want == Want::Next {
                    return None;
                }
                want = Want::Next;
                i = j + 1;
            }
            _ => {
                // A plain scalar, to a flow indicator, `: ` or ` #`.
                if want == Want::Next {
                    return None;
                }
                while i < b.len() {
                    let d = b[i];
                    if b",[]{}".contains(&d)
                        || (d == b':' && b.get(i + 1).is_none_or(|n| b" \t\r\n,[]{}".contains(n)))
                        || (d == b'#' && matches!(b[i - 1], b' ' | b'\t'))
                    {
                        break;
                    }
                    i += 1;
                }
                want = Want::Next;
            }
        }
    }
    // The end of the stream inside the collection.
    let (opener, at) = *stack.last()?;
    (want == Want::Next).then(|| {
        let (p, ctx) = expected(opener);
        (p, ctx, at)
    })
}
