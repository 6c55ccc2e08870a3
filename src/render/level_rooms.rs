//! Drawing graph levels that have rooms (seed 000's graph-grammar levels) like a dungeon map:
//! on a wall-coloured backdrop, corridors (non-cosmetic edges) are thick floor-coloured strokes
//! from room centre to room centre drawn under the rooms, subdivide corridors a little
//! narrower, cosmetic edges thin and faint; each room is a filled rectangle coloured by its
//! vertex tag ([`tag_colour`]) inside a darker rim; cosmetic vertices (empty rooms) are small
//! dots. Rooms, not just vertex centres, are fitted into the square with a margin.

use super::fit::{Fit, grow, vertex};
use super::palette::{TAG_PALETTE, cell_colour, tag_colour};
use super::scene::{Rgba, Scene};
use crate::core::generator::{GraphView, RoomsView};
use crate::core::graph::edge_flag;
use crate::core::grid::cell;

/// Corridors: the floor colour, like the carved passages of a maze.
const CORRIDOR: Rgba = cell_colour(cell::FLOOR);
/// Cosmetic edges: the floor colour at low alpha.
const COSMETIC_EDGE: Rgba = cell_colour(cell::FLOOR).with_alpha(0x60);
/// Cosmetic vertex dots.
const COSMETIC_VERTEX: Rgba = Rgba::rgb(0x7d8aa3);
/// Corridor stroke width as a fraction of the unit (the median short side of the rooms).
const CORRIDOR_WIDTH: f32 = 0.35;
/// Subdivide corridor stroke width as a fraction of the unit.
const SUBDIVIDE_WIDTH: f32 = 0.25;
/// Cosmetic edge stroke width as a fraction of the unit.
const COSMETIC_WIDTH: f32 = 0.06;
/// Cosmetic vertex radius as a fraction of the unit.
const DOT_RADIUS: f32 = 0.12;
/// Room rim thickness as a fraction of the unit (at most a quarter of the room's short side).
const RIM_WIDTH: f32 = 0.1;
/// How much darker a room's rim is than its floor: each channel is scaled by `RIM_SHADE / 256`.
const RIM_SHADE: u16 = 150;
/// Margin around the fitted rooms, as a fraction of the larger side of their bounds.
const MARGIN: f32 = 0.04;
/// Thinnest stroke and smallest radius in pixels, so huge levels stay visible.
const MIN_PX: f32 = 0.5;
/// Thinnest rim in pixels: PNG rects are not anti-aliased, so a thinner rim could vanish.
const MIN_RIM_PX: f32 = 1.0;

/// Room `v` as `[x0, y0, x1, y1]` in world units, or `None` when it is empty (a cosmetic
/// vertex), inverted or missing from a short room column.
fn room(rooms: &RoomsView<'_>, v: usize) -> Option<[f32; 4]> {
    let r = [
        *rooms.x0.get(v)?,
        *rooms.y0.get(v)?,
        *rooms.x1.get(v)?,
        *rooms.y1.get(v)?,
    ];
    (r[0] < r[2] && r[1] < r[3]).then(|| r.map(|c| c as f32))
}

/// The number of room slots: the length of the shortest room column.
fn room_count(rooms: &RoomsView<'_>) -> usize {
    [rooms.x0, rooms.y0, rooms.x1, rooms.y1]
        .iter()
        .map(|c| c.len())
        .min()
        .unwrap_or(0)
}

/// Where vertex `v` is drawn: its room's centre, else its own (finite) position.
fn anchor(graph: &GraphView<'_>, rooms: &RoomsView<'_>, v: u32) -> Option<(f32, f32)> {
    match room(rooms, v as usize) {
        Some([x0, y0, x1, y1]) => Some(((x0 + x1) * 0.5, (y0 + y1) * 0.5)),
        None => vertex(graph, v),
    }
}

/// `[min_x, min_y, max_x, max_y]` over the rooms and the finite vertices without a room, or
/// `None` when there is nothing to draw.
fn bounds(graph: &GraphView<'_>, rooms: &RoomsView<'_>) -> Option<[f32; 4]> {
    let boxes = (0..room_count(rooms)).filter_map(|v| room(rooms, v));
    let dots = (0..graph.x.len() as u32)
        .filter(|&v| room(rooms, v as usize).is_none())
        .filter_map(|v| vertex(graph, v))
        .map(|(x, y)| [x, y, x, y]);
    boxes.chain(dots).fold(None, grow)
}

/// The median short side of the rooms, if there is a room.
fn median_room_side(rooms: &RoomsView<'_>) -> Option<f32> {
    let mut sides: Vec<f32> = (0..room_count(rooms))
        .filter_map(|v| room(rooms, v))
        .map(|[x0, y0, x1, y1]| (x1 - x0).min(y1 - y0))
        .collect();
    if sides.is_empty() {
        return None;
    }
    let mid = sides.len() / 2;
    let (_, &mut median, _) = sides.select_nth_unstable_by(mid, f32::total_cmp);
    Some(median)
}

/// Draws `graph` with its `rooms` centred in the square `[x0, x0 + size] x [y0, y0 + size]`.
pub(super) fn draw_rooms(
    graph: &GraphView<'_>,
    rooms: &RoomsView<'_>,
    x0: f32,
    y0: f32,
    size: f32,
    scene: &mut Scene,
) {
    let Some(bounds) = bounds(graph, rooms) else {
        return;
    };
    let extent = (bounds[2] - bounds[0]).max(bounds[3] - bounds[1]);
    let unit = median_room_side(rooms)
        .or((extent > 0.0).then_some(extent / 16.0))
        .unwrap_or(1.0);
    // NOTE: at least half a unit of margin keeps the round caps of lines ending at cosmetic
    // vertices on the bounds (and their dots) inside the square.
    let pad = (MARGIN * extent).max(0.5 * unit);
    let fit = Fit::into_square(bounds, pad, x0, y0, size);
    fit.push_backdrop(cell_colour(cell::WALL), scene);
    let unit_px = unit * fit.scale;
    let px = |fraction: f32| (fraction * unit_px).max(MIN_PX);
    // Faint cosmetic lines first, then corridors over them, then rooms over the corridors'
    // ends.
    let lines = [
        (EdgeKind::Cosmetic, COSMETIC_WIDTH, COSMETIC_EDGE),
        (EdgeKind::Subdivide, SUBDIVIDE_WIDTH, CORRIDOR),
        (EdgeKind::Corridor, CORRIDOR_WIDTH, CORRIDOR),
    ];
    for (kind, width, stroke) in lines {
        draw_edges(graph, rooms, &fit, kind, px(width), stroke, scene);
    }
    for v in 0..room_count(rooms) {
        if let Some(r) = room(rooms, v) {
            let floor = graph.tag.get(v).map_or(TAG_PALETTE[0], |&t| tag_colour(t));
            draw_room(&fit, r, (RIM_WIDTH * unit_px).max(MIN_RIM_PX), floor, scene);
        }
    }
    for v in 0..graph.x.len() as u32 {
        if room(rooms, v as usize).is_none()
            && let Some((x, y)) = vertex(graph, v)
        {
            let (cx, cy) = fit.point(x, y);
            scene.push_circle(cx, cy, px(DOT_RADIUS), COSMETIC_VERTEX);
        }
    }
}

/// How an edge is drawn, from its flags.
#[derive(Clone, Copy, PartialEq, Eq)]
enum EdgeKind {
    /// Cosmetic (whatever else is set): shapes the drawing, not walkable.
    Cosmetic,
    /// A walkable edge with the subdivide flag.
    Subdivide,
    /// Any other edge: a plain corridor.
    Corridor,
}

impl EdgeKind {
    fn of(flags: u8) -> EdgeKind {
        if flags & edge_flag::COSMETIC != 0 {
            EdgeKind::Cosmetic
        } else if flags & edge_flag::SUBDIVIDE != 0 {
            EdgeKind::Subdivide
        } else {
            EdgeKind::Corridor
        }
    }
}

/// Pushes one line, anchor to anchor, per edge of kind `kind` (edges without flags are
/// corridors).
fn draw_edges(
    graph: &GraphView<'_>,
    rooms: &RoomsView<'_>,
    fit: &Fit,
    kind: EdgeKind,
    width: f32,
    stroke: Rgba,
    scene: &mut Scene,
) {
    for (e, (&s, &d)) in graph.src.iter().zip(graph.dst).enumerate() {
        if EdgeKind::of(graph.flags.get(e).copied().unwrap_or(0)) != kind {
            continue;
        }
        if let (Some((ax, ay)), Some((bx, by))) = (anchor(graph, rooms, s), anchor(graph, rooms, d))
        {
            let (px0, py0) = fit.point(ax, ay);
            let (px1, py1) = fit.point(bx, by);
            scene.push_line(px0, py0, px1, py1, width, stroke);
        }
    }
}

/// Pushes room `[x0, y0, x1, y1]` as a rim-coloured rect with the `floor` rect inset by `rim`
/// pixels (at most a quarter of the short side) on top, so the rim stays inside the room.
fn draw_room(fit: &Fit, [x0, y0, x1, y1]: [f32; 4], rim: f32, floor: Rgba, scene: &mut Scene) {
    let (left, top) = fit.point(x0, y0);
    let (right, bottom) = fit.point(x1, y1);
    let (w, h) = (right - left, bottom - top);
    let rim = rim.min(0.25 * w.min(h));
    scene.push_rect(left, top, w, h, darker(floor));
    scene.push_rect(left + rim, top + rim, w - 2.0 * rim, h - 2.0 * rim, floor);
}

/// `colour` with each channel scaled by `RIM_SHADE / 256`, alpha kept.
const fn darker(colour: Rgba) -> Rgba {
    let Rgba([r, g, b, a]) = colour;
    Rgba([shade(r), shade(g), shade(b), a])
}

/// One channel scaled by `RIM_SHADE / 256`.
const fn shade(c: u8) -> u8 {
    ((c as u16 * RIM_SHADE) >> 8) as u8
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::generator::Level;
    use crate::render::{Item, draw_level, to_png, to_svg};

    /// A small dungeon in a 14 x 14 box: rooms 0 `[0, 4)^2` (tag 1), 1 `[10, 14) x [0, 4)` and
    /// 3 `[10, 14)^2` (tag 2), and the cosmetic vertex 2 at (7, 8). Edges: corridor 0-1,
    /// cosmetic 0-2 and 1-2, subdivide 1-3. Drawn into 180 px, a unit (the 4-unit room side)
    /// plus the 2-unit margin makes 10 px per world unit.
    struct Dungeon {
        x: [f32; 4],
        y: [f32; 4],
        tag: [u16; 4],
        src: [u32; 4],
        dst: [u32; 4],
        flags: [u8; 4],
        x0: [i32; 4],
        y0: [i32; 4],
        x1: [i32; 4],
        y1: [i32; 4],
    }

    const COSMETIC: u8 = edge_flag::COSMETIC;

    fn dungeon() -> Dungeon {
        Dungeon {
            x: [2.0, 12.0, 7.0, 12.0],
            y: [2.0, 2.0, 8.0, 12.0],
            tag: [1, 2, 3, 2],
            src: [0, 0, 1, 1],
            dst: [1, 2, 2, 3],
            flags: [0, COSMETIC, COSMETIC, edge_flag::SUBDIVIDE],
            x0: [0, 10, 7, 10],
            y0: [0, 0, 8, 10],
            x1: [4, 14, 7, 14],
            y1: [4, 4, 8, 14],
        }
    }

    fn level(d: &Dungeon) -> Level<'_> {
        Level {
            graph: Some(GraphView {
                x: &d.x,
                y: &d.y,
                tag: &d.tag,
                src: &d.src,
                dst: &d.dst,
                flags: &d.flags,
            }),
            rooms: Some(RoomsView {
                x0: &d.x0,
                y0: &d.y0,
                x1: &d.x1,
                y1: &d.y1,
            }),
            ..Level::default()
        }
    }

    fn draw(level: &Level<'_>, size: f32) -> Scene {
        let mut scene = Scene::new(size, size, Rgba::TRANSPARENT);
        draw_level(level, 0.0, 0.0, size, &mut scene);
        scene
    }

    fn rects(scene: &Scene) -> Vec<[f32; 4]> {
        let rects = scene.items.iter().filter_map(|item| match *item {
            Item::Rect { x, y, w, h, .. } => Some([x, y, w, h]),
            _ => None,
        });
        rects.collect()
    }

    #[test]
    fn level_with_rooms_draws_backdrop_lines_rooms_then_dots() {
        let d = dungeon();
        let scene = draw(&level(&d), 180.0);
        let kinds: String = scene
            .items
            .iter()
            .map(|item| match item {
                Item::Rect { .. } => 'R',
                Item::Line { .. } => 'L',
                Item::Circle { .. } => 'C',
            })
            .collect();
        // Backdrop, 4 edges under the rooms, rim and floor of 3 rooms, 1 cosmetic dot.
        assert_eq!(kinds, "RLLLLRRRRRRC");
        let widths: Vec<f32> = scene
            .items
            .iter()
            .filter_map(|item| match *item {
                Item::Line { width, .. } => Some(width),
                _ => None,
            })
            .collect();
        let unit_px = 40.0;
        let expected = [
            COSMETIC_WIDTH,
            COSMETIC_WIDTH,
            SUBDIVIDE_WIDTH,
            CORRIDOR_WIDTH,
        ];
        assert_eq!(widths, expected.map(|w| w * unit_px));
    }

    #[test]
    fn cosmetic_vertex_draws_a_dot_and_no_room() {
        let d = dungeon();
        let scene = draw(&level(&d), 180.0);
        // Vertex 2 sits at pixel (90, 100); no rect but the backdrop covers it.
        let covering = rects(&scene)
            .into_iter()
            .filter(|&[x, y, w, h]| (x..x + w).contains(&90.0) && (y..y + h).contains(&100.0))
            .count();
        assert_eq!(covering, 1, "only the backdrop covers the cosmetic vertex");
        let dots: Vec<Item> = scene
            .items
            .iter()
            .copied()
            .filter(|item| matches!(item, Item::Circle { .. }))
            .collect();
        let r = DOT_RADIUS * 40.0;
        let fill = COSMETIC_VERTEX;
        let dot = Item::Circle {
            cx: 90.0,
            cy: 100.0,
            r,
            fill,
        };
        assert_eq!(dots, vec![dot]);
    }

    #[test]
    fn rooms_not_centres_fit_inside_the_square_with_a_margin() {
        // One wide room: its 4 x 2 rect, not its centre point, decides the fit.
        let (x, y, tag) = ([2.0], [1.0], [1]);
        let (x0, y0, x1, y1) = ([0], [0], [4], [2]);
        let level = Level {
            graph: Some(GraphView {
                x: &x,
                y: &y,
                tag: &tag,
                src: &[],
                dst: &[],
                flags: &[],
            }),
            rooms: Some(RoomsView {
                x0: &x0,
                y0: &y0,
                x1: &x1,
                y1: &y1,
            }),
            ..Level::default()
        };
        let scene = draw(&level, 100.0);
        let all = rects(&scene);
        // Unit 2 (the short side), margin 1: a 6 x 4 world over 100 px.
        let scale = 100.0 / 6.0;
        let [x, y, w, h] = all[1];
        assert_eq!([x, w], [scale, 4.0 * scale]);
        assert!((y - (50.0 - scale)).abs() < 1e-3, "room top {y}");
        assert!((h - 2.0 * scale).abs() < 1e-3, "room height {h}");
    }

    #[test]
    fn tags_choose_floor_colours_from_the_palette() {
        let d = dungeon();
        let scene = draw(&level(&d), 180.0);
        let fills: Vec<Rgba> = scene
            .items
            .iter()
            .filter_map(|item| match *item {
                Item::Rect { fill, .. } => Some(fill),
                _ => None,
            })
            .collect();
        let (one, two) = (tag_colour(1), tag_colour(2));
        let expected = [darker(one), one, darker(two), two, darker(two), two];
        assert_eq!(fills[1..], expected);
        assert_ne!(one, two);
        assert_eq!(tag_colour(13), tag_colour(1));
        for (i, a) in TAG_PALETTE.iter().enumerate() {
            assert!(
                !TAG_PALETTE[i + 1..].contains(a),
                "palette entry {i} repeats"
            );
        }
    }

    #[test]
    fn untagged_rooms_use_the_floor_colour() {
        let d = dungeon();
        let mut untagged = level(&d);
        if let Some(graph) = untagged.graph.as_mut() {
            graph.tag = &[];
        }
        let scene = draw(&untagged, 180.0);
        let floor = cell_colour(cell::FLOOR);
        let floors = scene
            .items
            .iter()
            .filter(|item| matches!(item, Item::Rect { fill, .. } if *fill == floor))
            .count();
        assert_eq!(floors, 3);
    }

    #[test]
    fn small_dungeon_svg_is_byte_exact() {
        let d = dungeon();
        let svg = to_svg(&draw(&level(&d), 180.0));
        let expected = r##"<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="180" height="180" viewBox="0 0 180 180" stroke-linecap="round">
<g shape-rendering="crispEdges">
<rect x="0" y="0" width="180" height="180" fill="#2b2b33"/>
</g>
<line x1="40" y1="40" x2="90" y2="100" stroke-width="2.4" stroke="#ecebe4" stroke-opacity="0.38"/>
<line x1="140" y1="40" x2="90" y2="100" stroke-width="2.4" stroke="#ecebe4" stroke-opacity="0.38"/>
<line x1="140" y1="40" x2="140" y2="140" stroke-width="10" stroke="#ecebe4"/>
<line x1="40" y1="40" x2="140" y2="40" stroke-width="14" stroke="#ecebe4"/>
<g shape-rendering="crispEdges">
<rect x="20" y="20" width="40" height="40" fill="#537686"/>
<rect x="24" y="24" width="32" height="32" fill="#8ecae6"/>
<rect x="120" y="20" width="40" height="40" fill="#8e5e38"/>
<rect x="124" y="24" width="32" height="32" fill="#f4a261"/>
<rect x="120" y="120" width="40" height="40" fill="#8e5e38"/>
<rect x="124" y="124" width="32" height="32" fill="#f4a261"/>
</g>
<circle cx="90" cy="100" r="4.8" fill="#7d8aa3"/>
</svg>
"##;
        assert_eq!(svg, expected);
    }

    #[test]
    fn png_room_centre_has_its_tag_colour_and_edge_its_rim() {
        let d = dungeon();
        let png = to_png(&draw(&level(&d), 180.0)).expect("a small scene encodes");
        let pixmap = tiny_skia::Pixmap::decode_png(&png).expect("our own PNG decodes");
        let rgba = |x, y| {
            let p = pixmap.pixel(x, y).expect("inside the image").demultiply();
            Rgba([p.red(), p.green(), p.blue(), p.alpha()])
        };
        assert_eq!(rgba(40, 40), tag_colour(1));
        assert_eq!(rgba(21, 40), darker(tag_colour(1)));
        assert_eq!(rgba(5, 5), cell_colour(cell::WALL));
    }

    #[test]
    fn malformed_rooms_and_ids_never_panic() {
        let mut d = dungeon();
        // Room 1 inverted, an edge to a missing vertex, a NaN cosmetic vertex.
        d.x1[1] = 5;
        d.dst[0] = 99;
        d.x[2] = f32::NAN;
        let mut broken = level(&d);
        let scene = draw(&broken, 180.0);
        let dots = scene
            .items
            .iter()
            .filter(|item| matches!(item, Item::Circle { .. }))
            .count();
        // Vertex 1 (inverted room) becomes a dot; vertex 2 is NaN and draws nothing.
        assert_eq!(dots, 1);
        // Short room columns: vertices past the shortest one have no room.
        if let Some(rooms) = broken.rooms.as_mut() {
            rooms.y1 = &d.y1[..1];
        }
        assert!(!draw(&broken, 180.0).items.is_empty());
        let none = Level {
            graph: Some(GraphView {
                x: &[],
                y: &[],
                tag: &[],
                src: &[],
                dst: &[],
                flags: &[],
            }),
            rooms: Some(RoomsView {
                x0: &[],
                y0: &[],
                x1: &[],
                y1: &[],
            }),
            ..Level::default()
        };
        assert!(draw(&none, 180.0).items.is_empty());
    }
}
