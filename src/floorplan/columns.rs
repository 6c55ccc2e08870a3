//! How a floor plan is stored in a level record beside its grid and graph: the extra columns
//! (each room's template and transform, the owner grid) and the edge flag of a connection
//! realised through a corridor. The `map` kind stores every level so; the grammar kind the
//! levels the builder draws.

use crate::core::generator::{ExtraKind, ExtraSpec};

/// Extra columns: the template and transform of each room, and the owner grid.
pub const MAP_COLUMNS: [ExtraSpec; 3] = [
    ExtraSpec::new(
        "room_template",
        ExtraKind::ListU16,
        "per room, the index of its template in the library (warren.profile names it)",
    ),
    ExtraSpec::new(
        "room_transform",
        ExtraKind::ListU8,
        "per room, its transform: bits 0-1 quarter turns clockwise, bit 2 mirrored first",
    ),
    ExtraSpec::new(
        "owner",
        ExtraKind::ListU16,
        "per tile (row-major, grid_width x grid_height): 0 wall, door or void; 1 + i the floor \
         of room i; 1 + rooms + j the floor of connection j's corridor",
    ),
];

/// Edge flag: the connection is realised through a corridor.
pub const CORRIDOR_FLAG: u8 = 1 << 4;
