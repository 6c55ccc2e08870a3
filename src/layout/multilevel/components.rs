//! The component splitter of the multilevel layout: each connected component is laid out on its
//! own (repulsion between components would only push them apart forever) and the drawings are
//! packed into rows, tallest first, the rows about as wide as the packing is tall.

use super::connected::layout_connected;
use super::params::{MultilevelParams, MultilevelReport};
use super::scratch::RefineScratch;
use super::stages::Level;
use crate::core::rng::mix;
use crate::core::sets::{UnionFind, joins};
use crate::core::workers::on_workers;
use crate::layout::LayoutGraph;

/// Each vertex's component, numbered in order of the components' smallest vertices, and the
/// component count.
///
/// # Runtime
/// O(n log n + m): the shared [`UnionFind`], then one pass numbering its sets.
pub fn components(n: usize, src: &[u32], dst: &[u32]) -> (Vec<u32>, usize) {
    let mut sets = UnionFind::default();
    joins(n, src.iter().copied().zip(dst.iter().copied()), &mut sets);
    let mut number = vec![u32::MAX; n];
    let mut count = 0;
    let mut comp = vec![0u32; n];
    for v in 0..n as u32 {
        let label = &mut number[sets.find(v) as usize];
        if *label == u32::MAX {
            *label = count;
            count += 1;
        }
        comp[v as usize] = *label;
    }
    (comp, count as usize)
}

/// Lays out `graph` (`n` vertices) with the multilevel preset: each connected component apart
/// ([`layout_components`]), packed side by side. Fills `x`, `y` with one position per vertex.
///
/// Runs on rayon's workers ([`on_workers`]).
///
/// # Runtime
/// About O((n log n + m) * iterations) over all levels; allocates each level's graph once.
pub fn layout_multilevel(
    n: usize,
    graph: &LayoutGraph<'_>,
    params: &MultilevelParams,
    seed: u64,
    x: &mut Vec<f32>,
    y: &mut Vec<f32>,
) -> MultilevelReport {
    on_workers(|| layout_components(n, graph, params, seed, x, y))
}

/// Lays out every component of `graph` and packs them; see [`layout_multilevel`].
pub fn layout_components(
    n: usize,
    graph: &LayoutGraph<'_>,
    params: &MultilevelParams,
    seed: u64,
    x: &mut Vec<f32>,
    y: &mut Vec<f32>,
) -> MultilevelReport {
    let mut report = MultilevelReport {
        converged: true,
        ..Default::default()
    };
    let mut scratch = RefineScratch::default();
    let length = |e: usize| params.length * graph.length_factor.map_or(1.0, |f| f[e]);
    let (comp, count) = components(n, graph.src, graph.dst);
    if count <= 1 {
        let level = Level {
            src: graph.src.to_vec(),
            dst: graph.dst.to_vec(),
            length: (0..graph.src.len()).map(length).collect(),
            mass: vec![1.0; n],
            radius: vec![0.0; n],
        };
        (*x, *y) = layout_connected(level, params, seed, &mut scratch, &mut report);
        return report;
    }
    // Dense indices within each component, and each component's level.
    let mut local = vec![0u32; n];
    let mut levels: Vec<Level> = vec![Level::default(); count];
    for v in 0..n {
        let l = &mut levels[comp[v] as usize];
        local[v] = l.mass.len() as u32;
        l.mass.push(1.0);
        l.radius.push(0.0);
    }
    for (e, (&a, &b)) in graph.src.iter().zip(graph.dst).enumerate() {
        let l = &mut levels[comp[a as usize] as usize];
        l.src.push(local[a as usize]);
        l.dst.push(local[b as usize]);
        l.length.push(length(e));
    }
    let drawings: Vec<(Vec<f32>, Vec<f32>)> = levels
        .into_iter()
        .enumerate()
        .map(|(c, level)| {
            if level.mass.len() == 1 {
                return (vec![0.0], vec![0.0]);
            }
            layout_connected(
                level,
                params,
                mix(seed, c as u64),
                &mut scratch,
                &mut report,
            )
        })
        .collect();
    let offsets = pack(&drawings, params.length);
    x.clear();
    y.clear();
    for v in 0..n {
        let (c, i) = (comp[v] as usize, local[v] as usize);
        let (dx, dy) = offsets[c];
        x.push(drawings[c].0[i] + dx);
        y.push(drawings[c].1[i] + dy);
    }
    report
}

/// Offsets that pack the drawings into rows, `gap` apart: tallest first, a new row once a row
/// is as wide as the square root of the total area.
pub fn pack(drawings: &[(Vec<f32>, Vec<f32>)], gap: f32) -> Vec<(f32, f32)> {
    let boxes: Vec<[f32; 4]> = drawings
        .iter()
        .map(|(x, y)| {
            let lo = |v: &[f32]| v.iter().copied().fold(f32::INFINITY, f32::min);
            let hi = |v: &[f32]| v.iter().copied().fold(f32::NEG_INFINITY, f32::max);
            [lo(x), lo(y), hi(x), hi(y)]
        })
        .collect();
    let area: f64 = boxes
        .iter()
        .map(|b| f64::from(b[2] - b[0] + gap) * f64::from(b[3] - b[1] + gap))
        .sum();
    let widest = boxes.iter().map(|b| b[2] - b[0] + gap).fold(0.0, f32::max);
    let row_width = (area.sqrt() as f32).max(widest);
    let mut order: Vec<usize> = (0..boxes.len()).collect();
    order.sort_by(|&a, &b| {
        let (ha, hb) = (boxes[a][3] - boxes[a][1], boxes[b][3] - boxes[b][1]);
        hb.total_cmp(&ha).then(a.cmp(&b))
    });
    let mut offsets = vec![(0.0, 0.0); boxes.len()];
    let (mut cursor, mut row_y, mut row_h) = (0.0f32, 0.0f32, 0.0f32);
    for c in order {
        let b = boxes[c];
        let (w, h) = (b[2] - b[0] + gap, b[3] - b[1] + gap);
        if cursor > 0.0 && cursor + w > row_width {
            row_y += row_h;
            cursor = 0.0;
            row_h = 0.0;
        }
        offsets[c] = (cursor - b[0], row_y - b[1]);
        cursor += w;
        row_h = row_h.max(h);
    }
    offsets
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn components_are_numbered_by_their_smallest_vertex() {
        let (comp, count) = components(7, &[5, 1, 6], &[3, 0, 5]);
        assert_eq!(count, 4);
        assert_eq!(comp, vec![0, 0, 1, 2, 3, 2, 2]);
    }

    #[test]
    fn packed_drawings_do_not_overlap() {
        let square = |s: f32| (vec![0.0, s, 0.0, s], vec![0.0, 0.0, s, s]);
        let drawings = vec![square(3.0), square(1.0), square(2.0), square(1.0)];
        let offsets = pack(&drawings, 0.5);
        let boxes: Vec<[f32; 4]> = drawings
            .iter()
            .zip(&offsets)
            .map(|((x, y), &(dx, dy))| {
                let s = x[1];
                [x[0] + dx, y[0] + dy, s + dx, s + dy]
            })
            .collect();
        for i in 0..boxes.len() {
            for j in i + 1..boxes.len() {
                let (a, b) = (boxes[i], boxes[j]);
                let apart = a[2] < b[0] || b[2] < a[0] || a[3] < b[1] || b[3] < a[1];
                assert!(apart, "{i} {j}: {a:?} {b:?}");
            }
        }
    }
}
