//! Checking stored levels, batch by batch (used by `warren verify` and by the Python package's
//! `warren.verify`): ascending indices, each seed `mix(master_seed, index)`, the generator's own
//! invariants, and optionally a fresh generation of each seed compared with the stored level.

use arrow_array::RecordBatch;

use crate::archive::{ArchiveColumns, BatchView, ColumnError};
use crate::batch::Filter;
use crate::core::generator::{Generator, LevelRecord};
use crate::core::identity::{IdentityScratch, canonical_hash};
use crate::core::rng::mix;

/// What checking one batch of levels found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BatchCheck {
    /// The first index in the batch (`u64::MAX` when it is empty).
    pub first: u64,
    /// The last index.
    pub last: u64,
    /// Levels checked.
    pub rows: u64,
    /// The first violations, described (`level I: ...`).
    pub shown: Vec<String>,
    /// Violations in all.
    pub count: u64,
}

/// Checks every level of `batch` (made by `generator` from `master_seed`): ascending indices,
/// seeds, the generator's invariants, the run's `--where` `filter` if it had one and, with
/// `regenerate`, a fresh generation of each seed (only meaningful when this build of warren
/// made the levels); describes at most `show` violations.
///
/// # Errors
/// A batch whose columns are not the generator's (the error names the column).
pub fn check_levels<G: Generator>(
    generator: &G,
    batch: &RecordBatch,
    master_seed: u64,
    regenerate: bool,
    show: usize,
    filter: Option<&Filter>,
) -> Result<BatchCheck, ColumnError> {
    let mut columns = ArchiveColumns::from(generator.columns());
    // An archive from before `canonical_hash` is checked without it.
    columns.canonical = batch.schema().field_with_name("canonical_hash").is_ok();
    let view = BatchView::new(batch, &columns)?;
    let identity_columns = generator.columns();
    let mut identity = IdentityScratch::default();
    let mut metrics = Vec::new();
    let mut extra = Vec::new();
    let mut scratch = generator.new_scratch();
    let mut shown = Vec::new();
    let mut count = 0u64;
    let (mut first, mut last) = (u64::MAX, 0);
    let mut previous: Option<u64> = None;
    for row in 0..view.rows() {
        let record = view.record(row, &mut metrics, &mut extra);
        let mut problem = None;
        if let Some(p) = previous
            && record.index <= p
        {
            problem = Some(format!("index {} follows {p}", record.index));
        }
        previous = Some(record.index);
        first = first.min(record.index);
        last = last.max(record.index);
        if problem.is_none() && record.seed != mix(master_seed, record.index) {
            problem = Some("seed is not mix(master_seed, index)".to_string());
        }
        if problem.is_none() {
            problem = generator.verify(&record).err().map(|v| v.to_string());
        }
        if problem.is_none()
            && let Some(f) = filter.filter(|f| !f.passes(record.level.metrics))
        {
            problem = Some(format!("does not pass the run's --where {:?}", f.text()));
        }
        // The invariants first (they say what is wrong), then the content hash, which any
        // change to a stored column breaks.
        if problem.is_none() && record.level.content_hash() != view.layout_hash(row) {
            problem = Some("layout_hash is not the hash of the stored level".to_string());
        }
        if problem.is_none()
            && let Some(stored) = view.canonical_hash(row)
            && canonical_hash(&identity_columns, &record.level, &mut identity) != stored
        {
            problem = Some("canonical_hash is not the canonical hash of the stored level".into());
        }
        if problem.is_none() && regenerate {
            problem = regenerated(generator, &mut scratch, &record);
        }
        if let Some(p) = problem {
            count += 1;
            if shown.len() < show {
                shown.push(format!("level {}: {p}", record.index));
            }
        }
    }
    Ok(BatchCheck {
        first,
        last,
        rows: view.rows() as u64,
        shown,
        count,
    })
}

/// Levels are a pure function of (profile, seed): generating the seed again must give the
/// stored level exactly (`f32` metrics as stored, that is after rounding to `f32`). This catches
/// what invariants alone cannot (a level of another profile,
/// an edited metric that stays self-consistent) and any determinism regression between builds.
fn regenerated<G: Generator>(
    generator: &G,
    scratch: &mut G::Scratch,
    record: &LevelRecord<'_>,
) -> Option<String> {
    match generator.generate_at(record.index, record.seed, scratch) {
        Err(e) => Some(format!(
            "its seed fails to generate ({e}) yet a level is stored"
        )),
        Ok(fresh)
            if generator.columns().stored(&fresh).content_hash() != record.level.content_hash() =>
        {
            Some("differs from a fresh generation of its seed (layout_hash)".into())
        }
        Ok(fresh) if !same_metrics(generator, fresh.metrics, record.level.metrics) => {
            Some("metrics differ from a fresh generation of its seed".into())
        }
        Ok(_) => None,
    }
}

/// Whether freshly computed metrics equal the stored ones: `u32` metrics exactly, `f32` ones
/// after the same rounding to `f32` the archive applied.
fn same_metrics<G: Generator>(generator: &G, fresh: &[f64], stored: &[f64]) -> bool {
    let specs = generator.columns().metrics;
    fresh.len() == stored.len()
        && fresh.iter().zip(stored).enumerate().all(|(i, (&f, &s))| {
            match specs.get(i).map(|m| m.kind) {
                Some(crate::core::generator::MetricKind::F32) => f as f32 == s as f32,
                _ => f == s,
            }
        })
}
