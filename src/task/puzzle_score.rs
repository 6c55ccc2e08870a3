//! The `coloring-puzzle` scorer: the ground truth holds the whole puzzle, so any solution is
//! checked, not only the stored one. Edge puzzles: every edge's colour avoids both its
//! vertices' colours and each colour meets its quota. Eulerian puzzles: the walk steps along
//! edges and walks each exactly once, closed for a cycle.

use serde::Deserialize;

use crate::coloring::puzzle::PuzzleKind;
use crate::task::answer::{read_id_map, read_list, read_walk};

/// Most vertices or edges a ground truth may claim before the scorer refuses it unread.
const MAX_SCORED: usize = 1 << 16;

/// A `coloring-puzzle` ground truth.
#[derive(Deserialize)]
pub struct PuzzleTruth {
    /// The puzzle family.
    pub puzzle: PuzzleKind,
    /// Vertices.
    pub n: u32,
    /// The edges in id order.
    pub edges: Vec<[u32; 2]>,
    /// Edge puzzles: the colours `1..=k`.
    #[serde(default)]
    pub k: u32,
    /// Edge puzzles: each vertex's fixed colour.
    #[serde(default)]
    pub vertex_colors: Vec<u32>,
    /// Edge puzzles: the edges each colour must take.
    #[serde(default)]
    pub quota: Vec<u32>,
}

/// Scores an answer against a `coloring-puzzle` ground truth: 1 for any solution, 0 for
/// anything else. Edge puzzles: a JSON object of every edge id (`"7"` or `7`, once each) to a
/// colour, or a JSON list of one colour per edge in id order, each edge's colour in `1..=k`
/// and unlike both its vertices' colours, each colour on exactly its quota of edges. Eulerian
/// puzzles: vertex ids separated by spaces or commas (optionally in square brackets), each
/// step along an edge, every edge walked exactly once, the last vertex the first for a cycle.
///
/// # Runtime
/// O(answer length + n + E log E); allocates O(n + E).
pub fn score(answer: &str, ground_truth: &str) -> f64 {
    let Ok(t) = serde_json::from_str::<PuzzleTruth>(ground_truth) else {
        return 0.0;
    };
    if t.n as usize > MAX_SCORED || t.edges.len() > MAX_SCORED {
        return 0.0;
    }
    let solved = match t.puzzle {
        PuzzleKind::Edge => edge_solved(answer, &t),
        PuzzleKind::EulerPath | PuzzleKind::EulerCycle => walk_solved(answer, &t),
        PuzzleKind::Vertex => false,
    };
    if solved { 1.0 } else { 0.0 }
}

/// Whether `answer` colours the edge puzzle `t`.
fn edge_solved(answer: &str, t: &PuzzleTruth) -> bool {
    let m = t.edges.len();
    if t.k == 0 || t.k > 64 || t.quota.len() != t.k as usize {
        return false;
    }
    let mut colors = Vec::new();
    let read = if answer.trim_start().starts_with('[') {
        read_list(answer, m, t.k, &mut colors)
    } else {
        read_id_map(answer, m, t.k, &mut colors)
    };
    if !read {
        return false;
    }
    let mut used = vec![0u32; t.k as usize];
    for (&[a, b], &c) in t.edges.iter().zip(&colors) {
        let (ca, cb) = (
            t.vertex_colors.get(a as usize),
            t.vertex_colors.get(b as usize),
        );
        if ca.is_none() || cb.is_none() || ca == Some(&c) || cb == Some(&c) {
            return false;
        }
        used[c as usize - 1] += 1;
    }
    used == t.quota
}

/// Whether `answer` is an Eulerian walk (a closed one for a cycle) of the graph of `t`.
fn walk_solved(answer: &str, t: &PuzzleTruth) -> bool {
    let m = t.edges.len();
    let mut walk = Vec::new();
    if m == 0 || !read_walk(answer, t.n, m + 1, &mut walk) || walk.len() != m + 1 {
        return false;
    }
    // Each edge by its ends, smaller first, with its id: a step finds its edge by binary search.
    let mut by_ends: Vec<((u32, u32), usize)> = t
        .edges
        .iter()
        .enumerate()
        .map(|(e, &[a, b])| ((a.min(b), a.max(b)), e))
        .collect();
    by_ends.sort_unstable();
    let mut walked = vec![false; m];
    for step in walk.windows(2) {
        let key = (step[0].min(step[1]), step[0].max(step[1]));
        let Ok(at) = by_ends.binary_search_by(|(ends, _)| ends.cmp(&key)) else {
            return false;
        };
        let e = by_ends[at].1;
        if walked[e] {
            return false;
        }
        walked[e] = true;
    }
    t.puzzle != PuzzleKind::EulerCycle || walk[0] == walk[m]
}
