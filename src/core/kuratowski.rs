//! A witness of non-planarity: a subdivision of K5 or K3,3 inside a non-planar graph
//! (Kuratowski's theorem), so that a refusal can name the vertices that cannot be drawn
//! without a crossing instead of only saying that some cannot.
//!
//! # Algorithm
//! Edge deletion against the exact test of [`crate::core::planar`]: an edge whose removal
//! leaves the graph non-planar is removed, one that would make it planar is kept. What is left
//! is edge-minimal non-planar, and an edge-minimal non-planar graph without isolated vertices
//! is a subdivision of K5 or K3,3. Its vertices of degree 3 or more are the branch vertices
//! and the chains of degree-2 vertices between them are the subdivided edges.
//!
//! Edges are first tried in blocks (64, then 8) and then one by one, so a graph of `m` edges
//! costs about `m / 64 + 8 w + w` tests for a witness of `w` edges instead of `m`, each
//! linear ([`is_planar_with`]). It runs only when a graph is refused, never per level.

use crate::core::csr::Adjacency;
use crate::core::planar::{PlanarityScratch, is_planar_with};

/// Which Kuratowski graph a [`Witness`] subdivides.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kuratowski {
    /// K5: five branch vertices, each joined to the other four.
    K5([u32; 5]),
    /// K3,3: each of the first three branch vertices joined to each of the last three.
    K33([u32; 3], [u32; 3]),
}

/// A subdivision of K5 or K3,3 in a graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Witness {
    /// The graph it subdivides, with its branch vertices (sorted within each part).
    pub kind: Kuratowski,
    /// The subdivided edges: paths from one branch vertex to another through vertices of
    /// degree 2 in the witness (10 for K5, 9 for K3,3), each listed from its lower end,
    /// sorted.
    pub paths: Vec<Vec<u32>>,
}

/// Edges tried together before one by one (see the module's notes).
const BLOCKS: [usize; 3] = [64, 8, 1];

/// A K5 or K3,3 subdivision in the graph on vertices `0..n` whose edge `e` joins `src[e]` and
/// `dst[e]`, or `None` when the graph is planar. Self-loops and parallel edges are ignored, as
/// by [`crate::core::planar::is_planar`]. Deterministic: the same graph (edges in the same
/// order) gives the same witness.
pub fn kuratowski_subdivision(n: usize, src: &[u32], dst: &[u32]) -> Option<Witness> {
    let mut scratch = PlanarityScratch::default();
    let mut edges: Vec<(u32, u32)> = src
        .iter()
        .zip(dst)
        .filter(|(a, b)| a != b && (**a as usize) < n && (**b as usize) < n)
        .map(|(&a, &b)| (a.min(b), a.max(b)))
        .collect();
    let mut seen = std::collections::HashSet::new();
    edges.retain(|e| seen.insert(*e));
    let mut planar = |es: &[(u32, u32)]| {
        let (s, d): (Vec<u32>, Vec<u32>) = es.iter().copied().unzip();
        is_planar_with(&mut scratch, n, &s, &d)
    };
    if planar(&edges) {
        return None;
    }
    for block in BLOCKS {
        let mut start = 0;
        while start < edges.len() {
            let end = (start + block).min(edges.len());
            let rest: Vec<(u32, u32)> = edges[..start]
                .iter()
                .chain(&edges[end..])
                .copied()
                .collect();
            if planar(&rest) {
                start = end;
            } else {
                edges = rest;
            }
        }
    }
    Some(shape_of(n, &edges))
}

/// The branch vertices and paths of an edge-minimal non-planar graph.
fn shape_of(n: usize, edges: &[(u32, u32)]) -> Witness {
    let adj = Adjacency::from_edges(n, edges.iter().copied(), |_, w| w);
    let branch: Vec<u32> = (0..n as u32)
        .filter(|&v| adj[v as usize].len() >= 3)
        .collect();
    let mut paths: Vec<Vec<u32>> = Vec::new();
    for &b in &branch {
        for &first in &adj[b as usize] {
            let mut path = vec![b];
            let (mut prev, mut at) = (b, first);
            while adj[at as usize].len() == 2 {
                path.push(at);
                let next = adj[at as usize]
                    .iter()
                    .copied()
                    .find(|&x| x != prev)
                    .unwrap_or(prev);
                (prev, at) = (at, next);
            }
            path.push(at);
            // Each path is found from both ends: keep it from its lower end.
            if b < at {
                paths.push(path);
            }
        }
    }
    paths.sort();
    let kind = if branch.len() == 5 {
        Kuratowski::K5([branch[0], branch[1], branch[2], branch[3], branch[4]])
    } else {
        // Two-colour the six branch vertices along the paths.
        let mut colour = vec![u8::MAX; n];
        colour[branch[0] as usize] = 0;
        for _ in 0..branch.len() {
            for p in &paths {
                let (a, b) = (p[0] as usize, p[p.len() - 1] as usize);
                if colour[a] != u8::MAX {
                    colour[b] = 1 - colour[a];
                } else if colour[b] != u8::MAX {
                    colour[a] = 1 - colour[b];
                }
            }
        }
        let part = |c: u8| {
            let v: Vec<u32> = branch
                .iter()
                .copied()
                .filter(|&b| colour[b as usize] == c)
                .collect();
            [v[0], v[1], v[2]]
        };
        Kuratowski::K33(part(0), part(1))
    };
    Witness { kind, paths }
}

#[cfg(test)]
#[path = "kuratowski_tests.rs"]
mod tests;
