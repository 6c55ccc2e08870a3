//! Round trips of every rendering (render, then parse the whole question, gives the same
//! puzzle) on hand-made edge cases, random small grids and real task items; and the parsers'
//! answer to random and mutated text: an error, never a panic.

use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::core::rng::{WarrenRng, mix};
use crate::core::route::walkable;
use crate::task::config::{GridSource, Rendering, TaskConfig, TaskName};
use crate::task::grid::GridPuzzle;
use crate::task::item::ItemOut;
use crate::task::maze::write_question;
use crate::task::metrics::GridTaskMetrics;
use crate::task::render::{Glyphs, parse};
use crate::task::{TaskGenerator, TaskScratch};

/// A puzzle from rows of `#` (wall), `S`, `G` and any other character (open).
pub fn puzzle(rows: &[&str]) -> GridPuzzle {
    let mut p = GridPuzzle {
        rows: rows.len() as u32,
        cols: rows[0].len() as u32,
        ..GridPuzzle::default()
    };
    for (r, row) in rows.iter().enumerate() {
        assert_eq!(row.len() as u32, p.cols, "ragged test grid");
        for (c, ch) in row.chars().enumerate() {
            p.open.push(ch != '#');
            let at = (r as u32, c as u32);
            match ch {
                'S' => p.start = at,
                'G' => p.goal = at,
                _ => {}
            }
        }
    }
    p
}

/// The edge cases: one row, one column, start next to goal, isolated open cells, open cells on
/// every border, no walls, walls everywhere but the ends.
fn hand_made() -> Vec<GridPuzzle> {
    [
        &["SG"][..],
        &["GS"],
        &["S.G"],
        &["S#.#G"],
        &["S", ".", "G"],
        &["S", "#", "G"],
        &["SG", ".."],
        &["S.", "G#"],
        &["S...G"],
        &["S#G", "###", "#.#"],
        &[".#.#.", "#S#G#", ".#.#."],
        &["..S..", ".....", "..G.."],
        &["#####", "#S#G#", "#####"],
        &["S.#..", "#.#.#", "..#.G"],
        &["#.###", "#S..#", "###.#", "#G..#", "#.###"],
        &["....#....", "S###.###G", "#.......#"],
    ]
    .iter()
    .map(|rows| puzzle(rows))
    .collect()
}

/// Random small grids (1 to 12 cells a side, about a third walls) with distinct open ends.
fn random_puzzles(n: u64) -> Vec<GridPuzzle> {
    (0..n)
        .map(|i| {
            let mut rng = WarrenRng::new(mix(11, i));
            let rows = 1 + rng.below(12);
            let cols = 1 + rng.below(12).max(u32::from(rows == 1));
            let cells = (rows * cols) as usize;
            let mut p = GridPuzzle {
                rows,
                cols,
                open: (0..cells).map(|_| rng.below(3) != 0).collect(),
                ..GridPuzzle::default()
            };
            let s = rng.below(cells as u32) as usize;
            let g = (s + 1 + rng.below(cells as u32 - 1) as usize) % cells;
            p.open[s] = true;
            p.open[g] = true;
            p.start = ((s as u32) / cols, (s as u32) % cols);
            p.goal = ((g as u32) / cols, (g as u32) % cols);
            p
        })
        .collect()
}

/// The whole question of `p` in rendering `r`, as a maze task writes it, with its image.
fn question(task: TaskName, r: Rendering, glyphs: &Glyphs, p: &GridPuzzle) -> ItemOut {
    let mut out = ItemOut::default();
    write_question(task, "maze", r, glyphs, p, &mut out);
    out
}

#[test]
fn every_rendering_reads_back_hand_made_and_random_puzzles() {
    let mut rng = WarrenRng::new(5);
    for p in hand_made().into_iter().chain(random_puzzles(300)) {
        for r in Rendering::ALL {
            for task in [TaskName::MazeSteps, TaskName::MazePath] {
                let glyphs = Glyphs::draw(&mut rng);
                let q = question(task, r, &glyphs, &p);
                assert_eq!(r == Rendering::Png, !q.image.is_empty());
                let read = parse(r, &q.question, &q.image);
                assert_eq!(read.as_ref(), Ok(&p), "{}:\n{}", r.name(), q.question);
            }
        }
    }
}

/// The puzzle an item stores: its grid's walkable cells and the ends in its metrics (what
/// `verify` compares the question with).
fn stored(item: &ItemOut) -> GridPuzzle {
    let m = GridTaskMetrics::from_values(&item.metrics).expect("a grid task's metric row");
    GridPuzzle {
        rows: item.grid.height,
        cols: item.grid.width,
        open: item.grid.cells.iter().map(|&c| walkable(c)).collect(),
        start: (m.start_row, m.start_col),
        goal: (m.goal_row, m.goal_col),
    }
}

/// Items `0..n` of `cfg` with each rendering alone read back into their stored puzzles.
fn real_items_read_back(cfg: &TaskConfig, n: u64) {
    for r in Rendering::ALL {
        let generator = TaskGenerator::new(TaskConfig {
            renderings: vec![r],
            ..cfg.clone()
        })
        .expect("a valid task spec");
        let mut scratch = TaskScratch::default();
        for i in 0..n {
            generator
                .item(i, mix(7, i), &mut scratch)
                .expect("the item is made");
            let item = &scratch.item;
            let read = parse(r, &item.question, &item.image);
            assert_eq!(
                read.as_ref(),
                Ok(&stored(item)),
                "{} item {i}:\n{}",
                r.name(),
                item.question
            );
        }
    }
}

#[test]
fn maze_items_read_back_in_every_rendering() {
    real_items_read_back(&TaskConfig::default(), 500);
}

#[test]
fn maze_path_and_dungeon_items_read_back_in_every_rendering() {
    let path = TaskConfig {
        task: TaskName::MazePath,
        infeasible_share: 0.3,
        square: false,
        min_rows: 3,
        max_rows: 25,
        min_cols: 3,
        max_cols: 41,
        ..TaskConfig::default()
    };
    real_items_read_back(&path, 100);
    let dungeon = TaskConfig {
        task: TaskName::GridSteps,
        source: GridSource::Dmg,
        ..TaskConfig::default()
    };
    real_items_read_back(&dungeon, 20);
}

/// Characters the mutations insert: the renderings' own and a few strangers.
const ALPHABET: &[u8] = b"()<>,;#.SG 0123456789\n-_ADJLISTEOWx\xc3\xa9";

/// `text` changed in one to four random places (a byte changed, removed, inserted or
/// repeated, or the text cut), kept valid UTF-8.
fn mutate(text: &str, rng: &mut WarrenRng) -> String {
    let mut b = text.as_bytes().to_vec();
    for _ in 0..=rng.below(4) {
        let at = rng.below(b.len() as u32 + 1) as usize;
        let byte = ALPHABET[rng.below(ALPHABET.len() as u32) as usize];
        match rng.below(5) {
            0 if at < b.len() => b[at] = byte,
            1 if at < b.len() => {
                b.remove(at);
            }
            2 => b.insert(at, byte),
            3 if at < b.len() => {
                let end = (at + 1 + rng.below(12) as usize).min(b.len());
                let piece = b[at..end].to_vec();
                b.splice(at..at, piece);
            }
            _ => b.truncate(at),
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

/// Random text of up to 300 characters from [`ALPHABET`] and printable ASCII.
fn random_text(rng: &mut WarrenRng) -> String {
    let len = rng.below(300) as usize;
    let bytes: Vec<u8> = (0..len)
        .map(|_| {
            if rng.below(2) == 0 {
                ALPHABET[rng.below(ALPHABET.len() as u32) as usize]
            } else {
                32 + rng.below(95) as u8
            }
        })
        .collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Parses without letting a panic escape: the input is named when one happens.
fn parse_or_report(r: Rendering, text: &str, image: &[u8]) -> Result<GridPuzzle, String> {
    catch_unwind(AssertUnwindSafe(|| parse(r, text, image)))
        .unwrap_or_else(|_| panic!("{} parser panicked on {text:?}", r.name()))
        .map_err(|e| e.0)
}

#[test]
fn parsers_refuse_random_and_mutated_text_without_panicking() {
    let mut rng = WarrenRng::new(99);
    let sources: Vec<GridPuzzle> = hand_made().into_iter().chain(random_puzzles(20)).collect();
    for r in Rendering::ALL {
        let (mut refused, mut read) = (0, 0);
        for i in 0..10_000u32 {
            let p = &sources[i as usize % sources.len()];
            let q = question(TaskName::MazePath, r, &Glyphs::draw(&mut rng), p);
            if i % 4 == 0 {
                let text = random_text(&mut rng);
                assert!(parse_or_report(r, &text, &q.image).is_err(), "{text:?}");
                continue;
            }
            let mut image = q.image.clone();
            let text = if r == Rendering::Png && i % 3 == 0 {
                let at = rng.below(image.len() as u32) as usize;
                image[at] = rng.next_u64() as u8;
                q.question.clone()
            } else {
                mutate(&q.question, &mut rng)
            };
            match parse_or_report(r, &text, &image) {
                Err(_) => refused += 1,
                // A change outside the rendering's block (or a harmless one within it) still
                // reads; what it reads must be a puzzle the rendering writes back the same.
                Ok(back) => {
                    read += 1;
                    let again = question(TaskName::MazePath, r, &Glyphs::default(), &back);
                    let twice = parse_or_report(r, &again.question, &again.image);
                    assert_eq!(twice.as_ref(), Ok(&back), "{} read {text:?}", r.name());
                }
            }
        }
        assert!(
            refused > 1000 && read > 100,
            "{}: {refused} refused, {read} read",
            r.name()
        );
    }
}
