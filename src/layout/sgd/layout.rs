//! The stress layout of a whole graph: each connected component drawn apart (random start or
//! multilevel force drawing, then stress refinement) and the drawings packed in rows.

use super::full::{self, Full};
use super::paths::Paths;
use super::sparse::Sparse;
use super::{StressParams, StressReport, schedule};
use crate::core::rng::{WarrenRng, mix};
use crate::layout::LayoutGraph;
use crate::layout::multilevel::components::{components, pack};
use crate::layout::multilevel::{
    Level, MultilevelParams, MultilevelReport, RefineScratch, layout_connected,
};

/// Lays out `graph` (`n` vertices) at low stress: each component by [`refine_component`],
/// packed side by side. Fills `x`, `y`.
///
/// # Runtime
/// Per component, O(n^2) per epoch up to `full_up_to` vertices, O(h n + m) above, plus the
/// multilevel drawing it starts from.
pub fn layout_stress(
    n: usize,
    graph: &LayoutGraph<'_>,
    params: &StressParams,
    force: &MultilevelParams,
    seed: u64,
    x: &mut Vec<f32>,
    y: &mut Vec<f32>,
) -> (StressReport, MultilevelReport) {
    let length = |e: usize| force.length * graph.length_factor.map_or(1.0, |f| f[e]);
    let (comp, count) = components(n, graph.src, graph.dst);
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
    let mut report = (StressReport::default(), MultilevelReport::default());
    report.1.converged = true;
    let mut largest = 0;
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
            let (drawing, r) = refine_component(level, params, force, seed, &mut report.1);
            if size > largest {
                largest = size;
                report.0 = r;
            }
            drawing
        })
        .collect();
    if count == 1 {
        (*x, *y) = drawings.into_iter().next().expect("one component");
        return report;
    }
    let offsets = pack(&drawings, force.length);
    x.clear();
    y.clear();
    for v in 0..n {
        let (c, i) = (comp[v] as usize, local[v] as usize);
        x.push(drawings[c].0[i] + offsets[c].0);
        y.push(drawings[c].1[i] + offsets[c].1);
    }
    report
}

/// One connected component: a start drawing (seeded random positions up to `cold_up_to`
/// vertices, the multilevel force drawing above, scaled to the targets), then full or sparse
/// stress by stochastic gradient descent.
fn refine_component(
    level: Level,
    params: &StressParams,
    force: &MultilevelParams,
    seed: u64,
    force_report: &mut MultilevelReport,
) -> ((Vec<f32>, Vec<f32>), StressReport) {
    let n = level.mass.len();
    if n < 2 {
        return ((vec![0.0; n], vec![0.0; n]), StressReport::default());
    }
    let paths = Paths::new(n, &level.src, &level.dst, &level.length);
    let cold = n <= params.cold_up_to;
    let (mut x, mut y) = if cold {
        let side = (n as f32).sqrt() * mean_length(&level.length);
        let mut rng = WarrenRng::new(mix(seed, 2));
        (0..n)
            .map(|_| (rng.unit_f32() * side, rng.unit_f32() * side))
            .unzip()
    } else {
        let mut scratch = RefineScratch::default();
        layout_connected(level, force, seed, &mut scratch, force_report)
    };
    let free = vec![1.0f32; n];
    let parallel = params.parallel && n >= full::PARALLEL_FROM;
    let skip = if cold { 0 } else { params.warm_skip };
    if n <= params.full_up_to {
        let model = Full::new(&paths, mix(seed, 3), parallel, !cold);
        let (d_min, d_max) = model.range;
        let etas = schedule(
            d_max * d_max,
            params.eps * d_min * d_min,
            params.epochs,
            skip,
        );
        if !cold {
            fit_scale(&paths, &mut x, &mut y, seed);
        }
        model.run(&mut x, &mut y, &free, &etas, mix(seed, 4), parallel);
        let report = StressReport {
            epochs: etas.len() as u32,
            pivots: 0,
        };
        return ((x, y), report);
    }
    let pivots = params.pivots.min((params.max_terms / n).max(8));
    let model = Sparse::new(&paths, pivots, mix(seed, 3), parallel);
    let (w_min, w_max) = model.range;
    let etas = schedule(1.0 / w_min, params.eps / w_max, params.epochs, skip);
    if !cold {
        fit_scale(&paths, &mut x, &mut y, seed);
    }
    model.run(&mut x, &mut y, &free, &etas, mix(seed, 4), parallel);
    let report = StressReport {
        epochs: etas.len() as u32,
        pivots: model.pivot_count() as u32,
    };
    ((x, y), report)
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
    let mut scratch = super::paths::PathScratch::default();
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
