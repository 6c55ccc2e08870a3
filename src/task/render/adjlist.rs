//! The `adjlist` rendering: maze-dataset's `ADJLIST` token form (its `MazeTokenizer` with
//! `TokenizationMode.AOTP_UT_uniform`: `(r,c)` coordinate tokens, edges `A <--> B ;`, the origin
//! and target between their tags) over the OPEN CELLS of our grid, not maze-dataset's lattice of
//! rooms, since our answers count grid steps. Each open cell is a node; an edge joins two open
//! cells side by side, each pair once, in row-major order of its first cell (the right
//! neighbour before the one below); an open cell with no open neighbour is listed as a
//! self-loop `(r,c) <--> (r,c) ;`, so every open cell appears. maze-dataset has no size token,
//! so the grid's size is a sentence on the line before (blocked border rows have no nodes):
//!
//! ```text
//! The grid has 2 rows and 4 columns, numbered from 0: row 0 is the top row and column 0 the leftmost column. Each open cell is a node (row,col); ...
//! <ADJLIST_START> (0,0) <--> (0,1) ; (0,3) <--> (0,3) ; (1,1) <--> (1,2) ; <ADJLIST_END> <ORIGIN_START> (0,0) <ORIGIN_END> <TARGET_START> (1,2) <TARGET_END>
//! ```
//!
//! (for the grid `..#.` over `#..#`, with a path `(0,0)` .. `(1,2)` not drawn in). The parser
//! requires the listed edges to be exactly the open cells' grid graph.

use std::iter::Enumerate;
use std::str::SplitAsciiWhitespace;

use crate::task::grid::GridPuzzle;
use crate::task::render::text::ParseError;
use crate::task::render::text::{
    Cursor, SIZE_START, cell_token, expect_block_end, find_line, push_cell, read_size, snippet,
    write_size,
};

/// The end of the size line: the notation.
const NOTATION: &str = " Each open cell is a node (row,col); each edge A <--> B ; joins two \
                        open cells side by side, each pair once; an open cell with no open \
                        neighbour is listed as an edge to itself.";
const ADJLIST_START: &str = "<ADJLIST_START>";
const ADJLIST_END: &str = "<ADJLIST_END>";
const CONNECTOR: &str = "<-->";
const ENDLINE: &str = ";";
const ORIGIN_START: &str = "<ORIGIN_START>";
const ORIGIN_END: &str = "<ORIGIN_END>";
const TARGET_START: &str = "<TARGET_START>";
const TARGET_END: &str = "<TARGET_END>";

/// Cell flags while parsing: open, joined to the right neighbour, joined to the one below,
/// listed as a self-loop.
const OPEN: u8 = 1;
const RIGHT: u8 = 2;
const DOWN: u8 = 4;
const LOOP: u8 = 8;

/// Writes the size line and the token line.
///
/// # Runtime
/// O(cells); appends to `out` only.
pub fn render(p: &GridPuzzle, out: &mut String) {
    write_size(p.rows, p.cols, out);
    out.push_str(NOTATION);
    out.push('\n');
    out.push_str(ADJLIST_START);
    let (rows, cols) = (i64::from(p.rows), i64::from(p.cols));
    for r in 0..rows {
        for c in 0..cols {
            if !p.is_open(r, c) {
                continue;
            }
            let right = p.is_open(r, c + 1);
            let down = p.is_open(r + 1, c);
            let at = (r as u32, c as u32);
            if right {
                push_edge(out, at, (at.0, at.1 + 1));
            }
            if down {
                push_edge(out, at, (at.0 + 1, at.1));
            }
            if !(right || down || p.is_open(r, c - 1) || p.is_open(r - 1, c)) {
                push_edge(out, at, at);
            }
        }
    }
    out.push(' ');
    out.push_str(ADJLIST_END);
    push_tagged(out, ORIGIN_START, p.start, ORIGIN_END);
    push_tagged(out, TARGET_START, p.goal, TARGET_END);
    out.push('\n');
}

/// Appends ` open (r,c) close`.
fn push_tagged(out: &mut String, open: &str, at: (u32, u32), close: &str) {
    out.push(' ');
    out.push_str(open);
    out.push(' ');
    push_cell(out, at, ",");
    out.push(' ');
    out.push_str(close);
}

/// Appends ` (r,c) <--> (r,c) ;`.
fn push_edge(out: &mut String, a: (u32, u32), b: (u32, u32)) {
    out.push(' ');
    push_cell(out, a, ",");
    out.push(' ');
    out.push_str(CONNECTOR);
    out.push(' ');
    push_cell(out, b, ",");
    out.push(' ');
    out.push_str(ENDLINE);
}

/// Reads the size line and the token line from a whole question.
pub fn parse(question: &str) -> Result<GridPuzzle, ParseError> {
    let (at, size_line) = find_line(question, SIZE_START, "the adjlist rendering's size line")?;
    let mut cur = Cursor::new(size_line, at);
    let (rows, cols) = read_size(&mut cur)?;
    cur.expect(NOTATION)?;
    cur.end()?;
    let line = question
        .lines()
        .nth(at)
        .ok_or_else(|| ParseError(format!("line {}: the question ends early", at + 1)))?;
    let mut toks = Tokens {
        iter: line.split_ascii_whitespace().enumerate(),
        line: at + 1,
        rows,
        cols,
    };
    let mut flags = vec![0u8; rows as usize * cols as usize];
    toks.expect(ADJLIST_START)?;
    loop {
        let (t, tok) = toks.next(ADJLIST_END)?;
        if tok == ADJLIST_END {
            break;
        }
        let a = toks.cell_at(t, tok)?;
        toks.expect(CONNECTOR)?;
        let (tb, tok) = toks.next("a cell")?;
        let b = toks.cell_at(tb, tok)?;
        toks.expect(ENDLINE)?;
        add_edge(&mut flags, cols, a, b)
            .map_err(|e| ParseError(format!("line {}, token {}: {e}", at + 1, t + 1)))?;
    }
    let start = toks.tagged(ORIGIN_START, ORIGIN_END)?;
    let goal = toks.tagged(TARGET_START, TARGET_END)?;
    if let Some((t, tok)) = toks.iter.next() {
        return Err(toks.error(t, &format!("expected the end of the line, found {tok:?}")));
    }
    check_graph(&flags, rows, cols).map_err(|e| ParseError(format!("line {}: {e}", at + 1)))?;
    let p = GridPuzzle {
        rows,
        cols,
        open: flags.iter().map(|&f| f & OPEN != 0).collect(),
        start,
        goal,
    };
    for (what, (r, c)) in [("origin", start), ("target", goal)] {
        if !p.open[p.index((r, c))] {
            return Err(ParseError(format!(
                "line {}: the {what} ({r},{c}) is in no edge: not an open cell",
                at + 1
            )));
        }
    }
    expect_block_end(question, at + 1)?;
    Ok(p)
}

/// Records the edge `a <--> b` in the cell flags.
fn add_edge(flags: &mut [u8], cols: u32, a: (u32, u32), b: (u32, u32)) -> Result<(), String> {
    let index = |(r, c): (u32, u32)| r as usize * cols as usize + c as usize;
    let (lo, hi) = if index(a) <= index(b) { (a, b) } else { (b, a) };
    let flag = if lo == hi {
        LOOP
    } else if lo.0 == hi.0 && lo.1 + 1 == hi.1 {
        RIGHT
    } else if lo.1 == hi.1 && lo.0 + 1 == hi.0 {
        DOWN
    } else {
        return Err(format!(
            "({},{}) and ({},{}) are not side by side",
            a.0, a.1, b.0, b.1
        ));
    };
    let f = &mut flags[index(lo)];
    if *f & flag != 0 {
        return Err(format!(
            "the edge ({},{}) <--> ({},{}) is listed twice",
            a.0, a.1, b.0, b.1
        ));
    }
    *f |= flag | OPEN;
    flags[index(hi)] |= OPEN;
    Ok(())
}

/// Checks that the edges are exactly the open cells' grid graph: every two open cells side by
/// side are joined, and a self-loop only marks a cell with no open neighbour.
fn check_graph(flags: &[u8], rows: u32, cols: u32) -> Result<(), String> {
    let (rows, cols) = (rows as usize, cols as usize);
    let open = |r: usize, c: usize| flags[r * cols + c] & OPEN != 0;
    for r in 0..rows {
        for c in 0..cols {
            let f = flags[r * cols + c];
            if f & OPEN == 0 {
                continue;
            }
            let right = c + 1 < cols && open(r, c + 1);
            let down = r + 1 < rows && open(r + 1, c);
            if right && f & RIGHT == 0 {
                return Err(format!(
                    "the open cells ({r},{c}) and ({r},{}) are side by side but no edge joins them",
                    c + 1
                ));
            }
            if down && f & DOWN == 0 {
                return Err(format!(
                    "the open cells ({r},{c}) and ({},{c}) are side by side but no edge joins them",
                    r + 1
                ));
            }
            let beside = right || down || (c > 0 && open(r, c - 1)) || (r > 0 && open(r - 1, c));
            if f & LOOP != 0 && beside {
                return Err(format!(
                    "({r},{c}) has an open neighbour, so it is listed as an edge to itself wrongly"
                ));
            }
        }
    }
    Ok(())
}

/// The token line, read token by token.
struct Tokens<'a> {
    iter: Enumerate<SplitAsciiWhitespace<'a>>,
    line: usize,
    rows: u32,
    cols: u32,
}

impl<'a> Tokens<'a> {
    fn error(&self, t: usize, message: &str) -> ParseError {
        ParseError(format!("line {}, token {}: {message}", self.line, t + 1))
    }

    /// The next token; `expected` names what was wanted when the line has ended.
    fn next(&mut self, expected: &str) -> Result<(usize, &'a str), ParseError> {
        self.iter.next().ok_or_else(|| {
            ParseError(format!(
                "line {}: the line ends where {expected} was expected",
                self.line
            ))
        })
    }

    fn expect(&mut self, lit: &str) -> Result<(), ParseError> {
        let (t, tok) = self.next(lit)?;
        if tok == lit {
            return Ok(());
        }
        Err(self.error(t, &format!("expected {lit}, found {:?}", snippet(tok))))
    }

    /// Reads token `t`, `tok`, as a cell `(r,c)` of the grid.
    fn cell_at(&self, t: usize, tok: &str) -> Result<(u32, u32), ParseError> {
        let (r, c) = cell_token(tok, ",").ok_or_else(|| {
            self.error(
                t,
                &format!("expected a cell (row,col), found {:?}", snippet(tok)),
            )
        })?;
        if r >= self.rows || c >= self.cols {
            return Err(self.error(
                t,
                &format!(
                    "cell ({r},{c}) is outside the {} x {} grid",
                    self.rows, self.cols
                ),
            ));
        }
        Ok((r, c))
    }

    /// Reads `open (r,c) close`.
    fn tagged(&mut self, open: &str, close: &str) -> Result<(u32, u32), ParseError> {
        self.expect(open)?;
        let (t, tok) = self.next("a cell")?;
        let at = self.cell_at(t, tok)?;
        self.expect(close)?;
        Ok(at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::task::render::tests::puzzle;

    #[test]
    fn the_text_is_what_the_module_doc_shows() {
        let p = puzzle(&["S.#.", "#.G#"]);
        let mut out = String::new();
        render(&p, &mut out);
        let tokens = out.lines().nth(1).unwrap();
        assert_eq!(
            tokens,
            "<ADJLIST_START> (0,0) <--> (0,1) ; (0,1) <--> (1,1) ; (0,3) <--> (0,3) ; (1,1) <--> \
             (1,2) ; <ADJLIST_END> <ORIGIN_START> (0,0) <ORIGIN_END> <TARGET_START> (1,2) \
             <TARGET_END>"
        );
        assert_eq!(parse(&out), Ok(p));
    }

    #[test]
    fn graphs_that_are_not_the_open_cells_grid_graph_are_refused() {
        let p = puzzle(&["S.#.", "#.G#"]);
        let mut out = String::new();
        render(&p, &mut out);
        let err = |from: &str, to: &str| parse(&out.replace(from, to)).unwrap_err().0;
        assert_eq!(
            err("(0,1) <--> (1,1) ; ", ""),
            "line 2: the open cells (0,1) and (1,1) are side by side but no edge joins them"
        );
        assert_eq!(
            err("(0,1) <--> (1,1)", "(0,1) <--> (1,2)"),
            "line 2, token 6: (0,1) and (1,2) are not side by side"
        );
        assert_eq!(
            err(
                "(1,1) <--> (1,2) ;",
                "(1,1) <--> (1,2) ; (1,2) <--> (1,1) ;"
            ),
            "line 2, token 18: the edge (1,2) <--> (1,1) is listed twice"
        );
        assert!(err("(0,3) <--> (0,3)", "(0,0) <--> (0,0)").contains("edge to itself wrongly"));
        assert_eq!(
            err("<TARGET_START> (1,2)", "<TARGET_START> (0,2)"),
            "line 2: the target (0,2) is in no edge: not an open cell"
        );
        assert_eq!(
            err("(0,3) <--> (0,3)", "(0,3) <--> (0,4)"),
            "line 2, token 12: cell (0,4) is outside the 2 x 4 grid"
        );
        assert_eq!(
            err("<TARGET_END>", "<TARGET_END> ;"),
            "line 2, token 25: expected the end of the line, found \";\""
        );
        assert_eq!(
            err(" <ADJLIST_END>", ""),
            "line 2, token 18: expected a cell (row,col), found \"<ORIGIN_START>\""
        );
    }
}
