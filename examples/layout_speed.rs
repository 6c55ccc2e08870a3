//! Quick single-core timing of a 50-vertex, 300-iteration layout (the graph of
//! `benches/layout.rs`, group `layout/full`): `cargo run --release --example layout_speed`.
//! Prints the median and best of 15 rounds (`N=n` changes the vertex count). Criterion's
//! `benches/layout.rs` is the reference measurement; this is the fast loop for trying ideas.

use warren::WarrenRng;
use warren::layout::{self, LayoutGraph, LayoutParams, LayoutScratch, quality};

fn main() {
    let n: usize = std::env::var("N")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(50);
    let mut rng = WarrenRng::new(n as u64);
    let (mut src, mut dst) = (Vec::new(), Vec::new());
    for v in 1..n as u32 {
        let back = rng.below(v.min(4)) + 1;
        src.push(v - back);
        dst.push(v);
    }
    for _ in 0..n / 4 {
        let a = rng.below(n as u32);
        let b = (a + rng.below(8) + 2).min(n as u32 - 1);
        if a != b {
            src.push(a);
            dst.push(b);
        }
    }
    let graph = LayoutGraph {
        src: &src,
        dst: &dst,
        length_factor: None,
    };
    let params = LayoutParams {
        parallel: false,
        tolerance: 0.0,
        max_iterations: 300,
        ..Default::default()
    };
    let mut scratch = LayoutScratch::default();
    let (mut x, mut y) = (Vec::new(), Vec::new());
    let reps = 2000 * 50 / n.max(1);
    let mut rounds = Vec::new();
    for _ in 0..15 {
        let t = std::time::Instant::now();
        for _ in 0..reps {
            layout::random_positions(n, 1.0, 1, &mut x, &mut y);
            layout::relax(&graph, &mut x, &mut y, &params, &mut scratch);
        }
        rounds.push(t.elapsed().as_secs_f64() * 1e6 / reps as f64);
    }
    rounds.sort_by(f64::total_cmp);
    let q = quality::measure(&x, &y, &src, &dst, None);
    println!(
        "n {n}: median {:.1} us/layout, best {:.1}; crossings {}, cv {:.3}, x0 {}",
        rounds[7], rounds[0], q.crossings, q.length_cv, x[0]
    );
}
