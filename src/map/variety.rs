//! How different a run's maps are: the share of distinct layouts up to the 8 grid symmetries
//! (the archive's `canonical_hash`), and the mean distance between two layouts' room
//! positions, which tells near-copies (a room or two moved) from layouts that differ
//! everywhere. `warren inspect` prints both for a `map` archive.

/// Levels whose pairs [`mean_pairwise_distance`] compares (the first ones of the archive): 256
/// levels are 32,640 pairs.
pub const VARIETY_SAMPLE: usize = 256;

/// A map of the plane.
type PointMap = fn((f64, f64)) -> (f64, f64);

/// The 8 symmetries of the grid, as maps of a point.
const SYMMETRIES: [PointMap; 8] = [
    |(x, y)| (x, y),
    |(x, y)| (-y, x),
    |(x, y)| (-x, -y),
    |(x, y)| (y, -x),
    |(x, y)| (-x, y),
    |(x, y)| (y, x),
    |(x, y)| (x, -y),
    |(x, y)| (-y, -x),
];

/// The mean, over every pair of `layouts` (each a list of room centres, room `i` at index `i`,
/// all of the same length), of the distance between two layouts: the mean distance in tiles
/// between a room's centre in one and in the other, both centred on their rooms' centroid,
/// under the symmetry of the second that brings it closest to the first. `None` for fewer than
/// two layouts or layouts without rooms.
///
/// # Runtime
/// O(k² n) for k layouts of n rooms, 8 passes per pair.
pub fn mean_pairwise_distance(layouts: &[Vec<(f64, f64)>]) -> Option<f64> {
    let n = layouts.first()?.len();
    if layouts.len() < 2 || n == 0 || layouts.iter().any(|l| l.len() != n) {
        return None;
    }
    let centred: Vec<Vec<(f64, f64)>> = layouts
        .iter()
        .map(|l| {
            let (sx, sy) = l.iter().fold((0.0, 0.0), |a, p| (a.0 + p.0, a.1 + p.1));
            let (cx, cy) = (sx / n as f64, sy / n as f64);
            l.iter().map(|&(x, y)| (x - cx, y - cy)).collect()
        })
        .collect();
    let (mut sum, mut pairs) = (0.0, 0u64);
    for (i, a) in centred.iter().enumerate() {
        for b in &centred[i + 1..] {
            let best = SYMMETRIES
                .iter()
                .map(|g| {
                    a.iter()
                        .zip(b)
                        .map(|(&p, &q)| {
                            let q = g(q);
                            (p.0 - q.0).hypot(p.1 - q.1)
                        })
                        .sum::<f64>()
                })
                .fold(f64::INFINITY, f64::min);
            sum += best / n as f64;
            pairs += 1;
        }
    }
    Some(sum / pairs as f64)
}

/// The mean distance in tiles of a room's centre from its layout's centroid, over `layouts`:
/// the scale [`mean_pairwise_distance`] is read against.
pub fn mean_radius(layouts: &[Vec<(f64, f64)>]) -> Option<f64> {
    let (mut sum, mut rooms) = (0.0, 0usize);
    for l in layouts {
        let n = l.len() as f64;
        let (sx, sy) = l.iter().fold((0.0, 0.0), |a, p| (a.0 + p.0, a.1 + p.1));
        let (cx, cy) = (sx / n, sy / n);
        sum += l.iter().map(|p| (p.0 - cx).hypot(p.1 - cy)).sum::<f64>();
        rooms += l.len();
    }
    (rooms > 0).then(|| sum / rooms as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetric_and_moved_copies_are_near() {
        let l = vec![(0.0, 0.0), (10.0, 0.0), (10.0, 4.0)];
        // Turned a quarter, mirrored and shifted: distance 0.
        let turned: Vec<(f64, f64)> = l.iter().map(|&(x, y)| (100.0 - y, x)).collect();
        let mirrored: Vec<(f64, f64)> = l.iter().map(|&(x, y)| (-x, y + 7.0)).collect();
        let d = mean_pairwise_distance(&[l.clone(), turned, mirrored]).unwrap();
        assert!(d.abs() < 1e-9, "{d}");
        // One room moved 3 tiles east, the centroid with it by 1: centred, the rooms are off by
        // 1, 1 and 2 tiles without a symmetry, and no symmetry does better than half that.
        let moved = vec![(0.0, 0.0), (10.0, 0.0), (13.0, 4.0)];
        let d = mean_pairwise_distance(&[l.clone(), moved]).unwrap();
        let direct = (1.0 + 1.0 + 2.0) / 3.0;
        assert!(d <= direct + 1e-9 && d > 0.5, "{d}");
        assert_eq!(mean_pairwise_distance(&[l]), None);
    }
}
