//! The graph drawn over a tile map (`warren render --graph`): each room tinted with its tag's
//! colour, corridors as lines from room centre to room centre, cosmetic edges faint, and a dot
//! per vertex. It shows how a graph-grammar level (seed 000) became its map, or which object of
//! a DMG dungeon (seed 003) is which; the map itself is drawn by `level::draw_grid`.

use super::palette::tag_colour;
use super::scene::{Rgba, Scene};
use crate::core::generator::Level;
use crate::core::graph::edge_flag;

/// Corridor lines: a warm red that stands out on floor and wall alike.
const LINE: Rgba = Rgba::rgb(0xd62828);
/// Vertex dots.
const DOT: Rgba = Rgba::rgb(0x1d3557);

/// The level's owner grid: an extra `list<u16>` column with one value per grid tile.
fn owner_grid<'a>(level: &Level<'a>) -> Option<&'a [u16]> {
    let grid = level.grid.as_ref()?;
    let tiles = grid.width as usize * grid.height as usize;
    level
        .extra
        .iter()
        .filter_map(|e| e.as_u16s())
        .find(|o| o.len() == tiles && tiles > 0)
}

/// Draws `level`'s graph over its grid, with the grid's transform: grid tile `(x, y)` covers
/// pixels `[left + x * cell_px, ...)`. Graph and room coordinates are in tiles (the generators
/// that write both store them so). Does nothing for a level without grid or graph; malformed
/// input (short arrays, out-of-range ids, non-finite coordinates) draws what is valid.
///
/// # Runtime
/// O(V + E) scene items.
pub fn draw_graph_overlay(level: &Level<'_>, left: f32, top: f32, cell_px: f32, scene: &mut Scene) {
    let (Some(_), Some(g)) = (&level.grid, &level.graph) else {
        return;
    };
    let n = g.x.len().min(g.y.len());
    if let Some(owner) = owner_grid(level) {
        // A map with an owner grid (`map` levels, grammar levels drawn by the map builder):
        // tint each room's own floor, row by row, so L and T rooms are tinted as drawn.
        let w = level.grid.as_ref().map_or(0, |g| g.width as usize);
        for (y, row) in owner.chunks(w.max(1)).enumerate() {
            let mut x = 0;
            while x < row.len() {
                let o = row[x] as usize;
                let run = row[x..].iter().take_while(|&&p| p as usize == o).count();
                if (1..=n).contains(&o) {
                    let tint = tag_colour(g.tag.get(o - 1).copied().unwrap_or(0)).with_alpha(0x90);
                    scene.push_rect(
                        left + x as f32 * cell_px,
                        top + y as f32 * cell_px,
                        run as f32 * cell_px,
                        cell_px,
                        tint,
                    );
                }
                x += run;
            }
        }
    } else if let Some(r) = &level.rooms {
        let rooms = n
            .min(r.x0.len())
            .min(r.y0.len())
            .min(r.x1.len())
            .min(r.y1.len());
        for v in 0..rooms {
            let (w, h) = (r.x1[v] - r.x0[v], r.y1[v] - r.y0[v]);
            if w <= 0 || h <= 0 {
                continue;
            }
            let tint = tag_colour(g.tag.get(v).copied().unwrap_or(0)).with_alpha(0x90);
            scene.push_rect(
                left + r.x0[v] as f32 * cell_px,
                top + r.y0[v] as f32 * cell_px,
                w as f32 * cell_px,
                h as f32 * cell_px,
                tint,
            );
        }
    }
    let point = |v: usize| (left + g.x[v] * cell_px, top + g.y[v] * cell_px);
    let finite = |v: usize| v < n && g.x[v].is_finite() && g.y[v].is_finite();
    let width = (cell_px * 0.35).max(1.0);
    for e in 0..g.src.len().min(g.dst.len()) {
        let (a, b) = (g.src[e] as usize, g.dst[e] as usize);
        if !finite(a) || !finite(b) {
            continue;
        }
        let cosmetic = g
            .flags
            .get(e)
            .is_some_and(|&f| f & edge_flag::COSMETIC != 0);
        let (colour, w) = if cosmetic {
            (LINE.with_alpha(0x60), width * 0.5)
        } else {
            (LINE.with_alpha(0xd0), width)
        };
        let ((x0, y0), (x1, y1)) = (point(a), point(b));
        scene.push_line(x0, y0, x1, y1, w, colour);
    }
    for v in (0..n).filter(|&v| finite(v)) {
        let (x, y) = point(v);
        scene.push_circle(x, y, (cell_px * 0.6).max(1.5), DOT);
    }
}
