//! Graph-grammar generation speed (seed 000), criterion: whole levels, then the two parts of a
//! build that cost the most, matching and layout, alone.
//!
//! Groups:
//! - `grammar/build/<rules>`: levels per second (one element per level) for every built-in rule
//!   set, one worker, scratch reused. warren's own rule sets (`dungeon`, `catacomb`, `keylock`,
//!   `ring`) run with the default `GrammarConfig`, the seven `demirogue/*` rulesets with the
//!   values of `profiles/grammar-demirogue.toml`. Iterations cycle over the 64 seeds
//!   `mix(MASTER_SEED, 0..64)`, so the time is a mean over levels; a seed that fails
//!   (`below min_vertices`) counts as an iteration like any other. Before each rule set is
//!   timed, one line gives the quality of those 64 levels (built and failed seeds, mean
//!   vertices, share with crossing corridors, share planar, mean rejected matches) and where a
//!   build spends its time.
//! - `grammar/matching/<rules>`: `Compiled::find_matches` of every rule of the grammar on one
//!   finished level (the first of the 64 seeds that builds) of `demirogue/default`,
//!   `demirogue/catacomb` and `dungeon`. Throughput: one element per rule tried.
//! - `grammar/layout/{relax,preserving}/<rules>`: one relaxation of those same levels with the
//!   grammar's layout parameters, every iteration starting from the level's final drawing:
//!   `relax` against `relax_preserving` with the corridors (non-cosmetic edges) kept apart. The
//!   final drawing is close to settled, and the grammar's tolerance can stop a relaxation from
//!   it after a single iteration, so the tolerance is 0 and all `relax_iterations` run:
//!   throughput is vertices times iterations, the rate vertex-iterations per second. Multiply
//!   by the printed solver iterations per rewrite to compare with a build.
//!
//! - `grammar/tilemap/<rules>`: drawing the tile map of a finished level (rooms walled,
//!   corridors routed door to door), one map per iteration, cycling over the bench levels of
//!   the default rules and of the rule sets above; one line first gives the mean map size,
//!   corridors and corridors that needed the search.
//!
//! Run with `cargo bench --bench grammar`; for a quick pass add
//! `-- --warm-up-time 1 --measurement-time 2`, and filter with e.g. `-- grammar/matching` or
//! `-- demirogue/catacomb`.

use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

use criterion::measurement::WallTime;
use criterion::{
    BenchmarkGroup, BenchmarkId, Criterion, Throughput, criterion_group, criterion_main,
};
use warren::core::graph::edge_flag;
use warren::core::grid::Grid;
use warren::grammar::build::{BuildScratch, build};
use warren::grammar::library::BUILTINS;
use warren::grammar::matcher::Compiled;
use warren::grammar::tilemap::{TileScratch, draw_tile_map};
use warren::grammar::{GRAMMAR_METRICS, GrammarConfig, GrammarGenerator};
use warren::layout::crossing_free::{PreserveScratch, relax_preserving};
use warren::layout::quality::count_crossings;
use warren::layout::{LayoutGraph, LayoutParams, LayoutScratch, relax};
use warren::profile::Profile;
use warren::{Generator, mix};

/// The fixed master seed of every bench level.
const MASTER_SEED: u64 = 1;

/// Levels per rule set: iterations cycle over the seeds `mix(MASTER_SEED, 0..SEEDS)`.
const SEEDS: u64 = 64;

/// The rule sets whose matching and layout are timed alone.
const PART_RULES: [&str; 3] = ["demirogue/default", "demirogue/catacomb", "dungeon"];

/// The profile whose values the `demirogue/*` rulesets run with.
const DEMIROGUE_PROFILE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/profiles/grammar-demirogue.toml"
);

/// The settings `rules` is benched with: `profiles/grammar-demirogue.toml` for the demirogue
/// rulesets, the defaults for warren's own.
fn config_for(rules: &str) -> GrammarConfig {
    let base = if rules.starts_with("demirogue/") {
        match Profile::from_file(Path::new(DEMIROGUE_PROFILE)) {
            Ok(Profile::Grammar { grammar }) => grammar,
            Ok(other) => panic!("{DEMIROGUE_PROFILE} is a {} profile", other.kind()),
            Err(e) => panic!("{e}"),
        }
    } else {
        GrammarConfig::default()
    };
    GrammarConfig {
        rules: rules.to_string(),
        ..base
    }
}

/// Column of the grammar metric `name` in a level's metrics.
fn metric(name: &str) -> usize {
    GRAMMAR_METRICS
        .iter()
        .position(|m| m.name == name)
        .unwrap_or_else(|| panic!("no grammar metric `{name}`"))
}

/// Share of `part` in `whole`, in percent.
fn percent(part: f64, whole: f64) -> f64 {
    if whole > 0.0 {
        100.0 * part / whole
    } else {
        0.0
    }
}

/// Prints the quality of the levels `generator` makes from the bench seeds.
fn print_quality(name: &str, generator: &GrammarGenerator) {
    let columns = [
        "vertices",
        "crossings",
        "planar",
        "rejected_matches",
        "layout_iterations",
        "rewrites",
    ]
    .map(metric);
    let mut scratch = generator.new_scratch();
    let (mut built, mut sum) = (0u32, [0.0f64; 6]);
    for i in 0..SEEDS {
        let Ok(level) = generator.generate(mix(MASTER_SEED, i), &mut scratch) else {
            continue;
        };
        built += 1;
        let mut values = columns.map(|c| level.metrics[c]);
        // Levels with crossing corridors, not crossings.
        values[1] = f64::from(u8::from(values[1] > 0.0));
        for (s, v) in sum.iter_mut().zip(values) {
            *s += v;
        }
    }
    let mean = |s: f64| s / f64::from(built.max(1));
    println!(
        "grammar/build/{name}: {built} of {SEEDS} seeds build; mean vertices {:.1}, crossing \
         corridors {:.0}%, planar {:.0}%, mean rejected matches {:.2}, solver iterations per \
         rewrite {:.1}",
        mean(sum[0]),
        100.0 * mean(sum[1]),
        100.0 * mean(sum[2]),
        mean(sum[3]),
        sum[4] / sum[5].max(1.0),
    );
}

/// Prints where the builds of the bench seeds spend their time, from the build reports (the
/// metrics `generate` computes after a build not counted).
fn print_phase_times(name: &str, generator: &GrammarGenerator) {
    let grammar = generator.grammar();
    let compiled: Vec<Compiled> = grammar.rules.iter().map(Compiled::new).collect();
    let params = generator.config().build_params();
    let mut scratch = BuildScratch::default();
    let mut ns = [0u64; 4];
    for i in 0..SEEDS {
        let seed = mix(MASTER_SEED, i);
        if let Ok(r) = build(grammar, &compiled, &params, seed, &mut scratch) {
            let phases = [r.match_ns, r.rewrite_ns, r.layout_ns, r.rooms_ns];
            for (t, phase) in ns.iter_mut().zip(phases) {
                *t += phase;
            }
        }
    }
    let total = ns.iter().sum::<u64>() as f64;
    let [m, w, l, r] = ns.map(|t| percent(t as f64, total));
    println!(
        "grammar/build/{name}: build time {m:.0}% matching, {w:.0}% rewriting, {l:.0}% layout, \
         {r:.0}% rooms"
    );
}

/// Benches whole levels of `rules`: one level per iteration, cycling over the bench seeds.
fn bench_rules(group: &mut BenchmarkGroup<'_, WallTime>, rules: &str) {
    let generator = GrammarGenerator::new(config_for(rules))
        .unwrap_or_else(|e| panic!("built-in rule set {rules}: {e}"));
    print_quality(rules, &generator);
    print_phase_times(rules, &generator);
    let mut scratch = generator.new_scratch();
    let mut index = 0u64;
    group.bench_function(BenchmarkId::from_parameter(rules), |b| {
        b.iter(|| {
            let seed = mix(MASTER_SEED, index % SEEDS);
            index += 1;
            // NOTE: a failed seed did all the work of a build too; it counts as a level.
            match generator.generate(seed, &mut scratch) {
                Ok(level) => level.content_hash(),
                Err(e) => black_box(e).reason.len() as u64,
            }
        })
    });
}

fn whole_levels(c: &mut Criterion) {
    let mut group = c.benchmark_group("grammar/build");
    group.throughput(Throughput::Elements(1));
    for builtin in BUILTINS {
        bench_rules(&mut group, builtin.name);
    }
    group.finish();
}

/// One finished level of a rule set, kept for timing matching and layout alone.
struct Built {
    rules: &'static str,
    generator: GrammarGenerator,
    compiled: Vec<Compiled>,
    scratch: BuildScratch,
    seed: u64,
}

impl Built {
    /// The first bench seed that builds, for `rules`.
    fn new(rules: &'static str) -> Self {
        let generator = GrammarGenerator::new(config_for(rules))
            .unwrap_or_else(|e| panic!("built-in rule set {rules}: {e}"));
        let compiled: Vec<Compiled> = generator
            .grammar()
            .rules
            .iter()
            .map(Compiled::new)
            .collect();
        let params = generator.config().build_params();
        let mut scratch = BuildScratch::default();
        let seed = (0..SEEDS)
            .map(|i| mix(MASTER_SEED, i))
            .find(|&seed| {
                build(generator.grammar(), &compiled, &params, seed, &mut scratch).is_ok()
            })
            .unwrap_or_else(|| panic!("{rules}: none of the {SEEDS} bench seeds builds"));
        Self {
            rules,
            generator,
            compiled,
            scratch,
            seed,
        }
    }

    /// The host's corridors (non-cosmetic edges), as endpoint arrays.
    fn corridors(&self) -> (Vec<u32>, Vec<u32>) {
        let host = &self.scratch.host;
        (0..host.edge_count() as u32)
            .filter(|&e| !host.is_cosmetic(e))
            .map(|e| (host.src[e as usize], host.dst[e as usize]))
            .unzip()
    }
}

fn matching(c: &mut Criterion) {
    let mut group = c.benchmark_group("grammar/matching");
    for rules in PART_RULES {
        let built = Built::new(rules);
        let grammar = built.generator.grammar();
        let host = &built.scratch.host;
        let max_valence = built.generator.config().max_valence;
        let mut out = Vec::new();
        let found: usize = grammar
            .rules
            .iter()
            .zip(&built.compiled)
            .map(|(rule, c)| c.find_matches(rule, host, max_valence, &mut out))
            .sum();
        println!(
            "grammar/matching/{rules}: {} rules on the level of seed {:#x} ({} vertices, {} \
             edges): {found} matches",
            grammar.rules.len(),
            built.seed,
            host.vertex_count(),
            host.edge_count(),
        );
        group.throughput(Throughput::Elements(grammar.rules.len() as u64));
        group.bench_function(BenchmarkId::from_parameter(rules), |b| {
            b.iter(|| {
                out.clear();
                let mut found = 0;
                for (rule, c) in grammar.rules.iter().zip(&built.compiled) {
                    found += c.find_matches(rule, host, max_valence, &mut out);
                }
                black_box(found)
            })
        });
    }
    group.finish();
}

/// The solver inputs of one finished level: its graph, its corridors and its final drawing.
struct LayoutCase<'a> {
    graph: LayoutGraph<'a>,
    keep_src: Vec<u32>,
    keep_dst: Vec<u32>,
    start_x: Vec<f32>,
    start_y: Vec<f32>,
}

impl LayoutCase<'_> {
    /// Copies the saved drawing into `x`, `y`.
    fn restart(&self, x: &mut [f32], y: &mut [f32]) {
        x.copy_from_slice(&self.start_x);
        y.copy_from_slice(&self.start_y);
    }

    /// Corridor crossings of the drawing `x`, `y`.
    fn crossings(&self, x: &[f32], y: &[f32]) -> u64 {
        count_crossings(x, y, &self.keep_src, &self.keep_dst)
    }
}

/// Prints what the timed relaxations do to the saved drawing of `built`, and how many
/// iterations the grammar's own tolerance would have let run from there.
fn print_layout_quality(built: &Built, case: &LayoutCase<'_>, params: &LayoutParams) {
    let grammar_params = built.generator.config().build_params().layout;
    let (mut x, mut y) = (case.start_x.clone(), case.start_y.clone());
    let (mut scratch, mut own) = (LayoutScratch::default(), PreserveScratch::default());
    let settled = relax(&case.graph, &mut x, &mut y, &grammar_params, &mut scratch);
    case.restart(&mut x, &mut y);
    relax(&case.graph, &mut x, &mut y, params, &mut scratch);
    let plain = case.crossings(&x, &y);
    case.restart(&mut x, &mut y);
    let (src, dst) = (&case.keep_src, &case.keep_dst);
    relax_preserving(
        &case.graph,
        src,
        dst,
        &mut x,
        &mut y,
        params,
        &mut scratch,
        &mut own,
    );
    println!(
        "grammar/layout/{}: seed {:#x}, {} vertices, {} edges ({} corridors), {} crossings at \
         the start, {} after relax, {} after preserving ({} iterations each; the grammar's \
         tolerance {} stops relax after {})",
        built.rules,
        built.seed,
        case.start_x.len(),
        case.graph.src.len(),
        src.len(),
        case.crossings(&case.start_x, &case.start_y),
        plain,
        case.crossings(&x, &y),
        params.max_iterations,
        grammar_params.tolerance,
        settled.iterations,
    );
}

/// Benches `relax` and `relax_preserving` of the level of `built`, each iteration from its
/// final drawing.
fn bench_layout(group: &mut BenchmarkGroup<'_, WallTime>, built: &Built) {
    let host = &built.scratch.host;
    let (keep_src, keep_dst) = built.corridors();
    let case = LayoutCase {
        graph: LayoutGraph {
            src: &host.src,
            dst: &host.dst,
            length_factor: Some(&host.length),
        },
        keep_src,
        keep_dst,
        start_x: host.x.clone(),
        start_y: host.y.clone(),
    };
    // NOTE: the finished drawing is close to settled, and the grammar's tolerance can stop a
    // relaxation from it after one iteration; tolerance 0 runs all `relax_iterations`,
    // so both solvers do a fixed, known number of iterations.
    let params = LayoutParams {
        tolerance: 0.0,
        ..built.generator.config().build_params().layout
    };
    print_layout_quality(built, &case, &params);
    let (mut x, mut y) = (case.start_x.clone(), case.start_y.clone());
    let (mut scratch, mut own) = (LayoutScratch::default(), PreserveScratch::default());
    let work = host.vertex_count() as u64 * u64::from(params.max_iterations);
    group.throughput(Throughput::Elements(work));
    group.bench_function(BenchmarkId::new("relax", built.rules), |b| {
        b.iter(|| {
            case.restart(&mut x, &mut y);
            relax(&case.graph, &mut x, &mut y, &params, &mut scratch).iterations
        })
    });
    let (src, dst) = (&case.keep_src, &case.keep_dst);
    group.bench_function(BenchmarkId::new("preserving", built.rules), |b| {
        b.iter(|| {
            case.restart(&mut x, &mut y);
            let (g, p) = (&case.graph, &params);
            relax_preserving(g, src, dst, &mut x, &mut y, p, &mut scratch, &mut own).iterations
        })
    });
}

fn layout(c: &mut Criterion) {
    let mut group = c.benchmark_group("grammar/layout");
    for rules in PART_RULES {
        bench_layout(&mut group, &Built::new(rules));
    }
    group.finish();
}

/// The rooms (grid coordinates) and edges of the bench levels of one rule set, to draw their
/// tile maps again.
struct MapCase {
    rooms: Vec<[Vec<i32>; 4]>,
    edges: Vec<(Vec<u32>, Vec<u32>, Vec<u8>)>,
}

impl MapCase {
    fn new(generator: &GrammarGenerator) -> Self {
        let mut scratch = generator.new_scratch();
        let (mut rooms, mut edges) = (Vec::new(), Vec::new());
        for i in 0..SEEDS {
            let Ok(level) = generator.generate(mix(MASTER_SEED, i), &mut scratch) else {
                continue;
            };
            let (r, g) = (level.rooms.expect("rooms"), level.graph.expect("graph"));
            rooms.push([r.x0.to_vec(), r.y0.to_vec(), r.x1.to_vec(), r.y1.to_vec()]);
            edges.push((g.src.to_vec(), g.dst.to_vec(), g.flags.to_vec()));
        }
        Self { rooms, edges }
    }
}

/// Benches drawing the tile maps of the bench levels of `PART_RULES` and the default rules:
/// one map per iteration, cycling over the levels that build (their rooms already in grid
/// coordinates, which a second drawing leaves where they are).
fn tile_maps(c: &mut Criterion) {
    let mut group = c.benchmark_group("grammar/tilemap");
    group.throughput(Throughput::Elements(1));
    let default_rules = GrammarConfig::default().rules;
    let mut names: Vec<&str> = vec![default_rules.as_str()];
    names.extend(PART_RULES.iter().filter(|&&r| r != default_rules));
    for rules in names {
        let generator = GrammarGenerator::new(config_for(rules))
            .unwrap_or_else(|e| panic!("built-in rule set {rules}: {e}"));
        let case = MapCase::new(&generator);
        if case.rooms.is_empty() {
            println!("grammar/tilemap/{rules}: none of the {SEEDS} bench seeds builds");
            continue;
        }
        let params = generator.config().tile_params();
        let (mut grid, mut scratch) = (Grid::default(), TileScratch::default());
        let mut rooms = case.rooms[0].clone();
        let (mut tiles, mut searched, mut corridors) = (0u64, 0u64, 0u64);
        for (r, (src, dst, flags)) in case.rooms.iter().zip(&case.edges) {
            rooms.clone_from(r);
            let [x0, y0, x1, y1] = &mut rooms;
            let report = draw_tile_map(
                x0,
                y0,
                x1,
                y1,
                src,
                dst,
                flags,
                &params,
                &mut grid,
                &mut scratch,
            )
            .expect("a level's own map draws again");
            tiles += u64::from(grid.width) * u64::from(grid.height);
            searched += u64::from(report.searched);
            corridors += flags
                .iter()
                .filter(|&&f| f & edge_flag::COSMETIC == 0)
                .count() as u64;
        }
        let k = case.rooms.len() as f64;
        println!(
            "grammar/tilemap/{rules}: {} maps, mean {:.0} tiles, {:.1} corridors, {:.2} searched",
            case.rooms.len(),
            tiles as f64 / k,
            corridors as f64 / k,
            searched as f64 / k
        );
        let mut index = 0;
        group.bench_function(BenchmarkId::from_parameter(rules), |b| {
            b.iter(|| {
                let k = index % case.rooms.len();
                index += 1;
                rooms.clone_from(&case.rooms[k]);
                let [x0, y0, x1, y1] = &mut rooms;
                let (src, dst, flags) = &case.edges[k];
                let report = draw_tile_map(
                    x0,
                    y0,
                    x1,
                    y1,
                    src,
                    dst,
                    flags,
                    &params,
                    &mut grid,
                    &mut scratch,
                );
                black_box(report.map(|r| r.corridor_tiles).unwrap_or(0))
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    // NOTE: set on the runner, not the groups, so `--sample-size`/`--measurement-time` on the
    // command line still override them (group settings would win over the command line).
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4));
    targets = whole_levels, matching, layout, tile_maps
}
criterion_main!(benches);
