//! Drawing levels into a [`Scene`]: grid levels as merged horizontal runs of
//! rects, and contact sheets that tile many levels. Graph levels are drawn by `level_rooms`
//! when they have rooms (seed 000's graph grammar) and by `level_graph` otherwise (mazes).

use super::level_graph::draw_graph;
use super::level_rooms::draw_rooms;
use super::marks::{Marks, draw_marks};
use super::overlay::draw_graph_overlay;
use super::palette::cell_colour;
use super::scene::{Rgba, Scene};
use crate::core::generator::Level;
use crate::core::grid::GridView;

/// Draws `level` into the square `[x0, x0 + size] x [y0, y0 + size]` of `scene`, aspect ratio
/// preserved and centred.
///
/// A grid becomes one rect per horizontal run of equally coloured cells; runs whose colour is
/// the scene background or transparent (void) are skipped. A graph without rooms (a maze)
/// becomes a wall-coloured backdrop, thin faint lines for plain edges, thick light lines for
/// passages ([`edge_flag::PASSAGE`](crate::core::graph::edge_flag::PASSAGE)) and small vertex
/// circles. A graph with rooms (a graph-grammar dungeon) becomes a dungeon map: thick
/// floor-coloured corridors from room centre to room centre under the rooms (subdivide
/// corridors a little narrower), thin faint cosmetic edges, each room a rect filled with its
/// tag's colour ([`tag_colour`](super::palette::tag_colour)) inside a darker rim, and cosmetic vertices
/// (empty rooms) as small dots; the rooms themselves are fitted into the square with a margin.
/// Malformed input (short cell or room arrays, inverted rooms, out-of-range vertex ids,
/// non-finite coordinates) draws what is valid and never panics.
///
/// # Runtime
/// O(cells) for a grid, O(V + E) for a graph (one temporary allocation for the median edge
/// length or room side); the scene grows by at most one item per run, edge and vertex, and two
/// per room.
pub fn draw_level(level: &Level<'_>, x0: f32, y0: f32, size: f32, scene: &mut Scene) {
    draw_level_with(level, x0, y0, size, false, scene);
}

/// [`draw_level`], with `graph` drawing a level's graph over its tile map
/// (rooms tinted by tag, corridors centre to centre) when it has both.
pub fn draw_level_with(
    level: &Level<'_>,
    x0: f32,
    y0: f32,
    size: f32,
    graph: bool,
    scene: &mut Scene,
) {
    draw_level_marked(level, None, x0, y0, size, graph, scene);
}

/// [`draw_level_with`], with the designer's constraints (`marks`) drawn over a tile map
/// ([`draw_marks`]).
pub fn draw_level_marked(
    level: &Level<'_>,
    marks: Option<&Marks>,
    x0: f32,
    y0: f32,
    size: f32,
    graph: bool,
    scene: &mut Scene,
) {
    if !(size > 0.0 && x0.is_finite() && y0.is_finite() && size.is_finite()) {
        return;
    }
    // NOTE: a level with both parts (graph-grammar maps, DMG dungeons: the grid and the graph
    // it was drawn from) is drawn as its grid, which is the level itself; the graph goes on top
    // only when asked for.
    if let Some(grid) = &level.grid {
        let (left, top, cell_px) = draw_grid(grid, x0, y0, size, scene);
        if graph {
            draw_graph_overlay(level, left, top, cell_px, scene);
        }
        if let Some(marks) = marks.filter(|m| !m.is_empty()) {
            draw_marks(
                marks,
                (grid.width, grid.height),
                (left, top, cell_px),
                scene,
            );
        }
    } else if let Some(graph) = &level.graph {
        match &level.rooms {
            Some(rooms) => draw_rooms(graph, rooms, x0, y0, size, scene),
            None => draw_graph(graph, x0, y0, size, scene),
        }
    }
}

/// Draws a grid centred in the square, one rect per run of equal colour in each row; returns
/// the transform used (left, top, pixels per tile).
fn draw_grid(
    grid: &GridView<'_>,
    x0: f32,
    y0: f32,
    size: f32,
    scene: &mut Scene,
) -> (f32, f32, f32) {
    let (w, h) = (grid.width as usize, grid.height as usize);
    if w == 0 || h == 0 {
        return (x0, y0, 0.0);
    }
    let cell_px = size / w.max(h) as f32;
    let left = x0 + (size - w as f32 * cell_px) * 0.5;
    let top = y0 + (size - h as f32 * cell_px) * 0.5;
    let background = scene.background;
    // NOTE: cell edges snap to whole pixels, each computed once from its index, so that the
    // rects of neighbouring runs and rows share their edges exactly: edges left fractional
    // were each rounded on their own by the rasteriser (no anti-aliasing on cells), and a row
    // whose top and bottom rounded apart from its neighbours' left a transparent line.
    let edge = |origin: f32, i: usize| (origin + i as f32 * cell_px).round();
    for (row, cells) in grid.cells.chunks(w).take(h).enumerate() {
        let (y, y_end) = (edge(top, row), edge(top, row + 1));
        let mut start = 0;
        while start < cells.len() {
            let colour = cell_colour(cells[start]);
            let run = cells[start..]
                .iter()
                .take_while(|&&c| cell_colour(c) == colour)
                .count();
            if colour != background && y_end > y {
                let (x, x_end) = (edge(left, start), edge(left, start + run));
                if x_end > x {
                    scene.push_rect(x, y, x_end - x, y_end - y, colour);
                }
            }
            start += run;
        }
    }
    (left, top, cell_px)
}

/// Tiles `levels` into a `cols x rows` contact sheet of `cell_px`-pixel squares, left to right
/// then top to bottom, separated and framed by a small gap, on a transparent background.
///
/// Fewer levels than `cols * rows` leave blank squares; levels past `cols * rows` are not drawn.
/// A zero `cols`, `rows` or non-positive `cell_px` gives an empty scene.
///
/// # Runtime
/// O(sum of the levels' sizes); see [`draw_level`].
pub fn draw_sheet(levels: &[Level<'_>], cols: u32, rows: u32, cell_px: f32) -> Scene {
    draw_sheet_with(levels, cols, rows, cell_px, false)
}

/// [`draw_sheet`], with `graph` drawing each level's graph over its tile map.
pub fn draw_sheet_with(
    levels: &[Level<'_>],
    cols: u32,
    rows: u32,
    cell_px: f32,
    graph: bool,
) -> Scene {
    draw_sheet_marked(levels, &[], cols, rows, cell_px, graph)
}

/// [`draw_sheet_with`], with `marks[i]` drawn over level `i`'s tile map (levels past the end of
/// `marks` have none).
pub fn draw_sheet_marked(
    levels: &[Level<'_>],
    marks: &[Marks],
    cols: u32,
    rows: u32,
    cell_px: f32,
    graph: bool,
) -> Scene {
    if cols == 0 || rows == 0 || !(cell_px > 0.0 && cell_px.is_finite()) {
        return Scene::new(0.0, 0.0, Rgba::TRANSPARENT);
    }
    let gap = sheet_gap(cell_px);
    let pitch = cell_px + gap;
    let mut scene = Scene::new(
        cols as f32 * pitch + gap,
        rows as f32 * pitch + gap,
        Rgba::TRANSPARENT,
    );
    let slots = cols as usize * rows as usize;
    for (i, level) in levels.iter().take(slots).enumerate() {
        let col = (i % cols as usize) as f32;
        let row = (i / cols as usize) as f32;
        draw_level_marked(
            level,
            marks.get(i),
            gap + col * pitch,
            gap + row * pitch,
            cell_px,
            graph,
            &mut scene,
        );
    }
    scene
}

/// The space between sheet squares: 4% of a square, at least 2 px.
fn sheet_gap(cell_px: f32) -> f32 {
    (cell_px * 0.04).max(2.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::grid::cell::{FLOOR, VOID, WALL};
    use crate::render::{Item, to_svg};

    fn grid_level(width: u32, height: u32, cells: &[u8]) -> Level<'_> {
        Level {
            grid: Some(GridView {
                width,
                height,
                cells,
            }),
            graph: None,
            metrics: &[],
            ..Level::default()
        }
    }

    #[test]
    fn grid_3x3_gives_one_rect_per_visible_run() {
        // Row 0: one wall run. Row 1: wall, floor, wall. Row 2: floor run, then void (skipped).
        let cells = [WALL, WALL, WALL, WALL, FLOOR, WALL, FLOOR, FLOOR, VOID];
        let level = grid_level(3, 3, &cells);
        let mut scene = Scene::new(30.0, 30.0, Rgba::TRANSPARENT);
        draw_level(&level, 0.0, 0.0, 30.0, &mut scene);
        assert_eq!(scene.items.len(), 5);
        let svg = to_svg(&scene);
        assert_eq!(svg.matches("<rect").count(), 5);
        assert!(svg.contains(r##"<rect x="0" y="0" width="30" height="10" fill="#2b2b33"/>"##));
        assert!(svg.contains(r##"<rect x="0" y="20" width="20" height="10" fill="#ecebe4"/>"##));
    }

    #[test]
    fn runs_matching_the_background_are_skipped() {
        let cells = [WALL, FLOOR, WALL, WALL];
        let mut scene = Scene::new(8.0, 8.0, cell_colour(WALL));
        draw_level(&grid_level(2, 2, &cells), 0.0, 0.0, 8.0, &mut scene);
        assert_eq!(scene.items.len(), 1);
    }

    #[test]
    fn wide_grid_is_centred_vertically() {
        let cells = [WALL; 4];
        let mut scene = Scene::new(40.0, 40.0, Rgba::TRANSPARENT);
        draw_level(&grid_level(4, 1, &cells), 0.0, 0.0, 40.0, &mut scene);
        let expected = Item::Rect {
            x: 0.0,
            y: 15.0,
            w: 40.0,
            h: 10.0,
            fill: cell_colour(WALL),
        };
        assert_eq!(scene.items, vec![expected]);
    }

    #[test]
    fn short_cell_array_draws_what_exists() {
        let cells = [WALL, WALL, FLOOR];
        let mut scene = Scene::new(9.0, 9.0, Rgba::TRANSPARENT);
        draw_level(&grid_level(3, 3, &cells), 0.0, 0.0, 9.0, &mut scene);
        assert_eq!(scene.items.len(), 2);
    }

    #[test]
    fn sheet_of_5_in_2x3_draws_5_levels_and_one_blank() {
        let cells = [WALL];
        let levels = vec![grid_level(1, 1, &cells); 5];
        let scene = draw_sheet(&levels, 2, 3, 50.0);
        let gap = sheet_gap(50.0);
        assert_eq!(scene.width, 2.0 * (50.0 + gap) + gap);
        assert_eq!(scene.height, 3.0 * (50.0 + gap) + gap);
        let origins: Vec<(f32, f32)> = scene
            .items
            .iter()
            .map(|item| match *item {
                Item::Rect { x, y, .. } => (x, y),
                _ => panic!("a 1x1 wall grid draws one rect"),
            })
            .collect();
        let pitch = 50.0 + gap;
        let expected: Vec<(f32, f32)> = (0..5)
            .map(|i| (gap + (i % 2) as f32 * pitch, gap + (i / 2) as f32 * pitch))
            .collect();
        assert_eq!(origins, expected);
    }

    /// `map` levels are drawn from their grid: void left as the (transparent) background, and
    /// every door cell drawn in the door colour.
    #[test]
    fn map_levels_leave_void_as_background_and_draw_every_door() {
        use crate::core::generator::Generator;
        use crate::core::grid::cell::DOOR;
        let maps = crate::map::MapGenerator::new(crate::map::MapConfig::default()).unwrap();
        let mut scratch = maps.new_scratch();
        let level = maps
            .generate(crate::core::rng::mix(0, 0), &mut scratch)
            .unwrap();
        let grid = level.grid.unwrap();
        let (w, h) = (grid.width, grid.height);
        // One pixel per cell, so run widths count cells.
        let side = w.max(h) as f32;
        let mut scene = Scene::new(side, side, Rgba::TRANSPARENT);
        draw_level(&level, 0.0, 0.0, side, &mut scene);
        let (mut door_cells, mut drawn_cells) = (0.0, 0.0);
        for item in &scene.items {
            let Item::Rect { w, h, fill, .. } = *item else {
                panic!("grids draw rects only");
            };
            assert!(!fill.is_invisible(), "void is not drawn");
            drawn_cells += w * h;
            if fill == cell_colour(DOOR) {
                door_cells += w * h;
            }
        }
        let count = |f: &dyn Fn(u8) -> bool| grid.cells.iter().filter(|&&c| f(c)).count() as f32;
        assert_eq!(door_cells, count(&|c| c == DOOR));
        assert!(door_cells >= 20.0, "edgar-fig8-17 has 20 connections");
        assert_eq!(drawn_cells, count(&|c| c != VOID));
        assert!(
            drawn_cells < (w * h) as f32,
            "a map has void around its rooms"
        );
    }

    #[test]
    fn empty_sheet_shapes_give_empty_scene() {
        assert_eq!(draw_sheet(&[], 0, 3, 10.0).width, 0.0);
        assert!(draw_sheet(&[], 2, 2, 10.0).items.is_empty());
    }
}
