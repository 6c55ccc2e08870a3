//! Geometry helpers shared by the generators: points ([`glam::Vec2`]), integer rectangles
//! ([`Rect`], the one rectangle type of every kind) and the
//! turn test the maze metrics use along a solution path (seed 001's "turns").

pub use glam::Vec2;

/// The integer coordinate types a [`Rect`] is made of: `i32` (DMG map cells, grammar room
/// rectangles), `u32` (region cells), `i64` (tile-map layout before it is clipped to a grid).
pub trait Coord:
    Copy
    + Ord
    + std::ops::Sub<Output = Self>
    + std::ops::Add<Output = Self>
    + std::ops::Mul<Output = Self>
{
    /// Zero.
    const ZERO: Self;
    /// One.
    const ONE: Self;
    /// The smallest value.
    const MIN: Self;
    /// The largest value.
    const MAX: Self;
}

macro_rules! coord {
    ($($t:ty),*) => {$(
        impl Coord for $t {
            const ZERO: Self = 0;
            const ONE: Self = 1;
            const MIN: Self = <$t>::MIN;
            const MAX: Self = <$t>::MAX;
        }
    )*};
}
coord!(i32, u32, i64);

/// An axis-aligned integer rectangle of cells, half-open: `x0 <= x < x1`, `y0 <= y < y1`. The
/// one rectangle type of every kind: DMG object boxes, region boxes, tile-map rooms, and the
/// floorplan's closed lattice rectangles (the same region of the plane; see
/// `floorplan::shape::Rect`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Rect<T = i32> {
    /// Left edge (inclusive).
    pub x0: T,
    /// Top edge (inclusive).
    pub y0: T,
    /// Right edge (exclusive).
    pub x1: T,
    /// Bottom edge (exclusive).
    pub y1: T,
}

impl<T: Coord> Rect<T> {
    /// The rectangle `[x0, x1) x [y0, y1)`.
    pub const fn new(x0: T, y0: T, x1: T, y1: T) -> Self {
        Self { x0, y0, x1, y1 }
    }

    /// A rectangle covering nothing, which [`Rect::cover`] grows.
    pub const EMPTY: Self = Self {
        x0: T::MAX,
        y0: T::MAX,
        x1: T::MIN,
        y1: T::MIN,
    };

    /// Whether it covers no cell.
    pub fn is_empty(&self) -> bool {
        self.x0 >= self.x1 || self.y0 >= self.y1
    }

    /// Columns spanned (0 when empty).
    pub fn width(&self) -> T {
        if self.x1 > self.x0 {
            self.x1 - self.x0
        } else {
            T::ZERO
        }
    }

    /// Rows spanned (0 when empty).
    pub fn height(&self) -> T {
        if self.y1 > self.y0 {
            self.y1 - self.y0
        } else {
            T::ZERO
        }
    }

    /// Cells covered.
    pub fn area(&self) -> T {
        self.width() * self.height()
    }

    /// Grows the rectangle to cover cell `(x, y)`.
    pub fn cover(&mut self, x: T, y: T) {
        self.x0 = self.x0.min(x);
        self.y0 = self.y0.min(y);
        self.x1 = self.x1.max(x + T::ONE);
        self.y1 = self.y1.max(y + T::ONE);
    }

    /// Whether cell `(x, y)` is inside.
    pub fn contains(&self, x: T, y: T) -> bool {
        self.x0 <= x && x < self.x1 && self.y0 <= y && y < self.y1
    }

    /// Whether the two rectangles share any cell.
    pub fn overlaps(&self, other: &Self) -> bool {
        self.x0 < other.x1 && other.x0 < self.x1 && self.y0 < other.y1 && other.y0 < self.y1
    }

    /// Whether `self` moved by `(ax, ay)` and `other` moved by `(bx, by)` come closer than `gap`
    /// (Chebyshev distance between the rectangles below `gap`); with no offsets and `gap = 0`,
    /// [`Rect::overlaps`]. The floorplan builder tests room and corridor shapes with it.
    #[inline]
    pub fn near(&self, ax: T, ay: T, other: &Self, bx: T, by: T, gap: T) -> bool {
        self.x0 + ax < other.x1 + bx + gap
            && other.x0 + bx < self.x1 + ax + gap
            && self.y0 + ay < other.y1 + by + gap
            && other.y0 + by < self.y1 + ay + gap
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

/// Squared distance from point `p` to segment `a b`.
#[inline]
pub fn point_segment2(p: [f32; 2], a: [f32; 2], b: [f32; 2]) -> f32 {
    let (abx, aby) = (b[0] - a[0], b[1] - a[1]);
    let (apx, apy) = (p[0] - a[0], p[1] - a[1]);
    let len2 = abx * abx + aby * aby;
    let t = if len2 > 0.0 {
        ((apx * abx + apy * aby) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let (cx, cy) = (apx - t * abx, apy - t * aby);
    cx * cx + cy * cy
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
        let r = Rect {
            x0: 0,
            y0: 0,
            x1: 2,
            y1: 2,
        };
        assert!(!r.overlaps(&Rect {
            x0: 2,
            y0: 0,
            x1: 3,
            y1: 2
        }));
        assert!(r.overlaps(&Rect {
            x0: 1,
            y0: 1,
            x1: 3,
            y1: 3
        }));
        assert_eq!(r.width(), 2);
    }

    #[test]
    fn cover_grows_from_empty_and_counts_cells() {
        let mut r = Rect::<u32>::EMPTY;
        assert!(r.is_empty());
        assert_eq!((r.width(), r.height(), r.area()), (0, 0, 0));
        r.cover(3, 4);
        r.cover(5, 4);
        assert_eq!(r, Rect::new(3, 4, 6, 5));
        assert_eq!(r.area(), 3);
        assert!(r.contains(5, 4) && !r.contains(6, 4));
    }
}
