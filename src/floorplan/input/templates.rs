//! The readers of a template library's values: door rules, transforms, repeat modes and
//! templates (checked with [`template_problem`]).

use std::collections::HashSet;

use super::read::{Ctx, MAX_TILES, MapInputError};
use crate::floorplan::json::{Json, Member, Node};
use crate::floorplan::shape::template_problem;
use crate::floorplan::spec::{DoorRule, Doors, Repeat, Template, Transforms, door_kind};

/// The most corners a template outline may have (its checks are quadratic in them).
pub const MAX_CORNERS: usize = 1024;

/// The most door sockets a library may name.
pub const MAX_SOCKETS: usize = 65_535;

/// A library's defaults for the templates that do not say.
pub(super) struct Defaults {
    pub(super) doors: Vec<DoorRule>,
    pub(super) transforms: Transforms,
    pub(super) repeat: Repeat,
}

impl Ctx<'_> {
    /// A `doors` value: one door rule (an object) or a list of them; socket names are looked
    /// up in (or added to) `sockets`.
    pub(super) fn doors(
        &self,
        node: &Node,
        sockets: &mut Vec<String>,
    ) -> Result<Vec<DoorRule>, MapInputError> {
        let Json::Arr(items) = &node.value else {
            return Ok(vec![self.door_rule(node, sockets)?]);
        };
        if items.is_empty() {
            return Err(self.at(node.start, "`doors` lists no door rules"));
        }
        items.iter().map(|n| self.door_rule(n, sockets)).collect()
    }

    /// One door rule: simple doors, listed doors or door lines, with its walls, socket and
    /// type.
    fn door_rule(&self, node: &Node, sockets: &mut Vec<String>) -> Result<DoorRule, MapInputError> {
        let [
            length,
            corner_distance,
            positions,
            lines,
            sides,
            socket,
            kind,
        ] = self.fields(
            node,
            [
                "length",
                "corner_distance",
                "positions",
                "lines",
                "sides",
                "socket",
                "type",
            ],
            "a door rule",
        )?;
        let length_m = length;
        let length = match length {
            Some(m) => Some(self.int(&m.value, 1..=MAX_TILES, "a door's length")? as u32),
            None => None,
        };
        let place = match (positions, lines) {
            (Some(p), Some(l)) => {
                let later = if p.at > l.at { p } else { l };
                return Err(self.at(later.at, "a door rule has `positions` or `lines`, not both"));
            }
            (Some(p), None) => {
                self.alone(
                    "`positions` (a list of doors)",
                    [length_m, corner_distance, sides],
                )?;
                Doors::Listed(self.door_list(&p.value, "`positions` lists no doors")?)
            }
            (None, Some(l)) => {
                self.alone("`lines` (door lines)", [corner_distance, sides, None])?;
                Doors::Lines {
                    length: length.unwrap_or(1),
                    lines: self.door_list(&l.value, "`lines` lists no door lines")?,
                }
            }
            (None, None) => Doors::Simple {
                length: length.unwrap_or(1),
                corner_distance: match corner_distance {
                    Some(m) => {
                        self.int(&m.value, 0..=MAX_TILES, "a door's corner distance")? as u32
                    }
                    None => 1,
                },
            },
        };
        let mut rule = DoorRule::new(place);
        if let Some(m) = sides {
            rule.sides = self.sides(&m.value)?;
        }
        if let Some(m) = socket {
            rule.socket = self.socket(&m.value, sockets)?;
        }
        if let Some(m) = kind {
            rule.kind = match self.str(&m.value)? {
                "entrance" => door_kind::ENTRANCE,
                "exit" => door_kind::EXIT,
                "both" => door_kind::BOTH,
                other => {
                    let message = format!(
                        "unknown door type `{other}` (expected `entrance`, `exit` or `both`)"
                    );
                    return Err(self.at(m.value.start, message));
                }
            };
        }
        Ok(rule)
    }

    /// An error at the first of `others` that is given: it cannot be used with `what`.
    fn alone(&self, what: &str, others: [Option<&Member>; 3]) -> Result<(), MapInputError> {
        match others.into_iter().flatten().min_by_key(|m| m.at) {
            Some(m) => Err(self.at(m.at, format!("`{}` cannot be used with {what}", m.key))),
            None => Ok(()),
        }
    }

    /// A list of doors or door lines, each `[[x, y], [x, y]]` (its first and last tile), repeats
    /// dropped; `empty` is the error for an empty list.
    fn door_list(&self, node: &Node, empty: &str) -> Result<Vec<[(i32, i32); 2]>, MapInputError> {
        let list = self.arr(node)?;
        if list.is_empty() {
            return Err(self.at(node.start, empty));
        }
        let mut doors = Vec::with_capacity(list.len());
        let mut seen = HashSet::new();
        for door in list {
            let [first, last] =
                self.tuple(door, "a door `[[x, y], [x, y]]` (its first and last tile)")?;
            let (a, b) = (self.point(first)?, self.point(last)?);
            // NOTE: a door listed again (either end first) is kept once: every copy adds the same
            // configuration spaces, and the builder intersects those of a room's placed
            // neighbours pairwise, so the copies multiply (160 copies of 4 doors: 4 s a level).
            if seen.insert((a.min(b), a.max(b))) {
                doors.push([a, b]);
            }
        }
        Ok(doors)
    }

    /// A `sides` list of `top`, `right`, `bottom` and `left` (as the template is drawn), as
    /// `DoorRule::sides` bits.
    fn sides(&self, node: &Node) -> Result<u8, MapInputError> {
        let list = self.arr(node)?;
        if list.is_empty() {
            return Err(self.at(node.start, "`sides` lists no walls"));
        }
        let mut bits = 0u8;
        for item in list {
            // Bits as `shape::side`: east, south, west, north.
            bits |= 1
                << match self.str(item)? {
                    "right" => 0,
                    "bottom" => 1,
                    "left" => 2,
                    "top" => 3,
                    other => {
                        let message = format!(
                            "unknown side `{other}` (expected `top`, `right`, `bottom` or `left`)"
                        );
                        return Err(self.at(item.start, message));
                    }
                };
        }
        Ok(bits)
    }

    /// A socket name's number (1 + its index in `sockets`, added if new).
    fn socket(&self, node: &Node, sockets: &mut Vec<String>) -> Result<u16, MapInputError> {
        let name = self.str(node)?;
        if name.is_empty() {
            return Err(self.at(node.start, "a socket's name cannot be empty"));
        }
        let k = match sockets.iter().position(|s| s == name) {
            Some(k) => k,
            None if sockets.len() < MAX_SOCKETS => {
                sockets.push(name.to_owned());
                sockets.len() - 1
            }
            None => {
                let message = format!("a library names at most {MAX_SOCKETS} sockets");
                return Err(self.at(node.start, message));
            }
        };
        Ok(k as u16 + 1)
    }

    /// A `transforms` list.
    pub(super) fn transforms(&self, node: &Node) -> Result<Transforms, MapInputError> {
        let mut out = Transforms {
            rotate: false,
            mirror: false,
        };
        for item in self.arr(node)? {
            match self.str(item)? {
                "rotate" => out.rotate = true,
                "mirror" => out.mirror = true,
                other => {
                    let message =
                        format!("unknown transform `{other}` (expected `rotate` or `mirror`)");
                    return Err(self.at(item.start, message));
                }
            }
        }
        Ok(out)
    }

    /// A repeat mode: `"allow"`, `"no_immediate"` or `"no_repeat"`.
    pub(super) fn repeat(&self, node: &Node) -> Result<Repeat, MapInputError> {
        let modes = [Repeat::Allow, Repeat::NoImmediate, Repeat::NoRepeat];
        let name = self.str(node)?;
        modes.into_iter().find(|r| r.name() == name).ok_or_else(|| {
            let message = format!(
                "unknown repeat mode `{name}` (expected `allow`, `no_immediate` or `no_repeat`)"
            );
            self.at(node.start, message)
        })
    }

    /// One template and the offset of its name, checked with [`template_problem`].
    pub(super) fn template(
        &self,
        node: &Node,
        defaults: &Defaults,
        sockets: &mut Vec<String>,
    ) -> Result<(Template, usize), MapInputError> {
        let [name, size, outline, doors, transforms, repeat, holes] = self.fields(
            node,
            [
                "name",
                "size",
                "outline",
                "doors",
                "transforms",
                "repeat",
                "holes",
            ],
            "a template",
        )?;
        let name_m = name.ok_or_else(|| self.at(node.start, "a template needs a `name`"))?;
        let name = self.str(&name_m.value)?;
        if name.is_empty() {
            return Err(self.at(name_m.value.start, "a template's name cannot be empty"));
        }
        let outline = match (size, outline) {
            (Some(a), Some(b)) => {
                let later = if a.at > b.at { a } else { b };
                let message = format!("template `{name}` has both `size` and `outline`; give one");
                return Err(self.at(later.at, message));
            }
            (None, None) => {
                let message = format!("template `{name}` needs a `size` or an `outline`");
                return Err(self.at(node.start, message));
            }
            (Some(m), None) => {
                let [w, h] = self.tuple(&m.value, "a size `[width, height]`")?;
                let w = self.int(w, 3..=MAX_TILES, "a template's width")? as i32;
                let h = self.int(h, 3..=MAX_TILES, "a template's height")? as i32;
                vec![(0, 0), (w, 0), (w, h), (0, h)]
            }
            (None, Some(m)) => self.polygon(&m.value)?,
        };
        let template = Template {
            name: name.to_owned(),
            outline,
            doors: match doors {
                Some(m) => self.doors(&m.value, sockets)?,
                None => defaults.doors.clone(),
            },
            transforms: match transforms {
                Some(m) => self.transforms(&m.value)?,
                None => defaults.transforms,
            },
            repeat: match repeat {
                Some(m) => self.repeat(&m.value)?,
                None => defaults.repeat,
            },
            holes: match holes {
                Some(m) => self
                    .arr(&m.value)?
                    .iter()
                    .map(|h| self.polygon(h))
                    .collect::<Result<_, _>>()?,
                None => Vec::new(),
            },
        };
        if let Some(problem) = template_problem(&template) {
            return Err(self.at(node.start, format!("template `{name}`: {problem}")));
        }
        Ok((template, name_m.value.start))
    }

    /// An outline or a hole: a list of at most [`MAX_CORNERS`] corners `[x, y]`.
    fn polygon(&self, node: &Node) -> Result<Vec<(i32, i32)>, MapInputError> {
        let corners = self.arr(node)?;
        if corners.len() > MAX_CORNERS {
            let message = format!("an outline has at most {MAX_CORNERS} corners");
            return Err(self.at(node.start, message));
        }
        corners.iter().map(|c| self.point(c)).collect()
    }
}
