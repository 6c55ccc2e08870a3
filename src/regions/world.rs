//! The world raster: a whole regions level (seed 004) composited down to one zoom depth at one
//! resolution, so that grid readers see the world the recursion made rather than its root alone.
//!
//! Each root cell becomes `S x S` world cells with `S = max_zoom ^ world_depth`. Every region
//! keeps the world edges of its columns and rows (`Region::xs`, `Region::ys`); a sub-region's
//! edges cut each of its parent cell's spans `[a, b)` into Z parts at `a + j * (b - a) / Z`.
//! Since `S / (Z1 * ... * Zd) >= 1` for every chain of zooms at most `max_zoom`, every cell of a
//! region down to `world_depth` covers at least one world cell, cells of one region form a
//! grid of rectangles (edges depend on the column or row alone), and a sub-region's cells tile
//! its parent cells exactly. With zooms that do not divide `S` the rectangles of one region
//! differ by at most one world cell in size.
//!
//! Composition: the world starts as wall; each region down to `world_depth` paints its carved
//! cells floor and its Filled cells Filled, parents before children. Occupied cells need no
//! paint: above `world_depth` each belongs to a sub-region that paints over it, at
//! `world_depth` it stays wall. In checking mode a brute-force oracle paints every cell of every
//! region (Occupied ones too, except those a painted sub-region covers) onto a world of
//! [`UNPAINTED`] and must give the same bytes with nothing left unpainted.
//!
//! Size bound: at most [`MAX_WORLD_CELLS`] world cells (1024 x 1024), so a level's grid stays
//! a megabyte at most; `regions.world_depth` past it is a profile error.

use crate::core::grid::cell;
use crate::regions::cell::Cell;
use crate::regions::region::Region;

/// The most cells a world raster may have (1024 x 1024).
pub const MAX_WORLD_CELLS: u64 = 1 << 20;

/// A world cell no region painted (the oracle's fill; never in output).
pub const UNPAINTED: u8 = 0xff;

/// World cells per root cell along each axis: `max_zoom ^ world_depth`, saturating.
pub fn scale(max_zoom: u32, world_depth: u32) -> u64 {
    u64::from(max_zoom).saturating_pow(world_depth)
}

/// The world edges of the root's `n` columns (or rows): `0, s, 2s, ..., n s`.
pub fn root_edges(n: u32, s: u32, out: &mut Vec<u32>) {
    out.clear();
    out.extend((0..=n).map(|c| c * s));
}

/// Paints `region`'s carved cells floor and its Filled cells Filled into `world` (`width`
/// columns), one row span per run of equal cells.
///
/// # Runtime
/// O(region cells + world cells painted).
pub fn paint(region: &Region, world: &mut [u8], width: u32) {
    let w = region.width();
    for y in 0..region.height() {
        let mut x = 0;
        while x < w {
            let code = paint_code(region, region.index(x, y));
            let mut end = x + 1;
            while end < w && paint_code(region, region.index(end, y)) == code {
                end += 1;
            }
            if let Some(code) = code {
                let (a, b) = (region.xs[x as usize], region.xs[end as usize]);
                for row in region.ys[y as usize]..region.ys[y as usize + 1] {
                    let at = (row * width) as usize;
                    // PERF: one `fill` (a memset) per span of a world row.
                    world[at + a as usize..at + b as usize].fill(code);
                }
            }
            x = end;
        }
    }
}

/// What [`paint`] puts on cell `i`: floor for carved, Filled for Filled, nothing otherwise.
#[inline]
fn paint_code(region: &Region, i: usize) -> Option<u8> {
    if !region.inside(i) {
        return None;
    }
    match region.cells()[i] {
        Cell::Empty => Some(cell::FLOOR),
        Cell::Filled => Some(cell::FILLED),
        _ => None,
    }
}

/// The oracle: paints every cell of `region` cell by cell, Occupied ones as wall unless a
/// sub-region will paint them (`deepest` is false and the cell belongs to one).
pub fn paint_all(region: &Region, world: &mut [u8], width: u32, deepest: bool) {
    for i in 0..region.cells().len() {
        if !region.inside(i) {
            continue;
        }
        let code = match region.cells()[i] {
            Cell::Empty => cell::FLOOR,
            Cell::Filled => cell::FILLED,
            Cell::Occupied if deepest || region.label[i] == crate::regions::NONE => cell::WALL,
            Cell::Occupied => continue,
            Cell::Uninitialized => UNPAINTED,
        };
        let p = region.point(i);
        for row in region.ys[p.y as usize]..region.ys[p.y as usize + 1] {
            for col in region.xs[p.x as usize]..region.xs[p.x as usize + 1] {
                world[(row * width + col) as usize] = code;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::regions::region::region_from_picture;

    #[test]
    fn the_fast_paint_matches_the_oracle_on_a_single_region() {
        let mut r = region_from_picture(&["###·", "####", "·###"]);
        r.carve(1);
        r.fill(5);
        root_edges(4, 3, &mut r.xs);
        root_edges(3, 3, &mut r.ys);
        let mut fast = vec![cell::WALL; 12 * 9];
        paint(&r, &mut fast, 12);
        let mut brute = vec![UNPAINTED; 12 * 9];
        paint_all(&r, &mut brute, 12, true);
        // Padding (the `·` of the picture) is painted by neither.
        for (i, (&f, &b)) in fast.iter().zip(&brute).enumerate() {
            if b != UNPAINTED {
                assert_eq!(f, b, "world cell {i}");
            }
        }
        assert_eq!(fast[3], cell::FLOOR);
        assert_eq!(fast[3 * 12 + 3], cell::FILLED);
        assert_eq!(brute[0], cell::WALL);
    }

    #[test]
    fn the_scale_saturates() {
        assert_eq!(scale(4, 2), 16);
        assert_eq!(scale(16, 30), u64::MAX);
    }
}
