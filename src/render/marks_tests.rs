use super::*;
use crate::render::Item;

fn tiles(x0: i32, y0: i32, x1: i32, y1: i32) -> TileBox {
    TileBox { x0, y0, x1, y1 }
}

fn rects(scene: &Scene, fill: Rgba) -> Vec<(f32, f32, f32, f32)> {
    scene
        .items
        .iter()
        .filter_map(|i| match *i {
            Item::Rect {
                x,
                y,
                w,
                h,
                fill: f,
            } if f == fill => Some((x, y, w, h)),
            _ => None,
        })
        .collect()
}

fn circles(scene: &Scene, fill: Rgba) -> Vec<(f32, f32)> {
    scene
        .items
        .iter()
        .filter_map(|i| match *i {
            Item::Circle {
                cx, cy, fill: f, ..
            } if f == fill => Some((cx, cy)),
            _ => None,
        })
        .collect()
}

/// Forbidden tiles become one pale rect per run, at the grid's transform; allowed ones none.
#[test]
fn a_mask_marks_its_forbidden_runs() {
    // 4 x 2: row 0 `..##`, row 1 `#..#`.
    let allowed = [false, false, true, true, true, false, false, true];
    let marks = Marks {
        mask: Some(allowed.to_vec()),
        ..Marks::default()
    };
    let mut scene = Scene::new(100.0, 100.0, Rgba::TRANSPARENT);
    draw_marks(&marks, (4, 2), (10.0, 20.0, 5.0), &mut scene);
    assert_eq!(
        rects(&scene, FORBIDDEN),
        vec![(10.0, 20.0, 10.0, 5.0), (15.0, 25.0, 10.0, 5.0)]
    );
    assert_eq!(scene.items.len(), 2);
    // A mask of another size than the grid is not drawn (nothing would line up).
    let mut scene = Scene::new(100.0, 100.0, Rgba::TRANSPARENT);
    draw_marks(&marks, (3, 2), (0.0, 0.0, 5.0), &mut scene);
    assert!(scene.items.is_empty());
}

/// A pinned room is outlined along its box with a pin at its top-left corner.
#[test]
fn a_pinned_room_is_outlined_with_a_pin_at_its_corner() {
    let b = tiles(2, 3, 6, 5);
    let marks = Marks {
        pinned: vec![b],
        ..Marks::default()
    };
    let mut scene = Scene::new(100.0, 100.0, Rgba::TRANSPARENT);
    draw_marks(&marks, (10, 10), (0.0, 0.0, 10.0), &mut scene);
    let lines: Vec<(f32, f32, f32, f32)> = scene
        .items
        .iter()
        .filter_map(|i| match *i {
            Item::Line {
                x0,
                y0,
                x1,
                y1,
                stroke,
                ..
            } if stroke == PIN => Some((x0, y0, x1, y1)),
            _ => None,
        })
        .collect();
    assert_eq!(
        lines,
        vec![
            (20.0, 30.0, 60.0, 30.0),
            (60.0, 30.0, 60.0, 50.0),
            (60.0, 50.0, 20.0, 50.0),
            (20.0, 50.0, 20.0, 30.0),
        ]
    );
    assert_eq!(circles(&scene, PIN), vec![(20.0, 30.0)]);
}

/// Each locked door is filled in its key's colour, keys coloured in order of first appearance,
/// and each key room gets one disc of its colour at its centre, however many doors it opens.
#[test]
fn locks_share_their_keys_colour_and_each_key_is_drawn_once() {
    let key_a = tiles(0, 0, 4, 4);
    let key_b = tiles(10, 0, 14, 2);
    let door = |x: i32, y: i32| tiles(x, y, x + 1, y + 2);
    let marks = Marks {
        locks: vec![
            LockMark {
                door: door(5, 5),
                key: key_a,
            },
            LockMark {
                door: door(7, 5),
                key: key_b,
            },
            LockMark {
                door: door(9, 5),
                key: key_a,
            },
        ],
        ..Marks::default()
    };
    let mut scene = Scene::new(200.0, 200.0, Rgba::TRANSPARENT);
    draw_marks(&marks, (20, 20), (0.0, 0.0, 10.0), &mut scene);
    let inner = |x: f32, y: f32| (x * 10.0, y * 10.0, 10.0, 20.0);
    assert_eq!(
        rects(&scene, KEY_COLOURS[0]),
        vec![inner(5.0, 5.0), inner(9.0, 5.0)]
    );
    assert_eq!(rects(&scene, KEY_COLOURS[1]), vec![inner(7.0, 5.0)]);
    assert_eq!(rects(&scene, RIM).len(), 3, "one rim per door");
    assert_eq!(circles(&scene, KEY_COLOURS[0]), vec![(20.0, 20.0)]);
    assert_eq!(circles(&scene, KEY_COLOURS[1]), vec![(120.0, 10.0)]);
}

#[test]
fn nothing_to_mark_draws_nothing() {
    let marks = Marks::default();
    assert!(marks.is_empty());
    let mut scene = Scene::new(10.0, 10.0, Rgba::TRANSPARENT);
    draw_marks(&marks, (2, 2), (0.0, 0.0, 5.0), &mut scene);
    assert!(scene.items.is_empty());
}
