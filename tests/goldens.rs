//! The conformance goldens alone, as a test binary of their own. `cargo test` runs them inside
//! the `tests` binary and skips this target (`test = false`); `.ci/run` builds it a second time
//! for a baseline x86-64 CPU (`cargo test --test goldens`) without compiling every other
//! integration test again.

// The shared helpers: the goldens use a few of them.
#[allow(dead_code, unused_imports)]
mod common;
#[path = "conformance/mod.rs"]
mod conformance;
