//! The stress layout of a whole graph: each connected component drawn apart (random start or
//! multilevel force drawing, then stress refinement) and the drawings packed in rows.

use super::full::{self, Full};
use super::paths::{PathScratch, Paths};
use super::pivot_mds::pivot_mds;
use super::small::Small;
use super::sparse::{Near, Sparse};
use super::{Given, SMALL_WORLD_PIVOTS, StressParams, StressReport, schedule};
use crate::core::rng::{WarrenRng, mix};
use crate::core::workers::on_workers;
use crate::layout::LayoutGraph;
use crate::layout::multilevel::components::{components, pack};
use crate::layout::multilevel::{
    Level, MultilevelParams, MultilevelReport, RefineScratch, layout_connected,
};

/// Eccentricity (in mean edge lengths) from which full stress puts its slots in breadth-first
/// order: long graphs such as meshes and power grids, whose searches it makes several times
/// cheaper (4elt: 4.2 s of searches in slot-shuffled order, 1.6 s in breadth-first order),
/// while small-world graphs keep the better mixed shuffled order (polblogs: stress 0.135 in
/// breadth-first order against 0.124 shuffled).
const LOCAL_FROM: f32 = 24.0;

/// Lays out `graph` (`n` vertices) at low stress: each component by [`refine_component`],
/// packed side by side (see [`Given`] for what a start drawing and pins change). Fills `x`,
/// `y`.
///
/// Runs on rayon's workers ([`on_workers`]).
///
/// # Runtime
/// Per component, O(n^2) per epoch up to `full_up_to` vertices, O(h n + m) above, plus the
/// start drawing.
#[allow(clippy::too_many_arguments)]
pub fn layout_stress(
    n: usize,
    graph: &LayoutGraph<'_>,
    params: &StressParams,
    force: &MultilevelParams,
    seed: u64,
    given: Given<'_>,
    x: &mut Vec<f32>,
    y: &mut Vec<f32>,
) -> (StressReport, MultilevelReport) {
    on_workers(|| stress_components(n, graph, params, force, seed, given, x, y))
}

/// [`layout_stress`] on the calling thread.
#[allow(clippy::too_many_arguments)]
fn stress_components(
    n: usize,
    graph: &LayoutGraph<'_>,
    params: &StressParams,
    force: &MultilevelParams,
    seed: u64,
    given: Given<'_>,
    x: &mut Vec<f32>,
    y: &mut Vec<f32>,
) -> (StressReport, MultilevelReport) {
    let length = |e: usize| force.length * graph.length_factor.map_or(1.0, |f| f[e]);
    let (comp, count) = components(n, graph.src, graph.dst);
    let mut local = vec![0u32; n];
    let mut levels: Vec<Level> = vec![Level::default(); count];
    let mut members: Vec<Vec<u32>> = vec![Vec::new(); count];
    for v in 0..n {
        let c = comp[v] as usize;
        local[v] = levels[c].mass.len() as u32;
        levels[c].mass.push(1.0);
        levels[c].radius.push(0.0);
        members[c].push(v as u32);
    }
    for (e, (&a, &b)) in graph.src.iter().zip(graph.dst).enumerate() {
        let l = &mut levels[comp[a as usize] as usize];
        l.src.push(local[a as usize]);
        l.dst.push(local[b as usize]);
        l.length.push(length(e));
    }
    let pick = |pair: Option<(&[f32], &[f32])>, c: usize| {
        pair.map(|(px, py)| -> (Vec<f32>, Vec<f32>) {
            members[c]
                .iter()
                .map(|&v| (px[v as usize], py[v as usize]))
                .unzip()
        })
    };
    let mut report = (StressReport::default(), MultilevelReport::default());
    report.1.converged = true;
    let mut largest = 0;
    let mut pinned = vec![false; count];
    let drawings: Vec<(Vec<f32>, Vec<f32>)> = levels
        .into_iter()
        .enumerate()
        .map(|(c, level)| {
            let size = level.mass.len();
            let seed = if count == 1 {
                seed
            } else {
                mix(seed, c as u64)
            };
            let fixed = Fixed {
                start: pick(given.start, c),
                pins: pick(given.pins, c).filter(|(px, _)| px.iter().any(|p| !p.is_nan())),
            };
            pinned[c] = fixed.pins.is_some();
            let (drawing, r) = refine_component(level, params, force, seed, fixed, &mut report.1);
            if size > largest {
                largest = size;
                report.0 = r;
            }
            drawing
        })
        .collect();
    let offsets = if given.start.is_some() || count == 1 {
        vec![(0.0, 0.0); count]
    } else {
        place_components(&drawings, &pinned, force.length)
    };
    x.clear();
    y.clear();
    for v in 0..n {
        let (c, i) = (comp[v] as usize, local[v] as usize);
        x.push(drawings[c].0[i] + offsets[c].0);
        y.push(drawings[c].1[i] + offsets[c].1);
    }
    report
}

/// Offsets of the components' drawings: pinned ones stay where their pins put them, the
/// others are packed in rows ([`pack`]), to the right of the pinned ones.
fn place_components(
    drawings: &[(Vec<f32>, Vec<f32>)],
    pinned: &[bool],
    gap: f32,
) -> Vec<(f32, f32)> {
    let free: Vec<usize> = (0..drawings.len()).filter(|&c| !pinned[c]).collect();
    let packed = pack(
        &free
            .iter()
            .map(|&c| drawings[c].clone())
            .collect::<Vec<_>>(),
        gap,
    );
    let mut offsets = vec![(0.0, 0.0); drawings.len()];
    let (mut right, mut bottom) = (f32::NEG_INFINITY, f32::INFINITY);
    for (c, (x, y)) in drawings.iter().enumerate().filter(|&(c, _)| pinned[c]) {
        let _ = c;
        right = x.iter().copied().fold(right, f32::max);
        bottom = y.iter().copied().fold(bottom, f32::min);
    }
    let shift = if right.is_finite() {
        (right + gap, bottom)
    } else {
        (0.0, 0.0)
    };
    for (&c, &(dx, dy)) in free.iter().zip(&packed) {
        offsets[c] = (dx + shift.0, dy + shift.1);
    }
    offsets
}

/// A component's share of [`Given`]: its start drawing and its pins (NaN: free).
struct Fixed {
    start: Option<(Vec<f32>, Vec<f32>)>,
    pins: Option<(Vec<f32>, Vec<f32>)>,
}

/// One connected component: a start drawing (the caller's; seeded random positions up to
/// `random_up_to` vertices; pivot MDS up to `mds_up_to`; the multilevel force drawing above),
/// scaled to the targets and moved onto the pins, then full or sparse stress by stochastic
/// gradient descent with the pinned vertices held.
fn refine_component(
    level: Level,
    params: &StressParams,
    force: &MultilevelParams,
    seed: u64,
    fixed: Fixed,
    force_report: &mut MultilevelReport,
) -> ((Vec<f32>, Vec<f32>), StressReport) {
    let n = level.mass.len();
    let paths = Paths::new(n, &level.src, &level.dst, &level.length);
    let unit = mean_length(&level.length);
    // Where the start drawing comes from decides the steps and whether it is fitted.
    let (mut skip, mut drawn) = (params.warm_skip, true);
    let given = fixed.start.is_some();

    let (mut x, mut y) = match fixed.start {
        Some(start) => {
            (skip, drawn) = (params.given_skip, false);
            start
        }
        None if n <= params.random_up_to => {
            (skip, drawn) = (0, false);
            random_drawing(n, unit, seed)
        }
        None if n <= params.mds_up_to => {
            let pivots = params.mds_pivots.min(n / 4).max(8);
            let parallel = params.parallel && n >= full::PARALLEL_FROM;
            pivot_mds(&paths, pivots, mix(seed, 6), parallel).unwrap_or_else(|| {
                (skip, drawn) = (0, false);
                random_drawing(n, unit, seed)
            })
        }
        None => {
            let mut scratch = RefineScratch::default();
            layout_connected(level, force, seed, &mut scratch, force_report)
        }
    };
    if n < 2 {
        return ((x, y), StressReport::default());
    }
    if drawn {
        fit_scale(&paths, &mut x, &mut y, seed);
    }
    let mut free = vec![1.0f32; n];
    if let Some((px, py)) = &fixed.pins {
        if !given {
            onto_pins(&mut x, &mut y, px, py);
        }
        for v in 0..n {
            if !px[v].is_nan() {
                (x[v], y[v], free[v]) = (px[v], py[v], 0.0);
            }
        }
    }
    let parallel = params.parallel && n >= full::PARALLEL_FROM;
    if n <= params.full_up_to {
        let etas_for = |(d_min, d_max): (f32, f32)| {
            schedule(
                d_max * d_max,
                params.eps * d_min * d_min,
                params.epochs,
                skip,
            )
        };
        let epochs = if n <= params.small_up_to {
            let mut model = Small::new(&paths);
            let etas = etas_for(model.range);
            model.run(&mut x, &mut y, &free, &etas, mix(seed, 4));
            etas.len()
        } else {
            let local = eccentricity(&paths, seed) >= LOCAL_FROM * unit;
            let model = Full::new(&paths, mix(seed, 3), parallel, local);
            let etas = etas_for(model.range);
            model.run(&mut x, &mut y, &free, &etas, mix(seed, 4), parallel);
            etas.len()
        };
        let report = StressReport {
            epochs: epochs as u32,
            pivots: 0,
        };
        return ((x, y), report);
    }
    let report = sparse_stress(
        &paths,
        params,
        (&mut x, &mut y),
        &free,
        (skip, given),
        seed,
        unit,
    );
    ((x, y), report)
}

/// Sparse stress on the drawing `x`, `y` of the connected graph `paths` (`free`: each
/// vertex's freedom), the first `skip` epochs of the schedule left out; a `given` start (the
/// caller's drawing) runs as many small steps as under full stress. `unit` is the mean edge
/// length, the measure of the small-world test ([`StressParams::small_world_terms`]).
fn sparse_stress(
    paths: &Paths,
    params: &StressParams,
    (x, y): (&mut [f32], &mut [f32]),
    free: &[f32],
    (mut skip, given): (u32, bool),
    seed: u64,
    unit: f32,
) -> StressReport {
    let n = paths.len();
    let parallel = params.parallel && n >= full::PARALLEL_FROM;
    let mut pivots = params.pivots;
    if params.small_world_terms > 0 && eccentricity(paths, seed) < LOCAL_FROM * unit {
        let wide = (params.small_world_terms / n).min(SMALL_WORLD_PIVOTS);
        pivots = pivots.max(wide);
    }
    let pivots = pivots.min((params.max_terms / n).max(8));
    // Near pairs within the same memory as the pivot terms: at most `max_terms` in all.
    let near = Near {
        radius: params.near.radius,
        cap: params.near.cap.min(2 * params.max_terms / n),
    };
    if given {
        // The caller's drawing runs the same number of small steps as under full stress.
        skip = params
            .sparse_epochs
            .saturating_sub(params.epochs.saturating_sub(params.given_skip));
    }
    let model = Sparse::new(paths, pivots, near, mix(seed, 3), parallel);
    let (w_min, w_max) = model.range;
    let etas = schedule(
        1.0 / w_min,
        params.sparse_eps / w_max,
        params.sparse_epochs,
        skip,
    );
    model.run(x, y, free, &etas, mix(seed, 4), parallel);
    StressReport {
        epochs: etas.len() as u32,
        pivots: model.pivot_count() as u32,
    }
}

/// `n` positions drawn from `seed` in a square of side `sqrt(n)` edge lengths `unit`.
fn random_drawing(n: usize, unit: f32, seed: u64) -> (Vec<f32>, Vec<f32>) {
    let side = (n as f32).sqrt() * unit;
    let mut rng = WarrenRng::new(mix(seed, 2));
    (0..n)
        .map(|_| (rng.unit_f32() * side, rng.unit_f32() * side))
        .unzip()
}

/// Moves a fresh drawing so that the centroid of its pinned vertices lies on the centroid of
/// their pins.
fn onto_pins(x: &mut [f32], y: &mut [f32], px: &[f32], py: &[f32]) {
    let (mut sx, mut sy, mut tx, mut ty, mut k) = (0.0f64, 0.0f64, 0.0f64, 0.0f64, 0.0f64);
    for v in 0..x.len() {
        if !px[v].is_nan() {
            sx += f64::from(x[v]);
            sy += f64::from(y[v]);
            tx += f64::from(px[v]);
            ty += f64::from(py[v]);
            k += 1.0;
        }
    }
    if k > 0.0 {
        let (dx, dy) = (((tx - sx) / k) as f32, ((ty - sy) / k) as f32);
        for v in 0..x.len() {
            x[v] += dx;
            y[v] += dy;
        }
    }
}

/// The largest distance from a vertex drawn from `seed`.
fn eccentricity(paths: &Paths, seed: u64) -> f32 {
    let mut row = vec![0.0f32; paths.len()];
    let s = WarrenRng::new(mix(seed, 8)).below(paths.len() as u32);
    paths.from_source(s, &mut row, &mut PathScratch::default());
    row.iter()
        .copied()
        .filter(|d| d.is_finite())
        .fold(0.0, f32::max)
}

/// The mean of `values` (1 when empty).
fn mean_length(values: &[f32]) -> f32 {
    if values.is_empty() {
        return 1.0;
    }
    (values.iter().map(|&v| f64::from(v)).sum::<f64>() / values.len() as f64) as f32
}

/// Scales the drawing about its first vertex by the factor that minimises the weighted stress
/// of the pairs of every vertex with a few sources drawn from `seed`.
fn fit_scale(paths: &Paths, x: &mut [f32], y: &mut [f32], seed: u64) {
    let n = paths.len();
    let mut rng = WarrenRng::new(mix(seed, 5));
    let mut row = vec![0.0f32; n];
    let mut scratch = PathScratch::default();
    let (mut num, mut den) = (0.0f64, 0.0f64);
    for _ in 0..8 {
        let s = rng.below(n as u32) as usize;
        paths.from_source(s as u32, &mut row, &mut scratch);
        for v in 0..n {
            let d = f64::from(row[v]);
            if d > 0.0 && d.is_finite() {
                let m = f64::from(x[v] - x[s]).hypot(f64::from(y[v] - y[s]));
                num += m / d;
                den += (m / d) * (m / d);
            }
        }
    }
    if den > 0.0 {
        let a = (num / den) as f32;
        for v in x.iter_mut().chain(y.iter_mut()) {
            *v *= a;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::level_like_graph;

    /// The pivots the default's refinement gives the connected graph `src`-`dst`.
    fn refined_pivots(n: usize, src: &[u32], dst: &[u32]) -> u32 {
        let graph = LayoutGraph {
            src,
            dst,
            length_factor: None,
        };
        let params = StressParams {
            parallel: false,
            ..StressParams::refine(1_000)
        };
        let force = MultilevelParams {
            iterations: 2,
            ..MultilevelParams::default()
        };
        let (mut x, mut y) = (Vec::new(), Vec::new());
        let given = Given::default();
        let (report, _) = layout_stress(n, &graph, &params, &force, 3, given, &mut x, &mut y);
        assert_eq!(x.len(), n);
        report.pivots
    }

    #[test]
    fn small_world_components_get_more_pivots_long_ones_keep_the_default() {
        // A ring with chords to random vertices: eccentricity about 10 edges.
        let n = 20_000;
        let mut rng = WarrenRng::new(9);
        let (mut src, mut dst) = (Vec::new(), Vec::new());
        for v in 0..n as u32 {
            src.extend([v, v]);
            dst.extend([(v + 1) % n as u32, rng.below(n as u32)]);
        }
        let (s, d): (Vec<u32>, Vec<u32>) = src
            .iter()
            .zip(&dst)
            .filter(|(a, b)| a != b)
            .map(|(&a, &b)| (a, b))
            .unzip();
        // 3,200,000 pivot terms over 20,000 vertices.
        assert_eq!(refined_pivots(n as usize, &s, &d), 160);
        // A level-like graph: long chains, eccentricity in the hundreds.
        let (src, dst) = level_like_graph(n as usize, 4);
        assert_eq!(refined_pivots(n as usize, &src, &dst), 32);
    }
}
