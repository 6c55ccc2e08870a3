//! What `warren pack` writes beside its splits: `manifest.json` (each split's values, variants,
//! seed, counts asked and written, seeds tried, and the proof of disjointness) and `README.md`,
//! whose YAML front matter names the three splits for `datasets.load_dataset(DIR)`. Both are
//! written atomically, the manifest last; neither holds a time, so the same command writes the
//! same bytes.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::Result;
use serde::Serialize;

use super::pack_axis::Side;
use crate::archive::DATA_DIR;
use crate::batch::BatchSummary;
use crate::run::DisjointReport;

/// The names of the three splits, in the order they are made.
pub(super) const SPLITS: [&str; 3] = ["train", "id_test", "ood_test"];

/// The manifest's file name in the pack's folder.
pub(super) const MANIFEST: &str = "manifest.json";

/// What the run of one split did.
#[derive(Clone, Debug, Serialize)]
pub(super) struct SplitOutcome {
    /// The split's name.
    pub name: &'static str,
    /// Its master seed: level `i` came from `mix(seed, i)`.
    pub seed: u64,
    /// Levels asked for.
    pub count: u64,
    /// Levels written.
    pub written: u64,
    /// The indices looked at (`start..end`), and the levels left out there.
    pub scanned: crate::archive::Scanned,
    /// Seeds tried (`scanned.end - scanned.start`).
    pub seeds_tried: u64,
    /// Seeds that failed.
    pub failures: u64,
    /// Wall-clock seconds (printed, not stored: the manifest must not vary by run).
    #[serde(skip)]
    pub seconds: f64,
    /// Bytes of Parquet written (printed only).
    #[serde(skip)]
    pub bytes: u64,
}

impl SplitOutcome {
    /// The outcome of split `name` (seed `seed`, `count` asked) from its batch summary.
    pub fn new(name: &'static str, seed: u64, count: u64, summary: &BatchSummary) -> Self {
        let scanned = summary.scanned.clone().unwrap_or_default();
        Self {
            name,
            seed,
            count,
            written: summary.levels,
            seeds_tried: scanned.end - scanned.start,
            scanned,
            failures: summary.failures,
            seconds: summary.seconds,
            bytes: summary.bytes,
        }
    }

    /// One summary line, as `generate` prints.
    pub fn print(&self, kind: &str, dir: &Path) {
        let s = &self.scanned;
        eprintln!(
            "warren: {}: {} {kind} levels, {} failures, {} seeds tried: {} filtered out, {} \
             duplicates, {:.2} s, {} levels/s, {:.1} MB written to {}",
            self.name,
            super::thousands(self.written),
            self.failures,
            super::thousands(self.seeds_tried),
            super::thousands(s.filtered),
            super::thousands(s.duplicates),
            self.seconds,
            super::thousands((self.written as f64 / self.seconds.max(1e-9)) as u64),
            self.bytes as f64 / 1e6,
            dir.display()
        );
    }
}

/// A whole pack, as `manifest.json` records it.
pub(super) struct Manifest<'a> {
    pub kind: &'static str,
    pub sets: &'a [String],
    pub axis: &'a str,
    pub axis_keys: Vec<String>,
    pub seed: u64,
    /// Each split's side of the axis, in [`SPLITS`] order.
    pub sides: [&'a Side; 3],
    pub outcomes: &'a [SplitOutcome],
    pub proof: &'a DisjointReport,
}

/// One split in the manifest.
#[derive(Serialize)]
struct SplitEntry<'a> {
    #[serde(flatten)]
    outcome: &'a SplitOutcome,
    path: String,
    #[serde(flatten)]
    side: &'a Side,
}

/// The manifest's proof of disjointness.
#[derive(Serialize)]
struct Proof<'a> {
    method: &'static str,
    inputs: Vec<(&'a str, u64)>,
    exact_overlaps: u64,
    canonical_overlaps: u64,
    disjoint: bool,
    warren_version: &'static str,
}

/// The manifest file's layout.
#[derive(Serialize)]
struct ManifestDoc<'a> {
    warren_version: &'static str,
    kind: &'static str,
    base_overrides: &'a [String],
    axis: &'a str,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    axis_keys: &'a [String],
    seed: u64,
    unique: &'static str,
    splits: Vec<SplitEntry<'a>>,
    proof: Proof<'a>,
}

impl Manifest<'_> {
    /// Writes `README.md` and then `manifest.json` into `out`, atomically.
    pub fn write(&self, out: &Path) -> Result<()> {
        let doc = ManifestDoc {
            warren_version: env!("CARGO_PKG_VERSION"),
            kind: self.kind,
            base_overrides: self.sets,
            axis: self.axis,
            axis_keys: &self.axis_keys,
            seed: self.seed,
            unique: "canonical",
            splits: self
                .outcomes
                .iter()
                .zip(self.sides)
                .map(|(outcome, side)| SplitEntry {
                    path: data_glob(outcome.name),
                    side,
                    outcome,
                })
                .collect(),
            proof: Proof {
                method: "warren verify --disjoint train id_test ood_test (layout_hash and \
                         canonical_hash)",
                // Named by split, not by the folder's path: the manifest must not depend on
                // where the pack was written.
                inputs: SPLITS
                    .iter()
                    .zip(&self.proof.inputs)
                    .map(|(name, (_, levels))| (*name, *levels))
                    .collect(),
                exact_overlaps: self.proof.exact_overlaps,
                canonical_overlaps: self.proof.canonical_overlaps,
                disjoint: self.proof.exact_overlaps + self.proof.canonical_overlaps == 0,
                warren_version: env!("CARGO_PKG_VERSION"),
            },
        };
        let mut json = serde_json::to_string_pretty(&doc)?;
        json.push('\n');
        let mut h = crate::core::hash::ContentHasher::new();
        h.bytes(json.as_bytes());
        super::write_atomic(&out.join("README.md"), self.readme(h.finish()).as_bytes())?;
        super::write_atomic(&out.join(MANIFEST), json.as_bytes())?;
        Ok(())
    }

    /// The pack's `README.md`: front matter naming the splits' files for `datasets`, and a
    /// short account of what differs. The one config is named after `manifest` (the hash of
    /// `manifest.json`): `datasets` caches a local folder by its name and config name alone,
    /// so another pack written into a folder of the same name must not share the cache.
    fn readme(&self, manifest: u64) -> String {
        let mut y = String::from("---\ntags:\n- warren\n- procedural-generation\n");
        let _ = writeln!(y, "- {}", self.kind);
        let _ = write!(
            y,
            "- out-of-distribution\nconfigs:\n- config_name: pack-{manifest:016x}\n  \
             data_files:\n"
        );
        for split in SPLITS {
            let _ = writeln!(y, "  - split: {split}\n    path: \"{}\"", data_glob(split));
        }
        y += "---\n\n";
        let _ = writeln!(
            y,
            "# warren pack: {} levels along `{}`\n",
            self.kind, self.axis
        );
        y += "| split | values | levels | seed |\n|---|---|---|---|\n";
        for (o, side) in self.outcomes.iter().zip(self.sides) {
            let _ = writeln!(
                y,
                "| {} | {} | {} | {} |",
                o.name,
                side.values.join(", "),
                o.written,
                o.seed
            );
        }
        let _ = writeln!(
            y,
            "\nNo level is in two splits, exactly or up to rotation and reflection \
             ({} exact and {} canonical overlaps); `manifest.json` has the details. \
             Load with `datasets.load_dataset(\"path/to/this/folder\")`.",
            self.proof.exact_overlaps, self.proof.canonical_overlaps
        );
        y
    }
}

/// The files of split `name`, relative to the pack's folder.
fn data_glob(name: &str) -> String {
    format!("{name}/{DATA_DIR}/*.parquet")
}
