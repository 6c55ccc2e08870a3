//! The output-folder check every writing command runs before it does any work: a missing folder
//! fails at once, naming the folder, instead of after a long run. One check, one message, for
//! `generate`, `export`, `merge`, `layout`, `card`, `man` and `--flamegraph`.

use std::path::{Path, PathBuf};

/// An output folder that does not exist (or is not a folder).
#[derive(Debug, thiserror::Error)]
#[error("{}: output folder does not exist", .folder.display())]
pub struct MissingFolder {
    /// The folder asked for.
    pub folder: PathBuf,
}

/// Fails naming `dir` when it is not an existing folder.
pub fn check_folder(dir: &Path) -> Result<(), MissingFolder> {
    if dir.is_dir() {
        Ok(())
    } else {
        Err(MissingFolder {
            folder: dir.to_path_buf(),
        })
    }
}

/// Fails naming the folder when the folder `out` is to be written into does not exist (a bare
/// file name is written into the working folder, which does).
pub fn check_output_folder(out: &Path) -> Result<(), MissingFolder> {
    match out.parent().filter(|p| !p.as_os_str().is_empty()) {
        Some(parent) => check_folder(parent),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_folder_is_named_and_a_bare_name_passes() {
        let missing = std::env::temp_dir().join("warren-no-such-folder");
        let e = check_output_folder(&missing.join("a.arrow")).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("{}: output folder does not exist", missing.display())
        );
        assert!(check_output_folder(Path::new("a.arrow")).is_ok());
        assert!(check_folder(&std::env::temp_dir()).is_ok());
        let file = std::env::temp_dir().join(format!("warren-folders-{}", std::process::id()));
        std::fs::write(&file, b"").unwrap();
        assert!(check_folder(&file).is_err(), "a file is no folder");
        std::fs::remove_file(&file).unwrap();
    }
}
