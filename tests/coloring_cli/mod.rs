//! GraphColoring puzzle levels (seed 002) end to end: `generate` with every shipped coloring
//! profile writes archives that `verify` accepts, `levelxml export` turns one into a levels
//! folder that `levelxml check` accepts (and whose Eulerian levels the stored walk completes),
//! export refuses archives of other kinds, and a bad profile value is a one-line error naming
//! its file, line and column.

use std::path::{Path, PathBuf};

use arrow_array::Array;
use arrow_array::cast::AsArray;
use arrow_array::types::UInt32Type;
use warren::archive::Archive;

use crate::common::{
    TempDir, assert_one_line_error, assert_succeeded, assert_verifies, exit_code, generate_kind,
    stderr, stdout, warren,
};

fn profile(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("profiles/{name}.toml"))
}

fn generate(profile: &Path, out: &Path, count: &str) {
    generate_kind(profile, out, &["--count", count, "--seed", "2"]);
}

/// Column `name` of every level, as text (utf8) or numbers (list<u32>).
fn texts(path: &Path, name: &str) -> Vec<String> {
    let archive = Archive::open(path).unwrap();
    (0..archive.batch_count())
        .flat_map(|b| {
            let batch = archive.batch(b).unwrap();
            let col = batch.column_by_name(name).unwrap().as_string::<i32>();
            (0..col.len())
                .map(|r| col.value(r).to_string())
                .collect::<Vec<_>>()
        })
        .collect()
}

fn walks(path: &Path) -> Vec<Vec<u32>> {
    let archive = Archive::open(path).unwrap();
    let batch = archive.batch(0).unwrap();
    let col = batch.column_by_name("walk").unwrap().as_list::<i32>();
    (0..col.len())
        .map(|r| col.value(r).as_primitive::<UInt32Type>().values().to_vec())
        .collect()
}

#[test]
fn every_coloring_profile_generates_levels_that_verify() {
    let dir = TempDir::new("coloring-verify");
    for name in [
        "coloring",
        "coloring-chromatic",
        "coloring-edge",
        "coloring-euler-cycle",
        "coloring-euler-path",
    ] {
        let out = dir.join(&format!("{name}.arrow"));
        generate(&profile(name), &out, "40");
        let report = assert_verifies(&out);
        assert!(
            report.contains("40 levels checked, 0 violations"),
            "{name}: {report}"
        );
    }
    // The bare kind is the default profile.
    let bare = dir.join("bare.arrow");
    generate_kind("coloring", &bare, &["--count", "40", "--seed", "2"]);
    assert_eq!(
        texts(&bare, "level_xml"),
        texts(&dir.join("coloring.arrow"), "level_xml")
    );
}

#[test]
fn an_export_is_a_levels_folder_the_checker_accepts() {
    let dir = TempDir::new("coloring-export");
    let (vertex, euler) = (dir.join("v.arrow"), dir.join("e.arrow"));
    generate(&profile("coloring"), &vertex, "12");
    generate(&profile("coloring-euler-cycle"), &euler, "12");
    let levels = dir.join("levels");
    let export = |archive: &Path, extra: &[&str]| {
        let mut args = vec![
            "levelxml",
            "export",
            archive.to_str().unwrap(),
            "--out",
            levels.to_str().unwrap(),
        ];
        args.extend(extra);
        let output = warren(&args);
        assert_eq!(exit_code(&output), 0, "{args:?}: {}", stderr(&output));
        stdout(&output)
    };
    let said = export(&vertex, &["--index", "3", "--count", "4"]);
    assert!(said.contains(": 4 levels in "), "{said}");
    export(&euler, &[]);
    let list = levels.join("level-list.xml");
    let output = warren([Path::new("levelxml"), Path::new("check"), &list]);
    assert_succeeded(&output, "levelxml check");
    assert!(
        stdout(&output).contains("level-list.xml: ok, 2 categories, 16 levels"),
        "{}",
        stdout(&output)
    );
    // The files are the archive's XML, named by level index.
    let xml = texts(&vertex, "level_xml");
    for (i, text) in xml.iter().enumerate().take(7).skip(3) {
        let file = levels.join(format!("warren-vertex/level-{i:06}.xml"));
        assert_eq!(&std::fs::read_to_string(&file).unwrap(), text);
    }
    assert!(!levels.join("warren-vertex/level-000007.xml").exists());
    // The stored walk completes the exported Eulerian level, as the game scores it.
    let walk = &walks(&euler)[5];
    let path: Vec<String> = walk.iter().map(u32::to_string).collect();
    let file = levels.join("warren-euler-cycle/level-000005.xml");
    let output = warren([
        "levelxml".as_ref(),
        "eval".as_ref(),
        file.as_os_str(),
        "--path".as_ref(),
        path.join(",").as_ref(),
    ]);
    assert_eq!(exit_code(&output), 0, "{}", stderr(&output));
    assert!(
        stdout(&output).ends_with("complete: yes\n"),
        "{}",
        stdout(&output)
    );
    // Exporting another range adds its levels to the category; exporting it again lists each
    // level once.
    for _ in 0..2 {
        export(&vertex, &["--count", "2"]);
        let again = warren([Path::new("levelxml"), Path::new("check"), &list]);
        assert!(
            stdout(&again).contains("2 categories, 18 levels"),
            "{}",
            stdout(&again)
        );
    }
    let listed = std::fs::read_to_string(&list).unwrap();
    let first = listed.find("level-000000").unwrap();
    assert!(
        first < listed.find("level-000003").unwrap(),
        "index order: {listed}"
    );
}

#[test]
fn export_refuses_other_kinds_and_empty_ranges() {
    let dir = TempDir::new("coloring-export-bad");
    let maze = dir.join("m.arrow");
    crate::common::generate(&maze, &["--count", "2"]);
    let out = dir.join("levels");
    let output = warren([
        "levelxml",
        "export",
        maze.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(exit_code(&output), 2);
    assert_one_line_error(&output, "export of a maze archive");
    assert!(
        stderr(&output).contains("holds `maze` levels; export reads archives of `coloring`"),
        "{}",
        stderr(&output)
    );
    assert!(!out.join("level-list.xml").exists());
    let colors = dir.join("c.arrow");
    generate(&profile("coloring"), &colors, "3");
    let output = warren([
        "levelxml",
        "export",
        colors.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--index",
        "3",
    ]);
    assert_eq!(exit_code(&output), 2);
    assert_one_line_error(&output, "export past the last level");
    assert!(stderr(&output).contains("no level with index 3 or above"));
}

#[test]
fn a_bad_coloring_profile_names_its_file_line_and_column() {
    let dir = TempDir::new("coloring-profile");
    let file = dir.join("c.toml");
    let out = dir.join("c.arrow");
    for (text, want) in [
        (
            "kind = \"coloring\"\n[coloring]\npuzzle = \"edge\"\ncolors = 2\n",
            "c.toml:4:10: coloring.colors = 2: edge puzzles need at least 3 colors",
        ),
        (
            "kind = \"coloring\"\n[coloring]\nkeep = 1.5\n",
            "c.toml:3:8: coloring.keep = 1.5 is out of range (0, 1]",
        ),
        (
            "kind = \"coloring\"\n[coloring]\ncolours = 3\n",
            "c.toml:3:1: unknown field `colours`",
        ),
    ] {
        std::fs::write(&file, text).unwrap();
        let output = warren([
            "generate",
            file.to_str().unwrap(),
            "--count",
            "3",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(exit_code(&output), 2, "{}", stderr(&output));
        assert_one_line_error(&output, want);
        assert!(stderr(&output).contains(want), "{}", stderr(&output));
        assert!(!out.exists());
    }
}
