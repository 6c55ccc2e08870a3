//! Recursive zoom regions (seed 004) end to end: `generate regions` writes archives that verify
//! and do not depend on the thread count, `inspect` summarises the overlap metric and documents
//! the region tree columns, tampering with the tree is caught, and a bad profile value is a
//! one-line error naming its file, line and column.

use std::path::Path;

use crate::common::{
    TempDir, assert_one_line_error, assert_verifies, column_u64, exit_code, generate_kind, stderr,
    stdout, warren,
};

/// Small, shallow levels: fast in a debug build.
const SMALL: [&str; 8] = [
    "--set",
    "regions.width=10",
    "--set",
    "regions.height=10",
    "--set",
    "regions.max_width=12",
    "--set",
    "regions.max_height=12",
];

fn generate_regions(out: &Path, args: &[&str]) {
    generate_kind("regions", out, &[&SMALL[..], args].concat());
}

#[test]
fn generated_regions_verify_and_do_not_depend_on_threads() {
    let dir = TempDir::new("regions-verify");
    let (one, two) = (dir.join("one.arrow"), dir.join("two.arrow"));
    let base = ["--count", "300", "--seed", "4", "--chunk-size", "40"];
    generate_regions(&one, &[&base[..], &["--threads", "1"]].concat());
    generate_regions(&two, &[&base[..], &["--threads", "2"]].concat());
    assert_verifies(&one);
    assert_eq!(
        column_u64(&one, "layout_hash"),
        column_u64(&two, "layout_hash")
    );
    assert_eq!(std::fs::read(&one).unwrap(), std::fs::read(&two).unwrap());

    let output = warren([Path::new("inspect"), &one]);
    let text = stdout(&output);
    assert_eq!(exit_code(&output), 0, "{}", stderr(&output));
    // The metrics table comes after the schema listing, which names the column too.
    let overlap = text
        .lines()
        .rfind(|l| l.split_whitespace().next() == Some("overlap_ratio"))
        .unwrap_or_else(|| panic!("inspect does not summarise overlap_ratio: {text}"));
    let mean: f64 = overlap.split_whitespace().nth(2).unwrap().parse().unwrap();
    assert!((0.0..1.0).contains(&mean), "{overlap}");
    assert!(
        text.lines()
            .any(|l| l.contains("region_parent") && l.contains("parent")),
        "the tree columns are not documented: {text}"
    );
}

#[test]
fn verify_catches_a_tampered_region_tree() {
    let dir = TempDir::new("regions-tamper");
    let path = dir.join("r.arrow");
    generate_regions(&path, &["--count", "20", "--seed", "9"]);
    // Every level's root has zoom 1 and its children zoom 2..=4: the first zoom list of the
    // file is `1, z, ...`. Raise the root's zoom to 5 in level 0's zoom list.
    let archive = warren::archive::Archive::open(&path).unwrap();
    let batch = archive.batch(0).unwrap();
    use arrow_array::Array;
    use arrow_array::cast::AsArray;
    let zooms = batch
        .column_by_name("region_zoom")
        .unwrap()
        .as_list::<i32>();
    let first: Vec<u8> = zooms
        .value(0)
        .as_primitive::<arrow_array::types::UInt8Type>()
        .values()
        .to_vec();
    assert_eq!(first[0], 1);
    let values = zooms.values().to_data();
    let needle = &values.buffers()[0].as_slice()[..first.len().min(12)];
    drop(batch);
    drop(archive);
    let mut bytes = std::fs::read(&path).unwrap();
    let at = bytes
        .windows(needle.len())
        .position(|w| w == needle)
        .expect("zoom bytes in the file");
    bytes[at] = 5;
    std::fs::write(&path, &bytes).unwrap();
    let output = warren([Path::new("verify"), &path]);
    let report = stdout(&output);
    assert_eq!(exit_code(&output), 1, "{report}{}", stderr(&output));
    assert!(
        report.contains("level 0: region 0 is not the root"),
        "{report}"
    );
}

#[test]
fn a_bad_regions_profile_names_its_file_line_and_column() {
    let dir = TempDir::new("regions-profile");
    let profile = dir.join("r.toml");
    std::fs::write(
        &profile,
        "kind = \"regions\"\n[regions]\nmax_width = 16\nwidth = 20\n",
    )
    .unwrap();
    let out = dir.join("r.arrow");
    let args = [
        "generate",
        profile.to_str().unwrap(),
        "--count",
        "3",
        "--out",
        out.to_str().unwrap(),
    ];
    let output = warren(args);
    assert_eq!(exit_code(&output), 2, "{}", stderr(&output));
    assert_one_line_error(&output, "bad regions profile");
    assert!(
        stderr(&output).contains("r.toml:4:9: regions.width = 20 is out of range 2..=16"),
        "{}",
        stderr(&output)
    );
    assert!(!out.exists());
}
