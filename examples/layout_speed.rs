//! Quick single-core timing of a 50-vertex, 300-iteration layout (the graph of
//! `benches/layout.rs`, group `layout/full`): `cargo run --release --example layout_speed`.
//! Prints the median and best of 15 rounds (`N=n` changes the vertex count). Criterion's
//! `benches/layout.rs` is the reference measurement; this is the fast loop for trying ideas.

use warren::layout::{self, LayoutGraph, LayoutParams, LayoutScratch, quality};

fn main() {
    let n: usize = std::env::var("N")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(50);
    let (src, dst) = layout::level_like_graph(n, n as u64);
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
