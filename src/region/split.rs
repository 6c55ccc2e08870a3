//! Splitting a carved region into sub-regions (seed 004, "PCG of regions" and "Dividing large
//! sub-regions"): the 4-connected components of its remaining Occupied cells, each given its own
//! zoom Z in `[min_zoom, max_zoom]` (the seed's pending proposal), and divided into pieces no
//! larger than Wmax/Z x Hmax/Z so that the zoomed piece fits Wmax x Hmax.
//!
//! Where the seed is silent, the decisions taken:
//! - **Division**: a component too large for its zoom is cut along a grid of Wmax/Z x Hmax/Z
//!   tiles anchored at its box's corner; each tile's part of it is split again into connected
//!   pieces, so every sub-region is connected and fits.
//! - **Entry and exit** (the footnote: sub-regions have entry and exit points): chosen among the
//!   piece's sides that face a carved cell of this region, so the passage carved inside the
//!   zoomed piece opens onto the passage outside it. On the zoomed piece, a port is a subcell on
//!   that side of the cell's Z x Z block; when entry and exit share one side they take different
//!   subcells.
//! - **Filled**: a piece that faces no carved cell cannot be entered from this level's passages
//!   (an enclosed component, or a piece cut off by the division) and becomes Filled; so does a
//!   one-cell piece with probability `fill_chance` (the seed's "some occupied cells may be marked
//!   permanently filled").

use crate::core::rng::WarrenRng;
use crate::region::region::{NONE, Point, Region, RegionBox};

/// A sub-region to make: a piece of the parent's cells and how to zoom it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChildSpec {
    /// The piece's cells carry this label in the parent (its index among its siblings).
    pub label: u32,
    /// The piece's box in parent coordinates.
    pub bbox: RegionBox,
    /// Subcells per parent cell along each axis.
    pub zoom: u32,
    /// Entry point in the zoomed region's coordinates.
    pub entry: Point,
    /// Exit point in the zoomed region's coordinates.
    pub exit: Point,
    /// Parent cells in the piece.
    pub cells: u32,
}

/// How to split.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SplitParams {
    /// Wmax.
    pub max_width: u32,
    /// Hmax.
    pub max_height: u32,
    /// Smallest zoom drawn for a sub-region.
    pub min_zoom: u32,
    /// Largest zoom drawn for a sub-region.
    pub max_zoom: u32,
    /// Chance that a one-cell piece becomes Filled instead of a sub-region.
    pub fill_chance: f64,
}

/// What a split did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SplitStats {
    /// Connected components of Occupied cells.
    pub components: u32,
    /// Components divided because they were too large for their zoom.
    pub divided: u32,
    /// Pieces that became Filled.
    pub filled_pieces: u32,
    /// Cells that became Filled.
    pub filled_cells: u32,
}

/// Reused buffers for splitting.
#[derive(Debug, Default)]
pub struct SplitWork {
    comp: Vec<u32>,
    piece: Vec<u32>,
    stack: Vec<u32>,
    ports: Vec<(u32, u32)>,
}

/// Cells of the component being split.
const IN_COMPONENT: u32 = NONE - 1;
/// Cells of the piece being gathered.
const IN_PIECE: u32 = NONE - 2;

/// Splits `region` (carved) into sub-regions appended to `out`, labelling their cells with their
/// index among the region's children; pieces that cannot be sub-regions become Filled.
///
/// # Runtime
/// O(cells); no allocation once the buffers have grown.
pub fn split(
    region: &mut Region,
    rng: &mut WarrenRng,
    params: &SplitParams,
    work: &mut SplitWork,
    out: &mut Vec<ChildSpec>,
    stats: &mut SplitStats,
) {
    let base = out.len();
    let n = (region.width() * region.height()) as usize;
    for start in 0..n {
        if region.cells()[start] != crate::region::cell::Cell::Occupied
            || region.label[start] != NONE
        {
            continue;
        }
        stats.components += 1;
        flood(
            region,
            start,
            NONE,
            IN_COMPONENT,
            None,
            &mut work.stack,
            &mut work.comp,
        );
        let mut bbox = RegionBox::nothing();
        for &c in &work.comp {
            let p = region.point(c as usize);
            bbox.cover(p.x, p.y);
        }
        let z = params.min_zoom + rng.below(params.max_zoom - params.min_zoom + 1);
        let (tw, th) = (params.max_width / z, params.max_height / z);
        if bbox.width() <= tw && bbox.height() <= th {
            std::mem::swap(&mut work.comp, &mut work.piece);
            emit_piece(region, rng, params, z, base, work, out, stats);
            continue;
        }
        stats.divided += 1;
        for k in 0..work.comp.len() {
            let c = work.comp[k] as usize;
            if region.label[c] != IN_COMPONENT {
                continue;
            }
            let tile = Some((bbox, tw, th));
            flood(
                region,
                c,
                IN_COMPONENT,
                IN_PIECE,
                tile,
                &mut work.stack,
                &mut work.piece,
            );
            emit_piece(region, rng, params, z, base, work, out, stats);
        }
    }
}

/// Relabels the 4-connected cells labelled `from` around `start` as `to` (within `start`'s tile
/// when `tile` is given) and lists them in `cells`.
fn flood(
    region: &mut Region,
    start: usize,
    from: u32,
    to: u32,
    tile: Option<(RegionBox, u32, u32)>,
    stack: &mut Vec<u32>,
    cells: &mut Vec<u32>,
) {
    let tile_of = |p: Point| tile.map(|(b, tw, th)| ((p.x - b.x0) / tw, (p.y - b.y0) / th));
    let home = tile_of(region.point(start));
    cells.clear();
    stack.clear();
    region.label[start] = to;
    stack.push(start as u32);
    while let Some(i) = stack.pop() {
        cells.push(i);
        for dir in 0..4 {
            if let Some(j) = region.neighbour(i as usize, dir)
                && region.label[j] == from
                && region.cells()[j] == crate::region::cell::Cell::Occupied
                && tile_of(region.point(j)) == home
            {
                region.label[j] = to;
                stack.push(j as u32);
            }
        }
    }
}

/// Makes the piece in `work.piece` a sub-region (or fills it).
#[allow(clippy::too_many_arguments)]
fn emit_piece(
    region: &mut Region,
    rng: &mut WarrenRng,
    params: &SplitParams,
    z: u32,
    base: usize,
    work: &mut SplitWork,
    out: &mut Vec<ChildSpec>,
    stats: &mut SplitStats,
) {
    let mut bbox = RegionBox::nothing();
    work.ports.clear();
    for &c in &work.piece {
        let p = region.point(c as usize);
        bbox.cover(p.x, p.y);
        for dir in 0..4 {
            if let Some(j) = region.neighbour(c as usize, dir)
                && region.carved(j)
            {
                work.ports.push((c, dir));
            }
        }
    }
    let lonely = work.piece.len() == 1 && rng.chance(params.fill_chance);
    if work.ports.is_empty() || lonely {
        for &c in &work.piece {
            region.fill(c as usize);
            region.label[c as usize] = NONE;
        }
        stats.filled_pieces += 1;
        stats.filled_cells += work.piece.len() as u32;
        return;
    }
    let label = (out.len() - base) as u32;
    for &c in &work.piece {
        region.label[c as usize] = label;
    }
    let e = work.ports[rng.below(work.ports.len() as u32) as usize];
    let x = work.ports[rng.below(work.ports.len() as u32) as usize];
    let re = rng.below(z);
    let rx = if e == x {
        (re + 1 + rng.below(z - 1)) % z
    } else {
        rng.below(z)
    };
    out.push(ChildSpec {
        label,
        bbox,
        zoom: z,
        entry: port_point(region, e, bbox, z, re),
        exit: port_point(region, x, bbox, z, rx),
        cells: work.piece.len() as u32,
    });
}

/// The subcell of cell `c`'s Z x Z block on side `dir`, `r` along that side, in the zoomed
/// piece's coordinates.
fn port_point(region: &Region, (c, dir): (u32, u32), bbox: RegionBox, z: u32, r: u32) -> Point {
    let p = region.point(c as usize);
    let (lx, ly) = ((p.x - bbox.x0) * z, (p.y - bbox.y0) * z);
    match dir {
        0 => Point {
            x: lx + z - 1,
            y: ly + r,
        },
        1 => Point {
            x: lx + r,
            y: ly + z - 1,
        },
        2 => Point { x: lx, y: ly + r },
        _ => Point { x: lx + r, y: ly },
    }
}

/// Fills `child` with the zoomed piece `spec` of `parent`: a piece cell becomes Z x Z Occupied
/// subcells, everything else in the box Empty padding; then seals it and sets its ports.
pub fn zoom_piece(parent: &Region, spec: &ChildSpec, child: &mut Region) {
    let z = spec.zoom;
    let (w, h) = (spec.bbox.width() * z, spec.bbox.height() * z);
    child.reset(w, h);
    for y in 0..h {
        let py = spec.bbox.y0 + y / z;
        for x in 0..w {
            let px = spec.bbox.x0 + x / z;
            let mine = parent.label[parent.index(px, py)] == spec.label;
            let i = child.index(x, y);
            child.set(
                i,
                if mine {
                    crate::region::cell::Cell::Occupied
                } else {
                    crate::region::cell::Cell::Empty
                },
            );
        }
    }
    child.seal();
    child.bbox = spec.bbox;
    child.zoom = z;
    child.depth = parent.depth + 1;
    child.entry = spec.entry;
    child.exit = spec.exit;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rng::mix;
    use crate::region::cell::Cell;
    use crate::region::region::{picture, region_from_picture};

    fn params(max: u32) -> SplitParams {
        SplitParams {
            max_width: max,
            max_height: max,
            min_zoom: 2,
            max_zoom: 2,
            fill_chance: 0.0,
        }
    }

    /// Carves the `·` cells of `carved` into a fully Occupied region of the same size.
    fn carve_picture(carved: &[&str]) -> Region {
        let w = carved[0].chars().count();
        let full = "#".repeat(w);
        let rows: Vec<&str> = carved.iter().map(|_| full.as_str()).collect();
        let mut r = region_from_picture(&rows);
        let pattern = region_from_picture(carved);
        for i in 0..r.cells().len() {
            if pattern.cells()[i] == Cell::Empty {
                r.carve(i);
            }
        }
        r
    }

    /// The seed's worked example: a 4 x 4 region, the carved path, four sub-regions of 1x2, 2x1,
    /// 1x1 and 2x2, the last zoomed by 2 into the 4 x 4 drawn in the seed, then carved again.
    #[test]
    fn the_seeds_four_by_four_example() {
        let mut r = carve_picture(&["#·##", "#···", "···#", "#·##"]);
        assert_eq!(picture(&r), ["#·##", "#···", "···#", "#·##"]);
        let mut out = Vec::new();
        let mut rng = WarrenRng::new(mix(4, 4));
        let mut stats = SplitStats::default();
        split(
            &mut r,
            &mut rng,
            &params(4),
            &mut SplitWork::default(),
            &mut out,
            &mut stats,
        );
        assert_eq!(stats.components, 4);
        assert_eq!(stats.filled_pieces, 0);
        // Upper left to lower right, as the seed lists them.
        let mut subs: Vec<ChildSpec> = out.clone();
        subs.sort_by_key(|c| c.bbox.x0 + c.bbox.y0);
        let sizes: Vec<(u32, u32)> = subs
            .iter()
            .map(|c| (c.bbox.width(), c.bbox.height()))
            .collect();
        assert_eq!(sizes, [(1, 2), (2, 1), (1, 1), (2, 2)]);
        let boxes: Vec<(u32, u32)> = subs.iter().map(|c| (c.bbox.x0, c.bbox.y0)).collect();
        assert_eq!(boxes, [(0, 0), (2, 0), (0, 3), (2, 2)]);
        // The lower-right sub-region zoomed by 2.
        let last = subs[3];
        let mut zoomed = Region::with_capacity(16);
        zoom_piece(&r, &last, &mut zoomed);
        assert_eq!(picture(&zoomed), ["··##", "··##", "####", "####"]);
        assert_eq!(zoomed.size(), 12);
        // Its entry and exit face the parent's passage: on the block of cell (3, 2) facing the
        // carved (2, 2) or (3, 1), or on the block of (2, 3) facing (2, 2) or (1, 3).
        for p in [last.entry, last.exit] {
            assert!(zoomed.inside(zoomed.index(p.x, p.y)), "{p:?}");
            let faces = (p.x == 2 && p.y < 2)
                || (p.y == 0 && p.x >= 2)
                || (p.y == 2 && p.x < 2)
                || (p.x == 0 && p.y >= 2);
            assert!(faces, "{p:?} does not face the parent's passage");
        }
        // The seed's next carve of it, and what that leaves.
        for (x, y) in [(3, 1), (1, 2), (2, 2), (3, 2), (2, 3)] {
            let i = zoomed.index(x, y);
            zoomed.carve(i);
        }
        assert_eq!(picture(&zoomed), ["··##", "··#·", "#···", "##·#"]);
        let mut next = Vec::new();
        let mut stats = SplitStats::default();
        split(
            &mut zoomed,
            &mut rng,
            &params(4),
            &mut SplitWork::default(),
            &mut next,
            &mut stats,
        );
        let mut cells: Vec<u32> = next.iter().map(|c| c.cells).collect();
        cells.sort();
        assert_eq!(cells, [1, 3, 3]);
    }

    #[test]
    fn a_component_too_large_for_its_zoom_is_divided_into_connected_pieces_that_fit() {
        // A U shape 6 wide: with Wmax = 6 and Z = 2 pieces may be at most 3 x 3.
        let mut r = carve_picture(&["······", "#·##·#", "#·##·#", "#····#", "######"]);
        let mut out = Vec::new();
        let mut stats = SplitStats::default();
        let mut rng = WarrenRng::new(mix(4, 5));
        split(
            &mut r,
            &mut rng,
            &params(6),
            &mut SplitWork::default(),
            &mut out,
            &mut stats,
        );
        assert!(stats.divided >= 1, "{stats:?}");
        for c in &out {
            assert!(
                c.bbox.width() * c.zoom <= 6 && c.bbox.height() * c.zoom <= 6,
                "{c:?}"
            );
            let mut z = Region::with_capacity(36);
            zoom_piece(&r, c, &mut z);
            assert!(z.inside(z.index(c.entry.x, c.entry.y)));
        }
        // Every Occupied cell left belongs to exactly one sub-region.
        let occupied = r.cells().iter().filter(|&&c| c == Cell::Occupied).count() as u32;
        assert_eq!(out.iter().map(|c| c.cells).sum::<u32>(), occupied);
    }

    #[test]
    fn an_enclosed_component_is_filled() {
        // The centre cell is walled off by Filled cells: it faces no passage.
        let mut r = region_from_picture(&["#####", "#***#", "#*#*#", "#***#", "#####"]);
        r.carve(0);
        let mut out = Vec::new();
        let mut stats = SplitStats::default();
        let mut rng = WarrenRng::new(1);
        split(
            &mut r,
            &mut rng,
            &params(16),
            &mut SplitWork::default(),
            &mut out,
            &mut stats,
        );
        assert_eq!(r.cells()[12], Cell::Filled);
        assert_eq!(out.len(), 1);
        assert_eq!(stats.filled_cells, 1);
    }
}
