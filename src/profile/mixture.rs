//! A mixture of one kind's generators (`warren pack`'s splits): one generator per variant of a
//! base profile (the base with that variant's `--set` overrides), each level made by the variant
//! its seed picks. The pick is a pure function of the level's seed ([`Mixture::part_of`]), so
//! `warren verify` picks the same variant again from the seed an archive stores, and the
//! contract of DESIGN.md ("Seeds and determinism") holds: level `i` depends only on (profile,
//! variants, master seed, `i`).
//!
//! The parts write one archive, so they must agree on its columns: all but the grid's shape
//! (a mixture of sizes stores its grids as `binary` with `grid_width` / `grid_height`), tag
//! names and rule names. [`Mixture::new`] refuses parts that differ in more.

use crate::core::error::{GenError, Violation};
use crate::core::generator::{Columns, Generator, Level, LevelRecord};
use crate::core::rng::mix;

/// The salt of the variant pick: a level's variant comes from `mix(seed, PICK_SALT)`, a stream
/// no generator draws from (they start their own from the seed itself).
const PICK_SALT: u64 = 0x7061_636b_5f6d_6978; // "pack_mix"

/// A mixture of a profile's variants as a run records it (`warren.mixture`): level `i` was
/// made by the variant its seed picks ([`Mixture::part_of`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MixtureSpec {
    /// Each variant's `--set` overrides of the stored profile (`maze.width=8`).
    pub variants: Vec<Vec<String>>,
    /// Each variant's integer weight.
    pub weights: Vec<u32>,
    /// Store grids as `binary` even when every part's has one size (so that splits of several
    /// mixtures, some of one size and some of many, share one schema).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub binary_grid: bool,
}

/// Why parts cannot form a mixture.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MixtureError {
    /// No parts, or weights that do not match the parts or add up to nothing.
    #[error("a mixture needs one positive weight per part ({parts} parts, weights {weights:?})")]
    Weights {
        /// Parts given.
        parts: usize,
        /// Weights given.
        weights: Vec<u32>,
    },
    /// Two parts write different columns (beyond the grid's shape), tags or rules.
    #[error(
        "variant {part} writes other {what} than variant 0: a mixture's variants must differ \
         only in values that keep the archive's columns"
    )]
    Columns {
        /// The part that differs from part 0.
        part: usize,
        /// What differs: `columns`, `tag names` or `rule names`.
        what: &'static str,
    },
}

/// Generators of one kind mixed by weight; see the module documentation.
#[derive(Debug)]
pub struct Mixture<G> {
    parts: Vec<G>,
    /// Running sums of the weights: part `p` takes picks in `[cumulative[p-1], cumulative[p])`.
    cumulative: Vec<u64>,
    columns: Columns,
}

impl<G: Generator> Mixture<G> {
    /// A mixture of `parts` with integer `weights` (one per part, their sum positive).
    ///
    /// # Errors
    /// [`MixtureError`]: no parts, weights that do not fit, or parts whose columns differ in
    /// more than the grid's shape.
    pub fn new(parts: Vec<G>, weights: &[u32]) -> Result<Self, MixtureError> {
        let bad_weights = || MixtureError::Weights {
            parts: parts.len(),
            weights: weights.to_vec(),
        };
        if parts.is_empty() || weights.len() != parts.len() || weights.iter().all(|&w| w == 0) {
            return Err(bad_weights());
        }
        let cumulative = weights
            .iter()
            .scan(0u64, |sum, &w| {
                *sum += u64::from(w);
                Some(*sum)
            })
            .collect();
        let first = parts[0].columns();
        let mut columns = first;
        for (p, part) in parts.iter().enumerate().skip(1) {
            let c = part.columns();
            if c.grid_shape != first.grid_shape {
                columns.grid_shape = None;
            }
            let what = if (Columns {
                grid_shape: None,
                ..c
            }) != (Columns {
                grid_shape: None,
                ..first
            }) {
                Some("columns")
            } else if part.tag_names() != parts[0].tag_names() {
                Some("tag names")
            } else if part.rule_names() != parts[0].rule_names() {
                Some("rule names")
            } else {
                None
            };
            if let Some(what) = what {
                return Err(MixtureError::Columns { part: p, what });
            }
        }
        Ok(Self {
            parts,
            cumulative,
            columns,
        })
    }

    /// The part that makes the level of `seed`: a weighted pick from `mix(seed, PICK_SALT)`.
    ///
    /// # Runtime
    /// One mix and a scan of the parts (a handful): a few nanoseconds.
    pub fn part_of(&self, seed: u64) -> usize {
        let total = *self.cumulative.last().expect("at least one part");
        // PERF: a multiply-high maps 64 random bits onto [0, total) without a division.
        let pick = ((u128::from(mix(seed, PICK_SALT)) * u128::from(total)) >> 64) as u64;
        self.cumulative
            .iter()
            .position(|&end| pick < end)
            .expect("pick below the total")
    }

    /// The same mixture storing its grids as `binary` whatever their sizes (see
    /// [`MixtureSpec::binary_grid`]).
    pub fn with_binary_grid(mut self, binary: bool) -> Self {
        if binary {
            self.columns.grid_shape = None;
        }
        self
    }

    /// The parts, one per variant.
    pub fn parts(&self) -> &[G] {
        &self.parts
    }
}

impl<G: Generator> Generator for Mixture<G> {
    /// One scratch per part, made when the part first makes a level: a part's scratch may be
    /// sized for its configuration.
    type Scratch = Vec<Option<G::Scratch>>;

    fn kind(&self) -> &'static str {
        self.parts[0].kind()
    }

    fn columns(&self) -> Columns {
        self.columns
    }

    fn new_scratch(&self) -> Self::Scratch {
        self.parts.iter().map(|_| None).collect()
    }

    fn generate<'s>(
        &self,
        seed: u64,
        scratch: &'s mut Self::Scratch,
    ) -> Result<Level<'s>, GenError> {
        let p = self.part_of(seed);
        let part = &self.parts[p];
        part.generate(seed, scratch[p].get_or_insert_with(|| part.new_scratch()))
    }

    fn generate_at<'s>(
        &self,
        index: u64,
        seed: u64,
        scratch: &'s mut Self::Scratch,
    ) -> Result<Level<'s>, GenError> {
        let p = self.part_of(seed);
        let part = &self.parts[p];
        part.generate_at(
            index,
            seed,
            scratch[p].get_or_insert_with(|| part.new_scratch()),
        )
    }

    fn verify(&self, record: &LevelRecord<'_>) -> Result<(), Violation> {
        self.parts[self.part_of(record.seed)].verify(record)
    }

    fn tag_names(&self) -> Vec<String> {
        self.parts[0].tag_names()
    }

    fn rule_names(&self) -> Vec<String> {
        self.parts[0].rule_names()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::maze::{MazeConfig, MazeGenerator};

    fn maze(side: u32) -> MazeGenerator {
        MazeGenerator::new(MazeConfig {
            width: side,
            height: side,
            ..MazeConfig::default()
        })
        .unwrap()
    }

    #[test]
    fn picks_follow_the_weights_and_the_seed_alone() {
        let m = Mixture::new(vec![maze(4), maze(6), maze(8)], &[1, 2, 1]).unwrap();
        let mut counts = [0u32; 3];
        for i in 0..4000 {
            counts[m.part_of(mix(9, i))] += 1;
        }
        // Expected 1000 / 2000 / 1000.
        assert!(counts[0].abs_diff(1000) < 150, "{counts:?}");
        assert!(counts[1].abs_diff(2000) < 150, "{counts:?}");
        assert_eq!(m.part_of(mix(9, 17)), m.part_of(mix(9, 17)));
    }

    #[test]
    fn a_mixture_of_sizes_stores_binary_grids_of_each_size() {
        let m = Mixture::new(vec![maze(4), maze(6)], &[1, 1]).unwrap();
        assert_eq!(m.columns().grid_shape, None);
        let mut scratch = m.new_scratch();
        for i in 0..20 {
            let seed = mix(3, i);
            let side = [9, 13][m.part_of(seed)];
            let level = m.generate_at(i, seed, &mut scratch).unwrap();
            assert_eq!(level.grid.unwrap().width, side);
        }
        let same = Mixture::new(vec![maze(5), maze(5)], &[1, 1]).unwrap();
        assert_eq!(same.columns().grid_shape, Some((11, 11)));
    }

    #[test]
    fn bad_weights_are_refused() {
        assert!(Mixture::new(vec![maze(4)], &[0]).is_err());
        assert!(Mixture::new(vec![maze(4)], &[1, 1]).is_err());
        assert!(Mixture::<MazeGenerator>::new(vec![], &[]).is_err());
    }
}
