//! Archive errors: every one names the file it is about.

use std::path::PathBuf;

use thiserror::Error;

/// What went wrong reading or writing an archive.
#[derive(Debug, Error)]
pub enum ArchiveError {
    /// The file could not be opened, created, written, synced or renamed.
    #[error("{path}: {action}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What was being done ("cannot create", "cannot rename into place", ...).
        action: &'static str,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The file is not a well-formed warren archive (truncated, corrupt, or not Arrow IPC).
    #[error("{path}: not a valid warren archive: {reason}")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What check failed.
        reason: String,
    },
    /// Arrow rejected data while encoding.
    #[error("{path}: cannot encode")]
    Encode {
        /// The file.
        path: PathBuf,
        /// The Arrow error.
        source: arrow_schema::ArrowError,
    },
}
