//! A counting global allocator for allocation audits: the design promises no heap allocation per
//! level in steady state where a generator works in an arena or a pooled cache, and `warren
//! bench` reports how many allocations a level makes everywhere else.
//!
//! [`CountingAllocator`] forwards to the system allocator and counts, per thread, every
//! allocation and reallocation (frees are not counted). It is installed by the test binaries
//! that audit allocations, and by the `warren` binary when built with the `count-allocations`
//! feature; otherwise [`counting`] is false and `bench` says so instead of printing zeros.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};

thread_local! {
    /// Allocations made by this thread. `const` initialised, so reading it never allocates.
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
    /// Allocations made by this thread inside [`listed`] scopes.
    static LISTED: Cell<u64> = const { Cell::new(0) };
}

/// Whether a [`CountingAllocator`] has served an allocation in this process.
static INSTALLED: AtomicBool = AtomicBool::new(false);

/// The system allocator, counting allocations per thread.
#[derive(Clone, Copy, Debug, Default)]
pub struct CountingAllocator;

#[inline]
fn count() {
    // PERF: a thread-local increment, no shared cache line; the flag is written once.
    let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
    if !INSTALLED.load(Ordering::Relaxed) {
        INSTALLED.store(true, Ordering::Relaxed);
    }
}

// SAFETY: every method forwards to `System` with the caller's arguments unchanged, so the
// `GlobalAlloc` contract holds as it does for `System`; counting touches only a thread-local
// `Cell` (const-initialised, without a destructor, so it never allocates or re-enters) and an
// atomic flag.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: the caller upholds `alloc`'s contract for `layout`.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: as for `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: `ptr` was allocated by this allocator (so by `System`) with `layout`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by this allocator (so by `System`) with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }
}

/// Allocations (and reallocations) made so far by the calling thread; always 0 unless a
/// [`CountingAllocator`] is the global allocator.
pub fn thread_allocations() -> u64 {
    ALLOCATIONS.try_with(Cell::get).unwrap_or(0)
}

/// Whether allocations are being counted (a [`CountingAllocator`] is the global allocator).
pub fn counting() -> bool {
    // Make sure at least one allocation has gone through the global allocator.
    drop(std::hint::black_box(Box::new(0u8)));
    INSTALLED.load(Ordering::Relaxed)
}

/// Why R-tree work is [`listed`]: rstar allocates the nodes of every tree it builds and a stack
/// per query, and has no way to build into memory kept from the last level.
pub const RSTAR: &str = "rstar allocates an R-tree's nodes on every build and a stack per query";

/// Runs `f`, counting the allocations it makes as *listed* ([`listed_allocations`]) instead of
/// in [`thread_allocations`]: the way a hot path names a heap allocation it knowingly keeps
/// (a third-party structure with no way to reuse its memory), so that the audits still fail on
/// any other. `why` says why, for the reader; it costs two thread-local reads when nothing
/// counts.
#[inline]
pub fn listed<T>(why: &'static str, f: impl FnOnce() -> T) -> T {
    let _ = why;
    let before = thread_allocations();
    let out = f();
    let made = thread_allocations() - before;
    if made > 0 {
        let _ = ALLOCATIONS.try_with(|c| c.set(before));
        let _ = LISTED.try_with(|c| c.set(c.get() + made));
    }
    out
}

/// Allocations the calling thread made inside [`listed`] scopes.
pub fn listed_allocations() -> u64 {
    LISTED.try_with(Cell::get).unwrap_or(0)
}
