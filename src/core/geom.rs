//! Geometry helpers shared by the generators: points ([`glam::Vec2`]), integer rectangles and the
//! turn test the maze metrics use along a solution path (seed 001's "turns").

pub use glam::Vec2;

/// An axis-aligned integer rectangle, half-open: `x0 <= x < x1`, `y0 <= y < y1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct IRect {
    /// Left edge (inclusive).
    pub x0: i32,
    /// Top edge (inclusive).
    pub y0: i32,
    /// Right edge (exclusive).
    pub x1: i32,
    /// Bottom edge (exclusive).
    pub y1: i32,
}

impl IRect {
    /// Width (0 when empty).
    pub fn width(&self) -> i32 {
        (self.x1 - self.x0).max(0)
    }

    /// Height (0 when empty).
    pub fn height(&self) -> i32 {
        (self.y1 - self.y0).max(0)
    }

    /// Whether the two rectangles share any cell.
    pub fn overlaps(&self, other: &IRect) -> bool {
        self.x0 < other.x1 && other.x0 < self.x1 && self.y0 < other.y1 && other.y0 < self.y1
    }
}

/// The cosine above which two consecutive steps count as going straight on: cos 45 degrees.
///
/// On a lattice every step is axis-aligned, so a turn is exactly a 90-degree change; on an
/// irregular graph a change of direction sharper than 45 degrees counts as a turn.
pub const STRAIGHT_COS: f32 = std::f32::consts::FRAC_1_SQRT_2;

/// Whether walking `a -> b -> c` turns at `b` (direction changes by more than 45 degrees).
///
/// Degenerate steps (zero length) never count as turns.
pub fn is_turn(a: Vec2, b: Vec2, c: Vec2) -> bool {
    let u = b - a;
    let v = c - b;
    let norm = u.length() * v.length();
    if norm <= f32::EPSILON {
        return false;
    }
    u.dot(v) / norm < STRAIGHT_COS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turns_on_right_angles_not_on_straight_lines() {
        let a = Vec2::new(0.0, 0.0);
        let b = Vec2::new(1.0, 0.0);
        assert!(!is_turn(a, b, Vec2::new(2.0, 0.0)));
        assert!(is_turn(a, b, Vec2::new(1.0, 1.0)));
        assert!(!is_turn(a, b, Vec2::new(2.0, 0.5)));
        assert!(!is_turn(a, a, b));
    }

    #[test]
    fn rect_overlap_is_half_open() {
        let r = IRect {
            x0: 0,
            y0: 0,
            x1: 2,
            y1: 2,
        };
        assert!(!r.overlaps(&IRect {
            x0: 2,
            y0: 0,
            x1: 3,
            y1: 2
        }));
        assert!(r.overlaps(&IRect {
            x0: 1,
            y0: 1,
            x1: 3,
            y1: 3
        }));
        assert_eq!(r.width(), 2);
    }
}
