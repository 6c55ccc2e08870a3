//! Checking a puzzle's stored solution (seed 002's levels are only as good as their proof):
//! the level's XML reads back to the level, the solution fits it, keeps every protected color
//! and completes it under warren's evaluator.

use std::fmt;

use crate::coloring::puzzle::level_doc::GRAY;
use crate::coloring::puzzle::solved::{Puzzle, Solution};
use crate::levelxml::model::{LevelDoc, Protect};
use crate::levelxml::{EvalError, EvalOptions, Evaluation, XmlError, evaluate, parse_level};

/// What a solution colors, in messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PuzzleItem {
    /// A vertex.
    Vertex,
    /// An edge.
    Edge,
}

impl PuzzleItem {
    /// The plural, in messages.
    pub fn plural(self) -> &'static str {
        match self {
            PuzzleItem::Vertex => "vertices",
            PuzzleItem::Edge => "edges",
        }
    }
}

impl fmt::Display for PuzzleItem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PuzzleItem::Vertex => "vertex",
            PuzzleItem::Edge => "edge",
        })
    }
}

/// A stored solution that does not solve its level.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolutionError {
    /// The puzzle's XML does not parse.
    #[error(transparent)]
    Parse(#[from] XmlError),
    /// The puzzle's XML parses to another level than the puzzle's own.
    #[error("the XML does not read back to the level")]
    NotReadBack,
    /// The solution colors another number of vertices or edges than the level has.
    #[error("the solution colors {colored} {}, the level has {items}", item.plural())]
    WrongCount {
        /// Vertices or edges.
        item: PuzzleItem,
        /// How many the solution colors.
        colored: usize,
        /// How many the level has.
        items: usize,
    },
    /// The solution uses a color beyond the palette.
    #[error("the solution uses color {color}, the palette has {palette}")]
    OutOfPalette {
        /// The palette index used.
        color: u8,
        /// The palette's colors (gray left out).
        palette: usize,
    },
    /// The solution changes a color the level protects.
    #[error("the solution recolors {item} {index}, whose color is protected")]
    RecolorsProtected {
        /// A vertex or an edge.
        item: PuzzleItem,
        /// Its index in the level.
        index: usize,
    },
    /// The played level cannot be evaluated.
    #[error(transparent)]
    Evaluation(#[from] EvalError),
    /// The played level is not complete: a rule fails or the points fall short.
    #[error(
        "the solution does not complete the level: total {} of {}, rules {:?}",
        .0.total,
        .0.objective,
        .0.rules
    )]
    Incomplete(Box<Evaluation>),
}

/// `doc` with `solution` played: colors set, or the walk to score.
pub fn apply_solution(doc: &LevelDoc, solution: &Solution) -> (LevelDoc, Option<Vec<String>>) {
    let mut played = doc.clone();
    let gray = usize::from(played.colors.first().is_some_and(|c| c.name == GRAY.0));
    let name = |c: u8| {
        played
            .colors
            .get(gray + usize::from(c))
            .map(|c| c.name.clone())
    };
    match solution {
        Solution::VertexColors(cs) => {
            let names: Vec<_> = cs.iter().map(|&c| name(c)).collect();
            for (v, n) in played.vertices.iter_mut().zip(names) {
                v.color = n;
            }
            (played, None)
        }
        Solution::EdgeColors(cs) => {
            let names: Vec<_> = cs.iter().map(|&c| name(c)).collect();
            for (e, n) in played.edges.iter_mut().zip(names) {
                e.color = n;
            }
            (played, None)
        }
        Solution::Walk(w) => (played, Some(w.iter().map(u32::to_string).collect())),
    }
}

/// Parses the puzzle's own XML, plays its solution and evaluates it: `Ok` with the evaluation
/// when the level reads back to the same model and the solution completes it
/// ([`check_played`]).
///
/// # Errors
/// The XML does not parse or reads back to another level, or [`check_played`]'s errors.
pub fn check_solution(p: &Puzzle) -> Result<Evaluation, SolutionError> {
    let parsed = parse_level(&p.xml, "puzzle.xml")?;
    if parsed.doc != p.doc {
        return Err(SolutionError::NotReadBack);
    }
    check_played(&parsed.doc, &p.solution)
}

/// Plays `solution` on the level `doc` and evaluates the result: `Ok` with the evaluation when
/// the solution fits the level (one palette color per vertex or edge, all in the palette), keeps
/// every protected color as the level gives it (a player cannot change those), and completes
/// the level under the game's rules.
///
/// # Errors
/// The first of: a solution of the wrong length or outside the palette, a protected color
/// changed, a level the evaluator rejects, a played level that is not complete.
///
/// # Runtime
/// O(V + E) plus the evaluation; clones the level once.
pub fn check_played(doc: &LevelDoc, solution: &Solution) -> Result<Evaluation, SolutionError> {
    match solution {
        Solution::VertexColors(cs) => fits(doc, cs, PuzzleItem::Vertex)?,
        Solution::EdgeColors(cs) => fits(doc, cs, PuzzleItem::Edge)?,
        Solution::Walk(_) => {}
    }
    let (played, walk) = apply_solution(doc, solution);
    keeps_protected_colors(doc, &played)?;
    let opts = EvalOptions {
        path: walk.as_deref(),
        ..EvalOptions::default()
    };
    let ev = evaluate(&played, &opts)?;
    if !ev.complete {
        return Err(SolutionError::Incomplete(Box::new(ev)));
    }
    Ok(ev)
}

/// The colors `cs` give one palette color to each of the level's vertices or edges (`item`).
fn fits(doc: &LevelDoc, cs: &[u8], item: PuzzleItem) -> Result<(), SolutionError> {
    let gray = usize::from(doc.colors.first().is_some_and(|c| c.name == GRAY.0));
    let palette = doc.colors.len() - gray;
    let items = match item {
        PuzzleItem::Vertex => doc.vertices.len(),
        PuzzleItem::Edge => doc.edges.len(),
    };
    if cs.len() != items {
        return Err(SolutionError::WrongCount {
            item,
            colored: cs.len(),
            items,
        });
    }
    match cs.iter().find(|&&c| usize::from(c) >= palette) {
        Some(&color) => Err(SolutionError::OutOfPalette { color, palette }),
        None => Ok(()),
    }
}

/// No vertex or edge whose color is protected (its own `c` or the global one) changed color
/// between `start` and `played` (a missing color is the palette's first).
fn keeps_protected_colors(start: &LevelDoc, played: &LevelDoc) -> Result<(), SolutionError> {
    let first = start.colors.first().map(|c| c.name.as_str());
    let shown = |c: &Option<String>| c.as_deref().or(first).map(str::to_string);
    let global = |p: Option<Protect>| p.is_some_and(|p| p.contains(Protect::COLOR));
    let (all_v, all_e) = (global(start.vertex_protect), global(start.edge_protect));
    for (i, (a, b)) in start.vertices.iter().zip(&played.vertices).enumerate() {
        if (all_v || a.protect.contains(Protect::COLOR)) && shown(&a.color) != shown(&b.color) {
            return Err(SolutionError::RecolorsProtected {
                item: PuzzleItem::Vertex,
                index: i,
            });
        }
    }
    for (i, (a, b)) in start.edges.iter().zip(&played.edges).enumerate() {
        if (all_e || a.protect.contains(Protect::COLOR)) && shown(&a.color) != shown(&b.color) {
            return Err(SolutionError::RecolorsProtected {
                item: PuzzleItem::Edge,
                index: i,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
#[path = "check_tests.rs"]
mod tests;
