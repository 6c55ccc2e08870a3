//! What a card describes: the splits read from a dataset or an archive (metadata, footer,
//! every metric value, sizes) and where the card goes.

use std::path::PathBuf;

use anyhow::{Result, anyhow};

use crate::archive::{ArchiveColumns, Compression, LevelSource, RunFooter, RunMeta};
use crate::cli::inspect::{MetricValues, metric_values};

/// One split the card describes, with what was read from it.
pub(super) struct Split {
    /// `train`, `validation`...
    pub(super) name: String,
    pub(super) source: Box<dyn LevelSource>,
    /// Its files' bytes on disk (the Hub's `download_size`).
    pub(super) file_bytes: u64,
    pub(super) run: RunMeta,
    pub(super) footer: RunFooter,
    pub(super) metrics: Vec<MetricValues>,
    pub(super) levels: u64,
    /// Its Arrow bytes (`num_bytes`), estimated from its first batch.
    pub(super) arrow_bytes: u64,
}

impl Split {
    /// Reads split `name` of `source`: its metadata, footer and every metric value.
    pub(super) fn read(
        name: String,
        source: Box<dyn LevelSource>,
        file_bytes: u64,
    ) -> Result<Self> {
        let at = |e: &dyn std::fmt::Display| anyhow!("{}: {e}", source.path().display());
        let run = RunMeta::from_schema(source.schema()).map_err(|e| at(&e))?;
        let footer = RunFooter::from_metadata(source.footer_metadata()).map_err(|e| at(&e))?;
        let (metrics, levels) = metric_values(source.as_ref())?;
        let arrow_bytes = arrow_bytes(source.as_ref(), levels)?;
        Ok(Self {
            name,
            source,
            file_bytes,
            run,
            footer,
            metrics,
            levels,
            arrow_bytes,
        })
    }
}

/// What the card describes and where it goes.
pub(super) struct Card {
    /// The folder of `README.md`, `sample.png` and `profile.toml`.
    pub(super) dir: PathBuf,
    pub(super) splits: Vec<Split>,
    pub(super) columns: ArchiveColumns,
    /// `configs`' file pattern per split; `None` when `datasets` cannot read the files.
    pub(super) data_files: Option<Vec<(String, String)>>,
    /// For an archive: its name as the card gives it, and its compression.
    pub(super) archive: Option<(String, Compression)>,
    pub(super) license: String,
    pub(super) pretty_name: String,
}

/// The Arrow bytes of `levels` levels of `source`: its first batch's bytes per level times
/// `levels`.
///
/// NOTE: an estimate (exact for one batch, and for columns of fixed width), so the card reads
/// one batch more instead of every batch twice; the Hub only shows `num_bytes`, `datasets`
/// checks `num_examples`, which is exact.
fn arrow_bytes(source: &dyn LevelSource, levels: u64) -> Result<u64> {
    if source.batch_count() == 0 || levels == 0 {
        return Ok(0);
    }
    let batch = source.batch(0)?;
    let mut bytes = 0;
    for column in batch.columns() {
        bytes += column.to_data().get_slice_memory_size()?;
    }
    Ok((bytes as f64 / batch.num_rows().max(1) as f64 * levels as f64).round() as u64)
}
