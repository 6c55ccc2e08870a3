//! Quick single-core timing of the default maze: `cargo run --release --example gen_speed`.
//! Prints the median and the best of 9 rounds of 10,000 levels (`LEVELS=n` changes the round
//! size). Criterion's `benches/maze.rs` is the reference measurement; this is the fast loop for
//! trying ideas.

use warren::{Generator, MazeConfig, MazeGenerator};

fn main() {
    let g = MazeGenerator::new(MazeConfig::default()).expect("default config");
    let mut s = g.new_scratch();
    let n: u64 = std::env::var("LEVELS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000);
    let mut rounds = Vec::new();
    let mut acc = 0u64;
    for r in 0..9 {
        let t = std::time::Instant::now();
        for i in 0..n {
            let level = g.generate(warren::mix(r, i), &mut s).expect("maze");
            acc ^= level.content_hash();
        }
        rounds.push(t.elapsed().as_secs_f64() * 1e6 / n as f64);
    }
    rounds.sort_by(f64::total_cmp);
    println!(
        "median {:.2} us/level, best {:.2} (check {acc:x})",
        rounds[4], rounds[0]
    );
}
