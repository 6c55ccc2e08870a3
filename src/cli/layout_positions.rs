//! Positions files of `warren layout`: written by `--out` ([`positions_tsv`]), read by
//! `--positions`, `--start` and `--pin` ([`read_positions`]), one row per vertex named by its
//! id in the graph file.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context, Result};

use crate::layout::formats::{VertexIds, parse_positions};

/// Reads positions as `--out` writes them (the format of
/// [`crate::layout::formats::parse_positions`]), in the graph's vertex order. With `every`, a
/// vertex without a row is an error; without, its position is NaN (the rows of `--pin`).
pub(super) fn read_positions(
    path: &Path,
    ids: &VertexIds,
    every: bool,
) -> Result<(Vec<f32>, Vec<f32>)> {
    let bytes = std::fs::read(path)
        .with_context(|| format!("{}: cannot read positions", path.display()))?;
    Ok(parse_positions(&bytes, path, ids, every)?)
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
