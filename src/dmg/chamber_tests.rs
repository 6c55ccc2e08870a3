//! Tests of `chamber.rs`.

use super::*;
use crate::dmg::canvas::Facing;

/// The seed's worked example: a 12 x 12 map with obstacles; a width-2 passage (the `#`s of
/// rows 4 and 5 at column 0) heading east; a chamber 6 wide and 8 long wanted beyond it. The
/// seed's map is a window of an open map (its clearances of 6 above the top obstacle say
/// so), so four open rows are added above it.
fn seed_map() -> (Map, Entrance) {
    let rows = [
        "............",
        "............",
        "............",
        "............",
        "#####.......",
        "#####.......",
        "............",
        "............",
        "#...........",
        "#...........",
        "............",
        ".......#####",
        ".......#####",
        "..##...#####",
        "..##...#####",
        "..##........",
    ];
    let map = Map::from_rows(&rows);
    // East-facing: left is north. The passage's left edge square is (0, 8); the chamber's
    // first square at that edge is (1, 8).
    let e = Entrance {
        cursor: Cursor::at(1, 8, Facing::East),
        width: 2,
    };
    (map, e)
}

const REQ: ChamberRequest = ChamberRequest {
    width: 6,
    length: 8,
    min_length: 3,
};

fn p(left: i32, width: i32, length: i32, align: i32, point: i32, kind: ProposalKind) -> Proposal {
    Proposal {
        left,
        width,
        length,
        align,
        point,
        kind,
    }
}

#[test]
fn the_seeds_clearances() {
    let (map, e) = seed_map();
    let mut a = Analysis::default();
    analyse(&map, &e, &REQ, false, &mut a);
    assert_eq!(a.max_length, 8);
    let got: Vec<(i32, i32)> = a.clearance.iter().map(|c| (c.left, c.right)).collect();
    // The seed: (2, 6), (2, 3), (2, 3), (2, 6), open, open, (6, 1), (6, 1).
    assert_eq!(
        got,
        [
            (2, 6),
            (2, 3),
            (2, 3),
            (2, 6),
            (6, 6),
            (6, 6),
            (6, 1),
            (6, 1)
        ]
    );
}

/// The seed's original algorithm (abandon a proposal that meets an obstacle on its way back).
///
/// The seed derives three proposals at point 1 (left 2, 1, 0), the same two again at points
/// 2 and 3, and abandons the rest; the winner is left 2, width 6. Its alignments match (7,
/// 4, and 2 + 1 for the left-0 bonus = 3). Its lengths of 5 for the two full-width
/// proposals are one short: their rows (2..=7 and 3..=8 of the seed's map) are free from
/// column 1 through column 6, and only column 7 is blocked, so both are 6 long.
#[test]
fn the_seeds_example_with_the_original_algorithm() {
    let (map, e) = seed_map();
    let mut a = Analysis::default();
    analyse(&map, &e, &REQ, false, &mut a);
    use ProposalKind::Shifted;
    assert_eq!(
        a.proposals,
        [
            p(2, 6, 6, 7, 1, Shifted),
            p(1, 6, 6, 4, 1, Shifted),
            p(0, 6, 1, 3, 1, Shifted),
        ]
    );
    let params = PlaceParams {
        shrink: false,
        ..PlaceParams::default()
    };
    let won = place_chamber(&map, &e, &REQ, &params, &mut WarrenRng::new(1), &mut a);
    assert_eq!(won.map(|w| (w.left, w.width, w.length)), Some((2, 6, 6)));
}

/// Shrinking instead of abandoning (the default): the seed notes that left 2, width 5,
/// length 8 "would have won", and it does. (The seed's alignments for the shrunk proposals,
/// 4 and 6, count fewer touching squares than it counts for the others; here every proposal
/// is counted the same way.)
#[test]
fn the_seeds_example_shrinking_past_obstacles() {
    let (map, e) = seed_map();
    let mut a = Analysis::default();
    analyse(&map, &e, &REQ, true, &mut a);
    use ProposalKind::{Shifted, Shrunk};
    assert_eq!(
        a.proposals,
        [
            p(2, 6, 6, 7, 1, Shifted),
            p(1, 6, 6, 4, 1, Shifted),
            p(0, 6, 1, 3, 1, Shifted),
            p(0, 5, 6, 5, 4, Shrunk),
            p(2, 4, 8, 6, 7, Shrunk),
            p(2, 5, 8, 8, 7, Shrunk),
        ]
    );
    let won = place_chamber(
        &map,
        &e,
        &REQ,
        &PlaceParams::default(),
        &mut WarrenRng::new(1),
        &mut a,
    );
    assert_eq!(won.map(|w| (w.left, w.width, w.length)), Some((2, 5, 8)));
}

#[test]
fn an_open_map_places_the_centred_chamber_whole() {
    let map = Map::new(30, 30);
    let e = Entrance {
        cursor: Cursor::at(10, 20, Facing::North),
        width: 2,
    };
    let req = ChamberRequest {
        width: 5,
        length: 4,
        min_length: 3,
    };
    let mut a = Analysis::default();
    let won = place_chamber(
        &map,
        &e,
        &req,
        &PlaceParams::default(),
        &mut WarrenRng::new(1),
        &mut a,
    )
    .expect("fits");
    // Extra width 3: two squares left (the odd one), one right.
    assert_eq!(
        (won.left, won.width, won.length, won.kind),
        (2, 5, 4, ProposalKind::Whole)
    );
    let squares: Vec<(i32, i32)> = won.squares(&e).collect();
    assert_eq!(squares.len(), 20);
    assert!(squares.contains(&(8, 20)) && squares.contains(&(12, 17)));
}

#[test]
fn too_short_a_chamber_is_cancelled() {
    // A wall two squares ahead of the entrance.
    let mut map = Map::new(20, 20);
    for x in 0..20 {
        map.set(x, 8, crate::core::grid::cell::FLOOR);
    }
    let e = Entrance {
        cursor: Cursor::at(10, 10, Facing::North),
        width: 2,
    };
    let mut a = Analysis::default();
    let won = place_chamber(
        &map,
        &e,
        &REQ,
        &PlaceParams::default(),
        &mut WarrenRng::new(1),
        &mut a,
    );
    // Rows 10 and 9 are free, row 8 is dug: two squares, below the minimum of three.
    assert_eq!(a.max_length, 2);
    assert_eq!(won, None);
}

/// The clearance-based trace and frame-based alignment against the square-by-square
/// original, on random maps in every rotation, with and without spacing and shrinking.
#[test]
fn fast_analysis_matches_the_square_by_square_one() {
    let mut rng = WarrenRng::new(11);
    let mut proposals = 0;
    for round in 0..600 {
        let mut map = Map::new(24, 24);
        map.set_spacing(round % 3 == 0);
        for _ in 0..(rng.below(50)) {
            let (x, y) = (rng.below(24) as i32, rng.below(24) as i32);
            map.set(x, y, crate::core::grid::cell::FLOOR);
        }
        let facing = [Facing::North, Facing::East, Facing::South, Facing::West][round % 4];
        let (x, y) = (rng.below(24) as i32, rng.below(24) as i32);
        let e = Entrance {
            cursor: Cursor::at(x, y, facing),
            width: 1 + rng.below(3) as i32,
        };
        let req = ChamberRequest {
            width: e.width + rng.below(8) as i32,
            length: 3 + rng.below(10) as i32,
            min_length: 3,
        };
        for shrink in [false, true] {
            let (mut fast, mut slow) = (Analysis::default(), Analysis::default());
            analyse(&map, &e, &req, shrink, &mut fast);
            analyse_by_scanning(&map, &e, &req, shrink, &mut slow);
            assert_eq!(fast, slow, "round {round}, shrink {shrink}");
            proposals += fast.proposals.len();
        }
    }
    // The maps are busy enough for many proposals to be compared.
    assert!(proposals > 1000, "{proposals}");
}

/// Every proposal, in every rotation and in random maps, covers only free squares and
/// keeps the entrance columns inside it.
#[test]
fn proposals_never_cover_dug_squares() {
    let mut rng = WarrenRng::new(5);
    for round in 0..400 {
        let mut map = Map::new(24, 24);
        for _ in 0..(rng.below(60)) {
            let (x, y) = (rng.below(24) as i32, rng.below(24) as i32);
            map.set(x, y, crate::core::grid::cell::FLOOR);
        }
        let facing = [Facing::North, Facing::East, Facing::South, Facing::West][round % 4];
        let e = Entrance {
            cursor: Cursor::at(12, 12, facing),
            width: 1 + rng.below(3) as i32,
        };
        let req = ChamberRequest {
            width: e.width + rng.below(6) as i32,
            length: 3 + rng.below(8) as i32,
            min_length: 3,
        };
        for shrink in [false, true] {
            let mut a = Analysis::default();
            analyse(&map, &e, &req, shrink, &mut a);
            for p in &a.proposals {
                assert!(p.width >= 1 && p.length >= 1, "{p:?}");
                assert!(
                    p.squares(&e).all(|(x, y)| map.free(x, y)),
                    "round {round}: {p:?}"
                );
                // The entrance columns `0..=-(width - 1)` lie inside the chamber.
                assert!(
                    p.left >= 0 && p.left - p.width < -(e.width - 1) + 1,
                    "{p:?}"
                );
            }
        }
    }
}

fn analyse_by_scanning(
    map: &Map,
    e: &Entrance,
    req: &ChamberRequest,
    shrink: bool,
    out: &mut Analysis,
) {
    out.clearance.clear();
    out.proposals.clear();
    let c = &e.cursor;
    let pw = e.width;
    let free = |a: i32, lateral: i32| {
        let (x, y) = c.map_square(a, lateral);
        map.free(x, y)
    };
    // 1. Length allowed by the entrance columns, and the clearances along it.
    let mut max_length = 0;
    while max_length < req.length && (0..pw).all(|k| free(max_length, -k)) {
        let a = max_length;
        let count = |dir: i32, from: i32| {
            let mut n = 0;
            while n < req.width && free(a, from + dir * (n + 1)) {
                n += 1;
            }
            n
        };
        out.clearance.push(Clearance {
            left: count(1, 0),
            right: count(-1, -(pw - 1)),
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
        p.align = alignment_by_scanning(map, e, &p, extra);
        out.proposals.push(p);
        return;
    }
    // 3 and 4. Proposals from each point where it does not fit, traced.
    for (i, cl) in out.clearance.clone().iter().enumerate() {
        if fits_centred(cl) {
            continue;
        }
        let point = i as i32 + 1;
        let w = req.width;
        let n = (w + 1 - pw) - (w - (cl.left + pw).min(w)) - (w - (cl.right + pw).min(w));
        let max_left = cl.left.min(w - pw);
        let mut push = |left: i32, width: i32, kind: ProposalKind| {
            if let Some(p) =
                trace_by_scanning(map, e, req, shrink, point, left, width, kind, max_left)
                && !out
                    .proposals
                    .iter()
                    .any(|q| (q.left, q.width, q.length) == (p.left, p.width, p.length))
            {
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
/// obstacles) and then forward to its length or the first obstacle.
#[allow(clippy::too_many_arguments)]
fn trace_by_scanning(
    map: &Map,
    e: &Entrance,
    req: &ChamberRequest,
    shrink: bool,
    point: i32,
    mut left: i32,
    mut width: i32,
    mut kind: ProposalKind,
    max_left: i32,
) -> Option<Proposal> {
    let c = &e.cursor;
    let pw = e.width;
    let free = |a: i32, lateral: i32| {
        let (x, y) = c.map_square(a, lateral);
        map.free(x, y)
    };
    for a in 0..point {
        // Lateral offsets `left` (leftmost) down to `left - width + 1`; the entrance columns
        // are `0..=-(pw - 1)` and were probed free.
        let mut lateral = left;
        while lateral > left - width {
            if !free(a, lateral) {
                if !shrink {
                    return None;
                }
                kind = ProposalKind::Shrunk;
                if lateral > 0 {
                    // Left of the entrance: the chamber now starts just right of it.
                    width -= left - (lateral - 1);
                    left = lateral - 1;
                } else if lateral < -(pw - 1) {
                    // Right of the entrance: the chamber now ends just left of it.
                    width = left - lateral;
                    break;
                } else {
                    return None;
                }
            }
            lateral -= 1;
        }
    }
    let mut length = point;
    while length < req.length && (0..width).all(|j| free(length, left - j)) {
        length += 1;
    }
    let mut p = Proposal {
        left,
        width,
        length,
        align: 0,
        point,
        kind,
    };
    p.align = alignment_by_scanning(map, e, &p, max_left);
    Some(p)
}

/// Alignment points of a proposal: dug squares right outside its two sides and its entrance
/// wall, plus one when it is shifted fully right (`left` 0) or as far left as its point allowed
/// (`left == max_left`).
fn alignment_by_scanning(map: &Map, e: &Entrance, p: &Proposal, max_left: i32) -> i32 {
    let c = &e.cursor;
    let dug = |a: i32, lateral: i32| {
        let (x, y) = c.map_square(a, lateral);
        map.get(x, y)
            .is_some_and(|code| code != crate::core::grid::cell::WALL)
    };
    // With spacing, a chamber's wall is the ring of rock around it, and that wall is flush with
    // another object's when the square beyond it is dug.
    let gap = if map.spacing() { 2 } else { 1 };
    let mut n = 0;
    for a in 0..p.length {
        n += i32::from(dug(a, p.left + gap)) + i32::from(dug(a, p.left - p.width + 1 - gap));
    }
    for j in 0..p.width {
        n += i32::from(dug(-gap, p.left - j));
    }
    let bonus = p.left == 0 || p.left == max_left;
    n + i32::from(bonus)
}
