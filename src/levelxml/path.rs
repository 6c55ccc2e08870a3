//! Paths and cycles (seed 002's "Paths and cycles", with the corpus notes): a walk given as a
//! list of edges, checked (edges exist, follow one another, never repeat) and scored with the
//! level's point accumulator.
//!
//! Scoring starts from the spec's `points`; each edge applies its color's own rule (the last one
//! given for that color), then the `any` rule. A cycle scores 0 unless it has at least two edges
//! and ends where it started; an empty path scores its start value. The walk's direction is
//! found from its edges: it starts at the first edge's end that does not continue into the
//! second (the first edge's `v1` when both work, or when the path has one edge).

use std::collections::HashMap;

use crate::levelxml::error::{EvalError, EvalErrorKind};
use crate::levelxml::graph::ResolvedGraph;
use crate::levelxml::model::{Color, Edge, PathOp, PathSpec};

/// A checked walk: its edges by index and whether it ends where it started.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Walk {
    /// Edge indices in walking order.
    pub edges: Vec<u32>,
    /// The vertices visited, one more than the edges (empty for an empty walk).
    pub vertices: Vec<u32>,
}

impl Walk {
    /// Whether the walk has at least two edges and ends where it started.
    pub fn is_closed(&self) -> bool {
        self.edges.len() >= 2 && self.vertices.first() == self.vertices.last()
    }
}

/// Resolves edge names (an edge id, else a 0-based edge index) and checks that they form a walk.
pub fn resolve_walk(
    names: &[String],
    edges: &[Edge],
    g: &ResolvedGraph,
) -> Result<Walk, EvalError> {
    let ids: HashMap<&str, u32> = edges
        .iter()
        .enumerate()
        .filter_map(|(i, e)| e.id.as_deref().map(|id| (id, i as u32)))
        .collect();
    let mut walk = Vec::with_capacity(names.len());
    let mut used = vec![false; g.edge_count()];
    for name in names {
        let e = ids
            .get(name.as_str())
            .copied()
            .or_else(|| {
                name.parse::<u32>()
                    .ok()
                    .filter(|&i| (i as usize) < g.edge_count())
            })
            .ok_or_else(|| EvalError::new(EvalErrorKind::PathUnknownEdge { edge: name.clone() }))?;
        if std::mem::replace(&mut used[e as usize], true) {
            return Err(EvalError::new(EvalErrorKind::PathRepeatsEdge {
                edge: name.clone(),
            }));
        }
        walk.push(e);
    }
    let Some(&first) = walk.first() else {
        return Ok(Walk {
            edges: walk,
            vertices: Vec::new(),
        });
    };
    let (a, b) = g.ends[first as usize];
    // Try v1 first, then v2; report the attempt that got further.
    let from_a = follow(a, &walk, g);
    let vertices = match from_a {
        Ok(v) => v,
        Err(fail_a) => follow(b, &walk, g).map_err(|fail_b| {
            let at = fail_a.max(fail_b);
            EvalError::new(EvalErrorKind::PathBroken {
                edge: names[at].clone(),
            })
        })?,
    };
    Ok(Walk {
        edges: walk,
        vertices,
    })
}

/// The vertices of the walk from `start`, or the position of the first edge that does not
/// touch the walk's end.
fn follow(start: u32, walk: &[u32], g: &ResolvedGraph) -> Result<Vec<u32>, usize> {
    let mut at = start;
    let mut vertices = Vec::with_capacity(walk.len() + 1);
    vertices.push(at);
    for (i, &e) in walk.iter().enumerate() {
        let (u, v) = g.ends[e as usize];
        at = if u == at {
            v
        } else if v == at {
            u
        } else {
            return Err(i);
        };
        vertices.push(at);
    }
    Ok(vertices)
}

/// One accumulator step.
fn step(op: PathOp, acc: i64, val: i64) -> Result<i64, EvalErrorKind> {
    let overflow = || EvalErrorKind::Overflow { id: "path".into() };
    let zero = |op| EvalErrorKind::DivisionByZero {
        id: "path".into(),
        op,
    };
    match op {
        PathOp::Add => acc.checked_add(val).ok_or_else(overflow),
        PathOp::Sub => acc.checked_sub(val).ok_or_else(overflow),
        PathOp::Mul => acc.checked_mul(val).ok_or_else(overflow),
        PathOp::Div if val == 0 => Err(zero("/")),
        PathOp::Div => acc.checked_div(val).ok_or_else(overflow),
        PathOp::Rem if val == 0 => Err(zero("%")),
        PathOp::Rem => acc.checked_rem(val).ok_or_else(overflow),
    }
}

/// The score of `walk` under `spec`.
///
/// # Runtime
/// O(walk length + rules).
pub fn score_walk(
    spec: &PathSpec,
    walk: &Walk,
    g: &ResolvedGraph,
    colors: &[Color],
) -> Result<i64, EvalErrorKind> {
    if spec.cycle && !walk.is_closed() {
        return Ok(0);
    }
    // The last rule given for each color wins; `None` is the `any` rule.
    let mut own: Vec<Option<(PathOp, i64)>> = vec![None; colors.len()];
    let mut any = None;
    for r in &spec.rules {
        match &r.color {
            None => any = Some((r.op, r.val)),
            Some(name) => {
                if let Some(c) = colors.iter().position(|c| &c.name == name) {
                    own[c] = Some((r.op, r.val));
                }
            }
        }
    }
    let mut acc = spec.points;
    for &e in &walk.edges {
        let c = g.edge_color[e as usize] as usize;
        for (op, val) in [own.get(c).copied().flatten(), any].into_iter().flatten() {
            acc = step(op, acc, val)?;
        }
    }
    Ok(acc)
}
