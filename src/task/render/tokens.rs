//! The `tokens` rendering: one token per cell, separated by spaces so that a BPE tokenizer
//! reads each cell as one token (ascii's runs of `#` merge into multi-cell tokens), each grid
//! row one line ended by `<EOL>`, after a legend line:
//!
//! ```text
//! Each cell is one token: # = wall, . = open cell, S = start, G = goal. Each grid row is one line ending with <EOL>; row 0 is the top row.
//! # . . # <EOL>
//! S . . . <EOL>
//! . # . G <EOL>
//! ```
//!
//! The tokens are fixed (ascii's glyphs are drawn per item, these are not).

use crate::task::grid::GridPuzzle;
use crate::task::render::text::ParseError;
use crate::task::render::text::{find_line, snippet};

/// The legend line.
const LEGEND: &str = "Each cell is one token: # = wall, . = open cell, S = start, G = goal. Each \
                      grid row is one line ending with <EOL>; row 0 is the top row.";
/// The end-of-row token.
const EOL: &str = "<EOL>";

/// Writes the legend and the rows.
///
/// # Runtime
/// O(cells); appends `2 * cells + 6 * rows` bytes and the legend to `out`.
pub fn render(p: &GridPuzzle, out: &mut String) {
    out.push_str(LEGEND);
    out.push('\n');
    out.reserve((2 * p.cols as usize + EOL.len() + 1) * p.rows as usize);
    for r in 0..p.rows {
        for c in 0..p.cols {
            out.push(if (r, c) == p.start {
                'S'
            } else if (r, c) == p.goal {
                'G'
            } else if p.open[p.index((r, c))] {
                '.'
            } else {
                '#'
            });
            out.push(' ');
        }
        out.push_str(EOL);
        out.push('\n');
    }
}

/// Reads the legend and the rows after it (up to a blank line or the end) from a whole
/// question.
pub fn parse(question: &str) -> Result<GridPuzzle, ParseError> {
    let (at, legend) = find_line(question, "Each cell is one token", "the tokens legend")?;
    if legend != LEGEND {
        return Err(ParseError(format!(
            "line {at}: the legend is not the tokens rendering's"
        )));
    }
    let mut p = GridPuzzle::default();
    let mut ends = [None, None];
    let rows = question.lines().skip(at).take_while(|l| !l.is_empty());
    for (r, line) in rows.enumerate() {
        let n = at + 1 + r;
        let width = read_row(line, n, r as u32, &mut p.open, &mut ends)?;
        if width == 0 || (r > 0 && width != p.cols) {
            return Err(ParseError(format!(
                "line {n}: the row has {width} cells, row 0 has {}",
                if r == 0 { width } else { p.cols }
            )));
        }
        p.cols = width;
        p.rows += 1;
    }
    if p.rows == 0 {
        return Err(ParseError(format!(
            "line {}: expected the grid's rows after the legend",
            at + 1
        )));
    }
    let [Some(start), Some(goal)] = ends else {
        return Err(ParseError("the grid has no S or no G".into()));
    };
    p.start = start;
    p.goal = goal;
    Ok(p)
}

/// Reads row `r` (line `n` of the question) into `open`; `ends` holds the start and goal found
/// so far. Returns the row's width.
fn read_row(
    line: &str,
    n: usize,
    r: u32,
    open: &mut Vec<bool>,
    ends: &mut [Option<(u32, u32)>; 2],
) -> Result<u32, ParseError> {
    let mut width = 0u32;
    let mut ended = false;
    for (t, token) in line.split_ascii_whitespace().enumerate() {
        let err = |what: String| ParseError(format!("line {n}, token {}: {what}", t + 1));
        if ended {
            return Err(err(format!(
                "expected the end of the line after {EOL}, found {:?}",
                snippet(token)
            )));
        }
        let cell = match token {
            EOL => {
                ended = true;
                continue;
            }
            "#" => false,
            "." => true,
            "S" | "G" => {
                let slot = &mut ends[usize::from(token == "G")];
                if slot.is_some() {
                    return Err(err(format!("a second {token} (the grid has one)")));
                }
                *slot = Some((r, width));
                true
            }
            _ => {
                return Err(err(format!(
                    "expected one of # . S G {EOL}, found {:?}",
                    snippet(token)
                )));
            }
        };
        open.push(cell);
        width += 1;
    }
    if !ended {
        return Err(ParseError(format!(
            "line {n}: the row does not end with {EOL}"
        )));
    }
    Ok(width)
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
            format!("{LEGEND}\n# . . # <EOL>\nS . . . <EOL>\n. # . G <EOL>\n")
        );
        assert_eq!(parse(&out), Ok(p));
    }

    #[test]
    fn wrong_rows_are_named() {
        let p = puzzle(&["#..#", "S...", ".#.G"]);
        let mut out = String::new();
        render(&p, &mut out);
        let q = format!("Find the way.\n\n{out}\nAnswer.");
        assert_eq!(parse(&q), Ok(p));
        let short = q.replace("S . . . <EOL>", "S . . <EOL>");
        assert_eq!(
            parse(&short).unwrap_err().0,
            "line 5: the row has 3 cells, row 0 has 4"
        );
        let unended = q.replace("S . . . <EOL>", "S . . .");
        assert_eq!(
            parse(&unended).unwrap_err().0,
            "line 5: the row does not end with <EOL>"
        );
        let two = q.replace(". # . G", ". S . G");
        assert_eq!(
            parse(&two).unwrap_err().0,
            "line 6, token 2: a second S (the grid has one)"
        );
        let odd = q.replace(". # . G", ". x . G");
        assert!(
            parse(&odd)
                .unwrap_err()
                .0
                .starts_with("line 6, token 2: expected one of")
        );
        let after = q.replace(". # . G <EOL>", ". # . G <EOL> #");
        assert!(
            parse(&after)
                .unwrap_err()
                .0
                .starts_with("line 6, token 6: expected the end")
        );
        let no_goal = q.replace(". # . G", ". # . .");
        assert_eq!(parse(&no_goal).unwrap_err().0, "the grid has no S or no G");
    }
}
