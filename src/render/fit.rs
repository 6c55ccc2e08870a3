//! Fitting a world-coordinate box into a square of the scene, shared by the graph drawings
//! (`level_graph` for mazes, `level_rooms` for graph-grammar dungeons): uniform scale, aspect
//! ratio kept, centred.

use super::scene::{Rgba, Scene};
use crate::core::generator::GraphView;

/// Maps world coordinates to scene pixels: `p = origin + (q - min) * scale`.
pub(super) struct Fit {
    min_x: f32,
    min_y: f32,
    left: f32,
    top: f32,
    /// Pixels per world unit.
    pub(super) scale: f32,
    /// Width of the fitted box (bounds plus padding) in pixels.
    width: f32,
    /// Height of the fitted box in pixels.
    height: f32,
}

impl Fit {
    /// Fits `[min_x, min_y, max_x, max_y]`, grown by `pad` world units on every side, into the
    /// square `[x0, x0 + size] x [y0, y0 + size]`, centred.
    pub(super) fn into_square(bounds: [f32; 4], pad: f32, x0: f32, y0: f32, size: f32) -> Fit {
        let [min_x, min_y, max_x, max_y] = bounds;
        let (world_w, world_h) = (max_x - min_x + 2.0 * pad, max_y - min_y + 2.0 * pad);
        let scale = size / world_w.max(world_h);
        Fit {
            min_x: min_x - pad,
            min_y: min_y - pad,
            left: x0 + (size - world_w * scale) * 0.5,
            top: y0 + (size - world_h * scale) * 0.5,
            scale,
            width: world_w * scale,
            height: world_h * scale,
        }
    }

    /// The scene pixel of world point `(x, y)`.
    pub(super) fn point(&self, x: f32, y: f32) -> (f32, f32) {
        (
            self.left + (x - self.min_x) * self.scale,
            self.top + (y - self.min_y) * self.scale,
        )
    }

    /// Paints the whole fitted box in `colour`, unless that is the scene background already.
    pub(super) fn push_backdrop(&self, colour: Rgba, scene: &mut Scene) {
        if colour != scene.background {
            scene.push_rect(self.left, self.top, self.width, self.height, colour);
        }
    }
}

/// Vertex `id`'s coordinates, if it exists and is finite.
pub(super) fn vertex(graph: &GraphView<'_>, id: u32) -> Option<(f32, f32)> {
    let x = *graph.x.get(id as usize)?;
    let y = *graph.y.get(id as usize)?;
    (x.is_finite() && y.is_finite()).then_some((x, y))
}

/// Grows `acc` (`[min_x, min_y, max_x, max_y]`, `None` when empty) to cover the box
/// `[x0, x1] x [y0, y1]`.
pub(super) fn grow(acc: Option<[f32; 4]>, [x0, y0, x1, y1]: [f32; 4]) -> Option<[f32; 4]> {
    Some(match acc {
        None => [x0, y0, x1, y1],
        Some([a, b, c, d]) => [a.min(x0), b.min(y0), c.max(x1), d.max(y1)],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_box_is_centred_vertically_with_padding() {
        // 4 x 2 units plus 1 unit of padding is 6 x 4 over 60 px: 10 px a unit.
        let fit = Fit::into_square([0.0, 0.0, 4.0, 2.0], 1.0, 0.0, 0.0, 60.0);
        assert_eq!(fit.scale, 10.0);
        assert_eq!(fit.point(-1.0, -1.0), (0.0, 10.0));
        assert_eq!(fit.point(5.0, 3.0), (60.0, 50.0));
        let mut scene = Scene::new(60.0, 60.0, Rgba::TRANSPARENT);
        fit.push_backdrop(Rgba::rgb(0x123456), &mut scene);
        let mut same = Scene::new(60.0, 60.0, Rgba::rgb(0x123456));
        fit.push_backdrop(Rgba::rgb(0x123456), &mut same);
        assert_eq!((scene.items.len(), same.items.len()), (1, 0));
    }

    #[test]
    fn grow_covers_both_boxes() {
        let one = grow(None, [0.0, 1.0, 2.0, 3.0]);
        assert_eq!(one, Some([0.0, 1.0, 2.0, 3.0]));
        assert_eq!(
            grow(one, [-1.0, 2.0, 1.0, 5.0]),
            Some([-1.0, 1.0, 2.0, 5.0])
        );
    }
}
