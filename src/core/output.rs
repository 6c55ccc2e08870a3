//! Files written whole: the temporary name beside the target and the write
//! that a reader never sees half done. Below every module that writes (the archive writer,
//! `export`, the command line), so none of them reaches up into another for it.

use std::path::{Path, PathBuf};

use thiserror::Error;

/// Why a file could not be written, naming the file (a missing folder is checked before any
/// work by `core::folders`).
#[derive(Debug, Error)]
pub enum OutputError {
    /// The file could not be created, written, synced or renamed into place (nothing is left
    /// behind).
    // NOTE: the cause is part of the message, not `source()`, so a report that prints the
    // whole chain (`{:#}`) names it once.
    #[error("{path}: cannot write: {error}")]
    Write {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        error: std::io::Error,
    },
}

/// The temporary path used while `path` is being written: `path` with `.tmp` appended.
pub fn temp_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".tmp");
    PathBuf::from(name)
}

/// Writes `bytes` to `path.tmp`, syncs, renames onto `path` (a reader never sees a partial
/// file; a failed write leaves nothing behind).
///
/// # Errors
/// [`OutputError::Write`], naming `path`.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), OutputError> {
    use std::io::Write;
    let tmp = temp_path(path);
    let write = || -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    };
    write().map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        OutputError::Write {
            path: path.to_path_buf(),
            error: e,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_lands_whole_and_a_failed_one_leaves_nothing() {
        let dir = std::env::temp_dir().join(format!("warren-output-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.json");
        write_atomic(&path, b"{}").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"{}");
        assert!(!temp_path(&path).exists());
        let missing = dir.join("no-such-folder").join("b.json");
        let e = write_atomic(&missing, b"{}").unwrap_err().to_string();
        assert!(e.contains("b.json") && e.contains("cannot write"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
