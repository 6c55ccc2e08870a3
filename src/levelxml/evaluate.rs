//! A level's score as the game computes it (corpus notes, "Points"): the total is 0 when any
//! rule fails, otherwise the `points` value plus each vertex's color `vertex-points`, each
//! edge's color `edge-points` and the score of the walk (when the level has a `<path>` or
//! `<cycle>`); the level is complete when every rule holds and the total reaches `objective`.

use serde::Serialize;

use crate::levelxml::error::{EvalError, EvalErrorKind};
use crate::levelxml::graph::ResolvedGraph;
use crate::levelxml::model::{LevelDoc, Rule};
use crate::levelxml::parse::SourceMap;
use crate::levelxml::path::{resolve_walk, score_walk};
use crate::levelxml::rules::check_rule;
use crate::levelxml::values::{IncludeLoader, Values};

/// What an evaluation may use besides the level.
#[derive(Clone, Copy, Default)]
pub struct EvalOptions<'a> {
    /// Positions for error messages.
    pub map: Option<&'a SourceMap>,
    /// Where `<include>` files come from (`None`: an include is an error).
    pub includes: Option<&'a dyn IncludeLoader>,
    /// The walk to score, as edge ids or 0-based edge indices (`None`: the empty walk).
    pub path: Option<&'a [String]>,
}

/// One rule's outcome, for reports.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RuleReport {
    /// The rule as written in the file.
    pub rule: String,
    /// Whether it holds.
    pub ok: bool,
    /// Why not, or a summary.
    pub detail: String,
}

/// The score of a level.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Evaluation {
    /// Each rule's outcome, in file order.
    pub rules: Vec<RuleReport>,
    /// Whether every rule holds.
    pub valid: bool,
    /// The `points` value.
    pub points: i64,
    /// The sum of the vertices' color `vertex-points`.
    pub vertex_points: i64,
    /// The sum of the edges' color `edge-points`.
    pub edge_points: i64,
    /// The walk's score, when the level has a `<path>` or `<cycle>`.
    pub path_score: Option<i64>,
    /// The total (0 when a rule fails).
    pub total: i64,
    /// The `objective` value.
    pub objective: i64,
    /// Valid and `total >= objective`.
    pub complete: bool,
}

/// Evaluates `doc` as it stands.
///
/// # Runtime
/// O(values + rules * (V + E) + walk); allocations for the resolved graph and value cache.
pub fn evaluate(doc: &LevelDoc, opts: &EvalOptions<'_>) -> Result<Evaluation, EvalError> {
    let g = ResolvedGraph::new(doc)?;
    let mut values = Values::new(doc, &g, opts.map, opts.includes)?;
    let mut required = |name: &'static str| -> Result<i64, EvalError> {
        if !values.defines(name) {
            return Err(EvalError::new(EvalErrorKind::Missing { name }));
        }
        values.number(name)
    };
    let points = required("points")?;
    let objective = required("objective")?;
    let rules: Vec<RuleReport> = doc
        .rules
        .iter()
        .map(|r| {
            let res = check_rule(r, &g, &doc.colors);
            RuleReport {
                rule: rule_text(r),
                ok: res.ok,
                detail: res.detail,
            }
        })
        .collect();
    let valid = rules.iter().all(|r| r.ok);
    let sum = |colors: &[u32], pick: fn(&crate::levelxml::model::Color) -> i64| {
        colors.iter().try_fold(0i64, |acc, &c| {
            acc.checked_add(pick(&doc.colors[c as usize]))
        })
    };
    let overflow = |id: &str| EvalError::new(EvalErrorKind::Overflow { id: id.into() });
    let vertex_points =
        sum(&g.vertex_color, |c| c.vertex_points).ok_or_else(|| overflow("vertex-points"))?;
    let edge_points =
        sum(&g.edge_color, |c| c.edge_points).ok_or_else(|| overflow("edge-points"))?;
    let path_score = match (doc.paths.first(), opts.path) {
        (None, Some(_)) => return Err(EvalError::new(EvalErrorKind::NoPathSpec)),
        (None, None) => None,
        (Some(spec), names) => {
            let walk = resolve_walk(names.unwrap_or(&[]), &doc.edges, &g)?;
            let at = opts
                .map
                .and_then(|m| m.paths.first().map(|&p| (m.file.clone(), p)));
            Some(score_walk(spec, &walk, &g, &doc.colors).map_err(|kind| EvalError { at, kind })?)
        }
    };
    let total = if valid {
        [vertex_points, edge_points, path_score.unwrap_or(0)]
            .iter()
            .try_fold(points, |acc, &x| acc.checked_add(x))
            .ok_or_else(|| overflow("total"))?
    } else {
        0
    };
    Ok(Evaluation {
        rules,
        valid,
        points,
        vertex_points,
        edge_points,
        path_score,
        total,
        objective,
        complete: valid && total >= objective,
    })
}

/// A rule as its element (`<edge-rule v1="same" v2="same"/>`).
pub fn rule_text(r: &Rule) -> String {
    crate::levelxml::write::rule_line(r)
}
