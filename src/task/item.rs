//! One task item as a task writes it (reused across items, so a warm worker does not allocate),
//! the split rule that keeps train, validation and test apart, and the seeds of items.

use crate::core::grid::Grid;
use crate::core::rng::{mix, splitmix64};

/// The three splits of a dataset. Item `i` of split `p` of a run with seed `S` is drawn from
/// `mix(mix(S, i), p)` (never `S + i`), and keeps only puzzles whose identity hash falls in
/// `p`'s third ([`in_split`]), so no puzzle can be in two splits whatever the seeds.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum Split {
    /// Training items.
    #[default]
    Train,
    /// Validation items.
    Validation,
    /// Test items.
    Test,
}

impl Split {
    /// Every split.
    pub const ALL: [Split; 3] = [Split::Train, Split::Validation, Split::Test];

    /// The split's number: 0 train, 1 validation, 2 test.
    pub fn code(self) -> u64 {
        match self {
            Split::Train => 0,
            Split::Validation => 1,
            Split::Test => 2,
        }
    }

    /// The split's name (`train`, `validation`, `test`).
    pub fn name(self) -> &'static str {
        match self {
            Split::Train => "train",
            Split::Validation => "validation",
            Split::Test => "test",
        }
    }

    /// The split called `name` (`val` too).
    pub fn from_name(name: &str) -> Option<Split> {
        match name {
            "train" => Some(Split::Train),
            "validation" | "val" => Some(Split::Validation),
            "test" => Some(Split::Test),
            _ => None,
        }
    }
}

/// Salt of the split's stream, so that split seeds are unrelated to level seeds.
const SPLIT_SALT: u64 = 0x7A5C_5E1D_0B5E_55ED;

/// The random stream of item `seed` (the engine's `mix(S, i)`) in `split`.
pub fn item_seed(seed: u64, split: Split) -> u64 {
    mix(seed ^ SPLIT_SALT, split.code())
}

/// Whether a puzzle with identity hash `identity` belongs to `split`: each split owns one
/// third of the identity space, so the same puzzle (same grid, start and goal; same graph) can
/// never be drawn into two splits.
#[inline]
pub fn in_split(identity: u64, split: Split) -> bool {
    splitmix64(identity ^ SPLIT_SALT) % 3 == split.code()
}

/// What a task writes for one item. Strings and buffers keep their allocations across items.
#[derive(Default)]
pub struct ItemOut {
    /// The prompt text.
    pub question: String,
    /// The exact oracle answer.
    pub answer: String,
    /// Everything a scorer needs besides the answer, as one JSON object with a `task` key (the
    /// `reward_model.ground_truth` of verl's rows, `metadata.ground_truth` of reasoning-gym's).
    pub ground_truth: String,
    /// The solver trace (empty without `task.trace`).
    pub trace: String,
    /// The PNG of a `png` rendering (empty otherwise).
    pub image: Vec<u8>,
    /// Metric values, in the task's metric column order.
    pub metrics: Vec<f64>,
    /// Grid tasks: the level's tile grid as drawn (cell codes of `core::grid::cell`).
    pub grid: Grid,
    /// Graph tasks: vertex positions and edges.
    pub x: Vec<f32>,
    /// Graph tasks: vertex y positions.
    pub y: Vec<f32>,
    /// Graph tasks: edge sources.
    pub src: Vec<u32>,
    /// Graph tasks: edge destinations.
    pub dst: Vec<u32>,
    /// Graph tasks: edge flags (0).
    pub flags: Vec<u8>,
    /// The puzzle's identity hash (what [`in_split`] partitions).
    pub identity: u64,
}

impl ItemOut {
    /// Empties every part, keeping the allocations.
    pub fn clear(&mut self) {
        self.question.clear();
        self.answer.clear();
        self.ground_truth.clear();
        self.trace.clear();
        self.image.clear();
        self.metrics.clear();
        self.x.clear();
        self.y.clear();
        self.src.clear();
        self.dst.clear();
        self.flags.clear();
        self.identity = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_partition_identities_evenly() {
        let mut counts = [0u32; 3];
        for id in 0..30_000u64 {
            let owners: Vec<_> = Split::ALL.iter().filter(|s| in_split(id, **s)).collect();
            assert_eq!(owners.len(), 1);
            counts[owners[0].code() as usize] += 1;
        }
        assert!(
            counts.iter().all(|&c| (9_500..10_500).contains(&c)),
            "{counts:?}"
        );
    }

    #[test]
    fn item_seeds_differ_by_split_and_do_not_shift_with_the_master_seed() {
        let a: Vec<u64> = (0..100)
            .map(|i| item_seed(mix(1, i), Split::Train))
            .collect();
        let b: Vec<u64> = (0..100)
            .map(|i| item_seed(mix(2, i), Split::Train))
            .collect();
        let v: Vec<u64> = (0..100)
            .map(|i| item_seed(mix(1, i), Split::Validation))
            .collect();
        assert!(a.iter().all(|x| !b.contains(x) && !v.contains(x)));
    }
}
