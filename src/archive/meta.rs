//! The archive's own metadata, typed: what a run's schema says of the run ([`RunMeta`]: format,
//! version, generator, profile, master seed, legends, shard, files) and what its footer counts
//! ([`RunFooter`]: levels written, failed seeds by reason). Every structured value is JSON
//! written and read by serde, and every reading error names its key.
//!
//! Archives say which layout of this metadata they use in `warren.format`
//! ([`FORMAT_VERSION`]). Archives from before the key existed (warren 0.2: a prose shard
//! record, comma-separated checksums) are refused with a message naming the version that wrote
//! them; levels are a pure function of (profile, seed, index), so regenerating gives the same
//! levels in the current format.

use std::collections::{BTreeMap, HashMap};

use arrow_schema::{Metadata, Schema};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::archive::error::MetaError;
use crate::core::files::Files;
use crate::core::generator::Generator;
use crate::core::grid::cell;
use crate::core::shard::{ShardMeta, ShardRecord};

/// The layout of the `warren.*` metadata this warren writes and reads: 3, the first layout to
/// carry its number (JSON shard record, JSON checksum list). The layouts before it had no
/// number and are named by the warren version that wrote them (`0.2`: a prose shard record
/// `I/N of C levels: START..END`, comma-separated hex checksums).
pub const FORMAT_VERSION: u32 = 3;

/// Schema metadata: the metadata layout, [`FORMAT_VERSION`].
pub const META_FORMAT: &str = "warren.format";
/// Schema metadata: warren's version.
pub const META_VERSION: &str = "warren.version";
/// Schema metadata: the generator kind.
pub const META_GENERATOR: &str = "warren.generator";
/// Schema metadata: the full resolved profile, as TOML.
pub const META_PROFILE: &str = "warren.profile";
/// Schema metadata: the master seed.
pub const META_MASTER_SEED: &str = "warren.master_seed";
/// Schema metadata: the cell-code legend, as a JSON object code -> name.
pub const META_CELL_CODES: &str = "warren.cell_codes";
/// Schema metadata: the vertex tag names, as a JSON array indexed by tag id.
pub const META_TAGS: &str = "warren.tags";
/// Schema metadata: the rule names of `rule_uses`, as a JSON array.
pub const META_RULES: &str = "warren.rules";
/// Schema metadata: the files the profile names (a grammar's rule file, DMG table overrides),
/// as a JSON object path -> contents, so that the archive verifies with nothing but itself.
/// Absent when the profile names none.
pub const META_FILES: &str = "warren.files";
/// Schema metadata: the shard of the run, as a JSON object of numbers
/// `{"index":I,"count":N,"total":C,"start":START,"end":END}` ([`ShardMeta`]).
pub const META_SHARD: &str = "warren.shard";
/// Footer metadata: levels written.
pub const FOOTER_LEVELS: &str = "warren.levels";
/// Footer metadata: failed seeds, as a JSON object reason -> count.
pub const FOOTER_FAILURES: &str = "warren.failures";
/// Schema metadata: the run's selection (`--unique`, `--where`), as a JSON object
/// `{"unique":B,"where":"EXPR"|null,"max_tries":N}` ([`SelectionMeta`]); absent without one.
pub const META_SELECTION: &str = "warren.selection";
/// Schema metadata: for one split of a dataset (`warren split`), which one, the shares of all
/// and the archive they were drawn from, as a JSON object ([`SplitMeta`]).
pub const META_SPLIT: &str = "warren.split";
/// Schema metadata: for a run of a mixture of variants of the profile (`warren pack`), each
/// variant's `--set` overrides and its weight, as a JSON object ([`MixtureMeta`]); absent for a
/// run of the profile alone.
pub const META_MIXTURE: &str = "warren.mixture";
/// Footer metadata: with a selection, the indices the run looked at and the levels it left
/// out there, as a JSON object `{"start":S,"end":E,"duplicates":D,"filtered":F}` ([`Scanned`]).
pub const FOOTER_SCANNED: &str = "warren.scanned";
/// Footer metadata: one CRC-32 per record batch, as a JSON array of numbers.
pub const FOOTER_BATCH_CRC32: &str = "warren.batch_crc32";

/// What an archive's schema metadata says of the run that made it.
#[derive(Clone, Debug, PartialEq)]
pub struct RunMeta {
    /// The warren version that wrote it (`warren.version`).
    pub version: String,
    /// The generator kind (`warren.generator`).
    pub generator: String,
    /// The full resolved profile, as TOML (`warren.profile`).
    pub profile: String,
    /// The master seed: level `i` was made from `mix(master_seed, i)`.
    pub master_seed: u64,
    /// The cell-code legend, code -> name (`warren.cell_codes`).
    pub cell_codes: BTreeMap<u8, String>,
    /// Vertex tag names indexed by tag id (`warren.tags`).
    pub tags: Vec<String>,
    /// Names of the rules counted by `rule_uses` (`warren.rules`).
    pub rules: Vec<String>,
    /// The run's shard; `None` for a part of a run that is not one of its shards (the Python
    /// package's tables from a start index).
    pub shard: Option<ShardMeta>,
    /// The files the profile names, path -> contents (empty when it names none).
    pub files: Files,
    /// The run's selection, if it had one.
    pub selection: Option<SelectionMeta>,
    /// For one split of a dataset, which one.
    pub split: Option<SplitMeta>,
    /// For a run of a mixture of the profile's variants, the variants.
    pub mixture: Option<MixtureMeta>,
}

/// The variants of a mixture run as its metadata records them ([`META_MIXTURE`]).
pub use crate::profile::MixtureSpec as MixtureMeta;

/// One split of a dataset as its metadata records it ([`META_SPLIT`]).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SplitMeta {
    /// This split's name (`train`, `val`, `test`).
    pub name: String,
    /// The share of every split, in the order they are laid out on [0, 1).
    pub fractions: Vec<(String, f64)>,
    /// The file name of the archive split.
    pub source: String,
    /// Levels were assigned by their `canonical_hash` (every symmetric copy of a level in one
    /// split), not their `layout_hash` (archives from before the column).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub canonical: bool,
}

impl SplitMeta {
    /// The column the split was drawn from.
    pub fn key(&self) -> &'static str {
        if self.canonical {
            "canonical_hash"
        } else {
            "layout_hash"
        }
    }
}

/// A run's selection as its metadata records it ([`META_SELECTION`]).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SelectionMeta {
    /// Only the first level of each `layout_hash` (or `canonical_hash`) was kept.
    pub unique: bool,
    /// `unique` by `canonical_hash` (`--unique canonical`), not `layout_hash`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub canonical: bool,
    /// The `--where` filter every level passed.
    #[serde(rename = "where")]
    pub filter: Option<String>,
    /// Indices a whole run could try.
    pub max_tries: u64,
    /// The `--quota` the kept levels fill, as given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quota: Option<String>,
    /// The `--max-share` caps the kept levels keep to, as given.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub max_share: Vec<String>,
}

/// What a run with a selection looked at ([`FOOTER_SCANNED`]): the indices `start..end`, each
/// one a level written, a failed seed, a duplicate or a level filtered out.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scanned {
    /// The first index looked at.
    pub start: u64,
    /// One past the last index accounted for.
    pub end: u64,
    /// Levels left out because an earlier level had their `layout_hash`.
    pub duplicates: u64,
    /// Levels the filter left out.
    pub filtered: u64,
}

impl Scanned {
    /// The indices looked at.
    pub fn range(&self) -> std::ops::Range<u64> {
        self.start..self.end
    }
}

/// What an archive's footer counts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunFooter {
    /// Levels written (`warren.levels`).
    pub levels: u64,
    /// Failed seeds by reason (`warren.failures`).
    pub failures: BTreeMap<String, u64>,
    /// With a selection, what the run looked at (`warren.scanned`).
    pub scanned: Option<Scanned>,
}

/// `value` as JSON.
fn to_json<T: Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_string(value).expect("maps with string or integer keys serialise")
}

/// `value` shortened for an error message.
fn shortened(value: &str) -> String {
    const MAX: usize = 60;
    match value.char_indices().nth(MAX) {
        Some((at, _)) => format!("{}...", &value[..at]),
        None => value.to_string(),
    }
}

/// A value that does not parse as what `key` holds.
fn invalid(key: &'static str, value: &str, expected: &'static str, error: String) -> MetaError {
    MetaError::Invalid {
        key,
        value: shortened(value),
        expected,
        error,
    }
}

/// The JSON value of `key`, described as `expected` in errors.
fn from_json<T: DeserializeOwned>(
    key: &'static str,
    value: &str,
    expected: &'static str,
) -> Result<T, MetaError> {
    serde_json::from_str(value).map_err(|e| invalid(key, value, expected, e.to_string()))
}

/// The `value` of `key`, which must be there.
fn required<'a>(value: Option<&'a String>, key: &'static str) -> Result<&'a str, MetaError> {
    value.map(String::as_str).ok_or(MetaError::Missing { key })
}

/// The metadata format of schema `metadata`: `Ok(None)` when it carries no run metadata at all
/// (an archive written without a run's metadata, as the tests and benches write them).
///
/// # Errors
/// An archive of another format, named with the version that wrote it: an archive of warren
/// 0.2's layout (it has `warren.version` but no `warren.format`) is older than this warren reads.
pub fn check_format(metadata: &Metadata) -> Result<Option<u32>, MetaError> {
    let version = metadata.get(META_VERSION);
    let Some(text) = metadata.get(META_FORMAT) else {
        return match version {
            None => Ok(None),
            Some(v) => Err(MetaError::TooOld {
                format: v.splitn(3, '.').take(2).collect::<Vec<_>>().join("."),
                written_by: v.clone(),
                current: FORMAT_VERSION,
            }),
        };
    };
    let format: u32 = text.trim().parse().map_err(|e: std::num::ParseIntError| {
        invalid(META_FORMAT, text, "a format number", e.to_string())
    })?;
    let written_by = version.map_or_else(|| "of unknown version".to_string(), Clone::clone);
    match format.cmp(&FORMAT_VERSION) {
        std::cmp::Ordering::Less => Err(MetaError::TooOld {
            format: format.to_string(),
            written_by,
            current: FORMAT_VERSION,
        }),
        std::cmp::Ordering::Greater => Err(MetaError::TooNew {
            format,
            written_by,
            current: FORMAT_VERSION,
        }),
        std::cmp::Ordering::Equal => Ok(Some(format)),
    }
}

/// The batch checksums of a footer's [`FOOTER_BATCH_CRC32`] value.
pub(crate) fn batch_crcs_from_json(value: &str) -> Result<Vec<u32>, MetaError> {
    from_json(FOOTER_BATCH_CRC32, value, "a JSON array of CRC-32 numbers")
}

/// The [`FOOTER_BATCH_CRC32`] value of `crcs`.
pub(crate) fn batch_crcs_to_json(crcs: &[u32]) -> String {
    to_json(crcs)
}

impl RunMeta {
    /// The metadata of a run of `generator` (whose resolved profile is `profile_toml`) from
    /// `master_seed`, written by this warren: no shard record and no files until
    /// [`with_shard`](Self::with_shard) and [`with_files`](Self::with_files) add them.
    pub fn new<G: Generator>(generator: &G, profile_toml: &str, master_seed: u64) -> Self {
        Self {
            version: env!("CARGO_PKG_VERSION").to_string(),
            generator: generator.kind().to_string(),
            profile: profile_toml.to_string(),
            master_seed,
            cell_codes: (0..)
                .zip(cell::NAMES)
                .map(|(code, name)| (code, name.to_string()))
                .collect(),
            tags: generator.tag_names(),
            rules: generator.rule_names(),
            shard: None,
            files: Files::new(),
            selection: None,
            split: None,
            mixture: None,
        }
    }

    /// The same metadata for a run of the mixture `mixture` of the profile's variants.
    pub fn with_mixture(self, mixture: Option<MixtureMeta>) -> Self {
        Self { mixture, ..self }
    }

    /// The same metadata marked as split `split` of a dataset.
    pub fn with_split(self, split: Option<SplitMeta>) -> Self {
        Self { split, ..self }
    }

    /// The same metadata with the selection `selection`.
    pub fn with_selection(self, selection: Option<SelectionMeta>) -> Self {
        Self { selection, ..self }
    }

    /// The same metadata with the shard record `shard`.
    pub fn with_shard(self, shard: ShardMeta) -> Self {
        Self {
            shard: Some(shard),
            ..self
        }
    }

    /// The same metadata with the profile's `files` (for a generator just built by
    /// `Profile::with_generator`, `crate::core::files::last_built()`).
    pub fn with_files(self, files: Files) -> Self {
        Self { files, ..self }
    }

    /// The schema metadata: every `warren.*` key, JSON where the value is structured.
    pub fn to_metadata(&self) -> HashMap<String, String> {
        let mut metadata = HashMap::from([
            (META_FORMAT, FORMAT_VERSION.to_string()),
            (META_VERSION, self.version.clone()),
            (META_GENERATOR, self.generator.clone()),
            (META_PROFILE, self.profile.clone()),
            (META_MASTER_SEED, self.master_seed.to_string()),
            (META_CELL_CODES, to_json(&self.cell_codes)),
            (META_TAGS, to_json(&self.tags)),
            (META_RULES, to_json(&self.rules)),
        ]);
        if let Some(shard) = &self.shard {
            metadata.insert(META_SHARD, to_json(shard));
        }
        if !self.files.is_empty() {
            metadata.insert(META_FILES, to_json(&self.files));
        }
        if let Some(selection) = &self.selection {
            metadata.insert(META_SELECTION, to_json(selection));
        }
        if let Some(split) = &self.split {
            metadata.insert(META_SPLIT, to_json(split));
        }
        if let Some(mixture) = &self.mixture {
            metadata.insert(META_MIXTURE, to_json(mixture));
        }
        metadata
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect()
    }

    /// Reads schema `metadata` back, checking its format and every value.
    ///
    /// # Errors
    /// Another format version, a missing key, or a value that does not parse (a shard record
    /// whose range is not its shard's included); the message names the key.
    pub fn from_metadata(metadata: &Metadata) -> Result<Self, MetaError> {
        check_format(metadata)?.ok_or(MetaError::Missing { key: META_FORMAT })?;
        let get = |key| required(metadata.get(key), key);
        let seed = get(META_MASTER_SEED)?;
        let shard = metadata
            .get(META_SHARD)
            .map(|text| {
                let record: ShardRecord =
                    from_json(META_SHARD, text, "a JSON shard record of numbers")?;
                ShardMeta::try_from(record)
                    .map_err(|e| invalid(META_SHARD, text, "the shard's record", e.to_string()))
            })
            .transpose()?;
        Ok(Self {
            version: get(META_VERSION)?.to_string(),
            generator: get(META_GENERATOR)?.to_string(),
            profile: get(META_PROFILE)?.to_string(),
            master_seed: seed.trim().parse().map_err(|e: std::num::ParseIntError| {
                invalid(META_MASTER_SEED, seed, "a number", e.to_string())
            })?,
            cell_codes: from_json(
                META_CELL_CODES,
                get(META_CELL_CODES)?,
                "a JSON object of cell names",
            )?,
            tags: from_json(META_TAGS, get(META_TAGS)?, "a JSON array of strings")?,
            rules: from_json(META_RULES, get(META_RULES)?, "a JSON array of strings")?,
            shard,
            files: metadata
                .get(META_FILES)
                .map(|text| from_json(META_FILES, text, "a JSON object of file contents"))
                .transpose()?
                .unwrap_or_default(),
            selection: metadata
                .get(META_SELECTION)
                .map(|text| from_json(META_SELECTION, text, "a JSON selection record"))
                .transpose()?,
            split: metadata
                .get(META_SPLIT)
                .map(|text| from_json(META_SPLIT, text, "a JSON split record"))
                .transpose()?,
            mixture: metadata
                .get(META_MIXTURE)
                .map(|text| from_json(META_MIXTURE, text, "a JSON mixture record"))
                .transpose()?,
        })
    }

    /// Reads the metadata of `schema` (an archive's, or a table's handed over by Python).
    ///
    /// # Errors
    /// As [`from_metadata`](Self::from_metadata).
    pub fn from_schema(schema: &Schema) -> Result<Self, MetaError> {
        Self::from_metadata(schema.metadata())
    }
}

impl RunFooter {
    /// The footer metadata: level count and failure histogram.
    pub fn to_metadata(&self) -> Vec<(String, String)> {
        let mut metadata = vec![
            (FOOTER_LEVELS.to_string(), self.levels.to_string()),
            (FOOTER_FAILURES.to_string(), to_json(&self.failures)),
        ];
        if let Some(scanned) = &self.scanned {
            metadata.push((FOOTER_SCANNED.to_string(), to_json(scanned)));
        }
        metadata
    }

    /// Reads footer `metadata` back.
    ///
    /// # Errors
    /// A missing key (a run that did not finish, or a file not written by a run) or a value
    /// that does not parse; the message names the key.
    pub fn from_metadata(metadata: &HashMap<String, String>) -> Result<Self, MetaError> {
        let levels = required(metadata.get(FOOTER_LEVELS), FOOTER_LEVELS)?;
        Ok(Self {
            levels: levels
                .trim()
                .parse()
                .map_err(|e: std::num::ParseIntError| {
                    invalid(FOOTER_LEVELS, levels, "a number", e.to_string())
                })?,
            failures: from_json(
                FOOTER_FAILURES,
                required(metadata.get(FOOTER_FAILURES), FOOTER_FAILURES)?,
                "a JSON object of counts",
            )?,
            scanned: metadata
                .get(FOOTER_SCANNED)
                .map(|text| from_json(FOOTER_SCANNED, text, "a JSON scan record"))
                .transpose()?,
        })
    }

    /// Failed seeds in all.
    pub fn failed(&self) -> u64 {
        self.failures.values().sum()
    }
}

#[cfg(test)]
#[path = "meta_tests.rs"]
mod tests;
