//! Placing a chamber at the end of a passage: seed 003's clearance-and-proposal algorithm.
//!
//! The chamber grows forward from the entrance (the passage end, `pwidth` squares wide).
//!
//! 1. **Probe.** At every length point `p` out from the entrance (the `p`-th square forward),
//!    count the free squares to the left of the entrance's left edge and to the right of its right
//!    edge (`clear_left`, `clear_right`, capped at the chamber width). The first point where the
//!    entrance columns themselves are blocked ends the chamber's length; below the minimum length
//!    (15 ft, 3 squares) the chamber is cancelled.
//! 2. **Whole.** If both clearances reach half the chamber width at every point, the centred
//!    chamber (the extra width split evenly, the odd square to the left) is placed as it is.
//! 3. **Proposals.** Otherwise each point where a clearance is below half the width proposes
//!    `(width + 1 - pwidth) - (width - min(clear_left + pwidth, width)) -
//!    (width - min(clear_right + pwidth, width))` shifted chambers, from the leftmost shift the
//!    left clearance allows rightward; where that count is below one, a single proposal fills
//!    all the width there is.
//! 4. **Trace.** Each proposal is drawn back from its point to the entrance and then forward until
//!    its length or an obstacle. A proposal that meets an obstacle on the way back is abandoned in
//!    the seed's original algorithm; by default it is *shrunk* past the obstacle instead (an
//!    obstacle left of the entrance moves the left edge and narrows the chamber, one to the right
//!    narrows it), which the seed found would have produced better rooms.
//! 5. **Choice.** Each proposal scores `area_weight x area + align_weight x alignment`, where
//!    alignment counts the squares along the chamber's two sides and its entrance wall that touch
//!    something already dug (walls flush with existing walls), plus one when the chamber is
//!    shifted fully right (`left` 0) or as far left as its point's clearance allows (`left` at
//!    its maximum). The best score wins (ties: the earlier proposal); with a
//!    temperature above zero a proposal is drawn with probability proportional to
//!    `exp((score - best) / temperature)`.

use crate::core::rng::WarrenRng;
use crate::dmg::canvas::{Cursor, Map};

/// Where a chamber starts: a cursor on the first square beyond the passage end, at the passage's
/// left edge, facing away from the passage, and the passage width.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entrance {
    /// On the chamber's first square at the entrance's left edge, facing into the chamber.
    pub cursor: Cursor,
    /// Passage width in squares.
    pub width: i32,
}

/// The chamber the tables asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChamberRequest {
    /// Squares across (perpendicular to the entrance direction).
    pub width: i32,
    /// Squares forward.
    pub length: i32,
    /// Shorter than this and the chamber is cancelled (the seed: 15 ft, 3 squares).
    pub min_length: i32,
}

/// How proposals are judged.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlaceParams {
    /// Weight of the area in a proposal's score.
    pub area_weight: f32,
    /// Weight of the alignment points.
    pub align_weight: f32,
    /// 0: always the best score; above 0, less optimal proposals are drawn at random.
    pub temperature: f32,
    /// Shrink a proposal past an obstacle met on the way back to the entrance (default) rather
    /// than abandon it (the seed's original algorithm).
    pub shrink: bool,
}

impl Default for PlaceParams {
    fn default() -> Self {
        Self {
            area_weight: 1.0,
            align_weight: 0.25,
            temperature: 0.0,
            shrink: true,
        }
    }
}

/// Clearance at one length point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clearance {
    /// Free squares left of the entrance's left edge (capped at the chamber width).
    pub left: i32,
    /// Free squares right of the entrance's right edge (capped at the chamber width).
    pub right: i32,
}

/// How a proposal came about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProposalKind {
    /// The centred chamber fitted everywhere.
    Whole,
    /// Shifted sideways, full width.
    Shifted,
    /// Narrowed past an obstacle (or to the width available).
    Shrunk,
}

/// A candidate placement: the chamber covers `width` squares across, starting `left` squares to
/// the left of the entrance's left edge, and `length` squares forward.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Proposal {
    /// Squares of the chamber to the left of the entrance's left edge.
    pub left: i32,
    /// Squares across.
    pub width: i32,
    /// Squares forward.
    pub length: i32,
    /// Alignment points.
    pub align: i32,
    /// The length point that proposed it (0 for the whole chamber).
    pub point: i32,
    /// How it came about.
    pub kind: ProposalKind,
}

impl Proposal {
    /// Squares covered.
    pub fn area(&self) -> i32 {
        self.width * self.length
    }

    /// The score under `params`.
    pub fn score(&self, params: &PlaceParams) -> f32 {
        params.area_weight * self.area() as f32 + params.align_weight * self.align as f32
    }

    /// Every map square of the chamber, row by row from the entrance.
    pub fn squares(&self, e: &Entrance) -> impl Iterator<Item = (i32, i32)> + '_ {
        let c = e.cursor;
        (0..self.length)
            .flat_map(move |a| (0..self.width).map(move |j| c.map_square(a, self.left - j)))
    }
}

/// What the algorithm worked out, for tests, metrics and the curious.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Analysis {
    /// Length the entrance columns allow (at most the requested length).
    pub max_length: i32,
    /// Clearance at points `1..=max_length`.
    pub clearance: Vec<Clearance>,
    /// Distinct proposals in the order they were made (too-short ones included).
    pub proposals: Vec<Proposal>,
}

/// Free squares stepping `step` at a time from state index `from` (not counted), at most
/// `max`. `from` must be free, so the walk stops at a blocked square inside the padded map.
#[inline]
fn free_run(map: &Map, from: usize, step: isize, max: i32) -> i32 {
    let mut n = 0;
    let mut i = from;
    while n < max {
        i = (i as isize + step) as usize;
        if !map.free_at(i) {
            break;
        }
        n += 1;
    }
    n
}

/// Probes, proposes and traces (steps 1 to 4 of the module doc) into `out`.
pub fn analyse(map: &Map, e: &Entrance, req: &ChamberRequest, shrink: bool, out: &mut Analysis) {
    out.clearance.clear();
    out.proposals.clear();
    out.max_length = 0;
    let c = &e.cursor;
    let pw = e.width;
    if !map.free(c.map_x(), c.map_y()) {
        return;
    }
    // PERF: every walk below starts from a free square and stops at the first blocked one, so
    // it reads one state byte per square through the frame, with no coordinate turning and no
    // bounds arithmetic (the map's blocked padding ends every walk).
    let f = map.frame(c);
    let left = f.left_step();
    // 1. Length allowed by the entrance columns, and the clearances along it.
    let mut max_length = 0;
    while max_length < req.length {
        let edge = f.at(max_length, 0);
        // The entrance's left-edge square (one step past the free row before it), then its
        // other columns rightward while they are free.
        if !map.free_at(edge) || free_run(map, edge, -left, pw - 1) < pw - 1 {
            break;
        }
        let right_edge = f.at(max_length, -(pw - 1));
        out.clearance.push(Clearance {
            left: free_run(map, edge, left, req.width),
            right: free_run(map, right_edge, -left, req.width),
        });
        max_length += 1;
    }
    out.max_length = max_length;
    if max_length == 0 || req.width < pw {
        return;
    }
    // 2. The centred chamber, placed whole when both clearances reach half the chamber width
    // everywhere (the seed's test: it leaves the centred chamber a margin beyond the entrance).
    let extra = req.width - pw;
    let lw = (extra + 1) / 2;
    let half = req.width / 2;
    let fits_centred = |cl: &Clearance| cl.left >= half && cl.right >= half;
    if out.clearance.iter().all(fits_centred) {
        let mut p = Proposal {
            left: lw,
            width: req.width,
            length: max_length,
            align: 0,
            point: 0,
            kind: ProposalKind::Whole,
        };
        p.align = alignment_in(map, &f, &p, extra);
        out.proposals.push(p);
        return;
    }
    // 3 and 4. Proposals from each point where it does not fit, traced.
    for i in 0..out.clearance.len() {
        let cl = out.clearance[i];
        if fits_centred(&cl) {
            continue;
        }
        let point = i as i32 + 1;
        let w = req.width;
        let n = (w + 1 - pw) - (w - (cl.left + pw).min(w)) - (w - (cl.right + pw).min(w));
        let max_left = cl.left.min(w - pw);
        let mut push = |left: i32, width: i32, kind: ProposalKind| {
            if let Some(mut p) = trace(&out.clearance, pw, shrink, point, left, width, kind)
                && !out
                    .proposals
                    .iter()
                    .any(|q| (q.left, q.width, q.length) == (p.left, p.width, p.length))
            {
                p.align = alignment_in(map, &f, &p, max_left);
                out.proposals.push(p);
            }
        };
        if n >= 1 {
            for k in 0..n {
                push(max_left - k, w, ProposalKind::Shifted);
            }
        } else {
            // Not enough width here: one proposal filling all there is.
            push(cl.left, cl.left + pw + cl.right, ProposalKind::Shrunk);
        }
    }
}

/// Draws a proposal back from `point` to the entrance (abandoning it, or shrinking it past
/// obstacles) and then forward to its length or the first obstacle; its alignment is left at 0.
///
/// Works on the clearances alone. Row `a` is free from lateral offset `clear[a].left` (left of
/// the entrance's left edge) down to `-(pw - 1) - clear[a].right`, and the square just beyond
/// each end is blocked unless the clearance reached its cap, the chamber width, which no
/// proposal exceeds. Scanning a row from the proposal's left edge rightward, the seed's trace
/// therefore meets (and, shrinking, moves its left edge past) the left obstacle exactly when
/// `left > clear[a].left`, leaving `left = clear[a].left`, and then meets the right obstacle
/// exactly when the proposal reaches beyond the right clearance. Rows from the maximum length
/// on have a blocked entrance column, which every proposal covers.
fn trace(
    clear: &[Clearance],
    pw: i32,
    shrink: bool,
    point: i32,
    mut left: i32,
    mut width: i32,
    mut kind: ProposalKind,
) -> Option<Proposal> {
    for cl in &clear[..point as usize] {
        if left > cl.left {
            if !shrink {
                return None;
            }
            // Left of the entrance: the chamber now starts just right of the obstacle.
            kind = ProposalKind::Shrunk;
            width -= left - cl.left;
            left = cl.left;
        }
        let right_free = -(pw - 1) - cl.right;
        if left - width + 1 < right_free {
            if !shrink {
                return None;
            }
            // Right of the entrance: the chamber now ends just left of the obstacle.
            kind = ProposalKind::Shrunk;
            width = left - right_free + 1;
        }
    }
    let fits = |cl: &Clearance| left <= cl.left && left - width + 1 >= -(pw - 1) - cl.right;
    let mut length = point;
    while (length as usize) < clear.len() && fits(&clear[length as usize]) {
        length += 1;
    }
    Some(Proposal {
        left,
        width,
        length,
        align: 0,
        point,
        kind,
    })
}

/// Alignment points of a proposal: dug squares right outside its two sides and its entrance
/// wall, plus one when it is shifted fully right (`left` 0) or as far left as its point allowed
/// (`left == max_left`). `f` is the entrance's frame; the proposal's squares are free.
fn alignment_in(map: &Map, f: &crate::dmg::canvas::Frame, p: &Proposal, max_left: i32) -> i32 {
    // With spacing, a chamber's wall is the ring of rock around it, and that wall is flush with
    // another object's when the square beyond it is dug.
    // PERF: the squares looked at lie at most `gap` (2) past a free square: inside the map's
    // padding, so plain index steps.
    let gap = if map.spacing() { 2 } else { 1 };
    let ahead = f.ahead_step();
    let mut n = 0;
    let (mut l, mut r) = (f.at(0, p.left + gap), f.at(0, p.left - p.width + 1 - gap));
    for _ in 0..p.length {
        n += i32::from(map.dug_at(l)) + i32::from(map.dug_at(r));
        l = (l as isize + ahead) as usize;
        r = (r as isize + ahead) as usize;
    }
    let mut b = f.at(-gap, p.left);
    for _ in 0..p.width {
        n += i32::from(map.dug_at(b));
        b = (b as isize - f.left_step()) as usize;
    }
    let bonus = p.left == 0 || p.left == max_left;
    n + i32::from(bonus)
}

/// Runs the whole algorithm and picks a placement (`None`: cancelled, nothing at least
/// `min_length` long fits). `analysis` is scratch and keeps what was worked out.
pub fn place_chamber(
    map: &Map,
    e: &Entrance,
    req: &ChamberRequest,
    params: &PlaceParams,
    rng: &mut WarrenRng,
    analysis: &mut Analysis,
) -> Option<Proposal> {
    analyse(map, e, req, params.shrink, analysis);
    let eligible = || {
        analysis
            .proposals
            .iter()
            .filter(|p| p.length >= req.min_length && p.width >= 1)
    };
    let best = eligible()
        .map(|p| p.score(params))
        .fold(f32::NEG_INFINITY, f32::max);
    if !best.is_finite() {
        return None;
    }
    if params.temperature <= 0.0 {
        return eligible().find(|p| p.score(params) == best).copied();
    }
    // NOTE: `portable::exp`, not libm's `f32::exp`, whose last bit depends on the libm and (in
    // glibc) on the CPU it runs on; a weight one bit off can flip which proposal is drawn.
    let weight =
        |p: &Proposal| crate::core::portable::exp((p.score(params) - best) / params.temperature);
    let total: f32 = eligible().map(weight).sum();
    let mut pick = rng.unit_f32() * total;
    let mut last = None;
    for p in eligible() {
        last = Some(*p);
        if pick < weight(p) {
            return Some(*p);
        }
        pick -= weight(p);
    }
    last
}

#[cfg(test)]
#[path = "chamber_tests.rs"]
mod tests;
