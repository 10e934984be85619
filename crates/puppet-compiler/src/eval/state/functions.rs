//! The function host's state: what running functions (modules' Ruby
//! functions, EPP templates, `annotate`) keep between calls.

use crate::eval::error::EvalError;
use crate::eval::value::Value;

/// Where a module's Ruby function raised the exception it let out: the
/// function's file and the line (Ruby's `backtrace.first`), with the
/// exception's message and the text pverify shows for it elsewhere.
#[derive(Clone, Debug)]
pub struct RubyErrorOrigin {
    pub file: String,
    pub line: usize,
    pub message: String,
    pub shown: String,
}

/// Ruby functions running inside one another at most (a function that
/// calls itself forever fails with Ruby's text instead of overflowing).
const MAX_RUBY_DEPTH: usize = 50;

#[derive(Default)]
pub struct FunctionHost {
    /// How many modules' Ruby functions are running inside one another
    /// (each holds a Ruby interpreter's frames on the stack).
    ruby_depth: usize,
    /// The Ruby class of the exception the last failing module Ruby
    /// function raised (`Puppet::ParseError`...): a Ruby caller's `rescue`
    /// matches on it.
    ruby_error_class: Option<String>,
    /// An error with its manifest location that Puppet code raised under a
    /// Ruby function's call: Puppet lets it through every Ruby frame as it
    /// is, so the outermost Ruby function gives it back unchanged.
    ruby_located_error: Option<Box<EvalError>>,
    /// Where the exception a module's Ruby function let out was raised
    /// (Ruby's `backtrace.first`), which `template()` names.
    ruby_error_origin: Option<RubyErrorOrigin>,
    /// The text of the last error a Ruby caller got from a function it
    /// called (raised outside the caller's own code).
    ruby_callee_error: Option<String>,
    /// The output of each EPP template being rendered, innermost last
    /// (Puppet's `@epp` scope variable).
    epp_output: Vec<EppOutput>,
    /// `annotate`'s side table: annotated values (kept alive, compared by
    /// identity as Puppet's adapters are) and their annotations (Object
    /// values of Annotation types), one per annotation type.
    annotations: Vec<(Value, Vec<Value>)>,
}

impl FunctionHost {
    // Ruby functions running inside one another.

    /// Enters one more Ruby function; false (nothing entered) when that
    /// would be deeper than Ruby's stack allows.
    #[inline]
    pub fn enter_ruby(&mut self) -> bool {
        if self.ruby_depth >= MAX_RUBY_DEPTH {
            return false;
        }
        self.ruby_depth += 1;
        true
    }

    /// Leaves the Ruby function [`FunctionHost::enter_ruby`] entered.
    #[inline]
    pub fn leave_ruby(&mut self) {
        self.ruby_depth -= 1;
    }

    // What a Ruby caller knows of the last failure.

    /// Sets (or forgets, with `None`) the Ruby class of the last failure.
    #[inline]
    pub fn set_error_class(&mut self, class: Option<String>) {
        self.ruby_error_class = class;
    }

    #[inline]
    pub fn has_error_class(&self) -> bool {
        self.ruby_error_class.is_some()
    }

    #[inline]
    pub fn take_error_class(&mut self) -> Option<String> {
        self.ruby_error_class.take()
    }

    #[inline]
    pub fn set_located_error(&mut self, e: EvalError) {
        self.ruby_located_error = Some(Box::new(e));
    }

    #[inline]
    pub fn take_located_error(&mut self) -> Option<Box<EvalError>> {
        self.ruby_located_error.take()
    }

    #[inline]
    pub fn error_origin(&self) -> Option<&RubyErrorOrigin> {
        self.ruby_error_origin.as_ref()
    }

    #[inline]
    pub fn set_error_origin(&mut self, origin: Option<RubyErrorOrigin>) {
        self.ruby_error_origin = origin;
    }

    #[inline]
    pub fn take_error_origin(&mut self) -> Option<RubyErrorOrigin> {
        self.ruby_error_origin.take()
    }

    #[inline]
    pub fn set_callee_error(&mut self, text: Option<String>) {
        self.ruby_callee_error = text;
    }

    #[inline]
    pub fn take_callee_error(&mut self) -> Option<String> {
        self.ruby_callee_error.take()
    }

    // EPP output.

    /// Starts the output of an EPP template.
    #[inline]
    pub fn begin_epp(&mut self) {
        self.epp_output.push(EppOutput::default());
    }

    /// Ends the innermost EPP template's output.
    #[inline]
    pub fn end_epp(&mut self) -> EppOutput {
        self.epp_output.pop().unwrap_or_default()
    }

    /// The innermost EPP template's output, if a template is being rendered.
    #[inline]
    pub fn epp_output(&mut self) -> Option<&mut EppOutput> {
        self.epp_output.last_mut()
    }

    // `annotate`'s side table.

    #[inline]
    pub fn annotations(&self) -> &[(Value, Vec<Value>)] {
        &self.annotations
    }

    /// The annotation list of the value at `slot` of
    /// [`FunctionHost::annotations`].
    #[inline]
    pub fn annotations_at(&mut self, slot: usize) -> &mut Vec<Value> {
        &mut self.annotations[slot].1
    }

    /// Adds a value without annotations yet; its slot.
    #[inline]
    pub fn add_annotated(&mut self, target: Value) -> usize {
        self.annotations.push((target, Vec::new()));
        self.annotations.len() - 1
    }
}

/// An EPP template's output: Puppet collects the rendered pieces in `@epp`
/// and joins them (`Array#join`), so the text is binary when its first
/// piece is a binary String, as an interpolation's (`bad_bytes::Appended`).
#[derive(Default, Debug)]
pub struct EppOutput {
    pub text: String,
    /// Whether a Sensitive value was rendered (the result is Sensitive).
    pub sensitive: bool,
    /// Where each piece rendered after a binary String was made starts,
    /// and whether it is one; earlier pieces are text.
    pieces: Vec<(usize, bool)>,
}

impl EppOutput {
    /// Appends a rendered piece, `binary` when it is a binary String.
    #[inline]
    pub fn push(&mut self, piece: &str, binary: bool) {
        if crate::bad_bytes::binary_made() {
            self.pieces.push((self.text.len(), binary));
        }
        self.text.push_str(piece);
    }

    /// Whether the joined text is a binary String, or Ruby's refusal to
    /// join the pieces (`incompatible character encodings`).
    pub fn is_binary(&self) -> Result<bool, &'static str> {
        if !self.pieces.iter().any(|(_, binary)| *binary) {
            return Ok(false);
        }
        let mut encoding = crate::bad_bytes::Appended::JOINED;
        let first = self.pieces[0].0;
        if first > 0 {
            // The pieces before any binary String: text, as one piece.
            encoding = encoding.then(&self.text[..first], false)?;
        }
        for (i, (start, binary)) in self.pieces.iter().enumerate() {
            let end = self.pieces.get(i + 1).map_or(self.text.len(), |p| p.0);
            encoding = encoding.then(&self.text[*start..end], *binary)?;
        }
        Ok(encoding.is_binary())
    }
}
