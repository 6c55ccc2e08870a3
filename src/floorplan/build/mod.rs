//! The map builder: places one shape per room of a level graph so that no two rooms overlap and
//! every connection is realised, by a door where the two rooms touch or by a straight corridor
//! between parallel walls.
//!
//! # Algorithm
//! 1. **Target drawing.** The graph's stress drawing (`crate::layout::sgd`, computed once per
//!    graph, edges about one room long), turned by a seeded angle, maybe mirrored, shaken, and
//!    settled by a few iterations of the force solver (`crate::layout::relax`). It only steers:
//!    rooms are placed near their drawn positions, so that the arms of a cycle curl towards
//!    each other and close. Without it (random targets) the 41-room graph of Edgar's paper
//!    failed 70% of its seeds; the classical MDS drawing used before folds the branches of
//!    graphs of a few hundred rooms onto each other. A room's target moves with the placed
//!    rooms it is steered by (its ear's nearest placed rooms on both sides, weighted by how
//!    close along the ear it is to each; in a tree its placed neighbours), not with the
//!    whole map, so the arms of a cycle grow towards where the other arm really is.
//! 2. **Order.** The graph's cycles first, ear by ear (see `room_order`), following the paths
//!    that lead from one block of cycles to the next a room at a time, then the trees hanging
//!    off them, breadth-first, the room with most placed neighbours first.
//! 3. **Configuration spaces.** Where a shape may go so that it touches (or faces, across a
//!    corridor) a placed neighbour with room for a door is a short list of offset rectangles,
//!    one per pair of facing door sides (Edgar's configuration spaces, exact on the lattice).
//!    A room with several placed neighbours may go only where all of them allow: the
//!    intersection of their lists.
//! 4. **Search.** Candidates (the point of each offset rectangle nearest the room's target, and
//!    a random one) are sorted by their distance to the target plus seeded noise and tried in
//!    order against the placed rooms and corridors; a room with none left sends the search back
//!    to the latest placed room that ruled out one of its candidates (conflict-directed
//!    backjumping), skipping the rooms that had no part in the dead end. A candidate that fits
//!    is still refused when it leaves an unplaced room next to a placed one with no free spot
//!    (forward checking); the spot found for a room is one of its candidates when its turn
//!    comes. An attempt that spends its work budget starts over from a new drawing; after
//!    `max_attempts` the seed fails with a counted reason. Work is bounded: never a timeout.
//!
//! # Files
//! - `plan`: the [`Plan`], built once per graph (2-core, start drawing, reach table);
//! - `spaces`: the configuration spaces ([`Catalogue`]);
//! - `forward`: where an unplaced room may go, and forward checking;
//! - `frame`: fixed rooms and the frame (a mask, the grid's size);
//! - `order`: each attempt's target drawing and room order;
//! - `search`: the bounded depth-first search ([`build`]);
//! - `cut`: graphs of [`PIECES_FROM`] rooms or more cut at bridges into pieces;
//! - `pieces`: those pieces searched one after another, each with the rest of the level
//!   (`world`) as obstacles, and [`build`];
//! - `scratch`: the per-worker memory ([`BuildScratch`]);
//! - `layout`: the result ([`Layout`], [`Link`]).

mod cut;
mod forward;
mod frame;
mod layout;
mod order;
mod pieces;
mod plan;
mod scratch;
mod search;
mod spaces;
mod world;

pub use cut::PIECES_FROM;
pub use layout::{Layout, Link};
pub use pieces::build;
pub use plan::{EXHAUSTIVE_WORK, Frame, PRUNE_UP_TO, Plan};
pub use scratch::BuildScratch;
pub use search::{Failure, NO_LAYOUT, NO_LAYOUT_EXISTS, can_join};
pub use spaces::{Catalogue, Gaps};

#[cfg(test)]
mod tests;
