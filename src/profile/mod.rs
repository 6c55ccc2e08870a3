//! Profiles and the kind registry: named batch configurations in TOML (DESIGN.md, "Command
//! line"), each for a kind of the registry (`kinds.rs`). A profile names its
//! generator `kind` and that kind's parameters; keys it leaves out take the built-in defaults
//! (the values of `profiles/<kind>.toml`). `--set section.key=value` overrides one value. Unknown
//! keys and bad values are errors that name the file, line and column, or the key.
//!
//! The kind registry (`kinds.rs`) is one line per generator kind: its types and the facts every
//! kind-agnostic part reads (the kinds list, grids, card text, the allocation promise).

mod error;
mod kinds;
mod mixture;
mod parse;
mod task;

pub use error::ProfileError;
pub use kinds::{KIND_FACTS, KINDS, KindFacts, Profile};
pub use mixture::{Mixture, MixtureError, MixtureSpec};
pub use task::GeneratorTask;
