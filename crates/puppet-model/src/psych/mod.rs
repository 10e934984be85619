//! Ruby's `to_yaml` (Psych 4.0 over libyaml 0.2.5, as Puppet 7.23 runs on
//! Debian 12), byte for byte: stdlib's `to_yaml` function and ERB's
//! `.to_yaml` both write YAML this way.
//!
//! Psych works in two steps and so does this module: its `YAMLTree`
//! visitor turns Ruby objects into nodes, choosing each string's style
//! (`strings`), then libyaml's emitter writes the nodes (`emitter`).

mod emitter;
mod strings;
mod types;
mod values;

pub use strings::string_scalar;
pub use values::{options_from, regexp_node, value_node};

/// A scalar style as Psych asks libyaml for it (`Any` lets libyaml pick).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    Any,
    Plain,
    Single,
    Double,
    Literal,
    Folded,
}

/// A scalar event: its text, and libyaml's `plain_implicit` (`plain`) and
/// `quoted_implicit` (`quoted`) flags, which decide whether a tag is shown.
#[derive(Clone, Debug)]
pub struct Scalar {
    pub value: String,
    pub anchor: Option<String>,
    pub tag: Option<String>,
    pub plain: bool,
    pub quoted: bool,
    pub style: Style,
}

impl Scalar {
    /// What Psych emits for Integer, true/false and other `to_s` scalars.
    pub fn plain(value: impl Into<String>) -> Scalar {
        Scalar {
            value: value.into(),
            anchor: None,
            tag: None,
            plain: true,
            quoted: false,
            style: Style::Any,
        }
    }
}

/// A node of Psych's tree. Psych only asks for block collections.
#[derive(Clone, Debug)]
pub enum Node {
    Scalar(Scalar),
    Seq {
        anchor: Option<String>,
        tag: Option<String>,
        implicit: bool,
        items: Vec<Node>,
    },
    Map {
        anchor: Option<String>,
        tag: Option<String>,
        implicit: bool,
        entries: Vec<(Node, Node)>,
    },
    Alias(String),
}

/// Dropped without recursion: a tree as deep as the data (100,000 nested
/// arrays built by `reduce`) must not overflow the stack when it goes.
impl Drop for Node {
    fn drop(&mut self) {
        let mut stack = Vec::new();
        take_children(self, &mut stack);
        while let Some(mut n) = stack.pop() {
            take_children(&mut n, &mut stack);
        }
    }
}

fn take_children(n: &mut Node, out: &mut Vec<Node>) {
    match n {
        Node::Seq { items, .. } => out.append(items),
        Node::Map { entries, .. } => {
            for (k, v) in entries.drain(..) {
                out.push(k);
                out.push(v);
            }
        }
        Node::Scalar(_) | Node::Alias(_) => {}
    }
}

impl Node {
    pub fn seq(items: Vec<Node>) -> Node {
        Node::Seq {
            anchor: None,
            tag: None,
            implicit: true,
            items,
        }
    }

    pub fn map(entries: Vec<(Node, Node)>) -> Node {
        Node::Map {
            anchor: None,
            tag: None,
            implicit: true,
            entries,
        }
    }

    /// Ruby's `nil`: an empty plain scalar tagged `!!null`.
    pub fn null() -> Node {
        Node::Scalar(Scalar {
            value: String::new(),
            anchor: None,
            tag: Some("tag:yaml.org,2002:null".into()),
            plain: true,
            quoted: false,
            style: Style::Any,
        })
    }

    pub fn int(i: impl ToString) -> Node {
        Node::Scalar(Scalar::plain(i.to_string()))
    }

    pub fn bool(b: bool) -> Node {
        Node::Scalar(Scalar::plain(b.to_string()))
    }

    /// Psych's `visit_Float`: `.nan`, `.inf`, `-.inf`, else `Float#to_s`.
    pub fn float(f: f64) -> Node {
        let text = if f.is_nan() {
            ".nan".to_string()
        } else if f.is_infinite() {
            if f > 0.0 { ".inf" } else { "-.inf" }.to_string()
        } else {
            puppet_syntax::ruby_float::ruby_float(f)
        };
        Node::Scalar(Scalar::plain(text))
    }

    /// Psych's `visit_Symbol`: `:name` plain (an empty symbol is tagged).
    pub fn symbol(name: &str) -> Node {
        if name.is_empty() {
            return Node::Scalar(Scalar {
                value: String::new(),
                anchor: None,
                tag: Some("!ruby/symbol".into()),
                plain: false,
                quoted: false,
                style: Style::Any,
            });
        }
        Node::Scalar(Scalar::plain(format!(":{name}")))
    }
}

/// The options `to_yaml(options)` passes on: Psych's emitter options
/// (`indentation`, `line_width`, `canonical`) and `header`/`version`.
#[derive(Clone, Debug)]
pub struct Options {
    /// libyaml's `best_indent` (2 unless 2..=9).
    pub indentation: i64,
    /// libyaml's `best_width` (0 means 80, -1 unlimited).
    pub line_width: i64,
    /// Psych's own `line_width`: longer strings are written folded (`>`).
    pub fold_width: Option<usize>,
    pub canonical: bool,
    /// `%YAML major.minor` before `---`.
    pub version: Option<(i64, i64)>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            indentation: 2,
            line_width: 0,
            fold_width: None,
            canonical: false,
            version: None,
        }
    }
}

impl Options {
    /// Sets `line_width` as Psych does: the emitter's width, and (unless -1)
    /// the length past which a string is folded.
    pub fn set_line_width(&mut self, w: i64) -> Result<(), String> {
        if w < -1 {
            return Err(format!(
                "Invalid line_width {w}, must be non-negative or -1 for unlimited."
            ));
        }
        self.line_width = w;
        self.fold_width = (w >= 0).then_some(w as usize);
        Ok(())
    }
}

/// The YAML document Psych writes for `root`.
pub fn dump(root: &Node, options: &Options) -> Result<String, String> {
    emitter::Emitter::new(options).document(root, options.version)
}
