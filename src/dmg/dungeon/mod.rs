//! The macro loop of seed 003: a starting area, then every open exit explored breadth-first
//! until none remain or the size budget is reached.
//!
//! Passages are drawn square by square by a cursor of the passage's width; a passage stops one
//! square short of anything in its way ("the passage needs to know what it will collide with as
//! it is being drawn") and ends there as a dead end. At the end of each stretch the passage table
//! says what comes next: more passage, a side door, a branch, a turn, a dead end (perhaps with a
//! secret door), a chamber or stairs. Chambers are placed by [`place_chamber`](crate::dmg::chamber::place_chamber); their
//! exits are rolled (how many, which wall, door or opening, door kind) and queued. Every object
//! keeps a wall of rock around it and is reached through a doorway dug on purpose, so an exit
//! that leads nowhere is never dug: it is recorded as a false door or a dead end, never left as a
//! hole into rock.

mod explore;
mod gates;
mod join;
mod passage;
mod place;
mod state;

pub use explore::generate;
pub use state::{
    Bbox, CHAMBER, ChamberBox, Counts, DOOR_FLAG, DungeonParams, DungeonScratch, FEET, NO_OBJECT,
    PASSAGE,
};
