//! `warren pack PROFILE|KIND --out DIR --axis AXIS --train VALUES --ood VALUES`: three Parquet
//! splits, `train/`, `id_test/` and `ood_test/`, that differ along one axis with everything else
//! held fixed (issue 47, "Out-of-distribution packs").
//!
//! The train distribution is a [`Mixture`](crate::profile::Mixture) of the profile's variants
//! along the axis (or, for a metric axis, the profile with a `--where` range); `train` holds the
//! first `--count` levels it keeps (`--unique canonical`) and `id_test` the next
//! `--test-count`, made as the continuation of the same run (from the index where train
//! stopped, with train's hashes as earlier levels), so each split's footer accounts for its own
//! index range and `warren verify` checks each as it is. `ood_test` is the ood distribution's
//! run from another master seed, `mix(seed, 1)`, with every train and id_test hash left out as
//! a duplicate: no ood level equals a train level up to symmetry, even where the distributions
//! overlap. Then `warren verify --disjoint` proves it over the files, and `manifest.json`
//! records it (see `pack_manifest.rs`).

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Result, bail};
use arrow_array::RecordBatch;
use arrow_array::cast::AsArray;
use arrow_array::types::UInt64Type;

use super::pack_axis::{Axis, Side};
use super::pack_manifest::{self, SPLITS, SplitOutcome};
use crate::archive::{ParquetWriter, RunMeta, level_schema};
use crate::batch::{
    self, BatchError, BatchOptions, BatchSink, Filter, Selection, Shard, ShardMeta,
};
use crate::core::generator::Generator;
use crate::core::rng::mix;
use crate::profile::{GeneratorTask, MixtureSpec, Profile};

/// Arguments of `pack`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A generator kind (`maze`) for its built-in profile, or a profile file.
    profile: String,
    /// The pack's folder: `train/`, `id_test/`, `ood_test/` (Parquet dataset folders),
    /// `README.md` (for `datasets.load_dataset`) and `manifest.json`.
    #[arg(long)]
    out: PathBuf,
    /// What the splits differ along: `size` (`KIND.width` and `KIND.height` together),
    /// `algorithm` (`maze.algorithm`), `loops` (`maze.braid`), any profile key (`maze.braid`),
    /// or a metric column (`solution_length`).
    #[arg(long)]
    axis: String,
    /// The train (and id_test) values: `4..=16`, `4,8,16`, `dfs,wilson`; for a metric axis one
    /// half-open range `a..b` (levels with a <= metric < b).
    #[arg(long, value_name = "VALUES")]
    train: String,
    /// The ood_test values, as `--train`.
    #[arg(long, value_name = "VALUES")]
    ood: String,
    /// Train levels.
    #[arg(long, default_value_t = 10_000)]
    count: u64,
    /// Levels in each test split (id_test, ood_test).
    #[arg(long, default_value_t = 1000)]
    test_count: u64,
    /// Master seed (the ood split's is mix(seed, 1)).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Override one base profile value, held fixed in every split (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    sets: Vec<String>,
    /// Seeds each split may try before giving up (default 10 x its count, at least 10,000).
    #[arg(long, value_name = "N")]
    max_tries: Option<u64>,
    /// No progress bar and no summary lines.
    #[arg(long, short)]
    quiet: bool,
}

/// Levels per record batch (as `generate`'s default).
const CHUNK_SIZE: usize = 2048;

/// Everything a pack's runs share.
struct Pack<'a> {
    args: &'a Args,
    profile_toml: String,
}

/// One split to make: its name, how many levels, from which master seed and index.
struct SplitPlan {
    name: &'static str,
    count: u64,
    seed: u64,
}

/// A sink that forwards batches to a Parquet split and keeps their `canonical_hash`es (the
/// earlier levels of the splits made after it).
struct HashingSink<'a> {
    writer: ParquetWriter,
    hashes: &'a mut HashSet<u64>,
}

impl BatchSink for HashingSink<'_> {
    fn write(&mut self, batch: &RecordBatch) -> Result<(), BatchError> {
        if let Some(c) = batch
            .column_by_name("canonical_hash")
            .and_then(|c| c.as_primitive_opt::<UInt64Type>())
        {
            self.hashes.extend(c.values().iter().copied());
        }
        BatchSink::write(&mut self.writer, batch)
    }

    fn finish(self, footer: &[(String, String)]) -> Result<u64, BatchError> {
        BatchSink::finish(self.writer, footer)
    }
}

/// The splits of one distribution (train and id_test, or ood_test), made with its mixture.
struct DistributionTask<'a> {
    pack: &'a Pack<'a>,
    side: &'a Side,
    /// The side's mixture, as the splits' metadata records it.
    spec: &'a MixtureSpec,
    plans: Vec<SplitPlan>,
    /// Hashes of the levels of earlier splits; grows with this task's.
    seen: &'a mut HashSet<u64>,
}

impl GeneratorTask for DistributionTask<'_> {
    type Output = Result<Vec<SplitOutcome>>;

    fn run<G: Generator>(mut self, generator: &G) -> Result<Vec<SplitOutcome>> {
        let files = crate::core::files::last_built();
        let filter = self.filter(generator)?;
        let mut outcomes = Vec::with_capacity(self.plans.len());
        // A split after another of the same seed goes on from the index where it stopped.
        let mut start = 0;
        for plan in std::mem::take(&mut self.plans).iter() {
            let outcome = self.run_split(generator, plan, start, filter.clone(), &files)?;
            start = outcome.scanned.end;
            outcomes.push(outcome);
        }
        Ok(outcomes)
    }
}

impl DistributionTask<'_> {
    /// The split's `--where` filter for a metric axis (its column checked by `plan_sides`).
    fn filter<G: Generator>(&self, generator: &G) -> Result<Option<Filter>> {
        let columns = generator.columns().metrics;
        Ok(self
            .side
            .filter
            .as_deref()
            .map(|text| Filter::compile(text, columns))
            .transpose()?)
    }

    /// Makes split `plan` from index `start` into `OUT/NAME/`.
    fn run_split<G: Generator>(
        &mut self,
        generator: &G,
        plan: &SplitPlan,
        start: u64,
        filter: Option<Filter>,
        files: &crate::core::files::Files,
    ) -> Result<SplitOutcome> {
        let args = self.pack.args;
        let max_tries = args
            .max_tries
            .unwrap_or_else(|| plan.count.saturating_mul(10).max(10_000));
        // A pack keeps every level of its split's distribution: no quota or cap.
        let selection = Selection {
            unique: true,
            canonical: true,
            filter,
            max_tries,
            earlier: Some(Arc::new(self.seen.clone())),
            ..Selection::default()
        };
        let metadata = RunMeta::new(generator, &self.pack.profile_toml, plan.seed)
            .with_shard(ShardMeta::new(Shard::default(), plan.count))
            .with_files(files.clone())
            .with_selection(Some(selection.to_meta()))
            .with_mixture(Some(self.spec.clone()))
            .to_metadata();
        let schema = Arc::new(level_schema(&generator.columns(), metadata));
        let opts = BatchOptions {
            count: plan.count,
            seed: plan.seed,
            threads: args.threads,
            shard: Shard::default(),
            start,
            chunk_size: CHUNK_SIZE,
            progress: !args.quiet,
            selection: Some(selection),
            ..BatchOptions::default()
        };
        let dir = args.out.join(plan.name);
        let mut hashes = HashSet::new();
        let sink = HashingSink {
            writer: ParquetWriter::create(&dir, plan.name, &schema)?,
            hashes: &mut hashes,
        };
        let summary = batch::run(generator, schema, &opts, sink, Vec::new())
            .map_err(|e| anyhow::Error::new(e).context(format!("making {}", dir.display())))?;
        self.seen.extend(hashes);
        let outcome = SplitOutcome::new(plan.name, plan.seed, plan.count, &summary);
        if !args.quiet {
            outcome.print(generator.kind(), &dir);
        }
        Ok(outcome)
    }
}

/// The grid shape a mixture stores (`None`: binary grids, or none).
struct GridShape;

impl GeneratorTask for GridShape {
    type Output = Option<(u16, u16)>;

    fn run<G: Generator>(self, generator: &G) -> Option<(u16, u16)> {
        generator.columns().grid_shape
    }
}

/// Checks every input before any level is made: the axis, both sides' values against the
/// profile, and that the sides differ.
fn plan_sides(args: &Args, profile: &Profile) -> Result<(Axis, Side, Side)> {
    let axis = super::pack_axis::parse_axis(&args.axis, profile.kind())?;
    super::pack_axis::check_metric(&axis, profile)?;
    let train = super::pack_axis::side(&axis, "--train", &args.train, profile)?;
    let ood = super::pack_axis::side(&axis, "--ood", &args.ood, profile)?;
    super::pack_axis::check_differ(&args.axis, &train, &ood)?;
    if args.count == 0 || args.test_count == 0 {
        bail!("--count and --test-count must be at least 1");
    }
    Ok((axis, train, ood))
}

/// Makes the three splits; returns their outcomes in [`SPLITS`] order.
fn make_splits(
    pack: &Pack<'_>,
    profile: &Profile,
    train: &Side,
    ood: &Side,
) -> Result<Vec<SplitOutcome>> {
    let args = pack.args;
    let mut seen = HashSet::new();
    let (train_spec, ood_spec) = (train.spec(false), ood.spec(false));
    // One schema for all three splits (`datasets` reads them as one dataset): grids of one size
    // only when every split's are of that one size.
    let shapes = (
        profile.with_mixture(&train_spec, GridShape)?,
        profile.with_mixture(&ood_spec, GridShape)?,
    );
    let binary = shapes.0 != shapes.1;
    let (train_spec, ood_spec) = (train.spec(binary), ood.spec(binary));
    let in_distribution = DistributionTask {
        pack,
        side: train,
        spec: &train_spec,
        plans: vec![
            SplitPlan {
                name: SPLITS[0],
                count: args.count,
                seed: args.seed,
            },
            SplitPlan {
                name: SPLITS[1],
                count: args.test_count,
                seed: args.seed,
            },
        ],
        seen: &mut seen,
    };
    let mut outcomes = profile.with_mixture(&train_spec, in_distribution)??;
    let out_of_distribution = DistributionTask {
        pack,
        side: ood,
        spec: &ood_spec,
        plans: vec![SplitPlan {
            name: SPLITS[2],
            count: args.test_count,
            seed: mix(args.seed, 1),
        }],
        seen: &mut seen,
    };
    outcomes.extend(profile.with_mixture(&ood_spec, out_of_distribution)??);
    Ok(outcomes)
}

/// Runs `pack`.
pub fn run(args: Args) -> Result<ExitCode> {
    let mut profile = Profile::resolve(&args.profile)?;
    profile.set_all(&args.sets)?;
    let (axis, train, ood) = plan_sides(&args, &profile)?;
    super::check_output_folder(&args.out)?;
    let pack = Pack {
        args: &args,
        profile_toml: profile.to_toml(),
    };
    let started = std::time::Instant::now();
    let outcomes = make_splits(&pack, &profile, &train, &ood)?;
    let dirs: Vec<PathBuf> = SPLITS.iter().map(|s| args.out.join(s)).collect();
    let proof = crate::run::disjoint(&dirs, &std::env::temp_dir(), 10)?;
    let manifest = pack_manifest::Manifest {
        kind: profile.kind(),
        sets: &args.sets,
        axis: &args.axis,
        axis_keys: match &axis {
            Axis::Keys(keys) => keys.clone(),
            Axis::Metric(_) => Vec::new(),
        },
        seed: args.seed,
        sides: [&train, &train, &ood],
        outcomes: &outcomes,
        proof: &proof,
    };
    manifest.write(&args.out)?;
    let overlaps = proof.exact_overlaps + proof.canonical_overlaps;
    if !args.quiet {
        report(
            &args.out,
            &outcomes,
            &proof,
            started.elapsed().as_secs_f64(),
        );
    }
    if overlaps > 0 {
        bail!(
            "{}: the splits share {overlaps} levels (a bug: see manifest.json)",
            args.out.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The pack's summary line.
fn report(out: &Path, outcomes: &[SplitOutcome], proof: &crate::run::DisjointReport, seconds: f64) {
    let counts: Vec<String> = outcomes
        .iter()
        .map(|o| format!("{} {}", o.name, super::thousands(o.written)))
        .collect();
    eprintln!(
        "warren: pack {} ({}): {} exact and {} canonical overlaps{}, {seconds:.2} s; manifest in {}",
        out.display(),
        counts.join(", "),
        proof.exact_overlaps,
        proof.canonical_overlaps,
        if proof.exact_overlaps + proof.canonical_overlaps == 0 {
            ": disjoint"
        } else {
            ""
        },
        out.join(pack_manifest::MANIFEST).display()
    );
}
