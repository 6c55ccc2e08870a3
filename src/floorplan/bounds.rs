//! Bounds on the floor plan (`map.bounds`): the shapes that fit in them, and a proof made up
//! front that the rooms cannot: a room none of whose shapes fits, or rooms whose floors alone
//! take more tiles than the bounds hold inside their outer ring (every tile of that ring is a
//! wall or void: a room's outermost tiles are its walls). The builder keeps the rest
//! (`build::search`), `verify` checks the stored grid.

use crate::floorplan::shape::Shape;
use crate::floorplan::spec::{LevelGraph, Library};

/// Per room, the shapes of `room_shapes` that fit within `width` x `height` tiles, or why the
/// rooms cannot fit, in one line naming a room or the area (`bounds`, as messages name it).
pub(crate) fn fit_bounds(
    graph: &LevelGraph,
    library: &Library,
    (shapes, room_shapes): (&[Shape], &[Vec<u32>]),
    (width, height): (u32, u32),
    bounds: &str,
) -> Result<Vec<Vec<u32>>, String> {
    let (w, h) = (width as i64, height as i64);
    let fits = |s: &Shape| i64::from(s.w) < w && i64::from(s.h) < h;
    let mut floors: u64 = 0;
    let mut out = Vec::with_capacity(room_shapes.len());
    for (r, rs) in room_shapes.iter().enumerate() {
        let kept: Vec<u32> = rs
            .iter()
            .copied()
            .filter(|&s| fits(&shapes[s as usize]))
            .collect();
        let Some(least) = kept.iter().map(|&s| shapes[s as usize].floor).min() else {
            // The shape that comes nearest: the least larger side.
            let near = rs
                .iter()
                .map(|&s| &shapes[s as usize])
                .min_by_key(|s| (s.w.max(s.h), s.w.min(s.h)));
            let what = near.map_or(String::new(), |s| {
                format!(
                    ": the smallest, `{}`, is {} x {} tiles",
                    library.templates[s.template as usize].name,
                    s.w + 1,
                    s.h + 1
                )
            });
            return Err(format!(
                "room `{}` fits none of its templates within {bounds}{what}",
                graph.rooms[r].id
            ));
        };
        floors += u64::from(least);
        out.push(kept);
    }
    let inside = ((w - 2) * (h - 2)) as u64;
    if floors > inside {
        return Err(format!(
            "the rooms' floors need at least {floors} tiles, more than the {} x {} = {inside} \
             tiles inside the walls of {bounds}",
            w - 2,
            h - 2
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::floorplan::input::{builtin_library, parse_graph};
    use crate::floorplan::shape::shapes_of;

    fn setting(graph: &str) -> (LevelGraph, Library, Vec<Shape>, Vec<Vec<u32>>) {
        let library = builtin_library("edgar-paper").unwrap();
        let graph = parse_graph(graph, "g.json", &library).unwrap();
        let shapes = shapes_of(&library.templates).unwrap();
        let room_shapes = graph
            .rooms
            .iter()
            .map(|r| {
                (0..shapes.len() as u32)
                    .filter(|&s| {
                        let t = shapes[s as usize].template;
                        r.templates.as_ref().is_none_or(|ts| ts.contains(&t))
                    })
                    .collect()
            })
            .collect();
        (graph, library, shapes, room_shapes)
    }

    #[test]
    fn shapes_too_large_are_dropped_and_rooms_without_any_refused() {
        let (g, l, shapes, rs) = setting(
            r#"{"rooms": [{"id": "a", "templates": ["12x18"]}, {"id": "b"}],
                "connections": [["a", "b"]]}"#,
        );
        // 12 x 18 fits 12 wide only as drawn, not turned.
        let kept = fit_bounds(&g, &l, (&shapes, &rs), (12, 30), "map.bounds = [12, 30]").unwrap();
        assert!(!kept[0].is_empty() && kept[0].len() < rs[0].len());
        for &s in &kept[0] {
            let sh = &shapes[s as usize];
            assert_eq!((sh.w + 1, sh.h + 1), (12, 18));
        }
        assert!(kept[1].len() < rs[1].len());
        assert!(kept[1].iter().all(|&s| shapes[s as usize].w < 12));
        let why =
            fit_bounds(&g, &l, (&shapes, &rs), (11, 40), "map.bounds = [11, 40]").unwrap_err();
        assert_eq!(
            why,
            "room `a` fits none of its templates within map.bounds = [11, 40]: the smallest, \
             `12x18`, is 12 x 18 tiles"
        );
    }

    #[test]
    fn rooms_whose_floors_outgrow_the_bounds_are_refused() {
        // Ten 8 x 8 rooms: 36 floor tiles each, 360 in all; 20 x 20 holds 18 x 18 = 324 inside.
        let rooms: Vec<String> = (0..10)
            .map(|i| format!("{{\"id\": \"r{i}\", \"templates\": [\"8x8\"]}}"))
            .collect();
        let conns: Vec<String> = (1..10)
            .map(|i| format!("[\"r{}\", \"r{i}\"]", i - 1))
            .collect();
        let text = format!(
            "{{\"rooms\": [{}], \"connections\": [{}]}}",
            rooms.join(","),
            conns.join(",")
        );
        let (g, l, shapes, rs) = setting(&text);
        let why =
            fit_bounds(&g, &l, (&shapes, &rs), (20, 20), "map.bounds = [20, 20]").unwrap_err();
        assert_eq!(
            why,
            "the rooms' floors need at least 360 tiles, more than the 18 x 18 = 324 tiles \
             inside the walls of map.bounds = [20, 20]"
        );
        assert!(fit_bounds(&g, &l, (&shapes, &rs), (22, 20), "map.bounds = [22, 20]").is_ok());
    }
}
