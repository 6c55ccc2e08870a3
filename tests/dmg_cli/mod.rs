//! DMG dungeons (seed 003) end to end: `generate dmg` writes archives that verify and do not
//! depend on the thread count; a bad table file in `dmg.tables` is a one-line error naming the
//! file, line and column.

use crate::common::{
    TempDir, assert_one_line_error, assert_succeeded, column_u64, exit_code, stderr, stdout, warren,
};

fn generate_dmg(out: &std::path::Path, args: &[&str]) {
    let mut all = vec!["generate", "dmg", "--quiet", "--out", out.to_str().unwrap()];
    all.extend(args);
    let output = warren(&all);
    assert!(output.status.success(), "{all:?}: {}", stderr(&output));
}

#[test]
fn generated_dungeons_verify_and_do_not_depend_on_threads() {
    let dir = TempDir::new("dmg-verify");
    let (one, two) = (dir.join("one.arrow"), dir.join("two.arrow"));
    generate_dmg(&one, &["--count", "200", "--seed", "4", "--threads", "1"]);
    generate_dmg(&two, &["--count", "200", "--seed", "4", "--threads", "2"]);
    let output = warren([std::path::Path::new("verify"), &one]);
    assert_succeeded(&output, "verify");
    assert!(stdout(&output).contains(" 0 violations"));
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
        let output = warren(args);
        let what = format!("warren {args:?}");
        assert_eq!(exit_code(&output), 2, "{what}: {}", stderr(&output));
        assert_one_line_error(&output, &what);
        assert!(
            stderr(&output).contains(want),
            "{what}: {}",
            stderr(&output)
        );
        assert!(!out.exists());
    }
}
