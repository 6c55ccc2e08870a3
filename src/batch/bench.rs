//! `warren bench`'s measurements for one generator kind: per-level latency and stage shares on
//! one thread, end-to-end runs into an archive on one thread and on all, allocations per level
//! and peak memory.
//!
//! Levels come from fixed seeds (`mix(seed, i)` for `i` in `0..count`), so two runs of the
//! bench on one machine time the same levels. Three passes run per kind:
//! 1. **Latency**: every level generated alone on the calling thread and timed, after a
//!    warm-up; this gives the median and 99th percentile per level, levels per second per core
//!    (generation only), each stage's share where the generator has stages, and (when the
//!    counting allocator is installed) allocations per level.
//! 2. **One thread, end to end**: [`batch::run`](crate::batch::run) into an archive in a
//!    temporary folder, with one worker.
//! 3. **All threads, end to end**: the same with every worker; the scaling factor is its
//!    levels per second over pass 2's, and MB/s is the archive bytes over its wall time.
//!
//! Peak memory is the process's high-water mark over the three passes (Linux resets it per
//! kind through `/proc/self/clear_refs`; elsewhere it is not reported).

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use crate::archive::{ArchiveWriter, RunMeta, level_schema};
use crate::batch::{BatchError, BatchOptions, BatchSummary, resolve_threads, run};
use crate::core::alloc;
use crate::core::generator::Generator;
use crate::core::rng::mix;

/// What to measure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchPlan {
    /// Levels per pass (at most [`MAX_COUNT`]); 0 picks a count worth about a second of one
    /// core's work.
    pub count: u64,
    /// Workers of the all-threads pass (0: all cores).
    pub threads: usize,
    /// Master seed of the levels.
    pub seed: u64,
}

impl Default for BenchPlan {
    fn default() -> Self {
        Self {
            count: 0,
            threads: 0,
            seed: 1,
        }
    }
}

/// One kind's results.
#[derive(Clone, Debug, PartialEq)]
pub struct KindReport {
    /// The generator kind.
    pub kind: &'static str,
    /// Levels per pass.
    pub count: u64,
    /// Seeds that failed (counted in every pass alike; the latency pass's count).
    pub failures: u64,
    /// Median microseconds per level, generation only, one thread.
    pub median_us: f64,
    /// 99th percentile microseconds per level.
    pub p99_us: f64,
    /// Levels per second on one core, generation only.
    pub levels_per_core: f64,
    /// Each stage's share of the generation time (the rest is reported as `other`).
    pub stages: Vec<(&'static str, f64)>,
    /// Heap allocations per level after warm-up, when counted.
    pub allocations_per_level: Option<f64>,
    /// Levels per second end to end (archive included) on one thread.
    pub one_thread: f64,
    /// Workers of the all-threads pass.
    pub threads: usize,
    /// Levels per second end to end on all workers.
    pub all_threads: f64,
    /// `all_threads / one_thread`.
    pub scaling: f64,
    /// Archive megabytes (10^6 bytes) written per second in the all-threads pass.
    pub mb_per_s: f64,
    /// Archive size of one pass, in megabytes.
    pub archive_mb: f64,
    /// Peak resident memory over this kind's passes, in megabytes.
    pub peak_rss_mb: Option<f64>,
}

/// Most levels per pass: the latency pass keeps one time per level.
pub const MAX_COUNT: u64 = 10_000_000;

/// Levels timed to pick a count when the plan leaves it to the bench.
const CALIBRATION_SECONDS: f64 = 0.25;
/// One-core seconds of work a picked count aims at.
const TARGET_SECONDS: f64 = 1.0;

/// Measures `g` (whose resolved profile is `profile_toml`) under `plan`, writing its archives
/// into `dir` (removed again).
pub fn bench_kind<G: Generator>(
    g: &G,
    profile_toml: &str,
    plan: &BenchPlan,
    dir: &Path,
) -> Result<KindReport, BatchError> {
    let peak_window = reset_peak_rss();
    let mut scratch = g.new_scratch();
    let count = if plan.count > 0 {
        plan.count
    } else {
        calibrate(g, &mut scratch, plan.seed)
    };
    // Warm-up: the scratch grows to its working size on other seeds than the timed ones.
    for i in 0..count.min(32) {
        let _ = g.generate(mix(plan.seed ^ 0x5EED, i), &mut scratch);
    }
    // Latency, with any stage clocks off.
    let mut times = Vec::with_capacity(count as usize);
    let mut failures = 0;
    let counting = alloc::counting();
    let allocations_before = alloc::thread_allocations();
    for i in 0..count {
        let seed = mix(plan.seed, i);
        let started = Instant::now();
        let ok = g.generate(seed, &mut scratch).is_ok();
        times.push(started.elapsed().as_nanos() as u64);
        failures += u64::from(!ok);
    }
    let allocations = alloc::thread_allocations() - allocations_before;
    let total_ns: u64 = times.iter().sum();
    times.sort_unstable();
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize] as f64 / 1e3;
    let stages = stage_shares(g, &mut scratch, plan.seed, count.min(STAGE_LEVELS));
    drop(scratch);

    // Both passes cut the run into the same record batches, so they differ only in workers.
    let chunk_size = bench_chunk_size(count, resolve_threads(plan.threads));
    let one = archive_pass(g, profile_toml, plan, (count, chunk_size), 1, dir)?;
    let all = archive_pass(
        g,
        profile_toml,
        plan,
        (count, chunk_size),
        plan.threads,
        dir,
    )?;
    Ok(KindReport {
        kind: g.kind(),
        count,
        failures,
        median_us: at(0.5),
        p99_us: at(0.99),
        levels_per_core: count as f64 / (total_ns.max(1) as f64 / 1e9),
        stages,
        allocations_per_level: counting.then(|| allocations as f64 / count as f64),
        one_thread: one.levels_per_second(),
        threads: resolve_threads(plan.threads),
        all_threads: all.levels_per_second(),
        scaling: all.levels_per_second() / one.levels_per_second().max(1e-9),
        mb_per_s: all.bytes as f64 / 1e6 / all.seconds.max(1e-9),
        archive_mb: all.bytes as f64 / 1e6,
        peak_rss_mb: peak_window.then(peak_rss_mb).flatten(),
    })
}

/// Levels of the stage pass (stage clocks on; its own timing is not reported).
const STAGE_LEVELS: u64 = 500;

/// Each stage's share of the time of the levels `0..levels` that succeed, and `other` for the
/// rest of their time; empty for a generator without stages.
fn stage_shares<G: Generator>(
    g: &G,
    scratch: &mut G::Scratch,
    seed: u64,
    levels: u64,
) -> Vec<(&'static str, f64)> {
    let names = g.stage_names();
    if names.is_empty() {
        return Vec::new();
    }
    g.time_stages(scratch, true);
    let (mut stage_ns, mut last) = (vec![0u64; names.len()], vec![0u64; names.len()]);
    let mut ok_ns = 0u64;
    for i in 0..levels {
        let started = Instant::now();
        let ok = g.generate(mix(seed, i), scratch).is_ok();
        let ns = started.elapsed().as_nanos() as u64;
        if ok {
            ok_ns += ns;
            g.stage_nanos(scratch, &mut last);
            for (t, l) in stage_ns.iter_mut().zip(&last) {
                *t += l;
            }
        }
    }
    g.time_stages(scratch, false);
    let share = |ns: u64| ns as f64 / ok_ns.max(1) as f64;
    let mut stages: Vec<(&'static str, f64)> = names
        .iter()
        .zip(&stage_ns)
        .map(|(&name, &ns)| (name, share(ns)))
        .collect();
    let named: f64 = stages.iter().map(|s| s.1).sum();
    stages.push(("other", (1.0 - named).max(0.0)));
    stages
}

/// A count worth about [`TARGET_SECONDS`] of one core's work, from levels timed for
/// [`CALIBRATION_SECONDS`] (they double as warm-up), rounded to one or two leading digits.
fn calibrate<G: Generator>(g: &G, scratch: &mut G::Scratch, seed: u64) -> u64 {
    let started = Instant::now();
    let mut n = 0u64;
    while n < 10_000 && (n < 4 || started.elapsed().as_secs_f64() < CALIBRATION_SECONDS) {
        let _ = g.generate(mix(seed ^ 0xCA1B, n), scratch);
        n += 1;
    }
    let per_level = started.elapsed().as_secs_f64() / n as f64;
    let raw = (TARGET_SECONDS / per_level.max(1e-9)).clamp(10.0, 200_000.0) as u64;
    let scale = 10u64.pow(raw.ilog10().saturating_sub(1));
    raw / scale * scale
}

/// One end-to-end run of `count` levels in record batches of `chunk_size` into an archive in
/// `dir`, removed afterwards.
fn archive_pass<G: Generator>(
    g: &G,
    profile_toml: &str,
    plan: &BenchPlan,
    (count, chunk_size): (u64, usize),
    threads: usize,
    dir: &Path,
) -> Result<BatchSummary, BatchError> {
    let path = dir.join(format!("bench-{}-{threads}.arrow", g.kind()));
    let metadata = RunMeta::new(g, profile_toml, plan.seed).to_metadata();
    let schema = Arc::new(level_schema(&g.columns(), metadata));
    let writer = ArchiveWriter::create(&path, &schema)?;
    let opts = BatchOptions {
        count,
        seed: plan.seed,
        threads,
        chunk_size,
        ..BatchOptions::default()
    };
    let summary = run(g, schema, &opts, writer, Vec::new());
    let _ = std::fs::remove_file(&path);
    summary
}

/// Levels per record batch for a timed run of `count` levels on `workers` workers: 64 batches
/// per worker, at least one level and at most the engine's default of 2,048.
///
/// PERF: a run ends when its last batch is written, and the other workers idle while the last
/// one finishes, on average for half a batch. With the engine's 2,048 levels per batch a
/// one-second bench pass has only about 16 batches per worker, so that tail alone costs about
/// 3% of the two-thread pass; at 64 batches per worker it is under 1%, while a batch still
/// holds milliseconds of work, far above its own cost (framing, a channel send). A pass of few
/// slow levels (25 mazes of 801 x 801 rooms) gets batches of one level: a floor of 16 made it
/// one or two batches, so one worker did (nearly) all of it and the pass measured no scaling.
pub fn bench_chunk_size(count: u64, workers: usize) -> usize {
    (count / (64 * workers.max(1) as u64)).clamp(1, 2048) as usize
}

/// Starts a new peak-memory window (Linux: resets the high-water mark `VmHWM`); false where the
/// system does not allow it, and then no peak is reported for the window.
pub fn reset_peak_rss() -> bool {
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}

/// The process's peak resident memory since the last [`reset_peak_rss`], in megabytes (Linux).
pub fn peak_rss_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dmg::{DmgConfig, DmgGenerator};
    use crate::maze::{MazeConfig, MazeGenerator};

    /// A folder of the test's own (tests run in parallel).
    fn dir(test: &str) -> std::path::PathBuf {
        let d =
            std::env::temp_dir().join(format!("warren-bench-test-{test}-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    /// Regression: 25 slow levels on two workers were one batch of 16 and one of 9, so the
    /// two-thread pass ran mostly on one worker.
    #[test]
    fn few_levels_still_spread_over_every_worker() {
        assert_eq!(bench_chunk_size(25, 2), 1);
        assert_eq!(bench_chunk_size(45_000, 2), 351);
        assert_eq!(bench_chunk_size(10_000_000, 2), 2048);
    }

    #[test]
    fn a_small_bench_measures_every_pass_and_cleans_up() {
        let g = MazeGenerator::new(MazeConfig {
            width: 8,
            height: 8,
            ..MazeConfig::default()
        })
        .unwrap();
        let plan = BenchPlan {
            count: 200,
            threads: 2,
            seed: 1,
        };
        let d = dir("maze");
        let r = bench_kind(&g, "kind = \"maze\"\n", &plan, &d).unwrap();
        assert_eq!(
            (r.kind, r.count, r.failures, r.threads),
            ("maze", 200, 0, 2)
        );
        assert!(r.median_us > 0.0 && r.p99_us >= r.median_us);
        assert!(r.levels_per_core > 0.0 && r.one_thread > 0.0 && r.all_threads > 0.0);
        assert!(r.archive_mb > 0.0 && r.mb_per_s > 0.0);
        // Mazes have no stages; nothing counts allocations in the library's tests.
        assert!(r.stages.is_empty());
        assert_eq!(r.allocations_per_level, None);
        assert_eq!(
            std::fs::read_dir(&d).unwrap().count(),
            0,
            "archives removed"
        );
        std::fs::remove_dir(&d).unwrap();
    }

    #[test]
    fn stage_shares_cover_the_time() {
        let g = DmgGenerator::new(DmgConfig {
            width: 40,
            height: 40,
            ..DmgConfig::default()
        })
        .unwrap();
        let plan = BenchPlan {
            count: 50,
            threads: 1,
            seed: 3,
        };
        let d = dir("dmg");
        let r = bench_kind(&g, "kind = \"dmg\"\n", &plan, &d).unwrap();
        let names: Vec<&str> = r.stages.iter().map(|s| s.0).collect();
        assert_eq!(names, ["passages and exits", "chamber placement", "other"]);
        // The named stages are timed inside the level's time: together more than nothing and
        // at most all of it (`other`, the rest, is clamped at zero and would hide an excess).
        // NOTE: no lower bound beyond zero: on a loaded machine the shares move with the
        // scheduler, and this test checks the accounting, not the machine.
        let named: f64 = r.stages[..2].iter().map(|s| s.1).sum();
        assert!(named > 0.0 && named <= 1.0, "{:?}", r.stages);
        assert!(r.stages[1].1 > 0.0, "chambers are timed: {:?}", r.stages);
        assert!((named + r.stages[2].1 - 1.0).abs() < 1e-9, "{:?}", r.stages);
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn peak_memory_is_read_where_the_system_reports_it() {
        if cfg!(target_os = "linux") {
            assert!(reset_peak_rss(), "Linux lets a process reset its peak");
            let mb = peak_rss_mb().expect("Linux reports VmHWM");
            assert!(mb > 0.0);
        }
    }
}
