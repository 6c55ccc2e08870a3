//! The four cell states of seed 004 ("Cells"): Empty, Occupied, Filled and Uninitialized, and
//! their codes in the shared legend of DESIGN.md (Occupied -> 0 solid, Empty -> 1 floor, Filled
//! -> 7 filled, outside the region -> 8 void). Uninitialized must never reach the output: the
//! encoder asserts it.

use crate::core::grid::cell;

/// One cell of a region.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Cell {
    /// Carved (passable) inside the region, or padding outside it.
    Empty = 0,
    /// Solid at this zoom; subdivides into subcells when zoomed.
    Occupied = 1,
    /// Entirely and recursively solid: never carved, never subdivided.
    Filled = 2,
    /// Not yet assigned: a buffer fresh from the cache. Never in output.
    #[default]
    Uninitialized = 3,
}

impl Cell {
    /// The legend code of a cell; `inside` tells a carved Empty cell (floor) from padding
    /// outside the region (void).
    ///
    /// # Panics
    /// On [`Cell::Uninitialized`]: such a cell must never be written out.
    #[inline]
    pub fn code(self, inside: bool) -> u8 {
        match self {
            Cell::Occupied => cell::WALL,
            Cell::Filled => cell::FILLED,
            Cell::Empty if inside => cell::FLOOR,
            Cell::Empty => cell::VOID,
            Cell::Uninitialized => uninitialized_in_output(),
        }
    }
}

#[cold]
#[inline(never)]
fn uninitialized_in_output() -> ! {
    panic!("an Uninitialized cell reached the output (a region generator bug)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_follow_the_shared_legend() {
        assert_eq!(Cell::Occupied.code(true), 0);
        assert_eq!(Cell::Empty.code(true), 1);
        assert_eq!(Cell::Filled.code(true), 7);
        assert_eq!(Cell::Empty.code(false), 8);
    }

    #[test]
    #[should_panic(expected = "Uninitialized cell reached the output")]
    fn uninitialized_never_encodes() {
        let _ = Cell::Uninitialized.code(true);
    }
}
