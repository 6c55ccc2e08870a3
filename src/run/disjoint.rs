//! `warren verify --disjoint`: a proof that datasets share no level, exactly or up to symmetry.
//! Every level of every input (an archive, or each split of a Parquet dataset folder) gives its
//! `layout_hash` and `canonical_hash`; a hash found in two inputs is an overlap, named by the
//! input and index of each level that has it.
//!
//! Memory stays bounded at any size: the hashes are partitioned by their top bits into
//! [`BUCKETS`] files in a scratch folder, and each file is sorted and scanned on its own, so the
//! memory held is one bucket's records (about a 256th of 24 bytes per level and hash).

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use arrow_array::cast::AsArray;
use arrow_array::types::UInt64Type;

use crate::archive::{Archive, ArchiveError, LevelSource, ParquetDataset, dataset_splits};

/// Buckets the hashes are partitioned into (by their top 8 bits).
pub const BUCKETS: usize = 256;

/// Which hash a record carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Identity {
    /// `layout_hash`: the exact level.
    Exact,
    /// `canonical_hash`: the level up to symmetry.
    Canonical,
}

/// One shared hash: the levels (input name, index) that have it, one per input at least two
/// inputs apart (the first level of each input found).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Overlap {
    /// The hash compared.
    pub identity: Identity,
    /// Its value.
    pub hash: u64,
    /// One level per input that has it: the input's name and the level's index.
    pub levels: Vec<(String, u64)>,
}

/// What `--disjoint` found.
#[derive(Debug, Default)]
pub struct DisjointReport {
    /// The inputs compared, by name, with their level counts.
    pub inputs: Vec<(String, u64)>,
    /// Inputs without a `canonical_hash` column (archives from before it): compared exactly
    /// only.
    pub exact_only: Vec<String>,
    /// Hashes shared by two inputs or more: `layout_hash`, `canonical_hash`.
    pub exact_overlaps: u64,
    /// As `exact_overlaps`, for `canonical_hash`.
    pub canonical_overlaps: u64,
    /// The first overlaps found, at most `show`: bucket by bucket (by the hashes' top bits),
    /// exact ones before canonical ones within a bucket; listed sorted by identity and hash.
    pub shown: Vec<Overlap>,
}

/// Why the check could not be made.
#[derive(Debug, thiserror::Error)]
pub enum DisjointError {
    /// An input cannot be read.
    #[error(transparent)]
    Archive(#[from] ArchiveError),
    /// The scratch folder or a bucket file failed.
    #[error("{path}: {source}")]
    Scratch {
        /// The file or folder.
        path: PathBuf,
        /// What failed.
        source: std::io::Error,
    },
    /// An input has no `layout_hash` column.
    #[error("{input}: no layout_hash column (not a warren archive?)")]
    NoHash {
        /// The input.
        input: String,
    },
    /// Fewer than two inputs: nothing to compare.
    #[error("--disjoint needs two inputs or more (a Parquet folder counts one per split); got {0}")]
    TooFew(usize),
    /// More inputs than a record can name.
    #[error("--disjoint compares at most {max} inputs; got {got}")]
    TooMany {
        /// The limit.
        max: usize,
        /// Inputs given.
        got: usize,
    },
}

/// One input: a name for messages and its levels.
enum Input {
    Archive(Archive),
    Split(ParquetDataset),
}

impl Input {
    fn source(&self) -> &dyn LevelSource {
        match self {
            Input::Archive(a) => a,
            Input::Split(d) => d,
        }
    }
}

/// The inputs `paths` name: an archive file each, or every split of a Parquet dataset folder.
fn open_inputs(paths: &[PathBuf]) -> Result<Vec<(String, Input)>, DisjointError> {
    let mut inputs = Vec::new();
    for path in paths {
        if path.is_dir() {
            for split in dataset_splits(path)? {
                let name = format!("{}:{split}", path.display());
                inputs.push((name, Input::Split(ParquetDataset::open(path, &split)?)));
            }
        } else {
            inputs.push((
                path.display().to_string(),
                Input::Archive(Archive::open(path)?),
            ));
        }
    }
    Ok(inputs)
}

/// A record in a bucket file: hash, identity and input packed, index.
const RECORD: usize = 24;

/// Checks that no two of the inputs at `paths` share a `layout_hash` or a `canonical_hash`,
/// partitioning the hashes into bucket files under `scratch` (a folder made and removed here).
/// `show`: overlaps listed at most.
///
/// # Errors
/// An input that cannot be read or has no `layout_hash`; fewer than two inputs; the scratch
/// folder cannot be written.
///
/// # Runtime
/// Two passes over the hashes (write the buckets, then sort each): O(n log n) time for n
/// levels, memory O(n / BUCKETS) records plus one record batch.
pub fn disjoint(
    paths: &[PathBuf],
    scratch: &Path,
    show: usize,
) -> Result<DisjointReport, DisjointError> {
    let inputs = open_inputs(paths)?;
    if inputs.len() < 2 {
        return Err(DisjointError::TooFew(inputs.len()));
    }
    if inputs.len() > u32::MAX as usize >> 1 {
        return Err(DisjointError::TooMany {
            max: u32::MAX as usize >> 1,
            got: inputs.len(),
        });
    }
    let dir = scratch.join(format!("warren-disjoint-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(io(&dir))?;
    let result = partition_and_scan(&inputs, &dir, show);
    let _ = std::fs::remove_dir_all(&dir);
    result
}

/// Maps an I/O error on `path` to [`DisjointError::Scratch`].
fn io(path: &Path) -> impl FnOnce(std::io::Error) -> DisjointError + use<> {
    let path = path.to_path_buf();
    move |source| DisjointError::Scratch { path, source }
}

/// The bucket file `b` of the scratch folder `dir`.
fn bucket_path(dir: &Path, b: usize) -> PathBuf {
    dir.join(format!("{b:03}.bin"))
}

fn partition_and_scan(
    inputs: &[(String, Input)],
    dir: &Path,
    show: usize,
) -> Result<DisjointReport, DisjointError> {
    let mut report = DisjointReport::default();
    partition(inputs, dir, &mut report)?;
    let mut found: Vec<Overlap> = Vec::new();
    for b in 0..BUCKETS {
        let p = bucket_path(dir, b);
        let mut bytes = Vec::new();
        File::open(&p)
            .map(BufReader::new)
            .and_then(|mut r| r.read_to_end(&mut bytes))
            .map_err(io(&p))?;
        let _ = std::fs::remove_file(&p);
        // (identity, hash, input, index), sorted.
        let mut recs: Vec<(u64, u64, u64, u64)> = bytes
            .chunks_exact(RECORD)
            .map(|r| {
                let word =
                    |at: usize| u64::from_le_bytes(r[at..at + 8].try_into().expect("8 bytes"));
                let tag = word(8);
                (tag & 1, word(0), tag >> 1, word(16))
            })
            .collect();
        drop(bytes);
        recs.sort_unstable();
        scan(&recs, inputs, &mut report, &mut found, show);
    }
    found.sort_by_key(|o| (o.identity, o.hash));
    found.truncate(show);
    report.shown = found;
    Ok(report)
}

/// Writes every input's hashes into the bucket files, counting each input's levels.
fn partition(
    inputs: &[(String, Input)],
    dir: &Path,
    report: &mut DisjointReport,
) -> Result<(), DisjointError> {
    let mut writers = (0..BUCKETS)
        .map(|b| {
            let p = bucket_path(dir, b);
            File::create(&p).map(BufWriter::new).map_err(io(&p))
        })
        .collect::<Result<Vec<_>, _>>()?;
    for (k, (name, input)) in inputs.iter().enumerate() {
        let source = input.source();
        if source.schema().field_with_name("canonical_hash").is_err() {
            report.exact_only.push(name.clone());
        }
        let mut levels = 0u64;
        for b in 0..source.batch_count() {
            let batch = source.batch(b)?;
            let column = |col: &str| {
                batch
                    .column_by_name(col)
                    .and_then(|c| c.as_primitive_opt::<UInt64Type>())
                    .map(|c| c.values().clone())
            };
            let no_hash = || DisjointError::NoHash {
                input: name.clone(),
            };
            let index = column("index").ok_or_else(no_hash)?;
            let exact = column("layout_hash").ok_or_else(no_hash)?;
            let kinds = [
                (Identity::Exact, Some(exact)),
                (Identity::Canonical, column("canonical_hash")),
            ];
            for (identity, hashes) in kinds {
                let Some(hashes) = hashes else { continue };
                let tag = (k as u64) << 1 | u64::from(identity == Identity::Canonical);
                for (&h, &i) in hashes.iter().zip(index.iter()) {
                    let mut rec = [0u8; RECORD];
                    rec[..8].copy_from_slice(&h.to_le_bytes());
                    rec[8..16].copy_from_slice(&tag.to_le_bytes());
                    rec[16..].copy_from_slice(&i.to_le_bytes());
                    let bucket = (h >> 56) as usize;
                    writers[bucket]
                        .write_all(&rec)
                        .map_err(io(&bucket_path(dir, bucket)))?;
                }
            }
            levels += batch.num_rows() as u64;
            drop(batch);
            source.release(b);
        }
        report.inputs.push((name.clone(), levels));
    }
    for (b, w) in writers.into_iter().enumerate() {
        w.into_inner()
            .map_err(|e| e.into_error())
            .map_err(io(&bucket_path(dir, b)))?;
    }
    Ok(())
}

/// Counts the hashes of one sorted bucket that more than one input has, keeping the first
/// `show` (by identity and hash) in `found`.
fn scan(
    recs: &[(u64, u64, u64, u64)],
    inputs: &[(String, Input)],
    report: &mut DisjointReport,
    found: &mut Vec<Overlap>,
    show: usize,
) {
    let mut at = 0;
    while at < recs.len() {
        let (kind, hash, ..) = recs[at];
        let mut end = at + 1;
        while end < recs.len() && recs[end].0 == kind && recs[end].1 == hash {
            end += 1;
        }
        let group = &recs[at..end];
        at = end;
        if group.first().map(|r| r.2) == group.last().map(|r| r.2) {
            continue;
        }
        let identity = if kind == 1 {
            report.canonical_overlaps += 1;
            Identity::Canonical
        } else {
            report.exact_overlaps += 1;
            Identity::Exact
        };
        if found.len() >= show {
            continue;
        }
        let mut levels: Vec<(String, u64)> = Vec::new();
        let mut last_input = u64::MAX;
        for r in group {
            if r.2 != last_input {
                levels.push((inputs[r.2 as usize].0.clone(), r.3));
                last_input = r.2;
            }
        }
        found.push(Overlap {
            identity,
            hash,
            levels,
        });
    }
}
