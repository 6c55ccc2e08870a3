//! Errors shared by every generator: a seed that failed ([`GenError`]), a level that breaks its
//! generator's invariants ([`Violation`]), and a profile value out of range ([`ConfigError`],
//! one type for every kind). Module-specific errors live with their modules.

use thiserror::Error;

/// A generator could not make a level from this seed. The batch counts these by `reason` and
/// never writes a half-made level.
#[derive(Debug, Clone, Error, PartialEq)]
#[error("{reason}: {detail}")]
pub struct GenError {
    /// A short, stable reason used as the histogram key (e.g. "below min_vertices"); the `map`
    /// kind's names the cycle or chain where the search met most dead ends.
    pub reason: std::borrow::Cow<'static, str>,
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

/// A profile value outside its allowed range, for every kind: the dotted key and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{key} {problem}")]
pub struct ConfigError {
    /// The dotted profile key, e.g. `maze.width`.
    pub key: &'static str,
    /// What is wrong with its value.
    pub problem: String,
}

/// `Err(ConfigError)` for `key` unless `ok`.
pub(crate) fn check(
    ok: bool,
    key: &'static str,
    problem: impl FnOnce() -> String,
) -> Result<(), ConfigError> {
    if ok {
        Ok(())
    } else {
        Err(ConfigError {
            key,
            problem: problem(),
        })
    }
}
