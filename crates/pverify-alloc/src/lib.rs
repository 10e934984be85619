//! The global allocator of the `pverify` binary and the in-process
//! benchmarks: mimalloc, asked for plain blocks where Rust's layout allows.
//!
//! A compile allocates some forty thousand blocks per node, so the cost of
//! one allocation matters. The `mimalloc` crate sends every request through
//! `mi_malloc_aligned`, whose alignment checks took about 48 instructions a
//! call (callgrind); `mi_malloc` takes under half that. Every mimalloc block
//! is aligned to at least a machine word (its size classes are whole words),
//! so a layout asking for no more than that is served by `mi_malloc`, as
//! mimalloc's own `mi_realloc_aligned` does; larger alignments keep the
//! aligned entry points.
//!
//! It also counts, per thread, the bytes allocated minus the bytes freed
//! ([`thread_net_bytes`]): a node compiles on one thread, so the compiler's
//! memory budget (`puppet_compiler::budget`) reads its node's allocations as
//! the difference between two readings on that thread. One thread-local add
//! per call; the counter needs no registration (constant initialiser, no
//! destructor), so reading and writing it inside the allocator is safe at any
//! point of a thread's life.

use std::alloc::{GlobalAlloc, Layout};
use std::cell::Cell;
use std::ffi::c_void;

use libmimalloc_sys as mi;

/// The alignment every mimalloc block has.
const WORD: usize = std::mem::size_of::<usize>();

/// mimalloc, with plain requests for word-aligned layouts.
pub struct Allocator;

thread_local! {
    /// Bytes this thread allocated minus the bytes it freed, wrapping (a
    /// thread freeing what another allocated drives it down).
    static NET_BYTES: Cell<usize> = const { Cell::new(0) };
}

/// Bytes the calling thread has allocated minus those it has freed through
/// [`Allocator`], since it started (wrapping: take differences with
/// `wrapping_sub`). Zero when [`Allocator`] is not the global allocator.
#[inline]
pub fn thread_net_bytes() -> usize {
    NET_BYTES.with(Cell::get)
}

#[inline]
fn count(grown: usize, shrunk: usize) {
    NET_BYTES.with(|n| n.set(n.get().wrapping_add(grown).wrapping_sub(shrunk)));
}

// SAFETY: every block comes from mimalloc and goes back to it: `mi_free`
// frees blocks of both the plain and the aligned entry points, and each
// entry point returns memory of at least the layout's size and alignment
// (or null).
unsafe impl GlobalAlloc for Allocator {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size(), 0);
        if layout.align() <= WORD {
            mi::mi_malloc(layout.size()).cast()
        } else {
            mi::mi_malloc_aligned(layout.size(), layout.align()).cast()
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout.size(), 0);
        if layout.align() <= WORD {
            mi::mi_zalloc(layout.size()).cast()
        } else {
            mi::mi_zalloc_aligned(layout.size(), layout.align()).cast()
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        count(0, layout.size());
        mi::mi_free(ptr.cast::<c_void>());
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size, layout.size());
        if layout.align() <= WORD {
            mi::mi_realloc(ptr.cast::<c_void>(), new_size).cast()
        } else {
            mi::mi_realloc_aligned(ptr.cast::<c_void>(), new_size, layout.align()).cast()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Blocks of every size class up to 64 KiB, at the alignments Rust
    /// types ask for, come back aligned and writable.
    #[test]
    fn blocks_are_aligned_for_their_layout() {
        for align in [1, 2, 4, 8, 16, 32, 64] {
            for size in (1..=4096).step_by(7).chain([8192, 65536]) {
                let size = size.max(align);
                let layout = Layout::from_size_align(size, align).unwrap();
                unsafe {
                    let p = Allocator.alloc(layout);
                    assert!(!p.is_null());
                    assert_eq!(p as usize % align, 0, "size {size} align {align}");
                    p.write_bytes(0xA5, size);
                    let q = Allocator.realloc(p, layout, size * 2);
                    assert_eq!(q as usize % align, 0, "realloc size {size} align {align}");
                    assert_eq!(*q.add(size - 1), 0xA5);
                    Allocator.dealloc(q, Layout::from_size_align(size * 2, align).unwrap());
                    let z = Allocator.alloc_zeroed(layout);
                    assert!(std::slice::from_raw_parts(z, size).iter().all(|&b| b == 0));
                    Allocator.dealloc(z, layout);
                }
            }
        }
    }

    /// The thread's count follows its allocations and frees, and another
    /// thread's do not move it.
    #[test]
    fn counts_the_threads_own_bytes() {
        let layout = Layout::from_size_align(1 << 20, 8).unwrap();
        unsafe {
            let before = thread_net_bytes();
            let p = Allocator.alloc(layout);
            assert_eq!(thread_net_bytes().wrapping_sub(before), 1 << 20);
            let q = Allocator.realloc(p, layout, 3 << 20);
            assert_eq!(thread_net_bytes().wrapping_sub(before), 3 << 20);
            std::thread::spawn(|| {
                let r = Allocator.alloc(Layout::from_size_align(1 << 22, 8).unwrap());
                Allocator.dealloc(r, Layout::from_size_align(1 << 22, 8).unwrap());
            })
            .join()
            .unwrap();
            assert_eq!(thread_net_bytes().wrapping_sub(before), 3 << 20);
            Allocator.dealloc(q, Layout::from_size_align(3 << 20, 8).unwrap());
            assert_eq!(thread_net_bytes(), before);
        }
    }
}
