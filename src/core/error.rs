//! Errors shared by every generator: a seed that failed ([`GenError`]) and a level that breaks
//! its generator's invariants ([`Violation`]). Module-specific errors live with their modules.

use thiserror::Error;

/// A generator could not make a level from this seed. The batch counts these by `reason` and
/// never writes a half-made level.
#[derive(Debug, Clone, Error, PartialEq)]
#[error("{reason}: {detail}")]
pub struct GenError {
    /// A short, stable reason used as the histogram key (e.g. "below min_vertices").
    pub reason: &'static str,
    /// Details for this seed.
    pub detail: String,
}

/// A stored level breaks one of its generator's invariants.
#[derive(Debug, Clone, Error, PartialEq, Eq)]
#[error("{0}")]
pub struct Violation(pub String);

impl Violation {
    /// A violation with the given message.
    pub fn new(message: impl Into<String>) -> Self {
        Self(message.into())
    }
}

/// Returns `Err(Violation)` with a formatted message when `cond` is false.
#[macro_export]
macro_rules! ensure_level {
    ($cond:expr, $($arg:tt)+) => {
        if !$cond {
            return Err($crate::Violation::new(format!($($arg)+)));
        }
    };
}
