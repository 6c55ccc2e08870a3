//! The file's own id of each vertex: numbers for edge lists and Matrix Market files, strings for
//! GraphML, GML and DOT, so `warren layout --out` names every vertex as its file does.
//!
//! Numeric ids stay one `u64` per vertex (the edge-list reader allocates no string); string ids
//! are pooled in one buffer with an end offset per vertex ([`VertexNames`]), not a `String` each.

use std::fmt;

/// The file's ids of the vertices, by dense index (in order of first appearance).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VertexIds {
    /// Numeric ids (edge lists, Matrix Market).
    Numbers(Vec<u64>),
    /// String ids (GraphML, GML, DOT).
    Names(VertexNames),
}

impl Default for VertexIds {
    fn default() -> Self {
        Self::Numbers(Vec::new())
    }
}

impl VertexIds {
    /// Number of vertices.
    pub fn len(&self) -> usize {
        match self {
            Self::Numbers(ids) => ids.len(),
            Self::Names(names) => names.len(),
        }
    }

    /// Whether there are no vertices.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The id of vertex `v`.
    ///
    /// # Panics
    /// When `v` is not below [`VertexIds::len`].
    pub fn id(&self, v: usize) -> VertexId<'_> {
        match self {
            Self::Numbers(ids) => VertexId::Number(ids[v]),
            Self::Names(names) => VertexId::Name(names.name(v)),
        }
    }

    /// Every vertex's id, by dense index.
    pub fn iter(&self) -> impl Iterator<Item = VertexId<'_>> + '_ {
        (0..self.len()).map(|v| self.id(v))
    }
}

/// One vertex's id in its file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VertexId<'a> {
    /// A numeric id.
    Number(u64),
    /// A string id.
    Name(&'a str),
}

impl fmt::Display for VertexId<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Number(id) => write!(f, "{id}"),
            Self::Name(name) => f.write_str(name),
        }
    }
}

impl<'a> VertexId<'a> {
    /// The id as one TSV field: a backslash, tab, line feed and carriage return in a name are
    /// written `\\`, `\t`, `\n` and `\r`, so a row always has three fields on one line.
    pub fn tsv_field(self) -> TsvField<'a> {
        TsvField(self)
    }
}

/// A [`VertexId`] escaped for a TSV field (see [`VertexId::tsv_field`]).
#[derive(Clone, Copy, Debug)]
pub struct TsvField<'a>(VertexId<'a>);

impl fmt::Display for TsvField<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self.0 {
            VertexId::Number(id) => return write!(f, "{id}"),
            VertexId::Name(name) => name,
        };
        let special = |c: char| matches!(c, '\\' | '\t' | '\n' | '\r');
        if !name.contains(special) {
            return f.write_str(name);
        }
        for c in name.chars() {
            match c {
                '\\' => f.write_str("\\\\")?,
                '\t' => f.write_str("\\t")?,
                '\n' => f.write_str("\\n")?,
                '\r' => f.write_str("\\r")?,
                c => fmt::Write::write_char(f, c)?,
            }
        }
        Ok(())
    }
}

/// Strings in one pooled buffer: name `i` is `text[ends[i - 1]..ends[i]]`.
///
/// PERF: one allocation for all the names (and one for their ends) instead of a `String` per
/// vertex.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VertexNames {
    text: String,
    ends: Vec<usize>,
}

impl VertexNames {
    /// Appends a name.
    pub fn push(&mut self, name: &str) {
        self.text.push_str(name);
        self.ends.push(self.text.len());
    }

    /// Number of names.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there are no names.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Name `i`.
    ///
    /// # Panics
    /// When `i` is not below [`VertexNames::len`].
    pub fn name(&self, i: usize) -> &str {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.text[start..self.ends[i]]
    }

    /// Every name in order.
    pub fn iter(&self) -> impl Iterator<Item = &str> + '_ {
        (0..self.len()).map(|i| self.name(i))
    }
}

impl<'s> FromIterator<&'s str> for VertexNames {
    fn from_iter<I: IntoIterator<Item = &'s str>>(iter: I) -> Self {
        let mut names = Self::default();
        for name in iter {
            names.push(name);
        }
        names
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pooled_names_come_back_in_order() {
        let names: VertexNames = ["a", "", "long name", "é"].into_iter().collect();
        assert_eq!(names.len(), 4);
        assert_eq!(
            names.iter().collect::<Vec<_>>(),
            ["a", "", "long name", "é"]
        );
        assert_eq!(names.name(2), "long name");
    }

    #[test]
    fn ids_display_as_their_file_writes_them() {
        let numbers = VertexIds::Numbers(vec![7, u64::MAX]);
        let shown: Vec<String> = numbers.iter().map(|id| id.to_string()).collect();
        assert_eq!(shown, ["7", "18446744073709551615"]);
        let names = VertexIds::Names(["x", "01"].into_iter().collect());
        assert_eq!(names.id(1), VertexId::Name("01"));
        assert_eq!((names.len(), VertexIds::default().is_empty()), (2, true));
    }

    #[test]
    fn tsv_fields_escape_separators() {
        let field = |name| VertexId::Name(name).tsv_field().to_string();
        assert_eq!(field("plain"), "plain");
        assert_eq!(field("a\tb\nc\rd\\e"), "a\\tb\\nc\\rd\\\\e");
        assert_eq!(VertexId::Number(5).tsv_field().to_string(), "5");
    }
}
