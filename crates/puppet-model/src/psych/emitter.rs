//! libyaml 0.2.5's emitter (what Ruby's Psych writes YAML with), redone
//! over a finished node tree instead of an event queue: the tree gives the
//! lookahead libyaml queues events for (is a collection empty, is a key
//! short enough to be a simple key).
//!
//! The writes, the column/indent bookkeeping and the style choices follow
//! libyaml's `yaml_emitter_*` functions one by one, because Psych's output
//! (and so stdlib's `to_yaml`) is whatever these rules give, down to where a
//! long line folds (`best_width`) and when a sequence in a mapping is not
//! indented. Only the block styles Psych asks for, and the flow style libyaml
//! falls back to for empty collections and canonical output, exist here.

use super::{Node, Options, Scalar, Style};

/// `IS_PRINTABLE`: what libyaml writes as is (no tab, no C1 controls, no
/// characters beyond the BMP, no BOM or noncharacters U+FFFE/FFFF).
fn printable(c: char) -> bool {
    let u = c as u32;
    u == 0x0A
        || (0x20..=0x7E).contains(&u)
        || (0xA0..=0xD7FF).contains(&u)
        || ((0xE000..=0xFFFD).contains(&u) && u != 0xFEFF)
}

/// `IS_BREAK`.
fn is_break(c: char) -> bool {
    matches!(c, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

/// `IS_BLANKZ` of the character at `i` (past the end reads the C string's
/// terminating NUL).
fn blankz_at(s: &[char], i: usize) -> bool {
    match s.get(i) {
        None => true,
        Some(&c) => c == ' ' || c == '\t' || c == '\0' || is_break(c),
    }
}

fn space_at(s: &[char], i: usize) -> bool {
    s.get(i) == Some(&' ')
}

/// `IS_ALPHA`: what a tag or anchor may hold unescaped.
fn alpha(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

/// `yaml_emitter_analyze_scalar`'s verdict.
#[derive(Clone, Copy, Default)]
struct Analysis {
    multiline: bool,
    flow_plain_allowed: bool,
    block_plain_allowed: bool,
    single_quoted_allowed: bool,
    block_allowed: bool,
}

fn analyze_scalar(s: &[char]) -> Analysis {
    if s.is_empty() {
        return Analysis {
            multiline: false,
            flow_plain_allowed: false,
            block_plain_allowed: true,
            single_quoted_allowed: true,
            block_allowed: false,
        };
    }
    let mut block_indicators = false;
    let mut flow_indicators = false;
    let mut line_breaks = false;
    let mut special = false;
    let (mut leading_space, mut leading_break) = (false, false);
    let (mut trailing_space, mut trailing_break) = (false, false);
    let (mut break_space, mut space_break) = (false, false);
    let (mut previous_space, mut previous_break) = (false, false);

    let starts = |p: &str| s.len() >= 3 && s[..3].iter().copied().eq(p.chars());
    if starts("---") || starts("...") {
        block_indicators = true;
        flow_indicators = true;
    }
    let mut preceded_by_whitespace = true;
    let mut followed_by_whitespace = blankz_at(s, 1);
    for (i, &c) in s.iter().enumerate() {
        if i == 0 {
            if "#,[]{}&*!|>'\"%@`".contains(c) {
                flow_indicators = true;
                block_indicators = true;
            }
            if c == '?' || c == ':' {
                flow_indicators = true;
                if followed_by_whitespace {
                    block_indicators = true;
                }
            }
            if c == '-' && followed_by_whitespace {
                flow_indicators = true;
                block_indicators = true;
            }
        } else {
            if ",?[]{}".contains(c) {
                flow_indicators = true;
            }
            if c == ':' {
                flow_indicators = true;
                if followed_by_whitespace {
                    block_indicators = true;
                }
            }
            if c == '#' && preceded_by_whitespace {
                flow_indicators = true;
                block_indicators = true;
            }
        }
        // Psych turns libyaml's `unicode` on: only unprintables are special.
        if !printable(c) {
            special = true;
        }
        if is_break(c) {
            line_breaks = true;
        }
        if c == ' ' {
            leading_space |= i == 0;
            trailing_space |= i + 1 == s.len();
            break_space |= previous_break;
            previous_space = true;
            previous_break = false;
        } else if is_break(c) {
            leading_break |= i == 0;
            trailing_break |= i + 1 == s.len();
            space_break |= previous_space;
            previous_space = false;
            previous_break = true;
        } else {
            previous_space = false;
            previous_break = false;
        }
        preceded_by_whitespace = blankz_at(s, i);
        if i + 1 < s.len() {
            followed_by_whitespace = blankz_at(s, i + 2);
        }
    }
    let mut a = Analysis {
        multiline: line_breaks,
        flow_plain_allowed: true,
        block_plain_allowed: true,
        single_quoted_allowed: true,
        block_allowed: true,
    };
    if leading_space || leading_break || trailing_space || trailing_break {
        a.flow_plain_allowed = false;
        a.block_plain_allowed = false;
    }
    if trailing_space {
        a.block_allowed = false;
    }
    if break_space {
        a.flow_plain_allowed = false;
        a.block_plain_allowed = false;
        a.single_quoted_allowed = false;
    }
    if space_break || special {
        a = Analysis {
            multiline: line_breaks,
            ..Analysis::default()
        };
    }
    if line_breaks {
        a.flow_plain_allowed = false;
        a.block_plain_allowed = false;
    }
    if flow_indicators {
        a.flow_plain_allowed = false;
    }
    if block_indicators {
        a.block_plain_allowed = false;
    }
    a
}

/// A tag split by the default `%TAG` directives (`!` and `!!`), as
/// `yaml_emitter_analyze_tag` does.
#[derive(Clone, Default)]
struct TagData {
    handle: Option<String>,
    suffix: Option<String>,
}

impl TagData {
    fn of(tag: &str) -> Result<TagData, String> {
        if tag.is_empty() {
            return Err("tag value must not be empty".into());
        }
        for (handle, prefix) in [("!", "!"), ("!!", "tag:yaml.org,2002:")] {
            if prefix.len() < tag.len() && tag.starts_with(prefix) {
                return Ok(TagData {
                    handle: Some(handle.into()),
                    suffix: Some(tag[prefix.len()..].into()),
                });
            }
        }
        Ok(TagData {
            handle: None,
            suffix: Some(tag.into()),
        })
    }

    fn none(&self) -> bool {
        self.handle.is_none() && self.suffix.is_none()
    }

    fn len(&self) -> usize {
        self.handle.as_ref().map_or(0, |h| h.len()) + self.suffix.as_ref().map_or(0, |s| s.len())
    }
}

fn scalar_tag(s: &Scalar, canonical: bool) -> Result<TagData, String> {
    match &s.tag {
        Some(t) if canonical || (!s.plain && !s.quoted) => TagData::of(t),
        _ => Ok(TagData::default()),
    }
}

fn collection_tag(
    tag: &Option<String>,
    implicit: bool,
    canonical: bool,
) -> Result<TagData, String> {
    match tag {
        Some(t) if canonical || !implicit => TagData::of(t),
        _ => Ok(TagData::default()),
    }
}

fn check_anchor(a: &str) -> Result<(), String> {
    if a.is_empty() || !a.chars().all(alpha) {
        return Err("anchor value must contain alphanumerical characters only".into());
    }
    Ok(())
}

pub(super) struct Emitter {
    out: String,
    column: i64,
    indent: i64,
    indents: Vec<i64>,
    flow_level: usize,
    whitespace: bool,
    indention: bool,
    open_ended: u8,
    best_indent: i64,
    best_width: i64,
    canonical: bool,
    mapping_context: bool,
    simple_key_context: bool,
}

impl Emitter {
    /// `yaml_emitter_emit_stream_start`'s settings.
    pub(super) fn new(o: &Options) -> Emitter {
        let best_indent = if (2..=9).contains(&o.indentation) {
            o.indentation
        } else {
            2
        };
        let mut best_width = o.line_width;
        if best_width >= 0 && best_width <= best_indent * 2 {
            best_width = 80;
        }
        if best_width < 0 {
            best_width = i64::MAX;
        }
        Emitter {
            out: String::new(),
            column: 0,
            indent: -1,
            indents: Vec::new(),
            flow_level: 0,
            whitespace: true,
            indention: true,
            open_ended: 0,
            best_indent,
            best_width,
            canonical: o.canonical,
            mapping_context: false,
            simple_key_context: false,
        }
    }

    /// One document holding `root` (Psych: never implicit, `---` always),
    /// then the stream end.
    pub(super) fn document(
        mut self,
        root: &Node,
        version: Option<(i64, i64)>,
    ) -> Result<String, String> {
        if let Some((major, minor)) = version {
            if major != 1 || (minor != 1 && minor != 2) {
                return Err("incompatible %YAML directive".into());
            }
            self.indicator("%YAML", true, false, false);
            self.indicator(if minor == 1 { "1.1" } else { "1.2" }, true, false, false);
            self.write_indent();
        }
        self.write_indent();
        self.indicator("---", true, false, false);
        if self.canonical {
            self.write_indent();
        }
        self.open_ended = 0;
        self.node(root, false, false, false)?;
        // DOCUMENT-END, implicit.
        self.write_indent();
        if self.open_ended == 0 {
            self.open_ended = 1;
        }
        // STREAM-END.
        if self.open_ended == 2 {
            self.indicator("...", true, false, false);
            self.write_indent();
        }
        Ok(self.out)
    }

    fn put(&mut self, c: char) {
        self.out.push(c);
        self.column += 1;
    }

    fn put_break(&mut self) {
        self.out.push('\n');
        self.column = 0;
    }

    /// `WRITE_BREAK`: a `\n` as the line break, any other break as is.
    fn write_break(&mut self, c: char) {
        self.out.push(c);
        self.column = 0;
    }

    fn write_indent(&mut self) {
        let indent = self.indent.max(0);
        if !self.indention || self.column > indent || (self.column == indent && !self.whitespace) {
            self.put_break();
        }
        while self.column < indent {
            self.put(' ');
        }
        self.whitespace = true;
        self.indention = true;
    }

    fn indicator(
        &mut self,
        ind: &str,
        need_whitespace: bool,
        is_whitespace: bool,
        is_indention: bool,
    ) {
        if need_whitespace && !self.whitespace {
            self.put(' ');
        }
        for c in ind.chars() {
            self.put(c);
        }
        self.whitespace = is_whitespace;
        self.indention = self.indention && is_indention;
    }

    fn increase_indent(&mut self, flow: bool, indentless: bool) {
        self.indents.push(self.indent);
        if self.indent < 0 {
            self.indent = if flow { self.best_indent } else { 0 };
        } else if !indentless {
            self.indent += self.best_indent;
        }
    }

    fn pop_indent(&mut self) {
        self.indent = self.indents.pop().unwrap_or(-1);
    }

    fn anchor(&mut self, anchor: &str, alias: bool) -> Result<(), String> {
        check_anchor(anchor)?;
        self.indicator(if alias { "*" } else { "&" }, true, false, false);
        for c in anchor.chars() {
            self.put(c);
        }
        self.whitespace = false;
        self.indention = false;
        Ok(())
    }

    fn tag(&mut self, t: &TagData) {
        if let Some(h) = &t.handle {
            if !self.whitespace {
                self.put(' ');
            }
            for c in h.chars() {
                self.put(c);
            }
            self.whitespace = false;
            self.indention = false;
            if let Some(s) = &t.suffix {
                self.tag_content(s);
            }
        } else if let Some(s) = &t.suffix {
            self.indicator("!<", true, false, false);
            self.tag_content(s);
            self.indicator(">", false, false, false);
        }
    }

    fn tag_content(&mut self, s: &str) {
        for c in s.chars() {
            if alpha(c) || ";/?:@&=+$,_.~*'()[]".contains(c) {
                self.put(c);
            } else {
                let mut buf = [0u8; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    self.put('%');
                    for d in [b >> 4, b & 0x0F] {
                        self.put(
                            char::from_digit(d as u32, 16)
                                .unwrap_or('0')
                                .to_ascii_uppercase(),
                        );
                    }
                }
            }
        }
        self.whitespace = false;
        self.indention = false;
    }

    /// `yaml_emitter_emit_node` with its contexts (on a grown stack: data
    /// can nest deeper than the thread's).
    fn node(
        &mut self,
        n: &Node,
        sequence: bool,
        mapping: bool,
        simple_key: bool,
    ) -> Result<(), String> {
        stacker::maybe_grow(256 << 10, 4 << 20, || {
            self.node_nested(n, sequence, mapping, simple_key)
        })
    }

    fn node_nested(
        &mut self,
        n: &Node,
        _sequence: bool,
        mapping: bool,
        simple_key: bool,
    ) -> Result<(), String> {
        self.mapping_context = mapping;
        self.simple_key_context = simple_key;
        match n {
            Node::Alias(a) => {
                self.anchor(a, true)?;
                if self.simple_key_context {
                    self.put(' ');
                }
                Ok(())
            }
            Node::Scalar(s) => self.scalar(s),
            Node::Seq {
                anchor,
                tag,
                implicit,
                items,
            } => {
                let t = collection_tag(tag, *implicit, self.canonical)?;
                if let Some(a) = anchor {
                    self.anchor(a, false)?;
                }
                self.tag(&t);
                if self.flow_level > 0 || self.canonical || items.is_empty() {
                    self.flow_sequence(items)
                } else {
                    self.block_sequence(items)
                }
            }
            Node::Map {
                anchor,
                tag,
                implicit,
                entries,
            } => {
                let t = collection_tag(tag, *implicit, self.canonical)?;
                if let Some(a) = anchor {
                    self.anchor(a, false)?;
                }
                self.tag(&t);
                if self.flow_level > 0 || self.canonical || entries.is_empty() {
                    self.flow_mapping(entries)
                } else {
                    self.block_mapping(entries)
                }
            }
        }
    }

    fn flow_sequence(&mut self, items: &[Node]) -> Result<(), String> {
        self.indicator("[", true, true, false);
        self.increase_indent(true, false);
        self.flow_level += 1;
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                self.indicator(",", false, false, false);
            }
            if self.canonical || self.column > self.best_width {
                self.write_indent();
            }
            self.node(item, true, false, false)?;
        }
        self.flow_level -= 1;
        self.pop_indent();
        if self.canonical && !items.is_empty() {
            self.indicator(",", false, false, false);
            self.write_indent();
        }
        self.indicator("]", false, false, false);
        Ok(())
    }

    fn flow_mapping(&mut self, entries: &[(Node, Node)]) -> Result<(), String> {
        self.indicator("{", true, true, false);
        self.increase_indent(true, false);
        self.flow_level += 1;
        for (i, (k, v)) in entries.iter().enumerate() {
            if i > 0 {
                self.indicator(",", false, false, false);
            }
            if self.canonical || self.column > self.best_width {
                self.write_indent();
            }
            if !self.canonical && self.simple_key(k)? {
                self.node(k, false, true, true)?;
                self.indicator(":", false, false, false);
            } else {
                self.indicator("?", true, false, false);
                self.node(k, false, true, false)?;
                if self.canonical || self.column > self.best_width {
                    self.write_indent();
                }
                self.indicator(":", true, false, false);
            }
            self.node(v, false, true, false)?;
        }
        self.flow_level -= 1;
        self.pop_indent();
        if self.canonical && !entries.is_empty() {
            self.indicator(",", false, false, false);
            self.write_indent();
        }
        self.indicator("}", false, false, false);
        Ok(())
    }

    fn block_sequence(&mut self, items: &[Node]) -> Result<(), String> {
        // A sequence right after a mapping key's `:` is not indented.
        let indentless = self.mapping_context && !self.indention;
        self.increase_indent(false, indentless);
        for item in items {
            self.write_indent();
            self.indicator("-", true, false, true);
            self.node(item, true, false, false)?;
        }
        self.pop_indent();
        Ok(())
    }

    fn block_mapping(&mut self, entries: &[(Node, Node)]) -> Result<(), String> {
        self.increase_indent(false, false);
        for (k, v) in entries {
            self.write_indent();
            if self.simple_key(k)? {
                self.node(k, false, true, true)?;
                self.indicator(":", false, false, false);
            } else {
                self.indicator("?", true, false, true);
                self.node(k, false, true, false)?;
                self.write_indent();
                self.indicator(":", true, false, true);
            }
            self.node(v, false, true, false)?;
        }
        self.pop_indent();
        Ok(())
    }

    /// `yaml_emitter_check_simple_key`: one line, at most 128 bytes.
    fn simple_key(&self, n: &Node) -> Result<bool, String> {
        let len = match n {
            Node::Alias(a) => a.len(),
            Node::Scalar(s) => {
                let chars: Vec<char> = s.value.chars().collect();
                if analyze_scalar(&chars).multiline {
                    return Ok(false);
                }
                s.anchor.as_ref().map_or(0, |a| a.len())
                    + scalar_tag(s, self.canonical)?.len()
                    + s.value.len()
            }
            Node::Seq {
                anchor,
                tag,
                implicit,
                items,
            } => {
                if !items.is_empty() {
                    return Ok(false);
                }
                anchor.as_ref().map_or(0, |a| a.len())
                    + collection_tag(tag, *implicit, self.canonical)?.len()
            }
            Node::Map {
                anchor,
                tag,
                implicit,
                entries,
            } => {
                if !entries.is_empty() {
                    return Ok(false);
                }
                anchor.as_ref().map_or(0, |a| a.len())
                    + collection_tag(tag, *implicit, self.canonical)?.len()
            }
        };
        Ok(len <= 128)
    }

    fn scalar(&mut self, s: &Scalar) -> Result<(), String> {
        let chars: Vec<char> = s.value.chars().collect();
        let a = analyze_scalar(&chars);
        let mut tag = scalar_tag(s, self.canonical)?;
        let style = self.select_style(s, &a, &mut tag)?;
        if let Some(an) = &s.anchor {
            self.anchor(an, false)?;
        }
        self.tag(&tag);
        self.increase_indent(true, false);
        let allow_breaks = !self.simple_key_context;
        match style {
            Style::Plain | Style::Any => self.plain(&chars, allow_breaks),
            Style::Single => self.single_quoted(&chars, allow_breaks),
            Style::Double => self.double_quoted(&chars, allow_breaks),
            Style::Literal => self.literal(&chars),
            Style::Folded => self.folded(&chars),
        }
        self.pop_indent();
        Ok(())
    }

    /// `yaml_emitter_select_scalar_style`.
    fn select_style(&self, s: &Scalar, a: &Analysis, tag: &mut TagData) -> Result<Style, String> {
        let no_tag = tag.none();
        if no_tag && !s.plain && !s.quoted {
            return Err("neither tag nor implicit flags are specified".into());
        }
        let mut style = if s.style == Style::Any {
            Style::Plain
        } else {
            s.style
        };
        if self.canonical {
            style = Style::Double;
        }
        if self.simple_key_context && a.multiline {
            style = Style::Double;
        }
        let flow = self.flow_level > 0;
        if style == Style::Plain {
            if (flow && !a.flow_plain_allowed) || (!flow && !a.block_plain_allowed) {
                style = Style::Single;
            }
            if s.value.is_empty() && (flow || self.simple_key_context) {
                style = Style::Single;
            }
            if no_tag && !s.plain {
                style = Style::Single;
            }
        }
        if style == Style::Single && !a.single_quoted_allowed {
            style = Style::Double;
        }
        if (style == Style::Literal || style == Style::Folded)
            && (!a.block_allowed || flow || self.simple_key_context)
        {
            style = Style::Double;
        }
        if no_tag && !s.quoted && style != Style::Plain {
            tag.handle = Some("!".into());
        }
        Ok(style)
    }

    fn plain(&mut self, s: &[char], allow_breaks: bool) {
        // No space before an empty value in block context (`key:`, `-`).
        if !self.whitespace && (!s.is_empty() || self.flow_level > 0) {
            self.put(' ');
        }
        let (mut spaces, mut breaks) = (false, false);
        let mut i = 0;
        while i < s.len() {
            let c = s[i];
            if c == ' ' {
                if allow_breaks && !spaces && self.column > self.best_width && !space_at(s, i + 1) {
                    self.write_indent();
                } else {
                    self.put(c);
                }
                spaces = true;
            } else if is_break(c) {
                if !breaks && c == '\n' {
                    self.put_break();
                }
                self.write_break(c);
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                self.put(c);
                self.indention = false;
                spaces = false;
                breaks = false;
            }
            i += 1;
        }
        self.whitespace = false;
        self.indention = false;
    }

    fn single_quoted(&mut self, s: &[char], allow_breaks: bool) {
        self.indicator("'", true, false, false);
        let (mut spaces, mut breaks) = (false, false);
        for (i, &c) in s.iter().enumerate() {
            if c == ' ' {
                if allow_breaks
                    && !spaces
                    && self.column > self.best_width
                    && i != 0
                    && i + 1 != s.len()
                    && !space_at(s, i + 1)
                {
                    self.write_indent();
                } else {
                    self.put(c);
                }
                spaces = true;
            } else if is_break(c) {
                if !breaks && c == '\n' {
                    self.put_break();
                }
                self.write_break(c);
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                if c == '\'' {
                    self.put('\'');
                }
                self.put(c);
                self.indention = false;
                spaces = false;
                breaks = false;
            }
        }
        if breaks {
            self.write_indent();
        }
        self.indicator("'", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    fn double_quoted(&mut self, s: &[char], allow_breaks: bool) {
        self.indicator("\"", true, false, false);
        let mut spaces = false;
        let mut i = 0;
        while i < s.len() {
            let c = s[i];
            if !printable(c) || c == '\u{FEFF}' || is_break(c) || c == '"' || c == '\\' {
                self.put('\\');
                let u = c as u32;
                let short = match u {
                    0x00 => Some('0'),
                    0x07 => Some('a'),
                    0x08 => Some('b'),
                    0x09 => Some('t'),
                    0x0A => Some('n'),
                    0x0B => Some('v'),
                    0x0C => Some('f'),
                    0x0D => Some('r'),
                    0x1B => Some('e'),
                    0x22 => Some('"'),
                    0x5C => Some('\\'),
                    0x85 => Some('N'),
                    0xA0 => Some('_'),
                    0x2028 => Some('L'),
                    0x2029 => Some('P'),
                    _ => None,
                };
                if let Some(e) = short {
                    self.put(e);
                } else {
                    let (letter, width) = if u <= 0xFF {
                        ('x', 2)
                    } else if u <= 0xFFFF {
                        ('u', 4)
                    } else {
                        ('U', 8)
                    };
                    self.put(letter);
                    for k in (0..width).rev() {
                        let d = (u >> (4 * k)) & 0x0F;
                        self.put(char::from_digit(d, 16).unwrap_or('0').to_ascii_uppercase());
                    }
                }
                spaces = false;
            } else if c == ' ' {
                if allow_breaks
                    && !spaces
                    && self.column > self.best_width
                    && i != 0
                    && i + 1 != s.len()
                {
                    self.write_indent();
                    if space_at(s, i + 1) {
                        self.put('\\');
                    }
                } else {
                    self.put(c);
                }
                spaces = true;
            } else {
                self.put(c);
                spaces = false;
            }
            i += 1;
        }
        self.indicator("\"", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    /// The indentation and chomping indicators after `|` or `>`.
    fn block_hints(&mut self, s: &[char]) {
        if let Some(&c) = s.first() {
            if c == ' ' || is_break(c) {
                let hint = char::from_digit(self.best_indent as u32, 10).unwrap_or('2');
                self.indicator(&hint.to_string(), false, false, false);
            }
        }
        self.open_ended = 0;
        let chomp = match s {
            [] => Some("-"),
            [.., last] if !is_break(*last) => Some("-"),
            [_] => {
                self.open_ended = 2;
                Some("+")
            }
            [.., before, _] if is_break(*before) => {
                self.open_ended = 2;
                Some("+")
            }
            _ => None,
        };
        if let Some(h) = chomp {
            self.indicator(h, false, false, false);
        }
    }

    fn literal(&mut self, s: &[char]) {
        self.indicator("|", true, false, false);
        self.block_hints(s);
        self.put_break();
        self.indention = true;
        self.whitespace = true;
        let mut breaks = true;
        for &c in s {
            if is_break(c) {
                self.write_break(c);
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                self.put(c);
                self.indention = false;
                breaks = false;
            }
        }
    }

    fn folded(&mut self, s: &[char]) {
        self.indicator(">", true, false, false);
        self.block_hints(s);
        self.put_break();
        self.indention = true;
        self.whitespace = true;
        let mut breaks = true;
        let mut leading_spaces = true;
        let mut i = 0;
        while i < s.len() {
            let c = s[i];
            if is_break(c) {
                if !breaks && !leading_spaces && c == '\n' {
                    let mut k = 0;
                    while s.get(i + k).is_some_and(|&b| is_break(b)) {
                        k += 1;
                    }
                    if !blankz_at(s, i + k) {
                        self.put_break();
                    }
                }
                self.write_break(c);
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                    leading_spaces = c == ' ' || c == '\t';
                }
                if !breaks && c == ' ' && !space_at(s, i + 1) && self.column > self.best_width {
                    self.write_indent();
                } else {
                    self.put(c);
                }
                self.indention = false;
                breaks = false;
            }
            i += 1;
        }
    }
}
