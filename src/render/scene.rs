//! The retained scene every renderer reads: a canvas size, a background colour and an ordered
//! list of rects, lines and circles in pixel coordinates (y down), painted first to last.

/// A colour as straight (not premultiplied) `[red, green, blue, alpha]` bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Rgba(pub [u8; 4]);

impl Rgba {
    /// Fully transparent black; items of this colour are never painted.
    pub const TRANSPARENT: Rgba = Rgba([0, 0, 0, 0]);

    /// An opaque colour from `0xRRGGBB`.
    pub const fn rgb(hex: u32) -> Rgba {
        Rgba([(hex >> 16) as u8, (hex >> 8) as u8, hex as u8, 0xff])
    }

    /// The same colour with alpha `a`.
    pub const fn with_alpha(self, a: u8) -> Rgba {
        let [r, g, b, _] = self.0;
        Rgba([r, g, b, a])
    }

    /// The alpha byte.
    pub const fn alpha(self) -> u8 {
        self.0[3]
    }

    /// Whether painting this colour changes nothing (alpha 0).
    pub const fn is_invisible(self) -> bool {
        self.0[3] == 0
    }
}

/// One drawable shape, in scene pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Item {
    /// An axis-aligned filled rectangle with top-left corner `(x, y)`.
    Rect {
        /// Left edge.
        x: f32,
        /// Top edge.
        y: f32,
        /// Width (items with `w <= 0` are skipped by renderers).
        w: f32,
        /// Height (items with `h <= 0` are skipped by renderers).
        h: f32,
        /// Fill colour.
        fill: Rgba,
    },
    /// A straight stroked segment with round caps.
    Line {
        /// Start x.
        x0: f32,
        /// Start y.
        y0: f32,
        /// End x.
        x1: f32,
        /// End y.
        y1: f32,
        /// Stroke width.
        width: f32,
        /// Stroke colour.
        stroke: Rgba,
    },
    /// A filled circle.
    Circle {
        /// Centre x.
        cx: f32,
        /// Centre y.
        cy: f32,
        /// Radius (items with `r <= 0` are skipped by renderers).
        r: f32,
        /// Fill colour.
        fill: Rgba,
    },
}

/// A canvas of `width x height` pixels: the background, then `items` painted in order.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    /// Canvas width in pixels (PNG output rounds it up).
    pub width: f32,
    /// Canvas height in pixels (PNG output rounds it up).
    pub height: f32,
    /// Colour under every item; [`Rgba::TRANSPARENT`] leaves the canvas clear.
    pub background: Rgba,
    /// Shapes, painted first to last.
    pub items: Vec<Item>,
}

impl Scene {
    /// An empty scene.
    pub fn new(width: f32, height: f32, background: Rgba) -> Scene {
        Scene {
            width,
            height,
            background,
            items: Vec::new(),
        }
    }

    /// Appends a rect unless it is empty, invisible or not finite.
    pub fn push_rect(&mut self, x: f32, y: f32, w: f32, h: f32, fill: Rgba) {
        if w > 0.0 && h > 0.0 && all_finite(&[x, y, w, h]) && !fill.is_invisible() {
            self.items.push(Item::Rect { x, y, w, h, fill });
        }
    }

    /// Appends a line unless it has no width, is invisible or not finite.
    pub fn push_line(&mut self, x0: f32, y0: f32, x1: f32, y1: f32, width: f32, stroke: Rgba) {
        if width > 0.0 && all_finite(&[x0, y0, x1, y1, width]) && !stroke.is_invisible() {
            self.items.push(Item::Line {
                x0,
                y0,
                x1,
                y1,
                width,
                stroke,
            });
        }
    }

    /// Appends a circle unless it has no radius, is invisible or not finite.
    pub fn push_circle(&mut self, cx: f32, cy: f32, r: f32, fill: Rgba) {
        if r > 0.0 && all_finite(&[cx, cy, r]) && !fill.is_invisible() {
            self.items.push(Item::Circle { cx, cy, r, fill });
        }
    }
}

fn all_finite(values: &[f32]) -> bool {
    values.iter().all(|v| v.is_finite())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rgb_unpacks_hex_opaque() {
        assert_eq!(Rgba::rgb(0x2b2b33), Rgba([0x2b, 0x2b, 0x33, 0xff]));
        assert_eq!(Rgba::rgb(0x102030).with_alpha(7).alpha(), 7);
        assert!(Rgba::TRANSPARENT.is_invisible());
    }

    #[test]
    fn push_skips_degenerate_and_invisible_items() {
        let mut s = Scene::new(10.0, 10.0, Rgba::TRANSPARENT);
        let red = Rgba::rgb(0xff0000);
        s.push_rect(0.0, 0.0, 0.0, 1.0, red);
        s.push_rect(0.0, 0.0, 1.0, 1.0, Rgba::TRANSPARENT);
        s.push_line(f32::NAN, 0.0, 1.0, 1.0, 1.0, red);
        s.push_circle(1.0, 1.0, -1.0, red);
        assert!(s.items.is_empty());
        s.push_rect(0.0, 0.0, 1.0, 1.0, red);
        s.push_line(0.0, 0.0, 1.0, 1.0, 1.0, red);
        s.push_circle(1.0, 1.0, 1.0, red);
        assert_eq!(s.items.len(), 3);
    }
}
