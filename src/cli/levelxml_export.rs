//! `warren levelxml export ARCHIVE --out DIR`: a `coloring` archive's levels as a levels folder
//! the GraphColoring game loads (seed 002's `level-list.xml` section).
//!
//! The game reads a level listed in category `C` as `<levels folder>/C/<level id>.xml`, so the
//! levels are written to `DIR/<category>/<level id>.xml` (category `warren-<puzzle>` unless
//! `--category` names another; level ids `level-<index>` with the index zero-padded to six
//! digits, so names sort in level order) and `DIR/level-list.xml` lists them. An existing
//! `level-list.xml` in `DIR` keeps its other categories (the game's own folder can take the
//! export); a category of the same id gets the new levels added to those it lists (each once,
//! in index order), so exports of consecutive ranges add up. Every file is written atomically
//! (temp file, sync, rename), the list last, so the list never names a file that is not there;
//! when a level fails half-way, the levels written before it are listed before the error.

use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use arrow_array::Array;
use arrow_array::cast::AsArray;
use arrow_array::types::UInt64Type;
use rayon::prelude::*;

use super::write_atomic;
use crate::archive::{Archive, RunMeta};
use crate::coloring::puzzle::PuzzleKind;
use crate::levelxml::{Category, LevelList, read_level_list, write_level_list};
use crate::profile::Profile;
use crate::run::Run;

/// What to export.
pub struct ExportArgs<'a> {
    /// The archive.
    pub archive: &'a Path,
    /// The levels folder.
    pub out: &'a Path,
    /// The first level index (default: the first stored).
    pub index: Option<u64>,
    /// At most this many levels (default: all from `index`).
    pub count: Option<u64>,
    /// The category id (folder name).
    pub category: Option<String>,
}

/// The category name and color of each puzzle kind (the game's own category colors).
fn category_of(kind: PuzzleKind) -> (&'static str, u32) {
    match kind {
        PuzzleKind::Vertex => ("Vertex Colorings (warren)", 0xDD00_00FF),
        PuzzleKind::Edge => ("Edge Colorings (warren)", 0x00DD_00FF),
        PuzzleKind::EulerCycle => ("Eulerian Cycles (warren)", 0x0000_DDFF),
        PuzzleKind::EulerPath => ("Eulerian Paths (warren)", 0x0000_DDFF),
    }
}

/// The puzzle kind of a `coloring` archive, or an error naming what the archive holds.
fn puzzle_kind(archive: &Archive) -> Result<PuzzleKind> {
    let path = archive.path().display().to_string();
    let run = RunMeta::from_archive(archive)?;
    if run.generator != "coloring" {
        bail!(
            "{path}: holds `{}` levels; export reads archives of `coloring` levels",
            run.generator
        );
    }
    match Run::from_meta(run, &path)?.profile() {
        Profile::Coloring { coloring } => Ok(coloring.puzzle),
        other => bail!(
            "{path}: the stored profile is for `{}`, not `coloring`",
            other.kind()
        ),
    }
}

/// A category id is one folder name.
fn check_category(id: &str) -> Result<()> {
    let ok = !id.is_empty()
        && id != "."
        && id != ".."
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if !ok {
        bail!("--category `{id}`: expected a folder name of letters, digits, `-`, `_` and `.`");
    }
    Ok(())
}

/// Runs the export; prints one summary line.
pub fn run(args: ExportArgs<'_>) -> Result<ExitCode> {
    let archive = Archive::open(args.archive)?;
    let path = args.archive.display().to_string();
    let kind = puzzle_kind(&archive)?;
    let category = args
        .category
        .clone()
        .unwrap_or_else(|| format!("warren-{}", kind.name().replace('_', "-")));
    check_category(&category)?;
    let first = args.index.unwrap_or(0);
    let limit = args.count.unwrap_or(u64::MAX);
    if limit == 0 {
        bail!("--count 0: nothing to export");
    }
    let folder = args.out.join(&category);
    std::fs::create_dir_all(&folder)
        .with_context(|| format!("{}: cannot create the folder", folder.display()))?;
    let mut ids = Vec::new();
    for b in 0..archive.batch_count() {
        if ids.len() as u64 >= limit {
            break;
        }
        let batch = archive.batch(b)?;
        let index = batch
            .column_by_name("index")
            .and_then(|c| c.as_primitive_opt::<UInt64Type>())
            .with_context(|| format!("{path}: no u64 `index` column"))?;
        let xml = batch
            .column_by_name("level_xml")
            .and_then(|c| c.as_string_opt::<i32>())
            .with_context(|| format!("{path}: no utf8 `level_xml` column"))?;
        let rows: Vec<usize> = (0..batch.num_rows())
            .filter(|&r| index.value(r) >= first)
            .take((limit - ids.len() as u64).try_into().unwrap_or(usize::MAX))
            .collect();
        // PERF: each file is synced before its rename; writing a batch's files in parallel
        // overlaps those waits.
        let written: Vec<Result<String>> = rows
            .par_iter()
            .map(|&r| {
                if xml.is_null(r) {
                    bail!("{path}: level {} has no XML", index.value(r));
                }
                let id = format!("level-{:06}", index.value(r));
                write_atomic(&folder.join(format!("{id}.xml")), xml.value(r).as_bytes())?;
                Ok(id)
            })
            .collect();
        let mut failed = None;
        for id in written {
            match id {
                Ok(id) => ids.push(id),
                Err(e) => failed = failed.or(Some(e)),
            }
        }
        if let Some(e) = failed {
            // The files already written are listed before the error is reported: nothing
            // written is left out of the list.
            if !ids.is_empty() {
                list_levels(args.out, &category, kind, &ids)?;
            }
            return Err(e);
        }
        drop(batch);
        archive.release(b);
    }
    if ids.is_empty() {
        bail!("{path}: no level with index {first} or above");
    }
    let count = ids.len();
    let list_path = list_levels(args.out, &category, kind, &ids)?;
    println!(
        "{}: {} levels in {}, listed in {}",
        path,
        super::thousands(count as u64),
        folder.display(),
        list_path.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// Adds `ids` to `category` in `out`'s `level-list.xml` (created when missing): levels listed
/// there before stay listed, each level once, in index order. Returns the list's path.
fn list_levels(
    out: &Path,
    category: &str,
    kind: PuzzleKind,
    ids: &[String],
) -> Result<std::path::PathBuf> {
    let list_path = out.join("level-list.xml");
    let mut list = existing_list(&list_path)?;
    let (name, rgba) = category_of(kind);
    let c = match list.categories.iter().position(|c| c.id == category) {
        Some(i) => &mut list.categories[i],
        None => {
            list.categories.push(Category {
                name: name.to_string(),
                id: category.to_string(),
                rgba,
                levels: Vec::new(),
            });
            list.categories.last_mut().expect("just pushed")
        }
    };
    c.levels.extend(ids.iter().cloned());
    // Ids are `level-NNNNNN`: their order is the index order.
    c.levels.sort();
    c.levels.dedup();
    write_atomic(&list_path, write_level_list(&list).as_bytes())?;
    Ok(list_path)
}

/// The folder's `level-list.xml`, or an empty list when there is none.
fn existing_list(path: &Path) -> Result<LevelList> {
    if !path.exists() {
        return Ok(LevelList {
            version: env!("CARGO_PKG_VERSION").to_string(),
            categories: Vec::new(),
        });
    }
    read_level_list(path).map_err(|e| anyhow::anyhow!("{e} (the export adds to this list)"))
}
