//! Tests of the tile-map rasteriser, with [`super::verify`] as the oracle of
//! every map drawn and a breadth-first search as the oracle of the A* slow path.

use super::*;
use crate::core::generator::{GraphView, RoomsView};
use crate::core::rng::WarrenRng;
use crate::grammar::tilemap::verify::verify_tile_map;

const PARAMS: TileParams = TileParams {
    corridor_width: 1,
    max_width: 4096,
    max_height: 4096,
};

/// Rooms `(x0, y0, x1, y1)` and corridors `(a, b)`, drawn; the grid, the moved rooms and the
/// result.
struct Drawn {
    grid: Grid,
    x0: Vec<i32>,
    y0: Vec<i32>,
    x1: Vec<i32>,
    y1: Vec<i32>,
    src: Vec<u32>,
    dst: Vec<u32>,
    flags: Vec<u8>,
    result: Result<TileReport, TileError>,
    lengths: Vec<u32>,
}

fn draw(rooms: &[(i32, i32, i32, i32)], edges: &[(u32, u32)], params: &TileParams) -> Drawn {
    let mut x0: Vec<i32> = rooms.iter().map(|r| r.0).collect();
    let mut y0: Vec<i32> = rooms.iter().map(|r| r.1).collect();
    let mut x1: Vec<i32> = rooms.iter().map(|r| r.2).collect();
    let mut y1: Vec<i32> = rooms.iter().map(|r| r.3).collect();
    let src: Vec<u32> = edges.iter().map(|e| e.0).collect();
    let dst: Vec<u32> = edges.iter().map(|e| e.1).collect();
    let flags = vec![0u8; edges.len()];
    let mut grid = Grid::default();
    let mut s = TileScratch::default();
    let result = draw_tile_map(
        &mut x0, &mut y0, &mut x1, &mut y1, &src, &dst, &flags, params, &mut grid, &mut s,
    );
    Drawn {
        grid,
        x0,
        y0,
        x1,
        y1,
        src,
        dst,
        flags,
        result,
        lengths: s.corridor_len,
    }
}

impl Drawn {
    fn verify(&self) -> Result<crate::grammar::tilemap::verify::MapFacts, crate::Violation> {
        let xs = vec![0.0f32; self.x0.len()];
        let graph = GraphView {
            x: &xs,
            y: &xs,
            tag: &[],
            src: &self.src,
            dst: &self.dst,
            flags: &self.flags,
        };
        let rooms = RoomsView {
            x0: &self.x0,
            y0: &self.y0,
            x1: &self.x1,
            y1: &self.y1,
        };
        verify_tile_map(&self.grid.view(), &graph, &rooms)
    }

    fn text(&self) -> String {
        let mut out = String::new();
        for row in self.grid.cells.chunks(self.grid.width as usize) {
            out.extend(row.iter().map(|&c| match c {
                cell::WALL => '#',
                cell::FLOOR => '.',
                cell::DOOR => '+',
                _ => '?',
            }));
            out.push('\n');
        }
        out
    }
}

#[test]
fn rooms_facing_each_other_get_a_straight_corridor() {
    let d = draw(&[(0, 0, 4, 3), (10, 0, 14, 3)], &[(0, 1)], &PARAMS);
    let report = d.result.clone().expect("drawn");
    assert_eq!(report.room_tiles, 24);
    assert_eq!(report.door_tiles, 2);
    // Columns 4 and 9 are the walls, 5..9 the corridor.
    assert_eq!(report.corridor_tiles, 4);
    assert_eq!(d.lengths, vec![4]);
    assert_eq!(report.searched, 0);
    let facts = d.verify().unwrap_or_else(|v| panic!("{v}\n{}", d.text()));
    assert_eq!(facts.corridor_tiles, 4);
    // The border is width + 3 = 4 tiles.
    assert_eq!((d.grid.width, d.grid.height), (14 + 8, 3 + 8));
    assert_eq!((d.x0[0], d.y0[0]), (4, 4));
}

#[test]
fn rooms_one_tile_apart_share_a_wall_with_a_door() {
    let d = draw(&[(0, 0, 4, 4), (5, 0, 9, 4)], &[(0, 1)], &PARAMS);
    let report = d.result.clone().expect("drawn");
    assert_eq!((report.door_tiles, report.corridor_tiles), (1, 0));
    d.verify().unwrap_or_else(|v| panic!("{v}\n{}", d.text()));
}

#[test]
fn rooms_two_tiles_apart_get_two_doors_back_to_back() {
    let d = draw(&[(0, 0, 4, 4), (0, 6, 4, 10)], &[(0, 1)], &PARAMS);
    let report = d.result.clone().expect("drawn");
    assert_eq!((report.door_tiles, report.corridor_tiles), (2, 0));
    d.verify().unwrap_or_else(|v| panic!("{v}\n{}", d.text()));
}

#[test]
fn diagonal_rooms_get_an_l() {
    let d = draw(&[(0, 0, 4, 4), (10, 10, 14, 14)], &[(0, 1)], &PARAMS);
    let report = d.result.clone().expect("drawn");
    assert_eq!(report.searched, 0);
    d.verify().unwrap_or_else(|v| panic!("{v}\n{}", d.text()));
    // One turn: the corridor's tiles are two straight legs.
    assert_eq!(report.door_tiles, 2);
    assert!(report.corridor_tiles >= 10, "{}", d.text());
}

#[test]
fn a_room_in_the_way_sends_the_corridor_round_it() {
    // Room 2 sits between rooms 0 and 1, which must be joined without opening it.
    let d = draw(
        &[(0, 0, 4, 12), (20, 0, 24, 12), (8, -2, 16, 14)],
        &[(0, 1), (0, 2), (2, 1)],
        &PARAMS,
    );
    d.result.clone().expect("drawn");
    d.verify().unwrap_or_else(|v| panic!("{v}\n{}", d.text()));
}

#[test]
fn wide_corridors_are_as_wide_as_asked() {
    let params = TileParams {
        corridor_width: 3,
        ..PARAMS
    };
    let d = draw(
        &[
            (0, 0, 6, 6),
            (12, 0, 18, 6),
            (12, 14, 18, 20),
            (-14, 14, -8, 20),
        ],
        &[(0, 1), (1, 2), (0, 3)],
        &params,
    );
    let report = d.result.clone().expect("drawn");
    assert_eq!(report.door_tiles, 3 * 6);
    d.verify().unwrap_or_else(|v| panic!("{v}\n{}", d.text()));
    assert_eq!(d.lengths[0], 4);
}

#[test]
fn a_map_over_the_bound_is_an_error() {
    let params = TileParams {
        max_width: 20,
        ..PARAMS
    };
    let d = draw(&[(0, 0, 4, 3), (10, 0, 14, 3)], &[(0, 1)], &params);
    assert_eq!(
        d.result,
        Err(TileError::TooLarge {
            width: 22,
            height: 11,
            max_width: 20,
            max_height: 4096
        })
    );
}

#[test]
fn touching_rooms_are_an_error() {
    let d = draw(&[(0, 0, 4, 4), (4, 1, 8, 3)], &[(0, 1)], &PARAMS);
    assert_eq!(d.result, Err(TileError::RoomsTouch { a: 0, b: 1 }));
}

#[test]
fn cosmetic_vertices_and_edges_draw_nothing() {
    let mut d = draw(
        &[(0, 0, 4, 4), (3, 3, 3, 3), (10, 0, 14, 4)],
        &[(0, 2)],
        &PARAMS,
    );
    assert!(d.result.is_ok());
    // Two rooms of 16 tiles, two doors and a corridor of 4.
    assert_eq!(
        d.grid.cells.iter().filter(|&&c| c != cell::WALL).count(),
        38
    );
    d.src.push(0);
    d.dst.push(1);
    d.flags.push(edge_flag::COSMETIC);
    d.verify().expect("a cosmetic edge needs no corridor");
    // A corridor edge the map lacks is found.
    d.flags[1] = 0;
    d.src[1] = 2;
    d.dst[1] = 0;
    assert!(d.verify().is_err());
}

/// Random rooms on a jittered lattice (never touching) joined by random nearby corridors: every
/// map drawn passes the independent check, and most are drawn.
#[test]
fn random_maps_pass_the_independent_check() {
    let mut drawn = 0;
    for seed in 0..300u64 {
        let mut rng = WarrenRng::new(seed);
        let side = 3 + rng.below(3) as i32;
        let mut rooms = Vec::new();
        for gy in 0..side {
            for gx in 0..side {
                let (w, h) = (3 + rng.below(6) as i32, 3 + rng.below(6) as i32);
                let (x, y) = (gx * 14 + rng.below(4) as i32, gy * 14 + rng.below(4) as i32);
                rooms.push((x, y, x + w, y + h));
            }
        }
        // A comb (every row, and the first column) keeps the rooms connected; the rest is
        // random.
        let mut edges = Vec::new();
        for v in 0..rooms.len() as u32 {
            let (gx, gy) = (v as i32 % side, v as i32 / side);
            if gx + 1 < side {
                edges.push((v, v + 1));
            }
            if gy + 1 < side && (gx == 0 || rng.below(4) != 0) {
                edges.push((v, v + side as u32));
            }
            if gx + 1 < side && gy + 1 < side && rng.below(5) == 0 {
                edges.push((v, v + side as u32 + 1));
            }
        }
        let params = TileParams {
            corridor_width: 1 + (seed % 3 == 0) as u32,
            ..PARAMS
        };
        let d = draw(&rooms, &edges, &params);
        if d.result.is_ok() {
            drawn += 1;
            if let Err(v) = d.verify() {
                panic!("seed {seed}: {v}\n{}", d.text());
            }
        }
    }
    // NOTE: the diagonals of closed squares of corridors are often impossible to draw with
    // every corridor kept a wall apart (rooms here are as little as two tiles apart); 212 of
    // 300 maps are drawn.
    assert!(drawn >= 200, "only {drawn} of 300 maps drawn");
}

/// The search finds a corridor exactly when a plain Dijkstra search over tiles and directions
/// (no estimate, no window, the same step and turn costs) finds one within the detour budget,
/// on maps cluttered with random tiles of another corridor.
#[test]
fn the_search_finds_a_corridor_whenever_one_exists() {
    let (mut found, mut blocked) = (0, 0);
    for seed in 0..200u64 {
        let mut rng = WarrenRng::new(seed ^ 0xfeed);
        let rooms = [(0, 0, 3, 3), (16, 12, 19, 15)];
        let mut x0: Vec<i32> = rooms.iter().map(|r| r.0).collect();
        let mut y0: Vec<i32> = rooms.iter().map(|r| r.1).collect();
        let mut x1: Vec<i32> = rooms.iter().map(|r| r.2).collect();
        let mut y1: Vec<i32> = rooms.iter().map(|r| r.3).collect();
        let mut grid = Grid::default();
        let mut s = TileScratch::default();
        draw_tile_map(
            &mut x0,
            &mut y0,
            &mut x1,
            &mut y1,
            &[],
            &[],
            &[],
            &PARAMS,
            &mut grid,
            &mut s,
        )
        .expect("two rooms draw");
        let (w, h) = (grid.width as i64, grid.height as i64);
        // Clutter: single tiles claimed by a foreign corridor (edge 7).
        let density = rng.below(30);
        for i in 0..s.owner.len() {
            if s.owner[i] == FREE && rng.below(100) < density {
                s.owner[i] = CORRIDOR | 7;
            }
        }
        let rect = |k: usize| Rect {
            x0: x0[k].into(),
            y0: y0[k].into(),
            x1: x1[k].into(),
            y1: y1[k].into(),
        };
        let (ra, rb) = (rect(0), rect(1));
        let mut canvas = Canvas {
            grid: &mut grid,
            owner: &mut s.owner,
            w,
            h,
        };
        let gap =
            (rb.x0 - ra.x1).max(ra.x0 - rb.x1).max(0) + (rb.y0 - ra.y1).max(ra.y0 - rb.y1).max(0);
        let budget = DETOUR * (gap + 2 + 8);
        let expect = cheapest_corridor(&canvas, &ra, &rb).is_some_and(|c| c <= budget);
        let got = route_by_search(&mut canvas, &ra, &rb, 0, 1, 0, 1, &mut s.search);
        assert_eq!(got.is_some(), expect, "seed {seed}, clutter {density}%");
        if expect {
            found += 1;
        } else {
            blocked += 1;
        }
    }
    assert!(
        found > 20 && blocked > 20,
        "found {found}, blocked {blocked}"
    );
}

/// The cheapest corridor (one per step, `TURN_COST` per turn) of width 1 from a tile outside a
/// door of `a` to a tile outside a door of `b`, by Dijkstra's search over tiles and directions.
fn cheapest_corridor(c: &Canvas<'_>, a: &Rect, b: &Rect) -> Option<i64> {
    use std::collections::BinaryHeap;
    // Outside a door of `r`: a step in direction `d` from (x, y) reaches a door tile of `r`
    // that may open, and the step after it, the floor.
    let outside = |r: &Rect, x: i64, y: i64, own: u32, other: u32| {
        STEPS.iter().any(|&(dx, dy)| {
            let (door_x, door_y) = (x + dx, y + dy);
            let (fx, fy) = (door_x + dx, door_y + dy);
            fx >= r.x0
                && fx < r.x1
                && fy >= r.y0
                && fy < r.y1
                && c.door_ok(door_x, door_y, own, other)
        })
    };
    // The direction a start leaves `a` by: away from the door.
    let leaving = |x: i64, y: i64| {
        (0..4).find(|&d| {
            let (dx, dy) = STEPS[d];
            let (fx, fy) = (x - 2 * dx, y - 2 * dy);
            fx >= a.x0 && fx < a.x1 && fy >= a.y0 && fy < a.y1 && c.door_ok(x - dx, y - dy, 0, 1)
        })
    };
    let mut best = vec![i64::MAX; (c.w * c.h * 4) as usize];
    let mut heap = BinaryHeap::new();
    for y in 0..c.h {
        for x in 0..c.w {
            if c.corridor_ok(x, y) && outside(a, x, y, 0, 1) {
                let d = leaving(x, y).expect("a start leaves by some side");
                best[((y * c.w + x) * 4) as usize + d] = 0;
                heap.push(std::cmp::Reverse((0i64, x, y, d)));
            }
        }
    }
    while let Some(std::cmp::Reverse((cost, x, y, d))) = heap.pop() {
        if cost > best[((y * c.w + x) * 4) as usize + d] {
            continue;
        }
        if outside(b, x, y, 1, 0) {
            return Some(cost);
        }
        for (nd, &(dx, dy)) in STEPS.iter().enumerate() {
            let (nx, ny) = (x + dx, y + dy);
            if !c.corridor_ok(nx, ny) {
                continue;
            }
            let next = cost + 1 + if nd == d { 0 } else { i64::from(TURN_COST) };
            let slot = ((ny * c.w + nx) * 4) as usize + nd;
            if next < best[slot] {
                best[slot] = next;
                heap.push(std::cmp::Reverse((next, nx, ny, nd)));
            }
        }
    }
    None
}
