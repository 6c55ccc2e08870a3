//! Running a parallel computation from a rayon worker thread.
//!
//! A parallel iterator started from a thread outside rayon's pool (the main thread) hands its
//! work to the pool and blocks on a lock until it is done: a sleep and a wake-up per call. A
//! layout makes thousands of such calls (full stress: one per round of blocks per part of an
//! epoch), so from the main thread it spent its time in context switches: polblogs (1,222
//! vertices) took 90 to 100 ms on two threads with about 20,000 switches per layout, against
//! 33 ms with ten. Started on a worker, each call's caller takes part in the work instead.

/// Runs `op` on one of rayon's worker threads: at once when the caller is one, else handed to
/// the current pool once (the caller blocks until `op` returns). Nothing about the result
/// changes, only how its parallel calls are scheduled.
pub fn on_workers<R: Send>(op: impl FnOnce() -> R + Send) -> R {
    if rayon::current_thread_index().is_some() {
        op()
    } else {
        rayon::scope(|_| op())
    }
}
