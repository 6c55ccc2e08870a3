//! Why a profile could not be loaded, changed or built.

use std::path::PathBuf;

use thiserror::Error;

use crate::core::error::ConfigError;
use crate::dmg::DmgSetupError;
use crate::grammar::GrammarSetupError;
use crate::map::MapSetupError;

/// A profile could not be loaded or changed.
#[derive(Debug, Error)]
pub enum ProfileError {
    /// The name is neither a known kind nor an existing file.
    #[error("unknown generator kind or profile file `{name}` (known kinds: {known})")]
    UnknownKind {
        /// The name as given.
        name: String,
        /// The known kinds, comma-separated.
        known: String,
    },
    /// The profile file could not be read.
    #[error("{path}: cannot read")]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The profile text is not valid (syntax, unknown key, wrong type); the message carries the
    /// line and column.
    #[error("{origin}: {message}")]
    Parse {
        /// File name, or `built-in <kind>`.
        origin: String,
        /// toml's message, with position.
        message: String,
    },
    /// A `--set` argument is malformed or names an unknown key.
    #[error("--set {arg}: {message}")]
    Set {
        /// The argument as given.
        arg: String,
        /// What is wrong.
        message: String,
    },
    /// A value is out of its allowed range.
    #[error(transparent)]
    Invalid(#[from] ConfigError),
    /// The grammar's rules could not be read or are invalid.
    #[error(transparent)]
    Rules(#[from] crate::grammar::rule::GrammarError),
    /// A dungeon table file is unreadable or invalid.
    #[error(transparent)]
    Table(#[from] crate::dmg::tables::TableError),
    /// A level graph or template library is unreadable, invalid, or unusable together.
    #[error("{0}")]
    Map(String),
    /// The variants of a mixture (`warren pack`) do not form one.
    #[error(transparent)]
    Mixture(#[from] super::mixture::MixtureError),
}

impl From<MapSetupError> for ProfileError {
    fn from(e: MapSetupError) -> Self {
        match e {
            MapSetupError::Config(c) => ProfileError::Invalid(c),
            other => ProfileError::Map(other.to_string()),
        }
    }
}

impl From<DmgSetupError> for ProfileError {
    fn from(e: DmgSetupError) -> Self {
        match e {
            DmgSetupError::Config(c) => ProfileError::Invalid(c),
            DmgSetupError::Table(t) => ProfileError::Table(t),
        }
    }
}

impl From<GrammarSetupError> for ProfileError {
    fn from(e: GrammarSetupError) -> Self {
        match e {
            GrammarSetupError::Config(c) => ProfileError::Invalid(c),
            GrammarSetupError::Rules(r) => ProfileError::Rules(r),
            GrammarSetupError::Map(m) => ProfileError::Map(m),
        }
    }
}

impl From<crate::task::TaskSetupError> for ProfileError {
    fn from(e: crate::task::TaskSetupError) -> Self {
        use crate::task::TaskSetupError as E;
        match e {
            E::Config(c) => ProfileError::Invalid(c),
            E::Dmg(d) => d.into(),
            E::Grammar(g) => g.into(),
            E::Map(m) => m.into(),
        }
    }
}
