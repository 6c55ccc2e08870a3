//! Leak-free dataset splits. Each level goes to the split its `canonical_hash` picks
//! ([`split_of`]; `layout_hash` in archives from before that column), so two levels equal up to
//! rotation, reflection or renumbering always land in the same split (no layout is in two), a level's split never changes when the archive grows or is regenerated with more
//! levels, and the splits' sizes follow the fractions asked for up to sampling noise. One
//! archive per split is written (atomically), carrying the source's schema and metadata plus a
//! `warren.split` record that `warren verify` checks level by level.
//!
//! In [`SplitFormat::Parquet`] the splits are the Parquet files of a dataset folder in the
//! Hugging Face Hub's layout instead, under the Hub's split names: `DIR/data/train-*.parquet`,
//! `validation-*.parquet` (our `val`) and `test-*.parquet`, with the same `warren.split`
//! records.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::UInt64Type;
use arrow_array::{BooleanArray, RecordBatch};
use arrow_schema::Schema;

use crate::archive::{Archive, ArchiveWriter, ParquetWriter, RunFooter, RunMeta, SplitMeta};
use crate::core::rng::mix;

use super::error::SplitError;

/// The names of the splits, in the order their shares are laid out on [0, 1).
pub const SPLITS: [&str; 3] = ["train", "val", "test"];

/// Salt of the split draw, so that it is independent of anything else the hash decides.
const SALT: u64 = 0x5b11_7e57_da7a_5e75;

/// The split (an index into `fractions`, laid out in order on [0, 1)) of a level whose
/// `layout_hash` is `hash`: a uniform draw from the hash alone.
///
/// # Runtime
/// O(splits), no allocation.
pub fn split_of(hash: u64, fractions: &[f64]) -> usize {
    let u = (mix(SALT, hash) >> 11) as f64 * (1.0 / (1u64 << 53) as f64);
    let mut edge = 0.0;
    for (i, f) in fractions.iter().enumerate() {
        edge += f;
        if u < edge {
            return i;
        }
    }
    // Rounding left the last edge a hair below 1: the draw belongs to the last split with a
    // share.
    fractions.iter().rposition(|&f| f > 0.0).unwrap_or(0)
}

/// What the splits are written as.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SplitFormat {
    /// One archive per split, `DIR/{train,val,test}.arrow`, stored as the source is
    /// (compressed or not).
    #[default]
    Arrow,
    /// A dataset folder in the Hugging Face Hub's layout,
    /// `DIR/data/{train,validation,test}-*.parquet`.
    Parquet,
}

/// How to split: the shares of [`SPLITS`] and the output format.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SplitOptions {
    /// Share of the levels for `train`.
    pub train: f64,
    /// Share for `val`.
    pub val: f64,
    /// Share for `test`.
    pub test: f64,
    /// What the splits are written as.
    pub format: SplitFormat,
}

impl Default for SplitOptions {
    /// 80% train, 10% val, 10% test, as archives.
    fn default() -> Self {
        SplitOptions {
            train: 0.8,
            val: 0.1,
            test: 0.1,
            format: SplitFormat::Arrow,
        }
    }
}

impl SplitOptions {
    /// The shares asked for, checked: each in [0, 1], adding up to 1.
    fn shares(&self) -> Result<[f64; 3], SplitError> {
        let shares = [self.train, self.val, self.test];
        for (name, share) in SPLITS.iter().zip(shares) {
            if !(0.0..=1.0).contains(&share) {
                return Err(SplitError::ShareOutOfRange { name, share });
            }
        }
        let sum: f64 = shares.iter().sum();
        if (sum - 1.0).abs() > 1e-9 {
            return Err(SplitError::SharesSum {
                train: self.train,
                val: self.val,
                test: self.test,
                sum,
            });
        }
        Ok(shares)
    }
}

/// One split written.
#[derive(Clone, Debug, PartialEq)]
pub struct SplitPart {
    /// The split (`train`, `val`, `test`), as its `warren.split` record names it.
    pub name: &'static str,
    /// The name its files go by: `name`, or in Parquet the Hub's (`validation` for `val`).
    pub file_name: &'static str,
    /// The share asked for.
    pub share: f64,
    /// Levels in it.
    pub levels: u64,
    /// Bytes written.
    pub bytes: u64,
    /// The archive, or the Parquet files' pattern (`DIR/data/validation-*.parquet`).
    pub path: PathBuf,
}

/// What a split did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SplitSummary {
    /// Levels in the source.
    pub levels: u64,
    /// The splits written (those with a share above 0), in [`SPLITS`] order.
    pub parts: Vec<SplitPart>,
}

/// The Hugging Face Hub's name of split `name` (its `validation` is our `val`).
fn hub_name(name: &'static str) -> &'static str {
    match name {
        "val" => "validation",
        other => other,
    }
}

/// Where one split's levels go.
enum Sink {
    Arrow(ArchiveWriter),
    Parquet(Box<ParquetWriter>),
}

impl Sink {
    fn write(&mut self, batch: &RecordBatch) -> Result<(), SplitError> {
        match self {
            Sink::Arrow(w) => w.write(batch)?,
            Sink::Parquet(w) => w.write(batch)?,
        }
        Ok(())
    }

    /// Closes the output with `footer`; returns the bytes written.
    fn finish(self, footer: &[(String, String)]) -> Result<u64, SplitError> {
        Ok(match self {
            Sink::Arrow(w) => w.finish(footer)?,
            Sink::Parquet(w) => w.finish(footer)?.0,
        })
    }
}

/// One split's output.
struct Out {
    part: SplitPart,
    schema: Arc<Schema>,
    writer: Sink,
}

/// Opens one writer per split with a share, under the source's schema plus its split record:
/// an archive storing its batches as the source does (compressed or not), or in Parquet the
/// split's Parquet files of the dataset folder `dir`.
fn open_outputs(
    archive: &Archive,
    run: &RunMeta,
    shares: [f64; 3],
    dir: &Path,
    format: SplitFormat,
) -> Result<Vec<Option<Out>>, SplitError> {
    let source = archive
        .path()
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let compression = archive.compression()?;
    let open = |name: &'static str, share: f64| -> Result<Out, SplitError> {
        let split = SplitMeta {
            name: name.to_string(),
            fractions: SPLITS.iter().map(|s| s.to_string()).zip(shares).collect(),
            source: source.clone(),
            canonical: archive.schema().field_with_name("canonical_hash").is_ok(),
        };
        let metadata = run.clone().with_split(Some(split)).to_metadata();
        let schema = Arc::new(Schema::new_with_metadata(
            archive.schema().fields().clone(),
            metadata,
        ));
        let (file_name, path, writer) = match format {
            SplitFormat::Parquet => {
                let hub = hub_name(name);
                let path = dir
                    .join(crate::archive::DATA_DIR)
                    .join(format!("{hub}-*.parquet"));
                let writer = ParquetWriter::create(dir, hub, &schema)?;
                (hub, path, Sink::Parquet(Box::new(writer)))
            }
            SplitFormat::Arrow => {
                let path = dir.join(format!("{name}.arrow"));
                let writer = ArchiveWriter::create_compressed(&path, &schema, compression)?;
                (name, path, Sink::Arrow(writer))
            }
        };
        let part = SplitPart {
            name,
            file_name,
            share,
            levels: 0,
            bytes: 0,
            path,
        };
        Ok(Out {
            part,
            schema,
            writer,
        })
    };
    SPLITS
        .iter()
        .zip(shares)
        .map(|(&name, share)| (share != 0.0).then(|| open(name, share)).transpose())
        .collect()
}

/// Splits the archive at `archive` into train, val and test by content, written into the
/// folder `out` (made if missing): `out/{train,val,test}.arrow`, or with
/// [`SplitFormat::Parquet`] a dataset folder. A split with a share of 0 is not written.
///
/// # Errors
/// Shares outside [0, 1] or not adding up to 1; an archive that is itself a split, cannot be
/// read or has no `layout_hash` column; an output that cannot be written (the message names
/// the file).
///
/// # Runtime
/// One pass over the archive: each batch decoded once and filtered once per split, O(levels)
/// time, one batch in memory.
pub fn split(
    archive: &Path,
    out: &Path,
    options: SplitOptions,
) -> Result<SplitSummary, SplitError> {
    let shares = options.shares()?;
    let source = Archive::open(archive)?;
    let run = RunMeta::from_archive(&source)?;
    if run.split.is_some() {
        return Err(SplitError::AlreadySplit {
            path: archive.to_path_buf(),
        });
    }
    std::fs::create_dir_all(out).map_err(|source| SplitError::MakeFolder {
        path: out.to_path_buf(),
        source,
    })?;
    let mut outs = open_outputs(&source, &run, shares, out, options.format)?;
    let mut levels = 0u64;
    // Every symmetric copy of a level goes where the level goes (archives from before
    // `canonical_hash`: by the exact layout).
    let key = if source.schema().field_with_name("canonical_hash").is_ok() {
        "canonical_hash"
    } else {
        "layout_hash"
    };
    for b in 0..source.batch_count() {
        let batch = source.batch(b)?;
        let hashes = batch
            .column_by_name(key)
            .and_then(|c| c.as_primitive_opt::<UInt64Type>())
            .ok_or_else(|| SplitError::NoLayoutHash {
                path: archive.to_path_buf(),
            })?;
        let picks: Vec<usize> = hashes
            .values()
            .iter()
            .map(|&h| split_of(h, &shares))
            .collect();
        levels += picks.len() as u64;
        for (i, out) in outs.iter_mut().enumerate() {
            if let Some(out) = out {
                write_picked(out, &batch, &picks, i)?;
            }
        }
        drop(batch);
        source.release(b);
    }
    let mut parts = Vec::new();
    for out in outs.into_iter().flatten() {
        let footer = RunFooter {
            levels: out.part.levels,
            ..RunFooter::default()
        };
        let bytes = out.writer.finish(&footer.to_metadata())?;
        parts.push(SplitPart { bytes, ..out.part });
    }
    Ok(SplitSummary { levels, parts })
}

/// Writes the rows of `batch` whose pick is split `i` to `out`.
fn write_picked(
    out: &mut Out,
    batch: &RecordBatch,
    picks: &[usize],
    i: usize,
) -> Result<(), SplitError> {
    let mask = BooleanArray::from_iter(picks.iter().map(|&p| Some(p == i)));
    let rows = RecordBatch::try_new(
        out.schema.clone(),
        arrow_select::filter::filter_record_batch(batch, &mask)?
            .columns()
            .to_vec(),
    )?;
    if rows.num_rows() > 0 {
        out.part.levels += rows.num_rows() as u64;
        out.writer.write(&rows)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_follow_the_shares_and_depend_on_the_hash_alone() {
        let shares = [0.8, 0.1, 0.1];
        let mut counts = [0u64; 3];
        for h in 0..100_000u64 {
            let hash = mix(1, h);
            let s = split_of(hash, &shares);
            assert_eq!(s, split_of(hash, &shares));
            counts[s] += 1;
        }
        // Binomial noise at n = 100,000 is about 0.1% of n; allow 0.5%.
        for (c, f) in counts.iter().zip(shares) {
            assert!((*c as f64 / 1e5 - f).abs() < 0.005, "{counts:?}");
        }
        // A zero share gets nothing, even at the edge.
        assert!((0..10_000).all(|h| split_of(mix(2, h), &[1.0, 0.0, 0.0]) == 0));
        assert!((0..10_000).all(|h| split_of(mix(3, h), &[0.0, 0.0, 1.0]) == 2));
    }
}
