//! Builds `LEVELS` (default 10,000) puzzles of every kind and profile and checks each one: its
//! XML reads back to the same level, its stored solution completes it under warren's evaluator,
//! and for the chromatic profile the graph is again refuted with k - 1 colors.
//! `cargo run --release --example coloring_check`. Prints counts, failures and puzzles/s.

use warren::levelxml::puzzle::{
    ColoringConfig, ColoringSolver, Outcome, PuzzleKind, PuzzleScratch, build_puzzle,
    check_solution,
};

fn main() {
    let n: u64 = std::env::var("LEVELS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000);
    let kind = |puzzle| ColoringConfig {
        puzzle,
        ..ColoringConfig::default()
    };
    let profiles = [
        ("vertex", kind(PuzzleKind::Vertex)),
        (
            "vertex-chromatic-4",
            ColoringConfig {
                chromatic: true,
                ..ColoringConfig::default()
            },
        ),
        (
            "vertex-chromatic-3-clues",
            ColoringConfig {
                colors: 3,
                chromatic: true,
                clues: 4,
                keep: 0.5,
                ..ColoringConfig::default()
            },
        ),
        ("edge", kind(PuzzleKind::Edge)),
        ("euler-cycle", kind(PuzzleKind::EulerCycle)),
        ("euler-path", kind(PuzzleKind::EulerPath)),
    ];
    let mut scratch = PuzzleScratch::default();
    let mut solver = ColoringSolver::default();
    let mut bad = 0u64;
    for (name, cfg) in &profiles {
        cfg.validate().expect("valid profile");
        let t = std::time::Instant::now();
        let (mut failed, mut attempts, mut nodes) = (0u64, 0u64, 0u64);
        for i in 0..n {
            let p = match build_puzzle(cfg, warren::mix(2, i), &mut scratch) {
                Ok(p) => p,
                Err(e) => {
                    failed += 1;
                    eprintln!("{name} {i}: {e}");
                    continue;
                }
            };
            attempts += u64::from(p.metrics.attempts);
            nodes += p.metrics.solver_nodes;
            if let Err(e) = check_solution(&p) {
                bad += 1;
                eprintln!("{name} {i}: {e}");
            }
            if cfg.chromatic {
                let edges: Vec<(u32, u32)> =
                    p.src.iter().copied().zip(p.dst.iter().copied()).collect();
                let (out, _) = solver.solve(p.x.len(), &edges, cfg.colors - 1, &[], u64::MAX);
                if out != Outcome::Impossible {
                    bad += 1;
                    eprintln!("{name} {i}: colorable with {} colors", cfg.colors - 1);
                }
            }
        }
        let secs = t.elapsed().as_secs_f64();
        println!(
            "{name:26} {n} puzzles, {failed} failed seeds, {:.2} attempts, {:.1} solver nodes, \
             {:.0} puzzles/s (build + check)",
            attempts as f64 / n as f64,
            nodes as f64 / n as f64,
            n as f64 / secs
        );
    }
    if bad > 0 {
        eprintln!("{bad} puzzles failed their checks");
        std::process::exit(1);
    }
    println!("every puzzle re-parses and its solution completes it");
}
