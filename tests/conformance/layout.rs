//! The multilevel layout's positions are a conformance golden too: the same bytes for one and
//! two threads, and (through `.ci/run`'s baseline x86-64 pass of this suite) on every CPU.
//!
//! To re-mint after a deliberate change: run this test and take the CRC it prints on failure,
//! saying why in the commit.

use crate::common::{TempDir, exit_code, stderr, warren};

/// CRC-32 and byte count of the positions file of the 6,000-vertex level-like graph below,
/// laid out with `warren layout --seed 5` (multilevel, its parallel kernels engaged).
const GOLDEN: (u32, usize) = (0x4d7b_905d, 152_052);

#[test]
fn multilevel_positions_are_the_same_bytes_for_any_thread_count_and_cpu() {
    let dir = TempDir::new("layout-golden");
    let (src, dst) = warren::layout::level_like_graph(6000, 11);
    let text: String = src
        .iter()
        .zip(&dst)
        .map(|(a, b)| format!("{a} {b}\n"))
        .collect();
    let graph = dir.join("g.txt");
    std::fs::write(&graph, text).unwrap();
    let mut files = Vec::new();
    for threads in ["1", "2"] {
        let out = dir.join(&format!("pos-{threads}.tsv"));
        let args = [
            "layout",
            graph.to_str().unwrap(),
            "--seed",
            "5",
            "--threads",
            threads,
            "--out",
            out.to_str().unwrap(),
        ];
        let output = warren(args);
        assert_eq!(exit_code(&output), 0, "{}", stderr(&output));
        files.push(std::fs::read(&out).unwrap());
    }
    assert!(
        files[0] == files[1],
        "1 and 2 threads wrote different positions"
    );
    let got = (crc32fast::hash(&files[0]), files[0].len());
    assert_eq!(
        got, GOLDEN,
        "positions changed: {:#010x}, {} bytes",
        got.0, got.1
    );
}
