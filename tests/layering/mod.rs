//! The modules' arrows point one way: the command line (`src/cli`, `src/main.rs`) uses the
//! library, and no library module reaches up into the command line for a helper (file writes
//! and number formatting live in `core::output` and `core::text`).

use std::path::Path;

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn no_library_module_uses_the_command_line() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let cli = src.join("cli");
    let mut offenders = Vec::new();
    for file in files
        .iter()
        .filter(|f| !f.starts_with(&cli) && !f.ends_with("main.rs"))
    {
        let text = std::fs::read_to_string(file).unwrap();
        for (i, line) in text.lines().enumerate() {
            if line.contains("crate::cli")
                || line.contains("warren::cli")
                || line.contains("super::cli")
            {
                offenders.push(format!("{}:{}: {}", file.display(), i + 1, line.trim()));
            }
        }
    }
    assert!(files.len() > 50, "found only {} source files", files.len());
    assert!(
        offenders.is_empty(),
        "library modules using the CLI:\n{}",
        offenders.join("\n")
    );
}
