//! Spanning-tree edge weightings (seed 001: random weights, then "a little bit less randomness"):
//! each produces the order in which Kruskal considers edges.
//!
//! `random` is a uniform shuffle, which is exactly Kruskal over independent continuous weights.
//! The other weightings compute a weight per edge, quantise it to 32 bits and radix-sort
//! `(weight, edge id)` keys, so ties break by edge id and the order is deterministic.

use crate::core::rng::WarrenRng;
use crate::maze::config::{Axis, Gradient, MazeConfig, Topology as Kind, Weighting};
use crate::maze::topology::{Link, Topology};

/// Reusable buffers for edge ordering.
#[derive(Default)]
pub struct OrderScratch {
    keys: Vec<u64>,
    tmp: Vec<u64>,
    links: Vec<Link>,
}

/// Fills `order` with the physical edges in the order Kruskal takes them. `all_links`, when
/// given, is `topo`'s full edge list in id order (precomputed).
///
/// # Runtime
/// O(E) for every weighting (shuffle, or an 8-bit LSD radix sort on 32-bit keys); no allocation
/// once the buffers have grown.
pub fn edge_order<T: Topology>(
    topo: &T,
    cfg: &MazeConfig,
    rng: &mut WarrenRng,
    scratch: &mut OrderScratch,
    order: &mut Vec<Link>,
    all_links: Option<&[Link]>,
) {
    order.clear();
    if cfg.weighting == Weighting::Random {
        // PERF: endpoints travel with the id so Kruskal never divides to recover them, and a
        // fixed lattice's edge list is copied from the generator rather than rebuilt.
        match all_links {
            Some(links) => order.extend_from_slice(links),
            None => topo.for_each_edge(|link| order.push(link)),
        }
        rng.shuffle(order);
        return;
    }
    // Normalise positions to [0, 1]: lattice rooms sit at 0..=W-1, Delaunay points in (0, W).
    let (w, h) = match cfg.topology {
        Kind::Lattice => (cfg.width.max(2) - 1, cfg.height.max(2) - 1),
        Kind::Delaunay => (cfg.width, cfg.height),
    };
    let (sx, sy) = (1.0 / w as f32, 1.0 / h as f32);
    let keys = &mut scratch.keys;
    let links = &mut scratch.links;
    keys.clear();
    links.clear();
    topo.for_each_edge(|link| {
        let (a, b) = (link.a, link.b);
        let (pa, pb) = (topo.position(a), topo.position(b));
        let noise = rng.unit_f32();
        let weight = match cfg.weighting {
            Weighting::Random => unreachable!("handled above"),
            Weighting::Biased => {
                let d = (pb - pa).abs();
                let across = match cfg.bias_axis {
                    Axis::Horizontal => d.y > d.x,
                    Axis::Vertical => d.x > d.y,
                };
                (noise + if across { cfg.bias as f32 } else { 0.0 }) / (1.0 + cfg.bias as f32)
            }
            Weighting::Gradient => {
                let m = (pa + pb) * 0.5;
                let (u, v) = (m.x * sx, m.y * sy);
                let height = match cfg.gradient {
                    Gradient::X => u,
                    Gradient::Y => v,
                    Gradient::XPlusY => (u + v) * 0.5,
                    Gradient::XMinusY => (u - v + 1.0) * 0.5,
                    Gradient::Radial => {
                        let (cx, cy) =
                            (cfg.gradient_center[0] as f32, cfg.gradient_center[1] as f32);
                        ((u - cx).hypot(v - cy) / std::f32::consts::SQRT_2).min(1.0)
                    }
                };
                let n = cfg.noise as f32;
                n * noise + (1.0 - n) * height
            }
        };
        // Weights lie in [0, 1]; scale to 32 bits so keys compare as integers.
        let q = (weight.clamp(0.0, 1.0) * u32::MAX as f32) as u32;
        // Low half: position in edge-id order, so ties break by edge id.
        keys.push((u64::from(q) << 32) | links.len() as u64);
        links.push(link);
    });
    radix_sort_high32(keys, &mut scratch.tmp);
    order.extend(keys.iter().map(|&k| links[k as u32 as usize]));
}

/// Stable LSD radix sort of `keys` by their high 32 bits (four 8-bit passes).
fn radix_sort_high32(keys: &mut Vec<u64>, tmp: &mut Vec<u64>) {
    tmp.clear();
    tmp.resize(keys.len(), 0);
    for pass in 0..4 {
        let shift = 32 + pass * 8;
        let mut count = [0usize; 257];
        for &k in keys.iter() {
            count[((k >> shift) & 0xFF) as usize + 1] += 1;
        }
        if count.contains(&keys.len()) {
            continue; // every key has the same byte here: the pass would be the identity
        }
        for i in 0..256 {
            count[i + 1] += count[i];
        }
        for &k in keys.iter() {
            let slot = &mut count[((k >> shift) & 0xFF) as usize];
            tmp[*slot] = k;
            *slot += 1;
        }
        std::mem::swap(keys, tmp);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::maze::topology::Lattice;

    #[test]
    fn radix_sort_matches_std_sort() {
        let mut rng = WarrenRng::new(5);
        let mut keys: Vec<u64> = (0..1000u64)
            .map(|i| (u64::from(rng.next_u32() % 50) << 32) | i)
            .collect();
        let mut expected = keys.clone();
        expected.sort_unstable();
        radix_sort_high32(&mut keys, &mut Vec::new());
        assert_eq!(keys, expected);
    }

    #[test]
    fn every_weighting_orders_every_edge_once() {
        let lat = Lattice::new(9, 7, None);
        for weighting in [Weighting::Random, Weighting::Biased, Weighting::Gradient] {
            for gradient in [Gradient::X, Gradient::Radial, Gradient::XMinusY] {
                let cfg = MazeConfig {
                    weighting,
                    gradient,
                    width: 9,
                    height: 7,
                    ..Default::default()
                };
                let mut order = Vec::new();
                edge_order(
                    &lat,
                    &cfg,
                    &mut WarrenRng::new(1),
                    &mut OrderScratch::default(),
                    &mut order,
                    None,
                );
                let mut sorted: Vec<u32> = order.iter().map(|l| l.edge).collect();
                sorted.sort_unstable();
                assert_eq!(sorted, (0..lat.edge_slots() as u32).collect::<Vec<_>>());
            }
        }
    }

    #[test]
    fn full_bias_puts_preferred_edges_first() {
        let lat = Lattice::new(6, 6, None);
        let cfg = MazeConfig {
            weighting: Weighting::Biased,
            bias: 1.0,
            ..Default::default()
        };
        let mut order = Vec::new();
        edge_order(
            &lat,
            &cfg,
            &mut WarrenRng::new(2),
            &mut OrderScratch::default(),
            &mut order,
            None,
        );
        let horizontal = 6 * 5;
        assert!(
            order[..horizontal]
                .iter()
                .all(|l| l.edge < horizontal as u32)
        );
    }
}
