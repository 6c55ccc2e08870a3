//! `warren render FILE --index I --out PIC.svg|PIC.png [--sheet CxR]`: draw one level, or a sheet
//! of consecutive levels starting at index I.
//!
//! The columns to read come from the archive's schema (`Archive::columns`): grids,
//! graphs, and with a graph its vertex tags and rooms when present. Levels with a tile map are drawn as the
//! map; `--graph` draws the graph they were made from on top (see
//! `crate::render::draw_level_with`). A `map` level is marked with the designer's constraints
//! its run kept: the tiles its mask forbids, its pinned rooms, its locked doors and their keys
//! (`render_marks`).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use arrow_array::RecordBatch;
use arrow_array::cast::AsArray;
use arrow_array::types::UInt64Type;

use super::render_marks::{LOCK_COLUMNS, MarkSource};
use crate::archive::{ArchiveColumns, ArchiveError, BatchView, LevelSource, open_levels};
use crate::core::generator::{ExtraKind, ExtraValue, Level};
use crate::export::owners::OWNER_COLUMN;
use crate::render::{Marks, Scene, draw_sheet_marked, to_png, to_svg};

/// Arguments of `render`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The archive.
    file: PathBuf,
    /// Index of the (first) level to draw.
    #[arg(long, default_value_t = 0)]
    index: u64,
    /// Output picture: `.svg` or `.png`.
    #[arg(long)]
    out: PathBuf,
    /// Draw consecutive levels on one picture, COLSxROWS (e.g. `4x4`).
    #[arg(long, value_name = "COLSxROWS", default_value = "1x1")]
    sheet: String,
    /// Pixels per level side.
    #[arg(long, default_value_t = 512, value_parser = clap::value_parser!(u32).range(16..=8192))]
    size: u32,
    /// Draw each level's graph (rooms tinted by tag, corridors centre to centre) over its tile
    /// map, for levels that have both.
    #[arg(long)]
    graph: bool,
}

/// `COLSxROWS` as two counts, 1 to 1,024 levels in all.
pub(super) fn parse_sheet(s: &str) -> Result<(u32, u32)> {
    let (c, r) = s
        .split_once(['x', 'X'])
        .with_context(|| format!("--sheet `{s}` is not of the form COLSxROWS"))?;
    let (c, r): (u32, u32) = (
        c.trim()
            .parse()
            .with_context(|| format!("--sheet `{s}`: bad column count"))?,
        r.trim()
            .parse()
            .with_context(|| format!("--sheet `{s}`: bad row count"))?,
    );
    if c == 0 || r == 0 || u64::from(c) * u64::from(r) > 1024 {
        bail!("--sheet `{s}`: need 1 to 1024 levels");
    }
    Ok((c, r))
}

/// The columns `render` reads, from the archive's schema: the grid, the graph and, when
/// present, vertex tags (room colours), rooms, the owner grid (`--graph` tints each room's
/// own floor by it) and the door table's tiles and keys (locked doors are marked). Rule uses,
/// other extra columns and metrics are not drawn.
fn drawn_columns(archive: &dyn LevelSource) -> Result<ArchiveColumns, ArchiveError> {
    let all = archive.columns()?;
    let extra = all
        .extra
        .iter()
        .filter(|e| {
            (e.name == OWNER_COLUMN && e.kind == ExtraKind::ListU16)
                || (LOCK_COLUMNS.contains(&e.name.as_str())
                    && matches!(e.kind, ExtraKind::ListU16 | ExtraKind::ListU8))
        })
        .cloned()
        .collect();
    Ok(ArchiveColumns {
        rule_uses: false,
        metrics: Vec::new(),
        extra,
        ..all
    })
}

/// Runs `render`.
pub fn run(args: Args) -> Result<ExitCode> {
    let (cols, rows) = parse_sheet(&args.sheet)?;
    let format = match args.out.extension().and_then(|e| e.to_str()) {
        Some(e) if e.eq_ignore_ascii_case("svg") => "svg",
        Some(e) if e.eq_ignore_ascii_case("png") => "png",
        _ => bail!(
            "{}: the picture must end in .svg or .png",
            args.out.display()
        ),
    };
    let archive = open_levels(&args.file)?;
    let (scene, drawn) = draw(
        archive.as_ref(),
        Some(args.index),
        (cols, rows),
        args.size as f32,
        args.graph,
    )?;
    let bytes = match format {
        "svg" => to_svg(&scene).into_bytes(),
        _ => to_png(&scene)?,
    };
    super::write_atomic(&args.out, &bytes)?;
    eprintln!("warren: drew {drawn} level(s) into {}", args.out.display());
    Ok(ExitCode::SUCCESS)
}

/// Whether `archive` has a grid or a graph to draw.
pub(super) fn drawable(archive: &dyn LevelSource) -> Result<bool> {
    let columns = drawn_columns(archive)?;
    Ok(columns.grid || columns.graph)
}

/// Draws the `cols x rows` levels from index `index` of `archive` on one sheet, `size` pixels
/// a level (`graph`: each level's graph over its tile map); returns the sheet and how many
/// levels it holds (fewer when the archive ends first). With `index` `None`, the first levels
/// stored, whatever their indices.
pub(super) fn draw(
    archive: &dyn LevelSource,
    index: Option<u64>,
    (cols, rows): (u32, u32),
    size: f32,
    graph: bool,
) -> Result<(Scene, usize)> {
    let file = archive.path();
    let columns = drawn_columns(archive)?;
    if !columns.grid && !columns.graph {
        bail!(
            "{}: the archive has neither grid nor graph columns to draw",
            file.display()
        );
    }
    let count = u64::from(cols * rows);
    let first = match index {
        Some(i) => i,
        None => first_index(archive)?,
    };
    // Without an index, the first `count` levels from the first, whatever indices they have.
    let wanted = match index {
        Some(_) => first..first.saturating_add(count),
        None => first..u64::MAX,
    };
    // Keep only the batches that hold wanted indices (indices ascend through the file).
    let mut batches: Vec<RecordBatch> = Vec::new();
    for b in 0..archive.batch_count() {
        if index.is_none()
            && batches.iter().map(RecordBatch::num_rows).sum::<usize>() >= count as usize
        {
            break;
        }
        let batch = archive.batch(b)?;
        let index = batch
            .column_by_name("index")
            .and_then(|c| c.as_primitive_opt::<UInt64Type>())
            .with_context(|| format!("{}: batch {b} has no u64 index column", file.display()))?;
        let (Some(&lo), Some(&hi)) = (index.values().first(), index.values().last()) else {
            continue;
        };
        if hi >= wanted.start && lo < wanted.end {
            batches.push(batch);
        }
        if lo >= wanted.end {
            break;
        }
    }
    let views = batches
        .iter()
        .map(|b| {
            BatchView::new(b, &columns).map_err(|r| anyhow::anyhow!("{}: {r}", file.display()))
        })
        .collect::<Result<Vec<_>>>()?;
    let mut rows_drawn = Vec::new();
    for (v, view) in views.iter().enumerate() {
        for row in 0..view.rows() {
            if wanted.contains(&view.index(row)) {
                rows_drawn.push((v, row));
            }
        }
    }
    rows_drawn.truncate(count as usize);
    let extras: Vec<Vec<ExtraValue>> = rows_drawn
        .iter()
        .map(|&(v, row)| {
            (0..columns.extra.len())
                .map(|e| views[v].extra(e, row))
                .collect()
        })
        .collect();
    // The level's own extra columns: the owner grid alone (the overlay finds it by its length);
    // the door columns go into the marks.
    let names: Vec<&str> = columns.extra.iter().map(|e| e.name.as_str()).collect();
    let owner = names.iter().position(|&n| n == OWNER_COLUMN);
    let levels: Vec<Level> = rows_drawn
        .iter()
        .zip(&extras)
        .map(|(&(v, row), extra)| Level {
            extra: owner.map_or(&[][..], |o| &extra[o..=o]),
            ..views[v].level(row)
        })
        .collect();
    if levels.is_empty() {
        bail!("{}: no level with index {first}", file.display());
    }
    let source = MarkSource::new(archive.run_meta().ok());
    let marks: Vec<Marks> = (rows_drawn.iter().zip(&levels).zip(&extras))
        .map(|((&(v, row), level), extra)| source.marks(views[v].index(row), level, &names, extra))
        .collect();
    let scene = draw_sheet_marked(&levels, &marks, cols, rows, size, graph);
    Ok((scene, levels.len()))
}

/// The index of the first level `archive` stores.
fn first_index(archive: &dyn LevelSource) -> Result<u64> {
    for b in 0..archive.batch_count() {
        let batch = archive.batch(b)?;
        let index = batch
            .column_by_name("index")
            .and_then(|c| c.as_primitive_opt::<UInt64Type>())
            .with_context(|| {
                format!(
                    "{}: batch {b} has no u64 index column",
                    archive.path().display()
                )
            })?;
        if let Some(&i) = index.values().first() {
            return Ok(i);
        }
    }
    bail!("{}: no levels", archive.path().display())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sheet_shapes_parse_and_refuse() {
        assert_eq!(parse_sheet("4x4").unwrap(), (4, 4));
        assert_eq!(parse_sheet(" 2 X 3 ").unwrap(), (2, 3));
        for bad in ["4", "0x2", "x", "33x32"] {
            assert!(parse_sheet(bad).is_err(), "{bad}");
        }
    }
}
