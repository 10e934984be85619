//! The parser's work budget: a bound on the operands a parse may start,
//! proportional to the file's tokens, so that no input can make a parse run
//! for long.
//!
//! Puppet's LALR parser is linear in its input; pverify's parser backtracks,
//! and every grammar path found to re-parse the same tokens under several
//! alternatives (nested failing bodies, calls, method calls, `-`/`*` after an
//! expression) was exponential in how deep the failing constructs nested.
//! Those paths are closed in the grammar where found; this budget is the
//! bound for the rest. A parse may start `PER_TOKEN` operands per token of
//! the file, plus `BASE`. Measured (2026-11-28): the 4,340 manifests of the
//! module packages and the fixtures start at most 1 per token (0.38 on
//! average), the 5,907 parsable inputs the parse fuzzing corpus then held at
//! most 1.6. No known input reaches the budget since failed operands are
//! remembered (below).
//!
//! Operands, not token tests, are counted: a test in every token match cost
//! 12 % more instructions on real manifests, an operand's test 0.4 %.
//!
//! When the budget runs out every operand fails at once, the parse unwinds
//! quickly, and the file is refused with [`EXHAUSTED`].
//!
//! The parse also remembers where an operand failed: an operand is a pure
//! function of where it starts, so one that failed there fails again, at
//! once. chumsky's Pratt parser backs off an infix operator whose right side
//! failed (Puppet's LALR parser would stop there), and an enclosing level
//! tried the same operator on a larger left side, parsing the same right
//! side again: `0<1*(` nested was exponential, doubling per level.

use std::cell::{Cell, RefCell};

/// Operands a parse may start per token of the file.
const PER_TOKEN: u64 = 16;
/// Operands any parse may start, however short the file.
const BASE: u64 = 1_000;

/// The error of a file whose parse ran out of budget. Not Puppet's text:
/// Puppet would parse the file, so the message says what pverify did.
pub const EXHAUSTED: &str = "pverify's parser gave up on this file: parsing it needed more than \
                             its work budget (the file backtracks too much)";

thread_local! {
    /// Operands still allowed to the parse running on this thread.
    static LEFT: Cell<u64> = const { Cell::new(u64::MAX) };
    /// Where the budget ran out (byte offset), once it has.
    static RAN_OUT_AT: Cell<Option<u32>> = const { Cell::new(None) };
    /// The byte offsets where an operand has failed, one bit each.
    static FAILED_AT: RefCell<Vec<u64>> = const { RefCell::new(Vec::new()) };
}

/// The budget of one parse; the previous one (of an enclosing parse on this
/// thread, if any) comes back when this is dropped.
pub struct Budget {
    #[cfg_attr(not(test), allow(dead_code))]
    granted: u64,
    saved_left: u64,
    saved_ran_out: Option<u32>,
    saved_failed_at: Vec<u64>,
}

impl Budget {
    /// Starts the budget of a parse of `tokens` tokens.
    pub fn for_tokens(tokens: usize) -> Budget {
        Budget::of(BASE.saturating_add(PER_TOKEN.saturating_mul(tokens as u64)))
    }

    /// Starts a budget of `operands` operand starts.
    pub fn of(operands: u64) -> Budget {
        let budget = operands;
        Budget {
            granted: operands,
            saved_left: LEFT.with(|l| l.replace(budget)),
            saved_ran_out: RAN_OUT_AT.with(|r| r.replace(None)),
            saved_failed_at: FAILED_AT.with(|f| f.take()),
        }
    }

    /// Operands started so far.
    #[cfg(test)]
    pub fn spent(&self) -> u64 {
        self.granted - LEFT.with(Cell::get)
    }

    /// Where the budget ran out, if it did.
    pub fn ran_out_at(&self) -> Option<u32> {
        RAN_OUT_AT.with(Cell::get)
    }
}

impl Drop for Budget {
    fn drop(&mut self) {
        LEFT.with(|l| l.set(self.saved_left));
        RAN_OUT_AT.with(|r| r.set(self.saved_ran_out));
        FAILED_AT.with(|f| *f.borrow_mut() = std::mem::take(&mut self.saved_failed_at));
    }
}

/// Whether an operand starting at byte offset `at` has failed before in
/// this parse.
pub fn failed_before(at: u32) -> bool {
    let (word, mask) = failure_bit(at);
    FAILED_AT.with(|f| f.borrow().get(word).is_some_and(|w| w & mask != 0))
}

/// Remembers that the operand starting at byte offset `at` failed.
pub fn record_failure(at: u32) {
    let (word, mask) = failure_bit(at);
    FAILED_AT.with(|f| {
        let mut f = f.borrow_mut();
        if f.len() <= word {
            f.resize(word + 1, 0);
        }
        f[word] |= mask;
    });
}

/// The word of [`FAILED_AT`] holding byte offset `at`'s bit, and the bit.
fn failure_bit(at: u32) -> (usize, u64) {
    (at as usize / 64, 1 << (at % 64))
}

/// Spends one unit at byte offset `at`; false once the budget is spent.
pub fn spend(at: u32) -> bool {
    LEFT.with(|left| match left.get() {
        0 => {
            RAN_OUT_AT.with(|r| {
                if r.get().is_none() {
                    r.set(Some(at))
                }
            });
            false
        }
        n => {
            left.set(n - 1);
            true
        }
    })
}
