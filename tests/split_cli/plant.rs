//! A symmetric copy planted in a split is found and named: each kind's run is split, the
//! splits are proven disjoint (`verify --disjoint`: 0 exact and 0 canonical overlaps), then a
//! copy of a `train` level is appended to `test`, mirrored (a grid kind: its columns reversed)
//! or renumbered (a graph kind: its vertices in reverse order), its hashes computed by the
//! library as a run computes them, and `--disjoint` must name exactly that pair.
//!
//! At `cargo test` size the runs are small. `WARREN_SPLIT_SCALE=full` runs 1,000,000 levels
//! per kind (200,000 grammar levels) with the binary `WARREN_BIN` names (a release build) and prints the figures:
//!
//! ```text
//! cargo build --release
//! WARREN_SPLIT_SCALE=full WARREN_BIN=target/release/warren \
//!     cargo test --release --test tests planted -- --nocapture --test-threads 1
//! ```

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use warren::archive::{Archive, ArchiveWriter, BatchView, ChunkBuilder, RunMeta};
use warren::core::generator::{GraphView, Level};
use warren::profile::GeneratorTask;
use warren::run::Run;
use warren::{Generator, GridView};

use crate::common::{TempDir, stderr, stdout, warren_bin};

fn full_scale() -> bool {
    std::env::var("WARREN_SPLIT_SCALE").is_ok_and(|v| v == "full")
}

fn run_warren(args: &[&str]) -> std::process::Output {
    let bin = match std::env::var("WARREN_BIN") {
        Ok(path) if full_scale() => path,
        _ => warren_bin().to_string(),
    };
    Command::new(bin).args(args).output().expect("warren runs")
}

/// Appends to `test` (written as `out`) a copy of the first `train` level whose copy differs
/// from it: mirrored left to right, or with its vertices renumbered in reverse.
struct Plant<'a> {
    train: &'a Archive,
    test: &'a Archive,
    out: &'a Path,
}

/// What was planted: the train level's index and the copy's.
type Planted = (u64, u64);

impl GeneratorTask for Plant<'_> {
    type Output = Planted;

    fn run<G: Generator>(self, generator: &G) -> Planted {
        let columns = generator.columns();
        let batch = self.train.batch(0).unwrap();
        let view = BatchView::new(&batch, &self.train.columns().unwrap()).unwrap();
        let schema = self.test.schema().clone();
        let mut writer = ArchiveWriter::create(self.out, &schema).unwrap();
        let mut last = 0;
        // Every split holds levels: one canonical hash for the whole run (as a map's graph
        // identity once was) would leave `test` empty.
        assert!(self.test.batch_count() > 0, "the test split is empty");
        for b in 0..self.test.batch_count() {
            let batch = self.test.batch(b).unwrap();
            let view = BatchView::new(&batch, &self.test.columns().unwrap()).unwrap();
            last = last.max(view.index(view.rows() - 1));
            writer.write(&batch).unwrap();
        }
        let (mut metrics, mut extra) = (Vec::new(), Vec::new());
        for row in 0..view.rows() {
            let record = view.record(row, &mut metrics, &mut extra);
            let level = record.level;
            let (cells, graph);
            // A grid identity's level without a grid is known by its graph.
            let grid = level.grid.filter(|_| !is_graph_identity(generator));
            let copy = if let Some(g) = grid {
                cells = mirrored(&g);
                Level {
                    grid: Some(GridView { cells: &cells, ..g }),
                    ..level
                }
            } else {
                graph = renumbered(&level.graph.expect("a level with a grid or a graph"));
                Level {
                    graph: Some(graph.view()),
                    ..level
                }
            };
            let mut builder = ChunkBuilder::new(schema.clone(), columns, 1);
            builder.push(last + 1, record.seed, &copy);
            let planted = builder.finish().unwrap();
            let original = view.canonical_hash(row).unwrap();
            let planted_view = BatchView::new(&planted, &self.test.columns().unwrap()).unwrap();
            if planted_view.layout_hash(0) == view.layout_hash(row) {
                continue; // a level equal to its own copy: take the next one
            }
            assert_eq!(planted_view.canonical_hash(0), Some(original));
            writer.write(&planted).unwrap();
            writer.finish(&[]).unwrap();
            return (view.index(row), last + 1);
        }
        panic!("no level of train differs from its copy");
    }
}

fn is_graph_identity<G: Generator>(generator: &G) -> bool {
    generator.columns().identity == warren::core::generator::Identity::Graph
}

/// The grid mirrored left to right.
fn mirrored(g: &GridView<'_>) -> Vec<u8> {
    let (w, h) = (g.width as usize, g.height as usize);
    let mut out = vec![0; w * h];
    for r in 0..h {
        for c in 0..w {
            out[r * w + c] = g.cells[r * w + (w - 1 - c)];
        }
    }
    out
}

/// A graph with its vertices renumbered in reverse order (edges in the same order).
struct Owned {
    x: Vec<f32>,
    y: Vec<f32>,
    tag: Vec<u16>,
    src: Vec<u32>,
    dst: Vec<u32>,
    flags: Vec<u8>,
}

impl Owned {
    fn view(&self) -> GraphView<'_> {
        GraphView {
            x: &self.x,
            y: &self.y,
            tag: &self.tag,
            src: &self.src,
            dst: &self.dst,
            flags: &self.flags,
        }
    }
}

fn renumbered(g: &GraphView<'_>) -> Owned {
    let n = g.x.len() as u32;
    let rev = |v: &[f32]| v.iter().rev().copied().collect::<Vec<_>>();
    Owned {
        x: rev(g.x),
        y: rev(g.y),
        tag: g.tag.iter().rev().copied().collect(),
        src: g.src.iter().map(|&s| n - 1 - s).collect(),
        dst: g.dst.iter().map(|&d| n - 1 - d).collect(),
        flags: g.flags.to_vec(),
    }
}

/// Generates `count` levels of `kind` (with `sets`), splits them, proves the splits disjoint,
/// plants a copy and checks `--disjoint` names it.
fn split_plant_and_find(name: &str, kind: &str, sets: &[&str], count: u64) {
    let dir = TempDir::new(name);
    let all = dir.join("all.arrow");
    let started = Instant::now();
    let count_text = count.to_string();
    let mut args = vec!["generate", kind, "--quiet", "--count", &count_text];
    args.extend_from_slice(sets);
    let all_text = all.to_str().unwrap().to_string();
    args.extend_from_slice(&["--out", &all_text]);
    let out = run_warren(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let generated = started.elapsed();
    let parts = dir.join("parts");
    let out = run_warren(&[
        "split",
        &all_text,
        "--out",
        parts.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    std::fs::remove_file(&all).unwrap();
    let path = |n: &str| -> PathBuf { parts.join(format!("{n}.arrow")) };
    let text = |p: PathBuf| p.to_str().unwrap().to_string();
    let (train, val, test) = (text(path("train")), text(path("val")), text(path("test")));
    let started = Instant::now();
    let out = run_warren(&["verify", "--disjoint", &train, &val, &test]);
    let proof = started.elapsed();
    assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));
    assert!(
        stdout(&out).contains("0 exact and 0 canonical overlaps"),
        "{}",
        stdout(&out)
    );
    let planted_path = parts.join("test-planted.arrow");
    let (train_a, test_a) = (
        Archive::open(&path("train")).unwrap(),
        Archive::open(&path("test")).unwrap(),
    );
    let meta = RunMeta::from_schema(train_a.schema()).unwrap();
    let (from, to) = Run::from_meta(meta, &train)
        .unwrap()
        .with_generator(Plant {
            train: &train_a,
            test: &test_a,
            out: &planted_path,
        })
        .unwrap();
    drop((train_a, test_a));
    let planted = text(planted_path);
    let out = run_warren(&["verify", "--disjoint", &train, &val, &planted]);
    let report = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{report}{}", stderr(&out));
    assert!(
        report.contains("0 exact and 1 canonical overlaps"),
        "{report}"
    );
    let named = report
        .lines()
        .find(|l| l.starts_with("canonical_hash"))
        .unwrap_or_else(|| panic!("no overlap named: {report}"));
    assert!(
        named.contains(&format!("level {from}")) && named.contains(&format!("level {to}")),
        "{named}: not train level {from} and planted level {to}"
    );
    if full_scale() {
        println!(
            "{kind}: {count} levels generated in {:.1} s; --disjoint over the 3 splits {:.1} s: \
             0 exact, 0 canonical overlaps; planted copy of train level {from} found: {named}",
            generated.as_secs_f64(),
            proof.as_secs_f64()
        );
    }
}

/// Levels per kind: 1,000,000 at full scale.
fn count(small: u64) -> u64 {
    count_up_to(small, 1_000_000)
}

/// `small` levels, or `full` at full scale.
fn count_up_to(small: u64, full: u64) -> u64 {
    if full_scale() { full } else { small }
}

#[test]
fn planted_mirror_in_a_maze_split_is_found_and_named() {
    let sets = ["--set", "maze.width=8", "--set", "maze.height=8"];
    split_plant_and_find("plant-maze", "maze", &sets, count(3_000));
}

#[test]
fn planted_mirror_in_a_dmg_split_is_found_and_named() {
    // A 50 x 50 floor: a million levels fit this machine's disk twice over.
    let sets = ["--set", "dmg.width=50", "--set", "dmg.height=50"];
    split_plant_and_find("plant-dmg", "dmg", &sets, count(1_000));
}

#[test]
fn planted_mirror_in_a_regions_split_is_found_and_named() {
    // One level of zoom: 5 KB a level instead of 69 KB.
    let sets = ["--set", "regions.depth=1"];
    split_plant_and_find("plant-regions", "regions", &sets, count(1_000));
}

#[test]
fn planted_mirror_in_a_map_split_is_found_and_named() {
    // 16 KB a level: zstd-compressed (the split keeps it) a million fit the disk twice.
    let sets = ["--compression", "zstd"];
    split_plant_and_find("plant-map", "map", &sets, count(300));
}

#[test]
fn planted_renumbering_in_a_grammar_split_is_found_and_named() {
    // 30 KB a level at 760 levels/s on 2 cores: 200,000 at full scale, compressed.
    let sets = ["--compression", "zstd"];
    split_plant_and_find("plant-grammar", "grammar", &sets, count_up_to(200, 200_000));
}

#[test]
fn planted_renumbering_in_a_coloring_split_is_found_and_named() {
    split_plant_and_find("plant-coloring", "coloring", &[], count(1_000));
}
