//! Rasterising a [`Scene`] to PNG bytes with `tiny-skia`: rects without anti-aliasing (grid
//! cells meet exactly, like SVG `crispEdges`), lines and circles anti-aliased.

use tiny_skia::{Color, FillRule, LineCap, Paint, PathBuilder, Pixmap, Rect, Stroke, Transform};

use super::error::RenderError;
use super::scene::{Item, Rgba, Scene};

/// The largest image side [`to_png`] accepts, in pixels.
pub const MAX_IMAGE_SIDE: u32 = 16_384;

/// Renders `scene` to an RGBA PNG of `ceil(width) x ceil(height)` pixels (at least 1 x 1).
///
/// # Errors
/// [`RenderError::ImageTooLarge`] when a side would exceed [`MAX_IMAGE_SIDE`];
/// [`RenderError::Encode`] when PNG encoding fails.
///
/// # Runtime
/// O(pixels + items); allocates the pixmap (4 bytes per pixel) and the encoded PNG.
pub fn to_png(scene: &Scene) -> Result<Vec<u8>, RenderError> {
    rasterize(scene)?
        .encode_png()
        .map_err(|e| RenderError::Encode(Box::new(e)))
}

/// Paints `scene` into a new pixmap.
fn rasterize(scene: &Scene) -> Result<Pixmap, RenderError> {
    let (width, height) = (image_side(scene.width), image_side(scene.height));
    let max = MAX_IMAGE_SIDE;
    let too_large = RenderError::ImageTooLarge { width, height, max };
    if width > u64::from(max) || height > u64::from(max) {
        return Err(too_large);
    }
    // Both sides are within 1..=MAX_IMAGE_SIDE here, so the casts are lossless.
    let mut pixmap = Pixmap::new(width as u32, height as u32).ok_or(too_large)?;
    if !scene.background.is_invisible() {
        pixmap.fill(colour(scene.background));
    }
    for item in &scene.items {
        paint_item(&mut pixmap, item);
    }
    Ok(pixmap)
}

/// A scene extent rounded up to whole pixels, at least 1 (NaN and negatives give 1, infinity
/// saturates).
fn image_side(extent: f32) -> u64 {
    if extent > 0.0 {
        // NOTE: float-to-int `as` saturates, so infinity becomes u64::MAX and is rejected.
        (extent.ceil() as u64).max(1)
    } else {
        1
    }
}

fn colour(c: Rgba) -> Color {
    let Rgba([r, g, b, a]) = c;
    Color::from_rgba8(r, g, b, a)
}

fn solid(c: Rgba, anti_alias: bool) -> Paint<'static> {
    let mut paint = Paint {
        anti_alias,
        ..Paint::default()
    };
    paint.set_color(colour(c));
    paint
}

/// Paints one item; degenerate geometry (empty rects, zero radii) is skipped.
fn paint_item(pixmap: &mut Pixmap, item: &Item) {
    let identity = Transform::identity();
    match *item {
        Item::Rect { x, y, w, h, fill } => {
            if let Some(rect) = Rect::from_xywh(x, y, w, h) {
                pixmap.fill_rect(rect, &solid(fill, false), identity, None);
            }
        }
        Item::Line {
            x0,
            y0,
            x1,
            y1,
            width,
            stroke,
        } => {
            let mut path = PathBuilder::new();
            path.move_to(x0, y0);
            path.line_to(x1, y1);
            let style = Stroke {
                width,
                line_cap: LineCap::Round,
                ..Stroke::default()
            };
            if let Some(path) = path.finish() {
                pixmap.stroke_path(&path, &solid(stroke, true), &style, identity, None);
            }
        }
        Item::Circle { cx, cy, r, fill } => {
            if let Some(path) = PathBuilder::from_circle(cx, cy, r) {
                let paint = solid(fill, true);
                pixmap.fill_path(&path, &paint, FillRule::Winding, identity, None);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::generator::Level;
    use crate::core::grid::GridView;
    use crate::core::grid::cell::{FLOOR, WALL};
    use crate::render::{cell_colour, draw_level};

    const PNG_SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a];

    fn ihdr_size(png: &[u8]) -> (u32, u32) {
        let be = |at: usize| u32::from_be_bytes([png[at], png[at + 1], png[at + 2], png[at + 3]]);
        (be(16), be(20))
    }

    #[test]
    fn png_has_signature_and_rounded_up_size() {
        let mut scene = Scene::new(30.2, 10.0, Rgba::rgb(0x336699));
        scene.push_line(0.0, 5.0, 30.0, 5.0, 2.0, Rgba::rgb(0xffffff));
        scene.push_circle(15.0, 5.0, 3.0, Rgba::rgb(0xff0000));
        let png = to_png(&scene).expect("a small scene encodes");
        assert_eq!(png[..8], PNG_SIGNATURE);
        assert_eq!(&png[12..16], b"IHDR");
        assert_eq!(ihdr_size(&png), (31, 10));
    }

    #[test]
    fn empty_or_nan_scene_is_one_pixel() {
        let png = to_png(&Scene::new(0.0, f32::NAN, Rgba::TRANSPARENT)).expect("1x1 encodes");
        assert_eq!(ihdr_size(&png), (1, 1));
    }

    #[test]
    fn oversized_scene_is_rejected() {
        let err = to_png(&Scene::new(16_384.5, 1.0, Rgba::TRANSPARENT));
        assert!(matches!(
            err,
            Err(RenderError::ImageTooLarge { width: 16_385, .. })
        ));
        let inf = to_png(&Scene::new(1.0, f32::INFINITY, Rgba::TRANSPARENT));
        assert!(matches!(inf, Err(RenderError::ImageTooLarge { .. })));
    }

    /// The pixel box `[x0, x1) x [y0, y1)` of `pixmap` in which some pixel is fully
    /// transparent, as a row or column index inside it, if any.
    fn transparent_line(pixmap: &Pixmap, x0: u32, y0: u32, x1: u32, y1: u32) -> Option<String> {
        let clear = |x: u32, y: u32| pixmap.pixel(x, y).is_some_and(|p| p.alpha() == 0);
        (y0..y1)
            .find(|&y| (x0..x1).all(|x| clear(x, y)))
            .map(|y| format!("row {y}"))
            .or_else(|| {
                (x0..x1)
                    .find(|&x| (y0..y1).all(|y| clear(x, y)))
                    .map(|x| format!("column {x}"))
            })
    }

    /// Regression: cell rects at fractional pixel positions left one-pixel rows and columns of
    /// a level fully transparent (a white line on a page), e.g. the last row of a 100 x 100
    /// dungeon drawn 128 pixels wide, and rows between levels' cells on sheets.
    #[test]
    fn no_row_or_column_inside_a_drawn_grid_is_transparent() {
        let cells = vec![FLOOR; 160 * 160];
        for (w, h) in [(100, 100), (65, 65), (129, 97), (160, 33), (7, 160), (3, 3)] {
            let level = Level {
                grid: Some(GridView {
                    width: w,
                    height: h,
                    cells: &cells[..(w * h) as usize],
                }),
                ..Level::default()
            };
            for size in [64.0f32, 100.0, 128.0, 240.0, 300.0, 333.3, 512.0] {
                let mut scene = Scene::new(size, size, Rgba::TRANSPARENT);
                draw_level(&level, 0.0, 0.0, size, &mut scene);
                let pixmap = rasterize(&scene).expect("a small scene");
                // The grid's box: centred, `size / max(w, h)` pixels a cell.
                let cell = size / w.max(h) as f32;
                let (gw, gh) = (w as f32 * cell, h as f32 * cell);
                let (left, top) = ((size - gw) * 0.5, (size - gh) * 0.5);
                let (x0, y0) = (left.ceil() as u32, top.ceil() as u32);
                let (x1, y1) = ((left + gw).floor() as u32, (top + gh).floor() as u32);
                assert_eq!(
                    transparent_line(&pixmap, x0, y0, x1, y1),
                    None,
                    "{w} x {h} grid drawn {size} px wide"
                );
            }
            // And on sheets, inside every level's square.
            let levels = vec![level; 9];
            for cell_px in [100.0f32, 128.0, 240.0, 300.0] {
                let scene = crate::render::draw_sheet(&levels, 3, 3, cell_px);
                let pixmap = rasterize(&scene).expect("a small sheet");
                let gap = (cell_px * 0.04).max(2.0);
                let unit = cell_px / w.max(h) as f32;
                let (gw, gh) = (w as f32 * unit, h as f32 * unit);
                for i in 0..9 {
                    let ox = gap + (i % 3) as f32 * (cell_px + gap) + (cell_px - gw) * 0.5;
                    let oy = gap + (i / 3) as f32 * (cell_px + gap) + (cell_px - gh) * 0.5;
                    let (x0, y0) = (ox.ceil() as u32, oy.ceil() as u32);
                    let (x1, y1) = ((ox + gw).floor() as u32, (oy + gh).floor() as u32);
                    assert_eq!(
                        transparent_line(&pixmap, x0, y0, x1, y1),
                        None,
                        "{w} x {h} grid, level {i} of a sheet of {cell_px} px squares"
                    );
                }
            }
        }
    }

    #[test]
    fn wall_cell_centre_has_the_wall_colour() {
        let cells = [FLOOR, FLOOR, FLOOR, FLOOR, WALL, FLOOR, FLOOR, FLOOR, FLOOR];
        let level = Level {
            grid: Some(GridView {
                width: 3,
                height: 3,
                cells: &cells,
            }),
            graph: None,
            metrics: &[],
            ..Level::default()
        };
        let mut scene = Scene::new(30.0, 30.0, Rgba::TRANSPARENT);
        draw_level(&level, 0.0, 0.0, 30.0, &mut scene);
        let png = to_png(&scene).expect("a small scene encodes");
        let pixmap = Pixmap::decode_png(&png).expect("our own PNG decodes");
        let rgba = |x, y| {
            let p = pixmap.pixel(x, y).expect("inside the image").demultiply();
            Rgba([p.red(), p.green(), p.blue(), p.alpha()])
        };
        assert_eq!(rgba(15, 15), cell_colour(WALL));
        assert_eq!(rgba(5, 5), cell_colour(FLOOR));
        // Cell edges are crisp: the last wall column and the first floor column.
        assert_eq!(rgba(19, 15), cell_colour(WALL));
        assert_eq!(rgba(20, 15), cell_colour(FLOOR));
    }
}
