//! Shortest-path distances for the stress terms: breadth-first search when every edge asks for
//! the same length (the distance is the hop count times it), Dijkstra's algorithm otherwise.
//! Both fill a caller's buffer and reuse a caller's queue, so one source costs no allocation.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::layout::multilevel::coarsen::Adjacency;

/// A connected graph's adjacency ([`Adjacency`], the multilevel layout's) with each entry's
/// desired length, and whether all lengths are equal (breadth-first search then suffices).
pub struct Paths {
    adj: Adjacency,
    /// Desired length of the edge of each adjacency entry.
    length: Vec<f32>,
    /// The one length every edge asks for, when they all ask for the same.
    pub uniform: Option<f32>,
}

/// Most sources [`Paths::batch`] searches from at once (one bit each in a word per vertex).
pub const BATCH: usize = 64;

/// Reusable queues and bit sets of a search.
#[derive(Default)]
pub struct PathScratch {
    queue: Vec<u32>,
    heap: BinaryHeap<Reverse<(u32, u32)>>,
    row: Vec<f32>,
    seen: Vec<u64>,
    frontier: Vec<u64>,
    next: Vec<u64>,
    active: Vec<u32>,
    touched: Vec<u32>,
}

impl Paths {
    /// The adjacency of `n` vertices and edges `src`-`dst` of desired lengths `length`; each
    /// vertex lists its edges in edge order.
    ///
    /// # Runtime
    /// O(n + m), three allocations.
    pub fn new(n: usize, src: &[u32], dst: &[u32], length: &[f32]) -> Self {
        let adj = Adjacency::from_edges(n, src, dst);
        let len = adj.edge.iter().map(|&e| length[e as usize]).collect();
        let uniform = match length.first() {
            Some(&l) if length.iter().all(|&v| v == l) => Some(l),
            _ => None,
        };
        Self {
            adj,
            length: len,
            uniform,
        }
    }

    /// Vertex count.
    pub fn len(&self) -> usize {
        self.adj.offset.len() - 1
    }

    /// Edge count.
    pub fn edge_count(&self) -> usize {
        self.adj.next.len() / 2
    }

    /// Whether the graph has no vertex.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The neighbours of `v` and their edges' lengths.
    #[inline]
    pub fn entries(&self, v: u32) -> (&[u32], &[f32]) {
        let r = self.adj.range(v);
        (&self.adj.next[r.clone()], &self.length[r])
    }

    /// Fills `dist` (one entry per vertex) with the shortest-path length from `s`; unreachable
    /// vertices get infinity.
    ///
    /// # Runtime
    /// O(n + m) by breadth-first search for uniform lengths, O(m log n) by Dijkstra otherwise;
    /// no allocation once `scratch` has grown.
    pub fn from_source(&self, s: u32, dist: &mut [f32], scratch: &mut PathScratch) {
        dist.fill(f32::INFINITY);
        dist[s as usize] = 0.0;
        match self.uniform {
            Some(l) => self.bfs(s, l, dist, &mut scratch.queue),
            None => self.dijkstra(s, dist, &mut scratch.heap),
        }
    }

    /// Calls `put(v, k, d)` once for every vertex `v` reached from `sources[k]` (at most
    /// [`BATCH`] sources), with its distance `d`. Uniform lengths search from all the sources
    /// at once, a bit per source in a word per vertex (Then et al.'s multi-source BFS): a
    /// vertex's neighbours are read once per level for all the sources that reach it then.
    ///
    /// # Runtime
    /// O(sum over levels of the degrees of the vertices some source reaches at that level),
    /// at most O(BATCH (n + m)); Dijkstra from each source for unequal lengths.
    pub fn batch(
        &self,
        sources: &[u32],
        scratch: &mut PathScratch,
        mut put: impl FnMut(u32, usize, f32),
    ) {
        assert!(sources.len() <= BATCH, "at most {BATCH} sources at once");
        let n = self.len();
        let Some(l) = self.uniform else {
            let mut row = std::mem::take(&mut scratch.row);
            row.resize(n, 0.0);
            for (k, &s) in sources.iter().enumerate() {
                self.from_source(s, &mut row, scratch);
                for (v, &d) in row.iter().enumerate() {
                    if d.is_finite() {
                        put(v as u32, k, d);
                    }
                }
            }
            scratch.row = row;
            return;
        };
        let PathScratch {
            seen,
            frontier,
            next,
            active,
            touched,
            ..
        } = scratch;
        for v in [&mut *seen, &mut *frontier, &mut *next] {
            v.clear();
            v.resize(n, 0);
        }
        active.clear();
        for (k, &s) in sources.iter().enumerate() {
            if frontier[s as usize] == 0 {
                active.push(s);
            }
            seen[s as usize] |= 1 << k;
            frontier[s as usize] |= 1 << k;
            put(s, k, 0.0);
        }
        let mut level = 0.0f32;
        while !active.is_empty() {
            level += 1.0;
            touched.clear();
            for &u in active.iter() {
                let f = std::mem::take(&mut frontier[u as usize]);
                for &v in self.entries(u).0 {
                    let slot = &mut next[v as usize];
                    if *slot == 0 {
                        touched.push(v);
                    }
                    *slot |= f;
                }
            }
            active.clear();
            for &v in touched.iter() {
                let bits = std::mem::take(&mut next[v as usize]) & !seen[v as usize];
                if bits == 0 {
                    continue;
                }
                seen[v as usize] |= bits;
                frontier[v as usize] = bits;
                active.push(v);
                let mut rest = bits;
                while rest != 0 {
                    put(v, rest.trailing_zeros() as usize, level * l);
                    rest &= rest - 1;
                }
            }
        }
    }

    fn bfs(&self, s: u32, l: f32, dist: &mut [f32], queue: &mut Vec<u32>) {
        queue.clear();
        queue.push(s);
        // Hop counts are exact in `f32` up to 2^24; the length multiplies them at the end.
        let mut head = 0;
        while head < queue.len() {
            let v = queue[head];
            head += 1;
            let dv = dist[v as usize] + 1.0;
            for &w in self.entries(v).0 {
                if dist[w as usize] == f32::INFINITY {
                    dist[w as usize] = dv;
                    queue.push(w);
                }
            }
        }
        if l != 1.0 {
            for d in dist.iter_mut() {
                *d *= l;
            }
        }
    }

    fn dijkstra(&self, s: u32, dist: &mut [f32], heap: &mut BinaryHeap<Reverse<(u32, u32)>>) {
        heap.clear();
        // Non-negative floats order as their bit patterns.
        heap.push(Reverse((0.0f32.to_bits(), s)));
        while let Some(Reverse((bits, v))) = heap.pop() {
            let d = f32::from_bits(bits);
            if d > dist[v as usize] {
                continue;
            }
            let (next, len) = self.entries(v);
            for (&w, &l) in next.iter().zip(len) {
                let nd = d + l;
                if nd < dist[w as usize] {
                    dist[w as usize] = nd;
                    heap.push(Reverse((nd.to_bits(), w)));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bfs_and_dijkstra_agree_on_uniform_lengths() {
        // A 4-cycle with a tail: 0-1-2-3-0, 3-4.
        let (src, dst) = ([0, 1, 2, 3, 3], [1, 2, 3, 0, 4]);
        let uniform = Paths::new(5, &src, &dst, &[2.0; 5]);
        assert_eq!(uniform.uniform, Some(2.0));
        let mut weighted = Paths::new(5, &src, &dst, &[2.0; 5]);
        weighted.uniform = None;
        let mut scratch = PathScratch::default();
        let (mut a, mut b) = (vec![0.0; 5], vec![0.0; 5]);
        uniform.from_source(1, &mut a, &mut scratch);
        weighted.from_source(1, &mut b, &mut scratch);
        assert_eq!(a, vec![2.0, 0.0, 2.0, 4.0, 6.0]);
        assert_eq!(a, b);
    }

    #[test]
    fn a_batch_search_finds_what_each_search_finds() {
        // A 12 x 12 grid with a few chords, 70 sources in batches of up to 64.
        let side = 12u32;
        let (mut src, mut dst) = (vec![], vec![]);
        for r in 0..side {
            for c in 0..side {
                let v = r * side + c;
                if c + 1 < side {
                    src.push(v);
                    dst.push(v + 1);
                }
                if r + 1 < side {
                    src.push(v);
                    dst.push(v + side);
                }
            }
        }
        src.extend([0, 5, 77]);
        dst.extend([143, 100, 12]);
        let n = (side * side) as usize;
        for uniform in [true, false] {
            let mut paths = Paths::new(n, &src, &dst, &vec![1.5; src.len()]);
            if !uniform {
                paths.uniform = None;
            }
            let mut scratch = PathScratch::default();
            let sources: Vec<u32> = (0..70).map(|i| i * 2).collect();
            for chunk in sources.chunks(BATCH) {
                let mut got = vec![f32::NAN; chunk.len() * n];
                paths.batch(chunk, &mut scratch, |v, k, d| got[k * n + v as usize] = d);
                let mut row = vec![0.0; n];
                for (k, &s) in chunk.iter().enumerate() {
                    paths.from_source(s, &mut row, &mut PathScratch::default());
                    assert_eq!(&got[k * n..(k + 1) * n], &row[..], "source {s}");
                }
            }
        }
    }

    #[test]
    fn dijkstra_takes_the_short_way_round() {
        let paths = Paths::new(3, &[0, 1, 0], &[1, 2, 2], &[1.0, 1.0, 5.0]);
        assert_eq!(paths.uniform, None);
        let mut d = vec![0.0; 3];
        paths.from_source(0, &mut d, &mut PathScratch::default());
        assert_eq!(d, vec![0.0, 1.0, 2.0]);
    }
}
