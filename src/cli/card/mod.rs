//! `warren card DIR | ARCHIVE [--out DIR]`: a Hugging Face dataset card, `README.md`, for a
//! Parquet dataset folder (`generate --format parquet`) or an Arrow archive: YAML front matter
//! the Hub reads (licence, size bucket, tasks, tags, `configs` and `dataset_info` with every
//! column in `datasets`' feature form), then what the levels are, the exact command that makes
//! them again (the stored profile written beside it as `profile.toml`), the cell-code legend,
//! a summary of every metric, a sample sheet (`sample.png`) and how to load them.
//!
//! The card is the Markdown sibling of `warren report`'s HTML page: the same statistics
//! (`inspect::metric_values`) and the same drawing (`crate::render`), read through a
//! [`LevelSource`] so an archive and a Parquet split are one path. Every file is written
//! atomically; `README.md` last, so a card never names a sample or profile not yet there.

use std::fmt::Write as _;
use std::path::{Component, Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use arrow_schema::{DataType, Field};

use crate::archive::{
    Archive, Compression, DATA_DIR, LevelSource, ParquetDataset, RunMeta, dataset_splits,
};
use crate::render::to_png;

mod body;
mod contents;

use contents::{Card, Split};

/// Arguments of `card`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A Parquet dataset folder (`warren generate --format parquet --out DIR`) or an archive
    /// (`.arrow`).
    input: PathBuf,
    /// For an archive: the folder the card goes into (default: the archive's folder). A
    /// dataset folder's card is always its own README.md.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// The licence the card declares, as a Hub licence id (`cc0-1.0`, `cc-by-4.0`, `mit`,
    /// `other`...). warren claims nothing: whoever publishes the levels chooses it.
    #[arg(long, value_name = "ID", default_value = "cc0-1.0")]
    license: String,
    /// The card's `pretty_name` and title (default: `Warren KIND levels`).
    #[arg(long, value_name = "TEXT")]
    name: Option<String>,
    /// The sample sheet `sample.png`: the first COLSxROWS levels.
    #[arg(long, value_name = "COLSxROWS", default_value = "3x3")]
    sheet: String,
    /// No summary line.
    #[arg(long, short)]
    quiet: bool,
}

/// Pixels per level side on the sample sheet.
const SHEET_CELL_PX: f32 = 200.0;

/// Runs `card`.
pub fn run(args: Args) -> Result<ExitCode> {
    check_license(&args.license)?;
    if let Some(name) = &args.name
        && (name.trim().is_empty() || name.chars().any(char::is_control))
    {
        bail!("--name {name:?}: the title is one line of text");
    }
    let sheet = super::render::parse_sheet(&args.sheet)?;
    let mut card = if args.input.is_dir() {
        if args.out.is_some() {
            bail!("--out is for an archive: a dataset folder's card is its own README.md");
        }
        dataset_card(&args.input)?
    } else if args.input.is_file() {
        archive_card(&args.input, args.out.as_deref())?
    } else {
        bail!("{}: no such file or folder", args.input.display());
    };
    card.license = args.license.clone();
    card.pretty_name = args
        .name
        .clone()
        .unwrap_or_else(|| format!("Warren {} levels", card.splits[0].run.generator));
    let first = &card.splits[0];
    let sample = match sample_sheet(first.source.as_ref(), sheet)? {
        Some((png, drawn)) => {
            super::write_atomic(&card.dir.join("sample.png"), &png)?;
            Some(drawn)
        }
        None => None,
    };
    let stored = write_profile(&card.dir, &first.run)?;
    let readme = format!(
        "{}{}",
        front_matter(&card)?,
        body::body(&card, sample, &stored)
    );
    super::write_atomic(&card.dir.join("README.md"), readme.as_bytes())?;
    if !args.quiet {
        let levels: u64 = card.splits.iter().map(|s| s.levels).sum();
        eprintln!(
            "warren: card of {} {} levels ({} split{}) written to {}",
            super::thousands(levels),
            first.run.generator,
            card.splits.len(),
            if card.splits.len() == 1 { "" } else { "s" },
            card.dir.join("README.md").display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Refuses what is not a Hub licence id (lowercase letters, digits, `.`, `-`, `+`).
fn check_license(id: &str) -> Result<()> {
    let ok = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || "-.+".contains(c);
    if id.is_empty() || !id.chars().all(ok) {
        bail!(
            "--license `{id}`: a Hub licence id is lowercase letters, digits, `.` and `-` \
             (cc0-1.0, cc-by-4.0, mit, other)"
        );
    }
    Ok(())
}

/// The card of every split of the Parquet dataset folder `dir`.
fn dataset_card(dir: &Path) -> Result<Card> {
    let mut splits = Vec::new();
    for name in dataset_splits(dir)? {
        let set = ParquetDataset::open(dir, &name)?;
        let mut file_bytes = 0;
        for path in set.files() {
            file_bytes += std::fs::metadata(path)
                .with_context(|| format!("{}: cannot read", path.display()))?
                .len();
        }
        splits.push(Split::read(name, Box::new(set), file_bytes)?);
    }
    let data_files = splits
        .iter()
        .map(|s| (s.name.clone(), format!("{DATA_DIR}/{}-*.parquet", s.name)))
        .collect();
    new_card(dir.to_path_buf(), splits, Some(data_files), None)
}

/// The card of the archive at `path`, written into `out` (default: the archive's folder).
fn archive_card(path: &Path, out: Option<&Path>) -> Result<Card> {
    let dir = match out {
        Some(dir) => dir.to_path_buf(),
        None => match path.parent().filter(|p| !p.as_os_str().is_empty()) {
            Some(parent) => parent.to_path_buf(),
            None => PathBuf::from("."),
        },
    };
    crate::cli::check_folder(&dir)?;
    let archive = Archive::open(path)?;
    let compression = archive.compression()?;
    let file_bytes = archive.file_len() as u64;
    let run = RunMeta::from_archive(&archive)?;
    let name = run.split.as_ref().map_or("train", |s| s.name.as_str());
    let name = if name == "val" { "validation" } else { name }.to_string();
    // The path from the card to the archive, when the archive lies in the card's folder.
    let relative = std::fs::canonicalize(path)
        .ok()
        .zip(std::fs::canonicalize(&dir).ok())
        .and_then(|(file, dir)| Some(file.strip_prefix(dir).ok()?.to_path_buf()))
        .map(|p| p.to_string_lossy().replace('\\', "/"));
    // An archive elsewhere goes by its file name: the card travels without its folder.
    let shown = relative.clone().unwrap_or_else(|| {
        path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        )
    });
    let split = Split::read(name.clone(), Box::new(archive), file_bytes)?;
    // NOTE: `datasets`' `arrow` builder reads an Arrow IPC file (it falls back from the stream
    // reader), but not the `arrow.fixed_shape_tensor` grid of a one-size kind: it has no
    // feature for the extension type and cannot cast its storage to `Array2D`. Those cards
    // point at the Parquet layout instead.
    let readable = split.source.columns()?.grid_shape.is_none();
    let data_files = relative.filter(|_| readable).map(|file| vec![(name, file)]);
    new_card(dir, vec![split], data_files, Some((shown, compression)))
}

/// A card of `splits`, which must share one column layout.
fn new_card(
    dir: PathBuf,
    splits: Vec<Split>,
    data_files: Option<Vec<(String, String)>>,
    archive: Option<(String, Compression)>,
) -> Result<Card> {
    let first = splits.first().context("no split to describe")?;
    let fields = first.source.schema().fields();
    for s in &splits[1..] {
        if s.source.schema().fields() != fields {
            bail!(
                "{}: split `{}` has other columns than split `{}`",
                s.source.path().display(),
                s.name,
                first.name
            );
        }
    }
    let columns = first.source.columns()?;
    Ok(Card {
        dir,
        splits,
        columns,
        data_files,
        archive,
        license: String::new(),
        pretty_name: String::new(),
    })
}

/// The sample sheet of the first `cols x rows` levels of `source` as a PNG, and how many it
/// holds; `None` when there are no levels. Draws as `warren render` does: the grid, else the
/// graph (with vertex tags and rooms), the owner layer of `map` levels.
fn sample_sheet(
    source: &dyn LevelSource,
    (cols, rows): (u32, u32),
) -> Result<Option<(Vec<u8>, usize)>> {
    if !super::render::drawable(source)? || source.batch_count() == 0 {
        return Ok(None);
    }
    let (scene, drawn) = super::render::draw(source, None, (cols, rows), SHEET_CELL_PX, false)?;
    Ok(Some((to_png(&scene)?, drawn)))
}

/// Writes the run's profile as `dir/profile.toml`, and the files it names (a grammar's rules,
/// DMG tables) at their paths under `dir` when those are relative and stay inside; returns
/// the paths of the files it could not place there.
fn write_profile(dir: &Path, run: &RunMeta) -> Result<Vec<String>> {
    super::write_atomic(&dir.join("profile.toml"), run.profile.as_bytes())?;
    let mut outside = Vec::new();
    for (path, text) in &run.files {
        let inside = Path::new(path)
            .components()
            .all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
        if !inside || path.is_empty() {
            outside.push(path.clone());
            continue;
        }
        let to = dir.join(path);
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("{}: cannot make the folder", parent.display()))?;
        }
        super::write_atomic(&to, text.as_bytes())?;
    }
    Ok(outside)
}

/// `s` as a YAML scalar: plain when it cannot be read as anything but that string, else
/// double-quoted (a JSON string is a valid YAML double-quoted scalar).
fn scalar(s: &str) -> String {
    let plain = s.starts_with(|c: char| c.is_ascii_alphabetic())
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-./<>*+".contains(c))
        && !matches!(
            s.to_ascii_lowercase().as_str(),
            "y" | "n" | "yes" | "no" | "on" | "off" | "true" | "false" | "null"
        );
    if plain {
        s.to_string()
    } else {
        serde_json::to_string(s).expect("strings serialise")
    }
}

/// The Hub's size bucket of `n` examples.
fn size_category(n: u64) -> &'static str {
    const BUCKETS: [(u64, &str); 11] = [
        (1_000, "n<1K"),
        (10_000, "1K<n<10K"),
        (100_000, "10K<n<100K"),
        (1_000_000, "100K<n<1M"),
        (10_000_000, "1M<n<10M"),
        (100_000_000, "10M<n<100M"),
        (1_000_000_000, "100M<n<1B"),
        (10_000_000_000, "1B<n<10B"),
        (100_000_000_000, "10B<n<100B"),
        (1_000_000_000_000, "100B<n<1T"),
        (u64::MAX, "n>1T"),
    ];
    BUCKETS
        .iter()
        .find(|(below, _)| n < *below)
        .map_or("n>1T", |(_, name)| name)
}

/// The `datasets` value type of an Arrow type, if it has one.
fn value_dtype(data_type: &DataType) -> Option<&'static str> {
    Some(match data_type {
        DataType::Boolean => "bool",
        DataType::Int8 => "int8",
        DataType::Int16 => "int16",
        DataType::Int32 => "int32",
        DataType::Int64 => "int64",
        DataType::UInt8 => "uint8",
        DataType::UInt16 => "uint16",
        DataType::UInt32 => "uint32",
        DataType::UInt64 => "uint64",
        DataType::Float16 => "float16",
        DataType::Float32 => "float32",
        DataType::Float64 => "float64",
        DataType::Utf8 => "string",
        DataType::LargeUtf8 => "large_string",
        DataType::Binary => "binary",
        DataType::LargeBinary => "large_binary",
        _ => return None,
    })
}

/// One feature of `dataset_info`, as `datasets`' `Features._to_yaml_list` writes it: a grid of
/// one size is an `Array2D` of (height, width) `uint8` cells.
fn feature_yaml(out: &mut String, field: &Field, grid_shape: Option<(u16, u16)>) -> Result<()> {
    let _ = writeln!(out, "  - name: {}", scalar(field.name()));
    if let (Some((w, h)), "grid") = (grid_shape, field.name().as_str()) {
        let _ = writeln!(
            out,
            "    dtype:\n      array2_d:\n        shape: [{h}, {w}]\n        dtype: uint8"
        );
        return Ok(());
    }
    let (key, dtype) = match field.data_type() {
        DataType::List(item) => ("list", value_dtype(item.data_type())),
        other => ("dtype", value_dtype(other)),
    };
    let dtype = dtype.with_context(|| {
        format!(
            "column `{}` is {}, which a dataset card cannot describe",
            field.name(),
            field.data_type()
        )
    })?;
    let _ = writeln!(out, "    {key}: {dtype}");
    Ok(())
}

/// The YAML front matter, between `---` lines.
fn front_matter(card: &Card) -> Result<String> {
    let run = &card.splits[0].run;
    let levels: u64 = card.splits.iter().map(|s| s.levels).sum();
    let mut tasks = Vec::new();
    if card.columns.grid {
        tasks.push("reinforcement-learning");
    }
    if card.columns.graph {
        tasks.push("graph-ml");
    }
    let mut y = String::from("---\n");
    let _ = writeln!(y, "license: {}", scalar(&card.license));
    let _ = writeln!(
        y,
        "pretty_name: {}",
        serde_json::to_string(&card.pretty_name)?
    );
    let _ = writeln!(y, "size_categories:\n- {}", scalar(size_category(levels)));
    y += "task_categories:\n";
    for task in tasks {
        let _ = writeln!(y, "- {task}");
    }
    y += "tags:\n";
    for tag in [
        "warren",
        "procedural-generation",
        "game-levels",
        &run.generator,
    ] {
        let _ = writeln!(y, "- {}", scalar(tag));
    }
    if let Some(files) = &card.data_files {
        y += "configs:\n- config_name: default\n  data_files:\n";
        for (split, path) in files {
            let _ = writeln!(
                y,
                "  - split: {}\n    path: {}",
                scalar(split),
                scalar(path)
            );
        }
    }
    y += "dataset_info:\n  features:\n";
    for field in card.splits[0].source.schema().fields() {
        feature_yaml(&mut y, field, card.columns.grid_shape)?;
    }
    y += "  splits:\n";
    for s in &card.splits {
        let _ = writeln!(
            y,
            "  - name: {}\n    num_bytes: {}\n    num_examples: {}",
            scalar(&s.name),
            s.arrow_bytes,
            s.levels
        );
    }
    let _ = writeln!(
        y,
        "  download_size: {}\n  dataset_size: {}\n---",
        card.splits.iter().map(|s| s.file_bytes).sum::<u64>(),
        card.splits.iter().map(|s| s.arrow_bytes).sum::<u64>()
    );
    Ok(y)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml_scalars_are_plain_only_when_they_cannot_mean_anything_else() {
        for plain in ["data/train-*.parquet", "n<1K", "cc0-1.0", "maze", "uint8"] {
            assert_eq!(scalar(plain), plain);
        }
        assert_eq!(scalar("1K<n<10K"), "\"1K<n<10K\"");
        assert_eq!(scalar("yes"), "\"yes\"");
        assert_eq!(scalar("a: b #c"), "\"a: b #c\"");
        assert_eq!(scalar("say \"hi\"\n"), r#""say \"hi\"\n""#);
        assert_eq!(scalar(""), "\"\"");
    }

    #[test]
    fn level_counts_fall_in_the_hubs_size_buckets() {
        for (n, bucket) in [
            (0, "n<1K"),
            (999, "n<1K"),
            (1_000, "1K<n<10K"),
            (50_000, "10K<n<100K"),
            (2_000_000, "1M<n<10M"),
            (u64::MAX, "n>1T"),
        ] {
            assert_eq!(size_category(n), bucket, "{n}");
        }
    }

    #[test]
    fn licence_ids_are_hub_ids() {
        for good in ["cc0-1.0", "cc-by-4.0", "mit", "other", "gpl-3.0+"] {
            check_license(good).unwrap();
        }
        for bad in ["", "CC0", "cc0 1.0", "mit\nfoo: bar"] {
            assert!(check_license(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn features_are_written_as_datasets_writes_them() {
        let yaml = |field: Field, shape| {
            let mut out = String::new();
            feature_yaml(&mut out, &field, shape).map(|()| out)
        };
        let grid = Field::new("grid", DataType::Binary, false);
        assert_eq!(
            yaml(grid.clone(), Some((7, 5))).unwrap(),
            "  - name: grid\n    dtype:\n      array2_d:\n        shape: [5, 7]\n        \
             dtype: uint8\n"
        );
        assert_eq!(
            yaml(grid, None).unwrap(),
            "  - name: grid\n    dtype: binary\n"
        );
        let list = Field::new(
            "vertex_x",
            crate::archive::list_of(DataType::Float32),
            false,
        );
        assert_eq!(
            yaml(list, None).unwrap(),
            "  - name: vertex_x\n    list: float32\n"
        );
        let odd = Field::new("when", DataType::Date32, false);
        let e = yaml(odd, None).unwrap_err().to_string();
        assert!(e.contains("`when`"), "{e}");
    }
}
