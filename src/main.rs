//! The `warren` command line: parses arguments and hands them to `warren::cli`.

use std::process::ExitCode;

/// With `--features count-allocations`, `warren bench` reports allocations per level.
#[cfg(feature = "count-allocations")]
#[global_allocator]
static ALLOCATOR: warren::core::alloc::CountingAllocator = warren::core::alloc::CountingAllocator;

fn main() -> ExitCode {
    // A closed pipe (`warren inspect f.arrow | head`) ends the process quietly, as it does any
    // Unix filter, instead of a panic in the middle of printing.
    #[cfg(unix)]
    // SAFETY: first thing in `main`, before any other thread exists; `SIG_DFL` is a valid
    // disposition for SIGPIPE.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    warren::cli::main()
}
