//! Splitting a carved region into sub-regions (seed 004, "PCG of regions" and "Dividing large
//! sub-regions"): the 4-connected components of its remaining Occupied cells, each given its own
//! zoom Z in `[min_zoom, max_zoom]` (the seed's pending proposal), and divided into pieces no
//! larger than Wmax/Z x Hmax/Z so that the zoomed piece fits Wmax x Hmax. Every piece is a
//! sub-region to process: the seed's "these nominal regions will be split into smaller regions".
//!
//! Where the seed is silent, the decisions taken:
//! - **Division**: a component too large for its zoom is cut along a grid of Wmax/Z x Hmax/Z
//!   tiles anchored at its box's corner; each tile's part of it is split again into connected
//!   pieces, so every sub-region is connected and fits. The pieces of one component share its
//!   zoom.
//! - **Ports** (the footnote: sub-regions have entry and exit points). On the zoomed piece, a
//!   port is a subcell on one side of a cell's Z x Z block.
//!   - *Entry and exit* lie on sides facing a carved cell of this region, so the passage carved
//!     inside the piece opens onto the passage outside it: the entry on a random such side, the
//!     exit on the one farthest from it (another subcell of the same side if there is only one),
//!     so the piece's passage crosses it.
//!   - *Sibling ports*: every two pieces of one divided component that touch get one port each
//!     on a random side they share, at the same subcell along it, so the two ports meet in the
//!     world and the passages run on from piece to piece. A piece that faces no carved cell
//!     itself is entered through these (its entry and exit are sibling ports).
//! - **Filled**: a component none of whose cells faces a carved cell truly faces nothing (it is
//!   walled off by padding and Filled cells) and becomes Filled; so does an undivided one-cell
//!   component with probability `fill_chance` (the seed's "some occupied cells may be marked
//!   permanently filled"). Nothing else is filled: a piece never is, since its siblings may need
//!   it to reach the passage.

use crate::core::rng::WarrenRng;
use crate::core::sets::UnionFind;
use crate::regions::cell::Cell;
use crate::regions::region::{NONE, OUTSIDE, Point, Region, RegionBox};

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
    /// Its sibling ports are `ports[first_port..end_port]` of the [`Children`] list.
    pub first_port: u32,
    /// One past its last sibling port.
    pub end_port: u32,
    /// Parent cells in the piece.
    pub cells: u32,
}

/// The sub-regions waiting to be made, over every region on the stack: their specs and, in one
/// shared list, their sibling ports.
#[derive(Debug, Default)]
pub struct Children {
    /// The sub-regions, each region's children together.
    pub specs: Vec<ChildSpec>,
    /// Sibling ports, each child's together, in the order of `specs`.
    pub ports: Vec<Point>,
}

impl Children {
    /// An empty list with room for `specs` children and `ports` ports.
    pub fn with_capacity(specs: usize, ports: usize) -> Self {
        Self {
            specs: Vec::with_capacity(specs),
            ports: Vec::with_capacity(ports),
        }
    }

    /// Drops the children from `specs` on, with their ports.
    pub fn truncate(&mut self, specs: usize) {
        if let Some(c) = self.specs.get(specs) {
            self.ports.truncate(c.first_port as usize);
        }
        self.specs.truncate(specs);
    }

    /// Drops everything.
    pub fn clear(&mut self) {
        self.specs.clear();
        self.ports.clear();
    }

    /// The sibling ports of `spec`.
    pub fn ports_of(&self, spec: &ChildSpec) -> &[Point] {
        &self.ports[spec.first_port as usize..spec.end_port as usize]
    }
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
    /// Chance that an undivided one-cell component becomes Filled instead of a sub-region.
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
    /// Ports on sides shared by sibling pieces (two per touching pair).
    pub sibling_ports: u32,
}

/// One piece of the component being split.
#[derive(Clone, Copy, Debug)]
struct Piece {
    /// Its cells are `cells[start..end]` of the work's piece list.
    start: u32,
    end: u32,
    bbox: RegionBox,
    /// Its sides facing carved cells are `faces[face_start..face_end]`.
    face_start: u32,
    face_end: u32,
}

/// Two touching pieces and the shared side chosen for their ports (reservoir-sampled).
#[derive(Clone, Copy, Debug)]
struct Pair {
    /// The lower piece index and its cell on the shared side.
    a: u32,
    cell: u32,
    /// The side of `cell` facing piece `b`.
    dir: u32,
    /// The higher piece index.
    b: u32,
    /// Shared sides seen so far.
    seen: u32,
    /// The subcell along the side where both ports lie.
    offset: u32,
    /// Whether the pair gets its ports.
    keep: bool,
}

/// Reused buffers for splitting.
#[derive(Debug, Default)]
pub struct SplitWork {
    comp: Vec<u32>,
    cells: Vec<u32>,
    stack: Vec<u32>,
    pieces: Vec<Piece>,
    faces: Vec<(u32, u32)>,
    pairs: Vec<Pair>,
    sets: UnionFind,
}

/// Chance that two touching pieces already joined through others get ports of their own too.
const LOOP_CHANCE: f64 = 0.25;

/// Cells of the component being split.
const IN_COMPONENT: u32 = NONE - 1;

/// The side opposite `dir` (0 right, 1 down, 2 left, 3 up).
#[inline]
fn opposite(dir: u32) -> u32 {
    (dir + 2) % 4
}

/// Splits `region` (carved) into sub-regions appended to `out`, labelling their cells with their
/// index among the region's children; components that cannot be sub-regions become Filled.
/// A `leaf` (a region at the target depth, whose sub-regions are never made) only has its
/// components filled by the same rules: no zoom, division or ports are drawn for it.
///
/// # Runtime
/// O(cells + touching piece pairs x pieces); no allocation once the buffers have grown.
pub fn split(
    region: &mut Region,
    rng: &mut WarrenRng,
    params: &SplitParams,
    leaf: bool,
    work: &mut SplitWork,
    out: &mut Children,
    stats: &mut SplitStats,
) {
    let base = out.specs.len();
    let n = (region.width() * region.height()) as usize;
    for start in 0..n {
        if region.cells()[start] != Cell::Occupied || region.label[start] != NONE {
            continue;
        }
        stats.components += 1;
        work.comp.clear();
        flood(
            region,
            start,
            NONE,
            IN_COMPONENT,
            None,
            &mut work.stack,
            &mut work.comp,
        );
        if leaf {
            let faces = work.comp.iter().any(|&c| {
                region
                    .neighbours(c as usize)
                    .into_iter()
                    .any(|j| j != OUTSIDE && region.carved(j))
            });
            if !faces || (work.comp.len() == 1 && rng.chance(params.fill_chance)) {
                fill_component(region, &work.comp, 1, stats);
            }
            continue;
        }
        let mut bbox = RegionBox::EMPTY;
        for &c in &work.comp {
            let p = region.point(c as usize);
            bbox.cover(p.x, p.y);
        }
        let z = params.min_zoom + rng.below(params.max_zoom - params.min_zoom + 1);
        let (tw, th) = (params.max_width / z, params.max_height / z);
        let label0 = (out.specs.len() - base) as u32;
        let divided = bbox.width() > tw || bbox.height() > th;
        cut_pieces(region, work, label0, divided.then_some((bbox, tw, th)));
        stats.divided += u32::from(divided);
        let faces_nothing = work.faces.is_empty();
        let lonely = !divided && work.comp.len() == 1 && rng.chance(params.fill_chance);
        if faces_nothing || lonely {
            fill_component(region, &work.comp, work.pieces.len() as u32, stats);
            continue;
        }
        if divided {
            pair_pieces(region, rng, label0, z, work);
        }
        for k in 0..work.pieces.len() {
            emit_piece(
                region,
                rng,
                z,
                label0 + k as u32,
                k as u32,
                work,
                out,
                stats,
            );
        }
    }
}

/// Fills the cells `comp` (making `pieces` pieces Filled) and unlabels them.
fn fill_component(region: &mut Region, comp: &[u32], pieces: u32, stats: &mut SplitStats) {
    for &c in comp {
        region.fill(c as usize);
        region.label[c as usize] = NONE;
    }
    stats.filled_pieces += pieces;
    stats.filled_cells += comp.len() as u32;
}

/// Labels the component in `work.comp` as pieces `label0, label0 + 1, ...` (one piece, or the
/// connected parts of each tile of `tiles`), listing them in `work.pieces` with their boxes and
/// their sides that face carved cells.
fn cut_pieces(
    region: &mut Region,
    work: &mut SplitWork,
    label0: u32,
    tiles: Option<(RegionBox, u32, u32)>,
) {
    work.pieces.clear();
    work.cells.clear();
    work.faces.clear();
    work.pairs.clear();
    if tiles.is_none() {
        for &c in &work.comp {
            region.label[c as usize] = label0;
        }
        work.cells.extend_from_slice(&work.comp);
        let piece = piece_of(region, 0, work);
        work.pieces.push(piece);
        return;
    }
    for k in 0..work.comp.len() {
        let c = work.comp[k] as usize;
        if region.label[c] != IN_COMPONENT {
            continue;
        }
        let start = work.cells.len() as u32;
        let label = label0 + work.pieces.len() as u32;
        flood(
            region,
            c,
            IN_COMPONENT,
            label,
            tiles,
            &mut work.stack,
            &mut work.cells,
        );
        let piece = piece_of(region, start, work);
        work.pieces.push(piece);
    }
}

/// The piece made of `work.cells[start..]`: its box and its sides facing carved cells (appended
/// to `work.faces`).
fn piece_of(region: &Region, start: u32, work: &mut SplitWork) -> Piece {
    let mut bbox = RegionBox::EMPTY;
    let face_start = work.faces.len() as u32;
    for &c in &work.cells[start as usize..] {
        let p = region.point(c as usize);
        bbox.cover(p.x, p.y);
        for (dir, j) in region.neighbours(c as usize).into_iter().enumerate() {
            if j != OUTSIDE && region.carved(j) {
                work.faces.push((c, dir as u32));
            }
        }
    }
    Piece {
        start,
        end: work.cells.len() as u32,
        bbox,
        face_start,
        face_end: work.faces.len() as u32,
    }
}

/// Lists every two touching pieces of the component with one shared side drawn uniformly among
/// theirs and the subcell along it where their ports meet.
fn pair_pieces(region: &Region, rng: &mut WarrenRng, label0: u32, z: u32, work: &mut SplitWork) {
    work.pairs.clear();
    let count = work.pieces.len() as u32;
    let piece = |c: usize| region.label[c].wrapping_sub(label0);
    for &c in &work.comp {
        let pc = piece(c as usize);
        // Right and down only: each shared side is met once.
        for dir in [0, 1] {
            let Some(j) = region.neighbour(c as usize, dir) else {
                continue;
            };
            let pj = piece(j);
            if pj >= count || pj == pc {
                continue;
            }
            // The side as seen from the lower piece.
            let (a, cell, side, b) = if pc < pj {
                (pc, c, dir, pj)
            } else {
                (pj, j as u32, opposite(dir), pc)
            };
            let found = work.pairs.iter().position(|p| p.a == a && p.b == b);
            let k = found.unwrap_or_else(|| {
                work.pairs.push(Pair {
                    a,
                    cell,
                    dir: side,
                    b,
                    seen: 0,
                    offset: 0,
                    keep: false,
                });
                work.pairs.len() - 1
            });
            let pair = &mut work.pairs[k];
            pair.seen += 1;
            if rng.below(pair.seen) == 0 {
                pair.cell = cell;
                pair.dir = side;
            }
        }
    }
    // A spanning tree of the pieces, from a random first pair, plus a share of the other pairs
    // for loops.
    work.sets.reset(count as usize);
    let n = work.pairs.len();
    let first = rng.below(n as u32) as usize;
    for k in 0..n {
        let pair = &mut work.pairs[(first + k) % n];
        pair.keep = work.sets.union(pair.a, pair.b) || rng.chance(LOOP_CHANCE);
    }
    work.pairs.retain(|p| p.keep);
    for pair in &mut work.pairs {
        pair.offset = rng.below(z);
    }
}

/// Emits piece `k` of the component (labelled `label`) as a sub-region with its ports.
#[allow(clippy::too_many_arguments)]
fn emit_piece(
    region: &Region,
    rng: &mut WarrenRng,
    z: u32,
    label: u32,
    k: u32,
    work: &SplitWork,
    out: &mut Children,
    stats: &mut SplitStats,
) {
    let piece = work.pieces[k as usize];
    let bbox = piece.bbox;
    let first_port = out.ports.len() as u32;
    for pair in work.pairs.iter().filter(|p| p.a == k || p.b == k) {
        // The two ports of a pair take the same subcell along their shared side (one zoom for
        // the whole component), so they meet in the world.
        let r = pair.offset;
        let port = if pair.a == k {
            port_point(region, (pair.cell, pair.dir), bbox, z, r)
        } else {
            let across = region
                .neighbour(pair.cell as usize, pair.dir)
                .expect("a shared side has a cell beyond it");
            port_point(region, (across as u32, opposite(pair.dir)), bbox, z, r)
        };
        out.ports.push(port);
        stats.sibling_ports += 1;
    }
    let end_port = out.ports.len() as u32;
    let faces = &work.faces[piece.face_start as usize..piece.face_end as usize];
    let (entry, exit) = if faces.is_empty() {
        // Reached through its siblings only.
        let ports = &out.ports[first_port as usize..end_port as usize];
        (ports[0], ports[ports.len() - 1])
    } else {
        let e = faces[rng.below(faces.len() as u32) as usize];
        let re = rng.below(z);
        let x = farthest(region, faces, e, rng);
        let rx = if x == e {
            (re + 1 + rng.below(z - 1)) % z
        } else {
            rng.below(z)
        };
        (
            port_point(region, e, bbox, z, re),
            port_point(region, x, bbox, z, rx),
        )
    };
    out.specs.push(ChildSpec {
        label,
        bbox,
        zoom: z,
        entry,
        exit,
        first_port,
        end_port,
        cells: piece.end - piece.start,
    });
}

/// Of the sides `faces`, the one whose cell is farthest from `e`'s (Manhattan), the first of
/// equals after a random start.
fn farthest(
    region: &Region,
    faces: &[(u32, u32)],
    e: (u32, u32),
    rng: &mut WarrenRng,
) -> (u32, u32) {
    let pe = region.point(e.0 as usize);
    let at = rng.below(faces.len() as u32) as usize;
    let mut best = (0, e);
    for k in 0..faces.len() {
        let f = faces[(at + k) % faces.len()];
        let p = region.point(f.0 as usize);
        let d = p.x.abs_diff(pe.x) + p.y.abs_diff(pe.y);
        if d > best.0 {
            best = (d, f);
        }
    }
    best.1
}

/// Relabels the 4-connected cells labelled `from` around `start` as `to` (within `start`'s tile
/// when `tile` is given) and appends them to `cells`.
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
    stack.clear();
    region.label[start] = to;
    stack.push(start as u32);
    while let Some(i) = stack.pop() {
        cells.push(i);
        for j in region.neighbours(i as usize) {
            if j != OUTSIDE
                && region.label[j] == from
                && region.cells()[j] == Cell::Occupied
                && tile_of(region.point(j)) == home
            {
                region.label[j] = to;
                stack.push(j as u32);
            }
        }
    }
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
/// subcells, everything else in the box Empty padding; then seals it, sets its ports (`ports`
/// are its sibling ports) and its world edges (each parent column's world span cut into Z
/// parts, `a + j * (b - a) / Z`).
pub fn zoom_piece(parent: &Region, spec: &ChildSpec, ports: &[Point], child: &mut Region) {
    let z = spec.zoom;
    let (w, h) = (spec.bbox.width() * z, spec.bbox.height() * z);
    child.reset(w, h);
    for y in 0..h {
        let py = spec.bbox.y0 + y / z;
        for x in 0..w {
            let px = spec.bbox.x0 + x / z;
            let mine = parent.label[parent.index(px, py)] == spec.label;
            let i = child.index(x, y);
            child.set(i, if mine { Cell::Occupied } else { Cell::Empty });
        }
    }
    child.seal();
    child.bbox = spec.bbox;
    child.zoom = z;
    child.depth = parent.depth + 1;
    child.entry = spec.entry;
    child.exit = spec.exit;
    child.ports.extend_from_slice(ports);
    cut_edges(&parent.xs, spec.bbox.x0, spec.bbox.x1, z, &mut child.xs);
    cut_edges(&parent.ys, spec.bbox.y0, spec.bbox.y1, z, &mut child.ys);
}

/// The edges of parent columns `from..to` (edges `parent`) each cut into `z` parts.
fn cut_edges(parent: &[u32], from: u32, to: u32, z: u32, out: &mut Vec<u32>) {
    out.clear();
    if parent.len() <= to as usize {
        // A region made outside a level (tests): no world edges.
        return;
    }
    for p in from..to {
        let (a, b) = (parent[p as usize], parent[p as usize + 1]);
        out.extend((0..z).map(|j| a + j * (b - a) / z));
    }
    out.push(parent[to as usize]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rng::mix;
    use crate::regions::cell::Cell;
    use crate::regions::region::{picture, region_from_picture};

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
        let mut out = Children::default();
        let mut rng = WarrenRng::new(mix(4, 4));
        let mut stats = SplitStats::default();
        split(
            &mut r,
            &mut rng,
            &params(4),
            false,
            &mut SplitWork::default(),
            &mut out,
            &mut stats,
        );
        assert_eq!(stats.components, 4);
        assert_eq!(stats.filled_pieces, 0);
        // Upper left to lower right, as the seed lists them.
        let mut subs: Vec<ChildSpec> = out.specs.clone();
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
        zoom_piece(&r, &last, out.ports_of(&last), &mut zoomed);
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
        let mut next = Children::default();
        let mut stats = SplitStats::default();
        split(
            &mut zoomed,
            &mut rng,
            &params(4),
            false,
            &mut SplitWork::default(),
            &mut next,
            &mut stats,
        );
        let mut cells: Vec<u32> = next.specs.iter().map(|c| c.cells).collect();
        cells.sort();
        assert_eq!(cells, [1, 3, 3]);
    }

    #[test]
    fn a_component_too_large_for_its_zoom_is_divided_into_connected_pieces_that_fit() {
        // A U shape 6 wide: with Wmax = 6 and Z = 2 pieces may be at most 3 x 3.
        let mut r = carve_picture(&["······", "#·##·#", "#·##·#", "#····#", "######"]);
        let mut out = Children::default();
        let mut stats = SplitStats::default();
        let mut rng = WarrenRng::new(mix(4, 5));
        split(
            &mut r,
            &mut rng,
            &params(6),
            false,
            &mut SplitWork::default(),
            &mut out,
            &mut stats,
        );
        assert!(stats.divided >= 1, "{stats:?}");
        for c in &out.specs {
            assert!(
                c.bbox.width() * c.zoom <= 6 && c.bbox.height() * c.zoom <= 6,
                "{c:?}"
            );
            let mut z = Region::with_capacity(36);
            zoom_piece(&r, c, out.ports_of(c), &mut z);
            assert!(z.inside(z.index(c.entry.x, c.entry.y)));
        }
        // Every Occupied cell left belongs to exactly one sub-region.
        let occupied = r.cells().iter().filter(|&&c| c == Cell::Occupied).count() as u32;
        assert_eq!(out.specs.iter().map(|c| c.cells).sum::<u32>(), occupied);
    }

    /// Every piece of a divided component is a sub-region, even those facing no carved cell,
    /// which are entered through ports shared with their siblings; two ports of a pair lie on
    /// the two sides of one shared edge, at the same subcell along it.
    #[test]
    fn every_piece_of_a_divided_component_is_a_region_reached_through_its_siblings() {
        for seed in 0..50 {
            // Only the left column carved: the 5 x 6 component right of it is cut into 3 x 3
            // tiles (Wmax 6, Z 2), and the pieces at the right face no carved cell.
            let mut r = carve_picture(&["·#####"; 6]);
            let mut out = Children::default();
            let mut stats = SplitStats::default();
            let mut rng = WarrenRng::new(mix(7, seed));
            split(
                &mut r,
                &mut rng,
                &params(6),
                false,
                &mut SplitWork::default(),
                &mut out,
                &mut stats,
            );
            assert_eq!((stats.divided, stats.filled_pieces), (1, 0), "{stats:?}");
            assert_eq!(out.specs.len(), 4);
            for c in &out.specs {
                let mut z = Region::with_capacity(36);
                zoom_piece(&r, c, out.ports_of(c), &mut z);
                let on_left_passage = |p: Point| c.bbox.x0 == 1 && p.x == 0;
                if c.bbox.x0 > 1 {
                    // Faces nothing carved: entered and left through sibling ports.
                    assert!(!out.ports_of(c).is_empty(), "{c:?}");
                    assert!(out.ports_of(c).contains(&c.entry));
                } else {
                    assert!(on_left_passage(c.entry) && on_left_passage(c.exit), "{c:?}");
                }
                for &p in [c.entry, c.exit].iter().chain(out.ports_of(c)) {
                    assert!(z.inside(z.index(p.x, p.y)), "{p:?} of {c:?}");
                }
            }
            // Ports meet: each sibling port, in parent subcell coordinates, has a partner in
            // another piece one subcell away, across the shared edge.
            let global: Vec<(usize, u32, u32)> = out
                .specs
                .iter()
                .enumerate()
                .flat_map(|(k, c)| {
                    out.ports_of(c)
                        .iter()
                        .map(move |p| (k, c.bbox.x0 * 2 + p.x, c.bbox.y0 * 2 + p.y))
                })
                .collect();
            assert!(
                global.len() >= 6,
                "a spanning tree of four pieces: {global:?}"
            );
            for &(k, x, y) in &global {
                assert!(
                    global
                        .iter()
                        .any(|&(j, u, v)| j != k && u.abs_diff(x) + v.abs_diff(y) == 1),
                    "port ({x}, {y}) of piece {k} meets none in {global:?}"
                );
            }
        }
    }

    #[test]
    fn an_enclosed_component_is_filled() {
        // The centre cell is walled off by Filled cells: it faces no passage.
        let mut r = region_from_picture(&["#####", "#***#", "#*#*#", "#***#", "#####"]);
        r.carve(0);
        let mut out = Children::default();
        let mut stats = SplitStats::default();
        let mut rng = WarrenRng::new(1);
        split(
            &mut r,
            &mut rng,
            &params(16),
            false,
            &mut SplitWork::default(),
            &mut out,
            &mut stats,
        );
        assert_eq!(r.cells()[12], Cell::Filled);
        assert_eq!(out.specs.len(), 1);
        assert_eq!(stats.filled_cells, 1);
    }
}
