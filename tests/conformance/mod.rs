//! The conformance suite: one table-driven test over every shipped profile (`profiles/*.toml`).
//! For each: the first levels' columns hash to a recorded golden value (so any change to any
//! kind's output is deliberate and shows in review), every level passes its generator's
//! `verify` with a fresh generation of its seed, a reused scratch makes the same level as a fresh
//! one, and the batch engine gives the same batches on 1 and 2 threads. (Zero allocations per
//! level after warm-up is `tests/allocations.rs`, which owns the counting allocator.)
//!
//! To re-mint after a deliberate change: `WARREN_PRINT_GOLDEN=1 cargo test --test tests
//! conformance -- --nocapture` prints the table; paste it and say why in the commit.

use std::path::Path;
use std::sync::Arc;

use arrow_array::RecordBatch;
use arrow_schema::Schema;
use warren::archive::level_schema;
use warren::batch::{self, BatchError, BatchOptions, BatchSink, Shard, check_levels};
use warren::core::generator::Generator;
use warren::mix;
use warren::profile::{GeneratorTask, Profile};

/// Levels per profile (enough to cross a few record batches of `CHUNK`).
const LEVELS: u64 = 12;
/// Levels per record batch in the suite.
const CHUNK: usize = 5;
/// The master seed of the suite.
const SEED: u64 = 0x5eed_c0f0;

/// The golden hash of each shipped profile's first `LEVELS` levels (CRC-32 of their Arrow IPC
/// stream, schema metadata left out, and the byte count).
const GOLDEN: &[(&str, u64)] = &[
    ("coloring-chromatic.toml", 0xa942303300010308),
    ("coloring-edge.toml", 0xc6f8cdd400011d08),
    ("coloring-euler-cycle.toml", 0xe63d93480000e408),
    ("coloring-euler-path.toml", 0x117a10900000e848),
    ("coloring.toml", 0xb0c684c300010108),
    ("dmg.toml", 0xccab70ff00037748),
    ("grammar-catacomb.toml", 0x470ebf6900058248),
    ("grammar-demirogue.toml", 0x3ac9f7ab0005c188),
    ("grammar-dungeon.toml", 0x78e9d251000a4fc8),
    ("grammar-keylock.toml", 0x7dd607b7000e3308),
    ("grammar-ring.toml", 0x71c6800600055f48),
    ("grammar.toml", 0x2c4c207c000667c8),
    ("maze-braided-gradient.toml", 0xf394c1100001e048),
    ("maze-delaunay.toml", 0x057ef1d80003c008),
    ("maze.toml", 0xacbcb1dd0000ed48),
    ("regions.toml", 0x180f7b91000cef48),
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
            };
            batch::run(g, schema.clone(), &opts, &mut sink, Vec::new()).expect("a run");
            sink.0
        };
        let one = run(1);
        assert_eq!(one, run(2), "1 and 2 threads differ");
        for b in &one {
            let check = check_levels(g, b, SEED, true, 3).expect("the generator's columns");
            assert_eq!(check.count, 0, "{:?}", check.shown);
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
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".toml"))
        .collect();
    names.sort();
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
