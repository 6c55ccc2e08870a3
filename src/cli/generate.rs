//! `warren generate <PROFILE|KIND> --count N --out FILE`: run a batch into an archive.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Result, bail};

use crate::archive::{
    ArchiveError, ArchiveWriter, Compression, ParquetWriter, Recovered, ResumeKey, ResumePlan,
    RunMeta, level_schema, plan_resume,
};
use crate::batch::{
    self, BatchOptions, BatchSummary, Filter, MaxShare, Quota, Selection, Shard, ShardArg,
    ShardMeta, check_shape, unique_key,
};
use crate::core::generator::{Columns, Generator};
use crate::profile::{GeneratorTask, Profile};

/// Arguments of `generate`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A generator kind (`maze`) for its built-in profile, or a profile file (`profiles/x.toml`).
    profile: String,
    /// Levels to generate (in the whole run, across all shards).
    #[arg(long, default_value_t = 1000)]
    count: u64,
    /// Output archive (`.arrow`), written atomically; with `--format parquet` a dataset folder
    /// (its `data/train-00000-of-0000N.parquet` files are moved in when the run ends).
    #[arg(long)]
    out: PathBuf,
    /// `arrow`: one Arrow IPC archive (memory-mapped by every reader). `parquet`: zstd Parquet
    /// files in the Hugging Face Hub's layout under `--out` (`warren card` writes its README).
    #[arg(long, default_value = "arrow", value_parser = ["arrow", "parquet"])]
    format: String,
    /// Master seed: level i uses mix(seed, i).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Make only shard I of N (contiguous index ranges; `warren merge` joins the shard files).
    /// `auto` reads it from a Slurm job array (SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT
    /// or _MIN/_MAX); `auto/N` also from a Kubernetes Indexed Job (JOB_COMPLETION_INDEX).
    #[arg(long, value_name = "I/N|auto|auto/N", default_value = "0/1")]
    shard: ShardArg,
    /// Override one profile value, e.g. `--set maze.width=64` (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    sets: Vec<String>,
    /// Levels per record batch.
    #[arg(long, default_value_t = 2048, value_parser = clap::value_parser!(u64).range(1..=65_536))]
    chunk_size: u64,
    /// No progress bar and no summary line.
    #[arg(long, short)]
    quiet: bool,
    /// Keep only the first level of every `layout_hash` (`--unique`, `--unique=exact`) or of
    /// every `canonical_hash` (`--unique=canonical`: one of each set of levels equal up to
    /// rotation, reflection or renumbering), in index order, going on past `--count` seeds
    /// until `--count` unique levels are kept.
    #[arg(long, value_name = "BY", num_args = 0..=1, require_equals = true, default_missing_value = "exact", value_enum)]
    unique: Option<UniqueBy>,
    /// Keep only levels whose metrics pass this condition, e.g.
    /// `'solution_length >= 120 and dead_ends < 150'` (columns: `warren inspect`; operators
    /// `< <= > >= == != + - * / and or not`, parentheses), going on until `--count` pass.
    #[arg(long = "where", value_name = "CONDITION")]
    filter: Option<String>,
    /// Shape the kept levels over a metric: bins `LO..HI` (half-open; an end may be left
    /// out) and the share of `--count` each gets, e.g.
    /// `'path_length=10..20:0.25,20..40:0.5,40..80:0.25'`. Filled exactly (the shares
    /// rounded to whole levels) in index order, so the same arguments keep the same levels;
    /// refused in one line when the rates seen show a bin cannot be filled.
    #[arg(long, value_name = "COLUMN=BINS")]
    quota: Option<String>,
    /// Keep at most this share of `--count` levels of any one value of a column, e.g.
    /// `path_length=0.05` (a metric, or a text column such as a task's `answer`; repeatable).
    #[arg(long = "max-share", value_name = "COLUMN=SHARE")]
    max_share: Vec<String>,
    /// With `--unique`, `--where`, `--quota` or `--max-share`: seeds to try before giving up
    /// (default 10 x `--count`, at least 10,000).
    #[arg(long, value_name = "N")]
    max_tries: Option<u64>,
    /// Sample the run and write a flamegraph SVG.
    #[arg(long, value_name = "OUT.svg")]
    flamegraph: Option<PathBuf>,
    /// Compress every record batch's buffers (Arrow IPC compression, which pyarrow, polars and
    /// every warren command read): `zstd` for the smaller file, `lz4` for the faster one.
    /// Compressed archives are decompressed as they are read, not memory-mapped.
    #[arg(long, default_value = "none", value_parser = compression_parser())]
    compression: Compression,
    /// Go on from where a killed run of this same command stopped (or one stopped by a full
    /// disk, which keeps its `OUT.tmp` for this): keep the levels its `OUT.tmp` holds (checked against their CRC-32s), make the rest, and write the archive an
    /// uninterrupted run writes, byte for byte. Refused, changing nothing, when `OUT.tmp` (or a
    /// finished `OUT`) is another run's; with nothing to go on from, the run starts afresh.
    #[arg(long)]
    resume: bool,
}

/// `none`, `zstd` or `lz4`, as completions and `--help` list them.
pub(crate) fn compression_parser() -> impl clap::builder::TypedValueParser<Value = Compression> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(Compression::ALL.map(Compression::name))
        .map(|name| Compression::from_name(&name).expect("one of the possible values"))
}

struct GenerateTask<'a> {
    args: &'a Args,
    profile: &'a Profile,
    shard: Shard,
}

/// What a run did: its summary, with the levels a resumed run found made, or nothing (`--resume`
/// found the finished archive of this run).
type Outcome = Option<(BatchSummary, u64)>;

impl GeneratorTask for GenerateTask<'_> {
    type Output = Result<Outcome>;

    fn run<G: Generator>(self, generator: &G) -> Result<Outcome> {
        let args = self.args;
        let selection = args.selection(&generator.columns(), self.shard)?;
        // The files of the generator `Profile::with_generator` just built on this thread.
        let metadata = RunMeta::new(generator, &self.profile.to_toml(), args.seed)
            .with_shard(ShardMeta::new(self.shard, args.count))
            .with_files(crate::core::files::last_built())
            .with_selection(selection.as_ref().map(Selection::to_meta))
            .to_metadata();
        let schema = Arc::new(level_schema(&generator.columns(), metadata));
        let mut opts = BatchOptions {
            count: args.count,
            seed: args.seed,
            threads: args.threads,
            shard: self.shard,
            start: 0,
            chunk_size: args.chunk_size as usize,
            progress: !args.quiet,
            selection,
            resume: None,
            kept: Vec::new(),
        };
        if args.format == "parquet" {
            let writer = ParquetWriter::create(&args.out, "train", &schema)?;
            let summary = batch::run(generator, schema, &opts, writer, Vec::new())?;
            return Ok(Some((summary, 0)));
        }
        let compression = args.compression;
        let key = ResumeKey {
            chunk_size: args.chunk_size,
            inputs: 0,
        };
        let mut resumed = 0;
        let writer = if args.resume {
            match plan_resume(&args.out, &schema, compression, &key)? {
                ResumePlan::Complete => return Ok(None),
                ResumePlan::Start(note) => {
                    if let Some(note) = note.filter(|_| !args.quiet) {
                        eprintln!("warren: {note}");
                    }
                    ArchiveWriter::create_resumable(&args.out, &schema, compression, &key)?
                }
                ResumePlan::Continue(found) => {
                    resumed = found.levels();
                    if let Some(s) = opts.selection.as_ref() {
                        let names = s.shaped_columns();
                        if !names.is_empty() {
                            opts.kept = found.kept_columns(&args.out, &schema, &names)?;
                        }
                    }
                    if let Some(selection) = opts.selection.as_mut().filter(|s| s.unique) {
                        let key = unique_key(selection.canonical);
                        selection.earlier =
                            Some(Arc::new(found.layout_hashes(&args.out, &schema, key)?));
                    }
                    opts.resume = found.checkpoint.clone();
                    if !args.quiet {
                        self.report_resume(&found);
                    }
                    ArchiveWriter::resume(&args.out, &schema, compression, found)?
                }
            }
        } else {
            ArchiveWriter::create_resumable(&args.out, &schema, compression, &key)?
        };
        let summary = batch::run(generator, schema, &opts, writer, Vec::new())?;
        Ok(Some((summary, resumed)))
    }
}

impl GenerateTask<'_> {
    /// Whether the run keeps a selection of its seeds (and so may go past `--count` of them).
    fn shaped_or_selected(&self) -> bool {
        let a = self.args;
        a.unique.is_some() || a.filter.is_some() || a.quota.is_some() || !a.max_share.is_empty()
    }

    /// One line on what `--resume` kept of the killed run and where it goes on.
    fn report_resume(&self, found: &Recovered) {
        let args = self.args;
        let chunks = found.checkpoint.as_ref().map_or(0, |c| c.chunks);
        let range = self.shard.range(args.count);
        let from = (range.start + chunks * args.chunk_size).min(if self.shaped_or_selected() {
            u64::MAX
        } else {
            range.end
        });
        let damaged = if found.dropped_chunks > 0 {
            format!(
                ", {} recorded chunks dropped (their bytes were torn or damaged)",
                found.dropped_chunks
            )
        } else {
            String::new()
        };
        eprintln!(
            "warren: resuming {}: {} levels kept ({} chunks, {:.1} MB, {:.1} MB checksummed), \
             {:.1} MB after them dropped{damaged}; going on from level index {}",
            crate::archive::temp_path(&args.out).display(),
            super::thousands(found.levels()),
            super::thousands(chunks),
            found.len_bytes() as f64 / 1e6,
            found.checked_bytes as f64 / 1e6,
            found.dropped_bytes as f64 / 1e6,
            super::thousands(from),
        );
    }
}

/// The parts of a `generate` run that `warren tasks` sets (the rest take `generate`'s
/// defaults).
pub(super) struct RunSpec {
    pub profile: String,
    pub count: u64,
    pub out: PathBuf,
    pub seed: u64,
    pub threads: usize,
    pub shard: ShardArg,
    pub sets: Vec<String>,
    pub chunk_size: u64,
    pub quiet: bool,
    pub resume: bool,
    pub filter: Option<String>,
    pub unique: Option<UniqueBy>,
    pub quota: Option<String>,
    pub max_share: Vec<String>,
    pub max_tries: Option<u64>,
}

/// What `--unique` keeps one level of each of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(super) enum UniqueBy {
    /// `layout_hash`: levels equal in every content column.
    Exact,
    /// `canonical_hash`: levels equal up to rotation, reflection or renumbering.
    Canonical,
}

impl Args {
    /// The arguments of a `generate` run as `warren tasks` asks for it.
    pub(super) fn from_spec(spec: RunSpec) -> Self {
        Args {
            profile: spec.profile,
            count: spec.count,
            out: spec.out,
            format: "arrow".into(),
            seed: spec.seed,
            threads: spec.threads,
            shard: spec.shard,
            sets: spec.sets,
            chunk_size: spec.chunk_size,
            quiet: spec.quiet,
            unique: spec.unique,
            filter: spec.filter,
            quota: spec.quota,
            max_share: spec.max_share,
            max_tries: spec.max_tries,
            flamegraph: None,
            compression: Compression::None,
            resume: spec.resume,
        }
    }

    /// The run's selection, compiled against the kind's `columns`; `None` without
    /// `--unique`, `--where`, `--quota` and `--max-share`.
    fn selection(&self, columns: &Columns, shard: Shard) -> Result<Option<Selection>> {
        let shaped = self.quota.is_some() || !self.max_share.is_empty();
        if self.unique.is_none() && self.filter.is_none() && !shaped {
            if self.max_tries.is_some() {
                bail!("--max-tries needs --unique, --where, --quota or --max-share");
            }
            return Ok(None);
        }
        if shaped && shard.count > 1 {
            bail!(
                "--quota and --max-share need a whole run: shards cannot see each other's bins \
                 (make the run unsharded, or shard an unshaped run and select afterwards)"
            );
        }
        let max_tries = self
            .max_tries
            .unwrap_or_else(|| self.count.saturating_mul(10).max(10_000));
        if max_tries < self.count {
            bail!(
                "--max-tries {max_tries} is below --count {}: a run keeps at most one level per \
                 seed tried",
                self.count
            );
        }
        let filter = self
            .filter
            .as_deref()
            .map(|text| Filter::compile(text, columns.metrics))
            .transpose()?;
        let quota = self
            .quota
            .as_deref()
            .map(|text| Quota::compile(text, columns.metrics))
            .transpose()?;
        let max_share = self
            .max_share
            .iter()
            .map(|text| MaxShare::compile(text, columns.metrics, columns.extra))
            .collect::<Result<Vec<_>, _>>()?;
        check_shape(quota.as_ref(), &max_share, self.count)?;
        Ok(Some(Selection {
            unique: self.unique.is_some(),
            canonical: self.unique == Some(UniqueBy::Canonical),
            filter,
            max_tries,
            earlier: None,
            quota,
            max_share,
        }))
    }
}

/// Whether `error` is a write of the output that failed with the run kept for `--resume`.
fn kept_to_resume(error: &anyhow::Error) -> bool {
    matches!(
        error.downcast_ref::<batch::BatchError>(),
        Some(batch::BatchError::Archive(ArchiveError::Kept { .. }))
    )
}

/// Runs `generate`.
pub fn run(args: Args) -> Result<ExitCode> {
    let shard = args.shard.resolve(|key| std::env::var(key).ok())?;
    let mut profile = Profile::resolve(&args.profile)?;
    profile.set_all(&args.sets)?;
    if args.format == "parquet" && args.compression != Compression::None {
        bail!("--compression is for Arrow archives: Parquet files are always zstd-compressed");
    }
    if args.format == "parquet" && args.resume {
        bail!(
            "--resume is for Arrow archives: generate with --format arrow --resume, then \
             `warren export ARCHIVE --parquet DIR`"
        );
    }
    super::check_output_folder(&args.out)?;
    let sampler = args
        .flamegraph
        .as_deref()
        .map(super::flamegraph::Flamegraph::start)
        .transpose()?;
    let outcome = profile
        .with_generator(GenerateTask {
            args: &args,
            profile: &profile,
            shard,
        })?
        .map_err(|e| {
            // A run kept for `--resume` (a full disk) says which file and what to do already.
            if kept_to_resume(&e) {
                e
            } else {
                e.context(format!("generating {}", args.out.display()))
            }
        })?;
    let Some((summary, resumed)) = outcome else {
        // NOTE: a run killed between its final rename and the removal of its progress record
        // leaves the record beside the finished archive; it describes nothing any more.
        let _ = std::fs::remove_file(crate::archive::progress_path(&crate::archive::temp_path(
            &args.out,
        )));
        if !args.quiet {
            eprintln!(
                "warren: {} is already the finished archive of this run: nothing to do",
                args.out.display()
            );
        }
        return Ok(ExitCode::SUCCESS);
    };
    if let Some(s) = sampler {
        let out = s.out().to_path_buf();
        let samples = s.finish()?;
        if !args.quiet {
            eprintln!(
                "warren: flamegraph of {} samples written to {}",
                super::thousands(samples),
                out.display()
            );
        }
    }
    if !args.quiet {
        print_summary(&args, profile.kind(), &summary, resumed)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The run's summary line, and with `--quota` one line per bin.
fn print_summary(args: &Args, kind: &str, summary: &BatchSummary, resumed: u64) -> Result<()> {
    let reasons = if summary.failure_reasons.is_empty() {
        String::new()
    } else {
        format!(" {}", serde_json::to_string(&summary.failure_reasons)?)
    };
    let selected = summary.scanned.as_ref().map_or(String::new(), |s| {
        let tried = s.end - s.start;
        let over = if args.quota.is_some() || !args.max_share.is_empty() {
            format!(
                " ({} of them over the quota)",
                super::thousands(summary.over_quota)
            )
        } else {
            String::new()
        };
        format!(
            ", {} seeds tried ({:.1}% kept): {} filtered out{over}, {} duplicates",
            super::thousands(tried),
            100.0 * summary.levels as f64 / tried.max(1) as f64,
            super::thousands(s.filtered),
            super::thousands(s.duplicates)
        )
    });
    let (made, resumed) = if resumed > 0 {
        let note = format!(
            " ({} of them kept from the killed run)",
            super::thousands(resumed)
        );
        (summary.levels - resumed, note)
    } else {
        (summary.levels, String::new())
    };
    eprintln!(
        "warren: {} {} levels{resumed}, {} failures{reasons}{selected}, {:.2} s, {} levels/s, \
         {:.1} MB written to {}",
        super::thousands(summary.levels),
        kind,
        summary.failures,
        summary.seconds,
        super::thousands((made as f64 / summary.seconds.max(1e-9)) as u64),
        summary.bytes as f64 / 1e6,
        args.out.display()
    );
    for (bin, kept, target) in &summary.bins {
        eprintln!(
            "  {bin:<24} {:>12} levels  {:6.2}% (asked {:6.2}%)",
            super::thousands(*kept),
            100.0 * *kept as f64 / summary.levels.max(1) as f64,
            100.0 * *target as f64 / summary.levels.max(1) as f64
        );
    }
    Ok(())
}
