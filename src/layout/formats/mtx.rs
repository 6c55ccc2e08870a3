//! Matrix Market coordinate files (`.mtx`), the format SuiteSparse publishes its graphs in, read
//! as undirected graphs.
//!
//! The first line is the banner `%%MatrixMarket matrix coordinate FIELD SYMMETRY` (keywords in
//! any case): FIELD is `pattern`, `integer`, `real` or `complex`, SYMMETRY `general`,
//! `symmetric`, `skew-symmetric` or `hermitian`. Then come `%` comment lines and blank lines,
//! the size line `ROWS COLUMNS ENTRIES`, and ENTRIES lines `I J [VALUE...]` with 1-based indices
//! (one value for `integer` and `real`, two for `complex`, none for `pattern`; values are checked
//! and ignored, and so are tokens after them). When weights are read, an `integer` or `real`
//! entry's value is its edge's weight and must be positive and finite; a `pattern` or `complex`
//! matrix has no weights to read, an error at the banner's field.
//!
//! The graph has `max(ROWS, COLUMNS)` vertices: vertex `k` has id `k`, and vertices no entry
//! names still count (isolated). Vertices are numbered in order of first appearance in the
//! entries (row before column), like the other readers, then the ones no entry names, in
//! increasing id. Entry `(I, J)` is an edge `I`-`J`; a diagonal entry is a self-loop (dropped and
//! counted). A `general` matrix stores both `(I, J)` and `(J, I)` of a symmetric pattern, so its
//! entries give one edge per unordered pair (repeats are dropped, and the first entry's weight
//! is kept); the symmetric kinds store one triangle, so each of their entries is an edge and
//! repeats are kept, as in an edge list. Only a kept edge's value is read as a weight.
//!
//! The size line is checked before anything is allocated for it: at most
//! [`MAX_VERTICES`] rows and columns, at most [`MAX_EDGES`] entries, and no more entries
//! than the matrix has places.

use std::path::Path;

use super::builder::{PairSet, pair_key};
use super::error::{GraphReadError, quoted};
use super::limits::MAX_VERTICES;
use super::names::VertexIds;
use crate::core::text::Pos;
use crate::layout::edgelist::{
    EdgeList, MAX_EDGES, WEIGHT_EXPECTED, column_of, next_token, parse_id, parse_weight,
};

/// The entries' values (the banner's field).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Field {
    Pattern,
    Integer,
    Real,
    Complex,
}

/// The banner's symmetry, as far as it changes how entries are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Symmetry {
    /// `general`: both triangles are stored.
    General,
    /// `symmetric`, `skew-symmetric` or `hermitian`: one triangle is stored.
    Symmetric,
}

/// What the banner and the size line say.
#[derive(Clone, Copy, Debug)]
struct Header {
    field: Field,
    symmetry: Symmetry,
    rows: u64,
    columns: u64,
    entries: u64,
}

/// The file's lines with their 1-based numbers (split at `\n`, as the edge-list reader does),
/// remembering the last one for the end-of-file place.
struct Lines<'a> {
    rest: Option<&'a [u8]>,
    last: (usize, &'a [u8]),
}

impl<'a> Lines<'a> {
    fn new(text: &'a [u8]) -> Self {
        Self {
            rest: Some(text),
            last: (0, b""),
        }
    }

    /// The place just after the last byte.
    fn end(&self) -> Pos {
        let (line, raw) = self.last;
        place(line.max(1), raw, raw.len())
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = (usize, &'a [u8]);

    fn next(&mut self) -> Option<Self::Item> {
        let rest = self.rest?;
        let (line, tail) = match rest.iter().position(|&b| b == b'\n') {
            Some(i) => (&rest[..i], Some(&rest[i + 1..])),
            None => (rest, None),
        };
        self.rest = tail;
        self.last = (self.last.0 + 1, line);
        Some(self.last)
    }
}

/// The place of byte `offset` of line `line`, whose bytes are `raw`.
fn place(line: usize, raw: &[u8], offset: usize) -> Pos {
    Pos {
        line: line as u32,
        col: column_of(raw, offset) as u32,
    }
}

/// Reads the Matrix Market text `text`; `path` only names the input in errors.
///
/// # Runtime
/// O(bytes + vertices) expected; allocates the edge arrays (sized by the entries the file holds,
/// at most the announced count), an index of `max(ROWS, COLUMNS)` entries and, for `general`
/// matrices, a set of the pairs seen.
#[cfg(test)]
pub(crate) fn parse(text: &[u8], path: &Path) -> Result<EdgeList, GraphReadError> {
    parse_with(text, path, false)
}

/// [`parse`], reading each kept entry's value as its edge's weight when `weights` is set.
///
/// # Runtime
/// As [`parse`], plus one `f32` per edge with `weights`.
pub(crate) fn parse_with(
    text: &[u8],
    path: &Path,
    weights: bool,
) -> Result<EdgeList, GraphReadError> {
    parse_limited(text, path, (MAX_VERTICES, MAX_EDGES), weights)
}

/// [`parse`] with other limits on rows and columns and on entries (tests).
#[cfg(test)]
pub(crate) fn parse_with_limits(
    text: &[u8],
    path: &Path,
    max_vertices: usize,
    max_entries: usize,
) -> Result<EdgeList, GraphReadError> {
    parse_limited(text, path, (max_vertices, max_entries), false)
}

/// [`parse_with`] with limits `(rows and columns, entries)`.
fn parse_limited(
    text: &[u8],
    path: &Path,
    (max_vertices, max_entries): (usize, usize),
    weights: bool,
) -> Result<EdgeList, GraphReadError> {
    let text = text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(text);
    let mut lines = Lines::new(text);
    let (field, symmetry, field_at) = read_banner(&mut lines, path)?;
    if weights && !matches!(field, Field::Integer | Field::Real) {
        let (line, raw) = lines.last;
        let token = next_token(raw, &mut field_at.clone()).map_or(&b""[..], |(_, t)| t);
        let found = quoted(&String::from_utf8_lossy(token));
        let expected = "a field with a value per entry for weights: `integer` or `real`";
        return Err(GraphReadError::syntax(
            path,
            place(line, raw, field_at),
            expected,
            found,
        ));
    }
    let header = read_size(
        &mut lines,
        path,
        (field, symmetry),
        max_vertices,
        max_entries,
    )?;
    // PERF: one pass counts the lines, so the edge arrays never reallocate and never exceed
    // what the file can hold, whatever it announces.
    let most = text.iter().filter(|&&b| b == b'\n').count() + 1;
    read_entries(&mut lines, path, &header, most, weights)
}

/// The next token of `raw` as one of `words` (any case), or an error saying `expected`; the
/// word's index and its offset.
fn keyword(
    raw: &[u8],
    pos: &mut usize,
    (line, path): (usize, &Path),
    expected: &str,
    words: &[&str],
) -> Result<(usize, usize), GraphReadError> {
    let Some((at, token)) = next_token(raw, pos) else {
        let end = place(line, raw, raw.len());
        return Err(GraphReadError::syntax(path, end, expected, "end of line"));
    };
    words
        .iter()
        .position(|w| w.as_bytes().eq_ignore_ascii_case(token))
        .map(|word| (word, at))
        .ok_or_else(|| {
            let found = quoted(&String::from_utf8_lossy(token));
            GraphReadError::syntax(path, place(line, raw, at), expected, found)
        })
}

/// Reads the banner line: the field, the symmetry and the field's offset in the line.
fn read_banner(
    lines: &mut Lines<'_>,
    path: &Path,
) -> Result<(Field, Symmetry, usize), GraphReadError> {
    let (line, raw) = lines.next().unwrap_or((1, b""));
    let at = (line, path);
    let mut pos = 0;
    keyword(
        raw,
        &mut pos,
        at,
        "the banner `%%MatrixMarket`",
        &["%%MatrixMarket"],
    )?;
    keyword(raw, &mut pos, at, "`matrix`", &["matrix"])?;
    let sparse = "`coordinate` (a sparse matrix; dense `array` files are not read)";
    keyword(raw, &mut pos, at, sparse, &["coordinate"])?;
    let fields = "a field: `pattern`, `integer`, `real` or `complex`";
    let words = ["pattern", "integer", "real", "complex"];
    let (field, field_at) = keyword(raw, &mut pos, at, fields, &words)?;
    let field = [Field::Pattern, Field::Integer, Field::Real, Field::Complex][field];
    let symmetries = "a symmetry: `general`, `symmetric`, `skew-symmetric` or `hermitian`";
    let words = ["general", "symmetric", "skew-symmetric", "hermitian"];
    let symmetry = match keyword(raw, &mut pos, at, symmetries, &words)?.0 {
        0 => Symmetry::General,
        _ => Symmetry::Symmetric,
    };
    Ok((field, symmetry, field_at))
}

/// Reads the size line (after comments and blank lines) and checks it against the limits.
fn read_size(
    lines: &mut Lines<'_>,
    path: &Path,
    (field, symmetry): (Field, Symmetry),
    max_vertices: usize,
    max_entries: usize,
) -> Result<Header, GraphReadError> {
    let (line, raw) = loop {
        let Some((line, raw)) = lines.next() else {
            let expected = "the size line `ROWS COLUMNS ENTRIES`";
            return Err(GraphReadError::syntax(
                path,
                lines.end(),
                expected,
                "end of file",
            ));
        };
        match next_token(raw, &mut 0) {
            Some((_, token)) if !token.starts_with(b"%") => break (line, raw),
            _ => continue,
        }
    };
    let mut pos = 0;
    // A count and its offset, or an error naming `what`.
    let mut count = |what: &str, limit: u64| -> Result<(u64, usize), GraphReadError> {
        let Some((at, token)) = next_token(raw, &mut pos) else {
            let end = place(line, raw, raw.len());
            return Err(GraphReadError::syntax(path, end, what, "end of line"));
        };
        let err = |expected: String| {
            let found = quoted(&String::from_utf8_lossy(token));
            GraphReadError::syntax(path, place(line, raw, at), expected, found)
        };
        let value = parse_id(token).map_err(|_| err(format!("{what} (a non-negative integer)")))?;
        if value > limit {
            return Err(err(format!("{what} of at most {limit}")));
        }
        Ok((value, at))
    };
    let (rows, _) = count("a row count", max_vertices as u64)?;
    let (columns, _) = count("a column count", max_vertices as u64)?;
    let (entries, at) = count("an entry count", max_entries as u64)?;
    let places = u128::from(rows) * u128::from(columns);
    if u128::from(entries) > places {
        let expected = format!("an entry count of at most {places} (ROWS x COLUMNS)");
        let found = quoted(&entries.to_string());
        return Err(GraphReadError::syntax(
            path,
            place(line, raw, at),
            expected,
            found,
        ));
    }
    Ok(Header {
        field,
        symmetry,
        rows,
        columns,
        entries,
    })
}

/// Whether `token` is a value of `field` (an integer, or a real number).
fn is_value(field: Field, token: &[u8]) -> bool {
    match field {
        Field::Integer => {
            let digits = token
                .strip_prefix(b"-")
                .or(token.strip_prefix(b"+"))
                .unwrap_or(token);
            !digits.is_empty() && digits.iter().all(u8::is_ascii_digit)
        }
        _ => std::str::from_utf8(token).is_ok_and(|t| t.parse::<f64>().is_ok()),
    }
}

/// What the `k`-th value of an entry should be.
fn value_expected(field: Field, k: usize) -> &'static str {
    match (field, k) {
        (Field::Integer, _) => "an integer value",
        (Field::Complex, 0) => "the real part of a complex value",
        (Field::Complex, _) => "the imaginary part of a complex value",
        _ => "a real value",
    }
}

/// Reads the entries after the size line (with each kept edge's weight when `weights`); the
/// file can hold at most `most` of them.
fn read_entries(
    lines: &mut Lines<'_>,
    path: &Path,
    header: &Header,
    most: usize,
    weights: bool,
) -> Result<EdgeList, GraphReadError> {
    let values = match header.field {
        Field::Pattern => 0,
        Field::Integer | Field::Real => 1,
        Field::Complex => 2,
    };
    // NOTE: `max(rows, columns)` was checked against the vertex limit: the vertices exist (an
    // isolated one still counts), so this index is as large as the graph, not the file.
    let n = header.rows.max(header.columns) as usize;
    let mut index = vec![u32::MAX; n];
    let mut ids: Vec<u64> = Vec::new();
    let mut list = EdgeList::default();
    let room = most.min(header.entries as usize);
    list.src.reserve(room);
    list.dst.reserve(room);
    let mut read_weights = weights.then(|| Vec::with_capacity(room));
    let mut seen = (header.symmetry == Symmetry::General).then(PairSet::default);
    let mut read = 0u64;
    for (line, raw) in lines.by_ref() {
        let mut pos = 0;
        let err = |at: usize, expected: String, found: &[u8]| {
            let found = if found.is_empty() {
                "end of line".to_string()
            } else {
                quoted(&String::from_utf8_lossy(found))
            };
            GraphReadError::syntax(path, place(line, raw, at), expected, found)
        };
        let Some((i_at, i_token)) = next_token(raw, &mut pos) else {
            continue;
        };
        if i_token.starts_with(b"%") {
            continue;
        }
        if read == header.entries {
            let expected = format!("end of file (the size line announces {read} entries)");
            return Err(err(i_at, expected, i_token));
        }
        let index_of = |at: usize, token: &[u8], what: &str, limit: u64| {
            parse_id(token)
                .ok()
                .filter(|&k| (1..=limit).contains(&k))
                .ok_or_else(|| err(at, format!("{what} index from 1 to {limit}"), token))
        };
        let i = index_of(i_at, i_token, "a row", header.rows)?;
        let (j_at, j_token) = next_token(raw, &mut pos).unwrap_or((raw.len(), b""));
        let j = index_of(j_at, j_token, "a column", header.columns)?;
        // The first value and its offset (the weight, when weights are read).
        let mut first = (raw.len(), &b""[..]);
        for k in 0..values {
            let (at, token) = next_token(raw, &mut pos).unwrap_or((raw.len(), b""));
            if !is_value(header.field, token) {
                return Err(err(at, value_expected(header.field, k).to_string(), token));
            }
            if k == 0 {
                first = (at, token);
            }
        }
        read += 1;
        let mut vertex = |id: u64| {
            let slot = &mut index[id as usize - 1];
            if *slot == u32::MAX {
                // NOTE: below the vertex limit (2^24), so it fits in a `u32`.
                *slot = ids.len() as u32;
                ids.push(id);
            }
            *slot
        };
        let (a, b) = (vertex(i), vertex(j));
        if a == b {
            list.self_loops += 1;
        } else if seen
            .as_mut()
            .is_none_or(|s| s.insert(pair_key(a, b, false)))
        {
            if let Some(w) = &mut read_weights {
                let (at, token) = first;
                w.push(parse_weight(token).ok_or_else(|| err(at, WEIGHT_EXPECTED.into(), token))?);
            }
            list.src.push(a);
            list.dst.push(b);
        }
    }
    if read < header.entries {
        let expected = format!("{} entries as the size line announces", header.entries);
        let found = format!("end of file after {read}");
        return Err(GraphReadError::syntax(path, lines.end(), expected, found));
    }
    ids.extend((1..=n as u64).filter(|&id| index[id as usize - 1] == u32::MAX));
    list.ids = VertexIds::Numbers(ids);
    list.weights = read_weights;
    Ok(list)
}

#[cfg(test)]
#[path = "mtx_tests.rs"]
mod tests;
