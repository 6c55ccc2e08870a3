//! The lattice of variations, and both cycle proofs checked against the complete search: every
//! cycle they call unclosable has no layout.

use super::*;
use crate::core::rng::WarrenRng;
use crate::floorplan::build::{BuildScratch, Plan, build};
use crate::floorplan::shape::shapes_of;
use crate::floorplan::spec::{DoorRule, Doors, Repeat, Template, Transforms};

#[test]
fn the_lattice_holds_exactly_the_combinations_of_its_generators() {
    let mut rng = WarrenRng::new(7);
    for case in 0..300 {
        let mut l = Lattice::default();
        let k = 1 + rng.below(3) as usize;
        let gens: Vec<(i64, i64)> = (0..k)
            .map(|_| {
                let mut v = || rng.below(13) as i64 - 6;
                (v(), v())
            })
            .collect();
        for &g in &gens {
            l.add(g);
        }
        // Every combination is in it.
        for i in -3..=3i64 {
            for j in -3..=3i64 {
                for m in -3..=3i64 {
                    let p = gens
                        .iter()
                        .zip([i, j, m])
                        .fold((0, 0), |p, (g, c)| (p.0 + c * g.0, p.1 + c * g.1));
                    assert!(l.contains(p), "case {case}: {gens:?} {l:?} misses {p:?}");
                }
            }
        }
        // Reducing a point moves it by a lattice vector, to (0, 0) exactly for lattice points.
        for x in -9..=9i64 {
            for y in -9..=9i64 {
                let r = l.reduce((x, y));
                assert!(
                    l.contains((x - r.0, y - r.1)),
                    "case {case}: {l:?} ({x}, {y})"
                );
                assert_eq!(
                    r == (0, 0),
                    l.contains((x, y)),
                    "case {case}: {l:?} ({x}, {y})"
                );
            }
        }
        // And nothing else: of full rank, its index is that of the generators' span (the gcd of
        // their 2 x 2 minors); of rank one, its basis vector is a combination of them.
        let mut minors = 0;
        for (i, g) in gens.iter().enumerate() {
            for h in &gens[i + 1..] {
                minors = gcd(minors, g.0 * h.1 - g.1 * h.0);
            }
        }
        if minors != 0 {
            assert_eq!(l.a * l.c, minors, "case {case}: {gens:?} {l:?}");
        } else if l != Lattice::default() {
            let v = if l.a != 0 { (l.a, l.b) } else { (0, l.c) };
            assert!(l.a == 0 || l.c == 0, "case {case}: {gens:?} {l:?}");
            let k = gens.iter().fold(0, |k, g| {
                let q = if v.0 != 0 { g.0 / v.0 } else { g.1 / v.1 };
                assert_eq!((q * v.0, q * v.1), *g, "case {case}: {gens:?} {l:?}");
                gcd(k, q)
            });
            assert_eq!(k, 1, "case {case}: {gens:?} {l:?}");
        }
    }
    let mut l = Lattice::default();
    l.add((14, 14));
    l.add((14, -14));
    assert!(l.contains((28, 0)) && l.contains((0, 28)) && !l.contains((14, 0)));
    assert_eq!(l.reduce((0, -70)), (0, 14));
    assert_eq!(l.reduce((-14, 0)), (0, 14));
    assert_eq!(l.reduce((42, 14)), (0, 0));
    assert!(!l.is_everything());
    l.add((2, 1));
    l.add((1, 1));
    assert!(l.is_everything());
}

/// A `w` x `h` rectangle with these listed doors (first and last tile), turned if `rotate`.
fn rect(name: &str, (w, h): (i32, i32), doors: Vec<[(i32, i32); 2]>, rotate: bool) -> Template {
    Template {
        name: name.to_string(),
        outline: vec![(0, 0), (w, 0), (w, h), (0, h)],
        doors: vec![DoorRule::new(Doors::Listed(doors))],
        transforms: Transforms {
            rotate,
            mirror: false,
        },
        repeat: Repeat::Allow,
        holes: Vec::new(),
    }
}

/// An 8 x 8 room with a 2-tile door in the middle of each wall.
fn isaac() -> Template {
    let doors = vec![
        [(3, 0), (4, 0)],
        [(7, 3), (7, 4)],
        [(3, 7), (4, 7)],
        [(0, 3), (0, 4)],
    ];
    rect("isaac", (8, 8), doors, true)
}

/// What the two proofs and the complete search say about `conns` over `templates`, every room
/// taking any template, rooms touching: (unclosable by either proof, a layout exists), or
/// `None` when the search stopped undecided.
fn both(templates: &[Template], n: usize, conns: &[(u32, u32)]) -> Option<(bool, bool)> {
    let shapes = shapes_of(templates).unwrap();
    let room_shapes = vec![(0..shapes.len() as u32).collect::<Vec<u32>>(); n];
    let gaps = vec![Gaps::new(vec![(0, 0)]); conns.len()];
    let proved = lattice_cycle(conns, &shapes, &room_shapes, &gaps).is_some()
        || blocked_cycle(conns, &shapes, &room_shapes).is_some();
    let mut plan = Plan::new(shapes, room_shapes, conns.to_vec(), gaps, 0);
    plan.make_exhaustive();
    let mut s = BuildScratch::default();
    match build(&plan, 0, &mut s) {
        Ok(()) => Some((proved, true)),
        Err(f) if f.proved => Some((proved, false)),
        Err(_) => None,
    }
}

fn ring(n: u32) -> Vec<(u32, u32)> {
    (0..n).map(|i| (i, (i + 1) % n)).collect()
}

#[test]
fn rooms_with_a_door_in_the_middle_of_each_wall_close_even_cycles_only() {
    let lib = [isaac()];
    for n in 3..=7u32 {
        let (proved, exists) = both(&lib, n as usize, &ring(n)).expect("decided");
        assert_eq!(proved, n % 2 == 1, "ring of {n}");
        assert_eq!(exists, n % 2 == 0, "ring of {n}");
    }
    // The witness is the odd cycle, off by one room's width.
    let shapes = shapes_of(&lib).unwrap();
    let rooms = vec![vec![0u32]; 5];
    let gaps = vec![Gaps::new(vec![(0, 0)]); 5];
    let c = lattice_cycle(&ring(5), &shapes, &rooms, &gaps).unwrap();
    assert_eq!(c.rooms.len(), 5, "{c:?}");
    assert!(
        c.why
            .contains("add up to (0, 7) tiles, plus whole multiples of (7, 7) and (0, 14)"),
        "{}",
        c.why
    );
    // With 2-tile corridors every step is 10 tiles longer and an odd ring still cannot close;
    // with corridors of 1 or 2 tiles it can.
    let gaps = vec![Gaps::new(vec![(3, 3)]); 5];
    assert!(lattice_cycle(&ring(5), &shapes, &rooms, &gaps).is_some());
    let gaps = vec![Gaps::new(vec![(2, 3)]); 5];
    assert!(lattice_cycle(&ring(5), &shapes, &rooms, &gaps).is_none());
}

#[test]
fn rectangles_whose_doors_turn_one_way_round_a_cycle_cannot_close_it() {
    // Door lengths force each connection's direction: 1-tile doors join a room's east wall to
    // the next one's west wall, 2-tile doors a south wall to a north wall, 3-tile doors east to
    // west again. Around the triangle every step goes east or south.
    let lib = [rect(
        "r",
        (10, 10),
        vec![
            [(9, 2), (9, 2)],
            [(0, 2), (0, 2)],
            [(2, 9), (3, 9)],
            [(2, 0), (3, 0)],
            [(9, 5), (9, 7)],
            [(0, 5), (0, 7)],
        ],
        false,
    )];
    let shapes = shapes_of(&lib).unwrap();
    let c = blocked_cycle(&ring(3), &shapes, &vec![vec![0u32]; 3]);
    assert!(
        c.is_none(),
        "every connection may still go any of four ways"
    );
    // Rooms of three kinds, each with the doors of one step in and the next out.
    let kinds = [
        rect(
            "a",
            (10, 10),
            vec![[(9, 2), (9, 2)], [(0, 5), (0, 7)]],
            false,
        ),
        rect(
            "b",
            (10, 10),
            vec![[(0, 2), (0, 2)], [(2, 9), (3, 9)]],
            false,
        ),
        rect(
            "c",
            (10, 10),
            vec![[(2, 0), (3, 0)], [(9, 5), (9, 7)]],
            false,
        ),
    ];
    let shapes = shapes_of(&kinds).unwrap();
    let rooms: Vec<Vec<u32>> = (0..3).map(|k| vec![k]).collect();
    let c = blocked_cycle(&ring(3), &shapes, &rooms).expect("unclosable");
    assert_eq!(c.rooms.len(), 3);
    assert!(c.why.contains("east or south"), "{}", c.why);
    // Their doors are fixed too, so the lattice proof sees the same cycle: its steps are exact.
    let gaps = vec![Gaps::new(vec![(0, 0)]); 3];
    let c = lattice_cycle(&ring(3), &shapes, &rooms, &gaps).expect("unclosable");
    assert!(c.why.contains("fix every step"), "{}", c.why);
    // Doors in east and west walls only (a side-on platformer's rooms) do close a ring of
    // four: two tall rooms each joined to both short ones, stacked, on either side.
    let sideways = [
        rect(
            "short",
            (8, 8),
            vec![[(7, 3), (7, 4)], [(0, 3), (0, 4)]],
            false,
        ),
        rect(
            "tall",
            (8, 16),
            vec![
                [(7, 3), (7, 4)],
                [(7, 11), (7, 12)],
                [(0, 3), (0, 4)],
                [(0, 11), (0, 12)],
            ],
            false,
        ),
    ];
    let shapes = shapes_of(&sideways).unwrap();
    let rooms = vec![vec![0u32], vec![1], vec![0], vec![1]];
    assert!(blocked_cycle(&ring(4), &shapes, &rooms).is_none());
    assert_eq!(both(&sideways, 4, &ring(4)), Some((false, true)));
}

/// A random rectangle with doors on some walls: listed, 1 or 2 tiles, off the corners.
fn random_rect(rng: &mut WarrenRng, k: usize) -> Template {
    let (w, h) = (5 + rng.below(5) as i32, 5 + rng.below(5) as i32);
    let mut doors = Vec::new();
    for wall in 0..4 {
        if rng.below(4) == 0 {
            continue;
        }
        for _ in 0..1 + rng.below(2) {
            let len = 1 + rng.below(2) as i32;
            let span = if wall % 2 == 0 { h } else { w };
            let t = 1 + rng.below((span - 1 - len).max(1) as u32) as i32;
            let door = match wall {
                0 => [(w - 1, t), (w - 1, t + len - 1)],
                1 => [(t, h - 1), (t + len - 1, h - 1)],
                2 => [(0, t), (0, t + len - 1)],
                _ => [(t, 0), (t + len - 1, 0)],
            };
            if !doors.contains(&door) {
                doors.push(door);
            }
        }
    }
    if doors.is_empty() {
        doors.push([(0, 1), (0, 1)]);
    }
    rect(&format!("t{k}"), (w, h), doors, rng.below(3) == 0)
}

#[test]
fn every_cycle_the_proofs_call_unclosable_has_no_layout() {
    let mut rng = WarrenRng::new(49);
    let (mut proved, mut impossible, mut decided) = (0, 0, 0);
    for case in 0..240 {
        let kinds = 1 + rng.below(2) as usize;
        let lib: Vec<Template> = (0..kinds).map(|k| random_rect(&mut rng, k)).collect();
        let n = 3 + rng.below(3);
        let mut conns = ring(n);
        if n > 3 && rng.below(2) == 0 {
            conns.push((0, 2));
        }
        let Ok(shapes) = shapes_of(&lib) else {
            continue;
        };
        // Only inputs every connection of which can get a door, as `generate map` searches.
        let facing = |a: &Shape, b: &Shape| {
            a.doors.iter().any(|d| {
                b.doors
                    .iter()
                    .any(|e| e.len == d.len && e.side == side::opposite(d.side))
            })
        };
        if !shapes.iter().any(|a| shapes.iter().any(|b| facing(a, b))) {
            continue;
        }
        let Some((p, exists)) = both(&lib, n as usize, &conns) else {
            continue;
        };
        decided += 1;
        impossible += usize::from(!exists);
        proved += usize::from(p);
        assert!(
            !(p && exists),
            "case {case}: a layout exists: {lib:?} {conns:?}"
        );
    }
    eprintln!("{decided} decided, {impossible} without a layout, {proved} proved so up front");
    assert!(decided >= 150 && proved >= 10, "{decided} {proved}");
}
