//! Tests of `coloring-puzzle`: every item verifies; the stored answer and other solutions
//! found here independently (an edge colouring with two edges' colours swapped, Eulerian walks
//! from another start, reversed, rotated) score 1; corrupted ones and hostile strings score 0.

use std::collections::HashSet;

use super::*;
use crate::core::generator::{Generator, LevelRecord};
use crate::core::rng::mix;
use crate::task::config::TaskName;
use crate::task::generate::TaskGenerator;
use crate::task::score::{MAX_ANSWER_BYTES, score as score_any};

fn spec(kind: PuzzleKind, f: impl FnOnce(&mut ColoringConfig)) -> TaskConfig {
    let mut coloring = ColoringConfig {
        puzzle: kind,
        ..ColoringConfig::default()
    };
    f(&mut coloring);
    TaskConfig {
        task: TaskName::ColoringPuzzle,
        coloring: Some(Box::new(coloring)),
        ..TaskConfig::default()
    }
}

/// Generates `count` items of `cfg`, verifies each and hands its answer and ground truth to
/// `check`.
fn each_item(cfg: &TaskConfig, count: u64, mut check: impl FnMut(&ItemOut)) {
    let g = TaskGenerator::new(cfg.clone()).unwrap();
    let mut s = g.new_scratch();
    for i in 0..count {
        let seed = mix(5, i);
        let level = g.generate_at(i, seed, &mut s).unwrap();
        let record = LevelRecord {
            index: i,
            seed,
            level,
        };
        g.verify(&record)
            .unwrap_or_else(|e| panic!("item {i}: {e}"));
        assert_eq!(score_any(&s.item.answer, &s.item.ground_truth), 1.0);
        check(&s.item);
    }
}

/// The graph of a ground truth, read with serde_json alone.
fn graph_of(truth: &str) -> (serde_json::Value, usize, Vec<(u32, u32)>) {
    let v: serde_json::Value = serde_json::from_str(truth).unwrap();
    let n = v["n"].as_u64().unwrap() as usize;
    let edges = v["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e[0].as_u64().unwrap() as u32, e[1].as_u64().unwrap() as u32))
        .collect();
    (v, n, edges)
}

fn numbers(v: &serde_json::Value) -> Vec<u32> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap() as u32)
        .collect()
}

fn json_map(colors: &[u32]) -> String {
    let body: Vec<String> = colors
        .iter()
        .enumerate()
        .map(|(e, c)| format!("{e}: {c}"))
        .collect();
    format!("{{{}}}", body.join(","))
}

#[test]
fn edge_puzzles_take_any_colouring_that_meets_the_rules() {
    let cfg = spec(PuzzleKind::Edge, |_| {});
    let mut swapped = 0;
    each_item(&cfg, 150, |item| {
        let (v, _, edges) = graph_of(&item.ground_truth);
        let vc = numbers(&v["vertex_colors"]);
        let k = v["k"].as_u64().unwrap() as u32;
        let stored: Vec<u32> = item
            .answer
            .trim_matches(|c| c == '{' || c == '}')
            .split(", ")
            .map(|kv| kv.split(": ").nth(1).unwrap().parse().unwrap())
            .collect();
        assert_eq!(stored.len(), edges.len());
        let list = format!("{stored:?}");
        assert_eq!(score(&list, &item.ground_truth), 1.0, "the list form");
        let fits = |e: usize, c: u32| {
            let (a, b) = edges[e];
            c != vc[a as usize] && c != vc[b as usize]
        };
        // Two edges of different colours that may take each other's: swapped, the quotas hold.
        let pair = (0..edges.len())
            .flat_map(|e| (e + 1..edges.len()).map(move |f| (e, f)))
            .find(|&(e, f)| stored[e] != stored[f] && fits(e, stored[f]) && fits(f, stored[e]));
        if let Some((e, f)) = pair {
            let mut other = stored.clone();
            other.swap(e, f);
            assert_eq!(score(&json_map(&other), &item.ground_truth), 1.0);
            swapped += 1;
        }
        // One edge recoloured (another colour its ends allow): a quota breaks.
        if let Some(c) = (1..=k).find(|&c| c != stored[0] && fits(0, c)) {
            let mut wrong = stored.clone();
            wrong[0] = c;
            assert_eq!(score(&json_map(&wrong), &item.ground_truth), 0.0);
        }
        // One edge in its end's colour.
        let mut wrong = stored.clone();
        wrong[0] = vc[edges[0].0 as usize];
        assert_eq!(score(&json_map(&wrong), &item.ground_truth), 0.0);
        assert_eq!(score(&json_map(&stored[1..]), &item.ground_truth), 0.0);
    });
    assert!(swapped > 100, "only {swapped} other colourings tried");
}

/// An Eulerian walk from `start`, by Fleury-free plain Hierholzer on adjacency lists (written
/// here, apart from the coloring kind's).
fn euler_walk(n: usize, edges: &[(u32, u32)], start: u32) -> Vec<u32> {
    let mut adj: Vec<Vec<(u32, usize)>> = vec![Vec::new(); n];
    for (e, &(a, b)) in edges.iter().enumerate() {
        adj[a as usize].push((b, e));
        adj[b as usize].push((a, e));
    }
    let mut used = vec![false; edges.len()];
    let mut stack = vec![start];
    let mut walk = Vec::new();
    while let Some(&v) = stack.last() {
        match adj[v as usize].iter().rev().find(|(_, e)| !used[*e]) {
            Some(&(w, e)) => {
                used[e] = true;
                stack.push(w);
            }
            None => walk.push(stack.pop().unwrap()),
        }
    }
    walk
}

fn spaced(walk: &[u32]) -> String {
    walk.iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

fn eulerian_items(kind: PuzzleKind) {
    let cfg = spec(kind, |_| {});
    each_item(&cfg, 120, |item| {
        let (_, n, edges) = graph_of(&item.ground_truth);
        let t = &item.ground_truth;
        let stored: Vec<u32> = item.answer.split(' ').map(|w| w.parse().unwrap()).collect();
        assert_eq!(stored.len(), edges.len() + 1);
        let mut degree = vec![0; n];
        for &(a, b) in &edges {
            degree[a as usize] += 1;
            degree[b as usize] += 1;
        }
        let odd: Vec<u32> = (0..n as u32)
            .filter(|&v| degree[v as usize] % 2 == 1)
            .collect();
        let start = match kind {
            PuzzleKind::EulerPath => {
                assert_eq!(odd.len(), 2);
                assert!(odd.contains(&stored[0]) && odd.contains(stored.last().unwrap()));
                assert!(
                    item.question
                        .contains(&format!("Vertices {} and {}", odd[0], odd[1]))
                );
                odd[1]
            }
            _ => {
                assert!(odd.is_empty());
                *edges.last().map(|(a, _)| a).unwrap()
            }
        };
        let other = euler_walk(n, &edges, start);
        assert_eq!(score(&spaced(&other), t), 1.0, "{}", spaced(&other));
        let reversed: Vec<u32> = stored.iter().rev().copied().collect();
        assert_eq!(score(&spaced(&reversed), t), 1.0);
        assert_eq!(
            score(&format!("{stored:?}"), t),
            1.0,
            "bracketed with commas"
        );
        assert_eq!(score(&spaced(&stored[..stored.len() - 1]), t), 0.0);
        let mut twice = stored.clone();
        twice.extend([stored[stored.len() - 2]]);
        assert_eq!(score(&spaced(&twice), t), 0.0, "an edge walked twice");
        // Two inner vertices swapped: only a triangle at the start (w0 = w3) stays a walk.
        if stored.len() >= 4 && stored[0] != stored[3] {
            let mut jumped = stored.clone();
            jumped.swap(1, 2);
            assert_eq!(score(&spaced(&jumped), t), 0.0);
        }
        if kind == PuzzleKind::EulerCycle {
            // The same cycle from its second vertex.
            let mut rotated: Vec<u32> = stored[1..].to_vec();
            rotated.push(stored[1]);
            assert_eq!(score(&spaced(&rotated), t), 1.0);
        } else {
            // A path walked as if it were a cycle question: still scored as a path.
            let as_cycle = t.replace("euler_path", "euler_cycle");
            assert_eq!(score(&spaced(&stored), &as_cycle), 0.0);
        }
    });
}

#[test]
fn eulerian_paths_take_any_walk_through_every_edge_once() {
    eulerian_items(PuzzleKind::EulerPath);
}

#[test]
fn eulerian_cycles_take_any_closed_walk_through_every_edge_once() {
    eulerian_items(PuzzleKind::EulerCycle);
}

#[test]
fn vertex_puzzles_and_traces_are_refused_naming_the_key() {
    let err = |cfg: TaskConfig| match TaskGenerator::new(cfg) {
        Err(e) => e.to_string(),
        Ok(_) => panic!("accepted"),
    };
    let e = err(spec(PuzzleKind::Vertex, |_| {}));
    assert!(e.starts_with("task.coloring.puzzle "), "{e}");
    assert!(!e.contains('\n'));
    let mut traced = spec(PuzzleKind::Edge, |_| {});
    traced.trace = TraceKind::Dsatur;
    assert!(err(traced).starts_with("task.trace "));
    let mut png = spec(PuzzleKind::Edge, |_| {});
    png.renderings = vec![crate::task::config::Rendering::Png];
    assert!(err(png).starts_with("task.renderings "));
    assert!(err(spec(PuzzleKind::Edge, |c| c.colors = 2)).starts_with("coloring.colors "));
    // The default is an edge puzzle.
    let default = TaskConfig {
        task: TaskName::ColoringPuzzle,
        ..TaskConfig::default()
    };
    assert_eq!(puzzle_config(&default).puzzle, PuzzleKind::Edge);
    each_item(&default, 3, |item| {
        assert!(
            item.ground_truth
                .starts_with("{\"task\":\"coloring-puzzle\",\"puzzle\":\"edge\",")
        );
    });
}

#[test]
fn splits_never_share_a_puzzle() {
    // Tiny graphs repeat often within a split, so a shared one would show. (On 3 x 2 cells
    // the cycles fall into so few shapes up to renumbering that one split gets none.)
    let mut seen: Vec<HashSet<String>> = Vec::new();
    for split in Split::ALL {
        let mut cfg = spec(PuzzleKind::EulerCycle, |c| (c.width, c.height) = (3, 3));
        cfg.split = split;
        let mut puzzles = HashSet::new();
        each_item(&cfg, 300, |item| {
            assert!(in_split(item.identity, split));
            puzzles.insert(item.ground_truth.clone());
        });
        seen.push(puzzles);
    }
    let repeats = 3 * 300 - seen.iter().map(HashSet::len).sum::<usize>();
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
fn verify_refuses_tampered_items() {
    let g = TaskGenerator::new(spec(PuzzleKind::Edge, |_| {})).unwrap();
    let mut s = g.new_scratch();
    g.item(1, mix(5, 1), &mut s).unwrap();
    let item = &s.item;
    let check = |question: &str, truth: &str, dst: &[u32], metrics: &[f64]| {
        let extra = [
            crate::core::generator::ExtraValue::Utf8(question),
            crate::core::generator::ExtraValue::Utf8(&item.answer),
            crate::core::generator::ExtraValue::Utf8(truth),
        ];
        let level = crate::core::generator::Level {
            graph: Some(crate::core::generator::GraphView {
                x: &item.x,
                y: &item.y,
                tag: &[],
                src: &item.src,
                dst,
                flags: &item.flags,
            }),
            metrics,
            extra: &extra,
            ..Default::default()
        };
        g.verify(&LevelRecord {
            index: 1,
            seed: 0,
            level,
        })
    };
    let (q, t, m) = (&item.question, &item.ground_truth, &item.metrics);
    check(q, t, &item.dst, m).unwrap();
    assert!(
        check(
            &q.replace("Edges per color", "Edges per colour"),
            t,
            &item.dst,
            m
        )
        .is_err()
    );
    let mut dst = item.dst.clone();
    dst[0] = (dst[0] + 1) % item.x.len() as u32;
    assert!(check(q, t, &dst, m).is_err());
    let mut metrics = m.clone();
    metrics[4] += 1.0;
    assert!(check(q, t, &item.dst, &metrics).is_err());
    // A quota moved from one colour to another: the question no longer matches, and the
    // stored answer no longer scores.
    let (v, _, _) = graph_of(t);
    let quota = numbers(&v["quota"]);
    let mut moved = quota.clone();
    moved[0] += 1;
    moved[1] = moved[1].wrapping_sub(1);
    let fmt = |q: &[u32]| format!("\"quota\":{q:?}").replace(' ', "");
    let t2 = t.replace(&fmt(&quota), &fmt(&moved));
    assert_ne!(&t2, t);
    assert!(check(q, &t2, &item.dst, m).is_err());
    assert_eq!(score(&item.answer, &t2), 0.0);
}

#[test]
fn hostile_answers_score_zero() {
    let edge = r#"{"task":"coloring-puzzle","puzzle":"edge","n":3,"edges":[[0,1],[1,2]],"k":3,"vertex_colors":[1,2,3],"quota":[0,0,2]}"#;
    let walk =
        r#"{"task":"coloring-puzzle","puzzle":"euler_cycle","n":3,"edges":[[0,1],[1,2],[0,2]]}"#;
    assert_eq!(score(r#"{"0": 3, "1": 1}"#, edge), 0.0, "quota");
    assert_eq!(
        score(r#"{"0": 3, "1": 3}"#, edge),
        0.0,
        "edge 1 has vertex 2's colour"
    );
    let edge_ok = edge.replace("[0,0,2]", "[1,0,1]");
    assert_eq!(score(r#"{"0": 3, "1": 1}"#, &edge_ok), 1.0);
    assert_eq!(score("[3, 1]", &edge_ok), 1.0);
    assert_eq!(score("0 1 2 0", walk), 1.0);
    assert_eq!(score("2, 1, 0, 2", walk), 1.0);
    let mut rng = WarrenRng::new(13);
    let mut hostile: Vec<String> = vec![
        "{\"0\":".repeat(100_000),
        "[".repeat(100_000),
        "0 ".repeat(100_000),
        format!("{{\"0\": {}, \"1\": 1}}", "9".repeat(5000)),
        r#"{"0": -3, "1": 1}"#.into(),
        r#"{"0": [3], "1": [[1]]}"#.into(),
        "[3, 1, 2]".into(),
        "0 1 2 0 1".into(),
        "0 1 2 3".into(),
        "0 1 2 -0".into(),
        "٠ ١ ٢ ٠".into(),
        "9".repeat(MAX_ANSWER_BYTES + 1),
    ];
    for len in [1, 7, 100, 10_000] {
        let bytes: Vec<u8> = (0..len).map(|_| rng.below(256) as u8).collect();
        hostile.push(String::from_utf8_lossy(&bytes).into_owned());
    }
    for a in &hostile {
        let shown: String = a.chars().take(40).collect();
        for t in [edge, walk, edge_ok.as_str()] {
            assert_eq!(score_any(a, t), 0.0, "{shown} against {t}");
        }
    }
    for t in [
        r#"{"task":"coloring-puzzle","puzzle":"vertex","n":3,"edges":[[0,1]]}"#,
        r#"{"task":"coloring-puzzle","puzzle":"euler_cycle","n":3,"edges":[]}"#,
        r#"{"task":"coloring-puzzle","puzzle":"euler_cycle","n":2,"edges":[[0,1],[1,7]]}"#,
        r#"{"task":"coloring-puzzle","puzzle":"edge","n":3,"edges":[[0,9]],"k":3,"vertex_colors":[1,2,3],"quota":[0,0,1]}"#,
        r#"{"task":"coloring-puzzle","puzzle":"edge","n":3,"edges":[[0,1]],"k":3,"vertex_colors":[1,2,3],"quota":[1]}"#,
        r#"{"task":"coloring-puzzle","puzzle":"edge","n":99999999,"edges":[],"k":3}"#,
    ] {
        for a in ["0 1", "{\"0\": 3}", "[3]", "{}"] {
            assert_eq!(score(a, t), 0.0, "{a} against {t}");
        }
    }
}
