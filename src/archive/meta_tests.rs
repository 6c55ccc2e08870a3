use super::*;
use crate::batch::Shard;
use crate::maze::{MazeConfig, MazeGenerator};

fn maze_meta() -> RunMeta {
    let g = MazeGenerator::new(MazeConfig::default()).unwrap();
    RunMeta::new(&g, "kind = \"maze\"\n", 42)
}

/// The schema metadata of a maze run of warren 0.2, before `warren.format`: prose shard record.
fn version_0_2_metadata() -> Metadata {
    [
        ("warren.version", "0.2.0"),
        ("warren.generator", "maze"),
        ("warren.profile", "kind = \"maze\"\n"),
        ("warren.master_seed", "42"),
        ("warren.cell_codes", "{\"0\":\"wall\",\"1\":\"floor\"}"),
        ("warren.tags", "[]"),
        ("warren.rules", "[]"),
        ("warren.shard", "0/1 of 1000 levels: 0..1000"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect()
}

#[test]
fn run_metadata_round_trips_with_json_values() {
    let mut files = Files::new();
    files.insert("rules/x.toml".into(), "a = \"b\"\n".into());
    let meta = maze_meta()
        .with_shard(ShardMeta::new(Shard { index: 0, count: 1 }, 1000))
        .with_files(files);
    let metadata = Metadata::from(meta.to_metadata());
    assert_eq!(metadata[META_FORMAT], FORMAT_VERSION.to_string());
    assert_eq!(
        metadata[META_SHARD],
        r#"{"index":0,"count":1,"total":1000,"start":0,"end":1000}"#
    );
    assert!(metadata[META_CELL_CODES].starts_with(r#"{"0":"wall","1":"floor","#));
    assert!(metadata[META_CELL_CODES].ends_with(r#""8":"void"}"#));
    assert_eq!(metadata[META_TAGS], "[]");
    assert_eq!(metadata[META_FILES], r#"{"rules/x.toml":"a = \"b\"\n"}"#);
    assert_eq!(RunMeta::from_metadata(&metadata).unwrap(), meta);
}

#[test]
fn a_run_without_shard_or_files_writes_neither_key() {
    let metadata = Metadata::from(maze_meta().to_metadata());
    assert!(!metadata.contains_key(META_SHARD) && !metadata.contains_key(META_FILES));
    assert!(!metadata.contains_key(crate::archive::META_MIXTURE));
    let read = RunMeta::from_metadata(&metadata).unwrap();
    assert_eq!((read.shard, read.files.len()), (None, 0));
}

#[test]
fn a_mixture_round_trips_as_json() {
    let mixture = crate::archive::MixtureMeta {
        variants: vec![vec!["maze.width=4".into()], vec!["maze.width=8".into()]],
        weights: vec![1, 2],
        binary_grid: true,
    };
    let meta = maze_meta().with_mixture(Some(mixture));
    let metadata = Metadata::from(meta.to_metadata());
    assert_eq!(
        metadata[crate::archive::META_MIXTURE],
        r#"{"variants":[["maze.width=4"],["maze.width=8"]],"weights":[1,2],"binary_grid":true}"#
    );
    assert_eq!(RunMeta::from_metadata(&metadata).unwrap(), meta);
}

#[test]
fn version_0_2_metadata_is_refused_naming_the_version() {
    let e = RunMeta::from_metadata(&version_0_2_metadata()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "archive format 0.2 (warren 0.2.0) is older than this warren reads (3); regenerate it"
    );
    assert!(check_format(&version_0_2_metadata()).is_err());
}

#[test]
fn other_format_numbers_are_refused() {
    let mut metadata = Metadata::from(maze_meta().to_metadata());
    metadata.insert(META_FORMAT, "4");
    let e = RunMeta::from_metadata(&metadata).unwrap_err().to_string();
    assert!(
        e.starts_with("archive format 4 (warren ") && e.contains("is newer than this warren"),
        "{e}"
    );
    metadata.insert(META_FORMAT, "2");
    assert!(matches!(
        RunMeta::from_metadata(&metadata),
        Err(MetaError::TooOld { .. })
    ));
    metadata.insert(META_FORMAT, "three");
    let e = RunMeta::from_metadata(&metadata).unwrap_err().to_string();
    assert!(
        e.starts_with("warren.format `three` is not a format number"),
        "{e}"
    );
}

#[test]
fn metadata_without_run_keys_has_no_format_but_is_no_run() {
    assert_eq!(check_format(&Metadata::new()).unwrap(), None);
    let e = RunMeta::from_metadata(&Metadata::new()).unwrap_err();
    assert_eq!(e.to_string(), "no warren.format metadata");
}

#[test]
fn bad_values_are_one_line_errors_naming_their_key() {
    let good = Metadata::from(
        maze_meta()
            .with_shard(ShardMeta::new(Shard { index: 1, count: 4 }, 1000))
            .to_metadata(),
    );
    let cases = [
        (
            META_SHARD,
            "0/1 of 1000 levels: 0..1000",
            "warren.shard `0/1 of",
        ),
        (
            META_SHARD,
            r#"{"index":1,"count":4,"total":1000,"start":250,"end":501}"#,
            "shard 1/4 of 1000 levels is 250..500, not 250..501",
        ),
        (
            META_SHARD,
            r#"{"index":1,"count":4}"#,
            "missing field `total`",
        ),
        (
            META_TAGS,
            "cave,door",
            "warren.tags `cave,door` is not a JSON array",
        ),
        (
            META_MASTER_SEED,
            "-1",
            "warren.master_seed `-1` is not a number",
        ),
        (
            META_CELL_CODES,
            "[]",
            "warren.cell_codes `[]` is not a JSON object",
        ),
        (META_FILES, "{\"a\":1}", "warren.files"),
    ];
    for (key, value, want) in cases {
        let mut metadata = good.clone();
        metadata.insert(key, value);
        let e = RunMeta::from_metadata(&metadata).unwrap_err().to_string();
        assert!(e.contains(want), "{key}={value}: {e}");
        assert!(!e.contains('\n'), "{e}");
    }
    let mut metadata = good;
    metadata.remove(META_GENERATOR);
    let e = RunMeta::from_metadata(&metadata).unwrap_err();
    assert_eq!(e.to_string(), "no warren.generator metadata");
}

#[test]
fn long_values_are_shortened_in_messages() {
    let mut metadata = Metadata::from(maze_meta().to_metadata());
    metadata.insert(META_RULES, "x".repeat(500));
    let e = RunMeta::from_metadata(&metadata).unwrap_err().to_string();
    assert!(e.len() < 200 && e.contains("xxx..."), "{e}");
}

#[test]
fn footers_round_trip_and_name_their_keys() {
    let footer = RunFooter {
        levels: 998,
        failures: BTreeMap::from([("below min_vertices".to_string(), 2)]),
        scanned: None,
    };
    let pairs = footer.to_metadata();
    let metadata: HashMap<String, String> = pairs.into_iter().collect();
    assert_eq!(metadata[FOOTER_FAILURES], r#"{"below min_vertices":2}"#);
    assert_eq!(RunFooter::from_metadata(&metadata).unwrap(), footer);
    assert_eq!(footer.failed(), 2);

    // With a selection, the scan record too.
    let selected = RunFooter {
        scanned: Some(Scanned {
            start: 0,
            end: 1100,
            duplicates: 7,
            filtered: 93,
        }),
        ..footer.clone()
    };
    let with_scan: HashMap<String, String> = selected.to_metadata().into_iter().collect();
    assert_eq!(
        with_scan[FOOTER_SCANNED],
        r#"{"start":0,"end":1100,"duplicates":7,"filtered":93}"#
    );
    assert_eq!(RunFooter::from_metadata(&with_scan).unwrap(), selected);
    let mut bad_scan = with_scan;
    bad_scan.insert(FOOTER_SCANNED.into(), r#"{"start":0}"#.into());
    let e = RunFooter::from_metadata(&bad_scan).unwrap_err().to_string();
    assert!(e.starts_with("warren.scanned"), "{e}");

    let mut bad = metadata.clone();
    bad.insert(FOOTER_FAILURES.into(), "below min_vertices: 2".into());
    let e = RunFooter::from_metadata(&bad).unwrap_err().to_string();
    assert!(
        e.starts_with("warren.failures `below min_vertices: 2` is not"),
        "{e}"
    );
    let mut missing = metadata;
    missing.remove(FOOTER_LEVELS);
    let e = RunFooter::from_metadata(&missing).unwrap_err().to_string();
    assert_eq!(e, "no warren.levels metadata");
}

#[test]
fn batch_checksums_are_a_json_array_of_numbers() {
    let json = batch_crcs_to_json(&[0xdead_beef, 7]);
    assert_eq!(json, "[3735928559,7]");
    assert_eq!(batch_crcs_from_json(&json).unwrap(), [0xdead_beef, 7]);
    let e = batch_crcs_from_json("deadbeef,00000007")
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("warren.batch_crc32 `deadbeef,00000007` is not"),
        "{e}"
    );
}
