//! Archive errors: every one names the file, the metadata key or the column it is about, and
//! displays as one line.

use std::path::PathBuf;

use arrow_schema::DataType;
use thiserror::Error;

/// What went wrong reading or writing an archive.
#[derive(Debug, Error)]
pub enum ArchiveError {
    /// The file could not be opened, created, written, synced or renamed.
    #[error("{path}: {action}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What was being done ("cannot create", "cannot rename into place", ...).
        action: &'static str,
        /// The underlying error.
        source: std::io::Error,
    },
    /// Writing a resumable run's `FILE.tmp` or its progress record failed (a full disk, a quota,
    /// an I/O error) after chunks of levels were recorded: both files are kept as they are, and
    /// `--resume` goes on from those levels once the file can be written again.
    #[error(
        "{path}: {action}: {error}; the {} levels written so far are kept: {}",
        thousands(.levels),
        resume_hint(.error)
    )]
    Kept {
        /// `FILE.tmp`, or its progress record `FILE.tmp.progress`.
        path: PathBuf,
        /// What was being done ("cannot write", "cannot sync").
        action: &'static str,
        /// The operating system's error (shown in the message, not a separate cause).
        error: std::io::Error,
        /// Levels in the chunks recorded: what a resume keeps.
        levels: u64,
    },
    /// The file is not a well-formed warren archive (truncated, corrupt, or not Arrow IPC).
    #[error("{path}: not a valid warren archive: {reason}")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What check failed.
        reason: String,
    },
    /// A record batch's message is not one warren writes (checked before Arrow decodes it).
    #[error("{path}: not a valid warren archive: record batch {batch}: {error}")]
    Message {
        /// The file.
        path: PathBuf,
        /// The record batch.
        batch: usize,
        /// What is wrong with its message.
        error: MessageError,
    },
    /// The archive's `warren.*` metadata is missing, malformed or of another format version.
    #[error("{path}: {error}")]
    Metadata {
        /// The file.
        path: PathBuf,
        /// What is wrong with the metadata.
        error: MetaError,
    },
    /// The archive's columns are not laid out as warren lays them out.
    #[error("{path}: {error}")]
    Schema {
        /// The file.
        path: PathBuf,
        /// What is wrong with the columns.
        error: SchemaError,
    },
    /// `generate --resume` will not go on from this file: another run's, or not an archive.
    #[error("{path}: {reason}")]
    Resume {
        /// `FILE.tmp` or `FILE`.
        path: PathBuf,
        /// What differs, and that nothing changed.
        reason: String,
    },
    /// A Parquet file could not be written or read (the Parquet crate's message).
    #[error("{path}: {message}")]
    Parquet {
        /// The file or dataset folder.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// A Parquet dataset folder's files do not make one split: none there, one missing, their
    /// counts at odds, or their schemas different.
    #[error("{path}: {reason}")]
    Dataset {
        /// The file (or the folder) at fault.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// Arrow rejected data while encoding.
    #[error("{path}: cannot encode")]
    Encode {
        /// The file.
        path: PathBuf,
        /// The Arrow error.
        source: arrow_schema::ArrowError,
    },
}

/// `n` with thousands separators (for [`ArchiveError::Kept`]).
fn thousands(n: &u64) -> String {
    crate::core::text::thousands(*n)
}

/// What to do about the failed write of a run kept to resume (for [`ArchiveError::Kept`]).
fn resume_hint(error: &std::io::Error) -> &'static str {
    use std::io::ErrorKind;
    match error.kind() {
        ErrorKind::StorageFull | ErrorKind::QuotaExceeded => {
            "free space and run the same command with --resume"
        }
        _ => "once the file can be written again, run the same command with --resume",
    }
}

/// A `warren.*` metadata value that cannot be used: the message names the key.
#[derive(Debug, Error)]
pub enum MetaError {
    /// A key every run's archive carries is absent.
    #[error("no {key} metadata")]
    Missing {
        /// The key.
        key: &'static str,
    },
    /// A value is not of the form its key holds.
    #[error("{key} `{value}` is not {expected}: {error}")]
    Invalid {
        /// The key.
        key: &'static str,
        /// The value (shortened when long).
        value: String,
        /// What the key holds ("a JSON array of strings", ...).
        expected: &'static str,
        /// Why it does not parse.
        error: String,
    },
    /// The archive was written in an older format than this warren reads.
    #[error(
        "archive format {format} (warren {written_by}) is older than this warren reads \
         ({current}); regenerate it"
    )]
    TooOld {
        /// The archive's format: its `warren.format`, or for archives from before the key
        /// existed, the `major.minor` of the warren version that wrote it.
        format: String,
        /// The warren version that wrote it.
        written_by: String,
        /// The format this warren reads.
        current: u32,
    },
    /// The archive was written in a newer format than this warren reads.
    #[error(
        "archive format {format} (warren {written_by}) is newer than this warren reads \
         ({current}); read it with a newer warren"
    )]
    TooNew {
        /// The archive's `warren.format`.
        format: u32,
        /// The warren version that wrote it.
        written_by: String,
        /// The format this warren reads.
        current: u32,
    },
}

/// A schema whose columns are not laid out as `level_schema` lays them out.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SchemaError {
    /// A column whose type is neither a fixed column's, an extra column's nor a metric's.
    #[error(
        "column `{name}` is {data_type}: neither one of warren's columns, an extra column nor \
         a metric"
    )]
    UnknownColumn {
        /// The column.
        name: String,
        /// Its type.
        data_type: DataType,
    },
    /// The columns are not in warren's order, or one a part needs is missing or mistyped.
    #[error("column {position} is {found}, where warren writes {expected}")]
    Misplaced {
        /// Zero-based position in the schema.
        position: usize,
        /// What the schema has there (`name` type, or `nothing`).
        found: String,
        /// What `level_schema` puts there for the same columns.
        expected: String,
    },
}

/// A column of a record batch that cannot be read as its declared type.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ColumnError {
    /// The column is absent.
    #[error("column `{name}` is missing")]
    Missing {
        /// The column.
        name: String,
    },
    /// The column has another type.
    #[error("column `{name}` is {found}, expected {expected}")]
    WrongType {
        /// The column.
        name: String,
        /// Its type.
        found: DataType,
        /// The type it should have.
        expected: String,
    },
    /// A list column's values are a slice of a larger array (decoded IPC arrays never are).
    #[error("column `{name}` has sliced values")]
    Sliced {
        /// The column.
        name: String,
    },
    /// The column holds nulls (warren never writes any).
    #[error("column `{name}` holds nulls")]
    Nulls {
        /// The column.
        name: String,
    },
}

/// A record-batch message that is not one warren writes.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MessageError {
    /// The message's flatbuffer does not parse.
    #[error("message does not parse: {0}")]
    Unparsable(String),
    /// The message is another kind of message.
    #[error("expected a record batch, found {0}")]
    NotARecordBatch(String),
    /// The message says it is a record batch but has no record batch header.
    #[error("record batch header missing")]
    NoHeader,
    /// The buffers are compressed with a codec warren does not read.
    #[error(
        "buffers compressed with {0}, which warren does not read (it reads LZ4_FRAME and ZSTD)"
    )]
    Codec(String),
    /// A compressed buffer is too short to hold its uncompressed length.
    #[error("compressed buffer {index} is {length} bytes, shorter than its 8-byte length prefix")]
    CompressedTooShort {
        /// The buffer's place in the message.
        index: usize,
        /// Its length.
        length: i64,
    },
    /// A compressed buffer's uncompressed length is negative (and not -1, "stored as is").
    #[error("compressed buffer {index} declares {length} bytes uncompressed")]
    UncompressedLength {
        /// The buffer's place in the message.
        index: usize,
        /// The length it declares.
        length: i64,
    },
    /// The compressed buffers declare far more bytes than any archive warren writes: decoding
    /// would allocate them before finding the damage.
    #[error(
        "compressed buffers declare {declared} bytes uncompressed from a {body}-byte body \
         (more than {limit}x: damaged)"
    )]
    Inflates {
        /// The uncompressed bytes the buffers declare in all.
        declared: u64,
        /// The body's length.
        body: usize,
        /// The largest ratio accepted.
        limit: u64,
    },
    /// The row count is negative.
    #[error("negative row count")]
    NegativeRows,
    /// A buffer's length is not a whole number of its column's values (Arrow would panic on it).
    #[error("buffer {index} is {length} bytes, not a whole number of {width}-byte values")]
    BufferLength {
        /// The buffer's place in the message.
        index: usize,
        /// Its length.
        length: i64,
        /// The size of one of its values.
        width: usize,
    },
    /// A buffer lies outside the message body.
    #[error("buffer at {offset}+{length} lies outside the {body}-byte body")]
    BufferOutside {
        /// The buffer's offset in the body.
        offset: i64,
        /// Its length.
        length: i64,
        /// The body's length.
        body: usize,
    },
}
