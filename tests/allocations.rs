//! The allocation audit and the memory bound (their own test binary: it installs the counting
//! allocator as the global allocator, and measures child processes' peak memory undisturbed).
//!
//! Where the design promises it (the lattice maze's compact scratch, the dungeon's reused map
//! and buffers, the regions' RegionCache, the grammar's build, layout and tile-map scratch) a
//! level makes no heap allocation once the worker's scratch has grown to its working size;
//! each test fails on the first allocation.
//!
//! What still allocates, and why:
//! - grammar levels: the R-trees of the room placement and of the crossing counts (rstar
//!   allocates a tree's nodes on every build and a stack per query, with no way to reuse
//!   them). They are wrapped in `core::alloc::listed`, so the audit counts them apart and
//!   still fails on any other allocation.
//! - grammar levels drawn by the map builder (`grammar.corridors` other than `drawn`): each
//!   level's graph is new, so the builder's plan for it (room and connection lists, the table
//!   of how far apart two rooms can be) is made afresh: about 110 allocations a level of the
//!   dungeon rules, 2 to 3 a room (the last test bounds them); the shapes and their
//!   configuration spaces are built once per run and shared.
//! - coloring levels (about 560 allocations a level of the vertex puzzles, 1,119 of the default
//!   profile's): each puzzle is written as the game's
//!   level XML and read back by the format library (`levelxml`, an owned document of strings)
//!   to prove it under the game's own rules; the Delaunay triangulation (spade) allocates too.
//! - Delaunay mazes: the triangulation, afresh each level (see the last test).
//! - map levels (about 38 allocations a level of the default profile, measured when the
//!   registry's audit came in; not yet traced to their sources).
//!
//! Every kind's bound on its default profile is its registry line's `allocations`
//! (`warren::profile::KIND_FACTS`), checked by `every_kind_keeps_its_allocation_promise`.

use warren::core::alloc::{CountingAllocator, thread_allocations};
use warren::{Generator, mix};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

#[test]
fn the_counter_counts_this_threads_allocations() {
    let before = thread_allocations();
    let v: Vec<u64> = std::hint::black_box(vec![1, 2, 3]);
    assert_eq!(thread_allocations() - before, 1);
    drop(v);
    assert!(warren::core::alloc::counting());
}

/// Levels per audit: the scratch first sees them all, then makes them again.
const LEVELS: u64 = 64;

/// Allocations while making `LEVELS` levels a second time with a scratch that has made them
/// once (so has grown to their working size). Seeds that fail are left out of the second pass:
/// a failure is not a level, and its error message is allocated.
fn allocations_after_warm_up<G: Generator>(g: &G) -> u64 {
    let mut scratch = g.new_scratch();
    let levels: Vec<u64> = (0..LEVELS)
        .map(|i| mix(7, i))
        .filter(|&seed| g.generate(seed, &mut scratch).is_ok())
        .collect();
    assert!(levels.len() as u64 > LEVELS / 2, "most seeds make levels");
    let before = thread_allocations();
    for &seed in &levels {
        let _ = g.generate(seed, &mut scratch);
    }
    thread_allocations() - before
}

/// Every kind of the registry keeps the promise it states there (`KindFacts::allocations`, per
/// level once the scratch is warm, on its default profile): a new kind is audited from its
/// registry line on.
#[test]
fn every_kind_keeps_its_allocation_promise() {
    struct Audit;
    impl warren::profile::GeneratorTask for Audit {
        type Output = u64;
        fn run<G: Generator>(self, g: &G) -> u64 {
            allocations_after_warm_up(g)
        }
    }
    for facts in warren::profile::KIND_FACTS {
        let profile = warren::profile::Profile::builtin(facts.name).unwrap();
        let total = profile.with_generator(Audit).unwrap();
        let per_level = total.div_ceil(LEVELS);
        println!(
            "{}: {total} allocations in {LEVELS} warm levels",
            facts.name
        );
        assert!(
            per_level <= facts.allocations,
            "{}: {per_level} allocations a warm level, the registry promises at most {}",
            facts.name,
            facts.allocations
        );
    }
}

#[test]
fn lattice_mazes_allocate_nothing_after_warm_up() {
    for cfg in [
        warren::MazeConfig::default(),
        // Above 65,535 rooms: the fast path's `u32` room ids.
        warren::MazeConfig {
            width: 300,
            height: 250,
            ..Default::default()
        },
        warren::MazeConfig {
            holes: 0.1,
            merge_dead_ends: false,
            ..Default::default()
        },
    ] {
        let g = warren::MazeGenerator::new(cfg).unwrap();
        assert_eq!(allocations_after_warm_up(&g), 0);
    }
}

/// Every `maze.algorithm`, on the fast path (no holes) and the general one (holes; the graph
/// algorithms only), makes its mazes in its scratch's reused buffers.
#[test]
fn every_maze_algorithm_allocates_nothing_after_warm_up() {
    use warren::MazeAlgorithm;
    for algorithm in MazeAlgorithm::ALL {
        for holes in [0.0, 0.2] {
            if holes > 0.0 && algorithm.lattice_only() {
                continue;
            }
            let g = warren::MazeGenerator::new(warren::MazeConfig {
                algorithm,
                holes,
                ..Default::default()
            })
            .unwrap();
            assert_eq!(
                allocations_after_warm_up(&g),
                0,
                "{algorithm:?} holes {holes}"
            );
        }
    }
}

#[test]
fn dungeons_allocate_nothing_after_warm_up() {
    let g = warren::dmg::DmgGenerator::new(warren::dmg::DmgConfig::default()).unwrap();
    assert_eq!(allocations_after_warm_up(&g), 0);
}

/// The RegionCache promise (seed 004): a warm worker's scratch makes regions levels, seen or
/// new, without a heap allocation; a cold one does allocate (the counter works).
#[test]
fn regions_allocate_nothing_after_warm_up() {
    use warren::{RegionsConfig, RegionsGenerator};
    let g = RegionsGenerator::new(RegionsConfig::default()).expect("default profile");
    let mut scratch = g.new_scratch();
    let allocations = |scratch: &mut _, seeds: std::ops::Range<u64>| {
        let before = thread_allocations();
        let mut hashes = 0u64;
        for i in seeds {
            let level = g
                .generate(mix(4, i), scratch)
                .expect("regions levels succeed");
            hashes ^= level.content_hash();
        }
        std::hint::black_box(hashes);
        thread_allocations() - before
    };
    assert!(
        allocations(&mut scratch, 0..1) > 0,
        "a cold scratch allocates"
    );
    allocations(&mut scratch, 1..96);
    assert_eq!(
        allocations(&mut scratch, 0..96),
        0,
        "levels seen before allocated"
    );
    assert_eq!(
        allocations(&mut scratch, 96..128),
        0,
        "new levels allocated"
    );
}

/// The audit sees allocations where levels make them (Delaunay mazes triangulate afresh each
/// level), so the zero counts above are not an idle counter's.
#[test]
fn the_audit_sees_allocations_where_levels_make_them() {
    let delaunay = warren::MazeGenerator::new(warren::MazeConfig {
        topology: warren::maze::MazeTopology::Delaunay,
        width: 12,
        height: 12,
        ..Default::default()
    })
    .unwrap();
    assert!(allocations_after_warm_up(&delaunay) > 0);
}

/// Peak memory of a `warren generate` run, in kilobytes: the largest peak of the children
/// waited for so far (`getrusage(RUSAGE_CHILDREN)`).
#[cfg(target_os = "linux")]
fn children_peak_kb() -> i64 {
    // SAFETY: `usage` is a valid, writable `rusage`; the call only fills it in.
    unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        assert_eq!(libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage), 0);
        usage.ru_maxrss
    }
}

/// Ten times more levels raise peak memory by no more than a small constant: the batch keeps a
/// bounded number of chunks in flight and streams the rest to disk.
#[cfg(target_os = "linux")]
#[test]
fn ten_times_more_levels_take_no_more_memory() {
    let dir = std::env::temp_dir().join(format!("warren-memory-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let run = |count: u64| {
        let out = dir.join(format!("m{count}.arrow"));
        let status = std::process::Command::new(env!("CARGO_BIN_EXE_warren"))
            .args(["generate", "maze", "--quiet", "--threads", "2"])
            .args(["--set", "maze.width=8", "--set", "maze.height=8"])
            .args(["--chunk-size", "512", "--count", &count.to_string()])
            .arg("--out")
            .arg(&out)
            .status()
            .unwrap();
        assert!(status.success());
        std::fs::remove_file(&out).unwrap();
        children_peak_kb()
    };
    let small = run(10_000);
    let large = run(100_000);
    std::fs::remove_dir_all(&dir).unwrap();
    // `large` is the larger of both runs' peaks.
    assert!(
        large - small <= 4 * 1024,
        "10,000 levels peaked at {small} KB, 100,000 at {large} KB"
    );
}

/// Grammar levels: nothing but the R-trees of the room placement and the crossing counts,
/// which rstar allocates on every build and query and which are listed
/// (`core::alloc::listed`); the test fails on any other allocation, and sees the listed ones.
#[test]
fn grammar_levels_allocate_nothing_after_warm_up_but_their_listed_r_trees() {
    use warren::core::alloc::listed_allocations;
    for rules in ["cyclic", "catacomb", "demirogue/default"] {
        let cfg = warren::GrammarConfig {
            rules: rules.into(),
            ..Default::default()
        };
        let g = warren::GrammarGenerator::new(cfg).unwrap();
        let listed = listed_allocations();
        assert_eq!(allocations_after_warm_up(&g), 0, "{rules}");
        assert!(
            listed_allocations() > listed,
            "{rules}: no R-tree was built"
        );
    }
}

#[test]
fn listed_allocations_are_counted_apart() {
    use warren::core::alloc::{listed, listed_allocations};
    let (before, listed_before) = (thread_allocations(), listed_allocations());
    let v: Vec<u8> = listed("a test", || std::hint::black_box(vec![1, 2, 3]));
    assert_eq!(thread_allocations() - before, 0);
    assert_eq!(listed_allocations() - listed_before, 1);
    drop(v);
}

/// Grammar levels drawn by the map builder: the plan of each level's graph is made afresh,
/// a bounded number of allocations per level (measured: see the assertion), never per tile
/// or per candidate placement.
#[test]
fn grammar_levels_drawn_by_the_map_builder_allocate_only_their_plan() {
    let cfg = warren::GrammarConfig {
        rules: "dungeon".into(),
        min_vertices: 8,
        max_vertices: 40,
        max_grid: [512, 512],
        corridors: warren::grammar::config::MapMode::None,
        templates: "edgar-paper".into(),
        ..Default::default()
    };
    let g = warren::GrammarGenerator::new(cfg).unwrap();
    let mut scratch = g.new_scratch();
    let levels: Vec<u64> = (0..LEVELS)
        .map(|i| mix(7, i))
        .filter(|&seed| g.generate(seed, &mut scratch).is_ok())
        .collect();
    let before = thread_allocations();
    let mut rooms = 0;
    for &seed in &levels {
        let level = g.generate(seed, &mut scratch).unwrap();
        rooms += level.graph.unwrap().x.len() as u64;
    }
    let per_level = (thread_allocations() - before) / levels.len() as u64;
    let per_room = (thread_allocations() - before) / rooms;
    eprintln!("{per_level} allocations a level, {per_room} a room");
    // A plan holds one shape list and one adjacency list per room, plus a fixed few.
    assert!(per_room <= 4, "{per_level} a level, {per_room} a room");
}
