//! Positions files, as `warren layout --out` writes them and `--positions`, `--start` and
//! `--pin` read them: a header `id\tx\ty`, then `id x y` per row (separated by tabs, or by
//! spaces in a line without tabs; further columns ignored), one row per vertex named by its id
//! in the graph file.

use std::path::{Path, PathBuf};

use thiserror::Error;

use super::names::VertexIds;
use crate::core::text::Pos;

/// A positions file could not be used. Every variant prints as one line that starts with the
/// file.
#[derive(Debug, Error)]
pub enum PositionsError {
    /// Something else than a row allows at a place of the file.
    #[error("{path}:{line}:{column}: expected {expected}")]
    Syntax {
        /// The file.
        path: PathBuf,
        /// Line, 1-based.
        line: usize,
        /// Column in characters, 1-based.
        column: usize,
        /// What belongs there.
        expected: &'static str,
    },
    /// A vertex of the graph has no row (where every vertex needs one).
    #[error("{path}: no position for vertex {vertex} ({missing} of {total} vertices missing)")]
    Missing {
        /// The file.
        path: PathBuf,
        /// The first vertex without a row, by its id in the graph file.
        vertex: String,
        /// Vertices without a row.
        missing: usize,
        /// Vertices of the graph.
        total: usize,
    },
}

/// Parses positions file `bytes` (named `path` in errors) for the graph whose vertices are
/// `ids`. Returns the positions in the graph's vertex order. With `every`, a vertex without a
/// row is an error; without, its position is NaN (the rows of `--pin`). A later row of the
/// same vertex replaces an earlier one.
///
/// # Errors
/// [`PositionsError::Syntax`] at the first byte that is not UTF-8, a row of fewer than three
/// fields, an id that is no vertex of the graph, or a coordinate that is not a finite number;
/// [`PositionsError::Missing`] when `every` and a vertex has no row.
///
/// # Runtime
/// O(bytes + vertices), plus a hash map of the vertex ids.
pub fn parse_positions(
    bytes: &[u8],
    path: &Path,
    ids: &VertexIds,
    every: bool,
) -> Result<(Vec<f32>, Vec<f32>), PositionsError> {
    let syntax = |line: usize, column: usize, expected| PositionsError::Syntax {
        path: path.to_path_buf(),
        line,
        column,
        expected,
    };
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let valid = std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or_default();
        let Pos { line, col } = Pos::of(valid, valid.len());
        syntax(line as usize, col as usize, "UTF-8 text")
    })?;
    let index: std::collections::HashMap<String, usize> = ids
        .iter()
        .enumerate()
        .map(|(i, id)| (id.tsv_field().to_string(), i))
        .collect();
    let (mut x, mut y) = (vec![f32::NAN; ids.len()], vec![f32::NAN; ids.len()]);
    let mut seen = 0usize;
    for (line_no, line) in text.lines().enumerate() {
        let at = |col: usize, what| syntax(line_no + 1, col, what);
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty()
            || line.starts_with('#')
            || (line_no == 0 && line.starts_with("id"))
        {
            continue;
        }
        let mut fields = Vec::with_capacity(3);
        let mut col = 1;
        let tabs = line.contains('\t');
        for token in line.split(|c: char| c == '\t' || (!tabs && c == ' ')) {
            if !token.is_empty() {
                fields.push((col, token));
            }
            col += token.chars().count() + 1;
        }
        if fields.len() < 3 {
            return Err(at(
                col.saturating_sub(1).max(1),
                "three fields: id, x and y",
            ));
        }
        let &v = index
            .get(fields[0].1)
            .ok_or_else(|| at(fields[0].0, "the id of a vertex of the graph"))?;
        let coordinate = |k: usize| {
            fields[k]
                .1
                .parse::<f32>()
                .ok()
                .filter(|c| c.is_finite())
                .ok_or_else(|| at(fields[k].0, "a finite number"))
        };
        if x[v].is_nan() {
            seen += 1;
        }
        x[v] = coordinate(1)?;
        y[v] = coordinate(2)?;
    }
    if every && seen < ids.len() {
        let missing = x
            .iter()
            .position(|c| c.is_nan())
            .expect("a vertex without a row");
        return Err(PositionsError::Missing {
            path: path.to_path_buf(),
            vertex: ids.id(missing).to_string(),
            missing: ids.len() - seen,
            total: ids.len(),
        });
    }
    Ok((x, y))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &[u8], every: bool) -> Result<(Vec<f32>, Vec<f32>), String> {
        let ids = VertexIds::Numbers(vec![10, 20, 30]);
        parse_positions(text, Path::new("p.tsv"), &ids, every).map_err(|e| e.to_string())
    }

    #[test]
    fn rows_come_back_in_vertex_order() {
        let (x, y) = parse(
            b"id\tx\ty\n30\t3\t-3\n10 1 -1\n# note\n\n20\t2\t-2\t9\r\n",
            true,
        )
        .unwrap();
        assert_eq!((x, y), (vec![1.0, 2.0, 3.0], vec![-1.0, -2.0, -3.0]));
        let (x, _) = parse(b"20 2 2\n", false).unwrap();
        assert!(x[0].is_nan() && x[1] == 2.0 && x[2].is_nan());
    }

    #[test]
    fn bad_rows_are_errors_at_their_place() {
        for (text, wanted) in [
            (
                &b"10\t1\n"[..],
                "p.tsv:1:5: expected three fields: id, x and y",
            ),
            (
                b"10 1 1\n40 1 1\n",
                "p.tsv:2:1: expected the id of a vertex of the graph",
            ),
            (b"10 1 inf\n", "p.tsv:1:6: expected a finite number"),
            (b"10 1 1\n20 \xff 1\n", "p.tsv:2:4: expected UTF-8 text"),
            (
                b"10 1 1\n",
                "p.tsv: no position for vertex 20 (2 of 3 vertices missing)",
            ),
        ] {
            assert_eq!(parse(text, true).unwrap_err(), wanted);
        }
    }
}
