//! Fuzz target of the `map` kind's two JSON readers: template libraries
//! (`warren::floorplan::input::parse_library`) and level graphs (`parse_graph`), and of its
//! mask reader (`parse_mask`, seeded with the masks under `data/map/examples/`). The seeds are
//! every library and graph under `data/map/` (with `graphs/` and `examples/`) and
//! `tests/map_cli/`, read at test time and told apart by their top-level keys (`templates`: a library, `rooms`: a graph; the
//! JSON Schemas beside them are neither). A mutant that parses goes on to what generation builds
//! from it: the plan (`warren::map::plan_for`, with the up-front proofs that a room has too many
//! connections for its templates' doors; `parse_graph` itself refuses a graph that is not
//! planar), then two levels built with a small work bound and rasterised.
//!
//! Two passes per reader: a deterministic sweep that puts extreme numbers in place of the seeds'
//! numbers (one at a time, then all at once), other keys in place of their keys, and builds
//! structural mutants (a door listed 100 times, outlines of the most corners, a star, a K5);
//! then the suite's random mutations ([`fuzz`], `$WARREN_FUZZ_CASES` per reader). Every mutant
//! must give a value or a one-line error naming the file, line and column
//! (`fuzz-graph.json:3:7: ...`), or, for an empty file, the file; setup errors must name the
//! graph or the library; every case must end within the suite's time limit.

use std::path::Path;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::{Value, json};
use warren::floorplan::build::{BuildScratch, Layout, Plan, build};
use warren::floorplan::input::{
    MAX_CORNERS, MapInputError, parse_graph, parse_library, parse_mask,
};
use warren::floorplan::raster::{Tiles, rasterise};
use warren::floorplan::spec::{LevelGraph, Library, Template};
use warren::map::{CorridorMode, MapConfig, MapSetupError, plan_for};

use super::{Check, expect_line_col, files_in, fuzz, run_case_within};

/// The origin of a mutated library.
const LIBRARY_FILE: &str = "fuzz-library.json";

/// The origin of a mutated graph.
const GRAPH_FILE: &str = "fuzz-graph.json";

/// Levels built per mutant that sets up.
const LEVELS: u64 = 2;

/// The most placements one build attempt may check (the plan's own budget is 500 + 60 per room).
const ATTEMPT_WORK: u32 = 3000;

/// The largest map rasterised here (a map of at most 12 rooms of up to 4096 x 4096 tiles can
/// have billions; `rasterise` refuses over 2^26).
const MAX_RASTER_TILES: u64 = 1 << 24;

/// How many times a structural mutant lists each door of its template.
const DOOR_COPIES: usize = 100;

/// Rooms of the seed graphs a library mutant is tried with.
const SMALL_GRAPH: usize = 12;

/// Numbers the sweep puts in place of the seeds' numbers: the ranges' edges (3 and 4096 tiles,
/// 1e6 coordinates), `i32` and `u32` overflow, 2^53 + 1, non-integers and overflowing floats.
const EXTREMES: [&str; 20] = [
    "0",
    "-1",
    "1",
    "2",
    "3",
    "4096",
    "4097",
    "65536",
    "1000000",
    "-1000001",
    "2147483648",
    "-2147483649",
    "4294967296",
    "9007199254740993",
    "1e309",
    "-1e309",
    "1e-400",
    "0.5",
    "-0",
    "99999999999999999999",
];

/// Keys the sweep puts in place of the seeds' keys: both formats' keys and one neither has.
const KEYS: [&str; 19] = [
    "$schema",
    "library",
    "doors",
    "transforms",
    "templates",
    "name",
    "size",
    "outline",
    "length",
    "corner_distance",
    "positions",
    "rooms",
    "connections",
    "id",
    "tags",
    "from",
    "to",
    "corridor",
    "lengths",
];

/// Tokens of the random mutations.
const TOKENS: [&str; 44] = [
    "{",
    "}",
    "[",
    "]",
    ":",
    ",",
    "\"",
    "\\",
    "\\u",
    "\\ud800",
    "\n",
    " ",
    "null",
    "true",
    "false",
    "-",
    "0",
    "-1",
    "3",
    "4096",
    "4097",
    "1e309",
    "2147483648",
    "0.5",
    "1e2",
    "\"size\": [4096, 4096]",
    "\"outline\": [[0,0],[4096,0],[4096,4096],[0,4096]]",
    "\"doors\": {\"positions\": [[[0,1],[0,2]]]}",
    "\"doors\": {\"length\": 4096}",
    "\"transforms\": [\"rotate\", \"mirror\"]",
    "\"templates\": [\"8x8\"]",
    "[\"0\", \"1\"]",
    "{\"id\": \"x\"}",
    "{\"from\": \"0\", \"to\": \"1\", \"corridor\": {\"lengths\": [4096]}}",
    "\"corridor\": false",
    "\"id\"",
    "\"name\"",
    "\"rooms\"",
    "\"connections\"",
    "\"templates\"",
    "\"size\"",
    "\"outline\"",
    "\u{feff}",
    "é",
];

/// Mutants that parsed, that set up (a plan), and levels built: the share of mutants that get
/// past each stage, printed so that a change that makes every mutant an early error shows.
static STAGES: [AtomicU64; 3] = [AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0)];

fn passed(stage: usize) {
    STAGES[stage].fetch_add(1, Ordering::Relaxed);
}

/// The seed files, split by kind: `(origin, bytes)`.
struct Seeds {
    libraries: Vec<(String, Vec<u8>)>,
    graphs: Vec<(String, Vec<u8>)>,
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The largest seed graph fuzzed, in rooms. The 1,000-room graph of `tests/map_cli` lays out in
/// about a second in the test profile: its sweep mutants took a minute of the run, and a loaded
/// machine took one of its builds past the 2 s hang limit. The reader is fuzzed on the smaller
/// graphs (150 rooms the largest), and `map_cli` lays the 1,000-room graph out and verifies it.
const MAX_SEED_ROOMS: usize = 300;

fn seeds() -> &'static Seeds {
    static SEEDS: OnceLock<Seeds> = OnceLock::new();
    SEEDS.get_or_init(|| {
        let mut seeds = Seeds {
            libraries: Vec::new(),
            graphs: Vec::new(),
        };
        for dir in [
            "data/map",
            "data/map/graphs",
            "data/map/examples",
            "tests/map_cli",
        ] {
            for (path, bytes) in files_in(&root().join(dir), ".json") {
                let value: Value = serde_json::from_slice(&bytes)
                    .unwrap_or_else(|e| panic!("{path}: not JSON: {e}"));
                let rooms = value.get("rooms").and_then(Value::as_array).map(Vec::len);
                if value.get("templates").is_some() {
                    seeds.libraries.push((path, bytes));
                } else if rooms.is_some_and(|r| r > MAX_SEED_ROOMS) {
                    // Too large to fuzz: see MAX_SEED_ROOMS.
                } else if rooms.is_some() {
                    seeds.graphs.push((path, bytes));
                }
            }
        }
        seeds
    })
}

/// The seed libraries, parsed (the libraries the graph mutants are read against).
fn seed_libraries() -> &'static [Library] {
    static LIBRARIES: OnceLock<Vec<Library>> = OnceLock::new();
    LIBRARIES.get_or_init(|| {
        seeds()
            .libraries
            .iter()
            .map(|(path, bytes)| {
                parse_library(&text(bytes), path)
                    .unwrap_or_else(|e| panic!("a seed library is refused: {e}"))
            })
            .collect()
    })
}

/// The seed graphs of at most [`SMALL_GRAPH`] rooms (the graphs the library mutants are built
/// with): `(origin, text)`.
fn small_graphs() -> &'static [(String, String)] {
    static GRAPHS: OnceLock<Vec<(String, String)>> = OnceLock::new();
    GRAPHS.get_or_init(|| {
        let small: Vec<(String, String)> = seeds()
            .graphs
            .iter()
            .map(|(path, bytes)| (path.clone(), text(bytes)))
            .filter(|(path, text)| {
                seed_libraries()
                    .iter()
                    .any(|l| parse_graph(text, path, l).is_ok_and(|g| g.rooms.len() <= SMALL_GRAPH))
            })
            .collect();
        assert!(
            !small.is_empty(),
            "no seed graph of at most {SMALL_GRAPH} rooms"
        );
        small
    })
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// FNV-1a of the input: picks the profile and graph a mutant is tried with, the same each run.
fn hash(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// A profile picked by `key`: every corridor mode, corridor lengths 1 to 3, rooms apart or not.
fn config(key: u64, graph: &str, library: &str) -> MapConfig {
    MapConfig {
        graph: graph.into(),
        templates: library.to_owned(),
        corridors: [
            CorridorMode::None,
            CorridorMode::Templates,
            CorridorMode::Routed,
        ][(key % 3) as usize],
        corridor_lengths: vec![1 + (key >> 2) as u32 % 3],
        max_corridor: 1 + (key >> 4) as u32 % 8,
        min_room_distance: (key >> 7) as u32 % 2,
        ..MapConfig::default()
    }
}

/// `Ok` when a reader's error names `origin` and its place (or, for an empty file, `origin`),
/// on one line.
fn input_error(what: &str, e: &MapInputError, origin: &str) -> Result<(), String> {
    let shown = e.to_string();
    if shown.contains('\n') {
        return Err(format!("{what}: an error of more than one line: {shown}"));
    }
    match e {
        MapInputError::At { .. } => expect_line_col(what, &shown, origin),
        MapInputError::Whole { .. } if shown.starts_with(&format!("{origin}: ")) => Ok(()),
        _ => Err(format!("{what}: not an error of `{origin}`: {shown}")),
    }
}

/// What generation builds from a graph and library: the plan (its proofs may refuse the graph,
/// naming the graph or the library), then [`LEVELS`] levels with a small work bound, rasterised.
fn generate(graph: &LevelGraph, library: &Library, origin: &str, key: u64) -> Result<(), String> {
    passed(0);
    let cfg = config(key, origin, &library.name);
    let mut plan = match plan_for(&cfg, graph, library) {
        Ok(plan) => plan,
        Err(MapSetupError::Unusable(why)) => {
            let named = why.starts_with(&format!("{origin}:"))
                || why.starts_with(&format!("{}:", library.name));
            if named && !why.contains('\n') {
                return Ok(());
            }
            return Err(format!("setup: refusal without its file: {why}"));
        }
        Err(e) => return Err(format!("setup: unexpected error: {e}")),
    };
    passed(1);
    let complete = cfg.corridors == CorridorMode::None && (key >> 8).is_multiple_of(4);
    if complete && (0..plan.conns.len()).all(|j| plan.gaps(j).ranges == [(0, 0)]) {
        plan.make_exhaustive();
        // As `generate map` does: the first room once per symmetry class every template allows.
        let all = |f: fn(&Template) -> bool| library.templates.iter().all(f);
        plan.first_room_up_to_symmetry(all(|t| t.transforms.rotate), all(|t| t.transforms.mirror));
    }
    plan.attempt_work = plan.attempt_work.min(ATTEMPT_WORK);
    plan.max_attempts = plan.max_attempts.min(2);
    plan.max_rewinds = plan.max_rewinds.min(1);
    let (mut scratch, mut tiles) = (BuildScratch::default(), Tiles::default());
    for seed in 0..LEVELS {
        if build(&plan, key ^ seed, &mut scratch).is_err() {
            continue;
        }
        passed(2);
        // Maps of a few 4096-tile templates are legal; `rasterise` refuses those over
        // 2^26 tiles, and the fuzz run draws only those up to 2^24, to stay fast.
        let area = box_tiles(&plan, &scratch.out);
        if area > MAX_RASTER_TILES {
            continue;
        }
        if let Err((w, h)) = rasterise(&plan, &scratch.out, &mut tiles) {
            return Err(format!(
                "generate: a map of {area} tiles refused as {w} x {h}"
            ));
        }
        let cells = tiles.width as usize * tiles.height as usize;
        if tiles.cells.len() != cells || tiles.owner.len() != cells {
            return Err(format!(
                "generate: {} x {} tiles but {} cells",
                tiles.width,
                tiles.height,
                tiles.cells.len()
            ));
        }
    }
    Ok(())
}

/// The tiles of a layout's bounding box (what [`rasterise`] allocates).
fn box_tiles(plan: &Plan, layout: &Layout) -> u64 {
    let (mut x0, mut y0, mut x1, mut y1) = (i64::MAX, i64::MAX, i64::MIN, i64::MIN);
    for (v, &s) in layout.shape.iter().enumerate() {
        let shape = &plan.shapes()[s as usize];
        x0 = x0.min(i64::from(layout.x[v]));
        y0 = y0.min(i64::from(layout.y[v]));
        x1 = x1.max(i64::from(layout.x[v]) + i64::from(shape.w));
        y1 = y1.max(i64::from(layout.y[v]) + i64::from(shape.h));
    }
    ((x1 - x0 + 1).max(0) as u64) * ((y1 - y0 + 1).max(0) as u64)
}

/// A mutated library: parsed, then built with one of the small seed graphs.
fn check_library(bytes: &[u8]) -> Result<(), String> {
    let library = match parse_library(&text(bytes), LIBRARY_FILE) {
        Ok(library) => library,
        Err(e) => return input_error("library", &e, LIBRARY_FILE),
    };
    if library.templates.is_empty() {
        return Err("library: accepted without templates".into());
    }
    let key = hash(bytes);
    let graphs = small_graphs();
    let (origin, graph) = &graphs[(key % graphs.len() as u64) as usize];
    match parse_graph(graph, origin, &library) {
        Ok(graph) => generate(&graph, &library, origin, key),
        // The graph may name templates the mutant lost.
        Err(e) => input_error("graph of a library", &e, origin),
    }
}

/// A mutated graph: parsed against every seed library, then built with the first that takes it.
fn check_graph(bytes: &[u8]) -> Result<(), String> {
    let text = text(bytes);
    let mut first = None;
    for library in seed_libraries() {
        match parse_graph(&text, GRAPH_FILE, library) {
            Ok(graph) => {
                if graph.rooms.is_empty() {
                    return Err("graph: accepted without rooms".into());
                }
                first = first.or(Some((graph, library)));
            }
            Err(e) => input_error("graph", &e, GRAPH_FILE)?,
        }
    }
    match first {
        Some((graph, library)) => generate(&graph, library, GRAPH_FILE, hash(bytes)),
        None => Ok(()),
    }
}

/// A byte range `(start, end)` of a text.
type Span = (usize, usize);

/// Per byte, whether it is part of a JSON string (its quotes included).
fn in_strings(bytes: &[u8]) -> Vec<bool> {
    let (mut inside, mut escaped) = (false, false);
    bytes
        .iter()
        .map(|&b| {
            let was = inside;
            if inside && escaped {
                escaped = false;
            } else if inside && b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                inside = !inside;
            }
            was || inside
        })
        .collect()
}

/// The byte ranges of the numbers (outside strings) and of the keys (with their quotes) of a
/// JSON text.
fn tokens_of(bytes: &[u8]) -> (Vec<Span>, Vec<Span>) {
    let strings = in_strings(bytes);
    let (mut numbers, mut keys) = (Vec::new(), Vec::new());
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if !strings[i] && (b == b'-' || b.is_ascii_digit()) {
            let end = (i + 1..bytes.len())
                .find(|&k| !matches!(bytes[k], b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-'))
                .unwrap_or(bytes.len());
            numbers.push((i, end));
            i = end;
        } else if b == b'"' && !strings.get(i.wrapping_sub(1)).copied().unwrap_or(false) {
            let end = (i + 1..bytes.len())
                .find(|&k| !strings[k])
                .unwrap_or(bytes.len());
            let rest = bytes[end..].iter().find(|c| !c.is_ascii_whitespace());
            if rest == Some(&b':') {
                keys.push((i, end));
            }
            i = end;
        } else {
            i += 1;
        }
    }
    (numbers, keys)
}

/// At most `most` of `items`, evenly spread.
fn spread<T: Copy>(items: &[T], most: usize) -> Vec<T> {
    let step = items.len().div_ceil(most).max(1);
    items.iter().step_by(step).copied().collect()
}

/// `bytes` with each range of `ranges` (sorted, disjoint) replaced by `with`.
fn replaced(bytes: &[u8], ranges: &[Span], with: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut from = 0;
    for &(a, b) in ranges {
        out.extend_from_slice(&bytes[from..a]);
        out.extend_from_slice(with.as_bytes());
        from = b;
    }
    out.extend_from_slice(&bytes[from..]);
    out
}

/// The sweep's mutants of one seed: each of (at most 24 of) its numbers replaced by each
/// extreme, all its numbers replaced by each extreme, each of (at most 16 of) its keys replaced
/// by each other key, and its structural mutants ([`library_structures`],
/// [`graph_structures`]).
fn sweep_mutants(seed: &[u8]) -> Vec<Vec<u8>> {
    let (numbers, keys) = tokens_of(seed);
    let mut out = Vec::new();
    for &number in &spread(&numbers, 24) {
        for extreme in EXTREMES {
            out.push(replaced(seed, &[number], extreme));
        }
    }
    for extreme in EXTREMES {
        out.push(replaced(seed, &numbers, extreme));
    }
    for &key in &spread(&keys, 16) {
        for other in KEYS {
            out.push(replaced(seed, &[key], &format!("\"{other}\"")));
        }
    }
    let value: Value = serde_json::from_slice(seed).expect("the seeds are JSON");
    let structures = match value.get("templates") {
        Some(_) => library_structures(&value),
        None => graph_structures(&value),
    };
    out.extend(
        structures
            .iter()
            .map(|v| serde_json::to_vec_pretty(v).unwrap()),
    );
    out
}

/// A staircase outline of `corners` corners: the top and left sides of a square, and steps of 3
/// tiles down from its top right to its bottom left.
fn stairs(corners: usize) -> Value {
    let k = (corners as i64 - 2) / 2;
    let mut points = vec![json!([0, 0]), json!([3 * k, 0])];
    for i in 1..=k {
        points.push(json!([3 * (k - i + 1), 3 * i]));
        points.push(json!([3 * (k - i), 3 * i]));
    }
    Value::Array(points)
}

/// Structural mutants of a library: a template that lists each of its 4 doors
/// [`DOOR_COPIES`] times, and outlines of [`MAX_CORNERS`] corners and of 2 more.
//
// NOTE: the staircases' steps have no room for doors. With a door on every step the builder
// hangs (reported with this test): 256 corners take seconds a level, 1024 minutes, all in
// `floorplan::build::search::candidates_for`.
fn library_structures(seed: &Value) -> Vec<Value> {
    let four = [
        [[3, 0], [4, 0]],
        [[3, 7], [4, 7]],
        [[0, 3], [0, 4]],
        [[7, 3], [7, 4]],
    ];
    let copies: Vec<_> = (0..DOOR_COPIES).flat_map(|_| four).collect();
    // A step's wall has 4 tiles, 2 of them corners: no room for a door a tile off them.
    let clear = json!({"length": 1, "corner_distance": 1});
    let doors = json!({"name": "fuzz-doors", "size": [8, 8], "doors": {"positions": copies}});
    [
        doors,
        json!({"name": "fuzz-stairs", "outline": stairs(MAX_CORNERS), "doors": clear}),
        json!({"name": "fuzz-stairs", "outline": stairs(MAX_CORNERS + 2), "doors": clear}),
    ]
    .into_iter()
    .map(|template| {
        let mut library = seed.clone();
        if let Some(list) = library.get_mut("templates").and_then(Value::as_array_mut) {
            list.push(template);
        }
        library
    })
    .collect()
}

/// Structural mutants of a graph: its first room joined to every other (a star, then the same
/// without corridors), and its connections with every pair of its first five rooms (a K5).
fn graph_structures(seed: &Value) -> Vec<Value> {
    let ids: Vec<Value> = seed
        .get("rooms")
        .and_then(Value::as_array)
        .map(|rooms| rooms.iter().filter_map(|r| r.get("id").cloned()).collect())
        .unwrap_or_default();
    let Some(hub) = ids.first() else {
        return Vec::new();
    };
    let star = ids[1..].iter().map(|v| json!([hub, v])).collect();
    let apart = ids[1..]
        .iter()
        .map(|v| json!({"from": hub, "to": v, "corridor": false}))
        .collect();
    let ends = |c: &Value| match c {
        Value::Array(ab) => (ab.first().cloned(), ab.get(1).cloned()),
        _ => (c.get("from").cloned(), c.get("to").cloned()),
    };
    let mut clique: Vec<Value> = seed
        .get("connections")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let first = &ids[..ids.len().min(5)];
    for (i, a) in first.iter().enumerate() {
        for b in &first[i + 1..] {
            let (a, b) = (Some(a.clone()), Some(b.clone()));
            if !clique
                .iter()
                .map(ends)
                .any(|e| e == (a.clone(), b.clone()) || e == (b.clone(), a.clone()))
            {
                clique.push(json!([a, b]));
            }
        }
    }
    [star, apart, clique]
        .into_iter()
        .map(|connections| {
            let mut graph = seed.clone();
            graph["connections"] = Value::Array(connections);
            graph
        })
        .collect()
}

/// Runs the sweep of `seeds` through `check`; returns the number of mutants.
fn sweep(parser: &str, seeds: &[Vec<u8>], check: Check) -> usize {
    let started = std::time::Instant::now();
    let mut count = 0;
    for seed in seeds {
        for mutant in sweep_mutants(seed) {
            count += 1;
            // The sweep's structural mutants (outlines of 1,024 corners, 100 copies of every
            // door) build levels of the largest templates: under half a second alone (436 ms
            // the slowest on this project's machine), but a loaded CI machine (2 cores, the
            // Python and 10,000-level tests beside it) has taken over 2 s and once over 10 s,
            // so the sweep allows 30 s a case (a hang is still a failure).
            if let Err(e) = run_case_within(check, mutant, 30_000) {
                panic!("fuzz {parser} sweep: {e}");
            }
        }
    }
    eprintln!(
        "fuzz {parser} sweep: {count} cases in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    count
}

#[test]
fn fuzz_map_inputs() {
    let seeds = seeds();
    let bytes = |files: &[(String, Vec<u8>)]| -> Vec<Vec<u8>> {
        files.iter().map(|(_, b)| b.clone()).collect()
    };
    let (libraries, graphs) = (bytes(&seeds.libraries), bytes(&seeds.graphs));
    eprintln!(
        "fuzz map inputs: {} libraries, {} graphs",
        libraries.len(),
        graphs.len()
    );
    assert!(
        !libraries.is_empty() && !graphs.is_empty(),
        "no seed libraries or graphs"
    );
    // Every seed graph parses against some seed library (else its mutants test errors only).
    for (path, graph) in &seeds.graphs {
        let graph = text(graph);
        assert!(
            seed_libraries()
                .iter()
                .any(|l| parse_graph(&graph, path, l).is_ok()),
            "{path}: no seed library takes this graph"
        );
    }
    sweep("map library", &libraries, check_library);
    sweep("map graph", &graphs, check_graph);
    fuzz("map library", &libraries, &TOKENS, check_library);
    fuzz("map graph", &graphs, &TOKENS, check_graph);
    let [parsed, set_up, built] = STAGES.each_ref().map(|s| s.load(Ordering::Relaxed));
    eprintln!(
        "fuzz map inputs: {parsed} mutants parsed (with their graph), {set_up} set up, \
         {built} levels built"
    );
    assert!(built > 0, "no mutant got as far as a level");
}

#[test]
fn map_input_tokens_are_found() {
    let json = br#"{"a": [1, -2.5e3], "b\"c": "x: 3", "d" : {"e": 4}}"#;
    let (numbers, keys) = tokens_of(json);
    let shown = |ranges: &[Span]| -> Vec<String> {
        ranges.iter().map(|&(a, b)| text(&json[a..b])).collect()
    };
    assert_eq!(shown(&numbers), ["1", "-2.5e3", "4"]);
    assert_eq!(shown(&keys), ["\"a\"", "\"b\\\"c\"", "\"d\"", "\"e\""]);
}

/// The origin of a mutated mask.
const MASK_FILE: &str = "fuzz-mask.txt";

/// A mask mutant: read, it is a mask of its stated size with a tile allowed; refused, the
/// error names the file and its place (or, for an empty mask, the file), on one line.
fn check_mask(bytes: &[u8]) -> Result<(), String> {
    match parse_mask(&text(bytes), MASK_FILE) {
        Ok(mask) => {
            let tiles = mask.width as usize * mask.height as usize;
            if mask.allowed.len() != tiles || !mask.allowed.contains(&true) {
                return Err(format!(
                    "mask: {} x {} with {} tiles read, {} allowed",
                    mask.width,
                    mask.height,
                    mask.allowed.len(),
                    mask.allowed.iter().filter(|&&a| a).count()
                ));
            }
            Ok(())
        }
        Err(e) => input_error("mask", &e, MASK_FILE),
    }
}

#[test]
fn fuzz_masks() {
    let mut seeds: Vec<Vec<u8>> = files_in(&root().join("data/map/examples"), ".txt")
        .into_iter()
        .map(|(_, bytes)| bytes)
        .collect();
    assert!(!seeds.is_empty(), "no seed masks under data/map/examples");
    seeds.push(b"##.\r\n.##\n\n".to_vec());
    seeds.push("\u{feff}.#\n#.\n".as_bytes().to_vec());
    let tokens = [
        "#",
        ".",
        "\n",
        "\r\n",
        "\r",
        " ",
        "\t",
        "\u{feff}",
        "x",
        "##########",
    ];
    fuzz("map mask", &seeds, &tokens, check_mask);
}
