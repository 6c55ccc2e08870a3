//! The IPC file vocabulary the writer, the progress record and the reader share: how buffers
//! are compressed ([`Compression`]), the bytes an archive starts with ([`header_bytes`]) and the
//! footer as Arrow's `FileWriter::finish` writes it ([`write_footer`]), so that a resumed
//! archive ends in the bytes an uninterrupted one does.

use std::io::Write;
use std::path::Path;

use arrow_ipc::convert::IpcSchemaEncoder;
use arrow_ipc::writer::{DictionaryTracker, FileWriter, IpcWriteOptions};
use arrow_ipc::{Block, CompressionType, FooterBuilder, MetadataVersion};
use arrow_schema::{Metadata, Schema};

use crate::archive::error::ArchiveError;

/// How an archive's record batches store their buffers: as they are (the default: a reader maps
/// them without a copy), or compressed with Arrow IPC's buffer compression, which pyarrow,
/// polars and every warren command read (decompressing each batch as it is read).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Compression {
    /// Buffers as they are.
    #[default]
    None,
    /// Zstandard (level 3, Arrow's default): the smaller files.
    Zstd,
    /// LZ4 frames: the faster to write and read.
    Lz4,
}

impl Compression {
    /// Every choice, as the command line names them.
    pub const ALL: [Self; 3] = [Self::None, Self::Zstd, Self::Lz4];

    /// Its name on the command line and in messages: `none`, `zstd`, `lz4`.
    pub fn name(self) -> &'static str {
        match self {
            Self::None => "none",
            Self::Zstd => "zstd",
            Self::Lz4 => "lz4",
        }
    }

    /// The choice named `name` (see [`Compression::name`]).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.name() == name)
    }

    /// Arrow's codec for it.
    pub(crate) fn codec(self) -> Option<CompressionType> {
        match self {
            Self::None => None,
            Self::Zstd => Some(CompressionType::ZSTD),
            Self::Lz4 => Some(CompressionType::LZ4_FRAME),
        }
    }

    /// The choice whose Arrow codec is `codec`.
    pub(crate) fn from_codec(codec: Option<CompressionType>) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.codec() == codec)
    }
}

/// An Arrow error while writing `tmp`: a failed write (a full disk, an I/O error) becomes an
/// [`ArchiveError::Io`] naming the file, anything else an [`ArchiveError::Encode`].
pub(crate) fn encode_error(tmp: &Path, source: arrow_schema::ArrowError) -> ArchiveError {
    match source {
        arrow_schema::ArrowError::IoError(_, source) => ArchiveError::Io {
            path: tmp.to_path_buf(),
            action: "cannot write",
            source,
        },
        source => ArchiveError::Encode {
            path: tmp.to_path_buf(),
            source,
        },
    }
}

/// The IPC options of an archive written with `compression`.
pub(crate) fn ipc_options(
    path: &Path,
    compression: Compression,
) -> Result<IpcWriteOptions, ArchiveError> {
    IpcWriteOptions::default()
        .try_with_compression(compression.codec())
        .map_err(|source| encode_error(path, source))
}

/// The bytes an archive of `schema` starts with: the magic, its padding and the schema message
/// (what a resumed file must already hold).
pub(crate) fn header_bytes(
    path: &Path,
    schema: &Schema,
    compression: Compression,
) -> Result<Vec<u8>, ArchiveError> {
    let options = ipc_options(path, compression)?;
    let writer = FileWriter::try_new_with_options(Vec::new(), schema, options)
        .map_err(|source| encode_error(path, source))?;
    Ok(writer.get_ref().clone())
}

/// Writes the end-of-stream marker and the IPC file footer (`schema`, the record batch
/// `blocks`, the key/value `metadata`) exactly as Arrow's `FileWriter::finish` does, so that
/// a resumed archive, whose earlier blocks that writer never saw, ends in the same bytes.
pub(crate) fn write_footer<W: Write>(
    out: &mut W,
    schema: &Schema,
    blocks: &[Block],
    metadata: &Metadata,
) -> std::io::Result<()> {
    out.write_all(&[0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0])?;
    let mut fbb = flatbuffers::FlatBufferBuilder::new();
    let dictionaries = fbb.create_vector::<Block>(&[]);
    let record_batches = fbb.create_vector(blocks);
    let mut tracker = DictionaryTracker::new(true);
    let fb_schema = IpcSchemaEncoder::new()
        .with_dictionary_tracker(&mut tracker)
        .schema_to_fb_offset(&mut fbb, schema);
    let fb_metadata =
        (!metadata.is_empty()).then(|| arrow_ipc::convert::metadata_to_fb(&mut fbb, metadata));
    let root = {
        let mut footer = FooterBuilder::new(&mut fbb);
        footer.add_version(MetadataVersion::V5);
        footer.add_schema(fb_schema);
        footer.add_dictionaries(dictionaries);
        footer.add_recordBatches(record_batches);
        if let Some(m) = fb_metadata {
            footer.add_custom_metadata(m);
        }
        footer.finish()
    };
    fbb.finish(root, None);
    let data = fbb.finished_data();
    out.write_all(data)?;
    out.write_all(&(data.len() as i32).to_le_bytes())?;
    out.write_all(b"ARROW1")?;
    out.flush()
}
