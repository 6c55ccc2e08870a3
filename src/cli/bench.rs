//! `warren bench [KIND ...]`: how fast each generator runs here. For every kind (default: all,
//! with their built-in profiles; a profile file works too) it measures fixed seeds on one thread
//! and on all (see `batch::bench`), then prints one table: levels per second per core, µs per
//! level (median, p99), end-to-end levels per second on one thread and on all with the scaling
//! factor, MB/s into the archive, allocations per level, peak memory; then each staged
//! generator's time per stage. `--json` prints the same as one JSON object; `--flamegraph
//! OUT.svg` samples the whole bench into a flamegraph.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use serde::{Serialize, Serializer};

use super::flamegraph::Flamegraph;
use super::thousands;
use crate::batch::bench::{BenchPlan, KindReport, bench_kind};
use crate::batch::resolve_threads;
use crate::core::generator::Generator;
use crate::profile::{GeneratorTask, KINDS, Profile};

/// Arguments of `bench`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Generator kinds (built-in profiles) or profile files; default: every kind.
    kinds: Vec<String>,
    /// Levels per pass (at most 10,000,000); 0 picks about one second of one core's work per
    /// kind.
    #[arg(
        long,
        default_value_t = 0,
        value_parser = clap::value_parser!(u64).range(0..=crate::batch::bench::MAX_COUNT)
    )]
    count: u64,
    /// Workers of the all-threads pass (default: all cores).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Master seed of the levels.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    json: bool,
    /// Sample the bench and write a flamegraph SVG.
    #[arg(long, value_name = "OUT.svg")]
    flamegraph: Option<PathBuf>,
}

struct BenchTask<'a> {
    profile_toml: String,
    plan: &'a BenchPlan,
    dir: &'a Path,
}

impl GeneratorTask for BenchTask<'_> {
    type Output = Result<KindReport>;

    fn run<G: Generator>(self, generator: &G) -> Result<KindReport> {
        Ok(bench_kind(
            generator,
            &self.profile_toml,
            self.plan,
            self.dir,
        )?)
    }
}

/// Runs `bench`.
pub fn run(args: Args) -> Result<ExitCode> {
    let names: Vec<String> = if args.kinds.is_empty() {
        KINDS.iter().map(|k| k.to_string()).collect()
    } else {
        args.kinds.clone()
    };
    // Every profile is read before anything runs: a typo fails at once.
    let profiles = names
        .iter()
        .map(|n| Profile::resolve(n).with_context(|| format!("bench {n}")))
        .collect::<Result<Vec<_>>>()?;
    let plan = BenchPlan {
        count: args.count,
        threads: args.threads,
        seed: args.seed,
    };
    let dir = std::env::temp_dir().join(format!("warren-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).with_context(|| format!("{}", dir.display()))?;
    let sampler = args
        .flamegraph
        .as_deref()
        .map(Flamegraph::start)
        .transpose()?;
    let mut reports = Vec::new();
    let outcome = (|| -> Result<()> {
        for p in &profiles {
            if !args.json {
                eprintln!("warren bench: {} ...", p.kind());
            }
            let task = BenchTask {
                profile_toml: p.to_toml(),
                plan: &plan,
                dir: &dir,
            };
            reports.push(p.with_generator(task)??);
        }
        Ok(())
    })();
    let _ = std::fs::remove_dir_all(&dir);
    outcome?;
    // A row is named by what was asked for: the kind, or the profile file's stem.
    let labels: Vec<String> = names
        .iter()
        .map(|n| {
            Path::new(n)
                .file_stem()
                .map_or_else(|| n.clone(), |s| s.to_string_lossy().into_owned())
        })
        .collect();
    let cores = resolve_threads(0);
    if args.json {
        println!("{}", json(&reports, &labels, cores, args.seed)?);
    } else {
        print!("{}", table(&reports, &labels, cores, args.seed));
    }
    if let Some(s) = sampler {
        let out = s.out().to_path_buf();
        let samples = s.finish()?;
        eprintln!(
            "warren: flamegraph of {} samples written to {}",
            thousands(samples),
            out.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The table `bench` prints.
fn table(reports: &[KindReport], labels: &[String], cores: usize, seed: u64) -> String {
    let mut out = String::new();
    let threads = reports.first().map_or(cores, |r| r.threads);
    let _ = writeln!(
        out,
        "warren {} bench, {} cores, {}, levels from master seed {seed}",
        env!("CARGO_PKG_VERSION"),
        cores,
        today()
    );
    let header = [
        "profile".to_string(),
        "levels".into(),
        "levels/s/core".into(),
        "µs median".into(),
        "µs p99".into(),
        "1 thread/s".into(),
        format!("{threads} threads/s"),
        "scaling".into(),
        "MB/s".into(),
        "allocs/level".into(),
        "peak MB".into(),
    ];
    let rows: Vec<Vec<String>> = reports
        .iter()
        .zip(labels)
        .map(|(r, label)| {
            vec![
                label.clone(),
                thousands(r.count),
                thousands(r.levels_per_core.round() as u64),
                figure(r.median_us),
                figure(r.p99_us),
                thousands(r.one_thread.round() as u64),
                thousands(r.all_threads.round() as u64),
                format!("{:.2}x", r.scaling),
                format!("{:.0}", r.mb_per_s),
                r.allocations_per_level.map_or("-".into(), figure),
                r.peak_rss_mb.map_or("-".into(), |m| format!("{m:.0}")),
            ]
        })
        .collect();
    let widths: Vec<usize> = (0..header.len())
        .map(|c| {
            rows.iter()
                .map(|r| r[c].chars().count())
                .chain([header[c].chars().count()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |cells: &[String]| {
        let mut l = String::new();
        for (c, (cell, w)) in cells.iter().zip(&widths).enumerate() {
            let pad = w - cell.chars().count();
            if c == 0 {
                let _ = write!(l, "{cell}{}", " ".repeat(pad));
            } else {
                let _ = write!(l, "  {}{cell}", " ".repeat(pad));
            }
        }
        l
    };
    let _ = writeln!(out, "{}", line(&header));
    for r in &rows {
        let _ = writeln!(out, "{}", line(r));
    }
    for (r, label) in reports
        .iter()
        .zip(labels)
        .filter(|(r, _)| !r.stages.is_empty())
    {
        let stages: Vec<String> = r
            .stages
            .iter()
            .map(|(name, share)| format!("{name} {:.0}%", 100.0 * share))
            .collect();
        let _ = writeln!(out, "stages of {label}: {}", stages.join(", "));
    }
    if reports.iter().any(|r| r.failures > 0) {
        for r in reports.iter().filter(|r| r.failures > 0) {
            let _ = writeln!(
                out,
                "{}: {} of {} seeds failed",
                r.kind, r.failures, r.count
            );
        }
    }
    if reports.iter().any(|r| r.allocations_per_level.is_none()) {
        let _ = writeln!(
            out,
            "allocs/level: build with `--features count-allocations` to count them"
        );
    }
    out
}

/// A number with three significant figures at most, at least one decimal below 100.
fn figure(x: f64) -> String {
    if x >= 100.0 {
        thousands(x.round() as u64)
    } else if x >= 10.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.2}")
    }
}

/// `bench --json`: the machine, the date and one object per kind.
#[derive(Serialize)]
struct BenchJson<'a> {
    version: &'static str,
    date: String,
    cores: usize,
    seed: u64,
    kinds: Vec<KindJson<'a>>,
}

/// One kind's report in `bench --json` (non-finite numbers are `null`).
#[derive(Serialize)]
struct KindJson<'a> {
    profile: &'a str,
    kind: &'a str,
    levels: u64,
    failures: u64,
    levels_per_second_per_core: f64,
    us_median: f64,
    us_p99: f64,
    one_thread_levels_per_second: f64,
    threads: usize,
    all_threads_levels_per_second: f64,
    scaling: f64,
    archive_mb_per_second: f64,
    archive_mb: f64,
    allocations_per_level: Option<f64>,
    peak_rss_mb: Option<f64>,
    stages: Stages<'a>,
}

/// Stage shares as a JSON object in stage order.
struct Stages<'a>(&'a [(&'static str, f64)]);

impl Serialize for Stages<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.iter().map(|(name, share)| (name, share)))
    }
}

/// The reports as one JSON object.
fn json(
    reports: &[KindReport],
    labels: &[String],
    cores: usize,
    seed: u64,
) -> serde_json::Result<String> {
    let kinds = reports
        .iter()
        .zip(labels)
        .map(|(r, label)| KindJson {
            profile: label,
            kind: r.kind,
            levels: r.count,
            failures: r.failures,
            levels_per_second_per_core: r.levels_per_core,
            us_median: r.median_us,
            us_p99: r.p99_us,
            one_thread_levels_per_second: r.one_thread,
            threads: r.threads,
            all_threads_levels_per_second: r.all_threads,
            scaling: r.scaling,
            archive_mb_per_second: r.mb_per_s,
            archive_mb: r.archive_mb,
            allocations_per_level: r.allocations_per_level,
            peak_rss_mb: r.peak_rss_mb,
            stages: Stages(&r.stages),
        })
        .collect();
    serde_json::to_string(&BenchJson {
        version: env!("CARGO_PKG_VERSION"),
        date: today(),
        cores,
        seed,
        kinds,
    })
}

/// Today's date (UTC) as `YYYY-MM-DD`.
fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}-{m:02}-{d:02}")
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (Howard Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_from_day_counts() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_414), (2025, 11, 22));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
    }

    fn report(kind: &'static str, allocs: Option<f64>) -> KindReport {
        KindReport {
            kind,
            count: 1000,
            failures: 0,
            median_us: 21.94,
            p99_us: 130.2,
            levels_per_core: 45_000.4,
            stages: vec![("a", 0.25), ("other", 0.75)],
            allocations_per_level: allocs,
            one_thread: 40_000.0,
            threads: 2,
            all_threads: 70_000.0,
            scaling: 1.75,
            mb_per_s: 300.4,
            archive_mb: 4.0,
            peak_rss_mb: Some(50.2),
        }
    }

    #[test]
    fn the_table_lines_up_and_says_what_is_missing() {
        let labels = ["maze".to_string(), "grammar".to_string()];
        let t = table(
            &[report("maze", None), report("grammar", Some(0.0))],
            &labels,
            2,
            1,
        );
        let lines: Vec<&str> = t.lines().collect();
        assert!(lines[1].starts_with("profile") && lines[1].ends_with("peak MB"));
        assert!(lines[2].starts_with("maze   ") && lines[2].contains("21.9"));
        assert!(lines[2].contains("1.75x") && lines[2].contains("45,000"));
        assert_eq!(lines[1].chars().count(), lines[2].chars().count());
        assert!(lines[3].contains(" 0.00 "), "{}", lines[3]);
        assert!(t.contains("stages of maze: a 25%, other 75%"));
        assert!(t.contains("--features count-allocations"));
    }

    #[test]
    fn the_json_has_every_kind() {
        let labels = ["maze".to_string(), "dmg-small".to_string()];
        let j = json(
            &[report("maze", None), report("dmg", Some(2.5))],
            &labels,
            2,
            7,
        )
        .unwrap();
        assert!(j.starts_with("{\"version\":"));
        assert!(j.contains("\"kind\":\"maze\"") && j.contains("\"kind\":\"dmg\""));
        assert!(j.contains("{\"profile\":\"dmg-small\",\"kind\":\"dmg\","));
        assert!(j.contains("\"allocations_per_level\":null"));
        assert!(j.contains("\"allocations_per_level\":2.5"));
        assert!(j.contains("\"stages\":{\"a\":0.25,\"other\":0.75}"));
        assert!(j.contains("\"cores\":2,\"seed\":7"));
    }
}
