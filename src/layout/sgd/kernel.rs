//! The stress step of one term, on eight lanes and in scalar code (the same operations, so a
//! pair gets the same bits either way): for a pair `i`, `j` drawn `m` apart that should be `d`
//! apart, with weight `w = 1 / d^2` and step `mu = min(eta w, 1)`, both ends move along the
//! pair's direction by `mu (m - d) / 2` (Zheng, Pawar and Goodman's update), times each end's
//! freedom (1, or 0 for a pinned vertex). The step is computed with one division, as
//! `(m - d) / (2 m max(d^2 / eta, 1))`. A term whose `d` is 0 (the padding of a block) moves
//! nothing: its lanes are masked off.
//!
//! Only operations IEEE 754 rounds once are used (no fused multiply-add, no approximate
//! reciprocal), so the default x86-64-v3 build and a baseline build move every vertex to the
//! same bits (`crate::core::portable`'s contract).

use wide::f32x8;

/// Drawn distances are floored here, so two vertices on one spot do not divide by zero.
const TINY: f32 = 1e-12;

/// Eight lanes from `v[at..at + 8]`.
#[inline(always)]
fn load(v: &[f32], at: usize) -> f32x8 {
    let lanes: [f32; 8] = v[at..at + 8].try_into().expect("eight lanes");
    f32x8::from(lanes)
}

/// Writes eight lanes to `v[at..at + 8]`.
#[inline(always)]
fn store(v: &mut [f32], at: usize, lanes: f32x8) {
    v[at..at + 8].copy_from_slice(&lanes.to_array());
}

/// How a task stores its targets: as `f32` lengths, or as hop counts (`u16`) times one length
/// common to every edge, half the memory to stream through each epoch.
pub trait Target: Copy + Default + Send + Sync {
    /// Eight targets from `v[at..at + 8]`, in lengths.
    fn lanes(v: &[Self], at: usize, unit: f32) -> f32x8;
    /// One target, in lengths: the same bits as its lane.
    fn get(self, unit: f32) -> f32;
    /// The stored form of target `d`.
    fn encode(d: f32, unit: f32) -> Self;
}

impl Target for f32 {
    #[inline(always)]
    fn lanes(v: &[Self], at: usize, _: f32) -> f32x8 {
        load(v, at)
    }
    #[inline(always)]
    fn get(self, _: f32) -> f32 {
        self
    }
    fn encode(d: f32, _: f32) -> Self {
        d
    }
}

impl Target for u16 {
    #[inline(always)]
    fn lanes(v: &[Self], at: usize, unit: f32) -> f32x8 {
        let hops: [u16; 8] = v[at..at + 8].try_into().expect("eight lanes");
        f32x8::from(hops.map(f32::from)) * f32x8::splat(unit)
    }
    #[inline(always)]
    fn get(self, unit: f32) -> f32 {
        f32::from(self) * unit
    }
    fn encode(d: f32, unit: f32) -> Self {
        // Hop counts times `unit`, divided back: exact below 2^16 hops.
        (d / unit).round() as u16
    }
}

/// The positions a block task works on: `x`, `y` and each slot's freedom `free`.
pub struct Slots<'a> {
    /// Abscissae.
    pub x: &'a mut [f32],
    /// Ordinates.
    pub y: &'a mut [f32],
    /// 1 for a vertex that moves, 0 for a pinned one or a padding slot.
    pub free: &'a [f32],
}

/// Moves pairs `(a + k, b + k)` for `k` in `0..count` toward their targets `d[k]`, one after
/// the other in `k`'s order. Within any eight consecutive `k` the two runs must not share a
/// slot (`|a - b| >= 8`, or the runs far apart); the caller keeps to it.
///
/// # Runtime
/// O(count): eight pairs per lane step, a scalar tail.
pub fn pairs<T: Target>(
    s: &mut Slots<'_>,
    (a, b): (usize, usize),
    count: usize,
    d: &[T],
    unit: f32,
    eta: f32,
) {
    let full = count / 8 * 8;
    let inv = f32x8::splat(1.0 / eta);
    let (one, zero, tiny) = (f32x8::ONE, f32x8::ZERO, f32x8::splat(TINY));
    let mut k = 0;
    while k < full {
        let (ia, ib) = (a + k, b + k);
        let (xa, ya, xb, yb) = (load(s.x, ia), load(s.y, ia), load(s.x, ib), load(s.y, ib));
        let dk = T::lanes(d, k, unit);
        let (dx, dy) = (xa - xb, ya - yb);
        let mag = (dx * dx + dy * dy).sqrt().max(tiny);
        let damp = (dk * dk * inv).max(one);
        let r = ((mag - dk) / ((mag + mag) * damp)) & dk.simd_gt(zero);
        let (rx, ry) = (r * dx, r * dy);
        let (fa, fb) = (load(s.free, ia), load(s.free, ib));
        store(s.x, ia, xa - rx * fa);
        store(s.y, ia, ya - ry * fa);
        store(s.x, ib, xb + rx * fb);
        store(s.y, ib, yb + ry * fb);
        k += 8;
    }
    for (k, &dk) in d.iter().enumerate().take(count).skip(full) {
        pair(s, a + k, b + k, dk.get(unit), eta);
    }
}

/// Moves one pair `(i, j)` toward target `d`: the scalar form of [`pairs`]' lanes.
#[inline(always)]
pub fn pair(s: &mut Slots<'_>, i: usize, j: usize, d: f32, eta: f32) {
    let (dx, dy) = (s.x[i] - s.x[j], s.y[i] - s.y[j]);
    let mag = (dx * dx + dy * dy).sqrt().max(TINY);
    let damp = (d * d * (1.0 / eta)).max(1.0);
    let r = if d > 0.0 {
        (mag - d) / ((mag + mag) * damp)
    } else {
        0.0
    };
    let (rx, ry) = (r * dx, r * dy);
    s.x[i] -= rx * s.free[i];
    s.y[i] -= ry * s.free[i];
    s.x[j] += rx * s.free[j];
    s.y[j] += ry * s.free[j];
}

/// Moves every vertex `i` of `x`, `y` toward distance `d[i]` from the fixed point `(px, py)`,
/// with step `min(eta w[i], 1)` (weights given, 0 for no term), the point itself not moving:
/// the one-sided pivot term of sparse stress.
///
/// # Runtime
/// O(len), eight vertices per lane step.
#[allow(clippy::too_many_arguments)]
pub fn toward(
    x: &mut [f32],
    y: &mut [f32],
    free: &[f32],
    d: &[f32],
    w: &[f32],
    (px, py): (f32, f32),
    eta: f32,
) {
    let n = x.len();
    let full = n / 8 * 8;
    let (eta8, one, tiny) = (f32x8::splat(eta), f32x8::ONE, f32x8::splat(TINY));
    let (px8, py8) = (f32x8::splat(px), f32x8::splat(py));
    let mut k = 0;
    while k < full {
        let (xi, yi) = (load(x, k), load(y, k));
        let (dx, dy) = (xi - px8, yi - py8);
        let mag = (dx * dx + dy * dy).sqrt().max(tiny);
        let mu = (eta8 * load(w, k)).min(one);
        let dk = load(d, k);
        let r = mu * (mag - dk) / (mag + mag) * load(free, k);
        store(x, k, xi - r * dx);
        store(y, k, yi - r * dy);
        k += 8;
    }
    for k in full..n {
        let (dx, dy) = (x[k] - px, y[k] - py);
        let mag = (dx * dx + dy * dy).sqrt().max(TINY);
        let mu = (eta * w[k]).min(1.0);
        let r = mu * (mag - d[k]) / (mag + mag) * free[k];
        x[k] -= r * dx;
        y[k] -= r * dy;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lanes_and_scalar_move_pairs_to_the_same_bits() {
        let n = 40;
        let x0: Vec<f32> = (0..n).map(|i| (i as f32 * 0.37).sin() * 5.0).collect();
        let y0: Vec<f32> = (0..n).map(|i| (i as f32 * 0.71).cos() * 5.0).collect();
        let free = vec![1.0; n];
        let d: Vec<f32> = (0..20).map(|k| 1.0 + (k % 4) as f32).collect();
        let (mut x1, mut y1) = (x0.clone(), y0.clone());
        let mut s = Slots {
            x: &mut x1,
            y: &mut y1,
            free: &free,
        };
        pairs(&mut s, (0, 20), 20, &d, 1.0, 0.7);
        let (mut x2, mut y2) = (x0.clone(), y0.clone());
        let mut s = Slots {
            x: &mut x2,
            y: &mut y2,
            free: &free,
        };
        for (k, &dk) in d.iter().enumerate() {
            pair(&mut s, k, 20 + k, dk, 0.7);
        }
        assert_eq!(x1, x2);
        assert_eq!(y1, y2);
    }

    #[test]
    fn hop_targets_move_pairs_as_their_lengths_do() {
        let n = 32;
        let x0: Vec<f32> = (0..n).map(|i| (i as f32 * 0.37).sin() * 5.0).collect();
        let y0: Vec<f32> = (0..n).map(|i| (i as f32 * 0.71).cos() * 5.0).collect();
        let free = vec![1.0; n];
        let hops: Vec<u16> = (0..16).map(|k| 1 + (k % 5) as u16).collect();
        let lengths: Vec<f32> = hops.iter().map(|&h| f32::from(h) * 1.5).collect();
        let (mut x1, mut y1) = (x0.clone(), y0.clone());
        let mut s = Slots {
            x: &mut x1,
            y: &mut y1,
            free: &free,
        };
        pairs(&mut s, (0, 16), 16, &hops, 1.5, 0.7);
        let (mut x2, mut y2) = (x0.clone(), y0.clone());
        let mut s = Slots {
            x: &mut x2,
            y: &mut y2,
            free: &free,
        };
        pairs(&mut s, (0, 16), 16, &lengths, 1.5, 0.7);
        assert_eq!((x1, y1), (x2, y2));
        assert_eq!(u16::encode(6.0, 1.5), 4);
    }

    #[test]
    fn a_full_step_puts_a_pair_at_its_distance_and_pins_hold() {
        let (mut x, mut y) = (vec![0.0, 10.0], vec![0.0, 0.0]);
        let free = [1.0, 1.0];
        pair(
            &mut Slots {
                x: &mut x,
                y: &mut y,
                free: &free,
            },
            0,
            1,
            4.0,
            100.0,
        );
        assert_eq!((x[1] - x[0], y[0], y[1]), (4.0, 0.0, 0.0));
        let (mut x, mut y) = (vec![0.0, 10.0], vec![0.0, 0.0]);
        let pinned = [0.0, 1.0];
        pair(
            &mut Slots {
                x: &mut x,
                y: &mut y,
                free: &pinned,
            },
            0,
            1,
            4.0,
            100.0,
        );
        assert_eq!(x, vec![0.0, 7.0]);
    }

    #[test]
    fn padding_terms_move_nothing() {
        let (mut x, mut y) = (vec![0.0, 3.0], vec![0.0, 4.0]);
        let free = [1.0, 1.0];
        pair(
            &mut Slots {
                x: &mut x,
                y: &mut y,
                free: &free,
            },
            0,
            1,
            0.0,
            1.0,
        );
        assert_eq!((x, y), (vec![0.0, 3.0], vec![0.0, 4.0]));
    }
}
