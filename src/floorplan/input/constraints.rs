//! The readers of a level graph's `constraints`: `{"min_path": [a, b, steps]}`,
//! `{"max_path": [a, b, steps]}` and `{"lock": [a, b], "key": k}`, each room named by its id or
//! by a tag (every room with it), and the checks that the locks hold.

use super::read::{Ctx, MapInputError};
use crate::floorplan::constraints::{MAX_KEYS, lock_problem, start_room};
use crate::floorplan::json::Node;
use crate::floorplan::spec::{LevelGraph, Lock, PathRule};

/// The longest floor path a `min_path` or `max_path` may name, in steps.
const MAX_STEPS: i64 = 1 << 20;

impl Ctx<'_> {
    /// The rooms `node` names: the room with that id, else every room with that tag.
    fn rooms_named(&self, node: &Node, graph: &LevelGraph) -> Result<Vec<u32>, MapInputError> {
        let name = self.id(node)?;
        if let Some(r) = graph.rooms.iter().position(|r| r.id == name) {
            return Ok(vec![r as u32]);
        }
        let tagged: Vec<u32> = (0..graph.rooms.len() as u32)
            .filter(|&r| graph.rooms[r as usize].tags.contains(&name))
            .collect();
        if tagged.is_empty() {
            return Err(self.at(node.start, format!("no room has the id or tag `{name}`")));
        }
        Ok(tagged)
    }

    /// The one room `node` names (an id, or a tag exactly one room has).
    fn one_room(&self, node: &Node, graph: &LevelGraph) -> Result<u32, MapInputError> {
        match self.rooms_named(node, graph)?.as_slice() {
            &[r] => Ok(r),
            many => Err(self.at(
                node.start,
                format!("names {} rooms; name one room here", many.len()),
            )),
        }
    }

    /// Reads the `constraints` list into `graph` and checks its locks from the start room.
    pub(super) fn constraints(
        &self,
        node: &Node,
        graph: &mut LevelGraph,
    ) -> Result<(), MapInputError> {
        let mut at = Vec::new();
        for item in self.arr(node)? {
            let [min, max, lock, key] = self.fields(
                item,
                ["min_path", "max_path", "lock", "key"],
                "a constraint",
            )?;
            match (min, max, lock) {
                (Some(m), None, None) | (None, Some(m), None) if key.is_none() => {
                    let what = "`[room, room, steps]`";
                    let [a, b, steps] = self.tuple(&m.value, what)?;
                    graph.paths.push(PathRule {
                        from: self.rooms_named(a, graph)?,
                        to: self.rooms_named(b, graph)?,
                        names: [self.id(a)?, self.id(b)?],
                        tiles: self.int(steps, 0..=MAX_STEPS, "a path's steps")? as u32,
                        max: max.is_some(),
                    });
                }
                (None, None, Some(m)) => {
                    let [a, b] = self.tuple(&m.value, "`[room, room]`, a connection")?;
                    let (a, b) = (self.one_room(a, graph)?, self.one_room(b, graph)?);
                    let Some(j) = graph
                        .connections
                        .iter()
                        .position(|c| (c.a, c.b) == (a, b) || (c.a, c.b) == (b, a))
                    else {
                        return Err(self.at(m.value.start, "the two rooms are not connected"));
                    };
                    let key = key.ok_or_else(|| self.at(item.start, "a lock needs a `key`"))?;
                    let lock = Lock {
                        connection: j as u32,
                        key: self.one_room(&key.value, graph)?,
                    };
                    if graph.locks.iter().any(|l| l.connection == lock.connection) {
                        return Err(self.at(m.value.start, "this connection is locked twice"));
                    }
                    graph.locks.push(lock);
                    at.push(item.start);
                }
                _ => {
                    let message = "a constraint is one of `{\"min_path\": [a, b, steps]}`, \
                                   `{\"max_path\": [a, b, steps]}`, `{\"lock\": [a, b], \"key\": k}`";
                    return Err(self.at(item.start, message));
                }
            }
        }
        self.check_locks(node, graph, &at)
    }

    /// Checks that the locks of `graph` (given at `at`) hold from its start room.
    fn check_locks(
        &self,
        node: &Node,
        graph: &LevelGraph,
        at: &[usize],
    ) -> Result<(), MapInputError> {
        if graph.locks.is_empty() {
            return Ok(());
        }
        let Some(start) = start_room(graph) else {
            return Err(self.at(at[0], "locks need a room tagged `start`"));
        };
        let mut keys: Vec<u32> = graph.locks.iter().map(|l| l.key).collect();
        keys.sort_unstable();
        keys.dedup();
        if keys.len() > MAX_KEYS {
            let message = format!("{} key rooms; at most {MAX_KEYS} are allowed", keys.len());
            return Err(self.at(node.start, message));
        }
        match lock_problem(graph, &graph.locks, start) {
            Some((l, why)) => Err(self.at(at.get(l).copied().unwrap_or(node.start), why)),
            None => Ok(()),
        }
    }
}
