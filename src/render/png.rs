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
            layout_hash: 0,
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
