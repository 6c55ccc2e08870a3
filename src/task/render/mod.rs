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
//! Each file's doc shows its text; `text` holds what the parsers share ([`ParseError`] too), `glyphs`
//! the ascii glyphs. A parser reads
//! the whole question: it finds its rendering's first line, reads the block strictly (every
//! error names the line and the byte or token where it found something unexpected) and never
//! panics on arbitrary text.

mod adjlist;
mod ascii;
mod coords;
mod glyphs;
mod png;
mod text;
mod tokens;

#[cfg(test)]
mod tests;

pub use glyphs::Glyphs;
pub use text::ParseError;

use crate::task::config::Rendering;
use crate::task::grid::GridPuzzle;

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
