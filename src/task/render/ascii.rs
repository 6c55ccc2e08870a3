//! The `ascii` rendering: a legend line naming the item's glyphs, then one line per grid row.

use crate::task::grid::GridPuzzle;
use crate::task::render::glyphs::Glyphs;
use crate::task::render::text::ParseError;

/// Writes the legend and the rows.
pub fn render(p: &GridPuzzle, g: &Glyphs, out: &mut String) {
    use std::fmt::Write;
    let _ = writeln!(
        out,
        "Legend: '{}' = wall, '{}' = open cell, '{}' = start, '{}' = goal",
        g.wall, g.open, g.start, g.goal
    );
    out.push('\n');
    let ascii = [g.wall, g.open, g.start, g.goal].iter().all(char::is_ascii);
    if !ascii {
        for r in 0..p.rows {
            for c in 0..p.cols {
                out.push(glyph(p, g, (r, c)));
            }
            out.push('\n');
        }
        return;
    }
    // PERF: ASCII glyphs are bytes: a row is written byte by byte, then start and goal.
    let mut bytes = std::mem::take(out).into_bytes();
    let top = bytes.len();
    let (cols, width) = (p.cols as usize, p.cols as usize + 1);
    bytes.reserve(width * p.rows as usize);
    let table = [g.wall as u8, g.open as u8];
    for row in p.open.chunks(cols.max(1)) {
        bytes.extend(row.iter().map(|&o| table[usize::from(o)]));
        bytes.push(b'\n');
    }
    bytes[top + p.start.0 as usize * width + p.start.1 as usize] = g.start as u8;
    bytes[top + p.goal.0 as usize * width + p.goal.1 as usize] = g.goal as u8;
    *out = String::from_utf8(bytes).expect("ASCII glyphs leave the text UTF-8");
}

/// The glyph of one cell.
fn glyph(p: &GridPuzzle, g: &Glyphs, (r, c): (u32, u32)) -> char {
    if (r, c) == p.start {
        g.start
    } else if (r, c) == p.goal {
        g.goal
    } else if p.open[p.index((r, c))] {
        g.open
    } else {
        g.wall
    }
}

/// Reads the legend line and the rows after it.
pub fn parse(question: &str) -> Result<GridPuzzle, ParseError> {
    let mut lines = question.lines();
    let legend = lines
        .by_ref()
        .find(|l| l.starts_with("Legend: "))
        .ok_or_else(|| ParseError("no `Legend:` line".into()))?;
    let quoted: Vec<char> = legend
        .split('\'')
        .skip(1)
        .step_by(2)
        .filter_map(|s| {
            let mut it = s.chars();
            let c = it.next()?;
            it.next().is_none().then_some(c)
        })
        .collect();
    let [wall, open, start, goal] = quoted[..] else {
        return Err(ParseError(format!(
            "legend names {} glyphs, expected 4",
            quoted.len()
        )));
    };
    let mut p = GridPuzzle::default();
    let (mut seen_start, mut seen_goal) = (false, false);
    let rows = lines
        .skip_while(|l| l.is_empty())
        .take_while(|l| !l.is_empty());
    for (r, line) in rows.enumerate() {
        let before = p.open.len();
        for (c, ch) in line.chars().enumerate() {
            let at = (r as u32, c as u32);
            match ch {
                _ if ch == wall => p.open.push(false),
                _ if ch == open => p.open.push(true),
                _ if ch == start => {
                    p.open.push(true);
                    p.start = at;
                    seen_start = true;
                }
                _ if ch == goal => {
                    p.open.push(true);
                    p.goal = at;
                    seen_goal = true;
                }
                _ => {
                    return Err(ParseError(format!(
                        "row {r}, column {c}: glyph {ch:?} is not in the legend"
                    )));
                }
            }
        }
        let width = (p.open.len() - before) as u32;
        if r == 0 {
            p.cols = width;
        } else if width != p.cols {
            return Err(ParseError(format!(
                "row {r} has {width} cells, row 0 has {}",
                p.cols
            )));
        }
        p.rows += 1;
    }
    if !(seen_start && seen_goal) {
        return Err(ParseError("the grid has no start or no goal".into()));
    }
    Ok(p)
}
