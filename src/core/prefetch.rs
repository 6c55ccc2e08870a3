//! A cache prefetch hint, the one place warren issues one: loops over large arrays in an order
//! known ahead (a shuffle's picks, Kruskal's edges) ask for the lines they will touch a few
//! steps later, so the misses overlap instead of stalling one after another. A hint changes no
//! result; on targets without one here it does nothing.

/// Asks the processor to bring `slice[i]` into the cache (nothing when `i` is out of bounds).
#[inline(always)]
pub fn prefetch<T>(slice: &[T], i: usize) {
    #[cfg(target_arch = "x86_64")]
    if i < slice.len() {
        // SAFETY: `i` is in bounds, so the address is inside the slice; a prefetch never faults
        // and writes nothing, and SSE is part of every x86-64 target.
        unsafe {
            std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                slice.as_ptr().add(i).cast(),
            );
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (slice, i);
}
