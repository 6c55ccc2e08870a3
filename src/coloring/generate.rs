//! [`ColoringGenerator`]: the `coloring` generator kind, GraphColoring puzzle levels (seed 002)
//! from [`build_puzzle`] stored in an archive: the graph, the level's XML, its solution and its
//! metrics.
//!
//! Seed 002 is a file format, so the archive layout is this module's decision:
//!
//! - **graph columns**: `vertex_x`, `vertex_y` are the level's pixel positions (whole numbers),
//!   `edge_src`, `edge_dst` the level's edges in file order (vertex `i` is the level's `v{i}`),
//!   `edge_flags` all 0 (no generator bits: every edge is a plain edge of the level), and
//!   `vertex_tag` the vertex's start color as an index into the level's `<colors>`, so the tag
//!   names (`warren.tags`) are the palette: gray then k colors for vertex and edge puzzles
//!   (clues and the edge puzzles' fixed vertex colors show as tags), one color for Eulerian ones;
//! - **`level_xml`** (utf8): the level file, exactly what `warren levelxml export` writes;
//! - **the solution**: `solution` (`list<u8>`, a palette index per vertex or per edge, 0 = the
//!   first color after gray) for vertex and edge puzzles; `walk` (`list<u32>`, edge indices in
//!   walking order) for Eulerian puzzles, whose edge indices do not fit a byte. The columns
//!   follow the profile's `puzzle`, so an archive never holds a column of junk;
//! - **metrics**: see [`COLORING_METRICS`].
//!
//! `layout_hash` is the content hash of every column ([`crate::core::hash::level_hash`]): the
//! graph, the XML (which holds the whole level; `verify` checks the graph columns against it)
//! and the solution.

use bumpalo::Bump;

use crate::coloring::config::ColoringConfig;
use crate::coloring::metrics::{COLORING_METRICS, metric_values};
use crate::coloring::puzzle::{Puzzle, PuzzleScratch, Solution, build_puzzle, level_palette};
use crate::coloring::verify;
use crate::core::error::ConfigError;
use crate::core::error::{GenError, Violation};
use crate::core::generator::{
    Columns, ExtraKind, ExtraSpec, ExtraValue, Generator, Level, LevelRecord,
};

/// The level file's column, first of the extra columns.
const LEVEL_XML: ExtraSpec = ExtraSpec::new(
    "level_xml",
    ExtraKind::Utf8,
    "the level as a GraphColoring .xml file",
);

/// The extra columns of vertex and edge puzzles.
pub const COLORING_COLUMNS: [ExtraSpec; 2] = [
    LEVEL_XML,
    ExtraSpec::new(
        "solution",
        ExtraKind::ListU8,
        "the answer: a color per vertex (vertex puzzles) or per edge (edge puzzles), as an index into the palette after gray",
    ),
];

/// The extra columns of Eulerian puzzles.
pub const EULER_COLUMNS: [ExtraSpec; 2] = [
    LEVEL_XML,
    ExtraSpec::new(
        "walk",
        ExtraKind::ListU32,
        "the answer: an Eulerian walk as edge indices in walking order",
    ),
];

/// The GraphColoring puzzle generator.
pub struct ColoringGenerator {
    pub(crate) cfg: ColoringConfig,
}

impl ColoringGenerator {
    /// A generator for `cfg`.
    ///
    /// # Errors
    /// A value out of range, naming its key.
    pub fn new(cfg: ColoringConfig) -> Result<Self, ConfigError> {
        cfg.validate()?;
        Ok(Self { cfg })
    }

    /// The configuration.
    pub fn config(&self) -> &ColoringConfig {
        &self.cfg
    }
}

/// Per-worker memory: the puzzle builder's scratch (triangulation, solver), the last puzzle
/// (the level view borrows it), tag, flag and metric buffers, and an arena for the extra
/// column list (reset between levels).
///
/// NOTE: [`build_puzzle`] returns an owned puzzle (its model, XML and graph), so each level
/// allocates those; the solver, the triangulation's buffers and the column buffers here are
/// reused.
pub struct ColoringScratch {
    puzzle: PuzzleScratch,
    last: Option<Puzzle>,
    metrics: Vec<f64>,
    bump: Bump,
}

/// The solution as its column's value.
pub(crate) fn solution_value(solution: &Solution) -> ExtraValue<'_> {
    match solution {
        Solution::VertexColors(c) | Solution::EdgeColors(c) => ExtraValue::ListU8(c),
        Solution::Walk(w) => ExtraValue::ListU32(w),
    }
}

impl Generator for ColoringGenerator {
    type Scratch = ColoringScratch;

    fn kind(&self) -> &'static str {
        "coloring"
    }

    fn columns(&self) -> Columns {
        Columns {
            graph: true,
            tags: true,
            metrics: &COLORING_METRICS,
            extra: if self.cfg.puzzle.is_coloring() {
                &COLORING_COLUMNS
            } else {
                &EULER_COLUMNS
            },
            ..Columns::default()
        }
    }

    fn new_scratch(&self) -> ColoringScratch {
        ColoringScratch {
            puzzle: PuzzleScratch::default(),
            last: None,
            metrics: Vec::with_capacity(COLORING_METRICS.len()),
            bump: Bump::with_capacity(256),
        }
    }

    fn generate<'s>(&self, seed: u64, s: &'s mut ColoringScratch) -> Result<Level<'s>, GenError> {
        let ColoringScratch {
            puzzle,
            last,
            metrics,
            bump,
        } = s;
        let p: &'s Puzzle = last.insert(build_puzzle(&self.cfg, seed, puzzle)?);
        metrics.clear();
        metrics.extend(metric_values(&self.cfg, p).to_array());
        let solution = solution_value(&p.solution);
        bump.reset();
        // NOTE: the list of borrowed column values lives in the arena, not in the scratch,
        // because it borrows the scratch's own buffers; after the first level the arena's chunk
        // is reused and this allocates nothing.
        let extra: &'s [ExtraValue<'s>] =
            bump.alloc_slice_copy(&[ExtraValue::Utf8(&p.xml), solution]);
        Ok(Level {
            graph: Some(p.graph.view()),
            metrics,
            extra,
            ..Level::default()
        })
    }

    fn verify(&self, record: &LevelRecord<'_>) -> Result<(), Violation> {
        verify::verify(&self.cfg, record)
    }

    fn tag_names(&self) -> Vec<String> {
        level_palette(&self.cfg)
            .into_iter()
            .map(|c| c.name)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coloring::config::PuzzleKind;
    use crate::core::generator::GraphView;
    use crate::core::rng::mix;

    fn record<'a>(level: Level<'a>, seed: u64) -> LevelRecord<'a> {
        LevelRecord {
            index: 0,
            seed,
            level,
        }
    }

    fn generator(puzzle: PuzzleKind, chromatic: bool, clues: u32) -> ColoringGenerator {
        ColoringGenerator::new(ColoringConfig {
            puzzle,
            chromatic,
            clues,
            ..ColoringConfig::default()
        })
        .unwrap()
    }

    #[test]
    fn levels_of_every_kind_verify_and_repeat_in_a_used_scratch() {
        for (puzzle, chromatic) in [
            (PuzzleKind::Vertex, false),
            (PuzzleKind::Vertex, true),
            (PuzzleKind::Edge, false),
            (PuzzleKind::EulerCycle, false),
            (PuzzleKind::EulerPath, false),
        ] {
            let clues = if puzzle == PuzzleKind::Vertex { 3 } else { 0 };
            let g = generator(puzzle, chromatic, clues);
            let (mut s, mut t) = (g.new_scratch(), g.new_scratch());
            for i in 0..6 {
                let seed = mix(2, i);
                let level = g.generate(seed, &mut s).unwrap();
                g.verify(&record(level, seed))
                    .unwrap_or_else(|v| panic!("{puzzle:?} level {i}: {v}"));
                assert_eq!(level.metrics[0], f64::from(puzzle.code()));
                let graph = level.graph.unwrap();
                let names = g.tag_names();
                assert!(graph.tag.iter().all(|&t| usize::from(t) < names.len()));
                let _ = g.generate(mix(3, i), &mut t).unwrap();
                let again = g.generate(seed, &mut t).unwrap();
                assert_eq!(again.content_hash(), level.content_hash());
                assert_eq!(again.extra, level.extra);
            }
        }
    }

    /// Verify the level of seed 5 of `g` with `change` applied to a copy; the error must
    /// contain `want`.
    fn tampered(g: &ColoringGenerator, want: &str, change: impl FnOnce(&mut Owned)) {
        let mut s = g.new_scratch();
        let level = g.generate(5, &mut s).unwrap();
        let mut o = Owned::of(&level);
        change(&mut o);
        let graph = level.graph.unwrap();
        let extra = [ExtraValue::Utf8(&o.xml), o.solution()];
        let lv = Level {
            graph: Some(GraphView {
                x: &o.x,
                tag: &o.tag,
                src: &o.src,
                ..graph
            }),
            metrics: &o.metrics,
            extra: &extra,
            ..level
        };
        let e = g.verify(&record(lv, 5)).unwrap_err().to_string();
        assert!(e.contains(want), "wanted `{want}`: {e}");
    }

    /// An editable copy of a level's parts.
    struct Owned {
        xml: String,
        colors: Vec<u8>,
        walk: Vec<u32>,
        x: Vec<f32>,
        tag: Vec<u16>,
        src: Vec<u32>,
        metrics: Vec<f64>,
    }

    impl Owned {
        fn of(level: &Level<'_>) -> Self {
            let g = level.graph.unwrap();
            Owned {
                xml: level.extra[0].as_str().unwrap().to_string(),
                colors: level.extra[1].as_u8s().unwrap_or_default().to_vec(),
                walk: level.extra[1].as_u32s().unwrap_or_default().to_vec(),
                x: g.x.to_vec(),
                tag: g.tag.to_vec(),
                src: g.src.to_vec(),
                metrics: level.metrics.to_vec(),
            }
        }

        fn solution(&self) -> ExtraValue<'_> {
            if self.walk.is_empty() {
                ExtraValue::ListU8(&self.colors)
            } else {
                ExtraValue::ListU32(&self.walk)
            }
        }
    }

    #[test]
    fn verify_rejects_tampered_levels() {
        let vertex = generator(PuzzleKind::Vertex, false, 0);
        tampered(&vertex, "the level XML does not read: level 0:", |o| {
            o.xml = o.xml.replacen("<vertex ", "<vertx ", 1);
        });
        tampered(&vertex, "vertex 2 is at", |o| o.x[2] += 1.0);
        tampered(&vertex, "edge 0 joins", |o| o.src[0] += 1);
        tampered(&vertex, "the vertex tags are not", |o| o.tag[0] = 3);
        // Every vertex in one color: the edge rule fails.
        tampered(&vertex, "does not complete the level", |o| o.colors.fill(0));
        tampered(&vertex, "the palette has 4", |o| o.colors[0] = 4);
        tampered(&vertex, "solver_nodes = ", |o| o.metrics[4] = 1e9);
        tampered(&vertex, "clues = ", |o| o.metrics[7] = 2.0);
        // A clue recolored: every rule may still hold, but the player cannot do it.
        let clued = generator(PuzzleKind::Vertex, false, 3);
        tampered(&clued, "whose color is protected", |o| {
            let at = o.xml.find("protect=\"c\"").expect("a clue");
            let v: usize = o.xml[..at].rsplit("id=\"v").next().unwrap()[..]
                .split('"')
                .next()
                .unwrap()
                .parse()
                .unwrap();
            o.colors[v] = (o.colors[v] + 1) % 4;
        });
        let euler = generator(PuzzleKind::EulerCycle, false, 0);
        tampered(&euler, "the stored solution fails", |o| {
            o.walk.pop();
        });
        tampered(&euler, "the stored solution fails", |o| o.walk.swap(0, 1));
    }

    #[test]
    fn verify_refutes_k_minus_1_for_chromatic_profiles() {
        // Sparse k = 4 levels are mostly 3-colorable: a chromatic profile's verify says so.
        let sparse = |chromatic| {
            ColoringGenerator::new(ColoringConfig {
                keep: 0.3,
                chromatic,
                ..ColoringConfig::default()
            })
            .unwrap()
        };
        let (plain, strict) = (sparse(false), sparse(true));
        let mut s = plain.new_scratch();
        let caught = (0..10)
            .filter(|&i| {
                let level = plain.generate(mix(9, i), &mut s).unwrap();
                strict
                    .verify(&record(level, mix(9, i)))
                    .is_err_and(|v| v.to_string().contains("chromatic number is below k"))
            })
            .count();
        assert!(caught >= 5, "{caught} of 10");
    }
}
