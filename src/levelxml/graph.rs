//! A level's graph resolved to indices: what the evaluator, the rules and the path scorer read.
//!
//! Names become positions once (a vertex id is its 0-based place among all `<vertex>` elements,
//! as in the game), missing colors become the first color, and degrees are counted.

use std::collections::HashMap;

use crate::levelxml::error::{EvalError, EvalErrorKind};
use crate::levelxml::model::LevelDoc;

/// The graph of a level, by index.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ResolvedGraph {
    /// Each vertex's color index into `LevelDoc::colors`.
    pub vertex_color: Vec<u32>,
    /// Each vertex's origin flag.
    pub origin: Vec<bool>,
    /// Each edge's color index.
    pub edge_color: Vec<u32>,
    /// Each edge's endpoints `(v1, v2)`.
    pub ends: Vec<(u32, u32)>,
    /// Each vertex's number of incident edges (a self-loop counts twice).
    pub degree: Vec<u32>,
    /// Each color's value in `<values>` (packed RGBA as a signed 32-bit integer).
    pub color_value: Vec<i64>,
}

impl ResolvedGraph {
    /// Resolves `doc`'s graph; fails on a name the level does not define (only possible for a
    /// model built in code: the reader rejects such files).
    pub fn new(doc: &LevelDoc) -> Result<Self, EvalError> {
        let color_of = |name: &Option<String>| -> Result<u32, EvalError> {
            match name {
                None if !doc.colors.is_empty() => Ok(0),
                None => Err(undefined("(the first color)")),
                Some(n) => doc
                    .colors
                    .iter()
                    .position(|c| &c.name == n)
                    .map(|i| i as u32)
                    .ok_or_else(|| undefined(n)),
            }
        };
        let mut ids: HashMap<&str, u32> = HashMap::with_capacity(doc.vertices.len());
        let mut g = ResolvedGraph {
            vertex_color: Vec::with_capacity(doc.vertices.len()),
            origin: Vec::with_capacity(doc.vertices.len()),
            edge_color: Vec::with_capacity(doc.edges.len()),
            ends: Vec::with_capacity(doc.edges.len()),
            degree: vec![0; doc.vertices.len()],
            color_value: doc.colors.iter().map(|c| c.value()).collect(),
        };
        for (i, v) in doc.vertices.iter().enumerate() {
            if let Some(id) = &v.id {
                ids.insert(id, i as u32);
            }
            g.vertex_color.push(color_of(&v.color)?);
            g.origin.push(v.origin);
        }
        for e in &doc.edges {
            let end = |id: &str| ids.get(id).copied().ok_or_else(|| undefined(id));
            let (a, b) = (end(&e.v1)?, end(&e.v2)?);
            g.degree[a as usize] += 1;
            g.degree[b as usize] += 1;
            g.ends.push((a, b));
            g.edge_color.push(color_of(&e.color)?);
        }
        Ok(g)
    }

    /// Number of vertices.
    pub fn vertex_count(&self) -> usize {
        self.vertex_color.len()
    }

    /// Number of edges.
    pub fn edge_count(&self) -> usize {
        self.ends.len()
    }

    /// Whether an edge joins `a` and `b`, either way round.
    pub fn adjacent(&self, a: u32, b: u32) -> bool {
        self.ends
            .iter()
            .any(|&(u, v)| (u, v) == (a, b) || (u, v) == (b, a))
    }
}

fn undefined(name: &str) -> EvalError {
    EvalError::new(EvalErrorKind::Undefined {
        name: name.to_string(),
    })
}
