//! EPP templates: Puppet's `epp_support.rb` (the text scanner) and the EPP rules
//! of `lexer2.rb` (`%>` and `-%>` close a tag).
//!
//! A template lexes as `EppStart`, then text as `RenderString`, the code of
//! `<% %>` tags as ordinary tokens, and `<%= %>` as `RenderExpr` code `EppEnd`.
//! Puppet's quirks are kept: text that ends in a comment or in `<%%` is lost
//! (the scanner's loop ends without returning it), and `-%>` trims the blanks
//! that follow it even when no line break follows them.

use super::{Lexer, RawError, Tok};

/// What the lexer is reading in a template.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EppMode {
    Text,
    /// Inside `<% %>`: code whose value is not rendered.
    Code,
    /// Inside `<%= %>`: an expression to render.
    Expr,
}

const UNBALANCED_TAG: &str = "Unbalanced epp tag, reached <eof> without closing tag.";
const UNBALANCED_COMMENT: &str = "Reaching end after opening <%# without seeing %>";
const UNBALANCED_EXPRESSION: &str =
    "Unbalanced embedded expression - opening <% and reaching end of input";

impl Lexer<'_> {
    /// Puppet's `scan_epp`.
    pub(super) fn run_epp(&mut self) -> Result<(), RawError> {
        self.epp = Some(EppMode::Text);
        self.push(Tok::EppStart, 0, 0);
        self.interpolate_epp(false)?;
        while self.pos < self.b.len() {
            let n = self.out.len();
            if let Err(e) = self.lex_token() {
                // A token Puppet's lexer had not finished (a string's
                // interpolation lexes all of it first) never reached the parser.
                self.out.truncate(n);
                return Err(e);
            }
            if self.out.len() > n {
                self.note_after_last();
            }
        }
        if self.epp_open.is_some() {
            // Puppet passes a position that is never set: the scanner's, at the end.
            return Err(RawError::at(self.b.len(), UNBALANCED_TAG));
        }
        Ok(())
    }

    /// `%>` or `-%>` (`trim`) in a tag: back to text.
    pub(super) fn epp_close(&mut self, trim: bool) -> Result<(), RawError> {
        let before = self.pos;
        self.pos += if trim { 3 } else { 2 };
        if self.epp == Some(EppMode::Expr) {
            let tok = if trim { Tok::EppEndTrim } else { Tok::EppEnd };
            self.push(tok, before, self.pos);
        }
        self.epp = Some(EppMode::Text);
        self.interpolate_epp(trim)
    }

    /// Puppet's `interpolate_epp`: scans text up to the next tag and emits it.
    fn interpolate_epp(&mut self, skip_leading: bool) -> Result<(), RawError> {
        let before = self.pos;
        // Like Puppet's, the text scanner leaves the start of the lexical line
        // (for `(` first on a line) where the code last set it: a tag's `<%`
        // always stands between text and code anyway.
        let (text, mode) = self.scan_epp_text(skip_leading)?;
        match mode {
            EppMode::Text => {
                if let Some(s) = text {
                    self.push(Tok::RenderString(s), before, self.pos);
                }
                self.epp_open = None;
            }
            EppMode::Code | EppMode::Expr => {
                // Empty segments are not rendered; that also lets a template
                // start with its parameters (`<%- |$x| -%>`).
                if let Some(s) = text.filter(|s| !s.is_empty()) {
                    self.push(Tok::RenderString(s), before, self.pos);
                }
                if mode == EppMode::Expr {
                    self.push(Tok::RenderExpr, before, before);
                }
                self.epp = Some(mode);
                self.epp_open = Some(self.pos);
            }
        }
        Ok(())
    }

    /// Puppet's `EppScanner#scan`: the text up to the next `<%`, `<%-` or `<%=`
    /// (comments, `<%%` and `%%>` handled), and how the input continues.
    fn scan_epp_text(&mut self, skip_leading: bool) -> Result<(Option<String>, EppMode), RawError> {
        let len = self.b.len();
        let mut skip = skip_leading;
        let mut s = String::new();
        while self.pos < len {
            let end = match self.src[self.pos..].find("<%") {
                Some(i) => self.pos + i + 2,
                None => len,
            };
            let mut part = &self.src[self.pos..end];
            self.pos = end;
            if skip {
                part = strip_leading_line_blanks(part);
                skip = false;
            }
            s.push_str(&part.replace("%%>", "%>"));
            if self.pos >= len {
                if s.ends_with("<%") {
                    return Err(RawError::at(self.pos, UNBALANCED_EXPRESSION));
                }
                return Ok((Some(s), EppMode::Text));
            }
            match self.b[self.pos] {
                b'-' => {
                    self.pos += 1;
                    s.truncate(s.len() - 2);
                    s.truncate(s.trim_end_matches([' ', '\t']).len());
                    return Ok((Some(s), EppMode::Code));
                }
                // `<%%` is a literal `<%`.
                b'%' => self.pos += 1,
                b'=' => {
                    self.pos += 1;
                    s.truncate(s.len() - 2);
                    return Ok((Some(s), EppMode::Expr));
                }
                b'#' => {
                    s.truncate(s.len() - 2);
                    // The next `%>` not preceded by `%` (the `#` itself counts).
                    let close = self.src[self.pos + 1..]
                        .match_indices("%>")
                        .map(|(i, _)| self.pos + 1 + i)
                        .find(|&i| self.b[i - 1] != b'%');
                    let Some(close) = close else {
                        return Err(RawError::at(self.pos, UNBALANCED_COMMENT));
                    };
                    if self.b.get(self.pos + 1) == Some(&b'-') {
                        s.truncate(s.trim_end_matches([' ', '\t']).len());
                    }
                    skip = self.b[close - 1] == b'-';
                    self.pos = close + 2;
                }
                _ => {
                    s.truncate(s.len() - 2);
                    return Ok((Some(s), EppMode::Code));
                }
            }
        }
        // Puppet's loop ends here without returning the text it gathered.
        Ok((None, EppMode::Text))
    }
}

/// `sub(/^[ \t]*\r?(?:\n|\z)?/, '')` after `-%>`: blanks, then a line break if
/// one follows them.
fn strip_leading_line_blanks(part: &str) -> &str {
    let mut rest = part.trim_start_matches([' ', '\t']);
    rest = rest.strip_prefix('\r').unwrap_or(rest);
    rest.strip_prefix('\n').unwrap_or(rest)
}
