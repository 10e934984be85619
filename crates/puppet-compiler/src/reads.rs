//! Read sets: every file system question a node's compile asked, so a
//! later run can tell whether the same questions still get the same
//! answers (`pverify diff`'s impact analysis, `--cache DIR`).
//!
//! What is recorded is the question, not the answer: a path and what was
//! asked of it ([`KIND`]: is it a file, a directory, nothing; [`CONTENT`]:
//! its bytes; [`LISTING`]: a directory's entry names). The answers are
//! taken afterwards, once per path and run ([`Memo`], on the environment),
//! through the same confined file system: the tree does not change during
//! a run, so they are the answers the compile saw.
//!
//! Questions are asked in two places: the environment's file system
//! (`loader::confine::ConfinedFiles` notes every call), and the per-run
//! caches in front of it, whose hits ask the file system nothing. A cache
//! keyed by a path notes that path on every lookup; a cache keyed by a name
//! (module directories, autoload candidates, type files, environments)
//! keeps the questions its entry's build asked ([`capture`], a [`Trace`])
//! and repeats them into the node asking ([`replay`]).
//!
//! A node's compile runs on one thread from start to end, so the recorder
//! is that thread's: [`record`] opens a frame for the compile; [`capture`]
//! opens one inside it for a cache entry's build, whose questions are also
//! the enclosing frame's. Off (no frame: every command but those that need
//! read sets) a question costs a thread-local check; caches keep traces
//! only once [`enable`] was called.

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use rustc_hash::FxHashMap as HashMap;

use crate::files::FileSystem;

/// Whether the path is a file, a directory or nothing (asked of every
/// recorded path).
pub const KIND: u8 = 1;
/// The file's bytes.
pub const CONTENT: u8 = 2;
/// The directory's entry names.
pub const LISTING: u8 = 4;

/// The questions of a frame: each path (its bytes: hashing a `Path` walks
/// its components, a tenth of a recorded compile) with what was asked of it.
pub type Questions = HashMap<Vec<u8>, u8>;

/// A question's path from its bytes.
pub fn path_of(bytes: &[u8]) -> PathBuf {
    use std::os::unix::ffi::OsStringExt;
    PathBuf::from(std::ffi::OsString::from_vec(bytes.to_vec()))
}

thread_local! {
    static FRAMES: RefCell<Vec<Frame>> = const { RefCell::new(Vec::new()) };
}

/// A compile's or a cache build's questions, and the traces already
/// replayed into it (by address: a name-keyed cache is hit again and
/// again by one node, its trace replayed once).
#[derive(Default)]
struct Frame {
    questions: Questions,
    replayed: rustc_hash::FxHashSet<usize>,
}

static ENABLED: AtomicBool = AtomicBool::new(false);

/// Makes the per-run caches keep their entries' questions from now on:
/// called before the environments of a run that records read sets boot.
pub fn enable() {
    ENABLED.store(true, Ordering::Relaxed);
}

/// Whether read sets are recorded in this run (per-run memos that would
/// hide a question from later nodes are then not kept).
pub fn enabled() -> bool {
    ENABLED.load(Ordering::Relaxed)
}

/// Notes that `what` was asked of `path` (a no-op outside [`record`] and
/// [`capture`]).
#[inline]
pub fn note(path: &Path, what: u8) {
    FRAMES.with(|f| {
        if let Ok(mut frames) = f.try_borrow_mut() {
            if let Some(top) = frames.last_mut() {
                let key = path.as_os_str().as_encoded_bytes();
                match top.questions.get_mut(key) {
                    Some(w) => *w |= what,
                    None => {
                        top.questions.insert(key.to_vec(), what);
                    }
                }
            }
        }
    })
}

/// Pops the frame it pushed (also on an early return or unwinding),
/// passing what is left in it to the enclosing frame.
struct FrameGuard;

impl Drop for FrameGuard {
    fn drop(&mut self) {
        FRAMES.with(|f| {
            let mut frames = f.borrow_mut();
            if let Some(done) = frames.pop() {
                if let Some(parent) = frames.last_mut() {
                    for (p, w) in done.questions {
                        *parent.questions.entry(p).or_default() |= w;
                    }
                }
            }
        });
    }
}

/// A frame opened by [`begin`], for a build that does not fit a closure;
/// closed (its questions passed on) when dropped.
pub struct Capture(Option<FrameGuard>);

/// Opens a frame (when read sets are [`enable`]d) whose questions
/// [`Capture::trace`] gives, until the capture is dropped.
pub fn begin() -> Capture {
    if !enabled() {
        return Capture(None);
    }
    FRAMES.with(|frames| frames.borrow_mut().push(Frame::default()));
    Capture(Some(FrameGuard))
}

impl Capture {
    /// The questions asked since [`begin`] (its inner frames closed).
    pub fn trace(&self) -> Trace {
        if self.0.is_none() {
            return Trace(None);
        }
        FRAMES.with(|frames| {
            let frames = frames.borrow();
            Trace(frames.last().map(|f| {
                f.questions
                    .iter()
                    .map(|(p, w)| (p.clone(), *w))
                    .collect::<Arc<[_]>>()
            }))
        })
    }
}

fn in_frame<T>(f: impl FnOnce() -> T) -> (T, Questions) {
    FRAMES.with(|frames| frames.borrow_mut().push(Frame::default()));
    let guard = FrameGuard;
    let out = f();
    let questions = FRAMES.with(|frames| {
        frames
            .borrow_mut()
            .last_mut()
            .map(|f| std::mem::take(&mut f.questions))
            .unwrap_or_default()
    });
    drop(guard);
    (out, questions)
}

/// Runs a node's compile, returning what it asked.
pub fn record<T>(f: impl FnOnce() -> T) -> (T, Questions) {
    let (out, mut questions) = in_frame(f);
    drop_one_for_tests(&mut questions);
    (out, questions)
}

/// A test hook proving the proof can fail: `PVERIFY_TEST_DROP_READ=NAME`
/// forgets every question about a path whose file name is `NAME`, as a
/// broken recorder would (`tests/impact.rs` checks `--verify-impact` then
/// fails). Read once per process.
fn drop_one_for_tests(questions: &mut Questions) {
    static NAME: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    if let Some(name) = NAME.get_or_init(|| std::env::var("PVERIFY_TEST_DROP_READ").ok()) {
        questions.retain(|p, _| path_of(p).file_name().is_none_or(|n| n != name.as_str()));
    }
}

/// The questions a cache entry's build asked, kept with the entry.
#[derive(Clone, Debug, Default)]
pub struct Trace(Option<Arc<[Question]>>);

/// A path's bytes and what was asked of it.
type Question = (Vec<u8>, u8);

/// Runs a cache entry's build, keeping its questions (when read sets are
/// [`enable`]d) and passing them to the enclosing frame.
pub fn capture<T>(f: impl FnOnce() -> T) -> (T, Trace) {
    if !enabled() {
        return (f(), Trace(None));
    }
    let capture = begin();
    let out = f();
    let trace = capture.trace();
    drop(capture);
    (out, trace)
}

/// Asks again, in the current frame, what a cache entry's build asked.
pub fn replay(trace: &Trace) {
    if let Some(t) = &trace.0 {
        FRAMES.with(|f| {
            if let Ok(mut frames) = f.try_borrow_mut() {
                if let Some(top) = frames.last_mut() {
                    if !top.replayed.insert(Arc::as_ptr(t) as *const u8 as usize) {
                        return;
                    }
                    for (p, w) in t.iter() {
                        match top.questions.get_mut(p.as_slice()) {
                            Some(x) => *x |= w,
                            None => {
                                top.questions.insert(p.clone(), *w);
                            }
                        }
                    }
                }
            }
        })
    }
}

/// Runs `f` without recording its questions (work done ahead for other
/// nodes, such as queueing files to parse ahead).
pub fn unrecorded<T>(f: impl FnOnce() -> T) -> T {
    FRAMES.with(|frames| {
        let saved = std::mem::take(&mut *frames.borrow_mut());
        let out = f();
        *frames.borrow_mut() = saved;
        out
    })
}

/// The answers to questions, each found once per run (the environment
/// keeps one).
#[derive(Default)]
pub struct Memo {
    answers: Mutex<HashMap<(PathBuf, u8), u128>>,
}

impl Memo {
    /// The answer to `what` about `path`, through `files`.
    pub fn answer(&self, files: &dyn FileSystem, path: &Path, what: u8) -> u128 {
        let key = (path.to_path_buf(), what);
        if let Some(a) = self
            .answers
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(&key)
        {
            return *a;
        }
        let a = answer(files, path, what);
        self.answers
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(key, a);
        a
    }
}

/// The digest of the answers to `what` about `path`: its kind, then its
/// bytes (a file asked for them), its sorted entry names (a directory
/// asked for them).
pub fn answer(files: &dyn FileSystem, path: &Path, what: u8) -> u128 {
    let mut h = Hash128::default();
    let kind: u8 = if files.is_file(path) {
        1
    } else if files.is_dir(path) {
        2
    } else if files.exists(path) {
        3
    } else {
        0
    };
    h.write(&[kind, what]);
    if what & CONTENT != 0 && kind == 1 {
        match files.read(path) {
            Ok(bytes) => h.write(&bytes),
            Err(e) => h.write(e.to_string().as_bytes()),
        }
    }
    if what & LISTING != 0 && kind == 2 {
        match files.read_dir(path) {
            Ok(entries) => {
                let mut names: Vec<_> = entries
                    .iter()
                    .filter_map(|p| p.file_name().map(|n| n.as_encoded_bytes().to_vec()))
                    .collect();
                names.sort();
                for n in names {
                    h.write(&n);
                }
            }
            Err(e) => h.write(e.to_string().as_bytes()),
        }
    }
    h.finish()
}

/// A small 128-bit hash (two multiply-rotate lanes, each write
/// length-prefixed, murmur's finalizer): no cryptographic strength, which
/// the inputs (the user's own repository) do not need; collisions by
/// accident are out of reach.
#[derive(Clone, Debug)]
pub struct Hash128 {
    a: u64,
    b: u64,
}

impl Default for Hash128 {
    fn default() -> Hash128 {
        Hash128 {
            a: 0x243f_6a88_85a3_08d3,
            b: 0x1319_8a2e_0370_7344,
        }
    }
}

impl Hash128 {
    const K1: u64 = 0x9e37_79b9_7f4a_7c15;
    const K2: u64 = 0xc2b2_ae3d_27d4_eb4f;

    fn word(&mut self, w: u64) {
        self.a = (self.a.rotate_left(23) ^ w).wrapping_mul(Self::K1);
        self.b = (self.b.rotate_left(31) ^ w ^ (self.a >> 29)).wrapping_mul(Self::K2);
    }

    pub fn write(&mut self, bytes: &[u8]) {
        self.word(bytes.len() as u64);
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.word(u64::from_le_bytes(c.try_into().unwrap_or_default()));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut last = [0u8; 8];
            last[..rest.len()].copy_from_slice(rest);
            self.word(u64::from_le_bytes(last));
        }
    }

    pub fn finish(&self) -> u128 {
        fn fmix(mut k: u64) -> u64 {
            k ^= k >> 33;
            k = k.wrapping_mul(0xff51_afd7_ed55_8ccd);
            k ^= k >> 33;
            k = k.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
            k ^ (k >> 33)
        }
        let a = fmix(self.a ^ self.b.rotate_left(17));
        let b = fmix(self.b ^ a);
        ((a as u128) << 64) | b as u128
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::files::MemoryFiles;

    #[test]
    fn frames_nest_and_traces_replay() {
        enable();
        let (trace, outer) = record(|| {
            note(Path::new("/a"), KIND);
            let ((), t) = capture(|| note(Path::new("/b"), CONTENT));
            t
        });
        assert_eq!(outer.len(), 2);
        let ((), again) = record(|| replay(&trace));
        assert_eq!(again.get(b"/b".as_slice()), Some(&CONTENT));
        // Outside a frame nothing is kept.
        note(Path::new("/c"), KIND);
        let ((), none) = record(|| ());
        assert!(none.is_empty());
    }

    #[test]
    fn answers_tell_content_kind_and_listing_apart() {
        let mut m = MemoryFiles::new();
        m.insert("/e/a.pp", "x");
        m.insert("/e/d/b.pp", "y");
        let a = answer(&m, Path::new("/e/a.pp"), CONTENT);
        m.insert("/e/a.pp", "z");
        assert_ne!(a, answer(&m, Path::new("/e/a.pp"), CONTENT));
        // Only the kind was asked: the bytes do not matter.
        let kind = answer(&m, Path::new("/e/a.pp"), KIND);
        m.insert("/e/a.pp", "w");
        assert_eq!(kind, answer(&m, Path::new("/e/a.pp"), KIND));
        let listing = answer(&m, Path::new("/e/d"), LISTING);
        m.insert("/e/d/c.pp", "");
        assert_ne!(listing, answer(&m, Path::new("/e/d"), LISTING));
        assert_ne!(
            answer(&m, Path::new("/e/none"), KIND),
            answer(&m, Path::new("/e/d"), KIND)
        );
    }
}
