//! The same bytes on another CPU: a `warren` command built for another target CPU (named by
//! `WARREN_OTHER_BUILD`) must write every shipped profile's golden levels and every golden
//! layout. `.ci/run` points it at the wheel's command, built for baseline x86-64 (SSE2, no FMA)
//! in release, while this build is the test profile's for `.cargo/config.toml`'s x86-64-v3.
//! Without the variable the test says it was skipped; with `WARREN_REQUIRE_OTHER_BUILD=1` it
//! fails instead.

use std::ffi::OsString;
use std::path::Path;
use std::process::Command;

use warren::archive::Archive;

use super::layout::{CASES, positions_by};
use super::{CHUNK, GOLDEN, LEVELS, SEED, golden};
use crate::common::{TempDir, exit_code, stderr, stdout, warren_bin};

/// The other build's command, or `None` (and why) when the run does not name one.
fn other_build() -> Option<OsString> {
    match std::env::var_os("WARREN_OTHER_BUILD") {
        Some(bin) if !bin.is_empty() => Some(bin),
        _ => {
            assert!(
                std::env::var_os("WARREN_REQUIRE_OTHER_BUILD").is_none(),
                "WARREN_REQUIRE_OTHER_BUILD is set but WARREN_OTHER_BUILD names no command"
            );
            eprintln!("skipped: WARREN_OTHER_BUILD names no warren command built for another CPU");
            None
        }
    }
}

/// The CPU features a build names in `warren --version` (`warren 0.2.0 (commit 29db855a46cd,
/// x86_64 sse4.2 popcnt avx avx2 fma bmi2)`: `x86_64 sse4.2 ...`).
fn features(bin: &std::ffi::OsStr) -> String {
    let out = Command::new(bin)
        .arg("--version")
        .output()
        .unwrap_or_else(|e| panic!("{}: {e}", bin.to_string_lossy()));
    assert_eq!(exit_code(&out), 0, "{}", stderr(&out));
    let line = stdout(&out);
    let cpu = line.rsplit_once(", ").map_or("", |(_, b)| b);
    cpu.trim_end().trim_end_matches(')').to_string()
}

#[test]
fn a_build_for_another_cpu_writes_the_golden_levels_and_layouts() {
    let Some(other) = other_build() else {
        return;
    };
    let (ours, theirs) = (features(warren_bin().as_ref()), features(&other));
    assert_ne!(
        ours, theirs,
        "both builds assume the same CPU: the comparison would check nothing"
    );
    eprintln!("this build: {ours}; the other: {theirs}");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = TempDir::new("other-cpu");
    let mut wrong = Vec::new();
    for &(name, want) in GOLDEN {
        let out = dir.join(&format!("{name}.arrow"));
        let run = Command::new(&other)
            .current_dir(root)
            .args(["generate", &format!("profiles/{name}"), "--quiet"])
            .args(["--count", &LEVELS.to_string(), "--seed", &SEED.to_string()])
            .args(["--chunk-size", &CHUNK.to_string(), "--threads", "2"])
            .arg("--out")
            .arg(&out)
            .output()
            .expect("the other build runs");
        assert_eq!(exit_code(&run), 0, "{name}: {}", stderr(&run));
        let archive = Archive::open(&out).unwrap();
        let batches: Vec<_> = (0..archive.batch_count())
            .map(|i| archive.batch(i).unwrap())
            .collect();
        let got = golden(&batches);
        if got != want {
            wrong.push(format!("{name}: 0x{got:016x}, golden 0x{want:016x}"));
        }
    }
    for (n, extra, want) in CASES {
        let got = positions_by(&other, n, extra);
        if got != want {
            wrong.push(format!(
                "layout of {n} vertices {extra:?}: {:#010x} ({} bytes), golden {:#010x} ({})",
                got.0, got.1, want.0, want.1
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "the build for {theirs} wrote other bytes:\n{}",
        wrong.join("\n")
    );
}
