//! Where the GraphColoring corpus is: one file, a test module of the library's (`levelxml`'s
//! unit tests) that the integration tests (`tests/common`) include by path too.

use std::path::{Path, PathBuf};

/// The GraphColoring corpus (`../shared/corpus/graphcoloring-levels` beside the crate, or under
/// `$WARREN_SHARED`). The files are the game's (GPL), read where they stand and never copied into
/// the crate; a checkout without them says so on stderr and skips the corpus tests (unless
/// `$WARREN_SHARED` names the folder: then the corpus must be there).
pub fn corpus() -> Option<PathBuf> {
    let shared = std::env::var_os("WARREN_SHARED").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"),
        PathBuf::from,
    );
    let root = shared.join("corpus/graphcoloring-levels");
    if root.join("level-list.xml").is_file() {
        Some(root)
    } else {
        // Asked for by name, the corpus must be there.
        assert!(
            std::env::var_os("WARREN_SHARED").is_none(),
            "WARREN_SHARED is set but {} has no corpus",
            root.display()
        );
        eprintln!("skipped: no GraphColoring corpus at {}", root.display());
        None
    }
}
