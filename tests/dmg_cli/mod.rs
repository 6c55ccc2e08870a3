//! DMG dungeons (seed 003) end to end: `generate dmg` writes archives that verify and do not
//! depend on the thread count; a bad table file in `dmg.tables` is a one-line error naming the
//! file, line and column.

use crate::common::{TempDir, assert_verifies, column_u64, generate_kind, warren_fails};

#[test]
fn generated_dungeons_verify_and_do_not_depend_on_threads() {
    let dir = TempDir::new("dmg-verify");
    let (one, two) = (dir.join("one.arrow"), dir.join("two.arrow"));
    generate_kind(
        "dmg",
        &one,
        &["--count", "200", "--seed", "4", "--threads", "1"],
    );
    generate_kind(
        "dmg",
        &two,
        &["--count", "200", "--seed", "4", "--threads", "2"],
    );
    assert_verifies(&one);
    assert_eq!(
        column_u64(&one, "layout_hash"),
        column_u64(&two, "layout_hash")
    );
    assert_eq!(std::fs::read(&one).unwrap(), std::fs::read(&two).unwrap());
}

#[test]
fn a_bad_table_file_names_its_file_line_and_column() {
    let dir = TempDir::new("dmg-tables");
    let tables = dir.join("tables");
    std::fs::create_dir_all(&tables).unwrap();
    let out = dir.join("d.arrow");
    let cases = [
        (
            "door.toml",
            "die = 4\n[[roll]]\nrange = [1, 2]\noutcome = \"wooden\"\n[[roll]]\nrange = [4, 4]\noutcome = \"secret\"\n",
            "door.toml:1:7: face 3 of the d4 has no roll",
        ),
        (
            "door.toml",
            "die = 4\n[[roll]]\nrange = [1, 3]\noutcome = \"wooden\"\n[[roll]]\nrange = [3, 4]\noutcome = \"secret\"\n",
            "door.toml:6:9: range [3, 4] overlaps roll 1 at face 3",
        ),
        (
            "stairs.toml",
            "die = 2\n[[roll]]\nrange = [1, 2]\noutcome = \"sideways\"\n",
            "stairs.toml:4:11: unknown outcome `sideways`",
        ),
    ];
    for (file, text, want) in cases {
        let _ = std::fs::remove_file(tables.join("door.toml"));
        let _ = std::fs::remove_file(tables.join("stairs.toml"));
        std::fs::write(tables.join(file), text).unwrap();
        let set = format!("dmg.tables={}", tables.display());
        let args = [
            "generate",
            "dmg",
            "--count",
            "3",
            "--set",
            &set,
            "--out",
            out.to_str().unwrap(),
        ];
        warren_fails(args, &[want]);
        assert!(!out.exists());
    }
}
