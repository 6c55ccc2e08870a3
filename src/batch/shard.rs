//! Shards: `--shard I/N` splits a run's index range `0..count` into N contiguous pieces, so the
//! shard files, concatenated in order, hold exactly the levels of the unsharded run.

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
        if count == 0 || index >= count {
            return Err(format!("shard {index}/{count}: need 0 <= I < N"));
        }
        Ok(Self { index, count })
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
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
}
