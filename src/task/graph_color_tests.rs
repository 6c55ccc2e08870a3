//! Tests of `graph-color` against an independent oracle: plain backtracking in index order
//! (no DSATUR, no symmetry breaking) decides k-colourability, so every item's chromatic
//! number is checked without the solver that proved it. `WARREN_TASK_SCALE=full` runs the
//! oracle on 100,000 items (use a release build).

use std::collections::HashSet;

use super::*;
use crate::core::generator::{Generator, LevelRecord};
use crate::core::rng::mix;
use crate::task::config::TaskName;
use crate::task::generate::TaskGenerator;
use crate::task::score::{MAX_ANSWER_BYTES, score as score_any};

/// Items per oracle test: a few thousand, or 100,000 with `WARREN_TASK_SCALE=full`.
fn scale(small: u64) -> u64 {
    match std::env::var("WARREN_TASK_SCALE").as_deref() {
        Ok("full") => 100_000,
        _ => small,
    }
}

fn spec(f: impl FnOnce(&mut TaskConfig)) -> TaskConfig {
    let mut cfg = TaskConfig {
        task: TaskName::GraphColor,
        ..TaskConfig::default()
    };
    f(&mut cfg);
    cfg
}

/// A k-colouring of the graph found by plain backtracking over the vertices in index order,
/// if one exists.
fn oracle_coloring(n: usize, edges: &[(u32, u32)], k: u32) -> Option<Vec<u32>> {
    let mut earlier: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(a, b) in edges {
        let (lo, hi) = (a.min(b) as usize, a.max(b) as usize);
        earlier[hi].push(lo);
    }
    fn place(v: usize, k: u32, earlier: &[Vec<usize>], color: &mut Vec<u32>) -> bool {
        if v == earlier.len() {
            return true;
        }
        for c in 1..=k {
            if earlier[v].iter().all(|&u| color[u] != c) {
                color[v] = c;
                if place(v + 1, k, earlier, color) {
                    return true;
                }
            }
        }
        color[v] = 0;
        false
    }
    let mut color = vec![0; n];
    place(0, k, &earlier, &mut color).then_some(color)
}

/// The graph of a ground truth, read with serde_json alone.
fn graph_of(truth: &str) -> (usize, u32, Vec<(u32, u32)>) {
    let v: serde_json::Value = serde_json::from_str(truth).unwrap();
    let n = v["n"].as_u64().unwrap() as usize;
    let k = v["k"].as_u64().unwrap() as u32;
    let edges = v["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e[0].as_u64().unwrap() as u32, e[1].as_u64().unwrap() as u32))
        .collect();
    (n, k, edges)
}

fn json_map(colors: &[u32]) -> String {
    let body: Vec<String> = colors
        .iter()
        .enumerate()
        .map(|(v, c)| format!("\"{v}\": {c}"))
        .collect();
    format!("{{{}}}", body.join(", "))
}

/// Generates `count` items of `cfg` and hands each to `check` (after `verify` passed it).
fn each_item(cfg: &TaskConfig, count: u64, mut check: impl FnMut(&ItemOut)) {
    let g = TaskGenerator::new(cfg.clone()).unwrap();
    let mut s = g.new_scratch();
    for i in 0..count {
        let seed = mix(7, i);
        let level = g.generate_at(i, seed, &mut s).unwrap();
        let record = LevelRecord {
            index: i,
            seed,
            level,
        };
        g.verify(&record)
            .unwrap_or_else(|e| panic!("item {i}: {e}"));
        check(&s.item);
    }
}

/// Every item's chromatic number is k by the oracle, the oracle's colouring scores 1 and a
/// colouring with one edge's ends made equal scores 0.
fn oracle_agrees(cfg: &TaskConfig, count: u64) {
    each_item(cfg, count, |item| {
        let (n, k, edges) = graph_of(&item.ground_truth);
        assert_eq!(k, cfg.colors);
        assert!(
            oracle_coloring(n, &edges, k - 1).is_none(),
            "{k} - 1 colours suffice: {}",
            item.ground_truth
        );
        let coloring = oracle_coloring(n, &edges, k).expect("a planted k-colouring");
        assert_eq!(score(&json_map(&coloring), &item.ground_truth), 1.0);
        assert_eq!(score_any(&item.answer, &item.ground_truth), 1.0);
        let mut wrong = coloring.clone();
        let (a, b) = edges[0];
        wrong[a as usize] = wrong[b as usize];
        assert_eq!(score(&json_map(&wrong), &item.ground_truth), 0.0);
    });
}

#[test]
fn the_oracle_agrees_on_reasoning_gym_sized_graphs() {
    oracle_agrees(&spec(|_| {}), scale(3_000));
}

#[test]
fn the_oracle_agrees_at_four_colours_and_twenty_vertices() {
    let cfg = spec(|c| {
        (c.min_vertices, c.max_vertices, c.colors) = (16, 22, 4);
        c.trace = TraceKind::Dsatur;
    });
    oracle_agrees(&cfg, scale(400));
}

#[test]
fn greedy_fails_items_defeat_index_order_greedy() {
    let cfg = spec(|c| {
        c.greedy_fails = true;
        (c.min_vertices, c.max_vertices) = (8, 14);
    });
    each_item(&cfg, 300, |item| {
        let (n, k, edges) = graph_of(&item.ground_truth);
        // First fit in index order, written out plainly.
        let mut color = vec![0u32; n];
        for v in 0..n {
            let taken: HashSet<u32> = edges
                .iter()
                .filter_map(|&(a, b)| match (a as usize, b as usize) {
                    (a, b) if b == v && a < v => Some(color[a]),
                    (a, b) if a == v && b < v => Some(color[b]),
                    _ => None,
                })
                .collect();
            color[v] = (1..).find(|c| !taken.contains(c)).unwrap();
        }
        assert!(
            color.iter().max().copied().unwrap_or(0) > k,
            "{}",
            item.ground_truth
        );
    });
}

#[test]
fn splits_never_share_a_graph() {
    // Small graphs repeat often within a split, so a shared one would show.
    let mut seen: Vec<HashSet<String>> = Vec::new();
    for split in Split::ALL {
        let cfg = spec(|c| {
            (c.min_vertices, c.max_vertices, c.edge_probability) = (5, 6, 0.5);
            c.split = split;
        });
        let mut graphs = HashSet::new();
        each_item(&cfg, 600, |item| {
            assert!(in_split(item.identity, split));
            graphs.insert(item.ground_truth.clone());
        });
        seen.push(graphs);
    }
    let repeats = 3 * 600 - seen.iter().map(HashSet::len).sum::<usize>();
    assert!(
        repeats > 50,
        "too few repeats ({repeats}) to test the split"
    );
    for a in 0..3 {
        for b in a + 1..3 {
            assert_eq!(seen[a].intersection(&seen[b]).count(), 0);
        }
    }
}

#[test]
fn the_trace_replays_to_the_answer() {
    let cfg = spec(|c| {
        c.trace = TraceKind::Dsatur;
        (c.min_vertices, c.max_vertices, c.colors) = (12, 18, 4);
    });
    let mut undone = 0;
    each_item(&cfg, 1000, |item| {
        let (n, _, _) = graph_of(&item.ground_truth);
        let mut color = vec![0u32; n];
        let words: Vec<&str> = item.trace.split(' ').collect();
        let mut i = 0;
        let mut steps = 0;
        while i < words.len() {
            let v: usize = words[i + 1].parse().unwrap();
            match words[i] {
                "assign" => {
                    color[v] = words[i + 2].parse().unwrap();
                    i += 3;
                }
                "undo" => {
                    color[v] = 0;
                    undone += 1;
                    i += 2;
                }
                w => panic!("unknown step {w}"),
            }
            steps += 1;
        }
        assert_eq!(json_map(&color), item.answer);
        assert_eq!(f64::from(steps), item.metrics[6], "trace_length");
    });
    assert!(undone > 0, "some searches backtrack");
}

#[test]
fn items_are_reasoning_gym_questions_and_deterministic() {
    let cfg = spec(|_| {});
    let g = TaskGenerator::new(cfg.clone()).unwrap();
    let (mut a, mut b) = (g.new_scratch(), g.new_scratch());
    g.item(0, 42, &mut a).unwrap();
    g.item(0, 42, &mut b).unwrap();
    assert_eq!(a.item.question, b.item.question);
    assert_eq!(a.item.answer, b.item.answer);
    let q = &a.item.question;
    assert!(q.starts_with("Please provide a coloring for this graph"));
    assert!(q.contains("\nVertices: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]\nEdges: [("));
    assert!(q.contains("\nPossible colors: [1, 2, 3]\n\nReturn your solution as a JSON map"));
    assert!(
        a.item
            .ground_truth
            .starts_with("{\"task\":\"graph-color\",\"n\":10,\"k\":3,")
    );
    assert!(a.item.trace.is_empty());
    let (n, _, edges) = graph_of(&a.item.ground_truth);
    assert_eq!(a.item.x.len(), n);
    assert_eq!(a.item.src.len(), edges.len());
    assert_eq!(a.item.flags, vec![0; edges.len()]);
}

#[test]
fn verify_refuses_tampered_items() {
    let cfg = spec(|_| {});
    let g = TaskGenerator::new(cfg).unwrap();
    let mut s = g.new_scratch();
    g.item(3, mix(7, 3), &mut s).unwrap();
    let item = &s.item;
    let check = |question: &str, answer: &str, truth: &str, src: &[u32], metrics: &[f64]| {
        let extra = [
            crate::core::generator::ExtraValue::Utf8(question),
            crate::core::generator::ExtraValue::Utf8(answer),
            crate::core::generator::ExtraValue::Utf8(truth),
        ];
        let level = crate::core::generator::Level {
            graph: Some(crate::core::generator::GraphView {
                x: &item.x,
                y: &item.y,
                tag: &[],
                src,
                dst: &item.dst,
                flags: &item.flags,
            }),
            metrics,
            extra: &extra,
            ..Default::default()
        };
        g.verify(&LevelRecord {
            index: 3,
            seed: 0,
            level,
        })
    };
    let (q, a, t, m) = (
        &item.question,
        &item.answer,
        &item.ground_truth,
        &item.metrics,
    );
    check(q, a, t, &item.src, m).unwrap();
    // Another proper colouring scores 1 but is not the solver's answer.
    let (n, k, edges) = graph_of(t);
    let mut other = oracle_coloring(n, &edges, k).unwrap();
    for c in &mut other {
        *c = k + 1 - *c;
    }
    let other = json_map(&other);
    assert_eq!(score(&other, t), 1.0);
    assert!(check(q, &other, t, &item.src, m).is_err());
    assert!(check(&format!("{q} "), a, t, &item.src, m).is_err());
    let mut src = item.src.clone();
    src[0] = (src[0] + 1) % n as u32;
    assert!(check(q, a, t, &src, m).is_err());
    let mut metrics = m.clone();
    metrics[4] += 1.0;
    assert!(check(q, a, t, &item.src, &metrics).is_err());
    let mut dropped = String::new();
    write_ground_truth(n as u32, k, &edges[1..], &mut dropped);
    assert!(check(q, a, &dropped, &item.src, m).is_err());
}

#[test]
fn hostile_answers_score_zero() {
    let truth = r#"{"task":"graph-color","n":3,"k":3,"edges":[[0,1],[1,2],[0,2]]}"#;
    assert_eq!(score(r#"{"0": 1, "1": 2, "2": 3}"#, truth), 1.0);
    assert_eq!(score(r#"{"0": 1, "1": 2, "2": 1}"#, truth), 0.0);
    let mut rng = WarrenRng::new(11);
    let mut hostile: Vec<String> = vec![
        "{\"0\":".repeat(100_000),
        "[".repeat(100_000),
        format!("{{\"0\": {}, \"1\": 2, \"2\": 3}}", "9".repeat(5000)),
        r#"{"0": -1, "1": 2, "2": 3}"#.into(),
        r#"{"0": 1, "1": 2, "2": 3, "3": 1}"#.into(),
        r#"{"0": [1], "1": [[2]], "2": {"3": 3}}"#.into(),
        r#"{"0": 1e0, "1": 2, "2": 3}"#.into(),
        r#"{"０": 1, "1": 2, "2": 3}"#.into(),
        "\u{feff}{\"0\": 1, \"1\": 2, \"2\": 3}".into(),
        "{\"0\": 1, \"1\": 2, \"2\": 3}\u{0}".into(),
        "9".repeat(MAX_ANSWER_BYTES + 1),
    ];
    for len in [1, 7, 100, 10_000] {
        let bytes: Vec<u8> = (0..len).map(|_| rng.below(256) as u8).collect();
        hostile.push(String::from_utf8_lossy(&bytes).into_owned());
    }
    for a in &hostile {
        let shown: String = a.chars().take(40).collect();
        assert_eq!(score(a, truth), 0.0, "{shown}");
        assert_eq!(score_any(a, truth), 0.0);
    }
    // Hostile ground truths score 0 too.
    for t in [
        r#"{"task":"graph-color","n":4294967295,"k":3,"edges":[]}"#,
        r#"{"task":"graph-color","n":3,"k":3,"edges":[[0,7]]}"#,
        r#"{"task":"graph-color","n":3,"k":0,"edges":[]}"#,
        r#"{"task":"graph-color"}"#,
    ] {
        assert_eq!(score(r#"{"0": 1, "1": 2, "2": 3}"#, t), 0.0, "{t}");
    }
}

#[test]
fn bad_specs_are_refused_naming_the_key() {
    let key = |f: fn(&mut TaskConfig)| TaskGenerator::new(spec(f)).unwrap_err().to_string();
    assert!(key(|c| c.trace = TraceKind::Bfs).starts_with("task.trace "));
    assert!(key(|c| c.colors = 11).starts_with("task.colors "));
    assert!(key(|c| c.max_vertices = 65).starts_with("task.max_vertices "));
    assert!(key(|c| c.edge_probability = 0.0).starts_with("task.edge_probability "));
    let png = key(|c| c.renderings = vec![crate::task::config::Rendering::Png]);
    assert!(png.starts_with("task.renderings "), "{png}");
}

#[test]
fn an_unmeetable_spec_fails_with_its_reason() {
    // Three vertices need all three edges for chromatic number 3: rare at p = 0.01.
    let cfg = spec(|c| {
        (c.min_vertices, c.max_vertices, c.edge_probability) = (3, 3, 0.01);
    });
    let g = TaskGenerator::new(cfg).unwrap();
    let mut s = g.new_scratch();
    let e = g.item(0, 1, &mut s).unwrap_err();
    assert_eq!(e.reason, "chromatic number not met");
    assert!(e.detail.contains("on 3 vertices"), "{}", e.detail);
}

/// Items per second on one thread at 20-25 vertices, k = 3 and k = 4, proof included; the
/// median of five runs of 20,000 items each. Run in a release build:
/// `cargo test --release --lib task::graph_color::tests::items_per_second -- --ignored --nocapture`.
#[test]
#[ignore = "a measurement; run it in a release build"]
fn items_per_second_on_one_thread() {
    for k in [3, 4] {
        let cfg = spec(|c| (c.min_vertices, c.max_vertices, c.colors) = (20, 25, k));
        let g = TaskGenerator::new(cfg).unwrap();
        let mut s = g.new_scratch();
        let mut rates: Vec<f64> = (0..5u64)
            .map(|run| {
                let start = std::time::Instant::now();
                for i in 0..20_000 {
                    g.item(i, mix(run, i), &mut s).unwrap();
                }
                20_000.0 / start.elapsed().as_secs_f64()
            })
            .collect();
        rates.sort_by(f64::total_cmp);
        println!("k = {k}: {:.0} items/s (median of {rates:.0?})", rates[2]);
        if !cfg!(debug_assertions) {
            assert!(rates[2] >= 10_000.0, "k = {k}: {:.0} items/s", rates[2]);
        }
    }
}

#[test]
fn the_fast_ground_truth_reader_agrees_with_json() {
    let cfg = TaskConfig {
        task: crate::task::config::TaskName::GraphColor,
        ..TaskConfig::default()
    };
    let tasks = GraphColorTasks::new(&cfg);
    let mut scratch = GraphColorScratch::default();
    let mut out = ItemOut::default();
    for i in 0..200 {
        out.clear();
        tasks
            .item(
                &cfg,
                crate::core::rng::mix(21, i),
                Split::Train,
                &mut scratch,
                &mut out,
            )
            .unwrap();
        let mut edges = Vec::new();
        assert!(crate::task::answer::read_graph_truth(&out.ground_truth, &mut edges).is_some());
        // A space after the brace leaves the fast path: the JSON reader must say the same.
        let spaced = out.ground_truth.replacen('{', "{ ", 1);
        assert!(crate::task::answer::read_graph_truth(&spaced, &mut edges).is_none());
        assert_eq!(score(&out.answer, &spaced), 1.0);
        assert_eq!(score(&out.answer, &out.ground_truth), 1.0);
        let wrong = out
            .answer
            .replacen(": 1", ": 2", 1)
            .replacen(": 2", ": 1", 1);
        assert_eq!(score(&wrong, &spaced), score(&wrong, &out.ground_truth));
    }
}
