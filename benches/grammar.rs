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
use warren::grammar::build::{BuildScratch, build};
use warren::grammar::library::BUILTINS;
use warren::grammar::matcher::Compiled;
use warren::grammar::{GRAMMAR_METRICS, GrammarConfig, GrammarGenerator};
use warren::layout::preserve::{PreserveScratch, relax_preserving};
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
                Ok(level) => level.layout_hash,
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

criterion_group! {
    name = benches;
    // NOTE: set on the runner, not the groups, so `--sample-size`/`--measurement-time` on the
    // command line still override them (group settings would win over the command line).
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4));
    targets = whole_levels, matching, layout
}
criterion_main!(benches);
