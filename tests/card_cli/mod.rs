//! `warren card`: a Hugging Face dataset card for a Parquet dataset folder or an archive. The
//! front matter says the right things about the data, the sample is a PNG, and the command the
//! card gives makes the same files again, byte for byte. (`python/tests/test_card.py` loads
//! the cards with `huggingface_hub` and `datasets`.)

use std::path::Path;
use std::process::Command;

use warren::archive::{LevelSource, ParquetDataset};

use crate::common::{
    SMALL, TempDir, assert_one_line_error, assert_succeeded, exit_code, file_names, warren,
    warren_bin, warren_ok,
};

/// The YAML front matter of the card at `readme` (between the `---` lines) and the body.
fn split_card(readme: &Path) -> (String, String) {
    let text = std::fs::read_to_string(readme).expect("README.md");
    let rest = text.strip_prefix("---\n").expect("front matter first");
    let (yaml, body) = rest.split_once("\n---\n").expect("front matter closed");
    (format!("{yaml}\n"), body.to_string())
}

/// The value of top-level key `key` (`license: X`), if the front matter has one.
fn top_value<'a>(yaml: &'a str, key: &str) -> Option<&'a str> {
    yaml.lines()
        .find_map(|l| l.strip_prefix(key)?.strip_prefix(": "))
}

/// The items of top-level list `key` (`tags:\n- a\n- b`).
fn top_list<'a>(yaml: &'a str, key: &str) -> Vec<&'a str> {
    let header = format!("{key}:");
    yaml.lines()
        .skip_while(|l| *l != header)
        .skip(1)
        .map_while(|l| l.strip_prefix("- "))
        .collect()
}

/// The line of the card's body that starts with `start` (a command in a `sh` block).
fn line_starting<'a>(body: &'a str, start: &str) -> &'a str {
    body.lines()
        .find(|l| l.starts_with(start))
        .unwrap_or_else(|| panic!("no line starting {start:?} in:\n{body}"))
}

/// Runs `command` under `sh` in `dir`, with this build's `warren` first on the PATH.
fn run_in(dir: &Path, command: &str) {
    let bin = Path::new(warren_bin()).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new("sh")
        .args(["-c", &format!("{command} --quiet")])
        .current_dir(dir)
        .env("PATH", path)
        .output()
        .expect("sh runs");
    assert_succeeded(&out, command);
}

/// Asserts the files of folders `a` and `b` have the same names and bytes.
fn assert_same_files(a: &Path, b: &Path) {
    let names = file_names(a);
    assert_eq!(names, file_names(b), "{} and {}", a.display(), b.display());
    for name in names {
        let (x, y) = (a.join(&name), b.join(&name));
        assert!(
            std::fs::read(&x).unwrap() == std::fs::read(&y).unwrap(),
            "{} and {} differ",
            x.display(),
            y.display()
        );
    }
}

/// Generates a Parquet maze dataset into `dir` with `args`, and writes its card.
fn dataset_with_card(dir: &Path, args: &[&str]) {
    let out = dir.to_str().unwrap();
    let all = [
        &[
            "generate", "maze", "--quiet", "--format", "parquet", "--out", out,
        ][..],
        args,
    ]
    .concat();
    warren_ok(&all);
    let card = warren(["card", out]);
    assert_succeeded(&card, "card");
    assert!(
        String::from_utf8_lossy(&card.stderr).contains("card of"),
        "a summary line"
    );
}

#[test]
fn a_dataset_card_has_the_hubs_front_matter_a_sample_and_a_command_that_remakes_the_files() {
    let tmp = TempDir::new("card");
    let dir = tmp.join("mazes");
    dataset_with_card(
        &dir,
        &[
            "--count",
            "300",
            "--seed",
            "11",
            "--set",
            "maze.width=12",
            "--set",
            "maze.height=12",
        ],
    );
    let (yaml, body) = split_card(&dir.join("README.md"));
    assert_eq!(top_value(&yaml, "license"), Some("cc0-1.0"));
    assert_eq!(
        top_value(&yaml, "pretty_name"),
        Some("\"Warren maze levels\"")
    );
    assert_eq!(top_list(&yaml, "size_categories"), ["n<1K"]);
    assert_eq!(
        top_list(&yaml, "task_categories"),
        ["reinforcement-learning"]
    );
    assert_eq!(
        top_list(&yaml, "tags"),
        ["warren", "procedural-generation", "game-levels", "maze"]
    );
    assert!(
        yaml.contains(
            "configs:\n- config_name: default\n  data_files:\n  - split: train\n    path: \
             data/train-*.parquet\n"
        ),
        "{yaml}"
    );
    // Every column, in schema order, the grid as an Array2D of its shape.
    let set = ParquetDataset::open(&dir, "train").unwrap();
    let names: Vec<&str> = yaml
        .lines()
        .filter_map(|l| l.strip_prefix("  - name: "))
        .collect();
    let columns: Vec<&str> = set
        .schema()
        .fields()
        .iter()
        .map(|f| f.name().as_str())
        .collect();
    assert_eq!(names, [&columns[..], &["train"]].concat());
    assert!(
        yaml.contains("  - name: grid\n    dtype:\n      array2_d:\n        shape: [25, 25]\n"),
        "{yaml}"
    );
    assert!(yaml.contains("  - name: solution_length\n    dtype: float32\n"));
    assert!(yaml.contains("    num_examples: 300\n"), "{yaml}");
    let on_disk: u64 = set
        .files()
        .map(|f| std::fs::metadata(f).unwrap().len())
        .sum();
    assert!(
        yaml.contains(&format!("  download_size: {on_disk}\n")),
        "{yaml}"
    );

    // The body: the legend, every metric, the sample, the stored profile.
    assert!(
        body.contains("| 0 | wall |") && body.contains("| 8 | void |"),
        "legend"
    );
    for m in set.columns().unwrap().metrics {
        assert!(
            body.contains(&format!("| `{}` |", m.name)),
            "metric {}",
            m.name
        );
    }
    assert!(
        body.contains("`height = 12`, `width = 12`"),
        "the profile's changes"
    );
    assert!(body.contains("![The first 9 levels"), "the sample");
    let png = std::fs::read(dir.join("sample.png")).unwrap();
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "sample.png is a PNG");
    assert!(!dir.join("README.md.tmp").exists());

    // The command, run in the folder, makes the same files.
    let command = line_starting(&body, "warren generate profile.toml");
    assert_eq!(
        command,
        "warren generate profile.toml --count 300 --seed 11 --format parquet --out regenerated"
    );
    run_in(&dir, command);
    assert_same_files(&dir.join("data"), &dir.join("regenerated/data"));
}

#[test]
fn a_shard_with_a_selection_gets_a_command_that_remakes_it() {
    let tmp = TempDir::new("card-selection");
    let dir = tmp.join("picked");
    let args = [
        &SMALL[..],
        &[
            "--count",
            "120",
            "--seed",
            "5",
            "--shard",
            "1/2",
            "--unique",
            "--where",
            "turns >= 4 and dead_ends < 30",
        ],
    ]
    .concat();
    dataset_with_card(&dir, &args);
    let (_, body) = split_card(&dir.join("README.md"));
    let command = line_starting(&body, "warren generate profile.toml");
    assert!(
        command.contains("--shard 1/2 --unique --where 'turns >= 4 and dead_ends < 30'"),
        "{command}"
    );
    assert!(body.contains("The run kept only the first level of each `layout_hash` and"));
    run_in(&dir, command);
    assert_same_files(&dir.join("data"), &dir.join("regenerated/data"));
}

#[test]
fn an_archive_card_describes_the_archive_and_points_datasets_where_it_can_read() {
    let tmp = TempDir::new("card-archive");
    // A one-size grid: `datasets` cannot read the tensor column, so no `configs`.
    let archive = tmp.join("m.arrow");
    let m = archive.to_str().unwrap();
    let args = [
        &["generate", "maze", "--quiet", "--out", m, "--count", "40"][..],
        &SMALL,
        &["--compression", "zstd"],
    ]
    .concat();
    warren_ok(&args);
    let card = tmp.join("card");
    std::fs::create_dir(&card).unwrap();
    warren_ok(["card", m, "--out", card.to_str().unwrap(), "--quiet"]);
    let (yaml, body) = split_card(&card.join("README.md"));
    assert!(!yaml.contains("configs:"), "{yaml}");
    assert!(yaml.contains("  - name: grid\n    dtype:\n      array2_d:\n        shape: [17, 17]"));
    assert!(yaml.contains("    num_examples: 40\n"));
    assert!(
        body.contains("warren export m.arrow --parquet DIR"),
        "{body}"
    );
    assert!(card.join("sample.png").is_file() && card.join("profile.toml").is_file());
    let command = line_starting(&body, "warren generate profile.toml");
    assert_eq!(
        command,
        "warren generate profile.toml --count 40 --seed 0 --compression zstd --out m.arrow"
    );
    run_in(&card, command);
    assert!(
        std::fs::read(card.join("m.arrow")).unwrap() == std::fs::read(&archive).unwrap(),
        "the command remakes the archive byte for byte"
    );

    // Graph levels without a one-size grid: `configs` names the archive beside the card, and
    // the licence and name are the caller's.
    let folder = tmp.join("coloring");
    std::fs::create_dir(&folder).unwrap();
    let c = folder.join("levels.arrow");
    warren_ok([
        "generate",
        "coloring",
        "--quiet",
        "--count",
        "30",
        "--out",
        c.to_str().unwrap(),
    ]);
    warren_ok([
        "card",
        c.to_str().unwrap(),
        "--license",
        "cc-by-4.0",
        "--name",
        "Colour: puzzles",
        "--sheet",
        "2x2",
        "--quiet",
    ]);
    let (yaml, body) = split_card(&folder.join("README.md"));
    assert_eq!(top_value(&yaml, "license"), Some("cc-by-4.0"));
    assert_eq!(top_value(&yaml, "pretty_name"), Some("\"Colour: puzzles\""));
    assert_eq!(top_list(&yaml, "task_categories"), ["graph-ml"]);
    assert!(
        yaml.contains("  - split: train\n    path: levels.arrow\n"),
        "{yaml}"
    );
    assert!(
        yaml.contains("  - name: vertex_x\n    list: float32\n"),
        "{yaml}"
    );
    assert!(
        yaml.contains("  - name: level_xml\n    dtype: string\n"),
        "{yaml}"
    );
    assert!(body.starts_with("\n# Colour: puzzles\n"), "{body}");
    assert!(body.contains("![The first 4 levels"), "--sheet 2x2");
    assert!(!body.contains("## Cell codes"), "no grid, no legend");
}

#[test]
fn bad_input_is_one_line() {
    let tmp = TempDir::new("card-bad");
    let empty = tmp.join("empty");
    std::fs::create_dir_all(empty.join("data")).unwrap();
    let output = warren(["card", empty.to_str().unwrap()]);
    assert_eq!(exit_code(&output), 2);
    assert_one_line_error(&output, "a folder without data files");
    assert!(String::from_utf8_lossy(&output.stderr).contains("no Parquet data files"));

    let bare = tmp.join("bare");
    std::fs::create_dir(&bare).unwrap();
    let output = warren(["card", bare.to_str().unwrap()]);
    assert_one_line_error(&output, "a folder without data/");
    assert!(!bare.join("README.md").exists());

    let missing = tmp.join("missing.arrow");
    let output = warren(["card", missing.to_str().unwrap()]);
    assert_one_line_error(&output, "a missing file");
    assert!(String::from_utf8_lossy(&output.stderr).contains("no such file or folder"));

    let text = tmp.join("notes.arrow");
    std::fs::write(&text, "not an archive").unwrap();
    assert_one_line_error(&warren(["card", text.to_str().unwrap()]), "not an archive");

    let output = warren(["card", bare.to_str().unwrap(), "--license", "CC BY"]);
    assert_one_line_error(&output, "a licence that is not a Hub id");
    let output = warren(["card", bare.to_str().unwrap(), "--name", "two\nlines"]);
    assert_one_line_error(&output, "a title of two lines");
    let output = warren(["card", bare.to_str().unwrap(), "--out", "x"]);
    assert_one_line_error(&output, "--out with a folder");
}
