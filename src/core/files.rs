//! The files a profile names (a grammar's rule file, DMG table overrides), read through one door
//! so that an archive can carry them: while a generator is built, every file it reads is
//! recorded, and `warren generate` stores them in the archive (`warren.files`); `warren verify`
//! builds the generator again from those stored contents alone, so an archive verifies from any
//! folder, after its files are deleted or edited.
//!
//! Both scopes are per thread: generators are built on the thread that asks for them.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::io;
use std::path::Path;

/// File contents by path, as the profile names them.
pub type Files = BTreeMap<String, String>;

thread_local! {
    /// Files read in the current recording scope.
    static RECORDED: RefCell<Option<Files>> = const { RefCell::new(None) };
    /// The only files there are in the current embedded scope.
    static EMBEDDED: RefCell<Option<Files>> = const { RefCell::new(None) };
}

fn key(path: &Path) -> String {
    path.display().to_string()
}

/// Reads `path` as text: from the embedded files when in [`with_embedded`], else from disk;
/// records it when in [`record`].
///
/// # Errors
/// The file is missing (or, on disk, unreadable or not UTF-8).
pub fn read_to_string(path: &Path) -> io::Result<String> {
    let k = key(path);
    let embedded = EMBEDDED.with(|e| e.borrow().as_ref().map(|f| f.get(&k).cloned()));
    let text = match embedded {
        Some(Some(text)) => text,
        Some(None) => {
            return Err(io::Error::new(
                io::ErrorKind::NotFound,
                "not among the files stored with the levels",
            ));
        }
        None => std::fs::read_to_string(path)?,
    };
    RECORDED.with(|r| {
        if let Some(files) = r.borrow_mut().as_mut() {
            files.insert(k, text.clone());
        }
    });
    Ok(text)
}

/// Whether `path` exists: among the embedded files when in [`with_embedded`], else on disk.
pub fn exists(path: &Path) -> bool {
    let k = key(path);
    EMBEDDED
        .with(|e| e.borrow().as_ref().map(|f| f.contains_key(&k)))
        .unwrap_or_else(|| path.exists())
}

/// Runs `f`, recording every file it reads; returns its result and the files.
pub fn record<T>(f: impl FnOnce() -> T) -> (T, Files) {
    let outer = RECORDED.with(|r| r.replace(Some(Files::new())));
    let out = f();
    let files = RECORDED.with(|r| r.replace(outer)).unwrap_or_default();
    (out, files)
}

/// Runs `f` with `files` as the only files there are (a stored archive's).
pub fn with_embedded<T>(files: Files, f: impl FnOnce() -> T) -> T {
    let outer = EMBEDDED.with(|e| e.replace(Some(files)));
    let out = f();
    EMBEDDED.with(|e| e.replace(outer));
    out
}

/// The files the generator most recently built on this thread read (see
/// `Profile::with_generator`), for the archive's metadata.
pub fn last_built() -> Files {
    LAST.with(|l| l.borrow().clone())
}

thread_local! {
    static LAST: RefCell<Files> = const { RefCell::new(BTreeMap::new()) };
}

/// Records `files` as those of the generator just built on this thread.
pub(crate) fn set_last_built(files: Files) {
    LAST.with(|l| *l.borrow_mut() = files);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_are_recorded_and_embedded_files_replace_the_disk() {
        let dir = std::env::temp_dir().join(format!("warren-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.txt");
        std::fs::write(&path, "on disk").unwrap();
        let (text, files) = record(|| read_to_string(&path).unwrap());
        assert_eq!(text, "on disk");
        assert_eq!(files.get(&path.display().to_string()).unwrap(), "on disk");
        std::fs::remove_file(&path).unwrap();
        let mut stored = Files::new();
        stored.insert(path.display().to_string(), "stored".into());
        with_embedded(stored, || {
            assert!(exists(&path));
            assert_eq!(read_to_string(&path).unwrap(), "stored");
            assert!(!exists(&dir.join("b.txt")));
            assert!(read_to_string(&dir.join("b.txt")).is_err());
        });
        assert!(!exists(&path));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
