//! The conformance suite: one table-driven test over every shipped profile (`profiles/*.toml`).
//! For each: the first levels' columns hash to a recorded golden value (so any change to any
//! kind's output is deliberate and shows in review), every level passes its generator's
//! `verify` with a fresh generation of its seed, a reused scratch makes the same level as a fresh
//! one, the batch engine gives the same batches on 1 and 2 threads, and a stored level whose
//! `layout_hash` is not its content's is caught. (Zero allocations per
//! level after warm-up is `tests/allocations.rs`, which owns the counting allocator.)
//!
//! To re-mint after a deliberate change: `WARREN_PRINT_GOLDEN=1 cargo test --test tests
//! conformance -- --nocapture` prints the table; paste it and say why in the commit.

mod cpus;
mod layout;

use std::path::Path;
use std::sync::Arc;

use arrow_array::RecordBatch;
use arrow_schema::Schema;
use warren::archive::level_schema;
use warren::batch::{self, BatchError, BatchOptions, BatchSink, Shard, check_levels};
use warren::core::generator::Generator;
use warren::mix;
use warren::profile::{GeneratorTask, Profile};

use crate::common::file_names;

/// Levels per profile (enough to cross a few record batches of `CHUNK`).
const LEVELS: u64 = 12;
/// Levels per record batch in the suite.
const CHUNK: usize = 5;
/// The master seed of the suite.
const SEED: u64 = 0x5eed_c0f0;

/// The golden hash of each shipped profile's first `LEVELS` levels (CRC-32 of their Arrow IPC
/// stream, schema metadata left out, and the byte count). The grammar kinds were last re-minted
/// when the layout kernels went to portable math (the same bytes on every CPU); `dmg`, `maze`,
/// `maze-braided-gradient` and `regions` when their grids, of one size per profile, became
/// fixed-shape tensor columns (every other column, the cells and the layout_hash values were
/// compared equal with the build before). `map` was minted when the kind was added (`task` likewise, and again when its distances went to balanced blocks), and
/// `grammar-edgar` when grammar levels could be drawn by the map builder; every grammar profile
/// was re-minted then too, for one reason only: the description of the `room_overlaps` metric,
/// which the stream's schema carries, no longer says "0 by construction" (the floor boxes of a
/// builder map's L and T rooms overlap); their levels' bytes kept their hashes. Every grid kind
/// (all but `coloring`) was re-minted once more when the metrics `start_x`, `start_y`,
/// `goal_x`, `goal_y` and `path_length` were added (issue 32): 200 levels of each of those
/// profiles, written by the build before and after, had every earlier column equal. Every
/// profile was re-minted when the `canonical_hash` column was added (issue 47): with that
/// column left out, the stream of every profile but `task` hashed to its golden before; `task`
/// changed on purpose, its splits now drawn from that canonical identity. `map` was re-minted
/// once more when its `canonical_hash` became the floor plan's up to the 8 grid symmetries
/// (its level graph is the run's input, the same for every level): only that column changed.
/// `map` and `grammar-edgar` were re-minted when the map builder went to conflict-directed backjumping, steered by
/// the graph's stress drawing and by each room's placed neighbours (issue 49): different
/// layouts of the same graphs, every one verified, fewer attempts on all of Edgar's inputs;
/// and again when it went to forward checking (a placement that leaves an unplaced room with
/// no free spot is refused, and that spot is a candidate of the room): different layouts,
/// every one verified. `map` was re-minted when its `map_graph` column was added (issue 50): 300
/// levels of `map.toml` written by the build before and after had every other column equal but
/// `layout_hash`, which covers every column.
const GOLDEN: &[(&str, u64)] = &[
    ("coloring-chromatic.toml", 0x9077ca1c00010588),
    ("coloring-edge.toml", 0x6aaeb5f600011f88),
    ("coloring-euler-cycle.toml", 0x90e0dd360000e688),
    ("coloring-euler-path.toml", 0x85d7aba30000eac8),
    ("coloring.toml", 0xcf46013d00010388),
    ("dmg.toml", 0xdafe17b600038408),
    ("grammar-catacomb.toml", 0xdc0a054c00058e08),
    ("grammar-demirogue.toml", 0x73e4f4650005ce48),
    ("grammar-dungeon.toml", 0xf7f8622d000a5c88),
    ("grammar-edgar.toml", 0x59c91726000d27c8),
    ("grammar-keylock.toml", 0x8f2eb48b000e3fc8),
    ("grammar-ring.toml", 0x0d72b85600056c08),
    ("grammar.toml", 0x39a5b7e100067488),
    ("map.toml", 0x71216e2e0003ac88),
    ("maze-braided-gradient.toml", 0x859c00720001ed08),
    ("maze-delaunay.toml", 0x79b274310003ccc8),
    ("maze.toml", 0x778568cb0000fa08),
    ("regions.toml", 0xa692cc13000cfbc8),
    ("task.toml", 0x97d35ccc000044c8),
];

/// Batches collected in memory.
#[derive(Default)]
struct Collect(Vec<RecordBatch>);

impl BatchSink for &mut Collect {
    fn write(&mut self, batch: &RecordBatch) -> Result<(), BatchError> {
        self.0.push(batch.clone());
        Ok(())
    }

    fn finish(self, _footer: &[(String, String)]) -> Result<u64, BatchError> {
        Ok(0)
    }
}

/// What the suite found for one profile: its golden hash.
struct Conform;

impl GeneratorTask for Conform {
    type Output = u64;

    fn run<G: Generator>(self, g: &G) -> u64 {
        let schema = Arc::new(level_schema(&g.columns(), Default::default()));
        let run = |threads: usize| {
            let mut sink = Collect::default();
            let opts = BatchOptions {
                count: LEVELS,
                seed: SEED,
                threads,
                shard: Shard::default(),
                start: 0,
                chunk_size: CHUNK,
                progress: false,
                selection: None,
                resume: None,
                kept: Vec::new(),
            };
            batch::run(g, schema.clone(), &opts, &mut sink, Vec::new()).expect("a run");
            sink.0
        };
        let one = run(1);
        assert_eq!(one, run(2), "1 and 2 threads differ");
        for b in &one {
            let check = check_levels(g, b, SEED, true, 3, None).expect("the generator's columns");
            assert_eq!(check.count, 0, "{:?}", check.shown);
        }
        for column in ["layout_hash", "canonical_hash"] {
            let tampered = with_hash_of_row_0_changed(&one[0], column);
            let check =
                check_levels(g, &tampered, SEED, true, 3, None).expect("the generator's columns");
            assert_eq!(check.count, 1, "{column}: {:?}", check.shown);
            assert!(check.shown[0].contains(column), "{:?}", check.shown);
        }
        let mut used = g.new_scratch();
        for i in 0..LEVELS {
            let seed = mix(SEED, i);
            let _ = g.generate(mix(SEED ^ 1, i), &mut used);
            let reused = g.generate(seed, &mut used).map(|l| l.content_hash()).ok();
            let fresh = g
                .generate(seed, &mut g.new_scratch())
                .map(|l| l.content_hash())
                .ok();
            assert_eq!(
                reused, fresh,
                "level {i}: a used scratch makes another level"
            );
        }
        golden(&one)
    }
}

/// `batch` with the stored hash `column` (`layout_hash`, `canonical_hash`) of its first level
/// changed.
fn with_hash_of_row_0_changed(batch: &RecordBatch, column: &str) -> RecordBatch {
    use arrow_array::{UInt64Array, cast::AsArray, types::UInt64Type};
    let at = batch.schema().index_of(column).unwrap();
    let hashes = batch.column(at).as_primitive::<UInt64Type>();
    let changed: UInt64Array = (0..hashes.len())
        .map(|i| hashes.value(i) ^ u64::from(i == 0))
        .collect();
    let mut columns = batch.columns().to_vec();
    columns[at] = Arc::new(changed);
    RecordBatch::try_new(batch.schema(), columns).unwrap()
}

/// CRC-32 of the batches' IPC stream (without schema metadata) and its length, as one number.
fn golden(batches: &[RecordBatch]) -> u64 {
    let Some(first) = batches.first() else {
        return 0;
    };
    let bare = Arc::new(Schema::new(first.schema().fields().clone()));
    let mut bytes = Vec::new();
    {
        let mut w = arrow_ipc::writer::StreamWriter::try_new(&mut bytes, &bare).unwrap();
        for b in batches {
            let b = RecordBatch::try_new(bare.clone(), b.columns().to_vec()).unwrap();
            w.write(&b).unwrap();
        }
        w.finish().unwrap();
    }
    u64::from(crc32fast::hash(&bytes)) << 32 | bytes.len() as u64 & 0xffff_ffff
}

#[test]
fn every_shipped_profile_conforms() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("profiles");
    let mut names = file_names(&dir);
    names.retain(|n| n.ends_with(".toml"));
    assert!(names.len() >= 16, "{names:?}");
    let mut table = String::new();
    let mut wrong = Vec::new();
    for name in &names {
        // Profiles name data files relative to the crate root, the tests' folder.
        let path = dir.join(name);
        let profile = Profile::resolve(path.to_str().unwrap()).unwrap();
        let hash = profile
            .with_generator(Conform)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        table.push_str(&format!("    (\"{name}\", 0x{hash:016x}),\n"));
        match GOLDEN.iter().find(|(n, _)| n == name) {
            Some(&(_, want)) if want == hash => {}
            Some(&(_, want)) => wrong.push(format!("{name}: 0x{hash:016x}, golden 0x{want:016x}")),
            None => wrong.push(format!("{name}: no golden hash (0x{hash:016x})")),
        }
    }
    if std::env::var_os("WARREN_PRINT_GOLDEN").is_some() {
        println!("const GOLDEN: &[(&str, u64)] = &[\n{table}];");
    }
    assert!(
        wrong.is_empty(),
        "output changed (re-mint only for a deliberate change):\n{}",
        wrong.join("\n")
    );
}
