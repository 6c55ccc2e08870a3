//! The RegionCache promise (seed 004): once a worker's scratch has warmed up, generating a
//! regions level performs no heap allocation at all. A counting global allocator proves it.
//!
//! NOTE: a test binary of its own (a `[[test]]` target in Cargo.toml), because a global
//! allocator applies to a whole binary; counting is switched on per thread, so the harness's
//! own threads are never counted.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};

use warren::{Generator, RegionsConfig, RegionsGenerator, mix};

struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
}

fn note() {
    if COUNTING.with(Cell::get) {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
    }
}

// SAFETY: every call is forwarded unchanged to the system allocator; counting touches only an
// atomic and a const-initialised thread-local, neither of which allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note();
        // SAFETY: forwarded with the caller's layout.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note();
        // SAFETY: forwarded with the caller's layout.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note();
        // SAFETY: forwarded with the caller's pointer, layout and size.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded with the caller's pointer and layout.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Allocations made while generating the levels of `seeds`.
fn allocations(
    g: &RegionsGenerator,
    scratch: &mut <RegionsGenerator as Generator>::Scratch,
    seeds: std::ops::Range<u64>,
) -> u64 {
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    COUNTING.with(|c| c.set(true));
    let mut hashes = 0u64;
    for i in seeds {
        let level = g
            .generate(mix(4, i), scratch)
            .expect("regions levels succeed");
        hashes ^= level.layout_hash;
    }
    COUNTING.with(|c| c.set(false));
    std::hint::black_box(hashes);
    ALLOCATIONS.load(Ordering::Relaxed) - before
}

#[test]
fn a_warm_worker_generates_levels_without_allocating() {
    let g = RegionsGenerator::new(RegionsConfig::default()).expect("default profile");
    let mut scratch = g.new_scratch();
    // The counter works: a cold scratch allocates.
    let cold = allocations(&g, &mut scratch, 0..1);
    assert!(cold > 0, "the counting allocator saw nothing");
    // Warm-up: the buffers grow to the largest of these levels.
    let warm = allocations(&g, &mut scratch, 1..96);
    eprintln!("warm-up: {cold} allocations for the first level, {warm} for the next 95");
    // The same levels again, then levels never seen: nothing is allocated.
    assert_eq!(
        allocations(&g, &mut scratch, 0..96),
        0,
        "levels seen before allocated"
    );
    assert_eq!(
        allocations(&g, &mut scratch, 96..128),
        0,
        "new levels allocated"
    );
}
