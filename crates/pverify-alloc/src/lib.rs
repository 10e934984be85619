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

use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;

use libmimalloc_sys as mi;

/// The alignment every mimalloc block has.
const WORD: usize = std::mem::size_of::<usize>();

/// mimalloc, with plain requests for word-aligned layouts.
pub struct Allocator;

// SAFETY: every block comes from mimalloc and goes back to it: `mi_free`
// frees blocks of both the plain and the aligned entry points, and each
// entry point returns memory of at least the layout's size and alignment
// (or null).
unsafe impl GlobalAlloc for Allocator {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if layout.align() <= WORD {
            mi::mi_malloc(layout.size()).cast()
        } else {
            mi::mi_malloc_aligned(layout.size(), layout.align()).cast()
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if layout.align() <= WORD {
            mi::mi_zalloc(layout.size()).cast()
        } else {
            mi::mi_zalloc_aligned(layout.size(), layout.align()).cast()
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        mi::mi_free(ptr.cast::<c_void>());
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
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
}
