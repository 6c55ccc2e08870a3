//! [`NamedGraph`]: the graph the string-id readers (GraphML, GML, DOT) build as they parse, with
//! the common rules of every reader: vertices numbered in order of first appearance, self-loops
//! dropped and counted, duplicate edges kept (unless asked to merge them), and the
//! [`MAX_VERTICES`] and [`MAX_EDGES`] bounds checked at the vertex or edge over. When asked
//! for weights ([`NamedGraph::read_weights`]), each kept edge gets a weight slot the reader
//! fills once it has read the edge's attributes ([`NamedGraph::set_weight`]).

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::hash::BuildHasherDefault;

use super::error::{GraphReadError, Source, quoted};
use super::limits::MAX_VERTICES;
use super::names::{VertexIds, VertexNames};
use crate::layout::edgelist::{EdgeList, IdHasher, MAX_EDGES};

/// Unordered (or ordered) vertex pairs already seen, to merge repeated edges.
pub(crate) type PairSet = HashSet<u64, BuildHasherDefault<IdHasher>>;

/// The key of edge `a`-`b` in a [`PairSet`]: both orders give the same key unless `ordered`.
pub(crate) fn pair_key(a: u32, b: u32, ordered: bool) -> u64 {
    let (lo, hi) = if ordered || a <= b { (a, b) } else { (b, a) };
    (u64::from(lo) << 32) | u64::from(hi)
}

/// A graph with string vertex ids, built while parsing.
pub(crate) struct NamedGraph<'a> {
    /// The file, to place errors.
    pub source: Source<'a>,
    /// Dense index of each name. Names borrow from the file unless they were unescaped.
    index: HashMap<Cow<'a, str>, u32>,
    names: VertexNames,
    src: Vec<u32>,
    dst: Vec<u32>,
    self_loops: u64,
    /// Per vertex: whether a node element declared it (GraphML, GML).
    declared: Vec<bool>,
    /// Vertices an edge named before any declaration, with the offset of that name.
    undeclared: Vec<(u32, usize)>,
    /// When set, edges already present are merged (DOT's `strict`); the flag: pairs are ordered.
    merge: Option<(PairSet, bool)>,
    /// Each kept edge's weight, when weights are read (NaN until the reader sets it).
    weights: Option<Vec<f32>>,
    max_vertices: usize,
    max_edges: usize,
}

impl<'a> NamedGraph<'a> {
    /// An empty graph for `source`, with the readers' limits.
    pub fn new(source: Source<'a>) -> Self {
        Self::with_limits(source, MAX_VERTICES, MAX_EDGES)
    }

    /// An empty graph with other limits (tests).
    pub fn with_limits(source: Source<'a>, max_vertices: usize, max_edges: usize) -> Self {
        Self {
            source,
            index: HashMap::new(),
            names: VertexNames::default(),
            src: Vec::new(),
            dst: Vec::new(),
            self_loops: 0,
            declared: Vec::new(),
            undeclared: Vec::new(),
            merge: None,
            weights: None,
            max_vertices,
            max_edges,
        }
    }

    /// Merges repeated edges from now on: `a`-`b` and `b`-`a` are the same edge unless
    /// `ordered`.
    pub fn merge_repeated_edges(&mut self, ordered: bool) {
        self.merge = Some((PairSet::default(), ordered));
    }

    /// Gives every edge kept from now on a weight, which the reader must set
    /// ([`NamedGraph::set_weight`]) before [`NamedGraph::finish`].
    pub fn read_weights(&mut self) {
        self.weights = Some(Vec::new());
    }

    /// Whether weights are read ([`NamedGraph::read_weights`]).
    pub fn reads_weights(&self) -> bool {
        self.weights.is_some()
    }

    /// Sets the weight of kept edge `e` (as [`NamedGraph::edge`] numbered it).
    pub fn set_weight(&mut self, e: usize, w: f32) {
        if let Some(weights) = &mut self.weights {
            weights[e] = w;
        }
    }

    /// A syntax error at byte `offset` (see [`Source::error`]).
    pub fn error(
        &self,
        offset: usize,
        expected: impl Into<String>,
        found: impl Into<String>,
    ) -> GraphReadError {
        self.source.error(offset, expected, found)
    }

    /// The dense index of vertex `name` (named at byte `at`), added when new.
    pub fn vertex(&mut self, name: Cow<'a, str>, at: usize) -> Result<u32, GraphReadError> {
        if let Some(&v) = self.index.get(name.as_ref()) {
            return Ok(v);
        }
        if self.names.len() >= self.max_vertices {
            let pos = self.source.pos(at);
            return Err(GraphReadError::TooManyVertices {
                path: self.source.path.to_path_buf(),
                line: pos.line as usize,
                column: pos.col as usize,
                limit: self.max_vertices,
            });
        }
        // NOTE: below `max_vertices` <= 2^24, so the index fits in a `u32`.
        let v = self.names.len() as u32;
        self.names.push(&name);
        self.index.insert(name, v);
        self.declared.push(false);
        Ok(v)
    }

    /// Declares vertex `name` (a node element whose id is at byte `at`); a second declaration
    /// of the same id is an error.
    pub fn declare(&mut self, name: Cow<'a, str>, at: usize) -> Result<u32, GraphReadError> {
        let v = self.vertex(name, at)?;
        if std::mem::replace(&mut self.declared[v as usize], true) {
            let name = self.names.name(v as usize);
            return Err(self.error(at, "an id no other node has", quoted(name)));
        }
        Ok(v)
    }

    /// Vertex `name` as an edge end (named at byte `at`): [`NamedGraph::finish_declared`] checks
    /// that some node declares it.
    pub fn endpoint(&mut self, name: Cow<'a, str>, at: usize) -> Result<u32, GraphReadError> {
        let v = self.vertex(name, at)?;
        if !self.declared[v as usize] {
            self.undeclared.push((v, at));
        }
        Ok(v)
    }

    /// Adds edge `a`-`b` (written at byte `at`): a self-loop is counted and dropped, a repeat
    /// merged when [`NamedGraph::merge_repeated_edges`] was called (the first one is kept).
    /// Returns the kept edge's index, `None` when it was dropped.
    pub fn edge(&mut self, a: u32, b: u32, at: usize) -> Result<Option<usize>, GraphReadError> {
        if a == b {
            self.self_loops += 1;
            return Ok(None);
        }
        if let Some((seen, ordered)) = &mut self.merge
            && !seen.insert(pair_key(a, b, *ordered))
        {
            return Ok(None);
        }
        if self.src.len() >= self.max_edges {
            let pos = self.source.pos(at);
            return Err(GraphReadError::TooManyEdges {
                path: self.source.path.to_path_buf(),
                line: pos.line as usize,
                column: pos.col as usize,
                limit: self.max_edges,
            });
        }
        self.src.push(a);
        self.dst.push(b);
        if let Some(weights) = &mut self.weights {
            weights.push(f32::NAN);
        }
        Ok(Some(self.src.len() - 1))
    }

    /// The graph read.
    pub fn finish(self) -> EdgeList {
        debug_assert!(
            self.weights
                .as_ref()
                .is_none_or(|w| w.iter().all(|w| *w > 0.0)),
            "the reader set every kept edge's weight"
        );
        EdgeList {
            ids: VertexIds::Names(self.names),
            src: self.src,
            dst: self.dst,
            self_loops: self.self_loops,
            weights: self.weights,
        }
    }

    /// The graph read, after checking that a node declares every edge end; the first end that
    /// none declares is an error saying `expected`.
    pub fn finish_declared(self, expected: &str) -> Result<EdgeList, GraphReadError> {
        if let Some(&(v, at)) = self
            .undeclared
            .iter()
            .find(|&&(v, _)| !self.declared[v as usize])
        {
            return Err(self.error(at, expected, quoted(self.names.name(v as usize))));
        }
        Ok(self.finish())
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    fn source(text: &str) -> Source<'_> {
        Source {
            path: Path::new("g.x"),
            text,
        }
    }

    #[test]
    fn vertices_are_numbered_in_order_of_first_appearance() {
        let mut g = NamedGraph::new(source("b a"));
        let b = g.vertex("b".into(), 0).unwrap();
        let a = g.vertex(Cow::Owned("a".to_string()), 2).unwrap();
        assert_eq!((b, a, g.vertex("b".into(), 0).unwrap()), (0, 1, 0));
        g.edge(a, b, 0).unwrap();
        g.edge(a, a, 0).unwrap();
        g.edge(b, a, 0).unwrap();
        let list = g.finish();
        assert_eq!(list.ids, VertexIds::Names(["b", "a"].into_iter().collect()));
        assert_eq!(
            (list.src, list.dst, list.self_loops),
            (vec![1, 0], vec![0, 1], 1)
        );
    }

    #[test]
    fn merged_edges_are_kept_once_per_pair() {
        for (ordered, edges) in [(false, 1), (true, 2)] {
            let mut g = NamedGraph::new(source(""));
            g.merge_repeated_edges(ordered);
            for (a, b) in [(0, 1), (1, 0), (0, 1)] {
                g.edge(a, b, 0).unwrap();
            }
            assert_eq!(g.finish().edge_count(), edges, "ordered {ordered}");
        }
    }

    #[test]
    fn limits_name_the_vertex_or_edge_over() {
        let mut g = NamedGraph::with_limits(source("a b\nc"), 2, 1);
        g.vertex("a".into(), 0).unwrap();
        g.vertex("b".into(), 2).unwrap();
        let e = g.vertex("c".into(), 4).unwrap_err();
        assert_eq!(e.to_string(), "g.x:2:1: more than 2 vertices");
        g.edge(0, 1, 0).unwrap();
        let e = g.edge(1, 0, 2).unwrap_err();
        assert_eq!(e.to_string(), "g.x:1:3: more than 1 edges");
    }

    #[test]
    fn undeclared_ends_and_repeated_declarations_are_errors() {
        let text = "x y z";
        let mut g = NamedGraph::new(source(text));
        g.endpoint("x".into(), 0).unwrap();
        g.endpoint("y".into(), 2).unwrap();
        g.declare("x".into(), 4).unwrap();
        let e = g.declare("x".into(), 4).unwrap_err();
        assert_eq!(
            e.to_string(),
            r#"g.x:1:5: expected an id no other node has, found "x""#
        );
        let e = g.finish_declared("a declared node").unwrap_err();
        assert_eq!(
            e.to_string(),
            r#"g.x:1:3: expected a declared node, found "y""#
        );
    }
}
