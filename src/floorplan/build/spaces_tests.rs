//! The configuration spaces through corridor rooms are exactly the offsets that a corridor
//! touching both rooms allows, checked point by point against the touching spaces composed by
//! brute force.

use std::collections::BTreeSet;

use super::{Catalogue, Gaps, Zone};
use crate::floorplan::shape::{Flow, shapes_of};

/// Every lattice point of `zones`.
fn points(zones: &[Zone]) -> BTreeSet<(i32, i32)> {
    let mut out = BTreeSet::new();
    for z in zones {
        for x in z.x0..=z.x1 {
            for y in z.y0..=z.y1 {
                out.insert((x, y));
            }
        }
    }
    out
}

#[test]
fn corridor_spaces_are_the_touching_spaces_composed() {
    let text = include_str!("../../../data/map/examples/corridor-rooms.json");
    let library = crate::floorplan::input::parse_library(text, "corridor-rooms.json").unwrap();
    let shapes = shapes_of(&library.templates).unwrap();
    let corridor: Vec<u32> = (0..shapes.len() as u32)
        .filter(|&s| shapes[s as usize].template >= 6)
        .collect();
    let rooms: Vec<usize> = (0..shapes.len())
        .filter(|&s| shapes[s].template < 6)
        .step_by(3)
        .collect();
    for flow in [Flow::Any, Flow::Out] {
        let touch = Gaps {
            flow,
            ..Gaps::new(vec![(0, 0)])
        };
        let through = Gaps {
            via: corridor.clone(),
            ..touch.clone()
        };
        let cat = Catalogue::new(shapes.clone(), vec![touch, through]);
        let count = shapes.len();
        let zones = |g: usize, a: usize, b: usize| {
            let k = (g * count + a) * count + b;
            &cat.zones[cat.zone_start[k] as usize..cat.zone_start[k + 1] as usize]
        };
        for &a in &rooms {
            for &b in &rooms {
                let mut want = BTreeSet::new();
                for &c in &corridor {
                    for p in points(zones(0, a, c as usize)) {
                        for q in points(zones(0, c as usize, b)) {
                            want.insert((p.0 + q.0, p.1 + q.1));
                        }
                    }
                }
                assert!(!want.is_empty(), "shapes {a} and {b}");
                assert_eq!(points(zones(1, a, b)), want, "shapes {a} and {b}, {flow:?}");
            }
        }
    }
}
