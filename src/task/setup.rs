//! Why a task generator could not be made: its own values, or its source kind's setup.

use crate::core::error::ConfigError;
use crate::dmg::DmgSetupError;
use crate::grammar::GrammarSetupError;
use crate::map::MapSetupError;

/// A task could not be set up.
#[derive(Debug, thiserror::Error)]
pub enum TaskSetupError {
    /// A value of `[task]` (or of a source section) is out of range, or the spec cannot be met.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The DMG source's tables.
    #[error(transparent)]
    Dmg(#[from] DmgSetupError),
    /// The grammar source's rules.
    #[error(transparent)]
    Grammar(#[from] GrammarSetupError),
    /// The map source's level graph or templates.
    #[error(transparent)]
    Map(#[from] MapSetupError),
}
