//! `warren split ARCHIVE --train 0.8 --val 0.1 --test 0.1 --out DIR`: leak-free dataset
//! splits. Each level goes to the split its `layout_hash` picks ([`split_of`]), so two levels
//! with one layout always land in the same split (no layout is in two), a level's split never
//! changes when the archive grows or is regenerated with more levels, and the splits' sizes
//! follow the fractions asked for up to sampling noise. One archive per split is written
//! (atomically) into DIR, carrying the source's schema and metadata plus a `warren.split`
//! record that `warren verify` checks level by level.
//!
//! With `--format parquet` the splits are the Parquet files of a dataset folder in the Hugging
//! Face Hub's layout instead, under the Hub's split names: `DIR/data/train-*.parquet`,
//! `validation-*.parquet` (our `val`) and `test-*.parquet`, with the same `warren.split`
//! records; `warren verify DIR` checks every split.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use arrow_array::cast::AsArray;
use arrow_array::types::UInt64Type;
use arrow_array::{BooleanArray, RecordBatch};
use arrow_schema::Schema;

use crate::archive::{Archive, ArchiveWriter, ParquetWriter, RunFooter, RunMeta, SplitMeta};
use crate::core::rng::mix;

/// Arguments of `split`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The archive to split.
    archive: PathBuf,
    /// Share of the levels for `train.arrow`.
    #[arg(long, default_value_t = 0.8)]
    train: f64,
    /// Share for `val.arrow`.
    #[arg(long, default_value_t = 0.1)]
    val: f64,
    /// Share for `test.arrow`.
    #[arg(long, default_value_t = 0.1)]
    test: f64,
    /// Folder for the split archives (made if missing).
    #[arg(long)]
    out: PathBuf,
    /// `arrow`: one archive per split, `DIR/{train,val,test}.arrow`. `parquet`: a dataset
    /// folder in the Hugging Face Hub's layout, `DIR/data/{train,validation,test}-*.parquet`.
    #[arg(long, default_value = "arrow", value_parser = ["arrow", "parquet"])]
    format: String,
    /// No report.
    #[arg(long, short)]
    quiet: bool,
}

/// The names of the splits, in the order their shares are laid out on [0, 1).
pub const SPLITS: [&str; 3] = ["train", "val", "test"];

/// Salt of the split draw, so that it is independent of anything else the hash decides.
const SALT: u64 = 0x5b11_7e57_da7a_5e75;

/// The split (an index into `fractions`, laid out in order on [0, 1)) of a level whose
/// `layout_hash` is `hash`: a uniform draw from the hash alone.
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

/// The shares asked for, checked: each in [0, 1], adding up to 1.
fn fractions(args: &Args) -> Result<[f64; 3]> {
    let shares = [args.train, args.val, args.test];
    for (name, f) in SPLITS.iter().zip(shares) {
        if !(0.0..=1.0).contains(&f) {
            bail!("--{name} {f}: a share must lie between 0 and 1");
        }
    }
    let sum: f64 = shares.iter().sum();
    if (sum - 1.0).abs() > 1e-9 {
        bail!(
            "--train {} --val {} --test {} add up to {sum:.4}, not 1",
            args.train,
            args.val,
            args.test
        );
    }
    Ok(shares)
}

/// The Hugging Face Hub's name of split `name` (its `validation` is our `val`).
fn hub_name(name: &str) -> &str {
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
    fn write(&mut self, batch: &RecordBatch) -> Result<()> {
        match self {
            Sink::Arrow(w) => w.write(batch)?,
            Sink::Parquet(w) => w.write(batch)?,
        }
        Ok(())
    }

    /// Closes the output with `footer`; returns the bytes written.
    fn finish(self, footer: &[(String, String)]) -> Result<u64> {
        Ok(match self {
            Sink::Arrow(w) => w.finish(footer)?,
            Sink::Parquet(w) => w.finish(footer)?.0,
        })
    }
}

/// One split's output.
struct Out {
    name: &'static str,
    /// The archive, or the Parquet files' pattern (`DIR/data/validation-*.parquet`).
    path: PathBuf,
    schema: Arc<Schema>,
    writer: Sink,
    levels: u64,
}

/// Opens one writer per split with a share, under the source's schema plus its split record:
/// an archive storing its batches as the source does (compressed or not), or with `parquet`
/// the split's Parquet files of the dataset folder `dir`.
fn open_outputs(
    archive: &Archive,
    run: &RunMeta,
    shares: [f64; 3],
    dir: &Path,
    parquet: bool,
) -> Result<Vec<Option<Out>>> {
    let source = archive
        .path()
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let compression = archive.compression()?;
    SPLITS
        .iter()
        .zip(shares)
        .map(|(&name, share)| {
            if share == 0.0 {
                return Ok(None);
            }
            let split = SplitMeta {
                name: name.to_string(),
                fractions: SPLITS.iter().map(|s| s.to_string()).zip(shares).collect(),
                source: source.clone(),
            };
            let metadata = run.clone().with_split(Some(split)).to_metadata();
            let schema = Arc::new(Schema::new_with_metadata(
                archive.schema().fields().clone(),
                metadata,
            ));
            let (path, writer) = if parquet {
                let hub = hub_name(name);
                let path = dir
                    .join(crate::archive::DATA_DIR)
                    .join(format!("{hub}-*.parquet"));
                (
                    path,
                    Sink::Parquet(Box::new(ParquetWriter::create(dir, hub, &schema)?)),
                )
            } else {
                let path = dir.join(format!("{name}.arrow"));
                let writer = ArchiveWriter::create_compressed(&path, &schema, compression)?;
                (path, Sink::Arrow(writer))
            };
            Ok(Some(Out {
                name,
                path,
                schema,
                writer,
                levels: 0,
            }))
        })
        .collect()
}

/// Runs `split`.
pub fn run(args: Args) -> Result<ExitCode> {
    let shares = fractions(&args)?;
    let archive = Archive::open(&args.archive)?;
    let run = RunMeta::from_archive(&archive)?;
    if run.split.is_some() {
        bail!(
            "{}: already one split of a dataset; split its source instead",
            args.archive.display()
        );
    }
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("{}: cannot make the folder", args.out.display()))?;
    let parquet = args.format == "parquet";
    let mut outs = open_outputs(&archive, &run, shares, &args.out, parquet)?;
    let mut total = 0u64;
    for b in 0..archive.batch_count() {
        let batch = archive.batch(b)?;
        let hashes = batch
            .column_by_name("layout_hash")
            .and_then(|c| c.as_primitive_opt::<UInt64Type>())
            .with_context(|| format!("{}: no layout_hash column", args.archive.display()))?;
        let picks: Vec<usize> = hashes
            .values()
            .iter()
            .map(|&h| split_of(h, &shares))
            .collect();
        total += picks.len() as u64;
        for (i, out) in outs.iter_mut().enumerate() {
            let Some(out) = out else { continue };
            let mask = BooleanArray::from_iter(picks.iter().map(|&p| Some(p == i)));
            let rows = RecordBatch::try_new(
                out.schema.clone(),
                arrow_select::filter::filter_record_batch(&batch, &mask)?
                    .columns()
                    .to_vec(),
            )?;
            if rows.num_rows() > 0 {
                out.levels += rows.num_rows() as u64;
                out.writer.write(&rows)?;
            }
        }
        drop(batch);
        archive.release(b);
    }
    let mut report = Vec::new();
    for out in outs.into_iter().flatten() {
        let footer = RunFooter {
            levels: out.levels,
            ..RunFooter::default()
        };
        let bytes = out.writer.finish(&footer.to_metadata())?;
        report.push((out.name, out.levels, bytes, out.path));
    }
    if !args.quiet {
        eprintln!(
            "warren: split {} levels of {}",
            super::thousands(total),
            args.archive.display()
        );
        for (name, levels, bytes, path) in report {
            let asked = shares[SPLITS.iter().position(|s| *s == name).expect("a split")];
            let (name, width) = if parquet {
                (hub_name(name), 10)
            } else {
                (name, 5)
            };
            eprintln!(
                "  {name:<width$} {:>12} levels  {:6.2}% (asked {:6.2}%)  {:8.1} MB  {}",
                super::thousands(levels),
                100.0 * levels as f64 / total.max(1) as f64,
                100.0 * asked,
                bytes as f64 / 1e6,
                path.display()
            );
        }
    }
    Ok(ExitCode::SUCCESS)
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
