//! Layout quality (seed 000: a drawing is usable when no corridor crosses another): edge
//! crossings, self-intersection (a crossing between two non-cosmetic edges, demirogue's test for
//! a failed layout) and the spread of edge lengths.

/// The quality figures of one layout.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Quality {
    /// Pairs of edges that cross (edges sharing an endpoint never count).
    pub crossings: u64,
    /// Whether two non-cosmetic edges cross.
    pub self_intersecting: bool,
    /// Coefficient of variation of the edge lengths (standard deviation over mean; 0 for no
    /// edges).
    pub length_cv: f32,
}

/// Whether segments `p1 p2` and `q1 q2` intersect (touching counts).
pub fn segments_intersect(p1: [f32; 2], p2: [f32; 2], q1: [f32; 2], q2: [f32; 2]) -> bool {
    let orient = |a: [f32; 2], b: [f32; 2], c: [f32; 2]| {
        let v = (b[0] - a[0]) as f64 * (c[1] - a[1]) as f64
            - (b[1] - a[1]) as f64 * (c[0] - a[0]) as f64;
        (v > 0.0) as i8 - (v < 0.0) as i8
    };
    let on = |a: [f32; 2], b: [f32; 2], c: [f32; 2]| {
        c[0] >= a[0].min(b[0])
            && c[0] <= a[0].max(b[0])
            && c[1] >= a[1].min(b[1])
            && c[1] <= a[1].max(b[1])
    };
    let (d1, d2) = (orient(q1, q2, p1), orient(q1, q2, p2));
    let (d3, d4) = (orient(p1, p2, q1), orient(p1, p2, q2));
    if d1 * d2 < 0 && d3 * d4 < 0 {
        return true;
    }
    (d1 == 0 && on(q1, q2, p1))
        || (d2 == 0 && on(q1, q2, p2))
        || (d3 == 0 && on(p1, p2, q1))
        || (d4 == 0 && on(p1, p2, q2))
}

/// Crossing edge pairs, by checking every pair (O(m^2)).
pub fn crossings_brute(x: &[f32], y: &[f32], src: &[u32], dst: &[u32]) -> u64 {
    let m = src.len();
    let mut count = 0;
    for a in 0..m {
        for b in a + 1..m {
            let (a0, a1, b0, b1) = (src[a], dst[a], src[b], dst[b]);
            if a0 == b0 || a0 == b1 || a1 == b0 || a1 == b1 {
                continue;
            }
            let p = |v: u32| [x[v as usize], y[v as usize]];
            count += u64::from(segments_intersect(p(a0), p(a1), p(b0), p(b1)));
        }
    }
    count
}

/// Coefficient of variation of the edge lengths (0 without edges).
pub fn length_cv(x: &[f32], y: &[f32], src: &[u32], dst: &[u32]) -> f32 {
    let m = src.len();
    if m == 0 {
        return 0.0;
    }
    let lengths = src.iter().zip(dst).map(|(&a, &b)| {
        let (a, b) = (a as usize, b as usize);
        f64::from((x[b] - x[a]).hypot(y[b] - y[a]))
    });
    let (mut sum, mut sum2) = (0.0f64, 0.0f64);
    for l in lengths {
        sum += l;
        sum2 += l * l;
    }
    let mean = sum / m as f64;
    let var = (sum2 / m as f64 - mean * mean).max(0.0);
    if mean > 0.0 {
        (var.sqrt() / mean) as f32
    } else {
        0.0
    }
}

/// All quality figures; `cosmetic[e]` marks edges that do not count for self-intersection.
pub fn measure(
    x: &[f32],
    y: &[f32],
    src: &[u32],
    dst: &[u32],
    cosmetic: Option<&[bool]>,
) -> Quality {
    let crossings = crossings_brute(x, y, src, dst);
    let self_intersecting = match cosmetic {
        None => crossings > 0,
        Some(c) => {
            let keep: Vec<usize> = (0..src.len()).filter(|&e| !c[e]).collect();
            let s: Vec<u32> = keep.iter().map(|&e| src[e]).collect();
            let d: Vec<u32> = keep.iter().map(|&e| dst[e]).collect();
            crossings_brute(x, y, &s, &d) > 0
        }
    };
    Quality {
        crossings,
        self_intersecting,
        length_cv: length_cv(x, y, src, dst),
    }
}
