//! How kind-agnostic code reaches a concrete generator type.

use crate::core::generator::Generator;

/// Work that needs a concrete generator type (closures cannot be generic, so this trait is
/// how kind-agnostic code such as the batch engine or `verify` reaches each kind).
pub trait GeneratorTask {
    /// What the task returns.
    type Output;
    /// Runs with the profile's generator.
    fn run<G: Generator>(self, generator: &G) -> Self::Output;
}
