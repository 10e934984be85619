//! Per-node budgets: how long a node may compile and how much it may
//! allocate (`--node-timeout`, `--node-memory`; docs/safety.md).
//!
//! A node compiles on one thread from start to end (the compiler starts no
//! threads of its own), so the budget is that thread's: [`enter`] sets it
//! for the compile and restores what was there before when its guard drops.
//! It is enforced cooperatively:
//!
//! - [`tick`] is called at the cheap points every unbounded loop passes: each
//!   statement of a block, each lambda call, each Puppet function call, each
//!   string interpolation, each step of the Ruby-subset interpreter and each
//!   Hiera interpolation. It is a counter's decrement; every [`INTERVAL`]th
//!   call reads the clock and the thread's allocation count
//!   (`pverify_alloc::thread_net_bytes`: the bytes the thread allocated
//!   minus those it freed, so the parse-ahead thread's parsing is not the
//!   node's).
//! - [`reserve`] is called before an allocation whose size the input
//!   chooses (a range, a repeated or padded string, an interpolation): a
//!   request over what is left is refused before the allocator sees it, so
//!   no input drives Rust into its abort on a failed allocation.
//!
//! Once a budget is exceeded every later check fails too, so a loop that
//! swallows an error (a Ruby `rescue` inside `loop`) still ends at its next
//! check; the compile then reports [`Exceeded`] whatever error it unwound
//! with, and fails even if something swallowed every error.

use std::cell::Cell;
use std::fmt;
use std::time::{Duration, Instant};

/// How many [`tick`]s go by between two readings of the clock and of the
/// allocation count (a reading costs some 20 ns, a tick one decrement).
pub const INTERVAL: u32 = 64;

/// A node's time budget unless the command line or pverify.yaml say
/// otherwise: far above any real catalog (the bundled repos' nodes take
/// milliseconds), short enough that a looping node does not hold CI.
pub const DEFAULT_TIME: Duration = Duration::from_secs(60);

/// A node's memory budget unless told otherwise: the largest catalogs
/// pverify has seen allocate a few tens of MiB; with a node per core, a
/// machine with a few GiB per core survives every node at its cap.
pub const DEFAULT_MEMORY: u64 = 2 << 30;

/// The limits of one node's compile; `None` is no limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    pub time: Option<Duration>,
    pub memory: Option<u64>,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            time: Some(DEFAULT_TIME),
            memory: Some(DEFAULT_MEMORY),
        }
    }
}

impl Limits {
    /// No limit at all (what the budget is outside a compile).
    pub const NONE: Limits = Limits {
        time: None,
        memory: None,
    };

    /// The limits from a timeout in seconds and a memory cap in bytes, as
    /// the command line or pverify.yaml give them: unset is the default,
    /// 0 is no limit.
    pub fn resolve(timeout: Option<f64>, memory: Option<u64>) -> Limits {
        Limits {
            time: match timeout {
                None => Some(DEFAULT_TIME),
                Some(s) if s <= 0.0 => None,
                Some(s) => Duration::try_from_secs_f64(s).ok(),
            },
            memory: match memory {
                None => Some(DEFAULT_MEMORY),
                Some(0) => None,
                Some(n) => Some(n),
            },
        }
    }
}

/// A timeout in seconds (`--node-timeout`, `node_timeout:`): a finite
/// number, not negative.
pub fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if s.is_finite() && s >= 0.0 && Duration::try_from_secs_f64(s).is_ok() => Ok(s),
        _ => Err(format!(
            "expected seconds (a number, 0 for no limit), got '{text}'"
        )),
    }
}

/// A memory size (`--node-memory`, `node_memory:`): a whole number with an
/// optional binary unit `K`, `M`, `G`, `T` (`KiB`... and `KB`... read the
/// same); a bare number is MiB.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let bad = || format!("expected a size such as 512M or 2G (0 for no limit), got '{text}'");
    let t = text.trim();
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let n: u64 = t[..digits].parse().map_err(|_| bad())?;
    let unit = t[digits..].trim().to_ascii_uppercase();
    let shift = match unit.trim_end_matches('B').trim_end_matches('I') {
        "" if unit.is_empty() => 20,
        "" => 0,
        "K" => 10,
        "M" => 20,
        "G" => 30,
        "T" => 40,
        _ => return Err(bad()),
    };
    n.checked_mul(1 << shift).ok_or_else(bad)
}

/// Which budget a node went over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exceeded {
    Time(Duration),
    /// The cap, and the size of a refused request (`None` when the node's
    /// allocations grew past the cap on their own).
    Memory {
        cap: u64,
        asked: Option<u64>,
    },
    /// A walk deeper than Puppet's Ruby stack goes ([`stack_too_deep`]).
    StackTooDeep,
}

impl fmt::Display for Exceeded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Exceeded::Time(d) => write!(
                f,
                "the node exceeded its time budget of {} (--node-timeout)",
                seconds(*d)
            ),
            Exceeded::Memory { cap, asked: None } => write!(
                f,
                "the node exceeded its memory budget of {} (--node-memory)",
                bytes(*cap)
            ),
            Exceeded::Memory {
                cap,
                asked: Some(n),
            } => write!(
                f,
                "the node exceeded its memory budget of {} (--node-memory): refused to allocate {}",
                bytes(*cap),
                bytes(*n)
            ),
            Exceeded::StackTooDeep => f.write_str("stack level too deep"),
        }
    }
}

fn seconds(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s.fract() == 0.0 {
        format!("{s:.0} s")
    } else {
        format!("{s} s")
    }
}

/// A byte count in its largest binary unit, whole when it is (`2 GiB`,
/// `512 MiB`), else with one decimal (`1.5 MiB`, `298.0 GiB`).
pub fn bytes(n: u64) -> String {
    for (shift, unit) in [(40, "TiB"), (30, "GiB"), (20, "MiB"), (10, "KiB")] {
        if n >= 1 << shift {
            return if n.is_multiple_of(1 << shift) {
                format!("{} {unit}", n >> shift)
            } else {
                format!("{:.1} {unit}", n as f64 / (1u64 << shift) as f64)
            };
        }
    }
    format!("{n} bytes")
}

/// The budget of the compile running on this thread.
#[derive(Clone, Copy)]
struct State {
    deadline: Option<Instant>,
    limits: Limits,
    /// `pverify_alloc::thread_net_bytes` when the compile started.
    start_bytes: usize,
    exceeded: Option<Exceeded>,
    /// Whether a compile runs ([`enter`]); outside one nothing is ended.
    active: bool,
}

const UNLIMITED: State = State {
    deadline: None,
    limits: Limits::NONE,
    start_bytes: 0,
    exceeded: None,
    active: false,
};

thread_local! {
    /// Ticks left before the next reading (1 once exceeded: every check
    /// reads the state and fails).
    static COUNTDOWN: Cell<u32> = const { Cell::new(INTERVAL) };
    static STATE: Cell<State> = const { Cell::new(UNLIMITED) };
}

/// Restores the thread's previous budget when dropped.
pub struct Guard {
    previous: State,
    countdown: u32,
}

impl Drop for Guard {
    fn drop(&mut self) {
        STATE.with(|s| s.set(self.previous));
        COUNTDOWN.with(|c| c.set(self.countdown));
    }
}

/// Starts a compile's budget on this thread, from now and from the
/// thread's allocations so far.
#[must_use]
pub fn enter(limits: Limits) -> Guard {
    let now = Instant::now();
    let state = State {
        deadline: limits.time.and_then(|t| now.checked_add(t)),
        limits,
        start_bytes: pverify_alloc::thread_net_bytes(),
        exceeded: None,
        active: true,
    };
    Guard {
        previous: STATE.with(|s| s.replace(state)),
        countdown: COUNTDOWN.with(|c| c.replace(INTERVAL)),
    }
}

/// The bytes the current compile has allocated and not freed (0 outside a
/// compile, or when pverify's allocator is not the global one).
fn used(state: &State) -> u64 {
    let net = pverify_alloc::thread_net_bytes().wrapping_sub(state.start_bytes) as isize;
    net.max(0) as u64
}

fn fail(mut state: State, e: Exceeded) -> Result<(), Exceeded> {
    state.exceeded = Some(e);
    STATE.with(|s| s.set(state));
    COUNTDOWN.with(|c| c.set(1));
    Err(e)
}

/// A cheap point of an unbounded loop: fails once the compile is over its
/// time or memory budget.
#[inline]
pub fn tick() -> Result<(), Exceeded> {
    let left = COUNTDOWN.with(|c| {
        let n = c.get();
        c.set(n.wrapping_sub(1));
        n
    });
    if left > 1 {
        return Ok(());
    }
    check()
}

/// The reading [`tick`] makes every [`INTERVAL`] calls.
#[cold]
#[inline(never)]
pub fn check() -> Result<(), Exceeded> {
    COUNTDOWN.with(|c| c.set(INTERVAL));
    let state = STATE.with(Cell::get);
    if let Some(e) = state.exceeded {
        return fail(state, e);
    }
    if let Some(cap) = state.limits.memory {
        if used(&state) > cap {
            return fail(state, Exceeded::Memory { cap, asked: None });
        }
    }
    if let (Some(deadline), Some(t)) = (state.deadline, state.limits.time) {
        if Instant::now() >= deadline {
            return fail(state, Exceeded::Time(t));
        }
    }
    Ok(())
}

/// A step of a walk over a value (type inference, hashing, `==`, printing,
/// JSON, ERB's conversions): whether the walk must stop, the budget being
/// exceeded. A value sharing its parts at every level (`[$m, {a => $m}]`
/// built by `reduce`) is walked once per path, exponentially, as Puppet
/// walks it, and such walks call no other budget point. A stopped walk
/// returns whatever is at hand; the compile then fails with the budget's
/// text ([`exceeded`], checked when the node ends).
#[inline]
pub fn walk_stops() -> bool {
    tick().is_err()
}

/// [`tick`] at a step of a walk over a value, counted only at an array or
/// a hash: only they make a walk long (a shared part is walked once per
/// path), and a scalar's step costs no test at all.
#[inline]
pub fn tick_at(v: &crate::Value) -> Result<(), Exceeded> {
    if matches!(v, crate::Value::Array(_) | crate::Value::Hash(_)) {
        tick()
    } else {
        Ok(())
    }
}

/// [`walk_stops`], counted as [`tick_at`] counts.
#[inline]
pub fn walk_stops_at(v: &crate::Value) -> bool {
    tick_at(v).is_err()
}

/// Before allocating `n` bytes that the input asked for: refused when they
/// do not fit in what is left of the memory budget (and always past
/// `isize::MAX`, which no allocation may exceed).
#[inline]
pub fn reserve(n: u64) -> Result<(), Exceeded> {
    // Small requests are the loops' business (`tick`).
    if n < 1 << 20 {
        return Ok(());
    }
    reserve_large(n)
}

#[cold]
fn reserve_large(n: u64) -> Result<(), Exceeded> {
    let state = STATE.with(Cell::get);
    if let Some(e) = state.exceeded {
        return fail(state, e);
    }
    let cap = state.limits.memory.unwrap_or(isize::MAX as u64);
    if used(&state).saturating_add(n) > cap {
        return fail(
            state,
            Exceeded::Memory {
                cap,
                asked: Some(n),
            },
        );
    }
    Ok(())
}

/// [`reserve`] for `count` items of `size` bytes each.
#[inline]
pub fn reserve_items(count: u64, size: usize) -> Result<(), Exceeded> {
    reserve(count.saturating_mul(size as u64))
}

/// Ends the current compile as Ruby's `SystemStackError` ends Puppet's: a
/// walk went deeper than Puppet's Ruby stack goes (type inference of data
/// nested past `types::infer::MAX_DEPTH`). The walk returns what is at
/// hand, and every walk and loop after it stops, as over a budget.
pub fn stack_too_deep() {
    let state = STATE.with(Cell::get);
    if state.active && state.exceeded.is_none() {
        let _ = fail(state, Exceeded::StackTooDeep);
    }
}

/// The budget the current compile went over, if it did.
pub fn exceeded() -> Option<Exceeded> {
    STATE.with(Cell::get).exceeded
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deadline_ends_a_loop_and_stays_exceeded() {
        // Before `enter`: the deadline counts from there.
        let start = Instant::now();
        let _g = enter(Limits {
            time: Some(Duration::from_millis(20)),
            memory: None,
        });
        let e = loop {
            if let Err(e) = tick() {
                break e;
            }
        };
        assert!(start.elapsed() >= Duration::from_millis(20));
        assert_eq!(e, Exceeded::Time(Duration::from_millis(20)));
        assert_eq!(
            e.to_string(),
            "the node exceeded its time budget of 0.02 s (--node-timeout)"
        );
        assert!(tick().is_err(), "every later check fails");
        assert_eq!(exceeded(), Some(e));
    }

    #[test]
    fn the_guard_restores_the_previous_budget() {
        {
            let _g = enter(Limits {
                time: Some(Duration::ZERO),
                memory: None,
            });
            assert!(check().is_err());
        }
        assert_eq!(exceeded(), None);
        for _ in 0..1000 {
            assert!(tick().is_ok());
        }
    }

    #[test]
    fn requests_over_the_cap_are_refused_before_allocating() {
        let _g = enter(Limits {
            time: None,
            memory: Some(DEFAULT_MEMORY),
        });
        assert!(reserve(1 << 30).is_ok());
        let e = reserve_items(20_000_000_000, 16).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the node exceeded its memory budget of 2 GiB (--node-memory): refused to allocate 298.0 GiB"
        );
        assert!(reserve(1).is_ok(), "small requests are left to tick");
        assert!(check().is_err());
    }

    #[test]
    fn sizes_and_seconds_parse() {
        assert_eq!(parse_size("2G"), Ok(2 << 30));
        assert_eq!(parse_size("512MiB"), Ok(512 << 20));
        assert_eq!(parse_size("64"), Ok(64 << 20));
        assert_eq!(parse_size("4096B"), Ok(4096));
        assert_eq!(parse_size("0"), Ok(0));
        assert!(parse_size("2X").is_err());
        assert!(parse_size("-1G").is_err());
        assert!(parse_size("99999999999T").is_err());
        assert_eq!(parse_seconds("2.5"), Ok(2.5));
        assert!(parse_seconds("-1").is_err());
        assert!(parse_seconds("inf").is_err());
        assert_eq!(Limits::resolve(None, None), Limits::default());
        assert_eq!(Limits::resolve(Some(0.0), Some(0)), Limits::NONE);
    }

    #[test]
    fn sizes_read_as_their_unit() {
        assert_eq!(bytes(2 << 30), "2 GiB");
        assert_eq!(bytes(512 << 20), "512 MiB");
        assert_eq!(bytes(3 << 19), "1.5 MiB");
        assert_eq!(bytes(100), "100 bytes");
    }
}
