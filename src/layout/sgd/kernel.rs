//! The stress step of one term, on eight lanes and in scalar code (the same operations, so a
//! pair gets the same bits either way): for a pair `i`, `j` drawn `m` apart that should be `d`
//! apart, with step `mu = min(eta w, 1)`, both ends move along the pair's direction by
//! `mu (m - d) / 2` (Zheng, Pawar and Goodman's update), times each end's freedom (1, or 0 for
//! a pinned vertex). A term whose `d` is 0 (the padding of a block) moves nothing.
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

/// The positions a block task works on: `x`, `y` and each slot's freedom `free`.
pub struct Slots<'a> {
    /// Abscissae.
    pub x: &'a mut [f32],
    /// Ordinates.
    pub y: &'a mut [f32],
    /// 1 for a vertex that moves, 0 for a pinned one or a padding slot.
    pub free: &'a [f32],
}

/// The step's size for a term of target `d` and weight `1 / d^2`: `min(eta / d^2, 1)`, times
/// `min(d, m) / m` for the least normal float `m`, which is 1 for every target and 0 for the
/// padding's 0 (a mask the lanes compute the same way, without a comparison).
#[inline(always)]
fn step(eta: f32, d: f32) -> f32 {
    (eta / (d * d)).min(1.0) * (d.min(f32::MIN_POSITIVE) / f32::MIN_POSITIVE)
}

/// Moves pairs `(a + k, b + k)` for `k` in `0..count` toward their targets `d[k]`, one after
/// the other in `k`'s order. Within any eight consecutive `k` the two runs must not share a
/// slot (`|a - b| >= 8`, or the runs far apart); the caller keeps to it.
///
/// # Runtime
/// O(count): eight pairs per lane step, a scalar tail.
pub fn pairs(s: &mut Slots<'_>, a: usize, b: usize, count: usize, d: &[f32], eta: f32) {
    let full = count / 8 * 8;
    let eta8 = f32x8::splat(eta);
    let (one, tiny) = (f32x8::ONE, f32x8::splat(TINY));
    let least = f32x8::splat(f32::MIN_POSITIVE);
    let mut k = 0;
    while k < full {
        let (ia, ib) = (a + k, b + k);
        let (xa, ya, xb, yb) = (load(s.x, ia), load(s.y, ia), load(s.x, ib), load(s.y, ib));
        let dk = load(d, k);
        let (dx, dy) = (xa - xb, ya - yb);
        let mag = (dx * dx + dy * dy).sqrt().max(tiny);
        let mu = (eta8 / (dk * dk)).min(one) * (dk.min(least) / least);
        let r = mu * (mag - dk) / (mag + mag);
        let (rx, ry) = (r * dx, r * dy);
        let (fa, fb) = (load(s.free, ia), load(s.free, ib));
        store(s.x, ia, xa - rx * fa);
        store(s.y, ia, ya - ry * fa);
        store(s.x, ib, xb + rx * fb);
        store(s.y, ib, yb + ry * fb);
        k += 8;
    }
    for k in full..count {
        pair(s, a + k, b + k, d[k], eta);
    }
}

/// Moves one pair `(i, j)` toward target `d`: the scalar form of [`pairs`]' lanes.
#[inline(always)]
pub fn pair(s: &mut Slots<'_>, i: usize, j: usize, d: f32, eta: f32) {
    let (dx, dy) = (s.x[i] - s.x[j], s.y[i] - s.y[j]);
    let mag = (dx * dx + dy * dy).sqrt().max(TINY);
    let mu = step(eta, d);
    let r = mu * (mag - d) / (mag + mag);
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
        pairs(&mut s, 0, 20, 20, &d, 0.7);
        let (mut x2, mut y2) = (x0.clone(), y0.clone());
        let mut s = Slots {
            x: &mut x2,
            y: &mut y2,
            free: &free,
        };
        for k in 0..20 {
            pair(&mut s, k, 20 + k, d[k], 0.7);
        }
        assert_eq!(x1, x2);
        assert_eq!(y1, y2);
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
