//! `map.graph`: one level graph, or several with weights (Enter the Gungeon's flows: each level
//! lays out one of them, picked by its seed).
//!
//! In a profile, `graph = "edgar-fig8-17"` names one graph; a list names several, each a string
//! (weight 1) or a table:
//!
//! ```toml
//! [map]
//! graph = [{ graph = "short.json", weight = 3 }, "long.json"]
//! ```

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{SerializeSeq, Serializer};
use serde::{Deserialize, Serialize};

use crate::core::rng::mix;

/// The salt of a level's graph pick: `mix(seed, GRAPH_SALT)`, a stream the builder does not draw
/// from (and not `warren pack`'s mixture pick, so that the two picks are independent).
const GRAPH_SALT: u64 = 0x6d61_705f_666c_6f77; // "map_flow"

/// The largest weight of one graph (weights add up in 64 bits; this keeps them readable).
pub const MAX_GRAPH_WEIGHT: u32 = 1_000_000;

/// One graph of `map.graph` and its weight.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeightedGraph {
    /// A built-in graph's name or a `.json` level-graph file.
    pub graph: String,
    /// How often a level takes this graph, against the others' weights (default 1).
    #[serde(default = "one")]
    pub weight: u32,
}

fn one() -> u32 {
    1
}

/// `map.graph`: the level graphs of a run, each with its weight (at least one graph).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GraphList(pub Vec<WeightedGraph>);

impl GraphList {
    /// The graphs, in the profile's order.
    pub fn entries(&self) -> &[WeightedGraph] {
        &self.0
    }

    /// The graph level `seed` lays out: a weighted pick from `mix(seed, GRAPH_SALT)` (always 0
    /// for one graph).
    ///
    /// # Runtime
    /// One mix and a scan of the graphs: a few nanoseconds.
    pub fn pick(&self, seed: u64) -> usize {
        if self.0.len() < 2 {
            return 0;
        }
        let total: u64 = self.0.iter().map(|g| u64::from(g.weight)).sum();
        // A multiply-high maps 64 random bits onto [0, total) without a division.
        let mut pick = ((u128::from(mix(seed, GRAPH_SALT)) * u128::from(total)) >> 64) as u64;
        for (i, g) in self.0.iter().enumerate() {
            if pick < u64::from(g.weight) {
                return i;
            }
            pick -= u64::from(g.weight);
        }
        self.0.len() - 1
    }

    /// Names a graph of the list in messages: its name, or for several graphs, its name and
    /// place (`map.graph[2] = "b.json"`).
    pub fn describe(&self, i: usize) -> String {
        if self.0.len() == 1 {
            return format!("map.graph = {:?}", self.0[i].graph);
        }
        format!("map.graph[{}] = {:?}", i + 1, self.0[i].graph)
    }
}

/// The graph's name for one graph (`edgar-fig8-17`, `g.json`), the names joined by commas for
/// several: messages about a one-graph profile read as before lists existed.
impl std::fmt::Display for GraphList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, g) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(&g.graph)?;
        }
        Ok(())
    }
}

impl From<&str> for GraphList {
    fn from(graph: &str) -> Self {
        Self(vec![WeightedGraph {
            graph: graph.to_string(),
            weight: 1,
        }])
    }
}

impl From<String> for GraphList {
    fn from(graph: String) -> Self {
        Self::from(graph.as_str())
    }
}

impl Serialize for GraphList {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match &self.0[..] {
            [g] if g.weight == 1 => s.serialize_str(&g.graph),
            all => {
                let mut seq = s.serialize_seq(Some(all.len()))?;
                for g in all {
                    seq.serialize_element(g)?;
                }
                seq.end()
            }
        }
    }
}

/// One entry of the list: a string, or a `{ graph, weight }` table.
struct Entry(WeightedGraph);

impl<'de> Deserialize<'de> for Entry {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Entry;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(
                    "a level graph (a name or a .json path) or { graph = \"...\", weight = N }",
                )
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Entry, E> {
                Ok(Entry(WeightedGraph {
                    graph: s.to_string(),
                    weight: 1,
                }))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Entry, A::Error> {
                WeightedGraph::deserialize(de::value::MapAccessDeserializer::new(map)).map(Entry)
            }
        }
        d.deserialize_any(V)
    }
}

impl<'de> Deserialize<'de> for GraphList {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = GraphList;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(
                    "a level graph (a built-in name or a .json path), or a list of them, each a \
                     string or { graph = \"...\", weight = N }",
                )
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<GraphList, E> {
                Ok(GraphList::from(s))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<GraphList, A::Error> {
                let mut all = Vec::new();
                while let Some(Entry(g)) = seq.next_element()? {
                    all.push(g);
                }
                if all.is_empty() {
                    return Err(de::Error::invalid_length(0, &"at least one level graph"));
                }
                Ok(GraphList(all))
            }
        }
        d.deserialize_any(V)
    }
}

#[cfg(test)]
#[path = "graphs_tests.rs"]
mod tests;
