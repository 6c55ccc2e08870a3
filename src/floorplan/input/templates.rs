//! The readers of a template library's values: door rules, transforms, repeat modes and
//! templates (checked with [`template_problem`]).

use std::collections::HashSet;

use super::read::{Ctx, MAX_TILES, MapInputError};
use crate::floorplan::json::Node;
use crate::floorplan::shape::template_problem;
use crate::floorplan::spec::{Doors, Repeat, Template, Transforms};

/// A library's defaults for the templates that do not say.
/// The most corners a template outline may have (its checks are quadratic in them).
pub const MAX_CORNERS: usize = 1024;

pub(super) struct Defaults {
    pub(super) doors: Doors,
    pub(super) transforms: Transforms,
    pub(super) repeat: Repeat,
}

impl Ctx<'_> {
    /// A `doors` object: simple door rules or a list of doors.
    pub(super) fn doors(&self, node: &Node) -> Result<Doors, MapInputError> {
        let [length, corner_distance, positions] =
            self.fields(node, ["length", "corner_distance", "positions"], "`doors`")?;
        let Some(positions) = positions else {
            let length = match length {
                Some(m) => self.int(&m.value, 1..=MAX_TILES, "a door's length")?,
                None => 1,
            };
            let corner_distance = match corner_distance {
                Some(m) => self.int(&m.value, 0..=MAX_TILES, "a door's corner distance")?,
                None => 1,
            };
            return Ok(Doors::Simple {
                length: length as u32,
                corner_distance: corner_distance as u32,
            });
        };
        if let Some(m) = length.or(corner_distance) {
            let message = format!(
                "`{}` cannot be used with `positions` (a list of doors)",
                m.key
            );
            return Err(self.at(m.at, message));
        }
        let list = self.arr(&positions.value)?;
        if list.is_empty() {
            return Err(self.at(positions.value.start, "`positions` lists no doors"));
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
        Ok(Doors::Listed(doors))
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
    ) -> Result<(Template, usize), MapInputError> {
        let [name, size, outline, doors, transforms, repeat] = self.fields(
            node,
            ["name", "size", "outline", "doors", "transforms", "repeat"],
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
            (None, Some(m)) => {
                let corners = self.arr(&m.value)?;
                if corners.len() > MAX_CORNERS {
                    let message = format!("an outline has at most {MAX_CORNERS} corners");
                    return Err(self.at(m.value.start, message));
                }
                corners
                    .iter()
                    .map(|c| self.point(c))
                    .collect::<Result<_, _>>()?
            }
        };
        let template = Template {
            name: name.to_owned(),
            outline,
            doors: match doors {
                Some(m) => self.doors(&m.value)?,
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
        };
        if let Some(problem) = template_problem(&template) {
            return Err(self.at(node.start, format!("template `{name}`: {problem}")));
        }
        Ok((template, name_m.value.start))
    }
}
