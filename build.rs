//! Names the build in `warren --version` (and Python's `warren.__build__`): the commit the
//! source came from (`unknown` outside a git checkout, as in a source distribution) and the CPU
//! features the compiler was allowed to assume (`.cargo/config.toml` asks for x86-64-v3).

use std::path::Path;
use std::process::Command;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let commit = Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .current_dir(root)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "unknown".to_owned());
    // A new commit moves HEAD's branch ref; a checkout moves HEAD.
    let git = root.join(".git");
    if git.is_dir() {
        println!("cargo:rerun-if-changed=.git/HEAD");
        if let Ok(head) = std::fs::read_to_string(git.join("HEAD"))
            && let Some(r) = head.strip_prefix("ref: ")
        {
            println!("cargo:rerun-if-changed=.git/{}", r.trim());
        }
        println!("cargo:rerun-if-changed=.git/packed-refs");
    }
    let arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    let enabled = std::env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default();
    // The features the kernels care about, in this order, as the compiler reports them.
    let wanted = [
        "sse4.2", "popcnt", "avx", "avx2", "fma", "bmi2", "avx512f", "neon",
    ];
    let features: Vec<&str> = wanted
        .into_iter()
        .filter(|w| enabled.split(',').any(|e| e == *w))
        .collect();
    let features = if features.is_empty() {
        "baseline".to_owned()
    } else {
        features.join(" ")
    };
    println!("cargo:rustc-env=WARREN_BUILD=commit {commit}, {arch} {features}");
}
