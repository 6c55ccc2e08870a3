//! Arrow IPC archives (DESIGN.md, "Archive"): the schema, the chunk builder that turns levels into
//! record batches, the atomic streaming writer and the memory-mapped, validating reader.

mod chunk;
mod direct;
mod error;
mod reader;
mod record;
mod schema;
mod writer;

pub use chunk::ChunkBuilder;
pub use error::ArchiveError;
pub use reader::Archive;
pub use record::BatchView;
pub use schema::{DOC_KEY, extra_type, level_schema, list_of};
pub use writer::{ArchiveWriter, FOOTER_BATCH_CRC32, temp_path};

/// Schema metadata: warren's version.
pub const META_VERSION: &str = "warren.version";
/// Schema metadata: the generator kind.
pub const META_GENERATOR: &str = "warren.generator";
/// Schema metadata: the full resolved profile, as TOML.
pub const META_PROFILE: &str = "warren.profile";
/// Schema metadata: the master seed.
pub const META_MASTER_SEED: &str = "warren.master_seed";
/// Schema metadata: the cell-code legend, as JSON.
pub const META_CELL_CODES: &str = "warren.cell_codes";
/// Schema metadata: the vertex tag names, as a JSON array indexed by tag id.
pub const META_TAGS: &str = "warren.tags";
/// Schema metadata: the rule names of `rule_uses`, as a JSON array.
pub const META_RULES: &str = "warren.rules";
/// Schema metadata: the files the profile names (a grammar's rule file, DMG table overrides),
/// as a JSON object path -> contents, so that the archive verifies with nothing but itself.
/// Absent when the profile names none.
pub const META_FILES: &str = "warren.files";
/// Schema metadata: the shard of the run, `I/N`, and its index range.
pub const META_SHARD: &str = "warren.shard";
/// Footer metadata: levels written.
pub const FOOTER_LEVELS: &str = "warren.levels";
/// Footer metadata: failed seeds, as a JSON object reason -> count.
pub const FOOTER_FAILURES: &str = "warren.failures";
