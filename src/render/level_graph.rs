//! Drawing graph levels without rooms (seed 001's irregular mazes and any graph family that
//! places no rooms; graph-grammar dungeons are drawn by `level_rooms`): the graph is
//! fitted into a square, plain edges drawn thin and faint, passages thick and light like carved
//! corridors on a wall-coloured backdrop, vertices as small dots.

use super::fit::{Fit, grow, vertex};
use super::palette::cell_colour;
use super::scene::{Rgba, Scene};
use crate::core::generator::GraphView;
use crate::core::graph::edge_flag;
use crate::core::grid::cell;

/// Plain (non-passage) edges: the floor colour at low alpha.
const PLAIN_EDGE: Rgba = cell_colour(cell::FLOOR).with_alpha(0x50);
/// Vertex dots.
const VERTEX: Rgba = Rgba::rgb(0x7d8aa3);
/// Passage stroke width as a fraction of the median edge length.
const PASSAGE_WIDTH: f32 = 0.35;
/// Plain edge stroke width as a fraction of the median edge length.
const PLAIN_WIDTH: f32 = 0.05;
/// Vertex radius as a fraction of the median edge length.
const VERTEX_RADIUS: f32 = 0.09;
/// Thinnest stroke and smallest radius in pixels, so huge graphs stay visible.
const MIN_PX: f32 = 0.5;

/// Draws `graph` centred in the square `[x0, x0 + size] x [y0, y0 + size]`.
pub(super) fn draw_graph(graph: &GraphView<'_>, x0: f32, y0: f32, size: f32, scene: &mut Scene) {
    let Some([min_x, min_y, max_x, max_y]) = finite_bounds(graph) else {
        return;
    };
    let extent = (max_x - min_x).max(max_y - min_y);
    let unit = median_edge_length(graph)
        .or((extent > 0.0).then_some(extent / 8.0))
        .unwrap_or(1.0);
    // NOTE: half a unit of padding keeps round passage caps and dots inside the square.
    let pad = unit * 0.5;
    let fit = Fit::into_square([min_x, min_y, max_x, max_y], pad, x0, y0, size);
    fit.push_backdrop(cell_colour(cell::WALL), scene);
    let unit_px = unit * fit.scale;
    // Plain edges first so passages paint over them where they share vertices.
    draw_edges(
        graph,
        &fit,
        false,
        (PLAIN_WIDTH * unit_px).max(MIN_PX),
        PLAIN_EDGE,
        scene,
    );
    let passage = cell_colour(cell::FLOOR);
    draw_edges(
        graph,
        &fit,
        true,
        (PASSAGE_WIDTH * unit_px).max(MIN_PX),
        passage,
        scene,
    );
    let radius = (VERTEX_RADIUS * unit_px).max(MIN_PX);
    for (&x, &y) in graph.x.iter().zip(graph.y) {
        let (cx, cy) = fit.point(x, y);
        scene.push_circle(cx, cy, radius, VERTEX);
    }
}

/// Pushes one line per edge whose passage bit equals `passages`.
fn draw_edges(
    graph: &GraphView<'_>,
    fit: &Fit,
    passages: bool,
    width: f32,
    stroke: Rgba,
    scene: &mut Scene,
) {
    for (e, (&s, &d)) in graph.src.iter().zip(graph.dst).enumerate() {
        let flags = graph.flags.get(e).copied().unwrap_or(0);
        if (flags & edge_flag::PASSAGE != 0) != passages {
            continue;
        }
        if let (Some((ax, ay)), Some((bx, by))) = (vertex(graph, s), vertex(graph, d)) {
            let (px0, py0) = fit.point(ax, ay);
            let (px1, py1) = fit.point(bx, by);
            scene.push_line(px0, py0, px1, py1, width, stroke);
        }
    }
}

/// `[min_x, min_y, max_x, max_y]` over the finite vertices, or `None` when there are none.
fn finite_bounds(graph: &GraphView<'_>) -> Option<[f32; 4]> {
    graph
        .x
        .iter()
        .zip(graph.y)
        .filter(|(x, y)| x.is_finite() && y.is_finite())
        .fold(None, |acc, (&x, &y)| grow(acc, [x, y, x, y]))
}

/// The median length of the edges with two finite endpoints, if positive.
fn median_edge_length(graph: &GraphView<'_>) -> Option<f32> {
    let mut lengths: Vec<f32> = graph
        .src
        .iter()
        .zip(graph.dst)
        .filter_map(|(&s, &d)| {
            let ((ax, ay), (bx, by)) = (vertex(graph, s)?, vertex(graph, d)?);
            Some((bx - ax).hypot(by - ay))
        })
        .collect();
    if lengths.is_empty() {
        return None;
    }
    let mid = lengths.len() / 2;
    let (_, &mut median, _) = lengths.select_nth_unstable_by(mid, f32::total_cmp);
    (median > 0.0 && median.is_finite()).then_some(median)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::generator::Level;
    use crate::render::{Item, draw_level, to_svg};

    struct Edges<'a> {
        src: &'a [u32],
        dst: &'a [u32],
        flags: &'a [u8],
    }

    fn graph_level<'a>(x: &'a [f32], y: &'a [f32], edges: Edges<'a>) -> Level<'a> {
        let graph = GraphView {
            x,
            y,
            tag: &[],
            src: edges.src,
            dst: edges.dst,
            flags: edges.flags,
        };
        Level {
            grid: None,
            graph: Some(graph),
            metrics: &[],
            ..Level::default()
        }
    }

    fn line_widths(scene: &Scene) -> Vec<f32> {
        let widths = scene.items.iter().filter_map(|item| match *item {
            Item::Line { width, .. } => Some(width),
            _ => None,
        });
        widths.collect()
    }

    #[test]
    fn passage_and_plain_edge_draw_lines_of_two_widths() {
        // Edges 0-1 (passage) and 1-2 (plain), both of length 1.
        let (x, y) = ([0.0, 1.0, 1.0], [0.0, 0.0, 1.0]);
        let edges = Edges {
            src: &[0, 1],
            dst: &[1, 2],
            flags: &[edge_flag::PASSAGE, edge_flag::COSMETIC],
        };
        let mut scene = Scene::new(100.0, 100.0, Rgba::TRANSPARENT);
        draw_level(&graph_level(&x, &y, edges), 0.0, 0.0, 100.0, &mut scene);
        let widths = line_widths(&scene);
        assert_eq!(widths.len(), 2);
        // World extent is 1 + 2 * 0.5 padding = 2 units over 100 px, so a unit is 50 px.
        assert_eq!(widths, vec![PLAIN_WIDTH * 50.0, PASSAGE_WIDTH * 50.0]);
        let svg = to_svg(&scene);
        assert_eq!(svg.matches("<line").count(), 2);
        assert!(svg.contains(r#"stroke-width="17.5""#));
        assert!(svg.contains(r#"stroke-width="2.5""#));
        assert_eq!(svg.matches("<circle").count(), 3);
    }

    #[test]
    fn bad_ids_and_non_finite_vertices_are_skipped() {
        let (x, y) = ([0.0, f32::NAN, 2.0], [0.0, 0.0, 0.0]);
        // Edge 0-1 touches a NaN vertex, edge 0-9 names a vertex that does not exist.
        let edges = Edges {
            src: &[0, 0],
            dst: &[1, 9],
            flags: &[],
        };
        let mut scene = Scene::new(10.0, 10.0, Rgba::TRANSPARENT);
        draw_level(&graph_level(&x, &y, edges), 0.0, 0.0, 10.0, &mut scene);
        assert!(line_widths(&scene).is_empty());
        let circles = scene
            .items
            .iter()
            .filter(|i| matches!(i, Item::Circle { .. }));
        assert_eq!(circles.count(), 2);
    }
}
