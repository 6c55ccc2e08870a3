//! `warren tasks TASK --count N --out FILE`: reasoning-task items (question, exact answer,
//! ground truth) as verl's Parquet rows, JSON Lines or a task archive. The items are made by
//! `generate` on the batch engine (all cores, `--shard`, `--resume`, progress) into an archive
//! beside the output, which is then written as rows and removed.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};

use crate::archive::{Archive, temp_path};
use crate::batch::ShardArg;
use crate::export::tasks::{TaskFormat, write_tasks};
use crate::profile::Profile;
use crate::task::{Rendering, TaskName};

/// Arguments of `tasks`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A task (`maze-steps`, `maze-path`, `grid-steps`, `graph-color`, `coloring-puzzle`) or a
    /// profile file of kind `task`.
    task: String,
    /// Items to make (in the whole run, across all shards).
    #[arg(long, default_value_t = 1000)]
    count: u64,
    /// Output file, written atomically: `.parquet` for `verl`, `.jsonl` for `jsonl`, `.arrow`
    /// for `arrow`.
    #[arg(long)]
    out: PathBuf,
    /// `verl`: verl's Parquet rows (`data_source`, `prompt`, `ability`, `reward_model`,
    /// `extra_info`, and `images` for png renderings). `jsonl`: the same objects, one per
    /// line. `arrow`: the task archive itself (every `warren` command and `warren.ray` read it).
    #[arg(long, default_value = "verl", value_parser = ["verl", "jsonl", "arrow"])]
    format: String,
    /// The split items are drawn for: item i of split p is seeded by mix(mix(seed, i), p), and
    /// each split keeps only puzzles in its own third of the identity space, so no puzzle is in
    /// two splits, whatever the seeds.
    /// (default: the profile's `task.split`, `train` in the built-in profile).
    #[arg(long, value_parser = ["train", "validation", "test"])]
    split: Option<String>,
    /// Master seed.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Make only shard I of N (as `generate --shard`; `warren merge` joins task archives).
    #[arg(long, value_name = "I/N|auto|auto/N", default_value = "0/1")]
    shard: ShardArg,
    /// Override one task value, e.g. `--set task.max_dist=40` (repeatable; `warren generate
    /// task --help` and docs/tasks.md list them).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    sets: Vec<String>,
    /// Keep only items whose metrics pass this condition (as `generate --where`).
    #[arg(long = "where", value_name = "CONDITION")]
    filter: Option<String>,
    /// Keep only the first item of every `layout_hash`, or with `--unique=canonical` of every
    /// `canonical_hash` (one puzzle of each set equal up to rotation and reflection; as
    /// `generate --unique`).
    #[arg(long, value_name = "BY", num_args = 0..=1, require_equals = true, default_missing_value = "exact", value_enum)]
    unique: Option<super::generate::UniqueBy>,
    /// Shape the items over a metric, e.g. `'distance=5..10:0.3,10..20:0.4,20..:0.3'` (bins and
    /// shares of `--count`, filled exactly; as `generate --quota`).
    #[arg(long, value_name = "COLUMN=BINS")]
    quota: Option<String>,
    /// Keep at most this share of `--count` items of any one value, e.g. `answer=0.05` or
    /// `distance=0.05` (repeatable; as `generate --max-share`).
    #[arg(long = "max-share", value_name = "COLUMN=SHARE")]
    max_share: Vec<String>,
    /// With `--unique`, `--where`, `--quota` or `--max-share`: items to try before giving up.
    #[arg(long, value_name = "N")]
    max_tries: Option<u64>,
    /// Items per record batch.
    #[arg(long, default_value_t = 2048, value_parser = clap::value_parser!(u64).range(1..=65_536))]
    chunk_size: u64,
    /// No progress bar and no summary line.
    #[arg(long, short)]
    quiet: bool,
    /// Go on from where a killed run of this same command stopped (as `generate --resume`).
    #[arg(long)]
    resume: bool,
}

/// The archive the items are made into before they are written as `format` rows.
fn items_path(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".items.arrow");
    PathBuf::from(name)
}

/// Runs `tasks`.
pub fn run(args: Args) -> Result<ExitCode> {
    let format = match args.format.as_str() {
        "verl" => Some(TaskFormat::Verl),
        "jsonl" => Some(TaskFormat::Jsonl),
        _ => None,
    };
    let (profile_name, mut sets) = match TaskName::from_name(&args.task) {
        Some(task) => (
            "task".to_string(),
            vec![format!("task.task={}", task.name())],
        ),
        None if Path::new(&args.task).is_file() => (args.task.clone(), Vec::new()),
        None => bail!(
            "`{}` is neither a task ({}) nor a profile file",
            args.task,
            TaskName::ALL.map(TaskName::name).join(", ")
        ),
    };
    if let Some(split) = &args.split {
        sets.push(format!("task.split={split}"));
    }
    sets.extend(args.sets.iter().cloned());
    let mut profile = Profile::resolve(&profile_name)?;
    profile.set_all(&sets)?;
    let Profile::Task { task } = &profile else {
        bail!(
            "{}: is a `{}` profile; `warren tasks` takes kind = \"task\"",
            args.task,
            profile.kind()
        );
    };
    if format == Some(TaskFormat::Jsonl) && task.renderings.contains(&Rendering::Png) {
        bail!("task.renderings has png: JSON Lines hold text; write --format verl or arrow");
    }
    super::check_output_folder(&args.out)?;
    let archive = match format {
        Some(_) => items_path(&args.out),
        None => args.out.clone(),
    };
    if format.is_some()
        && args.resume
        && args.out.exists()
        && !archive.exists()
        && !temp_path(&archive).exists()
    {
        if !args.quiet {
            eprintln!(
                "warren: {} is already written: nothing to do",
                args.out.display()
            );
        }
        return Ok(ExitCode::SUCCESS);
    }
    let spec = super::generate::RunSpec {
        profile: profile_name,
        count: args.count,
        out: archive.clone(),
        seed: args.seed,
        threads: args.threads,
        shard: args.shard,
        sets,
        chunk_size: args.chunk_size,
        quiet: args.quiet,
        resume: args.resume,
        filter: args.filter.clone(),
        unique: args.unique,
        quota: args.quota.clone(),
        max_share: args.max_share.clone(),
        max_tries: args.max_tries,
    };
    let code = super::generate::run(super::generate::Args::from_spec(spec))?;
    let Some(format) = format else {
        return Ok(code);
    };
    let opened = Archive::open(&archive)?;
    let rows = write_tasks(&opened, &args.out, format)
        .with_context(|| format!("writing {}", args.out.display()))?;
    drop(opened);
    std::fs::remove_file(&archive)
        .with_context(|| format!("removing the item archive {}", archive.display()))?;
    if !args.quiet {
        eprintln!(
            "warren: {} {} items written to {} ({})",
            super::thousands(rows),
            task.task.name(),
            args.out.display(),
            args.format
        );
    }
    Ok(code)
}
