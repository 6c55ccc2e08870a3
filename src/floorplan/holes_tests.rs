//! Holes in templates: the tiles a hole covers are wall where they touch the floor and void
//! inside, they turn with the template, and a hole that is not inside the floor is refused.

use super::{Shape, shapes_of, tile};
use crate::floorplan::spec::{DoorRule, Doors, Repeat, Template, Transforms};

fn square(side: i32, holes: Vec<Vec<(i32, i32)>>) -> Template {
    Template {
        name: "t".into(),
        outline: vec![(0, 0), (side, 0), (side, side), (0, side)],
        doors: vec![DoorRule::new(Doors::Simple {
            length: 2,
            corner_distance: 1,
        })],
        transforms: Transforms {
            rotate: true,
            mirror: false,
        },
        repeat: Repeat::Allow,
        holes,
    }
}

fn rect(x0: i32, y0: i32, x1: i32, y1: i32) -> Vec<(i32, i32)> {
    vec![(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
}

/// The shape's tile classes as rows of `#` (wall), `.` (floor) and ` ` (void).
fn picture(s: &Shape) -> Vec<String> {
    (0..=s.h)
        .map(|y| {
            (0..=s.w)
                .map(|x| match s.at(x, y) {
                    tile::WALL => '#',
                    tile::FLOOR => '.',
                    _ => ' ',
                })
                .collect()
        })
        .collect()
}

#[test]
fn a_hole_is_a_ring_of_wall_around_void() {
    let s = Shape::new(&square(8, vec![rect(2, 2, 6, 6)]), 0, 0).unwrap();
    assert_eq!(
        picture(&s),
        [
            "########", "#......#", "#.####.#", "#.#  #.#", "#.#  #.#", "#.####.#", "#......#",
            "########"
        ]
    );
    assert_eq!(s.floor, 36 - 16);
}

#[test]
fn a_hole_turns_with_its_template() {
    // A hole off the centre: each quarter turn is a shape of its own.
    let t = square(9, vec![rect(2, 2, 6, 5)]);
    let shapes = shapes_of(std::slice::from_ref(&t)).unwrap();
    assert_eq!(shapes.len(), 4);
    // Void at (3, 3) and (4, 3) as drawn; a quarter turn clockwise takes (x, y) to (8 - y, x).
    let drawn = Shape::new(&t, 0, 0).unwrap();
    let turned = Shape::new(&t, 0, 1).unwrap();
    for (x, y) in [(3, 3), (4, 3)] {
        assert_eq!(drawn.at(x, y), tile::OUTSIDE);
        assert_eq!(turned.at(8 - y, x), tile::OUTSIDE);
    }
    assert_eq!(turned.at(3, 3), tile::FLOOR);
}

#[test]
fn holes_outside_the_floor_are_refused() {
    let apart = "hole 1: its holes leave the floor empty or in pieces, or a wall with no floor";
    for (side, hole, want) in [
        (
            8,
            rect(0, 2, 4, 6),
            "hole 1: a hole must lie inside the floor",
        ),
        (8, vec![(2, 2), (6, 2), (6, 6)], "hole 1: it has 3 corners"),
        // The whole floor; a band across it; one touching the wall.
        (8, rect(1, 1, 7, 7), apart),
        (10, rect(1, 3, 9, 6), apart),
        (9, rect(1, 1, 5, 4), apart),
    ] {
        let e = Shape::new(&square(side, vec![hole]), 0, 0).unwrap_err();
        assert!(
            e.starts_with(want.trim_start_matches("hole 1: ")) || e.starts_with(want),
            "{e}"
        );
    }
}

#[test]
fn a_library_names_the_template_and_the_hole() {
    let text = "{\"templates\": [\n  {\"name\": \"h\", \"size\": [8, 8], \"holes\": [[[0, 2], [4, 2], [4, 6], [0, 6]]]}\n]}";
    let e = crate::floorplan::input::parse_library(text, "lib.json")
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        "lib.json:2:3: template `h`: hole 1: a hole must lie inside the floor, the room's wall \
         around it"
    );
    let text = "{\"templates\": [{\"name\": \"h\", \"size\": [8, 8], \"holes\": [[1, 2]]}]}";
    let e = crate::floorplan::input::parse_library(text, "lib.json")
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("lib.json:1:57: expected a point `[x, y]`, found a number"),
        "{e}"
    );
}
