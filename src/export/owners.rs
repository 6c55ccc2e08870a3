//! The owner grid of `map` levels in the editors' exports: which room or corridor each floor
//! tile belongs to (the archive's `owner` column, `list<u16>` per tile, row-major: 0 for walls,
//! doors and void, `1 + i` for room `i`'s floor, `1 + rooms + j` for connection `j`'s corridor),
//! with a name and a colour per value. The Tiled map draws it as a tile layer over a tileset of
//! one swatch per value, the LDtk project as an IntGrid layer declaring every value.
//!
//! Names come from the level graph the archive was generated from (its stored profile and
//! files, as `warren verify` rebuilds the generator): a room is named by its id, a corridor by
//! the ids it joins. Without that graph, rooms and corridors are named by number.

use crate::core::generator::Level;
use crate::floorplan::input::{load_graph, load_library, load_mask};
use crate::floorplan::spec::{LevelGraph, Mask};
use crate::profile::Profile;
use crate::render::Rgba;

/// The extra column holding the owner grid.
pub const OWNER_COLUMN: &str = "owner";

/// One level's owner grid and what its values name.
#[derive(Clone, Debug, PartialEq)]
pub struct Owners<'a> {
    /// Per tile, row-major: 0 for walls, doors and void, else an owner value.
    pub grid: &'a [u16],
    /// The rooms: values `1..=rooms` are room floors, the values above corridors.
    pub rooms: u32,
    /// Names of the values `1..=names.len()`, by value - 1; every value of the grid is named
    /// (the graph's rooms and connections, or more when the grid holds larger values).
    pub names: Vec<String>,
}

impl<'a> Owners<'a> {
    /// The owners of `level` from its owner column `grid`, named from `graph` when it is the
    /// graph of the level (as many rooms and connections), else by number.
    ///
    /// # Runtime
    /// O(tiles + rooms + connections); allocates the names.
    pub fn new(level: &Level<'_>, grid: &'a [u16], graph: Option<&LevelGraph>) -> Self {
        let (rooms, connections) = level
            .graph
            .map_or((0, 0), |g| (g.x.len() as u32, g.src.len() as u32));
        let graph = graph
            .filter(|g| g.rooms.len() as u32 == rooms && g.connections.len() as u32 == connections);
        let largest = grid.iter().copied().max().map_or(0, u32::from);
        let count = (rooms + connections).max(largest);
        let names = (1..=count)
            .map(|value| name_of(value, rooms, graph))
            .collect();
        Self { grid, rooms, names }
    }

    /// The number of owner values (`1..=count`).
    pub fn count(&self) -> u32 {
        self.names.len() as u32
    }

    /// Whether `value` (1 or more) is a room's floor rather than a corridor's.
    pub fn is_room(&self, value: u32) -> bool {
        value <= self.rooms
    }
}

/// The name of owner `value` (1 or more).
fn name_of(value: u32, rooms: u32, graph: Option<&LevelGraph>) -> String {
    let i = (value - 1) as usize;
    if value <= rooms {
        return graph.map_or_else(|| format!("room {i}"), |g| g.rooms[i].id.clone());
    }
    let j = (value - 1 - rooms) as usize;
    match graph.and_then(|g| g.connections.get(j).map(|c| (g, c))) {
        Some((g, c)) => format!(
            "{} - {}",
            g.rooms[c.a as usize].id, g.rooms[c.b as usize].id
        ),
        None => format!("corridor {j}"),
    }
}

/// The level graph the `map` level of `seed` was laid out from (the graph of `map.graph` its
/// seed picks), rebuilt from the run's stored profile and files; `None` for other kinds or when
/// it cannot be rebuilt (names then fall back to numbers).
///
/// # Runtime
/// Parses the profile, the template library and the graph (well under a millisecond for the
/// built-in ones).
pub fn stored_graph(run: &crate::archive::RunMeta, seed: u64) -> Option<LevelGraph> {
    if run.generator != "map" {
        return None;
    }
    let Ok(Profile::Map { map }) = Profile::from_toml(&run.profile, "warren.profile") else {
        return None;
    };
    crate::core::files::with_embedded(run.files.clone(), || {
        let library = load_library(&map.templates).ok()?;
        let picked = &map.graph.entries()[map.graph.pick(seed)];
        load_graph(&picked.graph, &library).ok()
    })
}

/// The mask (`map.mask`) the `map` run's levels were fitted to, read from the run's stored
/// profile and files; `None` for other kinds, a run without a mask, or one whose mask cannot be
/// read back.
///
/// # Runtime
/// Parses the profile and the mask file: O(mask tiles).
pub fn stored_mask(run: &crate::archive::RunMeta) -> Option<Mask> {
    if run.generator != "map" {
        return None;
    }
    let Ok(Profile::Map { map }) = Profile::from_toml(&run.profile, "warren.profile") else {
        return None;
    };
    if map.mask.is_empty() {
        return None;
    }
    crate::core::files::with_embedded(run.files.clone(), || load_mask(&map.mask).ok())
}

/// The colour of owner `value` (1 or more) of a level with `rooms` rooms: rooms in saturated
/// light hues a golden angle apart (neighbouring values never look alike), corridors in paler
/// greyer ones.
pub fn owner_colour(value: u32, rooms: u32) -> Rgba {
    let hue = (f64::from(value.saturating_sub(1)) * 0.618_033_988_75).fract();
    let (saturation, brightness) = if value <= rooms {
        (0.55, 0.95)
    } else {
        (0.2, 0.78)
    };
    hsv(hue, saturation, brightness)
}

/// An opaque colour from hue (turns, 0..1), saturation and value (0..1).
fn hsv(hue: f64, saturation: f64, value: f64) -> Rgba {
    let h = hue * 6.0;
    let sector = h.floor();
    let f = h - sector;
    let (p, q, t) = (
        value * (1.0 - saturation),
        value * (1.0 - saturation * f),
        value * (1.0 - saturation * (1.0 - f)),
    );
    let (r, g, b) = match sector as u32 % 6 {
        0 => (value, t, p),
        1 => (q, value, p),
        2 => (p, value, t),
        3 => (p, q, value),
        4 => (t, p, value),
        _ => (value, p, q),
    };
    let byte = |c: f64| (c * 255.0).round().clamp(0.0, 255.0) as u8;
    Rgba([byte(r), byte(g), byte(b), 0xff])
}

/// `#rrggbb` of a colour.
pub fn hex(colour: Rgba) -> String {
    let [r, g, b, _] = colour.0;
    format!("#{r:02X}{g:02X}{b:02X}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_are_opaque_and_rooms_differ_from_their_neighbours() {
        assert_eq!(hsv(0.0, 1.0, 1.0), Rgba([255, 0, 0, 255]));
        assert_eq!(hsv(1.0 / 3.0, 1.0, 1.0), Rgba([0, 255, 0, 255]));
        for v in 1..40 {
            assert_eq!(owner_colour(v, 20).0[3], 0xff);
            assert_ne!(owner_colour(v, 40), owner_colour(v + 1, 40));
        }
        assert_eq!(hex(Rgba([1, 0xab, 255, 9])), "#01ABFF");
    }

    #[test]
    fn values_past_the_graph_are_named_by_number() {
        let grid = [0, 1, 2, 5];
        let o = Owners::new(&Level::default(), &grid, None);
        assert_eq!(o.count(), 5);
        assert_eq!(o.rooms, 0);
        assert_eq!(o.names[4], "corridor 4");
    }
}
