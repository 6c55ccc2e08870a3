//! Portable math: `ln`, `exp`, `tanh` and a fixed-order lane sum that give the same bits on every
//! CPU, on `f32` and on `wide::f32x8` lanes (bit for bit the same as each other).
//!
//! # The determinism contract
//!
//! A level's content is part of the archive contract (its `layout_hash` is pinned by golden
//! tests), and it must not depend on the machine that generated it: the default x86-64-v3 build
//! (AVX2 + FMA), a baseline x86-64 build (SSE2 only) and an aarch64 build (NEON) write the same
//! bytes for the same seed. Every kernel whose results reach the archive therefore keeps to
//! operations that IEEE 754 rounds exactly once, the same way on every target:
//!
//! - `+ - * /`, `sqrt`, `min`/`max`, comparisons, `abs`, `floor` and conversions of
//!   representable values, on scalars and on `f32x8` lanes alike;
//! - sums in an order the code fixes, never one a target picks: lanes are summed with
//!   [`sum8`], not `wide`'s `reduce_add` (AVX and SSE builds of that add the lanes in different
//!   orders);
//! - transcendental functions only from this module.
//!
//! Not allowed in those kernels: `mul_add` and its relatives (`wide`'s is a fused
//! multiply-add, rounded once, only when FMA is enabled at compile time, and a multiply and an
//! add, rounded twice, otherwise), `wide`'s `ln`/`exp`/`tanh`/`pow` (built on that `mul_add`),
//! the approximate `recip`/`recip_sqrt` instructions (different tables on different CPUs), and
//! the platform libm's `exp`, `ln`, `tanh`, `sin`, `cos`, `atan2` and `powf`, whose last bit
//! differs between libm versions and architectures (glibc even picks an FMA variant at run time
//! by CPU). libm's `f32::hypot` is tolerated where it appears: glibc computes it as a square
//! root of a sum of squares in `f64`, where the squares of `f32` inputs are exact, so it rounds
//! the same everywhere.
//!
//! The polynomials are Cephes' single-precision ones (range reduction to a small interval, a
//! minimax polynomial, the exponent put back exactly), evaluated with plain, unfused multiplies
//! and adds. Rust never contracts `a * b + c` into a fused multiply-add on its own, so the
//! source order is the rounding order. Measured against `f64` references over the whole useful
//! range: `ln` within 0.8 ULP, `exp` within 0.97 ULP, `tanh` within 1.3 ULP (the tests pin 1, 1
//! and 2 ULP).
//!
//! The cross-target part of the contract is tested by `.ci/run`, which runs the conformance
//! golden hashes a second time from a baseline x86-64 build.

use wide::bytemuck::cast;
use wide::{f32x8, i32x8};

/// `sqrt(1/2)`: mantissas below it are doubled before the logarithm's polynomial.
const SQRT_HALF: f32 = std::f32::consts::FRAC_1_SQRT_2;
/// `ln 2` split into a high part with few mantissa bits (exact products with small integers)
/// and the rest (Cephes' `C1`, `C2`).
const LN2_HI: f32 = 0.693_359_4;
const LN2_LO: f32 = -2.121_944_4e-4;
/// `2^23`: scales subnormal inputs of [`ln`] into the normal range.
const TWO_23: f32 = 8_388_608.0;
/// `1.5 * 2^23`: adding and subtracting it rounds a float of magnitude below `2^22` to the
/// nearest integer (ties to even) with two IEEE operations.
const ROUNDER: f32 = 12_582_912.0;
/// Largest argument of [`exp`] with a finite result, and the smallest with a non-zero one.
const EXP_MAX: f32 = 88.722_84;
const EXP_MIN: f32 = -103.278_93;
/// `|x|` from which [`tanh`] goes through `exp(2|x|)`.
const TANH_SPLIT: f32 = 0.625;

/// Cephes `logf` polynomial, highest degree first.
const LN_POLY: [f32; 9] = [
    7.037_683_6e-2,
    -1.151_461e-1,
    1.167_699_9e-1,
    -1.242_014_1e-1,
    1.424_932_3e-1,
    -1.666_805_8e-1,
    2.000_071_4e-1,
    -2.499_999_4e-1,
    3.333_333e-1,
];
/// Cephes `expf` polynomial, highest degree first.
const EXP_POLY: [f32; 6] = [
    1.987_569_1e-4,
    1.398_2e-3,
    8.333_452e-3,
    4.166_579_6e-2,
    1.666_666_5e-1,
    // Cephes' 5.0000001201e-1, which is 0.5 in `f32`.
    0.5,
];
/// Cephes `tanhf` polynomial (odd part, in `x^2`), highest degree first.
const TANH_POLY: [f32; 5] = [
    -5.704_988_7e-3,
    2.063_909e-2,
    -5.373_971_6e-2,
    1.333_144_2e-1,
    -3.333_328e-1,
];

/// Horner's rule with separate multiplies and adds (two roundings a step, on every target).
#[inline(always)]
fn horner<const N: usize>(coeffs: &[f32; N], t: f32) -> f32 {
    let mut p = coeffs[0];
    for &c in &coeffs[1..] {
        p = p * t + c;
    }
    p
}

/// [`horner`] on lanes, the same operations in the same order.
#[inline(always)]
fn horner8<const N: usize>(coeffs: &[f32; N], t: f32x8) -> f32x8 {
    let mut p = f32x8::splat(coeffs[0]);
    for &c in &coeffs[1..] {
        p = p * t + f32x8::splat(c);
    }
    p
}

/// `2^k` for `-126 <= k <= 127`, built from its bits.
#[inline(always)]
fn pow2(k: i32) -> f32 {
    f32::from_bits(((k + 127) << 23) as u32)
}

/// [`pow2`] on lanes.
#[inline(always)]
fn pow2_8(k: i32x8) -> f32x8 {
    let biased: i32x8 = (k + i32x8::splat(127)) << 23_i32;
    cast(biased)
}

/// The natural logarithm, the same bits on every target. `ln(0) = -inf`, negative or NaN
/// arguments give NaN, `ln(inf) = inf`.
///
/// # Runtime
/// O(1): about 30 floating-point operations, no branches on the value but the special cases.
pub fn ln(x: f32) -> f32 {
    let tiny = x < f32::MIN_POSITIVE;
    let xs = if tiny { x * TWO_23 } else { x };
    let bits = xs.to_bits() as i32;
    let exponent = (((bits >> 23) & 0xff) - 126) as f32 - if tiny { 23.0 } else { 0.0 };
    // The mantissa in [0.5, 1).
    let m = f32::from_bits(((bits & 0x007f_ffff) | 0x3f00_0000) as u32);
    let low = m < SQRT_HALF;
    // NOTE: both subtractions are exact (Sterbenz), so t is the mantissa's offset from 1.
    let e = exponent - if low { 1.0 } else { 0.0 };
    let t = if low { m + m - 1.0 } else { m - 1.0 };
    let z = t * t;
    let mut y = horner(&LN_POLY, t) * t * z;
    y += LN2_LO * e;
    y += -0.5 * z;
    let r = t + y + LN2_HI * e;
    if x.is_nan() || x < 0.0 {
        f32::NAN
    } else if x == 0.0 {
        f32::NEG_INFINITY
    } else if x == f32::INFINITY {
        x
    } else {
        r
    }
}

/// [`ln`] on eight lanes: each lane bit for bit equal to [`ln`] of it.
///
/// # Runtime
/// O(1): about 40 lane operations.
pub fn ln8(x: f32x8) -> f32x8 {
    let (zero, one) = (f32x8::splat(0.0), f32x8::splat(1.0));
    let tiny = x.simd_lt(f32x8::splat(f32::MIN_POSITIVE));
    let xs = tiny.select(x * f32x8::splat(TWO_23), x);
    let bits: i32x8 = cast(xs);
    let biased: i32x8 = (bits >> 23_i32) & i32x8::splat(0xff);
    let exponent =
        (biased - i32x8::splat(126)).round_float() - tiny.select(f32x8::splat(23.0), zero);
    let m: f32x8 = cast((bits & i32x8::splat(0x007f_ffff)) | i32x8::splat(0x3f00_0000));
    let low = m.simd_lt(f32x8::splat(SQRT_HALF));
    let e = exponent - low.select(one, zero);
    let t = low.select(m + m - one, m - one);
    let z = t * t;
    let mut y = horner8(&LN_POLY, t) * t * z;
    y += f32x8::splat(LN2_LO) * e;
    y += f32x8::splat(-0.5) * z;
    let r = t + y + f32x8::splat(LN2_HI) * e;
    let r = x.simd_eq(f32x8::splat(f32::INFINITY)).select(x, r);
    let r = x.simd_eq(zero).select(f32x8::splat(f32::NEG_INFINITY), r);
    // `!(x >= 0)`: negative or NaN.
    x.simd_ge(zero).select(r, f32x8::splat(f32::NAN))
}

/// `e^x`, the same bits on every target. Overflows to `inf` above 88.72, underflows to 0 below
/// -103.28 (through the subnormals), NaN stays NaN.
///
/// # Runtime
/// O(1): about 20 floating-point operations.
pub fn exp(x: f32) -> f32 {
    let xc = x.clamp(EXP_MIN, EXP_MAX);
    let n = (xc * std::f32::consts::LOG2_E + ROUNDER) - ROUNDER;
    let r = xc - n * LN2_HI;
    let r = r - n * LN2_LO;
    let y = horner(&EXP_POLY, r) * (r * r) + r + 1.0;
    // NOTE: 2^n in two factors, each a normal float for n in [-150, 128]; only the second
    // multiply can round (into the subnormals).
    let k = n as i32;
    let half = k >> 1;
    let v = y * pow2(half) * pow2(k - half);
    if x.is_nan() {
        x
    } else if x > EXP_MAX {
        f32::INFINITY
    } else if x < EXP_MIN {
        0.0
    } else {
        v
    }
}

/// [`exp`] on eight lanes: each lane bit for bit equal to [`exp`] of it.
///
/// # Runtime
/// O(1): about 30 lane operations.
pub fn exp8(x: f32x8) -> f32x8 {
    let rounder = f32x8::splat(ROUNDER);
    // NOTE: NaN lanes clamp to something (which, differs by target); their result is replaced
    // below.
    let xc = x.max(f32x8::splat(EXP_MIN)).min(f32x8::splat(EXP_MAX));
    let n = (xc * f32x8::splat(std::f32::consts::LOG2_E) + rounder) - rounder;
    let r = xc - n * f32x8::splat(LN2_HI);
    let r = r - n * f32x8::splat(LN2_LO);
    let y = horner8(&EXP_POLY, r) * (r * r) + r + f32x8::splat(1.0);
    let k = n.round_int();
    let half: i32x8 = k >> 1_i32;
    let v = y * pow2_8(half) * pow2_8(k - half);
    let v = x
        .simd_gt(f32x8::splat(EXP_MAX))
        .select(f32x8::splat(f32::INFINITY), v);
    let v = x
        .simd_lt(f32x8::splat(EXP_MIN))
        .select(f32x8::splat(0.0), v);
    x.simd_eq(x).select(v, x)
}

/// The hyperbolic tangent, the same bits on every target (`±1` beyond `|x| = 9`, NaN stays
/// NaN).
///
/// # Runtime
/// O(1): one [`exp`] and a division for `|x| >= 0.625`, a short polynomial below.
pub fn tanh(x: f32) -> f32 {
    let z = x.abs();
    if z >= TANH_SPLIT {
        let big = 1.0 - 2.0 / (exp(z + z) + 1.0);
        if x < 0.0 { -big } else { big }
    } else {
        let w = x * x;
        horner(&TANH_POLY, w) * w * x + x
    }
}

/// [`tanh`] on eight lanes: each lane bit for bit equal to [`tanh`] of it.
///
/// # Runtime
/// O(1): one [`exp8`], a division and a short polynomial (both branches on every lane).
pub fn tanh8(x: f32x8) -> f32x8 {
    let one = f32x8::splat(1.0);
    let z = x.abs();
    let big = one - f32x8::splat(2.0) / (exp8(z + z) + one);
    let big = x.simd_lt(f32x8::splat(0.0)).select(-big, big);
    let w = x * x;
    let small = horner8(&TANH_POLY, w) * w * x + x;
    z.simd_ge(f32x8::splat(TANH_SPLIT)).select(big, small)
}

/// The sum of the eight lanes in a fixed tree order, `((l0 + l1) + (l2 + l3)) + ((l4 + l5) +
/// (l6 + l7))`, on every target (the order of the AVX `hadd` sums in the layout kernels).
///
/// # Runtime
/// O(1): seven adds.
#[inline]
pub fn sum8(v: f32x8) -> f32 {
    let l = v.to_array();
    ((l[0] + l[1]) + (l[2] + l[3])) + ((l[4] + l[5]) + (l[6] + l[7]))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The distance of `got` from the exact value `want`, in units of the last place of `want`
    /// rounded to `f32` (infinite when exactly one of them is not finite).
    fn ulps(got: f32, want: f64) -> f64 {
        if got.is_nan() || want.is_nan() {
            return if got.is_nan() && want.is_nan() {
                0.0
            } else {
                f64::INFINITY
            };
        }
        let w = want as f32;
        if !got.is_finite() || !w.is_finite() {
            return if got == w { 0.0 } else { f64::INFINITY };
        }
        let a = w.abs();
        // Spacing of floats at |want|; the smallest subnormal spacing at the bottom.
        let ulp = if a < f32::MIN_POSITIVE {
            f64::from(f32::from_bits(1))
        } else {
            f64::from(f32::from_bits(a.to_bits() + 1)) - f64::from(a)
        };
        (f64::from(got) - want).abs() / ulp
    }

    /// Every `step`-th float between `lo` and `hi` (both positive or both negative ends are
    /// handled by walking the bit patterns), plus some exact corner values.
    fn sweep(lo: f32, hi: f32, count: u32) -> Vec<f32> {
        let mut out: Vec<f32> = (0..=count)
            .map(|i| lo + (hi - lo) * (i as f32 / count as f32))
            .collect();
        // Random bit patterns in range cover every exponent evenly.
        let mut s = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..count {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let v = f32::from_bits((s >> 32) as u32);
            if v >= lo && v <= hi {
                out.push(v);
            }
        }
        out
    }

    fn max_ulps(f: fn(f32) -> f32, reference: fn(f64) -> f64, xs: &[f32]) -> (f64, f32) {
        xs.iter()
            .map(|&x| (ulps(f(x), reference(f64::from(x))), x))
            .fold((0.0, 0.0), |a, b| if b.0 > a.0 { b } else { a })
    }

    /// Lanes of eight at a time through `f8` must match `f` on each lane, bit for bit.
    fn assert_lanes_match(f: fn(f32) -> f32, f8: fn(f32x8) -> f32x8, xs: &[f32]) {
        for chunk in xs.chunks(8) {
            let mut lanes = [0.0f32; 8];
            lanes[..chunk.len()].copy_from_slice(chunk);
            let got = f8(f32x8::new(lanes)).to_array();
            for (&x, g) in lanes.iter().zip(got) {
                assert_eq!(
                    f(x).to_bits(),
                    g.to_bits(),
                    "lane and scalar differ at {x:e}"
                );
            }
        }
    }

    fn specials() -> Vec<f32> {
        vec![
            0.0,
            -0.0,
            1.0,
            -1.0,
            f32::MIN_POSITIVE,
            f32::from_bits(1),
            f32::MAX,
            f32::MIN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            EXP_MAX,
            EXP_MIN,
            TANH_SPLIT,
            -TANH_SPLIT,
            SQRT_HALF,
        ]
    }

    #[test]
    fn ln_is_within_one_ulp_over_all_positive_floats() {
        let xs = sweep(f32::from_bits(1), f32::MAX, 400_000);
        let (err, at) = max_ulps(ln, f64::ln, &xs);
        assert!(err <= 1.0, "ln: {err} ULP at {at:e}");
        let near_one = sweep(0.5, 2.0, 200_000);
        let (err, at) = max_ulps(ln, f64::ln, &near_one);
        assert!(err <= 1.0, "ln near 1: {err} ULP at {at:e}");
    }

    #[test]
    fn exp_is_within_one_ulp_over_its_range() {
        let xs = sweep(-87.0, EXP_MAX, 400_000);
        let (err, at) = max_ulps(exp, f64::exp, &xs);
        assert!(err <= 1.0, "exp: {err} ULP at {at:e}");
        // Subnormal results: one rounding in the last scale, so at most one subnormal step off.
        let deep = sweep(EXP_MIN, -87.0, 50_000);
        let (err, at) = max_ulps(exp, f64::exp, &deep);
        assert!(err <= 1.0, "exp into the subnormals: {err} ULP at {at:e}");
    }

    #[test]
    fn tanh_is_within_two_ulps() {
        let xs = sweep(-12.0, 12.0, 400_000);
        let (err, at) = max_ulps(tanh, f64::tanh, &xs);
        assert!(err <= 2.0, "tanh: {err} ULP at {at:e}");
    }

    #[test]
    fn special_values_follow_ieee() {
        assert_eq!(ln(0.0), f32::NEG_INFINITY);
        assert!(ln(-1.0).is_nan() && ln(f32::NAN).is_nan());
        assert_eq!(ln(f32::INFINITY), f32::INFINITY);
        assert_eq!(ln(1.0), 0.0);
        assert_eq!(exp(0.0), 1.0);
        assert_eq!(exp(f32::NEG_INFINITY), 0.0);
        assert_eq!(exp(f32::INFINITY), f32::INFINITY);
        assert_eq!(exp(100.0), f32::INFINITY);
        assert!(exp(f32::NAN).is_nan() && tanh(f32::NAN).is_nan());
        assert_eq!(tanh(f32::INFINITY), 1.0);
        assert_eq!(tanh(-50.0), -1.0);
        assert_eq!(tanh(0.0), 0.0);
    }

    #[test]
    fn lanes_equal_the_scalar_twin_bit_for_bit() {
        let mut xs = sweep(-120.0, 120.0, 100_000);
        xs.extend(sweep(f32::from_bits(1), f32::MAX, 100_000));
        xs.extend(specials());
        assert_lanes_match(ln, ln8, &xs);
        assert_lanes_match(exp, exp8, &xs);
        assert_lanes_match(tanh, tanh8, &xs);
    }

    #[test]
    fn sum8_adds_in_tree_order() {
        // Left to right (and in `wide`'s AVX order) each 2^-24 is lost against 1 (a tie, to
        // even); in the tree the two meet first.
        let e = f32::EPSILON / 2.0;
        let v = f32x8::new([1.0, 0.0, e, e, 0.0, 0.0, 0.0, 0.0]);
        assert_eq!(sum8(v), 1.0 + f32::EPSILON);
        assert_eq!(v.to_array().iter().sum::<f32>(), 1.0);
        assert_eq!(
            sum8(f32x8::new([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0])),
            36.0
        );
    }
}
