//! Rendering of levels to pictures: a tiny retained [`Scene`] of rects, lines and circles,
//! filled from grid and graph levels ([`draw_level`], [`draw_sheet`]) and written out as SVG
//! text ([`to_svg`]) or PNG bytes ([`to_png`]).
//!
//! The pipeline is `Level -> Scene -> SVG | PNG`: drawing decides colours and geometry once, so
//! both outputs show the same picture. Nothing here is on the generation hot path; it serves
//! previews, contact sheets and debugging of every generator family.

mod error;
mod level;
mod level_graph;
mod png;
mod scene;
mod svg;

pub use error::RenderError;
pub use level::{cell_colour, draw_level, draw_sheet};
pub use png::{MAX_IMAGE_SIDE, to_png};
pub use scene::{Item, Rgba, Scene};
pub use svg::to_svg;
