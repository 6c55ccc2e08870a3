//! Shards: `--shard I/N` splits a run's index range `0..count` into N contiguous pieces, so the
//! shard files, concatenated in order (or joined by `warren merge`), hold exactly the levels of
//! the unsharded run. `--shard auto` takes I and N from a job array's environment: Slurm's
//! `SLURM_ARRAY_TASK_ID` with `SLURM_ARRAY_TASK_COUNT` (or `SLURM_ARRAY_TASK_MIN`/`_MAX`), or a
//! Kubernetes Indexed Job's `JOB_COMPLETION_INDEX` with the count on the command line
//! (`--shard auto/N`). An archive records its shard as `I/N of C levels: START..END`
//! ([`ShardMeta`]).

use std::ops::Range;
use std::str::FromStr;

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

    fn new(index: u64, count: u64) -> Result<Self, String> {
        if count == 0 || index >= count {
            return Err(format!("shard {index}/{count}: need 0 <= I < N"));
        }
        Ok(Self { index, count })
    }
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let (i, n) = s
            .split_once('/')
            .ok_or_else(|| format!("shard `{s}` is not of the form I/N"))?;
        let index: u64 = i
            .trim()
            .parse()
            .map_err(|_| format!("shard index `{i}` is not a number"))?;
        let count: u64 = n
            .trim()
            .parse()
            .map_err(|_| format!("shard count `{n}` is not a number"))?;
        Self::new(index, count)
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
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let Some(rest) = s.trim().strip_prefix("auto") else {
            return s.parse().map(Self::Fixed);
        };
        match rest.strip_prefix('/') {
            None if rest.is_empty() => Ok(Self::Auto(None)),
            Some(n) => match n.trim().parse::<u64>() {
                Ok(n) if n > 0 => Ok(Self::Auto(Some(n))),
                _ => Err(format!(
                    "shard count `{n}` of `{s}` is not a positive number"
                )),
            },
            None => Err(format!(
                "shard `{s}` is not of the form I/N, auto or auto/N"
            )),
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
    pub fn resolve(self, env: impl Fn(&str) -> Option<String>) -> Result<Shard, String> {
        let given = match self {
            Self::Fixed(s) => return Ok(s),
            Self::Auto(n) => n,
        };
        let number = |key: &str| -> Result<Option<u64>, String> {
            env(key)
                .map(|v| {
                    v.trim()
                        .parse::<u64>()
                        .map_err(|_| format!("--shard auto: {key}=`{v}` is not a number"))
                })
                .transpose()
        };
        if let Some(id) = number("SLURM_ARRAY_TASK_ID")? {
            let (count, index) = match (
                number("SLURM_ARRAY_TASK_COUNT")?,
                number("SLURM_ARRAY_TASK_MIN")?,
                number("SLURM_ARRAY_TASK_MAX")?,
            ) {
                (_, Some(min), Some(max)) if min <= id && id <= max => (max - min + 1, id - min),
                (_, Some(min), Some(max)) => {
                    return Err(format!(
                        "--shard auto: SLURM_ARRAY_TASK_ID={id} lies outside \
                         SLURM_ARRAY_TASK_MIN..=MAX = {min}..={max}"
                    ));
                }
                (Some(count), _, _) => (count, id),
                (None, _, _) => match given {
                    Some(n) => (n, id),
                    None => {
                        return Err("--shard auto: SLURM_ARRAY_TASK_ID is set but neither \
                                    SLURM_ARRAY_TASK_COUNT nor SLURM_ARRAY_TASK_MIN and _MAX; \
                                    give the count as --shard auto/N"
                            .to_string());
                    }
                },
            };
            if let Some(n) = given.filter(|&n| n != count) {
                return Err(format!(
                    "--shard auto/{n}: the Slurm array has {count} tasks, not {n}"
                ));
            }
            return Shard::new(index, count).map_err(|e| format!("--shard auto: {e}"));
        }
        if let Some(index) = number("JOB_COMPLETION_INDEX")? {
            let Some(count) = given else {
                return Err(format!(
                    "--shard auto: JOB_COMPLETION_INDEX={index} is set, but a Kubernetes \
                     Indexed Job does not say how many completions it has; give the count as \
                     --shard auto/N"
                ));
            };
            return Shard::new(index, count).map_err(|e| format!("--shard auto: {e}"));
        }
        Err(
            "--shard auto: no job array here (neither SLURM_ARRAY_TASK_ID nor \
             JOB_COMPLETION_INDEX is set); give the shard as I/N"
                .to_string(),
        )
    }
}

/// An archive's shard record, `I/N of C levels: START..END` (the `warren.shard` metadata).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardMeta {
    /// The shard.
    pub shard: Shard,
    /// Levels in the whole run.
    pub total: u64,
    /// The shard's index range.
    pub range: Range<u64>,
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

impl std::fmt::Display for ShardMeta {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} of {} levels: {}..{}",
            self.shard, self.total, self.range.start, self.range.end
        )
    }
}

impl FromStr for ShardMeta {
    type Err = String;

    /// Parses the record and checks that its range is the shard's.
    fn from_str(s: &str) -> Result<Self, String> {
        let bad = || format!("shard record `{s}` is not `I/N of C levels: START..END`");
        let (shard, rest) = s.split_once(" of ").ok_or_else(bad)?;
        let (total, range) = rest.split_once(" levels: ").ok_or_else(bad)?;
        let (start, end) = range.split_once("..").ok_or_else(bad)?;
        let shard: Shard = shard.parse()?;
        let total: u64 = total.parse().map_err(|_| bad())?;
        let range = start.parse().map_err(|_| bad())?..end.parse().map_err(|_| bad())?;
        let meta = Self::new(shard, total);
        if meta.range != range {
            return Err(format!(
                "shard record `{s}`: shard {shard} of {total} levels is {:?}, not {range:?}",
                meta.range
            ));
        }
        Ok(meta)
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
            let e = arg.resolve(env(vars)).unwrap_err();
            assert!(e.contains(want), "{vars:?}: {e}");
        }
        assert!("auto/0".parse::<ShardArg>().is_err());
        assert!("autox".parse::<ShardArg>().is_err());
    }

    #[test]
    fn shard_records_round_trip_and_check_their_range() {
        let meta = ShardMeta::new(Shard { index: 1, count: 4 }, 1000);
        assert_eq!(meta.to_string(), "1/4 of 1000 levels: 250..500");
        assert_eq!(meta.to_string().parse::<ShardMeta>(), Ok(meta));
        assert!("1/4 of 1000 levels: 250..501".parse::<ShardMeta>().is_err());
        assert!("1/4 of many levels: 250..500".parse::<ShardMeta>().is_err());
        assert!("garbage".parse::<ShardMeta>().is_err());
    }
}
