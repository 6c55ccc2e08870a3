//! Renderings of a grid puzzle: how the model is shown the grid. Each writes a description
//! block (legend included) that the task wraps in its instruction, and each has a parser that
//! reads the whole question text back into the same [`GridPuzzle`] (the round-trip tests).
//!
//! - `ascii`: rows of glyphs with a legend; the glyphs are drawn per item ([`Glyphs::draw`]);
//! - `coords`: the grid's size and the blocked cells as `(row, col)` pairs;
//! - `adjlist`: maze-dataset's `ADJLIST` token form over the open cells;
//! - `tokens`: one token per cell, rows ended by `<EOL>`;
//! - `png`: an image, one square per cell, with a text legend of its colours.
//!
//! Each file's doc shows its text; `text` holds what the text parsers share. A parser reads
//! the whole question: it finds its rendering's first line, reads the block strictly (every
//! error names the line and the byte or token where it found something unexpected) and never
//! panics on arbitrary text.

mod adjlist;
mod ascii;
mod coords;
mod png;
mod text;
mod tokens;

#[cfg(test)]
mod tests;

use crate::core::rng::WarrenRng;
use crate::task::config::Rendering;
use crate::task::grid::GridPuzzle;

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

/// Why a question could not be read back into a puzzle.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ParseError(pub String);

/// Writes `p`'s description in rendering `r` into `out` (appended); a `png` rendering writes
/// its image into `image` (replaced), every other rendering empties it.
pub fn render(
    r: Rendering,
    p: &GridPuzzle,
    glyphs: &Glyphs,
    out: &mut String,
    image: &mut Vec<u8>,
) {
    if r != Rendering::Png {
        image.clear();
    }
    match r {
        Rendering::Ascii => ascii::render(p, glyphs, out),
        Rendering::Coords => coords::render(p, out),
        Rendering::Adjlist => adjlist::render(p, out),
        Rendering::Tokens => tokens::render(p, out),
        Rendering::Png => png::render(p, out, image),
    }
}

/// Reads a question written with rendering `r` (its image too for `png`) back into the puzzle.
pub fn parse(r: Rendering, question: &str, image: &[u8]) -> Result<GridPuzzle, ParseError> {
    match r {
        Rendering::Ascii => ascii::parse(question),
        Rendering::Coords => coords::parse(question),
        Rendering::Adjlist => adjlist::parse(question),
        Rendering::Tokens => tokens::parse(question),
        Rendering::Png => png::parse(question, image),
    }
}
