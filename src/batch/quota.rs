//! `--quota` and `--max-share`: a run that shapes the distribution of what it keeps, not only
//! cuts it (`--where`).
//!
//! ```text
//! --quota 'path_length=10..20:0.25,20..40:0.5,40..80:0.25'
//! --max-share distance=0.05        (repeatable; any metric, or a text column such as `answer`)
//! ```
//!
//! A quota splits `--count` into one target per bin (`share x count`, the rounding remainders
//! given to the largest fractions, so the targets add up to the count exactly) and keeps a
//! level when its value lies in a bin (`lo <= value < hi`, either end may be left open) that is
//! not full yet. A cap keeps at most `floor(share x count)` levels of any one value. Both are
//! decided by the ordered writer in index order, so the same arguments keep the same levels
//! whatever the threads; workers only skip what is certain to be left out (a value in no bin,
//! a bin already full), which the writer would have left out too.
//!
//! A quota whose bins cannot be filled within `--max-tries` is refused as soon as the rates
//! seen prove it (a cautious upper bound on each bin's rate, times the seeds left), in one line
//! naming the bin and the rate seen.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use arrow_array::RecordBatch;
use arrow_array::cast::AsArray;
use arrow_array::types::{Float32Type, UInt32Type};

use crate::core::generator::{ExtraKind, ExtraSpec, MetricKind, MetricSpec};
use crate::core::text::thousands;

/// Most bins a quota may have.
const MAX_BINS: usize = 64;
/// Seeds a run looks at before it may judge a quota unfillable.
const MIN_PROBE: u64 = 10_000;

/// A `--quota` or `--max-share` argument that does not compile.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{flag} {text:?}: {message}")]
pub struct ShapeError {
    /// `--quota` or `--max-share`.
    pub flag: &'static str,
    /// The argument as given.
    pub text: String,
    /// What was wrong and what was expected.
    pub message: String,
}

/// One bin of a quota: values `lo <= v < hi`, and the share of the run it gets.
#[derive(Clone, Debug, PartialEq)]
pub struct Bin {
    /// Lowest value in the bin (`-inf` when left open).
    pub lo: f64,
    /// One past the highest value (`+inf` when left open).
    pub hi: f64,
    /// Share of the kept levels, `(0, 1]`.
    pub share: f64,
}

impl Bin {
    /// The bin as written, `lo..hi` (an open end left blank).
    pub fn label(&self) -> String {
        let end = |v: f64| {
            if v.is_finite() {
                format!("{v}")
            } else {
                String::new()
            }
        };
        format!("{}..{}", end(self.lo), end(self.hi))
    }

    fn holds(&self, v: f64) -> bool {
        self.lo <= v && v < self.hi
    }

    /// Integer values in the bin, for a `u32` column.
    fn integers(&self) -> u64 {
        let lo = self.lo.max(0.0).ceil();
        let hi = self.hi.min(f64::from(u32::MAX) + 1.0).ceil();
        if hi > lo { (hi - lo) as u64 } else { 0 }
    }
}

/// A compiled `--quota`.
#[derive(Clone, Debug, PartialEq)]
pub struct Quota {
    text: String,
    column: &'static str,
    index: usize,
    kind: MetricKind,
    bins: Vec<Bin>,
}

/// A compiled `--max-share`.
#[derive(Clone, Debug, PartialEq)]
pub struct MaxShare {
    text: String,
    column: &'static str,
    /// The metric's place and type, or `None` for a text column.
    metric: Option<(usize, MetricKind)>,
    share: f64,
}

fn number(s: &str) -> Option<f64> {
    s.trim().parse::<f64>().ok().filter(|v| v.is_finite())
}

fn unknown_column(name: &str, metrics: &[MetricSpec]) -> String {
    let known: Vec<&str> = metrics.iter().map(|m| m.name).collect();
    format!(
        "no metric column `{name}` (this kind has: {})",
        known.join(", ")
    )
}

impl Quota {
    /// Compiles `COLUMN=LO..HI:SHARE,...` against a kind's metric columns.
    ///
    /// # Errors
    /// An unknown column, a bin or share that does not parse, bins that overlap or are empty,
    /// shares that do not add up to 1.
    pub fn compile(text: &str, metrics: &[MetricSpec]) -> Result<Quota, ShapeError> {
        let fail = |message: String| ShapeError {
            flag: "--quota",
            text: text.to_string(),
            message,
        };
        let (name, list) = text.split_once('=').ok_or_else(|| {
            fail(
                "expected COLUMN=LO..HI:SHARE,LO..HI:SHARE,... \
                 (e.g. path_length=10..20:0.5,20..40:0.5)"
                    .into(),
            )
        })?;
        let name = name.trim();
        let (index, spec) = metrics
            .iter()
            .enumerate()
            .find(|(_, m)| m.name == name)
            .ok_or_else(|| fail(unknown_column(name, metrics)))?;
        let mut bins = Vec::new();
        for part in list.split(',') {
            bins.push(
                parse_bin(part.trim()).map_err(|m| fail(format!("bin `{}`: {m}", part.trim())))?,
            );
        }
        if bins.len() > MAX_BINS {
            return Err(fail(format!("{} bins; at most {MAX_BINS}", bins.len())));
        }
        let mut sorted: Vec<&Bin> = bins.iter().collect();
        sorted.sort_by(|a, b| a.lo.total_cmp(&b.lo));
        if let Some(w) = sorted.windows(2).find(|w| w[0].hi > w[1].lo) {
            return Err(fail(format!(
                "bins {} and {} overlap",
                w[0].label(),
                w[1].label()
            )));
        }
        let sum: f64 = bins.iter().map(|b| b.share).sum();
        if (sum - 1.0).abs() > 1e-6 {
            return Err(fail(format!(
                "the shares add up to {sum}; they must add up to 1"
            )));
        }
        if spec.kind == MetricKind::U32
            && let Some(b) = bins.iter().find(|b| b.integers() == 0)
        {
            return Err(fail(format!(
                "bin {} holds no value of `{name}`, whose values are whole numbers",
                b.label()
            )));
        }
        Ok(Quota {
            text: text.trim().to_string(),
            column: spec.name,
            index,
            kind: spec.kind,
            bins,
        })
    }

    /// The argument as given.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The column binned.
    pub fn column(&self) -> &'static str {
        self.column
    }

    /// The bins, in the order given.
    pub fn bins(&self) -> &[Bin] {
        &self.bins
    }

    /// Levels each bin gets of `count`: the shares rounded down, the remainder handed to the
    /// largest fractions (the first bin first on ties), so the targets add up to `count`.
    pub fn targets(&self, count: u64) -> Vec<u64> {
        // The shares add up to 1 within 1e-6: scaled to add up to exactly 1 first, so the
        // floors never pass `count`.
        let total: f64 = self.bins.iter().map(|b| b.share).sum();
        let exact: Vec<f64> = self
            .bins
            .iter()
            .map(|b| b.share / total * count as f64)
            .collect();
        let mut targets: Vec<u64> = exact.iter().map(|e| e.floor() as u64).collect();
        let mut given: u64 = targets.iter().sum();
        // Rounding can still leave a floor one over at huge counts: take it back.
        while given > count {
            let i = (0..targets.len())
                .filter(|&i| targets[i] > 0)
                .min_by(|&a, &b| {
                    (exact[a] - exact[a].floor()).total_cmp(&(exact[b] - exact[b].floor()))
                })
                .expect("a positive target while the targets add up to more than count");
            targets[i] -= 1;
            given -= 1;
        }
        let mut order: Vec<usize> = (0..exact.len()).collect();
        order.sort_by(|&a, &b| {
            let fa = exact[a] - exact[a].floor();
            let fb = exact[b] - exact[b].floor();
            fb.total_cmp(&fa).then(a.cmp(&b))
        });
        for &i in order
            .iter()
            .cycle()
            .take(count.saturating_sub(given) as usize)
        {
            targets[i] += 1;
        }
        targets
    }

    /// The bin of a level with metric row `metrics` (its value rounded to the column's stored
    /// type, as `--where` reads it).
    pub fn bin_of_metrics(&self, metrics: &[f64]) -> Option<usize> {
        let v = metrics.get(self.index).copied().unwrap_or(f64::NAN);
        self.bin_of(stored(v, self.kind))
    }

    /// The bin of value `v` as stored.
    pub fn bin_of(&self, v: f64) -> Option<usize> {
        self.bins.iter().position(|b| b.holds(v))
    }
}

fn stored(v: f64, kind: MetricKind) -> f64 {
    match kind {
        MetricKind::U32 => f64::from(v as u32),
        MetricKind::F32 => f64::from(v as f32),
    }
}

fn parse_bin(part: &str) -> Result<Bin, String> {
    let (range, share) = part
        .rsplit_once(':')
        .ok_or("expected LO..HI:SHARE (e.g. 10..20:0.25)")?;
    let (lo, hi) = range
        .split_once("..")
        .ok_or("expected LO..HI before the `:` (an end may be left out: `40..`)")?;
    let end = |s: &str, open: f64| {
        if s.trim().is_empty() {
            Ok(open)
        } else {
            number(s).ok_or(format!("`{}` is not a number", s.trim()))
        }
    };
    let (lo, hi) = (end(lo, f64::NEG_INFINITY)?, end(hi, f64::INFINITY)?);
    if lo >= hi {
        return Err(format!("empty: {lo} is not below {hi}"));
    }
    let share = number(share)
        .filter(|s| *s > 0.0 && *s <= 1.0)
        .ok_or(format!(
            "share `{}` must be a number in (0, 1]",
            share.trim()
        ))?;
    Ok(Bin { lo, hi, share })
}

impl MaxShare {
    /// Compiles `COLUMN=SHARE` against a kind's metric and extra columns (a metric, or a
    /// `utf8` extra column such as a task's `answer`).
    ///
    /// # Errors
    /// An unknown column, or a share outside `(0, 1]`.
    pub fn compile(
        text: &str,
        metrics: &[MetricSpec],
        extra: &[ExtraSpec],
    ) -> Result<MaxShare, ShapeError> {
        let fail = |message: String| ShapeError {
            flag: "--max-share",
            text: text.to_string(),
            message,
        };
        let (name, share) = text
            .split_once('=')
            .ok_or_else(|| fail("expected COLUMN=SHARE (e.g. path_length=0.05)".into()))?;
        let name = name.trim();
        let share = number(share)
            .filter(|s| *s > 0.0 && *s <= 1.0)
            .ok_or_else(|| {
                fail(format!(
                    "share `{}` must be a number in (0, 1]",
                    share.trim()
                ))
            })?;
        if let Some((i, m)) = metrics.iter().enumerate().find(|(_, m)| m.name == name) {
            return Ok(MaxShare {
                text: text.trim().to_string(),
                column: m.name,
                metric: Some((i, m.kind)),
                share,
            });
        }
        if let Some(e) = extra
            .iter()
            .find(|e| e.name == name && e.kind == ExtraKind::Utf8)
        {
            return Ok(MaxShare {
                text: text.trim().to_string(),
                column: e.name,
                metric: None,
                share,
            });
        }
        let mut message = unknown_column(name, metrics);
        let texts: Vec<&str> = extra
            .iter()
            .filter(|e| e.kind == ExtraKind::Utf8)
            .map(|e| e.name)
            .collect();
        if !texts.is_empty() {
            message.pop();
            let _ = write!(message, "; text columns: {})", texts.join(", "));
        }
        Err(fail(message))
    }

    /// The argument as given.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The column capped.
    pub fn column(&self) -> &'static str {
        self.column
    }

    /// Most levels of one value among `count`.
    pub fn cap(&self, count: u64) -> u64 {
        (self.share * count as f64 + 1e-9).floor() as u64
    }
}

/// Refuses, before a run starts, a shape that counting alone proves impossible for `count`
/// levels: a cap that allows no level, or a quota bin of a whole-number column that holds too
/// few values for its target under a cap on the same column.
///
/// # Errors
/// One line naming the argument at fault.
pub fn check_shape(quota: Option<&Quota>, caps: &[MaxShare], count: u64) -> Result<(), ShapeError> {
    for cap in caps {
        if cap.cap(count) == 0 && count > 0 {
            return Err(ShapeError {
                flag: "--max-share",
                text: cap.text.clone(),
                message: format!(
                    "allows no level of any value among {count} (share x count < 1); raise the \
                     share or --count"
                ),
            });
        }
    }
    let Some(q) = quota.filter(|q| q.kind == MetricKind::U32) else {
        return Ok(());
    };
    let Some(cap) = caps.iter().find(|c| c.column == q.column) else {
        return Ok(());
    };
    let per_value = cap.cap(count);
    for (bin, target) in q.bins.iter().zip(q.targets(count)) {
        let most = bin.integers().saturating_mul(per_value);
        if most < target {
            return Err(ShapeError {
                flag: "--quota",
                text: q.text.clone(),
                message: format!(
                    "bin {} needs {target} levels, but it holds {} values of `{}` and \
                     --max-share {} allows {per_value} of each: at most {most}",
                    bin.label(),
                    bin.integers(),
                    q.column,
                    cap.text
                ),
            });
        }
    }
    Ok(())
}

/// What workers may skip: the quota, and which of its bins the writer has filled.
#[derive(Clone, Debug)]
pub(crate) struct Gate {
    quota: Quota,
    full: Arc<[AtomicBool]>,
}

/// What a worker does with a level that passed `--where`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Gated {
    /// Build it: the writer decides.
    Build,
    /// Its value is in no bin.
    NoBin,
    /// Its bin is full: every level after the one that filled it is left out.
    Full,
}

impl Gate {
    /// Whether a worker builds the level with metric row `metrics`.
    pub fn check(&self, metrics: &[f64]) -> Gated {
        match self.quota.bin_of_metrics(metrics) {
            None => Gated::NoBin,
            // The flag is set by the writer after the level that filled the bin; a worker
            // building a level now builds one of a later chunk, which the writer would leave
            // out too.
            Some(b) if self.full[b].load(Ordering::Acquire) => Gated::Full,
            Some(_) => Gated::Build,
        }
    }
}

/// One kept value of a cap.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Value {
    Number(u64),
    Text(Box<str>),
}

#[derive(Debug)]
struct QuotaState {
    quota: Quota,
    targets: Vec<u64>,
    kept: Vec<u64>,
    full: Arc<[AtomicBool]>,
}

#[derive(Debug)]
struct CapState {
    cap: MaxShare,
    most: u64,
    counts: HashMap<Value, u64>,
}

/// The ordered writer's side of `--quota` and `--max-share`: what has been kept of each bin
/// and value.
#[derive(Debug)]
pub(crate) struct Shaper {
    quota: Option<QuotaState>,
    caps: Vec<CapState>,
    max_tries: u64,
    /// Levels left out because their bin was full or their value at its cap.
    pub over: u64,
}

/// Why the shaper leaves a row out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// Its value lies in no bin.
    NoBin,
    /// Its bin is full or a value at its cap.
    Over,
}

/// A row's values of the shaped columns, read once per batch.
pub(crate) struct Rows {
    quota: Vec<f64>,
    caps: Vec<Vec<Value>>,
}

/// A row the shaper admitted, to count once it is kept.
pub(crate) struct Admitted {
    bin: Option<usize>,
    values: Vec<Value>,
}

impl Shaper {
    /// The shaper of a run of `count` levels; `None` without a quota or cap.
    pub fn new(
        quota: Option<&Quota>,
        caps: &[MaxShare],
        count: u64,
        max_tries: u64,
    ) -> Option<Self> {
        if quota.is_none() && caps.is_empty() {
            return None;
        }
        let quota = quota.map(|q| {
            let targets = q.targets(count);
            QuotaState {
                full: targets.iter().map(|&t| AtomicBool::new(t == 0)).collect(),
                kept: vec![0; targets.len()],
                targets,
                quota: q.clone(),
            }
        });
        let caps = caps
            .iter()
            .map(|c| CapState {
                most: c.cap(count),
                cap: c.clone(),
                counts: HashMap::new(),
            })
            .collect();
        Some(Self {
            quota,
            caps,
            max_tries,
            over: 0,
        })
    }

    /// What workers may skip, with a quota.
    pub fn gate(&self) -> Option<Gate> {
        self.quota.as_ref().map(|q| Gate {
            quota: q.quota.clone(),
            full: q.full.clone(),
        })
    }

    /// The shaped columns of `batch`.
    pub fn rows(&self, batch: &RecordBatch) -> Result<Rows, String> {
        let quota = match &self.quota {
            Some(q) => numbers(batch, q.quota.column)?,
            None => Vec::new(),
        };
        let mut caps = Vec::with_capacity(self.caps.len());
        for c in &self.caps {
            caps.push(if c.cap.metric.is_some() {
                numbers(batch, c.cap.column)?
                    .into_iter()
                    .map(|v| Value::Number(v.to_bits()))
                    .collect()
            } else {
                let column = batch
                    .column_by_name(c.cap.column)
                    .and_then(|c| c.as_string_opt::<i32>())
                    .ok_or_else(|| format!("no text column `{}`", c.cap.column))?;
                column
                    .iter()
                    .map(|s| Value::Text(s.unwrap_or_default().into()))
                    .collect()
            });
        }
        Ok(Rows { quota, caps })
    }

    /// Whether row `row` may be kept; the caller counts it with [`Shaper::commit`] once kept.
    pub fn admit(&self, rows: &Rows, row: usize) -> Result<Admitted, Refusal> {
        let bin = match &self.quota {
            Some(q) => {
                let b = q.quota.bin_of(rows.quota[row]).ok_or(Refusal::NoBin)?;
                if q.kept[b] >= q.targets[b] {
                    return Err(Refusal::Over);
                }
                Some(b)
            }
            None => None,
        };
        let mut values = Vec::with_capacity(self.caps.len());
        for (c, column) in self.caps.iter().zip(&rows.caps) {
            let v = &column[row];
            if c.counts.get(v).copied().unwrap_or(0) >= c.most {
                return Err(Refusal::Over);
            }
            values.push(v.clone());
        }
        Ok(Admitted { bin, values })
    }

    /// Counts a kept row.
    pub fn commit(&mut self, admitted: Admitted) {
        if let (Some(q), Some(b)) = (self.quota.as_mut(), admitted.bin) {
            q.kept[b] += 1;
            if q.kept[b] >= q.targets[b] {
                q.full[b].store(true, Ordering::Release);
            }
        }
        for (c, v) in self.caps.iter_mut().zip(admitted.values) {
            *c.counts.entry(v).or_insert(0) += 1;
        }
    }

    /// Counts the rows of a batch kept before a resumed run's start.
    pub fn restore(&mut self, batch: &RecordBatch) -> Result<(), String> {
        let rows = self.rows(batch)?;
        for row in 0..batch.num_rows() {
            let bin = self
                .quota
                .as_ref()
                .and_then(|q| q.quota.bin_of(rows.quota[row]));
            let values = rows.caps.iter().map(|c| c[row].clone()).collect();
            self.commit(Admitted { bin, values });
        }
        Ok(())
    }

    /// After `scanned` seeds: the one-line reason a bin cannot be filled within the seeds
    /// left, when the rates seen prove it.
    pub fn unfillable(&self, scanned: u64) -> Option<String> {
        let q = self.quota.as_ref()?;
        if scanned < MIN_PROBE {
            return None;
        }
        let left = self.max_tries.saturating_sub(scanned) as f64;
        for (b, bin) in q.quota.bins.iter().enumerate() {
            let (kept, target) = (q.kept[b], q.targets[b]);
            if kept >= target {
                continue;
            }
            let k = kept as f64;
            // About four standard deviations above the rate seen: a bin refused here has
            // almost surely a lower rate.
            let upper = (k + 4.0 + 4.0 * k.sqrt()) / scanned as f64;
            let coming = upper * left;
            if k + coming < target as f64 {
                return Some(self.short_line(b, bin, scanned, Some(k + k / scanned as f64 * left)));
            }
        }
        None
    }

    /// After the seeds ran out: the bins or caps that kept the run short, in one line.
    pub fn shortfall(&self, scanned: u64) -> Option<String> {
        if let Some(q) = &self.quota
            && let Some(b) = (0..q.targets.len()).find(|&b| q.kept[b] < q.targets[b])
        {
            return Some(self.short_line(b, &q.quota.bins[b], scanned, None));
        }
        let c = self
            .caps
            .iter()
            .find(|c| c.counts.values().any(|&n| n >= c.most))?;
        let at_cap = c.counts.values().filter(|&&n| n >= c.most).count();
        Some(format!(
            "--max-share {}: {at_cap} of the {} values seen reached the cap of {} levels each, \
             and {} levels over a cap were left out in {} seeds; raise the share or \
             --max-tries",
            c.cap.text,
            c.counts.len(),
            thousands(c.most),
            thousands(self.over),
            thousands(scanned)
        ))
    }

    fn short_line(&self, b: usize, bin: &Bin, scanned: u64, expected: Option<f64>) -> String {
        let q = self.quota.as_ref().expect("a quota");
        let (kept, target) = (q.kept[b], q.targets[b]);
        let rate = kept as f64 / scanned.max(1) as f64;
        let outlook = match expected {
            Some(e) => format!(
                "so the {} seeds of --max-tries would give about {}",
                thousands(self.max_tries),
                thousands(e.round() as u64)
            ),
            None => format!(
                "after all {} seeds of --max-tries",
                thousands(self.max_tries)
            ),
        };
        format!(
            "--quota {}: bin {} cannot be filled: it needs {} levels ({}% of the run) and \
             {:.4}% of the seeds tried went into it ({} of {}), {outlook}; widen the bin, lower \
             its share or raise --max-tries",
            q.quota.text,
            bin.label(),
            thousands(target),
            bin.share * 100.0,
            rate * 100.0,
            thousands(kept),
            thousands(scanned)
        )
    }

    /// Per bin: its label, levels kept and target.
    pub fn bins(&self) -> Vec<(String, u64, u64)> {
        self.quota.as_ref().map_or_else(Vec::new, |q| {
            q.quota
                .bins
                .iter()
                .zip(q.kept.iter().zip(&q.targets))
                .map(|(bin, (&k, &t))| (format!("{} {}", q.quota.column, bin.label()), k, t))
                .collect()
        })
    }
}

/// `warren verify`'s check of a shaped archive: every level in a bin, no bin past its target
/// and no value past its cap, and a finished run's bins filled exactly.
#[derive(Debug)]
pub struct ShapeAudit {
    shaper: Shaper,
    /// Violations found so far, one line each.
    pub violations: Vec<String>,
    /// Levels at fault.
    pub count: u64,
}

impl ShapeAudit {
    /// The audit of an archive of `levels` levels kept under the `quota` and `caps` as its
    /// metadata records them, compiled against the kind's columns.
    ///
    /// # Errors
    /// A recorded quota or cap that does not compile.
    pub fn new(
        quota: Option<&str>,
        caps: &[String],
        (metrics, extra): (&[MetricSpec], &[ExtraSpec]),
        levels: u64,
    ) -> Result<Option<Self>, ShapeError> {
        let quota = quota.map(|q| Quota::compile(q, metrics)).transpose()?;
        let caps = caps
            .iter()
            .map(|c| MaxShare::compile(c, metrics, extra))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(
            Shaper::new(quota.as_ref(), &caps, levels, u64::MAX).map(|shaper| Self {
                shaper,
                violations: Vec::new(),
                count: 0,
            }),
        )
    }

    /// Checks batch `b`, in batch order.
    pub fn batch(&mut self, b: usize, batch: &RecordBatch) {
        let rows = match self.shaper.rows(batch) {
            Ok(rows) => rows,
            Err(e) => {
                self.count += batch.num_rows() as u64;
                self.violations.push(format!("batch {b}: {e}"));
                return;
            }
        };
        for row in 0..batch.num_rows() {
            match self.shaper.admit(&rows, row) {
                Ok(a) => self.shaper.commit(a),
                Err(refusal) => {
                    self.count += 1;
                    let why = match refusal {
                        Refusal::NoBin => "its value lies in no --quota bin",
                        Refusal::Over => "it is past its --quota bin's target or a --max-share cap",
                    };
                    self.violations.push(format!("batch {b}, row {row}: {why}"));
                }
            }
        }
    }

    /// After the last batch: bins that hold fewer levels than their targets.
    pub fn finish(&mut self) {
        for (bin, kept, target) in self.shaper.bins() {
            if kept != target {
                self.count += 1;
                self.violations.push(format!(
                    "--quota bin {bin} holds {kept} levels; its share of the run is {target}"
                ));
            }
        }
    }
}

/// Column `name` of `batch` as `f64` (a `u32` or an `f32` column).
fn numbers(batch: &RecordBatch, name: &str) -> Result<Vec<f64>, String> {
    let column = batch
        .column_by_name(name)
        .ok_or_else(|| format!("no column `{name}`"))?;
    if let Some(c) = column.as_primitive_opt::<UInt32Type>() {
        return Ok(c.values().iter().map(|&v| f64::from(v)).collect());
    }
    if let Some(c) = column.as_primitive_opt::<Float32Type>() {
        return Ok(c.values().iter().map(|&v| f64::from(v)).collect());
    }
    Err(format!("column `{name}` is not a u32 or f32 column"))
}

#[cfg(test)]
#[path = "quota_tests.rs"]
mod tests;
