//! The Python package's own tests (`python/tests`, pytest) against this build's command line,
//! when the package is installed (`pip install ./python`, as `.ci/run` does) and pytest is
//! present; skipped, and said so, otherwise.

use std::path::Path;
use std::process::Command;

use crate::common::{stderr, stdout, warren_bin};

#[test]
fn the_python_package_passes_its_tests() {
    let ready = Command::new("python3")
        .args(["-c", "import warren, pytest, pyarrow, numpy"])
        .output();
    if !ready.is_ok_and(|o| o.status.success()) {
        eprintln!(
            "skipped: the warren Python package or pytest is not installed \
             (pip install ./python pytest)"
        );
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let output = Command::new("python3")
        .args(["-m", "pytest", "-q", "-p", "no:cacheprovider"])
        .arg(root.join("python/tests"))
        .current_dir(root)
        .env("WARREN_BIN", warren_bin())
        .output()
        .expect("python3 runs");
    assert!(
        output.status.success(),
        "pytest failed:\n{}\n{}",
        stdout(&output),
        stderr(&output)
    );
}
