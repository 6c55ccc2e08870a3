//! The glyphs of an `ascii` rendering, drawn per item as reasoning-gym draws its maze glyphs.

use crate::core::rng::WarrenRng;

/// The glyphs of an `ascii` rendering.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Glyphs {
    /// A blocked cell.
    pub wall: char,
    /// An open cell.
    pub open: char,
    /// The start.
    pub start: char,
    /// The goal.
    pub goal: char,
}

impl Default for Glyphs {
    fn default() -> Self {
        Glyphs {
            wall: '#',
            open: '.',
            start: 'S',
            goal: 'G',
        }
    }
}

/// Wall glyphs an item may draw.
const WALLS: [char; 5] = ['#', '@', 'X', '%', '&'];
/// Open-cell glyphs an item may draw.
const OPENS: [char; 4] = ['.', 'o', '_', '-'];
/// Start and goal glyph pairs an item may draw.
const ENDS: [(char, char); 4] = [('S', 'G'), ('A', 'B'), ('s', 'g'), ('*', '$')];

impl Glyphs {
    /// Glyphs drawn for one item (as reasoning-gym draws its maze glyphs), all distinct.
    pub fn draw(rng: &mut WarrenRng) -> Glyphs {
        let wall = WALLS[rng.below(WALLS.len() as u32) as usize];
        let open = OPENS[rng.below(OPENS.len() as u32) as usize];
        let (start, goal) = ENDS[rng.below(ENDS.len() as u32) as usize];
        Glyphs {
            wall,
            open,
            start,
            goal,
        }
    }
}
