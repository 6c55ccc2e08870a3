//! The colours of pictures: one per cell code of the shared legend ([`cell_colour`]) and one
//! per room tag ([`tag_colour`]).

use super::scene::Rgba;
use crate::core::grid::cell;

/// Shown for codes the legend does not define, so corrupt data stands out.
const UNKNOWN_CELL: Rgba = Rgba::rgb(0xff00ff);

/// The colour of a cell code (`crate::cell`): wall dark grey, floor light, void transparent.
/// Codes outside the legend are magenta.
pub const fn cell_colour(code: u8) -> Rgba {
    match code {
        cell::WALL => Rgba::rgb(0x2b2b33),
        cell::FLOOR => Rgba::rgb(0xecebe4),
        cell::DOOR => Rgba::rgb(0x8b5a2b),
        cell::SECRET_DOOR => Rgba::rgb(0x8e5ea2),
        cell::STAIRS_UP => Rgba::rgb(0x3fa34d),
        cell::STAIRS_DOWN => Rgba::rgb(0xc8423b),
        cell::PILLAR => Rgba::rgb(0x8a8a8a),
        cell::FILLED => Rgba::rgb(0x111111),
        cell::VOID => Rgba::TRANSPARENT,
        _ => UNKNOWN_CELL,
    }
}

/// Room floors by tag id, indexed modulo the length: light colours of distinct hues that read
/// as floors on the dark backdrop. Entry 0 (the start tag, never in a finished level, and the
/// colour of rooms without tags) is the plain floor colour.
pub const TAG_PALETTE: [Rgba; 12] = [
    cell_colour(cell::FLOOR),
    Rgba::rgb(0x8ecae6),
    Rgba::rgb(0xf4a261),
    Rgba::rgb(0x90be6d),
    Rgba::rgb(0xe76f51),
    Rgba::rgb(0xcdb4db),
    Rgba::rgb(0xffd166),
    Rgba::rgb(0x84dcc6),
    Rgba::rgb(0xf28482),
    Rgba::rgb(0xa3b18a),
    Rgba::rgb(0xbde0fe),
    Rgba::rgb(0xe0c097),
];

/// The floor colour of a room whose vertex has tag `tag`: [`TAG_PALETTE`]`[tag % 12]`, so the
/// same tag id always gets the same colour.
pub const fn tag_colour(tag: u16) -> Rgba {
    TAG_PALETTE[tag as usize % TAG_PALETTE.len()]
}
