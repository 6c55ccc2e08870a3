//! Configuration spaces (Edgar's, exact on the lattice): where one shape may go so that a door
//! side of it faces a door side of another at an allowed gap, as offset rectangles, computed
//! once per pair of shapes and gap setting ([`Catalogue`]). A child of `floorplan::build`.

use crate::floorplan::shape::{DoorSide, Flow, Shape, side};

/// How the connections of a plan are realised, per connection: allowed gaps between the two
/// rooms' facing walls, in lattice units (0: the rooms touch and share a door; `L + 1`: a
/// corridor of `L` floor tiles), and the way the connection runs from its first room.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gaps {
    /// Inclusive gap ranges.
    pub ranges: Vec<(i32, i32)>,
    /// The way the connection runs, seen from the first shape of a pair (the placed one in a
    /// configuration space, room `a` in a plan's `gap_set`).
    pub flow: Flow,
    /// Corridor shapes (indices into the catalogue's shapes; empty: none): the two rooms are
    /// joined through a corridor room of one of these shapes, touching both, and the
    /// configuration spaces are where the second room may go for some place of the corridor
    /// (Edgar's corridor configuration spaces; overlaps are not looked at, so it is a
    /// necessary condition the search steers by, never a placement).
    pub via: Vec<u32>,
}

impl Gaps {
    /// These ranges, either way.
    pub fn new(ranges: Vec<(i32, i32)>) -> Gaps {
        Gaps {
            ranges,
            flow: Flow::Any,
            via: Vec::new(),
        }
    }

    /// The same gaps seen from the other room.
    pub fn flipped(&self) -> Gaps {
        Gaps {
            ranges: self.ranges.clone(),
            flow: self.flow.flipped(),
            via: self.via.clone(),
        }
    }
}

/// The shapes a builder may use and their configuration spaces at the origin, for a list of
/// gap settings: built once per library and profile, shared by every plan made from it (the
/// `map` kind makes one plan per run, the grammar kind one per level).
#[derive(Debug)]
pub struct Catalogue {
    /// Every shape of the library.
    pub shapes: Vec<Shape>,
    /// The distinct gap settings.
    pub gap_sets: Vec<Gaps>,
    /// Configuration spaces at the origin: for gap setting `g` and shapes `a` (placed at the
    /// origin) and `b`, `zones[start[k]..start[k + 1]]` with `k = (g * S + a) * S + b`.
    pub(super) zones: Vec<Zone>,
    pub(super) zone_start: Vec<u32>,
}

impl Catalogue {
    /// The configuration spaces of every pair of `shapes` under every gap setting.
    pub fn new(shapes: Vec<Shape>, gap_sets: Vec<Gaps>) -> Catalogue {
        let (mut zones, mut zone_start) = (Vec::new(), vec![0u32]);
        for g in &gap_sets {
            for a in &shapes {
                for b in &shapes {
                    if !g.via.is_empty() {
                        let start = zones.len();
                        through_corridors((a, b), &shapes, g, &mut zones);
                        prune(&mut zones, start);
                        zone_start.push(zones.len() as u32);
                        continue;
                    }
                    for du in &a.doors {
                        for dv in &b.doors {
                            if dv.side == side::opposite(du.side)
                                && dv.len == du.len
                                && du.meets(dv, g.flow)
                            {
                                for &range in &g.ranges {
                                    zones.push(facing_zone(du, 0, 0, dv, range));
                                }
                            }
                        }
                    }
                    zone_start.push(zones.len() as u32);
                }
            }
        }
        Catalogue {
            shapes,
            gap_sets,
            zones,
            zone_start,
        }
    }
}

/// An offset rectangle of a configuration space: positions `x0..=x1`, `y0..=y1`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Zone {
    pub(super) x0: i32,
    pub(super) y0: i32,
    pub(super) x1: i32,
    pub(super) y1: i32,
}

impl Zone {
    pub(super) fn meet(&self, o: &Zone) -> Option<Zone> {
        let z = Zone {
            x0: self.x0.max(o.x0),
            y0: self.y0.max(o.y0),
            x1: self.x1.min(o.x1),
            y1: self.y1.min(o.y1),
        };
        (z.x0 <= z.x1 && z.y0 <= z.y1).then_some(z)
    }
}

/// Offsets of a shape whose door side `dv` faces door side `du` of a shape at `(ux, uy)`,
/// `g0..=g1` apart, with a door's worth of overlap.
pub(super) fn facing_zone(
    du: &DoorSide,
    ux: i32,
    uy: i32,
    dv: &DoorSide,
    (g0, g1): (i32, i32),
) -> Zone {
    let (nx, ny) = side::normal(du.side);
    let sign = nx + ny;
    if side::vertical(du.side) {
        let base = ux + du.fixed - dv.fixed;
        let (a, b) = (base + sign * g0, base + sign * g1);
        Zone {
            x0: a.min(b),
            x1: a.max(b),
            y0: uy + du.lo - dv.hi,
            y1: uy + du.hi - dv.lo,
        }
    } else {
        let base = uy + du.fixed - dv.fixed;
        let (a, b) = (base + sign * g0, base + sign * g1);
        Zone {
            y0: a.min(b),
            y1: a.max(b),
            x0: ux + du.lo - dv.hi,
            x1: ux + du.hi - dv.lo,
        }
    }
}

/// The offsets of shape `b` at which it can be joined to shape `a` (at the origin) through a
/// corridor room of one of `g.via`'s shapes that touches both: per door side `du` of `a`, door
/// sides `e1` and `e2` of a corridor shape and door side `dv` of `b`, where `e1` can face `du`
/// and `dv` can face `e2`, the sum of the corridor's offsets (beside `du`) and `b`'s offsets
/// (beside `e2` of a corridor at the origin): a rectangle, since the two door places are
/// independent. Appended to `zones`.
fn through_corridors((a, b): (&Shape, &Shape), shapes: &[Shape], g: &Gaps, zones: &mut Vec<Zone>) {
    for du in &a.doors {
        for c in g.via.iter().map(|&c| &shapes[c as usize]) {
            for e1 in &c.doors {
                if e1.side != side::opposite(du.side) || e1.len != du.len || !du.meets(e1, g.flow) {
                    continue;
                }
                let zc = facing_zone(du, 0, 0, e1, (0, 0));
                for e2 in &c.doors {
                    for dv in &b.doors {
                        if dv.side != side::opposite(e2.side)
                            || dv.len != e2.len
                            || !e2.meets(dv, g.flow)
                        {
                            continue;
                        }
                        let zb = facing_zone(e2, 0, 0, dv, (0, 0));
                        zones.push(Zone {
                            x0: zc.x0 + zb.x0,
                            y0: zc.y0 + zb.y0,
                            x1: zc.x1 + zb.x1,
                            y1: zc.y1 + zb.y1,
                        });
                    }
                }
            }
        }
    }
}

/// Drops from `zones[start..]` every rectangle another one there contains (the first of equal
/// ones kept), keeping the rest in order.
fn prune(zones: &mut Vec<Zone>, start: usize) {
    let list = zones.split_off(start);
    let inside = |z: &Zone, o: &Zone| z.x0 >= o.x0 && z.x1 <= o.x1 && z.y0 >= o.y0 && z.y1 <= o.y1;
    for (i, z) in list.iter().enumerate() {
        let covered = list
            .iter()
            .enumerate()
            .any(|(k, o)| k != i && inside(z, o) && (!inside(o, z) || k < i));
        if !covered {
            zones.push(*z);
        }
    }
}

#[cfg(test)]
#[path = "spaces_tests.rs"]
mod tests;
