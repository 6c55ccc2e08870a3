//! The `coords` rendering: the grid's size, then the walls (always the blocked cells, never the
//! open ones, whichever list is shorter) as `(row, col)` pairs in row-major order, then the
//! start and the goal. Rows and columns count from 0 at the top left, as the text says:
//!
//! ```text
//! The grid has 3 rows and 4 columns, numbered from 0: row 0 is the top row and column 0 the leftmost column. A cell is written (row, col).
//! Walls (the blocked cells; every cell not listed is open): (0, 0), (0, 3), (2, 1)
//! Start: (1, 0)
//! Goal: (2, 3)
//! ```
//!
//! A grid without walls says `Walls (...): none`.

use crate::task::grid::GridPuzzle;
use crate::task::render::text::ParseError;
use crate::task::render::text::{
    Cursor, SIZE_START, expect_block_end, find_line, push_cell, read_size, write_size,
};

/// The end of the size line.
const NOTATION: &str = " A cell is written (row, col).";
/// The start of the walls line.
const WALLS: &str = "Walls (the blocked cells; every cell not listed is open): ";
/// What the walls line says when there are none.
const NO_WALLS: &str = "none";
/// Between two cells of the walls line, and between a cell's row and column.
const SEP: &str = ", ";

/// Writes the four lines.
///
/// # Runtime
/// O(cells); appends to `out` only.
pub fn render(p: &GridPuzzle, out: &mut String) {
    write_size(p.rows, p.cols, out);
    out.push_str(NOTATION);
    out.push('\n');
    out.push_str(WALLS);
    let mut first = true;
    for (i, &open) in p.open.iter().enumerate() {
        if open {
            continue;
        }
        if !first {
            out.push_str(SEP);
        }
        first = false;
        let cols = p.cols as usize;
        push_cell(out, ((i / cols) as u32, (i % cols) as u32), SEP);
    }
    if first {
        out.push_str(NO_WALLS);
    }
    out.push_str("\nStart: ");
    push_cell(out, p.start, SEP);
    out.push_str("\nGoal: ");
    push_cell(out, p.goal, SEP);
    out.push('\n');
}

/// Reads the four lines from a whole question.
pub fn parse(question: &str) -> Result<GridPuzzle, ParseError> {
    let (at, size_line) = find_line(question, SIZE_START, "the coords rendering's size line")?;
    let mut cur = Cursor::new(size_line, at);
    let (rows, cols) = read_size(&mut cur)?;
    cur.expect(NOTATION)?;
    cur.end()?;
    let mut lines = question.lines().skip(at);
    let mut next = |n: usize| {
        lines
            .next()
            .map(|l| Cursor::new(l, at + n))
            .ok_or_else(|| ParseError(format!("line {}: the question ends early", at + n)))
    };
    let mut p = GridPuzzle {
        rows,
        cols,
        open: vec![true; rows as usize * cols as usize],
        ..GridPuzzle::default()
    };
    read_walls(&mut next(1)?, &mut p)?;
    p.start = read_end(&mut next(2)?, "Start: ", &p)?;
    p.goal = read_end(&mut next(3)?, "Goal: ", &p)?;
    expect_block_end(question, at + 3)?;
    Ok(p)
}

/// Reads the walls line into `p.open`.
fn read_walls(cur: &mut Cursor<'_>, p: &mut GridPuzzle) -> Result<(), ParseError> {
    cur.expect(WALLS)?;
    if cur.eat(NO_WALLS) {
        return cur.end();
    }
    loop {
        let at = cur.cell(SEP, p.rows, p.cols)?;
        let i = p.index(at);
        if !p.open[i] {
            return Err(cur.error(&format!("wall ({}, {}) is listed twice", at.0, at.1)));
        }
        p.open[i] = false;
        if cur.rest().is_empty() {
            return Ok(());
        }
        cur.expect(SEP)?;
    }
}

/// Reads a `Start: (r, c)` or `Goal: (r, c)` line; the cell must be open.
fn read_end(cur: &mut Cursor<'_>, label: &str, p: &GridPuzzle) -> Result<(u32, u32), ParseError> {
    cur.expect(label)?;
    let at = cur.cell(SEP, p.rows, p.cols)?;
    if !p.open[p.index(at)] {
        return Err(cur.error(&format!("{label}({}, {}) is a wall", at.0, at.1)));
    }
    cur.end()?;
    Ok(at)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::task::render::tests::puzzle;

    #[test]
    fn the_text_is_what_the_module_doc_shows() {
        let p = puzzle(&["#..#", "S...", ".#.G"]);
        let mut out = String::new();
        render(&p, &mut out);
        assert_eq!(
            out,
            "The grid has 3 rows and 4 columns, numbered from 0: row 0 is the top row and column \
             0 the leftmost column. A cell is written (row, col).\nWalls (the blocked cells; every \
             cell not listed is open): (0, 0), (0, 3), (2, 1)\nStart: (1, 0)\nGoal: (2, 3)\n"
        );
        assert_eq!(parse(&out), Ok(p));
    }

    #[test]
    fn wrong_walls_and_ends_are_named() {
        let p = puzzle(&["#..#", "S...", ".#.G"]);
        let mut out = String::new();
        render(&p, &mut out);
        let twice = out.replace("(2, 1)", "(2, 1), (0, 0)");
        assert!(
            parse(&twice)
                .unwrap_err()
                .0
                .contains("(0, 0) is listed twice")
        );
        let walled = out.replace("Start: (1, 0)", "Start: (0, 0)");
        let e = parse(&walled).unwrap_err();
        assert_eq!(e.0, "line 3, byte 13: Start: (0, 0) is a wall");
        let outside = out.replace("Goal: (2, 3)", "Goal: (2, 4)");
        assert!(
            parse(&outside)
                .unwrap_err()
                .0
                .contains("outside the 3 x 4 grid")
        );
        let trailing = out.replace("(2, 1)\n", "(2, 1),\n");
        assert!(parse(&trailing).unwrap_err().0.starts_with("line 2, byte "));
        let cut = &out[..out.find("Goal").unwrap()];
        assert_eq!(parse(cut).unwrap_err().0, "line 4: the question ends early");
    }
}
