//! Exports of an archive's levels to the formats other tools load directly (`warren export`):
//! a NumPy stack of grids (`.npy`, shape (N, H, W), the cell codes), JaxUED's maze levels
//! (`.npz` with the fields of its `Level`), and one level as a Tiled map ([`tiled`]) or an LDtk
//! project ([`ldtk`]), with the level's owner grid as a layer of its own where the kind stores
//! one (`map`, [`owners`]). The stacks stream level by level from the archive, so memory stays
//! flat however many levels it holds.

pub mod doors;
pub mod ldtk;
pub mod npy;
pub mod owners;
pub mod tasks;
pub mod tiled;

mod error;

#[cfg(test)]
mod map_tests;

use std::path::Path;

use arrow_array::RecordBatch;
use arrow_array::cast::AsArray;
use arrow_array::types::{UInt16Type, UInt32Type, UInt64Type};

use crate::archive::{Archive, RunFooter, RunMeta};
use crate::core::generator::{ExtraKind, ExtraValue, Level};
use crate::core::output::OutputError;
use crate::floorplan::doors::DoorTable;
use crate::profile::{KIND_FACTS, KindFacts};
pub use error::ExportError;
use npy::{Dtype, NpzWriter, Staged};
use owners::{OWNER_COLUMN, Owners};

/// What every export returns.
type Result<T, E = ExportError> = std::result::Result<T, E>;

/// One level's grid as an export reads it.
struct GridRow<'a> {
    index: u64,
    width: u16,
    height: u16,
    cells: &'a [u8],
}

/// Calls `each` with every level's grid (and its batch and row, for other columns), in order.
fn for_each_grid(
    archive: &Archive,
    mut each: impl FnMut(&RecordBatch, usize, &GridRow<'_>) -> Result<()>,
) -> Result<()> {
    let path = archive.path();
    for b in 0..archive.batch_count() {
        let batch = archive.batch(b)?;
        let u16s = |column: &'static str| {
            batch
                .column_by_name(column)
                .and_then(|a| a.as_primitive_opt::<UInt16Type>())
                .ok_or_else(|| ExportError::NoGrid {
                    path: path.to_path_buf(),
                    column,
                })
        };
        let (widths, heights) = (u16s("grid_width")?, u16s("grid_height")?);
        let grids =
            crate::archive::GridColumn::of(&batch).map_err(|error| ExportError::GridColumn {
                path: path.to_path_buf(),
                error,
            })?;
        let indices = batch
            .column_by_name("index")
            .and_then(|a| a.as_primitive_opt::<UInt64Type>())
            .ok_or_else(|| ExportError::MissingColumn {
                path: path.to_path_buf(),
                column: "index",
            })?;
        for row in 0..batch.num_rows() {
            let level = GridRow {
                index: indices.value(row),
                width: widths.value(row),
                height: heights.value(row),
                cells: grids.row(row),
            };
            each(&batch, row, &level)?;
        }
        drop(batch);
        archive.release(b);
    }
    Ok(())
}

/// The levels the footer counts; exports write their array shapes before the data.
fn level_count(archive: &Archive) -> Result<u64> {
    Ok(RunFooter::from_archive(archive)?.levels)
}

/// Checks that `level` has the size of the first level, `first`.
fn same_size(first: &mut Option<(u16, u16)>, level: &GridRow<'_>, path: &Path) -> Result<()> {
    let size = (level.width, level.height);
    let (w, h) = *first.get_or_insert(size);
    if size != (w, h) {
        return Err(ExportError::SizeMismatch {
            path: path.to_path_buf(),
            index: level.index,
            width: level.width,
            height: level.height,
            first_width: w,
            first_height: h,
        });
    }
    if level.cells.len() != usize::from(w) * usize::from(h) {
        return Err(ExportError::CellCount {
            path: path.to_path_buf(),
            index: level.index,
            cells: level.cells.len(),
            width: u32::from(w),
            height: u32::from(h),
        });
    }
    Ok(())
}

/// The first grid's size, read without decoding any other level.
fn first_size(archive: &Archive) -> Result<Option<(u16, u16)>> {
    for b in 0..archive.batch_count() {
        let batch = archive.batch(b)?;
        if batch.num_rows() > 0 {
            let get = |column: &'static str| {
                batch
                    .column_by_name(column)
                    .and_then(|a| a.as_primitive_opt::<UInt16Type>())
                    .map(|a| a.value(0))
                    .ok_or_else(|| ExportError::NoGrid {
                        path: archive.path().to_path_buf(),
                        column,
                    })
            };
            return Ok(Some((get("grid_width")?, get("grid_height")?)));
        }
    }
    Ok(None)
}

/// Writes every grid of `archive` to `out` as one `.npy` array of shape (N, H, W), `uint8`
/// cell codes (the legend is the archive's `warren.cell_codes`). Returns (N, H, W).
///
/// # Errors
/// The archive has no grids, or grids of more than one size (naming the first level that
/// differs); writing failed. Nothing is left under `out` then.
pub fn write_npy(archive: &Archive, out: &Path) -> Result<(u64, u16, u16)> {
    let n = level_count(archive)?;
    let (w, h) = first_size(archive)?.unwrap_or((0, 0));
    let mut file = Staged::create(out).map_err(|source| ExportError::Create {
        path: out.to_path_buf(),
        source,
    })?;
    use std::io::Write;
    let io = |error| ExportError::Write {
        path: out.to_path_buf(),
        error,
    };
    file.write_all(&npy::header(Dtype::U8, &[n, u64::from(h), u64::from(w)]))
        .map_err(io)?;
    let mut first = Some((w, h));
    let mut rows = 0u64;
    for_each_grid(archive, |_, _, level| {
        same_size(&mut first, level, archive.path())?;
        rows += 1;
        file.write_all(level.cells).map_err(io)
    })?;
    if rows != n {
        return Err(ExportError::LevelCount {
            path: archive.path().to_path_buf(),
            footer: n,
            found: rows,
        });
    }
    file.commit().map_err(io)?;
    Ok((n, h, w))
}

/// Whether cell code `code` blocks an agent (JaxUED's walls): everything but floor, doors and
/// stairs.
fn blocks(code: u8) -> bool {
    !crate::core::route::walkable(code)
}

/// JaxUED's direction (0 right, 1 down, 2 left, 3 up) of the first open neighbour of `(x, y)`.
fn open_direction(level: &GridRow<'_>, x: u32, y: u32) -> u8 {
    let (w, h) = (u32::from(level.width), u32::from(level.height));
    let steps: [(i64, i64); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];
    for (dir, (dx, dy)) in steps.into_iter().enumerate() {
        let (nx, ny) = (i64::from(x) + dx, i64::from(y) + dy);
        if nx >= 0 && ny >= 0 && nx < i64::from(w) && ny < i64::from(h) {
            let code = level.cells[(ny as u32 * w + nx as u32) as usize];
            if !blocks(code) {
                return dir as u8;
            }
        }
    }
    0
}

/// The kinds `--jaxued` exports: those with a grid and a start and goal on it (the registry's
/// [`KindFacts::grid`](crate::profile::KindFacts::grid)).
fn jaxued_kinds() -> Vec<&'static str> {
    KIND_FACTS
        .iter()
        .filter(|k| k.grid)
        .map(|k| k.name)
        .collect()
}

/// Checks that `run` made levels JaxUED can play: a grid kind, and for mazes a lattice (a
/// Delaunay maze has no grid).
fn check_jaxued_kind(run: &RunMeta, path: &Path) -> Result<()> {
    if !KindFacts::of(&run.generator).is_some_and(|k| k.grid) {
        return Err(ExportError::NotJaxuedKind {
            path: path.to_path_buf(),
            kinds: jaxued_kinds(),
            generator: run.generator.clone(),
        });
    }
    if run.generator != "maze" {
        return Ok(());
    }
    let profile: toml::Table = run.profile.parse().map_err(|source| ExportError::Profile {
        path: path.to_path_buf(),
        source,
    })?;
    let topology = profile
        .get("maze")
        .and_then(|m| m.get("topology"))
        .and_then(toml::Value::as_str)
        .unwrap_or("lattice");
    if topology != "lattice" {
        return Err(ExportError::NotLattice {
            path: path.to_path_buf(),
            topology: topology.to_string(),
        });
    }
    Ok(())
}

/// The largest grid width and height of `archive`'s levels (read from the size columns alone).
fn largest_size(archive: &Archive) -> Result<(u16, u16)> {
    let mut size = (0u16, 0u16);
    for b in 0..archive.batch_count() {
        let batch = archive.batch(b)?;
        for (c, side) in [("grid_width", &mut size.0), ("grid_height", &mut size.1)] {
            let column = batch
                .column_by_name(c)
                .and_then(|a| a.as_primitive_opt::<UInt16Type>())
                .ok_or_else(|| ExportError::MissingColumn {
                    path: archive.path().to_path_buf(),
                    column: c,
                })?;
            *side = column.values().iter().copied().fold(*side, u16::max);
        }
        drop(batch);
        archive.release(b);
    }
    Ok(size)
}

/// Writes the levels of `archive` (maze, dmg, regions, grammar or map) as JaxUED maze levels to
/// `out` (`.npz`): `wall_map` bool (N, H, W), `goal_pos` and `agent_pos` uint32 (N, 2) as
/// (x, y), `agent_dir` uint8 (N,) (towards the agent's first open neighbour), `width` and
/// `height` int32 (N,). H and W are the largest grid's; a smaller level fills the top-left
/// corner, walls around it, and `width`/`height` give its own size (JaxUED's own convention
/// for levels below the environment's maximum). The agent stands on the level's start and
/// the goal on its goal (the `start_x` .. `goal_y` metrics every grid kind stores). Returns
/// (N, H, W).
///
/// # Errors
/// Not an archive of a grid kind, an archive without the start and goal metrics (written
/// before they existed), a start or goal outside its grid, or writing failed (nothing is left
/// under `out` then).
pub fn write_jaxued(archive: &Archive, out: &Path) -> Result<(u64, u16, u16)> {
    let run = RunMeta::from_archive(archive)?;
    check_jaxued_kind(&run, archive.path())?;
    let n = level_count(archive)?;
    let (w, h) = largest_size(archive)?;
    let io = |error| ExportError::Write {
        path: out.to_path_buf(),
        error,
    };
    let mut npz = NpzWriter::create(out).map_err(io)?;
    npz.begin("wall_map", Dtype::Bool, &[n, u64::from(h), u64::from(w)])
        .map_err(io)?;
    // The wall maps stream straight out; the small per-level fields wait in memory.
    let (mut goal, mut agent, mut dir) = (Vec::new(), Vec::new(), Vec::new());
    let (mut widths, mut heights) = (Vec::new(), Vec::new());
    let mut walls = vec![1u8; usize::from(w) * usize::from(h)];
    let path = archive.path();
    for_each_grid(archive, |batch, row, level| {
        let metric = |column: &'static str| {
            batch
                .column_by_name(column)
                .and_then(|a| a.as_primitive_opt::<UInt32Type>())
                .map(|a| a.value(row))
                .ok_or_else(|| ExportError::NoStartGoal {
                    path: path.to_path_buf(),
                    column,
                })
        };
        let (lw, lh) = (u32::from(level.width), u32::from(level.height));
        if level.cells.len() != (lw * lh) as usize {
            return Err(ExportError::CellCount {
                path: path.to_path_buf(),
                index: level.index,
                cells: level.cells.len(),
                width: lw,
                height: lh,
            });
        }
        let start = (metric("start_x")?, metric("start_y")?);
        let end = (metric("goal_x")?, metric("goal_y")?);
        for (what, (x, y)) in [("start", start), ("goal", end)] {
            if x >= lw || y >= lh || blocks(level.cells[(y * lw + x) as usize]) {
                return Err(ExportError::NotWalkable {
                    path: path.to_path_buf(),
                    index: level.index,
                    what,
                    x,
                    y,
                    width: lw,
                    height: lh,
                });
            }
        }
        agent.extend([start.0, start.1]);
        goal.extend([end.0, end.1]);
        dir.push(open_direction(level, start.0, start.1));
        widths.push(lw as i32);
        heights.push(lh as i32);
        walls.fill(1);
        for (y, cells) in level.cells.chunks_exact(lw as usize).enumerate() {
            let at = y * usize::from(w);
            for (wall, &c) in walls[at..at + cells.len()].iter_mut().zip(cells) {
                *wall = u8::from(blocks(c));
            }
        }
        npz.write(&walls).map_err(io)
    })?;
    if dir.len() as u64 != n {
        return Err(ExportError::LevelCount {
            path: path.to_path_buf(),
            footer: n,
            found: dir.len() as u64,
        });
    }
    let words = |v: &[u32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    npz.begin("goal_pos", Dtype::U32, &[n, 2]).map_err(io)?;
    npz.write(&words(&goal)).map_err(io)?;
    npz.begin("agent_pos", Dtype::U32, &[n, 2]).map_err(io)?;
    npz.write(&words(&agent)).map_err(io)?;
    npz.begin("agent_dir", Dtype::U8, &[n]).map_err(io)?;
    npz.write(&dir).map_err(io)?;
    for (name, values) in [("width", &widths), ("height", &heights)] {
        npz.begin(name, Dtype::I32, &[n]).map_err(io)?;
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        npz.write(&bytes).map_err(io)?;
    }
    npz.finish().map_err(io)?;
    Ok((n, h, w))
}

/// What `with_level` hands on beside the level: its seed, and where the kind stores them, its
/// owner grid and its door table.
type Stored<'a> = (
    u64,
    Option<&'a [u16]>,
    Option<&'a DoorTable>,
    &'a doors::MapData,
);

/// Finds the level with index `index` of `archive` and hands it (with its seed and, when the
/// kind stores them, its owner grid and door table) to `write`.
fn with_level<T>(
    archive: &Archive,
    index: u64,
    write: impl FnOnce(&Level<'_>, Stored<'_>) -> Result<T>,
) -> Result<T> {
    let columns = archive.columns()?;
    let path = archive.path();
    let owner_column = columns
        .extra
        .iter()
        .position(|e| e.name == OWNER_COLUMN && e.kind == ExtraKind::ListU16);
    for b in 0..archive.batch_count() {
        let batch = archive.batch(b)?;
        let view = crate::archive::BatchView::new(&batch, &columns).map_err(|error| {
            ExportError::Batch {
                path: path.to_path_buf(),
                batch: b,
                error,
            }
        })?;
        let Some(row) = (0..view.rows()).find(|&r| view.index(r) == index) else {
            if (0..view.rows())
                .next_back()
                .is_some_and(|r| view.index(r) > index)
            {
                break;
            }
            continue;
        };
        let seed = batch
            .column_by_name("seed")
            .and_then(|a| a.as_primitive_opt::<UInt64Type>())
            .map_or(0, |a| a.value(row));
        let level = view.level(row);
        let owner = match owner_column.map(|e| view.extra(e, row)) {
            Some(ExtraValue::ListU16(owner)) => Some(owner),
            _ => None,
        };
        if let (Some(owner), Some(grid)) = (owner, &level.grid)
            && owner.len() != grid.cells.len()
        {
            return Err(ExportError::OwnerSize {
                path: path.to_path_buf(),
                index,
                owners: owner.len(),
                cells: grid.cells.len(),
            });
        }
        let names: Vec<&str> = columns.extra.iter().map(|e| e.name.as_str()).collect();
        let doors = match doors::door_table(&names, |e| view.extra(e, row)) {
            Some(Ok(table)) => Some(table),
            Some(Err(error)) => {
                return Err(ExportError::DoorTable {
                    path: path.to_path_buf(),
                    index,
                    error,
                });
            }
            None => None,
        };
        let data = doors::MapData::of(&names, |e| view.extra(e, row));
        return write(&level, (seed, owner, doors.as_ref(), &data));
    }
    Err(ExportError::NoLevel {
        path: path.to_path_buf(),
        index,
    })
}

/// Fails unless `archive`'s levels have grids (the editors' tile layers).
fn check_grids(archive: &Archive, run: &RunMeta) -> Result<()> {
    if !archive.columns()?.grid {
        return Err(ExportError::NoTiles {
            path: archive.path().to_path_buf(),
            generator: run.generator.clone(),
        });
    }
    Ok(())
}

/// The file name of `path` (relative to its folder), for references between files.
fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Writes the level with index `index` of `archive` as a Tiled map at `out` (`.tmj`), with its
/// tileset image beside it (`out` with extension `.tiles.png`) and, for a level with an owner
/// grid (`map`), the owner tileset image (`.owners.png`). Returns the images' paths.
///
/// # Errors
/// No level with that index, a kind without grids, or writing failed (nothing is left under
/// any of the names then).
pub fn write_tiled(archive: &Archive, index: u64, out: &Path) -> Result<Vec<std::path::PathBuf>> {
    let run = RunMeta::from_archive(archive)?;
    check_grids(archive, &run)?;
    let image = out.with_extension("tiles.png");
    let owner_image = out.with_extension("owners.png");
    let (image_name, owner_image_name) = (file_name(&image), file_name(&owner_image));
    with_level(archive, index, |level, (seed, owner, doors, data)| {
        let graph = owner.and_then(|_| owners::stored_graph(&run, seed));
        let owners = owner.map(|grid| Owners::new(level, grid, graph.as_ref()));
        let info = tiled::MapInfo {
            doors,
            data,
            index,
            seed,
            generator: &run.generator,
            tags: &run.tags,
            image: &image_name,
            owners: owners.as_ref().map(|o| (o, owner_image_name.as_str())),
        };
        let map = tiled::map(level, &info);
        let tileset = tiled::tileset_png().map_err(|error| ExportError::Tileset {
            what: "tileset image",
            error,
        })?;
        let mut files = vec![(image.clone(), tileset)];
        if let Some(owners) = &owners {
            let png = tiled::owner_tileset_png(owners).map_err(|error| ExportError::Tileset {
                what: "owner tileset image",
                error,
            })?;
            files.push((owner_image.clone(), png));
        }
        files.push((out.to_path_buf(), serde_json::to_string(&map)?.into_bytes()));
        write_all_or_none(&files)?;
        files.pop();
        Ok(files.into_iter().map(|(path, _)| path).collect())
    })
}

/// Writes each `(path, bytes)` atomically, in order; when one fails, removes those written
/// before it.
fn write_all_or_none(files: &[(std::path::PathBuf, Vec<u8>)]) -> Result<(), OutputError> {
    for (done, (path, bytes)) in files.iter().enumerate() {
        if let Err(e) = crate::core::output::write_atomic(path, bytes) {
            for (written, _) in &files[..done] {
                let _ = std::fs::remove_file(written);
            }
            return Err(e);
        }
    }
    Ok(())
}

/// Writes the level with index `index` of `archive` as an LDtk project at `out` (`.ldtk`), with
/// an `Owner` layer for a level with an owner grid (`map`).
///
/// # Errors
/// No level with that index, a kind without grids, or writing failed (nothing is left under
/// `out` then).
pub fn write_ldtk(archive: &Archive, index: u64, out: &Path) -> Result<()> {
    let run = RunMeta::from_archive(archive)?;
    check_grids(archive, &run)?;
    with_level(archive, index, |level, (seed, owner, doors, data)| {
        let grid = level.grid.ok_or(ExportError::NoLevelGrid)?;
        let graph = owner.and_then(|_| owners::stored_graph(&run, seed));
        let owners = owner.map(|grid| Owners::new(level, grid, graph.as_ref()));
        let info = ldtk::ProjectInfo {
            index,
            seed,
            generator: &run.generator,
            owners: owners.as_ref(),
            doors,
            data,
            rooms: doors.and(level.rooms),
        };
        let project = ldtk::project(&grid, &info);
        let json = serde_json::to_string_pretty(&project)?;
        Ok(crate::core::output::write_atomic(out, json.as_bytes())?)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_agent_faces_its_first_open_neighbour() {
        // Row-major 3x3: the centre is open only upwards.
        let cells = [0, 1, 0, 0, 1, 0, 0, 0, 0];
        let level = GridRow {
            index: 0,
            width: 3,
            height: 3,
            cells: &cells,
        };
        assert_eq!(open_direction(&level, 1, 1), 3);
        let open = [1; 9];
        let level = GridRow {
            cells: &open,
            ..level
        };
        assert_eq!(open_direction(&level, 1, 1), 0);
    }
}
