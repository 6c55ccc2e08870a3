//! One connected component laid out from nothing with the preset's stages: coarsened level by
//! level ([`MatchingMerger`]), the coarsest level drawn by MDS, then each finer level placed
//! ([`NeighbourPlacer`]) and refined ([`ForceRefiner`]).

use super::coarsen::MatchingMerger;
use super::coarsest;
use super::params::{MultilevelParams, MultilevelReport, level_plan};
use super::place::{self, NeighbourPlacer};
use super::refine::ForceRefiner;
use super::scratch::RefineScratch;
use super::stages::{Level, LevelLayout, Merger, Placement, Placer};
use crate::core::rng::WarrenRng;

/// Lays out the connected graph `level` from nothing: coarsens it, lays out the coarsest level
/// from its MDS drawing ([`coarsest`]; seeded random positions where MDS does not apply), then
/// places and refines each finer level. Returns the positions.
pub fn layout_connected(
    level: Level,
    params: &MultilevelParams,
    seed: u64,
    scratch: &mut RefineScratch,
    report: &mut MultilevelReport,
) -> (Vec<f32>, Vec<f32>) {
    let (merger, placer) = (MatchingMerger, NeighbourPlacer);
    let refiner = ForceRefiner {
        theta: params.theta,
        parallel: params.parallel,
        ..Default::default()
    };
    let n0 = level.mass.len();
    let coarsest = params.coarsest;
    let mut levels = vec![level];
    let mut parents: Vec<Vec<u32>> = Vec::new();
    loop {
        let fine = levels.last().expect("one level at least");
        let n = fine.mass.len();
        if n <= coarsest {
            break;
        }
        let (coarse, parent) = merger.coarsen(fine, seed ^ levels.len() as u64);
        if coarse.mass.len() as f32 > params.min_shrink * n as f32 {
            break;
        }
        levels.push(coarse);
        parents.push(parent);
    }
    report.levels = report.levels.max(levels.len() as u32);
    let top = levels.last().expect("one level at least");
    let mut plan = level_plan(params, top.mass.len(), n0, true);
    let (mut x, mut y) = match coarsest::mds_positions(top, seed) {
        Some(drawn) => {
            plan.temperature = 1.0;
            drawn
        }
        None => {
            let k = place::mean(&top.length).max(params.length);
            let mut rng = WarrenRng::new(seed);
            let side = (top.mass.len() as f32).sqrt() * k;
            (0..top.mass.len())
                .map(|_| (rng.unit_f32() * side, rng.unit_f32() * side))
                .unzip()
        }
    };
    let mut converged = true;
    let r = refiner.refine(top, &mut x, &mut y, plan, scratch);
    converged &= r.converged;
    report.work += u64::from(r.iterations) * top.mass.len() as u64;
    let mut last = r;
    for depth in (0..parents.len()).rev() {
        let (fine, coarse) = (&levels[depth], &levels[depth + 1]);
        let (mut fx, mut fy) = (Vec::new(), Vec::new());
        let placement = Placement {
            fine,
            parent: &parents[depth],
            coarse,
            cx: &x,
            cy: &y,
            seed: seed ^ (depth as u64).wrapping_mul(0x9E37_79B9),
        };
        placer.place(placement, &mut fx, &mut fy);
        let plan = level_plan(params, fine.mass.len(), n0, false);
        last = refiner.refine(fine, &mut fx, &mut fy, plan, scratch);
        converged &= last.converged;
        report.work += u64::from(last.iterations) * fine.mass.len() as u64;
        (x, y) = (fx, fy);
    }
    report.iterations = report.iterations.max(last.iterations);
    report.converged &= converged;
    (x, y)
}
