//! The GraphColoring level format (seed 002): read, evaluate and write the game's level XML.
//! The `coloring` generator kind that makes new puzzles in this format is [`crate::coloring`].
//!
//! - [`model`]: the level as data ([`LevelDoc`]) and `level-list.xml` ([`LevelList`]);
//! - `parse`, `list`: the readers, on quick-xml, with file:line:col errors ([`XmlError`]);
//! - `write`: the writer, in the layout the game loads;
//! - `graph`, `values`, `rules`, `path`, `evaluate`: the game's semantics ([`evaluate`]), with
//!   errors where the game would crash ([`EvalError`]);
//!
//! The seed is the game's own format document; where the game's loader differs from it, this
//! module follows the loader as recorded in the corpus notes (both are summarised in each
//! file's docs). Decisions where both are silent: unknown elements anywhere are errors (the game
//! skips most of them, so a misspelt rule would vanish silently); duplicate vertex ids, edge ids
//! and color names are errors (the game keeps the last one, so an edge could silently change
//! its end); values are 64-bit with overflow an error (the game's is undefined behaviour).

mod error;
mod evaluate;
mod graph;
mod list;
pub mod model;
mod parse;
mod path;
mod rules;
mod values;
mod write;
mod xml;

pub use error::{EvalError, EvalErrorKind, Pos, XmlError, XmlErrorKind};
pub use evaluate::{EvalOptions, Evaluation, RuleReport, evaluate, rule_text};
pub use graph::ResolvedGraph;
pub use list::{parse_level_list, read_level_list, write_level_list};
pub use model::{
    Bound, Category, Color, ColorSel, Edge, Item, LevelDoc, LevelList, Op, PathOp, PathRule,
    PathSpec, Protect, Rule, ValueNode, Vertex,
};
pub use parse::{ParsedLevel, SourceMap, parse_hex, parse_level, read_level, stoi};
pub use path::{Walk, resolve_walk, score_walk};
pub use rules::{RuleResult, check_rule};
pub use values::{FolderIncludes, IncludeLoader, Value, Values};
pub use write::{escape_attr, hex, write_level};

#[cfg(test)]
mod corpus_tests;
#[cfg(test)]
mod eval_tests;
#[cfg(test)]
mod parse_tests;
