//! The compiled catalog written out: one walk over the compiler's state
//! ([`Compiler::emit_catalog`]) feeding a [`JsonSink`], which either builds a
//! `serde_json::Value` tree ([`TreeSink`], for the harness, diffs and tests)
//! or writes the text `pverify compile` saves ([`PrettySink`]).
//!
//! Why two sinks: building the tree and then pretty-printing it was about a
//! fifth of a warm compile (every key and string copied into the tree, every
//! map hashed, then all of it walked and freed again). Writing straight to
//! bytes skips all of that. `PrettySink` writes exactly what
//! `serde_json::to_writer_pretty` writes for the tree (two-space indents,
//! `[]`/`{}` when empty, serde_json's own string escaping and float digits),
//! which `tests/catalog_text.rs` checks on every bundled node.

pub(crate) mod rich_data;

use serde_json::{Map as JMap, Value as J};

use super::compiler::{Compiler, Res, ResKind};
use super::value::Value;
use puppet_model::types::format::regexp_inspect;
use puppet_model::types::PType;

/// Receives a JSON document as a stream of events, in document order.
pub trait JsonSink {
    fn begin_object(&mut self);
    fn key(&mut self, key: &str);
    fn end_object(&mut self);
    fn begin_array(&mut self);
    fn end_array(&mut self);
    fn string(&mut self, s: &str);
    /// One string made of `parts` (a reference `Type[title]`), without
    /// building it first where the sink need not.
    fn string_of(&mut self, parts: &[&str]) {
        self.string(&parts.concat());
    }
    fn int(&mut self, i: i64);
    fn float(&mut self, f: f64);
    fn bool(&mut self, b: bool);
    fn null(&mut self);
}

/// Builds the `serde_json::Value` (with `preserve_order` maps: a repeated
/// key keeps its first place and takes the last value, as `Map::insert`).
#[derive(Default)]
pub struct TreeSink {
    stack: Vec<Frame>,
    root: Option<J>,
}

enum Frame {
    Object(JMap<String, J>, Option<String>),
    Array(Vec<J>),
}

impl TreeSink {
    pub fn finish(self) -> J {
        self.root.unwrap_or(J::Null)
    }

    fn push(&mut self, v: J) {
        match self.stack.last_mut() {
            None => self.root = Some(v),
            Some(Frame::Array(items)) => items.push(v),
            Some(Frame::Object(map, key)) => {
                map.insert(key.take().unwrap_or_default(), v);
            }
        }
    }
}

impl JsonSink for TreeSink {
    fn begin_object(&mut self) {
        self.stack.push(Frame::Object(JMap::new(), None));
    }
    fn key(&mut self, key: &str) {
        if let Some(Frame::Object(_, k)) = self.stack.last_mut() {
            *k = Some(key.to_string());
        }
    }
    fn end_object(&mut self) {
        if let Some(Frame::Object(map, _)) = self.stack.pop() {
            self.push(J::Object(map));
        }
    }
    fn begin_array(&mut self) {
        self.stack.push(Frame::Array(Vec::new()));
    }
    fn end_array(&mut self) {
        if let Some(Frame::Array(items)) = self.stack.pop() {
            self.push(J::Array(items));
        }
    }
    fn string(&mut self, s: &str) {
        self.push(J::String(s.to_string()));
    }
    fn int(&mut self, i: i64) {
        self.push(J::from(i));
    }
    fn float(&mut self, f: f64) {
        // Not finite: `null`, as `json!(f)`.
        self.push(serde_json::Number::from_f64(f).map_or(J::Null, J::Number));
    }
    fn bool(&mut self, b: bool) {
        self.push(J::Bool(b));
    }
    fn null(&mut self) {
        self.push(J::Null);
    }
}

/// Writes the document as `serde_json::to_writer_pretty` would write its
/// tree.
pub struct PrettySink<'o> {
    out: &'o mut Vec<u8>,
    /// Per open container: whether nothing was written in it yet.
    first: Vec<bool>,
    /// After a key, the value goes on the key's line.
    after_key: bool,
}

impl<'o> PrettySink<'o> {
    pub fn new(out: &'o mut Vec<u8>) -> Self {
        PrettySink {
            out,
            first: Vec::with_capacity(16),
            after_key: false,
        }
    }

    /// The separator and indent before a value or key at the current depth.
    #[inline]
    fn before_item(&mut self) {
        if self.after_key {
            self.after_key = false;
            return;
        }
        let depth = self.first.len();
        if let Some(first) = self.first.last_mut() {
            let comma = !*first;
            *first = false;
            // Catalogs nest 7 deep at most, short of parameter values: the
            // comma, the newline and the indent in one short write.
            if depth <= 7 {
                const COMMA_LINE: &[u8; 17] = b",\n               ";
                let from = usize::from(!comma);
                let block = COMMA_LINE[from..].first_chunk::<16>().unwrap_or(SHORT_LINE);
                return push_prefix(self.out, block, usize::from(comma) + 1 + depth * 2);
            }
            if comma {
                self.out.push(b',');
            }
            self.newline_indent(depth);
        }
    }

    /// A newline and `depth` levels of two-space indent, in one copy.
    #[inline]
    fn newline_indent(&mut self, depth: usize) {
        const LINE: &[u8; 65] =
            b"\n                                                                ";
        let n = 1 + depth * 2;
        if n <= SHORT_LINE.len() {
            // Catalogs nest 7 deep at most, short of parameter values.
            return push_prefix(self.out, SHORT_LINE, n);
        }
        if n <= LINE.len() {
            self.out.extend_from_slice(&LINE[..n]);
        } else {
            self.out.push(b'\n');
            self.out.resize(self.out.len() + depth * 2, b' ');
        }
    }

    #[inline]
    fn close(&mut self, bracket: u8) {
        let had_items = self.first.pop() == Some(false);
        if had_items {
            self.newline_indent(self.first.len());
        }
        self.out.push(bracket);
    }

    #[inline]
    fn quoted(&mut self, s: &str) {
        // Most strings need no escape (serde_json escapes only control
        // characters, `"` and `\\`): a scan, then one copy. Most are short
        // too (tags, names, parameter keys): their scan's padded block is
        // what is written.
        let b = s.as_bytes();
        if b.len() < 16 {
            let block = padded_block(b);
            if escape_mask(&block) == 0 {
                return push_quoted(self.out, &block, b.len());
            }
        } else if !needs_escape(b) {
            self.out.push(b'"');
            self.out.extend_from_slice(b);
            self.out.push(b'"');
            return;
        }
        write_escaped(self.out, b);
    }
}

/// A newline and the indent of up to seven levels, as one block.
const SHORT_LINE: &[u8; 16] = b"\n               ";

/// Appends the first `n` (at most 16) bytes of `block`: a fixed 16-byte
/// store where a copy of `n` bytes is a call to `memcpy`, with the length
/// then set past the `n` wanted. Short strings and indents are most of the
/// catalog text.
#[allow(unsafe_code)] // the SIMD writer: see the SAFETY comment inside
#[inline]
fn push_prefix(out: &mut Vec<u8>, block: &[u8; 16], n: usize) {
    out.reserve(16);
    let len = out.len();
    // SAFETY: `reserve` made room for 16 bytes past `len`, all written
    // before the length grows by at most 16 of them.
    unsafe {
        out.as_mut_ptr()
            .add(len)
            .cast::<[u8; 16]>()
            .write_unaligned(*block);
        out.set_len(len + n.min(16));
    }
}

/// Appends the first `n` (under 16) bytes of `block` in quotes, with one
/// capacity check and fixed-size stores, as [`push_prefix`] does.
#[allow(unsafe_code)] // the SIMD writer: see the SAFETY comment inside
#[inline]
fn push_quoted(out: &mut Vec<u8>, block: &[u8; 16], n: usize) {
    let n = n.min(15);
    out.reserve(18);
    let len = out.len();
    // SAFETY: `reserve` made room for 18 bytes past `len`: the opening
    // quote, 16 bytes of block and, at `len + 1 + n` (≤ `len + 16`), the
    // closing quote. The length covers exactly the bytes written last.
    unsafe {
        let at = out.as_mut_ptr().add(len);
        at.write(b'"');
        at.add(1).cast::<[u8; 16]>().write_unaligned(*block);
        at.add(1 + n).write(b'"');
        out.set_len(len + 2 + n);
    }
}

/// A string shorter than 16 bytes, padded with spaces (which need no
/// escape) to one block.
#[inline]
fn padded_block(b: &[u8]) -> [u8; 16] {
    let mut block = [b' '; 16];
    let n = b.len().min(16);
    block[..n].copy_from_slice(&b[..n]);
    block
}

/// Whether serde_json escapes the byte: control characters, `"` and `\\`.
fn escaped(c: u8) -> bool {
    c < 0x20 || c == b'"' || c == b'\\'
}

/// Bit `i` set when byte `i` of the block is [`escaped`]. Every string of the
/// catalog text (~200 kB a node) goes through this, so on x86-64 it is a
/// few SSE2 instructions (SSE2 is part of every x86-64).
#[allow(unsafe_code)] // the SIMD writer: see the SAFETY comment inside
#[cfg(target_arch = "x86_64")]
#[inline]
fn escape_mask(block: &[u8; 16]) -> u32 {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_min_epu8, _mm_movemask_epi8, _mm_or_si128,
        _mm_set1_epi8,
    };
    // SAFETY: SSE2 is in the x86-64 baseline, so the intrinsics are always
    // available, and the (unaligned) load reads exactly the 16 bytes of
    // `block`.
    unsafe {
        let v = _mm_loadu_si128(block.as_ptr().cast::<__m128i>());
        // Unsigned `v <= 0x1f` is `min(v, 0x1f) == v`.
        let control = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1f)), v);
        let quote = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'"' as i8));
        let backslash = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'\\' as i8));
        _mm_movemask_epi8(_mm_or_si128(control, _mm_or_si128(quote, backslash))) as u32
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn escape_mask(block: &[u8; 16]) -> u32 {
    (0..16).fold(0, |mask, i| mask | (u32::from(escaped(block[i])) << i))
}

/// Whether any byte of `b` is [`escaped`].
fn needs_escape(b: &[u8]) -> bool {
    if let Some(last) = b.last_chunk::<16>() {
        // The last 16 bytes cover whatever the whole blocks leave over.
        b.as_chunks::<16>()
            .0
            .iter()
            .any(|block| escape_mask(block) != 0)
            || escape_mask(last) != 0
    } else {
        // Most strings are short (tags, names): one padded block.
        escape_mask(&padded_block(b)) != 0
    }
}

/// `s` as serde_json writes a string, escapes included: runs of plain bytes
/// copied whole between the escapes the block masks point at (serde_json's
/// own writer goes byte by byte; file contents make this the costly case).
fn write_escaped(out: &mut Vec<u8>, s: &[u8]) {
    out.reserve(s.len() + 8);
    out.push(b'"');
    let mut start = 0;
    let mut escape_at = |out: &mut Vec<u8>, i: usize| {
        out.extend_from_slice(&s[start..i]);
        write_escape(out, s[i]);
        start = i + 1;
    };
    let (blocks, rest) = s.as_chunks::<16>();
    for (n, block) in blocks.iter().enumerate() {
        let mut mask = escape_mask(block);
        while mask != 0 {
            escape_at(out, n * 16 + mask.trailing_zeros() as usize);
            mask &= mask - 1;
        }
    }
    let rest_at = s.len() - rest.len();
    for (i, &c) in rest.iter().enumerate() {
        if escaped(c) {
            escape_at(out, rest_at + i);
        }
    }
    out.extend_from_slice(&s[start..]);
    out.push(b'"');
}

/// One escaped byte, spelled as serde_json spells it.
fn write_escape(out: &mut Vec<u8>, c: u8) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    match c {
        b'"' => out.extend_from_slice(b"\\\""),
        b'\\' => out.extend_from_slice(b"\\\\"),
        b'\n' => out.extend_from_slice(b"\\n"),
        b'\r' => out.extend_from_slice(b"\\r"),
        b'\t' => out.extend_from_slice(b"\\t"),
        0x08 => out.extend_from_slice(b"\\b"),
        0x0c => out.extend_from_slice(b"\\f"),
        _ => out.extend_from_slice(&[
            b'\\',
            b'u',
            b'0',
            b'0',
            HEX[usize::from(c >> 4)],
            HEX[usize::from(c & 0xf)],
        ]),
    }
}

impl JsonSink for PrettySink<'_> {
    #[inline]
    fn begin_object(&mut self) {
        self.before_item();
        self.out.push(b'{');
        self.first.push(true);
    }
    #[inline]
    fn key(&mut self, key: &str) {
        self.before_item();
        self.quoted(key);
        self.out.extend_from_slice(b": ");
        self.after_key = true;
    }
    #[inline]
    fn end_object(&mut self) {
        self.close(b'}');
    }
    #[inline]
    fn begin_array(&mut self) {
        self.before_item();
        self.out.push(b'[');
        self.first.push(true);
    }
    #[inline]
    fn end_array(&mut self) {
        self.close(b']');
    }
    #[inline]
    fn string(&mut self, s: &str) {
        self.before_item();
        self.quoted(s);
    }
    #[inline]
    fn string_of(&mut self, parts: &[&str]) {
        if parts.iter().any(|p| needs_escape(p.as_bytes())) {
            return self.string(&parts.concat());
        }
        self.before_item();
        self.out.push(b'"');
        for p in parts {
            self.out.extend_from_slice(p.as_bytes());
        }
        self.out.push(b'"');
    }
    #[inline]
    fn int(&mut self, i: i64) {
        self.before_item();
        let _ = serde_json::to_writer(&mut *self.out, &i);
    }
    #[inline]
    fn float(&mut self, f: f64) {
        self.before_item();
        // serde_json writes a non-finite float as `null`, as the tree holds it.
        let _ = serde_json::to_writer(&mut *self.out, &f);
    }
    #[inline]
    fn bool(&mut self, b: bool) {
        self.before_item();
        self.out
            .extend_from_slice(if b { b"true" } else { b"false" });
    }
    #[inline]
    fn null(&mut self) {
        self.before_item();
        self.out.extend_from_slice(b"null");
    }
}

impl Compiler<'_> {
    /// The catalog in Puppet's JSON form (`catalog_format` 2).
    pub fn emit_catalog(&self, s: &mut impl JsonSink) {
        s.begin_object();
        // Puppet's `to_catalog` copies the classes first (each tagging the
        // new catalog), then merges the compile-time tags.
        let mut tagger = super::compile::plain_res("", "", ResKind::Stage, 0);
        for c in self.catalog.classes() {
            tagger.tag(c);
        }
        for t in self.catalog.tags() {
            tagger.tag(t);
        }
        s.key("tags");
        strings(s, &tagger.tags);
        s.key("name");
        s.string(&self.node.name);
        s.key("version");
        s.int(0);
        s.key("code_id");
        s.null();
        s.key("catalog_uuid");
        s.string("00000000-0000-0000-0000-000000000000");
        s.key("catalog_format");
        s.int(2);
        s.key("environment");
        s.string(&self.env.name);
        s.key("resources");
        s.begin_array();
        for r in self.catalog.resources().iter().filter(|r| shown(r)) {
            self.emit_resource(r, s);
        }
        s.end_array();
        // Puppet's graph lists edges by target, in the order targets were
        // added (a stable sort keeps insertion order per target).
        let mut edges = self.catalog.edges().to_vec();
        edges.sort_by_key(|(_, target)| *target);
        s.key("edges");
        s.begin_array();
        for (a, b) in edges {
            let (a, b) = (&self.catalog[a], &self.catalog[b]);
            if shown(a) && shown(b) {
                s.begin_object();
                s.key("source");
                s.string_of(&[&a.type_name, "[", &a.title, "]"]);
                s.key("target");
                s.string_of(&[&b.type_name, "[", &b.title, "]"]);
                s.end_object();
            }
        }
        s.end_array();
        s.key("classes");
        strings(s, self.catalog.classes());
        s.end_object();
    }

    fn emit_resource(&self, r: &Res, s: &mut impl JsonSink) {
        s.begin_object();
        s.key("type");
        s.string(&r.type_name);
        s.key("title");
        s.string(&r.title);
        s.key("tags");
        strings(s, &r.tags);
        // Classes declared resource-like (`class { 'x': }`) carry their place.
        let resource_like_class = r.kind == ResKind::Class && r.file.is_some();
        let located = resource_like_class
            || !matches!(r.kind, ResKind::Class | ResKind::Node | ResKind::Stage);
        if located {
            if let Some(f) = &r.file {
                s.key("file");
                s.string(f);
            }
            if let Some(l) = r.line {
                s.key("line");
                s.int(i64::from(l));
            }
        }
        // A nil `exported` (3.x `create_resources`) comes after `kind`.
        if !r.exported_nil {
            s.key("exported");
            s.bool(r.exported);
        }
        s.key("kind");
        s.string(match r.kind {
            ResKind::Class if resource_like_class => "class",
            ResKind::Class | ResKind::Node => "unknown",
            ResKind::Define => "defined_type",
            _ => "compilable_type",
        });
        if r.exported_nil {
            s.key("exported");
            s.bool(false);
        }
        // Undef values are already left out.
        let params = self.catalog_params(r);
        if !params.is_empty() {
            let rich = self.rich_data();
            s.key("parameters");
            s.begin_object();
            for (k, v) in &params {
                s.key(k);
                // A Sensitive is unwrapped at the top (and listed below); a
                // nested one stays a Sensitive object.
                let v = match &**v {
                    Value::Sensitive(inner) => inner,
                    v => v,
                };
                if rich {
                    rich_data::emit_rich(v, &self.binary_strings, s);
                } else {
                    emit_value(v, s);
                }
            }
            s.end_object();
        }
        // Puppet's copy_as_resource unwraps a Sensitive parameter value and
        // lists the parameter in `sensitive_parameters`.
        let mut sensitive = params
            .iter()
            .filter(|(_, v)| matches!(&**v, Value::Sensitive(_)))
            .peekable();
        if sensitive.peek().is_some() {
            s.key("sensitive_parameters");
            s.begin_array();
            for (k, _) in sensitive {
                s.string(k);
            }
            s.end_array();
        }
        s.end_object();
    }
}

impl Compiler<'_> {
    /// Whether parameters are written as rich data: Puppet 7.23's base
    /// context binds `:rich_data` to false whatever the setting says;
    /// Puppet 8's binds it to the `rich_data` setting as it is when the
    /// context is made (true by default; a per-compile setting comes too
    /// late to change it, as the oracle shows).
    fn rich_data(&self) -> bool {
        self.node.puppet == crate::version::PuppetVersion::V8
    }
}

/// Virtual resources are left out; exported ones stay, marked.
fn shown(r: &Res) -> bool {
    !r.virtual_ || r.exported
}

fn strings<T: AsRef<str>>(s: &mut impl JsonSink, items: &[T]) {
    s.begin_array();
    for i in items {
        s.string(i.as_ref());
    }
    s.end_array();
}

/// A parameter value as Puppet's catalog JSON holds it.
pub fn emit_value(v: &Value, s: &mut impl JsonSink) {
    match v {
        Value::Undef => s.null(),
        Value::Default => s.string("default"),
        Value::Boolean(b) => s.bool(*b),
        Value::Integer(i) => s.int(*i),
        Value::Float(f) => s.float(*f),
        Value::String(x) => s.string(x),
        Value::Regexp(r) => s.string(&regexp_inspect(r)),
        Value::Deferred(_)
        | Value::Object(_)
        | Value::Binary(_)
        | Value::Timestamp(_)
        | Value::Timespan(_)
        | Value::SemVer(_)
        | Value::SemVerRange(_)
        | Value::Uri(_)
        | Value::Range(_) => s.string(&v.to_string()),
        Value::Array(items) => {
            s.begin_array();
            for i in items.iter() {
                emit_value(i, s);
            }
            s.end_array();
        }
        Value::Hash(h) => {
            s.begin_object();
            if h.keys().all(|k| matches!(k, Value::String(_))) {
                for (k, v) in h.iter() {
                    s.key(k.as_str().unwrap_or_default());
                    emit_value(v, s);
                }
            } else {
                // Keys that print alike (`1` and `'1'`) are one JSON key:
                // the first one's place, the last one's value.
                let mut merged: indexmap::IndexMap<String, &Value, rustc_hash::FxBuildHasher> =
                    indexmap::IndexMap::default();
                for (k, v) in h.iter() {
                    merged.insert(key_text(k), v);
                }
                for (k, v) in merged {
                    s.key(&k);
                    emit_value(v, s);
                }
            }
            s.end_object();
        }
        Value::Type(t) => match t.as_ref() {
            PType::Resource {
                type_name: Some(tn),
                title: Some(x),
            } => s.string_of(&[tn, "[", x, "]"]),
            PType::Class(Some(c)) => {
                s.string_of(&["Class[", &super::compiler::capitalize_name(c), "]"])
            }
            other => s.string(&other.to_string()),
        },
        Value::Sensitive(inner) => {
            s.begin_object();
            s.key("__ptype");
            s.string("Sensitive");
            s.key("__pvalue");
            emit_value(inner, s);
            s.end_object();
        }
    }
}

/// A hash key that is not a string, as Puppet's catalog writes it: a
/// reference as `Type[title]`, otherwise Ruby's `to_s` of the value (`""`
/// for undef, `/src/` for a regexp, `inspect` for an array or a hash).
fn key_text(k: &Value) -> String {
    match k {
        Value::Undef => String::new(),
        Value::Default => "default".into(),
        Value::Float(f) => puppet_syntax::ruby_float::ruby_float(*f),
        Value::Regexp(src) => regexp_inspect(src),
        Value::Array(_) | Value::Hash(_) => ruby_inspect(k),
        other => reference_text(other).unwrap_or_else(|| other.to_string()),
    }
}

/// Ruby's `inspect` of a value inside a hash key.
fn ruby_inspect(v: &Value) -> String {
    match v {
        Value::Undef => "nil".into(),
        Value::Default => ":default".into(),
        Value::String(s) => puppet_model::names::ruby_inspect_str(s),
        Value::Float(f) => puppet_syntax::ruby_float::ruby_float(*f),
        Value::Regexp(src) => regexp_inspect(src),
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(ruby_inspect).collect();
            format!("[{}]", parts.join(", "))
        }
        Value::Hash(map) => {
            let parts: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{}=>{}", ruby_inspect(k), ruby_inspect(v)))
                .collect();
            format!("{{{}}}", parts.join(", "))
        }
        other => reference_text(other).unwrap_or_else(|| other.to_string()),
    }
}

/// A resource or class reference as the catalog writes it (`File[/a]`,
/// `Class[Foo::Bar]`); `None` for other values.
fn reference_text(v: &Value) -> Option<String> {
    let Value::Type(t) = v else { return None };
    match t.as_ref() {
        PType::Resource {
            type_name: Some(tn),
            title: Some(x),
        } => Some(format!("{tn}[{x}]")),
        PType::Class(Some(c)) => Some(format!("Class[{}]", super::compiler::capitalize_name(c))),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::{emit_value, needs_escape, write_escaped, PrettySink, TreeSink};
    use puppet_model::Value;

    /// The short writes (indents, short strings) agree with serde_json's
    /// pretty printer at every depth, from an empty buffer up.
    #[test]
    fn pretty_sink_writes_what_serde_json_writes() {
        let mut v = Value::Integer(1);
        for depth in 0..12 {
            let strings =
                (0..40).map(|n| Value::string("ab\"c".repeat(n / 4) + &"x".repeat(n % 4)));
            let mut items: Vec<Value> = strings.collect();
            items.push(v.clone());
            items.push(Value::array(Vec::new()));
            let mut h = puppet_model::value::Map::default();
            h.insert(Value::string(format!("k{depth}")), Value::array(items));
            h.insert(
                Value::string("a key longer than sixteen bytes"),
                Value::Boolean(true),
            );
            v = Value::Hash(std::sync::Arc::new(h));
            let mut ours = Vec::new();
            emit_value(&v, &mut PrettySink::new(&mut ours));
            let mut tree = TreeSink::default();
            emit_value(&v, &mut tree);
            let theirs = serde_json::to_vec_pretty(&tree.finish()).unwrap_or_default();
            assert_eq!(
                String::from_utf8_lossy(&ours),
                String::from_utf8_lossy(&theirs),
                "depth {depth}"
            );
        }
    }

    #[test]
    fn escape_scan_and_writer_agree_with_serde_json() {
        let slow = |b: &[u8]| b.iter().any(|&c| c < 0x20 || c == b'"' || c == b'\\');
        // Every ASCII byte at every position of strings of 0 to 40 bytes (one
        // short block, whole blocks and a remainder), among plain,
        // boundary and multi-byte neighbours.
        for fill in ["a", "\u{7f}", "é", " ", "!", "[", "]", "\u{1f}"] {
            for len in [0usize, 1, 7, 15, 16, 17, 31, 32, 33, 40] {
                let base: String = fill.repeat(len);
                for pos in 0..=len {
                    for c in 0..=127u8 {
                        let mut s = base.chars().take(pos).collect::<String>();
                        s.push(char::from(c));
                        s.extend(base.chars().skip(pos));
                        assert_eq!(needs_escape(s.as_bytes()), slow(s.as_bytes()), "{s:?}");
                        let mut ours = Vec::new();
                        write_escaped(&mut ours, s.as_bytes());
                        let theirs = serde_json::to_vec(&s).unwrap_or_default();
                        assert_eq!(ours, theirs, "{s:?}");
                    }
                }
            }
        }
    }
}
