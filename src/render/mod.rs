//! Rendering of levels to pictures: a tiny retained [`Scene`] of rects, lines and circles,
//! filled from grid and graph levels ([`draw_level`], [`draw_sheet`]) and written out as SVG
//! text ([`to_svg`]) or PNG bytes ([`to_png`]).
//!
//! Grids (seed 001's rasterised mazes and any tile family) are drawn cell by cell with
//! [`cell_colour`]; graphs without rooms (seed 001's irregular mazes) as carved passages on a
//! wall backdrop; graphs with rooms (seed 000's graph-grammar levels) as dungeon maps of
//! tag-coloured rooms ([`tag_colour`]) joined by corridors, with cosmetic edges and vertices
//! drawn faint. A level with both a grid and a graph (graph-grammar tile maps, DMG dungeons) is
//! drawn as its grid, with the graph on top on request ([`draw_level_with`]).
//!
//! The pipeline is `Level -> Scene -> SVG | PNG`: drawing decides colours and geometry once, so
//! both outputs show the same picture. Nothing here is on the generation hot path; it serves
//! previews, contact sheets and debugging of every generator family.

mod error;
mod fit;
mod level;
mod level_graph;
mod level_rooms;
mod marks;
mod overlay;
mod palette;
mod png;
mod scene;
mod svg;

pub use error::RenderError;
pub use level::{
    draw_level, draw_level_marked, draw_level_with, draw_sheet, draw_sheet_marked, draw_sheet_with,
};
pub use marks::{FORBIDDEN, KEY_COLOURS, LockMark, Marks, PIN, TileBox, draw_marks};
pub use palette::{TAG_PALETTE, cell_colour, tag_colour};
pub use png::{MAX_IMAGE_SIDE, to_png};
pub use scene::{Item, Rgba, Scene};
pub use svg::to_svg;
