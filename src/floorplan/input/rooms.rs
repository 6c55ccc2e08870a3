//! The readers of a level graph's values: room ids, rooms and connections with their corridor
//! settings.

use std::collections::HashMap;

use super::read::{Ctx, MAX_TILES, MapInputError};
use crate::floorplan::json::{Json, Node};
use crate::floorplan::spec::{Connection, CorridorSpec, Fixed, Library, RoomSpec};

impl Ctx<'_> {
    /// A room id: a non-empty string, or an integer as its decimal string.
    pub(super) fn id(&self, node: &Node) -> Result<String, MapInputError> {
        let id = match &node.value {
            Json::Str(s) => s.clone(),
            // NOTE: 2^53 bounds the integers an f64 holds exactly.
            Json::Num(v) if v.fract() == 0.0 && v.abs() <= 9_007_199_254_740_992.0 => {
                format!("{}", *v as i64)
            }
            _ => return Err(self.expected(node, "a room id (a string or an integer)")),
        };
        if id.is_empty() {
            return Err(self.at(node.start, "a room id cannot be empty"));
        }
        Ok(id)
    }

    /// One room and the offset of its id.
    pub(super) fn room(
        &self,
        node: &Node,
        library: &Library,
        names: &HashMap<&str, u32>,
    ) -> Result<(RoomSpec, usize), MapInputError> {
        let [id, templates, name, tags, data, fixed] = self.fields(
            node,
            ["id", "templates", "name", "tags", "data", "fixed"],
            "a room",
        )?;
        let id_m = id.ok_or_else(|| self.at(node.start, "a room needs an `id`"))?;
        let mut room = RoomSpec {
            id: self.id(&id_m.value)?,
            ..RoomSpec::default()
        };
        if let Some(m) = name {
            room.name = Some(self.str(&m.value)?.to_owned());
        }
        if let Some(m) = data {
            room.data = Some(self.data(&m.value)?);
        }
        if let Some(m) = tags {
            for tag in self.arr(&m.value)? {
                room.tags.push(self.str(tag)?.to_owned());
            }
        }
        if let Some(m) = templates {
            if matches!(&m.value.value, Json::Arr(items) if items.is_empty()) {
                let message =
                    "a room's `templates` cannot be empty (leave it out for any template)";
                return Err(self.at(m.value.start, message));
            }
            room.templates = Some(self.template_list(&m.value, library, names)?);
        }
        if let Some(m) = fixed {
            let pin = self.fixed(&m.value, library, names)?;
            if let Some(ts) = &room.templates
                && !ts.contains(&pin.template)
            {
                let message = format!(
                    "room `{}` is fixed to template `{}`, which its `templates` do not list",
                    room.id, library.templates[pin.template as usize].name
                );
                return Err(self.at(m.value.start, message));
            }
            room.fixed = Some(pin);
        }
        Ok((room, id_m.value.start))
    }

    /// A room's `fixed`: `{"template": name, "transform": t, "at": [x, y]}`, `transform`
    /// optional (0) and given as the `room_transform` column's number or by name.
    fn fixed(
        &self,
        node: &Node,
        library: &Library,
        names: &HashMap<&str, u32>,
    ) -> Result<Fixed, MapInputError> {
        let [template, transform, at] =
            self.fields(node, ["template", "transform", "at"], "`fixed`")?;
        let (Some(template), Some(at)) = (template, at) else {
            let message = "`fixed` needs `template` and `at` (and may give `transform`)";
            return Err(self.at(node.start, message));
        };
        let wanted = self.str(&template.value)?;
        let Some(&t) = names.get(wanted) else {
            return Err(self.at(template.value.start, unknown_template(wanted, library)));
        };
        let (transform, transform_at) = match transform {
            None => (0, node.start),
            Some(m) => (self.transform(&m.value)?, m.value.start),
        };
        let allowed = &library.templates[t as usize].transforms;
        let refused = if transform & 3 != 0 && !allowed.rotate {
            Some("rotated")
        } else if transform & 4 != 0 && !allowed.mirror {
            Some("mirrored")
        } else {
            None
        };
        if let Some(how) = refused {
            let message =
                format!("template `{wanted}` may not be {how} (its `transforms` do not allow it)");
            return Err(self.at(transform_at, message));
        }
        let [x, y] = self.tuple(&at.value, "a tile `[x, y]`")?;
        let c = |n: &Node| {
            self.int(n, 0..=MAX_TILES * 16, "a fixed room's tile")
                .map(|v| v as i32)
        };
        Ok(Fixed {
            template: t,
            transform,
            at: (c(x)?, c(y)?),
        })
    }

    /// A transform: 0 to 7 (bits 0-1 quarter turns clockwise, bit 2 mirrored first) or its
    /// name ([`TRANSFORM_NAMES`]).
    fn transform(&self, node: &Node) -> Result<u8, MapInputError> {
        if let Json::Str(name) = &node.value {
            return match TRANSFORM_NAMES.iter().position(|n| n == name) {
                Some(k) => Ok(k as u8),
                None => Err(self.at(
                    node.start,
                    format!(
                        "unknown transform `{name}` (expected 0 to 7 or one of {})",
                        TRANSFORM_NAMES.join(", ")
                    ),
                )),
            };
        }
        self.int(node, 0..=7, "a transform").map(|v| v as u8)
    }

    /// Connection `j` (0-based): a pair of ids or an object with `from`, `to` and `corridor`.
    pub(super) fn connection(
        &self,
        j: usize,
        node: &Node,
        ids: &HashMap<String, u32>,
        directed: bool,
        (library, names): (&Library, &HashMap<&str, u32>),
    ) -> Result<Connection, MapInputError> {
        const WHAT: &str =
            "a connection (a pair of room ids `[\"a\", \"b\"]` or an object with `from` and `to`)";
        let mut data = None;
        let (from, to, corridor, directed) = match &node.value {
            Json::Arr(_) => {
                let [a, b] = self.tuple(node, WHAT)?;
                (a, b, CorridorSpec::Default, directed)
            }
            Json::Obj(_) => {
                let keys = ["from", "to", "corridor", "directed", "data"];
                let [from, to, corridor, one_way, given] =
                    self.fields(node, keys, "a connection")?;
                if let Some(m) = given {
                    data = Some(self.data(&m.value)?);
                }
                let (Some(from), Some(to)) = (from, to) else {
                    let message = format!("connection {}: needs both `from` and `to`", j + 1);
                    return Err(self.at(node.start, message));
                };
                let corridor = match corridor {
                    Some(m) => self.corridor(&m.value, library, names)?,
                    None => CorridorSpec::Default,
                };
                let directed = match one_way {
                    Some(m) => self.bool(&m.value)?,
                    None => directed,
                };
                (&from.value, &to.value, corridor, directed)
            }
            _ => return Err(self.expected(node, WHAT)),
        };
        let room = |n: &Node| -> Result<u32, MapInputError> {
            let id = self.id(n)?;
            ids.get(&id).copied().ok_or_else(|| {
                self.at(
                    n.start,
                    format!("connection {}: unknown room `{id}`", j + 1),
                )
            })
        };
        Ok(Connection {
            a: room(from)?,
            b: room(to)?,
            corridor,
            directed,
            at: Some(self.lines.pos(node.start)),
            data,
        })
    }

    /// A `data` value: any JSON object, kept as compact JSON text.
    fn data(&self, node: &Node) -> Result<String, MapInputError> {
        match &node.value {
            Json::Obj(_) => Ok(node.to_value().to_string()),
            _ => Err(self.expected(node, "an object (`data` holds any JSON object)")),
        }
    }

    /// `true` or `false`.
    pub(super) fn bool(&self, node: &Node) -> Result<bool, MapInputError> {
        match node.value {
            Json::Bool(b) => Ok(b),
            _ => Err(self.expected(node, "`true` or `false`")),
        }
    }

    /// A connection's `corridor`: `true`, `false`, `{"lengths": [...]}` or
    /// `{"templates": [...]}` (template names of `library`).
    pub(super) fn corridor(
        &self,
        node: &Node,
        library: &Library,
        names: &HashMap<&str, u32>,
    ) -> Result<CorridorSpec, MapInputError> {
        const NEEDS: &str = "`corridor` needs `lengths` or `templates` (or is `true` or `false`)";
        match &node.value {
            Json::Bool(true) => Ok(CorridorSpec::Default),
            Json::Bool(false) => Ok(CorridorSpec::None),
            Json::Obj(_) => match self.fields(node, ["lengths", "templates"], "`corridor`")? {
                [Some(lengths), None] => {
                    let list = self.arr(&lengths.value)?;
                    if list.is_empty() {
                        return Err(self.at(lengths.value.start, "`lengths` lists no lengths"));
                    }
                    let lengths = list
                        .iter()
                        .map(|n| {
                            self.int(n, 1..=MAX_TILES, "a corridor's length")
                                .map(|v| v as u32)
                        })
                        .collect::<Result<_, _>>()?;
                    Ok(CorridorSpec::Lengths(lengths))
                }
                [None, Some(templates)] => {
                    let chosen = self.template_list(&templates.value, library, names)?;
                    Ok(CorridorSpec::Templates(chosen))
                }
                [Some(_), Some(t)] => Err(self.at(
                    t.at,
                    "`corridor` takes `lengths` (a straight corridor) or `templates` (a \
                     corridor room), not both",
                )),
                [None, None] => Err(self.at(node.start, NEEDS)),
            },
            _ => Err(self.expected(
                node,
                "`true`, `false` or an object with `lengths` or `templates`",
            )),
        }
    }

    /// A non-empty list of template names of `library`, each once, as indices.
    pub(super) fn template_list(
        &self,
        node: &Node,
        library: &Library,
        names: &HashMap<&str, u32>,
    ) -> Result<Vec<u32>, MapInputError> {
        let list = self.arr(node)?;
        if list.is_empty() {
            return Err(self.at(node.start, "the list of templates is empty"));
        }
        let mut chosen = Vec::with_capacity(list.len());
        for item in list {
            let wanted = self.str(item)?;
            let Some(&i) = names.get(wanted) else {
                return Err(self.at(item.start, unknown_template(wanted, library)));
            };
            if chosen.contains(&i) {
                return Err(self.at(item.start, format!("template `{wanted}` is listed twice")));
            }
            chosen.push(i);
        }
        Ok(chosen)
    }
}

/// The transforms by name, in the order of their numbers.
pub const TRANSFORM_NAMES: [&str; 8] = [
    "identity",
    "rotate90",
    "rotate180",
    "rotate270",
    "mirror",
    "mirror_rotate90",
    "mirror_rotate180",
    "mirror_rotate270",
];

/// "unknown template `x` in library `l` (its templates: a, b, ...)", naming at most 10.
fn unknown_template(wanted: &str, library: &Library) -> String {
    const SHOWN: usize = 10;
    let known: Vec<&str> = library.templates.iter().map(|t| t.name.as_str()).collect();
    let mut list = known[..known.len().min(SHOWN)].join(", ");
    if known.len() > SHOWN {
        list += &format!(" and {} more", known.len() - SHOWN);
    }
    format!(
        "unknown template `{wanted}` in library `{}` (its templates: {list})",
        library.name
    )
}
