//! The axis of `warren pack` and its values: which profile keys (or which metric column) the
//! splits differ along, and each split's variants (`--set` overrides) or metric range, checked
//! against the profile before any level is made.

use anyhow::{Result, bail};

use crate::core::generator::Generator;
use crate::profile::{GeneratorTask, Profile};

/// The metric column names of a profile's generator.
struct MetricNames;

impl GeneratorTask for MetricNames {
    type Output = Vec<&'static str>;

    fn run<G: Generator>(self, generator: &G) -> Vec<&'static str> {
        generator.columns().metrics.iter().map(|m| m.name).collect()
    }
}

/// Refuses a metric axis that is none of the profile's metric columns.
pub(super) fn check_metric(axis: &Axis, profile: &Profile) -> Result<()> {
    let Axis::Metric(name) = axis else {
        return Ok(());
    };
    let known = profile.with_generator(MetricNames)?;
    if !known.contains(&name.as_str()) {
        bail!(
            "--axis `{name}`: unknown axis (expected size, algorithm, loops, a profile key such \
             as maze.braid, or a metric column of {}: {})",
            profile.kind(),
            known.join(", ")
        );
    }
    Ok(())
}

/// The named axes and the profile keys each sets (`{kind}` stands for the profile's kind).
const NAMED_AXES: &[(&str, &[&str])] = &[
    ("size", &["{kind}.width", "{kind}.height"]),
    ("algorithm", &["maze.algorithm"]),
    ("loops", &["maze.braid"]),
];

/// What the splits of a pack differ along.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Axis {
    /// Profile keys set together to each value (`size`: width and height).
    Keys(Vec<String>),
    /// A metric column: each split keeps the levels whose value lies in its range.
    Metric(String),
}

/// One side of the axis (`--train` or `--ood`): its values and what they make of the profile.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub(super) struct Side {
    /// The values as given on the command line (`4..=16`, `dfs,wilson`).
    pub given: String,
    /// The values as listed (ranges of integers expanded), or the metric range as given.
    pub values: Vec<String>,
    /// One list of `--set` overrides per variant (one empty list for a metric axis).
    pub variants: Vec<Vec<String>>,
    /// Each variant's weight (all equal).
    pub weights: Vec<u32>,
    /// For a metric axis: the half-open range `[lo, hi)` and the `--where` filter of it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub range: Option<(f64, f64)>,
    /// The filter text the split's levels pass (a metric axis only).
    #[serde(rename = "where", skip_serializing_if = "Option::is_none")]
    pub filter: Option<String>,
}

impl Side {
    /// The side's mixture, with grids stored as `binary` when `binary_grid`.
    pub fn spec(&self, binary_grid: bool) -> crate::profile::MixtureSpec {
        crate::profile::MixtureSpec {
            variants: self.variants.clone(),
            weights: self.weights.clone(),
            binary_grid,
        }
    }
}

/// `axis` for a profile of `kind`: a named axis, a dotted profile key, or (anything else) a
/// metric column, which the run checks against the kind's columns.
pub(super) fn parse_axis(axis: &str, kind: &str) -> Result<Axis> {
    let axis = axis.trim();
    if let Some((_, keys)) = NAMED_AXES.iter().find(|(name, _)| *name == axis) {
        return Ok(Axis::Keys(
            keys.iter().map(|k| k.replace("{kind}", kind)).collect(),
        ));
    }
    if axis.contains('.') {
        return Ok(Axis::Keys(vec![axis.to_string()]));
    }
    let is_word = |s: &str| {
        s.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
            && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    if !is_word(axis) {
        bail!(
            "--axis `{axis}`: unknown axis (expected size, algorithm, loops, a profile key such \
             as maze.braid, or a metric column)"
        );
    }
    Ok(Axis::Metric(axis.to_string()))
}

/// The integers of `a..b` or `a..=b`, if `text` is such a range.
fn integer_range(text: &str) -> Option<Result<Vec<i64>>> {
    let (lo, hi, inclusive) = match text.split_once("..=") {
        Some((lo, hi)) => (lo, hi, true),
        None => {
            let (lo, hi) = text.split_once("..")?;
            (lo, hi, false)
        }
    };
    let (Ok(lo), Ok(hi)) = (lo.trim().parse::<i64>(), hi.trim().parse::<i64>()) else {
        return Some(Err(anyhow::anyhow!(
            "`{text}` is not a range of integers (`4..=16`, `4..17`)"
        )));
    };
    let end = if inclusive { hi } else { hi - 1 };
    if end < lo {
        return Some(Err(anyhow::anyhow!("`{text}` is an empty range")));
    }
    if end - lo >= 4096 {
        return Some(Err(anyhow::anyhow!("`{text}` has more than 4,096 values")));
    }
    Some(Ok((lo..=end).collect()))
}

/// The values of `text` for a key axis: a range of integers or a comma list.
fn key_values(text: &str) -> Result<Vec<String>> {
    if let Some(range) = integer_range(text.trim()) {
        return Ok(range?.iter().map(i64::to_string).collect());
    }
    let values: Vec<String> = text.split(',').map(|v| v.trim().to_string()).collect();
    if values.iter().any(String::is_empty) {
        bail!("`{text}` has an empty value (expected `4..=16`, `4,8,16` or `dfs,wilson`)");
    }
    Ok(values)
}

/// The half-open range `a..b` of a metric axis.
fn metric_range(text: &str) -> Result<(f64, f64)> {
    let parsed = text
        .split_once("..")
        .filter(|(_, hi)| !hi.starts_with('='))
        .and_then(|(lo, hi)| {
            Some((
                lo.trim().parse::<f64>().ok()?,
                hi.trim().parse::<f64>().ok()?,
            ))
        })
        .filter(|(lo, hi)| lo.is_finite() && hi.is_finite());
    let Some((lo, hi)) = parsed else {
        bail!(
            "`{text}` is not a metric range `a..b` of two numbers (the levels with a <= metric < b)"
        );
    };
    if lo >= hi {
        bail!("`{text}` is an empty range: no value v has {lo} <= v < {hi}");
    }
    Ok((lo, hi))
}

/// The side `flag` (`--train`, `--ood`) of `axis` with values `text`, checked against `profile`:
/// every variant's overrides must apply (the keys exist, the values parse and are in range).
pub(super) fn side(axis: &Axis, flag: &str, text: &str, profile: &Profile) -> Result<Side> {
    let wrap = |e: anyhow::Error| anyhow::anyhow!("{flag} {text}: {e:#}");
    match axis {
        Axis::Keys(keys) => {
            let values = key_values(text).map_err(wrap)?;
            let variants: Vec<Vec<String>> = values
                .iter()
                .map(|v| keys.iter().map(|k| format!("{k}={v}")).collect())
                .collect();
            for sets in &variants {
                profile.clone().set_all(sets).map_err(|e| wrap(e.into()))?;
            }
            Ok(Side {
                given: text.trim().to_string(),
                weights: vec![1; values.len()],
                values,
                variants,
                range: None,
                filter: None,
            })
        }
        Axis::Metric(column) => {
            let (lo, hi) = metric_range(text.trim()).map_err(wrap)?;
            Ok(Side {
                given: text.trim().to_string(),
                values: vec![text.trim().to_string()],
                variants: vec![Vec::new()],
                weights: vec![1],
                range: Some((lo, hi)),
                filter: Some(format!("{column} >= {lo} and {column} < {hi}")),
            })
        }
    }
}

/// Refuses a train side and an ood side that are the same distribution.
pub(super) fn check_differ(axis_name: &str, train: &Side, ood: &Side) -> Result<()> {
    let mut a = train.variants.clone();
    let mut b = ood.variants.clone();
    a.sort();
    b.sort();
    if a == b && train.range == ood.range {
        bail!(
            "--train and --ood give the same values along `{axis_name}`: the ood split would \
             not be out of distribution"
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_ranges_expand_and_lists_split() {
        assert_eq!(key_values("4..=6").unwrap(), ["4", "5", "6"]);
        assert_eq!(key_values("4..6").unwrap(), ["4", "5"]);
        assert_eq!(key_values("dfs, wilson").unwrap(), ["dfs", "wilson"]);
        assert!(key_values("6..=4").is_err());
        assert!(key_values("a..=4").is_err());
        assert!(key_values("4,,5").is_err());
    }

    #[test]
    fn metric_ranges_are_half_open_and_not_empty() {
        assert_eq!(metric_range("10..20").unwrap(), (10.0, 20.0));
        assert_eq!(metric_range("0.5..1.5").unwrap(), (0.5, 1.5));
        assert!(metric_range("20..10").is_err());
        assert!(metric_range("5..5").is_err());
        assert!(metric_range("1..=5").is_err());
        assert!(metric_range("x..5").is_err());
    }

    #[test]
    fn named_axes_name_their_keys() {
        assert_eq!(
            parse_axis("size", "maze").unwrap(),
            Axis::Keys(vec!["maze.width".into(), "maze.height".into()])
        );
        assert_eq!(
            parse_axis("maze.braid", "maze").unwrap(),
            Axis::Keys(vec!["maze.braid".into()])
        );
        assert_eq!(
            parse_axis("dead_ends", "maze").unwrap(),
            Axis::Metric("dead_ends".into())
        );
        assert!(parse_axis("size!", "maze").is_err());
    }
}
