//! Every generated puzzle reads back from its own XML, its solution completes it under the
//! evaluator, its start does not, and its proofs hold against brute force on small graphs.

use super::*;
use crate::core::planar::is_planar;
use crate::core::rng::mix;
use crate::levelxml::model::Protect;
use crate::levelxml::{EvalOptions, evaluate};

fn cfg(puzzle: PuzzleKind) -> ColoringConfig {
    ColoringConfig {
        puzzle,
        ..ColoringConfig::default()
    }
}

fn start_is_incomplete(p: &Puzzle) {
    let ev = evaluate(&p.doc, &EvalOptions::default()).unwrap();
    assert!(
        !ev.complete,
        "{:?}: the start state is already solved",
        p.kind
    );
}

fn graph_is_consistent(p: &Puzzle) {
    let n = p.graph.x.len();
    assert_eq!(p.metrics.vertices as usize, n);
    assert_eq!(p.metrics.edges as usize, p.graph.src.len());
    assert_eq!(p.doc.vertices.len(), n);
    assert_eq!(p.doc.edges.len(), p.graph.src.len());
    assert!(is_planar(n, &p.graph.src, &p.graph.dst));
    for (v, (&x, &y)) in p.doc.vertices.iter().zip(p.graph.x.iter().zip(&p.graph.y)) {
        assert_eq!((v.x as f32, v.y as f32), (x, y));
    }
    for (e, (&a, &b)) in p.doc.edges.iter().zip(p.graph.src.iter().zip(&p.graph.dst)) {
        assert_eq!(
            (e.v1.as_str(), e.v2.as_str()),
            (&*format!("v{a}"), &*format!("v{b}"))
        );
    }
}

#[test]
fn two_hundred_seeds_of_every_kind_check_out() {
    let mut scratch = PuzzleScratch::default();
    for (kind, seeds) in [
        (PuzzleKind::Vertex, 60),
        (PuzzleKind::Edge, 50),
        (PuzzleKind::EulerCycle, 45),
        (PuzzleKind::EulerPath, 45),
    ] {
        let c = cfg(kind);
        for i in 0..seeds {
            let p = build_puzzle(&c, mix(7, i), &mut scratch)
                .unwrap_or_else(|e| panic!("{kind:?} seed {i}: {e}"));
            let ev = check_solution(&p).unwrap_or_else(|e| panic!("{kind:?} seed {i}: {e}"));
            assert!(ev.valid && ev.total >= ev.objective);
            start_is_incomplete(&p);
            graph_is_consistent(&p);
            match (&p.solution, kind) {
                (Solution::VertexColors(cs), PuzzleKind::Vertex) => {
                    let edges: Vec<(u32, u32)> = p
                        .graph
                        .src
                        .iter()
                        .copied()
                        .zip(p.graph.dst.iter().copied())
                        .collect();
                    assert!(is_proper(&edges, cs, c.colors));
                }
                (Solution::EdgeColors(cs), PuzzleKind::Edge) => {
                    assert_eq!(cs.len(), p.graph.src.len())
                }
                (Solution::Walk(w), PuzzleKind::EulerCycle | PuzzleKind::EulerPath) => {
                    assert_eq!(w.len(), p.graph.src.len());
                    let odd = if kind == PuzzleKind::EulerCycle { 0 } else { 2 };
                    assert_eq!(p.metrics.odd_vertices, odd);
                    assert_eq!(ev.path_score, Some(p.graph.src.len() as i64));
                }
                other => panic!("{other:?}"),
            }
        }
    }
}

#[test]
fn puzzles_are_pure_functions_of_config_and_seed() {
    let mut a = PuzzleScratch::default();
    let mut b = PuzzleScratch::default();
    for kind in [PuzzleKind::Vertex, PuzzleKind::Edge, PuzzleKind::EulerPath] {
        let c = cfg(kind);
        // Warm `a` on another seed first: scratch contents must not leak into the next level.
        build_puzzle(&c, 99, &mut a).unwrap();
        let x = build_puzzle(&c, 5, &mut a).unwrap();
        let y = build_puzzle(&c, 5, &mut b).unwrap();
        assert_eq!(x, y, "{kind:?}");
        assert_ne!(x.xml, build_puzzle(&c, 6, &mut b).unwrap().xml);
    }
}

/// Brute force: is the graph colorable with `k` colors?
fn colorable(n: usize, edges: &[(u32, u32)], k: u32) -> bool {
    let mut colors = vec![0u8; n];
    (0..u64::from(k).pow(n as u32)).any(|mut code| {
        for c in colors.iter_mut() {
            *c = (code % u64::from(k)) as u8;
            code /= u64::from(k);
        }
        is_proper(edges, &colors, k)
    })
}

#[test]
fn chromatic_puzzles_need_exactly_k_colors() {
    let mut scratch = PuzzleScratch::default();
    for k in [3, 4] {
        let c = ColoringConfig {
            width: 3,
            height: 3,
            colors: k,
            chromatic: true,
            keep: 0.9,
            ..ColoringConfig::default()
        };
        for i in 0..12 {
            let p = build_puzzle(&c, mix(k.into(), i), &mut scratch).unwrap();
            let edges: Vec<(u32, u32)> = p
                .graph
                .src
                .iter()
                .copied()
                .zip(p.graph.dst.iter().copied())
                .collect();
            assert!(colorable(9, &edges, k), "k {k} seed {i}");
            assert!(
                !colorable(9, &edges, k - 1),
                "k {k} seed {i}: chromatic number below k"
            );
            assert!(p.metrics.proof_nodes > 0);
            check_solution(&p).unwrap();
        }
    }
}

#[test]
fn clues_are_protected_solution_colors() {
    let c = ColoringConfig {
        clues: 5,
        colors: 3,
        ..ColoringConfig::default()
    };
    let mut scratch = PuzzleScratch::default();
    for i in 0..10 {
        let p = build_puzzle(&c, mix(3, i), &mut scratch).unwrap();
        let Solution::VertexColors(cs) = &p.solution else {
            panic!("vertex puzzle")
        };
        let given: Vec<_> = p
            .doc
            .vertices
            .iter()
            .enumerate()
            .filter(|(_, v)| v.color.is_some())
            .collect();
        assert_eq!(given.len(), 5);
        for (i, v) in given {
            assert_eq!(v.protect, Protect::COLOR);
            assert_eq!(
                v.color.as_deref(),
                Some(p.doc.colors[1 + usize::from(cs[i])].name.as_str())
            );
        }
        check_solution(&p).unwrap();
    }
}

#[test]
fn wrong_answers_do_not_complete() {
    let mut scratch = PuzzleScratch::default();
    // A vertex coloring with one edge monochrome.
    let p = build_puzzle(&cfg(PuzzleKind::Vertex), 1, &mut scratch).unwrap();
    let Solution::VertexColors(mut cs) = p.solution.clone() else {
        panic!()
    };
    cs[p.graph.dst[0] as usize] = cs[p.graph.src[0] as usize];
    let (played, _) = apply_solution(&p.doc, &Solution::VertexColors(cs));
    assert!(!evaluate(&played, &EvalOptions::default()).unwrap().complete);
    // An Eulerian walk missing its last edge.
    let p = build_puzzle(&cfg(PuzzleKind::EulerCycle), 1, &mut scratch).unwrap();
    let Solution::Walk(mut w) = p.solution.clone() else {
        panic!()
    };
    w.pop();
    let (played, walk) = apply_solution(&p.doc, &Solution::Walk(w));
    let opts = EvalOptions {
        path: walk.as_deref(),
        ..EvalOptions::default()
    };
    assert!(!evaluate(&played, &opts).unwrap().complete);
    // An edge coloring with one quota broken.
    let p = build_puzzle(&cfg(PuzzleKind::Edge), 1, &mut scratch).unwrap();
    let Solution::EdgeColors(mut cs) = p.solution.clone() else {
        panic!()
    };
    let (a, b) = (p.graph.src[0] as usize, p.graph.dst[0] as usize);
    let name = |v: usize| p.doc.vertices[v].color.clone().unwrap();
    let other = (0..4u8).find(|&c| {
        let n = &p.doc.colors[1 + usize::from(c)].name;
        c != cs[0] && *n != name(a) && *n != name(b)
    });
    if let Some(c) = other {
        cs[0] = c;
        let (played, _) = apply_solution(&p.doc, &Solution::EdgeColors(cs));
        assert!(!evaluate(&played, &EvalOptions::default()).unwrap().complete);
    }
}

#[test]
fn impossible_configurations_fail_with_a_reason() {
    // Two colors cannot color a triangulation with its triangles kept.
    let c = ColoringConfig {
        colors: 2,
        keep: 1.0,
        max_attempts: 3,
        ..ColoringConfig::default()
    };
    let e = build_puzzle(&c, 1, &mut PuzzleScratch::default()).unwrap_err();
    assert_eq!(e.reason, "not k-colorable");
    assert!(e.detail.starts_with("after 3 attempts"), "{e}");
}
