//! The task items against oracles written here, independent of `src/task`: every stored answer
//! equals what this file's own glyph reader and breadth-first search find in the question
//! text; oracle answers score 1 and wrong ones less; the answer balance and the infeasible
//! share are as asked; splits and seeds do not share puzzles; hostile answers never panic.
//! `WARREN_TASK_SCALE=full` runs 100,000 items per task and 10^6 hostile strings per scorer
//! (a release build: `cargo test --release --test tests task_oracle`).

use std::collections::{HashMap, HashSet, VecDeque};

use warren::mix;
use warren::task::{Split, TaskConfig, TaskGenerator, TaskName, TaskScratch, score, score_task};

/// Items per task: a few thousand, or 100,000 with `WARREN_TASK_SCALE=full`.
fn scale(small: u64) -> u64 {
    if std::env::var("WARREN_TASK_SCALE").as_deref() == Ok("full") {
        100_000
    } else {
        small
    }
}

/// The grid a question shows, read with the legend it states: rows of `#`/`.`, start, goal.
struct Shown {
    cells: Vec<Vec<bool>>,
    start: (usize, usize),
    goal: (usize, usize),
}

fn read_question(q: &str) -> Shown {
    let legend = q
        .lines()
        .find(|l| l.starts_with("Legend: "))
        .expect("a legend");
    let glyphs: Vec<char> = legend
        .split('\'')
        .skip(1)
        .step_by(2)
        .map(|s| s.chars().next().unwrap())
        .collect();
    let (wall, start, goal) = (glyphs[0], glyphs[2], glyphs[3]);
    let body = q.split("\n\n").nth(2).expect("the grid block");
    let mut shown = Shown {
        cells: Vec::new(),
        start: (0, 0),
        goal: (0, 0),
    };
    for (r, line) in body.lines().enumerate() {
        let mut row = Vec::new();
        for (c, ch) in line.chars().enumerate() {
            row.push(ch != wall);
            if ch == start {
                shown.start = (r, c);
            }
            if ch == goal {
                shown.goal = (r, c);
            }
        }
        shown.cells.push(row);
    }
    shown
}

/// Breadth-first distance from start to goal, `None` when unreachable.
fn bfs(s: &Shown) -> Option<usize> {
    let (h, w) = (s.cells.len(), s.cells[0].len());
    let mut dist = vec![vec![usize::MAX; w]; h];
    let mut queue = VecDeque::from([s.start]);
    dist[s.start.0][s.start.1] = 0;
    while let Some((r, c)) = queue.pop_front() {
        let d = dist[r][c];
        for (dr, dc) in [(-1i64, 0i64), (1, 0), (0, -1), (0, 1)] {
            let (nr, nc) = (r as i64 + dr, c as i64 + dc);
            if nr < 0 || nc < 0 || nr >= h as i64 || nc >= w as i64 {
                continue;
            }
            let (nr, nc) = (nr as usize, nc as usize);
            if s.cells[nr][nc] && dist[nr][nc] == usize::MAX {
                dist[nr][nc] = d + 1;
                queue.push_back((nr, nc));
            }
        }
    }
    Some(dist[s.goal.0][s.goal.1]).filter(|&d| d != usize::MAX)
}

/// Where a list of moves ends, `None` when it crosses a wall or leaves the grid.
fn walk(s: &Shown, moves: &str) -> Option<((usize, usize), usize)> {
    let (mut r, mut c) = (s.start.0 as i64, s.start.1 as i64);
    let mut n = 0;
    for m in moves.split_whitespace() {
        let (dr, dc) = match m {
            "up" => (-1, 0),
            "down" => (1, 0),
            "left" => (0, -1),
            "right" => (0, 1),
            _ => return None,
        };
        r += dr;
        c += dc;
        if r < 0 || c < 0 || r as usize >= s.cells.len() || c as usize >= s.cells[0].len() {
            return None;
        }
        if !s.cells[r as usize][c as usize] {
            return None;
        }
        n += 1;
    }
    Some(((r as usize, c as usize), n))
}

fn items(cfg: TaskConfig, seed: u64, n: u64) -> Vec<(String, String, String)> {
    let g = TaskGenerator::new(cfg).expect("valid spec");
    let mut s: TaskScratch = warren::Generator::new_scratch(&g);
    (0..n)
        .map(|i| {
            g.item(i, mix(seed, i), &mut s).expect("the item generates");
            (
                s.item.question.clone(),
                s.item.answer.clone(),
                s.item.ground_truth.clone(),
            )
        })
        .collect()
}

#[test]
fn maze_steps_answers_are_the_shortest_distance_in_the_question() {
    let n = scale(3_000);
    for cfg in [
        TaskConfig::default(),
        TaskConfig {
            braid: 0.5,
            min_rows: 15,
            max_rows: 31,
            min_cols: 15,
            max_cols: 31,
            min_dist: Some(10),
            max_dist: Some(60),
            ..TaskConfig::default()
        },
    ] {
        for (q, a, t) in items(cfg, 3, n) {
            let d = bfs(&read_question(&q)).expect("maze-steps items are solvable");
            assert_eq!(a, d.to_string(), "{q}");
            assert_eq!(score(&a, &t), 1.0);
            assert!(score(&(d + 1).to_string(), &t) < 1.0);
        }
    }
}

#[test]
fn maze_path_answers_walk_a_shortest_way_and_infeasible_ones_are() {
    let n = scale(3_000);
    let cfg = TaskConfig {
        task: TaskName::MazePath,
        infeasible_share: 0.2,
        braid: 0.3,
        ..TaskConfig::default()
    };
    let mut infeasible = 0;
    for (q, a, t) in items(cfg, 4, n) {
        let shown = read_question(&q);
        match bfs(&shown) {
            None => {
                infeasible += 1;
                assert_eq!(a, "infeasible");
            }
            Some(d) => {
                let (end, steps) = walk(&shown, &a).expect("the answer walks open cells");
                assert_eq!((end, steps), (shown.goal, d), "{q}\n{a}");
                // A detour (one step back and forth first) is valid but longer: 0.5.
                let first = a.split_whitespace().next().unwrap();
                let back = match first {
                    "up" => "down",
                    "down" => "up",
                    "left" => "right",
                    _ => "left",
                };
                assert_eq!(score(&format!("{first} {back} {a}"), &t), 0.5);
                assert_eq!(score("infeasible", &t), 0.0);
            }
        }
        assert_eq!(score(&a, &t), 1.0);
    }
    assert_eq!(
        infeasible,
        (n as f64 * 0.2).floor() as u64,
        "exactly the asked share"
    );
}

#[test]
fn grid_steps_answers_are_the_shortest_distance_for_every_grid_kind() {
    for source in ["dmg", "regions", "grammar", "map"] {
        let cfg: TaskConfig =
            toml::from_str(&format!("task = \"grid-steps\"\nsource = \"{source}\"")).unwrap();
        for (q, a, t) in items(cfg, 5, scale(40).min(10_000)) {
            let d = bfs(&read_question(&q)).expect("solvable");
            assert_eq!(a, d.to_string(), "{source}");
            assert_eq!(score(&a, &t), 1.0);
        }
    }
}

#[test]
fn no_answer_is_commoner_than_the_band_allows() {
    let top = |cfg: TaskConfig, n| {
        let mut counts: HashMap<String, u64> = HashMap::new();
        for (_, a, _) in items(cfg, 6, n) {
            *counts.entry(a).or_default() += 1;
        }
        *counts.values().max().unwrap() as f64 / n as f64
    };
    // 20 distances: each exactly 5% of 20,000 items (every block of 20 items takes each once).
    let wide = TaskConfig {
        min_rows: 15,
        max_rows: 25,
        min_cols: 15,
        max_cols: 25,
        min_dist: Some(10),
        max_dist: Some(29),
        ..TaskConfig::default()
    };
    let share = top(wide, 20_000);
    assert!(share <= 0.05, "top answer share {share}");
    // reasoning-gym's default band has 6 values: the best possible top share is 1/6.
    let share = top(TaskConfig::default(), 6_000);
    assert!(share <= 1.0 / 6.0 + 1e-9, "top answer share {share}");
}

/// A puzzle's identity as this file sees it: the grid with normalised glyphs.
fn puzzle_key(q: &str) -> String {
    let s = read_question(q);
    let mut key = format!("{:?}{:?}", s.start, s.goal);
    for row in &s.cells {
        key.extend(row.iter().map(|&o| if o { '.' } else { '#' }));
        key.push('/');
    }
    key
}

#[test]
fn splits_never_share_a_puzzle_and_seeds_are_not_shifted_copies() {
    let n = 2_000;
    let of = |split, seed| -> HashSet<String> {
        let cfg = TaskConfig {
            split,
            ..TaskConfig::default()
        };
        items(cfg, seed, n)
            .iter()
            .map(|(q, _, _)| puzzle_key(q))
            .collect()
    };
    let (train, val, test) = (
        of(Split::Train, 1),
        of(Split::Validation, 1),
        of(Split::Test, 1),
    );
    assert_eq!(train.intersection(&val).count(), 0);
    assert_eq!(train.intersection(&test).count(), 0);
    assert_eq!(val.intersection(&test).count(), 0);
    // Another seed's validation split: still disjoint from this seed's training split.
    assert_eq!(train.intersection(&of(Split::Validation, 2)).count(), 0);
    // Where the puzzle space is large, two seeds of one split share nothing; reasoning-gym's
    // seed + i scheme shares 1,999 of 2,000.
    let big = |seed| -> HashSet<(String, String)> {
        let cfg = TaskConfig {
            min_rows: 11,
            max_rows: 21,
            min_cols: 11,
            max_cols: 21,
            ..TaskConfig::default()
        };
        items(cfg, seed, n)
            .into_iter()
            .map(|(q, a, _)| (q, a))
            .collect()
    };
    assert_eq!(big(1).intersection(&big(2)).count(), 0);
}

#[test]
fn hostile_answers_score_in_range_and_never_panic() {
    let n = if std::env::var("WARREN_TASK_SCALE").as_deref() == Ok("full") {
        1_000_000
    } else {
        20_000
    };
    let mut state = 0x5EED_u64;
    let mut next = move || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z ^ (z >> 27)
    };
    for task in [TaskName::MazeSteps, TaskName::MazePath] {
        let cfg = TaskConfig {
            task,
            ..TaskConfig::default()
        };
        let (_, answer, truth) = items(cfg, 9, 1).remove(0);
        let pieces = [
            "up",
            "down",
            "left",
            "right",
            "infeasible",
            "{",
            "}",
            "[",
            "]",
            "\"",
            ",",
            "\\u0000",
            "12",
            "-1",
            "1e999",
            " ",
            "\n",
            "é",
            "🦀",
            "\u{0}",
            "NaN",
            &answer,
        ];
        for i in 0..n {
            let mut a = String::new();
            let len = next() % 40;
            for _ in 0..len {
                a.push_str(pieces[(next() % pieces.len() as u64) as usize]);
            }
            if i % 97 == 0 {
                // Raw bytes made text the way a tokenizer's decode would.
                let bytes: Vec<u8> = (0..next() % 300).map(|_| next() as u8).collect();
                a = String::from_utf8_lossy(&bytes).into_owned();
            }
            let s = score_task(task, &a, &truth);
            assert!((0.0..=1.0).contains(&s), "{task:?} {a:?} -> {s}");
        }
        let deep = "[".repeat(100_000);
        assert_eq!(score_task(task, &deep, &truth), 0.0);
        let huge = "up ".repeat(2_000_000);
        assert_eq!(score_task(task, &huge, &truth), 0.0, "over the length cap");
    }
}
