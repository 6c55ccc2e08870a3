//! Positions files of `warren layout`: written by `--out` ([`positions_tsv`]), read by
//! `--positions`, `--start` and `--pin` ([`read_positions`]), one row per vertex named by its
//! id in the graph file.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context, Result, bail};

use crate::layout::formats::VertexIds;

/// Reads positions as `--out` writes them: a header `id\tx\ty`, then `id x y` per row
/// (separated by tabs, or by spaces in a line without tabs; further columns ignored), one row
/// for every vertex of the graph, ids written as `--out` writes them. Returns them in the
/// graph's vertex order. With `every`, a vertex without a row is an error; without, its
/// position is NaN (the rows of `--pin`).
pub(super) fn read_positions(
    path: &Path,
    ids: &VertexIds,
    every: bool,
) -> Result<(Vec<f32>, Vec<f32>)> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("{}: cannot read positions", path.display()))?;
    let index: std::collections::HashMap<String, usize> = ids
        .iter()
        .enumerate()
        .map(|(i, id)| (id.tsv_field().to_string(), i))
        .collect();
    let (mut x, mut y) = (vec![f32::NAN; ids.len()], vec![f32::NAN; ids.len()]);
    let mut seen = 0usize;
    for (line_no, line) in text.lines().enumerate() {
        let at = |col: usize, what: &str| {
            anyhow::anyhow!("{}:{}:{col}: expected {what}", path.display(), line_no + 1)
        };
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
        let coordinate = |k: usize| -> Result<f32> {
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
        bail!(
            "{}: no position for vertex {} ({} of {} vertices missing)",
            path.display(),
            ids.id(missing),
            ids.len() - seen,
            ids.len()
        );
    }
    Ok((x, y))
}

/// Positions as TSV: the header `id\tx\ty`, then one row per vertex with its file id (a
/// number, or a string id escaped by [`crate::layout::formats::TsvField`]).
///
/// `f32`'s `Display` prints the shortest text that reads back as the same number, so the file
/// round-trips exactly and is the same bytes for the same positions.
pub(super) fn positions_tsv(ids: &VertexIds, x: &[f32], y: &[f32]) -> String {
    // PERF: one preallocated buffer; about 24 bytes per row.
    let mut tsv = String::with_capacity(8 + ids.len() * 24);
    tsv.push_str("id\tx\ty\n");
    for ((id, px), py) in ids.iter().zip(x).zip(y) {
        // Writing into a `String` cannot fail.
        let _ = writeln!(tsv, "{}\t{px}\t{py}", id.tsv_field());
    }
    tsv
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_tsv_names_the_file_ids() {
        let tsv = positions_tsv(&VertexIds::Numbers(vec![70, 3]), &[0.5, -1.0], &[2.0, 0.25]);
        assert_eq!(tsv, "id\tx\ty\n70\t0.5\t2\n3\t-1\t0.25\n");
        let names = VertexIds::Names(["n\t0", "b"].into_iter().collect());
        let tsv = positions_tsv(&names, &[0.5, -1.0], &[2.0, 0.25]);
        assert_eq!(tsv, "id\tx\ty\nn\\t0\t0.5\t2\nb\t-1\t0.25\n");
    }
}
