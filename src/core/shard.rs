//! Shards: `--shard I/N` splits a run's index range `0..count` into N contiguous pieces, so the
//! shard files, concatenated in order (or joined by `warren merge`), hold exactly the levels of
//! the unsharded run. `--shard auto` takes I and N from a job array's environment: Slurm's
//! `SLURM_ARRAY_TASK_ID` with `SLURM_ARRAY_TASK_COUNT` (or `SLURM_ARRAY_TASK_MIN`/`_MAX`), or a
//! Kubernetes Indexed Job's `JOB_COMPLETION_INDEX` with the count on the command line
//! (`--shard auto/N`). An archive records its shard as JSON numbers, index, count, run size and
//! index range ([`ShardMeta`]).

use std::ops::Range;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// A shard that cannot be parsed, resolved or trusted.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ShardError {
    /// The text is not `I/N`.
    #[error("shard `{0}` is not of the form I/N")]
    NotIOverN(String),
    /// The text is not `I/N`, `auto` or `auto/N`.
    #[error("shard `{0}` is not of the form I/N, auto or auto/N")]
    NotAShardArg(String),
    /// The index or the count is not a number.
    #[error("shard {what} `{text}` is not a number")]
    NotANumber {
        /// `index` or `count`.
        what: &'static str,
        /// The text given.
        text: String,
    },
    /// The count of `auto/N` is not a positive number.
    #[error("shard count `{count}` of `{given}` is not a positive number")]
    BadAutoCount {
        /// The count's text.
        count: String,
        /// The whole argument.
        given: String,
    },
    /// The index is not below the count (or the count is 0).
    #[error("shard {index}/{count}: need 0 <= I < N")]
    OutOfRange {
        /// The index.
        index: u64,
        /// The count.
        count: u64,
    },
    /// `--shard auto` found a job array variable that is not a number.
    #[error("--shard auto: {key}=`{value}` is not a number")]
    EnvNotANumber {
        /// The variable.
        key: String,
        /// Its value.
        value: String,
    },
    /// `--shard auto` found a Slurm task id outside the array's bounds.
    #[error(
        "--shard auto: SLURM_ARRAY_TASK_ID={id} lies outside SLURM_ARRAY_TASK_MIN..=MAX = \
         {min}..={max}"
    )]
    SlurmOutside {
        /// The task id.
        id: u64,
        /// The array's first id.
        min: u64,
        /// The array's last id.
        max: u64,
    },
    /// `--shard auto` found a Slurm task id but no way to learn the array's size.
    #[error(
        "--shard auto: SLURM_ARRAY_TASK_ID is set but neither SLURM_ARRAY_TASK_COUNT nor \
         SLURM_ARRAY_TASK_MIN and _MAX; give the count as --shard auto/N"
    )]
    SlurmWithoutCount,
    /// The count of `--shard auto/N` disagrees with the Slurm array's.
    #[error("--shard auto/{given}: the Slurm array has {tasks} tasks, not {given}")]
    CountDisagrees {
        /// The count on the command line.
        given: u64,
        /// The array's task count.
        tasks: u64,
    },
    /// A Kubernetes Indexed Job's index without the count on the command line.
    #[error(
        "--shard auto: JOB_COMPLETION_INDEX={0} is set, but a Kubernetes Indexed Job does not \
         say how many completions it has; give the count as --shard auto/N"
    )]
    KubernetesWithoutCount(u64),
    /// `--shard auto` outside a job array.
    #[error(
        "--shard auto: no job array here (neither SLURM_ARRAY_TASK_ID nor JOB_COMPLETION_INDEX \
         is set); give the shard as I/N"
    )]
    NoJobArray,
    /// The job array's variables give an impossible shard.
    #[error("--shard auto: {0}")]
    Auto(Box<ShardError>),
    /// A shard record whose range is not its shard's.
    #[error("shard {shard} of {total} levels is {expected:?}, not {found:?}")]
    WrongRange {
        /// The shard.
        shard: Shard,
        /// Levels in the run.
        total: u64,
        /// The shard's range.
        expected: Range<u64>,
        /// The range the record gives.
        found: Range<u64>,
    },
}

/// Shard `index` of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Zero-based shard number.
    pub index: u64,
    /// Number of shards.
    pub count: u64,
}

impl Default for Shard {
    fn default() -> Self {
        Self { index: 0, count: 1 }
    }
}

impl Shard {
    /// The level indices of this shard out of `total`: `[total * i / n, total * (i + 1) / n)`.
    pub fn range(&self, total: u64) -> Range<u64> {
        let at = |i: u64| (u128::from(total) * u128::from(i) / u128::from(self.count)) as u64;
        at(self.index)..at(self.index + 1)
    }

    /// Shard `index` of `count`.
    ///
    /// # Errors
    /// A zero count, or an index not below it.
    pub fn new(index: u64, count: u64) -> Result<Self, ShardError> {
        if count == 0 || index >= count {
            return Err(ShardError::OutOfRange { index, count });
        }
        Ok(Self { index, count })
    }
}

impl FromStr for Shard {
    type Err = ShardError;

    fn from_str(s: &str) -> Result<Self, ShardError> {
        let (i, n) = s
            .split_once('/')
            .ok_or_else(|| ShardError::NotIOverN(s.to_string()))?;
        let number = |what, text: &str| {
            text.trim()
                .parse::<u64>()
                .map_err(|_| ShardError::NotANumber {
                    what,
                    text: text.to_string(),
                })
        };
        Self::new(number("index", i)?, number("count", n)?)
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// The `--shard` argument: a shard given outright, or `auto` (with an optional count) to be
/// read from a job array's environment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShardArg {
    /// `I/N`.
    Fixed(Shard),
    /// `auto` or `auto/N`.
    Auto(Option<u64>),
}

impl Default for ShardArg {
    fn default() -> Self {
        Self::Fixed(Shard::default())
    }
}

impl FromStr for ShardArg {
    type Err = ShardError;

    fn from_str(s: &str) -> Result<Self, ShardError> {
        let Some(rest) = s.trim().strip_prefix("auto") else {
            return s.parse().map(Self::Fixed);
        };
        match rest.strip_prefix('/') {
            None if rest.is_empty() => Ok(Self::Auto(None)),
            Some(n) => match n.trim().parse::<u64>() {
                Ok(n) if n > 0 => Ok(Self::Auto(Some(n))),
                _ => Err(ShardError::BadAutoCount {
                    count: n.to_string(),
                    given: s.to_string(),
                }),
            },
            None => Err(ShardError::NotAShardArg(s.to_string())),
        }
    }
}

impl ShardArg {
    /// The shard: as given, or from the environment `env` (a lookup such as
    /// `|k| std::env::var(k).ok()`).
    ///
    /// # Errors
    /// `auto` where no job array variable is set, a variable that is not a number, an index
    /// outside the count, or a command-line count that disagrees with Slurm's.
    pub fn resolve(self, env: impl Fn(&str) -> Option<String>) -> Result<Shard, ShardError> {
        let given = match self {
            Self::Fixed(s) => return Ok(s),
            Self::Auto(n) => n,
        };
        let number = |key: &str| -> Result<Option<u64>, ShardError> {
            env(key)
                .map(|v| {
                    v.trim()
                        .parse::<u64>()
                        .map_err(|_| ShardError::EnvNotANumber {
                            key: key.to_string(),
                            value: v.clone(),
                        })
                })
                .transpose()
        };
        let auto = |e| ShardError::Auto(Box::new(e));
        if let Some(id) = number("SLURM_ARRAY_TASK_ID")? {
            let (index, count) = slurm_shard(
                id,
                number("SLURM_ARRAY_TASK_COUNT")?,
                number("SLURM_ARRAY_TASK_MIN")?.zip(number("SLURM_ARRAY_TASK_MAX")?),
                given,
            )?;
            return Shard::new(index, count).map_err(auto);
        }
        if let Some(index) = number("JOB_COMPLETION_INDEX")? {
            let count = given.ok_or(ShardError::KubernetesWithoutCount(index))?;
            return Shard::new(index, count).map_err(auto);
        }
        Err(ShardError::NoJobArray)
    }
}

/// The `(index, count)` of Slurm task `id` of an array of `count` tasks or of ids
/// `min..=max`, checked against the command line's count `given`.
fn slurm_shard(
    id: u64,
    count: Option<u64>,
    bounds: Option<(u64, u64)>,
    given: Option<u64>,
) -> Result<(u64, u64), ShardError> {
    let (count, index) = match (count, bounds) {
        (_, Some((min, max))) if min <= id && id <= max => (max - min + 1, id - min),
        (_, Some((min, max))) => return Err(ShardError::SlurmOutside { id, min, max }),
        (Some(count), None) => (count, id),
        (None, None) => (given.ok_or(ShardError::SlurmWithoutCount)?, id),
    };
    match given {
        Some(n) if n != count => Err(ShardError::CountDisagrees {
            given: n,
            tasks: count,
        }),
        _ => Ok((index, count)),
    }
}

/// An archive's shard record (the `warren.shard` metadata), stored as JSON numbers:
/// `{"index":1,"count":4,"total":1000,"start":250,"end":500}`. Reading it checks that the
/// range is the shard's range of the run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "ShardRecord", try_from = "ShardRecord")]
pub struct ShardMeta {
    /// The shard.
    pub shard: Shard,
    /// Levels in the whole run.
    pub total: u64,
    /// The shard's index range.
    pub range: Range<u64>,
}

/// [`ShardMeta`] as stored: flat numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShardRecord {
    /// Zero-based shard number.
    pub index: u64,
    /// Number of shards.
    pub count: u64,
    /// Levels in the whole run.
    pub total: u64,
    /// The shard's first index.
    pub start: u64,
    /// One past its last index.
    pub end: u64,
}

impl ShardMeta {
    /// The record of `shard` of a run of `total` levels.
    pub fn new(shard: Shard, total: u64) -> Self {
        Self {
            shard,
            total,
            range: shard.range(total),
        }
    }
}

impl From<ShardMeta> for ShardRecord {
    fn from(m: ShardMeta) -> Self {
        Self {
            index: m.shard.index,
            count: m.shard.count,
            total: m.total,
            start: m.range.start,
            end: m.range.end,
        }
    }
}

impl TryFrom<ShardRecord> for ShardMeta {
    type Error = ShardError;

    /// Checks the shard and that the record's range is its range of the run.
    fn try_from(r: ShardRecord) -> Result<Self, ShardError> {
        let meta = Self::new(Shard::new(r.index, r.count)?, r.total);
        if meta.range != (r.start..r.end) {
            return Err(ShardError::WrongRange {
                shard: meta.shard,
                total: meta.total,
                expected: meta.range,
                found: r.start..r.end,
            });
        }
        Ok(meta)
    }
}

impl std::fmt::Display for ShardMeta {
    /// `I/N of C levels: START..END`, for people.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} of {} levels: {}..{}",
            self.shard, self.total, self.range.start, self.range.end
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_tile_the_range_in_order() {
        for total in [0u64, 1, 7, 100, 1_000_003] {
            for n in 1..6 {
                let mut next = 0;
                for i in 0..n {
                    let r = Shard { index: i, count: n }.range(total);
                    assert_eq!(r.start, next);
                    next = r.end;
                }
                assert_eq!(next, total);
            }
        }
    }

    #[test]
    fn parses_and_rejects() {
        assert_eq!(
            "1/4".parse::<Shard>().unwrap(),
            Shard { index: 1, count: 4 }
        );
        assert!("4/4".parse::<Shard>().is_err());
        assert!("1-4".parse::<Shard>().is_err());
        assert!("a/4".parse::<Shard>().is_err());
        assert!("0/0".parse::<Shard>().is_err());
    }

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |k| {
            vars.iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn auto_reads_slurm_and_kubernetes_job_arrays() {
        let auto: ShardArg = "auto".parse().unwrap();
        let slurm = [
            ("SLURM_ARRAY_TASK_ID", "2"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ];
        assert_eq!(auto.resolve(env(&slurm)), Ok(Shard { index: 2, count: 4 }));
        // An array 10-13: task 12 is shard 2 of 4.
        let ranged = [
            ("SLURM_ARRAY_TASK_ID", "12"),
            ("SLURM_ARRAY_TASK_MIN", "10"),
            ("SLURM_ARRAY_TASK_MAX", "13"),
        ];
        assert_eq!(auto.resolve(env(&ranged)), Ok(Shard { index: 2, count: 4 }));
        let k8s = [("JOB_COMPLETION_INDEX", "3")];
        let auto4: ShardArg = "auto/4".parse().unwrap();
        assert_eq!(auto4.resolve(env(&k8s)), Ok(Shard { index: 3, count: 4 }));
        assert_eq!(
            "1/3".parse::<ShardArg>().unwrap().resolve(env(&slurm)),
            Ok(Shard { index: 1, count: 3 })
        );
    }

    #[test]
    fn auto_without_a_job_array_or_with_a_bad_one_is_refused() {
        let auto: ShardArg = "auto".parse().unwrap();
        type Vars<'a> = &'a [(&'a str, &'a str)];
        let cases: [(Vars<'_>, ShardArg, &str); 6] = [
            (&[], auto, "no job array here"),
            (
                &[("JOB_COMPLETION_INDEX", "1")],
                auto,
                "give the count as --shard auto/N",
            ),
            (
                &[("JOB_COMPLETION_INDEX", "4")],
                ShardArg::Auto(Some(4)),
                "need 0 <= I < N",
            ),
            (&[("SLURM_ARRAY_TASK_ID", "x")], auto, "`x` is not a number"),
            (
                &[
                    ("SLURM_ARRAY_TASK_ID", "1"),
                    ("SLURM_ARRAY_TASK_COUNT", "4"),
                ],
                ShardArg::Auto(Some(3)),
                "has 4 tasks, not 3",
            ),
            (
                &[("SLURM_ARRAY_TASK_ID", "1")],
                auto,
                "neither SLURM_ARRAY_TASK_COUNT",
            ),
        ];
        for (vars, arg, want) in cases {
            let e = arg.resolve(env(vars)).unwrap_err().to_string();
            assert!(e.contains(want), "{vars:?}: {e}");
        }
        assert!("auto/0".parse::<ShardArg>().is_err());
        assert!("autox".parse::<ShardArg>().is_err());
    }

    #[test]
    fn shard_records_round_trip_as_json_numbers_and_check_their_range() {
        let meta = ShardMeta::new(Shard { index: 1, count: 4 }, 1000);
        let json = serde_json::to_string(&meta).unwrap();
        assert_eq!(
            json,
            r#"{"index":1,"count":4,"total":1000,"start":250,"end":500}"#
        );
        assert_eq!(serde_json::from_str::<ShardMeta>(&json).unwrap(), meta);
        assert_eq!(meta.to_string(), "1/4 of 1000 levels: 250..500");
        let record = |index, count, end| ShardRecord {
            index,
            count,
            total: 1000,
            start: 250,
            end,
        };
        let e = ShardMeta::try_from(record(1, 4, 501)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "shard 1/4 of 1000 levels is 250..500, not 250..501"
        );
        assert!(matches!(
            ShardMeta::try_from(record(4, 4, 500)),
            Err(ShardError::OutOfRange { index: 4, count: 4 })
        ));
        let through_serde = r#"{"index":1,"count":4,"total":1000,"start":250,"end":501}"#;
        assert!(serde_json::from_str::<ShardMeta>(through_serde).is_err());
        assert!(serde_json::from_str::<ShardMeta>(r#"{"index":1,"count":4}"#).is_err());
        assert!(serde_json::from_str::<ShardMeta>("\"1/4 of 1000 levels: 250..500\"").is_err());
    }
}
