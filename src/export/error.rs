//! Export errors: every one names the archive or the file being written, and displays as one
//! line.

use std::path::PathBuf;

use thiserror::Error;

use crate::archive::{ArchiveError, ColumnError};
use crate::core::output::OutputError;

/// Why an export failed. Nothing is left under the output's name then.
#[derive(Debug, Error)]
pub enum ExportError {
    /// The archive could not be read.
    #[error(transparent)]
    Archive(#[from] ArchiveError),
    /// A file written whole (a map, a project, a tileset image) could not be written.
    #[error(transparent)]
    Output(#[from] OutputError),
    /// The output file could not be created.
    #[error("{path}: cannot create")]
    Create {
        /// The output file.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// Writing, syncing or renaming the output file failed.
    // NOTE: the cause is part of the message, not `source()`, so a report that prints the
    // whole chain (`{:#}`) names it once.
    #[error("{path}: cannot write: {error}")]
    Write {
        /// The output file.
        path: PathBuf,
        /// The underlying error.
        error: std::io::Error,
    },
    /// The archive's levels have no grid: a grid size column is missing.
    #[error("{path}: no grid (column `{column}`): this kind has none")]
    NoGrid {
        /// The archive.
        path: PathBuf,
        /// The missing column.
        column: &'static str,
    },
    /// A column the export reads is missing.
    #[error("{path}: no `{column}` column")]
    MissingColumn {
        /// The archive.
        path: PathBuf,
        /// The missing column.
        column: &'static str,
    },
    /// A start or goal metric is missing: the archive is older than the metrics.
    #[error(
        "{path}: no `{column}` column (archives from before warren 0.3 have no start and goal: \
         generate them again)"
    )]
    NoStartGoal {
        /// The archive.
        path: PathBuf,
        /// The missing metric column.
        column: &'static str,
    },
    /// A batch's grid column cannot be read.
    #[error("{path}: {error}")]
    GridColumn {
        /// The archive.
        path: PathBuf,
        /// What is wrong with the column.
        error: ColumnError,
    },
    /// A batch's columns cannot be read as the archive declares them.
    #[error("{path}: batch {batch}: {error}")]
    Batch {
        /// The archive.
        path: PathBuf,
        /// The record batch.
        batch: usize,
        /// What is wrong with its columns.
        error: ColumnError,
    },
    /// A stack of grids needs one size; this level has another than the first.
    #[error(
        "{path}: level {index} is {width}x{height}, the first level {first_width}x{first_height}: \
         a stack needs one grid size (export the levels one by one, or generate with a fixed size)"
    )]
    SizeMismatch {
        /// The archive.
        path: PathBuf,
        /// The level's index.
        index: u64,
        /// The level's grid width.
        width: u16,
        /// The level's grid height.
        height: u16,
        /// The first level's grid width.
        first_width: u16,
        /// The first level's grid height.
        first_height: u16,
    },
    /// A level's cell count is not its width times its height.
    #[error("{path}: level {index} holds {cells} cells, not {width}x{height}")]
    CellCount {
        /// The archive.
        path: PathBuf,
        /// The level's index.
        index: u64,
        /// The cells it holds.
        cells: usize,
        /// Its grid width.
        width: u32,
        /// Its grid height.
        height: u32,
    },
    /// The footer counts another number of levels than the batches hold.
    #[error("{path}: the footer counts {footer} levels, the batches hold {found}")]
    LevelCount {
        /// The archive.
        path: PathBuf,
        /// The footer's count.
        footer: u64,
        /// The levels in the batches.
        found: u64,
    },
    /// JaxUED levels come only from the kinds with a grid, a start and a goal.
    #[error(
        "{path}: --jaxued exports {kinds} levels; this archive holds `{generator}` levels, which \
         have no grid with a start and a goal",
        kinds = .kinds.join(", ")
    )]
    NotJaxuedKind {
        /// The archive.
        path: PathBuf,
        /// The kinds JaxUED levels come from.
        kinds: Vec<&'static str>,
        /// The archive's kind.
        generator: String,
    },
    /// A task export needs a task archive.
    #[error(
        "{path}: holds `{generator}` levels, not task items (make them with `warren tasks` or \
         `warren generate task`)"
    )]
    NotTasks {
        /// The archive.
        path: PathBuf,
        /// The archive's kind.
        generator: String,
    },
    /// The profile stored in the archive does not parse.
    #[error("{path}: the stored profile does not parse")]
    Profile {
        /// The archive.
        path: PathBuf,
        /// The TOML error.
        source: toml::de::Error,
    },
    /// JaxUED levels come only from lattice mazes.
    #[error(
        "{path}: --jaxued exports lattice mazes (a grid cell per room); this archive's mazes \
         have topology `{topology}`"
    )]
    NotLattice {
        /// The archive.
        path: PathBuf,
        /// The mazes' topology.
        topology: String,
    },
    /// A level's start or goal is not a walkable square of its grid.
    #[error(
        "{path}: level {index}: its {what} ({x}, {y}) is not a walkable square of its \
         {width}x{height} grid"
    )]
    NotWalkable {
        /// The archive.
        path: PathBuf,
        /// The level's index.
        index: u64,
        /// `start` or `goal`.
        what: &'static str,
        /// The square's column.
        x: u32,
        /// The square's row.
        y: u32,
        /// The grid's width.
        width: u32,
        /// The grid's height.
        height: u32,
    },
    /// A level's owner grid has another size than its grid.
    #[error("{path}: level {index}: the owner grid holds {owners} tiles, the grid {cells}")]
    OwnerSize {
        /// The archive.
        path: PathBuf,
        /// The level's index.
        index: u64,
        /// The owner grid's tiles.
        owners: usize,
        /// The grid's cells.
        cells: usize,
    },
    /// A level's door table columns are unreadable.
    #[error("{path}: level {index}: {error}")]
    DoorTable {
        /// The archive.
        path: PathBuf,
        /// The level's index.
        index: u64,
        /// What is wrong with them.
        error: String,
    },
    /// No level has the index asked for.
    #[error("{path}: no level with index {index}")]
    NoLevel {
        /// The archive.
        path: PathBuf,
        /// The index asked for.
        index: u64,
    },
    /// The archive's kind has no grids to draw as tiles.
    #[error("{path}: `{generator}` levels have no grid to draw as tiles")]
    NoTiles {
        /// The archive.
        path: PathBuf,
        /// The archive's kind.
        generator: String,
    },
    /// A level of a kind with grids came without its grid.
    #[error("a level without its grid")]
    NoLevelGrid,
    /// A tileset image could not be encoded.
    #[error("{what}: {error}")]
    Tileset {
        /// `tileset image` or `owner tileset image`.
        what: &'static str,
        /// The encoder's message.
        error: String,
    },
    /// A map or project could not be written as JSON.
    #[error(transparent)]
    Json(#[from] serde_json::Error),
}
